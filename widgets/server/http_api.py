"""The JSON HTTP API's routes on the server (``rulesbook serve``): ``/api/v1/...``.

The answers themselves are :mod:`rulesbook.api.json_api` (no web framework there); this module
does the HTTP around them:

* the same Host rule as the pages: a request whose ``Host`` is not one the server was started
  for (``localhost:PORT``, ``127.0.0.1:PORT``, ``--host``:PORT — the list the pages' websockets
  are checked against) gets 403, so a web page elsewhere cannot reach the API through a DNS name
  rebound to this machine;
* no request from a page of another website (the browser says so: ``Sec-Fetch-Site`` other
  than ``same-origin``, or an ``Origin`` that is not this server): 403, so no page elsewhere can
  spend the worker pool with a request it could not even read the answer of;
* a ``POST`` says its body is JSON (``Content-Type: application/json``), else 415: no form or
  plain-text "simple request" is answered;
* a request body of at most :data:`MAX_BODY_BYTES` (else 413, refused from its
  ``Content-Length`` before it is read, or once a chunked body passes the limit);
* a JSON body that is an object of scalars or flat lists, each key once, every text a text
  (a lone surrogate such as ``"\\ud800"`` is none) (else 400);
* the computation in the server's :class:`~widgets.server.workers.ComputePool` (never on the event loop
  the pages share; its time limit answers 422), or here when no pool is given (tests);
* every answer is JSON, errors too (``{"error": {"field": ..., "message": ...}}``), written as
  the command line writes it (:func:`rulesbook.present.json_text` and a newline), so
  ``curl .../api/v1/calc/ID?k=v`` prints exactly what ``rulesbook calc ID k=v --json`` prints.

Nothing is kept between requests: under ``--processes N`` (or behind a load balancer) any
process answers any request alike.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Sequence
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from tornado.web import HTTPError, RequestHandler, stream_request_body

from rulesbook.api.json_api import (
    API_PREFIX,
    Reply,
    calc_answer,
    calculator_json,
    calculators_json,
    error_body,
)
from rulesbook.present import json_text
from rulesbook.variants import failed_variant
from widgets.server.workers import ComputePool, JobCancelled, JobError, TimeLimitError

__all__ = ["MAX_BODY_BYTES", "api_routes"]

MAX_BODY_BYTES = 65_536
"""The largest request body the API reads (every calculator's inputs fit in a few hundred bytes)."""

_log = logging.getLogger(__name__)

_SCALARS = (str, int, float, bool, type(None))
_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _BadBody(key, "given twice")
        out[key] = value
    return out


class _BadBody(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


def read_body(body: bytes) -> dict[str, Any]:
    """A request's JSON body as inputs: an object whose values are numbers, texts, booleans,
    ``null`` or flat lists of them (``_BadBody`` otherwise).

    >>> read_body(b'{"ld": 7, "unit_lds": [7, 6]}')
    {'ld': 7, 'unit_lds': [7, 6]}
    >>> read_body(b'')
    {}
    """
    if not body.strip():
        return {}
    try:
        data = json.loads(
            body.decode("utf-8"), object_pairs_hook=_unique_keys, parse_constant=_refuse_constant
        )
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _BadBody("body", 'expected a JSON object of inputs, e.g. {"ld": 7}') from None
    if not isinstance(data, dict):
        raise _BadBody("body", 'expected a JSON object of inputs, e.g. {"ld": 7}')
    for key, value in data.items():
        flat = isinstance(value, list) and all(isinstance(v, _SCALARS) for v in value)
        if not (isinstance(value, _SCALARS) or flat):
            raise _BadBody(key, "expected a number, a text, true or false, null, or a list of them")
        texts = [key, *(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))]
        if any(_SURROGATE.search(t) for t in texts):
            field = "body" if _SURROGATE.search(key) else key
            raise _BadBody(
                field, "expected UTF-8 text; a lone surrogate (\\ud800 to \\udfff) is no character"
            )
    return data


class _ApiHandler(RequestHandler):
    """Shared: the Host rule, JSON answers and JSON errors."""

    def initialize(self, pool: ComputePool | None = None, hosts: Sequence[str] | None = None) -> None:
        self.pool = pool
        self.hosts = hosts

    def prepare(self) -> None:
        if self.hosts is not None and not _host_allowed(self.request.host, self.hosts):
            self.reply((403, error_body("Host", f"this server does not answer for {self.request.host!r}")))
        elif (where := self._other_site()) is not None:
            self.reply((403, error_body(where, "a page of another website may not use this API")))
        elif (
            self.request.method == "POST"
            and "POST" in self.allowed_methods()
            and not _json_type(self.request.headers.get("Content-Type", ""))
        ):
            self.reply(
                (
                    415,
                    error_body(
                        "Content-Type",
                        "expected application/json: send the inputs as a JSON object "
                        "(or use GET with a query string)",
                    ),
                )
            )

    def _other_site(self) -> str | None:
        """The header showing the request comes from a page of another website (None: it does
        not; a client that is no browser sends neither)."""
        if self.request.headers.get("Sec-Fetch-Site", "same-origin").lower() not in ("same-origin", "none"):
            return "Sec-Fetch-Site"
        origin = self.request.headers.get("Origin")
        if origin is None or self.hosts is None:
            return None
        parts = urlsplit(origin.strip())
        if parts.scheme in ("http", "https") and _host_allowed(parts.netloc, self.hosts):
            return None
        return "Origin"

    def set_default_headers(self) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("X-Content-Type-Options", "nosniff")

    def reply(self, answer: Reply) -> None:
        status, body = answer
        self.set_status(status)
        self.finish(json_text(body) + "\n")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        message = {405: "method not allowed", 404: "no such API route"}.get(status_code, self._reason)
        if status_code == 405:
            allowed = self.allowed_methods()
            self.set_header("Allow", ", ".join(allowed))
            message = f"method not allowed; allowed: {', '.join(allowed)}"
        self.finish(json_text(error_body(None, message)) + "\n")

    @classmethod
    def allowed_methods(cls) -> list[str]:
        """The HTTP methods this route answers (the ``Allow`` header of its 405)."""
        return [
            m for m in ("GET", "POST") if getattr(cls, m.lower()) is not getattr(RequestHandler, m.lower())
        ]


def _json_type(content_type: str) -> bool:
    """True for ``application/json`` (any parameters) and ``application/*+json``.

    >>> _json_type("application/json; charset=utf-8"), _json_type("text/plain"), _json_type("")
    (True, False, False)
    """
    kind = content_type.partition(";")[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def _host_allowed(host: str, allowed: Sequence[str]) -> bool:
    """The pages' websocket rule (Bokeh's allow-list, wildcards included) applied to ``Host``."""
    from bokeh.server.util import check_allowlist

    return bool(check_allowlist(host, list(allowed)))


class _Calculators(_ApiHandler):
    def get(self) -> None:
        self.reply(calculators_json())


class _Calculator(_ApiHandler):
    def get(self, calc_id: str) -> None:
        self.reply(calculator_json(calc_id))


class _OpenApi(_ApiHandler):
    def get(self) -> None:
        from rulesbook.variants import user_variants

        self.reply((200, _openapi(tuple(user_variants()))))


@cache
def _openapi(yours: tuple[str, ...]) -> dict[str, Any]:
    """The document, made again when the variants on offer change (``yours``: the names in the
    operator's folders), so its enums are always what a request may name."""
    from rulesbook.api.openapi import openapi

    return openapi()


class _NoRoute(_ApiHandler):
    def prepare(self) -> None:
        super().prepare()
        if not self._finished:
            raise HTTPError(404)


@stream_request_body
class _Calc(_ApiHandler):
    """``GET|POST /api/v1/calc/ID``: inputs from the query string and a JSON body."""

    def prepare(self) -> None:
        super().prepare()
        self._body = bytearray()
        self._too_big = False
        length = self.request.headers.get("Content-Length", "")
        if not self._finished and length.isdigit() and int(length) > MAX_BODY_BYTES:
            self.reply(_too_big())

    def data_received(self, chunk: bytes) -> None:
        if len(self._body) + len(chunk) > MAX_BODY_BYTES:
            self._too_big = True
        elif not self._too_big:
            self._body += chunk

    def on_connection_close(self) -> None:
        job = getattr(self, "_job", None)
        if job is not None:
            job.cancel()  # nobody waits for it: free its worker

    async def get(self, calc_id: str) -> None:
        await self._answer(calc_id)

    async def post(self, calc_id: str) -> None:
        await self._answer(calc_id)

    async def _answer(self, calc_id: str) -> None:
        if self._too_big:
            self.reply(_too_big())
            return
        try:
            inputs, variants, body, text = self._inputs()
        except _BadBody as exc:
            self.reply((400, error_body(exc.field, exc.message)))
            return
        answer = await self._compute(calc_id, (inputs, variants, body, text))
        if answer is not None:  # (None: the client went away)
            if answer[1].get("error", {}).get("field") == "variant":  # (the reason is logged here:
                for name in (part for listed in variants for part in listed.split("+")):  # workers log
                    failed_variant(name)  # nothing of their own)
            self.reply(answer)

    def _inputs(self) -> tuple[dict[str, Any], list[str], list[str], str | None]:
        """The inputs (query texts and body values), the variants named, the keys of the body and
        a variant sent as text (``variant_yaml``)."""
        inputs: dict[str, Any] = {}
        variants: list[str] = []
        for raw_key, values in self.request.query_arguments.items():
            key = _text(raw_key.encode("latin-1"), "query")  # tornado reads keys as Latin-1
            texts = [_text(v, key) for v in values]
            if key == "variant":
                variants += texts
            elif len(texts) > 1:
                raise _BadBody(key, "given twice")
            else:
                inputs[key] = texts[0]
        body = read_body(bytes(self._body))
        text = body.pop("variant_yaml", None)
        if text is not None and not isinstance(text, str):
            raise _BadBody("variant_yaml", "expected the text of a variant file (YAML)")
        for key, value in body.items():
            if key == "variant":
                listed = value if isinstance(value, list) else [value]
                if not all(isinstance(v, str) for v in listed):
                    raise _BadBody("variant", "expected a variant's name or a list of names")
                variants += listed
            elif key in inputs:
                raise _BadBody(key, "given twice (in the query and the body)")
            else:
                inputs[key] = value
        return inputs, variants, [key for key in body if key != "variant"], text

    async def _compute(self, calc_id: str, request: tuple[Any, ...]) -> Reply | None:
        if self.pool is None:
            return calc_answer(calc_id, *request)
        self._job = self.pool.submit(calc_answer, calc_id, *request)
        try:
            answer: Reply = await asyncio.wrap_future(self._job.future)
        except (asyncio.CancelledError, JobCancelled):
            return None
        except TimeLimitError as exc:
            return 422, error_body(None, str(exc))
        except JobError as exc:
            _log.error("rulesbook API: %s failed: %s", calc_id, exc)
            return 500, error_body(None, "the calculator failed; the server's log says why")
        return answer


def _text(raw: bytes, field: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _BadBody(field, "expected UTF-8 text") from None


def _too_big() -> Reply:
    return 413, error_body("body", f"the request body is larger than {MAX_BODY_BYTES:,} bytes")


def api_routes(pool: ComputePool | None = None, hosts: Sequence[str] | None = None) -> list[tuple[Any, ...]]:
    """The tornado routes of the API: answers computed in ``pool`` (else in the handler), and
    only for a ``Host`` in ``hosts`` (Bokeh's allow-list patterns; ``None``: any)."""
    options = {"pool": pool, "hosts": None if hosts is None else list(hosts)}
    return [
        (rf"{API_PREFIX}/calculators", _Calculators, options),
        (rf"{API_PREFIX}/calculators/([^/]+)", _Calculator, options),
        (rf"{API_PREFIX}/calc/([^/]+)", _Calc, options),
        (rf"{API_PREFIX}/openapi\.json", _OpenApi, options),
        (r"/api(?:/.*)?", _NoRoute, options),
    ]
