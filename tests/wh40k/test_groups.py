"""Units whose models differ (issue 28): the engine of several model groups
(:func:`rulesbook.systems.wh40k.attack.groups.resolve_groups`) against an independent seeded
simulation of allocation in a mixed unit (the engines agree with each other over random
situations in ``test_one_engine.py``)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulesbook.dice import parse_dice
from rulesbook.systems.wh40k.attack.groups import ModelGroup, resolve_groups
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities


def weapon(attacks: str, skill: int, s: int, ap: int, d: str, abilities: str = "") -> Weapon:
    return Weapon("w", parse_dice(attacks), skill, s, ap, parse_dice(d), parse_abilities(abilities))


def _simulate_mixed(
    weapon: Weapon, toughness: int, groups: list[ModelGroup], trials: int, seed: int
) -> Counter[int]:
    """One attack at a time, from the rules: hit on BS, wound S v T, the save of the model in
    work (the first group with a model left), its Damage capped at the wounds it has left."""
    rng = random.Random(seed)
    need = (
        2
        if weapon.strength >= 2 * toughness
        else 3
        if weapon.strength > toughness
        else 4
        if weapon.strength == toughness
        else 6
        if 2 * weapon.strength <= toughness
        else 5
    )
    out: Counter[int] = Counter()
    for _ in range(trials):
        left = [[g.wounds] * g.models for g in groups]
        for _ in range(weapon.attacks.modifier):
            if rng.randint(1, 6) < weapon.skill:
                continue
            roll = rng.randint(1, 6)
            if roll == 1 or roll < need:
                continue
            g = next((i for i, models in enumerate(left) if models), None)
            if g is None:
                break
            save = rng.randint(1, 6)
            if save != 1 and save + weapon.ap >= groups[g].save:
                continue
            dmg = rng.randint(1, weapon.damage.sides) if weapon.damage.count else weapon.damage.modifier
            left[g][0] -= min(dmg, left[g][0])
            if left[g][0] == 0:
                left[g].pop(0)
        out[sum(g.models - len(models) for g, models in zip(groups, left, strict=True))] += 1
    return out


@pytest.mark.covers("wh40k.attack.allocation", "wh40k.attack.saving-throw")
def test_a_mixed_unit_against_a_seeded_simulation() -> None:
    """Ten shots (BS 3+, S5 AP-1 D2) at four Sv 5+ W1 models and a Sv 3+ W3 model taken last."""
    gun = weapon("10", 3, 5, -1, "2")
    groups = [ModelGroup("boys", 4, 1, 5), ModelGroup("nob", 1, 3, 3)]
    exact = resolve_groups([gun], Target(4, 5, 1, models=5), groups)
    freq = _simulate_mixed(gun, 4, groups, 40_000, 28)
    for k, p in exact.models_destroyed:
        assert abs(freq[k] / 40_000 - float(p)) < 0.01, k
    # and by hand: the unit is wiped out only if four Boyz die and the Nob takes two unsaved
    assert sum(exact.models_destroyed.pmf().values()) == 1
    assert exact.group_destroyed(1).outcomes()[-1] == 1
