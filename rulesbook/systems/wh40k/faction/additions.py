"""What a 40k variant's ``add:`` section adds: stratagems, abilities, detachment rules and
enhancements, written in the effects language of ``death-guard.yaml`` (:mod:`~rulesbook.systems.wh40k.effects.kinds`).

A designer's new stratagem needs a ``name``, its ``cp``, the ``phases`` it is used in and its
``effects``; the rest (when, target, text) is optional. An added entry with the key of a
printed one replaces it. ``wh40k.datasheet-attack`` offers the added entries beside the printed
ones of both sides' faction files (its ``stratagems``, ``detachment`` and ``enhancement``
inputs); an added ability reaches the datasheets its ``datasheets`` list names (or, with the key
of a printed ability, every datasheet that has that one)::

    add:
      stratagems:
        monster-hunters:
          name: Monster Hunters
          cp: 1
          phases: [shooting]
          effects:
            - {kind: wound-modifier, value: 1, affects: own, target_keywords: [MONSTER]}

An effect that gives no ``phases`` takes its stratagem's; ``shooting`` (also ``movement``,
``charge``, ``command``) means that phase of either player. Every mistake is one line naming
the file and the field.

Example:
    >>> added = Wh40kAdditions.from_mapping({"stratagems": {"monster-hunters": {
    ...     "name": "Monster Hunters", "cp": 1, "phases": ["shooting"],
    ...     "effects": [{"kind": "wound-modifier", "value": 1, "target_keywords": ["MONSTER"]}]}}},
    ...     "monster-hunters.yaml")
    >>> added.lines()
    ['add stratagems.monster-hunters: Monster Hunters (1 CP; your-shooting, opponent-shooting): Wound roll modifier +1 (own unit; phase: your-shooting, opponent-shooting; against MONSTER targets)']
    >>> Wh40kAdditions.from_mapping({"stratagems": {"x": {"name": "X", "cp": 1, "phases": ["shooting"]}}},
    ...                             "house.yaml")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: house.yaml: add.stratagems.x: missing field 'effects' (an added stratagem needs name, cp, phases, effects)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from rulesbook.additions import Additions, AddSection
from rulesbook.data import DataFileError
from rulesbook.errors import InputError, did_you_mean
from rulesbook.systems.wh40k.effects.kinds import describe_effect
from rulesbook.systems.wh40k.faction.file import effect_data
from rulesbook.systems.wh40k.faction.reader import EntryReader
from rulesbook.systems.wh40k.faction.types import Ability, Detachment, Enhancement, Faction, Stratagem

__all__ = ["ADD_FIELDS", "RULE", "AddedEntry", "Wh40kAdditions", "with_additions"]

RULE = "wh40k.core.declared-effects"
"""The rule every added entry belongs to (its effects are applied as that rule says)."""

ADD_FIELDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = MappingProxyType(
    {
        "stratagems": (
            ("name", "cp", "phases", "effects"),
            ("category", "when", "target", "text", "restrictions", "section"),
        ),
        "abilities": (("name", "effects"), ("text", "datasheets", "section")),
        "detachments": (("name",), ("effects", "choices", "text", "section")),
        "enhancements": (("name", "effects"), ("cost", "detachment", "text", "section")),
    }
)
"""Each section's (required, optional) fields."""

_CATEGORIES = ("Battle Tactic", "Strategic Ploy", "Epic Deed", "Wargear")


@dataclass(frozen=True, slots=True)
class AddedEntry:
    """One added stratagem, ability, detachment rule or enhancement (``entry``), with the
    datasheets an added ability reaches."""

    section: str
    entry: Stratagem | Ability | Detachment | Enhancement
    datasheets: tuple[str, ...] = ()

    def describe(self) -> str:
        """The entry in words: its name, cost and phases, and each effect."""
        e = self.entry
        head = e.name
        if isinstance(e, Stratagem):
            head += f" ({e.cp} CP; {', '.join(e.phases)})"
        effects = "; ".join(describe_effect(x) for x in e.effects) or "no effect of its own"
        return f"{head}: {effects}"

    def to_mapping(self) -> dict[str, Any]:
        """The entry as a variant file writes it (read back as the same entry)."""
        e = self.entry
        out: dict[str, Any] = {"name": e.name}
        if isinstance(e, Stratagem):
            out |= {"cp": e.cp, "phases": list(e.phases), "category": e.category, "when": e.when}
            out |= {"target": e.target}
        elif isinstance(e, Enhancement):
            out |= {"cost": e.cost, "detachment": e.detachment}
        elif isinstance(e, Detachment) and e.choices:
            out["choices"] = list(e.choices)
        elif isinstance(e, Ability) and self.datasheets:
            out["datasheets"] = list(self.datasheets)
        out |= {"text": e.text, "section": e.section}
        if e.effects:
            out["effects"] = [effect_data(x) for x in e.effects]
        return out


def _check(section: str) -> Any:
    def check(key: str, raw: Any, field: str) -> AddedEntry:
        try:
            return _entry(section, key, raw, field)
        except DataFileError as exc:
            text = str(exc)
            if text.startswith(field):
                place, _, reason = text[len(field) :].partition(": ")
                raise InputError(field + place, reason) from None
            raise InputError(field, text) from None

    return check


def _entry(section: str, key: str, raw: Any, field: str) -> AddedEntry:
    required, optional = ADD_FIELDS[section]
    if not isinstance(raw, Mapping):
        raise DataFileError(f"{field}: expected a mapping with {', '.join(required)}")
    for name in raw:
        if name not in (*required, *optional):
            hint = did_you_mean(str(name), (*required, *optional)) or ";"
            raise DataFileError(
                f"{field}.{name}: unknown field{hint} allowed: {', '.join((*required, *optional))}"
            )
    for name in required:
        if name not in raw:
            raise DataFileError(
                f"{field}: missing field '{name}' (an added {section[:-1]} needs {', '.join(required)})"
            )
    r = EntryReader(Path(field))
    name = raw["name"]
    if not isinstance(name, str) or not name.strip():
        raise DataFileError(f"{field}.name: expected a name")
    if section in ("stratagems", "abilities", "enhancements") and not raw["effects"]:
        raise DataFileError(f"{field}.effects: expected a list of one or more effects")
    rule_id = f"wh40k.variant.{section[:-1]}.{key}"
    common: dict[str, Any] = {
        "key": key,
        "id": rule_id,
        "name": name.strip(),
        "section": str(raw.get("section", "variant")),
    }
    text = " ".join(str(raw.get("text", "")).split()) or f"{name.strip()} (a variant's {section[:-1]})."
    if section == "stratagems":
        phases = r.phases(raw["phases"], f"{field}.phases")
        if not phases:
            raise DataFileError(f"{field}.phases: name one phase at least")
        effects = tuple(
            e if "phases" in (raw["effects"][i] or {}) else replace(e, phases=phases)
            for i, e in enumerate(r.effects(raw["effects"], field, None))
        )
        entry: Stratagem | Ability | Detachment | Enhancement = Stratagem(
            **common,
            cp=r.ints(raw["cp"], f"{field}.cp", 0, 5),
            source="variant",
            category=r.choice(raw.get("category", "Battle Tactic"), f"{field}.category", _CATEGORIES),
            when=" ".join(str(raw.get("when", "")).split()) or ", ".join(phases),
            phases=phases,
            target=" ".join(str(raw.get("target", "")).split()) or "one unit from your army",
            text=text,
            restrictions=" ".join(str(raw.get("restrictions", "")).split()),
            effects=effects,
        )
        return AddedEntry(section, entry)
    effects = r.effects(raw.get("effects"), field, None)
    if section == "abilities":
        sheets = tuple(
            r.key(k, f"{field}.datasheets") for k in r.strings(raw.get("datasheets"), f"{field}.datasheets")
        )
        entry = Ability(**common, text=text, kind="datasheet", effects=effects)
        return AddedEntry(section, entry, sheets)
    if section == "detachments":
        choices = tuple(
            r.key(k, f"{field}.choices") for k in r.strings(raw.get("choices"), f"{field}.choices")
        )
        if not effects and not choices:
            raise DataFileError(f"{field}: give its effects (or the abilities it offers as choices)")
        return AddedEntry(section, Detachment(**common, text=text, choices=choices, effects=effects))
    entry = Enhancement(
        **common,
        cost=r.ints(raw.get("cost", 0), f"{field}.cost", 0, 500),
        detachment=r.key(raw.get("detachment", "any"), f"{field}.detachment"),
        text=text,
        effects=effects,
    )
    return AddedEntry(section, entry)


class Wh40kAdditions(Additions):
    """The stratagems, abilities, detachment rules and enhancements a 40k variant adds."""

    SECTIONS: ClassVar[Mapping[str, AddSection]] = MappingProxyType(
        {
            "stratagems": AddSection(
                RULE,
                _check("stratagems"),
                "stratagems (name, cp, phases, effects)",
                ("stratagems", "target_stratagems"),
            ),
            "abilities": AddSection(RULE, _check("abilities"), "abilities (name, effects; datasheets)"),
            "detachments": AddSection(
                RULE,
                _check("detachments"),
                "detachment rules (name, effects or choices)",
                ("detachment", "target_detachment"),
            ),
            "enhancements": AddSection(
                RULE,
                _check("enhancements"),
                "enhancements (name, effects; cost)",
                ("enhancement", "target_enhancement"),
            ),
        }
    )


def with_additions(faction: Faction, additions: Additions) -> Faction:
    """``faction`` with a variant's added entries (an added key replaces the printed entry;
    an added ability reaches the datasheets it names). An added detachment's ``choices`` must
    be abilities of the faction or added ones.

    >>> from rulesbook.systems.wh40k.faction.reader import death_guard
    >>> dg = death_guard()
    >>> with_additions(dg, Wh40kAdditions()) is dg
    True
    """
    if not additions:
        return faction
    found: dict[str, dict[str, Any]] = {
        "stratagems": dict(faction.stratagems),
        "abilities": dict(faction.abilities),
        "detachments": dict(faction.detachments),
        "enhancements": dict(faction.enhancements),
    }
    reach: dict[str, list[str]] = {}
    for section, entries in additions.sections:
        for key, added in entries:
            if not isinstance(added, AddedEntry) or section not in found:
                continue
            found[section][key] = added.entry
            for sheet in added.datasheets:
                reach.setdefault(sheet, []).append(key)
    for key, det in found["detachments"].items():
        for choice in det.choices:
            if choice not in found["abilities"]:
                raise InputError(
                    "variant",
                    f"add.detachments.{key}.choices: {choice!r} is not an ability of {faction.name}",
                )
    sheets = dict(faction.datasheets)
    for sheet_key, keys in reach.items():
        found_sheet = sheets.get(sheet_key)
        if found_sheet is not None:
            grown = tuple(dict.fromkeys((*found_sheet.abilities, *keys)))
            sheets[sheet_key] = replace(found_sheet, abilities=grown)
    return replace(
        faction,
        datasheets=MappingProxyType(sheets),
        stratagems=MappingProxyType(found["stratagems"]),
        abilities=MappingProxyType(found["abilities"]),
        detachments=MappingProxyType(found["detachments"]),
        enhancements=MappingProxyType(found["enhancements"]),
    )
