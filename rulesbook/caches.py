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
from typing import Protocol, cast

from rulesbook.registry import registry

__all__ = ["clear_caches", "intermediate_caches"]


class _Cached(Protocol):
    def cache_clear(self) -> None: ...


_FUNCTOOLS_CACHE: type = type(functools.lru_cache(maxsize=None)(len))
"""The type of every :mod:`functools` cache (``lru_cache`` and ``cache`` give the same wrapper)."""


def _module_caches() -> Iterator[tuple[str, str, _Cached]]:
    """(module name, attribute, cache) for every :mod:`functools` cache a loaded rulesbook module
    defines, in no particular order: one pass over the modules' values, each checked by type."""
    for module_name, module in list(sys.modules.items()):
        if module is None or not (module_name == "rulesbook" or module_name.startswith("rulesbook.")):
            continue
        found = [(attr, obj) for attr, obj in vars(module).items() if type(obj) is _FUNCTOOLS_CACHE]
        for attr, obj in found:
            if getattr(obj, "__module__", None) == module_name:
                yield module_name, attr, cast(_Cached, obj)


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

    The modules are looked through afresh at every call (a module loaded, or a cache replaced,
    since the last call is found), in one light pass: a benchmark resets before every timed call,
    and a heavier pass (sorting every module's names and asking every object for a
    ``cache_clear``, 0.5-0.9 ms) pushed the timed call's own code and data out of the processor's
    caches, adding 30-100 % to a 15 µs call (issue 14; bench/README.md).
    """
    if results:
        for calc in registry().calculators.values():
            calc.cache_clear()
    if intermediate:
        for _, _, cached in _module_caches():
            cached.cache_clear()
