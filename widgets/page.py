"""The frame every live page of ``rulesbook serve`` shares: readable on a phone, titled, linked.

Each ``/calc/<id>`` and ``/app/<name>`` page gets a ``<meta name="viewport">`` (so a 390 px phone
lays the page out at its own width instead of 980 px), a tab title that is the calculator's title
rather than its ID, and a header linking back to the site. ``LAYOUT_CSS`` makes generated forms
reflow: on wide screens the result sits beside the form and stays in view while the form
scrolls; below 700 px the result comes first, above the form.

>>> page_title("calc/scrollhammer.morale-check")
'Morale check · rulesbook'
>>> page_title("app/army-morale-tracker")
'Army morale tracker · rulesbook'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["LAYOUT_CSS", "VIEWPORT", "live_page", "page_title"]

VIEWPORT = "width=device-width, initial-scale=1"

LAYOUT_CSS = """
.rb-nav { font-family: sans-serif; font-size: 1rem; padding: 4px 0; }
.rb-nav a { text-decoration: none; }
.rb-result-col { position: sticky; top: 0; align-self: flex-start; }
@media (max-width: 700px) {
  .rb-result-col { position: static; width: 100% !important; }
}
"""


def page_title(path: str) -> str:
    """The browser tab title of the live page at URL path ``path`` (``calc/<id>`` or ``app/<name>``)."""
    kind, _, name = path.partition("/")
    if kind == "calc":
        from rulesbook.registry import registry

        title = registry().calculator(name).title
    else:
        title = name.replace("-", " ").capitalize()
    return f"{title} · rulesbook"


def live_page(factory: Callable[[], Any], path: str) -> Callable[[], Any]:
    """Wrap a Panel app factory: viewport meta, tab title and a link back to the site."""

    def view() -> Any:
        import panel as pn

        doc = pn.state.curdoc
        if doc is not None:
            doc.template_variables["meta"] = {"viewport": VIEWPORT}
            doc.title = page_title(path)
        nav = pn.pane.HTML(
            '<nav class="rb-nav"><a href="/site/">&larr; rulesbook site</a> · '
            '<a href="/site/live/">all live calculators</a></nav>',
            css_classes=["rb-nav"],
            stylesheets=[LAYOUT_CSS],
            sizing_mode="stretch_width",
        )
        # embedded in a site page (``?embed=1``, rulesbook.site_live.live_iframe): the page is the way back
        nav.visible = "embed" not in (pn.state.session_args or {})
        return pn.Column(nav, factory(), sizing_mode="stretch_width")

    view.__name__ = getattr(factory, "__name__", path)
    return view
