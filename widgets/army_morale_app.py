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
``am-add-event``, ``am-end-rally``, ``am-undo``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

from rulesbook.errors import InputError
from rulesbook.results import Table
from rulesbook.systems.army_morale.ledger import LEDGER_COLUMNS, GameLog, log_from_text, log_to_text
from rulesbook.systems.army_morale.rules import SIDES
from rulesbook.systems.army_morale.tracker import EVENT_TYPES, Tracker, event_from_form, rally_from_form

__all__ = ["APPS", "RALLY_FIELDS", "Session", "TrackerView", "ipy_tracker", "make_tracker", "status_html"]

STYLE = """<style>
.am-status { font-family: system-ui, sans-serif; }
.am-values { display: flex; gap: 2em; align-items: baseline; }
.am-army { display: flex; flex-direction: column; }
.am-army .am-name { font-size: .85em; color: #555; }
.am-army .am-number { font-size: 2.2em; font-weight: 700; }
.am-warn { color: #8a5a00; margin: .2em 0; }
.am-error { color: #a00; font-weight: 600; }
.am-status .rulesbook-table td, .am-status .rulesbook-table th { border: 1px solid #ccc; padding: 1px 6px; }
.am-status .rulesbook-table { border-collapse: collapse; font-size: .85em; }
</style>"""

NUMBER_HELP = {
    "losses": "units (or Damage Capacity) lost",
    "half-strength": "(not used)",
    "detachment-destroyed": "Blast markers it carried",
    "war-engine-destroyed": "(not used)",
    "bunker-destroyed": "D6 result",
    "adjustment": "amount (+/-)",
}

RALLY_FIELDS: tuple[tuple[str, str, bool, str], ...] = (
    # key of rally_from_form, label, is a whole number, placeholder
    ("blast_markers", "Blast markers", True, ""),
    ("take_and_hold", "Take & Hold D3 results", False, "2, 3"),
    ("rescue_escorts", "Escort units", True, ""),
    ("cleanse", "Cleanse objectives", True, ""),
    ("capture", "Capture", False, "own 5, destroy 3"),
)
"""The end-of-Rally form of one side, shared by both front-ends."""


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
    parts.append(Table("ledger", "Ledger (newest first)", LEDGER_COLUMNS, rows).to_html())
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
        self.apply(
            lambda: self.tracker.add(
                event_from_form(
                    form["kind"],
                    side=form["side"],
                    detachment=form["detachment"] or "",
                    war_engine=form["war_engine"] or "",
                    number=int(form["number"] or 0),
                    result=form["result"],
                    reason=form["reason"],
                )
            )
        )

    def end_rally(self, a: Mapping[str, Any], b: Mapping[str, Any]) -> None:
        """Record step R4 from both sides' rally forms (see :data:`RALLY_FIELDS`)."""

        def side(form: Mapping[str, Any]) -> Any:
            values = {
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

    def __init__(self, tracker: Tracker | None = None) -> None:
        import panel as pn

        self.session = Session(tracker)
        w = pn.widgets
        self.event = {
            "kind": w.Select(
                label="Event", options=list(EVENT_TYPES), value="losses", css_classes=["am-event-type"]
            ),
            "side": w.RadioButtonGroup(label="Side", options=list(SIDES), value="a", css_classes=["am-side"]),
            "detachment": w.Select(label="Detachment", css_classes=["am-detachment"]),
            "war_engine": w.Select(label="War Engine", css_classes=["am-war-engine"]),
            "number": w.IntInput(label="Number", value=1, css_classes=["am-number"]),
            "result": w.Select(
                label="Catastrophic Damage", options=["destroyed", "wrecked"], css_classes=["am-result"]
            ),
            "reason": w.TextInput(label="Reason (adjustment)", css_classes=["am-reason"]),
        }
        self.hint = pn.pane.Markdown("")
        self.event["kind"].param.watch(lambda _e: self._hint(), "value")
        self.rally = {
            s: {
                key: (
                    w.IntInput(label=label, value=0, start=0)
                    if whole
                    else w.TextInput(label=label, placeholder=ph)
                )
                for key, label, whole, ph in RALLY_FIELDS
            }
            for s in SIDES
        }
        for s, fields in self.rally.items():
            for key, widget in fields.items():
                widget.css_classes = [f"am-{s}-{key.replace('_', '-')}"]
        self.titles = {s: pn.pane.Markdown("") for s in SIDES}
        add = w.Button(label="Add event", color="primary", css_classes=["am-add-event"])
        end = w.Button(label="End Rally phase (step R4)", color="success", css_classes=["am-end-rally"])
        undo = w.Button(label="Undo last", css_classes=["am-undo"])
        add.on_click(lambda _e: self._do(self.session.add, self._values(self.event)))
        end.on_click(
            lambda _e: self._do(
                self.session.end_rally, self._values(self.rally["a"]), self._values(self.rally["b"])
            )
        )
        undo.on_click(lambda _e: self._do(self.session.undo))
        self.upload = w.FileInput(accept=".yaml,.yml,.json", multiple=False, css_classes=["am-upload"])
        self.upload.param.watch(self._on_upload, "value")
        download = w.FileDownload(
            callback=self._log_file, filename="army-morale-game.yaml", label="Download game log"
        )
        self.status = pn.pane.HTML("", sizing_mode="stretch_width", css_classes=["am-status-pane"])
        event_form = pn.Column("### One-time event", *self.event.values(), self.hint, add, width=330)
        rally_form = pn.Column(
            "### End of the Rally phase",
            pn.Row(*(pn.Column(self.titles[s], *self.rally[s].values()) for s in SIDES)),
            pn.Row(end, undo),
            "### Your own armies",
            "Load a game log (YAML or JSON, schema in the Army Morale guide); it may hold turns already.",
            self.upload,
            download,
        )
        self.view = pn.Column(
            pn.pane.Markdown(
                "## Army Morale tracker\n\nRecord what happens; the ledger applies the rules "
                "(`army-morale.*`) and names the rule behind every change."
            ),
            pn.Row(event_form, rally_form),
            self.status,
            sizing_mode="stretch_width",
        )
        self._hint()
        self._armies()
        self.refresh()

    @staticmethod
    def _values(widgets: Mapping[str, Any]) -> dict[str, Any]:
        return {key: widget.value for key, widget in widgets.items()}

    def _do(self, action: Callable[..., None], *args: Any) -> None:
        action(*args)
        self.refresh()

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
        for s, title in self.titles.items():
            title.object = f"**{tracker.log.army(s).name} ({s})**"

    def load_text(self, text: str, filename: str = "log.yaml") -> None:
        """Start from a game log's text (what the upload button does)."""
        self.session.load(text, filename)
        self._armies()
        self.refresh()

    def _on_upload(self, event: Any) -> None:
        if not event.new:
            return
        try:
            text = bytes(event.new).decode("utf-8")
        except UnicodeDecodeError:
            self.session.error = "log: the file is not UTF-8 text"
            self.refresh()
            return
        self.load_text(text, self.upload.filename or "log.yaml")

    def _hint(self) -> None:
        self.hint.object = f"*Number:* {NUMBER_HELP[self.event['kind'].value]}"

    def refresh(self) -> None:
        """Redraw the status pane."""
        self.status.object = self.session.html()

    def _log_file(self) -> Any:
        import io

        return io.StringIO(log_to_text(self.session.tracker.log))


def make_tracker(log: GameLog | None = None) -> Any:
    """The Panel tracker layout (the example game's armies unless ``log`` is given)."""
    return TrackerView(Tracker(log) if log is not None else None).view


APPS = {"army-morale-tracker": make_tracker}


def ipy_tracker(log: GameLog | None = None) -> Any:
    """The same tracker as an ipywidgets box (for notebooks).

    The box carries handles for scripts: ``.event`` and ``.rally`` (the input widgets),
    ``.add_event``, ``.end_rally``, ``.undo`` (buttons), ``.output`` and ``.session``.
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
    }
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
    undo.on_click(lambda _b: do(session.undo))
    event_box = ipw.VBox([*event.values(), add])
    rally_box = ipw.HBox([ipw.VBox(list(rally[s].values())) for s in SIDES])
    box = ipw.VBox([ipw.HBox([event_box, ipw.VBox([rally_box, ipw.HBox([end, undo])])]), out])
    box.event, box.rally, box.session, box.output = event, rally, session, out
    box.add_event, box.end_rally, box.undo = add, end, undo
    return box
