"""Fixtures for real-browser tests: a running ``rulesbook serve`` and a Playwright page.

``served`` is the base URL (``http://127.0.0.1:PORT``) of one server for the whole session,
started as a child process that builds the site into a temporary folder (or, while working on
a test, the server named by ``RULESBOOK_SERVED=http://127.0.0.1:PORT``, already running from
this checkout with ``RULESBOOK_GAMES_DIR`` set to a scratch folder); ``served_games`` is its games
folder. ``page`` is a fresh
Playwright page in Debian's chromium (``/usr/bin/chromium``); every request that leaves the
machine is recorded in ``page.external_requests`` so tests can assert the site is offline.
Without chromium the tests are skipped, unless ``RULESBOOK_REQUIRE_BROWSER=1`` (set by
``scripts/test``), which makes a missing browser a failure.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rulesbook.systems.army_morale.tracker import FORM_SLOTS, form_boxes

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def served_games_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The games folder a ``served`` server started here is given."""
    return tmp_path_factory.mktemp("served-games")


@pytest.fixture(scope="session")
def served_games(served: str, served_games_dir: Path) -> Path:
    """The games folder of the ``served`` server (``$RULESBOOK_GAMES_DIR`` of a reused one): a
    test may put a stored game there (a fresh game id each, so tests never meet)."""
    if os.environ.get("RULESBOOK_SERVED"):
        games = os.environ.get("RULESBOOK_GAMES_DIR")
        if not games:
            pytest.skip("RULESBOOK_SERVED without RULESBOOK_GAMES_DIR: the server's games folder is unknown")
        return Path(games)
    return served_games_dir


@pytest.fixture(scope="session")
def served(
    tmp_path_factory: pytest.TempPathFactory, served_site: Path, served_games_dir: Path
) -> Iterator[str]:
    reuse = os.environ.get("RULESBOOK_SERVED")
    if reuse:  # a server already running (started from this checkout): no site build
        yield reuse.rstrip("/")
        return
    port = _free_port()
    site = served_site  # built once for the run (tests/conftest.py), served as built
    log = (tmp_path_factory.mktemp("served-log") / "server.log").open("w")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
    env["RULESBOOK_GAMES_DIR"] = str(served_games_dir)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rulesbook.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--site-dir",
            str(site),
            "--no-build",
            "--time-limit",  # wall time no answer here reaches, however busy the machine
            "600",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    with running(proc, log, f"{base}/site/", "rulesbook serve", timeout=240):
        yield base


@contextmanager
def running(
    proc: subprocess.Popen[Any], log: Any, ready_url: str, what: str, timeout: float
) -> Iterator[None]:
    """Wait until ``ready_url`` answers 200 (failing early if ``proc`` exits); stop ``proc`` after."""
    deadline = time.monotonic() + timeout
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{what} exited with {proc.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(ready_url, timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not answer within {timeout:.0f} s; see {log.name}")
            time.sleep(0.5)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("RULESBOOK_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is missing; scripts/test installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        instance = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield instance
        instance.close()


WAIT_MS = 30_000
"""How long a page may take to reach a state it is waited for (every wait in these tests: the
page's own, ``expect``'s and :func:`until`'s). A wait is for a state, never for a time: a busy
machine reaches it later, and a state that never comes fails after this."""


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    pg = context.new_page()
    pg.set_default_timeout(WAIT_MS)
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)  # as the page's waits: a loaded machine answers late, not wrong
    external: list[str] = []
    local = ("http://127.0.0.1", "http://localhost", "data:", "blob:", "about:")
    pg.on("request", lambda req: None if req.url.startswith(local) else external.append(req.url))
    pg.external_requests = external
    yield pg
    context.close()


def until(page: Any, check: Callable[[], bool]) -> bool:
    """Whether ``check()`` comes true, asked every 100 ms for up to ``WAIT_MS`` (through the page,
    so its events keep running): for a state a locator cannot name, such as a box's position on
    screen or the address of a frame."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not check():
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(100)
    return True


def read_value(frame: Any, key: str) -> str:
    """Text of the result value ``data-key=key`` (pierces Panel's shadow DOM)."""
    loc = frame.locator(f'[data-key="{key}"]').first
    loc.wait_for()
    return str(loc.inner_text())


def set_number(frame: Any, key: str, value: int | str) -> None:
    """Type into the generated input ``rb-input-<key>`` and commit it."""
    box = frame.locator(f".rb-input-{key} input").first
    box.fill(str(value))
    box.press("Enter")


def choose_event_kind(page: Any, kind: str) -> None:
    """Choose the tracker's event kind and wait until the server has answered with its form.

    The server relabels the event form's boxes for the kind and resets their values to its
    defaults, so a value typed before that answer arrives is overwritten (under load, a bunker
    typed as 4 counted as 1). The answer has arrived when the boxes the kind declares are shown,
    the number box under its own label, and every other box is hidden: no two kinds look alike.
    """
    page.locator(".am-event-type select").first.select_option(kind)
    boxes = form_boxes(kind)
    for slot in FORM_SLOTS:
        css = f"div.am-{slot.replace('_', '-')}"  # (the box; the status's numbers are spans .am-number)
        if slot not in boxes:
            page.locator(css).first.wait_for(state="hidden")
        elif slot == "number":
            page.locator(css, has_text=boxes[slot].title).first.wait_for(state="visible")
        else:
            page.locator(css).first.wait_for(state="visible")
