"""Charts as inline SVG: offline, scriptless, readable on a phone — the same on every page.

A calculator asks for a chart by declaring it on an output (``Output.chart``); :func:`charts_html`
draws those from a result, :func:`bar_chart` draws one.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from rulesbook.present.numbers import percent
from rulesbook.present.shown import OutputLike, scalar_text
from rulesbook.results import CalcResult

__all__ = [
    "CHART_COLOURS",
    "bar_chart",
    "charts_html",
]

CHART_COLOURS = ("#8d6e63", "#e65100", "#1e88e5")
"""Bar colours of a chart's series, in order (the site's brown, then orange and blue)."""


_W, _H, _LEFT, _RIGHT, _TOP, _BOTTOM = 420.0, 200.0, 50.0, 6.0, 10.0, 40.0


def _number(value: Any) -> float:
    if isinstance(value, str) and "/" in value:
        return float(Fraction(value))
    return float(value) if isinstance(value, int | float | Fraction) else 0.0


def bar_chart(
    key: str, title: str, x_label: str, xs: Sequence[str], series: Sequence[tuple[str, Sequence[float]]]
) -> str:
    """An inline SVG bar chart of probabilities (HTML ``<figure>``): one bar per outcome and series.

    No script and nothing loaded from anywhere, so it works on the static site, offline, in a
    notebook and on the live pages alike; each bar's ``<title>`` says its outcome and percentage
    (hover or long-press), and the figure's ``aria-label`` says what the chart shows.

    >>> svg = bar_chart("k", "P(k)", "Hits", ["0", "1"], [("P(exactly)", [0.25, 0.75])])
    >>> svg.count('<rect class="rb-bar'), "Hits 1: 75.0%" in svg
    (2, True)
    """
    top = max((v for _, ys in series for v in ys), default=0.0) or 1.0
    plot_w = _W - _LEFT - _RIGHT
    parts = [
        f'<figure class="rb-chart" data-chart="{html.escape(key)}" style="margin:.6em 0;max-width:560px">',
        _caption(title, series),
        f'<svg viewBox="0 0 {_W:.0f} {_H:.0f}" width="100%" role="img" '
        f'aria-label="{html.escape(title)}: bar chart by {html.escape(x_label)}" '
        'style="font-family:system-ui,sans-serif;font-size:15px">',
        *_y_axis(top),
        *_bars(x_label, xs, series, top),
        f'<text x="{_LEFT + plot_w / 2:.1f}" y="{_H - 4:.0f}" text-anchor="middle" fill="#333">'
        f"{html.escape(x_label)}</text></svg></figure>",
    ]
    return "".join(parts)


def _caption(title: str, series: Sequence[tuple[str, Sequence[float]]]) -> str:
    """The chart's title, with a legend (a coloured square per series) when it has several."""
    legend = (
        [
            f' <span style="font-weight:400;white-space:nowrap"><span style="color:{CHART_COLOURS[n % 3]}">'
            f"■</span> {html.escape(name)}</span>"
            for n, (name, _) in enumerate(series)
        ]
        if len(series) > 1
        else []
    )
    return f'<figcaption style="font-weight:600">{html.escape(title)}{"".join(legend)}</figcaption>'


def _y_axis(top: float) -> list[str]:
    """Grid lines at 0, half and the top value, labelled as percentages."""
    plot_h = _H - _TOP - _BOTTOM
    base = _TOP + plot_h
    parts = []
    for frac in (0.0, 0.5, 1.0):
        y = base - frac * plot_h
        parts.append(
            f'<line x1="{_LEFT:.0f}" x2="{_W - _RIGHT:.0f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{_LEFT - 4:.0f}" y="{y + 5:.1f}" text-anchor="end" fill="#555">{percent(top * frac)}</text>'
        )
    return parts


def _bars(
    x_label: str, xs: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], top: float
) -> list[str]:
    """One bar per outcome and series (its ``<title>`` says the outcome and the percentage), and
    the outcomes under the axis (at most 16 labels)."""
    plot_w, plot_h = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM
    base = _TOP + plot_h
    group = plot_w / max(len(xs), 1)
    bar = group * 0.8 / max(len(series), 1)
    step = max(1, -(-len(xs) // 16))
    parts = []
    for i, x in enumerate(xs):
        left = _LEFT + i * group + group * 0.1
        for n, (name, ys) in enumerate(series):
            v = ys[i] if i < len(ys) else 0.0
            h = plot_h * v / top
            parts.append(
                f'<rect class="rb-bar rb-bar-{n}" x="{left + n * bar:.1f}" y="{base - h:.1f}" '
                f'width="{max(bar - 1, 1):.1f}" height="{h:.1f}" fill="{CHART_COLOURS[n % 3]}">'
                f"<title>{html.escape(x_label)} {html.escape(x)}: {percent(v)}"
                f"{' (' + html.escape(name) + ')' if len(series) > 1 else ''}</title></rect>"
            )
        if i % step == 0:
            parts.append(
                f'<text x="{_LEFT + (i + 0.5) * group:.1f}" y="{base + 17:.1f}" text-anchor="middle" '
                f'fill="#333">{html.escape(x)}</text>'
            )
    return parts


def charts_html(outputs: Iterable[OutputLike], result: CalcResult) -> list[str]:
    """The bar charts the outputs ask for (``Output.chart``), from the result's values and tables.

    A ``list`` output is drawn as P(k) for k = 0, 1, ...; a ``table`` output by its x column and
    its y columns (labels from the table's declared columns).
    """
    out = []
    for o in outputs:
        chart = getattr(o, "chart", ())
        if not chart:
            continue
        if o.kind == "list" and isinstance(result.values.get(o.key), Sequence):
            ys = [_number(v) for v in result.values[o.key]]
            out.append(bar_chart(o.key, o.label, chart[0], [str(k) for k in range(len(ys))], [("", ys)]))
        elif o.kind == "table":
            table = next((t for t in result.tables if t.name == o.key), None)
            if table is None or not table.rows:
                continue
            col = {c: i for i, c in enumerate(table.columns)}
            x, y_columns = chart[0], [c for c in chart[1:] if c in col]
            if x not in col or not y_columns:
                continue
            xs = [scalar_text(row[col[x]]) for row in table.rows]
            series = [(table.label(c), [_number(row[col[c]]) for row in table.rows]) for c in y_columns]
            out.append(bar_chart(o.key, o.label, table.label(x), xs, series))
    return out
