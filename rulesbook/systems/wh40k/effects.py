"""Declared effects applied to one attack: abilities, auras, stratagems and detachment rules of
both sides become changes to the weapons, the target and the situation the engine resolves.

Each side of an attack (:class:`Side`) brings its datasheet's abilities, the Host of Plagues aura
chosen for the battle round (one at most), the stratagems its player uses and its detachment rule
with the Sickness chosen for it. :func:`apply_effects` walks every declared
:class:`~rulesbook.systems.wh40k.faction.Effect` and either applies it or skips it, always saying
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
    >>> from rulesbook.systems.wh40k.faction import death_guard
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

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from rulesbook.dice import REROLLS, Reroll
from rulesbook.errors import InputError
from rulesbook.registry import implements
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices
from rulesbook.systems.wh40k.faction import (
    Ability,
    Datasheet,
    Detachment,
    Effect,
    Enhancement,
    Faction,
    Stratagem,
    death_guard,
)
from rulesbook.systems.wh40k.faction_rules import describe_effect
from rulesbook.systems.wh40k.rules import Situation
from rulesbook.systems.wh40k.shock import SICKNESS_KEYS, leadership_worsened, p_not_battle_shocked
from rulesbook.systems.wh40k.weapons import Target, Weapon, parse_abilities

__all__ = [
    "SICKNESS_KEYS",
    "Applied",
    "Context",
    "EffectPlan",
    "Side",
    "apply_effects",
    "attack_phases",
    "aura_reach",
    "leadership_worsened",
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
class Applied:
    """One declared effect and what became of it."""

    rule: str
    name: str
    effect: str
    applied: bool
    why: str
    side: str = "attacker"
    """Whose rule it is: ``attacker`` or ``target``."""


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


@dataclass(frozen=True, slots=True)
class _Source:
    rule: str
    name: str
    side: str
    chosen: bool
    """Chosen by the player (a stratagem, an aura, a Sickness): out of scope gives a warning."""
    effects: tuple[Effect, ...]
    aura: Literal["own", "near", ""] = ""
    """A friendly aura: of the unit itself (``own``), of a bearer ``aura_distance`` away
    (``near``), or not an aura reach question (``""``)."""
    lord: bool = False
    """Lord of the Death Guard itself (the reading lord-own-modifiers is about it)."""
    field: str = "stratagems"
    """The input that chose it (for a refusal's message)."""


@implements("wh40k.death-guard.ability.host-of-plagues", "wh40k.death-guard.detachment.verminous-haze")
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


_REROLL_ORDER: dict[str, int] = {r: i for i, r in enumerate(REROLLS)}


class _Builder:
    """Accumulates the changes; every decision is recorded."""

    def __init__(
        self,
        weapons: Sequence[Weapon],
        target: Target,
        situation: Situation,
        sustained_stacking: str = "larger-on-average",
    ) -> None:
        self.sustained_stacking = sustained_stacking
        self.weapons = list(weapons)
        self.target = target
        self.situation = situation
        self.applied: list[Applied] = []
        self.warnings: list[str] = []

    def note(self, src: _Source, effect: Effect | None, applied: bool, why: str) -> None:
        shown = describe_effect(effect) if effect is not None else ""
        self.applied.append(Applied(src.rule, src.name, shown, applied, why, src.side))

    def weapon_abilities(self, word: str) -> str:
        ab = parse_abilities(word)
        changed = []
        for i, w in enumerate(self.weapons):
            old = w.abilities
            if ab.sustained is not None:
                # a weapon that already has Sustained Hits keeps the larger X on average
                # (register entry sustained-stacking; "stratagem-replaces" takes the granted X)
                keep = self.sustained_stacking == "larger-on-average"
                if (
                    keep
                    and old.sustained is not None
                    and old.sustained.die().mean() >= ab.sustained.die().mean()
                ):
                    continue
                new = replace(old, sustained=ab.sustained)
            else:
                new = old.gain(ab)
                if (new.blast or new.torrent or new.heavy or new.indirect_fire) and not w.ranged:
                    continue  # a ranged ability does not reach a melee weapon
            if new != old:
                self.weapons[i] = replace(w, abilities=new)
                changed.append(w.name)
        return ", ".join(changed) if changed else "no weapon changed (each already has it)"


@implements(
    "wh40k.death-guard.ability.nurgles-gift",
    "wh40k.death-guard.ability.miasma-of-pestilence",
    "wh40k.death-guard.ability.diseased-influence",
    "wh40k.death-guard.ability.toxic-presence",
    "wh40k.death-guard.ability.lord-of-the-death-guard",
    "wh40k.death-guard.ability.damaged",
    "wh40k.death-guard.ability.skullsquirm-blight",
    "wh40k.death-guard.ability.rattlejoint-ague",
    "wh40k.death-guard.ability.scabrous-soulrot",
    "wh40k.death-guard.ability.scouts-and-stealth",
    "wh40k.death-guard.stratagem.ferric-blight",
    "wh40k.death-guard.stratagem.boilblight",
    "wh40k.death-guard.stratagem.cloud-of-flies",
    "wh40k.death-guard.stratagem.disgustingly-resilient",
    "wh40k.death-guard.stratagem.sanguous-flux",
    "wh40k.death-guard.stratagem.fire-overwatch",
    "wh40k.death-guard.detachment.spread-the-sickness",
    "wh40k.death-guard.detachment.verminous-haze",
)
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
    b = _Builder(weapons, target, situation, choices.readings.sustained_stacking)
    sides: dict[Owner, tuple[Side, list[_Source], Faction]] = {}
    for owner, side, label in (("attacker", attacker, "attacker"), ("defender", defender, "target")):
        fac = side.faction or default
        sides[owner] = (side, _sources(side, fac, label), fac)  # type: ignore[index]
    # Contagion Range of each side (the published table, + Toxic Presence), and Lord's reach
    contagion: dict[Owner, int] = {}
    ignores: dict[Owner, str] = {}
    for owner, (side, sources, fac) in sides.items():
        contagion[owner] = fac.contagion(ctx.battle_round)
        for src in sources:
            for e in src.effects:
                if aura_reach(src, e, side, choices):
                    continue
                if e.kind == "contagion-range" and isinstance(e.value, int):
                    contagion[owner] += e.value
                if e.kind == "ignore-modifiers" and all(side.has(k) for k in e.keywords):
                    ignores[owner] = src.name
    hit_mods: list[tuple[str, int]] = [("hit_modifier input", situation.hit_modifier)]
    wound_mods: list[tuple[str, int]] = [("wound_modifier input", situation.wound_modifier)]
    ap_by_rule: dict[str, int] = {}
    unit_infected = ctx.infected if ctx.unit_infected is None else ctx.unit_infected
    if r.infected_positions == "one-input":
        unit_infected = ctx.infected

    for owner, (side, sources, _) in sides.items():
        phases = attack_phases(ctx, owner)
        other: Owner = "defender" if owner == "attacker" else "attacker"
        for src in sources:
            for e in src.effects:
                why = _out_of_scope(e, phases, ctx, side, owner)
                if why:
                    b.note(src, e, False, why)
                    if src.chosen and ("phase" in why or "attacks only" in why or "reaches only" in why):
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
                _apply_one(b, src, e, owner, other, ignores, hit_mods, wound_mods, ap_by_rule, choices)

    # modifiers to the attacker's rolls, with Lord of the Death Guard
    lord = ignores.get("attacker")
    hit = _sum_mods(b, hit_mods, lord, "Hit roll")
    wound = _sum_mods(b, wound_mods, lord, "Wound roll")
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


def _out_of_scope(e: Effect, phases: frozenset[str], ctx: Context, side: Side, owner: Owner) -> str:
    if "any" not in e.phases and not phases & set(e.phases):
        return f"a {'/'.join(e.phases)} phase effect, but this attack is in {'/'.join(sorted(phases))}"
    if e.attack == "ranged" and not ctx.ranged:
        return "ranged attacks only, and this is a melee attack"
    if e.attack == "melee" and ctx.ranged:
        return "melee attacks only, and this is a ranged attack"
    if e.affects == "own" and e.keywords and not all(side.has(k) for k in e.keywords):
        return f"reaches only units with {', '.join(e.keywords)}"
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


@implements(
    "wh40k.death-guard.ability.supreme-commander",
    "wh40k.death-guard.ability.infected-objectives",
    "wh40k.death-guard.stratagem.battlefield-command",
    "wh40k.death-guard.stratagem.command-re-roll",
    "wh40k.death-guard.stratagem.command-re-roll-boarding-actions",
    "wh40k.death-guard.stratagem.explosive-clearance",
    "wh40k.death-guard.stratagem.counter-offensive",
    "wh40k.death-guard.stratagem.counter-offensive-boarding-actions",
    "wh40k.death-guard.stratagem.rapid-ingress",
    "wh40k.death-guard.stratagem.grenade",
    "wh40k.death-guard.stratagem.heroic-intervention",
    "wh40k.death-guard.stratagem.epic-challenge",
    "wh40k.death-guard.stratagem.gifts-of-decay",
)
def _apply_one(
    b: _Builder,
    src: _Source,
    e: Effect,
    owner: Owner,
    other: Owner,
    ignores: dict[Owner, str],
    hit_mods: list[tuple[str, int]],
    wound_mods: list[tuple[str, int]],
    ap_by_rule: dict[str, int],
    choices: Wh40kChoices,
) -> None:
    r = choices.readings
    attacking = (owner == "attacker") == (e.affects == "own")
    """Whether the effect lands on the attacking unit (else on the target)."""
    k = e.kind
    if k == "none":
        text_only = e.register == "wh40k.interpretations.imported-text-only"
        if src.chosen and text_only and r.imported_text_only == "refused":
            raise InputError(
                src.field,
                f"{src.name} is kept as text only: the effects language cannot say it "
                "(reading imported-text-only = refused)",
            )
        if src.chosen and not text_only and r.outside_attack_rules == "refuse":
            raise InputError(
                src.field,
                f"{src.name} changes no number of an attack (reading outside-attack-rules = refuse)",
            )
        b.note(src, e, False, f"changes no number of an attack ({e.note}; see {e.register})")
        return
    if k == "contagion-range":
        b.note(src, e, True, "the Contagion Range used here includes it")
        return
    if k == "ignore-modifiers":
        b.note(src, e, True, "the unit disregards the harmful modifiers listed under it")
        return
    if k == "auto-pass":
        b.note(src, e, False, "acts on a Battle-shock test (wh40k.battle-shock), not on an attack")
        return
    if attacking:
        if k == "hit-modifier" and isinstance(e.value, int):
            hit_mods.append((src.name, e.value))
            b.note(src, e, True, f"Hit roll modifier {e.value:+d} (capped with the others at ±1)")
        elif k == "wound-modifier" and isinstance(e.value, int):
            wound_mods.append((src.name, e.value))
            b.note(src, e, True, f"Wound roll modifier {e.value:+d} (capped with the others at ±1)")
        elif k in ("reroll-hits", "reroll-wounds") and isinstance(e.value, str):
            wanted: Reroll = "ones" if e.value == "ones" else "failed"
            hits = k == "reroll-hits"
            now = b.situation.reroll_hits if hits else b.situation.reroll_wounds
            if _REROLL_ORDER[wanted] > _REROLL_ORDER[now]:
                if hits:
                    b.situation = replace(b.situation, reroll_hits=wanted)
                else:
                    b.situation = replace(b.situation, reroll_wounds=wanted)
                b.note(src, e, True, f"{k.replace('reroll-', 're-roll ')}: {e.value}")
            else:
                b.note(src, e, False, f"the attack already re-rolls {now}")
        elif k == "ap" and isinstance(e.value, int):
            b.weapons = [replace(w, ap=max(-6, w.ap - e.value)) for w in b.weapons]
            ap_by_rule[src.rule] = ap_by_rule.get(src.rule, 0) + e.value
            b.note(src, e, True, f"every weapon's AP improved by {e.value}")
        elif k == "critical-ap" and isinstance(e.value, int):
            extra = e.value - ap_by_rule.get(src.rule, 0)
            b.situation = replace(b.situation, critical_wound_ap=b.situation.critical_wound_ap + extra)
            b.note(src, e, True, f"a Critical Wound's AP improved by {e.value} in all")
        elif k == "weapon-ability":
            b.note(src, e, True, "weapons changed: " + b.weapon_abilities(str(e.value)))
        elif k == "overwatch":
            b.situation = replace(b.situation, overwatch=True)
            b.note(src, e, True, "only unmodified 6s hit (wh40k.attack.fire-overwatch)")
        elif k == "worsen" and e.characteristic == "skill" and isinstance(e.value, int):
            lord = ignores.get("attacker")
            if r.sickness_caps == "roll-modifier":
                # a roll modifier: Lord, if the unit has it, disregards it with the others
                hit_mods.append((src.name, -e.value))
                b.note(
                    src, e, True, "a −1 Hit roll modifier (reading sickness-modifier-caps = roll-modifier)"
                )
            elif lord and r.lord_weapon_characteristics != "neither":
                b.note(
                    src,
                    e,
                    False,
                    f"disregarded through {lord} (reading lord-weapon-characteristics = "
                    f"{r.lord_weapon_characteristics})",
                )
            else:
                b.weapons = [replace(w, skill=min(7, w.skill + e.value)) for w in b.weapons]
                b.note(src, e, True, f"BS/WS {e.value} worse (a characteristic, outside the ±1 cap)")
        else:
            b.note(src, e, False, "protects or changes the attacking unit in other ways, not its attacks")
        return
    # on the target
    t = b.target
    if k == "cover":
        b.target = replace(t, cover=True)
        b.note(src, e, True, "the target has the Benefit of Cover")
    elif k == "stealth":
        b.target = replace(t, stealth=True)
        b.note(src, e, True, "the target has Stealth (−1 to ranged Hit rolls)")
    elif k == "damage-reduction" and isinstance(e.value, int):
        lord = ignores.get("attacker")
        if lord and r.lord_weapon_characteristics == "both":
            b.note(
                src,
                e,
                False,
                f"disregarded through the attacker's {lord} (reading lord-weapon-characteristics = both)",
            )
        else:
            b.target = replace(t, damage_reduction=t.damage_reduction + e.value)
            b.note(src, e, True, f"Damage of each attack reduced by {e.value}")
    elif k == "worsen" and e.characteristic in ("toughness", "save") and isinstance(e.value, int):
        lord = ignores.get("defender")
        as_modifier = e.characteristic == "save" and r.sickness_caps == "roll-modifier"
        if (
            lord
            and not as_modifier
            and (e.characteristic == "toughness" or r.lord_save_characteristic == "ignores")
        ):
            b.note(src, e, False, f"disregarded through the target's {lord}")
        elif e.characteristic == "toughness":
            b.target = replace(t, toughness=max(1, t.toughness - e.value))
            b.note(src, e, True, f"target Toughness {t.toughness} → {b.target.toughness}")
        elif as_modifier:
            # a modifier to the saving throw: Lord of the Death Guard never disregards those
            b.situation = replace(b.situation, save_modifier=b.situation.save_modifier - e.value)
            b.note(
                src,
                e,
                True,
                "a −1 saving throw modifier (reading sickness-modifier-caps = roll-modifier)"
                + (f"; {lord} never disregards a saving throw modifier" if lord else ""),
            )
        else:
            b.target = replace(t, save=min(7, t.save + e.value))
            b.note(
                src,
                e,
                True,
                f"target Save {t.save}+ → {b.target.save}+" if b.target.save < 7 else "no armour save left",
            )
    elif k == "worsen":
        b.note(src, e, False, f"{e.characteristic} changes Battle-shock tests or objectives, not this attack")
    else:
        b.note(src, e, False, "changes the unit's own attacks, not the attacks made against it")


def _sum_mods(b: _Builder, mods: list[tuple[str, int]], lord: str | None, roll: str) -> int:
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
