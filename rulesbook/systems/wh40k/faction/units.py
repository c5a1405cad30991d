"""A datasheet's unit in the engine's terms: how many models of each kind a unit of a given
size has, how many models fire each weapon, and the model groups an attack on the unit is
allocated to (units whose models differ, a Leader attached to its Bodyguard).

* **Unit size** — a kind printed as ``4-9 Mire Wardens`` grows as the unit does; the fixed
  kinds (a Champion) stay (:func:`unit_counts`).
* **Who fires what** — every model of a kind fires the weapons its default loadout gives it;
  ``key*N`` in the calculator says N models fire it instead (:func:`attack_weapons`). N models
  of one weapon are one weapon of N times the Attacks (the dice added up), or N copies when the
  weapon's Blast or Rapid Fire counts per model.
* **Allocation** — the kinds of model are groups in the order of the register entry
  ``mixed-allocation``; every Wound roll uses one Toughness (``mixed-toughness``, or the
  Bodyguard's in an Attached unit); each group saves with its own Save, invulnerable save and
  Feel No Pain (:func:`target_groups`, resolved by :func:`~rulesbook.systems.wh40k.attack.groups.resolve_groups`).

Example:
    >>> from pathlib import Path
    >>> from rulesbook.systems.wh40k.wahapedia.importer import import_wahapedia
    >>> zz = import_wahapedia(Path("tests/wh40k/wahapedia"), "ZZ")
    >>> wardens = zz.datasheets["mire-wardens"]
    >>> [(p.name, n) for p, n in unit_counts(wardens, 7, "models")]
    [('Mire Warden Champion', 1), ('Mire Wardens', 6)]
    >>> [(w.name, str(w.attacks)) for w in attack_weapons(wardens, ("corroded-blade",), None, "weapons")]
    [('Corroded blade ×5', '15')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from rulesbook.dice import MAX_DICE, DiceExpr
from rulesbook.errors import InputError, choose_from, quote
from rulesbook.registry import implements
from rulesbook.systems.wh40k.attack.groups import ModelGroup
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices
from rulesbook.systems.wh40k.faction.types import Datasheet, ModelProfile

__all__ = ["attack_weapons", "bearers", "fire", "target_groups", "unit_counts"]


def unit_counts(sheet: Datasheet, size: int | None, field: str) -> tuple[tuple[ModelProfile, int], ...]:
    """How many models of each kind a unit of ``size`` models has (``None``: the smallest
    unit); the kinds that may grow take the extra models in the datasheet's order."""
    profiles = sheet.model_profiles()
    least = sum(p.count for p in profiles)
    most = sum(p.most for p in profiles)
    if size is None:
        size = least
    if not least <= size <= most:
        allowed = f"{least}" if least == most else f"{least} to {most}"
        raise InputError(field, f"{sheet.name} has {allowed} models, got {size}")
    extra = size - least
    out = []
    for p in profiles:
        more = min(extra, p.most - p.count)
        extra -= more
        out.append((p, p.count + more))
    return tuple(out)


def bearers(sheet: Datasheet, key: str, counts: Sequence[tuple[ModelProfile, int]], field: str) -> int:
    """How many of weapon ``key`` the unit fires by its default loadout: one for each model
    whose loadout has it (two for a model listing it twice, as a roster's twin sponsons)."""
    told = any(p.weapons for p, _ in counts)
    if not told:
        total = sum(n for _, n in counts)
        if total == 1:
            return 1
        raise InputError(
            field,
            f"the {sheet.name} datasheet does not say which models carry {key}; give {key}*N (N models fire it)",
        )
    n = sum(count * p.weapons.count(key) for p, count in counts)  # a model may carry two of it
    if not n:
        raise InputError(
            field,
            f"{key} is not in the default loadout of {sheet.name}; give {key}*N (N models fire it)",
        )
    return n


def fire(weapon: Weapon, models: int) -> tuple[Weapon, ...]:
    """``models`` models firing ``weapon``: one weapon with the Attacks added up (``D6`` × 3 is
    ``3D6``), or copies when Blast or Rapid Fire counts per model or the dice would be too many.

    >>> from rulesbook.dice import parse_dice
    >>> [str(w.attacks) for w in fire(Weapon("gun", parse_dice("D6+1"), 3, 4, 0, parse_dice("1")), 3)]
    ['3D6+3']
    """
    if models == 1:
        return (weapon,)
    a = weapon.abilities
    if a.blast or a.rapid_fire is not None or weapon.attacks.count * models > MAX_DICE:
        return tuple(replace(weapon, name=f"{weapon.name} ({i} of {models})") for i in range(1, models + 1))
    attacks = DiceExpr(weapon.attacks.count * models, weapon.attacks.sides, weapon.attacks.modifier * models)
    return (replace(weapon, name=f"{weapon.name} ×{models}", attacks=attacks),)


def attack_weapons(
    sheet: Datasheet, chosen: Sequence[str], size: int | None, field: str
) -> tuple[Weapon, ...]:
    """The weapons of the chosen words (``key`` or ``key*N``) as fired by the unit."""
    counts = unit_counts(sheet, size, "attacker_models" if field == "weapons" else field)
    out: list[Weapon] = []
    for word in chosen:
        key, _, n = word.partition("*")
        if key not in sheet.weapons:
            raise InputError(
                field, f"{sheet.name} has no weapon {quote(key)}; {choose_from(key, sheet.weapons)}"
            )
        models = int(n) if n else bearers(sheet, key, counts, field)
        if not 1 <= models <= 40:
            raise InputError(field, f"{key}*N: N is the number of models firing it, 1 to 40, got {models}")
        out += fire(sheet.weapons[key], models)
    return tuple(out)


def _toughness(groups: Sequence[tuple[int, int]], choices: Wh40kChoices) -> int:
    """The Toughness of every Wound roll against models of these (Toughness, count) pairs."""
    if choices.readings.mixed_toughness == "highest":
        return max(t for t, _ in groups)
    by_t: Counter[int] = Counter()
    for t, n in groups:
        by_t[t] += n
    most = max(by_t.values())
    return max(t for t, n in by_t.items() if n == most)


@implements("wh40k.attack.allocation", "wh40k.core.attached-units")
def target_groups(
    sheet: Datasheet,
    size: int | None,
    base: Target,
    choices: Wh40kChoices = CHOICES,
    leader: Datasheet | None = None,
    field: str = "target_models",
) -> tuple[Target, tuple[ModelGroup, ...]]:
    """The unit a datasheet target is (with its Leader, if one is attached) as the shared
    :class:`~rulesbook.systems.wh40k.attack.weapons.Target` (the Toughness of the Wound rolls, keywords, cover, Stealth,
    Damage reduction from ``base``) and its model groups in allocation order. One group when
    every model is alike.

    >>> from pathlib import Path
    >>> from rulesbook.systems.wh40k.wahapedia.importer import import_wahapedia
    >>> zz = import_wahapedia(Path("tests/wh40k/wahapedia"), "ZZ")
    >>> unit, groups = target_groups(zz.datasheets["mire-wardens"], None, Target(5, 3, 2))
    >>> [(g.name, g.models, g.wounds, g.save) for g in groups]
    [('Mire Wardens', 4, 2, 4), ('Mire Warden Champion', 1, 3, 3)]
    """
    counts = [(p, n) for p, n in unit_counts(sheet, size, field) if n]
    fnp = sheet.feel_no_pain

    def group(p: ModelProfile, n: int, character: bool, fnp: int | None) -> ModelGroup:
        c = p.characteristics
        return ModelGroup(p.name, n, c.wounds, c.save, p.invulnerable, fnp, character)

    order = list(range(len(counts)))
    if choices.readings.mixed_allocation == "most-numerous-first":
        order.sort(key=lambda i: -counts[i][1])
    groups = [group(*counts[i], False, fnp) for i in order]
    toughness = _toughness([(p.characteristics.toughness, n) for p, n in counts], choices)
    if leader is not None:
        for p, n in unit_counts(leader, None, "target_leader"):
            if n:
                groups.append(group(p, n, True, leader.feel_no_pain))
    merged = _merge(groups)
    unit = replace(base, toughness=toughness, models=sum(g.models for g in merged))
    return unit, merged


def _merge(groups: Sequence[ModelGroup]) -> tuple[ModelGroup, ...]:
    """Neighbouring groups of identical models as one (a Sergeant with the squad's profile)."""
    out: list[ModelGroup] = []
    for g in groups:
        if out and replace(out[-1], name=g.name, models=g.models) == g:
            out[-1] = replace(out[-1], models=out[-1].models + g.models)
        else:
            out.append(g)
    return tuple(out)
