"""A unit's strength on the Leadership-based calculators: what a designer's weak-unit rule reads.

The published rules have no such modifier (``weak_unit_percent`` is 0), so these inputs change
no answer unless a variant sets one: "a unit below 25 % of its starting strength tests at −2"
is ``weak_unit_percent: 25`` and ``weak_unit_modifier: -2``, applied by every test that takes
Ld (:func:`~rulesbook.systems.scrollhammer.rules.strength_modifier`).

Example:
    >>> from rulesbook.systems.scrollhammer.choices import CHOICES
    >>> weak = CHOICES.replace(parameters={"weak_unit_percent": 25, "weak_unit_modifier": -2})
    >>> strength_lines((2, 10), weak)
    ['2 of 10 models left, below 25 % of the starting strength: Ld −2 (weak_unit_modifier).']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesbook.errors import InputError
from rulesbook.inputs import IntInput, optional
from rulesbook.systems.scrollhammer.choices import ScrollhammerChoices
from rulesbook.systems.scrollhammer.rules import Strength, strength_modifier

__all__ = ["STRENGTH_INPUTS", "check_strength", "strength_lines", "strength_of"]

STRENGTH_INPUTS = (
    optional(
        IntInput(
            key="models_left",
            label="Models left",
            help="The unit's models now, with starting_models: read only by a variant's weak-unit "
            "Leadership modifier (weak_unit_percent); none: not given.",
            minimum=0,
            maximum=500,
        )
    ),
    optional(
        IntInput(
            key="starting_models",
            label="Models at the start",
            help="The unit's models at the start of the battle (with models_left); none: not given.",
            minimum=1,
            maximum=500,
        )
    ),
)
"""The two optional inputs every Leadership-based calculator takes for a unit's strength."""


def strength_of(models_left: int | None, starting_models: int | None) -> Strength:
    """(models left, models at the start) from the two strength inputs, or None when they are
    not given (:func:`check_strength` has made sure both or neither are).

    >>> strength_of(3, 10), strength_of(None, None)
    ((3, 10), None)
    """
    return None if models_left is None or starting_models is None else (models_left, starting_models)


def check_strength(values: Mapping[str, Any], choices: object = None) -> None:
    """Both strength inputs or neither, and no more models left than at the start."""
    left, start = values.get("models_left"), values.get("starting_models")
    if (left is None) != (start is None):
        missing = "starting_models" if start is None else "models_left"
        raise InputError(missing, "give models_left and starting_models together, or neither")
    if left is not None and start is not None and left > start:
        raise InputError("models_left", f"at most starting_models ({start}), got {left}")


def strength_lines(strength: Strength, choices: ScrollhammerChoices) -> list[str]:
    """The explanation line of a weak unit's modifier (none when it does not apply)."""
    change = strength_modifier(strength, choices)
    if not change or strength is None:
        return []
    left, start = strength
    sign = "−" if change < 0 else "+"
    return [
        f"{left} of {start} models left, below {choices.parameters.weak_unit_percent} % of the starting "
        f"strength: Ld {sign}{abs(change)} (weak_unit_modifier)."
    ]
