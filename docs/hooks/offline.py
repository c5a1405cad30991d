"""mkdocs hooks: keep every page offline, and publish no navigation source file.

mkdocs-jupyter appends a MathJax loader to notebook pages that fetches MathJax from a CDN.
Our notebooks contain no mathematics, and the site must work with no network, so the loader
is removed after the plugins have run (hooks run last).
"""

from __future__ import annotations

import re
from typing import Any

_MATHJAX_LOADER = re.compile(r"<script data-mkdocs-jupyter-mathjax=.*?</script>\s*", re.DOTALL)


def on_post_page(output: str, page: Any, config: Any) -> str:
    """Strip the CDN MathJax loader from a rendered page."""
    return _MATHJAX_LOADER.sub("", output)


def on_nav(nav: Any, config: Any, files: Any) -> Any:
    """Once literate-nav has read ``SUMMARY.md`` into the navigation, do not publish it as a page."""
    summary = files.get_file_from_path("SUMMARY.md")
    if summary is not None:
        files.remove(summary)
    return nav
