"""Army Morale (source ``000_64815101829fb6f5.txt``): values, the game-log ledger, Rally odds."""

from pathlib import Path

from rulesbook.registry import register_system_file

SYSTEM = register_system_file(Path(__file__).with_name("rules.yaml"))

from rulesbook.systems.army_morale import calculators, ledger, rules  # noqa: E402

__all__ = ["SYSTEM", "calculators", "ledger", "rules"]
