"""Declared effects applied to one attack: abilities, auras, stratagems and detachment rules of
both sides become changes to the weapons, the target and the situation the engine resolves.

Each side of an attack (:class:`Side`) brings its datasheet's abilities, the Host of Plagues aura
chosen for the battle round (one at most), the stratagems its player uses and its detachment rule
with the Sickness chosen for it. :func:`apply_effects` walks every declared
:class:`~rulesbook.systems.wh40k.effects.effect.Effect` and either applies it through its kind's
hooks (:data:`~rulesbook.systems.wh40k.effects.kinds.KINDS`) or skips it, always saying why
(:class:`~rulesbook.systems.wh40k.effects.kind.Applied`):

* **scope** (:func:`~rulesbook.systems.wh40k.effects.scope.out_of_scope`) — the phase (seen from the side that uses the rule: the attacker's ranged attack is
  in its Shooting phase, or in the opponent's Movement/Charge phase under Fire Overwatch; a melee
  attack is in the Fight phase) and the attack type. A chosen stratagem or aura out of scope adds
  a warning (Disgustingly Resilient against a ranged attack changes nothing).
* **reach** — an enemy-facing aura needs the ``distance`` between the units to be within the
  Contagion Range of the battle round (3"/6"/9", +3" with Toxic Presence); a friendly aura
  reaches a unit ``aura_distance`` inches from Mortarion when that is within its range, and
  Mortarion himself as the readings ``lord-own-modifiers`` and ``own-auras`` say; keywords must
  match. Boilblight's reach is its own reading (``boilblight-reach``).
* **conditions** — the target near an Infected objective (``infected``), the attacking unit
  near one (``unit_infected``), a Damaged model.
* **ignore modifiers** — Lord of the Death Guard lets the unit disregard the harmful modifiers to
  its rolls and characteristics, never a modifier to a saving throw (a worse Save
  characteristic and the weapons' characteristics are readings); the ±1 caps then apply to
  what is left (the roll tests cap them).

Example:
    >>> from rulesbook.systems.wh40k.faction.reader import death_guard
    >>> dg = death_guard()
    >>> m = dg.datasheets["mortarion"]
    >>> attacker = Side(datasheet=m, aura=dg.abilities["diseased-influence"])
    >>> plan = apply_effects([m.weapons["the-lantern"]], Target(4, 3, 2, models=5), Situation(),
    ...                      attacker, Side(), Context(ranged=True, battle_round=1))
    >>> plan.situation.reroll_wounds
    'ones'
    >>> [a.name for a in plan.applied if a.applied]
    ['Lord of the Death Guard', 'Diseased Influence']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from rulesbook.registry import implements
from rulesbook.systems.wh40k.attack.rolls import Situation
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices
from rulesbook.systems.wh40k.effects.effect import Effect
from rulesbook.systems.wh40k.effects.kind import Application, Applied, Owner, Source, Use
from rulesbook.systems.wh40k.effects.kinds import KINDS
from rulesbook.systems.wh40k.effects.scope import Scene, out_of_scope
from rulesbook.systems.wh40k.faction.reader import death_guard
from rulesbook.systems.wh40k.faction.types import (
    Ability,
    Datasheet,
    Detachment,
    Enhancement,
    Faction,
    Stratagem,
)

__all__ = ["Context", "EffectPlan", "Side", "apply_effects", "attack_phases", "aura_reach"]


@dataclass(frozen=True, slots=True)
class Side:
    """One side of the attack: its datasheet (``None`` for a typed profile), the Host of Plagues
    aura of the round, the stratagems its player uses, its detachment and Sickness, whether its
    model is Damaged, and its keywords when it has no datasheet.

    ``bearer`` is a friendly datasheet whose auras reach this unit from ``aura_distance`` inches
    away (a DEATH GUARD unit near Mortarion); when ``bearer`` is ``None`` the auras are the
    unit's own (it is Mortarion)."""

    datasheet: Datasheet | None = None
    aura: Ability | None = None
    stratagems: tuple[Stratagem, ...] = ()
    detachment: Detachment | None = None
    sickness: Ability | None = None
    damaged: bool = False
    keywords: tuple[str, ...] = ()
    bearer: Datasheet | None = None
    aura_distance: int = 0
    faction: Faction | None = None
    """Where the datasheet, stratagems and detachment come from (``None``: the faction given to
    :func:`apply_effects`)."""
    enhancement: Enhancement | None = None
    """The enhancement the unit's Leader carries (its effects reach the unit)."""

    def has(self, keyword: str) -> bool:
        """Whether the unit has the keyword (a profile has the keywords it was given); keywords
        are compared without regard to case (an export spells them ``Death Guard``)."""
        if self.datasheet is not None:
            return self.datasheet.has(keyword)
        wanted = keyword.upper()
        return any(k.upper() == wanted for k in self.keywords)


@dataclass(frozen=True, slots=True)
class Context:
    """The attack: ranged or melee, Fire Overwatch, battle round, distance between the two units
    (``None``: not given), and where Infected objective markers are."""

    ranged: bool
    battle_round: int = 1
    overwatch: bool = False
    distance: int | None = None
    infected: bool = False
    """An Infected objective marker has the target in its Contagion Range (Ferric Blight)."""
    unit_infected: bool | None = None
    """The attacking unit stands in range of an Infected objective (Sanguous Flux);
    ``None``: the same as ``infected`` (register entry infected-positions)."""


@dataclass(frozen=True, slots=True)
class EffectPlan:
    """The weapons, target and situation after every effect, with the record and warnings."""

    weapons: tuple[Weapon, ...]
    target: Target
    situation: Situation
    applied: tuple[Applied, ...]
    warnings: tuple[str, ...] = field(default=())


def attack_phases(ctx: Context, owner: Owner) -> frozenset[str]:
    """The phases the attack happens in, seen from ``owner``'s side.

    >>> sorted(attack_phases(Context(ranged=True), "defender"))
    ['opponent-shooting']
    >>> sorted(attack_phases(Context(ranged=True, overwatch=True), "attacker"))
    ['opponent-charge', 'opponent-movement']
    """
    if not ctx.ranged:
        return frozenset({"fight"})
    if ctx.overwatch:
        mine = {"opponent-movement", "opponent-charge"}
        return frozenset(mine if owner == "attacker" else {p.replace("opponent", "your") for p in mine})
    return frozenset({"your-shooting" if owner == "attacker" else "opponent-shooting"})


@implements(
    "wh40k.death-guard.ability.host-of-plagues",
    "wh40k.death-guard.detachment.spread-the-sickness",
    "wh40k.death-guard.detachment.verminous-haze",
)
def _sources(side: Side, faction: Faction, owner: str) -> list[Source]:
    """The rules a side brings: its datasheet's abilities (Host of Plagues only through the one
    aura of the round), the auras of a friendly bearer near it, the chosen aura, its detachment's
    abilities (of Spread the Sickness only the chosen Sickness) and its stratagems."""
    out: list[Source] = []

    def friendly_aura(ab: Ability) -> bool:
        return ab.aura and any(e.affects == "own" and isinstance(e.range, int) for e in ab.effects)

    if side.datasheet is not None:
        for key in side.datasheet.abilities:
            ab = faction.abilities.get(key)
            if ab is None or ab.choice_of:  # Host of Plagues: only the aura of the round
                continue
            if key == "nurgles-gift" or ab.effects:
                kind: Literal["own", ""] = "own" if friendly_aura(ab) else ""
                lord = any(KINDS[e.kind].disregards_modifiers for e in ab.effects)
                out.append(Source(ab.id, ab.name, owner, False, ab.effects, kind, lord))
    if side.bearer is not None and (side.datasheet is None or side.bearer.id != side.datasheet.id):
        for key in side.bearer.abilities:
            ab = death_guard().abilities.get(key) or faction.abilities.get(key)
            if ab is not None and not ab.choice_of and friendly_aura(ab):
                lord = any(KINDS[e.kind].disregards_modifiers for e in ab.effects)
                out.append(Source(ab.id, ab.name, owner, False, ab.effects, "near", lord))
    prefix = "" if owner == "attacker" else "target_"
    if side.aura is not None:
        where: Literal["own", "near"] = "near" if side.bearer is not None else "own"
        out.append(
            Source(side.aura.id, side.aura.name, owner, True, side.aura.effects, where, field=f"{prefix}aura")
        )
    if side.detachment is not None:
        det = side.detachment
        if det.effects:  # a detachment rule with effects of its own (a variant's added one)
            out.append(Source(det.id, det.name, owner, True, det.effects, field=f"{prefix}detachment"))
        for key in side.detachment.choices:
            ab = faction.abilities[key]
            chosen = side.sickness.key if side.sickness is not None else None
            if side.detachment.key == "spread-the-sickness" and ab.key != chosen:
                continue
            out.append(Source(ab.id, ab.name, owner, True, ab.effects, field=f"{prefix}detachment"))
    if side.enhancement is not None:
        e = side.enhancement
        out.append(Source(e.id, e.name, owner, True, e.effects, field=f"{prefix}enhancement"))
    for st in side.stratagems:
        out.append(Source(st.id, st.name, owner, True, st.effects, field=f"{prefix}stratagems"))
    return out


@implements(
    "wh40k.death-guard.ability.lord-of-the-death-guard",
    "wh40k.death-guard.ability.miasma-of-pestilence",
    "wh40k.death-guard.ability.diseased-influence",
    "wh40k.death-guard.ability.toxic-presence",
)
def aura_reach(src: Source, e: Effect, side: Side, choices: Wh40kChoices = CHOICES) -> str:
    """Why a friendly aura's effect does not reach the unit ("" when it does): a bearer farther
    away than the aura's range, or the bearer itself when the readings keep an aura from its
    own bearer (lord-own-modifiers = applies; own-auras says whether that holds for every aura
    or for Lord of the Death Guard alone)."""
    if not src.aura or e.affects != "own" or not isinstance(e.range, int):
        return ""
    if src.aura == "near":
        if side.aura_distance > e.range:
            return f'the unit is {side.aura_distance}" from the aura\'s bearer, beyond its {e.range}"'
        return ""
    r = choices.readings
    if r.lord_of_the_death_guard == "ignores":
        return ""
    if src.lord or r.own_auras == "like-lord":
        return (
            "an aura does not reach its own bearer (reading lord-own-modifiers = applies"
            + ("" if src.lord else ", own-auras = like-lord")
            + ")"
        )
    return ""


def apply_effects(
    weapons: Sequence[Weapon],
    target: Target,
    situation: Situation,
    attacker: Side,
    defender: Side,
    ctx: Context,
    choices: Wh40kChoices = CHOICES,
    faction: Faction | None = None,
) -> EffectPlan:
    """Apply every declared effect of both sides to one attack (see the module docstring).

    ``faction`` is where each side's datasheet, stratagems and detachment come from unless the
    side names its own (:attr:`Side.faction`); the Death Guard page by default."""
    default = faction or death_guard()
    b = Application(list(weapons), target, situation, choices)
    sides: dict[Owner, tuple[Side, list[Source]]] = {}
    for owner, side, label in (("attacker", attacker, "attacker"), ("defender", defender, "target")):
        fac = side.faction or default
        sides[owner] = (side, _sources(side, fac, label))  # type: ignore[index]
        b.contagion[owner] = fac.contagion(ctx.battle_round)  # type: ignore[index]
    for owner, (side, sources) in sides.items():  # what each side's rules set up: its Contagion
        for src in sources:  # Range (Toxic Presence), the modifiers it disregards (Lord)
            for e in src.effects:
                kind = KINDS[e.kind]
                if kind.prepare is not None and not aura_reach(src, e, side, choices):
                    kind.prepare(b, owner, side.has, Use(src, e, kind))
    stated = defender.datasheet is not None or bool(defender.keywords)
    for owner, (side, sources) in sides.items():
        _apply_side(b, owner, side, sources, ctx, defender.has if stated else None)
    _sum_modifiers(b, ctx)
    return EffectPlan(
        tuple(b.weapons), b.target, b.situation, tuple(b.applied), tuple(dict.fromkeys(b.warnings))
    )


def _apply_side(
    b: Application,
    owner: Owner,
    side: Side,
    sources: Sequence[Source],
    ctx: Context,
    target_has: Callable[[str], bool] | None,
) -> None:
    """Apply one side's effects whose conditions hold (each decision recorded)."""
    r = b.choices.readings
    unit_infected = ctx.infected if ctx.unit_infected is None else ctx.unit_infected
    if r.infected_positions == "one-input":
        unit_infected = ctx.infected
    holds = {
        "infected": ctx.infected,
        "not-infected": not ctx.infected,
        "unit-infected": unit_infected,
        "unit-not-infected": not unit_infected,
        "damaged": side.damaged,
    }
    scene = Scene(
        attack_phases(ctx, owner),
        ctx.ranged,
        ctx.battle_round,
        ctx.distance,
        target_has,
        r.unstated_target_keywords == "applies",
    )
    for src in sources:
        for e in src.effects:
            use = Use(src, e, KINDS[e.kind], (owner == "attacker") == (e.affects == "own"))
            why = out_of_scope(e, scene, side.has)
            if why:
                b.note(use, False, why)
                if src.chosen and any(
                    w in why for w in ("phase", "attacks only", "reaches only", "battle round", "within")
                ):
                    b.warnings.append(f"{src.name}: {why}; it changes nothing here")
                continue
            why = aura_reach(src, e, side, b.choices)
            if why:
                b.note(use, False, why)
                if src.chosen:
                    b.warnings.append(f"{src.name}: {why}; it changes nothing here")
                continue
            if e.condition is not None and not holds[e.condition]:
                b.note(use, False, f"needs {e.condition} (not the case here)")
                continue
            if e.range == "contagion" or (
                e.range == "army-contagion" and r.boilblight_reach == "attacking-unit"
            ):
                reach = _contagion_reach(ctx, b.contagion[owner], r.contagion_range)
                if reach:
                    b.note(use, False, reach)
                    continue
            use.kind.run(b, use)


def _sum_modifiers(b: Application, ctx: Context) -> None:
    """The attacker's Hit and Wound roll modifiers summed, with Lord of the Death Guard
    disregarding the harmful ones (and the target's Stealth)."""
    lord = b.ignores.get("attacker")
    hit = _sum_mods(b, b.hit_mods, lord, "Hit roll")
    wound = _sum_mods(b, b.wound_mods, lord, "Wound roll")
    if lord and b.target.stealth and ctx.ranged:
        b.target = replace(b.target, stealth=False)
        b.applied.append(
            Applied(
                "wh40k.death-guard.ability.lord-of-the-death-guard",
                "Lord of the Death Guard",
                "ignore modifiers",
                True,
                "the target's Stealth (−1 to hit) is disregarded",
            )
        )
    b.situation = replace(b.situation, hit_modifier=hit, wound_modifier=wound)


def _contagion_reach(ctx: Context, reach: int, reading: str) -> str:
    if reading == "not-modelled":
        return "Contagion Range is not modelled (reading contagion-range = not-modelled)"
    if reading == "toughness-input":
        return "the player enters its effect as inputs (reading contagion-range = toughness-input)"
    if ctx.distance is None:
        return f'no distance given (Contagion Range this battle round: {reach}")'
    if ctx.distance > reach:
        return f'the units are {ctx.distance}" apart, beyond the Contagion Range of {reach}"'
    return ""


def _sum_mods(b: Application, mods: list[tuple[str, int]], lord: str | None, roll: str) -> int:
    total = 0
    for name, value in mods:
        if lord and value < 0:
            b.applied.append(
                Applied(
                    "wh40k.death-guard.ability.lord-of-the-death-guard",
                    lord,
                    "ignore modifiers",
                    True,
                    f"{name}: {roll} modifier {value:+d} disregarded",
                )
            )
            continue
        total += value
    return total
