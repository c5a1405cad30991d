"""Goal seek: the smallest (or largest) value of one input or rule parameter that meets a target.

"Which Leadership gives at least 50 %?" — :func:`solve` walks the values of one key (an input,
or a rule parameter as ``parameter.KEY``) from the smallest (or, with ``largest=True``, from the
largest) and stops at the first whose output meets the condition, comparing **exact** values
(the output's exact fraction against the target as a fraction: ``0.5``, ``1/2`` and ``50%`` are
the same target). The answer holds the value, the output there and at the neighbouring values
on either side. When no value meets it, that is the answer (``found`` is ``None``), not an error.

The walk makes no assumption about the output growing with the key: it is the smallest value
that meets the condition, whatever the curve (a test compares it with brute force).

Example:
    >>> found = solve("scrollhammer.morale-check", "p_pass>=0.5", ("ld", "2..12"), {"modifier": "-1"})
    >>> found.value, found.exact, [(n.value, n.exact) for n in found.neighbours]
    ('8', '7/12', [('7', '5/12'), ('9', '13/18')])
    >>> solve("scrollhammer.morale-check", "p_pass>1", ("ld", "2..12")).found is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from rulesbook.calculators import Calculator
from rulesbook.errors import InputError, did_you_mean, quote
from rulesbook.present import percent, short_fraction
from rulesbook.registry import registry
from rulesbook.results import fraction_str
from rulesbook.sweeps.plan import PARAMETER_PREFIX, axis_values, point_inputs
from rulesbook.variants import Variant, VariantLike, resolve_variant, variant_calculator
from rulesbook.variants.labels import key_label, numeric_outputs, output_label, reach_warning

__all__ = ["Condition", "Point", "Solution", "parse_condition", "solve"]

type Op = Literal[">=", "<=", ">", "<"]
_CONDITION = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|≥|≤|>|<)\s*(\S.*?)\s*$")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)(/\d+)?%?$", re.ASCII)


@dataclass(frozen=True, slots=True)
class Condition:
    """``output op target``; ``target`` exact (a percentage divided by 100)."""

    output: str
    op: Op
    target: Fraction
    text: str

    def meets(self, value: Fraction) -> bool:
        """Whether ``value`` meets the condition.

        >>> parse_condition(registry().calculator("wh40k.battle-shock"), "p_pass >= 50%").meets(Fraction(1, 2))
        True
        """
        if self.op == ">=":
            return value >= self.target
        if self.op == "<=":
            return value <= self.target
        return value > self.target if self.op == ">" else value < self.target


def parse_condition(calc: Calculator, text: str) -> Condition:
    """``OUTPUT>=TARGET`` (or ``<=``, ``>``, ``<``) for a numeric output of ``calc``; the target
    a decimal, a fraction or a percentage.

    >>> parse_condition(registry().calculator("wh40k.battle-shock"), "p_pass>=2/3").target
    Fraction(2, 3)
    >>> parse_condition(registry().calculator("wh40k.battle-shock"), "p_passs>=0.5")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: condition: unknown output 'p_passs'; did you mean p_pass? allowed: p_pass, p_battle_shocked
    """
    match = _CONDITION.match(text)
    if not match:
        raise InputError(
            "condition", f"expected OUTPUT>=TARGET (or <=, >, <) such as 'p_pass>=0.5', got {quote(text)}"
        )
    key, op, raw = match[1], match[2].replace("≥", ">=").replace("≤", "<="), match[3]
    outputs = numeric_outputs(calc)
    keys = [o.key for o in outputs]
    if key not in keys:
        allowed = ", ".join(keys) or "none"
        hint = did_you_mean(key, keys) or ";"
        raise InputError("condition", f"unknown output {quote(key)}{hint} allowed: {allowed}")
    if len(raw) > 40 or not _NUMBER.match(raw):
        raise InputError(
            "condition", f"expected a number, a fraction or a percentage as the target, got {quote(raw)}"
        )
    target = Fraction(raw.rstrip("%")) / (100 if raw.endswith("%") else 1)
    kind = next(o.kind for o in outputs if o.key == key)
    if kind == "probability" and not 0 <= target <= 1:
        raise InputError(
            "condition", f"{key} is a probability: a target from 0 to 1 (or 0% to 100%), got {raw}"
        )
    return Condition(key, op, target, f"{key}{op}{raw}")  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Point:
    """The output at one value of the key: its float, its exact value (``None`` when the answer
    is not exact), whether it meets the condition, or the one-line error of inputs that do not
    go together there."""

    value: str
    output: float | None
    exact: str | None
    meets: bool
    error: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"value", "output", "exact", "meets"}`` (and ``"error"`` when there is one)."""
        out = {
            "value": _jsonable(self.value),
            "output": self.output,
            "exact": self.exact,
            "meets": self.meets,
        }
        return out | ({"error": self.error} if self.error else {})


@dataclass(frozen=True)
class Solution:
    """What :func:`solve` found: the point (``None`` when no value meets the condition) and its
    neighbours (the values just before and after it in the walk's range)."""

    calc: Calculator
    condition: Condition
    key: str
    values: tuple[str, ...]
    largest: bool
    inputs: Mapping[str, str]
    variant: Variant | None
    found: Point | None
    neighbours: tuple[Point, ...]
    tried: int

    @property
    def value(self) -> str | None:
        """The value found (text, as written on the command line), or ``None``."""
        return None if self.found is None else self.found.value

    @property
    def exact(self) -> str | None:
        """The exact output at the value found."""
        return None if self.found is None else self.found.exact

    def range_text(self) -> str:
        """The values walked, as written: ``2..12`` or ``2D6, 3D6``."""
        ints = [_int(v) for v in self.values]
        if all(i is not None for i in ints) and ints == list(range(ints[0] or 0, (ints[-1] or 0) + 1)):
            return f"{self.values[0]}..{self.values[-1]}"
        return ", ".join(self.values)

    def to_json(self) -> dict[str, Any]:
        """``{"key", "value", "output", "exact", "neighbours", ...}``: ``value``/``output``/
        ``exact`` are ``null`` when no value meets the condition."""
        found = self.found
        return {
            "calculator": self.calc.id,
            "condition": self.condition.text,
            "key": self.key,
            "range": self.range_text(),
            "largest": self.largest,
            "inputs": dict(self.inputs),
            "variant": None if self.variant is None else self.variant.name,
            "value": None if found is None else _jsonable(found.value),
            "output": None if found is None else found.output,
            "exact": None if found is None else found.exact,
            "neighbours": [n.to_json() for n in self.neighbours],
            "message": self.message(),
        }

    def message(self) -> str:
        """The answer in one sentence."""
        which = "largest" if self.largest else "smallest"
        label = key_label(self.calc, self.key)
        if self.found is None:
            return f"no value of {label} in {self.range_text()} meets {self.condition.text}"
        return f"the {which} {label} that meets {self.condition.text} is {self.found.value}"

    def to_text(self) -> str:
        """The answer, then the output at the value found and at its neighbours."""
        head = f"{self.calc.title} [{self.calc.id}]"
        if self.variant is not None:
            head += f" under {self.variant.title}"
        lines = [head, self.message()[0].upper() + self.message()[1:] + "."]
        points = sorted(
            [*self.neighbours, *([self.found] if self.found else [])],
            key=lambda p: self.values.index(p.value),
        )
        out = output_label(self.calc, self.condition.output)
        for p in points:
            mark = "meets" if p.meets else "does not meet"
            here = "  ←" if self.found is not None and p.value == self.found.value else ""
            lines.append(f"  {self.key}={p.value}: {out} {_shown(p)} ({mark}){here}")
        if warning := reach_warning(self.calc, self.variant):
            lines.append(f"  warning: {warning}")
        return "\n".join(lines)


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _jsonable(text: str) -> Any:
    number = _int(text)
    return text if number is None else number


def _shown(p: Point) -> str:
    if p.error:
        return f"— ({p.error})"
    if p.output is None:
        return "—"
    if p.exact is not None:
        return f"{percent(p.output)} ({short_fraction(p.exact)})"
    return f"{p.output:g}"


def _exact_of(values: Mapping[str, Any], key: str) -> tuple[float | None, Fraction | None, str | None]:
    """The output's float, its exact value (for comparing) and its exact text (``None`` unless exact)."""
    value = values.get(key)
    exact = values.get(f"{key}_exact")
    if isinstance(exact, str):
        return float(Fraction(exact)), Fraction(exact), exact
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        return None, None, None
    if isinstance(value, int | Fraction):
        return float(value), Fraction(value), fraction_str(Fraction(value))
    return value, Fraction(value), None  # a float: compared as it is, not shown as exact


def _point(
    calc: Calculator, variant: Variant | None, values: Mapping[str, str], key: str, cond: Condition
) -> Point:
    try:
        checked, choices = point_inputs(calc, variant, values)
        runner = calc if variant is None else variant_calculator(calc, variant)
        result = runner.run_validated(checked, choices=choices)
    except InputError as exc:
        return Point(values[key], None, None, False, str(exc))
    number, exact, text = _exact_of(result.values, cond.output)
    if exact is None:
        return Point(values[key], None, None, False, f"{cond.output}: no value here")
    return Point(values[key], number, text, cond.meets(exact))


def solve(
    calc: Calculator | str,
    condition: str | Condition,
    over: tuple[str, Any],
    inputs: Mapping[str, Any] | None = None,
    *,
    variant: VariantLike | None = None,
    largest: bool = False,
) -> Solution:
    """The smallest (``largest=True``: largest) value of ``over = (key, values)`` whose output
    meets ``condition`` (``"p_pass>=0.5"``), the other ``inputs`` fixed, under ``variant``.

    ``values`` as in sweeps: ``"2..12"``, ``"2D6,3D6"``, a range or a list; ``key`` an input or
    ``parameter.KEY``.
    """
    calculator = registry().calculator(calc) if isinstance(calc, str) else calc
    cond = condition if isinstance(condition, Condition) else parse_condition(calculator, condition)
    key = over[0].strip()
    values = axis_values(calculator, key, over[1])
    fixed = {
        str(k): v if isinstance(v, str) else calculator.input(str(k)).format(v)
        for k, v in (inputs or {}).items()
    }
    if key in fixed:
        raise InputError(key, "given as an input and as the key to solve over; give it once")
    for name in fixed:
        if name.startswith(PARAMETER_PREFIX):
            raise InputError(name, "fix a rule parameter with a variant; only the key solved over may be one")
        calculator.input(name)
    resolved = None if variant is None else resolve_variant(variant)
    if resolved is not None:
        variant_calculator(calculator, resolved)
    order = range(len(values) - 1, -1, -1) if largest else range(len(values))
    cache: dict[int, Point] = {}

    def at(i: int) -> Point:
        if i not in cache:
            cache[i] = _point(calculator, resolved, {**fixed, key: values[i]}, key, cond)
        return cache[i]

    found_at = next((i for i in order if at(i).meets), None)
    tried = len(cache)
    if found_at is None:
        return Solution(calculator, cond, key, values, largest, fixed, resolved, None, (), tried)
    around = tuple(at(i) for i in (found_at - 1, found_at + 1) if 0 <= i < len(values))
    return Solution(calculator, cond, key, values, largest, fixed, resolved, at(found_at), around, tried)
