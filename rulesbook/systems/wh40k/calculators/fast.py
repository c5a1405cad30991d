"""The direct path of ``wh40k.attack`` for one or two attacks (issue 14).

A single krak missile or lascannon shot has a handful of outcomes; building the engine's plan,
its cost prediction and the explanation costs far more than counting them. For validated inputs
inside a small domain — a fixed number of at most :data:`MAX_FAST_ATTACKS` attacks (Blast
included), no ability but Heavy, Ignores Cover and Blast, no Fire Overwatch — :func:`fast_attack`
counts the outcomes in integers directly (each D6 face of the Hit roll, the Wound roll and the
saving throw, re-rolls included; the damage packet of :func:`~rulesbook.systems.wh40k.attack.rolls.packet_weights`; the one or
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
from operator import itemgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rulesbook.results import DeferredResult, Table
from rulesbook.systems.wh40k.attack.cost import MAX_TOTAL_WOUNDS
from rulesbook.systems.wh40k.attack.rolls import packet_weights
from rulesbook.systems.wh40k.attack.weapons import MAX_DAMAGE, RANGED_ONLY
from rulesbook.systems.wh40k.calculators.path import RANGED_DAMAGE_REDUCTION

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


_D6_COUNTS = {
    reroll: tuple(
        tuple(d6_counts(low, 0, critical, reroll) for low in range(2, 8)) for critical in range(2, 8)
    )
    for reroll in ("none", "ones", "failed")
}
"""``d6_counts(target, modifier, critical, reroll)`` counted ahead for every case, as
``_D6_COUNTS[reroll][critical - 2][low - 2]`` with ``low = target - modifier`` held to 2..7 (a
lower target still fails on a 1; a higher one never passes): the same counts (tested)."""


def _low(target: int, modifier: int) -> int:
    """The index of ``target - modifier`` in a row of :data:`_D6_COUNTS`."""
    low = target - modifier
    return 0 if low < 2 else (5 if low > 7 else low - 2)


_FIELDS = itemgetter(
    "attacks",
    "abilities",
    "ranged",
    "wounds",
    "models",
    "overwatch",
    "damage",
    "cover",
    "stealth",
    "hit_modifier",
    "remained_stationary",
    "skill",
    "critical_hit",
    "reroll_hits",
    "strength",
    "toughness",
    "wound_table",
    "wound_modifier",
    "critical_wound",
    "reroll_wounds",
    "save",
    "save_modifier",
    "ap",
    "save_cap",
    "invuln",
    "invuln_modifiers",
)


def fast_attack(calc: Calculator, v: dict[str, Any]) -> DeferredResult | None:
    """``wh40k.attack``'s answer for validated fields ``v`` inside the direct path's domain,
    else ``None`` (see the module docstring)."""
    (
        attacks,
        abilities,
        ranged,
        wounds,
        models,
        overwatch,
        damage,
        cover,
        stealth,
        hit_modifier,
        stationary,
        skill,
        critical_hit,
        reroll_hits,
        strength,
        toughness,
        wound_table,
        wound_modifier,
        critical_wound,
        reroll_wounds,
        save,
        save_modifier,
        ap,
        save_cap,
        invuln,
        invuln_modifiers,
    ) = _FIELDS(v)
    if (
        attacks.count
        or overwatch
        or not _FAST_ABILITIES.issuperset(abilities)
        or damage.maximum > MAX_DAMAGE
        or wounds * models > MAX_TOTAL_WOUNDS
        or (not ranged and (any(w in abilities for w in RANGED_ONLY) or cover or stealth))
    ):
        return None
    params = calc.choices.parameters  # type: ignore[union-attr]
    n = attacks.modifier + (models // params.blast_models_per_attack if "blast" in abilities else 0)
    critical = params.critical_roll
    critical_hit = critical_hit if critical_hit < critical else critical
    critical_wound = critical_wound if critical_wound < critical else critical
    if n > MAX_FAST_ATTACKS or critical_hit < 2 or critical_wound < 2:
        return None
    # the Hit roll (as rules.hit_test), the Wound roll (rules.wound_test), the save
    cap = params.hit_modifier_cap
    if "heavy" in abilities and stationary:
        hit_modifier += params.heavy_hit_bonus
    if stealth and ranged:
        hit_modifier -= params.stealth_hit_penalty
    hit_modifier = -cap if hit_modifier < -cap else (cap if hit_modifier > cap else hit_modifier)
    _, hp, hc, hd = _D6_COUNTS[reroll_hits][critical_hit - 2][_low(skill, hit_modifier)]
    if wound_table == "flat-4":
        needed = 4
    elif strength >= 2 * toughness:
        needed = 2
    elif strength > toughness:
        needed = 3
    elif strength == toughness:
        needed = 4
    else:
        needed = 6 if 2 * strength <= toughness else 5
    cap = params.wound_modifier_cap
    wound_modifier = -cap if wound_modifier < -cap else (cap if wound_modifier > cap else wound_modifier)
    _, wp, wc, wd = _D6_COUNTS[reroll_wounds][critical_wound - 2][_low(needed, wound_modifier)]
    # the saving throw the defender picks (as rules.save_test): armour, or the invulnerable
    # save when it passes more often; over 6 (one D6, never re-rolled here)
    cap = params.save_improvement_cap
    no_reroll = _D6_COUNTS["none"][5]  # no critical face
    s_pass = -1
    if save <= 6:
        in_cover = (
            cover
            and ranged
            and "ignores-cover" not in abilities
            and not (save <= params.cover_denied_save and ap == 0)
        )
        cover_bonus = params.cover_save_bonus if in_cover else 0
        if save_cap == "net":
            modifier = min(cap, ap + cover_bonus + save_modifier)
        else:
            modifier = ap + min(cap, cover_bonus + max(0, save_modifier)) + min(0, save_modifier)
        s_fail, s_pass, _, _ = no_reroll[_low(save, modifier)]
    if invuln is not None:
        modifier = min(cap, save_modifier) if invuln_modifiers == "other-modifiers-apply" else 0
        i_fail, i_pass, _, _ = no_reroll[_low(invuln, modifier)]
        if i_pass > s_pass:
            s_fail, s_pass = i_fail, i_pass
    sd = 6
    if s_pass < 0:  # no save at all: every wound goes through
        s_fail = sd = 1
    # one attack: a packet with weight u over d (hit, wound, save failed)
    u = (hp + hc) * (wp + wc) * s_fail
    d = hd * wd * sd
    minimum = 1 if v["damage_minimum"] == "min-1" else 0
    reduction, fnp = v["damage_reduction"], v["fnp"]
    # one attack as damage dealt: 0 when no packet, else the packet's damage (weights over
    # d * pden); a Damage of at most two dice without Feel No Pain is counted face by face
    # here (what packet_weights gives, not reduced to lowest terms), anything else by it
    count = damage.count
    step: dict[int, int]
    counted = damage.is_simple and count <= 2 and damage.sides in _DAMAGE_ROLLS[count]  # 0-2 D3 or D6, +k
    if fnp is None and counted:
        sides, low = damage.sides, damage.modifier + count
        pden = sides**count
        if count == 1 and not reduction and 0 < low >= minimum:  # one die: each face a packet as rolled
            step = dict.fromkeys(range(low, low + sides), u)
            step[0] = (d - u) * pden
        else:
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
    step_den = d * pden
    total = wounds * models
    spills = v["allocation"] == "excess-spills"
    # allocation, attack by attack (as engine._packet): excess damage is lost unless it spills;
    # the first attack finds nothing lost, so its packet is only capped at the room there is
    state: dict[int, int] = {0: 1}
    den = 1
    if n:
        room = total if spills else wounds
        if max(step) <= room:  # no packet exceeds it (a weight of 0 adds nothing below)
            state = step
        else:
            state = {}
            for x, w in step.items():
                if w:
                    t = x if x < room else room
                    state[t] = state.get(t, 0) + w
        den = step_den
    if n > 1:
        packets = [(x, w) for x, w in step.items() if w]
        for _ in range(n - 1):
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
    warnings = (RANGED_DAMAGE_REDUCTION,) if reduction and ranged else ()

    def build() -> tuple[tuple[Table, ...], tuple[str, ...]]:
        full = calc.run_validated(v)  # the domain passes the cross-field check
        return full.tables, full.explanation

    return DeferredResult.of(MappingProxyType(values), warnings, build)
