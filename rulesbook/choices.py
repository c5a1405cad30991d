"""Rule choices: the numbers a rule set fixes and the readings of its gaps, declared once.

Every answer rulesbook gives depends on three kinds of choice:

* **rule parameters** — numbers and dice the rules fix (Fall Back dice ``2D6``, one extra Blast
  attack per five models, 50 points per Detachment Morale point). Each is a field of a system's
  :class:`Parameters` class declared with :func:`parameter`: its value, a label, the rule ID it
  belongs to, the source section it comes from, and bounds.
* **readings** — the chosen option of every entry of the system's interpretations register
  (``rules.yaml``). Each is a ``Literal`` field of the system's :class:`Readings` class declared
  with :func:`reading`; at load the register and the class must agree (one field per entry, the
  same default, the same options), so code and documentation cannot drift.
* **situation inputs** — what the player tells a calculator (Ld, distance, models). These are
  calculator inputs, not choices.

A system's choice set is one immutable :class:`RuleChoices` value; compute functions receive it
whole (never loose option strings), and a changed copy (:meth:`RuleChoices.replace`) is how a
designer's variant, a sweep or an alternative reading reaches the same code path. This follows
OpenFisca's parameters (value + label + reference) and reforms (a named, applied change).

Example:
    >>> from dataclasses import dataclass
    >>> from typing import Literal
    >>> @dataclass(frozen=True)
    ... class DemoParameters(Parameters):
    ...     ld_loss: int = parameter(1, label="Ld lost per point", rule="demo.break",
    ...                              section="Break tests", minimum=0, maximum=6)
    >>> @dataclass(frozen=True)
    ... class DemoReadings(Readings):
    ...     ties: Literal["hold", "withdraw"] = reading("demo.interpretations.ties", "hold")
    >>> base = RuleChoices("demo", DemoParameters(), DemoReadings())
    >>> harsher = base.replace(parameters={"ld_loss": 2}, readings={"ties": "withdraw"})
    >>> harsher.parameters.ld_loss, harsher.readings.ties, base.parameters.ld_loss
    (2, 'withdraw', 1)
    >>> base.replace(parameters={"ld_loss": 9})
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: ld_loss: expected an integer from 0 to 6, got 9
    >>> DemoReadings.input("ties").choices
    ('hold', 'withdraw')
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Literal, Self, get_args, get_origin

from rulesbook.additions import NO_ADDITIONS, Additions
from rulesbook.dice import DICE_HELP, DiceExpr, parse_dice
from rulesbook.errors import InputError, RulesbookError
from rulesbook.inputs import InterpretationInput
from rulesbook.python_files import load_python_module, python_source

__all__ = [
    "ParameterSpec",
    "Parameters",
    "ReadingSpec",
    "Readings",
    "RuleChoices",
    "RuleOverride",
    "parameter",
    "reading",
    "register_problems",
]

_MISSING = object()

_PARAMETER = "rulesbook.parameter"
_READING = "rulesbook.reading"

type ParameterKind = Literal["int", "bool", "dice", "fraction"]


@dataclass(frozen=True, slots=True)
class ParameterSpec:
    """The declaration of one rule parameter: what it is, where it comes from, what it may be."""

    key: str
    label: str
    rule: str
    section: str
    kind: ParameterKind
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def allowed(self) -> str:
        """What values are allowed, in words."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "dice":
            return DICE_HELP
        if self.kind == "fraction":
            return f"a fraction from {self.minimum} to {self.maximum}, such as 1/2 or 1/3"
        return f"an integer from {self.minimum} to {self.maximum}"

    def check(self, value: Any) -> Any:
        """Validate ``value`` (text is parsed); return the typed value or raise InputError."""
        if self.kind == "dice":
            expr = value if isinstance(value, DiceExpr) else parse_dice(str(value), field_name=self.key)
            if self.minimum is not None and expr.minimum < self.minimum:
                raise InputError(self.key, f"the dice can roll below {self.minimum}, got {expr}")
            return expr.check_cost(self.key)
        if self.kind == "fraction":
            return self._fraction(value)
        if self.kind == "bool":
            if isinstance(value, str) and value.strip().lower() in ("true", "false"):
                return value.strip().lower() == "true"
            if not isinstance(value, bool):
                raise InputError(self.key, f"expected {self.allowed()}, got {_short(value)}")
            return value
        digits = value.strip().lstrip("+-") if isinstance(value, str) else ""
        if digits.isascii() and digits.isdigit() and len(value.strip()) < 10:  # no ٢, ２, 𝟐 or ²
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(self.key, f"expected {self.allowed()}, got {_short(value)}")
        lo = self.minimum if self.minimum is not None else value
        hi = self.maximum if self.maximum is not None else value
        if not lo <= value <= hi:
            raise InputError(self.key, f"expected {self.allowed()}, got {value}")
        return value

    def _fraction(self, value: Any) -> Fraction:
        """A fraction parameter: ``1/3``, ``0.25``, ``25%`` or a Fraction, within the bounds."""
        got = value
        if isinstance(value, str):
            text = value.strip()
            try:
                if text.endswith("%"):
                    value = Fraction(text[:-1].strip()) / 100
                elif _FRACTION_TEXT.match(text):
                    value = Fraction(text)
            except (ValueError, ZeroDivisionError):
                pass
        if isinstance(value, bool) or not isinstance(value, int | Fraction | float | str):
            raise InputError(self.key, f"expected {self.allowed()}, got {_short(got)}")
        if isinstance(value, float):
            value = Fraction(value).limit_denominator(1000)
        if isinstance(value, str):
            raise InputError(self.key, f"expected {self.allowed()}, got {_short(got)}")
        fraction = Fraction(value)
        low = Fraction(self.minimum if self.minimum is not None else 0)
        high = Fraction(self.maximum if self.maximum is not None else 1)
        if not low <= fraction <= high:
            raise InputError(self.key, f"expected {self.allowed()}, got {_short(got)}")
        return fraction

    def format(self, value: Any) -> str:
        """The value as a designer writes it in YAML or on the command line."""
        if self.kind == "bool":
            return "true" if value else "false"
        return str(value)


@dataclass(frozen=True, slots=True)
class ReadingSpec:
    """The declaration of one reading: the register entry it answers and its typed options."""

    key: str
    interpretation: str
    default: str
    options: tuple[str, ...]
    inert: str = ""

    def check(self, value: Any) -> str:
        """Validate an option key; return it or raise InputError naming the allowed options."""
        if not isinstance(value, str) or value.strip() not in self.options:
            raise InputError(self.key, f"expected one of {', '.join(self.options)}, got {_short(value)}")
        return value.strip()


_FRACTION_TEXT = re.compile(r"^[0-9]{1,6}(?:\s*/\s*[0-9]{1,6}|\.[0-9]{1,6})?$")


def _short(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:50] + f"… ({len(shown)} characters)"


def parameter(
    default: Any,
    *,
    label: str,
    rule: str,
    section: str,
    minimum: int | None = None,
    maximum: int | None = None,
    help: str = "",
) -> Any:
    """Declare a rule parameter as a dataclass field (its kind comes from the annotation).

    ``rule`` is the rule ID the number belongs to and ``section`` the source section it comes
    from; integers need ``minimum`` and ``maximum``; for dice, ``minimum`` bounds the lowest roll.
    """
    meta = {"label": label, "rule": rule, "section": section, "minimum": minimum, "maximum": maximum}
    meta["help"] = help
    return dataclasses.field(default=default, metadata={_PARAMETER: meta})


def reading(interpretation: str, default: str, *, inert: str = "") -> Any:
    """Declare the reading of one interpretations-register entry as a ``Literal`` field.

    ``inert`` says why no number changes with this reading (it is documented and switchable,
    but no calculator consults it); leave it empty for readings the code uses.
    """
    return dataclasses.field(default=default, metadata={_READING: {"id": interpretation, "inert": inert}})


def _hints(cls: type) -> dict[str, Any]:
    # Each class in the MRO resolves its own annotations in its own module.
    return typing.get_type_hints(cls)


def _kind(key: str, hint: Any) -> ParameterKind:
    if hint is bool:
        return "bool"
    if hint is int:
        return "int"
    if hint is DiceExpr:
        return "dice"
    if hint is Fraction:
        return "fraction"
    raise RulesbookError(f"parameter {key}: type {hint!r} is not int, bool, Fraction or DiceExpr")


class Parameters:
    """Base of a system's rule parameters: a frozen dataclass of :func:`parameter` fields."""

    _specs: ClassVar[tuple[ParameterSpec, ...]]

    @classmethod
    def specs(cls) -> tuple[ParameterSpec, ...]:
        """Every parameter's declaration, in field order."""
        if "_specs" not in cls.__dict__:
            hints = _hints(cls)
            specs = []
            for f in dataclasses.fields(cls):  # type: ignore[arg-type]
                meta = f.metadata.get(_PARAMETER)
                if meta is None:
                    raise RulesbookError(f"{cls.__name__}.{f.name}: declare it with parameter(...)")
                kind = _kind(f.name, hints[f.name])
                if kind in ("int", "fraction") and (meta["minimum"] is None or meta["maximum"] is None):
                    raise RulesbookError(f"{cls.__name__}.{f.name}: an integer parameter needs bounds")
                specs.append(ParameterSpec(key=f.name, kind=kind, default=f.default, **meta))
            cls._specs = tuple(specs)
        return cls._specs

    @classmethod
    def spec(cls, key: str) -> ParameterSpec:
        """The declaration of parameter ``key`` (InputError naming the known ones otherwise)."""
        for spec in cls.specs():
            if spec.key == key:
                return spec
        known = ", ".join(s.key for s in cls.specs()) or "none"
        raise InputError(key, f"unknown rule parameter; allowed: {known}")

    def replace(self, changes: Mapping[str, Any]) -> Self:
        """A validated changed copy (the value itself when nothing changes)."""
        if not changes or all(
            isinstance(key, str)
            and getattr(self, key, _MISSING) == value
            and type(getattr(self, key)) is type(value)
            for key, value in changes.items()
        ):
            return self  # every value already in place (and so valid)
        checked = {key: type(self).spec(key).check(value) for key, value in changes.items()}
        if all(getattr(self, key) == value for key, value in checked.items()):
            return self
        return dataclasses.replace(self, **checked)  # type: ignore[type-var]

    def changed(self) -> dict[str, Any]:
        """The parameters whose value differs from the declared default."""
        return {s.key: getattr(self, s.key) for s in self.specs() if getattr(self, s.key) != s.default}


class Readings:
    """Base of a system's readings: a frozen dataclass of ``Literal`` :func:`reading` fields."""

    _specs: ClassVar[tuple[ReadingSpec, ...]]
    _by_key: ClassVar[dict[str, ReadingSpec]]

    @classmethod
    def specs(cls) -> tuple[ReadingSpec, ...]:
        """Every reading's declaration, in field order."""
        if "_specs" not in cls.__dict__:
            hints = _hints(cls)
            specs = []
            for f in dataclasses.fields(cls):  # type: ignore[arg-type]
                meta = f.metadata.get(_READING)
                hint = hints[f.name]
                if meta is None or get_origin(hint) is not Literal:
                    raise RulesbookError(
                        f"{cls.__name__}.{f.name}: declare it as a Literal with reading(...)"
                    )
                options = tuple(str(a) for a in get_args(hint))
                if f.default not in options:
                    raise RulesbookError(f"{cls.__name__}.{f.name}: default {f.default!r} is not an option")
                specs.append(ReadingSpec(f.name, meta["id"], str(f.default), options, meta["inert"]))
            cls._specs = tuple(specs)
        return cls._specs

    @classmethod
    def spec(cls, key: str) -> ReadingSpec:
        """The declaration of reading ``key`` (a field name or an interpretation ID)."""
        if "_by_key" not in cls.__dict__:
            by_key = {s.interpretation: s for s in cls.specs()}
            by_key.update({s.key: s for s in cls.specs()})
            cls._by_key = by_key
        spec = cls._by_key.get(key) if isinstance(key, str) else None
        if spec is not None:
            return spec
        known = ", ".join(s.key for s in cls.specs()) or "none"
        raise InputError(key, f"unknown reading; allowed: {known}")

    @classmethod
    def input(cls, key: str, *, label: str = "", help: str = "") -> InterpretationInput:
        """A calculator input switching this reading (the input key is the field name).

        Its choices list the default first, then the other options in declaration order.
        """
        spec = cls.spec(key)
        choices = (spec.default, *(o for o in spec.options if o != spec.default))
        return InterpretationInput(
            key=spec.key,
            label=label,
            help=help or f"Interpretation {spec.interpretation}.",
            interpretation=spec.interpretation,
            choices=choices,
            default=spec.default,
        )

    def replace(self, changes: Mapping[str, Any]) -> Self:
        """A validated changed copy (keys are field names or interpretation IDs; the value
        itself when nothing changes)."""
        if all(
            isinstance(key, str) and getattr(self, key, _MISSING) == value for key, value in changes.items()
        ):
            return self  # every value already in place (and so valid)
        checked = {}
        same = True
        for key, value in changes.items():
            spec = type(self).spec(key)
            checked[spec.key] = spec.check(value)
            same = same and getattr(self, spec.key) == checked[spec.key]
        if same:
            return self
        return dataclasses.replace(self, **checked)  # type: ignore[type-var]

    def changed(self) -> dict[str, str]:
        """The readings that differ from the register's default."""
        return {s.key: getattr(self, s.key) for s in self.specs() if getattr(self, s.key) != s.default}


@dataclass(frozen=True, slots=True)
class RuleOverride:
    """Other code for one rule, carried by a choice set: a designer's Python variant.

    Every function that executes the rule (``@implements(rule)`` with a ``choices`` parameter)
    runs ``function`` instead when the choice set it is given carries this override, so every
    calculator built on the rule — composite ones included — follows it. ``function`` takes the
    published function's arguments (and, if it declares one, ``published``: the published
    function itself). ``origin`` is ``(path of the .py file, function name)`` when it came from a
    file: a worker process rebuilds it from there.
    """

    rule: str
    function: Callable[..., Any] = dataclasses.field(compare=True)
    origin: tuple[str, str] = ("", "")
    target: str = ""
    """The qualified name of the published function it replaces (``""``: every function of the
    rule that takes the choice set — then ``function`` must accept each one's arguments)."""

    def __reduce__(self) -> tuple[Any, ...]:
        if self.origin[0]:
            return (_override_from_file, (self.rule, *self.origin, self.target, self.source or None))
        return (RuleOverride, (self.rule, self.function, self.origin, self.target))

    def replaces(self, published: Callable[..., Any]) -> bool:
        """True when this override stands in for ``published``."""
        return not self.target or self.target == getattr(published, "__qualname__", "")

    @property
    def source(self) -> str:
        """The text of the file the new code came from, as it ran (``""`` when it came from no
        Python variant file)."""
        return python_source(self.function) if self.origin[0] else ""

    @property
    def where(self) -> str:
        """Where the designer wrote it: ``file.py: function (line N)``."""
        code = getattr(inspect.unwrap(self.function), "__code__", None)
        name = getattr(self.function, "__qualname__", repr(self.function))
        if code is None:
            return name
        return f"{Path(code.co_filename).name}: {name} (line {code.co_firstlineno})"

    def call(self, published: Callable[..., Any], args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Any:
        """Run the override in place of ``published`` (given as ``published=`` when the override
        declares that parameter). A mistake in it is one line naming its file, function and line;
        a result of another type than the published function's is refused the same way."""
        extra = {"published": published} if _takes_published(self.function) else {}
        try:
            result = self.function(*args, **kwargs, **extra)
        except InputError:
            raise
        except Exception as exc:
            raise InputError(
                "variant", f"{self.where} failed for rule {self.rule}: {_user_frame(exc, self.function)}"
            ) from None
        expected = _return_type(published)
        if expected is not None and not isinstance(result, expected):
            names = " or ".join(t.__name__ for t in expected)
            raise InputError(
                "variant",
                f"{self.where} returned {type(result).__name__} for rule {self.rule}; "
                f"{getattr(published, '__qualname__', 'the rule')} returns {names}",
            )
        return result


@cache
def _takes_published(function: Callable[..., Any]) -> bool:
    try:
        return "published" in inspect.signature(function).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin
        return False


@cache
def _return_type(function: Callable[..., Any]) -> tuple[type, ...] | None:
    """The classes the published function says it returns (a union gives each of its members;
    None when it names no plain class: ``Any``, a type variable, ``object``)."""
    try:
        hint = typing.get_type_hints(function).get("return")
    except Exception:  # pragma: no cover - an annotation that does not resolve
        return None
    members = get_args(hint) if get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    out = []
    for member in members:
        origin = get_origin(member) or member
        if member is None or origin is type(None):
            out.append(type(None))
        elif isinstance(origin, type) and origin is not object:
            out.append(origin)
        else:
            return None
    return tuple(out) or None


def _user_frame(exc: BaseException, function: Callable[..., Any]) -> str:
    """``TypeError: … (line N)``: the exception and the line of the designer's file it came from."""
    code = getattr(inspect.unwrap(function), "__code__", None)
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if code is not None and tb.tb_frame.f_code.co_filename == code.co_filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    where = f" at line {line}" if line is not None else ""
    return f"{type(exc).__name__}{': ' + text if text else ''}{where}"


def _override_from_file(
    rule: str, path: str, name: str, target: str, source: str | None = None
) -> RuleOverride:
    """The override ``name`` of the Python variant file ``path`` (in another process), run from
    ``source`` (the text that ran where it was pickled) when given."""
    module = load_python_module(path, source)
    return RuleOverride(rule, getattr(module, name), (path, name), target)


@dataclass(frozen=True, slots=True)
class RuleChoices[P: Parameters, R: Readings]:
    """One system's whole choice set: its rule parameters, its readings, any rule overrides
    (immutable; ``overrides`` are :class:`RuleOverride`, at most one per rule) and the entries a
    variant's ``add:`` section adds (:class:`~rulesbook.additions.Additions`, the system's own
    subclass, declared by the system package; nothing in the published rules)."""

    system: str
    parameters: P
    readings: R
    overrides: tuple[RuleOverride, ...] = ()
    additions: Additions = NO_ADDITIONS
    situation: tuple[tuple[str, Any], ...] = ()
    """Values of the inputs a variant's ``add:`` declares (``(key, value)`` pairs, sorted), given
    to the calculator that computes with this choice set: the tests of the rules language read
    them (:mod:`rulesbook.language`); not a change of the rules."""
    _hash: int = dataclasses.field(init=False, repr=False, compare=False, default=0)
    _by_rule: Mapping[str, RuleOverride] = dataclasses.field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        # computed once: a choice set keys every cache of the engines (hashing its dozens of
        # fields again at every lookup cost more than some answers)
        object.__setattr__(
            self,
            "_hash",
            hash(
                (self.system, self.parameters, self.readings, self.overrides, self.additions, self.situation)
            ),
        )
        object.__setattr__(self, "_by_rule", {o.rule: o for o in self.overrides})

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt (and re-hashed) on unpickling: string hashes differ between processes
        return (
            type(self),
            (self.system, self.parameters, self.readings, self.overrides, self.additions, self.situation),
        )

    def override(self, rule: str) -> RuleOverride | None:
        """The override of ``rule`` this choice set carries, if any."""
        return self._by_rule.get(rule)

    def replace(
        self,
        *,
        parameters: Mapping[str, Any] | None = None,
        readings: Mapping[str, Any] | None = None,
        overrides: Iterable[RuleOverride] | None = None,
        additions: Additions | None = None,
        situation: Mapping[str, Any] | None = None,
    ) -> RuleChoices[P, R]:
        """A validated changed copy: a variant, a sweep point or another reading (the value
        itself when nothing changes). ``overrides`` are added to (or replace, rule by rule)
        the ones already carried; ``additions`` are added to the ones carried (the same key
        added twice differently is refused); ``situation`` sets values of added inputs."""
        new_parameters = self.parameters.replace(parameters or {})
        new_readings = self.readings.replace(readings or {})
        new_overrides = self.overrides
        if overrides:
            merged = dict(self._by_rule)
            merged.update({o.rule: o for o in overrides})
            new_overrides = tuple(merged[k] for k in sorted(merged))
        new_additions = self.additions.merged(additions) if additions else self.additions
        new_situation = self.situation
        if situation:
            new_situation = tuple(sorted({**dict(self.situation), **situation}.items()))
        if (
            new_parameters is self.parameters
            and new_readings is self.readings
            and new_overrides == self.overrides
            and new_additions is self.additions
            and new_situation == self.situation
        ):
            return self
        return RuleChoices(
            self.system, new_parameters, new_readings, new_overrides, new_additions, new_situation
        )

    def changed(self) -> dict[str, Any]:
        """Everything that differs from the declared defaults, parameters then readings (then
        the rules whose code is replaced, as ``rules.ID``, and the added entries, as
        ``add.SECTION.KEY``)."""
        out: dict[str, Any] = {**self.parameters.changed(), **self.readings.changed()}
        out |= {f"rules.{o.rule}": o.function for o in self.overrides}
        out |= self.additions.changed()
        return out


@dataclass(frozen=True, slots=True)
class _RegisterEntry:
    """What the check needs of an interpretations-register entry."""

    id: str
    default: str
    options: tuple[str, ...]


def register_problems(
    choices: RuleChoices[Any, Any],
    entries: Iterable[_RegisterEntry | Any],
    rule_ids: Iterable[str],
) -> list[str]:
    """Where code and register disagree (empty when they agree); the loader reports the first.

    Every register entry has exactly one reading field with the same default and the same
    option keys; no field answers an entry the register does not have; every parameter names
    a rule the system defines.
    """
    problems: list[str] = []
    specs = {s.interpretation: s for s in type(choices.readings).specs()}
    seen: set[str] = set()
    for entry in entries:
        spec = specs.get(entry.id)
        if spec is None:
            problems.append(
                f"interpretation {entry.id} has no typed reading in "
                f"{type(choices.readings).__name__}; declare a field with reading({entry.id!r}, ...)"
            )
            continue
        seen.add(entry.id)
        keys = tuple(getattr(entry, "option_keys", getattr(entry, "options", ())))
        if spec.default != entry.default:
            problems.append(
                f"interpretation {entry.id}: default {entry.default!r} in the register but "
                f"{spec.default!r} in {type(choices.readings).__name__}.{spec.key}"
            )
        if set(spec.options) != set(keys):
            problems.append(
                f"interpretation {entry.id}: options {sorted(keys)} in the register but "
                f"{sorted(spec.options)} in {type(choices.readings).__name__}.{spec.key}"
            )
    extra = sorted(set(specs) - seen)
    if extra:
        problems.append(f"readings for {', '.join(extra)} answer no interpretation in the register")
    known = set(rule_ids)
    for pspec in type(choices.parameters).specs():
        if pspec.rule not in known:
            problems.append(f"parameter {pspec.key} names unknown rule {pspec.rule}")
    return problems
