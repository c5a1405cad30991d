"""The frame every live page of ``rulesbook serve`` shares: readable on a phone, titled, linked.

Each ``/calc/<id>`` and ``/app/<name>`` page gets a ``<meta name="viewport">`` (so a 390 px phone
lays the page out at its own width instead of 980 px), a tab title that is the calculator's title
rather than its ID, and a header linking back to the site. ``LAYOUT_CSS`` makes generated forms
reflow: on wide screens the result sits beside the form; below 700 px the result comes first,
above the form (``RESULT_COLUMN_CSS``). The result is never a box scrolling on its own: while
its top is off the screen, its summary line is pinned at the top instead (:mod:`widgets.forms.live`).

>>> page_title("calc/scrollhammer.morale-check")
'Morale check · rulesbook'
>>> page_title("app/army-morale-tracker")
'Army morale tracker · rulesbook'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = [
    "FORM_COLUMN_CSS",
    "LAYOUT_CSS",
    "RESULT_COLUMN_CSS",
    "VIEWPORT",
    "embedded",
    "live_page",
    "page_title",
]

VIEWPORT = "width=device-width, initial-scale=1"

LAYOUT_CSS = """
.rb-nav { font-family: sans-serif; font-size: 1rem; padding: 4px 0; }
.rb-nav a { text-decoration: none; }
"""

RESULT_COLUMN_CSS = """
@media (max-width: 700px) { :host { width: 100% !important; } }
"""
"""The result column's own style (a Panel stylesheet applies inside its component, so the rule
sits on the column itself): the whole width of a phone, above the form. Nothing in it is sticky
or scrolls on its own (a box showing 380 px of a 4,000 px answer on a phone is unreadable); the
summary line of :mod:`widgets.forms.live` stays in view instead."""

FORM_COLUMN_CSS = """
@media (max-width: 700px) { :host { width: 100% !important; } }
"""
"""The form column's own style: the whole width of a phone (its inputs' tap targets are at least
44 px high, :data:`widgets.forms.panel_app.TAP_CSS`)."""


def embedded() -> bool:
    """Whether the live page is shown inside a site page (``?embed=1``, see
    :func:`rulesbook.site.live.live_iframe`): its frame then grows to its content, so nothing in it
    is sticky or sized by the screen (``vh`` would be the frame's own, ever-growing height)."""
    import panel as pn

    return "embed" in (pn.state.session_args or {})


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
        # embedded in a site page (``?embed=1``, rulesbook.site.live.live_iframe): the page is the way back
        nav.visible = not embedded()
        from widgets.server.connection import connection_banner

        # a dropped connection is said at once, with a reload (widgets/server/connection.py)
        return pn.Column(connection_banner(), nav, factory(), sizing_mode="stretch_width")

    view.__name__ = getattr(factory, "__name__", path)
    return view
