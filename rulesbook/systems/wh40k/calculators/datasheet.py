"""``wh40k.datasheet-attack``: a datasheet's weapons against a datasheet or a typed profile, with
the abilities, the Host of Plagues aura of the round, the stratagems, enhancements and the
detachment rules of both sides applied as declared effects (:mod:`~rulesbook.systems.wh40k.faction.sides`), and the record of
what applied and why.

The datasheets come from faction files: the Death Guard page by default, or any file
``faction`` and ``target_faction`` name — such as a Wahapedia faction written by
:mod:`~rulesbook.systems.wh40k.faction.file`. A squad fires each weapon from every model whose loadout has it (``key*N``:
N models); a target whose models differ, or with a Leader attached (``target_leader``), is
resolved group by group (:mod:`~rulesbook.systems.wh40k.faction.units`, :func:`~rulesbook.systems.wh40k.attack.groups.resolve_groups`).

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

    The made-up Mire Host of the import tests (shipped as an example faction file): ten Mire
    Wardens — nine fire their sludge throwers (Torrent), the Champion his rust pistol:

    >>> r = calc.run(faction="rulesbook/systems/wh40k/examples/mire-host.yaml", attacker="mire-wardens",
    ...              attacker_models=10, weapons="sludge-thrower,rust-pistol", toughness=4, save=3,
    ...              wounds=1, models=10)
    >>> [row[0] for row in r.table("breakdown").rows]
    ['Sludge thrower ×9', 'Rust pistol', 'target loses']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rulesbook.calculators import (
    Output,
    calculator,
)
from rulesbook.errors import InputError, choose_from, quote
from rulesbook.registry import implements
from rulesbook.relations import Needs
from rulesbook.results import CalcResult, Column, Table
from rulesbook.systems.wh40k.attack.cost import MAX_ATTACKS, MAX_TOTAL_WOUNDS, predicted_cost, refuse_costly
from rulesbook.systems.wh40k.attack.engine import JOINT_LIMIT, joint_packets_bound, plan, weapon_step
from rulesbook.systems.wh40k.attack.groups import (
    JOINT_WOUNDS_LIMIT,
    MAX_GROUP_STATES,
    LeaderProfile,
    ModelGroup,
    groups_states,
    joint_wounds_bound,
    resolve_groups,
)
from rulesbook.systems.wh40k.attack.rolls import attacks_distribution
from rulesbook.systems.wh40k.attack.situational import in_situation
from rulesbook.systems.wh40k.attack.weapons import better_fnp
from rulesbook.systems.wh40k.calculators.datasheet_inputs import DATASHEET_READINGS, INPUTS, profile_input
from rulesbook.systems.wh40k.calculators.path import (
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
from rulesbook.systems.wh40k.calculators.report import UnitOutcome, ability_warnings, present, roll_lines
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices, Wh40kReadings
from rulesbook.systems.wh40k.faction.additions import with_additions
from rulesbook.systems.wh40k.faction.mortarion import unit_weapons
from rulesbook.systems.wh40k.faction.reader import death_guard
from rulesbook.systems.wh40k.faction.sides import Context, EffectPlan, Side, apply_effects
from rulesbook.systems.wh40k.faction.types import NO_SKILL, Datasheet, Faction
from rulesbook.systems.wh40k.faction.units import attack_weapons, target_groups
from rulesbook.systems.wh40k.lists.army import army_at

__all__ = ["DatasheetSetting", "datasheet_attack_calculator", "plan_of", "setting_of"]

DG = death_guard()


def _choices(values: Mapping[str, Any], base: Wh40kChoices | None = None) -> Wh40kChoices:
    """The choice set ``base`` (a variant's; the published rules' when None) with the readings
    the inputs picked."""
    keys = (*READING_KEYS, *DATASHEET_READINGS)
    return (base or CHOICES).replace(readings={k: values[k] for k in keys if k in values})


def _sheet(faction: Faction, key: str, field: str) -> Datasheet:
    sheet = faction.datasheets.get(key.strip().lower())
    if sheet is None:
        raise InputError(
            field, f"{faction.name} has no datasheet {quote(key)}; {choose_from(key, faction.datasheets)}"
        )
    return sheet


def _side(
    values: Mapping[str, Any],
    prefix: str,
    sheet: Datasheet | None,
    keywords: tuple[str, ...],
    faction: Faction,
) -> Side:
    aura_key = values[f"{prefix}aura"]
    det_key = values[f"{prefix}detachment"].strip().lower()
    sick_key = values[f"{prefix}sickness"]
    enh_key = values[f"{prefix}enhancement"].strip().lower()
    distance = values[f"{prefix}aura_distance"]
    own_host = sheet is not None and "host-of-plagues" in sheet.abilities
    field = f"{prefix}aura"
    if distance is not None and own_host:
        raise InputError(
            f"{prefix}aura_distance",
            "the unit is Mortarion: his own auras need no distance; set it to none",
        )
    if aura_key != "none" and not own_host and distance is None:
        raise InputError(
            field,
            "only a datasheet with Host of Plagues (Mortarion) has these auras, or a DEATH GUARD unit "
            f"near him: give {prefix}aura_distance or set it to none",
        )
    if prefix and values[f"{prefix}damaged"] and sheet is None:
        raise InputError(f"{prefix}damaged", "only a datasheet with a Damaged ability can be damaged")
    if det_key != "none" and det_key not in faction.detachments:
        raise InputError(
            f"{prefix}detachment",
            f"{faction.name} has no detachment {quote(det_key)}; {choose_from(det_key, faction.detachments, none=True)}",
        )
    if enh_key != "none" and enh_key not in faction.enhancements:
        raise InputError(
            f"{prefix}enhancement",
            f"{faction.name} has no enhancement {quote(enh_key)}; {choose_from(enh_key, faction.enhancements, none=True)}",
        )
    for key in values[f"{prefix}stratagems"]:
        if key not in faction.stratagems:
            raise InputError(
                f"{prefix}stratagems",
                f"{faction.name} has no stratagem {quote(key)}; {choose_from(key, faction.stratagems)}",
            )
    return Side(
        datasheet=sheet,
        aura=DG.abilities[aura_key] if aura_key != "none" else None,
        stratagems=tuple(faction.stratagems[k] for k in values[f"{prefix}stratagems"]),
        detachment=faction.detachments[det_key] if det_key != "none" else None,
        sickness=DG.abilities[sick_key] if sick_key != "none" else None,
        damaged=values[f"{prefix}damaged"],
        keywords=keywords,
        bearer=DG.datasheets["mortarion"] if distance is not None else None,
        aura_distance=distance or 0,
        faction=faction,
        enhancement=faction.enhancements[enh_key] if enh_key != "none" else None,
    )


@dataclass(frozen=True, slots=True)
class DatasheetSetting:
    """The attack of the inputs with every effect applied, and the target's model groups when
    its models differ (or a Leader is attached): ``None`` for a unit of one profile."""

    plan: EffectPlan
    groups: tuple[ModelGroup, ...] | None = None
    names: tuple[str, str] = ("", "")
    """The attacking unit's and the target's names."""


def _keywords(sheet: Datasheet) -> tuple[str, ...]:
    return tuple(k.lower().replace(" ", "-") for k in (*sheet.keywords, *sheet.faction_keywords))


@implements("wh40k.death-guard.datasheet.mortarion")
def setting_of(values: Mapping[str, Any], choices: Wh40kChoices) -> DatasheetSetting:
    """The weapons, target and situation of the inputs with every effect applied."""
    # a variant's added stratagems, abilities, detachment rules and enhancements join both files
    faction = with_additions(army_at(values["faction"], "faction"), choices.additions)
    target_faction = with_additions(army_at(values["target_faction"], "target_faction"), choices.additions)
    sheet = _sheet(faction, values["attacker"], "attacker")
    chosen: tuple[str, ...] = values["weapons"]
    if not chosen:
        raise InputError("weapons", "name at least one of " + ", ".join(sheet.weapons))
    weapons = attack_weapons(sheet, chosen, values["attacker_models"], "weapons")
    if len({w.ranged for w in weapons}) > 1:
        raise InputError("weapons", "shoot (ranged weapons) or fight (melee weapons), not both in one attack")
    unit_weapons(sheet).check_exclusive([w.partition("*")[0] for w in chosen], "weapons")
    target = target_of(values)
    target_sheet = None
    groups: tuple[ModelGroup, ...] | None = None
    keywords = tuple(k.upper().replace("-", " ") for k in values["target_keywords"])
    target_name = "the target"
    if values["target"].strip().lower() == "profile":
        if values["target_leader"] is not None:
            raise InputError("target_leader", "a Leader is attached to a datasheet target; set target to one")
    else:
        if choices.readings.mortarion_characteristics != "published":
            raise InputError(
                "target",
                "datasheet targets need the published stat line (reading mortarion-characteristics = published); use target=profile",
            )
        target_sheet = _sheet(target_faction, values["target"], "target")
        target_name = target_sheet.name
        leader = None
        if values["target_leader"] is not None:
            leader = _sheet(target_faction, values["target_leader"], "target_leader")
            if target_sheet.key not in leader.leads:
                led = ", ".join(leader.leads) or "none"
                raise InputError(
                    "target_leader", f"{leader.name} cannot lead {target_sheet.name}; it leads: {led}"
                )
        base = replace(
            target,
            fnp=target_sheet.feel_no_pain,
            fnp_mortal=None,  # the datasheet's own (its abilities' effects may give one)
            keywords=_keywords(target_sheet),
            stealth=target.stealth or "stealth" in target_sheet.core_abilities,
        )
        unit, found = target_groups(target_sheet, values["target_models"], base, choices, leader)
        if len(found) == 1:
            target = found[0].target(unit)
        else:
            main = max((g for g in found if not g.character), key=lambda g: g.models)
            target = replace(unit, save=main.save, invuln=main.invuln, wounds=main.wounds, models=main.models)
            groups = found
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
        unit_infected=values["unit_infected"],
    )
    attacker = _side(values, "", sheet, (), faction)
    defender = _side(values, "target_", target_sheet, keywords, target_faction)
    plan = apply_effects(weapons, target, situation, attacker, defender, ctx, choices, faction)
    if groups is not None:
        # the effects on the unit as a whole (Toughness, cover, Stealth, Damage) stay on the
        # shared target; a worse Save characteristic reaches every group's Save, a Feel No Pain
        # an effect gives every group (each keeping the better of it and its own)
        worse = plan.target.save - target.save
        given = plan.target.fnp if plan.target.fnp != target.fnp else None
        given_mortal = plan.target.fnp_mortal if plan.target.fnp_mortal != target.fnp_mortal else None
        groups = tuple(
            replace(
                g,
                save=min(7, g.save + worse),
                fnp=better_fnp(g.fnp, given),
                fnp_mortal=better_fnp(g.fnp_mortal, given_mortal),
            )
            for g in groups
        )
    return DatasheetSetting(plan, groups, (sheet.name, target_name))


def plan_of(values: Mapping[str, Any], choices: Wh40kChoices) -> EffectPlan:
    """The weapons, target and situation of the inputs with every effect applied."""
    return setting_of(values, choices).plan


def _check(values: Mapping[str, Any], choices: Any) -> None:
    choices = _choices(values, choices)
    found = setting_of(values, choices)
    plan = found.plan
    target = plan.target
    if found.groups is None and target.total_wounds > MAX_TOTAL_WOUNDS:
        raise InputError(
            "models", f"models × wounds must be at most {MAX_TOTAL_WOUNDS}, got {target.total_wounds}"
        )
    for w in plan.weapons:
        placed = in_situation(w, target, plan.situation, choices)[0]
        most = attacks_distribution(placed, target, choices).outcomes()[-1]
        if most > MAX_ATTACKS:
            raise InputError(
                "weapons", f"{w.name}: at most {MAX_ATTACKS} attacks per weapon, got up to {most}"
            )
        rolls = choices.readings.published_abilities == "source-only" or (
            plan.situation.overwatch and choices.readings.torrent_overwatch == "sixes-only"
        )
        if w.skill == NO_SKILL and rolls and choices.readings.torrent_no_skill == "refuse":
            raise InputError(
                "weapons",
                f"{w.name} has no Ballistic Skill (N/A) and would roll to hit here (reading torrent-no-skill = refuse)",
            )
    if found.groups is not None:
        states = groups_states(found.groups)
        if states > MAX_GROUP_STATES:
            raise InputError(
                "target_models",
                f"a unit whose models differ is tracked by its wounds lost per kind of model: at most "
                f"{MAX_GROUP_STATES} combinations, got {states}; choose a smaller unit",
            )
        leaderless = LeaderProfile(0, 1, 7)
        bound = joint_wounds_bound(plan.weapons, target, leaderless, plan.situation, choices)
        if bound > JOINT_WOUNDS_LIMIT:
            raise InputError(
                "weapons",
                f"against a unit whose models differ a weapon with Devastating Wounds may score at most "
                f"{JOINT_WOUNDS_LIMIT} wounds, got up to {bound}; use fewer attacks",
            )
        return
    if joint_packets_bound(plan.weapons, target, plan.situation, choices) > JOINT_LIMIT:
        raise InputError(
            "weapons",
            f"too many wounding hits to track Devastating Wounds apart (at most {JOINT_LIMIT}); use fewer weapons",
        )
    refuse_costly(
        plan.weapons, target, plan.situation, choices, "weapons", tuple(w.name for w in plan.weapons)
    )


def _seconds(values: Mapping[str, Any], choices: Wh40kChoices) -> float | None:
    """The cost model: the predicted seconds of the answer (see ``cost.Cost.seconds``); ``None``
    against a unit whose models differ, which the engine's prediction does not cover."""
    found = setting_of(values, _choices(values, choices))
    if found.groups is not None:
        return None
    plan = found.plan
    return predicted_cost(plan.weapons, plan.target, plan.situation, _choices(values, choices)).seconds


def _groups_outcome(found: DatasheetSetting, choices: Wh40kChoices) -> tuple[UnitOutcome, list[str]]:
    """The exact answer against a unit of several model groups, and its explanation lines."""
    assert found.groups is not None
    p = found.plan
    result = resolve_groups(p.weapons, p.target, found.groups, p.situation, choices)
    first = found.groups[0]
    first_target = replace(first.target(p.target), models=p.target.models)
    steps = tuple(
        weapon_step(s, first_target, choices) for s in plan(p.weapons, first_target, p.situation, choices)
    )
    outcome = UnitOutcome(
        models=sum(g.models for g in found.groups),
        total_wounds=sum(g.models * g.wounds for g in found.groups),
        wounds_lost=result.wounds_lost,
        models_destroyed=result.models_destroyed,
        steps=steps,
    )
    lines = [
        f"{found.names[1]}: models that differ, attacked in this order: "
        + "; ".join(
            f"{g.models} × {g.name} (W{g.wounds}, Sv {g.save}+"
            + (f", invulnerable {g.invuln}+" if g.invuln else "")
            + (f", Feel No Pain {g.fnp}+" if g.fnp else "")
            + (f", Feel No Pain {g.fnp_mortal}+ against mortal wounds" if g.fnp_mortal else "")
            + (", CHARACTER: after the rest" if g.character else "")
            + ")"
            for g in found.groups
        )
        + f"; every Wound roll against T{p.target.toughness} (interpretations mixed-allocation, mixed-toughness).",
        "The step-by-step means count saving throws as the first models in that order make them; the "
        "distributions are exact for the whole unit.",
    ]
    for i, g in enumerate(found.groups):
        lines.append(
            f"{g.name}: {float(result.group_destroyed(i).mean()):.2f} of {g.models} destroyed on average."
        )
    return outcome, lines


def _names(files: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """What the chosen files offer to pick: the attacker's units, weapons, auras (a Host of
    Plagues), stratagems, detachments and enhancements from ``faction``; the target's units,
    Leaders and the rest from
    ``target_faction`` (a file that does not read offers nothing; the calculator says why)."""
    out: dict[str, tuple[str, ...]] = {}
    declared = {i.key: i for i in INPUTS}
    for prefix, key in (("", "faction"), ("target_", "target_faction")):
        try:  # (a shipped file's rulesbook/... name is found from any folder, as the input finds it)
            found = army_at(declared[key].parse(files[key]), key)
        except (InputError, KeyError):
            continue
        sheets = tuple(found.datasheets)
        if prefix:
            out["target"] = ("profile", *sheets)
            out["target_leader"] = ("none", *(k for k, d in found.datasheets.items() if d.leads))
        else:
            out["attacker"] = sheets
            out["weapons"] = tuple(dict.fromkeys(w for d in found.datasheets.values() for w in d.weapons))
        out[f"{prefix}aura"] = ("none", *(k for a in found.abilities.values() for k in a.choice_of))
        out[f"{prefix}stratagems"] = tuple(found.stratagems)
        out[f"{prefix}detachment"] = ("none", *found.detachments)
        out[f"{prefix}enhancement"] = ("none", *found.enhancements)
    return out


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
    summary="""A datasheet's weapons (Mortarion's, or any unit of an imported faction file) against a
    typed profile or a datasheet — whose models may differ, with a Leader attached — with the
    battle round, the Host of Plagues aura, the stratagems, enhancements and detachment rules of
    both sides applied as declared effects — phase and attack type checked, ±1 caps, Lord of the
    Death Guard, Contagion Range by battle round, the Sicknesses. Exact distribution of wounds
    lost and models destroyed (in floating point, labelled approximate, when the exact answer
    would be too big), and which effects applied and why.""",
    inputs=[
        *INPUTS,
        *SITUATION_INPUTS,
        *(profile_input(i) for i in TARGET_INPUTS),
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
        "wh40k.core.attached-units",
        "wh40k.death-guard.ability.nurgles-gift",
        "wh40k.death-guard.ability.host-of-plagues",
        "wh40k.death-guard.ability.lord-of-the-death-guard",
        "wh40k.death-guard.ability.damaged",
        "wh40k.death-guard.detachment.spread-the-sickness",
        "wh40k.death-guard.stratagem.ferric-blight",
        "wh40k.death-guard.stratagem.disgustingly-resilient",
        "wh40k.core.declared-effects",
        *ATTACK_RULES,
    ],
    insensitive=ENGINE_FIXED,
    check=_check,
    cost=_seconds,
    relations=[
        Needs(
            f"{side}sickness",
            "none",
            f"{side}detachment",
            ("spread-the-sickness",),
            "a Sickness comes with the spread-the-sickness detachment",
            "choose it or set none",
        )
        for side in ("", "target_")
    ],
    # who shoots with what at whom (and from which army lists) in which battle round, and the
    # target's profile: under the answer; the rest folded
    main_inputs=(
        "attacker",
        "weapons",
        "target",
        "faction",
        "target_faction",
        "target_models",
        "battle_round",
        "stratagems",
        "toughness",
        "save",
        "invuln",
        "wounds",
        "models",
        "fnp",
        "cover",
    ),
    names=_names,
    cacheable=False,  # a faction file may change between two calls with the same path
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
        {
            "weapons": "rotwind",
            "target": "mire-wardens",
            "target_faction": "rulesbook/systems/wh40k/examples/mire-host.yaml",
            "target_models": "6",
            "target_leader": "bog-lord",
            "distance": "2",
        },
        {
            "faction": "rulesbook/systems/wh40k/examples/mire-host.yaml",
            "attacker": "mire-wardens",
            "attacker_models": "10",
            "weapons": "sludge-thrower,rust-pistol",
            "toughness": "4",
            "save": "3",
            "wounds": "1",
            "models": "10",
        },
    ],
    choices=CHOICES,
)
def datasheet_attack_calculator(*, choices: Wh40kChoices, **values: Any) -> CalcResult:
    """Resolve the datasheet's weapons against the target with every effect applied."""
    found = setting_of(values, choices)
    plan = found.plan
    t = plan.target
    lines: list[str] = []
    result: Any
    if found.groups is None:
        result = answer(plan.weapons, plan.target, plan.situation, choices, "weapons")
        lines.append(
            f"Target: T{t.toughness} Sv {t.save}+{f' (invulnerable {t.invuln}+)' if t.invuln else ''} "
            f"W{t.wounds} × {t.models}{f', Feel No Pain {t.fnp}+' if t.fnp else ''}"
            f"{f', Feel No Pain {t.fnp_mortal}+ against mortal wounds' if t.fnp_mortal else ''}"
            f"{', Benefit of Cover' if t.cover else ''}{', Stealth' if t.stealth else ''}"
            f"{f', Damage −{t.damage_reduction}' if t.damage_reduction else ''}."
        )
    else:
        result, group_lines = _groups_outcome(found, choices)
        lines += group_lines
    lines += [
        f"{'Applied' if a.applied else 'Skipped'} — {a.name} ({a.side}): {a.why}." for a in plan.applied
    ]
    warnings = list(plan.warnings)
    for w in plan.weapons:
        lines += [f"{w.name} — {line}" for line in roll_lines(w, t, plan.situation, choices)]
        warnings += [x for x in ability_warnings(w, t, w.name) if "changes no number" not in x]
    base = present(result, lines, warnings)
    return CalcResult(base.values, (*base.tables, _effects_table(plan)), base.explanation, base.warnings)
