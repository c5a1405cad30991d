"""Warhammer 40,000 (10th edition) rolls as typed, exact code.

Every roll "D6 against a target" (Hit roll, Wound roll, saving throw, Feel No Pain, Battle-shock)
is a :class:`rulesbook.dice.RollTest`; dice expressions are :class:`rulesbook.dice.DiceExpr`.
Each roll takes the weapon and target profiles (:mod:`~rulesbook.systems.wh40k.attack.weapons`), the attacker's
:class:`Situation` and the rule choices (:mod:`.choices`: the numbers the rules fix and the
readings of the interpretations register). :func:`~rulesbook.systems.wh40k.attack.outcome.attack_outcome` puts the rolls of one attack
together; the allocation engine (:mod:`~rulesbook.systems.wh40k.attack.engine`) resolves whole weapons.

Example:
    A BS 3+ gun with a +2 modifier (capped at +1) against a T4 Sv 3+ model:

    >>> gun = Weapon("gun", parse_dice("1"), 3, 4, -1, parse_dice("1"))
    >>> hit_test(gun, Target(4, 3, 1), Situation(hit_modifier=2)).p_pass()
    Fraction(5, 6)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from math import comb, gcd
from pathlib import Path

from rulesbook.dice import D6, DiceExpr, Outcome, Reroll, RollTest, natural, parse_dice  # noqa: F401 (examples)
from rulesbook.language.files import load_mechanics
from rulesbook.registry import implements
from rulesbook.results import Distribution
from rulesbook.systems.wh40k.attack.weapons import FeelNoPain, Target, Weapon, parse_abilities  # noqa: F401 (examples)
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices, Wh40kReadings

__all__ = [
    "DEFAULT_SITUATION",
    "MECHANICS",
    "Situation",
    "attacks_distribution",
    "battle_shock_test",
    "blast_bonus",
    "cover_applies",
    "deadly_demise_test",
    "desperate_escape_test",
    "failures",
    "hazardous_test",
    "hit_test",
    "packet_damage",
    "packet_weights",
    "save_test",
    "torrent_auto_hits",
    "wound_target",
    "wound_test",
]

MECHANICS = load_mechanics(Path(__file__).parents[1] / "mechanics.yaml", "wh40k", CHOICES, schema=False)
"""The Battle-shock test as ``mechanics.yaml`` declares it (its schema is checked by the tests)."""


@dataclass(frozen=True, slots=True)
class Situation:
    """The attacker's situation: modifiers, re-rolls, movement, Fire Overwatch and lowered
    critical thresholds (the target's cover and Stealth are part of :class:`Target`)."""

    hit_modifier: int = 0
    wound_modifier: int = 0
    save_modifier: int = 0
    reroll_hits: Reroll = "none"
    reroll_wounds: Reroll = "none"
    remained_stationary: bool = True
    overwatch: bool = False
    critical_hit: int = 6
    critical_wound: int = 6
    critical_wound_ap: int = 0
    """Further AP improvement for an attack that scores a Critical Wound (Ferric Blight near an
    Infected objective: 2 instead of 1, so 1 more)."""
    half_range: bool = False
    """The target is within half the weapon's range (Rapid Fire, Melta)."""
    charged: bool = False
    """The attacking unit made a Charge move this turn (Lance)."""
    target_visible: bool = True
    """Some model of the target is visible to the attacking unit (else Indirect Fire's −1)."""
    armour_save_modifier: int = 0
    """A modifier of the armour saving throw alone, never of an invulnerable one (a worse Save
    characteristic read as a roll modifier: reading sickness-modifier-caps = roll-modifier)."""


DEFAULT_SITUATION = Situation()
"""No modifier, no re-roll, stationary, not Fire Overwatch, critical on 6s."""


# -- the rolls --------------------------------------------------------------------------------


@implements("wh40k.attack.blast")
def blast_bonus(models: int, choices: Wh40kChoices = CHOICES) -> int:
    """Extra attacks of a Blast weapon: one per five models in the target (rounded down; the
    five is ``parameters.blast_models_per_attack``).

    >>> blast_bonus(4), blast_bonus(5), blast_bonus(11)
    (0, 1, 2)
    >>> blast_bonus(11, CHOICES.replace(parameters={"blast_models_per_attack": 3}))
    3
    """
    return models // choices.parameters.blast_models_per_attack


@implements(
    "wh40k.attack.hit-roll",
    "wh40k.attack.heavy",
    "wh40k.attack.stealth",
    "wh40k.attack.fire-overwatch",
    "wh40k.core.rerolls",
)
def hit_test(
    weapon: Weapon, target: Target, situation: Situation = Situation(), choices: Wh40kChoices = CHOICES
) -> RollTest:
    """The Hit roll of one attack as a roll test (Torrent weapons make none: see
    :func:`~rulesbook.systems.wh40k.attack.outcome.attack_outcome`).

    D6 >= BS/WS; an unmodified 6 (or the lowered critical threshold) is a Critical Hit and
    always hits; an unmodified 1 fails; Heavy (+1 if stationary), Stealth (-1 against ranged)
    and other modifiers add up and are capped at +-1. Fire Overwatch: only unmodified 6s hit.

    >>> w = Weapon("gun", parse_dice("1"), 3, 4, 0, parse_dice("1"), parse_abilities("heavy"))
    >>> hit_test(w, Target(4, 3, 1), Situation(hit_modifier=1)).effective_modifier  # +2 -> +1
    1
    >>> hit_test(w, Target(4, 3, 1), Situation(overwatch=True)).p_pass()
    Fraction(1, 6)
    """
    p = choices.parameters
    overwatch_sixes = situation.overwatch and choices.readings.overwatch_criticals == "sixes-only"
    crit = min(situation.critical_hit, p.critical_roll)
    crit = (
        p.overwatch_hit_roll
        if overwatch_sixes
        else _own_critical(crit, weapon.abilities.critical_hit, choices)
    )
    criticals = natural(*range(crit, 7))
    if situation.overwatch and weapon.ranged:
        return RollTest(
            dice=D6,
            target=7,
            direction="over",
            auto_fail=natural(1),
            critical=criticals,
            reroll=situation.reroll_hits,
        )
    modifier = situation.hit_modifier
    if weapon.abilities.heavy and situation.remained_stationary:
        modifier += p.heavy_hit_bonus
    if target.stealth and weapon.ranged:
        modifier -= p.stealth_hit_penalty
    return RollTest(
        dice=D6,
        target=weapon.skill,
        direction="over",
        modifier=modifier,
        modifier_cap=p.hit_modifier_cap,
        auto_fail=natural(1),
        critical=criticals,
        reroll=situation.reroll_hits,
    )


def _own_critical(crit: int, own: int | None, choices: Wh40kChoices) -> int:
    """The Critical threshold with a weapon's ``crit-hit-N`` / ``crit-wound-N`` (register entry
    crit-threshold-words: the lowest counts, or each lowering adds up, never below 2+).

    >>> _own_critical(5, 5, CHOICES), _own_critical(6, None, CHOICES)
    (5, 6)
    >>> _own_critical(5, 5, CHOICES.replace(readings={"crit_threshold_words": "cumulative"}))
    4
    """
    if own is None:
        return crit
    if choices.readings.crit_threshold_words == "cumulative":
        return max(2, crit - (choices.parameters.critical_roll - own))
    return min(crit, own)


@implements("wh40k.attack.torrent", "wh40k.attack.fire-overwatch")
def torrent_auto_hits(
    weapon: Weapon, situation: Situation = Situation(), choices: Wh40kChoices = CHOICES
) -> bool:
    """Whether the weapon's attacks hit without a Hit roll: Torrent, also under Fire Overwatch
    unless the ``sixes-only`` reading of the torrent-overwatch entry is chosen.

    >>> w = Weapon("w", parse_dice("D6"), 3, 4, 0, parse_dice("1"), parse_abilities("torrent"))
    >>> torrent_auto_hits(w, Situation(overwatch=True))
    True
    >>> torrent_auto_hits(w, Situation(overwatch=True), CHOICES.replace(readings={"torrent_overwatch": "sixes-only"}))
    False
    """
    if not weapon.abilities.torrent:
        return False
    sixes_only = choices.readings.torrent_overwatch == "sixes-only"
    return not (situation.overwatch and weapon.ranged and sixes_only)


@implements("wh40k.attack.wound-roll")
def wound_target(strength: int, toughness: int, readings: Wh40kReadings = CHOICES.readings) -> int:
    """The D6 result a Wound roll needs: S >= 2T 2+, S > T 3+, S = T 4+, S < T 5+, S <= T/2 6+.

    >>> [wound_target(s, 4) for s in (8, 5, 4, 3, 2)]
    [2, 3, 4, 5, 6]
    >>> wound_target(9, 4, CHOICES.replace(readings={"wound_table": "flat-4"}).readings)
    4
    """
    if readings.wound_table == "flat-4":
        return 4
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


@implements("wh40k.attack.wound-roll", "wh40k.attack.anti", "wh40k.attack.twin-linked", "wh40k.core.rerolls")
def wound_test(
    weapon: Weapon, target: Target, situation: Situation = Situation(), choices: Wh40kChoices = CHOICES
) -> RollTest:
    """The Wound roll of one hit as a roll test.

    Critical Wound on an unmodified 6, or lower through Anti-KEYWORD N+ against a target with
    that keyword; Twin-linked re-rolls the Wound roll.

    >>> w = Weapon("gun", parse_dice("1"), 3, 4, 0, parse_dice("1"), parse_abilities("anti-infantry-4"))
    >>> wound_test(w, Target(8, 3, 1)).p_critical()   # crits on 4+ wound even at 6+
    Fraction(1, 2)
    """
    crit = min(situation.critical_wound, choices.parameters.critical_roll)
    for keyword, n in weapon.abilities.anti:
        if target.keywords is None or keyword in target.keywords:
            crit = min(crit, n)
    crit = _own_critical(crit, weapon.abilities.critical_wound, choices)
    reroll = situation.reroll_wounds
    if weapon.abilities.twin_linked:
        non_critical = choices.readings.twin_linked == "non-critical"
        reroll = "all" if non_critical else ("failed" if reroll != "all" else reroll)
    return RollTest(
        dice=D6,
        target=wound_target(weapon.strength, target.toughness, choices.readings),
        direction="over",
        modifier=situation.wound_modifier,
        modifier_cap=choices.parameters.wound_modifier_cap,
        auto_fail=natural(1),
        critical=natural(*range(crit, 7)),
        reroll=reroll,
    )


@implements("wh40k.attack.benefit-of-cover", "wh40k.attack.ignores-cover")
def cover_applies(weapon: Weapon, target: Target, choices: Wh40kChoices = CHOICES) -> bool:
    """Whether the Benefit of Cover adds 1 to the armour save against this attack.

    Only against ranged attacks, not with Ignores Cover, and never for Sv 3+ or better
    against AP 0.

    >>> gun = Weapon("gun", parse_dice("1"), 3, 4, 0, parse_dice("1"))
    >>> cover_applies(gun, Target(4, 3, 1, cover=True)), cover_applies(gun, Target(4, 4, 1, cover=True))
    (False, True)
    """
    if not target.cover or not weapon.ranged or weapon.abilities.ignores_cover:
        return False
    return not (target.save <= choices.parameters.cover_denied_save and weapon.ap == 0)


@implements("wh40k.attack.saving-throw", "wh40k.attack.invulnerable-save")
def save_test(
    weapon: Weapon, target: Target, situation: Situation = Situation(), choices: Wh40kChoices = CHOICES
) -> RollTest | None:
    """The saving throw the defender picks (armour or invulnerable, whichever is likelier to
    pass), or ``None`` when no save is possible.

    Armour: D6 + AP (+1 cover, + other modifiers, + those of the armour save alone); the save can
    be improved by at most +1; an unmodified 1 fails. Invulnerable: D6 >= invuln, not changed by
    AP, cover or a modifier of the armour save alone.

    >>> gun = Weapon("gun", parse_dice("1"), 3, 4, -2, parse_dice("1"))
    >>> save_test(gun, Target(4, 3, 1)).p_pass()            # 3+ at AP-2 -> 5+
    Fraction(1, 3)
    >>> save_test(gun, Target(4, 3, 1, invuln=4)).p_pass()  # the 4+ invulnerable is better
    Fraction(1, 2)
    """
    cap = choices.parameters.save_improvement_cap
    other = situation.save_modifier
    armour: RollTest | None = None
    if target.save <= 6:
        mine = other + situation.armour_save_modifier  # (the invulnerable save never sees it)
        cover = choices.parameters.cover_save_bonus if cover_applies(weapon, target, choices) else 0
        if choices.readings.save_cap == "net":
            modifier = min(cap, weapon.ap + cover + mine)
        else:  # the bonuses (cover, a positive modifier) capped, then AP and a penalty
            modifier = weapon.ap + min(cap, cover + max(0, mine)) + min(0, mine)
        armour = RollTest(
            dice=D6, target=target.save, direction="over", modifier=modifier, auto_fail=natural(1)
        )
    invuln = None
    if target.invuln is not None:
        # AP and cover never change it; other modifiers do (published), capped at +1
        applies = choices.readings.invuln_modifiers == "other-modifiers-apply"
        invuln = RollTest(
            dice=D6,
            target=target.invuln,
            direction="over",
            modifier=min(cap, other) if applies else 0,
            auto_fail=natural(1),
        )
    best: RollTest | None = None
    best_p = (0, 1)  # P(pass) as (numerator, denominator), compared without Fractions
    for test in (armour, invuln):
        if test is not None:
            _, passed, critical, den = test.counts()
            if (passed + critical) * best_p[1] > best_p[0] * den:
                best, best_p = test, (passed + critical, den)
    return best


@implements("wh40k.attack.damage", "wh40k.attack.feel-no-pain")
def packet_damage(
    damage: DiceExpr, reduction: int = 0, fnp: FeelNoPain = None, minimum: int = 1
) -> Distribution[int]:
    """Wounds one allocated attack takes off a model before the model's remaining wounds cap
    it: the Damage roll, minus the reduction (never below ``minimum``), then a Feel No Pain
    roll for each point (several: the point is ignored if any succeeds).

    >>> packet_damage(parse_dice("2"), fnp=5).pmf()   # each of 2 points ignored on 5+
    {0: Fraction(1, 9), 1: Fraction(4, 9), 2: Fraction(4, 9)}
    >>> packet_damage(parse_dice("D3"), reduction=1).pmf()
    {1: Fraction(2, 3), 2: Fraction(1, 3)}
    """
    return _packet_distribution(damage, reduction, fnp, minimum)


@cache
def _packet_distribution(
    damage: DiceExpr, reduction: int, fnp: FeelNoPain, minimum: int
) -> Distribution[int]:
    weights, den = packet_weights(damage, reduction, fnp, minimum)
    return Distribution.from_weights(weights, den)


@cache
def packet_weights(
    damage: DiceExpr, reduction: int = 0, fnp: FeelNoPain = None, minimum: int = 1
) -> tuple[tuple[tuple[int, int], ...], int]:
    """:func:`packet_damage` as integer weights ``((wounds, weight), ...)`` over one
    denominator, in lowest terms, sorted, zero weights left out.

    Direct arithmetic over the few damage values (no dice objects): each reduced value ``n``
    loses ``k`` points with the binomial weight C(n, k) f^k (d - f)^(n - k) over d^n, where
    f of d is the chance a point is not ignored (the Feel No Pain roll fails).

    >>> packet_weights(parse_dice("2"), fnp=5)
    (((0, 1), (1, 4), (2, 4)), 9)
    """
    rolls, roll_den = damage.weights()
    reduced: dict[int, int] = {}
    for d, w in enumerate(rolls, damage.minimum):
        n = max(min(minimum, d), d - reduction)
        reduced[n] = reduced.get(n, 0) + w
    if fnp is None:
        out, den = reduced, roll_den
    else:  # a point is lost when every Feel No Pain roll made for it fails
        fail, d = 1, 1
        for x in (fnp,) if isinstance(fnp, int) else fnp:
            fails, _, _, sides = _FEEL_NO_PAIN.get(x) or _feel_no_pain_roll(x).counts()
            fail, d = fail * fails, d * sides
        keep = d - fail
        top = max(reduced)
        den = roll_den * d**top
        out = {}
        for n, w in reduced.items():
            scale = w * d ** (top - n)
            for k in range(n + 1):
                out[k] = out.get(k, 0) + scale * comb(n, k) * fail**k * keep ** (n - k)
    g = den
    for w in out.values():
        g = gcd(g, w)
    return tuple((k, w // g) for k, w in sorted(out.items()) if w), den // g


def _feel_no_pain_roll(x: int) -> RollTest:
    """The Feel No Pain roll against one point of damage: one D6 at ``x``+."""
    return RollTest(dice=D6, target=x, direction="over")


_FEEL_NO_PAIN = {x: _feel_no_pain_roll(x).counts() for x in range(2, 7)}
"""The counts of every Feel No Pain X+ a datasheet prints, counted once at import by the roll
test's own routine (a value: the same for every call)."""


@implements("wh40k.core.battle-shock")
def battle_shock_test(
    leadership: int, modifier: int = 0, choices: Wh40kChoices = CHOICES, *, reroll: bool = False
) -> RollTest:
    """The Battle-shock test: 2D6 (``parameters.battle_shock_dice``) + modifier >= Leadership
    (plus ``parameters.battle_shock_margin``, 0 by the rule) passes; ``reroll`` rolls a failed
    test again, as ``mechanics.yaml`` declares it (so an entry a variant adds to it reaches every
    calculator that rolls it); the reading ``battle_shock_modifiers`` caps the modifiers' sum.

    >>> battle_shock_test(7).p_pass()
    Fraction(7, 12)
    >>> battle_shock_test(7, choices=CHOICES.replace(parameters={"battle_shock_margin": 1})).p_pass()
    Fraction(5, 12)
    >>> battle_shock_test(7, reroll=True).p_pass()   # 1 - (5/12)**2
    Fraction(119, 144)
    """
    test = MECHANICS.roll("battle-shock", choices, leadership=leadership, modifier=modifier, reroll=reroll)
    return replace(test, modifier_cap=1) if choices.readings.battle_shock_modifiers == "capped" else test


@implements("wh40k.core.desperate-escape")
def desperate_escape_test(choices: Wh40kChoices = CHOICES) -> RollTest:
    """A Desperate Escape test: one D6, a 1 or 2 (``parameters.desperate_escape_fails_up_to``)
    fails and a model is destroyed.

    >>> desperate_escape_test().p_pass()
    Fraction(2, 3)
    """
    return RollTest(dice=D6, target=choices.parameters.desperate_escape_fails_up_to + 1, direction="over")


@implements("wh40k.attack.hazardous")
def hazardous_test(choices: Wh40kChoices = CHOICES) -> RollTest:
    """A Hazardous test: one D6, only a 1 (``parameters.hazardous_fails_up_to``) fails.

    >>> hazardous_test().p_pass()
    Fraction(5, 6)
    """
    return RollTest(dice=D6, target=choices.parameters.hazardous_fails_up_to + 1, direction="over")


@implements("wh40k.core.deadly-demise")
def deadly_demise_test(choices: Wh40kChoices = CHOICES) -> RollTest:
    """The Deadly Demise roll: one D6, the model explodes on a 6 (``parameters.deadly_demise_roll``,
    modelled as the test's pass).

    >>> deadly_demise_test().p_pass()
    Fraction(1, 6)
    """
    return RollTest(dice=D6, target=choices.parameters.deadly_demise_roll, direction="over")


def failures(test: RollTest, n: int) -> Distribution[int]:
    """How many of ``n`` independent tests fail (exact binomial through icepool).

    >>> failures(desperate_escape_test(), 3).p(3)
    Fraction(1, 27)
    """
    return Distribution.from_die(n @ test.fail_die())


@implements("wh40k.attack.attacks", "wh40k.attack.blast")
def attacks_distribution(
    weapon: Weapon, target: Target, choices: Wh40kChoices = CHOICES
) -> Distribution[int]:
    """The number of attacks the weapon makes: its Attacks roll, plus the Blast bonus.

    >>> w = Weapon("w", parse_dice("D3"), 3, 4, 0, parse_dice("1"), parse_abilities("blast"))
    >>> attacks_distribution(w, Target(4, 3, 1, models=10)).pmf()
    {3: Fraction(1, 3), 4: Fraction(1, 3), 5: Fraction(1, 3)}
    """
    bonus = blast_bonus(target.models, choices) if weapon.abilities.blast else 0
    dist = weapon.attacks.distribution()
    return dist if not bonus else Distribution(tuple((a + bonus, p) for a, p in dist.items))
