"""Data files: the one hardened loader for every YAML/JSON file rulesbook reads, and its error.

Every file rulesbook reads — a system's ``rules.yaml`` and ``cases.yaml``, WarStrike's
missions and drafts, 40k unit profiles, designer variants, game logs — goes through this
module:

* :func:`read_text` checks the size *before* reading (``stat``, then a bounded read), so a
  1 GB file is refused at once without being read; only regular files, UTF-8 only.
* :func:`compose_text` builds the document tree with **limits** (:class:`Limits`: nesting
  depth, items per list or mapping, nodes in all, digits of an integer) and a **strict
  schema**: YAML plain scalars are ``null``/``~``, ``true``/``false``, *decimal* integers and
  decimal floats, everything else is text (``0x10``, ``0o7``, ``1_0``, ``1:30`` and dates stay
  text, so a field that wants a number refuses them); no tags at all (``!!python/…``,
  ``!!binary``, ``!custom`` …), no aliases (so no billion laughs), no merge keys ``<<``, no
  key given twice, keys are single values. ``.json`` files are read by a JSON parser (every
  valid JSON file is accepted: escapes such as ``\\u0085`` or ``\\ud83d\\ude00``, tabs, raw
  control characters above U+001F), with the same limits.
* :func:`load_data_file` = both, then plain Python values (:func:`to_python`); the game-log
  reader walks the tree itself to name the line of every field.
* :func:`dump_yaml` / :func:`dump_json` write data back **losslessly**: any text the loader
  accepts (NEL, C1 controls, U+FFFE, bidi marks, U+2028, emoji) reads back identical.
* :func:`use_snapshot`: data already loaded, as JSON keyed by the SHA-256 of each file's text
  (:func:`rulesbook.site.runtime.data_snapshot`), for where YAML parsing is slow (Python in a
  browser): such a file is still read and checked, not parsed; any other is parsed as usual.

Whatever goes wrong raises :class:`DataFileError`: one short line naming the file, the line
where it is known, and the reason, never a traceback, in well under a second (the tree is
built by one pass with an explicit stack; nothing is recursive on the input).

Example:
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "units.yaml"
    >>> _ = path.write_text("unit:\\n  name: Mortarion\\n  wounds: 16\\n", encoding="utf-8")
    >>> data = load_data_file(path)
    >>> need(data["unit"], "wounds", "units.yaml.unit", int)
    16
    >>> need(data["unit"], "save", "units.yaml.unit")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: units.yaml.unit: missing field 'save'
    >>> _ = path.write_text("unit: [1, 2\\n", encoding="utf-8")
    >>> load_data_file(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: units.yaml: not valid YAML (line 2: ...)
    >>> _ = path.write_text("lost: 0x10\\n", encoding="utf-8")
    >>> load_data_file(path)  # hexadecimal is not a number here
    {'lost': '0x10'}
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulesbook.errors import RulesbookError, quote, shorten

scanstring: Any = json.decoder.scanstring  # type: ignore[attr-defined]  # the C string scanner

__all__ = [
    "LIMITS",
    "DataFileError",
    "Limits",
    "compose_text",
    "dump_json",
    "dump_yaml",
    "load_data_file",
    "load_data_text",
    "need",
    "read_text",
    "scalar_value",
    "text_digest",
    "to_python",
    "use_snapshot",
    "yaml_loader",
]

STR = "tag:yaml.org,2002:str"
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
BOOL = "tag:yaml.org,2002:bool"
NULL = "tag:yaml.org,2002:null"
SEQ = "tag:yaml.org,2002:seq"
MAP = "tag:yaml.org,2002:map"


@dataclass(frozen=True)
class Limits:
    """What the loader accepts at most (every shipped file is far inside these).

    ``max_bytes`` is checked before reading; the others while the tree is built.
    """

    max_bytes: int = 1_000_000
    max_depth: int = 32
    max_items: int = 10_000
    max_nodes: int = 50_000
    max_int_digits: int = 30


LIMITS = Limits()
"""The limits every reader uses unless it passes its own."""


class DataFileError(RulesbookError):
    """A data file is malformed; the one-line message names the file and the field or line.

    Errors found while reading or parsing also carry ``file``, ``line`` (1-based, or None),
    ``kind`` (``not valid YAML``, ``not valid JSON``, ``refused``, ``cannot be read``) and
    ``reason``, so a reader with its own message style (the game log's) can rephrase them.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str = "",
        line: int | None = None,
        kind: str = "",
        reason: str = "",
    ) -> None:
        super().__init__(message)
        self.file, self.line, self.kind, self.reason = file, line, kind, reason


def _fail(file: str, kind: str, reason: str, line: int | None = None) -> DataFileError:
    reason = shorten(" ".join(reason.split()), 160)
    where = f"line {line}: " if line is not None else ""
    return DataFileError(f"{file}: {kind} ({where}{reason})", file=file, line=line, kind=kind, reason=reason)


def yaml_loader() -> type[yaml.SafeLoader] | type[yaml.CSafeLoader]:
    """The safe YAML loader: PyYAML's C one when it is built, the pure-Python one otherwise.

    Only its parser is used (events); the tree is built here, with the limits and the schema.

    >>> yaml_loader().__name__ in ("CSafeLoader", "SafeLoader")
    True
    """
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_PARSER: Any = yaml_loader()
"""The YAML parser in use (tests switch it to the pure-Python one to check both)."""


# -- reading ---------------------------------------------------------------------------------------


def read_text(path: str | Path, *, name: str | None = None, limits: Limits = LIMITS) -> str:
    """The UTF-8 text of a regular file of at most ``limits.max_bytes`` bytes.

    The size is checked with ``stat`` before anything is read, and the read itself stops one
    byte past the limit (a file that grows, or reports no size, is still refused). A leading
    byte-order mark is dropped.

    >>> import tempfile
    >>> big = Path(tempfile.mkdtemp()) / "big.yaml"
    >>> with big.open("wb") as f:
    ...     _ = f.truncate(2**30)  # a sparse 1 GB file: refused without reading it
    >>> read_text(big)
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: big.yaml: refused (1,073,741,824 bytes; at most 1,000,000)
    """
    p = Path(path)
    shown = name or p.name
    try:
        info = os.stat(p)
        if not stat.S_ISREG(info.st_mode):
            raise _fail(shown, "cannot be read", "not a regular file")
        if info.st_size > limits.max_bytes:
            raise _fail(shown, "refused", f"{info.st_size:,} bytes; at most {limits.max_bytes:,}")
        with open(p, "rb") as f:
            raw = f.read(limits.max_bytes + 1)
    except OSError as exc:
        raise _fail(shown, "cannot be read", exc.strerror or type(exc).__name__) from None
    if len(raw) > limits.max_bytes:
        raise _fail(shown, "refused", f"more than {limits.max_bytes:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        byte = raw[exc.start : exc.start + 1].hex()
        raise _fail(shown, "cannot be read", f"not UTF-8 text (byte 0x{byte})", line) from None
    return text.removeprefix("\ufeff")


# -- the schema ------------------------------------------------------------------------------------

_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT_RE = re.compile(r"[-+]?[0-9]+")
_FLOAT_RE = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_NUMBER_START = frozenset("+-.0123456789")


def _plain_tag(value: str) -> str:
    """The type of a plain (unquoted) YAML scalar under the strict schema."""
    if not value or value[0] in _NUMBER_START:
        if _INT_RE.fullmatch(value):
            return INT
        if _FLOAT_RE.fullmatch(value):
            return FLOAT
    if value in _NULLS:
        return NULL
    if value in _BOOLS:
        return BOOL
    return STR


def scalar_value(node: Node) -> Any:
    """The Python value of a scalar node of a composed tree (str, int, float, bool or None).

    >>> scalar_value(compose_text("007", "n.yaml")), scalar_value(compose_text("'007'", "n.yaml"))
    (7, '007')
    """
    value: str = node.value
    if node.tag == STR:
        return value
    if node.tag == INT:
        return int(value)
    if node.tag == FLOAT:
        return float(value)
    if node.tag == BOOL:
        return _BOOLS[value]
    return None


def to_python(node: Node | None) -> Any:
    """Plain data (dicts, lists, scalars) from a composed tree."""
    if node is None:
        return None
    if isinstance(node, ScalarNode):
        return scalar_value(node)
    if isinstance(node, SequenceNode):
        return [to_python(item) for item in node.value]
    return {scalar_value(k): to_python(v) for k, v in node.value}


class _Builder:
    """Builds a node tree one node at a time, enforcing the limits and the key rules."""

    def __init__(self, file: str, kind: str, limits: Limits) -> None:
        self.file, self.kind, self.limits = file, kind, limits
        self.root: Node | None = None
        self.stack: list[tuple[Node, set[tuple[str, str]] | None, list[Node | None]]] = []
        self.nodes = 0

    def refuse(self, reason: str, line: int | None, kind: str = "refused") -> DataFileError:
        return _fail(self.file, kind, reason, line)

    def scalar(self, tag: str, value: str, mark: yaml.Mark, style: str | None = None) -> None:
        if (
            tag == INT
            and len(value) > self.limits.max_int_digits
            and len(value.lstrip("+-")) > self.limits.max_int_digits
        ):
            digits = len(value.lstrip("+-"))
            raise self.refuse(
                f"a number of {digits:,} digits (at most {self.limits.max_int_digits})", mark.line + 1
            )
        if tag == STR and not value.isascii() and _SURROGATE.search(value):
            raise self.refuse(
                "text with a lone surrogate (\\ud800-\\udfff), which is not a character", mark.line + 1
            )
        self.add(ScalarNode(tag, value, mark, mark, style))

    def add(self, node: Node) -> None:
        self.nodes += 1
        if self.nodes > self.limits.max_nodes:
            raise self.refuse(f"more than {self.limits.max_nodes:,} values in all", node.start_mark.line + 1)
        if not self.stack:
            self.root = node
            return
        parent, keys, pending = self.stack[-1]
        items = parent.value
        if len(items) >= self.limits.max_items:
            raise self.refuse(
                f"a list or mapping of more than {self.limits.max_items:,} items", node.start_mark.line + 1
            )
        if keys is None:
            items.append(node)
        elif pending[0] is None:
            self.key(node, keys)
            pending[0] = node
        else:
            items.append((pending[0], node))
            pending[0] = None

    def key(self, node: Node, keys: set[tuple[str, str]]) -> None:
        line = node.start_mark.line + 1
        if not isinstance(node, ScalarNode):
            raise self.refuse("a key must be a single value, not a list or mapping", line)
        if node.tag == STR and node.value == "<<" and node.style is None:
            raise self.refuse("merge keys (<<) are not supported; write the keys out", line)
        ident = (node.tag, node.value if node.tag == STR else str(scalar_value(node)))
        if ident in keys:
            raise self.refuse(f"key {quote(scalar_value(node))} given twice", line)
        keys.add(ident)

    def open(self, node: Node) -> None:
        if len(self.stack) >= self.limits.max_depth:
            raise self.refuse(f"nested deeper than {self.limits.max_depth} levels", node.start_mark.line + 1)
        self.add(node)
        self.stack.append((node, set() if isinstance(node, MappingNode) else None, [None]))

    def close(self) -> None:
        self.stack.pop()


def _mark(file: str, index: int, line: int) -> yaml.Mark:
    return yaml.Mark(file, index, line, 0, None, 0)


def _compose_yaml(text: str, file: str, limits: Limits) -> Node | None:
    build = _Builder(file, "not valid YAML", limits)
    parser: Any = None
    documents = 0
    try:
        parser = _PARSER(text)
        get_event = parser.get_event
        while True:
            event = get_event()
            cls = type(event)
            if cls is yaml.ScalarEvent:
                if event.tag is not None:
                    raise _refuse_tag(build, event)
                if event.implicit[0]:
                    build.scalar(_plain_tag(event.value), event.value, event.start_mark)
                else:
                    build.scalar(STR, event.value, event.start_mark, event.style or "'")
            elif cls is yaml.MappingStartEvent or cls is yaml.SequenceStartEvent:
                if event.tag is not None:
                    raise _refuse_tag(build, event)
                mark = event.start_mark
                build.open(
                    MappingNode(MAP, [], mark, mark)
                    if cls is yaml.MappingStartEvent
                    else SequenceNode(SEQ, [], mark, mark)
                )
            elif cls is yaml.MappingEndEvent or cls is yaml.SequenceEndEvent:
                build.close()
            elif cls is yaml.AliasEvent:
                raise build.refuse(
                    f"YAML aliases (*{shorten(str(event.anchor), 40)}) are not allowed",
                    event.start_mark.line + 1,
                )
            elif cls is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise build.refuse("more than one document (---)", event.start_mark.line + 1)
            elif event is None or cls is yaml.StreamEndEvent:
                break
    except yaml.YAMLError as exc:
        raise _fail(file, "not valid YAML", *_yaml_problem(exc, text)) from None
    except (ValueError, OverflowError, MemoryError) as exc:  # e.g. a character libyaml cannot hold
        raise _fail(file, "not valid YAML", type(exc).__name__) from None
    finally:
        if parser is not None and hasattr(parser, "dispose"):
            parser.dispose()
    return build.root


def _refuse_tag(build: _Builder, event: Any) -> DataFileError:
    shown = str(event.tag).replace("tag:yaml.org,2002:", "!!")
    return build.refuse(f"tags ({shorten(shown, 40)}) are not allowed", event.start_mark.line + 1, build.kind)


def _yaml_problem(exc: yaml.YAMLError, text: str) -> tuple[str, int | None]:
    """What is wrong, and the line (where PyYAML gives one)."""
    mark = getattr(exc, "problem_mark", None)
    line: int | None = mark.line + 1 if mark is not None else None
    if line is None and isinstance(exc, yaml.reader.ReaderError):  # a character YAML refuses
        line = text.count("\n", 0, max(exc.position, 0)) + 1
    problem = getattr(exc, "problem", None) or getattr(exc, "reason", None) or str(exc)
    return str(problem), line


_JSON_WS = re.compile(r"[ \t\n\r]*")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_JSON_WORDS = (("true", BOOL), ("false", BOOL), ("null", NULL))


class _JsonReader:
    """JSON text (RFC 8259) into a node tree, iteratively (no recursion at any depth): its states are
    "a value is due", "a key is due" and "after a value"; each reads from ``pos``, gives the next."""

    def __init__(self, text: str, file: str, limits: Limits) -> None:
        self.text, self.file = text, file
        self.build = _Builder(file, "not valid JSON", limits)
        self.seen_pos, self.seen_line = 0, 0

    def mark(self, pos: int) -> yaml.Mark:
        """The mark of ``pos`` (lines counted once, as the scan moves on)."""
        self.seen_line += self.text.count("\n", self.seen_pos, pos)
        self.seen_pos = pos
        return _mark(self.file, pos, self.seen_line)

    def bad(self, message: str, pos: int) -> DataFileError:
        return _fail(self.file, "not valid JSON", message, self.text.count("\n", 0, pos) + 1)

    def ws(self, pos: int) -> int:
        m = _JSON_WS.match(self.text, pos)
        return m.end() if m else pos

    def read(self) -> Node | None:
        pos, state = self.ws(0), "value"
        step = {"value": self.value, "key": self.key, "after": self.after}
        while state != "done":
            pos, state = step[state](pos)
        return self.build.root

    def string(self, pos: int) -> tuple[str, int]:
        """The JSON string starting at ``pos`` (its quote) and the position after it."""
        try:
            value, end = scanstring(self.text, pos + 1, True)
        except json.JSONDecodeError as exc:
            raise self.bad(exc.msg, exc.pos) from None
        return str(value), int(end)

    def value(self, pos: int) -> tuple[int, str]:
        text, build = self.text, self.build
        c = text[pos : pos + 1]
        if c in ("{", "["):
            build.open(
                MappingNode(MAP, [], self.mark(pos)) if c == "{" else SequenceNode(SEQ, [], self.mark(pos))
            )
            pos = self.ws(pos + 1)
            if text.startswith("}" if c == "{" else "]", pos):
                build.close()
                return pos + 1, "after"
            return pos, "key" if c == "{" else "value"
        if c == '"':
            value, new = self.string(pos)
            build.scalar(STR, value, self.mark(pos), '"')
            return new, "after"
        if c and c in "-0123456789":
            m = _JSON_NUMBER.match(text, pos)
            if not m:
                raise self.bad("Expecting value", pos)
            build.scalar(FLOAT if m.group(1) or m.group(2) else INT, m.group(), self.mark(pos))
            return m.end(), "after"
        for word, tag in _JSON_WORDS:
            if text.startswith(word, pos):
                build.scalar(tag, word, self.mark(pos))
                return pos + len(word), "after"
        raise self.bad("Expecting value", pos)

    def key(self, pos: int) -> tuple[int, str]:
        if not self.text.startswith('"', pos):
            raise self.bad("Expecting property name enclosed in double quotes", pos)
        key, new = self.string(pos)
        self.build.scalar(STR, key, self.mark(pos), '"')
        pos = self.ws(new)
        if not self.text.startswith(":", pos):
            raise self.bad("Expecting ':' delimiter", pos)
        return self.ws(pos + 1), "value"

    def after(self, pos: int) -> tuple[int, str]:
        pos = self.ws(pos)
        if not self.build.stack:
            if pos != len(self.text):
                raise self.bad("Extra data", pos)
            return pos, "done"
        is_map = self.build.stack[-1][1] is not None
        c = self.text[pos : pos + 1]
        if c == ",":
            return self.ws(pos + 1), "key" if is_map else "value"
        if c == ("}" if is_map else "]"):
            self.build.close()
            return pos + 1, "after"
        raise self.bad("Expecting ',' delimiter", pos)


def compose_text(text: str, name: str, *, is_json: bool = False, limits: Limits = LIMITS) -> Node | None:
    """The checked node tree of YAML (or JSON) text, or None for an empty YAML document.

    Nodes keep their line (``node.start_mark.line``, 0-based); scalars carry the strict-schema
    tag (:func:`scalar_value` gives their value); quoted YAML scalars and JSON strings have a
    ``style``. Raises :class:`DataFileError` naming ``name`` and the line.

    >>> compose_text("a: !!python/name:os.system x", "evil.yaml")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: evil.yaml: not valid YAML (line 1: tags (!!python/name:os.system) are not allowed)
    >>> compose_text('{"a": [[[[1]]]]}', "deep.json", is_json=True, limits=Limits(max_depth=3))
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: deep.json: refused (line 1: nested deeper than 3 levels)
    """
    if len(text) > limits.max_bytes:  # text that did not come through read_text (an upload)
        raise _fail(name, "refused", f"more than {limits.max_bytes:,} characters")
    text = text.removeprefix("\ufeff")  # a byte-order mark left by a decoder is not content
    if is_json:
        return _JsonReader(text, name, limits).read()
    return _compose_yaml(text, name, limits)


def load_data_text(text: str, name: str, *, is_json: bool = False, limits: Limits = LIMITS) -> Any:
    """Plain data from YAML (or JSON) text, with the loader's checks (see :func:`compose_text`).

    >>> load_data_text("turns: 1:30\\nlost: 1_0\\nflag: yes\\nwhen: 2024-01-01\\n", "m.yaml")
    {'turns': '1:30', 'lost': '1_0', 'flag': 'yes', 'when': '2024-01-01'}
    """
    return to_python(compose_text(text, name, is_json=is_json, limits=limits))


def load_data_file(path: Path, *, name: str | None = None, limits: Limits = LIMITS) -> Any:
    """The contents of a YAML (or ``.json``) data file, read safely.

    ``name`` is how messages call the file (its file name by default). An empty YAML file gives
    ``None``. Tags are refused like any other error.

    Example:
        >>> import tempfile
        >>> path = Path(tempfile.mkdtemp()) / "evil.yaml"
        >>> _ = path.write_text("!!python/object/apply:os.system ['true']\\n", encoding="utf-8")
        >>> load_data_file(path)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rulesbook.data.DataFileError: evil.yaml: not valid YAML (line 1: tags (...) are not allowed)
    """
    shown = name or Path(path).name
    text = read_text(path, name=shown, limits=limits)
    if _SNAPSHOT and limits == LIMITS:
        known = _SNAPSHOT.get(text_digest(text))
        if known is not None:
            return json.loads(known)  # a fresh copy, as parsing would give
    return load_data_text(text, shown, is_json=Path(path).suffix.lower() == ".json", limits=limits)


# -- snapshots -------------------------------------------------------------------------------------

_SNAPSHOT: dict[str, str] = {}  # what use_snapshot installed


def text_digest(text: str) -> str:
    """The SHA-256 (hex) of a text's UTF-8 bytes: how a snapshot knows a file's text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def use_snapshot(files: Mapping[str, str] | None) -> None:
    """Answer :func:`load_data_file` from ``files`` (text digest -> data as JSON) for a text it
    holds; ``None`` stops. Only reads with the default :data:`LIMITS` use it.

    >>> import tempfile; path = Path(tempfile.mkdtemp()) / "m.yaml"; _ = path.write_text("turns: 6\\n")
    >>> use_snapshot({text_digest("turns: 6\\n"): '{"turns": 7}'}); load_data_file(path)
    {'turns': 7}
    >>> use_snapshot(None); load_data_file(path)
    {'turns': 6}
    """
    _SNAPSHOT.clear()
    _SNAPSHOT.update(files or {})


# -- writing ---------------------------------------------------------------------------------------

_NEEDS_ESCAPES = re.compile(
    "[^\t\n\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]"
)


class _Dumper(yaml.SafeDumper):
    """YAML out: text with a character YAML would change or refuse is written double-quoted.

    In a double-quoted scalar PyYAML escapes line separators (NEL, U+2028, U+2029), C0/C1
    controls, U+FEFF and non-characters, which in plain or block style would be folded into
    spaces or refused on reading. Shared values are written out again, never as aliases
    (which the loader refuses).
    """

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if _NEEDS_ESCAPES.search(value):
        style: str | None = '"'
    elif _plain_tag(value) != STR:  # 1e5, TRUE, +1: text that the strict schema reads as a value
        style = "'"
    else:
        style = None
    return dumper.represent_scalar(STR, value, style=style)


_Dumper.add_representer(str, _represent_str)


def dump_yaml(data: Any) -> str:
    """YAML text that :func:`load_data_text` reads back as exactly ``data``.

    >>> data = {"name": "Blue\\x85Army\\u2028\\u202e\\ufffe 😀", "n": 3}
    >>> load_data_text(dump_yaml(data), "t.yaml") == data
    True
    """
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def dump_json(data: Any) -> str:
    """JSON text (UTF-8, readable) that :func:`load_data_text` reads back as exactly ``data``.

    >>> data = {"name": "Blue\\x85Army\\u2028\\u202e\\ufffe 😀"}
    >>> load_data_text(dump_json(data), "t.json", is_json=True) == data
    True
    """
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# -- checked field access --------------------------------------------------------------------------


def need(mapping: Any, key: str, where: str, kind: type | tuple[type, ...] = str) -> Any:
    """``mapping[key]``, checked to be of type ``kind``; DataFileError naming ``where.key`` if not.

    ``where`` is the dotted path of ``mapping`` in its file (``rules.yaml.rules[3]``). Pass
    ``kind=object`` to accept any value.

    >>> need({"turns": 6}, "turns", "mission.yaml", int)
    6
    >>> need({"turns": "six"}, "turns", "mission.yaml", int)
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: mission.yaml.turns: expected int, got str
    >>> need([1, 2], "turns", "mission.yaml")
    Traceback (most recent call last):
    ...
    rulesbook.data.DataFileError: mission.yaml: expected a mapping
    """
    if not isinstance(mapping, Mapping):
        raise DataFileError(f"{where}: expected a mapping")
    if key not in mapping:
        raise DataFileError(f"{where}: missing field '{key}'")
    value = mapping[key]
    if not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise DataFileError(f"{where}.{key}: expected {names}, got {type(value).__name__}")
    return value
