"""The per-attack outcome of the rules code equals an oracle written from the rules' text alone
(tests/wh40k/reference_outcome.py: brute force over D6 faces, nothing imported from rulesbook),
for a broad sample of weapons, targets, situations and readings."""

from __future__ import annotations

from fractions import Fraction
from math import gcd

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.dice import parse_dice
from rulesbook.systems.wh40k.attack.outcome import attack_outcome
from rulesbook.systems.wh40k.attack.rolls import Situation
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities
from rulesbook.systems.wh40k.choices import CHOICES
from tests.wh40k.reference_outcome import Attack, reference_outcome

FLAGS = {
    "lethal-hits": "lethal_hits",
    "devastating-wounds": "devastating_wounds",
    "torrent": "torrent",
    "heavy": "heavy",
    "twin-linked": "twin_linked",
    "ignores-cover": "ignores_cover",
}
ABILITIES = [*FLAGS, "anti-infantry-4"]
SUSTAINED = {
    None: None,
    "sustained-hits-1": 1,
    "sustained-hits-2": 2,
    "sustained-hits-d3": "D3",
    "sustained-hits-d6": "D6",
}
READINGS = {
    "lethal_devastating": ["not-critical-wound", "critical-wound"],
    "twin_linked": ["failed", "non-critical"],
    "overwatch_criticals": ["sixes-only", "critical-threshold"],
    "torrent_overwatch": ["auto-hit", "sixes-only"],
    "save_cap": ["net", "improvements"],
    "invuln_modifiers": ["other-modifiers-apply", "armour-only"],
    "wound_table": ["published", "flat-4"],
    "sustained_lethal": ["critical-hit-only", "every-hit"],
}
ORACLE_FIELD = {"twin_linked": "twin_linked_reading"}


@settings(max_examples=400, deadline=None)
@given(
    skill=st.integers(2, 6),
    strength=st.integers(1, 16),
    ap=st.integers(-4, 0),
    toughness=st.integers(1, 12),
    save=st.integers(2, 7),
    invuln=st.sampled_from([None, 3, 4, 5, 6]),
    cover=st.booleans(),
    stealth=st.booleans(),
    ranged=st.booleans(),
    abilities=st.lists(st.sampled_from(ABILITIES), unique=True, max_size=4),
    sustained=st.sampled_from(list(SUSTAINED)),
    hit_modifier=st.integers(-2, 2),
    wound_modifier=st.integers(-2, 2),
    save_modifier=st.integers(-1, 2),
    reroll_hits=st.sampled_from(["none", "ones", "failed"]),
    reroll_wounds=st.sampled_from(["none", "ones", "failed"]),
    remained_stationary=st.booleans(),
    critical_hit=st.sampled_from([5, 6]),
    overwatch=st.booleans(),
    readings=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in READINGS.items()}),
    sustained_value=st.sampled_from([None, 1, 3]),
)
def test_outcome_equals_the_oracle_from_the_rules_text(
    skill: int,
    strength: int,
    ap: int,
    toughness: int,
    save: int,
    invuln: int | None,
    cover: bool,
    stealth: bool,
    ranged: bool,
    abilities: list[str],
    sustained: str | None,
    hit_modifier: int,
    wound_modifier: int,
    save_modifier: int,
    reroll_hits: str,
    reroll_wounds: str,
    remained_stationary: bool,
    critical_hit: int,
    overwatch: bool,
    readings: dict[str, str],
    sustained_value: int | None,
) -> None:
    overwatch = overwatch and ranged  # the calculators refuse Fire Overwatch for a melee weapon
    words = [*abilities, *([sustained] if sustained else [])]
    weapon = Weapon(
        "w", parse_dice("1"), skill, strength, ap, parse_dice("1"), parse_abilities(words), ranged=ranged
    )
    target = Target(toughness, save, 1, invuln=invuln, cover=cover, stealth=stealth)
    situation = Situation(
        hit_modifier=hit_modifier,
        wound_modifier=wound_modifier,
        save_modifier=save_modifier,
        reroll_hits=reroll_hits,  # type: ignore[arg-type]
        reroll_wounds=reroll_wounds,  # type: ignore[arg-type]
        remained_stationary=remained_stationary,
        critical_hit=critical_hit,
        overwatch=overwatch,
    )
    choices = CHOICES.replace(readings=readings)
    value = sustained_value if sustained else None
    got = attack_outcome(weapon, target, situation, choices, value)
    oracle = Attack(
        skill=skill,
        strength=strength,
        ap=ap,
        toughness=toughness,
        save=save,
        invuln=invuln,
        cover=cover,
        stealth=stealth,
        ranged=ranged,
        anti=4 if "anti-infantry-4" in abilities else None,
        sustained=SUSTAINED[sustained],
        hit_modifier=hit_modifier,
        wound_modifier=wound_modifier,
        save_modifier=save_modifier,
        reroll_hits=reroll_hits,
        reroll_wounds=reroll_wounds,
        remained_stationary=remained_stationary,
        critical_hit=critical_hit,
        overwatch=overwatch,
        **{flag: word in abilities for word, flag in FLAGS.items()},  # type: ignore[arg-type]
        **{ORACLE_FIELD.get(k, k): v for k, v in readings.items()},  # type: ignore[arg-type]
    )
    want = reference_outcome(oracle, value)
    assert got.packets == want.packets
    assert sum(got.packets.values()) == 1
    assert gcd(got.den, *got.weights.values()) == 1  # lowest terms, as the engine's cost assumes
    assert all(w > 0 for w in got.weights.values())
    for key in ("hits_per_attack", "wounds_per_attack", "devastating_per_attack", "unsaved_per_attack"):
        assert getattr(got, key) == getattr(want, key), key
    assert got.p_save_fails == want.p_save_fails


def test_the_oracle_by_hand() -> None:
    """Three answers worked on paper, so the oracle itself is checked against the rules."""
    # BS 3+, re-roll failed hits: P(hit) = 4/6 + 2/6 * 4/6 = 8/9; the 6 is a crit either way
    gun = Attack(skill=3, strength=4, ap=0, toughness=4, save=7, reroll_hits="failed")
    assert reference_outcome(gun).hits_per_attack == Fraction(8, 9)
    # S4 vs T4 wounds on 4+, Sv 3+ at AP -1 saves on 4+: unsaved 4/6 * 1/2 * 1/2 = 1/6
    assert reference_outcome(
        Attack(skill=3, strength=4, ap=-1, toughness=4, save=3)
    ).unsaved_per_attack == Fraction(1, 6)
    # Devastating Wounds, hits on 6s only (Fire Overwatch), S8 vs T4 (2+): a 6 to wound skips the
    # save; a 2-5 wounds and a 4+ invulnerable save fails half the time
    dev = Attack(
        skill=3, strength=8, ap=0, toughness=4, save=7, invuln=4, overwatch=True, devastating_wounds=True
    )
    out = reference_outcome(dev)
    assert out.packets == {
        (0, 0): Fraction(5, 6) + Fraction(1, 6) * (Fraction(1, 6) + Fraction(4, 6) / 2),
        (1, 0): Fraction(1, 6) * Fraction(4, 6) / 2,
        (0, 1): Fraction(1, 6) * Fraction(1, 6),
    }
