"""The site page that lists every live tool: each calculator, and the special apps (the tracker).

In the served flavour (``rulesbook serve``) each line links the live page (``/calc/<id>``,
``/app/<name>``); in the static flavour it links the calculator's own page and says which apps
need the server.

>>> text = live_index_page()
>>> "Army Morale tracker" in text and "scrollhammer.morale-check" in text
True
"""

from __future__ import annotations

from rulesbook.index import page_of
from rulesbook.registry import registry
from rulesbook.site_static import live_link, static_build

__all__ = ["LIVE_APPS", "LIVE_INDEX_PAGE", "live_index_page"]

LIVE_INDEX_PAGE = "live.md"
"""Where the page is written (``/site/live/`` when served)."""

LIVE_APPS = {
    "army-morale-tracker": (
        "Army Morale tracker",
        "Record a game's events and Rally phases; the ledger applies the Army Morale rules, "
        "keeps the game across reloads and exports or imports the log.",
    ),
}
"""Special apps served at ``/app/<name>``: name -> (title, one-line summary)."""


def live_index_page() -> str:
    """The Markdown of the live-tools index (one line per calculator and app, by system)."""
    reg = registry()
    served = not static_build()
    out = ["# Live calculators and apps", ""]
    if served:
        out.append("Every tool below runs live on this server; each page links back here.")
    else:
        out.append(
            "Each calculator below can be tried on its own page. The apps need the local server "
            "(`rulesbook serve`), which also serves every calculator live."
        )
    out += ["", "## Apps", ""]
    for name, (title, summary) in LIVE_APPS.items():
        link = f"[{title}](/app/{name})" if served else f"**{title}** (`/app/{name}`)"
        out.append(f"* {link} — {summary}")
    for system in reg.systems.values():
        out += ["", f"## {system.title}", ""]
        for calc in reg.calculators_for_system(system.id):
            link = live_link(LIVE_INDEX_PAGE, page_of(calc.id), calc.id, calc.title, calc.title)
            out.append(f"* {link} (`{calc.id}`) — {calc.summary}")
    return "\n".join(out) + "\n"
