"""A roster in Python, as the command line shows it: ``rb.roster(FILE)``.

The file is read by :mod:`rulesbook.rosters` (BattleScribe ``.ros``/``.rosz``, New Recruit JSON)
and seen through the rule system that reads its game system (the ``rosters`` adapter its
``SystemPackage`` declares): the 40k one lists the datasheets its calculators take (keys, models,
weapons) and every weapon keyword it did not understand. A roster of a game system no system
reads is listed as the file gives it, with a note saying which game systems are read.

Example:
    >>> import rulesbook as rb
    >>> army = rb.roster("tests/rosters/data/ork-patrol.ros")
    >>> [u.key for u in army.units], army.view.system
    (['boyz-mob', 'warboss'], '')
    >>> print(army)  # doctest: +ELLIPSIS
    Ork patrol — Demo Skirmish (ork-patrol.ros, BattleScribe .ros), 150 pts, 2 units
    ...
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesbook.errors import quote
from rulesbook.inputs import PathInput
from rulesbook.present.rosters import roster_html, roster_json, roster_text
from rulesbook.registry import registry
from rulesbook.rosters import SUFFIXES, Roster, RosterView, UnitView, generic_view, read_roster

__all__ = ["ArmyList", "roster", "roster_view"]


def roster_view(found: Roster) -> RosterView:
    """The roster seen by the first system whose adapter accepts its game system, else as the
    file gives it (with a note naming the game systems that are read)."""
    readers = registry().roster_adapters()
    for adapter in readers.values():
        if adapter.accepts(found):
            return adapter.view(found)
    read = "; ".join(f"{a.wanted} ({system})" for system, a in readers.items()) or "none yet"
    game = found.game_system_name or found.game_system_id
    return generic_view(
        found,
        f"no rule system here reads rosters of {quote(game)}, listed as the file gives it; read: {read}",
    )


@dataclass(frozen=True, slots=True)
class ArmyList:
    """A roster (:class:`~rulesbook.rosters.Roster`, as the file says) and its view by the rule
    system that reads it (:class:`~rulesbook.rosters.RosterView`): ``str()`` is ``rulesbook
    roster show``, :meth:`to_json` its ``--json``; in Jupyter it shows as a table."""

    roster: Roster
    view: RosterView

    @property
    def units(self) -> tuple[UnitView, ...]:
        """The units, with the keys the calculators take (``attacker=``, ``target=``)."""
        return self.view.units

    @property
    def not_understood(self) -> tuple[str, ...]:
        """What the system could not take over, one line each."""
        return self.view.notes

    def to_json(self) -> dict[str, Any]:
        return roster_json(self.view)

    def __str__(self) -> str:
        return roster_text(self.view)

    def _repr_html_(self) -> str:
        return roster_html(self.view)


def roster(path: str | Path, *, field: str = "file") -> ArmyList:
    """The army list in a roster file (``.ros``, ``.rosz`` or New Recruit ``.json``; a path
    starting ``rulesbook/`` also names a shipped example, as every file input does); a missing
    file is an :class:`~rulesbook.errors.InputError` naming ``field``, a bad one a
    :class:`~rulesbook.data.DataFileError` with one line naming it."""
    found = read_roster(PathInput(key=field, help="", suffixes=SUFFIXES).parse(str(path)))
    return ArmyList(found, roster_view(found))
