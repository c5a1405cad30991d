"""The per-attack outcome as it was computed before the integer rewrite: Fraction arithmetic
over the roll tests' distributions. Kept as an independent oracle for
``rules.attack_outcome`` (tests/wh40k/test_attack_outcome_direct.py)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rulesbook.dice import Outcome
from rulesbook.results import Distribution
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices
from rulesbook.systems.wh40k.rules import (
    DEFAULT_SITUATION,
    Situation,
    hit_test,
    save_test,
    torrent_auto_hits,
    wound_test,
)
from rulesbook.systems.wh40k.weapons import Target, Weapon

type Poly = dict[tuple[int, int], Fraction]
"""(normal packets, devastating packets) -> probability."""


def _mul(a: Mapping[tuple[int, int], Fraction], b: Mapping[tuple[int, int], Fraction]) -> Poly:
    out: Poly = {}
    for (n1, m1), p1 in a.items():
        for (n2, m2), p2 in b.items():
            key = (n1 + n2, m1 + m2)
            out[key] = out.get(key, Fraction(0)) + p1 * p2
    return out


def _power(a: Poly, k: int) -> Poly:
    out: Poly = {(0, 0): Fraction(1)}
    for _ in range(k):
        out = _mul(out, a)
    return out


def reference_outcome(
    weapon: Weapon,
    target: Target,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
    sustained_value: int | None = None,
) -> dict[str, object]:
    """The old Fraction computation of :func:`rules.attack_outcome`."""
    ab = weapon.abilities
    lethal_critical = choices.readings.lethal_devastating == "critical-wound"
    if torrent_auto_hits(weapon, situation, choices):
        hit: Distribution[Outcome] = Distribution.certain(Outcome.PASS)
    else:
        hit = hit_test(weapon, target, situation, choices).distribution()
    wound = wound_test(weapon, target, situation, choices).distribution()
    save = save_test(weapon, target, situation, choices)
    s = Fraction(1) - save.p_pass() if save is not None else Fraction(1)
    q_crit = wound.p(Outcome.CRITICAL)
    q_pass = wound.p(Outcome.PASS)
    q_fail = wound.p(Outcome.FAIL)
    if ab.devastating_wounds:
        rolled: Poly = {(0, 0): q_fail + q_pass * (1 - s), (1, 0): q_pass * s, (0, 1): q_crit}
    else:
        rolled = {(0, 0): q_fail + (q_pass + q_crit) * (1 - s), (1, 0): (q_pass + q_crit) * s}
    if ab.devastating_wounds and lethal_critical:
        auto: Poly = {(0, 1): Fraction(1)}
    else:
        auto = {(0, 0): 1 - s, (1, 0): s}
    rolled = {k: v for k, v in rolled.items() if v}
    auto = {k: v for k, v in auto.items() if v}
    # Sustained Hits: extra ordinary hits on a Critical Hit.
    if ab.sustained is None:
        extra: Poly = {(0, 0): Fraction(1)}
        extra_mean = Fraction(0)
    else:
        values = (
            Distribution.certain(sustained_value)
            if sustained_value is not None
            else ab.sustained.distribution()
        )
        extra = {}
        for x, px in values:
            for k, v in _power(rolled, x).items():
                extra[k] = extra.get(k, Fraction(0)) + px * v
        extra_mean = values.mean()
    crit_first = auto if ab.lethal_hits else rolled
    p_hit_crit = hit.p(Outcome.CRITICAL)
    p_hit = hit.p(Outcome.PASS)
    packets: Poly = {(0, 0): hit.p(Outcome.FAIL)}
    for k, v in rolled.items():
        packets[k] = packets.get(k, Fraction(0)) + p_hit * v
    for k, v in _mul(crit_first, extra).items():
        packets[k] = packets.get(k, Fraction(0)) + p_hit_crit * v
    packets = {k: v for k, v in packets.items() if v}
    # means for the explanation
    wound_rolls = p_hit + p_hit_crit * (extra_mean + (0 if ab.lethal_hits else 1))
    auto_wounds = p_hit_crit if ab.lethal_hits else Fraction(0)
    wounds = wound_rolls * (q_pass + q_crit) + auto_wounds
    dev = wound_rolls * q_crit if ab.devastating_wounds else Fraction(0)
    if ab.devastating_wounds and ab.lethal_hits and lethal_critical:
        dev += auto_wounds
    unsaved = sum((n * p for (n, _), p in packets.items()), Fraction(0))
    return {
        "packets": packets,
        "hits_per_attack": p_hit + p_hit_crit * (1 + extra_mean),
        "wounds_per_attack": wounds,
        "devastating_per_attack": dev,
        "unsaved_per_attack": unsaved,
        "p_save_fails": s,
    }
