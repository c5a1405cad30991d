"""Benchmark: ``wh40k.attack`` from scratch against the two exact peers, every scenario, one run.

The peers live in ``../shared/peers/`` (see its README): **40kdice** (the open web calculator,
run under node) and a **straightforward icepool** chain (``icepool_naive.py``). Both read
``scenarios.json``; this script adds its own scenarios (the 40-attack Feel No Pain case of
``wh40k_attack.py`` and a single bolter shot), writes the merged file, runs both peers on it
and times ``wh40k.attack`` the way the peers compute: from scratch, every rulesbook cache
cleared before each call (result cache and intermediate caches), validation included,
in-process; median of ``--repeat`` calls, the clock stopped once the answer is read from the
result. Two more columns: the same call with its explanation and tables read too, and the
engine function alone on typed inputs. It prints one row per scenario with the three
medians and the mean number of models destroyed by each (a check that the three compute the
same attack), and writes everything as JSON with ``--json``.

Run from the repository root::

    .venv/bin/python bench/wh40k_peers.py --json bench/wh40k_peers.json

Nothing here asserts a time: the figures of one run are comparable, absolute times are not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rulesbook.caches import clear_caches
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack.engine import resolve
from rulesbook.systems.wh40k.attack.weapons import WEAPON_INPUTS, make_weapon
from rulesbook.systems.wh40k.calculators.path import choices_of, situation_of, target_of

ROOT = Path(__file__).resolve().parent.parent
PEERS = Path(os.environ.get("RULESBOOK_PEERS", ROOT.parent / "shared" / "peers"))  # beside the checkout

OWN_SCENARIOS: dict[str, dict[str, Any]] = {
    "forty-attacks-fnp": {  # the 40-attack case of bench/wh40k_attack.py
        "weapon": {
            "attacks": "40",
            "skill": 3,
            "strength": 5,
            "ap": -1,
            "damage": "1",
            "sustained": 1,
            "abilities": ["devastating-wounds"],
        },
        "target": {"toughness": 4, "save": 3, "wounds": 2, "models": 20, "fnp": 5},
    },
    "single-bolter-shot": {
        "weapon": {"attacks": "1", "skill": 3, "strength": 4, "ap": 0, "damage": "1", "abilities": []},
        "target": {"toughness": 4, "save": 3, "wounds": 2, "models": 1},
    },
}

_SAME_ABILITY = {"lethal-hits", "devastating-wounds", "torrent", "blast", "ignores-cover"}


def attack_inputs(scenario: dict[str, Any]) -> dict[str, str]:
    """A peers' scenario as ``wh40k.attack`` inputs (see the peers' README for the mapping)."""
    weapon, target = scenario["weapon"], scenario["target"]
    abilities = [a for a in weapon.get("abilities", []) if a in _SAME_ABILITY]
    if "sustained" in weapon:
        abilities.append(f"sustained-hits-{str(weapon['sustained']).lower()}")
    inputs = {
        "attacks": str(weapon["attacks"]),
        "skill": str(weapon["skill"] or 2),  # 0 with Torrent: any skill, every attack hits
        "strength": str(weapon["strength"]),
        "ap": str(weapon.get("ap", 0)),
        "damage": str(weapon["damage"]),
        "abilities": ",".join(abilities),
        "ranged": str(weapon.get("ranged", True)).lower(),
        "hit_modifier": str(weapon.get("hit_modifier", 0)),
        "toughness": str(target["toughness"]),
        "save": str(target["save"]),
        "wounds": str(target["wounds"]),
        "models": str(target.get("models", 1)),
        "cover": str(target.get("cover", False)).lower(),
    }
    for key in ("invuln", "fnp"):
        if target.get(key):
            inputs[key] = str(target[key])
    if "reroll-hit-1" in weapon.get("abilities", []):
        inputs["reroll_hits"] = "ones"
    if "reroll-wound-1" in weapon.get("abilities", []):
        inputs["reroll_wounds"] = "ones"
    return inputs


def ours_cold(inputs: dict[str, str], repeat: int) -> dict[str, float]:
    """Median ms of from-scratch calls, three ways, and the mean models destroyed:

    - ``call``: ``wh40k.attack`` from the input strings to the exact answer read from the result
      (validation, cross-field and cost checks, computation, published values), what the peers
      are timed on (40kdice reads its form's strings, the icepool chain computes its figures);
    - ``explained``: the same plus reading the result's explanation and tables (the direct path
      of one or two attacks builds them only when read);
    - ``engine``: the public engine function alone (``engine.resolve`` from typed weapon, target,
      situation and choices, built before the clock starts).
    """
    calc = registry().calculator("wh40k.attack")
    times: dict[str, list[float]] = {"call": [], "explained": [], "engine": []}
    mean = 0.0
    for _ in range(repeat):  # each way in its own loop, as the peers repeat one call
        clear_caches()
        t0 = time.perf_counter()
        mean = float(calc.run(**inputs)["mean_models_destroyed"])
        times["call"].append((time.perf_counter() - t0) * 1000)
    for _ in range(repeat):
        clear_caches()
        t0 = time.perf_counter()
        result = calc.run(**inputs)
        _ = result["mean_models_destroyed"], result.explanation, result.tables
        times["explained"].append((time.perf_counter() - t0) * 1000)
    checked = calc.validate(inputs)
    weapons = (make_weapon({i.key: checked[i.key] for i in WEAPON_INPUTS}, checked=True),)
    target, situation, choices = target_of(checked), situation_of(checked), choices_of(checked)
    for _ in range(repeat):
        clear_caches()
        t0 = time.perf_counter()
        resolve(weapons, target, situation, choices)
        times["engine"].append((time.perf_counter() - t0) * 1000)
    out = {k: statistics.median(v) for k, v in times.items()}
    out["mean"] = mean
    return out


_BEFORE_SCRIPT = """
import json, statistics, sys, time
from rulesbook.caches import clear_caches
from rulesbook.registry import registry
from rulesbook.systems.wh40k.calculators.path import choices_of, situation_of, target_of
from rulesbook.systems.wh40k.attack.engine import resolve
from rulesbook.systems.wh40k.attack.weapons import WEAPON_INPUTS, make_weapon
calc = registry().calculator("wh40k.attack")
job = json.load(sys.stdin)
out = {}
for name, inputs in job["inputs"].items():
    calc.run(**inputs)
    times = []
    for _ in range(job["repeat"]):
        clear_caches()
        t0 = time.perf_counter()
        calc.run(**inputs)["mean_models_destroyed"]
        times.append((time.perf_counter() - t0) * 1000)
    out[name] = statistics.median(times)
print(json.dumps(out))
"""


def before_cold(rev: str, inputs: dict[str, dict[str, str]], repeat: int) -> dict[str, float]:
    """Median ms of from-scratch calls with the rulesbook of git revision ``rev`` (exported to a
    temporary directory and run in a subprocess in the same run), per scenario."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        env = {**os.environ, "PYTHONPATH": tmp}
        done = subprocess.run(
            [sys.executable, "-c", _BEFORE_SCRIPT],
            input=json.dumps({"inputs": inputs, "repeat": repeat}),
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp,
            env=env,
        )
    times: dict[str, float] = json.loads(done.stdout)
    return times


def run_peers(scenarios_file: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The peers' JSON output on the merged scenarios (40kdice, icepool chain)."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is needed for 40kdice (apt-get install nodejs)")
    kdice = subprocess.run(
        [node, str(PEERS / "run_40kdice.js"), str(scenarios_file)], capture_output=True, text=True, check=True
    )
    naive = subprocess.run(
        [sys.executable, str(PEERS / "icepool_naive.py"), str(scenarios_file)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(kdice.stdout), json.loads(naive.stdout)


def main() -> None:
    """Run the peers and rulesbook on every scenario; print the table, optionally save JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21, help="timed from-scratch calls per scenario")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--before", default=None, help="a git revision whose rulesbook is timed too (e.g. before a change)"
    )
    opts = parser.parse_args()
    scenarios = json.loads((PEERS / "scenarios.json").read_text())["wh40k.attack"]
    scenarios = {**scenarios, **OWN_SCENARIOS}
    with tempfile.TemporaryDirectory() as tmp:
        merged = Path(tmp) / "scenarios.json"
        merged.write_text(json.dumps({"wh40k.attack": scenarios}))
        kdice, naive = run_peers(merged)
    before = (
        before_cold(opts.before, {n: attack_inputs(sc) for n, sc in scenarios.items()}, opts.repeat)
        if opts.before
        else {}
    )
    rows = {}
    header = (
        f"{'scenario':<30} {'rulesbook':>10} {'+explained':>10} {'engine':>10} {'40kdice':>10} "
        f"{'icepool':>10}   mean models destroyed"
    )
    print(header if not before else header + f"   (before {opts.before})")
    for name, scenario in scenarios.items():
        ours = ours_cold(attack_inputs(scenario), opts.repeat)
        ms, mean = ours["call"], ours["mean"]
        k = kdice[name]
        k_ms = k.get("time_ms_median20", k.get("aside_time_ms_median20"))
        k_mean = (k.get("figures") or k.get("aside_figures") or {}).get("mean_models_destroyed")
        n_ms = naive[name]["time_ms_median5"]
        n_mean = naive[name]["figures"]["mean_models_destroyed"]
        rows[name] = {
            "rulesbook_cold_ms": round(ms, 3),
            "rulesbook_cold_explained_ms": round(ours["explained"], 3),
            "rulesbook_engine_ms": round(ours["engine"], 3),
            "40kdice_ms": round(k_ms, 3),
            "40kdice_supported": k["supported"],
            "icepool_chain_ms": round(n_ms, 3),
            "mean_models_destroyed": {"rulesbook": mean, "40kdice": k_mean, "icepool_chain": n_mean},
        }
        if before:
            rows[name]["rulesbook_before_cold_ms"] = round(before[name], 3)
        mark = "" if k["supported"] else " (40kdice: aside)"
        tail = f"   before: {before[name]:.2f}ms" if before else ""
        print(
            f"{name:<30} {ms:>8.3f}ms {ours['explained']:>8.3f}ms {ours['engine']:>8.3f}ms "
            f"{k_ms:>8.3f}ms {n_ms:>8.2f}ms   "
            f"{mean:.4f} / {k_mean:.4f} / {n_mean:.4f}{mark}{tail}",
            flush=True,
        )
    if opts.json is not None:
        figures = {
            "python": sys.version.split()[0],
            "repeat": opts.repeat,
            "before": opts.before,
            "scenarios": rows,
        }
        opts.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
