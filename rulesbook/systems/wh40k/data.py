"""Unit data as files: Mortarion's weapon profiles (``mortarion.yaml``), loaded safely.

Example:
    >>> weapons = mortarion_weapons()
    >>> w = weapons["rotwind"]
    >>> str(w.attacks), w.skill, w.strength, w.ap, w.abilities.blast
    ('D6+3', 2, 7, -2, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rulesbook.data import DataFileError, load_data_file
from rulesbook.dice import parse_dice
from rulesbook.errors import InputError
from rulesbook.registry import implements
from rulesbook.systems.wh40k.rules import Weapon, parse_abilities

__all__ = ["MORTARION_FILE", "damaged_hit_modifier", "load_weapons", "mortarion_weapons"]

MORTARION_FILE = Path(__file__).with_name("mortarion.yaml")


def load_weapons(path: Path, unit: str) -> dict[str, Weapon]:
    """Weapon profiles of ``unit`` in a YAML file; malformed entries raise DataFileError."""
    data = load_data_file(path)
    if not isinstance(data, dict) or not isinstance(data.get(unit), dict):
        raise DataFileError(f"{path.name}: expected a mapping under '{unit}'")
    out: dict[str, Weapon] = {}
    for key, raw in data[unit].items():
        where = f"{path.name}.{unit}.{key}"
        try:
            out[str(key)] = _weapon(raw)
        except (KeyError, TypeError, ValueError) as exc:
            detail = exc.message if isinstance(exc, InputError) else str(exc)
            raise DataFileError(f"{where}: {detail}") from None
    return out


def _weapon(raw: dict[str, Any]) -> Weapon:
    return Weapon(
        name=str(raw["name"]),
        attacks=parse_dice(str(raw["attacks"]), field_name="attacks"),
        skill=int(raw["skill"]),
        strength=int(raw["strength"]),
        ap=int(raw["ap"]),
        damage=parse_dice(str(raw["damage"]), field_name="damage"),
        abilities=parse_abilities([str(a) for a in raw.get("abilities", [])]),
        ranged=bool(raw["ranged"]),
    )


@cache
@implements("wh40k.mortarion.weapons")
def mortarion_weapons() -> Mapping[str, Weapon]:
    """Mortarion's four weapon profiles, keyed ``rotwind``, ``the-lantern``, ``silence-strike``,
    ``silence-sweep`` (read-only)."""
    return MappingProxyType(load_weapons(MORTARION_FILE, "mortarion"))


@implements("wh40k.mortarion.damaged")
def damaged_hit_modifier(damaged: bool) -> int:
    """Mortarion's Damaged ability as a Hit roll modifier (1–6 wounds left: −1).

    >>> damaged_hit_modifier(True), damaged_hit_modifier(False)
    (-1, 0)
    """
    return -1 if damaged else 0
