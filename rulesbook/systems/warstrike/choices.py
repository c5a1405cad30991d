"""WarStrike's rule choices, declared once: the numbers the Starting Phase fixes and its readings.

:class:`WarStrikeParameters` holds the numbers and dice of the draft (Ver. 0.52, source
``002_debc3bc03be072a4.txt``) and the labelled placeholder that stands in for the missing
Missions chapter; :class:`WarStrikeReadings` has one typed field per entry of the
interpretations register (``rules.yaml``), named as the calculators' input key. ``CHOICES`` is
the system's choice set; a changed copy (``CHOICES.replace(...)``) is a designer's variant, a
sweep point, or an older draft of the rules (see :mod:`rulesbook.systems.warstrike.versions`).

Example:
    >>> CHOICES.parameters.morale_threshold, str(CHOICES.parameters.ld_test_dice)
    (Fraction(1, 2), '2D6')
    >>> third = CHOICES.replace(parameters={"morale_threshold_denominator": 3})
    >>> third.parameters.morale_threshold, third.readings.hive_mind_tie
    (Fraction(1, 3), 'fight-on')
    >>> CHOICES.replace(parameters={"morale_threshold_numerator": 3})
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: morale_threshold_numerator: the threshold 3/2 must not exceed 1 (numerator at most the denominator)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rulesbook.choices import (
    Parameters,
    Readings,
    RuleChoices,
    parameter,
    reading,
)
from rulesbook.dice import D6, TWO_D6, DiceExpr
from rulesbook.errors import InputError

__all__ = ["CHOICES", "WarStrikeChoices", "WarStrikeParameters", "WarStrikeReadings"]

_MORALE = "1. Check Strike Force Morale"
_RESERVES = "3. Roll For Reserves"


@dataclass(frozen=True)
class WarStrikeParameters(Parameters):
    """The numbers and dice the Starting Phase fixes, each with its rule and source section.

    The reserve roll is not in the draft (it defers to a Missions chapter we do not have): its
    three parameters are rulesbook's labelled placeholder, which every shipped mission marked
    ``placeholder: true`` uses.
    """

    morale_threshold_numerator: int = parameter(
        1,
        label="Morale threshold (numerator)",
        rule="warstrike.morale.trigger",
        section=_MORALE,
        minimum=1,
        maximum=12,
        help="A check is due when the units alive or in reserve are fewer than this fraction of "
        "the starting units (numerator over denominator; the draft says half).",
    )
    morale_threshold_denominator: int = parameter(
        2,
        label="Morale threshold (denominator)",
        rule="warstrike.morale.trigger",
        section=_MORALE,
        minimum=1,
        maximum=12,
        help="The denominator of the morale threshold (half: 1 over 2).",
    )
    ld_test_dice: DiceExpr = parameter(
        TWO_D6,
        label="Ld test dice",
        rule="warstrike.morale.officer-test",
        section=_MORALE,
        minimum=1,
        help="The dice of a Leadership test (the draft names Ld tests; rulesbook rolls 2D6 against "
        "Ld, see warstrike.interpretations.ld-test).",
    )
    reserve_dice: DiceExpr = parameter(
        D6,
        label="Reserve roll dice (placeholder)",
        rule="warstrike.reserves.roll",
        section=_RESERVES,
        minimum=1,
        help="PLACEHOLDER: the dice each unit in reserve rolls to arrive (the Missions chapter is missing).",
    )
    reserve_target: int = parameter(
        4,
        label="Reserve roll target (placeholder)",
        rule="warstrike.reserves.roll",
        section=_RESERVES,
        minimum=1,
        maximum=36,
        help="PLACEHOLDER: a unit in reserve arrives on this roll or more.",
    )
    reserve_from_turn: int = parameter(
        2,
        label="Reserves arrive from turn (placeholder)",
        rule="warstrike.reserves.roll",
        section=_RESERVES,
        minimum=1,
        maximum=20,
        help="PLACEHOLDER: the first turn in which units in reserve may arrive.",
    )

    def __post_init__(self) -> None:
        if self.morale_threshold > 1:
            raise InputError(
                "morale_threshold_numerator",
                f"the threshold {self.morale_threshold_numerator}/{self.morale_threshold_denominator} "
                "must not exceed 1 (numerator at most the denominator)",
            )

    @property
    def morale_threshold(self) -> Fraction:
        """The fraction of the starting units below which a check is due (``1/2``)."""
        return Fraction(self.morale_threshold_numerator, self.morale_threshold_denominator)


@dataclass(frozen=True)
class WarStrikeReadings(Readings):
    """One typed field per entry of the interpretations register (``rules.yaml``)."""

    ld_test: Literal["2d6-at-most", "2d6-below", "2d6-natural-extremes"] = reading(
        "warstrike.interpretations.ld-test", "2d6-at-most"
    )
    extremes_dice: Literal["kept-dice", "every-die-rolled"] = reading(
        "warstrike.interpretations.extremes-dice",
        "kept-dice",
        inert="the printed Ld test dice (2D6) keep and drop nothing, so both readings read the same "
        "two dice; it matters only for a variant's dice that keep or drop (say 3D6kl2)",
    )
    morale_threshold: Literal["exact-half", "half-rounded-down", "at-most-half"] = reading(
        "warstrike.interpretations.morale-threshold", "exact-half"
    )
    several_officers: Literal["best-ld", "first-listed"] = reading(
        "warstrike.interpretations.several-officers", "best-ld"
    )
    hive_mind_tie: Literal["fight-on", "withdraw"] = reading(
        "warstrike.interpretations.hive-mind-tie", "fight-on"
    )
    hive_mind_who_tests: Literal["alive-or-in-reserve", "on-table-only"] = reading(
        "warstrike.interpretations.hive-mind-who-tests", "alive-or-in-reserve"
    )
    no_units_left: Literal["retreat", "literal-tally"] = reading(
        "warstrike.interpretations.no-units-left", "retreat"
    )
    fanatical_hive_mind: Literal["reroll-whole-check", "reroll-failed-units", "no-effect"] = reading(
        "warstrike.interpretations.fanatical-hive-mind", "reroll-whole-check"
    )
    fanatical_without_officer: Literal["failure-stands", "fanatics-hold"] = reading(
        "warstrike.interpretations.fanatical-without-officer", "failure-stands"
    )
    army_morale_naming: Literal["same-check", "other-check"] = reading(
        "warstrike.interpretations.army-morale-naming",
        "same-check",
        inert="the other reading is the same as fanatical=false, which every calculator offers",
    )
    victory_whose_conditions: Literal["active-player", "both-sides"] = reading(
        "warstrike.interpretations.victory-whose-conditions", "active-player"
    )
    retreat_and_victory: Literal["retreat-decides", "victory-first"] = reading(
        "warstrike.interpretations.retreat-and-victory", "retreat-decides"
    )
    reserves_roll: Literal["mission-placeholder", "none-arrive", "all-arrive"] = reading(
        "warstrike.interpretations.reserves-roll", "mission-placeholder"
    )
    officer_attempts: Literal["one-officer", "every-officer"] = reading(
        "warstrike.interpretations.officer-attempts", "one-officer"
    )
    officers_and_units: Literal["officers-may-share", "one-per-unit"] = reading(
        "warstrike.interpretations.officers-and-units",
        "officers-may-share",
        inert="it only decides which officer counts are possible; no probability changes",
    )
    hive_mind_officers: Literal["no-officers", "officer-leads"] = reading(
        "warstrike.interpretations.hive-mind-officers", "no-officers"
    )
    check_every_phase: Literal["every-phase", "once"] = reading(
        "warstrike.interpretations.check-every-phase", "every-phase"
    )


type WarStrikeChoices = RuleChoices[WarStrikeParameters, WarStrikeReadings]

CHOICES: WarStrikeChoices = RuleChoices("warstrike", WarStrikeParameters(), WarStrikeReadings())
"""The choices of the current draft with every reading at the register's default."""
