"""An independent, seeded Monte Carlo of the 40k attack sequence, written from the rules.

It shares no code with ``rulesbook.systems.wh40k.attack.rolls`` beyond the frozen profile values
(``Weapon``, ``Target``, the situation and readings): every roll is a ``random.Random`` die, one attack and
one point of damage at a time, with a list of wounds left per model. It exists only to check
the exact answers.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from rulesbook.dice import DiceExpr
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon
from tests.wh40k.options import Setup


def _roll(rng: random.Random, expr: DiceExpr) -> int:
    return sum(rng.randint(1, expr.sides) for _ in range(expr.count)) + expr.modifier


def _clamp(x: int) -> int:
    return max(-1, min(1, x))


def _wound_needed(s: int, t: int) -> int:
    if s >= 2 * t:
        return 2
    if s > t:
        return 3
    if s == t:
        return 4
    if 2 * s <= t:
        return 6
    return 5


class _Unit:
    def __init__(self, target: Target) -> None:
        self.left = [target.wounds] * target.models  # wounds left per model; first = in work
        self.target = target
        self.lost = 0

    def damage(self, rng: random.Random, points: int, spills: bool) -> None:
        for _ in range(points):
            if not self.left:
                return
            if self.target.fnp is not None and rng.randint(1, 6) >= self.target.fnp:
                continue
            self.left[0] -= 1
            self.lost += 1
            if self.left[0] == 0:
                self.left.pop(0)
                if not spills:
                    return


def simulate_once(rng: random.Random, weapons: Sequence[Weapon], target: Target, options: Setup) -> int:
    o, readings = options[0], options[1].readings
    unit = _Unit(target)
    devastating: list[int] = []
    for w in weapons:
        ab = w.abilities
        published = readings.published_abilities == "published"
        n_attacks = _roll(rng, w.attacks) + (target.models // 5 if ab.blast else 0)
        if published and o.half_range and ab.rapid_fire is not None:
            n_attacks += _roll(rng, ab.rapid_fire)
        unseen = published and ab.indirect_fire and not o.target_visible and w.ranged
        hit_mod = o.hit_modifier + (1 if ab.heavy and o.remained_stationary else 0)
        hit_mod -= 1 if target.stealth and w.ranged else 0
        hit_mod -= 1 if unseen else 0
        wound_mod = o.wound_modifier + (1 if published and ab.lance and o.charged else 0)
        melta = ab.melta if published and o.half_range and ab.melta is not None else None
        crit_hit = 6 if o.overwatch else o.critical_hit
        crit_wound = o.critical_wound
        for keyword, n in ab.anti:
            if target.keywords is None or keyword in target.keywords:
                crit_wound = min(crit_wound, n)
        need = _wound_needed(w.strength, target.toughness)
        # the save the defender picks (armour or invulnerable), by counting faces
        in_cover = target.cover or unseen
        cover = in_cover and w.ranged and not ab.ignores_cover and not (target.save <= 3 and w.ap == 0)
        armour_mod = min(1, w.ap + (1 if cover else 0) + o.save_modifier)
        armour_ok = sum(1 for f in range(2, 7) if f + armour_mod >= target.save) if target.save <= 6 else 0
        inv_mod = min(1, o.save_modifier) if readings.invuln_modifiers == "other-modifiers-apply" else 0
        inv_ok = sum(1 for f in range(2, 7) if target.invuln is not None and f + inv_mod >= target.invuln)
        use_invuln = inv_ok > armour_ok
        for _ in range(n_attacks):
            hits: list[bool] = []  # True = automatic wound (Lethal Hits)
            if ab.torrent and not (o.overwatch and w.ranged and readings.torrent_overwatch == "sixes-only"):
                hits.append(False)
            else:
                for attempt in range(2):
                    nat = rng.randint(1, 6)
                    crit = nat >= crit_hit
                    ok = crit or (not o.overwatch and nat != 1 and nat + _clamp(hit_mod) >= w.skill)
                    retry = (o.reroll_hits == "ones" and nat == 1) or (o.reroll_hits == "failed" and not ok)
                    if attempt == 0 and retry:
                        continue
                    break
                if crit:
                    hits.append(ab.lethal_hits)
                    if ab.sustained is not None:
                        hits.extend([False] * _roll(rng, ab.sustained))
                elif ok:
                    hits.append(False)
            for auto in hits:
                critical_wound = False
                if not auto:
                    for attempt in range(2):
                        nat = rng.randint(1, 6)
                        critical_wound = nat >= crit_wound
                        ok = critical_wound or (nat != 1 and nat + _clamp(wound_mod) >= need)
                        retry = (
                            (o.reroll_wounds == "ones" and nat == 1)
                            or (o.reroll_wounds == "failed" and not ok)
                            or (ab.twin_linked and not ok)
                        )
                        if attempt == 0 and retry:
                            continue
                        break
                    if not ok:
                        continue
                bonus = _roll(rng, melta) if melta is not None else 0
                if critical_wound and ab.devastating_wounds:
                    devastating.append(max(1, _roll(rng, w.damage) + bonus - target.damage_reduction))
                    continue
                nat = rng.randint(1, 6)
                if use_invuln:
                    saved = nat != 1 and target.invuln is not None and nat + inv_mod >= target.invuln
                else:
                    saved = target.save <= 6 and nat != 1 and nat + armour_mod >= target.save
                if not saved:
                    unit.damage(
                        rng, max(1, _roll(rng, w.damage) + bonus - target.damage_reduction), spills=False
                    )
    for points in devastating:
        unit.damage(rng, points, spills=False)
    return unit.lost


def simulate(
    weapons: Sequence[Weapon], target: Target, options: Setup, trials: int, seed: int
) -> dict[int, Fraction]:
    """Relative frequency of each number of wounds lost over ``trials`` seeded runs."""
    rng = random.Random(seed)
    counts = Counter(simulate_once(rng, weapons, target, options) for _ in range(trials))
    return {k: Fraction(v, trials) for k, v in counts.items()}
