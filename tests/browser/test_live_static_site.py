"""The published site computing in the browser: ``scripts/build-site``'s output (the static build
plus ``live-runtime/``) served by a plain ``python3 -m http.server``, in a Chromium context where
every request to another host is aborted (and recorded, so a test fails on it).

A calculator page opens with its precomputed answer, says "Loading…", then "Live", and shows the
full generated form (the first page starts Python from the start-up snapshot the build took; a
reload, and every later page, finds it started in the shared worker); an input that the static page kept fixed now answers, and the number is the
command line's, at 390 px (a phone) and 1280 px. The inputs travel in the address (a reload keeps
them), a bad value gets the command line's message,
"Compare with" shows a shipped variant beside the baseline, a game log chosen from disk is
replayed, and every calculator's worked examples, asked in the page, print what the CLI prints;
so does a system written in data only (Skirmish, in the build as ``RULESBOOK_SYSTEMS_DIR`` names
it). From ``file://``, or when the build left the runtime out, the page keeps its
precomputed calculator and says how to get live answers.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulesbook.cli import cli
from rulesbook.registry import registry
from rulesbook.site.runtime import RUNTIME_DIR
from tests.browser.conftest import _free_port, running

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
LIVE_TIMEOUT = 120_000  # a cold start on a busy two-core machine: Pyodide, wheels, imports


def _serve(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    log = (tmp_path_factory.mktemp("http-log") / "http.log").open("w")
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(folder)]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    with running(proc, log, f"{base}/index.html", "http.server", timeout=60):
        yield base


@pytest.fixture(scope="module")
def live_host(
    static_site: Path, live_runtime: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """What ``scripts/build-site`` makes (the static pages and ``live-runtime/``) on a plain web host."""
    site = tmp_path_factory.mktemp("live-site") / "site"
    shutil.copytree(static_site, site)
    shutil.copytree(live_runtime, site / RUNTIME_DIR)
    yield from _serve(site, tmp_path_factory)


@pytest.fixture(scope="module")
def runtime_left_out(static_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A build that could not reach the registries: the static pages only, on a plain web host."""
    yield from _serve(static_site, tmp_path_factory)


def _context(browser: Any) -> Any:
    """A context (empty cache and storage at first) in which other hosts are unreachable."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.blocked = []

    def only_this_machine(route: Any) -> None:
        host = urllib.parse.urlsplit(route.request.url).hostname
        if route.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            route.continue_()
        else:
            context.blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_this_machine)
    return context


def _page(context: Any, width: int) -> Any:
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    page.set_default_timeout(30_000)
    page.blocked = context.blocked
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    return page


@pytest.fixture(scope="module")
def visits(browser: Any) -> Iterator[Any]:
    """One browser profile for the module, as one reader's: the later pages read the runtime and
    its start-up snapshot from the browser's cache."""
    context = _context(browser)
    yield context
    context.close()


@pytest.fixture
def phone_and_desktop(visits: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    page = _page(visits, request.param)
    yield page
    page.close()


def _live(page: Any, answered_after: int = 0) -> Any:
    box = page.locator(".rb-static-calc").first
    page.wait_for_function(
        f"() => {{ const b = document.querySelector('.rb-static-calc');"
        f" return b && Number(b.getAttribute('data-answered') || 0) > {answered_after}"
        f" && !b.querySelector('.rb-static-result').classList.contains('rb-stale'); }}",
        timeout=LIVE_TIMEOUT,
    )
    return box


def _answered(box: Any) -> int:
    return int(box.get_attribute("data-answered") or 0)


def _with(example: dict[str, str], **changes: str) -> list[str]:
    return [f"{k}={v}" for k, v in {**example, **changes}.items()]


def _cli(calc_id: str, args: list[str]) -> tuple[int, Any]:
    res = CliRunner().invoke(cli, ["calc", calc_id, *args, "--json"])
    return res.exit_code, json.loads(res.stdout) if res.exit_code == 0 else res.stderr.strip()


def _shown_exact(box: Any) -> dict[str, str]:
    """Every exact value of the result's headline: its whole fraction (``data-exact`` when the
    screen shows a summary of a huge one)."""
    out = {}
    for span in box.locator('.rb-static-result .rb-headline [data-key$="_exact"]').all():
        out[str(span.get_attribute("data-key"))] = str(span.get_attribute("data-exact") or span.inner_text())
    return out


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


CALC = "wh40k.datasheet-attack"
PAGE = f"wh40k/calculators/{CALC}.html"


@pytest.mark.covers(CALC)
@pytest.mark.parametrize("phone_and_desktop", [390, 1280], indirect=True)
def test_an_input_frozen_before_answers_live_as_the_command_line_does(
    live_host: str, phone_and_desktop: Any
) -> None:
    page = phone_and_desktop
    calc = registry().calculator(CALC)
    example = dict(calc.examples[0])
    # the static page keeps it at the worked example's value (read as served: where Python has
    # started for an earlier page, the page goes live before a test could look)
    assert "<code>toughness=4</code>" in page.request.get(f"{live_host}/{PAGE}").text()
    page.goto(f"{live_host}/{PAGE}")
    box = _live(page)
    status = box.locator(".rb-live-status")
    assert status.get_attribute("data-state") == "live" and status.inner_text().startswith("Live")
    assert box.locator(".rb-static-fixed").count() == 0
    form = box.locator("form.rb-live-form")
    assert form.locator("[data-key]").count() == len(calc.inputs) + 1  # every input, and "Compare with"
    args = [f"{k}={v}" for k, v in example.items()]
    assert _shown_exact(box) == {
        k: v for k, v in _cli(CALC, args)[1]["result"].items() if k in _shown_exact(box)
    }

    before = _answered(box)
    form.locator('[data-key="toughness"]').fill("5")
    box = _live(page, before)
    code, expected = _cli(CALC, _with(example, toughness="5"))
    shown = _shown_exact(box)
    assert code == 0 and len(shown) >= 2
    assert shown == {key: expected["result"][key] for key in shown}
    assert "toughness=5" in page.url
    form.scroll_into_view_if_needed()
    _shot(page, f"live-datasheet-{page.viewport_size['width']}")

    before = _answered(box)
    form.locator('[data-key="weapons"]').fill("rotwind,banana")
    box = _live(page, before)
    code, message = _cli(CALC, _with(example, toughness="5", weapons="rotwind,banana"))
    assert code == 2
    assert "rulesbook: error: " + box.locator('[data-key="error"]').inner_text() == message

    assert json.loads(box.get_attribute("data-start"))["from_snapshot"] is True  # the build's snapshot
    page.reload()  # the address keeps every input
    box = _live(page)
    start = json.loads(box.get_attribute("data-start"))
    # Python outlived the page (the shared worker): the reload found it started
    assert start["from_snapshot"] is True and start["reused"] is True
    assert box.locator('form.rb-live-form [data-key="toughness"]').input_value() == "5"
    assert box.locator('[data-key="error"]').inner_text() == message.removeprefix("rulesbook: error: ")
    assert page.blocked == [] and page.errors == []


def test_every_worked_example_answers_in_the_browser_as_the_command_line_does(
    live_host: str, visits: Any
) -> None:
    """Every calculator, in Chromium's own Python (the page's worker), byte for byte the CLI's."""
    page = _page(visits, 1280)
    try:
        page.goto(f"{live_host}/{PAGE}")
        _live(page)
        mismatches = []
        for calc in registry().calculators.values():
            for example in calc.examples:
                args = [f"{k}={v}" for k, v in example.items()]
                got = page.evaluate("([c, a]) => window.rulesbookLive.json(c, a)", [calc.id, args])
                res = CliRunner().invoke(cli, ["calc", calc.id, *args, "--json"])
                if (got["code"], got["output"]) != (res.exit_code, res.stdout):
                    mismatches.append(f"{calc.id} {args}")
        assert mismatches == []
        assert page.blocked == [] and page.errors == []
    finally:
        page.close()


@pytest.mark.covers("scrollhammer.morale-check", "army-morale.replay")
def test_compare_with_a_variant_and_a_game_log_from_disk(live_host: str, visits: Any, tmp_path: Path) -> None:
    page = _page(visits, 1280)
    try:
        page.goto(f"{live_host}/scrollhammer/calculators/scrollhammer.morale-check.html")
        box = _live(page)
        before = _answered(box)
        box.locator('form.rb-live-form [data-key="variant"]').select_option("no-insane-heroism")
        box = _live(page, before)
        _, baseline = _cli("scrollhammer.morale-check", ["ld=7", "modifier=-1"])
        _, variant = _cli("scrollhammer.morale-check", ["ld=7", "modifier=-1", "variant=no-insane-heroism"])
        side = box.locator('[data-variant="no-insane-heroism"] [data-key="p_pass_exact"]')
        assert side.inner_text() == variant["result"]["p_pass_exact"]
        assert (
            box.locator('[data-variant="baseline"] [data-key="p_pass_exact"]').inner_text()
            == baseline["result"]["p_pass_exact"]
        )
        assert "variant=no-insane-heroism" in page.url

        # a compared variant's added stratagem joins the pick list; the published rules' side
        # answers without it (issue 24, part 7)
        page.goto(f"{live_host}/{PAGE}")
        box = _live(page)
        pick = box.locator('form.rb-live-form select.rb-pick[data-pick-for="stratagems"]')
        added = pick.locator('option[value="monster-hunters"]')
        assert added.get_attribute("disabled") is not None  # not offered by the published rules
        box.locator('form.rb-live-form [data-key="variant"]').select_option("monster-hunters")
        assert added.get_attribute("disabled") is None
        before = _answered(box)
        pick.select_option("monster-hunters")
        box = _live(page, before)
        stratagems = box.locator('form.rb-live-form input[data-key="stratagems"]').input_value()
        assert stratagems.split(", ")[-1] == "monster-hunters"
        box.locator(".rb-warning", has_text="the published rules answer without monster-hunters").wait_for()

        page.goto(f"{live_host}/army-morale/calculators/army-morale.replay.html")
        box = _live(page)
        example = ROOT / "rulesbook" / "systems" / "army_morale" / "data" / "example-game.yaml"
        log = tmp_path / "my-game.yaml"
        log.write_text(
            example.read_text(encoding="utf-8").replace("Ork horde", "Greenskin mob"), encoding="utf-8"
        )
        before = _answered(box)
        box.locator('form.rb-live-form [data-key="log"]').set_input_files(str(log))
        box = _live(page, before)
        _, expected = _cli("army-morale.replay", [f"log={log}"])
        assert "Greenskin mob" in expected["result"]["b_name"]  # the file chosen, not the worked example
        assert (
            box.locator('.rb-static-result [data-key="result"]').inner_text() == expected["result"]["result"]
        )
        assert box.locator('.rb-static-result [data-key="b_name"]').inner_text() == "Greenskin mob"

        # another tab shares the started Python (the shared worker), not the file chosen here
        other = _page(visits, 1280)
        try:
            other.goto(f"{live_host}/army-morale/calculators/army-morale.replay.html")
            other_box = _live(other)
            assert json.loads(other_box.get_attribute("data-start"))["reused"] is True
            assert other_box.locator('.rb-static-result [data-key="b_name"]').inner_text() != "Greenskin mob"
        finally:
            other.close()
        before = _answered(box)  # this page's next answer replays its own file again
        box.locator('form.rb-live-form [data-key="variant"]').dispatch_event("change")
        box = _live(page, before)
        assert box.locator('.rb-static-result [data-key="b_name"]').inner_text() == "Greenskin mob"
        wrong = tmp_path / "notes.txt"
        wrong.write_text("hello", encoding="utf-8")
        box.locator('form.rb-live-form [data-key="log"]').set_input_files(str(wrong))
        page.locator('.rb-static-result [data-key="error"]', has_text="upload a").wait_for()
        assert page.blocked == [] and page.errors == []
    finally:
        page.close()


def test_a_system_written_in_data_computes_in_the_browser_as_the_command_line_does(
    live_host: str, visits: Any
) -> None:
    """Skirmish (``examples/systems/skirmish/``, no Python) on the site ``RULESBOOK_SYSTEMS_DIR=
    examples/systems scripts/build-site`` makes: its Nerve test page answers in the reader's
    browser exactly as the command line does, and as the rules say (counted here over the 36
    rolls: a total at most nerve + modifier holds, a double 1 holds, a double 6 fails; a failed
    unit is shaken on 3-6 of a D6 and routs on 1-2)."""
    from tests.conftest import with_data_systems

    args = ["nerve=7", "modifier=-1"]
    cli_run = subprocess.run(
        [sys.executable, "-m", "rulesbook.cli", "calc", "skirmish.nerve-test", *args, "--json"],
        cwd=ROOT,
        env=with_data_systems(dict(os.environ)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert cli_run.returncode == 0, cli_run.stderr
    expected = json.loads(cli_run.stdout)["result"]
    rolls = list(itertools.product(range(1, 7), repeat=2))
    holds = Fraction(sum(a == b == 1 or (a + b <= 6 and not a == b == 6) for a, b in rolls), 36)
    oracle = {
        "p_pass": holds,
        "p_shaken": (1 - holds) * Fraction(4, 6),
        "p_rout": (1 - holds) * Fraction(2, 6),
    }
    page = _page(visits, 390)
    try:
        page.goto(f"{live_host}/skirmish/calculators/skirmish.nerve-test.html?{'&'.join(args)}")
        box = _live(page)
        assert box.get_attribute("data-live") == "live"
        shown = _shown_exact(box)
        assert shown == {f"{key}_exact": expected[f"{key}_exact"] for key in oracle}
        assert {key: Fraction(shown[f"{key}_exact"]) for key in oracle} == oracle
        code, output = page.evaluate(
            "() => window.rulesbookLive.json('skirmish.nerve-test', ['nerve=7', 'modifier=-1'])"
            ".then(r => [r.code, r.output])"
        )
        assert (code, output) == (0, cli_run.stdout)  # byte for byte
        assert page.blocked == [] and page.errors == []
        _shot(page, "skirmish-nerve-test-phone")
    finally:
        page.close()


def test_from_disk_or_without_the_runtime_the_page_says_how_to_get_live_answers(
    static_site: Path, runtime_left_out: str, browser: Any
) -> None:
    context = browser.new_context(offline=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto((static_site / "scrollhammer/calculators/scrollhammer.break-test.html").resolve().as_uri())
        status = page.locator(".rb-live-status[data-state='static']")
        text = status.inner_text()
        assert "python3 -m http.server -d site" in text and "\n" not in text.strip()
        box = page.locator(".rb-static-calc[data-ready='true']")  # the precomputed calculator still works
        box.locator('select[data-key="lost_by"]').select_option(label="1")
        page.locator('.rb-static-result [data-key="p_pass_exact"]', has_text="7/12").wait_for()
        _shot(page, "live-from-file-phone")
    finally:
        context.close()
    page = _page(_context(browser), 1280)
    try:
        page.goto(f"{runtime_left_out}/scrollhammer/calculators/scrollhammer.break-test.html")
        status = page.locator(".rb-live-status[data-state='static']")
        assert "built without the live calculator" in status.inner_text()
        assert page.locator(".rb-static-calc select[data-key='lost_by']").count() == 1
        assert page.blocked == []
    finally:
        page.context.close()
