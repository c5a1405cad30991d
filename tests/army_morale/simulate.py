"""Monte Carlo oracle for the Army Morale game-length model, written from the rules' text alone.

The library answers exactly (``rulesbook.systems.army_morale.model.game_length``); this seeded
numpy simulation of whole games is the independent cross-check the tests compare it to. It
imports nothing from ``rulesbook``: a side is plain numbers (:class:`Army`) and every rule is
re-read from the source document (``000_64815101829fb6f5.txt``) and the interpretations
register (``rulesbook/systems/army_morale/rules.yaml``):

* "Detachment reduced to half-strength" — once per detachment, when it is down to half of its
  initial strength, its Morale value comes off (register ``half-strength-threshold``: half or
  less, exactly, by default — 20 units trigger at 10, 15 at 7);
* step R4 of the Rally phase — 1 off per Blast marker left, D3 per Take & Hold objective held,
  +1 own and 1 off the opponent per escort unit (Rescue), +1 per Cleanse objective, and per
  Capture objective a D6 added to one's own value or taken off the opponent's (register
  ``capture-repeats``: every Rally phase);
* "The Army Morale value" — after every change at step R4, a side at zero or less has lost;
  both at zero or less: the higher value wins, equal values draw (register ``equal-values``).

Between Rally phases each unit of a modelled detachment is lost with its ``loss_chance`` and
each side loses its battle-loss dice (the designer's attrition assumptions, not a rule).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

SIDES = ("a", "b")


@dataclass(frozen=True)
class Detachment:
    """A modelled detachment: units (or Damage Capacity), Morale value, per-turn loss chance."""

    strength: int
    morale: int
    loss_chance: float


@dataclass(frozen=True)
class Army:
    """One side: its starting value, what it holds at every step R4, its attrition."""

    start: int
    loss: tuple[int, int, int] = (0, 6, 0)
    """Battle losses a turn as ``(dice, sides, plus)``: ``(1, 3, 0)`` is D3, ``(0, 6, 2)`` is 2."""
    blast_markers: int = 0
    take_and_hold: int = 0
    rescue_escorts: int = 0
    cleanse: int = 0
    capture_own: int = 0
    capture_destroy: int = 0
    detachments: tuple[Detachment, ...] = ()


def army(model: Any) -> Army:
    """The plain description of a model side, read field by field (start, battle-loss dice,
    Rally counts, detachments) — no rule of the library is called."""
    loss, rally = model.battle_loss, model.rally
    return Army(
        start=model.start,
        loss=(loss.count, loss.sides or 6, loss.modifier),
        blast_markers=rally.blast_markers,
        take_and_hold=rally.take_and_hold,
        rescue_escorts=rally.rescue_escorts,
        cleanse=rally.cleanse,
        capture_own=rally.capture_own,
        capture_destroy=rally.capture_destroy,
        detachments=tuple(Detachment(d.strength, d.morale, float(d.loss_chance)) for d in model.detachments),
    )


def at_half(current: int, initial: int, reading: str = "at-most-half") -> bool:
    """Whether a detachment is down to half of its initial strength (the register's readings).

    >>> at_half(10, 20), at_half(11, 20), at_half(7, 15), at_half(8, 15, "round-up"), at_half(10, 20, "below-half")
    (True, False, True, True, False)
    """
    if reading == "round-up":
        return current <= math.ceil(initial / 2)
    if reading == "below-half":
        return 2 * current < initial
    return 2 * current <= initial


def winner(a: int, b: int) -> str:
    """Step R4's verdict once every change is applied: ``a``, ``b``, ``draw`` or ``continue``.

    >>> winner(3, 0), winner(-1, -4), winner(-2, -2), winner(1, 1)
    ('a', 'a', 'draw', 'continue')
    """
    if a > 0 and b > 0:
        return "continue"
    if b <= 0 < a:
        return "a"
    if a <= 0 < b:
        return "b"
    return "a" if a > b else "b" if b > a else "draw"


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


def _roll(rng: np.random.Generator, games: int, dice: int, sides: int, times: int = 1) -> np.ndarray:
    """Totals of ``times`` independent rolls of ``dice``D``sides`` for every game."""
    if dice * times == 0:
        return np.zeros(games, dtype=np.int64)
    return rng.integers(1, sides + 1, size=(games, dice * times)).sum(axis=1)


def simulate_game_length(
    a: Army,
    b: Army,
    *,
    games: int = 20_000,
    seed: int = 0,
    max_turns: int = 12,
    half_strength: str = "at-most-half",
) -> SimulatedLength:
    """Seeded simulation of whole games (numpy ``default_rng(seed)``), detachments included.

    >>> s = simulate_game_length(Army(2, loss=(0, 6, 1)), Army(5), games=100, seed=1, max_turns=4)
    >>> s.ends, s.b_wins
    ((0, 100, 0, 0), 100)
    """
    if games < 1:
        raise ValueError(f"games: expected at least 1, got {games}")
    rng = np.random.default_rng(seed)
    armies = dict(zip(SIDES, (a, b), strict=True))
    value = {s: np.full(games, armies[s].start, dtype=np.int64) for s in SIDES}
    left = {s: [np.full(games, d.strength, dtype=np.int64) for d in armies[s].detachments] for s in SIDES}
    paid = {s: [np.zeros(games, dtype=bool) for _ in armies[s].detachments] for s in SIDES}
    running = np.ones(games, dtype=bool)
    ends: list[int] = []
    wins = {"a": 0, "b": 0, "draw": 0}
    for _ in range(max_turns):
        change = {s: np.zeros(games, dtype=np.int64) for s in SIDES}
        for s in SIDES:
            me, them = armies[s], armies["b" if s == "a" else "a"]
            for j, det in enumerate(me.detachments):
                left[s][j] -= rng.binomial(left[s][j], det.loss_chance)
                at_half_by_strength = np.array(
                    [at_half(c, det.strength, half_strength) for c in range(det.strength + 1)]
                )
                trigger = at_half_by_strength[left[s][j]] & ~paid[s][j]
                change[s] -= np.where(trigger, det.morale, 0)
                paid[s][j] |= trigger
            dice, sides, plus = me.loss
            change[s] -= _roll(rng, games, dice, sides) + plus
            change[s] -= me.blast_markers
            change[s] += _roll(rng, games, 1, 3, me.take_and_hold)
            change[s] += me.rescue_escorts - them.rescue_escorts
            change[s] += me.cleanse
            change[s] += _roll(rng, games, 1, 6, me.capture_own)
            change[s] -= _roll(rng, games, 1, 6, them.capture_destroy)
        for s in SIDES:
            value[s] += change[s]
        over = running & ((value["a"] <= 0) | (value["b"] <= 0))
        ends.append(int(over.sum()))
        for i in np.flatnonzero(over):
            wins[winner(int(value["a"][i]), int(value["b"][i]))] += 1
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
