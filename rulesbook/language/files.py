"""Reading documents of the rules language: a system's ``mechanics.yaml``, and the line of a problem.

A file goes through the one hardened loader (:mod:`rulesbook.data`), then the schema
(:mod:`rulesbook.language.schema`), then the declarations are built and checked against the
system (:mod:`rulesbook.language.mechanics`). Whatever is wrong is one line naming the file, the
line and the field: ``mechanics.yaml, line 12: tests.nerve.target: unknown name 'nerv' in 'nerv +
modifier'; did you mean nerve?`` (the line is found by composing the file's text again, only when
there is a problem).

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "mechanics.yaml").write_text(
    ...     "tests:\\n  nerve:\\n    dice: 2D6\\n    pass: at-most\\n    target: nerv\\n", encoding="utf-8")
    >>> load_mechanics(folder / "mechanics.yaml", "demo", None)
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: mechanics.yaml, line 5: tests.nerve.target: unknown name 'nerv' in 'nerv'
"""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Any

from rulesbook.data import DataFileError, compose_text, load_data_file, read_text
from rulesbook.data.lines import line_of
from rulesbook.errors import InputError
from rulesbook.language.declarations import LanguageError, dotted
from rulesbook.language.document import build_document
from rulesbook.language.mechanics import Mechanics, choice_names
from rulesbook.language.schema import schema_problem
from rulesbook.records import Implementation

__all__ = ["checked_document", "implementations", "line_in", "load_mechanics", "located"]


def line_in(file: FilePath, path: tuple[str | int, ...]) -> int | None:
    """The line of the value at ``path`` in ``file`` (``None`` when it cannot be read again)."""
    try:
        return line_of(compose_text(read_text(file), file.name), path)
    except DataFileError:
        return None


def checked_document(data: Any, *, schema: bool = True) -> dict[str, Any]:
    """A document's data once it is a mapping that the schema accepts (``schema=False``: a
    mapping), else the first problem as a :class:`LanguageError`."""
    if not isinstance(data, dict):
        raise LanguageError((), "expected a mapping with parameters, inputs, tests and calculators")
    problem = schema_problem(data) if schema else None
    if problem is not None:
        raise problem
    return data


def implementations(mechanics: Mechanics) -> list[Implementation]:
    """The declarations of a system's document that execute rules, as the registry records the
    code of a rule: ``tests.nerve.modifiers.wounded`` of ``mechanics.yaml``, at its line."""
    paths = mechanics.rule_paths()
    if not paths:
        return []
    file = FilePath(mechanics.path)
    try:
        tree = compose_text(read_text(file), file.name) if mechanics.path else None
    except DataFileError:
        tree = None
    return [
        Implementation(
            rule, dotted(path), mechanics.file or "mechanics.yaml", mechanics.path, line_of(tree, path) or 0
        )
        for rule, path in paths
    ]


def located(error: LanguageError, file: FilePath, name: str) -> str:
    """``NAME, line N: PATH: reason`` for a problem of the document in ``file`` (the line left out
    when the file cannot be read again)."""
    line = line_in(file, error.path)
    where = f"{name}, line {line}" if line is not None else name
    return f"{where}: {dotted(error.path)}: {error.message}"


def load_mechanics(
    path: FilePath, system: str, choices: Any, *, name: str = "", schema: bool = True
) -> Mechanics:
    """The mechanics a system declares in ``path`` (``mechanics.yaml``), checked against its rule
    choices (``choices``: the system's :class:`~rulesbook.choices.RuleChoices`, whose parameters
    and readings expressions may read). ``schema=False`` skips the JSON Schema (for the files
    shipped in the package, which the tests validate); ``name`` names the file in messages.

    Any problem is one :class:`~rulesbook.data.DataFileError` line: file, line, field, reason.
    """
    name = name or path.name
    data = load_data_file(path, name=name)
    try:
        declarations = build_document(checked_document(data, schema=schema))
        mechanics = Mechanics(system, declarations, choice_names(choices), name, str(path))
        mechanics.check(declarations)
    except LanguageError as exc:
        raise DataFileError(located(exc, path, name)) from None
    except InputError as exc:  # pragma: no cover - every check above raises a LanguageError
        raise DataFileError(f"{name}: {exc}") from None
    return mechanics
