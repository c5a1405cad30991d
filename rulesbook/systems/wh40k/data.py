"""Unit data as files: Mortarion's weapon profiles and which of them exclude each other
(``mortarion.yaml``), loaded safely; every weapon goes through
:func:`~rulesbook.systems.wh40k.weapons.make_weapon`.

Example:
    >>> weapons = mortarion_weapons()
    >>> w = weapons["rotwind"]
    >>> str(w.attacks), w.skill, w.strength, w.ap, w.abilities.blast
    ('D6+3', 2, 7, -2, True)
    >>> mortarion().check_exclusive(["silence-strike", "silence-sweep"], "weapons")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: weapons: Silence attacks with one profile at a time: silence-strike or silence-sweep
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rulesbook.data import DataFileError, load_data_file
from rulesbook.errors import InputError
from rulesbook.registry import implements
from rulesbook.systems.wh40k.weapons import Weapon, make_weapon

__all__ = [
    "MORTARION_FILE",
    "Exclusive",
    "UnitWeapons",
    "damaged_hit_modifier",
    "load_unit",
    "mortarion",
    "mortarion_weapons",
]

MORTARION_FILE = Path(__file__).with_name("mortarion.yaml")


@dataclass(frozen=True, slots=True)
class Exclusive:
    """Weapons of which one attack may use at most one, and why."""

    weapons: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class UnitWeapons:
    """A unit's weapon profiles by key (in file order) and its exclusive groups."""

    weapons: Mapping[str, Weapon]
    exclusive: tuple[Exclusive, ...] = ()

    def one_kind(self) -> str:
        """What to do when shooting and fighting weapons are chosen together.

        >>> mortarion().one_kind()
        'shoot (rotwind, the-lantern) or fight (silence-strike or silence-sweep), not both'
        """
        ranged = ", ".join(k for k, w in self.weapons.items() if w.ranged)
        melee = " or ".join(k for k, w in self.weapons.items() if not w.ranged)
        return f"shoot ({ranged}) or fight ({melee}), not both"

    def check_exclusive(self, chosen: Sequence[str], field: str) -> None:
        """InputError naming ``field`` when ``chosen`` holds two weapons of one exclusive group."""
        for group in self.exclusive:
            if len(set(chosen) & set(group.weapons)) > 1:
                raise InputError(field, f"{group.reason}: {' or '.join(group.weapons)}")


def load_unit(path: Path, unit: str) -> UnitWeapons:
    """The weapons of ``unit`` in a YAML file; malformed entries raise DataFileError naming the
    file and the entry."""
    data = load_data_file(path)
    raw = data.get(unit) if isinstance(data, dict) else None
    if not isinstance(raw, dict) or not isinstance(raw.get("weapons"), dict):
        raise DataFileError(f"{path.name}: expected a mapping 'weapons' under '{unit}'")
    weapons: dict[str, Weapon] = {}
    for key, entry in raw["weapons"].items():
        where = f"{path.name}.{unit}.weapons.{key}"
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise DataFileError(f"{where}: expected a mapping with a name")
        try:
            weapons[str(key)] = make_weapon(entry, name=entry["name"], label=where)
        except InputError as exc:
            raise DataFileError(exc.message) from None
    return UnitWeapons(
        MappingProxyType(weapons), tuple(_exclusive(raw.get("exclusive", []), weapons, path, unit))
    )


def _exclusive(raw: Any, weapons: Mapping[str, Weapon], path: Path, unit: str) -> list[Exclusive]:
    out = []
    for i, group in enumerate(raw if isinstance(raw, list) else [None]):
        where = f"{path.name}.{unit}.exclusive[{i}]"
        names = group.get("weapons") if isinstance(group, dict) else None
        if not isinstance(names, list) or len(names) < 2 or not all(n in weapons for n in names):
            raise DataFileError(f"{where}: expected 'weapons', a list of two or more of {', '.join(weapons)}")
        if not isinstance(group.get("reason"), str):
            raise DataFileError(f"{where}: expected a 'reason' text")
        out.append(Exclusive(tuple(names), group["reason"]))
    return out


@cache
def mortarion() -> UnitWeapons:
    """Mortarion's weapons and the ones that exclude each other (Silence's two profiles)."""
    return load_unit(MORTARION_FILE, "mortarion")


@implements("wh40k.mortarion.weapons")
def mortarion_weapons() -> Mapping[str, Weapon]:
    """Mortarion's four weapon profiles, keyed ``rotwind``, ``the-lantern``, ``silence-strike``,
    ``silence-sweep`` (read-only)."""
    return mortarion().weapons


@implements("wh40k.mortarion.damaged")
def damaged_hit_modifier(damaged: bool) -> int:
    """Mortarion's Damaged ability as a Hit roll modifier (1–6 wounds left: −1).

    >>> damaged_hit_modifier(True), damaged_hit_modifier(False)
    (-1, 0)
    """
    return -1 if damaged else 0
