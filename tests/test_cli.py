"""The command line: JSON contract, exit codes, one-line errors, fast start-up."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rulesbook.registry import registry


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesbook.cli", *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.covers("scrollhammer.morale-check")
def test_calc_json_contract() -> None:
    out = run("calc", "scrollhammer.morale-check", "ld=7", "modifier=-1", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"calculator", "inputs", "result"}
    assert data["calculator"] == "scrollhammer.morale-check"
    assert data["inputs"]["ld"] == 7 and data["inputs"]["insane_heroism"] is True
    assert data["result"]["p_pass_exact"] == "5/12"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["calc", "scrollhammer.nope"], "calculator:"),
        (["calc", "scrollhammer.morale-check", "ld=x"], "ld: expected an integer from 0 to 12"),
        (["calc", "scrollhammer.morale-check", "ld=13"], "ld: expected an integer from 0 to 12"),
        (["calc", "scrollhammer.morale-check", "ld=7", "wibble=1"], "wibble: unknown input"),
        (["calc", "scrollhammer.morale-check", "ld7"], "expected key=value"),
        (["calc", "scrollhammer.morale-check"], "ld: required"),
        (
            ["calc", "scrollhammer.morale-check", "ld=7", "falling_back=yes"],
            "falling_back: expected true or false",
        ),
        (["calc", "scrollhammer.morale-check", "ld=7", "ld=8"], "ld: given twice"),
        (["calc", "scrollhammer.morale-check", "ld=7", "--frobnicate"], "unknown option"),
        (["rule", "scrollhammer.nope"], "rule:"),
        (["interpretations", "nosuch"], "system:"),
        (["nosuchcommand"], "unknown command 'nosuchcommand'; commands: calc, compare"),
        (["matchp", "a.yaml", "b.yaml"], "unknown command 'matchp'; did you mean matchup?"),
        (["sweeep"], "did you mean sweep?"),
        (["calc", "scrollhammer.morale-check", "ld=1_0"], "ld: expected an integer"),
        (["calc", "scrollhammer.morale-check", "ld=٧"], "ld: expected an integer"),
        (["calc", "scrollhammer.morale-check", "ld=" + "9" * 5000], "ld: expected an integer"),
        (
            ["calc", "scrollhammer.fall-back", "ld=7", "distance=5", "fall_back_dice=2D6+" + "9" * 5000],
            "fall_back_dice:",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], needle: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert needle in lines[0]
    assert len(lines[0]) < 300, "long values are cut in messages"
    assert "Traceback" not in out.stderr


def test_list_json_names_every_id() -> None:
    out = run("list", "--json")
    data = json.loads(out.stdout)
    reg = registry()
    listed_calcs = {c["id"] for s in data["systems"] for c in s["calculators"]}
    listed_rules = {r["id"] for s in data["systems"] for r in s["rules"]}
    assert listed_calcs == set(reg.calculators)
    assert listed_rules == set(reg.rules)
    morale = next(
        c for s in data["systems"] for c in s["calculators"] if c["id"] == "scrollhammer.morale-check"
    )
    ld = next(i for i in morale["inputs"] if i["key"] == "ld")
    assert ld == {
        "key": "ld",
        "kind": "int",
        "allowed": "an integer from 0 to 12",
        "default": None,
        "required": True,
        "help": ld["help"],
    }
    assert {"key": "p_pass", "kind": "probability", "label": "P(pass)"} in morale["outputs"]


def test_list_names_each_source_by_its_title() -> None:
    from rulesbook.index import source

    out = run("list")
    for system in registry().systems.values():
        assert f"  source: {source(system.id).title}\n" in out.stdout
        assert system.source not in out.stdout  # the file name (a hash-like one) only in --json
    data = json.loads(run("list", "--json").stdout)
    assert all(s["source_title"] == source(s["id"]).title for s in data["systems"])


def test_rule_shows_text_citation_and_calculators() -> None:
    out = run("rule", "scrollhammer.morale.insane-heroism", "--json")
    data = json.loads(out.stdout)
    assert data["citations"] == ["Scrollhammer Morale section, § Insane Heroism"]
    assert "scrollhammer.morale-check" in data["calculators"]
    assert any(c.endswith("morale_check") for c in data["code"])
    assert any("tests/scrollhammer/" in t for t in data["tests"])
    text = run("rule", "scrollhammer.morale.insane-heroism")
    assert "double 1" in text.stdout and text.returncode == 0


def test_calc_help_is_generated_from_the_declaration() -> None:
    out = run("calc", "scrollhammer.morale-check", "--help")
    assert out.returncode == 0
    calc = registry().calculator("scrollhammer.morale-check")
    for inp in calc.inputs:
        assert inp.key in out.stdout and inp.allowed() in out.stdout


EXAMPLES_OF_ONE_SYSTEM = """
import contextlib, io, json, sys
from rulesbook.cli import main
for calc_id, args in json.load(sys.stdin):
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(["calc", calc_id, *args, "--json"])
        except SystemExit as exc:
            code = exc.code or 0
    print(json.dumps([calc_id, args, code, out.getvalue(), err.getvalue()]))
"""
"""Runs ``rulesbook calc ID ARGS --json`` (the console script's ``main``) for each example read
from standard input, in one fresh interpreter; prints one JSON line per example."""


@pytest.mark.parametrize("system", sorted({c.system for c in registry().calculators.values()}))
def test_every_calculator_example_runs_from_the_cli(system: str) -> None:
    """Every worked example through the command line's entry point, in a fresh interpreter that
    has loaded nothing else: one per system (the CLI loads only the system it is asked about;
    ``tests/test_golden_examples.py`` checks each example's numbers)."""
    examples = [
        [calc.id, [f"{k}={v}" for k, v in example.items()]]
        for calc in registry().calculators.values()
        if calc.system == system
        for example in calc.examples
    ]
    proc = subprocess.run(
        [sys.executable, "-c", EXAMPLES_OF_ONE_SYSTEM],
        input=json.dumps(examples),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a[:2] for a in answers] == examples
    for calc_id, args, code, stdout, stderr in answers:
        assert code == 0, f"{calc_id} {args}: {stderr}"
        assert json.loads(stdout)["calculator"] == calc_id


def modules_after_calc(report: str) -> subprocess.CompletedProcess[str]:
    """Run `calc scrollhammer.morale-check ld=7 --json` in a fresh interpreter, then print
    ``report`` (an expression over ``sys.modules``)."""
    code = (
        "import sys\n"
        "from rulesbook.cli import main\n"
        "try:\n    main(['calc', 'scrollhammer.morale-check', 'ld=7', '--json'])\nexcept SystemExit:\n    pass\n"
        f"print('REPORT', {report})\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_cli_start_up_imports_no_panel_or_jupyter() -> None:
    out = modules_after_calc(
        "[m for m in ('panel', 'bokeh', 'ipywidgets', 'IPython', 'jupyter_client', 'matplotlib', 'pandas')"
        " if m in sys.modules]"
    )
    assert "REPORT []" in out.stdout, out.stdout + out.stderr


def test_calc_loads_only_its_own_system() -> None:
    out = modules_after_calc(
        "sorted(m for m in sys.modules if m.startswith('rulesbook.systems.')"
        " and not m.startswith('rulesbook.systems.scrollhammer'))"
    )
    assert "REPORT []" in out.stdout, out.stdout + out.stderr
    assert '"p_pass_exact": "7/12"' in out.stdout


def test_unknown_calculator_hint_sees_every_system() -> None:
    out = run("calc", "scrollhammer." + "q" * 30)
    assert out.returncode == 2
    assert f"({len(registry().calculators)} known)" in out.stderr, out.stderr


def test_a_system_brings_its_own_commands_and_calc_still_loads_one_system() -> None:
    """``rulesbook matchup`` is Warhammer 40,000's command (``SystemPackage(commands=...)``), listed
    and run as a core one; no system's command takes a core command's name; ``calc`` does not
    look the systems' commands up (test_calc_loads_only_its_own_system)."""
    import click

    from rulesbook.cli import cli
    from rulesbook.systems.wh40k.commands import matchup_cmd

    assert registry().commands == {"matchup": "rulesbook.systems.wh40k.commands:matchup_cmd"}
    assert set(registry().commands).isdisjoint(cli.commands)
    with click.Context(cli) as ctx:
        assert cli.get_command(ctx, "matchup") is matchup_cmd
        assert "matchup" in cli.list_commands(ctx) and cli.get_command(ctx, "nosuch") is None
    out = run("--help")
    assert out.returncode == 0 and "  matchup  " in out.stdout
    from rulesbook.site.pages import cli_page  # the site's command-line page too

    assert "## `rulesbook matchup`\n\n```text\nUsage: rulesbook matchup [OPTIONS] LIST_A LIST_B" in cli_page()
