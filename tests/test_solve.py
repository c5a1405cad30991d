"""Goal seek (`rulesbook solve`): exact, against brute force, over inputs and rule parameters."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.cli import cli
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.sweeps.solve import parse_condition, solve
from rulesbook.variants import Variant, run_with_variant


def two_d6_at_most(target: int) -> Fraction:
    """P(2D6 ≤ target), counted by hand over the 36 rolls (a double 1 is at most any target ≥ 2)."""
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= target), 36)


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


@pytest.mark.covers("scrollhammer.morale-check")
def test_the_issue_example_answers_exactly_with_its_neighbours() -> None:
    out = invoke(
        "solve", "scrollhammer.morale-check", "p_pass>=0.5", "over", "ld=2..12", "modifier=-1", "--json"
    )
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert {"key", "value", "output", "exact", "neighbours"} <= set(data)
    # Ld 8 at −1 tests on 7: 21 of 36 rolls; Ld 7 on 6: 15 of 36 (under a half)
    assert (data["key"], data["value"], data["exact"]) == ("ld", 8, str(two_d6_at_most(7)))
    assert data["output"] == pytest.approx(7 / 12)
    assert [(n["value"], n["exact"], n["meets"]) for n in data["neighbours"]] == [
        (7, str(two_d6_at_most(6)), False),
        (9, str(two_d6_at_most(8)), True),
    ]


@pytest.mark.covers("scrollhammer.break-test")
def test_over_a_rule_parameter() -> None:
    """Ld 8 beaten by 2: k Ld lost per point tests on 8 − 2k; P(hold) ≤ 25 % first at k = 2 (Ld 4: 6/36)."""
    out = invoke(
        "solve",
        "scrollhammer.break-test",
        "p_pass<=25%",
        "over",
        "parameter.break_ld_per_point=0..6",
        "ld=8",
        "lost_by=2",
        "--json",
    )
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["key"], data["value"], data["exact"]) == ("parameter.break_ld_per_point", 2, "1/6")
    assert [(n["value"], n["exact"]) for n in data["neighbours"]] == [(1, "5/12"), (3, "1/36")]
    largest = solve(
        "scrollhammer.break-test",
        "p_pass<=25%",
        ("parameter.break_ld_per_point", "0..6"),
        {"ld": "8", "lost_by": "2"},
        largest=True,
    )
    assert largest.value == "6"  # every k ≥ 2 meets it: the largest is the top of the range


def test_no_value_meeting_it_is_an_answer_not_an_error() -> None:
    out = invoke("solve", "scrollhammer.morale-check", "p_pass<1/36", "over", "ld=2..12", "--json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["value"], data["output"], data["exact"], data["neighbours"]) == (None, None, None, [])
    assert data["message"] == "no value of Leadership (Ld) in 2..12 meets p_pass<1/36"
    text = invoke("solve", "scrollhammer.morale-check", "p_pass<1/36", "over", "ld=2..12")
    assert text.exit_code == 0 and "No value of Leadership (Ld) in 2..12 meets p_pass<1/36." in text.stdout


def brute_force(
    calc_id: str,
    cond: str,
    key: str,
    values: list[int],
    fixed: dict[str, Any],
    largest: bool,
    variant: Variant | None = None,
) -> int | None:
    """The answer by running the calculator at every value (no early stop, no shared code)."""
    calc = registry().calculator(calc_id)
    condition = parse_condition(calc, cond)
    meeting = []
    for v in values:
        if key.startswith("parameter."):
            name = key.removeprefix("parameter.")
            params = {**(dict(variant.parameters) if variant else {}), name: v}
            here = Variant.define("brute", system=calc.system, title="brute", parameters=params)
            result = run_with_variant(calc, here, **fixed)
        else:
            result = run_with_variant(calc, variant, **{**fixed, key: v})
        exact = result.values.get(f"{condition.output}_exact")
        value = Fraction(exact) if isinstance(exact, str) else Fraction(result.values[condition.output])
        if condition.meets(value):
            meeting.append(v)
    if not meeting:
        return None
    return max(meeting) if largest else min(meeting)


@settings(max_examples=40, deadline=None)
@given(
    target=st.fractions(min_value=0, max_value=1, max_denominator=40),
    op=st.sampled_from([">=", "<=", ">", "<"]),
    modifier=st.integers(-3, 3),
    lo=st.integers(0, 6),
    width=st.integers(0, 6),
    largest=st.booleans(),
)
def test_solve_equals_brute_force_over_an_input(
    target: Fraction, op: str, modifier: int, lo: int, width: int, largest: bool
) -> None:
    cond = f"p_pass{op}{target}"
    values = list(range(lo, lo + width + 1))
    found = solve(
        "scrollhammer.morale-check",
        cond,
        ("ld", f"{lo}..{lo + width}"),
        {"modifier": str(modifier)},
        largest=largest,
    )
    expected = brute_force("scrollhammer.morale-check", cond, "ld", values, {"modifier": modifier}, largest)
    assert (None if found.value is None else int(found.value)) == expected


@settings(max_examples=25, deadline=None)
@given(
    target=st.fractions(min_value=0, max_value=1, max_denominator=20),
    op=st.sampled_from([">=", "<="]),
    leadership=st.integers(4, 10),
    largest=st.booleans(),
)
def test_solve_equals_brute_force_over_a_parameter(
    target: Fraction, op: str, leadership: int, largest: bool
) -> None:
    cond = f"p_pass{op}{target}"
    values = list(range(0, 7))
    found = solve(
        "scrollhammer.break-test",
        cond,
        ("parameter.break_ld_per_point", "0..6"),
        {"ld": str(leadership), "lost_by": "2"},
        largest=largest,
    )
    expected = brute_force(
        "scrollhammer.break-test",
        cond,
        "parameter.break_ld_per_point",
        values,
        {"ld": leadership, "lost_by": 2},
        largest,
    )
    assert (None if found.value is None else int(found.value)) == expected


def test_solve_under_a_variant_and_on_a_wh40k_and_an_army_morale_calculator() -> None:
    # 40k Battle-shock: pass on 2D6 ≥ Ld; on 3D6 with the variant. Ld 9 passes 10/36 on 2D6.
    plain = solve("wh40k.battle-shock", "p_pass>=1/2", ("leadership", "2..12"), largest=True)
    assert plain.value == "7" and plain.exact == "7/12"  # 2D6 ≥ 7: 21 of 36 rolls
    under = solve(
        "wh40k.battle-shock", "p_pass>=1/2", ("leadership", "2..12"), variant="battle-shock-3d6", largest=True
    )
    assert under.value == brute_force_value(under)
    morale = solve("army-morale.detachment-value", "morale>=5", ("points", "100..600"))
    # a Morale point per started 50 points: 201 points is the first worth 5
    assert morale.value == "201" and [n.value for n in morale.neighbours] == ["200", "202"]


def brute_force_value(found: Any) -> str | None:
    answer = brute_force(
        found.calc.id,
        found.condition.text,
        found.key,
        [int(v) for v in found.values],
        dict(found.inputs),
        found.largest,
        found.variant,
    )
    return None if answer is None else str(answer)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["p_pass>=0.5", "ld=2..12"], "over: expected one 'over KEY=a..b'"),
        (["p_pass>=0.5", "over"], "over: expected KEY=a..b after over"),
        (["p_pas>=0.5", "over", "ld=2..12"], "condition: unknown output 'p_pas'; did you mean p_pass?"),
        (["p_pass=0.5", "over", "ld=2..12"], "condition: expected OUTPUT>=TARGET"),
        (["p_pass>=1.5", "over", "ld=2..12"], "condition: p_pass is a probability: a target from 0 to 1"),
        (["p_pass>=half", "over", "ld=2..12"], "condition: expected a number, a fraction or a percentage"),
        (["p_pass>=0.5", "over", "ld=2..13"], "ld: expected an integer from 0 to 12, got 13"),
        (["p_pass>=0.5", "over", "ld=2..12", "ld=4"], "ld: given as an input and as the key to solve over"),
        (["p_pass>=0.5", "over", "parameter.nope=1..2"], "parameter.nope: unknown rule parameter"),
        (
            ["p_pass>=0.5", "over", "ld=2..12", "--variant", "battle-shock-3d6"],
            "variant: battle-shock-3d6 changes wh40k",
        ),
    ],
)
def test_bad_solves_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    out = invoke("solve", "scrollhammer.morale-check", *args)
    assert out.exit_code == 2
    assert out.stderr.startswith(f"rulesbook: error: {message}"), out.stderr
    assert out.stderr.count("\n") == 1


def test_parse_condition_reads_fractions_decimals_and_percentages_alike() -> None:
    calc = registry().calculator("wh40k.battle-shock")
    targets = {parse_condition(calc, f"p_pass>={t}").target for t in ("0.5", "1/2", "50%", ".5")}
    assert targets == {Fraction(1, 2)}
    with pytest.raises(InputError):
        parse_condition(calc, "p_pass>=1/0x")
