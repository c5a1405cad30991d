"""The one path of the attack calculators (``wh40k.attack``, ``wh40k.mortarion``,
``wh40k.sequence``): inputs → weapons, target, situation and rule choices → checks → the
engine → result values, tables and explanation.

Each calculator only says how its own inputs become :class:`Attackers` (one form weapon, data
weapons chosen by key, or typed profiles); :func:`declare_attack_calculator` declares the calculator
around that, with the shared situation, target and reading inputs, the shared checks and the
shared presentation.

Example:
    >>> from rulesbook.registry import registry
    >>> r = registry().calculator("wh40k.sequence").run(
    ...     weapons="A=10 BS=3 S=4 AP=-1 D=1", toughness=4, save=3, wounds=1, models=10)
    >>> r["mean_wounds_lost_exact"]
    '5/3'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import Any

from rulesbook.calculators import Calculator, FastFn, Output, calculator, distribution_output
from rulesbook.dice import REROLLS
from rulesbook.errors import CostError, InputError
from rulesbook.inputs import BoolInput, ChoiceInput, Input, IntInput, WordListInput, optional
from rulesbook.records import load_system_data
from rulesbook.relations import Needs
from rulesbook.results import CalcResult, Column, Table
from rulesbook.systems.wh40k.attack.cost import (
    FLOAT_LIMIT,
    HARD_FACTOR,
    MAX_ATTACKS,
    MAX_TOTAL_WOUNDS,
    WORK_LIMIT,
    predicted_cost,
    refuse_costly,
    too_costly,
)
from rulesbook.systems.wh40k.attack.engine import (
    JOINT_LIMIT,
    ApproximateResult,
    SequenceResult,
    joint_packets_bound,
    plan,
    resolve,
)
from rulesbook.systems.wh40k.attack.rolls import (
    Situation,
    attacks_distribution,
)
from rulesbook.systems.wh40k.attack.situational import in_situation
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon
from rulesbook.systems.wh40k.attack.work import WorkLimitExceeded
from rulesbook.systems.wh40k.calculators.report import (
    ability_warnings,
    outcome_lines,
    pistol_warnings,
    present,
    roll_lines,
)
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices, Wh40kReadings

__all__ = [
    "ATTACK_RULES",
    "ENGINE_FIXED",
    "OUTPUTS",
    "REROLL_CHOICES",
    "SITUATION_INPUTS",
    "TARGET_INPUTS",
    "Attackers",
    "answer",
    "attack_seconds",
    "check_attackers",
    "declare_attack_calculator",
    "situation_of",
    "target_of",
]

REROLL_CHOICES = tuple(r for r in REROLLS if r != "all")

SITUATION_INPUTS: tuple[Input, ...] = (
    IntInput(
        key="hit_modifier",
        label="Hit roll modifier",
        help="Sum of other Hit roll modifiers (Heavy and Stealth are added for you); total capped at ±1.",
        minimum=-3,
        maximum=3,
        default=0,
    ),
    IntInput(
        key="wound_modifier",
        label="Wound roll modifier",
        help="Sum of Wound roll modifiers; the total is capped at ±1.",
        minimum=-3,
        maximum=3,
        default=0,
    ),
    ChoiceInput(
        key="reroll_hits",
        label="Re-roll Hit rolls",
        help="none, ones (re-roll a 1) or failed (re-roll every miss).",
        choices=REROLL_CHOICES,
        default="none",
    ),
    ChoiceInput(
        key="reroll_wounds",
        label="Re-roll Wound rolls",
        help="none, ones or failed (Twin-linked re-rolls failures anyway).",
        choices=REROLL_CHOICES,
        default="none",
    ),
    IntInput(
        key="critical_hit",
        label="Critical Hit on",
        help="Unmodified Hit roll that is a Critical Hit (6 unless a rule lowers it).",
        minimum=2,
        maximum=6,
        default=6,
    ),
    IntInput(
        key="critical_wound",
        label="Critical Wound on",
        help="Unmodified Wound roll that is a Critical Wound (6; Anti-X lowers it for you).",
        minimum=2,
        maximum=6,
        default=6,
    ),
    BoolInput(
        key="remained_stationary",
        label="Remained Stationary",
        help=(
            "The attacking unit did not move this turn (Heavy weapons get +1 to hit); true unless "
            "told otherwise (interpretation wh40k.interpretations.remained-stationary)."
        ),
        default=True,
    ),
    BoolInput(
        key="overwatch",
        label="Fire Overwatch",
        help="Shooting with the Fire Overwatch Stratagem: only unmodified 6s hit.",
        default=False,
    ),
    BoolInput(
        key="half_range",
        label="Within half range",
        help="The target is within half the weapon's range: Rapid Fire X adds X attacks, Melta X adds X Damage.",
        default=False,
    ),
    BoolInput(
        key="charged",
        label="Charged this turn",
        help="The attacking unit made a Charge move this turn: Lance weapons add 1 to the Wound roll.",
        default=False,
    ),
    BoolInput(
        key="target_visible",
        label="Target visible",
        help="A model of the target is visible to the attacker; if not, Indirect Fire takes 1 off the Hit roll and the target has cover.",
        default=True,
    ),
)
"""The attacker's situation (with ``save_modifier`` among the target inputs): the fields of
:class:`~rulesbook.systems.wh40k.attack.rolls.Situation`."""

TARGET_INPUTS: tuple[Input, ...] = (
    IntInput(key="toughness", label="Toughness (T)", help="The target's Toughness.", minimum=1, maximum=20),
    IntInput(
        key="save",
        label="Save (Sv)",
        help="The X of the target's Save X+ (7 = no armour save).",
        minimum=2,
        maximum=7,
    ),
    optional(
        IntInput(
            key="invuln",
            label="Invulnerable save",
            help="The X of an invulnerable save X+, or none.",
            minimum=2,
            maximum=6,
        )
    ),
    IntInput(key="wounds", label="Wounds per model (W)", help="Wounds of each model.", minimum=1, maximum=40),
    IntInput(
        key="models", label="Models", help="Models in the target unit.", minimum=1, maximum=40, default=1
    ),
    optional(
        IntInput(
            key="fnp", label="Feel No Pain", help="The X of Feel No Pain X+, or none.", minimum=2, maximum=6
        )
    ),
    optional(
        IntInput(
            key="fnp_mortal",
            label="Feel No Pain (mortal wounds)",
            help=(
                "The X of a Feel No Pain X+ against mortal wounds only (here: Devastating Wounds), or "
                "none; with fnp too, a mortal wound meets the better one (reading fnp_combined)."
            ),
            minimum=2,
            maximum=6,
        )
    ),
    BoolInput(
        key="cover",
        label="Benefit of Cover",
        help="The target has the Benefit of Cover (ranged attacks only; +1 armour save).",
        default=False,
    ),
    BoolInput(
        key="stealth",
        label="Stealth",
        help="Every model in the target has Stealth (−1 to hit with ranged attacks).",
        default=False,
    ),
    IntInput(
        key="damage_reduction",
        label="Damage reduction",
        help=(
            "Subtract this from the Damage of each attack (minimum 1). Disgustingly Resilient (1) "
            "works in the Fight phase only: wh40k.datasheet-attack applies it by phase."
        ),
        minimum=0,
        maximum=5,
        default=0,
    ),
    IntInput(
        key="save_modifier",
        label="Other save modifier",
        help=(
            "Other saving throw modifiers besides AP and cover (improvements capped at +1); they "
            "apply to an invulnerable save too unless invuln_modifiers=armour-only."
        ),
        minimum=-3,
        maximum=3,
        default=0,
    ),
    WordListInput(
        key="target_keywords",
        label="Target keywords",
        help="Keywords of the target for Anti-X (e.g. infantry,monster); empty: every Anti-X given applies.",
        words=(("[a-z]+(?:-[a-z]+)*", "lower-case keywords"),),
        default=(),
    ),
)

READING_KEYS = (
    "wound_table",
    "devastating_excess",
    "devastating_modifiers",
    "save_cap",
    "lethal_devastating",
    "sustained_roll",
    "twin_linked",
    "overwatch_criticals",
    "allocation",
    "damage_minimum",
    "fnp_combined",
    "published_abilities",
    "torrent_overwatch",
    "invuln_modifiers",
)
"""The readings the attack calculators let a user switch (their public input keys)."""


def _reading_input(key: str) -> Input:
    spec = Wh40kReadings.spec(key)
    question = _QUESTIONS[spec.interpretation]
    return Wh40kReadings.input(key, help=f"{question} (interpretation {spec.interpretation})")


_QUESTIONS = {i.id: i.question for i in load_system_data(Path(__file__).parent.parent / "rules.yaml")[2]}
READING_INPUTS: tuple[Input, ...] = tuple(_reading_input(key) for key in READING_KEYS)

OUTPUTS: tuple[Output, ...] = (
    Output(
        "mean_wounds_lost",
        "Mean wounds lost",
        "number",
        "Wounds the target really loses (excess damage not counted).",
    ),
    Output(
        "mean_models_destroyed", "Mean models destroyed", "number", "Expected number of models destroyed."
    ),
    Output("p_unit_destroyed", "P(unit destroyed)", "probability", "Chance that every model is destroyed."),
    Output(
        "p_at_least_one_model",
        "P(at least one model destroyed)",
        "probability",
        "Chance that a model is destroyed.",
    ),
    Output(
        "models_destroyed",
        "P(exactly k models destroyed)",
        "list",
        "Index k holds P(exactly k models destroyed).",
        chart=("Models destroyed",),
    ),
    Output(
        "wounds_lost",
        "P(exactly k wounds lost)",
        "list",
        "Index k holds P(exactly k wounds lost).",
        chart=("Wounds lost",),
    ),
    Output(
        "approximate",
        "Approximate (floating point)",
        "bool",
        "True when the exact answer would be too large and the same method ran in floating point.",
        when="only for inputs whose exact answer would run to thousands of digits",
    ),
    Output(
        "breakdown",
        "Step by step",
        "table",
        "Mean attacks, hits, wounds, unsaved, damage per weapon.",
        columns=(
            Column("weapon", "Weapon"),
            Column("attacks", "Attacks"),
            Column("hits", "Hits"),
            Column("wounds", "Wounds"),
            Column("devastating", "Devastating wounds"),
            Column("unsaved", "Unsaved"),
            Column("damage", "Damage"),
        ),
    ),
    distribution_output(
        "models_destroyed_table",
        "Models destroyed",
        Column("models", "Models destroyed"),
        "P(exactly k) and P(at least k) models.",
        chart=False,
    ),
)

ATTACK_RULES = (
    "wh40k.attack.sequence",
    "wh40k.attack.attacks",
    "wh40k.attack.blast",
    "wh40k.attack.hit-roll",
    "wh40k.attack.heavy",
    "wh40k.attack.stealth",
    "wh40k.attack.fire-overwatch",
    "wh40k.attack.torrent",
    "wh40k.attack.sustained-hits",
    "wh40k.attack.lethal-hits",
    "wh40k.attack.wound-roll",
    "wh40k.attack.anti",
    "wh40k.attack.twin-linked",
    "wh40k.attack.devastating-wounds",
    "wh40k.attack.saving-throw",
    "wh40k.attack.invulnerable-save",
    "wh40k.attack.benefit-of-cover",
    "wh40k.attack.ignores-cover",
    "wh40k.attack.damage",
    "wh40k.attack.feel-no-pain",
    "wh40k.attack.allocation",
    "wh40k.attack.mortal-wounds",
    "wh40k.core.rerolls",
    "wh40k.attack.rapid-fire",
    "wh40k.attack.melta",
    "wh40k.attack.lance",
    "wh40k.attack.indirect-fire",
)
"""Every rule one weapon's attack executes (used by wh40k.attack and wh40k.sequence)."""


RANGED_DAMAGE_REDUCTION = (
    "damage_reduction with a ranged attack: kept as given, but the page's Damage reduction, "
    "Disgustingly Resilient, is a Fight phase Stratagem (wh40k.datasheet-attack applies it by phase)"
)
"""The word said when a Damage reduction meets a ranged attack in the generic calculators."""


def target_of(values: Mapping[str, Any]) -> Target:
    """The target unit of the target inputs."""
    return Target(
        toughness=values["toughness"],
        save=values["save"],
        wounds=values["wounds"],
        models=values["models"],
        invuln=values["invuln"],
        fnp=values["fnp"],
        fnp_mortal=values["fnp_mortal"],
        cover=values["cover"],
        stealth=values["stealth"],
        damage_reduction=values["damage_reduction"],
        keywords=tuple(values["target_keywords"]) or None,
    )


def situation_of(values: Mapping[str, Any], extra_hit_modifier: int = 0) -> Situation:
    """The attacker's situation of the situation inputs (plus a unit's own Hit modifier)."""
    given = {name: values[name] for name in _SITUATION_FIELDS & values.keys()}
    if extra_hit_modifier:
        given["hit_modifier"] = given.get("hit_modifier", 0) + extra_hit_modifier
    return Situation(**given)


_SITUATION_FIELDS = frozenset(f.name for f in fields(Situation))


def choices_of(
    values: Mapping[str, Any], base: Wh40kChoices | None = None, extra: Sequence[str] = ()
) -> Wh40kChoices:
    """The choice set ``base`` (a variant's; the published rules' when None) with the readings
    chosen in the inputs: the attack readings and the calculator's ``extra`` reading inputs."""
    base = base or CHOICES
    now = base.readings
    if not extra and _READINGS_OF_INPUTS(values) == _READINGS_OF_CHOICES(now):
        return base  # every reading as the choice set has it (one comparison of two tuples)
    changed = {key: values[key] for key in (*READING_KEYS, *extra) if values[key] != getattr(now, key)}
    return base.replace(readings=changed) if changed else base


_READINGS_OF_INPUTS = itemgetter(*READING_KEYS)
_READINGS_OF_CHOICES = attrgetter(*READING_KEYS)


type EffectsHook = Callable[
    [tuple[Weapon, ...], Target, Situation, Wh40kChoices], tuple[tuple[Weapon, ...], Target, Situation]
]
"""A calculator's own declared effects on the attack (``wh40k.mortarion``: Lord of the Death
Guard and Damaged, through :func:`~rulesbook.systems.wh40k.faction.sides.apply_effects`): weapons, target, situation and the
rule choices in, the changed weapons, target and situation out."""


@dataclass(frozen=True, slots=True)
class Attackers:
    """What one calculator's own inputs say: the weapons in order, how errors name them (the
    ``field`` and a label per weapon, ``""`` for a lone form weapon), the unit's own Hit roll
    modifier, explanation lines to lead with, whether to warn about accepted-but-inert ability
    words, what to say if shooting and fighting weapons are mixed, and the calculator's own
    effects on the attack (applied after the target and situation are read from the inputs)."""

    weapons: tuple[Weapon, ...]
    field: str
    labels: tuple[str, ...]
    mixed: str = ""
    hit_modifier: int = 0
    lines: tuple[str, ...] = ()
    warn: bool = True
    effects: EffectsHook | None = None
    readings: tuple[str, ...] = ()
    """Reading inputs of the calculator besides the attack's (those its ``effects`` consult)."""

    def setting(
        self, values: Mapping[str, Any], choices: Wh40kChoices
    ) -> tuple[tuple[Weapon, ...], Target, Situation]:
        """The weapons, target and situation of the inputs, after the calculator's own effects."""
        target, situation = target_of(values), situation_of(values, self.hit_modifier)
        if self.effects is None:
            return self.weapons, target, situation
        return self.effects(self.weapons, target, situation, choices)


type Pick = Callable[[Mapping[str, Any]], Attackers]


def check_attackers(
    attackers: Attackers, values: Mapping[str, Any], choices: Wh40kChoices | None = None
) -> None:
    """The shared cross-field checks of an attack: target size, shooting and fighting not mixed,
    ranged-only inputs on melee weapons, attacks per weapon, the Devastating Wounds bound and the
    cost model, under ``choices`` (the calculator's choice set: a variant's parameters reach the
    cost model too; one-line InputError naming the field)."""
    total = values["wounds"] * values["models"]
    if total > MAX_TOTAL_WOUNDS:
        raise InputError("models", f"models × wounds must be at most {MAX_TOTAL_WOUNDS}, got {total}")
    weapons, field = attackers.weapons, attackers.field
    if len({w.ranged for w in weapons}) > 1:
        raise InputError(field, attackers.mixed)
    choices = choices_of(values, choices, attackers.readings)
    weapons, target, situation = attackers.setting(values, choices)
    for weapon, label in zip(weapons, attackers.labels, strict=True):
        where = f"{label}: " if label else ""
        if not weapon.ranged:
            for key in RANGED_ONLY_SITUATION:
                if values[key]:
                    why = (
                        f"{label} is a melee weapon; set it to false"
                        if label
                        else "set ranged=true or set it to false"
                    )
                    raise InputError(key, f"only applies to ranged attacks; {why}")
        placed = in_situation(weapon, target, situation, choices)[0]
        most = attacks_distribution(placed, target, choices).outcomes()[-1]
        if most > MAX_ATTACKS:
            raise InputError(field, f"{where}at most {MAX_ATTACKS} attacks per weapon, got up to {most}")
    bound = joint_packets_bound(weapons, target, situation, choices)
    if bound > JOINT_LIMIT:
        raise InputError(
            field,
            f"when Devastating Wounds are tracked apart from normal damage (an earlier weapon of a "
            f"sequence, or a devastating/allocation alternative) a weapon may produce at most "
            f"{JOINT_LIMIT} hits that wound, got up to {bound}; use fewer attacks",
        )
    refuse_costly(weapons, target, situation, choices, field, attackers.labels)


def attack_seconds(attackers: Attackers, values: Mapping[str, Any], choices: Wh40kChoices) -> float:
    """The cost model of an attack calculator: the predicted seconds of its answer (see
    :attr:`rulesbook.systems.wh40k.attack.cost.Cost.seconds`), under ``choices`` with the readings the
    inputs chose."""
    situation = situation_of(values, attackers.hit_modifier)
    return predicted_cost(
        attackers.weapons, target_of(values), situation, choices_of(values, choices)
    ).seconds


HARD_SECONDS = 10.0
"""The wall-clock backstop of a computation the calculators accepted (the work limits stop
anything the cost model under-predicted long before, on this machine kind)."""


def answer(
    weapons: Sequence[Weapon], target: Target, situation: Situation, choices: Wh40kChoices, field: str
) -> SequenceResult | ApproximateResult:
    """The exact engine when its predicted cost fits, else its floating-point path (an
    :class:`~rulesbook.systems.wh40k.attack.engine.ApproximateResult`, labelled approximate by :func:`present`); either is
    stopped inside its loops past :data:`~rulesbook.systems.wh40k.attack.cost.HARD_FACTOR` times its limit, with the message
    the cost check gives, naming ``field``."""
    cost = predicted_cost(weapons, target, situation, choices)
    try:
        if cost.path == "exact":
            return resolve(
                weapons, target, situation, choices, limit=HARD_FACTOR * WORK_LIMIT, seconds=HARD_SECONDS
            )
        from rulesbook.systems.wh40k.attack.approximate import resolve_float  # numpy: loaded when needed

        return resolve_float(
            weapons, target, situation, choices, limit=HARD_FACTOR * FLOAT_LIMIT, seconds=HARD_SECONDS
        )
    except WorkLimitExceeded:
        raise CostError(field, too_costly(HARD_FACTOR, stopped=True), times=HARD_FACTOR) from None


def declare_attack_calculator(
    id: str,
    *,
    title: str,
    summary: str,
    weapon_inputs: Sequence[Input],
    pick: Pick,
    rules: Sequence[str],
    examples: Sequence[Mapping[str, str]],
    reference_tables: Callable[[], Sequence[Table]] | None = None,
    fast: FastFn | None = None,
) -> Calculator:
    """Declare an attack calculator: its own weapon inputs and how they become
    :class:`Attackers`; everything else is shared (``fast``: a lean path for small inputs,
    see :mod:`~rulesbook.systems.wh40k.calculators.lean`)."""

    def compute(*, choices: Wh40kChoices, **values: Any) -> CalcResult:
        attackers = pick(values)
        weapons, target, situation = attackers.setting(values, choices)
        result = answer(weapons, target, situation, choices, attackers.field)
        lines = list(attackers.lines)
        warnings: list[str] = []
        if target.damage_reduction and weapons[0].ranged:
            warnings.append(RANGED_DAMAGE_REDUCTION)
        published = choices.readings.published_abilities == "published"
        steps = plan(weapons, target, situation, choices) if published else []
        for i, (weapon, label) in enumerate(zip(weapons, attackers.labels, strict=True)):
            where = f"{weapon.name} — " if label else ""
            mix = steps[i].mix if published else ()
            rolls = (
                outcome_lines(mix[0][1], weapon, target)
                if len(mix) == 1
                else roll_lines(weapon, target, situation, choices)
            )
            lines += [where + line for line in rolls]
            if attackers.warn:
                warnings += ability_warnings(weapon, target, weapon.name if label else "")
        if attackers.warn:
            warnings += pistol_warnings(weapons, choices)
        return present(result, lines, warnings)

    return calculator(
        id,
        title=title,
        summary=summary,
        inputs=[*weapon_inputs, *SITUATION_INPUTS, *TARGET_INPUTS, *READING_INPUTS],
        outputs=OUTPUTS,
        rules=rules,
        check=lambda values, choices: check_attackers(pick(values), values, choices),
        cost=lambda values, choices: attack_seconds(pick(values), values, choices),
        examples=examples,
        reference_tables=reference_tables,
        choices=CHOICES,
        fast=fast,
        insensitive=ENGINE_FIXED,
        # a weapon that says itself whether it is ranged: these need it to be (a form that
        # switches to melee sets them to false and says so)
        relations=[
            Needs(
                key,
                False,
                "ranged",
                (True,),
                "only applies to ranged attacks",
                "set ranged=true or set it to false",
            )
            for key in RANGED_ONLY_SITUATION
            if any(i.key == "ranged" for i in weapon_inputs)
        ],
    )(compute)


RANGED_ONLY_SITUATION = ("cover", "stealth", "overwatch")
"""The situation inputs that only apply to ranged attacks (in the order their errors are checked)."""


ENGINE_FIXED = {
    "rules.wh40k.attack.feel-no-pain": "the attack engine's damage step (packet_damage: Damage, "
    "reduction and Feel No Pain, summed over thousands of packets) takes no choice set, so other code "
    "for Feel No Pain reaches the Grenade Stratagem only; change fnp or damage_reduction instead",
}
"""Rules an attack names whose code in the engine a variant cannot replace (see insensitive)."""
