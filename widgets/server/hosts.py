"""Which names the live server answers to: the ``Host`` of every request and the ``Origin`` of
every websocket (a defence against DNS rebinding), and which pages may show it in a frame.

A page on another domain whose name resolves to 127.0.0.1 reaches a local server with its own
name in ``Host`` (and in ``Origin``); a server that answered it would let that page read and
overwrite the player's games. So ``rulesbook serve`` answers only requests whose ``Host`` is an
allowed name — ``localhost``, ``127.0.0.1``, ``[::1]``, the address it listens on and each
``--allow-host NAME`` — whatever the port, and refuses every other with 403 and a one-line
reason. A websocket upgrade that carries an ``Origin`` must also come from an ``http:`` or
``https:`` page of an allowed name (Bokeh then checks the origin's port as well).

>>> allowed = allowed_hosts("0.0.0.0", ("table.local",))
>>> sorted(allowed)
['127.0.0.1', '::1', 'localhost', 'table.local']
>>> host_refusal("localhost:8765", None, allowed), host_refusal("[::1]:8765", None, allowed)
('', '')
>>> host_refusal("attacker.example:8765", None, allowed)
'Host attacker.example is not served here (start the server with --allow-host attacker.example)'
>>> host_refusal("localhost:8765", "ftp://localhost:8765", allowed)
'Origin ftp://localhost:8765: only http and https pages may connect'
>>> host_refusal("localhost:8765", "http://attacker.example:8765", allowed)
'Origin attacker.example is not served here (start the server with --allow-host attacker.example)'

Every answer also says that only the server's own pages may show it in a frame
(:data:`FRAMING_HEADERS`, put on every response by :func:`refuse_framing`): a page on another
website cannot hide a calculator or the tracker in an invisible frame and click or type in it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from tornado.httputil import HTTPHeaders, HTTPServerRequest
from tornado.routing import Matcher, Rule
from tornado.web import OutputTransform, RequestHandler

__all__ = [
    "DEFAULT_HOSTS",
    "FRAMING_HEADERS",
    "allowed_hosts",
    "host_name",
    "host_refusal",
    "refuse_framing",
    "refuse_other_hosts",
]

DEFAULT_HOSTS = ("localhost", "127.0.0.1", "::1")
"""The names every server answers to."""

_ANY_ADDRESS = {"", "0.0.0.0", "::", "[::]"}


def host_name(host: str) -> str:
    """The name of a ``Host`` value, without port or IPv6 brackets, lower case.

    >>> host_name("LocalHost:8765"), host_name("[::1]:80"), host_name("::1"), host_name("example.org")
    ('localhost', '::1', '::1', 'example.org')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def allowed_hosts(bound: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a server listening on ``bound`` answers to: the defaults, ``bound`` (unless it
    is the any-address) and ``extra``."""
    names = {*DEFAULT_HOSTS, *(host_name(h) for h in extra if h.strip())}
    if bound.strip() not in _ANY_ADDRESS:
        names.add(host_name(bound))
    return frozenset(names)


def host_refusal(host: str, origin: str | None, allowed: frozenset[str]) -> str:
    """Why a request with these ``Host`` and ``Origin`` headers is refused ("" when it is not)."""
    name = host_name(host)
    if name not in allowed:
        return f"Host {name or '(none)'} is not served here (start the server with --allow-host {name or 'NAME'})"
    if origin is None:
        return ""
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https"):
        return f"Origin {origin[:80]}: only http and https pages may connect"
    origin_name = host_name(parts.netloc)
    if origin_name not in allowed:
        return f"Origin {origin_name} is not served here (start the server with --allow-host {origin_name})"
    return ""


class _Refused(RequestHandler):
    """The answer to a request for a name this server does not serve: 403 and the reason."""

    def initialize(self, reason: str = "") -> None:
        self.reason_text = reason

    def prepare(self) -> None:
        self.set_status(403)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"Refused: {self.reason_text}\n" if self.request.method != "HEAD" else None)


class _NotAllowed(Matcher):
    """Matches a request whose Host (or websocket Origin) is not allowed."""

    def __init__(self, allowed: frozenset[str]) -> None:
        self.allowed = allowed

    def match(self, request: HTTPServerRequest) -> dict[str, Any] | None:
        websocket = request.headers.get("Upgrade", "").lower() == "websocket"
        origin = request.headers.get("Origin") if websocket else None
        reason = host_refusal(request.host or "", origin, self.allowed)
        return {"target_kwargs": {"reason": reason}} if reason else None


def refuse_other_hosts(app: Any, allowed: frozenset[str]) -> None:
    """Put the host check in front of every route of the tornado application ``app``
    (tornado's public routing: a first rule matching the refused requests)."""
    app.default_router.rules.insert(0, Rule(_NotAllowed(allowed), _Refused))


FRAMING_HEADERS = {"Content-Security-Policy": "frame-ancestors 'self'", "X-Frame-Options": "SAMEORIGIN"}
"""Only a page of this server may show one of its pages in a frame (the site's rule pages embed
the live calculators; nothing else may). ``X-Frame-Options`` says the same to older browsers."""


class _NoFraming(OutputTransform):
    """Puts :data:`FRAMING_HEADERS` on a response (a handler's own policy is kept)."""

    def transform_first_chunk(
        self, status_code: int, headers: HTTPHeaders, chunk: bytes, finishing: bool
    ) -> tuple[int, HTTPHeaders, bytes]:
        for name, value in FRAMING_HEADERS.items():
            if name not in headers:
                headers[name] = value
        return status_code, headers, chunk


def refuse_framing(app: Any) -> None:
    """Put :data:`FRAMING_HEADERS` on every response of the tornado application ``app`` (pages,
    Panel's and Bokeh's own resources, the site's files, the API, the refusals) — tornado's
    public ``add_transform``, so no route can forget them."""
    app.add_transform(_NoFraming)
