"""The one builder of roster values, whatever the file's format.

A BattleScribe ``.ros`` (XML) and a New Recruit export (JSON) hold the same tree — the roster
schema's elements and attributes — written two ways. Each format gives its tree as
:class:`Node` objects (:mod:`.battlescribe` for XML elements, :mod:`.newrecruit` for JSON
objects) and :func:`build_roster` reads them into :mod:`.values`, with every check in one place:
a selection's ``type`` is ``unit``, ``model`` or ``upgrade``, its ``number`` a whole number of
ASCII digits, a cost a decimal, names present, selections nested at most
:attr:`RosterLimits.max_depth` deep. A failed check is one
:class:`~rulesbook.data.DataFileError` line naming the file and the unit (``army.ros: unit
'Squad' > 'Trooper': number: expected a whole number from 0 to 10000, got 'x'``); nothing is
half-built.

Example:
    >>> class Plain:  # a tree from a dict, as a format module gives one
    ...     def __init__(self, d): self.d = d
    ...     def attr(self, name): return self.d.get(name)
    ...     def text(self, name): return self.d.get(name)
    ...     def items(self, group, item): return [Plain(x) for x in self.d.get(group, [])]
    >>> tree = Plain({"name": "List", "gameSystemId": "gs", "forces": [{"name": "F", "selections": [
    ...     {"name": "Squad", "type": "unit", "number": "1"}]}]})
    >>> [u.name for u in build_roster(tree, "list.ros", "BattleScribe .ros").units()]
    ['Squad']
    >>> bad = Plain({"name": "List", "gameSystemId": "gs", "forces": [{"name": "F", "selections": [
    ...     {"name": "Squad", "type": "unit", "number": "lots"}]}]})
    >>> build_roster(bad, "list.ros", "BattleScribe .ros")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: list.ros: unit 'Squad': number: expected a whole number from 0 to 10000, got 'lots'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Protocol

from rulesbook.data import DataFileError
from rulesbook.errors import quote, shorten
from rulesbook.rosters.values import KINDS, Category, Cost, Force, Profile, Roster, Rule, Selection

__all__ = ["LIMITS", "Node", "RosterLimits", "build_roster"]

_WHOLE = re.compile(r"[0-9]{1,9}", re.ASCII)
_DECIMAL = re.compile(r"[-+]?(?:[0-9]{1,12}(?:\.[0-9]{0,12})?|\.[0-9]{1,12})", re.ASCII)


@dataclass(frozen=True, slots=True)
class RosterLimits:
    """What a roster file may hold at most (a large real army is far inside every one).

    ``max_file_bytes`` is checked before reading (``.ros``, ``.json`` and the ``.rosz`` archive);
    ``max_unpacked_bytes`` bounds what a ``.rosz`` member unpacks to, checked while unpacking (a
    zip bomb stops there); ``max_members`` the entries of a ``.rosz``; ``max_elements`` the XML
    elements or JSON values; ``max_depth`` how deep selections nest; ``max_number`` a selection's
    ``number``.
    """

    max_file_bytes: int = 4_000_000
    max_unpacked_bytes: int = 8_000_000
    max_members: int = 16
    max_elements: int = 400_000
    max_depth: int = 24
    max_number: int = 10_000


LIMITS = RosterLimits()
"""The limits every roster reader uses unless it is given its own."""


class Node(Protocol):
    """One element of a roster tree, as a format gives it."""

    def attr(self, name: str) -> object:
        """The attribute ``name`` (a text, or for JSON a number or a boolean), or None."""

    def text(self, name: str) -> object:
        """The text of the child ``name`` (``description``, or ``$text`` for a characteristic's
        own text), or None."""

    def items(self, group: str, item: str) -> list[Node]:
        """The children ``item`` listed under ``group`` (``selections`` / ``selection``)."""


class _Reader:
    """The checks of one file; every message names the file and the place in it."""

    def __init__(self, file: str, limits: RosterLimits) -> None:
        self.file, self.limits = file, limits

    def fail(self, where: str, reason: str) -> DataFileError:
        place = f"{where}: " if where else ""
        return DataFileError(f"{self.file}: {place}{reason}", file=self.file, kind="refused", reason=reason)

    def word(self, node: Node, name: str, where: str, *, required: bool = False) -> str:
        raw = node.attr(name)
        if raw is None:
            if required:
                raise self.fail(where, f"missing {name}")
            return ""
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            raise self.fail(where, f"{name}: expected a text, got {quote(raw)}")
        return " ".join(str(raw).split())

    def text(self, node: Node, name: str, where: str) -> str:
        raw = node.text(name)
        if raw is None:
            return ""
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            raise self.fail(where, f"{name}: expected a text, got {quote(raw)}")
        return str(raw).strip()

    def whole(self, node: Node, name: str, where: str) -> int:
        raw = node.attr(name)
        text = str(raw).strip() if isinstance(raw, str | int) and not isinstance(raw, bool) else None
        top = self.limits.max_number
        if text is None or not _WHOLE.fullmatch(text) or int(text) > top:
            got = "nothing" if raw is None else quote(raw)
            raise self.fail(where, f"{name}: expected a whole number from 0 to {top}, got {got}")
        return int(text)

    def decimal(self, node: Node, name: str, where: str) -> Fraction:
        raw = node.attr(name)
        text = str(raw).strip() if isinstance(raw, str | int | float) and not isinstance(raw, bool) else ""
        if not _DECIMAL.fullmatch(text):
            raise self.fail(where, f"{name}: expected a decimal number such as 90 or 90.0, got {quote(raw)}")
        try:
            return Fraction(Decimal(text))
        except InvalidOperation:  # pragma: no cover - the pattern lets only decimals through
            raise self.fail(where, f"{name}: expected a decimal number, got {quote(raw)}") from None

    def flag(self, node: Node, name: str) -> bool:
        raw = node.attr(name)
        return raw is True or (isinstance(raw, str) and raw.strip().lower() in ("true", "1"))

    # -- the elements -----------------------------------------------------------------------------

    def profiles(self, node: Node, where: str) -> tuple[Profile, ...]:
        out = []
        for p in node.items("profiles", "profile"):
            name = self.word(p, "name", where, required=True)
            here = f"{where}, profile {quote(shorten(name, 40))}"
            chars = []
            for c in p.items("characteristics", "characteristic"):
                chars.append((self.word(c, "name", here, required=True), self.text(c, "$text", here)))
            out.append(Profile(name, self.word(p, "typeName", here), tuple(chars)))
        return tuple(out)

    def rules(self, node: Node, where: str) -> tuple[Rule, ...]:
        return tuple(
            Rule(self.word(r, "name", where, required=True), self.text(r, "description", where))
            for r in node.items("rules", "rule")
        )

    def costs(self, node: Node, where: str) -> tuple[Cost, ...]:
        out = []
        for c in node.items("costs", "cost"):
            name = self.word(c, "name", where, required=True)
            out.append(
                Cost(
                    name,
                    self.decimal(c, "value", f"{where}, cost {quote(name)}"),
                    self.word(c, "typeId", where),
                )
            )
        return tuple(out)

    def selection(self, node: Node, parent: str | None, depth: int, within: str = "") -> Selection:
        """``parent``: where the selection sits (None at a force's top level, in ``within``)."""
        name = self.word(node, "name", f"a selection of {parent or within}", required=True)
        kind = self.word(node, "type", "")
        shown = quote(shorten(name, 40))
        label = kind if kind in ("unit", "model") else "selection"
        where = f"{parent} > {shown}" if parent else f"{label} {shown}"
        if kind not in KINDS:
            raise self.fail(where, f"type: expected unit, model or upgrade, got {quote(node.attr('type'))}")
        if depth > self.limits.max_depth:
            raise self.fail(where, f"selections nested more than {self.limits.max_depth} deep")
        return Selection(
            name=name,
            kind=kind,
            number=self.whole(node, "number", where),
            profiles=self.profiles(node, where),
            rules=self.rules(node, where),
            categories=tuple(
                Category(self.word(c, "name", where, required=True), self.flag(c, "primary"))
                for c in node.items("categories", "category")
            ),
            costs=self.costs(node, where),
            selections=tuple(
                self.selection(s, where, depth + 1) for s in node.items("selections", "selection")
            ),
            custom_name=self.word(node, "customName", where),
        )

    def force(self, node: Node, depth: int) -> Force:
        name = self.word(node, "name", "a force", required=True)
        if depth > self.limits.max_depth:
            raise self.fail(f"force {quote(name)}", f"forces nested more than {self.limits.max_depth} deep")
        return Force(
            name=name,
            catalogue=self.word(node, "catalogueName", f"force {quote(name)}"),
            selections=tuple(
                self.selection(s, None, 1, f"force {quote(name)}")
                for s in node.items("selections", "selection")
            ),
            forces=tuple(self.force(f, depth + 1) for f in node.items("forces", "force")),
            rules=self.rules(node, f"force {quote(name)}"),
        )


def build_roster(root: Node, file: str, fmt: str, limits: RosterLimits = LIMITS) -> Roster:
    """The roster of a tree whose root is the ``roster`` element (see the module)."""
    r = _Reader(file, limits)
    return Roster(
        name=r.word(root, "name", "roster", required=True),
        game_system_id=r.word(root, "gameSystemId", "roster", required=True),
        game_system_name=r.word(root, "gameSystemName", "roster"),
        file=file,
        format=fmt,
        costs=r.costs(root, "roster"),
        forces=tuple(r.force(f, 1) for f in root.items("forces", "force")),
    )
