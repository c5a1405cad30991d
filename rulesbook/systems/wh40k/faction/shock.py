"""Battle-shock tests under declared effects: a kind's ``shock`` hook
(:data:`~rulesbook.systems.wh40k.effects.kinds.KINDS`) changes the test — Leadership worsened
(Scabrous Soulrot, an enemy Sickness) or improved, a modifier to the roll, a failed test
re-rolled, the test passed (Insane Bravery in either version) — once the effect's conditions
hold for a test (:func:`~rulesbook.systems.wh40k.effects.scope.shock_out_of_scope`). The
Battle-shock calculators take the same things as inputs (``modifier``, ``reroll``, the
Sickness as ``enemy_sickness``) and the stratagems of the Death Guard page or a variant's
``add:`` as effects.

Example:
    >>> leadership_worsened("scabrous-soulrot"), p_not_battle_shocked(7)
    (1, Fraction(7, 12))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Literal

from rulesbook.registry import implements
from rulesbook.systems.wh40k.attack.rolls import battle_shock_test
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices
from rulesbook.systems.wh40k.effects.effect import Effect
from rulesbook.systems.wh40k.effects.kind import ShockTest
from rulesbook.systems.wh40k.effects.kinds import KINDS
from rulesbook.systems.wh40k.effects.scope import shock_out_of_scope
from rulesbook.systems.wh40k.faction.reader import death_guard
from rulesbook.systems.wh40k.faction.types import Ability, Stratagem

__all__ = ["SICKNESS_KEYS", "leadership_worsened", "p_not_battle_shocked", "p_pass", "shock_test"]


_BARE = ShockTest()
"""The test no effect has changed yet."""


@implements(
    "wh40k.core.battle-shock",
    "wh40k.death-guard.stratagem.insane-bravery",
    "wh40k.death-guard.stratagem.insane-bravery-boarding-actions",
)
def shock_test(
    effects: Iterable[Effect],
    rule_of: Literal["own", "enemy"] = "own",
    start: ShockTest = _BARE,
    name: str = "",
    choices: Wh40kChoices = CHOICES,
) -> ShockTest:
    """``start`` as these effects change it: each through its kind's ``shock`` hook when its
    conditions hold for a test of a unit (``rule_of``: the rule belongs to that unit's army, or
    to the enemy's; ``choices``: the reading battle-shock-phase); the record says what became of
    each (``name``: the rule's, shown first).

    >>> dg = death_guard()
    >>> shock_test([*dg.stratagems["insane-bravery"].effects]).passed
    True
    >>> t = shock_test([Effect(kind="battle-shock-modifier", value=1), Effect(kind="ap", value=1)], name="Drill")
    >>> t.modifier, [ok for _, ok, _ in t.record]
    (1, [True, False])
    >>> t.record[1]
    ('Drill: AP improved by 1 (own unit)', False, 'changes no Battle-shock test')
    """
    test = start
    for e in effects:
        kind = KINDS[e.kind]
        shown = f"{name}: {kind.words(e)}" if name else kind.words(e)
        why = shock_out_of_scope(e, rule_of, choices.readings.battle_shock_phase == "any-phase")
        changed = test if why or kind.shock is None else kind.shock(test, e)
        if not why and changed == test:
            why = "changes no Battle-shock test"
        test = replace(changed, record=(*changed.record, (shown, not why, why)))
    return test


def p_pass(test: ShockTest, leadership: int, choices: Wh40kChoices = CHOICES) -> Fraction:
    """The chance the test is passed: certain when an effect passes it, else the 2D6 test
    against ``leadership`` worsened by ``test.worse`` steps, with its modifier and re-roll.

    >>> p_pass(ShockTest(modifier=1, reroll=True), 7)   # 1 - (10/36)**2: a 2D6 of 2-5 fails twice
    Fraction(299, 324)
    """
    if test.passed:
        return Fraction(1)
    return battle_shock_test(leadership + test.worse, test.modifier, choices, reroll=test.reroll).p_pass()


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
    becomes 7+), changed by its own stratagems' effects (certain with an Insane Bravery, either
    version: before the roll, or after a failed one).

    >>> dg = death_guard()
    >>> p_not_battle_shocked(6), p_not_battle_shocked(6, enemy_sickness=dg.abilities["scabrous-soulrot"])
    (Fraction(13, 18), Fraction(7, 12))
    >>> p_not_battle_shocked(9, [dg.stratagems["insane-bravery-boarding-actions"]])
    Fraction(1, 1)
    """
    test = shock_test(enemy_sickness.effects if enemy_sickness else (), "enemy", choices=choices)
    for st in stratagems:
        test = shock_test(st.effects, "own", test, st.name, choices)
    return p_pass(test, leadership, choices)


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
    return shock_test(enemy_sickness.effects, "enemy", choices=choices).worse
