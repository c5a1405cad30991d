"""The objectives a scenario sets for each side, declared in the game log before play.

The source lists five standard objectives with Army Morale effects (Army Morale, "Morale:
Objectives"): Take & Hold, Rescue, Cleanse, Bunker and Capture. Three of them pay out per
objective the side controls at the end of the Rally phase (Take & Hold: D3 each; Cleanse: +1
each; Capture: a D6 each), and a Bunker pays once, when the side destroys one of its bunkers.
Rescue counts escort *units*, not objectives, so it is not declared here.

An army may declare how many of each objective it has (and its bunkers by name); the tracker
then refuses a Rally report that claims more objectives than the side has, and a bunker that
is not one of the side's (see :func:`rulesbook.systems.army_morale.setup.check_objectives`).
An army that declares nothing is not checked (logs written before this existed).

Example:
    >>> Objectives(take_and_hold=2, bunkers=("north", "south")).summary()
    '2 Take & Hold, 0 Cleanse, 0 Capture, bunkers north, south'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["OBJECTIVE_COUNTS", "Objectives"]

OBJECTIVE_COUNTS: tuple[tuple[str, str], ...] = (
    ("take_and_hold", "Take & Hold"),
    ("cleanse", "Cleanse"),
    ("capture", "Capture"),
)
"""The objectives declared by their number: key and name."""


@dataclass(frozen=True, slots=True)
class Objectives:
    """One side's objectives: how many Take & Hold, Cleanse and Capture, and its bunkers' names."""

    take_and_hold: int = 0
    cleanse: int = 0
    capture: int = 0
    bunkers: tuple[str, ...] = ()

    def count(self, key: str) -> int:
        """The number of objectives ``key`` (one of :data:`OBJECTIVE_COUNTS`)."""
        return int(getattr(self, key))

    def summary(self) -> str:
        """The objectives in words."""
        parts = [f"{self.count(key)} {name}" for key, name in OBJECTIVE_COUNTS]
        parts.append(f"bunkers {', '.join(self.bunkers)}" if self.bunkers else "no bunkers")
        return ", ".join(parts)
