"""The packet damage computed directly equals the same computation through icepool dice."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.dice import D6, RollTest, parse_dice
from rulesbook.results import Distribution
from rulesbook.systems.wh40k.attack.engine import _packet
from rulesbook.systems.wh40k.attack.rolls import packet_damage, packet_weights


def through_icepool(damage: str, reduction: int, fnp: int | None, minimum: int) -> Distribution[int]:
    die = parse_dice(damage).die().map(lambda d: max(min(minimum, d), d - reduction))
    if fnp is not None:
        die = die @ RollTest(dice=D6, target=fnp, direction="over").fail_die()
    return Distribution.from_die(die)


@pytest.mark.parametrize("damage", ["1", "2", "D3", "D6+1", "2D6", "2D6+3", "3D6"])
@pytest.mark.parametrize("reduction", [0, 1, 2])
@pytest.mark.parametrize("fnp", [None, 2, 5, 6])
@pytest.mark.parametrize("minimum", [0, 1])
def test_packet_damage_equals_icepool(damage: str, reduction: int, fnp: int | None, minimum: int) -> None:
    assert packet_damage(parse_dice(damage), reduction, fnp, minimum) == through_icepool(
        damage, reduction, fnp, minimum
    )


@settings(max_examples=60, deadline=None)
@given(
    damage=st.sampled_from(["1", "2", "D3", "D6", "D6+1", "2D6", "3"]),
    reduction=st.integers(0, 2),
    fnp=st.sampled_from([None, 4, 6]),
    wounds=st.integers(1, 7),
    models=st.integers(1, 4),
    spills=st.booleans(),
)
def test_a_packet_table_moves_as_each_damage_is_allocated(
    damage: str, reduction: int, fnp: int | None, wounds: int, models: int, spills: bool
) -> None:
    """The engine's packet table (rows shared by the states with the same room left) moves each
    state as allocating one packet does, state by state: a damage of ``x`` takes ``x`` wounds,
    at most what the model (or, when excess spills, the unit) has left; the last state stays."""
    pairs, den = packet_weights(parse_dice(damage), reduction, fnp, 1)
    table = _packet(pairs, den, wounds, models, spills)
    total = wounds * models
    for lost in range(total + 1):
        want: dict[int, Fraction] = {}
        for x, w in pairs if lost < total else ((0, den),):
            room = total - lost if spills else wounds - lost % wounds
            to = lost + min(x, room)
            want[to] = want.get(to, Fraction(0)) + Fraction(w, den)
        got: dict[int, Fraction] = {}
        for d, w in table.moves[lost]:
            got[lost + d] = got.get(lost + d, Fraction(0)) + Fraction(w, table.den)
        assert got == want
    assert table.width == max(len(row) for row in table.moves)
    v = [0] * (total + 1)
    v[0] = 1
    assert sum(table.apply(v)) == table.den  # one packet from no wound lost: every weight kept
