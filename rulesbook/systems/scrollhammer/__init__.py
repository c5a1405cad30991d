"""Scrollhammer, Morale section (source ``003_2d0ecba8f37ef4b8.txt``)."""

from pathlib import Path

from rulesbook.registry import register_system_file

SYSTEM = register_system_file(Path(__file__).with_name("rules.yaml"))

from rulesbook.systems.scrollhammer import calculators, fall_back, fall_back_calculators, rules  # noqa: E402

__all__ = ["SYSTEM", "calculators", "fall_back", "fall_back_calculators", "rules"]
