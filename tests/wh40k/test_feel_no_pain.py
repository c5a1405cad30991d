"""Feel No Pain with a scope (issue 34, part 3): against every wound (``fnp``) or against mortal
wounds only (``fnp_mortal``), as inputs of every 40k calculator that takes ``fnp`` and as the
effect kinds ``feel-no-pain`` and ``feel-no-pain-mortal``; register entry ``fnp-combined``.

Oracles count every roll of the dice here, from the source's text (core rules: Hit roll, Wound
roll, Saving throw, Devastating Wounds — a Critical Wound becomes as many mortal wounds as the
weapon's Damage — Mortal Wounds, Feel No Pain: one roll per lost wound, with one Feel No Pain used).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.registry import registry
from rulesbook.systems.wh40k.effects.kinds import KINDS

D6 = range(1, 7)
REG = registry()


def lost_points(points: int, lost_on: Any) -> dict[int, Fraction]:
    """Points of damage lost when each point is rolled against ``lost_on(rolls)`` (a point is
    lost when it says so), every roll a D6 counted."""
    rolls_per_point = lost_on.__code__.co_argcount
    out: dict[int, Fraction] = {}
    faces = list(itertools.product(D6, repeat=rolls_per_point))
    for outcome in itertools.product(faces, repeat=points):
        lost = sum(1 for dice in outcome if lost_on(*dice))
        out[lost] = out.get(lost, Fraction(0)) + Fraction(1, len(faces) ** points)
    return out


def one_devastating_shot(fnp: int | None, fnp_mortal: int | None, combined: str) -> dict[int, Fraction]:
    """Wounds a W10 model loses to one BS 3+ S4 AP0 D2 Devastating Wounds shot at T4 Sv 3+."""

    def normal(roll: int) -> bool:  # Feel No Pain against every wound
        return fnp is None or roll < fnp

    xs = [x for x in (fnp, fnp_mortal) if x is not None]
    if not xs:
        mortal: Any = lambda roll: True  # noqa: E731
    elif len(xs) == 1 or combined == "better-one":
        best = min(xs)
        mortal = lambda roll: roll < best  # noqa: E731
    else:  # both rolled: lost only if both fail
        mortal = lambda a, b: a < xs[0] and b < xs[1]  # noqa: E731
    out: dict[int, Fraction] = {}

    def add(lost: dict[int, Fraction], p: Fraction) -> None:
        for k, q in lost.items():
            out[k] = out.get(k, Fraction(0)) + p * q

    for hit, wound, save in itertools.product(D6, D6, D6):
        p = Fraction(1, 216)
        if hit < 3:
            add({0: Fraction(1)}, p)
        elif wound == 6:  # a Critical Wound: 2 mortal wounds, no save
            add(lost_points(2, mortal), p)
        elif wound < 4 or save >= 3:
            add({0: Fraction(1)}, p)
        else:
            add(lost_points(2, normal), p)
    return out


@pytest.mark.covers(
    "wh40k.attack.feel-no-pain", "wh40k.attack.devastating-wounds", "wh40k.attack.mortal-wounds"
)
@pytest.mark.parametrize(
    ("fnp", "fnp_mortal", "combined"),
    [
        (None, 4, "better-one"),
        (6, 4, "better-one"),
        (4, 6, "better-one"),
        (6, 4, "both-rolled"),
        (5, None, "both-rolled"),
    ],
)
def test_devastating_wounds_meet_the_feel_no_pain_against_mortal_wounds(
    fnp: int | None, fnp_mortal: int | None, combined: str
) -> None:
    calc = REG.calculator("wh40k.attack")
    got = calc.run(
        attacks="1", skill="3", strength="4", damage="2", toughness="4", save="3", wounds="10",
        abilities="devastating-wounds", fnp=str(fnp or "none"), fnp_mortal=str(fnp_mortal or "none"),
        fnp_combined=combined,
    )  # fmt: skip
    want = one_devastating_shot(fnp, fnp_mortal, combined)
    assert [Fraction(p) for p in got["wounds_lost_exact"][:3]] == [want.get(k, Fraction(0)) for k in range(3)]


def test_feel_no_pain_against_mortal_wounds_changes_nothing_else() -> None:
    """Without Devastating Wounds no mortal wound is inflicted: fnp_mortal changes no number."""
    calc = REG.calculator("wh40k.attack")
    given_ = {
        "attacks": "6",
        "skill": "3",
        "strength": "4",
        "damage": "2",
        "toughness": "4",
        "save": "4",
        "wounds": "2",
        "models": "5",
    }
    assert calc.run(**given_, fnp_mortal="2").values == calc.run(**given_).values
    assert calc.run(**given_, fnp="5", fnp_mortal="3").values == calc.run(**given_, fnp="5").values


@pytest.mark.covers("wh40k.death-guard.stratagem.grenade", "wh40k.attack.feel-no-pain")
@pytest.mark.parametrize(
    ("fnp", "fnp_mortal", "combined"), [(None, 5, "better-one"), (6, 4, "better-one"), (6, 4, "both-rolled")]
)
def test_a_grenade_s_mortal_wounds_meet_it(fnp: int | None, fnp_mortal: int | None, combined: str) -> None:
    """Six D6, each 4+ a mortal wound on a unit of W1 models (each wound one model), counted."""
    xs = [x for x in (fnp, fnp_mortal) if x is not None]

    def kept(die: int, *fnp_dice: int) -> bool:
        if die < 4:
            return False
        if combined == "better-one" or len(xs) == 1:
            return fnp_dice[0] < min(xs)
        return all(d < x for d, x in zip(fnp_dice, xs, strict=True))

    per_die = list(itertools.product(D6, repeat=1 + (2 if combined == "both-rolled" and len(xs) == 2 else 1)))
    p = Fraction(sum(1 for dice in per_die if kept(*dice)), len(per_die))
    mean = 6 * p
    got = REG.calculator("wh40k.grenade").run(
        wounds="1", models="10", fnp=str(fnp or "none"), fnp_mortal=str(fnp_mortal), fnp_combined=combined
    )
    assert Fraction(got["mean_wounds_lost_exact"]) == mean


def test_every_calculator_that_takes_fnp_takes_fnp_mortal() -> None:
    takers = [c for c in REG.calculators.values() if "fnp" in {i.key for i in c.inputs}]
    assert len(takers) >= 6
    for calc in takers:
        keys = [i.key for i in calc.inputs]
        assert "fnp_mortal" in keys and "fnp_combined" in keys, calc.id
        assert keys.index("fnp_mortal") == keys.index("fnp") + 1, calc.id
    battle = REG.calculator("wh40k.attack-and-battle-shock")
    assert "leader_fnp_mortal" in {i.key for i in battle.inputs}


def _mortal_stratagem(folder: Path, kind: str, x: int) -> Path:
    variant = folder / "hardy.yaml"
    variant.write_text(
        "system: wh40k\ntitle: Hardy\nadd:\n  stratagems:\n    hardy:\n      name: Hardy\n      cp: 1\n"
        "      phases: [opponent-shooting, fight]\n"
        "      text: Models in this unit shrug off mortal wounds.\n"
        f"      effects:\n        - {{kind: {kind}, value: {x}}}\n",
        encoding="utf-8",
    )
    return variant


@pytest.mark.covers("wh40k.attack.feel-no-pain", "wh40k.datasheet-attack")
@pytest.mark.parametrize(("kind", "key"), [("feel-no-pain-mortal", "fnp_mortal"), ("feel-no-pain", "fnp")])
def test_the_effect_kinds_are_the_inputs(tmp_path: Path, kind: str, key: str) -> None:
    """A stratagem the target uses with the kind answers as the input does (one mechanism)."""
    from rulesbook.variants import run_with_variant

    calc = REG.calculator("wh40k.datasheet-attack")
    variant = str(_mortal_stratagem(tmp_path, kind, 4))
    profile = {
        "target": "profile",
        "toughness": "4",
        "save": "3",
        "wounds": "3",
        "models": "5",
        "weapons": "rotwind",
    }
    by_effect = run_with_variant(calc, variant, **profile, target_stratagems="hardy")
    by_input = calc.run(**profile, **{key: "4"})
    assert by_effect["wounds_lost_exact"] == by_input["wounds_lost_exact"]
    assert (
        by_effect["wounds_lost_exact"] != calc.run(**profile)["wounds_lost_exact"]
    )  # Rotwind: Devastating Wounds
    table = next(t for t in by_effect.tables if t.name == "effects_applied")
    assert any("Feel No Pain 4+" in " ".join(map(str, row)) for row in table.rows)


@pytest.mark.covers("wh40k.core.attached-units", "wh40k.attack.feel-no-pain")
@settings(max_examples=12, deadline=None)
@given(
    fnp=st.sampled_from([None, 5, 6]),
    fnp_mortal=st.sampled_from([None, 3, 4, 6]),
    combined=st.sampled_from(["better-one", "both-rolled"]),
    models=st.integers(1, 3),
)
def test_one_engine_for_every_unit_shape(
    fnp: int | None, fnp_mortal: int | None, combined: str, models: int
) -> None:
    """The main engine, the Attached-unit engine (no Leader) and the groups engine (one group)
    give one answer against a target with both kinds of Feel No Pain."""
    from rulesbook.dice import parse_dice
    from rulesbook.systems.wh40k.attack.engine import resolve
    from rulesbook.systems.wh40k.attack.groups import (
        LeaderProfile,
        ModelGroup,
        resolve_attached,
        resolve_groups,
    )
    from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities
    from rulesbook.systems.wh40k.choices import CHOICES

    choices = CHOICES.replace(readings={"fnp_combined": combined})
    gun = Weapon("gun", parse_dice("3"), 3, 5, -1, parse_dice("2"), parse_abilities("devastating-wounds"))
    target = Target(4, 4, 3, models=models, fnp=fnp, fnp_mortal=fnp_mortal)
    main = resolve([gun], target, choices=choices).wounds_lost
    attached = resolve_attached([gun], target, LeaderProfile(0, 1, 7), choices=choices)
    group = ModelGroup("them", models, 3, 4, fnp=fnp, fnp_mortal=fnp_mortal)
    groups = resolve_groups([gun], target, (group,), choices=choices)
    assert attached.lost.map(lambda s: s[0]) == main
    assert groups.wounds_lost == main


def test_the_kinds_are_declared_once_with_their_words() -> None:
    from rulesbook.systems.wh40k.effects.effect import Effect

    assert KINDS["feel-no-pain-mortal"].value.schema == "value: an integer from 2 to 6"
    assert (
        KINDS["feel-no-pain-mortal"]
        .words(Effect(kind="feel-no-pain-mortal", value=4))
        .startswith("Feel No Pain 4+ against mortal wounds")
    )
    assert KINDS["feel-no-pain"].lands == KINDS["feel-no-pain-mortal"].lands == "target"


@pytest.mark.covers("wh40k.attack.feel-no-pain", "wh40k.interpretations.mixed-allocation")
def test_an_effect_s_feel_no_pain_reaches_every_kind_of_model(tmp_path: Path) -> None:
    """Against a squad whose models differ, a stratagem giving Feel No Pain 5+ answers as the
    datasheet's own Feel No Pain 5+ does (every group has it)."""
    from rulesbook.variants import run_with_variant

    calc = REG.calculator("wh40k.datasheet-attack")
    host = (
        Path(__file__).resolve().parents[2] / "rulesbook/systems/wh40k/examples/mire-host.yaml"
    ).read_text()
    own = tmp_path / "own.yaml"
    own.write_text(
        host.replace("    - deep-strike\n", "    - deep-strike\n    - feel-no-pain-5\n", 1), encoding="utf-8"
    )
    plain = tmp_path / "plain.yaml"
    plain.write_text(host, encoding="utf-8")
    variant = _mortal_stratagem(tmp_path, "feel-no-pain", 5)
    shot = {"weapons": "silence-sweep", "target": "mire-wardens"}
    printed = calc.run(**shot, target_faction=str(own))
    given_ = run_with_variant(
        calc, str(variant), **shot, target_faction=str(plain), target_stratagems="hardy"
    )
    assert given_["wounds_lost_exact"] == printed["wounds_lost_exact"]
    assert calc.run(**shot, target_faction=str(plain))["wounds_lost_exact"] != printed["wounds_lost_exact"]
    assert any("Mire Warden Champion (W3, Sv 3+, Feel No Pain 5+)" in line for line in given_.explanation)


@pytest.mark.covers("wh40k.attack.feel-no-pain", "wh40k.attack.devastating-wounds")
@pytest.mark.parametrize(
    ("fnp", "fnp_mortal", "combined"), [(None, 4, "better-one"), (6, 4, "both-rolled"), (5, 3, "better-one")]
)
def test_a_sequence_meets_it_as_the_attack_does(
    fnp: int | None, fnp_mortal: int | None, combined: str
) -> None:
    got = REG.calculator("wh40k.sequence").run(
        weapons="A=1 BS=3 S=4 AP=0 D=2 devastating-wounds", toughness="4", save="3", wounds="10",
        models="1", fnp=str(fnp or "none"), fnp_mortal=str(fnp_mortal or "none"), fnp_combined=combined,
    )  # fmt: skip
    want = one_devastating_shot(fnp, fnp_mortal, combined)
    assert [Fraction(p) for p in got["wounds_lost_exact"][:3]] == [want.get(k, Fraction(0)) for k in range(3)]


def test_fnp_mortal_reaches_every_calculator_that_takes_fnp() -> None:
    """Against a Devastating Wounds weapon (Rotwind's, or typed), Feel No Pain 2+ against mortal
    wounds saves wounds in every calculator that takes fnp: the input is used, not only offered."""
    typed = {"weapons": "A=6 BS=2 S=8 AP=-2 D=3 devastating-wounds"}
    runs = {
        "wh40k.attack": {"attacks": "6", "skill": "2", "strength": "8", "ap": "-2", "damage": "3",
                         "abilities": "devastating-wounds"},
        "wh40k.sequence": typed,
        "wh40k.attack-and-battle-shock": {**typed, "leadership": "7"},
        "wh40k.mortarion": {"weapons": "rotwind"},
        "wh40k.datasheet-attack": {"weapons": "rotwind", "target": "profile"},
        "wh40k.grenade": {},
    }  # fmt: skip
    takers = {c.id for c in REG.calculators.values() if "fnp" in {i.key for i in c.inputs}}
    assert takers == set(runs)
    target = {"toughness": "4", "save": "3", "wounds": "3", "models": "5"}
    for cid, inputs in runs.items():
        calc = REG.calculator(cid)
        given = {k: v for k, v in {**target, **inputs}.items() if k in {i.key for i in calc.inputs}}
        plain, hardy = calc.run(**given), calc.run(**given, fnp_mortal="2")
        key = next(k for k in ("mean_wounds_lost_exact", "mean_models_lost_exact") if k in plain.values)
        assert Fraction(hardy[key]) < Fraction(plain[key]), (cid, key)
