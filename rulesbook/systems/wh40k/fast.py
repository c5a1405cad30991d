"""The direct path of ``wh40k.attack`` for one or two attacks (issue 14).

A single krak missile or lascannon shot has a handful of outcomes; building the engine's plan,
its cost prediction and the explanation costs far more than counting them. For validated inputs
inside a small domain — a fixed number of at most :data:`MAX_FAST_ATTACKS` attacks (Blast
included), no ability but Heavy, Ignores Cover and Blast, no Fire Overwatch — :func:`fast_attack`
counts the outcomes in integers directly (each D6 face of the Hit roll, the Wound roll and the
saving throw, re-rolls included; the damage packet of :func:`~.rules.packet_weights`; the one or
two allocations) and publishes the same values ``wh40k.attack`` gives. Its tables and explanation
are those of the general path, built only when read (:class:`~rulesbook.results.DeferredResult`).
Anything outside the domain returns ``None`` and runs the general path, which also raises every
input error. ``tests/wh40k/test_fast_attack.py`` compares the two on random small inputs.

Example:
    >>> from rulesbook.registry import registry
    >>> r = registry().calculator("wh40k.attack").run(attacks="1", skill="3", strength="4",
    ...     damage="1", toughness="4", save="3", wounds="2")
    >>> type(r).__name__, r["mean_wounds_lost_exact"]   # 2/3 hit x 1/2 wound x 1/3 unsaved
    ('DeferredResult', '1/9')
"""

from __future__ import annotations

from math import gcd
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rulesbook.results import DeferredResult, Table
from rulesbook.systems.wh40k.attack_path import RANGED_DAMAGE_REDUCTION
from rulesbook.systems.wh40k.cost import MAX_TOTAL_WOUNDS
from rulesbook.systems.wh40k.rules import packet_weights
from rulesbook.systems.wh40k.weapons import MAX_DAMAGE, RANGED_ONLY

if TYPE_CHECKING:  # pragma: no cover
    from rulesbook.calculators import Calculator

__all__ = ["MAX_FAST_ATTACKS", "d6_counts", "fast_attack"]

MAX_FAST_ATTACKS = 2
"""The most attacks the direct path counts (more go through the engine)."""

_FAST_ABILITIES = frozenset({"heavy", "ignores-cover", "blast"})

_DAMAGE_ROLLS: dict[int, dict[int, tuple[tuple[int, int], ...]]] = {
    count: {
        sides: tuple((k, sides - abs(k - sides + 1)) for k in range(2 * sides - 1))
        if count == 2
        else tuple((k, 1) for k in range(sides if count else 1))
        for sides in (3, 6)
    }
    for count in (0, 1, 2)
}
"""(roll above the smallest total, ways) of a Damage of ``count`` dice with ``sides`` sides (0, 1
or 2 dice; two dice: the triangle 1, 2, ..., sides, ..., 2, 1): the faces counted ahead."""


def d6_counts(target: int, modifier: int, critical: int, reroll: str) -> tuple[int, int, int, int]:
    """(fail, pass, critical, denominator) of one D6 rolled against ``target``+ with a modifier
    already capped: a face of ``critical`` or more is critical, an unmodified 1 fails (unless
    critical), ``reroll`` is ``none``, ``ones`` or ``failed`` — the probabilities of
    :meth:`rulesbook.dice.RollTest.counts` for such a test (over 6, or over 36 when a face is
    re-rolled).

    >>> d6_counts(3, 0, 6, "ones")   # BS 3+, re-roll ones: 7/9 hit
    (8, 21, 7, 36)
    >>> d6_counts(3, 0, 7, "none")   # a saving throw: no critical face
    (2, 4, 0, 6)
    """
    crit = 7 - critical if critical < 7 else 0  # faces critical..6 (critical is 2 or more)
    top = 6 - crit  # the other faces are 1..top; 1 fails, f >= max(2, target - modifier) passes
    low = target - modifier
    passed = top - (low if low > 2 else 2) + 1
    if passed < 0:
        passed = 0
    fail = top - passed
    if reroll == "none":
        return fail, passed, crit, 6
    rerolled = fail if reroll == "failed" else 1  # "ones": the 1 (never critical) is re-rolled
    # a re-rolled face spreads its share over the whole grid again
    return (
        (fail - rerolled) * 6 + rerolled * fail,
        passed * 6 + rerolled * passed,
        crit * 6 + rerolled * crit,
        36,
    )


def _cap(value: int, cap: int) -> int:
    return -cap if value < -cap else (cap if value > cap else value)


def _save_counts(v: dict[str, Any], params: Any, ranged: bool, abilities: tuple[str, ...]) -> tuple[int, int]:
    """(fail, denominator) of the saving throw the defender picks (as :func:`.rules.save_test`)."""
    cap = params.save_improvement_cap
    other = v["save_modifier"]
    best: tuple[int, int, int] | None = None  # (pass, fail, den)
    save = v["save"]
    if save <= 6:
        cover = (
            v["cover"]
            and ranged
            and "ignores-cover" not in abilities
            and not (save <= params.cover_denied_save and v["ap"] == 0)
        )
        bonus = (params.cover_save_bonus if cover else 0) + other
        if v["save_cap"] == "net":
            modifier = min(cap, v["ap"] + bonus)
        else:
            modifier = v["ap"] + min(cap, max(0, bonus)) + min(0, other)
        f, p, _, d = d6_counts(save, modifier, 7, "none")
        best = (p, f, d)
    invuln = v["invuln"]
    if invuln is not None:
        modifier = min(cap, other) if v["invuln_modifiers"] == "other-modifiers-apply" else 0
        f, p, _, d = d6_counts(invuln, modifier, 7, "none")
        if best is None or p * best[2] > best[0] * d:
            best = (p, f, d)
    if best is None:
        return 1, 1
    return best[1], best[2]


def fast_attack(calc: Calculator, v: dict[str, Any]) -> DeferredResult | None:
    """``wh40k.attack``'s answer for validated fields ``v`` inside the direct path's domain,
    else ``None`` (see the module docstring)."""
    attacks = v["attacks"]
    abilities: tuple[str, ...] = v["abilities"]
    ranged = v["ranged"]
    wounds, models = v["wounds"], v["models"]
    if (
        attacks.count
        or v["overwatch"]
        or not _FAST_ABILITIES.issuperset(abilities)
        or v["damage"].maximum > MAX_DAMAGE
        or wounds * models > MAX_TOTAL_WOUNDS
        or (not ranged and (any(w in abilities for w in RANGED_ONLY) or v["cover"] or v["stealth"]))
    ):
        return None
    choices = calc.choices
    params = choices.parameters  # type: ignore[union-attr]
    n = attacks.modifier + (models // params.blast_models_per_attack if "blast" in abilities else 0)
    if n > MAX_FAST_ATTACKS:
        return None
    # the Hit roll (as rules.hit_test), the Wound roll (rules.wound_test), the save
    modifier = v["hit_modifier"]
    if "heavy" in abilities and v["remained_stationary"]:
        modifier += params.heavy_hit_bonus
    if v["stealth"] and ranged:
        modifier -= params.stealth_hit_penalty
    _, hp, hc, hd = d6_counts(
        v["skill"],
        _cap(modifier, params.hit_modifier_cap),
        min(v["critical_hit"], params.critical_roll),
        v["reroll_hits"],
    )
    strength, toughness = v["strength"], v["toughness"]
    if v["wound_table"] == "flat-4":
        needed = 4
    elif strength >= 2 * toughness:
        needed = 2
    elif strength > toughness:
        needed = 3
    elif strength == toughness:
        needed = 4
    else:
        needed = 6 if 2 * strength <= toughness else 5
    _, wp, wc, wd = d6_counts(
        needed,
        _cap(v["wound_modifier"], params.wound_modifier_cap),
        min(v["critical_wound"], params.critical_roll),
        v["reroll_wounds"],
    )
    s_fail, sd = _save_counts(v, params, ranged, abilities)
    # one attack: a packet with weight u over d (hit, wound, save failed)
    u = (hp + hc) * (wp + wc) * s_fail
    d = hd * wd * sd
    minimum = 1 if v["damage_minimum"] == "min-1" else 0
    damage, reduction, fnp = v["damage"], v["damage_reduction"], v["fnp"]
    # one attack as damage dealt: 0 when no packet, else the packet's damage (weights over
    # d * pden); a Damage of at most two dice without Feel No Pain is counted face by face
    # here (what packet_weights gives, not reduced to lowest terms), anything else by it
    count = damage.count
    step: dict[int, int]
    if fnp is None and count <= 2:
        sides, low = damage.sides, damage.modifier + count
        pden = sides**count
        step = {0: (d - u) * pden}
        for above, w in _DAMAGE_ROLLS[count][sides]:
            roll = low + above  # reduced, never below the minimum (nor raised to it)
            x = roll - reduction if roll - reduction > minimum else (minimum if minimum < roll else roll)
            step[x] = step.get(x, 0) + u * w
    else:
        pairs, pden = packet_weights(damage, reduction, fnp, minimum)
        step = {0: (d - u) * pden}
        for x, w in pairs:
            step[x] = step.get(x, 0) + u * w
    packets = [(x, w) for x, w in step.items() if w]
    step_den = d * pden
    total = wounds * models
    spills = v["allocation"] == "excess-spills"
    # allocation, attack by attack (as engine._packet): excess damage is lost unless it spills
    state: dict[int, int] = {0: 1}
    den = 1
    for _ in range(n):
        nxt: dict[int, int] = {}
        get = nxt.get
        for lost, a in state.items():
            if lost == total:
                nxt[lost] = get(lost, 0) + a * step_den
                continue
            room = total - lost if spills else wounds - lost % wounds
            for x, w in packets:
                t = lost + x if x < room else lost + room
                nxt[t] = get(t, 0) + a * w
        state, den = nxt, den * step_den
    lost_w = [0] * (total + 1)
    by_model = [0] * (models + 1)
    mean_wl = mean_md = 0
    for lost, a in state.items():
        lost_w[lost] = a
        k = lost // wounds
        by_model[k] += a
        mean_wl += lost * a
        mean_md += k * a
    # the published forms: floats by integer division (correctly rounded), exact strings in
    # lowest terms; the four figures first, then the two distributions
    nums = [mean_wl, mean_md, lost_w[total], den - by_model[0], *by_model, *lost_w]
    floats = [a / den for a in nums]
    texts = [
        (str(a // g) if (g := gcd(a, den)) == den else f"{a // g}/{den // g}") if a else "0" for a in nums
    ]
    cut = 4 + models + 1
    values = {
        "mean_wounds_lost": floats[0],
        "mean_wounds_lost_exact": texts[0],
        "mean_models_destroyed": floats[1],
        "mean_models_destroyed_exact": texts[1],
        "p_unit_destroyed": floats[2],
        "p_unit_destroyed_exact": texts[2],
        "p_at_least_one_model": floats[3],
        "p_at_least_one_model_exact": texts[3],
        "models_destroyed": tuple(floats[4:cut]),
        "models_destroyed_exact": tuple(texts[4:cut]),
        "wounds_lost": tuple(floats[cut:]),
        "wounds_lost_exact": tuple(texts[cut:]),
    }
    warnings = (RANGED_DAMAGE_REDUCTION,) if v["damage_reduction"] and ranged else ()

    def build() -> tuple[tuple[Table, ...], tuple[str, ...]]:
        full = calc.run_validated(v)  # the domain passes the cross-field check
        return full.tables, full.explanation

    return DeferredResult.of(MappingProxyType(values), warnings, build)
