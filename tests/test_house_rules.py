"""A reader's house rule as text (issue 34, part 5), on the Python side: the text of a variant file
is read by the same safe loader and checks as the file itself (every shipped variant, every
hostile variant of the corpus), and the browser front-end compares any calculator with it.
The browser itself: tests/browser/test_house_rules.py.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from rulesbook.errors import InputError
from rulesbook.variants import load_variant, load_variant_text, shipped_variants
from widgets.forms import browser

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = sorted((ROOT / "tests" / "hostile" / "variants").glob("*.yaml"))


@pytest.mark.parametrize("name", sorted(shipped_variants()))
def test_a_variant_file_s_text_is_the_same_variant(name: str) -> None:
    file = ROOT / shipped_variants()[name].path
    from_text = load_variant_text(file.read_text(encoding="utf-8"))
    from_file = load_variant(file)
    assert from_text.summary() == from_file.summary()
    assert from_text.to_mapping() == from_file.to_mapping()


@pytest.mark.parametrize("file", HOSTILE, ids=[f.name for f in HOSTILE])
def test_a_hostile_text_gets_the_file_s_one_line(file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Aliases, tags, merge keys, deep nesting, hex numbers: refused alike, in one line."""
    monkeypatch.chdir(file.parent)
    text = file.read_text(encoding="utf-8")
    if file.name.startswith("ok-"):
        assert load_variant_text(text).title == load_variant(file.name).title
        return
    with pytest.raises(InputError) as from_file:
        load_variant(file.name)
    with pytest.raises(InputError) as from_text:
        load_variant_text(text, where=file.name)
    assert str(from_text.value) == str(from_file.value)
    assert "\n" not in str(from_text.value)


@pytest.mark.covers("scrollhammer.morale.break-test", "scrollhammer.break-test")
def test_the_browser_compares_a_calculator_with_the_house_rule() -> None:
    """Break test at Ld 9, lost by 2, at 2 Ld a point: 2D6 at most 5 (or a double 1), counted."""
    told = json.loads(
        browser.house_rule("system: scrollhammer\ntitle: Harsh\nparameters: {break_ld_per_point: 2}\n")
    )
    assert told["system"] == "scrollhammer" and told["title"] == "Harsh"
    html = browser.answer("scrollhammer.break-test", {"ld": "9", "lost_by": "2"}, browser.HOUSE)
    rolls = list(itertools.product(range(1, 7), repeat=2))
    harsh = Fraction(sum(1 for a, b in rolls if a + b <= 5 or a == b == 1), 36)
    assert f'data-key="p_pass_exact">{harsh}<' in html.split('data-variant="house-rule"')[1]
    refused = json.loads(browser.house_rule("system: scrollhammer\ntitle: [x\n"))
    assert refused["error"].startswith("house-rule.yaml: not valid YAML (line 3")
    html = browser.answer("scrollhammer.break-test", {"ld": "9", "lost_by": "2"}, browser.HOUSE)
    assert 'data-variant="house-rule"' in html  # the rule that loaded stays until another does
    assert json.loads(browser.house_rule("  \n")) == {"system": "", "title": "", "changes": []}
    html = browser.answer("scrollhammer.break-test", {"ld": "9", "lost_by": "2"}, browser.HOUSE)
    assert "no house rule is set" in html
