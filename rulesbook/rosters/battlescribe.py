"""BattleScribe rosters (``.ros``: XML in the roster namespace of the public BSData schema).

The XML is parsed by :mod:`defusedxml` with document type declarations forbidden, so no entity
is ever defined or expanded (no "billion laughs", no external file or address fetched); the
elements and their depth are counted while the file is parsed and a file past
:class:`~.build.RosterLimits` stops there. The root must be a ``roster`` (a catalogue or game
system file says so). The tree is read by the one builder, :func:`~.build.build_roster`.

Example:
    >>> xml = (b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" id="r" name="List" '
    ...        b'gameSystemId="gs" gameSystemName="A Game"><forces><force id="f" name="F" entryId="e" '
    ...        b'catalogueId="c" catalogueName="Greenskins"><selections><selection id="s" name="Mob" '
    ...        b'entryId="m" number="1" type="unit"/></selections></force></forces></roster>')
    >>> r = parse_ros(xml, "list.ros")
    >>> r.game_system_name, r.catalogues, [u.name for u in r.units()]
    ('A Game', ('Greenskins',), ['Mob'])
    >>> parse_ros(b'<!DOCTYPE r [<!ENTITY a "aaaa">]><roster/>', "evil.ros")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: evil.ros: refused (a document type declaration: ...)
"""

from __future__ import annotations

import io
from typing import Any
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from rulesbook.data import DataFileError
from rulesbook.errors import quote, shorten
from rulesbook.rosters.build import LIMITS, Node, RosterLimits, build_roster
from rulesbook.rosters.values import Roster

__all__ = ["ROSTER_NAMESPACE", "parse_ros"]

ROSTER_NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
"""The namespace of a roster's elements (the schema's ``targetNamespace`` for rosters)."""

_OTHER_ROOTS = {
    "catalogue": "a BattleScribe catalogue (.cat)",
    "gameSystem": "a BattleScribe game system (.gst)",
}


class _Element:
    """A roster element as the builder's :class:`~.build.Node`."""

    __slots__ = ("elem", "ns")

    def __init__(self, elem: Element, ns: str) -> None:
        self.elem, self.ns = elem, ns

    def attr(self, name: str) -> object:
        return self.elem.get(name)

    def text(self, name: str) -> object:
        if name == "$text":
            return self.elem.text or ""
        child = self.elem.find(self.ns + name)
        return None if child is None else "".join(child.itertext())

    def items(self, group: str, item: str) -> list[Node]:
        holder = self.elem.find(self.ns + group)
        if holder is None:
            return []
        return [_Element(e, self.ns) for e in holder.findall(self.ns + item)]


def _refused(file: str, reason: str, kind: str = "refused") -> DataFileError:
    return DataFileError(f"{file}: {kind} ({reason})", file=file, kind=kind, reason=reason)


def parse_ros(
    data: bytes, file: str, fmt: str = "BattleScribe .ros", limits: RosterLimits = LIMITS
) -> Roster:
    """The roster of a ``.ros`` file's bytes (``file`` names it in messages)."""
    root: Any = None
    depth = count = 0
    try:
        for event, elem in iterparse(io.BytesIO(data), events=("start", "end"), forbid_dtd=True):
            if event == "end":
                depth -= 1
                continue
            count += 1
            depth += 1
            if root is None:
                root = elem
            if count > limits.max_elements:
                raise _refused(file, f"more than {limits.max_elements:,} XML elements")
            if depth > 4 * limits.max_depth:
                raise _refused(file, f"XML elements nested more than {4 * limits.max_depth} deep")
    except DefusedXmlException as exc:
        what = type(exc).__name__
        reason = (
            "a document type declaration: roster files have none, and its entities could expand without bound"
            if what == "DTDForbidden"
            else f"{what}: entities and external references are not read"
        )
        raise _refused(file, reason) from None
    except ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        where = f"line {line}: " if line else ""
        raise _refused(file, f"{where}{shorten(str(exc).split(':')[0], 80)}", "not valid XML") from None
    if root is None:  # pragma: no cover - expat refuses a document without an element
        raise _refused(file, "no XML element", "not valid XML")
    tag = root.tag
    ns = ""
    if tag.startswith("{"):
        uri, _, local = tag[1:].partition("}")
        ns = "{" + uri + "}"
    else:
        uri, local = "", tag
    if local in _OTHER_ROOTS:
        raise _refused(
            file, f"this is {_OTHER_ROOTS[local]}, not a roster: export a roster from the army builder"
        )
    if local != "roster":
        raise _refused(
            file,
            f"not a BattleScribe roster: its root element is {quote(shorten(local, 40))}, expected roster",
        )
    if uri not in ("", ROSTER_NAMESPACE):
        raise _refused(
            file,
            f"not a BattleScribe roster: namespace {quote(shorten(uri, 60))}, expected {ROSTER_NAMESPACE}",
        )
    return build_roster(_Element(root, ns), file, fmt, limits)
