"""Import Wahapedia's CSV export into the typed faction data of :mod:`.faction`.

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
:func:`~.weapons.make_weapon`, a Save through the ``X+`` rule); numbers are ASCII digits only.
Anything malformed — a value, a row with the wrong number of fields, a field of more than
:data:`MAX_FIELD` characters — raises one :class:`~rulesbook.data.DataFileError` line naming the
file, the row (1 = the first record after the header) and the column.

What the export holds beyond the engine is kept, not refused, and said once in
:attr:`~.faction.Faction.warnings`: weapon keywords the core rules do not have (one line listing
them) and rules whose text the effects language cannot say (kept as text only, register entry
``imported-text-only``). A Torrent weapon's ``N/A`` Ballistic Skill is read as no skill (register
entry ``torrent-no-skill``). Rules whose effects *can* be said are recognised from their text
(:mod:`.effect_text`).

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

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rulesbook.data import DataFileError, Limits, read_text
from rulesbook.errors import InputError, quote
from rulesbook.systems.wh40k.effect_text import recognise
from rulesbook.systems.wh40k.faction import (
    NO_SKILL,
    Ability,
    Characteristics,
    Datasheet,
    Detachment,
    Effect,
    Enhancement,
    Faction,
    ModelProfile,
    Stratagem,
)
from rulesbook.systems.wh40k.weapons import ABILITY_WORDS, Weapon, make_weapon

__all__ = [
    "COLUMNS",
    "MAX_FIELD",
    "REQUIRED_FILES",
    "TEXT_ONLY",
    "Row",
    "import_wahapedia",
    "read_table",
    "slug",
]

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
        "Detachments.csv": ("id", "faction_id", "name"),
        "Detachment_abilities.csv": ("id", "faction_id", "name", "description", "detachment"),
        "Enhancements.csv": ("faction_id", "id", "name", "cost", "detachment", "description"),
        "Datasheets_leader.csv": ("leader_id", "attached_id"),
    }
)
"""The columns each file must have (others, such as ``legend`` or ``link``, are read and not
kept); the names are the export's own."""

REQUIRED_FILES = (
    "Datasheets.csv",
    "Datasheets_models.csv",
    "Datasheets_wargear.csv",
    "Datasheets_abilities.csv",
    "Stratagems.csv",
)

MAX_FIELD = 131_072
"""The longest field accepted, in characters (the limit Python's ``csv`` module has by default;
the export's longest texts are a few thousand)."""

TEXT_ONLY = "wh40k.interpretations.imported-text-only"
"""The register entry of an imported rule whose effects the effects language cannot say."""

_CATEGORIES = ("Battle Tactic", "Strategic Ploy", "Epic Deed", "Wargear")
_PHASE_WORDS = {"command": "command", "movement": "movement", "shooting": "shooting", "charge": "charge"}
_TAG = re.compile(r"<[^>]+>")
_PARTS = re.compile(r"\b(WHEN|TARGET|EFFECT|RESTRICTIONS):", re.IGNORECASE)
_INCHES = re.compile(r'^\s*([0-9]{1,3})\s*\+?\s*(?:"|”|″|in)?\s*$', re.ASCII)
_PLUS = re.compile(r"^\s*([0-9]{1,2})\s*\+?\s*$", re.ASCII)
_INT = re.compile(r"[+-]?[0-9]{1,4}", re.ASCII)
_COUNT_NAME = re.compile(r"^\s*([0-9]{1,2})(?:\s*[-–]\s*([0-9]{1,2}))?\s+(.+?)\s*$", re.ASCII)
_NONE = ("", "-", "—", "–")
_DAMAGED_LEAD = re.compile(
    r"^while this model has [0-9]+\s*[-–]\s*[0-9]+ wounds (?:remaining|left),\s*", re.I | re.ASCII
)
TABLE_LIMITS = Limits(max_bytes=64_000_000)
"""Wahapedia's exports are larger than any hand-written data file: up to 64 MB each."""


@dataclass(frozen=True, slots=True)
class Row:
    """One record: the file it came from, its number (1 = first after the header) and its
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
        if not _INT.fullmatch(text) or not lo <= int(text) <= hi:
            raise self.fail(column, f"expected an integer from {lo} to {hi}, got {quote(text)}")
        return int(text)

    def plus(self, column: str, lo: int, hi: int) -> int:
        text = self.get(column)
        m = _PLUS.match(text)
        if m is None or not lo <= int(m[1]) <= hi:
            raise self.fail(column, f"expected {lo}+ to {hi}+, got {quote(text)}")
        return int(m[1])


def _records(text: str, name: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header and the records of a file. A record may span physical lines (a text field
    with newlines: nothing is quoted in the export) and ends when it holds the header's number
    of fields; a record that lacks only the trailing ``|`` ends where the next line would
    overflow it. A row with too few or too many fields is a one-line error."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise DataFileError(f"{name}: empty file, expected a header row", file=name)
    raw_header = lines[first].split("|")
    trailing = len(raw_header) > 1 and raw_header[-1].strip() == ""
    header = [h.strip() for h in (raw_header[:-1] if trailing else raw_header)]
    width = len(raw_header)
    records: list[tuple[int, list[str]]] = []

    def wrong(pieces: list[str], ends_with_bar: bool, ending: str = "") -> DataFileError:
        got = len(pieces) - (1 if trailing and ends_with_bar else 0)
        return DataFileError(
            f"{name}, row {len(records) + 1}: expected {len(header)} fields separated by '|', got {got}{ending}",
            file=name,
        )

    def close(pieces: list[str]) -> None:
        fields = pieces[:-1] if trailing and len(pieces) == width else pieces
        records.append((len(records) + 1, fields))

    buffer: str | None = None
    for line in lines[first + 1 :]:
        if buffer is None:
            if not line.strip():
                continue
            candidate = line
        else:
            candidate = f"{buffer}\n{line}"
        pieces = candidate.split("|")
        if len(pieces) < width:
            buffer = candidate
            continue
        if len(pieces) == width:
            close(pieces)
            buffer = None
            continue
        if buffer is None:  # one line with too many fields
            raise wrong(pieces, line.rstrip().endswith("|"))
        held = buffer.split("|")
        if trailing and len(held) == width - 1 and not buffer.rstrip().endswith("|"):
            close(held)  # a record without its trailing '|': the line starts the next one
            pieces = line.split("|")
            if len(pieces) > width:
                raise wrong(pieces, line.rstrip().endswith("|"))
            if len(pieces) == width:
                close(pieces)
                buffer = None
            else:
                buffer = line if line.strip() else None
            continue
        raise wrong(held, buffer.rstrip().endswith("|"))
    if buffer is not None:
        held = buffer.split("|")
        if trailing and len(held) == width - 1 and not buffer.rstrip().endswith("|"):
            close(held)
        else:
            raise wrong(held, buffer.rstrip().endswith("|"), " (the file ends inside the row)")
    return header, records


def read_table(path: Path, *, required: Sequence[str] = ()) -> list[Row]:
    """The rows of one Wahapedia file (pipe-separated, UTF-8 with or without a BOM, trailing
    ``|`` allowed, text fields over several lines). A missing column, a row with the wrong
    number of fields or a field longer than :data:`MAX_FIELD` is a one-line error.

    >>> rows = read_table(Path("tests/wh40k/wahapedia/Datasheets.csv"))
    >>> rows[0].values["name"], rows[0].number
    ('Rot Beast', 1)
    """
    name = path.name
    if not path.exists():
        raise DataFileError(f"{name}: missing from {path.parent}", file=name)
    text = read_text(path, limits=TABLE_LIMITS)  # the one loader: size before reading, UTF-8
    header, records = _records(text, name)
    for column in required:
        if column not in header:
            raise DataFileError(f"{name}, header: missing column {quote(column)}", file=name)
    rows = []
    for number, fields in records:
        for column, value in zip(header, fields, strict=True):
            if len(value) > MAX_FIELD:
                raise DataFileError(
                    f"{name}, row {number}, column {column}: {len(value):,} characters, at most {MAX_FIELD:,}",
                    file=name,
                )
        rows.append(Row(name, number, MappingProxyType(dict(zip(header, fields, strict=True)))))
    return rows


def slug(text: str) -> str:
    """A key from a name: lower-case ASCII words joined by ``-``.

    >>> slug("Nurgle’s Gift (Aura)"), slug("Foul Vigour")
    ('nurgles-gift-aura', 'foul-vigour')
    """
    plain = text.lower().replace("’", "").replace("'", "")
    return "-".join(re.findall(r"[a-z0-9]+", plain, re.ASCII))


def _plain(text: str) -> str:
    """HTML of a Wahapedia text cell as plain words."""
    return " ".join(html.unescape(_TAG.sub(" ", text)).split())


def _singular(key: str) -> str:
    """A key with its last word singular (``intercessors`` → ``intercessor``), to match names."""
    head, _, last = key.rpartition("-")
    if last.endswith("ies") and len(last) > 4:
        last = last[:-3] + "y"
    elif last.endswith("es") and last[:-2].endswith(("sh", "ch", "x", "ss")):
        last = last[:-2]
    elif last.endswith("s") and not last.endswith("ss") and len(last) > 3:
        last = last[:-1]
    return f"{head}-{last}" if head else last


@dataclass
class _Notes:
    """What the import keeps but says once: unknown weapon keywords, text-only rules, others."""

    unknown_words: dict[str, list[str]] = field(default_factory=dict)
    text_only: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)

    def lines(self) -> tuple[str, ...]:
        out = []
        if self.unknown_words:
            listed = "; ".join(
                f"{quote(w)} ({', '.join(where)})" for w, where in sorted(self.unknown_words.items())
            )
            out.append(
                f"weapon keywords the core rules do not have, kept out of the weapons (they change no "
                f"number here): {listed}"
            )
        if self.text_only:
            out.append(
                f"{len(self.text_only)} rules kept as text only (the effects language cannot say them; "
                f"register entry imported-text-only): {', '.join(self.text_only)}"
            )
        return (*out, *self.other)


def _effects(text: str, phases: tuple[str, ...], name: str, notes: _Notes) -> tuple[Effect, ...]:
    found = recognise(text, phases=phases)
    if found:
        return found
    notes.text_only.append(name)
    return (Effect(kind="none", register=TEXT_ONLY, note="kept as text only"),)


# -- datasheets -------------------------------------------------------------------------------

_KNOWN_WORDS = re.compile("|".join(f"(?:{p})" for p, _ in ABILITY_WORDS))


def _weapon_words(row: Row, sheet: str, notes: _Notes) -> tuple[str, ...]:
    words = []
    for raw in _plain(row.get("description")).split(","):
        word = raw.strip().strip("[]").strip().lower()
        if not word:
            continue
        word = re.sub(r"([0-9])\+$", r"\1", word)  # anti-infantry 4+ -> anti-infantry 4
        word = "-".join(word.split())
        if _KNOWN_WORDS.fullmatch(word) is None:
            notes.unknown_words.setdefault(word, []).append(f"{sheet}: {row.get('name')}")
            continue
        words.append(word)
    return tuple(dict.fromkeys(words))


def _weapon(row: Row, sheet: str, notes: _Notes) -> tuple[str, Weapon, int | None]:
    rng_text = row.get("range")
    kind = row.get("type").lower() or ("melee" if rng_text.lower() == "melee" else "ranged")
    if kind not in ("ranged", "melee"):
        raise row.fail("type", f"expected Ranged or Melee, got {quote(row.get('type'))}")
    ranged = kind == "ranged"
    rng: int | None = None
    if ranged:
        m = _INCHES.match(rng_text)
        if m is None:
            raise row.fail("range", f'expected inches such as 18", got {quote(rng_text)}')
        rng = int(m[1])
    words = _weapon_words(row, sheet, notes)
    skill_text = row.get("BS_WS")
    no_skill = skill_text.upper() in ("N/A", "NA")
    if no_skill and "torrent" not in words:
        raise row.fail("BS_WS", "N/A only for a Torrent weapon (it never rolls to hit)")
    values: dict[str, Any] = {
        "attacks": row.need("A"),
        "skill": 6 if no_skill else row.plus("BS_WS", 2, 6),
        "strength": row.need("S"),
        "ap": row.get("AP") or "0",
        "damage": row.need("D"),
        "abilities": words,
        "ranged": ranged,
    }
    for column in ("A", "S", "AP", "D"):
        if not row.get(column).isascii():
            raise row.fail(column, f"expected ASCII digits, got {quote(row.get(column))}")
    columns = {
        "attacks": "A",
        "skill": "BS_WS",
        "strength": "S",
        "ap": "AP",
        "damage": "D",
        "abilities": "description",
    }
    try:
        weapon = make_weapon(values, name=_plain(row.need("name")))
    except InputError as exc:
        raise row.fail(columns.get(exc.field, exc.field), exc.message) from None
    if no_skill:
        weapon = replace(weapon, skill=NO_SKILL)
    return slug(weapon.name), weapon, rng


def _characteristics(row: Row) -> tuple[Characteristics, int | None]:
    move_text = row.get("M")
    if move_text in _NONE:
        move = 0
    else:
        m = _INCHES.match(move_text)
        if m is None:
            raise row.fail("M", f'expected inches such as 5", got {quote(move_text)}')
        move = int(m[1])
    inv = row.get("inv_sv")
    invuln = None if inv in _NONE else row.plus("inv_sv", 2, 6)
    oc = 0 if row.get("OC") in _NONE else row.integer("OC", 0, 20)
    ch = Characteristics(
        move=move,
        toughness=row.integer("T", 1, 30),
        save=row.plus("Sv", 2, 7),
        wounds=row.integer("W", 1, 100),
        leadership=row.plus("Ld", 2, 12),
        objective_control=oc,
    )
    return ch, invuln


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
    "firing deck": "firing-deck",
    "hover": "hover",
}


def _core_word(row: Row, name: str) -> str:
    plain = name.lower().strip()
    base = _CORE_NAMES.get(plain)
    parameter = row.get("parameter").lower().replace('"', "").replace("”", "").replace("+", "").strip()
    if base is None:  # "Deadly Demise D3" with the value in the name
        for known, word in _CORE_NAMES.items():
            if plain.startswith(known + " "):
                base, parameter = word, plain.removeprefix(known).strip().rstrip('+"').replace(" ", "")
                break
    if base is None:
        raise row.fail("name", f"unknown core ability {quote(name)}; known: {', '.join(sorted(_CORE_NAMES))}")
    if base in ("deadly-demise", "feel-no-pain", "scouts", "firing-deck"):
        if not parameter or not parameter.isascii():
            raise row.fail(
                "parameter", f"{name} needs its value (D6, 5+ …), got {quote(row.get('parameter'))}"
            )
        if base == "deadly-demise" and "+" in row.get("parameter"):
            parameter = row.get("parameter").lower().replace(" ", "")
        return f"{base}-{parameter}"
    return base


def _abilities(
    rows: Sequence[Row], shared: Mapping[str, Row], prefix: str, out: dict[str, Ability], notes: _Notes
) -> tuple[tuple[str, ...], tuple[str, ...], int | None, bool]:
    named: list[str] = []
    core: list[str] = []
    fnp = None
    stealth = False
    for row in rows:
        kind = row.need("type").lower()
        ref = shared.get(row.get("ability_id"))
        name = _plain(row.get("name") or (ref.get("name") if ref else ""))
        text = _plain(row.get("description") or (ref.get("description") if ref else ""))
        if not name:
            raise row.fail("name", "empty, and ability_id names no row of Abilities.csv")
        if kind == "core":
            word = _core_word(row, name)
            core.append(word)
            if word.startswith("feel-no-pain-"):
                fnp = int(word.rsplit("-", 1)[1])
            stealth = stealth or word == "stealth"
            continue
        if kind not in ("faction", "datasheet", "wargear"):
            notes.other.append(
                f"{row.file}, row {row.number}: ability type {quote(row.get('type'))} read as a datasheet ability"
            )
        if not text:
            raise row.fail("description", f"no text for {quote(name)}")
        key = slug(re.sub(r"\(aura\)", "", name, flags=re.IGNORECASE))
        if key not in out:
            out[key] = Ability(
                key=key,
                id=f"{prefix}.ability.{key}",
                name=name,
                text=text,
                section=name,
                kind="faction" if kind == "faction" else "datasheet",
                aura="(aura)" in name.lower(),
                effects=_effects(text, ("any",), name, notes)
                if "(aura)" not in name.lower()
                else _aura(name, notes),
            )
        named.append(key)
    return tuple(dict.fromkeys(named)), tuple(core), fnp, stealth


def _aura(name: str, notes: _Notes) -> tuple[Effect, ...]:
    """An aura reaches other units at a distance no calculator input gives: text only."""
    notes.text_only.append(name)
    return (Effect(kind="none", register=TEXT_ONLY, note="an aura on other units: kept as text only"),)


def _kinds(
    sid: str,
    sheet_name: str,
    model_rows: Sequence[Row],
    comp_rows: Sequence[Row],
) -> list[tuple[str, int, int, Characteristics, int | None]]:
    """(name, smallest count, largest count, characteristics, invulnerable) of each kind of
    model: the composition's lines matched by name with the model lines (one model line serves
    every kind)."""
    lines = [(r, *_characteristics(r)) for r in model_rows]
    kinds: list[tuple[str, int, int, Characteristics, int | None]] = []
    if not comp_rows:
        return [(_plain(r.need("name")), 1, 1, ch, inv) for r, ch, inv in lines]
    for crow in comp_rows:
        text = _plain(crow.get("description"))
        text = re.split(r"\s+[–—]\s+|\s+-\s+", text)[0]
        m = _COUNT_NAME.match(text)
        if m is None:
            raise crow.fail(
                "description",
                f"expected a count and a name such as '1 Mortarion' or '4-9 Intercessors', got {quote(crow.get('description'))}",
            )
        low, high = int(m[1]), int(m[2] or m[1])
        if high < low:
            raise crow.fail("description", f"expected a smaller count first, got {quote(text)}")
        name = m[3]
        if len(lines) == 1:
            _, ch, inv = lines[0]
        else:
            wanted = _singular(slug(name))
            match = [x for x in lines if _singular(slug(x[0].get("name"))) == wanted]
            if not match:
                match = [
                    x
                    for x in lines
                    if wanted in _singular(slug(x[0].get("name")))
                    or _singular(slug(x[0].get("name"))) in wanted
                ]
            if len(match) != 1 and len(comp_rows) == len(lines):
                match = [lines[comp_rows.index(crow)]]
            if len(match) != 1:
                raise crow.fail(
                    "description",
                    f"{quote(name)} matches no single line of Datasheets_models.csv for datasheet {sid} "
                    f"({', '.join(quote(x[0].get('name')) for x in lines)})",
                )
            _, ch, inv = match[0]
        kinds.append((name, low, high, ch, inv))
    return kinds


_LOADOUT = re.compile(
    r"(?P<who>every model|each model|this model|the (?P<the>.+?)|every (?P<every>.+?)|each (?P<each>.+?)|(?P<bare>[a-z][^:]*?)) "
    r"(?:is|are) equipped with:?\s*(?P<items>[^.]+)",
)


def _loadout(text: str, kinds: Sequence[str], weapons: Mapping[str, Weapon]) -> dict[str, list[str]]:
    """Which weapons each kind of model carries by default, from the datasheet's loadout
    ("Every model is equipped with: bolt pistol; bolt rifle.", "The Sergeant is equipped with:
    …"); a weapon with several profiles gives all of them. Kinds it does not name get nothing."""
    out: dict[str, list[str]] = {k: [] for k in kinds}
    plain = _plain(text).replace("’", "'").lower()
    bases: dict[str, list[str]] = {}
    for key, w in weapons.items():
        base = slug(re.split(r"\s+[–—-]\s+", w.name)[0])
        bases.setdefault(_singular(base), []).append(key)
        bases.setdefault(_singular(key), []).append(key)
    for m in _LOADOUT.finditer(plain):
        subject = m["the"] or m["every"] or m["each"] or m["bare"] or ""
        if m["who"] in ("every model", "each model", "this model") or not subject:
            targets = list(kinds)
        else:
            wanted = _singular(slug(subject))
            targets = [k for k in kinds if _singular(slug(k)) == wanted] or [
                k for k in kinds if wanted in _singular(slug(k)) or _singular(slug(k)) in wanted
            ]
        for item in re.split(r";|,| and ", m["items"]):
            words = re.sub(r"^(?:a|an|one|[0-9]+)\s+", "", item.strip())
            found = bases.get(_singular(slug(words)), [])
            for k in targets:
                out[k] += [w for w in dict.fromkeys(found) if w not in out[k]]
    return out


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


def _stratagem(row: Row, prefix: str, notes: _Notes) -> Stratagem:
    name = _plain(row.need("name"))
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
    detachment = _plain(row.get("detachment"))
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
        effects=_effects(parts["EFFECT"], phases, name, notes),
    )


# -- the faction ------------------------------------------------------------------------------


def _optional(folder: Path, name: str) -> list[Row]:
    path = folder / name
    return read_table(path, required=COLUMNS[name]) if path.exists() else []


def import_wahapedia(
    folder: Path, faction_id: str, *, key: str | None = None, name: str | None = None
) -> Faction:
    """The datasheets, stratagems, detachments, enhancements and leader pairings of one faction
    (``faction_id`` as in the files, e.g. ``DG``) of a Wahapedia export folder, as a
    :class:`~.faction.Faction`.

    ``key`` (default: the faction ID in lower case) makes the rule IDs
    ``wh40k.<key>.datasheet.<name>``; ``name`` defaults to the key. Rows of other factions are
    skipped; rows that refer to a datasheet that is not there are errors.
    """
    tables = {f: read_table(folder / f, required=COLUMNS[f]) for f in REQUIRED_FILES}
    fkey = key or slug(faction_id)
    prefix = f"wh40k.{fkey}"
    notes = _Notes()
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
    key_of: dict[str, str] = {}
    for sid, row in ids.items():
        sheet_name = _plain(row.need("name"))
        skey = slug(sheet_name)
        if skey in datasheets:
            raise row.fail("name", f"a second datasheet called {quote(sheet_name)}")
        key_of[sid] = skey
        if sid not in models:
            raise row.fail("id", "no row of Datasheets_models.csv gives its characteristics")
        weapons: dict[str, Weapon] = {}
        ranges: dict[str, int | None] = {}
        lines: dict[str, list[str]] = {}
        for wrow in wargear.get(sid, []):
            wkey, weapon, rng = _weapon(wrow, sheet_name, notes)
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
        exclusive = tuple(tuple(group) for group in lines.values() if len(group) > 1)
        named, core, fnp, stealth = _abilities(ability_rows.get(sid, []), shared, prefix, abilities, notes)
        damaged_w = row.get("damaged_w")
        damaged_text = _plain(row.get("damaged_description"))
        if damaged_w and damaged_text:
            dkey = f"{skey}-damaged"
            # the condition (so many wounds left) is the `damaged` input: the rest is the effect
            what = _DAMAGED_LEAD.sub("", damaged_text)
            effects = tuple(
                replace(e, condition="damaged") if e.kind != "none" else e
                for e in _effects(what, ("any",), f"{sheet_name}: Damaged", notes)
            )
            abilities[dkey] = Ability(
                key=dkey,
                id=f"{prefix}.ability.{dkey}",
                name=f"Damaged: {damaged_w} wounds remaining",
                text=damaged_text,
                section=sheet_name,
                kind="datasheet",
                effects=effects,
            )
            named = (*named, dkey)
        kws = tuple(
            dict.fromkeys(
                _plain(k.need("keyword"))
                for k in keywords.get(sid, [])
                if k.get("is_faction_keyword").lower() != "true"
            )
        )
        fkws = tuple(
            dict.fromkeys(
                _plain(k.need("keyword"))
                for k in keywords.get(sid, [])
                if k.get("is_faction_keyword").lower() == "true"
            )
        )
        kinds = _kinds(sid, sheet_name, models[sid], composition.get(sid, []))
        carried = _loadout(row.get("loadout"), [k[0] for k in kinds], weapons)
        profiles = tuple(
            ModelProfile(
                key=_singular(slug(kname)) or f"model-{i}",
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
        main = max(profiles, key=lambda p: p.count)
        points = []
        for prow in costs.get(sid, []):
            m = _COUNT_NAME.match(_plain(prow.get("description")))
            if m is None:
                raise prow.fail(
                    "description",
                    f"expected a count of models such as '1 model', got {quote(prow.get('description'))}",
                )
            points.append((int(m[1]), prow.integer("cost", 0, 5000)))
        if stealth:
            notes.other.append(
                f"{sheet_name}: Stealth (core) — a target with it takes −1 to ranged Hit rolls"
            )
        datasheets[skey] = Datasheet(
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
            keywords=kws,
            faction_keywords=fkws,
            composition=tuple((p.count, p.name) for p in profiles),
            points=tuple(points),
            profiles=profiles,
        )

    for lrow in _optional(folder, "Datasheets_leader.csv"):
        leader, led = lrow.need("leader_id"), lrow.need("attached_id")
        if leader in key_of and led in key_of:
            sheet = datasheets[key_of[leader]]
            datasheets[key_of[leader]] = replace(
                sheet, leads=tuple(dict.fromkeys((*sheet.leads, key_of[led])))
            )
        elif leader not in every_id or led not in every_id:
            bad = "leader_id" if leader not in every_id else "attached_id"
            raise lrow.fail(bad, f"no datasheet with id {quote(lrow.get(bad))} in Datasheets.csv")

    stratagems: dict[str, Stratagem] = {}
    for srow in tables["Stratagems.csv"]:
        if srow.get("faction_id") not in (faction_id, ""):
            continue
        strat = _stratagem(srow, prefix, notes)
        if strat.key in stratagems:
            raise srow.fail("name", f"a second stratagem called {quote(strat.name)}")
        stratagems[strat.key] = strat

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


def _detachments(
    folder: Path,
    faction_id: str,
    prefix: str,
    stratagems: Mapping[str, Stratagem],
    abilities: dict[str, Ability],
    notes: _Notes,
) -> tuple[dict[str, Detachment], dict[str, Enhancement]]:
    """The faction's detachments (from Detachments.csv, else from the names the other files
    give), each with its rule (Detachment_abilities.csv), stratagems and enhancements."""
    names: dict[str, str] = {}
    for row in _optional(folder, "Detachments.csv"):
        if row.get("faction_id") == faction_id:
            names[slug(_plain(row.need("name")))] = _plain(row.need("name"))
    rules: dict[str, list[str]] = {}
    texts: dict[str, list[str]] = {}
    for row in _optional(folder, "Detachment_abilities.csv"):
        if row.get("faction_id") != faction_id:
            continue
        det_name = _plain(row.need("detachment"))
        dkey = slug(det_name)
        names.setdefault(dkey, det_name)
        name = _plain(row.need("name"))
        text = _plain(row.need("description"))
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
            effects=_effects(text, ("any",), f"{det_name}: {name}", notes),
        )
        rules.setdefault(dkey, []).append(akey)
        texts.setdefault(dkey, []).append(f"{name}: {text}")
    enhancements: dict[str, Enhancement] = {}
    for row in _optional(folder, "Enhancements.csv"):
        if row.get("faction_id") != faction_id:
            continue
        det_name = _plain(row.need("detachment"))
        dkey = slug(det_name)
        names.setdefault(dkey, det_name)
        name = _plain(row.need("name"))
        ekey = slug(name)
        if ekey in enhancements:
            raise row.fail("name", f"a second enhancement called {quote(name)}")
        text = _plain(row.need("description"))
        enhancements[ekey] = Enhancement(
            key=ekey,
            id=f"{prefix}.enhancement.{ekey}",
            name=name,
            cost=row.integer("cost", 0, 500),
            detachment=dkey,
            text=text,
            section=name,
            effects=_effects(text, ("any",), name, notes),
        )
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
