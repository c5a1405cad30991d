"""A sweep's grid: its axes (inputs and rule parameters), its variants, and one row per point.

Axes are written as on the command line: ``ld=5..10`` (inclusive integer range),
``fall_back_dice=2D6,3D6`` (alternatives), ``modifier=-1`` (fixed); inputs that are themselves
comma lists take alternatives separated by ``|`` (``lds=7,8|8,9``). A rule parameter is an axis
as ``parameter.KEY=...`` (``parameter.points_per_morale=30..60``). Every value is checked before
any work starts.

Example:
    >>> plan = plan_sweep("scrollhammer.panic-test", {"ld": "2..12", "modifier": "0,-1,-2"})
    >>> plan.size, [a.key for a in plan.axes]
    (33, ['ld', 'modifier'])
    >>> evaluate(plan.calc_id, [next(plan.points())])[0][1]["p_pass_exact"]
    '1/36'
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesbook.calculators import Calculator
from rulesbook.errors import InputError, did_you_mean, quote
from rulesbook.registry import registry
from rulesbook.variants import (
    BASELINE,
    Variant,
    VariantLike,
    resolve_variant,
    validate_with,
    variant_calculator,
)
from rulesbook.variants.comparison import Lacking, lacking_entries, run_lacking
from rulesbook.variants.labels import reaches
from rulesbook.variants.model import input_taker
from rulesbook.variants.sharing import variant_provenance

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "MAX_VALUES",
    "PARAMETER_PREFIX",
    "Axis",
    "SweepPlan",
    "axis_values",
    "evaluate",
    "frame",
    "parameter_spec",
    "parse_axes",
    "plan_points",
    "plan_sweep",
    "point_inputs",
]

PARAMETER_PREFIX = "parameter."
"""An axis over a rule parameter is written ``parameter.KEY``."""
MAX_VALUES = 100_000
"""Most values one axis may have (checked before a range is written out)."""
_RANGE = re.compile(r"^\s*([+-]?\d{1,9})\s*\.\.\s*([+-]?\d{1,9})\s*$", re.ASCII)


@dataclass(frozen=True, slots=True)
class Axis:
    """One swept dimension: an input key or ``parameter.KEY``, and its values (text forms)."""

    key: str
    values: tuple[str, ...]

    @property
    def is_parameter(self) -> bool:
        """True for a rule parameter, False for a calculator input."""
        return self.key.startswith(PARAMETER_PREFIX)


@dataclass(frozen=True)
class SweepPlan:
    """A checked grid: the calculator, the axes (inputs and parameters) and the variants.

    ``listed`` holds the points of a plan that is a list rather than a grid (each point's values
    in the axes' order, :func:`plan_points`): then the axes name the keys (with every value they
    take) and the points are those listed, × the variants.
    """

    calc_id: str
    axes: tuple[Axis, ...]
    variants: tuple[Variant | None, ...] = (None,)
    listed: tuple[tuple[str, ...], ...] = ()

    @property
    def per_variant(self) -> int:
        """Points under one variant (the grid's, or the list's)."""
        return len(self.listed) if self.listed else math.prod(len(a.values) for a in self.axes)

    @property
    def size(self) -> int:
        """Number of points (variants × every axis, or × the listed points)."""
        return len(self.variants) * self.per_variant

    def points(self) -> Iterator[tuple[int, Variant | None, dict[str, str]]]:
        """(index, variant, {axis key: text value}) for every point, in table order."""
        grids = self.listed or tuple(itertools.product(*(a.values for a in self.axes)))
        combos = itertools.product(self.variants, grids)
        for i, (variant, values) in enumerate(combos):
            yield i, variant, dict(zip((a.key for a in self.axes), values, strict=True))

    def lacking(self) -> dict[str, dict[str, dict[str, tuple[str, ...]]]]:
        """Per column (``baseline`` or a variant's name): the entries other swept variants add
        (``add:``) that its rules lack (:func:`rulesbook.variants.comparison.lacking_entries`)."""
        calc = registry().calculator(self.calc_id)
        swept = [v for v in self.variants if v is not None]
        return {BASELINE if v is None else v.name: lacking_entries(calc, swept, v) for v in self.variants}

    def point(self, index: int) -> tuple[int, Variant | None, dict[str, str]]:
        """The point at ``index`` (table order) without walking the grid.

        >>> plan_sweep("scrollhammer.panic-test", {"ld": "2..12", "modifier": "0,-1"}).point(3)[2]
        {'ld': '3', 'modifier': '-1'}
        """
        variant, rest = divmod(index, self.per_variant)
        if self.listed:
            return (
                index,
                self.variants[variant],
                dict(zip((a.key for a in self.axes), self.listed[rest], strict=True)),
            )
        values: dict[str, str] = {}
        for axis in reversed(self.axes):
            rest, i = divmod(rest, len(axis.values))
            values[axis.key] = axis.values[i]
        return index, self.variants[variant], {a.key: values[a.key] for a in self.axes}

    def fingerprint(self) -> str:
        """A digest of everything that decides the table (checks a checkpoint belongs to it)."""
        data = [
            self.calc_id,
            [[a.key, list(a.values)] for a in self.axes],
            [
                None if v is None else [v.name, v.changes(), [o.source for o in v.rules]]
                for v in self.variants
            ],
        ]
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def parse_axes(words: Sequence[str]) -> dict[str, str]:
    """The command line's ``key=values`` words as a grid (one line naming a bad word).

    >>> parse_axes(["ld=5..10", "parameter.break_ld_per_point=1,2"])
    {'ld': '5..10', 'parameter.break_ld_per_point': '1,2'}
    """
    grid: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key.strip():
            raise InputError("axes", f"expected key=a..b, key=x,y or key=value, got {quote(word)}")
        if key.strip() in grid:
            raise InputError(key.strip(), "given twice")
        grid[key.strip()] = value
    return grid


def axis_values(calc: Calculator, key: str, text: Any) -> tuple[str, ...]:
    """The text values of an axis, each checked on its own (so typos fail before any work).

    >>> axis_values(registry().calculator("scrollhammer.panic-test"), "ld", "6..8")
    ('6', '7', '8')
    """
    if isinstance(text, range):
        words = [str(v) for v in text]
    elif isinstance(text, list | tuple):
        words = [v if isinstance(v, str) else _text_of(calc, key, v) for v in text]
    else:
        raw = str(text) if not isinstance(text, str) else text
        match = _RANGE.match(raw)
        if match:
            lo, hi = int(match[1]), int(match[2])
            if hi < lo:
                raise InputError(key, f"empty range {quote(raw)}; write low..high")
            if hi - lo >= MAX_VALUES:
                raise InputError(key, f"a range of at most {MAX_VALUES:,} values, got {hi - lo + 1:,}")
            words = [str(v) for v in range(lo, hi + 1)]
        else:
            sep = "|" if _is_list_input(calc, key) else ","
            words = [w.strip() for w in raw.split(sep)] if sep in raw else [raw.strip()]
    if not words:
        raise InputError(key, "no values to sweep")
    if len(words) > MAX_VALUES:
        raise InputError(key, f"at most {MAX_VALUES:,} values, got {len(words):,}")
    if len(set(words)) != len(words):
        raise InputError(key, "a value is given twice")
    for word in words:
        _check_value(calc, key, word)
    return tuple(words)


def _is_list_input(calc: Calculator, key: str) -> bool:
    if key.startswith(PARAMETER_PREFIX):
        return False
    kind = calc.input(key).kind
    return kind in ("int-list", "word-list") or getattr(calc.input(key), "inner_kind", "") in ("int-list",)


def _text_of(calc: Calculator, key: str, value: Any) -> str:
    if key.startswith(PARAMETER_PREFIX):
        return str(parameter_spec(calc, key).format(value))
    return calc.input(key).format(value)


def parameter_spec(calc: Calculator, key: str) -> Any:
    """The declaration of rule parameter ``key`` (``parameter.KEY`` or ``KEY``) of ``calc``'s system."""
    if calc.choices is None:
        raise InputError(key, f"{calc.id} declares no rule parameters")
    choices: Any = calc.choices
    name = key.removeprefix(PARAMETER_PREFIX)
    try:
        return type(choices.parameters).spec(name)
    except InputError as exc:
        hint = did_you_mean(name, [s.key for s in type(choices.parameters).specs()])
        head, _, allowed = exc.message.partition("; allowed:")
        raise InputError(key, f"{head}{hint} allowed:{allowed}" if hint else exc.message) from None


def _plain(value: Any, text: str) -> Any:
    """A cell: ints, floats, booleans and text as they are; anything else (dice, lists) as text."""
    return value if isinstance(value, int | float | str) or value is None else text


def _check_value(calc: Calculator, key: str, word: str) -> None:
    if key.startswith(PARAMETER_PREFIX):
        spec = parameter_spec(calc, key)
        try:
            spec.check(word)
        except InputError as exc:
            raise InputError(key, exc.message) from None
    else:
        calc.input(key).parse(word)


def plan_sweep(
    calc: Calculator | str,
    grid: Mapping[str, Any],
    variants: Sequence[VariantLike] = (),
    *,
    baseline: bool = True,
) -> SweepPlan:
    """Check a grid (``{key: "a..b" | "x,y" | value | range | list}``) and the variants.

    >>> plan_sweep("scrollhammer.panic-test", {"ld": "2..13"})
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: ld: expected an integer from 0 to 12, got 13
    """
    calculator = registry().calculator(calc) if isinstance(calc, str) else calc
    resolved: list[Variant | None] = [None] if baseline else []
    for v in variants:
        variant = resolve_variant(v)
        variant_calculator(calculator, variant)  # its system and the calculator's choices agree
        resolved.append(variant)
    axes = tuple(
        Axis(key, axis_values(input_taker(calculator, key, resolved), key, value))
        for key, value in grid.items()
    )
    names = [BASELINE if v is None else v.name for v in resolved]
    if not names:
        raise InputError("variant", "nothing to sweep: no baseline and no variant")
    if len(set(names)) != len(names):
        raise InputError("variant", f"each variant once; got {', '.join(names)}")
    return SweepPlan(calculator.id, axes, tuple(resolved))


def plan_points(
    calc: Calculator | str,
    points: Sequence[Mapping[str, str]],
    variants: Sequence[VariantLike] = (),
    *,
    baseline: bool = True,
) -> SweepPlan:
    """A plan of listed points rather than a grid (each a ``{key: text}`` of the same keys; every
    value checked before any work), × the baseline and each variant: a sweep of things that vary
    together, such as every unit of one army list against every unit of another.

    >>> plan = plan_points("scrollhammer.panic-test", [{"ld": "7", "modifier": "0"}, {"ld": "9", "modifier": "-1"}])
    >>> plan.size, [a.values for a in plan.axes], plan.point(1)[2]
    (2, [('7', '9'), ('0', '-1')], {'ld': '9', 'modifier': '-1'})
    """
    calculator = registry().calculator(calc) if isinstance(calc, str) else calc
    if not points:
        raise InputError("points", "no points to evaluate")
    grid = plan_sweep(calculator, {}, variants, baseline=baseline)
    keys = tuple(points[0])
    for i, point in enumerate(points):
        if tuple(point) != keys:
            raise InputError(
                "points", f"point {i + 1} has the keys {', '.join(point)}, expected {', '.join(keys)}"
            )
    seen: dict[str, set[str]] = {k: set() for k in keys}
    for point in points:
        for key, word in point.items():
            if word not in seen[key]:
                _check_value(input_taker(calculator, key, grid.variants), key, word)
                seen[key].add(word)
    axes = tuple(Axis(k, tuple(dict.fromkeys(p[k] for p in points))) for k in keys)
    return SweepPlan(calculator.id, axes, grid.variants, tuple(tuple(p[k] for k in keys) for p in points))


# -- evaluating points -----------------------------------------------------------------------------


def point_inputs(
    calc: Calculator, variant: Variant | None, values: Mapping[str, str]
) -> tuple[dict[str, Any], Any]:
    """A point's validated inputs and the choice set to run them with (see
    :func:`rulesbook.variants.validate_with`); InputError when its inputs do not go together."""
    return validate_with(calc, variant, *_split(values))


def _split(values: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """A point's calculator inputs and its rule parameters (``parameter.KEY`` axes, by KEY)."""
    inputs = {k: v for k, v in values.items() if not k.startswith(PARAMETER_PREFIX)}
    params = {
        k.removeprefix(PARAMETER_PREFIX): v for k, v in values.items() if k.startswith(PARAMETER_PREFIX)
    }
    return inputs, params


def _row(
    calc: Calculator, variant: Variant | None, values: Mapping[str, str], lacking: Lacking
) -> dict[str, Any]:
    """One table row: the point's inputs, parameters and scalar results (or its error); an entry
    another swept variant adds (``lacking``) is left out where these rules refuse it, and said
    under the private key ``_notes`` (gathered by :func:`frame`)."""
    row: dict[str, Any] = {"variant": BASELINE if variant is None else variant.name}
    error = ""
    result = None
    checked: dict[str, Any] = {}
    notes: list[str] = []
    inputs, params = _split(values)
    try:
        result, checked = run_lacking(calc, variant, inputs, lacking, notes, params)
    except InputError as exc:
        error = str(exc)
    for inp in calc.inputs:
        if inp.key in values:
            value = inp.parse(values[inp.key])
        else:
            value = checked.get(inp.key, None if inp.required else inp.default)
        row[inp.key] = _plain(inp.jsonable(value), "" if value is None else inp.format(value))
    for key, text in values.items():
        if key.startswith(PARAMETER_PREFIX):
            row[key] = _plain(parameter_spec(calc, key).check(text), text)
        elif key not in row:  # an input a swept variant adds: as given, in every column
            row[key] = text
    for out in calc.outputs:
        if out.kind in ("table", "list"):
            continue
        value = None if result is None else result.values.get(out.key)
        row[out.key] = value
        if out.kind == "probability":
            row[f"{out.key}_exact"] = None if result is None else result.values.get(f"{out.key}_exact")
        elif result is not None and f"{out.key}_exact" in result.values:  # an exact mean, as a fraction
            row[f"{out.key}_exact"] = result.values[f"{out.key}_exact"]
    row["error"] = error
    if notes:
        row["_notes"] = notes
    return row


def evaluate(
    calc_id: str,
    points: Sequence[tuple[int, Variant | None, dict[str, str]]],
    lacking: Mapping[str, Lacking] | None = None,
) -> list[tuple[int, dict[str, Any]]]:
    """Evaluate a chunk of points into (index, row) pairs (runs in a worker: serial, process
    pool or Dask); ``lacking`` is :meth:`SweepPlan.lacking`."""
    calc = registry().calculator(calc_id)
    out = []
    for i, variant, values in points:
        name = BASELINE if variant is None else variant.name
        out.append((i, _row(calc, variant, values, (lacking or {}).get(name, {}))))
    return out


def frame(calc: Calculator, plan: SweepPlan, rows: Mapping[int, dict[str, Any]]) -> pd.DataFrame:
    """The rows as a tidy DataFrame in grid order; ``attrs`` say what it is (calculator, axes,
    outputs, variants) for plots and exports."""
    import pandas as pd

    ordered = [{k: v for k, v in rows[i].items() if k != "_notes"} for i in sorted(rows)]
    notes = dict.fromkeys(
        str(note)
        for i in sorted(rows)
        if isinstance(rows[i].get("_notes"), list)
        for note in rows[i]["_notes"]
    )
    table: pd.DataFrame = pd.DataFrame.from_records(ordered) if ordered else pd.DataFrame()
    table.attrs["notes"] = list(notes)
    table.attrs["calculator"] = plan.calc_id
    table.attrs["axes"] = [a.key for a in plan.axes]
    table.attrs["outputs"] = [o.key for o in calc.outputs if o.kind not in ("table", "list")]
    table.attrs["variants"] = [
        {
            "name": v.name,
            "title": v.title,
            "definition": variant_provenance(v),
            "reaches": reaches(calc, v),
        }
        for v in plan.variants
        if v is not None
    ]
    return table
