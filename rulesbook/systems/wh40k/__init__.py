"""Warhammer 40,000 (10th edition) attack sequence (source ``004_7134931f915e24a0.txt``)."""

from pathlib import Path

from rulesbook.registry import SystemPackage
from rulesbook.systems.wh40k.attack.rolls import MECHANICS
from rulesbook.systems.wh40k.choices import CHOICES
from rulesbook.systems.wh40k.faction.additions import Wh40kAdditions
from rulesbook.systems.wh40k.faction.pages import (
    registered_faction_implementations,
    registered_faction_rules,
)

SYSTEM = SystemPackage(
    data=Path(__file__).with_name("rules.yaml"),
    choices=CHOICES,
    additions=Wh40kAdditions,
    mechanics=MECHANICS,
    calculator_modules=(
        "rulesbook.systems.wh40k.calculators.attack",
        "rulesbook.systems.wh40k.calculators.roll_tests",
        "rulesbook.systems.wh40k.calculators.moves",
        "rulesbook.systems.wh40k.calculators.morale",
        "rulesbook.systems.wh40k.calculators.datasheet",
        "rulesbook.systems.wh40k.calculators.grenade",
    ),
    extra_rules=registered_faction_rules,
    extra_implementations=registered_faction_implementations,
    rosters="rulesbook.systems.wh40k.lists.army:ADAPTER",
    commands=(("matchup", "rulesbook.systems.wh40k.commands:matchup_cmd"),),
)

__all__ = ["SYSTEM"]
