"""The Python front door: ``import rulesbook as rb``.

A handful of functions reach what a notebook or a script needs. Each answers as the command
line does — the same validation, the same one-line errors, the same numbers — and shows itself
where it is shown: in Jupyter as HTML (the headline values as percentages beside their exact
fractions, labelled tables, a small chart, the explanation), in a terminal as the command
line's text.

* :func:`calc` runs a calculator (``rulesbook calc``), optionally under a designer variant;
* :func:`rule` is everything about a rule ID (``rulesbook rule``);
* :func:`variant` is a shipped variant by name, or one from a YAML file;
* :func:`widget` is the interactive ipywidgets form (the front-end is imported only then);
* :func:`calculator_ids` lists the calculators (``rulesbook list``).

``import rulesbook`` loads none of this until a name is first used (the package's
``__getattr__``), so it costs what the command line's start-up costs.

Example:
    >>> import rulesbook as rb
    >>> answer = rb.calc("scrollhammer.morale-check", ld=7, modifier=-1)
    >>> answer["p_pass_exact"], round(answer["p_pass"], 4)
    ('5/12', 0.4167)
    >>> print(answer)  # doctest: +ELLIPSIS
    Morale check
      P(pass)                      0.4167  (5/12)
      P(fail)                      0.5833  (7/12)
    ...
    >>> rb.calc("scrollhammer.morale-check", ld=13)
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: ld: expected an integer from 0 to 12, got 13
    >>> rb.rule("scrollhammer.morale.insane-heroism").calculators[:2]
    ('scrollhammer.morale-check', 'scrollhammer.pinning-test')
    >>> rb.calc("scrollhammer.break-test", ld=8, lost_by=2, variant="break-2-ld-per-point")["p_pass_exact"]
    '1/6'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesbook import present_front as view
from rulesbook.calculators import Calculator
from rulesbook.errors import InputError
from rulesbook.index import RuleInfo, rule_info
from rulesbook.registry import registry
from rulesbook.results import CalcResult, Table
from rulesbook.variants import (
    Variant,
    VariantLike,
    parameter_lines,
    resolve_variant,
    validate_with,
    variant_calculator,
)

if TYPE_CHECKING:
    from widgets.ipy import CalculatorForm

__all__ = ["Answer", "Rule", "calc", "calculator_ids", "rule", "variant", "widget"]


@dataclass(frozen=True, slots=True)
class Answer:
    """A calculator's answer with what it was asked: the calculator, the inputs (validated,
    defaults filled), the result and the variant it ran under (``None``: the published rules).

    Read it like the result (``answer["p_pass_exact"]``, ``.values``, ``.tables``,
    ``.explanation``); :meth:`to_json` is the command line's ``--json`` answer and ``str()``
    its text. In Jupyter it shows as HTML (:meth:`_repr_html_`).

    Example:
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
        named = {"variant": self.variant.name} if self.variant is not None else {}
        return {
            "calculator": self.calculator.id,
            **named,
            "inputs": self.calculator.inputs_json(self.inputs),
            "result": self.result.to_json(),
        }

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


def calc(calc_id: str, /, *, variant: VariantLike | None = None, **inputs: Any) -> Answer:
    """Run calculator ``calc_id`` with keyword inputs, as ``rulesbook calc ID key=value ...`` does.

    A value may be given as Python (``ld=7``, ``hive_mind=True``, ``unit_lds=[7, 7, 6]``) or as
    the text the command line takes (``ld="7"``, ``unit_lds="7,7,6"``, ``attacks="D6+3"``); both
    are checked by the calculator's declared inputs, and anything wrong raises
    :class:`~rulesbook.errors.InputError` with the command line's one-line message. ``variant``
    is a shipped variant's name, the path of a YAML file, a :class:`~rulesbook.variants.Variant`
    or a list of them (composed), as ``variant=`` on the command line.

    >>> calc("wh40k.battle-shock", leadership="7").to_json() == calc("wh40k.battle-shock", leadership=7).to_json()
    True
    >>> calc("scrollhammer.morale-check", ldd=7)
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: ldd: unknown input for scrollhammer.morale-check; allowed: ld, modifier, ...
    """
    if not isinstance(calc_id, str):
        raise InputError(
            "calculator", f"expected a calculator ID such as scrollhammer.morale-check, got {calc_id!r}"
        )
    # only the calculator's own system is loaded first, as the command line does
    reg = registry(calc_id.partition(".")[0] or None)
    if calc_id not in reg.calculators:
        reg = registry()
    calculator = reg.calculator(calc_id)
    resolved = None if variant is None else resolve_variant(variant)
    checked, choices = validate_with(calculator, resolved, inputs)
    runner = calculator if resolved is None else variant_calculator(calculator, resolved)
    return Answer(calculator, checked, runner.run_validated(checked, choices=choices), resolved)


class Rule(RuleInfo):
    """Everything about one rule (a :class:`~rulesbook.index.RuleInfo`) that shows itself: the
    command line's ``rulesbook rule`` text in a terminal, its text, citations, calculators and
    interpretations as HTML in Jupyter.

    Example:
        >>> r = rule("wh40k.attack.hit-roll")
        >>> r.title, r.calculators[0], r.page
        ('Hit roll', 'wh40k.attack', 'wh40k/rules/wh40k.attack.hit-roll/')
    """

    __slots__ = ()

    def _view(self) -> view.RuleView:
        return view.RuleView(self, tuple(parameter_lines(self.id)))

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


def rule(rule_id: str) -> Rule:
    """Everything about rule ``rule_id``: text in our words, citations, the code that executes it,
    its calculators, interpretations, tests and page (:class:`~rulesbook.errors.InputError` with a
    "did you mean" for an unknown ID)."""
    info = rule_info(rule_id)
    return Rule(**{f.name: getattr(info, f.name) for f in dataclasses.fields(info)})


def variant(spec: VariantLike) -> Variant:
    """A designer variant: a shipped one by name (``rulesbook variants`` lists them), one from a
    YAML file by its path, or several composed (a list).

    >>> v = variant("break-2-ld-per-point")
    >>> v.system, v.summary()[0]
    ('scrollhammer', 'Ld lost per point of defeat (break_ld_per_point): 1 → 2')
    """
    return resolve_variant(spec)


def widget(calc_id: str, /, *, compare_with: str | None = None, **initial: Any) -> CalculatorForm:
    """The calculator's interactive form (ipywidgets), starting from ``initial`` values;
    ``compare_with`` names a shipped variant to show beside the published rules.

    The front-end is imported here, when first asked for, never by ``import rulesbook``.
    """
    try:
        from widgets.compare import NO_VARIANT
        from widgets.ipy import calculator_widget
    except ImportError as exc:  # pragma: no cover - only without the app extra
        raise ImportError(
            f"widget: the interactive forms need the app extra ({exc.name} is missing); run scripts/lab"
        ) from exc
    registry().calculator(calc_id)  # an unknown ID: the one-line error, before any widget is built
    return calculator_widget(calc_id, compare_with or NO_VARIANT, **initial)


def calculator_ids(system: str | None = None) -> tuple[str, ...]:
    """The calculator IDs, of one system or of all (``rulesbook list``).

    >>> calculator_ids("warstrike")
    ('warstrike.strike-force-morale', 'warstrike.starting-phase')
    """
    reg = registry()
    if system is None:
        return tuple(reg.calculators)
    reg.system(system)  # an unknown system: the one-line error
    return tuple(c.id for c in reg.calculators_for_system(system))
