"""Tables as readers see them: declared labels for headers, percentages beside exact fractions.

A :class:`~rulesbook.results.Table` keeps keys and raw values (its JSON form); how it reads in
Markdown (the site, the CLI reference) and in HTML (widgets, served and static pages) is here.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from rulesbook.present.numbers import exact_note, fixed, percent, short_fraction
from rulesbook.present.shown import whole_on_tap
from rulesbook.results import Table, fraction_str, plain_outcome

__all__ = [
    "cell_text",
    "exact_html",
    "table_cells",
    "table_html",
    "table_markdown",
    "tables_markdown",
]


def exact_html(exact: str, limit: int = 24) -> str:
    """An exact fraction beside its percentage (HTML): short ones whole, huge ones summarised
    with the whole fraction a tap away (:func:`~rulesbook.present.shown.whole_on_tap`), on hover
    and in ``data-exact``.

    >>> exact_html("17/632")
    '<small class="rb-exact">(17/632)</small>'
    """
    note = exact_note(exact, limit)
    if note == exact:
        return f'<small class="rb-exact">({html.escape(exact)})</small>'
    attributes = f' data-exact="{html.escape(exact)}"'
    return f'<small class="rb-exact">{whole_on_tap(f"({note})", exact, attributes)}</small>'


def cell_text(value: object) -> str:
    """One table cell as text: floats with four decimals (a tiny one as a power of ten), exact
    fractions whole, booleans yes/no, no value as ``—``, enums by name.

    >>> cell_text(0.25), cell_text(Fraction(1, 3)), cell_text(True), cell_text(None)
    ('0.2500', '1/3', 'yes', '—')
    """
    if isinstance(value, float):
        return fixed(value, 4)  # four decimals; a tiny nonzero value as a power of ten, never 0.0000
    if isinstance(value, Fraction):
        return fraction_str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    return str(plain_outcome(value))


def _probability(table: Table, i: int, exact: int | None) -> bool:
    info = table.column(table.columns[i])
    return exact is not None or (info is not None and info.kind == "probability")


def table_cells(table: Table, row: Sequence[Any]) -> list[tuple[str, str | None]]:
    """One row as a reader sees it: (text, exact fraction or None) per shown column; a
    probability column shows percentages.

    >>> t = Table("odds", "Odds", ("ld", "p_exact", "p"), ((7, "7/12", 7 / 12),))
    >>> table_cells(t, t.rows[0])
    [('7', None), ('58.3%', '7/12')]
    """
    out: list[tuple[str, str | None]] = []
    for i, exact in table.shown_columns():
        value = row[i]
        whole = None if exact is None else cell_text(row[exact])
        if (
            _probability(table, i, exact)
            and isinstance(value, float | Fraction)
            and not isinstance(value, bool)
        ):
            out.append((percent(float(value)), whole))
        else:
            out.append((cell_text(value), whole))
    return out


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _numeric_column(table: Table, i: int) -> bool:
    return all(isinstance(row[i], int | float | Fraction) for row in table.rows) and bool(table.rows)


def table_markdown(table: Table) -> str:
    """A Markdown table (declared labels as headers, percentages with their exact fraction).

    >>> table_markdown(Table("odds", "Odds", ("ld", "p"), ((7, "7/12"),))).splitlines()[0]
    '| ld | p |'
    >>> from rulesbook.results import DISTRIBUTION_COLUMNS, Column
    >>> t = Table("odds", "Odds", ("ld", "p_exact", "p"), ((7, "7/12", 7 / 12),),
    ...           column_info=(Column("ld", "Leadership"), *DISTRIBUTION_COLUMNS))
    >>> table_markdown(t).splitlines()[::2]
    ['| Leadership | P(exactly) |', '| 7 | 58.3% (7/12) |']
    """
    shown = table.shown_columns()
    head = "| " + " | ".join(_md(table.label(table.columns[i])) for i, _ in shown) + " |"
    sep = "|" + "|".join("---:" if _numeric_column(table, i) else "---" for i, _ in shown) + "|"
    body = []
    for row in table.rows:
        texts = [
            short_fraction(text) if exact is None else f"{text} ({exact_note(exact)})"
            for text, exact in table_cells(table, row)
        ]
        body.append("| " + " | ".join(_md(t) for t in texts) + " |")
    return "\n".join([head, sep, *body])


def tables_markdown(tables: Iterable[Table]) -> list[str]:
    """Markdown lines for tables: each one's title in bold, the table, its note in italics.

    >>> tables_markdown([Table("odds", "Odds", ("ld", "p"), ((7, "7/12"),), note="2D6")])[0::2]
    ['**Odds**', '| ld | p |\\n|---:|---|\\n| 7 | 7/12 |', '*2D6*']
    """
    out = []
    for t in tables:
        out += [f"**{t.title}**", "", table_markdown(t), ""]
        if t.note:
            out += [f"*{t.note}*", ""]
    return out


def table_html(table: Table) -> str:
    """An HTML table; cells reading ``pass``/``fail`` get classes for colouring.

    A probability shows as a percentage with its exact fraction beside it; a huge fraction is
    summarised on screen and whole in the cell's ``title`` (hover) and ``data-exact``.

    >>> table_html(Table("odds", "", ("ld", "p_exact", "p"), ((7, "7/12", 7 / 12),)))[:63]
    '<table class="rulesbook-table" data-table="odds"><thead><tr><th'
    """
    out = [f'<table class="rulesbook-table" data-table="{html.escape(table.name)}">']
    if table.title:
        out.append(f"<caption>{html.escape(table.title)}</caption>")
    out.append(
        "<thead><tr>"
        + "".join(
            f'<th data-column="{html.escape(table.columns[i])}">{html.escape(table.label(table.columns[i]))}</th>'
            for i, _ in table.shown_columns()
        )
        + "</tr></thead><tbody>"
    )
    for row in table.rows:
        cells = []
        for text, exact in table_cells(table, row):
            cls = f' class="rb-{text}"' if text in ("pass", "fail", "critical") else ""
            if exact is not None:
                cells.append(f"<td>{html.escape(text)} {exact_html(exact)}</td>")
                continue
            short = short_fraction(text)
            if short != text:  # a huge exact fraction: summarised, whole on a tap and in the tooltip
                cells.append(f"<td>{whole_on_tap(short, text)}</td>")
            else:
                cells.append(f"<td{cls}>{html.escape(text)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)
