"""The inputs of ``wh40k.datasheet-attack``, declared once: the two faction files and the
datasheets chosen from them (any key, checked against the file when the calculator runs), unit
sizes, a Leader, the weapons (``key`` or ``key*N``), the battle round and distance, the Infected
objective positions, and each side's aura, stratagems, detachment, Sickness, enhancement and
Damaged state (:mod:`~rulesbook.systems.wh40k.calculators.datasheet` uses them).

Example:
    >>> [i.key for i in INPUTS][:4]
    ['attacker', 'weapons', 'target', 'faction']
"""

from __future__ import annotations

from dataclasses import replace

from rulesbook.inputs import (
    BoolInput,
    ChoiceInput,
    Input,
    IntInput,
    PathInput,
    TextInput,
    WordListInput,
    optional,
)
from rulesbook.systems.wh40k.faction.reader import death_guard

__all__ = [
    "AURAS",
    "DATASHEET_READINGS",
    "INPUTS",
    "KEY",
    "SHIPPED",
    "SICKNESSES",
    "profile_input",
]

DG = death_guard()
AURAS = tuple(k for a in DG.abilities.values() for k in a.choice_of)
SICKNESSES = DG.detachments["spread-the-sickness"].choices
SHIPPED = "rulesbook/systems/wh40k/death-guard.yaml"
"""The faction file the calculator reads unless told another: the Death Guard page."""
KEY = r"[a-z0-9]+(?:-[a-z0-9]+)*"
STRATAGEMS = tuple(DG.stratagems)
DETACHMENTS = ("none", *DG.detachments)
ENHANCEMENTS = ("none", *DG.enhancements)
DATASHEETS = tuple(DG.datasheets)
WEAPONS = tuple(dict.fromkeys(w for sheet in DG.datasheets.values() for w in sheet.weapons))
"""What the forms offer to pick (searchable lists built from the shipped faction file); a key of
another faction file is still typed."""

DATASHEET_READINGS = (
    "lord_of_the_death_guard",
    "sickness_caps",
    "contagion_range",
    "outside_attack_rules",
    "mortarion_characteristics",
    "lord_save_characteristic",
    "lord_weapon_characteristics",
    "boilblight_reach",
    "infected_positions",
    "own_auras",
    "mixed_toughness",
    "mixed_allocation",
    "critical_ap_order",
    "imported_text_only",
    "torrent_no_skill",
)
"""The readings of the faction page and the imported units this calculator lets a user switch."""

_TARGET_DEFAULTS = {"toughness": 4, "save": 3, "wounds": 2, "models": 5}


def profile_input(inp: Input) -> Input:
    """A target input of the typed profile, with the datasheet calculator's default."""
    default = _TARGET_DEFAULTS.get(inp.key)
    if default is None:
        return inp
    return replace(inp, default=default, help=f"{inp.help} Used when target=profile.")


def _faction_input(key: str, whose: str) -> PathInput:
    return PathInput(
        key=key,
        label=f"{whose} faction file or army list",
        help=(
            f"The faction file {whose.lower()} datasheet, stratagems and detachment come from: the Death Guard page "
            "(default), a Wahapedia faction written by `python -m rulesbook.systems.wh40k.wahapedia`, or an "
            "army list exported by BattleScribe (.ros, .rosz) or New Recruit (.json), whose units are its datasheets."
        ),
        default=SHIPPED,
        suffixes=(".yaml", ".yml", ".json", ".ros", ".rosz"),
    )


def _side_inputs(prefix: str, whose: str) -> list[Input]:
    return [
        ChoiceInput(
            key=f"{prefix}aura",
            label=f"{whose} Host of Plagues aura",
            help=(
                f"The one Host of Plagues aura {whose.lower()} Mortarion has this battle round, or none; "
                f"for another DEATH GUARD unit, the aura of a friendly Mortarion {prefix}aura_distance "
                "inches away."
            ),
            choices=("none", *AURAS),
            default="none",
        ),
        optional(
            IntInput(
                key=f"{prefix}aura_distance",
                label=f"{whose} distance to Mortarion (inches)",
                help=(
                    f"How far {whose.lower()} unit is from a friendly Mortarion, whose Lord of the Death "
                    f'Guard (6") and {prefix}aura reach DEATH GUARD units in range; none: the unit is '
                    "Mortarion himself, or no Mortarion is near."
                ),
                minimum=0,
                maximum=48,
            )
        ),
        WordListInput(
            key=f"{prefix}stratagems",
            label=f"{whose} stratagems",
            help=f"Comma list of stratagems {whose.lower()} player uses (keys of its faction file).",
            words=((KEY, "stratagem keys"),),
            suggestions=STRATAGEMS,
            default=(),
        ),
        TextInput(
            key=f"{prefix}detachment",
            label=f"{whose} detachment rule",
            help=(
                "none, or a detachment of the faction file: for the Death Guard page spread-the-sickness "
                "(pick the sickness) or verminous-haze."
            ),
            refers="detachment",
            max_length=80,
            suggestions=DETACHMENTS,
            default="none",
        ),
        ChoiceInput(
            key=f"{prefix}sickness",
            label=f"{whose} Sickness",
            help="The Sickness chosen for Spread the Sickness, or none.",
            choices=("none", *SICKNESSES),
            default="none",
        ),
        TextInput(
            key=f"{prefix}enhancement",
            label=f"{whose} enhancement",
            help="none, or the enhancement (of the faction file) the unit's Leader carries.",
            refers="enhancement",
            max_length=80,
            suggestions=ENHANCEMENTS,
            default="none",
        ),
        BoolInput(
            key=f"{prefix}damaged",
            label=f"{whose} model Damaged",
            help="The model has few enough wounds left for its Damaged ability (Mortarion: 1–6; −1 to his Hit rolls).",
            default=False,
        ),
    ]


def _size_input(key: str, whose: str) -> Input:
    return optional(
        IntInput(
            key=key,
            label=f"{whose} unit size (models)",
            help=f"How many models {whose.lower()} datasheet unit has; none: its smallest unit.",
            minimum=1,
            maximum=40,
        )
    )


INPUTS: tuple[Input, ...] = (
    TextInput(
        key="attacker",
        label="Attacker datasheet",
        help="The attacking unit's datasheet (a key of the faction file, e.g. mortarion).",
        refers="datasheet",
        max_length=80,
        suggestions=DATASHEETS,
        default="mortarion",
    ),
    WordListInput(
        key="weapons",
        label="Weapons, in order",
        help=(
            "Comma list of the attacker's weapons: all ranged (shooting) or all melee (fighting). Every model "
            "whose loadout has a weapon fires it; KEY*N says N models fire it (a squad's special weapons)."
        ),
        words=((rf"{KEY}(?:\*[0-9]{{1,2}})?", "weapon keys, each optionally *N (N models fire it)"),),
        suggestions=WEAPONS,
        default=("rotwind", "the-lantern"),
    ),
    TextInput(
        key="target",
        label="Target",
        help="profile (the target inputs below) or a datasheet of the target's faction file, whose characteristics are used.",
        refers="datasheet",
        max_length=80,
        suggestions=("profile", *DATASHEETS),
        default="profile",
    ),
    _faction_input("faction", "Attacker's"),
    _faction_input("target_faction", "Target's"),
    _size_input("attacker_models", "Attacker's"),
    _size_input("target_models", "Target's"),
    optional(
        TextInput(
            key="target_leader",
            label="Target's Leader",
            help="A datasheet of the target's faction that may lead the target (its Leader pairings), attached to it; none: no Leader.",
            refers="datasheet",
            max_length=80,
            suggestions=DATASHEETS,
        )
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
        label="Target near an Infected objective",
        help=(
            "An Infected objective marker of the Death Guard player has the target in its Contagion "
            "Range (Ferric Blight); also the attacking unit's position unless unit_infected says."
        ),
        default=False,
    ),
    optional(
        BoolInput(
            key="unit_infected",
            label="Attacking unit near an Infected objective",
            help=(
                "The attacking unit stands in range of one of its player's Infected objective markers "
                "(Sanguous Flux); same: the answer of infected (interpretation "
                "wh40k.interpretations.infected-positions)."
            ),
        ),
        "same",
    ),
    *_side_inputs("", "Attacker's"),
    *_side_inputs("target_", "Target's"),
)
