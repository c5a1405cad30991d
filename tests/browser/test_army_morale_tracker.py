"""The Army Morale tracker app in a real browser: add an event, read back the new values."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import choose_event_kind, read_value

pytestmark = pytest.mark.browser


def _wait_value(page: Any, key: str, text: str) -> None:
    page.locator(f'[data-key="{key}"]', has_text=text).first.wait_for()


@pytest.mark.covers(
    "army-morale.one-time.bunker", "army-morale.one-time.half-strength", "army-morale.game-end"
)
def test_tracker_adds_an_event_and_shows_the_new_value(served: str, page: Any) -> None:
    page.goto(f"{served}/app/army-morale-tracker?demo=1")
    assert read_value(page, "a_value") == "14"
    assert read_value(page, "b_value") == "10"
    # side a destroys one of its Bunker objectives and rolls 4: side b loses 4
    choose_event_kind(page, "bunker-destroyed")
    box = page.locator(".am-number input").first
    box.fill("4")
    box.press("Enter")
    page.locator(".am-add-event button").first.click()
    _wait_value(page, "b_value", "6")
    assert read_value(page, "a_value") == "14"
    assert "army-morale.one-time.bunker" in page.locator(".rulesbook-table").first.inner_text()
    # a second half-strength effect for the same detachment is refused with a one-line error
    choose_event_kind(page, "half-strength")
    page.locator(".am-detachment select").first.select_option(label="b: Boyz mob")
    page.locator(".am-add-event button").first.click()
    _wait_value(page, "b_value", "2")
    page.locator(".am-add-event button").first.click()
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    assert "already took its half-strength effect" in error.inner_text()
    assert read_value(page, "b_value") == "2"
    assert page.external_requests == []


def _shown(page: Any, css: str) -> tuple[int, str]:
    """The selection a player sees in the drop-down ``css``: (selectedIndex, its label)."""
    index, label = page.locator(f"{css} select").first.evaluate(
        "s => [s.selectedIndex, s.selectedIndex < 0 ? '' : s.options[s.selectedIndex].text]"
    )
    return int(index), str(label)


def _newest_strength_note(page: Any) -> str:
    """The note of the newest army-morale.detachment.strength row of the ledger table."""
    row = page.locator(".rulesbook-table tr", has_text="army-morale.detachment.strength").first
    row.wait_for()
    return str(row.inner_text())


@pytest.mark.covers("army-morale.detachment.strength", "army-morale.one-time.war-engine-destroyed")
def test_drop_downs_show_the_detachment_an_event_goes_to(served: str, page: Any, tmp_path: Any) -> None:
    page.goto(f"{served}/app/army-morale-tracker?demo=1")
    assert read_value(page, "a_value") == "14"
    # nothing chosen yet: the boxes show a real selection, and it is the one the event uses
    assert _shown(page, ".am-detachment") == (0, "a: Infantry company")
    assert _shown(page, ".am-war-engine") == (0, "a: baneblade-1")
    box = page.locator(".am-number input").first
    box.fill("3")
    box.press("Enter")
    page.locator(".am-add-event button").first.click()
    assert "Infantry company loses 3: 17 of 20 units" in _newest_strength_note(page)
    # a War Engine chosen by its label: its Damage Capacity leaves the detachment shown with it
    choose_event_kind(page, "war-engine-destroyed")
    page.locator(".am-war-engine select").first.select_option(label="b: stompa-1")
    assert _shown(page, ".am-war-engine") == (3, "b: stompa-1")
    page.locator(".am-add-event button").first.click()
    # Orks 10: Stompa pair 6 of 12 (half strength, -5); Imperial Guard 14 + half of 3 rounded up
    _wait_value(page, "b_value", "5")
    assert read_value(page, "a_value") == "16"
    assert "stompa-1 destroyed: Stompa pair loses 6 Damage Capacity it still held" in _newest_strength_note(
        page
    )
    # a loaded log replaces the options: the boxes again show what the next event will use
    log = tmp_path / "mine.yaml"
    log.write_text(
        "armies:\n"
        "  a: {name: Red, detachments: [{id: scouts, name: Scouts, points: 100, initial_strength: 4}]}\n"
        "  b: {name: Blue, detachments: [{id: guns, name: Guns, points: 50, initial_strength: 2}]}\n"
    )
    page.locator(".am-upload input[type=file]").first.set_input_files(str(log))
    page.locator(".am-confirm-yes button").first.click()  # loading over a game in progress asks first
    _wait_value(page, "a_value", "2")
    assert _shown(page, ".am-detachment") == (0, "a: Scouts")
    assert _shown(page, ".am-war-engine") == (-1, "")  # no War Engines in this game
    choose_event_kind(page, "losses")
    box.fill("1")
    box.press("Enter")
    page.locator(".am-add-event button").first.click()
    assert "Scouts loses 1: 3 of 4 units" in _newest_strength_note(page)
    assert page.external_requests == []


@pytest.mark.covers("army-morale.one-time.destroyed-detachment-blast-markers")
def test_the_event_form_shows_only_the_chosen_kinds_fields(served: str, page: Any) -> None:
    """Issue 13: a number typed for one kind never carries over into another kind's event."""
    page.goto(f"{served}/app/army-morale-tracker?demo=1")
    assert read_value(page, "b_value") == "10"
    box = page.locator(".am-number input").first
    box.fill("3")
    box.press("Enter")
    choose_event_kind(page, "detachment-destroyed")
    assert box.input_value() == "0"  # the declared default of this kind, not the 3 typed before
    assert not page.locator(".am-side").first.is_visible()  # no side: the detachment's side counts
    page.locator(".am-detachment select").first.select_option(label="b: Buggy squadron")
    page.locator(".am-add-event button").first.click()
    # Orks 10: Buggy squadron (45 pts, value 1) destroyed with 0 Blast markers: half strength -1
    _wait_value(page, "b_value", "9")
    table = page.locator(".rulesbook-table").first.inner_text()
    assert "Buggy squadron destroyed with 0 Blast markers" in table
    assert page.external_requests == []
