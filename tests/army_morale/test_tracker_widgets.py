"""The tracker front-ends (Panel and ipywidgets) drive the ledger; no browser needed here."""

from __future__ import annotations

from typing import Any

import pytest

from rulesbook.registry import registry
from rulesbook.systems.army_morale.log import EXAMPLE_LOG
from widgets.army_morale.session import ipy_tracker
from widgets.army_morale.tracker import TrackerView


def _click(view: TrackerView, css: str) -> None:
    """Press the Panel button carrying the CSS class ``css``."""
    (button,) = [b for b in view.view.select() if css in getattr(b, "css_classes", [])]
    button.clicks += 1


@pytest.mark.covers(
    "army-morale.one-time.bunker", "army-morale.ongoing.blast-markers", "army-morale.game-end"
)
def test_panel_tracker_adds_events_and_ends_rally_phases() -> None:
    assert registry().apps["army-morale-tracker"].panel == "widgets.army_morale.tracker:served_tracker"
    view = TrackerView()
    assert 'data-key="a_value">14<' in view.status.object and 'data-key="b_value">10<' in view.status.object
    view.event["kind"].value = "bunker-destroyed"
    view.event["number"].value = 4
    _click(view, "am-add-event")
    assert 'data-key="b_value">6<' in view.status.object
    view.rally["b"]["blast_markers"].value = 6
    _click(view, "am-end-rally")
    assert 'data-key="b_value">0<' in view.status.object
    assert "Imperial Guard (side a) wins at the end of turn 1" in view.status.object
    _click(view, "am-undo")  # asks first: nothing is removed yet
    assert view.confirm.visible and "Undo turn 1: the end of the Rally phase?" in view.confirm_text.object
    assert 'data-key="b_value">0<' in view.status.object
    _click(view, "am-confirm-yes")
    assert not view.confirm.visible
    assert 'data-key="turn">1<' in view.status.object and "the game goes on" in view.status.object


def test_panel_tracker_shows_one_line_errors_and_keeps_state() -> None:
    view = TrackerView()
    view.event["kind"].value = "half-strength"
    view.event["detachment"].value = "boyz"
    _click(view, "am-add-event")
    _click(view, "am-add-event")
    assert 'data-key="error">turn 1, second event: detachment' in view.status.object
    assert "already took its half-strength effect (turn 1, first event)" in view.status.object
    assert 'data-key="b_value">6<' in view.status.object  # 10 - 4, once
    assert "Boyz mob is at half strength" in view.status.object


def test_panel_tracker_loads_a_game_log() -> None:
    view = TrackerView()
    view.load_text(EXAMPLE_LOG.read_text(), "example-game.yaml")
    assert 'data-key="a_value">3<' in view.status.object and 'data-key="b_value">-6<' in view.status.object
    assert "wins at the end of turn 3" in view.status.object
    view.load_text("armies: {a: {name: Red, detachments: []}}\n", "mine.yaml")
    assert "mine.yaml line 1 (armies): missing key &#x27;b&#x27;" in view.status.object
    assert 'data-key="a_value">3<' in view.status.object  # the loaded game stays
    view.load_text(
        "armies:\n  a: {name: Red, detachments: [{id: x, points: 100, initial_strength: 4}]}\n"
        "  b: {name: Blue, detachments: []}\n",
        "mine.yaml",
    )
    assert (
        list(view.event["detachment"].options) == ["a: x"] and 'data-key="a_value">2<' in view.status.object
    )


def test_ipywidgets_tracker() -> None:
    box = ipy_tracker()
    box.event["kind"].value = "adjustment"
    box.event["side"].value = "b"
    box.event["number"].value = -2
    box.event["reason"].value = "scenario"
    box.add_event.click()
    assert 'data-key="b_value">8<' in box.output.value
    box.rally["a"]["take_and_hold"].value = "4"
    box.end_rally.click()
    assert "take_and_hold: expected comma-separated results from 1 to 3" in box.output.value
    box.rally["a"]["take_and_hold"].value = "3"
    box.end_rally.click()
    assert 'data-key="a_value">17<' in box.output.value and 'data-key="turn">2<' in box.output.value


@pytest.mark.covers("army-morale.detachment.strength")
def test_panel_drop_downs_always_hold_the_choice_they_show() -> None:
    view = TrackerView()
    detachment, engine = view.event["detachment"], view.event["war_engine"]
    assert (detachment.value, engine.value) == ("infantry", "baneblade-1")  # the first, explicitly
    view.event["number"].value = 2
    _click(view, "am-add-event")
    assert "Infantry company loses 2: 18 of 20 units" in view.status.object
    # a loaded log keeps a choice that still exists and otherwise selects its first detachment
    detachment.value = "boyz"
    view.load_text(EXAMPLE_LOG.read_text(), "example-game.yaml")
    assert detachment.value == "boyz"
    view.load_text(
        "armies:\n  a: {name: Red, detachments: [{id: x, points: 100, initial_strength: 4}]}\n"
        "  b: {name: Blue, detachments: [{id: y, points: 50, initial_strength: 2}]}\n",
        "mine.yaml",
    )
    assert (detachment.value, engine.value) == ("x", None)


@pytest.mark.covers("army-morale.detachment.strength")
def test_ipywidgets_drop_downs_send_the_detachment_they_show() -> None:
    box = ipy_tracker()
    detachment, engine = box.event["detachment"], box.event["war_engine"]
    assert (detachment.index, detachment.label, detachment.value) == (0, "a: Infantry company", "infantry")
    assert (engine.index, engine.label, engine.value) == (0, "a: baneblade-1", "baneblade-1")
    box.event["number"].value = 2
    box.add_event.click()
    assert "Infantry company loses 2: 18 of 20 units" in box.output.value
    detachment.label = "b: Boyz mob"
    assert detachment.value == "boyz"
    box.add_event.click()
    assert "Boyz mob loses 2: 22 of 24 units" in box.output.value


def test_served_tracker_keeps_the_game_in_the_store(tmp_path: Any) -> None:
    from widgets.army_morale.games import GameStore

    store = GameStore(tmp_path)
    view = TrackerView(store=store, game="not a game id/..", demo=True)
    game = view.game
    assert GameStore.valid(game) and store.read(game) is None  # written at the first change
    assert f"<code>{game}</code>" in view.saved.object and "when the game starts" in view.saved.object
    view.event["kind"].value = "bunker-destroyed"
    view.event["number"].value = 4
    _click(view, "am-add-event")
    assert 'data-key="b_value">6<' in view.status.object
    assert view.game == game and "roll: 4" in (store.read(game) or "")
    assert "Saved on the server as game" in view.saved.object
    # a new page (a reload, or a server restarted on the same games directory) opens the game
    again = TrackerView(store=GameStore(tmp_path), game=game)
    assert again.game == game and 'data-key="b_value">6<' in again.status.object
    # loading a log starts a new game: the old one is still stored, never overwritten
    again.load_text(EXAMPLE_LOG.read_text(), "example-game.yaml")
    assert again.game != game and 'data-key="b_value">6<' in TrackerView(store=store, game=game).status.object
    assert f"<code>{again.game}</code>" in again.saved.object


def test_tracker_pages_left_alone_write_no_file_and_keep_their_address(tmp_path: Any) -> None:
    """Opening pages writes nothing; a page reloaded before any change keeps its address (a
    blank page again, nothing lost); the first change writes the game under that address."""
    from widgets.army_morale.games import GameStore

    store = GameStore(tmp_path / "games")
    pages = [TrackerView(store=store, demo=True) for _ in range(5)]
    pages.append(TrackerView(store=store, game="../../etc/passwd"))
    games = {page.game for page in pages}
    assert len(games) == len(pages) and all(GameStore.valid(g) for g in games)
    assert not store.root.exists() and store.recent() == []
    # a reload before any change: the same address, the same blank page, still no file
    reloaded = TrackerView(store=store, game=pages[0].game, demo=True)
    assert reloaded.game == pages[0].game and 'data-key="b_value">10<' in reloaded.status.object
    reloaded.event["kind"].value = "bunker-destroyed"  # choosing in the form is no change
    assert not store.root.exists()
    # the first change writes the game, under the address the page has had since it opened
    reloaded.event["number"].value = 4
    _click(reloaded, "am-add-event")
    assert [game for game, _ in store.recent()] == [pages[0].game]
    again = TrackerView(store=store, game=pages[0].game, demo=True)
    assert again.stored and 'data-key="b_value">6<' in again.status.object
    # undo back to a blank log rewrites the stored file (a reload must not bring the event back)
    _click(again, "am-undo")
    _click(again, "am-confirm-yes")
    assert 'data-key="b_value">10<' in TrackerView(store=store, game=again.game).status.object
    # a new game of the example armies is a blank page too: a new address, no file yet
    _click(reloaded, "am-add-event")
    _click(reloaded, "am-new-game")
    _click(reloaded, "am-confirm-yes")
    assert reloaded.game != pages[0].game and store.read(reloaded.game) is None
    assert len(store.recent()) == 1


def test_a_new_game_of_loaded_armies_is_written_at_once(tmp_path: Any) -> None:
    """Armies from a loaded log are not a blank page: a reload must find them, so the new game
    (same armies, nothing played) is written when it starts."""
    from dataclasses import replace

    from rulesbook.systems.army_morale.logfile import load_log, log_to_text
    from widgets.army_morale.games import GameStore

    log = load_log(EXAMPLE_LOG)
    store = GameStore(tmp_path)
    view = TrackerView(store=store, demo=True)
    view.load_text(log_to_text(replace(log, armies=(replace(log.armies[0], name="Blue"), log.armies[1]))))
    loaded = view.game
    assert store.read(loaded) is not None
    view.new_game()
    assert view.game != loaded and view.stored
    assert view.session.tracker.actions == 0 and view.session.tracker.log.army("a").name == "Blue"
    assert TrackerView(store=store, game=view.game).session.tracker.log == view.session.tracker.log


def test_served_tracker_lists_the_saved_games_and_remembers_the_played_one(tmp_path: Any) -> None:
    """A page nobody played on is neither listed nor remembered; a played game is both, and the
    list follows its changes (newest first)."""
    import os

    from widgets.army_morale.games import GameStore
    from widgets.army_morale.saved_games import saved_games

    store = GameStore(tmp_path)
    first = TrackerView(store=store, demo=True)
    assert saved_games(store) == [] and first.last_game is not None and first.last_game.game == ""
    assert "No saved games yet" in first.games.object
    first.event["kind"].value = "bunker-destroyed"
    first.event["number"].value = 4
    _click(first, "am-add-event")
    assert first.last_game.game == first.game and first.last_game.title.endswith("turn 1")
    assert [(g.game, g.actions) for g in saved_games(store)] == [(first.game, 1)]
    assert "<em>this game</em>" in first.games.object
    # a second page: empty (not listed), it links the first game and lists it, open
    second = TrackerView(store=store, demo=True)
    assert second.last_game is not None and second.last_game.game == ""
    assert f'href="?game={first.game}"' in second.games.object
    # a game played later comes first; a change to the first moves it back to the top
    second.load_text(EXAMPLE_LOG.read_text(), "example-game.yaml")
    later = second.game
    os.utime(store.root / f"{first.game}.yaml", (1, 1))  # an old game
    assert [g.game for g in saved_games(store)] == [later, first.game]
    _click(first, "am-add-event")
    top = saved_games(store)[0]
    assert (top.game, top.actions) == (first.game, 2)


def test_the_saved_games_list_shows_names_as_text(tmp_path: Any) -> None:
    from dataclasses import replace

    from rulesbook.systems.army_morale.logfile import load_log, log_to_text
    from widgets.army_morale.games import GameStore
    from widgets.army_morale.saved_games import games_html, saved_games

    name = '<img src=x onerror=alert(1)>"&'
    log = load_log(EXAMPLE_LOG)
    store = GameStore(tmp_path)
    store.save(
        "hostile-game", log_to_text(replace(log, armies=(replace(log.armies[0], name=name), log.armies[1])))
    )
    (line,) = saved_games(store)
    assert line.a_name == name
    page = games_html([line])
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;&quot;&amp;" in page
