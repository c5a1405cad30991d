"""A faction page as typed data: datasheets, abilities and auras, stratagems, detachment rules.

A faction file (``death-guard.yaml``) is read once by :func:`load_faction` through the project's
safe loader and checked field by field; whatever is wrong — a missing field, a Ballistic Skill of
``7+``, an ability or keyword the file does not define — raises one
:class:`~rulesbook.data.DataFileError` line naming the file, the entry and the reason.

Every ability, stratagem and detachment rule carries a stable rule ID
(``wh40k.death-guard.stratagem.gifts-of-decay``), a text in our own words citing its section of the
source, and the **effects** it has on the numbers as declared data (:class:`Effect`: which roll or
characteristic, by how much, in which phase, for which attack type, on whose units). The attack
calculators apply those effects (:mod:`~rulesbook.systems.wh40k.faction.sides`); an effect that changes no number of an attack is
declared ``kind: none`` and names the interpretations-register entry that says why.

Example:
    >>> dg = death_guard()
    >>> m = dg.datasheets["mortarion"]
    >>> m.name, m.characteristics.toughness, m.invulnerable, m.points[0]
    ('Mortarion', 12, 4, (1, 300))
    >>> dg.stratagems["ferric-blight"].id, dg.stratagems["ferric-blight"].cp
    ('wh40k.death-guard.stratagem.ferric-blight', 1)
    >>> [(e.kind, e.value, e.condition) for e in dg.stratagems["ferric-blight"].effects]
    [('ap', 1, 'not-infected'), ('ap', 1, 'infected'), ('critical-ap', 2, 'infected')]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rulesbook.data import DataFileError, Limits, load_data_file, need
from rulesbook.errors import InputError, did_you_mean, quote
from rulesbook.systems.wh40k.attack.weapons import Weapon, make_weapon
from rulesbook.systems.wh40k.effects.effect import (
    ATTACK_KINDS,
    CHARACTERISTIC_NAMES,
    CONDITIONS,
    EFFECT_FIELDS,
    PHASE_ALIASES,
    PHASES,
    RANGES,
    Effect,
)
from rulesbook.systems.wh40k.effects.kinds import KINDS
from rulesbook.systems.wh40k.faction.types import (
    CORE_KEYWORDS,
    NO_SKILL,
    Ability,
    Characteristics,
    Datasheet,
    Detachment,
    Enhancement,
    Faction,
    ModelProfile,
    Stratagem,
)

__all__ = [
    "DEATH_GUARD_FILE",
    "FACTION_LIMITS",
    "EntryReader",
    "death_guard",
    "faction_from_data",
    "load_faction",
]

DEATH_GUARD_FILE = Path(__file__).parent.parent / "death-guard.yaml"

_SKILL_RE = re.compile(r"^([2-6])\+$")
_ANY_SKILL_RE = re.compile(r"^([0-9]+)\+?$")
_KEY_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

FACTION_LIMITS = Limits(max_bytes=16_000_000, max_items=100_000, max_nodes=2_000_000)
"""A faction file may be a whole army's import (hundreds of datasheets): up to 16 MB; the other
limits of the loader (nesting, integers, YAML strictness) stay."""


# -- the loader --------------------------------------------------------------------------------


class _Reader:
    """Checks of one file; every message starts with the dotted place in it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = path.name

    def fail(self, where: str, reason: str) -> DataFileError:
        return DataFileError(f"{where}: {reason}")

    def key(self, raw: Any, where: str) -> str:
        if not isinstance(raw, str) or not _KEY_RE.match(raw):
            raise self.fail(where, f"keys are lower-case words joined by '-', got {quote(raw)}")
        return raw

    def ints(self, raw: Any, where: str, lo: int, hi: int) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int) or not lo <= raw <= hi:
            raise self.fail(where, f"expected an integer from {lo} to {hi}, got {quote(raw)}")
        return raw

    def plus(self, raw: Any, where: str, lo: int, hi: int) -> int:
        """An ``X+`` characteristic (``3+`` or 3) from lo+ to hi+."""
        m = _ANY_SKILL_RE.match(str(raw).strip()) if isinstance(raw, (str, int)) else None
        if m is None or isinstance(raw, bool) or not lo <= int(m[1]) <= hi:
            raise self.fail(where, f"expected {lo}+ to {hi}+, got {quote(raw)}")
        return int(m[1])

    def strings(self, raw: Any, where: str) -> tuple[str, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            raise self.fail(where, "expected a list of words")
        return tuple(raw)

    def text(self, raw: Mapping[str, Any], field: str, where: str) -> str:
        value = need(raw, field, where)
        if not value.strip():
            raise self.fail(f"{where}.{field}", "must not be empty")
        return " ".join(value.split()) if "\n\n" not in value else value.strip()

    def choice(self, raw: Any, where: str, allowed: tuple[str, ...]) -> str:
        if raw not in allowed:
            raise self.fail(where, f"expected one of {', '.join(allowed)}, got {quote(raw)}")
        return str(raw)

    def phases(self, raw: Any, where: str) -> tuple[str, ...]:
        """Phases (:data:`PHASES`), a phase of either player (``shooting``) given as both."""
        out: list[str] = []
        for i, phase in enumerate(self.strings(raw, where)):
            if phase in PHASE_ALIASES:
                out += PHASE_ALIASES[phase]
            else:
                out.append(self.choice(phase, f"{where}[{i}]", (*PHASES, *PHASE_ALIASES)))
        return tuple(dict.fromkeys(out))

    def effects(self, raw: Any, where: str, known_interps: frozenset[str] | None) -> tuple[Effect, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            raise self.fail(f"{where}.effects", "expected a list")
        return tuple(self.effect(e, f"{where}.effects[{i}]", known_interps) for i, e in enumerate(raw))

    def effect(self, raw: Any, where: str, known_interps: frozenset[str] | None) -> Effect:
        kind_name = self.choice(need(raw, "kind", where), f"{where}.kind", tuple(KINDS))
        kind = KINDS[kind_name]
        for key in raw:
            if key not in EFFECT_FIELDS:
                hint = did_you_mean(str(key), EFFECT_FIELDS) or ";"
                raise self.fail(f"{where}.{key}", f"unknown field{hint} allowed: {', '.join(EFFECT_FIELDS)}")
        value = kind.value.check(raw.get("value"), f"{where}.value")
        characteristic = raw.get("characteristic")
        if kind.needs_characteristic:
            characteristic = self.choice(characteristic, f"{where}.characteristic", CHARACTERISTIC_NAMES)
        phases = self.phases(raw.get("phases", ["any"]), f"{where}.phases")
        attack = self.choice(raw.get("attack", "any"), f"{where}.attack", ATTACK_KINDS)
        affects = self.choice(raw.get("affects", "own"), f"{where}.affects", ("own", "enemy"))
        rng = raw.get("range")
        if rng is not None and rng not in RANGES:
            rng = self.ints(rng, f"{where}.range", 1, 48)
        condition = raw.get("condition")
        if condition is not None:
            self.choice(condition, f"{where}.condition", CONDITIONS)
        register = raw.get("register")
        if kind_name == "none" and not register:
            raise self.fail(where, "an effect of kind none names the register entry that says why (register)")
        if register is not None and known_interps is not None and register not in known_interps:
            raise self.fail(f"{where}.register", f"unknown interpretation {quote(register)}")
        rounds = raw.get("battle_rounds") or []
        if not isinstance(rounds, list):
            raise self.fail(f"{where}.battle_rounds", "expected a list of battle rounds (1 to 5)")
        within = raw.get("within")
        return Effect(
            kind=kind_name,
            value=value,
            affects=affects,  # type: ignore[arg-type]
            phases=phases,
            attack=attack,
            range=rng,
            keywords=self.strings(raw.get("keywords"), f"{where}.keywords"),
            condition=condition,
            characteristic=characteristic,
            register=register,
            note=str(raw.get("note", "")),
            target_keywords=tuple(
                k.upper().replace("-", " ")
                for k in self.strings(raw.get("target_keywords"), f"{where}.target_keywords")
            ),
            battle_rounds=tuple(
                self.ints(x, f"{where}.battle_rounds[{i}]", 1, 5) for i, x in enumerate(rounds)
            ),
            within=None if within is None else self.ints(within, f"{where}.within", 0, 48),
        )


EntryReader = _Reader
"""The checks of one file's entries (a variant's ``add:`` reads its entries with them)."""


def load_faction(path: Path, known_interpretations: frozenset[str] | None = None) -> Faction:
    """Read and check a faction file (see ``death-guard.yaml`` for the shape).

    ``known_interpretations``: the register's IDs, so an effect naming an unknown entry is
    refused (``None`` skips that check).
    """
    data = load_data_file(path, limits=FACTION_LIMITS)
    return faction_from_data(data, path.name, known_interpretations)


def faction_from_data(data: Any, name: str, known_interpretations: frozenset[str] | None = None) -> Faction:
    """The faction of a faction file's data (what :func:`load_faction` reads from the file
    called ``name``; an army list's roster is turned into such data too), with every check."""
    r = _Reader(Path(name))
    top = r.name
    head = need(data, "faction", top, dict)
    fkey = r.key(need(head, "key", f"{top}.faction"), f"{top}.faction.key")
    prefix = f"wh40k.{fkey}"
    extra = r.strings(data.get("keywords"), f"{top}.keywords")
    keywords = CORE_KEYWORDS | set(extra)
    contagion = need(head, "contagion_range", f"{top}.faction", list)
    table = tuple(r.ints(x, f"{top}.faction.contagion_range[{i}]", 0, 48) for i, x in enumerate(contagion))
    if not table:
        raise r.fail(f"{top}.faction.contagion_range", "give the range of battle round 1 at least")

    def interps(raw: Mapping[str, Any], where: str) -> tuple[str, ...]:
        out = r.strings(raw.get("interpretations"), f"{where}.interpretations")
        for ref in out:
            if known_interpretations is not None and ref not in known_interpretations:
                raise r.fail(f"{where}.interpretations", f"unknown interpretation {quote(ref)}")
        return out

    def section(raw: Mapping[str, Any], where: str) -> str:
        return str(need(raw, "section", where))

    abilities: dict[str, Ability] = {}
    for key, raw in need(data, "abilities", top, dict).items():
        where = f"{top}.abilities.{r.key(key, f'{top}.abilities')}"
        abilities[key] = Ability(
            key=key,
            id=f"{prefix}.ability.{key}",
            name=need(raw, "name", where),
            text=r.text(raw, "text", where),
            section=section(raw, where),
            kind=r.choice(
                need(raw, "kind", where), f"{where}.kind", ("core", "faction", "datasheet", "detachment")
            ),  # type: ignore[arg-type]
            aura=bool(raw.get("aura", False)),
            range=_range(r, raw.get("range"), f"{where}.range"),
            affects=str(raw.get("affects", "")),
            effects=r.effects(raw.get("effects"), where, known_interpretations),
            interpretations=interps(raw, where),
            choice_of=r.strings(raw.get("choice_of"), f"{where}.choice_of"),
        )
    for key, ab in abilities.items():
        for other in ab.choice_of:
            if other not in abilities:
                raise r.fail(f"{top}.abilities.{key}.choice_of", f"unknown ability {quote(other)}")

    stratagems: dict[str, Stratagem] = {}
    for key, raw in need(data, "stratagems", top, dict).items():
        where = f"{top}.stratagems.{r.key(key, f'{top}.stratagems')}"
        phases = r.phases(need(raw, "phases", where, list), f"{where}.phases")
        stratagems[key] = Stratagem(
            key=key,
            id=f"{prefix}.stratagem.{key}",
            name=need(raw, "name", where),
            cp=r.ints(need(raw, "cp", where, object), f"{where}.cp", 0, 5),
            source=r.key(need(raw, "source", where), f"{where}.source"),
            category=r.choice(
                need(raw, "category", where),
                f"{where}.category",
                ("Battle Tactic", "Strategic Ploy", "Epic Deed", "Wargear"),
            ),
            when=r.text(raw, "when", where),
            phases=phases,
            target=r.text(raw, "target", where),
            text=r.text(raw, "text", where),
            section=section(raw, where),
            restrictions=" ".join(str(raw.get("restrictions", "")).split()),
            effects=r.effects(raw.get("effects"), where, known_interpretations),
            interpretations=interps(raw, where),
        )

    enhancements: dict[str, Enhancement] = {}
    for key, raw in (data.get("enhancements") or {}).items():
        where = f"{top}.enhancements.{r.key(key, f'{top}.enhancements')}"
        enhancements[key] = Enhancement(
            key=key,
            id=f"{prefix}.enhancement.{key}",
            name=need(raw, "name", where),
            cost=r.ints(need(raw, "cost", where, object), f"{where}.cost", 0, 500),
            detachment=r.key(need(raw, "detachment", where), f"{where}.detachment"),
            text=r.text(raw, "text", where),
            section=section(raw, where),
            effects=r.effects(raw.get("effects"), where, known_interpretations),
            interpretations=interps(raw, where),
        )

    detachments: dict[str, Detachment] = {}
    for key, raw in (data.get("detachments") or {}).items():
        where = f"{top}.detachments.{r.key(key, f'{top}.detachments')}"
        choices = r.strings(raw.get("choices"), f"{where}.choices")
        for c in choices:
            if c not in abilities:
                raise r.fail(f"{where}.choices", f"unknown ability {quote(c)}")
        own_strats = r.strings(raw.get("stratagems"), f"{where}.stratagems")
        for c in own_strats:
            if c not in stratagems:
                raise r.fail(f"{where}.stratagems", f"unknown stratagem {quote(c)}")
        own_enh = r.strings(raw.get("enhancements"), f"{where}.enhancements")
        for c in own_enh:
            if c not in enhancements:
                raise r.fail(f"{where}.enhancements", f"unknown enhancement {quote(c)}")
        detachments[key] = Detachment(
            key=key,
            id=f"{prefix}.detachment.{key}",
            name=need(raw, "name", where),
            text=r.text(raw, "text", where),
            section=section(raw, where),
            choices=choices,
            effects=r.effects(raw.get("effects"), where, known_interpretations),
            interpretations=interps(raw, where),
            stratagems=own_strats,
            enhancements=own_enh,
        )
    for key, enh in enhancements.items():
        if enh.detachment not in detachments:
            raise r.fail(
                f"{top}.enhancements.{key}.detachment", f"unknown detachment {quote(enh.detachment)}"
            )

    datasheets: dict[str, Datasheet] = {}
    for key, raw in need(data, "datasheets", top, dict).items():
        where = f"{top}.datasheets.{r.key(key, f'{top}.datasheets')}"
        datasheets[key] = _datasheet(r, key, raw, where, prefix, abilities, keywords)
    for key, sheet in datasheets.items():
        for led in sheet.leads:
            if led not in datasheets:
                raise r.fail(f"{top}.datasheets.{key}.leads", f"unknown datasheet {quote(led)}")

    return Faction(
        key=fkey,
        name=need(head, "name", f"{top}.faction"),
        keyword=need(head, "keyword", f"{top}.faction"),
        file=r.name,
        datasheets=MappingProxyType(datasheets),
        abilities=MappingProxyType(abilities),
        stratagems=MappingProxyType(stratagems),
        detachments=MappingProxyType(detachments),
        contagion_range=table,
        contagion_source=need(head, "contagion_source", f"{top}.faction"),
        enhancements=MappingProxyType(enhancements),
        warnings=r.strings(data.get("warnings"), f"{top}.warnings"),
    )


def _range(r: _Reader, raw: Any, where: str) -> int | str | None:
    """An aura's range: inches, ``contagion`` or nothing."""
    if raw is None or raw == "contagion":
        return raw  # type: ignore[no-any-return]
    return r.ints(raw, where, 1, 48)


_CORE_ABILITY_RE = re.compile(
    r"^(deadly-demise-(?:[1-6]|d3|d6|d3\+[1-6]|d6\+[1-6])|feel-no-pain-[2-6]|stealth|deep-strike|scouts-[0-9]{1,2}"
    r"|lone-operative|infiltrators|fights-first|leader|firing-deck-[0-9]{1,2}|hover)$"
)
"""The core abilities of the edition (Deadly Demise, Deep Strike, Feel No Pain, Fights First,
Firing Deck, Hover, Infiltrators, Leader, Lone Operative, Scouts, Stealth) as datasheet words."""


def _datasheet(
    r: _Reader,
    key: str,
    raw: Any,
    where: str,
    prefix: str,
    abilities: Mapping[str, Ability],
    keywords: set[str] | frozenset[str],
) -> Datasheet:
    characteristics = _characteristics(
        r, need(raw, "characteristics", where, dict), f"{where}.characteristics"
    )
    invuln_raw = raw.get("invulnerable")
    invuln = None if invuln_raw is None else r.plus(invuln_raw, f"{where}.invulnerable", 2, 6)
    weapons: dict[str, Weapon] = {}
    ranges: dict[str, int | None] = {}
    for wkey, w in need(raw, "weapons", where, dict).items():
        ww = f"{where}.weapons.{r.key(wkey, f'{where}.weapons')}"
        ranged = "BS" in w if isinstance(w, dict) else True
        if isinstance(w, dict) and "BS" in w and "WS" in w:
            raise r.fail(ww, "give BS (a ranged weapon) or WS (a melee weapon), not both")
        if not isinstance(w, dict) or ("BS" not in w and "WS" not in w):
            raise r.fail(ww, "missing field 'BS' (ranged) or 'WS' (melee)")
        skill_key = "BS" if ranged else "WS"
        no_skill = w[skill_key] == "N/A"
        if no_skill and "torrent" not in (w.get("abilities") or []):
            raise r.fail(f"{ww}.{skill_key}", "N/A only for a torrent weapon (it never rolls to hit)")
        skill = 6 if no_skill else r.plus(w[skill_key], f"{ww}.{skill_key}", 2, 6)
        values = {
            "attacks": need(w, "A", ww, (str, int)),
            "skill": skill,
            "strength": need(w, "S", ww, int),
            "ap": w.get("AP", 0),
            "damage": need(w, "D", ww, (str, int)),
            "abilities": tuple(r.strings(w.get("abilities"), f"{ww}.abilities")),
            "ranged": ranged,
        }
        try:
            weapons[wkey] = make_weapon(
                values,
                name=need(w, "name", ww),
                field=ww,
                shown={"attacks": "A", "skill": skill_key, "strength": "S", "ap": "AP", "damage": "D"},
            )
        except InputError as exc:
            raise DataFileError(f"{exc.field}: {exc.message}") from None
        if no_skill:
            weapons[wkey] = replace(weapons[wkey], skill=NO_SKILL)
        rng = w.get("range")
        ranges[wkey] = None if not ranged else r.ints(rng, f"{ww}.range", 1, 120)
    exclusive = []
    for i, group in enumerate(raw.get("exclusive") or []):
        names = r.strings(group, f"{where}.exclusive[{i}]")
        if len(names) < 2 or any(n not in weapons for n in names):
            raise r.fail(f"{where}.exclusive[{i}]", f"expected two or more of {', '.join(weapons)}")
        exclusive.append(names)
    named = r.strings(need(raw, "abilities", where, list), f"{where}.abilities")
    for ab in named:
        if ab not in abilities:
            raise r.fail(f"{where}.abilities", f"unknown ability {quote(ab)}; define it under abilities")
    core = r.strings(raw.get("core_abilities"), f"{where}.core_abilities")
    fnp = None
    for ab in core:
        if not _CORE_ABILITY_RE.match(ab):
            raise r.fail(f"{where}.core_abilities", f"unknown core ability {quote(ab)}")
        if ab.startswith("feel-no-pain-"):
            fnp = int(ab.rsplit("-", 1)[1])
    kws = r.strings(need(raw, "keywords", where, list), f"{where}.keywords")
    fkws = r.strings(need(raw, "faction_keywords", where, list), f"{where}.faction_keywords")
    for kw in (*kws, *fkws):
        if kw not in keywords:
            raise r.fail(f"{where}.keywords", f"unknown keyword {quote(kw)}; add it to the file's keywords")
    composition = []
    for i, c in enumerate(need(raw, "composition", where, list)):
        cw2 = f"{where}.composition[{i}]"
        composition.append(
            (r.ints(need(c, "models", cw2, int), f"{cw2}.models", 1, 40), need(c, "name", cw2))
        )
    points = []
    for i, p in enumerate(need(raw, "points", where, list)):
        pw = f"{where}.points[{i}]"
        points.append(
            (
                r.ints(need(p, "models", pw, int), f"{pw}.models", 1, 40),
                r.ints(need(p, "points", pw, int), f"{pw}.points", 0, 5000),
            )
        )
    if not points or not composition:
        raise r.fail(where, "a datasheet needs its composition and points")
    profiles = []
    for i, m in enumerate(raw.get("models") or []):
        mw = f"{where}.models[{i}]"
        count = r.ints(need(m, "count", mw, int), f"{mw}.count", 0, 40)
        carried = r.strings(m.get("weapons"), f"{mw}.weapons")
        for wk in carried:
            if wk not in weapons:
                raise r.fail(
                    f"{mw}.weapons", f"unknown weapon {quote(wk)}; expected one of {', '.join(weapons)}"
                )
        m_inv = m.get("invulnerable")
        profiles.append(
            ModelProfile(
                key=r.key(need(m, "key", mw), f"{mw}.key"),
                name=need(m, "name", mw),
                characteristics=_characteristics(
                    r, need(m, "characteristics", mw, dict), f"{mw}.characteristics"
                ),
                invulnerable=None if m_inv is None else r.plus(m_inv, f"{mw}.invulnerable", 2, 6),
                count=count,
                most=r.ints(m.get("most", count), f"{mw}.most", count, 40),
                weapons=carried,
            )
        )
    if profiles and not any(p.count for p in profiles):
        raise r.fail(f"{where}.models", "the smallest unit needs at least one model")
    return Datasheet(
        key=key,
        id=f"{prefix}.datasheet.{key}",
        name=need(raw, "name", where),
        section=str(need(raw, "section", where)),
        characteristics=characteristics,
        characteristics_source=need(raw, "characteristics_source", where),
        invulnerable=invuln,
        weapons=MappingProxyType(weapons),
        weapon_ranges=MappingProxyType(ranges),
        exclusive=tuple(exclusive),
        abilities=named,
        core_abilities=core,
        feel_no_pain=fnp,
        keywords=kws,
        faction_keywords=fkws,
        composition=tuple(composition),
        points=tuple(points),
        profiles=tuple(profiles),
        leads=r.strings(raw.get("leads"), f"{where}.leads"),
    )


def _characteristics(r: _Reader, ch: Mapping[str, Any], cw: str) -> Characteristics:
    return Characteristics(
        move=r.ints(need(ch, "M", cw, int), f"{cw}.M", 0, 30),
        toughness=r.ints(need(ch, "T", cw, int), f"{cw}.T", 1, 20),
        save=r.plus(need(ch, "Sv", cw, object), f"{cw}.Sv", 2, 7),
        wounds=r.ints(need(ch, "W", cw, int), f"{cw}.W", 1, 40),
        leadership=r.plus(need(ch, "Ld", cw, object), f"{cw}.Ld", 2, 12),
        objective_control=r.ints(need(ch, "OC", cw, int), f"{cw}.OC", 0, 20),
    )


@cache
def death_guard() -> Faction:
    """The Death Guard page of the source, as shipped in ``death-guard.yaml``."""
    return load_faction(DEATH_GUARD_FILE)
