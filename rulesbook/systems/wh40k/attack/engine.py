"""The allocation engine: whole weapons, in order, against one unit, exactly.

On top of the per-attack outcome of :func:`~rulesbook.systems.wh40k.attack.outcome.attack_outcome`:

1. **Per weapon** (:func:`_counts`): the packet counts of every attack are convolved (integer
   weights), mixed over the random Attacks characteristic (Blast included). A *packet* is one
   unsaved attack (or one Devastating Wounds attack) that will deal its Damage to the model it
   is allocated to.
2. **Allocation** (:func:`resolve`): a dynamic programme over the wounds the target has lost
   ``L`` (the destroyed models are ``L // W``, the damage on the model being worked on is
   ``L % W``). One packet moves ``L`` by its damage after Feel No Pain, capped at what the
   current model has left (excess damage is lost). Devastating packets of every weapon wait
   until all normal damage of the sequence is resolved, as the rules require.

The engine tallies the work it does (:attr:`SequenceResult.work`, in the units of
:func:`product_work` and :func:`step_work`); the cost model (:mod:`~rulesbook.systems.wh40k.attack.cost`) predicts the same
quantity from the same :func:`plan` without doing the work, and a test keeps the two together.

Example:
    Ten Intercessor-like bolt rifle shots (BS 3+, S4 AP-1 D1) at ten T4 Sv 3+ one-wound models:

    >>> weapon = Weapon(name="bolt rifle", attacks=parse_dice("10"), skill=3, strength=4,
    ...                 ap=-1, damage=parse_dice("1"))
    >>> target = Target(toughness=4, save=3, wounds=1, models=10)
    >>> result = resolve([weapon], target)
    >>> result.mean_wounds_lost   # 10 x 2/3 hit x 1/2 wound x 1/2 save fails
    Fraction(5, 3)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import accumulate
from math import gcd, lcm

from rulesbook.dice import parse_dice  # noqa: F401 (the examples use it)
from rulesbook.registry import implements
from rulesbook.results import Distribution
from rulesbook.systems.wh40k.attack.outcome import AttackOutcome, attack_outcome
from rulesbook.systems.wh40k.attack.rolls import (
    DEFAULT_SITUATION,
    Situation,
    attacks_distribution,
    packet_weights,
)
from rulesbook.systems.wh40k.attack.situational import in_situation
from rulesbook.systems.wh40k.attack.weapons import FeelNoPain, Target, Weapon, parse_abilities  # noqa: F401 (examples)
from rulesbook.systems.wh40k.attack.work import LOG2_10, Work, product_work, step_work
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices

__all__ = [
    "JOINT_LIMIT",
    "ApproximateResult",
    "PacketTable",
    "Placed",
    "SequenceResult",
    "WeaponPlan",
    "WeaponStep",
    "apply_counts",
    "horner",
    "joint_packets_bound",
    "packet_tables",
    "placed",
    "plan",
    "resolve",
    "resolve_pending",
    "weapon_counts",
    "weapon_step",
]

JOINT_LIMIT = 100
"""Most damage packets one weapon may produce when its Devastating Wounds must be tracked apart
from its normal damage (an earlier weapon of a sequence, or an alternative interpretation that
makes mortal wounds behave differently); the exact joint computation grows with its square."""

type _Vector = tuple[list[int], int]
"""Integer weights over wounds lost 0..total, and their common denominator."""


@dataclass(frozen=True, slots=True)
class PacketTable:
    """One kind of packet as a transition table over wounds lost (integer weights): from ``L``
    wounds lost, each ``(d, w)`` of ``moves[L]`` goes to ``L + d`` lost with weight ``w`` over
    ``den`` (moves are relative, so states with the same room left share one row)."""

    moves: tuple[tuple[tuple[int, int], ...], ...]
    den: int
    width: int = 0
    """The most moves from one state (computed at construction when not given)."""

    def __post_init__(self) -> None:
        if not self.width:
            object.__setattr__(self, "width", max(len(row) for row in self.moves))

    def apply(self, v: list[int]) -> list[int]:
        out = [0] * len(v)
        for L, a in enumerate(v):
            if a:
                for d, w in self.moves[L]:
                    out[L + d] += a * w
        return out


@cache
def _packet(
    pairs: tuple[tuple[int, int], ...], den: int, wounds: int, models: int, spills: bool
) -> PacketTable:
    """The transition table of one packet whose damage has integer weights ``pairs`` over ``den``
    (sorted by damage, each damage once: :func:`~rulesbook.systems.wh40k.attack.rolls.packet_weights`).

    The moves from ``lost`` depend only on the room left (the unit's when excess damage spills,
    else the model's): the damages below the room, then the room itself for every damage that
    fills it (the excess is lost), each room's row made once and shared by the states with that
    room (every room above the largest damage has ``pairs`` itself)."""
    total = wounds * models
    free = pairs[-1][0] + 1  # every room from here on loses the whole damage
    tails = list(accumulate(reversed([w for _, w in pairs])))[::-1]  # weight of pairs[i:]

    def row(room: int) -> tuple[tuple[int, int], ...]:
        if room >= free:
            return pairs
        below = bisect_left(pairs, (room,))
        return (*pairs[:below], (room, tails[below]))

    if spills:
        rows = [pairs if total - lost >= free else row(total - lost) for lost in range(total)]
    else:
        rows = [row(wounds - r) for r in range(wounds)] * models
    width = max(map(len, rows))
    rows.append(((0, den),))
    return PacketTable(tuple(rows), den, width)


@dataclass(frozen=True, slots=True)
class WeaponPlan:
    """What the engine does with one weapon: its attacks, the per-attack outcomes it mixes
    (several only for the once-per-weapon Sustained Hits reading), its packet tables, and
    whether its devastating packets wait apart from its normal ones (``keep``) or are merged
    with them (``merge``)."""

    weapon: Weapon
    attacks: Distribution[int]
    mix: tuple[tuple[Fraction, AttackOutcome], ...]
    normal: PacketTable
    dev: PacketTable
    keep: bool
    merge: bool
    target: Target
    """The target as this weapon's situation makes it (Indirect Fire at an unseen target: in cover)."""
    situation: Situation
    """The situation as this weapon makes it (Lance after a charge, Indirect Fire unseen)."""


@dataclass(frozen=True, slots=True)
class Placed:
    """One weapon's attack as its situation makes it — the one place the situation's weapon
    abilities are applied (:func:`~rulesbook.systems.wh40k.attack.situational.in_situation`):
    the weapon, its own target and situation, its number of attacks (Blast counting the target's
    models) and the Sustained Hits values its attacks mix (several only for the
    once-per-weapon reading; ``None``: each attack rolls its own)."""

    weapon: Weapon
    target: Target
    situation: Situation
    attacks: Distribution[int]
    sustained: tuple[tuple[Fraction, int | None], ...]


@cache
def placed(
    weapons: tuple[Weapon, ...], target: Target, situation: Situation, choices: Wh40kChoices
) -> tuple[Placed, ...]:
    """Each weapon of a sequence as its situation makes it (see :class:`Placed`), for every
    engine: a unit of one profile (:func:`plan`) and one whose models differ
    (:func:`~rulesbook.systems.wh40k.attack.groups.resolve_groups`).

    >>> w = Weapon("w", parse_dice("2"), 4, 5, 0, parse_dice("1"), parse_abilities("indirect-fire"))
    >>> only, = placed((w,), Target(5, 4, 2, models=10), Situation(target_visible=False), CHOICES)
    >>> only.target.cover, only.situation.hit_modifier
    (True, -1)
    """
    out = []
    for given in weapons:
        weapon, weapon_target, weapon_situation = in_situation(given, target, situation, choices)
        sustained = weapon.abilities.sustained
        if sustained is not None and choices.readings.sustained_roll == "once-per-weapon":
            values: tuple[tuple[Fraction, int | None], ...] = tuple(
                (p, x) for x, p in sustained.distribution()
            )
        else:
            values = ((Fraction(1), None),)
        attacks = attacks_distribution(weapon, target, choices)
        out.append(Placed(weapon, weapon_target, weapon_situation, attacks, values))
    return tuple(out)


def packet_terms(
    target: Target, choices: Wh40kChoices
) -> tuple[tuple[int, FeelNoPain], tuple[int, FeelNoPain], int]:
    """How one allocated packet's Damage is reduced and rolled against Feel No Pain, for a
    normal and for a devastating packet (``(reduction, Feel No Pain)`` each), and the least
    Damage a reduction leaves (reading ``damage-minimum``): the arguments of
    :func:`~rulesbook.systems.wh40k.attack.rolls.packet_weights`. A devastating packet is mortal
    wounds: it meets the Feel No Pain against them (:meth:`Target.mortal_fnp`, reading
    ``fnp-combined``) and keeps the reduction under the reading ``devastating-modifiers``.

    >>> packet_terms(Target(4, 3, 2, fnp=6, fnp_mortal=4, damage_reduction=1), CHOICES)
    ((1, 6), (1, 4), 1)
    """
    r = choices.readings
    minimum = 1 if r.damage_minimum == "min-1" else 0
    dev_reduction = target.damage_reduction if r.devastating_modifiers == "apply" else 0
    return (target.damage_reduction, target.fnp), (dev_reduction, target.mortal_fnp(r.fnp_combined)), minimum


def packet_tables(weapon: Weapon, target: Target, choices: Wh40kChoices) -> tuple[PacketTable, PacketTable]:
    """The transition tables of one normal and of one devastating packet over the wounds a unit
    of one profile has lost (Damage, its reduction, Feel No Pain, excess damage lost or
    spilling, as the readings say).

    >>> normal, dev = packet_tables(Weapon("w", parse_dice("1"), 3, 4, 0, parse_dice("2")), Target(4, 3, 3, models=2), CHOICES)
    >>> normal.moves[:3]   # from 0 lost: 2 more; from 1: 2 more (3, the model is dead); from 2: only 1
    (((2, 1),), ((2, 1),), ((1, 1),))
    """
    r = choices.readings
    normal_terms, dev_terms, minimum = packet_terms(target, choices)
    normal = _packet(
        *packet_weights(weapon.damage, *normal_terms, minimum),
        target.wounds,
        target.models,
        r.allocation == "excess-spills",
    )
    dev_dmg = packet_weights(weapon.damage, *dev_terms, minimum)
    dev = _packet(*dev_dmg, target.wounds, target.models, r.devastating_excess == "spills")
    return normal, dev


def plan(
    weapons: Sequence[Weapon],
    target: Target,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
) -> list[WeaponPlan]:
    """The engine's plan for each weapon, in order (shared by :func:`resolve` and the cost
    model).

    Devastating packets can be merged with normal ones (the fast path) only for the last weapon
    of a sequence, when no earlier weapon left devastating packets pending and both kinds of
    packet act alike.

    >>> w = Weapon("w", parse_dice("10"), 3, 4, 0, parse_dice("2"), parse_abilities("devastating-wounds"))
    >>> [(p.keep, p.merge) for p in plan([w], Target(4, 3, 1, models=10))]
    [(False, True)]
    >>> [(p.keep, p.merge) for p in plan([w, w], Target(4, 3, 1, models=10))]   # the first waits
    [(True, False), (True, False)]
    """
    return list(_plan(tuple(weapons), target, situation, choices))


@cache
def _plan(
    weapons: tuple[Weapon, ...], target: Target, situation: Situation, choices: Wh40kChoices
) -> tuple[WeaponPlan, ...]:
    """:func:`plan`, memoised: one calculator call plans in validation (the cost model and the
    packet bound) and again when it resolves; the values are immutable."""
    out: list[WeaponPlan] = []
    pending = False
    for index, p in enumerate(placed(weapons, target, situation, choices)):
        normal, dev = packet_tables(p.weapon, p.target, choices)
        has_dev = p.weapon.abilities.devastating_wounds
        merge = has_dev and index == len(weapons) - 1 and not pending and dev == normal
        keep = has_dev and not merge
        pending = pending or keep
        mix = tuple((q, attack_outcome(p.weapon, p.target, p.situation, choices, x)) for q, x in p.sustained)
        out.append(WeaponPlan(p.weapon, p.attacks, mix, normal, dev, keep, merge, p.target, p.situation))
    return tuple(out)


def joint_packets_bound(
    weapons: Sequence[Weapon],
    target: Target,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
) -> int:
    """The most packets a weapon whose devastating packets are kept apart can produce (0 when
    none is); calculators refuse more than :data:`JOINT_LIMIT`.

    >>> w = Weapon("w", parse_dice("10"), 3, 4, 0, parse_dice("2"), parse_abilities("devastating-wounds"))
    >>> joint_packets_bound([w], Target(4, 3, 1, models=10))
    0
    >>> joint_packets_bound([w], Target(4, 3, 1, models=10), choices=CHOICES.replace(
    ...     readings={"devastating_excess": "spills"}))
    10
    >>> joint_packets_bound([w, w], Target(4, 3, 1, models=10))   # the first weapon waits
    10
    """
    bound = 0
    for step in plan(weapons, target, situation, choices):
        if step.keep:
            per_attack = max(n + m for _, o in step.mix for n, m in o.weights)
            bound = max(bound, per_attack * step.attacks.outcomes()[-1])
    return bound


# -- the results ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WeaponStep:
    """Mean numbers of one weapon's attack sequence (the explanation view)."""

    name: str
    attacks: Fraction
    hits: Fraction
    wounds: Fraction
    devastating: Fraction
    unsaved: Fraction
    damage: Fraction
    """Mean damage of the unsaved and devastating attacks (after Damage reduction, before Feel
    No Pain and before excess damage is lost)."""


@dataclass(frozen=True, slots=True)
class SequenceResult:
    """The exact distribution of wounds lost by the target, with its derived views.

    ``wounds_lost`` counts the wounds the unit really loses (excess damage on a destroyed model
    is not counted); ``models_destroyed`` is ``wounds_lost // W``. ``work`` is the work the
    engine did (see :func:`product_work`), ``digits`` those of the answer's common denominator.
    """

    target: Target
    wounds_lost: Distribution[int]
    models_destroyed: Distribution[int]
    mean_wounds_lost: Fraction
    mean_models_destroyed: Fraction
    p_unit_destroyed: Fraction
    steps: tuple[WeaponStep, ...]
    work: float = 0.0
    digits: float = 0.0

    @staticmethod
    def from_weights(
        target: Target, weights: Sequence[int], den: int, steps: Sequence[WeaponStep], work: float = 0.0
    ) -> SequenceResult:
        """Build every view once from integer weights over wounds lost (denominator ``den``)."""
        by_model = [0] * (target.models + 1)
        for lost, w in enumerate(weights):
            by_model[lost // target.wounds] += w
        return SequenceResult(
            target=target,
            wounds_lost=_distribution(weights, den),
            models_destroyed=_distribution(by_model, den),
            mean_wounds_lost=Fraction(sum(k * w for k, w in enumerate(weights)), den),
            mean_models_destroyed=Fraction(sum(k * w for k, w in enumerate(by_model)), den),
            p_unit_destroyed=Fraction(weights[-1], den),
            steps=tuple(steps),
            work=work,
            digits=den.bit_length() / LOG2_10,
        )


def _distribution(weights: Sequence[int], den: int) -> Distribution[int]:
    return Distribution.from_weights(((k, w) for k, w in enumerate(weights) if w), den)


@dataclass(frozen=True, slots=True)
class ApproximateResult:
    """The distribution of wounds lost computed in floating point (see the module docstring).

    ``wounds_lost[k]`` and ``models_destroyed[k]`` are P(exactly k); ``work`` is the work done
    in element operations (:data:`CALL_WORK` per numpy call plus its length).
    """

    target: Target
    wounds_lost: tuple[float, ...]
    models_destroyed: tuple[float, ...]
    mean_wounds_lost: float
    mean_models_destroyed: float
    p_unit_destroyed: float
    steps: tuple[WeaponStep, ...]
    work: float = 0.0


# -- the engine -------------------------------------------------------------------------------


def _reduced(weights: Mapping[tuple[int, int], int], den: int) -> tuple[dict[tuple[int, int], int], int]:
    """Integer weights in lowest terms (divided by their common factor with ``den``), zeros left out."""
    g = den
    for w in weights.values():
        g = gcd(g, w)
    return {k: w // g for k, w in weights.items() if w}, den // g


def _counts(
    per_attack: Mapping[tuple[int, int], int],
    per_den: int,
    attacks: Distribution[int],
    merge: bool,
    tally: Work,
) -> tuple[dict[tuple[int, int], int], int]:
    """Packets of all attacks of a weapon: (n, m) -> integer weight, and the denominator.

    ``per_attack`` are one attack's integer weights over ``per_den``. With ``merge`` the
    devastating packets are counted with the normal ones (key (n + m, 0)).
    """
    if merge:
        merged: dict[tuple[int, int], int] = {}
        for (n, m), w in per_attack.items():
            merged[(n + m, 0)] = merged.get((n + m, 0), 0) + w
        per_attack, den = _reduced(merged, per_den)
    else:
        den = per_den
    step = [(n, m, w) for (n, m), w in per_attack.items()]
    a_den = lcm(*(p.denominator for _, p in attacks))
    a_w = {a: p.numerator * (a_den // p.denominator) for a, p in attacks}
    top = max(a_w)
    # acc_k has denominator den**k; rescale each to den**top before mixing.
    out: dict[tuple[int, int], int] = {}
    acc: dict[tuple[int, int], int] = {(0, 0): 1}
    for k in range(top + 1):
        if k in a_w:
            scale = a_w[k] * den ** (top - k)
            for key, w in acc.items():
                out[key] = out.get(key, 0) + w * scale
        if k < top:
            tally.add(product_work(len(acc) * len(step), (k + 1) * den.bit_length()))
            nxt: dict[tuple[int, int], int] = {}
            for (n1, m1), w1 in acc.items():
                for n2, m2, w2 in step:
                    key = (n1 + n2, m1 + m2)
                    nxt[key] = nxt.get(key, 0) + w1 * w2
            acc = nxt
    return out, a_den * den**top


def weapon_counts(
    mix: Sequence[tuple[Fraction, Mapping[tuple[int, int], int], int]],
    attacks: Distribution[int],
    merge: bool,
    tally: Work,
) -> tuple[dict[tuple[int, int], int], int]:
    """What all the attacks of a weapon make, (n, m) -> integer weight over the returned
    denominator in lowest terms: one attack's counts (``mix``: (probability, weights, den) for
    each once-per-weapon Sustained Hits value) raised to each number of attacks and mixed
    (``merge``: devastating packets counted with the normal ones). Both engines count a weapon
    with it: packets for a unit of one profile, wounds for one whose models differ.

    >>> from rulesbook.results import Distribution
    >>> weapon_counts([(Fraction(1), {(0, 0): 1, (1, 0): 1}, 2)], Distribution.from_pairs([(2, Fraction(1))]), False, Work())
    ({(0, 0): 1, (1, 0): 2, (2, 0): 1}, 4)
    """
    parts = [(p, *_counts(weights, den, attacks, merge, tally)) for p, weights, den in mix]
    c_den = lcm(*(p.denominator * den for p, _, den in parts))
    mixed: dict[tuple[int, int], int] = {}
    for p, raw, den in parts:
        scale = p.numerator * (c_den // (p.denominator * den))
        for nm, w in raw.items():
            mixed[nm] = mixed.get(nm, 0) + w * scale
    return _reduced(mixed, c_den)


def _add(a: _Vector | None, b: _Vector) -> _Vector:
    if a is None:
        return b
    (va, da), (vb, db) = a, b
    if da == db:
        return [x + y for x, y in zip(va, vb, strict=True)], da
    d = lcm(da, db)
    fa, fb = d // da, d // db
    return [x * fa + y * fb for x, y in zip(va, vb, strict=True)], d


def apply_counts(
    state: dict[tuple[int, ...], _Vector],
    counts: Mapping[tuple[int, int], int],
    c_den: int,
    packet: PacketTable,
    keep_pending: bool,
    tally: Work,
) -> dict[tuple[int, ...], _Vector]:
    """For each state vector v: sum over (n, m) of P(n, m) P^n v, filed under pending + (m,)
    (``counts`` are integer weights over ``c_den``, in lowest terms; ``packet`` the transition
    one packet makes: damage on a unit of one profile, a wound and its saving throw on a unit
    of several kinds of model)."""
    top = max(n for n, _ in counts)
    by_n: dict[int, list[tuple[int, int]]] = {}
    for (n, m), w in counts.items():
        by_n.setdefault(n, []).append((m if keep_pending else 0, w))
    out: dict[tuple[int, ...], _Vector] = {}
    for key, (v, den) in state.items():
        new_den = den * c_den * packet.den**top
        size, bits = len(v), new_den.bit_length()
        tally.add(product_work(size * len(counts), bits) + step_work(size * top * packet.width, bits))
        sums: dict[int, list[int]] = {}
        u = v
        for n in range(top + 1):
            if n in by_n:
                scale = packet.den ** (top - n)
                for m, w in by_n[n]:
                    acc = sums.setdefault(m, [0] * len(v))
                    f = w * scale
                    for i, x in enumerate(u):
                        if x:
                            acc[i] += x * f
            if n < top:
                u = packet.apply(u)
        for m, acc in sums.items():
            new_key = (*key, m) if keep_pending else key
            out[new_key] = _add(out.get(new_key), (acc, new_den))
    return out


def horner(by_m: Mapping[int, _Vector], packet: PacketTable, tally: Work) -> _Vector:
    """sum over m of Q^m v_m, by Horner's scheme (exact)."""
    top = max(by_m)
    w, den = by_m[top]
    bits = (den * packet.den**top).bit_length()
    tally.add(product_work(len(w), bits) + step_work(len(w) * top * packet.width, bits))
    for m in range(top - 1, -1, -1):
        w = packet.apply(w)
        den *= packet.den
        if m in by_m:
            w, den = _add((w, den), by_m[m])
    return w, den


@implements(
    "wh40k.attack.sequence", "wh40k.attack.allocation", "wh40k.attack.mortal-wounds", "wh40k.attack.attacks"
)
def resolve(
    weapons: Sequence[Weapon],
    target: Target,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
    *,
    limit: float | None = None,
    seconds: float | None = None,
) -> SequenceResult:
    """Resolve the weapons in order against one target and return the exact distribution of
    wounds lost (``limit``: the most work, in the units of :func:`product_work`, and
    ``seconds`` the most wall-clock time, before :class:`WorkLimitExceeded` stops it).

    Damage state carries from weapon to weapon; all Devastating Wounds packets are resolved
    after the normal damage of every weapon (first weapon first). Blast counts the models the
    target had when it was selected (before any attack).

    >>> rotwind = Weapon("Rotwind", parse_dice("D6+3"), 2, 7, -2, parse_dice("1"),
    ...                  parse_abilities("blast,devastating-wounds,lethal-hits"))
    >>> r = resolve([rotwind], Target(toughness=4, save=3, wounds=1, models=20))
    >>> r.mean_models_destroyed   # (3.5 + 3 + 4 Blast) attacks x (4/6 x 1/2 + 1/6 x 2/3)
    Fraction(14, 3)
    """
    tally = Work(limit, seconds)
    total = target.total_wounds
    start = [0] * (total + 1)
    start[0] = 1
    # state: pending devastating counts (one per weapon kept apart so far) -> (vector, den)
    state: dict[tuple[int, ...], _Vector] = {(): (start, 1)}
    pending_packets: list[PacketTable] = []
    steps: list[WeaponStep] = []
    for step in plan(weapons, target, situation, choices):
        mix = [(p, outcome.weights, outcome.den) for p, outcome in step.mix]
        counts, c_den = weapon_counts(mix, step.attacks, step.merge, tally)
        state = apply_counts(state, counts, c_den, step.normal, step.keep, tally)
        if step.keep:
            pending_packets.append(step.dev)
        steps.append(weapon_step(step, target, choices))
    final, final_den = resolve_pending(state, pending_packets, tally)[()]
    return SequenceResult.from_weights(target, final, final_den, steps, tally.done)


def resolve_pending(
    state: dict[tuple[int, ...], _Vector], pending: Sequence[PacketTable], tally: Work
) -> dict[tuple[int, ...], _Vector]:
    """The Devastating Wounds kept apart (the first count of each state key, weapon by weapon),
    resolved after all normal damage, first weapon first: ``pending`` are their transitions."""
    for packet in pending:
        collapsed: dict[tuple[int, ...], _Vector] = {}
        grouped: dict[tuple[int, ...], dict[int, _Vector]] = {}
        for key, vec in state.items():
            grouped.setdefault(key[1:], {})[key[0]] = vec
        for rest, by_m in grouped.items():
            collapsed[rest] = _add(collapsed.get(rest), horner(by_m, packet, tally))
        state = collapsed
    return state


def _mean_of(weights: Sequence[tuple[int, int]], den: int) -> Fraction:
    return Fraction(sum(x * w for x, w in weights), den)


def weapon_step(step: WeaponPlan, target: Target, choices: Wh40kChoices) -> WeaponStep:
    """The mean numbers of one weapon's plan (exact, whichever engine resolves the sequence)."""
    weapon = step.weapon
    minimum = 1 if choices.readings.damage_minimum == "min-1" else 0
    dmg = _mean_of(*packet_weights(weapon.damage, target.damage_reduction, None, minimum))
    # an everyday dice total (NdS+k) is symmetric: its mean is halfway between its least and its
    # most; keep/drop, re-rolls and explosions are not, so their mean is computed
    damage = weapon.damage
    dev_dmg = (
        dmg
        if choices.readings.devastating_modifiers == "apply"
        else Fraction(damage.minimum + damage.maximum, 2)
        if damage.is_simple
        else damage.mean()
    )
    attacks = step.attacks.mean() if len(step.attacks.items) > 1 else Fraction(step.attacks.items[0][0])

    if len(step.mix) == 1:
        only = step.mix[0][1]

        def mean(attr: str) -> Fraction:
            value: Fraction = getattr(only, attr)
            return value * attacks
    else:

        def mean(attr: str) -> Fraction:
            return sum((p * getattr(o, attr) for p, o in step.mix), Fraction(0)) * attacks

    unsaved = mean("unsaved_per_attack")
    devastating = mean("devastating_per_attack")
    return WeaponStep(
        name=weapon.name,
        attacks=attacks,
        hits=mean("hits_per_attack"),
        wounds=mean("wounds_per_attack"),
        devastating=devastating,
        unsaved=unsaved,
        damage=unsaved * dmg + devastating * dev_dmg,
    )
