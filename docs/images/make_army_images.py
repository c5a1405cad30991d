"""Makes the pictures of docs/army-lists.md ("Your army"): the datasheet calculator and the Army
Morale tracker's set-up with the shipped example lists chosen (screenshots of a running
``rulesbook serve`` in Debian's chromium, driven by Playwright as the browser tests do), and the
heatmap of ``rulesbook matchup`` of the two 40k lists.

    rulesbook serve --port 8765 &                    # any running server of this checkout
    python docs/images/make_army_images.py http://127.0.0.1:8765

Run it again after changing a page or a list; the pictures are committed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLES = ROOT / "rulesbook" / "systems"
RUST, BOG = EXAMPLES / "wh40k/examples/rust-legion.rosz", EXAMPLES / "wh40k/examples/bog-horde.json"
STEEL = EXAMPLES / "army_morale/data/steel-company.rosz"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def _type(page: object, key: str, text: str) -> None:
    box = page.locator(f".rb-input-{key} input").first  # type: ignore[attr-defined]
    box.fill(text)
    box.press("Enter")


def screenshots(base: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1200, "height": 1250})
        page.set_default_timeout(60_000)
        page.goto(f"{base}/calc/wh40k.datasheet-attack")
        page.locator('[data-key="mean_models_destroyed"]').first.wait_for()
        page.locator(".rb-input-faction input[type=file]").first.set_input_files(str(RUST))
        page.locator(".rb-input-target_faction input[type=file]").first.set_input_files(str(BOG))
        # the example's Death Guard rules follow the list (set to none, said above the answer)
        page.locator('[data-key="mended"]').first.wait_for()
        for key, text in (
            ("battle_round", "1"),
            ("attacker", "rustguard-squad-2"),
            ("weapons", "rust-rifle, plasma-burner-standard"),
            ("target", "bog-wardens"),
        ):
            _type(page, key, text)
        page.locator(".rb-more .card-header").first.click()  # the folded inputs
        _type(page, "target_leader", "bog-shaman")
        page.locator('[data-key="mean_models_destroyed"]', has_text="2.5308").first.wait_for()
        page.keyboard.press("Tab")  # (leave the last box)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(HERE / "army-served-calculator.png"))
        page.goto(f"{base}/app/army-morale-tracker")
        page.locator(".am-roster-a input[type=file]").first.set_input_files(str(STEEL))
        page.locator(".am-setup-error", has_text="filled in from the roster").first.wait_for()
        page.locator(".am-roster-a").first.scroll_into_view_if_needed()
        page.screenshot(path=str(HERE / "army-tracker-set-up.png"))
        browser.close()


def heatmap() -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "rulesbook.cli",
            "matchup",
            str(RUST),
            str(BOG),
            "--plot",
            str(HERE / "army-matchup.png"),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )


if __name__ == "__main__":
    heatmap()
    screenshots(sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:8765")
