"""Import Wahapedia's CSV export into the typed faction data of :mod:`.faction`.

Wahapedia publishes its 10th-edition data as pipe-separated (``|``) UTF-8 files, optionally
starting with a byte-order mark, one header row, and a trailing ``|`` on every row. This module
reads one faction out of a folder of those files:

============================== ========================================================== ========
file                           what it gives                                              needed
============================== ========================================================== ========
``Datasheets.csv``             the datasheets (``id``, ``name``, ``faction_id``)          yes
``Datasheets_models.csv``      the characteristics line (M T Sv inv_sv W Ld OC)           yes
``Datasheets_wargear.csv``     weapon profiles (range, A, BS_WS, S, AP, D, abilities)     yes
``Datasheets_abilities.csv``   core, faction and datasheet abilities of each datasheet    yes
``Stratagems.csv``             stratagems (CP, type, turn, phase, WHEN/TARGET/EFFECT)     yes
``Datasheets_keywords.csv``    keywords and faction keywords                              no
``Datasheets_unit_composition.csv`` the models of the smallest unit                       no
``Datasheets_models_cost.csv`` points by unit size                                        no
``Abilities.csv``              names and texts of the shared abilities rows refer to      no
============================== ========================================================== ========

Every value goes through the same checks as a faction YAML file (a weapon through
:func:`~.weapons.make_weapon`, a Save through the ``X+`` rule), and anything malformed raises one
:class:`~rulesbook.data.DataFileError` line naming the file, the row (1 = the first row after
the header) and the column. The imported abilities and stratagems carry their text but no
declared effects: Wahapedia's texts are prose, so an imported rule changes no number until a
faction file declares its effects (see ``death-guard.yaml``).

Example:
    >>> from pathlib import Path
    >>> folder = Path("tests/wh40k/wahapedia")
    >>> faction = import_wahapedia(folder, "ZZ")
    >>> beast = faction.datasheets["rot-beast"]
    >>> beast.characteristics.toughness, beast.invulnerable, beast.points
    (9, 5, ((1, 150),))
    >>> faction.stratagems["foul-vigour"].cp, faction.stratagems["foul-vigour"].phases
    (1, ('fight',))
"""

from __future__ import annotations

import csv
import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rulesbook.data import DataFileError, Limits, read_text
from rulesbook.errors import InputError, quote
from rulesbook.systems.wh40k.faction import (
    Ability,
    Characteristics,
    Datasheet,
    Faction,
    Stratagem,
)
from rulesbook.systems.wh40k.weapons import Weapon, make_weapon

__all__ = ["COLUMNS", "REQUIRED_FILES", "Row", "import_wahapedia", "read_table", "slug"]

COLUMNS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "Datasheets.csv": ("id", "name", "faction_id"),
        "Datasheets_models.csv": ("datasheet_id", "line", "name", "M", "T", "Sv", "inv_sv", "W", "Ld", "OC"),
        "Datasheets_wargear.csv": (
            "datasheet_id",
            "line",
            "name",
            "description",
            "range",
            "type",
            "A",
            "BS_WS",
            "S",
            "AP",
            "D",
        ),
        "Datasheets_abilities.csv": (
            "datasheet_id",
            "line",
            "ability_id",
            "name",
            "description",
            "type",
            "parameter",
        ),
        "Stratagems.csv": (
            "faction_id",
            "name",
            "id",
            "type",
            "cp_cost",
            "turn",
            "phase",
            "detachment",
            "description",
        ),
        "Datasheets_keywords.csv": ("datasheet_id", "keyword", "is_faction_keyword"),
        "Datasheets_unit_composition.csv": ("datasheet_id", "line", "description"),
        "Datasheets_models_cost.csv": ("datasheet_id", "line", "description", "cost"),
        "Abilities.csv": ("id", "name", "description"),
    }
)
"""The columns each file must have (others, such as ``legend`` or ``link``, are read and not kept)."""

REQUIRED_FILES = (
    "Datasheets.csv",
    "Datasheets_models.csv",
    "Datasheets_wargear.csv",
    "Datasheets_abilities.csv",
    "Stratagems.csv",
)

_CATEGORIES = ("Battle Tactic", "Strategic Ploy", "Epic Deed", "Wargear")
_PHASE_WORDS = {"command": "command", "movement": "movement", "shooting": "shooting", "charge": "charge"}
_TAG = re.compile(r"<[^>]+>")
_PARTS = re.compile(r"\b(WHEN|TARGET|EFFECT|RESTRICTIONS):", re.IGNORECASE)
_INCHES = re.compile(r'^\s*(\d{1,3})\s*(?:"|”|in)?\s*$')
_PLUS = re.compile(r"^\s*(\d{1,2})\s*\+?\s*$")
_COUNT_NAME = re.compile(r"^\s*(\d{1,2})\s+(.+?)\s*$")


@dataclass(frozen=True, slots=True)
class Row:
    """One data row: the file it came from, its number (1 = first after the header) and its
    values by column."""

    file: str
    number: int
    values: Mapping[str, str]

    def fail(self, column: str, reason: str) -> DataFileError:
        """The one-line error for a bad value in this row."""
        return DataFileError(f"{self.file}, row {self.number}, column {column}: {reason}", file=self.file)

    def get(self, column: str) -> str:
        return self.values.get(column, "").strip()

    def need(self, column: str) -> str:
        value = self.get(column)
        if not value:
            raise self.fail(column, "must not be empty")
        return value

    def integer(self, column: str, lo: int, hi: int) -> int:
        text = self.get(column)
        if not re.fullmatch(r"[+-]?\d{1,4}", text) or not lo <= int(text) <= hi:
            raise self.fail(column, f"expected an integer from {lo} to {hi}, got {quote(text)}")
        return int(text)

    def plus(self, column: str, lo: int, hi: int) -> int:
        text = self.get(column)
        m = _PLUS.match(text)
        if m is None or not lo <= int(m[1]) <= hi:
            raise self.fail(column, f"expected {lo}+ to {hi}+, got {quote(text)}")
        return int(m[1])


TABLE_LIMITS = Limits(max_bytes=64_000_000)
"""Wahapedia's exports are larger than any hand-written data file: up to 64 MB each."""


def read_table(path: Path, *, required: Sequence[str] = ()) -> list[Row]:
    """The rows of one Wahapedia file (pipe-separated, UTF-8 with or without a BOM, trailing ``|``
    allowed). A missing column or a row with the wrong number of fields is a one-line error.

    >>> rows = read_table(Path("tests/wh40k/wahapedia/Datasheets.csv"))
    >>> rows[0].values["name"], rows[0].number
    ('Rot Beast', 1)
    """
    name = path.name
    if not path.exists():
        raise DataFileError(f"{name}: missing from {path.parent}", file=name)
    text = read_text(path, limits=TABLE_LIMITS)  # the one loader: size before reading, UTF-8
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise DataFileError(f"{name}: empty file, expected a header row", file=name)
    parsed = list(csv.reader(lines, delimiter="|", quoting=csv.QUOTE_NONE))
    header = [h.strip() for h in parsed[0]]
    trailing = bool(header) and header[-1] == ""
    if trailing:
        header = header[:-1]
    for column in required:
        if column not in header:
            raise DataFileError(f"{name}, header: missing column {quote(column)}", file=name)
    rows = []
    for number, fields in enumerate(parsed[1:], 1):
        if trailing and fields and fields[-1] == "":
            fields = fields[:-1]
        if len(fields) != len(header):
            raise DataFileError(
                f"{name}, row {number}: expected {len(header)} fields separated by '|', got {len(fields)}",
                file=name,
            )
        rows.append(Row(name, number, MappingProxyType(dict(zip(header, fields, strict=True)))))
    return rows


def slug(text: str) -> str:
    """A key from a name: lower-case words joined by ``-``.

    >>> slug("Nurgle’s Gift (Aura)"), slug("Foul Vigour")
    ('nurgles-gift-aura', 'foul-vigour')
    """
    plain = text.lower().replace("’", "").replace("'", "")
    return "-".join(re.findall(r"[a-z0-9]+", plain))


def _plain(text: str) -> str:
    """HTML of a Wahapedia text cell as plain words."""
    return " ".join(html.unescape(_TAG.sub(" ", text)).split())


# -- datasheets -------------------------------------------------------------------------------


def _weapon_words(row: Row) -> tuple[str, ...]:
    words = []
    for raw in _plain(row.get("description")).split(","):
        word = raw.strip().lower()
        if not word:
            continue
        word = re.sub(r"(\d)\+$", r"\1", word)  # anti-infantry 4+ -> anti-infantry 4
        words.append("-".join(word.split()))
    return tuple(words)


def _weapon(row: Row) -> tuple[str, Weapon, int | None]:
    kind = row.need("type").lower()
    if kind not in ("ranged", "melee"):
        raise row.fail("type", f"expected Ranged or Melee, got {quote(row.get('type'))}")
    ranged = kind == "ranged"
    rng: int | None = None
    if ranged:
        m = _INCHES.match(row.get("range"))
        if m is None:
            raise row.fail("range", f'expected inches such as 18", got {quote(row.get("range"))}')
        rng = int(m[1])
    values: dict[str, Any] = {
        "attacks": row.need("A"),
        "skill": row.plus("BS_WS", 2, 6),
        "strength": row.need("S"),
        "ap": row.get("AP") or "0",
        "damage": row.need("D"),
        "abilities": _weapon_words(row),
        "ranged": ranged,
    }
    columns = {
        "attacks": "A",
        "skill": "BS_WS",
        "strength": "S",
        "ap": "AP",
        "damage": "D",
        "abilities": "description",
    }
    try:
        weapon = make_weapon(values, name=row.need("name"))
    except InputError as exc:
        raise row.fail(columns.get(exc.field, exc.field), exc.message) from None
    return slug(weapon.name), weapon, rng


def _characteristics(rows: Sequence[Row]) -> tuple[Characteristics, int | None]:
    def one(row: Row) -> tuple[Characteristics, int | None]:
        move = _INCHES.match(row.get("M"))
        if move is None:
            raise row.fail("M", f'expected inches such as 5", got {quote(row.get("M"))}')
        inv = row.get("inv_sv")
        invuln = None if inv in ("", "-") else row.plus("inv_sv", 2, 6)
        ch = Characteristics(
            move=int(move[1]),
            toughness=row.integer("T", 1, 20),
            save=row.plus("Sv", 2, 7),
            wounds=row.integer("W", 1, 40),
            leadership=row.plus("Ld", 2, 12),
            objective_control=row.integer("OC", 0, 20),
        )
        return ch, invuln

    first = one(rows[0])
    for row in rows[1:]:
        if one(row) != first:
            raise row.fail(
                "line",
                "a second model line with other characteristics; one profile per datasheet is supported",
            )
    return first


_CORE_NAMES = {
    "deadly demise": "deadly-demise",
    "feel no pain": "feel-no-pain",
    "scouts": "scouts",
    "stealth": "stealth",
    "deep strike": "deep-strike",
    "lone operative": "lone-operative",
    "infiltrators": "infiltrators",
    "fights first": "fights-first",
    "leader": "leader",
}


def _core_word(row: Row, name: str) -> str:
    base = _CORE_NAMES.get(name.lower().strip())
    if base is None:
        raise row.fail("name", f"unknown core ability {quote(name)}; known: {', '.join(sorted(_CORE_NAMES))}")
    parameter = row.get("parameter").lower().rstrip('+"')
    if base in ("deadly-demise", "feel-no-pain", "scouts"):
        if not parameter:
            raise row.fail("parameter", f"{name} needs its value (D6, 5+ …)")
        return f"{base}-{parameter}"
    return base


def _abilities(
    rows: Sequence[Row], shared: Mapping[str, Row], prefix: str, out: dict[str, Ability]
) -> tuple[tuple[str, ...], tuple[str, ...], int | None]:
    named: list[str] = []
    core: list[str] = []
    fnp = None
    for row in rows:
        kind = row.need("type").lower()
        ref = shared.get(row.get("ability_id"))
        name = row.get("name") or (ref.get("name") if ref else "")
        text = _plain(row.get("description") or (ref.get("description") if ref else ""))
        if not name:
            raise row.fail("name", "empty, and ability_id names no row of Abilities.csv")
        if kind == "core":
            word = _core_word(row, name)
            core.append(word)
            if word.startswith("feel-no-pain-"):
                fnp = int(word.rsplit("-", 1)[1])
            continue
        if kind not in ("faction", "datasheet"):
            raise row.fail("type", f"expected Core, Faction or Datasheet, got {quote(row.get('type'))}")
        if not text:
            raise row.fail("description", f"no text for {quote(name)}")
        key = slug(re.sub(r"\(aura\)", "", name, flags=re.IGNORECASE))
        out.setdefault(
            key,
            Ability(
                key=key,
                id=f"{prefix}.ability.{key}",
                name=name,
                text=text,
                section=name,
                kind=kind,  # type: ignore[arg-type]
                aura="(aura)" in name.lower(),
            ),
        )
        named.append(key)
    return tuple(named), tuple(core), fnp


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


def _stratagem(row: Row, prefix: str) -> Stratagem:
    name = row.need("name")
    kind = row.need("type")
    category = next((c for c in _CATEGORIES if c.lower() in kind.lower()), None)
    if category is None:
        raise row.fail("type", f"expected a type naming one of {', '.join(_CATEGORIES)}, got {quote(kind)}")
    parts: dict[str, str] = {}
    pieces = _PARTS.split(_plain(row.need("description")))
    for label, body in zip(pieces[1::2], pieces[2::2], strict=True):
        parts[label.upper()] = body.strip()
    for label in ("WHEN", "TARGET", "EFFECT"):
        if not parts.get(label):
            raise row.fail("description", f"no {label}: part")
    detachment = row.get("detachment")
    key = slug(name)
    return Stratagem(
        key=key,
        id=f"{prefix}.stratagem.{key}",
        name=name,
        cp=row.integer("cp_cost", 0, 5),
        source=slug(detachment) if detachment else "core",  # type: ignore[arg-type]
        category=category,
        when=parts["WHEN"],
        phases=_phases(row),
        target=parts["TARGET"],
        text=parts["EFFECT"],
        section=name,
        restrictions=parts.get("RESTRICTIONS", ""),
    )


# -- the faction ------------------------------------------------------------------------------


def _optional(folder: Path, name: str) -> list[Row]:
    path = folder / name
    return read_table(path, required=COLUMNS[name]) if path.exists() else []


def import_wahapedia(
    folder: Path, faction_id: str, *, key: str | None = None, name: str | None = None
) -> Faction:
    """The datasheets and stratagems of one faction (``faction_id`` as in the files, e.g. ``DG``)
    of a Wahapedia export folder, as a :class:`~.faction.Faction`.

    ``key`` (default: the faction ID in lower case) makes the rule IDs
    ``wh40k.<key>.datasheet.<name>``; ``name`` defaults to the key. Rows of other factions are
    skipped; rows that refer to a datasheet that is not there are errors.
    """
    tables = {f: read_table(folder / f, required=COLUMNS[f]) for f in REQUIRED_FILES}
    fkey = key or slug(faction_id)
    prefix = f"wh40k.{fkey}"
    sheets = [r for r in tables["Datasheets.csv"] if r.get("faction_id") == faction_id]
    if not sheets:
        raise DataFileError(
            f"Datasheets.csv: no row has faction_id {quote(faction_id)}", file="Datasheets.csv"
        )
    ids = {r.need("id"): r for r in sheets}

    def by_sheet(rows: Sequence[Row], all_ids: set[str] | None = None) -> dict[str, list[Row]]:
        out: dict[str, list[Row]] = {}
        for r in rows:
            sid = r.need("datasheet_id")
            if sid in ids:
                out.setdefault(sid, []).append(r)
            elif all_ids is not None and sid not in all_ids:
                raise r.fail("datasheet_id", f"no datasheet with id {quote(sid)} in Datasheets.csv")
        return out

    every_id = {r.get("id") for r in tables["Datasheets.csv"]}
    models = by_sheet(tables["Datasheets_models.csv"], every_id)
    wargear = by_sheet(tables["Datasheets_wargear.csv"], every_id)
    ability_rows = by_sheet(tables["Datasheets_abilities.csv"], every_id)
    keywords = by_sheet(_optional(folder, "Datasheets_keywords.csv"), every_id)
    composition = by_sheet(_optional(folder, "Datasheets_unit_composition.csv"), every_id)
    costs = by_sheet(_optional(folder, "Datasheets_models_cost.csv"), every_id)
    shared = {r.need("id"): r for r in _optional(folder, "Abilities.csv")}

    abilities: dict[str, Ability] = {}
    datasheets: dict[str, Datasheet] = {}
    for sid, row in ids.items():
        sheet_name = row.need("name")
        skey = slug(sheet_name)
        if skey in datasheets:
            raise row.fail("name", f"a second datasheet called {quote(sheet_name)}")
        if sid not in models:
            raise row.fail("id", "no row of Datasheets_models.csv gives its characteristics")
        characteristics, invuln = _characteristics(models[sid])
        weapons: dict[str, Weapon] = {}
        ranges: dict[str, int | None] = {}
        for wrow in wargear.get(sid, []):
            wkey, weapon, rng = _weapon(wrow)
            if wkey in weapons:
                raise wrow.fail("name", f"a second weapon called {quote(weapon.name)} on this datasheet")
            weapons[wkey], ranges[wkey] = weapon, rng
        named, core, fnp = _abilities(ability_rows.get(sid, []), shared, prefix, abilities)
        kws = tuple(
            k.need("keyword") for k in keywords.get(sid, []) if k.get("is_faction_keyword").lower() != "true"
        )
        fkws = tuple(
            k.need("keyword") for k in keywords.get(sid, []) if k.get("is_faction_keyword").lower() == "true"
        )
        units = []
        for crow in composition.get(sid, []):
            m = _COUNT_NAME.match(_plain(crow.get("description")))
            if m is None:
                raise crow.fail(
                    "description",
                    f"expected a count and a name such as '1 Mortarion', got {quote(crow.get('description'))}",
                )
            units.append((int(m[1]), m[2]))
        points = []
        for prow in costs.get(sid, []):
            m = _COUNT_NAME.match(_plain(prow.get("description")))
            if m is None:
                raise prow.fail(
                    "description",
                    f"expected a count of models such as '1 model', got {quote(prow.get('description'))}",
                )
            points.append((int(m[1]), prow.integer("cost", 0, 5000)))
        datasheets[skey] = Datasheet(
            key=skey,
            id=f"{prefix}.datasheet.{skey}",
            name=sheet_name,
            section=sheet_name,
            characteristics=characteristics,
            characteristics_source=f"Wahapedia export, Datasheets_models.csv, datasheet {sid}",
            invulnerable=invuln,
            weapons=MappingProxyType(weapons),
            weapon_ranges=MappingProxyType(ranges),
            exclusive=(),
            abilities=named,
            core_abilities=core,
            feel_no_pain=fnp,
            keywords=kws,
            faction_keywords=fkws,
            composition=tuple(units),
            points=tuple(points),
        )

    stratagems: dict[str, Stratagem] = {}
    for srow in tables["Stratagems.csv"]:
        if srow.get("faction_id") not in (faction_id, ""):
            continue
        strat = _stratagem(srow, prefix)
        if strat.key in stratagems:
            raise srow.fail("name", f"a second stratagem called {quote(strat.name)}")
        stratagems[strat.key] = strat
    return Faction(
        key=fkey,
        name=name or fkey,
        keyword=fkey.upper(),
        file=str(folder),
        datasheets=MappingProxyType(datasheets),
        abilities=MappingProxyType(abilities),
        stratagems=MappingProxyType(stratagems),
        detachments=MappingProxyType({}),
        contagion_range=(0,),
        contagion_source="not in the Wahapedia export",
    )
