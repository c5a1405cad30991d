"""Dice expressions and the one roll-test primitive every rule system uses.

Two ideas live here and nowhere else:

* :func:`parse_dice` turns a dice expression of the one grammar (``3``, ``D3``, ``2D6+1``,
  ``2D6+D3-1``, ``3D6kh2``, ``4D6dl1``, ``D6r1``, ``D6!``) into an immutable :class:`DiceExpr`,
  which maps onto an icepool :class:`~icepool.Die` (:mod:`rulesbook.dice.expr`; the parser is a
  small scanner, never ``eval``). Every expression has a predicted cost, and one beyond the work
  bound is refused before any work starts (:meth:`DiceExpr.check_cost`).
* :class:`RollTest` is a test "roll some dice, compare with a target": roll-under (2D6 <= Ld),
  roll-over (D6 >= 3+, 2D6 >= Ld), natural results that always pass, always fail or are
  critical (double 1, an unmodified 1 or 6), a modifier with a cap on its total, and one re-roll
  (:mod:`rulesbook.dice.roll`). With keep/drop, re-rolls or explosions its natural results are
  read jointly with the total through icepool (:mod:`rulesbook.dice.joint`).

Example:
    A Scrollhammer Morale check at Leadership 7 with a -1 modifier; double 1 always passes:

    >>> test = RollTest(dice=parse_dice("2D6"), target=7, direction="under",
    ...                 modifier=-1, auto_pass=double(1))
    >>> test.p_pass()
    Fraction(5, 12)

    A 40k Battle-shock test on three dice dropping the lowest (a designer's variant):

    >>> RollTest(dice=parse_dice("3D6dl1"), target=7, direction="over").p_pass()
    Fraction(29, 36)
"""

from rulesbook.dice.expr import (
    COMMON_DICE,
    D3,
    D6,
    DICE_HELP,
    DICE_WORK_LIMIT,
    TWO_D6,
    DiceExpr,
    constant,
    parse_dice,
    sum_work,
    too_much_dice_work,
)
from rulesbook.dice.roll import (
    GRID_LIMIT,
    REROLLS,
    Faces,
    Outcome,
    Reroll,
    RollTest,
    bernoulli_die,
    double,
    natural,
)
from rulesbook.dice.terms import ALLOWED_SIDES, EXPLODE_DEPTH, MAX_DICE, DiceTerm, Reads

__all__ = [
    "ALLOWED_SIDES",
    "COMMON_DICE",
    "D3",
    "D6",
    "DICE_HELP",
    "DICE_WORK_LIMIT",
    "EXPLODE_DEPTH",
    "GRID_LIMIT",
    "MAX_DICE",
    "REROLLS",
    "TWO_D6",
    "DiceExpr",
    "DiceTerm",
    "Faces",
    "Outcome",
    "Reads",
    "Reroll",
    "RollTest",
    "bernoulli_die",
    "constant",
    "double",
    "natural",
    "parse_dice",
    "sum_work",
    "too_much_dice_work",
]
