"""Scrollhammer Morale rules as typed code.

Every Leadership-based test here is a :class:`rulesbook.dice.RollTest` on 2D6, roll-under;
the rules only choose its target, natural results and automatic failure.

Example:
    >>> morale_check(ld=7, modifier=-1).p_pass()
    Fraction(5, 12)
    >>> morale_check(ld=7, falling_back=True).p_pass()
    Fraction(0, 1)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rulesbook.dice import TWO_D6, RollTest, double
from rulesbook.registry import implements

__all__ = [
    "INSANE_HEROISM",
    "LdBounds",
    "MoraleState",
    "RegroupAllowance",
    "at_least_half",
    "break_test",
    "casualties_test_needed",
    "casualties_threshold",
    "fall_back_edge",
    "formation",
    "leadership_requirement",
    "may_charge",
    "modified_ld",
    "morale_check",
    "multiple_charge_targets",
    "p_pinned",
    "panic_test",
    "regroup_allowance",
    "regroup_test",
    "regroup_when_charged",
    "state_after_check",
]

INSANE_HEROISM = double(1)
"""The natural result that passes any Morale check: both dice show 1."""

type LdBounds = Literal["none", "max-10"]
type PositiveModifiers = Literal["allowed", "ignored"]
type HeroismLowLd = Literal["passes", "fails"]
type HeroismFallingBack = Literal["automatic-failure", "heroism-passes"]
type SpecialRule = Literal["none", "immune-to-morale", "always-passes-morale", "always-passes-leadership"]
type TestKind = Literal["morale-check", "leadership-test"]
type ImmuneUnits = Literal["no-checks", "passes-everything"]
type Requirement = Literal["roll", "automatic-pass", "not-taken"]
type PinningTests = Literal["per-attack", "per-phase"]
type CasualtiesRounding = Literal["exact", "round-down"]
type RegroupHalf = Literal["half-counts", "half-is-under"]
type HeroismInRegroup = Literal["applies", "total-only"]
type Trigger = Literal["pinning", "casualties", "break", "panic"]

SPECIAL_RULES: tuple[SpecialRule, ...] = (
    "none",
    "immune-to-morale",
    "always-passes-morale",
    "always-passes-leadership",
)
"""The Army Book exemptions of :func:`leadership_requirement`, the ordinary unit first."""


@implements("scrollhammer.morale.modifiers")
def modified_ld(
    ld: int,
    modifier: int = 0,
    ld_bounds: LdBounds = "none",
    positive_modifiers: PositiveModifiers = "allowed",
) -> int:
    """Leadership after the summed modifier (and the optional cap of the ld-bounds entry).

    ``positive_modifiers`` is the option of ``scrollhammer.interpretations.positive-modifiers``:
    with ``ignored`` a positive total counts as 0.

    >>> modified_ld(8, -2), modified_ld(9, +3, "max-10"), modified_ld(7, +2, positive_modifiers="ignored")
    (6, 10, 7)
    """
    if positive_modifiers == "ignored":
        modifier = min(modifier, 0)
    value = ld + modifier
    if ld_bounds == "max-10":
        value = min(value, 10)
    return value


@implements(
    "scrollhammer.morale.check",
    "scrollhammer.morale.insane-heroism",
    "scrollhammer.morale.falling-back-fails",
)
def morale_check(
    ld: int,
    modifier: int = 0,
    *,
    insane_heroism: bool = True,
    falling_back: bool = False,
    ld_bounds: LdBounds = "none",
    heroism_low_ld: HeroismLowLd = "passes",
    heroism_when_falling_back: HeroismFallingBack = "automatic-failure",
    positive_modifiers: PositiveModifiers = "allowed",
) -> RollTest:
    """The Morale check as a roll test: 2D6 <= modified Ld, double 1 passes, falling back fails.

    Args:
        ld: the unit's Leadership characteristic.
        modifier: the sum of every Leadership modifier that applies (negative is worse).
        insane_heroism: whether a double 1 always passes (the rule; False for a what-if).
        falling_back: the unit is already falling back, so the check fails automatically.
        ld_bounds: option of ``scrollhammer.interpretations.ld-bounds``.
        heroism_low_ld: option of ``scrollhammer.interpretations.heroism-low-ld``.
        heroism_when_falling_back: option of
            ``scrollhammer.interpretations.heroism-when-falling-back``.
        positive_modifiers: option of ``scrollhammer.interpretations.positive-modifiers``.

    Example:
        >>> morale_check(ld=2, modifier=-3).p_pass()   # only double 1 passes
        Fraction(1, 36)
        >>> morale_check(ld=2, modifier=-3, heroism_low_ld="fails").p_pass()
        Fraction(0, 1)
    """
    target = modified_ld(ld, modifier, ld_bounds, positive_modifiers)
    heroism = insane_heroism
    if heroism and heroism_low_ld == "fails" and target < 2:
        heroism = False
    if heroism and falling_back and heroism_when_falling_back == "automatic-failure":
        heroism = False
    return RollTest(
        dice=TWO_D6,
        target=target,
        direction="under",
        auto_pass=INSANE_HEROISM if heroism else frozenset(),
        always_fail=falling_back,
    )


# -- special units ----------------------------------------------------------------------------


@implements("scrollhammer.morale.special-units")
def leadership_requirement(
    kind: TestKind, special_rule: SpecialRule = "none", immune_units: ImmuneUnits = "no-checks"
) -> Requirement:
    """Whether a unit rolls a test, passes it without rolling, or does not take it at all.

    ``kind`` is ``"morale-check"`` or ``"leadership-test"`` (any other Ld test: a Shout, a
    Regroup test). ``immune_units`` is the option of ``scrollhammer.interpretations.immune-units``.

    >>> leadership_requirement("leadership-test", "always-passes-morale")
    'roll'
    >>> leadership_requirement("leadership-test", "always-passes-leadership")
    'automatic-pass'
    >>> leadership_requirement("morale-check", "immune-to-morale")
    'not-taken'
    """
    match special_rule:
        case "none":
            return "roll"
        case "immune-to-morale":
            if kind == "morale-check":
                return "not-taken"
            return "automatic-pass" if immune_units == "passes-everything" else "roll"
        case "always-passes-morale":
            return "automatic-pass" if kind == "morale-check" else "roll"
        case "always-passes-leadership":
            return "automatic-pass"
    raise ValueError(f"unknown special rule {special_rule!r}")  # pragma: no cover


# -- the four triggers ------------------------------------------------------------------------


class MoraleState(enum.Enum):
    """Where a unit stands, as far as the Morale section is concerned."""

    STEADY = "steady"
    PINNED_DOWN = "pinned-down"
    FALLING_BACK = "falling-back"
    REGROUPED = "regrouped"
    """Regrouped this turn (it may not otherwise move or shoot)."""
    DESTROYED = "destroyed"
    FLED = "fled"
    """Left the table over its own edge."""


@implements(
    "scrollhammer.morale.check",
    "scrollhammer.morale.pinning-test",
    "scrollhammer.morale.casualties-test",
    "scrollhammer.morale.break-test",
    "scrollhammer.morale.panic-test",
)
def state_after_check(trigger: Trigger, passed: bool, state: MoraleState = MoraleState.STEADY) -> MoraleState:
    """The unit's state after a Morale check caused by ``trigger``.

    A failed Pinning test pins the unit down; the other three triggers make it Fall Back.
    A unit already falling back stays so (its check fails anyway).

    >>> state_after_check("pinning", passed=False).value, state_after_check("break", passed=False).value
    ('pinned-down', 'falling-back')
    >>> state_after_check("panic", passed=True).value
    'steady'
    """
    if state is MoraleState.FALLING_BACK:
        return state
    if passed:
        return state
    return MoraleState.PINNED_DOWN if trigger == "pinning" else MoraleState.FALLING_BACK


@implements("scrollhammer.morale.pinning-test")
def p_pinned(test: RollTest, attacks: int = 1, pinning_tests: PinningTests = "per-attack") -> Fraction:
    """Chance that a unit ends the Shooting phase Pinned Down.

    ``attacks`` Pinning attacks caused it unsaved wounds; with ``per-attack`` each one
    triggers a test until one fails, with ``per-phase`` it tests once.

    >>> p_pinned(morale_check(7), attacks=2)   # 1 - (7/12)^2
    Fraction(95, 144)
    """
    if attacks < 1:
        return Fraction(0)
    tests = attacks if pinning_tests == "per-attack" else 1
    return 1 - test.p_pass() ** tests


@implements("scrollhammer.morale.casualties-test")
def casualties_threshold(models_at_start: int, rounding: CasualtiesRounding = "exact") -> int:
    """The fewest losses in one Shooting phase that force the 25 % test.

    >>> casualties_threshold(10), casualties_threshold(10, "round-down"), casualties_threshold(8)
    (3, 2, 2)
    """
    if models_at_start < 1:
        raise ValueError("a unit has at least one model")
    if rounding == "round-down":
        return max(1, models_at_start // 4)
    return -(-models_at_start // 4)  # ceil: 4 * lost >= models


@implements("scrollhammer.morale.casualties-test")
def casualties_test_needed(
    models_at_start: int, models_lost: int, rounding: CasualtiesRounding = "exact"
) -> bool:
    """True when the losses of one Shooting phase force a Morale check (and a model is left).

    >>> casualties_test_needed(10, 2), casualties_test_needed(10, 3), casualties_test_needed(4, 4)
    (False, True, False)
    """
    return casualties_threshold(models_at_start, rounding) <= models_lost < models_at_start


@implements("scrollhammer.morale.break-test")
def break_test(
    ld: int, lost_by: int, modifier: int = 0, *, insane_heroism: bool = True, ld_bounds: LdBounds = "none"
) -> RollTest:
    """The Break test after losing a combat by ``lost_by``: a Morale check at Ld − lost_by.

    ``modifier`` holds any other Ld modifiers; the keywords are those of :func:`morale_check`.

    >>> break_test(8, lost_by=3).p_pass()   # 2D6 <= 5: 10 of 36
    Fraction(5, 18)
    >>> break_test(8, lost_by=9).p_pass()   # only Insane Heroism is left
    Fraction(1, 36)
    """
    if lost_by < 1:
        raise ValueError("a lost combat is lost by at least 1")
    return morale_check(ld, modifier - lost_by, insane_heroism=insane_heroism, ld_bounds=ld_bounds)


@implements("scrollhammer.morale.panic-test")
def panic_test(
    ld: int, modifier: int = 0, *, insane_heroism: bool = True, ld_bounds: LdBounds = "none"
) -> RollTest:
    """The Panic test of a unit a friend fell back through: a plain Morale check.

    >>> panic_test(7).p_pass()
    Fraction(7, 12)
    """
    return morale_check(ld, modifier, insane_heroism=insane_heroism, ld_bounds=ld_bounds)


# -- regrouping -------------------------------------------------------------------------------


@implements("scrollhammer.regroup.test")
def at_least_half(alive: int, starting: int, regroup_half: RegroupHalf = "half-counts") -> bool:
    """Is at least half of the unit alive (the Regroup test's dividing line)?

    >>> at_least_half(5, 10), at_least_half(5, 10, "half-is-under"), at_least_half(4, 10)
    (True, False, False)
    """
    if regroup_half == "half-is-under":
        return 2 * alive > starting
    return 2 * alive >= starting


@implements("scrollhammer.regroup.test")
def regroup_test(ld: int, at_least_half: bool, heroism_in_regroup: HeroismInRegroup = "applies") -> RollTest:
    """The Regroup test of a falling-back unit, as a roll test.

    At least half alive: 2D6 <= Ld (a double 1 passes unless ``heroism_in_regroup`` is
    ``total-only``). Under half: only a double 1 passes.

    >>> regroup_test(8, at_least_half=True).p_pass(), regroup_test(8, at_least_half=False).p_pass()
    (Fraction(13, 18), Fraction(1, 36))
    """
    if at_least_half:
        return morale_check(ld, insane_heroism=heroism_in_regroup == "applies")
    return morale_check(ld).with_(always_fail=True)


@implements("scrollhammer.regroup.when-charged")
def regroup_when_charged(ld: int, heroism_in_regroup: HeroismInRegroup = "applies") -> RollTest:
    """The Regroup test of a charged falling-back unit: always a normal Leadership test.

    >>> regroup_when_charged(7).p_pass()
    Fraction(7, 12)
    """
    return regroup_test(ld, at_least_half=True, heroism_in_regroup=heroism_in_regroup)


@dataclass(frozen=True, slots=True)
class RegroupAllowance:
    """What a unit may still do in the turn it regroups."""

    move_inches: int = 3
    difficult_terrain_slows: bool = False
    dangerous_terrain_tests: bool = True
    may_shoot: bool = False
    may_march: bool = False
    may_charge: bool = False


@implements("scrollhammer.regroup.after-regrouping")
def regroup_allowance(when_charged: bool = False) -> RegroupAllowance:
    """The turn's allowance after regrouping: a 3" move (none when regrouping as a charge target).

    >>> a = regroup_allowance()
    >>> a.move_inches, a.may_shoot, a.may_charge
    (3, False, False)
    >>> regroup_allowance(when_charged=True).move_inches
    0
    """
    return RegroupAllowance(move_inches=0) if when_charged else RegroupAllowance()


@implements("scrollhammer.regroup.multiple-charges")
def multiple_charge_targets(
    targets: Iterable[str], falling_back: Mapping[str, bool], regrouped: Mapping[str, bool]
) -> tuple[str, ...]:
    """The targets a multiple charge still goes on against after the Regroup tests.

    A falling-back target that failed its Regroup test is destroyed and the charge carries on
    as if it had never been there.

    >>> multiple_charge_targets(["a", "b", "c"], {"b": True, "c": True}, {"b": False, "c": True})
    ('a', 'c')
    """
    return tuple(t for t in targets if not falling_back.get(t, False) or regrouped.get(t, False))


# -- falling back: what a fleeing unit may and may not do -----------------------------------


@implements("scrollhammer.fall-back.skirmish")
def formation(state: MoraleState, normal: str, regrouped_when_charged: bool = False) -> str:
    """The formation a unit counts as being in.

    >>> formation(MoraleState.FALLING_BACK, "ranks"), formation(MoraleState.STEADY, "ranks")
    ('skirmish', 'ranks')
    >>> formation(MoraleState.REGROUPED, "ranks", regrouped_when_charged=True)
    'skirmish'
    """
    if state is MoraleState.FALLING_BACK or (state is MoraleState.REGROUPED and regrouped_when_charged):
        return "skirmish"
    return normal


@implements("scrollhammer.fall-back.no-charge", "scrollhammer.regroup.after-regrouping")
def may_charge(state: MoraleState) -> bool:
    """Whether the Morale section allows the unit to declare a charge.

    >>> [may_charge(s) for s in (MoraleState.FALLING_BACK, MoraleState.REGROUPED, MoraleState.STEADY)]
    [False, False, True]
    """
    return state not in (
        MoraleState.FALLING_BACK,
        MoraleState.REGROUPED,
        MoraleState.DESTROYED,
        MoraleState.FLED,
    )


@implements("scrollhammer.fall-back.direction")
def fall_back_edge(has_own_edge: bool) -> Literal["own table edge", "nearest table edge"]:
    """The edge a fleeing model runs for.

    >>> fall_back_edge(True), fall_back_edge(False)
    ('own table edge', 'nearest table edge')
    """
    return "own table edge" if has_own_edge else "nearest table edge"
