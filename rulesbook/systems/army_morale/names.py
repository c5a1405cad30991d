"""How a game's detachments, War Engines and places are named for a player.

A player knows a War Engine by the name given in the army list, not by the ID the tracker made
from it (``stompa-2``), and a place in the game by turn and event, not by a line of the server's
copy of the game. Two entries of one name on a side are numbered in list order, in the
tracker's drop-downs and in every message and ledger note alike.

Example:
    >>> from rulesbook.systems.army_morale.log import Army, Detachment, GameLog, WarEngine
    >>> stompas = (WarEngine("stompa-1", 120, 6, name="Stompa"), WarEngine("stompa-2", 120, 6, name="Stompa"))
    >>> log = GameLog((Army("A"), Army("B", (Detachment("big", 240, 12, "damage-capacity", war_engines=stompas),))))
    >>> war_engine_names(log)
    {'stompa-1': 'Stompa (1)', 'stompa-2': 'Stompa (2)'}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rulesbook.errors import quote
from rulesbook.systems.army_morale.log import GameLog, Loc, WarEngine, path_in_words

__all__ = ["Naming", "detachment_names", "numbered", "war_engine_names"]


def numbered(names: Sequence[str]) -> tuple[str, ...]:
    """The names of a list made distinct for a player: a name given more than once gets its
    number among its namesakes, in list order.

    >>> numbered(["Stompa", "Boyz", "Stompa"])
    ('Stompa (1)', 'Boyz', 'Stompa (2)')
    """
    counts = Counter(names)
    seen: Counter[str] = Counter()
    out = []
    for name in names:
        seen[name] += 1
        out.append(f"{name} ({seen[name]})" if counts[name] > 1 else name)
    return tuple(out)


def detachment_names(log: GameLog) -> dict[str, str]:
    """Detachment ID -> the name a player reads: its name (its ID if it has none), numbered when
    a side has two of that name."""
    out: dict[str, str] = {}
    for army in log.armies:
        dets = army.detachments
        out.update(zip((d.id for d in dets), numbered([d.label for d in dets]), strict=True))
    return out


def war_engine_names(log: GameLog) -> dict[str, str]:
    """War Engine ID -> the name a player reads: its name (its ID if it has none), numbered when
    a side has two of that name (``Stompa (1)``, ``Stompa (2)``)."""
    out: dict[str, str] = {}
    for army in log.armies:
        engines = [w for d in army.detachments for w in d.war_engines]
        out.update(zip((w.id for w in engines), numbered([w.name or w.id for w in engines]), strict=True))
    return out


class Naming:
    """The names a replay's messages and notes use for one log. ``in_words``: a place is said in
    a player's words (``turn 1, second event``), never as a line of the file the log was read
    from — the tracker's replay, whose log is the server's copy of the game.

    >>> from rulesbook.systems.army_morale.log import Army
    >>> Naming(GameLog((Army("A"), Army("B"))), in_words=True).where(Loc(79, "turns[0].events[1]"))
    'turn 1, second event'
    """

    def __init__(self, log: GameLog, in_words: bool = False) -> None:
        self.in_words = in_words
        self.engines = war_engine_names(log)
        self.detachments = detachment_names(log)

    def where(self, at: Loc) -> str:
        """An earlier entry named in a message."""
        if self.in_words:
            return path_in_words(at.path) or "an earlier entry"
        return at.short

    def prefix(self, at: Loc, source: str) -> str:
        """Where a refused entry is: the file and line (``game.yaml line 12 (turns[0])``), or in words."""
        if self.in_words:
            return path_in_words(at.path) or "this entry"
        return f"{source} {at}" if source else str(at)

    def engine(self, we: WarEngine) -> str:
        """A War Engine in a message: its name (``Stompa (2)`` when its side has two Stompas), or
        the quoted ID a log gave one without a name."""
        return self.engines[we.id] if we.name else quote(we.id)

    def engine_name(self, we: WarEngine) -> str:
        """A War Engine in a ledger note: its name (numbered as in :meth:`engine`), else its ID."""
        return self.engines[we.id]
