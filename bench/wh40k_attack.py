"""Benchmark: the 40-attack case of the wh40k issue, three ways, in one run.

40 attacks at BS 3+, S5 AP-1 D1, Sustained Hits 1 and Devastating Wounds, against 20 T4
two-wound models with a 3+ save and Feel No Pain 5+.

1. **rulesbook** — the ``wh40k.attack`` calculator's compute function (its result cache
   bypassed), "warm" (the per-roll caches of icepool and RollTest kept) and "cold" (every
   rulesbook cache cleared before each call).
2. **icepool, straightforward** — a per-attack outcome die (normal and devastating wounds of one
   attack), then a chain over (models left, damage on the current model, devastating wounds
   pending), one attack at a time; the devastating wounds are applied at the end.
3. **numpy Monte Carlo** — 10^6 seeded trials rolling every die (chunks of 100,000).

The script checks that (1) and (2) give the same exact distribution and that (3) is within
sampling error, then prints the medians and the ratios (and writes them as JSON with --json).

Run:  .venv/bin/python bench/wh40k_attack.py [--repeat 31] [--json bench/wh40k_attack.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
import numpy as np

from rulesbook.caches import clear_caches
from rulesbook.registry import registry

INPUTS = {
    "attacks": "40",
    "skill": "3",
    "strength": "5",
    "ap": "-1",
    "damage": "1",
    "abilities": "sustained-hits-1,devastating-wounds",
    "toughness": "4",
    "save": "3",
    "wounds": "2",
    "models": "20",
    "fnp": "5",
}
MODELS, WOUNDS, ATTACKS = 20, 2, 40


def ours() -> list[Fraction]:
    calc = registry().calculator("wh40k.attack")
    checked = calc.validate(INPUTS)
    result = calc.compute(**calc.compute_arguments(checked))  # the result cache is bypassed on purpose
    return list(result["models_destroyed"])  # the exact values, before the floats are derived


def ours_cold() -> list[Fraction]:
    clear_caches()
    return ours()


def icepool_straightforward() -> list[Fraction]:
    """Per-attack outcome die (wounds after Feel No Pain, devastating wounds pending), then a
    chain over (models left, damage on the current model, devastating wounds pending)."""
    d6 = icepool.d6

    def wound_outcome(w: int, s: int) -> tuple[int, int]:
        """(normal damage packets, devastating packets) of one hit: wound on 3+, save 4+."""
        if w == 6:
            return (0, 1)  # Critical Wound: devastating, no save
        if w >= 3 and s < 4:  # S5 vs T4: 3+; 3+ save at AP-1: 4+ (an unmodified 1 fails)
            return (1, 0)
        return (0, 0)

    def attack(h: int, w1: int, s1: int, w2: int, s2: int) -> tuple[int, int]:
        if h < 3:
            return (0, 0)
        a = wound_outcome(w1, s1)
        if h == 6:  # Critical Hit: Sustained Hits 1 adds a second hit
            b = wound_outcome(w2, s2)
            return (a[0] + b[0], a[1] + b[1])
        return a

    per_attack = icepool.map(attack, d6, d6, d6, d6, d6)
    fnp_loses = icepool.Die({0: 1, 1: 2})  # Feel No Pain 5+: a wound is lost on 1-4
    # normal packets through Feel No Pain now (D1: one point each); devastating ones wait
    outcome: Any = per_attack.map(lambda n, m: (n @ fnp_loses).map(lambda lost: (lost, m)), star=True)

    def take(models: int, dmg: int, points: int) -> tuple[int, int]:
        """Points of damage, one at a time, each to the current model (D1: nothing wasted)."""
        for _ in range(points):
            if models == 0:
                break
            dmg += 1
            if dmg == WOUNDS:
                models, dmg = models - 1, 0
        return models, dmg

    def step(state: tuple[int, int, int], out: tuple[int, int]) -> tuple[int, int, int]:
        models, dmg = take(state[0], state[1], out[0])
        return (models, dmg, state[2] + out[1])

    state: Any = icepool.Die([(MODELS, 0, 0)])
    for _ in range(ATTACKS):
        state = icepool.map(step, state, outcome)

    def finish(models: int, dmg: int, pending: int) -> Any:
        return (pending @ fnp_loses).map(lambda lost: MODELS - take(models, dmg, lost)[0])

    destroyed = state.map(finish, star=True)
    denom = destroyed.denominator()
    return [Fraction(destroyed.quantity(k), denom) for k in range(MODELS + 1)]


def numpy_monte_carlo(trials: int = 1_000_000, seed: int = 40, chunk: int = 100_000) -> list[float]:
    """Seeded Monte Carlo rolling every die; returns P(exactly k models destroyed)."""
    rng = np.random.default_rng(seed)
    counts = np.zeros(MODELS + 1, dtype=np.int64)
    cols = np.arange(2 * ATTACKS)
    for start in range(0, trials, chunk):
        n = min(chunk, trials - start)
        hit = rng.integers(1, 7, size=(n, ATTACKS), dtype=np.int8)
        hits = (hit >= 3).sum(axis=1) + (hit == 6).sum(axis=1)  # Sustained Hits 1
        live = cols[None, :] < hits[:, None]
        wound = rng.integers(1, 7, size=(n, 2 * ATTACKS), dtype=np.int8)
        save = rng.integers(1, 7, size=(n, 2 * ATTACKS), dtype=np.int8)
        fnp = rng.integers(1, 7, size=(n, 2 * ATTACKS), dtype=np.int8)
        devastating = live & (wound == 6)
        unsaved = live & (wound >= 3) & (wound < 6) & (save < 4)
        lost = ((devastating | unsaved) & (fnp < 5)).sum(axis=1)
        destroyed = np.minimum(lost, MODELS * WOUNDS) // WOUNDS  # D1: no excess within a model
        counts += np.bincount(destroyed, minlength=MODELS + 1)
    return [float(c) / trials for c in counts]


def median_ms(func: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=31, help="timed calls of the exact methods")
    parser.add_argument("--mc-repeat", type=int, default=3, help="timed runs of the 10^6-trial Monte Carlo")
    parser.add_argument("--icepool-repeat", type=int, default=3, help="timed runs of the icepool chain")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()

    exact = ours()
    reference = icepool_straightforward()
    assert exact == reference, "rulesbook and the straightforward icepool chain disagree"
    sampled = numpy_monte_carlo()
    worst = max(abs(float(p) - q) for p, q in zip(exact, sampled, strict=True))
    assert worst < 0.003, f"Monte Carlo off by {worst}"

    figures = {
        "rulesbook_warm_ms": median_ms(ours, args.repeat),
        "rulesbook_cold_ms": median_ms(ours_cold, args.repeat),
        "icepool_chain_ms": median_ms(icepool_straightforward, args.icepool_repeat),
        "numpy_mc_1e6_ms": median_ms(numpy_monte_carlo, args.mc_repeat),
    }
    figures["icepool_over_rulesbook_cold"] = figures["icepool_chain_ms"] / figures["rulesbook_cold_ms"]
    figures["mc_over_rulesbook_cold"] = figures["numpy_mc_1e6_ms"] / figures["rulesbook_cold_ms"]
    figures["mc_max_abs_error"] = worst
    figures["mean_models_destroyed"] = float(sum(k * p for k, p in enumerate(exact)))
    figures["python"] = platform.python_version()
    figures["icepool"] = icepool.__version__
    for key, value in figures.items():
        print(f"{key:>30}: {value:.4g}" if isinstance(value, float) else f"{key:>30}: {value}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(figures, fh, indent=2)
            fh.write("\n")


if __name__ == "__main__":
    main()
