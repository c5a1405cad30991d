"""Hostile roster files (tests/hostile/rosters, written by tests/rosters/make_rosters.py): every
``bad-*`` is refused in one short line naming the file, every ``ok-*`` read; entities never
expand, zip bombs and huge files are refused by size before they are read or unpacked, and
memory stays bounded. Cases too big for git are made here."""

from __future__ import annotations

import tracemalloc
import zipfile
from pathlib import Path

import pytest

from rulesbook.data import DataFileError
from rulesbook.rosters import LIMITS, read_roster, roster_from_bytes
from tests.rosters.make_rosters import HEAD, NS, xml_roster
from tests.test_hostile_files import assert_one_short_line, no_hang

CASES = sorted(p for p in (Path(__file__).parents[1] / "hostile" / "rosters").iterdir())


def test_the_corpus_is_here() -> None:
    names = {p.name for p in CASES}
    assert len(names) > 35 and {"bad-billion-laughs.ros", "bad-zip-bomb.rosz", "ok-minimal.json"} <= names


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_each_case_is_refused_in_one_line_or_read(path: Path) -> None:
    tracemalloc.start()
    try:
        with no_hang():
            if path.name.startswith("ok-"):
                assert next(u.name for u in read_roster(path).units()).startswith("Squad")
                return
            with pytest.raises(DataFileError) as caught:
                read_roster(path)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert_one_short_line(str(caught.value), path.name)
    assert peak < 3 * LIMITS.max_unpacked_bytes, f"{peak:,} bytes at the peak"


def test_entities_are_never_expanded_nor_fetched() -> None:
    for name in ("bad-billion-laughs.ros", "bad-external-entity.ros", "bad-parameter-entity.ros"):
        with pytest.raises(DataFileError, match="document type declaration"):
            read_roster(Path(CASES[0].parent, name))


def test_a_zip_bomb_is_refused_by_its_declared_size_before_unpacking(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    original = zipfile.ZipFile.open

    def spy(self: zipfile.ZipFile, name: object, *args: object, **kwargs: object) -> object:
        opened.append(str(getattr(name, "filename", name)))
        return original(self, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(zipfile.ZipFile, "open", spy)
    with pytest.raises(DataFileError, match="unpacks to 60,000,318 bytes"):
        read_roster(CASES[0].parent / "bad-zip-bomb.rosz")
    assert opened == []  # refused from the archive's directory, nothing unpacked
    with pytest.raises(DataFileError, match=r"cannot be unpacked|unpacks to more than"):
        read_roster(CASES[0].parent / "bad-zip-lying-size.rosz")  # its directory lies: unpacking stops


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    for suffix in (".ros", ".rosz", ".json"):
        big = tmp_path / f"big{suffix}"
        with big.open("wb") as f:
            f.truncate(2**30)  # sparse: nothing written
        with no_hang(5), pytest.raises(DataFileError) as caught:
            read_roster(big)
        assert (
            str(caught.value)
            == f"big{suffix}: refused (1,073,741,824 bytes; at most {LIMITS.max_file_bytes:,})"
        )


def test_deep_nesting_and_too_many_elements_stop_while_parsing() -> None:
    deep = (HEAD + "<forces>" + "<x>" * 100_000 + "</x>" * 100_000 + "</forces></roster>").encode()
    with no_hang(), pytest.raises(DataFileError, match="nested more than 96 deep"):
        roster_from_bytes(deep, "deep.ros")
    many = (HEAD + "<x/>" * 450_000 + "</roster>").encode()  # 1.8 MB of elements
    with no_hang(), pytest.raises(DataFileError, match="more than 400,000 XML elements"):
        roster_from_bytes(many, "many.ros")
    nested = (
        "".join(
            f'<selection id="s{i}" name="S{i}" entryId="e" number="1" type="upgrade"><selections>'
            for i in range(30)
        )
        + "</selections></selection>" * 30
    )
    with pytest.raises(DataFileError, match=r"selections nested more than 24 deep"):
        roster_from_bytes(xml_roster(nested), "nested.ros")


def test_a_roster_with_odd_characters_keeps_them_for_the_presenters() -> None:
    roster = read_roster(CASES[0].parent / "ok-odd-names.ros")
    assert "\u202e" in roster.units()[0].name  # kept: the presenters drop control characters when printing
    assert NS in HEAD
