"""Panel calculators generated from the input declarations.

Example::

    from widgets.panel_app import calculator_app
    calculator_app("scrollhammer.morale-check").servable()

Each declared input becomes a Panel widget carrying the CSS class ``rb-input-<key>``; the
result pane (class ``rb-result``) shows every headline value in ``<span data-key=...>``.
Recomputation is cached by the calculator; a bad value shows a one-line error and the
widgets keep what the user typed.
"""

from __future__ import annotations

from typing import Any

import panel as pn

from rulesbook.calculators import NOT_GIVEN, Calculator, Input
from rulesbook.errors import InputError
from rulesbook.registry import registry
from widgets.render import error_html, result_html, rules_html
from widgets.uploads import UploadBox

__all__ = ["CalculatorApp", "calculator_app", "widget_for"]


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

    def __init__(self, calc: Calculator, **initial: Any) -> None:
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
        for widget in self.widgets.values():
            widget.param.watch(self._on_change, "value")
        rules = pn.pane.HTML(rules_html(calc.rules), sizing_mode="stretch_width")
        inputs = pn.Column(*self.widgets.values(), width=320)
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


def calculator_app(calc_id: str, **initial: Any) -> pn.viewable.Viewable:
    """A Panel layout for ``calc_id``."""
    return CalculatorApp(registry().calculator(calc_id), **initial).view
