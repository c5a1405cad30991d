"""The index: one answer to "everything about rule ID X", shared by the CLI and the site."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesbook.cli import cli
from rulesbook.data import load_data_file
from rulesbook.errors import InputError
from rulesbook.index import covering_tests, page_of, rule_info
from rulesbook.registry import registry
from rulesbook.site.pages import rule_page

RULE = "scrollhammer.morale.insane-heroism"


def test_cli_rule_json_is_the_index_answer() -> None:
    out = CliRunner().invoke(cli, ["rule", RULE, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data == rule_info(RULE).to_json()
    assert set(data) >= {
        "id", "system", "title", "summary", "text", "citations", "code",
        "calculators", "interpretations", "tests", "page",
    }  # fmt: skip


def test_rule_info_is_a_frozen_value_with_everything() -> None:
    info = rule_info(RULE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.title = "x"  # type: ignore[misc]
    reg = registry()
    assert info.text == reg.rule(RULE).text and info.citations == reg.rule(RULE).citations
    assert info.calculators == tuple(c.id for c in reg.calculators_for_rule(RULE))
    assert info.code and all(i.rule_id == RULE for i in info.code)
    assert "tests/scrollhammer/test_morale_check.py::test_insane_heroism_floor" in info.tests
    assert "rulesbook/systems/scrollhammer/cases.yaml: Modified Ld 1 passes only on double 1" in info.tests
    assert info.page_file == page_of(RULE, "rule") and info.page == info.page_file.removesuffix(".md") + "/"


def test_rule_info_lists_exactly_the_tests_that_name_the_rule() -> None:
    """Each listed test is checked in its own source: a test function whose decorators name the
    rule, or a case of a cases.yaml whose ``covers`` names it; and the tests known to cover it
    (written here by hand) are all there."""
    tests = rule_info(RULE).tests
    assert {
        "tests/scrollhammer/test_morale_check.py::test_insane_heroism_floor",
        "tests/scrollhammer/test_morale_check.py::test_matches_brute_force_count",
        "tests/scrollhammer/test_monte_carlo.py::test_break_test_matches_simulation",
        "rulesbook/systems/scrollhammer/cases.yaml: Modified Ld 1 passes only on double 1",
        "rulesbook/systems/scrollhammer/cases.yaml: Break test lost by 9 -> only double 1",
    } <= set(tests)
    root = Path(__file__).resolve().parent.parent
    for entry in tests:
        if "::" in entry:
            path, name = entry.split("::")
            source = (root / path).read_text(encoding="utf-8")
            head = source[: source.index(f"def {name}(")]
            decorators = head[head.rindex("\n\n") :]  # the block of decorators just above it
            assert "covers(" in decorators and f'"{RULE}"' in decorators, entry
        else:
            path, name = entry.split(": ", 1)
            cases = load_data_file(root / path)
            case = next(c for c in cases if c["name"] == name)
            assert RULE in case["covers"], entry


def test_the_site_shows_what_the_index_knows() -> None:
    info = rule_info(RULE)
    page = rule_page(registry().rule(RULE))
    for item in (*info.calculators, *info.interpretations[:1], *info.tests, *(i.qualname for i in info.code)):
        assert item in page


def test_unknown_rule_is_an_input_error() -> None:
    with pytest.raises(InputError, match=r"^rule: unknown rule ID 'scrollhammer\.nope'"):
        rule_info("scrollhammer.nope")


def test_covering_tests_reads_markers_and_cases(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_x.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.covers('x.rule-a', 'x.rule-b')\ndef test_one():\n    assert True\n\n"
        "class TestGroup:\n    @pytest.mark.covers('x.rule-a')\n    def test_two(self):\n        assert True\n",
        encoding="utf-8",
    )
    found = covering_tests(tests)
    assert found["x.rule-a"] == ("tests/test_x.py::test_one", "tests/test_x.py::test_two")
    assert found["x.rule-b"] == ("tests/test_x.py::test_one",)
    assert any(
        t.startswith("rulesbook/systems/scrollhammer/cases.yaml: ")
        for t in found["scrollhammer.morale-check"]
    )
