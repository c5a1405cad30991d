"""Attacks against an Attached unit (a Leader with its Bodyguard unit), exactly, with Precision.

The main engine (:mod:`~rulesbook.systems.wh40k.attack.engine`) allocates against one profile. Here the unit has two:
the Bodyguard models (the :class:`~rulesbook.systems.wh40k.attack.weapons.Target`) and the Leader's models
(:class:`LeaderProfile`), each with its own Wounds, saves and Feel No Pain; every Wound roll uses the Bodyguard's
Toughness, as the Leader rule requires.

The state is the pair (wounds lost by the Bodyguard, wounds lost by the Leader). A wound goes
to the Bodyguard while one of its models lives and to the Leader after that — unless its
weapon has Precision (interpretation ``precision``: the attacker sends every such wound to the
Leader while it lives). The saving throw is rolled for the model the wound went to, so the
Hit and Wound rolls come from :func:`~rulesbook.systems.wh40k.attack.rolls.attack_outcome` with no save, and each wound's
save is part of its transition. Devastating Wounds wait until every normal attack is
resolved, weapon by weapon, as in the main engine.

Per weapon, the number of normal wounds ``N`` and devastating wounds ``M`` of all its attacks
is one joint distribution (a polynomial power, independent of the state); the state vector
then goes through the one-wound transition ``N`` times (``T^n v`` for every ``n``).

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from math import lcm

from rulesbook.dice import parse_dice  # noqa: F401 (the examples use it)
from rulesbook.registry import implements
from rulesbook.results import Distribution
from rulesbook.systems.wh40k.attack.engine import packet_terms, plan
from rulesbook.systems.wh40k.attack.rolls import DEFAULT_SITUATION, Situation, packet_damage, save_test
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon
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
"""Most wounds one weapon with Devastating Wounds may score against an Attached unit (a few
seconds at the limit on the build machine: 2.5–3 s)."""

type State = tuple[int, ...]
"""Wounds lost by each group of models: (Bodyguard, Leader) for an Attached unit."""
type Vector = dict[State, Fraction]


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
    """The exact joint distribution of wounds lost by the two parts of the unit, and views."""

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
    """Whether the attacker sends this weapon's wounds to the Leader first.

    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> w = Weapon("w", parse_dice("1"), 3, 4, 0, parse_dice("1"), parse_abilities("precision"))
    >>> has_precision(w), has_precision(w, CHOICES.replace(readings={"precision": "ignored"}))
    (True, False)
    """
    return "precision" in weapon.abilities.other and choices.readings.precision == "character-first"


# -- one wound --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Groups:
    bodyguard_total: int
    bodyguard_wounds: int
    leader_total: int
    leader_wounds: int

    def target_group(self, state: State, precision: bool) -> int | None:
        """0 (Bodyguard), 1 (Leader) or None when nothing is left."""
        b_alive = state[0] < self.bodyguard_total
        l_alive = state[1] < self.leader_total
        if precision and l_alive:
            return 1
        if b_alive:
            return 0
        return 1 if l_alive else None

    def take(self, state: State, group: int, points: int, spills: bool, precision: bool) -> State:
        """Deal ``points`` to the model in work of ``group``; with ``spills`` the rest goes on
        in allocation order."""
        b, c = state
        g: int | None = group
        while points > 0 and g is not None:
            if g == 0:
                room = self.bodyguard_wounds - b % self.bodyguard_wounds
                hit = min(points, room)
                b += hit
            else:
                room = self.leader_wounds - c % self.leader_wounds
                hit = min(points, room)
                c += hit
            points -= hit
            if not spills:
                break
            g = self.target_group((b, c), precision)
        return (b, c)


type _Move = tuple[tuple[State, Fraction], ...]


def _transition(
    groups: _Groups,
    states: Sequence[State],
    p_unsaved: tuple[Fraction, Fraction],
    damage: tuple[Distribution[int], Distribution[int]],
    spills: bool,
    precision: bool,
) -> dict[State, _Move]:
    """One wound from every state: to which states it moves, with what probability."""
    out: dict[State, _Move] = {}
    for s in states:
        g = groups.target_group(s, precision)
        if g is None:
            out[s] = ((s, Fraction(1)),)
            continue
        acc: dict[State, Fraction] = {}
        p = p_unsaved[g]
        if p != 1:
            acc[s] = 1 - p
        for x, px in damage[g]:
            t = groups.take(s, g, x, spills, precision)
            acc[t] = acc.get(t, Fraction(0)) + p * px
        out[s] = tuple((t, q) for t, q in acc.items() if q)
    return out


def _apply(moves: Mapping[State, _Move], v: Vector) -> Vector:
    out: Vector = {}
    for s, p in v.items():
        for t, q in moves[s]:
            out[t] = out.get(t, Fraction(0)) + p * q
    return out


def _scaled_add(acc: Vector, v: Vector, k: Fraction) -> None:
    for s, p in v.items():
        acc[s] = acc.get(s, Fraction(0)) + p * k


@dataclass(frozen=True, slots=True)
class _IntMoves:
    """A one-wound transition in integer weights over one common denominator."""

    moves: Mapping[State, tuple[tuple[State, int], ...]]
    den: int

    @staticmethod
    def of(moves: Mapping[State, _Move]) -> _IntMoves:
        den = lcm(*(q.denominator for row in moves.values() for _, q in row))
        return _IntMoves(
            {s: tuple((t, q.numerator * (den // q.denominator)) for t, q in row) for s, row in moves.items()},
            den,
        )


def _spread(v: Vector, table: _IntMoves, by_n: Mapping[int, list[tuple[int, Fraction]]]) -> dict[int, Vector]:
    """sum over n of P(n, m) T^n v, for every m, in integers (one division at the end)."""
    d_v = lcm(*(p.denominator for p in v.values()))
    u = {s: p.numerator * (d_v // p.denominator) for s, p in v.items()}
    c_den = lcm(*(p.denominator for pairs in by_n.values() for _, p in pairs))
    top = max(by_n)
    sums: dict[int, dict[State, int]] = {}
    for n in range(top + 1):
        if n in by_n:
            scale = table.den ** (top - n)
            for m, p in by_n[n]:
                f = p.numerator * (c_den // p.denominator) * scale
                acc = sums.setdefault(m, {})
                for s, x in u.items():
                    acc[s] = acc.get(s, 0) + x * f
        if n < top:
            nxt: dict[State, int] = {}
            for s, x in u.items():
                for t, w in table.moves[s]:
                    nxt[t] = nxt.get(t, 0) + x * w
            u = nxt
    total = d_v * table.den**top * c_den
    return {m: {s: Fraction(x, total) for s, x in acc.items() if x} for m, acc in sums.items()}


def _horner(by_m: Mapping[int, Vector], moves: Mapping[State, _Move]) -> Vector:
    """sum over m of Q^m w_m by Horner's scheme."""
    top = max(by_m)
    acc = dict(by_m[top])
    for m in range(top - 1, -1, -1):
        acc = _apply(moves, acc)
        if m in by_m:
            _scaled_add(acc, by_m[m], Fraction(1))
    return acc


# -- per weapon: the joint distribution of normal and devastating wounds ----------------------


@cache
def _weapon_counts(
    per_attack: tuple[tuple[State, Fraction], ...], attacks: Distribution[int]
) -> dict[State, Fraction]:
    """(normal wounds, devastating wounds) of all the weapon's attacks: the per-attack
    polynomial raised to each possible number of attacks and mixed, in integer weights (one
    common denominator) so the powers cost no fraction reductions."""
    den = lcm(*(p.denominator for _, p in per_attack))
    step = [(n, m, p.numerator * (den // p.denominator)) for (n, m), p in per_attack]
    a_den = lcm(*(p.denominator for _, p in attacks))
    a_w = {a: p.numerator * (a_den // p.denominator) for a, p in attacks}
    top = max(a_w)
    acc: dict[State, int] = {(0, 0): 1}
    out: dict[State, int] = {}
    for k in range(top + 1):
        if k in a_w:
            scale = a_w[k] * den ** (top - k)
            for key, w in acc.items():
                out[key] = out.get(key, 0) + w * scale
        if k < top:
            nxt: dict[State, int] = {}
            for (n1, m1), w1 in acc.items():
                for n2, m2, w2 in step:
                    key = (n1 + n2, m1 + m2)
                    nxt[key] = nxt.get(key, 0) + w1 * w2
            acc = nxt
    total = a_den * den**top
    return {key: Fraction(w, total) for key, w in out.items() if w}


def joint_wounds_bound(
    weapons: Sequence[Weapon],
    bodyguard: Target,
    leader: LeaderProfile,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
) -> int:
    """The most wounds one weapon that can score Devastating Wounds may produce (0 when none
    can): its normal and devastating wounds are tracked jointly, whose cost grows with the cube
    of this number, so the calculator refuses more than :data:`JOINT_WOUNDS_LIMIT`.

    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> w = Weapon("w", parse_dice("20"), 3, 4, 0, parse_dice("1"), parse_abilities("sustained-hits-2,devastating-wounds"))
    >>> joint_wounds_bound([w], Target(4, 3, 1, models=5), LeaderProfile(1, 4, 3))
    60
    """
    unsaved = _unsaved_target(bodyguard, leader)
    bound = 0
    for step in plan(weapons, unsaved, situation, choices):
        if any(m for _, o in step.mix for (_, m) in o.packets):
            per_attack = max(n + m for _, o in step.mix for n, m in o.packets)
            bound = max(bound, per_attack * step.attacks.outcomes()[-1])
    return bound


def _unsaved_target(bodyguard: Target, leader: LeaderProfile) -> Target:
    """The Bodyguard's Toughness, no save (saves are rolled per model), every model for Blast."""
    models = bodyguard.models + leader.models
    return replace(bodyguard, save=7, invuln=None, cover=False, fnp=None, fnp_mortal=None, models=models)


@implements(
    "wh40k.core.attached-units",
    "wh40k.attack.precision",
    "wh40k.attack.allocation",
    "wh40k.attack.saving-throw",
    "wh40k.attack.devastating-wounds",
)
def resolve_attached(
    weapons: Sequence[Weapon],
    bodyguard: Target,
    leader: LeaderProfile,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
) -> AttachedResult:
    """Resolve the weapons in order against an Attached unit; the exact joint distribution of
    wounds lost by the Bodyguard and by the Leader.

    With ``leader.models == 0`` it is an ordinary unit and agrees with :func:`~rulesbook.systems.wh40k.attack.engine.resolve`.

    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> sniper = Weapon("sniper", parse_dice("1"), 2, 4, -2, parse_dice("3"), parse_abilities("precision"))
    >>> r = resolve_attached([sniper], Target(4, 3, 1, models=5), LeaderProfile(1, 3, 3))
    >>> r.p_leader_destroyed   # hits 5/6, wounds 1/2, the Leader's 3+ at AP-2 fails 2/3
    Fraction(5, 18)
    """
    r = choices.readings
    groups = _Groups(
        bodyguard.total_wounds, bodyguard.wounds, leader.models * leader.wounds, max(1, leader.wounds)
    )
    # Hit and Wound rolls with the Bodyguard's Toughness and no save; Blast counts every model.
    unsaved_target = _unsaved_target(bodyguard, leader)
    leader_target = replace(
        bodyguard, save=leader.save, invuln=leader.invuln, fnp=leader.fnp, fnp_mortal=leader.fnp_mortal
    )
    states = [(b, c) for b in range(groups.bodyguard_total + 1) for c in range(groups.leader_total + 1)]
    start: Vector = {(0, 0): Fraction(1)}
    # pending devastating counts (one entry per weapon with Devastating Wounds) -> vector
    state: dict[tuple[int, ...], Vector] = {(): start}
    pending: list[dict[State, _Move]] = []
    for step in plan(weapons, unsaved_target, situation, choices):
        weapon = step.weapon
        precision = has_precision(weapon, choices)
        saves = [save_test(weapon, t, situation, choices) for t in (bodyguard, leader_target)]
        p_unsaved = tuple(Fraction(1) - s.p_pass() if s is not None else Fraction(1) for s in saves)
        terms = [packet_terms(t, choices) for t in (bodyguard, leader_target)]
        dmg = tuple(packet_damage(weapon.damage, *normal, least) for normal, _, least in terms)
        normal = _transition(
            groups,
            states,
            (p_unsaved[0], p_unsaved[1]),
            (dmg[0], dmg[1]),
            r.allocation == "excess-spills",
            precision,
        )
        dev_dmg = tuple(packet_damage(weapon.damage, *dev, least) for _, dev, least in terms)
        dev = _transition(
            groups,
            states,
            (Fraction(1), Fraction(1)),
            (dev_dmg[0], dev_dmg[1]),
            r.devastating_excess == "spills",
            precision,
        )
        keep = any(m for _, o in step.mix for (_, m) in o.packets)
        counts: dict[State, Fraction] = {}
        for p_mix, outcome in step.mix:
            per_attack = tuple(sorted(outcome.packets.items()))
            for nm, p in _weapon_counts(per_attack, step.attacks).items():
                counts[nm] = counts.get(nm, Fraction(0)) + p_mix * p
        by_n: dict[int, list[tuple[int, Fraction]]] = {}
        for (n, m), p in counts.items():
            by_n.setdefault(n, []).append((m, p))
        table = _IntMoves.of(normal)
        new_state: dict[tuple[int, ...], Vector] = {}
        for key, v in state.items():
            for m, vec in _spread(v, table, by_n).items():
                _scaled_add(new_state.setdefault((*key, m) if keep else key, {}), vec, Fraction(1))
        state = new_state
        if keep:
            pending.append(dev)
    for dev in pending:  # Devastating Wounds after all normal damage, first weapon first
        grouped: dict[tuple[int, ...], dict[int, Vector]] = {}
        for key, v in state.items():
            grouped.setdefault(key[1:], {})[key[0]] = v
        state = {rest: _horner(by_m, dev) for rest, by_m in grouped.items()}
    final = state[()]
    return AttachedResult(bodyguard, leader, Distribution.from_pairs((s, p) for s, p in final.items() if p))


# -- any number of groups: units whose models differ ----------------------------------------------


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


def _moves_n(
    order: _Order,
    states: Sequence[State],
    p_unsaved: Sequence[Fraction],
    damage: Sequence[Distribution[int]],
    spills: bool,
    precision: bool,
) -> dict[State, _Move]:
    out: dict[State, _Move] = {}
    for s in states:
        g = order.target_group(s, precision)
        if g is None:
            out[s] = ((s, Fraction(1)),)
            continue
        acc: dict[State, Fraction] = {}
        p = p_unsaved[g]
        if p != 1:
            acc[s] = 1 - p
        for x, px in damage[g]:
            t = order.take(s, g, x, spills, precision)
            acc[t] = acc.get(t, Fraction(0)) + p * px
        out[s] = tuple((t, q) for t, q in acc.items() if q)
    return out


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
    Precision weapon goes for them), exactly.

    ``unit`` gives what the whole unit shares: the Toughness of every Wound roll, its keywords,
    cover, Stealth and Damage reduction (its save, Wounds and models are the groups'). Each
    group saves with its own Save and invulnerable save and ignores damage with its own Feel No
    Pain. With one group it is :func:`~rulesbook.systems.wh40k.attack.engine.resolve`; with a Bodyguard and a CHARACTER
    Leader it is :func:`resolve_attached`.

    >>> gun = Weapon("bolter", parse_dice("2"), 3, 4, 0, parse_dice("1"))
    >>> boyz = [ModelGroup("Boyz", 2, 1, 5), ModelGroup("Nob", 1, 2, 4)]
    >>> r = resolve_groups([gun], Target(5, 5, 1, models=3), boyz)
    >>> r.models_destroyed.pmf()[2]   # both shots kill a Boy: (2/3 x 1/3 x 2/3)^2
    Fraction(16, 729)
    """
    r = choices.readings
    order = _Order(groups)
    group_targets = [g.target(unit) for g in groups]
    total_models = sum(g.models for g in groups)
    unsaved_target = replace(unit, save=7, invuln=None, fnp=None, fnp_mortal=None, models=total_models)
    start: State = tuple(0 for _ in groups)
    state: dict[tuple[int, ...], Vector] = {(): {start: Fraction(1)}}
    pending: list[tuple[list[Distribution[int]], bool, bool]] = []
    for step in plan(weapons, unsaved_target, situation, choices):
        weapon = step.weapon
        precision = has_precision(weapon, choices) and any(g.character for g in groups)
        saves = [save_test(weapon, t, situation, choices) for t in group_targets]
        p_unsaved = [Fraction(1) - s.p_pass() if s is not None else Fraction(1) for s in saves]
        terms = [packet_terms(t, choices) for t in group_targets]
        dmg = [packet_damage(weapon.damage, *normal, least) for normal, _, least in terms]
        dev_dmg = [packet_damage(weapon.damage, *dev, least) for _, dev, least in terms]
        spills = r.allocation == "excess-spills"
        dev_spills = r.devastating_excess == "spills"
        keep = any(m for _, o in step.mix for (_, m) in o.packets)
        counts: dict[tuple[int, int], Fraction] = {}
        for p_mix, outcome in step.mix:
            per_attack = tuple(sorted(outcome.packets.items()))
            for nm, p in _weapon_counts(per_attack, step.attacks).items():
                pair = (nm[0], nm[1])
                counts[pair] = counts.get(pair, Fraction(0)) + p_mix * p
        by_n: dict[int, list[tuple[int, Fraction]]] = {}
        for (n, m), p in counts.items():
            by_n.setdefault(n, []).append((m, p))
        reachable = _reachable(order, [s for v in state.values() for s in v], dmg, spills, precision)
        normal = _moves_n(order, reachable, p_unsaved, dmg, spills, precision)
        table = _IntMoves.of(normal)
        new_state: dict[tuple[int, ...], Vector] = {}
        for key, v in state.items():
            for m, vec in _spread(v, table, by_n).items():
                _scaled_add(new_state.setdefault((*key, m) if keep else key, {}), vec, Fraction(1))
        state = new_state
        if keep:
            pending.append((dev_dmg, dev_spills, precision))
    for dev_dmg, dev_spills, precision in pending:  # Devastating Wounds after all normal damage
        grouped: dict[tuple[int, ...], dict[int, Vector]] = {}
        for key, v in state.items():
            grouped.setdefault(key[1:], {})[key[0]] = v
        seen = [s for by_m in grouped.values() for v in by_m.values() for s in v]
        reachable = _reachable(order, seen, dev_dmg, dev_spills, precision)
        dev = _moves_n(order, reachable, [Fraction(1)] * len(groups), dev_dmg, dev_spills, precision)
        state = {rest: _horner(by_m, dev) for rest, by_m in grouped.items()}
    final = state[()]
    return GroupsResult(tuple(groups), Distribution.from_pairs((s, p) for s, p in final.items() if p))


def _reachable(
    order: _Order,
    seeds: Sequence[State],
    damage: Sequence[Distribution[int]],
    spills: bool,
    precision: bool,
) -> list[State]:
    """Every state the given ones can reach by wounds of these damages (all the transitions of a
    weapon stay inside it)."""
    seen = set(seeds)
    todo = list(seen)
    while todo:
        s = todo.pop()
        g = order.target_group(s, precision)
        if g is None:
            continue
        for x, _ in damage[g]:
            t = order.take(s, g, x, spills, precision)
            if t not in seen:
                seen.add(t)
                todo.append(t)
        if len(seen) > MAX_GROUP_STATES * 4:
            break
    return sorted(seen)
