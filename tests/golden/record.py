"""Record the CLI's answer to every worked example of every calculator (text and --json).

Run ``.venv/bin/python tests/golden/record.py`` to refresh ``cli_examples.json`` only when a
change of numbers is intended; ``tests/test_golden_examples.py`` compares the CLI with it so a
refactoring cannot change an answer silently.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from rulesbook.cli import cli
from rulesbook.registry import registry

HERE = Path(__file__).parent
GOLDEN = HERE / "cli_examples.json"


def example_args(calc_id: str, example: dict[str, str]) -> list[str]:
    return ["calc", calc_id, *(f"{k}={v}" for k, v in example.items())]


def answers() -> dict[str, Any]:
    runner = CliRunner()
    out: dict[str, Any] = {}
    for calc in registry().calculators.values():
        for n, example in enumerate(calc.examples):
            args = example_args(calc.id, dict(example))
            res = runner.invoke(cli, [*args, "--json"])
            out[f"{calc.id}#{n}"] = {
                "args": args,
                "exit_code": res.exit_code,
                "json": json.loads(res.output) if res.exit_code == 0 else res.output,
            }
    return out


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(answers(), indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"wrote {GOLDEN}")
