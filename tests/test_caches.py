"""Public cache controls (rulesbook.caches.clear_caches) empty the caches the benchmarks time."""

from __future__ import annotations

import pytest

from rulesbook.caches import clear_caches, intermediate_caches
from rulesbook.dice import TWO_D6, RollTest
from rulesbook.dice.roll import _roll_test_counts
from rulesbook.registry import registry


def test_clear_caches_levels() -> None:
    calc = registry().calculator("scrollhammer.morale-check")
    first = calc.run(ld=7)
    RollTest(dice=TWO_D6, target=7).p_pass()
    assert _roll_test_counts.cache_info().currsize > 0

    clear_caches(intermediate=False)  # results only: the dice stay warm
    assert _roll_test_counts.cache_info().currsize > 0
    second = calc.run(ld=7)
    assert second is not first and second == first

    clear_caches(results=False)  # the intermediate level only: results stay
    assert _roll_test_counts.cache_info().currsize == 0
    assert calc.run(ld=7) is second
    assert all(cached.cache_info().currsize == 0 for _, cached in intermediate_caches())  # type: ignore[attr-defined]


def test_intermediate_caches_are_the_modules_own() -> None:
    registry()
    names = [name for name, _ in intermediate_caches()]
    assert "rulesbook.dice.expr._die_for" in names
    assert all(name.startswith("rulesbook.") for name in names)
    assert len(names) == len(set(names))


def _every_rulesbook_module() -> list[str]:
    import importlib
    import pkgutil

    import rulesbook

    names = []
    for info in pkgutil.walk_packages(rulesbook.__path__, "rulesbook."):
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional front-end whose extra is not installed
            continue
        names.append(info.name)
    return names


def test_every_object_that_looks_like_a_cache_is_found() -> None:
    """The reset finds caches by their functools type; nothing else in a rulesbook module has
    both cache_clear and cache_info (so nothing cache-like escapes the reset)."""
    import sys

    assert len(_every_rulesbook_module()) > 40
    found = {id(cached) for _, cached in intermediate_caches()}
    looks_like = set()
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "rulesbook" or name.startswith("rulesbook.")):
            continue
        for obj in list(vars(module).values()):
            if (
                callable(getattr(obj, "cache_clear", None))
                and callable(getattr(obj, "cache_info", None))
                and getattr(obj, "__module__", None) == name
            ):
                looks_like.add(id(obj))
    assert found == looks_like and len(found) >= 15


def test_a_cache_added_or_replaced_at_run_time_is_cleared(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each reset looks afresh: a cache a module gains after the first reset is emptied too."""
    from functools import cache

    from rulesbook.dice import expr as dice

    clear_caches()

    def twice(x: int) -> int:
        return 2 * x

    twice.__module__ = "rulesbook.dice.expr"
    added = cache(twice)
    monkeypatch.setattr(dice, "_added_for_test", added, raising=False)
    replaced = cache(twice)
    monkeypatch.setattr(dice, "_die_for", replaced)
    added(1), replaced(2)
    assert added.cache_info().currsize == replaced.cache_info().currsize == 1
    clear_caches()
    assert added.cache_info().currsize == replaced.cache_info().currsize == 0
    assert "rulesbook.dice.expr._added_for_test" in [name for name, _ in intermediate_caches()]
