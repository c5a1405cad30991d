"""Nothing acknowledged is lost at the size limits (issue 33, part 4).

The served tracker stores a game only as bytes that read back (at most 1,000,000 bytes, 50,000
values in all — the loader's limits, checked on the exact text written): a change past them is
refused with the reason, the game stays as last saved and the entry stays in the form, in either
of two tabs. A stored game that does not open is shown read-only — never as the demo armies,
never overwritten — with its file to download as it is. An upload is loaded only if its stored
form fits.

The values a text holds are counted by PyYAML's own composer (every node, keys and collections
included), not by the loader under test; the byte sizes by ``len(text.encode())``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesbook.systems.army_morale.log import GameLog, Turn
from rulesbook.systems.army_morale.logfile import log_from_text, log_to_text
from rulesbook.systems.army_morale.tracker import Tracker, event_from_form
from widgets.army_morale.games import MAX_LOG_BYTES, GameStore
from widgets.army_morale.saved_games import saved_games
from widgets.army_morale.tracker import TrackerView

MAX_VALUES = 50_000
"""The loader's limit of values in one file (rulesbook.data.LIMITS.max_nodes), as documented."""


def _click(view: TrackerView, css: str) -> None:
    (button,) = [b for b in view.view.select() if css in getattr(b, "css_classes", [])]
    button.clicks += 1


def _values(text: str) -> int:
    """Every node of the YAML text (scalars, keys, lists and mappings), by PyYAML's composer."""

    def count(node: yaml.Node) -> int:
        if isinstance(node, yaml.MappingNode):
            return 1 + sum(count(k) + count(v) for k, v in node.value)
        if isinstance(node, yaml.SequenceNode):
            return 1 + sum(count(v) for v in node.value)
        return 1

    return count(yaml.compose(text, Loader=yaml.SafeLoader))


def _log(events: int, reason: str = "x") -> GameLog:
    """The example armies with ``events`` adjustments (side a, 0, ``reason``) in turn 1."""
    log = Tracker.example().log
    event = event_from_form("adjustment", side="a", number=0, reason=reason)
    return replace(log, turns=(Turn(1, (event,) * events),))


@cache
def _text(events: int, reason: str = "x") -> str:
    """:func:`_log` as stored (made once: a game near 1,000,000 bytes takes seconds to write)."""
    return log_to_text(_log(events, reason))


@cache
def _most_events(reason: str, measure: str) -> int:
    """The most such events a stored game holds, by ``measure`` ("values" or "bytes"): each
    event adds the same amount, so two small games give the step."""
    size = _values if measure == "values" else (lambda text: len(text.encode("utf-8")))
    one, two = size(_text(1, reason)), size(_text(2, reason))
    limit = MAX_VALUES if measure == "values" else MAX_LOG_BYTES
    return 1 + (limit - one) // (two - one)


def _events(store: GameStore, game: str) -> int:
    return sum(len(t.events) for t in log_from_text(store.read(game) or "").turns)


def _entry(view: TrackerView, number: int, reason: str) -> None:
    view.event["kind"].value = "adjustment"
    view.event["number"].value = number
    view.event["reason"].value = reason


def _two_tabs_one_below(
    tmp_path: Path, reason: str, measure: str
) -> tuple[GameStore, TrackerView, TrackerView]:
    """Two tabs on a stored game one event below the limit."""
    most = _most_events(reason, measure)
    store = GameStore(tmp_path)
    store.save("limit-game", _text(most - 1, reason))
    return store, TrackerView(store=store, game="limit-game"), TrackerView(store=store, game="limit-game")


@pytest.mark.parametrize(("reason", "measure"), [("x", "values"), ("r" * 2000, "bytes")])
def test_a_game_at_its_limit_refuses_one_more_event_in_either_tab_and_keeps_every_saved_one(
    tmp_path: Path, reason: str, measure: str
) -> None:
    """The last event that fits is saved; one more, from the tab that saved it or from a tab
    that had not seen it, is refused and told, the stored game keeps every acknowledged event,
    and the entry stays in the form (before: a file over the limit was written, then a stale
    tab's "Saved" replaced it, or its "Add event" did nothing)."""
    most = _most_events(reason, measure)
    store, first, second = _two_tabs_one_below(tmp_path, reason, measure)
    _entry(first, -1, reason)
    _click(first, "am-add-event")
    assert 'data-key="save">Saved<' in first.saved.object
    stored = store.read("limit-game") or ""
    assert _events(store, "limit-game") == most
    assert (_values(stored) if measure == "values" else len(stored.encode())) <= (
        MAX_VALUES if measure == "values" else MAX_LOG_BYTES
    )
    for tab in (second, first):  # the stale tab, then the one that saved the last event
        _entry(tab, -2, reason)
        _click(tab, "am-add-event")
        limit = "50,000 values" if measure == "values" else f"{MAX_LOG_BYTES:,} a stored game may be"
        assert limit in tab.status.object and "the game stays as last saved" in tab.status.object
        assert limit in tab.saved.object and 'data-key="save">Saved<' not in tab.saved.object
        assert store.read("limit-game") == stored  # every acknowledged event kept, nothing else
        assert (tab.event["number"].value, tab.event["reason"].value) == (-2, reason)  # entry kept
    assert 'data-key="a_value">13<' in second.status.object  # the stale tab shows the latest game


def test_an_upload_is_loaded_only_when_its_stored_form_fits(tmp_path: Path) -> None:
    """An upload just under 1,000,000 bytes whose stored form is larger (apostrophes are doubled
    in the stored YAML) is refused with both sizes and the page stays on its game; one whose
    stored form fits is stored, reopens after a reload and is listed."""
    store = GameStore(tmp_path)
    page = TrackerView(store=store, demo=True)
    _entry(page, -1, "before the upload")
    _click(page, "am-add-event")
    game, shown = page.game, page.session.tracker.log
    quotes = "'" * 4000
    events = (MAX_LOG_BYTES - len(_text(0).encode())) // (len(quotes) + 60)
    upload = _text(events, quotes).replace(f"'{quotes * 2}'", f'"{quotes}"')
    assert len(upload.encode()) <= MAX_LOG_BYTES < len(_text(events, quotes).encode())
    assert log_from_text(upload) == _log(events, quotes)  # the same game
    page.load_text(upload, "near-limit.yaml")
    assert (
        f"log: near-limit.yaml is not loaded: the game would be {len(_text(events, quotes).encode()):,}"
        in (page.status.object)
    )
    assert page.game == game and 'data-key="save">Saved<' in page.saved.object
    assert page.session.tracker.log == shown and 'data-key="a_value">13<' in page.status.object
    assert [g for g, _ in store.recent()] == [game]  # nothing stored for the refused upload
    fits = _text(_most_events("r" * 2000, "bytes"), "r" * 2000)
    page.load_text(fits, "fits.yaml")
    assert page.game != game and 'data-key="save">Saved<' in page.saved.object
    assert store.read(page.game) == fits
    reloaded = TrackerView(store=store, game=page.game)
    assert reloaded.game == page.game and reloaded.session.tracker.log == log_from_text(fits)
    assert page.game in [g.game for g in saved_games(store)]


def _over_the_values_limit() -> bytes:
    """What a 338 KB upload plus one event used to store: one event more than a game holds."""
    return _text(_most_events("x", "values") + 1).encode()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (lambda: b"#" * (MAX_LOG_BYTES + 1), "the file is too large (1,000,001 bytes; at most 1,000,000)"),
        (_over_the_values_limit, "more than 50,000 values in all"),
        (lambda: b"armies: 3\n", "kept-game.yaml line 1 (armies): expected a mapping of key: value"),
    ],
)
def test_a_stored_game_that_does_not_open_is_read_only_and_never_overwritten(
    tmp_path: Path, content: Any, reason: str
) -> None:
    data = content()
    (tmp_path / "kept-game.yaml").write_bytes(data)
    store = GameStore(tmp_path)
    page = TrackerView(store=store, game="kept-game", demo=True)
    assert page.game == "kept-game" and page.read_only.visible  # its own address, never another
    assert not page.play.visible and page.setup is not None and not page.setup.view.visible
    assert "This game cannot be opened: " in page.read_only.object and reason in page.read_only.object
    assert page.download_file().read() == data  # the download gives the file as it is
    assert page.last_game is not None and page.last_game.game == ""  # not remembered as played
    for button in ("am-add-event", "am-end-rally", "am-undo", "am-demo", "am-start"):
        _click(page, button)  # (hidden on the page; even a click that reaches the server does nothing)
    page.poll()
    assert (tmp_path / "kept-game.yaml").read_bytes() == data and page.read_only.visible
    (line,) = saved_games(store)
    assert line.game == "kept-game" and reason in line.problem  # listed, so it stays reachable
    # the operator repairs the file: the page opens it at its next look
    store.save("kept-game", _text(1))
    page.poll()
    assert not page.read_only.visible and page.play.visible and 'data-key="a_value">14<' in page.status.object
    _entry(page, -1, "after the repair")
    _click(page, "am-add-event")
    assert _events(store, "kept-game") == 2
