"""Running a sweep's chunks on a Dask distributed cluster — and what happens when it fails.

* An address nobody answers at is refused within :data:`CONNECT_SECONDS` (a plain TCP connection
  is tried before Dask is even imported), in one line.
* When the cluster has no worker left (all lost, or none joined yet) for :data:`LOST_GRACE`
  seconds, the sweep says so and, per ``on_lost``, **waits** for workers to come back (saying
  when they do) or **stops**. Either way every finished row is kept: the caller writes each one
  to the checkpoint as it arrives, and a stopped sweep raises :class:`WorkersLost`, which the
  sweep turns into :class:`~rulesbook.sweeps.run.SweepInterrupted` holding the rows.
* A lost scheduler stops the sweep the same way.

Example:
    >>> parse_tcp("tcp://10.0.0.5:8786"), parse_tcp("tls://x:1"), parse_tcp("[::1]:8786")
    (('10.0.0.5', 8786), None, ('::1', 8786))
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import re
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from rulesbook.errors import InputError, RulesbookError, quote
from rulesbook.sweeps.plan import evaluate

__all__ = ["CONNECT_SECONDS", "LOST_GRACE", "OnLost", "WorkersLost", "connect", "parse_tcp", "run_dask"]

type OnLost = Literal["wait", "stop"]
type Done = Callable[[list[tuple[int, dict[str, Any]]]], None]

CONNECT_SECONDS = 4.0
"""How long a scheduler has to answer before it is refused (the whole refusal stays under 5 s)."""
LOST_GRACE = 20.0
"""Seconds without any worker before the sweep says so (and stops, if asked to)."""
POLL = 1.0
"""Seconds between looks at the cluster while no result arrives."""
TICK = 0.05
"""Seconds between looks for finished results."""
_TCP = re.compile(r"^(?:tcp://)?\[?([A-Za-z0-9.\-_:]+?)\]?:(\d{1,5})/?$")


class WorkersLost(RulesbookError):
    """The cluster lost every worker (or its scheduler) and the sweep was asked to stop."""


def parse_tcp(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a TCP scheduler address (``tcp://host:port`` or ``host:port``);
    ``None`` for other protocols (``tls://``, ``inproc://``, ``ucx://``), checked by Dask itself."""
    if "://" in address and not address.startswith("tcp://"):
        return None
    match = _TCP.match(address.strip())
    if not match or not 0 < int(match[2]) < 65536:
        raise InputError("scheduler", f"expected an address such as tcp://host:8786, got {quote(address)}")
    return match[1], int(match[2])


def _distributed() -> Any:
    try:
        return importlib.import_module("distributed")
    except ImportError as exc:  # pragma: no cover - only without the [sweeps] extra
        raise InputError(
            "scheduler", f"Dask distributed is not installed ({exc.name}); pip install 'rulesbook[sweeps]'"
        ) from None


def connect(scheduler: Any) -> tuple[Any, bool]:
    """A ``distributed.Client`` for ``scheduler`` (an address, or a client given as it is) and
    whether this function opened it (and so closes it). Nobody answering is one line."""
    if not isinstance(scheduler, str):
        return scheduler, False
    started = time.monotonic()
    tcp = parse_tcp(scheduler)
    if tcp is not None:
        try:
            socket.create_connection(tcp, timeout=CONNECT_SECONDS).close()
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise InputError(
                "scheduler", f"no Dask scheduler answers at {quote(scheduler)} ({reason.lower()})"
            ) from None
    dist = _distributed()
    left = max(1.0, CONNECT_SECONDS - (time.monotonic() - started))
    problem = _probe(scheduler, left)
    if problem is not None:
        raise InputError("scheduler", f"no Dask scheduler answers at {quote(scheduler)} ({problem})")
    try:
        return dist.Client(scheduler, timeout=f"{max(1.0, left):.1f}s", set_as_default=False), True
    except (OSError, TimeoutError) as exc:
        raise InputError(
            "scheduler", f"no Dask scheduler answers at {quote(scheduler)} ({type(exc).__name__})"
        ) from None


def _probe(address: str, seconds: float) -> str | None:
    """``None`` when a Dask scheduler at ``address`` completes Dask's handshake within ``seconds``,
    else what went wrong in a few words. It runs in a thread of its own with its own event loop
    (a notebook's loop is already running), so a server that answers but speaks no Dask, or never
    finishes the handshake, is refused on time; no Dask client is made for it."""
    comm: Any = importlib.import_module("distributed.comm")
    found: list[str | None] = []

    async def handshake() -> None:
        link = await comm.connect(address, timeout=seconds)
        await link.close()

    def run() -> None:
        try:
            asyncio.run(asyncio.wait_for(handshake(), seconds))
            found.append(None)
        except (OSError, TimeoutError):
            found.append("no answer")
        except BaseException as exc:  # anything else: not a Dask scheduler at all
            found.append(f"{type(exc).__name__}: not a Dask scheduler")

    thread = threading.Thread(target=run, name="rulesbook-dask-probe", daemon=True)
    thread.start()
    thread.join(seconds + 0.5)
    return found[0] if found else "no answer in time"


def _workers(client: Any) -> int:
    """Workers the scheduler knows now (a lost scheduler raises :class:`WorkersLost`)."""
    try:
        return len(client.nthreads())
    except Exception as exc:  # the scheduler is gone: Dask raises OSError or its CommClosedError
        raise WorkersLost(f"the Dask scheduler stopped answering ({type(exc).__name__})") from None


def run_dask(
    calc_id: str,
    chunks: Sequence[Any],
    scheduler: Any,
    done: Done,
    *,
    on_lost: OnLost = "wait",
    notify: Callable[[str], None] = lambda _message: None,
    grace: float = LOST_GRACE,
    kept: Callable[[], str] = lambda: "",
    lacking: Any = None,
) -> None:
    """Evaluate ``chunks`` on the cluster, calling ``done`` with each finished chunk's rows
    (``lacking``: :meth:`~rulesbook.sweeps.plan.SweepPlan.lacking`).

    ``notify`` hears about lost and returning workers; ``kept()`` says where the finished rows
    are (for those messages). With ``on_lost="stop"``, a cluster without workers for ``grace``
    seconds raises :class:`WorkersLost`.
    """
    dist = _distributed()
    client, own = connect(scheduler)
    try:
        futures = [client.submit(evaluate, calc_id, chunk, lacking, pure=False) for chunk in chunks]
        waiting = dist.as_completed(futures, loop=client.loop)
        since: float | None = None  # when the cluster was last seen without workers
        looked = time.monotonic()
        said = False
        try:
            while not waiting.is_empty():
                finished = waiting.next_batch(block=False)
                for future in finished:
                    done(future.result())
                now = time.monotonic()
                if finished:
                    if said:  # results again: the workers came back before the next look
                        notify(_back(_workers(client)))
                        said = False
                    since, looked = None, now
                    continue
                time.sleep(TICK)
                if now - looked < POLL:
                    continue
                looked = now
                workers = _workers(client)
                if workers:
                    if said:
                        notify(_back(workers))
                        said = False
                    since = None
                    continue
                since = now if since is None else since
                if now - since < grace or said:
                    continue
                where = kept()
                lost = f"no Dask worker left at {_address(scheduler, client)} for {grace:.0f} s"
                if on_lost == "stop":
                    raise WorkersLost(f"{lost}; stopped (--on-lost-workers stop){where}")
                notify(f"sweep: {lost}; waiting for workers to come back{where} (Ctrl-C stops)")
                said = True
        except BaseException:
            with contextlib.suppress(Exception):  # the scheduler may be gone too
                client.cancel([f for f in futures if not f.done()])
            raise
    finally:
        if own:
            client.close(timeout=2)


def _back(workers: int) -> str:
    return f"sweep: {workers} Dask worker{'s' if workers != 1 else ''} back; continuing"


def _address(scheduler: Any, client: Any) -> str:
    if isinstance(scheduler, str):
        return scheduler
    scheduler_comm = getattr(client, "scheduler", None)
    return str(getattr(scheduler_comm, "address", "") or "the scheduler")
