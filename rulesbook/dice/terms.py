"""Dice terms: ``N`` dice of one kind with their options (keep/drop, re-roll once, explode).

A :class:`DiceTerm` is one part of a dice expression (:class:`~rulesbook.dice.expr.DiceExpr`):
its dice, what each die does (re-rolled once when low, exploding on its highest face) and
which of them count (keep or drop the highest or lowest). Each die is an icepool die, and the
term's total an icepool sum or keep/drop pool.

Example:
    >>> term = DiceTerm(3, 6, keep="kl", keep_n=2)
    >>> str(term), term.kept, term.span
    ('3D6kl2', 2, (2, 12))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import icepool

__all__ = ["ALLOWED_SIDES", "EXPLODE_DEPTH", "MAX_DICE", "DiceTerm", "Keep", "Reads"]

MAX_DICE = 20
"""The most dice one expression may roll (the extra dice of explosions not counted)."""

ALLOWED_SIDES = (3, 4, 6, 8, 10, 12, 20)
"""The dice an expression may roll: the rules use D3 and D6; a designer may want the others of
the usual set (D4, D8, D10, D12, D20). Other sizes are refused, as a likely typo."""

EXPLODE_DEPTH = 3
"""How many extra dice one exploding die may add at most: a D6! that shows 6 three times in a
row adds a fourth die, whose face counts as rolled (it does not explode again). A deeper chain
has a chance of 1 in 6⁴ (D6) or less, so the cut changes no number above 0.08 %."""

type Keep = Literal["", "kh", "kl", "dh", "dl"]
type Reads = Literal["kept", "rolled"]
"""Which dice a rule that reads natural faces looks at: the dice the expression keeps, or every
die it rolled (the dropped ones too). Without keep/drop both are the same dice."""


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """One dice term of an expression: ``count`` dice with ``sides`` sides, with its options.

    Attributes:
        count: how many dice are rolled (1 to :data:`MAX_DICE`).
        sides: the die (one of :data:`ALLOWED_SIDES`).
        keep: ``""`` (every die counts), ``"kh"``/``"kl"`` (keep the ``keep_n`` highest/lowest)
            or ``"dh"``/``"dl"`` (drop the ``keep_n`` highest/lowest).
        keep_n: how many dice ``keep`` keeps or drops (1 to ``count - 1``).
        reroll: a die showing this or less is re-rolled once (0: no re-roll).
        explode: the highest face adds another die (up to :data:`EXPLODE_DEPTH` per die).
        negative: the term is subtracted.

    Example:
        >>> term = DiceTerm(4, 6, keep="dl", keep_n=1)
        >>> str(term), term.kept, term.kept_positions
        ('4D6dl1', 3, (1, 4))
    """

    count: int
    sides: int
    keep: Keep = ""
    keep_n: int = 0
    reroll: int = 0
    explode: bool = False
    negative: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_DICE:
            raise ValueError(f"a term rolls 1 to {MAX_DICE} dice")
        if self.sides not in ALLOWED_SIDES:
            raise ValueError(f"dice sides must be one of {ALLOWED_SIDES}")
        if self.keep not in ("", "kh", "kl", "dh", "dl"):
            raise ValueError("keep must be '', kh, kl, dh or dl")
        if (self.keep == "") != (self.keep_n == 0) or (self.keep and not 1 <= self.keep_n < self.count):
            raise ValueError("keep or drop 1 to count - 1 dice")
        if not 0 <= self.reroll < self.sides:
            raise ValueError("re-roll 1 to sides - 1 or less")

    def __str__(self) -> str:
        text = f"{'' if self.count == 1 else self.count}D{self.sides}"
        if self.reroll:
            text += f"r{self.reroll}"
        if self.explode:
            text += "!"
        if self.keep:
            text += f"{self.keep}{self.keep_n}"
        return text

    @property
    def is_plain(self) -> bool:
        """No keep/drop, re-roll or explosion: every die counts as rolled."""
        return not (self.keep or self.reroll or self.explode)

    @property
    def kept(self) -> int:
        """How many dice count towards the total."""
        if self.keep in ("kh", "kl"):
            return self.keep_n
        return self.count - self.keep_n

    @property
    def kept_positions(self) -> tuple[int, int]:
        """The kept dice as positions ``[start, stop)`` among the dice sorted lowest first."""
        match self.keep:
            case "kh":
                return self.count - self.keep_n, self.count
            case "kl":
                return 0, self.keep_n
            case "dh":
                return 0, self.count - self.keep_n
            case "dl":
                return self.keep_n, self.count
        return 0, self.count

    @property
    def die_maximum(self) -> int:
        """The largest value one die can reach (an exploding die with all its extra dice)."""
        return self.sides * (EXPLODE_DEPTH + 1) if self.explode else self.sides

    @property
    def die_outcomes(self) -> int:
        """How many values one die can show (an exploding D6 skips 6, 12 and 18)."""
        return (self.sides - 1) * (EXPLODE_DEPTH + 1) + 1 if self.explode else self.sides

    @property
    def span(self) -> tuple[int, int]:
        """The smallest and largest signed total of the term."""
        low, high = self.kept, self.kept * self.die_maximum
        return (-high, -low) if self.negative else (low, high)

    def one_die(self) -> icepool.Die[int]:
        """One die of the term, re-roll and explosion included (its value, before keep/drop).

        >>> DiceTerm(1, 6, reroll=1).one_die().probability(1)
        Fraction(1, 36)
        """
        return _one_die(self.sides, self.reroll, self.explode)

    def face(self, value: int) -> int:
        """The natural face of a die worth ``value``: its face after any re-roll, and for an
        exploding die the face of its first roll (a value above the sides began with the
        highest face).

        >>> DiceTerm(1, 6, explode=True).face(9), DiceTerm(1, 6).face(4)
        (6, 4)
        """
        return value if value <= self.sides else self.sides

    def die(self) -> icepool.Die[int]:
        """The term's signed total as an icepool die."""
        return _term_die(self)


@lru_cache(maxsize=256)
def _one_die(sides: int, reroll: int, explode: bool) -> icepool.Die[int]:
    die: icepool.Die[int] = icepool.d(sides)
    if reroll:
        die = die.reroll(lambda face: face <= reroll, depth=1)
    if explode:
        die = die.explode(depth=EXPLODE_DEPTH)
    return die


@lru_cache(maxsize=256)
def _term_die(term: DiceTerm) -> icepool.Die[int]:
    one = term.one_die()
    if not term.keep:
        total: icepool.Die[int] = term.count @ one
    else:
        start, stop = term.kept_positions
        total = one.pool(term.count)[start:stop].sum()
    return -total if term.negative else total
