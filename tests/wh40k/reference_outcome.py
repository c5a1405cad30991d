"""An independent oracle for one Warhammer 40,000 attack, written from the rules' text alone.

It imports nothing from ``rulesbook`` (nor icepool): the attack is described by plain numbers
(:class:`Attack`) and every roll is brute force over the faces of a D6 — each first roll, and
the second roll when a re-roll is taken — classified by the rules as the source page and the
interpretations register word them (``rulesbook/systems/wh40k/rules.yaml``):

* **Hit roll** (source "Hit Roll"): D6 >= BS/WS; an unmodified 6 (or the lowered threshold) is
  a Critical Hit and always hits, an unmodified 1 always misses, the modifiers (the situation's,
  +1 Heavy when stationary, -1 Stealth against a ranged attack) are summed and held to -1..+1.
  Fire Overwatch (ranged attacks): only an unmodified 6 hits (register
  ``overwatch-criticals``: or the lowered Critical Hit threshold). Torrent: no Hit roll, so no
  Critical Hit (register ``torrent-overwatch``: under Fire Overwatch too, or it rolls for 6s).
* **Wound roll** (source "Wound Roll", register ``wound-table``): the S-against-T table; an
  unmodified 6 (or Anti-X's X, every Anti applying when the target's keywords are not given) is
  a Critical Wound and always wounds, an unmodified 1 fails, modifiers held to -1..+1.
  Twin-linked re-rolls failures (register ``twin-linked``: or everything but Critical Wounds).
* **Re-rolls** (source "Re-rolls"): a die is re-rolled at most once, before modifiers, and the
  unmodified result is read after the re-roll; ``ones`` re-rolls an unmodified 1, ``failed``
  every roll that fails.
* **Saving throw** (source "Saving Throw", "Benefit of Cover", register ``save-cap`` and
  ``invulnerable-modifiers``): D6 + AP (+1 cover against a ranged attack, not with Ignores
  Cover, never for Sv 3+ or better against AP 0) >= Sv, an unmodified 1 fails, no automatic
  6, an improvement of at most +1; an invulnerable save ignores AP and cover; the defender
  takes whichever save is likelier to pass. Sv 7 is no armour save.
* **Sustained Hits X**: a Critical Hit scores X more ordinary hits (X rolled per Critical Hit;
  register ``sustained-lethal``: with Lethal Hits they wound automatically as the Critical Hit).
  **Lethal Hits**: the Critical Hit itself wounds without a roll (not a Critical Wound, register
  ``lethal-devastating``: or it is one). **Devastating Wounds**: a Critical Wound skips the save
  and becomes a devastating packet.

The outcome of one attack is the distribution of (normal packets, devastating packets) — the
unsaved wounds and the Devastating Wounds that reach the allocation step — plus the means the
explanation shows. Hits are independent, so the outcome of an attack that scores several
hits is the sum (convolution) of one hit's outcome with itself.

Example:
    BS 4+ with Lethal Hits against T4 and no save: a 4 or 5 hits then wounds on 4+
    (2/6 x 1/2), a 6 wounds automatically (1/6):

    >>> out = reference_outcome(Attack(skill=4, strength=4, ap=0, toughness=4, save=7, lethal_hits=True))
    >>> out.packets[(1, 0)]
    Fraction(1, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

SIXTH = Fraction(1, 6)

type Tally = tuple[int, int, int, int]
"""(hits, wounds, normal packets, devastating packets) of one attack."""

type Dist = dict[Tally, Fraction]


@dataclass(frozen=True)
class Attack:
    """One attack, as plain numbers: the weapon, the target, the situation and the readings."""

    skill: int
    strength: int
    ap: int
    toughness: int
    save: int
    invuln: int | None = None
    cover: bool = False
    stealth: bool = False
    ranged: bool = True
    lethal_hits: bool = False
    devastating_wounds: bool = False
    torrent: bool = False
    heavy: bool = False
    twin_linked: bool = False
    ignores_cover: bool = False
    anti: int | None = None
    """The X of an Anti-KEYWORD X+ ability that applies to the target (``None``: none)."""
    sustained: int | str | None = None
    """X of Sustained Hits X: a number, ``"D3"`` or ``"D6"``."""
    hit_modifier: int = 0
    wound_modifier: int = 0
    save_modifier: int = 0
    reroll_hits: str = "none"
    reroll_wounds: str = "none"
    remained_stationary: bool = True
    overwatch: bool = False
    critical_hit: int = 6
    lethal_devastating: str = "not-critical-wound"
    twin_linked_reading: str = "failed"
    overwatch_criticals: str = "sixes-only"
    torrent_overwatch: str = "auto-hit"
    save_cap: str = "net"
    invuln_modifiers: str = "other-modifiers-apply"
    wound_table: str = "published"
    sustained_lethal: str = "critical-hit-only"


@dataclass(frozen=True)
class Reference:
    """What :func:`reference_outcome` finds for one attack."""

    packets: dict[tuple[int, int], Fraction]
    hits_per_attack: Fraction
    wounds_per_attack: Fraction
    devastating_per_attack: Fraction
    unsaved_per_attack: Fraction
    p_save_fails: Fraction


def _clamp(x: int) -> int:
    return max(-1, min(1, x))


def _d6(classify: Callable[[int], str], reroll: Callable[[int, str], bool]) -> dict[str, Fraction]:
    """P(each result) of one D6 read by ``classify``, re-rolled once when ``reroll`` says so."""
    out: dict[str, Fraction] = {}
    for first in range(1, 7):
        if reroll(first, classify(first)):
            for second in range(1, 7):
                r = classify(second)
                out[r] = out.get(r, Fraction(0)) + SIXTH * SIXTH
        else:
            r = classify(first)
            out[r] = out.get(r, Fraction(0)) + SIXTH
    return out


def _policy(name: str) -> Callable[[int, str], bool]:
    if name == "ones":
        return lambda natural, _: natural == 1
    if name == "failed":
        return lambda _, result: result == "fail"
    if name == "none":
        return lambda _n, _r: False
    raise ValueError(name)


def _auto_hits(a: Attack) -> bool:
    if not a.torrent:
        return False
    return not (a.overwatch and a.ranged and a.torrent_overwatch == "sixes-only")


def hit_roll(a: Attack) -> dict[str, Fraction]:
    """P(fail), P(hit), P(critical) of the Hit roll."""
    if a.overwatch and a.ranged:
        lowest = 6 if a.overwatch_criticals == "sixes-only" else min(a.critical_hit, 6)

        def classify(n: int) -> str:
            return "fail" if n == 1 or n < lowest else "critical"
    else:
        modifier = _clamp(
            a.hit_modifier
            + (1 if a.heavy and a.remained_stationary else 0)
            - (1 if a.stealth and a.ranged else 0)
        )
        lowest = min(a.critical_hit, 6)

        def classify(n: int) -> str:
            if n == 1:
                return "fail"
            if n >= lowest:
                return "critical"
            return "hit" if n + modifier >= a.skill else "fail"

    return _d6(classify, _policy(a.reroll_hits))


def wound_needed(a: Attack) -> int:
    """The Wound roll's target from Strength against Toughness."""
    s, t = a.strength, a.toughness
    if a.wound_table == "flat-4":
        return 4
    if s >= 2 * t:
        return 2
    if s > t:
        return 3
    if s == t:
        return 4
    if 2 * s <= t:
        return 6
    return 5


def wound_roll(a: Attack) -> dict[str, Fraction]:
    """P(fail), P(wound), P(critical) of the Wound roll."""
    needed = wound_needed(a)
    modifier = _clamp(a.wound_modifier)
    lowest = min(6, a.anti) if a.anti is not None else 6

    def classify(n: int) -> str:
        if n == 1:
            return "fail"
        if n >= lowest:
            return "critical"
        return "wound" if n + modifier >= needed else "fail"

    own = _policy(a.reroll_wounds)
    if not a.twin_linked:
        return _d6(classify, own)
    if a.twin_linked_reading == "non-critical":
        return _d6(classify, lambda _, result: result != "critical")
    return _d6(classify, lambda n, result: own(n, result) or result == "fail")


def p_save_fails(a: Attack) -> Fraction:
    """P(the saving throw the defender picks fails); 1 when no save can be made."""
    passes: list[Fraction] = []
    if a.save <= 6:
        cover = 1 if a.cover and a.ranged and not a.ignores_cover and not (a.save <= 3 and a.ap == 0) else 0
        if a.save_cap == "net":
            modifier = min(1, a.ap + cover + a.save_modifier)
        else:  # bonuses (cover, a positive modifier) capped at +1; then AP and penalties
            modifier = a.ap + min(1, cover + max(0, a.save_modifier)) + min(0, a.save_modifier)
        passes.append(sum((SIXTH for n in range(2, 7) if n + modifier >= a.save), Fraction(0)))
    if a.invuln is not None:
        modifier = min(1, a.save_modifier) if a.invuln_modifiers == "other-modifiers-apply" else 0
        passes.append(sum((SIXTH for n in range(2, 7) if n + modifier >= a.invuln), Fraction(0)))
    return 1 - max(passes, default=Fraction(0))


def _add(a: Mapping[Tally, Fraction], b: Mapping[Tally, Fraction]) -> Dist:
    out: Dist = {}
    for ta, pa in a.items():
        for tb, pb in b.items():
            t = (ta[0] + tb[0], ta[1] + tb[1], ta[2] + tb[2], ta[3] + tb[3])
            out[t] = out.get(t, Fraction(0)) + pa * pb
    return out


def _mix(into: Dist, dist: Mapping[Tally, Fraction], weight: Fraction) -> None:
    for t, p in dist.items():
        into[t] = into.get(t, Fraction(0)) + weight * p


def _sustained(a: Attack, fixed: int | None) -> dict[int, Fraction]:
    if a.sustained is None:
        return {0: Fraction(1)}
    if fixed is not None:
        return {fixed: Fraction(1)}
    if isinstance(a.sustained, int):
        return {a.sustained: Fraction(1)}
    faces = int(a.sustained.upper().removeprefix("D"))
    return {x: Fraction(1, faces) for x in range(1, faces + 1)}


def reference_outcome(a: Attack, sustained_value: int | None = None) -> Reference:
    """The exact outcome of one attack (``sustained_value`` fixes X of Sustained Hits)."""
    s = p_save_fails(a)
    saved_or_not: Dist = {(1, 1, 1, 0): s, (1, 1, 0, 0): 1 - s}
    rolled: Dist = {}  # one hit that makes its Wound roll
    for result, p in wound_roll(a).items():
        if result == "fail":
            _mix(rolled, {(1, 0, 0, 0): Fraction(1)}, p)
        elif result == "critical" and a.devastating_wounds:
            _mix(rolled, {(1, 1, 0, 1): Fraction(1)}, p)
        else:
            _mix(rolled, saved_or_not, p)
    if a.devastating_wounds and a.lethal_devastating == "critical-wound":
        automatic: Dist = {(1, 1, 0, 1): Fraction(1)}
    else:
        automatic = saved_or_not
    attack: Dist
    if _auto_hits(a):
        attack = rolled
    else:
        attack = {}
        for result, p in hit_roll(a).items():
            if result == "fail":
                _mix(attack, {(0, 0, 0, 0): Fraction(1)}, p)
            elif result == "hit":
                _mix(attack, rolled, p)
            else:
                for extra, q in _sustained(a, sustained_value).items():
                    total: Dist = automatic if a.lethal_hits else rolled
                    every = a.lethal_hits and a.sustained_lethal == "every-hit"
                    for _ in range(extra):  # the extra hits: automatic too, or each rolls to wound
                        total = _add(total, automatic if every else rolled)
                    _mix(attack, total, p * q)
    packets: dict[tuple[int, int], Fraction] = {}
    for (_, _, normal, dev), p in attack.items():
        if p:
            packets[(normal, dev)] = packets.get((normal, dev), Fraction(0)) + p

    def mean(i: int) -> Fraction:
        return sum((t[i] * p for t, p in attack.items()), Fraction(0))

    return Reference(
        packets=packets,
        hits_per_attack=mean(0),
        wounds_per_attack=mean(1),
        devastating_per_attack=mean(3),
        unsaved_per_attack=mean(2),
        p_save_fails=s,
    )
