"""A comparison as HTML: the baseline beside each variant, the differences, and shared charts.

Hooks for scripts and browser tests: each side is ``<div data-variant="NAME">`` holding the usual
``data-key`` values; a difference is ``data-key="difference-KEY"`` (text ``+0.3241 (+35/108)``,
the exact difference in ``data-exact``); a distribution is one inline SVG chart with a series
per side (``data-chart="KEY"``), drawn as every other chart is (:func:`~.charts.bar_chart`).

Example:
    >>> from rulesbook.registry import registry
    >>> from rulesbook.variants import compare
    >>> calc = registry().calculator("wh40k.battle-shock")
    >>> page = comparison_html(compare(calc, {"leadership": 7}, ["battle-shock-3d6"]))
    >>> 'data-variant="battle-shock-3d6"' in page and 'data-exact="35/108">+0.3241 (+35/108)<' in page
    True
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from rulesbook.present.charts import bar_chart
from rulesbook.present.html import result_html
from rulesbook.present.shown import OutputLike
from rulesbook.results import CalcResult

__all__ = ["COMPARISON_STYLE", "ComparisonLike", "comparison_html"]

COMPARISON_STYLE = """<style>
.rb-compare-sides { display: flex; flex-wrap: wrap; gap: 2em; }
.rb-compare-side h4 { margin: .2em 0; }
.rb-compare-side .rb-changes { font-size: .85em; color: #555; margin: 0 0 .3em 1em; padding: 0; }
.rb-difference td.rb-up { color: #11661a; } .rb-difference td.rb-down { color: #a00; }
</style>"""


class _CalcLike(Protocol):
    @property
    def outputs(self) -> Sequence[OutputLike]: ...


class _VariantLike(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    def summary(self) -> list[str]: ...


class ComparisonLike(Protocol):
    """What the view needs of a :class:`rulesbook.variants.Comparison`."""

    @property
    def calc(self) -> _CalcLike: ...

    @property
    def variants(self) -> Sequence[_VariantLike]: ...

    @property
    def results(self) -> Sequence[tuple[str, CalcResult]]: ...

    @property
    def notes(self) -> Sequence[str]: ...

    @property
    def names(self) -> list[str]: ...

    def rows(self) -> list[dict[str, Any]]: ...

    def distributions(self) -> list[tuple[str, str, dict[str, list[float]]]]: ...


def comparison_html(comparison: ComparisonLike) -> str:
    """Both results side by side, the differences, and a chart of each distribution."""
    calc = comparison.calc
    sides = []
    variants = {v.name: v for v in comparison.variants}
    for name, result in comparison.results:
        v = variants.get(name)
        title = "Baseline (the rules as published)" if v is None else f"{name}: {v.title}"
        changes = "" if v is None else "".join(f"<li>{html.escape(s)}</li>" for s in v.summary())
        sides.append(
            f'<div class="rb-compare-side" data-variant="{html.escape(name)}"><h4>{html.escape(title)}</h4>'
            f'<ul class="rb-changes">{changes}</ul>{result_html(calc.outputs, result, styled=True)}</div>'
        )
    parts = [COMPARISON_STYLE, '<div class="rb-compare">', '<div class="rb-compare-sides">', *sides, "</div>"]
    parts.append(_difference_table(comparison))
    parts += [f'<p class="rb-warning">note: {html.escape(n)}</p>' for n in comparison.notes]
    parts += [_distribution_chart(key, label, series) for key, label, series in comparison.distributions()]
    parts.append("</div>")
    return "".join(parts)


def _difference_table(comparison: ComparisonLike) -> str:
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


def _distribution_chart(key: str, label: str, series: Mapping[str, list[float]]) -> str:
    """One chart of a distribution output, a series of bars per side (baseline first)."""
    size = max((len(v) for v in series.values()), default=0)
    return (
        f'<div class="rb-compare-plot" data-plot="{html.escape(key)}">'
        + bar_chart(key, label, "outcome", [str(k) for k in range(size)], list(series.items()))
        + "</div>"
    )
