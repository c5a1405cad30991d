"""The lean path of ``wh40k.attack`` for small attacks (rulesbook/systems/wh40k/calculators/lean.py)
gives exactly the general path's answer: the same values (floats and exact strings, in the same
order), tables, explanation and warnings, and the same error for inputs the general path
refuses; inputs outside its domain go through the general path."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.caches import clear_caches
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.results import CalcResult, DeferredResult
from rulesbook.systems.wh40k.calculators.lean import LEAN_ATTACKS, LEAN_WOUNDS

CALC = registry().calculator("wh40k.attack")

ABILITY_SETS = [
    "",
    "heavy",
    "ignores-cover",
    "blast",
    "heavy,ignores-cover",
    "lethal-hits",
    "pistol",
    "sustained-hits-1",
    "sustained-hits-d3,lethal-hits",
    "devastating-wounds",
    "twin-linked,anti-infantry-4",
    "torrent",
    "crit-hit-5,precision",
]


def general(inputs: dict[str, str]) -> CalcResult | str:
    """The general path's answer (validation with its cross-field check, then the engine), or
    its error message."""
    try:
        return CALC.run_validated(CALC.validate(inputs))
    except InputError as exc:
        return str(exc)


def direct(inputs: dict[str, str]) -> CalcResult | str:
    try:
        return CALC.run(**inputs)
    except InputError as exc:
        return str(exc)


@settings(max_examples=250, deadline=None)
@given(
    attacks=st.sampled_from(["1", "2", "3", "D3", "6", "D6", "2D6", "10", "13"]),
    skill=st.integers(2, 6),
    strength=st.integers(1, 16),
    ap=st.integers(-4, 0),
    damage=st.sampled_from(
        ["1", "2", "D3", "D6", "D6+1", "2D6", "3D6+3", "D8", "2D4", "D6r1", "2D6kh1", "D3!"]
    ),
    abilities=st.sampled_from(ABILITY_SETS),
    ranged=st.booleans(),
    hit_modifier=st.integers(-2, 2),
    wound_modifier=st.integers(-2, 2),
    reroll_hits=st.sampled_from(["none", "ones", "failed"]),
    reroll_wounds=st.sampled_from(["none", "ones", "failed"]),
    critical_hit=st.integers(2, 6),
    critical_wound=st.integers(2, 6),
    stationary=st.booleans(),
    overwatch=st.sampled_from([False, False, True]),
    toughness=st.integers(1, 12),
    save=st.integers(2, 7),
    invuln=st.sampled_from(["none", "3", "4", "6"]),
    wounds=st.integers(1, 14),
    models=st.sampled_from([1, 2, 5, 10]),
    fnp=st.sampled_from(["none", "5", "6"]),
    cover=st.booleans(),
    stealth=st.booleans(),
    damage_reduction=st.integers(0, 2),
    save_modifier=st.integers(-1, 1),
    readings=st.fixed_dictionaries(
        {},
        optional={
            "wound_table": st.just("flat-4"),
            "save_cap": st.just("improvements"),
            "allocation": st.just("excess-spills"),
            "damage_minimum": st.just("min-0"),
            "invuln_modifiers": st.just("armour-only"),
            "devastating_excess": st.just("spills"),
            "sustained_roll": st.just("once-per-weapon"),
        },
    ),
)
def test_lean_path_equals_general_path(readings: dict[str, str], **given_: Any) -> None:
    inputs = {
        key: (str(value).lower() if isinstance(value, bool) else str(value))
        for key, value in given_.items()
        if key != "stationary"
    }
    inputs["remained_stationary"] = str(given_["stationary"]).lower()
    inputs.update(readings)
    clear_caches()
    expected = general(inputs)
    clear_caches()
    got = direct(inputs)
    if isinstance(expected, str):
        assert got == expected
        return
    assert isinstance(got, CalcResult)
    assert list(got.values.items()) == list(expected.values.items())  # same keys, same order
    assert got.warnings == expected.warnings
    assert got.tables == expected.tables
    assert got.explanation == expected.explanation
    assert got == expected and expected == got
    most = {"D3": 3, "D6": 6, "2D6": 12}.get(inputs["attacks"]) or int(inputs["attacks"])
    most += given_["models"] // 5 if "blast" in inputs["abilities"] else 0
    plain = not any(w in inputs["abilities"] for w in ("devastating-wounds", "sustained-hits"))
    in_domain = most <= LEAN_ATTACKS and given_["wounds"] * given_["models"] <= LEAN_WOUNDS and plain
    if in_domain:
        assert isinstance(got, DeferredResult)
    if most > LEAN_ATTACKS or given_["wounds"] * given_["models"] > LEAN_WOUNDS:
        assert not isinstance(got, DeferredResult)


def test_explanation_is_built_once_on_first_read() -> None:
    clear_caches()
    r = CALC.run(
        attacks="1", skill="3", strength="9", ap="-2", damage="D6", toughness="9", save="3", wounds="10"
    )
    assert isinstance(r, DeferredResult)
    lines = r.explanation
    assert lines is r.explanation  # kept, not rebuilt
    assert any(line.startswith("Hit roll: 3+") for line in lines)
    assert r.table("breakdown").rows[-1][0] == "target loses"


def test_a_replaced_compute_function_takes_the_general_path() -> None:
    """A variant that replaces the compute function must not be answered by the lean path."""
    marker = CalcResult({"replaced": True})
    replaced = dataclasses.replace(CALC, compute=lambda **_: marker)
    r = replaced.run(attacks="1", skill="3", strength="4", damage="1", toughness="4", save="3", wounds="1")
    assert r["replaced"] is True


_PARAMETER_VARIANTS = [
    {"critical_roll": 5},
    {"hit_modifier_cap": 2, "wound_modifier_cap": 0},
    {"save_improvement_cap": 0, "cover_save_bonus": 2, "cover_denied_save": 2},
    {"heavy_hit_bonus": 2, "stealth_hit_penalty": 2, "blast_models_per_attack": 3},
]


@pytest.mark.parametrize("parameters", _PARAMETER_VARIANTS)
@settings(max_examples=40, deadline=None)
@given(
    skill=st.integers(2, 6),
    strength=st.integers(3, 10),
    ap=st.integers(-3, 0),
    damage=st.sampled_from(["1", "D3", "D6+1", "2D6"]),
    abilities=st.sampled_from(["", "heavy", "blast", "ignores-cover"]),
    hit_modifier=st.integers(-2, 2),
    wound_modifier=st.integers(-1, 1),
    critical_hit=st.integers(2, 6),
    save=st.integers(2, 7),
    save_modifier=st.integers(-1, 1),
    cover=st.booleans(),
    stealth=st.booleans(),
    models=st.sampled_from([1, 3, 6]),
)
def test_a_parameter_variant_is_answered_alike(parameters: dict[str, int], **given_: Any) -> None:
    """The lean path reads the rule parameters of the calculator's own choice set, as the engine
    does: a variant that changes them (and keeps the compute function) agrees too."""
    assert CALC.choices is not None
    variant = dataclasses.replace(CALC, choices=CALC.choices.replace(parameters=parameters))
    inputs = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in given_.items()}
    inputs.update(attacks="1", toughness="5", wounds="3")
    clear_caches()
    try:
        expected: CalcResult | str = variant.run_validated(variant.validate(inputs))
    except InputError as exc:
        expected = str(exc)
    clear_caches()
    try:
        got: CalcResult | str = variant.run(**inputs)
    except InputError as exc:
        got = str(exc)
    if isinstance(expected, str):
        assert got == expected
        return
    assert isinstance(got, CalcResult)
    assert list(got.values.items()) == list(expected.values.items())
    assert got == expected
