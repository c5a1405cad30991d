"""Shared test configuration: hypothesis profiles, the `covers` marker, the built static site."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
"""The whole suite (``scripts/test`` without paths, so ``.ci/run``; or ``$CI``): reproducible.
Every run draws the same examples (derandomized: a test's examples follow from its own code),
nothing is replayed from an example database of earlier runs, and no example has a time limit
(a busy machine makes a test slower, never red). A failure prints the blob that reproduces it."""
settings.register_profile("dev", max_examples=30, deadline=None)
"""A run of chosen tests: fresh random examples each time (finding what the fixed ones miss), and
failures remembered in ``.hypothesis/`` and replayed first."""
settings.load_profile(os.environ.get("RULESBOOK_HYPOTHESIS") or ("ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parents[1]


DATA_SYSTEMS = ROOT / "examples" / "systems"
"""The systems written in data that the published site of the tests carries beside the shipped
ones (``$RULESBOOK_SYSTEMS_DIR``): Skirmish, so that its pages compute in a real browser too."""


def with_data_systems(env: dict[str, str]) -> dict[str, str]:
    """``env`` whose ``$RULESBOOK_SYSTEMS_DIR`` also names :data:`DATA_SYSTEMS`."""
    known = [p for p in env.get("RULESBOOK_SYSTEMS_DIR", "").split(os.pathsep) if p]
    return {**env, "RULESBOOK_SYSTEMS_DIR": os.pathsep.join([*known, str(DATA_SYSTEMS)])}


def build_site(out: Path, *, static: bool) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of the project into ``out``: the static or the served flavour
    (the static one as ``RULESBOOK_SYSTEMS_DIR=examples/systems scripts/build-site`` builds it)."""
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "DISABLE_MKDOCS_2_WARNING": "true",
        "RULESBOOK_STATIC": "true" if static else "false",
    }
    if static:
        env = with_data_systems(env)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


def shared_build(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]
) -> Path:
    """A directory built once for the whole test run, however the run is split.

    ``scripts/test`` runs the suite as two pytest sessions (the rest on two xdist workers, then the
    browser tests), and each xdist worker is a session of its own: a plain session fixture would
    build the site up to three times. Here the first asker builds ``name`` under a file lock in a
    directory every session shares (``$RULESBOOK_TEST_SHARED``, set by ``scripts/test``; else the
    xdist run's common temporary directory, else this session's own), writes a ``.done`` marker,
    and everyone after reuses it. A failed build leaves no marker, so the next asker tries again.
    """
    shared = os.environ.get("RULESBOOK_TEST_SHARED")
    if shared:
        base = Path(shared)
    elif os.environ.get("PYTEST_XDIST_WORKER"):
        base = tmp_path_factory.getbasetemp().parent
    else:
        base = tmp_path_factory.getbasetemp()
    base.mkdir(parents=True, exist_ok=True)
    out = base / name
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (base / f"{name}.done").exists():
                if out.exists():
                    shutil.rmtree(out)
                out.mkdir()
                build(out)
                (base / f"{name}.done").touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return out


@pytest.fixture(scope="session")
def static_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The published (static) site's pages, built once per test session: what ``scripts/build-site``
    makes, but for its browser runtime (the ``live_runtime`` fixture)."""

    def build(out: Path) -> None:
        proc = build_site(out, static=True)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

    return shared_build(tmp_path_factory, "static-site", build)


@pytest.fixture(scope="session")
def served_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The served flavour of the site (what ``rulesbook serve`` builds), built once for the run:
    the site tests read it, the browser tests serve it (``rulesbook serve --no-build``)."""

    def build(out: Path) -> None:
        proc = build_site(out, static=False)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        (out / ".rulesbook-site").write_text("built by the tests\n", encoding="utf-8")

    return shared_build(tmp_path_factory, "served-site", build)


BROWSER_TESTS = ROOT / "tests" / "browser"


SLOWEST_BROWSER_MODULES = (
    "test_live_static_site.py",
    "test_house_rules.py",
    "test_tracker_at_the_table.py",
    "test_live_pages.py",
    "test_readable_pages.py",
    "test_static_site.py",
    "test_live_answers.py",
    "test_tracker_at_the_limits.py",
    "test_tracker_finds_the_game.py",
    "test_hostile_names.py",
    "test_site_browser.py",
    "test_jupyterlab.py",
)
"""The browser modules that take longest (the ``--durations`` of full runs), slowest first."""


def _browser_order(item: pytest.Item) -> int:
    name = item.path.name
    return (
        SLOWEST_BROWSER_MODULES.index(name)
        if name in SLOWEST_BROWSER_MODULES
        else len(SLOWEST_BROWSER_MODULES)
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last, their slowest modules first (otherwise in collected order).

    Their session-wide browser (Playwright's sync API) keeps an asyncio event loop running in the
    main thread until the session ends, so every test after them that starts a loop of its own
    (``asyncio.run``, tornado's test cases) failed with "cannot be called from a running event
    loop" in the full suite while passing alone. Slowest first: ``scripts/test`` hands the
    browser modules to its workers in this order (``--no-loadscope-reorder``), so no long module
    starts last and keeps one worker busy after the others have finished.
    """
    browser = [item for item in items if item.path.is_relative_to(BROWSER_TESTS)]
    if browser:
        rest = [item for item in items if not item.path.is_relative_to(BROWSER_TESTS)]
        items[:] = rest + sorted(browser, key=_browser_order)  # (a stable sort)


def _unavailable(reason: str) -> None:
    """Skip, or fail where the test command requires every test to run (``scripts/test``)."""
    if os.environ.get("RULESBOOK_REQUIRE_BROWSER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def live_runtime(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The published site's browser runtime (``live-runtime/``: Pyodide from the npm registry, the
    pinned wheels from PyPI, this checkout's app wheel, with the data systems of
    :data:`DATA_SYSTEMS` as the ``static_site`` has them), as ``scripts/build-site`` vendors it;
    downloads come from the per-user cache after the first run."""
    from rulesbook.site.runtime import RUNTIME_DIR, RuntimeUnavailable, vendor

    if shutil.which("node") is None:
        _unavailable("node is not installed (the Pyodide tests run the runtime in Node)")

    def build(out: Path) -> None:
        before = os.environ.get("RULESBOOK_SYSTEMS_DIR")
        os.environ["RULESBOOK_SYSTEMS_DIR"] = with_data_systems(dict(os.environ))["RULESBOOK_SYSTEMS_DIR"]
        try:
            vendor(out)
        finally:
            if before is None:
                del os.environ["RULESBOOK_SYSTEMS_DIR"]
            else:
                os.environ["RULESBOOK_SYSTEMS_DIR"] = before

    try:
        out = shared_build(tmp_path_factory, "live", build)
    except RuntimeUnavailable as exc:
        _unavailable(f"the browser runtime could not be vendored: {exc}")
    return out / RUNTIME_DIR
