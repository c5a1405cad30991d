"""Battle-shock tests under the Death Guard page's rules: an enemy Sickness that worsens
Leadership (Scabrous Soulrot), and Insane Bravery in either version — each effect through its
kind's ``shock`` hook (:data:`~rulesbook.systems.wh40k.effects.kinds.KINDS`). The Battle-shock
calculators take the Sickness as their ``enemy_sickness`` input.

Example:
    >>> leadership_worsened("scabrous-soulrot"), p_not_battle_shocked(7)
    (1, Fraction(7, 12))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from rulesbook.registry import implements
from rulesbook.systems.wh40k.attack.rolls import battle_shock_test
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices
from rulesbook.systems.wh40k.effects.effect import Effect
from rulesbook.systems.wh40k.effects.kind import ShockTest
from rulesbook.systems.wh40k.effects.kinds import KINDS
from rulesbook.systems.wh40k.faction.reader import death_guard
from rulesbook.systems.wh40k.faction.types import Ability, Stratagem

__all__ = ["SICKNESS_KEYS", "leadership_worsened", "p_not_battle_shocked", "shock_test"]


def shock_test(effects: Iterable[Effect]) -> ShockTest:
    """A Battle-shock test as these effects change it (each through its kind's ``shock`` hook;
    a kind without one changes no Battle-shock test).

    >>> dg = death_guard()
    >>> shock_test([*dg.abilities["scabrous-soulrot"].effects, *dg.stratagems["insane-bravery"].effects])
    ShockTest(worse=1, passed=True)
    """
    test = ShockTest()
    for e in effects:
        hook = KINDS[e.kind].shock
        if hook is not None:
            test = hook(test, e)
    return test


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
    test = shock_test(e for st in stratagems for e in st.effects)
    if test.passed:
        return Fraction(1)
    return battle_shock_test(
        leadership + test.worse + leadership_worsened(enemy_sickness, choices), choices=choices
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
    return shock_test(enemy_sickness.effects).worse
