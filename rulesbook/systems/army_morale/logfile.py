"""The game log's file format: YAML (or JSON) text to a :class:`~.log.GameLog` and back.

:func:`load_log` reads a log through the one hardened loader (:mod:`rulesbook.data`: size limit
before reading, nesting/length/number limits, the strict YAML schema, JSON by a JSON parser), then
walks the tree so every rejection names its line; :func:`dump_log` writes it back without loss
(:func:`rulesbook.data.dump_yaml` / :func:`~rulesbook.data.dump_json`: any text survives). The one-time events are read and
written from their declarations (:data:`~rulesbook.systems.army_morale.log.EVENT_KINDS`), with
the bounds declared there.

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
          - {type: effect, effect: general-slain, side: a}   # a morale effect the variant adds
                                         # (add: morale_effects), applied to the game's choices
        rally:                           # end of the Rally phase (step R4); omit while unplayed
          a:
            blast_markers: 3
            take_and_hold: [2, 3]        # one D3 result per objective controlled
            rescue_escorts: 1
            cleanse: 1
            capture:                     # one entry per Capture objective controlled
              - {choice: own, roll: 5}   # own: +D6 to a; destroy: -D6 to b
            effects: {supply-lines: 2}   # added effects checked at step R4: KEY: COUNT
          b: {}

Example:
    >>> from rulesbook.systems.army_morale.log import EXAMPLE_LOG
    >>> log = load_log(EXAMPLE_LOG)
    >>> log.army("a").name, len(log.turns), log_from_text(log_to_text(log)) == log
    ('Imperial Guard', 3, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulesbook.data import NULL, DataFileError, compose_text, dump_json, dump_yaml, read_text, scalar_value
from rulesbook.errors import InputError, quote, shorten
from rulesbook.inputs import ChoiceInput, Input, IntInput, IntListInput
from rulesbook.systems.army_morale.choices import (
    CHOICES,
    INTERPRETATION_PREFIX,
    ArmyMoraleReadings,
    readings_of_log,
)
from rulesbook.systems.army_morale.log import (
    CAPTURE_ROLL,
    EVENT_TYPES,
    LOG_FORMAT,
    MAX_COUNT,
    RALLY_INPUTS,
    RALLY_ONLY,
    STRENGTH_MEASURES,
    Army,
    CaptureRoll,
    Detachment,
    Event,
    GameLog,
    Loc,
    RallySide,
    StrengthMeasure,
    Turn,
    WarEngine,
    event_kind,
    rally_input,
)
from rulesbook.systems.army_morale.rules import CAPTURE_CHOICES, SIDES, detachment_strength

__all__ = ["dump_log", "load_log", "log_from_text", "log_to_data", "log_to_text"]


def _is_null(node: Node) -> bool:
    """An empty value (``~``, ``null`` or nothing), as opposed to a quoted empty text."""
    return isinstance(node, ScalarNode) and node.tag == NULL


class _Reader:
    """Reads values out of a composed YAML node tree, naming line and path on every error."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.readings = CHOICES.readings

    def shown(self, node: Node) -> str:
        """A value as the log spells it, for messages: ``true`` (not Python's ``True``),
        ``3.5``, an empty value as ``nothing``, text quoted (``'lots'``)."""
        if not isinstance(node, ScalarNode):
            return "a list" if isinstance(node, SequenceNode) else "a mapping"
        if node.tag == "tag:yaml.org,2002:str":
            return quote(node.value)
        return shorten(node.value) or "nothing"

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
                raise self.fail(self.loc(key_node, path), f"key {quote(key)} given twice")
            out[key] = value_node
        return out

    def sequence(self, node: Node, path: str) -> list[Node]:
        if not isinstance(node, SequenceNode):
            raise self.fail(self.loc(node, path), "expected a list")
        return list(node.value)

    def scalar(self, node: Node, path: str) -> Any:
        if not isinstance(node, ScalarNode):
            raise self.fail(self.loc(node, path), "expected a single value")
        return scalar_value(node)

    def need(self, m: Mapping[str, Node], key: str, parent: Node, path: str) -> Node:
        if key not in m:
            raise self.fail(self.loc(parent, path), f"missing key {quote(key)}")
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
        self.readings = readings_of_log(dict(interps))
        armies_node = self.need(top, "armies", root, "log")
        armies = self.mapping(armies_node, "armies", SIDES)
        pair = tuple(self.army(self.need(armies, s, armies_node, "armies"), f"armies.{s}") for s in SIDES)
        turns_node = top.get("turns")
        turns: list[Turn] = []
        if turns_node is not None and not (_is_null(turns_node)):
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
        """``slug: option`` pairs, each naming a typed reading of :class:`ArmyMoraleReadings`."""
        specs = {s.interpretation.removeprefix(INTERPRETATION_PREFIX): s for s in ArmyMoraleReadings.specs()}
        m = self.mapping(node, "interpretations", tuple(specs))
        out = []
        for slug, value_node in m.items():
            out.append((slug, self.choice(value_node, f"interpretations.{slug}", specs[slug].options, slug)))
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
            mixed = self.readings.mixed_detachment_strength == "capacity-plus-units"
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
        if "events" in m and not (_is_null(m["events"])):
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
        name = self.scalar(raw["type"], f"{path}.type")
        if name in RALLY_ONLY:
            raise self.fail(
                at,
                f"{name} ({RALLY_ONLY[name]}) is checked at the end of the Rally phase; "
                "record it under the turn's 'rally', not as an event",
            )
        kind = event_kind(self.choice(raw["type"], f"{path}.type", EVENT_TYPES, "type"))
        m = self.mapping(node, path, ("type", *(f.key for f in kind.fields)))
        values = {
            f.key: self.value(f, self.need(m, f.key, node, path), f"{path}.{f.key}")
            for f in kind.fields
            if f.key in m or not kind.optional(f.key)
        }
        return kind.build(values, at)

    def value(self, declared: Input, node: Node, path: str) -> Any:
        """A field's value, checked against its declared input."""
        if isinstance(declared, IntInput):
            return self.integer(node, path, declared.minimum, declared.maximum, declared.key)
        if isinstance(declared, ChoiceInput):
            return self.choice(node, path, declared.choices, declared.key)
        return self.text(node, path)

    def rally_side(self, node: Node | None, parent: Node, path: str) -> RallySide:
        if node is None or _is_null(node):
            return RallySide(at=self.loc(node or parent, path))
        m = self.mapping(node, path, tuple(f.key for f in RALLY_INPUTS))
        d3 = cast(IntListInput, rally_input("take_and_hold"))
        th: list[int] = []
        if "take_and_hold" in m:
            for i, r in enumerate(self.sequence(m["take_and_hold"], f"{path}.take_and_hold")):
                th.append(
                    self.integer(
                        r, f"{path}.take_and_hold[{i}]", d3.minimum, d3.maximum, "Take & Hold roll (D3)"
                    )
                )
        captures: list[CaptureRoll] = []
        if "capture" in m:
            for i, c in enumerate(self.sequence(m["capture"], f"{path}.capture")):
                cp = f"{path}.capture[{i}]"
                cm = self.mapping(c, cp, ("choice", "roll", "objective"))
                captures.append(
                    CaptureRoll(
                        self.choice(
                            self.need(cm, "choice", c, cp), f"{cp}.choice", CAPTURE_CHOICES, "choice"
                        ),
                        self.value(CAPTURE_ROLL, self.need(cm, "roll", c, cp), f"{cp}.roll"),
                        self.text(cm["objective"], f"{cp}.objective") if "objective" in cm else "",
                        at=self.loc(c, cp),
                    )
                )
        effects: list[tuple[str, int]] = []
        if "effects" in m:
            en = m["effects"]
            if not isinstance(en, MappingNode):
                raise self.fail(
                    self.loc(en, f"{path}.effects"),
                    "effects must be a mapping of KEY: COUNT (e.g. supply-lines: 2)",
                )
            for kn, cn in en.value:
                key = self.text(kn, f"{path}.effects")
                effects.append((key, self.integer(cn, f"{path}.effects.{key}", 0, MAX_COUNT, key)))
        counts = {
            f.key: self.value(f, m[f.key], f"{path}.{f.key}")
            for f in RALLY_INPUTS
            if isinstance(f, IntInput) and f.key in m
        }
        return RallySide(
            **counts,
            take_and_hold=tuple(th),
            capture=tuple(captures),
            effects=tuple(effects),
            at=self.loc(node, path),
        )


def _refusal(exc: DataFileError, source: str) -> InputError:
    """The loader's error in the log's style: ``game.yaml line 3: not valid YAML (…)``."""
    where = f"{source} line {exc.line}" if exc.line is not None else source
    if exc.kind == "refused" and exc.line is not None:
        return InputError("log", f"{where}: {exc.reason}")
    return InputError("log", f"{where}: {exc.kind} ({exc.reason})")


def log_from_text(text: str, source: str = "log", *, is_json: bool = False) -> GameLog:
    """Parse a game log from YAML (or JSON) text; errors name ``source`` and the line.

    >>> log_from_text("armies: {a: {name: A, detachments: []}}\\n")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: log: log line 1 (armies): missing key 'b'
    """
    try:
        root = compose_text(text, source, is_json=is_json)
    except DataFileError as exc:
        raise _refusal(exc, source) from None
    if root is None:
        raise InputError("log", f"{source} line 1: the log is empty; expected 'armies' and 'turns'")
    return _Reader(source).log(root)


def load_log(path: str | Path) -> GameLog:
    """Load a game log file (``.yaml``, ``.yml`` or ``.json``); at most 1,000,000 bytes."""
    p = Path(path)
    try:
        text = read_text(p)
    except DataFileError as exc:
        raise _refusal(exc, p.name) from None
    return log_from_text(text, p.name, is_json=p.suffix.lower() == ".json")


# -- writing ----------------------------------------------------------------------------------------


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
    if r.effects:
        out["effects"] = dict(r.effects)
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
        td: dict[str, Any] = {"turn": t.number, "events": [event_kind(e.type).data(e) for e in t.events]}
        if t.rally is not None:
            td["rally"] = {"a": _rally_data(t.rally[0]), "b": _rally_data(t.rally[1])}
        turns.append(td)
    data["turns"] = turns
    return data


def log_to_text(log: GameLog, *, as_json: bool = False) -> str:
    """The log as YAML (default) or JSON text.

    >>> from rulesbook.systems.army_morale.log import EXAMPLE_LOG
    >>> log = load_log(EXAMPLE_LOG)
    >>> log_from_text(log_to_text(log)) == log
    True
    """
    data = log_to_data(log)
    return dump_json(data) if as_json else dump_yaml(data)


def dump_log(log: GameLog, path: str | Path) -> None:
    """Write the log to ``path`` (JSON for a ``.json`` suffix, YAML otherwise)."""
    p = Path(path)
    p.write_text(log_to_text(log, as_json=p.suffix.lower() == ".json"), encoding="utf-8")
