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

A new file picked for a file input (an army list uploaded as the attacker's faction) is a pick
too: every input whose value the files no longer offer (:attr:`Calculator.names
<rulesbook.calculators.Calculator.names>`: Mortarion, his aura and stratagems, after a list
without them) is set to one they do, and the form says so (:func:`follow`).

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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rulesbook.additions import entry_key
from rulesbook.errors import InputError
from rulesbook.inputs import Input, picks

__all__ = ["PICKED_KINDS", "Mended", "Needs", "Related", "Relation", "broken", "follow", "mend"]

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

    @property
    def inputs(self) -> tuple[Input, ...]: ...

    @property
    def names(self) -> Callable[[Mapping[str, str]], Mapping[str, tuple[str, ...]]] | None: ...

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
    if changed in values and calc.input(changed).kind == "path":
        return follow(calc, values)
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


FOLLOW_TRIES = 12
"""How many of a file's names :func:`follow` tries for a list it had to empty (the attacker's
weapons: the first that the new attacker carries)."""


def _words(value: Any) -> list[str]:
    """The words of a word list given as text or as a sequence."""
    found = value.split(",") if isinstance(value, str) else list(value or ())
    return [str(w).strip() for w in found if str(w).strip()]


def follow(calc: Related, values: Mapping[str, Any]) -> Mended:
    """After a new file was picked for a file input (``values``: the form's values, each file input
    its file): every input whose value the files do not offer (:attr:`names`) set to one they do
    — a name to the first offered (a unit; ``none`` for a detachment), a list to the words still
    offered (if none is left and the calculator needs one, the first offered that it accepts) —
    and the other input of each relation that change broke; one note per change.

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.datasheet-attack")
    >>> roster = "rulesbook/systems/wh40k/examples/rust-legion.rosz"
    >>> followed = follow(calc, {**calc.initial_values(), "faction": roster})
    >>> changes = dict(followed.changes)
    >>> changes["attacker"], changes["weapons"], changes["stratagems"], changes["detachment"], changes["sickness"]
    ('rust-lord', 'corrosion-pistol', '', 'none', 'none')
    >>> followed.notes[0]
    "Attacker datasheet set to rust-lord: the chosen file has no 'mortarion'."
    """
    if calc.names is None:
        return Mended()
    offered = calc.names(
        {i.key: str(values[i.key]) for i in calc.inputs if i.kind == "path" and i.key in values}
    )
    changes: dict[str, Any] = {}
    gone: dict[str, str] = {}  # what each change left out
    emptied: dict[str, tuple[str, ...]] = {}  # lists left with no word: the names to try
    for inp in calc.inputs:
        names = offered.get(inp.key)
        if names is None or inp.key not in values:
            continue
        if inp.kind == "word-list":
            words = _words(values[inp.key])
            kept = [w for w in words if entry_key(w) in names]
            if kept != words:
                changes[inp.key], gone[inp.key] = (
                    ", ".join(kept),
                    ", ".join(w for w in words if w not in kept),
                )
                if not kept:
                    emptied[inp.key] = names
            continue
        text = "" if values[inp.key] is None else str(values[inp.key]).strip()
        if text and names and text.lower() not in names:
            changes[inp.key], gone[inp.key] = names[0], text
    repaired: list[str] = []
    try:
        checked = calc.check_values({**values, **changes})
    except InputError:
        checked = {}  # a value that does not read: its error is the answer, nothing more is mended
    for relation in calc.relations if checked else ():
        for key in (k for k in relation.keys if k in changes):
            if not relation.holds(checked):
                for other, value in relation.repairs(key):
                    changes[other] = checked[other] = value
                    repaired.append(f"{calc.input(other).title} set to {value}: {relation.why}.")
    for key, names in emptied.items():  # empty if the rest accepts it, else the first name that does
        for name in ("", *names[:FOLLOW_TRIES]):
            changes[key] = name
            try:
                calc.validate({**values, **changes})
            except InputError as exc:
                if exc.field == key:
                    continue
            break
        else:  # none does: empty, and the answer's one line says what to name
            changes[key] = ""
    notes = [
        f"{calc.input(key).title} set to {value}: the chosen file has no {gone[key]!r}."
        if value
        else f"{calc.input(key).title} emptied: the chosen file has no {gone[key]!r}."
        for key, value in changes.items()
        if key in gone
    ]
    return Mended(tuple(changes.items()), (*notes, *repaired))
