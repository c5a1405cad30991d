"""A sweep table as a figure a designer can read (drawn by :mod:`rulesbook.present.plots`).

Lines of a result over one axis (one line per variant and value of the other axes), or annotated
heatmaps over two axes (one panel per variant); under a variant, a difference-from-the-published-
rules panel. Everything is named by its declared label and each variant by its title; a variant
that does not reach the calculator, or changes no value of the sweep, is named in a warning on
the figure (and returned by :func:`sweep_warnings` for the command line).

Example:
    >>> from rulesbook.sweeps.run import sweep
    >>> table = sweep("scrollhammer.break-test", {"ld": "6..8", "lost_by": "1..2"},
    ...               ["break-2-ld-per-point"], executor="serial")
    >>> fig = plot_sweep(table, "p_pass", x="ld", kind="line")
    >>> fig.axes[0].get_ylabel(), [l.get_label() for l in fig.axes[0].get_lines()][:2]
    ('P(hold)', ['Published rules, Lost by 1', 'Published rules, Lost by 2'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from rulesbook.errors import InputError
from rulesbook.present.plots import Grid, Series, heatmap_figure, line_figure
from rulesbook.registry import registry
from rulesbook.variants import BASELINE
from rulesbook.variants.labels import BASELINE_TITLE, key_label, output_label, unaffected

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["plot_sweep", "sweep_warnings", "variant_titles"]


def _numeric(table: pd.DataFrame, key: str) -> pd.Series[Any]:
    import pandas as pd

    return pd.to_numeric(table[key], errors="coerce")


def variant_titles(table: pd.DataFrame) -> dict[str, str]:
    """Variant name → title for the variants of a sweep table (``baseline`` → ``Published rules``)."""
    titles = {BASELINE: BASELINE_TITLE}
    titles |= {v["name"]: v["title"] for v in table.attrs.get("variants", [])}
    for name in dict.fromkeys(table["variant"]) if "variant" in table else ():
        titles.setdefault(str(name), str(name))
    return titles


def sweep_warnings(table: pd.DataFrame, y: str | None = None) -> list[str]:
    """What a reader must know about a sweep: a variant that cannot change the calculator, one
    that changes no value of ``y`` here, points that failed."""
    calc = registry().calculator(table.attrs["calculator"])
    titles = variant_titles(table)
    out = []
    reach = {v["name"]: v.get("reaches", True) for v in table.attrs.get("variants", [])}
    names = [n for n in dict.fromkeys(table["variant"]) if n != BASELINE]
    for name in names:
        if not reach.get(name, True):
            out.append(unaffected(titles[name], calc))
            continue
        if y is not None and BASELINE in set(table["variant"]):
            keys = [k for k in table.attrs.get("axes", []) if k in table]
            mine = table[table["variant"] == name].set_index(keys)[y] if keys else None
            base = table[table["variant"] == BASELINE].set_index(keys)[y] if keys else None
            if mine is not None and base is not None and mine.reindex(base.index).equals(base):
                out.append(f"{titles[name]} changes no {output_label(calc, y)} in this sweep")
    out += list(table.attrs.get("notes", []))  # entries a column answers without
    failed = int((table["error"] != "").sum()) if "error" in table else 0
    if failed:
        out.append(f"{failed} point{'s' if failed > 1 else ''} had inputs that do not go together (no value)")
    return out


def plot_sweep(
    table: pd.DataFrame,
    y: str | None = None,
    *,
    x: str | None = None,
    kind: Literal["line", "heatmap"] | None = None,
    title: str = "",
) -> Figure:
    """One figure from a sweep table: lines of ``y`` over ``x`` (one per variant and other axis
    value) with a difference panel under variants, or annotated heatmaps of ``y`` over the first
    two axes (a panel per variant, and per variant its difference from the published rules).

    ``y`` defaults to the first result column; ``x`` to the first swept axis; ``kind`` to a
    heatmap when two or more axes were swept and a line plot otherwise.
    """
    calc = registry().calculator(table.attrs["calculator"])
    axes_keys: list[str] = list(table.attrs.get("axes", []))
    outputs: list[str] = list(table.attrs.get("outputs", []))
    y = y or next((o for o in outputs if o in table and _numeric(table, o).notna().any()), None)
    if y is None or y not in table or y not in outputs:
        raise InputError("y", f"expected a result column; allowed: {', '.join(outputs) or 'none'}")
    x = x or (axes_keys[0] if axes_keys else None)
    if x is None or x not in table or x not in axes_keys:
        raise InputError("x", f"expected a swept column; allowed: {', '.join(axes_keys) or 'none'}")
    varying = [a for a in axes_keys if a in table and table[a].nunique(dropna=False) > 1]
    others = [a for a in varying if a != x]
    fixed = [a for a in axes_keys if a not in varying and a != x and a in table and len(table)]
    kind = kind or ("heatmap" if others else "line")
    if kind == "heatmap" and not others:
        raise InputError("kind", "a heatmap needs two swept axes; use kind=line")
    is_probability = any(o.key == y and o.kind == "probability" for o in calc.outputs)
    titles = variant_titles(table)
    warnings = sweep_warnings(table, y)
    heading = title or f"{calc.title}: {output_label(calc, y)}"
    if fixed and not title:
        heading += "\n" + ", ".join(f"{key_label(calc, a)} {table[a].iloc[0]}" for a in fixed)
    data = table.assign(_y=_numeric(table, y))
    xs = _numeric(table, x)
    data["_x"] = xs if not xs.isna().any() else table[x]
    variants = list(dict.fromkeys(data["variant"]))
    if kind == "heatmap":
        return _heatmap(data, calc, variants, titles, x, others[0], y, heading, is_probability, warnings)
    series, diffs = [], []
    groups = ["variant", *others]
    base = data[data["variant"] == BASELINE]
    for key, part in data.groupby(groups, sort=False):
        values = key if isinstance(key, tuple) else (key,)
        words = [titles[str(values[0])]] + [
            f"{key_label(calc, g)} {v}" for g, v in zip(others, values[1:], strict=True)
        ]
        label = ", ".join(words)
        series.append(Series(label, tuple(part["_x"]), tuple(_floats(part["_y"]))))
        if values[0] != BASELINE and len(base):
            match = base
            for g, v in zip(others, values[1:], strict=True):
                match = match[match[g] == v]
            joined = part.merge(match[["_x", "_y"]], on="_x", suffixes=("", "_base"), how="left")
            diffs.append(Series(label, tuple(joined["_x"]), tuple(_floats(joined["_y"] - joined["_y_base"]))))
    return line_figure(
        series,
        x_label=key_label(calc, x),
        y_label=output_label(calc, y),
        title=heading,
        percent_axis=is_probability,
        differences=diffs,
        warnings=warnings,
    )


def _floats(values: Any) -> list[float | None]:
    return [None if v != v else float(v) for v in values]  # NaN != NaN: no value


def _heatmap(
    data: pd.DataFrame,
    calc: Any,
    variants: list[str],
    titles: dict[str, str],
    x: str,
    other: str,
    y: str,
    heading: str,
    is_probability: bool,
    warnings: list[str],
) -> Figure:
    grids = []
    pivots = {}
    for name in variants:
        part = data[data["variant"] == name]
        pivot = part.pivot_table(
            index=other, columns="_x", values="_y", aggfunc="mean", sort=False, dropna=False
        )
        pivots[name] = pivot
        grids.append(_grid(titles[name], pivot))
    if BASELINE in pivots:
        for name in variants:
            if name != BASELINE:
                diff = pivots[name] - pivots[BASELINE]
                grids.append(_grid(f"{titles[name]} − {BASELINE_TITLE}", diff, diverging=True))
    return heatmap_figure(
        grids,
        row_label=key_label(calc, other),
        col_label=key_label(calc, x),
        value_label=output_label(calc, y),
        title=heading,
        percent_scale=is_probability,
        warnings=warnings,
    )


def _grid(title: str, pivot: pd.DataFrame, *, diverging: bool = False) -> Grid:
    return Grid(
        title=title,
        rows=tuple(str(i) for i in pivot.index),
        cols=tuple(str(c) for c in pivot.columns),
        values=tuple(tuple(_floats(row)) for row in pivot.to_numpy(dtype=float)),
        diverging=diverging,
    )
