"""The 40k calculators that roll the same thing take the same situational inputs, declared once
(`calculators/path.py` for an attack, `calculators/roll_tests.py` for a Battle-shock test); the
exceptions are listed here, each with its reason, so a calculator cannot silently lack one."""

from __future__ import annotations

import dataclasses

from rulesbook.inputs import Input
from rulesbook.registry import registry
from rulesbook.systems.wh40k.calculators.path import READING_INPUTS, SITUATION_INPUTS, TARGET_INPUTS
from rulesbook.systems.wh40k.calculators.roll_tests import ENEMY_SICKNESS_INPUT, STRATAGEMS_INPUT
from rulesbook.systems.wh40k.choices import Wh40kReadings

WH40K = registry().calculators_for_system("wh40k")

ATTACKS = {
    "wh40k.attack": "one weapon profile",
    "wh40k.mortarion": "Mortarion's weapons",
    "wh40k.sequence": "weapon profiles in order",
    "wh40k.attack-and-battle-shock": "weapon profiles, then the target's Battle-shock test",
    "wh40k.datasheet-attack": "a datasheet's weapons with both sides' faction entries",
}
"""Every 40k calculator that resolves an attack, and what it attacks with."""

STRATAGEM_INPUTS = {
    "wh40k.datasheet-attack": {
        "stratagems": "the attacker's stratagems, applied to the attack (its own faction file's)",
        "target_stratagems": "the target's player's stratagems, applied to the attack",
    },
    "wh40k.attack-and-battle-shock": {
        "stratagems": "the tested unit's player's stratagems on its Battle-shock test, as wh40k.battle-shock",
    },
}
"""Who takes stratagems among the attack calculators, and whose they are. The others take typed
weapon profiles, not faction entries: a stratagem's effect on the attack is given there as the
situation input it sets (``hit_modifier``, ``reroll_wounds``, ``cover``, ...)."""

RENAMED = {"modifier": "battle_shock_modifier", "reroll": "battle_shock_reroll"}
"""wh40k.battle-shock's inputs under the names wh40k.attack-and-battle-shock gives them: beside an
attack's hit and wound modifiers and re-rolls, the test's are named for it."""


def same_values(got: Input, declared: Input) -> bool:
    """``got`` takes the values ``declared`` takes (its words and default may differ: the datasheet
    attack's target inputs apply when its target is a typed profile, and default to one)."""
    return (
        dataclasses.replace(got, label=declared.label, help=declared.help, default=declared.default)
        == declared
    )


def test_every_attack_calculator_takes_every_situation_target_and_reading_input() -> None:
    attacking = {calc.id for calc in WH40K if {"toughness", "hit_modifier"} <= {i.key for i in calc.inputs}}
    assert attacking == set(ATTACKS)
    shared = (*SITUATION_INPUTS, *TARGET_INPUTS, *READING_INPUTS)
    for calc_id in ATTACKS:
        calc = registry().calculator(calc_id)
        keys = {i.key for i in calc.inputs}
        for declared in shared:
            assert declared.key in keys, (calc_id, declared.key)
            assert same_values(calc.input(declared.key), declared), (calc_id, declared.key)
        takes = {key for key in ("stratagems", "target_stratagems") if key in keys}
        assert takes == set(STRATAGEM_INPUTS.get(calc_id, {})), calc_id


def test_every_battle_shock_calculator_takes_the_same_test_inputs() -> None:
    rolling = {calc.id for calc in WH40K if "battle-shock" in calc.tests}
    assert rolling == {"wh40k.battle-shock", "wh40k.attack-and-battle-shock"}
    alone, chain = (
        registry().calculator("wh40k.battle-shock"),
        registry().calculator("wh40k.attack-and-battle-shock"),
    )
    for declared in (
        ENEMY_SICKNESS_INPUT,
        STRATAGEMS_INPUT,
        Wh40kReadings.input("battle_shock_modifiers"),
        Wh40kReadings.input("battle_shock_phase"),
    ):
        assert alone.input(declared.key) == declared == chain.input(declared.key), declared.key
    for key, renamed in RENAMED.items():
        same = dataclasses.replace(alone.input(key), key=renamed, label="", help="")
        assert dataclasses.replace(chain.input(renamed), label="", help="") == same, key
    situational = {i.key for i in alone.inputs} - {"leadership"}
    assert situational == {
        *RENAMED,
        "enemy_sickness",
        "stratagems",
        "battle_shock_modifiers",
        "battle_shock_phase",
    }
