"""What the tracker shows a player names things as the player does (issue 37): two War Engines
of one name are both offered and both recorded, and no message shows an internal ID or a line
of the stored game's file — also after the game went through its stored text (a reload)."""

from __future__ import annotations

import re

import pytest

from rulesbook.systems.army_morale.log import GameLog
from rulesbook.systems.army_morale.logfile import log_from_text, log_to_text
from rulesbook.systems.army_morale.names import detachment_names, war_engine_names
from rulesbook.systems.army_morale.setup import army_from_form
from rulesbook.systems.army_morale.tracker import Tracker, event_from_form, rally_from_form
from widgets.army_morale.session import Session, status_html

STOMPAS = {
    "name": "Big Stompas",
    "points": "240",
    "strength": "damage-capacity",
    "war_engines": "Stompa 6 120 pts, Stompa 6 120 pts",
}


def _game() -> Tracker:
    blue = army_from_form("a", "Blue host", [{"name": "Infantry", "points": "225", "units": "20"}])
    red = army_from_form(
        "b", "Red horde", [{"name": "Boyz", "points": "200", "units": "24"}, STOMPAS], {"bunkers": "ridge"}
    )
    return Tracker(GameLog((blue, red)))


def _reloaded(tracker: Tracker) -> Tracker:
    """The game as a served tracker reads it back from its stored file (every entry has a line)."""
    return Tracker(log_from_text(log_to_text(tracker.log), "this game")).checked()


def _ids(tracker: Tracker) -> set[str]:
    """The internal IDs that differ from the names a player gave."""
    log = tracker.log
    named = {**detachment_names(log), **war_engine_names(log)}
    return {key for key, name in named.items() if key != name}


@pytest.mark.covers("army-morale.one-time.war-engine-destroyed")
def test_two_war_engines_of_one_name_are_both_offered_and_both_destroyed() -> None:
    t = _game()
    choices = t.war_engine_choices()
    assert list(choices) == ["b: Stompa (1)", "b: Stompa (2)"]
    for label in choices:
        t = _reloaded(t.add(event_from_form("war-engine-destroyed", war_engine=choices[label])))
    notes = [e.note for e in t.ledger().entries if e.rule == "army-morale.one-time.war-engine-destroyed"]
    assert notes == [
        "enemy Stompa (1) destroyed: half of its Morale value 3",
        "enemy Stompa (2) destroyed: half of its Morale value 3",
    ]
    # Blue host gains half of each Stompa's Morale value (120 pts -> 3, half rounded up: 2)
    start = Tracker(t.log.without_turns()).ledger().values
    assert t.ledger().values[0] == start[0] + 2 + 2
    assert "Stompa (2)" in t.last_action() and "stompa-2" not in t.last_action()


def _refusals(t: Tracker) -> list[str]:
    """Every refusal a player can meet after a reload, as the tracker shows it."""
    choices = t.war_engine_choices()
    t = t.add(event_from_form("war-engine-destroyed", war_engine=choices["b: Stompa (2)"]))
    t = t.add(event_from_form("half-strength", detachment="boyz"))
    t = t.add(event_from_form("detachment-destroyed", detachment="infantry", number=2))
    t = t.add(event_from_form("bunker-destroyed", side="b", number=3, bunker="ridge"))
    t = _reloaded(t)
    attempts = [
        event_from_form("war-engine-destroyed", war_engine=choices["b: Stompa (2)"]),
        event_from_form("half-strength", detachment="boyz"),
        event_from_form("losses", detachment="infantry", number=1),
        event_from_form("losses", detachment="boyz", number=25),
        event_from_form("bunker-destroyed", side="b", number=3, bunker="ridge"),
    ]
    shown = []
    for event in attempts:
        session = Session(t)
        session.apply(lambda event=event: t.add(event))
        assert session.error, event
        shown.append(session.error)
    return shown


def test_no_message_shows_an_internal_id_or_a_line_of_the_stored_file() -> None:
    t = _game()
    messages = _refusals(t)
    assert messages[0] == (
        "turn 1, fifth event: War Engine Stompa (2) was already destroyed (turn 1, first event); it counts once"
    )
    for message in messages:
        assert not re.search(r"\bline \d", message), message
        assert not message.startswith("log:"), message
        for key in _ids(t):
            assert key not in message, (key, message)


@pytest.mark.covers("army-morale.game-end")
def test_a_finished_game_shows_the_turn_it_ended_in() -> None:
    t = Tracker.example().end_rally(rally_from_form(), rally_from_form(blast_markers=10))
    assert t.ledger().ended_turn == 1 and t.turn == 2
    page = status_html(t)
    assert "wins at the end of turn 1" in page
    assert 'data-key="turn">1<' in page and ">last turn<" in page


def test_the_ledger_is_a_card_per_entry_with_its_rule_linked() -> None:
    t = _game().add(event_from_form("bunker-destroyed", side="b", number=3, bunker="ridge"))
    page = status_html(t, site="/site/")
    cards = re.findall(r'<li class="am-card">.*?</li>', page)
    assert len(cards) == len(t.ledger().entries)
    newest = cards[0]
    # what happened first, then the change and both values, then the rule as a link
    assert newest.index("am-what") < newest.index("am-change") < newest.index("am-rule")
    assert "<b>Blue host −3</b> → Blue host 2 · Red horde 9" in newest
    assert '<a href="/site/army-morale/rules/army-morale.one-time.bunker/">Objectives: Bunker</a>' in newest
    assert "Log line" not in page  # the table of a wide screen keeps no line column either
