"""A designer's variant file run through every calculator of its system (issue 34, part 2).

For each shipped example of ``examples/designer/`` that adds entries to a test of its system, the
calculators its entries should reach are worked out here from the declarations alone (a
calculator's declared tests, each with the tests it extends, against the tests the file's
``add.tests`` names; ``tests/test_declared_tests_reach.py`` checks the declared tests are the
ones rolled). Every worked example of every calculator of the system then answers under the
variant: where the entries reach, switching the added input on (or, with no input, the variant
itself) changes some answer; elsewhere the answers are the published ones and the added input is
refused. With all the examples in ``$RULESBOOK_VARIANTS_DIR``, ``variant=NAME`` finds each.
"""

from __future__ import annotations

import itertools
import json
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulesbook.cli import cli
from rulesbook.data import load_data_file
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.sweeps import sweep
from rulesbook.variants import resolve_variant, run_with_variant

EXAMPLES = Path(__file__).parents[1] / "examples" / "designer"
PROBES = load_data_file(Path(__file__).with_name("variant_reach_probes.yaml"))
"""Inputs beyond the worked examples (``scrollhammer.fall-back`` starting at the Break test)."""
REG = registry()
CHANGING = sorted(
    p.name for p in EXAMPLES.glob("*.yaml") if (load_data_file(p).get("add") or {}).get("tests")
)


def _reached(system: str, changed: set[str]) -> set[str]:
    tests = REG.mechanics[system].tests()

    def chain(key: str) -> set[str]:
        out = set()
        while key:
            out.add(key)
            key = tests[key].extends if key in tests else ""
        return out

    return {c.id for c in REG.calculators_for_system(system) if any(chain(t) & changed for t in c.tests)}


def _values(result: Any) -> dict[str, Any]:
    return {k: v for k, v in result.values.items() if k.endswith("_exact") or isinstance(v, (str, int))}


@pytest.mark.parametrize("name", CHANGING)
def test_the_variant_reaches_every_calculator_it_should(name: str) -> None:
    raw = load_data_file(EXAMPLES / name)
    system, added = raw["system"], raw["add"]
    switches = [k for k, d in (added.get("inputs") or {}).items() if d.get("kind") == "boolean"]
    variant = resolve_variant(str(EXAMPLES / name))
    reached = _reached(system, set(added["tests"]))
    assert reached or not set(added["tests"]) & set(REG.mechanics[system].tests()), name  # a new test only
    for calc in REG.calculators_for_system(system):
        changed = False
        for example in [*calc.examples, *PROBES.get(calc.id, [])]:
            inputs = dict(example)
            base = _values(run_with_variant(calc, None, **inputs))
            off = run_with_variant(calc, variant, **inputs)
            assert off.explanation, (calc.id, example)
            if switches:
                assert _values(off) == base, (calc.id, example)  # the switch is off by default
                if calc.id in reached:
                    on = run_with_variant(calc, variant, **inputs, **dict.fromkeys(switches, True))
                    changed |= _values(on) != base
                else:
                    with pytest.raises(InputError, match=f"{switches[0]}: unknown input"):
                        run_with_variant(calc, variant, **inputs, **{switches[0]: True})
            else:
                changed |= _values(off) != base
                if calc.id not in reached:
                    assert _values(off) == base, (calc.id, example)
        assert changed == (calc.id in reached), (name, calc.id)


def test_each_example_is_found_by_name_in_your_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mine"
    shutil.copytree(EXAMPLES, folder)
    monkeypatch.setenv("RULESBOOK_VARIANTS_DIR", str(folder))
    runs = {
        "any-double": ["scrollhammer.morale-check", "ld=7"],
        "standard-reroll": ["scrollhammer.break-test", "ld=8", "lost_by=2", "has_standard=true"],
        "character-near": ["wh40k.battle-shock", "leadership=7", "character_within_6=true"],
        "terror-test": ["scrollhammer.terror-test", "ld=7"],
    }
    for name, (calc_id, *inputs) in runs.items():
        res = CliRunner().invoke(cli, ["calc", calc_id, *inputs, f"variant={name}"])
        assert res.exit_code == 0, (name, res.output)
        assert res.stdout.count("\n") > 2
    assert resolve_variant("fall-back-3d6").name == "fall-back-3d6"  # a shipped one beside them


# -- an added input in a comparison and a sweep -------------------------------------------------------


def _break_test(target: int) -> Fraction:
    """Scrollhammer's Break test on 2D6, counted: a total at most the target, or a double 1."""
    rolls = list(itertools.product(range(1, 7), repeat=2))
    return Fraction(sum(a + b <= target or a == b == 1 for a, b in rolls), len(rolls))


def test_a_comparison_takes_an_input_only_the_variant_adds() -> None:
    res = CliRunner().invoke(
        cli,
        ["compare", "scrollhammer.break-test", "ld=8", "lost_by=2", "has_standard=true",
         "--variant", str(EXAMPLES / "standard-reroll.yaml"), "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    once = _break_test(6)
    assert Fraction(data["baseline"]["p_pass_exact"]) == once
    assert Fraction(data["variants"][0]["result"]["p_pass_exact"]) == once + (1 - once) * once
    assert data["inputs"]["has_standard"] is True
    assert any("has_standard: the published rules answer without it" in n for n in data["notes"])


def test_a_sweep_varies_an_input_only_the_variant_adds() -> None:
    table = sweep(
        "scrollhammer.break-test",
        {"ld": "6..8", "lost_by": "2", "has_standard": "false,true"},
        [str(EXAMPLES / "standard-reroll.yaml")],
        executor="serial",
    )
    assert len(table) == 12
    for row in table.to_dict("records"):
        once = _break_test(row["ld"] - 2)
        rerolled = row["variant"] == "standard-reroll" and row["has_standard"] == "true"
        assert Fraction(row["p_pass_exact"]) == (once + (1 - once) * once if rerolled else once), row
    assert any("has_standard: the published rules answer without it" in n for n in table.attrs["notes"])
    with pytest.raises(InputError, match="has_standard: unknown input"):
        sweep("scrollhammer.break-test", {"ld": "7", "has_standard": "true"}, executor="serial")
