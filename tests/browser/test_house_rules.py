"""House rules live for readers of the published book (issue 34, part 5): the static site's
variants page takes a variant file's text (pasted or opened), checks it in the browser's Python
with the command line's loader and checks, and every live calculator of its system then shows
it beside the published rules; a link carries it in its fragment (never sent to a server).

The site is what ``scripts/build-site`` makes, on a plain ``python3 -m http.server``, in Chromium
with every other host blocked (the helpers of ``test_live_static_site.py``); from ``file://`` the
text is kept and the page says how to use it. Oracles: the Break test's and the Battle-shock
test's chances counted over every roll of the dice here, from the rules' text.
"""

# ruff: noqa: F811 (the fixtures imported from test_live_static_site are parameters here)
from __future__ import annotations

import base64
import itertools
import re
import zlib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulesbook.cli import cli
from tests.browser.test_live_static_site import (  # noqa: F401 (fixtures)
    LIVE_TIMEOUT,
    _answered,
    _live,
    _page,
    _shot,
    _shown_exact,
    live_host,
    visits,
)

pytestmark = pytest.mark.browser

HARSH = "system: scrollhammer\ntitle: Harsher Break tests\nparameters:\n  break_ld_per_point: 2\n"
BLEAK = "system: wh40k\ntitle: Bleak Battle-shock\nparameters:\n  battle_shock_dice: 3D6\n"
BREAK_PAGE = "scrollhammer/calculators/scrollhammer.break-test.html"


def break_chance(ld: int, lost_by: int, per_point: int) -> Fraction:
    """A Morale check at Ld minus ``per_point`` for each point lost by: 2D6 at most that passes,
    and so does a double 1 (Insane Heroism)."""
    target = ld - per_point * lost_by
    rolls = list(itertools.product(range(1, 7), repeat=2))
    return Fraction(sum(1 for a, b in rolls if a + b <= target or a == b == 1), len(rolls))


def fragment(text: str, *, packed: bool = True) -> str:
    """``house=`` as docs/designer/house-rules.md describes it, written here from that page."""
    raw = text.encode("utf-8")
    if packed:
        squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
        raw = squeeze.compress(raw) + squeeze.flush()
    return f"house={'1' if packed else '0'}." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def cli_error(tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The one line ``rulesbook`` prints for a variant file ``house-rule.yaml`` holding ``text``."""
    (tmp_path / "house-rule.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(
        cli, ["calc", "scrollhammer.break-test", "ld=8", "lost_by=1", "variant=house-rule.yaml"]
    )
    assert res.exit_code == 2
    line: str = res.stderr.strip()
    return line.removeprefix("rulesbook: error: ")


def yaml_problem(line: str) -> str:
    """A YAML syntax error's line without the parser's own words (libyaml's on the command line,
    PyYAML's pure-Python parser in the browser, which words the same problem otherwise)."""
    found = re.match(r"^(.*\(line \d+):", line)
    assert found is not None, line
    return found.group(1)


def forget(page: Any, host: str) -> None:
    """This browser holds no house rule for the site (its Python snapshot stays: a quick start)."""
    page.goto(f"{host}/404.html")
    page.evaluate("() => localStorage.clear()")


def _house_state(page: Any, state: str) -> Any:
    box = page.locator(f'.rb-house[data-house="{state}"]')
    box.wait_for(timeout=LIVE_TIMEOUT)
    return box


def _type(page: Any, text: str | Path, state: str) -> Any:
    """Type ``text`` into the box (or open the file ``text``) and wait for its check."""
    box = page.locator(".rb-house")
    checked = int(box.get_attribute("data-checked") or 0)
    if isinstance(text, Path):
        box.locator(".rb-house-file").set_input_files(str(text))
    else:
        box.locator(".rb-house-text").fill(text)
    page.wait_for_function(
        f"() => {{ const b = document.querySelector('.rb-house');"
        f" return Number(b.getAttribute('data-checked') || 0) > {checked} && b.getAttribute('data-house') === '{state}'; }}",
        timeout=LIVE_TIMEOUT,
    )
    return box


def _side(box: Any, variant: str, key: str) -> str:
    return str(box.locator(f'[data-variant="{variant}"] [data-key="{key}"]').first.inner_text())


@pytest.mark.covers("scrollhammer.morale.break-test", "scrollhammer.break-test")
def test_a_house_rule_pasted_on_the_variants_page_reaches_its_system_s_calculators(
    live_host: str, visits: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page(visits, 1280)
    try:
        page.goto(f"{live_host}/variants.html")
        _house_state(page, "empty")
        bad = "system: scrollhammer\ntitle: [Harsher\n"
        box = _type(page, bad, "error")
        shown = box.locator('[data-key="error"]').inner_text()
        assert yaml_problem(shown) == yaml_problem(cli_error(tmp_path, bad, monkeypatch))
        assert shown.startswith("house-rule.yaml: not valid YAML (line 3: ") and "\n" not in shown
        tagged = "system: !!python/object:os.system scrollhammer\ntitle: x\n"
        box = _type(page, tagged, "error")  # the same safe loader: no tag ever builds anything
        assert box.locator('[data-key="error"]').inner_text() == cli_error(tmp_path, tagged, monkeypatch)
        page.reload()  # the reader's text is never lost, not even a wrong one
        _house_state(page, "error")
        assert page.locator(".rb-house-text").input_value() == tagged

        chosen = tmp_path / "harsh.yaml"  # opened from disk this time
        chosen.write_text(HARSH, encoding="utf-8")
        box = _type(page, chosen, "ok")
        assert box.locator(".rb-house-text").input_value() == HARSH
        assert "Harsher Break tests" in box.locator(".rb-house-status").inner_text()
        assert box.locator(".rb-house-summary li").all_inner_texts() == [
            "Ld lost per point of defeat (break_ld_per_point): 1 → 2"
        ]
        assert box.locator(".rb-house-earlier").is_visible()  # the wrong text, one step back
        link = str(box.locator(".rb-house-href").get_attribute("href"))
        assert link.startswith(f"{live_host}/variants.html#house=") and "?" not in link

        page.goto(f"{live_host}/{BREAK_PAGE}?ld=9&lost_by=2")
        calc = _live(page)
        assert calc.locator('form.rb-live-form [data-key="variant"]').input_value() == ":house"
        assert "Harsher Break tests" in calc.locator(".rb-house-note").inner_text()
        assert _side(calc, "baseline", "p_pass_exact") == str(break_chance(9, 2, 1))  # 7/12
        assert _side(calc, "house-rule", "p_pass_exact") == str(break_chance(9, 2, 2))  # 5/18
        assert "variant=" not in page.url  # the house rule travels in the fragment, not the query
        share = str(calc.locator(".rb-house-share").get_attribute("href"))
        assert share.startswith(f"{live_host}/{BREAK_PAGE}?") and "#house=1." in share

        page.goto(f"{live_host}/wh40k/calculators/wh40k.battle-shock.html")  # another system's
        other = _live(page)
        assert other.locator('form.rb-live-form option[value=":house"]').count() == 0
        assert other.locator(".rb-house-note").count() == 0
        assert page.blocked == [] and page.errors == []
    finally:
        page.close()

    # whoever opens the links (a browser that holds no house rule) sees the same comparison
    for address in (link, share):
        fresh = _page(visits, 390)
        try:
            forget(fresh, live_host)
            fresh.goto(address)
            if address == link:  # the variants page, holding and checking the text
                _house_state(fresh, "ok")
                assert fresh.locator(".rb-house-text").input_value() == HARSH
            else:  # the comparison itself, its inputs kept
                calc = _live(fresh)
                assert _side(calc, "house-rule", "p_pass_exact") == str(break_chance(9, 2, 2))
            assert fresh.blocked == [] and fresh.errors == []
        finally:
            fresh.close()


@pytest.mark.covers("wh40k.battle-shock")
@pytest.mark.parametrize("packed", [True, False])
def test_a_link_written_from_the_documented_format_is_compared(
    live_host: str, visits: Any, packed: bool
) -> None:
    """A designer's tool may write the link itself: ``house=1.`` (raw DEFLATE) or ``house=0.``
    (plain), base64url. 3D6 at least 7 fails on the 20 of 216 rolls totalling 3 to 6."""
    page = _page(visits, 1280)
    try:
        forget(page, live_host)
        page.goto(
            f"{live_host}/wh40k/calculators/wh40k.battle-shock.html?leadership=7#{fragment(BLEAK, packed=packed)}"
        )
        calc = _live(page)
        rolls = list(itertools.product(range(1, 7), repeat=3))
        three = Fraction(sum(1 for r in rolls if sum(r) >= 7), len(rolls))
        assert _side(calc, "house-rule", "p_pass_exact") == str(three)  # 49/54
        assert _side(calc, "baseline", "p_pass_exact") == str(Fraction(21, 36))
        assert page.evaluate("() => window.rulesbookHouse.text()") == BLEAK
        assert page.blocked == [] and page.errors == []
    finally:
        page.close()


def test_from_disk_the_house_rule_is_kept_and_the_page_says_how_to_use_it(
    static_site: Path, browser: Any
) -> None:
    context = browser.new_context(offline=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto((static_site / "variants.html").resolve().as_uri() + "#" + fragment(HARSH))
        box = page.locator('.rb-house[data-ready="true"][data-house="static"]')
        box.wait_for()
        assert box.locator(".rb-house-text").input_value() == HARSH
        status = box.locator(".rb-house-status").inner_text()
        assert "needs the live calculator" in status and "python3 -m http.server -d site" in status
        box.locator(".rb-house-text").fill(HARSH + "description: mine\n")
        page.reload()
        page.locator('.rb-house[data-ready="true"]').wait_for()
        assert page.locator(".rb-house-text").input_value() == HARSH + "description: mine\n"
    finally:
        context.close()


EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "designer"


@pytest.mark.covers("scrollhammer.morale.break-test", "scrollhammer.break-test")
def test_the_inputs_and_calculators_a_house_rule_adds_get_forms(live_host: str, visits: Any) -> None:
    """A pasted house rule that adds an input (standard-reroll.yaml: ``has_standard``) shows it in
    the forms it reaches, with its declared label and default, kept in the address; one that
    adds a calculator (terror-test.yaml: ``scrollhammer.terror-test``) gets a form on the
    variants page, computing it under the rule, with its explanation — at 390 px and 1280 px.
    Oracles: the Break test with a failed test re-rolled once, and the Terror test (2D6 at most
    Ld − 1 + modifier, a double 1 holds), counted over the rolls here."""
    page = _page(visits, 390)
    try:
        forget(page, live_host)
        page.goto(f"{live_host}/variants.html")
        _house_state(page, "empty")
        _type(page, (EXAMPLES / "standard-reroll.yaml").read_text(encoding="utf-8"), "ok")
        assert page.locator(".rb-house-calc").count() == 0  # it adds no calculator

        page.goto(f"{live_host}/{BREAK_PAGE}?ld=9&lost_by=3")
        calc = _live(page)
        added = calc.locator('.rb-added-inputs input[data-key="has_standard"]')
        added.wait_for(timeout=LIVE_TIMEOUT)
        assert calc.locator(".rb-added-inputs .rb-input-has_standard label").inner_text().strip() == (
            "Carries a standard"
        )
        assert not added.is_checked()  # its declared default
        once = break_chance(9, 3, 1)
        answered = _answered(calc)
        added.check()
        calc = _live(page, answered)
        assert _side(calc, "baseline", "p_pass_exact") == str(once)  # 5/12
        assert _side(calc, "house-rule", "p_pass_exact") == str(once + (1 - once) * once)  # 95/144
        assert "has_standard=true" in page.url
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.reload()  # the address keeps it
        calc = _live(page)
        page.locator('.rb-added-inputs input[data-key="has_standard"]:checked').wait_for(timeout=LIVE_TIMEOUT)
        page.wait_for_function(
            '() => (document.querySelector(\'[data-variant="house-rule"] [data-key="p_pass_exact"]\') || {})'
            ".textContent === '95/144'",
            timeout=LIVE_TIMEOUT,
        )
        answered = _answered(calc)
        calc.locator('form.rb-live-form select[data-key="variant"]').select_option("none")
        calc = _live(page, answered)
        assert calc.locator(".rb-added-inputs [data-key]").count() == 0
        assert calc.locator('.rb-static-result [data-key="error"]').count() == 0
        assert _shown_exact(calc)["p_pass_exact"] == str(once)

        page.goto(f"{live_host}/scrollhammer/calculators/scrollhammer.panic-test.html")  # no Break test
        calc = _live(page)
        assert calc.locator('form.rb-live-form [data-key="variant"]').input_value() == ":house"
        page.wait_for_timeout(500)
        assert calc.locator(".rb-added-inputs [data-key]").count() == 0
        assert page.blocked == [] and page.errors == []
    finally:
        page.close()

    rolls = list(itertools.product(range(1, 7), repeat=2))
    for width in (390, 1280):
        page = _page(visits, width)
        try:
            page.goto(f"{live_host}/variants.html")
            if width == 390:
                _type(page, (EXAMPLES / "terror-test.yaml").read_text(encoding="utf-8"), "ok")
            else:  # this browser kept the text: the form comes back with it
                _house_state(page, "ok")
            form = page.locator(".rb-house-calc")
            form.wait_for(timeout=LIVE_TIMEOUT)
            page.wait_for_function(
                "() => Number((document.querySelector('.rb-house-calc') || {getAttribute: () => 0})"
                ".getAttribute('data-answered') || 0) > 0",
                timeout=LIVE_TIMEOUT,
            )
            assert "scrollhammer.terror-test" in form.locator("h3").inner_text()
            for ld, modifier in ((8, -2), (3, 0)):
                answered = _answered(form)
                form.locator('input[data-key="ld"]').fill(str(ld))
                form.locator('input[data-key="modifier"]').fill(str(modifier))
                page.wait_for_function(
                    f"() => {{ const b = document.querySelector('.rb-house-calc');"
                    f" return Number(b.getAttribute('data-answered')) > {answered}"
                    f" && !b.querySelector('.rb-static-result').classList.contains('rb-stale'); }}",
                    timeout=LIVE_TIMEOUT,
                )
                want = Fraction(sum(a + b <= ld - 1 + modifier or a == b == 1 for a, b in rolls), 36)
                page.locator('.rb-house-calc [data-key="p_pass_exact"]', has_text=str(want)).wait_for()
                assert form.locator('[data-key="p_fail_exact"]').inner_text() == str(1 - want)
            assert "Added by the variant Terror tests" in form.locator(".rb-added-note").inner_text()
            assert "A double 1 passes whatever the total" in str(
                form.locator(".rb-static-result").text_content()
            )
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            form.scroll_into_view_if_needed()
            _shot(page, f"house-rule-added-calculator-{width}")
            assert page.blocked == [] and page.errors == []
        finally:
            page.close()
