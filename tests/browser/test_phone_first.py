"""Phone-first live pages (issue 26, parts 4 and 5), at 390 px and 1280 px on one served site:

* a calculator embedded in a rule page keeps its inputs in the page's address (its hash): a
  reload opens it with them, and its full-page link follows them;
* "Compare with" shows the variant's headline beside the baseline's where the player looks —
  after picking a variant at the bottom of a long form on a phone, without scrolling;
* a stratagem is picked from a searchable list, and a half-typed one keeps the last answer.
"""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
RULE_PAGE = "/site/scrollhammer/rules/scrollhammer.morale.insane-heroism/"
CHAIN = "wh40k.attack-and-battle-shock"
VARIANT = "battle-shock-3d6"


SCROLL_BOXES = """() => {
  const found = []
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      const style = getComputedStyle(el)
      if (["auto", "scroll"].includes(style.overflowY) && el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 4) {
        found.push(`${el.tagName}.${el.className}`)
      }
      if (el.shadowRoot) walk(el.shadowRoot)
    }
  }
  walk(document)
  return found
}"""
"""Every element (through Panel's shadow roots) that scrolls its content inside itself."""

SIDE_WIDTHS = """() => {
  const found = []
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.classList.contains("rb-compare-side")) found.push(el.getBoundingClientRect().right <= innerWidth + 1)
      if (el.shadowRoot) walk(el.shadowRoot)
    }
  }
  walk(document)
  return found
}"""
"""For each side of a comparison on the page: whether it ends within the screen's width."""


def _sized(page: Any, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 844 if width < 700 else 900})


@pytest.mark.covers("scrollhammer.morale-check")
@pytest.mark.parametrize("width", [390, 1280])
def test_an_embedded_calculator_keeps_its_inputs_through_a_reload(served: str, page: Any, width: int) -> None:
    _sized(page, width)
    page.goto(f"{served}{RULE_PAGE}")
    frame = page.frame_locator("iframe.rb-live")
    box = frame.locator(".rb-input-ld input").first
    box.fill("9")
    box.press("Enter")
    frame.locator('[data-key="p_pass_exact"]', has_text="13/18").first.wait_for()  # Ld 9: 26 of 36
    page.wait_for_function("location.hash.includes('ld=9')")
    assert re.search(r"#live\?.*ld=9", page.url), page.url
    page.reload()
    frame = page.frame_locator("iframe.rb-live")
    frame.locator('[data-key="p_pass_exact"]', has_text="13/18").first.wait_for()
    assert frame.locator(".rb-input-ld input").first.input_value() == "9"
    full = page.locator("a.rb-full-page").first
    assert "/calc/scrollhammer.morale-check?" in str(full.get_attribute("href"))
    assert "ld=9" in str(full.get_attribute("href"))
    assert page.external_requests == []


@pytest.mark.covers(CHAIN, "wh40k.core.battle-shock")
@pytest.mark.parametrize("width", [390, 1280])
def test_compare_with_shows_the_variants_headline_without_scrolling(
    served: str, page: Any, width: int
) -> None:
    _sized(page, width)
    page.goto(f"{served}/calc/{CHAIN}")
    page.locator('[data-key="p_battle_shocked"]').first.wait_for()
    assert page.evaluate(SCROLL_BOXES) == []  # no box scrolling on its own: the result grows
    select = page.locator(".rb-input-variant select").first
    select.scroll_into_view_if_needed()  # the bottom of a long form, where "Compare with" is
    select.select_option(VARIANT)
    shown = page.locator(f'[data-summary-side="{VARIANT}"]').filter(visible=True)
    bar = page.locator('.rb-summary-bar[data-shown="true"]')
    table = page.locator(".rb-difference").first
    page.wait_for_function(
        f"""() => [...document.querySelectorAll('.rb-summary-bar')].some(b => b.textContent.includes('{VARIANT}'))"""
    )
    height = page.viewport_size["height"]
    # the player did not scroll: "Compare with" is still on the screen (the browser keeps it in
    # place while the longer comparison above it grows the page)
    where = select.bounding_box()
    assert where is not None and 0 <= where["y"] < height
    if bar.count():  # the result is off the screen: its summary line is pinned at the top
        box = bar.first.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
        assert "points" in bar.first.inner_text() and shown.count() >= 1
    else:  # the result itself is on the screen, the values side by side first
        box = table.bounding_box()
        assert box is not None and 0 <= box["y"] < height
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    page.screenshot(path=str(ROOT / "test-artifacts" / f"compare-{width}.png"))


@pytest.mark.covers("wh40k.death-guard.stratagem.gifts-of-decay")
def test_a_stratagem_is_picked_from_the_list_and_a_half_typed_one_keeps_the_answer(
    served: str, page: Any
) -> None:
    _sized(page, 390)
    page.goto(f"{served}/calc/wh40k.datasheet-attack")
    answer = page.locator('[data-key="mean_models_destroyed"]').first
    answer.wait_for()
    text = page.locator(".rb-input-stratagems input").first
    assert text.input_value() == "ferric-blight"  # the worked example's
    picker = page.locator(".rb-pick-stratagems input").first
    picker.click()
    picker.press_sequentially("gifts")  # the list narrows to the names holding it
    page.locator(".rb-pick-stratagems .choices__item--choice", has_text="gifts-of-decay").first.wait_for()
    page.keyboard.press("Enter")
    wanted = "ferric-blight, gifts-of-decay"
    expect(text).to_have_value(wanted)
    page.locator('.rb-answer[aria-busy="false"]').first.wait_for()
    assert page.locator('[data-key="error"]').count() == 0
    # typing a name letter by letter: one short line, the last answer kept, the field marked
    text.fill("ferric-blight, gifts-of-decay, bo")
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    message = error.inner_text()
    assert message.startswith("stratagems: Death Guard has no stratagem 'bo'") and "boilblight" in message
    assert len(message) < 140 and "\n" not in message
    assert page.locator(".rb-kept [data-key='mean_models_destroyed']").count() == 1
    assert page.locator(".rb-input-stratagems.rb-invalid").count() == 1
    assert page.external_requests == []


@pytest.mark.covers("scrollhammer.morale-check")
def test_a_tap_on_help_opens_it_without_focusing_the_input(served: str, browser: Any) -> None:
    """The "?" sits in the input's label: a tap shows the help and puts no cursor (and no phone
    keyboard) in the box; the tap target around the 18 px icon is 44 px."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{served}/calc/scrollhammer.morale-check")
        page.locator('[data-key="p_pass_exact"]').first.wait_for()
        icon = page.locator(".rb-input-ld .bk-description").first
        icon.scroll_into_view_if_needed()
        box = icon.bounding_box()
        assert box is not None
        # the tap lands 15 px right of the icon's centre: still the "?" (its 44 px target)
        page.touchscreen.tap(box["x"] + box["width"] / 2 + 15, box["y"] + box["height"] / 2)
        page.locator(".bk-tooltip-content").filter(visible=True).first.wait_for()
        focused = page.evaluate(
            "() => { let a = document.activeElement;"
            " while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;"
            " return a ? a.tagName : '' }"
        )
        assert focused != "INPUT"
    finally:
        context.close()


@pytest.mark.covers("wh40k.core.declared-effects", "wh40k.datasheet-attack")
def test_a_compared_variants_stratagem_is_offered_and_compared(served: str, page: Any) -> None:
    """Issue 24, part 7: comparing with Monster Hunters, its stratagem joins the pick list; picked,
    the variant's column applies it and the published rules' column answers without it."""
    from rulesbook.registry import registry
    from widgets.forms.compare import form_result_html

    calc = registry().calculator("wh40k.datasheet-attack")
    query = {
        "weapons": "the-lantern",
        "toughness": "10",
        "wounds": "12",
        "models": "1",
        "target_keywords": "monster",
    }
    values = {**calc.initial_values(), **query, "stratagems": "monster-hunters"}
    expected = re.findall(
        r'data-key="mean_wounds_lost">([^<]+)<', form_result_html(calc, values, "monster-hunters")
    )
    assert len(expected) == 2 and expected[0] != expected[1]  # baseline, then the variant

    _sized(page, 390)
    page.goto(f"{served}/calc/{calc.id}?{urllib.parse.urlencode(query)}&stratagems=")
    page.locator('[data-key="mean_models_destroyed"]').first.wait_for()
    option = page.locator(".rb-pick-stratagems .choices__item--choice", has_text="monster-hunters")
    page.locator(".rb-input-variant select").first.select_option("monster-hunters")
    option.first.wait_for(state="attached")  # the list has grown (it redraws, closed, when it does)
    picker = page.locator(".rb-pick-stratagems input").first
    picker.click()
    picker.press_sequentially("monster")
    option.first.wait_for()
    page.keyboard.press("Enter")
    expect(page.locator(".rb-input-stratagems input").first).to_have_value("monster-hunters")
    note = page.locator(".rb-warning", has_text="the published rules answer without monster-hunters").first
    note.wait_for()
    for side, shown in zip(("baseline", "monster-hunters"), expected, strict=True):
        cell = page.locator(f'[data-variant="{side}"] [data-key="mean_wounds_lost"]').filter(visible=True)
        expect(cell.first).to_have_text(shown)
    assert page.locator('[data-key="error"]').count() == 0
    assert page.evaluate(SIDE_WIDTHS) == [True, True]  # each side fits the phone's screen
    # back to the published rules alone: the name stays typed, and is refused by name
    page.locator(".rb-input-variant select").first.select_option("none")
    page.locator('[data-key="error"]', has_text="no stratagem 'monster-hunters'").first.wait_for()
    assert page.external_requests == []


@pytest.mark.covers("wh40k.datasheet-attack", "wh40k.death-guard.detachment.spread-the-sickness")
def test_the_datasheet_attack_at_a_phone_puts_the_inputs_under_the_answer(served: str, browser: Any) -> None:
    """Issue 37 on the 40k datasheet attack at 390 px: the main inputs right under the answer
    (its workings folded), the rest under "More inputs"; a number box opens the number keyboard,
    its steppers and the check boxes are 44 px targets; picking another detachment sets the
    Sickness back to none and says so — the answer never becomes an error."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(
            f"{served}/calc/wh40k.datasheet-attack?detachment=spread-the-sickness&sickness=rattlejoint-ague"
        )
        answer = page.locator('[data-key="mean_models_destroyed"]').first
        answer.wait_for()
        assert page.locator("details.rb-workings").first.get_attribute("open") is None  # folded on a phone
        first = page.locator(".rb-input-attacker input").first.bounding_box()
        assert first is not None and first["y"] + first["height"] < 844  # on the first screen
        assert page.locator(".rb-more").count() == 1
        toughness = page.locator(".rb-input-toughness input").first
        toughness.scroll_into_view_if_needed()
        box = toughness.bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + 10, box["y"] + 10)
        assert toughness.get_attribute("inputmode") == "numeric"
        for css in (".rb-input-toughness .bk-spin-btn-up", ".rb-input-toughness .bk-spin-btn-down"):
            size = page.locator(css).first.bounding_box()
            assert size is not None and size["width"] >= 44 and size["height"] >= 44
        page.locator(".rb-input-toughness .bk-spin-btn-up").first.tap()
        expect(toughness).to_have_value("5")
        cover = page.locator(".rb-input-cover input[type=checkbox]").first
        size = cover.bounding_box()
        assert size is not None and size["width"] >= 44 and size["height"] >= 44
        page.locator(".rb-input-cover .bk-label").first.tap()  # its text ticks it too
        upload = page.locator(".rb-input-faction input[type=file]").first.bounding_box()  # an army list
        assert upload is not None and upload["height"] >= 44
        expect(cover).to_be_checked()
        # the Sickness came with the detachment: another detachment sets it to none, said above the answer
        detachment = page.locator(".rb-input-detachment input").first
        detachment.fill("verminous-haze")
        detachment.press("Enter")
        note = page.locator('[data-key="mended"]', has_text="Sickness set to none").first
        note.wait_for()
        expect(page.locator(".rb-input-sickness select").first).to_have_value("none")
        assert page.locator('[data-key="error"]').count() == 0
        page.wait_for_function("location.search.includes('sickness=none')")
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        page.screenshot(path=str(ROOT / "test-artifacts" / "datasheet-attack-390.png"))
    finally:
        context.close()
