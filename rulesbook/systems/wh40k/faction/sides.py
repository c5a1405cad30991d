"""Declared effects applied to one attack: abilities, auras, stratagems and detachment rules of
both sides become changes to the weapons, the target and the situation the engine resolves.

Each side of an attack (:class:`Side`) brings its datasheet's abilities, the Host of Plagues aura
chosen for the battle round (one at most), the stratagems its player uses and its detachment rule
with the Sickness chosen for it. :func:`apply_effects` walks every declared
:class:`~rulesbook.systems.wh40k.faction.reader.Effect` and either applies it or skips it, always saying
why (:class:`Applied`):

* **scope** — the phase (seen from the side that uses the rule: the attacker's ranged attack is
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
from rulesbook.systems.wh40k.effects.kinds import KINDS, Application, Applied, Use
from rulesbook.systems.wh40k.effects.kinds import Source as _Source
from rulesbook.systems.wh40k.faction.reader import (
    Ability,
    Datasheet,
    Detachment,
    Effect,
    Enhancement,
    Faction,
    Stratagem,
    death_guard,
)
from rulesbook.systems.wh40k.faction.shock import SICKNESS_KEYS, leadership_worsened, p_not_battle_shocked

__all__ = [
    "SICKNESS_KEYS",
    "Applied",
    "Context",
    "EffectPlan",
    "Scene",
    "Side",
    "apply_effects",
    "attack_phases",
    "aura_reach",
    "leadership_worsened",
    "out_of_scope",
    "p_not_battle_shocked",
]


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


type Owner = Literal["attacker", "defender"]


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
def _sources(side: Side, faction: Faction, owner: str) -> list[_Source]:
    """The rules a side brings: its datasheet's abilities (Host of Plagues only through the one
    aura of the round), the auras of a friendly bearer near it, the chosen aura, its detachment's
    abilities (of Spread the Sickness only the chosen Sickness) and its stratagems."""
    out: list[_Source] = []

    def friendly_aura(ab: Ability) -> bool:
        return ab.aura and any(e.affects == "own" and isinstance(e.range, int) for e in ab.effects)

    if side.datasheet is not None:
        for key in side.datasheet.abilities:
            ab = faction.abilities.get(key)
            if ab is None or ab.choice_of:  # Host of Plagues: only the aura of the round
                continue
            if key == "nurgles-gift" or ab.effects:
                kind: Literal["own", ""] = "own" if friendly_aura(ab) else ""
                lord = any(e.kind == "ignore-modifiers" for e in ab.effects)
                out.append(_Source(ab.id, ab.name, owner, False, ab.effects, kind, lord))
    if side.bearer is not None and (side.datasheet is None or side.bearer.id != side.datasheet.id):
        for key in side.bearer.abilities:
            ab = death_guard().abilities.get(key) or faction.abilities.get(key)
            if ab is not None and not ab.choice_of and friendly_aura(ab):
                lord = any(e.kind == "ignore-modifiers" for e in ab.effects)
                out.append(_Source(ab.id, ab.name, owner, False, ab.effects, "near", lord))
    prefix = "" if owner == "attacker" else "target_"
    if side.aura is not None:
        where: Literal["own", "near"] = "near" if side.bearer is not None else "own"
        out.append(
            _Source(
                side.aura.id, side.aura.name, owner, True, side.aura.effects, where, field=f"{prefix}aura"
            )
        )
    if side.detachment is not None:
        det = side.detachment
        if det.effects:  # a detachment rule with effects of its own (a variant's added one)
            out.append(_Source(det.id, det.name, owner, True, det.effects, field=f"{prefix}detachment"))
        for key in side.detachment.choices:
            ab = faction.abilities[key]
            chosen = side.sickness.key if side.sickness is not None else None
            if side.detachment.key == "spread-the-sickness" and ab.key != chosen:
                continue
            out.append(_Source(ab.id, ab.name, owner, True, ab.effects, field=f"{prefix}detachment"))
    if side.enhancement is not None:
        e = side.enhancement
        out.append(_Source(e.id, e.name, owner, True, e.effects, field=f"{prefix}enhancement"))
    for st in side.stratagems:
        out.append(_Source(st.id, st.name, owner, True, st.effects, field=f"{prefix}stratagems"))
    return out


@implements(
    "wh40k.death-guard.ability.lord-of-the-death-guard",
    "wh40k.death-guard.ability.miasma-of-pestilence",
    "wh40k.death-guard.ability.diseased-influence",
    "wh40k.death-guard.ability.toxic-presence",
)
def aura_reach(src: _Source, e: Effect, side: Side, choices: Wh40kChoices = CHOICES) -> str:
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
    r = choices.readings
    b = Application(list(weapons), target, situation, choices)
    sides: dict[Owner, tuple[Side, list[_Source], Faction]] = {}
    for owner, side, label in (("attacker", attacker, "attacker"), ("defender", defender, "target")):
        fac = side.faction or default
        sides[owner] = (side, _sources(side, fac, label), fac)  # type: ignore[index]
    # Contagion Range of each side (the published table, + Toxic Presence), and Lord's reach
    contagion: dict[Owner, int] = {}
    for owner, (side, sources, fac) in sides.items():
        contagion[owner] = fac.contagion(ctx.battle_round)
        for src in sources:
            for e in src.effects:
                if aura_reach(src, e, side, choices):
                    continue
                if e.kind == "contagion-range" and isinstance(e.value, int):
                    contagion[owner] += e.value
                if e.kind == "ignore-modifiers" and all(side.has(k) for k in e.keywords):
                    b.ignores[owner] = src.name
    unit_infected = ctx.infected if ctx.unit_infected is None else ctx.unit_infected
    if r.infected_positions == "one-input":
        unit_infected = ctx.infected
    stated = defender.datasheet is not None or bool(defender.keywords)
    target_has = defender.has if stated else None

    for owner, (side, sources, _) in sides.items():
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
                why = out_of_scope(e, scene, side.has)
                if why:
                    b.note(src, e, False, why)
                    if src.chosen and any(
                        w in why for w in ("phase", "attacks only", "reaches only", "battle round", "within")
                    ):
                        b.warnings.append(f"{src.name}: {why}; it changes nothing here")
                    continue
                why = aura_reach(src, e, side, choices)
                if why:
                    b.note(src, e, False, why)
                    if src.chosen:
                        b.warnings.append(f"{src.name}: {why}; it changes nothing here")
                    continue
                if e.condition is not None:
                    ok = {
                        "infected": ctx.infected,
                        "not-infected": not ctx.infected,
                        "unit-infected": unit_infected,
                        "unit-not-infected": not unit_infected,
                        "damaged": side.damaged,
                    }[e.condition]
                    if not ok:
                        b.note(src, e, False, f"needs {e.condition} (not the case here)")
                        continue
                if e.range == "contagion" or (
                    e.range == "army-contagion" and r.boilblight_reach == "attacking-unit"
                ):
                    reach = _contagion_reach(ctx, contagion[owner], r.contagion_range)
                    if reach:
                        b.note(src, e, False, reach)
                        continue
                attacking = (owner == "attacker") == (e.affects == "own")
                KINDS[e.kind].run(b, Use(src, e, attacking))

    # modifiers to the attacker's rolls, with Lord of the Death Guard
    lord = b.ignores.get("attacker")
    hit = _sum_mods(b, b.hit_mods, lord, "Hit roll")
    wound = _sum_mods(b, b.wound_mods, lord, "Wound roll")
    target_now = b.target
    if lord and target_now.stealth and ctx.ranged:
        target_now = replace(target_now, stealth=False)
        b.applied.append(
            Applied(
                "wh40k.death-guard.ability.lord-of-the-death-guard",
                "Lord of the Death Guard",
                "ignore modifiers",
                True,
                "the target's Stealth (−1 to hit) is disregarded",
            )
        )
    b.target = target_now
    b.situation = replace(b.situation, hit_modifier=hit, wound_modifier=wound)
    return EffectPlan(
        tuple(b.weapons), b.target, b.situation, tuple(b.applied), tuple(dict.fromkeys(b.warnings))
    )


# -- conditions ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scene:
    """What the conditions of an effect are checked against: the attack's phases seen from the
    side that uses the rule, ranged or melee, the battle round, the distance between the units
    (``None``: not given), and the keywords of the attacking unit's target (``None``: not
    given)."""

    phases: frozenset[str]
    ranged: bool
    battle_round: int
    distance: int | None
    target_has: Callable[[str], bool] | None = field(default=None, compare=False)
    unstated_applies: bool = False
    """An effect needing target keywords applies when they are not given (reading
    unstated-target-keywords = applies)."""


@implements("wh40k.core.declared-effects")
def out_of_scope(e: Effect, scene: Scene, unit_has: Callable[[str], bool]) -> str:
    """Why the effect does not apply in this attack ("" when its conditions hold): its phases,
    attack kind, the keywords of the unit it reaches, the target's keywords, the battle round
    and the distance between the units.

    >>> s = Scene(frozenset({"your-shooting"}), True, 1, None, lambda k: k == "VEHICLE")
    >>> out_of_scope(Effect(kind="ap", value=1, target_keywords=("MONSTER",)), s, lambda k: True)
    'reaches only targets with MONSTER'
    >>> out_of_scope(Effect(kind="ap", value=1, battle_rounds=(2, 3)), s, lambda k: True)
    'battle round 2/3 only, and this is battle round 1'
    """
    if "any" not in e.phases and not scene.phases & set(e.phases):
        return f"a {'/'.join(e.phases)} phase effect, but this attack is in {'/'.join(sorted(scene.phases))}"
    if e.attack == "ranged" and not scene.ranged:
        return "ranged attacks only, and this is a melee attack"
    if e.attack == "melee" and scene.ranged:
        return "melee attacks only, and this is a ranged attack"
    if e.affects == "own" and e.keywords and not all(unit_has(k) for k in e.keywords):
        return f"reaches only units with {', '.join(e.keywords)}"
    if e.target_keywords:
        wanted = ", ".join(e.target_keywords)
        if scene.target_has is None:
            if not scene.unstated_applies:  # register entry unstated-target-keywords
                return f"reaches only targets with {wanted}, and the target's keywords are not given"
        elif not all(scene.target_has(k) for k in e.target_keywords):
            return f"reaches only targets with {wanted}"
    if e.battle_rounds and scene.battle_round not in e.battle_rounds:
        rounds = "/".join(str(r) for r in e.battle_rounds)
        return f"battle round {rounds} only, and this is battle round {scene.battle_round}"
    if e.within is not None:
        if scene.distance is None:
            return f'the units must be within {e.within}", and no distance is given'
        if scene.distance > e.within:
            return f'the units must be within {e.within}", and they are {scene.distance}" apart'
    return ""


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
