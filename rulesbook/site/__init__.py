"""The published rulebook site, generated from the rules module: :func:`build` writes every page.

One module a concern:

* :mod:`~rulesbook.site.pages` — system, rule, calculator and register pages, the navigation;
* :mod:`~rulesbook.site.publish` — the whole set of published pages, search boosts and hits;
* :mod:`~rulesbook.site.static` — calculators with answers computed at build time (the static site);
* :mod:`~rulesbook.site.live_form` — the full form of each static calculator, live in the browser;
* :mod:`~rulesbook.site.runtime` — the browser runtime ``scripts/build-site`` vendors: Pyodide, the
  pinned wheels and the data snapshot, so every calculator computes in the reader's browser;
* :mod:`~rulesbook.site.live` — live calculators embedded in served pages, the live-tools index;
* :mod:`~rulesbook.site.notebooks` — notebook pages: pictures of widget outputs, links to live forms;
* :mod:`~rulesbook.site.glossary`, :mod:`~rulesbook.site.sources` — the Glossary and Sources pages;
* :mod:`~rulesbook.site.variants_page` — the designer variants page;
* :mod:`~rulesbook.site.link_check` — every link and resource of a built site must resolve.

``docs/gen_pages.py`` (the mkdocs-gen-files script) calls :func:`build`; the mkdocs hooks in
``docs/hooks/`` use the glossary, notebook and link-check modules while mkdocs renders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import IO

__all__ = ["build"]

Opener = Callable[[str, str], AbstractContextManager[IO[str]]]
"""``open(path, mode)`` of the docs tree being built (``mkdocs_gen_files.open``)."""


def build(open_file: Opener, notebooks: Sequence[str]) -> list[str]:
    """Write every generated page of the site through ``open_file``; return their paths.

    ``notebooks`` are the notebook pages (``notebooks/NAME.ipynb``) listed in the navigation.
    The hand-written home page ``index.md`` gets the systems table appended.

    Example:
        >>> import io, contextlib
        >>> pages: dict[str, io.StringIO] = {}
        >>> @contextlib.contextmanager
        ... def fake_open(path, mode):
        ...     yield pages.setdefault(path, io.StringIO())
        >>> written = build(fake_open, notebooks=[])
        >>> "SUMMARY.md" in written, "sources.md" in written, "| [Scrollhammer](scrollhammer/index.md)" in pages["index.md"].getvalue()
        (True, True, True)
    """
    from rulesbook.site.live import LIVE_INDEX_PAGE, live_index_page
    from rulesbook.site.pages import summary_nav, systems_table
    from rulesbook.site.publish import published_pages, search_hits_script, summary_extra
    from rulesbook.site.static import static_build
    from rulesbook.site.variants_page import variants_markdown

    written: list[str] = []

    def write(path: str, text: str, mode: str = "w") -> None:
        with open_file(path, mode) as f:
            f.write(text)
        written.append(path)

    for path, text in published_pages().items():
        write(path, text)
    write("index.md", systems_table(), "a")  # the hand-written home page, plus the systems
    write("variants.md", variants_markdown())  # from the variant files and the choices
    write(
        "SUMMARY.md",
        summary_extra(summary_nav(list(notebooks)))
        + "* [Designer what-ifs: variants](variants.md)\n"
        + "* [A designer's guide: rewriting the rules](designer/guide.md)\n"
        + "* [The rules language](designer/language.md)\n"
        + "* [A designer's dice](designer/dice.md)\n"
        + "* [The effects language (40k)](designer/effects.md)\n"
        + "* [House rules by link](designer/house-rules.md)\n"
        + "* [Sweeps](sweeps.md)\n"
        + "* [Designer analysis](designing.md)\n",
    )
    write("javascripts/search-hits-data.js", search_hits_script(static_build()))  # IDs, terms -> pages
    write(LIVE_INDEX_PAGE, live_index_page())  # every live calculator and app
    return written
