"""Every weapon keyword of the core rules (issue 28): Rapid Fire, Melta, Lance and Indirect Fire
change the numbers as published (hand-derived, and against the seeded simulation); Assault,
Extra Attacks and One Shot are accepted and change none; the source-only reading drops the
published ones; ranged-only words are refused on melee weapons."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack.weapons import Target, make_weapon, parse_abilities
from tests.wh40k.options import choose
from tests.wh40k.simulate import simulate

ATTACK = registry().calculator("wh40k.attack")
BASE = {
    "skill": "3",
    "strength": "4",
    "ap": "0",
    "damage": "1",
    "toughness": 4,
    "save": 3,
    "wounds": 1,
    "models": 20,
}


def mean(**values: Any) -> Fraction:
    return Fraction(ATTACK.run(**{**BASE, **values})["mean_wounds_lost_exact"])


ONE = Fraction(2, 3) * Fraction(1, 2) * Fraction(1, 3)  # BS 3+, S4 v T4, Sv 3+ at AP0: 1/9 per attack


@pytest.mark.covers("wh40k.attack.rapid-fire")
def test_rapid_fire_adds_attacks_within_half_range() -> None:
    assert mean(attacks="2", abilities="rapid-fire-2") == 2 * ONE
    assert mean(attacks="2", abilities="rapid-fire-2", half_range=True) == 4 * ONE
    assert mean(attacks="D3", abilities="rapid-fire-d3", half_range=True) == 4 * ONE  # 2D3
    with pytest.raises(InputError, match=r"^abilities: rapid-fire-d6 on attacks D3\+1 cannot"):
        ATTACK.validate({**BASE, "attacks": "D3+1", "abilities": "rapid-fire-d6"})  # D3 + D6
    with pytest.raises(InputError, match=r"^abilities: rapid-fire is a ranged weapon ability"):
        ATTACK.validate({**BASE, "attacks": "2", "abilities": "rapid-fire-1", "ranged": "false"})


@pytest.mark.covers("wh40k.attack.melta")
def test_melta_adds_damage_within_half_range() -> None:
    """One shot, BS 3+ S8 AP-4 D D6 at a W6 T4 model without a save: hit 2/3, wound 2+ 5/6;
    at half range with Melta 2 the Damage is D6+2: it kills on 4+ instead of on a 6."""
    shot = {
        "attacks": "1",
        "strength": "8",
        "ap": "-4",
        "damage": "D6",
        "abilities": "melta-2",
        "wounds": 6,
        "models": 1,
    }
    far = ATTACK.run(**{**BASE, **shot})["p_unit_destroyed_exact"]
    near = ATTACK.run(**{**BASE, **shot, "half_range": True})["p_unit_destroyed_exact"]
    assert (Fraction(far), Fraction(near)) == (
        Fraction(2, 3) * Fraction(5, 6) / 6,
        Fraction(2, 3) * Fraction(5, 6) / 2,
    )


@pytest.mark.covers("wh40k.attack.lance")
def test_lance_adds_one_to_wound_after_a_charge() -> None:
    lance = {"attacks": "3", "abilities": "lance", "ranged": "false"}
    assert mean(**lance) == 3 * ONE
    # S4 v T4 wounds on 3+ with +1: 2/3 instead of 1/2; capped with another +1
    assert mean(**lance, charged=True) == 3 * Fraction(2, 3) * Fraction(2, 3) * Fraction(1, 3)
    assert mean(**lance, charged=True, wound_modifier=1) == mean(**lance, charged=True)


@pytest.mark.covers("wh40k.attack.indirect-fire")
def test_indirect_fire_at_an_unseen_target() -> None:
    """Sv 4+ target: unseen, −1 to hit (BS 3+ becomes 4+: 1/2) and cover (4+ at AP0 becomes 3+: fails 1/3)."""
    gun = {"attacks": "6", "abilities": "indirect-fire", "save": 4}
    assert mean(**gun) == 6 * Fraction(2, 3) * Fraction(1, 2) * Fraction(1, 2)
    assert mean(**gun, target_visible=False) == 6 * Fraction(1, 2) * Fraction(1, 2) * Fraction(1, 3)
    assert mean(**gun, target_visible=False) == mean(**{**gun, "abilities": ""}, hit_modifier=-1, cover=True)


@pytest.mark.covers("wh40k.attack.assault", "wh40k.attack.extra-attacks", "wh40k.attack.one-shot")
def test_the_other_keywords_are_accepted_and_change_no_number() -> None:
    plain = ATTACK.run(**BASE, attacks="3")
    for word in ("assault", "one-shot"):
        r = ATTACK.run(**BASE, attacks="3", abilities=word)
        assert r["wounds_lost_exact"] == plain["wounds_lost_exact"]
        assert any(w.startswith(f"{word} changes no number") for w in r.warnings)
    melee = ATTACK.run(**BASE, attacks="3", abilities="extra-attacks", ranged="false")
    assert melee["wounds_lost_exact"] == ATTACK.run(**BASE, attacks="3", ranged="false")["wounds_lost_exact"]


@pytest.mark.covers("wh40k.interpretations.published-abilities")
def test_source_only_drops_the_published_keywords() -> None:
    words = {"attacks": "2", "abilities": "rapid-fire-2,lance,indirect-fire,melta-1", "half_range": True}
    src = mean(**words, charged=True, target_visible=False, published_abilities="source-only")
    assert src == 2 * ONE
    assert parse_abilities("rapid-fire-1,melta-d3,lance,indirect-fire").words() == (
        "rapid-fire-1",
        "melta-d3",
        "lance",
        "indirect-fire",
    )


@pytest.mark.covers(
    "wh40k.attack.rapid-fire", "wh40k.attack.melta", "wh40k.attack.lance", "wh40k.attack.indirect-fire"
)
@pytest.mark.parametrize(
    ("abilities", "situation", "seed"),
    [
        ("rapid-fire-d6,melta-2", {"half_range": True}, 1),
        ("lance", {"charged": True}, 2),
        ("indirect-fire", {"target_visible": False}, 3),
    ],
)
def test_the_new_keywords_agree_with_a_seeded_monte_carlo(
    abilities: str, situation: dict[str, bool], seed: int
) -> None:
    ranged = "lance" not in abilities
    values = {
        "attacks": "D6",
        "skill": "3",
        "strength": "5",
        "ap": "-1",
        "damage": "D3",
        "abilities": abilities,
        "ranged": ranged,
    }
    target = {"toughness": 4, "save": 4, "wounds": 2, "models": 6}
    exact = ATTACK.run(**values, **target, **situation)
    weapon = make_weapon(values, name="w")
    freq = simulate([weapon], Target(4, 4, 2, models=6), choose(**situation), trials=30_000, seed=seed)
    probs = [Fraction(p) for p in exact["wounds_lost_exact"]]
    mu = sum(k * p for k, p in enumerate(probs))
    sd = float(sum((k - mu) ** 2 * p for k, p in enumerate(probs))) ** 0.5
    mc = sum(k * p for k, p in freq.items())
    assert abs(float(mc - mu)) < 4 * sd / 30_000**0.5
    for k, p in enumerate(probs):
        assert abs(float(freq.get(k, Fraction(0)) - p)) < 0.012
