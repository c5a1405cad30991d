"""HTML for results, errors, rule texts and headings: what widgets and pages show.

Every headline value carries ``data-key="KEY"`` (its exact fraction ``KEY_exact``), so browser
tests and scripts read answers back from any page; tables are :func:`~rulesbook.present.tables.table_html`,
charts :func:`~rulesbook.present.charts.charts_html`. :data:`STYLE` is the one style sheet.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> 'data-key="p_pass_exact">7/12<' in result_html(calc.outputs, calc.run(ld=7), styled=True)
    True
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Protocol

from rulesbook.present.charts import charts_html
from rulesbook.present.markdown import md_inline
from rulesbook.present.shown import OutputLike, shown_values
from rulesbook.present.tables import table_html
from rulesbook.results import CalcResult

__all__ = [
    "STYLE",
    "RuleLike",
    "error_html",
    "heading_html",
    "mended_html",
    "result_html",
    "rules_block",
    "rules_html",
    "workings_html",
]

STYLE = """
<style>
.rb-result { font-family: system-ui, sans-serif; font-size: 15px; }
.rb-headline { display: flex; flex-wrap: wrap; gap: 1.5em; margin: .3em 0 .8em 0; }
.rb-value { display: flex; flex-direction: column; }
.rb-value .rb-label { font-size: .85em; color: #555; }
.rb-value .rb-number { font-size: 1.6em; font-weight: 600; }
.rb-value .rb-exact { font-size: .85em; color: #333; }
.rulesbook-table { border-collapse: collapse; margin: .5em 0; font-size: .95em; display: block; max-width: 100%; overflow-x: auto; }
.rulesbook-table .rb-exact { font-size: .9em; color: #555; }
.rb-chart svg { max-width: 100%; height: auto; }
.rb-numbers { margin: 0 0 .8em 0; font-size: .9em; }
.rb-numbers summary { cursor: pointer; color: #555; }
.rb-numbers .rb-value .rb-number { font-size: 1em; font-weight: 400; }
.rulesbook-table caption { text-align: left; font-weight: 600; padding-bottom: .3em; }
.rulesbook-table td, .rulesbook-table th { border: 1px solid #ccc; padding: 2px 8px; text-align: center; }
.rulesbook-table td.rb-pass { background: #d8f0d8; }
.rulesbook-table td.rb-critical { background: #a8dca8; }
.rulesbook-table td.rb-fail { background: #f4d4d4; }
.rb-error { color: #a00; font-weight: 600; }
details.rb-rules { font-family: system-ui, sans-serif; margin: .8em 0; border: 1px solid #ddd; border-radius: 4px; padding: .2em .8em; }
details.rb-rules > summary { cursor: pointer; font-weight: 600; padding: .3em 0; }
.rb-warning { color: #8a5a00; }
.rb-mended { font: 14px/1.4 system-ui, sans-serif; background: #eef5fb; border-left: 3px solid #0072b5; padding: .3em .6em; margin: .3em 0; }
details.rb-workings > summary { cursor: pointer; color: #333; font-weight: 600; padding: 12px 0; line-height: 20px; }
details.rb-whole { display: inline; }
details.rb-whole > summary { display: inline; cursor: pointer; list-style: none; text-decoration: underline dotted; }
details.rb-whole > summary::-webkit-details-marker { display: none; }
details.rb-whole[open] { display: block; }
details.rb-whole .rb-fraction { display: block; overflow-wrap: anywhere; font-family: monospace; font-size: .9em; }
</style>
"""


def result_html(
    outputs: Iterable[OutputLike],
    result: CalcResult,
    *,
    styled: bool = False,
    extra_charts: Sequence[str] = (),
) -> str:
    """The HTML view: headline values, charts, warnings, explanation lines (Markdown) and tables;
    with ``styled`` the style sheet comes first (a page or widget that has no other);
    ``extra_charts`` (HTML) follow the declared charts.

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> 'data-key="p_pass_exact">7/12<' in result_html(calc.outputs, calc.run(ld=7))
    True
    """
    outputs = tuple(outputs)
    charted = {o.key for o in outputs if o.kind == "list" and len(getattr(o, "chart", ())) > 0}
    shown = [s for s in shown_values(outputs, result.values) if not s.long]
    values = [s.to_html() for s in shown if s.key not in charted]
    parts = [STYLE] if styled else []
    parts += ['<div class="rb-result">', '<div class="rb-headline">', *values, "</div>"]
    parts += [f'<p class="rb-warning">warning: {html.escape(w)}</p>' for w in result.warnings]
    more = [*charts_html(outputs, result), *extra_charts]
    # A charted distribution reads as its chart; its numbers stay one click away, in small type.
    more += [
        f'<details class="rb-numbers"><summary>{html.escape(s.label)}: the numbers</summary>{s.to_html()}</details>'
        for s in shown
        if s.key in charted
    ]
    if result.explanation:
        more.append(
            "<ul class='rb-explanation'>"
            + "".join(f"<li>{md_inline(line)}</li>" for line in result.explanation)
            + "</ul>"
        )
    more += [table_html(t) for t in result.tables]
    if more:
        parts.append(workings_html(more, result))
    parts.append("</div>")
    return "".join(parts)


def workings_html(parts: Sequence[str], result: CalcResult) -> str:
    """Everything of an answer but its headline values: charts, explanation and tables, in a
    ``<details class="rb-workings">`` that starts open. A live page closes it on a phone (the
    inputs then sit right under the answer; ``widgets/forms/live.py``, ``live-calculators.js``) and a
    tap opens it.

    >>> workings_html(["<p>chart</p>"], CalcResult(values={}))
    '<details class="rb-workings" open><summary>How it was worked out</summary><p>chart</p></details>'
    """
    what = []
    if result.explanation:
        what.append("explanation")
    if result.tables:
        what.append(f"{len(result.tables)} table{'s' if len(result.tables) != 1 else ''}")
    title = "How it was worked out" + (f" ({', '.join(what)})" if what else "")
    return f'<details class="rb-workings" open><summary>{title}</summary>{"".join(parts)}</details>'


def mended_html(notes: Sequence[str]) -> str:
    """The line saying which inputs a form set to agree with the player's pick
    (:func:`rulesbook.relations.mend`), shown above the answer ("" for none).

    >>> mended_html(["Sickness set to none: a Sickness comes with the spread-the-sickness detachment."])[:61]
    '<p class="rb-mended" data-key="mended">Sickness set to none: '
    """
    if not notes:
        return ""
    return f'<p class="rb-mended" data-key="mended">{html.escape(" ".join(notes))}</p>'


def error_html(message: str) -> str:
    """The one-line error shown instead of a result (the form keeps what was typed).

    >>> error_html("ld: must be 2 to 12").endswith('data-key="error">ld: must be 2 to 12</p></div>')
    True
    """
    return (
        f'{STYLE}<div class="rb-result"><p class="rb-error" data-key="error">{html.escape(message)}</p></div>'
    )


class RuleLike(Protocol):
    """What the rule texts need of a rule (:class:`rulesbook.registry.Rule`)."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def citations(self) -> Sequence[object]: ...


@cache
def rules_html(rules: tuple[RuleLike, ...]) -> str:
    """The texts of the given rules (those a calculator executes), with citations (HTML).

    >>> from rulesbook.registry import registry
    >>> '<section class="rb-rule" data-rule="scrollhammer.morale.check">' in rules_html(
    ...     (registry().rule("scrollhammer.morale.check"),))
    True
    """
    import markdown

    parts = []
    for rule in rules:
        cite = "; ".join(str(c) for c in rule.citations)
        parts.append(
            f'<section class="rb-rule" data-rule="{rule.id}"><h4>{html.escape(rule.title)} '
            f"<small><code>{rule.id}</code></small></h4>{markdown.markdown(rule.text)}"
            f"<p><small>Source: {html.escape(cite)}</small></p></section>"
        )
    return "".join(parts)


@cache
def rules_block(rules: tuple[RuleLike, ...], opened: bool = True) -> str:
    """The rule texts in a ``<details>`` block titled "Rule text" (open or closed), with the style.

    Example:
        >>> from rulesbook.registry import registry
        >>> html = rules_block((registry().rule("scrollhammer.morale.check"),), opened=False)
        >>> '<details class="rb-rules"><summary>Rule text</summary>' in html
        True
    """
    state = " open" if opened else ""
    return (
        f'{STYLE}<details class="rb-rules"{state}><summary>Rule text</summary>{rules_html(rules)}</details>'
    )


@cache
def heading_html(title: str, summary: str, calc_id: str) -> str:
    """A calculator page's heading: title, summary (our Markdown) and ID, rendered once.

    Example:
        >>> heading_html("Morale check", "Roll *2D6*.", "scrollhammer.morale-check").split(">", 1)[1]
        '<h2>Morale check</h2><p>Roll <em>2D6</em>.</p><p><code>scrollhammer.morale-check</code></p></div>'
    """
    import markdown

    return (
        f'<div class="rb-heading" style="font-family: system-ui, sans-serif">'
        f"<h2>{html.escape(title)}</h2>{markdown.markdown(summary)}<p><code>{html.escape(calc_id)}</code></p></div>"
    )
