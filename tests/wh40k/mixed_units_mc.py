"""A small, seeded Monte Carlo of 40k attacks against a unit whose models differ, written from the
seed text (``004_7134931f915e24a0.txt``: Hit Roll, Wound Roll, Saving Throw, Benefit of Cover,
Heavy, Blast, Indirect Fire, Lethal Hits, Attached Units) and the interpretations register.

It imports nothing from ``rulesbook``: a weapon and the unit are plain numbers, every die is a
``random.Random`` roll, and the unit is a list of models, each with its own Save and wounds left.
It only checks the exact engines.

* A Hit roll hits on BS or more after the modifiers (+1 Heavy when the unit stood still, −1
  Indirect Fire at a target no model can see), summed and held to ±1; an unmodified 1 misses, an
  unmodified 6 is a Critical Hit (with Lethal Hits it wounds without a Wound roll).
* A Wound roll needs the S-against-T result; an unmodified 1 fails, a 6 is a Critical Wound.
* Blast adds one attack per five models of the target (all of them, a Leader's too).
* Each wound is allocated to a model: one that already lost wounds first, else the first model of
  the most numerous kind (register ``mixed-allocation``), CHARACTER models only when no other is
  left. The saving throw is that model's: D6 + AP (+1 for the Benefit of Cover against a ranged
  attack — Indirect Fire at an unseen target gives it — never for Sv 3+ or better against AP 0),
  an unmodified 1 fails. Damage 1 takes one wound; a model with none left is destroyed.
* A Critical Wound whose AP a rule improves (Ferric Blight near an Infected objective) saves at
  that AP; a weapon's other wounds are allocated first, then those (register
  ``critical-ap-order``). A Precision weapon's wounds go to a CHARACTER while one lives
  (register ``precision``). Damage beyond the wounds a model has left is lost.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Gun:
    """One weapon as the seed text describes it (a fixed Damage)."""

    attacks: Callable[[random.Random], int]
    skill: int
    strength: int
    ap: int
    ranged: bool = True
    heavy: bool = False
    blast: bool = False
    indirect_fire: bool = False
    lethal_hits: bool = False
    critical_ap: int = 0
    """Further AP improvement of an attack that scores a Critical Wound."""
    precision: bool = False
    """Its wounds go to a CHARACTER model while one lives."""
    damage: int = 1


@dataclass(frozen=True)
class Kind:
    """Models of one kind: how many, their Wounds and Save, whether they are CHARACTER models."""

    models: int
    wounds: int
    save: int
    character: bool = False


def _wound_needed(s: int, t: int) -> int:
    if s >= 2 * t:
        return 2
    if s > t:
        return 3
    if s == t:
        return 4
    return 6 if 2 * s <= t else 5


def _one_attack_sequence(
    rng: random.Random, gun: Gun, kinds: Sequence[Kind], toughness: int, stationary: bool, visible: bool
) -> int:
    models = [
        [k.wounds, k.save, k.character, -k.models, order]
        for order, k in enumerate(kinds)
        for _ in range(k.models)
    ]
    unseen = gun.indirect_fire and not visible and gun.ranged
    modifier = (1 if gun.heavy and stationary else 0) - (1 if unseen else 0)
    modifier = max(-1, min(1, modifier))
    n = gun.attacks(rng) + (len(models) // 5 if gun.blast else 0)
    normal = critical = 0
    for _ in range(n):
        roll = rng.randint(1, 6)
        if roll == 1 or (roll != 6 and roll + modifier < gun.skill):
            continue
        if roll == 6 and gun.lethal_hits:
            normal += 1
            continue
        w = rng.randint(1, 6)
        if w == 1 or w < _wound_needed(gun.strength, toughness):
            continue
        if w == 6 and gun.critical_ap:
            critical += 1
        else:
            normal += 1
    for ap in [gun.ap] * normal + [gun.ap - gun.critical_ap] * critical:
        alive = [m for m in models if m[0] > 0]
        if not alive:
            break
        characters = [m for m in alive if m[2]]
        pool = characters if gun.precision and characters else [m for m in alive if not m[2]] or alive
        hurt = [m for m in pool if m[0] < kinds[m[4]].wounds]
        model = hurt[0] if hurt else min(pool, key=lambda m: (m[3], m[4]))
        cover = unseen and not (model[1] <= 3 and ap == 0)
        save = rng.randint(1, 6)
        if save != 1 and save + ap + (1 if cover else 0) >= model[1] and model[1] <= 6:
            continue
        model[0] -= min(gun.damage, model[0])  # excess damage is lost
    return sum(1 for m in models if m[0] <= 0)


def models_destroyed(
    gun: Gun,
    kinds: Sequence[Kind],
    toughness: int,
    *,
    stationary: bool = True,
    visible: bool = True,
    trials: int = 20000,
    seed: int = 35,
) -> tuple[float, float]:
    """The mean models destroyed over ``trials`` seeded runs, and its standard error."""
    rng = random.Random(seed)
    runs = [_one_attack_sequence(rng, gun, kinds, toughness, stationary, visible) for _ in range(trials)]
    mean = sum(runs) / trials
    var = sum((x - mean) ** 2 for x in runs) / (trials - 1)
    return mean, (var / trials) ** 0.5
