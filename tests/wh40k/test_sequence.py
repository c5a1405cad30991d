"""wh40k.sequence: the user's own weapon profiles in order, and the profile syntax."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack.engine import resolve
from rulesbook.systems.wh40k.attack.weapons import Target
from rulesbook.systems.wh40k.calculators.profiles import MAX_WEAPONS, canonical_weapons, parse_weapons
from tests.wh40k.options import choose
from tests.wh40k.test_attack import assert_matches_monte_carlo

SEQUENCE = registry().calculator("wh40k.sequence")


def test_profile_syntax_reads_every_field() -> None:
    ws = parse_weapons(
        "bolt rifles: A=10 BS=3 S=4 AP=-1 D=1 lethal-hits, sustained-hits-d3; A=D6+1 ws=2 s=12 d=D3+3"
    )
    first, second = ws
    assert (first.name, str(first.attacks), first.skill, first.strength, first.ap, str(first.damage)) == (
        "bolt rifles",
        "10",
        3,
        4,
        -1,
        "1",
    )
    assert first.ranged and first.abilities.lethal_hits and str(first.abilities.sustained) == "D3"
    assert (second.name, str(second.attacks), second.skill, second.ap, str(second.damage)) == (
        "weapon 2",
        "D6+1",
        2,
        0,
        "D3+3",
    )
    assert not second.ranged
    canonical = canonical_weapons("bolt rifles: a = 10 bs=3 s=4 ap=-1 d=1 LETHAL-HITS ;")
    assert canonical == "bolt rifles: A=10 BS=3 S=4 AP=-1 D=1 lethal-hits"
    assert canonical_weapons(canonical) == canonical


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "weapons: expected 1 to 8 weapon profiles"),
        ("A=1 BS=3 S=4 D=1;; A=1 BS=3 S=4 D=1", "weapons: weapon 2 is empty"),
        (";".join(["A=1 BS=3 S=4 D=1"] * (MAX_WEAPONS + 1)), f"at most {MAX_WEAPONS} weapons, got 9"),
        ("A=1 BS=3 S=4 D=1; gun: A=1 S=4 D=1", "weapon 2 (gun): missing BS or WS"),
        ("A=1 BS=3 WS=3 S=4 D=1", "weapon 1: give BS (a ranged weapon) or WS (a melee weapon), not both"),
        ("A=1 BS=3 S=4 D=1 A=2", "weapon 1: A given twice"),
        ("A=1 BS=7 S=4 D=1", "weapon 1: BS: expected an integer from 2 to 6, got 7"),
        ("A=1 BS=3 S=4 AP=2 D=1", "weapon 1: AP: expected an integer from -6 to 0, got 2"),
        ("A=2D BS=3 S=4 D=1", "weapon 1: A: expected a dice expression"),
        ("A=1 BS=3 S=4 D=0", "weapon 1: D: the expression can roll below 1"),
        ("A=1 BS=3 S=4 D=1 X=3", "weapon 1: unknown key 'X'"),
        ("A=1 BS=3 S=4 D=1 blast,blast", "weapon 1: ability 'blast' given twice"),
        ("A=1 BS=3 S=4 D=1 lethal", "weapon 1: abilities: unknown word 'lethal'"),
        ("g{un: A=1 BS=3 S=4 D=1", "weapon 1: a name is 1-40 letters"),
        (
            "A=1 BS=3 S=4 D=1; axe: A=2 WS=3 S=5 D=1",
            "weapon 2 (axe): a sequence is one shooting or one fight",
        ),
        ("axe: A=2 WS=3 S=5 D=1 blast", "weapon 1 (axe): blast is a ranged weapon ability"),
        ("A=201 BS=3 S=4 D=1", "weapon 1: at most 200 attacks per weapon, got up to 201"),
        ("A=10 BS=3 S=4 D=D6+60", "weapon 1: at most 60 damage per attack, got up to 66"),
    ],
)
def test_bad_profiles_name_the_weapon_and_the_key(text: str, needle: str) -> None:
    with pytest.raises(InputError) as info:
        SEQUENCE.run(weapons=text, toughness=4, save=3, wounds=1)
    message = str(info.value)
    assert message.startswith("weapons: ") and needle in message and "\n" not in message


@pytest.mark.covers("wh40k.attack.sequence", "wh40k.attack.allocation")
def test_damage_carries_from_weapon_to_weapon() -> None:
    """Two single auto-hitting S8 attacks at one T4 two-wound model, no save: each wounds on 2+
    (5/6) and takes one wound, so the model dies only if both land: 25/36. Resolved apart, one
    D1 attack could never destroy it."""
    r = SEQUENCE.run(
        weapons="A=1 BS=3 S=8 D=1 torrent; A=1 BS=3 S=8 D=1 torrent", toughness=4, save=7, wounds=2
    )
    assert list(r["wounds_lost_exact"]) == ["1/36", "5/18", "25/36"]  # 10/36 for exactly one
    assert r["p_unit_destroyed_exact"] == "25/36"
    rows = r.table("breakdown").rows
    assert [row[0] for row in rows] == ["weapon 1", "weapon 2", "target loses"]


@pytest.mark.covers("wh40k.attack.sequence", "wh40k.attack.devastating-wounds")
def test_sequence_equals_resolve_and_the_seeded_simulation() -> None:
    """Bolters, then a plasma gun with Devastating Wounds, then a melta, at five 2-wound models:
    the calculator is rules.resolve on the parsed profiles, and both agree with the Monte Carlo."""
    text = (
        "bolters: A=20 BS=3 S=4 AP=0 D=1; plasma: A=2 BS=3 S=8 AP=-3 D=2 devastating-wounds; "
        "melta: A=1 BS=3 S=9 AP=-4 D=D6"
    )
    target = Target(toughness=4, save=3, wounds=2, models=5, fnp=6)
    r = SEQUENCE.run(weapons=text, toughness=4, save=3, wounds=2, models=5, fnp=6)
    exact = resolve(parse_weapons(text), target, *choose())
    assert [Fraction(p) for p in r["wounds_lost_exact"]] == [exact.wounds_lost.p(k) for k in range(11)]
    assert Fraction(r["mean_models_destroyed_exact"]) == exact.mean_models_destroyed
    assert [row[0] for row in r.table("breakdown").rows] == ["bolters", "plasma", "melta", "target loses"]
    # bolters: 20 x 2/3 hit x 1/2 wound x 1/3 save fails (3+ at AP 0) = 20/9 unsaved
    assert r.table("breakdown").rows[0][5] == pytest.approx(20 / 9)
    assert_matches_monte_carlo(list(parse_weapons(text)), target, trials=4000, seed=7)


@pytest.mark.covers("wh40k.attack.sequence")
def test_cli_runs_a_sequence_and_reports_bad_profiles_in_one_line() -> None:
    good = subprocess.run(
        [sys.executable, "-m", "rulesbook.cli", "calc", "wh40k.sequence",
         "weapons=A=10 BS=3 S=4 AP=-1 D=1; A=1 BS=3 S=9 AP=-4 D=D6",
         "toughness=4", "save=3", "wounds=2", "models=5", "--json"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert good.returncode == 0, good.stderr
    data = json.loads(good.stdout)
    assert data["inputs"]["weapons"] == "A=10 BS=3 S=4 AP=-1 D=1; A=1 BS=3 S=9 AP=-4 D=D6"
    assert len(data["result"]["models_destroyed"]) == 6
    bad = subprocess.run(
        [sys.executable, "-m", "rulesbook.cli", "calc", "wh40k.sequence",
         "weapons=A=10 BS=3 S=4 D=1; gun: A=1 BS=3 S=99 D=1", "toughness=4", "save=3", "wounds=1"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "rulesbook: error: weapons: weapon 2 (gun): S: expected an integer from 1 to 30, got 99"
    ]
