"""How long the one loader takes to refuse (or accept) each hostile file, and its worst cases.

Every case of ``tests/hostile/`` (logs through ``load_log``, missions, variants, rules files)
plus the generated big ones of ``tests/test_hostile_files.py`` (a sparse 1 GB file, 100,000-deep
nesting, a file one byte over the limit, 60,000 unknown keys ...) and a *valid* log just under
the 1,000,000-byte limit in YAML and in JSON (the slowest thing the loader accepts): the wall
time of each, the slowest five, and the peak memory traced for the largest.

    .venv/bin/python bench/hostile_files.py --json bench/hostile_files.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulesbook.data import dump_json, dump_yaml  # noqa: E402
from rulesbook.errors import RulesbookError  # noqa: E402
from rulesbook.records import load_system_data  # noqa: E402
from rulesbook.systems.army_morale.logfile import load_log  # noqa: E402
from rulesbook.systems.warstrike.missions import load_mission  # noqa: E402
from rulesbook.variants import load_variant  # noqa: E402
from tests.test_hostile_files import HOSTILE, big_cases  # noqa: E402

READERS: dict[str, Callable[[Path], Any]] = {
    "logs": load_log,
    "missions": load_mission,
    "variants": load_variant,
    "data": load_system_data,
}


def near_limit_log(folder: Path, as_json: bool) -> Path:
    """The largest valid game log the loader accepts (many turns of events): just under the
    size limit or the limit on values, whichever comes first."""
    name = load_log(HOSTILE / "logs" / "ok-emoji-name.yaml").army("a").name
    dets = [{"id": "foot", "points": 150, "initial_strength": 10_000}]
    event = {"type": "adjustment", "side": "a", "amount": 1, "reason": "r"}
    dump = dump_json if as_json else dump_yaml
    path = folder / ("near-limit.json" if as_json else "near-limit.yaml")

    def write(turns: int) -> bool:
        data = {
            "format": "army-morale-log/1",
            "armies": {"a": {"name": name, "detachments": dets}, "b": {"name": "Red", "detachments": []}},
            "turns": [{"turn": i + 1, "events": [event] * 9} for i in range(turns)],
        }
        path.write_text(dump(data), encoding="utf-8")
        try:
            load_log(path)
        except RulesbookError:
            return False
        return True

    low, high = 1, 1000  # the most turns a log may have
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if write(mid) else (low, mid - 1)
    write(low)
    return path


def timed(read: Callable[[Path], Any], path: Path, trace: bool = False) -> dict[str, Any]:
    if trace:
        tracemalloc.start()
    start = time.perf_counter()
    try:
        read(path)
        outcome = "accepted"
    except RulesbookError as exc:
        outcome = str(exc)[:120]
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1] if trace else None
    if trace:
        tracemalloc.stop()
    return {"case": path.name, "seconds": round(seconds, 4), "outcome": outcome, "peak_bytes": peak}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for folder, read in READERS.items():
        for path in sorted((HOSTILE / folder).glob("*")):
            rows.append({"kind": folder, **timed(read, path)})
    with tempfile.TemporaryDirectory() as tmp:
        for make in big_cases(Path(tmp)).values():
            rows.append({"kind": "generated", **timed(load_log, make())})
        for as_json in (False, True):
            path = near_limit_log(Path(tmp), as_json)
            size = path.stat().st_size
            rows.append({"kind": f"valid, {size:,} bytes", **timed(load_log, path)})
            rows.append({"kind": f"valid, {size:,} bytes, traced", **timed(load_log, path, trace=True)})
    slowest = sorted(rows, key=lambda r: -r["seconds"])[:8]
    for r in slowest:
        print(f"{r['seconds']:8.3f} s  {r['kind']:>28}  {r['case']:<34} {r['outcome'][:60]}")
    refused = [r["seconds"] for r in rows if r["outcome"] != "accepted"]
    print(
        f"{len(rows)} cases; slowest refusal {max(refused):.3f} s; median {sorted(refused)[len(refused) // 2]:.4f} s"
    )
    if args.json:
        args.json.write_text(json.dumps({"python": sys.version.split()[0], "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
