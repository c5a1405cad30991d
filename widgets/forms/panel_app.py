"""Panel calculators generated from the input declarations.

Example::

    from widgets.forms.panel_app import calculator_app
    calculator_app("scrollhammer.morale-check").servable()

Each declared input becomes a Panel widget carrying the CSS class ``rb-input-<key>``; the
result pane (class ``rb-result``) shows every headline value in ``<span data-key=...>``.
Recomputation is cached by the calculator; a bad value shows a one-line error and the
widgets keep what the user typed. The "Compare with" drop-down (class ``rb-input-variant``)
shows the baseline beside a shipped variant, and the inputs that variant adds (``add: inputs``)
below the form's own while it is compared (class ``rb-added-inputs``); served apps keep every
input and the variant in the URL's query string (:meth:`CalculatorApp.sync_url`). A calculator
a variant adds (``add: calculators``) computes under that variant alone
(:func:`served_calculator_app` ``added_by=``).

In a notebook the form recomputes in the kernel, at once. On the server (``pool=`` a
:class:`~widgets.server.workers.ComputePool`) an answer is computed in a worker process, off the event
loop every session shares: the form stays responsive, the result pane (wrapped in
:class:`~widgets.forms.live.LiveResult`) is marked stale with an "updating…" badge until the answer
for the current values arrives, typed values count without Enter, an answer that a newer input
made useless is dropped, and one over the pool's time limit ends in the one-line limit message.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
import urllib.parse
from typing import Any

import panel as pn
from bokeh.models.ui import Tooltip

from rulesbook.calculators import Calculator, form_text
from rulesbook.errors import InputError
from rulesbook.inputs import Input, picks
from rulesbook.present import error_html, heading_html, mended_html, result_html, rules_block
from rulesbook.registry import registry
from rulesbook.relations import mend
from rulesbook.variants import Variant, offerable_inputs
from widgets.forms.address import from_query, query_text, to_query
from widgets.forms.compare import (
    FAST_DELAY_MS,
    NO_VARIANT,
    SLOW_ANSWER_S,
    SLOW_DELAY_MS,
    UPLOADED,
    Answer,
    added_inputs,
    address_refusal,
    answer,
    answer_html,
    form_calculator,
    form_result_html,
    own_variant,
    uploaded_variant,
    variant_file_input,
    variant_options,
)
from widgets.forms.live import LiveResult
from widgets.forms.pickers import file_names, keep_upload, link_picker, offer, picker_for
from widgets.forms.uploads import UploadBox
from widgets.server.page import FORM_COLUMN_CSS, RESULT_COLUMN_CSS, TAP_CSS, embedded
from widgets.server.workers import ComputePool, Job, JobCancelled, TimeLimitError

__all__ = ["CalculatorApp", "calculator_app", "help_tooltip", "served_calculator_app", "widget_for"]

LOG = logging.getLogger("rulesbook.server")


INLINE_BELOW_S = 0.005
"""A calculator whose recent answers all took less than this (5 ms) answers small inputs right on
the event loop: a trip through a worker process costs more than the answer itself (under 50 ms
from keystroke to number is the goal). Anything slower, or any input over
:data:`INLINE_MAX_CHARS`, goes to the pool."""

INLINE_MAX_CHARS = 500
"""Inputs longer than this (all values' text together) always go to the pool."""

SUPERSEDED_AFTER_S = 0.25
"""A computation still running this long after a newer input arrived is abandoned (its worker is
replaced); a quicker one is left to finish, which is cheaper than replacing a worker."""

_recent_seconds: dict[str, collections.deque[float]] = {}
"""Per calculator, how long its last few answers took to compute (all sessions)."""


def _recent(calc_id: str) -> float | None:
    times = _recent_seconds.get(calc_id)
    return max(times) if times else None


def _typing_delay(calc_id: str) -> int:
    return SLOW_DELAY_MS if (_recent(calc_id) or 0.0) > SLOW_ANSWER_S else FAST_DELAY_MS


def _answers_inline(calc_id: str, values: dict[str, Any]) -> bool:
    recent = _recent(calc_id)
    small = sum(len(str(v)) for v in values.values()) <= INLINE_MAX_CHARS
    return recent is not None and recent < INLINE_BELOW_S and small


def _note_answer_time(calc_id: str, seconds: float) -> None:
    _recent_seconds.setdefault(calc_id, collections.deque(maxlen=4)).append(seconds)


HELP_CSS = ":host { white-space: initial; max-width: min(300px, calc(100vw - 16px)); }"
"""The help tooltip's style: wrapped lines, at most 300 px wide and never wider than the screen."""


def help_tooltip(text: str) -> Tooltip:
    """An input's help as one Bokeh model holding plain text.

    Panel turns a text ``description`` into a tooltip holding an HTML model, parsing the text as
    Markdown for every widget of every page: two models per input, about a fifth of the build of
    a 40-input form (``bench/page_build.py``). Our help texts are plain sentences (an input's key
    in backticks at most, shown without them). A tapped "?" shows it on a phone too, which a
    plain ``title`` attribute would not. It opens above the "?" (below if there is no room), where
    Bokeh keeps it inside the screen; Panel's opens to the right, and on a phone ran off the edge.

    Example::

        >>> help_tooltip("The `ld` of the unit.").content
        'The ld of the unit.'
    """
    return Tooltip(
        content=text.replace("`", ""), position="bottom_center", attachment="vertical", stylesheets=[HELP_CSS]
    )


class _PlainHelp:
    """Gives a Panel widget's model its help as :func:`help_tooltip` (a new model for each view,
    so a form shown twice shares none); the widget's ``description`` stays the text."""

    def _process_param_change(self, params: dict[str, Any]) -> dict[str, Any]:
        text = params.pop("description", None)
        params = super()._process_param_change(params)  # type: ignore[misc]
        if isinstance(text, str):
            params["description"] = help_tooltip(text)
        return params


class _TextInput(_PlainHelp, pn.widgets.TextInput):
    pass


class _IntInput(_PlainHelp, pn.widgets.IntInput):
    pass


class _Select(_PlainHelp, pn.widgets.Select):
    pass


class _Autocomplete(_PlainHelp, pn.widgets.AutocompleteInput):
    pass


def widget_for(inp: Input, value: Any, offerable: bool = False) -> pn.widgets.Widget:
    """The Panel widget for one declared input (its help in a :func:`help_tooltip`);
    ``offerable``: a compared variant may add names to suggest (:func:`widgets.forms.pickers.offer`)."""
    common: dict[str, Any] = {
        "label": inp.title,
        "css_classes": [f"rb-input-{inp.key}"],
        "stylesheets": [TAP_CSS],
    }
    if inp.kind == "bool":
        return pn.widgets.Checkbox(value=bool(value), **common)
    common["description"] = inp.help
    if inp.kind in ("choice", "interpretation"):
        return _Select(options=list(inp.choices), value=value, **common)  # type: ignore[attr-defined]
    if inp.kind == "int":
        # No start/end: out-of-range numbers stay in the box and get the one-line error.
        return _IntInput(value=value, **common)
    text = form_text(inp, value)
    options = picks(inp)
    # one name, searched as typed; any text counts
    if inp.kind != "word-list" and (len(options) > 1 or offerable):
        return _Autocomplete(
            value=text,
            options=list(options),
            restrict=False,
            min_characters=1,
            case_sensitive=False,
            search_strategy="includes",
            placeholder=inp.allowed(),
            **common,
        )
    return _TextInput(value=text, placeholder=inp.allowed(), **common)


class CalculatorApp:
    """A generated Panel calculator; ``.view`` is the layout."""

    def __init__(
        self,
        calc: Calculator,
        compare_with: str = NO_VARIANT,
        *,
        pool: ComputePool | None = None,
        **initial: Any,
    ) -> None:
        self.calc = calc
        self.pool = pool
        # a variant the caller's Python (a notebook) or the player's upload gave; an address or a
        # websocket message picks only a listed name (widgets.forms.compare.compared), else: _refused
        self._own, self._own_label, self._refused = own_variant(calc, compare_with), compare_with, ""
        start = {**calc.initial_values(), **initial}
        # A file on the web is an upload, never a path on the server (widgets/forms/uploads.py).
        self.uploads = {
            i.key: UploadBox(i.key, getattr(i, "suffixes", ()), start[i.key])
            for i in calc.inputs
            if i.kind == "path"
        }
        self._start = start
        # Served, "More inputs" (all but a calculator's declared main inputs) and "Rule choices" wait
        # closed, built when first opened (or when the URL or the caller sets one of their inputs):
        # most players never change them, and they are most of a big form's models.
        readings = tuple(i.key for i in calc.inputs if i.kind == "interpretation")
        sections = {"More inputs": calc.folded_inputs(), "Rule choices": readings} if pool is not None else {}
        self._folded = {name: keys for name, keys in sections.items() if keys}
        defaults = calc.initial_values()
        untouched = [keys for keys in self._folded.values() if all(start[k] == defaults[k] for k in keys)]
        waiting = {key for keys in untouched for key in keys}
        self._offerable = {*offerable_inputs(calc), *file_names(calc, self.uploads)}  # a variant's, a file's
        self.widgets: dict[str, pn.widgets.Widget] = {}
        # a word list of names from the data (stratagems, weapons, abilities): picked from a
        # searchable list under its text box, which still takes any text
        self.pickers: dict[str, pn.widgets.MultiChoice] = {}
        for i in calc.inputs:
            if i.key not in waiting:
                self._build(i, compare_with)
        self._on_new_widget: list[Any] = []  # also called with each input built later (URL sync)
        self._on_added_gone: list[Any] = []  # called with the keys of added inputs no longer shown
        # in a notebook the result pane shows the answer; served, LiveResult does (with its state:
        # stale marking, busy badge, typing without Enter) and the pane keeps the same HTML
        self.result = pn.pane.HTML("", css_classes=["rb-result"], sizing_mode="stretch_width")
        self.live = LiveResult(delay=_typing_delay(calc.id), sizing_mode="stretch_width")
        self._job: Job | None = None
        self._submitted = 0.0
        self._dirty = self._running = False
        self._shown: tuple[str, str] | None = None
        self._requested = 0  # the browser's count of typed values (LiveResult.request)
        self._pending = 0  # answers started (LiveResult.pending)
        self._answers = 0  # answers shown (the number each carries to the browser)
        self._closed = False
        self._last_good = ""  # the last answer that was not an error (kept under an error)
        self._mending = False  # setting inputs to agree with a pick (their changes answer nothing)
        self._notes: tuple[str, ...] = ()  # what the last pick set to agree, said above the answer
        if pool is not None:
            self.live.param.watch(self._on_request, "request")
        # a calculator a variant adds computes under it alone: nothing to compare with
        added_by = compare_with if calc.id not in registry().calculators else ""
        options = [added_by] if added_by else variant_options(calc, compare_with)
        self.compare = pn.widgets.Select(
            label="Compare with",
            options=options,
            value=compare_with,
            css_classes=["rb-input-variant"],
            stylesheets=[TAP_CSS],
        )
        self.compare.visible = len(options) > 1
        offer(calc, self.pickers, self.widgets, self.compared())  # and what a compared variant adds
        self.compare.param.watch(
            lambda e: offer(calc, self.pickers, self.widgets, self.compared(e.new)), "value"
        )
        # the inputs a compared variant adds (add: inputs), shown while it is compared
        self.added: dict[str, pn.widgets.Widget] = {}
        # (their own column only while there are some: an empty layout is a Bokeh validation warning)
        self.added_box = pn.Column(css_classes=["rb-added-inputs"], sizing_mode="stretch_width", margin=0)
        self.form: pn.Column | None = None  # the inputs' column, once built
        self._show_added(self.compared(), initial)
        self.compare.param.watch(lambda e: self._show_added(self.compared(e.new)), "value")
        for widget in [*self.widgets.values(), self.compare]:
            widget.param.watch(self._on_change, "value")
        uploadable = pool is not None and calc.choices is not None and not added_by
        self.variant_file = variant_file_input() if uploadable else None
        if self.variant_file is not None:
            self.variant_file.param.watch(self._on_variant_file, "value")
        # the rule texts in a native <details> block: one model, opened and closed in the browser
        self.rules = pn.pane.HTML(
            rules_block(registry().rules_named(calc.rules)), sizing_mode="stretch_width"
        )
        self.rules.visible = bool(calc.rules)  # (a calculator a variant adds cites no printed rule)
        # Served as a page of its own, the result stays in view while a long form scrolls.
        in_view = pool is not None and not embedded()
        folded = {key for keys in self._folded.values() for key in keys}
        fields: list[Any] = [self._placed(k, w) for k, w in self.widgets.items() if k not in folded]
        self.sections: dict[str, pn.Card] = {}
        for name, keys in self._folded.items():
            card = pn.Card(
                *(self._placed(k, self.widgets[k]) for k in keys if k in self.widgets),
                title=f"{name} ({len(keys)})",
                collapsed=keys[0] in waiting,
                css_classes=["rb-choices" if name == "Rule choices" else "rb-more"],
                sizing_mode="stretch_width",
            )
            card.param.watch(lambda e, name=name: e.new or self.build_section(name), "collapsed")  # opened
            self.sections[name] = card
            fields.append(card)
        self.choices = self.sections.get("Rule choices")  # the rule choices' section, served
        fields += [
            *([self.added_box] if self.added else []),
            self.compare,
            *([self.variant_file] if self.variant_file is not None else []),
        ]
        inputs = self.form = pn.Column(*fields, width=320, stylesheets=[FORM_COLUMN_CSS] if in_view else [])
        # Result first: beside the form on wide screens (row-reverse), above it on a phone.
        shown = self.live if pool is not None else self.result
        result_col = pn.Column(
            shown,
            css_classes=["rb-result-col"],
            min_width=300,
            stylesheets=[RESULT_COLUMN_CSS] if in_view else [],
        )
        result_col.styles = {"flex": "1 1 300px"}
        self.view = pn.Column(
            pn.pane.HTML(heading_html(calc.title, calc.summary, calc.id), sizing_mode="stretch_width"),
            pn.FlexBox(
                result_col,
                inputs,
                flex_direction="row-reverse",
                flex_wrap="wrap",
                justify_content="flex-end",
                sizing_mode="stretch_width",
            ),
            self.rules,
            sizing_mode="stretch_width",
        )
        self.refresh()

    def _placed(self, key: str, widget: pn.widgets.Widget) -> Any:
        """An input's place in the form: its widget, with its pick list beneath if it has one."""
        if key not in self.pickers:
            return widget
        return pn.Column(widget, self.pickers[key], sizing_mode="stretch_width", margin=0)

    def compared(self, value: Any = None) -> str | Variant:
        """What the form compares with (at drop-down ``value``): a listed name, or its own variant."""
        text = str(self.compare.value if value is None else value)
        return self._own if self._own is not None and text == self._own_label else text

    def values(self) -> dict[str, Any]:
        """What is in the widgets now (a rule choice not built yet: its start value), with the
        inputs the compared variant adds."""
        values = self.own_values()
        return {**values, **{key: widget.value for key, widget in self.added.items()}}

    def own_values(self) -> dict[str, Any]:
        """The values of the calculator's own inputs (without those a compared variant adds)."""
        values = {
            i.key: self.widgets[i.key].value if i.key in self.widgets else self._start[i.key]
            for i in self.calc.inputs
        }
        return {**values, **{key: box.path() for key, box in self.uploads.items()}}

    def _show_added(self, variant: str | Variant, start: dict[str, Any] | None = None) -> None:
        """Show the inputs ``variant`` adds to this calculator (label, help and default from their
        declaration, or ``start``'s value; a value already set is kept while they stay), and no
        others."""
        inputs = added_inputs(self.calc, variant)
        widgets: dict[str, pn.widgets.Widget] = {}
        built = []
        for inp in inputs:
            old = self.added.get(inp.key)
            if old is not None:
                widgets[inp.key] = old
                continue
            value = inp.initial
            if start and inp.key in start:
                with contextlib.suppress(InputError):
                    value = inp.parse(start[inp.key]) if isinstance(start[inp.key], str) else start[inp.key]
            widget = widgets[inp.key] = widget_for(inp, value)
            widget.param.watch(self._on_change, "value")
            built.append(widget)
        gone = [key for key in self.added if key not in widgets]
        self.added = widgets
        self.added_box.objects = list(widgets.values())
        if self.form is not None:  # the column of added inputs, just above Compare with, while any
            shown = [o for o in self.form.objects if o is not self.added_box]
            if widgets:
                shown.insert(shown.index(self.compare), self.added_box)
            self.form.objects = shown
        for call in self._on_added_gone:
            call(gone)
        for widget in built:  # (after self.added holds them: the address follows them)
            for follow in self._on_new_widget:
                follow(widget)

    def _build(self, inp: Input, compare_with: Any) -> pn.widgets.Widget:
        """The widget of one input (and its pick list, if its names come from the data)."""
        key = inp.key
        if key in self.uploads:
            widget = self.widgets[key] = self.uploads[key].widget(inp.title, [f"rb-input-{key}"])
            return widget
        widget = self.widgets[key] = widget_for(inp, self._start[key], key in self._offerable)
        found = picker_for(self.calc, inp, str(widget.value or ""), self.compared(compare_with))
        if found is not None:
            self.pickers[key] = found
            link_picker(widget, found)
        return widget

    def build_section(self, name: str) -> None:
        """Build the widgets of a folded section ("More inputs", "Rule choices") if they wait."""
        keys = self._folded.get(name, ())
        missing = [i for i in self.calc.inputs if i.key in keys and i.key not in self.widgets]
        if not missing:
            return
        built = [self._build(i, self.compare.value) for i in missing]
        self.widgets = {i.key: self.widgets[i.key] for i in self.calc.inputs if i.key in self.widgets}
        offer(self.calc, self.pickers, self.widgets, self.compared())
        for widget in built:
            widget.param.watch(self._on_change, "value")
            for call in self._on_new_widget:
                call(widget)
        self.sections[name].objects = [self._placed(k, self.widgets[k]) for k in keys]

    def refresh(self) -> None:
        """Recompute and redraw, or show the one-line error (served: schedule it in the pool)."""
        if self.pool is not None:
            self._schedule()
            return
        if self.compare.value != NO_VARIANT:  # baseline and variant side by side
            self.result.object = form_result_html(self.calc, self.values(), self.compared())
            return
        try:
            result = self.calc.run(**self.values())
        except InputError as exc:
            self.result.object = error_html(str(exc))
            return
        self.result.object = mended_html(self._notes) + result_html(self.calc.outputs, result, styled=True)

    def _on_change(self, event: Any) -> None:
        if self._mending:
            return  # an input set to agree with a pick: the pick's own change answers
        if event.obj is self.compare:
            self._refused = ""  # a variant picked: the refusal of the address's one is past
        for key in self.uploads:
            if event.obj is self.widgets.get(key):
                if not event.new:  # the upload box clears itself before each file: nothing to answer
                    return
                try:  # (and the names it holds offered in the pick lists)
                    keep_upload(self.calc, self.uploads, key, self.widgets[key], self.pickers, self.widgets)
                except InputError as exc:
                    self._shown = None  # the one-line error; the next change computes again
                    self._show(error_html(str(exc)), self._requested, self._pending)
                    return
        self._mend(next((k for k, w in self.widgets.items() if w is event.obj), ""))
        self.refresh()

    def _mend(self, changed: str) -> None:
        """After a pick, set the other input of each relation it broke and say so (:func:`~rulesbook.relations.mend`)."""
        found = mend(self.calc, self.own_values(), changed)
        self._notes, self._mending = found.notes, True
        try:
            for key, value in found.changes:
                widget = self.widgets.get(key)
                if widget is None:  # folded and not built yet: it starts at the new value
                    self._start[key] = value
                else:  # a choice, a check box or a number as itself, else the text of the value
                    typed = isinstance(widget, pn.widgets.Checkbox | pn.widgets.IntInput | pn.widgets.Select)
                    widget.value = value if typed else form_text(self.calc.input(key), value)
        finally:
            self._mending = False

    def _on_variant_file(self, event: Any) -> None:
        """Served: compare with the variant file the player uploaded, sent as text and read as data
        (:func:`widgets.forms.compare.uploaded_variant`); a refusal is its one line."""
        if event.new:  # (the control clears itself before each file)
            try:
                found = uploaded_variant(self.calc, event.new, self.variant_file.filename)
                label = found.name + UPLOADED  # (an earlier file's replaced: one at a time)
                self._own, self._own_label, self._refused = found, label, ""
                options = [o for o in self.compare.options if not str(o).endswith(UPLOADED)]
                self.compare.param.update(options=[*options, label], value=label, visible=True)
            except InputError as exc:
                self._refused = str(exc)
            self._shown = None
            self.refresh()

    def _on_request(self, event: Any) -> None:
        self._requested = int(event.new)
        self._schedule()

    def _schedule(self) -> None:
        """Answer at once if that is cheap; else mark the answer stale and make sure one is
        computed in the pool for the current values."""
        if not self._running and self._answer_now():
            return
        self._dirty = True
        self._pending += 1
        self.live.pending = self._pending
        if not self._running:
            self._running = True
            pn.state.execute(self._answer_loop)
        elif self._job is not None and time.monotonic() - self._submitted > SUPERSEDED_AFTER_S:
            self._job.cancel()  # a newer input made it useless: free its worker

    async def _answer_loop(self) -> None:
        """Compute in the pool until the answer shown is the one for the current values."""
        try:
            while self._dirty:
                self._dirty = False
                values, variant = self.values(), self.compared()
                ticket, covers = self._requested, self._pending
                key = (repr(sorted(values.items())), variant)
                html = None
                if key != self._shown and _answers_inline(self.calc.id, values):
                    html = self._compute_here(values, variant)
                elif key != self._shown:
                    html = await self._compute(values, variant)
                    if html is None and not self._closed:
                        self._dirty = True  # dropped with no newer input to answer: compute it again
                if self._closed:
                    return
                if self._dirty:
                    continue  # the values changed meanwhile: that answer is already stale
                # (no pn.io.hold here: in this unlocked callback a hold that finds the document
                # already held leaves the answer waiting for the next event of the session)
                if html is not None:
                    self._shown = key
                self._show(html, ticket, covers)
        except Exception:  # a bug: in the server's log, and one line instead of a stale answer
            LOG.exception("%s: answering failed", self.calc.id)
            self._shown = None
            message = error_html(f"{self.calc.id}: the server could not compute this (see its log)")
            self._show(message, self._requested, self._pending)
        finally:
            self._running = False
            self._dirty = False

    def _show(self, html: str | None, ticket: int, covers: int) -> None:
        """Put an answer on the page (``None``: the one shown is still right) and say which typed
        values (``ticket``) and started answers (``covers``) it answers, in one update."""
        update: dict[str, Any] = {"done": ticket, "answered": covers}
        if html is not None:
            self.result.object = html
            self._answers += 1
            update["answer"] = (self._answers, html)
        update["latest"] = self._answers  # so a page that missed an answer knows it (widgets.forms.live)
        self.live.param.update(update)

    def _answer_now(self) -> bool:
        """A cheap calculator's answer, in this very callback (no extra turn of the event loop, no
        pending count to send): True if it was shown."""
        values, variant = self.values(), self.compared()
        if not _answers_inline(self.calc.id, values):
            return False
        key = (repr(sorted(values.items())), variant)
        html = None
        if key != self._shown:
            html = self._compute_here(values, variant)
            self._shown = key
        self._show(html, self._requested, self._pending)
        return True

    def _compute_here(self, values: dict[str, Any], variant: str | Variant) -> str:
        """A cheap answer, on the event loop (see :data:`INLINE_BELOW_S`)."""
        start = time.perf_counter()
        try:
            html = self._render(answer(self.calc.id, values, variant))
        except Exception as exc:  # a bug: logged, one line for the player
            LOG.exception("%s %r failed", self.calc.id, values)
            html = error_html(f"{self.calc.id}: the server could not compute this ({type(exc).__name__})")
        _note_answer_time(self.calc.id, time.perf_counter() - start)
        self.live.delay = _typing_delay(self.calc.id)
        return html

    async def _compute(self, values: dict[str, Any], variant: str | Variant) -> str | None:
        """One answer from the pool: its HTML, the limit message, or None if it was dropped."""
        assert self.pool is not None
        self._submitted = time.monotonic()
        job = self._job = self.pool.submit(answer, self.calc.id, values, variant)
        try:
            found: Answer = await asyncio.wrap_future(job.future)
            html = self._render(found)  # values from the worker, rendered here
        except JobCancelled:
            return None  # superseded by a newer input (or the session ended)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():  # this loop itself is cancelled (the
                job.cancel()  # server stops): end it, never submit the job again
                raise
            return None  # the job's future was cancelled: dropped like a superseded one
        except TimeLimitError as exc:
            html = error_html(f"{self.calc.id}: {exc}")
        except Exception as exc:  # JobError (the calculator raised) or a worker that died
            LOG.error("%s %r failed:\n%s", self.calc.id, values, exc)
            first = str(exc).splitlines()[0][:120]
            html = error_html(f"{self.calc.id}: the server could not compute this ({first})")
        finally:
            self._job = None
        _note_answer_time(self.calc.id, job.seconds)
        self.live.delay = _typing_delay(self.calc.id)
        return html

    def _render(self, found: Answer) -> str:
        """An answer's HTML. A wrong or half-typed value gives its one-line error above the last
        good answer (dimmed, so a stratagem typed letter by letter never blanks the result) and
        marks its input (class ``rb-invalid``)."""
        own = self._own if self._own is not None and found.variant == self._own.name else None
        html = mended_html(self._notes) + answer_html(found, own)
        if self._refused:
            html = error_html(self._refused) + html
        self._mark(found.error_key if found.error else "")
        if not found.error:
            self._last_good = html
            return html
        if not self._last_good:
            return html
        return (
            f'{html}<div class="rb-kept" style="opacity:.5"><p style="font:13px system-ui,sans-serif;'
            f'color:#555;margin:.2em 0">The last answer, until the value is complete:</p>{self._last_good}</div>'
        )

    def _mark(self, key: str) -> None:
        """Mark the input ``key`` (none: every input clear)."""
        for name, widget in {**self.widgets, **self.added}.items():
            classes = [c for c in widget.css_classes if c != "rb-invalid"]
            if name == key:
                classes.append("rb-invalid")
            if classes != list(widget.css_classes):
                widget.css_classes = classes

    def close(self) -> None:
        """The session ended: drop its computation and delete its uploaded files."""
        self._closed = True
        self._dirty = False
        if self._job is not None:
            self._job.cancel()
        for box in self.uploads.values():
            box.discard()

    def sync_url(self) -> None:
        """Keep the page's query string and the form in step (``?ld=7&variant=NAME``): the URL's
        values fill the form when the page opens, and every change is written back, so a
        comparison can be bookmarked and sent.

        One pass over the query and one watcher for the whole form (Panel's per-widget
        ``location.sync`` re-reads every synced widget at each call: quadratic in the inputs,
        about a second for a 40-input form)."""
        location = pn.state.location
        if location is None:
            return
        # the query the page was asked with (the session's arguments: the websocket that may
        # build this session has no query of its own, rulesbook serve --processes)
        raw = {key: query_text(values[-1]) for key, values in (pn.state.session_args or {}).items() if values}
        for name, keys in self._folded.items():
            if any(key in keys for key in raw):
                self.build_section(name)  # a link that sets a folded input shows it
                self.sections[name].collapsed = False
        synced = {key: w for key, w in self.widgets.items() if key not in self.uploads}  # never a file
        synced["variant"] = self.compare
        # the variant first: the inputs it adds are shown then, and the address may set them too
        for key, text in sorted(raw.items(), key=lambda item: item[0] != "variant"):
            widget = synced[key] if key in synced else self.added.get(key)
            if widget is None:
                continue
            if widget is self.compare and text not in self.compare.options:  # a name, never a file
                self._refused = address_refusal(text)
                continue
            with contextlib.suppress(ValueError, TypeError):  # else the form keeps its start value
                widget.value = from_query(widget, text)
        if self._refused:  # shown with the answer
            self._shown = None
            self.refresh()
        synced.update(self.added)
        query = {**raw, **{key: to_query(w.value) for key, w in synced.items()}}
        location.search = "?" + urllib.parse.urlencode(query)

        def write_back(*events: Any) -> None:
            for key, widget in synced.items():
                if any(e.obj is widget for e in events):
                    query[key] = to_query(widget.value)
            location.search = "?" + urllib.parse.urlencode(query)

        def follow(widget: pn.widgets.Widget) -> None:  # a rule choice built later, an added input
            synced.update({key: w for key, w in {**self.widgets, **self.added}.items() if w is widget})
            widget.param.watch(write_back, "value")

        def forget(keys: list[str]) -> None:  # added inputs no longer shown leave the address
            for key in keys:
                synced.pop(key, None)
                query.pop(key, None)

        for widget in synced.values():
            widget.param.watch(write_back, "value")
        self._on_new_widget.append(follow)
        self._on_added_gone.append(forget)


def calculator_app(calc_id: str, **initial: Any) -> pn.viewable.Viewable:
    """A Panel layout for ``calc_id``."""
    return CalculatorApp(registry().calculator(calc_id), **initial).view


def served_calculator_app(
    calc_id: str, pool: ComputePool | None = None, added_by: str = ""
) -> pn.viewable.Viewable:
    """The served page of ``calc_id``: inputs and the compared variant follow the URL's query
    string; with a ``pool``, answers are computed there (see the module's docstring).
    ``added_by``: the name of the operator's variant that adds ``calc_id`` (``add:
    calculators``), under which its page computes (the published rules have no such calculator)."""
    if added_by:
        calc = form_calculator(calc_id, added_by)[0]
        app = CalculatorApp(calc, added_by, pool=pool)
    else:
        app = CalculatorApp(registry().calculator(calc_id), pool=pool)
    app.sync_url()
    if "embed" in (pn.state.session_args or {}):  # inside a site page, which shows the rule texts
        app.rules.object = rules_block(registry().rules_named(app.calc.rules), opened=False)
    if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
        pn.state.on_session_destroyed(lambda _context: app.close())
    return app.view
