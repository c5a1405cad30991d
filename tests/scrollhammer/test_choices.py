"""Scrollhammer's rule choices: parameters the code uses, readings that match the register,
and calculators that return exactly what they declare."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesbook.choices import register_problems
from rulesbook.dice import parse_dice
from rulesbook.errors import InputError, RulesbookError
from rulesbook.inputs import InterpretationInput
from rulesbook.registry import SystemPackage, load_system_package, registry
from rulesbook.systems.scrollhammer import SYSTEM
from rulesbook.systems.scrollhammer.choices import (
    CHOICES,
    ScrollhammerChoices,
    ScrollhammerParameters,
    ScrollhammerReadings,
)
from rulesbook.systems.scrollhammer.fall_back import fall_back_roll, from_combat_extension
from rulesbook.systems.scrollhammer.fall_back_calculators import FALL_BACK_DICE_INPUT, flee_table
from rulesbook.systems.scrollhammer.rules import (
    at_least_half,
    break_test,
    casualties_test_needed,
    casualties_threshold,
    morale_check,
    regroup_allowance,
    regroup_test,
)


def scrollhammer_calculators() -> list[Any]:
    return [c for c in registry().calculators.values() if c.system == "scrollhammer"]


# -- results ------------------------------------------------------------------------------------


def test_every_example_returns_exactly_the_declared_outputs() -> None:
    checked = 0
    for calc in scrollhammer_calculators():
        for example in calc.examples:
            assert calc.output_problems(calc.run(**example)) == [], (calc.id, example)
            checked += 1
    assert checked >= 27


def test_probabilities_are_exact_fractions_in_the_compute_functions() -> None:
    calc = registry().calculator("scrollhammer.break-test")
    raw = calc.compute(**calc.compute_arguments(calc.validate({"ld": 8, "lost_by": 3})))
    assert raw["p_pass"] == Fraction(5, 18) and isinstance(raw["p_pass"], Fraction)
    published = calc.run(ld=8, lost_by=3)
    assert published["p_pass_exact"] == "5/18" and published["p_pass"] == pytest.approx(5 / 18)


# -- readings and the register ------------------------------------------------------------------


def test_readings_and_register_agree() -> None:
    reg = registry()
    entries = reg.interpretations_for_system("scrollhammer")
    rule_ids = [r.id for r in reg.rules_for_system("scrollhammer")]
    assert register_problems(CHOICES, entries, rule_ids) == []
    assert {s.interpretation for s in ScrollhammerReadings.specs()} == {e.id for e in entries}


def test_reading_inputs_are_generated_from_the_typed_readings() -> None:
    """Every interpretation input of a calculator is a reading field of the same key and entry."""
    seen: set[str] = set()
    for calc in scrollhammer_calculators():
        for inp in calc.inputs:
            if isinstance(inp, InterpretationInput):
                spec = ScrollhammerReadings.spec(inp.key)
                assert (spec.key, spec.interpretation, spec.default) == (
                    inp.key,
                    inp.interpretation,
                    inp.default,
                )
                assert inp.key in calc.reading_keys
                seen.add(inp.key)
    inert = {s.key for s in ScrollhammerReadings.specs() if s.inert}
    assert inert == {
        "casualties_timing",
        "edge_distance",
        "fleeing_unit_fails_again",
        "casualties_choice",
        "regroup_modifiers",
        "heroism_dice",  # the printed 2D6 keeps every die: only a variant's keep/drop dice differ
    }
    assert not inert & seen
    # every reading the code consults is offered by at least one calculator
    assert {s.key for s in ScrollhammerReadings.specs()} - inert == seen


def _broken_copy(tmp_path: Path, change: Callable[[str], str]) -> SystemPackage:
    text = SYSTEM.data.read_text(encoding="utf-8")
    changed = change(text)
    assert changed != text
    path = tmp_path / "rules.yaml"
    path.write_text(changed, encoding="utf-8")
    return SystemPackage(data=path, choices=CHOICES)


def test_a_changed_register_default_fails_at_load(tmp_path: Path) -> None:
    entry = "scrollhammer.interpretations.pinning-tests"

    def change(text: str) -> str:
        head, sep, tail = text.partition(f"id: {entry}")
        return head + sep + tail.replace("default: per-attack", "default: per-phase", 1)

    with pytest.raises(RulesbookError) as info:
        load_system_package(_broken_copy(tmp_path, change))
    message = str(info.value)
    assert message.startswith("rules.yaml: ") and entry in message and "default" in message


def test_an_extra_register_entry_fails_at_load(tmp_path: Path) -> None:
    entry = "scrollhammer.interpretations.extra-entry"
    extra = f"""
  - id: {entry}
    question: Is this entry declared in the code?
    default: declared
    why: A test entry that ScrollhammerReadings does not know.
    options:
      - key: declared
        label: Declared
        description: The code has a field for it.
      - key: missing
        label: Missing
        description: The code has none.
    rules: [scrollhammer.morale.check]
"""
    with pytest.raises(RulesbookError) as info:
        load_system_package(_broken_copy(tmp_path, lambda text: text.rstrip("\n") + "\n" + extra))
    message = str(info.value)
    assert message.startswith("rules.yaml: ") and entry in message


# -- parameters: each one changes the numbers -----------------------------------------------------


def changed(**values: Any) -> ScrollhammerChoices:
    return CHOICES.replace(parameters=values)


PARAMETER_EFFECTS: dict[str, Callable[[], None]] = {}


def effect(key: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def register(check: Callable[[], None]) -> Callable[[], None]:
        PARAMETER_EFFECTS[key] = check
        return check

    return register


@effect("leadership_dice")
def _leadership_dice() -> None:
    three = changed(leadership_dice="3D6")
    assert morale_check(7).p_pass() == Fraction(7, 12)
    assert morale_check(7, 0, three).p_pass() == Fraction(35, 216)  # 3D6 <= 7: 35 rolls, 1-1-1 among them
    assert morale_check(2, -3, three).p_pass() == Fraction(1, 216)  # only the triple 1
    calc = registry().calculator("scrollhammer.morale-check")
    result = calc.run_validated(calc.validate({"ld": 7}), three)
    assert result["p_pass_exact"] == "35/216"
    assert len(result.table("outcomes").rows) == 216


@effect("weak_unit_percent")
@effect("weak_unit_modifier")
def _weak_units() -> None:
    """Both together make the rule: a unit below the share tests at the modifier; either alone,
    or a unit at or above the share, changes nothing."""
    weak = changed(weak_unit_percent=25, weak_unit_modifier=-2)
    assert morale_check(8, 0, weak, strength=(2, 10)).p_pass() == Fraction(15, 36)  # 2D6 <= 6
    assert morale_check(8, 0, weak, strength=(3, 12)).p_pass() == Fraction(26, 36)  # 25 % exactly: not below
    assert morale_check(8, 0, weak).p_pass() == Fraction(26, 36)  # no strength given
    assert morale_check(8, 0, changed(weak_unit_percent=25), strength=(2, 10)).p_pass() == Fraction(26, 36)
    assert morale_check(8, 0, changed(weak_unit_modifier=-2), strength=(2, 10)).p_pass() == Fraction(26, 36)
    assert break_test(8, 1, 0, weak, (2, 10)).p_pass() == Fraction(10, 36)  # 2D6 <= 5
    assert regroup_test(8, True, weak, (1, 10)).p_pass() == Fraction(15, 36)


@effect("insane_heroism")
def _insane_heroism() -> None:
    off = changed(insane_heroism=False)
    assert morale_check(2, -3).p_pass() == Fraction(1, 36)
    assert morale_check(2, -3, off).p_pass() == 0
    assert break_test(8, 9, 0, off).p_pass() == 0
    assert regroup_test(8, False, off).p_pass() == 0
    calc = registry().calculator("scrollhammer.break-test")
    assert calc.run_validated(calc.validate({"ld": 8, "lost_by": 9}), off)["p_pass_exact"] == "0"


@effect("insane_heroism_face")
def _insane_heroism_face() -> None:
    # at modified Ld 2 a double 1 passes anyway; a double 6 as the heroic roll adds a second way
    assert morale_check(2).p_pass() == Fraction(1, 36)
    assert morale_check(2, 0, changed(insane_heroism_face=6)).p_pass() == Fraction(2, 36)


@effect("falling_back_fails")
def _falling_back_fails() -> None:
    assert morale_check(7, falling_back=True).p_pass() == 0
    assert morale_check(7, 0, changed(falling_back_fails=False), falling_back=True).p_pass() == Fraction(
        7, 12
    )


@effect("casualties_percent")
def _casualties_percent() -> None:
    half = changed(casualties_percent=50)
    assert (casualties_threshold(10), casualties_threshold(10, half)) == (3, 5)
    assert casualties_test_needed(10, 3) and not casualties_test_needed(10, 3, half)
    calc = registry().calculator("scrollhammer.casualties-test")
    checked = calc.validate({"ld": 7, "models_at_start": 10, "models_lost": 3})
    assert calc.run_validated(checked, half)["losses_needed"] == 5


@effect("break_ld_per_point")
def _break_ld_per_point() -> None:
    two = changed(break_ld_per_point=2)
    assert break_test(8, 2).p_pass() == Fraction(5, 12)  # 2D6 <= 6
    assert break_test(8, 2, 0, two).p_pass() == Fraction(1, 6)  # 2D6 <= 4
    calc = registry().calculator("scrollhammer.break-test")
    result = calc.run_validated(calc.validate({"ld": 8, "lost_by": 2}), two)
    assert (result["modified_ld"], result["p_pass_exact"]) == (4, "1/6")


@effect("fall_back_dice")
def _fall_back_dice() -> None:
    three = changed(fall_back_dice="3D6")
    assert fall_back_roll().mean() == 7
    assert fall_back_roll((), three).mean() == Fraction(21, 2)
    assert (
        flee_table(range(6, 7), range(7, 8), phases=1, choices=three).rows
        != flee_table(range(6, 7), range(7, 8), phases=1).rows
    )
    assert FALL_BACK_DICE_INPUT.default == CHOICES.parameters.fall_back_dice == parse_dice("2D6")


@effect("combat_clearance")
def _combat_clearance() -> None:
    assert from_combat_extension(Fraction(1, 2)) == Fraction(1, 2)
    assert from_combat_extension(Fraction(1, 2), changed(combat_clearance=2)) == Fraction(3, 2)


@effect("regroup_percent")
def _regroup_percent() -> None:
    three_quarters = changed(regroup_percent=75)
    assert at_least_half(5, 10) and not at_least_half(5, 10, three_quarters)
    assert at_least_half(8, 10, three_quarters)
    calc = registry().calculator("scrollhammer.regroup-test")
    checked = calc.validate({"ld": 8, "models_alive": 5, "models_total": 10})
    assert calc.run_validated(checked, three_quarters)["p_regroup_exact"] == "1/36"


@effect("regroup_move")
def _regroup_move() -> None:
    assert regroup_allowance(choices=changed(regroup_move=6)).move_inches == 6
    assert regroup_allowance(True, changed(regroup_move=6)).move_inches == 0


def test_every_parameter_has_an_effect_test() -> None:
    assert set(PARAMETER_EFFECTS) == {s.key for s in ScrollhammerParameters.specs()}


@pytest.mark.parametrize("key", sorted(PARAMETER_EFFECTS))
def test_changing_a_parameter_changes_the_numbers(key: str) -> None:
    PARAMETER_EFFECTS[key]()


def test_every_parameter_names_a_rule_and_a_source_section() -> None:
    rule_ids = {r.id for r in registry().rules_for_system("scrollhammer")}
    for spec in ScrollhammerParameters.specs():
        assert spec.rule in rule_ids and spec.section and spec.label and spec.help, spec.key
        assert spec.check(spec.default) == spec.default


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"leadership_dice": "20D20!kh10"}, "leadership_dice"),  # beyond the work bound
        ({"leadership_dice": "7"}, "leadership_dice"),  # a test rolls dice
        ({"leadership_dice": "2D6+D3", "insane_heroism_face": 4}, "insane_heroism_face"),
        ({"leadership_dice": "D3", "insane_heroism_face": 4}, "insane_heroism_face"),
        ({"break_ld_per_point": 7}, "break_ld_per_point"),
        ({"fall_back_dice": "D6-1"}, "fall_back_dice"),
        ({"no_such_rule": 1}, "no_such_rule"),
    ],
)
def test_bad_parameters_are_refused_naming_the_field(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as info:
        CHOICES.replace(parameters=changes)
    assert info.value.field == field


def test_the_insane_heroism_switch_is_the_parameter() -> None:
    calc = registry().calculator("scrollhammer.morale-check")
    off = calc.run(ld=2, modifier=-3, insane_heroism=False)
    via_choices = calc.run_validated(calc.validate({"ld": 2, "modifier": -3}), changed(insane_heroism=False))
    assert off["p_pass_exact"] == via_choices["p_pass_exact"] == "0"
    assert calc.run(ld=2, modifier=-3)["p_pass_exact"] == "1/36"
