"""What a declared effect is: one :class:`Effect` (a kind, its value and the conditions it
applies under) and the words its fields may use. The kinds themselves — what each value may be,
how it changes an attack or a Battle-shock test, how it is worded and which rule texts say it —
are declared once each in :mod:`~rulesbook.systems.wh40k.effects.kinds`.

Example:
    >>> Effect(kind="hit-modifier", value=-1, condition="damaged").affects
    'own'
    >>> "army-contagion" in RANGES and "unit-infected" in CONDITIONS
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

__all__ = [
    "ATTACK_KINDS",
    "CHARACTERISTIC_NAMES",
    "CONDITIONS",
    "EFFECT_FIELDS",
    "PHASES",
    "PHASE_ALIASES",
    "RANGES",
    "Effect",
]

PHASES = (
    "declare-battle-formations",
    "your-command",
    "your-movement",
    "your-shooting",
    "your-charge",
    "opponent-command",
    "opponent-movement",
    "opponent-shooting",
    "opponent-charge",
    "fight",
    "any",
)
"""Phases an effect may be scoped to, seen from the side that uses it (the Fight phase belongs
to both players)."""

PHASE_ALIASES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "command": ("your-command", "opponent-command"),
        "movement": ("your-movement", "opponent-movement"),
        "shooting": ("your-shooting", "opponent-shooting"),
        "charge": ("your-charge", "opponent-charge"),
    }
)
"""A phase of either player, as a designer may write it (``shooting``: yours or the opponent's)."""

ATTACK_KINDS = ("ranged", "melee", "any")


CHARACTERISTIC_NAMES = ("toughness", "save", "skill", "leadership", "objective-control")
"""Characteristics a ``worsen`` effect may name (``skill`` is BS and WS)."""

CONDITIONS = ("infected", "not-infected", "unit-infected", "unit-not-infected", "damaged")
"""Situations an effect may depend on: an Infected objective marker of Spread the Sickness has
the target in its Contagion Range (or not), the unit using the rule stands in range of one (or
not), the model has lost enough wounds to be Damaged."""

RANGES = ("contagion", "army-contagion")
"""Reaches an effect may name besides inches: the Contagion Range of the unit (``contagion``)
or of any one unit of the army, as when a Stratagem's targets are chosen (``army-contagion``:
register entry boilblight-reach)."""


@dataclass(frozen=True, slots=True)
class Effect:
    """One declared change to the numbers (its kinds: :data:`~rulesbook.systems.wh40k.effects.kinds.KINDS`).

    ``affects`` says whose units change: ``own`` (the unit, or friendly units in the aura) or
    ``enemy`` (enemy units within ``range``). ``range`` is inches, ``"contagion"`` (the Contagion
    Range of the battle round), ``"army-contagion"`` (that of any unit of the army: see
    :data:`RANGES`) or ``None`` (the unit itself). ``phases`` and ``attack`` scope the
    effect; ``keywords`` restrict the units it reaches (all of them needed); ``condition`` names a
    situation it needs (:data:`CONDITIONS`); ``register`` the interpretation that explains a
    ``none`` effect or a reading it depends on. ``target_keywords`` (all needed by the unit
    attacked), ``battle_rounds`` (empty: every round) and ``within`` (the two units at most that
    many inches apart) are further conditions (:func:`~rulesbook.systems.wh40k.effects.scope.out_of_scope`).
    """

    kind: str
    value: int | str | None = None
    affects: Literal["own", "enemy"] = "own"
    phases: tuple[str, ...] = ("any",)
    attack: str = "any"
    range: int | str | None = None
    keywords: tuple[str, ...] = ()
    condition: str | None = None
    characteristic: str | None = None
    register: str | None = None
    note: str = ""
    target_keywords: tuple[str, ...] = ()
    battle_rounds: tuple[int, ...] = ()
    within: int | None = None


EFFECT_FIELDS = (
    "kind",
    "value",
    "affects",
    "phases",
    "attack",
    "range",
    "keywords",
    "condition",
    "characteristic",
    "register",
    "note",
    "target_keywords",
    "battle_rounds",
    "within",
)
"""The fields an effect may have (docs/designer/effects.md says what each means)."""
