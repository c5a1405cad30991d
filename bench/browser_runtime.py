"""Benchmark: the published site computing in the browser (Pyodide), beside the served site and 40kdice.

Serves a ``scripts/build-site`` output with ``python3 -m http.server`` and opens it in Debian's
chromium (Playwright); every figure below comes from the same browser in one run:

* **first visit download**: every response a fresh browser receives from opening a calculator
  page to its first live answer, as sent (this plain server does not compress) and as a web
  host compressing with gzip would send it (each file gzipped at level 6 here; Pyodide's
  ``python_stdlib.zip`` and the wheels are already compressed);
* **page open to first live answer**: ``--runs`` cold visits (a fresh context: empty HTTP cache)
  and, in each, warm ones: two other calculator pages opened next and a reload (each a full
  navigation; Python is found started in the shared worker, ``reused``, or started again from
  the HTTP cache where the browser has no shared worker), with the start-up's phases; the worst
  of each;
* **per answer**: every calculator's worked examples in the page's worker, each from scratch
  (every rulesbook cache cleared first), the time of the Python call that answers them (what
  ``rulesbook calc ... --json`` prints); and from a keystroke to the new number on screen, from
  the first change after the page goes live on (as ``bench/browser_latency.py`` measures the
  served site), for four simple calculators and the two 40k attack calculators;
* **the served site** (``rulesbook serve``, unless ``--no-served``): page open to the first
  number and keystroke to number, same calculators, same browser;
* **40kdice** (``../shared/peers``, see its README): ``dice.js`` run unmodified in a page of the
  same browser on ``scenarios.json`` (its form filled as ``run_40kdice.js`` fills it; median of
  20 samples after 5 warm-up calls, each sample timing enough calls to last 20 ms, as the page's
  clock ticks in 0.1 ms), beside ``wh40k.attack`` for the same scenarios in the page's Python
  (from scratch, median of 5).

Run from the repository root (figures in ``bench/README.md``)::

    scripts/build-site /tmp/rulesbook-site
    .venv/bin/python bench/browser_runtime.py --site /tmp/rulesbook-site --json bench/browser_runtime.json

Nothing here asserts a time: the figures of one run are comparable, absolute times are not.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_latency import CASES, TYPE_AND_TIME  # bench/ is not a package: imported by path
from server_load import _free_port, start_server
from wh40k_peers import attack_inputs

from rulesbook.registry import registry

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
PEERS = Path(os.environ.get("RULESBOOK_PEERS", ROOT.parent / "shared" / "peers"))
"""The peers of ``bench/wh40k_peers.py`` (40kdice's ``dice.js``, ``scenarios.json``)."""
PARTS = ("download", "first", "answers", "peers", "served")
PAGE = "scrollhammer/calculators/scrollhammer.morale-check.html"
GOALS = {
    "cold_first_answer_s": 3.0,
    "warm_first_answer_s": 1.0,
    "answer_median_ms": 30.0,
    "answer_p95_ms": 100.0,
}
"""Issue 37's goals; every figure is reported as its worst case over the runs."""

OTHER_PAGES = ("wh40k.attack", "army-morale.rally")
"""Pages a reader opens next (warm: everything from the HTTP cache)."""

KEYSTROKE_CASES = [
    *CASES,
    # (each value changes the answer from the one before, the last from the first)
    ("wh40k.attack", "toughness", "mean_models_destroyed", [5, 3, 6, 2, 7, 3, 8, 2]),
    ("wh40k.datasheet-attack", "toughness", "mean_models_destroyed", [5, 3, 6, 2, 7, 3, 8, 2]),
]
"""Calculators typed into (input, value watched, values typed in turn)."""

LIVE = """() => { const b = document.querySelector('.rb-static-calc');
  return b && Number(b.getAttribute('data-answered') || 0) > 0
    && !b.querySelector('.rb-static-result').classList.contains('rb-stale'); }"""


def _page_path(calc_id: str) -> str:
    return f"{calc_id.split('.')[0]}/calculators/{calc_id}.html"


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 3) if values else float("nan")


def _p95(values: list[float]) -> float:
    return round(sorted(values)[min(len(values) - 1, int(0.95 * len(values)))], 3) if values else float("nan")


def _serve(site: Path, log: Any = subprocess.DEVNULL) -> tuple[subprocess.Popen[bytes], str]:
    """``python3 -m http.server`` on ``site``; its request lines go to ``log``."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(site)],
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    time.sleep(1.0)
    return proc, f"http://127.0.0.1:{port}"


def _open_live(page: Any, url: str) -> dict[str, Any]:
    """Open ``url`` and wait for its first live answer: seconds from the navigation, and phases."""
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function(LIVE, timeout=180_000)
    seconds = time.perf_counter() - started
    start = json.loads(page.locator(".rb-static-calc").first.get_attribute("data-start") or "{}")
    # the page's own start-up time (its worker's, from the worker's creation) kept apart: the
    # figure is from the navigation to the live answer
    return {**start, "worker_seconds": start.get("seconds"), "seconds": round(seconds, 3)}


def download(browser: Any, site: Path) -> dict[str, Any]:
    """Every file a first visit asks for, until the first live answer: bytes sent and gzipped.

    Read from the request lines of a server of its own (the browser's request events leave out
    what a shared worker fetches)."""
    with tempfile.TemporaryFile() as log:
        proc, base = _serve(site, log)
        try:
            context = browser.new_context()
            _open_live(context.new_page(), f"{base}/{PAGE}")
            context.close()
        finally:
            proc.terminate()
            proc.wait(30)
        log.seek(0)
        seen = re.findall(r'"GET (\S+) HTTP/[\d.]+" 200', log.read().decode("utf-8", "replace"))
    rows: dict[str, dict[str, int]] = {}
    for url in seen:
        path = urllib.parse.urlsplit(url).path.lstrip("/") or "index.html"
        file = site / urllib.parse.unquote(path)
        if not file.is_file() or url in rows:
            continue
        data = file.read_bytes()
        rows[url] = {"bytes": len(data), "gzip": len(gzip.compress(data, 6))}
    runtime = {u: r for u, r in rows.items() if "/live-runtime/" in u}
    return {
        "files": len(rows),
        "mb": round(sum(r["bytes"] for r in rows.values()) / 1e6, 2),
        "gzip_mb": round(sum(r["gzip"] for r in rows.values()) / 1e6, 2),
        "runtime_gzip_mb": round(sum(r["gzip"] for r in runtime.values()) / 1e6, 2),
        "largest": sorted(
            (
                {"file": u.split("/live-runtime/")[-1] if "/live-runtime/" in u else u, **r}
                for u, r in rows.items()
            ),
            key=lambda r: -r["gzip"],
        )[:6],
    }


def first_answers(browser: Any, base: str, runs: int) -> dict[str, Any]:
    """Page open to first live answer: cold (fresh contexts), warm (other pages next, a reload)."""
    cold, warm = [], []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        cold.append(_open_live(page, f"{base}/{PAGE}"))
        for calc in OTHER_PAGES:
            warm.append({"page": calc, **_open_live(page, f"{base}/{_page_path(calc)}")})
        warm.append({"page": "reload", **_open_live(page, f"{base}/{PAGE}")})
        context.close()
    return {
        "cold_s": _median([r["seconds"] for r in cold]),
        "cold_worst_s": max(r["seconds"] for r in cold),
        "warm_s": _median([r["seconds"] for r in warm]),
        "warm_worst_s": max(r["seconds"] for r in warm),
        "warm_reused": sum(bool(r.get("reused")) for r in warm),
        "cold_runs": cold,
        "warm_runs": warm,
    }


def per_answer(browser: Any, base: str) -> dict[str, Any]:
    """Every worked example, from scratch, in a live page's worker (ms of the Python call), and
    keystroke to number from the first change after each page goes live."""
    context = browser.new_context()
    page = context.new_page()
    _open_live(page, f"{base}/{PAGE}")
    rows = []
    for calc in registry().calculators.values():
        for n, example in enumerate(calc.examples):
            args = [f"{k}={v}" for k, v in example.items()]
            reply = page.evaluate("([c, a]) => window.rulesbookLive.json(c, a, true)", [calc.id, args])
            rows.append({"example": f"{calc.id}#{n}", "ms": round(reply["ms"], 2), "code": reply["code"]})
    keystrokes = []
    pooled: list[float] = []
    for calc, key, shown, values in KEYSTROKE_CASES:
        page.goto(f"{base}/{_page_path(calc)}")
        page.wait_for_function(LIVE, timeout=120_000)
        times = []
        current = page.locator(f".rb-live-form .rb-input-{key} input").first.input_value()
        typed = [v for v in values if str(v) != current]
        for i in range(11):
            dom, _screen = page.evaluate(TYPE_AND_TIME, [key, shown, typed[i % len(typed)]])
            page.wait_for_function(LIVE)
            times.append(dom)
        pooled += times
        keystrokes.append(
            {
                "calculator": calc,
                "first_ms": round(times[0], 1),
                "dom_median_ms": round(statistics.median(times), 1),
                "dom_worst_ms": round(max(times), 1),
            }
        )
    context.close()
    examples = [r["ms"] for r in rows]
    return {
        "examples": len(rows),
        "median_ms": _median(examples),
        "p95_ms": _p95(examples),
        "max_ms": max(examples),
        "slowest": sorted(rows, key=lambda r: -r["ms"])[:5],
        "rows": rows,
        "keystroke_to_number": keystrokes,
        "keystroke_median_ms": _median(pooled),
        "keystroke_p95_ms": _p95(pooled),
    }


def served(browser: Any) -> dict[str, Any]:
    """The served site (``rulesbook serve``): page open to first number, keystroke to number."""
    proc, base = start_server(None)
    try:
        opens = []
        for _ in range(3):
            context = browser.new_context()
            page = context.new_page()
            started = time.perf_counter()
            page.goto(f"{base}/calc/{PAGE.rsplit('/', 1)[-1].removesuffix('.html')}")
            page.locator('[data-key="p_pass"]').first.wait_for(timeout=120_000)
            opens.append(round(time.perf_counter() - started, 3))
            context.close()
        context = browser.new_context()
        page = context.new_page()
        keystrokes = []
        for calc, key, shown, values in CASES:
            page.goto(f"{base}/calc/{calc}")
            page.locator(f'[data-key="{shown}"]').first.wait_for(timeout=120_000)
            page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached", timeout=120_000)
            current = page.locator(f".rb-input-{key} input").first.input_value()
            typed = [v for v in values if str(v) != current]
            times = []
            for i in range(11):
                dom, _screen = page.evaluate(TYPE_AND_TIME, [key, shown, typed[i % len(typed)]])
                page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached", timeout=60_000)
                if i:
                    times.append(dom)
                page.wait_for_timeout(50)
            keystrokes.append({"calculator": calc, "dom_median_ms": round(statistics.median(times), 1)})
        context.close()
        return {
            "page_open_to_first_number_s": _median(opens),
            "opens": opens,
            "keystroke_to_number": keystrokes,
        }
    finally:
        proc.terminate()
        proc.wait(30)


DICE_PAGE = """async ([source, scenarios]) => {
  const form = {}, captured = {};
  const documentStub = { getElementById(id) { if (!(id in form)) form[id] = { value: "", checked: false, innerHTML: "" }; return form[id]; } };
  const make = new Function("document", "location", "captured",
    source + "\\n;TEST_OVERRIDE = true; graph = function (raw, title, name) { captured[name] = raw; };\\nreturn roll_40k;");
  const roll40k = make(documentStub, { hash: "" }, captured);
  const setForm = (w, t) => {  // as ../shared/peers/run_40kdice.js fills the form
    for (const k of Object.keys(form)) delete form[k];
    const ab = new Set(w.abilities || []);
    const v = (id, val) => { form[id] = { value: val == null ? "" : String(val), checked: false, innerHTML: "" }; };
    const c = (id, on) => { form[id] = { value: "1", checked: !!on, innerHTML: "" }; };
    v("models", 1); v("attacks", w.attacks); v("bs", ab.has("torrent") || !w.skill ? "" : w.skill);
    v("s", w.strength); v("ap", w.ap); v("d", w.damage); v("hit_mod", w.hit_modifier || "");
    c("hit_leth", ab.has("lethal-hits")); v("hit_sus", w.sustained == null ? "" : w.sustained);
    v("hit_crit", ""); v("hit_of_6", ""); v("hit_reroll", ab.has("reroll-hit-1") ? "1" : "");
    v("wound_mod", ""); c("wound_dev", ab.has("devastating-wounds")); v("wound_crit", ""); v("wound_of_6", "");
    v("wound_reroll", ab.has("reroll-wound-1") ? "1" : ""); v("t", t.toughness); v("save", t.save);
    v("invulnerable", t.invuln || ""); v("save_mod", ""); c("cover", !!t.cover); v("save_reroll", "");
    v("wounds", t.wounds); v("fnp", t.fnp || "");
  };
  const out = {};
  for (const [name, sc] of Object.entries(scenarios)) {
    const w = { ...sc.weapon }, t = sc.target;
    if ((w.abilities || []).includes("blast")) {
      if (!/^\\d+$/.test(String(w.attacks).trim())) { out[name] = null; continue; }
      w.attacks = String(parseInt(w.attacks, 10) + Math.floor(t.models / 5));
    }
    const run = () => { setForm(w, t); roll40k(); };
    for (let i = 0; i < 5; i++) run();
    // the page's clock ticks in 0.1 ms: each sample times enough calls to last 20 ms or more
    let batch = 1;
    for (;;) {
      const s = performance.now();
      for (let i = 0; i < batch; i++) run();
      if (performance.now() - s >= 20 || batch >= 1 << 16) break;
      batch *= 2;
    }
    const times = [];
    for (let i = 0; i < 20; i++) {
      const s = performance.now();
      for (let j = 0; j < batch; j++) run();
      times.push((performance.now() - s) / batch);
    }
    times.sort((a, b) => a - b);
    out[name] = (times[9] + times[10]) / 2;
  }
  return out;
}"""


def peers(browser: Any, base: str) -> dict[str, Any]:
    """40kdice's ``dice.js`` and ``wh40k.attack`` (in the page's Python) on the peers' scenarios."""
    source = (PEERS / "40kdice" / "dice.js").read_text(encoding="utf-8")
    scenarios = json.loads((PEERS / "scenarios.json").read_text(encoding="utf-8"))["wh40k.attack"]
    context = browser.new_context()
    page = context.new_page()
    _open_live(page, f"{base}/{_page_path('wh40k.attack')}")
    dice = page.evaluate(DICE_PAGE, [source, scenarios])
    rows = []
    for name, scenario in scenarios.items():
        args = [f"{k}={v}" for k, v in attack_inputs(scenario).items()]
        times = []
        for _ in range(5):
            reply = page.evaluate("([a]) => window.rulesbookLive.json('wh40k.attack', a, true)", [args])
            times.append(reply["ms"])
        mean = json.loads(reply["output"])["result"]["mean_models_destroyed"] if reply["code"] == 0 else None
        ours = statistics.median(times)
        rows.append(
            {
                "scenario": name,
                "rulesbook_browser_ms": round(ours, 2),
                "dice_js_ms": None if dice[name] is None else round(dice[name], 4),
                "ratio": None if not dice[name] else round(ours / dice[name], 2),
                "rulesbook_mean_models_destroyed": mean,
            }
        )
    context.close()
    ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
    return {"rows": rows, "worst_ratio": max(ratios) if ratios else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", required=True, help="a scripts/build-site output (with live-runtime/)")
    parser.add_argument("--runs", type=int, default=3, help="cold visits (each followed by two warm ones)")
    parser.add_argument("--no-served", action="store_true", help="leave out the served site")
    parser.add_argument(
        "--parts", default=",".join(PARTS), help=f"which figures (default: {','.join(PARTS)})"
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    parts = set(args.parts.split(","))
    site = Path(args.site)
    if not (site / "live-runtime" / "manifest.json").is_file():
        sys.exit(f"{site}: no live-runtime/manifest.json (the build left the live calculators out)")
    proc, base = _serve(site)
    figures: dict[str, Any] = {"goals": GOALS, "page": PAGE}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            figures["chromium"] = browser.version
            if "download" in parts:
                figures["download"] = d = download(browser, site)
                print(
                    f"first visit download: {d['files']} files, {d['mb']} MB as sent, {d['gzip_mb']} MB gzipped (runtime {d['runtime_gzip_mb']} MB)",
                    flush=True,
                )
            if "first" in parts:
                figures["first_answer"] = f = first_answers(browser, base, args.runs)
                print(
                    f"page open -> first live answer: cold {f['cold_s']} s (worst {f['cold_worst_s']} s), "
                    f"warm {f['warm_s']} s (worst {f['warm_worst_s']} s; Python found started in "
                    f"{f['warm_reused']} of {len(f['warm_runs'])})",
                    flush=True,
                )
            if "answers" in parts:
                figures["per_answer"] = a = per_answer(browser, base)
                print(
                    f"per answer ({a['examples']} worked examples, from scratch): median {a['median_ms']} ms, "
                    f"p95 {a['p95_ms']} ms, max {a['max_ms']} ms",
                    flush=True,
                )
                print(
                    f"keystroke -> number (every change, the first after going live too): median "
                    f"{a['keystroke_median_ms']} ms, p95 {a['keystroke_p95_ms']} ms",
                    flush=True,
                )
                for row in a["keystroke_to_number"]:
                    print(
                        f"  {row['calculator']}: first {row['first_ms']} ms, median {row['dom_median_ms']} ms, "
                        f"worst {row['dom_worst_ms']} ms",
                        flush=True,
                    )
            if "peers" in parts and not PEERS.is_dir():
                print(f"peers: {PEERS} not found (set RULESBOOK_PEERS)", flush=True)
            elif "peers" in parts:
                figures["peers"] = peers(browser, base)
                for row in figures["peers"]["rows"]:
                    print(
                        f"  {row['scenario']:<30} wh40k.attack {row['rulesbook_browser_ms']:8.2f} ms   "
                        f"dice.js {row['dice_js_ms']} ms   ratio {row['ratio']}",
                        flush=True,
                    )
                print(f"  worst ratio (rulesbook / 40kdice): {figures['peers']['worst_ratio']}", flush=True)
            if "served" in parts and not args.no_served:
                figures["served"] = s = served(browser)
                print(f"served: page open -> first number {s['page_open_to_first_number_s']} s", flush=True)
                for row in s["keystroke_to_number"]:
                    print(
                        f"  keystroke -> number, {row['calculator']}: {row['dom_median_ms']} ms", flush=True
                    )
            browser.close()
    finally:
        proc.terminate()
        proc.wait(30)
    figures["load_average_1min"] = round(os.getloadavg()[0], 2)
    figures["cores"] = os.cpu_count()
    print(f"load average (1 min) at the end: {figures['load_average_1min']} on {figures['cores']} cores")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
