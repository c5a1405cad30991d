"""The "compare with" view shared by the ipywidgets and Panel calculators: baseline beside a variant.

:func:`variant_options` lists what a form's "Compare with" drop-down offers (``none``, the
shipped variants of the calculator's system and the user's own in ``$RULESBOOK_VARIANTS_DIR``;
in a notebook, also a variant file the form was opened with); :func:`answer` computes a form's :class:`Answer`
as values (in a worker process of the server, or here), and :func:`answer_html` is what the
result pane shows for it (:func:`form_result_html` does both): the plain result, or both results side by side, a table of the
differences (exact where both values are) and, where the result is a distribution, a plot of
both. Every answer starts with its summary line (hidden in the result itself; a page pins it at
the top of the screen while the result is out of view, :func:`rulesbook.present.comparison.summary_html`).
Hooks for scripts and browser tests: each side is ``<div data-variant="NAME">`` holding
the usual ``data-key`` values; differences are ``data-key="difference-KEY"`` (text ``32.4 points more``, exact in
``data-exact``).

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.battle-shock")
    >>> html = form_result_html(calc, {"leadership": 7, "modifier": 0}, "battle-shock-3d6")
    >>> 'data-variant="battle-shock-3d6"' in html and 'data-exact="35/108">32.4 points more<' in html
    True
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rulesbook.calculators import Calculator
from rulesbook.errors import InputError, quote
from rulesbook.inputs import Input, picks
from rulesbook.present import error_html, result_html
from rulesbook.present.comparison import comparison_html, summary_html
from rulesbook.registry import registry
from rulesbook.results import CalcResult
from rulesbook.variants import (
    BASELINE,
    Comparison,
    Variant,
    added_entries,
    adding_variant,
    choice_keys,
    compare,
    find_calculator,
    load_variant_text,
    named_variant,
    resolve_variant,
    run_with_variant,
    variant_calculator,
    variants_for_system,
)
from widgets.forms.uploads import checked_file_input, upload_stem, uploaded_text

__all__ = [
    "FAST_DELAY_MS",
    "NO_VARIANT",
    "SLOW_ANSWER_S",
    "SLOW_DELAY_MS",
    "UPLOADED",
    "Answer",
    "added_calculators",
    "added_inputs",
    "address_refusal",
    "answer",
    "answer_html",
    "compared",
    "form_calculator",
    "form_inputs",
    "form_result_html",
    "offered_names",
    "own_variant",
    "uploaded_variant",
    "variant_file_input",
    "variant_options",
]

NO_VARIANT = "none"
"""The drop-down's value for "no comparison"."""

FAST_DELAY_MS = 0
"""Pause after the last keystroke before a typed value counts, for calculators that answer
within a few milliseconds (every keystroke answers at once); every form uses it (the served
page's :mod:`widgets.forms.live`, the notebook's :mod:`widgets.forms.ipy`)."""

SLOW_DELAY_MS = 300
"""The pause for calculators whose answers may take a while (a number being typed should not
start a second-long computation for each of its digits)."""

SLOW_ANSWER_S = 0.05
"""An answer slower than this makes typed values of that calculator wait :data:`SLOW_DELAY_MS`
for a pause in typing; faster ones answer every keystroke."""


def variant_options(calc: Calculator, compare_with: str = NO_VARIANT) -> list[str]:
    """``none``, the shipped variants of this calculator's system, the user's own of that system
    (``$RULESBOOK_VARIANTS_DIR``, see :func:`rulesbook.variants.user_variants`) and, when it is
    none of those, ``compare_with``: a variant file or a composition ``A+B`` a notebook opened the
    form with (:func:`own_variant`). The served pages never pass one: their address can only pick
    a listed name (:func:`compared`), never a path on the server.
    """
    if calc.choices is None:
        return [NO_VARIANT]
    names = [NO_VARIANT, *(v.name for v in variants_for_system(calc.system))]  # yours included
    if own_variant(calc, compare_with) is not None:
        names.append(compare_with)
    return names


def own_variant(calc: Calculator, compare_with: str) -> Variant | None:
    """The variant a form was opened with in Python (a notebook: the path of a file, ``A+B``),
    loaded and checked now (one line naming the problem); None for ``none`` or a listed name.
    Only the caller's own code reaches this (never a page's address or a websocket message)."""
    if calc.choices is None or compare_with in ("", NO_VARIANT):
        return None
    if compare_with in {v.name for v in variants_for_system(calc.system)}:
        return None
    found = resolve_variant(compare_with)
    variant_calculator(calc, found)  # a variant of this system
    return found


UPLOADED = " (your file)"
"""How "Compare with" lists a variant file the player uploaded (after its name)."""


def uploaded_variant(calc: Calculator, data: bytes, filename: str) -> Variant:
    """A variant file a player uploaded to a served form: its YAML text read by the one safe
    loader and checked as a variant file is (never Python: a page runs no code it is sent), of
    ``calc``'s system; any problem is one line naming their file.

    >>> calc = registry().calculator("wh40k.battle-shock")
    >>> uploaded_variant(calc, b"system: wh40k\\ntitle: Bleak\\nparameters: {battle_shock_dice: 3D6}\\n", "My Bleak.yaml").name
    'my-bleak'
    >>> uploaded_variant(calc, b"system: wh40k\\ntitle: Mine\\n", "battle-shock-3d6.yaml").name
    'battle-shock-3d6-yours'
    >>> uploaded_variant(calc, b"system: scrollhammer\\ntitle: x\\n", "x.yaml")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: variant: x changes scrollhammer rules; wh40k.battle-shock is a wh40k calculator
    """
    stem = upload_stem(filename, "your-variant")
    name = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "yours"
    if name in {v.name for v in variants_for_system(calc.system)}:  # (never mistaken for a listed one)
        name += "-yours"
    found = load_variant_text(uploaded_text(bytes(data), "variant"), name=name, where=f"{stem}.yaml")
    variant_calculator(calc, found)
    return found


def variant_file_input() -> Any:
    """The served form's upload control for a variant file of the player's own."""
    return checked_file_input(".yaml,.yml", "Or compare with your variant file (.yaml)", ["rb-variant-file"])


def address_refusal(text: str) -> str:
    """The one line refusing a variant a page's address names that its form does not list.

    >>> address_refusal("battle-shock-3d6")
    "variant: 'battle-shock-3d6' does not change these rules; pick one in Compare with"
    """
    try:
        compared(text)
    except InputError as exc:
        return f"{exc}; pick one in Compare with"
    return f"variant: {quote(text)} does not change these rules; pick one in Compare with"


def offered_names(calc: Calculator, inp: Input, variant: str | Variant = NO_VARIANT) -> tuple[str, ...]:
    """What a form offers to pick for ``inp``: the printed names (:func:`rulesbook.inputs.picks`)
    and, when the form compares with ``variant``, the entries that variant adds for it
    (``add:``; a key replacing a printed entry is listed once).

    >>> calc = registry().calculator("wh40k.datasheet-attack")
    >>> offered_names(calc, calc.input("stratagems"), "monster-hunters")[-1]
    'monster-hunters'
    >>> "monster-hunters" in offered_names(calc, calc.input("stratagems"))
    False
    """
    printed = picks(inp)
    try:
        chosen = compared(variant)
        added = () if chosen is None else added_entries(calc, chosen).get(inp.key, ())
    except InputError:  # an unknown name, a user's variant that no longer loads: said elsewhere
        added = ()
    return (*printed, *(key for key in added if key not in printed))


def added_inputs(calc: Calculator, variant: str | Variant = NO_VARIANT) -> tuple[Input, ...]:
    """The inputs ``variant`` adds to ``calc`` (its ``add: inputs`` that the entries it adds to a
    test ``calc`` rolls read): what a form shows, below its own, while it compares with that
    variant — with the declaration's label, help and default. None for ``none``, a variant of
    another system, or one whose entries do not reach ``calc`` (:func:`compared`: a text names a
    variant, never a file; one that does not load adds nothing here, its error is said elsewhere).

    >>> near = Variant.from_mapping({"system": "wh40k", "title": "Near", "add": {
    ...     "inputs": {"near": {"kind": "boolean", "default": False, "label": "Leader near"}},
    ...     "tests": {"battle-shock": {"modifiers": {"near": {"value": 1, "when": "near"}}}}}}, name="near")
    >>> [(i.key, i.title, i.default) for i in added_inputs(registry().calculator("wh40k.battle-shock"), near)]
    [('near', 'Leader near', False)]
    >>> added_inputs(registry().calculator("wh40k.battle-shock")), added_inputs(registry().calculator("wh40k.charge"), near)
    ((), ())
    """
    try:
        chosen = compared(variant)
        if chosen is None or calc.choices is None or chosen.system != calc.system:
            return ()
        extended = variant_calculator(calc, chosen)
    except InputError:
        return ()
    return tuple(extended.input(key) for key in extended.added_inputs)


def added_calculators(variant: Variant) -> tuple[Calculator, ...]:
    """The calculators ``variant`` adds (``add: calculators``), each computing under it.

    >>> terror = Variant.from_mapping({"system": "scrollhammer", "title": "Terror", "add": {
    ...     "inputs": {"ld": {"kind": "integer", "minimum": 2, "maximum": 10, "default": 7}},
    ...     "tests": {"terror": {"dice": "2D6", "pass": "at-most", "target": "ld - 1"}},
    ...     "calculators": {"terror-test": {"title": "Terror test", "test": "terror",
    ...                                     "outputs": {"p_pass": {"label": "P(pass)", "p": "pass"}}}}}}, name="terror")
    >>> [c.id for c in added_calculators(terror)]
    ['scrollhammer.terror-test']
    >>> calc, adder = form_calculator("scrollhammer.terror-test", terror)
    >>> calc.id, adder.name
    ('scrollhammer.terror-test', 'terror')
    >>> [(name, r["p_pass_exact"]) for name, r in answer("scrollhammer.terror-test", {"ld": "7"}, terror).results]
    [('terror', '5/12')]
    """
    known = registry(variant.system).calculators
    ids = [f"{variant.system}.{key}" for key, _ in variant.additions.section("calculators")]
    return tuple(find_calculator(calc_id, variant) for calc_id in ids if calc_id not in known)


def form_calculator(calc_id: str, variant: str | Variant = NO_VARIANT) -> tuple[Calculator, Variant | None]:
    """The calculator a form of ``calc_id`` computes, and the variant that adds it (None: a
    registered calculator, which compares with ``variant`` as usual). A calculator the published
    rules lack is found only in the variant that adds it (:func:`compared`); anything else is the
    registry's one line ("unknown calculator ID …; did you mean …").

    (Examples: :func:`added_calculators`.)
    """
    reg = registry(calc_id.partition(".")[0])  # loads only its system if none is
    if calc_id in reg.calculators:
        return reg.calculator(calc_id), None
    chosen = compared(variant)
    calc = find_calculator(calc_id, chosen)
    return calc, (chosen if calc.id not in registry().calculators else None)


def form_inputs(calc: Calculator, values: Mapping[str, Any]) -> dict[str, Any]:
    """A form's values as calculator inputs: inputs that stand for a rule choice (a reading
    switch, an input named like a parameter) left at their default count as not given, so a
    compared variant's choices apply."""
    keys = choice_keys(calc)
    return {k: v for k, v in values.items() if not (k in keys and _at_default(calc, k, v))}


def _at_default(calc: Calculator, key: str, value: Any) -> bool:
    inp = calc.input(key)
    return not inp.required and inp.validate(value) == inp.validate(inp.default)


@dataclass(frozen=True)
class Answer:
    """A form's answer as values (what a worker process sends back; it pickles): the results,
    baseline first (one, or one per compared variant, with the comparison's notes), or the
    one-line error naming the field. Each front-end renders it (:func:`answer_html`).

    >>> a = answer("scrollhammer.morale-check", {"ld": 7})
    >>> a.error, [(name, r["p_pass_exact"]) for name, r in a.results]
    ('', [('baseline', '7/12')])
    >>> answer("scrollhammer.morale-check", {"ld": 99}).error
    'ld: expected an integer from 0 to 12, got 99'
    """

    calc_id: str
    variant: str = NO_VARIANT
    inputs: Mapping[str, Any] = field(default_factory=dict)
    results: tuple[tuple[str, CalcResult], ...] = ()
    notes: tuple[str, ...] = ()
    error: str = ""
    error_key: str = ""
    """The input the error is about (its key), so a form can mark it."""
    added: bool = False
    """The calculator is one the variant adds (its answer is the variant's alone)."""


def compared(variant: str | Variant) -> Variant | None:
    """The variant a form compares with: ``none`` (or ``""``) is None, a text is the *name* of a
    variant the server knows (:func:`rulesbook.variants.named_variant`: never a path, whatever a
    page's address or a websocket message says), a :class:`~rulesbook.variants.Variant` is one
    the caller loaded itself (a notebook's own file, an uploaded YAML text).

    >>> compared("none") is None, compared("battle-shock-3d6").name
    (True, 'battle-shock-3d6')
    >>> compared("~/x.py")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: variant: unknown variant '~/x.py'; a request names a variant the server knows, never a file; known: ...
    """
    if isinstance(variant, Variant):
        return variant
    return None if variant in ("", NO_VARIANT) else named_variant(variant)


def answer(calc_id: str, values: Mapping[str, Any], variant: str | Variant = NO_VARIANT) -> Answer:
    """The answer of calculator ``calc_id`` for a form's ``values``, compared with ``variant``
    unless it is ``none`` (:func:`compared`: a text names a variant, never a file). A calculator
    that ``variant`` adds (``add: calculators``) answers under it alone: the published rules have
    no such calculator to compare with.

    (Examples: :class:`Answer`, :func:`added_calculators`.)
    """
    name = variant.name if isinstance(variant, Variant) else variant or NO_VARIANT
    calc: Calculator | None = None
    try:
        calc, adder = form_calculator(calc_id, variant)
        if adder is not None:
            found = run_with_variant(calc, adder, **values)
            return Answer(calc_id, name, dict(values), ((adder.name, found),), added=True)
        chosen = compared(variant)
        if chosen is None:
            return Answer(calc_id, NO_VARIANT, results=((BASELINE, calc.run(**values)),))
        comparison = compare(calc, form_inputs(calc, values), [chosen])
    except InputError as exc:
        adder_of = None
        if calc is not None and name == NO_VARIANT:
            adder_of = adding_variant(calc, exc.field, values.get(exc.field))
        hint = (
            f"; {adder_of[0]} is added by the variant {adder_of[1]} (pick it in Compare with)"
            if adder_of
            else ""
        )
        return Answer(calc_id, name, error=str(exc) + hint, error_key=exc.field)
    return Answer(calc_id, name, dict(comparison.inputs), comparison.results, comparison.notes)


def answer_html(found: Answer, variant: Variant | None = None) -> str:
    """The result pane for an answer: the result, baseline and variant side by side, or the error
    (``variant``: the compared variant when the caller loaded it itself, else found by name).
    A calculator a variant adds shows its result under one line naming that variant."""
    if found.error:
        return error_html(found.error)
    shown = variant if variant is not None else compared(found.variant)
    calc, _ = form_calculator(found.calc_id, shown if shown is not None else NO_VARIANT)
    summary = summary_html(calc.outputs, found.results)
    hidden = f'<div hidden class="rb-summary-source">{summary}</div>' if summary else ""
    if found.added:
        assert shown is not None  # (an added calculator's answer names its variant)
        note = (
            f'<p class="rb-added-note" data-variant="{html.escape(shown.name)}">Added by the variant '
            f"<strong>{html.escape(shown.title)}</strong>: the published rules have no such calculator, "
            "so there is nothing to compare it with.</p>"
        )
        return hidden + note + result_html(calc.outputs, found.results[0][1], styled=True)
    if found.variant == NO_VARIANT:
        return hidden + result_html(calc.outputs, found.results[0][1], styled=True)
    assert shown is not None  # (a comparison's answer names its variant)
    return hidden + comparison_html(Comparison(calc, found.inputs, (shown,), found.results, found.notes))


def form_result_html(calc: Calculator, values: Mapping[str, Any], variant: str | Variant = NO_VARIANT) -> str:
    """The result pane for a form: the result, or baseline and ``variant`` side by side."""
    return answer_html(answer(calc.id, values, variant), variant if isinstance(variant, Variant) else None)
