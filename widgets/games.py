"""Where the served tracker keeps each game: one YAML game log per game id, on the server.

The tracker page carries its game in the URL (``/app/army-morale-tracker?game=<id>``, given
when the page opens); from the game's first change on, the whole log is written after every
change, in the documented YAML log format, to ``<games dir>/<id>.yaml`` (a page opened and left
alone writes nothing: reloaded, it is the same blank page). A reload, a browser restart or a server restart opens the same URL
and reads the game back. The directory is ``$RULESBOOK_GAMES_DIR``, else ``~/.rulesbook/games``.
A game id is generated, never a path: anything but 8–40 letters, digits, ``-`` or ``_`` is
refused, so a URL cannot name another file.

>>> import tempfile
>>> store = GameStore(tempfile.mkdtemp())
>>> game = store.new_id()
>>> store.save(game, "armies: []\\n")
>>> store.read(game)
'armies: []\\n'
>>> store.read("../../etc/passwd") is None
True
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from rulesbook.data import LIMITS, DataFileError, read_text

__all__ = ["MAX_LOG_BYTES", "GameStore", "games_dir"]

MAX_LOG_BYTES = LIMITS.max_bytes
"""The largest game log the web tracker accepts (upload or stored): the loader's limit."""

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")


def games_dir() -> Path:
    """``$RULESBOOK_GAMES_DIR`` or ``~/.rulesbook/games``."""
    env = os.environ.get("RULESBOOK_GAMES_DIR")
    return Path(env) if env else Path.home() / ".rulesbook" / "games"


class GameStore:
    """Game logs by game id under one directory (written atomically)."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else games_dir()

    @staticmethod
    def valid(game: str | None) -> bool:
        """True for a well-formed game id."""
        return bool(game) and _GAME_ID.fullmatch(str(game)) is not None

    def new_id(self) -> str:
        """A fresh random game id."""
        return secrets.token_urlsafe(12)

    def read(self, game: str | None) -> str | None:
        """The stored log text of ``game``, or None (unknown or malformed id, unreadable, too
        large: read by the one loader, :func:`rulesbook.data.read_text`)."""
        if not self.valid(game):
            return None
        try:
            return read_text(self.root / f"{game}.yaml")
        except DataFileError:
            return None

    def exists(self, game: str) -> bool:
        """True if a file of ``game`` is stored (readable or not)."""
        return self.valid(game) and (self.root / f"{game}.yaml").exists()

    def recent(self, limit: int = 200) -> list[tuple[str, os.stat_result]]:
        """The stored games, newest change first (at most ``limit``): game id and file status.

        >>> import tempfile, os, time
        >>> store = GameStore(tempfile.mkdtemp())
        >>> for game in ("first-game", "second-game"):
        ...     store.save(game, "armies: []\\n")
        ...     os.utime(store.root / f"{game}.yaml", (time.time(), time.time() + len(game)))
        >>> [game for game, _ in store.recent()]
        ['second-game', 'first-game']
        """
        if not self.root.is_dir():
            return []
        found = []
        for path in self.root.glob("*.yaml"):
            if not self.valid(path.stem):
                continue
            try:
                status = path.stat()
            except OSError:  # removed meanwhile
                continue
            found.append((path.stem, status))
        found.sort(key=lambda item: (item[1].st_mtime_ns, item[0]), reverse=True)
        return found[:limit]

    def save(self, game: str, text: str) -> None:
        """Write ``text`` as the log of ``game`` (replacing the file in one step)."""
        if not self.valid(game):
            raise ValueError(f"game: {game!r} is not a game id")
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self.root / f".{game}.yaml.tmp"
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(self.root / f"{game}.yaml")
