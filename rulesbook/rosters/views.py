"""What a rule system makes of a roster, and how a system says it reads rosters.

A system that reads rosters gives its package a :class:`RosterAdapter` (``SystemPackage(rosters=
...)``): which game systems it takes (:attr:`RosterAdapter.accepts`) and a
:class:`RosterView` of a roster in its own terms — the units as its calculators see them (their
keys, models, weapons, points) and what it could not take over (:attr:`RosterView.notes`: never
dropped silently). ``rulesbook roster show`` and ``rb.roster`` print that view; a roster no
system takes gets :func:`generic_view` (its units, categories and points as the file gives them).

Example:
    >>> from rulesbook.rosters.values import Roster, Force, Selection, Cost
    >>> from fractions import Fraction
    >>> r = Roster("List", "gs", "A Game", "list.ros", "BattleScribe .ros", forces=(Force("F", "Orks",
    ...     (Selection("Boyz", "unit", 1, costs=(Cost("pts", Fraction(85)),), selections=(
    ...         Selection("Boy", "model", 10),)),)),))
    >>> view = generic_view(r)
    >>> view.points, [(u.key, u.models, u.points) for u in view.units]
    (85, [('boyz', 10, 85)])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulesbook.data import DataFileError
from rulesbook.errors import quote
from rulesbook.rosters.values import Roster, Selection

__all__ = [
    "RosterAdapter",
    "RosterView",
    "UnitView",
    "check_game",
    "generic_view",
    "model_count",
    "points_of",
    "slug",
    "unit_key",
]


@dataclass(frozen=True, slots=True)
class UnitView:
    """One unit of a roster as a system sees it: the key its calculators take, its name, models,
    points and a few lines describing it (its kinds of model, its weapons …)."""

    key: str
    name: str
    models: int
    points: int | None
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RosterView:
    """A roster in a system's terms (``system`` empty: no system reads its game system)."""

    name: str
    system: str
    game_system: str
    file: str
    format: str
    points: int | None
    units: tuple[UnitView, ...]
    notes: tuple[str, ...] = ()
    """What was not taken over as it is, one line each (never dropped silently)."""
    catalogues: tuple[str, ...] = ()
    remark: str = ""
    """A line about the roster as a whole (why no system's view is shown)."""


@dataclass(frozen=True)
class RosterAdapter:
    """How a rule system reads rosters: the game systems it takes, said in words (``wanted``)
    and as a test of a roster (``accepts``), and its view of one (``view``)."""

    system: str
    wanted: str
    accepts: Callable[[Roster], bool]
    view: Callable[[Roster], RosterView]


def slug(text: str) -> str:
    """A key from a name, as faction files key their entries: lower-case ASCII words joined by
    ``-`` (apostrophes dropped).

    >>> slug("Nurgle’s Gift (Aura)"), slug("➤ Plasma pistol - supercharge")
    ('nurgles-gift-aura', 'plasma-pistol-supercharge')
    """
    plain = text.lower().replace("’", "").replace("'", "")
    return "-".join(re.findall(r"[a-z0-9]+", plain, re.ASCII))


def check_game(roster: Roster, adapter: RosterAdapter, reader: str) -> None:
    """Refuse a roster of a game system ``adapter`` does not read: one line naming the file, its
    game system and what ``reader`` reads (``the tracker reads``, ``the calculators read``).

    >>> from rulesbook.rosters.values import Roster
    >>> epic = RosterAdapter("army-morale", "Epic-scale games", lambda r: False, lambda r: None)  # type: ignore[arg-type,return-value]
    >>> check_game(Roster("L", "gs", "A Game", "list.ros", "BattleScribe .ros"), epic, "the tracker reads")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: list.ros: a roster of 'A Game'; the tracker reads rosters of Epic-scale games
    """
    if not adapter.accepts(roster):
        game = roster.game_system_name or roster.game_system_id
        raise DataFileError(
            f"{roster.file}: a roster of {quote(game)}; {reader} rosters of {adapter.wanted}",
            file=roster.file,
            kind="refused",
        )


def unit_key(name: str, taken: set[str]) -> str:
    """The key of a unit named ``name`` (:func:`slug`: ``Intercessor Squad`` is
    ``intercessor-squad``), numbered from ``-2`` when another unit has it; added to ``taken``.

    >>> taken = set(); [unit_key(n, taken) for n in ("Boyz", "Boyz", "Ork Boyz!", "***")]
    ['boyz', 'boyz-2', 'ork-boyz', 'unit']
    """
    base = slug(name)[:60].strip("-") or "unit"
    key, n = base, 1
    while key in taken:
        n += 1
        key = f"{base}-{n}"
    taken.add(key)
    return key


def model_count(unit: Selection) -> int:
    """The models of a unit: the ``number`` of each of its model selections
    (:meth:`~.values.Selection.models`), or 1 for a unit that lists none."""
    return sum(m.number for m in unit.models()) or max(unit.number, 1)


def points_of(value: Fraction) -> int | None:
    """Points as a whole number (``None`` when the file gives none, or a fraction of one)."""
    return int(value) if value.denominator == 1 else None


def generic_view(roster: Roster, note: str = "") -> RosterView:
    """The roster's units as the file gives them (names, models, points, categories); ``note``
    says why no system's view is shown."""
    taken: set[str] = set()
    units = []
    for u in roster.units():
        cats = ", ".join(c.name for c in u.categories)
        units.append(
            UnitView(
                unit_key(u.name, taken),
                u.custom_name or u.name,
                model_count(u),
                points_of(u.cost()),
                (f"categories: {cats}",) if cats else (),
            )
        )
    return view_of(roster, "", units, remark=note)


def view_of(
    roster: Roster, system: str, units: Sequence[UnitView], notes: Sequence[str] = (), remark: str = ""
) -> RosterView:
    """The view of ``roster`` by ``system`` with these units and notes (its head as the file
    gives it: name, game system, file, format, points, catalogues)."""
    return RosterView(
        name=roster.name,
        system=system,
        game_system=roster.game_system_name or roster.game_system_id,
        file=roster.file,
        format=roster.format,
        points=points_of(roster.points()),
        units=tuple(units),
        notes=tuple(notes),
        catalogues=roster.catalogues,
        remark=remark,
    )
