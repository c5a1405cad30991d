"""WarStrike, The Starting Phase, designer's draft Ver. 0.52 (source ``002_debc3bc03be072a4.txt``)."""

from pathlib import Path

from rulesbook.registry import SystemPackage

SYSTEM = SystemPackage(
    data=Path(__file__).with_name("rules.yaml"),
    calculator_modules=("rulesbook.systems.warstrike.calculators",),
)

__all__ = ["SYSTEM"]
