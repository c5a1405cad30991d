"""Every ID reaches its text, citation, code, tests, calculators and page in one hop."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulesbook.data import DataFileError
from rulesbook.index import covering_tests, page_of
from rulesbook.records import ID_RE, load_system_data
from rulesbook.registry import registry
from rulesbook.site.pages import generate_pages
from rulesbook.site.sources import document_path

REG = registry()
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def test_registry_has_every_kind() -> None:
    assert REG.systems and REG.rules and REG.calculators and REG.interpretations


@pytest.fixture(scope="module")
def page_paths() -> frozenset[str]:
    """The site's generated pages, made once for the module (making them takes a second, and
    every rule and calculator looks for its own page among them)."""
    return frozenset(generate_pages())


@pytest.mark.parametrize("rule_id", list(REG.rules))
def test_rule_is_complete(rule_id: str, page_paths: frozenset[str]) -> None:
    rule = REG.rule(rule_id)
    assert ID_RE.match(rule.id) and rule.id.startswith(rule.system + ".")
    assert rule.text.strip() and rule.title.strip()
    assert rule.citations, "every rule cites its source"
    system = REG.system(rule.system)
    for cite in rule.citations:
        assert cite.section.strip()
        if SEEDS.is_dir() and cite.document == system.source:
            # a shared seed, or a document in the repository's sources/ folder
            assert document_path(cite.document, system.id), f"{cite.document} is not a seed or in sources/"
    assert REG.implementations_for_rule(rule.id), f"{rule.id} has no @implements code"
    assert covering_tests().get(rule.id), f"{rule.id} has no covering test"
    assert page_of(rule.id, "rule") in page_paths


@pytest.mark.parametrize("calc_id", list(REG.calculators))
def test_calculator_is_complete(calc_id: str, page_paths: frozenset[str]) -> None:
    calc = REG.calculator(calc_id)
    assert calc.rules and all(r in REG.rules for r in calc.rules)
    assert calc.examples, "every calculator has a worked example"
    for example in calc.examples:
        result = calc.run(**dict(example))
        assert calc.output_problems(result) == []  # no undeclared key, no declared key missing
        for out in calc.outputs:
            if out.kind != "table" and not out.when:
                assert out.key in result.values, f"{calc_id} example lacks {out.key}"
            if out.kind == "probability" and out.key in result.values:
                assert f"{out.key}_exact" in result.values
    assert page_of(calc_id, "calculator") in page_paths
    for inp in calc.inputs:
        assert inp.help.strip(), f"{calc_id}.{inp.key} has no help text"
        if not inp.required:
            assert inp.validate(inp.default) == inp.default or inp.format(inp.validate(inp.default))


@pytest.mark.parametrize("interp_id", list(REG.interpretations))
def test_interpretation_is_complete(interp_id: str) -> None:
    interp = REG.interpretation(interp_id)
    assert interp.question.strip() and interp.why.strip()
    assert interp.default in interp.option_keys and interp.alternatives
    assert interp.rules or any(interp_id in r.interpretations for r in REG.rules.values())


def test_unknown_ids_suggest_close_matches() -> None:
    with pytest.raises(ValueError, match=r"did you mean scrollhammer\.morale-check"):
        REG.calculator("scrollhammer.moral-check")


def test_malformed_data_file_names_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "rules.yaml"
    bad.write_text(
        "system: {id: x, title: X, version: 1, source: s.txt}\nrules:\n  - id: x.a\n    title: A\n"
    )
    with pytest.raises(
        DataFileError, match=rf"^{tmp_path.name}/rules.yaml, line 3: rules\[0\]: missing field 'text'$"
    ):
        load_system_data(bad)
    bad.write_text("system: [1, 2\n")
    with pytest.raises(DataFileError, match="not valid YAML"):
        load_system_data(bad)
    bad.write_text("!!python/object/apply:os.system ['true']\n")
    with pytest.raises(DataFileError):
        load_system_data(bad)


LISTING = (
    "import json, sys\n"
    "from rulesbook.registry import registry\n"
    "for first in sys.argv[1:]:\n    registry(first)\n"
    "reg = registry()\n"
    "print(json.dumps([list(reg.systems), list(reg.rules), list(reg.calculators),"
    " list(reg.interpretations), list(reg.choices)]))\n"
)


@functools.cache
def _listing(*loaded: str) -> tuple[list[str], ...]:
    """The registry's listing in a fresh interpreter that loaded ``loaded`` first (once per
    order: the listing with nothing loaded first is every case's reference)."""
    out = subprocess.run([sys.executable, "-c", LISTING, *loaded], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return tuple(json.loads(out.stdout))


@pytest.mark.parametrize("first", [["wh40k"], ["warstrike", "scrollhammer"], ["army-morale"]])
def test_listing_order_does_not_depend_on_what_loaded_first(first: list[str]) -> None:
    assert (
        _listing(*first)
        == _listing()
        == (
            list(REG.systems),
            list(REG.rules),
            list(REG.calculators),
            list(REG.interpretations),
            list(REG.choices),
        )
    )


def test_registry_of_one_system_is_the_full_registry_once_loaded() -> None:
    assert registry("scrollhammer") is REG and "wh40k.attack" in registry("scrollhammer").calculators


def test_a_rule_and_a_calculator_of_one_id_keep_a_page_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system's one test may share its ID with the calculator of it (the guide's Nerve does):
    page_of used to give the calculator's path for both, and the site wrote the calculator's page
    over the rule's. Now the kind is always named and each keeps its page."""
    import rulesbook.index
    from rulesbook.registry import Registry

    shared = Registry()
    rule = registry().rule("scrollhammer.morale.check")
    calc = registry().calculator("scrollhammer.morale-check")
    shared.add_system_data(registry().system("scrollhammer"), [rule], [])
    shared.calculators[rule.id] = calc  # the same ID as the rule's
    monkeypatch.setattr(rulesbook.index, "registry", lambda: shared)
    assert page_of(rule.id, "rule") == "scrollhammer/rules/scrollhammer.morale.check.md"
    assert page_of(rule.id, "calculator") == "scrollhammer/calculators/scrollhammer.morale.check.md"
    with pytest.raises(KeyError):
        page_of("scrollhammer.morale-check", "rule")
