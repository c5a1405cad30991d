"""The hostile server paths of ``tests/hostile/server-paths.txt`` get 400 or 404 (a path that
climbs out of the site gets the not-found page, as a missing page does) — never tornado's 403,
a 500, a file from outside the site, or a hang (each is sent byte for byte, not normalised).
"""

from __future__ import annotations

import http.client
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import ROOT

pytestmark = pytest.mark.browser

PATHS = (ROOT / "tests" / "hostile" / "server-paths.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p[:40])
def test_hostile_paths_are_refused(served: str, path: str) -> None:
    where = urlsplit(served)
    connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=20)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    assert response.status in (400, 404), (response.status, body[:300])
    if path.startswith("/site/") and (".." in path or "%2e%2e" in path.lower()):
        assert b"Back to the rulesbook site" in body  # the not-found page, with its way home
    assert b"root:" not in body  # no /etc/passwd, whatever the path says
