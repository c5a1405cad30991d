"""Designer variants: a named, declarative change to a rule set, and running calculators under it.

A :class:`Variant` changes a system's rule parameters (Fall Back dice ``2D6`` → ``3D6``), picks
other readings from its interpretations register (Insane Heroism off), or — in Python only —
replaces the function a calculator runs. It is applied to the system's baseline
:class:`~rulesbook.choices.RuleChoices` (:meth:`Variant.apply` returns a changed copy), so every
calculator, the CLI (``variant=NAME``), ``rulesbook compare``, sweeps and the widgets reach the
same code path with the changed choices. Nothing is patched: the baseline is never modified.

Variant files are small YAML documents (loaded with the safe loader)::

    system: scrollhammer          # required: the system whose rules change
    title: Fall Back on 3D6       # required: one line
    description: >                # optional: why, in the designer's words
      Fleeing units run further.
    parameters:                   # optional: parameter key -> new value
      fall_back_dice: 3D6
    readings:                     # optional: reading key (or interpretation ID) -> option key
      ld_bounds: clamp

The name is the file's stem. Every problem is one line naming the file, the key and what is
allowed (:class:`~rulesbook.errors.InputError`). Shipped variants live in
``rulesbook/systems/<system>/variants/*.yaml`` (``rulesbook variants`` lists them).

Example:
    >>> from rulesbook.registry import registry
    >>> base = registry().choices["wh40k"]
    >>> bleak = Variant.from_mapping({"system": "wh40k", "title": "Battle-shock on 3D6",
    ...     "parameters": {"battle_shock_dice": "3D6"}}, name="bleak")
    >>> str(bleak.apply(base).parameters.battle_shock_dice), str(base.parameters.battle_shock_dice)
    ('3D6', '2D6')
    >>> run_with_variant(registry().calculator("wh40k.battle-shock"), bleak, leadership=7)["p_pass_exact"]
    '49/54'
    >>> Variant.from_mapping({"system": "wh40k", "title": "x", "parameters": {"deadly_demise_roll": 9}},
    ...                      name="bad", where="bad.yaml")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: bad.yaml: parameters.deadly_demise_roll: expected an integer from 2 to 6, got 9
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from rulesbook.calculators import Calculator
from rulesbook.choices import RuleChoices
from rulesbook.data import DataFileError, load_data_file
from rulesbook.errors import InputError, did_you_mean, quote
from rulesbook.registry import registry
from rulesbook.results import CalcResult

__all__ = [
    "BASELINE",
    "VARIANTS_DIR_ENV",
    "VARIANT_KEYS",
    "Variant",
    "VariantLike",
    "baseline_choices",
    "choice_keys",
    "compose",
    "given_inputs",
    "load_variant",
    "resolve_variant",
    "run_assignments",
    "run_with_variant",
    "shipped_variants",
    "user_variants",
    "user_variants_dir",
    "validate_with",
    "variant_calculator",
    "variants_for_system",
]

SYSTEMS_DIR = Path(__file__).resolve().parent.parent / "systems"
VARIANT_KEYS = ("system", "title", "description", "parameters", "readings")
"""The keys a variant file may have (``system`` and ``title`` are required)."""
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
        for key in raw:
            if key not in VARIANT_KEYS:
                raise InputError(
                    f"{where}: {key}",
                    f"unknown key{did_you_mean(key, VARIANT_KEYS) or ';'} allowed: {', '.join(VARIANT_KEYS)}",
                )
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
        return cls(
            name=name,
            system=system,
            title=title,
            description=description,
            parameters=tuple(checked_params),
            readings=tuple(checked_readings),
            path=path,
        )

    # -- use --------------------------------------------------------------------------------
    def apply(self, choices: AnyChoices) -> AnyChoices:
        """The system's choices with this variant's changes (a validated changed copy)."""
        if choices.system != self.system:
            raise InputError("variant", f"{self.name} changes {self.system} rules, not {choices.system}")
        return choices.replace(parameters=dict(self.parameters), readings=dict(self.readings))

    def changes(self) -> dict[str, str]:
        """Every change in words, ``{"parameters.KEY": value, "readings.KEY": option, ...}``."""
        base = baseline_choices(self.system, "variant")
        out = {f"parameters.{k}": type(base.parameters).spec(k).format(v) for k, v in self.parameters}
        out |= {f"readings.{k}": v for k, v in self.readings}
        out |= {f"functions.{k}": _qualname(f) for k, f in self.functions}
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
        return lines

    def to_mapping(self) -> dict[str, Any]:
        """The variant document a variant file holds, read back by :meth:`from_mapping` as the
        same variant (:func:`rulesbook.variants.sharing.variant_mapping`)."""
        from rulesbook.variants.sharing import variant_mapping

        return variant_mapping(self)

    def to_yaml(self) -> str:
        """The text of a variant file that loads back to the same variant
        (:func:`rulesbook.variants.sharing.variant_yaml`)."""
        from rulesbook.variants.sharing import variant_yaml

        return variant_yaml(self)

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


def baseline_choices(system: str, field: str) -> AnyChoices:
    """The baseline choice set of ``system`` (InputError naming ``field`` when it has none)."""
    reg = registry()
    if system in reg.choices:
        return reg.choices[system]  # type: ignore[no-any-return]
    if system in reg.systems:
        raise InputError(field, f"{system} declares no rule choices yet, so no variant can change it")
    known = ", ".join(sorted(reg.choices)) or "none"
    raise InputError(field, f"unknown system {quote(system)}; systems with rule choices: {known}")


# -- files ----------------------------------------------------------------------------------------


def load_variant(path: str | Path, *, choices: AnyChoices | None = None) -> Variant:
    """Load and validate a variant file (its name is the file's stem).

    Any problem is one :class:`InputError` line naming the file as it was given (its last 40
    characters, if longer), the key and what is allowed: malformed YAML, an unknown key,
    parameter or reading (with the closest keys, if misspelt), a value of the wrong type or out
    of bounds, a parameter of another system.
    """
    given = str(path).strip()
    where = given if len(given) <= 40 else "…" + given[-39:]
    file = Path(given).expanduser()
    if file.suffix.lower() not in (".yaml", ".yml"):
        raise InputError("variant", f"{where}: expected a .yaml or .yml file")
    try:
        raw = load_data_file(file)
    except DataFileError as exc:
        raise InputError(where, str(exc).removeprefix(f"{file.name}: ")) from None
    try:  # checked under a one-character name (so no key is cut from a field), then named
        return Variant.from_mapping(raw, name=file.stem, where="§", path=given, choices=choices)
    except InputError as exc:
        if not str(exc).startswith("§: "):
            raise
        raise InputError(where, str(exc)[3:]) from None


VARIANTS_DIR_ENV = "RULESBOOK_VARIANTS_DIR"
"""The environment variable naming a folder of the user's own variant files (``*.yaml``):
``rulesbook variants`` lists them, a name finds them, and the forms' "Compare with" offers them."""


def user_variants_dir() -> Path | None:
    """The folder ``$RULESBOOK_VARIANTS_DIR`` names, if it is set."""
    folder = os.environ.get(VARIANTS_DIR_ENV, "").strip()
    return Path(folder).expanduser() if folder else None


@lru_cache(maxsize=256)
def _user_file(path: str, _mtime_ns: int, _size: int) -> Variant | str:
    """One user variant file, loaded again only when it changes (else the one-line problem)."""
    try:
        return load_variant(path)
    except InputError as exc:
        return str(exc)


def user_variants(problems: list[str] | None = None) -> dict[str, Variant]:
    """The user's variants in ``$RULESBOOK_VARIANTS_DIR``, by name (empty when it is not set).

    A file that does not load, or that takes a shipped variant's name, is left out; its one-line
    problem is appended to ``problems`` when a list is given.
    """
    folder, problems = user_variants_dir(), [] if problems is None else problems
    if folder is None or not folder.is_dir():
        problems += [] if folder is None else [f"{quote(str(folder))} is not a folder"]
        return {}
    shipped = shipped_variants()
    out: dict[str, Variant] = {}
    for file in sorted(folder.glob("*.y*ml"))[:500]:
        try:
            info = file.stat()
        except OSError:
            continue
        found = _user_file(str(file), info.st_mtime_ns, info.st_size)
        if isinstance(found, str):
            problems.append(found)
        elif found.name in shipped:
            problems.append(f"{file.name}: a shipped variant is called {found.name}; rename the file")
        else:
            out[found.name] = found
    return out


def _variant_files() -> list[Path]:
    return sorted(SYSTEMS_DIR.glob("*/variants/*.y*ml"))


@cache
def shipped_variants() -> dict[str, Variant]:
    """Every variant that ships with rulesbook, by name (systems in order, then file names).

    >>> all(v.path.endswith(".yaml") for v in shipped_variants().values())
    True
    """
    out: dict[str, Variant] = {}
    for file in _variant_files():
        variant = load_variant(file)
        if variant.name in out:
            raise InputError(file.name, f"a shipped variant called {variant.name} exists already")
        out[variant.name] = dataclasses.replace(
            variant, path=file.relative_to(SYSTEMS_DIR.parent.parent).as_posix()
        )
    return out


def variants_for_system(system: str) -> list[Variant]:
    """The shipped variants that change ``system``."""
    return [v for v in shipped_variants().values() if v.system == system]


def resolve_variant(spec: VariantLike) -> Variant:
    """A variant from a name (shipped, or in ``$RULESBOOK_VARIANTS_DIR``), a path, a
    :class:`Variant`, ``A+B`` (names or paths, composed) or a sequence of them (composed).

    >>> resolve_variant("battle-shock-3d6+deadly-demise-on-5").name
    'battle-shock-3d6+deadly-demise-on-5'
    >>> resolve_variant("battle-shock-3d")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: variant: unknown variant 'battle-shock-3d'; did you mean battle-shock-3d6 or battle-shock-above-ld? shipped: ...
    """
    if isinstance(spec, Variant):
        return spec
    if isinstance(spec, Path):
        return load_variant(spec)
    if isinstance(spec, str):
        text = spec.strip()
        if not text:
            raise InputError("variant", "expected a variant name or the path of a .yaml file")
        if "+" in text and not Path(text).expanduser().is_file():
            parts = [part.strip() for part in text.split("+")]
            if all(parts):
                return compose([resolve_variant(part) for part in parts])
        if text.endswith((".yaml", ".yml")) or "/" in text or os.sep in text:
            return load_variant(text)
        shipped = shipped_variants()
        if text in shipped:
            return shipped[text]
        users = user_variants()
        if text in users:
            return users[text]
        names = ", ".join(shipped) or "none"
        mine = f"; yours ({VARIANTS_DIR_ENV}): {', '.join(users)}" if users else ""
        raise InputError(
            "variant",
            f"unknown variant {quote(text)}{did_you_mean(text, [*shipped, *users]) or ';'} shipped: {names}"
            f"{mine} (or the path of a .yaml file)",
        )
    return compose([resolve_variant(s) for s in spec])


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
    merged: dict[str, dict[str, tuple[str, Any]]] = {"parameters": {}, "readings": {}, "functions": {}}
    for variant in variants:
        for section in merged:
            for key, value in getattr(variant, section):
                seen = merged[section].get(key)
                if seen is not None and seen[1] != value:
                    raise InputError(
                        "variant",
                        f"conflict: {seen[0]} and {variant.name} both set {section}.{key} "
                        f"({_shown(seen[1])} vs {_shown(value)}); drop one, or write one variant that sets it",
                    )
                merged[section][key] = (variant.name, value)
    return Variant(
        name="+".join(v.name for v in variants),
        system=first.system,
        title=" + ".join(v.title for v in variants),
        description=" ".join(v.description for v in variants if v.description),
        parameters=tuple((k, v) for k, (_, v) in merged["parameters"].items()),
        readings=tuple((k, v) for k, (_, v) in merged["readings"].items()),
        functions=tuple((k, v) for k, (_, v) in merged["functions"].items()),
    )


def _shown(value: Any) -> str:
    return _qualname(value) if callable(value) else str(value)


# -- running calculators under a variant ---------------------------------------------------------------


_REPLACED: dict[tuple[str, ComputeFn, ComputeFn], Calculator] = {}


def variant_calculator(calc: Calculator, variant: Variant) -> Calculator:
    """The calculator to run under ``variant``: ``calc`` itself, or a copy with a replaced function.

    Copies are kept (one per calculator and function), so their results are cached too.
    """
    if variant.system != calc.system:
        raise InputError(
            "variant",
            f"{variant.name} changes {variant.system} rules; {calc.id} is a {calc.system} calculator",
        )
    if calc.choices is None:
        raise InputError("variant", f"{calc.id} declares no rule choices, so no variant reaches it")
    for calc_id, func in variant.functions:
        if calc_id == calc.id:
            key = (calc.id, calc.compute, func)
            if key not in _REPLACED:
                _REPLACED[key] = dataclasses.replace(calc, compute=func)
            return _REPLACED[key]
    return calc


def validate_with(
    calc: Calculator,
    variant: Variant | None,
    values: Mapping[str, Any],
    parameters: Mapping[str, Any] | None = None,
    readings: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], Any]:
    """Validated inputs and the choice set to run them with (``None``: the calculator's own).

    The choice set is the baseline changed by ``variant`` and then by ``parameters`` and
    ``readings``. Inputs
    left out take their values from it where they stand for a choice: a reading input takes
    the chosen reading, and an input named like a rule parameter (``fall_back_dice``) takes
    the parameter's changed value. Inputs given always win.
    """
    if variant is None and not parameters and not readings:
        return calc.validate(values), None
    if variant is not None:
        variant_calculator(calc, variant)  # the system and choices checks
    base: Any = calc.choices
    if base is None:
        raise InputError("variant", f"{calc.id} declares no rule choices, so no variant reaches it")
    choices = base if variant is None else variant.apply(base)
    if parameters or readings:
        choices = choices.replace(parameters=parameters, readings=readings)
    mirrored = {
        key: value
        for key, value in choices.parameters.changed().items()
        if key not in values and key in {i.key for i in calc.inputs}
    }
    return calc.validate({**mirrored, **values}, choices=choices), choices


def choice_keys(calc: Calculator) -> set[str]:
    """Inputs that stand for a rule choice: reading switches and inputs named like a parameter."""
    base: Any = calc.choices
    if base is None:
        return set()
    params = {s.key for s in type(base.parameters).specs()}
    return set(calc.reading_keys) | {i.key for i in calc.inputs if i.key in params}


def run_with_variant(calc: Calculator, variant: VariantLike | None, **inputs: Any) -> CalcResult:
    """Run ``calc`` under a variant (a name, a path, a :class:`Variant` or several to compose).

    Inputs are validated as in :meth:`Calculator.run`; a reading input left out takes the
    variant's reading. ``variant=None`` is the baseline.

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> run_with_variant(calc, None, ld=7)["p_pass_exact"]
    '7/12'
    """
    resolved = None if variant is None else resolve_variant(variant)
    checked, choices = validate_with(calc, resolved, inputs)
    runner = calc if resolved is None else variant_calculator(calc, resolved)
    return runner.run_validated(checked, choices=choices)


def given_inputs(calc: Calculator, words: Sequence[str]) -> dict[str, Any]:
    """The inputs that ``key=value`` words give (validated; the others are left out, not defaulted).

    >>> from rulesbook.registry import registry
    >>> given_inputs(registry().calculator("scrollhammer.panic-test"), ["ld=7"])
    {'ld': 7}
    """
    checked = calc.parse_assignments(words)
    return {k: checked[k] for k in (w.partition("=")[0].strip() for w in words)}


def run_assignments(
    calc: Calculator, words: Sequence[str]
) -> tuple[dict[str, Any], CalcResult, Variant | None]:
    """The CLI's ``key=value`` words, with any ``variant=NAME|PATH`` (repeatable: composed), run.

    >>> from rulesbook.registry import registry
    >>> checked, result, variant = run_assignments(registry().calculator("scrollhammer.panic-test"), ["ld=7"])
    >>> result["p_pass_exact"], variant
    ('7/12', None)
    """
    names = [w.partition("=")[2].strip() for w in words if w.partition("=")[0].strip() == "variant"]
    rest = [w for w in words if w.partition("=")[0].strip() != "variant"]
    if any(not n for n in names):
        raise InputError("variant", "expected variant=NAME or variant=PATH.yaml (see `rulesbook variants`)")
    if not names:
        checked = calc.parse_assignments(rest)
        return checked, calc.run_validated(checked), None
    variant = resolve_variant(names)
    checked, choices = validate_with(calc, variant, given_inputs(calc, rest))
    return checked, variant_calculator(calc, variant).run_validated(checked, choices=choices), variant
