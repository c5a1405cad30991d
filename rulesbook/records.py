"""The records of a rule system and the reader of its ``rules.yaml``.

A system's data file holds three kinds of record: the :class:`System` (ID, title, version,
source), its :class:`Rule` texts in our own words with their :class:`Citation` s, and its
interpretations register (:class:`Interpretation` with its :class:`Option` s).
:func:`load_system_data` reads and checks the file through :func:`rulesbook.data.load_data_file`.
These are plain immutable values with no knowledge of the registry, so every module — the
calculators included — can read them without importing the registry (no import cycle);
:mod:`rulesbook.registry` indexes them and re-exports every name.

Example:
    >>> from pathlib import Path
    >>> import rulesbook.systems.scrollhammer as sh
    >>> system, rules, interps = load_system_data(Path(sh.__file__).with_name("rules.yaml"))
    >>> system.id, rules[0].citations[0].document == system.source
    ('scrollhammer', True)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulesbook.data import DataFileError, load_data_file, need
from rulesbook.data.lines import located_in
from rulesbook.errors import quote

__all__ = [
    "ID_RE",
    "Citation",
    "Implementation",
    "Interpretation",
    "Option",
    "Rule",
    "Source",
    "System",
    "load_source",
    "load_system_data",
]

ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$")
"""Dotted IDs: lower-case words joined by ``-``, parts joined by ``.`` (systems have one part)."""


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a rule comes from: the source document (file name), its section, and the document's
    title as a reader knows it (``short`` of the system's ``source.yaml``), which is what every
    reader sees; the file name stays for tools (the Sources page names it once).

    >>> str(Citation("003_x.txt", "Insane Heroism", title="Scrollhammer Morale section"))
    'Scrollhammer Morale section, § Insane Heroism'
    """

    document: str
    section: str
    note: str = ""
    title: str = ""

    def __str__(self) -> str:
        extra = f" ({self.note})" if self.note else ""
        return f"{self.title or self.document}, § {self.section}{extra}"


@dataclass(frozen=True, slots=True)
class System:
    """A rule system: its ID, title, version (as data) and source document."""

    id: str
    title: str
    version: str
    source: str
    summary: str
    source_title: str = ""


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: ID, title, our-words Markdown text and its citations."""

    id: str
    system: str
    title: str
    text: str
    citations: tuple[Citation, ...]
    interpretations: tuple[str, ...] = ()
    see_also: tuple[str, ...] = ()
    summary: str = ""


@dataclass(frozen=True, slots=True)
class Option:
    """One answer to an interpretation question."""

    key: str
    label: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Interpretation:
    """A gap or ambiguity in a source, the default we chose, why, and the alternatives.

    ``options`` always contains the default; a calculator can expose the choice as an input
    (:class:`rulesbook.calculators.InterpretationInput`), so alternatives are switchable.
    """

    id: str
    system: str
    question: str
    default: str
    why: str
    options: tuple[Option, ...]
    rules: tuple[str, ...] = ()
    citation: Citation | None = None
    fact_source: str = ""

    def option(self, key: str) -> Option:
        """The option called ``key``."""
        for opt in self.options:
            if opt.key == key:
                return opt
        raise KeyError(key)

    @property
    def option_keys(self) -> tuple[str, ...]:
        """Keys of every option, default first."""
        keys = [self.default] + [o.key for o in self.options if o.key != self.default]
        return tuple(keys)

    @property
    def alternatives(self) -> tuple[Option, ...]:
        """The options that are not the default."""
        return tuple(o for o in self.options if o.key != self.default)


@dataclass(frozen=True, slots=True)
class Implementation:
    """A function that executes (part of) a rule."""

    rule_id: str
    qualname: str
    module: str
    file: str
    line: int
    function: Callable[..., Any] | None = field(default=None, compare=False, repr=False)
    """The published function itself (signature checks of a designer's override)."""
    overridable: bool = False
    """True when a choice set can carry other code for the rule in its place (it takes ``choices``)."""


# -- the data file -----------------------------------------------------------------------------


def _citations(raw: Any, where: str, document: str, title: str = "") -> tuple[Citation, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise DataFileError(f"{where}.cite: expected a list")
    out = []
    for i, item in enumerate(raw):
        w = f"{where}.cite[{i}]"
        if isinstance(item, str):
            out.append(Citation(document, item, title=title))
        else:
            other = str(item.get("document", document))
            out.append(
                Citation(
                    other,
                    need(item, "section", w),
                    str(item.get("note", "")),
                    title if other == document else str(item.get("title", "")),
                )
            )
    return tuple(out)


def _source_short(path: Path) -> str:
    """The short title of the document beside ``rules.yaml`` (its ``source.yaml``), if any."""
    source = path.with_name("source.yaml")
    if not source.is_file():
        return ""
    data = load_data_file(source)
    short = data.get("short") if isinstance(data, dict) else None
    return " ".join(short.split()) if isinstance(short, str) else ""


def load_system_data(path: Path) -> tuple[System, list[Rule], list[Interpretation]]:
    """Load and check a system's ``rules.yaml``.

    The file has three top-level keys: ``system`` (id, title, version, source, summary),
    ``rules`` (a list of id, title, cite, text, interpretations, see_also) and
    ``interpretations`` (a list of id, question, default, why, options, rules, cite).
    Malformed files raise :class:`DataFileError` naming the file, the line and the field
    (:func:`rulesbook.data.lines.located_in`).
    """
    try:
        return _system_data(path)
    except DataFileError as exc:
        raise located_in(exc, path) from None


def _system_data(path: Path) -> tuple[System, list[Rule], list[Interpretation]]:
    where = path.name
    data = load_data_file(path)
    system = _system(need(data, "system", where, dict), f"{where}.system")
    title = _source_short(path) or system.source_title
    rules = [
        _rule(r, f"{where}.rules[{i}]", system, title) for i, r in enumerate(need(data, "rules", where, list))
    ]
    interps = [
        _interpretation(it, f"{where}.interpretations[{i}]", system, title)
        for i, it in enumerate(data.get("interpretations", []) or [])
    ]
    _check_references(where, rules, interps)
    return system, rules, interps


def _system(sysd: Any, where: str) -> System:
    """The ``system:`` record."""
    return System(
        id=need(sysd, "id", where),
        title=need(sysd, "title", where),
        version=str(need(sysd, "version", where, (str, int, float))),
        source=need(sysd, "source", where),
        summary=str(sysd.get("summary", "")).strip(),
        source_title=str(sysd.get("source_title", "")),
    )


def _rule(r: Any, where: str, system: System, title: str) -> Rule:
    """One entry of ``rules:``; every rule cites its source section."""
    rule = Rule(
        id=need(r, "id", where),
        system=system.id,
        title=need(r, "title", where),
        text=need(r, "text", where).strip(),
        citations=_citations(r.get("cite"), where, system.source, title),
        interpretations=tuple(r.get("interpretations", ()) or ()),
        see_also=tuple(r.get("see_also", ()) or ()),
        summary=str(r.get("summary", "")).strip(),
    )
    if not rule.citations:
        raise DataFileError(f"{where}.cite: every rule cites its source section")
    return rule


def _interpretation(it: Any, where: str, system: System, title: str) -> Interpretation:
    """One entry of the register: a default among at least two options."""
    options = []
    for j, o in enumerate(need(it, "options", where, list)):
        ow = f"{where}.options[{j}]"
        options.append(
            Option(str(need(o, "key", ow)), need(o, "label", ow), str(o.get("description", "")).strip())
        )
    interp = Interpretation(
        id=need(it, "id", where),
        system=system.id,
        question=need(it, "question", where).strip(),
        default=need(it, "default", where),
        why=need(it, "why", where).strip(),
        options=tuple(options),
        rules=tuple(it.get("rules", ()) or ()),
        citation=(_citations(it.get("cite"), where, system.source, title) or (None,))[0],
        fact_source=str(it.get("fact_source", "")).strip(),
    )
    if interp.default not in {o.key for o in options}:
        raise DataFileError(f"{where}.default: {quote(interp.default)} is not one of the options")
    if len(options) < 2:
        raise DataFileError(
            f"{where}.options: an interpretation needs the default and at least one alternative"
        )
    return interp


def _check_references(where: str, rules: list[Rule], interps: list[Interpretation]) -> None:
    """Every interpretation a rule names exists, and every rule an interpretation names."""
    known_rules = {r.id for r in rules}
    known_interps = {i.id for i in interps}
    for r in rules:
        for ref in r.interpretations:
            if ref not in known_interps:
                raise DataFileError(f"{where}: rule {r.id} names unknown interpretation {ref}")
    for it in interps:
        for ref in it.rules:
            if ref not in known_rules:
                raise DataFileError(f"{where}: interpretation {it.id} names unknown rule {ref}")


# -- the source document ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Source:
    """One source document: its title, the short title citations use, file, coverage and gaps."""

    system: str
    title: str
    short: str
    file: str
    kind: str
    covers: tuple[str, ...]
    gaps: tuple[str, ...]


def _text(data: dict[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise DataFileError(f"{where}.{key}: expected a non-empty text")
    return value.strip()


def _texts(data: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise DataFileError(f"{where}.{key}: expected a list of texts")
    return tuple(" ".join(v.split()) for v in value)


def load_source(path: Path, system: str) -> Source:
    """Read one ``source.yaml`` (the one data loader); DataFileError naming the file, the line and
    the field otherwise."""
    try:
        return _source_of(path, system)
    except DataFileError as exc:
        raise located_in(exc, path) from None


def _source_of(path: Path, system: str) -> Source:
    where = path.name
    data = load_data_file(path)
    if not isinstance(data, dict):
        raise DataFileError(f"{where}: expected a mapping with title, short, file, kind, covers, gaps")
    return Source(
        system=system,
        title=_text(data, "title", where),
        short=_text(data, "short", where),
        file=_text(data, "file", where),
        kind=_text(data, "kind", where),
        covers=_texts(data, "covers", where),
        gaps=_texts(data, "gaps", where),
    )
