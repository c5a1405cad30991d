"""The registry: stable dotted IDs -> systems, rules, interpretations and calculators.

Rule texts, citations and interpretations are data: each system package ships a
``rules.yaml`` (read by :func:`rulesbook.data.load_data_file`) holding its system record, its
rules in our own words and its interpretations register. Code joins the data through two
decorators:

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

import functools
import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesbook.additions import Additions
from rulesbook.data import DataFileError
from rulesbook.errors import InputError, RulesbookError, did_you_mean, quote
from rulesbook.language.files import implementations
from rulesbook.language.mechanics import Mechanics, choice_names
from rulesbook.language.systems import data_system_folders, load_data_system
from rulesbook.records import (
    ID_RE,
    Implementation,
    Interpretation,
    Rule,
    System,
    load_system_data,
)
from rulesbook.rosters.views import RosterAdapter

if TYPE_CHECKING:  # pragma: no cover
    from rulesbook.calculators import Calculator

__all__ = ["App", "Registry", "SystemPackage", "implements", "registry"]


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
    apps: dict[str, App] = field(default_factory=dict)
    additions: dict[str, type[Additions]] = field(default_factory=dict)
    """Each system's class of added entries (what its variants' ``add:`` section accepts)."""
    """Special apps by name (:class:`App`), as their systems declare them."""
    mechanics: dict[str, Mechanics] = field(default_factory=dict)
    """Each system's declarations in the rules language (:class:`rulesbook.language.mechanics.Mechanics`:
    its declared tests, inputs and calculators; empty for a system that declares none)."""
    folders: dict[str, Path] = field(default_factory=dict)
    """Each system's folder (its ``rules.yaml``, ``source.yaml``, ``glossary.yaml``, ``cases.yaml``,
    ``guide.md`` and ``variants/`` are there)."""
    roster_readers: dict[str, str] = field(default_factory=dict)
    """Where each system's reader of army-builder rosters is (``"module:NAME"`` of a
    :class:`rulesbook.rosters.RosterAdapter`), by system ID, for the systems that read them;
    :meth:`roster_adapters` loads them."""
    commands: dict[str, str] = field(default_factory=dict)
    """The ``rulesbook`` commands the systems bring, by name: where each is (``"module:NAME"`` of
    a click command), loaded by :meth:`command` when the command line is asked for it."""

    def command(self, name: str) -> Any:
        """The click command a system brings under ``name`` (loaded now), or ``None``."""
        where = self.commands.get(name)
        if where is None:
            return None
        module, _, attr = where.partition(":")
        return getattr(importlib.import_module(module), attr)

    def roster_adapters(self) -> dict[str, RosterAdapter]:
        """Each system's roster reader, loaded now (a system's package stays light to import)."""
        out = {}
        for system_id, where in self.roster_readers.items():
            module, _, name = where.partition(":")
            adapter = getattr(importlib.import_module(module), name)
            if not isinstance(adapter, RosterAdapter):
                raise RulesbookError(f"{system_id}: rosters={where} is not a RosterAdapter")
            out[system_id] = adapter
        return out

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

    def add_app(self, app: App) -> None:
        """Register a special app (its name must be new)."""
        self._add(self.apps, app.name, app)

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
            hint = (
                did_you_mean(key, table, most=3, cutoff=0.6) or f"; see `rulesbook list` ({len(table)} known)"
            )
            raise InputError(kind, f"unknown {kind} ID {quote(key)}{hint}") from None

    def folder(self, system_id: str) -> Path:
        """The folder of a system's files (its ``rules.yaml`` beside them).

        >>> registry().folder("scrollhammer").name
        'scrollhammer'
        """
        return self.folders.get(system_id) or _SYSTEMS_DIR / system_id.replace("-", "_")

    def additions_class(self, system_id: str) -> type[Additions]:
        """The class of the entries a variant of the system may add (the base class, which
        accepts no ``add:`` section, for a system that declares none).

        >>> registry().additions_class("wh40k").SECTIONS["stratagems"].rule
        'wh40k.core.declared-effects'
        """
        return self.additions.get(system_id, Additions)

    def system(self, system_id: str) -> System:
        """The system with this ID (InputError if unknown)."""
        return self._get(self.systems, system_id, "system")

    def rule(self, rule_id: str) -> Rule:
        """The rule with this ID (InputError if unknown)."""
        return self._get(self.rules, rule_id, "rule")

    def rules_named(self, rule_ids: Iterable[str]) -> tuple[Rule, ...]:
        """The rules with these IDs, in that order (what a calculator's ``rules`` name).

        >>> [r.title for r in registry().rules_named(["scrollhammer.morale.check"])]
        ['Morale checks']
        """
        return tuple(self.rule(rule_id) for rule_id in rule_ids)

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
        hint = did_you_mean(some_id, every, most=3, cutoff=0.6) or "; see `rulesbook list`"
        raise InputError("id", f"unknown ID {quote(some_id)}{hint}")


def _origin(func: Callable[..., Any]) -> tuple[str, str]:
    code = getattr(func, "__code__", None)
    return (getattr(code, "co_filename", ""), getattr(func, "__qualname__", ""))


@dataclass(frozen=True, slots=True)
class App:
    """A special app a system offers beside its calculators (served at ``/app/<name>``).

    The core never imports a front-end: ``panel`` and ``ipywidgets`` name the factories as
    ``"module:function"`` strings, loaded by the server and the notebooks when asked for.
    ``calculator`` is the calculator a static page offers instead (the app needs the server).

    >>> App("tracker", "Tracker", "Keeps a game.", panel="widgets.x:served").panel_factory
    ('widgets.x', 'served')
    """

    name: str
    title: str
    summary: str
    panel: str
    ipywidgets: str = ""
    calculator: str = ""

    @property
    def panel_factory(self) -> tuple[str, str]:
        """(module, function) of the served Panel app."""
        module, _, func = self.panel.partition(":")
        return module, func

    @property
    def ipywidgets_name(self) -> str:
        """The ipywidgets factory's function name (what a notebook cell calls), or ``""``."""
        return self.ipywidgets.partition(":")[2]


@dataclass(frozen=True, slots=True)
class SystemPackage:
    """What a system package (``rulesbook/systems/<system>/__init__.py``) gives the loader.

    ``data`` is its ``rules.yaml``; ``choices`` its :class:`rulesbook.choices.RuleChoices`
    (checked against the interpretations register at load); ``calculator_modules`` the modules
    whose module-level :class:`~rulesbook.calculators.Calculator` objects are registered, in
    definition order; ``extra_rules`` gives rules kept in other data files (a faction page's
    datasheets, abilities and stratagems), registered after ``rules.yaml``'s and checked against
    its register; ``extra_implementations`` the code that executes rules declared as data (a
    faction page's rules run through their declared effects); ``apps`` the special apps it offers
    (:class:`App`); ``additions`` the class of the entries a variant's ``add:`` section adds
    (:class:`rulesbook.additions.Additions`, a subclass naming the sections the system accepts;
    the base class accepts none); ``rosters`` where its reader of army-builder rosters is, if it has
    one (``"module:NAME"`` of a :class:`~rulesbook.rosters.RosterAdapter`, loaded when a roster is
    read). Nothing registers itself at import time, so import order never matters.
    """

    data: Path
    choices: Any = None
    calculator_modules: tuple[str, ...] = ()
    extra_rules: Callable[[], Iterable[Rule]] | None = None
    apps: tuple[App, ...] = ()
    extra_implementations: Callable[[], Iterable[Implementation]] | None = None
    mechanics: Mechanics | None = None
    """What the system declares in the rules language (its ``mechanics.yaml``, read with
    :func:`rulesbook.language.files.load_mechanics`), if anything."""
    calculators: Callable[[], Iterable[Calculator]] | None = None
    """Calculators built from data (a system written in the rules language), registered after
    the modules' ones."""
    additions: type[Additions] = Additions
    rosters: str = ""
    commands: tuple[tuple[str, str], ...] = ()
    """The commands the system adds to the ``rulesbook`` command line: (name, ``"module:NAME"`` of
    a click command), loaded when the command is run or listed (Warhammer 40,000's ``matchup``)."""


_REGISTRY = Registry()
_LOADED = False
_LOADED_PACKAGES: dict[str, str] = {}
"""System packages loaded so far: package name -> system ID."""


def load_system_package(package: SystemPackage, into: Registry | None = None) -> System:
    """Load one system: its data, the check of its choices, then its calculators.

    ``into`` is the registry to fill (the global one by default; a fresh ``Registry()`` loads
    a system in isolation, as the developer guide's worked example does in its test).
    """
    from rulesbook.calculators import Calculator
    from rulesbook.choices import register_problems

    target = _REGISTRY if into is None else into
    system, rules, interps = load_system_data(package.data)
    if package.extra_rules is not None:
        extra = list(package.extra_rules())
        known = {i.id for i in interps}
        for rule in extra:
            for ref in rule.interpretations:
                if ref not in known:
                    raise DataFileError(
                        f"{package.data.name}: rule {rule.id} names unknown interpretation {ref}"
                    )
        rules = [*rules, *extra]
    if package.choices is not None:
        problems = register_problems(package.choices, interps, [r.id for r in rules])
        if problems:
            raise DataFileError(f"{package.data.name}: {problems[0]}")
    mechanics = package.mechanics or Mechanics(system.id, names=choice_names(package.choices))
    known = {r.id for r in rules}
    written = implementations(mechanics)
    for impl in written:
        if impl.rule_id not in known:
            raise DataFileError(
                f"{mechanics.file}, line {impl.line}: {impl.qualname}.rule: unknown rule {impl.rule_id}"
            )
    target.add_system_data(system, rules, interps)
    target.mechanics[system.id] = mechanics
    target.folders[system.id] = package.data.parent
    if package.choices is not None:
        target.choices[system.id] = package.choices
    target.additions[system.id] = package.additions
    for app in package.apps:
        target.add_app(app)
    if package.rosters:
        target.roster_readers[system.id] = package.rosters
    for name, where in package.commands:
        if name in target.commands:
            raise DataFileError(f"{package.data.name}: a command called {name} is brought by another system")
        target.commands[name] = where
    if package.extra_implementations is not None:
        for impl in package.extra_implementations():
            target.add_implementation(impl)
    for impl in written:
        target.add_implementation(impl)
    for name in package.calculator_modules:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, Calculator) and value.system == system.id:
                target.add_calculator(value)
    for calc in package.calculators() if package.calculators is not None else ():
        target.add_calculator(calc)
    return system


def _system_packages() -> list[str]:
    """The system package names under :mod:`rulesbook.systems`, in listing (name) order."""
    import rulesbook.systems as pkg

    return sorted(info.name for info in pkgutil.iter_modules(pkg.__path__) if info.ispkg)


_SYSTEMS_DIR = Path(__file__).resolve().parent / "systems"
_VENDORED_DIR = Path(__file__).resolve().parent / "data-systems"
"""Systems written in data that a built site's app wheel carries (the ``$RULESBOOK_SYSTEMS_DIR``
systems of the build, :func:`rulesbook.site.runtime.app_files`); absent in a checkout."""


def _data_folders() -> dict[str, Path]:
    """Systems written in data (:mod:`rulesbook.language.systems`): folder name -> folder, the
    package's own first, then ``$RULESBOOK_SYSTEMS_DIR``'s (a name met twice keeps the first)."""
    out: dict[str, Path] = {}
    for folder in data_system_folders(_SYSTEMS_DIR, _VENDORED_DIR):
        out.setdefault(folder.name, folder)
    return out


def _load_named(name: str) -> None:
    """Import ``rulesbook.systems.<name>`` and load its :class:`SystemPackage` (once)."""
    if name in _LOADED_PACKAGES:
        return
    _LOADED_PACKAGES[name] = ""
    module = importlib.import_module(f"rulesbook.systems.{name}")
    package = getattr(module, "SYSTEM", None)
    if not isinstance(package, SystemPackage):
        raise RulesbookError(f"{module.__name__}: define SYSTEM = SystemPackage(...)")
    _LOADED_PACKAGES[name] = load_system_package(package).id


def _load_folder(folder: Path) -> None:
    """Load the system written in data in ``folder`` (once); the package's own are trusted to
    pass the schema (the tests check them), a folder of ``$RULESBOOK_SYSTEMS_DIR`` is checked."""
    key = str(folder)
    if key in _LOADED_PACKAGES:
        return
    _LOADED_PACKAGES[key] = ""
    found = load_data_system(folder, schema=folder.parent not in (_SYSTEMS_DIR, _VENDORED_DIR))
    if found.system.id in _REGISTRY.systems:
        raise DataFileError(f"{folder.name}/rules.yaml: a system called {found.system.id} is loaded already")
    package = SystemPackage(
        data=folder / "rules.yaml",
        choices=found.choices,
        mechanics=found.mechanics,
        calculators=lambda: found.calculators,
    )
    _LOADED_PACKAGES[key] = load_system_package(package).id


def _in_system_order(reg: Registry, order: list[str]) -> None:
    """Re-order every table system by system (each system's own order kept), so the listing
    order never depends on which system happened to load first."""
    rank = {system_id: i for i, system_id in enumerate(order)}

    def key(system_id: str) -> int:
        return rank.get(system_id, len(rank))

    def resort[V](table: dict[str, V], system_of: Callable[[str, V], str]) -> None:
        items = sorted(table.items(), key=lambda kv: key(system_of(*kv)))
        table.clear()
        table.update(items)

    resort(reg.systems, lambda k, _v: k)
    resort(reg.rules, lambda _k, v: v.system)
    resort(reg.interpretations, lambda _k, v: v.system)
    resort(reg.calculators, lambda _k, v: v.system)
    resort(reg.choices, lambda k, _v: k)
    resort(reg.mechanics, lambda k, _v: k)
    resort(reg.roster_readers, lambda k, _v: k)


def registry(system: str | None = None) -> Registry:
    """The registry with every system in :mod:`rulesbook.systems` loaded (once).

    ``registry(system_id)`` loads only that system if nothing more is loaded yet (the command
    line's fast path: ``rulesbook calc scrollhammer.morale-check`` never reads the other
    systems). Tables keep the same order however the systems were loaded.

    Example:
        >>> "scrollhammer.morale-check" in registry("scrollhammer").calculators
        True
        >>> "scrollhammer" in registry().systems
        True
    """
    global _LOADED
    if _LOADED:
        return _REGISTRY
    if system is not None:
        name = system.replace("-", "_")
        if name in _system_packages():
            _load_named(name)
            if system in _REGISTRY.systems:
                return _REGISTRY
        folder = _data_folders().get(name)
        if folder is not None:
            _load_folder(folder)
            if system in _REGISTRY.systems:
                return _REGISTRY
    _LOADED = True
    for name in _system_packages():
        _load_named(name)
    folders = _data_folders()
    for folder in folders.values():
        _load_folder(folder)
    order = [_LOADED_PACKAGES[name] for name in _system_packages()]
    order += [_LOADED_PACKAGES[str(folder)] for folder in folders.values()]
    _in_system_order(_REGISTRY, order)
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
        # The code object knows its file and first line (the first decorator's line, as
        # inspect.getsourcelines gives it) without reading and tokenising the source.
        code = getattr(inspect.unwrap(func), "__code__", None)
        file = code.co_filename if code is not None else ""
        line = code.co_firstlineno if code is not None else 0
        marked = _overridable(func, rule_ids)
        for rule_id in rule_ids:
            _REGISTRY.add_implementation(
                Implementation(
                    rule_id,
                    func.__qualname__,
                    func.__module__,
                    file,
                    line,
                    function=func,
                    overridable=marked is not func,
                )
            )
        return marked

    return mark


def _overridable[F: Callable[..., Any]](func: F, rule_ids: tuple[str, ...]) -> F:
    """``func``, made to run a choice set's override of its rule instead when it carries one.

    Only a function that takes the choice set (a ``choices`` parameter) can be overridden: the
    choice set it is called with is where a designer's variant puts other code for a rule
    (:class:`rulesbook.choices.RuleOverride`). Without overrides the cost is one look-up.
    """
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):  # pragma: no cover - a builtin
        return func
    names = [p.name for p in params]
    if "choices" not in names:
        return func
    position = names.index("choices")
    default = params[position].default
    if params[position].kind is inspect.Parameter.KEYWORD_ONLY:
        position = len(names) + 1  # never positional

    @functools.wraps(func)
    def dispatch(*args: Any, **kwargs: Any) -> Any:
        try:
            choices = args[position]
        except IndexError:  # given by name, or left to its default
            choices = kwargs.get("choices", default)
        if getattr(choices, "overrides", None):
            for rule_id in rule_ids:
                found = choices.override(rule_id)
                if found is not None and found.replaces(func):
                    return found.call(func, args, kwargs)
        return func(*args, **kwargs)

    dispatch.__rulesbook_published__ = func  # type: ignore[attr-defined]
    return dispatch  # type: ignore[return-value]
