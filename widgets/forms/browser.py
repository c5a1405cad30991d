"""The calculators in a reader's browser: the Python the published site runs under Pyodide.

A calculator page of the published site (``scripts/build-site``) starts a Web Worker
(``docs/javascripts/rulesbook-live-worker.mjs``) that loads Pyodide and the wheels of the site's
``live-runtime/`` folder (:mod:`rulesbook.site.runtime`), then imports this module and calls:

* :func:`start` once: the data snapshot replaces YAML parsing, and only the page's own system
  is loaded (its calculator modules and nothing else);
* :func:`prepare_snapshot` when the build takes the start-up snapshot (under Node.js): every
  system and everything an answer imports is loaded and every calculator's opening form answered,
  so a page that starts from the snapshot has nothing left to import or set up;
* :func:`answer` for every change of the form: the HTML of the result pane, exactly what the
  served page shows for the same values (:func:`widgets.forms.compare.answer_html`: the result
  with its labels, percentages and charts, the comparison with a shipped variant, or the
  CLI's one-line error naming the field);
* :func:`upload` for a file chosen in a ``path`` input (a game log, an army list): checked and
  kept as the served upload box does (:class:`widgets.forms.uploads.UploadBox`), in the browser's own
  memory — the file never leaves it; :func:`names` then gives what it offers to pick (a roster's
  units and weapons);
* :func:`house_rule` for the reader's house rule (the text of a variant file, pasted into the
  variants page or carried by a link): read by the same safe loader and checked as a variant
  file is, then compared with the published rules wherever a form picks :data:`HOUSE`; the
  forms of the calculators it adds (``add: calculators``) come with it, for the variants page;
* :func:`added_fields` whenever a form's "Compare with" changes: the fields of the inputs the
  compared variant (or the house rule) adds to the calculator (``add: inputs``), shown below
  its own inputs while it is compared;
* :func:`cli_json`: what ``rulesbook calc ID key=value ... --json`` prints, for the tests and
  benchmarks that compare the browser with CPython byte for byte;
* :func:`forget`: the files chosen and the house rule dropped, before the worker, which outlives
  a page and serves every open page of the site, answers another page (it then gives that
  page's own files and house rule again).

The form sends every value as the text a reader typed or picked (``"7"``, ``"true"``, a choice's
key), which is what the command line receives, so every message is the command line's.

Example:
    >>> start("scrollhammer")
    >>> 'data-key="p_pass_exact">5/12<' in answer("scrollhammer.morale-check", {"ld": "7", "modifier": "-1"})
    True
    >>> answer("scrollhammer.morale-check", {"ld": "seven"}).count("expected an integer from 0 to 12")
    1
    >>> code, text = cli_json("scrollhammer.panic-test", ["ld=7"])
    >>> code, '"p_pass_exact": "7/12"' in text
    (0, True)
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulesbook.calculators import Calculator, form_text
from rulesbook.data import use_snapshot
from rulesbook.errors import InputError, RulesbookError
from rulesbook.present import error_html, json_text, md_inline, mended_html, plain
from rulesbook.registry import registry
from rulesbook.relations import Mended, mend
from rulesbook.site.live_form import field_html, live_form_html
from rulesbook.variants import Variant, load_variant_text
from widgets.forms.compare import NO_VARIANT, added_calculators, added_inputs, answer_html, form_calculator
from widgets.forms.compare import answer as form_answer
from widgets.forms.uploads import UploadBox

__all__ = [
    "HOUSE",
    "SNAPSHOT",
    "added_fields",
    "answer",
    "clear_caches",
    "cli_json",
    "forget",
    "house_rule",
    "names",
    "prepare_snapshot",
    "start",
    "upload",
]

HOUSE = ":house"
"""The "Compare with" value of the reader's house rule (no variant's name can be it)."""

SNAPSHOT = Path(__file__).resolve().parents[1] / "rulesbook" / "data-snapshot.json"
"""Where the site's app wheel puts the data snapshot (absent in a checkout: YAML is parsed)."""

_boxes: dict[tuple[str, str], UploadBox] = {}
_house: list[Variant] = []  # the reader's house rule, once it loads


def start(system: str) -> None:
    """Use the data snapshot if the wheel has one, and load ``system`` (only it, if it is known)."""
    if SNAPSHOT.is_file():
        use_snapshot(json.loads(SNAPSHOT.read_text(encoding="utf-8"))["files"])
    registry(system)


def prepare_snapshot() -> None:
    """Load every system, the shipped variants and the Markdown renderer (all an answer imports),
    and answer every calculator's form as it opens (its first worked example): the snapshot then
    holds those answers and everything a first answer sets up, so a page's first live answer, and
    the first keystrokes after it, compute nothing twice (about 0.5 s of CPython at build time)."""
    from rulesbook.variants import shipped_variants

    registry()
    shipped_variants()
    md_inline("*ready*")
    for calc in registry().calculators.values():
        start = calc.initial_values()
        answer(calc.id, {i.key: form_text(i, start[i.key]) for i in calc.inputs if i.kind != "path"})
    forget()


def _box(calc_id: str, key: str) -> UploadBox:
    calc = registry(calc_id.partition(".")[0]).calculator(calc_id)
    box = _boxes.get((calc_id, key))
    if box is None:
        inp = calc.input(key)
        box = _boxes[calc_id, key] = UploadBox(key, getattr(inp, "suffixes", ()), calc.initial_values()[key])
    return box


def upload(calc_id: str, key: str, filename: str, data: bytes) -> str | None:
    """Keep a file chosen for the path input ``key``; the one-line error (HTML) if it is refused."""
    try:
        raw = data.to_bytes() if hasattr(data, "to_bytes") else bytes(data)  # a JavaScript Uint8Array
        _box(calc_id, key).store(raw, filename)
    except InputError as exc:
        return error_html(str(exc))
    return None


def names(calc_id: str) -> str:
    """What the files chosen so far offer to pick, as JSON (``{input key: [names]}``: an army
    list's units and weapons; :attr:`rulesbook.calculators.Calculator.names`), for the form's
    suggestion and pick lists."""
    calc = registry(calc_id.partition(".")[0]).calculator(calc_id)
    if calc.names is None:
        return "{}"
    files = {i.key: str(_box(calc_id, i.key).path()) for i in calc.inputs if i.kind == "path"}
    return json.dumps({key: list(found) for key, found in calc.names(files).items()})


def house_rule(text: str) -> str:
    """Load the reader's house rule from ``text`` (a variant file's text) and keep it for
    :func:`answer`; JSON for the page: ``system``, ``title`` and ``changes`` (one line each), or
    ``error``, the one line a variant file with that text gets (the rule kept before stays
    until one loads). An empty text forgets it.

    >>> json.loads(house_rule("system: scrollhammer\\ntitle: Harsh\\nparameters: {break_ld_per_point: 2}\\n"))["changes"]
    ['Ld lost per point of defeat (break_ld_per_point): 1 → 2']
    >>> json.loads(house_rule("system: scrollhammer\\ntitle: x\\nparameters: {nope: 1}\\n"))["error"]
    'house-rule.yaml, line 3: parameters.nope: unknown rule parameter; allowed: ...'

    ``calculators``: the HTML of a live calculator box for each calculator the rule adds (its
    heading, an empty result and its form in a ``<template>``, always computing under the rule),
    which the variants page shows and brings live as the calculator pages do.
    """
    if not text.strip():
        _house.clear()
        return json.dumps({"system": "", "title": "", "changes": []})
    try:
        variant = load_variant_text(text)
    except InputError as exc:
        return json.dumps({"error": plain(str(exc))}, ensure_ascii=False)
    _house[:] = [variant]
    boxes = "".join(_house_calculator(calc) for calc in added_calculators(variant))
    return json.dumps(
        {
            "system": variant.system,
            "title": variant.title,
            "changes": variant.summary(),
            "calculators": boxes,
        },
        ensure_ascii=False,
    )


def _house_calculator(calc: Calculator) -> str:
    """A calculator the house rule adds, as a live calculator box of the variants page."""
    ident = "house-" + calc.id.replace(".", "-")
    return (
        f'<div class="rb-static-calc rb-house-calc" id="{ident}" data-calc="{html.escape(calc.id)}">'
        f"<h3>{html.escape(calc.title)} <code>{html.escape(calc.id)}</code></h3>"
        f"<p>{html.escape(calc.summary)}</p>"
        '<div class="rb-static-result"></div>'
        f"{live_form_html(calc, HOUSE)}</div>"
    )


def added_fields(calc_id: str, variant: str = NO_VARIANT) -> str:
    """The fields of the inputs ``variant`` (a listed variant's name, or :data:`HOUSE`) adds to
    calculator ``calc_id`` (``add: inputs`` that its entries read in a test the calculator rolls),
    each starting at its declared default, written as the form's own (HTML; ``""`` for none).

    >>> _ = house_rule("system: scrollhammer\\ntitle: Standards\\nadd:\\n  inputs:\\n"
    ...     "    has_standard: {kind: boolean, default: false, label: Carries a standard}\\n"
    ...     "  tests:\\n    break-test:\\n      rerolls:\\n        standard: {failed: true, when: has_standard}\\n")
    >>> 'data-key="has_standard"' in added_fields("scrollhammer.break-test", HOUSE)
    True
    >>> added_fields("scrollhammer.panic-test", HOUSE), added_fields("scrollhammer.break-test")
    ('', '')
    """
    if variant == HOUSE:
        if not _house:
            return ""
        chosen: str | Variant = _house[0]
    else:
        chosen = variant or NO_VARIANT
    try:
        calc, _ = form_calculator(calc_id, chosen)
    except InputError:
        return ""
    return "".join(field_html(calc, inp, inp.initial) for inp in added_inputs(calc, chosen))


def answer(calc_id: str, values: Mapping[str, Any], variant: str = NO_VARIANT, changed: str = "") -> str:
    """The result pane for a form's ``values`` (texts), compared with ``variant`` unless ``none``
    (:data:`HOUSE`: the reader's house rule, :func:`house_rule`).

    A ``path`` input takes the file last given to :func:`upload`, else its start value (the worked
    example's file, shipped with rulesbook). ``changed``: the input the reader just changed; if it
    was a pick that broke one of the calculator's declared relations, the other input is set to
    agree (:func:`rulesbook.relations.mend`): the answer is for the mended values, says so above
    the result and carries their texts for the form (``<div hidden class="rb-set" data-set=JSON>``).

    >>> html = answer("wh40k.datasheet-attack", {"sickness": "rattlejoint-ague", "detachment": "verminous-haze"},
    ...               changed="detachment")
    >>> 'data-set="{&quot;sickness&quot;: &quot;none&quot;}"' in html, "Sickness set to none" in html
    (True, True)
    """
    chosen: str | Variant = variant or NO_VARIANT
    if variant == HOUSE:
        if not _house:
            return error_html("variant: no house rule is set (write one on the variants page)")
        chosen = _house[0]
    try:
        calc, _ = form_calculator(calc_id, chosen)  # a registered one, or one the variant adds
    except InputError as exc:
        return error_html(str(exc))
    given = {key: value for key, value in values.items() if key != "variant"}
    for inp in calc.inputs:
        if inp.kind == "path":
            given[inp.key] = _box(calc_id, inp.key).path()
    own = {inp.key: given[inp.key] for inp in calc.inputs if inp.key in given}  # (not a variant's)
    mended = mend(calc, own, changed) if changed in own else Mended()
    texts = {key: form_text(calc.input(key), value) for key, value in mended.changes}
    given.update(texts)
    shown = answer_html(form_answer(calc_id, given, chosen), chosen if isinstance(chosen, Variant) else None)
    if not texts:
        return shown
    return f'<div hidden class="rb-set" data-set="{html.escape(json.dumps(texts))}"></div>{mended_html(mended.notes)}{shown}'


def forget() -> None:
    """Drop every file given to :func:`upload` and the house rule (what one page gave).

    >>> _ = house_rule("system: scrollhammer\\ntitle: Harsh\\nparameters: {break_ld_per_point: 2}\\n")
    >>> forget()
    >>> "no house rule is set" in answer("scrollhammer.morale-check", {"ld": "7"}, HOUSE)
    True
    """
    _boxes.clear()
    _house.clear()


def clear_caches() -> None:
    """Forget every cached result (benchmarks time first answers: :func:`rulesbook.caches.clear_caches`)."""
    from rulesbook.caches import clear_caches as clear

    clear()


def cli_json(calc_id: str, arguments: Sequence[str]) -> tuple[int, str]:
    """``(exit code, output)`` of ``rulesbook calc CALC_ID ARGUMENTS... --json``: the JSON with its
    newline, or the one error line (which the command line writes to standard error)."""
    from rulesbook.variants import run_assignments

    reg = registry(calc_id.partition(".")[0])
    if calc_id not in reg.calculators:
        reg = registry()
    try:
        calc = reg.calculator(calc_id)
        checked, result, variant = run_assignments(calc, list(arguments))
    except RulesbookError as exc:
        return 2, plain(f"rulesbook: error: {exc}") + "\n"
    data = calc.answer_json(checked, result, variant.name if variant else None)
    return 0, json_text(data) + "\n"
