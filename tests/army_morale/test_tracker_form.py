"""The tracker's event form and its discarding actions (issue 13), checked without a browser.

* every box of the event form takes its label, default and bounds from the event's declaration,
  whatever kind was chosen before;
* the side of an event and the side of its detachment always agree: an event about a detachment
  has no side box, and the change lands on the army that owns the detachment;
* nothing that discards recorded events happens without a confirmation; the log exports and
  imports as the documented YAML log.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulesbook.inputs import ChoiceInput, IntInput
from rulesbook.systems.army_morale.log import EVENT_KINDS, EVENT_TYPES
from rulesbook.systems.army_morale.logfile import log_from_text
from rulesbook.systems.army_morale.tracker import FORM_SLOTS, Tracker, form_boxes
from widgets.army_morale.games import GameStore
from widgets.army_morale.tracker import TrackerView


def _click(view: TrackerView, css: str) -> None:
    (button,) = [b for b in view.view.select() if css in getattr(b, "css_classes", [])]
    button.clicks += 1


@pytest.mark.parametrize("before", list(EVENT_TYPES))
@pytest.mark.parametrize("kind", list(EVENT_TYPES))
def test_each_box_takes_its_default_and_bounds_from_the_declaration(before: str, kind: str) -> None:
    if before == kind:
        pytest.skip("choosing the same kind again keeps what was typed")
    view = TrackerView()
    view.event["kind"].value = before
    if view.event["number"].visible:
        view.event["number"].value = view.event["number"].end or 5  # a value typed for the other kind
    view.event["kind"].value = kind
    boxes = form_boxes(kind)
    for slot in FORM_SLOTS:
        widget = view.event[slot]
        assert widget.visible == (slot in boxes), (kind, slot)
        if slot not in boxes:
            continue
        declared = boxes[slot]
        assert widget.name == declared.title
        if isinstance(declared, IntInput):
            assert (widget.start, widget.end, widget.value) == (
                declared.minimum,
                declared.maximum,
                declared.initial,
            ), (kind, slot)
        elif isinstance(declared, ChoiceInput) and slot != "side":
            assert list(widget.options) == list(declared.choices) and widget.value == declared.initial


def test_no_event_kind_asks_for_a_side_and_a_detachment_at_once() -> None:
    for kind in EVENT_KINDS:
        boxes = set(form_boxes(kind.name))
        assert not ({"side"} & boxes and {"detachment", "war_engine"} & boxes), kind.name


@pytest.mark.parametrize("side_box", ["a", "b"])
def test_a_detachment_event_changes_the_army_that_owns_the_detachment(side_box: str) -> None:
    """Issue 13: side a chosen with "b: Boyz mob" once recorded Boyz losses against side a."""
    tracker = Tracker.example()
    for label, detachment in tracker.detachment_choices().items():
        owner = label.split(":", 1)[0]
        view = TrackerView()
        view.event["kind"].value = "half-strength"
        view.event["side"].value = side_box  # left over from another kind; never read for this one
        view.event["detachment"].value = detachment
        before = view.session.tracker.ledger().values
        _click(view, "am-add-event")
        after = view.session.tracker.ledger().values
        entry = view.session.tracker.ledger().entries[-1]
        assert entry.side == owner, (label, entry)
        changed = [s for s, b, a in zip("ab", before, after, strict=True) if a != b]
        assert changed in ([owner], []), (label, before, after)


def _status(view: TrackerView) -> tuple[str, str]:
    text = view.status.object
    return tuple(text.split(f'data-key="{s}_value">', 1)[1].split("<", 1)[0] for s in "ab")  # type: ignore[return-value]


def _bunker(view: TrackerView, roll: int) -> None:
    view.event["kind"].value = "bunker-destroyed"
    view.event["number"].value = roll
    _click(view, "am-add-event")


def test_undo_and_new_game_ask_first_and_no_keeps_everything(tmp_path: Any) -> None:
    store = GameStore(tmp_path)
    view = TrackerView(store=store, demo=True)
    _bunker(view, 4)
    assert _status(view) == ("14", "6")
    _click(view, "am-undo")
    assert view.confirm.visible and "bunker-destroyed (Side: a, D6 result: 4)" in view.confirm_text.object
    _click(view, "am-confirm-no")
    assert not view.confirm.visible and _status(view) == ("14", "6")
    first = view.game
    _click(view, "am-new-game")
    assert view.confirm.visible and "1 recorded action" in view.confirm_text.object
    assert first in view.confirm_text.object  # says where the old game stays
    _click(view, "am-confirm-yes")
    assert _status(view) == ("14", "10") and view.game != first
    assert "roll: 4" in (store.read(first) or "")  # the old game is still stored
    _click(view, "am-new-game")  # nothing played: nothing to confirm, nothing happens
    assert not view.confirm.visible


def test_export_then_import_gives_the_same_game_after_a_confirmation() -> None:
    view = TrackerView()
    _bunker(view, 3)
    view.event["kind"].value = "losses"
    view.event["detachment"].value = "boyz"
    view.event["number"].value = 2
    _click(view, "am-add-event")
    exported = view.download_file().getvalue()
    assert log_from_text(exported, "game.yaml") == view.session.tracker.log  # the documented log
    other = TrackerView()
    _bunker(other, 1)
    other.upload.filename = "game.yaml"
    other.upload.value = exported.encode()
    assert other.confirm.visible and "Load game.yaml in place of this game" in other.confirm_text.object
    assert _status(other) == ("14", "9")  # nothing loaded yet
    _click(other, "am-confirm-yes")
    assert other.session.tracker.log == view.session.tracker.log
    assert _status(other) == _status(view)


def test_the_notebook_tracker_asks_before_undo() -> None:
    from widgets.army_morale.session import ipy_tracker

    box = ipy_tracker()
    box.event["kind"].value = "bunker-destroyed"
    box.event["number"].value = 2
    box.add_event.click()
    assert 'data-key="b_value">8<' in box.output.value
    box.undo.click()
    assert box.confirm.layout.display is None and 'data-key="b_value">8<' in box.output.value
    box.confirm_no.click()
    assert box.confirm.layout.display == "none" and 'data-key="b_value">8<' in box.output.value
    box.undo.click()
    box.confirm_yes.click()
    assert 'data-key="b_value">10<' in box.output.value
