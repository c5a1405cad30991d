"""Data files: the one loader for every YAML/JSON file rulesbook ships, and its one error type.

Every data file (a system's ``rules.yaml`` and ``cases.yaml``, WarStrike's missions and drafts,
40k unit profiles) is read by :func:`load_data_file`: YAML through the safe loader only (the C
one when PyYAML has it), ``.json`` through :mod:`json`. Whatever goes wrong — the file cannot be
read, it is not valid YAML/JSON, a field is missing or has the wrong type — the reader raises
:class:`DataFileError` with one line naming the file (and the line, or the dotted path of the
field) so a rules designer can fix the file without reading a traceback. :func:`need` is the
typed field access the loaders build their checks from.

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "units.yaml"
    >>> _ = path.write_text("unit:\\n  name: Mortarion\\n  wounds: 16\\n", encoding="utf-8")
    >>> data = load_data_file(path)
    >>> need(data["unit"], "wounds", "units.yaml.unit", int)
    16
    >>> need(data["unit"], "save", "units.yaml.unit")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: units.yaml.unit: missing field 'save'
    >>> _ = path.write_text("unit: [1, 2\\n", encoding="utf-8")
    >>> load_data_file(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: units.yaml: not valid YAML (line 2: ...)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from rulesbook.errors import RulesbookError

__all__ = ["DataFileError", "load_data_file", "need", "yaml_loader"]


class DataFileError(RulesbookError):
    """A data file is malformed; the one-line message names the file and the field or line."""


def yaml_loader() -> type[yaml.SafeLoader] | type[yaml.CSafeLoader]:
    """The safe YAML loader: PyYAML's C one when it is built, the pure-Python one otherwise.

    >>> yaml_loader().__name__ in ("CSafeLoader", "SafeLoader")
    True
    """
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _yaml_problem(exc: yaml.YAMLError, text: str) -> str:
    """``line N: what is wrong`` for a YAML error (the line where PyYAML gives one)."""
    mark = getattr(exc, "problem_mark", None)
    line: int | None = mark.line + 1 if mark is not None else None
    if line is None and isinstance(exc, yaml.reader.ReaderError):  # a character YAML refuses
        line = text.count("\n", 0, max(exc.position, 0)) + 1
    problem = getattr(exc, "problem", None) or getattr(exc, "reason", None) or str(exc)
    problem = " ".join(str(problem).split())
    return f"line {line}: {problem}" if line is not None else problem


def load_data_file(path: Path, *, name: str | None = None) -> Any:
    """The contents of a YAML (or ``.json``) data file, read safely.

    ``name`` is how messages call the file (its file name by default). An empty YAML file gives
    ``None``. Tags that would build Python objects are refused like any other error.

    Example:
        >>> import tempfile
        >>> path = Path(tempfile.mkdtemp()) / "evil.yaml"
        >>> _ = path.write_text("!!python/object/apply:os.system ['true']\\n", encoding="utf-8")
        >>> load_data_file(path)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rulesbook.data.DataFileError: evil.yaml: not valid YAML (line 1: could not determine a constructor ...)
    """
    shown = name or path.name
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise DataFileError(f"{shown}: cannot be read ({reason})") from None
    if path.suffix.lower() == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataFileError(f"{shown}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    try:
        return yaml.load(text, Loader=yaml_loader())
    except yaml.YAMLError as exc:
        raise DataFileError(f"{shown}: not valid YAML ({_yaml_problem(exc, text)})") from None


def need(mapping: Any, key: str, where: str, kind: type | tuple[type, ...] = str) -> Any:
    """``mapping[key]``, checked to be of type ``kind``; DataFileError naming ``where.key`` if not.

    ``where`` is the dotted path of ``mapping`` in its file (``rules.yaml.rules[3]``). Pass
    ``kind=object`` to accept any value.

    >>> need({"turns": 6}, "turns", "mission.yaml", int)
    6
    >>> need({"turns": "six"}, "turns", "mission.yaml", int)
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: mission.yaml.turns: expected int, got str
    >>> need([1, 2], "turns", "mission.yaml")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: mission.yaml: expected a mapping
    """
    if not isinstance(mapping, Mapping):
        raise DataFileError(f"{where}: expected a mapping")
    if key not in mapping:
        raise DataFileError(f"{where}: missing field '{key}'")
    value = mapping[key]
    if not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise DataFileError(f"{where}.{key}: expected {names}, got {type(value).__name__}")
    return value
