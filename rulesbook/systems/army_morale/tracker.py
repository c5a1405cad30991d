"""The table-side tracker's logic: an immutable session around a game log.

The tracker widgets (``widgets/army_morale_app.py``) only collect form fields and show
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

from dataclasses import dataclass, replace
from typing import Literal

from rulesbook.errors import InputError
from rulesbook.systems.army_morale.ledger import (
    EVENT_TYPES,
    EXAMPLE_LOG,
    Adjustment,
    BunkerDestroyed,
    CaptureRoll,
    DetachmentDestroyed,
    Event,
    GameLog,
    HalfStrength,
    Ledger,
    Loc,
    Losses,
    RallySide,
    WarEngineDestroyed,
    load_log,
    replay,
)
from rulesbook.systems.army_morale.rules import SIDES, Side

__all__ = ["EVENT_TYPES", "Tracker", "event_from_form", "rally_from_form"]


def _side(side: str) -> Side:
    if side not in SIDES:
        raise InputError("side", f"expected a or b, got {side!r}")
    return side


def _need_text(field: str, value: str) -> str:
    if not value.strip():
        raise InputError(field, "choose one")
    return value.strip()


def event_from_form(
    kind: str,
    *,
    side: str = "a",
    detachment: str = "",
    war_engine: str = "",
    number: int = 0,
    result: str = "destroyed",
    reason: str = "",
) -> Event:
    """Build an event from the tracker's flat form. ``number`` is the units lost, the Blast
    markers of a destroyed detachment, the bunker's D6 roll or an adjustment's amount.

    >>> event_from_form("losses", detachment="infantry", number=3)
    Losses(detachment='infantry', lost=3, war_engine='', type='losses')
    >>> event_from_form("bunker-destroyed", side="b", number=7)
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: number: the bunker roll is a D6 result from 1 to 6, got 7
    """
    match kind:
        case "losses":
            if number < 1:
                raise InputError("number", f"units (or Damage Capacity) lost must be 1 or more, got {number}")
            return Losses(_need_text("detachment", detachment), number)
        case "half-strength":
            return HalfStrength(_need_text("detachment", detachment))
        case "detachment-destroyed":
            if number < 0:
                raise InputError("number", f"Blast markers must be 0 or more, got {number}")
            return DetachmentDestroyed(_need_text("detachment", detachment), number)
        case "war-engine-destroyed":
            outcomes: dict[str, Literal["destroyed", "wrecked"]] = {
                "destroyed": "destroyed",
                "wrecked": "wrecked",
            }
            if result not in outcomes:
                raise InputError("result", f"expected destroyed or wrecked, got {result!r}")
            return WarEngineDestroyed(_need_text("war_engine", war_engine), outcomes[result])
        case "bunker-destroyed":
            if not 1 <= number <= 6:
                raise InputError("number", f"the bunker roll is a D6 result from 1 to 6, got {number}")
            return BunkerDestroyed(_side(side), number)
        case "adjustment":
            if number == 0:
                raise InputError("number", "an adjustment needs a non-zero amount")
            return Adjustment(_side(side), number, reason.strip() or "adjustment")
    raise InputError("type", f"expected one of {', '.join(EVENT_TYPES)}, got {kind!r}")


def _ints(field: str, text: str, low: int, high: int) -> tuple[int, ...]:
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        raise InputError(
            field, f"expected comma-separated results from {low} to {high}, got {text!r}"
        ) from None
    if any(not low <= v <= high for v in values):
        raise InputError(field, f"expected comma-separated results from {low} to {high}, got {text!r}")
    return values


def rally_from_form(
    *,
    blast_markers: int = 0,
    take_and_hold: str = "",
    rescue_escorts: int = 0,
    cleanse: int = 0,
    capture: str = "",
) -> RallySide:
    """One side's end-of-Rally report from the form: ``take_and_hold`` lists D3 results
    (``"2, 3"``), ``capture`` lists ``own N`` or ``destroy N`` entries (``"own 5, destroy 2"``).

    >>> counts = rally_from_form(take_and_hold="2, 3", capture="destroy 4").counts()
    >>> counts.take_and_hold, counts.capture_destroy
    (2, 1)
    """
    for name, value in (
        ("blast_markers", blast_markers),
        ("rescue_escorts", rescue_escorts),
        ("cleanse", cleanse),
    ):
        if value < 0:
            raise InputError(name, f"expected 0 or more, got {value}")
    captures = []
    for part in (p.strip() for p in capture.replace(";", ",").split(",")):
        if not part:
            continue
        words = part.split()
        if (
            len(words) != 2
            or words[0] not in ("own", "destroy")
            or not words[1].isdigit()
            or not 1 <= int(words[1]) <= 6
        ):
            raise InputError(
                "capture", f"expected entries like 'own 5' or 'destroy 3' (D6 results), got {part!r}"
            )
        captures.append(CaptureRoll("own" if words[0] == "own" else "destroy", int(words[1])))
    return RallySide(
        blast_markers=blast_markers,
        take_and_hold=_ints("take_and_hold", take_and_hold, 1, 3),
        rescue_escorts=rescue_escorts,
        cleanse=cleanse,
        capture=tuple(captures),
    )


@dataclass(frozen=True, slots=True)
class Tracker:
    """A tracker session: the game log so far. Every action returns a new, replayed session."""

    log: GameLog

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

    def ledger(self) -> Ledger:
        """The replayed ledger."""
        return replay(self.log)

    def checked(self) -> Tracker:
        """This session, after checking that its log replays (InputError otherwise)."""
        replay(self.log)
        return self

    def _checked(self, log: GameLog) -> Tracker:
        return Tracker(log).checked()  # an impossible log raises; the old session stays valid

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
            return Tracker(replace(self.log, turns=tuple(turns))).undo()
        if not turns[-1].events and turns[-1].rally is None:
            turns.pop()
        return Tracker(replace(self.log, turns=tuple(turns)))

    def detachment_choices(self) -> dict[str, str]:
        """Label -> detachment ID for a form's drop-down (``a: Infantry company``)."""
        return {
            f"{s}: {d.label}": d.id
            for s, army in zip(SIDES, self.log.armies, strict=True)
            for d in army.detachments
        }

    def war_engine_choices(self) -> dict[str, str]:
        """Label -> War Engine ID for a form's drop-down."""
        return {
            f"{s}: {w.name or w.id}": w.id
            for s, army in zip(SIDES, self.log.armies, strict=True)
            for d in army.detachments
            for w in d.war_engines
        }
