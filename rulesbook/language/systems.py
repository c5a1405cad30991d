"""A rule system written wholly in data: one folder, no Python.

A folder is such a system when it holds ``rules.yaml`` (the system record, its rules in our own
words with their citations, the interpretations register) and ``mechanics.yaml`` (its rule
parameters, inputs, tests and calculators in the rules language), and no ``__init__.py``;
``source.yaml``, ``glossary.yaml``, ``cases.yaml``, ``guide.md`` and ``variants/*.yaml`` are read
as for any system. :func:`load_data_system` reads it into what the registry loads for a system
written in Python: its rule choices — a parameters class generated from ``parameters:``, a readings
class from the register (each entry's reading is named by its ID's last word, ``-`` written
``_``) — its mechanics, and its calculators. The registry finds such folders under
``rulesbook/systems/`` and in every folder ``$RULESBOOK_SYSTEMS_DIR`` names
(:func:`data_system_folders`).

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp()) / "coin"
    >>> folder.mkdir()
    >>> _ = (folder / "rules.yaml").write_text('''
    ... system: {id: coin, title: Coin, version: "1", source: coin.txt, summary: A coin.}
    ... rules:
    ...   - {id: coin.flip, title: Flip, cite: [Flip], text: Throw a D6; 4 or more wins.}
    ... ''', encoding="utf-8")
    >>> _ = (folder / "mechanics.yaml").write_text('''
    ... parameters:
    ...   coin_dice: {kind: dice, default: D6, label: Coin dice, rule: coin.flip, section: Flip}
    ... tests:
    ...   flip: {rule: coin.flip, dice: coin_dice, pass: at-least, target: 4}
    ... calculators:
    ...   flip: {title: Flip, test: flip, outputs: {p_win: {label: P(win), p: pass}}}
    ... ''', encoding="utf-8")
    >>> system = load_data_system(folder)
    >>> system.calculators[0].run()["p_win_exact"], system.choices.parameters.coin_dice
    ('1/2', DiceExpr(count=1, sides=6, modifier=0))
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from rulesbook.calculators import Calculator
from rulesbook.choices import Parameters, Readings, RuleChoices, parameter, reading
from rulesbook.data import DataFileError, load_data_file
from rulesbook.dice import DiceExpr
from rulesbook.errors import InputError
from rulesbook.language.calculators import build_calculator
from rulesbook.language.declarations import LanguageError, ParameterDecl
from rulesbook.language.document import build_document, build_section
from rulesbook.language.files import checked_document, located
from rulesbook.language.mechanics import Mechanics, choice_names
from rulesbook.records import Interpretation, System, load_system_data

__all__ = [
    "SYSTEMS_DIR_ENV",
    "DataSystem",
    "data_choices",
    "data_system_folders",
    "is_data_system",
    "load_data_system",
    "reading_key",
]

SYSTEMS_DIR_ENV = "RULESBOOK_SYSTEMS_DIR"
"""The environment variable naming folders of systems written in data (several joined by the
path separator, ``:``); each of their sub-folders holding ``rules.yaml`` and ``mechanics.yaml``
is a system."""


def is_data_system(folder: Path) -> bool:
    """A folder holding ``rules.yaml`` and ``mechanics.yaml`` and no Python package."""
    return (
        (folder / "rules.yaml").is_file()
        and (folder / "mechanics.yaml").is_file()
        and not (folder / "__init__.py").exists()
    )


def data_system_folders(*shipped: Path) -> list[Path]:
    """The folders of systems written in data: under each of ``shipped`` (the package's systems),
    then under each folder of ``$RULESBOOK_SYSTEMS_DIR``, each in name order."""
    roots = [
        *shipped,
        *(Path(p).expanduser() for p in os.environ.get(SYSTEMS_DIR_ENV, "").split(os.pathsep) if p),
    ]
    out: list[Path] = []
    for root in roots:
        if root.is_dir():
            out += [f for f in sorted(root.iterdir()) if f.is_dir() and is_data_system(f)]
    return out


def reading_key(interpretation: str) -> str:
    """The reading field of a register entry: its ID's last word, ``-`` written ``_``.

    >>> reading_key("skirmish.interpretations.double-dice")
    'double_dice'
    """
    return interpretation.rsplit(".", 1)[-1].replace("-", "_")


_TYPES: dict[str, type] = {"integer": int, "boolean": bool, "dice": DiceExpr, "fraction": Fraction}

_GENERATED: dict[tuple[str, str], type] = {}
"""The classes generated for each system ((system, "parameters" | "readings") -> class), so a
value pickled in one process is rebuilt in another (:func:`_rebuild`)."""


def _rebuild(folder: str, system: str, kind: str, values: dict[str, Any]) -> Any:
    """A generated parameters or readings value in this process (its system loaded first when
    it is not yet)."""
    if (system, kind) not in _GENERATED:
        load_data_system(Path(folder))
    return _GENERATED[(system, kind)](**values)


def _camel(system: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[-_]", system))


def data_choices(
    system: str, parameters: Iterable[ParameterDecl], register: Iterable[Interpretation], folder: str = ""
) -> RuleChoices[Any, Any]:
    """The rule choices of a system written in data: its declared parameters and one reading per
    entry of its register (default and options as the register gives them)."""
    fields: list[tuple[str, Any, Any]] = []
    for p in parameters:
        spec = parameter(
            p.default,
            label=p.label,
            rule=p.rule,
            section=p.section,
            minimum=p.minimum,
            maximum=p.maximum,
            help=p.help,
        )
        fields.append((p.key, _TYPES[p.kind], spec))
    seen: dict[str, str] = {}
    reading_fields: list[tuple[str, Any, Any]] = []
    for entry in register:
        key = reading_key(entry.id)
        if key in seen or key in {f[0] for f in fields}:
            raise DataFileError(
                f"{system}: the register entries {seen.get(key, key)} and {entry.id} both give the reading {key}"
            )
        seen[key] = entry.id
        options = tuple(o.key for o in entry.options)
        reading_fields.append((key, Literal[options], reading(entry.id, entry.default)))

    def reducer(kind: str) -> Any:
        def reduce(self: Any) -> tuple[Any, ...]:
            values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
            return (_rebuild, (folder, system, kind, values))

        return reduce

    made = {}
    for kind, base, entries in (("parameters", Parameters, fields), ("readings", Readings, reading_fields)):
        cls = dataclasses.make_dataclass(
            f"{_camel(system)}{kind.capitalize()}",
            entries,
            bases=(base,),
            frozen=True,
            namespace={"__reduce__": reducer(kind)},
            module=__name__,
        )
        _GENERATED[(system, kind)] = cls
        made[kind] = cls
    return RuleChoices(system, made["parameters"](), made["readings"]())


@dataclass(frozen=True)
class DataSystem:
    """A system read from a folder: where, its record, its rule choices, mechanics, calculators."""

    folder: Path
    system: System
    choices: RuleChoices[Any, Any]
    mechanics: Mechanics
    calculators: tuple[Calculator, ...]


def load_data_system(folder: Path, *, schema: bool = True) -> DataSystem:
    """Read the system in ``folder`` (see the module's docstring); any problem is one
    :class:`~rulesbook.data.DataFileError` line naming the file, the line and the field."""
    system, rules, register = load_system_data(folder / "rules.yaml")
    path = folder / "mechanics.yaml"
    name = f"{folder.name}/mechanics.yaml"
    data = load_data_file(path, name=name)
    known_rules = {r.id for r in rules}
    try:
        data = checked_document(data, schema=schema)
        parameters = build_section("parameters", data.get("parameters"), ("parameters",))
        for p in parameters:
            if p.rule not in known_rules:
                raise LanguageError(
                    ("parameters", p.key, "rule"),
                    f"unknown rule {p.rule} (rules.yaml names {', '.join(sorted(known_rules))})",
                )
        choices = data_choices(system.id, parameters, register, str(folder))
        declarations = build_document(data)
        mechanics = Mechanics(system.id, declarations, choice_names(choices), name, str(path))
        mechanics.check(declarations)

        for decl in declarations.calculators:
            for i, rule in enumerate(decl.rules):
                if rule not in known_rules:
                    raise LanguageError(("calculators", decl.key, "rules", i), f"unknown rule {rule}")
        calculators = tuple(build_calculator(mechanics, d, choices) for d in declarations.calculators)
        for calc, decl in zip(calculators, declarations.calculators, strict=True):
            for i, example in enumerate(decl.examples):
                try:
                    calc.validate(dict(example))
                except InputError as exc:  # an example that does not validate: its path
                    raise LanguageError(("calculators", decl.key, "examples", i), str(exc)) from None
    except LanguageError as exc:
        raise DataFileError(located(exc, path, name)) from None
    return DataSystem(folder, system, choices, mechanics, calculators)
