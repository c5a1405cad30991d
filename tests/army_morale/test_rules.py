"""Army Morale rules: values, strength, War Engines, game end — against the source's examples."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.army_morale.choices import CHOICES, ArmyMoraleChoices
from rulesbook.systems.army_morale.rules import (
    Band,
    BandTable,
    army_value,
    at_half_strength,
    detachment_strength,
    detachment_value,
    game_end,
    war_engine_gain,
)


def reading(**readings: str) -> ArmyMoraleChoices:
    """The published rules with other readings (the register's alternatives)."""
    return CHOICES.replace(readings=readings)


@pytest.mark.covers("army-morale.detachment.value")
@given(st.integers(201, 250))
def test_published_band_is_five(points: int) -> None:
    assert detachment_value(points) == 5
    assert detachment_value(points, reading(formula="source-only")) == 5


@pytest.mark.covers("army-morale.detachment.value")
@given(st.integers(1, 5000), st.integers(0, 200))
def test_default_formula_is_monotone_and_one_per_fifty(points: int, extra: int) -> None:
    assert detachment_value(points) <= detachment_value(points + extra)
    # one per started block of 50: the value v satisfies 50(v-1) < points <= 50 v
    v = detachment_value(points)
    assert 50 * (v - 1) < points <= 50 * v


@pytest.mark.covers("army-morale.detachment.value")
def test_source_only_and_custom_tables() -> None:
    with pytest.raises(InputError, match="points: no Morale value is known for 200 points"):
        detachment_value(200, reading(formula="source-only"))
    table = BandTable((Band(0, 100, 1), Band(101, 300, 4)))
    assert [detachment_value(p, table=table) for p in (50, 101, 300)] == [1, 4, 4]


@pytest.mark.covers("army-morale.army.value")
def test_army_value_is_the_sum() -> None:
    assert army_value([detachment_value(p) for p in (225, 180, 45)]) == 5 + 4 + 1


@pytest.mark.covers("army-morale.detachment.strength")
def test_detachment_strength_counts_units_or_damage_capacity() -> None:
    # the source's two examples: 20 infantry units; three Baneblades of Damage Capacity 4
    assert detachment_strength(units=20) == 20
    assert detachment_strength(damage_capacities=[4, 4, 4]) == 12


@pytest.mark.covers("army-morale.detachment.strength", "army-morale.one-time.half-strength")
def test_source_examples_of_half_strength() -> None:
    # 20 infantry units: triggers at 10 or fewer; 3 x DC 4 = 12: triggers at 6 or fewer.
    assert [at_half_strength(n, 20) for n in (11, 10, 9)] == [False, True, True]
    assert [at_half_strength(n, 12) for n in (7, 6, 0)] == [False, True, True]


@pytest.mark.covers("army-morale.one-time.half-strength")
@given(st.integers(1, 500), st.integers(0, 500))
def test_half_strength_thresholds_agree_on_even_and_order_on_odd(initial: int, current: int) -> None:
    current = min(current, initial)
    exact = at_half_strength(current, initial)
    up = at_half_strength(current, initial, reading(half_strength_threshold="round-up"))
    below = at_half_strength(current, initial, reading(half_strength_threshold="below-half"))
    assert exact == (Fraction(current) <= Fraction(initial, 2))
    assert below <= exact <= up  # below-half is the strictest, round-up the most lenient
    if initial % 2 == 1:  # 15 units: exact triggers at 7, rounding up at 8
        assert exact == (current <= initial // 2)
        assert up == (current <= initial // 2 + 1)
    else:
        assert exact == up


@pytest.mark.covers("army-morale.one-time.war-engine-destroyed")
@given(st.integers(0, 40))
def test_war_engine_gain_is_half_rounded(value: int) -> None:
    assert war_engine_gain(value) == math.ceil(value / 2)
    assert war_engine_gain(value, reading(war_engine_rounding="round-down")) == value // 2
    assert war_engine_gain(value) + war_engine_gain(value, reading(war_engine_rounding="round-down")) == value


def _game_end_by_cases(a: int, b: int) -> str:
    """An independent spelling of step R4: enumerate the three cases of the source."""
    a_out, b_out = a <= 0, b <= 0
    if not a_out and not b_out:
        return "continue"
    if a_out != b_out:
        return "b" if a_out else "a"
    return {True: "a", False: "b"}[a > b] if a != b else "draw"


@pytest.mark.covers("army-morale.game-end")
@given(st.integers(-30, 30), st.integers(-30, 30))
def test_game_end_matches_the_three_cases(a: int, b: int) -> None:
    assert game_end(a, b) == _game_end_by_cases(a, b)
    assert game_end(a, b, reading(equal_values="both-lose")) == (
        "both-lose" if a == b <= 0 else _game_end_by_cases(a, b)
    )
    # the check is symmetric in the two sides
    swapped = {"a": "b", "b": "a"}.get(game_end(b, a), game_end(b, a))
    assert game_end(a, b) == swapped


@pytest.mark.covers("army-morale.effects.kinds")
def test_every_rule_has_text_citation_and_code_or_calculator() -> None:
    reg = registry()
    rules = reg.rules_for_system("army-morale")
    assert len(rules) >= 14
    for rule in rules:
        assert rule.text and rule.citations and rule.summary
        assert reg.implementations_for_rule(rule.id) or reg.calculators_for_rule(rule.id), rule.id
    for interp in reg.interpretations_for_system("army-morale"):
        assert len(interp.options) >= 2 and interp.why
