"""The OpenAPI 3.1 description of the JSON HTTP API, generated from the calculator declarations.

One path per calculator (``/api/v1/calc/ID``, ``GET`` with its inputs as query parameters,
``POST`` with them as a JSON object), each input's schema from its declaration (bounds, choices,
the special words of an optional input, what is allowed in words), each output a property of the
answer's ``result``; nothing is written by hand per calculator, so a new calculator is described
the moment it is registered. What a request may name is an enum of what the server offers: a
variant of the calculator's system, a file input's shipped files (:mod:`rulesbook.api.schemas`,
whose schemas the answers' status follows: 400 outside the document, 422 inside it when the
rules refuse the values together). The document is exactly
what the API does: every answer's key is declared (no other may appear), every request example
is valid, and ``tests/test_http_api.py`` validates it with ``openapi-spec-validator`` and lets
schemathesis (a property-based client) loose on the served routes.

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
from rulesbook.api.schemas import field_schema, variant_name_schema
from rulesbook.calculators import Calculator, Output
from rulesbook.inputs import Input, PathInput
from rulesbook.registry import registry

__all__ = ["openapi"]

_JSON = "application/json"


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
            "schema": field_schema(calc, inp),
        }
        for inp in calc.inputs
    ]
    return params + _variant_parameters(calc)


_VARIANT_TEXT = (
    "Run under a designer variant of this calculator's system, by its name (shipped, or one the "
    "server was started with); several names (repeated, or joined with +, written %2B in a query) "
    "compose. Never a path."
)


def _variant_parameters(calc: Calculator) -> list[dict[str, Any]]:
    name = variant_name_schema(calc)
    if name is None:
        return []
    return [
        {
            "name": "variant",
            "in": "query",
            "required": False,
            "description": _VARIANT_TEXT,
            "schema": {"type": "array", "items": name},
            "style": "form",
            "explode": True,
        }
    ]


def _body(calc: Calculator) -> dict[str, Any]:
    properties: dict[str, Any] = {
        inp.key: {**field_schema(calc, inp, body=True), "description": _described(inp)} for inp in calc.inputs
    }
    name = variant_name_schema(calc)
    if name is not None:
        properties["variant"] = {
            "anyOf": [name, {"type": "array", "items": name}],
            "description": _VARIANT_TEXT,
        }
    if calc.choices is not None:
        properties["variant_yaml"] = {
            "type": "string",
            "description": (
                "A variant of this calculator's system sent as the text of a variant file (YAML: system, "
                "title, parameters, readings, add), read by the safe loader (never Python code); it is "
                "named posted and composed after any variant named."
            ),
        }
    schema = {
        "type": "object",
        "properties": properties,
        "required": [i.key for i in calc.inputs if i.required],
        "additionalProperties": False,
    }
    content: dict[str, Any] = {"schema": schema}
    if calc.examples:  # the first worked example, its values as JSON (as the schema says)
        content["example"] = {
            key: _example_value(calc.input(key), text) for key, text in calc.examples[0].items()
        }
    return {"required": True, "content": {_JSON: content}}


def _example_value(inp: Input, text: str) -> Any:
    """A worked example's text as the JSON value a body sends (a file input: the file as named)."""
    return text if isinstance(inp, PathInput) else inp.jsonable(inp.parse(text))


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


_EXACT: dict[str, dict[str, Any]] = {
    "probability": {"type": "string"},
    "number": {"type": "string"},
    "list": {"type": "array", "items": {"type": "string"}},
}
"""The exact twin ``KEY_exact`` an output of these kinds has when its value is a fraction (a
fraction as text; a list of them), and not when the answer is approximate."""


def _answer_schema(calc: Calculator) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for out in calc.outputs:
        result[out.key] = _output_schema(out)
        if out.kind in _EXACT:
            result[f"{out.key}_exact"] = {
                **_EXACT[out.kind],
                "description": f"{out.label}, exact (a fraction).",
            }
    result["warnings"] = {
        "type": "array",
        "items": {"type": "string"},
        "description": "What the answer warns of (one line each), when anything.",
    }
    return {
        "type": "object",
        "required": ["calculator", "inputs", "result"],
        "additionalProperties": False,
        "properties": {
            "calculator": {"const": calc.id},
            "variant": {"type": "string", "description": "The variant's name, when one was given."},
            "inputs": {
                "type": "object",
                "description": "Every input, defaults filled.",
                "required": [i.key for i in calc.inputs],
                "additionalProperties": False,
                "properties": {i.key: {"description": i.title} for i in calc.inputs},
            },
            "result": {
                "type": "object",
                "required": [o.key for o in calc.outputs if not o.when],
                "additionalProperties": False,
                "properties": result,
            },
        },
    }


def _error_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {_JSON: {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


_REFUSED = _error_response(
    "A Host this server does not answer for, or a request from a page of another website."
)


def _responses(calc: Calculator) -> dict[str, Any]:
    error = _error_response
    return {
        "200": {
            "description": "The answer: the JSON of `rulesbook calc ID ... --json`.",
            "content": {_JSON: {"schema": _answer_schema(calc)}},
        },
        "400": error("Bad input: the field and what is allowed."),
        "403": _REFUSED,
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
            "parameters": _variant_parameters(calc),
            "requestBody": _body(calc),
            "responses": {
                **_responses(calc),
                "415": _error_response("The body is not sent as application/json."),
            },
        },
    }


_ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["field", "message"],
            "additionalProperties": False,
            "properties": {
                "field": {"type": ["string", "null"], "description": "The input at fault."},
                "message": {"type": "string", "description": "What is allowed, in one line."},
                "estimate": {
                    "type": "object",
                    "description": "With status 422: the predicted work as a multiple of the limit.",
                    "required": ["times_limit", "limit_seconds"],
                    "additionalProperties": False,
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


_DECLARATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["id", "title", "system", "summary", "rules", "inputs", "outputs", "examples", "url"],
    "additionalProperties": False,
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
}
"""The JSON schema of a calculator's declaration (``GET /calculators/{id}``)."""


def _declaration_paths(calcs: list[Any]) -> dict[str, Any]:
    """The routes that describe: every declaration, one calculator's, and this document."""
    declaration = {"$ref": "#/components/schemas/Declaration"}
    ok = {"description": "OK", "content": {_JSON: {"schema": declaration}}}
    return {
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
                                    "required": ["calculators"],
                                    "additionalProperties": False,
                                    "properties": {"calculators": {"type": "array", "items": declaration}},
                                }
                            }
                        },
                    },
                    "403": _REFUSED,
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
                "responses": {"200": ok, "403": _REFUSED, "404": _error_response("No such calculator.")},
            }
        },
        f"{API_PREFIX}/openapi.json": {
            "get": {
                "summary": "This document",
                "operationId": "openapi",
                "responses": {
                    "200": {"description": "OK", "content": {_JSON: {"schema": {"type": "object"}}}},
                    "403": _REFUSED,
                },
            }
        },
    }


def openapi(calc_ids: Iterable[str] | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every route, from the registry's declarations (only the
    calculators ``calc_ids`` when given: a smaller document of the same shape)."""
    reg = registry()
    calcs = list(reg.calculators.values()) if calc_ids is None else [reg.calculator(c) for c in calc_ids]
    paths = _declaration_paths(calcs)
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
                "Declaration": _DECLARATION_SCHEMA,
            }
        },
    }
