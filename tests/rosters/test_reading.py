"""Reading rosters: the three formats give the same values, the values say what the files say
(checked against the lists' meaning in make_rosters.py, not against the reader), and the builder
refuses malformed trees in one line."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest

from rulesbook.data import DataFileError
from rulesbook.rosters import (
    LIMITS,
    generic_view,
    looks_like_roster,
    model_count,
    read_roster,
    roster_from_bytes,
)
from tests.rosters.make_rosters import BOG_HORDE, RUST_LEGION

DATA = Path(__file__).parent / "data"
LISTS = ("rust-legion", "bog-horde", "steel-company", "ork-patrol")


def same(roster: object) -> object:
    return dataclasses.replace(roster, file="", format="")  # type: ignore[type-var]


@pytest.mark.parametrize("name", LISTS)
def test_the_three_formats_of_a_list_give_the_same_roster(name: str) -> None:
    ros, rosz, json_ = (read_roster(DATA / f"{name}.{s}") for s in ("ros", "rosz", "json"))
    assert (ros.format, rosz.format, json_.format) == (
        "BattleScribe .ros",
        "BattleScribe .rosz",
        "New Recruit JSON",
    )
    assert same(ros) == same(rosz) == same(json_)


@pytest.mark.parametrize("army", [RUST_LEGION, BOG_HORDE], ids=["rust-legion", "bog-horde"])
def test_the_units_models_and_points_are_those_of_the_list(army: dict) -> None:
    roster = read_roster(DATA / f"{army['file']}.json")
    assert roster.game_system_name == "Warhammer 40,000 10th Edition"
    units = roster.units()
    assert [u.name for u in units] == [u["name"] for u in army["units"]]
    assert [model_count(u) for u in units] == [sum(m["number"] for m in u["models"]) for u in army["units"]]
    assert [u.cost("pts") for u in units] == [u["points"] for u in army["units"]]
    assert roster.points() == sum(u["points"] for u in army["units"])
    assert roster.catalogues == (army["catalogue"],)


def test_a_profile_keeps_its_characteristics_as_the_file_gives_them() -> None:
    roster = read_roster(DATA / "rust-legion.ros")
    squad = roster.units()[1]
    sergeant = squad.selections[0]
    assert (sergeant.name, sergeant.kind, sergeant.number) == ("Rustguard Sergeant", "model", 1)
    stat = sergeant.profiles[0]
    assert stat.type_name == "Unit"
    assert [stat.get(k) for k in ("M", "t", "SV", "W", "LD", "OC")] == ['6"', "4", "3+", "3", "6+", "2"]
    plasma = sergeant.selections[0]
    assert plasma.kind == "upgrade"
    assert [p.name for p in plasma.profiles] == [
        "➤ Plasma burner - standard",
        "➤ Plasma burner - supercharge",
    ]
    assert plasma.profiles[1].get("Keywords") == "Hazardous"


def test_an_upgrade_at_the_top_of_a_force_is_not_a_unit_and_points_add_up() -> None:
    roster = read_roster(DATA / "ork-patrol.rosz")
    assert [u.name for u in roster.units()] == ["Boyz Mob", "Warboss"]
    view = generic_view(roster)
    assert [(u.key, u.models, u.points) for u in view.units] == [("boyz-mob", 10, 85), ("warboss", 1, 65)]
    assert view.points == 150 and view.system == ""


def test_rosters_are_recognised_by_their_suffix_or_their_first_key(tmp_path: Path) -> None:
    faction = tmp_path / "faction.json"
    faction.write_text('{"faction": {"key": "x"}}', encoding="utf-8")
    assert looks_like_roster(DATA / "rust-legion.json") and looks_like_roster(DATA / "rust-legion.rosz")
    assert not looks_like_roster(faction) and not looks_like_roster(tmp_path / "missing.yaml")


def test_bytes_are_read_without_a_file() -> None:
    data = (DATA / "bog-horde.rosz").read_bytes()
    assert same(roster_from_bytes(data, "upload.rosz")) == same(read_roster(DATA / "bog-horde.ros"))
    with pytest.raises(DataFileError, match=r"^upload\.rosz: refused \(\d"):
        roster_from_bytes(data, "upload.rosz", limits=dataclasses.replace(LIMITS, max_file_bytes=100))


def test_a_cost_is_kept_exact() -> None:
    text = (DATA / "ork-patrol.ros").read_text(encoding="utf-8").replace('value="85"', 'value="85.5"')
    roster = roster_from_bytes(text.encode(), "half.ros")
    assert roster.units()[0].cost() == Fraction(171, 2)
    assert generic_view(roster).units[0].points is None


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('number="9"', 'number="nine"', "half.ros: unit 'Boyz Mob' > 'Boy': number: expected a whole number"),
        (
            'type="model"><profiles>',
            'type="hero"><profiles>',
            "half.ros: selection 'Warboss': type: expected unit",
        ),
        ('value="65.0"', 'value="sixty"', "half.ros: model 'Warboss', cost 'pts': value: expected a decimal"),
        ('name="Army Roster" ', "", "half.ros: a force: missing name"),
    ],
)
def test_a_malformed_selection_is_named_in_one_line(old: str, new: str, message: str) -> None:
    text = (DATA / "ork-patrol.ros").read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(DataFileError) as caught:
        roster_from_bytes(text.replace(old, new, 1).encode(), "half.ros")
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)
