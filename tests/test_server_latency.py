"""The two waits `rulesbook serve` removes from every live answer (bench/browser_latency.py):
Panel's 50 ms hold on changes from the browser, and Nagle's algorithm on the websockets."""

from __future__ import annotations

import contextlib
from typing import Any

from widgets.server import sessions as server


def test_changes_from_the_browser_are_handled_at_once() -> None:
    from panel.reactive import Syncable

    server.answer_without_waiting()
    assert Syncable._debounce == server.BROWSER_CHANGE_DELAY_MS == 0


def test_live_websockets_send_without_nagle() -> None:
    from panel.io.server import WSHandler

    server.without_nagle()
    server.without_nagle()  # twice: still one wrapper
    calls: list[Any] = []

    class Fake:
        def set_nodelay(self, value: bool) -> None:
            calls.append(("nodelay", value))

    original = WSHandler.open.__closure__[0].cell_contents  # type: ignore[attr-defined]
    assert getattr(original, "__name__", "") == "open"  # the wrapper wraps Panel's own open, once
    # Panel's own open needs a real request and fails here; the nodelay call came first
    with contextlib.suppress(AttributeError):
        WSHandler.open(Fake())
    assert calls == [("nodelay", True)]
