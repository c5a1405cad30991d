"""Parameter sweeps: one calculator over a grid of inputs × rule parameters × variants, as a tidy table.

A sweep evaluates a calculator at every point of a grid and returns a pandas DataFrame with
one row per point: a ``variant`` column (``baseline`` or the variant's name), one column per
input (every input, the fixed ones too, in their text form), one per swept rule parameter
(``parameter.KEY``), one per scalar result (probabilities as a float plus ``KEY_exact``), and
``error`` (the one-line message of a point whose inputs do not go together, else empty).
List and table results are left out (run the calculator at a point to see them).

Axes are written as on the command line: ``ld=5..10`` (inclusive integer range),
``fall_back_dice=2D6,3D6`` (alternatives), ``modifier=-1`` (fixed); inputs that are
themselves comma lists take alternatives separated by ``|`` (``lds=7,8|8,9``). A rule
parameter is swept as ``parameter.KEY=...`` (``parameter.points_per_morale=30..60``).

Work runs serially, on local cores (a process pool; the default for large grids) or on a Dask
distributed cluster (``scheduler="tcp://host:8786"``), with identical tables. A grid larger
than :class:`Budget` allows is refused before any work, with the estimate and how to narrow
it. Rows are appended to a checkpoint file as they finish, so an interrupted sweep keeps every
finished row (:class:`SweepInterrupted` carries them) and resumes where it stopped.

Example:
    >>> table = sweep("scrollhammer.panic-test", {"ld": "6..8", "modifier": "0,-1"}, executor="serial")
    >>> table[["ld", "modifier", "p_pass_exact"]].head(3).to_dict("records")
    [{'ld': 6, 'modifier': 0, 'p_pass_exact': '5/12'}, {'ld': 6, 'modifier': -1, 'p_pass_exact': '5/18'}, {'ld': 7, 'modifier': 0, 'p_pass_exact': '7/12'}]
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import importlib
import itertools
import json
import math
import multiprocessing
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from rulesbook.calculators import Calculator
from rulesbook.data import LIMITS, DataFileError, load_data_text
from rulesbook.errors import InputError, RulesbookError, quote
from rulesbook.registry import registry
from rulesbook.variants import (
    BASELINE,
    Variant,
    VariantLike,
    resolve_variant,
    validate_with,
    variant_calculator,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = [
    "Axis",
    "Budget",
    "SweepInterrupted",
    "SweepPlan",
    "SweepTooLarge",
    "export",
    "plan_sweep",
    "plot_sweep",
    "run_plan",
    "sweep",
]

PARAMETER_PREFIX = "parameter."
_RANGE = re.compile(r"^\s*([+-]?\d{1,9})\s*\.\.\s*([+-]?\d{1,9})\s*$")
type Executor = Literal["auto", "serial", "processes", "dask"]


class SweepTooLarge(InputError):
    """The grid exceeds the budget; the message gives the estimate and how to narrow it."""


class SweepInterrupted(RulesbookError):
    """A sweep stopped early; ``table`` holds every row finished so far (also in the checkpoint)."""

    def __init__(self, message: str, table: pd.DataFrame) -> None:
        super().__init__(message)
        self.table = table


@dataclass(frozen=True, slots=True)
class Axis:
    """One swept dimension: an input key or ``parameter.KEY``, and its values (text forms)."""

    key: str
    values: tuple[str, ...]

    @property
    def is_parameter(self) -> bool:
        """True for a rule parameter, False for a calculator input."""
        return self.key.startswith(PARAMETER_PREFIX)


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits checked before a sweep starts: points, and estimated seconds of work."""

    max_points: int = 200_000
    max_seconds: float = 1800.0


@dataclass(frozen=True)
class SweepPlan:
    """A checked grid: the calculator, the axes (inputs and parameters) and the variants."""

    calc_id: str
    axes: tuple[Axis, ...]
    variants: tuple[Variant | None, ...] = (None,)

    @property
    def size(self) -> int:
        """Number of points (variants × every axis)."""
        return len(self.variants) * math.prod(len(a.values) for a in self.axes)

    def points(self) -> Iterator[tuple[int, Variant | None, dict[str, str]]]:
        """(index, variant, {axis key: text value}) for every point, in table order."""
        grids = itertools.product(*(a.values for a in self.axes))
        combos = itertools.product(self.variants, list(grids))
        for i, (variant, values) in enumerate(combos):
            yield i, variant, dict(zip((a.key for a in self.axes), values, strict=True))

    def fingerprint(self) -> str:
        """A digest of everything that decides the table (checks a checkpoint belongs to it)."""
        data = [
            self.calc_id,
            [[a.key, list(a.values)] for a in self.axes],
            [None if v is None else [v.name, v.changes()] for v in self.variants],
        ]
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _axis_values(calc: Calculator, key: str, text: Any) -> tuple[str, ...]:
    """The text values of an axis, each checked on its own (so typos fail before any work)."""
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
            words = [str(v) for v in range(lo, hi + 1)]
        else:
            sep = "|" if _is_list_input(calc, key) else ","
            words = [w.strip() for w in raw.split(sep)] if sep in raw else [raw.strip()]
    if not words:
        raise InputError(key, "no values to sweep")
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
        return str(_parameter_spec(calc, key).format(value))
    return calc.input(key).format(value)


def _parameter_spec(calc: Calculator, key: str) -> Any:
    if calc.choices is None:
        raise InputError(key, f"{calc.id} declares no rule parameters")
    choices: Any = calc.choices
    try:
        return type(choices.parameters).spec(key.removeprefix(PARAMETER_PREFIX))
    except InputError as exc:
        raise InputError(key, exc.message) from None


def _plain(value: Any, text: str) -> Any:
    """A cell: ints, floats, booleans and text as they are; anything else (dice, lists) as text."""
    return value if isinstance(value, int | float | str) or value is None else text


def _check_value(calc: Calculator, key: str, word: str) -> None:
    if key.startswith(PARAMETER_PREFIX):
        spec = _parameter_spec(calc, key)
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

    >>> plan = plan_sweep("scrollhammer.panic-test", {"ld": "2..12", "modifier": "0,-1,-2"})
    >>> plan.size
    33
    >>> plan_sweep("scrollhammer.panic-test", {"ld": "2..13"})
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: ld: expected an integer from 0 to 12, got 13
    """
    calculator = registry().calculator(calc) if isinstance(calc, str) else calc
    axes = tuple(Axis(key, _axis_values(calculator, key, value)) for key, value in grid.items())
    resolved: list[Variant | None] = [None] if baseline else []
    for v in variants:
        variant = resolve_variant(v)
        variant_calculator(calculator, variant)  # its system and the calculator's choices agree
        resolved.append(variant)
    names = [BASELINE if v is None else v.name for v in resolved]
    if not names:
        raise InputError("variant", "nothing to sweep: no baseline and no variant")
    if len(set(names)) != len(names):
        raise InputError("variant", f"each variant once; got {', '.join(names)}")
    return SweepPlan(calculator.id, axes, tuple(resolved))


# -- evaluating points -----------------------------------------------------------------------------


def _row(calc: Calculator, variant: Variant | None, values: Mapping[str, str]) -> dict[str, Any]:
    """One table row: the point's inputs, parameters and scalar results (or its error)."""
    inputs = {k: v for k, v in values.items() if not k.startswith(PARAMETER_PREFIX)}
    params = {
        k.removeprefix(PARAMETER_PREFIX): v for k, v in values.items() if k.startswith(PARAMETER_PREFIX)
    }
    row: dict[str, Any] = {"variant": BASELINE if variant is None else variant.name}
    error = ""
    result = None
    checked: dict[str, Any] = {}
    try:
        checked, choices = validate_with(calc, variant, inputs, params)
        runner = calc if variant is None else variant_calculator(calc, variant)
        result = runner.run_validated(checked, choices=choices)
    except InputError as exc:
        error = str(exc)
    for inp in calc.inputs:
        if inp.key in values:
            value = inp.parse(values[inp.key])
        else:
            value = checked.get(inp.key, None if inp.required else inp.default)
        row[inp.key] = _plain(inp.jsonable(value), "" if value is None else inp.format(value))
    for key, text in params.items():
        row[PARAMETER_PREFIX + key] = _plain(_parameter_spec(calc, key).check(text), text)
    for out in calc.outputs:
        if out.kind in ("table", "list"):
            continue
        value = None if result is None else result.values.get(out.key)
        row[out.key] = value
        if out.kind == "probability":
            row[f"{out.key}_exact"] = None if result is None else result.values.get(f"{out.key}_exact")
    row["error"] = error
    return row


def _evaluate(
    calc_id: str, points: Sequence[tuple[int, Variant | None, dict[str, str]]]
) -> list[tuple[int, dict[str, Any]]]:
    """Evaluate a chunk of points (runs in a worker: serial, process pool or Dask)."""
    calc = registry().calculator(calc_id)
    return [(i, _row(calc, variant, values)) for i, variant, values in points]


def _chunks[T](items: Sequence[T], size: int) -> list[Sequence[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _mp_context() -> Any:
    """Fresh worker processes (forkserver; spawn on Windows) unless the main module names a file
    that cannot be imported again (code piped into ``python -``): then a fork."""
    import __main__

    main_file = getattr(__main__, "__file__", None)
    if main_file is None or Path(main_file).is_file():
        return multiprocessing.get_context("spawn" if os.name == "nt" else "forkserver")
    return multiprocessing.get_context("fork")


def _run_processes(
    calc_id: str, chunks: list[Any], workers: int, done: Callable[[list[tuple[int, dict[str, Any]]]], None]
) -> None:
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context()) as pool:
        futures = [pool.submit(_evaluate, calc_id, chunk) for chunk in chunks]
        try:
            for future in cf.as_completed(futures):
                done(future.result())
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def _run_dask(
    calc_id: str, chunks: list[Any], scheduler: Any, done: Callable[[list[tuple[int, dict[str, Any]]]], None]
) -> None:
    try:
        dist: Any = importlib.import_module("distributed")
    except ImportError as exc:  # pragma: no cover - only without the [sweeps] extra
        raise InputError(
            "scheduler", f"Dask distributed is not installed ({exc.name}); pip install 'rulesbook[sweeps]'"
        ) from None
    own = isinstance(scheduler, str)
    try:
        client = dist.Client(scheduler, timeout="20s") if own else scheduler
    except OSError as exc:
        raise InputError("scheduler", f"no Dask scheduler answers at {scheduler} ({exc})") from None
    try:
        futures = [client.submit(_evaluate, calc_id, chunk, pure=False) for chunk in chunks]
        try:
            for future in dist.as_completed(futures):
                done(future.result())
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        if own:
            client.close()


# -- checkpoints ----------------------------------------------------------------------------------


def _read_checkpoint(path: Path, fingerprint: str) -> dict[int, dict[str, Any]]:
    """Finished rows of an earlier run of the same sweep (none if the file is another sweep's).

    Each line is read by the one loader's JSON parser (:func:`rulesbook.data.load_data_text`,
    with its limits); anything that is not a checkpoint gives one line, never a traceback.
    """
    if not path.is_file():
        return {}
    rows: dict[int, dict[str, Any]] = {}
    not_ours = InputError("checkpoint", f"{quote(str(path))} is not a sweep checkpoint; delete it")
    try:
        with path.open(encoding="utf-8") as f:
            try:
                head = load_data_text(f.readline(LIMITS.max_bytes), path.name, is_json=True)
            except DataFileError:
                raise not_ours from None
            if not isinstance(head, dict) or "sweep" not in head:
                raise not_ours
            if head["sweep"] != fingerprint:
                raise InputError(
                    "checkpoint",
                    f"{quote(str(path))} belongs to another sweep; delete it or choose another output",
                )
            for line in iter(lambda: f.readline(LIMITS.max_bytes), ""):
                try:
                    item = load_data_text(line, path.name, is_json=True)
                except DataFileError:
                    break  # a line cut by the interruption: its row is computed again
                if not (
                    isinstance(item, dict)
                    and type(item.get("i")) is int
                    and isinstance(item.get("row"), dict)
                ):
                    raise not_ours
                rows[item["i"]] = item["row"]
    except (OSError, UnicodeDecodeError):
        raise not_ours from None
    return rows


# -- running --------------------------------------------------------------------------------------


def run_plan(
    plan: SweepPlan,
    *,
    executor: Executor = "auto",
    workers: int | None = None,
    scheduler: Any = None,
    budget: Budget = Budget(),
    checkpoint: str | Path | None = None,
    progress: bool = True,
    on_rows: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Evaluate a plan into a tidy DataFrame (rows in grid order; see the module help).

    ``executor``: ``serial``, ``processes`` (local cores; ``workers`` of them), ``dask``
    (``scheduler``: an address such as ``tcp://host:8786`` or a ``distributed.Client``), or
    ``auto`` (Dask when a scheduler is given, else processes for grids of 200 points or more,
    else serial). ``checkpoint``: a ``.jsonl`` file finished rows are appended to and resumed
    from. ``on_rows`` is called with the number of rows finished so far (tests use it).
    """
    total = plan.size
    if total > budget.max_points:
        raise SweepTooLarge(
            "sweep", f"{total:,} points exceed the budget of {budget.max_points:,}; {_narrow(plan)}"
        )
    calc = registry().calculator(plan.calc_id)
    if executor == "auto":
        executor = "dask" if scheduler is not None else ("processes" if total >= 200 else "serial")
    if executor == "dask" and scheduler is None:
        raise InputError(
            "scheduler", "the dask executor needs a scheduler address such as tcp://127.0.0.1:8786"
        )
    n_workers = max(1, workers or (os.cpu_count() or 1))
    fingerprint = plan.fingerprint()
    ckpt = Path(checkpoint) if checkpoint is not None else None
    rows = _read_checkpoint(ckpt, fingerprint) if ckpt is not None else {}
    todo = [p for p in plan.points() if p[0] not in rows]
    if todo and not rows:  # time one point up front for the estimate (its row is kept)
        started = time.perf_counter()
        first = _evaluate(plan.calc_id, [todo[0]])
        seconds = (time.perf_counter() - started) * len(todo) / (1 if executor == "serial" else n_workers)
        if seconds > budget.max_seconds:
            raise SweepTooLarge(
                "sweep",
                f"{total:,} points would take about {_duration(seconds)} (one point took "
                f"{_duration(seconds * (1 if executor == 'serial' else n_workers) / len(todo))}), over the "
                f"budget of {_duration(budget.max_seconds)}; {_narrow(plan)}",
            )
        rows.update(first)
        todo = todo[1:]
    handle = None
    if ckpt is not None:
        fresh = not ckpt.is_file()
        handle = ckpt.open("a", encoding="utf-8")
        if fresh:
            handle.write(json.dumps({"sweep": fingerprint, "calculator": plan.calc_id}) + "\n")
        for i, row in rows.items():
            if fresh:
                handle.write(json.dumps({"i": i, "row": row}) + "\n")
        handle.flush()
    bar = _progress(total, len(rows), progress)

    def done(finished: list[tuple[int, dict[str, Any]]]) -> None:
        for i, row in finished:
            rows[i] = row
            if handle is not None:
                handle.write(json.dumps({"i": i, "row": row}) + "\n")
        if handle is not None:
            handle.flush()
        bar.update(len(finished))
        if on_rows is not None:
            on_rows(len(rows))

    try:
        if executor == "serial" or not todo:
            for point in todo:
                done(_evaluate(plan.calc_id, [point]))
        else:
            per = max(1, min(256, math.ceil(len(todo) / (n_workers * 4))))
            chunks = _chunks(todo, per)
            if executor == "processes":
                _run_processes(plan.calc_id, chunks, n_workers, done)
            else:
                _run_dask(plan.calc_id, chunks, scheduler, done)
    except (KeyboardInterrupt, Exception) as exc:
        if isinstance(exc, InputError):
            raise
        kept = _frame(calc, plan, rows)
        where = f"; they are in {ckpt} and the same sweep resumes from there" if ckpt is not None else ""
        raise SweepInterrupted(
            f"sweep interrupted ({type(exc).__name__}: {exc}) after {len(rows)} of {total} rows{where}", kept
        ) from exc
    finally:
        bar.close()
        if handle is not None:
            handle.close()
    return _frame(calc, plan, rows)


def _frame(calc: Calculator, plan: SweepPlan, rows: Mapping[int, dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    ordered = [rows[i] for i in sorted(rows)]
    frame: pd.DataFrame = pd.DataFrame.from_records(ordered) if ordered else pd.DataFrame()
    frame.attrs["calculator"] = plan.calc_id
    frame.attrs["axes"] = [a.key for a in plan.axes]
    frame.attrs["outputs"] = [o.key for o in calc.outputs if o.kind not in ("table", "list")]
    return frame


def _progress(total: int, start: int, enabled: bool) -> Any:
    tqdm: Any = importlib.import_module("tqdm.auto").tqdm
    return tqdm(total=total, initial=start, disable=not enabled, unit="point", desc="sweep", leave=False)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s" if seconds >= 1 else f"{seconds:.2g} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _narrow(plan: SweepPlan) -> str:
    """How to narrow a plan: its widest axes, with their sizes."""
    widest = sorted(plan.axes, key=lambda a: -len(a.values))[:3]
    parts = [f"{a.key} has {len(a.values)} values ({a.values[0]}..{a.values[-1]})" for a in widest]
    if len(plan.variants) > 1:
        parts.append(f"{len(plan.variants)} variants")
    return "narrow the grid (" + "; ".join(parts) + ") or fix an input, or raise the budget"


def sweep(
    calc: Calculator | str,
    grid: Mapping[str, Any],
    variants: Sequence[VariantLike] = (),
    *,
    baseline: bool = True,
    **options: Any,
) -> pd.DataFrame:
    """Sweep ``calc`` over ``grid`` (× the baseline and each variant) into a tidy DataFrame.

    ``grid`` and ``variants`` are checked by :func:`plan_sweep`; ``options`` are those of
    :func:`run_plan` (``executor``, ``workers``, ``scheduler``, ``budget``, ``checkpoint``,
    ``progress`` — off unless asked for).
    """
    options.setdefault("progress", False)
    return run_plan(plan_sweep(calc, grid, variants, baseline=baseline), **options)


# -- output ---------------------------------------------------------------------------------------


def export(table: pd.DataFrame, path: str | Path) -> Path:
    """Write a sweep table to ``.csv`` or ``.parquet`` (atomically: a finished file or none)."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise InputError("output", f"{target.name}: expected a .csv or .parquet file name")
    tmp = target.with_name(f".{target.name}.tmp")
    if suffix == ".csv":
        table.to_csv(tmp, index=False)
    else:
        try:
            table.to_parquet(tmp, index=False)
        except ImportError as exc:  # pragma: no cover - only without pyarrow
            raise InputError(
                "parquet", f"Parquet needs pyarrow ({exc}); pip install 'rulesbook[sweeps]'"
            ) from None
    tmp.replace(target)
    return target


def _numeric(table: pd.DataFrame, key: str) -> pd.Series[Any]:
    import pandas as pd

    return pd.to_numeric(table[key], errors="coerce")


def plot_sweep(
    table: pd.DataFrame,
    y: str | None = None,
    *,
    x: str | None = None,
    kind: Literal["line", "heatmap"] | None = None,
    title: str = "",
) -> Figure:
    """One figure from a sweep table: lines of ``y`` over ``x`` (one per variant and other axis
    value), or a heatmap of ``y`` over the first two axes (one panel per variant).

    ``y`` defaults to the first result column; ``x`` to the first swept axis; ``kind`` to a
    heatmap when two or more axes were swept and a line plot otherwise.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    axes_keys: list[str] = list(table.attrs.get("axes", []))
    outputs: list[str] = list(table.attrs.get("outputs", []))
    y = y or next((o for o in outputs if o in table and _numeric(table, o).notna().any()), None)
    if y is None or y not in table:
        raise InputError("y", f"expected a result column; allowed: {', '.join(outputs) or 'none'}")
    x = x or (axes_keys[0] if axes_keys else None)
    if x is None or x not in table:
        raise InputError("x", f"expected a swept column; allowed: {', '.join(axes_keys) or 'none'}")
    others = [a for a in axes_keys if a != x]
    kind = kind or ("heatmap" if others else "line")
    variants = list(dict.fromkeys(table["variant"]))
    data = table.assign(_x=_numeric(table, x), _y=_numeric(table, y))
    if data["_x"].isna().any():
        data["_x"] = table[x]
    if kind == "heatmap":
        if not others:
            raise InputError("kind", "a heatmap needs two swept axes; use kind=line")
        other = others[0]
        fig, panels = plt.subplots(1, len(variants), figsize=(4.2 * len(variants) + 1, 3.8), squeeze=False)
        image = None
        for ax, name in zip(panels[0], variants, strict=True):
            part = data[data["variant"] == name]
            grid = part.pivot_table(index=other, columns="_x", values="_y", aggfunc="mean", sort=False)
            image = ax.imshow(
                grid.to_numpy(dtype=float), origin="lower", aspect="auto", vmin=0.0, vmax=_vmax(data)
            )
            ax.set_xticks(range(len(grid.columns)), [str(c) for c in grid.columns])
            ax.set_yticks(range(len(grid.index)), [str(i) for i in grid.index])
            ax.set_xlabel(x)
            ax.set_ylabel(other)
            ax.set_title(name)
        if image is not None:
            fig.colorbar(image, ax=panels[0].tolist(), label=y)
    else:
        fig, ax = plt.subplots(figsize=(7, 4))
        groups = ["variant", *others]
        for key, part in data.groupby(groups, sort=False):
            label = ", ".join(
                str(k) if g == "variant" else f"{g}={k}" for g, k in zip(groups, key, strict=True)
            )
            ax.plot(part["_x"], part["_y"], marker="o", label=label)
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        ax.grid(alpha=0.3)
        if len(ax.get_lines()) > 1:
            ax.legend(fontsize="small")
    fig.suptitle(title or f"{table.attrs.get('calculator', '')}: {y}")
    return fig


def _vmax(data: Any) -> float:
    top = float(data["_y"].max())
    return 1.0 if top <= 1.0 else top
