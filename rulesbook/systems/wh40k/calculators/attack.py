"""Warhammer 40,000 attack calculators: one weapon from a form (``wh40k.attack``), Mortarion's
weapons from data (``wh40k.mortarion``) and typed profiles (``wh40k.sequence``), each declared
through the one attack path of :mod:`~rulesbook.systems.wh40k.calculators.path` (the single-roll calculators are in
:mod:`~rulesbook.systems.wh40k.calculators.roll_tests`).

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.attack")
    >>> r = calc.run(attacks="10", skill=3, strength=4, ap=-1, damage="1",
    ...              toughness=4, save=3, wounds=1, models=10)
    >>> r["mean_wounds_lost_exact"], r["models_destroyed"][0] > 0.1
    ('5/3', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

from rulesbook.dice import constant
from rulesbook.errors import InputError
from rulesbook.inputs import BoolInput, WordListInput
from rulesbook.registry import implements
from rulesbook.results import Table, fraction_str
from rulesbook.systems.wh40k.attack.rolls import Situation, hit_test, save_test, wound_target
from rulesbook.systems.wh40k.attack.weapons import WEAPON_INPUTS, Target, Weapon, make_weapon
from rulesbook.systems.wh40k.calculators.lean import lean_attack
from rulesbook.systems.wh40k.calculators.path import (
    ATTACK_RULES,
    REROLL_CHOICES,
    Attackers,
    declare_attack_calculator,
)
from rulesbook.systems.wh40k.calculators.profiles import WeaponProfilesInput, parse_weapons
from rulesbook.systems.wh40k.choices import Wh40kChoices, Wh40kReadings
from rulesbook.systems.wh40k.faction.mortarion import damaged_hit_modifier, mortarion
from rulesbook.systems.wh40k.faction.reader import death_guard
from rulesbook.systems.wh40k.faction.sides import Context, Side, apply_effects

__all__ = ["attack_calculator", "mortarion_calculator", "sequence_calculator"]

ONE = constant(1)

# -- wh40k.attack ------------------------------------------------------------------------------


def _form_weapon(values: Mapping[str, Any]) -> Attackers:
    return _form_attackers(tuple(values[inp.key] for inp in WEAPON_INPUTS))


@lru_cache(maxsize=256)
def _form_attackers(characteristics: tuple[Any, ...]) -> Attackers:
    """The form's weapon (memoised: the cross-field check and the computation of one call
    build it from the same validated values; :func:`rulesbook.caches.clear_caches` forgets it)."""
    weapon = make_weapon(
        {inp.key: v for inp, v in zip(WEAPON_INPUTS, characteristics, strict=True)}, checked=True
    )
    return Attackers(weapons=(weapon,), field="attacks", labels=("",))


def _attack_reference_tables() -> list[Table]:
    strengths = range(1, 17)
    toughness = range(1, 13)
    wound = Table(
        name="wound_roll_table",
        title="Wound roll needed: Strength (rows) against Toughness (columns)",
        columns=("S", *(f"T{t}" for t in toughness)),
        rows=tuple((s, *(f"{wound_target(s, t)}+" for t in toughness)) for s in strengths),
        note="Published 10th-edition table (interpretation wh40k.interpretations.wound-table).",
    )
    modifiers = (-1, 0, 1)
    rows = []
    for bs in range(2, 7):
        for reroll in REROLL_CHOICES:
            cells = []
            for mod in modifiers:
                w = Weapon("w", ONE, bs, 4, 0, ONE)
                situation = Situation(hit_modifier=mod, reroll_hits=reroll)
                cells.append(fraction_str(hit_test(w, Target(4, 7, 1), situation).p_pass()))
            rows.append((f"{bs}+", reroll, *cells))
    hits = Table(
        name="hit_probability",
        title="P(hit) by BS/WS, re-roll and total modifier",
        columns=("BS/WS", "re-roll", *(f"{m:+d}" for m in modifiers)),
        rows=tuple(rows),
        note="Exact; an unmodified 6 always hits and an unmodified 1 always misses.",
    )
    aps = range(0, -5, -1)
    save_rows = []
    for sv in range(2, 7):
        cells = []
        for ap in aps:
            w = Weapon("w", ONE, 3, 4, ap, ONE)
            st = save_test(w, Target(4, sv, 1))
            cells.append(fraction_str(st.p_pass()) if st else "0")
        save_rows.append((f"{sv}+", *cells))
    saves = Table(
        name="save_probability",
        title="P(armour save) by Save (rows) and AP (columns), no cover",
        columns=("Sv", *(f"AP{ap}" if ap else "AP0" for ap in aps)),
        rows=tuple(save_rows),
    )
    return [wound, hits, saves]


attack_calculator = declare_attack_calculator(
    "wh40k.attack",
    title="Attack sequence (one weapon)",
    summary="""Exact distribution of wounds lost and models destroyed when one weapon attacks a
    unit: Attacks (dice, Blast), Hit roll (Heavy, Stealth, Torrent, Fire Overwatch, Critical
    Hits, Sustained and Lethal Hits), Wound roll (S vs T, Anti-X, Twin-linked, Devastating
    Wounds), saving throw (AP, invulnerable, cover), Damage, Feel No Pain and allocation.""",
    weapon_inputs=WEAPON_INPUTS,
    pick=_form_weapon,
    fast=lean_attack,
    rules=ATTACK_RULES,
    examples=[
        {
            "attacks": "40",
            "skill": "3",
            "strength": "5",
            "ap": "-1",
            "damage": "1",
            "abilities": "sustained-hits-1,devastating-wounds",
            "toughness": "4",
            "save": "3",
            "wounds": "2",
            "models": "20",
            "fnp": "5",
        },
        {
            "attacks": "D6+3",
            "skill": "2",
            "strength": "7",
            "ap": "-2",
            "damage": "1",
            "abilities": "blast,devastating-wounds,lethal-hits",
            "toughness": "4",
            "save": "3",
            "wounds": "2",
            "models": "10",
            "cover": "true",
        },
        {
            "attacks": "5",
            "skill": "2",
            "strength": "14",
            "ap": "-3",
            "damage": "4",
            "abilities": "lethal-hits",
            "ranged": "false",
            "toughness": "11",
            "save": "2",
            "invuln": "4",
            "wounds": "14",
            "models": "1",
        },
    ],
    reference_tables=_attack_reference_tables,
)
"""Exact attack sequence of one weapon against one unit."""


# -- wh40k.mortarion ---------------------------------------------------------------------------


def _mortarion_weapons(values: Mapping[str, Any]) -> Attackers:
    """Mortarion's chosen weapons, with his own abilities applied as ``wh40k.datasheet-attack``
    applies them (Damaged, Lord of the Death Guard), so the two calculators give one answer for
    one situation."""
    unit = mortarion()
    chosen: tuple[str, ...] = values["weapons"]
    if not chosen:
        raise InputError("weapons", "name at least one of " + ", ".join(unit.weapons))
    weapons = tuple(unit.weapons[k] for k in chosen)
    if len({w.ranged for w in weapons}) == 1:
        unit.check_exclusive(chosen, "weapons")
    lines = [f"Weapons in order: {', '.join(w.name for w in weapons)}."]
    damaged = bool(values["damaged"])
    if damaged:
        lines.append(
            f"Damaged: {damaged_hit_modifier(True):+d} to every Hit roll (the total modifier is still capped "
            "at ±1), unless Lord of the Death Guard disregards it (lord_of_the_death_guard)."
        )
    return Attackers(
        weapons=weapons,
        field="weapons",
        labels=tuple(w.name for w in weapons),
        mixed=unit.one_kind(),
        lines=tuple(lines),
        warn=False,
        effects=partial(_mortarion_effects, damaged),
        readings=("lord_of_the_death_guard",),
    )


@implements("wh40k.mortarion.damaged")
def _mortarion_effects(
    damaged: bool, weapons: tuple[Weapon, ...], target: Target, situation: Situation, choices: Wh40kChoices
) -> tuple[tuple[Weapon, ...], Target, Situation]:
    """Mortarion's own abilities on his attack, through the one effects path: Damaged's −1 to
    hit (when ``damaged``) and Lord of the Death Guard (which disregards it, a target's Stealth
    and any other harmful typed modifier under the default reading lord-own-modifiers)."""
    dg = death_guard()
    attacker = Side(datasheet=dg.datasheets["mortarion"], damaged=damaged)
    ctx = Context(ranged=weapons[0].ranged, overwatch=situation.overwatch)
    plan = apply_effects(weapons, target, situation, attacker, Side(), ctx, choices, dg)
    return plan.weapons, plan.target, plan.situation


mortarion_calculator = declare_attack_calculator(
    "wh40k.mortarion",
    title="Mortarion's weapons in sequence",
    summary="""Mortarion attacks one unit with several weapons in turn (e.g. Rotwind then The
    Lantern); damage carries from weapon to weapon and Devastating Wounds come last. Exact
    distribution of wounds lost and models destroyed.""",
    weapon_inputs=[
        WordListInput(
            key="weapons",
            label="Weapons, in order",
            help="Comma list from rotwind, the-lantern (shooting) or silence-strike / silence-sweep (melee).",
            words=tuple((k, k) for k in mortarion().weapons),
            default=("rotwind", "the-lantern"),
        ),
        BoolInput(
            key="damaged",
            label="Damaged (1–6 wounds left)",
            help="Mortarion has 1–6 wounds remaining: −1 to his Hit rolls (which Lord of the Death Guard disregards by default).",
            default=False,
        ),
        Wh40kReadings.input(
            "lord_of_the_death_guard",
            help=(
                "Does Mortarion's own Lord of the Death Guard let him disregard his Damaged −1, a target's "
                "Stealth and other harmful Hit and Wound roll modifiers? (interpretation "
                "wh40k.interpretations.lord-own-modifiers; the same answer as wh40k.datasheet-attack)"
            ),
        ),
    ],
    pick=_mortarion_weapons,
    rules=[
        "wh40k.mortarion.weapons",
        "wh40k.mortarion.damaged",
        "wh40k.death-guard.ability.lord-of-the-death-guard",
        "wh40k.attack.sequence",
        "wh40k.attack.devastating-wounds",
        "wh40k.attack.allocation",
        "wh40k.attack.blast",
        "wh40k.attack.hit-roll",
    ],
    examples=[
        {"weapons": "rotwind,the-lantern", "toughness": "4", "save": "3", "wounds": "2", "models": "10"},
        {
            "weapons": "silence-strike",
            "toughness": "12",
            "save": "2",
            "invuln": "4",
            "wounds": "22",
            "models": "1",
        },
    ],
)
"""Mortarion's chosen weapons, resolved in order against one target."""


# -- wh40k.sequence ----------------------------------------------------------------------------


def _profiles(values: Mapping[str, Any]) -> Attackers:
    weapons = parse_weapons(values["weapons"])
    labels = tuple(
        f"weapon {i} ({w.name})" if w.name != f"weapon {i}" else w.name for i, w in enumerate(weapons, 1)
    )
    lines = (f"Weapons in order: {', '.join(w.name for w in weapons)}.",)
    first_melee = next((label for w, label in zip(weapons, labels, strict=True) if not w.ranged), "")
    mixed = (
        f"{first_melee}: a sequence is one shooting or one fight, so give every weapon BS (ranged) or "
        "every weapon WS (melee), not a mix"
    )
    return Attackers(weapons=weapons, field="weapons", labels=labels, mixed=mixed, lines=lines)


sequence_calculator = declare_attack_calculator(
    "wh40k.sequence",
    title="Several weapons in sequence",
    summary="""Your own weapon profiles attack one unit in the order given (e.g. bolters, then a
    plasma gun); damage left on a model carries from weapon to weapon and the mortal wounds of
    Devastating Wounds come after every normal attack. Exact distribution of wounds lost and
    models destroyed, with a breakdown per weapon.""",
    weapon_inputs=[
        WeaponProfilesInput(
            key="weapons",
            label="Weapons, in order",
            help=(
                "One profile per weapon, separated by ';': an optional name and ':', then A (attacks, "
                "dice allowed), BS for a ranged weapon or WS for a melee one, S, AP (0 or negative; "
                "0 if left out), D (dice allowed), then the ability words of wh40k.attack "
                "(e.g. lethal-hits,sustained-hits-1). Every weapon shoots, or every weapon fights. "
                "Pistol, psychic, precision and hazardous are accepted but change no number."
            ),
            default="bolters: A=20 BS=3 S=4 AP=0 D=1; plasma: A=2 BS=3 S=8 AP=-3 D=2",
        ),
    ],
    pick=_profiles,
    rules=ATTACK_RULES,  # every weapon of a sequence runs the whole attack sequence
    examples=[
        {
            "weapons": "bolters: A=20 BS=3 S=4 AP=0 D=1; plasma: A=2 BS=3 S=8 AP=-3 D=2",
            "toughness": "4",
            "save": "3",
            "wounds": "2",
            "models": "5",
        },
        {
            "weapons": "heavy bolter: A=3 BS=4 S=5 AP=-1 D=2 sustained-hits-1,heavy; "
            "melta: A=1 BS=4 S=9 AP=-4 D=D6 devastating-wounds",
            "toughness": "6",
            "save": "3",
            "wounds": "3",
            "models": "3",
            "invuln": "4",
        },
    ],
)
"""The user's weapon profiles, resolved in order against one target."""
