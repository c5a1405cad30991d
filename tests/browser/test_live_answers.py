"""Every live answer shows its state: typed values count without Enter, a slow answer shows a busy
badge and the old result dimmed until the new one is on the screen (widgets/forms/live.py).

Run at a 390 px phone and at desktop width; screenshots land in ``test-artifacts/live-answers/``.
Expected numbers come from the calculator's Python API in this process (an independent path).
"""

from __future__ import annotations

from typing import Any

import pytest

from rulesbook.registry import registry
from tests.browser.conftest import ROOT, read_value
from widgets.forms.live import NUDGE_MS

pytestmark = pytest.mark.browser

SHOTS = ROOT / "test-artifacts" / "live-answers"
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}

# An answer that takes a second or two (inside the limits the calculators accept): a 40k unit with
# an attached Leader hit by a weapon with Sustained Hits 2 and Devastating Wounds.
SLOW_CALC = "wh40k.attack-and-battle-shock"
SLOW_KEY = "mean_models_destroyed"
START = {
    "leader_models": 1,
    "wounds": 2,
    "models": 10,
    "weapons": "A=10 BS=3 S=4 D=1 sustained-hits-2,devastating-wounds",
}

DEEP = """  const deep = (root, sel) => {
    const hit = root.querySelector(sel)
    if (hit) return hit
    for (const el of root.querySelectorAll("*")) {
      const inner = el.shadowRoot && deep(el.shadowRoot, sel)
      if (inner) return inner
    }
    return null
  }
"""
"""A JavaScript helper: the first element matching a selector, looking inside shadow roots too."""

RECORD = """key => {
  window.rbStates = []
__DEEP__  const badge = document.querySelector(".rb-status-floating")
  new MutationObserver(() => {
    const value = deep(document, `[data-key="${key}"]`)
    window.rbStates.push({
      state: badge.dataset.state, value: value && value.innerText, stale: !!deep(document, ".rb-answer.rb-stale"),
    })
  }).observe(badge, {attributes: true, attributeFilter: ["data-state"]})
}""".replace("__DEEP__", DEEP)
"""Records every change of the answer's state with the number shown and the stale marking at
that moment (so the test sees the busy phase however short the computation turns out)."""


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
        page.locator('[data-key="p_pass_exact"]', has_text=want).first.wait_for()
        page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached")
        assert page.evaluate("document.activeElement !== document.body")  # still typing there
        assert "ld=9" in page.url
        _shot(page, f"typed-without-enter-{width}")
    finally:
        context.close()


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.covers("wh40k.attack.sustained-hits", "wh40k.attack.devastating-wounds")
def test_a_slow_answer_is_marked_busy_and_stale_until_it_arrives(
    served: str, browser: Any, width: str
) -> None:
    calc = registry().calculator(SLOW_CALC)
    weapons = f"A={41 if width == 'phone' else 40} BS=3 S=4 D=1 sustained-hits-2,devastating-wounds"
    old = calc.run(**{**calc.initial_values(), **START})[SLOW_KEY]
    new = calc.run(**{**calc.initial_values(), **START, "weapons": weapons})[SLOW_KEY]
    context, page = _page(browser, width)
    try:
        query = "&".join(f"{k}={v}" for k, v in START.items())
        page.goto(f"{served}/calc/{calc.id}?{query}")
        shown = page.locator(f'[data-key="{SLOW_KEY}"]').first
        page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached", timeout=60_000)
        before = shown.inner_text()
        assert before == _fmt(old, before)
        page.evaluate(RECORD, SLOW_KEY)
        box = page.locator(".rb-input-weapons input").first
        box.fill(weapons)  # a text box, no Enter
        badge = page.locator('.rb-status[data-state="busy"]').filter(visible=True).first
        badge.wait_for()
        assert badge.inner_text() == "updating…"
        at = badge.bounding_box()  # on the screen where the user is typing, even on a phone
        assert at is not None and at["y"] >= 0 and at["y"] + at["height"] <= WIDTHS[width][1]
        assert at["x"] >= 0 and at["x"] + at["width"] <= WIDTHS[width][0]
        _shot(page, f"busy-{width}")
        page.locator(
            '[data-key="{SLOW_KEY}"]'.replace("{SLOW_KEY}", SLOW_KEY), has_text=_fmt(new, before)
        ).first.wait_for(timeout=60_000)
        page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached", timeout=60_000)
        states = page.evaluate("window.rbStates")
        busy = [s for s in states if s["state"] == "busy"]
        assert busy and busy[0]["value"] == before and all(s["stale"] for s in busy)  # old number, dimmed
        assert states[-1] == {"state": "idle", "value": _fmt(new, before), "stale": False}
        assert shown.inner_text() != before
        # wide tables scroll inside the result: the page keeps the device's width
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width][0] + 1
        _shot(page, f"updated-{width}")
    finally:
        context.close()


def _fmt(value: float, shown: str) -> str:
    """``value`` with as many decimals as the page shows (the renderer picks the precision)."""
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    return f"{value:.{decimals}f}"


LATE_MESSAGES = """() => {
  let live = null
  for (const doc of Bokeh.documents) {
    for (const m of doc._all_models.values()) {
      if (m.data && m.data.answered !== undefined && m.data.answer !== undefined) live = m.data
    }
  }
  const badge = document.querySelector(".rb-status-floating")
__DEEP__  const states = []
  const note = (step) => {
    const probe = deep(document, '[data-key="probe"]')
    states.push([step, badge.dataset.state, probe ? probe.textContent : null])
  }
  const [number] = live.answer
  const p = live.pending, r = live.request
  note("start")
  live.pending = p + 2; note("two answers started")
  live.answered = p + 2; note("both answered")
  live.pending = p + 1; note("a late count of started answers")
  live.answered = p + 1; note("a late count of answered")
  live.answer = [number + 2, '<p data-key="probe">newer</p>']; note("the newer answer")
  live.answer = [number + 1, '<p data-key="probe">older</p>']; note("an older answer, late")
  live.done = r + 1; note("a typed value answered before its request was counted")
  live.request = r + 1; note("its request")
  live.done = r; note("a late done")
  live.request = r + 2; note("another typed value")
  live.pending = p + 3; note("its answer started")
  live.answered = p + 3; live.done = r + 2; note("and shown")
  return states
}""".replace("__DEEP__", DEEP)
"""Feeds the page's live answer the messages a server may send, some of them late (older values
after newer ones), and notes the badge and the answer shown after each."""


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_late_messages_never_undo_a_newer_answer(served: str, browser: Any, width: str) -> None:
    context, page = _page(browser, width)
    try:
        page.goto(f"{served}/calc/scrollhammer.morale-check")
        page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached")
        page.locator('[data-key="p_pass_exact"]').first.wait_for()
        states = page.evaluate(LATE_MESSAGES)
        assert states == [
            ["start", "idle", None],
            ["two answers started", "busy", None],
            ["both answered", "idle", None],
            ["a late count of started answers", "idle", None],
            ["a late count of answered", "idle", None],
            ["the newer answer", "idle", "newer"],
            ["an older answer, late", "idle", "newer"],
            ["a typed value answered before its request was counted", "idle", "newer"],
            ["its request", "idle", "newer"],
            ["a late done", "idle", "newer"],
            ["another typed value", "busy", "newer"],
            ["its answer started", "busy", "newer"],
            ["and shown", "idle", "newer"],
        ]
        # an answer overdue for NUDGE_MS with nothing typed: the page nudges the server, at most
        # once per NUDGE_MS (a no-op event that sends on an update waiting on the server's side)
        pings = page.evaluate(OVERDUE)
        assert 1 <= pings <= 2
    finally:
        context.close()


OVERDUE = """async () => {
  let live = null
  for (const doc of Bokeh.documents) {
    for (const m of doc._all_models.values()) {
      if (m.data && m.data.answered !== undefined && m.data.ping !== undefined) live = m.data
    }
  }
  const before = live.ping, p = live.pending
  live.pending = p + 1  // started, not yet shown
  await new Promise((done) => setTimeout(done, __WAIT__))
  live.answered = p + 1
  return live.ping - before
}""".replace("__WAIT__", str(NUDGE_MS * 2 + 300))
"""Marks an answer started and not shown for twice the nudge delay; returns the nudges sent."""
