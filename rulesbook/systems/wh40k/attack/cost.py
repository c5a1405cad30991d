"""The cost model of the allocation engine, and the budget the calculators enforce.

:func:`predicted_cost` follows the engine's own :func:`~rulesbook.systems.wh40k.attack.engine.plan`
and counts, in the engine's work units (:func:`~rulesbook.systems.wh40k.attack.engine.product_work`),
the work :func:`~rulesbook.systems.wh40k.attack.engine.resolve` would do, without doing it: it takes
the largest sizes the loops can reach where the engine meets the actual ones. The engine
reports the work it really did (``SequenceResult.work``); ``tests/wh40k/test_budget.py`` checks
over a sample of inputs that the prediction stays within :data:`PREDICTION_FACTOR` of it.

Example:
    >>> from rulesbook.dice import parse_dice
    >>> from rulesbook.systems.wh40k.attack.weapons import Weapon, parse_abilities
    >>> bolter = Weapon("w", parse_dice("40"), 3, 5, -1, parse_dice("1"),
    ...                 parse_abilities("sustained-hits-1,devastating-wounds"))
    >>> predicted_cost([bolter], Target(4, 3, 2, models=20, fnp=5)).fits
    True
    >>> hail = Weapon("w", parse_dice("120"), 3, 4, 0, parse_dice("2D6"), parse_abilities("sustained-hits-d6"))
    >>> predicted_cost([hail], Target(4, 7, 10, models=40, fnp=5)).fits
    False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from math import lcm
from typing import Literal

from rulesbook.dice import constant
from rulesbook.errors import CostError
from rulesbook.systems.wh40k.attack.engine import WeaponPlan, plan
from rulesbook.systems.wh40k.attack.rolls import DEFAULT_SITUATION, Situation
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon
from rulesbook.systems.wh40k.attack.work import CALL_WORK, LOG2_10, OP_WORK, product_work, step_work
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices

__all__ = [
    "DIGITS_LIMIT",
    "FLOAT_LIMIT",
    "HARD_FACTOR",
    "MAX_ATTACKS",
    "MAX_TOTAL_WOUNDS",
    "PREDICTION_FACTOR",
    "SECONDS_PER_FLOAT_WORK",
    "SECONDS_PER_WORK",
    "WORK_LIMIT",
    "Cost",
    "predicted_cost",
    "refuse_costly",
    "too_costly",
]

MAX_TOTAL_WOUNDS = 1000
"""Upper bound on models × wounds (keeps every answer interactive)."""

MAX_ATTACKS = 200
"""Upper bound on the attacks one weapon can make (after Blast)."""

WORK_LIMIT = 2.5e9
"""Most predicted work (see :func:`predicted_cost`) the exact engine is given: about 0.4 s on the
2-core build machine (a unit costs 70-260 ps over a broad sample, see ``bench/wh40k_budget.py``),
so even the slowest kind stays under 1 s. Above it the floating-point path answers instead
(:data:`FLOAT_LIMIT`), and only what exceeds both is refused."""

DIGITS_LIMIT = 4000
"""Most decimal digits the common denominator of an exact answer may have (an exact string of
more than a few thousand digits is no use to anyone; it also stays below Python's default
int-to-str limit of 4300 digits)."""

FLOAT_LIMIT = 8e7
"""Most predicted work of the floating-point path (element operations, 3-12 ns each on the
build machine over a broad sample, see ``bench/wh40k_budget.py``: under 1 s). Beyond it an
input is refused."""

TABLE_WORK = 60.0
"""Work of one entry of a packet's transition table, built in Python (exact and float form)."""

HARD_FACTOR = 3.0
"""A computation that runs past this many times its limit is stopped inside the engine's loops
(:class:`~rulesbook.systems.wh40k.attack.engine.WorkLimitExceeded`), whatever the prediction said."""

SECONDS_PER_WORK = 2.6e-10
"""Seconds one unit of the exact engine's work takes at most on the build machine (70-260 ps
over a broad sample, ``bench/wh40k_budget.py``): turns a prediction into time."""

SECONDS_PER_FLOAT_WORK = 1.2e-8
"""Seconds one element operation of the floating-point path takes at most (3-12 ns)."""

PREDICTION_FACTOR = 8.0
"""The prediction is never below the work the engine reports, and at most this many times it
(it takes the largest sizes where the engine meets the actual ones)."""


@dataclass(frozen=True, slots=True)
class Cost:
    """The predicted cost of :func:`~rulesbook.systems.wh40k.attack.engine.resolve`: ``work`` in the
    engine's units (see :data:`WORK_LIMIT`), ``digits`` of the answer's common denominator, the
    work each weapon adds (to name the one to cut), and ``float_work``, the predicted work of the
    floating-point path (:func:`~rulesbook.systems.wh40k.attack.approximate.resolve_float`, in element
    operations), with its share per weapon."""

    work: float
    digits: float
    per_weapon: tuple[float, ...]
    float_work: float = 0.0
    float_per_weapon: tuple[float, ...] = ()

    @property
    def fits(self) -> bool:
        """The exact engine fits: within both :data:`WORK_LIMIT` and :data:`DIGITS_LIMIT`."""
        return self.work <= WORK_LIMIT and self.digits <= DIGITS_LIMIT

    @property
    def seconds(self) -> float:
        """The predicted seconds of the engine that answers (0 for an input refused at once).

        >>> round(Cost(work=1e9, digits=10, per_weapon=(1e9,)).seconds, 2)
        0.26
        """
        path = self.path
        if path == "exact":
            return self.work * SECONDS_PER_WORK
        return self.float_work * SECONDS_PER_FLOAT_WORK if path == "float" else 0.0

    @property
    def path(self) -> Literal["exact", "float"] | None:
        """``"exact"`` when the exact engine fits, else ``"float"`` when the floating-point path
        fits :data:`FLOAT_LIMIT`, else ``None`` (refused)."""
        if self.fits:
            return "exact"
        return "float" if self.float_work <= FLOAT_LIMIT else None


def _bits(den: int) -> float:
    return float(den.bit_length())


def predicted_cost(
    weapons: Sequence[Weapon],
    target: Target,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
) -> Cost:
    """Predict the work of the engine without doing it (the per-attack distributions of its
    plan only), loop by loop.

    The exact pipeline multiplies big integers: their size grows with every packet applied (the
    denominator of the answer), so the allocation costs about packets × wound states ×
    digits^1.5 (Karatsuba), times the pending devastating states of a sequence; the
    convolution of the attacks costs attacks × pairs × outcomes × digits^1.5.
    """
    return _predicted_cost(tuple(weapons), target, situation, choices)


@lru_cache(maxsize=256)
def _predicted_cost(
    weapons: tuple[Weapon, ...], target: Target, situation: Situation, choices: Wh40kChoices
) -> Cost:
    """:func:`predicted_cost`, memoised (the cross-field check and the computation of one call
    both ask; the binary search of a refusal asks again)."""
    steps = plan(weapons, target, situation, choices)
    size = target.total_wounds + 1
    work, bits, per_weapon = _exact_work(steps, size)
    fwork, float_per_weapon = _float_work(steps, size)
    return Cost(
        work=work,
        digits=bits / LOG2_10,
        per_weapon=tuple(per_weapon),
        float_work=fwork,
        float_per_weapon=tuple(float_per_weapon),
    )


def _exact_work(steps: list[WeaponPlan], size: int) -> tuple[float, float, list[float]]:
    """The exact path's work (in all and per weapon) and the bits of its largest numbers, over
    ``size`` wound states."""
    states = 1
    bits = 0.0
    work = 0.0
    per_weapon: list[float] = []
    pending: list[tuple[int, float, int]] = []  # (max devastating packets, bits per packet, moves)
    for step in steps:
        before = work
        top = step.attacks.outcomes()[-1]
        mix = [o for _, o in step.mix]
        n_max = max(n + m if step.merge else n for o in mix for n, m in o.weights)
        m_max = max(m for o in mix for _, m in o.weights) if step.keep else 0
        n_all, m_all = n_max * top, m_max * top
        both = max(n + m for o in mix for n, m in o.weights) * top
        pairs = min((n_all + 1) * (m_all + 1), (both + 1) * (both + 2) // 2)
        outcomes = max(len(o.weights) for o in mix)
        step_bits = _bits(lcm(*(o.den for o in mix)))
        count_bits = step_bits * top + _bits(lcm(*(p.denominator for _, p in step.attacks))) + _bits(len(mix))
        # _counts: one convolution step per attack over the pairs reached so far, the operands
        # growing to count_bits (their mean size: about a third of the work)
        products = top * pairs * outcomes
        work += product_work(products / 3, count_bits) + products * OP_WORK * 2 / 3
        bits += count_bits + n_all * _bits(step.normal.den)
        # _apply_counts: per pending state, one big x big product per (n, m) pair and one packet
        # step per packet over every wound state
        work += product_work(states * size * pairs, bits) + step_work(
            states * size * (n_all + 1) * step.normal.width, bits
        )
        if step.keep:
            states *= m_all + 1
            pending.append((m_all, _bits(step.dev.den), step.dev.width))
        per_weapon.append(work - before)
    for m_all, dev_bits, moves in pending:
        # Horner's scheme over the pending counts of one weapon, every state at once
        bits += m_all * dev_bits
        work += states * (product_work(size, bits) + step_work(size * moves, bits))
        states //= m_all + 1
    return work, bits, per_weapon


def _float_work(steps: list[WeaponPlan], size: int) -> tuple[float, list[float]]:
    """The floating-point path's work, in all and per weapon: the same loops on float vectors
    (see approximate.py)."""
    fwork = 0.0
    float_per_weapon: list[float] = []
    fstates = 1
    fpending: list[tuple[int, int]] = []  # (devastating packets, table entries)
    for step in steps:
        fbefore = fwork
        top = step.attacks.outcomes()[-1]
        mix = [o for _, o in step.mix]
        n_max = max(n + m if step.merge else n for o in mix for n, m in o.weights)
        outcomes = max(len(o.weights) for o in mix)
        kernel_n = n_max * top + 1
        kernel_m = max(m for o in mix for _, m in o.weights) * top + 1 if not step.merge else 1
        cells = kernel_n * kernel_m
        fwork += len(mix) * (top + 1) * (outcomes + 1) * (CALL_WORK + cells)
        entries = size * step.normal.width
        fwork += TABLE_WORK * (entries + size * step.dev.width)
        rows = kernel_m if step.keep else 1
        fwork += fstates * kernel_n * (3 * CALL_WORK + 2 * entries + rows * size)
        if step.keep:
            fstates *= kernel_m
            fpending.append((kernel_m, size * step.dev.width))
        float_per_weapon.append(fwork - fbefore)
    for kept, entries in fpending:
        # Horner's scheme over the pending counts of one weapon, every state at once
        fwork += fstates * (3 * CALL_WORK + 2 * entries + size)
        fstates //= kept
    return fwork, float_per_weapon


def _most_attacks_that_fit(
    weapons: Sequence[Weapon], index: int, target: Target, situation: Situation, choices: Wh40kChoices
) -> int:
    """The most attacks (Blast included) weapon ``index`` may make with the rest unchanged, 0 if
    none fits."""
    weapon = weapons[index]
    low, high = 0, MAX_ATTACKS
    while low < high:
        k = (low + high + 1) // 2
        fixed = replace(weapon, attacks=constant(k), abilities=replace(weapon.abilities, blast=False))
        trial = [*weapons[:index], fixed, *weapons[index + 1 :]]
        if predicted_cost(trial, target, situation, choices).path is not None:
            low = k
        else:
            high = k - 1
    return low


def refuse_costly(
    weapons: Sequence[Weapon],
    target: Target,
    situation: Situation,
    choices: Wh40kChoices,
    field: str,
    labels: Sequence[str],
) -> Cost:
    """Refuse at once what neither the exact engine nor its floating-point path can answer
    within about 1 s: an :class:`InputError` naming ``field``, the weapon to cut and how far.
    Returns the cost otherwise (its :attr:`Cost.path` says which engine answers).

    >>> from rulesbook.dice import parse_dice
    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> storm = Weapon("w", parse_dice("200"), 3, 4, 0, parse_dice("3D6"), parse_abilities("sustained-hits-d6"))
    >>> refuse_costly([storm], Target(4, 7, 24, models=40, fnp=5), Situation(), CHOICES, "attacks", [""]).path
    'float'
    >>> refuse_costly([storm] * 2, Target(4, 7, 24, models=40, fnp=5), Situation(), CHOICES, "weapons", ["w1", "w2"])
    Traceback (most recent call last):
    ...
    rulesbook.errors.CostError: weapons: w1: this would need about 1.5 times the work the calculators allow (about 1 s); with everything else unchanged, use at most 65 attacks for w1 (Blast included)
    """
    cost = predicted_cost(weapons, target, situation, choices)
    if cost.path is not None:
        return cost
    index = max(range(len(weapons)), key=lambda i: cost.float_per_weapon[i])
    most = _most_attacks_that_fit(weapons, index, target, situation, choices)
    label = labels[index]
    cut = (
        f"with everything else unchanged, use at most {most} attacks"
        f"{' for ' + label if label else ''} (Blast included)"
        if most
        else "reduce models × wounds, Sustained Hits or random Damage"
    )
    times = cost.float_work / FLOAT_LIMIT
    raise CostError(field, too_costly(times, label, cut), times=times)


def too_costly(times: float, label: str = "", cut: str = "", *, stopped: bool = False) -> str:
    """The one message of an over-budget input, whether the prediction refused it at validation
    or the hard limit stopped it while running.

    >>> too_costly(3.0, "weapon 2 (storm)")
    'weapon 2 (storm): this would need about 3.0 times the work the calculators allow (about 1 s); reduce the attacks, models × wounds, Sustained Hits or random Damage'
    """
    cut = cut or "reduce the attacks, models × wounds, Sustained Hits or random Damage"
    return (
        f"{label + ': ' if label else ''}this would need {'more than' if stopped else 'about'} "
        f"{times:.1f} times the work the "
        f"calculators allow (about 1 s); {cut}"
    )
