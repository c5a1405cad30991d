"""On the web a file input is an upload, never a box for a path on the server.

Every upload control is a :func:`checked_file_input`: the browser checks the chosen file before
sending anything — a file over the limit (:data:`MAX_UPLOAD_BYTES`) or an empty one gets a
message beside the button (``rb-upload-message``) and is never sent, so a 30 MB file
cannot drop the page's connection; a file that is not UTF-8 text is refused the same way, except
the kinds that are not text (:data:`BINARY_SUFFIXES`: a zipped ``.rosz`` roster), sent as their
bytes. A file that passes is sent, and the control's ``value`` (bytes) and ``filename`` change on
the server as with Panel's own ``FileInput``.

A declared ``path`` input (e.g. ``army-morale.replay``'s ``log``) becomes a Panel ``FileInput``
carrying the CSS class ``rb-input-<key>``; the uploaded bytes (at most :data:`MAX_UPLOAD_BYTES`)
are written to a private temporary folder, under the name the player's file had (its letters,
digits, ``.``, ``-``, ``_`` and spaces), so a message about the file names *their* file
(``game.yaml line 12``), never the server's temporary one. Until something is uploaded the
calculator keeps the value its declaration starts with (a file the server chose). The file is
deleted when the page's session ends (:meth:`UploadBox.discard`).

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

import base64
import binascii
import contextlib
import os
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from rulesbook.errors import InputError

__all__ = [
    "BINARY_SUFFIXES",
    "MAX_UPLOAD_BYTES",
    "UploadBox",
    "checked_file_input",
    "upload_stem",
    "uploaded_text",
]

MAX_UPLOAD_BYTES = 1_000_000
"""The largest file a web form accepts."""
BINARY_SUFFIXES = (".rosz",)
"""Files that are not text (a zipped BattleScribe roster): sent as their bytes."""


def uploaded_text(data: bytes, field: str, max_bytes: int = MAX_UPLOAD_BYTES) -> str:
    """The text of an uploaded file, checked on the server as the browser checks it first
    (InputError naming ``field``: empty, too large, not UTF-8).

    >>> uploaded_text(b"\\xff", "log")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: log: the file is not UTF-8 text
    """
    if not data:
        raise InputError(field, "the file is empty: choose a file with something in it")
    if len(data) > max_bytes:
        raise InputError(field, f"the file is larger than {max_bytes:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(field, "the file is not UTF-8 text") from None


def upload_stem(filename: str, default: str = "upload") -> str:
    """The stem of a player's file name as a message may show it: its letters, digits, ``.``,
    ``-``, ``_`` and spaces, at most 80 (never a folder of theirs or ours).

    >>> upload_stem("../../My game!.yaml"), upload_stem("\x1b[2J.yaml")
    ('My game', '2J')
    """
    return re.sub(r"[^A-Za-z0-9._ -]+", "", Path(filename).stem).strip(" .")[:80] or default


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
        stem = upload_stem(filename)
        name = str(Path(folder) / f"{stem}{suffix}")
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        self.discard()
        self.current = name
        return name

    def discard(self) -> None:
        """Delete the last upload's file and folder (the page's session ended, or a new upload
        replaces it); the calculator gets the declared start value again.

        >>> box = UploadBox("log", (".yaml",), "example.yaml")
        >>> kept = Path(box.store(b"armies: {}\\n", "game.yaml"))
        >>> box.discard()
        >>> kept.exists(), kept.parent.exists(), box.path()
        (False, False, 'example.yaml')
        """
        if self.current is not None:
            Path(self.current).unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                Path(self.current).parent.rmdir()
        self.current = None

    def widget(self, label: str, css_classes: list[str]) -> Any:
        """The Panel upload control (checked in the browser before it sends anything)."""
        binary = tuple(s for s in self.suffixes if s in BINARY_SUFFIXES)
        return checked_file_input(",".join(self.suffixes), label, css_classes, binary=binary)


def checked_file_input(
    accept: str,
    label: str,
    css_classes: list[str],
    max_bytes: int = MAX_UPLOAD_BYTES,
    binary: tuple[str, ...] = (),
) -> Any:
    """An upload button whose file is checked in the browser before it is sent (see the module);
    a file whose name ends with one of ``binary`` (``.rosz``: a zip archive) is sent as its bytes
    (base64) instead of as UTF-8 text."""
    return _checked_file_input_class()(
        accept=accept, label=label, max_bytes=max_bytes, css_classes=css_classes, binary=list(binary)
    )


_UPLOAD_SCRIPT = """
        export function render({ model, el }) {
          const box = document.createElement("label")
          box.className = "rb-upload"
          const title = document.createElement("span")
          title.textContent = model.label
          const input = document.createElement("input")
          input.type = "file"
          input.accept = model.accept
          const message = document.createElement("span")
          message.className = "rb-upload-message"
          message.setAttribute("role", "alert")
          const chosen = document.createElement("span")
          chosen.className = "rb-upload-chosen"
          box.append(title, input, chosen, message)
          el.append(box)
          function refuse(text) { message.textContent = text; input.value = "" }
          function sent(name) { chosen.textContent = `Sent: ${name}`; input.value = "" }
          input.addEventListener("change", async () => {
            const file = input.files && input.files[0]
            message.textContent = ""
            if (!file) return
            const limit = model.max_bytes
            if (file.size > limit) {
              refuse(`${file.name} is ${file.size.toLocaleString("en")} bytes; the largest file ` +
                     `accepted is ${limit.toLocaleString("en")} bytes. Nothing was sent.`)
              return
            }
            if (file.size === 0) { refuse(`${file.name} is empty: choose a file with something in it.`); return }
            const lower = file.name.toLowerCase()
            if ((model.binary || []).some(end => lower.endsWith(end))) {
              const bytes = new Uint8Array(await file.arrayBuffer())
              let raw = ""
              for (let i = 0; i < bytes.length; i += 0x8000) {
                raw += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000))
              }
              model.filename = file.name
              model.data64 = btoa(raw)
              model.sent = model.sent + 1
              sent(file.name)
              return
            }
            let text
            try {
              text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer())
            } catch (e) { refuse(`${file.name} is not UTF-8 text. Nothing was sent.`); return }
            model.filename = file.name
            model.text = text
            model.sent = model.sent + 1
            sent(file.name)
          })
        }
        """
"""The upload control in the browser: it refuses an oversized, empty or (unless its name ends
as a binary one) non-UTF-8 file before anything is sent, and sends the text or base64 bytes."""


@cache
def _checked_file_input_class() -> Any:
    """The class of :func:`checked_file_input` (a Panel ``JSComponent``), made on first use."""
    import param
    from panel.custom import JSComponent

    class CheckedFileInput(JSComponent):
        """A file input that refuses an empty, oversized or non-text file in the browser."""

        accept = param.String(default="")
        label = param.String(default="")
        max_bytes = param.Integer(default=MAX_UPLOAD_BYTES)
        text = param.String(default="", doc="The last file's text (set by the browser).")
        binary = param.List(default=[], doc="Name endings of files sent as bytes, not text.")
        data64 = param.String(default="", doc="The last binary file's bytes, base64 (set by the browser).")
        filename = param.String(default="", doc="The last file's name (set by the browser).")
        sent = param.Integer(default=0, doc="Counts the files sent (each one a change).")
        value = param.Parameter(default=None, precedence=-1, doc="The last file's bytes (server only).")
        _property_mapping: ClassVar[dict[str, str | None]] = {"value": None}  # (never sent to the browser)
        _stylesheets: ClassVar[list[str]] = [
            ".rb-upload { font: 1rem system-ui, sans-serif; display: flex; flex-direction: column; gap: .2em; }"
            " .rb-upload-message { color: #a00; font-weight: 600; }"
            " .rb-upload-chosen { color: #555; }"
            # a 44 px tap target, as every other input (issue 37)
            " .rb-upload input[type=file] { min-height: 44px; font-size: 16px; }"
            " .rb-upload input[type=file]::file-selector-button { min-height: 44px; min-width: 44px;"
            " padding: 0 14px; margin-right: 10px; font-size: 16px; }"
        ]
        _esm = _UPLOAD_SCRIPT

        @param.depends("sent", watch=True)
        def _received(self) -> None:
            try:
                data = (
                    base64.b64decode(self.data64, validate=True) if self.data64 else self.text.encode("utf-8")
                )
            except binascii.Error:  # not what the browser sends: an empty file, refused by the reader
                data = b""
            self.data64 = ""
            self.value = None  # (the same file twice is two changes)
            self.value = data
            self.text = ""  # (the bytes are kept on the server; the browser's copy is not needed)

    return CheckedFileInput
