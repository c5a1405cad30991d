"""WarStrike's rule choices: declared once, checked against the register, used by the code."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from rulesbook.choices import register_problems
from rulesbook.data import DataFileError, dump_yaml
from rulesbook.errors import InputError
from rulesbook.inputs import InterpretationInput
from rulesbook.registry import registry
from rulesbook.systems.warstrike.choices import CHOICES, WarStrikeParameters, WarStrikeReadings
from rulesbook.systems.warstrike.missions import mission
from rulesbook.systems.warstrike.rules import (
    check_required,
    hive_mind_passes,
    officer_ld_test,
    reserve_arrivals,
    strike_force_morale,
)
from rulesbook.systems.warstrike.versions import _load, draft_choices, ruleset, rulesets

PKG = Path(__file__).parents[2] / "rulesbook" / "systems" / "warstrike"
MORALE = "warstrike.strike-force-morale"
PHASE = "warstrike.starting-phase"


def test_readings_agree_with_the_register_and_the_package_declares_them() -> None:
    reg = registry()
    problems = register_problems(
        CHOICES,
        reg.interpretations_for_system("warstrike"),
        [r.id for r in reg.rules_for_system("warstrike")],
    )
    assert problems == []
    assert reg.choices["warstrike"] is CHOICES
    assert {s.interpretation for s in WarStrikeReadings.specs()} == {
        i.id for i in reg.interpretations_for_system("warstrike")
    }


def test_every_reading_input_is_generated_from_the_typed_reading() -> None:
    """Input key == field name, the same choices (default first) and help as the register."""
    for calc in registry().calculators_for_system("warstrike"):
        assert calc.choices is CHOICES
        for inp in calc.inputs:
            if isinstance(inp, InterpretationInput):
                spec = WarStrikeReadings.spec(inp.key)
                assert inp.interpretation == spec.interpretation
                assert inp.default == spec.default and set(inp.choices) == set(spec.options)
                assert inp.help == f"Interpretation {spec.interpretation}."
                assert inp.key in calc.reading_keys


def test_inert_readings_are_exactly_those_no_calculator_offers() -> None:
    offered = {i.key for c in registry().calculators_for_system("warstrike") for i in c.inputs}
    inert = {s.key for s in WarStrikeReadings.specs() if s.inert}
    assert inert == {s.key for s in WarStrikeReadings.specs()} - offered
    assert inert == {"army_morale_naming", "officers_and_units", "extremes_dice"}


def test_every_parameter_names_its_rule_and_source_section() -> None:
    found = [p / "shared/seeds/002_debc3bc03be072a4.txt" for p in Path(__file__).parents[2:4]]
    source = next((p.read_text(encoding="utf-8") for p in found if p.is_file()), "")
    for spec in WarStrikeParameters.specs():
        assert registry().rule(spec.rule)
        assert spec.label and spec.help
        if source:
            assert spec.section in source, spec.section


def test_a_changed_parameter_is_validated() -> None:
    with pytest.raises(InputError) as info:
        CHOICES.replace(parameters={"reserve_target": 0})
    assert info.value.field == "reserve_target"
    with pytest.raises(InputError) as info:
        CHOICES.replace(parameters={"morale_threshold_numerator": 3})
    assert info.value.field == "morale_threshold_numerator"
    with pytest.raises(InputError):
        CHOICES.replace(parameters={"rerolls": 2})
    with pytest.raises(InputError):
        CHOICES.replace(readings={"hive_mind_tie": "coin-flip"})


# -- the parameters change the numbers -------------------------------------------------------


def test_morale_threshold_parameter_moves_the_trigger() -> None:
    third = CHOICES.replace(parameters={"morale_threshold_denominator": 3})
    two_thirds = CHOICES.replace(
        parameters={"morale_threshold_numerator": 2, "morale_threshold_denominator": 3}
    )
    assert check_required(12, 5) and not check_required(12, 5, third)
    assert check_required(12, 3, third) and not check_required(12, 4, third)
    assert check_required(12, 7, two_thirds) and not check_required(12, 8, two_thirds)
    r = strike_force_morale(starting_units=12, remaining_units=5, officer_ld=8, choices=third)
    assert (r.check_required, r.p_retreat, r.p_retreat_if_checked) == (False, 0, Fraction(5, 18))


def test_ld_test_dice_parameter_changes_every_ld_test() -> None:
    three = CHOICES.replace(parameters={"ld_test_dice": "3D6"})
    # 3D6 <= 10 in 108 of 216 rolls
    assert officer_ld_test(10, three).p_pass() == Fraction(1, 2)
    assert hive_mind_passes([10, 10], three).p(0) == Fraction(1, 4)
    extremes = three.replace(readings={"ld_test": "2d6-natural-extremes"})
    assert officer_ld_test(18, extremes).p_pass() == Fraction(215, 216)  # a triple 6 fails
    assert officer_ld_test(2, extremes).p_pass() == Fraction(1, 216)  # a triple 1 passes


def test_reserve_parameters_replace_the_placeholder_roll() -> None:
    m = mission("seize-the-crossing")
    easier = CHOICES.replace(parameters={"reserve_target": 3})
    assert reserve_arrivals(m, 1, 2, easier).p(1) == Fraction(2, 3)
    later = CHOICES.replace(parameters={"reserve_from_turn": 3})
    assert reserve_arrivals(m, 1, 2, later).pmf() == {0: 1}
    d3 = CHOICES.replace(parameters={"reserve_dice": "D3", "reserve_target": 3})
    assert reserve_arrivals(m, 1, 2, d3).p(1) == Fraction(1, 3)
    real = dataclasses.replace(m, reserves=dataclasses.replace(m.reserves, placeholder=False, target=6))
    assert reserve_arrivals(real, 1, 2, easier).p(1) == Fraction(1, 6)  # a real roll is the mission's


def test_shipped_placeholder_missions_roll_the_declared_parameters() -> None:
    p = CHOICES.parameters
    for m in (mission("seize-the-crossing"), mission("hostage-extraction")):
        assert m.reserves.placeholder
        assert (m.reserves.dice, m.reserves.target, m.reserves.from_turn) == (
            p.reserve_dice,
            p.reserve_target,
            p.reserve_from_turn,
        )


def test_calculators_compute_with_a_changed_choice_set() -> None:
    calc = registry().calculator(MORALE)
    checked = calc.validate({"starting_units": 12, "remaining_units": 5, "officer_ld": 8})
    assert calc.run_validated(checked)["p_retreat_exact"] == "5/18"
    third = CHOICES.replace(parameters={"morale_threshold_denominator": 3})
    assert calc.run_validated(checked, third)["p_retreat_exact"] == "0"
    withdraw = CHOICES.replace(readings={"hive_mind_tie": "withdraw"})
    vote = {"starting_units": 12, "remaining_units": 2, "hive_mind": True, "unit_lds": "7,7"}
    assert calc.run_validated(calc.validate(vote))["p_retreat_exact"] == "25/144"
    # a reading left out of the inputs comes from the choice set given
    checked = calc.validate(vote, withdraw)
    assert calc.run_validated(checked, withdraw)["p_retreat_exact"] == "95/144"  # 25/144 + 2·35/144
    phase = registry().calculator(PHASE)
    args = {"mission": "seize-the-crossing", "turn": 2, "starting_units": 10, "units_on_table": 6}
    checked = phase.validate({**args, "units_in_reserve": 1, "officer_lds": "8"})
    assert phase.run_validated(checked)["expected_arrivals_exact"] == "1/2"
    easier = CHOICES.replace(parameters={"reserve_target": 5})
    assert phase.run_validated(checked, easier)["expected_arrivals_exact"] == "1/3"


# -- drafts are changed copies ---------------------------------------------------------------


def test_the_current_draft_equals_the_declared_defaults() -> None:
    defaults = {s.key: s.default for s in WarStrikeParameters.specs()}
    assert dict(rulesets()[-1].parameters) == defaults
    assert draft_choices() == CHOICES
    variant = CHOICES.replace(parameters={"reserve_target": 5})
    assert draft_choices(None, variant) == variant


def test_an_older_draft_is_a_changed_copy(tmp_path: Path) -> None:
    data = yaml.safe_load((PKG / "versions.yaml").read_text(encoding="utf-8"))
    older = {
        **data["drafts"][0],
        "version": "0.51",
        "parameters": {**data["drafts"][0]["parameters"], "morale_threshold": "1/3", "ld_test_dice": "3D6"},
    }
    data["drafts"].insert(0, older)
    path = tmp_path / "versions.yaml"
    path.write_text(dump_yaml(data), encoding="utf-8")
    first = _load(path)[0]
    assert first.morale_threshold == Fraction(1, 3)
    assert first.parameters["morale_threshold_denominator"] == 3
    assert str(first.parameters["ld_test_dice"]) == "3D6"
    assert ruleset().parameters["morale_threshold_denominator"] == 2


def test_a_draft_with_a_bad_parameter_names_file_and_key(tmp_path: Path) -> None:
    data = yaml.safe_load((PKG / "versions.yaml").read_text(encoding="utf-8"))
    data["drafts"][0]["parameters"]["reserve_target"] = 99
    path = tmp_path / "versions.yaml"
    path.write_text(dump_yaml(data), encoding="utf-8")
    with pytest.raises(
        DataFileError, match=r"^versions.yaml.drafts\[0\].parameters.reserve_target: expected"
    ):
        _load(path)


# -- results ---------------------------------------------------------------------------------


def test_every_example_returns_exactly_its_declared_outputs() -> None:
    for calc in registry().calculators_for_system("warstrike"):
        for example in calc.examples:
            assert calc.output_problems(calc.run(**dict(example))) == []


@pytest.mark.parametrize(
    "inputs",
    [
        {"starting_units": 12, "remaining_units": 8, "hive_mind": True},  # no vote, no p_if
        {"starting_units": 6, "remaining_units": 2, "hive_mind": True, "unit_lds": (7, 7)},
        {"starting_units": 10, "remaining_units": 0, "officer_ld": None},
    ],
)
def test_optional_outputs_are_declared(inputs: dict[str, object]) -> None:
    calc = registry().calculator(MORALE)
    assert calc.output_problems(calc.run(**inputs)) == []
