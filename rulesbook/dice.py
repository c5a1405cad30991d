"""Dice expressions and the one roll-test primitive every rule system uses.

Two ideas live here and nowhere else:

* :func:`parse_dice` turns a dice expression such as ``"D3"``, ``"2D6+1"`` or ``"3"`` into an
  immutable :class:`DiceExpr`, which maps onto an icepool :class:`~icepool.Die`. The parser is a
  regular expression, never ``eval``.
* :class:`RollTest` is a test "roll some dice, compare with a target": roll-under (2D6 <= Ld),
  roll-over (D6 >= 3+, 2D6 >= Ld), natural results that always pass, always fail or are
  critical (double 1, an unmodified 1 or 6), a modifier with a cap on its total, and one re-roll
  (ones, failures, or everything that is not critical). Its answer is an exact
  :class:`~rulesbook.results.Distribution` over :class:`Outcome`.

Example:
    A Scrollhammer Morale check at Leadership 7 with a -1 modifier; double 1 always passes:

    >>> test = RollTest(dice=parse_dice("2D6"), target=7, direction="under",
    ...                 modifier=-1, auto_pass=double(1))
    >>> test.p_pass()
    Fraction(5, 12)

    A 40k Hit roll at BS 3+ with re-rolls of ones (1 always fails, 6 is a Critical Hit):

    >>> hit = RollTest(dice=D6, target=3, direction="over", auto_fail=natural(1),
    ...                critical=natural(6), modifier_cap=1, reroll="ones")
    >>> hit.p_pass()
    Fraction(7, 9)
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Literal

import icepool

from rulesbook.errors import InputError, quote
from rulesbook.results import Distribution

__all__ = [
    "COMMON_DICE",
    "D3",
    "D6",
    "TWO_D6",
    "DiceExpr",
    "Outcome",
    "Reroll",
    "RollTest",
    "bernoulli_die",
    "constant",
    "double",
    "natural",
    "parse_dice",
]

MAX_DICE = 20
"""The largest number of dice one expression may roll (keeps exact answers instant)."""

ALLOWED_SIDES = (3, 6)
"""Dice the four rule systems use: D3 and D6."""

_DICE_RE = re.compile(
    r"""^\s*(?:
        (?P<count>[0-9]{1,3})?\s*[dD]\s*(?P<sides>[0-9]{1,3})\s*(?:(?P<sign>[+-])\s*(?P<mod>[0-9]{1,3}))?
        |(?P<const>[0-9]{1,3})
    )\s*$""",
    re.VERBOSE,
)

DICE_HELP = "a dice expression such as 3, D3, D6, 2D6, D6+3 or 2D6+1"


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """An immutable dice expression ``count``D``sides`` + ``modifier``.

    A constant such as ``3`` has ``count == 0``.

    Example:
        >>> expr = parse_dice("D6+3")
        >>> expr.count, expr.sides, expr.modifier, str(expr)
        (1, 6, 3, 'D6+3')
        >>> expr.die().mean()
        Fraction(13, 2)
    """

    count: int
    sides: int
    modifier: int = 0

    def __post_init__(self) -> None:
        if self.count < 0 or self.count > MAX_DICE:
            raise ValueError(f"dice count must be 0..{MAX_DICE}")
        if self.count and self.sides not in ALLOWED_SIDES:
            raise ValueError(f"dice sides must be one of {ALLOWED_SIDES}")

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        head = f"{'' if self.count == 1 else self.count}D{self.sides}"
        if self.modifier > 0:
            return f"{head}+{self.modifier}"
        if self.modifier < 0:
            return f"{head}{self.modifier}"
        return head

    @property
    def is_constant(self) -> bool:
        """True for a fixed number such as ``3``."""
        return self.count == 0

    @property
    def minimum(self) -> int:
        """The smallest total the expression can produce."""
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        """The largest total the expression can produce."""
        return self.count * self.sides + self.modifier

    def die(self) -> icepool.Die[int]:
        """The total as an icepool die (cached; dice are immutable)."""
        return _die_for(self.count, self.sides, self.modifier)

    def single(self) -> icepool.Die[int]:
        """One of the dice that make up the expression (the expression must roll dice)."""
        if self.count == 0:
            raise ValueError("a constant has no dice")
        return icepool.d(self.sides)

    def distribution(self) -> Distribution[int]:
        """The exact distribution of the total (counted directly in integers: the same as the
        icepool die's, without building one).

        >>> parse_dice("2D3+1").distribution().pmf() == Distribution.from_die(parse_dice("2D3+1").die()).pmf()
        True
        """
        return _distribution_for(self.count, self.sides, self.modifier)

    def weights(self) -> tuple[tuple[int, ...], int]:
        """Integer weights of the totals ``minimum .. maximum`` over ``sides ** count``.

        >>> parse_dice("2D3").weights()
        ((1, 2, 3, 2, 1), 9)
        """
        return _weights_for(self.count, self.sides)


@lru_cache(maxsize=1024)
def _weights_for(count: int, sides: int) -> tuple[tuple[int, ...], int]:
    weights = [1]
    for _ in range(count):
        nxt = [0] * (len(weights) + sides - 1)
        for i, w in enumerate(weights):
            for j in range(i, i + sides):
                nxt[j] += w
        weights = nxt
    return tuple(weights), sides**count


@lru_cache(maxsize=1024)
def _distribution_for(count: int, sides: int, modifier: int) -> Distribution[int]:
    weights, den = _weights_for(count, sides)
    low = count + modifier
    return Distribution.from_weights(((low + i, w) for i, w in enumerate(weights)), den)


@lru_cache(maxsize=1024)
def _die_for(count: int, sides: int, modifier: int) -> icepool.Die[int]:
    if count == 0:
        return icepool.Die([modifier])
    return (count @ icepool.d(sides)) + modifier


def parse_dice(text: str, *, field_name: str = "dice") -> DiceExpr:
    """Parse a dice expression; bad input raises :class:`InputError` naming ``field_name``.

    Accepted: a constant (``3``), ``D3``, ``D6``, ``nD6`` and ``nD3`` with an optional ``+k`` or
    ``-k`` (``D6+3``, ``2D6+1``). Case and spaces do not matter.

    Example:
        >>> parse_dice("2d6 + 1")
        DiceExpr(count=2, sides=6, modifier=1)
        >>> parse_dice("2D", field_name="fall_back_dice")
        Traceback (most recent call last):
        ...
        rulesbook.errors.InputError: fall_back_dice: expected a dice expression such as 3, D3, D6, 2D6, D6+3 or 2D6+1, got '2D'
    """
    if type(text) is str and len(text) <= 3 and text.isascii() and text.isdigit():
        return constant(int(text))  # a plain constant: what the pattern's ``const`` branch gives
    match = _DICE_RE.match(text) if isinstance(text, str) else None
    if match is None:
        raise InputError(field_name, f"expected {DICE_HELP}, got {quote(text)}")
    if match.group("const") is not None:
        return constant(int(match.group("const")))
    count = int(match.group("count")) if match.group("count") else 1
    sides = int(match.group("sides"))
    mod = int(match.group("mod") or 0) * (-1 if match.group("sign") == "-" else 1)
    if count < 1 or count > MAX_DICE:
        raise InputError(field_name, f"the number of dice must be 1..{MAX_DICE}, got {quote(text)}")
    if sides not in ALLOWED_SIDES:
        raise InputError(field_name, f"only D3 and D6 dice are used by these rules, got {quote(text)}")
    return DiceExpr(count, sides, mod)


def constant(value: int) -> DiceExpr:
    """A fixed number as a dice expression (no dice rolled), equal to ``parse_dice(str(value))``.

    >>> str(constant(3)), constant(3).is_constant, constant(3) == parse_dice("3")
    ('3', True, True)
    >>> constant(2).distribution().pmf()
    {2: Fraction(1, 1)}
    """
    return DiceExpr(0, 6, value)


def _common_dice() -> Mapping[str, DiceExpr]:
    table: dict[str, DiceExpr] = {str(value): constant(value) for value in range(101)}
    for count in range(1, 7):
        for sides in ALLOWED_SIDES:
            for modifier in range(-6, 13):
                expr = DiceExpr(count, sides, modifier)
                text = str(expr)
                table[text] = table[text.replace("D", "d")] = expr
    return MappingProxyType(table)


COMMON_DICE = _common_dice()
"""The usual dice expressions parsed ahead, ``{text: parse_dice(text)}``: the constants 0 to 100
and up to six D3 or D6 with a modifier from -6 to +12, spelt as ``str(expr)`` writes them (with
``D`` or ``d``). A declared dice input looks a text up here before parsing it
(:meth:`rulesbook.inputs.Input.texts`); every entry equals what :func:`parse_dice` gives.

>>> COMMON_DICE["2D6+1"] == parse_dice("2D6+1"), COMMON_DICE["d3"] == parse_dice("d3")
(True, True)
"""


def bernoulli_die(p: Fraction) -> icepool.Die[int]:
    """A 0/1 die showing 1 with exact probability ``p`` (outcomes that cannot happen left out).

    ``n @ bernoulli_die(p)`` counts successes of ``n`` independent tries (a binomial).

    >>> die = bernoulli_die(Fraction(1, 3))
    >>> Distribution.from_die(die).pmf()
    {0: Fraction(2, 3), 1: Fraction(1, 3)}
    >>> Distribution.from_die(2 @ die).p(2)
    Fraction(1, 9)
    >>> list(bernoulli_die(Fraction(1)).items())
    [(1, 1)]
    """
    p = Fraction(p)
    if not 0 <= p <= 1:
        raise ValueError(f"a probability lies in [0, 1], got {p}")
    weights = {o: w for o, w in ((0, p.denominator - p.numerator), (1, p.numerator)) if w}
    return icepool.Die(weights)


D3 = DiceExpr(1, 3)
D6 = DiceExpr(1, 6)
TWO_D6 = DiceExpr(2, 6)


class Outcome(enum.IntEnum):
    """The result of one roll test, ordered from worst to best."""

    FAIL = 0
    PASS = 1
    CRITICAL = 2
    """A natural result the rule calls critical (it always passes)."""


type Faces = tuple[int, ...]
type Reroll = Literal["none", "ones", "failed", "all"]
REROLLS: tuple[Reroll, ...] = ("none", "ones", "failed", "all")
"""Re-roll policies. ``ones``: re-roll when every die shows 1 (for a single die, a natural 1);
``failed``: re-roll a failed test; ``all``: re-roll every result that is not critical (fishing
for criticals; with no critical results this re-rolls everything and changes nothing).
A die is never re-rolled twice."""


def natural(*values: int) -> frozenset[Faces]:
    """Natural results of a single die, e.g. ``natural(6)`` for an unmodified 6.

    >>> sorted(natural(5, 6))
    [(5,), (6,)]
    """
    known = _NATURAL.get(values)
    return known if known is not None else frozenset((v,) for v in values)


_NATURAL: dict[tuple[int, ...], frozenset[Faces]] = {
    v: frozenset((f,) for f in v) for v in [(1,), *(tuple(range(c, 7)) for c in range(1, 7))]
}
"""The natural sets the rules use most (a 1; c..6), built once at import: they are values."""


def double(value: int, count: int = 2) -> frozenset[Faces]:
    """Every die shows ``value``, e.g. ``double(1)`` is the double 1 of Insane Heroism.

    >>> double(1)
    frozenset({(1, 1)})
    """
    return frozenset({(value,) * count})


@dataclass(frozen=True, slots=True)
class RollTest:
    """One test: roll ``dice``, add the capped modifier, compare with ``target``.

    Attributes:
        dice: what is rolled (``2D6`` for Leadership, ``D6`` for a Hit roll).
        target: the number to compare with (Leadership, or the X of an X+ roll).
        direction: ``"under"`` passes when total <= target; ``"over"`` when total >= target.
        modifier: the sum of modifiers, positive always helps the tester. For roll-under
            tests it is added to the target (a Leadership modifier); for roll-over tests it
            is added to the roll.
        modifier_cap: when set, the total modifier is clamped to +-cap (40k: 1).
        auto_pass: natural face tuples that pass whatever the modifiers (double 1).
        auto_fail: natural face tuples that fail whatever the modifiers (an unmodified 1).
        critical: natural face tuples that are critical; a critical result always passes.
        always_fail: the test cannot be passed at all (a falling-back unit's Morale check);
            ``auto_pass`` results still pass unless ``auto_pass`` is empty.
        reroll: one re-roll policy, see :data:`REROLLS`.

    Example:
        >>> RollTest(dice=TWO_D6, target=1, direction="under", auto_pass=double(1)).p_pass()
        Fraction(1, 36)
    """

    dice: DiceExpr
    target: int
    direction: Literal["under", "over"] = "under"
    modifier: int = 0
    modifier_cap: int | None = None
    auto_pass: frozenset[Faces] = field(default_factory=frozenset)
    auto_fail: frozenset[Faces] = field(default_factory=frozenset)
    critical: frozenset[Faces] = field(default_factory=frozenset)
    always_fail: bool = False
    reroll: Reroll = "none"

    def __post_init__(self) -> None:
        if self.dice.count == 0:
            raise ValueError("a roll test needs at least one die")
        if self.reroll not in REROLLS:
            raise ValueError(f"reroll must be one of {REROLLS}")
        if self.direction not in ("under", "over"):
            raise ValueError("direction must be 'under' or 'over'")

    @property
    def effective_modifier(self) -> int:
        """The modifier after the cap."""
        if self.modifier_cap is None:
            return self.modifier
        return max(-self.modifier_cap, min(self.modifier_cap, self.modifier))

    def judge(self, faces: Faces) -> Outcome:
        """The outcome of one roll with these natural faces (before any re-roll).

        >>> t = RollTest(dice=TWO_D6, target=7, auto_pass=double(1))
        >>> t.judge((1, 1)), t.judge((3, 4)), t.judge((4, 4))
        (<Outcome.PASS: 1>, <Outcome.PASS: 1>, <Outcome.FAIL: 0>)
        """
        if faces in self.critical:
            return Outcome.CRITICAL
        if faces in self.auto_pass:
            return Outcome.PASS
        if self.always_fail or faces in self.auto_fail:
            return Outcome.FAIL
        total = sum(faces) + self.dice.modifier
        mod = self.effective_modifier
        if self.direction == "under":
            ok = total <= self.target + mod
        else:
            ok = total + mod >= self.target
        return Outcome.PASS if ok else Outcome.FAIL

    def _wants_reroll(self, faces: Faces, outcome: Outcome) -> bool:
        match self.reroll:
            case "none":
                return False
            case "ones":
                return all(f == 1 for f in faces)
            case "failed":
                return outcome is Outcome.FAIL
            case "all":
                return outcome is not Outcome.CRITICAL
        return False  # pragma: no cover - exhaustive above

    def distribution(self) -> Distribution[Outcome]:
        """The exact distribution over :class:`Outcome`, re-roll included."""
        return _roll_test_distribution(self)

    def p_pass(self) -> Fraction:
        """Exact probability that the test passes (critical results included)."""
        _, passed, critical, den = self.counts()
        return Fraction(passed + critical, den)

    def pass_die(self) -> icepool.Die[int]:
        """A 0/1 die showing 1 when the test passes (``n @ test.pass_die()`` counts passes).

        >>> hazard = RollTest(dice=D6, target=2, direction="over")
        >>> Distribution.from_die(3 @ hazard.pass_die()).p(3)
        Fraction(125, 216)
        """
        return bernoulli_die(self.p_pass())

    def fail_die(self) -> icepool.Die[int]:
        """A 0/1 die showing 1 when the test fails (``n @ test.fail_die()`` counts failures).

        >>> hazard = RollTest(dice=D6, target=2, direction="over")
        >>> Distribution.from_die(3 @ hazard.fail_die()).p(0)
        Fraction(125, 216)
        """
        return bernoulli_die(1 - self.p_pass())

    def p_critical(self) -> Fraction:
        """Exact probability of a critical result."""
        _, _, critical, den = self.counts()
        return Fraction(critical, den)

    def counts(self) -> tuple[int, int, int, int]:
        """Integer weights ``(fail, pass, critical, denominator)`` of the outcomes, re-roll
        included (``pass`` excludes the critical results): the exact engines' currency.

        >>> RollTest(dice=D6, target=3, direction="over", critical=natural(6), reroll="ones").counts()
        (8, 21, 7, 36)
        """
        return _roll_test_counts(self)

    def outcome_grid(self) -> list[tuple[Faces, Outcome]]:
        """Every equally likely natural roll with its outcome before re-rolls.

        >>> grid = RollTest(dice=TWO_D6, target=7).outcome_grid()
        >>> len(grid), grid[0]
        (36, ((1, 1), <Outcome.PASS: 1>))
        """
        faces = range(1, self.dice.sides + 1)
        return [(f, self.judge(f)) for f in itertools.product(faces, repeat=self.dice.count)]

    def with_(self, **changes: object) -> RollTest:
        """A changed copy (the value itself never changes)."""
        return replace(self, **changes)  # type: ignore[arg-type]


@lru_cache(maxsize=8192)
def _roll_test_counts(test: RollTest) -> tuple[int, int, int, int]:
    """Every natural roll is equally likely: count the outcomes of the grid in integers (a
    re-rolled face spreads its share over the whole grid again), over ``size ** 2`` when a
    roll can be re-rolled, else over ``size``. This is what ``icepool.map`` over the dice with a
    re-roll gives, without building dice objects."""
    if test.dice.count == 1:  # one die: judge its faces inline (the common case)
        mod, target, base = test.effective_modifier, test.target, test.dice.modifier
        under = test.direction == "under"
        grid: list[tuple[Faces, Outcome]] = []
        for f in range(1, test.dice.sides + 1):
            faces: Faces = (f,)
            if faces in test.critical:
                outcome = Outcome.CRITICAL
            elif faces in test.auto_pass:
                outcome = Outcome.PASS
            elif test.always_fail or faces in test.auto_fail:
                outcome = Outcome.FAIL
            elif (f + base <= target + mod) if under else (f + base + mod >= target):
                outcome = Outcome.PASS
            else:
                outcome = Outcome.FAIL
            grid.append((faces, outcome))
    else:
        grid = test.outcome_grid()
    size = len(grid)
    again = [0, 0, 0]
    for _, outcome in grid:
        again[outcome] += 1
    if test.reroll == "none":
        return again[0], again[1], again[2], size
    weights = [0, 0, 0]
    for faces, outcome in grid:
        if test._wants_reroll(faces, outcome):
            for second in (0, 1, 2):
                weights[second] += again[second]
        else:
            weights[outcome] += size
    return weights[0], weights[1], weights[2], size * size


@lru_cache(maxsize=8192)
def _roll_test_distribution(test: RollTest) -> Distribution[Outcome]:
    """The outcome distribution of :func:`_roll_test_counts`.

    >>> t = RollTest(dice=D6, target=3, direction="over", reroll="ones")
    >>> _roll_test_distribution(t).p(Outcome.PASS)
    Fraction(7, 9)
    """
    *weights, den = _roll_test_counts(test)
    return Distribution.from_weights(((o, weights[o]) for o in Outcome if weights[o]), den)
