"""A link checker for the built site: every link and resource must resolve in the built files.

mkdocs validates the links written in Markdown, but not those in raw HTML, in generated
navigation or in plugin output, and it only notes absolute links such as ``/calc/...``, which a
plain web host or ``file://`` cannot serve. :func:`dead_links` reads every built HTML file and
reports each ``href``/``src`` that points nowhere, each anchor missing from its target page,
each resource fetched from another host, and — for the static build that must open from disk —
each link to a folder (a browser shows a directory listing instead of the page). The one
exception is ``404.html``: a web host shows it at any missing address, so its links are
root-absolute by design (it is never opened from disk).

The site's mkdocs hook (``docs/hooks/static_site.py``) logs every problem as a warning, so
``mkdocs build --strict`` fails on it.

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> site = Path(tempfile.mkdtemp())
    >>> _ = (site / "index.html").write_text('<a href="a.html#x">a</a> <a href="/calc/x">live</a>')
    >>> _ = (site / "a.html").write_text('<h2 id="y">Y</h2>')
    >>> for problem in dead_links(site): print(problem)
    index.html: anchor #x is missing in a.html
    index.html: /calc/x is an absolute path (not served by a plain host or file://)
    >>> dead_links(site, allowed_prefixes=("/calc/",))
    ['index.html: anchor #x is missing in a.html']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["dead_links"]

_ATTR = re.compile(r"<(a|link|script|img|iframe|source|embed|object|video|audio)\b([^>]*)>", re.IGNORECASE)
_URL = re.compile(r'\b(href|src|data)\s*=\s*"([^"]*)"', re.IGNORECASE)
_ID = re.compile(r'\b(?:id|name)\s*=\s*"([^"]*)"')
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)
_HARMLESS = ("mailto:", "tel:", "data:", "javascript:", "blob:", "about:")


@cache
def _ids(path: Path) -> frozenset[str]:
    return frozenset(_ID.findall(path.read_text(encoding="utf-8", errors="replace")))


def _check(
    site: Path, page: Path, tag: str, url: str, allowed: Sequence[str], folders_ok: bool
) -> str | None:
    rel_page = page.relative_to(site).as_posix()
    if not url or url.startswith(_HARMLESS):
        return None
    if _EXTERNAL.match(url):
        if tag == "a":
            return None  # a link a reader may follow when online; nothing is fetched
        return f"{rel_page}: {url} is fetched from another host"
    parts = urlsplit(url)
    if parts.scheme:
        return f"{rel_page}: {url} uses an unsupported scheme"
    path, fragment = unquote(parts.path), unquote(parts.fragment)
    if path.startswith("/"):
        if rel_page == "404.html" or any(path.startswith(prefix) for prefix in allowed):
            return None
        return f"{rel_page}: {url} is an absolute path (not served by a plain host or file://)"
    target = (page.parent / path).resolve() if path else page
    if target.is_dir():
        if not folders_ok:
            return f"{rel_page}: {url} links to a folder (a directory listing from file://)"
        target = target / "index.html"
    if not target.is_file():
        return f"{rel_page}: {url} does not exist"
    if fragment and target.suffix == ".html" and fragment not in _ids(target):
        shown = target.relative_to(site).as_posix() if target.is_relative_to(site) else target
        return f"{rel_page}: anchor #{fragment} is missing in {shown}"
    return None


def dead_links(site: Path, *, allowed_prefixes: Sequence[str] = (), folders_ok: bool = False) -> list[str]:
    """Every link or resource of the built ``site`` that does not resolve, one line each.

    ``allowed_prefixes`` are absolute paths a server provides (``/calc/`` under
    ``rulesbook serve``); ``folders_ok`` accepts links to folders (a site served over HTTP
    with directory URLs).
    """
    _ids.cache_clear()
    site = site.resolve()
    problems: list[str] = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        for tag in _ATTR.finditer(text):
            for _, url in _URL.findall(tag.group(2)):
                problem = _check(site, page, tag.group(1).lower(), url.strip(), allowed_prefixes, folders_ok)
                if problem:
                    problems.append(problem)
    return list(dict.fromkeys(problems))
