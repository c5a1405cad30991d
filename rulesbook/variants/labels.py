"""Words for a designer's tables and plots: what each key, output and variant is called.

Plots and tables for designers use the declared labels (an input's label, a rule parameter's
label, an output's label) and a variant's title — never the IDs — and say when a variant cannot
change a calculator at all (:func:`reaches`).

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.break-test")
    >>> key_label(calc, "ld"), key_label(calc, "parameter.break_ld_per_point")
    ('Leadership (Ld)', 'Ld lost per point of defeat')
    >>> output_label(calc, "p_pass"), variant_title(None)
    ('P(hold)', 'Published rules')
"""

from __future__ import annotations

from typing import Any

from rulesbook.calculators import Calculator, Output
from rulesbook.errors import InputError
from rulesbook.language.mechanics import declared_additions
from rulesbook.registry import registry
from rulesbook.variants.variant import Variant, baseline_choices

__all__ = [
    "BASELINE_TITLE",
    "key_label",
    "numeric_outputs",
    "output_label",
    "reaches",
    "reading_reaches",
    "variant_title",
]

BASELINE_TITLE = "Published rules"
"""How plots and tables name the unchanged rules."""

PARAMETER_PREFIX = "parameter."


def variant_title(variant: Variant | None) -> str:
    """A variant's title (``Published rules`` for none)."""
    return BASELINE_TITLE if variant is None else variant.title


def key_label(calc: Calculator, key: str) -> str:
    """The label of an input or of a rule parameter (``parameter.KEY`` or a reading key)."""
    if key.startswith(PARAMETER_PREFIX):
        choices: Any = calc.choices
        name = key.removeprefix(PARAMETER_PREFIX)
        if choices is not None:
            try:
                return str(type(choices.parameters).spec(name).label)
            except InputError:
                pass
        return name
    try:
        return calc.input(key).title
    except InputError:
        return key


def output_label(calc: Calculator, key: str) -> str:
    """The declared label of an output (its key if it has none)."""
    for out in calc.outputs:
        if out.key == key:
            return out.label
    return key


def numeric_outputs(calc: Calculator) -> list[Output]:
    """The outputs a designer can plot or seek: probabilities, counts and numbers."""
    return [o for o in calc.outputs if o.kind in ("probability", "count", "number")]


def default_output(calc: Calculator) -> str:
    """The output a designer's table follows unless told otherwise: the first probability, else
    the first number (empty when there is none).

    >>> from rulesbook.registry import registry
    >>> default_output(registry().calculator("wh40k.attack"))
    'p_unit_destroyed'
    """
    numeric = numeric_outputs(calc)
    first = next((o for o in numeric if o.kind == "probability"), numeric[0] if numeric else None)
    return "" if first is None else first.key


def unaffected(title: str, calc: Calculator) -> str:
    """The one warning that a variant (named by its ``title``) cannot change ``calc``: the command
    line's, a sweep's plot, a matrix and a solve all say it so.

    >>> from rulesbook.registry import registry
    >>> unaffected("Bleak", registry().calculator("wh40k.battle-shock"))
    'Bleak does not affect Battle-shock test (it changes none of its rules)'
    """
    return f"{title} does not affect {calc.title} (it changes none of its rules)"


def reach_warning(calc: Calculator, variant: Variant | None) -> str:
    """:func:`unaffected` when ``variant`` cannot change ``calc`` (:func:`reaches`), else ``""``."""
    return unaffected(variant.title, calc) if variant is not None and not reaches(calc, variant) else ""


def reaches(calc: Calculator, variant: Variant) -> bool:
    """Whether ``variant`` changes anything ``calc`` declares it uses: a parameter of one of its
    rules, a reading it switches or one whose register entry names one of its rules (unless the
    reading is declared inert), its function, one of its rules given other code, or an added entry
    (``add:``) of a section belonging to one of its rules.

    >>> from rulesbook.registry import registry
    >>> from rulesbook.variants.model import resolve_variant
    >>> reaches(registry().calculator("wh40k.battle-shock"), resolve_variant("deadly-demise-on-5"))
    False
    """
    if variant.system != calc.system:
        return False
    base = baseline_choices(variant.system, "variant")
    added = registry().additions_class(variant.system)
    rules = set(calc.rules)
    return (
        any(type(base.parameters).spec(k).rule in rules for k, _ in variant.parameters)
        or any(reading_reaches(calc, k) for k, _ in variant.readings)
        or any(c == calc.id for c, _ in variant.functions)
        or any(o.rule in rules for o in variant.rules)
        or any(added.rule(s) in rules for s, entries in variant.additions.sections if entries)
        or language_reaches(calc, variant)
    )


def language_reaches(calc: Calculator, variant: Variant) -> bool:
    """Whether the variant's ``add:`` adds entries to a test ``calc`` rolls (or one it extends),
    or declares the test itself (a calculator the variant adds)."""
    declared = declared_additions(variant.additions)
    if not declared.tests or not calc.tests:
        return False
    mechanics = registry().mechanics[calc.system]
    levels = {level for key in calc.tests for level in mechanics.lineage(key, declared)}
    return any(t.key in levels for t in declared.tests)


def reading_reaches(calc: Calculator, key: str) -> bool:
    """Whether reading ``key`` can change ``calc``: it is one of its inputs, or its register
    entry names one of its rules and it is not declared inert."""
    if key in calc.reading_keys:
        return True
    choices: Any = calc.choices
    if choices is None:
        return False
    spec = type(choices.readings).spec(key)
    entry = registry().interpretations.get(spec.interpretation)
    return not spec.inert and entry is not None and bool(set(entry.rules) & set(calc.rules))
