"""One test per Death Guard ability, aura, stratagem and detachment rule: the datasheet calculator
with the rule gives exactly what the plain attack calculator gives with the hand-equivalent
inputs (or a hand-derived fraction), and a rule out of scope changes nothing and says so."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.results import CalcResult
from rulesbook.systems.wh40k.faction.reader import death_guard
from rulesbook.systems.wh40k.faction.shock import p_not_battle_shocked

REG = registry()
CALC = REG.calculator("wh40k.datasheet-attack")
ATTACK = REG.calculator("wh40k.attack")
DG = death_guard()
LANTERN = {
    "attacks": "1",
    "skill": "2",
    "strength": "9",
    "ap": "-3",
    "damage": "3",
    "abilities": "sustained-hits-d3",
}
ROTWIND = {
    "attacks": "D6+3",
    "skill": "2",
    "strength": "7",
    "ap": "-2",
    "damage": "1",
    "abilities": "blast,devastating-wounds,lethal-hits",
}
STRIKE = {
    "attacks": "5",
    "skill": "2",
    "strength": "14",
    "ap": "-3",
    "damage": "4",
    "abilities": "lethal-hits",
    "ranged": "false",
}
MARINES = {"toughness": 4, "save": 3, "wounds": 2, "models": 5}
MORTARION = {"toughness": 12, "save": 2, "wounds": 16, "models": 1, "invuln": 4, "fnp": 5}


def run(**values: Any) -> CalcResult:
    return CALC.run(**{**MARINES, **values})


def plain(weapon: dict[str, str], **values: Any) -> CalcResult:
    return ATTACK.run(**{**weapon, **MARINES, **values})


def same(a: CalcResult, b: CalcResult) -> bool:
    return (
        a["wounds_lost_exact"] == b["wounds_lost_exact"]
        and a["mean_wounds_lost_exact"] == b["mean_wounds_lost_exact"]
    )


def record(result: CalcResult, name: str) -> list[tuple[Any, ...]]:
    return [row for row in result.table("effects_applied").rows if row[2] == name]


# -- abilities ------------------------------------------------------------------------------------


@pytest.mark.covers("wh40k.death-guard.ability.nurgles-gift")
def test_nurgles_gift_takes_one_toughness_within_contagion_range() -> None:
    # round 1: 3"; Rotwind S7 against T4 wounds on 3+, against T3 (S >= 2T) on 2+
    near, far = run(weapons="rotwind", distance=3), run(weapons="rotwind", distance=4)
    assert same(near, plain(ROTWIND, toughness=3)) and same(far, plain(ROTWIND))
    assert not same(near, far)
    assert same(run(weapons="rotwind", distance=4, battle_round=2), near)  # 6" in round 2
    assert same(run(weapons="rotwind", distance=9, battle_round=5), near)  # 9" from round 3
    assert record(far, "Nurgle's Gift")[0][5] == 'the units are 4" apart, beyond the Contagion Range of 3"'
    assert same(run(weapons="rotwind", distance=3, contagion_range="toughness-input"), far)


@pytest.mark.covers("wh40k.death-guard.ability.host-of-plagues")
def test_host_of_plagues_is_one_aura_per_battle_round() -> None:
    with pytest.raises(InputError, match=r"^aura: expected one of none, miasma-of-pestilence"):
        CALC.validate({**MARINES, "aura": "miasma-of-pestilence,diseased-influence"})
    chosen = run(weapons="rotwind", aura="diseased-influence")
    names = [row[2] for row in chosen.table("effects_applied").rows]
    assert "Diseased Influence" in names
    assert "Miasma of Pestilence" not in names and "Toxic Presence" not in names
    with pytest.raises(InputError, match=r"^target_aura: only a datasheet with Host of Plagues"):
        CALC.validate({**MARINES, "target_aura": "miasma-of-pestilence"})


@pytest.mark.covers("wh40k.death-guard.ability.miasma-of-pestilence")
def test_miasma_gives_mortarion_cover_against_ranged_attacks_only() -> None:
    shot = CALC.run(weapons="rotwind", target="mortarion", target_aura="miasma-of-pestilence")
    assert same(shot, ATTACK.run(**ROTWIND, **MORTARION, cover=True))
    assert not same(shot, ATTACK.run(**ROTWIND, **MORTARION))
    hit = CALC.run(weapons="silence-strike", target="mortarion", target_aura="miasma-of-pestilence")
    assert same(hit, ATTACK.run(**STRIKE, **MORTARION))
    assert any("Miasma of Pestilence: ranged attacks only" in w for w in hit.warnings)


@pytest.mark.covers("wh40k.death-guard.ability.diseased-influence")
def test_diseased_influence_rerolls_wound_rolls_of_one() -> None:
    assert same(run(weapons="rotwind", aura="diseased-influence"), plain(ROTWIND, reroll_wounds="ones"))
    assert same(
        run(weapons="rotwind", aura="diseased-influence", reroll_wounds="failed"),
        plain(ROTWIND, reroll_wounds="failed"),
    )


@pytest.mark.covers("wh40k.death-guard.ability.toxic-presence")
def test_toxic_presence_adds_three_inches_of_contagion_range() -> None:
    without = run(weapons="rotwind", distance=5)
    with_ = run(weapons="rotwind", distance=5, aura="toxic-presence")  # 3" + 3" reaches 5"
    assert same(without, plain(ROTWIND)) and same(with_, plain(ROTWIND, toughness=3))
    assert same(run(weapons="rotwind", distance=7, aura="toxic-presence"), without)


@pytest.mark.covers("wh40k.death-guard.ability.lord-of-the-death-guard", "wh40k.death-guard.ability.damaged")
def test_lord_of_the_death_guard_the_lantern_numbers_of_the_issue() -> None:
    """Hand-derived: The Lantern hits on 2+ (4/6 one hit, 1/6 a Critical Hit with 1 + D3 hits, 3 on
    average): 7/6 hits; each wounds T4 on 2+ (5/6) and the 3+ save at AP-3 fails 5/6; D3 kills a
    W2 model: 7/6 x 25/36 = 175/216. With the −1 (capped): 3/6 + 3/6 = 1 hit: 25/36."""
    lord = run(weapons="the-lantern", damaged=True, stealth=True)
    assert lord["mean_models_destroyed_exact"] == "175/216"
    other = run(weapons="the-lantern", damaged=True, stealth=True, lord_of_the_death_guard="applies")
    assert other["mean_models_destroyed_exact"] == "25/36"
    assert same(other, plain(LANTERN, hit_modifier=-1, stealth=True))
    assert same(lord, plain(LANTERN))
    # a helpful modifier is kept, a harmful typed one disregarded
    assert same(run(weapons="the-lantern", hit_modifier=-1), plain(LANTERN))
    why = [row[5] for row in record(lord, "Lord of the Death Guard")]
    assert "the target's Stealth (−1 to hit) is disregarded" in why


@pytest.mark.covers("wh40k.death-guard.ability.damaged")
def test_damaged_is_a_hit_modifier_sharing_the_cap() -> None:
    applies = {"lord_of_the_death_guard": "applies"}
    assert same(run(weapons="rotwind", damaged=True, **applies), plain(ROTWIND, hit_modifier=-1))
    # with +1 from elsewhere they cancel; with another −1 the total stays −1
    assert same(run(weapons="rotwind", damaged=True, hit_modifier=1, **applies), plain(ROTWIND))
    assert same(
        run(weapons="rotwind", damaged=True, hit_modifier=-1, **applies), plain(ROTWIND, hit_modifier=-1)
    )


@pytest.mark.covers("wh40k.death-guard.ability.supreme-commander")
def test_supreme_commander_changes_no_number() -> None:
    r = run(weapons="rotwind")
    assert same(r, plain(ROTWIND))
    row = record(r, "Supreme Commander")[0]
    assert row[4] == "no" and "wh40k.interpretations.outside-attack-rules" in row[5]


@pytest.mark.covers(
    "wh40k.death-guard.ability.skullsquirm-blight", "wh40k.death-guard.detachment.spread-the-sickness"
)
def test_skullsquirm_blight_worsens_the_attackers_skill() -> None:
    """Mortarion shooting at Mortarion whose army has Skullsquirm Blight: BS 2+ becomes 3+ —
    unless the shooter's own Lord of the Death Guard disregards it (the published reading)."""
    base = {
        "weapons": "rotwind",
        "target": "mortarion",
        "target_detachment": "spread-the-sickness",
        "target_sickness": "skullsquirm-blight",
        "distance": 3,
    }
    worse = CALC.run(**base, lord_of_the_death_guard="applies")
    assert same(worse, ATTACK.run(**{**ROTWIND, "skill": "3"}, **MORTARION))
    assert same(CALC.run(**base), ATTACK.run(**ROTWIND, **MORTARION))
    # as a roll modifier instead: −1 to hit, which would share the cap
    as_mod = CALC.run(**base, lord_of_the_death_guard="applies", sickness_caps="roll-modifier")
    assert same(as_mod, ATTACK.run(**ROTWIND, **MORTARION, hit_modifier=-1))
    with pytest.raises(InputError, match=r"^target_sickness: a Sickness comes with the spread-the-sickness"):
        CALC.validate({**MARINES, "target_sickness": "skullsquirm-blight"})


@pytest.mark.covers("wh40k.death-guard.ability.rattlejoint-ague")
def test_rattlejoint_ague_worsens_the_save_characteristic() -> None:
    sick = {"detachment": "spread-the-sickness", "sickness": "rattlejoint-ague", "distance": 2}
    assert same(run(weapons="rotwind", **sick), plain(ROTWIND, save=4, toughness=3))
    # The Lantern (AP-3) at Sv 3+ with a 4+ invulnerable: the worse armour save (4+ -> 7) leaves
    # the invulnerable at 1/2; as a −1 roll modifier it worsens the armour save alone, never the
    # invulnerable one (a modifier that skips it: save_modifier with invuln_modifiers=armour-only)
    tough = {"toughness": 3, "invuln": 4}
    characteristic = run(weapons="the-lantern", **sick, **tough)
    modifier = run(weapons="the-lantern", **sick, **tough, sickness_caps="roll-modifier")
    assert same(characteristic, plain(LANTERN, **tough))
    assert same(modifier, plain(LANTERN, **tough, save_modifier=-1, invuln_modifiers="armour-only"))
    # 7/6 hits x 5/6 wound x (1 - 1/2), the invulnerable save either way
    assert characteristic["mean_models_destroyed_exact"] == str(
        Fraction(7, 6) * Fraction(5, 6) * Fraction(1, 2)
    )
    assert modifier["mean_models_destroyed_exact"] == characteristic["mean_models_destroyed_exact"]


@pytest.mark.covers("wh40k.death-guard.ability.scabrous-soulrot")
def test_scabrous_soulrot_changes_leadership_not_the_attack() -> None:
    sick = {"detachment": "spread-the-sickness", "sickness": "scabrous-soulrot", "distance": 2}
    r = run(weapons="rotwind", **sick)
    assert same(r, plain(ROTWIND, toughness=3))
    assert {row[4] for row in record(r, "Scabrous Soulrot")} == {"no"}
    # Battle-shock at Ld 6+: 2D6 >= 6 is 26/36; at 7+ it is 21/36
    soulrot = DG.abilities["scabrous-soulrot"]
    assert p_not_battle_shocked(6) == Fraction(26, 36)
    assert p_not_battle_shocked(6, enemy_sickness=soulrot) == Fraction(21, 36)


@pytest.mark.covers("wh40k.death-guard.ability.infected-objectives")
def test_infected_objectives_are_a_condition_not_a_number() -> None:
    r = run(weapons="rotwind", infected=True)
    assert same(r, plain(ROTWIND))


@pytest.mark.covers(
    "wh40k.death-guard.ability.scouts-and-stealth", "wh40k.death-guard.detachment.verminous-haze"
)
def test_verminous_haze_gives_infantry_stealth() -> None:
    haze = {"target_detachment": "verminous-haze", "lord_of_the_death_guard": "applies"}
    infantry = run(weapons="rotwind", target_keywords="infantry", **haze)
    assert same(infantry, plain(ROTWIND, stealth=True))
    assert same(run(weapons="rotwind", target_keywords="monster", **haze), plain(ROTWIND))
    # Mortarion's own Lord disregards the −1 by default
    assert same(
        run(weapons="rotwind", target_keywords="infantry", target_detachment="verminous-haze"), plain(ROTWIND)
    )


@pytest.mark.covers("wh40k.death-guard.datasheet.mortarion")
def test_mortarion_as_a_target_uses_his_published_stat_line() -> None:
    r = CALC.run(weapons="silence-strike", target="mortarion")
    assert same(r, ATTACK.run(**STRIKE, **MORTARION))
    with pytest.raises(InputError, match=r"^target: datasheet targets need the published stat line"):
        CALC.validate({"target": "mortarion", "mortarion_characteristics": "inputs"})
    with pytest.raises(InputError, match=r"^weapons: one profile at a time"):
        CALC.validate({"weapons": "silence-strike,silence-sweep"})
    with pytest.raises(InputError, match=r"^weapons: shoot"):
        CALC.validate({"weapons": "rotwind,silence-strike"})


# -- stratagems -----------------------------------------------------------------------------------


@pytest.mark.covers("wh40k.death-guard.stratagem.ferric-blight")
def test_ferric_blight_improves_ap_by_one_or_two_on_critical_wounds() -> None:
    assert same(run(weapons="rotwind", stratagems="ferric-blight"), plain({**ROTWIND, "ap": "-3"}))
    # The Lantern at Sv 2+: AP-4 leaves a 6+ save (fails 5/6); near an Infected objective a
    # Critical Wound (1/6 of the Wound rolls, S9 v T4 wounds on 2+) is at AP-5: no save.
    two = {"save": 2, "wounds": 1, "models": 10}
    r = run(weapons="the-lantern", stratagems="ferric-blight", infected=True, **two)
    hits = Fraction(7, 6)
    assert r["mean_models_destroyed_exact"] == str(hits * (Fraction(4, 6) * Fraction(5, 6) + Fraction(1, 6)))
    assert same(
        run(weapons="the-lantern", stratagems="ferric-blight", **two), plain({**LANTERN, "ap": "-4"}, **two)
    )
    fight = CALC.run(weapons="silence-strike", target="mortarion", stratagems="ferric-blight")
    assert same(fight, ATTACK.run(**{**STRIKE, "ap": "-4"}, **MORTARION))


@pytest.mark.covers("wh40k.death-guard.stratagem.boilblight")
def test_boilblight_gives_heavy_and_ignores_cover_in_contagion_range() -> None:
    """Register entry boilblight-reach: chosen means in reach of one unit of the army (default),
    whatever the attacking unit's distance; the alternative measures from the attacking unit."""
    covered = {"cover": True, "save": 4}
    r = run(
        weapons="the-lantern",
        stratagems="boilblight",
        distance=3,
        damaged=True,
        lord_of_the_death_guard="applies",
        **covered,
    )
    heavy = {**LANTERN, "abilities": "sustained-hits-d3,heavy,ignores-cover"}
    assert same(r, plain(heavy, hit_modifier=-1, toughness=3, **covered))
    assert same(r, plain(LANTERN, toughness=3, save=4))  # Heavy +1 cancels Damaged, no cover
    heavy_only = plain({**LANTERN, "abilities": "sustained-hits-d3,heavy,ignores-cover"}, **covered)
    for distance in (9, None):  # beyond the attacker's 3", or not given: still applies
        anywhere = run(weapons="the-lantern", stratagems="boilblight", distance=distance, **covered)
        assert same(anywhere, heavy_only)
    measured = {"boilblight_reach": "attacking-unit", **covered}
    far = run(weapons="the-lantern", stratagems="boilblight", distance=9, **measured)
    assert same(far, plain(LANTERN, **covered))
    assert same(run(weapons="the-lantern", stratagems="boilblight", **measured), plain(LANTERN, **covered))
    near = run(weapons="the-lantern", stratagems="boilblight", distance=3, **measured)
    assert same(
        near, plain({**LANTERN, "abilities": "sustained-hits-d3,heavy,ignores-cover"}, toughness=3, **covered)
    )


@pytest.mark.covers("wh40k.death-guard.stratagem.cloud-of-flies")
def test_cloud_of_flies_gives_stealth_in_the_opponents_shooting_phase() -> None:
    applies = {"lord_of_the_death_guard": "applies"}
    r = CALC.run(weapons="rotwind", target="mortarion", target_stratagems="cloud-of-flies", **applies)
    assert same(r, ATTACK.run(**ROTWIND, **MORTARION, stealth=True))
    melee = CALC.run(weapons="silence-strike", target="mortarion", target_stratagems="cloud-of-flies")
    assert same(melee, ATTACK.run(**STRIKE, **MORTARION))
    assert any(w.startswith("Cloud of Flies: a opponent-shooting phase effect") for w in melee.warnings)


@pytest.mark.covers("wh40k.death-guard.stratagem.disgustingly-resilient")
def test_disgustingly_resilient_is_a_fight_phase_stratagem() -> None:
    fight = CALC.run(weapons="silence-strike", target="mortarion", target_stratagems="disgustingly-resilient")
    assert same(fight, ATTACK.run(**STRIKE, **MORTARION, damage_reduction=1))
    shot = CALC.run(weapons="the-lantern", target="mortarion", target_stratagems="disgustingly-resilient")
    assert same(shot, ATTACK.run(**LANTERN, **MORTARION))
    assert shot.warnings == (
        "Disgustingly Resilient: a fight phase effect, but this attack is in opponent-shooting; it changes nothing here",
    )
    # the generic calculator keeps a typed reduction but says so for a ranged attack
    generic = ATTACK.run(**LANTERN, **MORTARION, damage_reduction=1)
    assert any(w.startswith("damage_reduction with a ranged attack") for w in generic.warnings)
    assert not ATTACK.run(**STRIKE, **MORTARION, damage_reduction=1).warnings


@pytest.mark.covers("wh40k.death-guard.stratagem.sanguous-flux")
def test_sanguous_flux_gives_sustained_hits_one_or_two() -> None:
    one = CALC.run(weapons="silence-strike", target="mortarion", stratagems="sanguous-flux")
    assert same(one, ATTACK.run(**{**STRIKE, "abilities": "lethal-hits,sustained-hits-1"}, **MORTARION))
    two = CALC.run(weapons="silence-strike", target="mortarion", stratagems="sanguous-flux", infected=True)
    assert same(two, ATTACK.run(**{**STRIKE, "abilities": "lethal-hits,sustained-hits-2"}, **MORTARION))
    shot = run(weapons="rotwind", stratagems="sanguous-flux")
    assert same(shot, plain(ROTWIND)) and shot.warnings


@pytest.mark.covers("wh40k.death-guard.stratagem.fire-overwatch")
def test_fire_overwatch_hits_on_sixes_and_moves_the_phase() -> None:
    r = run(weapons="rotwind", stratagems="fire-overwatch")
    assert same(r, plain(ROTWIND, overwatch=True))
    both = run(weapons="rotwind", stratagems="fire-overwatch,ferric-blight")
    assert same(both, plain(ROTWIND, overwatch=True))  # Ferric Blight is for your Shooting phase
    assert any(w.startswith("Ferric Blight: a your-shooting/fight phase effect") for w in both.warnings)


@pytest.mark.covers("wh40k.death-guard.stratagem.insane-bravery")
def test_insane_bravery_core_passes_the_battle_shock_test() -> None:
    assert p_not_battle_shocked(9) == Fraction(10, 36)
    assert p_not_battle_shocked(9, [DG.stratagems["insane-bravery"]]) == 1
    assert same(run(weapons="rotwind", stratagems="insane-bravery"), plain(ROTWIND))


@pytest.mark.covers("wh40k.death-guard.stratagem.insane-bravery-boarding-actions")
def test_insane_bravery_boarding_actions_turns_a_failure_into_a_pass() -> None:
    assert p_not_battle_shocked(8, [DG.stratagems["insane-bravery-boarding-actions"]]) == 1
    r = run(weapons="rotwind", stratagems="insane-bravery-boarding-actions")
    assert record(r, "Insane Bravery (Boarding Actions)")[0][5].startswith("a your-command phase effect")
    assert same(r, plain(ROTWIND))


def _no_number(key: str) -> None:
    """The stratagem is accepted, listed as skipped with its register entry, and changes nothing;
    under the strict reading it is refused."""
    st = DG.stratagems[key]
    r = run(weapons="rotwind", stratagems=key)
    assert same(r, plain(ROTWIND))
    rows = record(r, st.name)
    assert rows and all(row[4] == "no" for row in rows)
    assert any("wh40k.interpretations." in row[5] for row in rows)
    with pytest.raises(InputError, match=f"^stratagems: {re.escape(st.name)} changes no number"):
        run(weapons="rotwind", stratagems=key, outside_attack_rules="refuse")


@pytest.mark.covers("wh40k.death-guard.stratagem.battlefield-command")
def test_battlefield_command() -> None:
    _no_number("battlefield-command")


@pytest.mark.covers("wh40k.death-guard.stratagem.command-re-roll")
def test_command_re_roll_core() -> None:
    _no_number("command-re-roll")


@pytest.mark.covers("wh40k.death-guard.stratagem.command-re-roll-boarding-actions")
def test_command_re_roll_boarding_actions() -> None:
    _no_number("command-re-roll-boarding-actions")
    core, ba = DG.stratagems["command-re-roll"], DG.stratagems["command-re-roll-boarding-actions"]
    assert (core.category, ba.category) == ("Battle Tactic", "Epic Deed")


@pytest.mark.covers("wh40k.death-guard.stratagem.explosive-clearance")
def test_explosive_clearance() -> None:
    _no_number("explosive-clearance")


@pytest.mark.covers("wh40k.death-guard.stratagem.counter-offensive")
def test_counter_offensive() -> None:
    _no_number("counter-offensive")


@pytest.mark.covers("wh40k.death-guard.stratagem.counter-offensive-boarding-actions")
def test_counter_offensive_boarding_actions() -> None:
    _no_number("counter-offensive-boarding-actions")


@pytest.mark.covers("wh40k.death-guard.stratagem.rapid-ingress")
def test_rapid_ingress() -> None:
    _no_number("rapid-ingress")


@pytest.mark.covers("wh40k.death-guard.stratagem.grenade")
def test_grenade() -> None:
    """Not an attack; its own calculator: six D6 at 4+ (1/2 each), mortal wounds spill."""
    _no_number("grenade")
    grenade = REG.calculator("wh40k.grenade")
    one = grenade.run(wounds=2, models=1)  # destroyed unless 0 or 1 of six dice succeed: 1 - 7/64
    assert one["p_at_least_one_model_exact"] == "57/64"
    ten = grenade.run(wounds=1, models=10, fnp=5)  # each die: 1/2 x 2/3
    assert ten["mean_wounds_lost_exact"] == "2"
    assert ten["models_destroyed_exact"][6] == str(Fraction(1, 3) ** 6)
    assert sum(Fraction(p) for p in ten["models_destroyed_exact"]) == 1


@pytest.mark.covers("wh40k.death-guard.stratagem.heroic-intervention")
def test_heroic_intervention() -> None:
    _no_number("heroic-intervention")


@pytest.mark.covers("wh40k.death-guard.stratagem.epic-challenge")
def test_epic_challenge() -> None:
    _no_number("epic-challenge")


@pytest.mark.covers("wh40k.death-guard.stratagem.gifts-of-decay")
def test_gifts_of_decay() -> None:
    _no_number("gifts-of-decay")


# -- the exact answer against a seeded Monte Carlo ------------------------------------------------


@pytest.mark.covers(
    "wh40k.death-guard.datasheet.mortarion", "wh40k.death-guard.stratagem.disgustingly-resilient"
)
def test_datasheet_attack_agrees_with_a_seeded_monte_carlo() -> None:
    """Silence (strike) against Mortarion in the Fight phase with Disgustingly Resilient and a
    Diseased Influence aura on the attacker: the effects plan, resolved exactly, against an
    independent simulation of the same plan's weapons and target (40 000 seeded trials)."""
    from rulesbook.systems.wh40k.calculators.datasheet import plan_of
    from tests.wh40k.options import choose
    from tests.wh40k.simulate import simulate

    values = {
        "weapons": "silence-strike",
        "target": "mortarion",
        "target_stratagems": "disgustingly-resilient",
        "aura": "diseased-influence",
    }
    exact = CALC.run(**values)
    checked = CALC.validate(values)
    plan = plan_of(checked, _choices(checked))
    assert plan.situation.reroll_wounds == "ones" and plan.target.damage_reduction == 1
    setup = choose(reroll_wounds="ones")
    freq = simulate(plan.weapons, plan.target, setup, trials=40_000, seed=11)
    mean_mc = sum(k * p for k, p in freq.items())
    mean = Fraction(exact["mean_wounds_lost_exact"])
    assert abs(float(mean_mc - mean)) < 0.08  # sd of wounds lost ~3.5, so 4 sd of the mean
    for k, p in enumerate(exact["wounds_lost"]):
        assert abs(float(freq.get(k, Fraction(0))) - p) < 0.01


def _choices(values: dict[str, Any]) -> Any:
    from rulesbook.systems.wh40k.calculators.datasheet_inputs import DATASHEET_READINGS
    from rulesbook.systems.wh40k.calculators.path import READING_KEYS
    from rulesbook.systems.wh40k.choices import CHOICES

    return CHOICES.replace(readings={k: values[k] for k in (*READING_KEYS, *DATASHEET_READINGS)})


# -- properties -----------------------------------------------------------------------------------

SHOOTING = ("ferric-blight", "boilblight", "fire-overwatch", "grenade", "command-re-roll", "sanguous-flux")


@settings(max_examples=25, deadline=None)
@given(
    stratagems=st.lists(st.sampled_from(SHOOTING), unique=True, max_size=3),
    aura=st.sampled_from(("none", "miasma-of-pestilence", "diseased-influence", "toxic-presence")),
    damaged=st.booleans(),
    stealth=st.booleans(),
    hit_modifier=st.integers(-2, 1),
    battle_round=st.integers(1, 5),
    distance=st.integers(0, 14),
)
@pytest.mark.covers("wh40k.death-guard.ability.lord-of-the-death-guard")
def test_lord_never_lowers_the_mean_and_distributions_sum_to_one(
    stratagems: list[str],
    aura: str,
    damaged: bool,
    stealth: bool,
    hit_modifier: int,
    battle_round: int,
    distance: int,
) -> None:
    """Disregarding only harmful modifiers can never make the attack worse; every answer is a
    distribution."""
    values = {
        "weapons": "the-lantern",
        "stratagems": ",".join(stratagems),
        "aura": aura,
        "damaged": damaged,
        "stealth": stealth,
        "hit_modifier": hit_modifier,
        "battle_round": battle_round,
        "distance": distance,
    }
    lord = run(**values)
    without = run(**values, lord_of_the_death_guard="applies")
    assert Fraction(lord["mean_wounds_lost_exact"]) >= Fraction(without["mean_wounds_lost_exact"])
    for r in (lord, without):
        assert sum(Fraction(p) for p in r["wounds_lost_exact"]) == 1


@pytest.mark.covers("wh40k.death-guard.stratagem.sanguous-flux", "wh40k.attack.sustained-hits")
@pytest.mark.parametrize(
    ("own", "infected", "larger", "replaced"),
    [
        ("sustained-hits-1", True, "2", "2"),  # 2 beats 1 on either reading
        ("sustained-hits-d3", False, "D3", "1"),  # D3 (2 on average) beats 1
        ("sustained-hits-d3", True, "D3", "2"),  # a tie keeps the weapon's own
        ("sustained-hits-2", False, "2", "1"),
    ],
)
def test_sanguous_flux_on_a_weapon_with_sustained_hits(
    own: str, infected: bool, larger: str, replaced: str
) -> None:
    """Register entry sustained-stacking: by default the larger X on average stays; under the
    alternative the stratagem's X replaces the weapon's."""
    from rulesbook.dice import parse_dice
    from rulesbook.systems.wh40k.attack.rolls import Situation
    from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities
    from rulesbook.systems.wh40k.choices import CHOICES
    from rulesbook.systems.wh40k.faction.sides import Context, Side, apply_effects

    claws = Weapon("claws", parse_dice("4"), 3, 5, -1, parse_dice("1"), parse_abilities(own))
    attacker = Side(stratagems=(DG.stratagems["sanguous-flux"],))
    ctx = Context(ranged=False, infected=infected)
    for reading, expected in (("larger-on-average", larger), ("stratagem-replaces", replaced)):
        choices = CHOICES.replace(readings={"sustained_stacking": reading})
        plan = apply_effects([claws], Target(4, 3, 1), Situation(), attacker, Side(), ctx, choices)
        assert str(plan.weapons[0].abilities.sustained) == expected, reading
