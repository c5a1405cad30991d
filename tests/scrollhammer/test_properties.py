"""Properties of the exact answers: totals of 1, monotonicity, agreement between calculators."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.dice import TWO_D6, parse_dice
from rulesbook.registry import registry
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
    dist = panic_cascade(fails, model)  # type: ignore[arg-type]
    assert sum(p for _, p in dist) == 1
    assert set(dist.outcomes()) <= set(range(len(line) + 1))


@given(st.lists(lds, min_size=1, max_size=6))
def test_chain_model_panics_least(line: list[int]) -> None:
    """Stopping at the first unit that holds can only mean fewer units flee than testing everyone."""
    fails = [1 - morale_check(ld).p_pass() for ld in line]
    chain_mean = panic_cascade(fails, "next-unit").mean()
    once_mean = panic_cascade(fails, "whole-line-once").mean()
    each_mean = panic_cascade(fails, "whole-line-each-time").mean()
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
