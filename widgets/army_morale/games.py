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
one-line reason, and the game's file stays as it was. A temporary file left by a write that was
killed half-way (a server stopped with ``kill -9``) is removed when the store is first used in a
process, under the same lock, so it can never be another write's file.

**Only what reads back is written.** The exact bytes about to be written are checked first
(:meth:`GameStore.storable`): at most :data:`MAX_LOG_BYTES`, and read back by the reader the page
will use to open them (the game log's, with every limit of :mod:`rulesbook.data`: 50,000 values in
all, 10,000 items in one list, …). What would not read back is refused with :class:`NotStorable`
(the game stays as it was), so "Saved" always means "stored, and it opens again".

**Never overwritten when unreadable.** :meth:`GameStore.load` tells a game that is not there
(``None``) from one whose file is there but does not read (:class:`Unreadable`, with the reason);
:meth:`GameStore.change` refuses to touch the latter, and the page opens it read-only.

>>> import tempfile
>>> from rulesbook.systems.army_morale.logfile import log_to_text
>>> from rulesbook.systems.army_morale.tracker import Tracker, event_from_form
>>> store = GameStore(tempfile.mkdtemp())
>>> game = store.new_id()
>>> store.save(game, log_to_text(Tracker.example().log))
>>> played = Tracker.example().add(event_from_form("bunker-destroyed", number=4))
>>> store.change(game, lambda text: log_to_text(played.log)) == store.read(game)
True
>>> store.change(game, lambda text: "turns: [" + "1, " * 10_001 + "]\\n")
Traceback (most recent call last):
...
widgets.army_morale.games.NotStorable: not saved: the game would be 30,013 bytes, but would not read back (this game line 1: a list or mapping of more than 10,000 items)
>>> version(store.read(game)) == version(log_to_text(played.log))
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
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from rulesbook.data import LIMITS, DataFileError, read_text
from rulesbook.errors import InputError
from rulesbook.systems.army_morale.logfile import army_from_text, log_from_text
from rulesbook.systems.army_morale.setup import slug

__all__ = [
    "DOWNLOAD_LIMIT",
    "MAX_LOG_BYTES",
    "ArmyLists",
    "GameStore",
    "NotStorable",
    "SaveError",
    "Unreadable",
    "games_dir",
    "save_reason",
    "version",
]

MAX_LOG_BYTES = LIMITS.max_bytes
"""The largest game log the web tracker accepts (upload or stored): the loader's limit."""

DOWNLOAD_LIMIT = 32 * 1024 * 1024
"""The largest stored file a page offers to download as it is (one that does not open)."""

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


class NotStorable(SaveError):
    """What was to be written is over the limits of what is read back (trying again does not
    help: the game stays as it was)."""


class Unreadable(SaveError):
    """A stored file is there but does not read (too large, not UTF-8, not a game log …): it is
    never overwritten. ``str()`` is the reason, ``reason`` the same."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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


def _reads_as_game(text: str) -> object:
    return log_from_text(text, "this game")


_CLEANED: set[Path] = set()
"""Folders whose temporary files left by killed writes were removed in this process."""


class GameStore:
    """Game logs by game id under one directory (each change under a lock, written atomically).

    ``reads`` is the reader a stored text must pass before it is written (see the module); it
    raises :class:`~rulesbook.errors.InputError` for a text that does not read back.
    """

    what = "game"
    """What one file holds, in messages."""

    def __init__(
        self, root: str | Path | None = None, *, reads: Callable[[str], object] = _reads_as_game
    ) -> None:
        self.root = Path(root) if root is not None else games_dir()
        self.reads = reads
        if self.root not in _CLEANED and self.root.is_dir():
            with contextlib.suppress(SaveError), self.locked():
                pass  # (the first hold of the lock removes what killed writes left)

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
        try:
            return self.load(game)
        except Unreadable:
            return None

    def load(self, game: str | None) -> str | None:
        """The stored text of ``game``; None when there is no such file (or no such id), and
        :class:`Unreadable` (with the reason) when the file is there but does not read.

        >>> import tempfile
        >>> store = GameStore(tempfile.mkdtemp())
        >>> _ = (store.root / "broken-game.yaml").write_bytes(b"\\xff")
        >>> store.load("broken-game")
        Traceback (most recent call last):
        ...
        widgets.army_morale.games.Unreadable: the file cannot be read (line 1: not UTF-8 text (byte 0xff))
        >>> store.load("no-such-game") is None
        True
        """
        if not self.valid(game):
            return None
        path = self.path(str(game))
        try:
            return read_text(path)
        except DataFileError as exc:
            if not os.path.lexists(path):
                return None
            where = f"line {exc.line}: " if exc.line is not None else ""
            kind = "is too large" if exc.kind == "refused" else exc.kind
            raise Unreadable(f"the file {kind} ({where}{exc.reason})") from None

    def raw(self, game: str, limit: int = DOWNLOAD_LIMIT) -> bytes | None:
        """The stored file's bytes as they are (for a download of a file that does not read),
        or None when it is not there, cannot be read or is over ``limit`` bytes."""
        if not self.valid(game):
            return None
        try:
            fd = os.open(self.path(game), os.O_RDONLY | os.O_NONBLOCK)  # (a pipe never blocks)
            with os.fdopen(fd, "rb") as f:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    return None
                data = f.read(limit + 1)
        except OSError:
            return None
        return data if len(data) <= limit else None

    def storable(self, text: str) -> bytes:
        """The exact bytes :meth:`save` and :meth:`change` write for ``text``, once checked: at
        most :data:`MAX_LOG_BYTES`, and read back by ``reads`` (:class:`NotStorable` otherwise)."""
        data = text.encode("utf-8")
        if len(data) > MAX_LOG_BYTES:
            raise NotStorable(
                f"not saved: the {self.what} would be {len(data):,} bytes, more than the "
                f"{MAX_LOG_BYTES:,} a stored {self.what} may be"
            )
        try:
            self.reads(text)
        except InputError as exc:
            raise NotStorable(
                f"not saved: the {self.what} would be {len(data):,} bytes, but would not read back "
                f"({exc.message})"
            ) from None
        return data

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
        >>> store = GameStore(tempfile.mkdtemp(), reads=str)  # (any text: no game log needed here)
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
            if self.root not in _CLEANED:
                self._remove_temporary()
            yield
        finally:
            os.close(fd)  # (closing releases the lock)

    def _remove_temporary(self) -> None:
        """Remove the temporary files of writes killed half-way (called holding the lock: every
        write makes and renames or removes its temporary file while holding it)."""
        for tmp in self.root.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                tmp.unlink()
        _CLEANED.add(self.root)

    def _write(self, game: str, text: str) -> None:
        """Write under the lock, once :meth:`storable`: a uniquely named temporary file, then
        ``os.replace``."""
        if not self.valid(game):
            raise ValueError(f"game: {game!r} is not a game id")
        data = self.storable(text)
        tmp = ""
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{game}.", suffix=".tmp", dir=self.root)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
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
        leaves the game as it was; SaveError when the write fails (:class:`NotStorable` when the
        text would not read back, :class:`Unreadable` when the stored file does not read: it is
        never overwritten)."""
        if not self.valid(game):
            raise ValueError(f"game: {game!r} is not a game id")
        with self.locked():
            current = self.load(game)
            text = edit(current)
            if text != current:
                self._write(game, text)
            return text


_LIST_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


def _reads_as_army(text: str) -> object:
    return army_from_text(text, "this army list")


class ArmyLists(GameStore):
    """Saved army lists, beside the games: ``<games dir>/armies/<file>.yaml``, one army each (its
    name and detachments, in the game log's army schema), written the same way as games.

    A list is known by its army's name; its file name is made from that name and never shared:
    names that make the same file name ("Орки" and "オーク" both make ``x``, "Ork Horde" and
    "ork horde" ``ork-horde``) get ``x``, ``x-2``, … (:meth:`add`), so a list never replaces
    another. Saving a list of the same name again replaces it only when asked (the set-up form
    asks first).

    >>> import tempfile
    >>> lists = ArmyLists(tempfile.mkdtemp())
    >>> [lists.add(name, f"name: {name}\\ndetachments: []\\n") for name in ("Орки", "オーク", "Ork Horde", "ork horde")]
    ['x', 'x-2', 'ork-horde', 'ork-horde-2']
    >>> lists.named()
    {'Ork Horde': 'ork-horde', 'ork horde': 'ork-horde-2', 'Орки': 'x', 'オーク': 'x-2'}
    >>> lists.find("ork horde"), lists.find("Orks"), lists.valid("../games/x")
    ('ork-horde-2', None, False)
    """

    what = "army list"

    def __init__(self, root: str | Path | None = None) -> None:
        super().__init__(Path(root) if root is not None else games_dir() / "armies", reads=_reads_as_army)

    @staticmethod
    def valid(game: str | None) -> bool:
        """True for a well-formed list file name (lower-case letters, digits and ``-``)."""
        return bool(game) and _LIST_NAME.fullmatch(str(game)) is not None

    def names(self) -> list[str]:
        """The saved lists' file names, alphabetically."""
        if not self.root.is_dir():
            return []
        return sorted(p.stem for p in self.root.glob("*.yaml") if self.valid(p.stem))

    def named(self) -> dict[str, str]:
        """Army name -> file name of every saved list that reads, by name (a name two files
        share, which :meth:`add` never makes, is told apart by its file name)."""
        found: list[tuple[str, str]] = []
        for stem in self.names():
            text = self.read(stem)
            try:
                found.append((army_from_text(text or "", stem).name, stem))
            except InputError:
                continue
        counts: dict[str, int] = {}
        for name, _ in found:
            counts[name] = counts.get(name, 0) + 1
        return {name if counts[name] == 1 else f"{name} ({stem})": stem for name, stem in sorted(found)}

    def find(self, name: str) -> str | None:
        """The file name of the saved list of the army called exactly ``name``, if there is one."""
        for label, stem in self.named().items():
            if label == name or label == f"{name} ({stem})":
                return stem
        return None

    def add(self, name: str, text: str) -> str:
        """Store ``text`` as a new list for the army ``name`` under a file name no list has yet
        (made from the name, then numbered); returns that file name. SaveError if it cannot."""
        base = slug(name)
        with self.locked():
            taken = set(self.names())
            stem, n = base, 1
            while stem in taken:
                n += 1
                stem = f"{base[: 40 - len(str(n)) - 1].rstrip('-')}-{n}"
            self._write(stem, text)
        return stem
