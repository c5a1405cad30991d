"""Army Morale (source ``000_64815101829fb6f5.txt``): values, the game-log ledger, Rally odds."""

from pathlib import Path

from rulesbook.registry import App, SystemPackage
from rulesbook.systems.army_morale.choices import CHOICES
from rulesbook.systems.army_morale.effects import ArmyMoraleAdditions

SYSTEM = SystemPackage(
    data=Path(__file__).with_name("rules.yaml"),
    choices=CHOICES,
    additions=ArmyMoraleAdditions,
    calculator_modules=("rulesbook.systems.army_morale.calculators",),
    apps=(
        App(
            name="army-morale-tracker",
            title="Army Morale tracker",
            summary="Record a game's events and Rally phases; the ledger applies the Army Morale rules, "
            "keeps the game across reloads, lists the saved games (and links your last one) and exports "
            "or imports the log.",
            panel="widgets.army_morale.tracker:served_tracker",
            ipywidgets="widgets.army_morale.session:ipy_tracker",
            calculator="army-morale.replay",
        ),
    ),
    rosters="rulesbook.systems.army_morale.roster:ADAPTER",
)

__all__ = ["SYSTEM"]
