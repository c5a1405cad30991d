"""Sensitivity (`rulesbook sensitivity`): every move's exact change, checked by running the
calculator under a one-change variant; one calculator of each system; CSV, JSON and the tornado."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulesbook.cli import cli
from rulesbook.registry import registry
from rulesbook.sweeps.output import read_table, sidecar_of
from rulesbook.variants import Variant, run_with_variant
from rulesbook.variants.sensitivity import sensitivity

CASES = [
    ("scrollhammer.break-test", {"ld": "8", "lost_by": "2"}, "p_pass"),
    (
        "warstrike.strike-force-morale",
        {"starting_units": "10", "remaining_units": "4", "officer_ld": "8"},
        "p_retreat",
    ),
    (
        "wh40k.attack",
        {
            "attacks": "4",
            "skill": "3",
            "strength": "4",
            "ap": "-1",
            "damage": "1",
            "toughness": "4",
            "save": "3",
            "wounds": "1",
            "models": "10",
            "abilities": "sustained-hits-1,blast",
        },
        "p_at_least_one_model",
    ),
    (
        "army-morale.rally",
        {
            "a_morale": "3",
            "b_morale": "3",
            "a_capture_destroy": "1",
            "b_take_and_hold": "1",
            "a_blast_markers": "1",
        },
        "p_a_wins",
    ),
]


def exact_under(calc_id: str, inputs: dict[str, str], output: str, **changes: Any) -> Fraction:
    """The output under a variant making exactly one change (the independent way to the number)."""
    calc = registry().calculator(calc_id)
    probe = Variant.define("probe", system=calc.system, title="one change", **changes)
    values = run_with_variant(calc, probe, **inputs).values
    return Fraction(values[f"{output}_exact"])


@pytest.mark.parametrize(("calc_id", "inputs", "output"), CASES, ids=[c[0] for c in CASES])
def test_every_move_is_the_exact_change_of_a_one_change_variant(
    calc_id: str, inputs: dict[str, str], output: str
) -> None:
    found = sensitivity(calc_id, inputs, output=output)
    calc = registry().calculator(calc_id)
    base = Fraction(calc.run(**inputs).values[f"{output}_exact"])
    assert found.baseline_exact == str(base)
    assert found.moves, "every system has parameters to move"
    changed = 0
    for move in found.moves:
        assert not move.error, move
        section = "parameters" if move.kind == "parameter" else "readings"
        expected = exact_under(calc_id, inputs, output, **{section: {move.key: move.after}})
        assert move.change_exact is not None and Fraction(move.change_exact) == expected - base, move
        assert move.change == pytest.approx(float(expected - base))
        changed += expected != base
    assert changed >= 1, "some rule moves the answer"
    sizes = [abs(m.change or 0.0) for m in found.moves]
    assert sizes == sorted(sizes, reverse=True)  # largest change first
    moved = {m.key for m in found.moves}
    for _, key, _, why in found.unaffected:  # listed apart: never among the moves, with a reason
        assert key not in moved and why


def test_parameters_that_cannot_affect_it_are_listed_apart_and_steps_stay_in_bounds() -> None:
    found = sensitivity("scrollhammer.break-test", {"ld": "8", "lost_by": "2"}, output="p_pass")
    apart = {key: why for _, key, _, why in found.unaffected}
    assert "regroup_move" in apart and "scrollhammer.regroup.after-regrouping" in apart["regroup_move"]
    assert apart["casualties_timing"].startswith("inert:")
    steps = [(m.before, m.after) for m in found.moves if m.key == "break_ld_per_point"]
    assert steps == [("1", "0"), ("1", "2")] or steps == [("1", "2"), ("1", "0")]
    at_floor = sensitivity(
        "scrollhammer.break-test", {"ld": "8", "lost_by": "2"}, output="p_pass", variant="no-insane-heroism"
    )
    assert at_floor.variant is not None and at_floor.variant.name == "no-insane-heroism"
    heroism = [m for m in at_floor.moves if m.key == "insane_heroism"]
    assert [(m.before, m.after) for m in heroism] == [("false", "true")]  # moved from the variant's value


def test_a_reading_given_as_an_input_is_moved_as_that_input() -> None:
    # Ld 11 capped at 10 passes on 33 of the 36 rolls; uncapped on 35
    found = sensitivity("scrollhammer.morale-check", {"ld": "11", "ld_bounds": "max-10"}, output="p_pass")
    assert found.baseline_exact == "11/12"
    move = next(m for m in found.moves if m.key == "ld_bounds")
    assert (move.before, move.after, move.change_exact) == ("max-10", "none", "1/18")


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_sensitivity_on_the_command_line_json_csv_and_tornado(tmp_path: Path) -> None:
    args = ["sensitivity", "scrollhammer.break-test", "ld=8", "lost_by=2", "--output", "p_pass"]
    out = invoke(*args, "--json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["baseline"] == {"value": pytest.approx(5 / 12), "exact": "5/12"}
    assert [m["to"] for m in data["moves"] if m["key"] == "break_ld_per_point"] in (["0", "2"], ["2", "0"])
    csv, svg, png = tmp_path / "moves.csv", tmp_path / "tornado.svg", tmp_path / "tornado.png"
    out = invoke(*args, "--csv", str(csv), "--plot", str(svg))
    assert out.exit_code == 0, out.stderr
    assert out.stdout == ""  # files asked for: no table printed
    table = read_table(csv)
    assert table["change_exact"].tolist()[: len(data["moves"])] == [m["change_exact"] for m in data["moves"]]
    assert table.attrs["provenance"]["command"].startswith("rulesbook sensitivity scrollhammer.break-test")
    assert sidecar_of(csv).is_file()
    text = svg.read_text(encoding="utf-8")
    for label in ("Ld lost per point of defeat: 1 → 2", "Change in P(hold)", "one step higher"):
        assert label in text, label
    assert not re.search(r">break_ld_per_point<", text)  # labels, never keys
    assert invoke(*args, "--plot", str(png)).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_text_output_lists_moves_then_what_cannot_affect_it() -> None:
    out = invoke(
        "sensitivity",
        "warstrike.strike-force-morale",
        "starting_units=10",
        "remaining_units=4",
        "officer_ld=8",
    )
    assert out.exit_code == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1] == "P(retreat): 27.8% (5/18)"
    assert "Ld test dice: 2D6 → 3D6" in lines[4]  # the largest change
    assert (
        "Cannot affect this answer:" in out.stdout
        or not sensitivity(
            "warstrike.strike-force-morale", {"starting_units": 10, "remaining_units": 4, "officer_ld": 8}
        ).unaffected
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ld=8", "--output", "nope"], "output: expected a numeric output of scrollhammer.break-test"),
        (["ld=99"], "ld: expected an integer from 0 to 12, got 99"),
        (["ld"], "arguments: expected key=value, got 'ld'"),
        (["ld=8", "--plot", "x.gif"], "plot: 'x.gif': expected a .png or .svg file name"),
        (["ld=8", "--csv", "no/such/folder/x.csv"], "csv: 'no/such/folder/x.csv': the folder"),
        (["ld=8", "--variant", "battle-shock-3d6"], "variant: battle-shock-3d6 changes wh40k rules"),
    ],
)
def test_bad_sensitivity_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    out = invoke("sensitivity", "scrollhammer.break-test", *args)
    assert out.exit_code == 2
    assert out.stderr.startswith(f"rulesbook: error: {message}"), out.stderr
    assert out.stderr.count("\n") == 1


@pytest.mark.parametrize(("calc_id", "inputs", "output"), CASES, ids=[c[0] for c in CASES])
def test_every_system_on_the_command_line_csv_json_and_tornado(
    tmp_path: Path, calc_id: str, inputs: dict[str, str], output: str
) -> None:
    calc = registry().calculator(calc_id)
    csv, png = tmp_path / "s.csv", tmp_path / "s.png"
    args = ["sensitivity", calc_id, *(f"{k}={v}" for k, v in inputs.items()), "--output", output]
    out = invoke(*args, "--csv", str(csv), "--plot", str(png), "--json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    found = sensitivity(calc_id, inputs, output=output)
    assert [m["change_exact"] for m in data["moves"]] == [m.change_exact for m in found.moves]
    assert data["output"]["label"] == next(o.label for o in calc.outputs if o.key == output)
    assert read_table(csv)["change_exact"].tolist() == [m.change_exact for m in found.moves]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
