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
game id (its address) when it opens, but the game's file (:class:`widgets.army_morale.games.GameStore`) is
written only at its first change: pages opened and left alone leave nothing in the games folder.

Nothing that discards recorded events happens on one click: undo, a new game and loading a log
over a game in progress first show what would go (``am-confirm``, text ``am-confirm-text``)
and wait for ``am-confirm-yes`` or ``am-confirm-no``.

"Saved" means the server holds a file that opens again (:meth:`widgets.army_morale.games.GameStore.storable`);
a stored game that does not open is shown read-only (``am-read-only``, ``data-key="read-only"``):
no form, nothing writes to it, and the download button gives its file as it is.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

from rulesbook.errors import InputError
from rulesbook.inputs import IntInput
from rulesbook.systems.army_morale.log import EVENT_TYPES, RALLY_INPUTS, GameLog
from rulesbook.systems.army_morale.logfile import log_from_text, log_to_text
from rulesbook.systems.army_morale.rules import SIDES
from rulesbook.systems.army_morale.tracker import FORM_SLOTS, Tracker, form_boxes
from widgets.army_morale.games import (
    MAX_LOG_BYTES,
    ArmyLists,
    GameStore,
    NotStorable,
    SaveError,
    Unreadable,
    version,
)
from widgets.army_morale.saved_games import (
    blank_text,
    games_html,
    last_game_component,
    read_only_html,
    save_state_html,
    saved_game_line,
    saved_games,
)
from widgets.army_morale.session import (
    HOW_IT_WORKS,
    PLACEHOLDERS,
    Session,
    box_value,
    event_help,
    question_box,
)
from widgets.army_morale.setup_form import SetupForm
from widgets.forms.uploads import checked_file_input, uploaded_text
from widgets.server.page import tap_sized

__all__ = ["TrackerView", "make_tracker"]


class _Stale(Exception):
    """The stored game moved on since this page last showed it (carries the latest text)."""

    def __init__(self, text: str) -> None:
        super().__init__("stale")
        self.text = text


class _Refused(Exception):
    """The action was refused by the rules (the session's error line says why)."""


DOWNLOAD = ("army-morale-game.yaml", "Download game log (YAML)")

POLL_MS = 1000
"""How often a served tracker page looks whether another tab or process changed its game."""


class TrackerView:
    """The Panel tracker. ``.view`` is the layout; ``.session`` holds the tracker.

    Served (with a ``store``), the page's game is the file on the server: every change is
    applied to the latest stored version under the store's lock (:meth:`GameStore.change`),
    and :meth:`poll` shows what other tabs record. Without a game on the server the page shows
    the set-up form (:class:`widgets.army_morale.setup_form.SetupForm`), unless ``demo`` asks for the
    demo armies.
    """

    def __init__(
        self,
        tracker: Tracker | None = None,
        store: GameStore | None = None,
        game: str | None = None,
        *,
        demo: bool = False,
        lists: ArmyLists | None = None,
    ) -> None:
        import panel as pn

        self.session = Session(tracker, site="/site/" if store is not None else "")
        self.store, self.game = store, game or ""
        self.stored = False  # whether the store holds this game yet (written at its first change)
        self.base = ""  # the version (widgets.army_morale.games.version) of the stored text this page shows
        self.seen: tuple[int, int, int] | None = None  # the file's stamp when last looked at
        self.save_error = ""  # the last save's failure ("" once a save succeeded)
        self.problem = ""  # why the stored game does not open ("": it does); then the page is read-only
        self.demo = demo
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
        self.confirm_text, self.confirm = question_box(
            "am-confirm", "Yes, go ahead", "No, keep the game", self.answer
        )
        new_game.on_click(lambda _e: self.ask_new_game())
        add.on_click(lambda _e: self._do(self.session.add, self._values(self.event), rebase=True))
        end.on_click(
            lambda _e: self._do(
                self.session.end_rally, self._values(self.rally["a"]), self._values(self.rally["b"])
            )
        )
        undo.on_click(lambda _e: self.ask_undo())
        self.upload = checked_file_input(".yaml,.yml,.json", "Load a game log", ["am-upload"], MAX_LOG_BYTES)
        self.saved = pn.pane.HTML("", css_classes=["am-saved"], sizing_mode="stretch_width")
        self.upload.param.watch(self._on_upload, "value")
        self.download = download = w.FileDownload(
            callback=self.download_file, filename=DOWNLOAD[0], label=DOWNLOAD[1], css_classes=["am-download"]
        )
        self.status = pn.pane.HTML("", sizing_mode="stretch_width", css_classes=["am-status-pane"])
        self.read_only = pn.pane.HTML("", visible=False, css_classes=["am-read-only"])
        self.note = pn.pane.HTML("", sizing_mode="stretch_width", css_classes=["am-note-pane"])
        # the served tracker: a way back to the last game and the list of the server's games
        self.last_game = last_game_component() if store is not None else None
        self.games = pn.pane.HTML("", sizing_mode="stretch_width", css_classes=["am-games-pane"])
        self.games.visible = store is not None
        self.setup = SetupForm(self.start_game, lists) if store is not None else None
        event_form = pn.Column("### One-time event", *self.event.values(), self.hint, add, width=330)
        rally_form = pn.Column(
            "### End of the Rally phase",
            pn.FlexBox(*(pn.Column(self.titles[s], *self.rally[s].values()) for s in SIDES)),
            pn.FlexBox(end, undo, new_game),
            self.confirm,
        )
        files = pn.Column(
            "### Export and import",
            "Download this game's log (the documented YAML log), or load one (YAML or JSON, schema in "
            "the Army Morale guide); it may hold turns already. A loaded log starts a new game page; "
            "this game stays at its own address.",
            download,
            self.upload,
            self.saved,
            sizing_mode="stretch_width",
        )
        # The values first: beside the forms on wide screens (row-reverse), above them on a phone.
        self.play = pn.FlexBox(
            pn.Column(self.note, self.status, css_classes=["rb-result-col"], styles={"flex": "1 1 340px"}),
            pn.FlexBox(event_form, rally_form, styles={"flex": "1 1 340px"}),
            flex_direction="row-reverse",
            flex_wrap="wrap",
            sizing_mode="stretch_width",
        )
        self.view = pn.Column(
            pn.pane.Markdown(
                "## Army Morale tracker\n\nRecord what happens; the ledger applies the rules "
                "(`army-morale.*`) and names the rule behind every change."
            ),
            pn.pane.HTML(HOW_IT_WORKS, sizing_mode="stretch_width", css_classes=["am-how"]),
            *([self.last_game] if self.last_game is not None else []),
            self.games,
            self.read_only,
            *([self.setup.view] if self.setup is not None else []),
            self.play,
            files,
            sizing_mode="stretch_width",
        )
        for widget in self.view.select(pn.widgets.Widget):
            tap_sized(widget)  # every box, stepper, check box and button a 44 px tap target
        self._kind()
        self._open_game()
        self._armies()
        self.refresh()
        self._show_games()

    @property
    def setting_up(self) -> bool:
        """Whether the page shows the set-up form (a served page with no game yet)."""
        return self.setup is not None and self.setup.view.visible

    def _set_mode(self, setting_up: bool) -> None:
        """The set-up form, or the game; neither for a game that does not open (read-only)."""
        read_only = bool(self.problem)
        if self.setup is not None:
            self.setup.view.visible = setting_up and not read_only
        self.play.visible, self.read_only.visible = not (setting_up or read_only), read_only
        name, label = (f"{self.game}.yaml", "Download the stored file as it is") if read_only else DOWNLOAD
        self.download.param.update(filename=name, label=label, visible=not setting_up)

    def _open_game(self) -> None:
        """Read the stored game of ``self.game``, or start a new page (served tracker).

        A new page gets its game id (and so its address) at once but is written only when the
        game starts (:meth:`start_game`) or at its first change: a page opened and left alone
        leaves no file behind. A well-formed id that names no file yet (a page reloaded before
        anything was recorded) is kept, so the address stays the same; anything else gets a
        fresh id. Without a stored game the page shows the set-up form, or the demo armies
        when asked for; a stored game that does not open is read-only, never the demo armies.
        """
        if self.store is None:
            self._set_mode(False)
            return
        text = self._load()
        if self.problem:
            return
        if text is not None:
            try:
                self.session.tracker = self._latest(text)
            except InputError as exc:
                self.show_read_only(exc.message)
                return
            self.stored, self.base = True, version(text)
            self.seen = self.store.stamp(self.game)
        elif not self.store.valid(self.game):
            self.game = self.store.new_id()
        self._set_mode(text is None and not self.demo)
        self._show_saved()

    def _load(self) -> str | None:
        """The stored text of this game (None: no file yet, or one that does not open: then the
        page turns read-only)."""
        assert self.store is not None
        try:
            return self.store.load(self.game)
        except Unreadable as exc:
            self.show_read_only(exc.reason)
            return None

    def show_read_only(self, reason: str) -> None:
        """Show this page's stored game read-only: its file does not open (``reason``). Nothing
        on the page writes to it; the download button gives the file as it is."""
        assert self.store is not None
        self.problem, self.stored, self.seen = reason, True, self.store.stamp(self.game)
        if self.pending is not None:
            self.answer(False)
        downloadable = self.store.raw(self.game) is not None
        self.read_only.object = read_only_html(reason, downloadable)
        self._set_mode(False)
        self.download.visible = downloadable
        self._show_saved()

    def start_game(self, log: GameLog) -> None:
        """Start the game the set-up form describes: stored at once, under this page's address."""
        if self.problem:
            return  # (read-only: this address holds a stored game that does not open)
        self.session.tracker = Tracker(log, self.session.tracker.choices)
        self.session.error = ""
        self._set_mode(False)
        self._armies()
        self.refresh()
        self._write(log_to_text(log))

    def _write(self, text: str, *, new_game: bool = False) -> bool:
        """Store ``text`` as this page's game (a new game id first if ``new_game``); whether the
        server holds it now."""
        if self.store is None:
            return False
        if new_game:
            self.game, self.stored, self.base = self.store.new_id(), False, ""

        def edit(current: str | None) -> str:
            if current is not None and version(current) != self.base:
                raise _Stale(current)  # another tab started this game meanwhile: never overwritten
            return text

        try:
            self.store.change(self.game, edit)
        except _Stale as stale:
            self.show_latest(stale.text, "Not started: this game was started in another tab; here it is.")
            return False
        except SaveError as exc:
            self._save_failed(exc)
            return False
        self._saved(text)
        return True

    def _saved(self, text: str) -> None:
        """After a save whose rename succeeded: the page shows this version, "Saved"."""
        assert self.store is not None
        self.stored, self.base, self.save_error = True, version(text), ""
        self.seen = self.store.stamp(self.game)
        self._show_saved()
        if self.on_game is not None:
            self.on_game(self.game)
        self._show_games()

    def _save_failed(self, exc: SaveError) -> None:
        """Say why the change is not saved; a stored file that does not open: read-only."""
        if isinstance(exc, Unreadable):
            self.show_read_only(exc.reason)
            return
        self.save_error = str(exc)
        again = "the game stays as last saved" if isinstance(exc, NotStorable) else "try again"
        self.session.error = f"{exc}: the last change is not recorded on the server; {again}"
        self.refresh()
        self._show_saved()

    def _show_saved(self) -> None:
        """Say where this game is kept and whether the last change is saved (:func:`save_state_html`)."""
        self.saved.object = save_state_html(self.game, self.stored, self.save_error, bool(self.problem))

    def _show_games(self) -> None:
        """List the server's saved games and let the browser remember this one once it holds
        something (a page nobody played on is neither listed nor remembered)."""
        if self.store is None:
            return
        tracker = self.session.tracker
        blank = bool(self.problem) or self.setting_up
        blank = blank or (tracker.actions == 0 and log_to_text(tracker.log) == blank_text())
        line = None if blank else saved_game_line(self.game, tracker, 0.0)
        if line is not None and self.last_game is not None:
            self.last_game.param.update(game=self.game, title=line.title)
        self.games.object = games_html(saved_games(self.store), self.game)

    # -- one truth per game ---------------------------------------------------------------------
    def _latest(self, text: str) -> Tracker:
        """The stored text as a game (InputError naming the stored file when it does not open)."""
        return Tracker(log_from_text(text, f"{self.game}.yaml"), self.session.tracker.choices).checked()

    def show_latest(self, text: str, note: str) -> None:
        """Show the stored version ``text`` (another tab or process changed it) with ``note``."""
        try:
            latest = self._latest(text)
        except InputError as exc:
            self.show_read_only(exc.message)  # (a file that does not open is never overwritten)
            return
        self.session.tracker, self.problem = latest, ""
        self.stored, self.base = True, version(text)
        if self.pending is not None:  # a question about the version it replaces: asked again
            self.answer(False)
            note += " The open question was closed (it was about the earlier version)."
        self._set_mode(False)
        self._armies()
        self.say(note)
        self.refresh()
        self._show_saved()

    def say(self, note: str) -> None:
        """The page's note line (``data-key="note"``): what changed without this page asking."""
        self.note.object = f'<p class="am-note" data-key="note">{html.escape(note)}</p>' if note else ""

    def poll(self) -> None:
        """Show the game as stored if another tab or server process changed it (cheap: a stat)."""
        if self.store is None or not self.store.valid(self.game):
            return
        stamp = self.store.stamp(self.game)
        if stamp == self.seen:
            return
        self.seen, problem = stamp, self.problem
        text = self._load()
        if text is not None and (version(text) != self.base or problem):
            self.show_latest(text, "Updated: this game was changed in another tab or on another device.")

    def _do(self, action: Callable[..., None], *args: Any, rebase: bool = False) -> None:
        """Run an action on the latest version of the game and store the result.

        Unserved (or not started), the action simply runs. Served, it runs under the store's
        lock on the game as stored: if another tab changed the game since this page showed it,
        an event added in the same turn is added to the latest version (``rebase``); anything
        else is refused with a message and the page shows the latest version — a stale page
        never overwrites a newer game. "Saved" is shown only once the file was replaced; a
        failed write leaves the game as it was and says why.
        """
        if self.problem:
            return  # (read-only: nothing on this page writes to a stored game that does not open)
        if self.store is None or self.setting_up:
            action(*args)
            self.refresh()
            return
        shown = self.session.tracker
        rebased, on_disk = "", shown

        def edit(current: str | None) -> str:
            nonlocal rebased, on_disk
            self.session.tracker = shown
            if current is not None and version(current) != self.base:
                try:
                    latest = self._latest(current)
                except InputError:
                    latest = None
                if latest is None or not rebase or latest.turn != shown.turn:
                    raise _Stale(current)
                self.session.tracker, rebased, on_disk = latest, current, latest
                self.base = version(current)  # (what is on disk, whatever comes of this change)
            action(*args)
            if self.session.error:
                raise _Refused
            return log_to_text(self.session.tracker.log)

        self.say("")
        try:
            text = self.store.change(self.game, edit)
        except _Refused:
            self.refresh()
            return
        except _Stale as stale:
            self.show_latest(
                stale.text,
                "Not recorded: this game was changed in another tab or on another device. The page "
                "now shows its latest version; check it and try again (your entries are kept).",
            )
            return
        except SaveError as exc:
            self.session.tracker = on_disk  # (the game as stored: the latest, if this page was behind)
            if rebased:
                self.say("This page now shows the latest version (another tab or device had recorded more).")
            self._save_failed(exc)
            return
        if rebased:
            self.say("Added to the latest version of this game (another tab or device had recorded more).")
        self.refresh()
        self._saved(text)

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
        self.session.tracker = Tracker(self.session.tracker.log.without_turns(), self.session.tracker.choices)
        self.session.error = ""
        self.refresh()
        text = log_to_text(self.session.tracker.log)
        if text == blank_text() and self.store is not None:  # the demo armies, nothing played:
            self.game, self.stored, self.base = self.store.new_id(), False, ""  # written when changed
            self._show_saved()
            if self.on_game is not None:
                self.on_game(self.game)
            return
        self._write(text, new_game=True)

    @staticmethod
    def _values(widgets: Mapping[str, Any]) -> dict[str, Any]:
        return {key: widget.value for key, widget in widgets.items()}

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
        self.event["kind"].param.update(
            options=list(tracker.event_types())
        )  # 'effect' when the variant adds some
        for s, title in self.titles.items():
            title.object = f"<strong>{html.escape(tracker.log.army(s).name)} ({s})</strong>"

    def load_text(self, text: str, filename: str = "log.yaml") -> None:
        """Start from a game log's text (what the upload button does): a new game at a new
        address. A log whose stored form would be over the limits is not loaded (said so)."""
        before = self.session.tracker
        self.session.load(text, filename)
        loaded = self.session.tracker is not before
        stored = log_to_text(self.session.tracker.log) if loaded else ""
        try:
            if loaded and self.store is not None:
                self.store.storable(stored)
        except NotStorable as exc:
            self.session.tracker, loaded = before, False
            self.session.error = f"log: {filename} is not loaded: {str(exc).removeprefix('not saved: ')}"
        self._armies()
        self.refresh()
        if loaded:
            self.problem = ""
            self._set_mode(False)
            self._write(stored, new_game=True)

    def _on_upload(self, event: Any) -> None:
        if event.new is None:
            return
        try:
            text = uploaded_text(bytes(event.new), "log", MAX_LOG_BYTES)
        except InputError as exc:
            self.session.error = str(exc)
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
                widget.param.update(name=boxes[box].title, **box_value(box, boxes[box]))
        self.hint.object = event_help(kind)

    def refresh(self) -> None:
        """Redraw the status pane."""
        self.status.object = self.session.html()

    def download_file(self) -> Any:
        """What the download button gives: this game's log, or for a game that does not open
        (read-only) its stored file exactly as it is."""
        import io

        if self.problem and self.store is not None:
            return io.BytesIO(self.store.raw(self.game) or b"")
        return io.StringIO(log_to_text(self.session.tracker.log))


def make_tracker(log: GameLog | None = None) -> Any:
    """The Panel tracker layout (the example game's armies unless ``log`` is given)."""
    return TrackerView(Tracker(log) if log is not None else None).view


def served_tracker() -> Any:
    """The tracker as ``rulesbook serve`` serves it: the game of ``?game=<id>`` kept on the server."""
    import panel as pn

    args = pn.state.session_args or {}
    game = (args.get("game") or [b""])[0].decode("utf-8", "replace")
    view = TrackerView(store=GameStore(), game=game, demo="demo" in args, lists=ArmyLists())
    location = pn.state.location

    def show(game_id: str) -> None:
        if location is not None:  # (a demo page not yet changed reloads as the demo again)
            location.search = f"?game={game_id}" + ("&demo=1" if view.demo and not view.stored else "")

    def opened() -> None:
        show(view.game)  # the browser's location is synced once loaded
        pn.state.add_periodic_callback(view.poll, period=POLL_MS)  # (ends with the session)

    view.on_game = show
    pn.state.onload(opened)
    return view.view
