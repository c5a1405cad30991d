"""The Army Morale tracker app in a real browser: add an event, read back the new values."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import read_value

pytestmark = pytest.mark.browser


def _wait_value(page: Any, key: str, text: str) -> None:
    page.locator(f'[data-key="{key}"]', has_text=text).first.wait_for()


@pytest.mark.covers(
    "army-morale.one-time.bunker", "army-morale.one-time.half-strength", "army-morale.game-end"
)
def test_tracker_adds_an_event_and_shows_the_new_value(served: str, page: Any) -> None:
    page.goto(f"{served}/app/army-morale-tracker")
    assert read_value(page, "a_value") == "14"
    assert read_value(page, "b_value") == "10"
    # side a destroys one of its own bunkers and rolls 4: side b loses 4
    page.locator(".am-event-type select").first.select_option("bunker-destroyed")
    box = page.locator(".am-number input").first
    box.fill("4")
    box.press("Enter")
    page.locator(".am-add-event button").first.click()
    _wait_value(page, "b_value", "6")
    assert read_value(page, "a_value") == "14"
    assert "army-morale.one-time.bunker" in page.locator(".rulesbook-table").first.inner_text()
    # a second half-strength effect for the same detachment is refused with a one-line error
    page.locator(".am-event-type select").first.select_option("half-strength")
    page.locator(".am-detachment select").first.select_option(label="b: Boyz mob")
    page.locator(".am-add-event button").first.click()
    _wait_value(page, "b_value", "2")
    page.locator(".am-add-event button").first.click()
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    assert "already took its half-strength effect" in error.inner_text()
    assert read_value(page, "b_value") == "2"
    assert page.external_requests == []
