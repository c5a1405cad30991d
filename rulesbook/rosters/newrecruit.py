"""New Recruit's JSON export: the roster schema's tree written as JSON.

Each element is an object whose attributes are its keys (``name``, ``type``, ``number``, …);
the children of a group are a list (``"selections": [...]``); a characteristic's text is
``"$text"``. The text goes through the project's one JSON reader (:mod:`rulesbook.data`, with
its limits: nesting, items, values, integers), then the one builder (:func:`~.build.build_roster`).

Example:
    >>> text = ('{"roster": {"name": "List", "gameSystemId": "gs", "gameSystemName": "A Game", '
    ...         '"forces": [{"name": "F", "catalogueName": "Greenskins", "selections": [{"name": "Mob", '
    ...         '"type": "unit", "number": 1, "profiles": [{"name": "Mob", "typeName": "Unit", '
    ...         '"characteristics": [{"name": "T", "$text": 5}]}]}]}]}}')
    >>> unit = parse_json(text, "list.json").units()[0]
    >>> unit.name, unit.profiles[0].get("T")
    ('Mob', '5')
"""

from __future__ import annotations

from typing import Any

from rulesbook.data import DataFileError, Limits, load_data_text
from rulesbook.errors import quote
from rulesbook.rosters.build import LIMITS, Node, RosterLimits, build_roster
from rulesbook.rosters.values import Roster

__all__ = ["parse_json"]


class _Object:
    """A JSON object of the export as the builder's :class:`~.build.Node`."""

    __slots__ = ("data", "file")

    def __init__(self, data: dict[str, Any], file: str) -> None:
        self.data, self.file = data, file

    def attr(self, name: str) -> object:
        return self.data.get(name)

    def text(self, name: str) -> object:
        raw = self.data.get(name)
        if name == "$text" and raw is None:
            raw = self.data.get("value", "")
        if isinstance(raw, dict):  # a description written as an element with its own text
            raw = raw.get("$text", "")
        return raw

    def items(self, group: str, item: str) -> list[Node]:
        raw = self.data.get(group)
        if raw is None:
            return []
        if isinstance(raw, dict):  # the XML shape kept: {"selections": {"selection": [...]}}
            raw = raw.get(item, [])
            raw = [raw] if isinstance(raw, dict) else raw
        if not isinstance(raw, list) or not all(isinstance(x, dict) for x in raw):
            name = self.data.get("name")
            where = f" of {quote(name)}" if isinstance(name, str) else ""
            raise DataFileError(
                f"{self.file}: {group}{where}: expected a list of objects", file=self.file, kind="refused"
            )
        return [_Object(x, self.file) for x in raw]


def parse_json(text: str, file: str, limits: RosterLimits = LIMITS) -> Roster:
    """The roster of a New Recruit JSON export's text (``file`` names it in messages)."""
    data = load_data_text(
        text,
        file,
        is_json=True,
        limits=Limits(
            max_bytes=limits.max_unpacked_bytes,
            max_depth=8 * limits.max_depth,
            max_items=limits.max_elements,
            max_nodes=limits.max_elements,
        ),
    )
    root = data.get("roster") if isinstance(data, dict) else None
    if not isinstance(root, dict):
        if isinstance(data, dict) and "forces" in data and "gameSystemId" in data:
            root = data  # the roster object on its own
        else:
            raise DataFileError(
                f"{file}: refused (not a New Recruit roster: expected an object with a 'roster' object, "
                "as New Recruit's JSON export writes)",
                file=file,
                kind="refused",
            )
    return build_roster(_Object(root, file), file, "New Recruit JSON", limits)
