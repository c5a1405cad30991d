"""The local rulebook server: the built site and every calculator live, offline.

Routes (one Panel/Bokeh server; one process, or ``processes`` on the one port):

* ``/`` redirects to ``/site/`` (``GET`` and ``HEAD``) — the mkdocs site (built first unless
  ``build=False``, into a per-user cache folder unless ``site_dir`` names one); a path with a NUL byte is a 400, an unknown path — or one climbing out of
  the site, ``/site/../x`` — a 404 page linking home;
* ``/calc/<calculator-id>`` — the generated Panel app of every registered calculator (inputs
  and a compared variant can be given in the query string: ``?ld=7&variant=NAME``);
* ``/app/<name>`` — special apps that systems declare in ``widgets/<system>_app.py`` (``APPS``).

Every session runs on one event loop, so nothing slow may run there: calculators send their
answers to a :class:`~widgets.workers.ComputePool` of worker processes (one more than the cores;
each answer limited to ``time_limit`` seconds), and a page opens without waiting for its first
answer (the result pane fills in when it arrives, marked "updating…" until then). New sessions'
documents are built in a builder thread of their own, one at a time in the order they were asked
for, so the event loop goes on answering while pages are built (:func:`_build_sessions_off_the_loop`),
and Bokeh's development-time checks are skipped (:func:`_without_development_checks`; the tests
validate every served page instead). Building a page is Python holding the interpreter lock
(60-130 ms of CPU here), so one server process builds about ten pages a second however many
arrive at once: see bench/README.md (``server_load.py``) for fifty players at once. With
``processes`` > 1 (``rulesbook serve --processes N``) each process builds the sessions whose
websockets it receives (:func:`_several_processes`).

Panel's own resources are served by this server (no CDN). Start it with ``rulesbook serve``.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import pkgutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tornado.web import HTTPError, RedirectHandler, RequestHandler, StaticFileHandler

from rulesbook.errors import InputError, quote
from rulesbook.registry import registry
from widgets.workers import ComputePool, default_workers

__all__ = [
    "NOT_FOUND",
    "SITE_MARK",
    "app_factories",
    "build_site",
    "default_site_dir",
    "prepare_site",
    "serve",
    "site_routes",
]

PROJECT = Path(__file__).resolve().parent.parent


SITE_MARK = ".rulesbook-site"
"""The file a build leaves in its site folder: a later build may empty that folder again."""


def default_site_dir() -> Path:
    """Where ``rulesbook serve`` builds the site unless told: a per-user cache folder.

    ``$XDG_CACHE_HOME`` (else ``~/.cache``; ``%LOCALAPPDATA%`` on Windows, ``~/Library/Caches``
    on macOS) ``/rulesbook/site-<checkout>``, one folder per project checkout (a short hash of
    its path), so serving never writes into the working directory nor into the project.

    >>> default_site_dir().parent.name, default_site_dir().name.startswith("site-")
    ('rulesbook', True)
    """
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    checkout = hashlib.sha256(str(PROJECT).encode()).hexdigest()[:10]
    return base / "rulesbook" / f"site-{checkout}"


def prepare_site(site_dir: str | Path | None, build: bool = True) -> Path:
    """The folder to serve, built first when asked (or when it holds no site yet).

    ``None`` means :func:`default_site_dir`; a relative ``site_dir`` is taken from the working
    directory. A build empties the folder first (mkdocs), so it refuses a folder that is neither
    empty nor an earlier build (marked by :data:`SITE_MARK`, or holding ``index.html`` and
    ``404.html``): ``--site-dir .`` must never wipe the user's files.
    """
    site = default_site_dir() if site_dir is None else Path(site_dir).expanduser().absolute()
    if not build and (site / "index.html").is_file():
        return site
    if site.exists() and not site.is_dir():
        raise InputError("site-dir", f"{quote(str(site))} is a file, not a folder")
    earlier = (site / SITE_MARK).is_file() or all((site / n).is_file() for n in ("index.html", "404.html"))
    if site.is_dir() and not earlier and any(site.iterdir()):
        raise InputError(
            "site-dir",
            f"{quote(str(site))} holds other files and a build would delete them; "
            "name an empty or new folder (or leave --site-dir out: a per-user cache folder)",
        )
    print(f"rulesbook: building the site into {site} ...", flush=True)
    build_site(site)
    (site / SITE_MARK).write_text(
        "built by rulesbook serve; the next build empties this folder\n", encoding="utf-8"
    )
    return site


def build_site(site_dir: Path, project: Path = PROJECT) -> None:
    """Run ``mkdocs build --strict`` into ``site_dir`` (raises on failure).

    This is the *served* flavour of the site (``RULESBOOK_STATIC=false``): directory URLs, and
    calculator pages that link and embed the live calculators this server provides. The
    theme's and mkdocs' end-of-life banners are switched off: a player starting the server
    should see where it serves, not a notice about the site generator's future.
    """
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "DISABLE_MKDOCS_2_WARNING": "true",
        "RULESBOOK_STATIC": "false",
    }
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "-f",
            str(project / "mkdocs.yml"),
            "-d",
            str(site_dir),
        ],
        cwd=project,
        check=True,
        env=env,
    )


def _calculator_view(calc_id: str, pool: ComputePool | None) -> Callable[[], Any]:
    """A factory (a plain function: Panel calls it once per browser session)."""

    def view() -> Any:
        from widgets.panel_app import served_calculator_app

        return served_calculator_app(calc_id, pool)

    view.__name__ = calc_id
    return view


class _Redirect(RedirectHandler):
    """A redirect that also answers ``HEAD`` (tornado's answers it with 405)."""

    def head(self, *args: Any) -> None:
        self.get(*args)


NOT_FOUND = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    '<title>Not found · rulesbook</title></head><body style="font-family:sans-serif">'
    "<h1>Not found</h1><p>There is no page here. "
    '<a href="/site/">Back to the rulesbook site</a> · '
    '<a href="/site/live/">all live calculators</a></p></body></html>'
)


class _NotFound(RequestHandler):
    """Every unknown URL: a small 404 page with a way back (``GET`` and ``HEAD``)."""

    def prepare(self) -> None:
        self.set_status(404)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(NOT_FOUND if self.request.method != "HEAD" else None)


class _SiteFiles(StaticFileHandler):
    """The built site. A path the file system cannot hold (a NUL byte) is a 400, not a 500; a
    path that climbs out of the site (``/site/../x``, ``/site/%2e%2e/x``) or names a folder
    without a page gets the same not-found page as a missing file (404), not tornado's 403."""

    @classmethod
    def get_absolute_path(cls, root: str, path: str) -> str:
        if "\x00" in path:
            raise HTTPError(400, reason="bad path")
        return str(super().get_absolute_path(root, path))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code not in (403, 404):
            super().write_error(status_code, **kwargs)
            return
        self.set_status(404)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(NOT_FOUND if self.request.method != "HEAD" else None)


def site_routes(site: Path) -> list[tuple[Any, ...]]:
    """The tornado routes of the built site in ``site``: ``/`` and ``/site`` redirect to ``/site/``."""
    return [
        (r"/", _Redirect, {"url": "/site/"}),
        (r"/site", _Redirect, {"url": "/site/"}),
        (r"/site/(.*)", _SiteFiles, {"path": str(site), "default_filename": "index.html"}),
    ]


def app_factories(pool: ComputePool | None = None) -> dict[str, Callable[[], Any]]:
    """URL path -> Panel app factory for every calculator and every declared special app
    (calculators compute in ``pool`` when one is given, else on the event loop)."""
    apps: dict[str, Callable[[], Any]] = {
        f"calc/{calc_id}": _calculator_view(calc_id, pool) for calc_id in registry().calculators
    }
    import widgets
    from widgets.page import live_page

    for info in pkgutil.iter_modules(widgets.__path__):
        if info.name.endswith("_app"):
            module = importlib.import_module(f"widgets.{info.name}")
            for name, factory in getattr(module, "APPS", {}).items():
                apps[f"app/{name}"] = factory
    return {path: live_page(factory, path) for path, factory in apps.items()}


def serve(
    *,
    port: int = 8765,
    host: str = "localhost",
    build: bool = True,
    site_dir: str | Path | None = None,
    show: bool = False,
    workers: int | None = None,
    time_limit: float = 10.0,
    processes: int = 1,
) -> None:
    """Build the site (unless ``build`` is False and it exists) and serve everything.

    The site goes to ``site_dir`` (default: :func:`default_site_dir`, a per-user cache folder;
    see :func:`prepare_site`).

    Answers are computed by ``workers`` processes (default: one more than the cores), each
    answer stopped after ``time_limit`` seconds with a one-line message.

    ``processes`` > 1 runs that many server processes on the one port (Bokeh's ``num_procs``),
    each with its own sessions and its own ``workers`` (default then: the cores shared out, plus
    one); see :func:`_several_processes`.
    """
    import panel as pn

    from widgets.page import page_title

    site = prepare_site(site_dir, build)
    pn.extension(inline=True)
    patterns = site_routes(site)
    if processes > 1:
        workers = workers or default_workers(processes)
    pool = ComputePool(workers, time_limit, lazy=processes > 1)  # (then started in each process)
    apps = app_factories(pool)
    origins = [f"{h}:{port}" for h in ("localhost", "127.0.0.1", host)]
    print(
        f"rulesbook: serving http://{host}:{port}/ (site) and {len(apps)} live apps under /calc/ and /app/;"
        f" {pool.workers} worker processes compute the answers (at most {time_limit:g} s each)"
        + (f", in each of {processes} server processes" if processes > 1 else ""),
        flush=True,
    )
    _answer_without_waiting()
    _without_nagle()
    _without_development_checks()
    _page_resources_once()
    extra: dict[str, Any] = {}
    if processes > 1:
        _several_processes()
        extra["num_procs"] = processes
    else:
        _build_sessions_off_the_loop()
    try:
        pn.serve(
            apps,
            port=port,
            address=host,
            show=show,
            title={k: page_title(k) for k in apps},
            default_handler_class=_NotFound,
            websocket_origin=origins,
            extra_patterns=patterns,
            threaded=False,
            **extra,
        )
    finally:
        pool.shutdown()


BROWSER_CHANGE_DELAY_MS = 0
"""How long the server lets a change from the browser wait for others before handling it."""


def _answer_without_waiting() -> None:
    """Handle a value from the browser at once instead of after Panel's 50 ms pause.

    Panel holds every change that arrives from a browser for ``Syncable._debounce`` (50 ms) to
    batch a burst of them, so every live answer reached the screen ~50 ms after it could have
    (bench/browser_latency.py: 68 ms for a calculator answered in 3 ms). Typing is already
    debounced in the page where it matters (widgets/live.py: slow calculators wait for a pause),
    so the server does not wait at all; an answer made stale by a later change is dropped anyway
    (widgets/panel_app.py answers only the newest values).
    """
    from panel.reactive import Syncable

    Syncable._debounce = BROWSER_CHANGE_DELAY_MS


def _without_nagle() -> None:
    """Send each answer whole at once: TCP_NODELAY on the live pages' websockets.

    Bokeh writes one message as several websocket frames (header, buffers, content). With Nagle's
    algorithm on (Tornado's default for websockets), a frame written while an earlier one is not yet
    acknowledged waits for that acknowledgement, which the browser delays (~40 ms on Linux): the
    header of an answer arrived at once and its content ~40 ms later (seen in the page's websocket).
    """
    from panel.io.server import WSHandler

    if getattr(WSHandler, "_rulesbook_nodelay", False):
        return
    opened = WSHandler.open

    def open_without_delay(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.set_nodelay(True)
        return opened(self, *args, **kwargs)

    WSHandler.open = open_without_delay  # type: ignore[method-assign]
    WSHandler._rulesbook_nodelay = True  # type: ignore[attr-defined]


def _without_development_checks() -> None:
    """Skip Bokeh's development-time checks on every session: the signature check of each of the
    hundreds of change callbacks a page registers (``perform_error_diagnostics``) and the layout
    validation of each new document (``perform_document_validation``).

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


def _build_sessions_off_the_loop() -> None:
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

    from bokeh.server.contexts import ApplicationContext

    global _session_builders
    if getattr(ApplicationContext, "_rulesbook_builders", False):
        return
    _session_builders = ThreadPoolExecutor(SESSION_BUILDERS, thread_name_prefix="rulesbook-session")
    bokeh_own = ApplicationContext._initialize_document_async

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

    ApplicationContext._initialize_document_async = initialize_in_builder  # type: ignore[method-assign]
    ApplicationContext._rulesbook_builders = True  # type: ignore[attr-defined]


def _page_resources_once() -> None:
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

    import panel.io.server as panel_server
    from bokeh.models import Axis, Plot
    from bokeh.models.annotations import Annotation
    from bokeh.models.glyph import Glyph
    from bokeh.models.text import BaseText
    from panel.config import panel_extension
    from panel.io.state import state

    if getattr(panel_server, "_rulesbook_bundles", False):
        return
    panel_own = panel_server.bundle_resources  # type: ignore[attr-defined]
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

    panel_server.bundle_resources = bundle_resources  # type: ignore[attr-defined]
    panel_server._rulesbook_bundles = True  # type: ignore[attr-defined]


def _reuse_page_sessions() -> None:
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
    from panel.io.server import DocHandler
    from panel.io.state import state

    config.reuse_sessions = True
    if getattr(DocHandler, "_rulesbook_reuse", False):
        return
    panel_get: Any = DocHandler.get
    first: dict[str, asyncio.Lock] = {}

    async def get_after_the_first(self: Any, *args: Any, **kwargs: Any) -> Any:
        path = self.request.path
        if path in state._session_key_funcs:  # (Panel's mark that one was built for this path)
            return await panel_get(self, *args, **kwargs)
        # Panel decides whether to reuse before it waits for the session: wait here instead,
        # or every request arriving during the first build would be given the first session
        async with first.setdefault(path, asyncio.Lock()):
            return await panel_get(self, *args, **kwargs)

    DocHandler.get = get_after_the_first  # type: ignore[method-assign]
    DocHandler._rulesbook_reuse = True  # type: ignore[attr-defined]


def _processes_end_with_the_server() -> None:
    """Each forked server process ends when the process that started them ends (Linux's parent
    death signal), so stopping ``rulesbook serve`` stops all of them."""
    import ctypes
    import signal

    def in_child() -> None:
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG

    os.register_at_fork(after_in_child=in_child)


def _several_processes() -> None:
    """Serve from several processes (``rulesbook serve --processes N``), each session built once.

    A page request is rendered from a session already built for that page
    (:func:`_reuse_page_sessions`), so only the process that receives the page's websocket
    builds the player's session. That process builds it on its event loop, and each process
    accepts one new connection per turn of its loop: a process busy building does not accept
    the next connection, so the system hands it to a process that is free. (With a builder
    thread, the loop of a busy process stays free to accept, and one process took two thirds of
    the websockets; tornado's loop also accepts up to 128 waiting connections at once.)
    """
    import asyncio

    import tornado.netutil
    from bokeh.server.contexts import ApplicationContext

    _reuse_page_sessions()
    _processes_end_with_the_server()
    tornado.netutil._DEFAULT_BACKLOG = 1  # (read by its accept loop)

    async def initialize_here(self: Any, doc: Any) -> None:
        self._application.initialize_document(doc)
        _local_stylesheets(doc)
        await asyncio.sleep(0)

    ApplicationContext._initialize_document_async = initialize_here  # type: ignore[method-assign]


def _local_stylesheets(doc: Any) -> None:
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
