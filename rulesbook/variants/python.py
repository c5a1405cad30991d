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
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from rulesbook.choices import RuleOverride, load_python_module
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.variants.variant import Variant

__all__ = ["RULE_MARK", "load_python_variant", "overridable_rules", "rule", "signature_text"]

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
    try:
        module = load_python_module(file)
    except InputError:
        raise
    except Exception as exc:  # the designer's file does not run
        line = getattr(exc, "lineno", None) or _line_in(exc, file)
        at = f" (line {line})" if line else ""
        raise InputError("variant", f"{file.name}{at}: {type(exc).__name__}: {exc}") from None
    raw = {
        "system": getattr(module, "SYSTEM", None),
        "title": getattr(module, "TITLE", None),
        "description": " ".join((getattr(module, "DESCRIPTION", None) or module.__doc__ or "").split()),
        "parameters": getattr(module, "PARAMETERS", None),
        "readings": getattr(module, "READINGS", None),
    }
    name = file.stem.replace("_", "-").lower()
    variant = Variant.from_mapping(
        {k: v for k, v in raw.items() if v is not None}, name=name, where=file.name, path=str(file)
    )
    overridable = overridable_rules()
    overrides = []
    for attr, func in vars(module).items():
        rule_id = getattr(func, RULE_MARK, None)
        if rule_id is None or not callable(func):
            continue
        where = _where(file, func)
        reg = registry()
        if rule_id not in reg.rules:
            raise InputError(where, f"unknown rule {rule_id!r}; see `rulesbook list` or `rulesbook rule ID`")
        if not rule_id.startswith(variant.system + "."):
            raise InputError(
                where, f"rule {rule_id} is not a {variant.system} rule (SYSTEM = {variant.system!r})"
            )
        if rule_id not in overridable:
            raise InputError(
                where,
                f"rule {rule_id}'s code takes no choice set, so a variant cannot replace it; change "
                f"its parameters or readings instead (`rulesbook rule {rule_id}`; `rulesbook variants "
                "--rules` lists the rules a variant can replace)",
            )
        published = _target(file, func, rule_id, overridable[rule_id])
        _check_signature(file, func, published, rule_id)
        overrides.append(RuleOverride(rule_id, func, (str(file.resolve()), attr), published.__qualname__))
    if not overrides and not variant.parameters and not variant.readings:
        raise InputError(
            file.name, "changes nothing: mark a function with @rule('rule.id'), or set PARAMETERS"
        )
    loaded = variant.with_rules(tuple(overrides))
    for override in overrides:  # every calculator built on the rule runs once: fail at load
        for calc in registry().calculators_for_rule(override.rule):
            if not calc.examples or calc.choices is None:
                continue
            try:
                choices = loaded.apply(calc.choices)  # type: ignore[arg-type]
                calc.run_validated(calc.validate(dict(calc.examples[0]), choices), choices)
            except InputError as exc:
                if exc.field == "variant":
                    raise InputError(file.name, exc.message) from None
    return loaded


def _line_in(exc: BaseException, file: Path) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == file.resolve():
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
