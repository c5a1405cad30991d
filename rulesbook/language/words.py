"""Declarations in words: what one entry of a test does, for explanations and for what a
variant adds (``rulesbook variants``, a comparison's notes).

Example:
    >>> from rulesbook.language.declarations import FacesDecl
    >>> entry_text(FaceEntry("x", FacesDecl("double"), "pass", label="Any double"))
    'any double passes whatever the total (Any double)'
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesbook.errors import InputError
from rulesbook.language.declarations import FaceEntry, ModifierEntry, RerollEntry
from rulesbook.language.expressions import Expression, Value

__all__ = ["Entry", "entry_text", "shown", "value_or_none"]

type Entry = ModifierEntry | FaceEntry | RerollEntry

_VERB = {"pass": "passes", "fail": "fails", "critical": "is critical"}


def shown(value: Value) -> str:
    """A value as a reader says it (``yes``/``no`` for a condition)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def entry_text(entry: Entry, env: Mapping[str, Value] | None = None) -> str:
    """What one entry does, in words (its value worked out when ``env`` has every name).

    >>> from rulesbook.language.declarations import FacesDecl
    >>> entry_text(RerollEntry("leader", label="Leader nearby"))
    'a failed test is re-rolled once (Leader nearby)'
    >>> entry_text(FaceEntry("x", FacesDecl("double"), "pass"))
    'any double passes whatever the total'
    """
    label = f" ({entry.label})" if entry.label else ""
    if isinstance(entry, ModifierEntry):
        value = entry.value.constant if entry.value.constant is not None else value_or_none(entry.value, env)
        shown = f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else entry.value.text
        return f"{shown} to the test{label}"
    if isinstance(entry, FaceEntry):
        return f"{_faces(entry, env)} {_VERB[entry.result]} whatever the total{label}"
    if entry.faces is None:
        return f"a failed test is re-rolled once{label}"
    return f"{_faces(entry, env)} is re-rolled once{label}"


def _faces(entry: FaceEntry | RerollEntry, env: Mapping[str, Value] | None) -> str:
    assert entry.faces is not None
    faces = entry.faces
    if faces.value is not None and faces.value.constant is None:
        value = value_or_none(faces.value, env)
        if value is not None:
            word = "a double" if faces.form == "double" else "a natural total of"
            return f"{word} {value}"
    return faces.describe()


def value_or_none(expr: Expression, env: Mapping[str, Value] | None) -> Value | None:
    """The expression's value, or ``None`` when ``env`` lacks a name it reads."""
    if env is None or not expr.names <= env.keys():
        return None
    try:
        return expr.evaluate(env)
    except InputError:
        return None
