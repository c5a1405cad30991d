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

The name is the file's stem. Every problem is one line naming the file, the line, the key and
what is allowed (:class:`~rulesbook.errors.InputError`). Shipped variants live in
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
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from rulesbook.additions import Additions
from rulesbook.calculators import Calculator
from rulesbook.data import DataFileError, compose_text, load_data_file, load_data_text, read_text
from rulesbook.data.lines import field_path, line_of
from rulesbook.errors import InputError, did_you_mean, quote, shorten
from rulesbook.language.calculators import DeclaredCompute, ExplainedCompute, build_calculator, reached_names
from rulesbook.language.declarations import LanguageError, dotted
from rulesbook.language.mechanics import declared_additions
from rulesbook.registry import registry
from rulesbook.results import CalcResult
from rulesbook.variants.python import load_python_variant
from rulesbook.variants.variant import (
    AnyChoices,
    ComputeFn,
    Variant,
    VariantLike,
    compose,
)

__all__ = [
    "VARIANTS_DIR_ENV",
    "adding_variant",
    "choice_keys",
    "failed_variant",
    "find_calculator",
    "given_inputs",
    "input_taker",
    "load_variant",
    "load_variant_text",
    "named_variant",
    "resolve_variant",
    "run_assignments",
    "run_inputs",
    "run_with_variant",
    "shipped_variants",
    "user_variant_problems",
    "user_variants",
    "validate_with",
    "variant_calculator",
    "variants_for_system",
]

SYSTEMS_DIR = Path(__file__).resolve().parent.parent / "systems"


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
    return _checked_variant(raw, file.stem, where, given, choices, lambda: read_text(file))


def load_variant_text(text: str, *, name: str = "house-rule", where: str = "house-rule.yaml") -> Variant:
    """A variant from the text of a variant file (a reader's house rule pasted into the published
    site's variants page, :mod:`widgets.forms.browser`), read by the same safe loader and checked as
    :func:`load_variant` checks a file: any problem is one line naming ``where`` and the key.

    >>> load_variant_text("system: wh40k\\ntitle: Bleak\\nparameters: {battle_shock_dice: 3D6}\\n").summary()
    ['Battle-shock dice (battle_shock_dice): 2D6 → 3D6']
    >>> load_variant_text("system: wh40k\\ntitle: [unclosed\\n")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: house-rule.yaml: not valid YAML (line 3: did not find expected ',' or ']')
    """
    try:
        raw = load_data_text(text, where)
    except DataFileError as exc:
        raise InputError(where, str(exc).removeprefix(f"{where}: ")) from None
    return _checked_variant(raw, name, where, "", None, lambda: text)


def _checked_variant(
    raw: Any, name: str, where: str, path: str, choices: AnyChoices | None, text: Callable[[], str]
) -> Variant:
    """The variant ``raw`` describes; ``text`` gives the file's text again when a problem's line
    is to be named."""
    try:  # checked under a one-character name (so no key is cut from a field), then named
        return Variant.from_mapping(raw, name=name, where="§", path=path, choices=choices)
    except LanguageError as exc:  # the rules language's sections: the line is named too
        line = line_of(compose_text(text(), where), exc.path)
        shown = f"{where}, line {line}" if line else where
        raise InputError(shown, f"{dotted(exc.path)}: {exc.message}") from None
    except InputError as exc:
        if not str(exc).startswith("§: "):
            raise
        field = exc.field.removeprefix("§").removeprefix(": ")
        line = _line(raw, text, where, field)
        raise InputError(f"{where}, line {line}" if line else where, str(exc)[3:]) from None


def _line(raw: Any, text: Callable[[], str], where: str, field: str) -> int | None:
    """The line of the dotted ``field`` (``parameters.fall_back_dise``) in the variant's text, or
    of the entry that lacks it (a required key left out); ``None`` for a key missing at the top,
    or a text that no longer reads. A key cut short in the message is found by its entry's line."""
    path: list[str | int] = []
    node = raw
    for part in field_path(field):
        if (isinstance(node, dict) and part in node) or (isinstance(node, list) and part in range(len(node))):
            node = node[part]  # type: ignore[index]
            path.append(part)
        else:
            break
    try:
        return line_of(compose_text(text(), where), path) if path else None
    except (OSError, DataFileError):
        return None


def _variant_files() -> list[Path]:
    """Every system's shipped variants (its folder's ``variants/``), systems in order."""
    return [f for folder in registry().folders.values() for f in sorted(folder.glob("variants/*.y*ml"))]


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
        root = SYSTEMS_DIR.parent.parent
        shown = file.relative_to(root).as_posix() if file.is_relative_to(root) else file.as_posix()
        out[variant.name] = dataclasses.replace(variant, path=shown)
    return out


def variants_for_system(system: str) -> list[Variant]:
    """The variants that change ``system``: the shipped ones, then the user's
    (:func:`user_variants`)."""
    found = {**shipped_variants(), **user_variants()}
    return [v for v in found.values() if v.system == system]


VARIANTS_DIR_ENV = "RULESBOOK_VARIANTS_DIR"
"""The environment variable naming a folder of the user's own variants (``.yaml`` and ``.py``),
offered beside the shipped ones wherever variants are listed (the served pages' "Compare with");
several folders are separated by ``os.pathsep`` (``rulesbook serve --variants DIR`` adds one)."""

_LOG = logging.getLogger("rulesbook.variants")
_LOG.addHandler(logging.NullHandler())  # (a program that sets up logging shows it: the server does)
_LOGGED: set[tuple[str, ...]] = set()


def user_variants() -> dict[str, Variant]:
    """The user's variants in ``$RULESBOOK_VARIANTS_DIR`` (none when it is not set), by name.

    Read afresh at each call (a designer edits them while the server runs; each file is loaded
    once per change of its modification time). A file that does not load is left out of the
    list with its one-line reason in :func:`user_variant_problems`, never breaking a page; the
    reason is also logged once (logger ``rulesbook.variants``: the server's log).
    """
    folders = [f for f in os.environ.get(VARIANTS_DIR_ENV, "").split(os.pathsep) if f.strip()]
    out: dict[str, Variant] = {}
    _PROBLEMS.clear()
    if not folders:
        return out
    shipped = shipped_variants()
    files = [file for folder in folders for file in sorted(Path(folder).expanduser().glob("*"))]
    for file in files:
        if file.suffix not in (".yaml", ".yml", ".py") or file.name.startswith((".", "_")):
            continue
        try:
            variant = _load_user_variant(str(file.resolve()), file.stat().st_mtime_ns)
        except OSError as exc:
            variant = str(exc)
        if isinstance(variant, str):  # (a file that does not load is tried again once it changes)
            _PROBLEMS[file.name] = variant
            continue
        if variant.name in shipped or variant.name in out:
            _PROBLEMS[file.name] = f"{file.name}: a variant called {variant.name} exists already"
            continue
        out[variant.name] = variant
    for name, problem in _PROBLEMS.items():
        if (name, problem) not in _LOGGED:
            _LOGGED.add((name, problem))
            _LOG.warning("rulesbook: your variant %s is left out: %s", name, problem)
    return out


_PROBLEMS: dict[str, str] = {}


def failed_variant(name: str) -> bool:
    """Whether ``name`` is a variant of yours that failed to load (from the last
    :func:`user_variants` call); if so, its reason is logged for the operator, once (a request
    that names it is told only that it failed: the reason names the server's files).

    >>> failed_variant("battle-shock-3d6")
    False
    """
    found = _failed(name)
    if found is not None and (*found, "named") not in _LOGGED:
        _LOGGED.add((*found, "named"))
        _LOG.warning("rulesbook: a request named your variant %s, which failed to load: %s", name, found[1])
    return found is not None


def _failed(name: str) -> tuple[str, str] | None:
    """The file of yours that would be the variant ``name`` and why it did not load, from the last
    :func:`user_variants` call; ``None`` when no file of that name failed. (A YAML variant is named
    by its file's stem, a Python one by its stem with ``-`` for ``_``.)"""
    for file, why in _PROBLEMS.items():
        stem = Path(file).stem
        if name == (stem.replace("_", "-").lower() if file.endswith(".py") else stem):
            return file, why
    return None


def user_variant_problems() -> dict[str, str]:
    """File name -> why it was left out, from the last :func:`user_variants` call."""
    return dict(_PROBLEMS)


@cache
def _load_user_variant(path: str, mtime: int) -> Variant | str:
    """The variant of a file of yours, or the one line saying why it does not load (kept, like
    the variant, until the file changes: a failing Python file is not run at every lookup)."""
    try:
        return resolve_variant(Path(path))
    except InputError as exc:
        return str(exc)
    except Exception as exc:  # a designer's Python file: one bad file never breaks a lookup
        return f"{Path(path).name}: {type(exc).__name__}: {shorten(' '.join(str(exc).split()))}"


def resolve_variant(spec: VariantLike) -> Variant:
    """A variant from a name (shipped, or yours in ``$RULESBOOK_VARIANTS_DIR``), a path, a
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
    if isinstance(spec, str | Path):
        text = str(spec).strip()
        if not text:
            raise InputError("variant", "expected a variant name or the path of a .yaml or .py file")
        if isinstance(spec, str) and "+" in text and not Path(text).expanduser().is_file():
            parts = [part.strip() for part in text.split("+")]
            if all(parts):
                return compose([resolve_variant(part) for part in parts])
        if text.endswith(".py"):
            return load_python_variant(Path(text).expanduser())
        if isinstance(spec, Path) or text.endswith((".yaml", ".yml")) or "/" in text:
            return load_variant(text)
        shipped, yours = shipped_variants(), user_variants()
        known = {**shipped, **yours}
        if text not in known and (why := _failed(text)) is not None:
            raise InputError("variant", f"your variant {quote(text)} failed to load: {why[1]}")
        if text not in known:
            names = ", ".join(shipped) or "none"
            own = f"; yours (${VARIANTS_DIR_ENV}): {', '.join(yours)}" if yours else ""
            hint = did_you_mean(text, list(known)) or ";"
            raise InputError(
                "variant",
                f"unknown variant {quote(text)}{hint} shipped: {names}{own} (or the path of a .yaml or .py file)",
            )
        return known[text]
    return compose([resolve_variant(s) for s in spec])


def named_variant(names: str | Sequence[str]) -> Variant | None:
    """The variant a request names: a variant the server knows by its *name* (shipped, or yours in
    ``$RULESBOOK_VARIANTS_DIR``), ``A+B`` or several names composed; no name: ``None``. Never a
    path: a request (a page's address, a form, a websocket message, the JSON
    API) does not make the server open, read or run a file it names. Only the command line and
    the Python API take a path (:func:`resolve_variant`).

    >>> named_variant("battle-shock-3d6").name
    'battle-shock-3d6'
    >>> named_variant(["battle-shock-3d6", "deadly-demise-on-5"]).name
    'battle-shock-3d6+deadly-demise-on-5'
    >>> named_variant([]) is None
    True
    >>> named_variant("/tmp/x.py")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: variant: unknown variant '/tmp/x.py'; a request names a variant the server knows, never a file; known: ...
    """
    listed = [names] if isinstance(names, str) else list(names)
    parts = [part for name in listed for part in str(name).split("+")]  # exactly as listed
    if not parts:
        return None
    known = {**shipped_variants(), **user_variants()}
    for part in parts:
        if part not in known and failed_variant(part):
            raise InputError(
                "variant", f"your variant {quote(part)} failed to load (the server's log says why)"
            )
        if part not in known:
            hint = did_you_mean(part, list(known)) or ";"
            raise InputError(
                "variant",
                f"unknown variant {quote(part)}{hint} a request names a variant the server knows, "
                f"never a file; known: {', '.join(known) or 'none'}",
            )
    found = [known[part] for part in parts]
    return found[0] if len(found) == 1 else compose(found)


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
            return _with_additions(_REPLACED[key], variant)
    return _with_additions(calc, variant)


_ADDED: dict[tuple[str, ComputeFn, Additions], Calculator] = {}
_NEW: dict[tuple[str, Additions], Calculator] = {}


def find_calculator(calc_id: str, variant: Variant | None = None) -> Calculator:
    """Calculator ``calc_id``: a registered one, or one ``variant`` adds (its ``add:
    calculators:``, declared in the rules language; it computes under the variant's choice set).
    An unknown ID is the registry's one line with its "did you mean".

    >>> v = Variant.from_mapping({"system": "scrollhammer", "title": "Terror", "add": {
    ...     "inputs": {"ld": {"kind": "integer", "minimum": 2, "maximum": 10, "default": 7}},
    ...     "tests": {"terror": {"dice": "2D6", "pass": "at-most", "target": "ld - 1"}},
    ...     "calculators": {"terror-test": {"title": "Terror test", "test": "terror",
    ...                                     "outputs": {"p_pass": {"label": "P(pass)", "p": "pass"}}}}}}, name="terror")
    >>> run_with_variant(find_calculator("scrollhammer.terror-test", v), v, ld=7)["p_pass_exact"]
    '5/12'
    """
    reg = registry(calc_id.partition(".")[0] or None) if isinstance(calc_id, str) else registry()
    if isinstance(calc_id, str) and calc_id not in reg.calculators:
        reg = registry()
    if variant is None or calc_id in reg.calculators:
        return reg.calculator(calc_id)
    system, _, key = calc_id.partition(".")
    declared = declared_additions(variant.additions)
    decl = next((c for c in declared.calculators if c.key == key), None) if system == variant.system else None
    if decl is None:
        return reg.calculator(calc_id)
    found = (calc_id, variant.additions)
    if found not in _NEW:
        mechanics = reg.mechanics[system]
        _NEW[found] = build_calculator(mechanics, decl, reg.choices[system], declared)
    return _NEW[found]


def variant_calculators() -> dict[str, str]:
    """Every calculator a listed variant (shipped, or the user's: :func:`variants_for_system`)
    adds in the rules language (``add: calculators``) and the registry lacks: calculator ID ->
    the name of the variant that adds it (the first listed, when two add one ID). The served
    site gives each a page computing under that variant (:func:`find_calculator`).

    >>> isinstance(variant_calculators(), dict)
    True
    """
    reg = registry()
    out: dict[str, str] = {}
    for system in reg.systems:
        for variant in variants_for_system(system):
            for key, _ in variant.additions.section("calculators"):
                calc_id = f"{system}.{key}"
                if calc_id not in reg.calculators:
                    out.setdefault(calc_id, variant.name)
    return out


def _with_additions(calc: Calculator, variant: Variant) -> Calculator:
    """``calc`` with what the variant's ``add:`` declares in the rules language and reaches it:
    the inputs the entries added to its tests read (offered and validated like its own, their
    values carried by the choice set), and an explanation line per added entry (kept, one copy
    per calculator and additions)."""
    declared = declared_additions(variant.additions)
    if not declared or not calc.tests:
        return calc
    key = (calc.id, calc.compute, variant.additions)
    if key not in _ADDED:
        mechanics = registry().mechanics[calc.system]
        names = reached_names(mechanics, calc.tests, declared)
        added = [i for i in declared.inputs if i.key in names]
        if not names:
            _ADDED[key] = calc
        else:
            own = {i.key for i in calc.inputs}
            compute = calc.compute
            if not isinstance(compute, DeclaredCompute):
                compute = ExplainedCompute(compute, mechanics, calc.tests)
            _ADDED[key] = dataclasses.replace(
                calc,
                inputs=(*calc.inputs, *(i.to_input() for i in added if i.key not in own)),
                situation_keys=tuple(i.key for i in added),
                added_inputs=tuple(i.key for i in added if i.key not in own),
                compute=compute,
            )
    return _ADDED[key]


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
        calc = variant_calculator(calc, variant)  # the system and choices checks; its added inputs
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


def input_taker(calc: Calculator, key: str, variants: Sequence[Variant | None]) -> Calculator:
    """The calculator that reads input ``key``: ``calc``, or as the first of ``variants`` that adds
    it (``add: inputs``) offers it (``calc`` again when none does: its unknown-input error names
    the key). A comparison's or a sweep's column whose rules lack the input answers without it
    and says so (:func:`~rulesbook.variants.comparison.run_lacking`).

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.break-test")
    >>> taker = input_taker(calc, "has_standard", [resolve_variant("examples/designer/standard-reroll.yaml")])
    >>> taker.input("has_standard").kind, input_taker(calc, "ld", []) is calc
    ('bool', True)
    """
    if key in {i.key for i in calc.inputs}:
        return calc
    for variant in variants:
        if variant is not None and variant.system == calc.system:
            runner = variant_calculator(calc, variant)
            if key in {i.key for i in runner.inputs}:
                return runner
    return calc


def given_inputs(
    calc: Calculator, words: Sequence[str], variants: Sequence[VariantLike] = ()
) -> dict[str, Any]:
    """The inputs that ``key=value`` words give (validated; the others are left out, not defaulted);
    a key only ``variants`` add (``add: inputs``) is read as the variant adding it declares it
    (:func:`input_taker`).

    >>> from rulesbook.registry import registry
    >>> given_inputs(registry().calculator("scrollhammer.panic-test"), ["ld=7"])
    {'ld': 7}
    >>> given_inputs(registry().calculator("scrollhammer.break-test"), ["ld=8", "has_standard=true"],
    ...              ["examples/designer/standard-reroll.yaml"])
    {'ld': 8, 'has_standard': True}
    """
    resolved = [resolve_variant(v) for v in variants]
    keys = [w.partition("=")[0].strip() for w in words]
    added = {k: taker for k in keys if (taker := input_taker(calc, k, resolved)) is not calc}
    base = [w for w, k in zip(words, keys, strict=True) if k not in added]
    checked = calc.parse_assignments(base, cross_check=False)  # the variant's choices check them next
    out = {k: checked[k] for k in keys if k not in added}
    for w, k in zip(words, keys, strict=True):
        if k in added:
            out[k] = added[k].input(k).parse(w.partition("=")[2].strip())
    return out


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
    variant = resolve_variant(names) if names else None
    runner = calc if variant is None else variant_calculator(calc, variant)  # (with the inputs it adds)
    raw = runner.assignments(rest)
    checked, result = run_inputs(calc, raw, variant)
    return checked, result, variant


def adding_variant(calc: Calculator, key: str, value: Any) -> tuple[str, str] | None:
    """(entry, variant name) when ``value`` of input ``key`` names an entry that a listed variant
    (shipped, or yours) adds for it and the published rules lack: the hint for a refusal.

    >>> from rulesbook.registry import registry
    >>> adding_variant(registry().calculator("wh40k.datasheet-attack"), "stratagems", "monster-hunters")
    ('monster-hunters', 'monster-hunters')
    """
    from rulesbook.additions import entry_key
    from rulesbook.inputs import picks

    if calc.choices is None or value is None or key not in {i.key for i in calc.inputs}:
        return None
    words = value if isinstance(value, list | tuple) else str(value).split(",")
    printed = set(picks(calc.input(key)))
    wanted = [k for k in (entry_key(str(w)) for w in words) if k and k not in printed]
    for variant in variants_for_system(calc.system):
        found = [k for k in wanted if k in variant.additions.offered(key)]
        if found:
            return found[0], variant.name
    return None


def run_inputs(
    calc: Calculator, raw: Mapping[str, Any], variant: Variant | None = None
) -> tuple[dict[str, Any], CalcResult]:
    """Validate the inputs given (``raw``: texts as the command line takes them, or values) and
    run ``calc``, under ``variant`` when one is given: the path of ``rulesbook calc`` and of the
    HTTP API's ``/api/v1/calc/ID``, so both answer alike. Returns the validated inputs (defaults
    filled) and the result.

    >>> from rulesbook.registry import registry
    >>> checked, result = run_inputs(registry().calculator("scrollhammer.panic-test"), {"ld": "7"})
    >>> checked["ld"], result["p_pass_exact"]
    (7, '7/12')
    """
    if variant is None:
        try:
            checked = calc.validate(raw)
            return checked, calc.run_validated(checked)
        except InputError as exc:
            adder = adding_variant(calc, exc.field, raw.get(exc.field))
            if adder is None:
                raise
            raise InputError(
                exc.field,
                f"{exc.message}; {adder[0]} is added by the variant {adder[1]} (variant={adder[1]})",
            ) from None
    runner = variant_calculator(calc, variant)
    first = runner.check_values(raw)  # each value as given; the variant's choices check them together next
    checked, choices = validate_with(calc, variant, {k: first[k] for k in raw})
    return checked, runner.run_validated(checked, choices=choices)
