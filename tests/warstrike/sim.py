"""A plain, seeded dice simulation of the WarStrike Starting Phase, written independently of
the library's exact code (no RollTest, no icepool): the tests compare the two."""

from __future__ import annotations

import random
from collections.abc import Sequence


def ld_test_passes(rng: random.Random, ld: int, reading: str) -> bool:
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    if reading == "2d6-natural-extremes":
        if a == b == 1:
            return True
        if a == b == 6:
            return False
        return a + b <= ld
    if reading == "2d6-below":
        return a + b < ld
    return a + b <= ld


def hive_vote_withdraws(
    rng: random.Random, lds: Sequence[int], reading: str, tie: str, reroll_failed: bool
) -> bool:
    passes = 0
    for ld in lds:
        ok = ld_test_passes(rng, ld, reading)
        if not ok and reroll_failed:
            ok = ld_test_passes(rng, ld, reading)
        passes += ok
    fails = len(lds) - passes
    return fails > passes or (tie == "withdraw" and fails == passes)


def morale_retreats(
    rng: random.Random,
    *,
    officer_ld: int | None = None,
    hive_lds: Sequence[int] | None = None,
    fanatical: bool = False,
    reading: str = "2d6-at-most",
    tie: str = "fight-on",
    fanatical_hive_mind: str = "reroll-whole-check",
) -> bool:
    """One Strike Force Morale check that is due: True when the force retreats."""
    if hive_lds is not None:
        if not hive_lds:
            return True
        per_unit = fanatical and fanatical_hive_mind == "reroll-failed-units"
        out = hive_vote_withdraws(rng, hive_lds, reading, tie, per_unit)
        if out and fanatical and fanatical_hive_mind == "reroll-whole-check":
            out = hive_vote_withdraws(rng, hive_lds, reading, tie, False)
        return out
    if officer_ld is None:
        return True
    if ld_test_passes(rng, officer_ld, reading):
        return False
    return not (fanatical and ld_test_passes(rng, officer_ld, reading))


def estimate(trials: int, seed: int, **kwargs: object) -> float:
    rng = random.Random(seed)
    return sum(morale_retreats(rng, **kwargs) for _ in range(trials)) / trials  # type: ignore[arg-type]
