"""Balance tables (`rulesbook matrix`): every cell is the calculator at that pair; the difference
under a variant is exact; CSV, Parquet, JSON and the annotated heatmap; one calculator per system."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulesbook.cli import cli
from rulesbook.registry import registry
from rulesbook.sweeps import balance_table, read_table
from rulesbook.variants import run_with_variant

CASES = [
    ("scrollhammer.morale-check", ("ld", "5..8"), ("modifier", "-2..0"), {}, "p_pass", "no-insane-heroism"),
    (
        "warstrike.strike-force-morale",
        ("officer_ld", "6..8"),
        ("remaining_units", "2..4"),
        {"starting_units": "10"},
        "p_retreat",
        None,
    ),
    (
        "wh40k.attack",
        ("skill", "2..4"),
        ("toughness", "3..5"),
        {"attacks": "4", "strength": "4", "damage": "1", "save": "4", "wounds": "1", "models": "3"},
        "p_at_least_one_model",
        None,
    ),
    (
        "army-morale.rally",
        ("a_morale", "1..3"),
        ("b_capture_destroy", "0..1"),
        {"b_morale": "4"},
        "p_b_wins",
        "blast-markers-cost-2",
    ),
]


@pytest.mark.parametrize(
    ("calc_id", "rows", "cols", "inputs", "output", "variant"), CASES, ids=[c[0] for c in CASES]
)
def test_every_cell_is_the_calculator_at_that_pair(
    calc_id: str, rows: Any, cols: Any, inputs: dict[str, str], output: str, variant: str | None
) -> None:
    table = balance_table(calc_id, rows, cols, inputs, variant=variant, output=output)
    calc = registry().calculator(calc_id)
    for i, r in enumerate(table.rows.values):
        for j, c in enumerate(table.cols.values):
            point = {**inputs, rows[0]: r, cols[0]: c}
            base = calc.run(**point).values[f"{output}_exact"]
            assert table.exact()[i][j] == base
            if variant is not None:
                mine = run_with_variant(calc, variant, **point).values[f"{output}_exact"]
                assert table.exact(variant=True)[i][j] == mine
                assert Fraction(table.difference_exact()[i][j] or "nan") == Fraction(mine) - Fraction(base)


def test_morale_check_by_hand() -> None:
    """Ld 4 tests on 4: 6 of the 36 rolls of 2D6; Ld 2 at −2 (0) passes only on Insane Heroism's
    double 1 (1 of 36), which the variant takes away; at Ld 3 and above the double 1 passes anyway."""
    table = balance_table(
        "scrollhammer.morale-check", ("ld", "2..4"), ("modifier", "-2..0"), variant="no-insane-heroism"
    )
    assert table.exact()[2][2] == "1/6"
    assert table.exact()[0][0] == "1/36" and table.exact(variant=True)[0][0] == "0"
    assert table.difference_exact()[0][0] == "-1/36"
    assert table.difference_exact()[2] == ["0", "0", "0"]  # Ld 4 at −2 is 2: the double 1 passes anyway


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_matrix_on_the_command_line_text_json_csv_parquet_and_plot(tmp_path: Path) -> None:
    args = [
        "matrix",
        "scrollhammer.break-test",
        "rows=ld:6..9",
        "cols=lost_by:1..3",
        "--output",
        "p_pass",
        "--variant",
        "break-2-ld-per-point",
    ]
    text = invoke(*args)
    assert text.exit_code == 0, text.stderr
    assert "Difference: −2 Ld per point lost in a Break test − Published rules" in text.stdout
    assert "−25.0 pts" in text.stdout  # Ld 8 lost by 2: 15/36 → 6/36
    data = json.loads(invoke(*args, "--json").stdout)
    assert data["rows"] == {"key": "ld", "label": "Leadership (Ld)", "values": ["6", "7", "8", "9"]}
    assert data["baseline"][2][1] == {"value": pytest.approx(5 / 12), "exact": "5/12"}
    assert data["variant"]["difference"][2][1]["exact"] == "-1/4"
    assert data["variant"]["definition"] == {
        "system": "scrollhammer",
        "title": "−2 Ld per point lost in a Break test",
        "description": data["variant"]["definition"]["description"],
        "parameters": {"break_ld_per_point": 2},
    }
    csv, parquet, svg, png = (tmp_path / f"m.{s}" for s in ("csv", "parquet", "svg", "png"))
    out = invoke(*args, "--csv", str(csv), "--parquet", str(parquet), "--plot", str(svg))
    assert out.exit_code == 0, out.stderr
    assert out.stdout == ""
    for path in (csv, parquet):
        back = read_table(path)
        assert len(back) == 12
        row = back[(back["ld"].astype(str) == "8") & (back["lost_by"].astype(str) == "2")].iloc[0]
        assert (row["p_pass_exact"], row["difference_exact"]) == ("5/12", "-1/4")
        meta = back.attrs["provenance"]
        assert meta["command"].startswith("rulesbook matrix scrollhammer.break-test rows=ld:6..9")
        assert meta["variants"]["break-2-ld-per-point"]["parameters"] == {"break_ld_per_point": 2}
    svg_text = svg.read_text(encoding="utf-8")
    for label in (
        "Leadership (Ld)",
        "Lost by",
        "P(hold)",
        "−2 Ld per point lost in a Break test − Published rules",
        "41.7%",
        "−25.0 pts",
    ):
        assert label in svg_text, label
    assert invoke(*args, "--plot", str(png)).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000


def test_a_variant_that_cannot_change_the_calculator_is_a_warning_in_the_cli_and_on_the_plot(
    tmp_path: Path,
) -> None:
    svg = tmp_path / "m.svg"
    out = invoke(
        "matrix",
        "wh40k.battle-shock",
        "rows=leadership:6..8",
        "cols=modifier:-1..0",
        "--variant",
        "deadly-demise-on-5",
        "--plot",
        str(svg),
    )
    assert out.exit_code == 0, out.stderr
    warning = "Deadly Demise explodes on a 5+ does not affect Battle-shock test"
    assert f"rulesbook: warning: {warning}" in out.stderr
    assert warning in svg.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rows=ld:5..8"], "matrix: expected rows=KEY:values and cols=KEY:values"),
        (["rows=ld", "cols=modifier:0"], "rows: expected KEY:values such as ld:5..10"),
        (["rows=ld:5..8", "cols=ld:1..2"], "cols: rows and columns both vary ld"),
        (["rows=ld:5..13", "cols=modifier:0"], "ld: expected an integer from 0 to 12, got 13"),
        (["rows=ld:5..8", "cols=modifier:0", "ld=3"], "ld: given as an input and as an axis"),
        (["rows=ld:5..8", "cols=modifier:0", "--output", "p_nope"], "output: expected a numeric output"),
        (["rows=ld:0..12", "cols=modifier:-300..300"], "modifier: expected an integer from -12 to 12"),
    ],
)
def test_bad_matrices_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    out = invoke("matrix", "scrollhammer.morale-check", *args)
    assert out.exit_code == 2
    assert out.stderr.startswith(f"rulesbook: error: {message}"), out.stderr
    assert out.stderr.count("\n") == 1


def cli_words(inputs: dict[str, str]) -> list[str]:
    return [f"{k}={v}" for k, v in inputs.items()]


@pytest.mark.parametrize(
    ("calc_id", "rows", "cols", "inputs", "output", "variant"), CASES, ids=[c[0] for c in CASES]
)
def test_every_system_on_the_command_line_csv_json_and_plot(
    tmp_path: Path,
    calc_id: str,
    rows: Any,
    cols: Any,
    inputs: dict[str, str],
    output: str,
    variant: str | None,
) -> None:
    calc = registry().calculator(calc_id)
    args = ["matrix", calc_id, f"rows={rows[0]}:{rows[1]}", f"cols={cols[0]}:{cols[1]}", *cli_words(inputs)]
    args += ["--output", output, *(["--variant", variant] if variant else [])]
    csv, svg = tmp_path / "m.csv", tmp_path / "m.svg"
    out = invoke(*args, "--csv", str(csv), "--plot", str(svg), "--json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    table = balance_table(calc_id, rows, cols, inputs, variant=variant, output=output)
    assert [[c["exact"] for c in row] for row in data["baseline"]] == table.exact()
    back = read_table(csv)
    assert back[f"{output}_exact"].tolist() == [e for row in table.exact() for e in row]
    text = svg.read_text(encoding="utf-8")
    label = next(o.label for o in calc.outputs if o.key == output)
    for word in (label, calc.input(rows[0]).title, calc.input(cols[0]).title, "Published rules"):
        assert word.replace("&", "&amp;") in text, word
