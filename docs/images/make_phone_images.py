"""Makes the phone pictures of docs/serving.md ("On a phone"): the home page's first screen, the
40k datasheet attack's first screens and the Army Morale tracker's ledger of the example game, at
390 × 844 px as a phone shows them (screenshots of a running ``rulesbook serve`` in Debian's
chromium, driven by Playwright as the browser tests do).

    RULESBOOK_GAMES_DIR=/tmp/games rulesbook serve --port 8765 &   # a server of this checkout
    python docs/images/make_phone_images.py http://127.0.0.1:8765 /tmp/games

The example game (``rulesbook/systems/army_morale/data/example-game.yaml``) is copied into the
server's games folder and opened at its own address. Run it again after changing a page; the
pictures are committed.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GAME = ROOT / "rulesbook" / "systems" / "army_morale" / "data" / "example-game.yaml"
GAME_ID = "phone-example-game"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 1,
}
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def screenshots(base: str, games: Path) -> None:
    from playwright.sync_api import sync_playwright

    games.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(GAME, games / f"{GAME_ID}.yaml")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        context = browser.new_context(**PHONE)
        page = context.new_page()
        page.set_default_timeout(60_000)
        # the home page: its way into the calculators on the first screen
        page.goto(f"{base}/site/")
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(HERE / "phone-home.png"))
        # the datasheet attack: the answer, then the inputs a player changes most
        page.goto(f"{base}/calc/wh40k.datasheet-attack")
        page.locator('[data-key="mean_models_destroyed"]').first.wait_for()
        page.wait_for_timeout(500)
        page.screenshot(path=str(HERE / "phone-datasheet-attack.png"), full_page=True, clip=_screens(page, 2))
        # the tracker's ledger: one card per entry, what happened first
        page.goto(f"{base}/app/army-morale-tracker?game={GAME_ID}")
        card = page.locator(".am-card").first
        card.wait_for()
        card.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -60)")
        page.screenshot(path=str(HERE / "phone-ledger.png"))
        browser.close()


def _screens(page: object, n: int) -> dict[str, float]:
    """The first ``n`` screens of the page, as one picture."""
    height = page.evaluate("document.documentElement.scrollHeight")  # type: ignore[attr-defined]
    return {"x": 0, "y": 0, "width": 390, "height": min(844 * n, height)}


if __name__ == "__main__":
    screenshots(
        sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:8765",
        Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/games"),
    )
