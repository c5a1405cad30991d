"""A replayed game as values: the ledger's entries and the :class:`Ledger` the replay returns.

:func:`~rulesbook.systems.army_morale.replay.replay` builds them; the command line, the
calculators and the tracker read them.

Example:
    >>> entry = LedgerEntry(1, "battle", 0, "b", -3, 7, 4, "army-morale.one-time.bunker", "bunker destroyed")
    >>> entry.row()
    (1, 'battle', None, 'b', '-3', 7, 4, 'army-morale.one-time.bunker', 'bunker destroyed')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from rulesbook.results import Column
from rulesbook.systems.army_morale.log import GameLog
from rulesbook.systems.army_morale.rules import SIDES, Side, Verdict

__all__ = ["LEDGER_COLUMNS", "LEDGER_LABELS", "Ledger", "LedgerEntry", "Phase"]

type Phase = Literal["setup", "battle", "rally", "end"]


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One line of the audit trail: a change to one side's value and both values after it."""

    turn: int
    phase: Phase
    line: int
    side: Side | None
    change: int
    a: int
    b: int
    rule: str
    note: str
    roll: int | None = None

    def row(self) -> tuple[Any, ...]:
        """The entry as a table row (see :data:`LEDGER_COLUMNS`)."""
        change = "" if self.side is None else f"{self.change:+d}"
        return (
            self.turn,
            self.phase,
            self.line or None,
            self.side or "",
            change,
            self.a,
            self.b,
            self.rule,
            self.note,
        )


LEDGER_COLUMNS = ("turn", "phase", "line", "side", "change", "a", "b", "rule", "note")
LEDGER_LABELS = (
    Column("turn", "Turn"),
    Column("phase", "Phase"),
    Column("line", "Log line"),
    Column("side", "Side"),
    Column("change", "Change"),
    Column("a", "Side a"),
    Column("b", "Side b"),
    Column("rule", "Rule"),
    Column("note", "What happened"),
)
"""What the ledger's columns read on screen (the keys stay :data:`LEDGER_COLUMNS`)."""


@dataclass(frozen=True, slots=True)
class Ledger:
    """A replayed game log: every change with its rule, the values after each Rally phase,
    the result and warnings for the players."""

    log: GameLog
    entries: tuple[LedgerEntry, ...]
    start: tuple[int, int]
    rally_values: tuple[tuple[int, int, int, Verdict], ...]
    verdict: Verdict
    ended_turn: int | None
    warnings: tuple[str, ...]
    detachment_morale: tuple[tuple[str, int], ...]

    @property
    def values(self) -> tuple[int, int]:
        """Both current Army Morale values (after the last entry)."""
        if not self.entries:
            return self.start
        return self.entries[-1].a, self.entries[-1].b

    @property
    def winner_text(self) -> str:
        """The result in words."""
        names = {s: self.log.army(s).name for s in SIDES}
        match self.verdict:
            case "a" | "b":
                return (
                    f"{names[self.verdict]} (side {self.verdict}) wins at the end of turn {self.ended_turn}"
                )
            case "draw":
                return f"draw at the end of turn {self.ended_turn}"
            case "both-lose":
                return f"both sides lose at the end of turn {self.ended_turn}"
        return "the game goes on"
