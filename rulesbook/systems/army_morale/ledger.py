"""The Army Morale ledger: a game log replayed into both values, with an audit trail.

One import for the three parts (kept for existing callers):

* :mod:`~rulesbook.systems.army_morale.log` — the log as typed values and the declaration of
  every event kind;
* :mod:`~rulesbook.systems.army_morale.logfile` — its YAML/JSON file format (schema there);
* :mod:`~rulesbook.systems.army_morale.replay` — the replay into a :class:`Ledger`.

Example:
    >>> ledger = replay(load_log(EXAMPLE_LOG))
    >>> ledger.start, ledger.values, ledger.verdict, ledger.ended_turn
    ((14, 10), (3, -6), 'a', 3)
"""

from __future__ import annotations

from rulesbook.systems.army_morale.log import (
    EVENT_KINDS,
    EVENT_TYPES,
    EXAMPLE_LOG,
    LOG_FORMAT,
    Adjustment,
    Army,
    BunkerDestroyed,
    CaptureRoll,
    Detachment,
    DetachmentDestroyed,
    Event,
    EventKind,
    GameLog,
    HalfStrength,
    Loc,
    Losses,
    RallySide,
    Turn,
    WarEngine,
    WarEngineDestroyed,
)
from rulesbook.systems.army_morale.logfile import dump_log, load_log, log_from_text, log_to_data, log_to_text
from rulesbook.systems.army_morale.replay import LEDGER_COLUMNS, Ledger, LedgerEntry, replay

__all__ = [
    "EVENT_KINDS",
    "EVENT_TYPES",
    "EXAMPLE_LOG",
    "LEDGER_COLUMNS",
    "LOG_FORMAT",
    "Adjustment",
    "Army",
    "BunkerDestroyed",
    "CaptureRoll",
    "Detachment",
    "DetachmentDestroyed",
    "Event",
    "EventKind",
    "GameLog",
    "HalfStrength",
    "Ledger",
    "LedgerEntry",
    "Loc",
    "Losses",
    "RallySide",
    "Turn",
    "WarEngine",
    "WarEngineDestroyed",
    "dump_log",
    "load_log",
    "log_from_text",
    "log_to_data",
    "log_to_text",
    "replay",
]
