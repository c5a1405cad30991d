"""Army Morale rule choices: every parameter changes the numbers, readings match the register,
a game log's options become typed readings (checked at load), and variants reach the calculators."""

from __future__ import annotations

from typing import Any

import pytest

from rulesbook.choices import register_problems
from rulesbook.dice import D6, parse_dice
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.army_morale.choices import CHOICES, ArmyMoraleChoices, ArmyMoraleParameters
from rulesbook.systems.army_morale.log import EXAMPLE_LOG, Army, GameLog
from rulesbook.systems.army_morale.logfile import load_log, log_from_text
from rulesbook.systems.army_morale.replay import replay
from rulesbook.systems.army_morale.rules import (
    RallyCounts,
    at_half_strength,
    bunker_term,
    destroyed_detachment_term,
    detachment_value,
    rally_terms,
    war_engine_gain,
)
from tests.army_morale.test_ledger import ARMIES


def _fingerprint(choices: ArmyMoraleChoices) -> tuple[Any, ...]:
    """Every number the rules compute from ``choices`` over a spread of situations."""
    source_only = choices.replace(readings={"formula": "source-only"})

    def banded(points: int) -> int | None:
        try:
            return detachment_value(points, source_only)
        except InputError:
            return None

    everything = RallyCounts(2, 2, 2, 2, 1, 1)
    return (
        tuple(detachment_value(p, choices) for p in range(0, 400, 7)),
        tuple(banded(p) for p in range(150, 300)),
        tuple(at_half_strength(c, 30, choices) for c in range(31)),
        tuple(war_engine_gain(v, choices) for v in range(12)),
        tuple((t.side, t.sign, str(t.dice)) for t in rally_terms(everything, everything, choices)),
        str(bunker_term("a", choices).dice),
        destroyed_detachment_term("a", 3, "", choices).amount(),
    )


def _changed(spec_key: str) -> Any:
    spec = ArmyMoraleParameters.spec(spec_key)
    if spec.kind == "dice":
        return parse_dice("2D6") if spec.default != parse_dice("2D6") else D6
    return spec.default + 1 if spec.maximum is None or spec.default < spec.maximum else spec.default - 1


@pytest.mark.parametrize("key", [s.key for s in ArmyMoraleParameters.specs()])
def test_every_parameter_changes_the_numbers(key: str) -> None:
    variant = CHOICES.replace(parameters={key: _changed(key)})
    assert _fingerprint(variant) != _fingerprint(CHOICES)


def test_parameters_cite_a_rule_and_a_source_section() -> None:
    source = registry().system("army-morale")
    for spec in ArmyMoraleParameters.specs():
        assert registry().rule(spec.rule).system == source.id
        assert spec.section and spec.label and spec.help


def test_readings_agree_with_the_register() -> None:
    reg = registry()
    interps = reg.interpretations_for_system("army-morale")
    assert register_problems(CHOICES, interps, [r.id for r in reg.rules_for_system("army-morale")]) == []
    assert reg.choices["army-morale"] is CHOICES


@pytest.mark.covers("army-morale.detachment.value", "army-morale.army.value")
def test_a_variant_of_forty_points_per_morale_point_reaches_replay_and_calculators() -> None:
    forty = CHOICES.replace(parameters={"points_per_morale": 40})
    assert detachment_value(225, forty) == 6
    # example armies: Imperial Guard 225 + 180 + 250 pts, Orks 200 + 240 + 45 pts
    assert replay(load_log(EXAMPLE_LOG)).start == (5 + 4 + 5, 4 + 5 + 1)
    assert replay(load_log(EXAMPLE_LOG), forty).start == (6 + 5 + 7, 5 + 6 + 2)
    calc = registry().calculator("army-morale.detachment-value")
    assert calc.run_validated(calc.validate({"points": 225}), forty)["morale"] == 6
    replayed = registry().calculator("army-morale.replay")
    assert replayed.run_validated(replayed.validate({"log": str(EXAMPLE_LOG)}), forty)["a_start"] == 18


def test_a_variant_die_reaches_the_rally_odds() -> None:
    calc = registry().calculator("army-morale.rally")
    checked = calc.validate({"a_morale": 1, "a_blast_markers": 3, "a_take_and_hold": 1, "b_morale": 5})
    assert calc.run_validated(checked)["p_b_wins_exact"] == "2/3"  # 1 - 3 + D3 <= 0 on 1 or 2
    d6 = CHOICES.replace(parameters={"take_and_hold_dice": "D6"})
    assert calc.run_validated(checked, d6)["p_b_wins_exact"] == "1/3"  # on 1 or 2 of 6


def test_game_log_options_become_typed_readings_checked_at_load() -> None:
    header = "interpretations: {war-engine-rounding: nearest}\n"
    with pytest.raises(InputError) as info:
        log_from_text(header + ARMIES, "game.yaml")
    assert str(info.value).startswith("log: game.yaml line 1 (interpretations.war-engine-rounding): ")
    assert "war-engine-rounding must be one of round-up, round-down, got 'nearest'" in str(info.value)
    log = log_from_text("interpretations: {capture-repeats: once-per-objective}\n" + ARMIES)
    assert log.choices().readings.capture_repeats == "once-per-objective"
    # a log built in code is checked when it is replayed
    odd = GameLog((Army("A"), Army("B")), interpretations=(("equal-values", "coin-flip"),))
    with pytest.raises(InputError, match="equal-values: must be one of draw, both-lose, got 'coin-flip'"):
        replay(odd)


def test_results_are_exact_and_declared() -> None:
    for calc in registry().calculators.values():
        if calc.system != "army-morale":
            continue
        for example in calc.examples:
            result = calc.run(**example)
            problems = calc.output_problems(result)
            assert problems == []
    rally = registry().calculator("army-morale.rally").run(a_morale=2, a_blast_markers=3, a_take_and_hold=1)
    assert (rally["p_b_wins"], rally["p_b_wins_exact"], rally["a_mean_exact"]) == (1 / 3, "1/3", "1")
