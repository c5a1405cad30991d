"""A comparison as HTML: the baseline beside each variant, the differences, and shared charts.

The differences come first, so a phone shows the variant's headline beside the baseline's
without scrolling: a table of each value on both sides and the difference in words — a
probability in percentage points (``32.4 points more``), a number as ``0.52 fewer`` — in one
neutral colour (a rise is not "good": more Fall Backs is worse for the player). Both full
results follow.

Hooks for scripts and browser tests: each side is ``<div data-variant="NAME">`` holding the usual
``data-key`` values; a difference is ``data-key="difference-KEY"`` (its words; the exact
difference in ``data-exact``); a distribution is one inline SVG chart with a series per side
(``data-chart="KEY"``), drawn as every other chart is (:func:`~.charts.bar_chart`).

Example:
    >>> from rulesbook.registry import registry
    >>> from rulesbook.variants import compare
    >>> calc = registry().calculator("wh40k.battle-shock")
    >>> page = comparison_html(compare(calc, {"leadership": 7}, ["battle-shock-3d6"]))
    >>> 'data-variant="battle-shock-3d6"' in page and 'data-exact="35/108">32.4 points more<' in page
    True
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

from rulesbook.present.charts import bar_chart
from rulesbook.present.html import result_html
from rulesbook.present.numbers import fixed, percent
from rulesbook.present.shown import OutputLike
from rulesbook.results import CalcResult

__all__ = ["COMPARISON_STYLE", "ComparisonLike", "comparison_html", "difference_words"]

COMPARISON_STYLE = """<style>
.rb-compare-sides { display: flex; flex-wrap: wrap; gap: 2em; }
.rb-compare-side { flex: 1 1 18em; min-width: 0; max-width: 100%; }
.rb-compare-side h4 { margin: .2em 0; }
.rb-compare-side .rb-changes { font-size: .85em; color: #555; margin: 0 0 .3em 1em; padding: 0; }
.rb-difference td.rb-diff { color: #333; background: #f3f1ee; }
.rb-difference td.rb-diff .rb-exact { font-size: .85em; color: #666; }
.rb-difference caption { font-weight: 600; text-align: left; }
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
    parts = [COMPARISON_STYLE, '<div class="rb-compare">', _difference_table(comparison)]
    parts += [f'<p class="rb-warning">note: {html.escape(n)}</p>' for n in comparison.notes]
    parts += ['<div class="rb-compare-sides">', *sides, "</div>"]
    axes = {o.key: (getattr(o, "chart", ()) or ("outcome",))[0] for o in calc.outputs}
    parts += [
        _distribution_chart(key, label, series, axes.get(key, "outcome"))
        for key, label, series in comparison.distributions()
    ]
    parts.append("</div>")
    return "".join(parts)


def difference_words(kind: str, diff: Mapping[str, Any] | None) -> str:
    """A difference in words: a probability in percentage points, a number as ``more``/``fewer``.

    >>> difference_words("probability", {"value": 0.25, "exact": "1/4"})
    '25.0 points more'
    >>> difference_words("probability", {"value": -1 / 6}), difference_words("number", {"value": -0.5})
    ('16.7 points fewer', '0.50 fewer')
    >>> difference_words("count", {"value": 2}), difference_words("number", {"value": 0.0})
    ('2 more', 'the same')
    >>> difference_words("bool", {"value": "yes → no"}), difference_words("number", None)
    ('yes → no', 'the same')
    """
    if diff is None:
        return "the same"
    value = diff.get("value")
    if not isinstance(value, int | float) or isinstance(value, bool):
        return str(value)
    if value == 0:
        return "the same"
    word = "more" if value > 0 else "fewer"
    if kind == "probability":
        return f"{percent(abs(value)).removesuffix('%')} points {word}"
    size = str(abs(value)) if isinstance(value, int) else fixed(abs(value))
    return f"{size} {word}"


def _difference_table(comparison: ComparisonLike) -> str:
    """Each value on both sides and the difference in words (neutral colour, exact beneath)."""
    names = comparison.names
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    head += "".join(f"<th>difference ({html.escape(n)})</th>" for n in names[1:])
    rows = []
    for row in comparison.rows():
        cells = "".join(f"<td>{html.escape(row['shown'][n])}</td>" for n in names)
        for n in names[1:]:
            diff = row["differences"][n]
            exact = f' data-exact="{html.escape(diff["exact"])}"' if diff and "exact" in diff else ""
            note = row["difference_text"][n] if diff and "exact" in diff else ""
            small = f' <span class="rb-exact">({html.escape(note.partition(" (")[2].rstrip(")"))})</span>'
            cells += (
                f'<td class="rb-diff"><span data-key="difference-{row["key"]}"{exact}>'
                f"{html.escape(difference_words(row['kind'], diff))}</span>{small if note else ''}</td>"
            )
        rows.append(f"<tr><th>{html.escape(row['label'])}</th>{cells}</tr>")
    return (
        '<table class="rulesbook-table rb-difference"><caption>Published rules and variant, side by side</caption>'
        f"<tr><th></th>{head}</tr>{''.join(rows)}</table>"
    )


def _distribution_chart(
    key: str, label: str, series: Mapping[str, list[float]], axis: str = "outcome"
) -> str:
    """One chart of a distribution output, a series of bars per side (baseline first)."""
    size = max((len(v) for v in series.values()), default=0)
    return (
        f'<div class="rb-compare-plot" data-plot="{html.escape(key)}">'
        + bar_chart(key, label, axis, [str(k) for k in range(size)], list(series.items()))
        + "</div>"
    )


def summary_html(outputs: Sequence[OutputLike], results: Sequence[tuple[str, CalcResult]]) -> str:
    """The one line that stays in view while a form is edited: the key probability (the first
    probability the result has; in a comparison, the first one a variant changes), and beside it
    each compared variant's with the difference.

    A page shows it pinned at the top of the screen (``data-summary``) while the full result,
    below or above the form, is out of view.

    >>> from rulesbook.registry import registry
    >>> from rulesbook.variants import compare
    >>> calc = registry().calculator("wh40k.battle-shock")
    >>> line = summary_html(calc.outputs, compare(calc, {"leadership": 7}, ["battle-shock-3d6"]).results)
    >>> import re; re.sub("<[^>]+>", "", line)
    'P(pass): 58.3% · battle-shock-3d6: 90.7% (32.4 points more)'
    """
    if not results:
        return ""
    base = results[0][1].values
    candidates = [o for o in outputs if o.kind == "probability" and isinstance(base.get(o.key), float)]
    if not candidates:
        return ""
    changed = [o for o in candidates if any(r.values.get(o.key) != base[o.key] for _, r in results[1:])]
    key = (changed or candidates)[0]
    parts = [
        f'<strong>{html.escape(key.label)}:</strong> <span data-summary-side="{html.escape(results[0][0])}">'
        f"{percent(base[key.key])}</span>"
    ]
    for name, result in results[1:]:
        value = result.values.get(key.key)
        if not isinstance(value, float):
            continue
        exact, base_exact = result.values.get(f"{key.key}_exact"), base.get(f"{key.key}_exact")
        diff = value - base[key.key]
        if isinstance(exact, str) and isinstance(base_exact, str):
            diff = float(Fraction(exact) - Fraction(base_exact))
        parts.append(
            f' · {html.escape(name)}: <span data-summary-side="{html.escape(name)}">{percent(value)}</span> '
            f"({difference_words('probability', {'value': diff})})"
        )
    return f'<div class="rb-summary" data-summary="{html.escape(key.key)}">{"".join(parts)}</div>'
