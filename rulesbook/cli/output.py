"""What every ``rulesbook`` command prints through: plain lines, JSON and the one-line error.

Text goes through :func:`rulesbook.present.plain` (terminal control characters dropped, so a
hostile name in a data file cannot drive the terminal); an error is one line on stderr,
``rulesbook: error: …``, and exit code 2.

Example:
    >>> from click.testing import CliRunner
    >>> from rulesbook.cli import cli
    >>> out = CliRunner().invoke(cli, ["calc", "scrollhammer.morale-check", "ld=99"])
    >>> out.exit_code, out.output.startswith("rulesbook: error: ld")
    (2, True)
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from rulesbook.present import json_text, plain

__all__ = [
    "RecordingGroup",
    "command_line",
    "echo",
    "emit_json",
    "fail",
    "plot_option_checked",
    "styled",
    "warn",
]


def echo(text: str = "", err: bool = False) -> None:
    """Print a line with every terminal control character dropped (:func:`~rulesbook.present.plain`)."""
    click.echo(plain(text), err=err)


def styled() -> bool:
    """Bold and italic for Markdown emphasis: only on a terminal, and not when ``NO_COLOR`` is set."""
    return sys.stdout is not None and sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def fail(message: str, code: int = 2) -> NoReturn:
    """The one-line error on stderr, then exit (code 2: bad input)."""
    echo(f"rulesbook: error: {message}", err=True)
    sys.exit(code)


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON (:func:`rulesbook.present.json_text`)."""
    click.echo(json_text(data))


def warn(message: str) -> None:
    """A one-line warning on stderr (``rulesbook: warning: …``); the command goes on."""
    echo(f"rulesbook: warning: {message}", err=True)


class RecordingGroup(click.Group):
    """The ``rulesbook`` group, keeping the words it was called with (for provenance)."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        ctx = super().make_context(info_name, list(args), parent=parent, **extra)
        ctx.meta["rulesbook.argv"] = list(args)
        return ctx


def command_line() -> str:
    """The command being run, as a shell line (``rulesbook sweep … --csv out.csv``)."""
    ctx = click.get_current_context(silent=True)
    words = [] if ctx is None else ctx.find_root().meta.get("rulesbook.argv", [])
    return shlex.join(["rulesbook", *words])


def plot_option_checked(path: str) -> Path:
    """A ``--plot`` file name checked before any work: ``.png`` or ``.svg``, in a folder that
    exists (a device such as ``/dev/null`` is accepted as it is)."""
    from rulesbook.sweeps.output import check_output

    return check_output(path, (".png", ".svg"), "plot")
