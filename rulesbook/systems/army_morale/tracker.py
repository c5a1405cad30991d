"""The table-side tracker's logic: an immutable session around a game log.

The tracker widgets (``widgets/army_morale/tracker.py``) only collect form fields and show
results; everything else happens here and in the ledger. Each action returns a new
:class:`Tracker` after replaying the log, so an impossible action raises
:class:`~rulesbook.errors.InputError` and leaves the session as it was.

Example:
    >>> t = Tracker.example()
    >>> t.turn, t.ledger().values
    (1, (14, 10))
    >>> t = t.add(event_from_form("bunker-destroyed", side="a", number=4))
    >>> t.ledger().values
    (14, 6)
    >>> t = t.end_rally(rally_from_form(take_and_hold="2"), rally_from_form(blast_markers=3))
    >>> t.turn, t.ledger().values
    (2, (16, 3))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, cast

from rulesbook.errors import InputError, quote
from rulesbook.inputs import Input, IntInput, IntListInput, TextInput
from rulesbook.systems.army_morale.choices import CHOICES, ArmyMoraleChoices
from rulesbook.systems.army_morale.entries import Ledger
from rulesbook.systems.army_morale.log import (
    CAPTURE_ROLL,
    EVENT_TYPES,
    EXAMPLE_LOG,
    CaptureRoll,
    Event,
    EventKind,
    GameLog,
    Loc,
    RallySide,
    event_kind,
    rally_input,
)
from rulesbook.systems.army_morale.logfile import load_log
from rulesbook.systems.army_morale.names import detachment_names, war_engine_names
from rulesbook.systems.army_morale.replay import replay
from rulesbook.systems.army_morale.rules import CAPTURE_CHOICES, SIDES, added_effects
from rulesbook.systems.army_morale.setup import check_objectives

__all__ = [
    "FORM_SLOTS",
    "Tracker",
    "event_from_form",
    "form_boxes",
    "form_fields",
    "form_slot",
    "rally_from_form",
]

FORM_SLOTS = ("side", "detachment", "war_engine", "number", "result", "reason", "bunker", "effect")
"""The boxes of the tracker's event form; each event kind shows only the ones it uses."""


def form_slot(declared: Input) -> str:
    """The form box of a declared event field: every whole number shares the box ``number``.

    >>> [form_slot(f) for f in event_kind("bunker-destroyed").fields]
    ['side', 'number', 'bunker']
    """
    return "number" if isinstance(declared, IntInput) else declared.key


def form_fields(kind: EventKind) -> tuple[Input, ...]:
    """The fields of ``kind`` the form asks for: all but an optional reference to the army list
    (a drop-down always holds a choice, so it could not say "none").

    >>> [f.key for f in form_fields(event_kind("losses"))]
    ['detachment', 'lost']
    """
    return tuple(
        f for f in kind.fields if not (isinstance(f, TextInput) and f.refers and kind.optional(f.key))
    )


def form_boxes(kind: str) -> dict[str, Input]:
    """The form boxes event kind ``kind`` uses, each with the field it holds (label, bounds, default).

    >>> {box: f.key for box, f in form_boxes("detachment-destroyed").items()}
    {'detachment': 'detachment', 'number': 'blast_markers'}
    """
    return {form_slot(f): f for f in form_fields(event_kind(kind))}


def _phrase(label: str) -> str:
    """A label inside a sentence: ``Units lost`` -> ``units lost`` (``D6 result`` stays)."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def _form_value(kind: EventKind, declared: Input, slot: str, raw: Any) -> Any:
    """One form box's value checked against the declared field (errors name the box)."""
    if isinstance(declared, TextInput):
        text = str(raw or "").strip()
        if text:
            return text
        if declared.refers:
            raise InputError(slot, "choose one")
        if not declared.required:
            return declared.default
        if kind.optional(declared.key):
            return kind.default(declared.key)
        raise InputError(slot, f"enter {_phrase(declared.title)}")
    try:
        return declared.validate(raw)
    except InputError as exc:
        if slot == declared.key:
            raise
        # a shared box (``number``) says which of its meanings was wrong
        raise InputError(
            slot, f"{_phrase(declared.title)} must be {declared.allowed()}, got {quote(raw)}"
        ) from exc


def event_from_form(
    kind: str,
    *,
    side: str = "a",
    detachment: str = "",
    war_engine: str = "",
    number: int = 0,
    result: str = "destroyed",
    reason: str = "",
    bunker: str = "",
    effect: str = "",
) -> Event:
    """Build an event from the tracker's form: only the boxes of ``kind`` are read (see
    :func:`form_fields`), each checked against the event's declaration. ``number`` is the
    kind's whole-number field: units lost, Blast markers, the bunker's D6 or an amount.

    >>> event_from_form("losses", detachment="infantry", number=3)
    Losses(detachment='infantry', lost=3, war_engine='', type='losses')
    >>> event_from_form("bunker-destroyed", side="b", number=7)
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: number: D6 result must be an integer from 1 to 6, got 7
    """
    declared = event_kind(kind)
    boxes: dict[str, Any] = {
        "side": side,
        "detachment": detachment,
        "war_engine": war_engine,
        "number": number,
        "result": result,
        "reason": reason,
        "bunker": bunker,
        "effect": effect,
    }
    return declared.build(
        {f.key: _form_value(declared, f, form_slot(f), boxes[form_slot(f)]) for f in form_fields(declared)}
    )


def _ints(field: str, text: str) -> tuple[int, ...]:
    declared = cast(IntListInput, rally_input(field))
    low, high = declared.minimum, declared.maximum
    try:
        return declared.parse(text.replace(";", ",").strip(" ,"))
    except InputError:
        raise InputError(
            field, f"expected comma-separated results from {low} to {high}, got {quote(text)}"
        ) from None


def rally_from_form(
    *,
    blast_markers: int = 0,
    take_and_hold: str = "",
    rescue_escorts: int = 0,
    cleanse: int = 0,
    capture: str = "",
    effects: str = "",
) -> RallySide:
    """One side's end-of-Rally report from the form, checked against the declared report
    (:data:`~rulesbook.systems.army_morale.log.RALLY_INPUTS`): ``take_and_hold`` lists D3
    results (``"2, 3"``), ``capture`` lists ``own N`` or ``destroy N`` entries (``"own 5, destroy 2"``).

    >>> counts = rally_from_form(take_and_hold="2, 3", capture="destroy 4").counts()
    >>> counts.take_and_hold, counts.capture_destroy
    (2, 1)
    >>> rally_from_form(cleanse=100)
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: cleanse: expected 0 or more (up to 99), got 100
    """
    counts = {"blast_markers": blast_markers, "rescue_escorts": rescue_escorts, "cleanse": cleanse}
    for name, value in counts.items():
        declared = cast(IntInput, rally_input(name))
        if not declared.minimum <= value <= declared.maximum:
            raise InputError(
                name, f"expected {declared.minimum} or more (up to {declared.maximum}), got {value}"
            )
    captures, added = _captures(capture), _added_effects(effects)
    return RallySide(
        blast_markers=blast_markers,
        take_and_hold=_ints("take_and_hold", take_and_hold),
        rescue_escorts=rescue_escorts,
        cleanse=cleanse,
        capture=captures,
        effects=added,
    )


def _entries(text: str) -> Iterator[str]:
    """The entries of a box that lists them separated by commas (or semicolons)."""
    return (part for part in (p.strip() for p in text.replace(";", ",").split(",")) if part)


def _captures(text: str) -> tuple[CaptureRoll, ...]:
    """``own N`` or ``destroy N`` entries (D6 results) of the capture box."""
    captures = []
    for part in _entries(text):
        words = part.split()
        if (
            len(words) != 2
            or words[0] not in CAPTURE_CHOICES
            or not (words[1].isascii() and words[1].isdigit())
            or not CAPTURE_ROLL.minimum <= int(words[1]) <= CAPTURE_ROLL.maximum
        ):
            raise InputError(
                "capture", f"expected entries like 'own 5' or 'destroy 3' (D6 results), got {quote(part)}"
            )
        captures.append(CaptureRoll("own" if words[0] == "own" else "destroy", int(words[1])))
    return tuple(captures)


def _added_effects(text: str) -> tuple[tuple[str, int], ...]:
    """``KEY=COUNT`` entries of the morale-effects box (a bare key counts once), summed by key."""
    added: dict[str, int] = {}
    for part in _entries(text):
        key, eq, count = (w.strip() for w in part.partition("="))
        if not key or (eq and not (count.isascii() and count.isdigit())) or int(count or 1) > 99:
            raise InputError(
                "effects", f"expected entries like 'supply-lines=2' (KEY=COUNT), got {quote(part)}"
            )
        added[key] = added.get(key, 0) + int(count or 1)
    return tuple(added.items())


@dataclass(frozen=True, slots=True)
class Tracker:
    """A tracker session: the game log so far, played under ``choices`` (a designer's variant;
    the published rules by default). Every action returns a new, replayed session."""

    log: GameLog
    choices: ArmyMoraleChoices | None = None

    @classmethod
    def example(cls) -> Tracker:
        """The armies of the shipped example game, with nothing played yet."""
        return cls(replace(load_log(EXAMPLE_LOG).without_turns(), source=""))

    @property
    def turn(self) -> int:
        """The turn being played: the last one, unless its Rally phase is done."""
        if not self.log.turns:
            return 1
        last = self.log.turns[-1]
        return last.number + 1 if last.rally is not None else last.number

    @property
    def over(self) -> bool:
        """Whether the game has ended (at the end of a Rally phase): no turn is being played."""
        return self.ledger().ended_turn is not None

    def ledger(self) -> Ledger:
        """The replayed ledger, its messages in a player's words (``turn 1, second event``, never
        a line of a stored file; :func:`~rulesbook.systems.army_morale.replay.replay`)."""
        return replay(self.log, self.choices, in_words=True)

    def checked(self) -> Tracker:
        """This session, after checking that its log replays and keeps to the objectives its
        armies declare (InputError otherwise, naming the line of the file the log was read from:
        this is the check of a loaded log)."""
        check_objectives(self.log)
        replay(self.log, self.choices)
        return self

    def _checked(self, log: GameLog) -> Tracker:
        # an impossible action raises (in the player's words); the old session stays valid
        check_objectives(log)
        replay(log, self.choices, in_words=True)
        return Tracker(log, self.choices)

    def event_types(self) -> tuple[str, ...]:
        """The event kinds the form offers: ``effect`` only when the game's variant adds morale
        effects that happen during play.

        >>> "effect" in Tracker.example().event_types()
        False
        """
        return tuple(t for t in EVENT_TYPES if t != "effect" or self.effect_choices())

    def effect_choices(self) -> dict[str, str]:
        """Label -> key of the added morale effects logged as events (they apply immediately).

        >>> from rulesbook.variants import resolve_variant
        >>> t = replace(Tracker.example(), choices=resolve_variant("general-slain").apply(CHOICES))
        >>> t.effect_choices()
        {'Enemy general slain (+3, one-time)': 'general-slain'}
        >>> t.add(event_from_form("effect", side="a", effect="general-slain")).ledger().values
        (20, 13)
        """
        return {
            f"{e.name} ({e.value:+d}, {e.kind})": key
            for key, e in added_effects(self.choices or CHOICES)
            if not e.at_rally
        }

    def rally_effect_keys(self) -> tuple[str, ...]:
        """The added morale effects a Rally report may name (checked at step R4)."""
        return tuple(key for key, e in added_effects(self.choices or CHOICES) if e.at_rally)

    def add(self, event: Event) -> Tracker:
        """Record a one-time event in the current turn."""
        turn = self.turn
        index = len(self.log.turns[turn - 1].events) if len(self.log.turns) >= turn else 0
        located = replace(event, at=Loc(0, f"turns[{turn - 1}].events[{index}]"))
        return self._checked(self.log.with_event(turn, located))

    def end_rally(self, a: RallySide, b: RallySide) -> Tracker:
        """Record the end of the current turn's Rally phase (step R4) and move to the next turn."""
        turn = self.turn
        at = Loc(0, f"turns[{turn - 1}].rally")
        return self._checked(self.log.with_rally(turn, replace(a, at=at), replace(b, at=at)))

    @property
    def actions(self) -> int:
        """How many actions (events and ended Rally phases) the game holds: what a new game or
        a load over it would set aside.

        >>> Tracker.example().add(event_from_form("bunker-destroyed", number=4)).actions
        1
        """
        return sum(len(t.events) + (t.rally is not None) for t in self.log.turns)

    def last_action(self) -> str:
        """What :meth:`undo` would remove, in words ("" when nothing is recorded): detachments
        and War Engines by name (numbered as the form offers them).

        >>> t = Tracker.example().add(event_from_form("losses", detachment="boyz", number=3))
        >>> t.last_action()
        'turn 1: losses (Detachment: Boyz mob, Units (or Damage Capacity) lost: 3)'
        >>> t.end_rally(rally_from_form(), rally_from_form()).last_action()
        'turn 1: the end of the Rally phase'
        """
        names = {
            "detachment": detachment_names(self.log),
            "war-engine": war_engine_names(self.log),
            "effect": _flipped(self.effect_choices()),
        }
        for turn in reversed(self.log.turns):
            if turn.rally is not None:
                return f"turn {turn.number}: the end of the Rally phase"
            if turn.events:
                event = turn.events[-1]
                parts = []
                for f in event_kind(event.type).fields:
                    value = getattr(event, f.key)
                    if value in ("", None):
                        continue
                    if isinstance(f, TextInput) and f.refers in names:
                        value = names[f.refers].get(value, value)
                    parts.append(f"{f.title}: {value}")
                return f"turn {turn.number}: {event.type} ({', '.join(parts)})"
        return ""

    def undo(self) -> Tracker:
        """Remove the last recorded action (a Rally phase, else an event)."""
        if not self.log.turns:
            return self
        turns = list(self.log.turns)
        last = turns[-1]
        if last.rally is not None:
            turns[-1] = replace(last, rally=None)
        elif last.events:
            turns[-1] = replace(last, events=last.events[:-1])
        else:
            turns.pop()
            return replace(self, log=replace(self.log, turns=tuple(turns))).undo()
        if not turns[-1].events and turns[-1].rally is None:
            turns.pop()
        return replace(self, log=replace(self.log, turns=tuple(turns)))

    def detachment_choices(self) -> dict[str, str]:
        """Label -> detachment ID for a form's drop-down (``a: Infantry company``); two of one
        name on a side are numbered, so each can be picked."""
        names = detachment_names(self.log)
        return {
            f"{s}: {names[d.id]}": d.id
            for s, army in zip(SIDES, self.log.armies, strict=True)
            for d in army.detachments
        }

    def war_engine_choices(self) -> dict[str, str]:
        """Label -> War Engine ID for a form's drop-down: every War Engine can be picked, two of
        one name on a side numbered (``b: Stompa (1)``, ``b: Stompa (2)``).

        >>> from rulesbook.systems.army_morale.setup import army_from_form
        >>> stompas = {"name": "Stompas", "points": "240", "strength": "damage-capacity",
        ...     "war_engines": "Stompa 6 120 pts, Stompa 6 120 pts"}
        >>> foot = {"name": "Guard", "points": "100", "units": "10"}
        >>> log = GameLog((army_from_form("a", "A", [foot]), army_from_form("b", "B", [stompas])))
        >>> Tracker(log).war_engine_choices()
        {'b: Stompa (1)': 'stompa-1', 'b: Stompa (2)': 'stompa-2'}
        """
        names = war_engine_names(self.log)
        return {
            f"{s}: {names[w.id]}": w.id
            for s, army in zip(SIDES, self.log.armies, strict=True)
            for d in army.detachments
            for w in d.war_engines
        }


def _flipped(choices: dict[str, str]) -> dict[str, str]:
    """ID -> label of a drop-down's label -> ID."""
    return {key: label for label, key in choices.items()}
