"""Army Morale rule choices: the numbers and dice the rules fix, and the readings of their gaps.

:class:`ArmyMoraleParameters` lists every number and die the source fixes (each with its rule
ID and source section); :class:`ArmyMoraleReadings` has one typed field per entry of the
interpretations register (``rules.yaml``, checked at load). The rules, the ledger and the
calculators receive one :data:`CHOICES`-like value, so a designer's variant is a changed copy:

Example:
    >>> from rulesbook.systems.army_morale.rules import detachment_value
    >>> detachment_value(225), detachment_value(225, CHOICES.replace(parameters={"points_per_morale": 40}))
    (5, 6)
    >>> readings_of_log({"war-engine-rounding": "round-down"}).war_engine_rounding
    'round-down'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from rulesbook.choices import Parameters, Readings, RuleChoices, parameter, reading
from rulesbook.dice import D3, D6, DiceExpr
from rulesbook.errors import InputError, quote

__all__ = [
    "CHOICES",
    "INTERPRETATION_PREFIX",
    "ArmyMoraleChoices",
    "ArmyMoraleParameters",
    "ArmyMoraleReadings",
    "readings_of_log",
]

INTERPRETATION_PREFIX = "army-morale.interpretations."


@dataclass(frozen=True)
class ArmyMoraleParameters(Parameters):
    """The numbers and dice the Army Morale rules fix (each with its rule and source section)."""

    points_per_morale: int = parameter(
        50,
        label="Points per Detachment Morale point",
        rule="army-morale.detachment.value",
        section="Detachment Morale values",
        minimum=1,
        maximum=1000,
        help="The default formula: one Morale point per started block of this many points "
        "(reproduces the published 201-250 points -> 5).",
    )
    detachment_value_bonus: int = parameter(
        0,
        label="Added to every detachment's Morale value",
        rule="army-morale.detachment.value",
        section="Detachment Morale values (a designer's change: 0 in the published rules)",
        minimum=-20,
        maximum=20,
        help="Each detachment's Morale value, however it is worked out (formula, band or table), "
        "plus this; +1 makes every detachment worth one more point (never below 0).",
    )
    band_low: int = parameter(
        201,
        label="Published band: lowest points",
        rule="army-morale.detachment.value",
        section="Detachment Morale values",
        minimum=0,
        maximum=100_000,
        help="The one band the source states starts here.",
    )
    band_high: int = parameter(
        250,
        label="Published band: highest points",
        rule="army-morale.detachment.value",
        section="Detachment Morale values",
        minimum=0,
        maximum=100_000,
        help="The one band the source states ends here.",
    )
    band_value: int = parameter(
        5,
        label="Published band: Morale value",
        rule="army-morale.detachment.value",
        section="Detachment Morale values",
        minimum=0,
        maximum=1000,
        help="The Morale value of a detachment in the published band.",
    )
    half_strength_divisor: int = parameter(
        2,
        label="Half strength: fraction of the initial strength (1/N)",
        rule="army-morale.one-time.half-strength",
        section="Morale: Detachment reduced to half-strength",
        minimum=1,
        maximum=10,
        help="A detachment down to 1/N of its initial strength pays its Morale value.",
    )
    war_engine_divisor: int = parameter(
        2,
        label="War Engine destroyed: fraction of its Morale value gained (1/N)",
        rule="army-morale.one-time.war-engine-destroyed",
        section="Morale: Enemy War Engine unit destroyed",
        minimum=1,
        maximum=10,
        help="Destroying an enemy War Engine gains 1/N of its own Morale value.",
    )
    blast_marker_loss: int = parameter(
        1,
        label="Loss per Blast marker at step R4",
        rule="army-morale.ongoing.blast-markers",
        section="Morale: Blast markers on your detachments",
        minimum=0,
        maximum=10,
        help="Each Blast marker left on the side's detachments costs this much.",
    )
    destroyed_marker_loss: int = parameter(
        1,
        label="Loss per Blast marker on a destroyed detachment",
        rule="army-morale.one-time.destroyed-detachment-blast-markers",
        section="Morale: Blast markers on a destroyed detachment",
        minimum=0,
        maximum=10,
        help="Each Blast marker a wiped-out detachment carried costs this much, once.",
    )
    take_and_hold_dice: DiceExpr = parameter(
        D3,
        label="Take & Hold gain",
        rule="army-morale.ongoing.take-and-hold",
        section="Take & Hold",
        minimum=0,
        help="Rolled for each Take & Hold objective the side controls at step R4.",
    )
    rescue_gain: int = parameter(
        1,
        label="Rescue: gain per escort unit",
        rule="army-morale.ongoing.rescue",
        section="Rescue",
        minimum=0,
        maximum=10,
        help="Each escort unit adds this to its own side at step R4.",
    )
    rescue_loss: int = parameter(
        1,
        label="Rescue: opponent's loss per escort unit",
        rule="army-morale.ongoing.rescue",
        section="Rescue",
        minimum=0,
        maximum=10,
        help="Each escort unit takes this off the opponent at step R4.",
    )
    cleanse_gain: int = parameter(
        1,
        label="Cleanse gain",
        rule="army-morale.ongoing.cleanse",
        section="Cleanse",
        minimum=0,
        maximum=10,
        help="Each Cleanse objective the side controls adds this at step R4.",
    )
    bunker_dice: DiceExpr = parameter(
        D6,
        label="Bunker loss",
        rule="army-morale.one-time.bunker",
        section="Bunker",
        minimum=0,
        help="Rolled when a side destroys one of its Bunker objectives; the opponent loses it.",
    )
    capture_dice: DiceExpr = parameter(
        D6,
        label="Capture roll",
        rule="army-morale.one-time.capture",
        section="Capture",
        minimum=0,
        help="Rolled for each Capture objective at step R4: added to the side, or taken off the opponent.",
    )


@dataclass(frozen=True)
class ArmyMoraleReadings(Readings):
    """One typed field per entry of the Army Morale interpretations register."""

    formula: Literal["ceil-50", "source-only"] = reading(
        "army-morale.interpretations.detachment-value-formula", "ceil-50"
    )
    half_strength_threshold: Literal["at-most-half", "round-up", "below-half"] = reading(
        "army-morale.interpretations.half-strength-threshold", "at-most-half"
    )
    half_strength_when_destroyed: Literal["both", "destroyed-only"] = reading(
        "army-morale.interpretations.half-strength-when-destroyed", "both"
    )
    war_engine_rounding: Literal["round-up", "round-down"] = reading(
        "army-morale.interpretations.war-engine-rounding", "round-up"
    )
    war_engine_value: Literal["own-points", "detachment-share"] = reading(
        "army-morale.interpretations.war-engine-value", "own-points"
    )
    capture_repeats: Literal["every-rally", "once-per-objective"] = reading(
        "army-morale.interpretations.capture-repeats", "every-rally"
    )
    equal_values: Literal["draw", "both-lose"] = reading("army-morale.interpretations.equal-values", "draw")
    mixed_detachment_strength: Literal["war-engine-counts-one", "capacity-plus-units"] = reading(
        "army-morale.interpretations.mixed-detachment-strength", "war-engine-counts-one"
    )
    war_engine_lost_strength: Literal["unnamed-losses-first", "unnamed-losses-elsewhere"] = reading(
        "army-morale.interpretations.war-engine-lost-strength", "unnamed-losses-first"
    )
    wrecked_war_engine_strength: Literal["removed", "kept"] = reading(
        "army-morale.interpretations.wrecked-war-engine-strength", "removed"
    )
    wrecked_then_destroyed: Literal["rejected", "destroyed-counts"] = reading(
        "army-morale.interpretations.wrecked-then-destroyed", "rejected"
    )
    bunker_owner: Literal["your-objective", "your-own-bunker"] = reading(
        "army-morale.interpretations.bunker-owner",
        "your-objective",
        inert="both readings name the side that destroyed the bunker; the opponent loses the roll either way",
    )
    destroyed_markers_at_r4: Literal["not-again", "counted-again"] = reading(
        "army-morale.interpretations.destroyed-markers-at-r4", "not-again"
    )
    strength_zero_without_event: Literal["warn", "reject-at-r4"] = reading(
        "army-morale.interpretations.strength-zero-without-event", "warn"
    )
    added_ongoing_count: Literal["each-instance", "once-per-rally"] = reading(
        "army-morale.interpretations.added-ongoing-count", "each-instance"
    )
    added_one_time_context: Literal["per-side", "per-game"] = reading(
        "army-morale.interpretations.added-one-time-context", "per-side"
    )


type ArmyMoraleChoices = RuleChoices[ArmyMoraleParameters, ArmyMoraleReadings]

CHOICES: ArmyMoraleChoices = RuleChoices("army-morale", ArmyMoraleParameters(), ArmyMoraleReadings())
"""The rules as published, with the register's default readings (a variant may add morale
effects: :mod:`~rulesbook.systems.army_morale.effects`, the system package's ``additions``)."""


def readings_of_log(chosen: Mapping[str, str], base: ArmyMoraleReadings | None = None) -> ArmyMoraleReadings:
    """The readings a game log chooses (``slug: option`` as under its ``interpretations:``).

    A slug is the interpretation ID without ``army-morale.interpretations.``; an unknown slug or
    option raises InputError naming the slug and what is allowed.

    >>> readings_of_log({"equal-values": "coin-flip"})
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: equal-values: must be one of draw, both-lose, got 'coin-flip'
    """
    readings = base or CHOICES.readings
    changes = {}
    for slug, option in chosen.items():
        spec = next(
            (s for s in ArmyMoraleReadings.specs() if s.interpretation == INTERPRETATION_PREFIX + slug), None
        )
        if spec is None:
            known = ", ".join(
                s.interpretation.removeprefix(INTERPRETATION_PREFIX) for s in ArmyMoraleReadings.specs()
            )
            raise InputError(slug, f"unknown interpretation; allowed: {known}")
        if option not in spec.options:
            raise InputError(slug, f"must be one of {', '.join(spec.options)}, got {quote(option)}")
        changes[spec.key] = option
    return readings.replace(changes)
