"""Designer's model: on which turn does a game end under stated attrition assumptions?

Each side is a :class:`SideModel`: a starting Army Morale value, the Rally-phase situation it
holds every turn (:class:`~rulesbook.systems.army_morale.rules.RallyCounts`: Blast markers,
objectives, escorts, Capture choices), a per-turn loss from one-time battle effects (a dice
expression such as ``D3``), and optionally detachments that lose units turn by turn and pay
their half-strength penalty once.

Both sides are **exact Markov chains** (fractions, no sampling) by :func:`game_length`. A side's
state is its value and every detachment's strength: each turn every unit of a detachment is
lost with its ``loss_chance`` (a binomial step), a detachment pays its Morale value the first
time it stands at half strength or less (after which its strength no longer matters, so it is
one state), then the battle-loss dice and the Rally-phase terms apply. The two sides move
independently (each through its own dice), so the chance that the game is still going after
turn *t* and sits at values (x, y) is the product of each side's "still above 0 so far"
sub-distribution. The game ends at the first step R4 where either value is 0 or less
(:func:`~rulesbook.systems.army_morale.rules.game_end`). The tests cross-check the chain
against a seeded Monte Carlo simulation.

Example:
    Two armies at 8 and 6; side b loses D3 a turn to battle effects, side a loses 1 and holds a
    Take & Hold objective:

    >>> from rulesbook.dice import D3
    >>> from rulesbook.systems.army_morale.rules import constant
    >>> a = SideModel(start=8, battle_loss=constant(1), rally=RallyCounts(take_and_hold=1))
    >>> b = SideModel(start=6, battle_loss=D3)
    >>> length = game_length(a, b, max_turns=10)
    >>> length.p_a_wins + length.p_b_wins + length.p_draw + length.p_unfinished
    Fraction(1, 1)
    >>> length.p_a_wins
    Fraction(1, 1)
    >>> length.most_likely_turn()
    3

    With detachments: side a's 2 units are each lost with chance 1/2 a turn, and reaching half
    strength costs its Morale value 3, so side a breaks on the turn it first loses a unit:

    >>> a = SideModel(start=3, detachments=(ModelDetachment(2, 3, Fraction(1, 2)),))
    >>> length = game_length(a, SideModel(start=10), max_turns=3)
    >>> length.p_b
    (Fraction(3, 4), Fraction(3, 16), Fraction(3, 64))
    >>> length.p_unfinished
    Fraction(1, 64)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from rulesbook.dice import DiceExpr, constant
from rulesbook.errors import InputError
from rulesbook.results import Distribution, Table, fold_both_lose, fraction_str, markov_step
from rulesbook.systems.army_morale.choices import CHOICES, ArmyMoraleChoices
from rulesbook.systems.army_morale.rules import (
    SIDES,
    RallyCounts,
    Side,
    Term,
    at_half_strength,
    game_end,
    rally_terms,
    value_distribution,
)

__all__ = [
    "GameLength",
    "ModelDetachment",
    "SideModel",
    "game_length",
    "turn_change",
]

MAX_TURNS = 60


@dataclass(frozen=True, slots=True)
class ModelDetachment:
    """A modelled detachment: strength, Morale value, chance each unit is lost per turn.

    ``loss_chance`` is best given as a :class:`~fractions.Fraction`; a float is read by its
    shortest decimal form (``0.1`` is exactly 1/10).

    >>> ModelDetachment(6, 2, 0.1).chance()
    Fraction(1, 10)
    """

    strength: int
    morale: int
    loss_chance: Fraction | float

    def chance(self) -> Fraction:
        """``loss_chance`` as an exact fraction (checked to lie in 0..1)."""
        p = self.loss_chance if isinstance(self.loss_chance, Fraction) else Fraction(repr(self.loss_chance))
        if not 0 <= p <= 1:
            raise InputError("loss_chance", f"expected a chance from 0 to 1, got {self.loss_chance}")
        return p


@dataclass(frozen=True, slots=True)
class SideModel:
    """One side's attrition assumptions (the same every turn)."""

    start: int
    battle_loss: DiceExpr = field(default_factory=lambda: constant(0))
    rally: RallyCounts = field(default_factory=RallyCounts)
    detachments: tuple[ModelDetachment, ...] = ()


def _terms(a: SideModel, b: SideModel, choices: ArmyMoraleChoices) -> list[Term]:
    terms = list(rally_terms(a.rally, b.rally, choices))
    for side, model in zip(SIDES, (a, b), strict=True):
        if model.battle_loss.maximum:
            terms.append(Term(side, "army-morale.army.value", -1, model.battle_loss, "battle losses"))
    return terms


def turn_change(
    a: SideModel, b: SideModel, side: Side, choices: ArmyMoraleChoices = CHOICES
) -> Distribution[int]:
    """Exact distribution of one turn's change to ``side``'s value (battle losses + Rally phase).

    >>> turn_change(SideModel(5, rally=RallyCounts(blast_markers=2)), SideModel(5), "a").outcomes()
    (-2,)
    """
    return value_distribution(0, _terms(a, b, choices), side)


@dataclass(frozen=True, slots=True)
class GameLength:
    """Exact answer of :func:`game_length`: per turn, P(the game ends then, and how)."""

    turns: tuple[int, ...]
    p_a: tuple[Fraction, ...]
    p_b: tuple[Fraction, ...]
    p_drawn: tuple[Fraction, ...]
    p_unfinished: Fraction

    @property
    def p_end(self) -> tuple[Fraction, ...]:
        """P(the game ends at step R4 of each turn)."""
        return tuple(a + b + d for a, b, d in zip(self.p_a, self.p_b, self.p_drawn, strict=True))

    @property
    def p_a_wins(self) -> Fraction:
        """P(side a wins within the turn limit)."""
        return sum(self.p_a, Fraction(0))

    @property
    def p_b_wins(self) -> Fraction:
        """P(side b wins within the turn limit)."""
        return sum(self.p_b, Fraction(0))

    @property
    def p_draw(self) -> Fraction:
        """P(a draw within the turn limit)."""
        return sum(self.p_drawn, Fraction(0))

    def mean_turns(self) -> Fraction:
        """Expected ending turn, given that the game ends within the limit."""
        ended = 1 - self.p_unfinished
        if ended == 0:
            raise ValueError("the game never ends within the turn limit")
        return sum((t * p for t, p in zip(self.turns, self.p_end, strict=True)), Fraction(0)) / ended

    def most_likely_turn(self) -> int:
        """The turn on which the game most often ends."""
        return max(zip(self.p_end, self.turns, strict=True))[1]

    def table(self) -> Table:
        """One row per turn: P(ends then), by winner, and P(still going afterwards)."""
        rows = []
        going = Fraction(1)
        for t, pa, pb, pd in zip(self.turns, self.p_a, self.p_b, self.p_drawn, strict=True):
            going -= pa + pb + pd
            rows.append(
                (
                    t,
                    fraction_str(pa + pb + pd),
                    float(pa + pb + pd),
                    float(pa),
                    float(pb),
                    float(pd),
                    float(going),
                )
            )
        return Table(
            name="game_length",
            title="Turn on which the game ends (exact)",
            columns=("turn", "p_end_exact", "p_end", "p_a_wins", "p_b_wins", "p_draw", "p_still_going"),
            rows=tuple(rows),
        )


SideState = tuple[int, tuple[int, ...]]
"""One side's chain state: its value and each detachment's strength (``PAID`` once at half)."""

PAID = -1
"""Strength marker of a detachment that has paid its half-strength penalty (its strength no
longer matters, so every such strength is one state)."""


def _moved_by(change: Distribution[int]) -> Callable[[SideState], Iterator[tuple[SideState, Fraction]]]:
    """The chain's value step: from value ``v`` to ``v + d`` with the chance of change ``d``."""
    return lambda state: (((state[0] + d, state[1]), q) for d, q in change)


MAX_STATES = 20_000
"""Largest number of strength combinations one side's chain may track."""


def _binomial(n: int, p: Fraction) -> tuple[tuple[int, Fraction], ...]:
    """P(exactly k of n units are lost), each unit lost with chance ``p``."""
    return tuple((k, math.comb(n, k) * p**k * (1 - p) ** (n - k)) for k in range(n + 1))


def _attrition(
    j: int, det: ModelDetachment, choices: ArmyMoraleChoices
) -> Callable[[SideState], Iterator[tuple[SideState, Fraction]]]:
    """The chain's step for detachment ``j``: it loses a binomial number of units, and the first
    time it stands at half strength or less it pays its Morale value (then it is ``PAID``)."""
    losses = {c: _binomial(c, det.chance()) for c in range(det.strength + 1)}

    def step(state: SideState) -> Iterator[tuple[SideState, Fraction]]:
        value, strengths = state
        current = strengths[j]
        if current == PAID:
            yield state, Fraction(1)
            return
        for k, q in losses[current]:
            left = current - k
            if at_half_strength(left, det.strength, choices):
                yield (value - det.morale, (*strengths[:j], PAID, *strengths[j + 1 :])), q
            else:
                yield (value, (*strengths[:j], left, *strengths[j + 1 :])), q

    return step


def _check_detachments(side: Side, model: SideModel) -> None:
    states = 1
    for det in model.detachments:
        if det.strength < 1 or det.morale < 0:
            raise InputError(
                f"{side}.detachments",
                f"expected strength >= 1 and morale >= 0, got {det.strength} and {det.morale}",
            )
        det.chance()
        states *= det.strength + 1
    if states > MAX_STATES:
        raise InputError(
            f"{side}.detachments",
            f"at most {MAX_STATES} strength combinations per side (product of strength + 1), got {states}",
        )


def game_length(
    a: SideModel, b: SideModel, max_turns: int = 12, choices: ArmyMoraleChoices = CHOICES
) -> GameLength:
    """Exact distribution of the ending turn and the winner.

    Each side is its own Markov chain over (value, every detachment's strength); a turn is
    every detachment's attrition (binomial losses, half-strength penalty paid once), then the
    battle-loss dice and the Rally-phase terms, then step R4. The sides move independently,
    so the chance of values (x, y) while the game is still going is the product of each side's
    "still above 0 so far" sub-distribution.

    Raises InputError when a side's detachments give more than ``MAX_STATES`` strength
    combinations.

    >>> g = game_length(SideModel(2, battle_loss=constant(1)), SideModel(5), max_turns=4)
    >>> g.turns, g.p_end, g.p_b_wins
    ((1, 2, 3, 4), (Fraction(0, 1), Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)), Fraction(1, 1))
    """
    if not 1 <= max_turns <= MAX_TURNS:
        raise InputError("max_turns", f"expected 1 to {MAX_TURNS}, got {max_turns}")
    models = {"a": a, "b": b}
    for s in SIDES:
        _check_detachments(s, models[s])
    steps = {
        s: [
            *(_attrition(j, det, choices) for j, det in enumerate(models[s].detachments)),
            _moved_by(turn_change(a, b, s, choices)),
        ]
        for s in SIDES
    }
    alive: dict[Side, dict[SideState, Fraction]] = {
        s: {(models[s].start, tuple(d.strength for d in models[s].detachments)): Fraction(1)} for s in SIDES
    }
    p_a, p_b, p_d = [], [], []
    going = Fraction(1)
    for _ in range(max_turns):
        nxt = dict(alive)
        for s in SIDES:
            for step in steps[s]:
                nxt[s] = markov_step(nxt[s], step)
        values = {s: markov_step(nxt[s], lambda state: ((state[0], Fraction(1)),)) for s in SIDES}
        ends = {"a": Fraction(0), "b": Fraction(0), "draw": Fraction(0)}
        for x, px in values["a"].items():
            for y, py in values["b"].items():
                if x <= 0 or y <= 0:
                    ends[fold_both_lose(game_end(x, y, choices))] += px * py
        p_a.append(ends["a"])
        p_b.append(ends["b"])
        p_d.append(ends["draw"])
        alive = {s: {st: p for st, p in nxt[s].items() if st[0] > 0} for s in SIDES}
        going = sum(alive["a"].values(), Fraction(0)) * sum(alive["b"].values(), Fraction(0))
    return GameLength(tuple(range(1, max_turns + 1)), tuple(p_a), tuple(p_b), tuple(p_d), going)
