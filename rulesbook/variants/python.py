"""Python variants: a designer's file that replaces rules by rule ID, reaching every calculator.

A YAML variant changes numbers and readings; a Python variant can also give a rule other code.
It is a ``.py`` file with a few module-level names and functions marked with :func:`rule`::

    \"\"\"Break tests get harder: every point lost counts one and a half.\"\"\"
    from rulesbook.variants import rule

    SYSTEM = "scrollhammer"                       # required
    TITLE = "Break tests: 1.5 Ld per point lost"  # required
    PARAMETERS = {"fall_back_dice": "3D6"}        # optional, as in a YAML variant
    READINGS = {}                                 # optional

    @rule("scrollhammer.morale.break-test")
    def break_test(ld, lost_by, *rest, published, **named):
        return published(ld, lost_by + lost_by // 2, *rest, **named)

A marked function takes the arguments of the published function that executes the rule
(``rulesbook variants --rules`` lists every replaceable rule with its signature) and returns the
same type; declaring a parameter ``published`` gives it the published function, to build on.
Taking the arguments you do not change as ``*rest`` and ``**named`` and handing them on keeps a
variant working when a rule's function gains an argument. The override travels in the choice
set (:class:`rulesbook.choices.RuleOverride`), so every calculator built on the rule follows it —
composite ones (a Break test inside a Fall Back chain, the replay of a game) included.

Checked at load, each problem one line naming the file, the function and its line: an unknown
rule or one of another system, a rule whose code takes no choice set (it cannot be replaced), a
signature that does not accept the published arguments, a different return annotation; then
every calculator naming the rule runs its first worked example under the variant, so a function
that fails or returns the wrong type is caught at load, not in the middle of a sweep.

Python variants run the designer's own code: they are loaded from a path the user names (the
command line, notebooks, ``$RULESBOOK_VARIANTS_DIR`` for the served pages), never from an upload.

Example:
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "harsh_breaks.py").write_text('''
    ... from rulesbook.variants import rule
    ... SYSTEM = "scrollhammer"
    ... TITLE = "Break tests: one more point lost"
    ... @rule("scrollhammer.morale.break-test")
    ... def break_test(ld, lost_by, *rest, published, **named):
    ...     return published(ld, lost_by + 1, *rest, **named)
    ... ''')
    >>> from rulesbook.registry import registry
    >>> from rulesbook.variants import run_with_variant
    >>> calc = registry().calculator("scrollhammer.break-test")
    >>> harsh = load_python_variant(folder / "harsh_breaks.py")
    >>> [o.rule for o in harsh.rules], run_with_variant(calc, harsh, ld=8, lost_by=2)["p_pass_exact"]
    (['scrollhammer.morale.break-test'], '5/18')
    >>> calc.run(ld=8, lost_by=3)["p_pass_exact"]
    '5/18'
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from rulesbook.choices import RuleOverride
from rulesbook.data import text_digest
from rulesbook.errors import InputError, quote, shorten
from rulesbook.python_files import load_python_module
from rulesbook.registry import registry
from rulesbook.variants.variant import Variant

__all__ = [
    "RULE_MARK",
    "load_python_variant",
    "overridable_rules",
    "rule",
    "signature_text",
    "variant_from_provenance",
]

RULE_MARK = "__rulesbook_rule__"
"""The attribute :func:`rule` sets on a function: the rule ID it replaces."""

F = TypeVar("F", bound=Callable[..., Any])


def rule(rule_id: str, *, function: str = "") -> Callable[[F], F]:
    """Mark a function of a Python variant file as the new code of rule ``rule_id``: it replaces
    the published function of that rule named ``function`` (default: the one named like it, or
    the rule's only replaceable function)."""

    def mark(func: F) -> F:
        setattr(func, RULE_MARK, rule_id)
        setattr(func, RULE_MARK + "function", function)
        return func

    return mark


def overridable_rules(system: str | None = None) -> dict[str, list[Callable[..., Any]]]:
    """Rule ID -> the published functions executing it that a Python variant can replace (those
    taking the choice set).

    >>> rules = overridable_rules("scrollhammer")
    >>> [f.__name__ for f in rules["scrollhammer.morale.break-test"]]
    ['break_test']
    """
    reg = registry()
    out: dict[str, list[Callable[..., Any]]] = {}
    for rule_id, impls in reg.implementations.items():
        if system is not None and not rule_id.startswith(system + "."):
            continue
        functions = [i.function for i in impls if i.overridable and i.function is not None]
        if functions:
            out[rule_id] = functions
    return out


def signature_text(func: Callable[..., Any]) -> str:
    """A published function's signature as a designer copies it: annotations as written,
    defaults shown when short (the choice set's default is just ``choices``).

    >>> from rulesbook.systems.scrollhammer.rules import panic_test
    >>> signature_text(panic_test)
    'panic_test(ld: int, modifier: int = 0, choices, strength: Strength = None) -> RollTest'
    """
    parts = []
    star = False
    for p in inspect.signature(func).parameters.values():
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        text = p.name
        if p.annotation is not inspect.Parameter.empty and p.name != "choices":
            text += f": {p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, '__name__', p.annotation)}"
        if p.default is not inspect.Parameter.empty and p.name != "choices":
            shown = repr(p.default)
            text += f" = {shown if len(shown) <= 20 else '…'}"
        parts.append(text)
    ret = inspect.signature(func).return_annotation
    tail = (
        ""
        if ret is inspect.Signature.empty
        else f" -> {ret if isinstance(ret, str) else getattr(ret, '__name__', ret)}"
    )
    return f"{func.__name__}({', '.join(parts)}){tail}"


def _target(
    file: Path, func: Callable[..., Any], rule_id: str, functions: list[Callable[..., Any]]
) -> Callable[..., Any]:
    """The published function a designer's function replaces: the one named like it, else the
    rule's only replaceable one (several, none named alike: one line listing them)."""
    named = getattr(func, RULE_MARK + "function", "") or getattr(func, "__name__", "")
    for published in functions:
        if published.__name__ == named:
            return published
    if len(functions) == 1:
        return functions[0]
    listed = "; ".join(signature_text(f) for f in functions)
    raise InputError(
        _where(file, func),
        f"rule {rule_id} is executed by several functions ({listed}); name yours like the one it "
        f"replaces, or write @rule({rule_id!r}, function='NAME')",
    )


def _where(file: Path, func: Callable[..., Any]) -> str:
    code = getattr(inspect.unwrap(func), "__code__", None)
    line = f" (line {code.co_firstlineno})" if code is not None else ""
    return f"{file.name}: {getattr(func, '__name__', 'function')}{line}"


def _check_signature(
    file: Path, func: Callable[..., Any], published: Callable[..., Any], rule_id: str
) -> None:
    """The override accepts every argument the published function takes; its return type (when
    both are annotated) is the published one."""
    where = _where(file, func)
    try:
        mine = inspect.signature(func)
        theirs = inspect.signature(published)
    except (TypeError, ValueError):  # pragma: no cover - a builtin
        return
    params = mine.parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    missing = [name for name in theirs.parameters if name not in params and not takes_any]
    if missing:
        raise InputError(
            where,
            f"rule {rule_id} is called with {', '.join(theirs.parameters)}; "
            f"this function does not accept {', '.join(missing)} (copy the published signature: "
            f"{signature_text(published)})",
        )
    extra = [
        p.name
        for p in params.values()
        if p.name not in theirs.parameters
        and p.name != "published"
        and p.default is inspect.Parameter.empty
        and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    ]
    if extra:
        raise InputError(where, f"needs {', '.join(extra)}, which rule {rule_id} is never given")
    try:
        ours = typing.get_type_hints(func).get("return")
        published_return = typing.get_type_hints(published).get("return")
    except Exception:  # an annotation that does not resolve: checked when it runs instead
        return
    if ours is not None and published_return is not None and ours != published_return:
        raise InputError(
            where,
            f"returns {getattr(ours, '__name__', ours)}; rule {rule_id}'s code returns "
            f"{getattr(published_return, '__name__', published_return)}",
        )


def load_python_variant(path: str | Path) -> Variant:
    """Load and check a Python variant file (see the module's docstring): a :class:`Variant`."""
    file = Path(path).expanduser()
    if not file.is_file():
        raise InputError("variant", f"{path}: no such file")
    module = _run_variant_file(file)
    variant = _declared_variant(module, file)
    overridable = overridable_rules()
    overrides = [
        _rule_override(file, attr, func, rule_id, variant.system, overridable)
        for attr, func in vars(module).items()
        if (rule_id := getattr(func, RULE_MARK, None)) is not None and callable(func)
    ]
    if not overrides and not variant.parameters and not variant.readings:
        raise InputError(
            file.name, "changes nothing: mark a function with @rule('rule.id'), or set PARAMETERS"
        )
    loaded = variant.with_rules(tuple(overrides))
    _run_first_examples(loaded, overrides, file)
    return loaded


def _run_variant_file(file: Path) -> Any:
    """The variant file run as a module; a file that does not run is one line with its line."""
    try:
        return load_python_module(file)
    except InputError:
        raise
    except (Exception, SystemExit) as exc:  # the designer's file does not run
        line = getattr(exc, "lineno", None) or _line_in(exc, file)
        at = f" (line {line})" if line else ""
        raise InputError("variant", f"{file.name}{at}: {type(exc).__name__}: {exc}") from None


def _declared_variant(module: Any, file: Path) -> Variant:
    """The variant the module's ``SYSTEM``, ``TITLE``, ``DESCRIPTION`` (or docstring),
    ``PARAMETERS`` and ``READINGS`` declare, named for the file."""
    raw = {
        "system": getattr(module, "SYSTEM", None),
        "title": getattr(module, "TITLE", None),
        "description": " ".join((getattr(module, "DESCRIPTION", None) or module.__doc__ or "").split()),
        "parameters": getattr(module, "PARAMETERS", None),
        "readings": getattr(module, "READINGS", None),
    }
    name = file.stem.replace("_", "-").lower()
    return Variant.from_mapping(
        {k: v for k, v in raw.items() if v is not None}, name=name, where=file.name, path=str(file)
    )


def _rule_override(
    file: Path, attr: str, func: Any, rule_id: str, system: str, overridable: Mapping[str, Any]
) -> RuleOverride:
    """A function marked ``@rule(rule_id)``, checked: a known rule of the variant's system whose
    code takes a choice set, and a signature the published code's callers can call."""
    where = _where(file, func)
    if rule_id not in registry().rules:
        raise InputError(where, f"unknown rule {rule_id!r}; see `rulesbook list` or `rulesbook rule ID`")
    if not rule_id.startswith(system + "."):
        raise InputError(where, f"rule {rule_id} is not a {system} rule (SYSTEM = {system!r})")
    if rule_id not in overridable:
        raise InputError(
            where,
            f"rule {rule_id}'s code takes no choice set, so a variant cannot replace it; change "
            f"its parameters or readings instead (`rulesbook rule {rule_id}`; `rulesbook variants "
            "--rules` lists the rules a variant can replace)",
        )
    published = _target(file, func, rule_id, overridable[rule_id])
    _check_signature(file, func, published, rule_id)
    return RuleOverride(rule_id, func, (str(file.resolve()), attr), published.__qualname__)


def _run_first_examples(loaded: Variant, overrides: list[RuleOverride], file: Path) -> None:
    """Every calculator built on a replaced rule answers its first worked example under the
    variant once, so a rule that fails does so at load, saying where."""
    for override in overrides:
        for calc in registry().calculators_for_rule(override.rule):
            if not calc.examples or calc.choices is None:
                continue
            try:
                choices = loaded.apply(calc.choices)  # type: ignore[arg-type]
                calc.run_validated(calc.validate(dict(calc.examples[0]), choices), choices)
            except InputError as exc:
                if exc.field == "variant":
                    raise InputError(file.name, exc.message) from None
            except Exception as exc:  # the published code fails under the new rule: say where
                raise InputError(
                    file.name,
                    f"{calc.id} fails on its first worked example under this variant "
                    f"({type(exc).__name__}: {shorten(' '.join(str(exc).split()))})",
                ) from None


def _line_in(exc: BaseException, file: Path) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == file.resolve():
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def variant_from_provenance(
    definition: Mapping[str, Any], folder: str | Path, *, name: str = "rebuilt"
) -> Variant:
    """The variant a table's provenance describes (``provenance["variants"][NAME]``), its
    Python code included: each file under ``python`` is written into ``folder`` (a folder you
    name: running it is running that code, so read it first) after its SHA-256 is checked, then
    loaded as any Python variant file; the parameters, readings and added entries come from the
    document. A file of that name already in ``folder`` with other text is refused, never
    overwritten.

    >>> import pathlib, tempfile
    >>> from rulesbook.variants.sharing import variant_provenance
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "harsh.py").write_text('''
    ... from rulesbook.variants import rule
    ... SYSTEM = "scrollhammer"
    ... TITLE = "Harsh"
    ... @rule("scrollhammer.morale.break-test")
    ... def break_test(ld, lost_by, *rest, published, **named):
    ...     return published(ld, lost_by + 1, *rest, **named)
    ... ''')
    >>> shared = variant_provenance(load_python_variant(folder / "harsh.py"))
    >>> again = variant_from_provenance(shared, pathlib.Path(tempfile.mkdtemp()), name="harsh")
    >>> [o.rule for o in again.rules], again.title
    (['scrollhammer.morale.break-test'], 'Harsh')
    """
    sections = definition.get("python") or []
    if not isinstance(sections, list):
        raise InputError("python", "expected a list of files (file, sha256, rules, source)")
    target = Path(folder).expanduser()
    if not target.is_dir():
        raise InputError("folder", f"{target}: no such folder")
    document = {k: v for k, v in definition.items() if k not in ("python", "functions")}
    if definition.get("functions"):
        raise InputError(
            "functions", "compute functions defined in Python are named, not carried; they cannot be rebuilt"
        )
    overrides: list[RuleOverride] = []
    for i, section in enumerate(sections):
        where = f"python[{i}]"
        if not isinstance(section, Mapping):
            raise InputError(where, "expected a mapping with file, sha256, rules and source")
        file, source, digest = section.get("file"), section.get("source"), section.get("sha256")
        if not isinstance(file, str) or Path(file).name != file or not file.endswith(".py"):
            raise InputError(f"{where}.file", f"expected the name of a .py file, got {quote(file)}")
        if not isinstance(source, str) or not source:
            raise InputError(f"{where}.source", "no code: this file cannot be rebuilt")
        if digest != text_digest(source):
            raise InputError(
                f"{where}.sha256", f"{file}: the text does not match its SHA-256 (changed since)"
            )
        path = target / file
        if path.exists() and path.read_text(encoding="utf-8") != source:
            raise InputError("folder", f"{path} exists with other text; choose an empty folder")
        path.write_text(source, encoding="utf-8")
        wanted = set(section.get("rules") or {})
        overrides += [o for o in load_python_variant(path).rules if o.rule in wanted]
    return Variant.from_mapping(document, name=name).with_rules(tuple(overrides))
