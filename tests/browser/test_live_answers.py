"""Every live answer shows its state: typed values count without Enter, a slow answer shows a busy
badge and the old result dimmed until the new one is on the screen (widgets/live.py).

Run at a 390 px phone and at desktop width; screenshots land in ``test-artifacts/live-answers/``.
Expected numbers come from the calculator's Python API in this process (an independent path).
"""

from __future__ import annotations

from typing import Any

import pytest

from rulesbook.registry import registry
from tests.browser.conftest import ROOT, read_value

pytestmark = pytest.mark.browser

SHOTS = ROOT / "test-artifacts" / "live-answers"
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}

# A 40k profile whose answer takes about a second (well inside the cost budget): sustained hits
# D3 and devastating wounds against forty ten-wound models without a save.
SLOW = {
    "attacks": "40",
    "damage": "2D6",
    "abilities": "sustained-hits-d3,devastating-wounds",
    "wounds": "10",
    "models": "40",
    "save": "7",
}


def _page(browser: Any, width: str) -> tuple[Any, Any]:
    w, h = WIDTHS[width]
    context = browser.new_context(viewport={"width": w, "height": h}, is_mobile=width == "phone")
    return context, context.new_page()


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_a_typed_value_counts_without_enter(served: str, browser: Any, width: str) -> None:
    calc = registry().calculator("scrollhammer.morale-check")
    context, page = _page(browser, width)
    try:
        page.goto(f"{served}/calc/{calc.id}")
        form = calc.initial_values()  # what the page starts from
        assert read_value(page, "p_pass_exact") == calc.run(**form)["p_pass_exact"]
        box = page.locator(".rb-input-ld input").first
        box.click()
        box.press("Control+A")
        box.type("9", delay=30)  # keystrokes only: no Enter, the field keeps the focus
        want = calc.run(**{**form, "ld": 9})["p_pass_exact"]
        page.locator('[data-key="p_pass_exact"]', has_text=want).first.wait_for(timeout=15_000)
        page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached")
        assert page.evaluate("document.activeElement !== document.body")  # still typing there
        assert "ld=9" in page.url
        _shot(page, f"typed-without-enter-{width}")
    finally:
        context.close()


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.covers("wh40k.attack.sustained-hits")
def test_a_slow_answer_is_marked_busy_and_stale_until_it_arrives(
    served: str, browser: Any, width: str
) -> None:
    calc = registry().calculator("wh40k.attack")
    start = {**calc.initial_values(), **SLOW}
    attacks = "41" if width == "phone" else "42"  # not cached by the other width's run
    old = calc.run(**start)["mean_wounds_lost"]
    new = calc.run(**{**start, "attacks": attacks})["mean_wounds_lost"]
    context, page = _page(browser, width)
    try:
        query = "&".join(f"{k}={v}" for k, v in SLOW.items())
        page.goto(f"{served}/calc/{calc.id}?{query}")
        shown = page.locator('[data-key="mean_wounds_lost"]').first
        page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached", timeout=60_000)
        before = shown.inner_text()
        assert before == _fmt(old, before)
        box = page.locator(".rb-input-attacks input").first
        box.fill(attacks)  # a text box (a dice expression), no Enter
        badge = page.locator('.rb-status[data-state="busy"]').filter(visible=True).first
        badge.wait_for(timeout=5_000)
        assert badge.inner_text() == "updating…"
        box_ = badge.bounding_box()  # on the screen where the user is typing, even on a phone
        assert box_ is not None and box_["y"] >= 0 and box_["y"] + box_["height"] <= WIDTHS[width][1]
        assert box_["x"] >= 0 and box_["x"] + box_["width"] <= WIDTHS[width][0]
        assert page.locator(".rb-answer.rb-stale").count() == 1  # the old number is dimmed ...
        assert shown.inner_text() == before  # ... and still the old one
        _shot(page, f"busy-{width}")
        page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached", timeout=60_000)
        after = shown.inner_text()
        assert after == _fmt(new, after) and after != before
        assert page.locator(".rb-answer.rb-stale").count() == 0
        # wide tables scroll inside the result: the page keeps the device's width
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width][0] + 1
        _shot(page, f"updated-{width}")
    finally:
        context.close()


def _fmt(value: float, shown: str) -> str:
    """``value`` with as many decimals as the page shows (the renderer picks the precision)."""
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    return f"{value:.{decimals}f}"
