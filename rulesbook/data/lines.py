"""Where a problem is in a data file: the line of a field, and a check's error that names it.

The readers of a system's files (``rules.yaml``, ``cases.yaml``, ``glossary.yaml``,
``source.yaml``) check plain values and name the field of a problem as a dotted path
after the file's name (``rules.yaml.rules[0].cite: every rule cites its source section``). Only
when there is a problem is the file's text composed again (:func:`rulesbook.data.compose_text`,
which keeps each node's line) to find that field's line, so the one-line error reads
``skirmish/rules.yaml, line 17: rules[0].cite: every rule cites its source section``.

Example:
    >>> tree = compose_text("rules:\\n  - id: a\\n    cite: []\\n", "rules.yaml")
    >>> line_of(tree, field_path("rules[0].cite"))
    3
    >>> str(located(DataFileError("rules.yaml.rules[0].cite: needed"), "skirmish/rules.yaml",
    ...     lambda: "rules:\\n  - id: a\\n    cite: []\\n"))
    'skirmish/rules.yaml, line 3: rules[0].cite: needed'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from yaml.nodes import MappingNode, Node, SequenceNode

from rulesbook.data import DataFileError, compose_text, read_text, scalar_value

__all__ = ["field_path", "line_of", "located", "located_in"]

_PART = re.compile(r"\[(\d+)\]|([^.\[\]]+)")


def field_path(field: str) -> tuple[str | int, ...]:
    """The keys and list indices of a dotted field (``rules[0].cite`` -> ``('rules', 0, 'cite')``).

    >>> field_path("terms[2].rules"), field_path("[3].expect")
    (('terms', 2, 'rules'), (3, 'expect'))
    """
    return tuple(int(m[1]) if m[1] is not None else m[2] for m in _PART.finditer(field))


def line_of(node: Node | None, path: Sequence[str | int]) -> int | None:
    """The line (1-based) of the value at ``path`` in a tree from :func:`compose_text` (a mapping
    key's line for a key; as deep as the path is found; ``None`` for no tree).

    >>> tree = compose_text("tests:\\n  nerve:\\n    target: nerv\\n", "m.yaml")
    >>> line_of(tree, ("tests", "nerve", "target")), line_of(tree, ("tests", "nerve", "nothing"))
    (3, 2)
    """
    line = None if node is None else node.start_mark.line + 1
    for part in path:
        if isinstance(node, MappingNode):
            found = next(((k, v) for k, v in node.value if scalar_value(k) == part), None)
            if found is None:
                break
            line, node = found[0].start_mark.line + 1, found[1]
        elif isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


def located(error: DataFileError, shown: str, text: Callable[[], str], name: str = "") -> DataFileError:
    """``error`` of a check of the file ``name`` (``NAME.FIELD: reason``, ``NAME[3]...: reason``
    or ``NAME: reason``) as ``SHOWN, line N: FIELD: reason``; ``text`` gives the file's text
    again (its line left out when it cannot be composed). ``name`` defaults to the last part of
    ``shown``; an error that does not start with it (a reader's own: not valid YAML, too large)
    is given back as it is."""
    name = name or shown.rpartition("/")[2]
    message = str(error)
    if error.kind or not message.startswith(name):
        return error
    rest = message[len(name) :]
    if rest.startswith(": "):
        return DataFileError(f"{shown}: {rest[2:]}")
    if not rest.startswith((".", "[")):
        return error
    field, sep, reason = rest.removeprefix(".").partition(": ")
    if not sep:
        return error
    try:
        line = line_of(compose_text(text(), name), field_path(field))
    except DataFileError:
        line = None
    where = f"{shown}, line {line}" if line is not None else shown
    return DataFileError(f"{where}: {field}: {reason}")


def located_in(error: DataFileError, path: Path) -> DataFileError:
    """:func:`located` for a system's file at ``path``, shown as ``SYSTEM-FOLDER/NAME``."""
    return located(error, f"{path.parent.name}/{path.name}", lambda: read_text(path), path.name)
