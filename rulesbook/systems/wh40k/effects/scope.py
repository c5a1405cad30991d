"""The conditions every declared effect may carry, checked and worded in one place: the phase
(seen from the side that uses the rule), the attack kind, the keywords of the unit it reaches
and of the target, the battle round and the distance between the units
(:func:`out_of_scope`; on a Battle-shock test :func:`shock_out_of_scope`), and the same
conditions in words (:func:`scope_text`). What a kind
changes, and whose numbers it may change, is the kind's own (:mod:`~rulesbook.systems.wh40k.effects.kinds`).

Example:
    >>> scope_text(Effect(kind="ap", value=1, affects="enemy", range="contagion", phases=("fight",)))
    'enemy units; within Contagion Range; phase: fight'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from rulesbook.registry import implements
from rulesbook.systems.wh40k.effects.effect import Effect

__all__ = ["Scene", "out_of_scope", "scope_text", "shock_out_of_scope"]


@dataclass(frozen=True, slots=True)
class Scene:
    """What the conditions of an effect are checked against: the attack's phases seen from the
    side that uses the rule, ranged or melee, the battle round, the distance between the units
    (``None``: not given), and the keywords of the attacking unit's target (``None``: not
    given)."""

    phases: frozenset[str]
    ranged: bool
    battle_round: int
    distance: int | None
    target_has: Callable[[str], bool] | None = field(default=None, compare=False)
    unstated_applies: bool = False
    """An effect needing target keywords applies when they are not given (reading
    unstated-target-keywords = applies)."""


@implements("wh40k.core.declared-effects")
def out_of_scope(e: Effect, scene: Scene, unit_has: Callable[[str], bool]) -> str:
    """Why the effect does not apply in this attack ("" when its conditions hold): its phases,
    attack kind, the keywords of the unit it reaches, the target's keywords, the battle round
    and the distance between the units.

    >>> s = Scene(frozenset({"your-shooting"}), True, 1, None, lambda k: k == "VEHICLE")
    >>> out_of_scope(Effect(kind="ap", value=1, target_keywords=("MONSTER",)), s, lambda k: True)
    'reaches only targets with MONSTER'
    >>> out_of_scope(Effect(kind="ap", value=1, battle_rounds=(2, 3)), s, lambda k: True)
    'battle round 2/3 only, and this is battle round 1'
    """
    if "any" not in e.phases and not scene.phases & set(e.phases):
        return f"a {'/'.join(e.phases)} phase effect, but this attack is in {'/'.join(sorted(scene.phases))}"
    if e.attack == "ranged" and not scene.ranged:
        return "ranged attacks only, and this is a melee attack"
    if e.attack == "melee" and scene.ranged:
        return "melee attacks only, and this is a ranged attack"
    if e.affects == "own" and e.keywords and not all(unit_has(k) for k in e.keywords):
        return f"reaches only units with {', '.join(e.keywords)}"
    if e.target_keywords:
        wanted = ", ".join(e.target_keywords)
        if scene.target_has is None:
            if not scene.unstated_applies:  # register entry unstated-target-keywords
                return f"reaches only targets with {wanted}, and the target's keywords are not given"
        elif not all(scene.target_has(k) for k in e.target_keywords):
            return f"reaches only targets with {wanted}"
    if e.battle_rounds and scene.battle_round not in e.battle_rounds:
        rounds = "/".join(str(r) for r in e.battle_rounds)
        return f"battle round {rounds} only, and this is battle round {scene.battle_round}"
    if e.within is not None:
        if scene.distance is None:
            return f'the units must be within {e.within}", and no distance is given'
        if scene.distance > e.within:
            return f'the units must be within {e.within}", and they are {scene.distance}" apart'
    return ""


@implements("wh40k.core.declared-effects", "wh40k.core.battle-shock")
def shock_out_of_scope(e: Effect, rule_of: Literal["own", "enemy"], any_phase: bool = False) -> str:
    """Why the effect does not act on a Battle-shock test ("" when it does), for a rule of the
    tested unit's own army (``own``) or of the enemy's (``enemy``): the test is taken in its
    owner's Command phase (``your-command`` seen from its own army, ``opponent-command`` from
    the enemy's), it is no attack, and the effect must reach that unit. A calculator of one test
    knows no keywords, battle round, distance or situation: an effect that needs one is left out
    and says so (``range`` is the input's to assert: an enemy Sickness "in range"). ``any_phase``:
    the test may be taken in any phase, so no phase scope leaves an effect out (register entry
    battle-shock-phase).

    >>> shock_out_of_scope(Effect(kind="battle-shock-modifier", value=1, phases=("your-command",)), "own")
    ''
    >>> shock_out_of_scope(Effect(kind="battle-shock-modifier", value=-1, affects="enemy"), "own")
    'reaches enemy units, not the unit tested'
    >>> shock_out_of_scope(Effect(kind="battle-shock-modifier", value=1, phases=("your-shooting",)), "own")
    'a your-shooting phase effect, and Battle-shock tests are taken in the Command phase'
    """
    phase = "your-command" if rule_of == "own" else "opponent-command"
    if not any_phase and "any" not in e.phases and phase not in e.phases:
        return f"a {'/'.join(e.phases)} phase effect, and Battle-shock tests are taken in the Command phase"
    if e.attack != "any" or e.target_keywords:
        return "acts on attacks only, not on a test"
    if e.affects != rule_of:
        return (
            "reaches enemy units, not the unit tested"
            if e.affects == "enemy"
            else "reaches its own army's units"
        )
    needs = [
        (
            bool(e.keywords) and e.affects == "own",
            f"units with {', '.join(e.keywords)}",
            "the unit's keywords",
        ),
        (bool(e.battle_rounds), "a battle round", "the battle round"),
        (e.within is not None, f'units within {e.within}"', "the distance"),
        (e.condition is not None, f"only when {e.condition}", "that situation"),
    ]
    for needed, what, unknown in needs:
        if needed:
            return f"needs {what}, and a Battle-shock calculator is not given {unknown}"
    return ""


def scope_text(effect: Effect) -> str:
    """Whose units an effect reaches and the conditions it needs, in words (the part of
    :func:`~rulesbook.systems.wh40k.effects.kinds.describe_effect` every kind shares)."""
    scope = ["own unit" if effect.affects == "own" else "enemy units"]
    if isinstance(effect.range, int):
        scope.append(f'within {effect.range}"')
    elif effect.range == "army-contagion":
        scope.append("within Contagion Range of a unit of the army")
    elif effect.range is not None:
        scope.append("within Contagion Range")
    if effect.keywords:
        scope.append("with " + ", ".join(effect.keywords))
    if effect.phases != ("any",):
        scope.append("phase: " + ", ".join(effect.phases))
    if effect.attack != "any":
        scope.append(f"{effect.attack} attacks only")
    if effect.target_keywords:
        scope.append(f"against {', '.join(effect.target_keywords)} targets")
    if effect.battle_rounds:
        scope.append("battle round " + "/".join(str(r) for r in effect.battle_rounds))
    if effect.within is not None:
        scope.append(f'units within {effect.within}" of each other')
    if effect.condition:
        scope.append(f"only when {effect.condition}")
    if effect.note:
        scope.append(effect.note)
    return "; ".join(scope)
