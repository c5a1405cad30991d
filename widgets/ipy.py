"""ipywidgets calculators generated from the input declarations.

Example (in Jupyter)::

    from widgets.ipy import calculator_widget
    calculator_widget("scrollhammer.morale-check")

The form has one control per declared input (integers as bounded number boxes, booleans as
checkboxes, choices and interpretation switches as drop-downs, dice and lists as text boxes);
every change recomputes (cached) and redraws the probability, the tables and the rule text.
A bad value shows a one-line error and keeps what was typed. Where the calculator's system
ships variants, a "Compare with" drop-down shows the baseline beside a variant
(:mod:`widgets.compare`).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from rulesbook.calculators import NOT_GIVEN, Calculator, Input
from rulesbook.errors import InputError
from rulesbook.present import error_html, result_html, rules_html
from rulesbook.registry import registry
from widgets.compare import NO_VARIANT, form_result_html, variant_options

__all__ = ["CalculatorForm", "calculator_widget", "control_for"]


def control_for(inp: Input, value: Any = None) -> w.ValueWidget:
    """The ipywidgets control for one declared input."""
    start = inp.initial if value is None else value
    desc = {
        "description": inp.title,
        "tooltip": inp.help,
        "style": {"description_width": "initial"},
    }
    if inp.kind == "bool":
        return w.Checkbox(value=bool(start), indent=False, **desc)
    if inp.kind in ("choice", "interpretation"):
        return w.Dropdown(options=list(inp.choices), value=start, **desc)  # type: ignore[attr-defined]
    if inp.kind == "int":
        # Not bounded: an out-of-range number stays in the box and gets the one-line error.
        return w.IntText(value=start, **desc)
    text = "" if start is NOT_GIVEN or (start is None and inp.kind != "optional") else inp.format(start)
    return w.Text(value=text, placeholder=inp.allowed(), **desc)


class CalculatorForm:
    """A generated form: ``.widget`` is the ipywidgets box, ``.values()`` the raw inputs."""

    def __init__(self, calc: Calculator, compare_with: str = NO_VARIANT, **initial: Any) -> None:
        self.calc = calc
        start = {**calc.initial_values(), **initial}
        self.controls = {i.key: control_for(i, start[i.key]) for i in calc.inputs}
        self.output = w.HTML()
        options = variant_options(calc, compare_with)
        self.compare = w.Dropdown(options=options, value=compare_with, description="Compare with")
        for control in [*self.controls.values(), self.compare]:
            control.observe(self._on_change, names="value")
        rules = w.Accordion(
            children=[w.HTML(rules_html(registry().rules_named(calc.rules)))], titles=("Rule text",)
        )
        self.widget = w.VBox(
            [
                w.HTML(f"<h3>{calc.title}</h3><p>{calc.summary}</p>"),
                *self.controls.values(),
                *([self.compare] if len(options) > 1 else []),
                self.output,
                rules,
            ]
        )
        self.refresh()

    def values(self) -> dict[str, Any]:
        """The raw values in the controls (what the user typed)."""
        return {key: control.value for key, control in self.controls.items()}

    def refresh(self) -> None:
        """Recompute and redraw; on bad input show the one-line error instead."""
        if self.compare.value != NO_VARIANT:  # baseline and variant side by side
            self.output.value = form_result_html(self.calc, self.values(), self.compare.value)
            return
        try:
            result = self.calc.run(**self.values())
        except InputError as exc:
            self.output.value = error_html(str(exc))
            return
        self.output.value = result_html(self.calc.outputs, result, styled=True)

    def _on_change(self, _change: Any) -> None:
        self.refresh()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def calculator_widget(calc_id: str, compare_with: str = NO_VARIANT, **initial: Any) -> CalculatorForm:
    """An ipywidgets calculator for ``calc_id``; keyword arguments set starting values;
    ``compare_with`` a variant to show beside the baseline: a shipped one, one of yours in
    ``$RULESBOOK_VARIANTS_DIR``, the path of a variant file, or ``A+B``."""
    return CalculatorForm(registry().calculator(calc_id), compare_with, **initial)
