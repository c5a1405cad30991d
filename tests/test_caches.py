"""Public cache controls (rulesbook.caches.clear_caches) empty the caches the benchmarks time."""

from __future__ import annotations

from rulesbook.caches import clear_caches, intermediate_caches
from rulesbook.dice import TWO_D6, RollTest, _roll_test_counts
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
    assert "rulesbook.dice._die_for" in names
    assert all(name.startswith("rulesbook.") for name in names)
    assert len(names) == len(set(names))
