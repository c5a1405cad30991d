"""A tab that closes while an update is on its way to it leaves no traceback in the server's log
(the four-tab tracker test reads that log), while every other error still does."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from tornado.iostream import StreamClosedError
from tornado.websocket import WebSocketClosedError

from widgets.server.sessions import CLOSED_TAB_LOGGERS, ClosedTabFilter, quiet_closed_tabs

ROOT = Path(__file__).resolve().parents[1]


def _raise(error: Exception) -> None:
    raise error


@pytest.mark.parametrize("name", CLOSED_TAB_LOGGERS)
def test_a_write_to_a_closed_tab_is_not_logged_but_a_real_error_is(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    quiet_closed_tabs()
    quiet_closed_tabs()  # twice: still one filter
    logger = logging.getLogger(name)
    assert sum(isinstance(f, ClosedTabFilter) for f in logger.filters) == 1
    with caplog.at_level(logging.ERROR, logger=name):
        for error in (WebSocketClosedError(), ValueError("a real error")):
            try:
                _raise(error)
            except Exception:
                logger.exception("Exception in callback")
        try:  # a closed stream under another exception (tornado raises it "from" the stream's)
            try:
                _raise(StreamClosedError())
            except StreamClosedError as closed:
                raise RuntimeError("write failed") from closed
        except RuntimeError:
            logger.exception("Task exception was never retrieved")
    assert [r.exc_info[0] for r in caplog.records if r.exc_info] == [ValueError]


def test_the_server_quiets_closed_tabs() -> None:
    """``prepare_server`` (which ``rulesbook serve`` calls) sets the filters; in a process of its
    own, since it also changes Panel and Bokeh for the rest of its life."""
    code = (
        "import logging\n"
        "from widgets.server.sessions import CLOSED_TAB_LOGGERS, ClosedTabFilter, prepare_server\n"
        "prepare_server(1)\n"
        "print(all(any(isinstance(f, ClosedTabFilter) for f in logging.getLogger(n).filters)"
        " for n in CLOSED_TAB_LOGGERS))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.strip() == "True"
