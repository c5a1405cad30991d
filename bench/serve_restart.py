"""Benchmark: how soon ``scripts/serve`` answers after a restart, nothing changed, beside a full build.

Each start runs ``scripts/serve --port P`` (set-up check, site, server) in a fresh process and
times, from the moment the process starts:

* **site**: the first ``200`` for ``/site/`` (the built site served);
* **answer**: the first answer of the JSON API for ``scrollhammer.morale-check ld=7``, computed by
  the server (``/api/v1/calc/...``);

then stops it (SIGINT, as Ctrl-C). The first start of a run builds the site if it is not current
(the **build** row: a full build, the site folder emptied first with ``--fresh``); every later start
is a restart with nothing changed, which reuses that build (``rulesbook.site.output.build_inputs``).
The worst restart is the figure of ``bench/README.md`` (goal: at most 10 s).

Run from the repository root::

    .venv/bin/python bench/serve_restart.py --restarts 5 --fresh --json bench/serve_restart.json

Nothing here asserts a time: the figures of one run are comparable, absolute times are not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import _free_port  # bench/ is not a package: imported by path

ROOT = Path(__file__).resolve().parent.parent
ANSWER = "/api/v1/calc/scrollhammer.morale-check?ld=7"


def _ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return int(response.status) == 200
    except OSError:
        return False


def start(site: Path, games: Path, timeout: float = 600.0) -> dict[str, Any]:
    """One ``scripts/serve`` start: seconds to the site, to a computed answer, and what it printed."""
    port = _free_port()
    env = {**os.environ, "RULESBOOK_GAMES_DIR": str(games)}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [
            str(ROOT / "scripts" / "serve"),
            "--port",
            str(port),
            "--site-dir",
            str(site),
            "--host",
            "127.0.0.1",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    times: dict[str, float] = {}
    try:
        while time.perf_counter() - started < timeout and len(times) < 2:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"scripts/serve ended with {proc.returncode}: {proc.stdout.read() if proc.stdout else ''}"
                )
            for name, path in (("site", "/site/"), ("answer", ANSWER)):
                if name not in times and _ok(base + path):
                    times[name] = round(time.perf_counter() - started, 2)
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
    built = "building the site" in out
    return {"site_s": times.get("site"), "answer_s": times.get("answer"), "built": built}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--restarts", type=int, default=5, help="restarts after the first start")
    parser.add_argument("--site-dir", help="the site folder (default: a new temporary one)")
    parser.add_argument(
        "--fresh", action="store_true", help="empty the site folder first: the first start builds"
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="rulesbook-restart-"))
    site = Path(args.site_dir) if args.site_dir else scratch / "site"
    if args.fresh and site.exists():
        shutil.rmtree(site)
    games = scratch / "games"
    games.mkdir()
    try:
        first = start(site, games, timeout=1200.0)
        print(
            f"first start ({'built' if first['built'] else 'reused'}): site {first['site_s']} s, answer {first['answer_s']} s",
            flush=True,
        )
        restarts = []
        for n in range(args.restarts):
            found = start(site, games, timeout=120.0)  # (a restart that takes longer is reported as none)
            restarts.append(found)
            print(
                f"restart {n + 1} ({'built' if found['built'] else 'reused'}): site {found['site_s']} s, answer {found['answer_s']} s",
                flush=True,
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    figures = {
        "first": first,
        "restarts": restarts,
        "worst_restart_site_s": max(r["site_s"] or float("inf") for r in restarts) if restarts else None,
        "worst_restart_answer_s": max(r["answer_s"] or float("inf") for r in restarts) if restarts else None,
        "every_restart_reused": all(not r["built"] for r in restarts),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cores": os.cpu_count(),
    }
    print(
        f"worst restart: site {figures['worst_restart_site_s']} s, answer {figures['worst_restart_answer_s']} s "
        f"(load average {figures['load_average_1min']} on {figures['cores']} cores)"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
