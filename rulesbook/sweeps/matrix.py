"""Balance tables: one result over two inputs against each other, under the rules and a variant.

"How do these units fare against each other?" — Leadership × modifier for a Morale test, Ballistic
Skill × Toughness for a 40k attack: :func:`balance_table` computes one output of a calculator at
every (row, column) pair, exactly, and under a variant the same table, plus the difference from
the published rules in every cell. :meth:`BalanceTable.figure` draws annotated heatmaps,
:meth:`BalanceTable.frame` is the tidy table for a CSV (one row per cell), and
:meth:`BalanceTable.to_text` the grid for a terminal.

Axes are written as in sweeps: ``ld:5..10``, ``modifier:-2,-1,0``, ``parameter.KEY:1..3``
(:func:`parse_axis`).

Example:
    >>> table = balance_table("scrollhammer.morale-check", ("ld", "6..7"), ("modifier", "-1..0"))
    >>> table.exact()
    [['5/18', '5/12'], ['5/12', '7/12']]
    >>> under = balance_table("scrollhammer.break-test", ("ld", "7..8"), ("lost_by", "1..2"),
    ...                       variant="break-2-ld-per-point", output="p_pass")
    >>> under.difference_exact()
    [['-5/36', '-7/36'], ['-1/6', '-1/4']]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rulesbook.calculators import Calculator
from rulesbook.errors import InputError, quote
from rulesbook.present import percent
from rulesbook.present.plots import Grid, heatmap_figure, value_text
from rulesbook.registry import registry
from rulesbook.results import fraction_str
from rulesbook.sweeps.plan import Axis, axis_values, plan_sweep
from rulesbook.sweeps.run import run_plan
from rulesbook.variants import BASELINE, Variant, VariantLike, resolve_variant
from rulesbook.variants.labels import (
    BASELINE_TITLE,
    default_output,
    key_label,
    numeric_outputs,
    output_label,
    reach_warning,
)
from rulesbook.variants.sharing import variant_provenance

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["MAX_CELLS", "BalanceTable", "balance_table", "parse_axis"]

MAX_CELLS = 2500
"""Most cells a balance table may have (50 × 50); larger grids are sweeps."""


def parse_axis(text: str, field: str) -> tuple[str, str]:
    """``KEY:values`` as (key, values).

    >>> parse_axis("ld:5..10", "rows")
    ('ld', '5..10')
    >>> parse_axis("ld", "rows")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: rows: expected KEY:values such as ld:5..10 or modifier:-1,0,1, got 'ld'
    """
    key, sep, values = text.partition(":")
    if not sep or not key.strip() or not values.strip():
        raise InputError(field, f"expected KEY:values such as ld:5..10 or modifier:-1,0,1, got {quote(text)}")
    return key.strip(), values.strip()


@dataclass(frozen=True)
class BalanceTable:
    """One output over rows × columns: the published rules and, with a variant, the variant and
    the difference. ``table`` is the underlying sweep (tidy, one row per point)."""

    calc: Calculator
    output: str
    rows: Axis
    cols: Axis
    inputs: Mapping[str, str]
    variant: Variant | None
    table: pd.DataFrame

    @property
    def is_probability(self) -> bool:
        """Whether the output is a probability (shown in percent, exact fractions kept)."""
        return any(o.key == self.output and o.kind == "probability" for o in self.calc.outputs)

    def _cells(self, name: str, column: str) -> list[list[Any]]:
        part = self.table[self.table["variant"] == name]
        lookup = {
            (str(r), str(c)): v
            for r, c, v in zip(part[self.rows.key], part[self.cols.key], part[column], strict=True)
        }
        return [[_clean(lookup.get((r, c))) for c in self.cols.values] for r in self.rows.values]

    def values(self, variant: bool = False) -> list[list[float | None]]:
        """The output in every cell (rows × columns; ``None`` where the inputs do not go together)."""
        cells = self._cells(self._name(variant), self.output)
        return [[None if v is None else float(v) for v in row] for row in cells]

    def exact(self, variant: bool = False) -> list[list[str | None]]:
        """The exact value of every cell (probabilities only; else ``None``)."""
        if not self.is_probability:
            return [[None for _ in self.cols.values] for _ in self.rows.values]
        return self._cells(self._name(variant), f"{self.output}_exact")

    def _name(self, variant: bool) -> str:
        if variant and self.variant is None:
            raise InputError("variant", "this balance table has no variant")
        return self.variant.name if variant and self.variant is not None else BASELINE

    def difference(self) -> list[list[float | None]]:
        """Variant minus published rules in every cell."""
        base, mine = self.values(), self.values(variant=True)
        return [
            [None if a is None or b is None else b - a for a, b in zip(r0, r1, strict=True)]
            for r0, r1 in zip(base, mine, strict=True)
        ]

    def difference_exact(self) -> list[list[str | None]]:
        """The exact differences (probabilities only)."""
        base, mine = self.exact(), self.exact(variant=True)
        return [
            [
                None if a is None or b is None else fraction_str(Fraction(b) - Fraction(a))
                for a, b in zip(r0, r1, strict=True)
            ]
            for r0, r1 in zip(base, mine, strict=True)
        ]

    def warnings(self) -> list[str]:
        """A variant that cannot change this calculator, or changes no cell here; failed cells."""
        out = []
        if self.variant is not None:
            if warning := reach_warning(self.calc, self.variant):
                out.append(warning)
            elif all(d == 0 for row in self.difference() for d in row if d is not None):
                out.append(
                    f"{self.variant.title} changes no {output_label(self.calc, self.output)} in this table"
                )
        failed = sum(v is None for row in self.values() for v in row)
        if failed:
            out.append(
                f"{failed} cell{'s' if failed > 1 else ''} had inputs that do not go together (no value)"
            )
        return out

    def frame(self) -> pd.DataFrame:
        """One row per cell: the row and column values, the value (and exact), and under a
        variant its value, exact value and the difference."""
        import pandas as pd

        records = []
        base, exact = self.values(), self.exact()
        if self.variant is not None:
            mine, mine_exact = self.values(True), self.exact(True)
            diff, diff_exact = self.difference(), self.difference_exact()
        for i, r in enumerate(self.rows.values):
            for j, c in enumerate(self.cols.values):
                record: dict[str, Any] = {self.rows.key: r, self.cols.key: c, self.output: base[i][j]}
                if self.is_probability:
                    record[f"{self.output}_exact"] = exact[i][j]
                if self.variant is not None:
                    record[f"{self.variant.name}.{self.output}"] = mine[i][j]
                    if self.is_probability:
                        record[f"{self.variant.name}.{self.output}_exact"] = mine_exact[i][j]
                    record["difference"] = diff[i][j]
                    if self.is_probability:
                        record["difference_exact"] = diff_exact[i][j]
                records.append(record)
        out = pd.DataFrame.from_records(records)
        out.attrs = {**self.table.attrs, "kind": "balance table", "output": self.output}
        out.attrs["axes"] = [self.rows.key, self.cols.key]
        out.attrs["inputs"] = dict(self.inputs)
        return out

    def to_json(self) -> dict[str, Any]:
        """Rows, columns, the grid of values (and exact values), the variant's grid and the
        differences, in one JSON-ready mapping."""

        def axis(a: Axis) -> dict[str, Any]:
            return {"key": a.key, "label": key_label(self.calc, a.key), "values": list(a.values)}

        def grid(
            values: list[list[float | None]], exact: list[list[str | None]]
        ) -> list[list[dict[str, Any]]]:
            return [
                [
                    {"value": v, **({"exact": e} if self.is_probability else {})}
                    for v, e in zip(vr, er, strict=True)
                ]
                for vr, er in zip(values, exact, strict=True)
            ]

        out: dict[str, Any] = {
            "calculator": self.calc.id,
            "output": {"key": self.output, "label": output_label(self.calc, self.output)},
            "inputs": dict(self.inputs),
            "rows": axis(self.rows),
            "cols": axis(self.cols),
            "baseline": grid(self.values(), self.exact()),
        }
        if self.variant is not None:
            out["variant"] = {
                "name": self.variant.name,
                "title": self.variant.title,
                "definition": variant_provenance(self.variant),
                "values": grid(self.values(True), self.exact(True)),
                "difference": grid(self.difference(), self.difference_exact()),
            }
        out["warnings"] = self.warnings()
        return out

    def to_text(self) -> str:
        """The grid(s) for a terminal: row labels down, column labels across; percentages for
        probabilities, and under a variant the difference in percentage points."""
        head = f"{self.calc.title} [{self.calc.id}]: {output_label(self.calc, self.output)}"
        fixed = ", ".join(f"{k}={v}" for k, v in self.inputs.items())
        lines = [head + (f" at {fixed}" if fixed else "")]
        blocks = [(BASELINE_TITLE, self.values(), False)]
        if self.variant is not None:
            blocks += [(self.variant.title, self.values(True), False)]
            blocks += [(f"Difference: {self.variant.title} − {BASELINE_TITLE}", self.difference(), True)]
        corner = f"{key_label(self.calc, self.rows.key)} \\ {key_label(self.calc, self.cols.key)}"
        texts = [
            [[_cell(v, self.is_probability, signed) for v in row] for row in grid]
            for _, grid, signed in blocks
        ]
        width = 2 + max(len(t) for t in [*self.cols.values, *(c for b in texts for row in b for c in row)])
        left = max(8, *(len(r) for r in self.rows.values))
        for (title, _, _), block in zip(blocks, texts, strict=True):
            lines += ["", f"  {title}", f"  {corner}"]
            lines.append("  " + " " * left + "".join(f"{c:>{width}}" for c in self.cols.values))
            for r, row in zip(self.rows.values, block, strict=True):
                lines.append(f"  {r:>{left}}" + "".join(f"{c:>{width}}" for c in row))
        lines += [f"  warning: {w}" for w in self.warnings()]
        return "\n".join(lines)

    def figure(self, title: str = "") -> Figure:
        """Annotated heatmaps: the published rules, the variant, and their difference."""
        grids = [self._grid(BASELINE_TITLE, self.values())]
        if self.variant is not None:
            grids.append(self._grid(self.variant.title, self.values(True)))
            grids.append(self._grid(f"{self.variant.title} − {BASELINE_TITLE}", self.difference(), True))
        return heatmap_figure(
            grids,
            row_label=key_label(self.calc, self.rows.key),
            col_label=key_label(self.calc, self.cols.key),
            value_label=output_label(self.calc, self.output),
            title=title or f"{self.calc.title}: {output_label(self.calc, self.output)}",
            percent_scale=self.is_probability,
            warnings=self.warnings(),
        )

    def _grid(self, title: str, values: list[list[float | None]], diverging: bool = False) -> Grid:
        return Grid(
            title=title,
            rows=self.rows.values,
            cols=self.cols.values,
            values=tuple(tuple(row) for row in values),
            diverging=diverging,
        )


def _clean(value: Any) -> Any:
    if value is None or (isinstance(value, float) and value != value):
        return None
    return value


def _cell(value: float | None, probability: bool, signed: bool) -> str:
    if value is None:
        return "—"
    if probability and not signed:
        return percent(value)
    return value_text(value, percent_scale=probability, signed=signed)


def balance_table(
    calc: Calculator | str,
    rows: tuple[str, Any],
    cols: tuple[str, Any],
    inputs: Mapping[str, Any] | None = None,
    *,
    variant: VariantLike | None = None,
    output: str | None = None,
    **options: Any,
) -> BalanceTable:
    """``output`` (default: the first probability or number) of ``calc`` over ``rows`` ×
    ``cols`` (each ``(key, values)``, values as in sweeps), the other ``inputs`` fixed; under
    ``variant`` also the variant's table and the differences. ``options`` go to
    :func:`~rulesbook.sweeps.run.run_plan` (``executor``, ``workers``, ``budget``, ...)."""
    calculator = registry().calculator(calc) if isinstance(calc, str) else calc
    row_key, col_key = rows[0].strip(), cols[0].strip()
    if row_key == col_key:
        raise InputError("cols", f"rows and columns both vary {row_key}; choose two different keys")
    fixed = {str(k): v for k, v in (inputs or {}).items()}
    for key in (row_key, col_key):
        if key in fixed:
            raise InputError(key, "given as an input and as an axis; give it once")
    row_axis = Axis(row_key, axis_values(calculator, row_key, rows[1]))
    col_axis = Axis(col_key, axis_values(calculator, col_key, cols[1]))
    if len(row_axis.values) * len(col_axis.values) > MAX_CELLS:
        raise InputError(
            "matrix",
            f"{len(row_axis.values)} × {len(col_axis.values)} cells is more than {MAX_CELLS:,}; "
            "use rulesbook sweep for larger grids",
        )
    choices = numeric_outputs(calculator)
    if not choices:
        raise InputError("output", f"{calculator.id} has no numeric output to tabulate")
    key = output or default_output(calculator)
    if key not in {o.key for o in choices}:
        allowed = ", ".join(o.key for o in choices)
        raise InputError("output", f"expected a numeric output of {calculator.id}; allowed: {allowed}")
    resolved = None if variant is None else resolve_variant(variant)
    grid = {row_key: rows[1], col_key: cols[1], **fixed}
    plan = plan_sweep(calculator, grid, [resolved] if resolved is not None else [])
    options.setdefault("progress", False)
    table = run_plan(plan, **options)
    shown = {k: str(v) for k, v in fixed.items()}
    return BalanceTable(calculator, key, row_axis, col_axis, shown, resolved, table)
