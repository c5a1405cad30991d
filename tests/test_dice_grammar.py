"""The dice grammar (issue 24, part 1): every form parses, prints canonically and parses back,
and its distribution — and a roll test's natural rolls under keep/drop, re-rolls and explosions —
equals a brute-force enumeration written from the documentation (``tests/dice_oracle.py``,
which imports nothing from rulesbook)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.dice import (
    D6,
    DICE_HELP,
    TWO_D6,
    DiceExpr,
    DiceTerm,
    RollTest,
    constant,
    parse_dice,
)
from rulesbook.errors import InputError
from tests import dice_oracle as oracle

# -- expressions as plain data, drawn small enough to enumerate --------------------------------


@st.composite
def terms(draw: st.DrawFn, *, max_dice: int = 3) -> oracle.Term:
    count = draw(st.integers(1, max_dice))
    sides = draw(st.sampled_from([3, 4, 6]))
    keep, n = "", 0
    if count > 1 and draw(st.booleans()):
        keep = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
        n = draw(st.integers(1, count - 1))
    reroll = draw(st.integers(0, sides - 1)) if draw(st.booleans()) else 0
    explode = count == 1 and sides <= 4 and draw(st.booleans())
    return oracle.Term(count, sides, keep, n, reroll, explode, negative=draw(st.booleans()))


expressions = st.tuples(st.lists(terms(), min_size=1, max_size=2), st.integers(-4, 6)).filter(
    lambda e: sum(t.count for t in e[0]) <= 4 and not (len(e[0]) == 2 and e[0][0].explode and e[0][1].explode)
)


def parsed(e: tuple[list[oracle.Term], int], **spelling: bool) -> DiceExpr:
    return parse_dice(oracle.text(*e, **spelling))


# -- parse, print, parse back --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical", "low", "high"),
    [
        ("2D6+D3-1", "2D6+D3-1", 2, 14),
        ("3D6kh2", "3D6kh2", 2, 12),
        ("3d6 KL2", "3D6kl2", 2, 12),
        ("4D6dh1", "4D6dh1", 3, 18),
        ("3D6dl1", "3D6dl1", 2, 12),
        ("D6r1", "D6r1", 1, 6),
        ("2D6r2", "2D6r2", 2, 12),
        ("D6!", "D6!", 1, 24),
        ("4d6 dl1 r1", "4D6r1dl1", 3, 18),
        ("1 + d6 - D3", "D6-D3+1", -1, 6),
        ("6 - D3", "6-D3", 3, 5),
        ("0-1-D3", "0-1-D3", -4, -2),
        ("2D8+D12+D20", "2D8+D12+D20", 4, 48),
        ("1D6", "D6", 1, 6),
        ("2D6+0", "2D6", 2, 12),
        ("3+4", "7", 7, 7),
    ],
)
def test_every_form_parses_to_its_canonical_spelling(text: str, canonical: str, low: int, high: int) -> None:
    expr = parse_dice(text)
    assert str(expr) == canonical
    assert parse_dice(canonical) == expr and hash(parse_dice(canonical)) == hash(expr)
    assert (expr.minimum, expr.maximum) == (low, high)


def test_everyday_expressions_keep_their_value_text_and_repr() -> None:
    """What outputs show stays: the everyday form is the same value, text and repr as before."""
    assert parse_dice("2D6") == DiceExpr(2, 6) == TWO_D6
    assert repr(parse_dice("D6+3")) == "DiceExpr(count=1, sides=6, modifier=3)"
    assert repr(parse_dice("3")) == "DiceExpr(count=0, sides=6, modifier=3)" and parse_dice("3") == constant(
        3
    )
    assert [str(parse_dice(t)) for t in ("d3", "2d6 + 1", "D6-1", "12")] == ["D3", "2D6+1", "D6-1", "12"]
    assert repr(parse_dice("3D6kl2")) == "parse_dice('3D6kl2')"


@given(expressions, st.booleans(), st.booleans())
def test_text_round_trips_to_an_equal_hashable_value(
    e: tuple[list[oracle.Term], int], lower: bool, spaced: bool
) -> None:
    expr = parsed(e, lower=lower, spaced=spaced)
    again = parse_dice(str(expr))
    assert again == expr and hash(again) == hash(expr) and str(again) == str(expr)
    assert {expr: 1}[again] == 1  # usable as a key (the caches key on it)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "2D",
        "D",
        "D6+",
        "+3",
        "-D6",
        "2D6*2",
        "D7",
        "2D5",
        "0D6",
        "21D6",
        "11D6+10D6",
        "3D6kh3",
        "3D6kh0",
        "D6kh1",
        "D6r6",
        "D6r0",
        "D6r1r1",
        "D6!!",
        "3D6kh1dl1",
        "2D6d6",
        "__import__('os')",
        "1e3",
        "2 6",
        "D6 + + 1",
        "x" * 500,
    ],
)
def test_bad_spellings_get_one_line_naming_the_field(text: str) -> None:
    with pytest.raises(InputError) as info:
        parse_dice(text, field_name="battle_shock_dice")
    message = str(info.value)
    assert message.startswith("battle_shock_dice: ") and "\n" not in message and len(message) < 300


def test_a_malformed_expression_is_shown_the_grammar() -> None:
    with pytest.raises(InputError) as info:
        parse_dice("2D6 plus 1", field_name="charge_dice")
    assert str(info.value) == f"charge_dice: expected {DICE_HELP}, got '2D6 plus 1'"
    for form in ("D6+3", "2D6+D3-1", "3D6kh2", "4D6dl1", "2D6r1", "D6!", "D20"):
        assert form in DICE_HELP


# -- distributions against the brute-force oracle ---------------------------------------------


@settings(max_examples=150, deadline=None)
@given(expressions)
def test_distribution_equals_brute_force_and_sums_to_one(e: tuple[list[oracle.Term], int]) -> None:
    expr = parsed(e)
    dist = expr.distribution()
    assert sum(p for _, p in dist) == 1
    assert dist.pmf() == oracle.distribution(*e)
    outcomes = dist.outcomes()
    assert expr.minimum <= outcomes[0] and outcomes[-1] <= expr.maximum
    weights, den = expr.weights()
    assert len(weights) == expr.maximum - expr.minimum + 1 and sum(weights) == den
    assert {expr.minimum + i: Fraction(w, den) for i, w in enumerate(weights) if w} == dist.pmf()
    assert all(expr.can_total(t) for t in outcomes)


@given(expressions)
def test_bounds_are_reached_without_explosions(e: tuple[list[oracle.Term], int]) -> None:
    expr = parsed(e)
    if not any(t.explode for t in e[0]):  # an exploding die's top value needs every extra die
        assert expr.distribution().outcomes()[0] == expr.minimum
        assert expr.distribution().outcomes()[-1] == expr.maximum


def test_hand_counted_forms() -> None:
    assert parse_dice("D6r1").distribution().p(1) == Fraction(1, 36)  # a 1, then a 1 again
    assert parse_dice("D6r1").distribution().p(6) == Fraction(7, 36)  # a 6, or a 1 then a 6
    assert parse_dice("D6!").distribution().p(7) == Fraction(1, 36)  # a 6, then a 1
    assert parse_dice("D6!").distribution().p(24) == Fraction(1, 6**4)  # four 6s: the depth ends
    assert parse_dice("2D6kh1").distribution().p(6) == Fraction(11, 36)
    assert parse_dice("3D6dl1").distribution().p(12) == Fraction(16, 216)  # two 6s at least


# -- roll tests against the oracle: natural rolls under keep/drop, re-roll, explode ---------------


@settings(max_examples=120, deadline=None)
@given(
    expressions.filter(lambda e: sum(t.count for t in e[0]) <= 3),
    st.integers(-2, 16),
    st.sampled_from(["under", "over"]),
    st.sampled_from(["kept", "rolled"]),
    st.sampled_from(["none", "ones", "failed", "all"]),
    st.integers(1, 6),
    st.integers(1, 6),
)
def test_roll_test_equals_brute_force(
    e: tuple[list[oracle.Term], int],
    target: int,
    direction: str,
    reads: str,
    reroll: str,
    low: int,
    high: int,
) -> None:
    expr = parsed(e)
    n_read = (
        sum(t.n if t.keep in ("kh", "kl") else t.count - t.n for t in e[0])
        if reads == "kept"
        else sum(t.count for t in e[0])
    )
    auto_pass = frozenset({(low,) * n_read})
    critical = frozenset({(high,) * n_read}) if high != low else frozenset()
    test = RollTest(
        dice=expr,
        target=target,
        direction=direction,  # type: ignore[arg-type]
        auto_pass=auto_pass,
        critical=critical,
        auto_fail=frozenset({(1, 2)}),
        reroll=reroll,  # type: ignore[arg-type]
        reads=reads,  # type: ignore[arg-type]
    )
    p_pass, p_crit = oracle.roll_test(
        e[0],
        e[1],
        target=target,
        direction=direction,
        reads=reads,
        auto_pass=auto_pass,
        auto_fail=frozenset({(1, 2)}),
        critical=critical,
        reroll=reroll,
    )
    assert (test.p_pass(), test.p_critical()) == (p_pass, p_crit)
    assert sum(p for _, p in test.distribution()) == 1


@given(st.integers(2, 8), st.integers(1, 4), st.integers(3, 20))
def test_many_everyday_dice_read_faces_exactly(count: int, face: int, target: int) -> None:
    """The integer path for NdS with natural rolls: every die showing ``face`` moved out of the
    totals (a multinomial count), against enumerating every roll."""
    test = RollTest(dice=DiceExpr(count, 4), target=target, auto_pass=frozenset({(face,) * count}))
    rolls = list(itertools.product(range(1, 5), repeat=count))
    passing = sum(1 for r in rolls if sum(r) <= target or all(f == face for f in r))
    assert test.p_pass() == Fraction(passing, len(rolls))


def test_kept_or_every_die_for_a_double_one() -> None:
    low = parse_dice("3D6kl2")
    kept = RollTest(dice=low, target=1, auto_pass=low.every_die(1, "kept"), reads="kept")
    every = RollTest(dice=low, target=1, auto_pass=low.every_die(1, "rolled"), reads="rolled")
    assert kept.p_pass() == Fraction(16, 216)  # at least two 1s among three dice: 15 + 1
    assert every.p_pass() == Fraction(1, 216)  # three 1s


def test_a_reroll_may_roll_other_dice() -> None:
    """Re-rolling only the kept dice of 3D6kh2 after a failure: 2D6 the second time."""
    test = RollTest(dice=parse_dice("3D6kh2"), target=10, direction="over", reroll="failed")
    first = parse_dice("3D6kh2").distribution().p_at_least(10)
    assert test.p_pass() == first + (1 - first) * first
    kept = test.with_(reroll_dice=TWO_D6)
    assert kept.p_pass() == first + (1 - first) * TWO_D6.distribution().p_at_least(10)


def test_a_roll_test_is_judged_from_every_die_rolled() -> None:
    test = RollTest(dice=parse_dice("3D6kl2"), target=7, auto_pass=frozenset({(1, 1)}))
    grid = test.outcome_grid()
    assert len(grid) == 216 and test.grid_size() == 216
    assert Fraction(sum(o >= 1 for _, o in grid), 216) == test.p_pass()
    with pytest.raises(ValueError, match="too many rolls"):
        RollTest(dice=parse_dice("D6r1"), target=3).outcome_grid()


def test_the_everyday_single_die_keeps_its_counts() -> None:
    """The engines' currency (integer weights over the same denominators) is unchanged."""
    # 3+ re-rolling a 1: fail = a 2 (6/36) or a 1 then a 1 or 2 (2/36); pass = 24/36 + 4/36
    assert RollTest(dice=D6, target=3, direction="over", reroll="ones").counts() == (8, 28, 0, 36)
    assert RollTest(dice=TWO_D6, target=7).counts() == (15, 21, 0, 36)
    assert RollTest(dice=TWO_D6, target=7, reroll="failed").counts()[3] == 36 * 36


def test_terms_are_values() -> None:
    term = DiceTerm(4, 6, keep="dl", keep_n=1)
    assert str(term) == "4D6dl1" and term.kept == 3
    with pytest.raises(ValueError):
        DiceTerm(3, 6, keep="kh", keep_n=3)
    with pytest.raises(ValueError):
        DiceExpr(2, 6, 0, (DiceTerm(2, 6),))  # one plain term is the everyday form
