"""Designer's model: on which turn does a game end under stated attrition assumptions?

Each side is a :class:`SideModel`: a starting Army Morale value, the Rally-phase situation it
holds every turn (:class:`~rulesbook.systems.army_morale.rules.RallyCounts`: Blast markers,
objectives, escorts, Capture choices), a per-turn loss from one-time battle effects (a dice
expression such as ``D3``), and optionally detachments that lose units turn by turn and pay
their half-strength penalty once.

* Without detachments the state of a side is just its value, so :func:`game_length` is an
  **exact Markov chain**: the two sides' values move independently (each through its own
  dice), so the chance that the game is still going after turn *t* and sits at values (x, y)
  is the product of each side's "still above 0 so far" sub-distribution. The game ends at the
  first step R4 where either value is 0 or less (:func:`~rulesbook.systems.army_morale.rules.game_end`).
* With detachments the state (every detachment's strength) is too large to enumerate, so
  :func:`simulate_game_length` gives a **seeded simulation** (numpy ``default_rng(seed)``)
  with the standard error of every estimate stated.

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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from rulesbook.dice import DiceExpr
from rulesbook.errors import InputError
from rulesbook.results import Distribution, Table, fold_both_lose, fraction_str, markov_step
from rulesbook.systems.army_morale.choices import CHOICES, ArmyMoraleChoices
from rulesbook.systems.army_morale.rules import (
    SIDES,
    RallyCounts,
    Side,
    Term,
    at_half_strength,
    constant,
    game_end,
    rally_terms,
    value_distribution,
)

__all__ = [
    "GameLength",
    "ModelDetachment",
    "SideModel",
    "SimulatedLength",
    "game_length",
    "simulate_game_length",
    "turn_change",
]

MAX_TURNS = 60


@dataclass(frozen=True, slots=True)
class ModelDetachment:
    """A detachment in the simulation: strength, Morale value, chance each unit is lost per turn."""

    strength: int
    morale: int
    loss_chance: float


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


def _moved_by(change: Distribution[int]) -> Callable[[int], Iterator[tuple[int, Fraction]]]:
    """The chain's transition: from value ``v`` to ``v + d`` with the chance of change ``d``."""
    return lambda v: ((v + d, q) for d, q in change)


def game_length(
    a: SideModel, b: SideModel, max_turns: int = 12, choices: ArmyMoraleChoices = CHOICES
) -> GameLength:
    """Exact distribution of the ending turn and the winner (Markov chain over both values).

    Raises InputError for models with detachments (use :func:`simulate_game_length`).

    >>> g = game_length(SideModel(2, battle_loss=constant(1)), SideModel(5), max_turns=4)
    >>> g.turns, g.p_end, g.p_b_wins
    ((1, 2, 3, 4), (Fraction(0, 1), Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)), Fraction(1, 1))
    """
    if a.detachments or b.detachments:
        raise InputError(
            "detachments", "the exact chain tracks values only; simulate models with detachments"
        )
    if not 1 <= max_turns <= MAX_TURNS:
        raise InputError("max_turns", f"expected 1 to {MAX_TURNS}, got {max_turns}")
    change = {s: turn_change(a, b, s, choices) for s in SIDES}
    alive: dict[Side, dict[int, Fraction]] = {"a": {a.start: Fraction(1)}, "b": {b.start: Fraction(1)}}
    p_a, p_b, p_d = [], [], []
    going = Fraction(1)
    for _ in range(max_turns):
        nxt = {s: markov_step(alive[s], _moved_by(change[s])) for s in SIDES}
        ends = {"a": Fraction(0), "b": Fraction(0), "draw": Fraction(0)}
        for x, px in nxt["a"].items():
            for y, py in nxt["b"].items():
                if x <= 0 or y <= 0:
                    ends[fold_both_lose(game_end(x, y, choices))] += px * py
        p_a.append(ends["a"])
        p_b.append(ends["b"])
        p_d.append(ends["draw"])
        alive = {s: {v: p for v, p in nxt[s].items() if v > 0} for s in SIDES}
        going = sum(alive["a"].values(), Fraction(0)) * sum(alive["b"].values(), Fraction(0))
    return GameLength(tuple(range(1, max_turns + 1)), tuple(p_a), tuple(p_b), tuple(p_d), going)


@dataclass(frozen=True, slots=True)
class SimulatedLength:
    """Estimates of a seeded simulation, each with its standard error ``sqrt(p(1-p)/games)``."""

    games: int
    seed: int
    turns: tuple[int, ...]
    ends: tuple[int, ...]
    a_wins: int
    b_wins: int
    draws: int
    unfinished: int

    def p(self, count: int) -> float:
        """An estimated probability from a count."""
        return count / self.games

    def standard_error(self, count: int) -> float:
        """Standard error of the estimate ``count / games``."""
        p = self.p(count)
        return math.sqrt(p * (1 - p) / self.games)

    def table(self) -> Table:
        """One row per turn: estimated P(ends then) ± its standard error."""
        rows = tuple(
            (t, self.p(n), self.standard_error(n)) for t, n in zip(self.turns, self.ends, strict=True)
        )
        return Table(
            name="simulated_game_length",
            title=f"Turn on which the game ends (simulated, {self.games} games, seed {self.seed})",
            columns=("turn", "p_end", "standard_error"),
            rows=rows,
        )


def simulate_game_length(
    a: SideModel,
    b: SideModel,
    *,
    games: int = 20_000,
    seed: int = 0,
    max_turns: int = 12,
    choices: ArmyMoraleChoices = CHOICES,
) -> SimulatedLength:
    """Seeded simulation of whole games (numpy ``default_rng(seed)``), detachments included.

    Each turn, every unit of every model detachment is lost with its ``loss_chance``; a
    detachment at half strength or less pays its Morale value once; then the battle-loss dice
    and the Rally-phase terms apply and step R4 is checked.

    >>> a, b = SideModel(2, battle_loss=constant(1)), SideModel(5)
    >>> s = simulate_game_length(a, b, games=100, seed=1, max_turns=4)
    >>> s.ends, s.b_wins
    ((0, 100, 0, 0), 100)
    """
    import numpy as np

    if games < 1:
        raise InputError("games", f"expected at least 1, got {games}")
    rng = np.random.default_rng(seed)
    terms = _terms(a, b, choices)
    value = {"a": np.full(games, a.start), "b": np.full(games, b.start)}
    strength = {
        s: np.array([[d.strength for d in m.detachments]] * games, dtype=np.int64).reshape(games, -1)
        for s, m in zip(SIDES, (a, b), strict=True)
    }
    paid = {s: np.zeros_like(strength[s], dtype=bool) for s in SIDES}
    running = np.ones(games, dtype=bool)
    ends = []
    wins = {"a": 0, "b": 0, "draw": 0}
    for _ in range(max_turns):
        for s, model in zip(SIDES, (a, b), strict=True):
            for j, det in enumerate(model.detachments):
                col = strength[s][:, j]
                col -= rng.binomial(col, det.loss_chance)
                now = np.array(
                    [at_half_strength(int(c), det.strength, choices) for c in range(det.strength + 1)]
                )
                trigger = now[col] & ~paid[s][:, j]
                value[s] -= np.where(trigger, det.morale, 0)
                paid[s][:, j] |= trigger
        for term in terms:
            if term.dice.is_constant:
                value[term.side] += term.amount()
            else:
                rolls = rng.integers(1, term.dice.sides + 1, size=(games, term.dice.count)).sum(axis=1)
                value[term.side] += term.sign * (rolls + term.dice.modifier)
        over = running & ((value["a"] <= 0) | (value["b"] <= 0))
        ends.append(int(over.sum()))
        for i in np.flatnonzero(over):
            wins[fold_both_lose(game_end(int(value["a"][i]), int(value["b"][i]), choices))] += 1
        running &= ~over
    return SimulatedLength(
        games=games,
        seed=seed,
        turns=tuple(range(1, max_turns + 1)),
        ends=tuple(ends),
        a_wins=wins["a"],
        b_wins=wins["b"],
        draws=wins["draw"],
        unfinished=int(running.sum()),
    )
