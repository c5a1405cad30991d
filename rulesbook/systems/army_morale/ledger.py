"""The Army Morale ledger: a game log replayed into both values, with an audit trail.

A **game log** is a YAML (or JSON) file describing the two armies and what happened, turn by
turn, with the dice results the players rolled. :func:`load_log` reads it (``yaml.compose``,
with libyaml when available, so every rejection names its line), :func:`replay` turns it into a :class:`Ledger` — both
Army Morale values after every event and every Rally phase, each change tagged with the rule
ID behind it — and :func:`dump_log` writes it back without loss.

Schema (``format: army-morale-log/1``)::

    format: army-morale-log/1
    title: Meeting engagement            # optional
    interpretations:                     # optional: slug -> option key, see rules.yaml
      war-engine-rounding: round-up
    armies:
      a:                                 # side a, then side b
        name: Imperial Guard
        detachments:
          - id: infantry                 # unique across both armies
            name: Infantry company       # optional
            points: 225                  # Morale value from the formula ...
            morale: 5                    # ... unless stated here (optional)
            strength: units              # units | damage-capacity
            initial_strength: 20         # units, or total Damage Capacity (derived from the
                                         # War Engines of a damage-capacity detachment if omitted)
            war_engines:                 # optional
              - {id: baneblade-1, points: 200, damage_capacity: 4, morale: 4}
      b: {name: ..., detachments: [...]}
    turns:
      - turn: 1                          # 1, 2, 3, ... in order
        events:                          # one-time effects as they happen
          - {type: losses, detachment: infantry, lost: 4}
          - {type: losses, detachment: baneblades, war_engine: baneblade-1, lost: 2}  # optional name
          - {type: half-strength, detachment: infantry}
          - {type: detachment-destroyed, detachment: infantry, blast_markers: 2}
          - {type: war-engine-destroyed, war_engine: baneblade-1, result: destroyed}
                                         # its remaining Damage Capacity leaves the detachment
          - {type: bunker-destroyed, side: a, roll: 4, bunker: north}   # a destroys one of its
                                         # Bunker objectives: b loses 4 (bunker: optional name)
          - {type: adjustment, side: b, amount: -1, reason: scenario special rule}
        rally:                           # end of the Rally phase (step R4); omit while unplayed
          a:
            blast_markers: 3
            take_and_hold: [2, 3]        # one D3 result per objective controlled
            rescue_escorts: 1
            cleanse: 1
            capture:                     # one entry per Capture objective controlled
              - {choice: own, roll: 5}   # own: +D6 to a; destroy: -D6 to b
          b: {}

Example:
    >>> from pathlib import Path
    >>> ledger = replay(load_log(EXAMPLE_LOG))
    >>> ledger.start, ledger.values, ledger.verdict, ledger.ended_turn
    ((14, 10), (3, -6), 'a', 3)
    >>> ledger.entries[-1].rule
    'army-morale.game-end'
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal, cast

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulesbook.errors import InputError
from rulesbook.registry import implements, raw_registry
from rulesbook.systems.army_morale.rules import (
    SIDES,
    CaptureChoice,
    DetachmentFormula,
    EqualValues,
    HalfStrengthThreshold,
    RallyCounts,
    Side,
    Term,
    Verdict,
    WarEngineRounding,
    at_half_strength,
    bunker_term,
    constant,
    destroyed_detachment_term,
    detachment_strength,
    detachment_value,
    game_end,
    half_strength_term,
    other,
    rally_terms,
    war_engine_gain,
)

__all__ = [
    "EXAMPLE_LOG",
    "LOG_FORMAT",
    "Adjustment",
    "Army",
    "BunkerDestroyed",
    "CaptureRoll",
    "Detachment",
    "DetachmentDestroyed",
    "Event",
    "GameLog",
    "HalfStrength",
    "Ledger",
    "LedgerEntry",
    "Loc",
    "Losses",
    "RallySide",
    "Turn",
    "WarEngine",
    "WarEngineDestroyed",
    "dump_log",
    "load_log",
    "log_from_text",
    "log_to_data",
    "log_to_text",
    "replay",
]

LOG_FORMAT = "army-morale-log/1"
EXAMPLE_LOG = Path(__file__).with_name("data") / "example-game.yaml"
"""The example game shipped with rulesbook (replays to a win for side a in turn 3)."""

INTERPRETATION_PREFIX = "army-morale.interpretations."
StrengthMeasure = Literal["units", "damage-capacity"]
STRENGTH_MEASURES: tuple[StrengthMeasure, ...] = ("units", "damage-capacity")
EVENT_TYPES = (
    "losses",
    "half-strength",
    "detachment-destroyed",
    "war-engine-destroyed",
    "bunker-destroyed",
    "adjustment",
)
RALLY_ONLY = {
    "blast-markers": "army-morale.ongoing.blast-markers",
    "take-and-hold": "army-morale.ongoing.take-and-hold",
    "rescue": "army-morale.ongoing.rescue",
    "cleanse": "army-morale.ongoing.cleanse",
    "capture": "army-morale.one-time.capture",
}
MAX_COUNT = 99


# -- values -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Loc:
    """Where a value came from in the log file: line number and a path such as ``turns[1]``."""

    line: int = 0
    path: str = ""

    @property
    def short(self) -> str:
        """``line N``, or the path when the value has no line (built in code, e.g. by the tracker)."""
        return f"line {self.line}" if self.line else (self.path or "an earlier entry")

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "entry"
        return f"{where} ({self.path})" if self.path else where


NOWHERE = Loc()


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


type Event = Losses | HalfStrength | DetachmentDestroyed | WarEngineDestroyed | BunkerDestroyed | Adjustment


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
        )

    def rolls(self) -> list[tuple[int, Loc]]:
        """Dice results in the order :func:`rally_terms` asks for them."""
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

    def option(self, slug: str) -> str:
        """The option in force for interpretation ``army-morale.interpretations.<slug>``."""
        chosen = dict(self.interpretations)
        if slug in chosen:
            return chosen[slug]
        return raw_registry().interpretation(INTERPRETATION_PREFIX + slug).default

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

        >>> log = load_log(EXAMPLE_LOG)
        >>> replay(log.with_event(3, Adjustment("b", 2, "house rule"))).values
        (3, -4)
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


# -- reading -------------------------------------------------------------------------------------


class _Reader:
    """Reads values out of a composed YAML node tree, naming line and path on every error."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.constructor = SafeConstructor()
        self.options: dict[str, str] = {}

    def shown(self, node: Node) -> str:
        """A value as the log spells it, for messages: ``true`` (not Python's ``True``),
        ``3.5``, an empty value as ``nothing``, text quoted (``'lots'``)."""
        if not isinstance(node, ScalarNode):
            return "a list" if isinstance(node, SequenceNode) else "a mapping"
        if node.tag == "tag:yaml.org,2002:str":
            return repr(node.value)
        return node.value or "nothing"

    def fail(self, at: Loc, message: str) -> InputError:
        return InputError("log", f"{self.source} {at}: {message}")

    @staticmethod
    def loc(node: Node, path: str) -> Loc:
        return Loc(node.start_mark.line + 1, path)

    def mapping(self, node: Node, path: str, allowed: Sequence[str]) -> dict[str, Node]:
        if not isinstance(node, MappingNode):
            raise self.fail(self.loc(node, path), "expected a mapping of key: value")
        out: dict[str, Node] = {}
        for key_node, value_node in node.value:
            key = self.scalar(key_node, path)
            if not isinstance(key, str) or key not in allowed:
                raise self.fail(
                    self.loc(key_node, path),
                    f"unknown key {self.shown(key_node)}; allowed: {', '.join(allowed)}",
                )
            if key in out:
                raise self.fail(self.loc(key_node, path), f"key {key!r} given twice")
            out[key] = value_node
        return out

    def sequence(self, node: Node, path: str) -> list[Node]:
        if not isinstance(node, SequenceNode):
            raise self.fail(self.loc(node, path), "expected a list")
        return list(node.value)

    def scalar(self, node: Node, path: str) -> Any:
        if not isinstance(node, ScalarNode):
            raise self.fail(self.loc(node, path), "expected a single value")
        return self.constructor.construct_object(node)

    def need(self, m: Mapping[str, Node], key: str, parent: Node, path: str) -> Node:
        if key not in m:
            raise self.fail(self.loc(parent, path), f"missing key {key!r}")
        return m[key]

    def text(self, node: Node, path: str, *, allow_empty: bool = False) -> str:
        value = self.scalar(node, path)
        if value is None and allow_empty:
            return ""
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise self.fail(self.loc(node, path), f"expected text, got {self.shown(node)}")
        value = str(value)
        if not value and not allow_empty:
            raise self.fail(self.loc(node, path), "expected a non-empty text")
        return value

    def integer(self, node: Node, path: str, low: int, high: int, what: str) -> int:
        value = self.scalar(node, path)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(
                self.loc(node, path),
                f"{what} must be an integer from {low} to {high}, got {self.shown(node)}",
            )
        return value

    def choice[T: str](self, node: Node, path: str, choices: Sequence[T], what: str) -> T:
        value = self.scalar(node, path)
        if value not in choices:
            raise self.fail(
                self.loc(node, path), f"{what} must be one of {', '.join(choices)}, got {self.shown(node)}"
            )
        return cast(T, value)

    def opt_int(
        self, m: Mapping[str, Node], key: str, path: str, low: int, high: int, default: int = 0
    ) -> int:
        return self.integer(m[key], f"{path}.{key}", low, high, key) if key in m else default

    # -- the schema ------------------------------------------------------------------------
    def log(self, root: Node) -> GameLog:
        top = self.mapping(root, "log", ("format", "title", "interpretations", "armies", "turns"))
        if "format" in top:
            fmt = self.text(top["format"], "format")
            if fmt != LOG_FORMAT:
                raise self.fail(
                    self.loc(top["format"], "format"),
                    f"format must be {LOG_FORMAT}, got {self.shown(top['format'])}",
                )
        title = self.text(top["title"], "title", allow_empty=True) if "title" in top else ""
        interps = self.interpretations(top["interpretations"]) if "interpretations" in top else ()
        self.options = dict(interps)
        armies_node = self.need(top, "armies", root, "log")
        armies = self.mapping(armies_node, "armies", SIDES)
        pair = tuple(self.army(self.need(armies, s, armies_node, "armies"), f"armies.{s}") for s in SIDES)
        turns_node = top.get("turns")
        turns: list[Turn] = []
        if turns_node is not None and not (
            isinstance(turns_node, ScalarNode) and turns_node.value in ("", "~", "null")
        ):
            for i, tn in enumerate(self.sequence(turns_node, "turns")):
                turns.append(self.turn(tn, f"turns[{i}]"))
        return GameLog(
            armies=(pair[0], pair[1]),
            turns=tuple(turns),
            title=title,
            interpretations=interps,
            source=self.source,
        )

    def interpretations(self, node: Node) -> tuple[tuple[str, str], ...]:
        reg = raw_registry()
        slugs = [
            i.id.removeprefix(INTERPRETATION_PREFIX) for i in reg.interpretations_for_system("army-morale")
        ]
        m = self.mapping(node, "interpretations", slugs)
        out = []
        for slug, value_node in m.items():
            keys = reg.interpretation(INTERPRETATION_PREFIX + slug).option_keys
            out.append((slug, self.choice(value_node, f"interpretations.{slug}", keys, slug)))
        return tuple(sorted(out))

    def army(self, node: Node, path: str) -> Army:
        m = self.mapping(node, path, ("name", "detachments"))
        name = self.text(self.need(m, "name", node, path), f"{path}.name")
        dets = self.sequence(self.need(m, "detachments", node, path), f"{path}.detachments")
        return Army(
            name=name,
            detachments=tuple(self.detachment(d, f"{path}.detachments[{i}]") for i, d in enumerate(dets)),
            at=self.loc(node, path),
        )

    def detachment(self, node: Node, path: str) -> Detachment:
        keys = ("id", "name", "points", "morale", "strength", "initial_strength", "war_engines")
        m = self.mapping(node, path, keys)
        wes = self.sequence(m["war_engines"], f"{path}.war_engines") if "war_engines" in m else []
        engines = tuple(self.war_engine(w, f"{path}.war_engines[{i}]") for i, w in enumerate(wes))
        measure: StrengthMeasure = "units"
        if "strength" in m:
            measure = self.choice(m["strength"], f"{path}.strength", STRENGTH_MEASURES, "strength")
        derived = None
        if measure == "damage-capacity" and engines:
            derived = detachment_strength(damage_capacities=[w.damage_capacity for w in engines])
        if "initial_strength" in m or derived is None:
            where = f"{path}.initial_strength"
            initial_node = self.need(m, "initial_strength", node, path)
            initial = self.integer(initial_node, where, 1, 10_000, "initial_strength")
            mixed = self.options.get("mixed-detachment-strength") == "capacity-plus-units"
            if derived is not None and (initial < derived if mixed else initial != derived):
                how = "is below" if mixed else "differs from"
                hint = (
                    ""
                    if mixed
                    else " (a detachment with other units too: strength: units, or the "
                    "interpretation mixed-detachment-strength: capacity-plus-units)"
                )
                raise self.fail(
                    self.loc(initial_node, where),
                    f"initial_strength {initial} {how} the War Engines' total Damage Capacity {derived}{hint}",
                )
        else:
            initial = derived
        return Detachment(
            id=self.text(self.need(m, "id", node, path), f"{path}.id"),
            name=self.text(m["name"], f"{path}.name", allow_empty=True) if "name" in m else "",
            points=self.integer(self.need(m, "points", node, path), f"{path}.points", 0, 100_000, "points"),
            morale=self.opt_int(m, "morale", path, 0, 1000) if "morale" in m else None,
            strength=measure,
            initial_strength=initial,
            war_engines=engines,
            at=self.loc(node, path),
        )

    def war_engine(self, node: Node, path: str) -> WarEngine:
        m = self.mapping(node, path, ("id", "name", "points", "damage_capacity", "morale"))
        return WarEngine(
            id=self.text(self.need(m, "id", node, path), f"{path}.id"),
            name=self.text(m["name"], f"{path}.name", allow_empty=True) if "name" in m else "",
            points=self.opt_int(m, "points", path, 0, 100_000) if "points" in m else None,
            damage_capacity=self.opt_int(m, "damage_capacity", path, 1, 1000, default=1),
            morale=self.opt_int(m, "morale", path, 0, 1000) if "morale" in m else None,
            at=self.loc(node, path),
        )

    def turn(self, node: Node, path: str) -> Turn:
        m = self.mapping(node, path, ("turn", "events", "rally"))
        number = self.integer(self.need(m, "turn", node, path), f"{path}.turn", 1, 1000, "turn")
        events: list[Event] = []
        if "events" in m and not (
            isinstance(m["events"], ScalarNode) and m["events"].value in ("", "~", "null")
        ):
            for i, en in enumerate(self.sequence(m["events"], f"{path}.events")):
                events.append(self.event(en, f"{path}.events[{i}]"))
        rally = None
        if "rally" in m:
            rn = m["rally"]
            rm = self.mapping(rn, f"{path}.rally", SIDES)
            rally = (
                self.rally_side(rm.get("a"), rn, f"{path}.rally.a"),
                self.rally_side(rm.get("b"), rn, f"{path}.rally.b"),
            )
        return Turn(number, tuple(events), rally, at=self.loc(node, path))

    def event(self, node: Node, path: str) -> Event:
        if not isinstance(node, MappingNode):
            raise self.fail(self.loc(node, path), "expected an event mapping with a 'type' key")
        raw = {self.scalar(k, path): v for k, v in node.value}
        at = self.loc(node, path)
        if "type" not in raw:
            raise self.fail(at, f"missing key 'type'; one of {', '.join(EVENT_TYPES)}")
        kind = self.scalar(raw["type"], f"{path}.type")
        if kind in RALLY_ONLY:
            raise self.fail(
                at,
                f"{kind} ({RALLY_ONLY[kind]}) is checked at the end of the Rally phase; "
                "record it under the turn's 'rally', not as an event",
            )
        kind = self.choice(raw["type"], f"{path}.type", EVENT_TYPES, "type")
        match kind:
            case "losses":
                m = self.mapping(node, path, ("type", "detachment", "lost", "war_engine"))
                return Losses(
                    self.text(self.need(m, "detachment", node, path), f"{path}.detachment"),
                    self.integer(self.need(m, "lost", node, path), f"{path}.lost", 1, 10_000, "lost"),
                    self.text(m["war_engine"], f"{path}.war_engine") if "war_engine" in m else "",
                    at=at,
                )
            case "half-strength":
                m = self.mapping(node, path, ("type", "detachment"))
                return HalfStrength(
                    self.text(self.need(m, "detachment", node, path), f"{path}.detachment"), at=at
                )
            case "detachment-destroyed":
                m = self.mapping(node, path, ("type", "detachment", "blast_markers"))
                return DetachmentDestroyed(
                    self.text(self.need(m, "detachment", node, path), f"{path}.detachment"),
                    self.opt_int(m, "blast_markers", path, 0, MAX_COUNT),
                    at=at,
                )
            case "war-engine-destroyed":
                m = self.mapping(node, path, ("type", "war_engine", "result"))
                result: Literal["destroyed", "wrecked"] = "destroyed"
                if "result" in m:
                    result = self.choice(m["result"], f"{path}.result", ("destroyed", "wrecked"), "result")
                return WarEngineDestroyed(
                    self.text(self.need(m, "war_engine", node, path), f"{path}.war_engine"), result, at=at
                )
            case "bunker-destroyed":
                m = self.mapping(node, path, ("type", "side", "roll", "bunker"))
                return BunkerDestroyed(
                    self.choice(self.need(m, "side", node, path), f"{path}.side", SIDES, "side"),
                    self.integer(self.need(m, "roll", node, path), f"{path}.roll", 1, 6, "roll (D6 result)"),
                    self.text(m["bunker"], f"{path}.bunker") if "bunker" in m else "",
                    at=at,
                )
            case _:
                m = self.mapping(node, path, ("type", "side", "amount", "reason"))
                return Adjustment(
                    self.choice(self.need(m, "side", node, path), f"{path}.side", SIDES, "side"),
                    self.integer(self.need(m, "amount", node, path), f"{path}.amount", -1000, 1000, "amount"),
                    self.text(self.need(m, "reason", node, path), f"{path}.reason"),
                    at=at,
                )

    def rally_side(self, node: Node | None, parent: Node, path: str) -> RallySide:
        if node is None or (isinstance(node, ScalarNode) and node.value in ("", "~", "null")):
            return RallySide(at=self.loc(node or parent, path))
        keys = ("blast_markers", "take_and_hold", "rescue_escorts", "cleanse", "capture")
        m = self.mapping(node, path, keys)
        th: list[int] = []
        if "take_and_hold" in m:
            for i, r in enumerate(self.sequence(m["take_and_hold"], f"{path}.take_and_hold")):
                th.append(self.integer(r, f"{path}.take_and_hold[{i}]", 1, 3, "Take & Hold roll (D3)"))
        captures: list[CaptureRoll] = []
        if "capture" in m:
            for i, c in enumerate(self.sequence(m["capture"], f"{path}.capture")):
                cp = f"{path}.capture[{i}]"
                cm = self.mapping(c, cp, ("choice", "roll", "objective"))
                captures.append(
                    CaptureRoll(
                        self.choice(
                            self.need(cm, "choice", c, cp), f"{cp}.choice", ("own", "destroy"), "choice"
                        ),
                        self.integer(
                            self.need(cm, "roll", c, cp), f"{cp}.roll", 1, 6, "a Capture roll (D6 result)"
                        ),
                        self.text(cm["objective"], f"{cp}.objective") if "objective" in cm else "",
                        at=self.loc(c, cp),
                    )
                )
        return RallySide(
            blast_markers=self.opt_int(m, "blast_markers", path, 0, MAX_COUNT),
            take_and_hold=tuple(th),
            rescue_escorts=self.opt_int(m, "rescue_escorts", path, 0, MAX_COUNT),
            cleanse=self.opt_int(m, "cleanse", path, 0, MAX_COUNT),
            capture=tuple(captures),
            at=self.loc(node, path),
        )


_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's loader when PyYAML was built with it (much faster on long logs; its nodes keep
their line marks), else the pure-Python one."""


def log_from_text(text: str, source: str = "log", *, is_json: bool = False) -> GameLog:
    """Parse a game log from YAML (or JSON) text; errors name ``source`` and the line.

    >>> log_from_text("armies: {a: {name: A, detachments: []}}\\n")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: log: log line 1 (armies): missing key 'b'
    """
    if is_json:
        try:
            json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError("log", f"{source} line {exc.lineno}: not valid JSON ({exc.msg})") from None
        # Valid JSON is YAML once its tabs (only ever whitespace between tokens) are spaces;
        # composing it as YAML keeps the line numbers for every later message.
        text = text.replace("\t", " ")
    try:
        for event in yaml.parse(text, Loader=_LOADER):
            if isinstance(event, yaml.AliasEvent):
                line = event.start_mark.line + 1 if event.start_mark else 0
                raise InputError(
                    "log",
                    f"{source} line {line}: YAML aliases (*{event.anchor}) are not allowed in a game log",
                )
        root = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        if mark is not None:
            where = f"line {mark.line + 1}"
        elif isinstance(exc, yaml.reader.ReaderError):  # a character YAML does not allow
            where = f"line {text.count(chr(10), 0, max(exc.position, 0)) + 1}"
        else:
            where = "start"
        problem = getattr(exc, "problem", None) or getattr(exc, "reason", None) or "malformed"
        raise InputError("log", f"{source} {where}: not valid YAML ({problem})") from None
    except ValueError as exc:  # e.g. unsupported characters
        raise InputError("log", f"{source}: cannot be read ({exc})") from None
    if root is None:
        raise InputError("log", f"{source} line 1: the log is empty; expected 'armies' and 'turns'")
    return _Reader(source).log(root)


def load_log(path: str | Path) -> GameLog:
    """Load a game log file (``.yaml``, ``.yml`` or ``.json``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError("log", f"cannot read {p}: {exc.__class__.__name__}") from None
    return log_from_text(text, p.name, is_json=p.suffix.lower() == ".json")


# -- writing ----------------------------------------------------------------------------------------


def _event_data(event: Event) -> dict[str, Any]:
    match event:
        case Losses():
            named = {"war_engine": event.war_engine} if event.war_engine else {}
            return {"type": event.type, "detachment": event.detachment, "lost": event.lost, **named}
        case HalfStrength():
            return {"type": event.type, "detachment": event.detachment}
        case DetachmentDestroyed():
            return {"type": event.type, "detachment": event.detachment, "blast_markers": event.blast_markers}
        case WarEngineDestroyed():
            return {"type": event.type, "war_engine": event.war_engine, "result": event.result}
        case BunkerDestroyed():
            named = {"bunker": event.bunker} if event.bunker else {}
            return {"type": event.type, "side": event.side, "roll": event.roll, **named}
        case Adjustment():
            return {"type": event.type, "side": event.side, "amount": event.amount, "reason": event.reason}


def _rally_data(r: RallySide) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if r.blast_markers:
        out["blast_markers"] = r.blast_markers
    if r.take_and_hold:
        out["take_and_hold"] = list(r.take_and_hold)
    if r.rescue_escorts:
        out["rescue_escorts"] = r.rescue_escorts
    if r.cleanse:
        out["cleanse"] = r.cleanse
    if r.capture:
        out["capture"] = [
            {"choice": c.choice, "roll": c.roll, **({"objective": c.objective} if c.objective else {})}
            for c in r.capture
        ]
    return out


def log_to_data(log: GameLog) -> dict[str, Any]:
    """The log as plain data following the schema (what :func:`dump_log` writes)."""

    def detachment(d: Detachment) -> dict[str, Any]:
        out: dict[str, Any] = {"id": d.id}
        if d.name:
            out["name"] = d.name
        out["points"] = d.points
        if d.morale is not None:
            out["morale"] = d.morale
        out["strength"] = d.strength
        out["initial_strength"] = d.initial_strength
        if d.war_engines:
            out["war_engines"] = [
                {
                    "id": w.id,
                    **({"name": w.name} if w.name else {}),
                    **({"points": w.points} if w.points is not None else {}),
                    "damage_capacity": w.damage_capacity,
                    **({"morale": w.morale} if w.morale is not None else {}),
                }
                for w in d.war_engines
            ]
        return out

    data: dict[str, Any] = {"format": LOG_FORMAT}
    if log.title:
        data["title"] = log.title
    if log.interpretations:
        data["interpretations"] = dict(log.interpretations)
    data["armies"] = {
        side: {"name": army.name, "detachments": [detachment(d) for d in army.detachments]}
        for side, army in zip(SIDES, log.armies, strict=True)
    }
    turns = []
    for t in log.turns:
        td: dict[str, Any] = {"turn": t.number, "events": [_event_data(e) for e in t.events]}
        if t.rally is not None:
            td["rally"] = {"a": _rally_data(t.rally[0]), "b": _rally_data(t.rally[1])}
        turns.append(td)
    data["turns"] = turns
    return data


def log_to_text(log: GameLog, *, as_json: bool = False) -> str:
    """The log as YAML (default) or JSON text.

    >>> log = load_log(EXAMPLE_LOG)
    >>> log_from_text(log_to_text(log)) == log
    True
    """
    data = log_to_data(log)
    if as_json:
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def dump_log(log: GameLog, path: str | Path) -> None:
    """Write the log to ``path`` (JSON for a ``.json`` suffix, YAML otherwise)."""
    p = Path(path)
    p.write_text(log_to_text(log, as_json=p.suffix.lower() == ".json"), encoding="utf-8")


# -- replay ------------------------------------------------------------------------------------------


type Phase = Literal["setup", "battle", "rally", "end"]


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One line of the audit trail: a change to one side's value and both values after it."""

    turn: int
    phase: Phase
    line: int
    side: Side | None
    change: int
    a: int
    b: int
    rule: str
    note: str
    roll: int | None = None

    def row(self) -> tuple[Any, ...]:
        """The entry as a table row (see :data:`LEDGER_COLUMNS`)."""
        change = "" if self.side is None else f"{self.change:+d}"
        return (
            self.turn,
            self.phase,
            self.line or None,
            self.side or "",
            change,
            self.a,
            self.b,
            self.rule,
            self.note,
        )


LEDGER_COLUMNS = ("turn", "phase", "line", "side", "change", "a", "b", "rule", "note")


@dataclass(frozen=True, slots=True)
class Ledger:
    """A replayed game log: every change with its rule, the values after each Rally phase,
    the result and warnings for the players."""

    log: GameLog
    entries: tuple[LedgerEntry, ...]
    start: tuple[int, int]
    rally_values: tuple[tuple[int, int, int, Verdict], ...]
    verdict: Verdict
    ended_turn: int | None
    warnings: tuple[str, ...]
    detachment_morale: tuple[tuple[str, int], ...]

    @property
    def values(self) -> tuple[int, int]:
        """Both current Army Morale values (after the last entry)."""
        if not self.entries:
            return self.start
        return self.entries[-1].a, self.entries[-1].b

    @property
    def winner_text(self) -> str:
        """The result in words."""
        names = {s: self.log.army(s).name for s in SIDES}
        match self.verdict:
            case "a" | "b":
                return (
                    f"{names[self.verdict]} (side {self.verdict}) wins at the end of turn {self.ended_turn}"
                )
            case "draw":
                return f"draw at the end of turn {self.ended_turn}"
            case "both-lose":
                return f"both sides lose at the end of turn {self.ended_turn}"
        return "the game goes on"


@dataclass
class _DetState:
    det: Detachment
    side: Side
    morale: int
    strength: int
    half_line: Loc | None = None
    destroyed_line: Loc | None = None
    destroyed_turn: int = 0
    destroyed_markers: int = 0
    zero_line: Loc | None = None
    """Where the strength first reached 0 (losses or War Engines lost)."""
    engine_left: dict[str, int] = field(default_factory=dict)
    """Strength each War Engine still holds: its Damage Capacity less the losses named for it
    (one unit in a detachment counted in units); an engine leaves when destroyed or wrecked."""
    unnamed: int = 0
    """Losses logged for the detachment without naming a War Engine, not yet placed on one."""

    @property
    def measure(self) -> str:
        return "Damage Capacity" if self.det.strength == "damage-capacity" else "units"

    def weight(self, we: WarEngine) -> int:
        """A War Engine's share of the strength: its Damage Capacity, or one unit."""
        return we.damage_capacity if self.det.strength == "damage-capacity" else 1


class _Replay:
    def __init__(self, log: GameLog) -> None:
        self.log = log
        self.formula = cast(DetachmentFormula, log.option("detachment-value-formula"))
        self.threshold = cast(HalfStrengthThreshold, log.option("half-strength-threshold"))
        self.when_destroyed = log.option("half-strength-when-destroyed")
        self.rounding = cast(WarEngineRounding, log.option("war-engine-rounding"))
        self.we_value = log.option("war-engine-value")
        self.capture_once = log.option("capture-repeats") == "once-per-objective"
        self.equal = cast(EqualValues, log.option("equal-values"))
        self.unnamed_first = log.option("war-engine-lost-strength") == "unnamed-losses-first"
        self.wreck_removes = log.option("wrecked-war-engine-strength") == "removed"
        self.wreck_then_destroy = log.option("wrecked-then-destroyed") == "destroyed-counts"
        self.markers_again = log.option("destroyed-markers-at-r4") == "counted-again"
        self.zero_rejects = log.option("strength-zero-without-event") == "reject-at-r4"
        self.values: dict[Side, int] = {"a": 0, "b": 0}
        self.entries: list[LedgerEntry] = []
        self.dets: dict[str, _DetState] = {}
        self.wes: dict[str, tuple[WarEngine, _DetState]] = {}
        self.we_done: dict[str, tuple[str, Loc]] = {}
        self.captured: dict[tuple[Side, str], Loc] = {}
        self.bunkers: dict[tuple[Side, str], Loc] = {}
        self.turn = 0
        self.notes: list[str] = []

    def fail(self, at: Loc, message: str) -> InputError:
        source = f"{self.log.source} " if self.log.source else ""
        return InputError("log", f"{source}{at}: {message}")

    def add(
        self,
        side: Side | None,
        change: int,
        rule: str,
        note: str,
        at: Loc,
        phase: Phase,
        roll: int | None = None,
    ) -> None:
        if side is not None:
            self.values[side] += change
        self.entries.append(
            LedgerEntry(
                self.turn, phase, at.line, side, change, self.values["a"], self.values["b"], rule, note, roll
            )
        )

    def apply(self, term: Term, at: Loc, phase: Phase, roll: int | None = None) -> None:
        try:
            amount = term.amount(roll)
        except InputError as exc:
            raise self.fail(at, exc.message) from None
        rolled = f" (rolled {roll})" if term.rolls_dice else ""
        self.add(term.side, amount, term.rule, f"{term.note}{rolled}", at, phase, roll)

    # -- setup ---------------------------------------------------------------------------
    def setup(self) -> None:
        for side, army in zip(SIDES, self.log.armies, strict=True):
            for d in army.detachments:
                if d.id in self.dets or d.id in self.wes:
                    raise self.fail(d.at, f"detachment ID {d.id!r} is used twice")
                if d.morale is not None:
                    morale, how = d.morale, "stated"
                else:
                    try:
                        morale = detachment_value(d.points, self.formula)
                    except InputError as exc:
                        raise self.fail(d.at, f"detachment {d.id!r}: {exc.message}") from None
                    how = f"{d.points} pts"
                st = _DetState(d, side, morale, d.initial_strength)
                self.dets[d.id] = st
                for w in d.war_engines:
                    if w.id in self.wes or w.id in self.dets:
                        raise self.fail(w.at, f"War Engine ID {w.id!r} is used twice")
                    self.wes[w.id] = (w, st)
                    st.engine_left[w.id] = st.weight(w)
                held = sum(st.engine_left.values())
                if d.initial_strength < held:
                    raise self.fail(
                        d.at,
                        f"detachment {d.id!r}: initial_strength {d.initial_strength} is less than "
                        f"its War Engines alone ({held} {st.measure})",
                    )
                self.add(
                    side,
                    morale,
                    "army-morale.army.value",
                    f"{d.label}: Morale value {morale} ({how})",
                    d.at,
                    "setup",
                )

    # -- events --------------------------------------------------------------------------
    def detachment(self, det_id: str, at: Loc) -> _DetState:
        st = self.dets.get(det_id)
        if st is None:
            known = ", ".join(self.dets) or "none"
            raise self.fail(at, f"unknown detachment {det_id!r}; known: {known}")
        if st.destroyed_line is not None:
            raise self.fail(at, f"detachment {det_id!r} was already destroyed ({st.destroyed_line.short})")
        return st

    def half_strength(self, st: _DetState, at: Loc, why: str) -> None:
        self.apply(half_strength_term(st.side, st.morale, f"{st.det.label} {why}"), at, "battle")
        st.half_line = at

    def event(self, e: Event) -> None:
        match e:
            case Losses():
                st = self.detachment(e.detachment, e.at)
                if e.lost > st.strength:
                    raise self.fail(
                        e.at,
                        f"detachment {e.detachment!r} has {st.strength} strength left, cannot lose {e.lost}",
                    )
                if e.war_engine:
                    self.named_losses(st, e)
                else:
                    st.unnamed += e.lost
                st.strength -= e.lost
                by = f" ({e.war_engine})" if e.war_engine else ""
                self.add(
                    None,
                    0,
                    "army-morale.detachment.strength",
                    f"{st.det.label}{by} loses {e.lost}: {st.strength} of {st.det.initial_strength} "
                    f"{st.measure}",
                    e.at,
                    "battle",
                )
                self.strength_changed(st, e.at)
            case HalfStrength():
                st = self.detachment(e.detachment, e.at)
                if st.half_line is not None:
                    raise self.fail(
                        e.at,
                        f"detachment {e.detachment!r} already took its half-strength effect "
                        f"({st.half_line.short}); it applies once per detachment",
                    )
                self.half_strength(st, e.at, "declared at half strength")
                if st.strength < st.det.initial_strength and not at_half_strength(
                    st.strength, st.det.initial_strength, self.threshold
                ):
                    self.notes.append(
                        f"detachment {st.det.label} was declared at half strength ({e.at}) "
                        f"although its logged losses leave {st.strength} of {st.det.initial_strength}"
                    )
            case DetachmentDestroyed():
                st = self.detachment(e.detachment, e.at)
                st.strength = 0
                st.destroyed_turn, st.destroyed_markers = self.turn, e.blast_markers
                if st.half_line is None and self.when_destroyed == "both":
                    self.half_strength(st, e.at, "destroyed, so also at half strength")
                self.apply(
                    destroyed_detachment_term(
                        st.side,
                        e.blast_markers,
                        f"{st.det.label} destroyed with {e.blast_markers} Blast markers",
                    ),
                    e.at,
                    "battle",
                )
                st.destroyed_line = e.at
            case WarEngineDestroyed():
                found = self.wes.get(e.war_engine)
                if found is None:
                    known = ", ".join(self.wes) or "none"
                    raise self.fail(e.at, f"unknown War Engine {e.war_engine!r}; known: {known}")
                if e.war_engine in self.we_done:
                    result, line = self.we_done[e.war_engine]
                    if not (result == "wrecked" and e.result == "destroyed" and self.wreck_then_destroy):
                        hint = (
                            " (to let a wreck be destroyed later, choose the interpretation "
                            "wrecked-then-destroyed: destroyed-counts)"
                            if result == "wrecked" and e.result == "destroyed"
                            else ""
                        )
                        raise self.fail(
                            e.at,
                            f"War Engine {e.war_engine!r} was already {result} ({line.short}); "
                            f"it counts once{hint}",
                        )
                we, st = found
                self.we_done[e.war_engine] = (e.result, e.at)
                gainer = other(st.side)
                label = we.name or we.id
                removes = e.result == "destroyed" or self.wreck_removes
                if removes and st.destroyed_line is None and we.id in st.engine_left:
                    self.remove_engine(st, we, e.result, e.at)
                if e.result == "wrecked":
                    self.add(
                        gainer,
                        0,
                        "army-morale.one-time.war-engine-destroyed",
                        f"{label} wrecked, not destroyed: no gain",
                        e.at,
                        "battle",
                    )
                    return
                value = self.war_engine_value(we, st, e.at)
                gain = war_engine_gain(value, self.rounding)
                self.add(
                    gainer,
                    gain,
                    "army-morale.one-time.war-engine-destroyed",
                    f"enemy {label} destroyed: half of its Morale value {value}",
                    e.at,
                    "battle",
                )
            case BunkerDestroyed():
                if e.bunker:
                    earlier = self.bunkers.get((e.side, e.bunker))
                    if earlier is not None:
                        raise self.fail(
                            e.at,
                            f"bunker {e.bunker!r} of side {e.side} was already destroyed ({earlier.short})",
                        )
                    self.bunkers[(e.side, e.bunker)] = e.at
                self.apply(bunker_term(e.side), e.at, "battle", e.roll)
            case Adjustment():
                self.add(
                    e.side, e.amount, "army-morale.army.value", f"adjustment: {e.reason}", e.at, "battle"
                )

    def named_losses(self, st: _DetState, e: Losses) -> None:
        """Damage Capacity lost by one named War Engine of ``st``."""
        found = self.wes.get(e.war_engine)
        if found is None or found[1] is not st:
            mine = ", ".join(w.id for w in st.det.war_engines) or "none"
            raise self.fail(
                e.at,
                f"detachment {e.detachment!r} has no War Engine {e.war_engine!r}; its War Engines: {mine}",
            )
        if st.det.strength != "damage-capacity":
            raise self.fail(
                e.at,
                f"detachment {e.detachment!r} counts its strength in units; name a War Engine in "
                "losses only for a detachment counted in Damage Capacity",
            )
        if e.war_engine not in st.engine_left:
            result, line = self.we_done[e.war_engine]
            raise self.fail(e.at, f"War Engine {e.war_engine!r} was already {result} ({line.short})")
        left = st.engine_left[e.war_engine]
        if e.lost > left:
            raise self.fail(
                e.at, f"War Engine {e.war_engine!r} has {left} Damage Capacity left, cannot lose {e.lost}"
            )
        st.engine_left[e.war_engine] = left - e.lost

    def remove_engine(self, st: _DetState, we: WarEngine, result: str, at: Loc) -> None:
        """A destroyed (or wrecked) War Engine takes the strength it still held out of its detachment.

        Losses logged without naming a War Engine may or may not have been this one's; the
        interpretation ``war-engine-lost-strength`` says which (see rules.yaml).
        """
        left = st.engine_left.pop(we.id, 0)
        if self.unnamed_first:
            drop = max(0, left - st.unnamed)  # the unnamed losses were this engine's first
        else:
            drop = min(left, st.strength)  # the unnamed losses were the other units'
        st.unnamed -= left - drop  # unnamed losses now placed on this engine
        st.strength -= drop
        lost = f"{drop} {st.measure}".replace("1 units", "1 unit")
        held = "it still held" if drop == left else f"more ({left - drop} already logged as losses)"
        self.add(
            None,
            0,
            "army-morale.detachment.strength",
            f"{we.name or we.id} {result}: {st.det.label} loses {lost} {held}, "
            f"{st.strength} of {st.det.initial_strength} left",
            at,
            "battle",
        )
        self.strength_changed(st, at)

    def strength_changed(self, st: _DetState, at: Loc) -> None:
        """The half-strength effect once the strength is low enough; note where it reached 0."""
        if st.half_line is None and at_half_strength(st.strength, st.det.initial_strength, self.threshold):
            self.half_strength(st, at, f"reduced to {st.strength} of {st.det.initial_strength}")
        if st.strength == 0 and st.zero_line is None:
            st.zero_line = at

    def war_engine_value(self, we: WarEngine, st: _DetState, at: Loc) -> Fraction:
        if we.morale is not None:
            return Fraction(we.morale)
        if self.we_value == "detachment-share":
            return Fraction(st.morale, len(st.det.war_engines))
        if we.points is None:
            raise self.fail(
                at, f"War Engine {we.id!r} has neither points nor morale in its army list ({we.at})"
            )
        try:
            return Fraction(detachment_value(we.points, self.formula))
        except InputError as exc:
            raise self.fail(at, f"War Engine {we.id!r}: {exc.message}") from None

    # -- Rally -----------------------------------------------------------------------------
    def rally(self, turn: Turn, rally: tuple[RallySide, RallySide]) -> Verdict:
        if self.zero_rejects:
            for st in self.dets.values():
                if st.strength == 0 and st.destroyed_line is None and st.zero_line is not None:
                    raise self.fail(
                        rally[0].at,
                        f"detachment {st.det.label} has had no strength left since {st.zero_line.short} "
                        "but is not recorded as destroyed; log detachment-destroyed with its Blast "
                        "markers before step R4 (strength-zero-without-event: reject-at-r4)",
                    )
        for side, report in zip(SIDES, rally, strict=True):
            if self.capture_once:
                for c in report.capture:
                    if not c.objective:
                        raise self.fail(
                            c.at, "with capture-repeats: once-per-objective every capture names its objective"
                        )
                    if (side, c.objective) in self.captured:
                        raise self.fail(
                            c.at,
                            f"Capture objective {c.objective!r} already paid out "
                            f"({self.captured[(side, c.objective)].short})",
                        )
                    self.captured[(side, c.objective)] = c.at
            block = (
                rally_terms(report.counts(), RallyCounts())
                if side == "a"
                else rally_terms(RallyCounts(), report.counts())
            )
            rolls: Iterator[tuple[int, Loc]] = iter(report.rolls())
            for term in block:
                if term.rolls_dice:
                    roll, at = next(rolls)
                    self.apply(term, at, "rally", roll)
                else:
                    self.apply(term, report.at, "rally")
        if self.markers_again:
            for st in self.dets.values():
                if st.destroyed_turn == self.turn and st.destroyed_markers and st.destroyed_line:
                    note = f"Blast markers of {st.det.label}, destroyed this turn, counted again"
                    term = Term(
                        st.side, "army-morale.ongoing.blast-markers", -1, constant(st.destroyed_markers), note
                    )
                    self.apply(term, st.destroyed_line, "rally")
        verdict = game_end(self.values["a"], self.values["b"], self.equal)
        text = {
            "continue": "no side at 0 or less: the game goes on",
            "draw": "both at 0 or less and equal: draw",
            "both-lose": "both at 0 or less and equal: both lose",
        }.get(verdict, f"side {verdict} wins")
        self.add(None, 0, "army-morale.game-end", f"step R4: {text}", turn.at, "end")
        return verdict

    def run(self) -> Ledger:
        self.setup()
        start = (self.values["a"], self.values["b"])
        rally_values: list[tuple[int, int, int, Verdict]] = []
        verdict: Verdict = "continue"
        ended: int | None = None
        for i, turn in enumerate(self.log.turns):
            if ended is not None:
                raise self.fail(turn.at, f"the game already ended at the end of turn {ended}'s Rally phase")
            if turn.number != i + 1:
                raise self.fail(turn.at, f"turn {turn.number} out of order; expected turn {i + 1}")
            if i and self.log.turns[i - 1].rally is None:
                raise self.fail(
                    turn.at, f"turn {i} has no Rally phase recorded, so turn {turn.number} cannot start"
                )
            self.turn = turn.number
            for e in turn.events:
                self.event(e)
            if turn.rally is not None:
                verdict = self.rally(turn, turn.rally)
                rally_values.append((turn.number, self.values["a"], self.values["b"], verdict))
                if verdict != "continue":
                    ended = turn.number
        return Ledger(
            log=self.log,
            entries=tuple(self.entries),
            start=start,
            rally_values=tuple(rally_values),
            verdict=verdict,
            ended_turn=ended,
            warnings=tuple(self.warnings()),
            detachment_morale=tuple((k, s.morale) for k, s in self.dets.items()),
        )

    def warnings(self) -> Iterator[str]:
        yield from self.notes
        for st in self.dets.values():
            d = st.det
            if st.destroyed_line is not None:
                yield f"detachment {d.label} is destroyed"
            elif st.strength == 0:
                since = f" since {st.zero_line.short}" if st.zero_line is not None else ""
                yield (
                    f"detachment {d.label} has no strength left{since} but is not recorded as destroyed: "
                    "log detachment-destroyed with the Blast markers it carried, or their -1 each "
                    "(army-morale.one-time.destroyed-detachment-blast-markers) is missing"
                )
            elif st.half_line is not None:
                yield f"detachment {d.label} is at half strength (its Morale value {st.morale} is spent)"
        if self.log.turns and self.log.turns[-1].rally is None:
            yield f"turn {self.log.turns[-1].number}'s Rally phase is not recorded yet"


@implements("army-morale.effects.kinds", "army-morale.army.value")
def replay(log: GameLog) -> Ledger:
    """Replay a game log into a :class:`Ledger`; an impossible log raises InputError with its line.

    >>> log = load_log(EXAMPLE_LOG)
    >>> bad = log.with_event(2, HalfStrength("infantry", at=Loc(99, "turns[1].events[3]")))
    >>> try:
    ...     replay(bad)
    ... except InputError as exc:
    ...     print(exc.message)
    example-game.yaml line 99 (turns[1].events[3]): detachment 'infantry' already took its half-strength effect (line 60); \
it applies once per detachment
    """
    return _Replay(log).run()
