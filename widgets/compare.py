"""The "compare with" view shared by the ipywidgets and Panel calculators: baseline beside a variant.

:func:`variant_options` lists what a form's "Compare with" drop-down offers (``none`` and the
shipped variants of the calculator's system); :func:`form_result_html` is what the result pane
shows for the form's values: the plain result, or both results side by side, a table of the
differences (exact where both values are) and, where the result is a distribution, a plot of
both. Hooks for scripts and browser tests: each side is ``<div data-variant="NAME">`` holding
the usual ``data-key`` values; differences are ``data-key="difference-KEY"`` (text ``+0.3241 (+35/108)``, exact in
``data-exact``).

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.battle-shock")
    >>> html = form_result_html(calc, {"leadership": 7, "modifier": 0}, "battle-shock-3d6")
    >>> 'data-variant="battle-shock-3d6"' in html and 'data-exact="35/108">+0.3241 (+35/108)<' in html
    True
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from rulesbook.calculators import Calculator
from rulesbook.errors import InputError
from rulesbook.present import bar_chart
from rulesbook.variants import BASELINE, Comparison, choice_keys, compare, variants_for_system
from widgets.render import error_html, result_html

__all__ = ["NO_VARIANT", "form_inputs", "form_result_html", "variant_options"]

NO_VARIANT = "none"
"""The drop-down's value for "no comparison"."""

STYLE = """<style>
.rb-compare-sides { display: flex; flex-wrap: wrap; gap: 2em; }
.rb-compare-side h4 { margin: .2em 0; }
.rb-compare-side .rb-changes { font-size: .85em; color: #555; margin: 0 0 .3em 1em; padding: 0; }
.rb-difference td.rb-up { color: #11661a; } .rb-difference td.rb-down { color: #a00; }
</style>"""


def variant_options(calc: Calculator) -> list[str]:
    """``none`` and the shipped variants that can change this calculator's system."""
    if calc.choices is None:
        return [NO_VARIANT]
    return [NO_VARIANT, *(v.name for v in variants_for_system(calc.system))]


def form_inputs(calc: Calculator, values: Mapping[str, Any]) -> dict[str, Any]:
    """A form's values as calculator inputs: inputs that stand for a rule choice (a reading
    switch, an input named like a parameter) left at their default count as not given, so a
    compared variant's choices apply."""
    keys = choice_keys(calc)
    return {k: v for k, v in values.items() if not (k in keys and _at_default(calc, k, v))}


def _at_default(calc: Calculator, key: str, value: Any) -> bool:
    inp = calc.input(key)
    return not inp.required and inp.validate(value) == inp.validate(inp.default)


def form_result_html(calc: Calculator, values: Mapping[str, Any], variant: str = NO_VARIANT) -> str:
    """The result pane for a form: the result, or baseline and ``variant`` side by side."""
    try:
        if variant in ("", NO_VARIANT):
            return result_html(calc, calc.run(**values))
        comparison = compare(calc, form_inputs(calc, values), [variant])
    except InputError as exc:
        return error_html(str(exc))
    return comparison_html(comparison)


def comparison_html(comparison: Comparison) -> str:
    """Both results side by side, the differences, and a plot of distributions."""
    calc = comparison.calc
    sides = []
    variants = {v.name: v for v in comparison.variants}
    for name, result in comparison.results:
        v = variants.get(name)
        title = "Baseline (the rules as published)" if v is None else f"{name}: {v.title}"
        changes = "" if v is None else "".join(f"<li>{html.escape(s)}</li>" for s in v.summary())
        sides.append(
            f'<div class="rb-compare-side" data-variant="{html.escape(name)}"><h4>{html.escape(title)}</h4>'
            f'<ul class="rb-changes">{changes}</ul>{result_html(calc, result)}</div>'
        )
    parts = [STYLE, '<div class="rb-compare">', '<div class="rb-compare-sides">', *sides, "</div>"]
    parts.append(_difference_table(comparison))
    parts += [f'<p class="rb-warning">note: {html.escape(n)}</p>' for n in comparison.notes]
    parts.append(_distribution_svg(comparison))
    parts.append("</div>")
    return "".join(parts)


def _difference_table(comparison: Comparison) -> str:
    names = comparison.names
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    head += "".join(f"<th>Δ {html.escape(n)}</th>" for n in names[1:])
    rows = []
    for row in comparison.rows():
        cells = "".join(f"<td>{html.escape(row['text'][n])}</td>" for n in names)
        for n in names[1:]:
            diff = row["differences"][n] or {}
            up = isinstance(diff.get("value"), float | int) and diff["value"] > 0
            exact = f' data-exact="{html.escape(diff["exact"])}"' if "exact" in diff else ""
            cells += (
                f'<td class="{"rb-up" if up else "rb-down"}"><span data-key="difference-{row["key"]}"{exact}>'
                f"{html.escape(row['difference_text'][n])}</span></td>"
            )
        rows.append(f"<tr><th>{html.escape(row['label'])}</th>{cells}</tr>")
    return (
        '<table class="rulesbook-table rb-difference"><caption>Difference from the baseline</caption>'
        f"<tr><th></th>{head}</tr>{''.join(rows)}</table>"
    )


def _distribution_svg(comparison: Comparison) -> str:
    """Grouped bars of every distribution output (baseline and variant side by side), as inline SVG.

    Drawn by the one chart of every result view (:func:`rulesbook.present.bar_chart`): no
    plotting library, so the served page and the published site's in-browser calculator (where
    matplotlib does not exist) show the same chart.
    """
    found = comparison.distributions()
    if not found:
        return ""
    charts = []
    for key, label, series in found:
        output = next(o for o in comparison.calc.outputs if o.key == key)
        x_label = output.chart[0] if output.chart else key.replace("_", " ")
        width = max(len(values) for values in series.values())
        xs = [str(k) for k in range(width)]
        charts.append(bar_chart(f"compare-{key}", label, x_label, xs, list(series.items())))
    return f'<div class="rb-compare-plot" data-plot="{BASELINE}">{"".join(charts)}</div>'
