"""Issue 15, in a real browser: names from an uploaded game log and values typed into a form show
as the text they are in every live front-end (the tracker, the replay calculator, a form's error
line, the tracker's list of saved games and its "continue your last game" link), never as
markup: no element is created from them and no script of theirs runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

ARMY = "<img src=x onerror=window.__pwned=1><b class=pwned>bold</b>"
UNIT = '"><svg onload=window.__pwned=2>'

LOG = f"""format: army-morale-log/1
armies:
  a:
    name: {ARMY!r}
    detachments:
      - {{id: foot, name: {UNIT!r}, points: 150, strength: units, initial_strength: 10}}
  b:
    name: Red
    detachments:
      - {{id: riders, points: 150, strength: units, initial_strength: 10}}
"""


def _no_markup_from_user_text(page: Any) -> None:
    """Nothing the hostile names would create exists (Playwright's CSS locators pierce Panel's
    shadow roots), and none of their handlers ran."""
    assert page.locator("img[src=x]").count() == 0
    assert page.locator("b.pwned").count() == 0
    assert page.locator("svg[onload]").count() == 0
    assert page.evaluate("window.__pwned") is None


def _hostile_log(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.yaml"
    path.write_text(LOG, encoding="utf-8")
    return path


def test_tracker_shows_hostile_army_names_as_text(served: str, page: Any, tmp_path: Path) -> None:
    page.goto(f"{served}/app/army-morale-tracker")
    page.wait_for_function("location.search.startsWith('?game=')")
    page.locator(".am-upload input[type=file]").first.set_input_files(str(_hostile_log(tmp_path)))
    yes = page.locator(".am-confirm-yes button").first
    name = page.locator(".am-status").get_by_text("bold</b>", exact=False).first  # the name, literally
    # a fresh game has nothing to lose: the tracker may load the log without asking first
    yes.or_(name).filter(visible=True).first.wait_for()
    if yes.is_visible():
        yes.click()
    name.wait_for()
    _no_markup_from_user_text(page)
    page.reload()  # and the same from the stored game
    page.locator(".am-status").get_by_text("bold</b>", exact=False).first.wait_for()
    _no_markup_from_user_text(page)
    game = page.evaluate("new URLSearchParams(location.search).get('game')")
    # a new tracker page: the list of saved games and the "continue" link name the armies, as text
    page.goto(f"{served}/app/army-morale-tracker")
    page.wait_for_function(f"location.search.startsWith('?game=') && !location.search.includes({game!r})")
    page.locator(".am-games summary").first.click()
    row = page.locator(f'.am-games tr[data-game="{game}"]').first
    row.wait_for()
    assert "bold</b>" in row.inner_text()
    last = page.locator(".am-last-game").first
    last.locator(".am-continue").wait_for()
    assert "bold</b>" in last.inner_text()
    _no_markup_from_user_text(page)
    # the remembered title is text even when someone wrote markup into the browser's storage
    page.evaluate(
        "localStorage.setItem('rulesbook.army-morale.last-game', JSON.stringify("
        "{game: 'javascript:alert(1)', title: '<img src=x onerror=window.__pwned=3>'}))"
    )
    page.reload()
    page.wait_for_function("location.search.startsWith('?game=')")
    page.locator(".am-games summary").first.wait_for()
    assert page.locator(".am-continue").count() == 0 or not page.locator(".am-continue").first.is_visible()
    page.evaluate(
        "localStorage.setItem('rulesbook.army-morale.last-game', JSON.stringify("
        f"{{game: {game!r}, title: '<img src=x onerror=window.__pwned=3>'}}))"
    )
    page.reload()
    page.locator(".am-continue").first.wait_for()
    assert "<img src=x" in page.locator(".am-last-game").first.inner_text()
    assert page.locator(".am-continue").first.get_attribute("href") == f"?game={game}"
    _no_markup_from_user_text(page)
    assert page.external_requests == []


def test_replay_shows_an_uploaded_hostile_log_as_text(served: str, page: Any, tmp_path: Path) -> None:
    page.goto(f"{served}/calc/army-morale.replay")
    page.locator("input[type=file]").first.set_input_files(str(_hostile_log(tmp_path)))
    page.get_by_text("bold</b>", exact=False).first.wait_for()
    _no_markup_from_user_text(page)
    assert page.external_requests == []


def test_a_typed_hostile_value_comes_back_as_text_in_the_error_line(served: str, page: Any) -> None:
    page.goto(f"{served}/calc/wh40k.datasheet-attack")
    box = page.locator(".rb-input-weapons input").first
    box.fill(ARMY)
    box.press("Enter")
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    assert "weapons" in error.inner_text() and "<img" in error.inner_text()
    _no_markup_from_user_text(page)
