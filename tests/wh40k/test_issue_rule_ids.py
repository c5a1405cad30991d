"""Every rule issue 11 names as lacking an ID has one now, with a citation, a page, and either a
calculator / declared effect that uses it or a register entry saying why it changes no number;
the moves that roll no dice (Normal move, Disembark, Deep Strike) feed the dice calculators."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import ceil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.registry import registry
from rulesbook.systems.wh40k.calculators.moves import (
    charge_test,
    deep_strike_charge_distance,
    disembark,
    normal_move_covers,
)
from rulesbook.systems.wh40k.choices import CHOICES
from rulesbook.systems.wh40k.faction.reader import death_guard

REG = registry()

ISSUE_NAMES = {
    "Leader": "wh40k.core.attached-units",
    "Attached units": "wh40k.core.attached-units",
    "Starting Strength": "wh40k.core.starting-strength",
    "Normal move": "wh40k.core.normal-move",
    "Advance": "wh40k.core.advance",
    "Charge": "wh40k.core.charge",
    "Disembark": "wh40k.core.disembark",
    "Deep Strike": "wh40k.core.deep-strike",
    "Pistol": "wh40k.attack.pistol",
    "Precision": "wh40k.attack.precision",
    "Heroic Intervention": "wh40k.death-guard.stratagem.heroic-intervention",
    "Epic Challenge": "wh40k.death-guard.stratagem.epic-challenge",
    "Rapid Ingress": "wh40k.death-guard.stratagem.rapid-ingress",
    "Battlefield Command": "wh40k.death-guard.stratagem.battlefield-command",
    "Explosive Clearance": "wh40k.death-guard.stratagem.explosive-clearance",
    "Counter-offensive": "wh40k.death-guard.stratagem.counter-offensive",
    "Counter-offensive (Boarding Actions)": "wh40k.death-guard.stratagem.counter-offensive-boarding-actions",
    "Command Re-roll": "wh40k.death-guard.stratagem.command-re-roll",
    "Command Re-roll (Boarding Actions)": "wh40k.death-guard.stratagem.command-re-roll-boarding-actions",
    "Insane Bravery": "wh40k.death-guard.stratagem.insane-bravery",
    "Insane Bravery (Boarding Actions)": "wh40k.death-guard.stratagem.insane-bravery-boarding-actions",
    "Grenade": "wh40k.death-guard.stratagem.grenade",
    "Gifts of Decay": "wh40k.death-guard.stratagem.gifts-of-decay",
    "Ferric Blight": "wh40k.death-guard.stratagem.ferric-blight",
    "Sanguous Flux": "wh40k.death-guard.stratagem.sanguous-flux",
    "Host of Plagues": "wh40k.death-guard.ability.host-of-plagues",
    "Toxic Presence": "wh40k.death-guard.ability.toxic-presence",
    "Lord of the Death Guard": "wh40k.death-guard.ability.lord-of-the-death-guard",
    "Supreme Commander": "wh40k.death-guard.ability.supreme-commander",
    "Spread the Sickness": "wh40k.death-guard.detachment.spread-the-sickness",
    "Infected objectives": "wh40k.death-guard.ability.infected-objectives",
    "Skullsquirm Blight": "wh40k.death-guard.ability.skullsquirm-blight",
    "Rattlejoint Ague": "wh40k.death-guard.ability.rattlejoint-ague",
    "Scabrous Soulrot": "wh40k.death-guard.ability.scabrous-soulrot",
}


def _declared_effects(rule_id: str) -> list[str]:
    dg = death_guard()
    for table in (dg.abilities, dg.stratagems, dg.detachments):
        for entry in table.values():
            if entry.id == rule_id:
                return [e.kind for e in entry.effects]
    return []


@pytest.mark.parametrize(("name", "rule_id"), sorted(ISSUE_NAMES.items()))
def test_each_named_rule_has_an_id_a_citation_and_numbers_or_a_register_entry(
    name: str, rule_id: str
) -> None:
    rule = REG.rule(rule_id)
    assert rule.citations, f"{name}: no citation"
    assert rule.text.strip()
    used = bool(REG.calculators_for_rule(rule_id)) or bool(REG.implementations_for_rule(rule_id))
    effects = [k for k in _declared_effects(rule_id) if k != "none"]
    registered = bool(rule.interpretations) or bool(REG.interpretations_for_rule(rule_id))
    assert used or effects or registered, f"{name}: neither numbers nor a register entry"


def _p_2d6_at_least(n: int) -> Fraction:
    return Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= n), 36)


@pytest.mark.covers("wh40k.core.deep-strike", "wh40k.core.charge")
@pytest.mark.parametrize("gap", ["9.5", "10", "11.5"])
def test_a_charge_after_deep_strike_crosses_more_than_nine_inches(gap: str) -> None:
    """Set up more than 9" away, a charge must cover the gap less 1" of Engagement Range, rounded
    up: counted over the 36 rolls of 2D6."""
    calc = REG.calculator("wh40k.charge-gap")
    r = calc.run(**calc.validate({"gap": gap}))
    assert Fraction(r["p_success_exact"]) == _p_2d6_at_least(ceil(float(gap) - 1))


@pytest.mark.covers("wh40k.core.normal-move", "wh40k.core.advance")
@pytest.mark.parametrize("move", [4, 5, 6, 12])
def test_a_normal_move_needs_no_dice_and_advancing_adds_one_d6(move: int) -> None:
    """A Normal move covers up to M inches with no roll; k inches more need the Advance roll:
    M + D6 >= M + k holds for 7 − k of the 6 faces."""
    calc = REG.calculator("wh40k.advance")
    for k in range(1, 7):
        r = calc.run(**calc.validate({"move": str(move), "distance": str(move + k)}))
        assert Fraction(r["p_success_exact"]) == Fraction(7 - k, 6)


def test_the_moves_without_dice_share_one_register_entry() -> None:
    interp = REG.interpretation("wh40k.interpretations.moves-without-dice")
    assert set(interp.rules) == {"wh40k.core.normal-move", "wh40k.core.disembark", "wh40k.core.deep-strike"}
    for rule_id in interp.rules:
        assert interp.id in REG.rule(rule_id).interpretations


@pytest.mark.covers("wh40k.core.deep-strike")
def test_deep_strike_needs_a_nine_to_charge_by_default() -> None:
    """Just over 9": the roll must cover over 8" (9 on the dice) to reach Engagement Range, over
    9" (10) to reach base contact."""
    assert deep_strike_charge_distance() == 9
    assert deep_strike_charge_distance(CHOICES.replace(readings={"charge_gap": "base-contact"})) == 10
    assert charge_test(deep_strike_charge_distance()).p_pass() == _p_2d6_at_least(9)


@pytest.mark.covers("wh40k.core.normal-move")
@given(st.integers(1, 20), st.fractions(0, 40, max_denominator=1000))
def test_a_normal_move_covers_exactly_up_to_move(move: int, distance: Fraction) -> None:
    assert normal_move_covers(move, distance) == (distance <= move)


@pytest.mark.covers("wh40k.core.disembark")
def test_disembarking_never_remains_stationary() -> None:
    before, after = disembark(transport_moved=False), disembark(transport_moved=True)
    assert before is not None and after is not None
    assert (before.may_move, before.may_charge) == (True, True)
    assert (after.may_move, after.may_charge) == (False, False)
    assert not before.remained_stationary and not after.remained_stationary
    assert disembark(transport_moved=False, transport_advanced_or_fell_back=True) is None
