"""How a calculator's inputs must agree with each other, declared once.

A relation between two inputs ("a Sickness comes with the spread-the-sickness detachment",
"cover only applies to ranged attacks") is declared with the calculator
(``calculator(..., relations=...)``) instead of being buried in its cross-field check. The
declaration serves twice:

* :meth:`Calculator.validate <rulesbook.calculators.Calculator.validate>` refuses values that
  break a relation with its one line naming the input and what to do — the command line, the
  JSON API and the front door answer as before;
* a form, after the player *picks* a new value (a choice, a check box, a name from the list),
  calls :func:`mend`: the other input of each relation the pick broke is set to a value that
  keeps it — the Sickness back to ``none`` when the detachment changes, the detachment to
  ``spread-the-sickness`` when a Sickness is picked — and the form says so in one line. So an
  answer never turns into an error because of another pick. Nothing is mended while a value is
  being typed (its half-typed texts are no pick), and a mend that would leave any other error
  is not made: the answer then shows that error as before.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.datasheet-attack")
    >>> picked = {**calc.initial_values(), "sickness": "rattlejoint-ague", "detachment": "verminous-haze"}
    >>> mended = mend(calc, picked, "detachment")
    >>> mended.changes, mended.notes
    ((('sickness', 'none'),), ("Attacker's Sickness set to none: a Sickness comes with the spread-the-sickness detachment.",))
    >>> mend(calc, {**picked, "detachment": "spread-the-sickness", "sickness": "none"}, "sickness").changes
    ()
    >>> melee = registry().calculator("wh40k.attack")
    >>> mend(melee, {**melee.initial_values(), "cover": "true", "ranged": "false"}, "ranged").notes
    ('Benefit of Cover unticked: only applies to ranged attacks.',)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rulesbook.errors import InputError
from rulesbook.inputs import Input, picks

__all__ = ["PICKED_KINDS", "Mended", "Needs", "Related", "Relation", "broken", "mend"]

PICKED_KINDS = frozenset({"choice", "interpretation", "bool"})
"""Inputs whose every value is picked, never typed letter by letter."""


@dataclass(frozen=True, slots=True)
class Needs:
    """``key`` set to anything but ``free`` needs ``other`` to be one of ``allowed`` (a text of
    ``other`` compared without case and surrounding space).

    ``why`` says the rule in a few words, ``fix`` what to do; a broken relation is the one line
    ``key: why; fix``.

    >>> cover = Needs("cover", False, "ranged", (True,), "only applies to ranged attacks",
    ...               "set ranged=true or set it to false")
    >>> cover.holds({"cover": True, "ranged": False}), str(cover.error())
    (False, 'cover: only applies to ranged attacks; set ranged=true or set it to false')
    >>> cover.repairs("ranged"), cover.repairs("cover")
    ((('cover', False),), (('ranged', True),))
    """

    key: str
    free: Any
    other: str
    allowed: tuple[Any, ...]
    why: str
    fix: str

    @property
    def keys(self) -> tuple[str, str]:
        """The two inputs it relates."""
        return self.key, self.other

    def holds(self, values: Mapping[str, Any]) -> bool:
        """Whether checked ``values`` keep the relation."""
        other = values[self.other]
        if isinstance(other, str):
            other = other.strip().lower()
        return values[self.key] == self.free or other in self.allowed

    def error(self) -> InputError:
        """The one line of a broken relation (it names ``key``)."""
        return InputError(self.key, f"{self.why}; {self.fix}")

    def repairs(self, changed: str) -> tuple[tuple[str, Any], ...]:
        """What keeps the relation once ``changed`` was picked: the other input's new value
        (``key`` back to ``free``; ``other`` to its one allowed value), none if there is no
        single one."""
        if changed == self.other:
            return ((self.key, self.free),)
        if changed == self.key and len(self.allowed) == 1:
            return ((self.other, self.allowed[0]),)
        return ()


type Relation = Needs
"""A declared relation between inputs (one kind so far; each kind has ``keys``, ``holds``,
``error``, ``repairs`` and ``why``)."""


def broken(relations: Sequence[Relation], values: Mapping[str, Any]) -> None:
    """Refuse checked ``values`` that break a relation: the first one's one line."""
    for relation in relations:
        if not relation.holds(values):
            raise relation.error()


class Related(Protocol):
    """What :func:`mend` needs of a calculator (:class:`rulesbook.calculators.Calculator`)."""

    @property
    def relations(self) -> tuple[Relation, ...]: ...

    def input(self, key: str) -> Input: ...

    def check_values(self, values: Mapping[str, Any]) -> dict[str, Any]: ...

    def validate(self, values: Mapping[str, Any]) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Mended:
    """What :func:`mend` did: ``changes`` (input key, its new value, checked) for the form to show,
    and one note per change for the player."""

    changes: tuple[tuple[str, Any], ...] = ()
    notes: tuple[str, ...] = ()


def _picked(calc: Related, key: str, value: Any) -> bool:
    """Whether ``value`` of input ``key`` was picked (a choice, a check box, a name of the list)."""
    inp = calc.input(key)
    if inp.kind in PICKED_KINDS:
        return True
    return isinstance(value, str) and value.strip() in picks(inp)


def mend(calc: Related, values: Mapping[str, Any], changed: str) -> Mended:
    """After the player picked a new value of input ``changed`` (``values``: the form's values,
    texts or values): the other input of every relation the pick broke set to a value that keeps
    it — only if then every input, relation and cross-field check passes; else nothing changes
    and the answer shows its error. A value being typed (not a pick) mends nothing.
    """
    if changed not in values or not _picked(calc, changed, values.get(changed)):
        return Mended()
    try:
        checked = calc.check_values(values)
    except InputError:
        return Mended()
    changes: dict[str, Any] = {}
    notes: list[str] = []
    for relation in calc.relations:
        if changed not in relation.keys or relation.holds(checked):
            continue
        for key, value in relation.repairs(changed):
            changes[key] = value
            did = ("ticked" if value else "unticked") if isinstance(value, bool) else f"set to {value}"
            notes.append(f"{calc.input(key).title} {did}: {relation.why}.")
    if not changes:
        return Mended()
    try:
        calc.validate({**checked, **changes})
    except InputError:
        return Mended()
    return Mended(tuple(changes.items()), tuple(notes))
