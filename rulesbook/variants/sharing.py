"""Sharing a variant: as the variant file that loads back to it, and as provenance.

A designer shares a rule change as a file: :func:`variant_yaml` writes any variant — a shipped
one, one loaded from a file, a composition ``A+B``, one built in Python from parameters and
readings — as the text of a variant file that :func:`rulesbook.variants.load_variant` reads back
to the same variant (``rulesbook variants show NAME|PATH`` prints it). :func:`variant_mapping` is
the same document as data; tables and plots carry it as their provenance.

Example:
    >>> from rulesbook.variants import Variant, resolve_variant
    >>> both = resolve_variant("battle-shock-3d6+deadly-demise-on-5")
    >>> doc = variant_mapping(both)
    >>> doc["parameters"]
    {'battle_shock_dice': '3D6', 'deadly_demise_roll': 5}
    >>> again = Variant.from_mapping(doc, name="both")  # a file both.yaml
    >>> (again.parameters, again.readings) == (both.parameters, both.readings)
    True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesbook.data import dump_yaml, text_digest
from rulesbook.errors import InputError
from rulesbook.registry import registry

if TYPE_CHECKING:  # pragma: no cover
    from rulesbook.variants.variant import Variant

__all__ = ["python_sections", "variant_mapping", "variant_provenance", "variant_yaml"]


def _value(spec: Any, value: Any) -> Any:
    """A parameter's value as a variant file writes it: integers and booleans as themselves,
    dice as their text (``3D6``)."""
    if isinstance(value, bool | int):
        return value
    return spec.format(value)


def variant_mapping(variant: Variant) -> dict[str, Any]:
    """The variant as a variant document (``system``, ``title``, ``description``,
    ``parameters``, ``readings``, ``add``), in the words a designer writes (``3D6``, ``true``).

    A Python variant's replaced functions and rules are code, not data: they are left out here
    (and :func:`variant_yaml` refuses them; a ``.py`` variant file is shared as it is).
    """
    base: Any = registry().choices[variant.system]
    out: dict[str, Any] = {"system": variant.system, "title": variant.title}
    if variant.description:
        out["description"] = variant.description
    if variant.parameters:
        out["parameters"] = {k: _value(type(base.parameters).spec(k), v) for k, v in variant.parameters}
    if variant.readings:
        out["readings"] = dict(variant.readings)
    if variant.additions:
        out["add"] = variant.additions.to_mapping()
    return out


def python_sections(variant: Variant) -> list[dict[str, Any]]:
    """The code of a Python variant as provenance: one entry per file its rules came from —
    ``file`` (its name), ``sha256`` of its text, ``rules`` (rule ID → function name) and
    ``source``, the text that ran (``""`` for code that came from no file: a function defined
    in a notebook cannot be carried, so :func:`rulesbook.sweeps.output.provenance` refuses it).
    """
    by_file: dict[str, dict[str, Any]] = {}
    for override in variant.rules:
        path, function = override.origin
        source = override.source
        entry = by_file.setdefault(
            path or override.where,
            {
                "file": Path(path).name if path else override.where,
                "sha256": text_digest(source) if source else "",
                "rules": {},
                "source": source,
            },
        )
        entry["rules"][override.rule] = function or getattr(override.function, "__qualname__", "?")
    return list(by_file.values())


def variant_provenance(variant: Variant) -> dict[str, Any]:
    """The variant document (:func:`variant_mapping`) and, for a Python variant, its code under
    ``python`` (:func:`python_sections`) and the names of any replaced compute functions under
    ``functions``: what a table's provenance says about the variant.
    :meth:`Variant.from_mapping` refuses a document with ``python`` (code is never run from a
    table); :func:`rulesbook.variants.python.variant_from_provenance` rebuilds it from the code.
    """
    out = variant_mapping(variant)
    if variant.rules:
        out["python"] = python_sections(variant)
    if variant.functions:  # compute functions given in Python (Variant.define): named only
        out["functions"] = {
            k: f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}"
            for k, f in variant.functions
        }
    return out


def variant_yaml(variant: Variant) -> str:
    """The text of a variant file that loads back to the same variant, after a comment naming
    it (and the file it came from); a variant that replaces functions is refused in one line.

    >>> from rulesbook.variants import resolve_variant
    >>> print(variant_yaml(resolve_variant("battle-shock-3d6")))  # doctest: +ELLIPSIS
    # battle-shock-3d6: Battle-shock tests on 3D6 (from rulesbook/systems/wh40k/variants/battle-shock-3d6.yaml)
    system: wh40k
    title: Battle-shock tests on 3D6
    description: ...
    parameters:
      battle_shock_dice: 3D6
    <BLANKLINE>
    """
    if variant.functions:
        names = ", ".join(k for k, _ in variant.functions)
        raise InputError(
            "variant",
            f"{variant.name} replaces the function of {names} in Python; only a variant of "
            "parameters and readings can be written as YAML",
        )
    if variant.rules:
        where = ", ".join(sorted({o.where for o in variant.rules}))
        raise InputError(
            "variant",
            f"{variant.name} gives rules other code ({where}); share its .py file, not YAML",
        )
    head = f"# {variant.name}: {variant.title}"
    if variant.path:
        head += f" (from {variant.path})"
    # a comment holds one line: no line break (YAML's NEL and U+2028 included) may end it early
    head = "".join(ch if ch.isprintable() else " " for ch in head)
    return f"{head}\n{dump_yaml(variant_mapping(variant))}"
