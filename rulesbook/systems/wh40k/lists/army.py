"""An army list as a faction: a Warhammer 40,000 roster's units as datasheets the calculators take.

A BattleScribe or New Recruit roster (read by :mod:`rulesbook.rosters`) carries each unit's
profiles; :func:`roster_faction` turns them into the data of a faction file and reads that with
the one faction reader (:func:`~rulesbook.systems.wh40k.faction.reader.faction_from_data`), so a roster is checked exactly as a
faction file is. ``faction=army.rosz`` then works wherever a faction file does (:func:`army_at`).

What comes over, unit by unit (keys as faction files give them: ``intercessor-squad``, a second
unit of a name ``intercessor-squad-2``):

* **models** — each model selection with its number; its characteristics from the ``Unit``
  profile it carries (or the unit's, matched by name when the unit prints several); its
  invulnerable save from an ``Invulnerable Save`` ability (``4+``) or rule;
* **weapons** — every ``Ranged Weapons`` / ``Melee Weapons`` profile a model carries (its
  upgrades'); the profiles of one upgrade of the same type are one-at-a-time (``exclusive``:
  ``➤ Plasma gun - standard`` and ``- supercharge``); an upgrade taken by fewer models than
  the selection holds goes to the first of them, so models of one selection that differ become
  kinds of their own (a **mixed unit**: the kinds are its ``models``);
* **weapon keywords** — read by the one reader of printed keywords
  (:func:`~rulesbook.systems.wh40k.attack.weapons.printed_abilities`, the Wahapedia import's too); a word the engine does not
  know is kept out and listed (:attr:`~rulesbook.systems.wh40k.faction.types.Faction.warnings`), never dropped silently;
* **core abilities** — Feel No Pain, Deadly Demise, Stealth, Leader … by their printed names
  (:func:`~rulesbook.systems.wh40k.wahapedia.sheets.core_word`); **Leader** pairings from the Leader ability's list of
  units (every unit of the roster it names); other abilities as datasheet abilities, their
  effects recognised from the text where the effects language can say them, else text only
  (listed);
* **keywords** — the unit's categories (``Faction: X`` is a faction keyword); **points** — the
  unit's cost with everything in it.

A roster of another game system, or a unit without the profiles a datasheet needs, is refused in
one line naming the file and the unit; nothing is half-imported.

Example:
    >>> from rulesbook.rosters import read_roster
    >>> legion = roster_faction(read_roster("tests/rosters/data/rust-legion.rosz"))
    >>> squad = legion.datasheets["rustguard-squad"]
    >>> [(p.name, p.count, p.characteristics.wounds, p.weapons) for p in squad.profiles]
    [('Rustguard Sergeant', 1, 3, ('plasma-burner-standard', 'plasma-burner-supercharge', 'power-claw', 'bolt-pistol')), ('Rustguard', 4, 2, ('rust-rifle', 'close-combat-weapon'))]
    >>> squad.exclusive, legion.datasheets["rust-lord"].leads
    ((('plasma-burner-standard', 'plasma-burner-supercharge'),), ('rustguard-squad', 'rustguard-squad-2'))
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rulesbook.data import DataFileError
from rulesbook.errors import InputError, quote
from rulesbook.rosters import (
    Profile,
    Roster,
    RosterAdapter,
    RosterView,
    Selection,
    UnitView,
    looks_like_roster,
    read_roster,
    slug,
    unit_key,
)
from rulesbook.rosters.views import check_game, points_of, view_of
from rulesbook.systems.wh40k.attack.weapons import printed_abilities
from rulesbook.systems.wh40k.faction.file import REGISTER, effect_data, faction_at, read_once
from rulesbook.systems.wh40k.faction.reader import faction_from_data
from rulesbook.systems.wh40k.faction.types import NO_SKILL, Datasheet, Faction
from rulesbook.systems.wh40k.wahapedia.sheets import Notes, core_word, effects

__all__ = ["ADAPTER", "GAME_SYSTEM_ID", "accepts", "army_at", "roster_data", "roster_faction"]

GAME_SYSTEM_ID = "sys-352e-adc2-7639-d6a9"
"""The game system ID of Warhammer 40,000 10th edition in the BSData files (and its variants)."""
WANTED = "Warhammer 40,000 10th edition"
_NAME = re.compile(r"warhammer\s*40,?000|\b40k\b", re.IGNORECASE)
_TENTH = re.compile(r"\b10(?:th)?\b", re.IGNORECASE)
_NUMBER = re.compile(r"^\s*([0-9]{1,3})\s*(?:\+|\"|”|″|in)*\s*$", re.ASCII)
_SIGNED = re.compile(r"^\s*([+-]?[0-9]{1,2})\s*$", re.ASCII)
_INVULNERABLE = re.compile(r"([2-6])\s*\+", re.ASCII)
_WEAPON_TYPES = {"ranged weapons": True, "ranged weapon": True, "melee weapons": False, "melee weapon": False}
_WEAPON_RULES = frozenset(
    (
        "assault", "heavy", "rapid fire", "blast", "torrent", "pistol", "lethal hits", "sustained hits",
        "devastating wounds", "twin-linked", "anti", "precision", "hazardous", "ignores cover",
        "indirect fire", "melta", "lance", "extra attacks", "one shot", "psychic",
    )
)  # fmt: skip
"""Rules a roster lists beside a unit to explain its weapons' keywords (each weapon's own
keywords say them)."""
_RULE_VALUE = re.compile(r"(?:[\s-]+(?:x|d?[0-9]+\+?))?[\s-]*$")
"""The value or placeholder after a weapon keyword rule's name (``Anti-X``, ``Melta 2``)."""


def accepts(roster: Roster) -> bool:
    """Whether the roster is a Warhammer 40,000 10th edition one."""
    name = roster.game_system_name
    return roster.game_system_id == GAME_SYSTEM_ID or bool(_NAME.search(name) and _TENTH.search(name))


# -- one unit -------------------------------------------------------------------------------------


@dataclass
class _Unit:
    """What is gathered for one unit while its datasheet data is built."""

    roster: Roster
    sel: Selection
    key: str
    notes: Notes

    @property
    def name(self) -> str:
        return self.sel.name

    def fail(self, reason: str) -> DataFileError:
        return DataFileError(
            f"{self.roster.file}: unit {quote(self.name)}: {reason}", file=self.roster.file, kind="refused"
        )


def _description(p: Profile) -> str:
    text = p.get("Description")
    return text if text is not None else "; ".join(f"{k}: {v}" for k, v in p.characteristics)


def _is_unit_profile(p: Profile) -> bool:
    return p.type_name.strip().casefold() == "unit"


def _weapon_kind(p: Profile) -> bool | None:
    """True for a ranged weapon profile, False for a melee one, None for anything else."""
    return _WEAPON_TYPES.get(p.type_name.strip().casefold())


def _plain_name(name: str) -> str:
    return re.sub(r"^[➤>•\s]+", "", name).strip()


def _stat_profile(u: _Unit, model: Selection) -> Profile:
    own = [p for s in model.gear() for p in s.profiles if _is_unit_profile(p)]
    if own:
        return own[0]
    shared = (
        [p for s in u.sel.gear() for p in s.profiles if _is_unit_profile(p)] if u.sel is not model else []
    )
    if len(shared) == 1:
        return shared[0]
    wanted = slug(model.name)
    named = [p for p in shared if slug(p.name) in (wanted, wanted.rstrip("s"), f"{wanted}s")]
    if len(named) == 1:
        return named[0]
    if not shared:
        raise u.fail(
            f"no Unit profile (M, T, SV, W, LD, OC) for {quote(model.name)}; export the roster with its profiles"
        )
    names = ", ".join(quote(p.name) for p in shared)
    raise u.fail(f"several Unit profiles ({names}) and none named like its model {quote(model.name)}")


def _characteristics(p: Profile) -> dict[str, Any]:
    def number(name: str, dash: int | None = None) -> Any:
        text = (p.get(name) or "").strip()
        if text in ("-", "—", "–", "N/A") and dash is not None:
            return dash
        m = _NUMBER.match(text)
        return int(m[1]) if m else text

    def plus(name: str) -> Any:
        text = (p.get(name) or "").strip()
        return text if not text.isdigit() else f"{text}+"

    return {
        "M": number("M", 0),
        "T": number("T"),
        "Sv": plus("SV") if p.get("SV") is not None else plus("Sv"),
        "W": number("W"),
        "Ld": plus("LD") if p.get("LD") is not None else plus("Ld"),
        "OC": number("OC", 0),
    }


def _invulnerable(selections: Iterable[Selection]) -> str | None:
    for s in selections:
        for p in s.profiles:
            if "invulnerable" in p.name.casefold():
                m = _INVULNERABLE.search(_description(p)) or _INVULNERABLE.search(p.name)
                if m:
                    return f"{m[1]}+"
        for r in s.rules:
            if "invulnerable" in r.name.casefold():
                m = _INVULNERABLE.search(r.name) or _INVULNERABLE.search(r.description)
                if m:
                    return f"{m[1]}+"
    return None


def _weapon_data(u: _Unit, p: Profile, ranged: bool) -> dict[str, Any]:
    name = _plain_name(p.name)
    words, unknown = printed_abilities(p.get("Keywords") or p.get("Abilities") or "")
    for word in unknown:
        u.notes.unknown_words.setdefault(word, []).append(f"{u.name}: {name}")
    skill = (p.get("BS" if ranged else "WS") or "").strip()
    out: dict[str, Any] = {"name": name}
    if ranged:
        rng = (p.get("Range") or "").strip()
        m = _NUMBER.match(rng)
        out["range"] = int(m[1]) if m else rng
    strength = (p.get("S") or "").strip()
    ap = (p.get("AP") or "0").strip()
    out |= {
        "A": (p.get("A") or "").strip(),
        "BS" if ranged else "WS": skill.upper() if skill.upper() in ("N/A", "NA") else skill,
        "S": int(strength) if strength.isascii() and strength.isdigit() else strength,
        "AP": 0 if ap in ("-", "—", "–") else (int(m[1]) if (m := _SIGNED.match(ap)) else ap),
        "D": (p.get("D") or "").strip(),
    }
    if out["BS" if ranged else "WS"] == "NA":
        out["BS" if ranged else "WS"] = "N/A"
    if words:
        out["abilities"] = list(words)
    return out


def _spread(count: int, models: int) -> list[int]:
    """How many of an upgrade taken ``count`` times each of ``models`` models carries: as many
    each as divide evenly, one more for the first of them."""
    each, extra = divmod(count, models)
    return [each + (1 if i < extra else 0) for i in range(models)]


@dataclass
class _Weapons:
    """A unit's weapons: their data by key, their one-at-a-time groups."""

    data: dict[str, dict[str, Any]]
    exclusive: list[list[str]]

    def add(self, u: _Unit, holder: Selection) -> list[str]:
        """The keys of the weapon profiles ``holder`` carries (added to the unit's weapons)."""
        keys: dict[bool, list[str]] = {}
        for p in holder.profiles:
            ranged = _weapon_kind(p)
            if ranged is None:
                continue
            data = _weapon_data(u, p, ranged)
            base = slug(data["name"]) or "weapon"
            key, n = base, 1
            while key in self.data and self.data[key] != data:
                n += 1
                key = f"{base}-{n}"
            if n > 1 and key not in self.data:
                u.notes.other.append(
                    f"{u.name}: two different weapons called {quote(data['name'])}; the second is {key}"
                )
            self.data[key] = data
            keys.setdefault(ranged, []).append(key)
        for group in keys.values():
            if len(group) > 1 and group not in self.exclusive:
                self.exclusive.append(group)
        return [k for group in keys.values() for k in group]


def _kinds(u: _Unit, weapons: _Weapons) -> list[dict[str, Any]]:
    """The kinds of model of the unit, each with its count, characteristics, invulnerable save
    and the weapons each model of it carries."""
    models = [m for m in u.sel.models() if m.number > 0]
    if not models and u.sel.kind == "unit":
        models = [u.sel]  # a unit that lists no model: one model, carrying the unit's profiles
    if not models:
        raise u.fail("it has no models")
    shared_invuln = _invulnerable(u.sel.gear()) if u.sel.kind == "unit" else None
    loose = [
        s for s in u.sel.gear() if s is not u.sel and any(_weapon_kind(p) is not None for p in s.profiles)
    ]
    loose += (
        [u.sel] if u.sel not in models and any(_weapon_kind(p) is not None for p in u.sel.profiles) else []
    )
    if loose and u.sel.kind == "unit" and models[0] is not u.sel:
        u.notes.other.append(f"{u.name}: weapons listed for the unit, not a model, given to its first models")
    kinds: dict[tuple[Any, ...], dict[str, Any]] = {}
    for index, m in enumerate(models):
        n = max(m.number, 1)
        carried = [(holder, weapons.add(u, holder)) for holder in m.gear()]
        if index == 0 and m is not u.sel:
            carried += [(holder, weapons.add(u, holder)) for holder in loose]
        per_model: list[list[str]] = [[] for _ in range(n)]
        for holder, keys in carried:
            if not keys:
                continue
            copies = [1] * n if holder is m else _spread(holder.number, n)
            for i, c in enumerate(copies):
                per_model[i] += keys * c
        stats = _characteristics(_stat_profile(u, m))
        invuln = _invulnerable(m.gear()) or shared_invuln
        for loadout, count in Counter(tuple(w) for w in per_model).items():
            ident = (m.name, tuple(sorted(stats.items())), invuln, loadout)
            if ident in kinds:
                kinds[ident]["count"] += count
                kinds[ident]["most"] += count
                continue
            kinds[ident] = {
                "key": "",
                "name": m.custom_name or m.name,
                "count": count,
                "most": count,
                "characteristics": stats,
                **({"invulnerable": invuln} if invuln else {}),
                "weapons": list(loadout),
            }
    out = list(kinds.values())
    taken: set[str] = set()
    for kind in out:
        kind["key"] = unit_key(kind["name"], taken)
    return out


def _abilities(
    u: _Unit, prefix_key: str, abilities: dict[str, dict[str, Any]], units: Sequence[Selection]
) -> tuple[list[str], list[str], list[str]]:
    """The unit's core abilities, its other abilities (added to ``abilities``) and the names of
    the roster's units its Leader ability lists."""
    core: list[str] = []
    named: list[str] = []
    leads: list[str] = []
    seen: set[str] = set()
    texts: list[tuple[str, str]] = []
    holders = [s for m in (u.sel, *u.sel.models()) for s in m.gear()]
    for s in dict.fromkeys(holders):
        texts += [
            (p.name, _description(p))
            for p in s.profiles
            if _weapon_kind(p) is None and not _is_unit_profile(p)
        ]
        texts += [(r.name, r.description) for r in s.rules]
    for name, text in texts:
        folded = " ".join(name.split()).casefold()
        if folded in seen or "invulnerable" in folded:
            continue
        seen.add(folded)
        if folded == "leader":
            core.append("leader")
            leads += [
                o.name
                for o in units
                if o is not u.sel and re.search(rf"\b{re.escape(o.name)}\b", text, re.IGNORECASE)
            ]
            continue
        if _RULE_VALUE.sub("", folded) in _WEAPON_RULES:
            continue
        try:
            word = core_word(name, text if len(text) <= 8 else "")
        except InputError:  # a core ability printed without its value (Feel No Pain, not 5+)
            u.notes.other.append(f"{u.name}: {name} gives no value; left out")
            continue
        if word is not None:
            core.append(word)
            continue
        key = slug(name) or "ability"
        if key in abilities and abilities[key]["text"] != (text or name):
            key = f"{prefix_key}-{key}"
        if key not in abilities:
            abilities[key] = {
                "name": name,
                "kind": "datasheet",
                "section": u.name,
                "text": text or name,
                "effects": [
                    effect_data(e) for e in effects(text or name, ("any",), f"{u.name}: {name}", u.notes)
                ],
            }
        named.append(key)
    return list(dict.fromkeys(core)), list(dict.fromkeys(named)), leads


def _datasheet(
    u: _Unit, abilities: dict[str, dict[str, Any]], units: Sequence[Selection]
) -> tuple[dict[str, Any], list[str]]:
    weapons = _Weapons({}, [])
    kinds = _kinds(u, weapons)
    core, named, leads = _abilities(u, u.key, abilities, units)
    main = max(kinds, key=lambda k: k["count"])
    keywords: list[str] = []
    faction_keywords: list[str] = []
    for c in u.sel.categories:
        head, _, rest = c.name.partition(":")
        if head.strip().casefold() == "faction" and rest.strip():
            faction_keywords.append(rest.strip().upper())
        else:
            keywords.append(c.name.strip().upper())
    total = sum(k["count"] for k in kinds)
    points = points_of(u.sel.cost())
    if points is None:
        u.notes.other.append(f"{u.name}: its points are not a whole number; rounded down")
        points = int(u.sel.cost())
    data: dict[str, Any] = {
        "name": u.sel.custom_name or u.name,
        "section": u.name,
        "characteristics": main["characteristics"],
        **({"invulnerable": main["invulnerable"]} if "invulnerable" in main else {}),
        "characteristics_source": f"roster {u.roster.file} ({u.roster.format})",
        "weapons": weapons.data,
        **({"exclusive": weapons.exclusive} if weapons.exclusive else {}),
        "core_abilities": core,
        "abilities": named,
        "keywords": list(dict.fromkeys(keywords)),
        "faction_keywords": list(dict.fromkeys(faction_keywords)),
        "composition": [{"models": k["count"], "name": k["name"]} for k in kinds],
        "points": [{"models": total, "points": max(points, 0)}],
        "models": kinds,
    }
    return data, leads


def roster_data(roster: Roster) -> dict[str, Any]:
    """The roster as the data of a faction file (what :func:`roster_faction` reads)."""
    check_game(roster, ADAPTER, "the 40k calculators read")
    units = roster.units()
    if not units:
        raise DataFileError(f"{roster.file}: the roster has no unit", file=roster.file, kind="refused")
    notes = Notes()
    taken: set[str] = set()
    abilities: dict[str, dict[str, Any]] = {}
    sheets: dict[str, dict[str, Any]] = {}
    led: dict[str, list[str]] = {}
    keys_by_name: dict[str, list[str]] = {}
    for sel in units:
        u = _Unit(roster, sel, unit_key(sel.name, taken), notes)
        sheets[u.key], led[u.key] = _datasheet(u, abilities, units)
        keys_by_name.setdefault(sel.name.casefold(), []).append(u.key)
    for key, names in led.items():
        if names:
            sheets[key]["leads"] = list(dict.fromkeys(k for n in names for k in keys_by_name[n.casefold()]))
    words = {w for s in sheets.values() for w in (*s["keywords"], *s["faction_keywords"])}
    fkey = slug(roster.name)[:40].strip("-") or "roster"
    catalogue = next(iter(roster.catalogues), roster.name)
    return {
        "faction": {
            "key": fkey,
            "name": roster.name,
            "keyword": catalogue.upper(),
            "contagion_range": [0],
            "contagion_source": "not in a roster",
        },
        "keywords": sorted(words),
        "datasheets": sheets,
        "abilities": abilities,
        "stratagems": {},
        **({"warnings": list(notes.lines())} if notes.lines() else {}),
    }


def roster_faction(roster: Roster) -> Faction:
    """The roster's units as a faction's datasheets (see the module)."""
    return faction_from_data(roster_data(roster), roster.file, REGISTER)


@lru_cache(maxsize=16)
def _roster_at(path: str, mtime_ns: int, size: int) -> Faction:
    """A roster's faction, read once per version of the file (its time and size)."""
    return roster_faction(read_roster(path))


def army_at(path: str, field: str) -> Faction:
    """The faction a file gives: a roster (``.ros``, ``.rosz``, New Recruit ``.json``), else a
    faction file (:func:`~rulesbook.systems.wh40k.faction.file.faction_at`); a file that cannot be read is one line
    naming ``field``."""
    if not looks_like_roster(path):
        return faction_at(path, field)
    return read_once(path, field, _roster_at)


# -- roster show ----------------------------------------------------------------------------------


def _stat_line(name: str, count: int, c: Any, invuln: int | None) -> str:
    inv = f", invulnerable {invuln}+" if invuln else ""
    return f"{count} × {name} (M{c.move} T{c.toughness} Sv {c.save}+ W{c.wounds} Ld {c.leadership}+ OC{c.objective_control}{inv})"


def _weapon_line(sheet: Datasheet, key: str) -> str:
    w = sheet.weapons[key]
    rng = sheet.weapon_ranges.get(key)
    skill = "N/A" if w.skill == NO_SKILL else f"{w.skill}+"
    head = f'{rng}"' if w.ranged else "melee"
    words = ", ".join(w.abilities.words())
    carried = sum(p.count * p.weapons.count(key) for p in sheet.model_profiles())
    return (
        f"{key}: {w.name} — {head}, A {w.attacks}, {'BS' if w.ranged else 'WS'} {skill}, S {w.strength}, "
        f"AP {w.ap}, D {w.damage}{f' [{words}]' if words else ''}; {carried} carried"
    )


def _view(roster: Roster) -> RosterView:
    faction = roster_faction(roster)
    units = []
    for key, sheet in faction.datasheets.items():
        lines = [
            "models: "
            + "; ".join(
                _stat_line(p.name, p.count, p.characteristics, p.invulnerable) for p in sheet.model_profiles()
            )
        ]
        lines += [f"weapon {_weapon_line(sheet, k)}" for k in sheet.weapons]
        if sheet.exclusive:
            lines.append("one at a time: " + "; ".join(" / ".join(g) for g in sheet.exclusive))
        if sheet.core_abilities:
            lines.append("core abilities: " + ", ".join(sheet.core_abilities))
        if sheet.abilities:
            lines.append("abilities: " + ", ".join(faction.abilities[a].name for a in sheet.abilities))
        if sheet.leads:
            lines.append("may lead: " + ", ".join(sheet.leads))
        units.append(
            UnitView(
                key, sheet.name, sheet.models, sheet.points[0][1] if sheet.points else None, tuple(lines)
            )
        )
    return view_of(roster, "wh40k", units, faction.warnings)


ADAPTER = RosterAdapter(system="wh40k", wanted=WANTED, accepts=accepts, view=_view)
"""How the 40k system reads rosters (``SystemPackage(rosters=ADAPTER)``)."""
