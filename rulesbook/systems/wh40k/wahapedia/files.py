"""Reading Wahapedia's export files: the one table reader of :mod:`~rulesbook.systems.wh40k.wahapedia.importer`.

The export is pipe-separated (``|``) UTF-8, optionally with a byte-order mark, one header row and
a trailing ``|`` on every row. Nothing is quoted, so a text field with newlines runs over several
physical lines: a record ends when it holds the header's number of fields. The reader uses no
``csv`` module (whose errors — a field over 131,072 characters, a NUL byte — escape as tracebacks);
every malformed record or over-long field is one :class:`~rulesbook.data.DataFileError` line
naming the file, the row (1 = the first record after the header) and the column. Numbers are
ASCII digits only (``٩`` or ``８`` are refused where a number is wanted).

Example:
    >>> rows = read_table(Path("tests/wh40k/wahapedia/Datasheets.csv"))
    >>> rows[0].values["name"], rows[1].number, len(rows[1].values["legend"].splitlines())
    ('Rot Beast', 2, 2)
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from rulesbook.data import DataFileError, Limits, read_text
from rulesbook.errors import quote

__all__ = [
    "COLUMNS",
    "MAX_FIELD",
    "REQUIRED_FILES",
    "TABLE_LIMITS",
    "Row",
    "plain",
    "read_table",
    "singular",
    "slug",
]

COLUMNS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "Datasheets.csv": ("id", "name", "faction_id"),
        "Datasheets_models.csv": ("datasheet_id", "line", "name", "M", "T", "Sv", "inv_sv", "W", "Ld", "OC"),
        "Datasheets_wargear.csv": (
            "datasheet_id",
            "line",
            "name",
            "description",
            "range",
            "type",
            "A",
            "BS_WS",
            "S",
            "AP",
            "D",
        ),
        "Datasheets_abilities.csv": (
            "datasheet_id",
            "line",
            "ability_id",
            "name",
            "description",
            "type",
            "parameter",
        ),
        "Stratagems.csv": (
            "faction_id",
            "name",
            "id",
            "type",
            "cp_cost",
            "turn",
            "phase",
            "detachment",
            "description",
        ),
        "Datasheets_keywords.csv": ("datasheet_id", "keyword", "is_faction_keyword"),
        "Datasheets_unit_composition.csv": ("datasheet_id", "line", "description"),
        "Datasheets_models_cost.csv": ("datasheet_id", "line", "description", "cost"),
        "Abilities.csv": ("id", "name", "description"),
        "Detachments.csv": ("id", "faction_id", "name"),
        "Detachment_abilities.csv": ("id", "faction_id", "name", "description", "detachment"),
        "Enhancements.csv": ("faction_id", "id", "name", "cost", "detachment", "description"),
        "Datasheets_leader.csv": ("leader_id", "attached_id"),
    }
)
"""The columns each file must have (others, such as ``legend`` or ``link``, are read and not
kept); the names are the export's own."""

REQUIRED_FILES = (
    "Datasheets.csv",
    "Datasheets_models.csv",
    "Datasheets_wargear.csv",
    "Datasheets_abilities.csv",
    "Stratagems.csv",
)

MAX_FIELD = 131_072
"""The longest field accepted, in characters (the limit Python's ``csv`` module has by default;
the export's longest texts are a few thousand)."""

_PLUS = re.compile(r"^\s*([0-9]{1,2})\s*\+?\s*$", re.ASCII)
_INT = re.compile(r"[+-]?[0-9]{1,4}", re.ASCII)
_TAG = re.compile(r"<[^>]+>")
TABLE_LIMITS = Limits(max_bytes=64_000_000)
"""Wahapedia's exports are larger than any hand-written data file: up to 64 MB each."""


@dataclass(frozen=True, slots=True)
class Row:
    """One record: the file it came from, its number (1 = first after the header) and its
    values by column."""

    file: str
    number: int
    values: Mapping[str, str]

    def fail(self, column: str, reason: str) -> DataFileError:
        """The one-line error for a bad value in this row."""
        return DataFileError(f"{self.file}, row {self.number}, column {column}: {reason}", file=self.file)

    def get(self, column: str) -> str:
        return self.values.get(column, "").strip()

    def need(self, column: str) -> str:
        value = self.get(column)
        if not value:
            raise self.fail(column, "must not be empty")
        return value

    def integer(self, column: str, lo: int, hi: int) -> int:
        text = self.get(column)
        if not _INT.fullmatch(text) or not lo <= int(text) <= hi:
            raise self.fail(column, f"expected an integer from {lo} to {hi}, got {quote(text)}")
        return int(text)

    def plus(self, column: str, lo: int, hi: int) -> int:
        text = self.get(column)
        m = _PLUS.match(text)
        if m is None or not lo <= int(m[1]) <= hi:
            raise self.fail(column, f"expected {lo}+ to {hi}+, got {quote(text)}")
        return int(m[1])


def _header(lines: list[str], name: str) -> tuple[int, list[str], bool]:
    """The index of the header line (the first that is not blank), its column names, and whether
    it ends with a ``|`` (then every record ends with one too)."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise DataFileError(f"{name}: empty file, expected a header row", file=name)
    raw_header = lines[first].split("|")
    trailing = len(raw_header) > 1 and raw_header[-1].strip() == ""
    return first, [h.strip() for h in (raw_header[:-1] if trailing else raw_header)], trailing


def _records(text: str, name: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header and the records of a file. A record may span physical lines (a text field
    with newlines: nothing is quoted in the export) and ends when it holds the header's number
    of fields; a record that lacks only the trailing ``|`` ends where the next line would
    overflow it. A row with too few or too many fields is a one-line error."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first, header, trailing = _header(lines, name)
    width = len(header) + trailing
    records: list[tuple[int, list[str]]] = []

    def wrong(pieces: list[str], ends_with_bar: bool, ending: str = "") -> DataFileError:
        got = len(pieces) - (1 if trailing and ends_with_bar else 0)
        return DataFileError(
            f"{name}, row {len(records) + 1}: expected {len(header)} fields separated by '|', got {got}{ending}",
            file=name,
        )

    def close(pieces: list[str]) -> None:
        fields = pieces[:-1] if trailing and len(pieces) == width else pieces
        records.append((len(records) + 1, fields))

    buffer: str | None = None
    for line in lines[first + 1 :]:
        if buffer is None:
            if not line.strip():
                continue
            candidate = line
        else:
            candidate = f"{buffer}\n{line}"
        pieces = candidate.split("|")
        if len(pieces) < width:
            buffer = candidate
            continue
        if len(pieces) == width:
            close(pieces)
            buffer = None
            continue
        if buffer is None:  # one line with too many fields
            raise wrong(pieces, line.rstrip().endswith("|"))
        held = buffer.split("|")
        if trailing and len(held) == width - 1 and not buffer.rstrip().endswith("|"):
            close(held)  # a record without its trailing '|': the line starts the next one
            pieces = line.split("|")
            if len(pieces) > width:
                raise wrong(pieces, line.rstrip().endswith("|"))
            if len(pieces) == width:
                close(pieces)
                buffer = None
            else:
                buffer = line if line.strip() else None
            continue
        raise wrong(held, buffer.rstrip().endswith("|"))
    if buffer is not None:
        held = buffer.split("|")
        if trailing and len(held) == width - 1 and not buffer.rstrip().endswith("|"):
            close(held)
        else:
            raise wrong(held, buffer.rstrip().endswith("|"), " (the file ends inside the row)")
    return header, records


def read_table(path: Path, *, required: Sequence[str] = ()) -> list[Row]:
    """The rows of one Wahapedia file (pipe-separated, UTF-8 with or without a BOM, trailing
    ``|`` allowed, text fields over several lines). A missing column, a row with the wrong
    number of fields, a field longer than :data:`MAX_FIELD` or holding a NUL byte is a one-line
    error.

    >>> [row.values["name"] for row in read_table(Path("tests/wh40k/wahapedia/Datasheets.csv"))][:2]
    ['Rot Beast', 'Mire Wardens']
    """
    name = path.name
    if not path.exists():
        raise DataFileError(f"{name}: missing from {path.parent}", file=name)
    text = read_text(path, limits=TABLE_LIMITS)  # the one loader: size before reading, UTF-8
    header, records = _records(text, name)
    for column in required:
        if column not in header:
            raise DataFileError(f"{name}, header: missing column {quote(column)}", file=name)
    rows = []
    for number, fields in records:
        for column, value in zip(header, fields, strict=True):
            if len(value) > MAX_FIELD:
                raise DataFileError(
                    f"{name}, row {number}, column {column}: {len(value):,} characters, at most {MAX_FIELD:,}",
                    file=name,
                )
            if "\x00" in value:  # no text holds one; a faction file could not either
                raise DataFileError(
                    f"{name}, row {number}, column {column}: a NUL byte (\\x00) is no text", file=name
                )
        rows.append(Row(name, number, MappingProxyType(dict(zip(header, fields, strict=True)))))
    return rows


def slug(text: str) -> str:
    """A key from a name: lower-case ASCII words joined by ``-``.

    >>> slug("Nurgle’s Gift (Aura)"), slug("Foul Vigour")
    ('nurgles-gift-aura', 'foul-vigour')
    """
    plain = text.lower().replace("’", "").replace("'", "")
    return "-".join(re.findall(r"[a-z0-9]+", plain, re.ASCII))


def plain(text: str) -> str:
    """HTML of a Wahapedia text cell as plain words."""
    return " ".join(html.unescape(_TAG.sub(" ", text)).split())


def singular(key: str) -> str:
    """A key with its last word singular (``intercessors`` → ``intercessor``), to match names."""
    head, _, last = key.rpartition("-")
    if last.endswith("ies") and len(last) > 4:
        last = last[:-3] + "y"
    elif last.endswith("es") and last[:-2].endswith(("sh", "ch", "x", "ss")):
        last = last[:-2]
    elif last.endswith("s") and not last.endswith("ss") and len(last) > 3:
        last = last[:-1]
    return f"{head}-{last}" if head else last
