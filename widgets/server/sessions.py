"""How the live server builds its players' sessions, and the framework patches that make it fast.

A session's page is a few dozen Bokeh models built by Python code holding the interpreter lock,
so the policy is: build new sessions one at a time in a thread of their own
(:func:`build_sessions_off_the_loop`), or with several server processes let each build the
sessions whose websockets it receives (:func:`several_processes`); answer browser changes at
once (:func:`answer_without_waiting`, :func:`without_nagle`); work out a page's resource list
once per kind of page (:func:`page_resources_once`). Each change to a framework's internals is a
declared :func:`~widgets.server.patches.framework_patch` (targets, framework version, fingerprint; the
docstring says why), checked by ``tests/test_patches.py``. :func:`prepare_server` applies them.
"""

from __future__ import annotations

import contextlib
import logging
import os
from typing import Any

from tornado.iostream import StreamClosedError
from tornado.websocket import WebSocketClosedError

from widgets.server.patches import framework_patch, original, replace

__all__ = [
    "BROWSER_CHANGE_DELAY_MS",
    "CLOSED_TAB_LOGGERS",
    "SESSION_BUILDERS",
    "ClosedTabFilter",
    "answer_without_waiting",
    "build_sessions_off_the_loop",
    "local_stylesheets",
    "page_resources_once",
    "prepare_server",
    "processes_end_with_the_server",
    "quiet_closed_tabs",
    "reuse_page_sessions",
    "several_processes",
    "without_development_checks",
    "without_nagle",
]


def prepare_server(processes: int) -> None:
    """Apply the session policy and the patches for a server of ``processes`` processes."""
    quiet_closed_tabs()
    answer_without_waiting()
    ipv6_page_addresses()
    without_nagle()
    without_development_checks()
    page_resources_once()
    if processes > 1:
        several_processes()
    else:
        build_sessions_off_the_loop()


CLOSED_TAB_LOGGERS = ("tornado.application", "asyncio")
"""Where an update sent to a tab that has just closed is logged as an error with its traceback:
tornado's runner of callbacks and asyncio's report of a task's exception nobody retrieved."""


class ClosedTabFilter(logging.Filter):
    """Drops a log record whose exception (or what caused it) is a write to a closed connection.

    >>> def record(error: Exception) -> logging.LogRecord:
    ...     info = (type(error), error, None)
    ...     return logging.LogRecord("tornado.application", logging.ERROR, "", 0, "Exception in callback", None, info)
    >>> quiet = ClosedTabFilter()
    >>> quiet.filter(record(WebSocketClosedError())), quiet.filter(record(ValueError("a real error")))
    (False, True)
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        while error is not None:
            if isinstance(error, WebSocketClosedError | StreamClosedError):
                return False
            error = error.__cause__ or error.__context__
        return True


def quiet_closed_tabs() -> None:
    """Log no traceback for an update that reached a tab just as it closed.

    A page's periodic check (the tracker's, every second) or a change pushed to it may be on its
    way when its tab closes; tornado then raises ``WebSocketClosedError`` in that callback and logs
    it with a traceback, though nothing is lost (the game is on disk, the page is gone). On a busy
    machine, with several tabs open, that happens often enough to bury a real error: such records
    are dropped from :data:`CLOSED_TAB_LOGGERS`, every other one is still logged whole.
    """
    for name in CLOSED_TAB_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ClosedTabFilter) for f in logger.filters):
            logger.addFilter(ClosedTabFilter())


BROWSER_CHANGE_DELAY_MS = 0
"""How long the server lets a change from the browser wait for others before handling it."""


@framework_patch(
    framework="panel",
    version="1.10.0",
    targets=("panel.reactive:Syncable._debounce",),
    fingerprint="b02202db8d0c58f7",
)
def answer_without_waiting() -> None:
    """Handle a value from the browser at once instead of after Panel's 50 ms pause.

    Panel holds every change that arrives from a browser for ``Syncable._debounce`` (50 ms) to
    batch a burst of them, so every live answer reached the screen ~50 ms after it could have
    (bench/browser_latency.py: 68 ms for a calculator answered in 3 ms). Typing is already
    debounced in the page where it matters (widgets/forms/live.py: slow calculators wait for a pause),
    so the server does not wait at all; an answer made stale by a later change is dropped anyway
    (widgets/forms/panel_app.py answers only the newest values).
    """
    replace("panel.reactive:Syncable._debounce", BROWSER_CHANGE_DELAY_MS)


@framework_patch(
    framework="panel",
    version="1.10.0",
    targets=("panel.io.location:_get_location_params",),
    fingerprint="a3a6996924590195",
)
def ipv6_page_addresses() -> None:
    """Read a page's address whose host is an IPv6 address (``http://[::1]:8765/calc/ID``).

    Panel splits the request's ``Host`` at its colons to find the host name and port, so a page
    asked for at ``[::1]:8765`` (``rulesbook serve --host ::1``) failed with a 500 before it was
    built. The address is read as a browser reads it: ``hostname`` ``[::1]``, ``port`` ``8765``.
    """
    parse = original("panel.io.location:_get_location_params")

    def location_params(protocol: str | None, host: str | None, uri: str | None) -> dict[str, Any]:
        if not host or not host.startswith("["):
            return dict(parse(protocol, host, uri))
        found = dict(parse(protocol, None, uri))
        name, _, rest = host.partition("]")
        found["hostname"] = name + "]"
        if rest.startswith(":") and rest[1:]:
            found["port"] = rest[1:]
        scheme = f"{protocol}:" if protocol else ""
        found["href"] = f"{scheme}//{host}{found['href'][len(scheme) :]}"
        return found

    replace("panel.io.location:_get_location_params", location_params)


@framework_patch(
    framework="panel",
    version="1.10.0",
    targets=("panel.io.server:WSHandler.open",),
    fingerprint="2ed808dbf4767ffd",
)
def without_nagle() -> None:
    """Send each answer whole at once: TCP_NODELAY on the live pages' websockets.

    Bokeh writes one message as several websocket frames (header, buffers, content). With Nagle's
    algorithm on (Tornado's default for websockets), a frame written while an earlier one is not yet
    acknowledged waits for that acknowledgement, which the browser delays (~40 ms on Linux): the
    header of an answer arrived at once and its content ~40 ms later (seen in the page's websocket).
    """
    opened = original("panel.io.server:WSHandler.open")

    def open_without_delay(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.set_nodelay(True)
        return opened(self, *args, **kwargs)

    replace("panel.io.server:WSHandler.open", open_without_delay)


def without_development_checks() -> None:
    """Skip Bokeh's development-time checks on every session: the signature check of each of the
    hundreds of change callbacks a page registers (``perform_error_diagnostics``) and the layout
    validation of each new document (``perform_document_validation``). Public settings of
    Bokeh's, so not a patch.

    Together they were about a tenth of the CPU a page costs to build. Every served app's
    document is validated by the tests instead (tests/test_server_load.py), which is where a
    layout mistake can be fixed; a server cannot do more with the warning than log it.
    """
    from bokeh.settings import settings

    settings.perform_error_diagnostics.set_value(False)
    settings.perform_document_validation.set_value(False)


SESSION_BUILDERS = 1
"""How many threads build new sessions' documents (Bokeh's default: the event loop's shared pool
of ``cores + 4`` threads, which also serializes every answer)."""

_session_builders: Any = None


@framework_patch(
    framework="bokeh",
    version="3.10.2",
    targets=(
        "bokeh.server.contexts:ApplicationContext._initialize_document_async",
        "bokeh.server.contexts:ApplicationContext._can_initialize_document_in_worker",
    ),
    fingerprint="755cc77c032cf1a6",
)
def build_sessions_off_the_loop() -> None:
    """Build new sessions in a thread of their own, one at a time, in the order they arrived.

    A session's document (a few dozen Bokeh models) is built by Python code that holds the GIL
    (60-130 ms of CPU on this machine), so threads cannot build two at once faster than one: with
    Bokeh's default of handing each build to the shared pool of ``cores + 4`` threads, fifty
    pages opened at once were built all together, each sharing the interpreter with the others
    and with the event loop — every page was ready only when the last one was (bench/README.md),
    and the event loop (every other player's answers, and the pool's own serializing of answers)
    got a seventh of the interpreter. With one builder thread the pages are built in the order
    they were asked for, each ready as soon as it is built, and the event loop shares the
    interpreter with one builder only.
    """
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    global _session_builders
    _session_builders = ThreadPoolExecutor(SESSION_BUILDERS, thread_name_prefix="rulesbook-session")
    bokeh_own = original("bokeh.server.contexts:ApplicationContext._initialize_document_async")

    async def initialize_in_builder(self: Any, doc: Any) -> None:
        if not self._can_initialize_document_in_worker():
            await bokeh_own(self, doc)  # (an app from a script: Bokeh builds it on the loop)
            return
        loop = asyncio.get_running_loop()
        worker = loop.run_in_executor(_session_builders, self._application.initialize_document, doc)
        try:
            await asyncio.shield(worker)
        except asyncio.CancelledError:
            # as Bokeh's own: a running build cannot be stopped; let it end before giving up
            with contextlib.suppress(Exception):
                await worker
            raise

    replace("bokeh.server.contexts:ApplicationContext._initialize_document_async", initialize_in_builder)


@framework_patch(
    framework="panel",
    version="1.10.0",
    targets=("panel.io.server:bundle_resources",),
    fingerprint="22b29dd1d2a03e57",
)
def page_resources_once() -> None:
    """Work out the script and style list of a page once per kind of page, not per request.

    Rendering a page's HTML asks Panel which resources its document needs
    (``panel.io.server.bundle_resources``): a walk over every model and Panel's whole table of
    declared resources, 10-20 ms of the event loop's time per page request (a quarter of the page
    request's CPU after the session is built; bench/README.md). The answer depends only on which
    kinds of models the page holds and on the request's resource mode and relative path, so it is
    kept per such key and a copy handed out. Documents with Bokeh plots or text models, whose
    MathJax need depends on their text, are always worked out afresh (the live pages have none).
    """
    import copy

    from bokeh.models import Axis, Plot
    from bokeh.models.annotations import Annotation
    from bokeh.models.glyph import Glyph
    from bokeh.models.text import BaseText
    from panel.config import panel_extension
    from panel.io.state import state

    panel_own = original("panel.io.server:bundle_resources")
    by_text = (Annotation, Axis, Glyph, Plot, BaseText)
    kept: dict[Any, Any] = {}

    def bundle_resources(roots: Any, resources: Any, *args: Any, **kwargs: Any) -> Any:
        doc = roots[0].document if roots else None
        if args or kwargs or doc is None:
            return panel_own(roots, resources, *args, **kwargs)
        kinds = frozenset(type(model) for model in doc.models)
        if any(issubclass(kind, by_text) for kind in kinds):
            return panel_own(roots, resources)
        key = (
            getattr(resources, "mode", None),
            getattr(resources, "root_url", None),
            getattr(resources, "absolute", None),
            state.rel_path,
            kinds,
            frozenset(panel_extension._loaded_extensions),
        )
        if key not in kept:
            kept[key] = panel_own(roots, resources)
        bundle = copy.copy(kept[key])  # (a caller may add to its lists: autoload scripts do)
        for name, value in vars(bundle).items():
            if isinstance(value, (list, dict)):
                setattr(bundle, name, copy.copy(value))
        return bundle

    replace("panel.io.server:bundle_resources", bundle_resources)


@framework_patch(
    framework="panel",
    version="1.10.0",
    targets=("panel.io.server:DocHandler.get", "panel.io.state:state._session_key_funcs"),
    fingerprint="c19f392d33125ed4",
)
def reuse_page_sessions() -> None:
    """Render a page request from a session already built for that page (Panel's
    ``reuse_sessions``), and let the page's websocket build the player's own session.

    With several server processes, the page request and its websocket are two connections that
    may reach different processes; a page request that built the session would have it built
    twice whenever they do. Here a process builds one session per page path (the first request;
    requests arriving meanwhile wait for it rather than building their own) and renders every
    later request of that path from it with a new session id that carries the request's own
    query string, so the websocket's process builds the player's session once, from that id.
    """
    import asyncio

    from panel.config import config
    from panel.io.state import state

    config.reuse_sessions = True
    panel_get: Any = original("panel.io.server:DocHandler.get")
    first: dict[str, asyncio.Lock] = {}

    async def get_after_the_first(self: Any, *args: Any, **kwargs: Any) -> Any:
        path = self.request.path
        if path in state._session_key_funcs:  # (Panel's mark that one was built for this path)
            return await panel_get(self, *args, **kwargs)
        # Panel decides whether to reuse before it waits for the session: wait here instead,
        # or every request arriving during the first build would be given the first session
        async with first.setdefault(path, asyncio.Lock()):
            return await panel_get(self, *args, **kwargs)

    replace("panel.io.server:DocHandler.get", get_after_the_first)


def processes_end_with_the_server() -> None:
    """Each forked server process ends when the process that started them ends (Linux's parent
    death signal), so stopping ``rulesbook serve`` stops all of them."""
    import ctypes
    import signal

    def in_child() -> None:
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG

    os.register_at_fork(after_in_child=in_child)


@framework_patch(
    framework="tornado",
    version="6.6.1",
    targets=(
        "tornado.netutil:_DEFAULT_BACKLOG",
        "tornado.netutil:add_accept_handler",
        "bokeh.server.contexts:ApplicationContext._initialize_document_async",
    ),
    fingerprint="1ee7c79da642bfd2",
)
def several_processes() -> None:
    """Serve from several processes (``rulesbook serve --processes N``), each session built once.

    A page request is rendered from a session already built for that page
    (:func:`reuse_page_sessions`), so only the process that receives the page's websocket
    builds the player's session. That process builds it on its event loop, and each process
    accepts one new connection per turn of its loop: a process busy building does not accept
    the next connection, so the system hands it to a process that is free. (With a builder
    thread, the loop of a busy process stays free to accept, and one process took two thirds of
    the websockets; tornado's loop also accepts up to 128 waiting connections at once.)
    """
    import asyncio

    reuse_page_sessions()
    processes_end_with_the_server()
    replace("tornado.netutil:_DEFAULT_BACKLOG", 1)  # (read by its accept loop)

    async def initialize_here(self: Any, doc: Any) -> None:
        self._application.initialize_document(doc)
        local_stylesheets(doc)
        await asyncio.sleep(0)

    replace("bokeh.server.contexts:ApplicationContext._initialize_document_async", initialize_here)


def local_stylesheets(doc: Any) -> None:
    """Point the document's Panel stylesheets at this server, as rendering its page would have.

    Panel rewrites them from its CDN to the server's own copy while it renders a session's page
    (``server_html_page_for_session``, which also notes the address for models made later); a
    session built for a websocket has no page of its own, and the offline site must never load a
    stylesheet from the network."""
    from panel.config import config
    from panel.io.resources import LOCAL_DIST, patch_model_css
    from panel.io.state import set_curdoc, state

    with set_curdoc(doc):
        dist_url = f"{state.rel_path}/{LOCAL_DIST}" if state.rel_path else LOCAL_DIST
        doc._template_variables["theme_name"] = config.theme
        doc._template_variables["dist_url"] = dist_url  # (models made later read it)
        for root in doc.roots:
            patch_model_css(root, dist_url=dist_url)
