"""Expressions of the rules language: a target, a modifier, a condition, parsed once and evaluated
exactly, never with ``eval``.

A designer writes a target as ``nerve + modifier``, a condition as ``wounded and not leader_near``,
a choice as ``if ld_bounds == "max-10" then min(ld, 10) else ld``. :func:`parse_expression` reads
the text with a `lark <https://lark-parser.readthedocs.io>`_ LALR grammar (:data:`GRAMMAR`) into an
immutable tree of :class:`Node` values; :meth:`Expression.check` checks it against the names in
scope and the type it must have (one line naming the field, before anything is computed), and
:meth:`Expression.evaluate` computes it with exact numbers (``int`` and
:class:`~fractions.Fraction`: ``1/3`` is a third, never 0.333…).

What the language has, and nothing more:

* numbers (``7``, ``0.5``), ``true``/``false``, text in quotes (``"max-10"``), names;
* ``+ - * /`` on numbers (``/`` is exact division), comparisons ``< <= > >= == !=`` (one per
  comparison; ``==``/``!=`` also on text and booleans), ``and``, ``or``, ``not``;
* ``if CONDITION then A else B``;
* the functions of :data:`FUNCTIONS`: ``min``, ``max``, ``abs``, ``floor``, ``ceil`` on numbers,
  ``lowest`` and ``highest`` of dice (their smallest and largest total).

A name's value comes from the caller's environment (inputs, rule parameters, readings); its type
is one of :data:`TYPES`. At most :data:`MAX_TEXT` characters are read, so nesting stays shallow.

Example:
    >>> target = parse_expression("nerve + modifier - (if wounded then 1 else 0)", "target")
    >>> sorted(target.names)
    ['modifier', 'nerve', 'wounded']
    >>> target.check({"nerve": NUMBER, "modifier": NUMBER, "wounded": BOOLEAN}, "number")
    >>> target.evaluate({"nerve": 7, "modifier": -1, "wounded": True})
    5
    >>> parse_expression("ld / 2", "target").evaluate({"ld": 7})
    Fraction(7, 2)
    >>> parse_expression("nerve +", "target")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: target: 'nerve +' is not an expression (it ends too soon, after column 7)
    >>> parse_expression("nerv + 1", "target").check({"nerve": NUMBER}, "number")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: target: unknown name 'nerv' in 'nerv + 1'; did you mean nerve?
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, Literal

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulesbook.dice import DiceExpr
from rulesbook.errors import InputError, did_you_mean, quote

__all__ = [
    "BOOLEAN",
    "DICE",
    "FUNCTIONS",
    "GRAMMAR",
    "MAX_TEXT",
    "NUMBER",
    "TEXT",
    "TYPES",
    "Expression",
    "NameType",
    "Node",
    "Value",
    "parse_expression",
    "text_type",
]

MAX_TEXT = 400
"""The longest expression read (longer text is refused before parsing)."""

type Kind = Literal["number", "boolean", "text", "dice"]
TYPES: tuple[Kind, ...] = ("number", "boolean", "text", "dice")
"""The types of values: exact numbers, true/false, text (a reading's option), dice."""

type Value = int | Fraction | bool | str | DiceExpr
"""What an expression computes (a number is an ``int`` whenever it is whole)."""


@dataclass(frozen=True, slots=True)
class NameType:
    """The type of a name in scope; a text name may list the words it can be (a reading's
    options), so a comparison with another word is refused when it is checked."""

    kind: Kind
    options: tuple[str, ...] = ()


NUMBER = NameType("number")
BOOLEAN = NameType("boolean")
TEXT = NameType("text")
DICE = NameType("dice")


def text_type(options: tuple[str, ...]) -> NameType:
    """A text name whose value is one of ``options``.

    >>> text_type(("none", "max-10")).options
    ('none', 'max-10')
    """
    return NameType("text", options)


GRAMMAR = r"""
?start: expr
?expr: condition | or_expr
condition: "if" expr "then" expr "else" expr
?or_expr: and_expr | or_expr "or" and_expr -> or_
?and_expr: not_expr | and_expr "and" not_expr -> and_
?not_expr: "not" not_expr -> not_ | comparison
?comparison: sum | sum COMPARE sum -> compare
?sum: product | sum ADD product -> arithmetic
?product: unary | product MUL unary -> arithmetic
?unary: ADD unary -> sign | atom
?atom: NUMBER -> number
     | "true" -> true
     | "false" -> false
     | STRING -> text
     | NAME -> name
     | NAME "(" [expr ("," expr)*] ")" -> call
     | "(" expr ")"
COMPARE: "<=" | ">=" | "==" | "!=" | "<" | ">"
ADD: "+" | "-"
MUL: "*" | "/"
NAME: /[a-z_][a-z0-9_]*/
NUMBER: /[0-9]{1,12}(\.[0-9]{1,12})?/
STRING: /"[^"\\\n]{0,100}"/ | /'[^'\\\n]{0,100}'/
%ignore /[ \t\n]+/
"""
"""The grammar (lark's EBNF), read by an LALR parser: no backtracking, time linear in the text."""


# -- the tree ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Node:
    """One node of an expression's tree: ``op`` and its ``args`` (nodes, or the literal value of
    a leaf: ``number``, ``bool``, ``text``, ``name``)."""

    op: str
    args: tuple[Any, ...]


@v_args(inline=True)
class _Build(Transformer[Token, Node]):
    """lark's parse tree to :class:`Node` values."""

    def number(self, token: Token) -> Node:
        value = Fraction(str(token))
        return Node("number", (int(value) if value.denominator == 1 else value,))

    def true(self) -> Node:
        return Node("bool", (True,))

    def false(self) -> Node:
        return Node("bool", (False,))

    def text(self, token: Token) -> Node:
        return Node("text", (str(token)[1:-1],))

    def name(self, token: Token) -> Node:
        return Node("name", (str(token),))

    def call(self, token: Token, *args: Node | None) -> Node:
        return Node("call", (str(token), *(a for a in args if a is not None)))

    def sign(self, op: Token, operand: Node) -> Node:
        return operand if op == "+" else Node("neg", (operand,))

    def arithmetic(self, left: Node, op: Token, right: Node) -> Node:
        return Node(str(op), (left, right))

    def compare(self, left: Node, op: Token, right: Node) -> Node:
        return Node(str(op), (left, right))

    def not_(self, operand: Node) -> Node:
        return Node("not", (operand,))

    def and_(self, left: Node, right: Node) -> Node:
        return Node("and", (left, right))

    def or_(self, left: Node, right: Node) -> Node:
        return Node("or", (left, right))

    def condition(self, test: Node, then: Node, otherwise: Node) -> Node:
        return Node("if", (test, then, otherwise))


@cache
def _parser() -> Lark:
    return Lark(GRAMMAR, parser="lalr", maybe_placeholders=True)


# -- functions -----------------------------------------------------------------------------------


def _floor(x: int | Fraction) -> int:
    return math.floor(x)


def _ceil(x: int | Fraction) -> int:
    return math.ceil(x)


@dataclass(frozen=True, slots=True)
class _Function:
    takes: Kind
    gives: Kind
    least: int
    most: int
    run: Callable[..., Any]
    help: str


FUNCTIONS: Mapping[str, _Function] = {
    "min": _Function("number", "number", 1, 20, min, "the smallest of its numbers"),
    "max": _Function("number", "number", 1, 20, max, "the largest of its numbers"),
    "abs": _Function("number", "number", 1, 1, abs, "the number without its sign"),
    "floor": _Function("number", "number", 1, 1, _floor, "the number rounded down"),
    "ceil": _Function("number", "number", 1, 1, _ceil, "the number rounded up"),
    "lowest": _Function("dice", "number", 1, 1, lambda d: d.minimum, "the smallest total of the dice"),
    "highest": _Function("dice", "number", 1, 1, lambda d: d.maximum, "the largest total of the dice"),
}
"""The functions an expression may call: name -> what it takes, what it gives, how many arguments."""


# -- an expression ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed expression: its text, its tree and the names it reads (build one with
    :func:`parse_expression`)."""

    text: str
    tree: Node
    names: frozenset[str]
    field: str = ""

    def __str__(self) -> str:
        return self.text

    @property
    def constant(self) -> Value | None:
        """The value when the expression is a literal (``7``, ``true``), else ``None``.

        >>> parse_expression("7", "x").constant, parse_expression("ld", "x").constant
        (7, None)
        """
        return self.tree.args[0] if self.tree.op in ("number", "bool", "text") else None

    def check(self, scope: Mapping[str, NameType], want: Kind | None = None, field: str = "") -> None:
        """Check every name is in ``scope`` and every operation gets the types it needs (and
        the whole gives ``want``); one :class:`InputError` line naming ``field`` otherwise.

        >>> parse_expression("ld_bounds == 'max10'", "when").check({"ld_bounds": text_type(("none", "max-10"))})
        Traceback (most recent call last):
        ...
        rulesbook.errors.InputError: when: 'max10' is not a value of ld_bounds (none, max-10) in "ld_bounds == 'max10'"
        >>> parse_expression("ld + 1", "when").check({"ld": NUMBER}, "boolean")
        Traceback (most recent call last):
        ...
        rulesbook.errors.InputError: when: expected a condition (true or false), got a number: 'ld + 1'
        """
        kind = _Checker(scope, field or self.field, self.text).kind(self.tree)
        if want is not None and kind != want:
            raise InputError(
                field or self.field, f"expected {_WANTED[want]}, got {_A[kind]}: {quote(self.text)}"
            )

    def evaluate(self, env: Mapping[str, Value]) -> Value:
        """The value of the expression where each name has its value in ``env`` (exact; a whole
        number is an ``int``). A division by zero is one :class:`InputError` line.

        >>> parse_expression("if a > b then a else b", "x").evaluate({"a": 2, "b": 5})
        5
        >>> parse_expression("1 / (a - 2)", "x").evaluate({"a": 2})
        Traceback (most recent call last):
        ...
        rulesbook.errors.InputError: x: '1 / (a - 2)' divides by zero
        """
        try:
            value: Value = _evaluate(self.tree, env)
        except ZeroDivisionError:
            raise InputError(self.field, f"{quote(self.text)} divides by zero") from None
        return value


_WANTED = {
    "number": "a number",
    "boolean": "a condition (true or false)",
    "text": "a word in quotes",
    "dice": "dice (a dice expression such as 2D6, or the name of dice)",
}
_A = {"number": "a number", "boolean": "a condition", "text": "a word", "dice": "dice"}


def _names(node: Node) -> set[str]:
    if node.op == "name":
        return {node.args[0]}
    out: set[str] = set()
    for arg in node.args:
        if isinstance(arg, Node):
            out |= _names(arg)
    return out


def parse_expression(text: str | int | float | bool, field: str) -> Expression:
    """Parse an expression of the rules language; a malformed one is one :class:`InputError` line
    naming ``field`` and where the text goes wrong. A YAML number or ``true``/``false`` is read as
    its text.

    >>> parse_expression(True, "when").constant, parse_expression(-2, "value").evaluate({})
    (True, -2)
    >>> parse_expression("2 +* 3", "value")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: value: '2 +* 3' is not an expression ('*' at column 4 is not expected there)
    """
    if isinstance(text, bool):
        text = "true" if text else "false"
    elif isinstance(text, int | float):
        text = str(text) if isinstance(text, int) or not text.is_integer() else str(int(text))
    if not isinstance(text, str) or not text.strip():
        raise InputError(field, f"expected an expression such as nerve + modifier, got {quote(text)}")
    if len(text) > MAX_TEXT:
        raise InputError(field, f"an expression is at most {MAX_TEXT} characters, got {len(text):,}")
    parsed = _parse(text.strip())
    if isinstance(parsed, str):
        raise InputError(field, f"{quote(text.strip())} is not an expression ({parsed})")
    return Expression(text.strip(), parsed, frozenset(_names(parsed)), field)


@lru_cache(maxsize=2048)
def _parse(text: str) -> Node | str:
    """The tree of ``text``, or why it is not an expression."""
    if text.startswith("-") and text[1:].isdigit() and len(text) < 14:  # a negative number: at once
        return Node("number", (int(text),))
    try:
        tree = _parser().parse(text)
    except UnexpectedEOF:
        return f"it ends too soon, after column {len(text)}"
    except UnexpectedCharacters as exc:
        return f"{quote(text[exc.column - 1])} at column {exc.column} is not expected there"
    except UnexpectedToken as exc:
        if exc.token.type == "$END":
            return f"it ends too soon, after column {len(text)}"
        return f"{quote(str(exc.token))} at column {exc.column} is not expected there"
    except UnexpectedInput as exc:  # pragma: no cover - the three above are every kind lark raises
        return f"column {getattr(exc, 'column', '?')} is not expected there"
    node = _Build().transform(tree)
    assert isinstance(node, Node)
    return node


# -- checking ------------------------------------------------------------------------------------


class _Checker:
    """The type of every node, or one line saying where the types do not fit."""

    def __init__(self, scope: Mapping[str, NameType], field: str, text: str) -> None:
        self.scope, self.field, self.text = scope, field, text

    def fail(self, message: str) -> InputError:
        return InputError(self.field, message)

    def want(self, node: Node, kind: Kind, what: str) -> None:
        got = self.kind(node)
        if got != kind:
            raise self.fail(f"{what} needs {_WANTED[kind]}, got {_A[got]} in {quote(self.text)}")

    def kind(self, node: Node) -> Kind:
        op, args = node.op, node.args
        if op == "number":
            return "number"
        if op == "bool":
            return "boolean"
        if op == "text":
            return "text"
        if op == "name":
            found = self.scope.get(args[0])
            if found is None:
                hint = did_you_mean(args[0], self.scope)
                raise self.fail(f"unknown name {quote(args[0])} in {quote(self.text)}{hint}")
            return found.kind
        if op == "call":
            return self.call(args[0], args[1:])
        if op == "neg":
            self.want(args[0], "number", "'-'")
            return "number"
        if op in ("+", "-", "*", "/"):
            self.want(args[0], "number", quote(op))
            self.want(args[1], "number", quote(op))
            return "number"
        if op in ("<", "<=", ">", ">="):
            self.want(args[0], "number", quote(op))
            self.want(args[1], "number", quote(op))
            return "boolean"
        if op in ("==", "!="):
            return self.equality(args[0], args[1], op)
        if op == "not":
            self.want(args[0], "boolean", "'not'")
            return "boolean"
        if op in ("and", "or"):
            self.want(args[0], "boolean", quote(op))
            self.want(args[1], "boolean", quote(op))
            return "boolean"
        assert op == "if", op
        self.want(args[0], "boolean", "'if'")
        then, otherwise = self.kind(args[1]), self.kind(args[2])
        if then != otherwise:
            raise self.fail(f"'then' gives {_A[then]} but 'else' {_A[otherwise]} in {quote(self.text)}")
        return then

    def call(self, name: str, args: tuple[Node, ...]) -> Kind:
        function = FUNCTIONS.get(name)
        if function is None:
            hint = did_you_mean(name, FUNCTIONS) or f"; functions: {', '.join(FUNCTIONS)}"
            raise self.fail(f"unknown function {quote(name)} in {quote(self.text)}{hint}")
        if not function.least <= len(args) <= function.most:
            count = str(function.least) if function.least == function.most else f"{function.least} or more"
            raise self.fail(f"{name} takes {count} argument(s), got {len(args)} in {quote(self.text)}")
        for arg in args:
            self.want(arg, function.takes, name)
        return function.gives

    def equality(self, left: Node, right: Node, op: str) -> Kind:
        a, b = self.kind(left), self.kind(right)
        if a != b or a == "dice":
            raise self.fail(f"{quote(op)} compares two numbers, words or conditions, got {_A[a]} and {_A[b]}")
        if a == "text":
            for name, word in ((left, right), (right, left)):
                if name.op == "name" and word.op == "text":
                    options = self.scope[name.args[0]].options
                    if options and word.args[0] not in options:
                        raise self.fail(
                            f"{quote(word.args[0])} is not a value of {name.args[0]} "
                            f'({", ".join(options)}) in "{self.text}"'
                        )
        return "boolean"


# -- evaluating ----------------------------------------------------------------------------------


def _number(value: Fraction) -> int | Fraction:
    return int(value) if value.denominator == 1 else value


def _evaluate(node: Node, env: Mapping[str, Value]) -> Any:
    op, args = node.op, node.args
    if op in ("number", "bool", "text"):
        return args[0]
    if op == "name":
        return env[args[0]]
    if op == "if":
        return _evaluate(args[1] if _evaluate(args[0], env) else args[2], env)
    if op == "and":
        return bool(_evaluate(args[0], env)) and bool(_evaluate(args[1], env))
    if op == "or":
        return bool(_evaluate(args[0], env)) or bool(_evaluate(args[1], env))
    if op == "not":
        return not _evaluate(args[0], env)
    if op == "neg":
        return -_evaluate(args[0], env)
    if op == "call":
        values = [_evaluate(a, env) for a in args[1:]]
        result = FUNCTIONS[args[0]].run(*values)
        return _number(Fraction(result)) if isinstance(result, int | Fraction) else result
    left, right = _evaluate(args[0], env), _evaluate(args[1], env)
    match op:
        case "+":
            return left + right
        case "-":
            return left - right
        case "*":
            return left * right
        case "/":
            return _number(Fraction(left) / Fraction(right))
        case "<":
            return left < right
        case "<=":
            return left <= right
        case ">":
            return left > right
        case ">=":
            return left >= right
        case "==":
            return left == right
        case "!=":
            return left != right
    raise AssertionError(op)  # pragma: no cover - every operator of the grammar is above
