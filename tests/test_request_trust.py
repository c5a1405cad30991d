"""What a request may name: a variant the server was started with, by its name — never a file.

The served calculator pages compute their answers through :func:`widgets.forms.compare.answer` (in a
worker process or on the event loop), whatever sets the compared variant: the page's address
(``?variant=``), a static page's ``#live?variant=``, a websocket message setting the drop-down's
value, the JSON API's ``variant``. Each hostile value here is a file that would write a marker if
the server imported it; the marker must never appear, and the refusal is one line naming no path
of the server's. The browser half (real pages, a cross-site frame) is
``tests/browser/test_request_trust.py``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from tornado.testing import AsyncHTTPTestCase
from tornado.web import Application

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.variants import named_variant, resolve_variant
from widgets.forms.compare import answer, compared, offered_names
from widgets.server.hosts import refuse_framing
from widgets.server.http_api import api_routes


def marker_variant(folder: Path, name: str = "evil") -> tuple[Path, Path]:
    """A Python variant file that writes ``MARKER`` beside it when imported, and that marker."""
    marker = folder / f"{name}-MARKER"
    file = folder / f"{name}.py"
    file.write_text(
        "from pathlib import Path\n"
        f"Path({str(marker)!r}).write_text('imported')\n"
        "SYSTEM = 'scrollhammer'\nTITLE = 'evil'\nPARAMETERS = {'break_ld_per_point': 2}\n",
        encoding="utf-8",
    )
    yaml = folder / f"{name}.yaml"
    yaml.write_text(
        "system: scrollhammer\ntitle: a secret\nparameters:\n  break_ld_per_point: 2\n", encoding="utf-8"
    )
    return file, marker


def hostile_names(file: Path) -> list[str]:
    """Ways a request could spell the file (absolute, ``~/``, relative, composed, its YAML twin)."""
    home = os.path.relpath(file, Path.home())
    here = os.path.relpath(file, Path.cwd())
    return [
        str(file),
        f"~/{home}",
        here,
        f"break-2-ld-per-point+{file}",
        str(file.with_suffix(".yaml")),
        f"file://{file}",
        f" {file} ",
    ]


def test_a_form_s_answer_takes_a_name_never_a_file(tmp_path: Path) -> None:
    file, marker = marker_variant(tmp_path)
    calc = registry().calculator("scrollhammer.break-test")
    for name in hostile_names(file):
        found = answer(calc.id, {"ld": 8, "lost_by": 1}, name)
        assert found.error.startswith("variant: unknown variant "), (name, found.error)
        assert "\n" not in found.error and found.error_key == "variant"
        assert str(tmp_path) not in found.error.partition(";")[2], found.error  # only the name it was given
        assert offered_names(calc, calc.input("ld"), name) == ()  # the pick lists too
        with pytest.raises(InputError, match="never a file"):
            compared(name)
    assert not marker.exists()
    # the same names are what the operator's own tools take: the CLI and the Python API
    assert resolve_variant(str(file)).name == "evil" and marker.exists()


def test_a_listed_name_still_compares() -> None:
    found = answer("scrollhammer.break-test", {"ld": 8, "lost_by": 2}, "break-2-ld-per-point")
    assert [(n, r["p_pass_exact"]) for n, r in found.results] == [  # 2D6 ≤ 6 and 2D6 ≤ 4
        ("baseline", "5/12"),
        ("break-2-ld-per-point", "1/6"),
    ]
    assert (
        named_variant("break-2-ld-per-point+no-insane-heroism").name
        == "break-2-ld-per-point+no-insane-heroism"
    )


def test_the_python_front_door_keeps_files(tmp_path: Path) -> None:
    """``rb.calc(variant="file.py")`` and ``rulesbook calc ... variant=file.py`` are the operator's."""
    import rulesbook as rb

    file, marker = marker_variant(tmp_path, "mine")
    assert rb.calc("scrollhammer.break-test", variant=str(file), ld=8, lost_by=2)["p_pass_exact"] == "1/6"
    assert marker.exists()


# -- the JSON API: what a request may do --------------------------------------------------------


class Api(AsyncHTTPTestCase):
    """The API's routes, the host rule and the framing headers as ``rulesbook serve`` sets them."""

    def get_app(self) -> Application:
        app = Application(api_routes(None, hosts=["127.0.0.1:*", "localhost:*"]))
        refuse_framing(app)
        return app

    def ask(
        self, path: str, method: str = "GET", body: bytes | None = None, **headers: str
    ) -> tuple[int, Any, Any]:
        response = self.fetch(path, method=method, body=body, headers=headers, raise_error=False)
        return response.code, json.loads(response.body or b"null"), response.headers

    def test_every_answer_forbids_framing_by_other_sites(self) -> None:
        for path in ["/api/v1/calculators", "/api/v1/calc/scrollhammer.morale-check?ld=99", "/api/nope"]:
            headers = self.ask(path)[2]
            assert headers["Content-Security-Policy"] == "frame-ancestors 'self'", path
            assert headers["X-Frame-Options"] == "SAMEORIGIN", path

    def test_a_page_of_another_site_cannot_spend_the_workers(self) -> None:
        path = "/api/v1/calc/scrollhammer.morale-check"
        body = b'{"ld": 7}'
        json_type = {"Content-Type": "application/json"}
        for method, payload, headers in [
            ("POST", body, {**json_type, "Origin": "http://attacker.example"}),
            ("POST", body, {"Content-Type": "text/plain", "Origin": "http://attacker.example"}),
            ("POST", body, {**json_type, "Origin": "null"}),
            ("GET", None, {"Sec-Fetch-Site": "cross-site"}),
            ("GET", None, {"Sec-Fetch-Site": "same-site"}),
            (
                "POST",
                body,
                {
                    **json_type,
                    "Origin": f"http://127.0.0.1:{self.get_http_port()}",
                    "Sec-Fetch-Site": "cross-site",
                },
            ),
        ]:
            code, answer, _ = self.ask(path, method, payload, **headers)
            assert code == 403 and answer["error"]["field"] in ("Origin", "Sec-Fetch-Site"), (headers, answer)
        # a form or plain text body is no JSON: refused, whoever sends it
        for kind in [
            "application/x-www-form-urlencoded",
            "text/plain",
            "multipart/form-data; boundary=x",
            "",
        ]:
            code, answer, _ = self.ask(path, "POST", b"ld=7", **({"Content-Type": kind} if kind else {}))
            assert code == 415 and answer["error"]["field"] == "Content-Type", (kind, answer)
        # this server's own pages, and a client that is no browser, are answered
        same = {"Origin": f"http://localhost:{self.get_http_port()}", "Sec-Fetch-Site": "same-origin"}
        assert self.ask(path, "POST", body, **json_type, **same)[0] == 200
        assert self.ask(path, "POST", body, **{"Content-Type": "application/json; charset=utf-8"})[0] == 200
        assert self.ask(path + "?ld=7")[0] == 200

    def test_a_405_says_what_is_allowed(self) -> None:
        for path, allowed in [
            ("/api/v1/calc/scrollhammer.morale-check", "GET, POST"),
            ("/api/v1/calculators", "GET"),
        ]:
            for method in ("DELETE", "PUT", "OPTIONS", "PATCH"):
                body = b"{}" if method in ("PUT", "PATCH") else None
                code, answer, headers = self.ask(path, method, body, **{"Content-Type": "application/json"})
                assert (code, headers["Allow"]) == (405, allowed), (path, method)
                assert answer["error"]["message"].endswith(f"allowed: {allowed}")

    def test_a_variant_may_be_sent_as_text_and_is_read_as_data(self) -> None:
        path, json_type = "/api/v1/calc/scrollhammer.break-test", {"Content-Type": "application/json"}
        harsh = "system: scrollhammer\ntitle: Harsh\nparameters:\n  break_ld_per_point: 2\n"
        body = json.dumps({"ld": 8, "lost_by": 2, "variant_yaml": harsh}).encode()
        code, answer, _ = self.ask(path, "POST", body, **json_type)
        assert code == 200 and answer["variant"] == "posted" and answer["result"]["p_pass_exact"] == "1/6"
        composed = json.dumps({"ld": 8, "lost_by": 2, "variant": "no-insane-heroism", "variant_yaml": harsh})
        code, answer, _ = self.ask(path, "POST", composed.encode(), **json_type)
        assert code == 200 and answer["variant"] == "no-insane-heroism+posted"
        python = "import os\nos.system('touch /tmp/x')\nSYSTEM = 'scrollhammer'\n"
        for text, field, status in [
            (python, "variant_yaml", 422),
            ("system: !!python/object/apply:os.system ['true']\ntitle: x\n", "variant_yaml", 422),
            ("system: wh40k\ntitle: x\n", "variant", 422),
            (3, "variant_yaml", 400),
        ]:
            code, answer, _ = self.ask(
                path, "POST", json.dumps({"ld": 8, "variant_yaml": text}).encode(), **json_type
            )
            assert (code, answer["error"]["field"]) == (status, field), (text, answer)

    def test_a_variant_is_a_name_and_no_answer_names_a_server_folder(self) -> None:
        for spelling in ["/etc/passwd", "~/evil.py", "../../x.yaml", "evil.py", "file:///tmp/evil.py"]:
            code, answer, _ = self.ask(f"/api/v1/calc/scrollhammer.break-test?ld=8&variant={quote(spelling)}")
            assert code == 400 and "never a file" in answer["error"]["message"], spelling
        root = str(Path(__file__).resolve().parents[1])
        for calc in registry().calculators.values():
            for example in calc.examples:
                code, answer, _ = self.ask(f"/api/v1/calc/{calc.id}?{urlencode(dict(example))}")
                assert code == 200 and root not in json.dumps(answer), (calc.id, example)
        code, answer, _ = self.ask(
            "/api/v1/calc/army-morale.replay?log=rulesbook/systems/army_morale/data/example-game.yaml"
        )
        assert answer["inputs"]["log"] == "rulesbook/systems/army_morale/data/example-game.yaml"


# -- a folder of the operator's variants with broken files ---------------------------------------


def test_a_broken_variant_file_is_left_out_with_one_log_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "good.yaml").write_text(
        "system: scrollhammer\ntitle: Good\nparameters:\n  break_ld_per_point: 2\n", encoding="utf-8"
    )
    for name, digit in [("superscript", "²"), ("arabic", "٢"), ("fullwidth", "２"), ("math", "𝟐")]:
        (folder / f"{name}.yaml").write_text(
            f"system: scrollhammer\ntitle: x\nparameters:\n  break_ld_per_point: {digit}\n", encoding="utf-8"
        )
    (folder / "crash.py").write_text("raise ValueError('boom')\n", encoding="utf-8")
    other = tmp_path / "more"
    other.mkdir()
    (other / "also.yaml").write_text(
        "system: wh40k\ntitle: Also\nparameters:\n  battle_shock_dice: 3D6\n", encoding="utf-8"
    )
    monkeypatch.setenv("RULESBOOK_VARIANTS_DIR", os.pathsep.join([str(folder), str(other)]))
    with caplog.at_level("WARNING", logger="rulesbook.variants"):
        for _ in range(3):  # every page lists them: each problem is logged once
            found = answer("scrollhammer.break-test", {"ld": 8, "lost_by": 2}, "good")
            assert not found.error and found.results[1][1]["p_pass_exact"] == "1/6"
            assert named_variant("also").title == "Also"  # a second folder (rulesbook serve --variants)
    lines = [r.getMessage() for r in caplog.records if r.name == "rulesbook.variants"]
    assert len(lines) == 5 and all("\n" not in line for line in lines), lines
    for name in ["superscript", "arabic", "fullwidth", "math"]:
        assert any(f"{name}.yaml" in line and "expected an integer from 0 to 6" in line for line in lines), (
            name
        )
    assert any("crash.py" in line and "ValueError: boom" in line for line in lines)
    with caplog.at_level("WARNING", logger="rulesbook.variants"), pytest.raises(InputError) as caught:
        named_variant("superscript")  # a request gets the name; the operator's log, the reason
    assert (
        str(caught.value) == "variant: your variant 'superscript' failed to load (the server's log says why)"
    )
    assert "expected an integer from 0 to 6" in caplog.records[-1].getMessage()


# -- a real server: on [::1], with a broken variant file, attacked over its websocket -------------


@pytest.fixture(scope="module")
def served_v6(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str, Path, Path]]:
    """``rulesbook serve --host ::1 --variants DIR``, DIR holding a good variant, a broken YAML one
    and a Python file that fails; its log and a folder for marker files."""
    from tests.test_server_load import server_bench

    folder = tmp_path_factory.mktemp("variants")
    (folder / "good.yaml").write_text(
        "system: scrollhammer\ntitle: Good\nparameters:\n  break_ld_per_point: 2\n", encoding="utf-8"
    )
    (folder / "broken.yaml").write_text(
        "system: scrollhammer\ntitle: x\nparameters:\n  break_ld_per_point: ²\n", encoding="utf-8"
    )
    (folder / "crash.py").write_text("raise ValueError('boom')\n", encoding="utf-8")
    log = tmp_path_factory.mktemp("served-v6") / "server.log"
    bench = server_bench()
    try:
        proc, base = bench.start_server(  # (a time limit no answer reaches on a loaded machine)
            workers=1, time_limit=600, host="::1", options=("--variants", str(folder)), log=log
        )
    except (OSError, RuntimeError) as exc:  # (no IPv6 loopback on this machine)
        pytest.skip(f"no server on [::1]: {exc}")
    try:
        yield bench, base, log, tmp_path_factory.mktemp("markers")
    finally:
        proc.terminate()
        proc.wait(30)


def _get(url: str, **headers: str) -> tuple[int, str, Any]:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read().decode(), response.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), exc.headers


def test_a_server_on_ipv6_serves_pages_websockets_and_the_api(served_v6: Any) -> None:
    import asyncio

    from tornado.httpclient import AsyncHTTPClient

    bench, base, log, _ = served_v6
    assert base.startswith("http://[::1]:")
    code, _, headers = _get(f"{base}/calc/scrollhammer.break-test?ld=8&variant=good")
    assert code == 200 and headers["Content-Security-Policy"] == "frame-ancestors 'self'"
    assert headers["X-Frame-Options"] == "SAMEORIGIN"
    code, text, _ = _get(f"{base}/api/v1/calc/scrollhammer.break-test?ld=8&lost_by=2&variant=good")
    assert code == 200 and json.loads(text)["result"]["p_pass_exact"] == "1/6"

    async def main() -> tuple[str, str]:
        session = bench.Session(base, "calc/scrollhammer.break-test?ld=8&lost_by=2&variant=good")
        await session.open(AsyncHTTPClient())  # the websocket, from a page of [::1]
        try:
            await session.first_answer(120)
            first = session.result_text
            return first, await session.change("rb-input-ld", 9, 120)
        finally:
            session.close()

    first, changed = asyncio.run(main())
    assert 'data-variant="good"' in first and 'data-key="error"' not in first, first
    assert 'data-key="p_pass_exact"' in changed
    assert "Traceback" not in log.read_text(encoding="utf-8")


def test_a_broken_variant_file_leaves_every_other_page_working(served_v6: Any) -> None:
    _, base, log, _ = served_v6
    for path in [
        "/calc/scrollhammer.break-test",
        "/calc/wh40k.battle-shock",
        "/app/army-morale-tracker",
        "/api/v1/calculators",
        "/api/v1/calc/scrollhammer.break-test?ld=8&variant=good",
        "/api/v1/openapi.json",
    ]:
        code, text, _ = _get(base + path)
        assert code == 200, (path, text[:300])
        assert "Traceback" not in text and str(log.parent.parent) not in text, path
    code, text, _ = _get(f"{base}/api/v1/calc/scrollhammer.break-test?ld=8&variant=broken")
    assert (
        code == 400
        and "your variant 'broken' failed to load" in text
        and "/" not in json.loads(text)["error"]["message"]
    )
    logged = log.read_text(encoding="utf-8")
    assert any(
        "request named your variant broken" in line and "broken.yaml, line" in line
        for line in logged.splitlines()
    )
    left_out = [line for line in logged.splitlines() if "is left out" in line]
    assert sum("broken.yaml" in line for line in left_out) == 1, logged
    assert sum("crash.py" in line for line in left_out) == 1, logged
    assert "Traceback" not in logged


def test_a_websocket_message_naming_a_file_runs_nothing(served_v6: Any) -> None:
    """What no drop-down offers, sent as the browser sends a pick: Panel refuses a value its
    drop-down does not list (in the server's log), and were it taken, the answer would refuse it
    (widgets.forms.compare.compared). The page goes on answering; nothing is imported."""
    import asyncio

    from tornado.httpclient import AsyncHTTPClient

    bench, base, _, markers = served_v6
    file, marker = marker_variant(markers)

    async def main() -> str:
        session = bench.Session(base, "calc/scrollhammer.break-test?ld=8&lost_by=2")
        await session.open(AsyncHTTPClient())
        try:
            await session.first_answer(120)
            for name in hostile_names(file)[:3]:
                await session.send_value("rb-input-variant", name)
            return str(await session.change("rb-input-ld", 9, 120))  # answered after them, in order
        finally:
            session.close()

    text = asyncio.run(main())
    assert 'data-key="p_pass_exact"' in text and "data-variant" not in text, text  # the baseline alone
    assert not marker.exists()


def test_a_property_based_client_finds_nothing_wrong_with_the_api(served_v6: Any, tmp_path: Path) -> None:
    """schemathesis (from PyPI: a client nobody here wrote) reads the served OpenAPI document and
    sends what it allows and what it refuses to every route, checking every answer against it: no
    server error, only documented statuses, content types and keys, schema-valid requests
    accepted, schema-violating ones refused, 405 with ``Allow``. A refusal of values the document
    allows (two inputs that do not go together, a dice text that does not read) is the
    documented 422, which is what its "schema-valid request accepted" check is told to expect.
    A bounded run: a fixed seed, a few examples per route (``--phases``: not the slow coverage
    phase, which ran clean with 20 examples when this was written)."""
    import subprocess
    import sys

    _, base, _, _ = served_v6
    config = tmp_path / "schemathesis.toml"
    config.write_text(
        '[checks.positive_data_acceptance]\nexpected-statuses = ["2xx", "422"]\n', encoding="utf-8"
    )
    command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run"]
    command += [f"{base}/api/v1/openapi.json", "--checks", "all", "--max-examples", "5", "--seed", "33"]
    command += ["--phases", "examples,fuzzing,stateful", "--generation-database", "none", "--no-color"]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=900, check=False)
    report = run.stdout[-4000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    selected = re.search(r"Selected: (\d+)/(\d+)\s+Tested: (\d+)", report)  # every route, each tested
    assert selected is not None and selected[1] == selected[2] == selected[3], report
    assert int(selected[1]) >= 2 * len(registry().calculators), report  # GET and POST of each calculator
    cases = re.search(r"(\d+) generated, (\d+) passed", report)
    assert cases is not None and cases[1] == cases[2] and int(cases[1]) >= int(selected[1]), report
