"""The local rulebook server: the built site and every calculator live, offline.

Routes (one Panel/Bokeh server; one process, or ``processes`` on the one port):

* ``/`` redirects to ``/site/`` (``GET`` and ``HEAD``) — the mkdocs site (built first unless
  ``build=False``, into a per-user cache folder unless ``site_dir`` names one); a path with a NUL byte is a 400, an unknown path — or one climbing out of
  the site, ``/site/../x`` — a 404 page linking home;
* ``/calc/<calculator-id>`` — the generated Panel app of every registered calculator (inputs
  and a compared variant can be given in the query string: ``?ld=7&variant=NAME``), and of every
  calculator a listed variant adds (``add: calculators``: the operator's, in
  ``$RULESBOOK_VARIANTS_DIR`` or ``--variants``), computing under that variant;
* ``/app/<name>`` — the special apps systems declare (:class:`rulesbook.registry.App`);
* ``/api/v1/...`` — the JSON HTTP API (:mod:`widgets.server.http_api`, answers from
  :mod:`rulesbook.api.json_api`), computing in the same worker pool.

Every session runs on one event loop, so nothing slow may run there: calculators send their
answers to a :class:`~widgets.server.workers.ComputePool` of worker processes (one more than the cores;
each answer limited to ``time_limit`` seconds), and a page opens without waiting for its first
answer (the result pane fills in when it arrives, marked "updating…" until then). New sessions'
documents are built in a builder thread of their own, one at a time in the order they were asked
for, so the event loop goes on answering while pages are built (:func:`widgets.server.sessions.build_sessions_off_the_loop`),
and Bokeh's development-time checks are skipped (:func:`widgets.server.sessions.without_development_checks`; the tests
validate every served page instead). Building a page is Python holding the interpreter lock
(60-130 ms of CPU here), so one server process builds about ten pages a second however many
arrive at once: see bench/README.md (``server_load.py``) for fifty players at once. With
``processes`` > 1 (``rulesbook serve --processes N``) each process builds the sessions whose
websockets it receives (:func:`widgets.server.sessions.several_processes`).

Panel's own resources are served by this server (no CDN). Start it with ``rulesbook serve``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tornado.web import HTTPError, RedirectHandler, RequestHandler, StaticFileHandler

from rulesbook.registry import registry
from rulesbook.site.output import prepare_site
from rulesbook.variants import variant_calculators
from widgets.server.hosts import allowed_hosts, refuse_framing, refuse_other_hosts
from widgets.server.http_api import api_routes
from widgets.server.sessions import prepare_server
from widgets.server.workers import ComputePool, default_workers, log_to_stderr

__all__ = [
    "HTTP_LIMITS",
    "NOT_FOUND",
    "app_factories",
    "serve",
    "site_routes",
]


HTTP_LIMITS = {"body_timeout": 30.0, "idle_connection_timeout": 60.0, "max_body_size": 2_000_000}
"""How long and how much the server reads of one HTTP request (tornado's ``HTTPServer`` options):
a request body must arrive within 30 s, a connection that sends nothing for 60 s is closed (a
slow sender cannot hold connections open), and no body over 2 MB is read (the API's limit is
smaller, :data:`widgets.server.http_api.MAX_BODY_BYTES`; an upload of at most 1 MB travels over the
page's websocket)."""


def _calculator_view(calc_id: str, pool: ComputePool | None, added_by: str = "") -> Callable[[], Any]:
    """A factory (a plain function: Panel calls it once per browser session); ``added_by``: the
    listed variant that adds the calculator."""

    def view() -> Any:
        from widgets.forms.panel_app import served_calculator_app

        return served_calculator_app(calc_id, pool, added_by)

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


def _add_variant_folders(folders: tuple[str, ...]) -> None:
    """Offer the variants in ``folders`` too (``$RULESBOOK_VARIANTS_DIR`` of this process and the
    worker processes it starts)."""
    from rulesbook.errors import InputError
    from rulesbook.variants.model import VARIANTS_DIR_ENV, user_variants

    for folder in folders:
        if not Path(folder).expanduser().is_dir():
            raise InputError("--variants", f"expected a folder of variant files, got {folder!r}")
    known = [f for f in os.environ.get(VARIANTS_DIR_ENV, "").split(os.pathsep) if f.strip()]
    added = [str(Path(f).expanduser().resolve()) for f in folders]
    if added:
        os.environ[VARIANTS_DIR_ENV] = os.pathsep.join([*known, *added])
    user_variants()  # a file that does not load: its one line in the log now, not at the first page


def app_factories(pool: ComputePool | None = None) -> dict[str, Callable[[], Any]]:
    """URL path -> Panel app factory for every calculator and every declared special app
    (calculators compute in ``pool`` when one is given, else on the event loop)."""
    apps: dict[str, Callable[[], Any]] = {
        f"calc/{calc_id}": _calculator_view(calc_id, pool) for calc_id in registry().calculators
    }
    for calc_id, variant in variant_calculators().items():  # the operator's variants add them
        apps[f"calc/{calc_id}"] = _calculator_view(calc_id, pool, variant)
    from widgets.server.page import live_page

    for app in registry().apps.values():  # declared by their systems (rulesbook.registry.App)
        module, func = app.panel_factory
        apps[f"app/{app.name}"] = getattr(importlib.import_module(module), func)
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
    allow_hosts: tuple[str, ...] = (),
    variants_dirs: tuple[str, ...] = (),
) -> None:
    """Build the site (unless ``build`` is False and it exists) and serve everything.

    The site goes to ``site_dir`` (default: a per-user cache folder; see
    :func:`rulesbook.site.output.prepare_site`).

    Answers are computed by ``workers`` processes (default: one more than the cores), each
    answer stopped after ``time_limit`` seconds with a one-line message.

    ``processes`` > 1 runs that many server processes on the one port (Bokeh's ``num_procs``),
    each with its own sessions and its own ``workers`` (default then: the cores shared out, plus
    one); see :func:`widgets.server.sessions.several_processes`.

    Only requests whose ``Host`` is ``localhost``, ``127.0.0.1``, ``[::1]``, ``host`` or one of
    ``allow_hosts`` are answered, and a websocket only from an ``http``/``https`` page of such a
    name (:mod:`widgets.server.hosts`).

    ``variants_dirs`` (``--variants DIR``) are folders of variants offered by name beside the
    shipped ones and ``$RULESBOOK_VARIANTS_DIR``'s: the operator's choice, made here, once. A
    request picks among those names and never names a file (docs/serving.md, "What the server
    trusts").
    """
    import panel as pn

    from widgets.server.page import page_title

    log_to_stderr()
    _add_variant_folders(variants_dirs)  # before the worker processes start: they inherit it
    site = prepare_site(site_dir, build)
    pn.extension(inline=True)
    if processes > 1:
        workers = workers or default_workers(processes)
    pool = ComputePool(workers, time_limit, lazy=processes > 1)  # (then started in each process)
    apps = app_factories(pool)
    allowed = allowed_hosts(host, allow_hosts)
    # (Bokeh checks a websocket's Origin with its port too; an IPv6 address is written in brackets,
    # which Bokeh's option refuses: those are added to the running server's list below)
    origins = [f"[{h}]:{port}" if ":" in h else f"{h}:{port}" for h in sorted(allowed)]
    patterns = site_routes(site) + api_routes(pool, origins)  # the JSON API (widgets.server.http_api)
    print(
        f"rulesbook: serving http://{host}:{port}/ (site), {len(apps)} live apps under /calc/ and /app/"
        " and the JSON API under /api/v1/;"
        f" {pool.workers} worker processes compute the answers (at most {time_limit:g} s each)"
        + (f", in each of {processes} server processes" if processes > 1 else ""),
        flush=True,
    )
    prepare_server(processes)
    extra: dict[str, Any] = {"num_procs": processes} if processes > 1 else {}
    try:
        server = pn.serve(
            apps,
            port=port,
            address=host,
            show=show,
            title={k: page_title(k) for k in apps},
            default_handler_class=_NotFound,
            websocket_origin=[o for o in origins if not o.startswith("[")],
            extra_patterns=patterns,
            threaded=False,
            start=False,
            http_server_kwargs=dict(HTTP_LIMITS),
            **extra,
        )
        # (Bokeh's Server keeps its tornado application in ``_tornado``; each forked process
        # returns here with its own copy, so the check is in front of every process's routes)
        server._tornado.websocket_origins.update(origins)  # (the IPv6 ones too)
        refuse_other_hosts(server._tornado, allowed)
        refuse_framing(server._tornado)
        server.start()
        server.io_loop.start()
    finally:
        pool.shutdown()
