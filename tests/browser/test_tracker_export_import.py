"""The tracker in a real browser (issue 13): download the game's YAML log, load one, and a
confirmation before anything sets recorded events aside (undo, loading over a game, a new game)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import choose_event_kind, running
from tests.browser.test_tracker_keeps_the_game import _server

pytestmark = pytest.mark.browser


def _b(page: Any, text: str) -> None:
    page.locator('[data-key="b_value"]', has_text=text).first.wait_for()


def _bunker(page: Any, roll: int) -> None:
    choose_event_kind(page, "bunker-destroyed")
    box = page.locator(".am-number input").first
    box.fill(str(roll))
    box.press("Enter")
    page.locator(".am-add-event button").first.click()


def _question(page: Any) -> str:
    loc = page.locator('[data-key="confirm"]').first
    loc.wait_for()
    return str(loc.inner_text())


@pytest.mark.covers("army-morale.one-time.bunker")
def test_download_undo_load_and_new_game_ask_before_discarding(page: Any, tmp_path: Path) -> None:
    site, games = tmp_path / "site", tmp_path / "games"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html><title>site</title>")
    log = (tmp_path / "serve.log").open("w")
    proc, base = _server(site, games, log)
    with running(proc, log, f"{base}/site/", "serve", 120):
        page.goto(f"{base}/app/army-morale-tracker?demo=1")
        page.wait_for_function("location.search.startsWith('?game=')")
        _bunker(page, 4)  # side a destroys a bunker and rolls 4: side b 10 -> 6
        _b(page, "6")
        # export: the documented YAML log of this game
        with page.expect_download() as info:
            page.locator(".am-download button, .am-download a").first.click()
        exported = tmp_path / "exported.yaml"
        info.value.save_as(exported)
        text = exported.read_text()
        assert "bunker-destroyed" in text and "roll: 4" in text
        # undo asks, says what it removes, and "no" keeps the game
        page.locator(".am-undo button").first.click()
        assert "Undo turn 1: bunker-destroyed (Side: a, D6 result: 4)?" in _question(page)
        page.locator(".am-confirm-no button").first.click()
        page.locator('[data-key="confirm"]').first.wait_for(state="detached")
        _b(page, "6")
        # another event, then loading the exported log over this game asks first
        _bunker(page, 1)
        _b(page, "5")
        page.locator(".am-upload input[type=file]").first.set_input_files(str(exported))
        assert "Load exported.yaml in place of this game (2 recorded actions)?" in _question(page)
        assert page.locator('[data-key="b_value"]').first.inner_text() == "5"  # nothing loaded yet
        game = page.url
        page.locator(".am-confirm-yes button").first.click()
        _b(page, "6")  # the exported game, as a new game at its own address
        page.wait_for_function(f"location.href !== {game!r}")
        # a new game with the same armies asks too, and the old one stays at its address
        page.locator(".am-new-game button").first.click()
        assert "Start a new game with the same armies?" in _question(page)
        page.locator(".am-confirm-yes button").first.click()
        _b(page, "10")
        page.goto(game)
        _b(page, "5")  # the game before the load is still there
        assert page.external_requests == []
