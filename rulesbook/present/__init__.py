"""The one place that formats: numbers, text, Markdown, HTML and charts for every front-end.

Values (:mod:`rulesbook.results`) carry exact numbers and no formatting; the command line, the
widgets, the served pages, the static site and the notebooks show them through here, so a
probability reads the same everywhere:

* a **probability** shows its float (four decimals in text, a percentage in HTML and Markdown;
  never rounded to 0 or 1, a tiny one as a power of ten — :mod:`~rulesbook.present.numbers`)
  next to the exact fraction, huge fractions summarised (the whole one stays in the JSON and in
  an HTML attribute);
* a **count**, **number**, **text** or **bool** shows as itself (``yes``/``no``, floats with at
  most four decimals, no value as ``—``); a **list** as its items joined by commas, long ones
  left to tables (:mod:`~rulesbook.present.shown`);
* a **table** reads with its declared labels (:mod:`~rulesbook.present.tables`); a declared
  chart is inline SVG (:mod:`~rulesbook.present.charts`);
* the terminal (:mod:`~rulesbook.present.text`), Markdown (:mod:`~rulesbook.present.markdown`)
  and HTML (:mod:`~rulesbook.present.html`) views are built from those.

Nothing here imports a front-end, the registry or a system: it formats what it is handed.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> result_text(calc.outputs, calc.run(ld=7, modifier=-1)).splitlines()[0]
    '  P(pass)                      0.4167  (5/12)'
"""

from rulesbook.present.charts import CHART_COLOURS, bar_chart, charts_html
from rulesbook.present.html import (
    STYLE,
    error_html,
    heading_html,
    mended_html,
    result_html,
    rules_block,
    rules_html,
)
from rulesbook.present.markdown import md_inline, result_markdown
from rulesbook.present.numbers import (
    PERCENT_FLOOR,
    decimal,
    exact_note,
    fixed,
    percent,
    power_of_ten,
    probability_text,
    short_fraction,
)
from rulesbook.present.shown import EXACT_LIMIT, LONG_LIST, OutputLike, ShownValue, shown_values
from rulesbook.present.tables import (
    cell_text,
    exact_html,
    table_cells,
    table_html,
    table_markdown,
    tables_markdown,
)
from rulesbook.present.text import json_text, plain, result_text, terminal_text

__all__ = [
    "CHART_COLOURS",
    "EXACT_LIMIT",
    "LONG_LIST",
    "PERCENT_FLOOR",
    "STYLE",
    "OutputLike",
    "ShownValue",
    "bar_chart",
    "cell_text",
    "charts_html",
    "decimal",
    "error_html",
    "exact_html",
    "exact_note",
    "fixed",
    "heading_html",
    "json_text",
    "md_inline",
    "mended_html",
    "percent",
    "plain",
    "power_of_ten",
    "probability_text",
    "result_html",
    "result_markdown",
    "result_text",
    "rules_block",
    "rules_html",
    "short_fraction",
    "shown_values",
    "table_cells",
    "table_html",
    "table_markdown",
    "tables_markdown",
    "terminal_text",
]
