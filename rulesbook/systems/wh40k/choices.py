"""The rule choices of Warhammer 40,000: the numbers the rules fix and the readings of the
interpretations register, each declared once.

TEMPORARY: plain frozen dataclasses until ``rulesbook.choices`` lands on main.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from rulesbook.dice import DiceExpr, parse_dice


@dataclass(frozen=True)
class Wh40kParameters:
    blast_models_per_attack: int = 5
    hit_modifier_cap: int = 1
    wound_modifier_cap: int = 1
    save_improvement_cap: int = 1
    critical_roll: int = 6
    heavy_hit_bonus: int = 1
    stealth_hit_penalty: int = 1
    overwatch_hit_roll: int = 6
    cover_save_bonus: int = 1
    cover_denied_save: int = 3
    battle_shock_dice: DiceExpr = field(default_factory=lambda: parse_dice("2D6"))
    desperate_escape_fails_up_to: int = 2
    hazardous_fails_up_to: int = 1
    hazardous_mortal_wounds: int = 3
    deadly_demise_roll: int = 6


@dataclass(frozen=True)
class Wh40kReadings:
    wound_table: Literal["published", "flat-4"] = "published"
    devastating_excess: Literal["lost", "spills"] = "lost"
    devastating_modifiers: Literal["apply", "ignore"] = "apply"
    save_cap: Literal["net", "improvements"] = "net"
    lethal_devastating: Literal["not-critical-wound", "critical-wound"] = "not-critical-wound"
    sustained_roll: Literal["per-critical-hit", "once-per-weapon"] = "per-critical-hit"
    twin_linked: Literal["failed", "non-critical"] = "failed"
    overwatch_criticals: Literal["sixes-only", "critical-threshold"] = "sixes-only"
    allocation: Literal["excess-lost", "excess-spills"] = "excess-lost"
    damage_minimum: Literal["min-1", "min-0"] = "min-1"
    published_abilities: Literal["published", "source-only"] = "published"
    torrent_overwatch: Literal["auto-hit", "sixes-only"] = "auto-hit"
    invuln_modifiers: Literal["other-modifiers-apply", "armour-only"] = "other-modifiers-apply"


@dataclass(frozen=True)
class Wh40kChoices:
    parameters: Wh40kParameters = Wh40kParameters()
    readings: Wh40kReadings = Wh40kReadings()

    def replace(
        self, parameters: dict[str, Any] | None = None, readings: dict[str, Any] | None = None
    ) -> Wh40kChoices:
        return Wh40kChoices(
            replace(self.parameters, **(parameters or {})), replace(self.readings, **(readings or {}))
        )


CHOICES = Wh40kChoices()
