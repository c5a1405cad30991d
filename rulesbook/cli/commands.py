"""The ``rulesbook`` command line, generated from the registry.

Commands::

    rulesbook list [--json]                      systems, rules, calculators, interpretations
    rulesbook rule ID [--json]                   a rule's text, citation, code, calculators
    rulesbook calc ID key=value ... [--json]     run a calculator (``rulesbook calc ID --help``)
    rulesbook variants / compare / sweep         designer what-ifs (:mod:`rulesbook.cli.whatif`)
    rulesbook solve / sensitivity / matrix       designer analysis (:mod:`rulesbook.cli.design`)
    rulesbook parameters [SYSTEM] [--json]       every parameter and reading a variant can change
    rulesbook roster show FILE [--json]          an army list's units, weapons and points
    rulesbook interpretations [SYSTEM] [--json]  the interpretations register
    rulesbook serve [--port N] [--site-dir DIR]  the site with live calculators

Bad input exits with code 2 and one line on stderr naming the field and what is allowed.
The start-up path imports neither Panel nor Jupyter.

Example:
    >>> from click.testing import CliRunner
    >>> out = CliRunner().invoke(cli, ["calc", "scrollhammer.morale-check", "ld=7", "--json"])
    >>> out.exit_code, '"p_pass_exact": "7/12"' in out.output
    (0, True)
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from rulesbook.cli.army import register as register_army
from rulesbook.cli.design import register as register_design
from rulesbook.cli.output import RecordingGroup, echo, emit_json, fail, styled
from rulesbook.cli.whatif import register as register_whatif
from rulesbook.data import DataFileError
from rulesbook.errors import InputError, RulesbookError, quote
from rulesbook.present import terminal_text
from rulesbook.present.answers import AnswerView, answer_text, rule_text
from rulesbook.records import Interpretation, System
from rulesbook.registry import registry
from rulesbook.variants import (
    Variant,
    added_entries,
    find_calculator,
    resolve_variant,
    run_assignments,
    variant_calculator,
)

__all__ = ["cli", "main"]


@click.group(cls=RecordingGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulesbook")
def cli() -> None:
    """Executable, exact and explained tabletop wargame rules."""


# -- list ---------------------------------------------------------------------------------------


def _source_title(system: System) -> str:
    """The title of a system's source document as a reader knows it (its ``source.yaml``), else
    the file name its ``rules.yaml`` gives."""
    from rulesbook.data import DataFileError
    from rulesbook.index import source

    try:
        return source(system.id).title
    except DataFileError:
        return system.source


def _system_json(system: System) -> dict[str, Any]:
    reg = registry()
    return {
        "id": system.id,
        "title": system.title,
        "version": system.version,
        "source": system.source,
        "source_title": _source_title(system),
        "rules": [{"id": r.id, "title": r.title} for r in reg.rules_for_system(system.id)],
        "calculators": [c.declaration() for c in reg.calculators_for_system(system.id)],
        "interpretations": [
            {"id": i.id, "question": i.question} for i in reg.interpretations_for_system(system.id)
        ],
    }


@cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_cmd(as_json: bool) -> None:
    """List systems with their rules, calculators and interpretations."""
    reg = registry()
    systems = [_system_json(s) for s in reg.systems.values()]
    if as_json:
        emit_json({"systems": systems})
        return
    for s in systems:
        echo(f"{s['id']}  {s['title']} (version {s['version']})")
        echo(f"  source: {s['source_title']}")
        for kind in ("calculators", "rules", "interpretations"):
            if s[kind]:
                echo(f"  {kind}:")
                for item in s[kind]:
                    label = item.get("title") or item.get("question", "")
                    echo(f"    {item['id']:<52} {terminal_text(label)}")
        echo()


# -- rule ----------------------------------------------------------------------------------------


def _interp_text(i: Interpretation) -> str:
    """One register entry as plain text (its Markdown rendered by :func:`terminal_text`)."""
    md = terminal_text
    lines = [f"{i.id}", f"  Q: {md(i.question)}", f"  default: {md(i.option(i.default).label)} ({i.default})"]
    lines.append(textwrap.fill(md(i.why), 96, initial_indent="  why: ", subsequent_indent="       "))
    for alt in i.alternatives:
        lines.append(
            f"  alternative: {md(alt.label)} ({alt.key}){' — ' + md(alt.description) if alt.description else ''}"
        )
    return "\n".join(lines)


@cli.command("rule")
@click.argument("rule_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rule_cmd(rule_id: str, as_json: bool) -> None:
    """Show a rule: its text in our words, citation, code, calculators and interpretations."""
    from rulesbook.api import rule_view  # only this command reads the cases and test index
    from rulesbook.index import rule_info

    try:
        info = rule_info(rule_id)
    except InputError as exc:
        fail(str(exc))
    data = info.to_json()
    if as_json:
        emit_json(data)
        return
    click.echo(rule_text(rule_view(info), styled()))  # safe: rule_text drops control characters


# -- interpretations ------------------------------------------------------------------------------


@cli.command("interpretations")
@click.argument("system", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def interpretations_cmd(system: str | None, as_json: bool) -> None:
    """The interpretations register: every gap or ambiguity, the default and the alternatives."""
    reg = registry()
    if system is not None:
        try:
            reg.system(system)
        except InputError as exc:
            fail(str(exc))
    items = [i for i in reg.interpretations.values() if system is None or i.system == system]
    if as_json:
        emit_json(
            [
                {
                    "id": i.id,
                    "question": i.question,
                    "default": i.default,
                    "why": i.why,
                    "options": [
                        {"key": o.key, "label": o.label, "description": o.description} for o in i.options
                    ],
                    "rules": list(i.rules),
                }
                for i in items
            ]
        )
        return
    echo("\n\n".join(_interp_text(i) for i in items))


# -- calc ----------------------------------------------------------------------------------------


@cli.command(
    "calc",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    add_help_option=False,
)
@click.argument("calc_id", required=False)
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("-h", "--help", "want_help", is_flag=True, help="Show the calculator's inputs.")
def calc_cmd(calc_id: str | None, assignments: Sequence[str], as_json: bool, want_help: bool) -> None:
    """Run calculator CALC_ID with key=value inputs (booleans true/false, lists comma-separated).

    `rulesbook calc ID --help` lists the calculator's inputs; `rulesbook list` lists the IDs.
    `variant=NAME` or `variant=PATH.yaml` runs it under a designer variant (repeat to compose;
    `rulesbook variants` lists the shipped ones).
    """
    # Only the calculator's own system is loaded (the start-up path); an unknown ID falls
    # back to the full registry so the "did you mean" hint sees every calculator.
    reg = registry(calc_id.partition(".")[0] if calc_id else None)
    if calc_id is not None and calc_id not in reg.calculators:
        reg = registry()
    if calc_id is None:
        if want_help:
            echo(click.get_current_context().get_help())
            echo("\nCalculators: " + ", ".join(reg.calculators))
            return
        fail("calculator: missing ID; one of " + ", ".join(reg.calculators))
    try:
        calc = (
            reg.calculator(calc_id)
            if calc_id in reg.calculators
            else find_calculator(calc_id, _variant_of(assignments))
        )
    except InputError as exc:
        fail(str(exc))
    if want_help:  # with variant=NAME: what that variant changes, and the names it adds
        try:
            added, changes = variant_help(calc, assignments)
        except InputError as exc:
            fail(str(exc))
        click.echo(terminal_text(changes + calc.help_text(added), styled()))  # safe: drops control characters
        return
    for word in assignments:
        if word.startswith("-"):
            fail(
                f"arguments: unknown option {quote(word)}; inputs are given as key=value, options are --json and --help"
            )
    try:
        checked, result, variant = run_assignments(calc, list(assignments))
    except InputError as exc:
        fail(str(exc))
    except RulesbookError as exc:
        fail(str(exc))
    if variant is not None:
        calc = variant_calculator(calc, variant)  # (its inputs with the ones the variant adds)
    if as_json:
        emit_json(calc.answer_json(checked, result, variant.name if variant else None))
    else:
        named_variant = (variant.name, variant.title) if variant is not None else None
        shown = AnswerView(calc.id, calc.title, calc.outputs, result, variant=named_variant)
        click.echo(answer_text(shown, styled()))  # safe for the terminal; renders the explanation's Markdown


def _variant_of(words: Sequence[str]) -> Variant | None:
    """The variant ``variant=NAME`` words name (composed), or ``None``."""
    names = [w.partition("=")[2].strip() for w in words if w.partition("=")[0].strip() == "variant"]
    return resolve_variant(names) if names and all(names) else None


def variant_help(calc: Any, words: Sequence[str]) -> tuple[dict[str, tuple[str, ...]], str]:
    """For ``calc ID --help variant=NAME``: the names the variants among ``key=value`` words
    (composed) add to ``calc``'s inputs, and the lines saying what they change (the inputs'
    texts describe the published rules). Nothing without a variant."""
    names = [w.partition("=")[2].strip() for w in words if w.partition("=")[0].strip() == "variant"]
    if not names:
        return {}, ""
    variant = resolve_variant(names)
    variant_calculator(calc, variant)  # a variant of this calculator's system
    lines = [f"Under variant {variant.name} ({variant.title}); the texts below describe the published rules:"]
    lines += [f"  {line}" for line in variant.summary()] or ["  (it changes nothing)"]
    return added_entries(calc, variant), "\n".join(lines) + "\n\n"


register_whatif(cli)  # variants, compare, sweep (rulesbook.cli.whatif)
register_design(cli)  # solve, sensitivity, matrix, parameters (rulesbook.cli.design)
register_army(cli)  # roster show (rulesbook.cli.army); the systems' own commands: RecordingGroup


# -- serve ---------------------------------------------------------------------------------------


@cli.command("serve")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="TCP port.")
@click.option("--host", default="localhost", show_default=True, help="Address to listen on.")
@click.option(
    "--no-build", is_flag=True, help="Serve the site already built in --site-dir without rebuilding it."
)
@click.option(
    "--site-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder the site is built into [default: a per-user cache folder, e.g. ~/.cache/rulesbook/site-…].",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="Worker processes computing the answers [default: one more than the cores].",
)
@click.option(
    "--processes",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Server processes sharing the port (each builds and serves its own players' pages).",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(0.5, 600),
    default=10.0,
    show_default=True,
    help="Seconds one answer may take before it is stopped with a message.",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Also answer requests addressed to NAME (repeatable); localhost, 127.0.0.1, [::1] and "
    "--host are always allowed, every other Host is refused.",
)
@click.option(
    "--variants",
    "variants_dirs",
    multiple=True,
    metavar="DIR",
    type=click.Path(exists=True, file_okay=False),
    help="Also offer the variants (.yaml, .py) in DIR by name (repeatable; as $RULESBOOK_VARIANTS_DIR). "
    "A page or an API request picks a variant only by its name, never by a path.",
)
def serve_cmd(
    port: int,
    host: str,
    no_build: bool,
    site_dir: str | None,
    workers: int | None,
    processes: int,
    time_limit: float,
    allow_hosts: tuple[str, ...],
    variants_dirs: tuple[str, ...],
) -> None:
    """Build the rulebook site and serve it with the live calculators (offline).

    The site is built into a per-user cache folder (never into the working directory) unless
    --site-dir names a folder; a folder holding other files is refused, as a build empties it.
    """
    serve = _front_end("serve")
    try:
        serve(
            port=port,
            host=host,
            build=not no_build,
            site_dir=site_dir,
            workers=workers,
            time_limit=time_limit,
            processes=processes,
            allow_hosts=allow_hosts,
            variants_dirs=variants_dirs,
        )
    except InputError as exc:
        fail(str(exc))


def _front_end(name: str) -> Any:
    """The front-end function registered as ``name`` (:func:`rulesbook.api.front_end`), loaded only now."""
    from rulesbook.api import front_end

    try:
        return front_end(name)
    except RulesbookError as exc:
        fail(str(exc))


class _ClosedOutput(io.TextIOBase):
    """Standard output when the command was started with it closed (``>&-``): writing to it is
    the one-line error of :func:`main`, as for a full disk or a closed pipe."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _output_failed(exc: OSError) -> NoReturn:
    """Standard output could not be written (a full disk, a closed pipe or descriptor): one line
    on stderr and exit 2, and nothing more at interpreter exit (its buffer goes to devnull)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.stdout = _ClosedOutput()
    reason = exc.strerror or type(exc).__name__
    fail(f"output: cannot write to standard output ({reason.lower()})")


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point: click usage errors become one line and exit code 2, and so
    does an output that cannot be written (a closed standard output, a full disk, a closed pipe)."""
    if sys.stdout is None:  # started with standard output closed
        sys.stdout = _ClosedOutput()
    try:
        _main(argv)
        sys.stdout.flush()
    except OSError as exc:
        if exc.errno not in (errno.EPIPE, errno.ENOSPC, errno.EBADF, errno.EIO, errno.EDQUOT):
            raise
        _output_failed(exc)


def _main(argv: Sequence[str] | None) -> None:
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="rulesbook", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:
        echo(exc.ctx.get_help() if exc.ctx else str(exc))
    except click.UsageError as exc:
        fail(exc.format_message().replace("\n", " "))
    except click.exceptions.Abort:
        fail("aborted")
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except (InputError, DataFileError) as exc:  # (a data file: its one line names file, line, field)
        fail(str(exc))


if __name__ == "__main__":  # pragma: no cover
    main()
