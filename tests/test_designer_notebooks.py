"""The designer notebooks show every chart: the committed outputs hold the images (nbval checks each
chart cell still gives a figure; tests/test_site.py that the site pages show them)."""

from __future__ import annotations

import base64
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
CHARTS = {"designer-what-if": 5, "designer-balance": 2}
"""Charts each designer notebook draws (a sweep heatmap and lines, a tornado, balance tables)."""


@pytest.mark.parametrize("name", sorted(CHARTS))
def test_every_chart_cell_holds_its_image(name: str) -> None:
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    figures = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if str(data.get("text/plain", "")).startswith("<Figure"):
                figures += 1
                png = base64.b64decode(data.get("image/png", ""))
                assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000, cell.source[:60]
        assert "plt.show()" not in cell.source and "matplotlib.use" not in cell.source
    assert figures == CHARTS[name]
