"""The designer's game-length model: exact chain against path enumeration and a seeded simulation."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.dice import D3, D6, constant
from rulesbook.errors import InputError
from rulesbook.systems.army_morale.model import MAX_STATES, ModelDetachment, SideModel, game_length
from rulesbook.systems.army_morale.rules import RallyCounts
from tests.army_morale.simulate import army, simulate_game_length


def _enumerate(a_start: int, b_start: int, a_loss: int, b_faces: int, turns: int) -> list[Fraction]:
    """P(game ends at turn t) by walking every sequence of b's loss die (a loses a constant)."""
    out = [Fraction(0)] * turns
    for seq in itertools.product(range(1, b_faces + 1), repeat=turns):
        a, b = a_start, b_start
        for t, roll in enumerate(seq):
            a -= a_loss
            b -= roll
            if a <= 0 or b <= 0:
                out[t] += Fraction(1, b_faces**turns)
                break
    return out


@pytest.mark.covers("army-morale.game-end")
@settings(max_examples=25)
@given(st.integers(1, 8), st.integers(1, 10), st.integers(0, 3))
def test_exact_chain_equals_path_enumeration(a_start: int, b_start: int, a_loss: int) -> None:
    g = game_length(
        SideModel(a_start, battle_loss=constant(a_loss)), SideModel(b_start, battle_loss=D3), max_turns=4
    )
    assert list(g.p_end) == _enumerate(a_start, b_start, a_loss, 3, 4)
    assert g.p_a_wins + g.p_b_wins + g.p_draw + g.p_unfinished == 1


@pytest.mark.covers("army-morale.ongoing.blast-markers", "army-morale.game-end")
@given(st.integers(1, 12), st.integers(1, 4))
def test_higher_start_never_lowers_the_chance_to_win(start: int, step: int) -> None:
    b = SideModel(7, battle_loss=D3)
    low = game_length(SideModel(start, rally=RallyCounts(blast_markers=2, take_and_hold=1)), b, max_turns=8)
    high = game_length(
        SideModel(start + step, rally=RallyCounts(blast_markers=2, take_and_hold=1)), b, max_turns=8
    )
    assert high.p_a_wins >= low.p_a_wins


@pytest.mark.covers("army-morale.ongoing.take-and-hold", "army-morale.one-time.capture")
def test_exact_chain_equals_seeded_simulation() -> None:
    """numpy default_rng(7), 20 000 games: every per-turn estimate within 4 standard errors."""
    a = SideModel(9, battle_loss=D3, rally=RallyCounts(blast_markers=1, take_and_hold=1))
    b = SideModel(8, battle_loss=constant(1), rally=RallyCounts(blast_markers=1, capture_destroy=1))
    exact = game_length(a, b, max_turns=10)
    sim = simulate_game_length(army(a), army(b), games=20_000, seed=7, max_turns=10)
    for p, n in zip(exact.p_end, sim.ends, strict=True):
        assert abs(sim.p(n) - float(p)) <= 4 * max(sim.standard_error(n), 1e-3)
    assert abs(sim.p(sim.a_wins) - float(exact.p_a_wins)) <= 4 * sim.standard_error(sim.a_wins) + 1e-3


@pytest.mark.covers("army-morale.one-time.half-strength")
def test_simulated_half_strength_is_paid_once() -> None:
    # each unit always dies on turn 1: the detachment pays 5 once, never again
    a = SideModel(6, detachments=(ModelDetachment(10, 5, 1.0),))
    sim = simulate_game_length(
        army(a), army(SideModel(3, battle_loss=constant(1))), games=50, seed=0, max_turns=5
    )
    # a: 6 - 5 = 1 after turn 1 and stays there; b: 3, 2, 1, 0 -> b broken in turn 3
    assert sim.ends == (0, 0, 50, 0, 0) and sim.a_wins == 50


@pytest.mark.covers("army-morale.one-time.half-strength")
def test_exact_half_strength_is_paid_once() -> None:
    # the same model as the simulation above, answered exactly
    a = SideModel(6, detachments=(ModelDetachment(10, 5, Fraction(1)),))
    g = game_length(a, SideModel(3, battle_loss=constant(1)), max_turns=5)
    assert g.p_end == (0, 0, 1, 0, 0) and g.p_a_wins == 1


@pytest.mark.covers("army-morale.one-time.half-strength")
def test_exact_detachment_chain_by_hand() -> None:
    # 2 units, each lost with 1/2 a turn: still above half (2 left) with chance 1/4 a turn;
    # paying 3 breaks side a, so the game ends on turn t with chance (1/4)^(t-1) * 3/4
    a = SideModel(3, detachments=(ModelDetachment(2, 3, Fraction(1, 2)),))
    g = game_length(a, SideModel(10), max_turns=4)
    assert g.p_b == tuple(Fraction(1, 4) ** (t - 1) * Fraction(3, 4) for t in range(1, 5))
    assert g.p_unfinished == Fraction(1, 4) ** 4 and g.p_a_wins == g.p_draw == 0


@pytest.mark.covers("army-morale.one-time.half-strength", "army-morale.ongoing.take-and-hold")
def test_exact_detachment_chain_equals_seeded_simulation() -> None:
    """numpy default_rng(11), 20 000 games: every per-turn estimate within 4 standard errors."""
    a = SideModel(
        10,
        battle_loss=constant(1),
        rally=RallyCounts(take_and_hold=1),
        detachments=(ModelDetachment(6, 3, 0.1), ModelDetachment(4, 2, Fraction(1, 5))),
    )
    b = SideModel(
        9, battle_loss=D3, rally=RallyCounts(blast_markers=1), detachments=(ModelDetachment(8, 4, 0.15),)
    )
    exact = game_length(a, b, max_turns=10)
    assert exact.p_a_wins + exact.p_b_wins + exact.p_draw + exact.p_unfinished == 1
    sim = simulate_game_length(army(a), army(b), games=20_000, seed=11, max_turns=10)
    for p, n in zip(exact.p_end, sim.ends, strict=True):
        assert abs(sim.p(n) - float(p)) <= 4 * max(sim.standard_error(n), 1e-3)
    for count, p in (
        (sim.a_wins, exact.p_a_wins),
        (sim.b_wins, exact.p_b_wins),
        (sim.unfinished, exact.p_unfinished),
    ):
        assert abs(sim.p(count) - float(p)) <= 4 * sim.standard_error(count) + 1e-3


def test_bad_models_are_refused() -> None:
    with pytest.raises(
        InputError, match=re.escape(f"a.detachments: at most {MAX_STATES} strength combinations")
    ):
        game_length(SideModel(5, detachments=(ModelDetachment(200, 2, 0.5),) * 2), SideModel(5))
    with pytest.raises(InputError, match="loss_chance: expected a chance from 0 to 1"):
        game_length(SideModel(5), SideModel(5, detachments=(ModelDetachment(4, 2, 1.5),)))
    with pytest.raises(InputError, match=re.escape("b.detachments: expected strength >= 1")):
        game_length(SideModel(5), SideModel(5, detachments=(ModelDetachment(0, 2, 0.5),)))
    with pytest.raises(InputError, match="max_turns"):
        game_length(SideModel(5), SideModel(5), max_turns=0)
    assert game_length(SideModel(5, battle_loss=D6), SideModel(5, battle_loss=D6), max_turns=2).p_draw > 0


@pytest.mark.covers(
    "army-morale.ongoing.rescue",
    "army-morale.ongoing.cleanse",
    "army-morale.one-time.capture",
    "army-morale.game-end",
)
def test_exact_chain_equals_seeded_simulation_with_every_rally_term() -> None:
    """numpy default_rng(3), 20 000 games: Rescue, Cleanse and Capture (own) on top of the rest,
    with values that often reach zero together (Pyrrhic wins and draws)."""
    a = SideModel(
        6,
        battle_loss=D6,
        rally=RallyCounts(blast_markers=2, rescue_escorts=1, capture_own=1, cleanse=1),
        detachments=(ModelDetachment(5, 2, Fraction(1, 4)),),
    )
    b = SideModel(7, battle_loss=D6, rally=RallyCounts(take_and_hold=1, rescue_escorts=2, capture_destroy=1))
    exact = game_length(a, b, max_turns=8)
    sim = simulate_game_length(army(a), army(b), games=20_000, seed=3, max_turns=8)
    assert sim.draws > 0 and exact.p_draw > 0
    for p, n in zip(exact.p_end, sim.ends, strict=True):
        assert abs(sim.p(n) - float(p)) <= 4 * max(sim.standard_error(n), 1e-3)
    for count, p in (
        (sim.a_wins, exact.p_a_wins),
        (sim.b_wins, exact.p_b_wins),
        (sim.draws, exact.p_draw),
        (sim.unfinished, exact.p_unfinished),
    ):
        assert abs(sim.p(count) - float(p)) <= 4 * sim.standard_error(count) + 1e-3
