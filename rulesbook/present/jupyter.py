"""Rich display in Jupyter: tables render as HTML tables, distributions as their mean, a bar
chart and their table, in a notebook.

Values carry no formatting (:mod:`rulesbook.results`), so instead of ``_repr_html_`` methods
this module registers HTML formatters for them with IPython's display formatter. ``import
rulesbook`` does it when IPython is already loaded (a notebook kernel), so a table evaluated in
a cell shows as a table; in a terminal nothing changes.

Example:
    >>> from IPython.core.formatters import DisplayFormatter
    >>> from rulesbook.dice import parse_dice
    >>> formatter = DisplayFormatter()
    >>> register(formatter)
    True
    >>> data, _ = formatter.format(parse_dice("D3").distribution())
    >>> data["text/html"].count("<tr>"), data["text/html"].count('<rect class="rb-bar')
    (4, 3)
    >>> data["text/markdown"].splitlines()[0]
    'mean 2 (exact 2)'
"""

from __future__ import annotations

from typing import Any

from rulesbook.present.answers import distribution_html, distribution_markdown
from rulesbook.present.tables import table_html, table_markdown
from rulesbook.results import Distribution, Table

__all__ = ["register"]


def register(formatter: Any = None) -> bool:
    """Register the HTML formatters with ``formatter`` (default: the running IPython's display
    formatter); False when there is none (not in IPython)."""
    if formatter is None:
        try:
            from IPython import get_ipython
        except ImportError:  # pragma: no cover - IPython not installed
            return False
        shell = get_ipython()
        if shell is None:
            return False
        formatter = shell.display_formatter
    html, markdown = formatter.formatters["text/html"], formatter.formatters["text/markdown"]
    html.for_type(Table, table_html)
    markdown.for_type(Table, table_markdown)
    html.for_type(Distribution, distribution_html)
    markdown.for_type(Distribution, distribution_markdown)
    return True
