"""ruff and mypy (strict on rulesbook/) are part of the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_check() -> None:
    out = _run("ruff", "check", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_format() -> None:
    out = _run("ruff", "format", "--check", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict() -> None:
    out = _run("mypy")
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_slowest_browser_modules_named_for_scheduling_exist() -> None:
    """``tests/conftest.py`` hands these out first; a renamed module would silently drop out."""
    from tests.conftest import BROWSER_TESTS, SLOWEST_BROWSER_MODULES

    assert [name for name in SLOWEST_BROWSER_MODULES if not (BROWSER_TESTS / name).is_file()] == []
