"""Calculators and whole documents of the rules language, as immutable values.

A calculator declaration (:class:`CalculatorDecl`) names one test or a chain of steps
(:class:`StepDecl`), how many units take it, and its outputs (:class:`OutputDecl`);
:func:`build_document` builds every section of a document (a system's ``mechanics.yaml``, or the
language sections of a variant's ``add:``, each of whose entries is an :class:`Added`) from data
the schema accepted. The declarations of inputs, parameters and tests are in
:mod:`rulesbook.language.declarations`.

Example:
    >>> doc = {"inputs": {"wounded": {"kind": "boolean", "default": False, "label": "Wounded"}},
    ...        "tests": {"nerve": {"dice": "2D6", "pass": "at-most", "target": "7",
    ...                            "modifiers": {"hurt": {"value": -1, "when": "wounded"}}}}}
    >>> decls = build_document(doc)
    >>> decls.inputs[0].key, decls.tests[0].modifiers[0].when.text
    ('wounded', 'wounded')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rulesbook.language.declarations import (
    InputDecl,
    LanguageError,
    ParameterDecl,
    Path,
    TestDecl,
    build_input,
    build_parameter,
    build_test,
    expression,
    optional_expression,
    text_field,
)
from rulesbook.language.expressions import Expression
from rulesbook.language.words import entry_text

__all__ = [
    "SECTIONS",
    "Added",
    "CalculatorDecl",
    "Declarations",
    "OutputDecl",
    "StepDecl",
    "build_added",
    "build_calculator",
    "build_document",
    "build_output",
    "build_section",
]

SECTIONS = ("parameters", "inputs", "tests", "calculators")
"""The sections of a document of the language, in the order they are read."""


# -- calculators ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StepDecl:
    """One step of a chain: a test (given ``with`` values for its arguments), and what its pass
    and its fail lead to: an outcome, or ``next`` (roll the next step)."""

    test: str
    with_: tuple[tuple[str, Expression], ...] = ()
    on_pass: str = "pass"
    on_fail: str = "next"


@dataclass(frozen=True, slots=True)
class OutputDecl:
    """A named output: the probability of an outcome (``p``; with ``units``, of a count of units
    ending in it: ``at_least``, ``at_most`` or ``exactly``), the mean count, the distribution of
    the count (a table), or a number computed from the inputs (``value``)."""

    key: str
    label: str
    kind: Literal["p", "mean", "distribution", "value"]
    outcome: str = ""
    bound: Literal["", "at_least", "at_most", "exactly"] = ""
    expression: Expression | None = None
    help: str = ""


def build_output(key: str, raw: Mapping[str, Any], path: Path) -> OutputDecl:
    """One output declaration (the schema gave exactly one of p, mean, distribution, value)."""
    bounds = [b for b in ("at_least", "at_most", "exactly") if b in raw]
    label, help_ = text_field(raw, "label"), text_field(raw, "help")
    if "p" not in raw and bounds:
        raise LanguageError((*path, bounds[0]), f"{bounds[0]} goes with p (the probability of a count)")
    if len(bounds) > 1:
        raise LanguageError((*path, bounds[1]), "give one of at_least, at_most or exactly")
    if "p" in raw:
        bound = bounds[0] if bounds else ""
        expr = expression(raw[bound], (*path, bound)) if bound else None
        return OutputDecl(key, label, "p", raw["p"], bound, expr, help_)  # type: ignore[arg-type]
    if "value" in raw:
        return OutputDecl(
            key, label, "value", expression=expression(raw["value"], (*path, "value")), help=help_
        )
    kind = "mean" if "mean" in raw else "distribution"
    return OutputDecl(key, label, kind, raw[kind], help=help_)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class CalculatorDecl:
    """A calculator as declared: one test, or a chain of steps; optionally taken by ``units``
    units each on its own (then outputs may count them); outputs; worked examples."""

    key: str
    title: str
    summary: str = ""
    rules: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    steps: tuple[StepDecl, ...] = ()
    units: Expression | None = None
    outputs: tuple[OutputDecl, ...] = ()
    examples: tuple[tuple[tuple[str, str], ...], ...] = ()
    added: str = ""
    chained: bool = False
    """Written as a ``chain:`` (its steps' problems are named ``chain[i]``), not as ``test:``."""

    @property
    def tests(self) -> tuple[str, ...]:
        """The tests its steps roll, in order, once each."""
        return tuple(dict.fromkeys(s.test for s in self.steps))


def _example_text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def build_calculator(key: str, raw: Mapping[str, Any], path: Path) -> CalculatorDecl:
    """One calculator declaration (``test: KEY`` is a chain of one step)."""
    if "test" in raw:
        steps: tuple[StepDecl, ...] = (StepDecl(raw["test"], on_fail="fail"),)
    else:
        steps = ()
        last = len(raw["chain"]) - 1
        for i, step in enumerate(raw["chain"]):
            where = (*path, "chain", i)
            on_fail = step.get("fail", "next" if i < last else "fail")
            on_pass = step.get("pass", "pass")
            if i == last and "next" in (on_pass, on_fail):
                raise LanguageError(
                    (*where, "fail" if on_fail == "next" else "pass"),
                    "the last step has no next step: name an outcome",
                )
            if on_pass == "next" and on_fail == "next":
                raise LanguageError(where, "a step that leads to the next step either way decides nothing")
            bindings = tuple(
                (k, expression(v, (*where, "with", k))) for k, v in (step.get("with") or {}).items()
            )
            steps = (*steps, StepDecl(step["test"], bindings, on_pass, on_fail))
    outputs = tuple(build_output(k, v, (*path, "outputs", k)) for k, v in raw["outputs"].items())
    examples = tuple(
        tuple((k, _example_text(v)) for k, v in example.items()) for example in raw.get("examples") or ()
    )
    return CalculatorDecl(
        key=key,
        title=text_field(raw, "title"),
        summary=text_field(raw, "summary"),
        rules=tuple(raw.get("rules") or ()),
        inputs=tuple(raw.get("inputs") or ()),
        steps=steps,
        units=optional_expression(raw, "units", path),
        outputs=outputs,
        examples=examples,
        chained="chain" in raw,
    )


# -- a document ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Declarations:
    """Everything one document declares, section by section, in the order written (its hash
    computed once: it keys the caches of resolved and rolled tests)."""

    parameters: tuple[ParameterDecl, ...] = ()
    inputs: tuple[InputDecl, ...] = ()
    tests: tuple[TestDecl, ...] = ()
    calculators: tuple[CalculatorDecl, ...] = ()
    added: str = field(default="", compare=True)
    """The variant the declarations come from (``""``: the system's own)."""
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        whole = (self.parameters, self.inputs, self.tests, self.calculators, self.added)
        object.__setattr__(self, "_hash", hash(whole))

    def __hash__(self) -> int:
        return self._hash

    def __bool__(self) -> bool:
        return bool(self.parameters or self.inputs or self.tests or self.calculators)


def build_section(section: str, raw: Mapping[str, Any] | None, path: Path = ()) -> tuple[Any, ...]:
    """The declarations of one section (``path`` leads to it: ``("add", "tests")``)."""
    builders: dict[str, Callable[[str, Any, Path], Any]] = {
        "parameters": build_parameter,
        "inputs": build_input,
        "tests": build_test,
        "calculators": build_calculator,
    }
    build = builders[section]
    return tuple(build(key, value, (*path, key)) for key, value in (raw or {}).items())


def build_document(raw: Mapping[str, Any], path: Path = ()) -> Declarations:
    """Every section of a document the schema accepted (``path`` leads to it in its file)."""
    parameters, inputs, tests, calculators = (build_section(s, raw.get(s), (*path, s)) for s in SECTIONS)
    return Declarations(parameters, inputs, tests, calculators)


# -- what a variant adds ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Added:
    """One declaration of a variant's ``add:`` (an input, a test or the entries it adds to a test,
    a calculator), with the mapping it was written as (JSON text: an immutable, hashable copy)."""

    decl: InputDecl | TestDecl | CalculatorDecl
    raw: str

    def to_mapping(self) -> Any:
        """The mapping as the variant wrote it."""
        return json.loads(self.raw)

    def describe(self) -> str:
        """In words, for ``rulesbook variants`` and a comparison's notes.

        >>> Added(InputDecl("has_standard", "boolean", "Carries a standard", default=False), "{}").describe()
        'a yes/no input, default no: Carries a standard'
        """
        decl = self.decl
        if isinstance(decl, InputDecl):
            default = (
                {True: "yes", False: "no"}.get(decl.default, decl.default)
                if decl.kind == "boolean"
                else decl.default
            )
            kind = {
                "boolean": "a yes/no input",
                "integer": f"an input from {decl.minimum} to {decl.maximum}",
                "choice": f"an input ({', '.join(decl.choices)})",
                "dice": "a dice input",
            }[decl.kind]
            return f"{kind}, default {default}: {decl.label or decl.key}"
        if isinstance(decl, CalculatorDecl):
            return f"a calculator: {decl.title}"
        if decl.entries_only:
            return "; ".join(
                entry_text(e) + (f", while {e.when.text}" if e.when else "") for e in decl.entries
            )
        return f"a test: {decl.title or decl.key}"


def build_added(section: str, key: str, raw: Any, path: Path) -> Added:
    """One entry of a variant's ``add:`` language section, built (and marked as added)."""
    decl = build_section(section, {key: raw}, path[:-1])[0]
    return Added(decl, json.dumps(raw, sort_keys=True, ensure_ascii=False))
