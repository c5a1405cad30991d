"""The lean path of ``wh40k.attack`` for small attacks (issue 37), derived from the one engine.

A handful of shots has few outcomes; what costs is the machinery around them — the cost model,
the engine's work tally and plan, its Fractions, the explanation and the tables. For validated
inputs of one weapon making at most :data:`LEAN_ATTACKS` attacks (Blast included, any dice)
against a unit of at most :data:`LEAN_WOUNDS` wounds in all, :func:`lean_attack` answers with
the engine's own pieces and nothing else:

* the weapon in its situation (:func:`~rulesbook.systems.wh40k.attack.engine.placed`),
* one attack's outcome (:func:`~rulesbook.systems.wh40k.attack.outcome.attack_outcome`: every
  ability, re-roll, modifier, saving throw and invulnerable save the general path reads),
* the packet's step over the wounds lost (:func:`~rulesbook.systems.wh40k.attack.engine.packet_tables`:
  Damage, its reduction, Feel No Pain, excess damage lost or spilling),

and the allocation the engine makes, attack by attack in integers: each attack moves the vector
of wounds lost by the sum over ``n`` of P(n packets) T^n v, and the numbers of attacks are mixed
by Horner's scheme (:func:`_mixed`) — for any count, with no count of its own. Its values
are published exactly as the general path publishes them; its tables and explanation are the
general path's, built on first read (:class:`~rulesbook.results.DeferredResult`). Outside the
domain — several Sustained Hits values for the whole weapon, Devastating Wounds kept apart from
the other damage, a melee weapon given cover, Stealth or Fire Overwatch — it returns ``None`` and
the general path answers (and raises every input error). ``tests/wh40k/test_lean_attack.py``
compares the two on random inputs inside and outside the domain.

Example:
    >>> from rulesbook.registry import registry
    >>> r = registry().calculator("wh40k.attack").run(attacks="1", skill="3", strength="4",
    ...     damage="1", toughness="4", save="3", wounds="2")
    >>> type(r).__name__, r["mean_wounds_lost_exact"]   # 2/3 hit x 1/2 wound x 1/3 unsaved
    ('DeferredResult', '1/9')
"""

from __future__ import annotations

from math import gcd, lcm
from operator import mul
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rulesbook.results import DeferredResult, Table
from rulesbook.systems.wh40k.attack.engine import PacketTable, packet_tables, placed
from rulesbook.systems.wh40k.attack.outcome import attack_outcome
from rulesbook.systems.wh40k.attack.weapons import RANGED_ONLY, make_weapon
from rulesbook.systems.wh40k.calculators.path import (
    RANGED_DAMAGE_REDUCTION,
    choices_of,
    situation_of,
    target_of,
)
from rulesbook.systems.wh40k.calculators.report import ability_warnings, pistol_warnings

if TYPE_CHECKING:  # pragma: no cover
    from rulesbook.calculators import Calculator

__all__ = ["LEAN_ATTACKS", "LEAN_WOUNDS", "lean_attack"]

LEAN_ATTACKS = 12
"""The most attacks the lean path resolves (more go through the engine with its cost model)."""

LEAN_WOUNDS = 60
"""The most wounds (models × Wounds) of a target the lean path resolves."""


def _mixed(
    per_attack: dict[int, int], per_den: int, table: PacketTable, total: int, attacks: dict[int, int]
) -> tuple[list[int], int]:
    """The wounds-lost weights over their denominator after a number of attacks drawn with
    integer weights ``attacks`` (count -> weight, over their sum), every attack adding ``n``
    packets with weight ``per_attack[n]`` over ``per_den``.

    By Horner's scheme over the counts, most first: ``w = S(w) + c_a e_0``, where ``S`` is one
    attack (the sum over ``n`` of its weight times the packet table applied ``n`` times) and
    ``c_a`` the weight of ``a`` attacks scaled to the common denominator — for any count, with no
    count of its own. The weights are worked on only as far as the attacks so far can reach (a
    packet moves at most as far as from no wound lost, where the most room is)."""
    top = max(per_attack)
    step_den = per_den * table.den**top
    scales = [per_attack.get(n, 0) * table.den ** (top - n) for n in range(top + 1)]
    f0 = scales[0]
    jump = max(d for d, _ in table.moves[0])
    size = total + 1
    most = max(attacks)
    w = [attacks[most]]
    for a in range(most - 1, -1, -1):
        nxt = [x * f0 for x in w]
        u = w
        for n in range(1, top + 1):
            u = table.apply(u + [0] * (min(size, len(u) + jump) - len(u)))
            f = scales[n]
            if f:
                nxt += [0] * (len(u) - len(nxt))
                nxt = [b + x * f for b, x in zip(nxt, u, strict=True)]
        w = nxt
        c = attacks.get(a)
        if c:
            w[0] += c * step_den ** (most - a)
    return w + [0] * (size - len(w)), sum(attacks.values()) * step_den**most


def _published(weights: list[int], den: int, wounds: int, models: int) -> dict[str, Any]:
    """The six published figures of wounds-lost weights over ``den`` (floats by correctly rounded
    integer division, exact strings in lowest terms), in the general path's order."""
    total = wounds * models
    by_model = [sum(weights[m * wounds : (m + 1) * wounds]) for m in range(models)]
    by_model.append(weights[total])
    mean_wl = sum(map(mul, range(total + 1), weights))
    mean_md = sum(map(mul, range(models + 1), by_model))
    nums = [mean_wl, mean_md, weights[total], den - by_model[0], *by_model, *weights]
    floats = [a / den for a in nums]
    texts = [
        (str(a // g) if (g := gcd(a, den)) == den else f"{a // g}/{den // g}") if a else "0" for a in nums
    ]
    cut = 4 + models + 1
    return {
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


def lean_attack(calc: Calculator, v: dict[str, Any]) -> DeferredResult | None:
    """``wh40k.attack``'s answer for validated fields ``v`` inside the lean path's domain, else
    ``None`` (see the module docstring)."""
    wounds, models, ranged = v["wounds"], v["models"], v["ranged"]
    words = v["abilities"]
    if wounds * models > LEAN_WOUNDS or v["attacks"].maximum > LEAN_ATTACKS:
        return None
    if not ranged and (v["cover"] or v["stealth"] or v["overwatch"] or any(w in words for w in RANGED_ONLY)):
        return None  # the general path refuses these
    choices = choices_of(v, calc.choices)  # type: ignore[arg-type]
    weapon = make_weapon(v, checked=True)  # the weapon's own inputs among the validated fields
    target = target_of(v)
    (p,) = placed((weapon,), target, situation_of(v), choices)
    if p.attacks.items[-1][0] > LEAN_ATTACKS or len(p.sustained) > 1:
        return None
    normal, dev = packet_tables(p.weapon, p.target, choices)
    outcome = attack_outcome(p.weapon, p.target, p.situation, choices)
    if any(m for _, m in outcome.weights) and dev != normal:
        return None  # Devastating Wounds kept apart from the other damage: the engine's joint path
    per_attack: dict[int, int] = {}
    for (n, m), w in outcome.weights.items():
        per_attack[n + m] = per_attack.get(n + m, 0) + w
    a_den = lcm(*(q.denominator for _, q in p.attacks))
    attacks = {a: q.numerator * (a_den // q.denominator) for a, q in p.attacks}
    mixed, den = _mixed(per_attack, outcome.den, normal, wounds * models, attacks)
    values = _published(mixed, den, wounds, models)
    warnings = [RANGED_DAMAGE_REDUCTION] if target.damage_reduction and ranged else []
    warnings += ability_warnings(weapon, target) + pistol_warnings([weapon], choices)

    def build() -> tuple[tuple[Table, ...], tuple[str, ...]]:
        full = calc.run_validated(v)  # the domain passes the cross-field check
        return full.tables, full.explanation

    return DeferredResult.of(MappingProxyType(values), tuple(warnings), build)
