"""Live pages at the table: readable on a 390 px phone and on a desktop, titled, with a way home.

Screenshots land in ``test-artifacts/live-pages/`` (gitignored) for a person to look at.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.browser.conftest import ROOT, read_value

pytestmark = pytest.mark.browser

SHOTS = ROOT / "test-artifacts" / "live-pages"
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}


def _status(url: str, method: str = "GET") -> int:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize(
    ("path", "key"),
    [("calc/scrollhammer.morale-check", None), ("app/army-morale-tracker?demo=1", "a_value")],
)
def test_live_page_is_readable_without_zoom(
    served: str, browser: Any, path: str, key: str | None, width: str
) -> None:
    w, h = WIDTHS[width]
    context = browser.new_context(viewport={"width": w, "height": h}, is_mobile=width == "phone")
    page = context.new_page()
    try:
        page.goto(f"{served}/{path}")
        page.locator(".rb-result, [data-key]").first.wait_for()
        if key:
            assert read_value(page, key)
        # the page is laid out at the device's width: no sideways scrolling, text not shrunk
        assert page.evaluate("window.innerWidth") == w
        assert page.evaluate("document.documentElement.scrollWidth") <= w + 1
        assert page.locator('meta[name="viewport"]').count() == 1
        assert "rulesbook" in page.title() and "." not in page.title().split(" · ")[0]
        home = page.locator('.rb-nav a[href="/site/"]').first
        home.wait_for(state="visible")  # (the result may be drawn a moment before the header)
        # the result is on the first screen (beside the form, or above it on a phone)
        box = page.locator(".rb-result, [data-key]").first.bounding_box()
        assert box is not None and box["y"] < h
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{path.replace('/', '_')}-{width}.png"), full_page=True)
    finally:
        context.close()


def test_root_not_found_and_bad_paths(served: str) -> None:
    assert _status(f"{served}/", "HEAD") in (200, 301, 302)
    assert _status(f"{served}/no-such-page") == 404
    assert _status(f"{served}/calc/no-such-calculator") == 404
    assert _status(f"{served}/site/%00") == 400
    assert _status(f"{served}/site/%ff") in (400, 404)
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(f"{served}/no-such-page", timeout=10)
    assert "/site/" in info.value.read().decode()


def test_tracker_is_reachable_from_the_site_navigation(served: str, page: Any) -> None:
    page.goto(f"{served}/site/")
    page.get_by_role("link", name="Live calculators and apps").first.click()
    page.get_by_role("link", name="Army Morale tracker").first.click()
    page.wait_for_url("**/app/army-morale-tracker")
    page.locator(".am-setup-a-name input").first.wait_for()  # a new game: the set-up form
    page.locator(".am-demo button").first.click()  # the demo armies only on request
    assert read_value(page, "a_value") == "14"
    assert "Army morale tracker" in page.title()


@pytest.mark.covers("army-morale.army.value")
def test_web_replay_takes_an_uploaded_log(served: str, page: Any, tmp_path: Any) -> None:
    page.goto(f"{served}/calc/army-morale.replay")
    assert read_value(page, "a_name") == "Imperial Guard"  # the example game the server chose
    assert page.locator(".rb-input-log input[type=text]").count() == 0  # no server path box
    log = tmp_path / "mine.yaml"
    log.write_text(
        "armies:\n  a: {name: Red, detachments: [{id: x, points: 100, initial_strength: 4}]}\n"
        "  b: {name: Blue, detachments: []}\n"
    )
    page.locator(".rb-input-log input[type=file]").first.set_input_files(str(log))
    page.locator('[data-key="a_name"]', has_text="Red").first.wait_for()
    (tmp_path / "bad.txt").write_text("x")
    page.locator(".rb-input-log input[type=file]").first.set_input_files(str(tmp_path / "bad.txt"))
    assert "upload a .yaml/.yml/.json file" in page.locator('[data-key="error"]').first.inner_text()


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("calc/wh40k.attack", "save_modifier"),  # a long help text
        ("calc/warstrike.starting-phase", "officer_lds"),
        ("calc/scrollhammer.morale-check", "ld"),
    ],
)
def test_an_input_s_help_opens_on_the_screen(
    served: str, browser: Any, path: str, key: str, width: str
) -> None:
    """Each input's "?" shows its help text (plain, backticks dropped) wholly on the screen: by a
    tap on a phone, by pointing at it on a desktop; the rule-text block opens and closes."""
    from rulesbook.registry import registry

    calc = registry().calculator(path.split("/", 1)[1])
    text = next(i.help for i in calc.inputs if i.key == key).replace("`", "")
    w, h = WIDTHS[width]
    phone = width == "phone"
    context = browser.new_context(viewport={"width": w, "height": h}, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    try:
        page.goto(f"{served}/{path}")
        page.locator("[data-key]").first.wait_for()
        icon = page.locator(f".rb-input-{key} .bk-description").first
        icon.scroll_into_view_if_needed()
        if phone:
            icon.tap()
        else:
            icon.hover()
        shown = page.locator(".bk-tooltip-content", has_text=text[:40]).first
        shown.wait_for(state="visible")
        assert shown.inner_text().strip() == text
        box = shown.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= w, box  # nothing cut off at the sides
        assert box["y"] >= 0 and box["y"] + box["height"] <= h, box
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"help-{key}-{width}.png"))
        rules = page.locator("details.rb-rules").first
        assert rules.get_attribute("open") is not None  # open on its own page
        page.locator("details.rb-rules > summary").first.click()
        assert rules.get_attribute("open") is None
    finally:
        context.close()


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_rule_choices_open_count_and_survive_a_reload(served: str, browser: Any, width: str) -> None:
    """The interpretation inputs wait in a closed "Rule choices" section; opened, a choice changes
    the answer and goes into the URL, and a reload (or the link) opens the section with it."""
    from rulesbook.registry import registry

    calc = registry().calculator("scrollhammer.morale-check")
    start = {**calc.initial_values(), "modifier": 1}
    before = calc.run(**start)["p_pass_exact"]
    after = calc.run(**{**start, "positive_modifiers": "ignored"})["p_pass_exact"]
    assert before != after
    w, h = WIDTHS[width]
    context = browser.new_context(viewport={"width": w, "height": h}, is_mobile=width == "phone")
    page = context.new_page()
    try:
        page.goto(f"{served}/calc/{calc.id}?modifier=1")
        assert read_value(page, "p_pass_exact") == before
        choice = page.locator(".rb-input-positive_modifiers select")
        assert choice.count() == 0  # not built while the section is closed
        page.get_by_text("Rule choices (4)").first.click()
        choice.first.select_option("ignored")
        page.locator('[data-key="p_pass_exact"]', has_text=after).first.wait_for()
        # the address follows the answer (the server writes it back a moment later)
        page.wait_for_function("() => location.search.includes('positive_modifiers=ignored')")
        assert "modifier=1" in page.url
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"rule-choices-{width}.png"), full_page=True)
        page.reload()
        assert read_value(page, "p_pass_exact") == after
        assert choice.first.input_value() == "ignored"  # the section is open, with the choice
    finally:
        context.close()
