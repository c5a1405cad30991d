"""The designer rules lab from the command line: variant files (YAML and Python) that change
thresholds, conditions and rules, each answer checked against an oracle that imports nothing
from the rules it checks (closed forms from the rules' text, brute force, seeded Monte Carlo).
"""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from rulesbook.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def calc(*args: str) -> dict[str, Any]:
    res = CliRunner().invoke(cli, ["calc", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)["result"]  # type: ignore[no-any-return]


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


# -- 40k: Below Half-strength at a third ----------------------------------------------------------


@pytest.mark.covers("wh40k.core.starting-strength", "wh40k.attack-and-battle-shock")
def test_below_a_third_from_a_variant_file(tmp_path: Path) -> None:
    """Ten shots, BS 4+, S4 against T4, no save, D1, at twelve 1-wound models, Ld 7. From the
    rules' text: each shot kills with 1/2 x 1/2; below a third of 12 means 3 or fewer left (9+
    destroyed); the Battle-shock test passes on 2D6 >= 7 (21 of 36)."""
    third = write(
        tmp_path,
        "third.yaml",
        "system: wh40k\ntitle: Below a third\nparameters:\n  below_strength_fraction: 1/3\n",
    )
    args = ["wh40k.attack-and-battle-shock", "weapons=guns: A=10 BS=4 S=4 AP=0 D=1", "toughness=4", "save=7"]
    args += ["wounds=1", "models=12", "leadership=7"]
    got = calc(*args, f"variant={third}")
    p = Fraction(1, 4)
    below = sum(math.comb(10, k) * p**k * (1 - p) ** (10 - k) for k in range(9, 11))
    assert Fraction(got["p_below_half_exact"]) == below
    assert Fraction(got["p_battle_shocked_exact"]) == below * (1 - Fraction(21, 36))
    half = sum(math.comb(10, k) * p**k * (1 - p) ** (10 - k) for k in range(7, 11))  # 5 or fewer left
    assert Fraction(calc(*args)["p_below_half_exact"]) == half  # the published rules: unchanged
    rng = random.Random(24)  # and a seeded Monte Carlo of the whole chain, from the text
    trials, shocked = 200_000, 0
    for _ in range(trials):
        dead = sum(rng.randint(1, 6) >= 4 and rng.randint(1, 6) >= 4 for _ in range(10))
        if 12 - dead < 12 / 3 and rng.randint(1, 6) + rng.randint(1, 6) < 7:
            shocked += 1
    assert (
        abs(shocked / trials - got["p_battle_shocked"])
        < 4 * math.sqrt(got["p_battle_shocked"] / trials) + 1e-5
    )


# -- Scrollhammer: a weak unit tests at -2 --------------------------------------------------------


def two_d6_at_most(target: int) -> Fraction:
    """2D6 <= target, a double 1 always passing (Insane Heroism), by brute force."""
    rolls = list(itertools.product(range(1, 7), repeat=2))
    return Fraction(sum(a + b <= target or (a, b) == (1, 1) for a, b in rolls), len(rolls))


@pytest.mark.covers("scrollhammer.morale.modifiers", "scrollhammer.morale-check", "scrollhammer.break-test")
@pytest.mark.parametrize(
    ("left", "start", "weak"), [(2, 10, True), (3, 12, False), (0, 5, True), (10, 10, False)]
)
def test_a_unit_below_a_quarter_tests_at_minus_two(tmp_path: Path, left: int, start: int, weak: bool) -> None:
    variant = write(
        tmp_path,
        "weak.yaml",
        """\
        system: scrollhammer
        title: Broken units waver
        parameters:
          weak_unit_percent: 25
          weak_unit_modifier: -2
        """,
    )
    strength = [f"models_left={left}", f"starting_models={start}", f"variant={variant}"]
    penalty = 2 if weak else 0
    check = calc("scrollhammer.morale-check", "ld=8", *strength)
    assert Fraction(check["p_pass_exact"]) == two_d6_at_most(8 - penalty)
    broken = calc("scrollhammer.break-test", "ld=8", "lost_by=1", *strength)
    assert Fraction(broken["p_pass_exact"]) == two_d6_at_most(8 - 1 - penalty)
    panic = calc("scrollhammer.panic-test", "ld=7", *strength)
    assert Fraction(panic["p_pass_exact"]) == two_d6_at_most(7 - penalty)
    # without the variant the strength changes nothing
    assert Fraction(
        calc("scrollhammer.morale-check", "ld=8", f"models_left={left}", f"starting_models={start}")[
            "p_pass_exact"
        ]
    ) == two_d6_at_most(8)


def test_strength_inputs_go_together() -> None:
    res = CliRunner().invoke(cli, ["calc", "scrollhammer.morale-check", "ld=8", "models_left=2"])
    assert (
        res.exit_code == 2 and "starting_models: give models_left and starting_models together" in res.output
    )
    res = CliRunner().invoke(
        cli, ["calc", "scrollhammer.panic-test", "ld=8", "models_left=9", "starting_models=5"]
    )
    assert res.exit_code == 2 and "models_left: at most starting_models (5), got 9" in res.output


# -- Army Morale: +1 per detachment -------------------------------------------------------------


@pytest.mark.covers("army-morale.detachment.value", "army-morale.replay")
def test_every_detachment_worth_one_more(tmp_path: Path) -> None:
    """The example log's starting values from its own file: one Morale point per started 50
    points (the register's default formula) per detachment, plus one each under the variant."""
    variant = write(
        tmp_path,
        "plus1.yaml",
        "system: army-morale\ntitle: One more\nparameters:\n  detachment_value_bonus: 1\n",
    )
    log = ROOT / "rulesbook/systems/army_morale/data/example-game.yaml"
    game = yaml.safe_load(log.read_text(encoding="utf-8"))
    for side in ("a", "b"):
        detachments = game["armies"][side]["detachments"]
        published = sum(math.ceil(d["points"] / 50) for d in detachments)
        got = calc("army-morale.replay", f"log={log}")
        assert got[f"{side}_start"] == published
        assert calc("army-morale.replay", f"log={log}", f"variant={variant}")[
            f"{side}_start"
        ] == published + len(detachments)
    assert calc("army-morale.detachment-value", "points=225", f"variant={variant}")["morale"] == 6


# -- Python variants at rule level --------------------------------------------------------------

NO_REGROUP = """\
    \"\"\"Falling-back units never regroup.\"\"\"
    from rulesbook.variants import rule

    SYSTEM = "scrollhammer"
    TITLE = "No regrouping"

    @rule("scrollhammer.regroup.test")
    def regroup_test(ld, at_least_half, choices=None, strength=None, *, published):
        return published(ld, at_least_half, choices, strength).with_(always_fail=True, auto_pass=frozenset())
    """


@pytest.mark.covers("scrollhammer.regroup.test", "scrollhammer.fall-back", "scrollhammer.regroup-test")
def test_a_python_rule_override_reaches_the_composite_fall_back_chain(tmp_path: Path) -> None:
    variant = write(tmp_path, "no_regroup.py", NO_REGROUP)
    assert Fraction(calc("scrollhammer.regroup-test", "ld=8", f"variant={variant}")["p_regroup_exact"]) == 0
    chain = calc("scrollhammer.fall-back", "ld=7", "distance=12", "phases=3", f"variant={variant}")
    assert (
        Fraction(chain["p_regrouped_exact"])
        == 0
        < Fraction(calc("scrollhammer.fall-back", "ld=7", "distance=12", "phases=3")["p_regrouped_exact"])
    )
    res = CliRunner().invoke(
        cli, ["compare", "scrollhammer.fall-back", "ld=7", "distance=12", "--variant", variant]
    )
    assert res.exit_code == 0 and "no-regroup" in res.output


def test_a_mistake_in_a_rule_function_is_one_line_naming_file_function_and_line(tmp_path: Path) -> None:
    broken = write(
        tmp_path,
        "broken.py",
        """\
        from rulesbook.variants import rule
        SYSTEM = "scrollhammer"
        TITLE = "Broken"

        @rule("scrollhammer.regroup.test")
        def regroup_test(ld, at_least_half, choices=None, strength=None, *, published):
            return 1 / 0
        """,
    )
    res = CliRunner().invoke(cli, ["calc", "scrollhammer.regroup-test", "ld=8", f"variant={broken}"])
    assert res.exit_code == 2
    line = res.stderr.strip()
    assert "\n" not in line and "broken.py" in line and "regroup_test" in line
    assert "ZeroDivisionError" in line and "line 7" in line


def test_a_rule_function_of_the_wrong_type_is_caught_at_load(tmp_path: Path) -> None:
    wrong = write(
        tmp_path,
        "wrong.py",
        """\
        from rulesbook.variants import rule
        SYSTEM = "scrollhammer"
        TITLE = "Wrong type"

        @rule("scrollhammer.regroup.test")
        def regroup_test(ld, at_least_half, choices=None, strength=None):
            return 0.5
        """,
    )
    from rulesbook.errors import InputError
    from rulesbook.variants import load_python_variant

    with pytest.raises(
        InputError, match=r"wrong.py: .*regroup_test \(line 5\) returned float .*returns RollTest"
    ):
        load_python_variant(wrong)


def test_a_python_variant_cannot_name_a_missing_argument_or_a_rule_without_choices(tmp_path: Path) -> None:
    from rulesbook.errors import InputError
    from rulesbook.variants import load_python_variant

    short = write(
        tmp_path,
        "short.py",
        """\
        from rulesbook.variants import rule
        SYSTEM = "scrollhammer"
        TITLE = "Short"

        @rule("scrollhammer.regroup.test")
        def regroup_test(ld):
            return None
        """,
    )
    with pytest.raises(
        InputError, match=r"short.py: regroup_test \(line 5\): .*does not accept at_least_half"
    ):
        load_python_variant(short)
    fixed = write(
        tmp_path,
        "fixed.py",
        """\
        from rulesbook.variants import rule
        SYSTEM = "scrollhammer"
        TITLE = "Fixed"

        @rule("scrollhammer.fall-back.direction")
        def fall_back_edge(has_own_edge):
            return "nearest table edge"
        """,
    )
    with pytest.raises(InputError, match=r"fall-back.direction's code takes no choice set"):
        load_python_variant(fixed)


def test_a_python_variant_runs_in_the_server_s_worker_processes(tmp_path: Path) -> None:
    """Overrides travel to another process by file and function name (the compute pool)."""
    variant = write(tmp_path, "no_regroup.py", NO_REGROUP)
    code = (
        "import pickle, sys\n"
        "from rulesbook.registry import registry\n"
        "from rulesbook.variants import resolve_variant\n"
        f"v = resolve_variant({variant!r})\n"
        "choices = v.apply(registry().choices['scrollhammer'])\n"
        "sys.stdout.buffer.write(pickle.dumps(choices))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, cwd=ROOT).stdout
    check = (
        "import pickle, sys\n"
        "from rulesbook.registry import registry\n"
        "choices = pickle.loads(sys.stdin.buffer.read())\n"
        "calc = registry().calculator('scrollhammer.regroup-test')\n"
        "print(calc.run_validated(calc.validate({'ld': 8}, choices), choices)['p_regroup_exact'])\n"
    )
    res = subprocess.run([sys.executable, "-c", check], input=out, capture_output=True, check=True, cwd=ROOT)
    assert res.stdout.decode().strip() == "0"


def test_your_variants_folder_reaches_compare_with_and_the_python_front_door(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Python variant in $RULESBOOK_VARIANTS_DIR is offered by the forms' "Compare with" and
    answered there; the notebooks' front door takes a path or the name alike."""
    folder = tmp_path / "mine"
    folder.mkdir()
    write(folder, "no_regroup.py", NO_REGROUP)
    write(folder, "broken.yaml", "system: scrollhammer\ntitle: x\nparameters: {nope: 1}\n")
    monkeypatch.setenv("RULESBOOK_VARIANTS_DIR", str(folder))
    import rulesbook as rb
    from rulesbook.registry import registry
    from rulesbook.variants import user_variant_problems, user_variants
    from widgets.forms.compare import answer, variant_options

    assert "no-regroup" in user_variants() and "broken.yaml" in user_variant_problems()
    calc = registry().calculator("scrollhammer.regroup-test")
    assert "no-regroup" in variant_options(calc)
    found = answer(calc.id, {"ld": 8}, "no-regroup")
    assert found.error == "" and [r["p_regroup_exact"] for _, r in found.results] == ["13/18", "0"]
    assert rb.calc("scrollhammer.regroup-test", ld=8, variant="no-regroup")["p_regroup_exact"] == "0"
    assert (
        rb.calc("scrollhammer.regroup-test", ld=8, variant=str(folder / "no_regroup.py"))["p_regroup_exact"]
        == "0"
    )
