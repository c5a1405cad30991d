"""WarStrike, The Starting Phase, designer's draft Ver. 0.52 (source ``002_debc3bc03be072a4.txt``)."""

from pathlib import Path

from rulesbook.registry import SystemPackage
from rulesbook.systems.warstrike.choices import CHOICES
from rulesbook.systems.warstrike.rules import MECHANICS

SYSTEM = SystemPackage(
    data=Path(__file__).with_name("rules.yaml"),
    choices=CHOICES,
    mechanics=MECHANICS,
    calculator_modules=(
        "rulesbook.systems.warstrike.calculators",
        "rulesbook.systems.warstrike.phase_calculator",
    ),
)

__all__ = ["SYSTEM"]
