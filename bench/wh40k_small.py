"""Benchmark: small attacks (1–6 attacks, or D3/D6) in ``wh40k.attack`` against the two exact
peers, on scenarios drawn by a seeded generator, reporting the worst ratio over all of them.

The scenarios are drawn at random (``--seed``, ``--count``) among what both peers can express:
attacks 1–6, D3 or D6; BS 2+ to 5+; S 3–10; AP 0 to −3; Damage 1, 2, D3 or D6; Sustained Hits
1 or D3, Lethal Hits, Devastating Wounds, re-rolls of 1s to hit and to wound, a Hit modifier;
T 3–10, Sv 2+ to 6+, an invulnerable save, Feel No Pain, 1–4 Wounds, 1–5 models. Nobody tuned
for them. Each is timed the way the peers compute (``bench/wh40k_peers.py``: from the input
strings to the answer, every rulesbook cache cleared before each call, median of ``--repeat``);
40kdice runs under node and the icepool chain in its own process, in the same run. The table
gives each scenario's times and the peer's time over ours (above 1: rulesbook is faster), then
the worst ratio over all scenarios, and in how many scenarios each peer gives rulesbook's mean to
1e-9 (the three compute one attack, but not always under one reading: with Devastating Wounds
against models of several wounds both peers let a devastating attack's mortal wounds spill on to
the next model, where the register entry ``devastating-excess`` reads the source as losing them).

Run from the repository root::

    .venv/bin/python bench/wh40k_small.py --json bench/wh40k_small.json

Nothing here asserts a time: the figures of one run are comparable, absolute times are not.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wh40k_peers import attack_inputs, ours_cold, run_peers


def draw_scenarios(seed: int, count: int) -> dict[str, dict[str, Any]]:
    """``count`` small attacks drawn with ``seed``, in the peers' scenario form."""
    rng = random.Random(seed)
    out: dict[str, dict[str, Any]] = {}
    for i in range(count):
        abilities = [
            a
            for a in ("lethal-hits", "devastating-wounds", "reroll-hit-1", "reroll-wound-1")
            if rng.random() < 0.3
        ]
        weapon: dict[str, Any] = {
            "attacks": rng.choice(["1", "2", "3", "4", "5", "6", "D3", "D6"]),
            "skill": rng.randint(2, 5),
            "strength": rng.randint(3, 10),
            "ap": -rng.randint(0, 3),
            "damage": rng.choice(["1", "2", "D3", "D6"]),
            "abilities": abilities,
        }
        sustained = rng.choice([None, None, 1, "D3"])
        if sustained is not None:
            weapon["sustained"] = sustained
        if rng.random() < 0.3:
            weapon["hit_modifier"] = rng.choice([-1, 1])
        target: dict[str, Any] = {
            "toughness": rng.randint(3, 10),
            "save": rng.randint(2, 6),
            "wounds": rng.randint(1, 4),
            "models": rng.randint(1, 5),
        }
        if rng.random() < 0.3:
            target["invuln"] = rng.choice([4, 5])
        if rng.random() < 0.3:
            target["fnp"] = rng.choice([5, 6])
        out[f"small-{i:02d}"] = {"weapon": weapon, "target": target}
    return out


def main() -> None:
    """Draw the scenarios, run the peers and rulesbook, print the table and the worst ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=21, help="timed from-scratch calls per scenario")
    parser.add_argument("--json", type=Path, default=None)
    opts = parser.parse_args()
    scenarios = draw_scenarios(opts.seed, opts.count)
    with tempfile.TemporaryDirectory() as tmp:
        merged = Path(tmp) / "scenarios.json"
        merged.write_text(json.dumps({"wh40k.attack": scenarios}))
        kdice, naive = run_peers(merged)
    rows: dict[str, dict[str, Any]] = {}
    print(
        f"{'scenario':<10} {'rulesbook':>10} {'40kdice':>10} {'icepool':>10} {'40kdice/ours':>13} {'icepool/ours':>13}"
    )
    for name, scenario in scenarios.items():
        ours = ours_cold(attack_inputs(scenario), opts.repeat)
        k, n = kdice[name], naive[name]
        k_ms, n_ms = k["time_ms_median20"], n["time_ms_median5"]
        means = (ours["mean"], k["figures"]["mean_models_destroyed"], n["figures"]["mean_models_destroyed"])
        rows[name] = {
            "scenario": scenario,
            "rulesbook_cold_ms": round(ours["call"], 4),
            "40kdice_ms": round(k_ms, 4),
            "icepool_chain_ms": round(n_ms, 4),
            "40kdice_over_rulesbook": round(k_ms / ours["call"], 3),
            "icepool_over_rulesbook": round(n_ms / ours["call"], 3),
            "mean_models_destroyed": dict(zip(("rulesbook", "40kdice", "icepool_chain"), means, strict=True)),
        }
        print(
            f"{name:<10} {ours['call']:>8.3f}ms {k_ms:>8.3f}ms {n_ms:>8.2f}ms "
            f"{k_ms / ours['call']:>12.2f}x {n_ms / ours['call']:>12.1f}x",
            flush=True,
        )
    worst_k = min(rows.values(), key=lambda r: r["40kdice_over_rulesbook"])
    worst_n = min(rows.values(), key=lambda r: r["icepool_over_rulesbook"])

    def agree(r: dict[str, Any], peer: str) -> bool:
        m = r["mean_models_destroyed"]
        return abs(m["rulesbook"] - m[peer]) <= 1e-9 * max(1.0, m["rulesbook"])

    with_k = sum(agree(r, "40kdice") for r in rows.values())
    with_n = sum(agree(r, "icepool_chain") for r in rows.values())
    print(
        f"worst over all {len(rows)} scenarios: 40kdice/rulesbook {worst_k['40kdice_over_rulesbook']:.2f}x, "
        f"icepool chain/rulesbook {worst_n['icepool_over_rulesbook']:.1f}x; the same mean as 40kdice in "
        f"{with_k}, as the icepool chain in {with_n} of {len(rows)}"
    )
    if opts.json is not None:
        figures = {
            "python": sys.version.split()[0],
            "seed": opts.seed,
            "count": opts.count,
            "repeat": opts.repeat,
            "worst_40kdice_over_rulesbook": worst_k["40kdice_over_rulesbook"],
            "worst_icepool_over_rulesbook": worst_n["icepool_over_rulesbook"],
            "same_mean_as_40kdice": with_k,
            "same_mean_as_icepool_chain": with_n,
            "scenarios": rows,
        }
        opts.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
