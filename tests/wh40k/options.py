"""Test helper: a situation and rule choices from one flat set of fields, as the calculators'
inputs give them (situation fields and reading keys together)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from rulesbook.systems.wh40k.attack.rolls import Situation
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices

type Setup = tuple[Situation, Wh40kChoices]

_SITUATION = {f.name for f in fields(Situation)}


def choose(**values: Any) -> Setup:
    """``Situation`` fields go to the situation, the rest are readings."""
    situation = Situation(**{k: v for k, v in values.items() if k in _SITUATION})
    readings = {k: v for k, v in values.items() if k not in _SITUATION}
    return situation, CHOICES.replace(readings=readings)
