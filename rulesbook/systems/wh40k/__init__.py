"""Warhammer 40,000 (10th edition) attack sequence (source ``004_7134931f915e24a0.txt``)."""

from pathlib import Path

from rulesbook.registry import SystemPackage
from rulesbook.systems.wh40k.choices import CHOICES
from rulesbook.systems.wh40k.faction_rules import (
    registered_faction_implementations,
    registered_faction_rules,
)

SYSTEM = SystemPackage(
    data=Path(__file__).with_name("rules.yaml"),
    choices=CHOICES,
    calculator_modules=(
        "rulesbook.systems.wh40k.calculators",
        "rulesbook.systems.wh40k.roll_calculators",
        "rulesbook.systems.wh40k.moves",
        "rulesbook.systems.wh40k.morale",
        "rulesbook.systems.wh40k.datasheet_calculator",
        "rulesbook.systems.wh40k.grenade",
    ),
    extra_rules=registered_faction_rules,
    extra_implementations=registered_faction_implementations,
    rosters="rulesbook.systems.wh40k.roster:ADAPTER",
)

__all__ = ["SYSTEM"]
