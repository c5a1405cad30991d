"""The dice parser and the one roll-test primitive."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.dice import (
    D6,
    TWO_D6,
    DiceExpr,
    Outcome,
    RollTest,
    bernoulli_die,
    constant,
    double,
    natural,
    parse_dice,
)
from rulesbook.errors import InputError
from rulesbook.results import Distribution


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3", DiceExpr(0, 6, 3)),
        ("D3", DiceExpr(1, 3)),
        ("d6", DiceExpr(1, 6)),
        ("2D6", DiceExpr(2, 6)),
        ("3D6", DiceExpr(3, 6)),
        ("D6+3", DiceExpr(1, 6, 3)),
        (" 2d6 + 1 ", DiceExpr(2, 6, 1)),
        ("D6-1", DiceExpr(1, 6, -1)),
    ],
)
def test_parse_accepts_what_the_sources_use(text: str, expected: DiceExpr) -> None:
    assert parse_dice(text) == expected


@pytest.mark.parametrize(
    "text", ["", "2D", "D", "D6+", "+3", "2D6*2", "D7", "0D6", "21D6", "__import__('os')", "1e3"]
)
def test_parse_rejects_with_one_line_naming_the_field(text: str) -> None:
    with pytest.raises(InputError) as info:
        parse_dice(text, field_name="fall_back_dice")
    message = str(info.value)
    assert message.startswith("fall_back_dice: ")
    assert "\n" not in message


@given(st.integers(1, 4), st.sampled_from([3, 6]), st.integers(-3, 6))
def test_parse_round_trips_through_text(count: int, sides: int, mod: int) -> None:
    expr = DiceExpr(count, sides, mod)
    assert parse_dice(str(expr)) == expr


@given(st.integers(0, 4), st.sampled_from([3, 6]), st.integers(0, 6))
def test_distribution_sums_to_one_and_spans_min_to_max(count: int, sides: int, mod: int) -> None:
    expr = DiceExpr(count, sides, mod)
    dist = expr.distribution()
    assert sum(p for _, p in dist) == 1
    assert dist.outcomes()[0] == expr.minimum
    assert dist.outcomes()[-1] == expr.maximum
    assert dist.mean() == Fraction(count * (sides + 1), 2) + mod


def test_two_d6_hand_counts() -> None:
    dist = TWO_D6.distribution()
    assert dist.p(7) == Fraction(6, 36)
    assert dist.p_at_most(7) == Fraction(21, 36)
    assert dist.p_at_least(10) == Fraction(6, 36)


def test_roll_under_with_double_one() -> None:
    test = RollTest(dice=TWO_D6, target=1, direction="under", auto_pass=double(1))
    assert test.p_pass() == Fraction(1, 36)
    assert test.with_(auto_pass=frozenset()).p_pass() == 0


def test_roll_over_battle_shock_style() -> None:
    # 2D6 >= 7: 21 of 36 rolls.
    assert RollTest(dice=TWO_D6, target=7, direction="over").p_pass() == Fraction(21, 36)


def test_hit_roll_naturals_and_modifier_cap() -> None:
    base = RollTest(
        dice=D6, target=3, direction="over", auto_fail=natural(1), critical=natural(6), modifier_cap=1
    )
    assert base.p_pass() == Fraction(4, 6)
    # +2 is capped at +1: 2+ hits, but an unmodified 1 still fails.
    assert base.with_(modifier=2).p_pass() == Fraction(5, 6)
    # -3 is capped at -1: 4+ hits; an unmodified 6 still hits (critical).
    assert base.with_(modifier=-3).p_pass() == Fraction(3, 6)
    assert base.with_(target=7, modifier=-1).p_pass() == Fraction(1, 6)
    assert base.p_critical() == Fraction(1, 6)


def test_rerolls_ones_failed_all() -> None:
    hit = RollTest(dice=D6, target=3, direction="over", auto_fail=natural(1), critical=natural(6))
    # ones: 4/6 + 1/6 * 4/6
    assert hit.with_(reroll="ones").p_pass() == Fraction(4, 6) + Fraction(1, 6) * Fraction(4, 6)
    # failed: 4/6 + 2/6 * 4/6
    assert hit.with_(reroll="failed").p_pass() == Fraction(4, 6) + Fraction(2, 6) * Fraction(4, 6)
    # all (fishing for criticals): P(crit) = 1/6 + 5/6 * 1/6, P(pass) = 1/6 + 5/6 * 4/6
    fishing = hit.with_(reroll="all")
    assert fishing.p_critical() == Fraction(1, 6) + Fraction(5, 6) * Fraction(1, 6)
    assert fishing.p_pass() == Fraction(1, 6) + Fraction(5, 6) * Fraction(4, 6)


def test_reroll_happens_once_only() -> None:
    # re-rolling failed at 6+: 1/6 + 5/6 * 1/6, never a third roll
    test = RollTest(dice=D6, target=6, direction="over", reroll="failed")
    assert test.p_pass() == Fraction(11, 36)


def test_falling_back_style_always_fail() -> None:
    assert RollTest(dice=TWO_D6, target=12, always_fail=True).p_pass() == 0
    assert RollTest(dice=TWO_D6, target=12, always_fail=True, auto_pass=double(1)).p_pass() == Fraction(1, 36)


roll_tests = st.builds(
    RollTest,
    dice=st.sampled_from([D6, TWO_D6, DiceExpr(1, 3)]),
    target=st.integers(-1, 13),
    direction=st.sampled_from(["under", "over"]),
    modifier=st.integers(-3, 3),
    modifier_cap=st.sampled_from([None, 1]),
    auto_fail=st.sampled_from([frozenset(), natural(1)]),
    critical=st.sampled_from([frozenset(), natural(6), natural(5, 6)]),
    reroll=st.sampled_from(["none", "ones", "failed", "all"]),
)


@given(roll_tests)
def test_outcome_distribution_sums_to_one(test: RollTest) -> None:
    dist = test.distribution()
    assert sum(p for _, p in dist) == 1
    assert 0 <= test.p_critical() <= test.p_pass() <= 1


@given(roll_tests)
def test_reroll_failed_never_hurts(test: RollTest) -> None:
    assert test.with_(reroll="failed").p_pass() >= test.with_(reroll="none").p_pass()


def _simulate(test: RollTest, rng: random.Random) -> Outcome:
    faces = tuple(rng.randint(1, test.dice.sides) for _ in range(test.dice.count))
    outcome = test.judge(faces)
    if test.wants_reroll(tuple(sorted(faces)), outcome):
        outcome = test.judge(tuple(rng.randint(1, test.dice.sides) for _ in range(test.dice.count)))
    return outcome


@given(roll_tests, st.integers(0, 2**32 - 1))
def test_exact_equals_seeded_monte_carlo(test: RollTest, seed: int) -> None:
    rng = random.Random(seed)
    n = 4000
    passes = sum(_simulate(test, rng) >= Outcome.PASS for _ in range(n))
    p = float(test.p_pass())
    sigma = (p * (1 - p) / n) ** 0.5
    assert abs(passes / n - p) <= 5 * sigma + 1e-9


# -- shared helpers the systems build on ------------------------------------------------------------


@given(st.integers(-20, 60))
def test_constant_is_the_parsed_number(value: int) -> None:
    expr = constant(value)
    assert expr.is_constant and expr.minimum == expr.maximum == value
    if value >= 0:
        assert expr == parse_dice(str(value))
    assert expr.distribution().pmf() == {value: Fraction(1)}


@given(st.fractions(min_value=0, max_value=1, max_denominator=50), st.integers(0, 6))
def test_bernoulli_die_counts_successes_binomially(p: Fraction, n: int) -> None:
    counts = Distribution.from_die(n @ bernoulli_die(p))
    for k in range(n + 1):
        assert counts.p(k) == comb(n, k) * p**k * (1 - p) ** (n - k)


def test_bernoulli_die_refuses_a_non_probability() -> None:

    with pytest.raises(ValueError, match="probability"):
        bernoulli_die(Fraction(3, 2))


@pytest.mark.parametrize("target", [2, 3, 6])
def test_pass_and_fail_dice_of_a_roll_test(target: int) -> None:
    test = RollTest(dice=D6, target=target, direction="over", reroll="failed")
    passes = Distribution.from_die(4 @ test.pass_die())
    fails = Distribution.from_die(4 @ test.fail_die())
    assert passes.p(4) == test.p_pass() ** 4 == fails.p(0)
    assert passes.mean() == 4 * test.p_pass() and fails.mean() == 4 * (1 - test.p_pass())


def _icepool_roll_test(test: RollTest) -> Distribution[Outcome]:
    """The roll test through general-purpose dice objects (the reference for the integer grid)."""
    import icepool

    dice = [icepool.d(test.dice.sides)] * test.dice.count

    def first(*faces: int) -> Outcome | icepool.Die[Outcome]:
        outcome = test.judge(faces)
        if test.wants_reroll(tuple(sorted(faces)), outcome):
            return icepool.map(lambda *again: test.judge(again), *dice)
        return outcome

    return Distribution.from_die(icepool.map(first, *dice))


@given(
    count=st.integers(1, 3),
    sides=st.sampled_from([3, 6]),
    target=st.integers(1, 14),
    modifier=st.integers(-2, 2),
    direction=st.sampled_from(["over", "under"]),
    reroll=st.sampled_from(["none", "ones", "failed", "all"]),
    critical_face=st.integers(1, 6),
)
def test_roll_test_grid_counting_equals_icepool(
    count: int, sides: int, target: int, modifier: int, direction: str, reroll: str, critical_face: int
) -> None:
    critical = frozenset({(min(critical_face, sides),) * count})
    test = RollTest(
        dice=DiceExpr(count, sides),
        target=target,
        modifier=modifier,
        direction=direction,  # type: ignore[arg-type]
        reroll=reroll,  # type: ignore[arg-type]
        critical=critical,
    )
    assert test.distribution() == _icepool_roll_test(test)


@settings(max_examples=200, deadline=None)
@given(
    target=st.integers(-2, 10),
    modifier=st.integers(-4, 4),
    cap=st.sampled_from([None, 0, 1, 2]),
    low=st.integers(2, 7),
    fails=st.booleans(),
    reroll=st.sampled_from(["none", "ones", "failed", "all"]),
    faces=st.sampled_from([(), (6,), (1,), (5, 6)]),
    direction=st.sampled_from(["over", "over", "under"]),
    always_fail=st.booleans(),
    auto_pass=st.sampled_from([(), (6,)]),
)
def test_an_everyday_d6_test_is_counted_as_the_general_routine_counts_it(
    target: int,
    modifier: int,
    cap: int | None,
    low: int,
    fails: bool,
    reroll: str,
    faces: tuple[int, ...],
    direction: str,
    always_fail: bool,
    auto_pass: tuple[int, ...],
) -> None:
    """The one-D6 tests counted ahead at import (the Hit, Wound and saving throws of every
    attack) give the counts of the general routine for any target, modifier and cap, and a
    one-D6 test the table does not hold (faces re-rolled by name, roll-under, never passing,
    passing on a named face) is counted by that routine too."""
    from rulesbook.dice.roll import _roll_test_counts  # the routine itself, not its cache

    test = RollTest(
        dice=D6,
        target=target,
        direction=direction,  # type: ignore[arg-type]
        modifier=modifier,
        modifier_cap=cap,
        auto_fail=natural(1) if fails else frozenset(),
        critical=natural(*range(low, 7)),
        reroll=reroll,  # type: ignore[arg-type]
        reroll_faces=natural(*faces) if faces else frozenset(),
        always_fail=always_fail,
        auto_pass=natural(*auto_pass) if auto_pass else frozenset(),
    )
    f, p, c, d = test.counts()
    f2, p2, c2, d2 = _roll_test_counts.__wrapped__(test)
    assert [Fraction(x, d) for x in (f, p, c)] == [Fraction(x, d2) for x in (f2, p2, c2)]
