"""Designer plots: labels not IDs, a colour and a line style per series, legends outside the data,
warnings on the figure, and the global matplotlib backend left alone (a notebook's charts show)."""

from __future__ import annotations

import itertools
import subprocess
import sys
import textwrap
from pathlib import Path

from rulesbook.present.plots import Series, line_figure, save_figure, series_styles
from rulesbook.sweeps import plot_sweep, sweep


def test_every_series_has_its_own_colour_and_line_style() -> None:
    for n in (1, 3, 10, 11, 25):
        styles = series_styles(n)
        assert len({s["color"] for s in styles}) == n  # no colour reused
        assert len({(str(s["linestyle"]), s["marker"]) for s in styles}) == n


def test_sweep_lines_use_labels_and_titles_and_a_difference_panel() -> None:
    table = sweep(
        "scrollhammer.break-test",
        {"ld": "5..9", "lost_by": "1..3"},
        ["break-2-ld-per-point"],
        executor="serial",
    )
    fig = plot_sweep(table, "p_fall_back", x="ld", kind="line")
    top, diff = fig.axes[0], fig.axes[1]
    assert top.get_xlabel() == "" and diff.get_xlabel() == "Leadership (Ld)"  # shared x, named once
    assert top.get_ylabel() == "P(Fall Back)"
    labels = [line.get_label() for line in top.get_lines()]
    assert labels[0] == "Published rules, Lost by 1"
    assert "−2 Ld per point lost in a Break test, Lost by 3" in labels
    assert not any("break-2-ld-per-point" in label or "lost_by" in label for label in labels)
    lines = top.get_lines()
    assert len({line.get_color() for line in lines}) == len(lines) == 6
    assert len({(line.get_linestyle(), line.get_marker()) for line in lines}) == 6
    assert diff.get_ylabel() == "Difference from the published rules"
    assert len([line for line in diff.get_lines() if line.get_label().startswith("−2 Ld")]) == 3
    fig.canvas.draw()
    legend = top.get_legend()
    assert legend is not None
    box, axes_box = legend.get_window_extent(), top.get_window_extent()
    assert box.x0 >= axes_box.x1  # outside the data, to the right
    assert fig._suptitle is not None and fig._suptitle.get_text() == "Break test: P(Fall Back)"


def test_a_variant_that_changes_nothing_is_a_warning_on_the_figure(tmp_path: Path) -> None:
    table = sweep("wh40k.battle-shock", {"leadership": "5..8"}, ["deadly-demise-on-5"], executor="serial")
    fig = plot_sweep(table)
    svg = save_figure(fig, tmp_path / "w.svg").read_text(encoding="utf-8")
    assert "Deadly Demise explodes on a 5+ does not affect Battle-shock test" in svg
    assert "P(pass)" in svg and "Leadership" in svg
    assert ">p_pass<" not in svg and ">leadership<" not in svg  # labels, never keys


def test_an_empty_value_is_a_gap_not_a_crash() -> None:
    fig = line_figure([Series("a", (1, 2, 3), (0.1, None, 0.3))], x_label="x", y_label="y", title="t")
    ys = list(fig.axes[0].get_lines()[0].get_ydata())
    assert ys[0] == 0.1 and ys[1] != ys[1] and ys[2] == 0.3  # NaN: no point drawn


def test_plotting_never_switches_the_global_backend() -> None:
    """The notebook bug: the old plot helper called matplotlib.use("Agg"), so every later chart
    of a notebook was blank. Drawing a designer figure must leave the backend as it was."""
    code = textwrap.dedent(
        """
        import matplotlib
        matplotlib.use("svg")  # stands for a notebook's inline backend
        from rulesbook.sweeps import plot_sweep, sweep, balance_table
        from rulesbook.variants.sensitivity import sensitivity
        table = sweep("scrollhammer.panic-test", {"ld": "6..8", "modifier": "0,-1"}, executor="serial")
        plot_sweep(table)
        balance_table("scrollhammer.morale-check", ("ld", "6..7"), ("modifier", "-1..0")).figure()
        sensitivity("scrollhammer.morale-check", {"ld": "7"}).figure()
        print(matplotlib.get_backend())
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "svg"


def test_titles_are_shown_as_written(tmp_path: Path) -> None:
    """A dollar sign in a title is text, not matplotlib's math (which would fail to draw)."""
    fig = line_figure(
        [Series("Costs $5 and $x^$", (1, 2), (0.1, 0.2))], x_label="$", y_label="y", title="$a_$ rule"
    )
    svg = save_figure(fig, tmp_path / "d.svg").read_text(encoding="utf-8")
    assert "Costs $5 and $x^$" in svg and "$a_$ rule" in svg


def test_a_tornados_ticks_never_overlap_and_its_legend_and_labels_stay_in_the_figure() -> None:
    """Issue 37: the x tick labels ran into each other and the legend was cut at the right edge."""
    from rulesbook.variants import sensitivity

    fig = sensitivity(
        "warstrike.strike-force-morale",
        {"starting_units": 10, "remaining_units": 4, "hive_mind": "true", "unit_lds": "7,7,7,7"},
        output="p_retreat",
    ).figure()
    fig.canvas.draw()
    renderer = fig._get_renderer()  # type: ignore[attr-defined]
    whole = fig.bbox
    ax = fig.axes[0]
    ticks = sorted(
        (t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text() and t.get_visible()),
        key=lambda b: b.x0,
    )
    assert 2 <= len(ticks) <= 6
    assert all(a.x1 < b.x0 for a, b in itertools.pairwise(ticks))  # none overlaps the next
    legend = ax.get_legend()
    assert legend is not None
    box = legend.get_window_extent(renderer)
    assert whole.x0 <= box.x0 and box.x1 <= whole.x1 and whole.y0 <= box.y0 and box.y1 <= whole.y1
    title = fig.get_suptitle()
    assert title and not box.overlaps(fig._suptitle.get_window_extent(renderer))  # type: ignore[union-attr]
    for text in ax.texts:  # each bar's change stays inside the frame of the bars
        extent = text.get_window_extent(renderer)
        assert ax.bbox.x0 <= extent.x0 and extent.x1 <= ax.bbox.x1, text.get_text()
