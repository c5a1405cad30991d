"""The whole Starting Phase, the mission and draft data files, and the system's bookkeeping."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

import rulesbook.systems.warstrike as ws
from rulesbook.data import DataFileError, dump_yaml
from rulesbook.index import covering_tests
from rulesbook.inputs import InterpretationInput
from rulesbook.registry import registry
from rulesbook.systems.warstrike.choices import CHOICES
from rulesbook.systems.warstrike.missions import load_mission, mission, missions
from rulesbook.systems.warstrike.rules import (
    Officer,
    StrikeForce,
    reserve_arrivals,
    starting_phase,
)
from rulesbook.systems.warstrike.versions import _load, changes_markdown, rule_since, ruleset, rulesets

from .sim import morale_retreats

PKG = Path(ws.__file__).parent
REPO = PKG.parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
COUNTERS = {"objectives_held": 0, "enemy_units_remaining": 6, "units_escorted": 0}


@pytest.mark.covers("warstrike.starting-phase.sequence", "warstrike.victory.check", "warstrike.reserves.roll")
def test_phase_outcomes_sum_to_one_and_match_simulation() -> None:
    """Seeded simulation of the whole phase (morale, victory, placeholder reserves)."""
    force = StrikeForce(
        starting_units=10, units_on_table=2, units_in_reserve=2, officers=(Officer(7), Officer(6))
    )
    m = mission("seize-the-crossing")
    r = starting_phase(force, m, side="attacker", turn=3, counters=COUNTERS)
    assert sum(r.outcome.values()) == 1
    rng = random.Random(7)
    trials = 20_000
    retreats = arrivals_seen = games_on = 0
    for _ in range(trials):
        if morale_retreats(rng, officer_ld=7):
            retreats += 1
            continue
        games_on += 1
        arrivals_seen += sum(rng.randint(1, 6) >= 4 for _ in range(2))
    p = float(r.outcome["retreat"])
    assert abs(retreats / trials - p) < 4.5 * (p * (1 - p) / trials) ** 0.5
    assert abs(arrivals_seen / games_on - float(r.arrivals.mean())) < 0.05
    assert r.arrivals.mean() == 1


@pytest.mark.covers("warstrike.starting-phase.sequence")
def test_log_walks_the_three_steps_in_order() -> None:
    force = StrikeForce(starting_units=6, units_on_table=2, hive_mind=True, unit_lds=(7, 7))
    r = starting_phase(force, mission("hostage-extraction"), side="defender", turn=5, counters=COUNTERS)
    steps = [line for line in r.log if line.startswith("Step ")]
    assert [s.split(" — ")[0] for s in steps] == ["Step 1", "Step 2", "Step 3"]
    assert "Check Strike Force Morale" in steps[0] and "Victory" in steps[1] and "Reserves" in steps[2]
    assert r.log[-1].startswith("Outcome:")


@pytest.mark.covers("warstrike.morale.officer-test")
def test_officers_in_reserve_or_dead_cannot_test() -> None:
    force = StrikeForce(
        starting_units=10,
        units_on_table=3,
        units_in_reserve=1,
        officers=(Officer(9, alive=False), Officer(10, in_reserve=True), Officer(6)),
    )
    assert force.testing_officer_ld() == 6
    assert force.with_(officers=(Officer(9, alive=False),)).testing_officer_ld() is None
    r = starting_phase(force, mission("seize-the-crossing"), side="attacker", turn=2, counters=COUNTERS)
    assert r.morale.p_retreat == Fraction(21, 36)  # Ld 6 passes on 1+2+3+4+5 = 15 of 36


@pytest.mark.covers("warstrike.reserves.roll")
def test_reserve_readings() -> None:
    m = mission("seize-the-crossing")
    assert reserve_arrivals(m, 3, 2, CHOICES.replace(readings={"reserves_roll": "none-arrive"})).pmf() == {
        0: 1
    }
    assert reserve_arrivals(m, 3, 2, CHOICES.replace(readings={"reserves_roll": "all-arrive"})).pmf() == {
        3: 1
    }
    d = reserve_arrivals(m, 3, 2)
    assert d.pmf() == {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)}
    assert m.reserves.placeholder and "PLACEHOLDER" in m.reserves.describe()


@pytest.mark.covers("warstrike.victory.check")
def test_victory_only_for_the_active_side_by_default() -> None:
    force = StrikeForce(starting_units=10, units_on_table=8, officers=(Officer(8),))
    m = mission("seize-the-crossing")
    counters = {**COUNTERS, "objectives_held": 0}
    default = starting_phase(
        force, m, side="attacker", turn=6, counters=counters, opponent_counters={"objectives_held": 3}
    )
    assert default.outcome["continue"] == 1 and default.opponent_conditions_met == ()
    both = starting_phase(
        force,
        m,
        side="attacker",
        turn=6,
        counters=counters,
        opponent_counters={"objectives_held": 3},
        choices=CHOICES.replace(readings={"victory_whose_conditions": "both-sides"}),
    )
    assert both.outcome["defeat"] == 1 and len(both.opponent_conditions_met) == 2


# -- missions ---------------------------------------------------------------------------------


def test_shipped_missions() -> None:
    assert set(missions()) == {"seize-the-crossing", "hostage-extraction"}
    for m in missions().values():
        assert m.example and m.victory["attacker"] and m.victory["defender"]
        assert m.reserves.placeholder


GOOD = (PKG / "missions" / "seize-the-crossing.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("victory"), "seize-the-crossing.yaml: missing field 'victory'"),
        (lambda d: d["victory"].pop("defender"), "seize-the-crossing.yaml.victory: missing field 'defender'"),
        (
            lambda d: d["victory"]["attacker"][0].update(counter="morale"),
            "seize-the-crossing.yaml.victory.attacker[0].counter: expected one of",
        ),
        (
            lambda d: d["victory"]["attacker"][0].pop("at_least"),
            "seize-the-crossing.yaml.victory.attacker[0]: give at_least or at_most",
        ),
        (lambda d: d["reserves"].update(dice="D7"), "seize-the-crossing.yaml.reserves.dice: the dice are D3"),
        (lambda d: d["reserves"].update(direction="up"), "seize-the-crossing.yaml.reserves.direction"),
        (
            lambda d: d.update(turns="six"),
            "seize-the-crossing.yaml.turns: expected a whole number from 1 to 50",
        ),
        (
            lambda d: d.update(turns="1:0"),
            "seize-the-crossing.yaml.turns: expected a whole number from 1 to 50",
        ),
        (lambda d: d.update(turns=10**40), "seize-the-crossing.yaml: refused (line"),  # 41 digits
        (lambda d: d.update(objectives=-5), "seize-the-crossing.yaml.objectives: expected a whole number"),
        (lambda d: d.update(objectives="abc"), "seize-the-crossing.yaml.objectives: expected a whole number"),
        (
            lambda d: d["reserves"].update(target=99),
            "seize-the-crossing.yaml.reserves.target: expected a whole",
        ),
        (lambda d: d["reserves"].update(from_turn=7), "seize-the-crossing.yaml.reserves.from_turn: expected"),
        (lambda d: d["reserves"].update(placeholder="yes"), "seize-the-crossing.yaml.reserves.placeholder"),
        (lambda d: d.update(id="other"), "seize-the-crossing.yaml.id: must match the file name"),
        (lambda d: d["victory"].update(umpire=[]), "seize-the-crossing.yaml.victory: unknown side 'umpire'"),
    ],
)
def test_malformed_mission_names_file_and_field(tmp_path: Path, change: object, message: str) -> None:
    data = yaml.safe_load(GOOD)
    change(data)  # type: ignore[operator]
    path = tmp_path / "seize-the-crossing.yaml"
    path.write_text(dump_yaml(data), encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_mission(path)
    assert message in str(info.value)


def test_mission_file_that_is_not_yaml(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("id: [unclosed", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"^broken.yaml: not valid YAML"):
        load_mission(path)


# -- drafts (version as data) -----------------------------------------------------------------


def test_current_draft_is_the_system_version() -> None:
    assert registry().system("warstrike").version == rulesets()[-1].version == "0.52"
    assert ruleset().morale_threshold == Fraction(1, 2)
    assert all(rule_since()[r.id] for r in registry().rules_for_system("warstrike"))


def test_a_later_draft_can_sit_beside(tmp_path: Path) -> None:
    data = yaml.safe_load((PKG / "versions.yaml").read_text(encoding="utf-8"))
    later = {
        **data["drafts"][0],
        "version": "0.53",
        "parameters": {**data["drafts"][0]["parameters"], "morale_threshold": "1/3"},
    }
    data["drafts"].append(later)
    path = tmp_path / "versions.yaml"
    path.write_text(dump_yaml(data), encoding="utf-8")
    drafts = _load(path)
    assert [d.version for d in drafts] == ["0.52", "0.53"]
    assert drafts[-1].morale_threshold == Fraction(1, 3)


def test_malformed_versions_file(tmp_path: Path) -> None:
    path = tmp_path / "versions.yaml"
    path.write_text(
        dump_yaml(
            {
                "drafts": [
                    {"version": "1", "source": "x", "parameters": {"morale_threshold": "2", "steps": []}}
                ]
            }
        ),
        encoding="utf-8",
    )
    with pytest.raises(DataFileError, match=r"versions.yaml.drafts\[0\].parameters.morale_threshold"):
        _load(path)


def test_guide_what_changed_is_generated_from_data() -> None:
    guide = (PKG / "guide.md").read_text(encoding="utf-8")
    assert changes_markdown() in guide, "regenerate with: python -m rulesbook.systems.warstrike.versions"


# -- bookkeeping ------------------------------------------------------------------------------


def test_every_rule_has_code_and_a_test() -> None:
    """Each rule has @implements code and a test marked covers (or a case) — what its page lists."""
    covered = covering_tests()
    for rule in registry().rules_for_system("warstrike"):
        assert registry().implementations_for_rule(rule.id), f"{rule.id} has no @implements"
        tests = covered.get(rule.id, ())
        assert any(t.startswith("tests/warstrike/") for t in tests), f"{rule.id} has no marked test"
        assert any("cases.yaml" in t for t in tests), f"{rule.id} has no hand-worked case"


def test_interpretations_that_change_numbers_are_switchable() -> None:
    exposed = {
        inp.interpretation
        for calc in registry().calculators_for_system("warstrike")
        for inp in calc.inputs
        if isinstance(inp, InterpretationInput)
    }
    every = {i.id for i in registry().interpretations_for_system("warstrike")}
    # army-morale-naming's alternative equals fanatical=false, which every calculator offers;
    # officers-and-units only decides which inputs are possible, it changes no probability;
    # extremes-dice reads the same two dice unless a variant's Ld test dice keep or drop
    assert every - exposed == {
        "warstrike.interpretations.army-morale-naming",
        "warstrike.interpretations.officers-and-units",
        "warstrike.interpretations.extremes-dice",
    }
    assert CHOICES.readings.ld_test == registry().interpretation("warstrike.interpretations.ld-test").default


@pytest.mark.skipif(not SEEDS.is_dir(), reason="source documents not present")
def test_no_sentence_copied_from_the_source() -> None:
    word = re.compile(r"[a-z0-9']+")

    def shingles(text: str) -> set[str]:
        w = word.findall(text.lower())
        return {" ".join(w[i : i + 9]) for i in range(len(w) - 8)}

    source = shingles((SEEDS / "002_debc3bc03be072a4.txt").read_text(encoding="utf-8"))
    for path in [*PKG.rglob("*.yaml"), *PKG.glob("*.md"), *PKG.glob("*.py")]:
        assert not shingles(path.read_text(encoding="utf-8")) & source, path.name


def test_every_declared_example_runs() -> None:
    for calc in registry().calculators_for_system("warstrike"):
        for example in calc.examples:
            assert "result" in calc.run_json(**dict(example))


@pytest.mark.covers("warstrike.morale.trigger", "warstrike.morale.officer-test")
def test_worked_examples_in_rule_texts_agree_with_the_code() -> None:
    """The few numbers written into rule texts are checked here, so the site cannot drift."""
    from rulesbook.systems.warstrike.rules import check_required, officer_ld_test

    trigger = registry().rule("warstrike.morale.trigger").text
    assert "10 units and has 4 left" in trigger and "with 5 left it need not" in trigger
    assert check_required(10, 4) and not check_required(10, 5)
    assert "With 7 starting units, half is 3½, so 3" in " ".join(trigger.split())
    assert check_required(7, 3) and not check_required(7, 4)
    officer = " ".join(registry().rule("warstrike.morale.officer-test").text.split())
    assert "With Ld 8 that is 26 of the 36 rolls, a 13 in 18 chance" in officer
    assert officer_ld_test(8).p_pass() == Fraction(26, 36) == Fraction(13, 18)
