"""Sensitivity: which rule moves this answer most?

For one calculator at one set of inputs (under the published rules or a variant),
:func:`sensitivity` moves every rule parameter of the system one step each way — an integer by
one within its bounds, a fraction by a sixth, dice by one die (``2D6`` → ``D6`` and ``3D6``), a
switch to its other value — and every reading of the interpretations register to each of its alternatives, and
records the **exact** change in the chosen output. The moves come sorted by the size of the
change. Parameters and readings that cannot affect the calculator (none of its rules, no change
at any move) are listed apart, with the reason.

Every move is tried, declared or not: a parameter of a rule the calculator does not declare
that still changes the answer is kept among the moves (``declared`` is false), so the table
says what the code does, not only what it declares.

Example:
    >>> found = sensitivity("scrollhammer.break-test", {"ld": "8", "lost_by": "2"}, output="p_pass")
    >>> found.baseline_exact  # Ld 8 − 2 = 6: 15 of the 36 rolls of 2D6
    '5/12'
    >>> [(m.after, m.change_exact) for m in found.moves if m.key == "break_ld_per_point"]
    [('0', '11/36'), ('2', '-1/4')]
    >>> "regroup_move" in {k for _, k, _, _ in found.unaffected}
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from rulesbook.calculators import Calculator
from rulesbook.errors import InputError, shorten
from rulesbook.present import percent, short_fraction
from rulesbook.present.plots import Bar, tornado_figure, value_text
from rulesbook.registry import registry
from rulesbook.results import fraction_str
from rulesbook.variants.labels import (
    default_output,
    numeric_outputs,
    output_label,
    reading_reaches,
    variant_title,
)
from rulesbook.variants.model import resolve_variant, validate_with, variant_calculator
from rulesbook.variants.sharing import variant_provenance
from rulesbook.variants.variant import Variant, VariantLike

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["Move", "Sensitivity", "parameter_steps", "sensitivity"]

type Direction = Literal["lower", "higher", "other"]
_DICE = re.compile(r"^(\d*)([dD]\d+.*)$")
FRACTION_STEP = Fraction(1, 6)
"""One step of a fraction parameter (``1/2`` → ``1/3`` and ``2/3``)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One move of one parameter or reading and what it did to the output."""

    kind: Literal["parameter", "reading"]
    key: str
    label: str
    rule: str
    direction: Direction
    before: str
    after: str
    output: float | None
    exact: str | None
    change: float | None
    change_exact: str | None
    declared: bool = True
    error: str = ""

    def to_json(self) -> dict[str, Any]:
        """Every field, JSON-ready."""
        return {
            "kind": self.kind,
            "key": self.key,
            "label": self.label,
            "rule": self.rule,
            "move": self.direction,
            "from": self.before,
            "to": self.after,
            "output": self.output,
            "exact": self.exact,
            "change": self.change,
            "change_exact": self.change_exact,
            "declared": self.declared,
            "error": self.error,
        }


def parameter_steps(spec: Any, value: Any) -> list[tuple[Direction, str]]:
    """The moves of a parameter from ``value``: one step down and up within its bounds (an
    integer by one, a fraction by a sixth, dice by one die), or the other value of a switch.

    >>> from rulesbook.systems.scrollhammer.choices import ScrollhammerParameters as P
    >>> parameter_steps(P.spec("break_ld_per_point"), 0), parameter_steps(P.spec("fall_back_dice"), P().fall_back_dice)
    ([('higher', '1')], [('lower', 'D6'), ('higher', '3D6')])
    >>> parameter_steps(P.spec("insane_heroism"), True)
    [('other', 'false')]
    >>> from rulesbook.systems.wh40k.choices import Wh40kParameters as W
    >>> parameter_steps(W.spec("below_strength_fraction"), Fraction(1, 2))
    [('lower', '1/3'), ('higher', '2/3')]
    """
    if spec.kind == "bool":
        return [("other", "false" if value else "true")]
    if spec.kind == "fraction":
        low, high = Fraction(spec.minimum or 0), Fraction(1 if spec.maximum is None else spec.maximum)
        moves = [("lower", value - FRACTION_STEP), ("higher", value + FRACTION_STEP)]
        return [(d, spec.format(v)) for d, v in moves if low <= v <= high]  # type: ignore[misc]
    if spec.kind == "int":
        steps: list[tuple[Direction, str]] = []
        if spec.minimum is None or value - 1 >= spec.minimum:
            steps.append(("lower", str(value - 1)))
        if spec.maximum is None or value + 1 <= spec.maximum:
            steps.append(("higher", str(value + 1)))
        return steps
    text = spec.format(value)
    match = _DICE.match(text)
    if match is None:  # a constant: one more or one less
        try:
            number = int(text)
        except ValueError:
            return []
        return [("lower", str(number - 1)), ("higher", str(number + 1))]
    count = int(match[1] or 1)
    out: list[tuple[Direction, str]] = []
    for direction, n in (("lower", count - 1), ("higher", count + 1)):
        if n >= 1:
            candidate = f"{'' if n == 1 else n}{match[2]}"
            try:
                spec.check(candidate)
            except InputError:
                continue
            out.append((direction, candidate))  # type: ignore[arg-type]
    return out


@dataclass(frozen=True)
class Sensitivity:
    """The moves (largest change first), the baseline value, and what cannot affect it."""

    calc: Calculator
    output: str
    inputs: Mapping[str, str]
    variant: Variant | None
    baseline: float
    baseline_exact: str | None
    moves: tuple[Move, ...]
    unaffected: tuple[tuple[str, str, str, str], ...]
    """(kind, key, label, why) of every parameter and reading that cannot change this answer."""

    @property
    def is_probability(self) -> bool:
        """Whether the output is a probability."""
        return any(o.key == self.output and o.kind == "probability" for o in self.calc.outputs)

    def to_json(self) -> dict[str, Any]:
        """The baseline, the moves and what cannot affect the answer."""
        return {
            "calculator": self.calc.id,
            "output": {"key": self.output, "label": output_label(self.calc, self.output)},
            "inputs": dict(self.inputs),
            "variant": None if self.variant is None else self.variant.name,
            "baseline": {"value": self.baseline, "exact": self.baseline_exact},
            "moves": [m.to_json() for m in self.moves],
            "unaffected": [
                {"kind": k, "key": key, "label": lb, "why": why} for k, key, lb, why in self.unaffected
            ],
        }

    def frame(self) -> pd.DataFrame:
        """One row per move (for a CSV), largest change first."""
        import pandas as pd

        table = pd.DataFrame.from_records([m.to_json() for m in self.moves])
        table.attrs = {
            "kind": "sensitivity",
            "calculator": self.calc.id,
            "output": self.output,
            "inputs": dict(self.inputs),
            "variants": []
            if self.variant is None
            else [
                {
                    "name": self.variant.name,
                    "title": self.variant.title,
                    "definition": variant_provenance(self.variant),
                }
            ],
        }
        return table

    def _value(self, value: float | None, exact: str | None, signed: bool = False) -> str:
        if value is None:
            return "—"
        text = value_text(value, percent_scale=self.is_probability, signed=signed)
        if exact is not None:
            shown = exact if not signed or exact.startswith("-") or exact == "0" else f"+{exact}"
            text += f" ({short_fraction(shown)})"
        return text

    def to_text(self) -> str:
        """A table of the moves, largest change first, then what cannot affect the answer."""
        under = f" under {self.variant.title}" if self.variant is not None else ""
        fixed = ", ".join(f"{k}={v}" for k, v in self.inputs.items())
        lines = [
            f"{self.calc.title} [{self.calc.id}]{under}" + (f" at {fixed}" if fixed else ""),
            f"{output_label(self.calc, self.output)}: {self._value(self.baseline, self.baseline_exact)}",
            "",
        ]
        changes = [m.error or self._value(m.change, m.change_exact, signed=True) for m in self.moves]
        width = max([len("change"), *(len(c) for c in changes if len(c) <= 40)])
        lines.append(f"  {'change':<{width}}  move")
        for m, change in zip(self.moves, changes, strict=True):
            note = "" if m.declared else "  (a rule it does not declare)"
            lines.append(f"  {change:<{width}}  {m.label}: {m.before} → {m.after}{note}")
        if self.unaffected:
            lines += ["", "Cannot affect this answer:"]
            lines += [f"  {label} ({kind} {key}): {why}" for kind, key, label, why in self.unaffected]
        return "\n".join(lines)

    def figure(self, top: int = 20) -> Figure:
        """A tornado chart of the ``top`` largest changes."""
        shown = [m for m in self.moves if m.change is not None][:top]
        bars = [
            Bar(
                f"{shorten(m.label, 60)}: {m.before} → {m.after}",
                m.direction,
                m.change or 0.0,
                value_text(m.change, percent_scale=self.is_probability, signed=True),
            )
            for m in shown
        ]
        warnings = []
        rest = len([m for m in self.moves if m.change is not None]) - len(shown)
        if rest > 0:
            warnings.append(f"{rest} more moves with smaller changes are in the table")
        if shown and all(m.change == 0 for m in shown):
            warnings.append("no move changes this answer")
        base = percent(self.baseline) if self.is_probability else f"{self.baseline:g}"
        return tornado_figure(
            bars,
            output_label=output_label(self.calc, self.output),
            baseline_text=f"{base} under {variant_title(self.variant)}",
            title=f"{self.calc.title}: what moves {output_label(self.calc, self.output)}",
            percent_scale=self.is_probability,
            warnings=warnings,
        )


def _number(values: Mapping[str, Any], key: str) -> tuple[float | None, Fraction | None, str | None]:
    exact = values.get(f"{key}_exact")
    value = values.get(key)
    if isinstance(exact, str):
        return float(Fraction(exact)), Fraction(exact), exact
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None, None, None
    if isinstance(value, int):
        return float(value), Fraction(value), str(value)
    return value, None, None


@dataclass(frozen=True, slots=True)
class _Trial:
    """One parameter or reading to move: what it is, its value now, the values to try, and how
    to answer with one of them."""

    kind: Literal["parameter", "reading"]
    name: str
    label: str
    rule: str
    declared: bool
    before: str
    steps: list[tuple[Direction, str]]
    attempt: Callable[[str], Mapping[str, Any]]


_Skipped = tuple[str, str, str, str]
"""A parameter or reading left alone: kind, key, label and why."""


def _parameter_trials(
    calculator: Calculator, start: Any, given: Mapping[str, Any], run: Callable[..., Mapping[str, Any]]
) -> list[_Trial | _Skipped]:
    """Every rule parameter to move one step each way, or why it is left alone (an input given
    here decides it), in the order the system declares them."""
    trials: list[_Trial | _Skipped] = []
    rules, inputs = set(calculator.rules), {i.key for i in calculator.inputs}
    for spec in type(start.parameters).specs():
        value = getattr(start.parameters, spec.key)
        if spec.key in given:
            trials.append(("parameter", spec.key, spec.label, "given as an input here, so the input decides"))
            continue

        def attempt(after: str, k: str = spec.key) -> Mapping[str, Any]:
            return run(parameters={k: after})

        trials.append(
            _Trial(
                "parameter",
                spec.key,
                spec.label,
                spec.rule,
                spec.rule in rules or spec.key in inputs,
                spec.format(value),
                parameter_steps(spec, value),
                attempt,
            )
        )
    return trials


def _reading_trials(
    calculator: Calculator, start: Any, given: Mapping[str, Any], run: Callable[..., Mapping[str, Any]]
) -> list[_Trial | _Skipped]:
    """Every reading to switch to each of its other options (an input's value when the reading
    is also an input given here), or why it is left alone (inert), in the declared order."""
    trials: list[_Trial | _Skipped] = []
    for rspec in type(start.readings).specs():
        label = f"reading {rspec.interpretation.rsplit('.', 1)[-1]}"
        if rspec.inert:
            trials.append(("reading", rspec.key, label, f"inert: {rspec.inert}"))
            continue
        if rspec.key in given:
            current = str(calculator.input(rspec.key).parse(str(given[rspec.key])))

            def attempt(after: str, k: str = rspec.key) -> Mapping[str, Any]:
                return run(values={**given, k: after})
        else:
            current = getattr(start.readings, rspec.key)

            def attempt(after: str, k: str = rspec.key) -> Mapping[str, Any]:
                return run(readings={k: after})

        steps: list[tuple[Direction, str]] = [("other", o) for o in rspec.options if o != current]
        declared = reading_reaches(calculator, rspec.key)
        trials.append(
            _Trial("reading", rspec.key, label, rspec.interpretation, declared, current, steps, attempt)
        )
    return trials


def _moves(trial: _Trial, key: str, baseline: float, base_exact: Fraction | None) -> list[Move]:
    """The answer at each step of ``trial``: its value, its change from ``baseline``, or the
    one-line error that step met."""
    found = []
    for direction, after in trial.steps:
        try:
            value, exact, text = _number(trial.attempt(after), key)
            error = "" if value is not None else f"{key}: no value"
        except InputError as exc:
            value, exact, text, error = None, None, None, str(exc)
        change = None if value is None else value - baseline
        change_exact = None
        if exact is not None and base_exact is not None:
            change_exact = fraction_str(exact - base_exact)
        found.append(
            Move(
                trial.kind,
                trial.name,
                trial.label,
                trial.rule,
                direction,
                trial.before,
                after,
                value,
                text,
                change,
                change_exact,
                trial.declared,
                error,
            )
        )
    return found


def _output_key(calculator: Calculator, output: str | None) -> str:
    """The numeric output to follow: ``output``, or the calculator's first probability or number."""
    outputs = numeric_outputs(calculator)
    key = output or default_output(calculator)
    if key not in {o.key for o in outputs}:
        allowed = ", ".join(o.key for o in outputs) or "none"
        raise InputError("output", f"expected a numeric output of {calculator.id}; allowed: {allowed}")
    return key


def sensitivity(
    calc: Calculator | str,
    inputs: Mapping[str, Any] | None = None,
    *,
    output: str | None = None,
    variant: VariantLike | None = None,
) -> Sensitivity:
    """Move every parameter and reading of ``calc``'s system one step (see the module help) at
    ``inputs`` (text or values), under ``variant``, and record the change in ``output`` (default:
    the first probability or number)."""
    calculator = registry().calculator(calc) if isinstance(calc, str) else calc
    base: Any = calculator.choices
    if base is None:
        raise InputError("calculator", f"{calculator.id} declares no rule choices, so nothing can be moved")
    key = _output_key(calculator, output)
    given = {str(k): v for k, v in (inputs or {}).items()}
    for name in given:
        calculator.input(name)
    resolved = None if variant is None else resolve_variant(variant)
    runner = calculator if resolved is None else variant_calculator(calculator, resolved)
    start = base if resolved is None else resolved.apply(base)

    def run(
        parameters: Mapping[str, Any] | None = None,
        readings: Mapping[str, Any] | None = None,
        values: Mapping[str, Any] = given,
    ) -> Mapping[str, Any]:
        checked, choices = validate_with(calculator, resolved, values, parameters, readings)
        return runner.run_validated(checked, choices=choices).values

    baseline, base_exact_fraction, base_exact = _number(run(), key)
    if baseline is None:
        raise InputError("output", f"{key} has no value at these inputs")
    moves: list[Move] = []
    unaffected: list[_Skipped] = []
    for trial in (
        *_parameter_trials(calculator, start, given, run),
        *_reading_trials(calculator, start, given, run),
    ):
        if not isinstance(trial, _Trial):
            unaffected.append(trial)
            continue
        found = _moves(trial, key, baseline, base_exact_fraction)
        if not trial.declared and all(m.change == 0 for m in found):
            whose = "its rule" if trial.kind == "parameter" else "its register entry"
            why = f"{whose} {trial.rule} is not one of this calculator's, and no move changes the answer"
            unaffected.append((trial.kind, trial.name, trial.label, why))
        else:
            moves.extend(found)
    moves.sort(key=lambda m: (m.change is None, -abs(m.change or 0.0), m.label, m.direction))
    return Sensitivity(
        calculator,
        key,
        {k: str(v) for k, v in given.items()},
        resolved,
        baseline,
        base_exact,
        tuple(moves),
        tuple(unaffected),
    )
