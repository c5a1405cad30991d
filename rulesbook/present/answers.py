"""The front door's objects as text, HTML and Markdown: an answer, a rule, a distribution.

``rulesbook calc`` and ``rulesbook rule`` print :func:`answer_text` and :func:`rule_text`; the
Python front door (:mod:`rulesbook.api`) shows the same text in a terminal and, in Jupyter,
:func:`answer_html` and :func:`rule_html` (or the Markdown forms). They are handed plain views
(:class:`AnswerView`, :class:`RuleView`), so nothing here reaches the registry.

Example:
    >>> from rulesbook.calculators import Output
    >>> from rulesbook.results import CalcResult
    >>> v = AnswerView("x.odds", "Odds", (Output("p", "P(pass)"),), CalcResult({"p": 0.25, "p_exact": "1/4"}),
    ...                (ShownInput("ld", "Leadership", "7", False),))
    >>> print(answer_text(v))
    Odds
      P(pass)                      0.2500  (1/4)
    >>> "<b>Leadership</b> 7" in answer_html(v), answer_markdown(v).splitlines()[0]
    (True, '### Odds')
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesbook.present.charts import bar_chart, charts_html
from rulesbook.present.html import STYLE, result_html
from rulesbook.present.markdown import result_markdown
from rulesbook.present.numbers import decimal
from rulesbook.present.shown import OutputLike, scalar_text, shown_values
from rulesbook.present.tables import table_html, table_markdown, tables_markdown
from rulesbook.present.text import plain, result_text, terminal_text
from rulesbook.results import CalcResult, Distribution, fraction_str

__all__ = [
    "AnswerView",
    "RuleView",
    "ShownInput",
    "answer_html",
    "answer_markdown",
    "answer_text",
    "distribution_html",
    "distribution_markdown",
    "rule_html",
    "rule_markdown",
    "rule_text",
]


@dataclass(frozen=True, slots=True)
class ShownInput:
    """One input of an answer: key, label, the value as the command line writes it, and
    whether it is the input's default."""

    key: str
    label: str
    text: str
    default: bool


@dataclass(frozen=True, slots=True)
class AnswerView:
    """What an answer shows: the calculator, its outputs, the result, the inputs and the variant
    (its name and title) it ran under."""

    calculator: str
    title: str
    outputs: Sequence[OutputLike]
    result: CalcResult
    inputs: tuple[ShownInput, ...] = ()
    variant: tuple[str, str] | None = None


def answer_text(view: AnswerView, style: bool = False) -> str:
    """The text of ``rulesbook calc``: the variant (if any), the title, one line per value, the
    explanation and the warnings; safe for a terminal (bold and italic only with ``style``)."""
    head = f"Variant {view.variant[0]}: {view.variant[1]}\n" if view.variant else ""
    return plain(head + view.title) + "\n" + result_text(view.outputs, view.result, style)


def _given(view: AnswerView) -> list[ShownInput]:
    return [i for i in view.inputs if not i.default]


def _chances_chart(view: AnswerView) -> list[str]:
    """A small bar chart of the headline probabilities, when the result draws no chart of its own."""
    if charts_html(view.outputs, view.result):
        return []
    shown = [s for s in shown_values(view.outputs, view.result.values) if s.kind == "probability"]
    if not shown:
        return []
    values = [float(view.result.values[s.key]) for s in shown]
    chart = bar_chart(f"{view.calculator}-chances", "Chances", "", [s.label for s in shown], [("", values)])
    return [f'<div class="rb-small-chart" style="max-width:360px">{chart}</div>']


def answer_html(view: AnswerView) -> str:
    """The notebook view: title, ID and variant, the inputs given, then the result (headline
    values as percentages with their exact fractions, charts, explanation, labelled tables) and
    every input in a closed block; the style sheet first."""
    variant = (
        f" · variant <b>{html.escape(view.variant[0])}</b>: {html.escape(view.variant[1])}"
        if view.variant
        else ""
    )
    given = " · ".join(f"<b>{html.escape(i.label)}</b> {html.escape(i.text)}" for i in _given(view))
    rows = "".join(
        f"<tr><td>{html.escape(i.label)}</td><td><code>{html.escape(i.key)}</code></td>"
        f"<td>{html.escape(i.text)}</td></tr>"
        for i in view.inputs
    )
    every = (
        '<details class="rb-numbers"><summary>Every input</summary><table class="rulesbook-table">'
        f"<thead><tr><th>input</th><th>key</th><th>value</th></tr></thead><tbody>{rows}</tbody></table></details>"
        if rows
        else ""
    )
    return "".join(
        [
            STYLE,
            f'<div class="rb-answer" data-calculator="{html.escape(view.calculator)}" '
            'style="font-family: system-ui, sans-serif">',
            f'<h3 class="rb-title">{html.escape(view.title)}</h3>',
            f"<p><code>{html.escape(view.calculator)}</code>{variant}</p>",
            f'<p class="rb-inputs">{given or "every input at its default"}</p>',
            result_html(view.outputs, view.result, extra_charts=_chances_chart(view)),
            every,
            "</div>",
        ]
    )


def answer_markdown(view: AnswerView) -> str:
    """The answer as Markdown: title, ID and inputs, the values table, explanation and tables."""
    inputs = ", ".join(f"{i.label} {i.text}" for i in _given(view)) or "every input at its default"
    variant = f" · variant **{view.variant[0]}**: {view.variant[1]}" if view.variant else ""
    lines = [f"### {view.title}", "", f"`{view.calculator}`{variant} · {inputs}", ""]
    lines += result_markdown(view.outputs, view.result)
    lines += tables_markdown(view.result.tables)
    return "\n".join(lines).rstrip() + "\n"


@dataclass(frozen=True, slots=True)
class RuleView:
    """What a rule shows (everything ``rulesbook rule ID`` prints): its text in our words, the
    source sections, the code that executes it, its calculators, interpretations, the
    parameters a variant can change (lines), the tests that cover it and its page."""

    id: str
    title: str
    text: str
    citations: tuple[str, ...] = ()
    code: tuple[str, ...] = ()
    calculators: tuple[str, ...] = ()
    interpretations: tuple[str, ...] = ()
    parameters: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    page: str = ""


_LISTED = (("Code", "code"), ("Calculators", "calculators"), ("Interpretations", "interpretations"))


def rule_text(view: RuleView, style: bool = False) -> str:
    """The text of ``rulesbook rule ID``, safe for a terminal.

    >>> print(rule_text(RuleView("x.r", "R", "Roll *two* dice.", ("Doc, R",), calculators=("x.c",), page="x/r/")))
    R  [x.r]
    Source: Doc, R
    <BLANKLINE>
    Roll two dice.
    <BLANKLINE>
    Calculators: x.c
    Parameters a variant can change: none
    Page: x/r/
    """
    lines = [f"{view.title}  [{view.id}]", "Source: " + "; ".join(view.citations), ""]
    out = [plain(line) for line in lines]
    out += [terminal_text(view.text, style), ""]
    out += [
        plain(f"{label}: " + ", ".join(getattr(view, key))) for label, key in _LISTED if getattr(view, key)
    ]
    out.append(plain("\n".join(view.parameters) or "Parameters a variant can change: none"))
    if view.tests:
        out += ["Tests:", *(plain(f"  {test}") for test in view.tests)]
    out.append(plain(f"Page: {view.page}"))
    return "\n".join(out)


def _code_list(label: str, values: Sequence[str]) -> str:
    if not values:
        return ""
    return f"<p><b>{label}:</b> " + ", ".join(f"<code>{html.escape(v)}</code>" for v in values) + "</p>"


def rule_html(view: RuleView) -> str:
    """The notebook view of a rule: title and ID, its text, the source sections, then what
    executes it: calculators, interpretations, parameters a variant can change, code and tests."""
    import markdown

    params = view.parameters[1:]  # the first line is the heading "Parameters a variant can change …"
    parameters = (
        "<p><b>Parameters a variant can change:</b></p><ul>"
        + "".join(f"<li>{html.escape(line.strip())}</li>" for line in params)
        + "</ul>"
        if params
        else ""
    )
    tests = (
        f"<details><summary>Tests ({len(view.tests)})</summary><ul>"
        + "".join(f"<li><code>{html.escape(t)}</code></li>" for t in view.tests)
        + "</ul></details>"
        if view.tests
        else ""
    )
    return "".join(
        [
            f'<div class="rb-rule" data-rule="{html.escape(view.id)}" style="font-family: system-ui, sans-serif">',
            f"<h3>{html.escape(view.title)} <small><code>{html.escape(view.id)}</code></small></h3>",
            markdown.markdown(view.text),
            f"<p><small>Source: {html.escape('; '.join(view.citations))}</small></p>",
            _code_list("Calculators", view.calculators),
            _code_list("Interpretations", view.interpretations),
            parameters,
            _code_list("Code", view.code),
            tests,
            f"<p><small>Page: <code>{html.escape(view.page)}</code></small></p>",
            "</div>",
        ]
    )


def rule_markdown(view: RuleView) -> str:
    """The rule as Markdown: title and ID, text, source, calculators, interpretations and code."""
    lines = [
        f"### {view.title} `{view.id}`",
        "",
        view.text.strip(),
        "",
        f"*Source: {'; '.join(view.citations)}*",
        "",
    ]
    for label, key in (
        ("Calculators", "calculators"),
        ("Interpretations", "interpretations"),
        ("Code", "code"),
    ):
        if getattr(view, key):
            lines += [f"**{label}:** " + ", ".join(f"`{v}`" for v in getattr(view, key)), ""]
    return "\n".join(lines).rstrip() + "\n"


def _mean_text(dist: Distribution[Any]) -> str:
    try:
        mean = dist.mean()
    except TypeError:  # outcomes that are not numbers (pass / fail)
        return ""
    return f"mean {decimal(float(mean))} (exact {fraction_str(Fraction(mean))})"


def distribution_html(dist: Distribution[Any]) -> str:
    """A distribution in a notebook: its mean (for numbers), a bar chart and the table of
    P(exactly), P(at least) and P(at most) with exact fractions.

    >>> from rulesbook.dice import parse_dice
    >>> page = distribution_html(parse_dice("D3").distribution())
    >>> "mean 2 (exact 2)" in page, page.count('<rect class="rb-bar'), page.count("<tr>")
    (True, 3, 4)
    """
    xs = [scalar_text(o) for o, _ in dist]
    chart = bar_chart("distribution", "P(exactly)", "outcome", xs, [("", [float(p) for _, p in dist])])
    mean = _mean_text(dist)
    head = f'<p class="rb-mean">{html.escape(mean)}</p>' if mean else ""
    return f'{STYLE}<div class="rb-result">{head}{chart}{table_html(dist.table())}</div>'


def distribution_markdown(dist: Distribution[Any]) -> str:
    """A distribution as Markdown: its mean (for numbers) and its table.

    >>> from rulesbook.dice import parse_dice
    >>> print(distribution_markdown(parse_dice("D3").distribution()).splitlines()[0])
    mean 2 (exact 2)
    """
    mean = _mean_text(dist)
    return (f"{mean}\n\n" if mean else "") + table_markdown(dist.table()) + "\n"
