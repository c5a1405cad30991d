"""The effect kinds of 40k, each declared once (:data:`KINDS`): what its value may be, how it
is worded, whose numbers it changes, its hooks into the attack sequence and the Battle-shock
test, and the rule-text phrasings an import recognises it by — side by side in one
:class:`~rulesbook.systems.wh40k.effects.kind.EffectKind`. Adding a kind is one entry here (and a
row of ``docs/designer/effects.md``, which a test keeps in step).

Faction files (``death-guard.yaml``), imported factions and a variant's ``add:`` entries all
speak this language: the loader checks a value with :attr:`EffectKind.value`, the pages and the
record of an attack word it (:func:`describe_effect`), the attack calculators hand it to its
hooks (:func:`~rulesbook.systems.wh40k.faction.sides.apply_effects`), the Battle-shock
calculators to its ``shock`` hook (:mod:`~rulesbook.systems.wh40k.faction.shock`), and an import
reads a rule's text with its phrasings (:func:`recognise`).

Example:
    >>> KINDS["wound-modifier"].value.check(1, "effects[0].value")
    1
    >>> KINDS["wound-modifier"].value.check(5, "effects[0].value")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: effects[0].value: expected an integer from -3 to 3, got 5
    >>> describe_effect(Effect(kind="wound-modifier", value=1, target_keywords=("MONSTER",)))
    'Wound roll modifier +1 (own unit; against MONSTER targets)'
    >>> [(e.kind, e.value, e.attack) for e in recognise(
    ...     "Until the end of the turn, each time a model in this unit makes a melee attack, "
    ...     "add 1 to the Wound roll.", phases=("fight",))]
    [('wound-modifier', 1, 'melee')]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType

from rulesbook.dice import REROLLS, Reroll
from rulesbook.errors import InputError
from rulesbook.registry import implements
from rulesbook.systems.wh40k.attack.weapons import better_fnp, parse_abilities
from rulesbook.systems.wh40k.effects.effect import Effect
from rulesbook.systems.wh40k.effects.kind import (
    Application,
    Apply,
    EffectKind,
    Owner,
    ShockTest,
    Use,
    ValueRule,
)
from rulesbook.systems.wh40k.effects.text import ATTACK, MODELS, UNIT, TextPattern, match_sentence, sentences

__all__ = ["EFFECT_KINDS", "KINDS", "describe_effect", "recognise"]

_REROLL_ORDER: dict[str, int] = {r: i for i, r in enumerate(REROLLS)}


# -- hooks on an attack -------------------------------------------------------------------------


def _int(e: Effect) -> int:
    return e.value if isinstance(e.value, int) else 0


def _modifier(roll: str) -> Apply:
    def apply(b: Application, use: Use) -> None:
        e = use.effect
        (b.hit_mods if roll == "Hit" else b.wound_mods).append((use.src.name, _int(e)))
        b.note(use, True, f"{roll} roll modifier {_int(e):+d} (capped with the others at ±1)")

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
            b.note(use, True, f"{e.kind.replace('reroll-', 're-roll ')}: {e.value}")
        else:
            b.note(use, False, f"the attack already re-rolls {now}")

    apply.__name__ = apply.__qualname__ = "_reroll_hits" if hits else "_reroll_wounds"
    return apply


def _ap(b: Application, use: Use) -> None:
    value = _int(use.effect)
    b.weapons = [replace(w, ap=max(-6, w.ap - value)) for w in b.weapons]
    b.ap_by_rule[use.src.rule] = b.ap_by_rule.get(use.src.rule, 0) + value
    b.note(use, True, f"every weapon's AP improved by {value}")


def _critical_ap(b: Application, use: Use) -> None:
    value = _int(use.effect)
    extra = value - b.ap_by_rule.get(use.src.rule, 0)
    b.situation = replace(b.situation, critical_wound_ap=b.situation.critical_wound_ap + extra)
    b.note(use, True, f"a Critical Wound's AP improved by {value} in all")


def _weapon_ability(b: Application, use: Use) -> None:
    b.note(use, True, "weapons changed: " + b.weapon_abilities(str(use.effect.value)))


def _overwatch(b: Application, use: Use) -> None:
    b.situation = replace(b.situation, overwatch=True)
    b.note(use, True, "only unmodified 6s hit (wh40k.attack.fire-overwatch)")


def _cover(b: Application, use: Use) -> None:
    b.target = replace(b.target, cover=True)
    b.note(use, True, "the target has the Benefit of Cover")


def _stealth(b: Application, use: Use) -> None:
    b.target = replace(b.target, stealth=True)
    b.note(use, True, "the target has Stealth (−1 to ranged Hit rolls)")


def _feel_no_pain(b: Application, use: Use) -> None:
    """Feel No Pain for the unit: against every wound (``feel-no-pain``) or against mortal wounds
    only (``feel-no-pain-mortal``); with one already, a wound meets only one, so the better (the
    lower X) is kept (core rules, Feel No Pain)."""
    x, t = _int(use.effect), b.target
    if use.kind.name == "feel-no-pain":
        b.target = replace(t, fnp=better_fnp(t.fnp, x))
        kept, against = b.target.fnp, "every wound"
    else:
        b.target = replace(t, fnp_mortal=better_fnp(t.fnp_mortal, x))
        kept, against = b.target.fnp_mortal, "mortal wounds"
    b.note(
        use,
        kept == x,
        f"Feel No Pain {kept}+ against {against}"
        + ("" if kept == x else f" (the unit's own is better than {x}+)"),
    )


def _said(kind: str) -> Callable[[re.Match[str], tuple[str, ...], str], list[Effect]]:
    """A sentence declaring one ``kind`` effect: the number ``n`` it names (``subtract``: less)."""

    def build(m: re.Match[str], phases: tuple[str, ...], attack: str) -> list[Effect]:
        n, verb = m.groupdict().get("n"), m.groupdict().get("verb")
        value = None if n is None else int(n) * (-1 if verb == "subtract" else 1)
        return [Effect(kind=kind, value=value, phases=phases)]

    return build


def _damage_reduction(b: Application, use: Use) -> None:
    r = b.choices.readings
    lord = b.ignores.get("attacker")
    if lord and r.lord_weapon_characteristics == "both":
        b.note(
            use,
            False,
            f"disregarded through the attacker's {lord} (reading lord-weapon-characteristics = both)",
        )
        return
    t = b.target
    b.target = replace(t, damage_reduction=t.damage_reduction + _int(use.effect))
    b.note(use, True, f"Damage of each attack reduced by {_int(use.effect)}")


def _worsen(b: Application, use: Use) -> None:
    e, src = use.effect, use.src
    r = b.choices.readings
    value = _int(e)
    if use.attacking:
        if e.characteristic != "skill":
            b.note(use, False, "protects or changes the attacking unit in other ways, not its attacks")
            return
        lord = b.ignores.get("attacker")
        if r.sickness_caps == "roll-modifier":
            # a roll modifier: Lord, if the unit has it, disregards it with the others
            b.hit_mods.append((src.name, -value))
            b.note(use, True, "a −1 Hit roll modifier (reading sickness-modifier-caps = roll-modifier)")
        elif lord and r.lord_weapon_characteristics != "neither":
            b.note(
                use,
                False,
                f"disregarded through {lord} (reading lord-weapon-characteristics = {r.lord_weapon_characteristics})",
            )
        else:
            b.weapons = [replace(w, skill=min(7, w.skill + value)) for w in b.weapons]
            b.note(use, True, f"BS/WS {value} worse (a characteristic, outside the ±1 cap)")
        return
    if e.characteristic not in ("toughness", "save"):
        b.note(use, False, f"{e.characteristic} changes Battle-shock tests or objectives, not this attack")
        return
    t = b.target
    lord = b.ignores.get("defender")
    as_modifier = e.characteristic == "save" and r.sickness_caps == "roll-modifier"
    if (
        lord
        and not as_modifier
        and (e.characteristic == "toughness" or r.lord_save_characteristic == "ignores")
    ):
        b.note(use, False, f"disregarded through the target's {lord}")
    elif e.characteristic == "toughness":
        b.target = replace(t, toughness=max(1, t.toughness - value))
        b.note(use, True, f"target Toughness {t.toughness} → {b.target.toughness}")
    elif as_modifier:
        # a modifier to the armour saving throw (the Save characteristic's, so never an
        # invulnerable save's): Lord of the Death Guard never disregards those
        s = b.situation
        b.situation = replace(s, armour_save_modifier=s.armour_save_modifier - value)
        b.note(
            use,
            True,
            "a −1 armour saving throw modifier, not to invulnerable saves (reading sickness-modifier-caps = roll-modifier)"
            + (f"; {lord} never disregards a saving throw modifier" if lord else ""),
        )
    else:
        b.target = replace(t, save=min(7, t.save + value))
        b.note(
            use,
            True,
            f"target Save {t.save}+ → {b.target.save}+" if b.target.save < 7 else "no armour save left",
        )


def _ignore_modifiers(b: Application, use: Use) -> None:
    b.note(use, True, "the unit disregards the harmful modifiers listed under it")


def _contagion_range(b: Application, use: Use) -> None:
    b.note(use, True, "the Contagion Range used here includes it")


def _shock_only(b: Application, use: Use) -> None:
    b.note(use, False, "acts on a Battle-shock test (wh40k.battle-shock), not on an attack")


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
    b.note(use, False, f"changes no number of an attack ({e.note}; see {e.register})")


# -- hooks before an attack and on a Battle-shock test ----------------------------------------------


def _adds_contagion(b: Application, owner: Owner, unit_has: Callable[[str], bool], use: Use) -> None:
    """Toxic Presence: the side's Contagion Range grows by the value."""
    b.contagion[owner] = b.contagion.get(owner, 0) + _int(use.effect)


def _disregards(b: Application, owner: Owner, unit_has: Callable[[str], bool], use: Use) -> None:
    """Lord of the Death Guard: the side's unit disregards harmful modifiers (when it has the
    keywords the effect names)."""
    if all(unit_has(k) for k in use.effect.keywords):
        b.ignores[owner] = use.src.name


def _worse_leadership(test: ShockTest, e: Effect) -> ShockTest:
    """Scabrous Soulrot: a worse Leadership characteristic."""
    return replace(test, worse=test.worse + _int(e)) if e.characteristic == "leadership" else test


def _passes(test: ShockTest, e: Effect) -> ShockTest:
    """Insane Bravery: the test is passed."""
    return replace(test, passed=True) if e.value == "battle-shock" else test


# -- rule texts that declare a kind (an import's recognition) ----------------------------------------


def _modifier_text(roll: str) -> TextPattern:
    def build(m: re.Match[str], phases: tuple[str, ...], attack: str) -> list[Effect]:
        value = 1 if m["verb"] == "add" else -1
        return [Effect(kind=f"{roll}-modifier", value=value, phases=phases, attack=attack)]

    return TextPattern.of(
        rf"{ATTACK},\s(?P<verb>add|subtract)\s1\s(?:to|from)\s(?:that\sattack's|the)\s{roll}\sroll", build
    )


def _reroll_text(roll: str) -> TextPattern:
    def build(m: re.Match[str], phases: tuple[str, ...], attack: str) -> list[Effect]:
        value = "ones" if m["ones"] else "failed"
        return [Effect(kind=f"reroll-{roll}s", value=value, phases=phases, attack=attack)]

    return TextPattern.of(
        rf"{ATTACK},\s(?:you\scan\s)?re-roll\s(?:a|the)\s{roll}\sroll(?P<ones>\sof\s1)?", build
    )


_SHOCK_TEST = (  # the lead-in of a sentence that changes each Battle-shock test of the unit
    rf"(?:each\stime\s{UNIT}\stakes\sa\sbattle-shock\stest"
    rf"|each\stime\sa\sbattle-shock\stest\sis\staken\sfor\s{UNIT}),\s"
)
_SHOCK_TESTS = rf"battle-shock\stests\staken\sfor\s{UNIT}"


def _ap_effects(m: re.Match[str], phases: tuple[str, ...], attack: str) -> list[Effect]:
    return [Effect(kind="ap", value=int(m["n"]), phases=phases, attack=attack)]


def _ability_effects(m: re.Match[str], phases: tuple[str, ...], attack: str) -> list[Effect] | None:
    words = [w.strip().lower().replace(" ", "-") for w in re.findall(r"\[([^\]]+)\]", m["words"])]
    words = [re.sub(r"-([0-9])\+$", r"-\1", w) for w in words]
    try:
        parse_abilities(words)
    except InputError:
        return None
    return [Effect(kind="weapon-ability", value=w, phases=phases, attack=attack) for w in words]


def _ranged(kind: str) -> Callable[[re.Match[str], tuple[str, ...], str], list[Effect]]:
    """A protection against ranged attacks (cover, Stealth), whatever the sentence's scope."""

    def build(m: re.Match[str], phases: tuple[str, ...], attack: str) -> list[Effect]:
        return [Effect(kind=kind, phases=phases, attack="ranged")]

    return build


def _less_damage(m: re.Match[str], phases: tuple[str, ...], attack: str) -> list[Effect]:
    return [Effect(kind="damage-reduction", value=1, phases=phases)]


_MOD = ValueRule("int", -3, 3)
_STEPS = ValueRule("int", 1, 12)
_REROLLS = ValueRule("choice", options=("ones", "failed"))
_FREE = ValueRule("free")
_FNP = ValueRule("int", 2, 6)


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
        texts=(_modifier_text("hit"),),
    ),
    EffectKind(
        "wound-modifier",
        "add value to the Wound roll (shares the ±1 cap)",
        _MOD,
        lambda e: f"Wound roll modifier {_int(e):+d}",
        _modifier("Wound"),
        "attacker",
        notes="Lord of the Death Guard disregards a negative one.",
        texts=(_modifier_text("wound"),),
    ),
    EffectKind(
        "reroll-hits",
        "re-roll Hit rolls (value: ones or failed)",
        _REROLLS,
        lambda e: f"re-roll Hit rolls: {e.value}",
        _reroll(hits=True),
        "attacker",
        notes="The wider re-roll of several counts.",
        texts=(_reroll_text("hit"),),
    ),
    EffectKind(
        "reroll-wounds",
        "re-roll Wound rolls (value: ones or failed)",
        _REROLLS,
        lambda e: f"re-roll Wound rolls: {e.value}",
        _reroll(hits=False),
        "attacker",
        notes="The wider re-roll of several counts.",
        texts=(_reroll_text("wound"),),
    ),
    EffectKind(
        "ap",
        "improve the attack's Armour Penetration by value",
        _STEPS,
        lambda e: f"AP improved by {e.value}",
        _ap,
        "attacker",
        texts=(
            TextPattern.of(
                rf"{ATTACK},\simprove\sthe\sarmour\spenetration\scharacteristic\sof\sthat\sattack\sby\s(?P<n>[1-3])",
                _ap_effects,
            ),
        ),
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
        texts=(
            TextPattern.of(
                rf"(?P<scope>ranged\s|melee\s)?weapons\sequipped\sby\s{MODELS}\shave\sthe\s"
                r"(?P<words>\[[^\]]+\](?:(?:,\s|\sand\s)\[[^\]]+\])*)\sabilit(?:y|ies)",
                _ability_effects,
            ),
        ),
    ),
    EffectKind(
        "cover",
        "the unit has the Benefit of Cover against ranged attacks",
        _FREE,
        lambda e: "Benefit of Cover",
        _cover,
        "target",
        texts=(TextPattern.of(rf"{MODELS}\s(?:has|have)\sthe\sbenefit\sof\scover", _ranged("cover")),),
    ),
    EffectKind(
        "stealth",
        "the unit has Stealth (−1 to ranged Hit rolls against it)",
        _FREE,
        lambda e: "Stealth",
        _stealth,
        "target",
        texts=(
            TextPattern.of(rf"{MODELS}\s(?:has|have)\sthe\sstealth\sability", _ranged("stealth")),
            TextPattern.of(
                rf"each\stime\sa\sranged\sattack\stargets\s{UNIT},\ssubtract\s1\sfrom\sthat\sattack's\shit\sroll",
                _ranged("stealth"),
            ),
        ),
    ),
    EffectKind(
        "damage-reduction",
        "subtract value from the Damage of attacks allocated to the unit",
        _STEPS,
        lambda e: f"Damage reduction {e.value}",
        _damage_reduction,
        "target",
        texts=(
            TextPattern.of(
                rf"each\stime\san\sattack\sis\sallocated\sto\s(?:a\smodel\sin|one\sof\sthe\smodels\sin)\s{UNIT},\s"
                r"subtract\s1\sfrom\s(?:the\sdamage\scharacteristic\sof\sthat\sattack|that\sattack's\sdamage)",
                _less_damage,
            ),
        ),
    ),
    EffectKind(
        "feel-no-pain",
        "the unit's models have Feel No Pain value+ against every wound",
        _FNP,
        lambda e: f"Feel No Pain {e.value}+",
        _feel_no_pain,
        "target",
        notes="A unit with Feel No Pain already keeps the better X (one roll per lost wound).",
        texts=(
            TextPattern.of(
                rf"{MODELS}\s(?:has|have)\sthe\sfeel\sno\spain\s(?P<n>[2-6])\+\sability",
                _said("feel-no-pain"),
            ),
        ),
    ),
    EffectKind(
        "feel-no-pain-mortal",
        "the unit's models have Feel No Pain value+ against mortal wounds only",
        _FNP,
        lambda e: f"Feel No Pain {e.value}+ against mortal wounds",
        _feel_no_pain,
        "target",
        notes="Mortal wounds here: Devastating Wounds, the Grenade Stratagem. Beside Feel No Pain "
        "against every wound, the register entry fnp-combined says which is rolled.",
        texts=(
            TextPattern.of(
                rf"{MODELS}\s(?:has|have)\sthe\sfeel\sno\spain\s(?P<n>[2-6])\+\sability\sagainst\smortal\swounds",
                _said("feel-no-pain-mortal"),
            ),
        ),
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
        "reaches the attacking unit's weapons, toughness and save the target, leadership a "
        "Battle-shock test.",
        shock=_worse_leadership,
    ),
    EffectKind(
        "ignore-modifiers",
        "the unit may ignore modifiers to its characteristics and rolls (not saves)",
        _FREE,
        lambda e: "ignore modifiers (not to saving throws)",
        _ignore_modifiers,
        "either",
        prepare=_disregards,
        disregards_modifiers=True,
    ),
    EffectKind(
        "contagion-range",
        "add value inches to the unit's Contagion Range",
        _STEPS,
        lambda e: f'Contagion Range +{e.value}"',
        _contagion_range,
        "either",
        prepare=_adds_contagion,
    ),
    EffectKind(
        "improve-leadership",
        "improve the unit's Leadership characteristic by value steps (7+ becomes 6+)",
        _STEPS,
        lambda e: f"Leadership improved by {e.value}",
        _shock_only,
        "either",
        notes="A characteristic, like worsen leadership (the two add up); it acts on Battle-shock "
        "tests: the calculators' leadership input is the characteristic after it.",
        texts=(
            TextPattern.of(
                rf"improve\sthe\sleadership\scharacteristic\sof\s{MODELS}\sby\s(?P<n>[1-3])",
                _said("improve-leadership"),
            ),
        ),
        shock=lambda test, e: replace(test, worse=test.worse - _int(e)),
    ),
    EffectKind(
        "battle-shock-modifier",
        "add value to the unit's Battle-shock tests (the 2D6 roll)",
        _MOD,
        lambda e: f"Battle-shock test modifier {_int(e):+d}",
        _shock_only,
        "either",
        notes="Summed with the others, no cap (register entry battle-shock-modifiers); the "
        "calculators' modifier input (battle_shock_modifier after an attack) is the same thing.",
        texts=(
            TextPattern.of(
                rf"{_SHOCK_TEST}(?P<verb>add|subtract)\s(?P<n>[1-3])\s(?:to|from)\sthat\stest",
                _said("battle-shock-modifier"),
            ),
            TextPattern.of(
                rf"(?P<verb>add|subtract)\s(?P<n>[1-3])\s(?:to|from)\s{_SHOCK_TESTS}",
                _said("battle-shock-modifier"),
            ),
        ),
        shock=lambda test, e: replace(test, modifier=test.modifier + _int(e)),
    ),
    EffectKind(
        "reroll-battle-shock",
        "the unit may re-roll a failed Battle-shock test",
        _FREE,
        lambda e: "re-roll a failed Battle-shock test",
        _shock_only,
        "either",
        notes="Both dice are rolled again, once (register entry battle-shock-modifiers); the "
        "calculators' reroll input (battle_shock_reroll after an attack) is the same thing.",
        texts=(
            TextPattern.of(rf"{_SHOCK_TEST}you\scan\sre-roll\sthat\stest", _said("reroll-battle-shock")),
            TextPattern.of(rf"you\scan\sre-roll\s{_SHOCK_TESTS}", _said("reroll-battle-shock")),
        ),
        shock=lambda test, e: replace(test, reroll=True),
    ),
    EffectKind(
        "auto-pass",
        "a test (value: battle-shock) is passed",
        ValueRule("choice", options=("battle-shock",)),
        lambda e: f"{e.value} test passed",
        _shock_only,
        "either",
        shock=_passes,
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
    return KINDS[effect.kind].words(effect)


_TEXTS = tuple(p for k in KINDS.values() for p in k.texts)


def recognise(text: str, *, phases: tuple[str, ...] = ("any",)) -> tuple[Effect, ...] | None:
    """The effects a rule's text declares, through the phrasings of the kinds (each sentence
    as a whole), or ``None`` when some sentence is beyond them (then the rule is kept as text
    only); ``phases`` scope them (a stratagem's phases).

    >>> recognise("Each time this model makes a ranged attack, if the target is below "
    ...           "half-strength, add 1 to the Hit roll.") is None
    True
    """
    out: list[Effect] = []
    found = sentences(text)
    if not found:
        return None
    for sentence in found:
        effects = match_sentence(_TEXTS, sentence, phases)
        if effects is None:
            return None
        out += effects
    return tuple(out)
