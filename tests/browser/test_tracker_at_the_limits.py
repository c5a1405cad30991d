"""The tracker at its size limits, in a real browser (issue 33, part 4): a stored game that does
not open is read-only with its reason and its file to download; one event past the limit, in
either of two tabs, is refused and told with the entry kept; an upload whose stored form would
be over the limit is not loaded, and said so. Every acknowledged event stays on disk."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest

from rulesbook.systems.army_morale.logfile import log_from_text
from tests.army_morale.test_size_limits import _most_events, _text
from tests.browser.conftest import choose_event_kind

pytestmark = pytest.mark.browser

TRACKER = "/app/army-morale-tracker"


def _stored(games: Path, text: str) -> str:
    """A new game id whose file holds ``text``."""
    game = secrets.token_urlsafe(12)
    games.mkdir(parents=True, exist_ok=True)
    (games / f"{game}.yaml").write_text(text, encoding="utf-8")
    return game


def _wait(page: Any, key: str, text: str) -> None:
    page.locator(f'[data-key="{key}"]', has_text=text).first.wait_for()


def _add(page: Any, amount: int, reason: str) -> None:
    choose_event_kind(page, "adjustment")
    for box, value in ((".am-number input", str(amount)), (".am-reason input", reason)):
        page.locator(box).first.fill(value)
        page.locator(box).first.press("Enter")
    page.locator(".am-add-event button").first.click()


def test_a_game_that_does_not_open_is_read_only_with_its_file(
    page: Any, served: str, served_games: Path
) -> None:
    """What a 338 KB upload plus one event used to leave: opened at its own address, read-only,
    with the reason and the file as it is; no form to change it; listed among the saved games."""
    text = _text(_most_events("x", "values") + 1)
    game = _stored(served_games, text)
    page.goto(f"{served}{TRACKER}?game={game}")
    _wait(page, "read-only", "more than 50,000 values in all")
    assert page.locator(".am-add-event").first.is_hidden() and page.locator(".am-setup").first.is_hidden()
    with page.expect_download() as info:
        page.locator(".am-download button, .am-download a").first.click()
    assert Path(info.value.path()).read_bytes() == text.encode()
    assert info.value.suggested_filename == f"{game}.yaml"
    assert page.url.endswith(f"?game={game}")
    page.locator(f'.am-games [data-game="{game}"]').first.wait_for(state="attached")
    assert (served_games / f"{game}.yaml").read_text(encoding="utf-8") == text


def test_one_event_past_the_limit_is_refused_and_told(page: Any, served: str, served_games: Path) -> None:
    """A game one event below the limit of values: that event is saved; one more is refused and
    said so, the entry kept; on disk every acknowledged event (two tabs: the unit tests). An
    upload whose stored form would be over 1,000,000 bytes is not loaded, and said so."""
    most = _most_events("x", "values")
    game = _stored(served_games, _text(most - 1))
    page.goto(f"{served}{TRACKER}?game={game}")
    _wait(page, "save", "Saved")
    _add(page, -1, "x")
    _wait(page, "a_value", "13")  # (shown once the file was replaced)
    stored = (served_games / f"{game}.yaml").read_bytes()
    assert sum(len(t.events) for t in log_from_text(stored.decode()).turns) == most
    _add(page, -2, "one too many")
    _wait(page, "error", "more than 50,000 values in all")
    _wait(page, "save", "not saved")
    assert page.locator(".am-reason input").first.input_value() == "one too many"  # the entry stays
    assert page.locator(".am-number input").first.input_value() == "-2"
    assert (served_games / f"{game}.yaml").read_bytes() == stored
    # a near-limit upload whose stored form would be larger: refused, and this game stays
    quotes, events = "'" * 4000, 240
    upload = _text(events, quotes).replace(f"'{quotes * 2}'", f'"{quotes}"')
    assert len(upload.encode()) <= 1_000_000 < len(_text(events, quotes).encode())
    path = served_games.parent / f"{game}-upload.yaml"
    path.write_text(upload, encoding="utf-8")
    page.locator(".am-upload input[type=file]").first.set_input_files(str(path))
    page.locator('[data-key="confirm"]').first.wait_for()  # (this game has events: asked first)
    page.locator(".am-confirm-yes button").first.click()
    _wait(page, "error", f"is not loaded: the game would be {len(_text(events, quotes).encode()):,} bytes")
    assert page.url.endswith(f"?game={game}") and (served_games / f"{game}.yaml").read_bytes() == stored
    assert page.external_requests == []
