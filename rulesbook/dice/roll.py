"""The one roll-test primitive every rule system uses.

:class:`RollTest` is a test "roll some dice, compare with a target": roll-under (2D6 <= Ld),
roll-over (D6 >= 3+, 2D6 >= Ld), natural results that always pass, always fail or are critical
(double 1, an unmodified 1 or 6), a modifier with a cap on its total, and one re-roll (ones,
failures, or everything that is not critical). Its answer is an exact
:class:`~rulesbook.results.Distribution` over :class:`Outcome`. The dice may be any expression
of the grammar (:mod:`rulesbook.dice.expr`): a natural result is read from the dice ``reads``
names (the kept ones, or every die rolled) and compared as a multiset.

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

    Three D6 keeping the lowest two, at Leadership 7, where the two kept dice showing 1 pass:

    >>> low = parse_dice("3D6kl2")
    >>> RollTest(dice=low, target=7, auto_pass=low.every_die(1)).p_pass()
    Fraction(29, 36)
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import factorial, prod
from typing import Literal

import icepool

from rulesbook.dice.expr import D6, DICE_WORK_LIMIT, TWO_D6, DiceExpr, parse_dice, too_much_dice_work
from rulesbook.dice.joint import joint_weights
from rulesbook.dice.terms import Reads
from rulesbook.errors import CostError
from rulesbook.results import Distribution

__all__ = [
    "GRID_LIMIT",
    "REROLLS",
    "Faces",
    "Outcome",
    "Reroll",
    "RollTest",
    "bernoulli_die",
    "double",
    "natural",
]

_ = (D6, TWO_D6, parse_dice)  # the examples use them

GRID_LIMIT = 1296
"""The most face-by-face rolls :meth:`RollTest.outcome_grid` lists (four D6)."""


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


class Outcome(enum.IntEnum):
    """The result of one roll test, ordered from worst to best."""

    FAIL = 0
    PASS = 1
    CRITICAL = 2
    """A natural result the rule calls critical (it always passes)."""


type Faces = tuple[int, ...]
type Reroll = Literal["none", "ones", "failed", "all"]
REROLLS: tuple[Reroll, ...] = ("none", "ones", "failed", "all")
"""Re-roll policies. ``ones``: re-roll when every read die shows 1 (for a single die, a natural
1); ``failed``: re-roll a failed test; ``all``: re-roll every result that is not critical
(fishing for criticals; with no critical results this re-rolls everything and changes nothing).
A re-roll rolls the whole roll again once (``reroll_dice``, or the same dice), and its result
stands."""


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
    """Every die shows ``value``, e.g. ``double(1)`` is the double 1 of Insane Heroism (for an
    expression that keeps or drops dice, :meth:`DiceExpr.every_die` counts the dice read).

    >>> double(1)
    frozenset({(1, 1)})
    """
    return frozenset({(value,) * count})


@dataclass(frozen=True, slots=True)
class RollTest:
    """One test: roll ``dice``, add the capped modifier, compare with ``target``.

    Attributes:
        dice: what is rolled (``2D6`` for Leadership, ``D6`` for a Hit roll; any expression).
        target: the number to compare with (Leadership, or the X of an X+ roll).
        direction: ``"under"`` passes when total <= target; ``"over"`` when total >= target.
        modifier: the sum of modifiers, positive always helps the tester. For roll-under
            tests it is added to the target (a Leadership modifier); for roll-over tests it
            is added to the roll.
        modifier_cap: when set, the total modifier is clamped to +-cap (40k: 1).
        auto_pass: natural rolls that pass whatever the modifiers (double 1).
        auto_fail: natural rolls that fail whatever the modifiers (an unmodified 1).
        critical: natural rolls that are critical; a critical result always passes.
        always_fail: the test cannot be passed at all (a falling-back unit's Morale check);
            ``auto_pass`` results still pass unless ``auto_pass`` is empty.
        reroll: one re-roll policy, see :data:`REROLLS`.
        reads: which dice the natural rolls are read from when ``dice`` keeps or drops: the
            ``kept`` dice, or every die ``rolled``. A natural roll is a multiset of faces (the
            order of a tuple does not matter); a die's natural face is its face after its own
            re-roll (``r``), and an exploding die's is its first face.
        reroll_dice: what a re-roll rolls (``None``: ``dice`` again).
        reroll_faces: natural rolls that are re-rolled too, whatever the policy ``reroll`` says
            (a designer's "re-roll a double 6"); a roll is re-rolled at most once, when the
            policy or this set asks for it.

    Example:
        >>> RollTest(dice=TWO_D6, target=1, direction="under", auto_pass=double(1)).p_pass()
        Fraction(1, 36)
    """

    dice: DiceExpr
    target: int
    direction: Literal["under", "over"] = "under"
    modifier: int = 0
    modifier_cap: int | None = None
    auto_pass: frozenset[Faces] = frozenset()
    auto_fail: frozenset[Faces] = frozenset()
    critical: frozenset[Faces] = frozenset()
    always_fail: bool = False
    reroll: Reroll = "none"
    reads: Reads = "kept"
    reroll_dice: DiceExpr | None = None
    reroll_faces: frozenset[Faces] = frozenset()

    def __post_init__(self) -> None:
        if self.dice.count == 0:
            raise ValueError("a roll test needs at least one die")
        if self.reroll_dice is not None and self.reroll_dice.count == 0:
            raise ValueError("a re-roll rolls at least one die")
        if self.reroll not in REROLLS:
            raise ValueError(f"reroll must be one of {REROLLS}")
        if self.direction not in ("under", "over"):
            raise ValueError("direction must be 'under' or 'over'")
        if self.reads not in ("kept", "rolled"):
            raise ValueError("reads must be 'kept' or 'rolled'")

    @property
    def effective_modifier(self) -> int:
        """The modifier after the cap."""
        if self.modifier_cap is None:
            return self.modifier
        return max(-self.modifier_cap, min(self.modifier_cap, self.modifier))

    def judge_total(self, total: int, natural_roll: Faces | None) -> Outcome:
        """The outcome of a roll with this ``total`` (modifier of the dice included) whose read
        dice show ``natural_roll`` (sorted; ``None``: any roll no natural rule names).

        >>> RollTest(dice=TWO_D6, target=7, auto_pass=double(1)).judge_total(2, (1, 1))
        <Outcome.PASS: 1>
        """
        return _judge_function(self)(total, natural_roll)

    def judge(self, faces: Faces) -> Outcome:
        """The outcome of one roll with these natural faces, one per die rolled (before any
        re-roll; the dice must be :attr:`~DiceExpr.is_plain`).

        >>> t = RollTest(dice=TWO_D6, target=7, auto_pass=double(1))
        >>> t.judge((1, 1)), t.judge((3, 4)), t.judge((4, 4))
        (<Outcome.PASS: 1>, <Outcome.PASS: 1>, <Outcome.FAIL: 0>)
        >>> RollTest(dice=parse_dice("3D6kl2"), target=3).judge((6, 1, 2))
        <Outcome.PASS: 1>
        """
        if self.dice.is_simple:
            total = sum(faces) + self.dice.modifier
            read = _multiset(faces)
        else:
            total = self.dice.total_of(faces)
            read = self.dice.read_faces(faces, self.reads)
        return self.judge_total(total, read)

    def wants_reroll(self, natural_roll: Faces | None, outcome: Outcome) -> bool:
        """Whether the re-roll policy rolls again after this roll.

        >>> RollTest(dice=D6, target=3, direction="over", reroll="ones").wants_reroll((1,), Outcome.FAIL)
        True
        >>> RollTest(dice=TWO_D6, target=7, reroll_faces=double(6)).wants_reroll((6, 6), Outcome.FAIL)
        True
        """
        if self.reroll_faces and natural_roll is not None and natural_roll in _sorted(self.reroll_faces):
            return True
        match self.reroll:
            case "none":
                return False
            case "ones":
                return natural_roll is not None and all(f == 1 for f in natural_roll)
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
        return _d6_counts(self) or _roll_test_counts(self)

    @property
    def natural_rolls(self) -> frozenset[Faces]:
        """Every natural roll a rule of this test names (sorted), the ``ones`` re-roll's
        included."""
        special = _sorted(self.critical) | _sorted(self.auto_pass) | _sorted(self.auto_fail)
        if self.reroll == "ones":
            special |= {(1,) * self.dice.read_count(self.reads)}
        return special | _sorted(self.reroll_faces)

    def cost(self) -> float:
        """Predicted work of :meth:`counts` (see :meth:`DiceExpr.cost`): the dice, and the dice
        of a re-roll.

        >>> RollTest(dice=TWO_D6, target=7).cost() == TWO_D6.cost()
        True
        """
        rerolls = self.reroll != "none" or self.reroll_faces
        extra = self.reroll_dice.cost() if self.reroll_dice is not None and rerolls else 0.0
        return self.dice.cost() + extra

    def check_cost(self, field: str = "dice") -> RollTest:
        """Return the test, or refuse it in one line with the estimate when it needs more work
        than the calculators allow (:data:`~rulesbook.dice.expr.DICE_WORK_LIMIT`).

        >>> RollTest(dice=parse_dice("20D20!kh10"), target=7).check_cost("ld_test_dice")
        Traceback (most recent call last):
        ...
        rulesbook.errors.CostError: ld_test_dice: 20D20!kh10 would need about 61.7 times the work the calculators allow (about 1 s); use fewer dice, smaller dice, or no explosion or keep/drop
        """
        work = self.cost()
        if work > DICE_WORK_LIMIT:
            raise CostError(
                field,
                too_much_dice_work(str(self.dice), work / DICE_WORK_LIMIT),
                times=work / DICE_WORK_LIMIT,
            )
        return self

    def grid_size(self) -> int:
        """How many equally likely face-by-face rolls :meth:`outcome_grid` would list (0 when
        the dice cannot be listed face by face: a re-roll or an explosion)."""
        return prod(self.dice.rolled_sides()) if self.dice.is_plain else 0

    def outcome_grid(self) -> list[tuple[Faces, Outcome]]:
        """Every equally likely natural roll (one face per die rolled) with its outcome before
        re-rolls; at most :data:`GRID_LIMIT` rolls of :attr:`~DiceExpr.is_plain` dice.

        >>> grid = RollTest(dice=TWO_D6, target=7).outcome_grid()
        >>> len(grid), grid[0]
        (36, ((1, 1), <Outcome.PASS: 1>))
        """
        if not 0 < self.grid_size() <= GRID_LIMIT:
            raise ValueError(f"{self.dice}: too many rolls (or not decided by the faces) to list one by one")
        faces = [range(1, s + 1) for s in self.dice.rolled_sides()]
        if not self.dice.is_simple:
            return [(f, self.judge(f)) for f in itertools.product(*faces)]
        judge, modifier = _judge_function(self), self.dice.modifier  # once for the whole grid
        if not (self.critical or self.auto_pass or self.auto_fail):  # no natural roll to read
            return [(f, judge(sum(f) + modifier, None)) for f in itertools.product(*faces)]
        return [(f, judge(sum(f) + modifier, _multiset(f))) for f in itertools.product(*faces)]

    def with_(self, **changes: object) -> RollTest:
        """A changed copy (the value itself never changes)."""
        return replace(self, **changes)  # type: ignore[arg-type]


def _multiset(faces: Faces) -> Faces:
    """The faces sorted (a natural roll is a multiset), cheaply for one or two dice."""
    if len(faces) < 2:
        return faces
    if len(faces) == 2:
        return faces if faces[0] <= faces[1] else (faces[1], faces[0])
    return tuple(sorted(faces))


@lru_cache(maxsize=256)
def _sorted(rolls: frozenset[Faces]) -> frozenset[Faces]:
    return frozenset(tuple(sorted(r)) for r in rolls)


type Split = tuple[list[int], list[int], int]
"""One roll's weights: kept outcomes ``[fail, pass, critical]``, the outcomes that ask for a
re-roll (same order), and the denominator."""


def _first_roll(test: RollTest, dice: DiceExpr) -> Split:
    """The weights of one roll of ``dice`` under ``test``'s rules, split by whether the re-roll
    policy rolls again."""
    kept, again = [0, 0, 0], [0, 0, 0]
    judge, wants = _judge_function(test), test.wants_reroll
    if dice.count == 1 and dice.is_simple:  # one die: judge its faces inline (the common case)
        for f in range(1, dice.sides + 1):
            outcome = judge(f + dice.modifier, (f,))
            (again if wants((f,), outcome) else kept)[outcome] += 1
        return kept, again, dice.sides
    special = test.natural_rolls
    if dice.is_simple:  # every total by integer convolution, then the few natural rolls moved
        weights, den = dice.weights()
        low = dice.minimum
        for i, w in enumerate(weights):
            if w:
                outcome = judge(low + i, None)
                (again if wants(None, outcome) else kept)[outcome] += w
        for roll in special:
            if len(roll) != dice.count or not all(1 <= f <= dice.sides for f in roll):
                continue
            ways = factorial(dice.count) // prod(factorial(roll.count(f)) for f in set(roll))
            total = sum(roll) + dice.modifier
            plain = judge(total, None)
            (again if wants(None, plain) else kept)[plain] -= ways
            outcome = judge(total, roll)
            (again if wants(roll, outcome) else kept)[outcome] += ways
        return kept, again, den
    if not special:  # nothing read face by face: the total is enough
        die = dice.die()
        for total, w in die.items():
            outcome = judge(total, None)
            (again if wants(None, outcome) else kept)[outcome] += w
        return kept, again, die.denominator()
    table, den = joint_weights(dice, test.reads, special)
    for (total, match), w in table.items():
        outcome = judge(total, match)
        (again if wants(match, outcome) else kept)[outcome] += w
    return kept, again, den


@lru_cache(maxsize=1024)
def _judge_function(test: RollTest) -> Callable[[int, Faces | None], Outcome]:
    """:meth:`RollTest.judge_total` with the natural rolls sorted once."""
    critical, auto_pass, auto_fail = _sorted(test.critical), _sorted(test.auto_pass), _sorted(test.auto_fail)
    always_fail, under = test.always_fail, test.direction == "under"
    line = test.target + test.effective_modifier if under else test.target - test.effective_modifier

    def judge(total: int, roll: Faces | None) -> Outcome:
        if roll is not None:
            if roll in critical:
                return Outcome.CRITICAL
            if roll in auto_pass:
                return Outcome.PASS
            if roll in auto_fail:
                return Outcome.FAIL
        if always_fail:
            return Outcome.FAIL
        return Outcome.PASS if ((total <= line) if under else (total >= line)) else Outcome.FAIL

    return judge


_SUFFIXES: dict[frozenset[Faces], int] = {frozenset((f,) for f in range(low, 7)): low for low in range(2, 8)}
"""The critical faces of a one-D6 test that reads "low or more" (``frozenset()``: 7, none)."""
_ONE = frozenset({(1,)})
_EVERYDAY: tuple[str, bool, frozenset[Faces], None, frozenset[Faces]] = (
    "over",
    False,
    frozenset(),
    None,
    frozenset(),
)
"""What an everyday one-D6 test has: roll-over, can pass, no face passing or re-rolled by name,
no other dice for a re-roll."""


def _d6_shape(test: RollTest) -> tuple[int, int, bool, str] | None:
    """The key of :data:`_D6_COUNTS` for the everyday one-D6 test ("line or more, an unmodified
    1 fails or not, low..6 critical, a re-roll policy"), ``None`` for any other test (one that
    re-rolls named faces too is another test: the table counts none)."""
    if (test.dice is not D6 and test.dice != D6) or (
        test.direction,
        test.always_fail,
        test.auto_pass,
        test.reroll_dice,
        test.reroll_faces,
    ) != _EVERYDAY:
        return None
    fails = test.auto_fail
    if fails and fails != _ONE:
        return None
    low = _SUFFIXES.get(test.critical)
    if low is None:
        return None
    line = test.target - test.effective_modifier
    return (1 if line < 1 else 8 if line > 8 else line), low, bool(fails), test.reroll


def _d6_counts(test: RollTest) -> tuple[int, int, int, int] | None:
    """The counts of an everyday one-D6 test, read from :data:`_D6_COUNTS` (``None``: any
    other test, counted by :func:`_roll_test_counts`)."""
    key = _d6_shape(test)
    return None if key is None else _D6_COUNTS[key]


@lru_cache(maxsize=8192)
def _roll_test_counts(test: RollTest) -> tuple[int, int, int, int]:
    """Count the outcomes of one roll in integers (a roll that asks for a re-roll spreads its
    share over a second roll's outcomes), over ``den ** 2`` when a roll can be re-rolled (``den``
    times the re-roll's denominator), else over ``den``."""
    kept, again, den = _first_roll(test, test.dice)
    if test.reroll == "none" and not test.reroll_faces:
        return kept[0], kept[1], kept[2], den
    if test.reroll_dice is None or test.reroll_dice == test.dice:
        second, second_den = [k + a for k, a in zip(kept, again, strict=True)], den
    else:
        k2, a2, second_den = _first_roll(test, test.reroll_dice)
        second = [k + a for k, a in zip(k2, a2, strict=True)]
    asked = sum(again)
    weights = [kept[o] * second_den + asked * second[o] for o in range(3)]
    return weights[0], weights[1], weights[2], den * second_den


@lru_cache(maxsize=8192)
def _roll_test_distribution(test: RollTest) -> Distribution[Outcome]:
    """The outcome distribution of :func:`_roll_test_counts`.

    >>> t = RollTest(dice=D6, target=3, direction="over", reroll="ones")
    >>> _roll_test_distribution(t).p(Outcome.PASS)
    Fraction(7, 9)
    """
    *weights, den = _roll_test_counts(test)
    return Distribution.from_weights(((o, weights[o]) for o in Outcome if weights[o]), den)


_D6_COUNTS: dict[tuple[int, int, bool, str], tuple[int, int, int, int]] = {
    (line, low, fails, reroll): _roll_test_counts.__wrapped__(
        RollTest(
            dice=D6,
            target=line,
            direction="over",
            auto_fail=_ONE if fails else frozenset(),
            critical=frozenset((f,) for f in range(low, 7)),
            reroll=reroll,
        )
    )
    for line in range(1, 9)
    for low in range(2, 8)
    for fails in (False, True)
    for reroll in REROLLS
}
"""Every everyday one-D6 test (a Hit roll, a Wound roll, a saving throw…) counted once at import
by the one counting routine, :func:`_roll_test_counts`: a line below 1 or above 8 counts as 1 or
8 (every face passes, or only the criticals and the faces the rules name do)."""
