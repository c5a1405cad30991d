"""Many players on one ``rulesbook serve`` (issue 15; figures in bench/README.md, server_load.py).

* New sessions are built off the event loop, in a builder thread of their own, one at a time and
  in the order they were asked for, while the event loop keeps running (other players' answers).
* A slow answer in one session does not hold up another session's answers (a real server, the
  browser's protocol): every answer of a quick calculator arrives while the slow one's worker
  is held stopped, so it cannot have arrived first whatever the machine's load.
* The server skips Bokeh's document validation for speed, so the tests validate every served app;
  it works out a page's resources once per kind of page: the same list as Panel's, a copy each.

Ordering and events only: no timed thresholds.
"""

from __future__ import annotations

import asyncio
import html
import importlib.util
import os
import signal
import sys
import threading
import time
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from widgets.server import routes as server
from widgets.server import sessions

ROOT = Path(__file__).resolve().parents[1]


def test_sessions_are_built_one_at_a_time_in_order_while_the_event_loop_runs() -> None:
    from bokeh.server.contexts import ApplicationContext

    sessions.build_sessions_off_the_loop()
    sessions.build_sessions_off_the_loop()  # twice: still one wrapper, one builder thread
    events: list[tuple[str, int, str]] = []
    loop_ran = threading.Event()

    class App:
        def initialize_document(self, doc: int) -> None:
            events.append(("start", doc, threading.current_thread().name))
            loop_ran.clear()
            # the event loop gets to run while this document is being built
            assert loop_ran.wait(30), "the event loop did not run during a session build"
            events.append(("end", doc, threading.current_thread().name))

    context = SimpleNamespace(_can_initialize_document_in_worker=lambda: True, _application=App())

    async def main() -> None:
        done = False

        async def ticker() -> None:
            while not done:
                loop_ran.set()
                await asyncio.sleep(0)

        tick = asyncio.create_task(ticker())
        await asyncio.gather(*(ApplicationContext._initialize_document_async(context, d) for d in range(4)))  # type: ignore[arg-type]
        done = True
        await tick

    asyncio.run(main())
    # one at a time (each build ends before the next starts), in the order asked, never on the loop
    assert [(kind, doc) for kind, doc, _ in events] == [(k, d) for d in range(4) for k in ("start", "end")]
    assert {name for _, _, name in events} == {"rulesbook-session_0"}


class _NoPool:
    """A stand-in compute pool: the served layout without computing anything."""

    def submit(self, *args: Any) -> Any:
        raise AssertionError("nothing is computed while a page is only built")


def test_every_served_page_passes_bokeh_validation() -> None:
    import panel as pn
    from bokeh.core.validation.check import check_integrity
    from bokeh.document import Document
    from panel.io.state import set_curdoc

    import widgets.forms.panel_app as panel_app

    pn.extension(inline=True)
    apps = server.app_factories(_NoPool())  # type: ignore[arg-type]
    panel_app._recent_seconds.clear()
    try:
        for path, factory in apps.items():
            for calc_id in [path.removeprefix("calc/")] if path.startswith("calc/") else []:
                panel_app._note_answer_time(calc_id, 0.0)  # answered inline: no pool, no loop needed
            doc = Document()
            with set_curdoc(doc):
                factory().server_doc(doc)
            issues = check_integrity(list(doc.models))
            assert not issues.error, (path, issues.error)
            assert not issues.warning, (path, issues.warning)
    finally:
        panel_app._recent_seconds.clear()


def test_a_page_s_resources_are_the_same_when_kept_and_each_request_gets_its_own_copy() -> None:
    import panel as pn
    import panel.io.resources as panel_resources
    import panel.io.server as panel_server
    from bokeh.document import Document
    from bokeh.resources import Resources as BokehResources
    from panel.io.state import set_curdoc

    import widgets.forms.panel_app as panel_app

    pn.extension(inline=True)
    sessions.page_resources_once()
    sessions.page_resources_once()  # twice: still one wrapper
    apps = server.app_factories(_NoPool())  # type: ignore[arg-type]
    resources = panel_resources.Resources.from_bokeh(BokehResources(mode="server", root_url="/"))
    fields = ("js_files", "js_raw", "css_files", "css_raw", "hashes", "js_modules", "resource_declarations")
    for path in ("calc/scrollhammer.morale-check", "calc/wh40k.attack", "app/army-morale-tracker"):
        panel_app._note_answer_time(path.removeprefix("calc/"), 0.0)
        bundles = []
        for _ in range(3):  # three sessions of the same page
            doc = Document()
            with set_curdoc(doc):
                apps[path]().server_doc(doc)
                kept = panel_server.bundle_resources(doc.roots, resources)  # type: ignore[attr-defined]
                fresh = panel_resources.bundle_resources(doc.roots, resources)
            assert {f: getattr(kept, f) for f in fields} == {f: getattr(fresh, f) for f in fields}, path
            bundles.append(kept)
        bundles[0].js_raw.append("/* added by one request */")
        assert (
            bundles[1].js_raw == bundles[2].js_raw and "/* added by one request */" not in bundles[2].js_raw
        )
    panel_app._recent_seconds.clear()


def server_bench() -> ModuleType:
    """bench/server_load.py: its server starter and its browser-like session (the Bokeh protocol)."""
    spec = importlib.util.spec_from_file_location("server_load_bench", ROOT / "bench" / "server_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def served() -> Any:
    bench = server_bench()
    # a time limit no answer here reaches, however slowly a loaded machine runs the test
    proc, base = bench.start_server(workers=2, time_limit=600)
    try:
        yield bench, base, proc.pid
    finally:
        proc.terminate()
        proc.wait(30)


def _computing_worker(bench: Any, server_pid: int, before: dict[int, float], timeout: float = 120) -> int:
    """The compute worker (a process of the server's other than the server itself) that has used
    a quarter of a CPU second since ``before`` — the one working on the slow answer. CPU time,
    not wall time: however loaded the machine, the slow answer needs seconds of it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        servers = bench._server_cpu_s(server_pid)
        for pid in bench._descendants(server_pid):
            if pid not in servers and bench._cpu_s(pid) - before.get(pid, 0.0) >= 0.25:
                return int(pid)
        time.sleep(0.05)
    raise AssertionError("no worker process started computing the slow answer")


def test_a_slow_answer_does_not_hold_up_another_session(served: Any) -> None:
    """While the slow answer's worker is held stopped (SIGSTOP), so that the slow answer cannot
    arrive however fast or slow the machine is, every quick answer of another session still
    arrives; the slow answer arrives once its worker goes on. Ordering by construction, not by
    wall time: the test once compared the two answers' wall times, which parallel test runs on
    a loaded machine could turn round."""
    bench, base, server_pid = served
    from tornado.httpclient import AsyncHTTPClient

    async def main() -> tuple[list[str], str]:
        http = AsyncHTTPClient()
        slow = bench.Session(base, f"calc/{bench.SLOW_CALC}?{bench.SLOW_QUERY}")
        quick = bench.Session(base, "calc/scrollhammer.morale-check")
        stopped: list[int] = []
        try:
            await slow.open(http)
            await slow.first_answer(120)
            await quick.open(http)
            await quick.first_answer(120)
            before = {pid: bench._cpu_s(pid) for pid in bench._descendants(server_pid)}
            # the slowest input the calculators accept (seconds of exact arithmetic in a worker)
            slow_answer = asyncio.create_task(
                slow.change(f"rb-input-{bench.SLOW_KEY}", bench.SLOW_VALUES[0], 600)
            )
            worker = await asyncio.to_thread(_computing_worker, bench, server_pid, before)
            os.kill(worker, signal.SIGSTOP)
            stopped.append(worker)
            await asyncio.sleep(0)
            assert not slow_answer.done(), "the slow answer came before its worker was held"
            answers = []
            for ld in (4, 9, 6):
                answers.append(await quick.change("rb-input-ld", ld, 120))
                assert not slow_answer.done()  # (its worker is stopped: it cannot have come)
            os.kill(worker, signal.SIGCONT)
            stopped.clear()
            return answers, await slow_answer
        finally:
            for pid in stopped:
                os.kill(pid, signal.SIGCONT)
            slow.close()
            quick.close()

    answers, slow_text = asyncio.run(main())
    # (an HTML pane's text arrives HTML-escaped; unescaping the raw answer changes nothing we test)
    answers, slow_text = [html.unescape(text) for text in answers], html.unescape(slow_text)
    assert all('data-key="p_pass_exact"' in text for text in answers), answers
    assert 'data-key="error"' not in slow_text and 'data-key="' in slow_text, slow_text


def _api(base: str, path: str) -> tuple[int, str]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(base + path, timeout=120) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _cli_json(*words: str) -> str:
    from click.testing import CliRunner

    from rulesbook.cli import cli

    return str(CliRunner().invoke(cli, ["calc", *words, "--json"]).output)


def test_the_json_api_answers_from_the_worker_pool(served: Any) -> None:
    """``rulesbook serve`` routes ``/api/v1/`` (tests/test_http_api.py tests the routes in-process)."""
    _, base, _ = served
    assert _api(base, "/api/v1/calc/scrollhammer.morale-check?ld=7") == (
        200,
        _cli_json("scrollhammer.morale-check", "ld=7"),
    )
    code, text = _api(base, "/api/v1/calc/scrollhammer.morale-check?ld=13")
    assert code == 400 and '"field": "ld"' in text


def test_two_server_processes_each_session_with_its_own_query_and_all_end_together() -> None:
    """``rulesbook serve --processes 2``: pages are rendered from a session already built for the
    path and each player's session is built by the process its websocket reaches; the query
    string still sets the form, every session answers, and stopping the server stops them all."""
    bench = server_bench()
    proc, base = bench.start_server(workers=1, processes=2, time_limit=600)  # none reached when busy
    try:
        servers = [p for p in bench._descendants(proc.pid) if p in bench._server_cpu_s(proc.pid)]
        assert len(servers) == 3  # the one started and the two it forked
        expected = _cli_json("wh40k.battle-shock", "leadership=8")
        for _ in range(4):  # whichever process takes the connection answers alike (nothing is kept)
            assert _api(base, "/api/v1/calc/wh40k.battle-shock?leadership=8") == (200, expected)
        from tornado.httpclient import AsyncHTTPClient

        async def open_one(http: Any, path: str) -> Any:
            session = bench.Session(base, path)
            await session.open(http)
            await session.first_answer(120)
            return session

        async def main() -> list[tuple[Any, ...]]:
            http = AsyncHTTPClient()
            paths = ["calc/scrollhammer.morale-check", "calc/scrollhammer.morale-check?ld=9"]
            paths += ["calc/scrollhammer.morale-check?ld=4&embed=1", "calc/wh40k.battle-shock?leadership=8"]
            paths += ["calc/scrollhammer.break-test", "calc/wh40k.attack?models=3"] * 3
            sessions = await asyncio.gather(*(open_one(http, path) for path in paths))
            seen = []
            try:
                for session in sessions[:4]:
                    key = "leadership" if "battle-shock" in session.path else "ld"
                    nav = [
                        m
                        for m in session.models.values()
                        if "rb-nav" in m["attributes"].get("css_classes", [])
                    ]
                    seen.append(
                        (
                            session.path,
                            session.value_of(f"rb-input-{key}"),
                            nav[0]["attributes"].get("visible"),
                        )
                    )
                # stylesheets from this server, never Panel's CDN (the site works offline)
                urls = [str(m["attributes"].get("url", "")) for s in sessions for m in s.models.values()]
                assert any("static/extensions/panel" in url for url in urls)
                assert not any("cdn.holoviz.org" in url for url in urls)
                answers = await asyncio.gather(
                    *(s.change("rb-input-ld", 5, 120) for s in sessions if "break-test" in s.path)
                )
                seen.append(tuple(html.unescape(a) for a in answers))
            finally:
                for session in sessions:
                    session.close()
            return seen

        seen = asyncio.run(main())
        plain, nine, embedded, battle_shock, answers = seen
        assert plain[1] == 7 and nine[1] == 9 and embedded[1] == 4 and battle_shock[1] == 8, seen
        assert plain[2] is not False and embedded[2] is False  # ?embed=1 hides the site header
        assert len(answers) == 3 and all('data-key="p_pass_exact"' in a for a in answers), answers
    finally:
        proc.terminate()
        proc.wait(30)
    for _ in range(300):  # the forked processes end with the one started (parent death signal)
        if not any(Path(f"/proc/{pid}").exists() for pid in servers):
            break
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in servers)
