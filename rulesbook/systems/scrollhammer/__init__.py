"""Scrollhammer, Morale section (source ``003_2d0ecba8f37ef4b8.txt``)."""

from pathlib import Path

from rulesbook.registry import SystemPackage
from rulesbook.systems.scrollhammer.choices import CHOICES
from rulesbook.systems.scrollhammer.rules import MECHANICS

SYSTEM = SystemPackage(
    data=Path(__file__).with_name("rules.yaml"),
    choices=CHOICES,
    mechanics=MECHANICS,
    calculator_modules=(
        "rulesbook.systems.scrollhammer.calculators",
        "rulesbook.systems.scrollhammer.combat_calculators",
        "rulesbook.systems.scrollhammer.fall_back_calculators",
        "rulesbook.systems.scrollhammer.flight_calculators",
    ),
)

__all__ = ["SYSTEM"]
