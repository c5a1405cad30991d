"""Scrollhammer's rule choices: the numbers and dice the Morale section fixes, and its readings.

:class:`ScrollhammerParameters` holds every number the rules code uses (each with the rule it
belongs to and the source section it comes from, ``003_2d0ecba8f37ef4b8.txt``);
:class:`ScrollhammerReadings` has one typed field per entry of the interpretations register
(``rules.yaml``), checked against it when the system loads. :data:`CHOICES` is the rule set as
written; a changed copy is a designer's variant.

Example:
    >>> CHOICES.parameters.fall_back_dice, CHOICES.readings.panic_cascade
    (DiceExpr(count=2, sides=6, modifier=0), 'whole-line-once')
    >>> harsher = CHOICES.replace(parameters={"break_ld_per_point": 2})
    >>> harsher.changed()
    {'break_ld_per_point': 2}
    >>> CHOICES.replace(parameters={"leadership_dice": "20D20!kh10"})
    Traceback (most recent call last):
    ...
    rulesbook.errors.CostError: leadership_dice: 20D20!kh10 would need about 61.7 times the work the calculators allow (about 1 s); use fewer dice, smaller dice, or no explosion or keep/drop
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rulesbook.choices import Parameters, Readings, RuleChoices, parameter, reading
from rulesbook.dice import TWO_D6, DiceExpr
from rulesbook.errors import InputError

__all__ = [
    "CHOICES",
    "ScrollhammerChoices",
    "ScrollhammerParameters",
    "ScrollhammerReadings",
]


@dataclass(frozen=True)
class ScrollhammerParameters(Parameters):
    """The numbers and dice of the Morale section (value, label, rule ID, source section, bounds)."""

    leadership_dice: DiceExpr = parameter(
        TWO_D6,
        label="Leadership test dice",
        rule="scrollhammer.morale.check",
        section="Morale Checks",
        minimum=1,
        help="Rolled for every Leadership-based test (Morale checks, Regroup tests); "
        "a total at or below Ld passes.",
    )
    insane_heroism: bool = parameter(
        True,
        label="Insane Heroism",
        rule="scrollhammer.morale.insane-heroism",
        section="Insane Heroism",
        help="A roll on which every die shows the Insane Heroism face passes any Morale check.",
    )
    insane_heroism_face: int = parameter(
        1,
        label="Insane Heroism face",
        rule="scrollhammer.morale.insane-heroism",
        section="Insane Heroism",
        minimum=1,
        maximum=6,
        help="The face every die must show for Insane Heroism (a double 1).",
    )
    falling_back_fails: bool = parameter(
        True,
        label="Falling-back units fail Morale checks",
        rule="scrollhammer.morale.falling-back-fails",
        section="Morale and Falling Back",
        help="A unit that is falling back fails every Morale check without rolling.",
    )
    casualties_percent: int = parameter(
        25,
        label="Casualties test threshold (%)",
        rule="scrollhammer.morale.casualties-test",
        section="Morale Checks",
        minimum=1,
        maximum=100,
        help="Losing at least this share of the unit's models in one Shooting phase forces a Morale check.",
    )
    break_ld_per_point: int = parameter(
        1,
        label="Ld lost per point of defeat",
        rule="scrollhammer.morale.break-test",
        section="Morale Checks",
        minimum=0,
        maximum=6,
        help="A Break test is taken at Ld minus this much for every point the combat was lost by.",
    )
    fall_back_dice: DiceExpr = parameter(
        TWO_D6,
        label="Fall Back dice",
        rule="scrollhammer.fall-back.distance",
        section="Fall Back",
        minimum=1,
        help="The Fall Back roll of most units, in inches (the default of every Fall Back dice input).",
    )
    combat_clearance: int = parameter(
        1,
        label='Clearance from the combat (")',
        rule="scrollhammer.fall-back.from-combat",
        section="Falling Back from Close Combat",
        minimum=0,
        maximum=6,
        help="A model fleeing a combat ends its move at least this far from that combat's enemies.",
    )
    weak_unit_percent: int = parameter(
        0,
        label="Weak unit: below this % of its starting strength",
        rule="scrollhammer.morale.modifiers",
        section="Leadership modifiers (a designer's rule: off, 0, in the published rules)",
        minimum=0,
        maximum=100,
        help="A unit with fewer models than this share of its starting strength takes "
        "weak_unit_modifier on every Leadership-based test (0: no such rule).",
    )
    weak_unit_modifier: int = parameter(
        0,
        label="Weak unit: Leadership modifier",
        rule="scrollhammer.morale.modifiers",
        section="Leadership modifiers (a designer's rule: off, 0, in the published rules)",
        minimum=-10,
        maximum=10,
        help="Added to the Leadership of a weak unit (see weak_unit_percent) on every test; -2 makes "
        "it test at Ld − 2.",
    )
    regroup_percent: int = parameter(
        50,
        label="Regroup strength threshold (%)",
        rule="scrollhammer.regroup.test",
        section="Regrouping",
        minimum=1,
        maximum=100,
        help="With at least this share of its models alive a unit regroups on a normal Leadership "
        "test; with fewer only Insane Heroism regroups it.",
    )
    regroup_move: int = parameter(
        3,
        label='Move after regrouping (")',
        rule="scrollhammer.regroup.after-regrouping",
        section="Regrouping",
        minimum=0,
        maximum=12,
        help="How far a unit that has just regrouped may move at once.",
    )

    def __post_init__(self) -> None:
        dice = self.leadership_dice
        if dice.is_constant:
            raise InputError("leadership_dice", f"a Leadership test rolls dice, got {dice}")
        smallest = min(dice.rolled_sides())
        if self.insane_heroism_face > smallest:
            raise InputError("insane_heroism_face", f"a D{smallest} has no face {self.insane_heroism_face}")


@dataclass(frozen=True)
class ScrollhammerReadings(Readings):
    """One typed field per entry of the interpretations register (field name = input key)."""

    ld_bounds: Literal["none", "max-10"] = reading("scrollhammer.interpretations.ld-bounds", "none")
    heroism_low_ld: Literal["passes", "fails"] = reading(
        "scrollhammer.interpretations.heroism-low-ld", "passes"
    )
    heroism_when_falling_back: Literal["automatic-failure", "heroism-passes"] = reading(
        "scrollhammer.interpretations.heroism-when-falling-back", "automatic-failure"
    )
    immune_units: Literal["no-checks", "passes-everything"] = reading(
        "scrollhammer.interpretations.immune-units", "no-checks"
    )
    pinning_tests: Literal["per-attack", "per-phase"] = reading(
        "scrollhammer.interpretations.pinning-tests", "per-attack"
    )
    casualties_timing: Literal["end-of-phase", "when-reached"] = reading(
        "scrollhammer.interpretations.casualties-timing",
        "end-of-phase",
        inert="one test either way: when it is taken changes no probability",
    )
    casualties_rounding: Literal["exact", "round-down"] = reading(
        "scrollhammer.interpretations.casualties-rounding", "exact"
    )
    panic_cascade: Literal["whole-line-once", "next-unit", "whole-line-each-time"] = reading(
        "scrollhammer.interpretations.panic-cascade", "whole-line-once"
    )
    slowest_model: Literal["slowest-dice", "lowest-roll"] = reading(
        "scrollhammer.interpretations.slowest-model", "slowest-dice"
    )
    edge_distance: Literal["rearmost-model", "nearest-model"] = reading(
        "scrollhammer.interpretations.edge-distance",
        "rearmost-model",
        inert="the distance typed decides which question is answered; the arithmetic is the same",
    )
    trapped_fit: Literal["exact-fit-escapes", "exact-fit-trapped"] = reading(
        "scrollhammer.interpretations.trapped-fit", "exact-fit-escapes"
    )
    regroup_half: Literal["half-counts", "half-is-under"] = reading(
        "scrollhammer.interpretations.regroup-half", "half-counts"
    )
    heroism_in_regroup: Literal["applies", "total-only"] = reading(
        "scrollhammer.interpretations.heroism-in-regroup", "applies"
    )
    fleeing_unit_fails_again: Literal["extra-move", "no-extra-move"] = reading(
        "scrollhammer.interpretations.fleeing-unit-fails-again",
        "extra-move",
        inert="the Fall Back chain counts the Movement phases' moves only; the Panic cascade's "
        "units are steady",
    )
    movement_phases: Literal["own-phases-only", "every-movement-phase"] = reading(
        "scrollhammer.interpretations.movement-phases", "own-phases-only"
    )
    break_test_distance: Literal["before-first-move", "after-first-move"] = reading(
        "scrollhammer.interpretations.break-test-distance", "before-first-move"
    )
    casualties_choice: Literal["must-test", "may-fall-back"] = reading(
        "scrollhammer.interpretations.casualties-choice",
        "must-test",
        inert="p_fall_back is the chance for a unit that takes the check; a player who flees flees",
    )
    positive_modifiers: Literal["allowed", "ignored"] = reading(
        "scrollhammer.interpretations.positive-modifiers", "allowed"
    )
    heroism_dice: Literal["kept-dice", "every-die-rolled"] = reading(
        "scrollhammer.interpretations.heroism-dice",
        "kept-dice",
        inert="the printed Leadership dice (2D6) keep and drop nothing, so both readings read the "
        "same two dice; it matters only for a variant's dice that keep or drop (say 3D6kl2)",
    )
    regroup_modifiers: Literal["not-applied", "applied"] = reading(
        "scrollhammer.interpretations.regroup-modifiers",
        "not-applied",
        inert="the Regroup calculators take no modifier: under the alternative, type the modified Ld",
    )


type ScrollhammerChoices = RuleChoices[ScrollhammerParameters, ScrollhammerReadings]

CHOICES: ScrollhammerChoices = RuleChoices(
    system="scrollhammer", parameters=ScrollhammerParameters(), readings=ScrollhammerReadings()
)
"""The Morale section as written, with the register's default readings."""
