"""Benchmark: interactive recomputation of the generated calculators.

Reproduce with ``.venv/bin/python bench/core.py``. For every registered calculator it times,
in one run, (a) a recomputation with the calculator's result cache cleared (the lower-level dice
caches stay warm, as they are in a running server), (b) a cached call, and (c) a full refresh
of the generated Panel form (validate, compute, render the result HTML), and prints medians in
milliseconds with the ratio recompute / cached. Nothing here asserts a time; the figures
are recorded in ``bench/README.md``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from rulesbook.caches import clear_caches
from rulesbook.registry import registry


def median_ms(func: Callable[[], object], repeat: int = 15) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    from widgets.forms.panel_app import CalculatorApp

    print(f"{'calculator':<42} {'recompute ms':>12} {'cached ms':>10} {'form refresh ms':>16} {'ratio':>6}")
    for calc in registry().calculators.values():
        example = dict(calc.examples[0]) if calc.examples else {}
        checked = calc.validate(example)

        def cold(calc: Any = calc, checked: Any = checked) -> object:
            clear_caches(intermediate=False)
            return calc.run_validated(checked)

        def cached(calc: Any = calc, checked: Any = checked) -> object:
            return calc.run_validated(checked)

        app = CalculatorApp(calc)
        cold_ms = median_ms(cold)
        cached_ms = median_ms(cached)
        refresh_ms = median_ms(app.refresh)
        print(
            f"{calc.id:<42} {cold_ms:12.2f} {cached_ms:10.3f} {refresh_ms:16.2f} {cold_ms / cached_ms:6.0f}"
        )


if __name__ == "__main__":
    main()
