"""How the Python front door's objects look: an answer and a rule as text, HTML and Markdown.

:mod:`rulesbook.api` hands over plain views (:class:`AnswerView`, :class:`RuleView`); the values
are formatted by the one formatter (:mod:`rulesbook.present`), so an answer in a notebook reads
as on the site and a terminal shows the command line's text.

Example:
    >>> from rulesbook.calculators import Output
    >>> from rulesbook.results import CalcResult
    >>> from fractions import Fraction
    >>> v = AnswerView("x.odds", "Odds", (Output("p", "P(pass)"),), CalcResult({"p": 0.25, "p_exact": "1/4"}),
    ...                (ShownInput("ld", "Leadership", "7", False),))
    >>> print(answer_text(v))
    Odds
      P(pass)                      0.2500  (1/4)
    >>> "Leadership</b> 7" in answer_html(v), answer_markdown(v).splitlines()[0]
    (True, '### Odds')
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from rulesbook import present
from rulesbook.index import RuleInfo
from rulesbook.results import CalcResult

__all__ = [
    "AnswerView",
    "RuleView",
    "ShownInput",
    "answer_html",
    "answer_markdown",
    "answer_text",
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
    outputs: Sequence[present.OutputLike]
    result: CalcResult
    inputs: tuple[ShownInput, ...] = ()
    variant: tuple[str, str] | None = None


def answer_text(view: AnswerView, style: bool = False) -> str:
    """The command line's text of ``rulesbook calc``: the variant (if any), the title, one line
    per value, the explanation and the warnings; safe for a terminal."""
    head = f"Variant {view.variant[0]}: {view.variant[1]}\n" if view.variant else ""
    return present.plain(head + view.title) + "\n" + present.result_text(view.outputs, view.result, style)


def _inputs_line(view: AnswerView) -> str:
    given = [i for i in view.inputs if not i.default]
    if not given:
        return "every input at its default"
    return " · ".join(f"<b>{html.escape(i.label)}</b> {html.escape(i.text)}" for i in given)


def _probability_chart(view: AnswerView) -> list[str]:
    """A small bar chart of the headline probabilities, when the result draws no chart of its own."""
    if present.charts_html(view.outputs, view.result):
        return []
    shown = [
        s
        for s in present.shown_values(view.outputs, view.result.values)
        if s.kind == "probability" and not s.long
    ]
    if not shown:
        return []
    values = [float(view.result.values[s.key]) for s in shown]
    return [
        present.bar_chart(
            f"{view.calculator}-chances", "Chances", "", [s.label for s in shown], [("", values)]
        )
    ]


def answer_html(view: AnswerView) -> str:
    """The notebook view: title, ID and variant, the inputs given, then the result (headline
    values as percentages with exact fractions, charts, explanation, labelled tables), with
    every input in a closed block."""
    variant = (
        f" · variant <b>{html.escape(view.variant[0])}</b>: {html.escape(view.variant[1])}"
        if view.variant
        else ""
    )
    rows = "".join(
        f"<tr><td>{html.escape(i.label)}</td><td><code>{html.escape(i.key)}</code></td>"
        f"<td>{html.escape(i.text)}</td></tr>"
        for i in view.inputs
    )
    parts = [
        f'<div class="rb-answer" data-calculator="{html.escape(view.calculator)}">',
        f'<h3 class="rb-title">{html.escape(view.title)}</h3>',
        f"<p><code>{html.escape(view.calculator)}</code>{variant}</p>",
        f'<p class="rb-inputs">{_inputs_line(view)}</p>',
        present.result_html(view.outputs, view.result),
        *_probability_chart(view),
        f'<details class="rb-numbers"><summary>Every input</summary><table class="rulesbook-table">'
        f"<thead><tr><th>input</th><th>key</th><th>value</th></tr></thead><tbody>{rows}</tbody></table></details>"
        if rows
        else "",
        "</div>",
    ]
    return "".join(parts)


def answer_markdown(view: AnswerView) -> str:
    """The answer as Markdown: title, ID and inputs, the values table, explanation and tables."""
    given = [i for i in view.inputs if not i.default]
    inputs = ", ".join(f"{i.label} {i.text}" for i in given) or "every input at its default"
    variant = f" · variant **{view.variant[0]}**: {view.variant[1]}" if view.variant else ""
    lines = [f"### {view.title}", "", f"`{view.calculator}`{variant} · {inputs}", ""]
    lines += present.result_markdown(view.outputs, view.result)
    lines += present.tables_markdown(view.result.tables)
    return "\n".join(lines).rstrip() + "\n"


@dataclass(frozen=True, slots=True)
class RuleView:
    """What a rule shows: everything the index knows, and the parameters a variant can change
    (lines of :func:`rulesbook.variants.parameter_lines`)."""

    info: RuleInfo
    parameters: tuple[str, ...] = ()


def rule_text(view: RuleView, style: bool = False) -> str:
    """The command line's text of ``rulesbook rule ID``."""
    info, data = view.info, view.info.to_json()
    lines = [f"{info.title}  [{info.id}]", "Source: " + "; ".join(data["citations"]), ""]
    out = [present.plain(line) for line in lines]
    out += [present.terminal_text(info.text, style), ""]
    for label, key in (
        ("Code", "code"),
        ("Calculators", "calculators"),
        ("Interpretations", "interpretations"),
    ):
        if data[key]:
            out.append(present.plain(f"{label}: " + ", ".join(data[key])))
    out.append(present.plain("\n".join(view.parameters) or "Parameters a variant can change: none"))
    if data["tests"]:
        out.append("Tests:")
        out += [present.plain(f"  {test}") for test in data["tests"]]
    out.append(present.plain(f"Page: {data['page']}"))
    return "\n".join(out)


def _markdown_html(text: str) -> str:
    import markdown

    return str(markdown.markdown(text))


def _parameters_html(lines: Sequence[str]) -> str:
    if not lines:
        return ""
    shown = "".join(f"<li>{html.escape(line.strip())}</li>" for line in lines)
    return f"<p><b>Parameters a variant can change:</b></p><ul>{shown}</ul>"


def rule_html(view: RuleView) -> str:
    """The notebook view of a rule: title and ID, its text (our words), the source sections,
    then what executes it: calculators, interpretations, parameters, code and tests."""
    info, data = view.info, view.info.to_json()

    def items(label: str, values: Sequence[str]) -> str:
        if not values:
            return ""
        shown = ", ".join(f"<code>{html.escape(v)}</code>" for v in values)
        return f"<p><b>{label}:</b> {shown}</p>"

    tests = (
        f"<details><summary>Tests ({len(info.tests)})</summary><ul>"
        + "".join(f"<li><code>{html.escape(t)}</code></li>" for t in info.tests)
        + "</ul></details>"
        if info.tests
        else ""
    )
    return "".join(
        [
            f'<div class="rb-rule" data-rule="{html.escape(info.id)}">',
            f"<h3>{html.escape(info.title)} <small><code>{html.escape(info.id)}</code></small></h3>",
            _markdown_html(info.text),
            f"<p><small>Source: {html.escape('; '.join(data['citations']))}</small></p>",
            items("Calculators", info.calculators),
            items("Interpretations", info.interpretations),
            _parameters_html(view.parameters[1:]),
            items("Code", data["code"]),
            tests,
            f"<p><small>Page: <code>{html.escape(info.page)}</code></small></p>",
            "</div>",
        ]
    )


def rule_markdown(view: RuleView) -> str:
    """The rule as Markdown: title and ID, text, source, calculators and interpretations."""
    info, data = view.info, view.info.to_json()
    lines = [
        f"### {info.title} `{info.id}`",
        "",
        info.text.strip(),
        "",
        f"*Source: {'; '.join(data['citations'])}*",
        "",
    ]
    for label, key in (
        ("Calculators", "calculators"),
        ("Interpretations", "interpretations"),
        ("Code", "code"),
    ):
        if data[key]:
            lines += [f"**{label}:** " + ", ".join(f"`{v}`" for v in data[key]), ""]
    return "\n".join(lines).rstrip() + "\n"
