"""Changes to Panel's, Bokeh's and Tornado's internals, each declared with what it targets.

The live server needs a few things those frameworks do not offer as settings (answers without
Panel's 50 ms pause, a page's resource list worked out once, sessions built off the event loop,
several processes that each build a session once). Each such change is a function decorated
with :func:`framework_patch`, which records:

* ``targets`` — the internals it replaces or relies on, as ``"module:attribute.path"``;
* ``framework`` and ``version`` — the distribution and the release it was written against;
* ``fingerprint`` — a short hash of those targets as that release has them (the source of a
  function, the value of a setting; :func:`fingerprint`).

Its docstring says why. ``tests/test_patches.py`` checks every declared patch against the
installed frameworks: a new release, or any change to a target's code, fails the test, so the
patch is looked at again before it can silently misbehave. Applying a patch is idempotent (the
second call does nothing), and the original of every replaced target is kept, so the check still
reads the framework's own code after the patch is applied.

Example:
    >>> from widgets.server import sessions  # noqa: F401  (declares the session patches)
    >>> names = [p.name for p in declared_patches()]
    >>> "answer_without_waiting" in names and "build_sessions_off_the_loop" in names
    True
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Patch",
    "declared_patches",
    "fingerprint",
    "framework_patch",
    "original",
    "replace",
    "resolve",
]


@dataclass(frozen=True)
class Patch:
    """One declared change to a framework's internals (see the module's docstring)."""

    name: str
    why: str
    framework: str
    version: str
    targets: tuple[str, ...]
    fingerprint: str
    apply: Callable[[], None] = field(repr=False, compare=False)


_DECLARED: dict[str, Patch] = {}
_ORIGINALS: dict[str, Any] = {}
_APPLIED: set[str] = set()


def resolve(target: str) -> Any:
    """The object ``"module:attr.path"`` names (the original, when a patch replaced it)."""
    if target in _ORIGINALS:
        return _ORIGINALS[target]
    module, _, path = target.partition(":")
    value: Any = importlib.import_module(module)
    for part in path.split(".") if path else ():
        value = getattr(value, part)
    return value


def original(target: str) -> Any:
    """The framework's own object at ``target`` (before any patch replaced it)."""
    return resolve(target)


def replace(target: str, new: Any) -> None:
    """Set ``target`` (``"module:owner.attribute"``) to ``new``, keeping the original first."""
    if target not in _ORIGINALS:
        _ORIGINALS[target] = resolve(target)
    module, _, path = target.partition(":")
    owner_path, _, attribute = path.rpartition(".")
    owner = importlib.import_module(module) if not owner_path else resolve(f"{module}:{owner_path}")
    setattr(owner, attribute, new)


def fingerprint(targets: tuple[str, ...]) -> str:
    """A short hash of the targets as installed: a function's (or class's) source, a plain value's
    ``repr``, otherwise the object's type name.

    >>> fingerprint(("json:dumps",)) == fingerprint(("json:dumps",)) != fingerprint(("json:loads",))
    True
    """
    digest = hashlib.sha256()
    for target in targets:
        value = resolve(target)
        if inspect.isroutine(value) or inspect.isclass(value):
            text = inspect.getsource(inspect.unwrap(value))
        elif isinstance(value, int | float | str | bool | type(None)):
            text = repr(value)
        else:
            text = type(value).__qualname__
        digest.update(f"{target}\n{text}\n".encode())
    return digest.hexdigest()[:16]


def framework_patch(
    *, framework: str, version: str, targets: tuple[str, ...], fingerprint: str
) -> Callable[[Callable[[], None]], Callable[[], None]]:
    """Declare the decorated function as a patch of ``framework`` ``version`` touching ``targets``
    (whose :func:`fingerprint` was ``fingerprint`` there); calling it applies it once."""

    def declare(func: Callable[[], None]) -> Callable[[], None]:
        @functools.wraps(func)
        def apply() -> None:
            if func.__name__ not in _APPLIED:
                func()
                _APPLIED.add(func.__name__)

        _DECLARED[func.__name__] = Patch(
            name=func.__name__,
            why=inspect.getdoc(func) or "",
            framework=framework,
            version=version,
            targets=targets,
            fingerprint=fingerprint,
            apply=apply,
        )
        return apply

    return declare


def declared_patches() -> list[Patch]:
    """Every patch declared so far (import :mod:`widgets.server.sessions` to declare the server's)."""
    return list(_DECLARED.values())
