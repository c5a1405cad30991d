"""Warhammer 40,000 (10th edition) attack sequence (source ``004_7134931f915e24a0.txt``)."""

from pathlib import Path

from rulesbook.registry import register_system_file

SYSTEM = register_system_file(Path(__file__).with_name("rules.yaml"))

from rulesbook.systems.wh40k import calculators, data, roll_calculators, rules  # noqa: E402

__all__ = ["SYSTEM", "calculators", "data", "roll_calculators", "rules"]
