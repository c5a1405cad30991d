"""One formatter for results: a value and its declared output as text, HTML and Markdown.

The command line (``rulesbook calc``), the widgets (:mod:`widgets.render`) and the site
(:mod:`rulesbook.site`) show a calculator's answer in three media; how each kind of output looks
is decided here, once:

* a **probability** shows its float (four decimals in text, a percentage in HTML and Markdown;
  never rounded to 0 or 1, a tiny one as a power of ten, see :func:`~rulesbook.results.percent`)
  next to the exact fraction, huge fractions summarised by
  :func:`~rulesbook.results.short_fraction` (the whole fraction stays in the JSON and in an HTML
  attribute);
* a **count**, **number**, **text** or **bool** shows as itself (``yes``/``no``, floats with at
  most four decimals, no value as ``—``);
* a **list** shows its items joined by commas; lists longer than :data:`LONG_LIST` are left to
  the tables in HTML and Markdown;
* a **table** output is shown by its :class:`~rulesbook.results.Table` (``to_html``,
  ``to_markdown``).

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> shown = shown_values(calc.outputs, calc.run(ld=7, modifier=-1).values)
    >>> shown[0].label, shown[0].text, shown[0].percent, shown[0].exact
    ('P(pass)', '0.4167', '41.7%', '5/12')
    >>> result_text(calc.outputs, calc.run(ld=7, modifier=-1)).splitlines()[0]
    '  P(pass)                      0.4167  (5/12)'
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Protocol

from rulesbook.results import (
    CalcResult,
    Table,
    exact_note,
    fixed,
    fraction_str,
    percent,
    short_fraction,
)

__all__ = [
    "CHART_COLOURS",
    "LONG_LIST",
    "OutputLike",
    "ShownValue",
    "bar_chart",
    "charts_html",
    "decimal",
    "json_text",
    "md_inline",
    "plain",
    "probability_text",
    "result_html",
    "result_markdown",
    "result_text",
    "shown_values",
    "tables_markdown",
    "terminal_text",
]

LONG_LIST = 12
"""Lists with more items than this are shown as tables (HTML, Markdown), not as one line."""

EXACT_LIMIT = 40
"""Exact fractions longer than this many characters are summarised on screen."""


class OutputLike(Protocol):
    """What the formatter needs of a declared output (:class:`rulesbook.calculators.Output`)."""

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def chart(self) -> tuple[str, ...]: ...


def decimal(value: float) -> str:
    """A float with at most four decimals and no trailing zeros; a nonzero value that four
    decimals would round to 0 keeps three significant digits as a power of ten, as
    :func:`~rulesbook.results.percent` writes tiny percentages (never ``1.23e-05``).

    >>> decimal(9.259259), decimal(1.0), decimal(-2.5), decimal(0.000012345), decimal(-1e-20)
    ('9.2593', '1', '-2.5', '1.23 × 10⁻⁵', '-1 × 10⁻²⁰')
    """
    text = fixed(value, 4)
    return text if "×" in text else text.rstrip("0").rstrip(".")


def probability_text(value: float) -> str:
    """A probability with four decimals for the terminal, never rounded to 0 or 1.

    A probability that four decimals would show as ``0.0000`` or ``1.0000`` reads
    ``< 0.0001`` or ``> 0.9999`` (the exact fraction is printed beside it).

    >>> probability_text(7 / 12), probability_text(2.3e-17), probability_text(1 - 1e-9), probability_text(0.0)
    ('0.5833', '< 0.0001', '> 0.9999', '0.0000')
    """
    if 0 < value < 0.00005:
        return "< 0.0001"
    if 0.99995 <= value < 1:
        return "> 0.9999"
    return f"{value:.4f}"


def _scalar(value: Any) -> str:
    """One value as text: booleans as yes/no, floats by :func:`decimal`, Fractions exact."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return decimal(value)
    if isinstance(value, Fraction):
        return short_fraction(fraction_str(value), limit=EXACT_LIMIT)
    if value is None:
        return "—"
    name = getattr(value, "name", None)  # enums by name, as in tables
    if isinstance(name, str) and hasattr(value, "value"):
        return name.lower()
    return str(value)


@dataclass(frozen=True, slots=True)
class ShownValue:
    """One result value ready to show.

    Attributes:
        key, label, kind: from the declared output.
        text: the value as plain text (a probability as its float with four decimals).
        percent: a probability as a percentage (``"58.3%"``); ``None`` for other kinds.
        exact: a probability's exact fraction, whole (``"7/12"``); ``None`` for other kinds.
        long: a list too long for one line (shown as a table instead in HTML and Markdown).
    """

    key: str
    label: str
    kind: str
    text: str
    percent: str | None = None
    exact: str | None = None
    long: bool = False

    @property
    def exact_short(self) -> str | None:
        """The exact fraction, summarised when it is huge.

        >>> ShownValue("p", "P", "probability", "0.0333", "3.3%", "1" * 30 + "/" + "3" * 31).exact_short
        '≈ 0.03333 (exact: 30-digit / 31-digit fraction)'
        """
        return None if self.exact is None else short_fraction(self.exact, limit=EXACT_LIMIT)

    def to_text(self, width: int = 28) -> str:
        """One line for the terminal: label, value and (for a probability) the exact fraction.

        >>> ShownValue("p", "P(pass)", "probability", "0.5833", "58.3%", "7/12").to_text(10)
        'P(pass)    0.5833  (7/12)'
        """
        tail = f"  ({self.exact_short})" if self.exact is not None else ""
        return f"{self.label:<{width}} {self.text}{tail}"

    def to_html(self) -> str:
        """The value as an HTML block whose number carries ``data-key`` (read by browser tests).

        >>> ShownValue("n", "Count", "count", "2").to_html()
        '<div class="rb-value"><span class="rb-label">Count</span><span class="rb-number" data-key="n">2</span></div>'
        """
        key = html.escape(self.key)
        if self.exact is None:
            exact_html = ""
        elif self.exact_short == self.exact:
            exact_html = f'<span class="rb-exact">exact <span data-key="{key}_exact">{html.escape(self.exact)}</span></span>'
        else:  # a huge fraction: its size on screen, whole on hover and in the data-exact attribute
            whole = html.escape(self.exact)
            exact_html = (
                f'<span class="rb-exact"><span data-key="{key}_exact" data-exact="{whole}" title="{whole}">'
                f"{html.escape(exact_note(self.exact, EXACT_LIMIT))}</span></span>"
            )
        shown = self.percent if self.percent is not None else self.text
        return (
            f'<div class="rb-value"><span class="rb-label">{html.escape(self.label)}</span>'
            f'<span class="rb-number" data-key="{key}">{html.escape(shown)}</span>{exact_html}</div>'
        )

    def to_markdown(self) -> str:
        """One row of a Markdown table ``| result | value | exact |``.

        >>> ShownValue("p", "P(pass)", "probability", "0.5833", "58.3%", "7/12").to_markdown()
        '| P(pass) | 58.3% | `7/12` |'
        """
        shown = self.percent if self.percent is not None else self.text
        exact = f"`{self.exact_short}`" if self.exact is not None else ""
        return f"| {_md_cell(self.label)} | {_md_cell(shown)} | {exact} |"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _shown(out: OutputLike, value: Any, exact_text: Any) -> ShownValue:
    if out.kind == "probability":
        exact = fraction_str(value) if isinstance(value, Fraction) else exact_text
        number = float(value)
        return ShownValue(
            out.key,
            out.label,
            out.kind,
            probability_text(number),
            percent(number),
            None if exact is None else str(exact),
        )
    if isinstance(value, Sequence) and not isinstance(value, str):
        return ShownValue(
            out.key, out.label, out.kind, ", ".join(_scalar(v) for v in value), long=len(value) > LONG_LIST
        )
    return ShownValue(out.key, out.label, out.kind, _scalar(value))


def shown_values(outputs: Iterable[OutputLike], values: Mapping[str, Any]) -> list[ShownValue]:
    """The declared outputs present in ``values``, formatted (table outputs left out).

    A probability may be given as a Fraction, or as a float with its exact string under
    ``KEY_exact`` (the JSON form).

    >>> from fractions import Fraction
    >>> from rulesbook.calculators import Output
    >>> outs = [Output("p", "P(hit)"), Output("ok", "Hits", "bool"), Output("k", "Rolls", "list")]
    >>> [s.text for s in shown_values(outs, {"p": Fraction(1, 3), "ok": True, "k": [1, 2.5]})]
    ['0.3333', 'yes', '1, 2.5']
    """
    return [
        _shown(out, values[out.key], values.get(f"{out.key}_exact"))
        for out in outputs
        if out.key in values and out.kind != "table"
    ]


def result_text(outputs: Iterable[OutputLike], result: CalcResult, style: bool = False) -> str:
    """The terminal view: one line per value, then the explanation and any warnings.

    Everything is safe for a terminal (:func:`plain`); the explanation's Markdown is rendered
    by :func:`terminal_text` (plain text, or bold and italic with ``style``).

    >>> print(result_text((), CalcResult({}, explanation=("**Boyz** lost 3.",), warnings=("`ld` capped",))))
    <BLANKLINE>
      Boyz lost 3.
      warning: ld capped
    """
    lines = [plain("  " + shown.to_text()) for shown in shown_values(outputs, result.values)]
    if result.explanation:
        lines.append("")
        lines.extend("  " + terminal_text(line, style) for line in result.explanation)
    lines.extend(f"  warning: {terminal_text(warning, style)}" for warning in result.warnings)
    return "\n".join(lines)


@cache
def _inline_markdown() -> Any:
    from markdown_it import MarkdownIt

    # Raw HTML is never passed through: explanation lines quote user text (army and unit names
    # from game logs, weapon names from forms), which must read as text, never run as markup.
    # Images are off too: an explanation never loads anything from anywhere.
    return MarkdownIt("commonmark", {"html": False}).disable("image")


def md_inline(text: str) -> str:
    """One explanation line as inline HTML: Markdown emphasis and code render, raw HTML is escaped.

    >>> md_inline("**Boyz** <img src=x onerror=alert(1)> lost `2`")
    '<strong>Boyz</strong> &lt;img src=x onerror=alert(1)&gt; lost <code>2</code>'
    """
    rendered: str = _inline_markdown().renderInline(text)
    return rendered


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What :func:`plain` drops: C0 controls but tab and newline, DEL, C1 controls (CSI ``\\x9b``,
NEL ...), the line and paragraph separators and the bidi embeddings, overrides and isolates
(U+202A-U+202E, U+2066-U+2069), which would reorder the rest of a terminal line."""

_JSON_RAW = re.compile(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def plain(text: str) -> str:
    """Text safe for a terminal: control characters (escape sequences among them) are dropped.

    Every text the command line prints goes through here (values, explanations, tables, help
    and error lines), so a name from a game log or a data file cannot move the cursor, retitle
    the window or reverse the line.

    >>> plain("Boyz\x1b]0;pwned\x07 mob"), plain("\u202eeulB \x9b31mArmy")
    ('Boyz]0;pwned mob', 'eulB 31mArmy')
    """
    return _CONTROL.sub("", text)


_MARKUP = re.compile(r"[*_`\\&\[<]")
_STYLE = {"strong_open": "\x1b[1m", "strong_close": "\x1b[22m", "em_open": "\x1b[3m", "em_close": "\x1b[23m"}


def terminal_text(text: str, style: bool = False) -> str:
    """Our Markdown as terminal text: emphasis and code rendered, never shown as asterisks.

    Each line is made safe by :func:`plain`, then read as inline Markdown (the way
    :func:`md_inline` reads it for HTML): ``**bold**`` and ``*italic*`` lose their asterisks,
    `` `code` `` its backticks, ``\\*`` and ``&amp;`` read as ``*`` and ``&``, a link shows its
    text and address. With ``style`` (the command line sets it when standard output is a
    terminal and ``NO_COLOR`` is not set) bold and italic are shown with the terminal's
    bold and italic (SGR 1 and 3); the rest of the text never carries a control character.
    Block structure (list dashes, table bars) is kept as it is.

    >>> terminal_text("**Boyz**: 3 hits on `wh40k.attack`, 2 \\\\* 3 &amp; *more*")
    'Boyz: 3 hits on wh40k.attack, 2 * 3 & more'
    >>> terminal_text("**Boyz\x1b[2J** lost", style=True)
    '\\x1b[1mBoyz[2J\\x1b[22m lost'
    """
    return "\n".join(_terminal_line(plain(line), style) for line in text.split("\n"))


def _terminal_line(line: str, style: bool) -> str:
    if not _MARKUP.search(line):  # nothing to render: no Markdown parser needed
        return line
    out: list[str] = []
    tokens = _inline_markdown().parseInline(line)[0].children or []
    href = ""
    for token in tokens:
        if token.type in ("text", "code_inline", "html_inline"):
            out.append(token.content)
        elif token.type in _STYLE:
            out.append(_STYLE[token.type] if style else "")
        elif token.type == "softbreak":
            out.append(" ")
        elif token.type == "link_open":
            href, start = str(token.attrs.get("href", "")), len(out)
        elif token.type == "link_close":
            if href and href != "".join(out[start:]):
                out.append(f" ({href})")
        else:
            out.append(token.content)
    return "".join(out)


def json_text(data: Any, indent: int | None = 2) -> str:
    """``data`` as JSON that is safe to print: still valid JSON that reads back to the same value.

    Non-ASCII text stays readable (``ensure_ascii=False``), but every character :func:`plain`
    would drop is written as a ``\\uXXXX`` escape (``json`` escapes C0 controls itself; DEL,
    the C1 controls, U+2028/U+2029 and the bidi controls are escaped here), so nothing raw
    reaches the terminal and ``json.loads`` gives back the identical string.

    >>> name = "\u202eeulB\x9b31m é"
    >>> print(json_text({"name": name}, indent=None))
    {"name": "\\u202eeulB\\u009b31m é"}
    >>> json.loads(json_text(name)) == name
    True
    """
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    # Outside strings JSON is plain ASCII, so every such character sits inside a string.
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def result_html(outputs: Iterable[OutputLike], result: CalcResult) -> str:
    """The HTML view: headline values, warnings, explanation lines (Markdown) and tables.

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> 'data-key="p_pass_exact">7/12<' in result_html(calc.outputs, calc.run(ld=7))
    True
    """
    outputs = tuple(outputs)
    charted = {o.key for o in outputs if o.kind == "list" and len(getattr(o, "chart", ())) > 0}
    shown = [s for s in shown_values(outputs, result.values) if not s.long]
    values = [s.to_html() for s in shown if s.key not in charted]
    parts = ['<div class="rb-result">', '<div class="rb-headline">', *values, "</div>"]
    parts += charts_html(outputs, result)
    # A charted distribution reads as its chart; its numbers stay one click away, in small type.
    parts += [
        f'<details class="rb-numbers"><summary>{html.escape(s.label)}: the numbers</summary>{s.to_html()}</details>'
        for s in shown
        if s.key in charted
    ]
    parts += [f'<p class="rb-warning">warning: {html.escape(w)}</p>' for w in result.warnings]
    if result.explanation:
        parts.append(
            "<ul class='rb-explanation'>"
            + "".join(f"<li>{md_inline(line)}</li>" for line in result.explanation)
            + "</ul>"
        )
    parts += [t.to_html() for t in result.tables]
    parts.append("</div>")
    return "".join(parts)


def tables_markdown(tables: Iterable[Table]) -> list[str]:
    """Markdown lines for tables: each one's title in bold, the table, its note in italics.

    >>> tables_markdown([Table("odds", "Odds", ("ld", "p"), ((7, "7/12"),), note="2D6")])[0::2]
    ['**Odds**', '| ld | p |\\n|---:|---|\\n| 7 | 7/12 |', '*2D6*']
    """
    out = []
    for t in tables:
        out += [f"**{t.title}**", "", t.to_markdown(), ""]
        if t.note:
            out += [f"*{t.note}*", ""]
    return out


def result_markdown(outputs: Iterable[OutputLike], result: CalcResult) -> list[str]:
    """Markdown lines: a table of the headline values, then warnings and explanation lines.

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> result_markdown(calc.outputs, calc.run(ld=7))[2]
    '| P(pass) | 58.3% | `7/12` |'
    """
    rows = [shown.to_markdown() for shown in shown_values(outputs, result.values) if not shown.long]
    out = ["| result | value | exact |", "|---|---:|---|", *rows, ""] if rows else []
    for warning in result.warnings:
        out += [f"**Warning:** {warning}", ""]
    if result.explanation:
        out += [f"- {line}" for line in result.explanation] + [""]
    return out


# -- charts ---------------------------------------------------------------------------------------

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
    values = [v for _, ys in series for v in ys]
    top = max(values, default=0.0) or 1.0
    plot_w, plot_h = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM
    group = plot_w / max(len(xs), 1)
    bar = group * 0.8 / max(len(series), 1)
    parts = [
        f'<figure class="rb-chart" data-chart="{html.escape(key)}" style="margin:.6em 0;max-width:560px">',
        f'<figcaption style="font-weight:600">{html.escape(title)}',
    ]
    if len(series) > 1:
        parts += [
            f' <span style="font-weight:400;white-space:nowrap"><span style="color:{CHART_COLOURS[n % 3]}">'
            f"■</span> {html.escape(name)}</span>"
            for n, (name, _) in enumerate(series)
        ]
    parts.append("</figcaption>")
    parts.append(
        f'<svg viewBox="0 0 {_W:.0f} {_H:.0f}" width="100%" role="img" '
        f'aria-label="{html.escape(title)}: bar chart by {html.escape(x_label)}" '
        'style="font-family:system-ui,sans-serif;font-size:15px">'
    )
    base = _TOP + plot_h
    for frac in (0.0, 0.5, 1.0):  # y axis: 0, half and the top value, as percentages
        y = base - frac * plot_h
        parts.append(
            f'<line x1="{_LEFT:.0f}" x2="{_W - _RIGHT:.0f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{_LEFT - 4:.0f}" y="{y + 5:.1f}" text-anchor="end" fill="#555">{percent(top * frac)}</text>'
        )
    step = max(1, -(-len(xs) // 16))  # at most 16 outcome labels under the axis
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
    parts.append(
        f'<text x="{_LEFT + plot_w / 2:.1f}" y="{_H - 4:.0f}" text-anchor="middle" fill="#333">'
        f"{html.escape(x_label)}</text></svg></figure>"
    )
    return "".join(parts)


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
            xs = [_scalar(row[col[x]]) for row in table.rows]
            series = [(table.label(c), [_number(row[col[c]]) for row in table.rows]) for c in y_columns]
            out.append(bar_chart(o.key, o.label, table.label(x), xs, series))
    return out
