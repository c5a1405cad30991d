"""Datasheets out of Wahapedia's export rows: weapons (every core keyword; Torrent's ``N/A``),
characteristics (ASCII digits), core and other abilities, the kinds of model of a unit and the
weapons its default loadout gives each kind, and the effects recognised in rule texts — the
pieces :func:`~rulesbook.systems.wh40k.wahapedia.importer.import_wahapedia` puts together.

What is kept but not taken over as it is (unknown weapon keywords, rules kept as text only) is
noted in :class:`Notes`, which becomes the faction's one-line warnings.

Example:
    >>> notes = Notes()
    >>> effects("Each time a model in this unit makes a melee attack, add 1 to the Hit roll.", ("fight",), "x", notes)[0].kind
    'hit-modifier'
    >>> effects("Enemy units nearby lose heart.", ("any",), "Dread", notes)[0].register, notes.text_only
    ('wh40k.interpretations.imported-text-only', ['Dread'])
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulesbook.errors import InputError, quote
from rulesbook.systems.wh40k.attack.weapons import Weapon, make_weapon, printed_abilities
from rulesbook.systems.wh40k.effects.effect import Effect
from rulesbook.systems.wh40k.effects.kinds import recognise
from rulesbook.systems.wh40k.faction.types import NO_SKILL, Ability, Characteristics
from rulesbook.systems.wh40k.wahapedia.files import Row, plain, singular, slug

__all__ = [
    "DAMAGED_LEAD",
    "TEXT_ONLY",
    "Notes",
    "abilities",
    "characteristics",
    "core_word",
    "effects",
    "kinds",
    "loadout",
    "weapon",
]

TEXT_ONLY = "wh40k.interpretations.imported-text-only"
"""The register entry of an imported rule whose effects the effects language cannot say."""

_INCHES = re.compile(r'^\s*([0-9]{1,3})\s*\+?\s*(?:"|”|″|in)?\s*$', re.ASCII)
_COUNT_NAME = re.compile(r"^\s*([0-9]{1,2})(?:\s*[-–]\s*([0-9]{1,2}))?\s+(.+?)\s*$", re.ASCII)
_NONE = ("", "-", "—", "–")
DAMAGED_LEAD = re.compile(
    r"^while this model has [0-9]+\s*[-–]\s*[0-9]+ wounds (?:remaining|left),\s*", re.I | re.ASCII
)
"""The opening of a Damaged line (the wounds left are the ``damaged`` input; the rest is the effect)."""


@dataclass
class Notes:
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


def effects(text: str, phases: tuple[str, ...], name: str, notes: Notes) -> tuple[Effect, ...]:
    found = recognise(text, phases=phases)
    if found:
        return found
    notes.text_only.append(name)
    return (Effect(kind="none", register=TEXT_ONLY, note="kept as text only"),)


# -- datasheets -------------------------------------------------------------------------------


def _weapon_words(row: Row, sheet: str, notes: Notes) -> tuple[str, ...]:
    words, unknown = printed_abilities(plain(row.get("description")))
    for word in unknown:
        notes.unknown_words.setdefault(word, []).append(f"{sheet}: {row.get('name')}")
    return words


def weapon(row: Row, sheet: str, notes: Notes) -> tuple[str, Weapon, int | None]:
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
        weapon = make_weapon(values, name=plain(row.need("name")))
    except InputError as exc:
        raise row.fail(columns.get(exc.field, exc.field), exc.message) from None
    if no_skill:
        weapon = replace(weapon, skill=NO_SKILL)
    return slug(weapon.name), weapon, rng


def characteristics(row: Row) -> tuple[Characteristics, int | None]:
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


def core_word(name: str, parameter: str = "") -> str | None:
    """The datasheet word of a core ability printed as ``name`` (its value in ``parameter`` or at
    the end of the name: ``Feel No Pain 5+``, ``Deadly Demise D3``, ``Scouts 6"``), or None when
    it is no core ability; one whose value is missing raises :class:`InputError` (``parameter``).
    The one reader of printed core abilities (the Wahapedia import and the roster import).

    >>> core_word("Feel No Pain 5+"), core_word("Deadly Demise", "D6+2"), core_word("Deep Strike"), core_word("Waaagh!")
    ('feel-no-pain-5', 'deadly-demise-d6+2', 'deep-strike', None)
    """
    plain = name.lower().strip()
    base = _CORE_NAMES.get(plain)
    value = parameter.lower().replace('"', "").replace("”", "").replace("+", "").strip()
    if base is None:  # "Deadly Demise D3" with the value in the name
        for known, word in _CORE_NAMES.items():
            if plain.startswith(known + " "):
                base, value = word, plain.removeprefix(known).strip().rstrip('+"”').replace(" ", "")
                break
    if base is None:
        return None
    if base in ("deadly-demise", "feel-no-pain", "scouts", "firing-deck"):
        if not value or not value.isascii():
            raise InputError("parameter", f"{name} needs its value (D6, 5+ …), got {quote(parameter)}")
        if base == "deadly-demise" and "+" in parameter:
            value = parameter.lower().replace(" ", "")
        return f"{base}-{value}"
    return base


def _core_word(row: Row, name: str) -> str:
    try:
        word = core_word(name, row.get("parameter"))
    except InputError as exc:
        raise row.fail("parameter", exc.message) from None
    if word is None:
        raise row.fail("name", f"unknown core ability {quote(name)}; known: {', '.join(sorted(_CORE_NAMES))}")
    return word


def abilities(
    rows: Sequence[Row], shared: Mapping[str, Row], prefix: str, out: dict[str, Ability], notes: Notes
) -> tuple[tuple[str, ...], tuple[str, ...], int | None, bool]:
    named: list[str] = []
    core: list[str] = []
    fnp = None
    stealth = False
    for row in rows:
        kind = row.need("type").lower()
        ref = shared.get(row.get("ability_id"))
        name = plain(row.get("name") or (ref.get("name") if ref else ""))
        text = plain(row.get("description") or (ref.get("description") if ref else ""))
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
                effects=effects(text, ("any",), name, notes)
                if "(aura)" not in name.lower()
                else _aura(name, notes),
            )
        named.append(key)
    return tuple(dict.fromkeys(named)), tuple(core), fnp, stealth


def _aura(name: str, notes: Notes) -> tuple[Effect, ...]:
    """An aura reaches other units at a distance no calculator input gives: text only."""
    notes.text_only.append(name)
    return (Effect(kind="none", register=TEXT_ONLY, note="an aura on other units: kept as text only"),)


def kinds(
    sid: str,
    sheet_name: str,
    model_rows: Sequence[Row],
    comp_rows: Sequence[Row],
) -> list[tuple[str, int, int, Characteristics, int | None]]:
    """(name, smallest count, largest count, characteristics, invulnerable) of each kind of
    model: the composition's lines matched by name with the model lines (one model line serves
    every kind)."""
    lines = [(r, *characteristics(r)) for r in model_rows]
    kinds: list[tuple[str, int, int, Characteristics, int | None]] = []
    if not comp_rows:
        return [(plain(r.need("name")), 1, 1, ch, inv) for r, ch, inv in lines]
    for crow in comp_rows:
        text = plain(crow.get("description"))
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
            wanted = singular(slug(name))
            match = [x for x in lines if singular(slug(x[0].get("name"))) == wanted]
            if not match:
                match = [
                    x
                    for x in lines
                    if wanted in singular(slug(x[0].get("name")))
                    or singular(slug(x[0].get("name"))) in wanted
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


def loadout(text: str, kinds: Sequence[str], weapons: Mapping[str, Weapon]) -> dict[str, list[str]]:
    """Which weapons each kind of model carries by default, from the datasheet's loadout
    ("Every model is equipped with: bolt pistol; bolt rifle.", "The Sergeant is equipped with:
    …"); a weapon with several profiles gives all of them. Kinds it does not name get nothing."""
    out: dict[str, list[str]] = {k: [] for k in kinds}
    said = plain(text).replace("’", "'").lower()
    bases: dict[str, list[str]] = {}
    for key, w in weapons.items():
        base = slug(re.split(r"\s+[–—-]\s+", w.name)[0])
        bases.setdefault(singular(base), []).append(key)
        bases.setdefault(singular(key), []).append(key)
    for m in _LOADOUT.finditer(said):
        subject = m["the"] or m["every"] or m["each"] or m["bare"] or ""
        if m["who"] in ("every model", "each model", "this model") or not subject:
            targets = list(kinds)
        else:
            wanted = singular(slug(subject))
            targets = [k for k in kinds if singular(slug(k)) == wanted] or [
                k for k in kinds if wanted in singular(slug(k)) or singular(slug(k)) in wanted
            ]
        for item in re.split(r";|,| and ", m["items"]):
            words = re.sub(r"^(?:a|an|one|[0-9]+)\s+", "", item.strip())
            found = bases.get(singular(slug(words)), [])
            for k in targets:
                out[k] += [w for w in dict.fromkeys(found) if w not in out[k]]
    return out
