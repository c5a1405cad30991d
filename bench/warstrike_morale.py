"""How fast is an exact Strike Force Morale answer? (WarStrike, cold caches.)

Reproduce with::

    .venv/bin/python bench/warstrike_morale.py

It times ``warstrike.strike-force-morale`` for officer-led forces and for Hive Mind forces of
growing size with mixed Ld (every unit's exact pass chance, summed with icepool), with and
without Fanatical, clearing the caches before each call; the figure is the median of 5 runs.
The time is the same whether or not a check is due (the conditional answer
``p_retreat_if_checked`` is always computed).
"""

from __future__ import annotations

import statistics
import time

from rulesbook.caches import clear_caches
from rulesbook.registry import registry


def cold_ms(**inputs: object) -> float:
    calc = registry().calculator("warstrike.strike-force-morale")
    checked = calc.validate(inputs)
    times = []
    for _ in range(5):
        clear_caches()
        start = time.perf_counter()
        calc.compute(**calc.compute_arguments(checked))
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    print(f"{'force':<38} {'ms (median of 5, cold)':>24}")
    print(f"{'officer Ld 8':<38} {cold_ms(starting_units=10, remaining_units=4, officer_ld=8):>24.2f}")
    for n in (5, 10, 20, 40, 60):
        lds = tuple((5, 6, 7, 8, 9, 10)[i % 6] for i in range(n))
        for fanatical in (False, True):
            ms = cold_ms(
                starting_units=60,
                remaining_units=n,
                officer_ld=None,
                hive_mind=True,
                unit_lds=lds,
                fanatical=fanatical,
            )
            label = f"Hive Mind, {n} units{', Fanatical' if fanatical else ''}"
            print(f"{label:<38} {ms:>24.2f}")


if __name__ == "__main__":
    main()
