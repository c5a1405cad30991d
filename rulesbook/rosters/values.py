"""A roster as typed, immutable values: the roster, its forces, their selections (units, models,
upgrades) with the profiles, rules, categories and costs each carries.

These mirror the public BattleScribe roster schema (the ``roster`` element of the BSData
``Catalogue.xsd`` in the roster namespace), which New Recruit's JSON export follows too, so one
set of values serves both formats (:mod:`.battlescribe`, :mod:`.newrecruit`). They hold what the
file says, nothing more: which game rules a profile's characteristics feed is for a rule
system's adapter to decide (the 40k one turns a roster into a faction's datasheets).

Example:
    >>> gun = Profile("Bolt rifle", "Ranged Weapons", (("Range", '24"'), ("A", "2")))
    >>> gun.get("a"), gun.get("BS")
    ('2', None)
    >>> squad = Selection("Squad", "unit", 1, costs=(Cost("pts", Fraction(90)),), selections=(
    ...     Selection("Trooper", "model", 4, costs=(Cost("pts", Fraction(10)),)),))
    >>> squad.cost("pts"), [s.name for s in squad.walk()]
    (Fraction(100, 1), ['Squad', 'Trooper'])
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

__all__ = ["KINDS", "Category", "Cost", "Force", "Kind", "Profile", "Roster", "Rule", "Selection"]

type Kind = Literal["unit", "model", "upgrade"]
KINDS: tuple[Kind, ...] = ("unit", "model", "upgrade")
"""The kinds of selection the schema knows (``SelectionEntryKind``)."""


@dataclass(frozen=True, slots=True)
class Profile:
    """A profile: its name, its type (``Unit``, ``Ranged Weapons``, ``Abilities`` …) and its
    characteristics in the file's order, as (name, text) pairs."""

    name: str
    type_name: str
    characteristics: tuple[tuple[str, str], ...] = ()

    def get(self, name: str) -> str | None:
        """The text of characteristic ``name`` (compared without regard to case), or None."""
        wanted = name.casefold()
        return next((v for k, v in self.characteristics if k.casefold() == wanted), None)


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule a selection or force carries: its name and description."""

    name: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Category:
    """A category of a selection (a keyword such as ``Infantry`` or ``Faction: Death Guard``)."""

    name: str
    primary: bool = False


@dataclass(frozen=True, slots=True)
class Cost:
    """A cost (``pts``, ``PL`` …) and its value as the file gives it (a decimal, kept exact)."""

    name: str
    value: Fraction
    type_id: str = ""


@dataclass(frozen=True, slots=True)
class Selection:
    """A selection: a unit, a model or an upgrade (a weapon, an option), ``number`` of them, with
    what it carries and the selections inside it."""

    name: str
    kind: Kind
    number: int
    profiles: tuple[Profile, ...] = ()
    rules: tuple[Rule, ...] = ()
    categories: tuple[Category, ...] = ()
    costs: tuple[Cost, ...] = ()
    selections: tuple[Selection, ...] = ()
    custom_name: str = ""

    def walk(self) -> Iterator[Selection]:
        """This selection and every selection inside it, depth first in the file's order."""
        stack = [self]
        while stack:
            s = stack.pop()
            yield s
            stack.extend(reversed(s.selections))

    def models(self) -> tuple[Selection, ...]:
        """The model selections of this selection: itself when it is a model, else those inside
        it (not those inside another model), in the file's order."""
        if self.kind == "model":
            return (self,)
        out, stack = [], list(reversed(self.selections))
        while stack:
            s = stack.pop()
            if s.kind == "model":
                out.append(s)
            else:
                stack.extend(reversed(s.selections))
        return tuple(out)

    def gear(self) -> Iterator[Selection]:
        """This selection and the upgrades inside it, not entering a model inside it (a model's
        own weapons, or a unit's options held outside its models)."""
        yield self
        stack = list(reversed(self.selections))
        while stack:
            s = stack.pop()
            if s.kind == "model":
                continue
            yield s
            stack.extend(reversed(s.selections))

    def cost(self, name: str = "pts") -> Fraction:
        """The cost ``name`` (compared without regard to case) of this selection with everything
        inside it (each selection's own costs are its own, as the schema gives them)."""
        wanted = name.casefold()
        return sum(
            (c.value for s in self.walk() for c in s.costs if c.name.casefold() == wanted), Fraction(0)
        )


@dataclass(frozen=True, slots=True)
class Force:
    """A force (a detachment of the army builder): its catalogue, selections and nested forces."""

    name: str
    catalogue: str
    selections: tuple[Selection, ...] = ()
    forces: tuple[Force, ...] = ()
    rules: tuple[Rule, ...] = ()

    def walk(self) -> Iterator[Force]:
        """This force and every force nested in it, in the file's order."""
        stack = [self]
        while stack:
            f = stack.pop()
            yield f
            stack.extend(reversed(f.forces))


@dataclass(frozen=True, slots=True)
class Roster:
    """A whole roster: its name, game system, costs and forces, and where it came from (the file's
    name and its format: ``BattleScribe .ros``, ``BattleScribe .rosz`` or ``New Recruit JSON``)."""

    name: str
    game_system_id: str
    game_system_name: str
    file: str
    format: str
    costs: tuple[Cost, ...] = ()
    forces: tuple[Force, ...] = ()

    def units(self) -> tuple[Selection, ...]:
        """The units of every force, in the file's order: the selections at a force's top level
        that are units or models (a single-model unit such as a character is a ``model``);
        upgrades there (a detachment's choice, a battle size) are not units."""
        return tuple(
            s for force in self.forces for f in force.walk() for s in f.selections if s.kind != "upgrade"
        )

    def points(self, name: str = "pts") -> Fraction:
        """The roster's cost ``name``: the total it states, else the sum over its forces."""
        wanted = name.casefold()
        stated = [c.value for c in self.costs if c.name.casefold() == wanted]
        if stated:
            return sum(stated, Fraction(0))
        return sum(
            (s.cost(name) for force in self.forces for f in force.walk() for s in f.selections),
            Fraction(0),
        )

    @property
    def catalogues(self) -> tuple[str, ...]:
        """The catalogues (factions) of its forces, each once."""
        return tuple(dict.fromkeys(f.catalogue for force in self.forces for f in force.walk() if f.catalogue))
