"""WarStrike, The Starting Phase, designer's draft Ver. 0.52 (source ``002_debc3bc03be072a4.txt``)."""

from pathlib import Path

from rulesbook.registry import register_system_file

SYSTEM = register_system_file(Path(__file__).with_name("rules.yaml"))

from rulesbook.systems.warstrike import calculators, missions, rules, versions  # noqa: E402

__all__ = ["SYSTEM", "calculators", "missions", "rules", "versions"]
