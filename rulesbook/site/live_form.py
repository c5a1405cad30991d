"""The live form of a published calculator page: every declared input, computed in the browser.

Each static calculator of the published site (:mod:`rulesbook.site.static`) carries, inert in a
``<template>``, the full form of its calculator, generated from the input declarations the same
way the served form is (:mod:`widgets.forms.panel_app`): the same labels, a check box for a boolean, a
drop-down for a choice or a rule choice (the interpretations register's readings, in a closed
"Rule choices (N)" section; a calculator's inputs other than its declared main ones in a closed
"More inputs (N)"), a number box for an integer, a text box showing what is allowed for
anything else (with the names of the data to pick from: a suggestion list for one name, an "add
from the list" drop-down for a list of them), a file picker for a file, each input's help behind
a "?", and "Compare with" for
the shipped variants of the calculator's system. Every control starts at the value the served
form starts at (the first worked example) and carries ``data-key`` (the input's key) and the class
``rb-input-<key>``.

``docs/javascripts/live-calculators.js`` swaps it in for the few precomputed inputs once the page's
Python runtime is ready (:mod:`rulesbook.site.runtime`, :mod:`widgets.forms.browser`) and sends every
value as text, exactly as the command line would receive it.

Example:
    >>> from rulesbook.registry import registry
    >>> html = live_form_html(registry().calculator("scrollhammer.morale-check"))
    >>> html.startswith('<template class="rb-live-template">'), 'data-key="ld" name="ld" value="7"' in html
    (True, True)
    >>> "Rule choices (4)" in html, '<option value="no-insane-heroism">' in html
    (True, True)
"""

from __future__ import annotations

import html
from typing import Any

from rulesbook.calculators import Calculator, form_text
from rulesbook.inputs import Input, picks

__all__ = ["NO_VARIANT", "field_html", "live_form_html", "variant_names"]

NO_VARIANT = "none"
"""The "Compare with" value for no comparison (the served form's too)."""


def variant_names(calc: Calculator) -> list[str]:
    """``none`` and the shipped variants that can change ``calc``'s system (the served form's list)."""
    from rulesbook.variants import variants_for_system

    if calc.choices is None:
        return [NO_VARIANT]
    return [NO_VARIANT, *(v.name for v in variants_for_system(calc.system))]


def _help(inp: Input) -> str:
    if not inp.help:
        return ""
    return (
        f'<details class="rb-help"><summary aria-label="Help: {html.escape(inp.title)}"><span>?</span></summary>'
        f"{html.escape(inp.help.replace('`', ''))}</details>"
    )


def _added(calc: Calculator, inp: Input, printed: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, variant) for each entry a listed variant adds (``add:``) that ``inp`` can name:
    offered (by live-calculators.js) while "Compare with" names that variant."""
    from rulesbook.variants import added_entries, variants_for_system

    if calc.choices is None:
        return []
    return [
        (key, variant.name)
        for variant in variants_for_system(calc.system)
        for key in added_entries(calc, variant).get(inp.key, ())
        if key not in printed
    ]


def field_html(calc: Calculator, inp: Input, value: Any) -> str:
    """One input's field of the live form (label, control starting at ``value``, help); the
    browser also writes the fields of the inputs a compared variant adds with it
    (:func:`widgets.forms.browser.added_fields`).

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> '<input type="checkbox" id="rb-live-scrollhammer-morale-check-falling_back"' in field_html(calc, calc.input("falling_back"), False)
    True
    """
    key = html.escape(inp.key)
    ident = f"rb-live-{calc.id}-{inp.key}".replace(".", "-")
    label = html.escape(inp.title)
    common = f'id="{ident}" data-key="{key}" name="{key}"'
    if inp.kind == "bool":
        control = f'<input type="checkbox" {common}{" checked" if value else ""}>'
        return (
            f'<div class="rb-live-field rb-live-bool rb-input-{key}"><label for="{ident}">{control} {label}</label>'
            f"{_help(inp)}</div>"
        )
    if inp.kind in ("choice", "interpretation"):
        options = "".join(
            f'<option value="{html.escape(c)}"{" selected" if c == value else ""}>{html.escape(c)}</option>'
            for c in getattr(inp, "choices", ())
        )
        control = f"<select {common}>{options}</select>"
    elif inp.kind == "int":
        control = f'<input type="number" step="1" inputmode="numeric" {common} value="{html.escape(form_text(inp, value))}">'
    elif inp.kind == "path":
        accept = ",".join(getattr(inp, "suffixes", ()))
        start = html.escape(str(value).rsplit("/", 1)[-1]) if value else ""
        control = f'<input type="file" accept="{html.escape(accept)}" {common}>' + (
            f'<small class="rb-live-file">until you choose one: the worked example\'s <code>{start}</code></small>'
            if start
            else ""
        )
    else:
        names = picks(inp)
        added = _added(calc, inp, names)
        listed = ""
        if (names or added) and inp.kind != "word-list":  # one name from the data: the browser suggests them
            listed = f' list="{ident}-names"'
        control = (
            f'<input type="text" {common} value="{html.escape(form_text(inp, value))}" '
            f'placeholder="{html.escape(inp.allowed())}" autocomplete="off" spellcheck="false"{listed}>'
        )
        options = "".join(f'<option value="{html.escape(n)}">{html.escape(n)}</option>' for n in names)
        options += "".join(
            f'<option value="{html.escape(n)}" data-variant="{html.escape(v)}" disabled hidden>'
            f"{html.escape(n)} (added by {html.escape(v)})</option>"
            for n, v in added
        )
        if listed:
            control += f'<datalist id="{ident}-names">{options}</datalist>'
        elif names or added:  # each pick adds one to the list in the box (live-calculators.js)
            control += (
                f'<select class="rb-pick" data-pick-for="{key}" aria-label="Add to {label}">'
                f'<option value="">add from the list…</option>{options}</select>'
            )
    return (
        f'<div class="rb-live-field rb-input-{key}"><div class="rb-live-label"><label for="{ident}">{label}</label>'
        f"{_help(inp)}</div>{control}</div>"
    )


def live_form_html(calc: Calculator, variant: str = "") -> str:
    """The live form of ``calc`` in an inert ``<template>`` (one line of HTML, no blank line).
    ``variant``: the form always computes under that variant (a calculator the variant adds,
    :func:`widgets.forms.browser.house_rule`), so it has no "Compare with"."""
    start = calc.initial_values()
    more = calc.folded_inputs()
    choices = [i for i in calc.inputs if i.kind == "interpretation"]
    fields = [
        field_html(calc, i, start[i.key])
        for i in calc.inputs
        if i.kind != "interpretation" and i.key not in more
    ]
    # the inputs a player changes most right under the answer, the others folded (as served)
    for title, shown, css in (
        ("More inputs", [i for i in calc.inputs if i.key in more], "rb-choices rb-more"),
        ("Rule choices", choices, "rb-choices"),
    ):
        if shown:
            fields.append(
                f'<details class="{css}"><summary>{title} ({len(shown)})</summary>'
                + "".join(field_html(calc, i, start[i.key]) for i in shown)
                + "</details>"
            )
    variants = variant_names(calc)
    if variant:
        fields.append(
            f'<input type="hidden" data-key="variant" name="variant" value="{html.escape(variant)}">'
        )
    elif len(variants) > 1:
        options = "".join(f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in variants)
        ident = f"rb-live-{calc.id}-variant".replace(".", "-")
        fields.append(
            f'<div class="rb-live-field rb-input-variant"><div class="rb-live-label"><label for="{ident}">Compare with</label></div>'
            f'<select id="{ident}" data-key="variant" name="variant">{options}</select></div>'
        )
    return (
        '<template class="rb-live-template">'
        f'<form class="rb-live-form" data-calc="{html.escape(calc.id)}" onsubmit="return false">'
        + "".join(fields)
        + "</form></template>"
    )
