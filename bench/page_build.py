"""How much CPU one session of each live page costs to build, and how many Bokeh models it holds.

Builds each page's document exactly as ``rulesbook serve`` does for a new session (the same app
factories, Panel's ``Application.initialize_document`` on a fresh Bokeh ``Document``), in this
process, with a stand-in compute pool that never answers (the first answer is computed in a
worker on the server, so it is not part of the build). Prints, per page, the median CPU time of
``--repeat`` builds (after two warm-up builds) and the number of models in the document, then
the kinds of model of the largest page::

    .venv/bin/python bench/page_build.py                       # every calculator and app page
    .venv/bin/python bench/page_build.py calc/wh40k.attack     # only these paths
    .venv/bin/python bench/page_build.py --profile calc/wh40k.attack   # + cProfile, top 40

Run it under ``flock /tmp/bench.lock`` and note ``uptime``: CPU time still grows with the
machine's load (caches shared with other processes).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import cProfile
import pstats
import statistics
import sys
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


class _NoAnswers:
    """A compute pool that takes every job and never answers it."""

    def submit(self, func: Any, *args: Any) -> Any:
        from widgets.server.workers import Job

        job = Job((func, args))
        job.future = Future()
        return job


def _cancel_answer_loops() -> None:
    """Cancel the answer loops the builds started (they wait on the pool that never answers);
    left running after the ``--profile`` builds, they kept ``asyncio.run`` from ever returning."""
    for task in asyncio.all_tasks() - {asyncio.current_task()}:
        task.cancel()


async def _measure(args: argparse.Namespace) -> None:
    from bokeh.document import Document
    from panel.io.application import build_applications

    from widgets.server.routes import app_factories
    from widgets.server.sessions import without_development_checks

    without_development_checks()  # as rulesbook serve does (figures before 02:05 UTC had them on)
    factories = app_factories(_NoAnswers())  # type: ignore[arg-type]
    paths = args.paths or sorted(factories)
    apps = build_applications({f"/{path}": factories[path] for path in paths})

    def build(path: str) -> Document:
        doc = Document()
        apps[f"/{path}"].initialize_document(doc)
        return doc

    largest: tuple[int, str, Document] | None = None
    print(f"{'page':<48} {'build CPU ms':>12} {'models':>7}")
    for path in paths:
        for _ in range(2):
            build(path)
        times = []
        for _ in range(args.repeat):
            start = time.process_time()
            doc = build(path)
            times.append((time.process_time() - start) * 1000)
        models = len(doc.models)
        print(f"{path:<48} {statistics.median(times):>12.1f} {models:>7}")
        if largest is None or models > largest[0]:
            largest = (models, path, doc)
        _cancel_answer_loops()
        await asyncio.sleep(0)
    if largest is not None:
        kinds = collections.Counter(type(m).__name__ for m in largest[2].models)
        print(f"\nmodels of {largest[1]}: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    if args.profile:
        for path in paths:
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(5):
                build(path)
            profile.disable()
            print(f"\n--- {path}, 5 builds")
            pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
            _cancel_answer_loops()
            await asyncio.sleep(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="page paths (calc/<id>, app/<name>); default all")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--profile", action="store_true")
    asyncio.run(_measure(parser.parse_args()))


if __name__ == "__main__":
    main()
