"""Benchmark: calibration of the attack calculators' cost model against the clock.

Reproduce with::

    .venv/bin/python bench/wh40k_budget.py --json bench/wh40k_budget.json

A seeded broad sample of inputs (one to three weapons, attacks up to 200, every ability mix,
Damage up to 3D6, targets up to 40 models of 24 wounds, the alternative readings) whose
predicted work lies between 2 % and 100 % of a limit: for the exact engine
(:data:`~rulesbook.systems.wh40k.attack.cost.WORK_LIMIT`) and for the floating-point path
(:data:`~rulesbook.systems.wh40k.attack.cost.FLOAT_LIMIT`). Each is resolved once and timed; the script
reports the time per predicted unit (the spread is what the limits must absorb; small cases pay
fixed costs the units do not count), the slowest case, what the limit is worth in seconds at the
slowest rate seen overall and among the cases above a quarter of the limit, and the ratio of the engine's
own tally to the prediction (the deterministic check ``tests/wh40k/test_budget.py`` and
``tests/wh40k/test_approximate.py`` bound by 1.5). Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from rulesbook.dice import parse_dice
from rulesbook.systems.wh40k.attack.approximate import resolve_float
from rulesbook.systems.wh40k.attack.cost import DIGITS_LIMIT, FLOAT_LIMIT, WORK_LIMIT, predicted_cost
from rulesbook.systems.wh40k.attack.engine import resolve
from rulesbook.systems.wh40k.attack.rolls import Situation
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities
from rulesbook.systems.wh40k.choices import CHOICES

ABILITIES = (
    "",
    "sustained-hits-1",
    "sustained-hits-d6",
    "devastating-wounds",
    "lethal-hits,devastating-wounds",
    "sustained-hits-d3,devastating-wounds",
    "blast",
    "twin-linked,anti-infantry-4",
    "sustained-hits-2,lethal-hits",
)
READINGS: tuple[dict[str, str], ...] = (
    {},
    {},
    {},
    {"devastating_excess": "spills"},
    {"sustained_roll": "once-per-weapon"},
    {"allocation": "excess-spills"},
)


def sample(rng: random.Random, engine: str, count: int) -> list[tuple[list[Weapon], Target, Any, float]]:
    out: list[tuple[list[Weapon], Target, Any, float]] = []
    while len(out) < count:
        weapons = [
            Weapon(
                "w",
                parse_dice(rng.choice(("10", "20", "40", "60", "100", "150", "200", "2D6", "D6+10"))),
                rng.randint(2, 5),
                rng.randint(3, 9),
                -rng.randint(0, 3),
                parse_dice(rng.choice(("1", "2", "D3", "D6", "D6+1", "2D6", "3D6", "2D6+3"))),
                parse_abilities(rng.choice(ABILITIES)),
            )
            for _ in range(rng.choice((1, 1, 2, 3)))
        ]
        target = Target(
            rng.randint(3, 8),
            rng.randint(2, 7),
            rng.choice((1, 2, 3, 5, 10, 24)),
            models=rng.choice((1, 5, 10, 20, 40)),
            fnp=rng.choice((None, 5, 6)),
        )
        choices = CHOICES.replace(readings=rng.choice(READINGS))
        cost = predicted_cost(weapons, target, Situation(), choices)
        if engine == "exact":
            if 0.02 * WORK_LIMIT < cost.work <= WORK_LIMIT and cost.digits <= DIGITS_LIMIT:
                out.append((weapons, target, choices, cost.work))
        elif not cost.fits and 0.02 * FLOAT_LIMIT < cost.float_work <= FLOAT_LIMIT:
            out.append((weapons, target, choices, cost.float_work))
    return out


def measure(engine: str, count: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    rows = []
    for weapons, target, choices, predicted in sample(rng, engine, count):
        t0 = time.perf_counter()
        if engine == "exact":
            done = resolve(weapons, target, Situation(), choices).work
        else:
            done = resolve_float(weapons, target, Situation(), choices).work
        seconds = time.perf_counter() - t0
        rows.append({"predicted": predicted, "tally": done, "seconds": seconds})
    per_unit = [r["seconds"] / r["predicted"] for r in rows]
    limit = WORK_LIMIT if engine == "exact" else FLOAT_LIMIT
    big = [r["seconds"] / r["predicted"] for r in rows if r["predicted"] > limit / 4] or per_unit
    return {
        "big_cases": len([r for r in rows if r["predicted"] > limit / 4]),
        "big_seconds_per_unit_max": max(big),
        "limit_seconds_at_slowest_big_rate": limit * max(big),
        "cases": len(rows),
        "seconds_per_unit": {
            "min": min(per_unit),
            "median": statistics.median(per_unit),
            "max": max(per_unit),
        },
        "limit": limit,
        "limit_seconds_at_slowest_rate": limit * max(per_unit),
        "slowest_case_seconds": max(r["seconds"] for r in rows),
        "tally_over_prediction_max": max(r["tally"] / r["predicted"] for r in rows),
    }


def main() -> None:
    """Measure both engines on their samples; print and optionally save the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=25)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, default=None)
    opts = parser.parse_args()
    figures: dict[str, Any] = {"python": sys.version.split()[0], "count": opts.count, "seed": opts.seed}
    for engine, unit, scale in (("exact", "ps", 1e12), ("float", "ns", 1e9)):
        f = measure(engine, opts.count, opts.seed)
        figures[engine] = f
        spu = f["seconds_per_unit"]
        print(
            f"{engine}: {f['cases']} cases; {unit} per predicted unit min {spu['min'] * scale:.1f} "
            f"median {spu['median'] * scale:.1f} max {spu['max'] * scale:.1f}; limit {f['limit']:.3g} units = "
            f"{f['limit_seconds_at_slowest_rate']:.2f} s at the slowest rate "
            f"({f['limit_seconds_at_slowest_big_rate']:.2f} s at the slowest rate of the "
            f"{f['big_cases']} cases above a quarter of the limit); slowest case "
            f"{f['slowest_case_seconds']:.3f} s; tally / prediction at most {f['tally_over_prediction_max']:.2f}",
            flush=True,
        )
    if opts.json is not None:
        opts.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
