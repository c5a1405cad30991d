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
from functools import cache
from typing import Any, ClassVar

__all__ = [
    "FORM_COLUMN_CSS",
    "LAYOUT_CSS",
    "RESULT_COLUMN_CSS",
    "TAP_CSS",
    "VIEWPORT",
    "embedded",
    "live_page",
    "page_behaviour",
    "page_title",
    "tap_sized",
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


_BOX = "<rect x='1' y='1' width='22' height='22' rx='4' fill='{fill}' stroke='{line}' stroke-width='2'/>"
_TICK = "<path d='M6 12.5l4 4 8-9' fill='none' stroke='white' stroke-width='3'/>"


def _svg(body: str) -> str:
    return 'url("data:image/svg+xml,' + (
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'>{body}</svg>".replace("#", "%23") + '")'
    )


TAP_CSS = f"""
.bk-input {{ min-height: 44px; font-size: 16px; }}
.bk-btn {{ min-height: 44px; min-width: 44px; font-size: 16px; }}
.bk-input-group > label {{ min-height: 44px; line-height: 44px; }}
.bk-description::before {{ content: ""; position: absolute; inset: -13px; }}
:host(.rb-invalid) .bk-input {{ border: 2px solid #a00; background: #fff6f6; }}
.bk-input-group > .bk-spin-wrapper {{ display: flex; gap: 4px; overflow: visible; height: auto; }}
.bk-input-group > .bk-spin-wrapper input {{ flex: 1 1 auto; min-width: 3em; padding-right: 8px; }}
.bk-input-group > .bk-spin-wrapper > .bk-spin-btn {{ position: static; flex: 0 0 44px; width: 44px; height: 44px;
  border: 1px solid #bbb; border-radius: 4px; background: #f6f6f6; color: #222; font: 22px/1 system-ui, sans-serif; }}
.bk-input-group > .bk-spin-wrapper > .bk-spin-btn:before {{ border: none; transform: none; }}
.bk-input-group > .bk-spin-wrapper > .bk-spin-btn.bk-spin-btn-up {{ order: 2; }}
.bk-input-group > .bk-spin-wrapper > .bk-spin-btn.bk-spin-btn-up:before {{ content: "+"; border: none; }}
.bk-input-group > .bk-spin-wrapper > .bk-spin-btn.bk-spin-btn-down {{ order: 1; }}
.bk-input-group > .bk-spin-wrapper > .bk-spin-btn.bk-spin-btn-down:before {{ content: "\\2212"; border: none; }}
input[type="checkbox"] {{ appearance: none; -webkit-appearance: none; width: 44px; height: 44px; margin: 0 0 0 -10px;
  vertical-align: middle; cursor: pointer; background: no-repeat center / 24px 24px
  {_svg(_BOX.format(fill="white", line="#666"))}; }}
input[type="checkbox"]:checked {{ background-image: {_svg(_BOX.format(fill="#0072b5", line="#0072b5") + _TICK)}; }}
input[type="checkbox"]:focus-visible {{ outline: 2px solid #0072b5; outline-offset: -6px; }}
input[type="checkbox"]:disabled {{ opacity: .5; }}
input[type="checkbox"] + * {{ top: 0; cursor: pointer; font-size: 15px; }}
"""
"""Every input's own style: tap targets at least 44 px — the box; a whole number's − and + steppers
(Bokeh's are 30 × 22 px arrows stacked in the box; here two 44 px buttons beside it); a check box
(44 px square around the drawn 24 px box, its label text tapping it too: :func:`page_behaviour`);
the "?" of its help, whose icon keeps Bokeh's size — a larger or padded icon stops its tooltip
opening on a tap — with an invisible 44 px target around it — 16 px text (a phone zooms into
smaller text on focus), and a red border on the input a half-typed or wrong value is about
(class ``rb-invalid``, set with the one-line error)."""


def tap_sized[W](widget: W) -> W:
    """``widget`` (a Panel widget) with :data:`TAP_CSS`, for forms not generated from declarations
    (:func:`widgets.forms.panel_app.widget_for` gives its widgets the style itself): the tracker's."""
    sheets = widget.stylesheets  # type: ignore[attr-defined]
    if TAP_CSS not in sheets:
        widget.stylesheets = [*sheets, TAP_CSS]  # type: ignore[attr-defined]
    return widget


def embedded() -> bool:
    """Whether the live page is shown inside a site page (``?embed=1``, see
    :func:`rulesbook.site.live.live_iframe`): its frame then grows to its content, so nothing in it
    is sticky or sized by the screen (``vh`` would be the frame's own, ever-growing height)."""
    import panel as pn

    return "embed" in (pn.state.session_args or {})


NUMERIC_CLASS = "rb-numeric"
"""The CSS class of a text box that holds a number typed as text (the tracker's set-up form keeps a
slip such as ``2OO`` to name it): a phone opens its number keyboard, as for a whole-number box."""

PAGE_BEHAVIOUR_JS = """
export function render({ el }) {
  // A whole-number box (Bokeh's spinner: its input sits in .bk-spin-wrapper) or a box marked
  // rb-numeric opens a phone's number keyboard: inputmode is set before the tap focuses it.
  function numeric(event) {
    const input = event.composedPath()[0]
    if (!(input instanceof HTMLInputElement) || input.hasAttribute("inputmode")) return
    const host = input.getRootNode().host
    const spin = input.parentElement && input.parentElement.classList.contains("bk-spin-wrapper")
    if (spin || (host && host.classList.contains("__NUMERIC__"))) {
      input.setAttribute("inputmode", "numeric")
      input.setAttribute("enterkeyhint", "done")
    }
  }
  // A check box's text ticks it, as a label would (Bokeh draws the text beside the box, unlinked).
  function label(event) {
    const text = event.composedPath()[0]
    if (!(text instanceof HTMLElement) || !text.classList.contains("bk-label")) return
    const box = text.getRootNode().querySelector('input[type="checkbox"]')
    if (box && !box.disabled) box.click()
  }
  for (const kind of ["pointerdown", "focusin"]) document.addEventListener(kind, numeric, true)
  document.addEventListener("click", label, true)
}
""".replace("__NUMERIC__", NUMERIC_CLASS)


def page_behaviour() -> Any:
    """What every live page does for a phone that its widgets cannot say themselves: a number box
    opens the number keyboard (``inputmode="numeric"``, set on Bokeh's input at the first touch or
    focus, before the keyboard opens), and a check box's text ticks it (an invisible component)."""
    return _behaviour_class()(visible=False)


@cache
def _behaviour_class() -> Any:
    from panel.custom import JSComponent

    class PageBehaviour(JSComponent):
        """Listens on the page for the taps :func:`page_behaviour` handles."""

        _esm: ClassVar[str] = PAGE_BEHAVIOUR_JS

    return PageBehaviour


def page_title(path: str) -> str:
    """The browser tab title of the live page at URL path ``path`` (``calc/<id>`` or ``app/<name>``)."""
    kind, _, name = path.partition("/")
    if kind == "calc":
        from rulesbook.registry import registry
        from rulesbook.variants import find_calculator, named_variant, variant_calculators

        added_by = variant_calculators().get(name) if name not in registry().calculators else None
        adder = named_variant(added_by) if added_by else None  # (a calculator a listed variant adds)
        title = find_calculator(name, adder).title
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
        return pn.Column(connection_banner(), page_behaviour(), nav, factory(), sizing_mode="stretch_width")

    view.__name__ = getattr(factory, "__name__", path)
    return view
