"""HTML for a calculator result, shared by the ipywidgets and Panel front-ends.

How each value looks is decided by the one formatter, :mod:`rulesbook.present`: every headline
value is rendered as ``<span data-key="KEY">`` so browser tests and scripts can read it back;
tables come from :meth:`rulesbook.results.Table.to_html`. This module adds the style sheet,
the error line and the rule texts.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> html = result_html(calc, calc.run(ld=7))
    >>> 'data-key="p_pass_exact">7/12<' in html
    True
"""

from __future__ import annotations

import html
from functools import cache

from rulesbook import present
from rulesbook.calculators import Calculator
from rulesbook.registry import registry
from rulesbook.results import CalcResult

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
</style>
"""


def result_html(calc: Calculator, result: CalcResult) -> str:
    """The result view (see :func:`rulesbook.present.result_html`) with the widgets' style."""
    return STYLE + present.result_html(calc.outputs, result)


def error_html(message: str) -> str:
    """The one-line error shown instead of a result (the form keeps what was typed)."""
    return (
        f'{STYLE}<div class="rb-result"><p class="rb-error" data-key="error">{html.escape(message)}</p></div>'
    )


@cache
def rules_html(rule_ids: tuple[str, ...]) -> str:
    """The texts of the given rules (those a calculator executes), with citations (HTML)."""
    import markdown

    reg = registry()
    parts = []
    for rule_id in rule_ids:
        rule = reg.rule(rule_id)
        cite = "; ".join(str(c) for c in rule.citations)
        parts.append(
            f'<section class="rb-rule" data-rule="{rule.id}"><h4>{html.escape(rule.title)} '
            f"<small><code>{rule.id}</code></small></h4>{markdown.markdown(rule.text)}"
            f"<p><small>Source: {html.escape(cite)}</small></p></section>"
        )
    return "".join(parts)


@cache
def rules_block(rule_ids: tuple[str, ...], opened: bool = True) -> str:
    """The rule texts in a ``<details>`` block titled "Rule text" (open or closed), with the style.

    Example:
        >>> html = rules_block(("scrollhammer.morale.check",), opened=False)
        >>> '<details class="rb-rules"><summary>Rule text</summary>' in html
        True
    """
    state = " open" if opened else ""
    return f'{STYLE}<details class="rb-rules"{state}><summary>Rule text</summary>{rules_html(rule_ids)}</details>'


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
