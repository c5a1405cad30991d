"""Mortarion's weapons for ``wh40k.mortarion``, read from the one source of unit data: the
Mortarion datasheet of ``death-guard.yaml`` (:func:`~rulesbook.systems.wh40k.faction.reader.death_guard`),
so the profiles, the exclusive Silence profiles and the Damaged modifier are stored once.

Example:
    >>> weapons = mortarion_weapons()
    >>> w = weapons["rotwind"]
    >>> str(w.attacks), w.skill, w.strength, w.ap, w.abilities.blast
    ('D6+3', 2, 7, -2, True)
    >>> mortarion().check_exclusive(["silence-strike", "silence-sweep"], "weapons")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: weapons: one profile at a time: silence-strike or silence-sweep
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from rulesbook.errors import InputError
from rulesbook.registry import implements
from rulesbook.systems.wh40k.attack.weapons import Weapon
from rulesbook.systems.wh40k.faction.reader import death_guard
from rulesbook.systems.wh40k.faction.types import Datasheet

__all__ = [
    "Exclusive",
    "UnitWeapons",
    "damaged_hit_modifier",
    "mortarion",
    "mortarion_weapons",
    "unit_weapons",
]


@dataclass(frozen=True, slots=True)
class Exclusive:
    """Weapons of which one attack may use at most one, and why."""

    weapons: tuple[str, ...]
    reason: str = "one profile at a time"


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


def unit_weapons(sheet: Datasheet) -> UnitWeapons:
    """The weapons and exclusive groups of a faction datasheet (the same ``Weapon`` values)."""
    return UnitWeapons(sheet.weapons, tuple(Exclusive(g) for g in sheet.exclusive))


@cache
def mortarion() -> UnitWeapons:
    """Mortarion's weapons and the ones that exclude each other (Silence's two profiles), from
    the Mortarion datasheet of ``death-guard.yaml``."""
    return unit_weapons(death_guard().datasheets["mortarion"])


@implements("wh40k.mortarion.weapons")
def mortarion_weapons() -> Mapping[str, Weapon]:
    """Mortarion's four weapon profiles, keyed ``rotwind``, ``the-lantern``, ``silence-strike``,
    ``silence-sweep`` (read-only)."""
    return mortarion().weapons


@cache
def _damaged_value() -> int:
    (effect,) = (e for e in death_guard().abilities["damaged"].effects if e.kind == "hit-modifier")
    assert isinstance(effect.value, int)
    return effect.value


@implements("wh40k.mortarion.damaged")
def damaged_hit_modifier(damaged: bool) -> int:
    """Mortarion's Damaged ability as a Hit roll modifier (1–6 wounds left: the −1 declared by
    the ``damaged`` ability of ``death-guard.yaml``).

    >>> damaged_hit_modifier(True), damaged_hit_modifier(False)
    (-1, 0)
    """
    return _damaged_value() if damaged else 0
