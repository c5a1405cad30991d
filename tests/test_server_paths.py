"""The served site's routes answer odd and climbing paths with 400 or the not-found page (404).

The routes of :func:`widgets.server.routes.site_routes` run here in a plain tornado application (no
Panel, no site build): every path of ``tests/hostile/server-paths.txt`` is sent as written (not
normalised) and must get 400 or 404 — never tornado's 403, a 500, or a file from outside the
site. ``tests/browser/test_hostile_paths.py`` sends the same corpus to a real ``rulesbook serve``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tornado.testing import AsyncHTTPTestCase
from tornado.web import Application

from widgets.server.routes import NOT_FOUND, _NotFound, site_routes

HOSTILE = Path(__file__).parent / "hostile" / "server-paths.txt"
PATHS = HOSTILE.read_text(encoding="utf-8").splitlines()
CLIMBING = [p for p in PATHS if ".." in p or "%2e%2e" in p.lower()]


class SiteRoutes(AsyncHTTPTestCase):
    def get_app(self) -> Application:
        import tempfile

        self._folder = tempfile.TemporaryDirectory()
        root = Path(self._folder.name)
        (root / "site").mkdir()
        (root / "site" / "index.html").write_text("<p>home</p>", encoding="utf-8")
        (root / "site" / "assets").mkdir()  # a folder without an index page
        (root / "secret.txt").write_text("root:x:0:0", encoding="utf-8")  # just outside the site
        return Application(site_routes(root / "site"), default_handler_class=_NotFound)

    def tearDown(self) -> None:
        super().tearDown()
        self._folder.cleanup()

    def get(self, path: str, method: str = "GET") -> tuple[int, bytes]:
        response = self.fetch(path, method=method, follow_redirects=False, raise_error=False)
        return response.code, response.body or b""

    def test_the_site_is_served(self) -> None:
        assert self.get("/site/") == (200, b"<p>home</p>")
        assert self.get("/")[0] == 301 or self.get("/")[0] == 302

    def test_climbing_paths_get_the_not_found_page(self) -> None:
        extra = [
            "/site/../secret.txt",
            "/site/%2e%2e/secret.txt",
            "/site/..%2fsecret.txt",
            "/site/a/../../secret.txt",
        ]
        assert CLIMBING, "the corpus has climbing paths"
        for path in [*CLIMBING, *extra]:
            code, body = self.get(path)
            assert code == 404, (path, code, body[:200])
            assert body.decode() == NOT_FOUND, path
            assert b"root:" not in body
            assert self.get(path, "HEAD") == (404, b""), path

    def test_a_folder_without_a_page_and_a_missing_file_read_the_same(self) -> None:
        for path in ("/site/assets", "/site/assets/", "/site/nothing.html", "/nothing-here"):
            code, body = self.get(path)
            if code == 301:  # /site/assets -> /site/assets/ first
                continue
            assert (code, body.decode()) == (404, NOT_FOUND), path

    def test_every_hostile_path(self) -> None:
        for path in PATHS:
            code, body = self.get(path)
            assert code in (400, 404), (path[:60], code, body[:200])
            assert b"root:" not in body


@pytest.mark.parametrize("path", ["/site/%00", "/site/a%00b.html"])
def test_nul_is_a_bad_request(path: str) -> None:
    case = SiteRoutes("test_the_site_is_served")
    case.setUp()
    try:
        assert case.get(path)[0] == 400
    finally:
        case.tearDown()
