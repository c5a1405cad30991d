"""The Army Morale tracker's set-up form: a game from scratch, typed in the page.

A served tracker page that holds no game yet shows this form (``am-setup``): for each side its
army's name, one row per detachment (name, points, strength by units or Damage Capacity, units,
War Engines) and its objectives (how many Take & Hold, Cleanse and Capture objectives, and its
bunkers by name), and a title. **Start the game** (``am-start``) checks every field with the
rules it feeds (:func:`rulesbook.systems.army_morale.setup.army_from_form`): a wrong field gets a
one-line message naming it (``data-key="setup-error"``) and everything typed stays. The demo
armies come only on request (``am-demo``). A side's army can be kept as a saved army list on the
server (``am-save-list-<side>``, stored by :class:`widgets.army_morale.games.ArmyLists` beside the games) and
filled in again for the next game (``am-lists-<side>``, listed by army name, ``am-use-list-<side>``).
Lists never replace each other: each army name gets a file of its own, and saving an army whose
name a saved list already has asks first, beside that side's button (``am-list-confirm-<side>``,
text ``data-key="list-confirm"``, ``am-list-confirm-<side>-yes`` / ``am-list-confirm-<side>-no``).
A side can also be filled in from an Epic-scale roster of the army builders (``am-roster-<side>``:
BattleScribe ``.ros``/``.rosz`` or New Recruit ``.json``), each formation one detachment row: the
file is sent as data and read in memory (:mod:`rulesbook.systems.army_morale.roster`), nothing is
stored.

Hooks for scripts and tests: the army name box ``am-setup-<side>-name``, the detachment boxes
``am-det-<side>-<row>-<field>`` (row from 0; field ``name``, ``points``, ``strength``, ``units``,
``war-engines``), ``am-setup-<side>-add`` (one more row), the objective boxes
``am-setup-<side>-take-and-hold``, ``-cleanse``, ``-capture`` and ``-bunkers``, and
``am-setup-title``.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rulesbook.data import dump_yaml
from rulesbook.errors import InputError, RulesbookError
from rulesbook.rosters import SUFFIXES, roster_from_bytes
from rulesbook.systems.army_morale.log import Army, GameLog
from rulesbook.systems.army_morale.logfile import army_from_text, army_to_data
from rulesbook.systems.army_morale.objectives import OBJECTIVE_COUNTS
from rulesbook.systems.army_morale.roster import roster_army
from rulesbook.systems.army_morale.rules import SIDES
from rulesbook.systems.army_morale.setup import DETACHMENT_FIELDS, army_from_form, army_rows
from rulesbook.systems.army_morale.tracker import Tracker
from widgets.army_morale.games import ArmyLists, SaveError
from widgets.army_morale.session import question_box
from widgets.forms.uploads import BINARY_SUFFIXES, checked_file_input
from widgets.server.page import NUMERIC_CLASS, tap_sized

__all__ = ["FIRST_ROWS", "SetupForm"]

FIRST_ROWS = 3
"""Detachment rows each side starts with (``am-setup-<side>-add`` adds more)."""

STRENGTH_OPTIONS = {"units": "units", "Damage Capacity (War Engines)": "damage-capacity"}
PLACEHOLDERS = {
    "name": "Infantry company",
    "points": "225",
    "units": "20",
    "war_engines": "Baneblade 4 250 pts, …",
}
WIDTHS = {"name": 170, "points": 80, "strength": 150, "units": 190, "war_engines": 260}
"""Each box at least as wide as its label (side by side at 1280 px, no label runs into the next)."""


class SetupForm:
    """The set-up form; ``on_start(log)`` gets the checked game (``.view`` is the layout)."""

    def __init__(self, on_start: Callable[[GameLog], None], lists: ArmyLists | None = None) -> None:
        import panel as pn

        self.on_start, self.lists = on_start, lists
        w = pn.widgets
        self.title = w.TextInput(label="Title (optional)", css_classes=["am-setup-title"], width=330)
        self.names: dict[str, Any] = {
            s: w.TextInput(label=f"Army {s}: name", css_classes=[f"am-setup-{s}-name"], width=330)
            for s in SIDES
        }
        self.rows: dict[str, list[dict[str, Any]]] = {s: [] for s in SIDES}
        self.row_boxes: dict[str, Any] = {s: pn.Column(sizing_mode="stretch_width") for s in SIDES}
        self.objectives: dict[str, dict[str, Any]] = {
            s: {
                **{
                    key: w.TextInput(
                        label=f"{label} objectives",
                        placeholder="0",
                        width=120,
                        css_classes=[f"am-setup-{s}-{key.replace('_', '-')}", NUMERIC_CLASS],
                    )
                    for key, label in OBJECTIVE_COUNTS
                },
                "bunkers": w.TextInput(
                    label="Bunkers (names, comma-separated)",
                    placeholder="north, south",
                    width=260,
                    css_classes=[f"am-setup-{s}-bunkers"],
                ),
            }
            for s in SIDES
        }
        self.error = pn.pane.HTML("", sizing_mode="stretch_width", css_classes=["am-setup-error"])
        self.replacing: Callable[[], None] | None = None  # a list replaced once the player says yes
        self.list_asks = {  # the question of each side, beside its button: (text, box)
            s: question_box(
                f"am-list-confirm-{s}", "Yes, replace it", "No, keep the saved list", self.answer_replace
            )
            for s in SIDES
        }
        self.list_choice: dict[str, Any] = {
            s: w.Select(label="Saved army lists", options=[], width=200, css_classes=[f"am-lists-{s}"])
            for s in SIDES
        }
        sides: list[Any] = []
        for s in SIDES:
            for _ in range(FIRST_ROWS):
                self.add_row(s)
            add = w.Button(label="Add a detachment", css_classes=[f"am-setup-{s}-add"])
            add.on_click(functools.partial(self._clicked, self.add_row, s))
            use = w.Button(label="Fill in this list", css_classes=[f"am-use-list-{s}"])
            use.on_click(functools.partial(self._clicked, self.use_list, s))
            keep = w.Button(label="Save this army as a list", css_classes=[f"am-save-list-{s}"])
            keep.on_click(functools.partial(self._clicked, self.save_list, s))
            saved = (
                [pn.FlexBox(self.list_choice[s], use, align_items="end"), keep, self.list_asks[s][1]]
                if lists is not None
                else []
            )
            roster = checked_file_input(
                ",".join(SUFFIXES),
                "Fill in from a roster (BattleScribe .ros/.rosz, New Recruit .json)",
                [f"am-roster-{s}"],
                binary=BINARY_SUFFIXES,
            )
            roster.param.watch(functools.partial(self._roster_sent, s, roster), "value")
            sides.append(
                pn.Column(
                    f"#### Side {s}",
                    self.names[s],
                    *saved,
                    roster,
                    self.row_boxes[s],
                    add,
                    pn.FlexBox(*self.objectives[s].values()),
                    sizing_mode="stretch_width",
                    styles={"border-top": "1px solid #ccc"},
                )
            )
        start = w.Button(label="Start the game", color="primary", css_classes=["am-start"])
        start.on_click(lambda _e: self.start())
        demo = w.Button(label="Use the demo armies instead", css_classes=["am-demo"])
        demo.on_click(lambda _e: self.demo())
        self.view = pn.Column(
            pn.pane.Markdown(
                "### Set up the game\n\nEnter both armies (one row per detachment: its points give "
                "its Morale value; its strength is counted in units, or for War Engines in "
                "Damage Capacity — list them as *name Damage-Capacity points*, e.g. "
                "`Stompa 6 120 pts`) and the objectives set for each side. Rows left empty are "
                "skipped. Nothing is recorded until you start the game."
            ),
            self.title,
            *sides,
            self.error,
            pn.FlexBox(start, demo),
            css_classes=["am-setup"],
            sizing_mode="stretch_width",
        )
        self.show_lists()

    @staticmethod
    def _clicked(action: Callable[[str], None], side: str, _event: Any) -> None:
        action(side)

    def add_row(self, side: str) -> None:
        """One more empty detachment row for ``side``."""
        import panel as pn

        w = pn.widgets
        i = len(self.rows[side])
        row: dict[str, Any] = {}
        for key, label in DETACHMENT_FIELDS:
            css = [f"am-det-{side}-{i}-{key.replace('_', '-')}"]
            title = f"{i + 1}. {label}" if key == "name" else label
            if key == "strength":
                row[key] = w.Select(
                    label=title, options=STRENGTH_OPTIONS, value="units", width=WIDTHS[key], css_classes=css
                )
            else:
                if key in ("points", "units"):
                    css.append(NUMERIC_CLASS)  # a number typed as text (a slip is kept to name it)
                row[key] = w.TextInput(
                    label=title, placeholder=PLACEHOLDERS.get(key, ""), width=WIDTHS[key], css_classes=css
                )
        for widget in row.values():
            tap_sized(widget)
        self.rows[side].append(row)
        self.row_boxes[side].append(pn.FlexBox(*row.values(), sizing_mode="stretch_width"))

    def _army(self, side: str, taken: set[str]) -> Army:
        rows = [{key: widget.value for key, widget in row.items()} for row in self.rows[side]]
        objectives = {key: widget.value for key, widget in self.objectives[side].items()}
        return army_from_form(side, str(self.names[side].value or ""), rows, objectives, taken)

    def game(self) -> GameLog:
        """The game the form describes, checked (InputError naming the first wrong field)."""
        taken: set[str] = set()
        a, b = (self._army(s, taken) for s in SIDES)
        log = GameLog((a, b), title=str(self.title.value or "").strip())
        Tracker(log).checked()
        return log

    def say(self, text: str, *, error: bool = True) -> None:
        """The form's message line (an error names the field; nothing typed is cleared)."""
        if not text:
            self.error.object = ""
            return
        css = "am-error" if error else "am-note"
        self.error.object = f'<p class="{css}" data-key="setup-error">{html.escape(text)}</p>'

    def start(self) -> None:
        """Check the form and start the game (or say what is wrong)."""
        try:
            log = self.game()
        except InputError as exc:
            self.say(str(exc))
            return
        self.say("")
        self.on_start(log)

    def demo(self) -> None:
        """Start with the shipped example armies (nothing played)."""
        self.say("")
        self.on_start(Tracker.example().log)

    def fill(self, side: str, army: Army) -> None:
        """Put ``army`` into side ``side``'s boxes (its rows, its objectives if it has any)."""
        rows, objectives = army_rows(army)
        self.put_rows(side, army.name, rows)
        if army.objectives is not None:
            for key, widget in self.objectives[side].items():
                widget.value = objectives.get(key, "")

    def put_rows(self, side: str, name: str, rows: Sequence[Mapping[str, str]]) -> None:
        """Side ``side``'s army name and detachment rows (as typed text), the rest emptied."""
        while len(self.rows[side]) < len(rows):
            self.add_row(side)
        self.names[side].value = name
        for i, row in enumerate(self.rows[side]):
            values = rows[i] if i < len(rows) else {}
            for key, widget in row.items():
                widget.value = values.get(key, "units" if key == "strength" else "")

    # -- a roster from the army builder -----------------------------------------------------------
    def _roster_sent(self, side: str, control: Any, event: Any) -> None:
        if event.new is not None:
            self.fill_roster(side, control.filename, event.new)

    def fill_roster(self, side: str, filename: str, data: bytes) -> None:
        """Fill side ``side`` in from a roster's bytes (sent by the page; nothing is stored): one
        detachment row per formation (:mod:`rulesbook.systems.army_morale.roster`), for the
        player to check and change before starting."""
        try:
            army = roster_army(roster_from_bytes(data, filename))
        except RulesbookError as exc:
            self.say(f"side {side}, roster: {exc}")
            return
        self.put_rows(side, army.name, army.rows)
        n = len(army.rows)
        check = f" Check: {'; '.join(army.notes)}." if army.notes else ""
        self.say(
            f"Side {side}: {n} detachment{'s' if n != 1 else ''} filled in from the roster {army.name}; "
            f"check them and change anything before starting.{check}",
            error=False,
        )

    # -- saved army lists ------------------------------------------------------------------------
    def show_lists(self) -> None:
        """Offer the saved army lists in both sides' drop-downs."""
        if self.lists is None:
            return
        named = self.lists.named()
        files = list(named.values())
        for select in self.list_choice.values():
            previous = select.value
            select.options = named
            select.value = previous if previous in files else (files[0] if files else None)

    def use_list(self, side: str) -> None:
        """Fill side ``side`` in from the chosen saved army list."""
        if self.lists is None:
            return
        name = self.list_choice[side].value
        text = self.lists.read(name) if name else None
        if text is None:
            self.say(f"side {side}, saved army lists: choose a saved list first")
            return
        try:
            army = army_from_text(text, f"army list {name}")
        except InputError as exc:
            self.say(str(exc))
            return
        self.fill(side, army)
        self.say(f"Side {side}: filled in from the army list {army.name}.", error=False)

    def save_list(self, side: str) -> None:
        """Keep side ``side``'s army (name and detachments) as a saved list: a new list, or, once
        the player confirms, in place of the saved list of the same army name."""
        lists = self.lists
        if lists is None:
            return
        try:
            army = self._army(side, set())
        except InputError as exc:
            self.say(str(exc))
            return
        text = dump_yaml(army_to_data(replace(army, objectives=None)))
        existing = lists.find(army.name)
        if existing is None:
            self._keep_list(side, army.name, lambda: lists.add(army.name, text))
            return
        stem = existing

        def replace_saved() -> str:
            lists.save(stem, text)
            return stem

        self.answer_replace(None)  # (one question at a time)
        self.replacing = functools.partial(self._keep_list, side, army.name, replace_saved)
        question, box = self.list_asks[side]
        question.object = (
            f'<p data-key="list-confirm">Replace the saved list {html.escape(army.name)}? Its detachments '
            "are replaced by the ones in this form.</p>"
        )
        box.visible = True

    def _keep_list(self, side: str, name: str, write: Callable[[], str]) -> None:
        try:
            stem = write()
        except SaveError as exc:
            self.say(f"side {side}, army list: {exc}")
            return
        self.show_lists()
        self.list_choice[side].value = stem
        self.say(f"Saved the army list {name}: choose it for a side in the next game.", error=False)

    def answer_replace(self, yes: bool | None) -> None:
        """The player's answer to "replace the saved list X?": replace it, or keep it as it is
        (None: the question is closed unanswered)."""
        action, self.replacing = self.replacing, None
        for question, box in self.list_asks.values():
            box.visible, question.object = False, ""
        if yes and action is not None:
            action()
        elif yes is False:
            self.say("The saved list is kept as it was; nothing was saved.", error=False)
