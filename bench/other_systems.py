"""Benchmark: the heavier calculators of the other systems, cold and warm, in one run.

Reproduce with::

    .venv/bin/python bench/other_systems.py --json bench/other_systems.json

For each case (the largest inputs each calculator accepts, or a long game): **cold** is a call
through ``calc.run`` (validation included) with every rulesbook cache cleared first (results and
intermediate caches), **warm** the same with only the result cache cleared (the dice and
chain caches kept, as in a running server); medians of ``--repeat`` calls, in milliseconds.
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rulesbook.caches import clear_caches
from rulesbook.registry import registry


def long_game(turns: int) -> str:
    """An Army Morale game log of ``turns`` turns in which neither side breaks (small losses
    and Blast markers every turn, big armies)."""
    lines = [
        "format: army-morale-log/1",
        f"title: A {turns}-turn game",
        "armies:",
    ]
    for side in ("a", "b"):
        lines += [f"  {side}:", f"    name: Army {side}", "    detachments:"]
        for i in range(6):
            lines += [
                f"      - id: {side}{i}",
                f"        name: Detachment {side}{i}",
                "        points: 225",
                "        strength: units",
                "        initial_strength: 400",
            ]
    lines.append("turns:")
    for t in range(1, turns + 1):
        lines += [
            f"  - turn: {t}",
            "    events:",
            f"      - {{type: losses, detachment: a{t % 6}, lost: 1}}",
            f"      - {{type: losses, detachment: b{t % 6}, lost: 1}}",
            "    rally:",
            "      a: {blast_markers: 1, take_and_hold: [1]}",
            "      b: {blast_markers: 1, cleanse: 1}",
        ]
    return "\n".join(lines) + "\n"


def cases(tmp: Path) -> list[tuple[str, str, dict[str, Any]]]:
    out: list[tuple[str, str, dict[str, Any]]] = [
        (
            'Fall Back chain, 12 phases, 48"',
            "scrollhammer.fall-back",
            {"ld": 7, "distance": 48, "phases": 12},
        ),
        (
            'Fall Back chain, 12 phases, 120", 3D6',
            "scrollhammer.fall-back",
            {"ld": 6, "distance": 120, "phases": 12, "fall_back_dice": "3D6"},
        ),
        (
            'Fall Back chain, 12 phases, 120", every movement phase',
            "scrollhammer.fall-back",
            {"ld": 6, "distance": 120, "phases": 12, "movement_phases": "every-movement-phase"},
        ),
    ]
    for reading in ("whole-line-once", "next-unit", "whole-line-each-time"):
        out.append(
            (
                f"Panic cascade, 10 units ({reading})",
                "scrollhammer.panic-cascade",
                {"lds": "7,7,7,7,7,7,7,7,7,7", "panic_cascade": reading},
            )
        )
    for n in (10, 100, 500):
        path = tmp / f"game-{n}.yaml"
        path.write_text(long_game(n))
        out.append((f"Army Morale game of {n} turns (replay)", "army-morale.replay", {"log": str(path)}))
    lds = ",".join(str((5, 6, 7, 8, 9, 10)[i % 6]) for i in range(60))
    for fanatical in ("false", "true"):
        out.append(
            (
                f"Hive Mind, 60 units{', Fanatical' if fanatical == 'true' else ''}",
                "warstrike.strike-force-morale",
                {
                    "starting_units": "60",
                    "remaining_units": "60",
                    "officer_ld": "none",
                    "hive_mind": "true",
                    "unit_lds": lds,
                    "fanatical": fanatical,
                },
            )
        )
    return out


def timed(calc: Any, inputs: dict[str, Any], repeat: int, intermediate: bool) -> float:
    times = []
    for _ in range(repeat):
        clear_caches(intermediate=intermediate)
        t0 = time.perf_counter()
        calc.run(**inputs)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    """Print cold and warm medians per case; optionally save them as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--json", type=Path, default=None)
    opts = parser.parse_args()
    rows = {}
    print(f"{'case':<58} {'cold ms':>9} {'warm ms':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for label, calc_id, inputs in cases(Path(tmp)):
            calc = registry().calculator(calc_id)
            calc.run(**inputs)  # imports and first-use work out of the way
            cold = timed(calc, inputs, opts.repeat, intermediate=True)
            warm = timed(calc, inputs, opts.repeat, intermediate=False)
            rows[label] = {"calculator": calc_id, "cold_ms": round(cold, 3), "warm_ms": round(warm, 3)}
            print(f"{label:<58} {cold:9.2f} {warm:9.2f}", flush=True)
    if opts.json is not None:
        opts.json.write_text(
            json.dumps({"python": sys.version.split()[0], "repeat": opts.repeat, "cases": rows}, indent=2)
            + "\n"
        )


if __name__ == "__main__":
    main()
