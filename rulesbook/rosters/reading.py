"""Reading a roster file or an upload's bytes: the size checks, the ``.rosz`` archive, the format.

* A file's size is checked with ``stat`` before it is read, and the read stops one byte past
  :attr:`~.build.RosterLimits.max_file_bytes` (a file that grows is still refused).
* A ``.rosz`` is a zip archive holding one ``.ros``: the archive may list at most
  ``max_members`` entries, exactly one ``.ros``, not encrypted, stored or deflated; its declared
  size is checked before unpacking and the unpacking itself stops one byte past
  ``max_unpacked_bytes``, so a zip bomb (or a member that lies about its size) is refused having
  unpacked no more than that.
* ``.ros`` is read by :mod:`.battlescribe`, ``.json`` (New Recruit) by :mod:`.newrecruit`.

Whatever is wrong is one :class:`~rulesbook.data.DataFileError` line naming the file; a roster is
returned whole or not at all.

Example:
    >>> roster_from_bytes(b"PK\\x03\\x04 not really", "army.rosz")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: army.rosz: refused (not a zip archive: a .rosz is a zipped .ros)
    >>> roster_from_bytes(b"{}", "army.txt")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: army.txt: refused (expected a .ros, .rosz or .json roster file)
"""

from __future__ import annotations

import io
import os
import re
import stat
import zipfile
from pathlib import Path

from rulesbook.data import DataFileError
from rulesbook.errors import quote
from rulesbook.rosters.battlescribe import parse_ros
from rulesbook.rosters.build import LIMITS, RosterLimits
from rulesbook.rosters.newrecruit import parse_json
from rulesbook.rosters.values import Roster

__all__ = ["FORMATS", "SUFFIXES", "looks_like_roster", "read_roster", "roster_from_bytes"]

FORMATS = {".ros": "BattleScribe .ros", ".rosz": "BattleScribe .rosz", ".json": "New Recruit JSON"}
"""The roster files read, by suffix."""
SUFFIXES = tuple(FORMATS)

_ZIP_MAGIC = b"PK\x03\x04"
_JSON_ROSTER = re.compile(rb'^\s*\{\s*"roster"\s*:')


def _refused(file: str, reason: str, kind: str = "refused") -> DataFileError:
    return DataFileError(f"{file}: {kind} ({reason})", file=file, kind=kind, reason=reason)


def _read_bytes(path: Path, limits: RosterLimits) -> bytes:
    shown = path.name
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise _refused(shown, "not a regular file", "cannot be read")
        if info.st_size > limits.max_file_bytes:
            raise _refused(shown, f"{info.st_size:,} bytes; at most {limits.max_file_bytes:,}")
        with open(path, "rb") as f:
            data = f.read(limits.max_file_bytes + 1)
    except OSError as exc:
        raise _refused(shown, exc.strerror or type(exc).__name__, "cannot be read") from None
    if len(data) > limits.max_file_bytes:
        raise _refused(shown, f"more than {limits.max_file_bytes:,} bytes")
    return data


def _unzip(data: bytes, file: str, limits: RosterLimits) -> tuple[str, bytes]:
    """The one ``.ros`` inside a ``.rosz`` (see the module for the checks)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError):
        raise _refused(file, "not a zip archive: a .rosz is a zipped .ros") from None
    if len(infos) > limits.max_members:
        raise _refused(file, f"{len(infos):,} entries in the archive; a .rosz holds one .ros")
    found = [i for i in infos if not i.is_dir() and i.filename.lower().endswith(".ros")]
    if len(found) != 1:
        many = f"{len(found)} .ros files" if found else "no .ros file"
        raise _refused(file, f"the archive holds {many}; a .rosz holds exactly one")
    info = found[0]
    if info.flag_bits & 0x1:
        raise _refused(file, f"{quote(info.filename)} is encrypted")
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise _refused(file, f"{quote(info.filename)} is compressed in a way a .rosz never is")
    top = limits.max_unpacked_bytes
    if info.file_size > top:
        raise _refused(file, f"{quote(info.filename)} unpacks to {info.file_size:,} bytes; at most {top:,}")
    try:
        with archive.open(info) as member:
            out = member.read(top + 1)
    except (zipfile.BadZipFile, ValueError, EOFError, OSError, RuntimeError) as exc:
        raise _refused(file, f"{quote(info.filename)} cannot be unpacked ({type(exc).__name__})") from None
    if len(out) > top:
        raise _refused(file, f"{quote(info.filename)} unpacks to more than {top:,} bytes")
    return info.filename, out


def roster_from_bytes(data: bytes, name: str, *, limits: RosterLimits = LIMITS) -> Roster:
    """The roster in ``data``, a file's bytes (an upload: nothing is read from disk); ``name``
    is the file's name, whose suffix says the format (``.ros``, ``.rosz``, ``.json``)."""
    shown = Path(name or "roster").name or "roster"
    suffix = Path(shown).suffix.lower()
    if suffix not in FORMATS:
        raise _refused(shown, "expected a .ros, .rosz or .json roster file")
    if len(data) > limits.max_file_bytes:
        raise _refused(shown, f"{len(data):,} bytes; at most {limits.max_file_bytes:,}")
    if suffix == ".rosz" or (suffix == ".ros" and data.startswith(_ZIP_MAGIC)):
        _, inner = _unzip(data, shown, limits)
        return parse_ros(inner, shown, FORMATS[".rosz"], limits)
    if suffix == ".ros":
        return parse_ros(data, shown, FORMATS[".ros"], limits)
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _refused(shown, f"line {line}: not UTF-8 text", "cannot be read") from None
    return parse_json(text, shown, limits)


def read_roster(path: str | Path, *, limits: RosterLimits = LIMITS) -> Roster:
    """The roster in the file at ``path`` (see :func:`roster_from_bytes`)."""
    p = Path(path)
    if p.suffix.lower() not in FORMATS:
        raise _refused(p.name, "expected a .ros, .rosz or .json roster file")
    return roster_from_bytes(_read_bytes(p, limits), p.name, limits=limits)


def looks_like_roster(path: str | Path) -> bool:
    """Whether ``path`` names a roster rather than a data file: a ``.ros`` or ``.rosz``, or a
    ``.json`` whose first object is ``{"roster": …`` (as New Recruit writes it)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in (".ros", ".rosz"):
        return True
    if suffix != ".json":
        return False
    try:
        with open(p, "rb") as f:
            head = f.read(4096).removeprefix(b"\xef\xbb\xbf")
    except OSError:
        return False
    return _JSON_ROSTER.match(head) is not None
