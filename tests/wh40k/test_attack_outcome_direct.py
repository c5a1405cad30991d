"""The per-attack outcome counted in integers equals the earlier Fraction computation over the
roll tests' distributions (tests/wh40k/reference_outcome.py), for a broad sample of weapons,
targets, situations and readings."""

from __future__ import annotations

from math import gcd

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.dice import parse_dice
from rulesbook.systems.wh40k.choices import CHOICES
from rulesbook.systems.wh40k.rules import Situation, attack_outcome
from rulesbook.systems.wh40k.weapons import Target, Weapon, parse_abilities
from tests.wh40k.reference_outcome import reference_outcome

ABILITIES = [
    "lethal-hits",
    "devastating-wounds",
    "torrent",
    "heavy",
    "twin-linked",
    "anti-infantry-4",
    "ignores-cover",
]
SUSTAINED = [None, "sustained-hits-1", "sustained-hits-2", "sustained-hits-d3", "sustained-hits-d6"]


@settings(max_examples=300, deadline=None)
@given(
    skill=st.integers(2, 6),
    strength=st.integers(1, 16),
    ap=st.integers(-4, 0),
    toughness=st.integers(1, 12),
    save=st.integers(2, 7),
    invuln=st.sampled_from([None, 3, 4, 5, 6]),
    cover=st.booleans(),
    abilities=st.lists(st.sampled_from(ABILITIES), unique=True, max_size=4),
    sustained=st.sampled_from(SUSTAINED),
    hit_modifier=st.integers(-2, 2),
    wound_modifier=st.integers(-1, 1),
    save_modifier=st.integers(-1, 1),
    reroll_hits=st.sampled_from(["none", "ones", "failed"]),
    reroll_wounds=st.sampled_from(["none", "ones", "failed"]),
    critical_hit=st.sampled_from([5, 6]),
    overwatch=st.booleans(),
    lethal_devastating=st.sampled_from(["not-critical-wound", "critical-wound"]),
    sustained_value=st.sampled_from([None, 1, 3]),
)
def test_integer_outcome_equals_fraction_reference(
    skill: int,
    strength: int,
    ap: int,
    toughness: int,
    save: int,
    invuln: int | None,
    cover: bool,
    abilities: list[str],
    sustained: str | None,
    hit_modifier: int,
    wound_modifier: int,
    save_modifier: int,
    reroll_hits: str,
    reroll_wounds: str,
    critical_hit: int,
    overwatch: bool,
    lethal_devastating: str,
    sustained_value: int | None,
) -> None:
    words = [*abilities, *([sustained] if sustained else [])]
    weapon = Weapon("w", parse_dice("1"), skill, strength, ap, parse_dice("1"), parse_abilities(words))
    target = Target(toughness, save, 1, invuln=invuln, cover=cover)
    situation = Situation(
        hit_modifier=hit_modifier,
        wound_modifier=wound_modifier,
        save_modifier=save_modifier,
        reroll_hits=reroll_hits,  # type: ignore[arg-type]
        reroll_wounds=reroll_wounds,  # type: ignore[arg-type]
        critical_hit=critical_hit,
        overwatch=overwatch,
    )
    choices = CHOICES.replace(readings={"lethal_devastating": lethal_devastating})
    value = sustained_value if sustained else None
    got = attack_outcome(weapon, target, situation, choices, value)
    want = reference_outcome(weapon, target, situation, choices, value)
    assert got.packets == want["packets"]
    assert sum(got.packets.values()) == 1
    assert gcd(got.den, *got.weights.values()) == 1  # lowest terms, as the engine's cost assumes
    assert all(w > 0 for w in got.weights.values())
    for key in ("hits_per_attack", "wounds_per_attack", "devastating_per_attack", "unsaved_per_attack"):
        assert getattr(got, key) == want[key], key
    assert got.p_save_fails == want["p_save_fails"]
