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

import sys
from collections.abc import Iterator
from typing import Protocol

from rulesbook.registry import registry

__all__ = ["clear_caches", "intermediate_caches"]


class _Cached(Protocol):
    def cache_clear(self) -> None: ...


def _is_cache(obj: object) -> bool:
    return callable(getattr(obj, "cache_clear", None)) and callable(getattr(obj, "cache_info", None))


def intermediate_caches() -> Iterator[tuple[str, _Cached]]:
    """(qualified name, cached function) for every :mod:`functools` cache a loaded rulesbook module defines.

    >>> names = [name for name, _ in intermediate_caches()]
    >>> "rulesbook.dice._roll_test_distribution" in names
    True
    """
    for module_name, module in sorted(sys.modules.items()):
        if module is None or not (module_name == "rulesbook" or module_name.startswith("rulesbook.")):
            continue
        for attr, obj in sorted(vars(module).items()):
            if _is_cache(obj) and getattr(obj, "__module__", None) == module_name:
                yield f"{module_name}.{attr}", obj


def clear_caches(*, results: bool = True, intermediate: bool = True) -> None:
    """Forget cached answers: every calculator's results and/or every intermediate cache.

    ``clear_caches(intermediate=False)`` times a calculator's recomputation with the dice caches
    warm (as in a running server); ``clear_caches(results=False)`` keeps results and forgets the
    rest (for timing a compute function called directly).
    """
    if results:
        for calc in registry().calculators.values():
            calc.cache_clear()
    if intermediate:
        for _, cached in intermediate_caches():
            cached.cache_clear()
