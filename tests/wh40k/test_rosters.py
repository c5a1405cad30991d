"""Army lists as factions (issue 36): the units of a roster — BattleScribe ``.ros``/``.rosz`` built
by the public schema, and New Recruit's JSON of the same lists — give, unit for unit, the exact
answers of the same units typed by hand (``tests/rosters/data/*.typed.yaml``, written from the
lists' meaning, never through a roster reader); a mixed unit and a unit with an attached Leader
come through; what is not understood is listed; bad rosters are refused in one line."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rulesbook.data import DataFileError
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.rosters import read_roster, roster_from_bytes
from rulesbook.systems.wh40k.faction.file import REGISTER
from rulesbook.systems.wh40k.faction.reader import load_faction
from rulesbook.systems.wh40k.faction.types import Datasheet, Faction
from rulesbook.systems.wh40k.lists.army import roster_faction

DATA = Path(__file__).parents[1] / "rosters" / "data"
LISTS = ("rust-legion", "bog-horde")
PROFILE = {"toughness": "4", "save": "3", "wounds": "2", "models": "5"}


@cache
def typed(name: str) -> Faction:
    return load_faction(DATA / f"{name}.typed.yaml", REGISTER)


@cache
def listed(name: str, suffix: str = "json") -> Faction:
    return roster_faction(read_roster(DATA / f"{name}.{suffix}"))


def shape(d: Datasheet) -> dict[str, Any]:
    """What decides a datasheet's answers, in a form that ignores the order of things whose order
    means nothing (weapons by key, one-at-a-time groups, abilities)."""
    return {
        "characteristics": d.characteristics,
        "invulnerable": d.invulnerable,
        "weapons": dict(d.weapons),
        "ranges": dict(d.weapon_ranges),
        "exclusive": sorted(sorted(g) for g in d.exclusive),
        "core": sorted(d.core_abilities),
        "fnp": d.feel_no_pain,
        "keywords": sorted(k.upper() for k in d.keywords),
        "faction_keywords": sorted(d.faction_keywords),
        "points": d.points,
        "models": [
            (p.name, p.count, p.most, p.characteristics, p.invulnerable, sorted(p.weapons))
            for p in d.profiles
        ],
        "leads": sorted(d.leads),
    }


@pytest.mark.parametrize("name", LISTS)
def test_every_unit_is_its_typed_datasheet(name: str) -> None:
    found, oracle = listed(name), typed(name)
    assert list(found.datasheets) == list(oracle.datasheets)
    for key, sheet in oracle.datasheets.items():
        assert shape(found.datasheets[key]) == shape(sheet), key


@pytest.mark.parametrize("name", LISTS)
@pytest.mark.parametrize("suffix", ["ros", "rosz"])
def test_battlescribe_and_new_recruit_give_the_same_faction(name: str, suffix: str) -> None:
    assert {k: shape(d) for k, d in listed(name, suffix).datasheets.items()} == {
        k: shape(d) for k, d in listed(name).datasheets.items()
    }
    assert listed(name, suffix).warnings == listed(name).warnings


def _run(**values: str) -> dict[str, Any]:
    result = registry().calculator("wh40k.datasheet-attack").run(**values)
    return {
        k: result.values[k]
        for k in ("mean_models_destroyed_exact", "p_unit_destroyed_exact", "models_destroyed")
    }


def _choices(sheet: Datasheet) -> list[str]:
    """Each weapon alone, fired by every model carrying it (one profile of a one-at-a-time group)."""
    return [f"{key}*{sum(p.count * p.weapons.count(key) for p in sheet.profiles)}" for key in sheet.weapons]


@pytest.mark.parametrize("name", LISTS)
def test_each_unit_attacks_as_its_typed_profile(name: str) -> None:
    roster_file = str(DATA / f"{name}.json")
    typed_file = str(DATA / f"{name}.typed.yaml")
    for key, sheet in typed(name).datasheets.items():
        for weapons in _choices(sheet):
            got = _run(faction=roster_file, attacker=key, weapons=weapons, **PROFILE)
            want = _run(faction=typed_file, attacker=key, weapons=weapons, **PROFILE)
            assert got == want, (key, weapons)


@pytest.mark.parametrize("name", LISTS)
def test_each_unit_is_attacked_as_its_typed_profile(name: str) -> None:
    roster_file = str(DATA / f"{name}.ros")
    typed_file = str(DATA / f"{name}.typed.yaml")
    for key in typed(name).datasheets:
        got = _run(weapons="rotwind", target=key, target_faction=roster_file, distance="30")
        want = _run(weapons="rotwind", target=key, target_faction=typed_file, distance="30")
        assert got == want, key


@pytest.mark.parametrize(
    ("name", "unit", "leader", "weapons"),
    [
        ("rust-legion", "rustguard-squad-2", "rust-lord", "rotwind"),
        ("bog-horde", "bog-wardens", "bog-shaman", "rotwind"),
    ],
)
def test_a_mixed_unit_with_its_leader_attached_answers_as_typed(
    name: str, unit: str, leader: str, weapons: str
) -> None:
    common = {"weapons": weapons, "target": unit, "target_leader": leader, "distance": "30"}
    got = _run(target_faction=str(DATA / f"{name}.rosz"), **common)
    assert got == _run(target_faction=str(DATA / f"{name}.typed.yaml"), **common)
    alone = _run(target_faction=str(DATA / f"{name}.rosz"), **{**common, "target_leader": "none"})
    assert got != alone  # the Leader's wounds and saves are in the answer
    assert len(got["models_destroyed"]) == typed(name).datasheets[unit].models + 2  # 0..n+1 models


def test_a_mixed_units_weapons_go_to_the_models_that_carry_them() -> None:
    squad = listed("rust-legion").datasheets["rustguard-squad"]
    assert [(p.name, p.count) for p in squad.profiles] == [("Rustguard Sergeant", 1), ("Rustguard", 4)]
    calc = registry().calculator("wh40k.datasheet-attack")
    both = calc.run(
        faction=str(DATA / "rust-legion.json"),
        attacker="rustguard-squad",
        weapons="rust-rifle,plasma-burner-standard",
        **PROFILE,
    )
    rows = [r[0] for r in both.table("breakdown").rows]
    assert rows[:2] == ["Rust rifle (1 of 4)", "Rust rifle (2 of 4)"] and "Plasma burner - standard" in rows
    with pytest.raises(
        InputError,
        match=r"^weapons: one profile at a time: plasma-burner-standard or plasma-burner-supercharge$",
    ):
        calc.run(
            faction=str(DATA / "rust-legion.json"),
            attacker="rustguard-squad",
            weapons="plasma-burner-standard,plasma-burner-supercharge",
            **PROFILE,
        )


def test_what_is_not_understood_is_listed() -> None:
    (line,) = listed("rust-legion").warnings
    assert "'corroding' (Rust Champion: Rust glaive)" in line
    assert listed("rust-legion").datasheets["rust-champion"].weapons["rust-glaive"].abilities.words() == (
        "twin-linked",
    )


def test_an_upgrade_taken_by_some_models_makes_a_kind_of_its_own() -> None:
    text = (DATA / "rust-legion.ros").read_text(encoding="utf-8")
    # the nine Rustguard of the second squad: two of their rifles become grenade launchers
    marker = 'name="Rust rifle" entryId='
    first = text.index(marker, text.index('name="Rustguard Squad"', text.index('name="Rustguard Squad"') + 1))
    number = text.index('number="9"', first)
    changed = text[:number] + 'number="7"' + text[number + len('number="9"') :]
    faction = roster_faction(roster_from_bytes(changed.encode(), "changed.ros"))
    kinds = [(p.name, p.count, sorted(p.weapons)) for p in faction.datasheets["rustguard-squad-2"].profiles]
    assert kinds == [
        (
            "Rustguard Sergeant",
            1,
            ["bolt-pistol", "plasma-burner-standard", "plasma-burner-supercharge", "power-claw"],
        ),
        ("Rustguard", 7, ["close-combat-weapon", "rust-rifle"]),
        ("Rustguard", 2, ["close-combat-weapon"]),
    ]


def test_bad_rosters_are_refused_in_one_line_naming_the_unit() -> None:
    with pytest.raises(DataFileError) as caught:
        roster_faction(read_roster(DATA / "steel-company.rosz"))
    assert str(caught.value) == (
        "steel-company.rosz: a roster of 'Epic Armageddon'; the 40k calculators read rosters of Warhammer 40,000 10th edition"
    )
    text = (DATA / "rust-legion.ros").read_text(encoding="utf-8")
    no_stats = text.replace('typeName="Unit"', 'typeName="Unitless"')
    with pytest.raises(DataFileError) as caught:
        roster_faction(roster_from_bytes(no_stats.encode(), "army.ros"))
    assert str(caught.value).startswith(
        "army.ros: unit 'Rust Lord': no Unit profile (M, T, SV, W, LD, OC) for 'Rust Lord'"
    )
    bad_skill = text.replace(">2+</characteristic>", ">7+</characteristic>", 1)
    with pytest.raises(DataFileError) as caught:
        roster_faction(roster_from_bytes(bad_skill.encode(), "army.ros"))
    assert (
        str(caught.value)
        == "army.ros.datasheets.rust-lord.weapons.corrosion-pistol.BS: expected 2+ to 6+, got '7+'"
    )


def test_a_roster_works_wherever_a_faction_file_does_and_errors_name_the_input() -> None:
    calc = registry().calculator("wh40k.datasheet-attack")
    with pytest.raises(InputError) as caught:
        calc.run(faction=str(DATA / "steel-company.json"), attacker="scout-titan", weapons="x", **PROFILE)
    assert str(caught.value).startswith("faction: steel-company.json: a roster of 'Epic Armageddon'")
    with pytest.raises(InputError, match=r"^attacker: Rust Legion strike force has no datasheet 'rustguard'"):
        calc.run(
            faction=str(DATA / "rust-legion.rosz"), attacker="rustguard", weapons="rust-rifle", **PROFILE
        )


def test_a_model_carrying_two_of_a_weapon_fires_both() -> None:
    common = {"attacker": "swamp-skimmers", **PROFILE}
    by_loadout = _run(faction=str(DATA / "bog-horde.rosz"), weapons="harpoon-gun", **common)
    assert by_loadout == _run(faction=str(DATA / "bog-horde.typed.yaml"), weapons="harpoon-gun", **common)
    assert by_loadout == _run(faction=str(DATA / "bog-horde.rosz"), weapons="harpoon-gun*6", **common)
    assert by_loadout != _run(faction=str(DATA / "bog-horde.rosz"), weapons="harpoon-gun*3", **common)


def _unit_xml(rules: str, abilities: str) -> bytes:
    ns = "http://www.battlescribe.net/schema/rosterSchema"

    def prof(name: str, kind: str, pairs: dict[str, str]) -> str:
        chars = "".join(
            f'<characteristic name="{k}" typeId="t">{v}</characteristic>' for k, v in pairs.items()
        )
        return f'<profile id="p" name="{name}" typeId="t" typeName="{kind}"><characteristics>{chars}</characteristics></profile>'

    stats = prof("Test Trooper", "Unit", {"M": '6"', "T": "4", "SV": "3+", "W": "2", "LD": "6+", "OC": "2"})
    gun = prof(
        "Test gun",
        "Ranged Weapons",
        {
            "Range": '24"',
            "A": "2",
            "BS": "3+",
            "S": "4",
            "AP": "-1",
            "D": "1",
            "Keywords": "Anti-Infantry 4+",
        },
    )
    return (
        f'<roster xmlns="{ns}" id="r" name="Test" gameSystemId="sys-352e-adc2-7639-d6a9"><forces><force id="f" '
        'name="F" entryId="e" catalogueId="c"><selections><selection id="s" name="Test Squad" entryId="e" '
        f'number="1" type="unit"><rules>{rules}</rules><profiles>{abilities}</profiles><selections>'
        f'<selection id="m" name="Test Trooper" entryId="e" number="5" type="model"><profiles>{stats}</profiles>'
        f'<selections><selection id="w" name="Test gun" entryId="e" number="5" type="upgrade"><profiles>{gun}'
        "</profiles></selection></selections></selection></selections></selection></selections></force></forces></roster>"
    ).encode()


def test_rules_and_abilities_are_read_or_listed_never_dropped() -> None:
    rules = "".join(
        f'<rule id="r{i}" name="{n}"><description>{d}</description></rule>'
        for i, (n, d) in enumerate(
            [
                ("Anti-", "The weapon keyword, explained."),
                ("Deep Strike", "Arrive from reserves."),
                ("Feel No Pain", "A long text about ignoring wounds on a roll."),
            ]
        )
    )
    abilities = "".join(
        f'<profile id="a{i}" name="{n}" typeId="t" typeName="Abilities"><characteristics>'
        f'<characteristic name="Description" typeId="t">{d}</characteristic></characteristics></profile>'
        for i, (n, d) in enumerate(
            [
                ("Grim Aim", "Each time a model in this unit makes a ranged attack, add 1 to the Hit roll."),
                ("Odd Habit", "Once per battle, this unit does something unusual."),
            ]
        )
    )
    faction = roster_faction(roster_from_bytes(_unit_xml(rules, abilities), "test.ros"))
    sheet = faction.datasheets["test-squad"]
    assert sheet.core_abilities == ("deep-strike",)
    assert [(e.kind, e.value, e.attack) for e in faction.abilities["grim-aim"].effects] == [
        ("hit-modifier", 1, "ranged")
    ]
    assert faction.abilities["odd-habit"].effects[0].kind == "none"
    assert sheet.weapons["test-gun"].abilities.anti == (("infantry", 4),)
    warnings = " | ".join(faction.warnings)
    assert (
        "Test Squad: Odd Habit" in warnings
        and "Test Squad: Feel No Pain gives no value; left out" in warnings
    )
    assert "Anti" not in warnings  # a weapon keyword's rule: its weapons carry it
