"""Army Morale (source ``000_64815101829fb6f5.txt``): values, the game-log ledger, Rally odds."""

from pathlib import Path

from rulesbook.registry import SystemPackage
from rulesbook.systems.army_morale.choices import CHOICES

SYSTEM = SystemPackage(
    data=Path(__file__).with_name("rules.yaml"),
    choices=CHOICES,
    calculator_modules=("rulesbook.systems.army_morale.calculators",),
)

__all__ = ["SYSTEM"]
