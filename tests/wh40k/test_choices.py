"""The wh40k rule choices: every parameter is used by the code it names, the readings match the
register, and every calculator declares exactly what it returns."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from rulesbook.choices import register_problems
from rulesbook.dice import parse_dice
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack.rolls import (
    Situation,
    attacks_distribution,
    battle_shock_test,
    deadly_demise_test,
    desperate_escape_test,
    hazardous_test,
    hit_test,
    save_test,
    wound_test,
)
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities
from rulesbook.systems.wh40k.calculators.morale import Remaining, below_half_strength
from rulesbook.systems.wh40k.calculators.moves import advance_test, charge_distance, charge_test
from rulesbook.systems.wh40k.calculators.path import READING_KEYS
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices, Wh40kParameters, Wh40kReadings

REG = registry()
WH40K = [c for c in REG.calculators.values() if c.system == "wh40k"]


def _gun(abilities: str = "", ap: int = 0) -> Weapon:
    return Weapon("gun", parse_dice("D6"), 4, 4, ap, parse_dice("1"), parse_abilities(abilities))


USES: dict[str, tuple[Any, Callable[[Wh40kChoices], object]]] = {
    "blast_models_per_attack": (
        3,
        lambda c: attacks_distribution(_gun("blast"), Target(4, 3, 1, 10), c).mean(),
    ),
    "hit_modifier_cap": (
        2,
        lambda c: hit_test(_gun(), Target(4, 3, 1), Situation(hit_modifier=2), c).p_pass(),
    ),
    "wound_modifier_cap": (
        2,
        lambda c: wound_test(_gun(), Target(4, 3, 1), Situation(wound_modifier=2), c).p_pass(),
    ),
    "save_improvement_cap": (
        2,
        lambda c: save_test(_gun(), Target(4, 5, 1), Situation(save_modifier=2), c).p_pass(),  # type: ignore[union-attr]
    ),
    "critical_roll": (5, lambda c: hit_test(_gun(), Target(4, 3, 1), Situation(), c).p_critical()),
    "heavy_hit_bonus": (0, lambda c: hit_test(_gun("heavy"), Target(4, 3, 1), Situation(), c).p_pass()),
    "stealth_hit_penalty": (
        0,
        lambda c: hit_test(_gun(), Target(4, 3, 1, stealth=True), Situation(), c).p_pass(),
    ),
    "overwatch_hit_roll": (
        5,
        lambda c: hit_test(_gun(), Target(4, 3, 1), Situation(overwatch=True), c).p_pass(),
    ),
    "cover_save_bonus": (
        2,
        lambda c: save_test(_gun(ap=-1), Target(4, 4, 1, cover=True), Situation(), c).p_pass(),
    ),  # type: ignore[union-attr]
    "cover_denied_save": (
        2,
        lambda c: save_test(_gun(), Target(4, 3, 1, cover=True), Situation(), c).p_pass(),
    ),  # type: ignore[union-attr]
    "battle_shock_dice": (parse_dice("3D6"), lambda c: battle_shock_test(7, 0, c).p_pass()),
    "battle_shock_margin": (1, lambda c: battle_shock_test(7, 0, c).p_pass()),
    "desperate_escape_fails_up_to": (3, lambda c: desperate_escape_test(c).p_pass()),
    "hazardous_fails_up_to": (2, lambda c: hazardous_test(c).p_pass()),
    "hazardous_mortal_wounds": (
        2,
        lambda c: REG.calculator("wh40k.hazardous").run_validated({"weapons": 6}, c)[
            "mean_mortal_wounds_exact"
        ],
    ),
    "deadly_demise_roll": (5, lambda c: deadly_demise_test(c).p_pass()),
    "charge_dice": (parse_dice("3D6"), lambda c: charge_test(9, False, c).p_pass()),
    "advance_dice": (parse_dice("2D6"), lambda c: advance_test(6, 10, False, c).p_pass()),
    "engagement_range": (2, lambda c: charge_distance(Fraction(9), c)),
    "below_strength_fraction": (
        Fraction(1, 3),
        lambda c: below_half_strength(Remaining(4, 10, 0, 0, 6), c),
    ),
}


def test_every_parameter_is_exercised_here() -> None:
    assert set(USES) == {s.key for s in Wh40kParameters.specs()}


@pytest.mark.parametrize("key", sorted(USES))
def test_each_parameter_changes_the_number_it_names(key: str) -> None:
    """A variant of the parameter reaches the rule: the same call gives another number."""
    value, use = USES[key]
    variant = CHOICES.replace(parameters={key: value})
    assert use(variant) != use(CHOICES)


def test_parameters_cite_their_rule_and_section() -> None:
    for spec in Wh40kParameters.specs():
        assert spec.section and spec.label and spec.help
        assert REG.rule(spec.rule).id == spec.rule


def test_readings_agree_with_the_register() -> None:
    interps = REG.interpretations_for_system("wh40k")
    assert register_problems(CHOICES, interps, list(REG.rules)) == []
    assert len(Wh40kReadings.specs()) == len(interps) == 49  # with battle-shock-*, sustained-lethal


def test_reading_inputs_are_the_typed_fields_under_their_public_keys() -> None:
    attack = REG.calculator("wh40k.attack")
    for key in READING_KEYS:
        spec = Wh40kReadings.spec(key)
        assert not spec.inert
        inp = attack.input(key)
        assert inp.default == spec.default and set(inp.choices) == set(spec.options)  # type: ignore[attr-defined]
    assert set(attack.reading_keys) == set(READING_KEYS)


def test_a_variant_reaches_the_attack_calculators() -> None:
    """Blast counting every 3 models instead of 5: 10 models give 3 extra attacks, not 2."""
    attack = REG.calculator("wh40k.attack")
    values = {"attacks": "D6", "skill": "3", "strength": "4", "damage": "1", "abilities": "blast"}
    checked = attack.validate({**values, "toughness": "4", "save": "3", "wounds": "1", "models": "10"})
    published = attack.run_validated(checked).table("breakdown").rows[0][1]
    variant = attack.run_validated(checked, CHOICES.replace(parameters={"blast_models_per_attack": 3}))
    assert (published, variant.table("breakdown").rows[0][1]) == (5.5, 6.5)


@pytest.mark.parametrize("calc", WH40K, ids=lambda c: c.id)
def test_every_result_key_is_declared_and_exact(calc: Any) -> None:
    for example in calc.examples:
        checked = calc.parse_assignments([f"{k}={v}" for k, v in example.items()])
        assert calc.output_problems(calc.run_validated(checked)) == []
        raw = calc.compute(**calc.compute_arguments(checked))
        for out in calc.outputs:
            if out.kind == "probability" and (out.key in raw.values or not out.when):
                assert isinstance(raw.values[out.key], Fraction), out.key
