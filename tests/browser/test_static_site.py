"""The published (static) rulebook opened from disk (``file://``) with the network off.

The site is built once (``static_site`` in ``tests/conftest.py``, what ``scripts/build-site``
makes) and opened straight from its folder in Debian's chromium, in a browser context whose
network is switched off — and once from a plain ``python3 -m http.server``. Screenshots of key pages (desktop and a 390 px phone) are saved under
``test-artifacts/`` (git-ignored) for a human to look at.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import _free_port, running

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture
def offline_page(browser: Any) -> Iterator[Any]:
    """A page with the network off that records console errors and any non-file request."""
    context = browser.new_context(offline=True, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.errors = []
    page.requests_out = []
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on(
        "request",
        lambda req: (
            None
            if req.url.startswith(("file:", "data:", "blob:", "about:"))
            else page.requests_out.append(req.url)
        ),
    )
    yield page
    context.close()


def _url(site: Path, path: str) -> str:
    return (site / path).resolve().as_uri()


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


def _search(page: Any, text: str) -> list[str]:
    """Type ``text`` into the site search and return the result links, best first."""
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    box.fill("")
    box.press_sequentially(text, delay=15)
    first = page.locator(".md-search-result__item a").first
    first.wait_for()
    # the results are redrawn as the search catches up with the typing: read them once settled
    page.wait_for_function(
        """() => {
            const now = [...document.querySelectorAll('.md-search-result__item > a')].map(a => a.href).join();
            const same = window.__rbLastResults === now;
            window.__rbLastResults = now;
            return same;
        }""",
        polling=300,
    )
    return page.eval_on_selector_all(
        ".md-search-result__item > a", "links => links.map(a => a.getAttribute('href'))"
    )


def test_home_page_opens_from_disk_offline(static_site: Path, offline_page: Any) -> None:
    page = offline_page
    page.goto(_url(static_site, "index.html"))
    assert "rulesbook" in page.title()
    page.locator("a", has_text="Scrollhammer").first.wait_for()
    _shot(page, "home-desktop")
    page.locator("nav a[href='scrollhammer/index.html']").first.click()
    page.wait_for_url("**/scrollhammer/index.html")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(_url(static_site, "index.html"))
    _shot(page, "home-phone")
    page.goto(_url(static_site, "scrollhammer/calculators/scrollhammer.morale-check.html"))
    _shot(page, "calculator-phone")
    assert page.errors == [] and page.requests_out == []


def test_search_finds_an_id_s_own_page_first_without_errors(static_site: Path, offline_page: Any) -> None:
    page = offline_page
    page.goto(_url(static_site, "index.html"))
    for some_id, page_path in [
        ("scrollhammer.morale.insane-heroism", "scrollhammer/rules/scrollhammer.morale.insane-heroism.html"),
        ("wh40k.attack", "wh40k/calculators/wh40k.attack.html"),
        (
            "wh40k.interpretations.wound-table",
            "wh40k/interpretations/wh40k.interpretations.wound-table.html",
        ),
    ]:
        links = _search(page, some_id)
        assert links[0].split("#")[0].endswith(page_path), (some_id, links[:3])
    links = _search(page, "Feel No Pain")
    assert "glossary.html#wh40k-feel-no-pain" in links[0], links[:3]
    _shot(page, "search")
    _search(page, "scrollhammer.mor")  # a part of an ID, typed key by key
    assert page.errors == [] and page.requests_out == []


@pytest.mark.covers("scrollhammer.morale-check")
def test_static_calculator_answers_a_changed_input(static_site: Path, offline_page: Any) -> None:
    page = offline_page
    page.goto(_url(static_site, "scrollhammer/calculators/scrollhammer.morale-check.html"))
    box = page.locator(".rb-static-calc[data-ready='true']")
    box.wait_for()
    value = box.locator('.rb-static-result [data-key="p_pass_exact"]')
    assert value.inner_text() == "5/12"  # the first worked example: Ld 7, modifier -1
    box.locator('select[data-key="ld"]').select_option(label="9")
    page.locator('.rb-static-result [data-key="p_pass_exact"]', has_text="13/18").wait_for()
    box.locator('select[data-key="modifier"]').select_option(label="-3")
    page.locator('.rb-static-result [data-key="p_pass_exact"]', has_text="5/12").wait_for()
    box.scroll_into_view_if_needed()
    _shot(page, "static-calculator")
    assert page.errors == [] and page.requests_out == []


def test_glossary_and_citation_links_lead_to_their_entries(static_site: Path, offline_page: Any) -> None:
    page = offline_page
    rule = _url(static_site, "scrollhammer/rules/scrollhammer.morale.insane-heroism.html")
    page.goto(rule)
    term = page.locator("article a.rb-term").first
    anchor = str(term.get_attribute("href")).split("#")[1]
    term.click()
    page.wait_for_url(f"**/glossary.html#{anchor}")
    assert page.locator(f"[id='{anchor}']").is_visible()
    _shot(page, "glossary")
    page.goto(rule)
    cite = page.locator("article a[href*='sources.html#scrollhammer-']").first
    assert cite.inner_text().startswith("Scrollhammer Morale section, § ")
    target = str(cite.get_attribute("href")).split("#")[1]
    cite.click()
    page.wait_for_url(f"**/sources.html#{target}")
    assert page.locator(f"[id='{target}']").is_visible()
    _shot(page, "sources")
    assert page.errors == [] and page.requests_out == []


def test_notebook_page_shows_the_form_as_a_picture(static_site: Path, offline_page: Any) -> None:
    page = offline_page
    page.goto(_url(static_site, "notebooks/scrollhammer-morale.html"))
    picture = page.locator(".rb-notebook-widget").first
    picture.wait_for()
    assert "VBox(" not in page.content()
    assert picture.locator('[data-key="p_pass_exact"]').first.inner_text() == "5/12"
    picture.scroll_into_view_if_needed()
    _shot(page, "notebook")
    picture.locator("a.rb-try").click()
    page.wait_for_url("**/scrollhammer.morale-check.html#try-it")
    assert page.errors == [] and page.requests_out == []


@pytest.fixture(scope="module")
def plain_host(static_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The static build served by ``python3 -m http.server`` (a plain web host, no rulesbook)."""
    port = _free_port()
    log = (tmp_path_factory.mktemp("http-log") / "http.log").open("w")
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(static_site)]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    with running(proc, log, f"{base}/index.html", "http.server", timeout=60):
        yield base


def test_static_build_on_a_plain_web_host(plain_host: str, page: Any) -> None:
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{plain_host}/index.html")
    links = _search(page, "scrollhammer.break-test")
    assert links[0].endswith("scrollhammer/calculators/scrollhammer.break-test.html"), links[:3]
    page.goto(links[0])
    box = page.locator(".rb-static-calc[data-ready='true']")
    box.wait_for()
    value = box.locator('.rb-static-result [data-key="p_pass_exact"]')
    assert value.inner_text() == "5/18"  # the worked example: Ld 8, lost by 3 (2D6 <= 5)
    box.locator('select[data-key="lost_by"]').select_option(label="1")  # 2D6 <= 7
    page.locator('.rb-static-result [data-key="p_pass_exact"]', has_text="7/12").wait_for()
    assert errors == [] and page.external_requests == []
