"""A designer's dice from the command line (issue 24, parts 1 and 2): variant files whose dice
keep, drop, re-roll or explode answer exactly, checked against brute-force enumerations and a
seeded Monte Carlo written here (nothing imported from the code they check); dice too large
to compute are refused in one line, and what is accepted answers within seconds."""

from __future__ import annotations

import itertools
import json
import random
import time
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesbook.cli import cli

SECONDS = 30.0
"""A guard in CPU seconds (this process's: other work on the machine does not count) far above
the 1-2 s these answers take, far below the minutes (and gigabytes) a 10D6 Battle-shock test
took when every roll was listed one by one."""


def variant(
    tmp_path: Path, system: str, parameters: dict[str, str], readings: dict[str, str] | None = None
) -> Path:
    lines = [f"system: {system}", "title: a designer's dice", "parameters:"]
    lines += [f"  {k}: {v}" for k, v in parameters.items()]
    if readings:
        lines += ["readings:", *(f"  {k}: {v}" for k, v in readings.items())]
    path = tmp_path / f"{system}-{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def calc(*args: str) -> tuple[int, str, float]:
    start = time.process_time()
    res = CliRunner().invoke(cli, ["calc", *args, "--json"])
    return res.exit_code, res.output, time.process_time() - start


def exact(output: str, key: str) -> Fraction:
    return Fraction(json.loads(output)["result"][f"{key}_exact"])


THREE_D6 = list(itertools.product(range(1, 7), repeat=3))


# -- Scrollhammer: Leadership tests on 3D6kl2 (the highest die discarded) -----------------------


def lowest_two_passes(target: int, *, heroism: str | None) -> Fraction:
    """P(the two lowest of 3D6 total at most ``target``, or Insane Heroism): ``kept`` needs
    the two lowest dice both 1, ``rolled`` all three."""
    passing = 0
    for roll in THREE_D6:
        low = sorted(roll)[:2]
        double = {"kept": low == [1, 1], "rolled": roll == (1, 1, 1), None: False}[heroism]
        passing += sum(low) <= target or double
    return Fraction(passing, len(THREE_D6))


@pytest.mark.parametrize(("ld", "modifier"), [(7, -1), (2, -3), (5, 0), (9, -4), (12, 2)])
def test_scrollhammer_morale_check_on_the_lowest_two_of_3d6(tmp_path: Path, ld: int, modifier: int) -> None:
    path = variant(tmp_path, "scrollhammer", {"leadership_dice": "3D6kl2"})
    code, out, _ = calc("scrollhammer.morale-check", f"ld={ld}", f"modifier={modifier}", f"variant={path}")
    assert code == 0, out
    assert exact(out, "p_pass") == lowest_two_passes(ld + modifier, heroism="kept")


@pytest.mark.parametrize("ld", [1, 2, 3, 8])
def test_insane_heroism_reads_the_dice_the_register_names(tmp_path: Path, ld: int) -> None:
    every = variant(
        tmp_path, "scrollhammer", {"leadership_dice": "3D6kl2"}, {"heroism_dice": "every-die-rolled"}
    )
    code, out, _ = calc("scrollhammer.morale-check", f"ld={ld}", "modifier=-1", f"variant={every}")
    assert code == 0, out
    assert exact(out, "p_pass") == lowest_two_passes(ld - 1, heroism="rolled")
    off = variant(tmp_path, "scrollhammer", {"leadership_dice": "3D6kl2", "insane_heroism": "false"})
    code, out, _ = calc("scrollhammer.morale-check", f"ld={ld}", "modifier=-1", f"variant={off}")
    assert exact(out, "p_pass") == lowest_two_passes(ld - 1, heroism=None)


def test_every_scrollhammer_leadership_test_follows_the_variant_dice(tmp_path: Path) -> None:
    path = variant(tmp_path, "scrollhammer", {"leadership_dice": "3D6kl2"})
    for args, target in [
        (("scrollhammer.break-test", "ld=8", "lost_by=3"), 5),
        (("scrollhammer.panic-test", "ld=7"), 7),
        (("scrollhammer.leadership-test", "ld=6", "test_kind=leadership-test"), 6),
    ]:
        code, out, _ = calc(*args, f"variant={path}")
        assert code == 0, out
        assert exact(out, "p_pass") == lowest_two_passes(target, heroism="kept"), args


# -- 40k: Battle-shock on 3D6dl1 (the lowest die dropped) -----------------------------------------


def highest_two_reach(target: int) -> Fraction:
    return Fraction(sum(sum(sorted(r)[1:]) >= target for r in THREE_D6), len(THREE_D6))


@pytest.mark.parametrize(("leadership", "modifier"), [(7, 0), (6, -1), (9, 1), (12, -2), (2, 0)])
def test_40k_battle_shock_on_3d6_drop_the_lowest(tmp_path: Path, leadership: int, modifier: int) -> None:
    path = variant(tmp_path, "wh40k", {"battle_shock_dice": "3D6dl1"})
    code, out, _ = calc(
        "wh40k.battle-shock", f"leadership={leadership}", f"modifier={modifier}", f"variant={path}"
    )
    assert code == 0, out
    assert exact(out, "p_pass") == highest_two_reach(leadership - modifier)
    assert exact(out, "p_battle_shocked") == 1 - highest_two_reach(leadership - modifier)


def test_40k_battle_shock_on_3d6dl1_against_a_seeded_monte_carlo(tmp_path: Path) -> None:
    path = variant(tmp_path, "wh40k", {"battle_shock_dice": "3D6dl1"})
    code, out, _ = calc("wh40k.battle-shock", "leadership=8", f"variant={path}")
    assert code == 0, out
    p = float(exact(out, "p_pass"))
    rng, n = random.Random(24), 40_000
    hits = sum(sum(sorted(rng.randint(1, 6) for _ in range(3))[1:]) >= 8 for _ in range(n))
    assert abs(hits / n - p) < 5 * (p * (1 - p) / n) ** 0.5


def test_a_command_reroll_of_kept_dice_follows_the_register(tmp_path: Path) -> None:
    """3D6kh2 Charge roll of 10 with a Command Re-roll: the whole roll again (default) or the
    two kept dice again (2D6)."""
    first = Fraction(sum(sum(sorted(r)[1:]) >= 10 for r in THREE_D6), len(THREE_D6))
    two_d6 = Fraction(sum(a + b >= 10 for a in range(1, 7) for b in range(1, 7)), 36)
    whole = variant(tmp_path, "wh40k", {"charge_dice": "3D6kh2"})
    code, out, _ = calc("wh40k.charge", "distance=10", "reroll=true", f"variant={whole}")
    assert code == 0, out
    assert exact(out, "p_success") == first + (1 - first) * first
    kept = variant(tmp_path, "wh40k", {"charge_dice": "3D6kh2"}, {"rerolled_dice": "kept-dice"})
    code, out, _ = calc("wh40k.charge", "distance=10", "reroll=true", f"variant={kept}")
    assert exact(out, "p_success") == first + (1 - first) * two_d6


# -- part 2: large dice are answered or refused within seconds ------------------------------------


@pytest.mark.parametrize(
    ("system", "parameter", "dice", "args"),
    [
        ("wh40k", "battle_shock_dice", "10D6", ("wh40k.battle-shock", "leadership=7")),
        (
            "wh40k",
            "battle_shock_dice",
            "10D6",
            (
                "wh40k.attack-and-battle-shock",
                "weapons=bolters: A=20 BS=3 S=4 AP=0 D=1",
                "toughness=4",
                "save=3",
                "wounds=1",
                "models=10",
                "leadership=6",
            ),
        ),
        ("wh40k", "charge_dice", "20D6", ("wh40k.charge", "distance=9", "reroll=true")),
        ("wh40k", "charge_dice", "20D6", ("wh40k.charge-gap", "gap=7.5")),
        (
            "warstrike",
            "ld_test_dice",
            "20D6",
            (
                "warstrike.strike-force-morale",
                "starting_units=10",
                "remaining_units=4",
                "officer_ld=8",
                "fanatical=true",
            ),
        ),
        (
            "warstrike",
            "ld_test_dice",
            "20D6",
            (
                "warstrike.starting-phase",
                "mission=seize-the-crossing",
                "turn=3",
                "starting_units=10",
                "units_on_table=3",
                "units_in_reserve=1",
                "officer_lds=8,7",
                "objectives_held=1",
            ),
        ),
    ],
)
def test_large_dice_are_answered_within_seconds(
    tmp_path: Path, system: str, parameter: str, dice: str, args: tuple[str, ...]
) -> None:
    readings = {"ld_test": "2d6-natural-extremes"} if system == "warstrike" else None
    path = variant(tmp_path, system, {parameter: dice}, readings)
    code, out, seconds = calc(*args, f"variant={path}")
    assert code == 0, out
    assert json.loads(out)["variant"] and seconds < SECONDS


def test_20d6_natural_extremes_are_exact(tmp_path: Path) -> None:
    """Ld test on 20D6 with the natural extremes: at most Ld 8 only twenty 1s pass (one roll in
    6^20); twenty 6s fail."""
    path = variant(tmp_path, "warstrike", {"ld_test_dice": "20D6"}, {"ld_test": "2d6-natural-extremes"})
    code, out, _ = calc(
        "warstrike.strike-force-morale",
        "starting_units=10",
        "remaining_units=4",
        "officer_ld=8",
        f"variant={path}",
    )
    assert code == 0, out
    assert exact(out, "p_retreat") == 1 - Fraction(1, 6**20)


@pytest.mark.parametrize(
    ("system", "parameter", "dice"),
    [
        ("wh40k", "battle_shock_dice", "20D20!kh10"),
        ("wh40k", "charge_dice", "20D10!"),
        ("scrollhammer", "leadership_dice", "20D20!kh19"),
        ("warstrike", "ld_test_dice", "10D20!kh5"),
        ("army-morale", "take_and_hold_dice", "20D20!"),
    ],
)
def test_too_large_dice_are_refused_in_one_line_with_the_estimate(
    tmp_path: Path, system: str, parameter: str, dice: str
) -> None:
    path = variant(tmp_path, system, {parameter: dice})
    calculator = {
        "wh40k": "wh40k.battle-shock",
        "scrollhammer": "scrollhammer.morale-check",
        "warstrike": "warstrike.strike-force-morale",
        "army-morale": "army-morale.rally",
    }[system]
    res = CliRunner().invoke(cli, ["calc", calculator, f"variant={path}"])
    assert res.exit_code == 2
    line = res.output.strip()
    assert "\n" not in line and parameter in line and dice in line
    assert "times the work the calculators allow" in line


def test_the_rally_odds_refuse_too_many_pairs_of_values(tmp_path: Path) -> None:
    path = variant(tmp_path, "army-morale", {"take_and_hold_dice": "20D20"})
    code, out, seconds = calc(
        "army-morale.rally", "a_take_and_hold=10", "b_take_and_hold=10", f"variant={path}"
    )
    assert code == 2 and "pairs of values" in out and out.count("\n") == 1
    assert seconds < SECONDS


# -- weapon characteristics in the grammar --------------------------------------------------------


def test_weapon_attacks_and_damage_take_the_grammar() -> None:
    """One attack at 2+, S4 against T4 (wounds on 4+), no save, Damage D6r1 against a model of
    ten wounds: the mean loss is 5/6 · 1/2 · E[D6r1], with E[D6r1] = (1 + 7·(2+3+4+5+6))/36
    (a 1 only when both rolls are 1s: 1/36; each other face 1/6 + 1/36 = 7/36)."""
    base = ("wh40k.attack", "skill=2", "strength=4", "toughness=4", "save=7", "wounds=10", "models=1")
    code, out, _ = calc(*base, "attacks=1", "damage=D6r1")
    assert code == 0, out
    assert exact(out, "mean_wounds_lost") == Fraction(5, 6) * Fraction(1, 2) * Fraction(1 + 7 * 20, 36)
    code, out, _ = calc(*base, "attacks=2D6kh1", "damage=1")  # the higher of two D6 attacks
    best_of_two = Fraction(sum(max(a, b) for a in range(1, 7) for b in range(1, 7)), 36)
    assert exact(out, "mean_wounds_lost") == best_of_two * Fraction(5, 12)
    code, out, _ = calc(*base, "attacks=1", "damage=D6-D3")  # can roll below 1: refused
    assert code == 2 and out.startswith("rulesbook: error: damage: ") and out.count("\n") == 1
