"""The effects language of 40k, declared once: each effect kind's schema (what its ``value``
may be), how the attack calculators apply it and how it is worded, side by side in one
:class:`EffectKind` (the conditions every effect may carry are checked by
:func:`~rulesbook.systems.wh40k.faction.sides.out_of_scope`).

Faction files (``death-guard.yaml``), imported factions and a variant's ``add:`` entries all
speak this language: the loader checks a value with :attr:`EffectKind.value`, the pages and
the record of an attack word it with :attr:`EffectKind.describe`, and
:func:`~rulesbook.systems.wh40k.faction.sides.apply_effects` hands it to :attr:`EffectKind.apply`. A new kind is one entry
of :data:`KINDS` (and a line of ``docs/designer/effects.md``, which a test keeps in step).

Example:
    >>> KINDS["wound-modifier"].value.check(1, "effects[0].value")
    1
    >>> KINDS["wound-modifier"].value.check(5, "effects[0].value")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: effects[0].value: expected an integer from -3 to 3, got 5
    >>> describe_effect(Effect(kind="wound-modifier", value=1, target_keywords=("MONSTER",)))
    'Wound roll modifier +1 (own unit; against MONSTER targets)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from rulesbook.data import DataFileError
from rulesbook.dice import REROLLS, Reroll
from rulesbook.errors import InputError, quote
from rulesbook.registry import implements
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities
from rulesbook.systems.wh40k.faction.types import Effect

if TYPE_CHECKING:  # the choice set and the situation are only handed through
    from rulesbook.systems.wh40k.attack.rolls import Situation
    from rulesbook.systems.wh40k.choices import Wh40kChoices

__all__ = [
    "EFFECT_KINDS",
    "KINDS",
    "Application",
    "Applied",
    "EffectKind",
    "Source",
    "Use",
    "ValueRule",
    "describe_effect",
]


# -- values -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ValueRule:
    """What an effect kind's ``value`` may be: an integer from ``lo`` to ``hi`` (``int``), one
    of ``options`` (``choice``), weapon ability words (``ability``) or anything (``free``: the
    kind reads no value)."""

    kind: Literal["int", "choice", "ability", "free"]
    lo: int = 0
    hi: int = 0
    options: tuple[str, ...] = ()

    @property
    def schema(self) -> str:
        """The value's schema in words (the effects page lists it).

        >>> ValueRule("int", 1, 12).schema
        'value: an integer from 1 to 12'
        """
        if self.kind == "int":
            return f"value: an integer from {self.lo} to {self.hi}"
        if self.kind == "choice":
            return "value: one of " + ", ".join(self.options)
        if self.kind == "ability":
            return "value: weapon ability words (e.g. lethal-hits, crit-hit-5)"
        return "no value"

    def check(self, raw: Any, where: str) -> Any:
        """The checked value (DataFileError naming ``where`` when it is not allowed)."""
        if self.kind == "int":
            if isinstance(raw, bool) or not isinstance(raw, int) or not self.lo <= raw <= self.hi:
                raise DataFileError(
                    f"{where}: expected an integer from {self.lo} to {self.hi}, got {quote(raw)}"
                )
        elif self.kind == "choice":
            if raw not in self.options:
                raise DataFileError(f"{where}: expected one of {', '.join(self.options)}, got {quote(raw)}")
        elif self.kind == "ability":
            try:
                parse_abilities(str(raw), field_name=where)
            except InputError as exc:
                raise DataFileError(f"{where}: {exc.message}") from None
        return raw


# -- applying -----------------------------------------------------------------------------------


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
class Source:
    """A rule a side brings to the attack, with its effects."""

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


@dataclass(frozen=True, slots=True)
class Use:
    """One effect of one source, about to be applied: ``attacking`` says whether it lands on
    the attacking unit (else on the target)."""

    src: Source
    effect: Effect
    attacking: bool


_REROLL_ORDER: dict[str, int] = {r: i for i, r in enumerate(REROLLS)}


class Application:
    """The attack as the effects change it: weapons, target, situation, the Hit and Wound roll
    modifiers collected (summed and capped afterwards), AP by rule, who ignores modifiers
    (Lord of the Death Guard, by side), and every decision, recorded."""

    def __init__(
        self,
        weapons: list[Weapon],
        target: Target,
        situation: Situation,
        choices: Wh40kChoices,
    ) -> None:
        self.weapons = weapons
        self.target = target
        self.situation = situation
        self.choices = choices
        self.applied: list[Applied] = []
        self.warnings: list[str] = []
        self.hit_mods: list[tuple[str, int]] = [("hit_modifier input", situation.hit_modifier)]
        self.wound_mods: list[tuple[str, int]] = [("wound_modifier input", situation.wound_modifier)]
        self.ap_by_rule: dict[str, int] = {}
        self.ignores: dict[str, str] = {}

    def note(self, src: Source, effect: Effect | None, applied: bool, why: str) -> None:
        shown = describe_effect(effect) if effect is not None else ""
        self.applied.append(Applied(src.rule, src.name, shown, applied, why, src.side))

    def weapon_abilities(self, word: str) -> str:
        """Give every weapon the ability words (the names of those that changed)."""
        ab = parse_abilities(word)
        changed = []
        stacking = self.choices.readings.sustained_stacking
        for i, w in enumerate(self.weapons):
            old = w.abilities
            if ab.sustained is not None:
                # a weapon that already has Sustained Hits keeps the larger X on average
                # (register entry sustained-stacking; "stratagem-replaces" takes the granted X)
                keep = stacking == "larger-on-average"
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


type Apply = Callable[[Application, Use], None]
type Describe = Callable[[Effect], str]


@dataclass(frozen=True, slots=True)
class EffectKind:
    """One kind of effect: its name, what it does (one line), what its value may be, how it is
    worded and how it is applied. ``lands`` says whose numbers it changes in an attack: the
    attacking unit's (``attacker``: its rolls and weapons), the target's (``target``) or
    either (``either``: the kind's ``apply`` decides, or it changes nothing of an attack)."""

    name: str
    summary: str
    value: ValueRule
    describe: Describe
    apply: Apply
    lands: Literal["attacker", "target", "either"]
    needs_characteristic: bool = False
    notes: str = ""
    """What else the kind reads (the page of the effects language shows it)."""

    def run(self, b: Application, use: Use) -> None:
        """Apply one effect, or record why it changes nothing of this attack."""
        if self.lands == "attacker" and not use.attacking:
            b.note(
                use.src, use.effect, False, "changes the unit's own attacks, not the attacks made against it"
            )
        elif self.lands == "target" and use.attacking:
            b.note(
                use.src,
                use.effect,
                False,
                "protects or changes the attacking unit in other ways, not its attacks",
            )
        else:
            self.apply(b, use)


def _int(e: Effect) -> int:
    return e.value if isinstance(e.value, int) else 0


def _modifier(roll: str) -> Apply:
    def apply(b: Application, use: Use) -> None:
        e = use.effect
        (b.hit_mods if roll == "Hit" else b.wound_mods).append((use.src.name, _int(e)))
        b.note(use.src, e, True, f"{roll} roll modifier {_int(e):+d} (capped with the others at ±1)")

    apply.__name__ = apply.__qualname__ = f"_{roll.lower()}_modifier"  # as the rule pages name it
    return apply


def _reroll(hits: bool) -> Apply:
    def apply(b: Application, use: Use) -> None:
        e = use.effect
        wanted: Reroll = "ones" if e.value == "ones" else "failed"
        now = b.situation.reroll_hits if hits else b.situation.reroll_wounds
        if _REROLL_ORDER[wanted] > _REROLL_ORDER[now]:
            if hits:
                b.situation = replace(b.situation, reroll_hits=wanted)
            else:
                b.situation = replace(b.situation, reroll_wounds=wanted)
            b.note(use.src, e, True, f"{e.kind.replace('reroll-', 're-roll ')}: {e.value}")
        else:
            b.note(use.src, e, False, f"the attack already re-rolls {now}")

    apply.__name__ = apply.__qualname__ = "_reroll_hits" if hits else "_reroll_wounds"
    return apply


def _ap(b: Application, use: Use) -> None:
    value = _int(use.effect)
    b.weapons = [replace(w, ap=max(-6, w.ap - value)) for w in b.weapons]
    b.ap_by_rule[use.src.rule] = b.ap_by_rule.get(use.src.rule, 0) + value
    b.note(use.src, use.effect, True, f"every weapon's AP improved by {value}")


def _critical_ap(b: Application, use: Use) -> None:
    value = _int(use.effect)
    extra = value - b.ap_by_rule.get(use.src.rule, 0)
    b.situation = replace(b.situation, critical_wound_ap=b.situation.critical_wound_ap + extra)
    b.note(use.src, use.effect, True, f"a Critical Wound's AP improved by {value} in all")


def _weapon_ability(b: Application, use: Use) -> None:
    b.note(use.src, use.effect, True, "weapons changed: " + b.weapon_abilities(str(use.effect.value)))


def _overwatch(b: Application, use: Use) -> None:
    b.situation = replace(b.situation, overwatch=True)
    b.note(use.src, use.effect, True, "only unmodified 6s hit (wh40k.attack.fire-overwatch)")


def _cover(b: Application, use: Use) -> None:
    b.target = replace(b.target, cover=True)
    b.note(use.src, use.effect, True, "the target has the Benefit of Cover")


def _stealth(b: Application, use: Use) -> None:
    b.target = replace(b.target, stealth=True)
    b.note(use.src, use.effect, True, "the target has Stealth (−1 to ranged Hit rolls)")


def _damage_reduction(b: Application, use: Use) -> None:
    r = b.choices.readings
    lord = b.ignores.get("attacker")
    if lord and r.lord_weapon_characteristics == "both":
        b.note(
            use.src,
            use.effect,
            False,
            f"disregarded through the attacker's {lord} (reading lord-weapon-characteristics = both)",
        )
        return
    t = b.target
    b.target = replace(t, damage_reduction=t.damage_reduction + _int(use.effect))
    b.note(use.src, use.effect, True, f"Damage of each attack reduced by {_int(use.effect)}")


def _worsen(b: Application, use: Use) -> None:
    e, src = use.effect, use.src
    r = b.choices.readings
    value = _int(e)
    if use.attacking:
        if e.characteristic != "skill":
            b.note(src, e, False, "protects or changes the attacking unit in other ways, not its attacks")
            return
        lord = b.ignores.get("attacker")
        if r.sickness_caps == "roll-modifier":
            # a roll modifier: Lord, if the unit has it, disregards it with the others
            b.hit_mods.append((src.name, -value))
            b.note(src, e, True, "a −1 Hit roll modifier (reading sickness-modifier-caps = roll-modifier)")
        elif lord and r.lord_weapon_characteristics != "neither":
            b.note(
                src,
                e,
                False,
                f"disregarded through {lord} (reading lord-weapon-characteristics = {r.lord_weapon_characteristics})",
            )
        else:
            b.weapons = [replace(w, skill=min(7, w.skill + value)) for w in b.weapons]
            b.note(src, e, True, f"BS/WS {value} worse (a characteristic, outside the ±1 cap)")
        return
    if e.characteristic not in ("toughness", "save"):
        b.note(src, e, False, f"{e.characteristic} changes Battle-shock tests or objectives, not this attack")
        return
    t = b.target
    lord = b.ignores.get("defender")
    as_modifier = e.characteristic == "save" and r.sickness_caps == "roll-modifier"
    if (
        lord
        and not as_modifier
        and (e.characteristic == "toughness" or r.lord_save_characteristic == "ignores")
    ):
        b.note(src, e, False, f"disregarded through the target's {lord}")
    elif e.characteristic == "toughness":
        b.target = replace(t, toughness=max(1, t.toughness - value))
        b.note(src, e, True, f"target Toughness {t.toughness} → {b.target.toughness}")
    elif as_modifier:
        # a modifier to the saving throw: Lord of the Death Guard never disregards those
        b.situation = replace(b.situation, save_modifier=b.situation.save_modifier - value)
        b.note(
            src,
            e,
            True,
            "a −1 saving throw modifier (reading sickness-modifier-caps = roll-modifier)"
            + (f"; {lord} never disregards a saving throw modifier" if lord else ""),
        )
    else:
        b.target = replace(t, save=min(7, t.save + value))
        b.note(
            src,
            e,
            True,
            f"target Save {t.save}+ → {b.target.save}+" if b.target.save < 7 else "no armour save left",
        )


def _ignore_modifiers(b: Application, use: Use) -> None:
    b.note(use.src, use.effect, True, "the unit disregards the harmful modifiers listed under it")


def _contagion_range(b: Application, use: Use) -> None:
    b.note(use.src, use.effect, True, "the Contagion Range used here includes it")


def _auto_pass(b: Application, use: Use) -> None:
    b.note(use.src, use.effect, False, "acts on a Battle-shock test (wh40k.battle-shock), not on an attack")


def _none(b: Application, use: Use) -> None:
    src, e = use.src, use.effect
    r = b.choices.readings
    text_only = e.register == "wh40k.interpretations.imported-text-only"
    if src.chosen and text_only and r.imported_text_only == "refused":
        raise InputError(
            src.field,
            f"{src.name} is kept as text only: the effects language cannot say it "
            "(reading imported-text-only = refused)",
        )
    if src.chosen and not text_only and r.outside_attack_rules == "refuse":
        raise InputError(
            src.field, f"{src.name} changes no number of an attack (reading outside-attack-rules = refuse)"
        )
    b.note(src, e, False, f"changes no number of an attack ({e.note}; see {e.register})")


_MOD = ValueRule("int", -3, 3)
_STEPS = ValueRule("int", 1, 12)
_REROLLS = ValueRule("choice", options=("ones", "failed"))
_FREE = ValueRule("free")


def _kinds(*kinds: EffectKind) -> Mapping[str, EffectKind]:
    return MappingProxyType({k.name: k for k in kinds})


KINDS: Mapping[str, EffectKind] = _kinds(
    EffectKind(
        "hit-modifier",
        "add value to the Hit roll (shares the ±1 cap)",
        _MOD,
        lambda e: f"Hit roll modifier {_int(e):+d}",
        _modifier("Hit"),
        "attacker",
        notes="Lord of the Death Guard disregards a negative one.",
    ),
    EffectKind(
        "wound-modifier",
        "add value to the Wound roll (shares the ±1 cap)",
        _MOD,
        lambda e: f"Wound roll modifier {_int(e):+d}",
        _modifier("Wound"),
        "attacker",
        notes="Lord of the Death Guard disregards a negative one.",
    ),
    EffectKind(
        "reroll-hits",
        "re-roll Hit rolls (value: ones or failed)",
        _REROLLS,
        lambda e: f"re-roll Hit rolls: {e.value}",
        _reroll(hits=True),
        "attacker",
        notes="The wider re-roll of several counts.",
    ),
    EffectKind(
        "reroll-wounds",
        "re-roll Wound rolls (value: ones or failed)",
        _REROLLS,
        lambda e: f"re-roll Wound rolls: {e.value}",
        _reroll(hits=False),
        "attacker",
        notes="The wider re-roll of several counts.",
    ),
    EffectKind(
        "ap",
        "improve the attack's Armour Penetration by value",
        _STEPS,
        lambda e: f"AP improved by {e.value}",
        _ap,
        "attacker",
    ),
    EffectKind(
        "critical-ap",
        "improve the Armour Penetration of an attack that scores a Critical Wound by value (instead of ap)",
        _STEPS,
        lambda e: f"AP improved by {e.value} on a Critical Wound",
        _critical_ap,
        "attacker",
        notes="Counts the ap of the same rule already applied (value is the improvement in all).",
    ),
    EffectKind(
        "overwatch",
        "the unit shoots as Fire Overwatch: its ranged attacks hit only on an unmodified 6",
        _FREE,
        lambda e: "Fire Overwatch: only unmodified 6s hit",
        _overwatch,
        "attacker",
    ),
    EffectKind(
        "weapon-ability",
        "the weapons gain an ability (value: an ability word such as heavy or crit-hit-5)",
        ValueRule("ability"),
        lambda e: f"weapons gain [{str(e.value).upper().replace('-', ' ')}]",
        _weapon_ability,
        "attacker",
        notes="A ranged-only word does not reach a melee weapon; Sustained Hits follows the "
        "reading sustained-stacking; a Critical Hit or Wound threshold keeps the lower.",
    ),
    EffectKind(
        "cover",
        "the unit has the Benefit of Cover against ranged attacks",
        _FREE,
        lambda e: "Benefit of Cover",
        _cover,
        "target",
    ),
    EffectKind(
        "stealth",
        "the unit has Stealth (−1 to ranged Hit rolls against it)",
        _FREE,
        lambda e: "Stealth",
        _stealth,
        "target",
    ),
    EffectKind(
        "damage-reduction",
        "subtract value from the Damage of attacks allocated to the unit",
        _STEPS,
        lambda e: f"Damage reduction {e.value}",
        _damage_reduction,
        "target",
    ),
    EffectKind(
        "worsen",
        "worsen a characteristic (value) by that many steps",
        _STEPS,
        lambda e: f"{e.characteristic} worsened by {e.value}",
        _worsen,
        "either",
        needs_characteristic=True,
        notes="characteristic: toughness, save, skill, leadership or objective-control; skill "
        "reaches the attacking unit's weapons, toughness and save the target.",
    ),
    EffectKind(
        "ignore-modifiers",
        "the unit may ignore modifiers to its characteristics and rolls (not saves)",
        _FREE,
        lambda e: "ignore modifiers (not to saving throws)",
        _ignore_modifiers,
        "either",
    ),
    EffectKind(
        "contagion-range",
        "add value inches to the unit's Contagion Range",
        _STEPS,
        lambda e: f'Contagion Range +{e.value}"',
        _contagion_range,
        "either",
    ),
    EffectKind(
        "auto-pass",
        "a test (value: battle-shock) is passed",
        ValueRule("choice", options=("battle-shock",)),
        lambda e: f"{e.value} test passed",
        _auto_pass,
        "either",
    ),
    EffectKind(
        "none",
        "changes no number an attack calculator computes (see its register entry)",
        _FREE,
        lambda e: "changes no number of an attack",
        _none,
        "either",
        notes="Needs register: the interpretations-register entry that says why.",
    ),
)
"""Every effect kind by name."""

EFFECT_KINDS: Mapping[str, str] = MappingProxyType({k.name: k.summary for k in KINDS.values()})
"""The effect kinds and what each does (derived from :data:`KINDS`)."""


@implements("wh40k.core.declared-effects")
def describe_effect(effect: Effect) -> str:
    """One effect in words, as the pages and the record of an attack list it.

    >>> describe_effect(Effect(kind="hit-modifier", value=-1, condition="damaged"))
    'Hit roll modifier -1 (own unit; only when damaged)'
    """
    what = KINDS[effect.kind].describe(effect)
    scope = ["own unit" if effect.affects == "own" else "enemy units"]
    if isinstance(effect.range, int):
        scope.append(f'within {effect.range}"')
    elif effect.range == "army-contagion":
        scope.append("within Contagion Range of a unit of the army")
    elif effect.range is not None:
        scope.append("within Contagion Range")
    if effect.keywords:
        scope.append("with " + ", ".join(effect.keywords))
    if effect.phases != ("any",):
        scope.append("phase: " + ", ".join(effect.phases))
    if effect.attack != "any":
        scope.append(f"{effect.attack} attacks only")
    if effect.target_keywords:
        scope.append(f"against {', '.join(effect.target_keywords)} targets")
    if effect.battle_rounds:
        scope.append("battle round " + "/".join(str(r) for r in effect.battle_rounds))
    if effect.within is not None:
        scope.append(f'units within {effect.within}" of each other')
    if effect.condition:
        scope.append(f"only when {effect.condition}")
    if effect.note:
        scope.append(effect.note)
    return f"{what} ({'; '.join(scope)})"
