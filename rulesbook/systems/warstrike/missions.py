"""Missions as data: victory conditions per side and the reserve roll.

The WarStrike draft defers reserves (and missions generally) to a Missions chapter we do not
have, so rulesbook ships example missions as YAML files in ``missions/``. A mission declares,
per side, the ways to win as conditions on a few counters of the battle, and its reserve roll
(a clearly labelled placeholder in the examples). Files are read with ``load_data_file`` and
checked; a malformed file raises :class:`~rulesbook.data.DataFileError` naming the file
and the field.

Counters (seen from the side whose conditions are checked):

* ``turn`` — the number of the current turn;
* ``objectives_held`` — objective markers the side holds;
* ``enemy_units_remaining`` — enemy units alive or in reserve;
* ``units_escorted`` — units (a hostage, a VIP) the side has escorted off the table.

A condition is ``{counter, at_least}`` or ``{counter, at_most}``, or ``{all: [conditions]}``;
each carries a ``text`` saying it in words. A side wins when **any** of its conditions holds.

Example:
    >>> m = mission("seize-the-crossing")
    >>> m.title, [c.text for c in m.victory["attacker"]]
    ('Seize the Crossing', ['Hold at least two of the three objective markers.'])
    >>> m.met("attacker", {"turn": 3, "objectives_held": 2, "enemy_units_remaining": 5, "units_escorted": 0})
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from rulesbook.data import DataFileError, load_data_file, need
from rulesbook.dice import DiceExpr, RollTest, parse_dice
from rulesbook.errors import InputError, quote
from rulesbook.registry import implements

__all__ = ["COUNTERS", "SIDES", "Condition", "Mission", "ReserveRoll", "load_mission", "mission", "missions"]

type Side = Literal["attacker", "defender"]
SIDES: tuple[Side, ...] = ("attacker", "defender")
COUNTERS = ("turn", "objectives_held", "enemy_units_remaining", "units_escorted")
MISSIONS_DIR = Path(__file__).with_name("missions")


@dataclass(frozen=True, slots=True)
class Condition:
    """A way to win: a bound on one counter, or every one of several conditions."""

    text: str
    counter: str = ""
    at_least: int | None = None
    at_most: int | None = None
    all_of: tuple[Condition, ...] = ()

    def met(self, counters: Mapping[str, int]) -> bool:
        """Whether the condition holds for these counter values.

        >>> Condition("two objectives", "objectives_held", at_least=2).met({"objectives_held": 1})
        False
        """
        if self.all_of:
            return all(c.met(counters) for c in self.all_of)
        value = counters[self.counter]
        if self.at_least is not None and value < self.at_least:
            return False
        return not (self.at_most is not None and value > self.at_most)


@dataclass(frozen=True, slots=True)
class ReserveRoll:
    """The roll each unit in reserve makes to arrive, and the first turn it may arrive."""

    dice: DiceExpr
    target: int
    direction: Literal["under", "over"]
    from_turn: int
    placeholder: bool
    note: str = ""

    def test(self) -> RollTest:
        """The per-unit arrival roll as a roll test."""
        return RollTest(dice=self.dice, target=self.target, direction=self.direction)

    def describe(self) -> str:
        """The roll in words."""
        sign = "or more" if self.direction == "over" else "or less"
        label = "PLACEHOLDER " if self.placeholder else ""
        return f"{label}{self.dice} per unit, {self.target} {sign}, from turn {self.from_turn}"


@dataclass(frozen=True, slots=True)
class Mission:
    """A mission: title, length, victory conditions per side and the reserve roll."""

    id: str
    title: str
    summary: str
    turns: int
    objectives: int
    victory: Mapping[Side, tuple[Condition, ...]]
    reserves: ReserveRoll
    example: bool = True

    @implements("warstrike.victory.check")
    def met_conditions(self, side: Side, counters: Mapping[str, int]) -> tuple[Condition, ...]:
        """The conditions of ``side`` that hold for these counters."""
        missing = [c for c in COUNTERS if c not in counters]
        if missing:
            raise InputError(missing[0], "the victory check needs this counter")
        return tuple(c for c in self.victory[side] if c.met(counters))

    def met(self, side: Side, counters: Mapping[str, int]) -> bool:
        """Whether ``side`` has won by the mission's conditions."""
        return bool(self.met_conditions(side, counters))


def _condition(raw: Any, where: str) -> Condition:
    text = str(need(raw, "text", where, str))
    if "all" in raw:
        parts = raw["all"]
        if not isinstance(parts, list) or not parts:
            raise DataFileError(f"{where}.all: expected a non-empty list of conditions")
        subs = []
        for i, p in enumerate(parts):
            if isinstance(p, Mapping) and "text" not in p:
                p = {**p, "text": text}
            subs.append(_condition(p, f"{where}.all[{i}]"))
        return Condition(text, all_of=tuple(subs))
    counter = need(raw, "counter", where, str)
    if counter not in COUNTERS:
        raise DataFileError(f"{where}.counter: expected one of {', '.join(COUNTERS)}, got {quote(counter)}")
    bounds = {k: raw.get(k) for k in ("at_least", "at_most")}
    if all(v is None for v in bounds.values()):
        raise DataFileError(f"{where}: give at_least or at_most")
    for k, v in bounds.items():
        if v is not None:
            _whole(raw, k, where, 0, MAX_COUNT)
    return Condition(text, counter, bounds["at_least"], bounds["at_most"])


MAX_TURNS = 50
"""The most turns a mission file may give (and the largest ``from_turn``)."""
MAX_COUNT = 1000
"""The largest objective count or counter bound a mission file may give."""


def _whole(
    raw: Mapping[str, Any], key: str, where: str, low: int, high: int, default: int | None = None
) -> int:
    """``raw[key]`` as a whole number from ``low`` to ``high`` (``default`` when left out)."""
    if key not in raw and default is not None:
        return default
    value = need(raw, key, where, object)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DataFileError(
            f"{where}.{key}: expected a whole number from {low} to {high}, got {quote(value)}"
        )
    return value


def _flag(raw: Mapping[str, Any], key: str, where: str) -> bool:
    """``raw[key]`` as true or false (false when left out)."""
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise DataFileError(f"{where}.{key}: expected true or false, got {quote(value)}")
    return value


def load_mission(path: Path) -> Mission:
    """Load and check one mission file.

    >>> load_mission(MISSIONS_DIR / "hostage-extraction.yaml").reserves.describe()
    'PLACEHOLDER D6 per unit, 4 or more, from turn 2'
    """
    name = path.name
    data = load_data_file(path)
    mid = need(data, "id", name, str)
    if f"{mid}.yaml" != name:
        raise DataFileError(f"{name}.id: must match the file name, got {quote(mid)}")
    turns = _whole(data, "turns", name, 1, MAX_TURNS)
    objectives = _whole(data, "objectives", name, 0, MAX_COUNT, default=0)
    rraw = need(data, "reserves", name, dict)
    rw = f"{name}.reserves"
    try:
        dice = parse_dice(str(need(rraw, "dice", rw, str)), field_name=f"{rw}.dice").check_cost(f"{rw}.dice")
    except InputError as exc:
        raise DataFileError(str(exc)) from None
    if dice.is_constant:
        raise DataFileError(f"{rw}.dice: the reserve roll must roll dice")
    direction = need(rraw, "direction", rw, str)
    if direction not in ("under", "over"):
        raise DataFileError(f"{rw}.direction: expected under or over, got {quote(direction)}")
    reserves = ReserveRoll(
        dice=dice,
        # a target the dice cannot reach would make every unit arrive, or none
        target=_whole(rraw, "target", rw, dice.minimum, dice.maximum),
        direction=direction,
        from_turn=_whole(rraw, "from_turn", rw, 1, turns, default=1),
        placeholder=_flag(rraw, "placeholder", rw),
        note=" ".join(str(rraw.get("note", "")).split()),
    )
    vraw = need(data, "victory", name, dict)
    victory: dict[Side, tuple[Condition, ...]] = {}
    for side in SIDES:
        items = need(vraw, side, f"{name}.victory", list)
        victory[side] = tuple(_condition(c, f"{name}.victory.{side}[{i}]") for i, c in enumerate(items))
    extra = set(vraw) - set(SIDES)
    if extra:
        raise DataFileError(
            f"{name}.victory: unknown side {quote(sorted(map(str, extra))[0])}; sides are attacker, defender"
        )
    return Mission(
        id=mid,
        title=need(data, "title", name, str),
        summary=" ".join(str(data.get("summary", "")).split()),
        turns=turns,
        objectives=objectives,
        victory=victory,
        reserves=reserves,
        example=_flag(data, "example", name),
    )


@cache
def missions() -> dict[str, Mission]:
    """Every shipped mission by ID (files in ``missions/``), sorted by ID."""
    found = (load_mission(p) for p in sorted(MISSIONS_DIR.glob("*.yaml")))
    return {m.id: m for m in found}


def mission(mission_id: str) -> Mission:
    """The shipped mission called ``mission_id`` (InputError naming the choices otherwise)."""
    known = missions()
    if mission_id not in known:
        raise InputError("mission", f"expected one of {', '.join(known)}, got {quote(mission_id)}")
    return known[mission_id]
