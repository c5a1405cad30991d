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
import sys
from typing import Any, NoReturn

import click

from rulesbook.present import json_text, plain

__all__ = ["echo", "emit_json", "fail", "styled"]


def echo(text: str = "", err: bool = False) -> None:
    """Print a line with every terminal control character dropped (:func:`~rulesbook.present.plain`)."""
    click.echo(plain(text), err=err)


def styled() -> bool:
    """Bold and italic for Markdown emphasis: only on a terminal, and not when ``NO_COLOR`` is set."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def fail(message: str, code: int = 2) -> NoReturn:
    """The one-line error on stderr, then exit (code 2: bad input)."""
    echo(f"rulesbook: error: {message}", err=True)
    sys.exit(code)


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON (:func:`rulesbook.present.json_text`)."""
    click.echo(json_text(data))
