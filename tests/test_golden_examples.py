"""Every calculator's worked examples answer on the CLI exactly as recorded before the
consolidation of rule choices (issue 9): refactorings may not change a number or a key. Keys
added since (new optional inputs, new result keys) are allowed, as the public contract says."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulesbook.cli import cli
from tests.golden.record import GOLDEN

RECORDED: dict[str, dict[str, object]] = json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_cli_example_unchanged(name: str) -> None:
    case = RECORDED[name]
    res = CliRunner().invoke(cli, [*case["args"], "--json"])  # type: ignore[misc]
    assert res.exit_code == case["exit_code"], res.output
    got = json.loads(res.output) if res.exit_code == 0 else res.output
    assert contains(got, case["json"])


def contains(got: object, recorded: object) -> bool:
    """``got`` answers as recorded: every recorded key is there with the same value (lists and
    other values equal). Keys added since (new inputs, new result keys: the contract allows
    adding) do not count; a key removed, renamed or changed does.

    >>> contains({"a": 1, "b": {"c": 2, "new": 0}}, {"b": {"c": 2}, "a": 1})
    True
    >>> contains({"a": 1}, {"a": 1, "b": 2}), contains({"a": [1, 2]}, {"a": [1]})
    (False, False)
    """
    if isinstance(recorded, dict):
        return isinstance(got, dict) and all(k in got and contains(got[k], v) for k, v in recorded.items())
    return got == recorded


def test_every_calculator_example_is_recorded() -> None:
    from rulesbook.registry import registry

    expected = {f"{c.id}#{n}" for c in registry().calculators.values() for n in range(len(c.examples))}
    assert expected <= set(RECORDED)
