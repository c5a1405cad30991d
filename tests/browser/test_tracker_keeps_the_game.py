"""The served tracker keeps its game: across a reload, and across a server restart; a page
reloaded before anything was recorded keeps its address and writes no file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ROOT, _free_port, choose_event_kind, read_value, running

pytestmark = pytest.mark.browser


def _server(site: Path, games: Path, log: Any) -> tuple[subprocess.Popen[Any], str]:
    """``rulesbook serve --no-build`` on a free port, its games kept in ``games``."""
    port = _free_port()
    env = {**os.environ, "RULESBOOK_GAMES_DIR": str(games)}
    cmd = [sys.executable, "-m", "rulesbook.cli", "serve", "--no-build", "--host", "127.0.0.1"]
    cmd += ["--port", str(port), "--site-dir", str(site)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    return proc, f"http://127.0.0.1:{port}"


@pytest.mark.covers("army-morale.one-time.bunker")
def test_tracker_keeps_a_game_across_reload_and_server_restart(page: Any, tmp_path: Path) -> None:
    site, games = tmp_path / "site", tmp_path / "games"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html><title>site</title>")
    log = (tmp_path / "first.log").open("w")
    proc, base = _server(site, games, log)
    with running(proc, log, f"{base}/site/", "serve", 120):
        page.goto(f"{base}/app/army-morale-tracker?demo=1")
        page.locator('[data-key="game"]').first.wait_for()
        page.wait_for_function("location.search.startsWith('?game=')")
        # the address is fixed when the page opens, the file written only at the first change:
        # a reload before it gives the same address and a blank page, and leaves no file
        opened = page.url
        page.reload()
        page.locator('[data-key="game"]').first.wait_for()
        assert page.url == opened and read_value(page, "b_value") == "10"
        assert not games.exists() or not list(games.iterdir())
        choose_event_kind(page, "bunker-destroyed")
        box = page.locator(".am-number input").first
        box.fill("4")
        box.press("Enter")
        page.locator(".am-add-event button").first.click()
        page.locator('[data-key="b_value"]', has_text="6").first.wait_for()
        # (the same game; once it holds something, no longer marked a demo: the page's address
        # follows the answer, so wait for it)
        page.wait_for_function("!location.search.includes('demo=1')")
        url = page.url
        game = opened.split("game=")[1].split("&")[0]
        assert url.split("game=")[1] == game and [p.name for p in games.iterdir() if p.name != ".lock"] == [
            f"{game}.yaml"
        ]
        page.reload()
        page.locator('[data-key="b_value"]', has_text="6").first.wait_for()
        assert page.url == url and read_value(page, "a_value") == "14"
    log = (tmp_path / "second.log").open("w")
    proc, base2 = _server(site, games, log)
    with running(proc, log, f"{base2}/site/", "serve", 120):
        page.goto(url.replace(base, base2))
        page.locator('[data-key="b_value"]', has_text="6").first.wait_for()
        assert "army-morale.one-time.bunker" in page.locator(".rulesbook-table").first.inner_text()
