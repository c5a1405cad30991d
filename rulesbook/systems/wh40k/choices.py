"""The rule choices of Warhammer 40,000, declared once: the numbers and dice the rules fix
(:class:`Wh40kParameters`, each with its rule ID and the source section of
``004_7134931f915e24a0.txt`` it comes from) and the readings of the interpretations register
(:class:`Wh40kReadings`, one typed field per entry of ``rules.yaml``, checked at load).

The rolls (:mod:`~rulesbook.systems.wh40k.attack.rolls`), the engine and the calculators take the whole choice set
(:data:`CHOICES` or a changed copy), never loose strings.

Example:
    >>> CHOICES.parameters.blast_models_per_attack, CHOICES.readings.wound_table
    (5, 'published')
    >>> variant = CHOICES.replace(parameters={"blast_models_per_attack": 3}, readings={"wound_table": "flat-4"})
    >>> variant.changed()
    {'blast_models_per_attack': 3, 'wound_table': 'flat-4'}
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rulesbook.choices import Parameters, Readings, RuleChoices, parameter, reading
from rulesbook.dice import DiceExpr, parse_dice

__all__ = ["CHOICES", "Wh40kChoices", "Wh40kParameters", "Wh40kReadings"]


@dataclass(frozen=True)
class Wh40kParameters(Parameters):
    """The numbers and dice the 10th-edition core rules fix."""

    blast_models_per_attack: int = parameter(
        5,
        label="Models per extra Blast attack",
        rule="wh40k.attack.blast",
        section="Blast",
        minimum=1,
        maximum=20,
        help="A Blast weapon makes one extra attack for every this many models in the target (rounded down).",
    )
    hit_modifier_cap: int = parameter(
        1,
        label="Hit roll modifier cap",
        rule="wh40k.attack.hit-roll",
        section="Hit Roll",
        minimum=0,
        maximum=6,
        help="The sum of Hit roll modifiers counts as at most this much either way.",
    )
    wound_modifier_cap: int = parameter(
        1,
        label="Wound roll modifier cap",
        rule="wh40k.attack.wound-roll",
        section="Wound Roll",
        minimum=0,
        maximum=6,
        help="The sum of Wound roll modifiers counts as at most this much either way.",
    )
    save_improvement_cap: int = parameter(
        1,
        label="Saving throw improvement cap",
        rule="wh40k.attack.saving-throw",
        section="Saving Throw",
        minimum=0,
        maximum=6,
        help="A saving throw is improved by at most this much.",
    )
    critical_roll: int = parameter(
        6,
        label="Critical Hit / Critical Wound roll",
        rule="wh40k.attack.hit-roll",
        section="Hit Roll; Wound Roll",
        minimum=2,
        maximum=6,
        help="An unmodified Hit or Wound roll of this or more is critical (a rule may lower it further).",
    )
    heavy_hit_bonus: int = parameter(
        1,
        label="Heavy bonus to hit",
        rule="wh40k.attack.heavy",
        section="Heavy",
        minimum=0,
        maximum=3,
        help="Added to the Hit rolls of a Heavy weapon whose unit Remained Stationary.",
    )
    stealth_hit_penalty: int = parameter(
        1,
        label="Stealth penalty to hit",
        rule="wh40k.attack.stealth",
        section="Stealth",
        minimum=0,
        maximum=3,
        help="Subtracted from ranged Hit rolls against a unit whose models all have Stealth.",
    )
    overwatch_hit_roll: int = parameter(
        6,
        label="Fire Overwatch hits on",
        rule="wh40k.attack.fire-overwatch",
        section="Fire Overwatch",
        minimum=2,
        maximum=6,
        help="Under Fire Overwatch only an unmodified Hit roll of this or more hits.",
    )
    cover_save_bonus: int = parameter(
        1,
        label="Benefit of Cover save bonus",
        rule="wh40k.attack.benefit-of-cover",
        section="Benefit of Cover",
        minimum=0,
        maximum=3,
        help="Added to the armour save against a ranged attack when the target has the Benefit of Cover.",
    )
    cover_denied_save: int = parameter(
        3,
        label="No cover against AP 0 at Save",
        rule="wh40k.attack.benefit-of-cover",
        section="Benefit of Cover",
        minimum=1,
        maximum=7,
        help="Models with this Save or better get no Benefit of Cover against AP 0 attacks.",
    )
    battle_shock_dice: DiceExpr = parameter(
        parse_dice("2D6"),
        label="Battle-shock dice",
        rule="wh40k.core.battle-shock",
        section="Battle-shock",
        minimum=1,
        help="Rolled for a Battle-shock test; the test passes at or above the unit's Leadership.",
    )
    below_strength_fraction: Fraction = parameter(
        Fraction(1, 2),
        label="Below Half-strength fraction",
        rule="wh40k.core.starting-strength",
        section="2. Battle-shock",
        minimum=0,
        maximum=1,
        help="A unit is below strength with fewer models (a lone model: fewer wounds) than this "
        "share of its Starting Strength: 1/2 is the rule; 1/3 means below a third.",
    )
    battle_shock_margin: int = parameter(
        0,
        label="Battle-shock margin over Leadership",
        rule="wh40k.core.battle-shock",
        section="Battle-shock",
        minimum=0,
        maximum=6,
        help="The roll must reach Leadership plus this margin: 0 (the rule) passes at or above "
        "Leadership, 1 only above it.",
    )
    desperate_escape_fails_up_to: int = parameter(
        2,
        label="Desperate Escape fails up to",
        rule="wh40k.core.desperate-escape",
        section="Desperate Escape Tests",
        minimum=1,
        maximum=5,
        help="A Desperate Escape D6 of this or less destroys a model.",
    )
    hazardous_fails_up_to: int = parameter(
        1,
        label="Hazardous test fails up to",
        rule="wh40k.attack.hazardous",
        section="Hazardous",
        minimum=1,
        maximum=5,
        help="A Hazardous test D6 of this or less fails.",
    )
    hazardous_mortal_wounds: int = parameter(
        3,
        label="Mortal wounds per failed Hazardous test",
        rule="wh40k.attack.hazardous",
        section="Hazardous",
        minimum=0,
        maximum=10,
        help="Mortal wounds a bearer suffers for each failed Hazardous test.",
    )
    deadly_demise_roll: int = parameter(
        6,
        label="Deadly Demise explodes on",
        rule="wh40k.core.deadly-demise",
        section="Deadly Demise",
        minimum=2,
        maximum=6,
        help="The destroyed model explodes on a D6 of this or more.",
    )
    charge_dice: DiceExpr = parameter(
        parse_dice("2D6"),
        label="Charge roll dice",
        rule="wh40k.core.charge",
        section="Charging with a Unit",
        minimum=1,
        help="Rolled for a Charge roll; the total is the most inches each charging model may move.",
    )
    advance_dice: DiceExpr = parameter(
        parse_dice("D6"),
        label="Advance roll dice",
        rule="wh40k.core.advance",
        section="Advance Moves",
        minimum=1,
        help="Rolled for an Advance roll and added to the Move characteristic.",
    )
    engagement_range: int = parameter(
        1,
        label="Engagement Range (inches, horizontal)",
        rule="wh40k.core.engagement-range",
        section="Engagement Range",
        minimum=0,
        maximum=6,
        help="Models this close horizontally (and within 5 inches vertically) are within Engagement Range.",
    )


@dataclass(frozen=True)
class Wh40kReadings(Readings):
    """One field per entry of the wh40k interpretations register (field name = the public input
    key of the calculators that switch it)."""

    wound_table: Literal["published", "flat-4"] = reading("wh40k.interpretations.wound-table", "published")
    devastating_excess: Literal["lost", "spills"] = reading(
        "wh40k.interpretations.devastating-excess", "lost"
    )
    devastating_modifiers: Literal["apply", "ignore"] = reading(
        "wh40k.interpretations.devastating-modifiers", "apply"
    )
    save_cap: Literal["net", "improvements"] = reading("wh40k.interpretations.save-cap", "net")
    lethal_devastating: Literal["not-critical-wound", "critical-wound"] = reading(
        "wh40k.interpretations.lethal-devastating", "not-critical-wound"
    )
    sustained_roll: Literal["per-critical-hit", "once-per-weapon"] = reading(
        "wh40k.interpretations.sustained-roll", "per-critical-hit"
    )
    sustained_lethal: Literal["critical-hit-only", "every-hit"] = reading(
        "wh40k.interpretations.sustained-lethal", "critical-hit-only"
    )
    twin_linked: Literal["failed", "non-critical"] = reading("wh40k.interpretations.twin-linked", "failed")
    overwatch_criticals: Literal["sixes-only", "critical-threshold"] = reading(
        "wh40k.interpretations.overwatch-criticals", "sixes-only"
    )
    allocation: Literal["excess-lost", "excess-spills"] = reading(
        "wh40k.interpretations.allocation", "excess-lost"
    )
    damage_minimum: Literal["min-1", "min-0"] = reading("wh40k.interpretations.damage-minimum", "min-1")
    fnp_combined: Literal["better-one", "both-rolled"] = reading(
        "wh40k.interpretations.fnp-combined", "better-one"
    )
    published_abilities: Literal["published", "source-only"] = reading(
        "wh40k.interpretations.published-abilities", "published"
    )
    mortarion_characteristics: Literal["published", "inputs", "not-modelled"] = reading(
        "wh40k.interpretations.mortarion-characteristics", "published"
    )
    contagion_range: Literal["published", "toughness-input", "not-modelled"] = reading(
        "wh40k.interpretations.contagion-range", "published"
    )
    lord_of_the_death_guard: Literal["ignores", "applies"] = reading(
        "wh40k.interpretations.lord-own-modifiers", "ignores"
    )
    sickness_caps: Literal["characteristic", "roll-modifier"] = reading(
        "wh40k.interpretations.sickness-modifier-caps", "characteristic"
    )
    outside_attack_rules: Literal["skip", "refuse"] = reading(
        "wh40k.interpretations.outside-attack-rules", "skip"
    )
    lord_save_characteristic: Literal["ignores", "applies"] = reading(
        "wh40k.interpretations.lord-save-characteristic", "ignores"
    )
    lord_weapon_characteristics: Literal["skill-not-damage", "both", "neither"] = reading(
        "wh40k.interpretations.lord-weapon-characteristics", "skill-not-damage"
    )
    boilblight_reach: Literal["any-unit", "attacking-unit"] = reading(
        "wh40k.interpretations.boilblight-reach", "any-unit"
    )
    infected_positions: Literal["two-inputs", "one-input"] = reading(
        "wh40k.interpretations.infected-positions", "two-inputs"
    )
    own_auras: Literal["like-lord", "lord-only"] = reading("wh40k.interpretations.own-auras", "like-lord")
    mixed_toughness: Literal["majority", "highest"] = reading(
        "wh40k.interpretations.mixed-toughness", "majority"
    )
    mixed_allocation: Literal["most-numerous-first", "listed-order"] = reading(
        "wh40k.interpretations.mixed-allocation", "most-numerous-first"
    )
    critical_ap_order: Literal["critical-last", "critical-first"] = reading(
        "wh40k.interpretations.critical-ap-order", "critical-last"
    )
    imported_text_only: Literal["listed", "refused"] = reading(
        "wh40k.interpretations.imported-text-only", "listed"
    )
    torrent_no_skill: Literal["critical-only", "refuse"] = reading(
        "wh40k.interpretations.torrent-no-skill", "critical-only"
    )
    fight_order: Literal["published", "active-first"] = reading(
        "wh40k.interpretations.fight-order",
        "published",
        inert="the fight order decides which unit strikes first, not the dice of an attack",
    )
    insane_bravery: Literal["both-versions", "core-only"] = reading(
        "wh40k.interpretations.insane-bravery-versions",
        "both-versions",
        inert="either version leaves the unit not Battle-shocked; both ship with their own IDs",
    )
    command_re_roll: Literal["both-versions", "core-only"] = reading(
        "wh40k.interpretations.command-re-roll-versions",
        "both-versions",
        inert="one re-roll of a roll chosen at the table; both versions ship with their own IDs",
    )
    characters_section: Literal["leader-attached", "characters-section"] = reading(
        "wh40k.interpretations.characters-section",
        "leader-attached",
        inert="no attack number depends on the older Characters paragraph",
    )
    nurgles_gift_faction: Literal["death-guard", "any-army"] = reading(
        "wh40k.interpretations.nurgles-gift-faction",
        "death-guard",
        inert="Mortarion is always in a Death Guard army here, so both readings give the same numbers",
    )
    hazardous_outcome: Literal["three-mortal-wounds", "destroyed-unless-character"] = reading(
        "wh40k.interpretations.hazardous-lost-sentence",
        "three-mortal-wounds",
        inert="wh40k.hazardous takes the mortal wounds from the parameter hazardous_mortal_wounds",
    )
    torrent_overwatch: Literal["auto-hit", "sixes-only"] = reading(
        "wh40k.interpretations.torrent-overwatch", "auto-hit"
    )
    invuln_modifiers: Literal["other-modifiers-apply", "armour-only"] = reading(
        "wh40k.interpretations.invulnerable-modifiers", "other-modifiers-apply"
    )
    remained_stationary_default: Literal["stationary", "moved"] = reading(
        "wh40k.interpretations.remained-stationary",
        "stationary",
        inert="it is the default of the remained_stationary situation input (true); the input decides",
    )
    charge_gap: Literal["engagement-range", "base-contact"] = reading(
        "wh40k.interpretations.charge-gap", "engagement-range"
    )
    below_half_strength: Literal["fewer-than-half", "at-most-half"] = reading(
        "wh40k.interpretations.below-half-strength", "fewer-than-half"
    )
    battle_shocked_falls_back: Literal["falls-back", "stays"] = reading(
        "wh40k.interpretations.battle-shocked-falls-back", "falls-back"
    )
    battle_shock_modifiers: Literal["summed", "capped"] = reading(
        "wh40k.interpretations.battle-shock-modifiers", "summed"
    )
    battle_shock_phase: Literal["command-phase", "any-phase"] = reading(
        "wh40k.interpretations.battle-shock-phase", "command-phase"
    )
    precision: Literal["character-first", "ignored"] = reading(
        "wh40k.interpretations.precision", "character-first"
    )
    sustained_stacking: Literal["larger-on-average", "stratagem-replaces"] = reading(
        "wh40k.interpretations.sustained-stacking", "larger-on-average"
    )
    moves_without_dice: Literal["limits-feed-dice-calculators", "table-geometry"] = reading(
        "wh40k.interpretations.moves-without-dice",
        "limits-feed-dice-calculators",
        inert="Normal moves, Disembark and Deep Strike roll no dice; their limits are other calculators' inputs",
    )
    pistol: Literal["warn-when-mixed", "no-warning"] = reading(
        "wh40k.interpretations.pistol",
        "warn-when-mixed",
        inert="Pistol decides which weapons may fire, not any roll; it only changes a warning",
    )
    rerolled_dice: Literal["whole-roll", "kept-dice"] = reading(
        "wh40k.interpretations.rerolled-dice",
        "whole-roll",
        inert="the printed Charge and Advance dice (2D6, D6) keep and drop nothing, so both readings "
        "roll the same dice again; it matters only for a variant's dice that keep or drop (say 3D6kh2)",
    )
    crit_threshold_words: Literal["lowest", "cumulative"] = reading(
        "wh40k.interpretations.crit-threshold-words",
        "lowest",
        inert="no printed weapon has a crit-hit-N or crit-wound-N word; it matters only for a "
        "designer's weapon or effect that gives one",
    )
    unstated_target_keywords: Literal["not-applied", "applies"] = reading(
        "wh40k.interpretations.unstated-target-keywords",
        "not-applied",
        inert="no printed effect names target keywords; it matters only for a variant's added entries",
    )


type Wh40kChoices = RuleChoices[Wh40kParameters, Wh40kReadings]

CHOICES: Wh40kChoices = RuleChoices(system="wh40k", parameters=Wh40kParameters(), readings=Wh40kReadings())
"""The rule choices as published (every parameter and reading at its default; a variant may add
stratagems, abilities, detachment rules and enhancements, which the system package declares:
:class:`~rulesbook.systems.wh40k.faction.additions.Wh40kAdditions`)."""
