"""The calculator contract: declare inputs once, derive everything else.

A :class:`Calculator` is a pure function plus declarations: its inputs (type, bounds, default,
help), its outputs, and the rule IDs it executes. From the input declarations come validation
(:meth:`Calculator.validate`), the CLI's ``key=value`` parsing and help, the ipywidgets and Panel
forms (:mod:`widgets`) and the inputs table on the calculator's page (:mod:`rulesbook.site`).

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> calc.run(ld=7, modifier=-1)["p_pass_exact"]
    '5/12'
    >>> calc.parse_assignments(["ld=7", "falling_back=true"])["falling_back"]
    True
    >>> calc.parse_assignments(["ld=seven"])
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: ld: expected an integer from 0 to 12, got 'seven'
"""

from __future__ import annotations

import dataclasses
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Literal, Protocol

from rulesbook.dice import DICE_HELP, DiceExpr, parse_dice
from rulesbook.errors import InputError
from rulesbook.results import CalcResult, Table, fraction_str

__all__ = [
    "NOT_GIVEN",
    "BoolInput",
    "Calculator",
    "ChoiceInput",
    "DiceInput",
    "Input",
    "IntInput",
    "IntListInput",
    "InterpretationInput",
    "OptionalInput",
    "OptionalIntInput",
    "Output",
    "PathInput",
    "WordListInput",
    "calculator",
    "publish_values",
]


_INT_TEXT = re.compile(r"^[+-]?[0-9]{1,9}$")


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
"""Default of an input that must be given."""


@dataclass(frozen=True, kw_only=True)
class Input(ABC):
    """One declared input of a calculator.

    ``key`` is the public name (CLI ``key=value``, JSON, widget); ``label`` and ``help`` are
    shown in forms and docs; ``default`` is :data:`REQUIRED` when the user must give a value.
    """

    key: str
    help: str
    label: str = ""
    default: Any = REQUIRED
    kind: ClassVar[str] = "value"

    @property
    def title(self) -> str:
        """The label, or the key made readable."""
        return self.label or self.key.replace("_", " ").capitalize()

    @property
    def initial(self) -> Any:
        """A starting value for forms: the default, or for a required input a plain value."""
        if not self.required:
            return self.default
        return self._initial()

    def _initial(self) -> Any:
        return None

    @property
    def required(self) -> bool:
        """True when there is no default."""
        return self.default is REQUIRED

    @abstractmethod
    def allowed(self) -> str:
        """What values are allowed, in words (used in every error and in the docs)."""

    @abstractmethod
    def parse(self, text: str) -> Any:
        """Parse the CLI/text form; raise :class:`InputError` naming the key."""

    def validate(self, value: Any) -> Any:
        """Check a Python value (text is parsed first); return the canonical value."""
        if isinstance(value, str):
            return self.parse(value)
        return self._check(value)

    def _check(self, value: Any) -> Any:
        return self.parse(str(value))

    def format(self, value: Any) -> str:
        """The CLI/text form of a value (inverse of :meth:`parse`)."""
        return str(value)

    def jsonable(self, value: Any) -> Any:
        """The JSON form of a value."""
        return value

    def error(self, value: Any) -> InputError:
        """An error for ``value`` that names the key and what is allowed (long values cut)."""
        shown = repr(value)
        if len(shown) > 40:
            shown = shown[:30] + f"… ({len(shown)} characters)"
        return InputError(self.key, f"expected {self.allowed()}, got {shown}")


@dataclass(frozen=True, kw_only=True)
class IntInput(Input):
    """An integer between ``minimum`` and ``maximum`` (inclusive)."""

    minimum: int
    maximum: int
    kind: ClassVar[str] = "int"

    def allowed(self) -> str:
        return f"an integer from {self.minimum} to {self.maximum}"

    def _initial(self) -> Any:
        return max(self.minimum, min(self.maximum, 0))

    def parse(self, text: str) -> int:
        word = text.strip()
        if not _INT_TEXT.match(word):  # plain ASCII digits only: no 1_0, no other scripts
            raise self.error(text)
        return self._check(int(word))

    def _check(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise self.error(value)
        if not self.minimum <= value <= self.maximum:
            raise self.error(value)
        return int(value)


@dataclass(frozen=True, kw_only=True)
class BoolInput(Input):
    """``true`` or ``false``."""

    kind: ClassVar[str] = "bool"

    def allowed(self) -> str:
        return "true or false"

    def parse(self, text: str) -> bool:
        word = text.strip().lower()
        if word == "true":
            return True
        if word == "false":
            return False
        raise self.error(text)

    def _check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.error(value)
        return value

    def format(self, value: Any) -> str:
        return "true" if value else "false"


@dataclass(frozen=True, kw_only=True)
class ChoiceInput(Input):
    """One of a fixed list of words."""

    choices: tuple[str, ...]
    kind: ClassVar[str] = "choice"

    def allowed(self) -> str:
        return "one of " + ", ".join(self.choices)

    def parse(self, text: str) -> str:
        word = text.strip()
        if word not in self.choices:
            raise self.error(text)
        return word


@cache
def _system_register(system: str) -> Mapping[str, Any]:
    from rulesbook.records import load_system_data

    path = Path(__file__).parent / "systems" / system.replace("-", "_") / "rules.yaml"
    return {i.id: i for i in load_system_data(path)[2]} if path.is_file() else {}


def _register_entry(interp_id: str) -> Any:
    """The register entry ``interp_id`` read from its system's data file (legacy declarations)."""
    return _system_register(interp_id.split(".", 1)[0]).get(interp_id)


@dataclass(frozen=True, kw_only=True)
class InterpretationInput(ChoiceInput):
    """A switch between the options of an entry of the interpretations register.

    Choices and default come from the register, so the calculator, the CLI, the widgets and
    the docs always offer exactly the documented alternatives.
    """

    interpretation: str
    choices: tuple[str, ...] = ()
    kind: ClassVar[str] = "interpretation"

    def __post_init__(self) -> None:
        if self.choices:  # declared from a typed reading (rulesbook.choices.Readings.input)
            if not self.label:
                object.__setattr__(self, "label", self.key.replace("_", " ").capitalize())
            return
        interp = _register_entry(self.interpretation)
        if interp is None:
            raise LookupError(f"unknown interpretation {self.interpretation}")
        object.__setattr__(self, "choices", interp.option_keys)
        if self.default is REQUIRED:
            object.__setattr__(self, "default", interp.default)
        if not self.label:
            object.__setattr__(self, "label", self.key.replace("_", " ").capitalize())


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()
"""The value of an :class:`OptionalInput` the user left out (empty text, or not given)."""


@dataclass(frozen=True, kw_only=True)
class OptionalInput(Input):
    """Any declared input that may also be a special word or be left out — the one wrapper.

    ``inner`` is the input a real value must satisfy (its key, label and help are used unless
    given here). ``words`` maps special words to the value they stand for: ``{"none": None}``
    (e.g. no officer alive), ``{"same": None}`` (the dice of another input). ``empty`` is the
    value of empty text: :data:`NOT_GIVEN` (left out), a word's value, or :data:`REQUIRED`
    to let ``inner`` read empty text (an empty list, or an error). ``form_start`` is where a
    form starts when the default is a word or :data:`NOT_GIVEN`; ``left_out`` says in help
    what leaving the input out means.

    Example:
        >>> officer = OptionalInput(inner=IntInput(key="officer_ld", help="", minimum=0, maximum=10),
        ...                         words={"none": None}, default=NOT_GIVEN, form_start=8)
        >>> officer.parse("none") is None, officer.parse("") is NOT_GIVEN, officer.parse("8")
        (True, True, 8)
        >>> officer.allowed()
        "an integer from 0 to 10 or 'none'"
        >>> officer.parse("11")
        Traceback (most recent call last):
        ...
        rulesbook.errors.InputError: officer_ld: expected an integer from 0 to 10 or 'none', got '11'
    """

    inner: Input
    key: str = ""
    help: str = ""
    words: Mapping[str, Any] = field(default_factory=dict)
    empty: Any = NOT_GIVEN
    form_start: Any = REQUIRED
    left_out: str = ""
    kind: ClassVar[str] = "optional"

    def __post_init__(self) -> None:
        for name in ("key", "help", "label"):
            if not getattr(self, name):
                object.__setattr__(self, name, getattr(self.inner, name))
        object.__setattr__(self, "words", MappingProxyType(dict(self.words)))

    @property
    def inner_kind(self) -> str:
        """The kind of the wrapped input (front-ends pick a control by it)."""
        return self.inner.kind

    @property
    def initial(self) -> Any:
        if self.form_start is not REQUIRED:
            return self.form_start
        return self.default if not self.required else self.inner.initial

    def allowed(self) -> str:
        words = [f"'{w}'" for w in self.words]
        if not words:
            return self.inner.allowed()
        return f"{self.inner.allowed()} or {' or '.join(words)}"

    def _special(self, value: Any) -> bool:
        return value is NOT_GIVEN or any(value is v for v in self.words.values())

    def parse(self, text: str) -> Any:
        word = text.strip().lower()
        if word in self.words:
            return self.words[word]
        if not word and self.empty is not REQUIRED:
            return self.empty
        try:
            return self.inner.parse(text)
        except InputError as exc:
            raise self._widen(exc, text) from None

    def _check(self, value: Any) -> Any:
        if self._special(value):
            return value
        try:
            return self.inner.validate(value)
        except InputError as exc:
            raise self._widen(exc, value) from None

    def _widen(self, exc: InputError, value: Any) -> InputError:
        """The inner input's error, saying the special words too when it lists what is allowed."""
        return self.error(value) if exc.message.startswith("expected ") else exc

    def format(self, value: Any) -> str:
        if value is NOT_GIVEN:
            return self.left_out
        for word, special in self.words.items():
            if value is special:
                return word
        return self.inner.format(value)

    def jsonable(self, value: Any) -> Any:
        return None if self._special(value) else self.inner.jsonable(value)


def OptionalIntInput(*, none_word: str = "none", default: Any = REQUIRED, **int_fields: Any) -> OptionalInput:
    """An integer in range or the word ``none`` (kept for callers not yet moved to :class:`OptionalInput`)."""
    inner = IntInput(**int_fields)
    return OptionalInput(inner=inner, words={none_word: None}, empty=None, default=default)


@dataclass(frozen=True, kw_only=True)
class DiceInput(Input):
    """A dice expression (``D6``, ``2D6``, ``D6+3``, ``3``)."""

    kind: ClassVar[str] = "dice"
    min_value: int = 0

    def allowed(self) -> str:
        return DICE_HELP

    def parse(self, text: str) -> DiceExpr:
        expr = parse_dice(text, field_name=self.key)
        if expr.minimum < self.min_value:
            raise InputError(self.key, f"the expression can roll below {self.min_value}, got {text!r}")
        return expr

    def _check(self, value: Any) -> DiceExpr:
        if isinstance(value, DiceExpr):
            return self.parse(str(value))
        if isinstance(value, int) and not isinstance(value, bool):
            return self.parse(str(value))
        raise self.error(value)

    def jsonable(self, value: Any) -> Any:
        return str(value)


@dataclass(frozen=True, kw_only=True)
class IntListInput(Input):
    """A comma-separated list of integers, each in range."""

    minimum: int
    maximum: int
    min_length: int = 0
    max_length: int = 100
    kind: ClassVar[str] = "int-list"

    def allowed(self) -> str:
        return (
            f"a comma-separated list of {self.min_length} to {self.max_length} integers, "
            f"each from {self.minimum} to {self.maximum}"
        )

    def parse(self, text: str) -> tuple[int, ...]:
        parts = [p.strip() for p in text.split(",")] if text.strip() else []
        if not all(_INT_TEXT.match(p) for p in parts):
            raise self.error(text)
        return self._check(tuple(int(p) for p in parts))

    def _check(self, value: Any) -> tuple[int, ...]:
        if not isinstance(value, list | tuple) or any(
            isinstance(v, bool) or not isinstance(v, int) for v in value
        ):
            raise self.error(value)
        if not self.min_length <= len(value) <= self.max_length:
            raise self.error(self.format(value))
        if any(not self.minimum <= v <= self.maximum for v in value):
            raise self.error(self.format(value))
        return tuple(value)

    def format(self, value: Any) -> str:
        return ",".join(str(v) for v in value)

    def jsonable(self, value: Any) -> Any:
        return list(value)


@dataclass(frozen=True, kw_only=True)
class PathInput(Input):
    """A path to an existing file (e.g. a game log)."""

    suffixes: tuple[str, ...] = (".yaml", ".yml", ".json")
    kind: ClassVar[str] = "path"

    def allowed(self) -> str:
        return "the path of an existing " + "/".join(self.suffixes) + " file"

    def parse(self, text: str) -> str:
        path = Path(text.strip()).expanduser()
        if not text.strip() or not path.is_file() or path.suffix.lower() not in self.suffixes:
            raise self.error(text)
        return str(path)


@dataclass(frozen=True, kw_only=True)
class WordListInput(Input):
    """A comma-separated list of words, each matching one of ``words`` (full-match regexes).

    ``words`` pairs a regular expression with the form shown in help and errors, e.g.
    ``(("lethal-hits", "lethal-hits"), ("sustained-hits-(?:[1-6]|d3)", "sustained-hits-N"))``.
    Words are lower-cased; order is kept; a word given twice is an error.

    Example:
        >>> inp = WordListInput(key="abilities", help="", default=(),
        ...                     words=(("blast", "blast"), ("anti-[a-z]+-[2-6]", "anti-KEYWORD-N")))
        >>> inp.parse("Blast, anti-infantry-4")
        ('blast', 'anti-infantry-4')
        >>> inp.parse("blastt")
        Traceback (most recent call last):
        ...
        rulesbook.errors.InputError: abilities: unknown word 'blastt'; allowed: blast, anti-KEYWORD-N
    """

    words: tuple[tuple[str, str], ...]
    kind: ClassVar[str] = "word-list"

    @property
    def shown(self) -> str:
        """The allowed words as shown to users."""
        return ", ".join(shown for _, shown in self.words)

    def allowed(self) -> str:
        return "a comma-separated list of: " + self.shown

    def _initial(self) -> Any:
        return ()

    def parse(self, text: str) -> tuple[str, ...]:
        parts = [p.strip().lower() for p in text.split(",")] if text.strip() else []
        out: list[str] = []
        for word in parts:
            if not word:
                raise InputError(self.key, f"empty word in {text!r}; {self.allowed()}")
            if not any(re.fullmatch(pattern, word) for pattern, _ in self.words):
                raise InputError(self.key, f"unknown word {word!r}; allowed: {self.shown}")
            if word in out:
                raise InputError(self.key, f"{word!r} given twice")
            out.append(word)
        return tuple(out)

    def _check(self, value: Any) -> tuple[str, ...]:
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            return self.parse(",".join(value))
        raise self.error(value)

    def format(self, value: Any) -> str:
        return ",".join(value)

    def jsonable(self, value: Any) -> Any:
        return list(value)


@dataclass(frozen=True, slots=True)
class Output:
    """One declared result key.

    A compute function returns exact values; the calculator derives the published forms once
    (:func:`publish_values`): a ``Fraction`` becomes a float under ``key`` and an exact string
    under ``key_exact``, a list of Fractions two lists. ``table`` outputs name a table of the
    result. ``when`` (non-empty) says when an output is present; others are always present.
    """

    key: str
    label: str
    kind: Literal["probability", "number", "count", "bool", "list", "text", "table"] = "probability"
    help: str = ""
    when: str = ""


def _is_exact_list(value: Any) -> bool:
    return isinstance(value, list | tuple) and bool(value) and all(isinstance(v, Fraction) for v in value)


def publish_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """The published form of exact result values: Fractions give a float and an exact string.

    >>> publish_values({"p_pass": Fraction(5, 12), "modified_ld": 6, "pmf": [Fraction(1, 2)] * 2})
    {'p_pass': 0.4166666666666667, 'p_pass_exact': '5/12', 'modified_ld': 6, 'pmf': [0.5, 0.5], 'pmf_exact': ['1/2', '1/2']}
    """
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, Fraction):
            out[key], out[f"{key}_exact"] = float(value), fraction_str(value)
        elif _is_exact_list(value):
            out[key] = [float(v) for v in value]
            out[f"{key}_exact"] = [fraction_str(v) for v in value]
        else:
            out[key] = value
    return out


class ChoiceSet(Protocol):
    """What a calculator needs of a system's :class:`rulesbook.choices.RuleChoices`."""

    @property
    def readings(self) -> Any: ...

    def replace(
        self, *, parameters: Mapping[str, Any] | None = ..., readings: Mapping[str, Any] | None = ...
    ) -> Any: ...


type ComputeFn = Callable[..., CalcResult]
type CheckFn = Callable[[Mapping[str, Any]], None]


@dataclass(frozen=True)
class Calculator:
    """A pure calculator: declared inputs and outputs, the rules it executes, the function.

    Call it like a function with keyword arguments (validated, defaults filled, cached):

    >>> from rulesbook.registry import registry
    >>> registry().calculator("scrollhammer.morale-check")(ld=8)["p_pass"]
    0.7222222222222222
    """

    id: str
    title: str
    system: str
    summary: str
    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    compute: ComputeFn = field(repr=False)
    rules: tuple[str, ...]
    check: CheckFn | None = field(default=None, repr=False)
    examples: tuple[Mapping[str, str], ...] = ()
    reference_tables: Callable[[], Sequence[Table]] | None = field(default=None, repr=False)
    cacheable: bool = True
    choices: ChoiceSet | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        keys = [i.key for i in self.inputs]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.id}: duplicate input keys")
        object.__setattr__(self, "_cached", lru_cache(maxsize=4096)(self._compute_tuple))
        readings = () if self.choices is None else {s.key for s in type(self.choices.readings).specs()}
        object.__setattr__(
            self,
            "reading_keys",
            tuple(i.key for i in self.inputs if isinstance(i, InterpretationInput) and i.key in readings),
        )

    reading_keys: tuple[str, ...] = field(default=(), init=False, repr=False)
    """Inputs that switch a reading of :attr:`choices` (folded into ``choices``, not passed loose)."""

    # -- inputs ---------------------------------------------------------------------------
    def input(self, key: str) -> Input:
        """The declared input called ``key`` (InputError naming the allowed keys otherwise)."""
        for inp in self.inputs:
            if inp.key == key:
                return inp
        raise InputError(
            key, f"unknown input for {self.id}; allowed: {', '.join(i.key for i in self.inputs)}"
        )

    def initial_values(self) -> dict[str, Any]:
        """Starting values for forms: the first worked example, defaults for the rest.

        >>> from rulesbook.registry import registry
        >>> registry().calculator("scrollhammer.morale-check").initial_values()["ld"]
        7
        """
        example = self.examples[0] if self.examples else {}
        return {
            inp.key: inp.parse(example[inp.key]) if inp.key in example else inp.initial for inp in self.inputs
        }

    def defaults(self) -> dict[str, Any]:
        """Defaults of the inputs that have one."""
        return {i.key: i.default for i in self.inputs if not i.required}

    def validate(self, values: Mapping[str, Any], choices: ChoiceSet | None = None) -> dict[str, Any]:
        """Check every value, fill defaults, run the cross-field check; InputError on failure.

        A reading input left out takes its value from ``choices`` when given (a variant's
        reading), else the register's default.
        """
        out: dict[str, Any] = {}
        for key in values:
            self.input(key)  # unknown keys fail first, with the list of allowed keys
        for inp in self.inputs:
            if inp.key in values:
                out[inp.key] = inp.validate(values[inp.key])
            elif inp.required:
                raise InputError(inp.key, f"required; expected {inp.allowed()}")
            elif choices is not None and inp.key in self.reading_keys:
                out[inp.key] = getattr(choices.readings, inp.key)
            else:
                out[inp.key] = inp.validate(inp.default) if isinstance(inp.default, str) else inp.default
        if self.check is not None:
            self.check(MappingProxyType(out))
        return out

    def parse_assignments(self, pairs: Sequence[str]) -> dict[str, Any]:
        """Parse CLI ``key=value`` words into validated inputs."""
        raw: dict[str, str] = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            key = key.strip()
            if not sep or not key:
                allowed = ", ".join(i.key for i in self.inputs)
                raise InputError("arguments", f"expected key=value, got {pair!r}; keys: {allowed}")
            if key in raw:
                raise InputError(key, "given twice")
            self.input(key)
            raw[key] = value
        return self.validate(raw)

    # -- running --------------------------------------------------------------------------
    def _compute_tuple(self, items: tuple[tuple[str, Any], ...]) -> CalcResult:
        return self._finish(self.compute(**dict(items)))

    def _finish(self, result: CalcResult) -> CalcResult:
        """Derive the published forms of exact values once (see :func:`publish_values`)."""
        if not any(isinstance(v, Fraction) or _is_exact_list(v) for v in result.values.values()):
            return result
        return dataclasses.replace(result, values=publish_values(result.values))

    def run(self, **values: Any) -> CalcResult:
        """Validate ``values`` and compute (cached when :attr:`cacheable`)."""
        checked = self.validate(values)
        return self.run_validated(checked)

    __call__ = run

    def compute_arguments(
        self, checked: Mapping[str, Any], choices: ChoiceSet | None = None
    ) -> dict[str, Any]:
        """The keyword arguments of :attr:`compute`: situation inputs, plus the choice set.

        Reading inputs are folded into ``choices`` (the system's, or the one given, e.g. a
        variant's), so compute functions never receive loose option strings.
        """
        if self.choices is None:
            return dict(checked)
        args = {k: v for k, v in checked.items() if k not in self.reading_keys}
        base = choices if choices is not None else self.choices
        args["choices"] = base.replace(readings={k: checked[k] for k in self.reading_keys})
        return args

    def run_validated(self, checked: Mapping[str, Any], choices: ChoiceSet | None = None) -> CalcResult:
        """Compute from values that :meth:`validate` returned (with another choice set if given)."""
        args = self.compute_arguments(checked, choices)
        if self.cacheable:
            return self._cached(tuple(args.items()))  # type: ignore[attr-defined, no-any-return]
        return self._finish(self.compute(**args))

    def output_problems(self, result: CalcResult) -> list[str]:
        """Keys the result has but does not declare, and declared keys it lacks (empty if none).

        >>> from rulesbook.registry import registry
        >>> calc = registry().calculator("scrollhammer.morale-check")
        >>> calc.output_problems(calc.run(ld=7))
        []
        """
        declared = {o.key for o in self.outputs}
        derived = {f"{o.key}_exact" for o in self.outputs}
        present = set(result.values) | {t.name for t in result.tables}
        if result.warnings:
            present.add("warnings")
        problems = [
            f"{self.id}: result key {k!r} is not declared" for k in sorted(present - declared - derived)
        ]
        problems += [
            f"{self.id}: declared output {o.key!r} is missing"
            for o in self.outputs
            if not o.when and o.key not in present
        ]
        return problems

    def inputs_json(self, checked: Mapping[str, Any]) -> dict[str, Any]:
        """Every input with defaults filled, in JSON form."""
        return {i.key: i.jsonable(checked[i.key]) for i in self.inputs}

    def run_json(self, **values: Any) -> dict[str, Any]:
        """``{"calculator": id, "inputs": {...}, "result": {...}}`` — the CLI's ``--json`` answer."""
        checked = self.validate(values)
        result = self.run_validated(checked)
        return {"calculator": self.id, "inputs": self.inputs_json(checked), "result": result.to_json()}

    def cli_example(self, example: Mapping[str, str] | None = None) -> str:
        """A CLI command line for an example (the first declared one by default)."""
        ex = example if example is not None else (self.examples[0] if self.examples else {})
        args = " ".join(f"{k}={v}" for k, v in ex.items())
        return f"rulesbook calc {self.id} {args} --json".replace("  ", " ")

    def declaration(self) -> dict[str, Any]:
        """The declaration as JSON: inputs (key, kind, allowed, default, help) and outputs."""
        return {
            "id": self.id,
            "title": self.title,
            "system": self.system,
            "summary": self.summary,
            "rules": list(self.rules),
            "inputs": [
                {
                    "key": i.key,
                    "kind": i.kind,
                    "allowed": i.allowed(),
                    "default": None if i.required else i.jsonable(i.default),
                    "required": i.required,
                    "help": i.help,
                }
                for i in self.inputs
            ],
            "outputs": [{"key": o.key, "kind": o.kind, "label": o.label} for o in self.outputs],
        }

    def help_text(self) -> str:
        """Plain-text help generated from the declarations (CLI)."""
        lines = [f"{self.id} — {self.title}", "", self.summary, "", "Inputs (key=value):"]
        for inp in self.inputs:
            default = "required" if inp.required else f"default {inp.format(inp.default)}"
            lines.append(f"  {inp.key:<18} {inp.allowed()}; {default}")
            lines.append(f"  {'':<18} {inp.help}")
        lines += ["", "Result keys:"]
        for out in self.outputs:
            extra = f" (and {out.key}_exact)" if out.kind == "probability" else ""
            lines.append(f"  {out.key}{extra}: {out.label}")
        lines += ["", "Rules: " + ", ".join(self.rules), "", "Example: " + self.cli_example()]
        return "\n".join(lines)


def calculator(
    id: str,
    *,
    title: str,
    summary: str,
    inputs: Sequence[Input],
    outputs: Sequence[Output],
    rules: Sequence[str],
    check: CheckFn | None = None,
    examples: Sequence[Mapping[str, str]] = (),
    reference_tables: Callable[[], Sequence[Table]] | None = None,
    cacheable: bool = True,
    choices: ChoiceSet | None = None,
) -> Callable[[ComputeFn], Calculator]:
    """Declare a calculator around a pure compute function.

    The decorated function receives every situation input as a keyword argument (validated,
    defaults filled) and, when the calculator declares its system's ``choices``, one keyword
    ``choices`` with the readings its inputs picked; it returns a
    :class:`~rulesbook.results.CalcResult` of exact values. The decorator only builds the
    :class:`Calculator`; the system loader registers the calculators a system's modules define
    (:class:`rulesbook.registry.SystemPackage`). See
    ``rulesbook/systems/scrollhammer/calculators.py`` for a complete worked example.
    """
    system = id.split(".", 1)[0]

    def wrap(func: ComputeFn) -> Calculator:
        calc = Calculator(
            id=id,
            title=title,
            system=system,
            summary=" ".join(summary.split()),
            inputs=tuple(inputs),
            outputs=tuple(outputs),
            compute=func,
            rules=tuple(rules),
            check=check,
            examples=tuple(examples),
            reference_tables=reference_tables,
            cacheable=cacheable,
            choices=choices,
        )
        return calc

    return wrap
