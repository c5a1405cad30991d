"""The Army Morale table-side tracker: Panel (served at ``/app/army-morale-tracker``) and ipywidgets.

Both front-ends only collect form fields and show what the ledger says. The logic is
:class:`rulesbook.systems.army_morale.tracker.Tracker` (every action replays the game log, so an
impossible action shows a one-line error and changes nothing); :class:`Session` is the one
place both front-ends send their form values to. Panel and ipywidgets are imported inside the
functions, so importing this module is cheap.

Stable hooks for scripts and browser tests: the values are ``<span data-key="a_value">`` and
``data-key="b_value"`` (also ``turn``, ``verdict``, ``error``); the Panel inputs carry the CSS
classes ``am-event-type``, ``am-side``, ``am-detachment``, ``am-war-engine``, ``am-number``,
``am-result``, ``am-reason``, ``am-<side>-<rally field>``, ``am-upload`` and the buttons
``am-add-event``, ``am-end-rally``, ``am-undo``, ``am-new-game`` and ``am-download``.

The served tracker also lists the server's saved games (``am-games``, one row per game with
``data-game="<id>"`` and a link ``?game=<id>``) and, remembered in the browser's
``localStorage``, a link back to the last game played in this browser (``am-continue``), so a
player who opens the tracker from the navigation finds the game again. A served page gets its
game id (its address) when it opens, but the game's file (:class:`widgets.games.GameStore`) is
written only at its first change: pages opened and left alone leave nothing in the games folder.

Nothing that discards recorded events happens on one click: undo, a new game and loading a log
over a game in progress first show what would go (``am-confirm``, text ``am-confirm-text``)
and wait for ``am-confirm-yes`` or ``am-confirm-no``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

from rulesbook.errors import InputError
from rulesbook.inputs import ChoiceInput, Input, IntInput
from rulesbook.present import table_html
from rulesbook.results import Table
from rulesbook.systems.army_morale.log import EVENT_TYPES, RALLY_INPUTS, GameLog, event_kind
from rulesbook.systems.army_morale.logfile import log_from_text, log_to_text
from rulesbook.systems.army_morale.replay import LEDGER_COLUMNS, LEDGER_LABELS
from rulesbook.systems.army_morale.rules import SIDES
from rulesbook.systems.army_morale.tracker import (
    FORM_SLOTS,
    Tracker,
    event_from_form,
    form_boxes,
    rally_from_form,
)
from widgets.games import MAX_LOG_BYTES, GameStore
from widgets.saved_games import (
    blank_text,
    games_html,
    last_game_component,
    saved_game_line,
    saved_games,
)

__all__ = [
    "RALLY_FIELDS",
    "Session",
    "TrackerView",
    "ipy_tracker",
    "make_tracker",
    "status_html",
]

STYLE = """<style>
.am-status { font-family: system-ui, sans-serif; font-size: 15px; overflow-x: auto; }
.am-values { display: flex; flex-wrap: wrap; gap: .5em 2em; align-items: baseline; }
.am-army { display: flex; flex-direction: column; }
.am-army .am-name { font-size: .85em; color: #555; }
.am-army .am-number { font-size: 2.2em; font-weight: 700; }
.am-warn { color: #8a5a00; margin: .2em 0; }
.am-error { color: #a00; font-weight: 600; }
.am-status .rulesbook-table td, .am-status .rulesbook-table th { border: 1px solid #ccc; padding: 1px 6px; }
.am-status .rulesbook-table { border-collapse: collapse; font-size: .85em; }
.am-ledger { max-height: 60vh; overflow: auto; }
.am-ledger td:last-child { min-width: 16em; }
.am-ledger caption { position: sticky; left: 0; text-align: left; }
</style>"""

PLACEHOLDERS = {"take_and_hold": "2, 3", "capture": "own 5, destroy 3", "effects": "supply-lines=2"}

RALLY_FIELDS: tuple[tuple[str, str, bool, str], ...] = tuple(
    (f.key, f.title, isinstance(f, IntInput), PLACEHOLDERS.get(f.key, "")) for f in RALLY_INPUTS
)
"""The end-of-Rally form of one side (key of rally_from_form, label, is a whole number,
placeholder), from the declared report :data:`~rulesbook.systems.army_morale.log.RALLY_INPUTS`."""


def event_help(kind: str) -> str:
    """The help line of an event kind and of each box it uses (Markdown), from its declaration.

    >>> print(event_help("bunker-destroyed"))
    A side destroys one of its Bunker objectives: the opponent loses the D6 rolled. (`army-morale.one-time.bunker`)
    *Side:* the side (a or b). *D6 result:* the D6 rolled for the bunker (1 to 6). *Bunker:* the bunker's name (optional; each counts once).
    """
    declared = event_kind(kind)
    boxes = []
    for f in form_boxes(kind).values():
        bounds = f" ({f.minimum} to {f.maximum})" if isinstance(f, IntInput) else ""
        boxes.append(f"*{f.title}:* {f.help[:1].lower()}{f.help[1:].rstrip('.')}{bounds}.")
    return f"{declared.help} (`{declared.rule}`)\n" + " ".join(boxes)


def _box_value(box: str, declared: Input) -> dict[str, Any]:
    """What a form box shows for a declared field: its label, and for a number its bounds and
    default (so a value typed for another kind never carries over)."""
    out: dict[str, Any] = {}
    if isinstance(declared, IntInput):
        out = {"start": declared.minimum, "end": declared.maximum, "value": declared.initial}
    elif isinstance(declared, ChoiceInput) and box != "side":
        out = {"options": list(declared.choices), "value": declared.initial}
    return out


def status_html(tracker: Tracker, error: str = "") -> str:
    """Both values, the turn, the result, warnings, an error line and the ledger (newest first)."""
    ledger = tracker.ledger()
    parts = [STYLE, '<div class="am-status"><div class="am-values">']
    for side, value in zip(SIDES, ledger.values, strict=True):
        name = html.escape(tracker.log.army(side).name)
        parts.append(
            f'<div class="am-army"><span class="am-name">{name} ({side})</span>'
            f'<span class="am-number" data-key="{side}_value">{value}</span></div>'
        )
    parts.append(
        f'<div class="am-army"><span class="am-name">turn</span>'
        f'<span class="am-number" data-key="turn">{tracker.turn}</span></div></div>'
    )
    parts.append(f'<p data-key="verdict">{html.escape(ledger.winner_text)}</p>')
    if error:
        parts.append(f'<p class="am-error" data-key="error">{html.escape(error)}</p>')
    parts += [f'<p class="am-warn">⚠ {html.escape(w)}</p>' for w in ledger.warnings]
    rows = tuple(e.row() for e in reversed(ledger.entries))
    ledger_table = Table("ledger", "Ledger (newest first)", LEDGER_COLUMNS, rows, column_info=LEDGER_LABELS)
    # a long game's ledger scrolls in its own box, so the event form stays near on a phone
    parts.append(f'<div class="am-ledger">{table_html(ledger_table)}</div>')
    parts.append("</div>")
    return "".join(parts)


class Session:
    """The mutable holder both front-ends share: the current tracker and the last error."""

    def __init__(self, tracker: Tracker | None = None) -> None:
        self.tracker = tracker or Tracker.example()
        self.error = ""

    def apply(self, action: Callable[[], Tracker]) -> None:
        """Run an action; an InputError becomes the error line and the session stays as it was."""
        try:
            self.tracker = action()
            self.error = ""
        except InputError as exc:
            self.error = str(exc)

    def add(self, form: Mapping[str, Any]) -> None:
        """Add the event described by the event form (``kind``, ``side``, ``detachment``, ...)."""

        def action() -> Tracker:
            boxes: dict[str, Any] = {box: form.get(box) for box in form_boxes(form["kind"])}
            if "number" in boxes:
                boxes["number"] = int(boxes["number"] or 0)
            return self.tracker.add(event_from_form(form["kind"], **boxes))

        self.apply(action)

    def end_rally(self, a: Mapping[str, Any], b: Mapping[str, Any]) -> None:
        """Record step R4 from both sides' rally forms (see :data:`RALLY_FIELDS`)."""

        def side(form: Mapping[str, Any]) -> Any:
            values: dict[str, Any] = {
                k: int(form[k] or 0) if whole else str(form[k] or "") for k, _, whole, _ in RALLY_FIELDS
            }
            return rally_from_form(**values)

        self.apply(lambda: self.tracker.end_rally(side(a), side(b)))

    def undo(self) -> None:
        """Remove the last action."""
        self.apply(self.tracker.undo)

    def load(self, text: str, filename: str = "log.yaml") -> None:
        """Start from a game log's text (its armies, options and any turns already played)."""
        is_json = filename.lower().endswith(".json")
        self.apply(lambda: Tracker(log_from_text(text, filename, is_json=is_json)).checked())

    def html(self) -> str:
        """The status view."""
        return status_html(self.tracker, self.error)


class TrackerView:
    """The Panel tracker. ``.view`` is the layout; ``.session`` holds the tracker."""

    def __init__(
        self, tracker: Tracker | None = None, store: GameStore | None = None, game: str | None = None
    ) -> None:
        import panel as pn

        self.session = Session(tracker)
        self.store, self.game = store, game or ""
        self.stored = False  # whether the store holds this game yet (written at its first change)
        self.on_game: Callable[[str], None] | None = None  # told the game id after each save
        w = pn.widgets
        self.event = {
            "kind": w.Select(
                label="Event", options=list(EVENT_TYPES), value="losses", css_classes=["am-event-type"]
            ),
            "side": w.RadioButtonGroup(label="Side", options=list(SIDES), value="a"),
            "detachment": w.Select(label="Detachment"),
            "war_engine": w.Select(label="War Engine"),
            "number": w.IntInput(label="Number", value=1),
            "result": w.Select(label="Catastrophic Damage"),
            "reason": w.TextInput(label="Reason"),
            "bunker": w.TextInput(label="Bunker (optional)"),
            "effect": w.Select(label="Morale effect"),
        }
        for box in FORM_SLOTS:
            self.event[box].css_classes = [f"am-{box.replace('_', '-')}"]
        self.hint = pn.pane.Markdown("")
        self.event["kind"].param.watch(lambda _e: self._kind(), "value")
        self.rally = {
            s: {
                f.key: (
                    w.IntInput(label=f.title, value=f.initial, start=f.minimum, end=f.maximum)
                    if isinstance(f, IntInput)
                    else w.TextInput(label=f.title, placeholder=PLACEHOLDERS.get(f.key, ""))
                )
                for f in RALLY_INPUTS
            }
            for s in SIDES
        }
        for s, fields in self.rally.items():
            for key, widget in fields.items():
                widget.css_classes = [f"am-{s}-{key.replace('_', '-')}"]
        # army names come from logs and uploads: escaped HTML, never Markdown (which passes tags)
        self.titles = {s: pn.pane.HTML("", css_classes=[f"am-title-{s}"]) for s in SIDES}
        add = w.Button(label="Add event", color="primary", css_classes=["am-add-event"])
        end = w.Button(label="End Rally phase (step R4)", color="success", css_classes=["am-end-rally"])
        undo = w.Button(label="Undo last", css_classes=["am-undo"])
        new_game = w.Button(label="New game (same armies)", css_classes=["am-new-game"])
        self.pending: Callable[[], None] | None = None  # what waits for the player's confirmation
        self.confirm_text = pn.pane.HTML("", css_classes=["am-confirm-text"], sizing_mode="stretch_width")
        yes = w.Button(label="Yes, go ahead", button_type="danger", css_classes=["am-confirm-yes"])
        keep = w.Button(label="No, keep the game", css_classes=["am-confirm-no"])
        yes.on_click(lambda _e: self.answer(True))
        keep.on_click(lambda _e: self.answer(False))
        self.confirm = pn.Column(
            self.confirm_text,
            pn.FlexBox(yes, keep),
            visible=False,
            css_classes=["am-confirm"],
            styles={"border": "2px solid #a00", "border-radius": "4px", "padding": "4px 8px"},
            sizing_mode="stretch_width",
        )
        new_game.on_click(lambda _e: self.ask_new_game())
        add.on_click(lambda _e: self._do(self.session.add, self._values(self.event)))
        end.on_click(
            lambda _e: self._do(
                self.session.end_rally, self._values(self.rally["a"]), self._values(self.rally["b"])
            )
        )
        undo.on_click(lambda _e: self.ask_undo())
        self.upload = w.FileInput(accept=".yaml,.yml,.json", multiple=False, css_classes=["am-upload"])
        self.saved = pn.pane.HTML("", css_classes=["am-saved"], sizing_mode="stretch_width")
        self.upload.param.watch(self._on_upload, "value")
        download = w.FileDownload(
            callback=self._log_file,
            filename="army-morale-game.yaml",
            label="Download game log (YAML)",
            css_classes=["am-download"],
        )
        self.status = pn.pane.HTML("", sizing_mode="stretch_width", css_classes=["am-status-pane"])
        # the served tracker: a way back to the last game and the list of the server's games
        self.last_game = last_game_component() if store is not None else None
        self.games = pn.pane.HTML("", sizing_mode="stretch_width", css_classes=["am-games-pane"])
        self.games.visible = store is not None
        event_form = pn.Column("### One-time event", *self.event.values(), self.hint, add, width=330)
        rally_form = pn.Column(
            "### End of the Rally phase",
            pn.FlexBox(*(pn.Column(self.titles[s], *self.rally[s].values()) for s in SIDES)),
            pn.FlexBox(end, undo, new_game),
            self.confirm,
            "### Export and import",
            "Download this game's log (the documented YAML log), or load one (YAML or JSON, schema in "
            "the Army Morale guide); it may hold turns already. A loaded log starts a new game page; "
            "this game stays at its own address.",
            download,
            self.upload,
            self.saved,
        )
        self.view = pn.Column(
            pn.pane.Markdown(
                "## Army Morale tracker\n\nRecord what happens; the ledger applies the rules "
                "(`army-morale.*`) and names the rule behind every change."
            ),
            *([self.last_game] if self.last_game is not None else []),
            self.games,
            # The values first: beside the forms on wide screens (row-reverse), above them on a phone.
            pn.FlexBox(
                pn.Column(self.status, css_classes=["rb-result-col"], styles={"flex": "1 1 340px"}),
                pn.FlexBox(event_form, rally_form, styles={"flex": "1 1 340px"}),
                flex_direction="row-reverse",
                flex_wrap="wrap",
                sizing_mode="stretch_width",
            ),
            sizing_mode="stretch_width",
        )
        self._kind()
        self._open_game()
        self._armies()
        self.refresh()
        self._show_games()

    def _open_game(self) -> None:
        """Read the stored game of ``self.game``, or start a new game (served tracker).

        A new game gets its id (and so its address) at once but is written only at its first
        real change (:meth:`_persist`): a page opened and left alone leaves no file behind. A
        well-formed id that names no file yet (a page reloaded before anything was recorded)
        is kept, so the address stays the same; anything else gets a fresh id.
        """
        if self.store is None:
            return
        text = self.store.read(self.game)
        self.stored = text is not None
        if text is not None:
            self.session.load(text)
        elif not self.store.valid(self.game) or self.store.exists(self.game):
            self.game = self.store.new_id()  # (a file there that does not read is never overwritten)
        self._show_saved()

    def _persist(self, new_game: bool = False) -> None:
        """Write the whole log to the store after every change (nothing to do without a store).

        A game not yet on the server is written only once its log differs from a blank page's
        (the example armies, nothing recorded): until then a reload of its address gives the
        same blank page, so nothing is lost by not writing it.
        """
        if self.store is None:
            return
        if new_game:
            self.game, self.stored = self.store.new_id(), False
        text = log_to_text(self.session.tracker.log)
        if self.stored or text != blank_text():
            self.store.save(self.game, text)
            self.stored = True
        self._show_saved()
        if self.on_game is not None:
            self.on_game(self.game)
        self._show_games()

    def _show_saved(self) -> None:
        """Say where this game is kept (``data-key="game"``, shown from the page's opening)."""
        game = f"<code>{html.escape(self.game)}</code>"
        self.saved.object = (
            f'<p data-key="game">Saved on the server as game {game}: '
            "this page's address reopens it after a reload or a restart.</p>"
            if self.stored
            else f'<p data-key="game">This page is game {game}: it is saved on the server at its '
            "first change, and from then on this page's address reopens it after a reload or a "
            "restart.</p>"
        )

    def _show_games(self) -> None:
        """List the server's saved games and let the browser remember this one once it holds
        something (a page nobody played on is neither listed nor remembered)."""
        if self.store is None:
            return
        tracker = self.session.tracker
        blank = tracker.actions == 0 and log_to_text(tracker.log) == blank_text()
        line = None if blank else saved_game_line(self.game, tracker, 0.0)
        if line is not None and self.last_game is not None:
            self.last_game.param.update(game=self.game, title=line.title)
        self.games.object = games_html(saved_games(self.store), self.game)

    # -- confirmation before anything discards events ---------------------------------------------
    def ask(self, question: str, action: Callable[[], None]) -> None:
        """Show ``question`` with Yes / No; ``action`` runs only on Yes (:meth:`answer`)."""
        self.pending = action
        self.confirm_text.object = f'<p data-key="confirm">{html.escape(question)}</p>'
        self.confirm.visible = True

    def answer(self, yes: bool) -> None:
        """The player's answer to the open question: run the waiting action, or keep everything."""
        action, self.pending = self.pending, None
        self.confirm.visible = False
        self.confirm_text.object = ""
        if yes and action is not None:
            action()

    def ask_undo(self) -> None:
        """Undo the last action, once the player confirms what it removes."""
        last = self.session.tracker.last_action()
        if not last:
            self.session.error = "undo: nothing recorded yet"
            self.refresh()
            return
        self.ask(f"Undo {last}? It is removed from this game.", lambda: self._do(self.session.undo))

    def _kept_where(self) -> str:
        if self.store is None:
            return "Its events are discarded (download the log first to keep them)."
        return f"This game stays saved as game {self.game} (download its log to keep a copy)."

    def ask_new_game(self) -> None:
        """Start a new game with the same armies (after a confirmation if events are recorded)."""
        actions = self.session.tracker.actions
        if not actions:
            return  # nothing played: this already is a new game
        self.ask(
            f"Start a new game with the same armies? This one has {actions} recorded "
            f"action{'s' if actions != 1 else ''}. {self._kept_where()}",
            self.new_game,
        )

    def new_game(self) -> None:
        """The same armies with nothing played, as a new stored game."""
        self.session.tracker = Tracker(self.session.tracker.log.without_turns())
        self.session.error = ""
        self.refresh()
        self._persist(new_game=True)

    @staticmethod
    def _values(widgets: Mapping[str, Any]) -> dict[str, Any]:
        return {key: widget.value for key, widget in widgets.items()}

    def _do(self, action: Callable[..., None], *args: Any) -> None:
        action(*args)
        self.refresh()
        if not self.session.error:
            self._persist()

    @staticmethod
    def _choices(select: Any, choices: dict[str, str]) -> None:
        """Replace a drop-down's options and select one explicitly: the previous choice if it
        is still offered, else the first. (Options alone leave the browser showing an empty
        box while the form would still send a value.)"""
        previous = select.value
        select.options = choices
        ids = list(choices.values())
        select.value = previous if previous in ids else (ids[0] if ids else None)

    def _armies(self) -> None:
        tracker = self.session.tracker
        self._choices(self.event["detachment"], tracker.detachment_choices())
        self._choices(self.event["war_engine"], tracker.war_engine_choices())
        self._choices(self.event["effect"], tracker.effect_choices())
        self.event["kind"].options = list(tracker.event_types())  # 'effect' when the variant adds some
        for s, title in self.titles.items():
            title.object = f"<strong>{html.escape(tracker.log.army(s).name)} ({s})</strong>"

    def load_text(self, text: str, filename: str = "log.yaml") -> None:
        """Start from a game log's text (what the upload button does)."""
        before = self.session.tracker
        self.session.load(text, filename)
        self._armies()
        self.refresh()
        if self.session.tracker is not before:
            self._persist(new_game=True)

    def _on_upload(self, event: Any) -> None:
        if not event.new:
            return
        if len(event.new) > MAX_LOG_BYTES:
            self.session.error = f"log: the file is larger than {MAX_LOG_BYTES:,} bytes"
            self.refresh()
            return
        try:
            text = bytes(event.new).decode("utf-8")
        except UnicodeDecodeError:
            self.session.error = "log: the file is not UTF-8 text"
            self.refresh()
            return
        name = self.upload.filename or "log.yaml"
        actions = self.session.tracker.actions
        if not actions:
            self.load_text(text, name)
            return
        self.ask(
            f"Load {name} in place of this game ({actions} recorded action{'s' if actions != 1 else ''})? "
            f"{self._kept_where()}",
            lambda: self.load_text(text, name),
        )

    def _kind(self) -> None:
        """Show only the boxes of the chosen event kind, each labelled and bounded as declared."""
        kind = self.event["kind"].value
        boxes = form_boxes(kind)
        for box in FORM_SLOTS:
            widget = self.event[box]
            widget.visible = box in boxes
            if box in boxes:
                widget.param.update(name=boxes[box].title, **_box_value(box, boxes[box]))
        self.hint.object = event_help(kind)

    def refresh(self) -> None:
        """Redraw the status pane."""
        self.status.object = self.session.html()

    def _log_file(self) -> Any:
        import io

        return io.StringIO(log_to_text(self.session.tracker.log))


def make_tracker(log: GameLog | None = None) -> Any:
    """The Panel tracker layout (the example game's armies unless ``log`` is given)."""
    return TrackerView(Tracker(log) if log is not None else None).view


def served_tracker() -> Any:
    """The tracker as ``rulesbook serve`` serves it: the game of ``?game=<id>`` kept on the server."""
    import panel as pn

    args = pn.state.session_args or {}
    game = (args.get("game") or [b""])[0].decode("utf-8", "replace")
    view = TrackerView(store=GameStore(), game=game)
    location = pn.state.location

    def show(game_id: str) -> None:
        if location is not None:
            location.search = f"?game={game_id}"

    view.on_game = show
    pn.state.onload(lambda: show(view.game))  # the browser's location is synced once loaded
    return view.view


def ipy_tracker(log: GameLog | None = None) -> Any:
    """The same tracker as an ipywidgets box (for notebooks).

    The box carries handles for scripts: ``.event`` and ``.rally`` (the input widgets),
    ``.add_event``, ``.end_rally``, ``.undo`` (buttons), ``.output`` and ``.session``; undo
    asks first in ``.confirm`` (``.confirm_yes``, ``.confirm_no``).
    """
    import ipywidgets as ipw

    session = Session(Tracker(log) if log is not None else None)
    tracker = session.tracker
    engines = list(tracker.war_engine_choices().items())
    event = {
        "kind": ipw.Dropdown(options=list(EVENT_TYPES), value="losses", description="Event"),
        "side": ipw.ToggleButtons(options=list(SIDES), description="Side"),
        "detachment": ipw.Dropdown(
            options=list(tracker.detachment_choices().items()), description="Detachment"
        ),
        "war_engine": ipw.Dropdown(
            options=engines, value=engines[0][1] if engines else None, description="War Engine"
        ),
        "number": ipw.IntText(value=1, description="Number"),
        "result": ipw.Dropdown(options=["destroyed", "wrecked"], description="Result"),
        "reason": ipw.Text(description="Reason"),
        "bunker": ipw.Text(description="Bunker"),
        "effect": ipw.Dropdown(options=list(tracker.effect_choices().items()), description="Effect"),
    }
    event["kind"].options = list(tracker.event_types())
    hint = ipw.HTML()

    def show_kind(_change: Any = None) -> None:
        kind = event["kind"].value
        boxes = form_boxes(kind)
        for name in FORM_SLOTS:
            widget = event[name]
            widget.layout.display = None if name in boxes else "none"
            if name in boxes:
                widget.description = boxes[name].title
                for attr, value in _box_value(name, boxes[name]).items():
                    if attr in ("options", "value"):
                        setattr(widget, attr, value)
        hint.value = html.escape(event_help(kind).replace("*", "").replace("`", ""))

    event["kind"].observe(show_kind, "value")
    show_kind()
    rally = {
        s: {
            key: ipw.IntText(value=0, description=f"{s}: {label}")
            if whole
            else ipw.Text(description=f"{s}: {label}", placeholder=ph)
            for key, label, whole, ph in RALLY_FIELDS
        }
        for s in SIDES
    }
    add = ipw.Button(description="Add event", button_style="primary")
    end = ipw.Button(description="End Rally phase", button_style="success")
    undo = ipw.Button(description="Undo last")
    out = ipw.HTML(session.html())

    def values(widgets: Mapping[str, Any]) -> dict[str, Any]:
        return {key: widget.value for key, widget in widgets.items()}

    def do(action: Callable[..., None], *args: Any) -> None:
        action(*args)
        out.value = session.html()

    add.on_click(lambda _b: do(session.add, values(event)))
    end.on_click(lambda _b: do(session.end_rally, values(rally["a"]), values(rally["b"])))
    # undo asks first, saying what it removes (nothing discards events on one click)
    question = ipw.HTML()
    yes = ipw.Button(description="Yes, undo", button_style="danger")
    keep = ipw.Button(description="No, keep it")
    confirm = ipw.VBox([question, ipw.HBox([yes, keep])], layout=ipw.Layout(display="none"))

    def ask_undo(_b: Any) -> None:
        last = session.tracker.last_action()
        if last:
            question.value = html.escape(f"Undo {last}? It is removed from this game.")
            confirm.layout.display = None

    def answer(ok: bool) -> None:
        confirm.layout.display = "none"
        if ok:
            do(session.undo)

    undo.on_click(ask_undo)
    yes.on_click(lambda _b: answer(True))
    keep.on_click(lambda _b: answer(False))
    event_box = ipw.VBox([*event.values(), hint, add])
    rally_box = ipw.HBox([ipw.VBox(list(rally[s].values())) for s in SIDES])
    box = ipw.VBox([ipw.HBox([event_box, ipw.VBox([rally_box, ipw.HBox([end, undo]), confirm])]), out])
    box.event, box.rally, box.session, box.output = event, rally, session, out
    box.add_event, box.end_rally, box.undo = add, end, undo
    box.confirm, box.confirm_yes, box.confirm_no = confirm, yes, keep
    return box
