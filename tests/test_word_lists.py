"""Word-list inputs (``abilities``, ``target_keywords``, …) check each word once: one match
against one compiled pattern and one look-up in a set of the words seen, so a list of N words
costs N matches and N look-ups however long it is (issue 15: 29,998 keywords took 13 s when
every word was compared with every earlier one). Counted, not timed."""

from __future__ import annotations

from typing import Any

import pytest

from rulesbook import inputs
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack.weapons import parse_abilities

KEYWORDS: Any = registry().calculator("wh40k.attack").input("target_keywords")
N = 30_000


def _words(n: int) -> list[str]:
    """n distinct lower-case words of letters only."""
    out = []
    for i in range(n):
        word = ""
        while True:
            i, r = divmod(i, 26)
            word += chr(ord("a") + r)
            if not i:
                break
        out.append("k" + word)
    return out


class _CountingSet(set[str]):
    lookups = 0

    def __contains__(self, item: object) -> bool:
        _CountingSet.lookups += 1
        return super().__contains__(item)


class _CountingPattern:
    def __init__(self, pattern: Any) -> None:
        self.pattern, self.calls = pattern, 0

    def fullmatch(self, text: str) -> Any:
        self.calls += 1
        return self.pattern.fullmatch(text)


def test_each_word_is_matched_once_and_looked_up_once(monkeypatch: pytest.MonkeyPatch) -> None:
    words = _words(N)
    monkeypatch.setattr(inputs, "set", _CountingSet, raising=False)
    _CountingSet.lookups = 0
    keywords = inputs.WordListInput(key="target_keywords", help="", words=KEYWORDS.words, default=())
    counting = _CountingPattern(keywords.pattern)
    object.__setattr__(keywords, "pattern", counting)  # a private copy: the frozen input stays as it is
    assert keywords.parse(",".join(words)) == tuple(words)
    assert counting.calls == N
    assert _CountingSet.lookups == N


def test_a_duplicate_at_the_end_of_a_long_list_is_found() -> None:
    words = _words(N)
    with pytest.raises(InputError) as info:
        KEYWORDS.parse(",".join([*words, words[0]]))
    assert str(info.value) == f"target_keywords: {words[0]!r} given twice"


def test_typed_lists_take_the_same_path() -> None:
    words = _words(100)
    assert KEYWORDS.validate(words) == tuple(words)
    with pytest.raises(InputError, match="unknown word 'bad1'"):
        KEYWORDS.validate([*words, "bad1"])


def test_a_huge_unknown_word_is_not_echoed_whole() -> None:
    with pytest.raises(InputError) as info:
        KEYWORDS.parse("x" * 100_000 + "1")
    assert len(str(info.value)) < 300


def test_abilities_match_one_compiled_pattern() -> None:
    abilities = parse_abilities(["lethal-hits", *(f"anti-{w}-4" for w in _words(2000))])
    assert abilities.lethal_hits and len(abilities.anti) == 2000
