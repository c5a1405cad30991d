"""The effects language declared once (issue 24, part 6) and a variant's ``add:`` (part 7).

The Monster Hunters stratagem of the issue, as the shipped variant file, equals a Wound roll
modifier of +1 against a MONSTER and changes nothing against a VEHICLE (the command line, run as
a user runs it); a Critical Hit on 5+ for one weapon of several is checked against a brute-force
enumeration of the dice faces; bad ``add:`` entries are one line naming the file and the field;
every effect kind is declared once and documented."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack.weapons import parse_abilities
from rulesbook.systems.wh40k.choices import CHOICES
from rulesbook.systems.wh40k.effects.effect import Effect
from rulesbook.systems.wh40k.effects.kinds import KINDS, describe_effect
from rulesbook.systems.wh40k.faction.additions import Wh40kAdditions, with_additions
from rulesbook.systems.wh40k.faction.pages import faction_implementations
from rulesbook.systems.wh40k.faction.reader import death_guard
from rulesbook.variants import load_variant

ROOT = Path(__file__).resolve().parents[2]
MONSTER_HUNTERS = "rulesbook/systems/wh40k/variants/monster-hunters.yaml"
REG = registry()


def cli(*args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "rulesbook.cli", "calc", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)["result"]
    return {k: v for k, v in result.items() if k.endswith("_exact")}


LANTERN = ("wh40k.datasheet-attack", "weapons=the-lantern", "toughness=10", "save=3", "wounds=12", "models=1")


@pytest.mark.covers("wh40k.core.declared-effects", "wh40k.datasheet-attack")
def test_monster_hunters_is_a_wound_modifier_against_monsters_only() -> None:
    """The command of the issue, both ways: against a MONSTER it equals wound_modifier=1, against
    a VEHICLE it equals no stratagem at all (and the two differ, so the check can fail)."""
    stratagem = ("stratagems=monster-hunters", f"variant={MONSTER_HUNTERS}")
    monster = cli(*LANTERN, "target_keywords=monster", *stratagem)
    assert monster == cli(*LANTERN, "target_keywords=monster", "wound_modifier=1")
    vehicle = cli(*LANTERN, "target_keywords=vehicle", *stratagem)
    assert vehicle == cli(*LANTERN, "target_keywords=vehicle")
    assert monster != vehicle


def _run(**inputs: str) -> dict[str, object]:
    calc = REG.calculator("wh40k.datasheet-attack")
    return dict(calc.run(**inputs).values)


@pytest.mark.covers("wh40k.core.declared-effects", "wh40k.interpretations.unstated-target-keywords")
def test_added_entries_are_offered_and_their_conditions_hold() -> None:
    variant = load_variant(MONSTER_HUNTERS)
    choices = variant.apply(CHOICES)
    calc = REG.calculator("wh40k.datasheet-attack")
    base = {"weapons": "the-lantern", "toughness": "10", "save": "3", "wounds": "12", "models": "1"}
    # without the variant the key is refused, the message listing the printed stratagems
    with pytest.raises(InputError, match=r"stratagems: Death Guard has no stratagem 'monster-hunters'"):
        calc.run(**base, stratagems="monster-hunters")
    # with it, a near miss is pointed at the added one (suggested from the printed and added names)
    with pytest.raises(InputError, match=r"did you mean monster-hunters\?"):
        calc.run_validated(calc.validate({**base, "stratagems": "monster-hunter"}, choices), choices)
    # no target keywords given: the effect is left out, as the register's default says
    plain = calc.run_validated(calc.validate(base), choices)
    hunted = calc.run_validated(calc.validate({**base, "stratagems": "monster-hunters"}, choices), choices)
    assert hunted.values["mean_wounds_lost_exact"] == plain.values["mean_wounds_lost_exact"]
    assert any("keywords are not given" in w for w in hunted.warnings)
    applies = choices.replace(readings={"unstated_target_keywords": "applies"})
    given = calc.run_validated(calc.validate({**base, "stratagems": "monster-hunters"}, applies), applies)
    modified = calc.run_validated(calc.validate({**base, "wound_modifier": "1"}))
    assert given.values["mean_wounds_lost_exact"] == modified.values["mean_wounds_lost_exact"]
    # rulesbook variants lists the entry in words
    assert any("Monster Hunters (1 CP" in line for line in variant.summary())


def test_battle_round_and_distance_conditions(tmp_path: Path) -> None:
    """An added stratagem for battle round 2 within 12": applied only then."""
    path = tmp_path / "late.yaml"
    path.write_text(
        "system: wh40k\ntitle: Late\nadd:\n  stratagems:\n    late:\n      name: Late\n      cp: 1\n"
        "      phases: [shooting, fight]\n      effects:\n"
        "        - {kind: wound-modifier, value: 1, battle_rounds: [2], within: 12}\n"
    )
    choices = load_variant(path).apply(CHOICES)
    calc = REG.calculator("wh40k.datasheet-attack")
    base = {"weapons": "the-lantern", "toughness": "6", "save": "3", "wounds": "3", "models": "3"}

    def mean(**extra: str) -> str:
        v = calc.validate({**base, **extra}, choices)
        return str(calc.run_validated(v, choices).values["mean_wounds_lost_exact"])

    plain = mean()
    assert plain != mean(wound_modifier="1")
    assert mean(stratagems="late", battle_round="2", distance="12") == mean(
        wound_modifier="1", battle_round="2", distance="12"
    )
    assert mean(stratagems="late", battle_round="1", distance="12") == plain
    assert mean(stratagems="late", battle_round="2", distance="13") == mean(battle_round="2", distance="13")
    assert mean(stratagems="late", battle_round="2") == plain  # no distance given


def _unsaved(hit: int, crit_hit: int, lethal: bool, wound_needs: int, save_needs: int) -> Fraction:
    """P(one attack gets through), by enumerating the hit, wound and save dice faces."""
    through = 0
    for h, w, s in product(range(1, 7), repeat=3):
        if h == 1:
            continue
        critical = h >= crit_hit
        if not (critical or h >= hit):
            continue
        wounded = (critical and lethal) or (w != 1 and w >= wound_needs)
        if wounded and (s == 1 or s < save_needs):
            through += 1
    return Fraction(through, 216)


@pytest.mark.covers("wh40k.attack.hit-roll", "wh40k.interpretations.crit-threshold-words")
def test_a_critical_hit_on_5_for_one_weapon_of_several_matches_brute_force() -> None:
    """Bolters (Lethal Hits, crits on 6) and a plasma gun (Lethal Hits, crit-hit-5) at ten
    one-wound T4 Sv3+ models: each attack independent, so the models destroyed are the sum of
    five Bernoulli outcomes, each from 216 equally likely dice faces."""
    weapons = (
        "bolters: A=3 BS=3 S=4 AP=0 D=1 lethal-hits; plasma: A=2 BS=4 S=8 AP=-3 D=1 lethal-hits,crit-hit-5"
    )
    calc = REG.calculator("wh40k.sequence")
    got = calc.run(weapons=weapons, toughness="4", save="3", wounds="1", models="10").values
    bolter = _unsaved(3, 6, True, 4, 3)
    plasma = _unsaved(4, 5, True, 2, 6)
    dist = [Fraction(0)] * 11
    for outcome in product((0, 1), repeat=5):
        p = Fraction(1)
        for i, x in enumerate(outcome):
            q = bolter if i < 3 else plasma
            p *= q if x else 1 - q
        dist[sum(outcome)] += p
    assert [Fraction(x) for x in got["models_destroyed_exact"]] == dist  # type: ignore[union-attr]
    # the word is the plasma gun's alone: on the bolters it would change the answer
    both = "bolters: A=3 BS=3 S=4 AP=0 D=1 lethal-hits,crit-hit-5; plasma: A=2 BS=4 S=8 AP=-3 D=1 lethal-hits,crit-hit-5"
    other = calc.run(weapons=both, toughness="4", save="3", wounds="1", models="10").values
    assert other["models_destroyed_exact"] != got["models_destroyed_exact"]


def test_crit_words_combine_as_the_register_says() -> None:
    assert parse_abilities("crit-hit-5").gain(parse_abilities("crit-hit-4")).critical_hit == 4
    assert parse_abilities("crit-hit-4").gain(parse_abilities("crit-hit-5")).critical_hit == 4
    with pytest.raises(InputError, match="give one crit-hit-N word"):
        parse_abilities("crit-hit-5,crit-hit-4")
    calc = REG.calculator("wh40k.attack")
    inputs = {"attacks": "1", "skill": "3", "strength": "4", "damage": "1", "toughness": "4"}
    inputs |= {"save": "7", "wounds": "1", "abilities": "crit-hit-5", "critical_hit": "5"}
    lowest = calc.run(**inputs).values["mean_wounds_lost_exact"]
    cumulative = CHOICES.replace(readings={"crit_threshold_words": "cumulative"})
    summed = calc.run_validated(calc.validate(inputs), cumulative).values["mean_wounds_lost_exact"]
    assert lowest == summed  # no Critical Hit ability: a crit only hits, and 3+ hits anyway
    inputs["abilities"] = "crit-hit-5,lethal-hits"
    lowest = calc.run(**inputs).values["mean_wounds_lost_exact"]
    summed = calc.run_validated(calc.validate(inputs), cumulative).values["mean_wounds_lost_exact"]
    # Lethal Hits on 5+ (2/6 wound automatically) or, added up, 4+ (3/6); the other hits of 3+
    # wound on 4+
    assert Fraction(lowest) == Fraction(2, 6) + Fraction(2, 6) * Fraction(1, 2)
    assert Fraction(summed) == Fraction(3, 6) + Fraction(1, 6) * Fraction(1, 2)


BAD = [
    (
        "phases: [shooting]\n      effects: []",
        r"add\.stratagems\.x\.effects: expected a list of one or more effects",
    ),
    (
        "phases: [shooting]",
        r"add\.stratagems\.x: missing field 'effects' \(an added stratagem needs name, cp, phases, effects\)",
    ),
    (
        "phases: [shooting]\n      effects:\n        - {kind: wound-modifier, value: 5}",
        r"add\.stratagems\.x\.effects\[0\]\.value: expected an integer from -3 to 3, got 5",
    ),
    (
        "phases: [shooting]\n      effects:\n        - {kind: wound-modifer, value: 1}",
        r"add\.stratagems\.x\.effects\[0\]\.kind: expected one of hit-modifier",
    ),
    (
        "phases: [shooting]\n      effects:\n        - {kind: ap, value: 1, target_keyword: [MONSTER]}",
        r"add\.stratagems\.x\.effects\[0\]\.target_keyword: unknown field; did you mean target_keywords\?",
    ),
    (
        "phases: [shootin]\n      effects:\n        - {kind: ap, value: 1}",
        r"add\.stratagems\.x\.phases\[0\]: expected one of .*shooting",
    ),
    (
        "phase: [shooting]\n      effects:\n        - {kind: ap, value: 1}",
        r"add\.stratagems\.x\.phase: unknown field; did you mean phases\?",
    ),
]


@pytest.mark.parametrize(("body", "message"), BAD, ids=range(len(BAD)))
def test_bad_added_entries_are_one_line_naming_file_and_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path("house.yaml")
    path.write_text(
        f"system: wh40k\ntitle: House\nadd:\n  stratagems:\n    x:\n      name: X\n      cp: 1\n      {body}\n"
    )
    with pytest.raises(InputError) as err:
        load_variant(path)
    text = str(err.value)
    assert "\n" not in text and re.match(r"house\.yaml, line \d+: add\.stratagems\.x", text), text
    assert re.search(message, text), text


def test_a_bad_added_entry_on_the_command_line_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("system: wh40k\ntitle: House\nadd:\n  stratagem:\n    x: {name: X}\n")
    done = subprocess.run(
        [sys.executable, "-m", "rulesbook.cli", "calc", *LANTERN, f"variant={path}"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert (
        done.stderr.count("\n") == 1
        and "add.stratagem: unknown section; did you mean stratagems?" in done.stderr
    )


def test_added_entries_round_trip_and_replace_printed_ones() -> None:
    raw = {
        "stratagems": {
            "ferric-blight": {
                "name": "Ferric Blight (house)",
                "cp": 2,
                "phases": ["fight"],
                "effects": [{"kind": "ap", "value": 2}],
            }
        },
        "abilities": {
            "hunter": {
                "name": "Hunter",
                "effects": [{"kind": "reroll-hits", "value": "ones"}],
                "datasheets": ["mortarion"],
            }
        },
        "detachments": {"hunt": {"name": "Hunt", "effects": [{"kind": "ap", "value": 1, "attack": "melee"}]}},
        "enhancements": {
            "fang": {"name": "Fang", "effects": [{"kind": "weapon-ability", "value": "crit-hit-5"}]}
        },
    }
    added = Wh40kAdditions.from_mapping(raw, "house.yaml")
    assert Wh40kAdditions.from_mapping(added.to_mapping(), "house.yaml") == added
    dg = with_additions(death_guard(), added)
    assert dg.stratagems["ferric-blight"].cp == 2 and "hunter" in dg.datasheets["mortarion"].abilities
    assert set(dg.detachments) >= {"hunt", "spread-the-sickness"} and "fang" in dg.enhancements
    assert death_guard().stratagems["ferric-blight"].cp == 1  # the printed faction is untouched


def test_each_kind_is_declared_once_and_documented() -> None:
    page = (ROOT / "docs" / "designer" / "effects.md").read_text(encoding="utf-8")
    for name, kind in KINDS.items():
        assert f"`{name}`" in page, name
        assert kind.value.schema in page, name
        assert describe_effect(Effect(kind=name, value=1, characteristic="save"))
    for field in ("target_keywords", "battle_rounds", "within", "phases", "attack", "crit-hit-N"):
        assert f"`{field}`" in page, field


def test_faction_rules_count_as_implemented_through_their_effects() -> None:
    dg = death_guard()
    impls = {(i.rule_id, i.qualname) for i in faction_implementations(dg)}
    for st in dg.stratagems.values():
        if st.effects:
            assert (st.id, "apply_effects") in impls
            for e in st.effects:
                assert (st.id, KINDS[e.kind].apply.__qualname__) in impls
    for rule_id, _ in impls:
        assert REG.implementations_for_rule(rule_id)
