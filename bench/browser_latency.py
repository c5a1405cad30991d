"""Latency of simple live calculators in a real browser: from a keystroke to the new number on screen.

Starts ``rulesbook serve`` (or uses ``--url``), opens each calculator below in Debian's chromium
(Playwright), and ``--repeat`` times types a new value into one number box, the way a player does
(the box's ``input`` event, no Enter). Inside the page it times, with ``performance.now()``:

* **dom**: from the keystroke to the new number in the page (a mutation observer on the result);
* **screen**: to the next animation frame after that (the number painted).

It prints the median and p90 of each per calculator (``--json FILE`` writes them). The first
change of each page is a warm-up and not counted. The path measured is the whole served one:
the browser commits the typed value (widgets/forms/live.py), the websocket, the server's callback, the
worker process that computes the answer (widgets/server/workers.py), the patch back, the DOM update.

Run (from the project root; figures in bench/README.md)::

    .venv/bin/python bench/browser_latency.py
    .venv/bin/python bench/browser_latency.py --url http://127.0.0.1:8765 --repeat 50
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import start_server  # bench/ is not a package: imported by path

CHROMIUM = "/usr/bin/chromium"

# (calculator, number input, shown value to watch, values typed in turn: each changes the answer)
CASES = [
    ("scrollhammer.morale-check", "ld", "p_pass", [8, 9, 6, 5, 10, 4, 7]),
    ("scrollhammer.break-test", "ld", "p_pass", [8, 9, 6, 5, 10, 4, 7]),
    ("wh40k.battle-shock", "leadership", "p_pass", [8, 9, 6, 5, 10, 4, 7]),
    ("scrollhammer.leadership-test", "ld", "p_pass", [8, 9, 6, 5, 10, 4, 7]),
]

TYPE_AND_TIME = """async ([key, shown, value]) => {
  const deep = (root, sel) => {
    const hit = root.querySelector(sel)
    if (hit) return hit
    for (const el of root.querySelectorAll("*")) {
      const inner = el.shadowRoot && deep(el.shadowRoot, sel)
      if (inner) return inner
    }
    return null
  }
  const host = deep(document, `.rb-input-${key}`)
  const input = host.querySelector("input") || deep(host.shadowRoot, "input")
  const span = () => deep(document, `[data-key="${shown}"]`)
  const before = span().innerText
  const root = span().getRootNode()
  return await new Promise((resolve, reject) => {
    const timeout = setTimeout(() => reject(new Error("no new answer within 30 s")), 30000)
    let start = 0
    const observer = new MutationObserver(() => {
      const now = span()
      if (!now || now.innerText === before) return
      const dom = performance.now() - start
      observer.disconnect()
      clearTimeout(timeout)
      requestAnimationFrame(() => resolve([dom, performance.now() - start]))
    })
    observer.observe(root, {subtree: true, childList: true, characterData: true})
    input.focus()
    input.value = String(value)
    start = performance.now()
    input.dispatchEvent(new Event("input", {bubbles: true, composed: true}))  // a keystroke
  })
}"""


def measure(
    page: Any, base: str, calc: str, key: str, shown: str, values: list[int], repeat: int
) -> dict[str, Any]:
    page.goto(f"{base}/calc/{calc}")
    page.locator(f'[data-key="{shown}"]').first.wait_for(timeout=120_000)
    page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached", timeout=120_000)
    current = page.locator(f".rb-input-{key} input").first.input_value()
    dom: list[float] = []
    screen: list[float] = []
    typed = [v for v in values if str(v) != current]
    for i in range(repeat + 1):
        value = typed[i % len(typed)]
        d, s = page.evaluate(TYPE_AND_TIME, [key, shown, value])
        page.locator('.rb-status[data-state="idle"]').first.wait_for(state="attached", timeout=60_000)
        if i:  # the first change warms the page up
            dom.append(d)
            screen.append(s)
        page.wait_for_timeout(50)
    return {
        "calculator": calc,
        "changes": repeat,
        "dom_median_ms": round(statistics.median(dom), 1),
        "dom_p90_ms": round(sorted(dom)[int(0.9 * (len(dom) - 1))], 1),
        "screen_median_ms": round(statistics.median(screen), 1),
        "screen_p90_ms": round(sorted(screen)[int(0.9 * (len(screen) - 1))], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30, help="changes per calculator (default 30)")
    parser.add_argument("--url", help="use this running server instead of starting one")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    proc = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        proc, base = start_server(None)
    rows = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            for calc, key, shown, values in CASES:
                rows.append(measure(page, base, calc, key, shown, values, args.repeat))
                print(
                    f"{calc:<32} keystroke -> DOM median {rows[-1]['dom_median_ms']:6.1f} ms "
                    f"(p90 {rows[-1]['dom_p90_ms']:6.1f}); -> screen median {rows[-1]['screen_median_ms']:6.1f} ms "
                    f"(p90 {rows[-1]['screen_p90_ms']:6.1f})",
                    flush=True,
                )
            browser.close()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(30)
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.json:
        Path(args.json).write_text(
            json.dumps({"rows": rows, "load_average_1min": os.getloadavg()[0]}, indent=1) + "\n"
        )


if __name__ == "__main__":
    main()
