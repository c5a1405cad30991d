"""The front door's objects: an answer and a rule that show themselves.

Each reads like the value it wraps and prints as the command line does (``rulesbook calc``,
``rulesbook rule``); in Jupyter it shows as HTML or Markdown (:mod:`rulesbook.present.answers`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesbook.calculators import Calculator
from rulesbook.errors import InputError
from rulesbook.index import RuleInfo
from rulesbook.present import answers as view
from rulesbook.results import CalcResult, Table
from rulesbook.variants import Variant, parameter_lines

__all__ = ["Answer", "Rule", "rule_view"]


@dataclass(frozen=True, slots=True)
class Answer:
    """A calculator's answer with what it was asked: the calculator, the inputs (validated,
    defaults filled), the result and the variant it ran under (``None``: the published rules).

    Read it like the result (``answer["p_pass_exact"]``, ``.values``, ``.tables``,
    ``.explanation``); :meth:`to_json` is the command line's ``--json`` answer and ``str()``
    its text. In Jupyter it shows as HTML (:meth:`_repr_html_`).

    Example:
        >>> from rulesbook.api import calc
        >>> a = calc("wh40k.battle-shock", leadership=7)
        >>> a.to_json()["result"]["p_pass_exact"], a.inputs["leadership"]
        ('7/12', 7)
    """

    calculator: Calculator
    inputs: Mapping[str, Any]
    result: CalcResult
    variant: Variant | None = None

    def __getitem__(self, key: str) -> Any:
        return self.result[key]

    @property
    def values(self) -> Mapping[str, Any]:
        """The result's values (probabilities as floats with ``*_exact`` strings)."""
        return self.result.values

    @property
    def tables(self) -> tuple[Table, ...]:
        """The result's tables (columns labelled as the calculator declares)."""
        return self.result.tables

    @property
    def explanation(self) -> tuple[str, ...]:
        """The explanation lines (Markdown)."""
        return self.result.explanation

    @property
    def warnings(self) -> tuple[str, ...]:
        """Warnings about the answer (a capped value, an approximate result)."""
        return self.result.warnings

    def table(self, name: str) -> Table:
        """The result's table called ``name`` (``KeyError`` if there is none)."""
        return self.result.table(name)

    def to_json(self) -> dict[str, Any]:
        """The command line's ``--json`` answer: calculator, variant (when one), inputs, result."""
        variant = None if self.variant is None else self.variant.name
        return self.calculator.answer_json(self.inputs, self.result, variant)

    def _view(self) -> view.AnswerView:
        calc = self.calculator
        return view.AnswerView(
            calculator=calc.id,
            title=calc.title,
            outputs=calc.outputs,
            result=self.result,
            inputs=tuple(
                view.ShownInput(i.key, i.title, i.format(self.inputs[i.key]), _is_default(i, self.inputs))
                for i in calc.inputs
            ),
            variant=None if self.variant is None else (self.variant.name, self.variant.title),
        )

    def to_text(self, style: bool = False) -> str:
        """The command line's text: title, one line per value, the explanation and warnings."""
        return view.answer_text(self._view(), style)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        return view.answer_html(self._view())

    def _repr_markdown_(self) -> str:
        return view.answer_markdown(self._view())


def _is_default(inp: Any, inputs: Mapping[str, Any]) -> bool:
    try:
        return bool(inputs[inp.key] == inp.validate(inp.default))
    except InputError:  # a required input, or a default that is checked at use (a path)
        return False


class Rule(RuleInfo):
    """Everything about one rule (a :class:`~rulesbook.index.RuleInfo`) that shows itself: the
    command line's ``rulesbook rule`` text in a terminal, its text, citations, calculators and
    interpretations as HTML in Jupyter.

    Example:
        >>> from rulesbook.api import rule
        >>> r = rule("wh40k.attack.hit-roll")
        >>> r.title, r.calculators[0], r.page
        ('Hit roll', 'wh40k.attack', 'wh40k/rules/wh40k.attack.hit-roll/')
    """

    __slots__ = ()

    def _view(self) -> view.RuleView:
        return rule_view(self)

    def to_text(self, style: bool = False) -> str:
        """The command line's ``rulesbook rule ID`` text."""
        return view.rule_text(self._view(), style)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        return view.rule_html(self._view())

    def _repr_markdown_(self) -> str:
        return view.rule_markdown(self._view())


def rule_view(info: RuleInfo) -> view.RuleView:
    """What ``rulesbook rule ID`` and a notebook show of a rule: its index entry in words, and
    the parameters a variant can change."""
    data = info.to_json()
    return view.RuleView(
        id=info.id,
        title=info.title,
        text=info.text,
        citations=tuple(data["citations"]),
        code=tuple(data["code"]),
        calculators=info.calculators,
        interpretations=info.interpretations,
        parameters=tuple(parameter_lines(info.id)),
        tests=info.tests,
        page=data["page"],
    )
