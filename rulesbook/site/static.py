"""Calculators that work on the static site: precomputed states behind a generated form.

The published rulebook is plain files (a web host, a USB stick, ``file://``), so a calculator
page cannot ask a Python server for answers. Instead, while the site builds, each calculator is
run over a small grid of input states and the answers are stored in the page; a generic script
(``docs/javascripts/static-calculators.js``) swaps in the stored answer when a reader changes an
input. Nothing is computed in the browser, so every number still comes from the one Python
implementation — exact, tested, and identical to the CLI's.

Which inputs are interactive is derived from the input declarations: booleans, choices and
interpretation switches offer every value; integers offer a window of up to
:data:`INT_WINDOW` values around the first worked example's value. Inputs are taken in their
declared order while the grid stays within :data:`MAX_STATES` states (so the same code gives the
same pages on every machine); every other input stays at the example's value and the page says so.
Served over HTTP, the page then goes live: the browser's own Python computes every input
(:mod:`rulesbook.site.live_form`, :mod:`rulesbook.site.runtime`); opened from disk it stays as
built and says how to get live answers.

The site has two flavours, chosen by the ``RULESBOOK_STATIC`` environment variable (default
``true``): the *static* build (offline plugin, no link to a server route) that is published,
and the *served* build (``RULESBOOK_STATIC=false``, set by ``rulesbook serve``) whose pages
also link and embed the live calculators at ``/calc/<calculator-id>``.

Example:
    >>> from rulesbook.registry import registry
    >>> grid = state_grid(registry().calculator("scrollhammer.panic-test"))
    >>> [key for key, _ in grid.variable], len(grid.index)
    (['ld', 'modifier'], 169)
    >>> "5/12" in grid.html[grid.index[grid.position({"ld": 7, "modifier": -1})]]
    True
"""

from __future__ import annotations

import html
import itertools
import json
import os
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from rulesbook.calculators import Calculator
from rulesbook.errors import InputError
from rulesbook.inputs import NOT_GIVEN, BoolInput, ChoiceInput, Input, IntInput, OptionalInput
from rulesbook.site.live_form import live_form_html

__all__ = [
    "INT_WINDOW",
    "LIVE_PREFIX",
    "MAX_STATES",
    "TRY_IT",
    "StateGrid",
    "early_start_script",
    "live_link",
    "live_note",
    "state_grid",
    "static_build",
    "static_calculator_html",
]

LIVE_PREFIX = "/calc/"
"""Where ``rulesbook serve`` serves each live calculator (``/calc/<calculator-id>``)."""
MAX_STATES = 200
"""At most this many precomputed input states per calculator page (bounds build time and size)."""
INT_WINDOW = 13
"""An integer input offers at most this many values (a window around its example value)."""
TRY_IT = "try-it"
"""The anchor of the static calculator on a calculator page."""


def static_build() -> bool:
    """True unless ``RULESBOOK_STATIC`` is ``false``/``0``/``no`` (the served flavour).

    >>> import os
    >>> os.environ.get("RULESBOOK_STATIC", "true") != "false" and static_build()
    True
    """
    return os.environ.get("RULESBOOK_STATIC", "true").strip().lower() not in {"false", "0", "no"}


def early_start_script(root: str, system: str, build: str = "") -> str:
    """An inline script that starts the site's Python as soon as the browser reads it, at the
    top of a live calculator page (``root``: the page's relative way to the site's root, ending
    in ``/``; ``system``: the page's rule system, loaded first by a Python started afresh;
    ``build``: :func:`rulesbook.site.runtime.build_id`, kept in ``window.rulesbookBuild`` and
    naming the shared worker, so a rebuilt site's pages start their own Python).

    The page's own scripts (``live-calculators.js``) run only once all of the page is read —
    its precomputed answers run to megabytes — so the worker they start would begin a second or
    so late; this one connects to the same shared worker earlier, and ``live-calculators.js``
    then finds Python starting or started. Only where the worker is a shared one (a second
    dedicated worker would start a second Python) and never from ``file://``.

    >>> "scrollhammer" in early_start_script("../../", "scrollhammer")
    True
    >>> "name: 'rulesbook-live' + (c.build ? '-' + c.build : '')" in early_start_script("", "x", "0.1-ab")
    True
    """
    config = json.dumps(
        {
            "worker": f"{root}javascripts/rulesbook-live-worker.mjs",
            "base": f"{root}live-runtime/",
            "build": build,
        }
    )
    system_text = json.dumps(system)
    body = (
        "(function (c) { window.rulesbookBuild = c.build; if (location.protocol === 'file:'"
        " || typeof SharedWorker !== 'function' || typeof WebAssembly !== 'object') return;"
        " try { var w = new SharedWorker(new URL(c.worker, document.baseURI), { type: 'module',"
        " name: 'rulesbook-live' + (c.build ? '-' + c.build : ''), extendedLifetime: true });"
        " w.port.postMessage({ type: 'start', base: new URL(c.base, document.baseURI).href, system:"
        f" {system_text} }}); }} catch (e) {{}} }})({config});"
    )
    return "<script>" + body.replace("</", "<\\/") + "</script>"


def live_link(here: str, calc_page: str, calc_id: str, text: str, static_text: str = "try it") -> str:
    """A Markdown link that lets a reader try a calculator.

    In the served flavour it opens the live calculator (``text``); in the static flavour it
    goes to the static calculator on the calculator's own page (``static_text``), never to a
    server route.

    >>> live_link("scrollhammer/index.md", "scrollhammer/calculators/x.md", "x", "live calculator")
    '[try it](calculators/x.md#try-it)'
    """
    if not static_build():
        return f"[{text}]({LIVE_PREFIX}{calc_id})"
    rel = posixpath.relpath(calc_page, posixpath.dirname(here) or ".")
    return f"[{static_text}]({rel}#{TRY_IT})"


def live_note(calc_id: str) -> str:
    """One Markdown sentence telling a static-site reader where every input is live.

    >>> "python3 -m http.server" in live_note("scrollhammer.morale-check")
    True
    """
    return (
        "Served over HTTP (any web host, or `python3 -m http.server -d site`), this calculator "
        "computes every input in your browser; opened from disk it "
        f"keeps the answers computed when the site was built. `rulesbook serve` serves it live too, "
        f"at `{LIVE_PREFIX}{calc_id}`, and the command line answers any input: "
        f"`rulesbook calc {calc_id} --help`."
    )


# -- the grid of precomputed states ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StateGrid:
    """Precomputed answers of one calculator over a grid of input states.

    ``variable`` lists (key, values) of the interactive inputs in form order; ``fixed`` the
    values every state shares. ``index[i]`` is the position in ``html`` of the answer for the
    i-th state of ``itertools.product`` over the variable values (the last input varies
    fastest); equal answers are stored once.
    """

    calc_id: str
    variable: tuple[tuple[str, tuple[Any, ...]], ...]
    fixed: Mapping[str, Any]
    html: tuple[str, ...]
    index: tuple[int, ...]

    def position(self, values: Mapping[str, Any]) -> int:
        """The state number of ``values`` (keys of the variable inputs)."""
        pos = 0
        for key, domain in self.variable:
            pos = pos * len(domain) + domain.index(values[key])
        return pos


def _domain(inp: Input, initial: Any) -> tuple[Any, ...] | None:
    """The values a static form offers for ``inp``, or None when it stays fixed."""
    if isinstance(inp, BoolInput):
        return (False, True)
    if isinstance(inp, ChoiceInput):
        return tuple(inp.choices)
    if isinstance(inp, IntInput):
        centre = initial if isinstance(initial, int) else inp.minimum
        lo = max(inp.minimum, centre - INT_WINDOW // 2)
        hi = min(inp.maximum, lo + INT_WINDOW - 1)
        lo = max(inp.minimum, hi - INT_WINDOW + 1)
        return tuple(range(lo, hi + 1))
    if isinstance(inp, OptionalInput):  # its special words (``none``), then the inner values
        inner = _domain(inp.inner, initial)
        if inner is None:
            return None
        words = tuple(v for v in dict.fromkeys(inp.words.values()) if v is not NOT_GIVEN)
        return (*words, *inner)
    return None


def _answer_html(calc: Calculator, values: Mapping[str, Any]) -> str:
    from rulesbook.present import STYLE, error_html, result_html

    try:
        checked = calc.validate(values)
        shown = result_html(calc.outputs, calc.run_validated(checked), styled=True)
    except InputError as exc:
        shown = error_html(str(exc))
    return shown.replace(STYLE, "")


def state_grid(calc: Calculator) -> StateGrid:
    """Run ``calc`` over the grid of its first inputs that fits :data:`MAX_STATES` states."""
    return _state_grid(calc.id)


@cache
def _state_grid(calc_id: str) -> StateGrid:
    from rulesbook.registry import registry

    calc = registry().calculator(calc_id)
    initial = calc.initial_values()
    variable: list[tuple[str, tuple[Any, ...]]] = []
    size = 1
    for inp in calc.inputs:
        domain = _domain(inp, initial[inp.key])
        if domain and len(domain) > 1 and size * len(domain) <= MAX_STATES:
            variable.append((inp.key, domain))
            size *= len(domain)
    fixed = {k: v for k, v in initial.items() if k not in dict(variable)}
    answers: dict[str, int] = {}
    index = []
    for combo in itertools.product(*(d for _, d in variable)):
        values = {**fixed, **dict(zip((k for k, _ in variable), combo, strict=True))}
        index.append(answers.setdefault(_answer_html(calc, values), len(answers)))
    return StateGrid(calc.id, tuple(variable), fixed, tuple(answers), tuple(index))


# -- the form ---------------------------------------------------------------------------------------


def _select(calc: Calculator, key: str, domain: Sequence[Any], current: Any) -> str:
    inp = calc.input(key)
    options = "".join(
        f'<option value="{n}"{" selected" if value == current else ""}>{html.escape(inp.format(value))}</option>'
        for n, value in enumerate(domain)
    )
    return (
        f'<label class="rb-static-input rb-input-{key}"><span class="rb-static-label">'
        f"{html.escape(inp.title)}</span>"
        f'<select data-key="{key}" title="{html.escape(inp.help)}">{options}</select></label>'
    )


def static_calculator_html(calc: Calculator) -> str:
    """The static calculator of a calculator page: form, first answer and stored answers (HTML).

    One raw-HTML block with no blank line, so Markdown leaves it alone.
    """
    from rulesbook.present import STYLE

    grid = state_grid(calc)
    initial = calc.initial_values()
    parts = [
        f'<div class="rb-static-calc" id="{TRY_IT}-form" data-calc="{calc.id}" data-search-exclude>',
        STYLE.strip().replace("\n", " "),
    ]
    if grid.variable:
        parts.append('<form class="rb-static-form" onsubmit="return false">')
        parts += [_select(calc, key, domain, initial[key]) for key, domain in grid.variable]
        parts.append("</form>")
    if grid.fixed:
        shown = ", ".join(
            f"<code>{k}={html.escape(calc.input(k).format(v))}</code>" for k, v in grid.fixed.items()
        )
        parts.append(f'<p class="rb-static-fixed">Fixed in this static version: {shown}.</p>')
    first = grid.index[grid.position(initial)] if grid.variable else 0
    parts.append(f'<div class="rb-static-result" aria-live="polite">{grid.html[first]}</div>')
    payload = json.dumps({"html": grid.html, "index": grid.index}, ensure_ascii=False, separators=(",", ":"))
    parts.append(
        f'<script type="application/json" class="rb-states">{payload.replace("</", "<\\/")}</script>'
    )
    parts.append(live_form_html(calc))  # every input, live once the browser's Python is ready
    parts.append("</div>")
    return "".join(parts)
