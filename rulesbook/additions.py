"""Added entries: what a variant's ``add:`` section adds to a rule system, declared by the system.

A designer's idea is sometimes not a changed number but a new thing: a new morale effect, a new
stratagem. A variant file says so under ``add:``, one mapping per *section* (``morale_effects``,
``stratagems``, …), each entry under a key of lower-case words joined by ``-``::

    add:
      morale_effects:
        general-slain: {name: General slain, value: 3, kind: one-time}

Which sections a system accepts, the rule each belongs to and how an entry is checked are the
system's own: it subclasses :class:`Additions` and lists its sections in ``SECTIONS``
(:class:`AddSection`: the rule and a check turning the raw entry into a frozen value with
``to_mapping()`` and ``describe()``), and its package declares the class
(``SystemPackage(additions=...)``, found by :meth:`rulesbook.registry.Registry.additions_class`).
The published choice set carries nothing added; a variant's carries the entries
(:attr:`rulesbook.choices.RuleChoices.additions`), and every calculator reads them from the
choice set it is given — the same path as parameters.

Example:
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Bonus:
    ...     value: int
    ...     def to_mapping(self): return {"value": self.value}
    ...     def describe(self): return f"{self.value:+d}"
    >>> def check(key, raw, field):
    ...     if not isinstance(raw, dict) or not isinstance(raw.get("value"), int):
    ...         raise InputError(field, "expected {value: INTEGER}")
    ...     return Bonus(raw["value"])
    >>> class DemoAdditions(Additions):
    ...     SECTIONS = {"bonuses": AddSection("demo.bonus", check, "extra points")}
    >>> added = DemoAdditions.from_mapping({"bonuses": {"lucky": {"value": 2}}}, "demo.yaml")
    >>> added.section("bonuses"), added.lines()
    ((('lucky', Bonus(value=2)),), ['add bonuses.lucky: +2'])

A section's ``inputs`` are the calculator inputs naming its entries; a form offers the added
keys there (:meth:`Additions.offered`)::

    >>> class OfferedAdditions(Additions):
    ...     SECTIONS = {"bonuses": AddSection("demo.bonus", check, "extra points", ("bonuses",))}
    >>> OfferedAdditions.from_mapping({"bonuses": {"lucky": {"value": 2}}}, "demo.yaml").offered("bonuses")
    ('lucky',)
    >>> DemoAdditions.from_mapping({"bonus": {}}, "demo.yaml")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: demo.yaml: add.bonus: unknown section; did you mean bonuses? allowed: inputs, tests, calculators, bonuses
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from rulesbook.errors import InputError, did_you_mean, quote
from rulesbook.language.document import SECTIONS as DECLARED_SECTIONS
from rulesbook.language.document import build_added

__all__ = [
    "ENTRY_KEY_RE",
    "LANGUAGE_SECTIONS",
    "NAME_KEY_RE",
    "NO_ADDITIONS",
    "AddSection",
    "Additions",
    "entry_key",
]

ENTRY_KEY_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
"""An added entry's key: lower-case words joined by ``-`` (``general-slain``)."""
NAME_KEY_RE = re.compile(r"^[a-z][a-z0-9_]*$")
"""An added input's key: a name an expression can read (``has_standard``)."""


@dataclass(frozen=True, slots=True)
class AddSection:
    """One section a system's ``add:`` accepts: the rule its entries belong to, the check of one
    entry (``check(key, raw, field)`` returns a frozen value with ``to_mapping()`` and
    ``describe()``, or raises InputError naming ``field``), what the section adds, in words, and
    the input keys that name its entries."""

    rule: str
    check: Callable[[str, Any, str], Any]
    help: str = ""
    inputs: tuple[str, ...] = ()
    """The calculator inputs that name entries of this section (their forms offer the added
    keys beside the printed ones; a comparison's published-rules column leaves them out)."""
    key_pattern: re.Pattern[str] = ENTRY_KEY_RE
    key_help: str = "use lower-case words joined by - (e.g. general-slain)"


@dataclass(frozen=True)
class Additions:
    """The entries a variant adds, section by section (immutable; empty by default).

    ``sections`` holds ``(section, ((key, entry), ...))`` pairs in the order written. A system
    that accepts an ``add:`` section subclasses this and fills ``SECTIONS``; the base class
    accepts none.
    """

    sections: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    SECTIONS: ClassVar[Mapping[str, AddSection]] = {}
    """The system's own sections (every system accepts the :data:`LANGUAGE_SECTIONS` too)."""

    def __bool__(self) -> bool:
        return any(entries for _, entries in self.sections)

    @classmethod
    def accepted(cls) -> Mapping[str, AddSection]:
        """Every section this system's ``add:`` accepts: the rules language's, then its own."""
        return {**LANGUAGE_SECTIONS, **cls.SECTIONS}

    @classmethod
    def from_mapping(cls, raw: Any, where: str) -> Self:
        """The checked entries of an ``add:`` mapping (``where`` names the file in errors)."""
        if raw is None:
            return cls()
        accepted = cls.accepted()
        allowed = ", ".join(accepted)
        if not isinstance(raw, Mapping):
            raise InputError(f"{where}: add", f"expected a mapping of section: entries; sections: {allowed}")
        out = []
        for section, entries in raw.items():
            field = f"{where}: add.{section}"
            spec = accepted.get(section) if isinstance(section, str) else None
            if spec is None:
                hint = did_you_mean(str(section), list(accepted)) or ";"
                raise InputError(field, f"unknown section{hint} allowed: {allowed}")
            if entries is None:
                continue
            if not isinstance(entries, Mapping) or not entries:
                raise InputError(field, "expected a mapping of key: entry (keys such as general-slain)")
            checked = []
            for key, value in entries.items():
                if not isinstance(key, str) or not spec.key_pattern.match(key):
                    raise InputError(f"{field}.{key}", f"key {quote(key)}: {spec.key_help}")
                checked.append((key, spec.check(key, value, f"{field}.{key}")))
            out.append((section, tuple(checked)))
        return cls(tuple(out))

    @classmethod
    def rule(cls, section: str) -> str:
        """The rule ID a section's entries belong to (``""`` for the rules language's)."""
        return cls.accepted()[section].rule

    def section(self, name: str) -> tuple[tuple[str, Any], ...]:
        """The entries added to section ``name`` (empty when none)."""
        return next((entries for section, entries in self.sections if section == name), ())

    def offered(self, input_key: str) -> tuple[str, ...]:
        """The added keys a form offers for input ``input_key`` (by default all it can name,
        :meth:`named`; a system may offer fewer)."""
        return self.named(input_key)

    def named(self, input_key: str) -> tuple[str, ...]:
        """The added keys an input named ``input_key`` can name (its sections' ``inputs``)."""
        return tuple(
            key
            for section, entries in self.sections
            if input_key in self.accepted()[section].inputs
            for key, _ in entries
        )

    def merged(
        self, other: Additions, names: tuple[str, str] = ("the choice set", "the variant")
    ) -> Additions:
        """Both sets of entries (``other`` after this one); one key added twice with different
        entries is a conflict (InputError naming both sources via ``names``)."""
        if not other:
            return self
        if not self:
            return other
        merged: dict[str, dict[str, Any]] = {s: dict(e) for s, e in self.sections}
        for section, entries in other.sections:
            target = merged.setdefault(section, {})
            for key, entry in entries:
                if key in target and target[key] != entry:
                    raise InputError(
                        "variant",
                        f"conflict: {names[0]} and {names[1]} both add {section}.{key} differently; "
                        "drop one, or give one of them another key",
                    )
                target[key] = entry
        return type(self)(tuple((s, tuple(e.items())) for s, e in merged.items() if e))

    def to_mapping(self) -> dict[str, Any]:
        """The ``add:`` mapping a variant file writes (read back by :meth:`from_mapping`)."""
        return {s: {k: e.to_mapping() for k, e in entries} for s, entries in self.sections if entries}

    def changed(self) -> dict[str, str]:
        """Every added entry in words, ``{"add.SECTION.KEY": description}``."""
        return {f"add.{s}.{k}": e.describe() for s, entries in self.sections for k, e in entries}

    def lines(self) -> list[str]:
        """One line per added entry: ``add SECTION.KEY: description``."""
        return [f"{key.replace('add.', 'add ', 1)}: {text}" for key, text in self.changed().items()]


def entry_key(word: str) -> str:
    """The entry a word of an input names: its key, without a count (``supply-lines=2``) or
    a multiplier (``rotwind*2``).

    >>> entry_key("supply-lines=2"), entry_key("monster-hunters")
    ('supply-lines', 'monster-hunters')
    """
    found = re.match(r"[a-z0-9]+(?:-[a-z0-9]+)*", word.strip().lower())
    return found.group(0) if found else ""


def _language_check(section: str) -> Callable[[str, Any, str], Any]:
    def check(key: str, raw: Any, field: str) -> Any:
        return build_added(section, key, raw, ("add", section, key))

    return check


LANGUAGE_SECTIONS: Mapping[str, AddSection] = {
    section: AddSection(
        "",
        _language_check(section),
        help,
        key_pattern=NAME_KEY_RE if section == "inputs" else ENTRY_KEY_RE,
        key_help="use lower-case letters, digits and _ (e.g. has_standard)"
        if section == "inputs"
        else "use lower-case words joined by - (e.g. terror-test)",
    )
    for section, help in (
        ("inputs", "new inputs, in the rules language (docs/designer/language.md)"),
        ("tests", "new roll tests, or entries (modifiers, faces, re-rolls) added to a test of the system"),
        ("calculators", "new calculators built from tests"),
    )
    if section in DECLARED_SECTIONS
}
"""The sections of the rules language every system's ``add:`` accepts (``inputs``, ``tests``,
``calculators``; :mod:`rulesbook.language`); a system's own sections come after them."""


NO_ADDITIONS = Additions()
"""Nothing added (the default of a choice set and a variant)."""
