"""Strike Force Morale: exact results against independent derivations and a seeded simulation."""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.warstrike import rules as ws_rules
from rulesbook.systems.warstrike.rules import (
    MoraleOptions,
    check_required,
    hive_mind_passes,
    officer_ld_test,
    strike_force_morale,
)

from .sim import estimate

READINGS = ("2d6-at-most", "2d6-below", "2d6-natural-extremes")
CALC = "warstrike.strike-force-morale"


def p_pass_by_counting(ld: int, reading: str) -> Fraction:
    """P(pass) by listing the 36 rolls — independent of RollTest."""
    good = 0
    for a, b in itertools.product(range(1, 7), repeat=2):
        if reading == "2d6-natural-extremes" and (a, b) in ((1, 1), (6, 6)):
            good += (a, b) == (1, 1)
        elif reading == "2d6-below":
            good += a + b < ld
        else:
            good += a + b <= ld
    return Fraction(good, 36)


@pytest.mark.covers("warstrike.morale.officer-test")
@pytest.mark.parametrize("reading", READINGS)
def test_officer_test_matches_counting(reading: str) -> None:
    for ld in range(0, 13):
        assert officer_ld_test(ld, reading).p_pass() == p_pass_by_counting(ld, reading)  # type: ignore[arg-type]


@pytest.mark.covers("warstrike.morale.fanatical")
@given(ld=st.integers(0, 12), reading=st.sampled_from(READINGS))
def test_fanatical_officer_is_one_minus_fail_squared(ld: int, reading: str) -> None:
    q = 1 - p_pass_by_counting(ld, reading)
    r = strike_force_morale(
        starting_units=10,
        remaining_units=3,
        officer_ld=ld,
        fanatical=True,
        options=MoraleOptions(ld_test=reading),  # type: ignore[arg-type]
    )
    assert r.p_retreat == q * q


@pytest.mark.covers("warstrike.morale.trigger")
@given(starting=st.integers(1, 60), data=st.data())
def test_trigger_is_fewer_than_half(starting: int, data: st.DataObject) -> None:
    remaining = data.draw(st.integers(0, starting))
    assert check_required(starting, remaining) == (2 * remaining < starting)
    assert check_required(starting, remaining, MoraleOptions(morale_threshold="at-most-half")) == (
        2 * remaining <= starting
    )
    assert check_required(starting, remaining, MoraleOptions(morale_threshold="half-rounded-down")) == (
        remaining < starting // 2
    )
    # fewer units left never makes a check less likely
    if remaining and check_required(starting, remaining):
        assert check_required(starting, remaining - 1)


@pytest.mark.covers("warstrike.morale.hive-mind")
@given(lds=st.lists(st.integers(2, 12), min_size=1, max_size=6), reading=st.sampled_from(READINGS))
def test_hive_mind_vote_matches_enumeration(lds: list[int], reading: str) -> None:
    """The vote distribution equals a brute-force sum over every pass/fail pattern."""
    probs = [p_pass_by_counting(ld, reading) for ld in lds]
    brute: dict[int, Fraction] = {}
    for pattern in itertools.product((0, 1), repeat=len(lds)):
        p = math.prod(
            (pi if ok else 1 - pi for pi, ok in zip(probs, pattern, strict=True)), start=Fraction(1)
        )
        brute[sum(pattern)] = brute.get(sum(pattern), Fraction(0)) + p
    dist = hive_mind_passes(lds, reading)  # type: ignore[arg-type]
    assert {k: v for k, v in brute.items() if v} == dist.pmf()
    assert sum(dist.pmf().values()) == 1


@pytest.mark.covers("warstrike.morale.hive-mind")
@given(
    lds=st.lists(st.integers(2, 11), min_size=1, max_size=8), which=st.integers(0, 7), fanatical=st.booleans()
)
def test_hive_mind_monotone_in_ld(lds: list[int], which: int, fanatical: bool) -> None:
    """Raising one unit's Ld never makes withdrawal more likely."""
    i = which % len(lds)
    better = [*lds]
    better[i] += 1
    n = len(lds)

    def p(values: list[int]) -> Fraction:
        return strike_force_morale(
            starting_units=3 * n, remaining_units=n, hive_mind=True, unit_lds=values, fanatical=fanatical
        ).p_retreat

    assert p(better) <= p(lds)


@pytest.mark.covers("warstrike.morale.officer-test", "warstrike.morale.fanatical")
@given(ld=st.integers(0, 11), fanatical=st.booleans(), reading=st.sampled_from(READINGS))
def test_officer_monotone_and_fanatical_helps(ld: int, fanatical: bool, reading: str) -> None:
    def p(x: int, fan: bool) -> Fraction:
        return strike_force_morale(
            starting_units=10,
            remaining_units=2,
            officer_ld=x,
            fanatical=fan,
            options=MoraleOptions(ld_test=reading),  # type: ignore[arg-type]
        ).p_retreat

    assert p(ld + 1, fanatical) <= p(ld, fanatical)
    assert p(ld, True) <= p(ld, False)


@pytest.mark.covers("warstrike.morale.hive-mind", "warstrike.morale.fanatical")
@given(lds=st.lists(st.integers(2, 12), min_size=1, max_size=7))
def test_fanatical_hive_mind_readings_are_ordered(lds: list[int]) -> None:
    """Both re-roll readings help; none makes withdrawal likelier than no re-roll."""
    n = len(lds)

    def p(fan: bool, how: str) -> Fraction:
        return strike_force_morale(
            starting_units=3 * n,
            remaining_units=n,
            hive_mind=True,
            unit_lds=lds,
            fanatical=fan,
            options=MoraleOptions(fanatical_hive_mind=how),  # type: ignore[arg-type]
        ).p_retreat

    plain = p(False, "reroll-whole-check")
    assert p(True, "no-effect") == plain
    assert p(True, "reroll-whole-check") == plain**2
    assert p(True, "reroll-failed-units") <= plain


@pytest.mark.covers("warstrike.morale.hive-mind")
@given(lds=st.lists(st.integers(2, 12), min_size=2, max_size=8).filter(lambda v: len(v) % 2 == 0))
def test_tie_reading_only_matters_through_ties(lds: list[int]) -> None:
    n = len(lds)
    vote = hive_mind_passes(lds)

    def p(tie: str) -> Fraction:
        return strike_force_morale(
            starting_units=3 * n,
            remaining_units=n,
            hive_mind=True,
            unit_lds=lds,
            options=MoraleOptions(hive_mind_tie=tie),  # type: ignore[arg-type]
        ).p_retreat

    assert p("withdraw") - p("fight-on") == vote.p(n // 2)


MC_CASES = [
    pytest.param({"officer_ld": 8}, id="officer-ld8"),
    pytest.param({"officer_ld": 6, "fanatical": True}, id="officer-ld6-fanatical"),
    pytest.param({"officer_ld": 9, "reading": "2d6-below"}, id="officer-below"),
    pytest.param({"officer_ld": 11, "reading": "2d6-natural-extremes"}, id="officer-extremes"),
    pytest.param({"hive_lds": [6, 7, 7, 8, 5]}, id="hive-5"),
    pytest.param({"hive_lds": [7, 7, 6, 6]}, id="hive-4-tie-fights"),
    pytest.param({"hive_lds": [7, 7, 6, 6], "tie": "withdraw"}, id="hive-4-tie-withdraws"),
    pytest.param({"hive_lds": [6, 7, 7, 8, 5], "fanatical": True}, id="hive-fanatical-whole"),
    pytest.param(
        {"hive_lds": [6, 7, 7, 8, 5], "fanatical": True, "fanatical_hive_mind": "reroll-failed-units"},
        id="hive-fanatical-units",
    ),
]


@pytest.mark.covers(
    "warstrike.morale.officer-test", "warstrike.morale.hive-mind", "warstrike.morale.fanatical"
)
@pytest.mark.parametrize("kwargs", MC_CASES)
def test_exact_agrees_with_seeded_simulation(kwargs: dict[str, object]) -> None:
    """The calculator against 20 000 simulated checks (seeded); tolerance 4.5 standard errors."""
    hive = kwargs.get("hive_lds")
    inputs: dict[str, object] = {
        "fanatical": kwargs.get("fanatical", False),
        "ld_test": kwargs.get("reading", "2d6-at-most"),
        "hive_mind_tie": kwargs.get("tie", "fight-on"),
        "fanatical_hive_mind": kwargs.get("fanatical_hive_mind", "reroll-whole-check"),
    }
    if hive is not None:
        assert isinstance(hive, list)
        inputs |= {
            "officer_ld": None,
            "starting_units": 3 * len(hive),
            "remaining_units": len(hive),
            "hive_mind": True,
            "unit_lds": tuple(hive),
        }
    else:
        inputs |= {"starting_units": 10, "remaining_units": 4, "officer_ld": kwargs["officer_ld"]}
    exact = registry().calculator(CALC).run(**inputs)["p_retreat"]
    trials = 20_000
    est = estimate(trials, seed=20261129, **kwargs)
    se = math.sqrt(max(exact * (1 - exact), 1e-9) / trials)
    assert abs(est - exact) <= 4.5 * se + 1e-9


@pytest.mark.covers("warstrike.morale.hive-mind")
def test_interactive_speed() -> None:
    """A large Hive Mind force with mixed Ld answers well under 100 ms (uncached)."""
    calc = registry().calculator(CALC)
    lds = tuple([5, 6, 7, 8, 9, 10] * 5)
    ws_rules._passes.cache_clear()
    start = time.perf_counter()
    calc.compute(
        **calc.validate(
            {
                "starting_units": 60,
                "remaining_units": 30,
                "officer_ld": None,
                "hive_mind": True,
                "unit_lds": lds,
                "fanatical": True,
            }
        )
    )
    assert time.perf_counter() - start < 0.1


@pytest.mark.covers("warstrike.morale.trigger", "warstrike.morale.no-officer")
@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["starting_units=0", "remaining_units=0"], "starting_units"),
        (["starting_units=5", "remaining_units=-1"], "remaining_units"),
        (["starting_units=5", "remaining_units=2", "officer_ld=13"], "officer_ld"),
        (["starting_units=5", "remaining_units=2", "officer_ld=none", "hive_mind=yes"], "hive_mind"),
        (
            ["starting_units=5", "remaining_units=2", "officer_ld=none", "hive_mind=true", "unit_lds=7,x"],
            "unit_lds",
        ),
        (
            ["starting_units=5", "remaining_units=2", "officer_ld=none", "hive_mind=true", "unit_lds=7,13"],
            "unit_lds",
        ),
        (["starting_units=5", "remaining_units=0", "officer_ld=8"], "officer_ld"),
        (["starting_units=5", "remaining_units=2", "officer_ld=none", "ld_test=3d6"], "ld_test"),
        (["starting_units=5", "remaining_units=2", "officer_ld=none", "rules_version=0.51"], "rules_version"),
        (["starting_units=5", "remaining_units=2", "colour=red"], "colour"),
        (["starting_units=5"], "remaining_units"),
        (["starting_units=5", "remaining_units=2"], "officer_ld"),
    ],
)
def test_bad_input_is_one_line_naming_the_field(args: list[str], field: str) -> None:
    with pytest.raises(InputError) as info:
        registry().calculator(CALC).parse_assignments(args)
    assert info.value.field == field
    assert "\n" not in str(info.value)


@pytest.mark.covers("warstrike.morale.officer-test", "warstrike.morale.hive-mind")
def test_log_explains_the_check() -> None:
    r = (
        registry()
        .calculator(CALC)
        .run(
            starting_units=12,
            remaining_units=5,
            officer_ld=None,
            hive_mind=True,
            unit_lds=(7, 7, 6, 6, 8),
            fanatical=True,
        )
    )
    text = "\n".join(r.explanation)
    assert "5 of 12" in text and "tie fights on" in text and "Fanatical" in text
    vote = r.table("vote")
    assert [row[0] for row in vote.rows] == [0, 1, 2, 3, 4, 5]
    assert sum(Fraction(row[2]) for row in vote.rows) == 1
