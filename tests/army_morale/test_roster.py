"""An Epic-scale roster fills the tracker's set-up: one detachment row per formation, which the
set-up form's own checks accept; another game system is refused in one line; the served form
takes the roster's bytes (a zipped .rosz too) and keeps everything the player typed on a refusal."""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

import pytest

from rulesbook.data import DataFileError
from rulesbook.rosters import read_roster
from rulesbook.systems.army_morale.log import GameLog
from rulesbook.systems.army_morale.roster import roster_army
from rulesbook.systems.army_morale.setup import army_from_form

DATA = Path(__file__).parents[1] / "rosters" / "data"

EXPECTED = [  # the list of tests/rosters/make_rosters.py (epic_company), worked out by hand
    ("Infantry Company", "225", "units", "17", ""),
    ("Tank Squadron", "250", "units", "10", ""),
    (
        "Super-heavy Tank Company",
        "600",
        "damage-capacity",
        "",
        "Baneblade 3 200 pts, " * 2 + "Baneblade 3 200 pts",
    ),
    ("Scout Titan", "275", "damage-capacity", "", "Warhound Titan 3 275 pts"),
    ("Recon Platoon", "350", "units", "7", "Stormblade 3 200 pts"),
]


@pytest.mark.parametrize("suffix", ["ros", "rosz", "json"])
def test_each_formation_is_a_detachment_row(suffix: str) -> None:
    army = roster_army(read_roster(DATA / f"steel-company.{suffix}"))
    keys = ("name", "points", "strength", "units", "war_engines")
    assert army.name == "Steel company"
    assert [tuple(row[k] for k in keys) for row in army.rows] == EXPECTED
    assert army.notes == ("Super-heavy Tank Company: its 600 pts shared equally by its 3 War Engines",)


def test_the_rows_pass_the_set_up_forms_checks() -> None:
    army = army_from_form("a", "Steel company", roster_army(read_roster(DATA / "steel-company.ros")).rows)
    assert [(d.name, d.points, d.strength, d.initial_strength) for d in army.detachments] == [
        ("Infantry Company", 225, "units", 17),
        ("Tank Squadron", 250, "units", 10),
        ("Super-heavy Tank Company", 600, "damage-capacity", 9),  # Damage Capacity 3 × 3
        ("Scout Titan", 275, "damage-capacity", 3),
        ("Recon Platoon", 350, "units", 7),  # a War Engine among units counts one
    ]
    assert [w.points for w in army.detachments[2].war_engines] == [200, 200, 200]


def test_another_game_system_is_refused_in_one_line() -> None:
    with pytest.raises(DataFileError) as caught:
        roster_army(read_roster(DATA / "rust-legion.rosz"))
    assert str(caught.value) == (
        "rust-legion.rosz: a roster of 'Warhammer 40,000 10th Edition'; the Army Morale tracker reads "
        "rosters of Epic-scale games (Epic Armageddon, Legions Imperialis …)"
    )


def test_a_war_engine_without_points_is_left_for_the_player_and_said() -> None:
    text = (DATA / "steel-company.ros").read_text(encoding="utf-8").replace('value="600"', 'value="500"')
    from rulesbook.rosters import roster_from_bytes

    army = roster_army(roster_from_bytes(text.encode(), "steel.ros"))
    assert army.rows[2]["war_engines"] == "Baneblade 3, Baneblade 3, Baneblade 3"
    assert (
        "Super-heavy Tank Company: the list gives no points for Baneblade; type its points or Morale value"
        in army.notes
    )


def _form(started: list[GameLog]) -> Any:
    from widgets.army_morale.setup_form import SetupForm

    return SetupForm(started.append)


def _upload(form: Any, side: str, name: str, data: bytes) -> None:
    """What the page does: the roster control gets the file (a .rosz as base64)."""
    (control,) = [c for c in form.view.select() if f"am-roster-{side}" in getattr(c, "css_classes", [])]
    control.filename = name
    if name.endswith(".rosz"):
        control.data64 = base64.b64encode(data).decode()
    else:
        control.text = data.decode()
    control.sent += 1


def test_the_served_form_fills_a_side_from_a_roster_and_starts() -> None:
    started: list[GameLog] = []
    form = _form(started)
    _upload(form, "a", "steel-company.rosz", (DATA / "steel-company.rosz").read_bytes())
    _upload(form, "b", "steel-company.json", (DATA / "steel-company.json").read_bytes())
    assert form.names["a"].value == "Steel company"
    assert [form.rows["a"][i]["units"].value for i in range(5)] == ["17", "10", "", "", "7"]
    assert "5 detachments filled in from the roster Steel company" in form.error.object
    form.start()
    (log,) = started
    assert [d.initial_strength for d in log.army("a").detachments] == [17, 10, 9, 3, 7]


def test_a_refused_roster_keeps_what_was_typed() -> None:
    form = _form([])
    form.names["a"].value = "Typed by hand"
    _upload(form, "a", "rust-legion.rosz", (DATA / "rust-legion.rosz").read_bytes())
    assert form.names["a"].value == "Typed by hand"
    assert "side a, roster: rust-legion.rosz: a roster of 'Warhammer 40,000 10th Edition'" in html.unescape(
        form.error.object
    )
    _upload(
        form,
        "a",
        "bomb.rosz",
        (Path(__file__).parents[1] / "hostile" / "rosters" / "bad-zip-bomb.rosz").read_bytes(),
    )
    assert "unpacks to 60,000,318 bytes" in form.error.object and form.names["a"].value == "Typed by hand"
