"""Benchmark: ``wh40k.attack-and-battle-shock`` (the attack-and-morale chain), cold, in one run.

Reproduce with::

    .venv/bin/python bench/wh40k_morale.py --repeat 5 --json bench/wh40k_morale.json

Each case is run through ``calc.run`` (validation included) with every rulesbook cache cleared
first; the median of ``--repeat`` calls is printed in milliseconds. The plain-unit cases go
through the main engine; the Attached-unit cases through the Leader + Bodyguard engine
(:mod:`rulesbook.systems.wh40k.attack.groups`), the last two at its limit of 150 jointly tracked
wounds per weapon with Devastating Wounds. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from rulesbook.caches import clear_caches
from rulesbook.registry import registry

TARGET = {"toughness": "4", "save": "3", "wounds": "2", "leadership": "6"}
LEADER = {"leader_models": "1", "leader_wounds": "10", "leader_save": "2", "leader_invuln": "4"}
CASES: dict[str, dict[str, str]] = {
    "plain-20-bolters-vs-10": {"weapons": "A=20 BS=3 S=4 AP=0 D=1", **TARGET, "models": "10"},
    "plain-mortarion-guns-vs-10": {
        "weapons": "A=D6+3 BS=2 S=7 AP=-2 D=1 blast,devastating-wounds,lethal-hits; "
        "A=1 BS=2 S=9 AP=-3 D=3 sustained-hits-d3",
        **TARGET,
        "models": "10",
    },
    "attached-mortarion-guns-vs-10+leader": {
        "weapons": "A=D6+3 BS=2 S=7 AP=-2 D=1 blast,devastating-wounds,lethal-hits; "
        "A=2 BS=2 S=5 AP=-2 D=3 precision",
        **TARGET,
        "models": "10",
        **LEADER,
    },
    "attached-150-lethal-vs-20+leader": {
        "weapons": "A=D6+3 BS=2 S=7 AP=-2 D=1 blast,devastating-wounds,lethal-hits; A=150 BS=3 S=4 D=2 lethal-hits",
        **TARGET,
        "models": "20",
        **LEADER,
    },
    "attached-limit-sustained-2-dev-vs-20+leader": {
        "weapons": "A=50 BS=2 S=4 AP=-1 D=1 sustained-hits-2,devastating-wounds",
        **TARGET,
        "models": "20",
        **LEADER,
    },
    "attached-limit-d3-dev-vs-5+leader": {
        "weapons": "A=75 BS=2 S=4 D=D3 sustained-hits-1,devastating-wounds",
        **TARGET,
        "models": "5",
        **LEADER,
    },
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    calc = registry().calculator("wh40k.attack-and-battle-shock")
    out: dict[str, Any] = {}
    for name, values in CASES.items():
        times = []
        for _ in range(args.repeat):
            clear_caches()
            start = time.perf_counter()
            result = calc.run(**values)
            times.append((time.perf_counter() - start) * 1000)
        out[name] = {
            "median_ms": round(statistics.median(times), 1),
            "p_battle_shocked": result["p_battle_shocked"],
        }
        print(
            f"{name:48} {out[name]['median_ms']:10.1f} ms   P(Battle-shocked) = {result['p_battle_shocked']:.4f}"
        )
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
