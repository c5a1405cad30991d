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
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from rulesbook.errors import did_you_mean
from rulesbook.present import json_text, plain
from rulesbook.registry import registry

__all__ = [
    "RecordingGroup",
    "command_line",
    "echo",
    "emit_json",
    "fail",
    "plot_option_checked",
    "progress_shown",
    "run_options",
    "styled",
    "warn",
    "write_plot",
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
    """The ``rulesbook`` group, keeping the words it was called with (for provenance), with the
    commands the systems bring (``SystemPackage(commands=...)``) beside its own: a name the core
    does not have, and the listing of ``--help``, look the systems up (so ``rulesbook calc ID``
    still loads only its own system); a core command keeps its name."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *registry().commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is None:
            command = registry().command(cmd_name)
            found = command if isinstance(command, click.Command) else None
        return found

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command is refused in one line that names the closest commands."""
        name = click.utils.make_str(args[0]) if args else ""
        if args and not name.startswith("-") and self.get_command(ctx, name) is None:
            commands = self.list_commands(ctx)
            hint = did_you_mean(name, commands, most=2, cutoff=0.6)
            ctx.fail(f"unknown command {name!r}{hint or '; commands: ' + ', '.join(commands)}")
        return super().resolve_command(ctx, args)

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


def run_options[F: Callable[..., Any]](what: str) -> Callable[[F], F]:
    """The options of a command that runs many answers on the sweep machinery (``sweep``,
    ``matchup``): ``--scheduler``, ``--workers``, ``--serial``, ``--max-seconds`` (``what`` names
    its work in the help) and ``--progress/--no-progress``."""
    options = (
        click.option(
            "--scheduler", help="Run on a Dask distributed cluster at this address (tcp://host:8786)."
        ),
        click.option(
            "--workers", type=click.IntRange(1, 512), help="Local worker processes (default: all cores)."
        ),
        click.option("--serial", is_flag=True, help="Run in this process only."),
        click.option(
            "--max-seconds",
            type=click.FloatRange(0),
            default=1800.0,
            show_default=True,
            help=f"Refuse {what} whose estimated work takes longer.",
        ),
        click.option(
            "--progress/--no-progress",
            default=None,
            help="A progress bar on a terminal; with --progress, a progress line every few seconds "
            "when stderr is not a terminal (a log, a pipe).",
        ),
    )

    def wrap(command: F) -> F:
        for option in reversed(options):
            command = option(command)
        return command

    return wrap


def progress_shown(progress: bool | None) -> Any:
    """The progress a run shows: a bar on a terminal (unless ``--no-progress``), lines through
    the notes with ``--progress`` when stderr is no terminal, else none."""
    terminal = sys.stderr.isatty()
    return (terminal if progress is None else progress) and ("bar" if terminal else "lines")


def write_plot(path: str, figure: Any) -> None:
    """Write a figure to ``path`` (checked by :func:`plot_option_checked`) in the format its name
    says (``.svg``, else ``.png``): a finished file or none, a failure one line."""
    from rulesbook.present.plots import save_figure
    from rulesbook.sweeps.output import write_file

    fmt = "svg" if Path(path).suffix.lower() == ".svg" else "png"

    def write(tmp: Path) -> None:
        save_figure(figure, tmp, fmt)

    write_file(path, write, "plot")
