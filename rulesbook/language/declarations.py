"""The declarations of the rules language as immutable values, built from a document the schema
accepted (:mod:`rulesbook.language.schema`).

A document (a system's ``mechanics.yaml``, or the language sections of a variant's ``add:``) has
four sections, each a mapping of key -> declaration:

* ``parameters`` — the numbers and dice the rules fix (:class:`ParameterDecl`; a system written
  in Python declares them in its ``choices.py`` instead);
* ``inputs`` — what a player tells a calculator (:class:`InputDecl`: boolean, integer range,
  choice, dice; default, label, help);
* ``tests`` — roll tests (:class:`TestDecl`: dice, the comparison, a target expression, modifiers,
  natural faces that pass or fail whatever the total, re-rolls, each under an optional ``when``);
* ``calculators`` — one test or a chain of tests, optionally taken by several units, with named
  outputs (:class:`rulesbook.language.document.CalculatorDecl`, beside the whole document).

Building checks what one declaration can check alone (each expression parses, bounds are in
order, a default is allowed); names, types and references between declarations are checked
against the system by :mod:`rulesbook.language.mechanics`. A problem is one
:class:`LanguageError` naming the path of the field (``tests.nerve.target``), which the file
readers turn into ``FILE, line N: PATH: reason``.

Example:
    >>> test = build_test("nerve", {"dice": "2D6", "pass": "at-most", "target": "nerve",
    ...     "modifiers": {"hurt": {"value": -1, "when": "wounded"}}}, ("tests", "nerve"))
    >>> test.target.names, test.modifiers[0].when.text
    (frozenset({'nerve'}), 'wounded')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from rulesbook.dice import DICE_HELP, DiceExpr, parse_dice
from rulesbook.errors import InputError, quote, shorten
from rulesbook.inputs import BoolInput, ChoiceInput, DiceInput, Input, IntInput
from rulesbook.language.expressions import (
    BOOLEAN,
    DICE,
    NUMBER,
    Expression,
    NameType,
    parse_expression,
    text_type,
)

__all__ = [
    "COMPARISONS",
    "Comparison",
    "FaceEntry",
    "FacesDecl",
    "InputDecl",
    "LanguageError",
    "ModifierEntry",
    "ParameterDecl",
    "Path",
    "RerollEntry",
    "TestDecl",
    "expression",
    "optional_expression",
    "text_field",
]

type Path = tuple[str | int, ...]
type Comparison = Literal["at-most", "at-least", "below", "above"]
COMPARISONS: dict[Comparison, str] = {
    "at-most": "a total at most the target passes",
    "at-least": "a total at least the target passes",
    "below": "a total below the target passes",
    "above": "a total above the target passes",
}
"""How a test's total is compared with its target."""


class LanguageError(InputError):
    """A problem in a document of the language: ``path`` is where (``("tests", "nerve",
    "target")``); the message is one line, ``tests.nerve.target: reason`` (``where`` names the
    document first when given: ``house.yaml: add.tests.nerve.target: reason``)."""

    def __init__(self, path: Path, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {dotted(path)}" if where else dotted(path), message)
        self.path = path

    def within(self, where: str) -> LanguageError:
        """The same problem, its document named."""
        return LanguageError(self.path, self.message, where)


def dotted(path: Path) -> str:
    """``tests.nerve.faces.double-one`` (a list index as ``[2]``).

    >>> dotted(("calculators", "x", "chain", 1, "test"))
    'calculators.x.chain[1].test'
    """
    out = ""
    for part in path:
        shown = shorten(str(part), 40)  # (a key a file makes up may be long: the line stays short)
        out += f"[{part}]" if isinstance(part, int) else (f".{shown}" if out else shown)
    return out


def expression(raw: Any, path: Path) -> Expression:
    """An expression of a document, parsed (a problem: a :class:`LanguageError` at ``path``)."""
    try:
        return parse_expression(raw, dotted(path))
    except InputError as exc:
        raise LanguageError(path, exc.message) from None


def optional_expression(raw: Mapping[str, Any], key: str, path: Path) -> Expression | None:
    """The expression under ``key``, or ``None`` when it is not given."""
    return None if raw.get(key) is None else expression(raw[key], (*path, key))


def text_field(raw: Mapping[str, Any], key: str, default: str = "") -> str:
    """A text field, its runs of white space made one space."""
    value = raw.get(key, default)
    return " ".join(value.split()) if isinstance(value, str) else default


# -- inputs and parameters -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InputDecl:
    """A declared input (or a test's ``given`` argument): what a player or a caller tells."""

    key: str
    kind: Literal["boolean", "integer", "choice", "dice"]
    label: str = ""
    help: str = ""
    default: Any = None
    """The typed default (``None``: required)."""
    minimum: int = 0
    maximum: int = 0
    choices: tuple[str, ...] = ()
    added: str = ""
    """The variant that adds it (``""``: the system's own)."""

    @property
    def name_type(self) -> NameType:
        """Its type in expressions."""
        return {"boolean": BOOLEAN, "integer": NUMBER, "dice": DICE}.get(self.kind) or text_type(self.choices)

    def to_input(self) -> Input:
        """The calculator input it declares (CLI, forms, API, pages all follow from it).

        >>> InputDecl("nerve", "integer", "Nerve", "", 7, 2, 12).to_input().allowed()
        'an integer from 2 to 12'
        """
        common: dict[str, Any] = {"key": self.key, "label": self.label, "help": self.help or self.label}
        if self.default is not None:
            common["default"] = self.default
        match self.kind:
            case "boolean":
                return BoolInput(**common)
            case "integer":
                return IntInput(minimum=self.minimum, maximum=self.maximum, **common)
            case "choice":
                return ChoiceInput(choices=self.choices, **common)
        return DiceInput(**common)


def build_input(key: str, raw: Mapping[str, Any], path: Path, *, required_default: bool = True) -> InputDecl:
    """One input declaration (``required_default``: an input without a default is refused, as a
    calculator's inputs need one; a test's ``given`` argument may have none)."""
    kind = raw["kind"]
    decl = InputDecl(key, kind, text_field(raw, "label"), text_field(raw, "help"))
    default = raw.get("default")
    if kind == "integer":
        if raw.get("minimum") is None or raw.get("maximum") is None:
            raise LanguageError(path, "an integer input needs minimum and maximum")
        low, high = raw["minimum"], raw["maximum"]
        if low > high:
            raise LanguageError((*path, "maximum"), f"the maximum {high} is below the minimum {low}")
        decl = replace(decl, minimum=low, maximum=high)
    elif kind == "choice":
        if not raw.get("choices"):
            raise LanguageError(path, "a choice input needs choices (a list of two words or more)")
        decl = replace(decl, choices=tuple(raw["choices"]))
    else:
        for key_ in ("minimum", "maximum", "choices"):
            if key_ in raw:
                raise LanguageError((*path, key_), f"a {kind} input takes no {key_}")
    if default is None:
        if kind == "boolean":
            return replace(decl, default=False)
        if required_default:
            raise LanguageError(path, f"missing field 'default' ({decl.to_input().allowed()})")
        return decl
    try:
        value = decl.to_input().validate(default)
    except InputError as exc:
        raise LanguageError((*path, "default"), exc.message) from None
    return replace(decl, default=value)


@dataclass(frozen=True, slots=True)
class ParameterDecl:
    """A rule parameter of a system written in data (a number or dice its rules fix)."""

    key: str
    kind: Literal["integer", "boolean", "dice", "fraction"]
    default: Any
    label: str
    rule: str
    section: str
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""


def build_parameter(key: str, raw: Mapping[str, Any], path: Path) -> ParameterDecl:
    """One parameter declaration, its default checked against its kind and bounds."""
    kind, default = raw["kind"], raw["default"]
    low, high = raw.get("minimum"), raw.get("maximum")
    if kind in ("integer", "fraction") and (low is None or high is None):
        raise LanguageError(path, f"a {kind} parameter needs minimum and maximum")
    if low is not None and high is not None and low > high:
        raise LanguageError((*path, "maximum"), f"the maximum {high} is below the minimum {low}")
    value: Any = default
    where = (*path, "default")
    if kind == "dice":
        try:
            value = parse_dice(str(default), field_name=dotted(where)).check_cost(dotted(where))
        except InputError as exc:
            raise LanguageError(where, exc.message) from None
        if low is not None and value.minimum < low:
            raise LanguageError(where, f"the dice can roll below {low}, got {value}")
    elif kind == "boolean" and not isinstance(default, bool):
        raise LanguageError(where, f"expected true or false, got {quote(default)}")
    elif kind == "integer" and (isinstance(default, bool) or not isinstance(default, int)):
        raise LanguageError(where, f"expected an integer from {low} to {high}, got {quote(default)}")
    elif kind == "fraction":
        try:
            value = Fraction(str(default))
        except (ValueError, ZeroDivisionError):
            raise LanguageError(where, f"expected a fraction such as 1/2, got {quote(default)}") from None
    if kind in ("integer", "fraction") and not low <= value <= high:
        raise LanguageError(where, f"expected {low} to {high}, got {quote(default)}")
    return ParameterDecl(
        key,
        kind,
        value,
        text_field(raw, "label"),
        str(raw["rule"]),
        text_field(raw, "section"),
        low,
        high,
        text_field(raw, "help"),
    )


# -- tests ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FacesDecl:
    """Natural rolls of the dice a test reads: ``double`` (every die read shows one face; the face
    an expression, or ``None`` for any face), ``highest`` (every die read shows its highest face:
    a double 6 of 2D6, 3 and 6 of D3+D6), ``total`` (the faces read add up to it) or ``faces``
    (exactly these faces, in any order)."""

    form: Literal["double", "highest", "total", "faces"]
    value: Expression | None = None
    faces: tuple[int, ...] = ()

    def describe(self) -> str:
        """In words: ``a double 1``, ``any double``, ``a natural total of 12``, ``1-2-6``.

        >>> FacesDecl("double").describe(), FacesDecl("faces", faces=(6, 1)).describe()
        ('any double', 'the faces 1-6')
        """
        if self.form == "double":
            return "any double" if self.value is None else f"a double {self.value}"
        if self.form == "highest":
            return "every die showing its highest face"
        if self.form == "total":
            return f"a natural total of {self.value}"
        return "the faces " + "-".join(map(str, sorted(self.faces)))


def build_faces(raw: Mapping[str, Any], path: Path) -> FacesDecl:
    """The natural rolls of a face or re-roll entry (the schema gave exactly one form)."""
    if "double" in raw:
        if raw["double"] == "any":
            return FacesDecl("double")
        if raw["double"] == "highest":
            return FacesDecl("highest")
        return FacesDecl("double", expression(raw["double"], (*path, "double")))
    if "total" in raw:
        return FacesDecl("total", expression(raw["total"], (*path, "total")))
    return FacesDecl("faces", faces=tuple(sorted(raw["faces"])))


@dataclass(frozen=True, slots=True)
class ModifierEntry:
    """A modifier of a test (positive helps the tester), under an optional condition."""

    key: str
    value: Expression
    when: Expression | None = None
    label: str = ""
    rule: str = ""
    """The rule it executes, when it is one of its own (Wounded units, Leaders)."""
    added: str = ""


@dataclass(frozen=True, slots=True)
class FaceEntry:
    """Natural rolls that pass, fail or are critical whatever the total, under an optional
    condition (when several entries name one roll, the last one declared decides)."""

    key: str
    faces: FacesDecl
    result: Literal["pass", "fail", "critical"]
    when: Expression | None = None
    label: str = ""
    rule: str = ""
    """The rule it executes, when it is one of its own (Wounded units, Leaders)."""
    added: str = ""


@dataclass(frozen=True, slots=True)
class RerollEntry:
    """A re-roll: of a failed test (``faces`` is ``None``), or of these natural rolls; the whole
    roll is rolled again once and the second roll stands (several re-roll entries that apply make
    one re-roll, asked for by any of them)."""

    key: str
    faces: FacesDecl | None = None
    when: Expression | None = None
    label: str = ""
    rule: str = ""
    """The rule it executes, when it is one of its own (Wounded units, Leaders)."""
    added: str = ""


@dataclass(frozen=True, slots=True)
class TestDecl:
    """A roll test as declared (or, for a test a variant changes, the entries it adds).

    ``dice`` is an expression giving dice (a dice literal such as ``2D6`` is kept as a constant);
    ``comparison`` with ``target`` decides a total; ``modifiers``, ``faces`` and ``rerolls`` are
    entries under keys, each with an optional ``when``; ``reads`` says which dice natural rolls are
    read from (``kept`` or ``rolled``, or an expression giving one); ``fails`` is a condition under
    which the test fails without a roll (natural rolls that pass still pass); ``cap`` bounds the
    summed modifier (40k: 1). ``extends`` names a test whose declaration this one starts from.
    """

    __test__ = False  # not a test case for pytest, despite its name

    key: str
    title: str = ""
    summary: str = ""
    rule: str = ""
    extends: str = ""
    given: tuple[InputDecl, ...] = ()
    dice: Expression | DiceExpr | None = None
    comparison: Comparison | None = None
    target: Expression | None = None
    reads: Expression | None = None
    fails: Expression | None = None
    cap: int | None = None
    modifiers: tuple[ModifierEntry, ...] = ()
    faces: tuple[FaceEntry, ...] = ()
    rerolls: tuple[RerollEntry, ...] = ()
    added: str = ""

    @property
    def entries(self) -> tuple[ModifierEntry | FaceEntry | RerollEntry, ...]:
        """Its modifiers, faces and re-rolls, in that order."""
        return (*self.modifiers, *self.faces, *self.rerolls)

    @property
    def entries_only(self) -> bool:
        """True when it declares only entries (what a variant may add to an existing test)."""
        return self == TestDecl(
            self.key, modifiers=self.modifiers, faces=self.faces, rerolls=self.rerolls, added=self.added
        )

    def with_added(self, variant: str) -> TestDecl:
        """The same declaration, every entry marked as added by ``variant``."""
        return replace(
            self,
            added=variant,
            modifiers=tuple(replace(e, added=variant) for e in self.modifiers),
            faces=tuple(replace(e, added=variant) for e in self.faces),
            rerolls=tuple(replace(e, added=variant) for e in self.rerolls),
        )


def _dice(raw: Any, path: Path) -> Expression | DiceExpr:
    """A dice literal (``2D6``, ``D6+1``: checked against the work bound at once) or an
    expression giving dice (a parameter's or an input's name)."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        raise LanguageError(path, f"a test rolls dice, got the number {raw}; expected {DICE_HELP}")
    text = str(raw).strip()
    if (text and text[0].isdigit()) or (text[:1] in ("d", "D") and text[1:2].isdigit()):
        try:
            return parse_dice(text, field_name=dotted(path)).check_cost(dotted(path))
        except InputError as exc:
            raise LanguageError(path, exc.message) from None
    return expression(raw, path)


def _reads(raw: Any, path: Path) -> Expression:
    """``kept`` or ``rolled`` as written (a word, not a name), or an expression giving one."""
    if raw in ("kept", "rolled"):
        return expression(f'"{raw}"', path)
    return expression(raw, path)


def build_test(key: str, raw: Mapping[str, Any], path: Path) -> TestDecl:
    """One test declaration (its expressions parsed; their names are checked later)."""
    given = tuple(
        build_input(name, spec, (*path, "given", name), required_default=False)
        for name, spec in (raw.get("given") or {}).items()
    )
    modifiers = tuple(
        ModifierEntry(
            k,
            expression(e["value"], (*path, "modifiers", k, "value")),
            optional_expression(e, "when", (*path, "modifiers", k)),
            text_field(e, "label"),
            str(e.get("rule", "")),
        )
        for k, e in (raw.get("modifiers") or {}).items()
    )
    faces = tuple(
        FaceEntry(
            k,
            build_faces(e, (*path, "faces", k)),
            e["result"],
            optional_expression(e, "when", (*path, "faces", k)),
            text_field(e, "label"),
            str(e.get("rule", "")),
        )
        for k, e in (raw.get("faces") or {}).items()
    )
    rerolls = tuple(
        RerollEntry(
            k,
            None if e.get("failed") else build_faces(e, (*path, "rerolls", k)),
            optional_expression(e, "when", (*path, "rerolls", k)),
            text_field(e, "label"),
            str(e.get("rule", "")),
        )
        for k, e in (raw.get("rerolls") or {}).items()
    )
    return TestDecl(
        key=key,
        title=text_field(raw, "title"),
        summary=text_field(raw, "summary"),
        rule=str(raw.get("rule", "")),
        extends=str(raw.get("extends", "")),
        given=given,
        dice=None if raw.get("dice") is None else _dice(raw["dice"], (*path, "dice")),
        comparison=raw.get("pass"),
        target=optional_expression(raw, "target", path),
        reads=None if raw.get("reads") is None else _reads(raw["reads"], (*path, "reads")),
        fails=optional_expression(raw, "fails", path),
        cap=raw.get("cap"),
        modifiers=modifiers,
        faces=faces,
        rerolls=rerolls,
    )
