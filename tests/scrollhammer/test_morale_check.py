"""Scrollhammer Morale check: exact values, properties and a seeded Monte Carlo cross-check."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.registry import registry
from rulesbook.systems.scrollhammer.choices import CHOICES, ScrollhammerChoices
from rulesbook.systems.scrollhammer.rules import modified_ld, morale_check

CALC = "scrollhammer.morale-check"


def heroism_if(on: bool) -> ScrollhammerChoices:
    """The rules with Insane Heroism on or off."""
    return CHOICES.replace(parameters={"insane_heroism": on})


def brute_force(target: int, heroism: bool, falling_back: bool) -> Fraction:
    """Count the 36 rolls by hand, independently of RollTest."""
    passing = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if falling_back:
                ok = False
            else:
                ok = a + b <= target or (heroism and a == b == 1)
            passing += ok
    return Fraction(passing, 36)


@pytest.mark.covers(
    "scrollhammer.morale.check", "scrollhammer.morale.insane-heroism", "scrollhammer.morale.modifiers"
)
@given(st.integers(0, 12), st.integers(-12, 12), st.booleans(), st.booleans())
def test_matches_brute_force_count(ld: int, modifier: int, heroism: bool, falling_back: bool) -> None:
    got = morale_check(ld, modifier, heroism_if(heroism), falling_back=falling_back).p_pass()
    assert got == brute_force(ld + modifier, heroism, falling_back)


@pytest.mark.covers("scrollhammer.morale.check")
@given(st.integers(0, 11), st.integers(-12, 12), st.booleans())
def test_monotone_in_leadership(ld: int, modifier: int, heroism: bool) -> None:
    low = morale_check(ld, modifier, heroism_if(heroism)).p_pass()
    high = morale_check(ld + 1, modifier, heroism_if(heroism)).p_pass()
    assert low <= high


@pytest.mark.covers("scrollhammer.morale.insane-heroism")
@given(st.integers(0, 12), st.integers(-12, 12))
def test_insane_heroism_floor(ld: int, modifier: int) -> None:
    assert morale_check(ld, modifier).p_pass() >= Fraction(1, 36)


@pytest.mark.covers("scrollhammer.morale.falling-back-fails")
@given(st.integers(0, 12), st.integers(-12, 12))
def test_falling_back_always_fails_by_default(ld: int, modifier: int) -> None:
    assert morale_check(ld, modifier, falling_back=True).p_pass() == 0
    passes = CHOICES.replace(readings={"heroism_when_falling_back": "heroism-passes"})
    alt = morale_check(ld, modifier, passes, falling_back=True)
    assert alt.p_pass() == Fraction(1, 36)


@pytest.mark.covers("scrollhammer.morale.modifiers")
def test_ld_cap_alternative_only_lowers_high_values() -> None:
    capped = CHOICES.replace(readings={"ld_bounds": "max-10"})
    assert modified_ld(9, 3, capped) == 10
    assert modified_ld(6, 1, capped) == 7
    assert morale_check(9, 3, capped).p_pass() == Fraction(33, 36)
    assert morale_check(9, 3).p_pass() == 1


@pytest.mark.covers("scrollhammer.morale.check")
@given(st.integers(0, 12), st.integers(-4, 2), st.integers(0, 2**32 - 1))
def test_exact_equals_seeded_monte_carlo(ld: int, modifier: int, seed: int) -> None:
    rng = random.Random(seed)
    n = 5000
    target = ld + modifier
    hits = 0
    for _ in range(n):
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        hits += a + b <= target or a == b == 1
    p = float(morale_check(ld, modifier).p_pass())
    sigma = (p * (1 - p) / n) ** 0.5
    assert abs(hits / n - p) <= 5 * sigma + 1e-9


@pytest.mark.covers("scrollhammer.morale.check")
def test_calculator_result_shape() -> None:
    data = registry().calculator(CALC).run_json(ld=7, modifier=-1)
    assert data["calculator"] == CALC
    assert data["inputs"] == {
        "ld": 7,
        "modifier": -1,
        "insane_heroism": True,
        "falling_back": False,
        "ld_bounds": "none",
        "heroism_low_ld": "passes",
        "heroism_when_falling_back": "automatic-failure",
        "positive_modifiers": "allowed",
        "models_left": None,
        "starting_models": None,
    }
    result = data["result"]
    assert result["p_pass_exact"] == "5/12"
    assert result["p_pass"] == pytest.approx(5 / 12)
    grid = result["outcomes"]
    assert len(grid) == 6 and all(len(row) == 7 for row in grid)
    assert sum(v == "pass" for row in grid for k, v in row.items() if k != "first die") == 15
