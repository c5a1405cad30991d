"""The JSON HTTP API (``/api/v1/``) answers exactly as ``rulesbook calc ... --json`` does.

The routes of :func:`widgets.server.http_api.api_routes` run in a plain tornado application here (no
Panel, no worker pool: the answers are computed in the handler), so every calculator's worked
examples are asked in-process: the body of each answer is byte for byte what the command line
prints. ``tests/test_server_load.py`` asks a real ``rulesbook serve`` (one process and two), where
the answers come from the worker pool.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import re
import shlex
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jsonschema
import pytest
from click.testing import CliRunner
from openapi_spec_validator import validate
from tornado.testing import AsyncHTTPTestCase
from tornado.web import Application

from rulesbook.api.openapi import openapi
from rulesbook.cli import cli
from rulesbook.registry import registry
from widgets.server.http_api import MAX_BODY_BYTES, api_routes

ROOT = Path(__file__).resolve().parents[1]

EXAMPLES = [
    pytest.param(calc.id, dict(example), id=f"{calc.id}-{n}")
    for calc in registry().calculators.values()
    for n, example in enumerate(calc.examples)
]


def _cli_json(calc_id: str, example: dict[str, str], variant: str = "") -> str:
    """What ``rulesbook calc ID key=value ... --json`` prints, run in the checkout (so a shipped
    file input is named ``rulesbook/...``, as the API names it: never by a folder of the server's)."""
    words = [f"{key}={value}" for key, value in example.items()]
    if variant:
        words.append(f"variant={variant}")
    with contextlib.chdir(ROOT):
        out = CliRunner().invoke(cli, ["calc", calc_id, *words, "--json"])
    assert out.exit_code == 0, out.output
    return str(out.output)


class Api(AsyncHTTPTestCase):
    def get_app(self) -> Application:
        return Application(api_routes(None, hosts=["127.0.0.1:*", "localhost:*"]))

    def ask(self, path: str, method: str = "GET", body: Any = None, **headers: str) -> tuple[int, Any, str]:
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        if method == "POST":
            headers.setdefault("Content-Type", "application/json")
        response = self.fetch(path, method=method, body=data, headers=headers, raise_error=False)
        text = (response.body or b"").decode()
        assert response.headers["Content-Type"] == "application/json; charset=utf-8", (path, text)
        return response.code, json.loads(text), text

    # -- answers ---------------------------------------------------------------------------

    def test_the_issue_s_example(self) -> None:
        code, body, text = self.ask("/api/v1/calc/scrollhammer.morale-check?ld=7")
        assert code == 200 and body["result"]["p_pass_exact"] == "7/12"
        assert text == _cli_json("scrollhammer.morale-check", {"ld": "7"})

    def test_every_worked_example_answers_the_cli_s_json_by_get_and_post(self) -> None:
        assert len(EXAMPLES) > 30
        schemas = openapi()["paths"]
        for case in EXAMPLES:
            calc_id, example = case.values
            expected = _cli_json(calc_id, example)
            code, body, text = self.ask(f"/api/v1/calc/{calc_id}?{urlencode(example)}")
            assert (code, text) == (200, expected), (calc_id, example)
            code, _, text = self.ask(f"/api/v1/calc/{calc_id}", "POST", example)
            assert (code, text) == (200, expected), (calc_id, example)
            # the answer is what the OpenAPI document says a 200 answer is
            answer = schemas[f"/api/v1/calc/{calc_id}"]["get"]["responses"]["200"]
            jsonschema.validate(body, answer["content"]["application/json"]["schema"])

    def test_a_json_body_takes_values_as_json(self) -> None:
        code, body, _ = self.ask(
            "/api/v1/calc/scrollhammer.morale-check", "POST", {"ld": 7, "insane_heroism": False}
        )
        _, as_text, _ = self.ask("/api/v1/calc/scrollhammer.morale-check?ld=7&insane_heroism=false")
        assert code == 200 and body == as_text

    def test_a_variant_by_name(self) -> None:
        expected = _cli_json("scrollhammer.break-test", {"ld": "8", "lost_by": "2"}, "break-2-ld-per-point")
        path = "/api/v1/calc/scrollhammer.break-test?ld=8&lost_by=2&variant=break-2-ld-per-point"
        code, body, text = self.ask(path)
        assert (code, text) == (200, expected) and body["variant"] == "break-2-ld-per-point"
        code, _, text = self.ask(
            "/api/v1/calc/scrollhammer.break-test",
            "POST",
            {"ld": 8, "lost_by": 2, "variant": ["break-2-ld-per-point"]},
        )
        assert (code, text) == (200, expected)

    # -- refusals ----------------------------------------------------------------------------

    def test_bad_input_is_400_naming_the_field(self) -> None:
        cases = {
            "/api/v1/calc/scrollhammer.morale-check?ld=13": "ld",
            "/api/v1/calc/scrollhammer.morale-check?ld=x": "ld",
            "/api/v1/calc/scrollhammer.morale-check?ldd=7": "ldd",
            "/api/v1/calc/scrollhammer.morale-check?ld=7&ld=8": "ld",
            "/api/v1/calc/scrollhammer.break-test?ld=8&variant=nope": "variant",
            "/api/v1/calc/scrollhammer.break-test?ld=8&variant=../../etc/passwd": "variant",
            "/api/v1/calc/scrollhammer.break-test?ld=8&variant=%2Ftmp%2Fv.yaml": "variant",
            "/api/v1/calc/army-morale.replay?log=/etc/passwd": "log",
            "/api/v1/calc/army-morale.replay?log=rulesbook/../../x.yaml": "log",
            "/api/v1/calc/scrollhammer.morale-check?ld=%ff": "ld",
        }
        for path, field in cases.items():
            code, body, _ = self.ask(path)
            assert code == 400 and body["error"]["field"] == field, (path, body)
            assert "\n" not in body["error"]["message"] and body["error"]["message"]
        code, body, _ = self.ask("/api/v1/calc/scrollhammer.morale-check?ld=13")
        cli_line = CliRunner().invoke(cli, ["calc", "scrollhammer.morale-check", "ld=13"]).output
        assert cli_line.strip() == f"rulesbook: error: {body['error']['field']}: {body['error']['message']}"

    def test_bad_bodies_are_400(self) -> None:
        path = "/api/v1/calc/scrollhammer.morale-check"
        for raw, field in [
            (b"{", "body"),
            (b"[7]", "body"),
            (b'{"ld": NaN}', "body"),
            (b'{"ld": 7, "ld": 8}', "ld"),
            (b'{"ld": {"a": 1}}', "ld"),
            (b'{"ld": [[7]]}', "ld"),
            (b"\xff\xfe", "body"),
            (b"[" * 5000 + b"]" * 5000, "body"),
            (b'{"ld": 7, "variant": 3}', "variant"),
            (b'{"ld": 13}', "ld"),
            (b'{"ld": true}', "ld"),
            # a lone surrogate is no character: 400 (it was a 500, writing the answer failed)
            (b'{"ld": "\\ud800"}', "ld"),
            (b'{"\\udfff": 7}', "body"),
            (b'{"variant": ["\\ud83d"]}', "variant"),
            (b'{"ld": 7, "unit_lds": ["\\udc00"]}', "unit_lds"),
        ]:
            code, body, _ = self.ask(path, "POST", raw)
            assert code == 400 and body["error"]["field"] == field, (raw[:20], body)
        code, body, _ = self.ask(path + "?ld=7", "POST", {"ld": 7})
        assert code == 400 and body["error"]["field"] == "ld"

    def test_values_the_document_allows_and_the_rules_refuse_are_422(self) -> None:
        """400: the request is outside the OpenAPI document; 422: inside it, and the rules refuse
        it (values that do not go together, a text that does not read)."""
        for path, body, field in [
            ("/api/v1/calc/scrollhammer.morale-check", {"ld": "x"}, "ld"),  # a body's text: read as typed
            ("/api/v1/calc/scrollhammer.morale-check?ld=7&models_left=3", None, "starting_models"),
            (
                "/api/v1/calc/scrollhammer.casualties-test?ld=7&models_at_start=2&models_lost=5",
                None,
                "models_lost",
            ),
            ("/api/v1/calc/wh40k.deadly-demise?x=D7", None, "x"),
            ("/api/v1/calc/wh40k.deadly-demise", {"x": 7.5}, "x"),
        ]:
            code, answer, _ = self.ask(path, "POST" if body is not None else "GET", body)
            assert code == 422 and answer["error"]["field"] == field, (path, body, answer)
            assert "estimate" not in answer["error"]
        for path in [
            "/api/v1/calc/scrollhammer.morale-check?ld=13&models_left=3",  # (and a value out of range)
            "/api/v1/calc/scrollhammer.casualties-test?models_lost=2",  # (the required ld missing)
        ]:
            assert self.ask(path)[0] == 400, path

    def test_too_costly_input_is_422_with_the_estimate(self) -> None:
        code, body, _ = self.ask("/api/v1/calc/wh40k.deadly-demise?x=20D20!kh10")
        assert code == 422 and body["error"]["field"] == "x"
        assert body["error"]["estimate"] == {"times_limit": 61.7, "limit_seconds": 1}
        cli_line = CliRunner().invoke(cli, ["calc", "wh40k.deadly-demise", "x=20D20!kh10"]).output
        assert body["error"]["message"] in cli_line
        weapon = "A=3 BS=3 S=4 D=20D20!kh10"  # a dice refusal inside a weapon profile stays one
        code, body, _ = self.ask(
            "/api/v1/calc/wh40k.attack-and-battle-shock", "POST", {"weapons": weapon, "leadership": 7}
        )
        assert code == 422 and body["error"]["field"] == "weapons", body
        # the 40k engines' cost model, refusing before any work
        storm = "A=200 BS=3 S=4 D=3D6 sustained-hits-d6"
        inputs = {"weapons": f"{storm}; {storm}", "toughness": 4, "save": 7, "wounds": 24, "models": 40}
        code, body, _ = self.ask(
            "/api/v1/calc/wh40k.attack-and-battle-shock", "POST", {**inputs, "fnp": 5, "leadership": 7}
        )
        assert code == 422 and body["error"]["estimate"] == {"times_limit": 1.5, "limit_seconds": 1}, body

    def test_a_body_over_the_limit_is_413(self) -> None:
        path = "/api/v1/calc/scrollhammer.morale-check"
        code, body, _ = self.ask(path, "POST", b"{" + b" " * MAX_BODY_BYTES + b"}")
        assert code == 413 and body["error"]["field"] == "body"

        def chunks(write: Any) -> None:  # no Content-Length: the limit is met while reading
            for _ in range(MAX_BODY_BYTES // 1000 + 2):
                write(b" " * 1000)

        response = self.fetch(
            path,
            method="POST",
            body_producer=_producer(chunks),
            headers={"Content-Type": "application/json"},
            raise_error=False,
        )
        assert response.code == 413

    def test_unknown_things_are_404_and_other_methods_405_all_in_json(self) -> None:
        code, body, _ = self.ask("/api/v1/calc/scrollhammer.morale-chek?ld=7")
        assert code == 404 and "scrollhammer.morale-check" in body["error"]["message"]
        assert self.ask("/api/v1/calculators/nope")[0] == 404
        assert self.ask("/api/v2/calc/x")[0] == 404
        assert self.ask("/api/v1/calculators", "POST", {})[0] == 405

    def test_odd_paths_get_json_400_or_404(self) -> None:
        for path in [
            "/api/v1/calc/%00",
            "/api/v1/calc/..%2f..%2fetc%2fpasswd",
            "/api/v1/calc/" + "x" * 5000,
            "/api/v1/calculators/%ff%fe",
            "/api/v1/calc/scrollhammer.morale-check/extra",
            "/api/",
            "/api",
        ]:
            response = self.fetch(path, raise_error=False)
            assert response.code in (400, 404), (path[:60], response.code)
            assert "error" in json.loads(response.body or b"{}"), path[:60]

    def test_the_host_rule_of_the_pages(self) -> None:
        path = "/api/v1/calc/scrollhammer.morale-check?ld=7"
        assert self.ask(path, Host="rebound.example.com")[0] == 403
        assert self.ask(path, Host=f"localhost:{self.get_http_port()}")[0] == 200

    # -- declarations and the OpenAPI document ------------------------------------------

    def test_declarations(self) -> None:
        code, body, _ = self.ask("/api/v1/calculators")
        assert code == 200
        assert [c["id"] for c in body["calculators"]] == list(registry().calculators)
        code, one, _ = self.ask("/api/v1/calculators/scrollhammer.morale-check")
        assert code == 200 and one == body["calculators"][0] | one
        assert one["inputs"][0]["key"] == "ld" and one["url"] == "/api/v1/calc/scrollhammer.morale-check"

    def test_the_openapi_document_describes_every_calculator(self) -> None:
        code, doc, _ = self.ask("/api/v1/openapi.json")
        assert code == 200 and doc == openapi()
        calcs = {p.removeprefix("/api/v1/calc/") for p in doc["paths"] if p.startswith("/api/v1/calc/")}
        assert calcs == set(registry().calculators)
        operations = [op["operationId"] for path in doc["paths"].values() for op in path.values()]
        assert len(operations) == len(set(operations))
        get = doc["paths"]["/api/v1/calc/scrollhammer.morale-check"]["get"]
        declared = [i.key for i in registry().calculator("scrollhammer.morale-check").inputs]
        assert [p["name"] for p in get["parameters"]] == [*declared, "variant"]


def test_the_document_is_what_the_api_does() -> None:
    """Each calculator's request example is valid by its own schema (and answered); what a request
    may name is an enum of what the server offers: its system's variants, a file input's shipped
    files (a path is no name). That every answer's key is declared (``additionalProperties``
    false) is checked on every worked example above."""
    from rulesbook.variants import variants_for_system

    doc = openapi()
    for calc in registry().calculators.values():
        post = doc["paths"][f"/api/v1/calc/{calc.id}"]["post"]
        body = post["requestBody"]["content"]["application/json"]
        jsonschema.validate(body["example"], body["schema"])
        names = [v.name for v in variants_for_system(calc.system)]
        variant = body["schema"]["properties"]["variant"]["anyOf"][0]
        assert variant["anyOf"][0]["enum"] == names, calc.id
        for name in [*names, "+".join(names)]:
            jsonschema.validate(name, variant)
        for bad in ["", "../x.yaml", "/tmp/x.py", f" {names[0]}", f"{names[0]}+"]:
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate(bad, variant)
        answer = post["responses"]["200"]["content"]["application/json"]["schema"]
        assert (
            answer["additionalProperties"] is False
            and answer["properties"]["result"]["additionalProperties"] is False
        )
    replay = doc["paths"]["/api/v1/calc/army-morale.replay"]["get"]["parameters"][0]
    assert replay["name"] == "log" and replay["schema"]["enum"] == [
        "rulesbook/systems/army_morale/data/example-game.yaml"
    ]


def _covering_calculators() -> list[str]:
    """A few calculators that together declare every kind of input and output (validating the
    whole document takes the validator a minute; each calculator's part is made the same way)."""
    kinds = {
        calc.id: {f"input {type(i).__name__} {getattr(i, 'inner_kind', '')}" for i in calc.inputs}
        | {f"output {o.kind}" for o in calc.outputs}
        for calc in registry().calculators.values()
    }
    left, chosen = set().union(*kinds.values()), []
    while left:  # greedy: the calculator declaring most of the kinds still missing
        best = max(kinds, key=lambda c: len(kinds[c] & left))
        chosen.append(best)
        left -= kinds[best]
    return chosen


def test_the_openapi_document_validates() -> None:
    """OpenAPI 3.1 (openapi-spec-validator): every route, with calculators of every kind of input."""
    chosen = _covering_calculators()
    assert len(chosen) < len(registry().calculators)
    validate(openapi(chosen))


def _producer(chunks: Any) -> Any:
    async def produce(write: Any) -> None:
        sent: list[bytes] = []
        chunks(sent.append)
        for chunk in sent:
            await write(chunk)

    return produce


# -- the page's examples (docs/http-api.md), against the routes on a real port ---------------

PAGE = ROOT / "docs" / "http-api.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.M | re.S)


@pytest.fixture(scope="module")
def api_port() -> Iterator[int]:
    """The API's routes served by tornado on a free port, in a thread of their own."""
    import asyncio
    import threading

    started = threading.Event()
    holder: dict[str, Any] = {}

    def run() -> None:
        async def main() -> None:
            server = Application(api_routes(None, hosts=["127.0.0.1:*"])).listen(0, "127.0.0.1")
            holder["port"] = next(iter(server._sockets.values())).getsockname()[1]
            holder["stop"] = asyncio.Event()
            holder["loop"] = asyncio.get_running_loop()
            started.set()
            await holder["stop"].wait()
            server.stop()

        asyncio.run(main())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(60)
    yield int(holder["port"])
    holder["loop"].call_soon_threadsafe(holder["stop"].set)
    thread.join(30)


def _curl(command: str, port: int) -> str:
    """What ``curl -s [-X POST] [-H ...] [-d DATA] URL`` prints (through urllib)."""
    words = shlex.split(command)
    assert words[:2] == ["curl", "-s"], command
    method, headers, data, url = "GET", {}, None, ""
    rest = iter(words[2:])
    for word in rest:
        if word == "-X":
            method = next(rest)
        elif word == "-H":
            name, _, value = next(rest).partition(": ")
            headers[name] = value
        elif word == "-d":
            data = next(rest).encode()
        else:
            url = word.replace("127.0.0.1:8765", f"127.0.0.1:{port}")
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return str(response.read().decode())
    except urllib.error.HTTPError as error:
        return str(error.read().decode())


def test_the_page_s_curl_examples_print_what_it_shows(api_port: int) -> None:
    checker = doctest.OutputChecker()
    examples = [
        (lines[0][2:], "\n".join(lines[1:]) + "\n")
        for kind, block in FENCE.findall(PAGE.read_text(encoding="utf-8"))
        if kind == "console"
        for lines in [block.strip("\n").splitlines()]
    ]
    assert len(examples) == 3
    for command, shown in examples:
        got = _curl(command, api_port)
        assert checker.check_output(shown, got, doctest.ELLIPSIS), (command, got)


def test_the_page_s_python_client_runs(api_port: int) -> None:
    (code,) = [block for kind, block in FENCE.findall(PAGE.read_text(encoding="utf-8")) if kind == "python"]
    code = code.replace("127.0.0.1:8765", f"127.0.0.1:{api_port}")
    printed = io.StringIO()
    namespace: dict[str, Any] = {}
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(PAGE), "exec"), namespace)  # the page's own example, as written
    assert printed.getvalue() == "5/12\n"
    with pytest.raises(ValueError, match=r"^ld: expected an integer from 0 to 12, got 13$"):
        namespace["calc"]("scrollhammer.morale-check", ld=13)
