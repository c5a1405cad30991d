"""Army lists on the command line: ``rulesbook roster show FILE [--json]`` — an army list as the
rule system reading it sees it: the units with the keys the calculators take (``faction=FILE
attacker=KEY``), their models, weapons and points, and everything the system did not understand
(listed, never dropped). A file that cannot be read is one line and exit code 2. (A system may
bring commands of its own on army lists: Warhammer 40,000's ``rulesbook matchup``.)

Example:
    >>> from click.testing import CliRunner
    >>> from rulesbook.cli import cli
    >>> out = CliRunner().invoke(cli, ["roster", "show", "tests/rosters/data/ork-patrol.rosz"])
    >>> out.exit_code, out.output.splitlines()[2]
    (0, '  boyz-mob — Boyz Mob: 10 models, 85 pts')
"""

from __future__ import annotations

import click

from rulesbook.cli.output import echo, emit_json, fail
from rulesbook.data import DataFileError
from rulesbook.errors import InputError

__all__ = ["register", "roster_group"]


@click.group("roster")
def roster_group() -> None:
    """Army lists from BattleScribe (.ros, .rosz) and New Recruit (.json)."""


@roster_group.command("show")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the roster as JSON.")
def show_cmd(file: str, as_json: bool) -> None:
    """List FILE's units (their keys for faction=FILE attacker=KEY), weapons, points and what
    was not understood."""
    from rulesbook.api.rosters import roster

    try:
        army = roster(file)
    except (DataFileError, InputError) as exc:
        fail(str(exc))
    if as_json:
        emit_json(army.to_json())
    else:
        echo(str(army))


def register(group: click.Group) -> None:
    """Add ``roster`` to the ``rulesbook`` click group."""
    group.add_command(roster_group)
