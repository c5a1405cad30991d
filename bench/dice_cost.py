"""Benchmark: calibration of the dice grammar's work bound against the clock.

Reproduce with::

    .venv/bin/python bench/dice_cost.py --json bench/dice_cost.json

A seeded sample of dice expressions (one to three terms of 1-20 dice of every allowed size,
re-rolls, explosions, keep/drop mixed at random) whose predicted work
(:meth:`rulesbook.dice.DiceExpr.cost`) lies between 5 % and 150 % of
:data:`rulesbook.dice.DICE_WORK_LIMIT`. Each is built twice from cold caches and timed: its
exact distribution, then a roll test that reads its natural rolls (every kept die showing 1
passes, every kept die showing its highest face fails: the heaviest reading the systems use).
The script reports the time per predicted unit, the slowest expressions, and the slowest
answer among those the bound accepts. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from rulesbook.caches import clear_caches
from rulesbook.dice import DICE_WORK_LIMIT, RollTest, parse_dice
from rulesbook.errors import InputError


def sample(rng: random.Random) -> str:
    """One random expression of the grammar."""
    parts = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        count = rng.choice([1, 2, 3, 5, 10, 15, 20])
        sides = rng.choice([3, 4, 6, 8, 10, 12, 20])
        text = f"{count}D{sides}"
        if rng.random() < 0.3:
            text += f"r{rng.randint(1, sides - 1)}"
        if rng.random() < 0.3:
            text += "!"
        if count > 1 and rng.random() < 0.4:
            text += rng.choice(["kh", "kl", "dh", "dl"]) + str(rng.randint(1, count - 1))
        parts.append(text)
    return "+".join(parts)


def measure(text: str) -> dict[str, Any]:
    expr = parse_dice(text)
    clear_caches(results=False)
    start = time.perf_counter()
    expr.distribution()
    distribution = time.perf_counter() - start
    start = time.perf_counter()
    RollTest(
        dice=expr, target=expr.minimum + 1, auto_pass=expr.every_die(1), auto_fail=expr.every_die_highest()
    ).p_pass()
    faces = time.perf_counter() - start
    work = expr.cost()
    return {
        "expression": text,
        "of_limit": round(work / DICE_WORK_LIMIT, 3),
        "distribution_s": round(distribution, 4),
        "faces_s": round(faces, 4),
        "ns_per_unit": round((distribution + faces) / work * 1e9, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--samples", type=int, default=800, help="expressions drawn (most fall outside the window)"
    )
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--json", type=Path, help="write the measurements here")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = []
    for _ in range(args.samples):
        text = sample(rng)
        try:
            work = parse_dice(text).cost()
        except InputError:
            continue
        if 0.05 * DICE_WORK_LIMIT <= work <= 1.5 * DICE_WORK_LIMIT:
            rows.append(measure(text))
    rates = [r["ns_per_unit"] for r in rows]
    accepted = [r for r in rows if r["of_limit"] <= 1]
    slowest = max(accepted, key=lambda r: r["distribution_s"] + r["faces_s"])
    print(f"{len(rows)} expressions between 5 % and 150 % of the bound ({len(accepted)} accepted)")
    print(f"ns per unit: min {min(rates)}, median {statistics.median(rates)}, max {max(rates)}")
    print(f"slowest accepted: {slowest}")
    for r in sorted(rows, key=lambda r: -(r["distribution_s"] + r["faces_s"]))[:8]:
        print(r)
    if args.json:
        args.json.write_text(json.dumps({"limit": DICE_WORK_LIMIT, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
