"""The typed values of a faction: characteristics, abilities, stratagems, detachments,
enhancements, kinds of model, datasheets and the faction itself (their declared effects are
:class:`~rulesbook.systems.wh40k.effects.effect.Effect` values).

:mod:`~rulesbook.systems.wh40k.faction.reader` reads them from a faction file;
:mod:`~rulesbook.systems.wh40k.wahapedia.importer` builds them from Wahapedia's export;
:mod:`~rulesbook.systems.wh40k.faction.file` writes them back.

Example:
    >>> Characteristics(move=6, toughness=4, save=3, wounds=2, leadership=6, objective_control=1).save
    3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from rulesbook.systems.wh40k.attack.weapons import Weapon
from rulesbook.systems.wh40k.effects.effect import Effect

__all__ = [
    "CORE_KEYWORDS",
    "NO_SKILL",
    "Ability",
    "Characteristics",
    "Datasheet",
    "Detachment",
    "Enhancement",
    "Faction",
    "ModelProfile",
    "Stratagem",
]

NO_SKILL = 7
"""The skill of a weapon printed with BS ``N/A`` (a Torrent weapon, which never rolls to hit):
only an unmodified 6 could hit it (register entry torrent-no-skill)."""

CORE_KEYWORDS = frozenset(
    {
        "BATTLELINE",
        "CHARACTER",
        "CHAOS",
        "DAEMON",
        "EPIC HERO",
        "FLY",
        "GRENADES",
        "IMPERIUM",
        "INFANTRY",
        "MONSTER",
        "NURGLE",
        "PSYKER",
        "SMOKE",
        "TITANIC",
        "TRANSPORT",
        "VEHICLE",
        "WALKER",
        "WARLORD",
    }
)
"""Keywords the core rules use; a faction file adds its own under ``keywords``."""


@dataclass(frozen=True, slots=True)
class Characteristics:
    """A datasheet's characteristics line (Sv and Ld as the X of X+)."""

    move: int
    toughness: int
    save: int
    wounds: int
    leadership: int
    objective_control: int


@dataclass(frozen=True, slots=True)
class Ability:
    """An ability (aura or not) with its rule ID, our-words text and declared effects."""

    key: str
    id: str
    name: str
    text: str
    section: str
    kind: Literal["core", "faction", "datasheet", "detachment"]
    aura: bool = False
    range: int | str | None = None
    affects: str = ""
    """Who the ability reaches, in words (``friendly DEATH GUARD units within 6"``)."""
    effects: tuple[Effect, ...] = ()
    interpretations: tuple[str, ...] = ()
    choice_of: tuple[str, ...] = ()
    """For an ability that grants one of several others (Host of Plagues): their keys."""


@dataclass(frozen=True, slots=True)
class Stratagem:
    """A stratagem: cost, category, when, target, effect (our words) and declared effects;
    ``source`` is ``core`` or the key of the detachment (or game type) it belongs to."""

    key: str
    id: str
    name: str
    cp: int
    source: str
    category: str
    when: str
    phases: tuple[str, ...]
    target: str
    text: str
    section: str
    restrictions: str = ""
    effects: tuple[Effect, ...] = ()
    interpretations: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Detachment:
    """A detachment rule: its text, the abilities it offers (one is chosen) and its effects."""

    key: str
    id: str
    name: str
    text: str
    section: str
    choices: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()
    interpretations: tuple[str, ...] = ()
    stratagems: tuple[str, ...] = ()
    """Keys of the stratagems that come with the detachment."""
    enhancements: tuple[str, ...] = ()
    """Keys of the enhancements that come with the detachment."""


@dataclass(frozen=True, slots=True)
class Enhancement:
    """An enhancement of a detachment: its points, text (our words or an export's) and effects."""

    key: str
    id: str
    name: str
    cost: int
    detachment: str
    text: str
    section: str
    effects: tuple[Effect, ...] = ()
    interpretations: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """One kind of model of a datasheet (a unit whose models differ has one per kind): its
    characteristics, how many the smallest and the largest unit has, and the weapons each model
    of the kind carries by default (empty: the datasheet does not say)."""

    key: str
    name: str
    characteristics: Characteristics
    invulnerable: int | None
    count: int
    most: int
    weapons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Datasheet:
    """A unit's datasheet."""

    key: str
    id: str
    name: str
    section: str
    characteristics: Characteristics
    characteristics_source: str
    invulnerable: int | None
    weapons: Mapping[str, Weapon]
    weapon_ranges: Mapping[str, int | None]
    exclusive: tuple[tuple[str, ...], ...]
    abilities: tuple[str, ...]
    core_abilities: tuple[str, ...]
    feel_no_pain: int | None
    keywords: tuple[str, ...]
    faction_keywords: tuple[str, ...]
    composition: tuple[tuple[int, str], ...]
    points: tuple[tuple[int, int], ...]
    profiles: tuple[ModelProfile, ...] = ()
    """The kinds of model when they differ or carry different weapons (empty: every model is
    the datasheet's one line of characteristics)."""
    leads: tuple[str, ...] = ()
    """Keys of the datasheets this one may lead (its Leader pairings)."""

    @property
    def models(self) -> int:
        """Models in the unit at its smallest size."""
        if self.profiles:
            return sum(p.count for p in self.profiles)
        return sum(n for n, _ in self.composition)

    @property
    def most_models(self) -> int:
        """Models in the unit at its largest size."""
        if self.profiles:
            return sum(p.most for p in self.profiles)
        return max((n for n, _ in self.points), default=self.models)

    def model_profiles(self) -> tuple[ModelProfile, ...]:
        """The kinds of model (one, from the characteristics line, when none are listed)."""
        if self.profiles:
            return self.profiles
        most = max(self.most_models, self.models)
        return (
            ModelProfile(self.key, self.name, self.characteristics, self.invulnerable, self.models, most),
        )

    def has(self, keyword: str) -> bool:
        """Whether the unit has the keyword or faction keyword (compared without regard to case:
        an export spells them ``Death Guard``)."""
        wanted = keyword.upper()
        return any(k.upper() == wanted for k in (*self.keywords, *self.faction_keywords))


@dataclass(frozen=True, slots=True)
class Faction:
    """A faction file: its datasheets, abilities, stratagems and detachments by key."""

    key: str
    name: str
    keyword: str
    file: str
    datasheets: Mapping[str, Datasheet]
    abilities: Mapping[str, Ability]
    stratagems: Mapping[str, Stratagem]
    detachments: Mapping[str, Detachment]
    contagion_range: tuple[int, ...]
    """Contagion Range in inches by battle round (the last value holds for later rounds)."""
    contagion_source: str
    enhancements: Mapping[str, Enhancement] = MappingProxyType({})
    warnings: tuple[str, ...] = ()
    """What an import could not take over as it is (unknown weapon keywords, rules kept as text
    only), one line each."""

    def contagion(self, battle_round: int) -> int:
        """The Contagion Range in a battle round.

        >>> from rulesbook.systems.wh40k.faction.reader import death_guard
        >>> [death_guard().contagion(r) for r in (1, 2, 3, 5)]
        [3, 6, 9, 9]
        """
        table = self.contagion_range
        return table[min(battle_round, len(table)) - 1]
