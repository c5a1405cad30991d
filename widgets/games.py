"""Where the served tracker keeps each game: one YAML game log per game id, on the server.

The tracker page carries its game in the URL (``/app/army-morale-tracker?game=<id>``, given
when the page opens); from the game's first change on, the whole log is written after every
change, in the documented YAML log format, to ``<games dir>/<id>.yaml`` (a page opened and left
alone writes nothing: reloaded, it is the same blank page). A reload, a browser restart or a
server restart opens the same URL and reads the game back. The directory is
``$RULESBOOK_GAMES_DIR``, else ``~/.rulesbook/games``. A game id is generated, never a path:
anything but 8–40 letters, digits, ``-`` or ``_`` is refused, so a URL cannot name another file.

**One truth per game.** The file is the game: every page showing it (tabs, phones, server
processes) reads it, and every change goes through :meth:`GameStore.change`, which holds an
exclusive lock on ``<games dir>/.lock`` (``fcntl.flock``: it works across the processes of
``rulesbook serve --processes N`` and between threads), reads the latest text, lets the caller
build the new text from it, and writes that. The caller compares the latest text's
:func:`version` with the version its page showed, so a stale page never overwrites a newer game
(it is told, or its change is applied to the latest version). Every write goes to a temporary
file of a unique name in the same folder, then ``os.replace`` puts it in place in one step; a
write that fails (a full disk) removes its temporary file and raises :class:`SaveError` with a
one-line reason, and the game's file stays as it was.

>>> import tempfile
>>> store = GameStore(tempfile.mkdtemp())
>>> game = store.new_id()
>>> store.save(game, "armies: []\\n")
>>> store.read(game)
'armies: []\\n'
>>> store.change(game, lambda text: (text or "") + "# played\\n")
'armies: []\\n# played\\n'
>>> version(store.read(game)) == version('armies: []\\n# played\\n')
True
>>> store.read("../../etc/passwd") is None
True
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import re
import secrets
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from rulesbook.data import LIMITS, DataFileError, read_text

__all__ = ["MAX_LOG_BYTES", "ArmyLists", "GameStore", "SaveError", "games_dir", "save_reason", "version"]

MAX_LOG_BYTES = LIMITS.max_bytes
"""The largest game log the web tracker accepts (upload or stored): the loader's limit."""

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")


def games_dir() -> Path:
    """``$RULESBOOK_GAMES_DIR`` or ``~/.rulesbook/games``."""
    env = os.environ.get("RULESBOOK_GAMES_DIR")
    return Path(env) if env else Path.home() / ".rulesbook" / "games"


def version(text: str | None) -> str:
    """The version tag of a stored game's text ("" for no game yet): a hash of the text, so two
    processes agree on it without sharing anything but the file.

    >>> version(None), version("a") == version("a"), version("a") == version("b")
    ('', True, False)
    """
    return "" if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class SaveError(Exception):
    """A game could not be written; ``str()`` is the one-line reason (``not saved: disk full``)."""


_REASONS = {
    errno.ENOSPC: "disk full",
    errno.EDQUOT: "disk quota exceeded",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "read-only file system",
}


def save_reason(exc: OSError) -> str:
    """The one-line message of a failed write.

    >>> save_reason(OSError(errno.ENOSPC, "No space left on device"))
    'not saved: disk full'
    """
    reason = _REASONS.get(exc.errno or 0) or (os.strerror(exc.errno) if exc.errno else str(exc))
    return f"not saved: {reason[:1].lower()}{reason[1:]}"


class GameStore:
    """Game logs by game id under one directory (each change under a lock, written atomically)."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else games_dir()

    @staticmethod
    def valid(game: str | None) -> bool:
        """True for a well-formed game id."""
        return bool(game) and _GAME_ID.fullmatch(str(game)) is not None

    def new_id(self) -> str:
        """A fresh random game id."""
        return secrets.token_urlsafe(12)

    def path(self, game: str) -> Path:
        """The file of ``game`` (a valid id)."""
        return self.root / f"{game}.yaml"

    def read(self, game: str | None) -> str | None:
        """The stored log text of ``game``, or None (unknown or malformed id, unreadable, too
        large: read by the one loader, :func:`rulesbook.data.read_text`)."""
        if not self.valid(game):
            return None
        try:
            return read_text(self.root / f"{game}.yaml")
        except DataFileError:
            return None

    def stamp(self, game: str) -> tuple[int, int, int] | None:
        """A cheap sign of the file's state (inode, size, change time), None if absent: a page
        polls it and reads the game again only when it moved."""
        try:
            s = self.path(game).stat()
        except (OSError, ValueError):
            return None
        return (s.st_ino, s.st_size, s.st_mtime_ns)

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

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's exclusive lock (``fcntl.flock`` on ``<root>/.lock``): one change at a
        time, across threads and the server's processes (SaveError if the lock cannot be had)."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.root / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise SaveError(save_reason(exc)) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # (closing releases the lock)

    def _write(self, game: str, text: str) -> None:
        """Write under the lock: a uniquely named temporary file, then ``os.replace``."""
        if not self.valid(game):
            raise ValueError(f"game: {game!r} is not a game id")
        tmp = ""
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{game}.", suffix=".tmp", dir=self.root)
            with os.fdopen(fd, "wb") as f:
                f.write(text.encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path(game))
        except OSError as exc:
            if tmp:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            raise SaveError(save_reason(exc)) from exc

    def save(self, game: str, text: str) -> None:
        """Write ``text`` as the log of ``game`` whatever it held (SaveError if it cannot)."""
        if not self.valid(game):
            raise ValueError(f"game: {game!r} is not a game id")
        with self.locked():
            self._write(game, text)

    def change(self, game: str, edit: Callable[[str | None], str]) -> str:
        """Apply ``edit`` to the latest stored text of ``game`` (None if there is none) and store
        what it returns, all under the lock; returns the stored text. Whatever ``edit`` raises
        leaves the game as it was; SaveError when the write fails."""
        if not self.valid(game):
            raise ValueError(f"game: {game!r} is not a game id")
        with self.locked():
            current = self.read(game)
            text = edit(current)
            if text != current:
                self._write(game, text)
            return text


_LIST_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


class ArmyLists(GameStore):
    """Saved army lists, beside the games: ``<games dir>/armies/<name>.yaml``, one army each (its
    name and detachments, in the game log's army schema), written the same way as games.

    >>> import tempfile
    >>> lists = ArmyLists(tempfile.mkdtemp())
    >>> lists.save("ork-horde", "name: Ork horde\\ndetachments: []\\n")
    >>> lists.names(), lists.valid("../games/x")
    (['ork-horde'], False)
    """

    def __init__(self, root: str | Path | None = None) -> None:
        super().__init__(Path(root) if root is not None else games_dir() / "armies")

    @staticmethod
    def valid(game: str | None) -> bool:
        """True for a well-formed list name (lower-case letters, digits and ``-``)."""
        return bool(game) and _LIST_NAME.fullmatch(str(game)) is not None

    def names(self) -> list[str]:
        """The saved lists' names, alphabetically."""
        if not self.root.is_dir():
            return []
        return sorted(p.stem for p in self.root.glob("*.yaml") if self.valid(p.stem))
