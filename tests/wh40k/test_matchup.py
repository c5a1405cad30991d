"""``rulesbook matchup A B`` (issue 36): every unit of one army list with each of its weapon
choices against every unit of another, on the sweep machinery — each row the answer of
``wh40k.datasheet-attack`` for its inputs, a progress bar on a terminal, the table as CSV and a
heatmap with one row per unit and phase and one column per target."""

from __future__ import annotations

import csv
import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesbook as rb
from rulesbook.cli import cli
from rulesbook.present import percent
from rulesbook.systems.wh40k.lists.army import army_at
from rulesbook.systems.wh40k.lists.matchup import Choice, matchup_points, weapon_choices

DATA = Path(__file__).parents[1] / "rosters" / "data"
A, B = str(DATA / "rust-legion.rosz"), str(DATA / "bog-horde.json")


def choices(path: str, unit: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.phase, c.weapons) for c in weapon_choices(army_at(path, "x").datasheets[unit])]


def test_weapon_choices_follow_the_lists_loadouts() -> None:
    # written from the lists in tests/rosters/make_rosters.py
    assert choices(A, "rustguard-squad-2") == [  # the Sergeant fires his plasma or his pistol
        ("shooting", ("plasma-burner-standard*1", "rust-rifle*9")),
        ("shooting", ("plasma-burner-supercharge*1", "rust-rifle*9")),
        ("shooting", ("bolt-pistol*1", "rust-rifle*9")),
        ("melee", ("power-claw*1", "close-combat-weapon*9")),
    ]
    assert choices(A, "rust-champion") == [  # a Pistol alone is fired; Extra Attacks comes besides
        ("shooting", ("bolt-pistol*1",)),
        ("melee", ("rust-glaive*1", "spiked-gauntlet*1")),
    ]
    assert choices(A, "rust-lord") == [("shooting", ("corrosion-pistol*1",)), ("melee", ("rust-claw*1",))]
    assert choices(B, "swamp-skimmers") == [("shooting", ("harpoon-gun*6",)), ("melee", ("hull-blades*3",))]
    assert choices(B, "bog-wardens") == [
        ("shooting", ("slug-thrower*10",)),
        ("melee", ("hooked-blade*1", "rusty-knife*9")),
    ]
    assert choices(B, "leech-swarms") == [("melee", ("leech-bites*6",))]
    assert Choice("melee", ("a*1", "b*9")).label == "a ×1, b ×9"


def test_every_unit_with_each_choice_meets_every_target() -> None:
    a, b = army_at(A, "a"), army_at(B, "b")
    points = matchup_points(a, A, b, B, {"battle_round": "2"})
    per_unit = sum(len(weapon_choices(s)) for s in a.datasheets.values())
    assert len(points) == per_unit * len(b.datasheets) == 240
    assert points[0] == {
        "faction": A,
        "attacker": "rust-lord",
        "weapons": "corrosion-pistol*1",
        "target_faction": B,
        "target": "bog-shaman",
        "battle_round": "2",
    }


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_command_runs_with_a_progress_bar_and_writes_the_table_and_the_heatmap(tmp_path: Path) -> None:
    table, plot = tmp_path / "matchup.csv", tmp_path / "matchup.png"
    main, child = pty.openpty()  # stderr a terminal (100 columns wide): the progress bar is drawn
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "rulesbook.cli",
            "matchup",
            A,
            B,
            "--csv",
            str(table),
            "--plot",
            str(plot),
            "--workers",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=child,
        timeout=600,
        check=False,
    )
    os.close(child)
    err = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    os.close(main)
    text = err.decode("utf-8", "replace")
    assert done.returncode == 0, text
    assert (
        "matchup: 10 units of Rust Legion strike force against 10 of Bog Horde warband: 240 attacks" in text
    )
    assert "sweep:" in text and "%|" in text  # tqdm's bar
    assert plot.read_bytes().startswith(b"\x89PNG")
    rows = _rows(table)
    assert len(rows) == 240 and all(r["error"] == "" for r in rows)
    for row in rows[::37]:  # each row is the calculator's answer for its inputs
        answer = rb.calc(
            "wh40k.datasheet-attack",
            faction=A,
            attacker=row["attacker"],
            weapons=row["weapons"],
            target_faction=B,
            target=row["target"],
        )
        assert row["p_unit_destroyed_exact"] == answer["p_unit_destroyed_exact"]
        assert row["mean_models_destroyed_exact"] == answer["mean_models_destroyed_exact"]
        assert float(row["mean_models_destroyed"]) == pytest.approx(
            answer["mean_models_destroyed"], rel=1e-12
        )
    best = done.stdout.decode().splitlines()
    assert len(best) == 2 * 10 * 10  # every unit of A shoots and fights: a row per phase and target
    assert best[0].startswith("rust-lord (shooting: corrosion-pistol*1) vs bog-shaman: ")
    assert "models destroyed on average, P(unit destroyed) " in best[0]
    for line in best:  # a chance as the pages write it (a percentage), never 0.0000
        shown = re.search(r"P\(unit destroyed\) (.+?%) \((.*)\)$", line)
        assert shown is not None and shown[1].endswith("%"), line
        if re.fullmatch(r"\d+(/\d+)?", shown[2]):  # a short fraction: the percentage is its value
            assert shown[1] == percent(float(Fraction(shown[2])))


def test_the_heatmap_has_a_row_per_unit_and_phase_and_a_column_per_target() -> None:
    from rulesbook.sweeps import plan_points, run_plan
    from rulesbook.systems.wh40k.lists.matchup import best_choices, matchup_figure, matchup_summary

    a, b = army_at(A, "a"), army_at(B, "b")
    keep = {"rustguard-squad", "rust-champion"}
    points = [
        p
        for p in matchup_points(a, A, b, B)
        if p["attacker"] in keep and p["target"] in {"bog-shaman", "mire-beast"}
    ]
    summary = matchup_summary(
        run_plan(plan_points("wh40k.datasheet-attack", points), executor="serial", progress=False), a, b
    )
    best = best_choices(summary)
    assert len(best) == 2 * 2 * 2  # two units, two phases, two targets: the best choice of each
    figure = matchup_figure(summary[summary["target"].isin(["bog-shaman", "mire-beast"])], a, b)
    ax = figure.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "Rustguard Squad (rustguard-squad) — shooting",
        "Rustguard Squad (rustguard-squad) — melee",
        "Rust Champion — shooting",
        "Rust Champion — melee",
    ]
    mean = float(
        best[
            (best["attacker"] == "rust-champion")
            & (best["phase"] == "melee")
            & (best["target"] == "bog-shaman")
        ]["mean_models_destroyed"].iloc[0]
    )
    assert f"{mean:.1f}\n" in "|".join(t.get_text() for t in ax.texts)


def test_a_bad_list_is_one_line_and_exit_code_2() -> None:
    out = CliRunner().invoke(cli, ["matchup", str(DATA / "steel-company.ros"), B])
    assert out.exit_code == 2
    assert out.stderr == (
        "rulesbook: error: list A: steel-company.ros: a roster of 'Epic Armageddon'; the 40k calculators read "
        "rosters of Warhammer 40,000 10th edition\n"
    )
    out = CliRunner().invoke(cli, ["matchup", A, B, "attacker=rust-lord"])
    assert out.exit_code == 2 and out.stderr.startswith("rulesbook: error: attacker: set by the matchup")


def test_a_dask_cluster_gives_what_one_process_gives() -> None:
    from distributed import LocalCluster

    lists = ["rulesbook/systems/wh40k/examples/mire-host.yaml", str(DATA / "bog-horde.json")]
    serial = CliRunner().invoke(cli, ["matchup", *lists, "target=mire-beast", "--serial", "--json"])
    assert serial.exit_code == 2 and "set by the matchup" in serial.stderr  # (the target is not an input)
    serial = CliRunner().invoke(cli, ["matchup", *lists, "battle_round=2", "--serial", "--json"])
    assert serial.exit_code == 0, serial.stderr
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        dask = CliRunner().invoke(
            cli, ["matchup", *lists, "battle_round=2", "--scheduler", cluster.scheduler_address, "--json"]
        )
    assert dask.exit_code == 0, dask.stderr
    assert json.loads(dask.stdout) == json.loads(serial.stdout) != []
