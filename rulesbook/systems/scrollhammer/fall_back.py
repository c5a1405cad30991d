"""Fall Back moves, Regroup chains and Panic cascades as exact Markov chains.

Everything here works on exact :class:`~fractions.Fraction` probabilities. The tests are the
roll tests of :mod:`rulesbook.systems.scrollhammer.rules`; the Fall Back roll is a
:class:`~rulesbook.dice.DiceExpr` turned into an exact distribution.

Example:
    A Ld 7 unit at full strength, 6" from its table edge after its first Fall Back move,
    over the next two Movement phases:

    >>> from rulesbook.dice import TWO_D6
    >>> from rulesbook.systems.scrollhammer.rules import regroup_test
    >>> chain = fall_back_chain(6, regroup_test(7, at_least_half=True), fall_back_roll([TWO_D6]), phases=2)
    >>> chain.p_removed + chain.p_regrouped + chain.p_falling_back
    Fraction(1, 1)
    >>> chain.phases[0].p_removed_now   # fail (5/12) and roll 6+ (26/36)
    Fraction(65, 216)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Literal

import icepool

from rulesbook.dice import DiceExpr, RollTest
from rulesbook.registry import implements
from rulesbook.results import Distribution, markov_step
from rulesbook.systems.scrollhammer.choices import CHOICES, ScrollhammerChoices

__all__ = [
    "FallBackChain",
    "PhaseRow",
    "fall_back_chain",
    "fall_back_roll",
    "from_combat_extension",
    "move_outcome",
    "panic_cascade",
    "passes_through_friends",
    "reaches_edge",
    "trapped",
]

type MoveOutcome = Literal["flees", "trapped", "moves"]


# -- one Fall Back move -----------------------------------------------------------------------


@implements("scrollhammer.fall-back.distance")
def fall_back_roll(
    dice: Sequence[DiceExpr] = (), choices: ScrollhammerChoices = CHOICES
) -> Distribution[int]:
    """The exact distance of one Fall Back move of a unit whose models roll ``dice``.

    No ``dice``: the unit rolls the rules' Fall Back dice (2D6). With the reading
    ``slowest_model`` ``slowest-dice`` the unit rolls the dice with the lowest average (ties:
    the lower maximum); with ``lowest-roll`` it rolls each and keeps the lowest total.

    >>> from rulesbook.dice import D6, TWO_D6
    >>> fall_back_roll([TWO_D6, D6]).mean(), fall_back_roll().mean()
    (Fraction(7, 2), Fraction(7, 1))
    >>> lowest = CHOICES.replace(readings={"slowest_model": "lowest-roll"})
    >>> fall_back_roll([TWO_D6, D6], lowest).p(6)   # D6 shows 6 and 2D6 >= 6: 1/6 * 26/36
    Fraction(13, 108)
    """
    if not dice:
        dice = (choices.parameters.fall_back_dice,)
    if choices.readings.slowest_model == "lowest-roll" and len(dice) > 1:
        return Distribution.from_die(icepool.lowest(*(d.die() for d in dice)))
    slowest = min(dice, key=lambda d: (d.die().mean(), d.maximum))
    return slowest.distribution()


@implements("scrollhammer.fall-back.table-edge")
def reaches_edge(roll: int, distance: int) -> bool:
    """A Fall Back roll reaches the table edge when it is at least the distance left.

    >>> reaches_edge(6, 6), reaches_edge(5, 6)
    (True, False)
    """
    return roll >= distance


@implements("scrollhammer.fall-back.trapped")
def trapped(roll: int, room: int, choices: ScrollhammerChoices = CHOICES) -> bool:
    """Is a unit with ``room`` inches of free path trapped by a Fall Back roll of ``roll``?

    The reading ``trapped_fit`` says whether an exact fit is a full move.

    >>> trapped(7, 6), trapped(6, 6), trapped(6, 6, CHOICES.replace(readings={"trapped_fit": "exact-fit-trapped"}))
    (True, False, True)
    """
    return roll >= room if choices.readings.trapped_fit == "exact-fit-trapped" else roll > room


@implements("scrollhammer.fall-back.through-friends")
def passes_through_friends(roll: int, clear_distance: int) -> bool:
    """Does the roll carry the unit completely past friends whose far side is ``clear_distance`` away?

    A roll exactly equal would end the move touching them, so they are an obstacle.

    >>> passes_through_friends(8, 7), passes_through_friends(7, 7)
    (True, False)
    """
    return roll > clear_distance


@implements("scrollhammer.fall-back.from-combat")
def from_combat_extension(gap_to_enemy: Fraction, choices: ScrollhammerChoices = CHOICES) -> Fraction:
    """Extra inches a model fleeing a combat moves to end 1" clear of that combat's enemies.

    >>> from_combat_extension(Fraction(1, 2)), from_combat_extension(Fraction(3))
    (Fraction(1, 2), Fraction(0, 1))
    """
    return max(Fraction(0), choices.parameters.combat_clearance - Fraction(gap_to_enemy))


@implements("scrollhammer.fall-back.table-edge", "scrollhammer.fall-back.trapped")
def move_outcome(
    roll: int,
    distance: int | None,
    blocked_after: int | None = None,
    choices: ScrollhammerChoices = CHOICES,
) -> MoveOutcome:
    """What one Fall Back move of ``roll`` inches does.

    ``distance`` is the way to the table edge (``None``: the edge is out of reach);
    ``blocked_after`` the free path before the unit is hemmed in on every side (``None``:
    open ground). The edge comes first when it is no farther than the blockage.

    >>> move_outcome(8, 8), move_outcome(8, 10, blocked_after=5), move_outcome(4, 10, blocked_after=5)
    ('flees', 'trapped', 'moves')
    """
    edge_first = distance is not None and (blocked_after is None or distance <= blocked_after)
    if edge_first and distance is not None and reaches_edge(roll, distance):
        return "flees"
    if blocked_after is not None and trapped(roll, blocked_after, choices):
        return "trapped"
    return "moves"


# -- the Fall Back / Regroup chain ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhaseRow:
    """One Movement phase of a Fall Back chain (probabilities from the start of the chain)."""

    phase: int
    p_regroup_now: Fraction
    p_removed_now: Fraction
    p_regrouped: Fraction
    p_removed: Fraction
    p_falling_back: Fraction


@dataclass(frozen=True, slots=True)
class FallBackChain:
    """The exact outcome of a Fall Back chain and its phase-by-phase history."""

    p_removed: Fraction
    p_regrouped: Fraction
    p_falling_back: Fraction
    phases: tuple[PhaseRow, ...]
    distance_left: Distribution[int] | None
    """Where a unit still falling back at the end stands (``None`` if none can be)."""

    def started_with(self, p_start: Fraction) -> FallBackChain:
        """The chain as seen before something that starts it with chance ``p_start`` (a failed
        Break test): every probability, phase rows included, times ``p_start``.

        >>> from rulesbook.dice import TWO_D6
        >>> from rulesbook.systems.scrollhammer.rules import regroup_test
        >>> c = fall_back_chain(2, regroup_test(7, True), TWO_D6.distribution(), phases=1)
        >>> c.started_with(Fraction(1, 2)).p_removed   # 1/2 * 5/12
        Fraction(5, 24)
        """
        rows = tuple(
            PhaseRow(
                r.phase,
                r.p_regroup_now * p_start,
                r.p_removed_now * p_start,
                r.p_regrouped * p_start,
                r.p_removed * p_start,
                r.p_falling_back * p_start,
            )
            for r in self.phases
        )
        return FallBackChain(
            self.p_removed * p_start,
            self.p_regrouped * p_start,
            self.p_falling_back * p_start,
            rows,
            self.distance_left,
        )


@implements(
    "scrollhammer.fall-back.move",
    "scrollhammer.fall-back.table-edge",
    "scrollhammer.regroup.test",
)
def fall_back_chain(
    distance: int,
    regroup: RollTest,
    roll: Distribution[int],
    phases: int,
    *,
    first_move: bool = False,
    choices: ScrollhammerChoices = CHOICES,
) -> FallBackChain:
    """A falling-back unit ``distance`` inches from its edge, over ``phases`` of its own Movement phases.

    Each phase it takes the ``regroup`` test: passing ends the chain (regrouped); failing, it
    falls back ``roll`` inches and is removed when the roll reaches the edge. With
    ``first_move`` the distance is measured before the immediate Fall Back move, which is
    rolled first (phase 0, no Regroup test). With the reading ``movement_phases``
    ``every-movement-phase`` the unit also falls back, without a
    Regroup test, in the opponent's Movement phase between two of its own (counted in the
    later phase's row). The state is the distance left; the chain is exact (Fractions) and
    small (at most ``distance`` states).

    >>> from rulesbook.dice import TWO_D6
    >>> from rulesbook.systems.scrollhammer.rules import regroup_test
    >>> c = fall_back_chain(2, regroup_test(7, True), TWO_D6.distribution(), phases=1)
    >>> c.p_removed, c.p_regrouped   # any roll reaches 2": removed whenever the test fails
    (Fraction(5, 12), Fraction(7, 12))
    """
    if distance < 1:
        raise ValueError("distance must be at least 1 inch")
    if phases < 0:
        raise ValueError("phases must be at least 0")
    p_pass = regroup.p_pass()
    state: dict[int, Fraction] = {distance: Fraction(1)}
    removed = Fraction(0)
    regrouped = Fraction(0)
    rows: list[PhaseRow] = []

    def move(current: dict[int, Fraction], weight: Fraction) -> tuple[dict[int, Fraction], Fraction]:
        """One Fall Back move of the share ``weight`` of every state; 0 inches left is the edge."""
        nxt = markov_step(
            {left: p * weight for left, p in current.items()},
            lambda left: [(0 if reaches_edge(r, left) else left - r, q) for r, q in roll],
        )
        return nxt, nxt.pop(0, Fraction(0))

    if first_move:
        state, gone = move(state, Fraction(1))
        removed += gone
        rows.append(PhaseRow(0, Fraction(0), gone, regrouped, removed, sum(state.values(), Fraction(0))))
    for phase in range(1, phases + 1):
        between = Fraction(0)
        if choices.readings.movement_phases == "every-movement-phase" and phase > 1:
            state, between = move(state, Fraction(1))  # the opponent's Movement phase: no test
            removed += between
        alive = sum(state.values(), Fraction(0))
        regroup_now = alive * p_pass
        state, gone = move(state, 1 - p_pass)
        removed += gone
        regrouped += regroup_now
        rows.append(
            PhaseRow(phase, regroup_now, between + gone, regrouped, removed, sum(state.values(), Fraction(0)))
        )
    still = sum(state.values(), Fraction(0))
    left = Distribution.from_pairs((d, p / still) for d, p in state.items()) if still else None
    return FallBackChain(removed, regrouped, still, tuple(rows), left)


# -- Panic cascades ---------------------------------------------------------------------------


@implements("scrollhammer.morale.panic-test")
def panic_cascade(p_fail: Sequence[Fraction], choices: ScrollhammerChoices = CHOICES) -> Distribution[int]:
    """How many units of a line of friends end up falling back (the first fleeing unit not counted).

    ``p_fail[i]`` is the chance that the i-th unit of the line (counted from the first
    fleeing unit towards the table edge) fails one Panic test. The reading ``panic_cascade``
    says who is passed through and how often.

    >>> half = Fraction(1, 2)
    >>> panic_cascade([half, half]).pmf()   # every unit tests once: a binomial
    {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    >>> chain = CHOICES.replace(readings={"panic_cascade": "next-unit"})
    >>> panic_cascade([half, half], chain).pmf()   # stops at the first unit that holds
    {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)}
    >>> each = CHOICES.replace(readings={"panic_cascade": "whole-line-each-time"})
    >>> panic_cascade([half, half], each).p(0)   # 1/2 * (1/2)
    Fraction(1, 4)
    """
    model = choices.readings.panic_cascade
    # state: (units of the line fleeing so far, whether the chain is still running)
    state: dict[tuple[int, bool], Fraction] = {(0, True): Fraction(1)}
    for f in p_fail:
        state = markov_step(state, partial(_panic_step, model, Fraction(f)))
    return Distribution.from_pairs((k, p) for (k, _), p in state.items())


def _panic_step(model: str, f: Fraction, state: tuple[int, bool]) -> list[tuple[tuple[int, bool], Fraction]]:
    """The next unit of the line, which fails a Panic test with ``f``: where ``state`` goes."""
    k, running = state
    if model == "next-unit":
        return [((k + 1, True), f), ((k, False), 1 - f)] if running else [((k, False), Fraction(1))]
    holds = (1 - f) ** (1 if model == "whole-line-once" else 1 + k)
    return [((k + 1, True), 1 - holds), ((k, True), holds)]
