"""The rules language's shipped examples (examples/designer/, examples/systems/skirmish/) answer
exactly, in every calculator they should reach.

Each oracle lists the 36 rolls of two dice (or a D6's six faces) and applies the rule as the
example's comment states it, in plain Python written here, importing nothing of the code it
checks. The file names, calculator IDs and input keys are a public contract (issue 34).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.variants import find_calculator, load_variant, resolve_variant, run_with_variant

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "designer"
SYSTEMS = ROOT / "examples" / "systems"
ROLLS = list(itertools.product(range(1, 7), repeat=2))


def p(count: int, of: int = 36) -> Fraction:
    return Fraction(count, of)


def leadership(target: int, *, any_double: bool = False, heroism: bool = True) -> Fraction:
    """Scrollhammer's Leadership test on 2D6: at most the target, a double 1 passes (and, with
    the example, any double)."""
    return p(
        sum(
            a + b <= target or (heroism and a == b == 1) or (any_double and heroism and a == b)
            for a, b in ROLLS
        )
    )


def exact(result: object, key: str) -> Fraction:
    return Fraction(result[f"{key}_exact"])  # type: ignore[index]


# -- any-double.yaml ---------------------------------------------------------------------------------


@pytest.mark.covers("scrollhammer.morale.insane-heroism")
@pytest.mark.parametrize("ld", [2, 5, 7, 9])
def test_any_double_passes_every_leadership_based_test(ld: int) -> None:
    v = load_variant(EXAMPLES / "any-double.yaml")
    calc = registry().calculator
    want = leadership(ld, any_double=True)
    assert exact(run_with_variant(calc("scrollhammer.morale-check"), v, ld=ld), "p_pass") == want
    assert exact(run_with_variant(calc("scrollhammer.panic-test"), v, ld=ld), "p_pass") == want
    lead = run_with_variant(calc("scrollhammer.leadership-test"), v, ld=ld, test_kind="leadership-test")
    assert exact(lead, "p_pass") == want
    for lost_by in (1, 3):
        got = run_with_variant(calc("scrollhammer.break-test"), v, ld=ld, lost_by=lost_by)
        assert exact(got, "p_pass") == leadership(ld - lost_by, any_double=True)
    pinned = run_with_variant(calc("scrollhammer.pinning-test"), v, ld=ld, pinning_attacks=2)
    assert exact(pinned, "p_pinned") == 1 - want**2
    casualties = run_with_variant(
        calc("scrollhammer.casualties-test"), v, ld=ld, models_at_start=10, models_lost=3
    )
    assert exact(casualties, "p_fall_back") == 1 - want
    regroup = run_with_variant(calc("scrollhammer.regroup-test"), v, ld=ld, models_alive=6, models_total=10)
    assert exact(regroup, "p_regroup") == want
    # a falling-back unit fails its Morale check: no double saves it (heroism-when-falling-back)
    falling = run_with_variant(calc("scrollhammer.morale-check"), v, ld=ld, falling_back=True)
    assert exact(falling, "p_pass") == 0


def test_any_double_reaches_the_chains_as_a_python_rule_would() -> None:
    """The Fall Back chain and the Panic cascade roll Regroup and Panic tests inside: the
    example's entry reaches them exactly as other code for the rule (a Python variant) does."""
    from rulesbook.choices import RuleOverride
    from rulesbook.dice import RollTest, double
    from rulesbook.variants import Variant

    v = load_variant(EXAMPLES / "any-double.yaml")

    def any_double(target, choices, *, heroism=True, always_fail=False, published, **rest):  # type: ignore[no-untyped-def]
        test: RollTest = published(target, choices, heroism=heroism, always_fail=always_fail, **rest)
        if not heroism or not choices.parameters.insane_heroism:
            return test
        return test.with_(auto_pass=frozenset().union(*(double(f) for f in range(1, 7))))

    override = RuleOverride("scrollhammer.morale.check", any_double, target="leadership_test")
    python = Variant.define("py-any-double", system="scrollhammer", title="x").with_rules((override,))
    for calc_id, inputs in [
        ("scrollhammer.fall-back", {"ld": 7, "distance": 12, "phases": 3}),
        ("scrollhammer.panic-cascade", {}),
        ("scrollhammer.fall-back-through-friends", {}),
    ]:
        calc = registry().calculator(calc_id)
        base = run_with_variant(calc, None, **inputs)
        data, code = run_with_variant(calc, v, **inputs), run_with_variant(calc, python, **inputs)
        assert data.values == code.values, calc_id
        assert data.values != base.values, calc_id


# -- standard-reroll.yaml ----------------------------------------------------------------------------


@pytest.mark.parametrize(("ld", "lost_by"), [(8, 1), (8, 3), (6, 2), (9, 6)])
def test_a_standard_rerolls_a_failed_break_test_once(ld: int, lost_by: int) -> None:
    v = load_variant(EXAMPLES / "standard-reroll.yaml")
    calc = registry().calculator("scrollhammer.break-test")
    once = leadership(ld - lost_by)
    assert exact(run_with_variant(calc, v, ld=ld, lost_by=lost_by), "p_pass") == once
    again = run_with_variant(calc, v, ld=ld, lost_by=lost_by, has_standard=True)
    assert exact(again, "p_pass") == once + (1 - once) * once
    assert any("re-rolled once" in line and "has_standard yes" in line for line in again.explanation)


def test_has_standard_is_offered_where_a_break_test_is_rolled_and_nowhere_else() -> None:
    v = resolve_variant(str(EXAMPLES / "standard-reroll.yaml"))
    from rulesbook.variants import variant_calculator

    offering = {
        c.id
        for c in registry().calculators_for_system("scrollhammer")
        if "has_standard" in {i.key for i in variant_calculator(c, v).inputs}
    }
    assert offering == {
        c.id for c in registry().calculators_for_system("scrollhammer") if "break-test" in c.tests
    }
    assert offering == {"scrollhammer.break-test", "scrollhammer.fall-back"}  # its chain can start at one
    with pytest.raises(InputError, match=r"has_standard: unknown input for scrollhammer\.panic-test"):
        run_with_variant(registry().calculator("scrollhammer.panic-test"), v, ld=7, has_standard=True)


# -- terror-test.yaml --------------------------------------------------------------------------------


@pytest.mark.parametrize("ld", range(2, 13))
@pytest.mark.parametrize("modifier", [-3, 0, 2])
def test_the_terror_test_answers_exactly(ld: int, modifier: int) -> None:
    v = load_variant(EXAMPLES / "terror-test.yaml")
    calc = find_calculator("scrollhammer.terror-test", v)
    assert [i.key for i in calc.inputs] == ["ld", "modifier"]
    want = p(sum(a + b <= ld - 1 + modifier or a == b == 1 for a, b in ROLLS))
    got = run_with_variant(calc, v, ld=ld, modifier=modifier)
    assert exact(got, "p_pass") == want and exact(got, "p_fail") == 1 - want


def test_the_terror_test_is_no_calculator_without_its_variant() -> None:
    with pytest.raises(InputError, match=r"unknown calculator ID 'scrollhammer\.terror-test'"):
        find_calculator("scrollhammer.terror-test")


# -- the skirmish system -----------------------------------------------------------------------------


def nerve_oracle(nerve: int, modifier: int, wounded: bool, leader_near: bool) -> tuple[Fraction, ...]:
    """P(holds), P(shaken), P(routs), as the skirmish rules say."""
    line = nerve + modifier - (1 if wounded else 0)
    one = p(sum(not (a == b == 6) and (a == b == 1 or a + b <= line) for a, b in ROLLS))
    holds = one + (1 - one) * one if leader_near else one
    return holds, (1 - holds) * Fraction(4, 6), (1 - holds) * Fraction(2, 6)


def _skirmish(code: str) -> str:
    env = {**os.environ, "RULESBOOK_SYSTEMS_DIR": str(SYSTEMS)}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_the_skirmish_system_answers_exactly_everywhere() -> None:
    grid = [
        (n, m, w, lead)
        for n in range(2, 13)
        for m in (-3, -1, 0, 3)
        for w in (False, True)
        for lead in (False, True)
    ]
    code = f"""
from rulesbook.registry import registry
calc = registry().calculator("skirmish.nerve-test")
print([i.key for i in calc.inputs])
for n, m, w, lead in {grid!r}:
    r = calc.run(nerve=n, modifier=m, wounded=w, leader_near=lead)
    print(r["p_pass_exact"], r["p_shaken_exact"], r["p_rout_exact"])
"""
    lines = _skirmish(code).splitlines()
    assert lines[0] == "['nerve', 'modifier', 'wounded', 'leader_near']"
    for (n, m, w, lead), line in zip(grid, lines[1:], strict=True):
        assert tuple(Fraction(x) for x in line.split()) == nerve_oracle(n, m, w, lead), (n, m, w, lead)


def test_the_skirmish_command_of_the_issue_works_from_a_checkout() -> None:
    rulesbook = Path(sys.executable).with_name("rulesbook")
    env = {**os.environ, "RULESBOOK_SYSTEMS_DIR": "examples/systems", "NO_COLOR": "1"}
    out = subprocess.run(
        [str(rulesbook), "calc", "skirmish.nerve-test", "nerve=7", "modifier=-1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    holds, shaken, routs = nerve_oracle(7, -1, False, False)
    assert f"({holds})" in out.stdout and f"({shaken})" in out.stdout and f"({routs})" in out.stdout
    assert "Nerve test: roll 2D6; a total of 6 or less passes (nerve + modifier = 6)." in out.stdout
    assert not list((ROOT / "examples" / "systems" / "skirmish").glob("**/*.py")), (
        "the system holds no Python"
    )


def test_the_guide_shows_the_shipped_examples_as_they_are() -> None:
    guide = (ROOT / "docs" / "designer" / "guide.md").read_text(encoding="utf-8")
    for name in (
        "any-double.yaml",
        "standard-reroll.yaml",
        "terror-test.yaml",
        "character-near.yaml",
        "steady-drill.yaml",
    ):
        block = f"```yaml\n# file: {name}\n" + (EXAMPLES / name).read_text(encoding="utf-8") + "```"
        assert block in guide, f"docs/designer/guide.md shows another {name} than examples/designer/"
    mechanics = (SYSTEMS / "skirmish" / "mechanics.yaml").read_text(encoding="utf-8")
    shown = guide.split("# a part of examples/systems/skirmish/mechanics.yaml\n", 1)[1].split("```", 1)[0]
    assert shown in mechanics


# -- character-near.yaml (Warhammer 40,000) ----------------------------------------------------------


@pytest.mark.covers("wh40k.core.battle-shock")
@pytest.mark.parametrize("leadership", range(2, 13))
def test_a_character_near_adds_one_to_the_battle_shock_test(leadership: int) -> None:
    v = load_variant(EXAMPLES / "character-near.yaml")
    calc = registry().calculator("wh40k.battle-shock")
    for near, bonus in ((False, 0), (True, 1)):
        want = p(sum(a + b + bonus >= leadership for a, b in ROLLS))
        got = run_with_variant(calc, v, leadership=leadership, character_within_6=near)
        assert exact(got, "p_pass") == want


def test_a_character_near_reaches_the_battle_shock_after_an_attack() -> None:
    """The attack's Battle-shock test with a CHARACTER near is the same as with +1 typed as its
    modifier; without one, the published answer."""
    from rulesbook.variants import variant_calculator

    v = resolve_variant(str(EXAMPLES / "character-near.yaml"))
    calc = registry().calculator("wh40k.attack-and-battle-shock")
    example = dict(calc.examples[0])
    near = run_with_variant(calc, v, **example, character_within_6="true")
    typed = run_with_variant(calc, None, **{**example, "battle_shock_modifier": "1"})
    assert near["p_battle_shocked_exact"] == typed["p_battle_shocked_exact"]
    far = run_with_variant(calc, v, **example)
    assert far["p_battle_shocked_exact"] == run_with_variant(calc, None, **example)["p_battle_shocked_exact"]
    offering = {
        c.id
        for c in registry().calculators_for_system("wh40k")
        if "character_within_6" in {i.key for i in variant_calculator(c, v).inputs}
    }
    assert offering == {"wh40k.battle-shock", "wh40k.attack-and-battle-shock"}


def test_the_skirmish_system_is_complete_where_the_registry_looks() -> None:
    """With $RULESBOOK_SYSTEMS_DIR naming it, Skirmish passes the registry's completeness checks
    (a page per rule, calculator and register entry, every rule's code and covering test, its
    citations), its hand-worked cases, and reaches every route: the command line's calc, variants,
    compare, sweep, solve and sensitivity, the forms, the server, the served and static pages, the
    browser's app wheel and the JSON API (tests/data_system_routes.py, one test a route)."""
    env = {**os.environ, "RULESBOOK_SYSTEMS_DIR": str(SYSTEMS)}
    env.pop("PYTEST_XDIST_WORKER", None)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_registry.py",
            "tests/test_cases.py",
            "-k",
            "skirmish or data_system_routes",
            "tests/data_system_routes.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout[-3000:]
    passed = int(out.stdout.rsplit(" passed", 1)[0].split()[-1])
    assert passed >= 24, out.stdout[-1000:]  # the rules, calculators, register entry, cases, routes
    assert " skipped" not in out.stdout, out.stdout[-1000:]


SHAKEN_LINE = """\
system: scrollhammer
title: A shaken line
add:
  inputs:
    ld: {kind: integer, minimum: 2, maximum: 10, default: 7, label: Leadership}
    units: {kind: integer, minimum: 1, maximum: 10, default: 4, label: Units in the line}
  calculators:
    line-panic:
      title: A line's Panic tests
      chain:
        - {test: panic-test, with: {target: ld}, pass: holds, fail: flees}
      units: units
      outputs:
        p_two_flee: {label: P(two or more flee), p: flees, at_least: 2}
        mean_flee: {label: Mean units fleeing, mean: flees}
        fleeing: {label: Units fleeing, distribution: flees}
"""
"""An idea not tuned for (a line of units, each taking a Panic test; counted), and the same file
with one mistake in each of three places."""


@pytest.mark.parametrize("units", [1, 3, 5])
def test_an_untuned_idea_counts_units_exactly_and_composes(tmp_path: Path, units: int) -> None:
    (tmp_path / "shaken-line.yaml").write_text(SHAKEN_LINE, encoding="utf-8")
    line = load_variant(tmp_path / "shaken-line.yaml")
    both = resolve_variant([line, load_variant(EXAMPLES / "any-double.yaml")])
    for variant, any_double in ((line, False), (both, True)):
        flee = 1 - leadership(7, any_double=any_double)
        at_most_one = (1 - flee) ** units + units * flee * (1 - flee) ** (units - 1)
        got = run_with_variant(find_calculator("scrollhammer.line-panic", variant), variant, units=units)
        assert exact(got, "p_two_flee") == 1 - at_most_one
        assert exact(got, "mean_flee") == units * flee


@pytest.mark.parametrize(
    ("mistake", "message"),
    [
        (
            ("at_least: 2", "at_leest: 2"),
            "line 14: add.calculators.line-panic.outputs.p_two_flee.at_leest: unknown key 'at_leest'; did you mean at_least?",
        ),
        (
            ("{target: ld}", "{targett: ld}"),
            "line 11: add.calculators.line-panic.chain[0].with.targett: the test panic-test takes no 'targett'; did you mean target?",
        ),
        (
            ("test: panic-test", "test: panik-test"),
            "line 11: add.calculators.line-panic.chain[0].test: unknown test 'panik-test' of scrollhammer; did you mean panic-test?",
        ),
        (
            ("p: flees", "p: fleez"),
            "line 14: add.calculators.line-panic.outputs.p_two_flee.p: unknown outcome 'fleez'",
        ),
    ],
)
def test_a_mistake_is_one_line_with_file_line_and_field(
    tmp_path: Path, mistake: tuple[str, str], message: str
) -> None:
    (tmp_path / "line.yaml").write_text(SHAKEN_LINE.replace(*mistake, 1), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_variant(tmp_path / "line.yaml")
    assert message in str(err.value), str(err.value)
    assert "\n" not in str(err.value) and "line.yaml, line " in str(err.value)


SKIRMISH_MISTAKES = [
    ("mechanics.yaml", "    pass: at-most", "    pass: at-mots", "tests.nerve.pass: expected one of at-most"),
    (
        "rules.yaml",
        "default: kept-dice",
        "default: kept-die",
        "interpretations[0].default: 'kept-die' is not",
    ),
    (
        "rules.yaml",
        '    cite: ["Nerve tests"]',
        '    cited: ["Nerve tests"]',
        "rules[0].cite: every rule cites",
    ),
    ("glossary.yaml", "    definition:", "    definitio:", "terms[0].definition: expected a non-empty text"),
    ("cases.yaml", "  calculator:", "  calculatr:", "[0]: each case needs name and calculator"),
    ("source.yaml", "short: Skirmish rules", "short: [1]", "short: expected a non-empty text"),
]
"""One mistake in each file of the Skirmish folder: the old text, the new, the field and reason."""


@pytest.mark.parametrize(("file", "old", "new", "message"), SKIRMISH_MISTAKES, ids=lambda x: str(x)[:20])
def test_a_mistake_in_a_system_s_file_is_one_line_with_file_line_and_field(
    tmp_path: Path, file: str, old: str, new: str, message: str
) -> None:
    """The line named is the line of the field (or, for a field left out, of the entry holding
    it), found here by reading the text."""
    from rulesbook.cases import load_cases
    from rulesbook.data import DataFileError
    from rulesbook.language.systems import load_data_system
    from rulesbook.records import load_source
    from rulesbook.site.glossary import load_glossary

    folder = tmp_path / "skirmish"
    shutil.copytree(SYSTEMS / "skirmish", folder)
    text = (folder / file).read_text(encoding="utf-8")
    assert old in text
    line = text[: text.index(old)].count("\n") + 1
    if new.startswith(("    cited", "    definitio", "  calculatr")):  # a field left out: its entry
        line = max(n for n, row in enumerate(text.splitlines()[:line], 1) if row.lstrip().startswith("- "))
    (folder / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    readers = {
        "glossary.yaml": lambda: load_glossary(folder / file, "skirmish"),
        "cases.yaml": lambda: load_cases(folder / file),
        "source.yaml": lambda: load_source(folder / file, "skirmish"),
    }
    with pytest.raises((DataFileError, InputError)) as err:
        readers.get(file, lambda: load_data_system(folder))()
    said = str(err.value)
    assert "\n" not in said
    assert said.startswith(f"skirmish/{file}, line {line}: {message}"), said


def test_the_command_line_says_a_broken_system_folder_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "skirmish"
    shutil.copytree(SYSTEMS / "skirmish", folder)
    mechanics = folder / "mechanics.yaml"
    text = mechanics.read_text(encoding="utf-8")
    line = text.splitlines().index("    target: nerve + modifier") + 1
    mechanics.write_text(text.replace("nerve + modifier", "nerve + modifer"), encoding="utf-8")
    env = {**os.environ, "RULESBOOK_SYSTEMS_DIR": str(tmp_path), "NO_COLOR": "1"}
    out = subprocess.run(
        [str(Path(sys.executable).with_name("rulesbook")), "calc", "skirmish.nerve-test"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 2 and not out.stdout
    assert out.stderr.startswith(
        f"rulesbook: error: skirmish/mechanics.yaml, line {line}: tests.nerve.target: unknown name 'modifer'"
    ), out.stderr
    assert out.stderr.count("\n") == 1
