"""The Army Morale game log as typed values: armies, events, Rally reports, turns.

Each one-time **event kind** is declared once, by :class:`EventKind`: its ``type`` word in
the log, its fields as calculator inputs (:mod:`rulesbook.calculators` — key, label, help and
bounds), the rule it applies and a help text. The log file's reader and writer
(:mod:`~rulesbook.systems.army_morale.logfile`), the tracker form
(:mod:`~rulesbook.systems.army_morale.tracker`) and the tracker's help all read these
declarations, so a bound is the same everywhere; the replay
(:mod:`~rulesbook.systems.army_morale.replay`) applies each kind.

Example:
    >>> kind = event_kind("losses")
    >>> [f.key for f in kind.fields], kind.field("lost").maximum, kind.rule
    (['detachment', 'lost', 'war_engine'], 10000, 'army-morale.detachment.strength')
    >>> kind.build({"detachment": "infantry", "lost": 3})
    Losses(detachment='infantry', lost=3, war_engine='', type='losses')
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from rulesbook.errors import InputError, quote
from rulesbook.inputs import ChoiceInput, Input, IntInput, IntListInput, TextInput
from rulesbook.systems.army_morale.choices import CHOICES, ArmyMoraleChoices, readings_of_log
from rulesbook.systems.army_morale.objectives import Objectives
from rulesbook.systems.army_morale.rules import SIDES, CaptureChoice, RallyCounts, Side

__all__ = [
    "CAPTURE_ROLL",
    "EVENT_KINDS",
    "EVENT_TYPES",
    "EXAMPLE_LOG",
    "LOG_FORMAT",
    "MAX_COUNT",
    "RALLY_INPUTS",
    "RALLY_ONLY",
    "STRENGTH_MEASURES",
    "AddedEffect",
    "Adjustment",
    "Army",
    "BunkerDestroyed",
    "CaptureRoll",
    "Detachment",
    "DetachmentDestroyed",
    "Event",
    "EventKind",
    "GameLog",
    "HalfStrength",
    "Loc",
    "Losses",
    "RallySide",
    "StrengthMeasure",
    "Turn",
    "WarEngine",
    "WarEngineDestroyed",
    "event_kind",
    "rally_input",
]

LOG_FORMAT = "army-morale-log/1"
EXAMPLE_LOG = Path(__file__).with_name("data") / "example-game.yaml"
"""The example game shipped with rulesbook (replays to a win for side a in turn 3)."""

type StrengthMeasure = Literal["units", "damage-capacity"]
STRENGTH_MEASURES: tuple[StrengthMeasure, ...] = ("units", "damage-capacity")
MAX_COUNT = 99
"""The most Blast markers, escort units or Cleanse objectives one report may give."""
RALLY_ONLY = {
    "blast-markers": "army-morale.ongoing.blast-markers",
    "take-and-hold": "army-morale.ongoing.take-and-hold",
    "rescue": "army-morale.ongoing.rescue",
    "cleanse": "army-morale.ongoing.cleanse",
    "capture": "army-morale.one-time.capture",
}
"""Effects checked at the end of the Rally phase: a log writing one as an event is refused."""


@dataclass(frozen=True, slots=True)
class Loc:
    """Where a value came from in the log file: line number and a path such as ``turns[1]``."""

    line: int = 0
    path: str = ""

    @property
    def short(self) -> str:
        """``line N``, or the place in words when the value has no line (built in code, e.g. by the
        tracker): ``turn 2, first event``."""
        return f"line {self.line}" if self.line else (path_in_words(self.path) or "an earlier entry")

    def __str__(self) -> str:
        if not self.line:  # recorded at the table (the tracker): the place in words
            return path_in_words(self.path) or "entry"
        return f"line {self.line} ({self.path})" if self.path else f"line {self.line}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_STEP = re.compile(r"([a-z_]+)(?:\[(\d+)\])?")


def path_in_words(path: str) -> str:
    """A place in a game log in a player's words (``turns[1].events[0]`` -> ``turn 2, first event``).

    >>> path_in_words("turns[1].events[0]"), path_in_words("turns[0].rally")
    ('turn 2, first event', 'turn 1, Rally phase')
    >>> path_in_words("armies.a.detachments[11]")
    'army a, detachment 12'
    """
    words: list[str] = []
    parts = path.split(".")
    for n, part in enumerate(parts):
        match = _STEP.fullmatch(part)
        if match is None:
            words.append(part)
            continue
        name, index = match.group(1), match.group(2)
        if name == "armies" and n + 1 < len(parts):
            continue  # the side follows: "army a"
        if n and parts[n - 1] == "armies":
            words.append(f"army {name}")
        elif name == "turns" and index is not None:
            words.append(f"turn {int(index) + 1}")
        elif name == "events" and index is not None:
            i = int(index)
            words.append(f"{_ORDINALS[i]} event" if i < len(_ORDINALS) else f"event {i + 1}")
        elif name == "rally":
            words.append("Rally phase")
        elif index is not None:
            words.append(f"{name.rstrip('s').replace('_', ' ')} {int(index) + 1}")
        else:
            words.append(name.replace("_", " "))
    return ", ".join(words)


NOWHERE = Loc()


# -- the army lists -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WarEngine:
    """A War Engine unit of a detachment; ``morale`` may be stated or derived (see rules)."""

    id: str
    points: int | None = None
    damage_capacity: int = 1
    morale: int | None = None
    name: str = ""
    at: Loc = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Detachment:
    """A detachment: points, Morale value (stated or from points), strength measure and size."""

    id: str
    points: int
    initial_strength: int
    strength: StrengthMeasure = "units"
    morale: int | None = None
    name: str = ""
    war_engines: tuple[WarEngine, ...] = ()
    at: Loc = field(default=NOWHERE, compare=False, repr=False)

    @property
    def label(self) -> str:
        """The name if given, else the ID."""
        return self.name or self.id


@dataclass(frozen=True, slots=True)
class Army:
    """One side's army."""

    name: str
    detachments: tuple[Detachment, ...] = ()
    at: Loc = field(default=NOWHERE, compare=False, repr=False)
    objectives: Objectives | None = None
    """The objectives set for this side, when the log declares them (checked by the tracker)."""


# -- one-time events ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Losses:
    """A detachment loses ``lost`` units (or points of Damage Capacity).

    ``war_engine`` optionally names the War Engine of a damage-capacity detachment that took
    the damage, so its remaining Damage Capacity is known when it is later destroyed.
    """

    detachment: str
    lost: int
    war_engine: str = ""
    at: Loc = field(default=NOWHERE, compare=False, repr=False)
    type: Literal["losses"] = "losses"


@dataclass(frozen=True, slots=True)
class HalfStrength:
    """A player declares a detachment reduced to half strength (when losses are not logged)."""

    detachment: str
    at: Loc = field(default=NOWHERE, compare=False, repr=False)
    type: Literal["half-strength"] = "half-strength"


@dataclass(frozen=True, slots=True)
class DetachmentDestroyed:
    """A detachment is wiped out carrying ``blast_markers`` Blast markers."""

    detachment: str
    blast_markers: int = 0
    at: Loc = field(default=NOWHERE, compare=False, repr=False)
    type: Literal["detachment-destroyed"] = "detachment-destroyed"


@dataclass(frozen=True, slots=True)
class WarEngineDestroyed:
    """A War Engine suffers Catastrophic Damage: ``destroyed`` (counts) or ``wrecked`` (does not)."""

    war_engine: str
    result: Literal["destroyed", "wrecked"] = "destroyed"
    at: Loc = field(default=NOWHERE, compare=False, repr=False)
    type: Literal["war-engine-destroyed"] = "war-engine-destroyed"


@dataclass(frozen=True, slots=True)
class BunkerDestroyed:
    """``side`` destroys one of its Bunker objectives (one set for it to destroy); ``roll`` is the D6.

    ``bunker`` optionally names the objective, so a second destruction of it is refused.
    """

    side: Side
    roll: int
    bunker: str = ""
    at: Loc = field(default=NOWHERE, compare=False, repr=False)
    type: Literal["bunker-destroyed"] = "bunker-destroyed"


@dataclass(frozen=True, slots=True)
class Adjustment:
    """Any other change a scenario or special rule makes (``reason`` says which)."""

    side: Side
    amount: int
    reason: str
    at: Loc = field(default=NOWHERE, compare=False, repr=False)
    type: Literal["adjustment"] = "adjustment"


@dataclass(frozen=True, slots=True)
class AddedEffect:
    """A morale effect the game's variant adds happens for ``side`` (``effect`` is its key under
    the variant's ``add: morale_effects:``; see :mod:`~rulesbook.systems.army_morale.effects`)."""

    effect: str
    side: Side
    at: Loc = field(default=NOWHERE, compare=False, repr=False)
    type: Literal["effect"] = "effect"


type Event = (
    Losses
    | HalfStrength
    | DetachmentDestroyed
    | WarEngineDestroyed
    | BunkerDestroyed
    | Adjustment
    | AddedEffect
)


# -- the declarations -----------------------------------------------------------------------------


_DETACHMENT = TextInput(
    key="detachment", label="Detachment", help="The ID of the detachment.", refers="detachment"
)
_SIDE = ChoiceInput(key="side", label="Side", help="The side (a or b).", choices=SIDES)


@dataclass(frozen=True)
class EventKind:
    """One kind of one-time event, declared once.

    ``fields`` are the event's values as inputs, in the order of the class's fields; a field
    the class gives a default is optional in a log (and left out of a written log when it is
    empty text). ``rule`` is the rule the event applies, ``help`` says what it records.
    """

    cls: type[Event]
    rule: str
    help: str
    fields: tuple[Input, ...]

    def __post_init__(self) -> None:
        names = [f.name for f in dataclasses.fields(self.cls) if f.name not in ("at", "type")]
        if [f.key for f in self.fields] != names:
            raise TypeError(f"{self.cls.__name__}: declared fields {self.fields} differ from {names}")

    @property
    def name(self) -> str:
        """The ``type`` word of the log."""
        return str(self.cls.__dataclass_fields__["type"].default)

    def field(self, key: str) -> Input:
        """The declared input ``key``."""
        return next(f for f in self.fields if f.key == key)

    def optional(self, key: str) -> bool:
        """True when a log may leave ``key`` out (the class gives it a default)."""
        return self.default(key) is not dataclasses.MISSING

    def default(self, key: str) -> Any:
        """The class's default of ``key`` (``dataclasses.MISSING`` when it must be given)."""
        return self.cls.__dataclass_fields__[key].default

    def build(self, values: Mapping[str, Any], at: Loc = NOWHERE) -> Event:
        """The event from checked field values (a left-out optional field takes its default)."""
        return self.cls(**values, at=at)

    def data(self, event: Event) -> dict[str, Any]:
        """The event as the log writes it: ``type`` first, then its fields."""
        out: dict[str, Any] = {"type": self.name}
        for f in self.fields:
            value = getattr(event, f.key)
            if not (value == "" and self.optional(f.key)):
                out[f.key] = value
        return out


EVENT_KINDS: tuple[EventKind, ...] = (
    EventKind(
        Losses,
        "army-morale.detachment.strength",
        "A detachment loses units (or Damage Capacity); at half strength or less its Morale "
        "value comes off once.",
        (
            _DETACHMENT,
            IntInput(
                key="lost",
                label="Units (or Damage Capacity) lost",
                help="How many units (or points of Damage Capacity) the detachment lost.",
                minimum=1,
                maximum=10_000,
                default=1,
            ),
            TextInput(
                key="war_engine",
                label="War Engine",
                help="The War Engine that took the damage (optional).",
                refers="war-engine",
            ),
        ),
    ),
    EventKind(
        HalfStrength,
        "army-morale.one-time.half-strength",
        "A detachment is declared at half strength (when losses are not logged): its Morale "
        "value comes off, once.",
        (_DETACHMENT,),
    ),
    EventKind(
        DetachmentDestroyed,
        "army-morale.one-time.destroyed-detachment-blast-markers",
        "A detachment is wiped out: -1 per Blast marker it carried.",
        (
            _DETACHMENT,
            IntInput(
                key="blast_markers",
                label="Blast markers it carried",
                help="Blast markers on the detachment when it was wiped out (-1 each).",
                minimum=0,
                maximum=MAX_COUNT,
                default=0,
            ),
        ),
    ),
    EventKind(
        WarEngineDestroyed,
        "army-morale.one-time.war-engine-destroyed",
        "An enemy War Engine suffers Catastrophic Damage: Destroyed gains half its Morale value, "
        "Wrecked gains nothing.",
        (
            TextInput(
                key="war_engine", label="War Engine", help="The ID of the War Engine.", refers="war-engine"
            ),
            ChoiceInput(
                key="result",
                label="Catastrophic Damage",
                help="destroyed (counts) or wrecked (does not).",
                choices=("destroyed", "wrecked"),
                default="destroyed",
            ),
        ),
    ),
    EventKind(
        BunkerDestroyed,
        "army-morale.one-time.bunker",
        "A side destroys one of its Bunker objectives: the opponent loses the D6 rolled.",
        (
            _SIDE,
            IntInput(
                key="roll", label="D6 result", help="The D6 rolled for the bunker.", minimum=1, maximum=6
            ),
            TextInput(key="bunker", label="Bunker", help="The bunker's name (optional; each counts once)."),
        ),
    ),
    EventKind(
        Adjustment,
        "army-morale.army.value",
        "Any other change a scenario or special rule makes.",
        (
            _SIDE,
            IntInput(
                key="amount",
                label="Amount (+/-)",
                help="The change to the side's value.",
                minimum=-1000,
                maximum=1000,
            ),
            TextInput(key="reason", label="Reason", help="What made the change.", default="adjustment"),
        ),
    ),
    EventKind(
        AddedEffect,
        "army-morale.effects.added",
        "A morale effect the game's variant adds happens for a side: its value applies (once per "
        "side for a one-time effect, unless the variant says otherwise).",
        (
            TextInput(
                key="effect",
                label="Morale effect",
                help="The key of a morale effect the variant adds (add: morale_effects).",
                refers="effect",
            ),
            _SIDE,
        ),
    ),
)
"""Every one-time event kind, in the order forms offer them."""

EVENT_TYPES: tuple[str, ...] = tuple(k.name for k in EVENT_KINDS)


def event_kind(name: str) -> EventKind:
    """The declaration of event kind ``name`` (InputError naming ``type`` otherwise).

    >>> event_kind("meteor")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: type: expected one of losses, half-strength, detachment-destroyed, \
war-engine-destroyed, bunker-destroyed, adjustment, effect, got 'meteor'
    """
    for kind in EVENT_KINDS:
        if kind.name == name:
            return kind
    raise InputError("type", f"expected one of {', '.join(EVENT_TYPES)}, got {quote(name)}")


# -- the Rally phase and turns ----------------------------------------------------------------

RALLY_INPUTS: tuple[Input, ...] = (
    IntInput(
        key="blast_markers",
        label="Blast markers",
        help="Blast markers left on the side's detachments (-1 each).",
        minimum=0,
        maximum=MAX_COUNT,
        default=0,
    ),
    IntListInput(
        key="take_and_hold",
        label="Take & Hold D3 results",
        help="One D3 result per Take & Hold objective the side controls.",
        minimum=1,
        maximum=3,
        default=(),
    ),
    IntInput(
        key="rescue_escorts",
        label="Escort units",
        help="The side's escort units (Rescue): +1 to it, -1 to the opponent each.",
        minimum=0,
        maximum=MAX_COUNT,
        default=0,
    ),
    IntInput(
        key="cleanse",
        label="Cleanse objectives",
        help="Cleanse objectives the side controls (+1 each).",
        minimum=0,
        maximum=MAX_COUNT,
        default=0,
    ),
    TextInput(
        key="capture",
        label="Capture",
        help="One 'own N' (+N to the side) or 'destroy N' (-N to the opponent) per Capture "
        "objective the side controls, N the D6 result.",
        default="",
    ),
    TextInput(
        key="effects",
        label="Added effects",
        help="Morale effects the game's variant adds that apply at this step R4, as 'KEY=COUNT' "
        "entries (e.g. 'supply-lines=2').",
        default="",
    ),
)
"""What one side reports at the end of a Rally phase (the fields of :class:`RallySide`)."""
CAPTURE_ROLL = IntInput(key="roll", label="Capture roll", help="The D6 result.", minimum=1, maximum=6)


def rally_input(key: str) -> Input:
    """The declared Rally report field ``key``.

    >>> rally_input("take_and_hold").allowed()
    'a comma-separated list of 0 to 100 integers, each from 1 to 3'
    """
    return next(f for f in RALLY_INPUTS if f.key == key)


@dataclass(frozen=True, slots=True)
class CaptureRoll:
    """One Capture objective at the end of a Rally phase: the choice and the D6 result."""

    choice: CaptureChoice
    roll: int
    objective: str = ""
    at: Loc = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class RallySide:
    """What one side reports at the end of a Rally phase, with its dice results."""

    blast_markers: int = 0
    take_and_hold: tuple[int, ...] = ()
    rescue_escorts: int = 0
    cleanse: int = 0
    capture: tuple[CaptureRoll, ...] = ()
    effects: tuple[tuple[str, int], ...] = ()
    """``(key, count)`` of the variant's added morale effects that apply at this step R4."""
    at: Loc = field(default=NOWHERE, compare=False, repr=False)

    def counts(self) -> RallyCounts:
        """The counts the Rally rules need (dice results aside)."""
        return RallyCounts(
            blast_markers=self.blast_markers,
            take_and_hold=len(self.take_and_hold),
            rescue_escorts=self.rescue_escorts,
            cleanse=self.cleanse,
            capture_own=sum(c.choice == "own" for c in self.capture),
            capture_destroy=sum(c.choice == "destroy" for c in self.capture),
            effects=self.effects,
        )

    def rolls(self) -> list[tuple[int, Loc]]:
        """Dice results in the order :func:`~rulesbook.systems.army_morale.rules.rally_terms` asks for them."""
        own = [(c.roll, c.at) for c in self.capture if c.choice == "own"]
        destroy = [(c.roll, c.at) for c in self.capture if c.choice == "destroy"]
        return [(r, self.at) for r in self.take_and_hold] + own + destroy


@dataclass(frozen=True, slots=True)
class Turn:
    """One game turn: its one-time events, then (once played) the end of its Rally phase."""

    number: int
    events: tuple[Event, ...] = ()
    rally: tuple[RallySide, RallySide] | None = None
    at: Loc = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class GameLog:
    """A whole game log: both armies, the interpretation options in force, the turns.

    Immutable: :meth:`with_event` and :meth:`with_rally` return changed copies (the tracker
    widget drives the ledger this way).
    """

    armies: tuple[Army, Army]
    turns: tuple[Turn, ...] = ()
    title: str = ""
    interpretations: tuple[tuple[str, str], ...] = ()
    source: str = field(default="", compare=False, repr=False)
    """The file name the log came from (named in replay errors)."""

    def choices(self, base: ArmyMoraleChoices | None = None) -> ArmyMoraleChoices:
        """The rule choices this game is played under: ``base`` (the published rules unless a
        variant is given) with the readings the log chooses (InputError naming a bad one).

        >>> log = GameLog((Army("A"), Army("B")), interpretations=(("equal-values", "both-lose"),))
        >>> log.choices().readings.equal_values, log.choices().parameters.points_per_morale
        ('both-lose', 50)
        """
        base = base or CHOICES
        return replace(base, readings=readings_of_log(dict(self.interpretations), base.readings))

    def army(self, side: Side) -> Army:
        """The army of ``side``."""
        return self.armies[SIDES.index(side)]

    def _turn(self, number: int) -> tuple[list[Turn], int]:
        turns = list(self.turns)
        while len(turns) < number:
            turns.append(Turn(len(turns) + 1))
        return turns, number - 1

    def with_event(self, turn: int, event: Event) -> GameLog:
        """A copy with ``event`` appended to turn ``turn`` (created if needed).

        >>> log = GameLog((Army("A"), Army("B"))).with_event(2, Adjustment("b", 2, "house rule"))
        >>> [len(t.events) for t in log.turns]
        [0, 1]
        """
        turns, i = self._turn(turn)
        turns[i] = replace(turns[i], events=(*turns[i].events, event))
        return replace(self, turns=tuple(turns))

    def with_rally(self, turn: int, a: RallySide, b: RallySide) -> GameLog:
        """A copy with the end of turn ``turn``'s Rally phase recorded (replacing any)."""
        turns, i = self._turn(turn)
        turns[i] = replace(turns[i], rally=(a, b))
        return replace(self, turns=tuple(turns))

    def without_turns(self) -> GameLog:
        """The same armies and options with nothing played yet."""
        return replace(self, turns=())
