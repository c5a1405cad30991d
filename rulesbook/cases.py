"""Tests as data: hand-worked calculator cases a rules designer can read and extend.

Each system may ship ``cases.yaml`` beside its ``rules.yaml``: a list of cases, each with a
``name``, the ``calculator`` ID, ``inputs`` (CLI text form, ``key: "value"``) and either
``expect`` (result keys -> expected JSON values; exact strings for ``*_exact`` keys) or
``error`` (a text the one-line error must contain). ``covers`` lists the rule IDs the case
checks. The test suite runs every case (``tests/test_cases.py``).

Example:
    >>> from pathlib import Path
    >>> import rulesbook.systems.scrollhammer as sh
    >>> cases = load_cases(Path(sh.__file__).with_name("cases.yaml"))
    >>> cases[0].calculator
    'scrollhammer.morale-check'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesbook.data import DataFileError, load_data_file
from rulesbook.data.lines import located_in

__all__ = ["Case", "load_cases"]


@dataclass(frozen=True, slots=True)
class Case:
    """One hand-worked case."""

    name: str
    calculator: str
    inputs: Mapping[str, str]
    expect: Mapping[str, Any]
    error: str | None
    covers: tuple[str, ...]


def load_cases(path: Path) -> list[Case]:
    """Load ``cases.yaml``; malformed entries raise DataFileError naming the file, the line and
    the entry."""
    try:
        return _cases(path)
    except DataFileError as exc:
        raise located_in(exc, path) from None


def _cases(path: Path) -> list[Case]:
    data = load_data_file(path) or []
    if not isinstance(data, list):
        raise DataFileError(f"{path.name}: expected a list of cases")
    out = []
    for i, raw in enumerate(data):
        where = f"{path.name}[{i}]"
        if not isinstance(raw, dict) or "calculator" not in raw or "name" not in raw:
            raise DataFileError(f"{where}: each case needs name and calculator")
        if ("expect" in raw) == ("error" in raw):
            raise DataFileError(f"{where}: give exactly one of expect or error")
        inputs = {
            str(k): str(v).lower() if isinstance(v, bool) else str(v)
            for k, v in (raw.get("inputs") or {}).items()
        }
        out.append(
            Case(
                name=str(raw["name"]),
                calculator=str(raw["calculator"]),
                inputs=inputs,
                expect=dict(raw.get("expect") or {}),
                error=str(raw["error"]) if "error" in raw else None,
                covers=tuple(raw.get("covers", ()) or ()),
            )
        )
    return out
