"""The tracker session behind the widgets: actions, rejections that keep the session, undo."""

from __future__ import annotations

import pytest

from rulesbook.errors import InputError
from rulesbook.systems.army_morale.tracker import Tracker, event_from_form, rally_from_form


@pytest.mark.covers(
    "army-morale.one-time.half-strength", "army-morale.ongoing.blast-markers", "army-morale.game-end"
)
def test_a_short_game_at_the_table() -> None:
    t = Tracker.example()  # Imperial Guard 14, Orks 10
    t = t.add(event_from_form("losses", detachment="boyz", number=12))  # 12 of 24 left: -4
    assert t.ledger().values == (14, 6)
    assert any("Boyz mob is at half strength" in w for w in t.ledger().warnings)
    with pytest.raises(InputError, match="already took its half-strength effect"):
        t.add(event_from_form("half-strength", detachment="boyz"))
    assert t.ledger().values == (14, 6)  # the rejected action changed nothing
    t = t.end_rally(rally_from_form(), rally_from_form(blast_markers=6))
    ledger = t.ledger()
    assert ledger.values == (14, 0) and ledger.verdict == "a" and ledger.ended_turn == 1
    with pytest.raises(InputError, match="the game already ended"):
        t.add(event_from_form("adjustment", side="b", number=3, reason="too late"))
    t = t.undo()  # the Rally phase goes, the game is open again
    assert t.turn == 1 and t.ledger().verdict == "continue"
    t = t.undo().undo()
    assert t.log.turns == () and t.ledger().values == (14, 10)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: event_from_form("losses", detachment="", number=2), "detachment: choose one"),
        (lambda: event_from_form("losses", detachment="boyz", number=0), "number: units"),
        (lambda: event_from_form("meteor"), "type: expected one of losses"),
        (lambda: event_from_form("war-engine-destroyed", war_engine="x", result="melted"), "result:"),
        (
            lambda: rally_from_form(take_and_hold="2, 4"),
            "take_and_hold: expected comma-separated results from 1 to 3",
        ),
        (lambda: rally_from_form(capture="steal 3"), "capture: expected entries like 'own 5'"),
        (lambda: rally_from_form(blast_markers=-1), "blast_markers: expected 0 or more"),
    ],
)
def test_form_errors_name_the_field(call: object, message: str) -> None:
    with pytest.raises(InputError) as info:
        call()  # type: ignore[operator]
    assert message in str(info.value)


def test_choices_and_unknown_ids() -> None:
    t = Tracker.example()
    assert t.detachment_choices()["b: Stompa pair"] == "stompas"
    assert t.war_engine_choices()["a: baneblade-2"] == "baneblade-2"
    with pytest.raises(InputError, match=r"turn 1, first event: unknown War Engine 'gargant'"):
        t.add(event_from_form("war-engine-destroyed", war_engine="gargant"))
