"""``rulesbook roster show`` and ``rb.roster``: the same view, as text, JSON and HTML; a file that
cannot be read is one line and exit code 2; nothing raw from a file reaches the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesbook as rb
from rulesbook.cli import cli
from tests.test_hostile_files import RAW_CONTROL
from tests.test_hostile_terminal import NAMES, RAW

DATA = Path(__file__).parent / "data"
HOSTILE = Path(__file__).parents[1] / "hostile" / "rosters"


def show(*args: str) -> tuple[int, str, str]:
    out = CliRunner().invoke(cli, ["roster", "show", *args])
    return out.exit_code, out.stdout, out.stderr


def test_show_prints_what_rb_roster_gives() -> None:
    code, text, err = show(str(DATA / "ork-patrol.json"))
    assert code == 0 and err == ""
    assert text.rstrip("\n") == str(rb.roster(DATA / "ork-patrol.json"))
    assert (
        text.splitlines()[0]
        == "Ork patrol — Demo Skirmish (ork-patrol.json, New Recruit JSON), 150 pts, 2 units"
    )
    assert "  boyz-mob — Boyz Mob: 10 models, 85 pts" in text.splitlines()


def test_show_json_is_the_front_doors_json() -> None:
    code, text, _ = show(str(DATA / "ork-patrol.ros"), "--json")
    data = json.loads(text)
    assert code == 0 and data == rb.roster(DATA / "ork-patrol.ros").to_json()
    assert [(u["key"], u["models"], u["points"]) for u in data["units"]] == [
        ("boyz-mob", 10, 85),
        ("warboss", 1, 65),
    ]
    assert data["system"] is None and "Demo Skirmish" in data["remark"]


def test_a_bad_file_is_one_line_and_exit_code_2() -> None:
    for name in ("bad-zip-bomb.rosz", "bad-billion-laughs.ros", "bad-no-roster.json"):
        code, text, err = show(str(HOSTILE / name))
        assert code == 2 and text == ""
        assert err.startswith(f"rulesbook: error: {name}: ") and err.count("\n") == 1
    code, _, err = show("missing.rosz")
    assert code == 2 and err == (
        "rulesbook: error: file: expected the path of an existing .ros/.rosz/.json file, got 'missing.rosz'\n"
    )


def test_names_from_the_file_reach_the_terminal_without_control_characters() -> None:
    code, text, _ = show(str(HOSTILE / "ok-odd-names.ros"))
    assert code == 0 and "evil" in text and not RAW_CONTROL.search(text.replace("\n", ""))
    code, text, _ = show(str(HOSTILE / "ok-odd-names.ros"), "--json")
    assert code == 0 and "\\u202e" in text  # escaped in JSON, read back the same
    assert json.loads(text)["units"][0]["name"] == rb.roster(HOSTILE / "ok-odd-names.ros").units[0].name


def test_in_a_notebook_a_roster_is_a_table() -> None:
    page = rb.roster(DATA / "ork-patrol.rosz")._repr_html_()
    assert page.startswith('<div class="rb-roster">') and "<td><code>boyz-mob</code></td>" in page


def test_each_system_that_reads_rosters_says_so_and_shows_its_view() -> None:
    from rulesbook.registry import registry

    assert list(registry().roster_adapters()) == ["army-morale", "wh40k"]
    code, text, _ = show(str(DATA / "rust-legion.rosz"))
    assert code == 0 and text.splitlines()[0].endswith("10 units, read by wh40k")
    assert "    may lead: rustguard-squad, rustguard-squad-2" in text.splitlines()
    assert "'corroding' (Rust Champion: Rust glaive)" in text
    code, text, _ = show(str(DATA / "steel-company.json"), "--json")
    data = json.loads(text)
    assert data["system"] == "army-morale" and data["units"][2]["lines"][1].startswith(
        "War Engines: Baneblade 3 200 pts"
    )


@pytest.mark.parametrize("name", NAMES, ids=repr)
def test_hostile_names_in_a_roster_reach_the_terminal_neutralised(name: str, tmp_path: Path) -> None:
    text = (DATA / "rust-legion.json").read_text(encoding="utf-8")
    hostile = text.replace('"Rust Lord"', json.dumps(name)).replace('"Rust claw"', json.dumps(f"{name} claw"))
    path = tmp_path / "army.json"
    path.write_text(hostile, encoding="utf-8")
    code, out, err = show(str(path))
    assert code == 0, err
    assert not RAW.search(out)
    code, out, _ = show(str(path), "--json")
    assert code == 0 and not RAW.search(out)
    assert " ".join(name.split()) in [u["name"] for u in json.loads(out)["units"]]  # a name is one line
