"""Start-up of the command line: whole-process runs of a simple calculator, median wall time.

Run from the repository root::

    .venv/bin/python bench/cli_startup.py --runs 21 --json bench/cli_startup.json

Each run is a fresh ``python -m rulesbook.cli calc scrollhammer.morale-check ld=7 --json``
process (byte-code caches allowed, as in an installed package), timed from start to exit.
A bare ``python -c pass`` is timed the same way for reference. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ["-m", "rulesbook.cli", "calc", "scrollhammer.morale-check", "ld=7", "--json"]


def time_runs(args: list[str], runs: int) -> list[float]:
    """Wall times in seconds of ``runs`` fresh ``python *args`` processes."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, *args], env=env, check=True, capture_output=True)  # warm the disk
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run([sys.executable, *args], env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
        if args == COMMAND and b'"p_pass_exact": "7/12"' not in out.stdout:
            raise SystemExit(f"unexpected answer: {out.stdout[:200]!r}")
    return times


def main() -> None:
    """Time the command and a bare interpreter; print the medians, optionally save JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--json", type=Path, default=None)
    opts = parser.parse_args()
    cli = time_runs(COMMAND, opts.runs)
    bare = time_runs(["-c", "pass"], opts.runs)
    figures = {
        "command": "rulesbook calc scrollhammer.morale-check ld=7 --json",
        "runs": opts.runs,
        "median_s": round(statistics.median(cli), 4),
        "min_s": round(min(cli), 4),
        "max_s": round(max(cli), 4),
        "python_bare_median_s": round(statistics.median(bare), 4),
        "python": sys.version.split()[0],
    }
    print(json.dumps(figures, indent=2))
    if opts.json is not None:
        opts.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
