"""One truth per game (issue 26): the stored file is the game, whatever page or process changes it.

* changes from several processes at once are all kept (a lock across processes, unique
  temporary files), and a failed write leaves the game as it was, removes its temporary file and
  is shown on the page — "Saved" only after the file was replaced;
* a stale page never overwrites a newer game: its event is added to the latest version (same
  turn) or it is told and shown the latest version; a page polls and shows other tabs' changes.
"""

from __future__ import annotations

import errno
import multiprocessing
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rulesbook.systems.army_morale.logfile import log_from_text
from widgets.army_morale.games import GameStore, SaveError, version
from widgets.army_morale.tracker import TrackerView


def _click(view: TrackerView, css: str) -> None:
    (button,) = [b for b in view.view.select() if css in getattr(b, "css_classes", [])]
    button.clicks += 1


def _append_lines(root: str, writer: int, count: int) -> None:
    store = GameStore(root, reads=str)  # (lines of text, no game log: any text is stored)
    for i in range(count):
        store.change("shared-game", lambda text, i=i: (text or "") + f"{writer}-{i}\n")


def test_changes_from_several_processes_are_all_kept(tmp_path: Path) -> None:
    """Four processes append 25 lines each to one game through the store: all 100 are there, in
    each writer's order, and no temporary file is left (with one fixed temporary name and no
    lock, writers replaced each other's files and lost lines)."""
    ctx = multiprocessing.get_context("fork")
    workers = [ctx.Process(target=_append_lines, args=(str(tmp_path), w, 25)) for w in range(4)]
    for p in workers:
        p.start()
    for p in workers:
        p.join(60)
    assert [p.exitcode for p in workers] == [0, 0, 0, 0]
    lines = (GameStore(tmp_path, reads=str).read("shared-game") or "").splitlines()
    assert sorted(lines) == sorted(f"{w}-{i}" for w in range(4) for i in range(25))
    for w in range(4):
        assert [line for line in lines if line.startswith(f"{w}-")] == [f"{w}-{i}" for i in range(25)]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lock", "shared-game.yaml"]


def _full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write of a game's bytes fails as on a full disk (ENOSPC)."""
    real_fsync = os.fsync

    def no_space(fd: int) -> None:
        real_fsync(fd)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)


def test_a_failed_save_keeps_the_game_and_removes_its_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = GameStore(tmp_path, reads=str)
    store.save("kept-game", "before\n")
    _full_disk(monkeypatch)
    with pytest.raises(SaveError, match=r"^not saved: disk full$"):
        store.change("kept-game", lambda text: "after\n")
    assert store.read("kept-game") == "before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lock", "kept-game.yaml"]


def test_the_page_says_not_saved_and_keeps_the_last_saved_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = GameStore(tmp_path)
    view = TrackerView(store=store, demo=True)
    view.event["kind"].value = "bunker-destroyed"
    view.event["number"].value = 4
    _click(view, "am-add-event")
    assert 'data-key="save">Saved<' in view.saved.object
    saved = store.read(view.game)
    with monkeypatch.context() as patched:
        _full_disk(patched)
        view.event["kind"].value = "adjustment"
        view.event["number"].value = -2
        _click(view, "am-add-event")
    assert 'data-key="save">not saved: disk full<' in view.saved.object
    assert "not saved: disk full" in view.status.object and 'data-key="b_value">6<' in view.status.object
    assert store.read(view.game) == saved and view.event["number"].value == -2  # nothing typed lost
    _click(view, "am-add-event")  # room again: the same entry goes through
    assert 'data-key="save">Saved<' in view.saved.object and 'data-key="a_value">12<' in view.status.object


def _can_mount_tmpfs(where: Path) -> bool:
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)], capture_output=True, check=False
    )
    return done.returncode == 0


def test_a_real_full_disk_is_shown_as_not_saved(tmp_path: Path) -> None:
    """The same on a real 64 kB file system filled up (needs root to mount it; skipped otherwise)."""
    disk = tmp_path / "small"
    if not _can_mount_tmpfs(disk):
        pytest.skip("cannot mount a tmpfs here (the monkeypatched test above covers ENOSPC)")
    try:
        store = GameStore(disk)
        view = TrackerView(store=store, demo=True)
        view.event["kind"].value = "bunker-destroyed"
        view.event["number"].value = 4
        _click(view, "am-add-event")
        assert 'data-key="save">Saved<' in view.saved.object
        with (disk / "filler").open("wb") as f:  # fill the disk up
            try:
                while True:
                    f.write(b"\0" * 4096)
                    f.flush()
            except OSError:
                pass
        view.event["kind"].value = "adjustment"
        view.event["number"].value = -2
        _click(view, "am-add-event")
        assert 'data-key="save">not saved: disk full<' in view.saved.object
        assert "roll: 4" in (store.read(view.game) or "") and "amount" not in (store.read(view.game) or "")
        assert not [p for p in disk.iterdir() if p.name.endswith(".tmp")]
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def _two_pages(tmp_path: Path) -> tuple[GameStore, TrackerView, TrackerView]:
    store = GameStore(tmp_path)
    first = TrackerView(store=store, demo=True)
    first.event["kind"].value = "bunker-destroyed"
    first.event["number"].value = 4
    _click(first, "am-add-event")
    second = TrackerView(store=store, game=first.game)
    return store, first, second


def _events(store: GameStore, game: str) -> list[str]:
    log = log_from_text(store.read(game) or "")
    return [e.type for t in log.turns for e in t.events]


def test_two_pages_adding_events_in_one_turn_keep_both(tmp_path: Path) -> None:
    store, first, second = _two_pages(tmp_path)
    second.event["kind"].value = "adjustment"
    second.event["number"].value = -1
    _click(second, "am-add-event")
    # the first page has not seen it: its next event goes to the latest version, and it is told
    first.event["kind"].value = "adjustment"
    first.event["number"].value = -3
    _click(first, "am-add-event")
    assert _events(store, first.game) == ["bunker-destroyed", "adjustment", "adjustment"]
    assert "Added to the latest version" in first.note.object
    assert 'data-key="a_value">10<' in first.status.object  # 14 - 1 - 3: both kept


def test_a_stale_page_cannot_undo_or_end_the_turn_over_newer_events(tmp_path: Path) -> None:
    store, first, second = _two_pages(tmp_path)
    second.event["kind"].value = "adjustment"
    second.event["number"].value = -1
    _click(second, "am-add-event")
    stored = store.read(first.game)
    _click(first, "am-undo")
    _click(first, "am-confirm-yes")  # it would have removed the other page's event
    assert store.read(first.game) == stored
    assert "Not recorded: this game was changed in another tab" in first.note.object
    assert 'data-key="a_value">13<' in first.status.object  # it now shows the latest version
    _click(first, "am-undo")  # shown the latest version, the player may now undo it
    _click(first, "am-confirm-yes")
    assert _events(store, first.game) == ["bunker-destroyed"]
    _click(second, "am-end-rally")  # the second page is stale now: refused, then shown the latest
    assert _events(store, first.game) == ["bunker-destroyed"]
    assert log_from_text(store.read(first.game) or "").turns[0].rally is None
    assert 'data-key="a_value">14<' in second.status.object


def test_a_page_shows_what_another_page_recorded(tmp_path: Path) -> None:
    store, first, second = _two_pages(tmp_path)
    second.poll()
    assert second.note.object == ""  # nothing new
    first.event["kind"].value = "adjustment"
    first.event["number"].value = -5
    _click(first, "am-add-event")
    second.poll()
    assert 'data-key="a_value">9<' in second.status.object and "Updated" in second.note.object
    assert second.base == version(store.read(first.game))


def test_a_new_page_offers_the_set_up_form_and_a_started_game_is_saved(tmp_path: Any) -> None:
    store = GameStore(tmp_path)
    view = TrackerView(store=store)
    assert view.setting_up and not view.play.visible and store.recent() == []
    assert view.setup is not None
    _click(view, "am-demo")
    assert not view.setting_up and view.stored and 'data-key="a_value">14<' in view.status.object
    assert store.read(view.game) is not None


def test_a_game_started_in_another_tab_is_shown_not_overwritten(tmp_path: Any) -> None:
    store = GameStore(tmp_path)
    first = TrackerView(store=store)
    second = TrackerView(store=store, game=first.game)  # the same address, both setting up
    assert first.setup is not None and second.setup is not None
    _click(first, "am-demo")
    second.setup.fill("a", first.session.tracker.log.army("b"))  # other armies typed here
    second.setup.fill("b", first.session.tracker.log.army("a"))
    _click(second, "am-start")
    assert "started in another tab" in second.note.object
    assert second.session.tracker.log == first.session.tracker.log
    assert log_from_text(store.read(first.game) or "").army("a").name == "Imperial Guard"


def test_a_question_about_an_older_version_is_closed_when_the_game_changes(tmp_path: Path) -> None:
    store, first, second = _two_pages(tmp_path)
    _click(second, "am-undo")  # "Undo turn 1: bunker-destroyed …?" waits for an answer
    first.event["kind"].value = "adjustment"
    first.event["number"].value = -1
    _click(first, "am-add-event")
    second.poll()  # the game changed: the question would now undo the other page's event
    assert not second.confirm.visible and "open question was closed" in second.note.object
    assert _events(store, first.game) == ["bunker-destroyed", "adjustment"]


def test_temporary_files_of_a_killed_write_are_removed_when_the_store_starts(tmp_path: Path) -> None:
    """A write killed between its temporary file and the rename (``kill -9`` of the server)
    leaves ``.<game>.<random>.tmp``; the next start of a store on that folder removes it, under
    the lock, and keeps every game."""
    (tmp_path / "kept-game.yaml").write_text("kept\n")  # (a folder this process has not used yet)
    left = [tmp_path / ".kept-game.k1ll3d.tmp", tmp_path / ".other-game.abc123.tmp"]
    for path in left:
        path.write_text("half a game")
    store = GameStore(tmp_path, reads=str)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lock", "kept-game.yaml"]
    assert store.read("kept-game") == "kept\n"
