"""What an API request may send, as JSON Schema: the one description that the OpenAPI document
publishes (:mod:`rulesbook.api.openapi`) and the answers' status follows (:mod:`rulesbook.api.json_api`).

Each input's value has a schema from its declaration (:func:`input_schema`): bounds, choices, the
special words of an optional input; in a JSON body also any text (read as on the command line).
What a request may *name* is an enum of what the server offers, never a path: a variant of the
calculator's system (:func:`request_variants`: shipped, and the operator's folders) and, for a
file input, the shipped files the calculator starts with or its worked examples use
(:func:`request_files`).

:func:`breaks_document` says whether a request is outside the document — an input it does not
declare, a required one missing, a value its schema refuses — which the API answers with 400;
a request inside it that the rules still refuse (two inputs that do not go together, a text that
is no dice expression, a variant under which a game log does not replay) is 422.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.break-test")
    >>> breaks_document(calc, {"ld": "13"}), breaks_document(calc, {"ld": "8", "models_left": "3"})
    (True, False)
    >>> breaks_document(calc, {"ld": "8"}, ["break-2-ld-per-point"]), breaks_document(calc, {"ld": "8"}, ["x.py"])
    (False, True)
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from functools import cache
from typing import Any

import jsonschema

from rulesbook.calculators import Calculator
from rulesbook.inputs import (
    BoolInput,
    ChoiceInput,
    Input,
    IntInput,
    IntListInput,
    OptionalInput,
    PathInput,
    TextInput,
    WordListInput,
)
from rulesbook.registry import registry
from rulesbook.variants import variants_for_system

__all__ = [
    "breaks_document",
    "field_schema",
    "input_schema",
    "request_files",
    "request_variants",
    "variant_name_schema",
]

_TEXT = {"type": "string"}


def request_files(calc: Calculator, inp: Input) -> tuple[str, ...]:
    """The files a request may name for file input ``inp``: the shipped ones the calculator
    starts with and its worked examples use (``rulesbook/...``), nothing else.

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.datasheet-attack")
    >>> request_files(calc, calc.input("faction"))
    ('rulesbook/systems/wh40k/death-guard.yaml', 'rulesbook/systems/wh40k/examples/mire-host.yaml')
    """
    named = [inp.default, *(example.get(inp.key) for example in calc.examples)]
    return tuple(dict.fromkeys(n for n in named if isinstance(n, str) and n.startswith("rulesbook/")))


def request_variants(calc: Calculator) -> tuple[str, ...]:
    """The variants a request may name for ``calc``: those of its system the server knows
    (shipped, and the operator's folders).

    >>> from rulesbook.registry import registry
    >>> request_variants(registry().calculator("wh40k.battle-shock"))[:2]
    ('battle-shock-3d6', 'battle-shock-above-ld')
    """
    return tuple(v.name for v in variants_for_system(calc.system)) if calc.choices is not None else ()


def input_schema(inp: Input, *, body: bool = False, files: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON Schema of an input's value: as a query parameter's text (``body=False``: a list
    is comma-separated, as on the command line) or in a JSON body (a list may also be an array,
    and any value may be given as its text); a file input takes one of ``files``.

    >>> input_schema(ChoiceInput(key="k", help="", choices=("a", "b")))
    {'type': 'string', 'enum': ['a', 'b']}
    >>> input_schema(IntListInput(key="k", help="", minimum=2, maximum=12), body=True)["anyOf"][0]["type"]
    'array'
    """
    if isinstance(inp, OptionalInput):
        words = list(inp.words)
        inner = input_schema(inp.inner, body=body, files=files)
        alternatives = [inner, {"type": "string", "enum": [*words, ""]}]
        if body:
            alternatives.append({"type": "null"})
        return {"anyOf": alternatives}
    text: dict[str, Any] = {"type": "string", "description": inp.allowed()}
    if isinstance(inp, BoolInput):
        return {"anyOf": [{"type": "boolean"}, _TEXT]} if body else {"type": "boolean"}
    if isinstance(inp, IntInput):
        number = {"type": "integer", "minimum": inp.minimum, "maximum": inp.maximum}
        return {"anyOf": [number, _TEXT]} if body else number
    if isinstance(inp, ChoiceInput):
        return {"type": "string", "enum": list(inp.choices)}
    if isinstance(inp, IntListInput):
        items = {"type": "integer", "minimum": inp.minimum, "maximum": inp.maximum}
        array = {"type": "array", "items": items, "minItems": inp.min_length, "maxItems": inp.max_length}
        return {"anyOf": [array, text]} if body else text
    if isinstance(inp, WordListInput):
        return {"anyOf": [{"type": "array", "items": {"type": "string"}}, text]} if body else text
    if isinstance(inp, PathInput):
        return {"type": "string", "enum": list(files)}
    if isinstance(inp, TextInput):
        text = {"type": "string", "minLength": 1, "maxLength": inp.max_length, "description": inp.allowed()}
    # dice expressions, weapon profiles, names: the grammar is said in words; a body's number is
    # read as its text (3 as the dice expression 3)
    return {"anyOf": [text, {"type": "number"}]} if body else text


def variant_name_schema(calc: Calculator) -> dict[str, Any] | None:
    """A variant's name, or several joined with ``+`` (None: no variant reaches ``calc``)."""
    names = request_variants(calc)
    if not names:
        return None
    one = "|".join(re.escape(n) for n in names)
    return {"type": "string", "anyOf": [{"enum": list(names)}, {"pattern": f"^(?:{one})(?:\\+(?:{one}))*$"}]}


def field_schema(calc: Calculator, inp: Input, *, body: bool = False) -> dict[str, Any]:
    """The schema of input ``inp`` of ``calc`` (its file input's listed files)."""
    inner = inp.inner if isinstance(inp, OptionalInput) else inp
    files = request_files(calc, inner) if isinstance(inner, PathInput) else ()
    return input_schema(inp, body=body, files=files)


_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
_BOOLEAN = {"true": True, "false": False}


def _as_query_value(text: str) -> list[Any]:
    """What a query text may stand for: itself, and the integer or boolean it spells."""
    values: list[Any] = [text]
    if _INTEGER.fullmatch(text):
        values.append(int(text))
    if text in _BOOLEAN:
        values.append(_BOOLEAN[text])
    return values


@cache
def _validators(calc_id: str) -> dict[tuple[str, bool], Any]:
    """Each input's schema checker, as a query text (False) and as a JSON body value (True)."""
    calc = registry(calc_id.partition(".")[0]).calculator(calc_id)
    return {
        (i.key, body): jsonschema.Draft202012Validator(field_schema(calc, i, body=body))
        for i in calc.inputs
        for body in (False, True)
    }


def breaks_document(
    calc: Calculator, given: Mapping[str, Any], variants: Sequence[Any] = (), body: Collection[str] = ()
) -> bool:
    """True when a request is outside the published document: an input ``calc`` does not
    declare, a required one missing, a value its schema refuses, a variant that is not one of
    its names. ``given``: the inputs (a query's texts, or the JSON values of the keys in
    ``body``); ``variants``: the names given."""
    checks = _validators(calc.id)
    if any((key, False) not in checks for key in given):
        return True
    if any(i.required and i.key not in given for i in calc.inputs):
        return True
    for key, value in given.items():
        if key in body or not isinstance(value, str):
            if not checks[(key, True)].is_valid(value):
                return True
        elif not any(checks[(key, False)].is_valid(v) for v in _as_query_value(value)):
            return True
    if not variants:
        return False
    naming = variant_name_schema(calc)  # (the operator's folders may change while the server runs)
    return naming is None or not all(jsonschema.Draft202012Validator(naming).is_valid(n) for n in variants)
