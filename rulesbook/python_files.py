"""A designer's Python files: run once per process from the text read, the text kept.

A Python variant (:mod:`rulesbook.variants.python`) is a ``.py`` file the user names on their
own machine (never an upload). :func:`load_python_module` reads it once and runs that text, which
the module keeps, so :func:`python_source` gives exactly the code that ran — what a table's
provenance carries (:func:`rulesbook.variants.sharing.python_sections`) and what a worker process
runs again (:class:`rulesbook.choices.RuleOverride` pickles it with the file's path).

Example:
    >>> import pathlib, tempfile
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "house.py"
    >>> _ = file.write_text("def heroism():\\n    return 'any double'\\n")
    >>> module = load_python_module(file)
    >>> _ = file.write_text("# edited\\n")
    >>> module.heroism(), python_source(module.heroism).splitlines()[0]
    ('any double', 'def heroism():')
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from rulesbook.errors import InputError

__all__ = ["load_python_module", "python_source"]


class _SourceText(importlib.abc.SourceLoader):
    """Loads a module from a text already read (so the text kept is the text that runs)."""

    def __init__(self, path: str, source: str) -> None:
        self.path, self.source = path, source

    def get_filename(self, fullname: str) -> str:
        return self.path

    def get_data(self, path: str) -> bytes:
        return self.source.encode("utf-8")


def load_python_module(path: str | Path, source: str | None = None) -> ModuleType:
    """Run a designer's Python file (a Python variant) once per process and return it as a module.

    The file is read once and run from that text (``source``: run this text under the file's
    name instead), which the module keeps (:func:`python_source`), so a table's provenance holds
    exactly the code that computed it. Its module name is
    ``rulesbook_variant_<stem>_<hash of the path and the text>``, kept in ``sys.modules``, so its
    functions pickle by reference, a second load of the same text returns the same module and an
    edited file loads afresh. Only ever called on a path the user named on their own machine
    (never on an upload).
    """
    file = Path(path).expanduser().resolve()
    if source is None:
        try:
            source = importlib.util.decode_source(file.read_bytes())
        except OSError as exc:
            raise InputError(
                "variant", f"{file.name}: cannot be read ({exc.strerror or type(exc).__name__})"
            ) from None
    digest = hashlib.sha256(f"{file}\0{source}".encode()).hexdigest()[:10]
    name = f"rulesbook_variant_{re.sub(r'[^0-9a-zA-Z_]', '_', file.stem)}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_loader(name, _SourceText(str(file), source), origin=str(file))
    if spec is None or spec.loader is None:  # pragma: no cover - a loader is given
        raise InputError("variant", f"{file.name}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    setattr(module, _SOURCE_ATTR, source)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


_SOURCE_ATTR = "__rulesbook_source__"
"""The name under which a module :func:`load_python_module` ran keeps the text it ran."""


def python_source(function: Callable[..., Any]) -> str:
    """The text of the Python variant file ``function`` was defined in, as it ran (``""`` for a
    function that did not come from such a file: one defined in a notebook or a module)."""
    module = sys.modules.get(getattr(function, "__module__", "") or "")
    text = getattr(module, _SOURCE_ATTR, "")
    return text if isinstance(text, str) else ""
