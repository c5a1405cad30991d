"""Public cache controls: forget what rulesbook has computed (for benchmarks and experiments).

Answers are exact and pure, so rulesbook caches them at two levels: every calculator keeps a
result cache (inputs -> :class:`~rulesbook.results.CalcResult`), and below it the dice and the
systems memoise intermediate answers with :mod:`functools` caches (a roll test's distribution,
a damage packet, the data files read). :func:`clear_caches` empties either level without
reaching into a module's private names, so a benchmark can time a "cold" answer.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> calc.run(ld=7) is calc.run(ld=7)           # the second answer comes from the cache
    True
    >>> first = calc.run(ld=7)
    >>> clear_caches()
    >>> calc.run(ld=7) is first, calc.run(ld=7) == first
    (False, True)
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Protocol, cast

from rulesbook.registry import registry

__all__ = ["clear_caches", "intermediate_caches"]


class _Cached(Protocol):
    def cache_clear(self) -> None: ...


_FUNCTOOLS_CACHE: type = type(functools.lru_cache(maxsize=None)(len))
"""The type of every :mod:`functools` cache (``lru_cache`` and ``cache`` give the same wrapper)."""


def _module_caches() -> Iterator[tuple[str, str, _Cached]]:
    """(module name, attribute, cache) for every :mod:`functools` cache a loaded rulesbook module
    defines, in no particular order.

    Every loaded rulesbook module is visited at every call; its values are looked through again
    only when the module is new, its number of names changed or a cache found in it before is no
    longer there (:data:`_SEEN`): a full pass over every module's values touched enough memory to
    push a timed call's own code and data out of the processor's caches."""
    for module_name, module in _rulesbook_modules():
        names = vars(module)
        seen = _SEEN.get(module_name)
        fresh = seen is not None and seen[0] is module and seen[1] == len(names)
        if fresh:
            for attr, obj in seen[2]:  # type: ignore[index]
                if names.get(attr) is not obj:
                    fresh = False
                    break
        if not fresh:
            found = tuple(
                (attr, cast(_Cached, obj))
                for attr, obj in list(names.items())
                if type(obj) is _FUNCTOOLS_CACHE and getattr(obj, "__module__", None) == module_name
            )
            seen = _SEEN[module_name] = (module, len(names), found)
        for attr, obj in seen[2]:  # type: ignore[index]
            yield module_name, attr, obj


def _rulesbook_modules() -> list[tuple[str, ModuleType]]:
    """The loaded rulesbook modules, listed again whenever the loaded modules are not the ones
    listed last (another number of them, or one of the listed ones replaced)."""
    global _LISTED
    count, listed = _LISTED
    modules = sys.modules
    if count != len(modules) or any(modules.get(name) is not module for name, module in listed):
        listed = [
            (name, module)
            for name, module in list(modules.items())
            if module is not None and (name == "rulesbook" or name.startswith("rulesbook."))
        ]
        _LISTED = (len(modules), listed)
    return listed


_LISTED: tuple[int, list[tuple[str, ModuleType]]] = (-1, [])
"""How many modules were loaded when the rulesbook ones were listed, and that list."""

_SEEN: dict[str, tuple[ModuleType, int, tuple[tuple[str, _Cached], ...]]] = {}
"""Per rulesbook module: the module, its number of names and its caches when last looked
through (what :func:`_module_caches` checks before looking again)."""


def intermediate_caches() -> Iterator[tuple[str, _Cached]]:
    """(qualified name, cached function) for every :mod:`functools` cache a loaded rulesbook module
    defines, sorted by name.

    >>> names = [name for name, _ in intermediate_caches()]
    >>> "rulesbook.dice.roll._roll_test_distribution" in names
    True
    """
    found = sorted((f"{module_name}.{attr}", obj) for module_name, attr, obj in _module_caches())
    yield from found


def clear_caches(*, results: bool = True, intermediate: bool = True) -> None:
    """Forget cached answers: every calculator's results and/or every intermediate cache.

    ``clear_caches(intermediate=False)`` times a calculator's recomputation with the dice caches
    warm (as in a running server); ``clear_caches(results=False)`` keeps results and forgets the
    rest (for timing a compute function called directly).

    Every loaded module is visited at every call (a module loaded, a cache added or replaced
    since the last call is found), lightly: a benchmark resets before every timed call, and a
    heavier pass pushes the timed call's own code and data out of the processor's caches — sorting
    every module's names and asking every object for a ``cache_clear`` (0.5-0.9 ms) added 30-100 %
    to a 15 µs call (issue 14), and even one pass over every module's values (0.2-0.4 ms) added
    about 30 µs to a small ``wh40k.attack`` of 0.1 ms (issue 37; bench/README.md). A module's
    values are looked through again only when its number of names changes or a cache found in it
    is replaced.
    """
    if results:
        for calc in registry().calculators.values():
            calc.cache_clear()
    if intermediate:
        for _, _, cached in _module_caches():
            cached.cache_clear()
