"""Calculators built from declarations: one test or a chain of tests, optionally taken by several
units, with named outputs and an explanation generated from the declaration.

:func:`build_calculator` turns a :class:`~rulesbook.language.declarations.CalculatorDecl` into the
one :class:`~rulesbook.calculators.Calculator` contract every front-end serves: its inputs are
every input its tests read (in the order the system declares them, or the order it lists), its
outputs the ones it names, its function a :class:`DeclaredCompute` (a value, so results are cached
and a worker process can rebuild it). A variant's additions reach it through the choice set it is
given, like any other calculator; :class:`ExplainedCompute` adds the lines that say what a
variant added to the tests a calculator written in Python rolls.

Example:
    >>> from rulesbook.language.document import build_document
    >>> from rulesbook.language.mechanics import Mechanics
    >>> doc = build_document({
    ...     "inputs": {"nerve": {"kind": "integer", "minimum": 2, "maximum": 12, "default": 7}},
    ...     "tests": {"nerve": {"dice": "2D6", "pass": "at-most", "target": "nerve"}},
    ...     "calculators": {"nerve-test": {"title": "Nerve test", "test": "nerve",
    ...         "outputs": {"p_pass": {"label": "P(holds)", "p": "pass"}}}}})
    >>> mech = Mechanics("demo", doc)
    >>> calc = build_calculator(mech, doc.calculators[0], None)
    >>> [i.key for i in calc.inputs], calc.run(nerve=8)["p_pass_exact"]
    (['nerve'], '13/18')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rulesbook.calculators import Calculator, ComputeFn, Output, distribution_output
from rulesbook.dice import bernoulli_die
from rulesbook.errors import InputError
from rulesbook.language.document import CalculatorDecl, Declarations, OutputDecl, StepDecl
from rulesbook.language.explain import added_lines, describe_test
from rulesbook.language.expressions import Value
from rulesbook.language.mechanics import EMPTY, Mechanics, declared_additions, names_read
from rulesbook.present.numbers import fixed, percent
from rulesbook.results import CalcResult, Column, Distribution, fraction_str

__all__ = [
    "MAX_UNITS",
    "DeclaredCompute",
    "ExplainedCompute",
    "build_calculator",
    "calculator_inputs",
    "reached_names",
]

MAX_UNITS = 1000
"""The most units a calculator counts over."""


def reached_names(mechanics: Mechanics, tests: Iterable[str], extra: Declarations) -> set[str]:
    """The names read by the entries ``extra`` (a variant's additions) adds to the tests a
    calculator rolls and the tests they extend (what inputs the variant must offer it)."""
    own = {t.key for t in mechanics.own.tests}
    levels = {level for key in tests for level in mechanics.lineage(key, extra)}
    names: set[str] = set()
    for change in extra.tests:
        if change.key in levels and change.key in own:
            names |= names_read(change)
    return names


def calculator_inputs(mechanics: Mechanics, decl: CalculatorDecl, extra: Declarations = EMPTY) -> list[str]:
    """The input keys a declared calculator offers: those it lists, in that order, then every
    other input its tests, ``with:`` values, units and outputs read, in the system's order."""
    names: set[str] = set()
    for step in decl.steps:
        names |= names_read(mechanics.resolve(step.test, extra).decl)
        names |= {n for _, e in step.with_ for n in e.names}
    for expr in (decl.units, *(o.expression for o in decl.outputs)):
        if expr is not None:
            names |= expr.names
    inputs = mechanics.inputs(extra)
    listed = list(decl.inputs)
    return listed + [key for key in inputs if key in names and key not in listed]


@dataclass(frozen=True, slots=True)
class DeclaredCompute:
    """The function of a declared calculator: its inputs (keyword arguments) and ``choices`` ->
    the result, exact (a value: equal declarations compute alike)."""

    mechanics: Mechanics
    decl: CalculatorDecl
    extra: Declarations = EMPTY
    """The additions that declared it (a variant's calculator), else nothing."""

    def __call__(self, *, choices: Any = None, **values: Any) -> CalcResult:
        extra = self.extra if choices is None else declared_additions(choices.additions)
        env: dict[str, Value] = {**self.mechanics.environment(choices, extra), **values}
        outcomes: dict[str, Fraction] = {}
        lines: list[str] = []
        reach = Fraction(1)
        chained = len(self.decl.steps) > 1
        for step in self.decl.steps:
            given = self._given(step, env, extra)
            test = self.mechanics.roll(step.test, choices, **given)
            p = test.p_pass()
            lines += describe_test(self.mechanics, step.test, choices, given)
            following = Fraction(0)
            for result, q in ((step.on_pass, p), (step.on_fail, 1 - p)):
                if result == "next":
                    following += reach * q
                else:
                    outcomes[result] = outcomes.get(result, Fraction(0)) + reach * q
            if chained:
                title = self.mechanics.resolve(step.test, extra).decl.title or step.test
                lines.append(_step_line(title, step, p))
            reach = following
        units = self._units(env)
        values_out: dict[str, Any] = {}
        tables = []
        for out in self.decl.outputs:
            value, table = self._output(out, outcomes, units, env)
            if table is not None:
                tables.append(table)
            else:
                values_out[out.key] = value
                lines.append(_output_line(out, value))
        return CalcResult(values_out, tuple(tables), tuple(lines))

    def _given(self, step: StepDecl, env: Mapping[str, Value], extra: Declarations) -> dict[str, Value]:
        """The values a step gives its test: its ``with:``, and the calculator's inputs."""
        decl = self.mechanics.resolve(step.test, extra).decl
        bound = dict(step.with_)
        out: dict[str, Value] = {k: v for k, v in env.items() if k in self.mechanics.inputs(extra)}
        for arg in decl.given:
            if arg.key in bound:
                out[arg.key] = bound[arg.key].evaluate(env)
            elif arg.key in env:
                out[arg.key] = env[arg.key]
        return out

    def _units(self, env: Mapping[str, Value]) -> int | None:
        if self.decl.units is None:
            return None
        value = self.decl.units.evaluate(env)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_UNITS:
            raise InputError(
                "units",
                f"{self.decl.units.text} gives {value}; expected a whole number from 0 to {MAX_UNITS}",
            )
        return value

    def _output(
        self, out: OutputDecl, outcomes: Mapping[str, Fraction], units: int | None, env: Mapping[str, Value]
    ) -> tuple[Any, Any]:
        if out.kind == "value":
            assert out.expression is not None
            return out.expression.evaluate(env), None
        p = outcomes.get(out.outcome, Fraction(0))
        if out.kind == "p" and not out.bound:
            return p, None
        assert units is not None
        count: Distribution[int] = Distribution.from_die(units @ bernoulli_die(p))
        if out.kind == "mean":
            return units * p, None
        if out.kind == "distribution":
            return None, replace(
                count.table(out.outcome), name=out.key, title=f"{out.label}: of {units} units"
            )
        assert out.expression is not None
        k = out.expression.evaluate(env)
        assert isinstance(k, int | Fraction)
        if out.bound == "at_least":
            return count.p_at_least(math.ceil(k)), None
        if out.bound == "at_most":
            return count.p_at_most(math.floor(k)), None
        return (count.p(k) if isinstance(k, int) else Fraction(0)), None


def _step_line(title: str, step: StepDecl, p: Fraction) -> str:
    def lead(result: str) -> str:
        return "the next test" if result == "next" else result

    return f"{title} passes with {fraction_str(p)} ≈ {percent(float(p))} (→ {lead(step.on_pass)}); a fail → {lead(step.on_fail)}."


def _output_line(out: OutputDecl, value: Any) -> str:
    if isinstance(value, Fraction) and out.kind == "p":
        return f"{out.label} = {fraction_str(value)} ≈ {percent(float(value))}."
    if isinstance(value, Fraction):
        return f"{out.label} = {fraction_str(value)} ≈ {fixed(float(value))}."
    return f"{out.label} = {value}."


@dataclass(frozen=True, slots=True)
class ExplainedCompute:
    """A calculator's function, its explanation followed by what a variant added to the tests
    it rolls (one line per added entry: what it does, to which test, whether it applied)."""

    compute: ComputeFn
    mechanics: Mechanics
    tests: tuple[str, ...]

    def __call__(self, **values: Any) -> CalcResult:
        result = self.compute(**values)
        choices = values.get("choices")
        given = {
            **dict(getattr(choices, "situation", ())),
            **{k: v for k, v in values.items() if k != "choices"},
        }
        lines = added_lines(self.mechanics, self.tests, choices, given)
        if not lines:
            return result
        return CalcResult(result.values, result.tables, (*result.explanation, *lines), result.warnings)


def _output(out: OutputDecl) -> Output:
    if out.kind == "distribution":
        return distribution_output(
            out.key, out.label, Column(out.outcome, f"Units ({out.outcome})"), out.help
        )
    return Output(out.key, out.label, "probability" if out.kind == "p" else "number", out.help)


def build_calculator(
    mechanics: Mechanics, decl: CalculatorDecl, choices: Any, extra: Declarations = EMPTY
) -> Calculator:
    """The calculator a declaration describes, computing with ``choices`` (the system's rule
    choices; ``extra``: the additions of the variant that declares it, if one does)."""
    inputs = mechanics.inputs(extra)
    declared = [
        inputs[key].to_input() if key in inputs else type(choices.readings).input(key)
        for key in calculator_inputs(mechanics, decl, extra)
    ]
    rules = decl.rules or tuple(
        dict.fromkeys(
            rule
            for step in decl.steps
            for rule in (
                *(mechanics.tests(extra)[level].rule for level in mechanics.lineage(step.test, extra)),
                *(e.rule for e in mechanics.resolve(step.test, extra).decl.entries),
            )
            if rule
        )
    )
    return Calculator(
        id=f"{mechanics.system}.{decl.key}",
        title=decl.title,
        system=mechanics.system,
        summary=decl.summary or decl.title,
        inputs=tuple(declared),
        outputs=tuple(_output(o) for o in decl.outputs),
        compute=DeclaredCompute(mechanics, decl, extra),
        rules=tuple(rules),
        examples=tuple(dict(e) for e in decl.examples),
        choices=choices,
        tests=decl.tests,
    )
