"""Setting up a game from the tracker's form: armies, detachments, War Engines, objectives.

The tracker's set-up form holds text as the player typed it; :func:`army_from_form` turns one
side's form into an :class:`~rulesbook.systems.army_morale.log.Army`, checking every field with
the rules it feeds, and a wrong field raises a one-line :class:`~rulesbook.errors.InputError`
that names it in the player's words (``side a, detachment 2 (Tank squadron), points: …``); the
form keeps what was typed. The checks follow the source (Army Morale): a detachment's Morale
value comes from its points (``army-morale.detachment.value``); its strength is its number of
units or, for War Engines, their total Damage Capacity (``army-morale.detachment.strength``); a
War Engine's own Morale value (half of which an enemy gains when it is destroyed) comes from
its points or is stated; objectives are counted per side (:mod:`.objectives`).

A **War Engines** box lists a detachment's War Engines, separated by commas, each as its name
and its Damage Capacity, then optionally its points (``120 pts``) or its Morale value
(``morale 4``): ``Stompa 6 120 pts, Stompa 6 120 pts``. IDs are made from the names
(``stompa-1``, ``stompa-2``), unique across both armies.

Example:
    >>> army = army_from_form("b", "Ork horde", [
    ...     {"name": "Boyz mob", "points": "200", "strength": "units", "units": "24"},
    ...     {"name": "Stompa pair", "points": "240", "strength": "damage-capacity",
    ...      "war_engines": "Stompa 6 120 pts, Stompa 6 120 pts"},
    ... ], {"take_and_hold": "1", "bunkers": "north, south"})
    >>> [(d.id, d.initial_strength) for d in army.detachments]
    [('boyz-mob', 24), ('stompa-pair', 12)]
    >>> [w.id for w in army.detachments[1].war_engines], army.objectives.bunkers
    (['stompa-1', 'stompa-2'], ('north', 'south'))
    >>> army_from_form("a", "Guard", [{"name": "Infantry", "points": "lots", "units": "20"}])
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: side a, detachment 1 (Infantry), points: expected a whole number from 0 to 100000, got 'lots'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulesbook.errors import InputError, quote
from rulesbook.systems.army_morale.log import (
    MAX_COUNT,
    STRENGTH_MEASURES,
    Army,
    BunkerDestroyed,
    Detachment,
    GameLog,
    StrengthMeasure,
    WarEngine,
)
from rulesbook.systems.army_morale.objectives import OBJECTIVE_COUNTS, Objectives
from rulesbook.systems.army_morale.rules import SIDES, detachment_strength

__all__ = [
    "DETACHMENT_FIELDS",
    "MAX_DETACHMENTS",
    "army_from_form",
    "army_rows",
    "check_objectives",
    "slug",
]

MAX_DETACHMENTS = 40
"""The most detachments one army's form holds."""

DETACHMENT_FIELDS: tuple[tuple[str, str], ...] = (
    ("name", "Name"),
    ("points", "Points"),
    ("strength", "Strength by"),
    ("units", "Units (or total Damage Capacity)"),
    ("war_engines", "War Engines"),
)
"""The boxes of one detachment row: key and label (the label names the field in errors)."""

_LIMITS = {"points": (0, 100_000), "units": (1, 10_000), "dc": (1, 1000), "morale": (0, 1000)}


def slug(name: str) -> str:
    """An ID made from a name: lower case letters and digits joined by ``-``.

    >>> slug("Super-heavy tank company"), slug("  Boyz!! mob "), slug("***")
    ('super-heavy-tank-company', 'boyz-mob', 'x')
    """
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "x"


def _unique(base: str, taken: set[str]) -> str:
    out, n = base, 1
    while out in taken:
        n += 1
        out = f"{base}-{n}"
    taken.add(out)
    return out


def _whole(field: str, raw: Any, low: int, high: int, *, required: bool = True) -> int | None:
    text = str(raw if raw is not None else "").strip()
    if not text:
        if required:
            raise InputError(field, f"enter a whole number from {low} to {high}")
        return None
    if not re.fullmatch(r"[+-]?[0-9]{1,7}", text) or not low <= int(text) <= high:  # ASCII digits only
        raise InputError(field, f"expected a whole number from {low} to {high}, got {quote(text)}")
    return int(text)


_ENGINE = re.compile(
    r"^(?P<name>.*?)\s+(?P<dc>\d+)(?:\s+(?P<pts>\d+)\s*pts?)?(?:\s+morale\s+(?P<morale>\d+))?$",
    re.I | re.ASCII,
)


def _war_engines(field: str, short: str, text: str, taken: set[str]) -> tuple[WarEngine, ...]:
    entries = [e.strip() for e in re.split(r"[,;\n]", text) if e.strip()]
    by_name: dict[str, int] = {}
    for entry in entries:
        found = _ENGINE.match(entry)
        if found is not None:
            base = slug(found["name"])
            by_name[base] = by_name.get(base, 0) + 1
    engines, numbered = [], dict.fromkeys(by_name, 0)
    for entry in entries:
        found = _ENGINE.match(entry)
        if found is None or not found["name"].strip():
            raise InputError(
                field,
                f"expected entries like 'Stompa 6 120 pts' or 'Baneblade 4 morale 4', got {quote(entry)}",
            )
        name = found["name"].strip()
        where = f"{short}, War Engine {name}"
        dc = _whole(f"{where}, Damage Capacity", found["dc"], *_LIMITS["dc"])
        points = _whole(f"{where}, points", found["pts"], *_LIMITS["points"], required=False)
        morale = _whole(f"{where}, morale", found["morale"], *_LIMITS["morale"], required=False)
        if points is None and morale is None:
            raise InputError(where, "give its points ('120 pts') or its Morale value ('morale 4')")
        base = slug(name)
        numbered[base] += 1
        wanted = f"{base}-{numbered[base]}" if by_name[base] > 1 else base
        engines.append(
            WarEngine(
                _unique(wanted, taken), points=points, damage_capacity=dc or 1, morale=morale, name=name
            )
        )
    return tuple(engines)


def _detachment(side: str, number: int, row: Mapping[str, Any], taken: set[str]) -> Detachment:
    name = str(row.get("name") or "").strip()
    where = f"side {side}, detachment {number}" + (f" ({name})" if name else "")
    if not name:
        raise InputError(f"{where}, name", "enter the detachment's name")
    points = _whole(f"{where}, points", row.get("points"), *_LIMITS["points"])
    measure = str(row.get("strength") or "units")
    if measure not in STRENGTH_MEASURES:
        raise InputError(
            f"{where}, strength by", f"expected one of {', '.join(STRENGTH_MEASURES)}, got {quote(measure)}"
        )
    strength: StrengthMeasure = "units" if measure == "units" else "damage-capacity"
    detachment_id = _unique(slug(name), taken)
    short = f"side {side}, detachment {number}"
    engines = _war_engines(f"{where}, War Engines", short, str(row.get("war_engines") or ""), taken)
    size = _whole(f"{where}, units", row.get("units"), *_LIMITS["units"], required=False)
    if strength == "damage-capacity":
        if not engines and size is None:
            raise InputError(
                f"{where}, War Engines", "a detachment measured by Damage Capacity lists its War Engines"
            )
        total = (
            detachment_strength(damage_capacities=[w.damage_capacity for w in engines]) if engines else None
        )
        if size is not None and total is not None and size != total:
            raise InputError(
                f"{where}, units",
                f"a Damage Capacity detachment's strength is its War Engines' total, {total}; leave it empty",
            )
        size = size if total is None else total
    elif size is None:
        raise InputError(f"{where}, units", f"enter how many units it has (1 to {_LIMITS['units'][1]})")
    assert points is not None and size is not None
    return Detachment(detachment_id, points, size, strength, name=name, war_engines=engines)


def army_from_form(
    side: str,
    name: str,
    rows: Sequence[Mapping[str, Any]],
    objectives: Mapping[str, Any] | None = None,
    taken: set[str] | None = None,
) -> Army:
    """One side's army from the set-up form (rows left wholly empty are skipped); ``taken``
    holds the IDs already used (the other army's), and gets this army's added."""
    taken = set() if taken is None else taken
    army_name = str(name or "").strip()
    if not army_name:
        raise InputError(f"side {side}, army name", "enter the army's name")
    filled = [r for r in rows if any(str(v or "").strip() for k, v in r.items() if k != "strength")]
    if not filled:
        raise InputError(f"side {side}, detachments", "enter at least one detachment")
    if len(filled) > MAX_DETACHMENTS:
        raise InputError(f"side {side}, detachments", f"at most {MAX_DETACHMENTS}, got {len(filled)}")
    dets = tuple(_detachment(side, i, r, taken) for i, r in enumerate(filled, start=1))
    given = objectives or {}
    counts = {
        key: _whole(f"side {side}, {label} objectives", given.get(key), 0, MAX_COUNT, required=False) or 0
        for key, label in OBJECTIVE_COUNTS
    }
    bunkers: list[str] = []
    for bunker in (b.strip() for b in str(given.get("bunkers") or "").split(",")):
        if bunker and bunker in bunkers:
            raise InputError(f"side {side}, bunkers", f"{quote(bunker)} is given twice")
        if bunker:
            bunkers.append(bunker)
    return Army(army_name, dets, objectives=Objectives(**counts, bunkers=tuple(bunkers)))


def army_rows(army: Army) -> tuple[list[dict[str, str]], dict[str, str]]:
    """The set-up form's rows and objectives of an army (what :func:`army_from_form` reads back).

    >>> from rulesbook.systems.army_morale.logfile import load_log
    >>> from rulesbook.systems.army_morale.log import EXAMPLE_LOG
    >>> army = load_log(EXAMPLE_LOG).army("b")
    >>> rows, objectives = army_rows(army)
    >>> rows[1]["war_engines"]
    'stompa-1 6 120 pts, stompa-2 6 120 pts'
    >>> [d.initial_strength for d in army_from_form("b", army.name, rows, objectives).detachments]
    [24, 12, 5]
    """

    def engine(w: WarEngine) -> str:
        extra = (f" {w.points} pts" if w.points is not None else "") + (
            f" morale {w.morale}" if w.morale is not None else ""
        )
        return f"{w.name or w.id} {w.damage_capacity}{extra}"

    rows = [
        {
            "name": d.name or d.id,
            "points": str(d.points),
            "strength": d.strength,
            "units": "" if d.strength == "damage-capacity" and d.war_engines else str(d.initial_strength),
            "war_engines": ", ".join(engine(w) for w in d.war_engines),
        }
        for d in army.detachments
    ]
    o = army.objectives or Objectives()
    objectives = {key: str(o.count(key)) if o.count(key) else "" for key, _ in OBJECTIVE_COUNTS}
    objectives["bunkers"] = ", ".join(o.bunkers)
    return rows, objectives


@dataclass(frozen=True, slots=True)
class _Claim:
    side: str
    key: str
    label: str
    count: int


def check_objectives(log: GameLog) -> None:
    """Refuse what a side's declared objectives rule out (nothing for a side declaring none):
    more Take & Hold D3 results, Cleanse objectives or Capture rolls in one Rally report than the
    side has such objectives, and a bunker that is not one of the side's.

    >>> from rulesbook.systems.army_morale.log import Adjustment
    >>> army = Army("A", objectives=Objectives(take_and_hold=1, bunkers=("north",)))
    >>> log = GameLog((army, Army("B"))).with_event(1, BunkerDestroyed("a", 4, "south"))
    >>> check_objectives(log)
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: bunker: side a's bunkers are north, got 'south'
    """
    for turn in log.turns:
        for event in turn.events:
            if isinstance(event, BunkerDestroyed):
                _check_bunker(log, event)
        if turn.rally is None:
            continue
        for side, report in zip(SIDES, turn.rally, strict=True):
            declared = log.army(side).objectives
            if declared is None:
                continue
            counts = report.counts()
            claims: Iterable[_Claim] = (
                _Claim(side, "take_and_hold", "Take & Hold", counts.take_and_hold),
                _Claim(side, "cleanse", "Cleanse", counts.cleanse),
                _Claim(side, "capture", "Capture", counts.capture_own + counts.capture_destroy),
            )
            for c in claims:
                if c.count > declared.count(c.key):
                    has = declared.count(c.key)
                    raise InputError(
                        c.key,
                        f"turn {turn.number}: side {side} has {has} {c.label} objective{'s' if has != 1 else ''}, "
                        f"the report gives {c.count}",
                    )


def _check_bunker(log: GameLog, event: BunkerDestroyed) -> None:
    declared = log.army(event.side).objectives
    if declared is None:
        return
    if not declared.bunkers:
        raise InputError("bunker", f"side {event.side} has no Bunker objectives")
    if event.bunker not in declared.bunkers:
        got = quote(event.bunker) if event.bunker else "no name"
        raise InputError(
            "bunker", f"side {event.side}'s bunkers are {', '.join(declared.bunkers)}, got {got}"
        )
