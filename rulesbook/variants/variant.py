"""A variant as a value: a named, validated change to one system's rule parameters, readings and
rules (what :mod:`rulesbook.variants.model` loads from files and runs calculators under)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesbook.additions import LANGUAGE_SECTIONS, NO_ADDITIONS, Additions
from rulesbook.choices import RuleChoices, RuleOverride
from rulesbook.data import dump_yaml
from rulesbook.errors import InputError, did_you_mean, quote
from rulesbook.language.declarations import LanguageError
from rulesbook.language.mechanics import Mechanics, choice_names, declared_additions
from rulesbook.language.schema import schema_problem
from rulesbook.registry import registry
from rulesbook.results import CalcResult

__all__ = [
    "BASELINE",
    "NAME_RE",
    "VARIANT_KEYS",
    "AnyChoices",
    "ComputeFn",
    "Variant",
    "VariantLike",
    "baseline_choices",
    "compose",
]

VARIANT_KEYS = ("system", "title", "description", "parameters", "readings", "add")
"""The keys a variant file may have (``system`` and ``title`` are required; ``add`` holds the
entries the variant adds, in the sections its system accepts: :mod:`rulesbook.additions`)."""
NAME_RE = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
BASELINE = "baseline"
"""The name of the unchanged rules in comparisons and sweeps."""

type AnyChoices = RuleChoices[Any, Any]
type ComputeFn = Callable[..., CalcResult]
type VariantLike = Variant | str | Path | Sequence[Variant | str | Path]


@dataclass(frozen=True, slots=True)
class Variant:
    """A named change to one system's rules: parameter values, readings, replaced functions.

    ``parameters`` and ``readings`` are (key, checked value) pairs; ``functions`` maps a
    calculator ID of the system to a compute function that replaces it (same keyword
    arguments as the calculator's own function: the situation inputs and ``choices``), which
    only Python variants can carry. ``path`` is the file a variant came from ("" in Python).
    Build one with :meth:`define` (Python) or :func:`load_variant` (YAML); both validate.
    """

    name: str
    system: str
    title: str
    description: str = ""
    parameters: tuple[tuple[str, Any], ...] = ()
    readings: tuple[tuple[str, str], ...] = ()
    functions: tuple[tuple[str, ComputeFn], ...] = ()
    path: str = ""
    rules: tuple[RuleOverride, ...] = ()
    """Rules given other code (Python variants, :mod:`rulesbook.variants.python`): carried by the
    choice set, so every calculator built on them follows."""
    additions: Additions = NO_ADDITIONS
    """The entries of the variant's ``add:`` section, checked by the system's own
    :class:`~rulesbook.additions.Additions` class and carried by the choice set."""

    @classmethod
    def define(
        cls,
        name: str,
        *,
        system: str,
        title: str,
        description: str = "",
        parameters: Mapping[str, Any] | None = None,
        readings: Mapping[str, Any] | None = None,
        functions: Mapping[str, ComputeFn] | None = None,
        choices: AnyChoices | None = None,
    ) -> Variant:
        """A validated variant written in Python (``functions``: calculator ID -> compute function).

        >>> from rulesbook.registry import registry
        >>> from rulesbook.variants import run_with_variant
        >>> calc = registry().calculator("wh40k.battle-shock")
        >>> def fearless(**inputs):
        ...     return calc.compute(**{**inputs, "leadership": 2})
        >>> v = Variant.define("fearless", system="wh40k", title="Always passes",
        ...                    functions={"wh40k.battle-shock": fearless})
        >>> run_with_variant(calc, v, leadership=9)["p_pass_exact"]
        '1'
        """
        raw: dict[str, Any] = {"system": system, "title": title, "description": description}
        raw |= {"parameters": dict(parameters or {}), "readings": dict(readings or {})}
        variant = cls.from_mapping(raw, name=name, where=f"variant {name}", choices=choices)
        if not functions:
            return variant
        reg = registry()
        for calc_id, func in functions.items():
            calc = reg.calculator(calc_id)
            if calc.system != system:
                raise InputError(f"variant {name}: functions", f"{calc_id} is not a {system} calculator")
            if not callable(func):
                raise InputError(f"variant {name}: functions.{calc_id}", "expected a function")
        return dataclasses.replace(variant, functions=tuple(sorted(functions.items())))

    @classmethod
    def from_mapping(
        cls,
        raw: Any,
        *,
        name: str,
        where: str = "",
        path: str = "",
        choices: AnyChoices | None = None,
    ) -> Variant:
        """Validate a parsed variant document (``where`` names it in errors: a file, usually)."""
        where = where or f"variant {name}"
        if not isinstance(raw, Mapping):
            raise InputError(where, f"expected a mapping with keys {', '.join(VARIANT_KEYS)}")
        if "python" in raw:  # a table's provenance of a Python variant: its code is not run from here
            raise InputError(
                f"{where}: python",
                "this variant gives rules Python code, which is never run from a variant document; "
                "rebuild it with rulesbook.variants.variant_from_provenance(definition, folder)",
            )
        for key in raw:
            if key not in VARIANT_KEYS:
                hint = did_you_mean(key, VARIANT_KEYS) or ";"
                raise InputError(f"{where}: {key}", f"unknown key{hint} allowed: {', '.join(VARIANT_KEYS)}")
        if not NAME_RE.match(name):
            raise InputError(
                where, f"name {quote(name)}: use lower-case words joined by - (e.g. fall-back-3d6)"
            )
        system = _text(raw, "system", where, required=True)
        title = _text(raw, "title", where, required=True)
        description = " ".join(_text(raw, "description", where).split())
        base = choices if choices is not None else baseline_choices(system, f"{where}: system")
        if base.system != system:
            raise InputError(f"{where}: system", f"the choice set given is {base.system}'s, not {system}'s")
        params = _section(raw, "parameters", where)
        readings = _section(raw, "readings", where)
        checked_params = []
        for key, value in params.items():
            field = f"{where}: parameters.{key}"
            spec = _known(lambda k: type(base.parameters).spec(k), key, field, system, "parameters")
            checked_params.append((spec.key, _checked(spec.check, value, field)))
        checked_readings = []
        for key, value in readings.items():
            field = f"{where}: readings.{key}"
            rspec = _known(lambda k: type(base.readings).spec(k), key, field, system, "readings")
            if isinstance(value, bool) and any(o.lower() in _YAML_BOOLS for o in rspec.options):
                raise InputError(
                    field, f"expected one of {', '.join(rspec.options)}; quote it in YAML, e.g. 'off'"
                )
            checked_readings.append((rspec.key, _checked(rspec.check, value, field)))
        additions = _additions(base, raw.get("add"), where)
        return cls(
            name=name,
            system=system,
            title=title,
            description=description,
            parameters=tuple(checked_params),
            readings=tuple(checked_readings),
            path=path,
            additions=additions,
        )

    def with_rules(self, rules: tuple[RuleOverride, ...]) -> Variant:
        """This variant with these rules given other code (one override per rule)."""
        if len({o.rule for o in rules}) != len(rules):
            raise InputError(f"variant {self.name}", "each rule may be replaced once")
        return dataclasses.replace(self, rules=tuple(sorted(rules, key=lambda o: o.rule)))

    # -- use --------------------------------------------------------------------------------
    def apply(self, choices: AnyChoices) -> AnyChoices:
        """The system's choices with this variant's changes (a validated changed copy)."""
        if choices.system != self.system:
            raise InputError("variant", f"{self.name} changes {self.system} rules, not {choices.system}")
        return choices.replace(
            parameters=dict(self.parameters),
            readings=dict(self.readings),
            overrides=self.rules,
            additions=self.additions,
        )

    def changes(self) -> dict[str, str]:
        """Every change in words, ``{"parameters.KEY": value, "readings.KEY": option, ...}``."""
        base = baseline_choices(self.system, "variant")
        out = {f"parameters.{k}": type(base.parameters).spec(k).format(v) for k, v in self.parameters}
        out |= {f"readings.{k}": v for k, v in self.readings}
        out |= {f"functions.{k}": _qualname(f) for k, f in self.functions}
        out |= {f"rules.{o.rule}": o.where for o in self.rules}
        out |= self.additions.changed()
        return out

    def summary(self) -> list[str]:
        """One line per change, with the baseline value: ``Fall Back dice: 2D6 → 3D6``."""
        base = baseline_choices(self.system, "variant")
        lines = []
        for key, value in self.parameters:
            spec = type(base.parameters).spec(key)
            old = spec.format(getattr(base.parameters, key))
            lines.append(f"{spec.label} ({key}): {old} → {spec.format(value)}")
        for key, value in self.readings:
            rspec = type(base.readings).spec(key)
            lines.append(f"reading {rspec.interpretation}: {getattr(base.readings, key)} → {value}")
        lines += [f"{calc_id}: computed by {_qualname(f)}" for calc_id, f in self.functions]
        lines += [f"rule {o.rule}: new code in {o.where}" for o in self.rules]
        lines += self.additions.lines()
        return lines

    def to_mapping(self) -> dict[str, Any]:
        """The variant document a variant file holds (``system``, ``title``, ``description``,
        ``parameters``, ``readings``, ``add``), in the words a designer writes (``3D6``, ``true``),
        read back by :meth:`from_mapping` as the same variant; tables and plots carry it as their
        provenance. A Python variant's replaced functions and rules are code, not data: they are
        left out here (and :meth:`to_yaml` refuses them; a ``.py`` variant file is shared as it is).

        >>> from rulesbook.variants import resolve_variant
        >>> both = resolve_variant("battle-shock-3d6+deadly-demise-on-5")
        >>> doc = both.to_mapping()
        >>> doc["parameters"]
        {'battle_shock_dice': '3D6', 'deadly_demise_roll': 5}
        >>> again = Variant.from_mapping(doc, name="both")  # a file both.yaml
        >>> (again.parameters, again.readings) == (both.parameters, both.readings)
        True
        """
        base: Any = registry().choices[self.system]
        out: dict[str, Any] = {"system": self.system, "title": self.title}
        if self.description:
            out["description"] = self.description
        if self.parameters:
            out["parameters"] = {k: _written(type(base.parameters).spec(k), v) for k, v in self.parameters}
        if self.readings:
            out["readings"] = dict(self.readings)
        if self.additions:
            out["add"] = self.additions.to_mapping()
        return out

    def to_yaml(self) -> str:
        """The text of a variant file that loads back to the same variant (how a designer shares
        a rule change: ``rulesbook variants show NAME|PATH`` prints it), after a comment naming it
        (and the file it came from); a variant that replaces functions is refused in one line.

        >>> from rulesbook.variants import resolve_variant
        >>> print(resolve_variant("battle-shock-3d6").to_yaml())  # doctest: +ELLIPSIS
        # battle-shock-3d6: Battle-shock tests on 3D6 (from rulesbook/systems/wh40k/variants/battle-shock-3d6.yaml)
        system: wh40k
        title: Battle-shock tests on 3D6
        description: ...
        parameters:
          battle_shock_dice: 3D6
        <BLANKLINE>
        """
        if self.functions:
            names = ", ".join(k for k, _ in self.functions)
            raise InputError(
                "variant",
                f"{self.name} replaces the function of {names} in Python; only a variant of "
                "parameters and readings can be written as YAML",
            )
        if self.rules:
            where = ", ".join(sorted({o.where for o in self.rules}))
            raise InputError(
                "variant",
                f"{self.name} gives rules other code ({where}); share its .py file, not YAML",
            )
        head = f"# {self.name}: {self.title}"
        if self.path:
            head += f" (from {self.path})"
        # a comment holds one line: no line break (YAML's NEL and U+2028 included) may end it early
        head = "".join(ch if ch.isprintable() else " " for ch in head)
        return f"{head}\n{dump_yaml(self.to_mapping())}"

    def to_json(self) -> dict[str, Any]:
        """``name``, ``system``, ``title``, ``path``, ``description``, the changes in words, and
        ``definition``: the variant document (:meth:`to_mapping`)."""
        return {
            "name": self.name,
            "system": self.system,
            "title": self.title,
            "path": self.path,
            "description": self.description,
            "changes": self.changes(),
            "definition": self.to_mapping(),
        }


_YAML_BOOLS = {"on", "off", "yes", "no", "true", "false", "y", "n"}


def _written(spec: Any, value: Any) -> Any:
    """A parameter's value as a variant file writes it: integers and booleans as themselves,
    dice as their text (``3D6``)."""
    if isinstance(value, bool | int):
        return value
    return spec.format(value)


def _qualname(func: Callable[..., Any]) -> str:
    return f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', repr(func))}"


def _text(raw: Mapping[str, Any], key: str, where: str, *, required: bool = False) -> str:
    value = raw.get(key)
    if value is None:
        if required:
            raise InputError(f"{where}: {key}", "required; expected text")
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise InputError(f"{where}: {key}", f"expected text, got {quote(value)}")
    return value.strip()


def _section(raw: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    value = raw.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise InputError(f"{where}: {key}", "expected a mapping of key: value")
    return dict(value)


def _checked(check: Callable[[Any], Any], value: Any, field: str) -> Any:
    try:
        return check(value)
    except InputError as exc:
        raise InputError(field, exc.message) from None


def _known(lookup: Callable[[str], Any], key: str, field: str, system: str, section: str) -> Any:
    """The spec of ``key``, or one line saying what is allowed (and whose key it is, if another
    system's; and the closest keys, if it looks misspelt)."""
    try:
        return lookup(key)
    except InputError as exc:
        keys = [s.key for s in type(getattr(baseline_choices(system, field), section)).specs()]
        hint = did_you_mean(key, keys)
        if hint:
            head, _, allowed = exc.message.partition("; allowed:")
            raise InputError(field, f"{head}{hint} allowed:{allowed}") from None
        owners = [
            other
            for other, choices in registry().choices.items()
            if other != system and _has(getattr(choices, section), key)
        ]
        if owners:
            raise InputError(
                field, f"is a {' and '.join(owners)} {section[:-1]}, not {system}'s; {exc.message}"
            ) from None
        raise InputError(field, exc.message) from None


def _has(group: Any, key: str) -> bool:
    try:
        type(group).spec(key)
    except InputError:
        return False
    return True


def _additions(base: AnyChoices, raw: Any, where: str) -> Additions:
    """The checked entries of a variant's ``add:``; the rules language's sections are checked by
    the schema first and against the system's mechanics after (a problem there is a
    :class:`~rulesbook.language.declarations.LanguageError`: it knows the path, so a file's
    reader names the line)."""
    try:
        if isinstance(raw, Mapping):
            sections = {k: raw[k] for k in LANGUAGE_SECTIONS if k in raw}
            problem = schema_problem(sections, ("add",)) if sections else None
            if problem is not None:
                raise problem
        additions = registry().additions_class(base.system).from_mapping(raw, where)
        declared = declared_additions(additions)
        if declared:
            mechanics = registry().mechanics.get(base.system) or Mechanics(
                base.system, names=choice_names(base)
            )
            mechanics.check(declared)
    except LanguageError as exc:
        raise exc.within(where) from None
    return additions


def baseline_choices(system: str, field: str) -> AnyChoices:
    """The baseline choice set of ``system`` (InputError naming ``field`` when it has none)."""
    reg = registry()
    if system in reg.choices:
        return reg.choices[system]  # type: ignore[no-any-return]
    if system in reg.systems:
        raise InputError(field, f"{system} declares no rule choices yet, so no variant can change it")
    known = ", ".join(sorted(reg.choices)) or "none"
    raise InputError(field, f"unknown system {quote(system)}; systems with rule choices: {known}")


def compose(variants: Sequence[Variant]) -> Variant:
    """One variant making every change of ``variants`` (same system; a key set twice to different values is a conflict).

    >>> compose([])
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: variant: nothing to compose
    """
    if not variants:
        raise InputError("variant", "nothing to compose")
    if len(variants) == 1:
        return variants[0]
    first = variants[0]
    for other in variants[1:]:
        if other.system != first.system:
            raise InputError(
                "variant",
                f"{first.name} changes {first.system} rules and {other.name} {other.system} rules; "
                "compose variants of one system",
            )
    merged: dict[str, dict[str, tuple[str, Any]]] = {
        "parameters": {},
        "readings": {},
        "functions": {},
        "rules": {},
    }
    for variant in variants:
        for section in merged:
            pairs = [(o.rule, o) for o in variant.rules] if section == "rules" else getattr(variant, section)
            for key, value in pairs:
                seen = merged[section].get(key)
                if seen is not None and seen[1] != value:
                    raise InputError(
                        "variant",
                        f"conflict: {seen[0]} and {variant.name} both set {section}.{key} "
                        f"({_shown(seen[1])} vs {_shown(value)}); drop one, or write one variant that sets it",
                    )
                merged[section][key] = (variant.name, value)
    additions = first.additions
    for i, variant in enumerate(variants[1:], start=1):
        before = "+".join(v.name for v in variants[:i])
        additions = additions.merged(variant.additions, (before, variant.name))
    return Variant(
        name="+".join(v.name for v in variants),
        system=first.system,
        title=" + ".join(v.title for v in variants),
        description=" ".join(v.description for v in variants if v.description),
        parameters=tuple((k, v) for k, (_, v) in merged["parameters"].items()),
        readings=tuple((k, v) for k, (_, v) in merged["readings"].items()),
        functions=tuple((k, v) for k, (_, v) in merged["functions"].items()),
        rules=tuple(v for _, (_, v) in sorted(merged["rules"].items())),
        additions=additions,
    )


def _shown(value: Any) -> str:
    if isinstance(value, RuleOverride):
        return value.where
    return _qualname(value) if callable(value) else str(value)
