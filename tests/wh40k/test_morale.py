"""The attack-and-morale chain and the Attached-unit engine (Precision): hand-derived answers,
agreement with the main engine, and an independent seeded Monte Carlo of the whole chain."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.dice import DiceExpr, parse_dice
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack.engine import resolve
from rulesbook.systems.wh40k.attack.groups import LeaderProfile, resolve_attached
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities
from rulesbook.systems.wh40k.calculators.morale import (
    Remaining,
    attack_aftermath,
    below_half_strength,
    remaining_unit,
)
from rulesbook.systems.wh40k.choices import CHOICES

CHAIN = registry().calculator("wh40k.attack-and-battle-shock")


def weapon(attacks: str, skill: int, s: int, ap: int, d: str, abilities: str = "", name: str = "w") -> Weapon:
    return Weapon(name, parse_dice(attacks), skill, s, ap, parse_dice(d), parse_abilities(abilities))


def p_2d6_below(ld: int) -> Fraction:
    """P(2D6 < Ld) by enumerating the 36 rolls."""
    return Fraction(sum(a + b < ld for a, b in itertools.product(range(1, 7), repeat=2)), 36)


def binom(n: int, k: int, p: Fraction) -> Fraction:
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


# -- hand-derived -----------------------------------------------------------------------------


@pytest.mark.covers(
    "wh40k.morale.attack-aftermath", "wh40k.core.starting-strength", "wh40k.core.battle-shock"
)
def test_chain_by_hand_for_one_wound_models() -> None:
    """20 shots that each kill with 1/9 (2/3 hit, 1/2 wound, 1/3 unsaved) at ten Ld 6+ models."""
    r = CHAIN.run(weapons="A=20 BS=3 S=4 AP=0 D=1", toughness=4, save=3, wounds=1, models=10, leadership=6)
    q = Fraction(1, 9)
    dead = [binom(20, k, q) for k in range(11)]
    dead[10] = 1 - sum(dead[:10])  # the last model's death absorbs the extra shots
    below = sum(dead[6:10])  # 6-9 dead: 4-1 models left, fewer than half of 10
    fail = p_2d6_below(6)
    assert Fraction(r["p_below_half_exact"]) == below
    assert Fraction(r["p_battle_shocked_exact"]) == below * fail
    assert Fraction(r["p_unit_destroyed_exact"]) == dead[10]
    escape = sum(dead[k] * fail * Fraction(10 - k, 3) for k in range(6, 10))  # one D6 per model, 1-2 fails
    assert Fraction(r["mean_escape_losses_exact"]) == escape
    overkill = sum((k - 10) * binom(20, k, q) for k in range(11, 21))  # kills beyond the tenth model
    assert Fraction(r["mean_models_destroyed_exact"]) == Fraction(20, 9) - overkill
    assert Fraction(r["mean_models_lost_exact"]) == Fraction(20, 9) - overkill + escape


@pytest.mark.covers("wh40k.interpretations.battle-shocked-falls-back")
def test_units_that_stay_lose_nothing_to_desperate_escape() -> None:
    r = CHAIN.run(
        weapons="A=20 BS=3 S=4 AP=0 D=1",
        toughness=4,
        save=3,
        wounds=1,
        models=10,
        leadership=6,
        battle_shocked_falls_back="stays",
    )
    assert r["mean_escape_losses_exact"] == "0"
    assert r["models_lost_exact"] == r["models_destroyed_exact"]


@pytest.mark.covers("wh40k.core.starting-strength")
@pytest.mark.parametrize(
    ("lost", "below"),
    [(8, False), (9, True), (15, True)],  # a W16 model: 8 left is half, 7 is fewer
)
def test_single_model_uses_wounds(lost: int, below: bool) -> None:
    unit = remaining_unit((lost, 0), Target(11, 2, 16), LeaderProfile(0, 1, 7), 6, 6)
    assert unit is not None and below_half_strength(unit) is below


@pytest.mark.covers("wh40k.core.starting-strength", "wh40k.core.attached-units")
def test_attached_starting_strength_and_split() -> None:
    """Five W2 Bodyguard models and a W5 Leader (Starting Strength 6)."""
    bg, cap = Target(4, 3, 2, models=5), LeaderProfile(1, 5, 3)
    both = remaining_unit((6, 0), bg, cap, 7, 6)  # 2 models + the Leader = 3 of 6: not fewer than half
    assert both == Remaining(3, 6, 0, 0, 6) and not below_half_strength(both)
    fewer = remaining_unit((8, 0), bg, cap, 7, 6)
    assert fewer is not None and fewer.models == 2 and below_half_strength(fewer)
    alone = remaining_unit((10, 2), bg, cap, 7, 6)  # the Leader on its own, Starting Strength 1
    assert alone == Remaining(1, 1, 3, 5, 6) and not below_half_strength(alone)
    bodyguard_only = remaining_unit((4, 5), bg, cap, 7, 6)  # Leader dead: 3 of the original 5
    assert bodyguard_only == Remaining(3, 5, 6, 2, 7) and not below_half_strength(bodyguard_only)
    assert remaining_unit((10, 5), bg, cap, 7, 6) is None


@pytest.mark.covers("wh40k.core.starting-strength")
@given(st.integers(0, 40), st.integers(2, 40), st.booleans())
def test_below_half_definitions(left: int, whole: int, single: bool) -> None:
    """Models against Starting Strength, or for a unit that started as one model its wounds
    against its W; the two readings differ exactly at half."""
    left = min(left, whole)
    unit = Remaining(1, 1, left, whole, 7) if single else Remaining(left, whole, 0, 0, 7)
    at_most = CHOICES.replace(readings={"below_half_strength": "at-most-half"})
    assert below_half_strength(unit) == (left < whole / 2)
    assert below_half_strength(unit, at_most) == (left <= whole / 2)


# -- the Attached-unit engine -----------------------------------------------------------------

ROTWIND = weapon("D6+3", 2, 7, -2, "1", "blast,devastating-wounds,lethal-hits", "Rotwind")
LANTERN = weapon("1", 2, 9, -3, "3", "sustained-hits-d3", "Lantern")
SWEEP = weapon("6", 3, 5, -1, "D3", "devastating-wounds,sustained-hits-1")


@pytest.mark.covers("wh40k.core.attached-units", "wh40k.attack.allocation")
@pytest.mark.parametrize(
    "weapons", [[ROTWIND], [LANTERN, ROTWIND], [SWEEP, LANTERN]], ids=["one", "two", "three"]
)
@pytest.mark.parametrize(
    "readings",
    [
        {},
        {"devastating_excess": "spills"},
        {"allocation": "excess-spills"},
        {"sustained_roll": "once-per-weapon"},
    ],
)
def test_no_leader_agrees_with_the_main_engine(weapons: list[Weapon], readings: dict[str, str]) -> None:
    choices = CHOICES.replace(readings=readings)
    target = Target(4, 3, 2, models=6, invuln=5, fnp=6, damage_reduction=0)
    mine = resolve_attached(weapons, target, LeaderProfile(0, 1, 7), choices=choices)
    assert mine.lost.map(lambda s: s[0]) == resolve(weapons, target, choices=choices).wounds_lost


@pytest.mark.covers("wh40k.attack.precision", "wh40k.interpretations.precision")
def test_precision_goes_for_the_leader() -> None:
    sniper = weapon("1", 2, 4, -2, "3", "precision")
    bg, cap = Target(4, 3, 1, models=5), LeaderProfile(1, 3, 3)
    # hit 5/6, wound 4+ 1/2, the Leader's 3+ at AP-2 needs 5: fails 2/3; 3 damage kills a W3 Leader
    assert resolve_attached([sniper], bg, cap).p_leader_destroyed == Fraction(5, 6) * Fraction(
        1, 2
    ) * Fraction(2, 3)
    ignored = CHOICES.replace(readings={"precision": "ignored"})
    assert resolve_attached([sniper], bg, cap, choices=ignored).p_leader_destroyed == 0
    plain = weapon("1", 2, 4, -2, "3")
    assert resolve_attached([plain], bg, cap).p_leader_destroyed == 0


@pytest.mark.covers("wh40k.core.attached-units")
def test_leader_is_reached_only_after_the_bodyguard() -> None:
    """Two automatic-kill shots (BS 2 can still miss: 5/6) against one W1 Bodyguard model and a W1
    Leader with no save: the Leader dies only if both shots kill."""
    gun = weapon("2", 2, 8, 0, "1")
    r = resolve_attached([gun], Target(4, 7, 1, models=1), LeaderProfile(1, 1, 7))
    kill = Fraction(5, 6) * Fraction(5, 6)  # hit, wound 2+ (S8 vs T4)
    assert r.p_leader_destroyed == kill * kill


def test_calculator_warns_about_precision_without_a_leader() -> None:
    r = CHAIN.run(
        weapons="A=1 BS=2 S=4 AP=-2 D=3 precision", toughness=4, save=3, wounds=1, models=5, leadership=7
    )
    assert any("precision only acts against an Attached unit" in w for w in r.warnings)
    assert "p_leader_destroyed" not in r.values


def test_too_big_an_attached_unit_is_refused() -> None:
    with pytest.raises(InputError, match=r"^leader_models: \(Bodyguard wounds \+ 1\)"):
        CHAIN.run(
            weapons="A=1 BS=2 S=4 D=1",
            toughness=4,
            save=3,
            wounds=10,
            models=20,
            leadership=7,
            leader_models=2,
            leader_wounds=10,
        )


# -- an independent seeded Monte Carlo of the whole chain -------------------------------------


def _roll(rng: random.Random, expr: DiceExpr) -> int:
    return sum(rng.randint(1, expr.sides) for _ in range(expr.count)) + expr.modifier


def _needed(s: int, t: int) -> int:
    return 2 if s >= 2 * t else 3 if s > t else 4 if s == t else 6 if 2 * s <= t else 5


class _Models:
    """Wounds left per model, Bodyguard list and Leader list."""

    def __init__(self, bg: Target, leader: LeaderProfile) -> None:
        self.groups = [[bg.wounds] * bg.models, [leader.wounds] * leader.models]
        self.fnp = [bg.fnp, leader.fnp]

    def group(self, precision: bool) -> int | None:
        if precision and self.groups[1]:
            return 1
        if self.groups[0]:
            return 0
        return 1 if self.groups[1] else None

    def damage(self, rng: random.Random, g: int, points: int) -> None:
        left = self.groups[g]
        for _ in range(points):
            if self.fnp[g] is not None and rng.randint(1, 6) >= self.fnp[g]:
                continue
            left[0] -= 1
            if left[0] == 0:
                left.pop(0)
                return  # excess lost


def _saved(rng: random.Random, w: Weapon, sv: int, invuln: int | None) -> bool:
    armour = sv - w.ap
    need = min(armour, invuln) if invuln is not None else armour
    nat = rng.randint(1, 6)
    return nat != 1 and nat >= need


def simulate_chain(
    rng: random.Random, weapons: list[Weapon], bg: Target, leader: LeaderProfile, ld: int, ld_leader: int
) -> tuple[bool, bool, int]:
    """(Below Half-strength, Battle-shocked, models lost in total) of one seeded run."""
    unit = _Models(bg, leader)
    pending: list[tuple[Weapon, bool]] = []
    profiles = [(bg.save, bg.invuln), (leader.save, leader.invuln)]
    for w in weapons:
        ab, precision = w.abilities, "precision" in w.abilities.other
        n = _roll(rng, w.attacks) + ((bg.models + leader.models) // 5 if ab.blast else 0)
        for _ in range(n):
            nat = rng.randint(1, 6)
            if nat == 1 or nat < w.skill:
                continue
            hits = [nat == 6 and ab.lethal_hits]
            if nat == 6 and ab.sustained is not None:
                hits += [False] * _roll(rng, ab.sustained)
            for auto in hits:
                if not auto:
                    roll = rng.randint(1, 6)
                    if roll == 1 or roll < _needed(w.strength, bg.toughness):
                        continue
                    if roll == 6 and ab.devastating_wounds:
                        pending.append((w, precision))
                        continue
                g = unit.group(precision)
                if g is None:
                    continue
                if not _saved(rng, w, *profiles[g]):
                    unit.damage(rng, g, _roll(rng, w.damage))
    for w, precision in pending:
        g = unit.group(precision)
        if g is not None:
            unit.damage(rng, g, _roll(rng, w.damage))
    b_left, l_left = len(unit.groups[0]), len(unit.groups[1])
    lost = bg.models + leader.models - b_left - l_left
    if b_left and l_left:
        left, start, best = b_left + l_left, bg.models + leader.models, min(ld, ld_leader)
    elif b_left:
        left, start, best = b_left, bg.models, ld
    elif l_left:
        left, start, best = l_left, leader.models, ld_leader
        if start == 1:
            left, start = unit.groups[1][0], leader.wounds
    else:
        return False, False, lost
    if start == 1 and b_left:
        left, start = unit.groups[0][0], bg.wounds
    below = 2 * left < start
    shocked = below and rng.randint(1, 6) + rng.randint(1, 6) < best
    if shocked:
        lost += sum(rng.randint(1, 6) <= 2 for _ in range(b_left + l_left))
    return below, shocked, lost


@pytest.mark.covers("wh40k.morale.attack-aftermath", "wh40k.attack.precision", "wh40k.core.attached-units")
@settings(max_examples=1, deadline=None)
@given(st.just(0))
def test_chain_matches_seeded_monte_carlo(_: int) -> None:
    weapons = [
        weapon("D6+3", 2, 7, -2, "1", "blast,devastating-wounds,lethal-hits", "Rotwind"),
        weapon("2", 2, 5, -2, "3", "precision", "marksman"),
        weapon("8", 3, 4, -1, "1", "sustained-hits-1", "rifles"),
    ]
    bg, leader = Target(4, 3, 2, models=5), LeaderProfile(1, 4, 3, invuln=4, fnp=5)
    exact = attack_aftermath(weapons, bg, 7, leader=leader, leader_leadership=6)
    rng, trials = random.Random(11), 8000
    runs = [simulate_chain(rng, weapons, bg, leader, 7, 6) for _ in range(trials)]

    def close(sampled: float, p: Fraction) -> None:
        tol = 4.5 * math.sqrt(max(float(p) * (1 - float(p)), 1 / trials) / trials)
        assert abs(sampled - float(p)) <= tol, (sampled, float(p))

    close(sum(b for b, _, _ in runs) / trials, exact.p_below_half)
    close(sum(s for _, s, _ in runs) / trials, exact.p_battle_shocked)
    counts = Counter(lost for _, _, lost in runs)
    for k in range(exact.models + 1):
        close(counts[k] / trials, exact.models_lost.p(k))
    assert exact.p_below_half > Fraction(1, 20) and exact.p_battle_shocked > Fraction(1, 100)


@pytest.mark.covers("wh40k.attack.pistol", "wh40k.interpretations.pistol")
def test_pistol_mixed_with_other_guns_gets_a_reminder_and_changes_no_number() -> None:
    seq = registry().calculator("wh40k.sequence")
    target = {"toughness": 4, "save": 3, "wounds": 1, "models": 10}
    mixed = seq.run(weapons="pistol: A=1 BS=3 S=4 D=1 pistol; rifle: A=2 BS=3 S=4 D=1", **target)
    plain = seq.run(weapons="pistol: A=1 BS=3 S=4 D=1; rifle: A=2 BS=3 S=4 D=1", **target)
    assert mixed["models_destroyed_exact"] == plain["models_destroyed_exact"]
    assert any("fires its Pistols or its other ranged weapons" in w for w in mixed.warnings)
    alone = seq.run(weapons="pistol: A=1 BS=3 S=4 D=1 pistol", **target)
    assert not any("Pistols" in w for w in alone.warnings)
    chain = CHAIN.run(
        weapons="pistol: A=1 BS=3 S=4 D=1 pistol; rifle: A=2 BS=3 S=4 D=1", leadership=7, **target
    )
    assert any("fires its Pistols" in w for w in chain.warnings)


def test_too_many_devastating_wounds_against_an_attached_unit_are_refused() -> None:
    with pytest.raises(
        InputError, match=r"^weapons: against an Attached unit a weapon with Devastating Wounds"
    ):
        CHAIN.run(
            weapons="A=100 BS=3 S=4 D=1 sustained-hits-2,devastating-wounds",
            toughness=4,
            save=3,
            wounds=2,
            models=10,
            leadership=6,
            leader_models=1,
        )
    # the same weapon against the unit alone goes to the main engine, which has its own limits
    alone = CHAIN.run(
        weapons="A=40 BS=3 S=4 D=1 devastating-wounds", toughness=4, save=3, wounds=2, models=10, leadership=6
    )
    assert Fraction(alone["p_below_half_exact"]) > 0


@pytest.mark.covers(
    "wh40k.death-guard.stratagem.insane-bravery",
    "wh40k.death-guard.stratagem.insane-bravery-boarding-actions",
)
@pytest.mark.parametrize("leadership", [6, 7, 8])
def test_insane_bravery_passes_the_battle_shock_test(leadership: int) -> None:
    """Insane Bravery passes the test: the same chain as a +6 modifier, which makes 2D6 (at least
    2) reach any Leadership up to 8+; nothing is Battle-shocked and no Desperate Escape follows,
    while the attack and Below Half-strength are unchanged."""
    calc = registry().calculator("wh40k.attack-and-battle-shock")
    base = {"weapons": "bolters: A=20 BS=3 S=4 AP=0 D=1", "toughness": "4", "save": "3", "wounds": "1"}
    base |= {"models": "10", "leadership": str(leadership)}
    plain = calc.run(**calc.validate(base))
    brave = calc.run(**calc.validate({**base, "insane_bravery": "true"}))
    certain = calc.run(**calc.validate({**base, "battle_shock_modifier": "6"}))
    assert Fraction(plain["p_battle_shocked_exact"]) > 0
    assert brave["p_battle_shocked_exact"] == "0" == certain["p_battle_shocked_exact"]
    for key in ("p_below_half_exact", "mean_models_lost_exact", "mean_escape_losses_exact"):
        assert brave[key] == certain[key]
    assert brave["p_below_half_exact"] == plain["p_below_half_exact"]
    assert brave["mean_escape_losses_exact"] == "0"
    assert brave["models_lost"] == brave["models_destroyed"] == plain["models_destroyed"]
    assert any(line.startswith("Insane Bravery") for line in brave.explanation)
