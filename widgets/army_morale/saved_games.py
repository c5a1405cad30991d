"""The Army Morale tracker's list of saved games and its "continue your last game" link.

The served tracker lists the server's saved games (``am-games``, one row per game with
``data-game="<id>"`` and a link ``?game=<id>``) and, remembered in the browser's
``localStorage`` under :data:`LAST_GAME_KEY`, links the last game played in this browser
(``am-continue``). Pages nobody played on are left out of the list; a stored game whose file
does not open is listed with the reason, so its read-only page (and its file) stays reachable.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, ClassVar

from rulesbook.errors import RulesbookError
from rulesbook.systems.army_morale.logfile import log_from_text, log_to_text
from rulesbook.systems.army_morale.tracker import (
    Tracker,
)
from widgets.army_morale.games import GameStore, Unreadable

__all__ = [
    "GAMES_STYLE",
    "LAST_GAME_KEY",
    "SavedGame",
    "blank_text",
    "games_html",
    "last_game_component",
    "read_only_html",
    "save_state_html",
    "saved_game_line",
    "saved_games",
]


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One stored game as the tracker lists it.

    >>> SavedGame("abcdefgh", "Blue", "Red", 3, 5, 0.0).title
    'Blue vs Red, turn 3'
    """

    game: str
    a_name: str
    b_name: str
    turn: int
    actions: int
    changed: float
    """When the game was last saved (POSIX time)."""
    problem: str = ""
    """Why the stored file does not open ("" when it does)."""

    @property
    def title(self) -> str:
        """Both armies and the turn, in words (plain text: escape it wherever it is shown)."""
        if self.problem:
            return f"game {self.game} (does not open)"
        return f"{self.a_name} vs {self.b_name}, turn {self.turn}"


@cache
def blank_text() -> str:
    """What a tracker page opened without a game stores: the example armies, nothing played."""
    return log_to_text(Tracker.example().log)


def _summary(store: GameStore, game: str, changed: float) -> SavedGame | None:
    """A stored game's line, None for a page nobody played on (or a file removed meanwhile);
    a file that does not open gets a line saying why."""
    try:
        text = store.load(game)
    except Unreadable as exc:
        return SavedGame(game, "", "", 0, 0, changed, exc.reason)
    if text is None or text == blank_text():
        return None
    try:
        tracker = Tracker(log_from_text(text, f"{game}.yaml")).checked()
    except RulesbookError as exc:
        return SavedGame(game, "", "", 0, 0, changed, str(exc).removeprefix("log: "))
    return saved_game_line(game, tracker, changed)


def saved_game_line(game: str, tracker: Tracker, changed: float) -> SavedGame:
    log = tracker.log
    return SavedGame(game, log.army("a").name, log.army("b").name, tracker.turn, tracker.actions, changed)


_SUMMARIES: dict[tuple[str, int, int], SavedGame | None] = {}
"""Lines already read, by (game, modification time, size): a list re-reads only changed games."""


def saved_games(store: GameStore, limit: int = 20, scan: int = 200) -> list[SavedGame]:
    """The newest ``limit`` stored games someone played (of the ``scan`` newest files), newest first.

    Pages opened and left untouched (the example armies with nothing recorded) are left out; a
    file that does not open is listed, with the reason.

    >>> import os, tempfile
    >>> from rulesbook.systems.army_morale.tracker import event_from_form
    >>> store = GameStore(tempfile.mkdtemp())
    >>> store.save("untouched", blank_text())
    >>> store.save("played-1", log_to_text(Tracker.example().add(event_from_form("bunker-destroyed", number=4)).log))
    >>> _ = (store.root / "broken-1.yaml").write_text("armies: 3\\n")
    >>> os.utime(store.root / "broken-1.yaml", (0, 0))  # (the oldest)
    >>> [(g.game, g.title, g.actions) for g in saved_games(store)]
    [('played-1', 'Imperial Guard vs Ork horde, turn 1', 1), ('broken-1', 'game broken-1 (does not open)', 0)]
    >>> saved_games(store)[1].problem
    'broken-1.yaml line 1 (armies): expected a mapping of key: value'

    """
    out: list[SavedGame] = []
    seen = set()
    for game, status in store.recent(scan):
        key = (game, status.st_mtime_ns, status.st_size)
        seen.add(key)
        if key in _SUMMARIES:
            line = _SUMMARIES.get(key)
        else:
            line = _SUMMARIES[key] = _summary(store, game, status.st_mtime)
        if line is not None:
            out.append(line)
            if len(out) == limit:
                break
    for key in set(_SUMMARIES) - seen:  # older versions, and games no longer among the newest
        _SUMMARIES.pop(key, None)  # (pages are built in a thread of their own: never a KeyError)
    return out


def games_html(games: list[SavedGame], current: str = "") -> str:
    """The saved games as a table inside a ``<details>`` (every name escaped; links ``?game=<id>``).

    Folded to its one-line summary, so the game's values stay on a phone's first screen.

    >>> page = games_html([SavedGame("abcdefgh", "<b>Blue</b>", "Red", 2, 3, 0.0)])
    >>> "&lt;b&gt;Blue&lt;/b&gt;" in page, 'href="?game=abcdefgh"' in page, "<b>" in page
    (True, True, False)
    """
    if not games:
        body = "<p>No saved games yet: a game is listed here once something is recorded in it.</p>"
    else:
        rows = []
        for g in games:
            game = html.escape(g.game, quote=True)
            when = datetime.fromtimestamp(g.changed, UTC)
            link = (
                "<em>this game</em>"
                if g.game == current
                else f'<a class="am-open-game" href="?game={game}">Open</a>'
            )
            armies = (
                f"{html.escape(g.a_name)} <small>(a)</small> vs {html.escape(g.b_name)} <small>(b)</small>"
                if not g.problem
                else f"<em>does not open</em> ({html.escape(g.problem)}): read-only"
            )
            turn, actions = (g.turn, g.actions) if not g.problem else ("", "")
            rows.append(
                f'<tr data-game="{game}"><td>{armies}</td><td>{turn}</td><td>{actions}</td>'
                f'<td><time datetime="{when.isoformat()}">{when:%Y-%m-%d %H:%M}</time></td><td>{link}</td></tr>'
            )
        body = (
            '<table class="am-games-table"><thead><tr><th>Armies</th><th>Turn</th><th>Actions</th>'
            "<th>Last change (UTC)</th><th></th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
        )
    return (
        f"{GAMES_STYLE}"
        '<details class="am-games"><summary>Saved games on this server '
        f"({len(games)})</summary>{body}</details>"
    )


def save_state_html(game: str, stored: bool, error: str = "", read_only: bool = False) -> str:
    """Where a tracker page's game is kept (``data-key="game"``) and whether its last change is
    saved (``data-key="save"``: "Saved" only once the file was replaced; the failed save's
    reason; read-only for a stored game that does not open).

    >>> save_state_html("abcdefgh", True).startswith('<p data-key="save">Saved</p>')
    True
    """
    if read_only:
        state = '<p class="am-error" data-key="save">Read-only: this game\'s file does not open</p>'
    elif error:
        state = f'<p class="am-error" data-key="save">{html.escape(error)}</p>'
    else:
        state = f'<p data-key="save">{"Saved" if stored else "Not saved yet"}</p>'
    shown = f"<code>{html.escape(game)}</code>"
    return state + (
        f'<p data-key="game">Saved on the server as game {shown}: '
        "this page's address reopens it after a reload or a restart.</p>"
        if stored
        else f'<p data-key="game">This page is game {shown}: it is saved on the server when the '
        "game starts, and from then on this page's address reopens it after a reload or a "
        "restart.</p>"
    )


def read_only_html(reason: str, downloadable: bool) -> str:
    """What the page of a stored game that does not open says (``data-key="read-only"``).

    >>> "cannot be opened: too &lt;big&gt;." in read_only_html("too <big>", True)
    True
    """
    get = (
        "Download the stored file (below) to keep or repair it"
        if downloadable
        else "The file is too large to download here; the server's operator finds it in the games folder"
    )
    return (
        '<div data-key="read-only" style="border: 2px solid #a00; border-radius: 4px; padding: 4px 8px; '
        f'font: 1rem system-ui, sans-serif"><p class="am-error">This game cannot be opened: {html.escape(reason)}.'
        "</p><p>It is shown read-only and kept on the server exactly as it is: nothing on this page changes "
        f"it. {get}; loading a game log starts a new game at a new address.</p></div>"
    )


GAMES_STYLE = """<style>
.am-games { font: .95rem system-ui, sans-serif; overflow-x: auto; }
.am-games summary { cursor: pointer; }
.am-games table { border-collapse: collapse; font-size: .9em; }
.am-games td, .am-games th { border: 1px solid #ccc; padding: 1px 6px; text-align: left; }
</style>"""


LAST_GAME_KEY = "rulesbook.army-morale.last-game"
"""The browser's ``localStorage`` key of the last game played there (``{game, title}``)."""


def last_game_component() -> Any:
    """A "continue your last game" link for one page."""
    return _last_game_class()()


@cache
def _last_game_class() -> Any:
    """The "continue your last game" link's class (a Panel ``JSComponent``), made once, on first
    use: this module imports no Panel until a page asks for it."""
    import param
    from panel.custom import JSComponent

    class LastGame(JSComponent):
        """Remembers this page's game in the browser once something is recorded in it, and
        links the game remembered before when this page shows another one."""

        game = param.String(default="", doc="Set by the server once the game holds something.")
        title = param.String(default="", doc="Both armies and the turn (shown as text).")
        _stylesheets: ClassVar[list[str]] = [
            ".am-last-game { font: 1rem system-ui, sans-serif; margin: .2em 0; padding: .3em .6em;"
            " background: #eef6ee; border: 1px solid #9c9; border-radius: 4px; }"
        ]
        _esm = (
            """
        const KEY = __KEY__
        const ID = /^[A-Za-z0-9_-]{8,40}$/
        function stored() {
          try {
            const last = JSON.parse(window.localStorage.getItem(KEY) || "null")
            return last && typeof last.game === "string" && ID.test(last.game) ? last : null
          } catch (e) { return null }
        }
        export function render({ model, el }) {
          const box = document.createElement("p")
          box.className = "am-last-game"
          el.append(box)
          let last = stored()
          function show() {
            box.replaceChildren()
            box.hidden = !last || last.game === model.game
            if (box.hidden) return
            const link = document.createElement("a")
            link.className = "am-continue"
            link.href = "?game=" + encodeURIComponent(last.game)
            link.textContent = "Continue your last game"
            box.append(link)
            if (typeof last.title === "string" && last.title) {
              box.append(document.createTextNode(": " + last.title.slice(0, 200)))  // text, never markup
            }
          }
          function remember() {
            if (model.game && ID.test(model.game)) {
              last = { game: model.game, title: model.title }
              try { window.localStorage.setItem(KEY, JSON.stringify(last)) } catch (e) {}
            }
            show()
          }
          model.on("game", remember)
          model.on("title", remember)
          remember()
        }
        """
        ).replace("__KEY__", f'"{LAST_GAME_KEY}"')

    return LastGame
