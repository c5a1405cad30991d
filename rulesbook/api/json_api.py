"""The JSON HTTP API's answers, without a web framework: what ``/api/v1/...`` returns.

``rulesbook serve`` routes ``/api/v1/`` here (:mod:`widgets.server.http_api` does the HTTP: the Host
check, the body size limit, the worker pool). Every answer is a status and a JSON value; nothing
is kept between requests, so any server process — or any server behind a load balancer —
answers any request alike.

* ``GET /api/v1/calculators`` — every calculator's declaration (:func:`calculators_json`);
* ``GET /api/v1/calculators/ID`` — one declaration (:func:`calculator_json`);
* ``GET|POST /api/v1/calc/ID`` — an answer (:func:`calc_answer`): exactly the JSON of
  ``rulesbook calc ID key=value ... --json``, through the same validation and run
  (:func:`rulesbook.variants.run_inputs`, :meth:`~rulesbook.calculators.Calculator.answer_json`);
* ``GET /api/v1/openapi.json`` — the OpenAPI 3.1 description generated from the declarations
  (:func:`rulesbook.api.openapi.openapi`).

Bad input is status 400 with ``{"error": {"field": ..., "message": ...}}`` (the command line's
one line, split at its field); an input whose predicted work is beyond the calculators' bound
(:class:`~rulesbook.errors.CostError`) is 422 with the estimate; an unknown calculator is 404.
A variant is named (``variant=NAME``, shipped or yours in ``$RULESBOOK_VARIANTS_DIR``), never a
path: a request never makes the server read a file it names, and a file input (a game log, a
faction file) takes only a file shipped with rulesbook (``rulesbook/...``, as the worked
examples do), echoed as named: no answer holds a folder of the server's.

Example:
    >>> status, body = calc_answer("scrollhammer.morale-check", {"ld": "7"})
    >>> status, body["result"]["p_pass_exact"]
    (200, '7/12')
    >>> calc_answer("scrollhammer.morale-check", {"ld": "13"})
    (400, {'error': {'field': 'ld', 'message': 'expected an integer from 0 to 12, got 13'}})
    >>> status, body = calc_answer("wh40k.deadly-demise", {"x": "20D20!kh10"})
    >>> status, body["error"]["field"], body["error"]["estimate"]
    (422, 'x', {'times_limit': 61.7, 'limit_seconds': 1})
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from rulesbook.api.schemas import breaks_document, request_files
from rulesbook.calculators import Calculator
from rulesbook.errors import CostError, InputError, RulesbookError, quote
from rulesbook.inputs import Input, OptionalInput
from rulesbook.registry import Registry, registry
from rulesbook.variants import (
    compose,
    find_calculator,
    load_variant_text,
    named_variant,
    run_inputs,
    variant_calculator,
)

__all__ = [
    "API_PREFIX",
    "LIMIT_SECONDS",
    "Reply",
    "calc_answer",
    "calculator_json",
    "calculators_json",
    "error_body",
]

API_PREFIX = "/api/v1"
"""Where the API lives on the server."""

LIMIT_SECONDS = 1
"""The work the calculators allow one answer, in seconds on a typical machine (the cost bound
of :data:`rulesbook.dice.DICE_WORK_LIMIT` and the 40k engines' budget)."""

Reply = tuple[int, dict[str, Any]]
"""An HTTP status and the JSON body."""

_SHIPPED = Path(__file__).resolve().parent.parent
"""The ``rulesbook`` package folder: the only files a request may name."""


def error_body(field: str | None, message: str, **extra: Any) -> dict[str, Any]:
    """The one shape of every error: ``{"error": {"field": ..., "message": ...}}``.

    >>> error_body("ld", "expected an integer from 0 to 12, got 13")
    {'error': {'field': 'ld', 'message': 'expected an integer from 0 to 12, got 13'}}
    """
    return {"error": {"field": field, "message": message, **extra}}


def _error(exc: InputError, status: int) -> Reply:
    if isinstance(exc, CostError):
        times = None if exc.times is None else round(exc.times, 1)
        estimate = {"times_limit": times, "limit_seconds": LIMIT_SECONDS}
        return 422, error_body(exc.field, exc.message, estimate=estimate)
    return status, error_body(exc.field, exc.message)


def _registry_for(calc_id: str) -> Registry:
    """Only the calculator's own system is loaded first, as the command line does."""
    reg = registry(calc_id.partition(".")[0] or None)
    return reg if calc_id in reg.calculators else registry()


def _calculator(calc_id: str) -> Calculator:
    return _registry_for(calc_id).calculator(calc_id)


def declaration(calc: Calculator) -> dict[str, Any]:
    """A calculator's declaration (:meth:`~rulesbook.calculators.Calculator.declaration`), its
    worked examples and where it answers."""
    return {
        **calc.declaration(),
        "examples": [dict(e) for e in calc.examples],
        "url": f"{API_PREFIX}/calc/{calc.id}",
    }


def calculators_json() -> Reply:
    """``GET /api/v1/calculators``: every calculator's declaration.

    >>> status, body = calculators_json()
    >>> status, body["calculators"][0]["url"].startswith("/api/v1/calc/")
    (200, True)
    """
    return 200, {"calculators": [declaration(c) for c in registry().calculators.values()]}


def calculator_json(calc_id: str) -> Reply:
    """``GET /api/v1/calculators/ID``: one declaration, or 404 naming the nearest IDs.

    >>> calculator_json("scrollhammer.morale-chek")[0]
    404
    """
    try:
        calc = _calculator(calc_id)
    except InputError as exc:
        return 404, error_body("calculator", exc.message)
    return 200, declaration(calc)


def _file_input(inp: Input) -> bool:
    inner = inp.inner if isinstance(inp, OptionalInput) else inp
    return inner.kind == "path"


def _shipped_file(calc: Calculator, key: str, value: Any) -> str:
    """A file input's value: one of :func:`request_files`, named as listed."""
    files = request_files(calc, calc.input(key))
    if value not in files:
        raise InputError(
            key,
            f"the HTTP API reads no file of the server's; expected one of {', '.join(files)}, got {quote(value)}",
        )
    return str(_SHIPPED.parent / value)


def calc_answer(
    calc_id: str,
    inputs: Mapping[str, Any],
    variant: Sequence[str] = (),
    body: Collection[str] = (),
    variant_yaml: str | None = None,
) -> Reply:
    """``GET|POST /api/v1/calc/ID``: the answer of ``rulesbook calc ID ... --json``, or the error.

    ``inputs`` are the texts a query string gives (``{"ld": "7"}``) or the values of a JSON body
    (``{"ld": 7, "unit_lds": [7, 7, 6]}``: the keys in ``body``); ``variant`` names shipped or
    user variants; ``variant_yaml`` is a variant sent as the text of a variant file (read by the
    safe loader, named ``posted``; composed after the named ones). A refusal is 400 when the
    request is outside the OpenAPI document, 422 when the document allows it and the rules do not
    (:func:`rulesbook.api.schemas.breaks_document`).

    >>> text = "system: scrollhammer\\ntitle: Harsh\\nparameters: {break_ld_per_point: 2}\\n"
    >>> status, answer = calc_answer("scrollhammer.break-test", {"ld": "8", "lost_by": "2"}, variant_yaml=text)
    >>> status, answer["variant"], answer["result"]["p_pass_exact"]
    (200, 'posted', '1/6')
    """
    try:
        calc = _calculator(calc_id)
    except InputError as exc:
        try:  # a calculator the variant named adds (its add: calculators)
            calc = find_calculator(calc_id, named_variant(variant)) if variant else _calculator(calc_id)
        except InputError:
            return 404, error_body("calculator", exc.message)
    try:
        given, named = dict(inputs), {}
        for key, value in given.items():
            if _file_input(calc.input(key)):
                given[key], named[key] = _shipped_file(calc, key, value), value  # (echoed as named)
        chosen = named_variant(variant)
        if variant_yaml is not None:
            posted = load_variant_text(variant_yaml, name="posted", where="variant_yaml")
            chosen = posted if chosen is None else compose([chosen, posted])
        checked, result = run_inputs(calc, given, chosen)
    except InputError as exc:
        return _error(exc, 400 if breaks_document(calc, inputs, variant, body) else 422)
    except RulesbookError as exc:  # a listed file input that is no file of its kind: the CLI's line
        return 400 if breaks_document(calc, inputs, variant, body) else 422, error_body(None, str(exc))
    if chosen is not None:
        calc = variant_calculator(calc, chosen)  # (its inputs with the ones the variant adds)
    answer = calc.answer_json(checked, result, chosen.name if chosen is not None else None)
    answer["inputs"].update(named)  # a shipped file as the request named it (rulesbook/...)
    return 200, answer
