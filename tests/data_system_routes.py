"""A system written in data reaches every route with nothing registered by hand (issue 34, part 4).

Run only with ``$RULESBOOK_SYSTEMS_DIR`` naming ``examples/systems`` (the file is no ``test_*.py``:
``tests/test_designer_examples.py`` runs it in a process of its own, so no other test sees the
system). Skirmish (``examples/systems/skirmish/``, no ``.py`` file) is asked through the command
line (calc, variants, compare, sweep, solve, sensitivity), the notebook and served forms, the
served server's routes, the published pages (served and static flavours, the static form), the
browser's app wheel (its files read back by a plain interpreter, with no environment variable)
and the JSON API (in-process and over HTTP). Each answer is checked against an oracle that lists
the dice's faces here, importing nothing of the code it checks.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tornado.testing import AsyncHTTPTestCase
from tornado.web import Application

from rulesbook.api.json_api import calc_answer, calculators_json
from rulesbook.api.openapi import openapi
from rulesbook.cli import cli
from rulesbook.language.systems import SYSTEMS_DIR_ENV
from rulesbook.registry import registry

ROOT = Path(__file__).resolve().parents[1]
CALC = "skirmish.nerve-test"

pytestmark = pytest.mark.skipif(
    not os.environ.get(SYSTEMS_DIR_ENV),
    reason="run by tests/test_designer_examples.py, $RULESBOOK_SYSTEMS_DIR set",
)


# -- the oracle: Skirmish's rules as its rules.yaml words them, by listing the faces ------------------


def nerve_pass(line: int, *, dice: int = 2, keep_lowest: int = 2, leader: bool = False) -> Fraction:
    """P(a Nerve test holds): the kept dice total at most ``line``; kept double 6 fails, kept
    double 1 passes; with a leader near, a failure is rolled once more."""
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    kept = [sorted(r)[:keep_lowest] for r in rolls]
    one = Fraction(
        sum(k != [6, 6] and (k == [1, 1] or sum(k) <= line) for k in kept),
        len(rolls),
    )
    return 1 - (1 - one) ** 2 if leader else one


def nerve_answer(line: int, *, rout_up_to: int = 2, **dice: Any) -> dict[str, Fraction]:
    holds = nerve_pass(line, **dice)
    return {
        "p_pass": holds,
        "p_shaken": (1 - holds) * Fraction(6 - rout_up_to, 6),
        "p_rout": (1 - holds) * Fraction(rout_up_to, 6),
    }


def exact(result: Any, key: str) -> Fraction:
    return Fraction(result[f"{key}_exact"])


def run_cli(*args: str) -> str:
    with contextlib.chdir(ROOT):
        out = CliRunner().invoke(cli, list(args))
    assert out.exit_code == 0, out.output
    return str(out.output)


# -- command line ---------------------------------------------------------------------------------


def test_cli_calc_answers_with_and_without_a_variant() -> None:
    data = json.loads(run_cli("calc", CALC, "nerve=8", "wounded=true", "--json"))
    assert {k: exact(data["result"], k) for k in ("p_pass", "p_shaken", "p_rout")} == nerve_answer(7)
    grim = json.loads(run_cli("calc", CALC, "nerve=7", "variant=grim-nerve", "--json"))
    assert exact(grim["result"], "p_pass") == nerve_pass(7, dice=3)
    assert grim["variant"] == "grim-nerve"


def test_cli_variants_and_compare_know_the_system_s_own_variant() -> None:
    listed = json.loads(run_cli("variants", "skirmish", "--json"))
    assert [v["name"] for v in listed] == ["grim-nerve"]
    compared = json.loads(run_cli("compare", CALC, "nerve=6", "--variant", "grim-nerve", "--json"))
    text = json.dumps(compared)
    assert str(nerve_pass(6)) in text and str(nerve_pass(6, dice=3)) in text


def test_cli_sweep_is_exact_over_a_grid(tmp_path: Path) -> None:
    out = tmp_path / "sweep.csv"
    run_cli("sweep", CALC, "nerve=4..9", "leader_near=false,true", "--csv", str(out))
    lines = out.read_text(encoding="utf-8").splitlines()
    head = lines[0].split(",")
    rows = [dict(zip(head, line.split(","), strict=True)) for line in lines[1:]]
    assert len(rows) == 12
    for row in rows:
        leader = row["leader_near"] == "True"
        assert Fraction(row["p_pass_exact"]) == nerve_pass(int(row["nerve"]), leader=leader), row


def test_cli_solve_finds_the_smallest_nerve() -> None:
    found = json.loads(run_cli("solve", CALC, "p_pass>=1/2", "over", "nerve=2..12", "--json"))
    want = min(n for n in range(2, 13) if nerve_pass(n) >= Fraction(1, 2))
    assert found["value"] == want and Fraction(found["exact"]) == nerve_pass(want)


def test_cli_sensitivity_moves_the_system_s_own_parameters() -> None:
    data = json.loads(run_cli("sensitivity", CALC, "nerve=7", "--output", "p_rout", "--json"))
    moves = {(m["key"], m["to"]): Fraction(m["change_exact"]) for m in data["moves"]}
    base = nerve_answer(7)["p_rout"]
    assert moves[("rout_up_to", "3")] == nerve_answer(7, rout_up_to=3)["p_rout"] - base
    assert moves[("rout_up_to", "1")] == nerve_answer(7, rout_up_to=1)["p_rout"] - base
    assert moves[("double_dice", "every-die-rolled")] == 0  # 2D6 keeps every die it rolls


# -- forms -------------------------------------------------------------------------------------------


def test_the_notebook_and_served_forms_are_generated_and_recompute() -> None:
    from widgets.forms.ipy import CalculatorForm
    from widgets.forms.panel_app import CalculatorApp

    calc = registry().calculator(CALC)
    form = CalculatorForm(calc)
    assert list(form.controls) == ["nerve", "modifier", "wounded", "leader_near"]
    form.controls["nerve"].value = 8
    form.controls["leader_near"].value = True
    assert f'data-key="p_pass_exact">{nerve_pass(8, leader=True)}<' in form.output.value
    app = CalculatorApp(calc)
    assert list(app.widgets) == ["nerve", "modifier", "wounded", "leader_near"]
    app.widgets["modifier"].value = -2
    assert f'data-key="p_pass_exact">{nerve_pass(5)}<' in app.result.object
    app.widgets["nerve"].value = 13
    assert "nerve: expected an integer from 2 to 12" in app.result.object


# -- the served server's routes, and the pages -------------------------------------------------------


def test_the_server_routes_the_system_s_calculators() -> None:
    from widgets.server.routes import app_factories

    apps = app_factories()
    assert {"calc/skirmish.nerve-test", "calc/skirmish.line-nerve"} <= set(apps)


def _pages(static: bool, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    from rulesbook.site import build

    monkeypatch.setenv("RULESBOOK_STATIC", "true" if static else "false")
    pages: dict[str, io.StringIO] = {}

    @contextlib.contextmanager
    def fake_open(path: str, mode: str) -> Any:
        yield pages.setdefault(path, io.StringIO())

    build(fake_open, notebooks=[])
    return {path: page.getvalue() for path, page in pages.items()}


@pytest.mark.parametrize("static", [True, False], ids=["static", "served"])
def test_the_site_has_the_system_s_pages(static: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _pages(static, monkeypatch)
    assert "skirmish/index.md" in text and "skirmish/index.md" in text["SUMMARY.md"]
    page = text["skirmish/calculators/skirmish.nerve-test.md"]
    assert "`skirmish.nerve-test`" in page and "| `leader_near` |" in page
    assert str(nerve_pass(6)) in page  # its worked example (Nerve 7, modifier -1)
    assert "skirmish/interpretations/skirmish.interpretations.double-dice.md" in text  # the register
    assert {f"skirmish/rules/skirmish.{r}.md" for r in ("nerve-test", "wounded", "leader", "failure")} <= set(
        text
    )
    assert "Skirmish" in text["sources.md"]
    if static:  # computed at build time, and a form the browser computes
        assert 'data-key="p_pass_exact"' in page
    else:  # the live calculator, served
        assert "/calc/skirmish.nerve-test" in page


def test_the_browser_s_app_wheel_carries_the_system(tmp_path: Path) -> None:
    """The files of the app wheel, unpacked and imported by a plain interpreter with no
    ``$RULESBOOK_SYSTEMS_DIR``: the registry finds Skirmish there and answers as here (what the
    reader's browser runs, less Pyodide)."""
    from rulesbook.site.runtime import app_files

    files = dict(app_files())
    assert "rulesbook/data-systems/skirmish/mechanics.yaml" in files
    assert not any(name.startswith("rulesbook/data-systems/") and name.endswith(".py") for name in files)
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    env = {k: v for k, v in os.environ.items() if k not in (SYSTEMS_DIR_ENV, "PYTHONPATH")}
    code = (
        "from widgets.forms.browser import answer\n"
        "import rulesbook\n"
        f"assert rulesbook.__file__.startswith({str(tmp_path)!r}), rulesbook.__file__\n"
        f"print(answer({CALC!r}, {{'nerve': '7', 'wounded': 'true'}}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert f'data-key="p_pass_exact">{nerve_pass(6)}<' in out.stdout


# -- the JSON API --------------------------------------------------------------------------------------


def test_the_json_api_answers_and_declares_it() -> None:
    status, body = calc_answer(CALC, {"nerve": "7", "modifier": "-1"})
    assert status == 200
    assert {k: exact(body["result"], k) for k in ("p_pass", "p_shaken", "p_rout")} == nerve_answer(6)
    status, body = calc_answer(CALC, {"nerve": 7, "leader_near": True}, body=("nerve", "leader_near"))
    assert status == 200 and exact(body["result"], "p_pass") == nerve_pass(7, leader=True)
    status, body = calc_answer(CALC, {"nerve": "7"}, variant=("grim-nerve",))
    assert status == 200 and exact(body["result"], "p_pass") == nerve_pass(7, dice=3)
    status, body = calc_answer(CALC, {"nerve": "13"})
    assert status == 400 and body["error"]["field"] == "nerve"
    assert CALC in {c["id"] for c in calculators_json()[1]["calculators"]}
    assert f"/api/v1/calc/{CALC}" in openapi()["paths"]


class OverHttp(AsyncHTTPTestCase):
    def get_app(self) -> Application:
        from widgets.server.http_api import api_routes

        return Application(api_routes(None, hosts=["127.0.0.1:*", "localhost:*"]))

    def test_the_http_api_answers_get_and_post(self) -> None:
        got = self.fetch(f"/api/v1/calc/{CALC}?nerve=7&modifier=-1")
        assert got.code == 200
        assert exact(json.loads(got.body)["result"], "p_rout") == nerve_answer(6)["p_rout"]
        posted = self.fetch(
            f"/api/v1/calc/{CALC}",
            method="POST",
            body=json.dumps({"nerve": 9, "wounded": True}),
            headers={"Content-Type": "application/json"},
        )
        assert posted.code == 200, posted.body
        assert exact(json.loads(posted.body)["result"], "p_pass") == nerve_pass(8)
