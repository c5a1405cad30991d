"""Python variants hardened (issue 34, part 6): any set of natural rolls that pass whatever the
total works in every explanation; one bad file in ``$RULESBOOK_VARIANTS_DIR`` never breaks the
other lookups; a table's provenance carries a Python rule's code (or refuses to be written).

Oracles: the Morale check's chance is counted over the 36 rolls of two dice here, from the rule's
text (a total at or under the modified Leadership passes, and so does a named roll).
"""

from __future__ import annotations

import itertools
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.choices import RuleOverride
from rulesbook.cli import cli
from rulesbook.dice import TWO_D6, parse_dice
from rulesbook.errors import InputError
from rulesbook.present.rolls import rolls_text
from rulesbook.registry import registry
from rulesbook.variants import (
    Variant,
    load_python_variant,
    resolve_variant,
    run_with_variant,
    user_variant_problems,
    variant_from_provenance,
)

ANY_DOUBLE = """\
    \"\"\"Insane Heroism on any double.\"\"\"
    from rulesbook.variants import rule

    SYSTEM = "scrollhammer"
    TITLE = "Any double passes"

    @rule("scrollhammer.morale.check")
    def leadership_test(target, *rest, published, **named):
        test = published(target, *rest, **named)
        if not test.auto_pass:
            return test
        return test.with_(auto_pass=frozenset((face, face) for face in range(1, 7)))
    """

ODD_FACES = """\
    from rulesbook.variants import rule

    SYSTEM = "scrollhammer"
    TITLE = "Faces that are no faces"

    @rule("scrollhammer.morale.check")
    def leadership_test(target, *rest, published, **named):
        return published(target, *rest, **named).with_(auto_pass=frozenset({("x", "y")}))
    """


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def passing_rolls(target: int, named: set[tuple[int, int]]) -> Fraction:
    """Two dice counted one by one: a total at most ``target`` passes, and so does a named roll."""
    hits = sum(
        1
        for a, b in itertools.product(range(1, 7), repeat=2)
        if a + b <= target or tuple(sorted((a, b))) in named
    )
    return Fraction(hits, 36)


def with_auto_pass(rolls: frozenset[tuple[int, ...]]) -> Variant:
    """A variant in memory giving Insane Heroism the natural rolls ``rolls``."""

    def leadership_test(target: int, *rest: Any, published: Any, **named: Any) -> Any:
        test = published(target, *rest, **named)
        return test.with_(auto_pass=rolls) if test.auto_pass else test

    base = Variant.from_mapping({"system": "scrollhammer", "title": "Some rolls pass"}, name="some-rolls")
    return base.with_rules(
        (RuleOverride("scrollhammer.morale.check", leadership_test, target="leadership_test"),)
    )


# -- any set of natural rolls, in words ------------------------------------------------------------


@pytest.mark.parametrize(
    ("rolls", "dice", "reads", "words"),
    [
        ({(1, 1)}, "2D6", "kept", "a double 1"),
        ({(f, f) for f in range(1, 7)}, "2D6", "kept", "a double of any face"),
        ({(6, 6), (1, 1)}, "2D6", "kept", "a double 1 or 6"),
        ({(2, 1)}, "2D6", "kept", "a roll of 1 and 2"),
        ({(1, 2), (6, 6), (3, 4)}, "2D6", "kept", "a roll of 1 and 2, 3 and 4, or 6 and 6"),
        ({(1, 1, 1)}, "3D6", "kept", "a roll whose 3 dice all show 1"),
        ({(1, 1)}, "3D6kl2", "kept", "a roll whose 2 kept dice all show 1"),
        ({(f, f) for f in range(1, 7)}, "3D6kl2", "kept", "a roll whose 2 kept dice all show the same face"),
        ({(1, 1, 1)}, "3D6kl2", "rolled", "a roll whose 3 dice all show 1"),
        ({(6,), (5,)}, "D6", "kept", "a natural 5 or 6"),
        (set(), "2D6", "kept", "no roll"),
    ],
)
def test_natural_rolls_are_named_in_words(
    rolls: set[tuple[int, ...]], dice: str, reads: Any, words: str
) -> None:
    assert rolls_text(rolls, parse_dice(dice), reads) == words


@settings(max_examples=25, deadline=None)
@given(st.sets(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=7, max_size=20))
def test_many_rolls_are_counted_not_listed(rolls: set[tuple[int, int]]) -> None:
    distinct = {tuple(sorted(r)) for r in rolls}
    text = rolls_text(rolls, TWO_D6)
    if len(distinct) > 6:
        assert text.startswith(f"one of {len(distinct)} rolls") and "\n" not in text
    else:
        assert text.startswith(("a roll of", "a double"))


@pytest.mark.covers("scrollhammer.morale.check", "scrollhammer.morale.insane-heroism")
@settings(max_examples=20, deadline=None)
@given(
    rolls=st.frozensets(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=8),
    ld=st.integers(4, 10),
    modifier=st.integers(-2, 0),
)
def test_any_auto_pass_set_runs_and_is_explained(
    rolls: frozenset[tuple[int, int]], ld: int, modifier: int
) -> None:
    """A Python rule naming any natural rolls: the Morale check answers (the enumeration's
    chance) and its explanation names those rolls; every Scrollhammer calculator's worked
    examples still run under it."""
    variant = with_auto_pass(rolls)
    calc = registry().calculator("scrollhammer.morale-check")
    result = run_with_variant(calc, variant, ld=ld, modifier=modifier)
    named = {(min(r), max(r)) for r in rolls}
    assert Fraction(result["p_pass_exact"]) == passing_rolls(ld + modifier, named)
    line = next(line for line in result.explanation if "whatever the modifiers" in line)
    assert line.lower().startswith(rolls_text(rolls, TWO_D6))


@pytest.mark.covers("scrollhammer.morale.insane-heroism", "scrollhammer.regroup.test")
def test_every_scrollhammer_example_runs_under_any_double(tmp_path: Path) -> None:
    variant = load_python_variant(write(tmp_path, "any_double.py", ANY_DOUBLE))
    every = {(f, f) for f in range(1, 7)}
    for calc in registry().calculators_for_system("scrollhammer"):
        for example in calc.examples:
            run_with_variant(calc, variant, **example)  # no example fails under the new rule
    morale = run_with_variant(registry().calculator("scrollhammer.morale-check"), variant, ld=7)
    assert Fraction(morale["p_pass_exact"]) == passing_rolls(7, every)
    assert "A double of any face passes whatever the modifiers (Insane Heroism)." in morale.explanation
    regroup = run_with_variant(
        registry().calculator("scrollhammer.regroup-test"), variant, ld=8, models_alive=3, models_total=10
    )
    assert Fraction(regroup["p_regroup_exact"]) == Fraction(6, 36)  # under half: the six doubles only
    assert any(line.startswith("Only a double of any face passes") for line in regroup.explanation)


# -- one bad file never breaks another lookup -------------------------------------------------------


def test_a_bad_python_file_in_your_folder_is_left_out_and_the_others_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    write(folder, "any_double.py", ANY_DOUBLE)
    write(folder, "odd_faces.py", ODD_FACES)  # the published code fails under it
    write(folder, "quits.py", "raise SystemExit(3)\n")
    monkeypatch.setenv("RULESBOOK_VARIANTS_DIR", str(folder))
    res = CliRunner().invoke(
        cli, ["calc", "scrollhammer.morale-check", "ld=7", "variant=any-double", "--json"]
    )
    assert res.exit_code == 0, res.output
    assert '"p_pass_exact": "2/3"' in res.stdout  # 21 totals of 7 or less, and the doubles 4-4, 5-5, 6-6
    assert resolve_variant("fall-back-3d6").name == "fall-back-3d6"  # a shipped one too
    problems = user_variant_problems()
    assert set(problems) == {"odd_faces.py", "quits.py"}
    assert problems["odd_faces.py"].startswith(
        "odd_faces.py: scrollhammer.morale-check fails on its first worked example under this variant (TypeError"
    )
    assert "SystemExit" in problems["quits.py"]
    res = CliRunner().invoke(
        cli, ["calc", "scrollhammer.morale-check", "ld=7", f"variant={folder / 'odd_faces.py'}"]
    )
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "odd_faces.py" in res.stderr


# -- a table's provenance carries the Python it ran -------------------------------------------------


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_sweep_s_provenance_carries_the_python_and_rebuilds_the_same_table(
    tmp_path: Path, suffix: str
) -> None:
    from rulesbook.sweeps import read_table, sweep

    source = write(tmp_path, "any_double.py", ANY_DOUBLE)
    out = tmp_path / f"s{suffix}"
    res = CliRunner().invoke(
        cli,
        [
            "sweep",
            "scrollhammer.morale-check",
            "ld=5..7",
            "--variant",
            str(source),
            "--serial",
            "--csv" if suffix == ".csv" else "--parquet",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    source.write_text("# edited after the sweep\n", encoding="utf-8")  # the provenance keeps what ran
    table = read_table(out)
    definition = table.attrs["provenance"]["variants"]["any-double"]
    (code,) = definition["python"]
    assert code["file"] == "any_double.py" and code["rules"] == {
        "scrollhammer.morale.check": "leadership_test"
    }
    assert code["source"] == textwrap.dedent(ANY_DOUBLE)
    with pytest.raises(InputError, match=r"^variant again: python: this variant gives rules Python code"):
        Variant.from_mapping(definition, name="again")  # never silently the published rules
    (tmp_path / "rebuilt").mkdir()
    rebuilt = variant_from_provenance(definition, tmp_path / "rebuilt", name="any-double")
    again = sweep("scrollhammer.morale-check", {"ld": "5..7"}, [rebuilt], executor="serial")
    assert again["p_pass_exact"].tolist() == table["p_pass_exact"].tolist()
    doubles = {(f, f) for f in range(1, 7)}
    assert [Fraction(p) for p in table["p_pass_exact"]] == [
        *(passing_rolls(ld, {(1, 1)}) for ld in (5, 6, 7)),
        *(passing_rolls(ld, doubles) for ld in (5, 6, 7)),
    ]


def test_a_changed_source_in_a_provenance_is_refused(tmp_path: Path) -> None:
    from rulesbook.variants.sharing import variant_provenance

    definition = variant_provenance(load_python_variant(write(tmp_path, "any_double.py", ANY_DOUBLE)))
    definition["python"][0]["source"] += "print('more')\n"
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match=r"python\[0\].sha256: any_double.py: the text does not match"):
        variant_from_provenance(definition, tmp_path / "out")
    assert not (tmp_path / "out" / "any_double.py").exists()


def test_code_from_no_file_is_not_written_as_a_provenance(tmp_path: Path) -> None:
    """A rule or a compute function defined in a notebook cannot travel with the table: the
    export says so in one line instead of writing a provenance that reloads as other rules."""
    from rulesbook.sweeps import export, sweep

    in_memory = with_auto_pass(frozenset({(1, 1), (6, 6)}))
    table = sweep("scrollhammer.morale-check", {"ld": "6..7"}, [in_memory], executor="serial")
    with pytest.raises(
        InputError,
        match=r"^variant: some-rolls runs Python defined outside a variant file \(scrollhammer.morale.check",
    ):
        export(table, tmp_path / "t.csv")
    assert not (tmp_path / "t.csv").exists()
    calc = registry().calculator("wh40k.battle-shock")
    steady = Variant.define(
        "steady", system="wh40k", title="x", functions={calc.id: lambda **kw: calc.compute(**kw)}
    )
    table = sweep(calc.id, {"leadership": "6..7"}, [steady], executor="serial")
    with pytest.raises(
        InputError, match=r"steady runs Python defined outside a variant file \(wh40k.battle-shock"
    ):
        export(table, tmp_path / "t.parquet")


def test_a_checkpoint_knows_the_code_it_was_computed_with(tmp_path: Path) -> None:
    from rulesbook.sweeps.plan import plan_sweep

    source = write(tmp_path, "any_double.py", ANY_DOUBLE)
    before = plan_sweep("scrollhammer.morale-check", {"ld": "5..7"}, [str(source)]).fingerprint()
    source.write_text(textwrap.dedent(ANY_DOUBLE).replace("range(1, 7)", "range(1, 6)"), encoding="utf-8")
    after = plan_sweep("scrollhammer.morale-check", {"ld": "5..7"}, [str(source)]).fingerprint()
    assert before != after  # same function on the same line, other code: not the same sweep
