"""Scrollhammer Morale rules as typed code.

Every Leadership-based test here is a :class:`rulesbook.dice.RollTest` on 2D6, roll-under;
the rules only choose its target, natural results and automatic failure.

Example:
    >>> morale_check(ld=7, modifier=-1).p_pass()
    Fraction(5, 12)
    >>> morale_check(ld=7, falling_back=True).p_pass()
    Fraction(0, 1)
"""

from __future__ import annotations

from typing import Literal

from rulesbook.dice import TWO_D6, RollTest, double
from rulesbook.registry import implements

__all__ = ["INSANE_HEROISM", "LdBounds", "modified_ld", "morale_check"]

INSANE_HEROISM = double(1)
"""The natural result that passes any Morale check: both dice show 1."""

type LdBounds = Literal["none", "max-10"]
type HeroismLowLd = Literal["passes", "fails"]
type HeroismFallingBack = Literal["automatic-failure", "heroism-passes"]


@implements("scrollhammer.morale.modifiers")
def modified_ld(ld: int, modifier: int = 0, ld_bounds: LdBounds = "none") -> int:
    """Leadership after the summed modifier (and the optional cap of the ld-bounds entry).

    >>> modified_ld(8, -2), modified_ld(9, +3, "max-10")
    (6, 10)
    """
    value = ld + modifier
    if ld_bounds == "max-10":
        value = min(value, 10)
    return value


@implements(
    "scrollhammer.morale.check",
    "scrollhammer.morale.insane-heroism",
    "scrollhammer.morale.falling-back-fails",
)
def morale_check(
    ld: int,
    modifier: int = 0,
    *,
    insane_heroism: bool = True,
    falling_back: bool = False,
    ld_bounds: LdBounds = "none",
    heroism_low_ld: HeroismLowLd = "passes",
    heroism_when_falling_back: HeroismFallingBack = "automatic-failure",
) -> RollTest:
    """The Morale check as a roll test: 2D6 <= modified Ld, double 1 passes, falling back fails.

    Args:
        ld: the unit's Leadership characteristic.
        modifier: the sum of every Leadership modifier that applies (negative is worse).
        insane_heroism: whether a double 1 always passes (the rule; False for a what-if).
        falling_back: the unit is already falling back, so the check fails automatically.
        ld_bounds: option of ``scrollhammer.interpretations.ld-bounds``.
        heroism_low_ld: option of ``scrollhammer.interpretations.heroism-low-ld``.
        heroism_when_falling_back: option of
            ``scrollhammer.interpretations.heroism-when-falling-back``.

    Example:
        >>> morale_check(ld=2, modifier=-3).p_pass()   # only double 1 passes
        Fraction(1, 36)
        >>> morale_check(ld=2, modifier=-3, heroism_low_ld="fails").p_pass()
        Fraction(0, 1)
    """
    target = modified_ld(ld, modifier, ld_bounds)
    heroism = insane_heroism
    if heroism and heroism_low_ld == "fails" and target < 2:
        heroism = False
    if heroism and falling_back and heroism_when_falling_back == "automatic-failure":
        heroism = False
    return RollTest(
        dice=TWO_D6,
        target=target,
        direction="under",
        auto_pass=INSANE_HEROISM if heroism else frozenset(),
        always_fail=falling_back,
    )
