"""Running a sweep: serially, on local cores or on a Dask cluster, with checkpoints and progress.

Work runs serially, on local cores (a process pool; the default for large grids) or on a Dask
distributed cluster (``scheduler="tcp://host:8786"``, :mod:`rulesbook.sweeps.cluster`), with
identical tables. Before any work the grid is checked against its :class:`Budget` in points and
in estimated seconds (:mod:`rulesbook.sweeps.budget`). Rows are appended to a checkpoint file as
they finish, so an interrupted sweep keeps every finished row (:class:`SweepInterrupted` carries
them) and the same sweep resumes from there ("resuming from N rows"); ``restart=True`` discards
the checkpoint instead.

Example:
    >>> table = sweep("scrollhammer.panic-test", {"ld": "6..8", "modifier": "0,-1"}, executor="serial")
    >>> table[["ld", "modifier", "p_pass_exact"]].head(3).to_dict("records")
    [{'ld': 6, 'modifier': 0, 'p_pass_exact': '5/12'}, {'ld': 6, 'modifier': -1, 'p_pass_exact': '5/18'}, {'ld': 7, 'modifier': 0, 'p_pass_exact': '7/12'}]
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import importlib
import json
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

from rulesbook.data import LIMITS, DataFileError, load_data_text
from rulesbook.errors import InputError, RulesbookError, quote
from rulesbook.registry import registry
from rulesbook.sweeps.budget import Budget, check_budget, duration, estimate
from rulesbook.sweeps.cluster import OnLost, connect, run_dask
from rulesbook.sweeps.plan import SweepPlan, evaluate, frame, plan_sweep
from rulesbook.variants import VariantLike

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["Executor", "Progress", "SweepInterrupted", "run_plan", "sweep"]

type Executor = Literal["auto", "serial", "processes", "dask"]
type Progress = bool | Literal["bar", "lines"]
type Rows = list[tuple[int, dict[str, Any]]]

PROGRESS_EVERY = 5.0
"""Seconds between progress lines (``progress="lines"``, for a log or a non-terminal stderr)."""


class SweepInterrupted(RulesbookError):
    """A sweep stopped early; ``table`` holds every row finished so far (also in the checkpoint)."""

    def __init__(self, message: str, table: pd.DataFrame) -> None:
        super().__init__(message)
        self.table = table


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


def _end_with_the_sweep() -> None:
    """A worker's start: a thread that ends the worker as soon as the sweep that started it is
    gone, however it ended (``kill -9`` included: the pipe to it closes), so a killed sweep
    leaves no worker computing on."""
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - a worker always has one
        return

    def watch() -> None:
        parent.join()  # (returns once the sweep's end of the pipe is closed)
        os._exit(1)

    threading.Thread(target=watch, name="rulesbook-sweep-watch", daemon=True).start()


def _run_processes(
    calc_id: str, chunks: list[Any], workers: int, done: Callable[[Rows], None], lacking: Any = None
) -> None:
    context = _mp_context()
    with cf.ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_end_with_the_sweep
    ) as pool:
        futures = [pool.submit(evaluate, calc_id, chunk, lacking) for chunk in chunks]
        try:
            for future in cf.as_completed(futures):
                done(future.result())
        except BaseException:
            for f in futures:
                f.cancel()
            raise


# -- checkpoints ----------------------------------------------------------------------------------


def _read_checkpoint(path: Path, fingerprint: str) -> dict[int, dict[str, Any]]:
    """Finished rows of an earlier run of the same sweep (none if there is no file).

    Each line is read by the one loader's JSON parser (:func:`rulesbook.data.load_data_text`,
    with its limits); anything that is not a checkpoint gives one line, never a traceback.
    """
    if not path.is_file():
        return {}
    rows: dict[int, dict[str, Any]] = {}
    not_ours = InputError(
        "checkpoint", f"{quote(str(path))} is not a sweep checkpoint; delete it (or --restart)"
    )
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
                    f"{quote(str(path))} belongs to another sweep; delete it, choose another output "
                    "or start again with --restart",
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


# -- progress -------------------------------------------------------------------------------------


class _Lines:
    """Progress as a plain line every :data:`PROGRESS_EVERY` seconds (for logs and pipes)."""

    def __init__(self, total: int, start: int, notify: Callable[[str], None], every: float) -> None:
        self.total, self.done, self.notify, self.every = total, start, notify, every
        self.first = start
        self.started = self.last = time.monotonic()

    def update(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            rate = (self.done - self.first) / max(now - self.started, 1e-9)
            left = (self.total - self.done) / rate if rate else math.inf
            eta = f", about {duration(left)} left" if math.isfinite(left) else ""
            self.notify(
                f"sweep: {self.done:,} of {self.total:,} points ({100 * self.done / self.total:.0f} %)"
                f", {duration(now - self.started)} so far{eta}"
            )

    def close(self) -> None:
        pass


def _progress(total: int, start: int, progress: Progress, notify: Callable[[str], None], every: float) -> Any:
    if progress == "lines":
        return _Lines(total, start, notify, every)
    tqdm: Any = importlib.import_module("tqdm.auto").tqdm
    return tqdm(total=total, initial=start, disable=not progress, unit="point", desc="sweep", leave=False)


# -- running --------------------------------------------------------------------------------------


def _chosen_executor(executor: Executor, scheduler: Any, total: int) -> Executor:
    """``auto`` made concrete: Dask when a scheduler is given, else processes for grids of 200
    points or more, else serial; Dask without a scheduler is refused."""
    if executor == "auto":
        executor = "dask" if scheduler is not None else ("processes" if total >= 200 else "serial")
    if executor == "dask" and scheduler is None:
        raise InputError(
            "scheduler", "the dask executor needs a scheduler address such as tcp://127.0.0.1:8786"
        )
    return executor


def _estimate_within_budget(
    plan: SweepPlan, rows: dict[int, Any], parallel: int, budget: Budget, say: Callable[[str], None]
) -> None:
    """Price what is left to do (timing a few points unless resumed), refuse it over ``budget``,
    say a long estimate, and keep the points the estimate computed in ``rows``."""
    if all(p[0] in rows for p in plan.points()):
        return
    found = estimate(plan, workers=parallel, timed=not rows)
    check_budget(plan, budget, found)
    if found.seconds >= 10:
        say(f"sweep: {found.text()}")
    rows.update({i: row for i, row in found.rows.items() if i not in rows})


def _open_checkpoint(ckpt: Path, fingerprint: str, calc_id: str, rows: dict[int, Any]) -> IO[str]:
    """The checkpoint file, opened to append; a new one starts with the sweep's fingerprint and
    the rows already known."""
    fresh = not ckpt.is_file()
    handle = ckpt.open("a", encoding="utf-8")
    if fresh:
        handle.write(json.dumps({"sweep": fingerprint, "calculator": calc_id}) + "\n")
        for i, row in rows.items():
            handle.write(json.dumps({"i": i, "row": row}) + "\n")
    handle.flush()
    return handle


def _resumed_rows(
    ckpt: Path | None, restart: bool, fingerprint: str, total: int, say: Callable[[str], None]
) -> dict[int, dict[str, Any]]:
    """The rows an earlier run of the same sweep left in the checkpoint (none after ``restart``,
    which deletes it), said when there are any."""
    if ckpt is None:
        return {}
    if restart:
        ckpt.unlink(missing_ok=True)
    rows = _read_checkpoint(ckpt, fingerprint)
    if rows:
        say(f"sweep: resuming from {len(rows):,} rows of {total:,} (in {ckpt})")
    return rows


def run_plan(
    plan: SweepPlan,
    *,
    executor: Executor = "auto",
    workers: int | None = None,
    scheduler: Any = None,
    budget: Budget | None = None,
    checkpoint: str | Path | None = None,
    restart: bool = False,
    progress: Progress = True,
    progress_every: float | None = None,
    notify: Callable[[str], None] | None = None,
    on_lost_workers: OnLost = "wait",
    lost_grace: float | None = None,
    chunk_size: int | None = None,
    on_rows: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Evaluate a plan into a tidy DataFrame (rows in grid order; see :mod:`rulesbook.sweeps`).

    ``executor``: ``serial``, ``processes`` (local cores; ``workers`` of them), ``dask``
    (``scheduler``: an address such as ``tcp://host:8786`` or a ``distributed.Client``), or
    ``auto`` (Dask when a scheduler is given, else processes for grids of 200 points or more,
    else serial). ``checkpoint``: a ``.jsonl`` file finished rows are appended to and resumed
    from (``restart=True`` deletes it first). ``progress``: a bar (``True``/``"bar"``, tqdm) or
    a line through ``notify`` every ``progress_every`` seconds (``"lines"``; default
    :data:`PROGRESS_EVERY`). ``notify`` hears
    one-line notes (the estimate, "resuming from N rows", lost workers); ``on_lost_workers``:
    ``wait`` or ``stop`` when a Dask cluster has no worker left (``lost_grace`` seconds).
    ``on_rows`` is called with the number of rows finished so far (tests use it).
    """
    say = notify or (lambda _message: None)
    check_budget(plan, budget := budget or Budget())
    calc = registry().calculator(plan.calc_id)
    total = plan.size
    executor = _chosen_executor(executor, scheduler, total)
    client, own_client = connect(scheduler) if executor == "dask" else (None, False)  # before any work
    n_workers = max(1, workers or (os.cpu_count() or 1))
    fingerprint = plan.fingerprint()
    ckpt = Path(checkpoint) if checkpoint is not None else None
    rows = _resumed_rows(ckpt, restart, fingerprint, total, say)
    _estimate_within_budget(plan, rows, 1 if executor == "serial" else n_workers, budget, say)
    todo = [p for p in plan.points() if p[0] not in rows]
    handle = None if ckpt is None else _open_checkpoint(ckpt, fingerprint, plan.calc_id, rows)
    bar = _progress(
        total, len(rows), progress, say, PROGRESS_EVERY if progress_every is None else progress_every
    )

    def done(finished: Rows) -> None:
        rows.update(finished)
        if handle is not None:
            handle.writelines(json.dumps({"i": i, "row": row}) + "\n" for i, row in finished)
            handle.flush()
        bar.update(len(finished))
        if on_rows is not None:
            on_rows(len(rows))

    def kept() -> str:
        where = f", kept in {ckpt}" if ckpt is not None else ""
        return f"; {len(rows):,} of {total:,} rows done{where}"

    try:
        lacking = plan.lacking()
        if executor == "serial" or not todo:
            for point in todo:
                done(evaluate(plan.calc_id, [point], lacking))
        else:
            per = chunk_size or max(1, min(256, math.ceil(len(todo) / (n_workers * 4))))
            chunks = _chunks(todo, per)
            if executor == "processes":
                _run_processes(plan.calc_id, chunks, n_workers, done, lacking)
            else:
                grace = {} if lost_grace is None else {"grace": lost_grace}
                run_dask(
                    plan.calc_id,
                    chunks,
                    client,
                    done,
                    on_lost=on_lost_workers,
                    lacking=lacking,
                    notify=say,
                    kept=kept,
                    **grace,
                )
    except (KeyboardInterrupt, Exception) as exc:
        if isinstance(exc, InputError):
            raise
        raise _interrupted(exc, frame(calc, plan, rows), len(rows), total, ckpt) from exc
    finally:
        _close(bar, handle, client if own_client else None)
    return frame(calc, plan, rows)


def _interrupted(
    exc: BaseException, table: pd.DataFrame, done: int, total: int, ckpt: Path | None
) -> SweepInterrupted:
    """The error of a run stopped by ``exc``, holding the rows done so far (and where they are
    kept, to resume from)."""
    where = f"; they are in {ckpt} and the same sweep resumes from there" if ckpt is not None else ""
    return SweepInterrupted(
        f"sweep interrupted ({type(exc).__name__}: {exc}) after {done} of {total} rows{where}", table
    )


def _close(bar: Any, handle: IO[str] | None, client: Any) -> None:
    """End a run, however it ended: the progress bar, the checkpoint file, and the Dask client
    it opened itself (``None``: one it was given stays open)."""
    bar.close()
    if handle is not None:
        handle.close()
    if client is not None:
        with contextlib.suppress(Exception):  # the cluster may be gone
            client.close(timeout=2)


def sweep(
    calc: Any,
    grid: Mapping[str, Any],
    variants: Sequence[VariantLike] = (),
    *,
    baseline: bool = True,
    **options: Any,
) -> pd.DataFrame:
    """Sweep ``calc`` over ``grid`` (× the baseline and each variant) into a tidy DataFrame.

    ``grid`` and ``variants`` are checked by :func:`~rulesbook.sweeps.plan.plan_sweep`;
    ``options`` are those of :func:`run_plan` (``executor``, ``workers``, ``scheduler``,
    ``budget``, ``checkpoint``, ``progress`` — off unless asked for — ...).
    """
    options.setdefault("progress", False)
    return run_plan(plan_sweep(calc, grid, variants, baseline=baseline), **options)
