"""The served site and its live calculator in a real browser (Debian's chromium)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import read_value, set_number

pytestmark = pytest.mark.browser


@pytest.mark.covers("scrollhammer.morale-check", "scrollhammer.morale.check")
def test_live_calculator_recomputes_when_ld_changes(served: str, page: Any) -> None:
    page.goto(f"{served}/calc/scrollhammer.morale-check")
    assert read_value(page, "p_pass_exact") == "5/12"  # the first example: Ld 7, modifier -1
    set_number(page, "ld", 9)  # 2D6 <= 8: 26 of 36
    page.locator('[data-key="p_pass_exact"]', has_text="13/18").first.wait_for()
    assert read_value(page, "p_pass_exact") == "13/18"
    set_number(page, "modifier", -3)
    page.locator('[data-key="p_pass_exact"]', has_text="5/12").first.wait_for()
    assert read_value(page, "p_pass") == "41.7%"
    assert page.external_requests == []


def test_site_root_reaches_rule_page_and_its_live_calculator(served: str, page: Any) -> None:
    page.goto(f"{served}/")
    assert page.url.rstrip("/").endswith("/site")
    assert "rulesbook" in page.title()
    page.goto(f"{served}/site/scrollhammer/rules/scrollhammer.morale.insane-heroism/")
    assert "Scrollhammer Morale section, § Insane Heroism" in page.content()
    page.locator('a[href="/calc/scrollhammer.morale-check"]').first.click()
    page.wait_for_url("**/calc/scrollhammer.morale-check")
    assert read_value(page, "p_pass_exact") == "5/12"
    assert page.external_requests == []


def test_calculator_page_embeds_the_live_calculator(served: str, page: Any) -> None:
    page.goto(f"{served}/site/scrollhammer/calculators/scrollhammer.morale-check/")
    page.locator("iframe.rb-live").scroll_into_view_if_needed()
    frame = page.frame_locator("iframe.rb-live")
    frame.locator('[data-key="p_pass_exact"]', has_text="5/12").first.wait_for()
    box = frame.locator(".rb-input-ld input").first
    box.fill("4")  # 2D6 <= 3: 3 of 36
    box.press("Enter")
    frame.locator('[data-key="p_pass_exact"]', has_text="1/12").first.wait_for()
    assert page.external_requests == []


def test_bad_input_in_the_browser_keeps_the_value_and_says_why(served: str, page: Any) -> None:
    page.goto(f"{served}/calc/scrollhammer.morale-check")
    read_value(page, "p_pass_exact")
    set_number(page, "ld", 99)
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    assert error.inner_text() == "ld: expected an integer from 0 to 12, got 99"
    assert page.locator(".rb-input-ld input").first.input_value() == "99"
    set_number(page, "ld", 8)  # 2D6 <= 7 with the example's -1
    page.locator('[data-key="p_pass_exact"]', has_text="7/12").first.wait_for()


def test_every_notebook_page_renders_offline(served: str, page: Any) -> None:
    from pathlib import Path

    notebooks = sorted(Path(__file__).resolve().parents[2].joinpath("notebooks").glob("*.ipynb"))
    assert notebooks
    for nb in notebooks:
        page.goto(f"{served}/site/notebooks/{nb.stem}/")
        page.locator(".jupyter-wrapper").first.wait_for()
        page.wait_for_load_state("networkidle")
    assert page.external_requests == []
