"""Our Markdown (explanation lines, rule texts, the register) reads as text in the terminal.

``**bold**`` loses its asterisks (or shows in the terminal's bold when standard output is a
terminal and ``NO_COLOR`` is not set); ``--json`` keeps the Markdown as it is.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulesbook import cli
from rulesbook.cli import commands as cli_main
from rulesbook.cli import output
from rulesbook.present import plain, result_text, terminal_text
from rulesbook.registry import registry
from rulesbook.results import CalcResult

ATTACK = [
    "calc",
    "wh40k.attack",
    "attacks=3",
    "skill=3",
    "strength=4",
    "ap=0",
    "damage=1",
    "toughness=4",
    "save=3",
    "wounds=1",
    "models=5",
]
RULE = "wh40k.death-guard.stratagem.cloud-of-flies"
SGR = re.compile(r"\x1b\[(1|22|3|23)m")
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def test_explanation_without_asterisks() -> None:
    calc = registry().calculator("wh40k.attack")
    values = dict(arg.split("=") for arg in ATTACK[2:])
    bold = [line for line in calc.run(**values).explanation if "**" in line]
    assert bold, "the example explanation has a bold weapon name to render"
    text = CliRunner().invoke(cli.cli, ATTACK).output
    assert "**" not in text
    for line in bold:  # the same line, its emphasis rendered
        assert "  " + line.replace("**", "") in text.splitlines()


def test_rule_text_and_register_without_markdown_marks() -> None:
    runner = CliRunner()
    raw = json.loads(runner.invoke(cli.cli, ["rule", RULE, "--json"]).output)["text"]
    assert "**When:**" in raw
    text = runner.invoke(cli.cli, ["rule", RULE]).output
    assert "**" not in text and "When: Your opponent" in text
    register = runner.invoke(cli.cli, ["interpretations", "wh40k"]).output
    raw_register = runner.invoke(cli.cli, ["interpretations", "wh40k", "--json"]).output
    assert "`" in raw_register and "`" not in register
    assert "`save_modifier`" in raw_register and " save_modifier input" in register


def test_bold_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_main, "styled", lambda: True)
    out = CliRunner().invoke(cli.cli, ATTACK, color=True).output
    assert "\x1b[1mweapon\x1b[22m" in out
    assert "**" not in out
    # no other escape than the bold/italic switches
    assert not RAW.search(SGR.sub("", out))
    out = CliRunner().invoke(cli.cli, ["rule", RULE], color=True).output
    assert "\x1b[1mWhen:\x1b[22m" in out


@pytest.mark.parametrize(
    ("tty", "no_color", "styled"), [(True, None, True), (True, "1", False), (False, None, False)]
)
def test_style_only_on_a_terminal_without_no_color(
    monkeypatch: pytest.MonkeyPatch, tty: bool, no_color: str | None, styled: bool
) -> None:
    monkeypatch.setattr(output.sys.stdout, "isatty", lambda: tty)
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert output.styled() is styled


def test_names_in_explanations_stay_text() -> None:
    line = "**<b>Boyz</b>** \x1b]0;x\x07lost [x](https://example.org) \\*3\\* [y](javascript:alert(1))"
    text = result_text((), CalcResult({}, explanation=(line,)), style=True)
    assert "\x1b]" not in text and "\x07" not in text
    assert "<b>Boyz</b>" in text and "*3*" in text
    assert "x (https://example.org)" in text and "[y](javascript:alert(1))" in text


@given(st.text(), st.booleans())
def test_terminal_text_never_emits_a_control_character(text: str, style: bool) -> None:
    out = terminal_text(text, style)
    assert not RAW.search(SGR.sub("", out) if style else out)
    if not style:
        assert "\x1b" not in out


@given(st.text(st.characters(blacklist_characters="*_`\\&[<")))
def test_text_without_markup_is_only_made_plain(text: str) -> None:
    assert terminal_text(text) == plain(text)


@given(st.from_regex(r"[A-Za-z0-9 ,.]{1,20}", fullmatch=True).filter(lambda s: s.strip() == s))
def test_bold_words_read_as_the_words(words: str) -> None:
    assert terminal_text(f"**{words}** lost") == f"{words} lost"
    assert terminal_text(f"**{words}** lost", style=True) == f"\x1b[1m{words}\x1b[22m lost"


def test_help_and_listing_render_code_spans() -> None:
    runner = CliRunner()
    declared = registry().calculator("wh40k.attack").help_text()
    assert "`save_modifier`" in declared
    shown = runner.invoke(cli.cli, ["calc", "wh40k.attack", "--help"]).output
    assert "`" not in shown and "The save_modifier input holds" in shown
    listing = runner.invoke(cli.cli, ["list"]).output
    assert "`" not in listing and "The save_modifier input holds" in listing
