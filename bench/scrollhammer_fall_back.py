"""Timing of the Scrollhammer Fall Back calculators (exact Markov chains).

Reproduce with:

    .venv/bin/python bench/scrollhammer_fall_back.py

Each line: calculator, inputs, median wall time of one uncached call in milliseconds.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from rulesbook.registry import registry

CASES: list[tuple[str, dict[str, Any]]] = [
    ("scrollhammer.fall-back", {"ld": 7, "distance": 12, "phases": 3}),
    ("scrollhammer.fall-back", {"ld": 7, "distance": 48, "phases": 12}),
    ("scrollhammer.fall-back", {"ld": 6, "distance": 120, "phases": 12, "fall_back_dice": "D6"}),
    ("scrollhammer.fall-back", {"ld": 6, "distance": 120, "phases": 12, "fall_back_dice": "3D6"}),
    ("scrollhammer.panic-cascade", {"lds": (7,) * 10, "panic_cascade": "whole-line-each-time"}),
    ("scrollhammer.fall-back-move", {"distance": 8, "blocked_after": 6}),
]


def main() -> None:
    reg = registry()
    for calc_id, inputs in CASES:
        calc = reg.calculator(calc_id)
        checked = calc.validate(inputs)
        times = []
        for _ in range(7):
            start = time.perf_counter()
            calc.compute(**checked)  # uncached: the function itself
            times.append((time.perf_counter() - start) * 1000)
        print(f"{calc_id:<30} {inputs!s:<75} {statistics.median(times):8.2f} ms")


if __name__ == "__main__":
    main()
