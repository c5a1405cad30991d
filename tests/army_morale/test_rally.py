"""The Rally calculator: exact odds against brute-force enumeration and a seeded simulation."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.registry import registry

RALLY = "army-morale.rally"
KEYS = ("blast_markers", "take_and_hold", "rescue_escorts", "cleanse", "capture_own", "capture_destroy")


def _verdict(a: int, b: int) -> str:
    if a > 0 and b > 0:
        return "continue"
    if a > 0 or b > 0:
        return "a" if a > 0 else "b"
    return "draw" if a == b else ("a" if a > b else "b")


def _brute_force(inp: dict[str, int]) -> Counter[str]:
    """Enumerate every equally likely combination of the dice, straight from the rule texts."""
    d3s = [3] * (inp["a_take_and_hold"] + inp["b_take_and_hold"])
    d6s = [6] * (
        inp["a_capture_own"] + inp["a_capture_destroy"] + inp["b_capture_own"] + inp["b_capture_destroy"]
    )
    counts: Counter[str] = Counter()
    for faces in itertools.product(*(range(1, s + 1) for s in d3s + d6s)):
        it = iter(faces)
        th_a = [next(it) for _ in range(inp["a_take_and_hold"])]
        th_b = [next(it) for _ in range(inp["b_take_and_hold"])]
        own_a = [next(it) for _ in range(inp["a_capture_own"])]
        des_a = [next(it) for _ in range(inp["a_capture_destroy"])]
        own_b = [next(it) for _ in range(inp["b_capture_own"])]
        des_b = [next(it) for _ in range(inp["b_capture_destroy"])]
        a = (
            inp["a_morale"]
            - inp["a_blast_markers"]
            + sum(th_a)
            + inp["a_rescue_escorts"]
            - inp["b_rescue_escorts"]
            + inp["a_cleanse"]
            + sum(own_a)
            - sum(des_b)
        )
        b = (
            inp["b_morale"]
            - inp["b_blast_markers"]
            + sum(th_b)
            + inp["b_rescue_escorts"]
            - inp["a_rescue_escorts"]
            + inp["b_cleanse"]
            + sum(own_b)
            - sum(des_a)
        )
        counts[_verdict(a, b)] += 1
    return counts


def small_inputs() -> st.SearchStrategy[dict[str, int]]:
    side = {
        "morale": st.integers(-3, 8),
        "blast_markers": st.integers(0, 5),
        "take_and_hold": st.integers(0, 2),
        "rescue_escorts": st.integers(0, 2),
        "cleanse": st.integers(0, 2),
        "capture_own": st.integers(0, 1),
        "capture_destroy": st.integers(0, 1),
    }
    return st.fixed_dictionaries({f"{s}_{k}": v for s in "ab" for k, v in side.items()})


@pytest.mark.covers(
    "army-morale.ongoing.blast-markers",
    "army-morale.ongoing.take-and-hold",
    "army-morale.ongoing.rescue",
    "army-morale.ongoing.cleanse",
    "army-morale.one-time.capture",
    "army-morale.game-end",
)
@settings(max_examples=40)
@given(small_inputs())
def test_exact_odds_equal_brute_force_enumeration(inp: dict[str, int]) -> None:
    result = registry().calculator(RALLY).run(**inp)
    counts = _brute_force(inp)
    total = sum(counts.values())
    for key, verdict in (
        ("p_a_wins", "a"),
        ("p_b_wins", "b"),
        ("p_draw", "draw"),
        ("p_continue", "continue"),
    ):
        assert Fraction(result[f"{key}_exact"]) == Fraction(counts[verdict], total), key


@pytest.mark.covers("army-morale.game-end")
@given(small_inputs())
def test_outcome_probabilities_and_pmfs_sum_to_one(inp: dict[str, int]) -> None:
    result = registry().calculator(RALLY).run(**inp)
    total = sum(Fraction(result[f"{k}_exact"]) for k in ("p_a_wins", "p_b_wins", "p_draw", "p_continue"))
    assert total == 1
    for name in ("a_values", "b_values", "joint"):
        rows = result.table(name).to_records()
        assert sum(Fraction(r["p_exact"]) for r in rows) == 1


@pytest.mark.covers("army-morale.ongoing.blast-markers", "army-morale.ongoing.take-and-hold")
@given(small_inputs(), st.integers(1, 4))
def test_more_value_never_hurts_and_more_markers_never_help(inp: dict[str, int], step: int) -> None:
    calc = registry().calculator(RALLY)
    base = calc.run(**inp)
    richer = calc.run(**{**inp, "a_morale": inp["a_morale"] + step})
    marked = calc.run(**{**inp, "a_blast_markers": inp["a_blast_markers"] + step})
    held = calc.run(**{**inp, "a_take_and_hold": inp["a_take_and_hold"] + 1})
    p = lambda r, k: Fraction(r[f"{k}_exact"])  # noqa: E731
    assert p(richer, "p_a_wins") >= p(base, "p_a_wins")
    assert p(richer, "p_b_wins") <= p(base, "p_b_wins")
    assert p(marked, "p_a_wins") <= p(base, "p_a_wins")
    assert p(held, "p_b_wins") <= p(base, "p_b_wins")


@pytest.mark.covers(
    "army-morale.ongoing.take-and-hold", "army-morale.one-time.capture", "army-morale.game-end"
)
def test_exact_equals_seeded_monte_carlo() -> None:
    """Seeded simulation (random.Random(2026)), N = 40 000: each probability within 4 standard errors."""
    inp: dict[str, Any] = {
        "a_morale": 4,
        "a_blast_markers": 5,
        "a_take_and_hold": 3,
        "a_capture_destroy": 1,
        "b_morale": 3,
        "b_blast_markers": 2,
        "b_take_and_hold": 1,
        "b_capture_own": 1,
        "b_rescue_escorts": 1,
    }
    result = registry().calculator(RALLY).run(**inp)
    rng = random.Random(2026)
    n = 40_000
    counts: Counter[str] = Counter()
    for _ in range(n):
        a = 4 - 5 + sum(rng.randint(1, 3) for _ in range(3)) - 1
        destroy = rng.randint(1, 6)
        b = 3 - 2 + rng.randint(1, 3) + rng.randint(1, 6) + 1 - destroy
        counts[_verdict(a, b)] += 1
    for key, verdict in (
        ("p_a_wins", "a"),
        ("p_b_wins", "b"),
        ("p_draw", "draw"),
        ("p_continue", "continue"),
    ):
        p = result[key]
        se = max((p * (1 - p) / n) ** 0.5, 1e-4)
        assert abs(counts[verdict] / n - p) <= 4 * se, key


@pytest.mark.covers("army-morale.game-end")
def test_equal_values_alternative_counts_as_no_winner() -> None:
    calc = registry().calculator(RALLY)
    a = calc.run(a_morale=0, b_morale=0)
    b = calc.run(a_morale=0, b_morale=0, equal_values="both-lose")
    assert a["p_draw_exact"] == b["p_draw_exact"] == "1"
    assert a.table("joint").rows[0][-1] == "draw" and b.table("joint").rows[0][-1] == "both-lose"


def test_typical_call_is_fast() -> None:
    import time

    calc = registry().calculator(RALLY)
    start = time.process_time()  # CPU time: other work on the machine does not count
    checked = calc.validate({"a_morale": 9, "a_take_and_hold": 3, "b_morale": 7, "b_capture_destroy": 2})
    calc.compute(**calc.compute_arguments(checked))
    assert time.process_time() - start < 0.1
