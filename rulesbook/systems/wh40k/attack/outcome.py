"""One attack's outcome: its Hit roll, Wound roll and saving throws put together, exactly.

The rolls (:mod:`~rulesbook.systems.wh40k.attack.rolls`) are single tests; here they become what
one attack leaves for allocation, counted in integers (each roll test's outcomes as weights over
its own grid of equally likely results, :meth:`~rulesbook.dice.RollTest.counts`):

* :func:`attack_outcome` — against a unit of one profile, the saving throw folded in: how many
  *packets* (unsaved attacks) and devastating packets one attack makes;
* :func:`wound_outcome` — against a unit whose models save differently, before any saving
  throw: how many wounds, how many of them Critical Wounds with a better AP, and how many
  devastating ones; the allocation engine makes each saving throw with the model it reaches.

Both are built by one function from "what a wound does" (:func:`_attack_weights`): Sustained
Hits, Lethal Hits, Devastating Wounds and Torrent are read there once, and the saving throw of a
wound (and of a Critical Wound, whose AP a rule may improve) is :func:`save_counts` in both.

Example:
    >>> from rulesbook.dice import parse_dice
    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> w = Weapon("w", parse_dice("1"), 4, 4, 0, parse_dice("1"), parse_abilities("lethal-hits"))
    >>> attack_outcome(w, Target(toughness=4, save=7, wounds=1)).packets[(1, 0)]
    Fraction(1, 3)
    >>> wound_outcome(w, Target(toughness=4, save=3, wounds=1)).wounds[(1, 0, 0)]
    Fraction(1, 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from math import gcd
from typing import cast

from rulesbook.dice import Outcome, RollTest
from rulesbook.registry import implements
from rulesbook.results import Distribution
from rulesbook.systems.wh40k.attack.rolls import (
    DEFAULT_SITUATION,
    Situation,
    hit_test,
    save_test,
    torrent_auto_hits,
    wound_test,
)
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices

__all__ = ["AttackOutcome", "WoundOutcome", "attack_outcome", "save_counts", "wound_outcome"]

type IntPoly = dict[tuple[int, ...], int]
"""Counts of what an attack makes (packets, or wounds by kind) -> integer weight (over a
denominator kept beside it)."""


def _imul(a: IntPoly, b: IntPoly) -> IntPoly:
    if len(b) == 1:  # a constant (no Sustained Hits: one value, no extra hit)
        ((k2, w2),) = b.items()
        if not any(k2):
            return {k: w * w2 for k, w in a.items()}
    out: IntPoly = {}
    for k1, w1 in a.items():
        for k2, w2 in b.items():
            key = tuple(x + y for x, y in zip(k1, k2, strict=True))
            out[key] = out.get(key, 0) + w1 * w2
    return out


def _iadd(out: IntPoly, poly: IntPoly, scale: int) -> None:
    for k, w in poly.items():
        out[k] = out.get(k, 0) + w * scale


@implements("wh40k.attack.saving-throw", "wh40k.death-guard.stratagem.ferric-blight")
def save_counts(
    weapon: Weapon,
    target: Target,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
    *,
    critical: bool = False,
) -> tuple[int, int, int]:
    """The saving throw against one wound as (saved, failed, denominator) — ``(0, 1, 1)`` when
    no save is possible; ``critical``: the wound of a Critical Wound, whose AP a rule may
    improve further (``situation.critical_wound_ap``: Ferric Blight near an Infected objective).

    >>> from rulesbook.dice import parse_dice
    >>> gun = Weapon("gun", parse_dice("1"), 3, 4, -1, parse_dice("1"))
    >>> save_counts(gun, Target(4, 3, 1)), save_counts(gun, Target(4, 3, 1), Situation(critical_wound_ap=1), critical=True)
    ((3, 3, 6), (2, 4, 6))
    """
    if critical and situation.critical_wound_ap:
        weapon = replace(weapon, ap=weapon.ap - situation.critical_wound_ap)
    save = save_test(weapon, target, situation, choices)
    if save is None:
        return 0, 1, 1
    failed, passed, crit, den = save.counts()
    return passed + crit, failed, den


def _attack_weights(
    weapon: Weapon,
    hit: tuple[int, int, int, int],
    wound: tuple[int, int, int, int],
    normal: IntPoly,
    critical: IntPoly,
    auto: IntPoly,
    wound_den: int,
    sustained: tuple[tuple[int, int], ...],
    sustained_den: int,
    extra_auto: bool = False,
) -> tuple[dict[tuple[int, ...], int], int]:
    """One attack's counts in lowest terms: its Hit roll (``hit``: fail, pass, critical, den),
    each Wound roll (``wound``) and what a wound does — ``normal``, ``critical`` (a Critical
    Wound) and ``auto`` (the automatic wound of Lethal Hits), each an integer polynomial over
    ``wound_den``. A Critical Hit with Sustained Hits X (``sustained``: (X, weight) over
    ``sustained_den``) adds X ordinary hits; with Lethal Hits the Critical Hit wounds
    automatically, and so do its X extra hits when ``extra_auto`` (reading sustained-lethal)."""
    hf, hp, hc, hd = hit
    wf, wp, wc, wd = wound
    zero = (0,) * len(next(iter(normal)))
    rolled: IntPoly = {zero: wf * wound_den}  # one Wound roll and what its wound does
    _iadd(rolled, normal, wp)
    _iadd(rolled, critical, wc)
    rolled_den = wd * wound_den
    top = max(x for x, _ in sustained)
    extra_hit, hit_den = (auto, wound_den) if extra_auto else (rolled, rolled_den)  # one extra hit
    extra: IntPoly = {}
    power: IntPoly = {zero: 1}
    for x in range(top + 1):
        for value, w in sustained:
            if value == x:
                _iadd(extra, power, w * hit_den ** (top - x))
        if x < top:
            power = _imul(power, extra_hit)
    extra_den = sustained_den * hit_den**top
    crit_first, crit_den = (auto, wound_den) if weapon.abilities.lethal_hits else (rolled, rolled_den)
    den = hd * rolled_den * crit_den * extra_den  # every branch over one denominator
    raw: IntPoly = {zero: hf * (den // hd)}
    _iadd(raw, rolled, hp * crit_den * extra_den)
    _iadd(raw, _imul(crit_first, extra), hc * rolled_den)
    g = den
    for w in raw.values():
        g = gcd(g, w)
    return {k: w // g for k, w in raw.items() if w}, den // g


def _sustained(weapon: Weapon, value: int | None) -> tuple[tuple[tuple[int, int], ...], int]:
    """The extra hits of a Critical Hit as (X, weight) over a denominator (none: X = 0)."""
    sustained = weapon.abilities.sustained
    if sustained is None:
        return ((0, 1),), 1
    if value is not None:
        return ((value, 1),), 1
    weights, den = sustained.weights()
    return tuple((sustained.minimum + i, w) for i, w in enumerate(weights)), den


def _extra_auto(weapon: Weapon, choices: Wh40kChoices) -> bool:
    """Whether the extra hits of a Critical Hit wound automatically too: Lethal Hits under the
    ``every-hit`` reading of sustained-lethal."""
    return weapon.abilities.lethal_hits and choices.readings.sustained_lethal == "every-hit"


def _rolls(
    weapon: Weapon, target: Target, situation: Situation, choices: Wh40kChoices
) -> tuple[RollTest | None, RollTest]:
    hit_roll = (
        None
        if torrent_auto_hits(weapon, situation, choices)
        else hit_test(weapon, target, situation, choices)
    )
    return hit_roll, wound_test(weapon, target, situation, choices)


@dataclass(frozen=True, slots=True)
class WoundOutcome:
    """One attack's wounds before any saving throw: integer ``weights`` over ``den`` of
    (wounds saved at the weapon's AP, wounds of Critical Wounds saved at a better AP,
    devastating wounds). The middle count is always 0 unless the situation improves the AP of a
    Critical Wound (``critical_wound_ap``) and the weapon has no Devastating Wounds."""

    weights: Mapping[tuple[int, ...], int]
    den: int

    @property
    def wounds(self) -> dict[tuple[int, ...], Fraction]:
        """(wounds, Critical-Wound wounds, devastating wounds) -> probability."""
        return {k: Fraction(w, self.den) for k, w in self.weights.items()}


_ONE_ATTACK = (
    "wh40k.attack.sequence",
    "wh40k.attack.torrent",
    "wh40k.attack.sustained-hits",
    "wh40k.attack.lethal-hits",
    "wh40k.attack.devastating-wounds",
)
"""The rules one attack's outcome executes, by wound kind (:func:`wound_outcome`) or with the
saving throw folded in (:func:`attack_outcome`)."""


@implements(*_ONE_ATTACK)
def wound_outcome(
    weapon: Weapon,
    target: Target,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
    sustained_value: int | None = None,
) -> WoundOutcome:
    """One attack's wounds by kind, before any saving throw (see :class:`WoundOutcome`): what
    the allocation engine of a unit whose models save differently needs. ``target`` gives the
    Toughness and keywords of the Wound roll.

    >>> from rulesbook.dice import parse_dice
    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> w = Weapon("w", parse_dice("1"), 2, 4, 0, parse_dice("1"), parse_abilities("devastating-wounds"))
    >>> sorted(wound_outcome(w, Target(4, 3, 1)).wounds.items())   # 5/6 hit; 4-5 wound, a 6 is critical
    [((0, 0, 0), Fraction(7, 12)), ((0, 0, 1), Fraction(5, 36)), ((1, 0, 0), Fraction(5, 18))]
    """
    ab = weapon.abilities
    hit_roll, wound_roll = _rolls(weapon, target, situation, choices)
    split = bool(situation.critical_wound_ap) and not ab.devastating_wounds
    normal: IntPoly = {(1, 0, 0): 1}
    critical: IntPoly = {(0, 0, 1): 1} if ab.devastating_wounds else {(0, 1, 0) if split else (1, 0, 0): 1}
    lethal_critical = choices.readings.lethal_devastating == "critical-wound"
    auto: IntPoly = {(0, 0, 1): 1} if ab.devastating_wounds and lethal_critical else normal
    weights, den = _attack_weights(
        weapon,
        (0, 1, 0, 1) if hit_roll is None else hit_roll.counts(),
        wound_roll.counts(),
        normal,
        critical,
        auto,
        1,
        *_sustained(weapon, sustained_value),
        _extra_auto(weapon, choices),
    )
    return WoundOutcome(weights, den)


@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """Exact per-attack quantities of one weapon against one target.

    ``weights`` maps (normal packets, devastating packets) to an integer weight over ``den``
    for one attack (its Sustained Hits value fixed to ``sustained_value`` when the
    once-per-weapon reading is used; in lowest terms, zero weights left out); ``packets`` is
    the same as probabilities. The means the explanation view shows (``hits_per_attack`` …) are
    kept as integers over one denominator and become Fractions when read; the saving throw
    (``save``) is rebuilt when read, from the values it was made with.
    """

    weapon: Weapon
    hit_roll: RollTest | None
    """The Hit roll (``None`` when every attack hits automatically)."""
    wound_roll: RollTest
    hit_counts: tuple[int, int, int, int]
    """(fail, pass, critical, denominator) of the Hit roll (Torrent: a certain pass)."""
    wound_counts: tuple[int, int, int, int]
    save_counts: tuple[int, int, int]
    """(saved, failed, denominator) of the saving throw against one wound (:func:`save_counts`)."""
    weights: Mapping[tuple[int, int], int]
    den: int
    means: tuple[int, int, int, int, int, int]
    """Numerators of hits, wounds and devastating wounds per attack, their two denominators
    (hits; wounds and devastating wounds), and the unsaved attacks over :attr:`den`."""
    target: Target
    situation: Situation
    choices: Wh40kChoices

    @property
    def save(self) -> RollTest | None:
        """The saving throw the defender picks (:func:`~rulesbook.systems.wh40k.attack.rolls.save_test`)."""
        return save_test(self.weapon, self.target, self.situation, self.choices)

    @property
    def p_save_fails(self) -> Fraction:
        """The chance the saving throw against one wound fails."""
        _, failed, den = self.save_counts
        return Fraction(failed, den)

    @property
    def hits_per_attack(self) -> Fraction:
        """Mean hits of one attack (Sustained Hits included)."""
        return Fraction(self.means[0], self.means[3])

    @property
    def wounds_per_attack(self) -> Fraction:
        """Mean wounds of one attack (Lethal Hits' automatic wounds included)."""
        return Fraction(self.means[1], self.means[4])

    @property
    def devastating_per_attack(self) -> Fraction:
        """Mean devastating wounds of one attack."""
        return Fraction(self.means[2], self.means[4])

    @property
    def unsaved_per_attack(self) -> Fraction:
        """Mean packets of normal damage of one attack (the wounds the saving throw lets through)."""
        return Fraction(self.means[5], self.den)

    @property
    def hit(self) -> Distribution[Outcome]:
        """The Hit roll's outcome distribution."""
        return _outcomes(self.hit_counts)

    @property
    def wound(self) -> Distribution[Outcome]:
        """The Wound roll's outcome distribution."""
        return _outcomes(self.wound_counts)

    @property
    def packets(self) -> dict[tuple[int, int], Fraction]:
        """(normal packets, devastating packets) -> probability, for one attack."""
        return {k: Fraction(w, self.den) for k, w in self.weights.items()}


def _outcomes(counts: tuple[int, int, int, int]) -> Distribution[Outcome]:
    *weights, den = counts
    return Distribution.from_weights(((o, w) for o, w in zip(Outcome, weights, strict=True) if w), den)


@implements(*_ONE_ATTACK)
def attack_outcome(
    weapon: Weapon,
    target: Target,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
    sustained_value: int | None = None,
) -> AttackOutcome:
    """The exact outcome of one attack against a unit of one profile: how many packets of
    damage reach the allocation step (the saving throw folded in).

    A Critical Hit with Sustained Hits X adds X ordinary hits (not critical); with Lethal Hits
    the Critical Hit itself wounds automatically (no Wound roll, so never a Critical Wound) and
    goes on to the saving throw. A Critical Wound with Devastating Wounds skips the save and
    becomes a devastating packet. Torrent weapons hit automatically (no Hit roll, no Critical
    Hit). ``tests/wh40k/test_attack_outcome_direct.py`` checks the result against the earlier
    Fraction computation over distributions.

    >>> from rulesbook.dice import parse_dice
    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> w = Weapon("w", parse_dice("1"), 4, 4, 0, parse_dice("1"), parse_abilities("lethal-hits"))
    >>> out = attack_outcome(w, Target(toughness=4, save=7, wounds=1))
    >>> out.packets[(1, 0)]   # hit on 4-5 then wound on 4+ (1/3 x 1/2) + a 6 (1/6)
    Fraction(1, 3)
    """
    ab = weapon.abilities
    lethal_critical = choices.readings.lethal_devastating == "critical-wound"
    hit_roll, wound_roll = _rolls(weapon, target, situation, choices)
    hf, hp, hc, hd = (0, 1, 0, 1) if hit_roll is None else hit_roll.counts()
    wf, wp, wc, wd = wound_roll.counts()
    saving = save_counts(weapon, target, situation, choices)
    s_ok, s_fail, sd = saving
    if situation.critical_wound_ap or choices.overrides:
        c_ok, c_fail, cd = save_counts(weapon, target, situation, choices, critical=True)
    else:  # the Critical Wound's saving throw is the same one (unless a variant's code says)
        c_ok, c_fail, cd = saving
    den = sd * cd // gcd(sd, cd)  # one denominator for both saving throws
    s_ok, s_fail, c_ok, c_fail = (
        x * (den // d) for x, d in ((s_ok, sd), (s_fail, sd), (c_ok, cd), (c_fail, cd))
    )
    normal: IntPoly = {(0, 0): s_ok, (1, 0): s_fail}
    devastating: IntPoly = {(0, 1): den}
    critical: IntPoly = devastating if ab.devastating_wounds else {(0, 0): c_ok, (1, 0): c_fail}
    auto: IntPoly = devastating if ab.devastating_wounds and lethal_critical else normal
    values, x_den = _sustained(weapon, sustained_value)
    hit, wound = (hf, hp, hc, hd), (wf, wp, wc, wd)
    extra_auto = _extra_auto(weapon, choices)
    found, w_den = _attack_weights(weapon, hit, wound, normal, critical, auto, den, values, x_den, extra_auto)
    weights = cast(dict[tuple[int, int], int], found)  # (packets, devastating packets): keys of two
    # means for the explanation, as integers over two denominators (Fractions when read)
    x_sum = sum(x * w for x, w in values)
    # a Critical Hit's Wound rolls: its own and its extra hits', those of its extra hits (Lethal
    # Hits), or none (Lethal Hits, every hit automatic); the rest of its hits wound automatically
    crit_rolls = x_sum + x_den if not ab.lethal_hits else 0 if extra_auto else x_sum
    wr_num = hp * x_den + hc * crit_rolls  # Wound rolls, over hd * x_den
    auto_num = hc * (x_sum + x_den - crit_rolls) * wd  # auto-wounds, over hd * x_den * wd
    dev_num = wr_num * wc if ab.devastating_wounds else 0
    if ab.devastating_wounds and ab.lethal_hits and lethal_critical:
        dev_num += auto_num
    hits_num = hp * x_den + hc * (x_den + x_sum)
    unsaved_num = sum(k[0] * w for k, w in weights.items())
    return AttackOutcome(
        weapon,
        hit_roll,
        wound_roll,
        hit,
        wound,
        saving,
        weights,
        w_den,
        (hits_num, wr_num * (wp + wc) + auto_num, dev_num, hd * x_den, hd * x_den * wd, unsaved_num),
        target,
        situation,
        choices,
    )
