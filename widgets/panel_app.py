"""Panel calculators generated from the input declarations.

Example::

    from widgets.panel_app import calculator_app
    calculator_app("scrollhammer.morale-check").servable()

Each declared input becomes a Panel widget carrying the CSS class ``rb-input-<key>``; the
result pane (class ``rb-result``) shows every headline value in ``<span data-key=...>``.
Recomputation is cached by the calculator; a bad value shows a one-line error and the
widgets keep what the user typed. The "Compare with" drop-down (class ``rb-input-variant``)
shows the baseline beside a shipped variant; served apps keep every input and the variant in
the URL's query string (:meth:`CalculatorApp.sync_url`).
"""

from __future__ import annotations

from typing import Any

import panel as pn

from rulesbook.calculators import NOT_GIVEN, Calculator, Input
from rulesbook.errors import InputError
from rulesbook.registry import registry
from widgets.compare import NO_VARIANT, form_result_html, variant_options
from widgets.render import error_html, result_html, rules_html
from widgets.uploads import UploadBox

__all__ = ["CalculatorApp", "calculator_app", "served_calculator_app", "widget_for"]


def widget_for(inp: Input, value: Any) -> pn.widgets.Widget:
    """The Panel widget for one declared input."""
    common: dict[str, Any] = {"label": inp.title, "css_classes": [f"rb-input-{inp.key}"]}
    if inp.kind == "bool":
        return pn.widgets.Checkbox(value=bool(value), **common)
    common["description"] = inp.help
    if inp.kind in ("choice", "interpretation"):
        return pn.widgets.Select(options=list(inp.choices), value=value, **common)  # type: ignore[attr-defined]
    if inp.kind == "int":
        # No start/end: out-of-range numbers stay in the box and get the one-line error.
        return pn.widgets.IntInput(value=value, **common)
    text = "" if value is NOT_GIVEN or (value is None and inp.kind != "optional") else inp.format(value)
    return pn.widgets.TextInput(value=text, placeholder=inp.allowed(), **common)


class CalculatorApp:
    """A generated Panel calculator; ``.view`` is the layout."""

    def __init__(self, calc: Calculator, compare_with: str = NO_VARIANT, **initial: Any) -> None:
        self.calc = calc
        start = {**calc.initial_values(), **initial}
        # A file on the web is an upload, never a path on the server (widgets/uploads.py).
        self.uploads = {
            i.key: UploadBox(i.key, getattr(i, "suffixes", ()), start[i.key])
            for i in calc.inputs
            if i.kind == "path"
        }
        self.widgets = {
            i.key: self.uploads[i.key].widget(i.title, [f"rb-input-{i.key}"])
            if i.key in self.uploads
            else widget_for(i, start[i.key])
            for i in calc.inputs
        }
        self.result = pn.pane.HTML("", css_classes=["rb-result"], sizing_mode="stretch_width")
        options = variant_options(calc)
        self.compare = pn.widgets.Select(
            label="Compare with", options=options, value=compare_with, css_classes=["rb-input-variant"]
        )
        self.compare.visible = len(options) > 1
        for widget in [*self.widgets.values(), self.compare]:
            widget.param.watch(self._on_change, "value")
        rules = pn.pane.HTML(rules_html(calc.rules), sizing_mode="stretch_width")
        inputs = pn.Column(*self.widgets.values(), self.compare, width=320)
        # Result first: beside the form on wide screens (row-reverse), above it on a phone.
        result_col = pn.Column(self.result, css_classes=["rb-result-col"], min_width=300)
        result_col.styles = {"flex": "1 1 300px"}
        self.view = pn.Column(
            pn.pane.Markdown(f"## {calc.title}\n\n{calc.summary}\n\n`{calc.id}`"),
            pn.FlexBox(
                result_col,
                inputs,
                flex_direction="row-reverse",
                flex_wrap="wrap",
                justify_content="flex-end",
                sizing_mode="stretch_width",
            ),
            pn.Card(rules, title="Rule text", collapsed=False, sizing_mode="stretch_width"),
            sizing_mode="stretch_width",
        )
        self.refresh()

    def values(self) -> dict[str, Any]:
        """What is in the widgets now."""
        values = {key: widget.value for key, widget in self.widgets.items()}
        return {**values, **{key: box.path() for key, box in self.uploads.items()}}

    def refresh(self) -> None:
        """Recompute and redraw, or show the one-line error."""
        if self.compare.value != NO_VARIANT:  # baseline and variant side by side
            self.result.object = form_result_html(self.calc, self.values(), self.compare.value)
            return
        try:
            result = self.calc.run(**self.values())
        except InputError as exc:
            self.result.object = error_html(str(exc))
            return
        self.result.object = result_html(self.calc, result)

    def _on_change(self, event: Any) -> None:
        for key, box in self.uploads.items():
            if event.obj is self.widgets[key] and event.new:
                try:
                    box.store(bytes(event.new), getattr(self.widgets[key], "filename", "") or "")
                except InputError as exc:
                    self.result.object = error_html(str(exc))
                    return
        self.refresh()

    def sync_url(self) -> None:
        """Keep the page's query string and the form in step (``?ld=7&variant=NAME``): the URL's
        values fill the form when the page opens, and every change is written back, so a
        comparison can be bookmarked and sent."""
        location = pn.state.location
        if location is None:
            return
        for key, widget in self.widgets.items():
            if key not in self.uploads:  # an uploaded file never goes into a URL
                location.sync(widget, {"value": key})
        location.sync(self.compare, {"value": "variant"})


def calculator_app(calc_id: str, **initial: Any) -> pn.viewable.Viewable:
    """A Panel layout for ``calc_id``."""
    return CalculatorApp(registry().calculator(calc_id), **initial).view


def served_calculator_app(calc_id: str) -> pn.viewable.Viewable:
    """The served page of ``calc_id``: inputs and the compared variant follow the URL's query string."""
    app = CalculatorApp(registry().calculator(calc_id))
    app.sync_url()
    return app.view
