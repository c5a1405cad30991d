"""Every calculator's worked examples under the published site's Python (Pyodide, in Node) give
byte for byte what CPython's command line prints with ``--json``.

One Node process runs them all (``tests/pyodide/run_examples.mjs``), started exactly as a page's
worker starts it (``docs/javascripts/rulesbook-live-core.mjs``): Python restored from the build's
start-up snapshot, the wheels unpacked by hand, the data snapshot instead of YAML parsing. A few bad inputs and a variant are
compared too: the one error line (exit code 2) and the variant's answer must also be the CLI's.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulesbook.cli import cli
from rulesbook.registry import registry

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tests" / "pyodide" / "run_examples.mjs"

EXTRA = [
    ("scrollhammer.morale-check", ["ld=seven"]),
    ("scrollhammer.morale-check", ["ld=7", "modifier=-1", "variant=no-insane-heroism"]),
    ("wh40k.attack", ["attacks=2D6+", "skill=3"]),
    ("wh40k.battle-shock", ["leadership=7", "variant=battle-shock-3d6"]),
    ("army-morale.rally", ["a_morale=lots"]),
    (
        "warstrike.strike-force-morale",
        ["starting_units=10", "remaining_units=4", "officer_ld=8", "hive_mind=maybe"],
    ),
]
"""Bad inputs (each refused with the CLI's own line) and shipped variants."""


def _jobs() -> list[dict[str, Any]]:
    jobs = [
        {"calc": calc.id, "args": [f"{k}={v}" for k, v in example.items()]}
        for calc in registry().calculators.values()
        for example in calc.examples
    ]
    return jobs + [{"calc": calc_id, "args": args} for calc_id, args in EXTRA]


@pytest.fixture(scope="module")
def pyodide_answers(live_runtime: Path) -> dict[str, Any]:
    proc = subprocess.run(
        ["node", str(RUNNER), str(live_runtime)],
        input=json.dumps(_jobs()),
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    answers: dict[str, Any] = json.loads(proc.stdout)
    return answers


def test_every_worked_example_matches_cpython_byte_for_byte(pyodide_answers: dict[str, Any]) -> None:
    jobs = _jobs()
    assert len(pyodide_answers["answers"]) == len(jobs)
    assert pyodide_answers["python"].startswith("3.")
    assert pyodide_answers["from_snapshot"] is True  # Python restored from the build's start-up snapshot
    mismatches = []
    for job, got in zip(jobs, pyodide_answers["answers"], strict=True):
        cpython = CliRunner().invoke(cli, ["calc", job["calc"], *job["args"], "--json"])
        expected = cpython.stdout if cpython.exit_code == 0 else cpython.stderr
        if (got["code"], got["output"].encode()) != (cpython.exit_code, expected.encode()):
            mismatches.append(
                f"{job}: pyodide {got['code']} {got['output'][:200]!r} != cpython {cpython.exit_code} {expected[:200]!r}"
            )
    assert not mismatches, "\n".join(mismatches)


def test_the_extra_cases_are_errors_and_variants(pyodide_answers: dict[str, Any]) -> None:
    extra = pyodide_answers["answers"][-len(EXTRA) :]
    codes = [answer["code"] for answer in extra]
    assert codes == [2, 0, 2, 0, 2, 2]
    assert extra[0]["output"] == "rulesbook: error: ld: expected an integer from 0 to 12, got 'seven'\n"
    assert json.loads(extra[1]["output"])["variant"] == "no-insane-heroism"
