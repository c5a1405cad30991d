"""A faction as a faction file: the data :func:`~rulesbook.systems.wh40k.faction.reader.load_faction` reads back as the same
faction, so an imported Wahapedia faction can be kept, read, edited (a declared effect added by
hand) and given to ``wh40k.datasheet-attack`` (its ``faction`` and ``target_faction`` inputs).

``python -m rulesbook.systems.wh40k.wahapedia EXPORT_FOLDER FACTION_ID [-o FILE]`` imports one
faction of a Wahapedia export and writes it as such a file (:mod:`rulesbook.systems.wh40k.wahapedia`).

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> from rulesbook.systems.wh40k.faction.reader import load_faction
    >>> from rulesbook.systems.wh40k.wahapedia.importer import import_wahapedia
    >>> zz = import_wahapedia(Path("tests/wh40k/wahapedia"), "ZZ")
    >>> path = Path(tempfile.mkdtemp()) / "zz.yaml"
    >>> _ = path.write_text(faction_yaml(zz), encoding="utf-8")
    >>> load_faction(path).datasheets == zz.datasheets
    True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulesbook.data import DataFileError, dump_yaml
from rulesbook.errors import InputError, quote
from rulesbook.records import load_system_data
from rulesbook.systems.wh40k.attack.weapons import Weapon
from rulesbook.systems.wh40k.effects.effect import EFFECT_FIELDS, Effect
from rulesbook.systems.wh40k.faction.reader import DEATH_GUARD_FILE, death_guard, load_faction
from rulesbook.systems.wh40k.faction.types import (
    CORE_KEYWORDS,
    NO_SKILL,
    Ability,
    Characteristics,
    Datasheet,
    Detachment,
    Enhancement,
    Faction,
    Stratagem,
)

__all__ = ["REGISTER", "effect_data", "faction_at", "faction_data", "faction_yaml", "read_once"]

REGISTER = frozenset(i.id for i in load_system_data(Path(__file__).parent.parent / "rules.yaml")[2])
"""The interpretations register's IDs: an effect of a faction file may only name these."""


def effect_data(e: Effect) -> dict[str, Any]:
    """One effect as a faction file (or a variant's ``add:``) writes it: the fields that differ
    from their defaults."""
    out: dict[str, Any] = {"kind": e.kind}
    defaults = Effect(kind=e.kind)
    for name in EFFECT_FIELDS[1:]:  # (after "kind")
        value = getattr(e, name)
        if value != getattr(defaults, name):
            out[name] = list(value) if isinstance(value, tuple) else value
    return out


def _effects(
    out: dict[str, Any], effects: Sequence[Effect], interpretations: Sequence[str]
) -> dict[str, Any]:
    if effects:
        out["effects"] = [effect_data(e) for e in effects]
    if interpretations:
        out["interpretations"] = list(interpretations)
    return out


def _characteristics(c: Characteristics) -> dict[str, Any]:
    return {
        "M": c.move,
        "T": c.toughness,
        "Sv": f"{c.save}+",
        "W": c.wounds,
        "Ld": f"{c.leadership}+",
        "OC": c.objective_control,
    }


def _weapon(w: Weapon, rng: int | None) -> dict[str, Any]:
    skill = "N/A" if w.skill == NO_SKILL else f"{w.skill}+"
    out: dict[str, Any] = {"name": w.name}
    if w.ranged:
        out["range"] = rng
    out |= {
        "A": str(w.attacks),
        "BS" if w.ranged else "WS": skill,
        "S": w.strength,
        "AP": w.ap,
        "D": str(w.damage),
    }
    words = w.abilities.words()
    if words:
        out["abilities"] = list(words)
    return out


def _datasheet(d: Datasheet) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": d.name,
        "section": d.section,
        "characteristics": _characteristics(d.characteristics),
    }
    if d.invulnerable is not None:
        out["invulnerable"] = f"{d.invulnerable}+"
    out["characteristics_source"] = d.characteristics_source
    out["weapons"] = {k: _weapon(w, d.weapon_ranges.get(k)) for k, w in d.weapons.items()}
    if d.exclusive:
        out["exclusive"] = [list(g) for g in d.exclusive]
    if d.core_abilities:
        out["core_abilities"] = list(d.core_abilities)
    out["abilities"] = list(d.abilities)
    out["keywords"] = list(d.keywords)
    out["faction_keywords"] = list(d.faction_keywords)
    out["composition"] = [{"models": n, "name": name} for n, name in d.composition]
    out["points"] = [{"models": n, "points": p} for n, p in d.points]
    if d.profiles:
        models = []
        for p in d.profiles:
            m: dict[str, Any] = {
                "key": p.key,
                "name": p.name,
                "count": p.count,
                "most": p.most,
                "characteristics": _characteristics(p.characteristics),
            }
            if p.invulnerable is not None:
                m["invulnerable"] = f"{p.invulnerable}+"
            if p.weapons:
                m["weapons"] = list(p.weapons)
            models.append(m)
        out["models"] = models
    if d.leads:
        out["leads"] = list(d.leads)
    return out


def _ability(a: Ability) -> dict[str, Any]:
    out: dict[str, Any] = {"name": a.name, "kind": a.kind}
    if a.aura:
        out["aura"] = True
    if a.range is not None:
        out["range"] = a.range
    if a.affects:
        out["affects"] = a.affects
    out |= {"section": a.section, "text": a.text}
    if a.choice_of:
        out["choice_of"] = list(a.choice_of)
    return _effects(out, a.effects, a.interpretations)


def _stratagem(s: Stratagem) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": s.name,
        "cp": s.cp,
        "source": s.source,
        "category": s.category,
        "section": s.section,
        "phases": list(s.phases),
        "when": s.when,
        "target": s.target,
    }
    if s.restrictions:
        out["restrictions"] = s.restrictions
    out["text"] = s.text
    return _effects(out, s.effects, s.interpretations)


def _detachment(d: Detachment) -> dict[str, Any]:
    out: dict[str, Any] = {"name": d.name, "section": d.section, "text": d.text}
    for name in ("choices", "stratagems", "enhancements"):
        if getattr(d, name):
            out[name] = list(getattr(d, name))
    return _effects(out, d.effects, d.interpretations)


def _enhancement(e: Enhancement) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": e.name,
        "cost": e.cost,
        "detachment": e.detachment,
        "section": e.section,
        "text": e.text,
    }
    return _effects(out, e.effects, e.interpretations)


def faction_data(faction: Faction) -> dict[str, Any]:
    """The faction as the data of a faction file (the shape of ``death-guard.yaml``)."""
    used = {k for d in faction.datasheets.values() for k in (*d.keywords, *d.faction_keywords)}
    data: dict[str, Any] = {
        "faction": {
            "key": faction.key,
            "name": faction.name,
            "keyword": faction.keyword,
            "contagion_range": list(faction.contagion_range),
            "contagion_source": faction.contagion_source,
        },
        "keywords": sorted(used - CORE_KEYWORDS),
        "datasheets": {k: _datasheet(d) for k, d in faction.datasheets.items()},
        "abilities": {k: _ability(a) for k, a in faction.abilities.items()},
        "stratagems": {k: _stratagem(s) for k, s in faction.stratagems.items()},
    }
    if faction.detachments:
        data["detachments"] = {k: _detachment(d) for k, d in faction.detachments.items()}
    if faction.enhancements:
        data["enhancements"] = {k: _enhancement(e) for k, e in faction.enhancements.items()}
    if faction.warnings:
        data["warnings"] = list(faction.warnings)
    return data


def faction_yaml(faction: Faction) -> str:
    """The faction file's text (YAML that the project's loader reads back exactly)."""
    head = (
        f"# {faction.name}: a faction file written by rulesbook (rulesbook.systems.wh40k.faction.file).\n"
        "# Schema: rulesbook.systems.wh40k.faction.reader.load_faction. Effects may be added by hand.\n"
    )
    return head + dump_yaml(faction_data(faction))


@lru_cache(maxsize=16)
def _load(path: str, mtime_ns: int, size: int) -> Faction:
    """A faction file, read once per version of it (its time and size)."""
    return load_faction(Path(path), REGISTER)


def faction_at(path: str, field: str) -> Faction:
    """The faction of a faction file (the shipped Death Guard page, or a file written by
    :mod:`~rulesbook.systems.wh40k.faction.file`, e.g. an imported Wahapedia faction); a malformed file is one line
    naming ``field``."""
    if Path(path).resolve() == DEATH_GUARD_FILE.resolve():
        return death_guard()
    return read_once(path, field, _load)


def read_once(path: str, field: str, load: Callable[[str, int, int], Faction]) -> Faction:
    """``load(resolved path, mtime_ns, size)``: a cached reader of one version of a file; what
    goes wrong (a malformed file, one that cannot be read) is one line naming ``field``."""
    p = Path(path)
    try:
        info = os.stat(p)
        return load(str(p.resolve()), info.st_mtime_ns, info.st_size)
    except DataFileError as exc:
        raise InputError(field, str(exc)) from None
    except OSError as exc:
        raise InputError(field, f"cannot read {quote(path)}: {exc.strerror or type(exc).__name__}") from None
