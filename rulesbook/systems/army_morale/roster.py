"""An Epic-scale roster as the tracker's set-up: each formation of the list one detachment row.

BattleScribe (and New Recruit) lists of Epic-scale games hold *formations* — a company, a
squadron, a Titan — each with its points and the units inside it; a War Engine is a unit whose
profile gives its Damage Capacity (``DC``). :func:`roster_rows` turns each formation into a row of
the set-up form (:func:`.setup.army_from_form` checks it when the game starts; the player may
change anything first):

* **name** and **points** — the formation's (its own cost and everything inside it);
* **strength** — by Damage Capacity when every unit in it is a War Engine, else by units, a War
  Engine counting as one unit (register entry ``mixed-detachment-strength``);
* **units** — how many units it holds (the models' numbers added up);
* **War Engines** — each with its Damage Capacity and points: its own cost in the list, or, in a
  formation of War Engines only whose cost is not split among them, the formation's points shared
  equally when they divide evenly; otherwise left for the player to type, and said.

Only rosters of Epic-scale game systems are read (:data:`GAME_SYSTEMS`); another game system,
or a roster without formations, is one line naming it.

Example:
    >>> from rulesbook.rosters import read_roster
    >>> army = roster_army(read_roster("tests/rosters/data/steel-company.rosz"))
    >>> [(r["name"], r["points"], r["strength"], r["units"]) for r in army.rows][:3]
    [('Infantry Company', '225', 'units', '17'), ('Tank Squadron', '250', 'units', '10'), ('Super-heavy Tank Company', '600', 'damage-capacity', '')]
    >>> army.rows[2]["war_engines"]
    'Baneblade 3 200 pts, Baneblade 3 200 pts, Baneblade 3 200 pts'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rulesbook.data import DataFileError
from rulesbook.rosters import Roster, RosterAdapter, RosterView, Selection, UnitView, unit_key
from rulesbook.rosters.views import check_game, points_of, view_of

__all__ = ["ADAPTER", "GAME_SYSTEMS", "RosterArmy", "accepts", "roster_army", "roster_rows"]

GAME_SYSTEMS = re.compile(r"\bepic\b|\bnet ?ea\b|legions imperialis|adeptus titanicus", re.IGNORECASE)
"""Game systems whose rosters are Epic-scale armies (Epic Armageddon and its community
editions, Epic 40,000, Legions Imperialis, Adeptus Titanicus)."""
WANTED = "Epic-scale games (Epic Armageddon, Legions Imperialis …)"
_DC = ("dc", "damage capacity")


@dataclass(frozen=True, slots=True)
class RosterArmy:
    """An army read from a roster: its name, the set-up form's rows (text, as typed) and what
    the player must still fill in or check, one line each."""

    name: str
    rows: tuple[Mapping[str, str], ...]
    notes: tuple[str, ...] = ()


def accepts(roster: Roster) -> bool:
    """Whether the roster is of an Epic-scale game system."""
    return GAME_SYSTEMS.search(roster.game_system_name or roster.game_system_id) is not None


def _damage_capacity(s: Selection) -> int | None:
    for p in s.profiles:
        for name, value in p.characteristics:
            if name.strip().casefold() in _DC:
                text = value.strip()
                return int(text) if text.isascii() and text.isdigit() and 0 < int(text) <= 1000 else -1
    return None


def _row(formation: Selection, notes: list[str]) -> dict[str, str]:
    name = formation.custom_name or formation.name
    total = points_of(formation.cost())
    if total is None:
        notes.append(f"{name}: its points are not a whole number; type them")
    models = formation.models()
    engines: list[tuple[Selection, int]] = []
    units = 0
    for m in models:
        dc = _damage_capacity(m)
        if dc == -1:
            notes.append(
                f"{name}: {m.name}'s Damage Capacity is not a whole number from 1 to 1000; counted as a unit"
            )
            dc = None
        if dc is None:
            units += m.number
        else:
            engines.append((m, dc))
    only_engines = units == 0 and bool(engines)
    entries = []
    count = sum(m.number for m, _ in engines)
    for m, dc in engines:
        own = m.cost()
        each = own / m.number if own and m.number else Fraction(0)
        if not own and only_engines and total is not None and total % count == 0:
            each = Fraction(total, count)
            if count > 1:
                notes.append(f"{name}: its {total} pts shared equally by its {count} War Engines")
        if each.denominator != 1 or each <= 0:
            notes.append(f"{name}: the list gives no points for {m.name}; type its points or Morale value")
            entries += [f"{m.name} {dc}"] * m.number
        else:
            entries += [f"{m.name} {dc} {int(each)} pts"] * m.number
    return {
        "name": name,
        "points": "" if total is None else str(total),
        "strength": "damage-capacity" if only_engines else "units",
        "units": "" if only_engines else str(units + count),
        "war_engines": ", ".join(entries),
    }


def roster_army(roster: Roster) -> RosterArmy:
    """The army of an Epic-scale roster (see the module); another game system, or a roster with
    no formation, raises :class:`~rulesbook.data.DataFileError` naming the file."""
    check_game(roster, ADAPTER, "the Army Morale tracker reads")
    formations = roster.units()
    if not formations:
        raise DataFileError(
            f"{roster.file}: the roster has no formation to fill a detachment with", file=roster.file
        )
    notes: list[str] = []
    rows = tuple(_row(f, notes) for f in formations)
    return RosterArmy(roster.name, rows, tuple(notes))


def roster_rows(roster: Roster) -> tuple[Mapping[str, str], ...]:
    """The set-up form's detachment rows of an Epic-scale roster."""
    return roster_army(roster).rows


def _view(roster: Roster) -> RosterView:
    army = roster_army(roster)
    taken: set[str] = set()
    units = []
    for f, row in zip(roster.units(), army.rows, strict=True):
        by = "Damage Capacity" if row["strength"] == "damage-capacity" else "units"
        lines = [f"a detachment counted in {by}" + (f": {row['units']} units" if row["units"] else "")]
        if row["war_engines"]:
            lines.append(f"War Engines: {row['war_engines']}")
        units.append(
            UnitView(
                unit_key(row["name"], taken),
                row["name"],
                sum(m.number for m in f.models()),
                points_of(f.cost()),
                tuple(lines),
            )
        )
    return view_of(roster, "army-morale", units, army.notes)


ADAPTER = RosterAdapter(system="army-morale", wanted=WANTED, accepts=accepts, view=_view)
"""How Army Morale reads rosters (``SystemPackage(rosters=ADAPTER)``)."""
