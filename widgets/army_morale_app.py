"""The Army Morale table-side tracker: Panel (served at ``/app/army-morale-tracker``) and ipywidgets.

Both front-ends only collect form fields and show what the ledger says; the logic is
:class:`rulesbook.systems.army_morale.tracker.Tracker` (every action replays the game log, so an
impossible action shows a one-line error and changes nothing). Panel and ipywidgets are imported
inside the functions, so importing this module is cheap.

Stable hooks for scripts and browser tests: the values are ``<span data-key="a_value">`` and
``data-key="b_value"`` (also ``turn``, ``verdict``, ``error``); inputs carry the CSS classes
``am-event-type``, ``am-side``, ``am-detachment``, ``am-war-engine``, ``am-number``,
``am-result``, ``am-reason`` and the buttons ``am-add-event``, ``am-end-rally``, ``am-undo``.
"""

from __future__ import annotations

import html
from typing import Any

from rulesbook.errors import InputError
from rulesbook.results import Table
from rulesbook.systems.army_morale.ledger import LEDGER_COLUMNS, GameLog, log_from_text, log_to_text
from rulesbook.systems.army_morale.tracker import EVENT_TYPES, Tracker, event_from_form, rally_from_form

__all__ = ["APPS", "TrackerView", "ipy_tracker", "make_tracker", "status_html"]

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


def status_html(tracker: Tracker, error: str = "") -> str:
    """Both values, the turn, the result, warnings, an error line and the ledger (newest first)."""
    ledger = tracker.ledger()
    a, b = ledger.values
    names = [html.escape(tracker.log.army(s).name) for s in ("a", "b")]
    parts = [STYLE, '<div class="am-status"><div class="am-values">']
    for side, name, value in (("a", names[0], a), ("b", names[1], b)):
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


class TrackerView:
    """The Panel tracker. ``.view`` is the layout; ``.tracker`` the current session."""

    def __init__(self, tracker: Tracker | None = None) -> None:
        import panel as pn

        self.tracker = tracker or Tracker.example()
        self.error = ""
        w = pn.widgets
        self.kind = w.Select(
            label="Event", options=list(EVENT_TYPES), value="losses", css_classes=["am-event-type"]
        )
        self.side = w.RadioButtonGroup(label="Side", options=["a", "b"], value="a", css_classes=["am-side"])
        self.detachment = w.Select(
            label="Detachment", options=self.tracker.detachment_choices(), css_classes=["am-detachment"]
        )
        self.war_engine = w.Select(
            label="War Engine", options=self.tracker.war_engine_choices(), css_classes=["am-war-engine"]
        )
        self.number = w.IntInput(label="Number", value=1, css_classes=["am-number"])
        self.result = w.Select(
            label="Catastrophic Damage", options=["destroyed", "wrecked"], css_classes=["am-result"]
        )
        self.reason = w.TextInput(label="Reason (adjustment)", css_classes=["am-reason"])
        self.hint = pn.pane.Markdown("")
        add = w.Button(label="Add event", color="primary", css_classes=["am-add-event"])
        add.on_click(self._add)
        self.kind.param.watch(lambda _e: self._hint(), "value")
        self.rally: dict[str, dict[str, Any]] = {}
        self.titles: dict[str, Any] = {}
        rally_columns = []
        for s in ("a", "b"):
            fields = {
                "blast_markers": w.IntInput(
                    label="Blast markers", value=0, start=0, css_classes=[f"am-{s}-blast"]
                ),
                "take_and_hold": w.TextInput(
                    label="Take & Hold D3 results", placeholder="2, 3", css_classes=[f"am-{s}-th"]
                ),
                "rescue_escorts": w.IntInput(
                    label="Escort units", value=0, start=0, css_classes=[f"am-{s}-rescue"]
                ),
                "cleanse": w.IntInput(
                    label="Cleanse objectives", value=0, start=0, css_classes=[f"am-{s}-cleanse"]
                ),
                "capture": w.TextInput(
                    label="Capture", placeholder="own 5, destroy 3", css_classes=[f"am-{s}-capture"]
                ),
            }
            self.rally[s] = fields
            self.titles[s] = pn.pane.Markdown("")
            rally_columns.append(pn.Column(self.titles[s], *fields.values()))
        end = w.Button(label="End Rally phase (step R4)", color="success", css_classes=["am-end-rally"])
        end.on_click(self._end_rally)
        undo = w.Button(label="Undo last", css_classes=["am-undo"])
        undo.on_click(self._undo)
        self.download = w.FileDownload(
            callback=self._log_file, filename="army-morale-game.yaml", label="Download game log"
        )
        self.upload = w.FileInput(accept=".yaml,.yml,.json", multiple=False, css_classes=["am-upload"])
        self.upload.param.watch(self._on_upload, "value")
        self.status = pn.pane.HTML("", sizing_mode="stretch_width", css_classes=["am-status-pane"])
        event_form = pn.Column(
            "### One-time event",
            self.kind,
            self.side,
            self.detachment,
            self.war_engine,
            self.number,
            self.hint,
            self.result,
            self.reason,
            add,
            width=330,
        )
        rally_form = pn.Column(
            "### End of the Rally phase",
            pn.Row(*rally_columns),
            pn.Row(end, undo),
            "### Your own armies",
            "Load a game log (YAML or JSON, schema in the Army Morale guide); it may hold turns already.",
            self.upload,
            self.download,
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

    def _armies(self) -> None:
        self.detachment.options = self.tracker.detachment_choices()
        self.war_engine.options = self.tracker.war_engine_choices()
        for s, title in self.titles.items():
            title.object = f"**{self.tracker.log.army(s).name} ({s})**"

    def load_text(self, text: str, filename: str = "log.yaml") -> None:
        """Start from a game log's text (its armies, options and any turns already played)."""

        def action() -> Tracker:
            log = log_from_text(text, filename, is_json=filename.lower().endswith(".json"))
            return Tracker(log).checked()

        self._apply(action)
        self._armies()

    def _on_upload(self, event: Any) -> None:
        if not event.new:
            return
        raw = event.new if isinstance(event.new, bytes) else str(event.new).encode()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.error = "log: the file is not UTF-8 text"
            self.refresh()
            return
        self.load_text(text, self.upload.filename or "log.yaml")

    def _hint(self) -> None:
        self.hint.object = f"*Number:* {NUMBER_HELP[self.kind.value]}"

    def refresh(self) -> None:
        """Redraw the status pane."""
        self.status.object = status_html(self.tracker, self.error)

    def _apply(self, action: Any) -> None:
        try:
            self.tracker = action()
            self.error = ""
        except InputError as exc:
            self.error = str(exc)
        self.refresh()

    def _add(self, _event: Any = None) -> None:
        self._apply(
            lambda: self.tracker.add(
                event_from_form(
                    self.kind.value,
                    side=self.side.value,
                    detachment=self.detachment.value or "",
                    war_engine=self.war_engine.value or "",
                    number=int(self.number.value or 0),
                    result=self.result.value,
                    reason=self.reason.value,
                )
            )
        )

    def _rally_side(self, side: str) -> Any:
        f = self.rally[side]
        return rally_from_form(
            blast_markers=int(f["blast_markers"].value or 0),
            take_and_hold=f["take_and_hold"].value,
            rescue_escorts=int(f["rescue_escorts"].value or 0),
            cleanse=int(f["cleanse"].value or 0),
            capture=f["capture"].value,
        )

    def _end_rally(self, _event: Any = None) -> None:
        self._apply(lambda: self.tracker.end_rally(self._rally_side("a"), self._rally_side("b")))

    def _undo(self, _event: Any = None) -> None:
        self._apply(self.tracker.undo)

    def _log_file(self) -> Any:
        import io

        return io.StringIO(log_to_text(self.tracker.log))


def make_tracker(log: GameLog | None = None) -> Any:
    """The Panel tracker layout (the example game's armies unless ``log`` is given)."""
    return TrackerView(Tracker(log) if log is not None else None).view


APPS = {"army-morale-tracker": make_tracker}


def ipy_tracker(log: GameLog | None = None) -> Any:
    """The same tracker as an ipywidgets box (for notebooks)."""
    import ipywidgets as ipw

    state = {"tracker": Tracker(log) if log is not None else Tracker.example(), "error": ""}
    tracker: Tracker = state["tracker"]  # type: ignore[assignment]
    kind = ipw.Dropdown(options=list(EVENT_TYPES), value="losses", description="Event")
    side = ipw.ToggleButtons(options=["a", "b"], description="Side")
    detachment = ipw.Dropdown(options=list(tracker.detachment_choices().items()), description="Detachment")
    engines = list(tracker.war_engine_choices().items())
    war_engine = ipw.Dropdown(
        options=engines, value=engines[0][1] if engines else None, description="War Engine"
    )
    number = ipw.IntText(value=1, description="Number")
    result = ipw.Dropdown(options=["destroyed", "wrecked"], description="Result")
    reason = ipw.Text(description="Reason")
    add = ipw.Button(description="Add event", button_style="primary")
    rally = {
        s: {
            "blast_markers": ipw.IntText(value=0, description=f"{s}: Blast"),
            "take_and_hold": ipw.Text(description=f"{s}: T&H", placeholder="2, 3"),
            "rescue_escorts": ipw.IntText(value=0, description=f"{s}: escorts"),
            "cleanse": ipw.IntText(value=0, description=f"{s}: Cleanse"),
            "capture": ipw.Text(description=f"{s}: Capture", placeholder="own 5"),
        }
        for s in ("a", "b")
    }
    end = ipw.Button(description="End Rally phase", button_style="success")
    undo = ipw.Button(description="Undo last")
    out = ipw.HTML()

    def show() -> None:
        out.value = status_html(state["tracker"], state["error"])  # type: ignore[arg-type]

    def apply(action: Any) -> None:
        try:
            state["tracker"] = action()
            state["error"] = ""
        except InputError as exc:
            state["error"] = str(exc)
        show()

    def rally_side(s: str) -> Any:
        f = rally[s]
        return rally_from_form(
            blast_markers=f["blast_markers"].value,
            take_and_hold=f["take_and_hold"].value,
            rescue_escorts=f["rescue_escorts"].value,
            cleanse=f["cleanse"].value,
            capture=f["capture"].value,
        )

    def current() -> Tracker:
        return state["tracker"]  # type: ignore[return-value]

    add.on_click(
        lambda _b: apply(
            lambda: current().add(
                event_from_form(
                    kind.value,
                    side=side.value,
                    detachment=detachment.value or "",
                    war_engine=war_engine.value or "",
                    number=number.value,
                    result=result.value,
                    reason=reason.value,
                )
            )
        )
    )
    end.on_click(lambda _b: apply(lambda: current().end_rally(rally_side("a"), rally_side("b"))))
    undo.on_click(lambda _b: apply(lambda: current().undo()))
    show()
    event_box = ipw.VBox([kind, side, detachment, war_engine, number, result, reason, add])
    rally_box = ipw.HBox([ipw.VBox(list(rally[s].values())) for s in ("a", "b")])
    box = ipw.VBox([ipw.HBox([event_box, ipw.VBox([rally_box, ipw.HBox([end, undo])])]), out])
    box.add_event, box.end_rally, box.undo, box.output = add, end, undo, out  # handles for scripts and tests
    box.fields = {
        "kind": kind,
        "side": side,
        "detachment": detachment,
        "war_engine": war_engine,
        "number": number,
        "result": result,
        "reason": reason,
        "rally": rally,
    }
    box.state = state
    return box
