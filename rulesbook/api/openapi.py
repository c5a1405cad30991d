"""The OpenAPI 3.1 description of the JSON HTTP API, generated from the calculator declarations.

One path per calculator (``/api/v1/calc/ID``, ``GET`` with its inputs as query parameters,
``POST`` with them as a JSON object), each input's schema from its declaration (bounds, choices,
the special words of an optional input, what is allowed in words), each output a property of the
answer's ``result``; nothing is written by hand per calculator, so a new calculator is described
the moment it is registered. ``tests/test_http_api.py`` validates the document with
``openapi-spec-validator``.

Example:
    >>> doc = openapi()
    >>> doc["openapi"], "/api/v1/calc/scrollhammer.morale-check" in doc["paths"]
    ('3.1.0', True)
    >>> doc["paths"]["/api/v1/calc/scrollhammer.morale-check"]["get"]["parameters"][0]["schema"]
    {'type': 'integer', 'minimum': 0, 'maximum': 12}
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from rulesbook.api.json_api import API_PREFIX, LIMIT_SECONDS
from rulesbook.calculators import Calculator, Output
from rulesbook.inputs import (
    BoolInput,
    ChoiceInput,
    Input,
    IntInput,
    IntListInput,
    OptionalInput,
    TextInput,
    WordListInput,
)
from rulesbook.registry import registry

__all__ = ["input_schema", "openapi"]

_JSON = "application/json"


def input_schema(inp: Input, *, body: bool = False) -> dict[str, Any]:
    """The JSON Schema of an input's value: as a query parameter's text (``body=False``: a list
    is comma-separated, as on the command line) or in a JSON body (a list may also be an array).

    >>> input_schema(ChoiceInput(key="k", help="", choices=("a", "b")))
    {'type': 'string', 'enum': ['a', 'b']}
    >>> input_schema(IntListInput(key="k", help="", minimum=2, maximum=12), body=True)["anyOf"][0]["type"]
    'array'
    """
    if isinstance(inp, OptionalInput):
        words = list(inp.words)
        inner = input_schema(inp.inner, body=body)
        alternatives = [inner, {"type": "string", "enum": [*words, ""]}]
        if body:
            alternatives.append({"type": "null"})
        return {"anyOf": alternatives}
    if isinstance(inp, BoolInput):
        return {"type": "boolean"}
    if isinstance(inp, IntInput):
        return {"type": "integer", "minimum": inp.minimum, "maximum": inp.maximum}
    if isinstance(inp, ChoiceInput):
        return {"type": "string", "enum": list(inp.choices)}
    if isinstance(inp, IntListInput):
        text = {"type": "string", "description": inp.allowed()}
        if not body:
            return text
        items = {"type": "integer", "minimum": inp.minimum, "maximum": inp.maximum}
        array = {"type": "array", "items": items, "minItems": inp.min_length, "maxItems": inp.max_length}
        return {"anyOf": [array, text]}
    if isinstance(inp, WordListInput):
        text = {"type": "string", "description": inp.allowed()}
        return {"anyOf": [{"type": "array", "items": {"type": "string"}}, text]} if body else text
    if isinstance(inp, TextInput):
        return {"type": "string", "minLength": 1, "maxLength": inp.max_length}
    return {"type": "string"}  # dice expressions, shipped file paths: described in words


def _described(inp: Input) -> str:
    default = "required" if inp.required else f"default {inp.format(inp.default) or '(left out)'}"
    return f"{inp.help} Allowed: {inp.allowed()}; {default}."


def _parameters(calc: Calculator) -> list[dict[str, Any]]:
    params = [
        {
            "name": inp.key,
            "in": "query",
            "required": inp.required,
            "description": _described(inp),
            "schema": input_schema(inp),
        }
        for inp in calc.inputs
    ]
    params.append(_variant_parameter(calc))
    return params


def _variant_parameter(calc: Calculator) -> dict[str, Any]:
    return {
        "name": "variant",
        "in": "query",
        "required": False,
        "description": (
            "Run under a designer variant, by name (shipped, or yours in $RULESBOOK_VARIANTS_DIR); "
            "repeat it, or join names with + (written %2B in a query), to compose. Never a path."
        ),
        "schema": {"type": "string"},
    }


def _body(calc: Calculator) -> dict[str, Any]:
    properties: dict[str, Any] = {
        inp.key: {**input_schema(inp, body=True), "description": _described(inp)} for inp in calc.inputs
    }
    properties["variant"] = {
        "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
        "description": _variant_parameter(calc)["description"],
    }
    schema = {
        "type": "object",
        "properties": properties,
        "required": [i.key for i in calc.inputs if i.required],
        "additionalProperties": False,
    }
    example = dict(calc.examples[0]) if calc.examples else {}
    return {"required": False, "content": {_JSON: {"schema": schema, "example": example}}}


def _output_schema(out: Output) -> dict[str, Any]:
    kinds: dict[str, dict[str, Any]] = {
        "probability": {"type": "number", "minimum": 0, "maximum": 1},
        "number": {"type": "number"},
        "count": {"type": "integer"},
        "bool": {"type": "boolean"},
        "list": {"type": "array"},
        "text": {"type": "string"},
        "table": {"type": "array", "items": {"type": "object"}},
    }
    note = f" Present when {out.when}." if out.when else ""
    return {**kinds[out.kind], "description": f"{out.label}.{' ' + out.help if out.help else ''}{note}"}


def _answer_schema(calc: Calculator) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for out in calc.outputs:
        result[out.key] = _output_schema(out)
        if out.kind == "probability":
            result[f"{out.key}_exact"] = {
                "type": "string",
                "description": f"{out.label}, exact (a fraction).",
            }
    return {
        "type": "object",
        "required": ["calculator", "inputs", "result"],
        "properties": {
            "calculator": {"const": calc.id},
            "variant": {"type": "string", "description": "The variant's name, when one was given."},
            "inputs": {
                "type": "object",
                "description": "Every input, defaults filled.",
                "properties": {i.key: {"description": i.title} for i in calc.inputs},
            },
            "result": {"type": "object", "properties": result},
        },
    }


def _responses(calc: Calculator) -> dict[str, Any]:
    def error(description: str) -> dict[str, Any]:
        return {
            "description": description,
            "content": {_JSON: {"schema": {"$ref": "#/components/schemas/Error"}}},
        }

    return {
        "200": {
            "description": "The answer: the JSON of `rulesbook calc ID ... --json`.",
            "content": {_JSON: {"schema": _answer_schema(calc)}},
        },
        "400": error("Bad input: the field and what is allowed."),
        "404": error("No such calculator."),
        "413": error("The request body is too large."),
        "422": error(
            f"The input needs more work than the calculators allow (about {LIMIT_SECONDS} s); the estimate."
        ),
    }


def _calc_path(calc: Calculator) -> dict[str, Any]:
    common = {"summary": calc.title, "description": calc.summary, "tags": [calc.system]}
    return {
        "get": {
            **common,
            "operationId": f"{calc.id}.get",
            "parameters": _parameters(calc),
            "responses": _responses(calc),
        },
        "post": {
            **common,
            "operationId": f"{calc.id}.post",
            "parameters": [_variant_parameter(calc)],
            "requestBody": _body(calc),
            "responses": _responses(calc),
        },
    }


_ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["field", "message"],
            "properties": {
                "field": {"type": ["string", "null"], "description": "The input at fault."},
                "message": {"type": "string", "description": "What is allowed, in one line."},
                "estimate": {
                    "type": "object",
                    "description": "With status 422: the predicted work as a multiple of the limit.",
                    "properties": {
                        "times_limit": {"type": ["number", "null"]},
                        "limit_seconds": {"type": "number"},
                    },
                },
            },
        }
    },
}


def _package_version() -> str:
    try:
        return version("rulesbook")
    except PackageNotFoundError:  # pragma: no cover - a checkout without an install
        return "0"


def openapi(calc_ids: Iterable[str] | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every route, from the registry's declarations (only the
    calculators ``calc_ids`` when given: a smaller document of the same shape)."""
    reg = registry()
    calcs = list(reg.calculators.values()) if calc_ids is None else [reg.calculator(c) for c in calc_ids]
    declaration = {"$ref": "#/components/schemas/Declaration"}
    ok = {"description": "OK", "content": {_JSON: {"schema": declaration}}}
    paths: dict[str, Any] = {
        f"{API_PREFIX}/calculators": {
            "get": {
                "summary": "Every calculator's declaration",
                "operationId": "calculators",
                "responses": {
                    "200": {
                        "description": "OK",
                        "content": {
                            _JSON: {
                                "schema": {
                                    "type": "object",
                                    "properties": {"calculators": {"type": "array", "items": declaration}},
                                }
                            }
                        },
                    }
                },
            }
        },
        f"{API_PREFIX}/calculators/{{id}}": {
            "get": {
                "summary": "One calculator's declaration",
                "operationId": "calculator",
                "parameters": [
                    {
                        "name": "id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "enum": [c.id for c in calcs]},
                    }
                ],
                "responses": {
                    "200": ok,
                    "404": {
                        "description": "No such calculator.",
                        "content": {_JSON: {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                },
            }
        },
        f"{API_PREFIX}/openapi.json": {
            "get": {
                "summary": "This document",
                "operationId": "openapi",
                "responses": {
                    "200": {"description": "OK", "content": {_JSON: {"schema": {"type": "object"}}}}
                },
            }
        },
    }
    for calc in calcs:
        paths[f"{API_PREFIX}/calc/{calc.id}"] = _calc_path(calc)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "rulesbook",
            "version": _package_version(),
            "description": (
                "Exact, explained tabletop wargame rules: every calculator of `rulesbook calc`, "
                "answering the same JSON. Stateless: any server process answers any request."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": {
                "Error": _ERROR_SCHEMA,
                "Declaration": {
                    "type": "object",
                    "required": ["id", "title", "system", "inputs", "outputs"],
                    "properties": {
                        "id": {"type": "string"},
                        "title": {"type": "string"},
                        "system": {"type": "string"},
                        "summary": {"type": "string"},
                        "rules": {"type": "array", "items": {"type": "string"}},
                        "inputs": {"type": "array", "items": {"type": "object"}},
                        "outputs": {"type": "array", "items": {"type": "object"}},
                        "examples": {"type": "array", "items": {"type": "object"}},
                        "url": {"type": "string"},
                    },
                },
            }
        },
    }
