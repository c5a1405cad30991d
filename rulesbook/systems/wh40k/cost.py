"""The cost model of the allocation engine, and the budget the calculators enforce.

:func:`predicted_cost` follows the engine's own :func:`~rulesbook.systems.wh40k.engine.plan`
and counts, in the engine's work units (:func:`~rulesbook.systems.wh40k.engine.product_work`),
the work :func:`~rulesbook.systems.wh40k.engine.resolve` would do, without doing it: it takes
the largest sizes the loops can reach where the engine meets the actual ones. The engine
reports the work it really did (``SequenceResult.work``); ``tests/wh40k/test_budget.py`` checks
over a sample of inputs that the prediction stays within :data:`PREDICTION_FACTOR` of it.

Example:
    >>> from rulesbook.dice import parse_dice
    >>> from rulesbook.systems.wh40k.weapons import Weapon, parse_abilities
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
from math import lcm

from rulesbook.dice import constant
from rulesbook.errors import InputError
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices
from rulesbook.systems.wh40k.engine import LOG2_10, plan, product_work, step_work
from rulesbook.systems.wh40k.rules import DEFAULT_SITUATION, Situation
from rulesbook.systems.wh40k.weapons import Target, Weapon

__all__ = [
    "DIGITS_LIMIT",
    "MAX_ATTACKS",
    "MAX_TOTAL_WOUNDS",
    "PREDICTION_FACTOR",
    "WORK_LIMIT",
    "Cost",
    "predicted_cost",
    "refuse_costly",
]

MAX_TOTAL_WOUNDS = 400
"""Upper bound on models × wounds (keeps every answer interactive)."""

MAX_ATTACKS = 200
"""Upper bound on the attacks one weapon can make (after Blast)."""

WORK_LIMIT = 2.4e10
"""Most predicted work (see :func:`predicted_cost`) a calculator accepts: about 1.8 s on the
2-core build machine. Anything above fails at once with a one-line error instead of running."""

DIGITS_LIMIT = 4000
"""Most decimal digits the common denominator of an exact answer may have (an exact string of
more than a few thousand digits is no use to anyone; it also stays below Python's default
int-to-str limit of 4300 digits)."""

PREDICTION_FACTOR = 8.0
"""The prediction is never below the work the engine reports, and at most this many times it
(it takes the largest sizes where the engine meets the actual ones)."""


@dataclass(frozen=True, slots=True)
class Cost:
    """The predicted cost of :func:`~rulesbook.systems.wh40k.engine.resolve`: ``work`` in the
    engine's units (about 75 ps each on the build machine, so :data:`WORK_LIMIT` is about 1.8 s),
    ``digits`` of the answer's common denominator, and the work each weapon adds (to name the
    one to cut)."""

    work: float
    digits: float
    per_weapon: tuple[float, ...]

    @property
    def fits(self) -> bool:
        """Within both :data:`WORK_LIMIT` and :data:`DIGITS_LIMIT`."""
        return self.work <= WORK_LIMIT and self.digits <= DIGITS_LIMIT


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
    size = target.total_wounds + 1
    states = 1
    bits = 0.0
    work = 0.0
    per_weapon: list[float] = []
    pending: list[tuple[int, float, int]] = []  # (max devastating packets, bits per packet, moves)
    for step in plan(weapons, target, situation, choices):
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
        work += product_work(top * pairs * outcomes / 3, count_bits)
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
    return Cost(work=work, digits=bits / LOG2_10, per_weapon=tuple(per_weapon))


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
        if predicted_cost(trial, target, situation, choices).fits:
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
) -> None:
    """Refuse at once what would take more than about 2 s (or give an answer of thousands of
    digits): an :class:`InputError` naming ``field``, the weapon to cut and how far.

    >>> from rulesbook.dice import parse_dice
    >>> from rulesbook.systems.wh40k.weapons import parse_abilities
    >>> hail = Weapon("w", parse_dice("120"), 3, 4, 0, parse_dice("2D6"), parse_abilities("sustained-hits-d6"))
    >>> refuse_costly([hail], Target(4, 7, 10, models=40, fnp=5), Situation(), CHOICES, "attacks", [""])
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: attacks: this would need about 8.1 times the work the calculators allow (about 2 s); with everything else unchanged, use at most 50 attacks (Blast included)
    """
    cost = predicted_cost(weapons, target, situation, choices)
    if cost.fits:
        return
    index = max(range(len(weapons)), key=lambda i: cost.per_weapon[i])
    most = _most_attacks_that_fit(weapons, index, target, situation, choices)
    why = (
        f"about {cost.work / WORK_LIMIT:.1f} times the work the calculators allow (about 2 s)"
        if cost.work > WORK_LIMIT
        else f"an exact answer of about {cost.digits:,.0f} digits (at most {DIGITS_LIMIT:,})"
    )
    label = labels[index]
    cut = (
        f"with everything else unchanged, use at most {most} attacks"
        f"{' for ' + label if label else ''} (Blast included)"
        if most
        else "reduce models × wounds, Sustained Hits or random Damage"
    )
    raise InputError(field, f"{label + ': ' if label else ''}this would need {why}; {cut}")
