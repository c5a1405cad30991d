"""Issue 26 at the table, in a real browser against one ``rulesbook serve --processes 2``.

* a game set up from scratch in the page (390 px and 1280 px), a wrong field named and kept,
  two turns played (the side's declared objectives checked), reloaded and restored; a saved
  army list filled in for the next game;
* two tabs on one game each adding events: both kept; four tabs adding events at once, round
  after round, across the two server processes: every acknowledged event on disk, no traceback
  from the server;
* a full disk (a 2 MB tmpfs, filled up) shows "not saved"; a 30 MB upload is refused in the page
  before anything is sent; a dropped connection shows a banner with a reload;
* a request or websocket addressed to a name not allowed (``Host: attacker.example``) is
  refused, one added with ``--allow-host`` is served (a plain HTTP client, no browser).
"""

from __future__ import annotations

import http.client
import itertools
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesbook.systems.army_morale.logfile import log_from_text
from tests.browser.conftest import ROOT, _free_port, choose_event_kind, read_value, running

pytestmark = pytest.mark.browser

TRACKER = "/app/army-morale-tracker"
FOUR_TABS_ROUNDS = 4
"""Rounds of the four-tab test: each tab adds an event at once, then each answer is awaited
(a fixed count, not a fixed time: as many events on a slow machine as on a fast one)."""


class Served:
    def __init__(self, base: str, games: Path, log: Path, full_disk: bool, proc: Any) -> None:
        self.base, self.games, self.log, self.full_disk, self.proc = base, games, log, full_disk, proc


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server of two processes, its games on a small tmpfs when one can be mounted."""
    root = tmp_path_factory.mktemp("table")
    site, games = root / "site", root / "games"
    site.mkdir()
    games.mkdir()
    (site / "index.html").write_text("<!doctype html><title>site</title>")
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(games)], capture_output=True, check=False
        ).returncode
        == 0
    )
    port = _free_port()
    env = {**os.environ, "RULESBOOK_GAMES_DIR": str(games)}
    cmd = [sys.executable, "-m", "rulesbook.cli", "serve", "--no-build", "--host", "127.0.0.1"]
    cmd += ["--port", str(port), "--site-dir", str(site), "--processes", "2", "--workers", "1"]
    cmd += ["--allow-host", "table.local"]
    log_path = root / "server.log"
    log = log_path.open("w")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        with running(proc, log, f"{base}/site/", "serve --processes 2", 120):
            yield Served(base, games, log_path, mounted, proc)
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(games)], check=False)


def _fill(page: Any, css: str, value: str) -> None:
    box = page.locator(f"{css} input").first
    box.fill(value)
    box.press("Enter")


def _wait(page: Any, key: str, text: str | re.Pattern[str]) -> None:
    page.locator(f'[data-key="{key}"]', has_text=text).first.wait_for()


SAVED = re.compile(r"^Saved$")
"""The save line once the server's file holds the last change (not "Not saved yet")."""


def _event(page: Any, kind: str, **boxes: str) -> None:
    choose_event_kind(page, kind)
    for box, value in boxes.items():
        if box == "detachment":
            page.locator(".am-detachment select").first.select_option(label=value)
        else:
            _fill(page, f".am-{box}", value)
    page.locator(".am-add-event button").first.click()


def _stored_events(games: Path, game: str) -> list[Any]:
    log = log_from_text((games / f"{game}.yaml").read_text())
    return [e for t in log.turns for e in t.events]


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.covers(
    "army-morale.detachment.value", "army-morale.ongoing.take-and-hold", "army-morale.one-time.bunker"
)
def test_a_game_set_up_in_the_page_is_played_and_restored(table: Served, browser: Any, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{table.base}{TRACKER}")
    _fill(page, ".am-setup-a-name", "Blue host")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1  # no sideways scroll
    # no label of a detachment row runs into the next one (its text, measured as drawn)
    spans = [
        page.locator(f".am-det-a-0-{key} label").first.evaluate(
            "el => { const r = document.createRange(); r.selectNodeContents(el);"
            " const b = r.getBoundingClientRect(); return [b.left, b.right, b.top]; }"
        )
        for key in ("name", "points", "strength", "units", "war-engines")
    ]
    for (_, right, top), (left, _, next_top) in itertools.pairwise(spans):
        assert right <= left or abs(top - next_top) > 1, spans  # side by side without touching, or wrapped
    _fill(page, ".am-det-a-0-name", "Infantry")
    _fill(page, ".am-det-a-0-points", "225")
    _fill(page, ".am-det-a-0-units", "20")
    page.locator(".am-det-a-1-strength select").first.select_option(label="Damage Capacity (War Engines)")
    _fill(page, ".am-det-a-1-name", "Tanks")
    _fill(page, ".am-det-a-1-points", "250")
    _fill(page, ".am-det-a-1-war-engines", "Baneblade 4 morale 4, Baneblade 4 morale 4")
    _fill(page, ".am-setup-a-take-and-hold", "1")
    _fill(page, ".am-setup-a-bunkers", "north")
    _fill(page, ".am-setup-b-name", "Red horde")
    _fill(page, ".am-det-b-0-name", "Boyz")
    _fill(page, ".am-det-b-0-points", "2OO")  # a typing slip: named, and kept in its box
    _fill(page, ".am-det-b-0-units", "24")
    page.locator(".am-start button").first.click()
    _wait(page, "setup-error", "side b, detachment 1 (Boyz), points")
    assert page.locator(".am-det-b-0-points input").first.input_value() == "2OO"
    assert page.locator(".am-det-a-1-war-engines input").first.input_value().startswith("Baneblade 4")
    if width == 1280:  # keep side a's army as a list for the next game
        page.locator(".am-save-list-a button").first.click()
        _wait(page, "setup-error", "Saved the army list Blue host")
    _fill(page, ".am-det-b-0-points", "200")
    page.locator(".am-start button").first.click()
    _wait(page, "a_value", "10")  # 225 pts -> 5, 250 pts -> 5
    assert read_value(page, "b_value") == "4"
    page.wait_for_function("location.search.startsWith('?game=')")
    _wait(page, "save", SAVED)
    # turn 1: side a blows up its bunker (b loses 3); Rally: one Take & Hold objective, D3 = 2
    choose_event_kind(page, "bunker-destroyed")
    _fill(page, ".am-number", "3")
    _fill(page, ".am-bunker", "north")
    page.locator(".am-add-event button").first.click()
    _wait(page, "b_value", "1")
    _fill(page, ".am-a-take-and-hold", "2")
    page.locator(".am-end-rally button").first.click()
    _wait(page, "turn", "2")
    assert read_value(page, "a_value") == "12"
    # turn 2: Infantry loses 10 of 20 (half strength, -5); two Take & Hold results are refused
    _event(page, "losses", detachment="a: Infantry", number="10")
    _wait(page, "a_value", "7")
    _fill(page, ".am-a-take-and-hold", "2, 3")
    page.locator(".am-end-rally button").first.click()
    _wait(page, "error", "side a has 1 Take & Hold objective")
    _fill(page, ".am-a-take-and-hold", "3")
    page.locator(".am-end-rally button").first.click()
    _wait(page, "turn", "3")
    assert read_value(page, "a_value") == "10"
    url = page.url
    page.reload()
    _wait(page, "turn", "3")
    assert page.url == url and (read_value(page, "a_value"), read_value(page, "b_value")) == ("10", "1")
    assert "army-morale.ongoing.take-and-hold" in page.locator(".rulesbook-table").first.inner_text()
    if width == 390:  # a 30 MB log is refused in the page, before anything is sent
        big = table.games.parent / "big.yaml"
        big.write_bytes(b"#" * 30_000_000)
        page.locator(".am-upload input[type=file]").first.set_input_files(str(big))
        page.locator(".rb-upload-message", has_text="30,000,000 bytes").first.wait_for()
        big.unlink()
        _event(page, "adjustment", number="1", reason="still connected")
        _wait(page, "a_value", "11")
        assert page.locator(".rb-connection-text").first.is_hidden()
    else:  # the saved list is offered in a new game and fills side b in
        page.goto(f"{table.base}{TRACKER}")
        page.locator(".am-lists-b select").first.select_option("Blue host")
        page.locator(".am-use-list-b button").first.click()
        _wait(page, "setup-error", "filled in from the army list Blue host")
        assert page.locator(".am-setup-b-name input").first.input_value() == "Blue host"
        assert page.locator(".am-det-b-1-war-engines input").first.input_value() == (
            "Baneblade 4 morale 4, Baneblade 4 morale 4"
        )
    context.close()


@pytest.mark.covers("army-morale.one-time.war-engine-destroyed")
def test_two_war_engines_of_one_name_are_both_destroyed_at_a_phone(table: Served, browser: Any) -> None:
    """Issue 37: side b's two Stompas are each offered ("Stompa (1)", "Stompa (2)") and each
    recorded; a third try is refused in words (no ID, no line of the stored file, even after a
    reload); the ledger reads as cards on a phone, each rule a link to its page."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{table.base}{TRACKER}")
    _fill(page, ".am-setup-a-name", "Blue host")
    _fill(page, ".am-det-a-0-name", "Infantry")
    _fill(page, ".am-det-a-0-points", "225")
    _fill(page, ".am-det-a-0-units", "20")
    _fill(page, ".am-setup-b-name", "Red horde")
    _fill(page, ".am-det-b-0-name", "Boyz")
    _fill(page, ".am-det-b-0-points", "200")
    _fill(page, ".am-det-b-0-units", "24")
    page.locator(".am-det-b-1-strength select").first.select_option(label="Damage Capacity (War Engines)")
    _fill(page, ".am-det-b-1-name", "Big Stompas")
    _fill(page, ".am-det-b-1-points", "240")
    _fill(page, ".am-det-b-1-war-engines", "Stompa 6 120 pts, Stompa 6 120 pts")
    page.locator(".am-start button").first.click()
    _wait(page, "a_value", "5")
    page.wait_for_function("location.search.startsWith('?game=')")
    choose_event_kind(page, "war-engine-destroyed")
    engines = page.locator(".am-war-engine select")
    engines.locator("option", has_text="Stompa (2)").first.wait_for(state="attached")
    assert engines.first.locator("option").all_inner_texts() == ["b: Stompa (1)", "b: Stompa (2)"]
    for label, value in (("b: Stompa (1)", "7"), ("b: Stompa (2)", "9")):
        engines.first.select_option(label=label)
        page.locator(".am-add-event button").first.click()
        _wait(page, "a_value", value)  # half of each Stompa's Morale value 3, rounded up
    _wait(page, "save", SAVED)
    game = page.url.split("game=")[1].split("&")[0]
    stored = [e.war_engine for e in _stored_events(table.games, game)]
    assert stored == ["stompa-1", "stompa-2"]
    page.reload()  # the game now comes from its stored file, every entry with a line number
    _wait(page, "a_value", "9")
    choose_event_kind(page, "war-engine-destroyed")
    engines.locator("option", has_text="Stompa (2)").first.wait_for(state="attached")
    engines.first.select_option(label="b: Stompa (2)")
    page.locator(".am-add-event button").first.click()
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    assert error.inner_text() == (
        "turn 1, third event: War Engine Stompa (2) was already destroyed (turn 1, second event); it counts once"
    )
    cards = page.locator(".am-card")
    assert page.locator(".am-ledger").first.is_hidden() and cards.first.is_visible()
    newest = cards.first.inner_text()
    assert newest.startswith("enemy Stompa (2) destroyed") and "Blue host +2" in newest
    link = cards.first.locator("a").first
    assert link.inner_text() == "Enemy War Engine destroyed"
    assert link.get_attribute("href") == "/site/army-morale/rules/army-morale.one-time.war-engine-destroyed/"
    assert page.evaluate("document.documentElement.scrollWidth") <= 391  # no sideways scroll
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    page.screenshot(path=str(ROOT / "test-artifacts" / "tracker-two-stompas-390.png"), full_page=True)
    context.close()


def _game_page(browser: Any, url: str) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(url)
    page.locator('[data-key="a_value"]').first.wait_for()
    return context, page


@pytest.mark.covers("army-morale.army.value")
def test_two_tabs_each_adding_events_keep_both(table: Served, browser: Any) -> None:
    first_context, first = _game_page(browser, f"{table.base}{TRACKER}?demo=1")
    _event(first, "adjustment", number="-1", reason="first tab")
    _wait(first, "save", SAVED)
    first.wait_for_function("location.search.startsWith('?game=')")
    game = first.url.split("game=")[1].split("&")[0]
    second_context, second = _game_page(browser, first.url)
    _wait(second, "a_value", "13")
    _event(second, "adjustment", number="-2", reason="second tab")
    _wait(second, "a_value", "11")
    _event(first, "adjustment", number="-3", reason="first tab again")  # first may not have seen it yet
    _wait(first, "a_value", "8")  # 14 - 1 - 2 - 3: nothing overwritten
    _wait(second, "a_value", "8")  # and the second tab shows the first one's event by itself
    reasons = [e.reason for e in _stored_events(table.games, game)]
    assert reasons == ["first tab", "second tab", "first tab again"]
    first_context.close()
    second_context.close()


def test_four_tabs_on_two_processes_lose_no_acknowledged_event(table: Served, browser: Any) -> None:
    opened = [_game_page(browser, f"{table.base}{TRACKER}?demo=1")]
    first = opened[0][1]
    _event(first, "adjustment", number="1", reason="start")
    first.wait_for_function("location.search.startsWith('?game=')")
    _wait(first, "save", SAVED)
    url, game = first.url, first.url.split("game=")[1].split("&")[0]
    opened += [_game_page(browser, url) for _ in range(3)]
    pages = [page for _, page in opened]
    for page in pages:
        choose_event_kind(page, "adjustment")
        _fill(page, ".am-number", "1")
    acknowledged: list[str] = []
    for n in range(1, FOUR_TABS_ROUNDS + 1):
        for tab, page in enumerate(pages):  # all four at once, then each answer
            _fill(page, ".am-reason", f"[{tab}.{n}]")
            page.locator(".am-add-event button").first.click()
        for tab, page in enumerate(pages):  # an event added in the turn shown is never refused
            page.locator(".am-status-pane", has_text=f"adjustment: [{tab}.{n}]").first.wait_for()
            acknowledged.append(f"[{tab}.{n}]")
    stored = [e.reason for e in _stored_events(table.games, game)]
    assert set(acknowledged) <= set(stored) and len(stored) == len(set(stored)) == 4 * FOUR_TABS_ROUNDS + 1
    for context, _ in opened:
        context.close()
    assert "Traceback" not in table.log.read_text()


def test_a_full_disk_is_shown_as_not_saved(table: Served, browser: Any) -> None:
    if not table.full_disk:
        pytest.skip("no tmpfs could be mounted (tests/army_morale/test_one_truth.py simulates ENOSPC)")
    context, page = _game_page(browser, f"{table.base}{TRACKER}?demo=1")
    _event(page, "adjustment", number="-1", reason="before")
    _wait(page, "save", SAVED)
    filler = table.games / "filler"
    with filler.open("wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError:
            pass
    try:
        _event(page, "adjustment", number="-2", reason="on a full disk")
        _wait(page, "save", "not saved: disk full")
        assert read_value(page, "a_value") == "13"  # the page shows what the server holds
        assert page.locator(".am-reason input").first.input_value() == "on a full disk"
    finally:
        filler.unlink()
    page.locator(".am-add-event button").first.click()  # room again: the same entry goes through
    _wait(page, "a_value", "11")
    _wait(page, "save", SAVED)
    assert not [p for p in table.games.iterdir() if p.name.endswith(".tmp")]
    context.close()


def _handshake(base: str, host: str, origin: str) -> tuple[int, str]:
    """A websocket upgrade of the tracker's socket with these headers: status and body."""
    port = int(base.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("GET", f"{TRACKER}/ws", skip_host=True)
    for name, value in {
        "Host": host,
        "Origin": origin,
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    }.items():
        conn.putheader(name, value)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read(300).decode("utf-8", "replace") if response.status != 101 else ""
    conn.close()
    return response.status, body


def test_requests_and_websockets_for_other_hosts_are_refused(table: Served) -> None:
    port = table.base.rsplit(":", 1)[1]
    status, body = _handshake(table.base, f"attacker.example:{port}", f"http://attacker.example:{port}")
    assert status == 403 and "Host attacker.example is not served here" in body
    status, body = _handshake(table.base, f"127.0.0.1:{port}", f"ftp://127.0.0.1:{port}")
    assert status == 403 and "only http and https" in body
    status, body = _handshake(table.base, f"127.0.0.1:{port}", f"http://attacker.example:{port}")
    assert status == 403 and "Origin attacker.example" in body
    for host, expected in (
        (f"attacker.example:{port}", 403),
        (f"table.local:{port}", 200),
        ("localhost", 200),
    ):
        conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)
        conn.request("GET", "/site/", headers={"Host": host})
        assert conn.getresponse().status == expected, host
        conn.close()


def test_a_dropped_connection_is_said_at_once(table: Served, browser: Any) -> None:
    """Runs last: it stops the module's server."""
    context, page = _game_page(browser, f"{table.base}{TRACKER}?demo=1")
    assert page.locator(".rb-connection-text").first.is_hidden()
    table.proc.terminate()
    table.proc.wait(20)
    page.locator(".rb-connection-text", has_text="connection to the server was lost").first.wait_for()
    assert page.locator(".rb-reload").first.is_visible()
    context.close()
