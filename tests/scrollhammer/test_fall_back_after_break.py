"""scrollhammer.fall-back started at a Break test (issue #34): an enumeration oracle.

The oracle below rolls every face of 2D6 itself (no rulesbook code): the Break test passes on a
total of at most Ld - lost_by or on a double 1; a unit that fails it makes its first Fall Back
move from the combat (the default reading: distance measured before it), then in each phase
takes a Regroup test (2D6 <= Ld, or a double 1) and, failing, falls back 2D6" again. A roll of
at least the distance left takes it off the table.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path

import pytest

from rulesbook.registry import registry
from rulesbook.variants import load_variant, run_with_variant

STANDARD = Path(__file__).parents[2] / "examples" / "designer" / "standard-reroll.yaml"
FACES = list(product(range(1, 7), repeat=2))


def passes(target: int, faces: tuple[int, int]) -> bool:
    return sum(faces) <= target or faces == (1, 1)


def p_break(ld: int, lost_by: int, standard: bool) -> Fraction:
    """P(pass); with a standard every pair of rolls is enumerated (the second counts only after a fail)."""
    if not standard:
        return Fraction(sum(passes(ld - lost_by, f) for f in FACES), 36)
    good = sum(passes(ld - lost_by, a) or passes(ld - lost_by, b) for a, b in product(FACES, FACES))
    return Fraction(good, 36 * 36)


@cache
def fled(ld: int, left: int, phases: int) -> tuple[Fraction, Fraction]:
    """(P(removed), P(regrouped)) of a unit ``left`` inches away with ``phases`` phases to go."""
    removed = regrouped = Fraction(0)
    if phases == 0:
        return removed, regrouped
    for test in FACES:
        if passes(ld, test):
            regrouped += Fraction(1, 36)
            continue
        for a, b in FACES:
            if a + b >= left:
                removed += Fraction(1, 36 * 36)
            else:
                r, g = fled(ld, left - a - b, phases - 1)
                removed, regrouped = removed + r / 1296, regrouped + g / 1296
    return removed, regrouped


def oracle(ld: int, lost_by: int, distance: int, phases: int, standard: bool) -> dict[str, Fraction]:
    held = p_break(ld, lost_by, standard)
    removed = regrouped = Fraction(0)
    for a, b in FACES:  # the first Fall Back move, from the combat
        if a + b >= distance:
            removed += Fraction(1, 36)
        else:
            r, g = fled(ld, distance - a - b, phases)
            removed, regrouped = removed + r / 36, regrouped + g / 36
    fail = 1 - held
    return {"p_held": held, "p_removed": fail * removed, "p_regrouped": fail * regrouped}


def exact(values: object, key: str) -> Fraction:
    return Fraction(values[f"{key}_exact"])  # type: ignore[index]


@pytest.mark.parametrize("standard", [False, True])
@pytest.mark.parametrize(
    ("ld", "lost_by", "distance", "phases"), [(7, 2, 2, 1), (8, 1, 9, 2), (9, 4, 14, 2), (7, 6, 6, 1)]
)
def test_the_chain_after_a_break_test_matches_the_enumeration(
    ld: int, lost_by: int, distance: int, phases: int, standard: bool
) -> None:
    calc = registry().calculator("scrollhammer.fall-back")
    inputs = {"ld": ld, "distance": distance, "phases": phases, "after": "break-test", "lost_by": lost_by}
    extra = {"has_standard": True} if standard else {}
    got = run_with_variant(calc, load_variant(STANDARD), **inputs, **extra)
    want = oracle(ld, lost_by, distance, phases, standard)
    assert {k: exact(got, k) for k in want} == want
    total = sum(
        (exact(got, k) for k in ("p_held", "p_removed", "p_regrouped", "p_falling_back")), Fraction(0)
    )
    assert total == 1
    assert got.tables[0].rows[-1][-1] == str(want["p_removed"])  # the phase table is weighted too


def test_the_default_start_holds_nothing_and_ignores_lost_by_and_the_standard() -> None:
    calc = registry().calculator("scrollhammer.fall-back")
    base = calc.run(ld=7, distance=12, phases=3)
    assert base["p_held"] == 0
    again = run_with_variant(
        calc, load_variant(STANDARD), ld=7, distance=12, phases=3, lost_by=5, has_standard=True
    )
    assert again.values == base.values


def test_the_distance_can_be_read_as_measured_after_the_first_move() -> None:
    calc = registry().calculator("scrollhammer.fall-back")
    inputs = {"ld": 8, "distance": 9, "phases": 2, "after": "break-test", "lost_by": 1}
    got = calc.run(**inputs, break_test_distance="after-first-move")
    held = p_break(8, 1, standard=False)
    removed, regrouped = fled(8, 9, 2)
    assert (exact(got, "p_held"), exact(got, "p_removed"), exact(got, "p_regrouped")) == (
        held,
        (1 - held) * removed,
        (1 - held) * regrouped,
    )
