"""Exact answers against seeded Monte Carlo simulations of the same processes.

The simulations are written from the rule texts, independently of the exact code: plain
``random.Random(seed)`` dice, no RollTest, no Markov chain. Tolerance: 4.5 standard errors of
the simulated frequency plus 0.002, so a correct exact answer fails less than once in 100 000
runs, while a wrong rule (a missed double 1, a ">" for a ">=") shows up clearly.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from rulesbook.dice import parse_dice
from rulesbook.registry import registry

N = 20_000


def close(exact: float, hits: int, n: int = N) -> bool:
    p = hits / n
    se = math.sqrt(max(exact * (1 - exact), 1e-12) / n)
    return abs(p - exact) <= 4.5 * se + 0.002


def roll(rng: random.Random, text: str) -> int:
    expr = parse_dice(text)
    return sum(rng.randint(1, expr.sides) for _ in range(expr.count)) + expr.modifier


def ld_test(rng: random.Random, ld: int, double_one_only: bool = False) -> bool:
    """2D6 against Ld as the rule text says it: total <= Ld, a double 1 always passes."""
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    if a == b == 1:
        return True
    return not double_one_only and a + b <= ld


def simulate_fall_back(
    rng: random.Random,
    ld: int,
    distance: int,
    half: bool,
    phases: int,
    dice: str,
    first_move: bool,
    every_phase: bool = False,
) -> str:
    left = distance
    if first_move:
        left -= roll(rng, dice)
        if left <= 0:
            return "removed"
    for phase in range(phases):
        if every_phase and phase > 0:  # the opponent's Movement phase: a move, no Regroup test
            left -= roll(rng, dice)
            if left <= 0:
                return "removed"
        if ld_test(rng, ld, double_one_only=not half):
            return "regrouped"
        left -= roll(rng, dice)
        if left <= 0:
            return "removed"
    return "falling_back"


FALL_BACK_CASES = [
    (7, 12, True, 3, "2D6", False, False),
    (8, 6, False, 2, "2D6", False, False),
    (6, 9, True, 4, "D6+1", False, False),
    (9, 14, True, 2, "3D6", True, False),
    (5, 20, False, 5, "2D6", True, False),
    (7, 18, True, 3, "2D6", False, True),
    (8, 14, True, 4, "D6", True, True),
]


@pytest.mark.covers(
    "scrollhammer.fall-back.move", "scrollhammer.fall-back.table-edge", "scrollhammer.regroup.test"
)
@pytest.mark.parametrize(
    ("ld", "distance", "half", "phases", "dice", "first_move", "every_phase"), FALL_BACK_CASES
)
def test_fall_back_chain_matches_simulation(
    ld: int, distance: int, half: bool, phases: int, dice: str, first_move: bool, every_phase: bool
) -> None:
    result = (
        registry()
        .calculator("scrollhammer.fall-back")
        .run(
            ld=ld,
            distance=distance,
            at_least_half=half,
            phases=phases,
            fall_back_dice=dice,
            first_move=first_move,
            movement_phases="every-movement-phase" if every_phase else "own-phases-only",
        )
    )
    rng = random.Random(1000 + ld * 100 + distance)
    counts = Counter(
        simulate_fall_back(rng, ld, distance, half, phases, dice, first_move, every_phase) for _ in range(N)
    )
    for key in ("removed", "regrouped", "falling_back"):
        assert close(result[f"p_{key}"], counts[key]), (key, result[f"p_{key}"], counts[key] / N)


def simulate_cascade(rng: random.Random, lds: list[int], model: str) -> int:
    if model == "next-unit":
        fled = 0
        for ld in lds:
            if ld_test(rng, ld):
                break
            fled += 1
        return fled
    fleeing = 1  # the unit that started it
    fled = 0
    for ld in lds:
        passes = 1 if model == "whole-line-once" else fleeing
        if not all(ld_test(rng, ld) for _ in range(passes)):
            fled += 1
            fleeing += 1
    return fled


@pytest.mark.covers("scrollhammer.morale.panic-test")
@pytest.mark.parametrize("model", [None, "next-unit", "whole-line-each-time", "whole-line-once"])
def test_panic_cascade_matches_simulation(model: str | None) -> None:
    """``None``: the calculator's default, which must be every unit of the line testing once."""
    lds = [7, 5, 8, 6]
    calc = registry().calculator("scrollhammer.panic-cascade")
    result = calc.run(lds=lds) if model is None else calc.run(lds=lds, panic_cascade=model)
    model = model or "whole-line-once"
    table = {row["units_fleeing"]: row["p"] for row in result.to_json()["distribution"]}
    rng = random.Random(77)
    counts = Counter(simulate_cascade(rng, lds, model) for _ in range(N))
    for k in range(len(lds) + 1):
        assert close(table.get(k, 0.0), counts[k]), (k, table.get(k), counts[k] / N)


@pytest.mark.covers("scrollhammer.morale.break-test", "scrollhammer.morale.insane-heroism")
@pytest.mark.parametrize(("ld", "lost_by"), [(8, 3), (7, 1), (9, 8), (6, 12)])
def test_break_test_matches_simulation(ld: int, lost_by: int) -> None:
    p = registry().calculator("scrollhammer.break-test").run(ld=ld, lost_by=lost_by)["p_pass"]
    rng = random.Random(ld * 31 + lost_by)
    assert close(p, sum(ld_test(rng, ld - lost_by) for _ in range(N)))


@pytest.mark.covers("scrollhammer.morale.pinning-test")
@pytest.mark.parametrize(
    ("ld", "attacks", "mode"), [(8, 2, "per-attack"), (7, 3, "per-attack"), (7, 3, "per-phase")]
)
def test_pinning_matches_simulation(ld: int, attacks: int, mode: str) -> None:
    p = (
        registry()
        .calculator("scrollhammer.pinning-test")
        .run(ld=ld, pinning_attacks=attacks, pinning_tests=mode)["p_pinned"]
    )
    rng = random.Random(ld + attacks)
    tests = attacks if mode == "per-attack" else 1
    assert close(p, sum(not all(ld_test(rng, ld) for _ in range(tests)) for _ in range(N)))


@pytest.mark.covers("scrollhammer.regroup.when-charged")
@pytest.mark.parametrize("ld", [1, 4, 7, 10])
def test_regroup_when_charged_matches_simulation(ld: int) -> None:
    r = registry().calculator("scrollhammer.regroup-when-charged").run(ld=ld)
    rng = random.Random(500 + ld)
    hits = sum(ld_test(rng, ld) for _ in range(N))
    assert close(r["p_regroup"], hits)
    assert close(r["p_destroyed"], N - hits)


@pytest.mark.covers("scrollhammer.regroup.test")
@pytest.mark.parametrize(("ld", "alive", "total"), [(8, 5, 10), (8, 4, 10), (6, 3, 5)])
def test_regroup_test_matches_simulation(ld: int, alive: int, total: int) -> None:
    p = (
        registry()
        .calculator("scrollhammer.regroup-test")
        .run(ld=ld, models_alive=alive, models_total=total)["p_regroup"]
    )
    rng = random.Random(ld * alive * total)
    half = 2 * alive >= total
    assert close(p, sum(ld_test(rng, ld, double_one_only=not half) for _ in range(N)))


@pytest.mark.covers(
    "scrollhammer.fall-back.distance", "scrollhammer.fall-back.trapped", "scrollhammer.fall-back.table-edge"
)
@pytest.mark.parametrize(
    ("dice", "slow", "mode", "distance", "blocked"),
    [
        ("2D6", "D6", "lowest-roll", 5, None),
        ("2D6", "2D6", "slowest-dice", None, 6),
        ("3D6", "2D6", "slowest-dice", 9, 4),
        ("3D6", None, "slowest-dice", 12, None),  # no second dice given: the unit's own 3D6
        ("D6+1", None, "lowest-roll", 5, 6),
    ],
)
def test_fall_back_move_matches_simulation(
    dice: str, slow: str | None, mode: str, distance: int | None, blocked: int | None
) -> None:
    inputs = {"slowest_model_dice": slow} if slow is not None else {}
    r = (
        registry()
        .calculator("scrollhammer.fall-back-move")
        .run(fall_back_dice=dice, slowest_model=mode, distance=distance, blocked_after=blocked, **inputs)
    )
    slow = slow or dice  # every model flees alike
    rng = random.Random(2024)
    counts: Counter[str] = Counter()
    for _ in range(N):
        # the cases above name the slower dice as slowest_model_dice
        if slow == dice:
            move = roll(rng, dice)
        elif mode == "lowest-roll":
            move = min(roll(rng, dice), roll(rng, slow))
        else:
            move = roll(rng, slow)
        if distance is not None and (blocked is None or distance <= blocked) and move >= distance:
            counts["flees"] += 1
        elif blocked is not None and move > blocked:
            counts["trapped"] += 1
        else:
            counts["moves"] += 1
    for key in ("flees", "trapped", "moves"):
        assert close(r[f"p_{key}"], counts[key]), key


@pytest.mark.covers("scrollhammer.fall-back.through-friends", "scrollhammer.morale.panic-test")
def test_through_friends_matches_simulation() -> None:
    r = registry().calculator("scrollhammer.fall-back-through-friends").run(clear_distance=7, friend_ld=6)
    rng = random.Random(9)
    through = panicked = 0
    for _ in range(N):
        if roll(rng, "2D6") > 7:
            through += 1
            panicked += not ld_test(rng, 6)
    assert close(r["p_passes_through"], through)
    assert close(r["p_friend_falls_back"], panicked)
