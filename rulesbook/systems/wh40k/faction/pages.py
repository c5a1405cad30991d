"""The rules of a faction file as registry records: one :class:`~rulesbook.records.Rule` per
datasheet, ability, stratagem and detachment rule, with its stable ID, its text in our own words,
its citation and the effects it declares, so each gets a page on the site, a ``rulesbook rule``
answer and the traceability checks every rule has.

The page texts are built here from the typed data (nothing typed twice): a stratagem's cost,
category, when, target and effect; a datasheet's characteristics, weapons, abilities, keywords,
composition and points.

Example:
    >>> rules = {r.id: r for r in faction_rules(death_guard())}
    >>> r = rules["wh40k.death-guard.stratagem.disgustingly-resilient"]
    >>> r.title, r.citations[0].section
    ('Disgustingly Resilient', 'DISGUSTINGLY RESILIENT')
    >>> "**2 CP**" in r.text and "Damage reduction 1" in r.text
    True
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from rulesbook.records import Citation, Implementation, Rule
from rulesbook.systems.wh40k.effects.effect import Effect
from rulesbook.systems.wh40k.effects.kinds import KINDS, describe_effect
from rulesbook.systems.wh40k.faction.reader import death_guard
from rulesbook.systems.wh40k.faction.sides import apply_effects
from rulesbook.systems.wh40k.faction.types import Datasheet, Faction

__all__ = [
    "SOURCE",
    "faction_implementations",
    "faction_rules",
    "registered_faction_implementations",
    "registered_faction_rules",
]

SOURCE = "004_7134931f915e24a0.txt"
SOURCE_TITLE = "Warhammer 40,000 Mortarion page and core rules"
"""The document's title as citations show it (``short`` of ``source.yaml``; a test keeps them equal)."""

_SOURCE_NAMES = {"core": "Core", "boarding-actions": "Boarding Actions", "plague-company": "Plague Company"}


def _effects_md(effects: Sequence[Effect]) -> list[str]:
    if not effects:
        return []
    return ["", "**Effects as the calculators apply them** (`wh40k.datasheet-attack`):", ""] + [
        f"- {describe_effect(e)}" for e in effects
    ]


def _registers(effects: Sequence[Effect], named: Sequence[str]) -> tuple[str, ...]:
    out = list(named)
    for e in effects:
        if e.register and e.register not in out:
            out.append(e.register)
    return tuple(out)


def _datasheet_text(sheet: Datasheet, faction: Faction) -> str:
    c = sheet.characteristics
    inv = f"{sheet.invulnerable}+" if sheet.invulnerable else "none"
    lines = [
        f"The {faction.name} datasheet of {sheet.name}.",
        "",
        "| M | T | Sv | W | Ld | OC | invulnerable save |",
        "|---|---|---|---|---|---|---|",
        f'| {c.move}" | {c.toughness} | {c.save}+ | {c.wounds} | {c.leadership}+ | {c.objective_control} | {inv} |',
        "",
        f"The page lost this line; it is the published one ({sheet.characteristics_source}).",
        "",
        "| weapon | range | A | BS/WS | S | AP | D | abilities |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key, w in sheet.weapons.items():
        rng = f'{sheet.weapon_ranges[key]}"' if w.ranged else "melee"
        words = ", ".join([*(("lethal hits",) if w.abilities.lethal_hits else ()), *w.abilities.other])
        if w.abilities.blast:
            words = "blast, " + words
        if w.abilities.devastating_wounds:
            words += ", devastating wounds"
        if w.abilities.sustained is not None:
            words += f", sustained hits {w.abilities.sustained}"
        ap = f"−{-w.ap}" if w.ap else "0"
        lines.append(
            f"| {w.name} (`{key}`) | {rng} | {w.attacks} | {w.skill}+ | {w.strength} | {ap} | {w.damage} | {words.strip(', ')} |"
        )
    names = [faction.abilities[a].name for a in sheet.abilities]
    lines += [
        "",
        "Silence is used with one of its two profiles at a time." if sheet.exclusive else "",
        "",
        f"**Core abilities:** {', '.join(sheet.core_abilities)}. **Abilities:** {', '.join(names)} "
        "(each has its own page, linked below).",
        "",
        f"**Keywords:** {', '.join(sheet.keywords)}. **Faction keywords:** {', '.join(sheet.faction_keywords)}.",
        "",
        "**Unit composition:** "
        + "; ".join(f"{n} × {name}" for n, name in sheet.composition)
        + ". **Points:** "
        + "; ".join(f"{n} model{'s' if n > 1 else ''}: {p}" for n, p in sheet.points)
        + ".",
        "",
        f"`wh40k.datasheet-attack` attacks with these weapons, or at {sheet.name}, with the abilities, "
        "auras, stratagems and detachment rules applied; its page works an example through.",
    ]
    return "\n".join(lines)


def faction_rules(faction: Faction) -> list[Rule]:
    """Every datasheet, ability, stratagem and detachment of ``faction`` as a rule record."""
    out: list[Rule] = []
    for sheet in faction.datasheets.values():
        out.append(
            Rule(
                id=sheet.id,
                system="wh40k",
                title=f"{sheet.name} (datasheet)",
                text=_datasheet_text(sheet, faction),
                citations=(Citation(SOURCE, sheet.section, title=SOURCE_TITLE),),
                interpretations=(
                    "wh40k.interpretations.mortarion-characteristics",
                    "wh40k.interpretations.characters-section",
                ),
                see_also=tuple(faction.abilities[a].id for a in sheet.abilities),
                summary=f"{sheet.name}'s characteristics, weapons, abilities, keywords and points.",
            )
        )
    for ab in faction.abilities.values():
        kind = "aura" if ab.aura else "ability"
        extra = [
            f"*{ab.kind.capitalize()} {kind}" + (f", reaching {ab.affects}" if ab.affects else "") + ".*"
        ]
        out.append(
            Rule(
                id=ab.id,
                system="wh40k",
                title=ab.name,
                text="\n".join([*extra, "", ab.text.strip(), *_effects_md(ab.effects)]),
                citations=(Citation(SOURCE, ab.section, title=SOURCE_TITLE),),
                interpretations=_registers(ab.effects, ab.interpretations),
                see_also=tuple(faction.abilities[k].id for k in ab.choice_of),
                summary=ab.text.strip().split(". ")[0].rstrip(".") + ".",
            )
        )
    for st in faction.stratagems.values():
        head = f"**{st.cp} CP** · {_SOURCE_NAMES[st.source]} – {st.category} Stratagem"
        body = [
            head,
            "",
            f"**When:** {st.when}",
            "",
            f"**Target:** {st.target}",
            "",
            f"**Effect:** {st.text.strip()}",
        ]
        if st.restrictions:
            body += ["", f"**Restrictions:** {st.restrictions}"]
        out.append(
            Rule(
                id=st.id,
                system="wh40k",
                title=st.name,
                text="\n".join([*body, *_effects_md(st.effects)]),
                citations=(Citation(SOURCE, st.section, _SOURCE_NAMES[st.source], SOURCE_TITLE),),
                interpretations=_registers(st.effects, st.interpretations),
                summary=f"{st.cp} CP {_SOURCE_NAMES[st.source]} {st.category}: "
                + st.text.strip().split(". ")[0].rstrip(".")
                + ".",
            )
        )
    for det in faction.detachments.values():
        out.append(
            Rule(
                id=det.id,
                system="wh40k",
                title=f"{det.name} (detachment rule)",
                text="\n".join([det.text.strip(), *_effects_md(det.effects)]),
                citations=(Citation(SOURCE, det.section, title=SOURCE_TITLE),),
                interpretations=_registers(det.effects, det.interpretations),
                see_also=tuple(faction.abilities[k].id for k in det.choices),
                summary=det.text.strip().split(". ")[0].rstrip(".") + ".",
            )
        )
    return out


def registered_faction_rules() -> list[Rule]:
    """The shipped factions' rules, for the system package (the Death Guard page)."""
    return faction_rules(death_guard())


def _implementation(rule_id: str, func: Callable[..., Any]) -> Implementation:
    code = getattr(inspect.unwrap(func), "__code__", None)
    return Implementation(
        rule_id,
        func.__qualname__,
        func.__module__,
        code.co_filename if code is not None else "",
        code.co_firstlineno if code is not None else 0,
        function=func,
    )


def faction_implementations(faction: Faction) -> list[Implementation]:
    """The code that executes each rule of ``faction`` that declares effects: the engine that
    applies them (:func:`~rulesbook.systems.wh40k.faction.sides.apply_effects`) and each effect kind's own application
    (:data:`~rulesbook.systems.wh40k.effects.kinds.KINDS`). A faction file's rules need no hand-kept Python: their rule
    IDs count as implemented through their effects.

    >>> found = {i.qualname for i in faction_implementations(death_guard())
    ...          if i.rule_id == "wh40k.death-guard.stratagem.ferric-blight"}
    >>> sorted(found)
    ['_ap', '_critical_ap', 'apply_effects']
    """
    out: list[Implementation] = []
    entries: list[tuple[str, Sequence[Effect]]] = [
        *((a.id, a.effects) for a in faction.abilities.values()),
        *((s.id, s.effects) for s in faction.stratagems.values()),
        *((d.id, d.effects) for d in faction.detachments.values()),
        *((e.id, e.effects) for e in faction.enhancements.values()),
    ]
    for rule_id, effects in entries:
        if not effects:
            continue
        out.append(_implementation(rule_id, inspect.unwrap(apply_effects)))
        for kind in dict.fromkeys(e.kind for e in effects):
            out.append(_implementation(rule_id, KINDS[kind].apply))
    return out


def registered_faction_implementations() -> list[Implementation]:
    """The shipped factions' rules as implemented through their effects (the system package)."""
    return faction_implementations(death_guard())
