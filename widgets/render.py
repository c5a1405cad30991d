"""HTML for a calculator result, shared by the ipywidgets and Panel front-ends.

Every headline value is rendered as ``<span data-key="KEY">`` so browser tests and scripts can
read it back; tables come from :meth:`rulesbook.results.Table.to_html`.

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
from typing import Any

from rulesbook.calculators import Calculator
from rulesbook.registry import registry
from rulesbook.results import CalcResult, short_fraction

STYLE = """
<style>
.rb-result { font-family: system-ui, sans-serif; }
.rb-headline { display: flex; flex-wrap: wrap; gap: 1.5em; margin: .3em 0 .8em 0; }
.rb-value { display: flex; flex-direction: column; }
.rb-value .rb-label { font-size: .8em; color: #555; }
.rb-value .rb-number { font-size: 1.6em; font-weight: 600; }
.rb-value .rb-exact { font-size: .85em; color: #333; }
.rulesbook-table { border-collapse: collapse; margin: .5em 0; font-size: .9em; }
.rulesbook-table caption { text-align: left; font-weight: 600; padding-bottom: .3em; }
.rulesbook-table td, .rulesbook-table th { border: 1px solid #ccc; padding: 2px 8px; text-align: center; }
.rulesbook-table td.rb-pass { background: #d8f0d8; }
.rulesbook-table td.rb-critical { background: #a8dca8; }
.rulesbook-table td.rb-fail { background: #f4d4d4; }
.rb-error { color: #a00; font-weight: 600; }
.rb-warning { color: #8a5a00; }
</style>
"""


def _value_html(label: str, key: str, text: str, exact: str | None = None) -> str:
    if exact is None:
        exact_html = ""
    elif (short := short_fraction(exact, limit=40)) == exact:
        exact_html = (
            f'<span class="rb-exact">exact <span data-key="{key}_exact">{html.escape(exact)}</span></span>'
        )
    else:  # a huge fraction: summarised on screen, whole in the data-exact attribute
        exact_html = (
            f'<span class="rb-exact"><span data-key="{key}_exact" data-exact="{html.escape(exact)}">'
            f"{html.escape(short)}</span></span>"
        )
    return (
        f'<div class="rb-value"><span class="rb-label">{html.escape(label)}</span>'
        f'<span class="rb-number" data-key="{key}">{html.escape(text)}</span>{exact_html}</div>'
    )


def _format(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, list | tuple):
        return ", ".join(_format(v) for v in value)
    return str(value)


def result_html(calc: Calculator, result: CalcResult) -> str:
    """The result view: headline values, warnings, explanation lines and tables."""
    values = []
    for out in calc.outputs:
        if out.key not in result.values or out.kind == "table":
            continue
        value = result.values[out.key]
        if out.kind == "probability":
            values.append(
                _value_html(out.label, out.key, f"{float(value):.1%}", result.values.get(f"{out.key}_exact"))
            )
        elif out.kind == "list" and isinstance(value, list | tuple) and len(value) > 12:
            continue  # long lists are shown as tables
        else:
            values.append(_value_html(out.label, out.key, _format(value)))
    parts = [STYLE, '<div class="rb-result">', '<div class="rb-headline">', *values, "</div>"]
    parts += [f'<p class="rb-warning">warning: {html.escape(w)}</p>' for w in result.warnings]
    if result.explanation:
        parts.append(
            "<ul class='rb-explanation'>"
            + "".join(f"<li>{_md_inline(line)}</li>" for line in result.explanation)
            + "</ul>"
        )
    parts += [t.to_html() for t in result.tables]
    parts.append("</div>")
    return "".join(parts)


def error_html(message: str) -> str:
    """The one-line error shown instead of a result (the form keeps what was typed)."""
    return (
        f'{STYLE}<div class="rb-result"><p class="rb-error" data-key="error">{html.escape(message)}</p></div>'
    )


def _md_inline(text: str) -> str:
    import markdown

    rendered: str = markdown.markdown(text)
    return rendered.removeprefix("<p>").removesuffix("</p>")


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
