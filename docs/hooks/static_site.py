"""mkdocs hooks of the published rulebook: glossary links, notebook widgets, a dead-link check.

* ``on_page_content`` links the first use of each glossary term on every page to its entry
  (:func:`rulesbook.site.glossary.link_terms`);
* a live calculator page of the published (static) build starts the site's Python as the
  browser reads the page's top (:func:`rulesbook.site.static.early_start_script`);
* notebook pages: an interactive cell's output — raw widget text such as ``VBox(children=...``
  in a page — becomes a static picture of the form with links to the calculator, and every
  notebook page links its ``.ipynb`` (:func:`rulesbook.site.notebooks.replace_widget_outputs`);
* ``on_post_build`` checks every link and resource of the built site
  (:func:`rulesbook.site.link_check.dead_links`); each one that does not resolve is logged as a
  warning, so ``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from rulesbook.site.glossary import GLOSSARY_PAGE, link_terms, page_system
from rulesbook.site.link_check import dead_links
from rulesbook.site.notebooks import replace_widget_outputs
from rulesbook.site.publish import SEARCH_BOOST
from rulesbook.site.runtime import build_id
from rulesbook.site.static import LIVE_PREFIX, early_start_script, static_build

log = logging.getLogger("mkdocs.plugins.rulesbook")


LIVE_CALC = re.compile(r'<template class="rb-live-template"><form[^>]* data-calc="([\w-]+)\.')
"""A live calculator's form in a page (its system's name)."""


BUILD = {"id": ""}
"""This build's :func:`rulesbook.site.runtime.build_id` (set before the pages are written)."""


def on_pre_build(config: Any) -> None:
    """Name this build's Python (its shared worker) after what it is made of."""
    BUILD["id"] = build_id() if static_build() else ""


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """Glossary links on every page but the glossary itself; static widgets on notebook pages;
    a live calculator page starts the site's Python early."""
    html = _linked(html, page, files)
    found = LIVE_CALC.search(html) if static_build() else None
    if found:
        html = early_start_script("../" * page.url.count("/"), found.group(1), BUILD["id"]) + html
    return html


def _linked(html: str, page: Any, files: Any) -> str:
    src = page.file.src_uri
    if src.endswith(".ipynb"):
        html = replace_widget_outputs(html, page, files)
        # a notebook mentions many IDs; the ID's own page should rank above it in search
        page.meta.setdefault("search", {}).setdefault("boost", SEARCH_BOOST["reference"])
    glossary = files.get_file_from_path(GLOSSARY_PAGE)
    if glossary is None or src == GLOSSARY_PAGE or src.startswith("api/"):
        return html
    return link_terms(html, glossary.url_relative_to(page.file), system=page_system(src))


def on_post_build(config: Any) -> None:
    """Warn (and so fail a strict build) on every link or resource that does not resolve."""
    served = not static_build()  # rulesbook serve provides /calc/ and /app/ and folder URLs
    allowed = (LIVE_PREFIX, "/app/") if served else ()
    for problem in dead_links(Path(config["site_dir"]), allowed_prefixes=allowed, folders_ok=served):
        log.warning("dead link: %s", problem)
