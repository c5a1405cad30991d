"""Record the CLI's answer to every worked example of every calculator (text and --json).

Run ``.venv/bin/python tests/golden/record.py`` to refresh ``cli_examples.json`` only when a
change of numbers is intended; ``tests/test_golden_examples.py`` compares the CLI with it so a
refactoring cannot change an answer silently. ``record.py --new`` records only the examples not
in the file yet (a new calculator's, a new system's) and leaves every recorded answer as it is.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from rulesbook.cli import cli
from rulesbook.registry import registry

HERE = Path(__file__).parent
GOLDEN = HERE / "cli_examples.json"


def example_args(calc_id: str, example: dict[str, str]) -> list[str]:
    return ["calc", calc_id, *(f"{k}={v}" for k, v in example.items())]


def answers(skip: Collection[str] = ()) -> dict[str, Any]:
    """Every worked example's answer, by ``ID#n``, but those named in ``skip``."""
    runner = CliRunner()
    out: dict[str, Any] = {}
    for calc in registry().calculators.values():
        for n, example in enumerate(calc.examples):
            if f"{calc.id}#{n}" in skip:
                continue
            args = example_args(calc.id, dict(example))
            res = runner.invoke(cli, [*args, "--json"])
            out[f"{calc.id}#{n}"] = {
                "args": args,
                "exit_code": res.exit_code,
                "json": json.loads(res.output) if res.exit_code == 0 else res.output,
            }
    return out


def main(argv: list[str]) -> None:
    recorded: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8")) if "--new" in argv else {}
    found = answers(skip=recorded)
    GOLDEN.write_text(
        json.dumps({**recorded, **found}, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {GOLDEN} ({len(found)} answers recorded)")


if __name__ == "__main__":
    main(sys.argv[1:])
