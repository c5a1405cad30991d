"""The site page that lists every live tool: each calculator, and the special apps (the tracker).

In the served flavour (``rulesbook serve``) each line links the live page (``/calc/<id>``,
``/app/<name>``); in the static flavour it links the calculator's own page and says which apps
need the server.

>>> text = live_index_page()
>>> "Army Morale tracker" in text and "scrollhammer.morale-check" in text
True
"""

from __future__ import annotations

import html
import posixpath

from rulesbook.index import page_of
from rulesbook.registry import registry
from rulesbook.site.static import LIVE_PREFIX, TRY_IT, live_link, static_build, static_calculator_html

__all__ = [
    "EMBED_STATIC_LIMIT",
    "LIVE_INDEX_PAGE",
    "calculator_panel",
    "live_iframe",
    "live_index_page",
]

EMBED_STATIC_LIMIT = 150_000
"""A static calculator (form and stored answers) at most this long is copied onto the rule pages
that use it; a larger one is linked (copying it onto every such page would weigh megabytes)."""

LIVE_INDEX_PAGE = "live.md"
"""Where the page is written (``/site/live/`` when served)."""


def live_index_page() -> str:
    """The Markdown of the live-tools index (one line per calculator and app, by system)."""
    reg = registry()
    served = not static_build()
    out = ["# Live calculators and apps", ""]
    if served:
        out.append("Every tool below runs live on this server; each page links back here.")
    else:
        out.append(
            "Each calculator below can be tried on its own page: served over HTTP (any web host), "
            "it computes every input in your browser. What stays on a server is said so below: the "
            "Army Morale tracker (it keeps each game on the server and lists the server's saved "
            "games) and [sweeps](sweeps.md) over many inputs (a process pool or a Dask cluster) need "
            "[`rulesbook serve`](cli.md#rulesbook-serve) or the command line."
        )
    out += ["", "## Apps", ""]
    for app in reg.apps.values():
        where = f"`/app/{app.name}`, needs [`rulesbook serve`](cli.md#rulesbook-serve)"
        link = f"[{app.title}](/app/{app.name})" if served else f"**{app.title}** ({where})"
        out.append(f"* {link} — {app.summary}")
    for system in reg.systems.values():
        out += ["", f"## {system.title}", ""]
        for calc in reg.calculators_for_system(system.id):
            link = live_link(LIVE_INDEX_PAGE, page_of(calc.id, "calculator"), calc.id, calc.title, calc.title)
            out.append(f"* {link} (`{calc.id}`) — {calc.summary}")
    return "\n".join(out) + "\n"


def live_iframe(calc_id: str) -> str:
    """The live calculator embedded in a served page (one line of raw HTML), with a link to its
    full page and the place of its pinned summary line.

    ``docs/javascripts/live-embed.js`` sizes the frame to its content (the calculator is served
    by the same server, so the page may read its height): no fixed box, no scrolling inside. It
    also keeps the calculator's inputs in the page's address (``#live?ld=7``: a reload or a link
    opens the calculator with them, and the full-page link follows them) and pins the summary
    line the frame sends (its key probability) at the top of the screen while the frame's result
    is scrolled away.

    >>> html = live_iframe("scrollhammer.morale-check")
    >>> html.startswith('<div class="rb-live-embed" data-calc="scrollhammer.morale-check">')
    True
    >>> '<iframe class="rb-live" src="/calc/scrollhammer.morale-check?embed=1"' in html
    True
    >>> '<a class="rb-full-page" href="/calc/scrollhammer.morale-check">' in html
    True
    """
    title = html.escape(registry().calculator(calc_id).title)
    return (
        f'<div class="rb-live-embed" data-calc="{html.escape(calc_id)}">'
        '<div class="rb-embed-summary" role="status" hidden></div>'
        f'<iframe class="rb-live" src="{LIVE_PREFIX}{calc_id}?embed=1" title="{title}" '
        'style="width:100%;height:560px;border:1px solid #ccc"></iframe>'
        f'<p class="rb-embed-full"><a class="rb-full-page" href="{LIVE_PREFIX}{calc_id}">'
        f"Open {title} on its own page</a> (with these inputs)</p></div>"
    )


def calculator_panel(here: str, calc_ids: list[str] | tuple[str, ...]) -> list[str]:
    """Markdown lines for the top of a rule page: its calculator in an open, collapsible panel.

    Served (``rulesbook serve``): the first calculator runs live in the panel, sized to its
    content; any others are linked. Static: the first calculator's static form is in the panel
    when it is small (:data:`EMBED_STATIC_LIMIT`), and each calculator's own page is linked.

    >>> lines = calculator_panel("scrollhammer/rules/x.md", ["scrollhammer.morale-check"])
    >>> lines[0].startswith('<details class="rb-calc-panel" open')
    True
    """
    if not calc_ids:
        return []
    reg = registry()
    first = reg.calculator(calc_ids[0])
    out = [
        f'<details class="rb-calc-panel" open markdown="1"><summary>Calculator: {html.escape(first.title)}</summary>',
        "",
    ]
    if not static_build():
        out += [live_iframe(first.id), ""]
    else:
        form = static_calculator_html(first)
        if len(form) <= EMBED_STATIC_LIMIT:
            out += [form.replace(f'id="{TRY_IT}-form" ', ""), ""]
    links = []
    for calc_id in calc_ids if static_build() else calc_ids[1:]:
        calc = reg.calculator(calc_id)
        rel = posixpath.relpath(page_of(calc_id, "calculator"), posixpath.dirname(here) or ".")
        target = f"{LIVE_PREFIX}{calc_id}" if not static_build() else f"{rel}#{TRY_IT}"
        links.append(f"[{calc.title}]({target})")
    if links:
        out += [("Try it: " if static_build() else "Also: ") + " · ".join(links), ""]
    out += ["</details>", ""]
    return out
