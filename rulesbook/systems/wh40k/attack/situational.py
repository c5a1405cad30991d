"""A weapon's attack as its situation makes it: the published weapon abilities that depend on
where the units stand or what they did this turn — Rapid Fire and Melta within half range, Lance
after a charge, Indirect Fire at an unseen target — and the ``source-only`` reading of the
published-abilities entry, which drops the abilities the source page does not define.

The engine's plan (:func:`~rulesbook.systems.wh40k.attack.engine.plan`) puts every weapon through :func:`in_situation` before
it counts an attack, so every calculator built on the engine sees the same weapon.

Example:
    >>> from rulesbook.dice import parse_dice
    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> gun = Weapon("gun", parse_dice("2"), 3, 4, 0, parse_dice("1"), parse_abilities("rapid-fire-1"))
    >>> str(in_situation(gun, Target(4, 3, 1), Situation(half_range=True))[0].attacks)
    '3'
"""

from __future__ import annotations

from dataclasses import replace

from rulesbook.dice import DiceExpr, parse_dice  # noqa: F401 (examples)
from rulesbook.registry import implements
from rulesbook.systems.wh40k.attack.rolls import Situation
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities  # noqa: F401 (examples)
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices

__all__ = ["in_situation", "source_rules_only"]


@implements("wh40k.attack.torrent", "wh40k.attack.twin-linked", "wh40k.attack.anti")
def source_rules_only(weapon: Weapon) -> Weapon:
    """The weapon without the abilities the source page does not define (Torrent,
    Twin-linked, Anti-X, Rapid Fire, Melta, Lance, Indirect Fire): the ``source-only`` option of
    the published-abilities entry.

    >>> w = Weapon("w", parse_dice("1"), 3, 4, 0, parse_dice("1"), parse_abilities("torrent,lethal-hits"))
    >>> source_rules_only(w).abilities.torrent, source_rules_only(w).abilities.lethal_hits
    (False, True)
    """
    ab = replace(
        weapon.abilities,
        torrent=False,
        twin_linked=False,
        anti=(),
        rapid_fire=None,
        melta=None,
        lance=False,
        indirect_fire=False,
    )
    return replace(weapon, abilities=ab)


def _plus(base: DiceExpr, extra: DiceExpr) -> DiceExpr:
    """``base`` + ``extra`` as one dice expression (dice of one kind; checked by make_weapon)."""
    sides = base.sides if base.count else extra.sides
    return DiceExpr(base.count + extra.count, sides, base.modifier + extra.modifier)


@implements(
    "wh40k.attack.rapid-fire", "wh40k.attack.melta", "wh40k.attack.lance", "wh40k.attack.indirect-fire"
)
def in_situation(
    weapon: Weapon, target: Target, situation: Situation, choices: Wh40kChoices = CHOICES
) -> tuple[Weapon, Target, Situation]:
    """One weapon's attack as its situation makes it (published definitions, interpretation
    ``published-abilities``): Rapid Fire X adds X attacks and Melta X adds X to the Damage when
    the target is within half range; Lance adds 1 to the Wound roll after a Charge move;
    Indirect Fire at a target no model can see takes 1 off the Hit roll and gives the target
    the Benefit of Cover against it. The roll tests cap the modifiers as usual.

    >>> w = Weapon("w", parse_dice("2"), 3, 4, 0, parse_dice("D6"), parse_abilities("rapid-fire-2,melta-2"))
    >>> near, _, _ = in_situation(w, Target(4, 3, 1), Situation(half_range=True))
    >>> str(near.attacks), str(near.damage)
    ('4', 'D6+2')
    >>> lance = Weapon("w", parse_dice("2"), 3, 4, 0, parse_dice("1"), parse_abilities("lance"))
    >>> in_situation(lance, Target(4, 3, 1), Situation(charged=True))[2].wound_modifier
    1
    """
    ab = weapon.abilities
    if choices.readings.published_abilities == "source-only":
        return source_rules_only(weapon), target, situation
    if situation.half_range and (ab.rapid_fire is not None or ab.melta is not None):
        weapon = replace(
            weapon,
            attacks=weapon.attacks if ab.rapid_fire is None else _plus(weapon.attacks, ab.rapid_fire),
            damage=weapon.damage if ab.melta is None else _plus(weapon.damage, ab.melta),
        )
    if ab.lance and situation.charged:
        situation = replace(situation, wound_modifier=situation.wound_modifier + 1)
    if ab.indirect_fire and not situation.target_visible and weapon.ranged:
        situation = replace(situation, hit_modifier=situation.hit_modifier - 1)
        target = replace(target, cover=True)
    return weapon, target, situation
