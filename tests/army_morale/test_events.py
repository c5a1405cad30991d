"""Each event kind is declared once: the reader, the writer, the tracker form and its help all
follow the declaration, with the same bounds."""

from __future__ import annotations

import pytest

from rulesbook.errors import InputError
from rulesbook.inputs import ChoiceInput, IntInput, TextInput
from rulesbook.systems.army_morale.log import EVENT_KINDS, EVENT_TYPES, RALLY_INPUTS
from rulesbook.systems.army_morale.logfile import log_from_text, log_to_data
from rulesbook.systems.army_morale.tracker import Tracker, event_from_form, form_boxes, rally_from_form
from tests.army_morale.test_ledger import ARMIES
from widgets.army_morale.session import event_help, ipy_tracker
from widgets.army_morale.tracker import TrackerView

FIRST_EVENT = ARMIES + "turns:\n  - turn: 1\n    events:\n      - {type: %s}\n"


def _read_event(fields: str) -> object:
    return log_from_text(FIRST_EVENT % fields, "game.yaml").turns[0].events[0]


def _valid(kind_name: str) -> dict[str, object]:
    """A value for every field of ``kind_name`` that passes its declaration."""
    kind = next(k for k in EVENT_KINDS if k.name == kind_name)
    out: dict[str, object] = {}
    for f in kind.fields:
        if isinstance(f, IntInput):
            out[f.key] = f.minimum
        elif isinstance(f, ChoiceInput):
            out[f.key] = f.choices[-1]
        else:
            out[f.key] = {"detachment": "foot", "war_engine": "titan-1"}.get(f.key, "north")
    return out


@pytest.mark.parametrize("kind", EVENT_KINDS, ids=lambda k: k.name)
def test_the_reader_and_the_form_share_every_bound(kind: object) -> None:
    from rulesbook.systems.army_morale.log import EventKind

    assert isinstance(kind, EventKind)
    for f in kind.fields:
        if not isinstance(f, IntInput):
            continue
        for value, ok in (
            (f.minimum, True),
            (f.maximum, True),
            (f.minimum - 1, False),
            (f.maximum + 1, False),
        ):
            fields = {**_valid(kind.name), f.key: value}
            text = ", ".join(f"{k}: {v}" for k, v in {"type": kind.name, **fields}.items())
            read = FIRST_EVENT.replace("{type: %s}", "{" + text + "}")
            box = {"side": "a", "detachment": "foot", "war_engine": "titan-1", "number": value}
            if ok:
                assert getattr(log_from_text(read).turns[0].events[0], f.key) == value
                assert getattr(event_from_form(kind.name, **box), f.key) == value  # type: ignore[arg-type]
            else:
                with pytest.raises(
                    InputError, match=f"{f.key} must be an integer from {f.minimum} to {f.maximum}"
                ):
                    log_from_text(read)
                with pytest.raises(
                    InputError, match=f"^number: .* must be an integer from {f.minimum} to {f.maximum}"
                ):
                    event_from_form(kind.name, **box)  # type: ignore[arg-type]


def test_lost_is_bounded_in_the_form_as_in_the_reader() -> None:
    # the reader always bounded lost to 10,000; the form used to accept any number >= 1
    with pytest.raises(InputError, match=r"number: units .* from 1 to 10000, got 10001"):
        event_from_form("losses", detachment="boyz", number=10_001)


@pytest.mark.parametrize("kind", EVENT_KINDS, ids=lambda k: k.name)
def test_written_events_read_back_and_use_only_declared_keys(kind: object) -> None:
    from rulesbook.systems.army_morale.log import EventKind

    assert isinstance(kind, EventKind)
    event = kind.build(_valid(kind.name))
    log = log_from_text(FIRST_EVENT % "adjustment, side: a, amount: 1, reason: x")
    log = log.without_turns().with_event(1, event)
    (written,) = log_to_data(log)["turns"][0]["events"]
    assert set(written) <= {"type", *(f.key for f in kind.fields)}
    assert written["type"] == kind.name
    text = ", ".join(f"{k}: {v}" for k, v in written.items() if k != "type")
    assert _read_event(f"{kind.name}, {text}") == event


def test_unknown_keys_name_the_declared_fields() -> None:
    with pytest.raises(InputError, match="unknown key 'roll'; allowed: type, detachment, blast_markers"):
        _read_event("detachment-destroyed, detachment: foot, roll: 3")


def test_the_form_shows_only_the_chosen_kinds_boxes() -> None:
    assert list(form_boxes("losses")) == ["detachment", "number"]
    assert list(form_boxes("war-engine-destroyed")) == ["war_engine", "result"]
    assert list(form_boxes("adjustment")) == ["side", "number", "reason"]
    # boxes of other kinds are ignored, not recorded
    event = event_from_form("half-strength", detachment="boyz", number=7, side="b", reason="x")
    assert event == event_from_form("half-strength", detachment="boyz")
    assert all(k in EVENT_TYPES for k in (k.name for k in EVENT_KINDS))
    assert "army-morale.one-time.bunker" in event_help("bunker-destroyed")
    assert "(1 to 6)" in event_help("bunker-destroyed")


def test_panel_form_resets_the_number_when_the_kind_changes() -> None:
    """Issue 13: after "losses 3", a destroyed detachment must not carry 3 Blast markers."""
    view = TrackerView()
    number = view.event["number"]
    number.value = 3
    view.event["kind"].value = "detachment-destroyed"
    assert (number.value, number.start, number.end, number.name) == (0, 0, 99, "Blast markers it carried")
    assert not view.event["side"].visible and not view.event["war_engine"].visible
    view.event["kind"].value = "bunker-destroyed"
    assert (number.value, number.start, number.end) == (1, 1, 6) and view.event["side"].visible
    assert "Bunker" in view.hint.object and "`army-morale.one-time.bunker`" in view.hint.object


def test_ipywidgets_form_hides_the_other_kinds_boxes() -> None:
    box = ipy_tracker()
    box.event["number"].value = 3
    box.event["kind"].value = "war-engine-destroyed"
    assert box.event["number"].layout.display == "none"
    assert box.event["war_engine"].layout.display is None
    box.event["kind"].value = "detachment-destroyed"
    assert box.event["number"].value == 0 and box.event["number"].description == "Blast markers it carried"


def test_rally_form_and_reader_share_bounds() -> None:
    declared = {f.key: f for f in RALLY_INPUTS}
    markers = declared["blast_markers"]
    assert isinstance(markers, IntInput)
    rally_from_form(blast_markers=markers.maximum)
    with pytest.raises(InputError, match=f"blast_markers: expected 0 or more \\(up to {markers.maximum}\\)"):
        rally_from_form(blast_markers=markers.maximum + 1)
    with pytest.raises(InputError, match=f"blast_markers must be an integer from 0 to {markers.maximum}"):
        log_from_text(
            ARMIES + f"turns:\n  - turn: 1\n    rally: {{a: {{blast_markers: {markers.maximum + 1}}}}}\n"
        )
    assert isinstance(declared["capture"], TextInput)


def test_tracker_records_a_named_bunker() -> None:
    t = Tracker.example().add(event_from_form("bunker-destroyed", side="a", number=2, bunker="north"))
    with pytest.raises(InputError, match="bunker 'north' of side a was already destroyed"):
        t.add(event_from_form("bunker-destroyed", side="a", number=3, bunker="north"))
