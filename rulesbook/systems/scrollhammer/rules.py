"""Scrollhammer Morale rules as typed code.

Every Leadership-based test is declared once, in the rules language (``mechanics.yaml``: the
Leadership dice, a total at most the target passes, Insane Heroism, the automatic failure), and
rolled as a :class:`rulesbook.dice.RollTest` through :data:`MECHANICS`; the code here works out the
Leadership it is rolled against and whether Insane Heroism may apply, from the readings. Every
function takes the rule set as one value, ``choices`` (the numbers of the section and the
readings of its gaps, :mod:`rulesbook.systems.scrollhammer.choices`, and any entries a variant
adds to a test); by default the rules as written.

Example:
    >>> morale_check(ld=7, modifier=-1).p_pass()
    Fraction(5, 12)
    >>> morale_check(ld=7, falling_back=True).p_pass()
    Fraction(0, 1)
    >>> morale_check(ld=7, choices=CHOICES.replace(parameters={"leadership_dice": "3D6"})).p_pass()
    Fraction(35, 216)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Literal

from rulesbook.dice import RollTest
from rulesbook.language.files import load_mechanics
from rulesbook.registry import implements
from rulesbook.systems.scrollhammer.choices import CHOICES, ScrollhammerChoices

__all__ = [
    "MECHANICS",
    "SPECIAL_RULES",
    "MoraleState",
    "RegroupAllowance",
    "at_least_half",
    "break_test",
    "casualties_test_needed",
    "casualties_threshold",
    "fall_back_edge",
    "formation",
    "leadership_requirement",
    "leadership_test",
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

type SpecialRule = Literal["none", "immune-to-morale", "always-passes-morale", "always-passes-leadership"]
type TestKind = Literal["morale-check", "leadership-test"]
type Requirement = Literal["roll", "automatic-pass", "not-taken"]
type Trigger = Literal["pinning", "casualties", "break", "panic"]

SPECIAL_RULES: tuple[SpecialRule, ...] = (
    "none",
    "immune-to-morale",
    "always-passes-morale",
    "always-passes-leadership",
)
"""The Army Book exemptions of :func:`leadership_requirement`, the ordinary unit first."""


MECHANICS = load_mechanics(Path(__file__).with_name("mechanics.yaml"), "scrollhammer", CHOICES, schema=False)
"""The Leadership-based tests as declared in ``mechanics.yaml`` (the schema is checked by the
tests: the file ships with the package)."""

type DeclaredTest = Literal[
    "leadership-test",
    "morale-check",
    "break-test",
    "panic-test",
    "pinning-test",
    "casualties-test",
    "regroup-test",
]
"""The tests ``mechanics.yaml`` declares (each extends leadership-test, or morale-check)."""


@implements("scrollhammer.morale.check", "scrollhammer.morale.insane-heroism")
def leadership_test(
    target: int,
    choices: ScrollhammerChoices = CHOICES,
    *,
    heroism: bool = True,
    always_fail: bool = False,
    test: DeclaredTest = "leadership-test",
    **given: int,
) -> RollTest:
    """A Leadership-based test: the Leadership dice at or below ``target``, as ``mechanics.yaml``
    declares test ``test`` (``given``: its other arguments, such as a Break test's ``lost_by``).

    With ``heroism`` (and Insane Heroism in the rules) the Insane Heroism roll passes whatever
    the target; with ``always_fail`` nothing else does. Every Leadership-based test of the
    system is rolled here, from the choice set it is given (a variant's dice, rules and added
    entries reach all); when the Leadership dice keep or drop, the reading ``heroism_dice`` names
    the dice Insane Heroism reads.

    >>> leadership_test(1).p_pass(), leadership_test(7).p_pass()
    (Fraction(1, 36), Fraction(7, 12))
    """
    return MECHANICS.roll(test, choices, target=target, heroism=heroism, always_fail=always_fail, **given)


type Strength = tuple[int, int] | None
"""(models left, models at the start) of the tested unit, or None when not given."""


@implements("scrollhammer.morale.modifiers")
def strength_modifier(strength: Strength, choices: ScrollhammerChoices = CHOICES) -> int:
    """The Leadership modifier a weak unit takes (a designer's rule, off in the published rules):
    ``weak_unit_modifier`` when fewer than ``weak_unit_percent`` % of its starting models are
    left, else 0 (also when the strength is not given).

    >>> weak = CHOICES.replace(parameters={"weak_unit_percent": 25, "weak_unit_modifier": -2})
    >>> strength_modifier((2, 10), weak), strength_modifier((3, 12), weak), strength_modifier((2, 10))
    (-2, 0, 0)
    """
    p = choices.parameters
    if strength is None or not p.weak_unit_percent or not p.weak_unit_modifier:
        return 0
    left, starting = strength
    return p.weak_unit_modifier if 100 * left < p.weak_unit_percent * starting else 0


@implements("scrollhammer.morale.modifiers")
def modified_ld(
    ld: int, modifier: int = 0, choices: ScrollhammerChoices = CHOICES, strength: Strength = None
) -> int:
    """Leadership after the summed modifier (and the readings on caps and positive totals).

    With ``positive_modifiers`` ``ignored`` a positive total counts as 0; with ``ld_bounds``
    ``max-10`` the result never exceeds 10.

    >>> modified_ld(8, -2), modified_ld(9, +3, CHOICES.replace(readings={"ld_bounds": "max-10"}))
    (6, 10)
    >>> modified_ld(7, +2, CHOICES.replace(readings={"positive_modifiers": "ignored"}))
    7
    """
    readings = choices.readings
    modifier += strength_modifier(strength, choices)
    if readings.positive_modifiers == "ignored":
        modifier = min(modifier, 0)
    value = ld + modifier
    if readings.ld_bounds == "max-10":
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
    choices: ScrollhammerChoices = CHOICES,
    *,
    falling_back: bool = False,
    strength: Strength = None,
    test: DeclaredTest = "morale-check",
    **given: int,
) -> RollTest:
    """The Morale check as a roll test: 2D6 <= modified Ld, double 1 passes, falling back fails
    (``test``: which declared Morale check, ``given`` its other arguments).

    Args:
        ld: the unit's Leadership characteristic.
        modifier: the sum of every Leadership modifier that applies (negative is worse).
        choices: the rule set (its dice, Insane Heroism, and the readings ``ld_bounds``,
            ``positive_modifiers``, ``heroism_low_ld`` and ``heroism_when_falling_back``).
        falling_back: the unit is already falling back, so the check fails automatically.

    Example:
        >>> morale_check(ld=2, modifier=-3).p_pass()   # only double 1 passes
        Fraction(1, 36)
        >>> morale_check(ld=2, modifier=-3, choices=CHOICES.replace(readings={"heroism_low_ld": "fails"})).p_pass()
        Fraction(0, 1)
    """
    parameters, readings = choices.parameters, choices.readings
    target = modified_ld(ld, modifier, choices, strength)
    fails = falling_back and parameters.falling_back_fails
    heroism = not (readings.heroism_low_ld == "fails" and target < parameters.leadership_dice.minimum)
    if fails and readings.heroism_when_falling_back == "automatic-failure":
        heroism = False
    return leadership_test(target, choices, heroism=heroism, always_fail=fails, test=test, **given)


# -- special units ----------------------------------------------------------------------------


@implements("scrollhammer.morale.special-units")
def leadership_requirement(
    kind: TestKind, special_rule: SpecialRule = "none", choices: ScrollhammerChoices = CHOICES
) -> Requirement:
    """Whether a unit rolls a test, passes it without rolling, or does not take it at all.

    ``kind`` is ``"morale-check"`` or ``"leadership-test"`` (any other Ld test: a Shout, a
    Regroup test); the reading ``immune_units`` says what immunity to morale covers.

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
            return "automatic-pass" if choices.readings.immune_units == "passes-everything" else "roll"
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
    if passed or state is MoraleState.FALLING_BACK:
        return state
    return MoraleState.PINNED_DOWN if trigger == "pinning" else MoraleState.FALLING_BACK


@implements("scrollhammer.morale.pinning-test")
def p_pinned(test: RollTest, attacks: int = 1, choices: ScrollhammerChoices = CHOICES) -> Fraction:
    """Chance that a unit ends the Shooting phase Pinned Down.

    ``attacks`` Pinning attacks caused it unsaved wounds; with the reading ``pinning_tests``
    ``per-attack`` each one triggers a test until one fails, with ``per-phase`` it tests once.

    >>> p_pinned(morale_check(7), attacks=2)   # 1 - (7/12)^2
    Fraction(95, 144)
    """
    if attacks < 1:
        return Fraction(0)
    tests = attacks if choices.readings.pinning_tests == "per-attack" else 1
    return 1 - test.p_pass() ** tests


@implements("scrollhammer.morale.casualties-test")
def casualties_threshold(models_at_start: int, choices: ScrollhammerChoices = CHOICES) -> int:
    """The fewest losses in one Shooting phase that force the casualties (25 %) test.

    >>> round_down = CHOICES.replace(readings={"casualties_rounding": "round-down"})
    >>> casualties_threshold(10), casualties_threshold(10, round_down), casualties_threshold(8)
    (3, 2, 2)
    """
    if models_at_start < 1:
        raise ValueError("a unit has at least one model")
    share = models_at_start * choices.parameters.casualties_percent
    if choices.readings.casualties_rounding == "round-down":
        return max(1, share // 100)
    return -(-share // 100)  # ceil: 100 * lost >= percent * models


@implements("scrollhammer.morale.casualties-test")
def casualties_test_needed(
    models_at_start: int, models_lost: int, choices: ScrollhammerChoices = CHOICES
) -> bool:
    """True when the losses of one Shooting phase force a Morale check (and a model is left).

    >>> casualties_test_needed(10, 2), casualties_test_needed(10, 3), casualties_test_needed(4, 4)
    (False, True, False)
    """
    return casualties_threshold(models_at_start, choices) <= models_lost < models_at_start


@implements("scrollhammer.morale.break-test")
def break_test(
    ld: int,
    lost_by: int,
    modifier: int = 0,
    choices: ScrollhammerChoices = CHOICES,
    strength: Strength = None,
) -> RollTest:
    """The Break test after losing a combat by ``lost_by``: a Morale check at Ld − lost_by.

    The Ld lost per point of defeat is a parameter (1); ``modifier`` holds any other Ld modifiers.

    >>> break_test(8, lost_by=3).p_pass()   # 2D6 <= 5: 10 of 36
    Fraction(5, 18)
    >>> break_test(8, lost_by=9).p_pass()   # only Insane Heroism is left
    Fraction(1, 36)
    >>> two_a_point = CHOICES.replace(parameters={"break_ld_per_point": 2})
    >>> break_test(8, lost_by=2, choices=two_a_point).p_pass()   # 2D6 <= 4
    Fraction(1, 6)
    """
    if lost_by < 1:
        raise ValueError("a lost combat is lost by at least 1")
    penalty = lost_by * choices.parameters.break_ld_per_point
    return morale_check(
        ld, modifier - penalty, choices, strength=strength, test="break-test", lost_by=lost_by
    )


@implements("scrollhammer.morale.panic-test")
def panic_test(
    ld: int, modifier: int = 0, choices: ScrollhammerChoices = CHOICES, strength: Strength = None
) -> RollTest:
    """The Panic test of a unit a friend fell back through: a plain Morale check.

    >>> panic_test(7).p_pass()
    Fraction(7, 12)
    """
    return morale_check(ld, modifier, choices, strength=strength, test="panic-test")


# -- regrouping -------------------------------------------------------------------------------


@implements("scrollhammer.regroup.test")
def at_least_half(alive: int, starting: int, choices: ScrollhammerChoices = CHOICES) -> bool:
    """Is at least half of the unit alive (the Regroup test's dividing line)?

    The share is a parameter (50 %); the reading ``regroup_half`` says whether exactly half counts.

    >>> under = CHOICES.replace(readings={"regroup_half": "half-is-under"})
    >>> at_least_half(5, 10), at_least_half(5, 10, under), at_least_half(4, 10)
    (True, False, False)
    """
    alive_share, needed = 100 * alive, choices.parameters.regroup_percent * starting
    if choices.readings.regroup_half == "half-is-under":
        return alive_share > needed
    return alive_share >= needed


@implements("scrollhammer.regroup.test")
def regroup_test(
    ld: int, at_least_half: bool, choices: ScrollhammerChoices = CHOICES, strength: Strength = None
) -> RollTest:
    """The Regroup test of a falling-back unit, as a roll test on its plain Ld.

    At least half alive: 2D6 <= Ld (a double 1 passes unless the reading ``heroism_in_regroup``
    is ``total-only``). Under half: only a double 1 passes.

    >>> regroup_test(8, at_least_half=True).p_pass(), regroup_test(8, at_least_half=False).p_pass()
    (Fraction(13, 18), Fraction(1, 36))
    """
    ld += strength_modifier(strength, choices)
    if at_least_half:
        heroism = choices.readings.heroism_in_regroup == "applies"
        return leadership_test(ld, choices, heroism=heroism, test="regroup-test")
    return leadership_test(ld, choices, always_fail=True, test="regroup-test")


@implements("scrollhammer.regroup.when-charged")
def regroup_when_charged(
    ld: int, choices: ScrollhammerChoices = CHOICES, strength: Strength = None
) -> RollTest:
    """The Regroup test of a charged falling-back unit: always a normal Leadership test.

    >>> regroup_when_charged(7).p_pass()
    Fraction(7, 12)
    """
    return regroup_test(ld, at_least_half=True, choices=choices, strength=strength)


@dataclass(frozen=True, slots=True)
class RegroupAllowance:
    """What a unit may still do in the turn it regroups."""

    move_inches: int
    difficult_terrain_slows: bool = False
    dangerous_terrain_tests: bool = True
    may_shoot: bool = False
    may_march: bool = False
    may_charge: bool = False


@implements("scrollhammer.regroup.after-regrouping")
def regroup_allowance(when_charged: bool = False, choices: ScrollhammerChoices = CHOICES) -> RegroupAllowance:
    """The turn's allowance after regrouping: a 3" move (none when regrouping as a charge target).

    >>> a = regroup_allowance()
    >>> a.move_inches, a.may_shoot, a.may_charge
    (3, False, False)
    >>> regroup_allowance(when_charged=True).move_inches
    0
    """
    return RegroupAllowance(move_inches=0 if when_charged else choices.parameters.regroup_move)


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
