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
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from rulesbook.calculators import Calculator
from rulesbook.choices import RuleChoices
from rulesbook.data import DataFileError, load_data_file
from rulesbook.errors import InputError
from rulesbook.present import decimal, shown_values
from rulesbook.registry import registry
from rulesbook.results import CalcResult, fraction_str, short_fraction

__all__ = [
    "VARIANT_KEYS",
    "Comparison",
    "Variant",
    "choice_keys",
    "compare",
    "compose",
    "given_inputs",
    "load_variant",
    "resolve_variant",
    "rule_parameters",
    "run_assignments",
    "run_with_variant",
    "shipped_variants",
    "variant_calculator",
    "variants_for_system",
    "variants_markdown",
]

SYSTEMS_DIR = Path(__file__).resolve().parent / "systems"
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
                raise InputError(f"{where}: {key}", f"unknown key; allowed: {', '.join(VARIANT_KEYS)}")
        if not NAME_RE.match(name):
            raise InputError(where, f"name {name!r}: use lower-case words joined by - (e.g. fall-back-3d6)")
        system = _text(raw, "system", where, required=True)
        title = _text(raw, "title", where, required=True)
        description = " ".join(_text(raw, "description", where).split())
        base = choices if choices is not None else _baseline(system, f"{where}: system")
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
        base = _baseline(self.system, "variant")
        out = {f"parameters.{k}": type(base.parameters).spec(k).format(v) for k, v in self.parameters}
        out |= {f"readings.{k}": v for k, v in self.readings}
        out |= {f"functions.{k}": _qualname(f) for k, f in self.functions}
        return out

    def summary(self) -> list[str]:
        """One line per change, with the baseline value: ``Fall Back dice: 2D6 → 3D6``."""
        base = _baseline(self.system, "variant")
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

    def to_json(self) -> dict[str, Any]:
        """``name``, ``system``, ``title``, ``path``, ``description`` and the changes in words."""
        return {
            "name": self.name,
            "system": self.system,
            "title": self.title,
            "path": self.path,
            "description": self.description,
            "changes": self.changes(),
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
        raise InputError(f"{where}: {key}", f"expected text, got {value!r}")
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
    """The spec of ``key``, or one line saying what is allowed (and whose key it is, if another system's)."""
    try:
        return lookup(key)
    except InputError as exc:
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


def _baseline(system: str, field: str) -> AnyChoices:
    reg = registry()
    if system in reg.choices:
        return reg.choices[system]  # type: ignore[no-any-return]
    if system in reg.systems:
        raise InputError(field, f"{system} declares no rule choices yet, so no variant can change it")
    known = ", ".join(sorted(reg.choices)) or "none"
    raise InputError(field, f"unknown system {system!r}; systems with rule choices: {known}")


# -- files ----------------------------------------------------------------------------------------


def load_variant(path: str | Path, *, choices: AnyChoices | None = None) -> Variant:
    """Load and validate a variant file (its name is the file's stem).

    Any problem is one :class:`InputError` line naming the file, the key and what is allowed:
    malformed YAML, an unknown key, parameter or reading, a value of the wrong type or out of
    bounds, a parameter of another system.
    """
    file = Path(path)
    where = file.name
    if file.suffix.lower() not in (".yaml", ".yml"):
        raise InputError("variant", f"{where}: expected a .yaml or .yml file")
    try:
        raw = load_data_file(file)
    except DataFileError as exc:
        raise InputError(where, str(exc).removeprefix(f"{where}: ")) from None
    return Variant.from_mapping(raw, name=file.stem, where=where, path=str(file), choices=choices)


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
    """A variant from a name, a path, a :class:`Variant` or a sequence of them (composed).

    >>> resolve_variant("no-such-variant")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: variant: unknown variant 'no-such-variant'; shipped: ...
    """
    if isinstance(spec, Variant):
        return spec
    if isinstance(spec, str | Path):
        text = str(spec).strip()
        if isinstance(spec, Path) or text.endswith((".yaml", ".yml")) or "/" in text:
            return load_variant(Path(text).expanduser())
        shipped = shipped_variants()
        if text not in shipped:
            names = ", ".join(shipped) or "none"
            raise InputError(
                "variant", f"unknown variant {text!r}; shipped: {names} (or the path of a .yaml file)"
            )
        return shipped[text]
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
) -> tuple[dict[str, Any], Any]:
    """Validated inputs and the choice set to run them with (``None``: the calculator's own).

    The choice set is the baseline changed by ``variant`` and then by ``parameters``. Inputs
    left out take their values from it where they stand for a choice: a reading input takes
    the chosen reading, and an input named like a rule parameter (``fall_back_dice``) takes
    the parameter's changed value. Inputs given always win.
    """
    if variant is None and not parameters:
        return calc.validate(values), None
    if variant is not None:
        variant_calculator(calc, variant)  # the system and choices checks
    base: Any = calc.choices
    if base is None:
        raise InputError("variant", f"{calc.id} declares no rule choices, so no variant reaches it")
    choices = base if variant is None else variant.apply(base)
    if parameters:
        choices = choices.replace(parameters=parameters)
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


# -- comparison -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """One calculator at one set of inputs: the baseline and each variant, and the differences.

    ``results`` holds (variant name, result) pairs, the baseline first; ``rows`` one entry per
    scalar output: key, label, each result's value and, for numbers, each variant's
    difference from the baseline (exact when both are exact).
    """

    calc: Calculator
    inputs: Mapping[str, Any]
    variants: tuple[Variant, ...]
    results: tuple[tuple[str, CalcResult], ...]
    notes: tuple[str, ...] = ()

    @property
    def names(self) -> list[str]:
        """``baseline`` and each variant's name."""
        return [name for name, _ in self.results]

    def rows(self) -> list[dict[str, Any]]:
        """Per scalar output: ``key``, ``label``, ``kind``, ``values`` and ``exact`` (by name),
        ``text`` (each value as :mod:`rulesbook.present` shows it), ``differences`` and
        ``difference_text`` (by variant: ``{"value": …, "exact": …}`` and ``"+0.3241 (+35/108)"``)."""
        out = []
        base = self.results[0][1]
        scalar = [o for o in self.calc.outputs if o.kind not in ("table", "list") and o.key in base.values]
        shown = {name: {s.key: s for s in shown_values(scalar, r.values)} for name, r in self.results}
        for o in scalar:
            values = {name: r.values.get(o.key) for name, r in self.results}
            exact = {name: r.values.get(f"{o.key}_exact") for name, r in self.results}
            diffs = {
                name: _difference(values[BASELINE], exact[BASELINE], values[name], exact[name])
                for name in self.names[1:]
            }
            out.append(
                {
                    "key": o.key,
                    "label": o.label,
                    "kind": o.kind,
                    "values": values,
                    "exact": exact,
                    "text": {name: s[o.key].text if o.key in s else "—" for name, s in shown.items()},
                    "differences": diffs,
                    "difference_text": {name: _difference_text(d) for name, d in diffs.items()},
                }
            )
        return out

    def distributions(self) -> list[tuple[str, str, dict[str, list[float]]]]:
        """List outputs (distributions over 0, 1, 2, …): key, label, each result's list."""
        out = []
        for o in self.calc.outputs:
            if o.kind != "list":
                continue
            series = {
                n: list(r.values[o.key])
                for n, r in self.results
                if isinstance(r.values.get(o.key), tuple | list)
            }
            if series and all(all(isinstance(x, float) for x in s) for s in series.values()):
                out.append((o.key, o.label, series))
        return out

    def to_json(self) -> dict[str, Any]:
        """Baseline, variants and differences in one JSON-ready mapping."""
        rows = self.rows()
        base_json = self.results[0][1].to_json()
        return {
            "calculator": self.calc.id,
            "inputs": self.calc.inputs_json(self.inputs),
            "baseline": base_json,
            "variants": [
                {
                    "variant": v.name,
                    "title": v.title,
                    "changes": v.changes(),
                    "result": result.to_json(),
                    "difference": {
                        row["key"]: row["differences"][v.name]
                        for row in rows
                        if row["differences"][v.name] is not None
                    },
                }
                for v, (_, result) in zip(self.variants, self.results[1:], strict=True)
            ],
            "notes": list(self.notes),
        }

    def to_text(self) -> str:
        """A table: one line per output, a column per result, then the differences."""
        names = self.names
        width = max(12, *(len(n) for n in names))
        head = f"  {'':<30}" + "".join(f"{n:>{width + 2}}" for n in names)
        head += "".join(f"  Δ {n}" for n in names[1:])
        lines = [f"{self.calc.title} [{self.calc.id}]"]
        lines += [
            f"  {v.name}: {v.title}" + "".join(f"\n    {s}" for s in v.summary()) for v in self.variants
        ]
        lines += ["", head]
        for row in self.rows():
            cells = "".join(f"{row['text'][n]:>{width + 2}}" for n in names)
            cells += "".join(f"  {row['difference_text'][n]}" for n in names[1:])
            lines.append(f"  {row['label'][:30]:<30}{cells}")
        exact_rows = [r for r in self.rows() if r["kind"] == "probability"]
        if exact_rows:
            lines += ["", "  exact:"]
            for row in exact_rows:
                shown = ", ".join(f"{n} {row['exact'][n]}" for n in names)
                lines.append(f"    {row['key']}: {shown}")
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


def _signed(number: float | int) -> str:
    return ("+" if number > 0 else "") + (decimal(number) if isinstance(number, float) else str(number))


def _difference_text(diff: Mapping[str, Any] | None) -> str:
    """``+0.3241 (+35/108)``, ``+2``, ``yes → no``, or ``—`` for no difference to show."""
    if diff is None:
        return "—"
    value = diff["value"]
    if not isinstance(value, int | float):
        return str(value)
    exact = diff.get("exact")
    signed = None if exact is None else (exact if exact.startswith("-") or exact == "0" else "+" + exact)
    tail = "" if signed is None else f" ({short_fraction(signed, limit=40)})"
    return _signed(value) + tail


def _difference(base: Any, base_exact: Any, value: Any, exact: Any) -> dict[str, Any] | None:
    """``{"value": variant − baseline}`` (plus ``"exact"`` when both are exact); words for other kinds."""
    if isinstance(base, bool) or isinstance(value, bool) or not isinstance(base, int | float):
        words = {True: "yes", False: "no"}
        shown = [words[v] if isinstance(v, bool) else str(v) for v in (base, value)]
        return None if base == value else {"value": " → ".join(shown)}
    if not isinstance(value, int | float):
        return {"value": f"{base} → {value}"}
    if isinstance(base_exact, str) and isinstance(exact, str):
        diff = Fraction(exact) - Fraction(base_exact)
        return {"value": float(diff), "exact": fraction_str(diff)}
    return {"value": value - base}


def compare(calc: Calculator, inputs: Mapping[str, Any], variants: Sequence[VariantLike]) -> Comparison:
    """Run ``calc`` at ``inputs`` under the baseline and each variant.

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.panic-test")
    >>> compare(calc, {"ld": 7}, []).rows()[0]["values"]
    {'baseline': 0.5833333333333334}
    """
    resolved = tuple(resolve_variant(v) for v in variants)
    names = [v.name for v in resolved]
    if BASELINE in names or len(set(names)) != len(names):
        raise InputError("variant", f"each variant once, and none called {BASELINE}; got {', '.join(names)}")
    checked = calc.validate(inputs)
    results = [(BASELINE, calc.run_validated(checked))]
    notes = []
    for variant in resolved:
        result = run_with_variant(calc, variant, **inputs)
        results.append((variant.name, result))
        overridden = [k for k in inputs if k in dict(variant.parameters) or k in dict(variant.readings)]
        if overridden:
            notes.append(f"{', '.join(overridden)} given as an input: {variant.name}'s value does not apply")
        if not _touches(calc, variant):
            notes.append(f"{variant.name} changes no parameter or reading that {calc.id} declares")
        elif result.values == results[0][1].values:
            notes.append(f"{variant.name} gives the same result as the baseline at these inputs")
    return Comparison(calc, checked, resolved, tuple(results), tuple(notes))


def _touches(calc: Calculator, variant: Variant) -> bool:
    base = _baseline(variant.system, "variant")
    rules = set(calc.rules)
    return (
        any(type(base.parameters).spec(k).rule in rules for k, _ in variant.parameters)
        or any(k in calc.reading_keys for k, _ in variant.readings)
        or any(c == calc.id for c, _ in variant.functions)
    )


# -- rules ----------------------------------------------------------------------------------------


def rule_parameters(rule_id: str) -> list[dict[str, Any]]:
    """The parameters of a rule a variant can change: key, label, value, allowed, section, help.

    >>> rule_parameters("scrollhammer.no-such-rule")
    []
    """
    system = rule_id.split(".", 1)[0]
    choices = registry().choices.get(system)
    if choices is None:
        return []
    return [
        {
            "key": s.key,
            "label": s.label,
            "value": s.format(getattr(choices.parameters, s.key)),
            "allowed": s.allowed(),
            "section": s.section,
            "help": s.help,
        }
        for s in type(choices.parameters).specs()
        if s.rule == rule_id
    ]


def parameter_lines(rule_id: str) -> Iterable[str]:
    """``rulesbook rule ID``'s lines about the parameters a variant can change."""
    params = rule_parameters(rule_id)
    if params:
        yield "Parameters a variant can change (parameters: KEY: VALUE in a variant file):"
        for p in params:
            yield f"  {p['key']}: {p['value']} — {p['label']}; {p['allowed']} (source: {p['section']})"


# -- the site's page ---------------------------------------------------------------------------------


def variants_markdown() -> str:
    """The site's variants page: the file schema, the shipped variants and what each changes,
    and every parameter and reading a variant can set (all generated from the declarations).

    >>> page = variants_markdown()
    >>> page.startswith("# Designer what-ifs: variants") and "| `system` | yes |" in page
    True
    """
    from rulesbook.index import page_of

    reg = registry()
    out = [
        "# Designer what-ifs: variants",
        "",
        "A **variant** is a named change to a rule set: other values for the numbers and dice the",
        "rules fix (*rule parameters*), other answers to the gaps in the sources (*readings* of the",
        "interpretations register), or — in Python — another function for a calculator. Every",
        "calculator runs under a variant on the command line, in Python and in the widgets, beside",
        "the rules as published.",
        "",
        "```bash",
        "rulesbook variants                                    # the shipped variants",
        "rulesbook calc scrollhammer.break-test ld=8 lost_by=2 variant=break-2-ld-per-point",
        "rulesbook calc ID ... variant=my-rules.yaml variant=other   # repeat to compose",
        "rulesbook compare scrollhammer.break-test ld=8 lost_by=2 --variant break-2-ld-per-point",
        "rulesbook sweep scrollhammer.break-test ld=5..10 lost_by=1..4 --variant break-2-ld-per-point --csv out.csv --plot out.png",
        "```",
        "",
        "In Python: `rulesbook.variants.run_with_variant(calc, 'NAME' or 'path.yaml' or Variant, **inputs)`,",
        "`compare(calc, inputs, [variants])` and `Variant.define(...)` (which may also replace a",
        "calculator's function: `functions={'calculator-id': fn}`, `fn` taking the calculator's inputs",
        "and `choices`). In the widgets, pick a variant under **Compare with**; served calculators",
        "keep it in the address (`/calc/ID?ld=8&variant=NAME`), so a comparison can be bookmarked and",
        "sent. [Sweeps](sweeps.md) run a calculator over a grid of inputs × variants.",
        "",
        "## Writing a variant",
        "",
        "A variant file is a small YAML document; its name is the file name without `.yaml`:",
        "",
        "```yaml",
        "system: scrollhammer",
        "title: −2 Ld per point lost in a Break test",
        "description: >",
        "  Lost combats become decisive much sooner.",
        "parameters:",
        "  break_ld_per_point: 2",
        "readings:",
        "  ld_bounds: max-10",
        "```",
        "",
        "| key | required | what it is |",
        "|---|---|---|",
        "| `system` | yes | the system whose rules change (its ID) |",
        "| `title` | yes | one line, shown beside the results |",
        "| `description` | no | why, in the designer's words |",
        "| `parameters` | no | parameter key → new value (the tables below list every key, its value and what is allowed) |",
        "| `readings` | no | reading key (or interpretation ID) → option key (quote `'on'`/`'off'`: YAML reads them as true/false) |",
        "",
        "A file is checked when it is loaded; any problem is one line naming the file, the key and",
        "what is allowed, and the command exits with code 2:",
        "",
        "```text",
        "rulesbook: error: my-rules.yaml: parameters.break_ld_per_pont: unknown rule parameter; allowed: …",
        "rulesbook: error: my-rules.yaml: parameters.fall_back_dice: the dice can roll below 1, got D6-3",
        "rulesbook: error: my-rules.yaml: parameters.points_per_morale: is a army-morale parameter, not scrollhammer's; …",
        "```",
        "",
        "Variants compose (`variant=a variant=b`, `--variant a+b`) when they are of one system; two",
        "variants that set the same key to different values are a conflict, reported in one line.",
        "",
        "## Shipped variants",
        "",
    ]
    for system in reg.systems.values():
        shipped = variants_for_system(system.id)
        if not shipped:
            continue
        out += [f"### {system.title}", "", "| variant | what changes | file |", "|---|---|---|"]
        for v in shipped:
            changes = "<br>".join(s.replace("|", "\\|") for s in v.summary())
            out.append(f"| **`{v.name}`** — {v.title} | {changes} | `{v.path}` |")
        out.append("")
        out += [f"- **{v.name}**: {v.description}" for v in shipped if v.description]
        out.append("")
    out += ["## What a variant can change", ""]
    for system in reg.systems.values():
        choices = reg.choices.get(system.id)
        if choices is None:
            continue
        out += [f"### {system.title} (`system: {system.id}`)", "", "Rule parameters:", ""]
        out += ["| key | value | allowed | rule | source section |", "|---|---|---|---|---|"]
        for spec in type(choices.parameters).specs():
            value = spec.format(getattr(choices.parameters, spec.key))
            link = f"[{spec.rule}]({page_of(spec.rule)})"
            label = spec.label.replace("|", "\\|")
            out.append(f"| `{spec.key}` | `{value}` ({label}) | {spec.allowed()} | {link} | {spec.section} |")
        out += ["", "Readings (the options of each entry of the interpretations register):", ""]
        out += ["| key | default | options | interpretation |", "|---|---|---|---|"]
        for rspec in type(choices.readings).specs():
            link = f"[{rspec.interpretation}]({page_of(rspec.interpretation)})"
            inert = " (no number changes)" if rspec.inert else ""
            out.append(f"| `{rspec.key}` | `{rspec.default}` | {', '.join(rspec.options)} | {link}{inert} |")
        out.append("")
    return "\n".join(out) + "\n"
