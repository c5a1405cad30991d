"""A player who lost a game's address finds the game again from the tracker page.

The tracker keeps each game at ``?game=<id>``; opening the tracker from the navigation starts a
new page. That page links the last game played in this browser ("Continue your last game",
remembered in ``localStorage``) and lists the server's saved games (``am-games``). At a phone's
width (390 px) and a desktop's: record something, open the tracker from the site's list of live
tools, continue the game (by the link, then by the list) — nothing is lost.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import choose_event_kind, read_value

pytestmark = pytest.mark.browser

TRACKER = "/app/army-morale-tracker"


def _game(url: str) -> str:
    found = re.search(r"[?&]game=([A-Za-z0-9_-]+)", url)
    assert found, url
    return found[1]


def _record_a_bunker(page: Any) -> None:
    """Side a destroys a bunker with a 4: side b's value drops by 4."""
    before = int(read_value(page, "b_value"))
    choose_event_kind(page, "bunker-destroyed")  # (its number box reset before the 4 is typed)
    box = page.locator(".am-number input").first
    box.fill("4")
    box.press("Enter")
    page.locator(".am-add-event button").first.click()
    page.locator('[data-key="b_value"]', has_text=str(before - 4)).first.wait_for()


def _open_the_tracker_from_the_navigation(page: Any, served: str) -> None:
    page.goto(f"{served}/site/live/")
    page.locator(f'a[href="{TRACKER}"]').first.click()
    page.wait_for_function("location.search.startsWith('?game=')")


def _fits(page: Any, css: str, width: int) -> None:
    box = page.locator(css).first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (css, box)


@pytest.mark.parametrize("width", [390, 1280])
def test_continue_the_last_game_after_losing_its_address(served: str, page: Any, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(f"{served}{TRACKER}")
    page.wait_for_function("location.search.startsWith('?game=')")
    page.locator(".am-demo button").first.click()  # (the demo armies, on request)
    # a page nobody played on offers nothing to continue in a fresh browser
    page.locator(".am-games summary").first.wait_for()
    assert page.locator(".am-continue").count() == 0 or not page.locator(".am-continue").first.is_visible()
    start_b = int(read_value(page, "b_value"))
    _record_a_bunker(page)
    _record_a_bunker(page)
    played = _game(page.url)
    values = (read_value(page, "a_value"), read_value(page, "b_value"))
    assert values[1] == str(start_b - 8)

    _open_the_tracker_from_the_navigation(page, served)
    assert _game(page.url) != played  # a new, empty game: where the player thought all was lost
    page.locator(".am-setup-a-name input").first.wait_for()  # (its set-up form)
    link = page.locator(".am-continue").first
    link.wait_for()
    assert "turn 1" in page.locator(".am-last-game").first.inner_text()
    _fits(page, ".am-last-game", width)
    # the server's list names the game too, with a link (folded to one line until tapped)
    page.locator(".am-games summary").first.click()
    row = page.locator(f'.am-games tr[data-game="{played}"]').first
    row.wait_for()
    assert "2" in row.locator("td").nth(2).inner_text()  # two actions recorded
    _fits(page, ".am-games", width)
    link.click()
    page.wait_for_function(f"location.search === '?game={played}'")
    page.locator('[data-key="b_value"]', has_text=str(start_b - 8)).first.wait_for()
    assert (read_value(page, "a_value"), read_value(page, "b_value")) == values
    ledger = page.locator(".am-ledger").first.inner_text()
    assert ledger.count("army-morale.one-time.bunker") == 2
    # the list marks this game, and the continue link is gone (it is this game)
    mine = page.locator(f'.am-games tr[data-game="{played}"]').first
    mine.wait_for(state="attached")  # the list is folded on a page that holds a game
    assert "this game" in (mine.text_content() or "")
    assert page.locator(".am-continue").count() == 0 or not page.locator(".am-continue").first.is_visible()

    # the list works as well: a new page, then "Open" on the game's row
    _open_the_tracker_from_the_navigation(page, served)
    page.locator(".am-games summary").first.click()
    page.locator(f'.am-games tr[data-game="{played}"] a.am-open-game').first.click()
    page.wait_for_function(f"location.search === '?game={played}'")
    page.locator('[data-key="b_value"]', has_text=str(start_b - 8)).first.wait_for()
    # still one game in the list per game played, the empty pages are not listed
    listed = page.locator(".am-games tr[data-game]")
    assert all(
        _game("?game=" + (listed.nth(i).get_attribute("data-game") or "")) for i in range(listed.count())
    )
    assert page.locator(f'.am-games tr[data-game="{played}"]').count() == 1
    assert page.external_requests == []
