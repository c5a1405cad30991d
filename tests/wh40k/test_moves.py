"""Charge and Advance rolls: exact answers against brute-force enumeration of the dice (no
rulesbook dice code), hypothesis properties, the gap helper and its interpretation."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.wh40k.calculators.moves import charge_distance
from rulesbook.systems.wh40k.choices import CHOICES

CHARGE = registry().calculator("wh40k.charge")
GAP = registry().calculator("wh40k.charge-gap")
ADVANCE = registry().calculator("wh40k.advance")

TWO_D6 = list(itertools.product(range(1, 7), repeat=2))


def brute_charge(distance: int, reroll: bool) -> Fraction:
    """Enumerate both rolls: the second pair only matters when the first falls short."""
    if not reroll:
        return Fraction(sum(a + b >= distance for a, b in TWO_D6), 36)
    wins = 0
    for first in TWO_D6:
        for second in TWO_D6:
            wins += sum(first) >= distance or sum(second) >= distance
    return Fraction(wins, 36 * 36)


def brute_advance(move: int, distance: int, reroll: bool) -> Fraction:
    wins = sum(
        move + a >= distance or (reroll and move + b >= distance) for a in range(1, 7) for b in range(1, 7)
    )
    return Fraction(wins, 36)


@pytest.mark.covers("wh40k.core.charge", "wh40k.core.rerolls")
@pytest.mark.parametrize("distance", range(0, 15))
@pytest.mark.parametrize("reroll", [False, True])
def test_charge_matches_enumeration(distance: int, reroll: bool) -> None:
    result = CHARGE.run(distance=distance, reroll=reroll)
    assert Fraction(result["p_success_exact"]) == brute_charge(distance, reroll)
    assert Fraction(result["p_first_roll_exact"]) == brute_charge(distance, False)


@pytest.mark.covers("wh40k.core.charge")
def test_charge_hand_worked() -> None:
    # 9": (3,6)(4,5)(5,4)(6,3) (4,6)(5,5)(6,4) (5,6)(6,5) (6,6) = 10 of 36
    assert CHARGE.run(distance=9)["p_success_exact"] == "5/18"
    # re-roll: 5/18 + 13/18 * 5/18 = 90/324 + 65/324
    assert CHARGE.run(distance=9, reroll=True)["p_success_exact"] == "155/324"


@pytest.mark.covers("wh40k.core.charge")
@given(st.integers(0, 23), st.booleans())
def test_charge_monotone_in_distance_and_reroll_never_worse(distance: int, reroll: bool) -> None:
    here = Fraction(CHARGE.run(distance=distance, reroll=reroll)["p_success_exact"])
    further = Fraction(CHARGE.run(distance=distance + 1, reroll=reroll)["p_success_exact"])
    assert further <= here
    assert Fraction(CHARGE.run(distance=distance, reroll=True)["p_success_exact"]) >= Fraction(
        CHARGE.run(distance=distance, reroll=False)["p_success_exact"]
    )


@pytest.mark.covers("wh40k.core.charge")
@given(st.booleans())
def test_charge_roll_totals_sum_to_one(reroll: bool) -> None:
    """P(the final roll is exactly d) = P(>= d) - P(>= d+1); over every d they sum to 1."""
    p = [Fraction(CHARGE.run(distance=d, reroll=reroll)["p_success_exact"]) for d in range(0, 15)]
    exact = [p[d] - p[d + 1] for d in range(len(p) - 1)]
    assert all(x >= 0 for x in exact) and sum(exact) == 1


@pytest.mark.covers("wh40k.core.charge", "wh40k.core.engagement-range")
@pytest.mark.parametrize(
    ("gap", "needed"),
    [("7.5", 7), ("8", 7), ("8.01", 8), ("0.5", 0), ("1", 0), ("12", 11), ('3"', 2)],
)
def test_gap_becomes_distance(gap: str, needed: int) -> None:
    result = GAP.run(gap=gap)
    assert result["distance"] == needed
    assert Fraction(result["p_success_exact"]) == brute_charge(needed, False)


@pytest.mark.covers("wh40k.core.charge")
@given(st.fractions(min_value=0, max_value=24, max_denominator=8))
def test_gap_interpretations(gap: Fraction) -> None:
    base = CHOICES.replace(readings={"charge_gap": "base-contact"})
    assert charge_distance(gap) == max(0, math.ceil(gap - 1))
    assert charge_distance(gap, base) == math.ceil(gap)
    reach = CHOICES.replace(parameters={"engagement_range": 2})
    assert charge_distance(gap, reach) == max(0, math.ceil(gap - 2))


def test_gap_rejects_bad_text() -> None:
    for bad in ("seven", "-3", "25", "7,5", "7.1234"):
        with pytest.raises(InputError, match=r"^gap: expected a distance in inches"):
            GAP.parse_assignments([f"gap={bad}"])


@pytest.mark.covers("wh40k.core.advance", "wh40k.core.rerolls")
@pytest.mark.parametrize(("move", "distance"), [(6, 6), (6, 7), (6, 9), (6, 12), (6, 13), (5, 10), (12, 14)])
@pytest.mark.parametrize("reroll", [False, True])
def test_advance_matches_enumeration(move: int, distance: int, reroll: bool) -> None:
    result = ADVANCE.run(move=move, distance=distance, reroll=reroll)
    assert Fraction(result["p_success_exact"]) == brute_advance(move, distance, reroll)


@pytest.mark.covers("wh40k.core.advance")
@given(st.integers(1, 30))
def test_advance_distribution_is_move_plus_d6(move: int) -> None:
    result = ADVANCE.run(move=move, distance=move)
    dist = [Fraction(x) for x in result["advance_distance_exact"]]
    assert sum(dist) == 1
    assert dist[move + 1 : move + 7] == [Fraction(1, 6)] * 6 and not any(dist[: move + 1])
    assert Fraction(result["mean_advance_distance_exact"]) == move + Fraction(7, 2)
    assert result["p_success_exact"] == "1"


@pytest.mark.covers("wh40k.core.advance")
@given(st.integers(1, 20), st.integers(0, 10))
def test_advance_monotone_and_reroll_never_worse(move: int, extra: int) -> None:
    def p(d: int, r: bool) -> Fraction:
        return Fraction(ADVANCE.run(move=move, distance=d, reroll=r)["p_success_exact"])

    assert p(move + extra + 1, False) <= p(move + extra, False)
    assert p(move + extra, True) >= p(move + extra, False)


def test_advance_refuses_a_distance_below_move() -> None:
    with pytest.raises(InputError, match=r"^distance: at least the Move 6"):
        ADVANCE.run(move=6, distance=4)
