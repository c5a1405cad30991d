"""A variant as provenance: what a table or a plot says about the variant behind its numbers.

A variant writes itself back as the file that loads to it (:meth:`~rulesbook.variants.variant.Variant.to_mapping`,
:meth:`~rulesbook.variants.variant.Variant.to_yaml`); :func:`variant_provenance` adds, for a Python
variant, its code (:func:`python_sections`) and the names of the compute functions it replaces.

Example:
    >>> from rulesbook.variants import resolve_variant
    >>> variant_provenance(resolve_variant("battle-shock-3d6"))["parameters"]
    {'battle_shock_dice': '3D6'}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesbook.data import text_digest
from rulesbook.variants.variant import Variant

__all__ = ["python_sections", "variant_provenance"]


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
    """The variant document (:meth:`Variant.to_mapping`) and, for a Python variant, its code under
    ``python`` (:func:`python_sections`) and the names of any replaced compute functions under
    ``functions``: what a table's provenance says about the variant.
    :meth:`Variant.from_mapping` refuses a document with ``python`` (code is never run from a
    table); :func:`rulesbook.variants.python.variant_from_provenance` rebuilds it from the code.
    """
    out = variant.to_mapping()
    if variant.rules:
        out["python"] = python_sections(variant)
    if variant.functions:  # compute functions given in Python (Variant.define): named only
        out["functions"] = {
            k: f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}"
            for k, f in variant.functions
        }
    return out
