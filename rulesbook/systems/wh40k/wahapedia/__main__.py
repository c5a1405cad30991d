"""``python -m rulesbook.systems.wh40k.wahapedia EXPORT_FOLDER FACTION_ID [-o FILE]``: import one
faction of a Wahapedia export (:func:`~rulesbook.systems.wh40k.wahapedia.importer.import_wahapedia`)
and write it as a faction file (:func:`~rulesbook.systems.wh40k.faction.file.faction_yaml`;
standard output without ``-o``). Its warnings go to standard error, one line each; a malformed
export or a bad argument is one line on standard error and exit code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from rulesbook.data import DataFileError
from rulesbook.errors import RulesbookError, quote
from rulesbook.systems.wh40k.faction.file import faction_yaml
from rulesbook.systems.wh40k.wahapedia.importer import import_wahapedia

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Import one faction of a Wahapedia export and write it as a faction file."""
    parser = argparse.ArgumentParser(
        prog="python -m rulesbook.systems.wh40k.wahapedia",
        description="Import one faction of a Wahapedia CSV export as a faction file for wh40k.datasheet-attack.",
    )
    parser.add_argument("export", type=Path, help="the folder of the export's .csv files")
    parser.add_argument("faction_id", help="the faction's ID in the export (faction_id column), e.g. DG")
    parser.add_argument("-o", "--output", type=Path, help="write the file here (default: standard output)")
    parser.add_argument("--key", help="the key of the rule IDs (default: the faction ID in lower case)")
    parser.add_argument("--name", help="the faction's name (default: the key)")
    args = parser.parse_args(argv)
    try:
        faction = import_wahapedia(args.export, args.faction_id, key=args.key, name=args.name)
    except (DataFileError, RulesbookError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    text = faction_yaml(faction)
    for line in faction.warnings:
        print(f"warning: {line}", file=sys.stderr)
    try:
        if args.output is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            args.output.write_text(text, encoding="utf-8")
    except OSError as exc:  # a missing folder, a full disk, a closed pipe: one line
        if args.output is None:  # (and nothing more at exit: the unwritten rest goes nowhere)
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        where = "standard output" if args.output is None else quote(str(args.output))
        print(f"error: cannot write {where}: {(exc.strerror or type(exc).__name__).lower()}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
