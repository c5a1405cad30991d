"""A unit whose models differ — kinds of model with their own Wounds, saves and Feel No Pain, or
a Leader attached to its Bodyguard unit — resolved exactly by the one engine.

The attack is the engine's: each weapon as its situation makes it
(:func:`~rulesbook.systems.wh40k.attack.engine.placed`), its wounds counted by
:func:`~rulesbook.systems.wh40k.attack.outcome.wound_outcome` and mixed over its attacks by
:func:`~rulesbook.systems.wh40k.attack.engine.weapon_counts`, the state vectors moved by
:func:`~rulesbook.systems.wh40k.attack.engine.apply_counts` and the Devastating Wounds resolved
last by :func:`~rulesbook.systems.wh40k.attack.engine.resolve_pending`. What differs is the state
and the step: the state is the wounds lost by each group of models, and one wound's step makes
its saving throw with the model it reaches — Save, invulnerable save and Feel No Pain of that
group, the AP and cover of the weapon's situation
(:func:`~rulesbook.systems.wh40k.attack.outcome.save_counts`) — before its damage. Every Wound
roll uses one Toughness (the Bodyguard's in an Attached unit).

A wound goes to the first group in allocation order with a model left, CHARACTER groups after
the others — unless its weapon has Precision (interpretation ``precision``: the attacker sends
every such wound to a CHARACTER while one lives). The Critical Wounds whose AP a rule improves
(Ferric Blight near an Infected objective) save at that AP; they are allocated after the
weapon's other wounds, or before them (interpretation ``critical-ap-order``) — with one kind of
model the order changes nothing.

Example:
    Five bolter shots (BS 3+, S4 AP0 D1) into five T4 Sv 3+ W1 models led by a W4 Sv 2+
    Leader: the Leader cannot be touched while a Bodyguard model lives, so five shots can never
    reach it:

    >>> gun = Weapon("bolter", parse_dice("5"), 3, 4, 0, parse_dice("1"))
    >>> r = resolve_attached([gun], Target(4, 3, 1, models=5), LeaderProfile(1, 4, 2))
    >>> r.p_leader_destroyed, r.bodyguard_destroyed.mean()   # 5 x 2/3 x 1/2 x 1/3
    (Fraction(0, 1), Fraction(5, 9))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm

from rulesbook.dice import parse_dice  # noqa: F401 (the examples use it)
from rulesbook.registry import implements
from rulesbook.results import Distribution
from rulesbook.systems.wh40k.attack.engine import (
    PacketTable,
    Placed,
    apply_counts,
    horner,
    packet_terms,
    placed,
    resolve_pending,
    weapon_counts,
)
from rulesbook.systems.wh40k.attack.outcome import save_counts, wound_outcome
from rulesbook.systems.wh40k.attack.rolls import DEFAULT_SITUATION, Situation, packet_weights
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon
from rulesbook.systems.wh40k.attack.work import Work
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices

__all__ = [
    "JOINT_WOUNDS_LIMIT",
    "MAX_GROUP_STATES",
    "AttachedResult",
    "GroupsResult",
    "LeaderProfile",
    "ModelGroup",
    "groups_states",
    "has_precision",
    "joint_wounds_bound",
    "resolve_attached",
    "resolve_groups",
]

MAX_GROUP_STATES = 3000
"""Most states (ways the unit's wounds can be lost) :func:`resolve_groups` tracks."""

JOINT_WOUNDS_LIMIT = 150
"""Most wounds one weapon with Devastating Wounds may score against a unit of several groups
(its normal and devastating wounds are tracked jointly)."""

type State = tuple[int, ...]
"""Wounds lost by each group of models: (Bodyguard, Leader) for an Attached unit."""


@dataclass(frozen=True, slots=True)
class ModelGroup:
    """Models of one kind in a unit: how many, their Wounds, saves and Feel No Pain, and
    whether they are CHARACTER models of an Attached unit (reached only when no other model is
    left, or first by a Precision weapon)."""

    name: str
    models: int
    wounds: int
    save: int
    invuln: int | None = None
    fnp: int | None = None
    character: bool = False
    fnp_mortal: int | None = None

    def target(self, unit: Target) -> Target:
        """The unit's profile (Toughness, cover, Stealth, Damage reduction) with these models."""
        return replace(
            unit,
            save=self.save,
            invuln=self.invuln,
            fnp=self.fnp,
            fnp_mortal=self.fnp_mortal,
            wounds=self.wounds,
            models=self.models,
        )


@dataclass(frozen=True, slots=True)
class GroupsResult:
    """The exact joint distribution of wounds lost by each group of a unit, and views."""

    groups: tuple[ModelGroup, ...]
    lost: Distribution[State]

    def destroyed(self, state: State) -> int:
        """Models destroyed in a state (each group's lost wounds over its Wounds)."""
        return sum(w // g.wounds for w, g in zip(state, self.groups, strict=True))

    @property
    def models_destroyed(self) -> Distribution[int]:
        """Models of the whole unit destroyed."""
        return self.lost.map(self.destroyed)

    @property
    def wounds_lost(self) -> Distribution[int]:
        """Wounds the whole unit loses."""
        return self.lost.map(sum)

    def group_destroyed(self, index: int) -> Distribution[int]:
        """Models of one group destroyed."""
        w = self.groups[index].wounds
        return self.lost.map(lambda s: s[index] // w)


@dataclass(frozen=True, slots=True)
class LeaderProfile:
    """The Leader's models in an Attached unit (attacks on the unit use the Bodyguard's T)."""

    models: int
    wounds: int
    save: int
    invuln: int | None = None
    fnp: int | None = None
    fnp_mortal: int | None = None


@dataclass(frozen=True, slots=True)
class AttachedResult:
    """The exact joint distribution of wounds lost by the two parts of an Attached unit."""

    bodyguard: Target
    leader: LeaderProfile
    lost: Distribution[State]

    @property
    def bodyguard_destroyed(self) -> Distribution[int]:
        """Bodyguard models destroyed."""
        w = self.bodyguard.wounds
        return self.lost.map(lambda s: s[0] // w)

    @property
    def leader_destroyed(self) -> Distribution[int]:
        """Leader models destroyed."""
        w = self.leader.wounds
        return self.lost.map(lambda s: s[1] // w)

    @property
    def models_destroyed(self) -> Distribution[int]:
        """Models of the whole Attached unit destroyed."""
        wb, wl = self.bodyguard.wounds, self.leader.wounds
        return self.lost.map(lambda s: s[0] // wb + s[1] // wl)

    @property
    def p_leader_destroyed(self) -> Fraction:
        """Chance that every Leader model is destroyed."""
        return self.leader_destroyed.p(self.leader.models)


def has_precision(weapon: Weapon, choices: Wh40kChoices = CHOICES) -> bool:
    """Whether the attacker sends this weapon's wounds to a CHARACTER first.

    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> w = Weapon("w", parse_dice("1"), 3, 4, 0, parse_dice("1"), parse_abilities("precision"))
    >>> has_precision(w), has_precision(w, CHOICES.replace(readings={"precision": "ignored"}))
    (True, False)
    """
    return "precision" in weapon.abilities.other and choices.readings.precision == "character-first"


# -- where a wound goes -------------------------------------------------------------------------


class _Order:
    """Where the next wound of a unit of several groups goes (groups in allocation order)."""

    def __init__(self, groups: Sequence[ModelGroup]) -> None:
        self.totals = tuple(g.models * g.wounds for g in groups)
        self.wounds = tuple(max(1, g.wounds) for g in groups)
        self.character = tuple(g.character for g in groups)

    def target_group(self, state: State, precision: bool) -> int | None:
        alive = [i for i, (lost, total) in enumerate(zip(state, self.totals, strict=True)) if lost < total]
        if not alive:
            return None
        if precision:
            for i in alive:
                if self.character[i]:
                    return i
        for i in alive:
            if not self.character[i]:
                return i
        return alive[0]

    def take(self, state: State, group: int, points: int, spills: bool, precision: bool) -> State:
        """Deal ``points`` to the model being worked on in ``group``; with ``spills`` the rest
        goes on in allocation order."""
        lost = list(state)
        g: int | None = group
        while points > 0 and g is not None:
            room = self.wounds[g] - lost[g] % self.wounds[g]
            hit = min(points, room)
            lost[g] += hit
            points -= hit
            if not spills:
                break
            g = self.target_group(tuple(lost), precision)
        return tuple(lost)


type _Saves = Sequence[tuple[int, int, int]]
"""(saved, failed, denominator) of one wound's saving throw, group by group."""
type _Damage = Sequence[tuple[tuple[tuple[int, int], ...], int]]
"""(damage, weight) pairs over a denominator, group by group (after reduction and Feel No Pain)."""


@dataclass(frozen=True, slots=True)
class _Space:
    """The states a unit's wounds can be in (indexed), and the one-wound step of a weapon."""

    order: _Order
    states: tuple[State, ...]
    index: dict[State, int]

    def table(self, saves: _Saves, damage: _Damage, spills: bool, precision: bool) -> PacketTable:
        """One wound: its saving throw with the group it reaches, then its damage there."""
        den = lcm(*(s[2] * d for s, (_, d) in zip(saves, damage, strict=True)))
        rows: list[tuple[tuple[int, int], ...]] = []
        for i, s in enumerate(self.states):
            g = self.order.target_group(s, precision)
            if g is None:
                rows.append(((0, den),))
                continue
            (ok, fail, sd), (pairs, dd) = saves[g], damage[g]
            scale = den // (sd * dd)
            acc: dict[int, int] = {0: ok * dd * scale} if ok else {}
            for x, w in pairs:
                d = self.index[self.order.take(s, g, x, spills, precision)] - i  # moves are relative
                acc[d] = acc.get(d, 0) + fail * w * scale
            rows.append(tuple(acc.items()))
        return PacketTable(tuple(rows), den)


def _space(order: _Order, steps: Sequence[tuple[_Damage, bool, bool]]) -> _Space:
    """Every state the unit can reach from no wound lost under the weapons' damage (``steps``:
    the damage by group, whether excess damage spills, whether wounds go for a CHARACTER)."""
    seen = {tuple(0 for _ in order.totals)}
    todo = list(seen)
    while todo and len(seen) <= MAX_GROUP_STATES * 4:
        s = todo.pop()
        for damage, spills, precision in steps:
            g = order.target_group(s, precision)
            if g is None:
                continue
            for x, _ in damage[g][0]:
                t = order.take(s, g, x, spills, precision)
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
    states = tuple(sorted(seen))
    return _Space(order, states, {s: i for i, s in enumerate(states)})


def groups_states(groups: Sequence[ModelGroup]) -> int:
    """An upper bound of the states :func:`resolve_groups` may track: the product of (wounds of
    each group + 1) (the calculators refuse more than :data:`MAX_GROUP_STATES`).

    >>> groups_states([ModelGroup("a", 4, 1, 3), ModelGroup("b", 1, 2, 3)])
    15
    """
    out = 1
    for g in groups:
        out *= g.models * g.wounds + 1
    return out


# -- the weapons, in order ----------------------------------------------------------------------


def _unsaved(unit: Target, groups: Sequence[ModelGroup]) -> Target:
    """What the Hit and Wound rolls see: the unit's Toughness, keywords, cover and Stealth, no
    save (each wound saves with the model it reaches), every model for Blast."""
    return replace(unit, save=7, invuln=None, fnp=None, fnp_mortal=None, models=sum(g.models for g in groups))


def _wound_counts(
    p: Placed, choices: Wh40kChoices, tally: Work
) -> tuple[dict[tuple[int, int, int], int], int]:
    """(wounds, Critical-Wound wounds, devastating wounds) of all the weapon's attacks, through
    the engine's counting (the first two carried as one number in base ``top + 1``)."""
    mix = [(q, wound_outcome(p.weapon, p.target, p.situation, choices, x)) for q, x in p.sustained]
    top = max(sum(k) for _, o in mix for k in o.weights) * p.attacks.outcomes()[-1]
    base = top + 1
    packed = [(q, {(n + c * base, m): w for (n, c, m), w in o.weights.items()}, o.den) for q, o in mix]
    counts, den = weapon_counts(packed, p.attacks, False, tally)
    return {(nc % base, nc // base, m): w for (nc, m), w in counts.items()}, den


def joint_wounds_bound(
    weapons: Sequence[Weapon],
    bodyguard: Target,
    leader: LeaderProfile,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
) -> int:
    """The most wounds one weapon that can score Devastating Wounds may produce against a unit
    of several groups (0 when none can): its normal and devastating wounds are tracked jointly,
    whose cost grows with the cube of this number, so the calculators refuse more than
    :data:`JOINT_WOUNDS_LIMIT`.

    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> w = Weapon("w", parse_dice("20"), 3, 4, 0, parse_dice("1"), parse_abilities("sustained-hits-2,devastating-wounds"))
    >>> joint_wounds_bound([w], Target(4, 3, 1, models=5), LeaderProfile(1, 4, 3))
    60
    """
    models = bodyguard.models + leader.models
    unit = replace(bodyguard, save=7, invuln=None, fnp=None, fnp_mortal=None, models=models)
    bound = 0
    for p in placed(tuple(weapons), unit, situation, choices):
        outcomes = [
            wound_outcome(p.weapon, p.target, p.situation, choices, x).weights for _, x in p.sustained
        ]
        if any(k[2] for o in outcomes for k in o):
            per_attack = max(sum(k) for o in outcomes for k in o)
            bound = max(bound, per_attack * p.attacks.outcomes()[-1])
    return bound


def _saves(p: Placed, groups: Sequence[ModelGroup], choices: Wh40kChoices, critical: bool) -> _Saves:
    """One wound's saving throw with each group: its Save, invulnerable save, the cover and
    modifiers of the weapon's situation (a Critical Wound's with its better AP)."""
    return [
        save_counts(
            p.weapon, replace(p.target, save=g.save, invuln=g.invuln), p.situation, choices, critical=critical
        )
        for g in groups
    ]


def _damage(
    weapon: Weapon, unit: Target, groups: Sequence[ModelGroup], choices: Wh40kChoices
) -> tuple[_Damage, _Damage]:
    """One normal and one devastating packet's damage with each group (its reduction and Feel
    No Pain: :func:`~rulesbook.systems.wh40k.attack.engine.packet_terms`)."""
    terms = [packet_terms(g.target(unit), choices) for g in groups]
    normal = [packet_weights(weapon.damage, *t, least) for t, _, least in terms]
    dev = [packet_weights(weapon.damage, *t, least) for _, t, least in terms]
    return normal, dev


@implements(
    "wh40k.core.attached-units",
    "wh40k.attack.precision",
    "wh40k.attack.allocation",
    "wh40k.attack.saving-throw",
    "wh40k.attack.devastating-wounds",
)
def resolve_groups(
    weapons: Sequence[Weapon],
    unit: Target,
    groups: Sequence[ModelGroup],
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
) -> GroupsResult:
    """Resolve the weapons in order against a unit whose models come in ``groups`` (allocation
    order: a wound goes to the first group with a model left, CHARACTER groups last unless a
    Precision weapon goes for them), exactly; see the module docstring.

    ``unit`` gives what the whole unit shares: the Toughness of every Wound roll, its keywords,
    cover, Stealth and Damage reduction (its save, Wounds and models are the groups'). With one
    group it is :func:`.engine.resolve`; a test keeps the two equal over random situations.

    >>> gun = Weapon("bolter", parse_dice("2"), 3, 4, 0, parse_dice("1"))
    >>> boyz = [ModelGroup("Boyz", 2, 1, 5), ModelGroup("Nob", 1, 2, 4)]
    >>> r = resolve_groups([gun], Target(5, 5, 1, models=3), boyz)
    >>> r.models_destroyed.pmf()[2]   # both shots kill a Boy: (2/3 x 1/3 x 2/3)^2
    Fraction(16, 729)
    """
    r = choices.readings
    spills, dev_spills = r.allocation == "excess-spills", r.devastating_excess == "spills"
    order = _Order(groups)
    steps = placed(tuple(weapons), _unsaved(unit, groups), situation, choices)
    precise = [has_precision(p.weapon, choices) and any(g.character for g in groups) for p in steps]
    both = [_damage(p.weapon, unit, groups, choices) for p in steps]
    damage = [normal for normal, _ in both]
    dev_damage = [dev for _, dev in both]
    space = _space(
        order,
        [(d, spills, pr) for d, pr in zip(damage, precise, strict=True)]
        + [(d, dev_spills, pr) for d, pr in zip(dev_damage, precise, strict=True)],
    )
    tally = Work()
    start = [0] * len(space.states)
    start[space.index[tuple(0 for _ in groups)]] = 1
    state: dict[tuple[int, ...], tuple[list[int], int]] = {(): (start, 1)}
    pending: list[PacketTable] = []
    for p, dmg, dev_dmg, precision in zip(steps, damage, dev_damage, precise, strict=True):
        counts, den = _wound_counts(p, choices, tally)
        keep = any(m for _, _, m in counts)

        def table(
            critical: bool, dmg: _Damage = dmg, p: Placed = p, precision: bool = precision
        ) -> PacketTable:
            return space.table(_saves(p, groups, choices, critical), dmg, spills, precision)

        state = _wounds(state, counts, den, table, keep, r.critical_ap_order, tally)
        if keep:
            no_save = [(0, 1, 1)] * len(groups)
            pending.append(space.table(no_save, dev_dmg, dev_spills, precision))
    final, den = resolve_pending(state, pending, tally)[()]
    lost = ((space.states[i], Fraction(w, den)) for i, w in enumerate(final) if w)
    return GroupsResult(tuple(groups), Distribution.from_pairs(lost))


def _wounds(
    state: dict[tuple[int, ...], tuple[list[int], int]],
    counts: dict[tuple[int, int, int], int],
    den: int,
    table: Callable[[bool], PacketTable],
    keep: bool,
    order: str,
    tally: Work,
) -> dict[tuple[int, ...], tuple[list[int], int]]:
    """One weapon's wounds on every state vector: sum over (n, c, m) of P(n, c, m) T_C^c T_N^n v
    (the Critical Wounds of a better AP after the others; ``order`` "critical-first": T_N^n
    T_C^c v), filed under pending + (m,) when the devastating ones wait (``keep``)."""
    if not any(c for _, c, _ in counts):
        return apply_counts(
            state, {(n, m): w for (n, _, m), w in counts.items()}, den, table(False), keep, tally
        )
    first, then = (table(False), table(True)) if order == "critical-last" else (table(True), table(False))
    radix = max(m for _, _, m in counts) + 1
    # the first kind's wounds spread over the states; the other kind's count and m in one key
    if order == "critical-last":
        packed = {(n, c * radix + m): w for (n, c, m), w in counts.items()}
    else:
        packed = {(c, n * radix + m): w for (n, c, m), w in counts.items()}
    spread = apply_counts(state, packed, den, first, True, tally)
    out: dict[tuple[int, ...], tuple[list[int], int]] = {}
    grouped: dict[tuple[int, ...], dict[int, tuple[list[int], int]]] = {}
    for key, vec in spread.items():
        other, m = divmod(key[-1], radix)
        grouped.setdefault((*key[:-1], m) if keep else key[:-1], {})[other] = vec
    for key, by_other in grouped.items():
        out[key] = horner(by_other, then, tally)
    return out


def resolve_attached(
    weapons: Sequence[Weapon],
    bodyguard: Target,
    leader: LeaderProfile,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
) -> AttachedResult:
    """Resolve the weapons in order against an Attached unit: :func:`resolve_groups` with the
    Bodyguard and the Leader as a CHARACTER group (Precision included); the joint distribution
    of wounds lost by the Bodyguard and by the Leader.

    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> sniper = Weapon("sniper", parse_dice("1"), 2, 4, -2, parse_dice("3"), parse_abilities("precision"))
    >>> r = resolve_attached([sniper], Target(4, 3, 1, models=5), LeaderProfile(1, 3, 3))
    >>> r.p_leader_destroyed   # hits 5/6, wounds 1/2, the Leader's 3+ at AP-2 fails 2/3
    Fraction(5, 18)
    """
    groups = [
        ModelGroup(
            "Bodyguard",
            bodyguard.models,
            bodyguard.wounds,
            bodyguard.save,
            bodyguard.invuln,
            bodyguard.fnp,
            fnp_mortal=bodyguard.fnp_mortal,
        )
    ]
    if leader.models:
        groups.append(
            ModelGroup(
                "Leader",
                leader.models,
                leader.wounds,
                leader.save,
                leader.invuln,
                leader.fnp,
                True,
                leader.fnp_mortal,
            )
        )
    found = resolve_groups(weapons, bodyguard, groups, situation, choices)
    lost: Distribution[State] = found.lost if leader.models else found.lost.map(lambda s: (s[0], 0))
    return AttachedResult(bodyguard, leader, lost)
