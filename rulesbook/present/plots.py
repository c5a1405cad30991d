"""Designer plots: line charts, annotated heatmaps and tornado charts a designer can read.

Every designer figure (sweeps, balance tables, sensitivity) is drawn here from plain,
already-labelled data — the outputs' declared labels, the inputs' labels and the variants'
titles, never IDs — so the rules code never formats a chart and every figure reads the same:

* each series has its own colour **and** its own line style and marker (no colour is used twice,
  so a chart survives greyscale printing and colour-blind readers);
* legends sit outside the data, to the right;
* a probability axis reads in percent; heatmap cells carry their value as text;
* a variant's difference from the published rules gets its own panel (a diverging colour
  scale centred on zero for heatmaps);
* a warning (a variant that changes nothing here, a point that failed) is printed on the figure.

matplotlib is imported only when a figure is drawn, and only its object-oriented API is used
(:class:`matplotlib.figure.Figure`, never :mod:`matplotlib.pyplot`): drawing a figure never
switches the global backend, so a notebook's ``%matplotlib inline`` keeps working and every
figure shows when it is a cell's value. :func:`save_figure` writes PNG or SVG (text kept as
text in the SVG, so its labels can be searched and checked).

Example:
    >>> fig = line_figure(
    ...     [Series("Published rules", (5, 6, 7), (0.28, 0.42, 0.58)),
    ...      Series("−2 Ld per point", (5, 6, 7), (0.08, 0.17, 0.28))],
    ...     x_label="Leadership", y_label="P(pass)", title="Break test", percent_axis=True)
    >>> [line.get_label() for line in fig.axes[0].get_lines()]
    ['Published rules', '−2 Ld per point']
    >>> len({line.get_color() for line in fig.axes[0].get_lines()}), len({line.get_linestyle() for line in fig.axes[0].get_lines()})
    (2, 2)
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesbook.present.numbers import decimal, percent

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "PALETTE",
    "Bar",
    "Grid",
    "Series",
    "heatmap_figure",
    "line_figure",
    "save_figure",
    "series_styles",
    "tornado_figure",
    "value_text",
]

PALETTE = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#cc79a7",
    "#e69f00",
    "#56b4e9",
    "#000000",
    "#8c564b",
    "#7f7f7f",
    "#bcbd22",
)
"""Series colours, in order (Okabe-Ito's colour-blind-safe set, then four more); past ten
series, further colours are spread around the hue circle so none repeats."""

LINE_STYLES: tuple[Any, ...] = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)), (0, (8, 2)))
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h")
WARNING_COLOUR = "#b00020"


@dataclass(frozen=True, slots=True)
class Series:
    """One line: its label (a variant's title, an input's value in words), x and y values
    (``None``: no value at that point, e.g. inputs that do not go together)."""

    label: str
    xs: tuple[Any, ...]
    ys: tuple[float | None, ...]


@dataclass(frozen=True, slots=True)
class Grid:
    """One heatmap panel: its title, row and column labels, values (``None``: no value) and,
    optionally, the text of each cell (else :func:`value_text` of the value). ``diverging``
    draws a difference: a red-blue scale centred on zero."""

    title: str
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    values: tuple[tuple[float | None, ...], ...]
    texts: tuple[tuple[str, ...], ...] = ()
    diverging: bool = False


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a tornado chart: what was moved and how (``label``, e.g. ``Fall Back dice:
    2D6 → 3D6``), the ``kind`` of move (``lower``, ``higher`` or ``other``: another reading),
    the change in the output and that change as text."""

    label: str
    kind: str
    change: float
    text: str


def series_styles(n: int) -> list[dict[str, Any]]:
    """``n`` styles (colour, line style, marker), each colour used once and no two styles alike.

    >>> styles = series_styles(14)
    >>> len({s["color"] for s in styles}), len({(s["linestyle"], s["marker"]) for s in styles})
    (14, 14)
    """
    colours = list(PALETTE[:n])
    extra = n - len(colours)
    for i in range(extra):
        r, g, b = colorsys.hsv_to_rgb((i / extra + 0.05) % 1.0, 0.75, 0.6 + 0.3 * (i % 2))
        colours.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return [
        {
            "color": colours[i],
            "linestyle": LINE_STYLES[i % len(LINE_STYLES)],
            "marker": MARKERS[i % len(MARKERS)],
        }
        for i in range(n)
    ]


def value_text(value: float | None, *, percent_scale: bool, signed: bool = False) -> str:
    """A cell's or a bar's text: a percentage (or percentage points when ``signed``) for
    probabilities, else a decimal; ``—`` for no value.

    >>> value_text(7 / 12, percent_scale=True), value_text(-0.125, percent_scale=True, signed=True)
    ('58.3%', '−12.5 pts')
    >>> value_text(3.0, percent_scale=False), value_text(None, percent_scale=False)
    ('3', '—')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if percent_scale and not signed:
        return percent(value)
    number = value * 100 if percent_scale else value
    text = f"{number:.1f}" if percent_scale else decimal(number)
    if signed:
        text = ("+" if number > 0 else "") + text
    text = text.replace("-", "−")
    return text + (" pts" if percent_scale and signed else "")


# -- drawing -------------------------------------------------------------------------------------------


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _literal(fig: Figure) -> Figure:
    """Every text of the figure shown as written: a ``$`` in a variant's title is a dollar sign,
    never the start of a formula (matplotlib's math text)."""
    from matplotlib.text import Text

    for text in fig.findobj(Text):
        text.set_parse_math(False)
    return fig


def _warn(fig: Figure, warnings: Sequence[str]) -> None:
    """The warnings under the figure, in red, one line each."""
    if warnings:
        fig.supxlabel(
            "\n".join(f"⚠ {w}" for w in warnings), color=WARNING_COLOUR, fontsize="small", ha="center"
        )


def _tick(value: float, points: bool) -> str:
    """A tick of a probability axis: ``40%``, or for a difference ``+20 pts``, ``0 pts``, ``−20 pts``."""
    if not points:
        return f"{value * 100:.0f}%"
    shown = round(value * 100)
    return "0 pts" if shown == 0 else f"{shown:+d} pts".replace("-", "−")


def _percent_axis(ax: Axes, axis: str = "y", *, points: bool = False) -> None:
    from matplotlib.ticker import FuncFormatter

    fmt = FuncFormatter(lambda v, _pos: _tick(v, points))
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)


def _legend_outside(ax: Axes, title: str = "") -> None:
    if ax.get_legend_handles_labels()[0]:
        ax.legend(
            loc="upper left",
            bbox_to_anchor=(1.02, 1.0),
            borderaxespad=0.0,
            fontsize="small",
            title=title or None,
            title_fontsize="small",
            frameon=False,
        )


def _plot_series(ax: Axes, series: Sequence[Series], styles: Sequence[dict[str, Any]]) -> None:
    numeric = all(isinstance(x, int | float) for s in series for x in s.xs)
    order: list[Any] = []
    if not numeric:
        for s in series:
            order += [x for x in s.xs if x not in order]
    for s, style in zip(series, styles, strict=True):
        xs = list(s.xs) if numeric else [order.index(x) for x in s.xs]
        ys = [math.nan if y is None else y for y in s.ys]
        ax.plot(xs, ys, label=s.label, linewidth=1.8, markersize=5, **style)
    if not numeric:
        long = max((len(str(x)) for x in order), default=0) * len(order) > 40
        ax.set_xticks(
            range(len(order)),
            [str(x) for x in order],
            rotation=30 if long else 0,
            ha="right" if long else "center",
        )
    ax.grid(alpha=0.3)


def line_figure(
    series: Sequence[Series],
    *,
    x_label: str,
    y_label: str,
    title: str,
    percent_axis: bool = False,
    differences: Sequence[Series] = (),
    difference_label: str = "Difference from the published rules",
    legend_title: str = "",
    warnings: Sequence[str] = (),
) -> Figure:
    """Lines of ``series`` over a shared x axis; with ``differences``, a second panel under it
    (each variant minus the published rules, a zero line, the same styles as above)."""
    rows = 2 if differences else 1
    fig = _figure(8.5, 4.2 if rows == 1 else 6.6)
    axes = fig.subplots(rows, 1, sharex=True, squeeze=False, height_ratios=[3, 2][:rows])[:, 0]
    styles = series_styles(len(series))
    _plot_series(axes[0], series, styles)
    axes[0].set_ylabel(y_label)
    if percent_axis:
        _percent_axis(axes[0])
    _legend_outside(axes[0], legend_title)
    if differences:
        by_label = {s.label: style for s, style in zip(series, styles, strict=True)}
        dstyles = [by_label.get(d.label, styles[i % len(styles)]) for i, d in enumerate(differences)]
        _plot_series(axes[1], differences, dstyles)
        axes[1].axhline(0.0, color="#444444", linewidth=0.8)
        axes[1].set_ylabel(difference_label, fontsize="small")
        if percent_axis:
            _percent_axis(axes[1], points=True)
    axes[-1].set_xlabel(x_label)
    fig.suptitle(title)
    _warn(fig, warnings)
    return _literal(fig)


def heatmap_figure(
    grids: Sequence[Grid],
    *,
    row_label: str,
    col_label: str,
    value_label: str,
    title: str,
    percent_scale: bool = False,
    warnings: Sequence[str] = (),
    table: bool = False,
) -> Figure:
    """One annotated heatmap per grid, side by side (values on one shared scale; differences on
    a red-blue scale centred on zero), each cell labelled with its value.

    ``table=True`` draws a grid of named things (units against units) as a table reads: the first
    row on top, column names slanted, and as wide and tall as its cells need."""
    from matplotlib import colormaps

    n = len(grids)
    width = max(len(g.cols) for g in grids)
    height = max(len(g.rows) for g in grids)
    if table:
        fig = _figure((2.6 + 0.95 * width) * n + 1.4, 2.6 + 0.5 * height)
    else:
        fig = _figure(min(6.0, 1.4 + 0.62 * width) * n + 1.2, min(9.0, 1.8 + 0.42 * height))
    panels = fig.subplots(1, n, squeeze=False)[0]
    plain = [v for g in grids if not g.diverging for row in g.values for v in row if v is not None]
    top = (1.0 if percent_scale and max(plain, default=0.0) <= 1.0 else max(plain, default=1.0)) or 1.0
    low = 0.0 if min(plain, default=0.0) >= 0 else min(plain)
    spread = [abs(v) for g in grids if g.diverging for row in g.values for v in row if v is not None]
    bound = max(spread, default=0.0) or 1.0
    for ax, grid in zip(panels, grids, strict=True):
        data = [[math.nan if v is None else v for v in row] for row in grid.values]
        cmap = colormaps["RdBu_r" if grid.diverging else "viridis"]
        vmin, vmax = (-bound, bound) if grid.diverging else (low, top)
        image = ax.imshow(
            data, origin="upper" if table else "lower", aspect="auto", cmap=cmap, vmin=vmin, vmax=vmax
        )
        ax.set_xticks(range(len(grid.cols)), list(grid.cols))
        if table:
            ax.tick_params(axis="x", labelrotation=35)
            for label in ax.get_xticklabels():
                label.set_horizontalalignment("right")
        ax.set_yticks(range(len(grid.rows)), list(grid.rows))
        ax.set_xlabel(col_label)
        ax.set_ylabel(row_label)
        ax.set_title(grid.title, fontsize="medium")
        small = "x-small" if len(grid.cols) > 8 and not table else "small"
        for r, row in enumerate(grid.values):
            for c, value in enumerate(row):
                text = (
                    grid.texts[r][c]
                    if grid.texts
                    else value_text(value, percent_scale=percent_scale, signed=grid.diverging)
                )
                shade = 0.5 if value is None else (value - vmin) / ((vmax - vmin) or 1.0)
                r_, g_, b_, _ = cmap(min(max(shade, 0.0), 1.0))
                dark = 0.299 * r_ + 0.587 * g_ + 0.114 * b_ < 0.5
                ax.text(
                    c, r, text, ha="center", va="center", fontsize=small, color="white" if dark else "black"
                )
        bar = fig.colorbar(image, ax=ax, shrink=0.85)
        bar.set_label(("Difference: " if grid.diverging else "") + value_label, fontsize="small")
        if percent_scale:
            from matplotlib.ticker import FuncFormatter

            diverging = grid.diverging
            bar.formatter = FuncFormatter(lambda v, _p, d=diverging: _tick(v, d))
            bar.update_ticks()
    fig.suptitle(title)
    _warn(fig, warnings)
    return _literal(fig)


def tornado_figure(
    bars: Sequence[Bar],
    *,
    output_label: str,
    baseline_text: str,
    title: str,
    percent_scale: bool = False,
    warnings: Sequence[str] = (),
) -> Figure:
    """A tornado chart: one bar per move (one step lower, one step higher, another reading), the
    largest change on top, each bar labelled with its change; lower and higher moves differ in
    colour and hatching, so the chart reads in greyscale too. Its legend sits in one row over the
    bars and the x axis has at most five ticks, so nothing is cut or overlaps however narrow the
    page showing it."""
    from matplotlib.ticker import MaxNLocator

    fig = _figure(9.0, 2.0 + 0.42 * max(1, len(bars)))
    ax = fig.subplots()
    styles = series_styles(2)
    looks = {
        "lower": (styles[0]["color"], "", "one step lower"),
        "higher": (styles[1]["color"], "//", "one step higher"),
        "other": ("#7f7f7f", "..", "another value or reading"),
    }
    seen: set[str] = set()
    for y, bar in enumerate(reversed(bars)):
        colour, hatch, legend = looks.get(bar.kind, looks["other"])
        ax.barh(
            y,
            bar.change,
            color=colour,
            hatch=hatch,
            edgecolor="#333333",
            linewidth=0.5,
            label=None if legend in seen else legend,
        )
        seen.add(legend)
        ax.text(
            bar.change,
            y,
            f" {bar.text} ",
            va="center",
            ha="left" if bar.change >= 0 else "right",
            fontsize="x-small",
        )
    ax.set_yticks(range(len(bars)), [b.label for b in reversed(bars)], fontsize="small")
    ax.axvline(0.0, color="#444444", linewidth=0.8)
    ax.set_xlabel(f"Change in {output_label} (from {baseline_text})")
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5))
    if percent_scale:
        _percent_axis(ax, "x", points=True)
    # room beside the longest bar on each side for its label (a bar's own text never runs into
    # the names of the moves or out of the frame)
    changes = [b.change for b in bars] or [0.0]
    low, high = min(0.0, *changes), max(0.0, *changes)
    span = (high - low) or 1.0
    ax.set_xlim(
        low - (0.45 * span if low < 0 else 0.05 * span), high + (0.45 * span if high > 0 else 0.05 * span)
    )
    ax.grid(axis="x", alpha=0.3)
    _tornado_legend(ax, [looks[k][2] for k in ("lower", "higher", "other")])
    fig.suptitle(title)
    _warn(fig, warnings)
    return _literal(fig)


def _tornado_legend(ax: Axes, order: list[str]) -> None:
    """The legend outside the axes, its moves in ``order`` (those the chart shows)."""
    handles, names = ax.get_legend_handles_labels()
    pairs = sorted(zip(names, handles, strict=True), key=lambda p: order.index(p[0]))
    if pairs:
        ax.legend(
            [h for _, h in pairs],
            [n for n, _ in pairs],
            loc="lower center",
            bbox_to_anchor=(0.5, 1.0),
            ncols=len(pairs),
            fontsize="small",
            frameon=False,
        )


def save_figure(fig: Figure, path: str | Path, fmt: str | None = None) -> Path:
    """Write ``fig`` to a ``.png`` or ``.svg`` file (``fmt`` overrides the name's suffix); an SVG
    keeps its text as text, so its labels can be searched."""
    from matplotlib import rc_context

    target = Path(path)
    kind = fmt or target.suffix.lower().lstrip(".") or "png"
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "rulesbook"}):
        fig.savefig(target, format=kind, dpi=110, bbox_inches="tight", metadata={"Creator": "rulesbook"})
    return target
