"""Properties of the exact answers: totals of 1, monotonicity, agreement between calculators."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.dice import TWO_D6, parse_dice
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.scrollhammer.choices import CHOICES
from rulesbook.systems.scrollhammer.fall_back import (
    FallBackChain,
    fall_back_chain,
    fall_back_roll,
    panic_cascade,
)
from rulesbook.systems.scrollhammer.rules import break_test, morale_check, regroup_test

lds = st.integers(min_value=0, max_value=12)
distances = st.integers(min_value=1, max_value=40)
phase_counts = st.integers(min_value=0, max_value=6)
dice_texts = st.sampled_from(["2D6", "D6", "3D6", "D6+2", "2D3", "4"])


def chain(
    ld: int, distance: int, half: bool, phases: int, dice: str = "2D6", first: bool = False
) -> FallBackChain:
    return fall_back_chain(
        distance, regroup_test(ld, half), fall_back_roll([parse_dice(dice)]), phases, first_move=first
    )


@given(lds, distances, st.booleans(), phase_counts, dice_texts, st.booleans())
def test_chain_outcomes_sum_to_one(
    ld: int, distance: int, half: bool, phases: int, dice: str, first: bool
) -> None:
    c = chain(ld, distance, half, phases, dice, first)
    assert c.p_removed + c.p_regrouped + c.p_falling_back == 1
    assert all(0 <= p <= 1 for p in (c.p_removed, c.p_regrouped, c.p_falling_back))
    assert len(c.phases) == phases + first
    if c.phases:
        last = c.phases[-1]
        assert (last.p_removed, last.p_regrouped, last.p_falling_back) == (
            c.p_removed,
            c.p_regrouped,
            c.p_falling_back,
        )


@given(st.integers(min_value=0, max_value=11), distances, st.booleans(), phase_counts)
def test_higher_ld_flees_less_and_regroups_more(ld: int, distance: int, half: bool, phases: int) -> None:
    low, high = chain(ld, distance, half, phases), chain(ld + 1, distance, half, phases)
    assert high.p_removed <= low.p_removed
    assert high.p_regrouped >= low.p_regrouped


@given(lds, st.integers(min_value=1, max_value=39), st.booleans(), phase_counts)
def test_farther_from_the_edge_flees_less(ld: int, distance: int, half: bool, phases: int) -> None:
    assert chain(ld, distance + 1, half, phases).p_removed <= chain(ld, distance, half, phases).p_removed


@given(lds, distances, st.booleans(), phase_counts)
def test_more_phases_never_undo_an_outcome(ld: int, distance: int, half: bool, phases: int) -> None:
    short, long = chain(ld, distance, half, phases), chain(ld, distance, half, phases + 1)
    assert long.p_removed >= short.p_removed
    assert long.p_regrouped >= short.p_regrouped
    assert long.p_falling_back <= short.p_falling_back


@given(lds, distances, phase_counts)
def test_at_least_half_regroups_at_least_as_often(ld: int, distance: int, phases: int) -> None:
    assert chain(ld, distance, True, phases).p_regrouped >= chain(ld, distance, False, phases).p_regrouped


@given(lds, distances)
def test_one_phase_is_a_closed_formula(ld: int, distance: int) -> None:
    """One phase: removed = P(fail) * P(2D6 >= distance), computed without the chain."""
    p_fail = 1 - regroup_test(ld, True).p_pass()
    reach = TWO_D6.distribution().p_at_least(distance)
    assert chain(ld, distance, True, 1).p_removed == p_fail * reach


@given(lds, st.integers(min_value=1, max_value=20))
def test_break_test_gets_harder_with_the_margin(ld: int, lost_by: int) -> None:
    assert break_test(ld, lost_by + 1).p_pass() <= break_test(ld, lost_by).p_pass()
    assert break_test(ld, lost_by).p_pass() >= Fraction(1, 36)  # Insane Heroism


@given(
    st.lists(lds, min_size=1, max_size=6),
    st.sampled_from(["next-unit", "whole-line-each-time", "whole-line-once"]),
)
def test_cascade_is_a_distribution_over_0_to_n(line: list[int], model: str) -> None:
    fails = [1 - morale_check(ld).p_pass() for ld in line]
    dist = panic_cascade(fails, CHOICES.replace(readings={"panic_cascade": model}))
    assert sum(p for _, p in dist) == 1
    assert set(dist.outcomes()) <= set(range(len(line) + 1))


@given(st.lists(lds, min_size=1, max_size=6))
def test_chain_model_panics_least(line: list[int]) -> None:
    """Stopping at the first unit that holds can only mean fewer units flee than testing everyone."""
    fails = [1 - morale_check(ld).p_pass() for ld in line]
    chain_mean, once_mean, each_mean = (
        panic_cascade(fails, CHOICES.replace(readings={"panic_cascade": model})).mean()
        for model in ("next-unit", "whole-line-once", "whole-line-each-time")
    )
    assert chain_mean <= once_mean <= each_mean


@given(lds, distances, st.booleans(), phase_counts)
def test_calculator_table_agrees_with_values(ld: int, distance: int, half: bool, phases: int) -> None:
    r = (
        registry()
        .calculator("scrollhammer.fall-back")
        .run(ld=ld, distance=distance, at_least_half=half, phases=phases)
    )
    rows = r.table("phases").rows
    assert len(rows) == phases
    if rows:
        assert rows[-1][-1] == r["p_removed_exact"]
        assert sum(row[1] + row[2] for row in rows) == pytest.approx(r["p_removed"] + r["p_regrouped"])


# -- review fixes: default slowest dice, Fall Back dice of at least 1", the default cascade,
# -- Fall Back moves in every Movement phase, positive modifiers --------------------------------


def p_at_least_by_counting(dice: str, distance: int) -> Fraction:
    """P(total >= distance) by listing every face combination (independent of icepool)."""
    expr = parse_dice(dice)
    faces = list(itertools.product(range(1, expr.sides + 1), repeat=expr.count))
    hits = sum(sum(f) + expr.modifier >= distance for f in faces)
    return Fraction(hits, len(faces))


@pytest.mark.covers("scrollhammer.fall-back.distance", "scrollhammer.fall-back.table-edge")
@given(st.sampled_from(["2D6", "3D6", "D6", "D6+2", "2D3", "4", "D3+1"]), st.integers(1, 20))
def test_one_kind_of_model_needs_no_second_dice(dice: str, distance: int) -> None:
    """Leaving out slowest_model_dice rolls fall_back_dice (it once silently rolled 2D6)."""
    calc = registry().calculator("scrollhammer.fall-back-move")
    result = calc.run(fall_back_dice=dice, distance=distance)
    assert Fraction(result["p_flees_exact"]) == p_at_least_by_counting(dice, distance)
    assert calc.run_json(fall_back_dice=dice, distance=distance)["inputs"]["slowest_model_dice"] == "same"
    for same in ("same", "", dice):
        again = calc.run(fall_back_dice=dice, slowest_model_dice=same, distance=distance)
        assert again["p_flees_exact"] == result["p_flees_exact"]


@pytest.mark.covers("scrollhammer.fall-back.distance")
def test_review_example_three_d6_from_twelve_inches() -> None:
    """3D6 >= 12: 81 of the 216 rolls (the review's example; 2D6 would give 1/36)."""
    r = registry().calculator("scrollhammer.fall-back-move").run(fall_back_dice="3D6", distance=12)
    assert r["p_flees_exact"] == "3/8" == str(Fraction(81, 216))


FALL_BACK_DICE_CALCS = (
    "scrollhammer.fall-back",
    "scrollhammer.fall-back-move",
    "scrollhammer.fall-back-through-friends",
)


@pytest.mark.covers("scrollhammer.fall-back.distance")
@pytest.mark.parametrize("calc_id", FALL_BACK_DICE_CALCS)
@pytest.mark.parametrize("bad", ["0", "D6-1", "D3-1", "2D6-2", "D6-6"])
def test_fall_back_dice_must_roll_at_least_one(calc_id: str, bad: str) -> None:
    calc = registry().calculator(calc_id)
    required = [f"{k}={v}" for k, v in calc.examples[0].items() if k != "fall_back_dice"]
    with pytest.raises(InputError) as info:
        calc.parse_assignments([*required, f"fall_back_dice={bad}"])
    assert info.value.field == "fall_back_dice"
    assert str(info.value) == f"fall_back_dice: the expression can roll below 1, got {bad!r}"
    # the smallest legal dice still work
    for good in ("1", "D6-0", "2D6-1", "D3"):
        assert calc.parse_assignments([*required, f"fall_back_dice={good}"])["fall_back_dice"].minimum >= 1


@pytest.mark.covers("scrollhammer.fall-back.distance")
def test_slowest_model_dice_must_roll_at_least_one() -> None:
    calc = registry().calculator("scrollhammer.fall-back-move")
    with pytest.raises(InputError) as info:
        calc.parse_assignments(["distance=4", "slowest_model_dice=D6-1"])
    assert info.value.field == "slowest_model_dice"


@pytest.mark.covers("scrollhammer.morale.panic-test")
def test_default_cascade_is_every_unit_testing_once() -> None:
    calc = registry().calculator("scrollhammer.panic-cascade")
    assert calc.input("panic_cascade").default == "whole-line-once"
    assert (
        registry().interpretation("scrollhammer.interpretations.panic-cascade").default == "whole-line-once"
    )


@pytest.mark.covers("scrollhammer.morale.panic-test")
@given(st.lists(lds, min_size=1, max_size=5))
def test_default_cascade_is_independent_tests(line: list[int]) -> None:
    """The default distribution equals the sum over every fail/hold pattern of the line."""
    fails = [
        Fraction(sum(a + b > ld and (a, b) != (1, 1) for a in range(1, 7) for b in range(1, 7)), 36)
        for ld in line
    ]
    brute: dict[int, Fraction] = {}
    for pattern in itertools.product((0, 1), repeat=len(line)):
        p = math.prod((f if bad else 1 - f for f, bad in zip(fails, pattern, strict=True)), start=Fraction(1))
        brute[sum(pattern)] = brute.get(sum(pattern), Fraction(0)) + p
    result = registry().calculator("scrollhammer.panic-cascade").run(lds=line)
    got = {row[0]: Fraction(row[1]) for row in result.table("distribution").rows}
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in brute.items() if v}


@pytest.mark.covers("scrollhammer.fall-back.move", "scrollhammer.regroup.test")
@given(lds, distances, st.booleans(), phase_counts, dice_texts, st.booleans())
def test_fleeing_in_every_movement_phase_only_adds_risk(
    ld: int, distance: int, half: bool, phases: int, dice: str, first: bool
) -> None:
    own = chain(ld, distance, half, phases, dice, first)
    every = fall_back_chain(
        distance,
        regroup_test(ld, half),
        fall_back_roll([parse_dice(dice)]),
        phases,
        first_move=first,
        choices=CHOICES.replace(readings={"movement_phases": "every-movement-phase"}),
    )
    assert every.p_removed + every.p_regrouped + every.p_falling_back == 1
    assert every.p_removed >= own.p_removed
    if phases <= 1:
        assert (every.p_removed, every.p_regrouped) == (own.p_removed, own.p_regrouped)


@pytest.mark.covers("scrollhammer.morale.modifiers")
@given(lds, st.integers(-12, 12))
def test_only_penalties_reading_drops_positive_totals(ld: int, modifier: int) -> None:
    calc = registry().calculator("scrollhammer.morale-check")
    ignored = calc.run(ld=ld, modifier=modifier, positive_modifiers="ignored")
    assert ignored["modified_ld"] == ld + min(modifier, 0)
    assert ignored["p_pass_exact"] == calc.run(ld=ld, modifier=min(modifier, 0))["p_pass_exact"]
    assert calc.run(ld=ld, modifier=modifier)["modified_ld"] == ld + modifier
