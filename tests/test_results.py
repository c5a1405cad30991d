"""Exact result values: distribution queries and presentations."""

from __future__ import annotations

from fractions import Fraction

import matplotlib
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.dice import D6, TWO_D6, DiceExpr
from rulesbook.present import table_html, table_markdown
from rulesbook.results import (
    CalcResult,
    Distribution,
    Table,
    fold_both_lose,
    fraction_str,
    markov_step,
    probability_values,
    to_jsonable,
)

matplotlib.use("Agg")


def test_queries_on_two_d6() -> None:
    d = TWO_D6.distribution()
    assert d.p_at_least(2) == 1 and d.p_at_most(12) == 1
    assert d.p_at_least(12) == Fraction(1, 36)
    assert d.p(1) == 0
    assert d.map(lambda t: t >= 7).p(True) == Fraction(21, 36)


def test_from_pairs_merges_and_drops_zeros() -> None:
    d = Distribution.from_pairs(
        [(1, Fraction(1, 2)), (2, Fraction(0)), (1, Fraction(1, 4)), (3, Fraction(1, 4))]
    )
    assert d.items == ((1, Fraction(3, 4)), (3, Fraction(1, 4)))


def test_rejects_probabilities_not_summing_to_one() -> None:
    with pytest.raises(ValueError, match="sum"):
        Distribution(((1, Fraction(1, 2)),))


@given(st.integers(1, 3), st.integers(-2, 2))
def test_table_frame_and_html_agree(count: int, mod: int) -> None:
    d = DiceExpr(count, 6, mod).distribution()
    frame = d.to_frame("total")
    assert list(frame.columns) == ["total", "p_exact", "p", "p_at_least", "p_at_most"]
    assert len(frame) == len(d)
    assert frame["p"].sum() == pytest.approx(1)
    assert [Fraction(x) for x in frame["p_exact"]] == [p for _, p in d]
    html = table_html(d.table())
    assert html.count("<tr>") == len(d) + 1


def test_plot_draws_one_bar_per_outcome() -> None:
    ax = TWO_D6.distribution().plot(title="2D6")
    assert len(ax.patches) == 11
    assert ax.get_title() == "2D6"


def test_json_forms() -> None:
    assert fraction_str(Fraction(6, 36)) == "1/6"
    assert probability_values("p", Fraction(1, 4)) == {"p": 0.25, "p_exact": "1/4"}
    assert to_jsonable({"a": (Fraction(1, 2), None)}) == {"a": ["1/2", None]}
    table = Table("t", "T", ("x", "p"), ((1, Fraction(1, 3)),))
    result = CalcResult({"p": 0.5}, tables=(table,), warnings=("careful",))
    assert result.to_json() == {"p": 0.5, "t": [{"x": 1, "p": "1/3"}], "warnings": ["careful"]}
    assert "| x | p |" in table_markdown(table)


def test_results_are_immutable_so_the_shared_cache_cannot_be_corrupted() -> None:
    from rulesbook.registry import registry

    calc = registry().calculator("scrollhammer.morale-check")
    first = calc.run(ld=7)
    with pytest.raises(TypeError):
        first.values["p_pass_exact"] = "1"  # type: ignore[index]
    outcomes = first.to_json()["outcomes"]
    outcomes.clear()  # the JSON form is a fresh copy
    assert calc.run(ld=7)["p_pass_exact"] == "7/12"
    assert len(calc.run(ld=7).to_json()["outcomes"]) == 6


def test_huge_exact_fractions_print_and_summarise() -> None:
    from rulesbook.present import short_fraction

    huge = Fraction(3**10000, 7**9000)  # 4772 and 7606 digits: beyond Python's default str limit
    text = fraction_str(huge)
    num, den = text.split("/")
    assert (len(num), len(den)) == (4772, 7606)
    assert Fraction(int(num[:50]), 1) == 3**10000 // 10 ** (4772 - 50)
    short = short_fraction(text)
    assert short.startswith("≈ ") and "4772-digit / 7606-digit" in short
    # 3^10000 / 7^9000 = 10^(10000 log10 3 - 9000 log10 7) = 10^-2834.04...
    assert short.split("(")[0].split()[-1] == "10⁻²⁸³⁵"  # a power of ten, never e-notation
    assert "e" not in short.split("(")[0]
    table = Table("t", "T", ("p",), ((text,),))
    assert "4772-digit" in table_html(table) and "4772-digit" in table_markdown(table)


# -- Markov steps and verdict folding ----------------------------------------------------------------


def test_markov_step_of_a_distribution_is_the_sum_of_independent_rolls() -> None:
    d6 = D6.distribution()
    two = d6.markov_step(lambda x: d6.map(lambda d: x + d))
    assert two == TWO_D6.distribution()
    assert Distribution.certain(5).markov_step(lambda x: [(x, Fraction(1))]) == Distribution.certain(5)


def test_markov_step_keeps_leaking_mass_apart() -> None:
    # a counter that stops ("done") with chance 1/3 each step, else goes up by one
    masses: dict[object, Fraction] = {0: Fraction(1)}
    done = Fraction(0)
    for _ in range(3):
        masses = markov_step(masses, lambda k: [("done", Fraction(1, 3)), (k + 1, Fraction(2, 3))])  # type: ignore[operator]
        done += masses.pop("done", Fraction(0))
    assert masses == {3: Fraction(8, 27)}
    assert done == 1 - Fraction(8, 27)
    assert markov_step({1: Fraction(1)}, lambda s: [(s, Fraction(0))]) == {}


def test_fold_both_lose_counts_it_as_a_draw() -> None:
    verdicts = ["a", "b", "draw", "both-lose", "continue"]
    assert [fold_both_lose(v) for v in verdicts] == ["a", "b", "draw", "draw", "continue"]
    assert fold_both_lose("mutual-loss", draw="tie", both_lose="mutual-loss") == "tie"
