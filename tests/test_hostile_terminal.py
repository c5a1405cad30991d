"""Hostile names reach the terminal neutralised through every command that prints them.

A name from a game log or a variant file (or an argument the user typed) may hold terminal
control sequences (``ESC ]0;…BEL`` retitles the window, the one-character CSI ``\\x9b31m``
turns text red), line separators and bidi overrides (``U+202E`` shows the rest of the line
reversed). Text output (values, explanation lines, tables, help, error lines) drops them
(:func:`rulesbook.present.plain`); ``--json`` output writes them as ``\\uXXXX`` escapes, so it
stays valid JSON that reads back to the identical name (:func:`rulesbook.present.json_text`).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulesbook import cli
from rulesbook.present import json_text, plain
from rulesbook.systems.army_morale.log import EXAMPLE_LOG
from rulesbook.systems.army_morale.logfile import load_log, log_to_text

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""A character that must never reach the terminal raw (tab and newline are fine)."""

NAMES = (
    "Blue\x1b]0;pwned\x07Army",
    "Blue\x9b31mArmy",
    "\u202eymrA eulB",
    "Blue\u2066\u2069\u202a\u202dArmy",
    "Blue\x85\u2028\u2029Army",
    "Blue\x7f\x1b[2J\x1b[HArmy",
    "Blue\r\x0b\x0cArmy",
)


def run(args: list[str]) -> tuple[int, str, str]:
    out = CliRunner().invoke(cli.cli, args)
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    return out.exit_code, out.stdout, out.stderr


def assert_neutral(text: str) -> None:
    assert not RAW.search(text), repr(RAW.search(text))


@pytest.fixture()
def hostile_log(tmp_path: Path) -> object:
    def make(name: str) -> Path:
        log = load_log(EXAMPLE_LOG)
        changed = replace(log, armies=(replace(log.armies[0], name=name), *log.armies[1:]))
        path = tmp_path / "game.yaml"
        path.write_text(log_to_text(changed), encoding="utf-8")
        return path

    return make


@pytest.mark.parametrize("name", NAMES, ids=repr)
def test_replay_text_and_json(name: str, hostile_log: object) -> None:
    path = hostile_log(name)  # type: ignore[operator]
    code, out, _ = run(["calc", "army-morale.replay", f"log={path}"])
    assert code == 0
    assert_neutral(out)
    assert "Blue" in out or "eulB" in out
    code, out, _ = run(["calc", "army-morale.replay", f"log={path}", "--json"])
    assert code == 0
    assert_neutral(out)
    # still valid JSON, and the name reads back exactly
    assert json.loads(out)["result"]["a_name"] == name


@pytest.fixture()
def hostile_variant(tmp_path: Path) -> object:
    def make(name: str) -> Path:
        path = tmp_path / "hostile.yaml"
        title = json.dumps(name)  # a YAML double-quoted scalar with its escapes
        path.write_text(
            f"system: wh40k\ntitle: {title}\ndescription: {title}\nparameters:\n  battle_shock_dice: 3D6\n",
            encoding="utf-8",
        )
        return path

    return make


@pytest.mark.parametrize("name", NAMES, ids=repr)
def test_variant_titles_through_calc_compare_and_sweep(name: str, hostile_variant: object) -> None:
    path = str(hostile_variant(name))  # type: ignore[operator]
    for args in (
        ["calc", "wh40k.battle-shock", "leadership=7", f"variant={path}"],
        ["compare", "wh40k.battle-shock", "leadership=7", "--variant", path],
        ["sweep", "wh40k.battle-shock", "leadership=6..7", "--variant", path, "--serial"],
    ):
        code, out, err = run(args)
        assert code == 0, err
        assert_neutral(out)
        assert_neutral(err)
        code, out, err = run([*args, "--json"])
        assert code == 0, err
        assert_neutral(out)
        json.loads(out)  # valid JSON
    code, out, _ = run(["calc", "wh40k.battle-shock", "leadership=7", f"variant={path}", "--json"])
    data = json.loads(out)
    assert data["result"]["p_pass_exact"]  # the variant ran


@pytest.mark.parametrize("name", NAMES, ids=repr)
def test_error_lines(name: str) -> None:
    for args in (
        ["rule", f"wh40k.{name}"],
        ["rule", name, "--json"],
        ["calc", f"wh40k.{name}"],
        ["calc", "wh40k.battle-shock", f"{name}=7"],
        ["calc", "wh40k.battle-shock", f"leadership={name}", "--json"],
        ["calc", "wh40k.battle-shock", f"--{name}"],
        ["interpretations", name],
        ["variants", name],
        ["compare", "wh40k.battle-shock", "--variant", name],
        ["sweep", "wh40k.battle-shock", f"leadership={name}"],
        ["list", f"--{name}"],
    ):
        exit_code, out, err = run(args)
        assert exit_code == 2, (args, out, err)
        assert_neutral(out)
        assert_neutral(err)
        assert err.startswith("rulesbook: error: ") or "Error" in err, err


def test_error_lines_through_main(capsys: pytest.CaptureFixture[str]) -> None:
    """Usage errors click raises (an unknown option) go through :func:`rulesbook.cli.commands`."""
    for name in NAMES:
        with pytest.raises(SystemExit) as info:
            cli.main(["list", f"--{name}"])
        assert info.value.code == 2
        captured = capsys.readouterr()
        assert captured.err.startswith("rulesbook: error: ")
        assert_neutral(captured.err)


def test_listings_and_help_are_neutral() -> None:
    for args in (
        ["list"],
        ["interpretations", "army-morale"],
        ["variants"],
        ["calc", "army-morale.replay", "--help"],
    ):
        code, out, _ = run(args)
        assert code == 0
        assert_neutral(out)


@given(st.text())
def test_json_text_round_trips_and_is_neutral(text: str) -> None:
    dumped = json_text({"name": text, "list": [text]})
    assert not RAW.search(dumped)
    assert json.loads(dumped) == {"name": text, "list": [text]}


@given(st.text())
def test_plain_leaves_nothing_raw(text: str) -> None:
    out = plain(text)
    assert not RAW.search(out)
    assert out == "".join(ch for ch in text if not RAW.match(ch))  # only those dropped
