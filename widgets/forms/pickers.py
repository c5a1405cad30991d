"""Pick lists of a Panel form: a searchable list under a word list's text box (stratagems,
weapons, abilities), kept in step with the text, which still takes any text.

What a list offers is :func:`widgets.forms.compare.offered_names`: the printed names and, while the form
compares with a variant, the entries that variant adds (``add:``). An input that only a variant
can fill (Army Morale's ``a_effects``) has a list too, hidden until a compared variant offers
something for it.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.datasheet-attack")
    >>> picker = picker_for(calc, calc.input("stratagems"), "")
    >>> "monster-hunters" in picker.options
    False
    >>> offer(calc, {"stratagems": picker}, {}, "monster-hunters")
    >>> picker.options[-1]
    'monster-hunters'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import panel as pn

from rulesbook.additions import entry_key
from rulesbook.calculators import Calculator
from rulesbook.inputs import Input
from rulesbook.variants import Variant, offerable_inputs
from widgets.forms.compare import NO_VARIANT, offered_names
from widgets.forms.uploads import UploadBox

__all__ = [
    "PICK_CSS",
    "file_names",
    "keep_upload",
    "link_picker",
    "offer",
    "offer_files",
    "offer_options",
    "picker_for",
]

PICK_CSS = """
:host { margin-top: -4px; }
.choices__inner { min-height: 44px; font-size: 16px; }
.choices__list--dropdown .choices__item { min-height: 44px; display: flex; align-items: center; }
"""
"""The pick list's style: its box and each of its items at least 44 px high."""


def picker_for(
    calc: Calculator, inp: Input, text: str, variant: str | Variant = NO_VARIANT
) -> pn.widgets.MultiChoice | None:
    """A searchable multi-select list of what a word list offers, or None (not a word list, or
    fewer than two names and no variant can add any)."""
    options = list(offered_names(calc, inp, variant))
    can_grow = inp.key in offerable_inputs(calc)
    if inp.kind != "word-list" or (len(options) < 2 and not can_grow):
        return None
    keys = dict.fromkeys(entry_key(w) for w in text.split(",") if w.strip())
    return pn.widgets.MultiChoice(
        options=options,
        value=[k for k in keys if k in options],
        placeholder=f"Pick {inp.title.lower()} from the list (type to search)",
        css_classes=[f"rb-pick-{inp.key}"],
        stylesheets=[PICK_CSS],
        sizing_mode="stretch_width",
        visible=bool(options),
    )


def link_picker(text: pn.widgets.Widget, picker: pn.widgets.MultiChoice) -> None:
    """Keep a text box and its pick list in step: picking adds the name to the text and
    unpicking removes it (the other words stay as typed, such as ``rotwind*2`` or a count
    ``supply-lines=2``); typing selects the listed names typed. The list's options may change
    (:func:`offer`)."""
    busy = [False]

    def words() -> list[str]:
        return [w.strip() for w in str(text.value or "").split(",") if w.strip()]

    def from_text(_event: Any) -> None:
        known = set(picker.options)
        chosen = list(dict.fromkeys(entry_key(w) for w in words() if entry_key(w) in known))
        if not busy[0] and chosen != list(picker.value):
            busy[0] = True
            try:
                picker.value = chosen
            finally:
                busy[0] = False

    def from_pick(event: Any) -> None:
        if busy[0]:
            return
        known, picked = set(picker.options), list(event.new)
        kept = [w for w in words() if entry_key(w) not in known or entry_key(w) in picked]
        present = {entry_key(w) for w in kept}
        busy[0] = True
        try:
            text.value = ", ".join([*kept, *(p for p in picked if p not in present)])
        finally:
            busy[0] = False

    text.param.watch(from_text, "value")
    picker.param.watch(from_pick, "value")


def offer(
    calc: Calculator,
    pickers: Mapping[str, pn.widgets.MultiChoice],
    widgets: Mapping[str, pn.widgets.Widget],
    variant: str | Variant,
) -> None:
    """Offer what the form offers while comparing with ``variant`` (``none``: the printed names
    only): each pick list's options (selected names kept where the list still holds them, a
    list with nothing to offer hidden) and each name box's suggestions."""
    for key in offerable_inputs(calc):
        offer_options(key, list(offered_names(calc, calc.input(key), variant)), pickers, widgets)


def offer_options(
    key: str,
    options: list[str],
    pickers: Mapping[str, pn.widgets.MultiChoice],
    widgets: Mapping[str, pn.widgets.Widget],
) -> None:
    """Offer ``options`` for input ``key``: its pick list's (the names typed that it still holds
    selected, the others left in the text as typed; a list with nothing to offer hidden) and its
    name box's suggestions."""
    picker = pickers.get(key)
    if picker is not None and list(picker.options) != options:
        text = str(widgets[key].value or "") if key in widgets else ""
        keys = dict.fromkeys(entry_key(w) for w in text.split(",") if w.strip())
        picker.param.update(options=options, visible=bool(options))
        chosen = [k for k in keys if k in options]
        if list(picker.value) != chosen:
            picker.value = chosen
    box = widgets.get(key)
    if box is not None and isinstance(getattr(box, "options", None), list) and list(box.options) != options:
        box.options = options


def file_names(calc: Calculator, uploads: Mapping[str, UploadBox]) -> Mapping[str, tuple[str, ...]]:
    """The names the files of a form's upload boxes offer to pick (a roster's units and weapons:
    :attr:`rulesbook.calculators.Calculator.names`), by input key; none without such a hook."""
    return {} if calc.names is None else calc.names({k: str(box.path()) for k, box in uploads.items()})


def offer_files(
    calc: Calculator,
    uploads: Mapping[str, UploadBox],
    pickers: Mapping[str, pn.widgets.MultiChoice],
    widgets: Mapping[str, pn.widgets.Widget],
) -> None:
    """Offer, in the pick lists and name boxes, the names the chosen files hold; what was typed
    stays, and a fixed choice (a drop-down) is left as it is."""
    for key, names in file_names(calc, uploads).items():
        if not isinstance(widgets.get(key), pn.widgets.Select):
            offer_options(key, list(names), pickers, widgets)


def keep_upload(
    calc: Calculator,
    uploads: Mapping[str, UploadBox],
    key: str,
    control: pn.widgets.Widget,
    pickers: Mapping[str, pn.widgets.MultiChoice],
    widgets: Mapping[str, pn.widgets.Widget],
) -> None:
    """Keep the file upload control ``key`` received (:meth:`widgets.forms.uploads.UploadBox.store`:
    InputError when refused) and offer the names the form's files now hold (:func:`offer_files`)."""
    uploads[key].store(bytes(control.value), getattr(control, "filename", "") or "")
    offer_files(calc, uploads, pickers, widgets)
