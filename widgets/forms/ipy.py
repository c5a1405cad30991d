"""ipywidgets calculators generated from the input declarations.

Example (in Jupyter)::

    from widgets.forms.ipy import calculator_widget
    calculator_widget("scrollhammer.morale-check")

The form has one control per declared input (integers as number boxes, booleans as
checkboxes, choices and interpretation switches as drop-downs, dice and lists as text boxes, a
name from the data as a box that suggests the names as you type); every change recomputes
(cached) and redraws the probability, the tables and the rule text. Typing counts as you type,
as on the web: at once for a calculator that answers in milliseconds, after a pause of
:data:`~widgets.forms.compare.SLOW_DELAY_MS` for a slower one. Labels are shown whole. A bad value
shows a one-line error above the last answer and keeps what was typed. Where the calculator's
system ships variants, a "Compare with" drop-down shows the baseline beside a variant
(:mod:`widgets.forms.compare`); the inputs a compared variant adds (``add: inputs``) get controls
below the form's own while it is compared (``calculator_widget(ID, "standard-reroll",
has_standard=True)`` starts one ticked).

A saved notebook shows each form as a picture (its inputs and answer, ``text/html`` beside the
live widget in the output), so a notebook opened before its kernel runs shows the form rather
than ``VBox(children=...``; once the cell runs, JupyterLab shows the live form instead.

>>> form = calculator_widget("scrollhammer.morale-check", ld=8)
>>> bundle = form._repr_mimebundle_()
>>> 'class="rb-form-picture"' in bundle["text/html"] and 'data-key="p_pass_exact">13/18<' in bundle["text/html"]
True
"""

from __future__ import annotations

import asyncio
import html
import time
from typing import Any

import ipywidgets as w

from rulesbook.calculators import Calculator, form_text
from rulesbook.errors import InputError
from rulesbook.inputs import Input, picks
from rulesbook.present import error_html, result_html, rules_html
from rulesbook.registry import registry
from rulesbook.variants import Variant, offerable_inputs
from widgets.forms.compare import (
    FAST_DELAY_MS,
    NO_VARIANT,
    SLOW_ANSWER_S,
    SLOW_DELAY_MS,
    added_inputs,
    form_result_html,
    offered_names,
    own_variant,
    variant_options,
)

__all__ = ["CalculatorForm", "calculator_widget", "control_for", "picture_html", "start_note_html"]

LABEL_STYLE = {"description_width": "14em"}
"""Room for every label whole (ipywidgets cuts a label to its box, "automatic-failu…")."""


def _layout() -> w.Layout:
    return w.Layout(width="100%", max_width="44em")


def control_for(inp: Input, value: Any = None, offerable: bool = False) -> w.ValueWidget:
    """The ipywidgets control for one declared input (its value counts as it is typed);
    ``offerable``: a compared variant may add names to suggest."""
    start = inp.initial if value is None else value
    desc = {
        "description": inp.title,
        "description_allow_html": False,
        "tooltip": inp.help,
        "style": dict(LABEL_STYLE),
        "layout": _layout(),
    }
    if inp.kind == "bool":
        return w.Checkbox(value=bool(start), indent=False, **desc)
    if inp.kind in ("choice", "interpretation"):
        return w.Dropdown(options=list(inp.choices), value=start, **desc)  # type: ignore[attr-defined]
    if inp.kind == "int":
        # Not bounded: an out-of-range number stays in the box and gets the one-line error.
        return w.IntText(value=start, continuous_update=True, **desc)
    text = form_text(inp, start)
    options = picks(inp)
    # a name from the data: suggested as typed
    if inp.kind != "word-list" and (len(options) > 1 or offerable):
        return w.Combobox(
            value=text,
            options=list(options),
            ensure_option=False,
            placeholder=inp.allowed(),
            continuous_update=True,
            **desc,
        )
    return w.Text(value=text, placeholder=inp.allowed(), continuous_update=True, **desc)


def picture_html(calc: Calculator, values: dict[str, Any], answer: str) -> str:
    """A static picture of a form: each input's label and value, then the answer shown (HTML)."""
    rows = "".join(
        f'<label class="rb-picture-input"><span>{html.escape(inp.title)}</span>'
        f'<input type="text" disabled value="{html.escape(_shown(inp, values.get(inp.key)))}"></label>'
        for inp in calc.inputs
    )
    return (
        f'<div class="rb-form-picture" data-calc="{html.escape(calc.id)}">'
        f'<p class="rb-widget-caption"><strong>{html.escape(calc.title)}</strong> '
        f"<code>{html.escape(calc.id)}</code> — a picture of the form; run the cell for the live form.</p>"
        '<form class="rb-picture-form" style="display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));'
        f'gap:.3rem .8rem">{rows}</form>{answer}<!--/rb-form-picture--></div>'
    )


def _shown(inp: Input, value: Any) -> str:
    if value is None:
        return ""
    try:
        return form_text(inp, value)
    except (TypeError, ValueError, AttributeError):
        return str(value)


def start_note_html(calc: Calculator, borrowed: tuple[str, ...]) -> str:
    """The line saying which inputs start from the worked example (they have no default; the
    others start from their defaults), or nothing.

    >>> from rulesbook.registry import registry
    >>> print(start_note_html(registry().calculator("scrollhammer.morale-check"), ("ld",)))
    <p class="rb-form-start">Starts from the defaults; Leadership (Ld) has no default, so it starts from the worked example (ld=7).</p>
    """
    if not borrowed:
        return ""
    titles = [calc.input(k).title for k in borrowed]
    names = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
    which = "has no default, so it starts" if len(titles) == 1 else "have no default, so they start"
    shown = ", ".join(f"{k}={calc.examples[0][k]}" for k in borrowed)
    text = f"Starts from the defaults; {names} {which} from the worked example ({shown})."
    return f'<p class="rb-form-start">{html.escape(text)}</p>'


class CalculatorForm:
    """A generated form: ``.widget`` is the ipywidgets box, ``.values()`` the raw inputs."""

    def __init__(self, calc: Calculator, compare_with: str = NO_VARIANT, **initial: Any) -> None:
        self.calc = calc
        self._own = own_variant(calc, compare_with)  # a file this notebook opened the form with
        self._own_label = compare_with
        # the inputs the compared variant adds (add: inputs): their own controls, below the form's
        self._added_start = {
            i.key: initial.pop(i.key)
            for i in added_inputs(calc, self.compared(compare_with))
            if i.key in initial
        }
        start, borrowed = calc.form_start(initial)
        offerable = offerable_inputs(calc)
        self.controls = {i.key: control_for(i, start[i.key], i.key in offerable) for i in calc.inputs}
        self.output = w.HTML()
        options = variant_options(calc, compare_with)
        self.compare = w.Dropdown(
            options=options,
            value=compare_with,
            description="Compare with",
            style=dict(LABEL_STYLE),
            layout=_layout(),
        )
        self._timer: asyncio.TimerHandle | None = None
        self._slow = False  # the last answer took longer than SLOW_ANSWER_S
        self._last_good = ""
        self._offer(compare_with)
        self.compare.observe(lambda change: self._offer(change["new"]), names="value")
        self.added: dict[str, w.ValueWidget] = {}
        self.added_box = w.VBox([])
        self._show_added(compare_with)
        self.compare.observe(lambda change: self._show_added(change["new"]), names="value")
        for control in [*self.controls.values(), self.compare]:
            control.observe(self._on_change, names="value")
        rules = w.Accordion(
            children=[w.HTML(rules_html(registry().rules_named(calc.rules)))], titles=("Rule text",)
        )
        self.widget = w.VBox(
            [
                w.HTML(
                    f"<h3>{html.escape(calc.title)}</h3><p>{html.escape(calc.summary)}</p>"
                    + start_note_html(calc, borrowed)
                ),
                *self.controls.values(),
                self.added_box,
                *([self.compare] if len(options) > 1 else []),
                self.output,
                rules,
            ]
        )
        self.refresh()

    def _offer(self, variant: str) -> None:
        """Offer the names a compared ``variant`` adds (``add:``) beside the printed ones: a name
        box suggests them, a word list's box says them in its placeholder."""
        for key in offerable_inputs(self.calc):
            inp, control = self.calc.input(key), self.controls[key]
            names = offered_names(self.calc, inp, self.compared(variant))
            if isinstance(control, w.Combobox):
                control.options = list(names)
            elif isinstance(control, w.Text):
                added = [n for n in names if n not in picks(inp)]
                control.placeholder = inp.allowed() + (
                    f"; {variant} adds {', '.join(added)}" if added else ""
                )

    def compared(self, value: str | None = None) -> str | Variant:
        """What the form compares with (or would, at drop-down ``value``): a listed variant's name,
        or the notebook's own variant."""
        value = str(self.compare.value if value is None else value)
        return self._own if self._own is not None and value == self._own_label else value

    def values(self) -> dict[str, Any]:
        """The raw values in the controls (what the user typed), with the inputs the compared
        variant adds."""
        return {key: control.value for key, control in {**self.controls, **self.added}.items()}

    def _show_added(self, variant: str) -> None:
        """Show the controls of the inputs ``variant`` adds (declared label, help and default; a
        value set earlier is kept while they stay), and no others."""
        controls = {}
        for inp in added_inputs(self.calc, self.compared(variant)):
            control = self.added.get(inp.key)
            if control is None:
                value = self._added_start.pop(inp.key, inp.initial)
                control = control_for(inp, inp.parse(value) if isinstance(value, str) else value)
                control.observe(self._on_change, names="value")
            controls[inp.key] = control
        self.added = controls
        self.added_box.children = tuple(controls.values())

    def refresh(self) -> None:
        """Recompute and redraw; on bad input the one-line error above the last answer."""
        self._timer = None
        began = time.perf_counter()
        if self.compare.value != NO_VARIANT:  # baseline and variant side by side
            shown = form_result_html(self.calc, self.values(), self.compared())
        else:
            try:
                result = self.calc.run(**self.values())
            except InputError as exc:
                shown = error_html(str(exc))
            else:
                shown = result_html(self.calc.outputs, result, styled=True)
        self._slow = time.perf_counter() - began > SLOW_ANSWER_S
        if 'data-key="error"' in shown and self._last_good:
            shown += f'<div class="rb-kept" style="opacity:.5">{self._last_good}</div>'
        elif 'data-key="error"' not in shown:
            self._last_good = shown
        self.output.value = shown

    def _on_change(self, change: Any) -> None:
        """A drop-down or check box answers at once; typed text after the web's pause."""
        typed = isinstance(change.get("owner"), w.Text | w.IntText | w.Combobox)
        delay = SLOW_DELAY_MS if self._slow else FAST_DELAY_MS
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script, a test): answer now
            loop = None
        if not typed or delay == 0 or loop is None:
            self.refresh()
            return
        self._timer = loop.call_later(delay / 1000, self.refresh)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            data["text/html"] = picture_html(self.calc, self.values(), self.output.value)
        return bundle


def calculator_widget(calc_id: str, compare_with: str = NO_VARIANT, **initial: Any) -> CalculatorForm:
    """An ipywidgets calculator for ``calc_id``; keyword arguments set starting values;
    ``compare_with`` a variant to show beside the baseline: a shipped one, one of yours in
    ``$RULESBOOK_VARIANTS_DIR``, the path of a variant file, or ``A+B``."""
    return CalculatorForm(registry().calculator(calc_id), compare_with, **initial)
