"""Monte Carlo oracle for :mod:`rulesbook.systems.army_morale.model` (tests only).

The library answers exactly (:func:`~rulesbook.systems.army_morale.model.game_length`); this
seeded numpy simulation of whole games is the independent cross-check the tests compare it to.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rulesbook.errors import InputError
from rulesbook.results import Table, fold_both_lose
from rulesbook.systems.army_morale.choices import CHOICES, ArmyMoraleChoices
from rulesbook.systems.army_morale.model import SideModel, _terms
from rulesbook.systems.army_morale.rules import SIDES, at_half_strength, game_end


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

    >>> from rulesbook.systems.army_morale.rules import constant
    >>> a, b = SideModel(2, battle_loss=constant(1)), SideModel(5)
    >>> s = simulate_game_length(a, b, games=100, seed=1, max_turns=4)
    >>> s.ends, s.b_wins
    ((0, 100, 0, 0), 100)
    """
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
                col -= rng.binomial(col, float(det.loss_chance))
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
