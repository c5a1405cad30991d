"""The registry: stable dotted IDs -> systems, rules, interpretations and calculators.

Rule texts, citations and interpretations are data: each system package ships a
``rules.yaml`` (loaded with ``yaml.safe_load``) holding its system record, its rules in our own
words and its interpretations register. Code joins the data through two decorators:

* :func:`implements` marks the function(s) that execute a rule, so a rule's page and
  ``rulesbook rule ID`` can name its code;
* calculators register themselves with :meth:`Registry.add_calculator` (see
  :mod:`rulesbook.calculators`).

Example:
    >>> from rulesbook.registry import registry
    >>> rule = registry().rule("scrollhammer.morale.insane-heroism")
    >>> rule.title, rule.citations[0].section
    ('Insane Heroism', 'Insane Heroism')
    >>> "scrollhammer.morale-check" in [c.id for c in registry().calculators_for_rule(rule.id)]
    True
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from rulesbook.errors import InputError, RulesbookError

if TYPE_CHECKING:  # pragma: no cover
    from rulesbook.calculators import Calculator

__all__ = [
    "Citation",
    "Implementation",
    "Interpretation",
    "Option",
    "Registry",
    "Rule",
    "System",
    "SystemPackage",
    "implements",
    "load_system_data",
    "registry",
]

ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$")
"""Dotted IDs: lower-case words joined by ``-``, parts joined by ``.`` (systems have one part)."""

SEEDS_README = "shared/seeds/README.md"


class DataFileError(RulesbookError):
    """A rules data file is malformed; the message names the file and the field."""


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a rule comes from: the source document (file name) and its section."""

    document: str
    section: str
    note: str = ""

    def __str__(self) -> str:
        extra = f" ({self.note})" if self.note else ""
        return f"{self.document}, section “{self.section}”{extra}"


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


@dataclass
class Registry:
    """Index of everything that has an ID. Systems register on import (see :func:`registry`)."""

    systems: dict[str, System] = field(default_factory=dict)
    rules: dict[str, Rule] = field(default_factory=dict)
    interpretations: dict[str, Interpretation] = field(default_factory=dict)
    calculators: dict[str, Calculator] = field(default_factory=dict)
    implementations: dict[str, list[Implementation]] = field(default_factory=dict)
    choices: dict[str, Any] = field(default_factory=dict)
    """Each system's :class:`rulesbook.choices.RuleChoices` (its declared parameters and readings)."""

    # -- registration ---------------------------------------------------------------------
    def add_system_data(
        self,
        system: System,
        rules: Iterable[Rule],
        interpretations: Iterable[Interpretation],
    ) -> None:
        """Add a system with its rules and interpretations (IDs must be new)."""
        self._add(self.systems, system.id, system)
        for rule in rules:
            self._add(self.rules, rule.id, rule)
        for interp in interpretations:
            self._add(self.interpretations, interp.id, interp)

    def add_calculator(self, calc: Calculator) -> Calculator:
        """Register a calculator; its rule IDs must exist already."""
        for rule_id in calc.rules:
            if rule_id not in self.rules:
                raise RulesbookError(f"calculator {calc.id} names unknown rule {rule_id}")
        old = self.calculators.get(calc.id)
        if old is not None and _origin(old.compute) == _origin(calc.compute):
            return old  # the same module imported a second time (doctest collection): keep one
        self._add(self.calculators, calc.id, calc)
        return calc

    def add_implementation(self, impl: Implementation) -> None:
        """Record that a function implements a rule."""
        bucket = self.implementations.setdefault(impl.rule_id, [])
        if all((i.qualname, i.file, i.line) != (impl.qualname, impl.file, impl.line) for i in bucket):
            bucket.append(impl)

    @staticmethod
    def _add[V](table: dict[str, V], key: str, value: V) -> None:
        if not ID_RE.match(key):
            raise RulesbookError(f"malformed ID {key!r}: use dotted lower-case words")
        if key in table and table[key] != value:
            raise RulesbookError(f"duplicate ID {key}")
        table[key] = value

    # -- look-ups -----------------------------------------------------------------------------
    def _get[V](self, table: Mapping[str, V], key: str, kind: str) -> V:
        try:
            return table[key]
        except KeyError:
            close = difflib.get_close_matches(key, list(table), n=3)
            hint = (
                f"; did you mean {', '.join(close)}?"
                if close
                else f"; see `rulesbook list` ({len(table)} known)"
            )
            raise InputError(kind, f"unknown {kind} ID {key!r}{hint}") from None

    def system(self, system_id: str) -> System:
        """The system with this ID (InputError if unknown)."""
        return self._get(self.systems, system_id, "system")

    def rule(self, rule_id: str) -> Rule:
        """The rule with this ID (InputError if unknown)."""
        return self._get(self.rules, rule_id, "rule")

    def calculator(self, calc_id: str) -> Calculator:
        """The calculator with this ID (InputError if unknown)."""
        return self._get(self.calculators, calc_id, "calculator")

    def interpretation(self, interp_id: str) -> Interpretation:
        """The interpretation with this ID (InputError if unknown)."""
        return self._get(self.interpretations, interp_id, "interpretation")

    def rules_for_system(self, system_id: str) -> list[Rule]:
        """Rules of a system, in the order its data file gives them."""
        return [r for r in self.rules.values() if r.system == system_id]

    def calculators_for_system(self, system_id: str) -> list[Calculator]:
        """Calculators of a system, in registration order."""
        return [c for c in self.calculators.values() if c.system == system_id]

    def interpretations_for_system(self, system_id: str) -> list[Interpretation]:
        """Interpretations of a system, in data-file order."""
        return [i for i in self.interpretations.values() if i.system == system_id]

    def calculators_for_rule(self, rule_id: str) -> list[Calculator]:
        """Calculators that use the rule."""
        return [c for c in self.calculators.values() if rule_id in c.rules]

    def interpretations_for_rule(self, rule_id: str) -> list[Interpretation]:
        """Interpretations attached to the rule (either side may name the other)."""
        rule = self.rules.get(rule_id)
        named = set(rule.interpretations) if rule else set()
        return [i for i in self.interpretations.values() if i.id in named or rule_id in i.rules]

    def implementations_for_rule(self, rule_id: str) -> list[Implementation]:
        """Functions marked with :func:`implements` for the rule."""
        return list(self.implementations.get(rule_id, []))

    def any(self, some_id: str) -> Rule | Calculator | Interpretation | System:
        """Whatever has this ID."""
        for table in (self.rules, self.calculators, self.interpretations, self.systems):
            if some_id in table:
                return table[some_id]
        every = [*self.rules, *self.calculators, *self.interpretations, *self.systems]
        close = difflib.get_close_matches(some_id, every, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see `rulesbook list`"
        raise InputError("id", f"unknown ID {some_id!r}{hint}")


def _origin(func: Callable[..., Any]) -> tuple[str, str]:
    code = getattr(func, "__code__", None)
    return (getattr(code, "co_filename", ""), getattr(func, "__qualname__", ""))


@dataclass(frozen=True, slots=True)
class SystemPackage:
    """What a system package (``rulesbook/systems/<system>/__init__.py``) gives the loader.

    ``data`` is its ``rules.yaml``; ``choices`` its :class:`rulesbook.choices.RuleChoices`
    (checked against the interpretations register at load); ``calculator_modules`` the modules
    whose module-level :class:`~rulesbook.calculators.Calculator` objects are registered, in
    definition order. Nothing registers itself at import time, so import order never matters.
    """

    data: Path
    choices: Any = None
    calculator_modules: tuple[str, ...] = ()


_REGISTRY = Registry()
_LOADED = False


def load_system_package(package: SystemPackage) -> System:
    """Load one system: its data, the check of its choices, then its calculators."""
    from rulesbook.calculators import Calculator
    from rulesbook.choices import register_problems

    system, rules, interps = load_system_data(package.data)
    if package.choices is not None:
        problems = register_problems(package.choices, interps, [r.id for r in rules])
        if problems:
            raise DataFileError(f"{package.data.name}: {problems[0]}")
    _REGISTRY.add_system_data(system, rules, interps)
    if package.choices is not None:
        _REGISTRY.choices[system.id] = package.choices
    for name in package.calculator_modules:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, Calculator) and value.system == system.id:
                _REGISTRY.add_calculator(value)
    return system


def registry() -> Registry:
    """The registry with every system in :mod:`rulesbook.systems` loaded (once)."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        import rulesbook.systems as pkg

        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if info.ispkg:
                module = importlib.import_module(f"{pkg.__name__}.{info.name}")
                package = getattr(module, "SYSTEM", None)
                if not isinstance(package, SystemPackage):
                    raise RulesbookError(f"{module.__name__}: define SYSTEM = SystemPackage(...)")
                load_system_package(package)
    return _REGISTRY


def raw_registry() -> Registry:
    """The registry without triggering system imports (used by the systems while they load)."""
    return _REGISTRY


def implements[F: Callable[..., Any]](*rule_ids: str) -> Callable[[F], F]:
    """Mark a function as the code that executes the given rule(s).

    Example:
        >>> @implements("scrollhammer.morale.check")
        ... def my_check() -> None: ...
        >>> any(i.qualname == "my_check" for i in registry().implementations_for_rule("scrollhammer.morale.check"))
        True
    """

    def mark(func: F) -> F:
        try:
            file = inspect.getsourcefile(func) or ""
            line = inspect.getsourcelines(func)[1]
        except (OSError, TypeError):  # pragma: no cover - interactive definitions
            file, line = "", 0
        for rule_id in rule_ids:
            _REGISTRY.add_implementation(
                Implementation(rule_id, func.__qualname__, func.__module__, file, line)
            )
        return func

    return mark


# -- data files -------------------------------------------------------------------------------


def _need(mapping: Mapping[str, Any], key: str, where: str, kind: type | tuple[type, ...] = str) -> Any:
    if not isinstance(mapping, Mapping):
        raise DataFileError(f"{where}: expected a mapping")
    if key not in mapping:
        raise DataFileError(f"{where}: missing field '{key}'")
    value = mapping[key]
    if not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise DataFileError(f"{where}.{key}: expected {names}, got {type(value).__name__}")
    return value


def _citations(raw: Any, where: str, document: str) -> tuple[Citation, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise DataFileError(f"{where}.cite: expected a list")
    out = []
    for i, item in enumerate(raw):
        w = f"{where}.cite[{i}]"
        if isinstance(item, str):
            out.append(Citation(document, item))
        else:
            out.append(
                Citation(
                    str(item.get("document", document)),
                    _need(item, "section", w),
                    str(item.get("note", "")),
                )
            )
    return tuple(out)


def load_system_data(path: Path) -> tuple[System, list[Rule], list[Interpretation]]:
    """Load and check a system's ``rules.yaml``.

    The file has three top-level keys: ``system`` (id, title, version, source, summary),
    ``rules`` (a list of id, title, cite, text, interpretations, see_also) and
    ``interpretations`` (a list of id, question, default, why, options, rules, cite).
    Malformed files raise :class:`DataFileError` naming the file and the field.
    """
    where = path.name
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise DataFileError(f"{where}: not valid YAML ({exc})") from None
    sysd = _need(data, "system", where, dict)
    system = System(
        id=_need(sysd, "id", f"{where}.system"),
        title=_need(sysd, "title", f"{where}.system"),
        version=str(_need(sysd, "version", f"{where}.system", (str, int, float))),
        source=_need(sysd, "source", f"{where}.system"),
        summary=str(sysd.get("summary", "")).strip(),
        source_title=str(sysd.get("source_title", "")),
    )
    rules = []
    for i, r in enumerate(_need(data, "rules", where, list)):
        w = f"{where}.rules[{i}]"
        rules.append(
            Rule(
                id=_need(r, "id", w),
                system=system.id,
                title=_need(r, "title", w),
                text=_need(r, "text", w).strip(),
                citations=_citations(r.get("cite"), w, system.source),
                interpretations=tuple(r.get("interpretations", ()) or ()),
                see_also=tuple(r.get("see_also", ()) or ()),
                summary=str(r.get("summary", "")).strip(),
            )
        )
        if not rules[-1].citations:
            raise DataFileError(f"{w}.cite: every rule cites its source section")
    interps = []
    for i, it in enumerate(data.get("interpretations", []) or []):
        w = f"{where}.interpretations[{i}]"
        options = []
        for j, o in enumerate(_need(it, "options", w, list)):
            ow = f"{w}.options[{j}]"
            options.append(
                Option(str(_need(o, "key", ow)), _need(o, "label", ow), str(o.get("description", "")).strip())
            )
        interp = Interpretation(
            id=_need(it, "id", w),
            system=system.id,
            question=_need(it, "question", w).strip(),
            default=_need(it, "default", w),
            why=_need(it, "why", w).strip(),
            options=tuple(options),
            rules=tuple(it.get("rules", ()) or ()),
            citation=(_citations(it.get("cite"), w, system.source) or (None,))[0],
            fact_source=str(it.get("fact_source", "")).strip(),
        )
        if interp.default not in {o.key for o in options}:
            raise DataFileError(f"{w}.default: {interp.default!r} is not one of the options")
        if len(options) < 2:
            raise DataFileError(
                f"{w}.options: an interpretation needs the default and at least one alternative"
            )
        interps.append(interp)
    known_rules = {r.id for r in rules}
    for r in rules:
        for ref in r.interpretations:
            if ref not in {i.id for i in interps}:
                raise DataFileError(f"{where}: rule {r.id} names unknown interpretation {ref}")
    for it in interps:
        for ref in it.rules:
            if ref not in known_rules:
                raise DataFileError(f"{where}: interpretation {it.id} names unknown rule {ref}")
    return system, rules, interps


def register_system_file(path: Path) -> System:
    """Load a system's ``rules.yaml`` into the registry (called from the system's package)."""
    system, rules, interps = load_system_data(path)
    _REGISTRY.add_system_data(system, rules, interps)
    return system
