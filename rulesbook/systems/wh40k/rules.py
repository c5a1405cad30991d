"""Warhammer 40,000 (10th edition) attack sequence as typed, exact code.

Every roll "D6 against a target" (Hit roll, Wound roll, saving throw, Feel No Pain, Battle-shock)
is a :class:`rulesbook.dice.RollTest`; dice expressions are :class:`rulesbook.dice.DiceExpr`.
On top of the per-roll distributions sits one exact pipeline:

1. **Per attack** (:func:`attack_outcome`): the Hit roll, Sustained / Lethal Hits, the Wound
   roll, Devastating Wounds and the saving throw give a small exact distribution over
   ``(normal packets, devastating packets)`` — a *packet* is one unsaved attack (or one
   Devastating Wounds attack) that will deal its Damage to the model it is allocated to.
2. **Per weapon**: the packet counts of every attack are convolved (integer weights), mixed
   over the random Attacks characteristic (Blast included).
3. **Allocation** (:func:`resolve`): a dynamic programme over the wounds the target has lost
   ``L`` (the destroyed models are ``L // W``, the damage on the model being worked on is
   ``L % W``). One packet moves ``L`` by its damage after Feel No Pain, capped at what the
   current model has left (excess damage is lost). Devastating packets of every weapon wait
   until all normal damage of the sequence is resolved, as the rules require.

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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from math import lcm
from typing import Literal

import icepool

from rulesbook.dice import D6, TWO_D6, DiceExpr, Outcome, Reroll, RollTest, natural, parse_dice
from rulesbook.errors import InputError
from rulesbook.registry import implements
from rulesbook.results import Distribution

__all__ = [
    "ABILITY_WORDS",
    "INERT_ABILITIES",
    "Abilities",
    "AttackOutcome",
    "Cost",
    "Options",
    "SequenceResult",
    "Target",
    "Weapon",
    "attack_outcome",
    "battle_shock_test",
    "blast_bonus",
    "cover_applies",
    "deadly_demise_test",
    "desperate_escape_test",
    "failures",
    "hazardous_test",
    "hit_test",
    "joint_packets_bound",
    "packet_damage",
    "parse_abilities",
    "predicted_cost",
    "resolve",
    "save_test",
    "source_rules_only",
    "torrent_auto_hits",
    "wound_target",
    "wound_test",
]

type WoundTable = Literal["published", "flat-4"]
type DevastatingExcess = Literal["lost", "spills"]
type DevastatingModifiers = Literal["apply", "ignore"]
type SaveCap = Literal["net", "improvements"]
type LethalDevastating = Literal["not-critical-wound", "critical-wound"]
type SustainedRoll = Literal["per-critical-hit", "once-per-weapon"]
type TwinLinked = Literal["failed", "non-critical"]
type OverwatchCriticals = Literal["sixes-only", "critical-threshold"]
type Allocation = Literal["excess-lost", "excess-spills"]
type DamageMinimum = Literal["min-1", "min-0"]
type PublishedAbilities = Literal["published", "source-only"]
type TorrentOverwatch = Literal["auto-hit", "sixes-only"]
type InvulnModifiers = Literal["other-modifiers-apply", "armour-only"]

MAX_TOTAL_WOUNDS = 400
"""Upper bound on models × wounds (keeps every answer interactive)."""

MAX_ATTACKS = 200
"""Upper bound on the attacks one weapon can make (after Blast)."""

MAX_DAMAGE = 60
"""Upper bound on the Damage of one attack (the largest roll of the expression)."""

WORK_LIMIT = 2.4e10
"""Most predicted work (see :func:`predicted_cost`) a calculator accepts: about 1.8 s on the
2-core build machine. Anything above fails at once with a one-line error instead of running."""

DIGITS_LIMIT = 4000
"""Most decimal digits the common denominator of an exact answer may have (an exact string of
more than a few thousand digits is no use to anyone; it also stays below Python's default
int-to-str limit of 4300 digits)."""

# -- abilities --------------------------------------------------------------------------------

ABILITY_WORDS: tuple[tuple[str, str], ...] = (
    ("lethal-hits", "lethal-hits"),
    ("sustained-hits-(?:[1-6]|d3|d6)", "sustained-hits-N (N = 1-6, d3 or d6)"),
    ("devastating-wounds", "devastating-wounds"),
    ("blast", "blast"),
    ("torrent", "torrent"),
    ("heavy", "heavy"),
    ("ignores-cover", "ignores-cover"),
    ("twin-linked", "twin-linked"),
    ("anti-[a-z]+(?:-[a-z]+)*-[2-6]", "anti-KEYWORD-N (N = 2-6)"),
    ("pistol", "pistol"),
    ("psychic", "psychic"),
    ("precision", "precision"),
    ("hazardous", "hazardous"),
)
"""The ``abilities`` words: (pattern, shown form). The last four change no number here."""

INERT_ABILITIES = ("pistol", "psychic", "precision", "hazardous")
"""Ability words accepted (so a profile can be typed as printed) that change no number of the
attack calculators: Pistol and Psychic only matter for who may shoot, Precision for which model
an attack is allocated to (a CHARACTER), Hazardous after the attacks (``wh40k.hazardous``)."""

_ANTI_RE = re.compile(r"^anti-(?P<keyword>[a-z]+(?:-[a-z]+)*)-(?P<n>[2-6])$")


@dataclass(frozen=True, slots=True)
class Abilities:
    """Weapon abilities that change the numbers of the attack sequence.

    >>> parse_abilities("lethal-hits,sustained-hits-d3,anti-infantry-4").sustained
    DiceExpr(count=1, sides=3, modifier=0)
    """

    lethal_hits: bool = False
    sustained: DiceExpr | None = None
    devastating_wounds: bool = False
    blast: bool = False
    torrent: bool = False
    heavy: bool = False
    ignores_cover: bool = False
    twin_linked: bool = False
    anti: tuple[tuple[str, int], ...] = ()
    other: tuple[str, ...] = ()


def parse_abilities(words: str | Sequence[str], *, field_name: str = "abilities") -> Abilities:
    """Turn ability words (``lethal-hits``, ``sustained-hits-d3``, ``anti-infantry-4``, …) into
    :class:`Abilities`; an unknown word raises :class:`InputError` naming ``field_name``.

    >>> parse_abilities("blast, devastating-wounds").devastating_wounds
    True
    >>> parse_abilities("lethal-hit")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: abilities: unknown word 'lethal-hit'; allowed: lethal-hits, ...
    """
    items = [w.strip().lower() for w in words.split(",")] if isinstance(words, str) else list(words)
    flags: dict[str, bool] = {}
    sustained: DiceExpr | None = None
    anti: list[tuple[str, int]] = []
    other: list[str] = []
    shown = ", ".join(s for _, s in ABILITY_WORDS)
    for word in (w for w in items if w):
        if not any(re.fullmatch(p, word) for p, _ in ABILITY_WORDS):
            raise InputError(field_name, f"unknown word {word!r}; allowed: {shown}")
        if word.startswith("sustained-hits-"):
            if sustained is not None:
                raise InputError(field_name, "give one sustained-hits-N word")
            sustained = parse_dice(word.removeprefix("sustained-hits-"), field_name=field_name)
        elif (m := _ANTI_RE.match(word)) is not None:
            anti.append((m["keyword"], int(m["n"])))
        elif word in INERT_ABILITIES:
            other.append(word)
        else:
            flags[word.replace("-", "_")] = True
    return Abilities(sustained=sustained, anti=tuple(anti), other=tuple(other), **flags)


# -- profiles ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon profile as printed (``ap`` is 0 or negative, ``skill`` the X of X+)."""

    name: str
    attacks: DiceExpr
    skill: int
    strength: int
    ap: int
    damage: DiceExpr
    abilities: Abilities = field(default_factory=Abilities)
    ranged: bool = True


@dataclass(frozen=True, slots=True)
class Target:
    """The target unit: every model shares one profile (Sv 7 means no armour save)."""

    toughness: int
    save: int
    wounds: int
    models: int = 1
    invuln: int | None = None
    fnp: int | None = None
    cover: bool = False
    stealth: bool = False
    damage_reduction: int = 0
    keywords: tuple[str, ...] | None = None
    """``None``: not stated, so every Anti-X ability given applies."""

    @property
    def total_wounds(self) -> int:
        """Wounds of the whole unit."""
        return self.wounds * self.models


@dataclass(frozen=True, slots=True)
class Options:
    """The attacker's situation and the interpretation choices (defaults = register defaults)."""

    hit_modifier: int = 0
    wound_modifier: int = 0
    save_modifier: int = 0
    reroll_hits: Reroll = "none"
    reroll_wounds: Reroll = "none"
    remained_stationary: bool = True
    overwatch: bool = False
    critical_hit: int = 6
    critical_wound: int = 6
    wound_table: WoundTable = "published"
    devastating_excess: DevastatingExcess = "lost"
    devastating_modifiers: DevastatingModifiers = "apply"
    save_cap: SaveCap = "net"
    lethal_devastating: LethalDevastating = "not-critical-wound"
    sustained_roll: SustainedRoll = "per-critical-hit"
    twin_linked: TwinLinked = "failed"
    overwatch_criticals: OverwatchCriticals = "sixes-only"
    allocation: Allocation = "excess-lost"
    damage_minimum: DamageMinimum = "min-1"
    published_abilities: PublishedAbilities = "published"
    torrent_overwatch: TorrentOverwatch = "auto-hit"
    invuln_modifiers: InvulnModifiers = "other-modifiers-apply"


# -- the rolls --------------------------------------------------------------------------------


@implements("wh40k.attack.blast")
def blast_bonus(models: int) -> int:
    """Extra attacks of a Blast weapon: one per five models in the target (rounded down).

    >>> blast_bonus(4), blast_bonus(5), blast_bonus(11)
    (0, 1, 2)
    """
    return models // 5


@implements(
    "wh40k.attack.hit-roll",
    "wh40k.attack.heavy",
    "wh40k.attack.stealth",
    "wh40k.attack.fire-overwatch",
    "wh40k.core.rerolls",
)
def hit_test(weapon: Weapon, target: Target, options: Options = Options()) -> RollTest:
    """The Hit roll of one attack as a roll test (Torrent weapons make none: see
    :func:`attack_outcome`).

    D6 >= BS/WS; an unmodified 6 (or the lowered critical threshold) is a Critical Hit and
    always hits; an unmodified 1 fails; Heavy (+1 if stationary), Stealth (-1 against ranged)
    and other modifiers add up and are capped at +-1. Fire Overwatch: only unmodified 6s hit.

    >>> w = Weapon("gun", parse_dice("1"), 3, 4, 0, parse_dice("1"), parse_abilities("heavy"))
    >>> hit_test(w, Target(4, 3, 1), Options(hit_modifier=1)).effective_modifier  # +2 -> +1
    1
    >>> hit_test(w, Target(4, 3, 1), Options(overwatch=True)).p_pass()
    Fraction(1, 6)
    """
    crit = 6 if options.overwatch and options.overwatch_criticals == "sixes-only" else options.critical_hit
    criticals = natural(*range(crit, 7))
    if options.overwatch and weapon.ranged:
        return RollTest(
            dice=D6,
            target=7,
            direction="over",
            auto_fail=natural(1),
            critical=criticals,
            reroll=options.reroll_hits,
        )
    modifier = options.hit_modifier
    if weapon.abilities.heavy and options.remained_stationary:
        modifier += 1
    if target.stealth and weapon.ranged:
        modifier -= 1
    return RollTest(
        dice=D6,
        target=weapon.skill,
        direction="over",
        modifier=modifier,
        modifier_cap=1,
        auto_fail=natural(1),
        critical=criticals,
        reroll=options.reroll_hits,
    )


@implements("wh40k.attack.torrent", "wh40k.attack.fire-overwatch")
def torrent_auto_hits(weapon: Weapon, options: Options = Options()) -> bool:
    """Whether the weapon's attacks hit without a Hit roll: Torrent, also under Fire Overwatch
    unless the ``sixes-only`` reading of the torrent-overwatch entry is chosen.

    >>> w = Weapon("w", parse_dice("D6"), 3, 4, 0, parse_dice("1"), parse_abilities("torrent"))
    >>> torrent_auto_hits(w, Options(overwatch=True))
    True
    >>> torrent_auto_hits(w, Options(overwatch=True, torrent_overwatch="sixes-only"))
    False
    """
    if not weapon.abilities.torrent:
        return False
    return not (options.overwatch and weapon.ranged and options.torrent_overwatch == "sixes-only")


@implements("wh40k.attack.wound-roll")
def wound_target(strength: int, toughness: int, table: WoundTable = "published") -> int:
    """The D6 result a Wound roll needs: S >= 2T 2+, S > T 3+, S = T 4+, S < T 5+, S <= T/2 6+.

    >>> [wound_target(s, 4) for s in (8, 5, 4, 3, 2)]
    [2, 3, 4, 5, 6]
    >>> wound_target(9, 4, "flat-4")
    4
    """
    if table == "flat-4":
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
def wound_test(weapon: Weapon, target: Target, options: Options = Options()) -> RollTest:
    """The Wound roll of one hit as a roll test.

    Critical Wound on an unmodified 6, or lower through Anti-KEYWORD N+ against a target with
    that keyword; Twin-linked re-rolls the Wound roll.

    >>> w = Weapon("gun", parse_dice("1"), 3, 4, 0, parse_dice("1"), parse_abilities("anti-infantry-4"))
    >>> wound_test(w, Target(8, 3, 1)).p_critical()   # crits on 4+ wound even at 6+
    Fraction(1, 2)
    """
    crit = options.critical_wound
    for keyword, n in weapon.abilities.anti:
        if target.keywords is None or keyword in target.keywords:
            crit = min(crit, n)
    reroll = options.reroll_wounds
    if weapon.abilities.twin_linked:
        reroll = "all" if options.twin_linked == "non-critical" else ("failed" if reroll != "all" else reroll)
    return RollTest(
        dice=D6,
        target=wound_target(weapon.strength, target.toughness, options.wound_table),
        direction="over",
        modifier=options.wound_modifier,
        modifier_cap=1,
        auto_fail=natural(1),
        critical=natural(*range(crit, 7)),
        reroll=reroll,
    )


@implements("wh40k.attack.benefit-of-cover", "wh40k.attack.ignores-cover")
def cover_applies(weapon: Weapon, target: Target) -> bool:
    """Whether the Benefit of Cover adds 1 to the armour save against this attack.

    Only against ranged attacks, not with Ignores Cover, and never for Sv 3+ or better
    against AP 0.

    >>> gun = Weapon("gun", parse_dice("1"), 3, 4, 0, parse_dice("1"))
    >>> cover_applies(gun, Target(4, 3, 1, cover=True)), cover_applies(gun, Target(4, 4, 1, cover=True))
    (False, True)
    """
    if not target.cover or not weapon.ranged or weapon.abilities.ignores_cover:
        return False
    return not (target.save <= 3 and weapon.ap == 0)


@implements("wh40k.attack.saving-throw", "wh40k.attack.invulnerable-save")
def save_test(weapon: Weapon, target: Target, options: Options = Options()) -> RollTest | None:
    """The saving throw the defender picks (armour or invulnerable, whichever is likelier to
    pass), or ``None`` when no save is possible.

    Armour: D6 + AP (+1 cover, + other modifiers); the save can be improved by at most +1; an
    unmodified 1 fails. Invulnerable: D6 >= invuln, not changed by AP or cover.

    >>> gun = Weapon("gun", parse_dice("1"), 3, 4, -2, parse_dice("1"))
    >>> save_test(gun, Target(4, 3, 1)).p_pass()            # 3+ at AP-2 -> 5+
    Fraction(1, 3)
    >>> save_test(gun, Target(4, 3, 1, invuln=4)).p_pass()  # the 4+ invulnerable is better
    Fraction(1, 2)
    """
    armour: RollTest | None = None
    if target.save <= 6:
        bonus = (1 if cover_applies(weapon, target) else 0) + options.save_modifier
        if options.save_cap == "net":
            modifier = min(1, weapon.ap + bonus)
        else:
            modifier = weapon.ap + min(1, max(0, bonus)) + min(0, options.save_modifier)
        armour = RollTest(
            dice=D6, target=target.save, direction="over", modifier=modifier, auto_fail=natural(1)
        )
    invuln = None
    if target.invuln is not None:
        # AP and cover never change it; other modifiers do (published), capped at +1
        other = min(1, options.save_modifier) if options.invuln_modifiers == "other-modifiers-apply" else 0
        invuln = RollTest(
            dice=D6, target=target.invuln, direction="over", modifier=other, auto_fail=natural(1)
        )
    candidates = [t for t in (armour, invuln) if t is not None and t.p_pass() > 0]
    if not candidates:
        return None
    return max(candidates, key=lambda t: t.p_pass())


@implements("wh40k.attack.damage", "wh40k.attack.feel-no-pain")
def packet_damage(
    damage: DiceExpr, reduction: int = 0, fnp: int | None = None, minimum: int = 1
) -> Distribution[int]:
    """Wounds one allocated attack takes off a model before the model's remaining wounds cap
    it: the Damage roll, minus the reduction (never below ``minimum``), then a Feel No Pain
    roll for each point.

    >>> packet_damage(parse_dice("2"), fnp=5).pmf()   # each of 2 points ignored on 5+
    {0: Fraction(1, 9), 1: Fraction(4, 9), 2: Fraction(4, 9)}
    >>> packet_damage(parse_dice("D3"), reduction=1).pmf()
    {1: Fraction(2, 3), 2: Fraction(1, 3)}
    """
    return Distribution.from_die(_packet_die(damage, reduction, fnp, minimum))


@cache
def _packet_die(damage: DiceExpr, reduction: int, fnp: int | None, minimum: int) -> icepool.Die[int]:
    die = damage.die().map(lambda d: max(min(minimum, d), d - reduction))
    if fnp is None:
        return die
    fnp_pass = RollTest(dice=D6, target=fnp, direction="over").p_pass()
    lose = icepool.Die({0: fnp_pass.numerator, 1: fnp_pass.denominator - fnp_pass.numerator})
    return die @ lose


@implements("wh40k.core.battle-shock")
def battle_shock_test(leadership: int, modifier: int = 0) -> RollTest:
    """The Battle-shock test: 2D6 (+ modifier) >= Leadership passes.

    >>> battle_shock_test(7).p_pass()
    Fraction(7, 12)
    """
    return RollTest(dice=TWO_D6, target=leadership, direction="over", modifier=modifier)


@implements("wh40k.core.desperate-escape")
def desperate_escape_test() -> RollTest:
    """A Desperate Escape test: one D6, a 1 or 2 fails (and a model is destroyed).

    >>> desperate_escape_test().p_pass()
    Fraction(2, 3)
    """
    return RollTest(dice=D6, target=3, direction="over")


@implements("wh40k.attack.hazardous")
def hazardous_test() -> RollTest:
    """A Hazardous test: one D6, only a 1 fails.

    >>> hazardous_test().p_pass()
    Fraction(5, 6)
    """
    return RollTest(dice=D6, target=2, direction="over")


@implements("wh40k.core.deadly-demise")
def deadly_demise_test() -> RollTest:
    """The Deadly Demise roll: one D6, the model explodes on a 6 (modelled as the test's pass).

    >>> deadly_demise_test().p_pass()
    Fraction(1, 6)
    """
    return RollTest(dice=D6, target=6, direction="over")


def failures(test: RollTest, n: int) -> Distribution[int]:
    """How many of ``n`` independent tests fail (exact binomial through icepool).

    >>> failures(desperate_escape_test(), 3).p(3)
    Fraction(1, 27)
    """
    p_fail = 1 - test.p_pass()
    fail = icepool.Die({0: p_fail.denominator - p_fail.numerator, 1: p_fail.numerator})
    return Distribution.from_die(n @ fail)


# -- one attack -------------------------------------------------------------------------------

type Poly = dict[tuple[int, int], Fraction]
"""(normal packets, devastating packets) -> probability."""


def _mul(a: Mapping[tuple[int, int], Fraction], b: Mapping[tuple[int, int], Fraction]) -> Poly:
    out: Poly = {}
    for (n1, m1), p1 in a.items():
        for (n2, m2), p2 in b.items():
            key = (n1 + n2, m1 + m2)
            out[key] = out.get(key, Fraction(0)) + p1 * p2
    return out


def _power(a: Poly, k: int) -> Poly:
    out: Poly = {(0, 0): Fraction(1)}
    for _ in range(k):
        out = _mul(out, a)
    return out


@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """Exact per-attack quantities of one weapon against one target.

    ``packets`` maps (normal packets, devastating packets) to its probability for one attack
    (its Sustained Hits value fixed to ``sustained_value`` when the once-per-weapon reading is
    used); the other fields are the means the explanation view shows.
    """

    weapon: Weapon
    hit: Distribution[Outcome]
    wound: Distribution[Outcome]
    p_save_fails: Fraction
    save: RollTest | None
    packets: Mapping[tuple[int, int], Fraction]
    hits_per_attack: Fraction
    wounds_per_attack: Fraction
    devastating_per_attack: Fraction
    unsaved_per_attack: Fraction


@implements(
    "wh40k.attack.sequence",
    "wh40k.attack.torrent",
    "wh40k.attack.sustained-hits",
    "wh40k.attack.lethal-hits",
    "wh40k.attack.devastating-wounds",
)
def attack_outcome(
    weapon: Weapon, target: Target, options: Options = Options(), sustained_value: int | None = None
) -> AttackOutcome:
    """The exact outcome of one attack: how many packets of damage reach the allocation step.

    A Critical Hit with Sustained Hits X adds X ordinary hits (not critical); with Lethal Hits
    the Critical Hit itself wounds automatically (no Wound roll, so never a Critical Wound) and
    goes on to the saving throw. A Critical Wound with Devastating Wounds skips the save and
    becomes a devastating packet. Torrent weapons hit automatically (no Hit roll, no Critical
    Hit).

    >>> w = Weapon("w", parse_dice("1"), 4, 4, 0, parse_dice("1"), parse_abilities("lethal-hits"))
    >>> out = attack_outcome(w, Target(toughness=4, save=7, wounds=1))
    >>> out.packets[(1, 0)]   # hit on 4-5 then wound on 4+ (1/3 x 1/2) + a 6 (1/6)
    Fraction(1, 3)
    """
    ab = weapon.abilities
    if torrent_auto_hits(weapon, options):
        hit: Distribution[Outcome] = Distribution.certain(Outcome.PASS)
    else:
        hit = hit_test(weapon, target, options).distribution()
    wound = wound_test(weapon, target, options).distribution()
    save = save_test(weapon, target, options)
    s = Fraction(1) - save.p_pass() if save is not None else Fraction(1)
    q_crit = wound.p(Outcome.CRITICAL)
    q_pass = wound.p(Outcome.PASS)
    q_fail = wound.p(Outcome.FAIL)
    if ab.devastating_wounds:
        rolled: Poly = {(0, 0): q_fail + q_pass * (1 - s), (1, 0): q_pass * s, (0, 1): q_crit}
    else:
        rolled = {(0, 0): q_fail + (q_pass + q_crit) * (1 - s), (1, 0): (q_pass + q_crit) * s}
    if ab.devastating_wounds and options.lethal_devastating == "critical-wound":
        auto: Poly = {(0, 1): Fraction(1)}
    else:
        auto = {(0, 0): 1 - s, (1, 0): s}
    rolled = {k: v for k, v in rolled.items() if v}
    auto = {k: v for k, v in auto.items() if v}
    # Sustained Hits: extra ordinary hits on a Critical Hit.
    if ab.sustained is None:
        extra: Poly = {(0, 0): Fraction(1)}
        extra_mean = Fraction(0)
    else:
        values = (
            Distribution.certain(sustained_value)
            if sustained_value is not None
            else ab.sustained.distribution()
        )
        extra = {}
        for x, px in values:
            for k, v in _power(rolled, x).items():
                extra[k] = extra.get(k, Fraction(0)) + px * v
        extra_mean = values.mean()
    crit_first = auto if ab.lethal_hits else rolled
    p_hit_crit = hit.p(Outcome.CRITICAL)
    p_hit = hit.p(Outcome.PASS)
    packets: Poly = {(0, 0): hit.p(Outcome.FAIL)}
    for k, v in rolled.items():
        packets[k] = packets.get(k, Fraction(0)) + p_hit * v
    for k, v in _mul(crit_first, extra).items():
        packets[k] = packets.get(k, Fraction(0)) + p_hit_crit * v
    packets = {k: v for k, v in packets.items() if v}
    # means for the explanation
    wound_rolls = p_hit + p_hit_crit * (extra_mean + (0 if ab.lethal_hits else 1))
    auto_wounds = p_hit_crit if ab.lethal_hits else Fraction(0)
    wounds = wound_rolls * (q_pass + q_crit) + auto_wounds
    dev = wound_rolls * q_crit if ab.devastating_wounds else Fraction(0)
    if ab.devastating_wounds and ab.lethal_hits and options.lethal_devastating == "critical-wound":
        dev += auto_wounds
    unsaved = sum((n * p for (n, _), p in packets.items()), Fraction(0))
    return AttackOutcome(
        weapon=weapon,
        hit=hit,
        wound=wound,
        p_save_fails=s,
        save=save,
        packets=packets,
        hits_per_attack=p_hit + p_hit_crit * (1 + extra_mean),
        wounds_per_attack=wounds,
        devastating_per_attack=dev,
        unsaved_per_attack=unsaved,
    )


# -- integer-weight machinery -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Weights:
    """Integer weights over 0..n-1 with one denominator (exact and fast)."""

    w: tuple[int, ...]
    den: int

    @staticmethod
    def from_fractions(probs: Mapping[int, Fraction], size: int) -> _Weights:
        den = lcm(*(p.denominator for p in probs.values())) if probs else 1
        w = [0] * size
        for k, p in probs.items():
            w[k] += p.numerator * (den // p.denominator)
        return _Weights(tuple(w), den)


@dataclass(frozen=True, slots=True)
class _Packet:
    """One kind of packet as a transition table over wounds lost (integer weights)."""

    moves: tuple[tuple[tuple[int, int], ...], ...]
    den: int

    def apply(self, v: list[int]) -> list[int]:
        out = [0] * len(v)
        for L, a in enumerate(v):
            if a:
                for t, w in self.moves[L]:
                    out[t] += a * w
        return out


@cache
def _packet(dist: Distribution[int], wounds: int, models: int, spills: bool) -> _Packet:
    total = wounds * models
    den = lcm(*(p.denominator for _, p in dist))
    pairs = [(x, p.numerator * (den // p.denominator)) for x, p in dist]
    moves: list[tuple[tuple[int, int], ...]] = []
    for lost in range(total + 1):
        acc: dict[int, int] = {}
        for x, w in pairs:
            if lost == total:
                t = total
            elif spills:
                t = min(total, lost + x)
            else:
                t = lost + min(x, wounds - lost % wounds)
            acc[t] = acc.get(t, 0) + w
        moves.append(tuple(acc.items()))
    return _Packet(tuple(moves), den)


def _counts(
    per_attack: Mapping[tuple[int, int], Fraction], attacks: Distribution[int], merge: bool
) -> tuple[dict[tuple[int, int], int], int]:
    """Packets of all attacks of a weapon: (n, m) -> integer weight, and the denominator.

    With ``merge`` the devastating packets are counted with the normal ones (key (n + m, 0)).
    """
    if merge:
        per_attack = _merge(per_attack)
    den = lcm(*(p.denominator for p in per_attack.values()))
    step = [(n, m, p.numerator * (den // p.denominator)) for (n, m), p in per_attack.items()]
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
            nxt: dict[tuple[int, int], int] = {}
            for (n1, m1), w1 in acc.items():
                for n2, m2, w2 in step:
                    key = (n1 + n2, m1 + m2)
                    nxt[key] = nxt.get(key, 0) + w1 * w2
            acc = nxt
    return out, a_den * den**top


def _merge(packets: Mapping[tuple[int, int], Fraction]) -> dict[tuple[int, int], Fraction]:
    out: dict[tuple[int, int], Fraction] = {}
    for (n, m), p in packets.items():
        out[(n + m, 0)] = out.get((n + m, 0), Fraction(0)) + p
    return out


# -- the sequence -----------------------------------------------------------------------------


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
    is not counted); ``models_destroyed`` is ``wounds_lost // W``.
    """

    target: Target
    wounds_lost: Distribution[int]
    models_destroyed: Distribution[int]
    mean_wounds_lost: Fraction
    mean_models_destroyed: Fraction
    p_unit_destroyed: Fraction
    steps: tuple[WeaponStep, ...]

    @staticmethod
    def from_weights(
        target: Target, weights: Sequence[int], den: int, steps: Sequence[WeaponStep]
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
        )


def _distribution(weights: Sequence[int], den: int) -> Distribution[int]:
    return Distribution(tuple((k, Fraction(w, den)) for k, w in enumerate(weights) if w))


JOINT_LIMIT = 100
"""Most damage packets one weapon may produce when its Devastating Wounds must be tracked apart
from its normal damage (an earlier weapon of a sequence, or an alternative interpretation that
makes mortal wounds behave differently); the exact joint computation grows with its square."""


def _effective(weapons: Sequence[Weapon], options: Options) -> list[Weapon]:
    if options.published_abilities == "source-only":
        return [source_rules_only(w) for w in weapons]
    return list(weapons)


def _packets_for(
    weapon: Weapon, target: Target, options: Options
) -> tuple[Distribution[int], _Packet, Distribution[int], _Packet]:
    """Damage per packet and its transition table, for normal and for devastating packets."""
    minimum = 1 if options.damage_minimum == "min-1" else 0
    dmg = packet_damage(weapon.damage, target.damage_reduction, target.fnp, minimum)
    normal = _packet(dmg, target.wounds, target.models, options.allocation == "excess-spills")
    dev_dmg = (
        dmg
        if options.devastating_modifiers == "apply"
        else packet_damage(weapon.damage, 0, target.fnp, minimum)
    )
    dev = _packet(dev_dmg, target.wounds, target.models, options.devastating_excess == "spills")
    return dmg, normal, dev_dmg, dev


def _kept_apart(weapons: Sequence[Weapon], target: Target, options: Options) -> list[bool]:
    """For each weapon: must its devastating packets be counted apart from its normal ones?

    They can be merged (the fast path) only for the last weapon of a sequence, when no earlier
    weapon left devastating packets pending and both kinds of packet act alike.
    """
    out: list[bool] = []
    pending = False
    for index, weapon in enumerate(weapons):
        has_dev = weapon.abilities.devastating_wounds
        _, normal, _, dev = _packets_for(weapon, target, options)
        merge = has_dev and index == len(weapons) - 1 and not pending and dev == normal
        keep = has_dev and not merge
        pending = pending or keep
        out.append(keep)
    return out


def joint_packets_bound(weapons: Sequence[Weapon], target: Target, options: Options = Options()) -> int:
    """The most packets a weapon whose devastating packets are kept apart can produce (0 when
    none is); calculators refuse more than :data:`JOINT_LIMIT`.

    >>> w = Weapon("w", parse_dice("10"), 3, 4, 0, parse_dice("2"), parse_abilities("devastating-wounds"))
    >>> joint_packets_bound([w], Target(4, 3, 1, models=10))
    0
    >>> joint_packets_bound([w], Target(4, 3, 1, models=10), Options(devastating_excess="spills"))
    10
    >>> joint_packets_bound([w, w], Target(4, 3, 1, models=10))   # the first weapon waits
    10
    """
    weapons = _effective(weapons, options)
    bound = 0
    for weapon, keep in zip(weapons, _kept_apart(weapons, target, options), strict=True):
        if keep:
            per_attack = max(n + m for n, m in attack_outcome(weapon, target, options).packets)
            bound = max(bound, per_attack * _attacks_distribution(weapon, target).outcomes()[-1])
    return bound


@dataclass(frozen=True, slots=True)
class Cost:
    """The predicted cost of :func:`resolve`: ``work`` in units of about 75 ps on the build
    machine (so :data:`WORK_LIMIT` is about 1.8 s), ``digits`` of the answer's common
    denominator, and the work each weapon adds (to name the one to cut)."""

    work: float
    digits: float
    per_weapon: tuple[float, ...]

    @property
    def fits(self) -> bool:
        """Within both :data:`WORK_LIMIT` and :data:`DIGITS_LIMIT`."""
        return self.work <= WORK_LIMIT and self.digits <= DIGITS_LIMIT


_LOG2_10 = 3.321928094887362


def _bits(den: int) -> float:
    return float(den.bit_length())


def predicted_cost(weapons: Sequence[Weapon], target: Target, options: Options = Options()) -> Cost:
    """Predict the work of :func:`resolve` without doing it (a few small per-attack
    distributions only), following its loops.

    The exact pipeline multiplies big integers: their size grows with every packet applied (the
    denominator of the answer), so the allocation costs about packets × wound states ×
    digits^1.5 (Karatsuba), times the pending devastating states of a sequence; the
    convolution of the attacks costs attacks × pairs × outcomes × digits^1.5. Calibrated on
    timings of single weapons (sustained-hits-d6, 2D6 damage, Feel No Pain) up to 80 s, where it
    is within 10 %; for Devastating Wounds kept apart it errs high, by up to 2×.

    >>> bolter = Weapon("w", parse_dice("40"), 3, 5, -1, parse_dice("1"),
    ...                 parse_abilities("sustained-hits-1,devastating-wounds"))
    >>> predicted_cost([bolter], Target(4, 3, 2, models=20, fnp=5)).fits
    True
    >>> hail = Weapon("w", parse_dice("120"), 3, 4, 0, parse_dice("2D6"), parse_abilities("sustained-hits-d6"))
    >>> predicted_cost([hail], Target(4, 7, 10, models=40, fnp=5)).fits
    False
    """
    weapons = _effective(weapons, options)
    size = target.total_wounds + 1
    states = 1
    bits = 0.0
    work = 0.0
    per_weapon: list[float] = []
    pending: list[tuple[int, float, int]] = []  # (max devastating packets, bits per packet, moves)
    for weapon, keep in zip(weapons, _kept_apart(weapons, target, options), strict=True):
        before = work
        _, normal, _, dev = _packets_for(weapon, target, options)
        attacks = _attacks_distribution(weapon, target)
        top = attacks.outcomes()[-1]
        merge = weapon.abilities.devastating_wounds and not keep
        if weapon.abilities.sustained is not None and options.sustained_roll == "once-per-weapon":
            mix = [
                attack_outcome(weapon, target, options, x)
                for x in weapon.abilities.sustained.distribution().outcomes()
            ]
        else:
            mix = [attack_outcome(weapon, target, options)]
        n_max = max(n + m if merge else n for o in mix for n, m in o.packets)
        m_max = max(m for o in mix for _, m in o.packets) if keep else 0
        n_all, m_all = n_max * top, m_max * top
        both = max(n + m for o in mix for n, m in o.packets) * top
        pairs = min((n_all + 1) * (m_all + 1), (both + 1) * (both + 2) // 2)
        step = max(len(o.packets) for o in mix)
        step_bits = _bits(lcm(*(p.denominator for o in mix for p in o.packets.values())))
        count_bits = step_bits * top + _bits(lcm(*(p.denominator for _, p in attacks))) + _bits(len(mix))
        # _counts: one convolution step per attack over the (n, m) pairs reached so far
        work += top * pairs * step * (count_bits / _LOG2_10) ** 1.5 / 3
        bits += count_bits + n_all * _bits(normal.den)
        digits = bits / _LOG2_10
        moves = max(len(row) for row in normal.moves)
        # _apply_counts: per pending state, one packet step per packet, each touching every
        # wound state (big x small), and one big x big product per (n, m) pair
        work += states * size * (pairs * digits**1.5 + (n_all + 1) * moves * digits)
        if keep:
            states *= m_all + 1
            pending.append((m_all, _bits(dev.den), max(len(row) for row in dev.moves)))
        per_weapon.append(work - before)
    for m_all, dev_bits, moves in pending:
        # Horner's scheme over the pending counts of one weapon, every state at once
        bits += m_all * dev_bits
        digits = bits / _LOG2_10
        work += states * size * (digits**1.5 + moves * digits)
        states //= m_all + 1
    return Cost(work=work, digits=bits / _LOG2_10, per_weapon=tuple(per_weapon))


def _attacks_distribution(weapon: Weapon, target: Target) -> Distribution[int]:
    bonus = blast_bonus(target.models) if weapon.abilities.blast else 0
    return weapon.attacks.distribution().map(lambda a: a + bonus)


@implements("wh40k.attack.torrent", "wh40k.attack.twin-linked", "wh40k.attack.anti")
def source_rules_only(weapon: Weapon) -> Weapon:
    """The weapon without the abilities the source page does not define (Torrent,
    Twin-linked, Anti-X): the ``source-only`` option of the published-abilities entry.

    >>> w = Weapon("w", parse_dice("1"), 3, 4, 0, parse_dice("1"), parse_abilities("torrent,lethal-hits"))
    >>> source_rules_only(w).abilities.torrent, source_rules_only(w).abilities.lethal_hits
    (False, True)
    """
    ab = replace(weapon.abilities, torrent=False, twin_linked=False, anti=())
    return replace(weapon, abilities=ab)


@implements(
    "wh40k.attack.sequence", "wh40k.attack.allocation", "wh40k.attack.mortal-wounds", "wh40k.attack.attacks"
)
def resolve(weapons: Sequence[Weapon], target: Target, options: Options = Options()) -> SequenceResult:
    """Resolve the weapons in order against one target and return the exact distribution of
    wounds lost.

    Damage state carries from weapon to weapon; all Devastating Wounds packets are resolved
    after the normal damage of every weapon (first weapon first). Blast counts the models the
    target had when it was selected (before any attack).

    >>> rotwind = Weapon("Rotwind", parse_dice("D6+3"), 2, 7, -2, parse_dice("1"),
    ...                  parse_abilities("blast,devastating-wounds,lethal-hits"))
    >>> r = resolve([rotwind], Target(toughness=4, save=3, wounds=1, models=20))
    >>> r.mean_models_destroyed   # (3.5 + 3 + 4 Blast) attacks x (4/6 x 1/2 + 1/6 x 2/3)
    Fraction(14, 3)
    """
    weapons = _effective(weapons, options)
    total = target.total_wounds
    start = [0] * (total + 1)
    start[0] = 1
    # state: pending devastating counts (one per weapon kept apart so far) -> (vector, den)
    state: dict[tuple[int, ...], tuple[list[int], int]] = {(): (start, 1)}
    pending_packets: list[_Packet] = []
    steps: list[WeaponStep] = []
    for weapon, keep_pending in zip(weapons, _kept_apart(weapons, target, options), strict=True):
        _, normal, _, dev = _packets_for(weapon, target, options)
        attacks = _attacks_distribution(weapon, target)
        merge = weapon.abilities.devastating_wounds and not keep_pending
        if weapon.abilities.sustained is not None and options.sustained_roll == "once-per-weapon":
            mix: list[tuple[Fraction, AttackOutcome]] = [
                (p, attack_outcome(weapon, target, options, x))
                for x, p in weapon.abilities.sustained.distribution()
            ]
        else:
            mix = [(Fraction(1), attack_outcome(weapon, target, options))]
        counts: dict[tuple[int, int], Fraction] = {}
        for p_mix, outcome in mix:
            raw, den = _counts(outcome.packets, attacks, merge)
            for nm, w in raw.items():
                counts[nm] = counts.get(nm, Fraction(0)) + p_mix * Fraction(w, den)
        state = _apply_counts(state, counts, normal, keep_pending)
        if keep_pending:
            pending_packets.append(dev)
        minimum = 1 if options.damage_minimum == "min-1" else 0
        raw_damage = packet_damage(weapon.damage, target.damage_reduction, None, minimum).mean()
        raw_dev = raw_damage if options.devastating_modifiers == "apply" else weapon.damage.die().mean()
        steps.append(_step(weapon, mix, attacks.mean(), raw_damage, Fraction(raw_dev)))
    # Devastating Wounds: after all normal damage, first weapon first.
    for packet in pending_packets:
        collapsed: dict[tuple[int, ...], tuple[list[int], int]] = {}
        grouped: dict[tuple[int, ...], dict[int, tuple[list[int], int]]] = {}
        for pending, vec in state.items():
            grouped.setdefault(pending[1:], {})[pending[0]] = vec
        for rest, by_m in grouped.items():
            collapsed[rest] = _add(collapsed.get(rest), _horner(by_m, packet))
        state = collapsed
    final, final_den = state[()]
    return SequenceResult.from_weights(target, final, final_den, steps)


def _add(a: tuple[list[int], int] | None, b: tuple[list[int], int]) -> tuple[list[int], int]:
    if a is None:
        return b
    (va, da), (vb, db) = a, b
    if da == db:
        return [x + y for x, y in zip(va, vb, strict=True)], da
    d = lcm(da, db)
    fa, fb = d // da, d // db
    return [x * fa + y * fb for x, y in zip(va, vb, strict=True)], d


def _apply_counts(
    state: dict[tuple[int, ...], tuple[list[int], int]],
    counts: Mapping[tuple[int, int], Fraction],
    packet: _Packet,
    keep_pending: bool,
) -> dict[tuple[int, ...], tuple[list[int], int]]:
    """For each state vector v: sum over (n, m) of P(n, m) P^n v, filed under pending + (m,)."""
    c_den = lcm(*(p.denominator for p in counts.values()))
    top = max(n for n, _ in counts)
    by_n: dict[int, list[tuple[int, int]]] = {}
    for (n, m), p in counts.items():
        by_n.setdefault(n, []).append((m if keep_pending else 0, p.numerator * (c_den // p.denominator)))
    out: dict[tuple[int, ...], tuple[list[int], int]] = {}
    for key, (v, den) in state.items():
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
        new_den = den * c_den * packet.den**top
        for m, acc in sums.items():
            new_key = (*key, m) if keep_pending else key
            out[new_key] = _add(out.get(new_key), (acc, new_den))
    return out


def _horner(by_m: Mapping[int, tuple[list[int], int]], packet: _Packet) -> tuple[list[int], int]:
    """sum over m of Q^m v_m, by Horner's scheme (exact)."""
    top = max(by_m)
    w, den = by_m[top]
    for m in range(top - 1, -1, -1):
        w = packet.apply(w)
        den *= packet.den
        if m in by_m:
            w, den = _add((w, den), by_m[m])
    return w, den


def _step(
    weapon: Weapon,
    mix: Sequence[tuple[Fraction, AttackOutcome]],
    attacks: Fraction,
    dmg: Fraction,
    dev_dmg: Fraction,
) -> WeaponStep:
    def mean(attr: str) -> Fraction:
        return sum((p * getattr(o, attr) for p, o in mix), Fraction(0)) * attacks

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
