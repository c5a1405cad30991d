"""The Army Morale tracker's session and status view, shared by the Panel and ipywidgets trackers.

:class:`Session` is the one place both front-ends send their form values to (it holds the
current :class:`~rulesbook.systems.army_morale.tracker.Tracker` and the last error);
:func:`status_html` draws both values, the turn, the verdict, warnings and the ledger;
:data:`HOW_IT_WORKS` is the served page's help.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

from rulesbook.errors import InputError
from rulesbook.index import page_of
from rulesbook.inputs import ChoiceInput, Input, IntInput
from rulesbook.present import table_html
from rulesbook.registry import registry
from rulesbook.results import Table
from rulesbook.systems.army_morale.entries import LEDGER_COLUMNS, LEDGER_LABELS, Ledger, LedgerEntry
from rulesbook.systems.army_morale.log import EVENT_TYPES, RALLY_INPUTS, GameLog, event_kind
from rulesbook.systems.army_morale.logfile import log_from_text
from rulesbook.systems.army_morale.rules import SIDES
from rulesbook.systems.army_morale.tracker import (
    FORM_SLOTS,
    Tracker,
    event_from_form,
    form_boxes,
    rally_from_form,
)

__all__ = [
    "HOW_IT_WORKS",
    "PLACEHOLDERS",
    "RALLY_FIELDS",
    "STYLE",
    "Session",
    "box_value",
    "event_help",
    "ipy_tracker",
    "question_box",
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
.am-cards { display: none; }
.am-cards h3 { font-size: 1em; margin: .6em 0 .3em; }
.am-cards ol { list-style: none; margin: 0; padding: 0; }
.am-card { border: 1px solid #ccc; border-radius: 6px; padding: 6px 10px; margin: 0 0 8px; }
.am-card p { margin: .15em 0; }
.am-card .am-what { font-weight: 600; }
.am-card .am-when { color: #555; font-size: .85em; overflow-wrap: anywhere; }
.am-card a { display: inline-block; padding: 12px 0; line-height: 20px; }
.am-cards summary { padding: 12px 0; line-height: 20px; cursor: pointer; }
@media (max-width: 640px) {
  .am-cards { display: block; }
  .am-ledger { display: none; }
}
</style>"""

HOW_IT_WORKS = """<details class="am-how-it-works" style="font: .95rem system-ui, sans-serif">
<summary>How this tracker works</summary>
<p><b>Starting a game:</b> enter both armies (one row per detachment: points, strength in units or,
for War Engines, Damage Capacity) and each side's objectives, then <i>Start the game</i>. A wrong
field is named and nothing typed is lost. <i>Save this army as a list</i> keeps an army on this
server for the next game. The demo armies come only when asked for.</p>
<p><b>Saved:</b> the game is kept on this server at this page's address after every change;
"Saved" shows once the server has written it, and a failed write says so ("not saved: disk full").
A stored game holds at most 1,000,000 bytes and 50,000 values (some 5,500 events): a change past
that is refused and said so. A game whose file does not open is shown read-only, its file to
download; nothing overwrites it.</p>
<p><b>Two tabs or phones on one game</b> show the same events: each shows within a second what
another recorded, and an event added on a page that had not seen it yet is added after it. An
undo or an end of Rally on such a page is refused and the page shows the latest version; nothing
is overwritten.</p>
</details>"""
"""The served tracker page's help, folded under "How this tracker works"."""

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


def box_value(box: str, declared: Input) -> dict[str, Any]:
    """What a form box shows for a declared field: its label, and for a number its bounds and
    default (so a value typed for another kind never carries over)."""
    out: dict[str, Any] = {}
    if isinstance(declared, IntInput):
        out = {"start": declared.minimum, "end": declared.maximum, "value": declared.initial}
    elif isinstance(declared, ChoiceInput) and box != "side":
        out = {"options": list(declared.choices), "value": declared.initial}
    return out


TABLE_COLUMNS = tuple(c for c in LEDGER_COLUMNS if c != "line")
"""The tracker's ledger table: every column but the log line (the game is the server's file,
not one the player holds; places are said in words)."""

CARDS_SHOWN = 6
"""On a phone the newest entries are shown as cards; older ones wait under "Earlier entries"."""

PHASES = {"setup": "before the game", "battle": "during the turn", "rally": "Rally phase", "end": "step R4"}


def _rule_link(rule: str, site: str) -> str:
    """The rule behind an entry: its title, linked to its page on the site when ``site`` (the
    site's address, ``/site/`` when served) is given."""
    found = registry().rules.get(rule)
    title = html.escape(found.title if found is not None else rule)
    if not site or found is None:
        return title
    href = html.escape(site + page_of(rule, "rule").removesuffix(".md") + "/")
    return f'<a href="{href}">{title}</a>'


def entry_card(entry: LedgerEntry, names: tuple[str, str], site: str = "") -> str:
    """One ledger entry as a card for a phone: what happened in words first, then the change and
    both values after it, then the rule behind it (a link to its page when ``site`` is given).

    >>> from rulesbook.systems.army_morale.replay import LedgerEntry
    >>> entry = LedgerEntry(1, "battle", 0, "b", -3, 7, 4, "army-morale.one-time.bunker", "bunker destroyed (rolled 3)")
    >>> print(entry_card(entry, ("Blue host", "Red horde")))
    <li class="am-card"><p class="am-what">bunker destroyed (rolled 3)</p><p class="am-change"><b>Red horde −3</b> → Blue host 7 · Red horde 4</p><p class="am-rule">Objectives: Bunker</p><p class="am-when">turn 1, during the turn · army-morale.one-time.bunker</p></li>
    """
    a, b = (html.escape(n) for n in names)
    if entry.side is None:
        change = "no change"
    else:
        sign = "+" if entry.change >= 0 else "−"
        change = f"<b>{html.escape(names[SIDES.index(entry.side)])} {sign}{abs(entry.change)}</b>"
    when = PHASES[entry.phase] if entry.phase == "setup" else f"turn {entry.turn}, {PHASES[entry.phase]}"
    return (
        f'<li class="am-card"><p class="am-what">{html.escape(entry.note)}</p>'
        f'<p class="am-change">{change} → {a} {entry.a} · {b} {entry.b}</p>'
        f'<p class="am-rule">{_rule_link(entry.rule, site)}</p>'
        f'<p class="am-when">{when} · {html.escape(entry.rule)}</p></li>'
    )


def ledger_cards(ledger: Ledger, names: tuple[str, str], site: str = "") -> str:
    """The ledger as cards (newest first), shown instead of the table on a narrow screen: the
    newest :data:`CARDS_SHOWN`, the rest folded under "Earlier entries"."""
    cards = [entry_card(e, names, site) for e in reversed(ledger.entries)]
    shown, earlier = cards[:CARDS_SHOWN], cards[CARDS_SHOWN:]
    out = f'<div class="am-cards"><h3>Ledger (newest first)</h3><ol>{"".join(shown)}</ol>'
    if earlier:
        out += f"<details><summary>Earlier entries ({len(earlier)})</summary><ol>{''.join(earlier)}</ol></details>"
    return out + "</div>"


def status_html(tracker: Tracker, error: str = "", site: str = "") -> str:
    """Both values, the turn, the result, warnings, an error line and the ledger (newest first):
    a table on a wide screen, one card per entry on a phone (rules linked to their pages on the
    site at ``site`` when given). Once the game is over the turn shown is the one it ended in."""
    ledger = tracker.ledger()
    names = (tracker.log.army("a").name, tracker.log.army("b").name)
    parts = [STYLE, '<div class="am-status"><div class="am-values">']
    for side, value in zip(SIDES, ledger.values, strict=True):
        name = html.escape(tracker.log.army(side).name)
        parts.append(
            f'<div class="am-army"><span class="am-name">{name} ({side})</span>'
            f'<span class="am-number" data-key="{side}_value">{value}</span></div>'
        )
    over = ledger.ended_turn is not None
    turn = ledger.ended_turn if over else tracker.turn
    parts.append(
        f'<div class="am-army"><span class="am-name">{"last turn" if over else "turn"}</span>'
        f'<span class="am-number" data-key="turn">{turn}</span></div></div>'
    )
    parts.append(f'<p data-key="verdict">{html.escape(ledger.winner_text)}</p>')
    if error:
        parts.append(f'<p class="am-error" data-key="error">{html.escape(error)}</p>')
    parts += [f'<p class="am-warn">⚠ {html.escape(w)}</p>' for w in ledger.warnings]
    index = [LEDGER_COLUMNS.index(c) for c in TABLE_COLUMNS]
    rows = tuple(tuple(e.row()[i] for i in index) for e in reversed(ledger.entries))
    labels = tuple(c for c in LEDGER_LABELS if c.key != "line")
    ledger_table = Table("ledger", "Ledger (newest first)", TABLE_COLUMNS, rows, column_info=labels)
    # wide screens: the table, a long game's in its own box; phones: cards (ledger_cards)
    parts.append(f'<div class="am-ledger">{table_html(ledger_table)}</div>')
    parts.append(ledger_cards(ledger, names, site))
    parts.append("</div>")
    return "".join(parts)


def question_box(css: str, yes: str, no: str, answer: Callable[[bool], None]) -> tuple[Any, Any]:
    """A hidden yes/no question (Panel): its text pane (``<css>-text``) and its box (``<css>``,
    buttons ``<css>-yes`` and ``<css>-no``); a click calls ``answer(True)`` or ``answer(False)``."""
    import panel as pn

    text = pn.pane.HTML("", css_classes=[f"{css}-text"], sizing_mode="stretch_width")
    buttons = [
        pn.widgets.Button(label=yes, color="danger", css_classes=[f"{css}-yes"]),
        pn.widgets.Button(label=no, css_classes=[f"{css}-no"]),
    ]
    for button, said in zip(buttons, (True, False), strict=True):
        button.on_click(lambda _e, said=said: answer(said))
    box = pn.Column(
        text,
        pn.FlexBox(*buttons),
        visible=False,
        css_classes=[css],
        styles={"border": "2px solid #a00", "border-radius": "4px", "padding": "4px 8px"},
        sizing_mode="stretch_width",
    )
    return text, box


class Session:
    """The mutable holder both front-ends share: the current tracker and the last error."""

    def __init__(self, tracker: Tracker | None = None, site: str = "") -> None:
        self.tracker = tracker or Tracker.example()
        self.error = ""
        self.site = site  # the site's address, for links to the rules ("" in a notebook)

    def apply(self, action: Callable[[], Tracker]) -> None:
        """Run an action; an InputError becomes the error line and the session stays as it was.
        A refusal by the rules reads as its message alone (its field, ``log``, means nothing to
        a player); a form box's error keeps the box's name."""
        try:
            self.tracker = action()
            self.error = ""
        except InputError as exc:
            self.error = exc.message if exc.field == "log" else str(exc)

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
        return status_html(self.tracker, self.error, self.site)


def _ipy_event_form(tracker: Tracker) -> tuple[dict[str, Any], Any]:
    """The event form's widgets (each slot, shown only for the kinds that use it, relabelled for
    the kind chosen) and the kind's help line."""
    import ipywidgets as ipw

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
                for attr, value in box_value(name, boxes[name]).items():
                    if attr in ("options", "value"):
                        setattr(widget, attr, value)
        hint.value = html.escape(event_help(kind).replace("*", "").replace("`", ""))

    event["kind"].observe(show_kind, "value")
    show_kind()
    return event, hint


def _ipy_rally_form() -> dict[str, dict[str, Any]]:
    """Each side's Rally boxes: whole numbers, or text for the lists (captures, effects)."""
    import ipywidgets as ipw

    return {
        s: {
            key: ipw.IntText(value=0, description=f"{s}: {label}")
            if whole
            else ipw.Text(description=f"{s}: {label}", placeholder=ph)
            for key, label, whole, ph in RALLY_FIELDS
        }
        for s in SIDES
    }


def ipy_tracker(log: GameLog | None = None) -> Any:
    """The same tracker as an ipywidgets box (for notebooks).

    The box carries handles for scripts: ``.event`` and ``.rally`` (the input widgets),
    ``.add_event``, ``.end_rally``, ``.undo`` (buttons), ``.output`` and ``.session``; undo
    asks first in ``.confirm`` (``.confirm_yes``, ``.confirm_no``).
    """
    import ipywidgets as ipw

    session = Session(Tracker(log) if log is not None else None)
    event, hint = _ipy_event_form(session.tracker)
    rally = _ipy_rally_form()
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
