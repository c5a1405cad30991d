"""The JSON Schema of the rules language (``schema.json``, shipped in the package) and the one-line
message of the first problem it finds.

The schema says what a document may hold — the four sections, every field, its type, the words
it may be, the patterns of names and keys — and is what an editor that reads JSON Schema (a YAML
plug-in) checks and completes as a designer types. :func:`schema_problem` validates a document
with the `jsonschema <https://python-jsonschema.readthedocs.io>`_ library and turns the most
specific error into one :class:`~rulesbook.language.declarations.LanguageError`: the path of the
field and what is allowed. Names, types of expressions and references between declarations are
beyond a schema; :mod:`rulesbook.language.mechanics` checks them next.

jsonschema is imported only when a document is validated (its import takes a while); where it
cannot be installed (Python in a browser, whose data was validated when the site was built) the
schema is not consulted and the declarations' own checks stand alone.

Example:
    >>> print(schema_problem({"tests": {"nerve": {"dicee": "2D6"}}}))  # doctest: +ELLIPSIS
    tests.nerve.dicee: unknown key 'dicee'; did you mean dice? allowed: title, summary, rule, extends, ...
    >>> print(schema_problem({"inputs": {"has_standard": {"kind": "yes/no"}}}))
    inputs.has_standard.kind: expected one of boolean, integer, choice, dice, got 'yes/no'
    >>> schema_problem({"inputs": {"wounded": {"kind": "boolean"}}}) is None
    True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path as FilePath
from typing import Any

from rulesbook.errors import did_you_mean, quote, shorten
from rulesbook.language.declarations import LanguageError, Path

__all__ = ["SCHEMA_FILE", "schema", "schema_problem"]

SCHEMA_FILE = FilePath(__file__).with_name("schema.json")
"""The schema, as shipped (JSON Schema draft 2020-12)."""


@cache
def schema() -> dict[str, Any]:
    """The schema as data."""
    loaded: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return loaded


@cache
def _validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


_WORDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "object": "a mapping of key: value",
    "array": "a list",
    "null": "nothing",
}
_ORDER = ("additionalProperties", "required", "type", "enum", "const", "pattern", "not")


def schema_problem(document: Any, prefix: Path = ()) -> LanguageError | None:
    """The first problem the schema finds in ``document`` (a ``mechanics.yaml``, or the language
    sections of a variant's ``add:``; ``prefix`` leads to it in its file), or ``None``."""
    try:
        validator = _validator()
    except ImportError:  # pragma: no cover - Python in a browser
        return None
    errors = list(validator.iter_errors(document))
    if not errors:
        return None
    error = max(
        errors,
        key=lambda e: (
            len(e.absolute_path),
            -(_ORDER.index(e.validator) if e.validator in _ORDER else len(_ORDER)),
        ),
    )
    path, message = _message(error)
    return LanguageError((*prefix, *path), message)


def _message(error: Any) -> tuple[Path, str]:
    """The path and the words of one jsonschema error."""
    path: Path = tuple(error.absolute_path)
    instance, rule, kind = error.instance, error.schema, error.validator
    custom = rule.get("x-message") if isinstance(rule, Mapping) else None
    if kind == "additionalProperties" and isinstance(instance, Mapping):
        allowed = list(rule.get("properties", {}))
        unknown = next((k for k in instance if k not in allowed), None)
        if unknown is not None:
            hint = did_you_mean(str(unknown), allowed) or ";"
            return (*path, unknown), f"unknown key {quote(unknown)}{hint} allowed: {', '.join(allowed)}"
    if kind == "required" and isinstance(instance, Mapping):
        missing = [k for k in rule.get("required", ()) if k not in instance]
        if missing:
            return path, f"missing field {quote(missing[0])}"
    if kind in ("pattern", "not") and custom and "propertyNames" in error.relative_schema_path:
        return (*path, instance), f"{quote(instance)} {custom}"
    if kind in ("pattern", "not") and custom:
        return path, f"{quote(instance)} {custom}"
    if kind == "oneOf" and custom:
        return path, custom
    if kind == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        words = " or ".join(dict.fromkeys(str(_WORDS.get(w, w)) for w in wanted))
        return path, f"expected {words}, got {quote(instance)}"
    if kind == "enum":
        return path, f"expected one of {', '.join(map(str, error.validator_value))}, got {quote(instance)}"
    if kind == "const":
        return path, f"expected {json.dumps(error.validator_value)}, got {quote(instance)}"
    if kind in ("minItems", "maxItems", "minProperties", "maxProperties"):
        what = "items" if "Items" in kind else "entries"
        bound = "at least" if kind.startswith("min") else "at most"
        return path, f"{bound} {error.validator_value} {what}, got {len(instance)}"
    if kind in ("minLength", "maxLength"):
        bound = "at least" if kind == "minLength" else "at most"
        return path, f"{bound} {error.validator_value} characters, got {len(instance):,}"
    if kind in ("minimum", "maximum"):
        bound = "at least" if kind == "minimum" else "at most"
        return path, f"{bound} {error.validator_value}, got {quote(instance)}"
    if kind == "uniqueItems":
        return path, "each item at most once"
    return path, shorten(" ".join(str(error.message).split()), 160)
