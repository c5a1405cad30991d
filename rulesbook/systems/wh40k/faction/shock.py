"""Battle-shock tests under the Death Guard page's rules: an enemy Sickness that worsens
Leadership (Scabrous Soulrot), and Insane Bravery in either version. The Battle-shock calculators
take the Sickness as their ``enemy_sickness`` input; :mod:`~rulesbook.systems.wh40k.faction.sides` re-exports these.

Example:
    >>> leadership_worsened("scabrous-soulrot"), p_not_battle_shocked(7)
    (1, Fraction(7, 12))
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rulesbook.registry import implements
from rulesbook.systems.wh40k.attack.rolls import battle_shock_test
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices
from rulesbook.systems.wh40k.faction.reader import Ability, Stratagem, death_guard

__all__ = ["SICKNESS_KEYS", "leadership_worsened", "p_not_battle_shocked"]


@implements(
    "wh40k.death-guard.stratagem.insane-bravery",
    "wh40k.death-guard.stratagem.insane-bravery-boarding-actions",
    "wh40k.death-guard.ability.scabrous-soulrot",
)
def p_not_battle_shocked(
    leadership: int,
    stratagems: Sequence[Stratagem] = (),
    enemy_sickness: Ability | None = None,
    choices: Wh40kChoices = CHOICES,
) -> Fraction:
    """Chance a unit ends its Battle-shock step not Battle-shocked: the 2D6 test against its
    Leadership, made worse by an enemy Sickness that worsens Leadership (Scabrous Soulrot: 6+
    becomes 7+), and certain with an Insane Bravery (either version: before the roll, or after
    a failed one).

    >>> dg = death_guard()
    >>> p_not_battle_shocked(6), p_not_battle_shocked(6, enemy_sickness=dg.abilities["scabrous-soulrot"])
    (Fraction(13, 18), Fraction(7, 12))
    >>> p_not_battle_shocked(9, [dg.stratagems["insane-bravery-boarding-actions"]])
    Fraction(1, 1)
    """
    if any(e.kind == "auto-pass" and e.value == "battle-shock" for st in stratagems for e in st.effects):
        return Fraction(1)
    return battle_shock_test(
        leadership + leadership_worsened(enemy_sickness, choices), choices=choices
    ).p_pass()


SICKNESS_KEYS = ("skullsquirm-blight", "rattlejoint-ague", "scabrous-soulrot")
"""The Sicknesses of Spread the Sickness, as the Battle-shock calculators offer them."""


@implements("wh40k.death-guard.ability.scabrous-soulrot")
def leadership_worsened(enemy_sickness: Ability | str | None, choices: Wh40kChoices = CHOICES) -> int:
    """How many steps an enemy Sickness worsens the Leadership of a unit in its Contagion Range
    (its declared ``worsen leadership`` effects: Scabrous Soulrot 1, the others 0); a key names
    a Sickness of the Death Guard page (``choices``: a variant's other code for the Sickness
    reaches the Battle-shock calculators through it).

    >>> leadership_worsened("scabrous-soulrot"), leadership_worsened("rattlejoint-ague"), leadership_worsened(None)
    (1, 0, 0)
    """
    if isinstance(enemy_sickness, str):
        enemy_sickness = None if enemy_sickness == "none" else death_guard().abilities[enemy_sickness]
    if enemy_sickness is None:
        return 0
    return sum(
        e.value
        for e in enemy_sickness.effects
        if e.kind == "worsen" and e.characteristic == "leadership" and isinstance(e.value, int)
    )
