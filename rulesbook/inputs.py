"""Declared calculator inputs: one class per kind of value, each parsing, checking and describing itself.

An input is declared once (key, label, help, default, bounds); from that declaration come the
calculator's validation, the CLI's ``key=value`` parsing and help, the ipywidgets and Panel
controls (chosen by :attr:`Input.kind`) and the inputs table of the calculator's page.
:class:`OptionalInput` is the one wrapper for "a value, a special word, or nothing".

Example:
    >>> ld = IntInput(key="ld", help="Leadership.", minimum=0, maximum=12)
    >>> ld.parse("7"), ld.allowed()
    (7, 'an integer from 0 to 12')
    >>> ld.parse("seven")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: ld: expected an integer from 0 to 12, got 'seven'
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from rulesbook.dice import COMMON_DICE, DICE_HELP, DiceExpr, parse_dice
from rulesbook.errors import InputError, quote

__all__ = [
    "NOT_GIVEN",
    "REQUIRED",
    "TEXT_TABLE_LIMIT",
    "BoolInput",
    "ChoiceInput",
    "DiceInput",
    "Input",
    "IntInput",
    "IntListInput",
    "InterpretationInput",
    "OptionalInput",
    "PathInput",
    "TextInput",
    "WordListInput",
    "optional",
    "picks",
]


_INT_TEXT = re.compile(r"^[+-]?[0-9]{1,9}$")

TEXT_TABLE_LIMIT = 1000
"""An integer input spanning at most this many values has a table of their texts (:meth:`Input.texts`)."""

_BOOL_TEXTS: Mapping[str, Any] = MappingProxyType({"true": True, "false": False})
_NO_WORDS: Mapping[str, Any] = MappingProxyType({"": ()})
_SURROGATE = re.compile("[\ud800-\udfff]")


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

    def texts(self) -> Mapping[str, Any]:
        """The common spellings of this input's values, parsed ahead: ``{text: parse(text)}``.

        A bounded table built once per declaration (every integer of a range of at most
        :data:`TEXT_TABLE_LIMIT` values, ``true``/``false``, each choice, the usual dice
        expressions); a calculator looks a text up in it before parsing (see
        :meth:`rulesbook.calculators.Calculator.validate`). Every entry is exactly what
        :meth:`parse` returns for its text (tested for every declared input); a text not in
        the table is parsed as usual, and every error comes from :meth:`parse`.

        >>> IntInput(key="ld", help="", minimum=2, maximum=4).texts()
        {'2': 2, '3': 3, '4': 4}
        """
        return {}

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
        return InputError(self.key, f"expected {self.allowed()}, got {quote(value)}")


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

    def texts(self) -> Mapping[str, Any]:
        if self.maximum - self.minimum >= TEXT_TABLE_LIMIT:
            return {}
        return {str(value): value for value in range(self.minimum, self.maximum + 1)}

    def parse(self, text: str) -> int:
        if text.isascii() and text.isdigit() and len(text) < 10:  # plain digits: the common case
            value = int(text)
            if self.minimum <= value <= self.maximum:
                return value
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

    def texts(self) -> Mapping[str, Any]:
        return _BOOL_TEXTS

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

    def texts(self) -> Mapping[str, Any]:
        return {choice: choice for choice in self.choices if choice == choice.strip()}

    def parse(self, text: str) -> str:
        word = text.strip()
        if word not in self.choices:
            raise self.error(text)
        return word


@dataclass(frozen=True, kw_only=True)
class InterpretationInput(ChoiceInput):
    """A switch between the options of an entry of the interpretations register.

    Built by :meth:`rulesbook.choices.Readings.input` from the system's typed reading, whose
    options and default the loader checks against the register, so the calculator, the CLI,
    the widgets and the docs always offer exactly the documented alternatives.
    """

    interpretation: str
    kind: ClassVar[str] = "interpretation"

    def __post_init__(self) -> None:
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
    what leaving the input out means; ``word_in_json`` writes a special word in JSON answers
    as the word (``"same"``) instead of ``null``.

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
    word_in_json: bool = False
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

    def texts(self) -> Mapping[str, Any]:
        words = self.words
        keep_empty = self.empty is REQUIRED  # empty text is the inner input's to read
        table = {
            text: value
            for text, value in self.inner.texts().items()
            if text.strip().lower() not in words and (keep_empty or text.strip())
        }
        if not keep_empty and "" not in words:
            table[""] = self.empty
        table.update((word, value) for word, value in words.items() if word == word.strip().lower())
        return table

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
        if value is NOT_GIVEN:
            return None
        if self._special(value):
            return self.format(value) if self.word_in_json else None
        return self.inner.jsonable(value)


def optional(inner: Input, word: str = "none", *, default: Any = None, **options: Any) -> OptionalInput:
    """``inner``, or a word standing for "nothing" (``None``) — the commonest optional input.

    Empty text means the word too, and the default is ``None`` unless given. ``options`` go to
    :class:`OptionalInput` (``form_start``, ``left_out``, ``label``...).

    Example:
        >>> fnp = optional(IntInput(key="fnp", help="Feel No Pain X+.", minimum=2, maximum=6))
        >>> fnp.parse("none") is None, fnp.parse("") is None, fnp.parse("5"), fnp.default is None
        (True, True, 5, True)
        >>> fnp.allowed()
        "an integer from 2 to 6 or 'none'"
    """
    return OptionalInput(inner=inner, words={word: None}, empty=None, default=default, **options)


@dataclass(frozen=True, kw_only=True)
class DiceInput(Input):
    """A dice expression of the one grammar (``D6``, ``2D6``, ``D6+3``, ``3``, ``3D6kh2``…),
    refused when it can roll below ``min_value`` or needs more work than the calculators allow
    (:meth:`~rulesbook.dice.DiceExpr.check_cost`).

    >>> DiceInput(key="damage", help="", min_value=1).parse("D6!")
    parse_dice('D6!')
    >>> DiceInput(key="damage", help="", min_value=1).parse("D6-1")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: damage: the expression can roll below 1, got 'D6-1'
    """

    kind: ClassVar[str] = "dice"
    min_value: int = 0

    def allowed(self) -> str:
        return DICE_HELP

    def texts(self) -> Mapping[str, Any]:
        if self.min_value <= 0:
            return COMMON_DICE
        return {text: expr for text, expr in COMMON_DICE.items() if expr.minimum >= self.min_value}

    def parse(self, text: str) -> DiceExpr:
        expr = parse_dice(text, field_name=self.key)
        if expr.minimum < self.min_value:
            raise InputError(self.key, f"the expression can roll below {self.min_value}, got {quote(text)}")
        return expr.check_cost(self.key)

    def _check(self, value: Any) -> DiceExpr:
        if isinstance(value, DiceExpr) and 0 <= value.modifier <= 999:
            if value.minimum < self.min_value:
                raise InputError(
                    self.key, f"the expression can roll below {self.min_value}, got {quote(str(value))}"
                )
            return value.check_cost(self.key)
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
class TextInput(Input):
    """A short non-empty text: a name, a note, or the ID of something (``refers`` says what).

    Surrounding spaces are dropped; longer than ``max_length`` characters is an error.

    >>> TextInput(key="reason", help="").parse("  house rule ")
    'house rule'
    >>> TextInput(key="detachment", help="", refers="detachment").parse(" ")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: detachment: expected the ID of a detachment, got ' '
    """

    refers: str = ""
    max_length: int = 200
    suggestions: tuple[str, ...] = ()
    """Names a form offers to pick from a searchable list (built from the data); any other text
    may still be typed."""
    kind: ClassVar[str] = "text"

    def allowed(self) -> str:
        what = f"the ID of a {self.refers.replace('-', ' ')}" if self.refers else "a non-empty text"
        return f"{what}" if self.max_length >= 200 else f"{what} of at most {self.max_length} characters"

    def parse(self, text: str) -> str:
        word = text.strip()
        if not word or len(word) > self.max_length or _SURROGATE.search(word):
            # a lone surrogate (a browser can send one) is no character: no file could hold it
            raise self.error(text)
        return word

    def _check(self, value: Any) -> str:
        if not isinstance(value, str):
            raise self.error(value)
        return self.parse(value)


@dataclass(frozen=True, kw_only=True)
class PathInput(Input):
    """A path to an existing file (e.g. a game log).

    A relative path starting with ``rulesbook/`` that is not found in the working directory
    names a file shipped with rulesbook (the worked examples do), so the examples, the CLI and
    the served apps work from any directory:

    >>> import os, tempfile
    >>> log = PathInput(key="log", help="")
    >>> here = os.getcwd(); os.chdir(tempfile.mkdtemp())
    >>> Path(log.parse("rulesbook/systems/army_morale/data/example-game.yaml")).is_file()
    True
    >>> os.chdir(here)
    """

    suffixes: tuple[str, ...] = (".yaml", ".yml", ".json")
    kind: ClassVar[str] = "path"

    def allowed(self) -> str:
        return "the path of an existing " + "/".join(self.suffixes) + " file"

    def parse(self, text: str) -> str:
        path = Path(text.strip()).expanduser()
        try:
            if not path.is_absolute() and path.parts[:1] == ("rulesbook",) and not path.exists():
                shipped = _SHIPPED_ROOT / path
                if shipped.is_file():
                    path = shipped
            found = path.is_file()
        except (OSError, ValueError):  # a name too long, a NUL byte: no such file
            found = False
        if not text.strip() or not found or path.suffix.lower() not in self.suffixes:
            raise self.error(text)
        return str(path)


_SHIPPED_ROOT = Path(__file__).resolve().parent.parent
"""The folder holding the ``rulesbook`` package (its shipped files are ``rulesbook/...`` from here)."""


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
    suggestions: tuple[str, ...] = ()
    """Words a form offers to pick (several, from a searchable list built from the data); when
    empty, the allowed words that are plain words (not patterns such as ``anti-KEYWORD-N``)."""
    kind: ClassVar[str] = "word-list"

    @property
    def shown(self) -> str:
        """The allowed words as shown to users."""
        return ", ".join(shown for _, shown in self.words)

    def allowed(self) -> str:
        return "a comma-separated list of: " + self.shown

    def _initial(self) -> Any:
        return ()

    def texts(self) -> Mapping[str, Any]:
        return _NO_WORDS

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", re.compile("|".join(f"(?:{p})" for p, _ in self.words)))

    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)
    """One compiled full-match pattern for every allowed word (alternatives in one regex)."""

    def parse(self, text: str) -> tuple[str, ...]:
        parts = [p.strip().lower() for p in text.split(",")] if text.strip() else []
        return self._words(parts, text)

    def _words(self, parts: list[str], text: str) -> tuple[str, ...]:
        """Check each word once against one compiled pattern and a set of those seen: linear in
        the number of words (a list of 30,000 words is checked as fast as it is split)."""
        match = self.pattern.fullmatch
        seen: set[str] = set()
        for word in parts:
            if not word:
                raise InputError(self.key, f"empty word in {quote(text)}; {self.allowed()}")
            if match(word) is None:
                raise InputError(self.key, f"unknown word {quote(word)}; allowed: {self.shown}")
            if word in seen:
                raise InputError(self.key, f"{quote(word)} given twice")
            seen.add(word)
        return tuple(parts)

    def _check(self, value: Any) -> tuple[str, ...]:
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            if any("," in v for v in value) or not "".join(value).strip():
                return self.parse(",".join(value))
            return self._words([v.strip().lower() for v in value], ",".join(value))
        raise self.error(value)

    def format(self, value: Any) -> str:
        return ",".join(value)

    def jsonable(self, value: Any) -> Any:
        return list(value)


def picks(inp: Input) -> tuple[str, ...]:
    """What a form offers to pick for ``inp`` from a searchable list (free text still counts):
    a text's or a word list's ``suggestions``; else a word list's plain words; an optional
    input's words first. Empty: the input is typed (or is a drop-down already).

    >>> picks(WordListInput(key="abilities", help="", default=(),
    ...                     words=(("blast", "blast"), ("anti-[a-z]+-[2-6]", "anti-KEYWORD-N"))))
    ('blast',)
    >>> picks(optional(TextInput(key="leader", help="", suggestions=("lord",))))
    ('none', 'lord')
    >>> picks(TextInput(key="reason", help=""))
    ()
    """
    if isinstance(inp, OptionalInput):
        inner = picks(inp.inner)
        return (*(w for w in inp.words if w not in inner), *inner) if inner else ()
    if isinstance(inp, WordListInput):
        if inp.suggestions:
            return inp.suggestions
        return tuple(shown for pattern, shown in inp.words if re.fullmatch(pattern, shown))
    if isinstance(inp, TextInput):
        return inp.suggestions
    return ()
