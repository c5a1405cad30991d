"""Import Wahapedia's CSV export into the typed faction data of :mod:`~rulesbook.systems.wh40k.faction.reader`.

Wahapedia publishes its 10th-edition data as pipe-separated (``|``) UTF-8 files, optionally
starting with a byte-order mark, one header row, and a trailing ``|`` on every row; a text
field may run over several lines (its newlines are part of the field) and nothing is quoted.
This module reads one faction out of a folder of those files:

===================================== ============================================== ========
file                                  what it gives                                  needed
===================================== ============================================== ========
``Datasheets.csv``                    the datasheets, their default loadout and      yes
                                      Damaged line
``Datasheets_models.csv``             one characteristics line per kind of model     yes
``Datasheets_wargear.csv``            weapon profiles (profiles of one weapon share  yes
                                      a ``line``: one at a time)
``Datasheets_abilities.csv``          core, faction, datasheet and wargear abilities yes
``Stratagems.csv``                    stratagems (CP, type, turn, phase, detachment, yes
                                      WHEN / TARGET / EFFECT / RESTRICTIONS)
``Datasheets_keywords.csv``           keywords and faction keywords                  no
``Datasheets_unit_composition.csv``   the kinds of model and how many (``4-9 …``)    no
``Datasheets_models_cost.csv``        points by unit size                            no
``Abilities.csv``                     names and texts of shared abilities            no
``Detachments.csv``                   the faction's detachments                      no
``Detachment_abilities.csv``          each detachment's rule                         no
``Enhancements.csv``                  enhancements, their points and detachment      no
``Datasheets_leader.csv``             which datasheet may lead which                 no
===================================== ============================================== ========

Every value goes through the same checks as a faction YAML file (a weapon through
:func:`~rulesbook.systems.wh40k.attack.weapons.make_weapon`, a Save through the ``X+`` rule); numbers are ASCII digits only.
Anything malformed — a value, a row with the wrong number of fields, a field of more than
:data:`MAX_FIELD` characters — raises one :class:`~rulesbook.data.DataFileError` line naming the
file, the row (1 = the first record after the header) and the column.

What the export holds beyond the engine is kept, not refused, and said once in
:attr:`~rulesbook.systems.wh40k.faction.reader.Faction.warnings`: weapon keywords the core rules do not have (one line listing
them) and rules whose text the effects language cannot say (kept as text only, register entry
``imported-text-only``). A Torrent weapon's ``N/A`` Ballistic Skill is read as no skill (register
entry ``torrent-no-skill``). Rules whose effects *can* be said are recognised from their text
(:mod:`~rulesbook.systems.wh40k.effects.text`).

Example:
    >>> from pathlib import Path
    >>> folder = Path("tests/wh40k/wahapedia")
    >>> faction = import_wahapedia(folder, "ZZ")
    >>> beast = faction.datasheets["rot-beast"]
    >>> beast.characteristics.toughness, beast.invulnerable, beast.points
    (9, 5, ((1, 150),))
    >>> [(p.name, p.count, p.most, p.characteristics.wounds) for p in faction.datasheets["mire-wardens"].profiles]
    [('Mire Warden Champion', 1, 1, 3), ('Mire Wardens', 4, 9, 2)]
    >>> [(e.kind, e.value, e.attack) for e in faction.stratagems["foul-vigour"].effects]
    [('wound-modifier', 1, 'melee')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

from rulesbook.data import DataFileError
from rulesbook.errors import quote
from rulesbook.systems.wh40k.attack.weapons import Weapon
from rulesbook.systems.wh40k.faction.types import (
    Ability,
    Datasheet,
    Detachment,
    Enhancement,
    Faction,
    ModelProfile,
    Stratagem,
)
from rulesbook.systems.wh40k.wahapedia.files import (
    COLUMNS,
    REQUIRED_FILES,
    Row,
    plain,
    read_table,
    singular,
    slug,
)
from rulesbook.systems.wh40k.wahapedia.sheets import (
    DAMAGED_LEAD,
    Notes,
    effects,
    loadout,
)
from rulesbook.systems.wh40k.wahapedia.sheets import (
    abilities as read_abilities,
)
from rulesbook.systems.wh40k.wahapedia.sheets import (
    kinds as read_kinds,
)
from rulesbook.systems.wh40k.wahapedia.sheets import (
    weapon as read_weapon,
)

__all__ = ["import_wahapedia"]

_CATEGORIES = ("Battle Tactic", "Strategic Ploy", "Epic Deed", "Wargear")
_PHASE_WORDS = {"command": "command", "movement": "movement", "shooting": "shooting", "charge": "charge"}
_PARTS = re.compile(r"\b(WHEN|TARGET|EFFECT|RESTRICTIONS):", re.IGNORECASE)
_COUNT_NAME = re.compile(r"^\s*([0-9]{1,2})(?:\s*[-–]\s*([0-9]{1,2}))?\s+(.+?)\s*$", re.ASCII)

# -- stratagems -------------------------------------------------------------------------------


def _phases(row: Row) -> tuple[str, ...]:
    phase, turn = row.need("phase").lower(), row.get("turn").lower()
    if "any" in phase:
        return ("any",)
    sides = (
        ["your", "opponent"]
        if "either" in turn or not turn
        else ["opponent" if "opponent" in turn else "your"]
    )
    out: list[str] = []
    for word, key in (("fight", "fight"), *_PHASE_WORDS.items()):
        if word in phase:
            out += ["fight"] if key == "fight" else [f"{side}-{key}" for side in sides]
    if not out:
        raise row.fail(
            "phase",
            f"expected Command, Movement, Shooting, Charge, Fight or Any phase, got {quote(row.get('phase'))}",
        )
    return tuple(dict.fromkeys(out))


def _stratagem(row: Row, prefix: str, notes: Notes) -> Stratagem:
    name = plain(row.need("name"))
    kind = row.need("type")
    category = next((c for c in _CATEGORIES if c.lower() in kind.lower()), None)
    if category is None:
        raise row.fail("type", f"expected a type naming one of {', '.join(_CATEGORIES)}, got {quote(kind)}")
    parts: dict[str, str] = {}
    pieces = _PARTS.split(plain(row.need("description")))
    for label, body in zip(pieces[1::2], pieces[2::2], strict=True):
        parts[label.upper()] = body.strip()
    for label in ("WHEN", "TARGET", "EFFECT"):
        if not parts.get(label):
            raise row.fail("description", f"no {label}: part")
    detachment = plain(row.get("detachment"))
    key = slug(name)
    phases = _phases(row)
    return Stratagem(
        key=key,
        id=f"{prefix}.stratagem.{key}",
        name=name,
        cp=row.integer("cp_cost", 0, 5),
        source=slug(detachment) if detachment else "core",
        category=category,
        when=parts["WHEN"],
        phases=phases,
        target=parts["TARGET"],
        text=parts["EFFECT"],
        section=name,
        restrictions=parts.get("RESTRICTIONS", ""),
        effects=effects(parts["EFFECT"], phases, name, notes),
    )


# -- the faction ------------------------------------------------------------------------------


def _optional(folder: Path, name: str) -> list[Row]:
    path = folder / name
    return read_table(path, required=COLUMNS[name]) if path.exists() else []


@dataclass(frozen=True, slots=True)
class _Export:
    """The rows of the export that concern one faction, by the datasheet they belong to."""

    sheets: Mapping[str, Row]
    """The faction's rows of Datasheets.csv by datasheet id."""
    every_id: frozenset[str]
    models: Mapping[str, list[Row]]
    wargear: Mapping[str, list[Row]]
    abilities: Mapping[str, list[Row]]
    keywords: Mapping[str, list[Row]]
    composition: Mapping[str, list[Row]]
    costs: Mapping[str, list[Row]]
    shared: Mapping[str, Row]
    """Abilities.csv by ability id (the abilities several datasheets share)."""


def _export(folder: Path, faction_id: str, tables: Mapping[str, list[Row]]) -> _Export:
    """The faction's datasheets and their rows in the other files (a row naming a datasheet
    that is in no faction is an error)."""
    sheets = {r.need("id"): r for r in tables["Datasheets.csv"] if r.get("faction_id") == faction_id}
    if not sheets:
        raise DataFileError(
            f"Datasheets.csv: no row has faction_id {quote(faction_id)}", file="Datasheets.csv"
        )
    every_id = frozenset(r.get("id") for r in tables["Datasheets.csv"])

    def by_sheet(rows: Sequence[Row]) -> dict[str, list[Row]]:
        out: dict[str, list[Row]] = {}
        for r in rows:
            sid = r.need("datasheet_id")
            if sid in sheets:
                out.setdefault(sid, []).append(r)
            elif sid not in every_id:
                raise r.fail("datasheet_id", f"no datasheet with id {quote(sid)} in Datasheets.csv")
        return out

    return _Export(
        sheets=sheets,
        every_id=every_id,
        models=by_sheet(tables["Datasheets_models.csv"]),
        wargear=by_sheet(tables["Datasheets_wargear.csv"]),
        abilities=by_sheet(tables["Datasheets_abilities.csv"]),
        keywords=by_sheet(_optional(folder, "Datasheets_keywords.csv")),
        composition=by_sheet(_optional(folder, "Datasheets_unit_composition.csv")),
        costs=by_sheet(_optional(folder, "Datasheets_models_cost.csv")),
        shared={r.need("id"): r for r in _optional(folder, "Abilities.csv")},
    )


def _weapons(
    rows: Sequence[Row], sheet_name: str, notes: Notes
) -> tuple[dict[str, Weapon], dict[str, int | None], tuple[tuple[str, ...], ...]]:
    """A datasheet's weapons by key, their ranges, and the profiles of one weapon (one line),
    which are one at a time."""
    weapons: dict[str, Weapon] = {}
    ranges: dict[str, int | None] = {}
    lines: dict[str, list[str]] = {}
    for wrow in rows:
        wkey, weapon, rng = read_weapon(wrow, sheet_name, notes)
        if wkey in weapons:
            if weapons[wkey] == weapon:
                continue  # the same profile listed again (for another kind of model)
            n = 2
            while f"{wkey}-{n}" in weapons:
                n += 1
            notes.other.append(
                f"{sheet_name}: two different weapons called {quote(weapon.name)}; the second is {wkey}-{n}"
            )
            wkey = f"{wkey}-{n}"
        weapons[wkey], ranges[wkey] = weapon, rng
        lines.setdefault(wrow.get("line"), []).append(wkey)
    return weapons, ranges, tuple(tuple(group) for group in lines.values() if len(group) > 1)


def _damaged(row: Row, skey: str, sheet_name: str, prefix: str, notes: Notes) -> Ability | None:
    """The datasheet's Damaged line as an ability (``None`` without one): the condition (so many
    wounds left) is the ``damaged`` input, the rest is the effect."""
    damaged_w = row.get("damaged_w")
    damaged_text = plain(row.get("damaged_description"))
    if not (damaged_w and damaged_text):
        return None
    dkey = f"{skey}-damaged"
    what = DAMAGED_LEAD.sub("", damaged_text)
    damaged_effects = tuple(
        replace(e, condition="damaged") if e.kind != "none" else e
        for e in effects(what, ("any",), f"{sheet_name}: Damaged", notes)
    )
    return Ability(
        key=dkey,
        id=f"{prefix}.ability.{dkey}",
        name=f"Damaged: {damaged_w} wounds remaining",
        text=damaged_text,
        section=sheet_name,
        kind="datasheet",
        effects=damaged_effects,
    )


def _keywords(rows: Sequence[Row], faction: bool) -> tuple[str, ...]:
    """The datasheet's keywords, or its faction keywords."""
    wanted = "true" if faction else ""
    return tuple(
        dict.fromkeys(
            plain(k.need("keyword"))
            for k in rows
            if (k.get("is_faction_keyword").lower() == "true") == bool(wanted)
        )
    )


def _profiles(
    sid: str, row: Row, sheet_name: str, export: _Export, weapons: Mapping[str, Weapon]
) -> tuple[ModelProfile, ...]:
    """The kinds of model of a datasheet, with the weapons each carries by default."""
    kinds = read_kinds(sid, sheet_name, export.models[sid], export.composition.get(sid, []))
    carried = loadout(row.get("loadout"), [k[0] for k in kinds], weapons)
    profiles = tuple(
        ModelProfile(
            key=singular(slug(kname)) or f"model-{i}",
            name=kname,
            characteristics=ch,
            invulnerable=inv,
            count=low,
            most=high,
            weapons=tuple(carried.get(kname, ())),
        )
        for i, (kname, low, high, ch, inv) in enumerate(kinds, 1)
    )
    if len({p.key for p in profiles}) != len(profiles):
        profiles = tuple(replace(p, key=f"{p.key}-{i}") for i, p in enumerate(profiles, 1))
    if not any(p.count for p in profiles):
        raise row.fail("id", "its unit composition has no model in the smallest unit")
    return profiles


def _points(rows: Sequence[Row]) -> tuple[tuple[int, int], ...]:
    """(models, points) of each unit size."""
    points = []
    for prow in rows:
        m = _COUNT_NAME.match(plain(prow.get("description")))
        if m is None:
            raise prow.fail(
                "description",
                f"expected a count of models such as '1 model', got {quote(prow.get('description'))}",
            )
        points.append((int(m[1]), prow.integer("cost", 0, 5000)))
    return tuple(points)


def _datasheet(
    sid: str, export: _Export, prefix: str, abilities: dict[str, Ability], notes: Notes
) -> Datasheet:
    """One datasheet of the export (its abilities join ``abilities``)."""
    row = export.sheets[sid]
    sheet_name = plain(row.need("name"))
    skey = slug(sheet_name)
    if sid not in export.models:
        raise row.fail("id", "no row of Datasheets_models.csv gives its characteristics")
    weapons, ranges, exclusive = _weapons(export.wargear.get(sid, []), sheet_name, notes)
    named, core, fnp, stealth = read_abilities(
        export.abilities.get(sid, []), export.shared, prefix, abilities, notes
    )
    damaged = _damaged(row, skey, sheet_name, prefix, notes)
    if damaged is not None:
        abilities[damaged.key] = damaged
        named = (*named, damaged.key)
    if stealth:
        notes.other.append(f"{sheet_name}: Stealth (core) — a target with it takes −1 to ranged Hit rolls")
    profiles = _profiles(sid, row, sheet_name, export, weapons)
    main = max(profiles, key=lambda p: p.count)
    keywords = export.keywords.get(sid, [])
    return Datasheet(
        key=skey,
        id=f"{prefix}.datasheet.{skey}",
        name=sheet_name,
        section=sheet_name,
        characteristics=main.characteristics,
        characteristics_source=f"Wahapedia export, Datasheets_models.csv, datasheet {sid}",
        invulnerable=main.invulnerable,
        weapons=MappingProxyType(weapons),
        weapon_ranges=MappingProxyType(ranges),
        exclusive=exclusive,
        abilities=named,
        core_abilities=core,
        feel_no_pain=fnp,
        keywords=_keywords(keywords, faction=False),
        faction_keywords=_keywords(keywords, faction=True),
        composition=tuple((p.count, p.name) for p in profiles),
        points=_points(export.costs.get(sid, [])),
        profiles=profiles,
    )


def _leaders(
    folder: Path, export: _Export, datasheets: dict[str, Datasheet], key_of: Mapping[str, str]
) -> None:
    """The leader pairings of Datasheets_leader.csv, into the leaders' datasheets."""
    for lrow in _optional(folder, "Datasheets_leader.csv"):
        leader, led = lrow.need("leader_id"), lrow.need("attached_id")
        if leader in key_of and led in key_of:
            sheet = datasheets[key_of[leader]]
            datasheets[key_of[leader]] = replace(
                sheet, leads=tuple(dict.fromkeys((*sheet.leads, key_of[led])))
            )
        elif leader not in export.every_id or led not in export.every_id:
            bad = "leader_id" if leader not in export.every_id else "attached_id"
            raise lrow.fail(bad, f"no datasheet with id {quote(lrow.get(bad))} in Datasheets.csv")


def _stratagems(rows: Sequence[Row], faction_id: str, prefix: str, notes: Notes) -> dict[str, Stratagem]:
    """The faction's stratagems and the core ones (no faction ID)."""
    stratagems: dict[str, Stratagem] = {}
    for srow in rows:
        if srow.get("faction_id") not in (faction_id, ""):
            continue
        strat = _stratagem(srow, prefix, notes)
        if strat.key in stratagems:
            raise srow.fail("name", f"a second stratagem called {quote(strat.name)}")
        stratagems[strat.key] = strat
    return stratagems


def import_wahapedia(
    folder: Path, faction_id: str, *, key: str | None = None, name: str | None = None
) -> Faction:
    """The datasheets, stratagems, detachments, enhancements and leader pairings of one faction
    (``faction_id`` as in the files, e.g. ``DG``) of a Wahapedia export folder, as a
    :class:`~rulesbook.systems.wh40k.faction.types.Faction`.

    ``key`` (default: the faction ID in lower case) makes the rule IDs
    ``wh40k.<key>.datasheet.<name>``; ``name`` defaults to the key. Rows of other factions are
    skipped; rows that refer to a datasheet that is not there are errors.
    """
    tables = {f: read_table(folder / f, required=COLUMNS[f]) for f in REQUIRED_FILES}
    fkey = key or slug(faction_id)
    prefix = f"wh40k.{fkey}"
    notes = Notes()
    export = _export(folder, faction_id, tables)
    abilities: dict[str, Ability] = {}
    datasheets: dict[str, Datasheet] = {}
    key_of: dict[str, str] = {}
    for sid, row in export.sheets.items():
        sheet_name = plain(row.need("name"))
        if slug(sheet_name) in datasheets:
            raise row.fail("name", f"a second datasheet called {quote(sheet_name)}")
        sheet = _datasheet(sid, export, prefix, abilities, notes)
        datasheets[sheet.key] = sheet
        key_of[sid] = sheet.key
    _leaders(folder, export, datasheets, key_of)
    stratagems = _stratagems(tables["Stratagems.csv"], faction_id, prefix, notes)
    detachments, enhancements = _detachments(folder, faction_id, prefix, stratagems, abilities, notes)
    return Faction(
        key=fkey,
        name=name or fkey,
        keyword=fkey.upper().replace("-", " "),
        file=str(folder),
        datasheets=MappingProxyType(datasheets),
        abilities=MappingProxyType(abilities),
        stratagems=MappingProxyType(stratagems),
        detachments=MappingProxyType(detachments),
        contagion_range=(0,),
        contagion_source="not in the Wahapedia export",
        enhancements=MappingProxyType(enhancements),
        warnings=notes.lines(),
    )


def _detachment_rows(
    folder: Path, file: str, faction_id: str, names: dict[str, str]
) -> Iterator[tuple[Row, str, str]]:
    """The faction's rows of ``file`` (an optional file whose rows belong to a detachment), each
    with its detachment's name and key; a name no other file gave is added to ``names``."""
    for row in _optional(folder, file):
        if row.get("faction_id") == faction_id:
            det_name = plain(row.need("detachment"))
            dkey = slug(det_name)
            names.setdefault(dkey, det_name)
            yield row, det_name, dkey


def _enhancements(
    folder: Path, faction_id: str, prefix: str, names: dict[str, str], notes: Notes
) -> dict[str, Enhancement]:
    """The faction's enhancements (Enhancements.csv), each with its detachment (whose name is
    added to ``names`` when no other file gave it)."""
    enhancements: dict[str, Enhancement] = {}
    for row, _, dkey in _detachment_rows(folder, "Enhancements.csv", faction_id, names):
        name = plain(row.need("name"))
        ekey = slug(name)
        if ekey in enhancements:
            raise row.fail("name", f"a second enhancement called {quote(name)}")
        text = plain(row.need("description"))
        enhancements[ekey] = Enhancement(
            key=ekey,
            id=f"{prefix}.enhancement.{ekey}",
            name=name,
            cost=row.integer("cost", 0, 500),
            detachment=dkey,
            text=text,
            section=name,
            effects=effects(text, ("any",), name, notes),
        )
    return enhancements


def _detachments(
    folder: Path,
    faction_id: str,
    prefix: str,
    stratagems: Mapping[str, Stratagem],
    abilities: dict[str, Ability],
    notes: Notes,
) -> tuple[dict[str, Detachment], dict[str, Enhancement]]:
    """The faction's detachments (from Detachments.csv, else from the names the other files
    give), each with its rule (Detachment_abilities.csv), stratagems and enhancements."""
    names: dict[str, str] = {}
    for row in _optional(folder, "Detachments.csv"):
        if row.get("faction_id") == faction_id:
            names[slug(plain(row.need("name")))] = plain(row.need("name"))
    rules: dict[str, list[str]] = {}
    texts: dict[str, list[str]] = {}
    for row, det_name, dkey in _detachment_rows(folder, "Detachment_abilities.csv", faction_id, names):
        name = plain(row.need("name"))
        text = plain(row.need("description"))
        akey = slug(name)
        if akey in abilities and abilities[akey].kind != "detachment":
            akey = f"{dkey}-{akey}"
        abilities[akey] = Ability(
            key=akey,
            id=f"{prefix}.ability.{akey}",
            name=name,
            text=text,
            section=det_name,
            kind="detachment",
            effects=effects(text, ("any",), f"{det_name}: {name}", notes),
        )
        rules.setdefault(dkey, []).append(akey)
        texts.setdefault(dkey, []).append(f"{name}: {text}")
    enhancements = _enhancements(folder, faction_id, prefix, names, notes)
    for st in stratagems.values():
        if st.source != "core" and st.source not in names:
            names[st.source] = st.source.replace("-", " ").title()
    detachments: dict[str, Detachment] = {}
    for dkey, det_name in names.items():
        detachments[dkey] = Detachment(
            key=dkey,
            id=f"{prefix}.detachment.{dkey}",
            name=det_name,
            text=" ".join(texts.get(dkey, []))
            or f"The {det_name} detachment (its rule is not in the export).",
            section=det_name,
            choices=tuple(rules.get(dkey, ())),
            stratagems=tuple(k for k, st in stratagems.items() if st.source == dkey),
            enhancements=tuple(k for k, e in enhancements.items() if e.detachment == dkey),
        )
    return detachments, enhancements
