"""On the web a file input is an upload, never a box for a path on the server.

A declared ``path`` input (e.g. ``army-morale.replay``'s ``log``) becomes a Panel ``FileInput``
carrying the CSS class ``rb-input-<key>``; the uploaded bytes (at most :data:`MAX_UPLOAD_BYTES`)
are written to a private temporary file whose path the calculator receives. Until something is
uploaded the calculator keeps the value its declaration starts with (a file the server chose).

>>> box = UploadBox("log", (".yaml", ".json"), "example.yaml")
>>> box.path() == "example.yaml"
True
>>> box.store(b"armies: {}\\n", "game.yaml").endswith(".yaml")
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

import os
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
        fd, name = tempfile.mkstemp(prefix="rulesbook-upload-", suffix=suffix)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if self.current is not None:
            Path(self.current).unlink(missing_ok=True)
        self.current = name
        return name

    def widget(self, label: str, css_classes: list[str]) -> Any:
        """The Panel upload control."""
        import panel as pn

        return pn.widgets.FileInput(
            accept=",".join(self.suffixes), multiple=False, label=label, css_classes=css_classes
        )
