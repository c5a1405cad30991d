"""On the web a file input is an upload, never a box for a path on the server.

A declared ``path`` input (e.g. ``army-morale.replay``'s ``log``) becomes a Panel ``FileInput``
carrying the CSS class ``rb-input-<key>``; the uploaded bytes (at most :data:`MAX_UPLOAD_BYTES`)
are written to a private temporary folder, under the name the player's file had (its letters,
digits, ``.``, ``-``, ``_`` and spaces), so a message about the file names *their* file
(``game.yaml line 12``), never the server's temporary one. Until something is uploaded the
calculator keeps the value its declaration starts with (a file the server chose).

>>> box = UploadBox("log", (".yaml", ".json"), "example.yaml")
>>> box.path() == "example.yaml"
True
>>> box.store(b"armies: {}\\n", "../My game.yaml").endswith("/My game.yaml")
True
>>> box.store(b"x", "game.exe")
Traceback (most recent call last):
...
rulesbook.errors.InputError: log: upload a .yaml/.json file
>>> box.store(b"x" * (MAX_UPLOAD_BYTES + 1), "big.yaml")
Traceback (most recent call last):
...
rulesbook.errors.InputError: log: the file is larger than 1,000,000 bytes
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from rulesbook.errors import InputError

__all__ = ["MAX_UPLOAD_BYTES", "UploadBox"]

MAX_UPLOAD_BYTES = 1_000_000
"""The largest file a web form accepts."""


class UploadBox:
    """The temporary file behind one upload input (replaced by each new upload)."""

    def __init__(self, key: str, suffixes: tuple[str, ...], start: Any) -> None:
        self.key, self.suffixes, self.start = key, suffixes, start
        self.current: str | None = None

    def path(self) -> Any:
        """The path the calculator gets: the last upload's, else the declared start value."""
        return self.current if self.current is not None else self.start

    def store(self, data: bytes, filename: str) -> str:
        """Keep an upload and return its path (InputError for a wrong kind or size of file)."""
        suffix = Path(filename or "").suffix.lower()
        if suffix not in self.suffixes:
            raise InputError(self.key, f"upload a {'/'.join(self.suffixes)} file")
        if len(data) > MAX_UPLOAD_BYTES:
            raise InputError(self.key, f"the file is larger than {MAX_UPLOAD_BYTES:,} bytes")
        folder = tempfile.mkdtemp(prefix="rulesbook-upload-")
        stem = re.sub(r"[^A-Za-z0-9._ -]+", "", Path(filename).stem).strip(" .")[:80] or "upload"
        name = str(Path(folder) / f"{stem}{suffix}")
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if self.current is not None:
            Path(self.current).unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                Path(self.current).parent.rmdir()
        self.current = name
        return name

    def widget(self, label: str, css_classes: list[str]) -> Any:
        """The Panel upload control."""
        import panel as pn

        return pn.widgets.FileInput(
            accept=",".join(self.suffixes), multiple=False, label=label, css_classes=css_classes
        )
