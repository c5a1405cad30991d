"""``wh40k.datasheet-attack``: a datasheet's weapons against a datasheet or a typed profile, with
the abilities, the Host of Plagues aura of the round, the stratagems and the detachment rules of
both sides applied as declared effects (:mod:`.effects`), and the record of what applied and why.

Example:
    Mortarion shoots The Lantern at five T4 Sv 3+ W2 models while Damaged, the target having
    Stealth: Lord of the Death Guard lets him disregard both −1s, so the mean is that of a plain
    BS 2+ shot, 175/216 models (interpretation wh40k.interpretations.lord-own-modifiers).

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.datasheet-attack")
    >>> r = calc.run(weapons="the-lantern", damaged=True, stealth=True, toughness=4, save=3,
    ...              wounds=2, models=5)
    >>> r["mean_models_destroyed_exact"]
    '175/216'
    >>> r = calc.run(weapons="the-lantern", damaged=True, stealth=True, toughness=4, save=3,
    ...              wounds=2, models=5, lord_of_the_death_guard="applies")
    >>> r["mean_models_destroyed_exact"]
    '25/36'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulesbook.calculators import (
    BoolInput,
    ChoiceInput,
    Input,
    IntInput,
    Output,
    WordListInput,
    calculator,
    optional,
)
from rulesbook.errors import InputError, quote
from rulesbook.registry import implements
from rulesbook.results import CalcResult, Column, Table
from rulesbook.systems.wh40k.attack_path import (
    ATTACK_RULES,
    ENGINE_FIXED,
    OUTPUTS,
    READING_INPUTS,
    READING_KEYS,
    SITUATION_INPUTS,
    TARGET_INPUTS,
    answer,
    situation_of,
    target_of,
)
from rulesbook.systems.wh40k.attack_report import ability_warnings, present, roll_lines
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices, Wh40kReadings
from rulesbook.systems.wh40k.cost import MAX_ATTACKS, MAX_TOTAL_WOUNDS, predicted_cost, refuse_costly
from rulesbook.systems.wh40k.data import unit_weapons
from rulesbook.systems.wh40k.effects import Context, EffectPlan, Side, apply_effects
from rulesbook.systems.wh40k.engine import JOINT_LIMIT, joint_packets_bound
from rulesbook.systems.wh40k.faction import Datasheet, death_guard
from rulesbook.systems.wh40k.rules import attacks_distribution

__all__ = ["DATASHEET_READINGS", "datasheet_attack_calculator", "plan_of"]

DG = death_guard()
SHEETS = tuple(DG.datasheets)
AURAS = tuple(k for a in DG.abilities.values() for k in a.choice_of)
SICKNESSES = DG.detachments["spread-the-sickness"].choices

DATASHEET_READINGS = (
    "lord_of_the_death_guard",
    "sickness_caps",
    "contagion_range",
    "outside_attack_rules",
    "mortarion_characteristics",
)
"""The readings of the faction page this calculator lets a user switch."""

_TARGET_DEFAULTS = {"toughness": 4, "save": 3, "wounds": 2, "models": 5}


def _profile_input(inp: Input) -> Input:
    default = _TARGET_DEFAULTS.get(inp.key)
    if default is None:
        return inp
    return replace(inp, default=default, help=f"{inp.help} Used when target=profile.")


def _side_inputs(prefix: str, whose: str) -> list[Input]:
    return [
        ChoiceInput(
            key=f"{prefix}aura",
            label=f"{whose} Host of Plagues aura",
            help=f"The one Host of Plagues aura {whose.lower()} Mortarion has this battle round, or none.",
            choices=("none", *AURAS),
            default="none",
        ),
        WordListInput(
            key=f"{prefix}stratagems",
            label=f"{whose} stratagems",
            help=f"Comma list of stratagems {whose.lower()} player uses (keys of the Death Guard page).",
            words=tuple((k, k) for k in DG.stratagems),
            default=(),
        ),
        ChoiceInput(
            key=f"{prefix}detachment",
            label=f"{whose} detachment rule",
            help="none, spread-the-sickness (pick the sickness) or verminous-haze.",
            choices=("none", *DG.detachments),
            default="none",
        ),
        ChoiceInput(
            key=f"{prefix}sickness",
            label=f"{whose} Sickness",
            help="The Sickness chosen for Spread the Sickness, or none.",
            choices=("none", *SICKNESSES),
            default="none",
        ),
        BoolInput(
            key=f"{prefix}damaged",
            label=f"{whose} model Damaged",
            help="Mortarion has 1–6 wounds left (his Damaged ability: −1 to his Hit rolls).",
            default=False,
        ),
    ]


INPUTS: tuple[Input, ...] = (
    ChoiceInput(
        key="attacker",
        label="Attacker datasheet",
        help="The attacking unit's datasheet.",
        choices=SHEETS,
        default=SHEETS[0],
    ),
    WordListInput(
        key="weapons",
        label="Weapons, in order",
        help="Comma list of the attacker's weapons: all ranged (shooting) or all melee (fighting).",
        words=tuple((k, k) for s in DG.datasheets.values() for k in s.weapons),
        default=("rotwind", "the-lantern"),
    ),
    ChoiceInput(
        key="target",
        label="Target",
        help="profile (the target inputs below) or a datasheet, whose characteristics are used.",
        choices=("profile", *SHEETS),
        default="profile",
    ),
    IntInput(
        key="battle_round",
        label="Battle round",
        help='1 to 5; sets the Contagion Range (3", 6", 9").',
        minimum=1,
        maximum=5,
        default=1,
    ),
    optional(
        IntInput(
            key="distance",
            label="Distance between the units (inches)",
            help="How far apart the two units are, for Contagion Range; none: not given (those effects are skipped).",
            minimum=0,
            maximum=48,
        )
    ),
    BoolInput(
        key="infected",
        label="Infected objective in reach",
        help="An Infected objective marker of the Death Guard player is in reach (Ferric Blight, Sanguous Flux).",
        default=False,
    ),
    *_side_inputs("", "Attacker's"),
    *_side_inputs("target_", "Target's"),
)


def _choices(values: Mapping[str, Any], base: Wh40kChoices | None = None) -> Wh40kChoices:
    """The choice set ``base`` (a variant's; the published rules' when None) with the readings
    the inputs picked."""
    keys = (*READING_KEYS, *DATASHEET_READINGS)
    return (base or CHOICES).replace(readings={k: values[k] for k in keys if k in values})


def _side(values: Mapping[str, Any], prefix: str, sheet: Datasheet | None, keywords: tuple[str, ...]) -> Side:
    aura_key = values[f"{prefix}aura"]
    det_key = values[f"{prefix}detachment"]
    sick_key = values[f"{prefix}sickness"]
    field = f"{prefix}aura"
    if aura_key != "none" and (sheet is None or "host-of-plagues" not in sheet.abilities):
        raise InputError(
            field, "only a datasheet with Host of Plagues (Mortarion) has these auras; set it to none"
        )
    if sick_key != "none" and det_key != "spread-the-sickness":
        raise InputError(
            f"{prefix}sickness",
            "a Sickness comes with the spread-the-sickness detachment; choose it or set none",
        )
    if prefix and values[f"{prefix}damaged"] and sheet is None:
        raise InputError(f"{prefix}damaged", "only a datasheet with Damaged (Mortarion) can be damaged")
    return Side(
        datasheet=sheet,
        aura=DG.abilities[aura_key] if aura_key != "none" else None,
        stratagems=tuple(DG.stratagems[k] for k in values[f"{prefix}stratagems"]),
        detachment=DG.detachments[det_key] if det_key != "none" else None,
        sickness=DG.abilities[sick_key] if sick_key != "none" else None,
        damaged=values[f"{prefix}damaged"],
        keywords=keywords,
    )


@implements("wh40k.death-guard.datasheet.mortarion")
def plan_of(values: Mapping[str, Any], choices: Wh40kChoices) -> EffectPlan:
    """The weapons, target and situation of the inputs with every effect applied."""
    sheet = DG.datasheets[values["attacker"]]
    chosen: tuple[str, ...] = values["weapons"]
    if not chosen:
        raise InputError("weapons", "name at least one of " + ", ".join(sheet.weapons))
    for key in chosen:
        if key not in sheet.weapons:
            raise InputError(
                "weapons", f"{sheet.name} has no weapon {quote(key)}; choose from {', '.join(sheet.weapons)}"
            )
    weapons = tuple(sheet.weapons[k] for k in chosen)
    if len({w.ranged for w in weapons}) > 1:
        raise InputError("weapons", "shoot (ranged weapons) or fight (melee weapons), not both in one attack")
    unit_weapons(sheet).check_exclusive(chosen, "weapons")
    target = target_of(values)
    target_sheet = None
    keywords = tuple(k.upper().replace("-", " ") for k in values["target_keywords"])
    if values["target"] != "profile":
        if choices.readings.mortarion_characteristics != "published":
            raise InputError(
                "target",
                "datasheet targets need the published stat line (reading mortarion-characteristics = published); use target=profile",
            )
        target_sheet = DG.datasheets[values["target"]]
        c = target_sheet.characteristics
        target = replace(
            target,
            toughness=c.toughness,
            save=c.save,
            wounds=c.wounds,
            models=target_sheet.models,
            invuln=target_sheet.invulnerable,
            fnp=target_sheet.feel_no_pain,
            keywords=tuple(
                k.lower().replace(" ", "-") for k in (*target_sheet.keywords, *target_sheet.faction_keywords)
            ),
        )
    ranged = weapons[0].ranged
    situation = situation_of(values)
    if not ranged:
        for key in ("cover", "stealth", "overwatch"):
            if values[key]:
                raise InputError(key, "only applies to ranged attacks; set it to false for melee weapons")
    ctx = Context(
        ranged=ranged,
        battle_round=values["battle_round"],
        overwatch=values["overwatch"] or "fire-overwatch" in values["stratagems"],
        distance=values["distance"],
        infected=values["infected"],
    )
    attacker = _side(values, "", sheet, ())
    defender = _side(values, "target_", target_sheet, keywords)
    return apply_effects(weapons, target, situation, attacker, defender, ctx, choices, DG)


def _check(values: Mapping[str, Any], choices: Any) -> None:
    choices = _choices(values, choices)
    plan = plan_of(values, choices)
    target = plan.target
    if target.total_wounds > MAX_TOTAL_WOUNDS:
        raise InputError(
            "models", f"models × wounds must be at most {MAX_TOTAL_WOUNDS}, got {target.total_wounds}"
        )
    for w in plan.weapons:
        most = attacks_distribution(w, target, choices).outcomes()[-1]
        if most > MAX_ATTACKS:
            raise InputError(
                "weapons", f"{w.name}: at most {MAX_ATTACKS} attacks per weapon, got up to {most}"
            )
    if joint_packets_bound(plan.weapons, target, plan.situation, choices) > JOINT_LIMIT:
        raise InputError(
            "weapons",
            f"too many wounding hits to track Devastating Wounds apart (at most {JOINT_LIMIT}); use fewer weapons",
        )
    refuse_costly(
        plan.weapons, target, plan.situation, choices, "weapons", tuple(w.name for w in plan.weapons)
    )


def _seconds(values: Mapping[str, Any], choices: Wh40kChoices) -> float:
    """The cost model: the predicted seconds of the answer (see ``cost.Cost.seconds``)."""
    chosen = _choices(values, choices)
    plan = plan_of(values, chosen)
    return predicted_cost(plan.weapons, plan.target, plan.situation, chosen).seconds


def _effects_table(plan: EffectPlan) -> Table:
    return Table(
        name="effects_applied",
        title="Effects: applied, or skipped and why",
        columns=("side", "rule", "name", "effect", "applied", "why"),
        rows=tuple(
            (a.side, a.rule, a.name, a.effect, "yes" if a.applied else "no", a.why) for a in plan.applied
        ),
        note="Every ability, aura, stratagem and detachment effect of both sides that this attack met.",
    )


@calculator(
    "wh40k.datasheet-attack",
    title="Datasheet attack (Mortarion, auras, stratagems, detachment)",
    summary="""A datasheet's weapons (Mortarion's) against a typed profile or a datasheet, with the
    battle round, the Host of Plagues aura, the stratagems and the detachment rules of both sides
    applied as declared effects — phase and attack type checked, ±1 caps, Lord of the Death Guard,
    Contagion Range by battle round, the Sicknesses. Exact distribution of wounds lost and models
    destroyed (in floating point, labelled approximate, when the exact answer would be too
    big), and which effects applied and why.""",
    inputs=[
        *INPUTS,
        *SITUATION_INPUTS,
        *(_profile_input(i) for i in TARGET_INPUTS),
        *READING_INPUTS,
        *(Wh40kReadings.input(k) for k in DATASHEET_READINGS),
    ],
    outputs=[
        *OUTPUTS,
        Output(
            "effects_applied",
            "Effects applied",
            "table",
            "Which effects applied and why, and which were skipped.",
            columns=(
                Column("side", "Side"),
                Column("rule", "Rule"),
                Column("name", "Effect"),
                Column("effect", "What it does"),
                Column("applied", "Applied"),
                Column("why", "Why"),
            ),
        ),
    ],
    rules=[
        "wh40k.death-guard.datasheet.mortarion",
        "wh40k.death-guard.ability.nurgles-gift",
        "wh40k.death-guard.ability.host-of-plagues",
        "wh40k.death-guard.ability.lord-of-the-death-guard",
        "wh40k.death-guard.ability.damaged",
        "wh40k.death-guard.detachment.spread-the-sickness",
        "wh40k.death-guard.stratagem.ferric-blight",
        "wh40k.death-guard.stratagem.disgustingly-resilient",
        *ATTACK_RULES,
    ],
    insensitive={
        **ENGINE_FIXED,
        "heavy_hit_bonus": "no weapon of the datasheets it offers has Heavy",
        "cover_denied_save": "no weapon of the datasheets it offers has AP 0, the only case this applies to",
    },
    check=_check,
    cost=_seconds,
    examples=[
        {
            "weapons": "rotwind,the-lantern",
            "battle_round": "3",
            "distance": "6",
            "aura": "diseased-influence",
            "stratagems": "ferric-blight",
            "detachment": "spread-the-sickness",
            "sickness": "rattlejoint-ague",
            "toughness": "4",
            "save": "3",
            "wounds": "2",
            "models": "10",
        },
        {
            "weapons": "the-lantern",
            "damaged": "true",
            "stealth": "true",
            "toughness": "4",
            "save": "3",
            "wounds": "2",
            "models": "5",
        },
        {"weapons": "silence-strike", "target": "mortarion", "target_stratagems": "disgustingly-resilient"},
    ],
    choices=CHOICES,
)
def datasheet_attack_calculator(*, choices: Wh40kChoices, **values: Any) -> CalcResult:
    """Resolve the datasheet's weapons against the target with every effect applied."""
    plan = plan_of(values, choices)
    result = answer(plan.weapons, plan.target, plan.situation, choices, "weapons")
    t = plan.target
    lines = [
        f"Target: T{t.toughness} Sv {t.save}+{f' (invulnerable {t.invuln}+)' if t.invuln else ''} "
        f"W{t.wounds} × {t.models}{f', Feel No Pain {t.fnp}+' if t.fnp else ''}"
        f"{', Benefit of Cover' if t.cover else ''}{', Stealth' if t.stealth else ''}"
        f"{f', Damage −{t.damage_reduction}' if t.damage_reduction else ''}.",
    ]
    lines += [
        f"{'Applied' if a.applied else 'Skipped'} — {a.name} ({a.side}): {a.why}." for a in plan.applied
    ]
    warnings = list(plan.warnings)
    for w in plan.weapons:
        lines += [f"{w.name} — {line}" for line in roll_lines(w, t, plan.situation, choices)]
        warnings += [x for x in ability_warnings(w, t, w.name) if "changes no number" not in x]
    base = present(result, lines, warnings)
    return CalcResult(base.values, (*base.tables, _effects_table(plan)), base.explanation, base.warnings)
