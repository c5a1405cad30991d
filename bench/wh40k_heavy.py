"""Benchmark: the heaviest realistic ``wh40k.attack`` inputs, each answered from scratch.

Reproduce with::

    .venv/bin/python bench/wh40k_heavy.py --json bench/wh40k_heavy.json

Each case runs through ``calc.run`` (validation and the cost check included) with every
rulesbook cache cleared first; the figure is the median of ``--repeat`` such calls, with the path
that answered (exact, or the floating-point path labelled approximate) and the mean number of
wounds lost. The cases are issue 14's: 150 attacks at Damage 2D6 (against two-wound and ten-wound
models), the 120-attack Sustained Hits D6 horde that used to be refused, and the largest inputs a
player can meet — 200 attacks, Damage 2D6+3 or 3D6, 40 models of 24 wounds, abilities together.
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from rulesbook.caches import clear_caches
from rulesbook.registry import registry

BASE = {"skill": "3", "strength": "4", "toughness": "4", "save": "7"}

CASES: dict[str, dict[str, str]] = {
    "150 attacks D 2D6 vs 40 x W2": {"attacks": "150", "damage": "2D6", "wounds": "2", "models": "40"},
    "150 attacks D 2D6 vs 40 x W10": {"attacks": "150", "damage": "2D6", "wounds": "10", "models": "40"},
    "150 attacks D 3D6 vs 40 x W10": {"attacks": "150", "damage": "3D6", "wounds": "10", "models": "40"},
    "120 attacks SH D6, D 2D6 vs 40 x W10, FNP 5+": {
        "attacks": "120",
        "damage": "2D6",
        "abilities": "sustained-hits-d6",
        "wounds": "10",
        "models": "40",
        "fnp": "5",
    },
    "200 attacks D 1 vs 40 x W24": {"attacks": "200", "damage": "1", "wounds": "24", "models": "40"},
    "200 attacks D 2D6+3 vs 40 x W24": {"attacks": "200", "damage": "2D6+3", "wounds": "24", "models": "40"},
    "200 attacks SH D6, lethal, dev, D 2D6+3 vs 40 x W24, FNP 5+": {
        "attacks": "200",
        "damage": "2D6+3",
        "abilities": "sustained-hits-d6,lethal-hits,devastating-wounds",
        "wounds": "24",
        "models": "40",
        "fnp": "5",
    },
    "200 attacks SH D6, dev, twin, anti, D 3D6 vs 40 x W24, FNP 5+": {
        "attacks": "200",
        "damage": "3D6",
        "abilities": "sustained-hits-d6,devastating-wounds,twin-linked,anti-infantry-2",
        "wounds": "24",
        "models": "40",
        "fnp": "5",
    },
    "192 attacks Blast, crit 2+, SH 6, dev, twin, D 2D6+1 vs 40 x W24": {
        "attacks": "192",
        "damage": "2D6+1",
        "abilities": "sustained-hits-6,devastating-wounds,blast,twin-linked",
        "critical_hit": "2",
        "wounds": "24",
        "models": "40",
        "fnp": "5",
    },
}


def main() -> None:
    """Time every case cold; print and optionally save the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    opts = parser.parse_args()
    calc = registry().calculator("wh40k.attack")
    rows = {}
    print(f"{'case':<64} {'cold s':>7} {'path':>12} {'mean wounds lost':>17}")
    for name, extra in CASES.items():
        inputs = {**BASE, **extra}
        times = []
        result = None
        for _ in range(opts.repeat):
            clear_caches()
            t0 = time.perf_counter()
            result = calc.run(**inputs)
            times.append(time.perf_counter() - t0)
        assert result is not None
        path = "approximate" if result.values.get("approximate") else "exact"
        seconds = statistics.median(times)
        rows[name] = {
            "inputs": inputs,
            "cold_s": round(seconds, 4),
            "worst_s": round(max(times), 4),
            "path": path,
            "mean_wounds_lost": result["mean_wounds_lost"],
        }
        print(f"{name:<64} {seconds:7.3f} {path:>12} {result['mean_wounds_lost']:17.4f}", flush=True)
    if opts.json is not None:
        figures = {"python": sys.version.split()[0], "repeat": opts.repeat, "cases": rows}
        opts.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
