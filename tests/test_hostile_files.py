"""The hostile corpus (tests/hostile/): every file reader and the CLI hold against it.

Each case must end in one short line (the file, the line where known, the reason; at most
~60 characters of any value it quotes, no raw control characters) or be accepted and read back
exactly — never a traceback, a hang or a memory blow-up. ``ok-*`` files must be accepted,
``bad-*`` ones refused. Cases too big for git (a sparse 1 GB file, 100,000-deep nesting) are
made here. Hangs are guarded by an alarm (a generous guard, not a timing assertion: the
times are measured by ``bench/hostile_files.py``).
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import tempfile
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook import cli
from rulesbook.cases import load_cases
from rulesbook.data import LIMITS, DataFileError, dump_yaml, load_data_file, load_data_text, read_text
from rulesbook.errors import RulesbookError
from rulesbook.inputs import TextInput
from rulesbook.records import load_source, load_system_data
from rulesbook.site.glossary import load_glossary
from rulesbook.systems.army_morale.log import EXAMPLE_LOG
from rulesbook.systems.army_morale.logfile import load_log, log_from_text, log_to_text
from rulesbook.systems.army_morale.replay import replay
from rulesbook.systems.warstrike.missions import load_mission
from rulesbook.variants import load_variant
from widgets.army_morale.games import GameStore

HOSTILE = Path(__file__).parent / "hostile"
ROOT = Path(__file__).resolve().parents[1]
RAW_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@contextmanager
def no_hang(seconds: int = 20) -> Iterator[None]:
    """Fail instead of hanging (a guard far above the expected time, never a benchmark)."""

    def stop(*_: Any) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def assert_one_short_line(message: str, name: str | None = None) -> None:
    assert "\n" not in message and "Traceback" not in message, message
    assert len(message) <= 1000, f"{len(message)} characters: {message[:200]}"
    assert "x" * 70 not in message and "9" * 70 not in message, "a long value is quoted whole"
    assert not RAW_CONTROL.search(message), f"raw control character in {message!r}"
    if name is not None:
        assert name in message, message


def cases(folder: str) -> list[Path]:
    return sorted(p for p in (HOSTILE / folder).iterdir() if p.name.startswith(("ok-", "bad-")))


def test_the_corpus_is_here() -> None:
    assert len(cases("logs")) > 60 and len(cases("missions")) > 10 and len(cases("variants")) > 5


# -- game logs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", cases("logs"), ids=lambda p: p.name)
def test_hostile_logs(path: Path) -> None:
    with no_hang():
        if path.name.startswith("bad-"):
            with pytest.raises(RulesbookError) as info:
                replay(load_log(path))
            assert_one_short_line(str(info.value), path.name)
            return
        log = load_log(path)
        for as_json in (False, True):  # read back exactly, both ways
            again = log_from_text(log_to_text(log, as_json=as_json), is_json=as_json)
            assert replace(again, source="") == replace(log, source="")
        replay(log)


@pytest.mark.parametrize(
    "path", [p for p in cases("logs") if p.name.startswith("bad-")], ids=lambda p: p.name
)
def test_hostile_logs_on_the_command_line(
    path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    with no_hang(), pytest.raises(SystemExit) as info:
        cli.main(["calc", "army-morale.replay", f"log={path.relative_to(ROOT)}"])
    assert info.value.code == 2
    err = capsys.readouterr().err.rstrip("\n")
    assert err.startswith("rulesbook: error: log: ")
    assert_one_short_line(err, path.name)


def test_json_escapes_are_read_as_written() -> None:
    log = load_log(HOSTILE / "logs" / "ok-escaped-emoji.json")
    assert log.army("a").name == "Blue \U0001f600 \u0085 \u2028 \u202e \ufffe"
    assert load_log(HOSTILE / "logs" / "ok-nel-name.yaml").army("a").name == "Blue\x85Army"


@settings(max_examples=40, deadline=None)
@given(st.text(st.characters(codec="utf-8"), min_size=1, max_size=30))
def test_the_served_tracker_keeps_any_name(name: str) -> None:
    """What the web tracker stores (widgets/army_morale/games.py) reads back with the name unchanged."""
    log = load_log(EXAMPLE_LOG)
    changed = replace(log, armies=(replace(log.armies[0], name=name), log.armies[1]))
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(folder)
        game = store.new_id()
        store.save(game, log_to_text(changed))
        stored = store.read(game)
        assert stored is not None
        assert log_from_text(stored, "game.yaml").army("a").name == name
    assert log_from_text("\ufeff" + log_to_text(changed, as_json=True), is_json=True).army("a").name == name


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**29), 10**29)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(codec="utf-8")),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(st.characters(codec="utf-8")), inner, max_size=4)
    ),
    max_leaves=15,
)


@settings(max_examples=300, deadline=None)
@given(json_values, st.booleans())
def test_every_valid_json_is_read_as_pythons_json_reads_it(value: Any, ascii_only: bool) -> None:
    """The loader's JSON parser agrees with :mod:`json` (escaped or raw characters alike), and
    the loader's YAML writer reads back the same value."""
    text = json.dumps(value, ensure_ascii=ascii_only, indent=1 if ascii_only else None)
    assert load_data_text(text, "v.json", is_json=True) == json.loads(text) == value
    assert load_data_text(dump_yaml(value), "v.yaml") == value


def test_numbers_are_decimal_only() -> None:
    for name in ("bad-hex", "bad-octal", "bad-binary-int", "bad-underscore", "bad-sexagesimal"):
        with pytest.raises(RulesbookError, match=r"lost must be an integer from 1 to \d+, got '"):
            load_log(HOSTILE / "logs" / f"{name}.yaml")
    assert load_log(HOSTILE / "logs" / "ok-leading-zero.yaml").army("a").detachments[0].points == 150


# -- files too big for git: made here --------------------------------------------------------------


def big_cases(folder: Path) -> dict[str, Callable[[], Path]]:
    def sparse(name: str, size: int) -> Callable[[], Path]:
        def make() -> Path:
            path = folder / name
            with path.open("wb") as f:
                f.truncate(size)
            return path

        return make

    def text(name: str, content: str) -> Callable[[], Path]:
        def make() -> Path:
            path = folder / name
            path.write_text(content, encoding="utf-8")
            return path

        return make

    def special(name: str, how: Callable[[Path], None]) -> Callable[[], Path]:
        def make() -> Path:
            path = folder / name
            how(path)
            return path

        return make

    valid = (HOSTILE / "logs" / "ok-emoji-name.yaml").read_text(encoding="utf-8")
    return {
        "sparse-1gb.yaml": sparse("sparse-1gb.yaml", 2**30),
        "sparse-1gb.json": sparse("sparse-1gb.json", 2**30),
        "just-over.yaml": text("just-over.yaml", valid + "#" * (LIMITS.max_bytes - len(valid.encode()) + 1)),
        "deep.json": text("deep.json", "[" * 100_000 + "]" * 100_000),
        "deep-objects.json": text("deep-objects.json", '{"a":' * 50_000 + "1" + "}" * 50_000),
        "deep-flow.yaml": text("deep-flow.yaml", "[" * 100_000 + "]" * 100_000),
        "deep-block.yaml": text("deep-block.yaml", "".join(" " * i + "a:\n" for i in range(1000))),
        "long-list.yaml": text("long-list.yaml", "turns: [" + ", ".join(["1"] * 20_000) + "]\n"),
        "many-nodes.json": text(
            "many-nodes.json", "[" + ",".join(["[" + ",".join(["1"] * 9000) + "]"] * 25) + "]"
        ),
        "unknown-keys.yaml": text("unknown-keys.yaml", "".join(f"k{i}: {i}\n" for i in range(60_000))),
        "fifo.yaml": special("fifo.yaml", os.mkfifo),
        "folder.yaml": special("folder.yaml", Path.mkdir),
        "zero.yaml": special("zero.yaml", lambda p: p.symlink_to("/dev/zero")),
        "missing.yaml": special("missing.yaml", lambda p: None),
    }


BIG = sorted(big_cases(Path("/unused")))


SIZED = {
    "sparse-1gb.yaml",
    "sparse-1gb.json",
    "just-over.yaml",
    "fifo.yaml",
    "folder.yaml",
    "zero.yaml",
    "missing.yaml",
}


@pytest.mark.parametrize("case", BIG)
def test_big_and_strange_files_are_refused_fast_in_bounded_memory(case: str, tmp_path: Path) -> None:
    path = big_cases(tmp_path)[case]()
    if case in SIZED:  # refused before parsing: trace every allocation
        tracemalloc.start()
        try:
            with no_hang(), pytest.raises(RulesbookError) as info:
                load_log(path)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 3 * LIMITS.max_bytes, f"peak {peak:,} bytes"
    else:  # refused while parsing (tracing would slow it 20-fold): the process's high-water mark
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        with no_hang(), pytest.raises(RulesbookError) as info:
            load_log(path)
        grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        assert grown_kb < 200_000, f"grew by {grown_kb:,} kB"
    assert_one_short_line(str(info.value), path.name)
    with no_hang(), pytest.raises(DataFileError):  # the generic reader refuses it the same way
        load_data_file(path)


def test_a_1gb_file_is_refused_without_reading_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = big_cases(tmp_path)["sparse-1gb.yaml"]()
    opened: list[str] = []
    real_open = open
    monkeypatch.setattr("builtins.open", lambda *a, **k: opened.append(str(a[0])) or real_open(*a, **k))
    with pytest.raises(
        DataFileError, match=r"^sparse-1gb.yaml: refused \(1,073,741,824 bytes; at most 1,000,000\)$"
    ):
        read_text(path)
    assert opened == []  # refused from its size alone


# -- mission files, variant files, data files -----------------------------------------------------


@pytest.mark.parametrize("path", cases("missions"), ids=lambda p: p.name)
def test_hostile_mission_files(path: Path) -> None:
    with no_hang():
        if path.name.startswith("ok-"):
            assert load_mission(path).turns == 6
            return
        with pytest.raises(DataFileError) as info:
            load_mission(path)
    assert_one_short_line(str(info.value), path.name)


@pytest.mark.parametrize("path", cases("variants"), ids=lambda p: p.name)
def test_hostile_variant_files(path: Path) -> None:
    if path.name.startswith("ok-"):
        with no_hang():
            assert load_variant(path).system
        return
    with no_hang(), pytest.raises(RulesbookError) as info:
        load_variant(path)
    assert_one_short_line(str(info.value), path.name)


DATA_READERS: dict[str, Callable[[Path], Any]] = {
    "rules.yaml": load_system_data,
    "cases.yaml": load_cases,
    "glossary.yaml": lambda p: load_glossary(p, "wh40k"),
    "source.yaml": lambda p: load_source(p, "wh40k"),
}


@pytest.mark.parametrize("reader", sorted(DATA_READERS))
@pytest.mark.parametrize("path", cases("data"), ids=lambda p: p.name)
def test_hostile_data_files(path: Path, reader: str) -> None:
    """Each system file's reader (rules, cases, glossary, source) refuses them in one line."""
    with no_hang(), pytest.raises(DataFileError) as info:
        DATA_READERS[reader](path)
    assert_one_short_line(str(info.value), path.name)


# -- the command line ------------------------------------------------------------------------------

CLI_CASES = [json.loads(line) for line in (HOSTILE / "cli.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("args", CLI_CASES, ids=lambda a: " ".join(a)[:50])
def test_hostile_command_lines(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("RULESBOOK_GAMES_DIR", str(tmp_path))
    with no_hang(), pytest.raises(SystemExit) as info:
        cli.main(args)
    captured = capsys.readouterr()
    assert info.value.code == 2, captured.out[:300]
    err = captured.err.rstrip("\n")
    assert err.startswith("rulesbook: error: ")
    assert_one_short_line(err)


def test_a_typed_text_with_a_lone_surrogate_is_refused() -> None:
    """A browser can send a lone surrogate; no file can hold one, so a form refuses it at once
    (and the game stays loadable) instead of saving a log the loader would refuse."""
    reason = TextInput(key="reason", help="")
    assert reason.parse("Blue \U0001f600\u202e") == "Blue \U0001f600\u202e"
    with pytest.raises(RulesbookError, match=r"^reason: expected a non-empty text, got 'a\\ud800'$"):
        reason.parse("a\ud800")


def test_text_that_never_was_a_file_has_the_same_size_limit() -> None:
    """An upload (text given to ``log_from_text``) is held to the file limit as well."""
    with (
        no_hang(),
        pytest.raises(
            RulesbookError, match=r"^log: upload.yaml: refused \(more than 1,000,000 characters\)$"
        ),
    ):
        log_from_text("#" * (LIMITS.max_bytes + 1), "upload.yaml")


WAHAPEDIA = Path(__file__).parent / "wh40k" / "wahapedia"


def _import(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from rulesbook.systems.wh40k.wahapedia.__main__ import main

    code = main(["--name", "Mire Host", *args])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("where", ["missing/folder/mire.yaml", "/dev/full", "."])
def test_the_importer_s_output_that_cannot_be_written_is_one_line(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = where if where.startswith("/") else str(tmp_path / where)
    if not Path("/dev/full").exists() and where == "/dev/full":
        pytest.skip("no /dev/full here")
    code, err = _import([str(WAHAPEDIA), "ZZ", "-o", target], capsys)
    errors = [line for line in err.splitlines() if not line.startswith("warning: ")]
    reason = {"/dev/full": "no space left on device", ".": "is a directory"}.get(
        where, "no such file or directory"
    )
    assert code == 2 and len(errors) == 1, err
    assert errors[0].startswith("error: cannot write '") and errors[0].endswith(f": {reason}"), err
    assert_one_short_line(errors[0])


def test_the_importer_refuses_a_nul_byte_in_a_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = tmp_path / "export"
    export.mkdir()
    for file in WAHAPEDIA.iterdir():
        (export / file.name).write_bytes(file.read_bytes())
    sheet = export / "Datasheets_wargear.csv"
    sheet.write_bytes(sheet.read_bytes().replace(b"Bile spray", b"Bile\x00spray", 1))
    code, err = _import([str(export), "ZZ", "-o", str(tmp_path / "out.yaml")], capsys)
    assert code == 2 and not (tmp_path / "out.yaml").exists()
    assert re.fullmatch(
        r"error: Datasheets_wargear\.csv, row \d+, column name: a NUL byte \(\\x00\) is no text\n", err
    ), err
