"""The packet damage computed directly equals the same computation through icepool dice."""

from __future__ import annotations

import pytest

from rulesbook.dice import D6, RollTest, parse_dice
from rulesbook.results import Distribution
from rulesbook.systems.wh40k.attack.rolls import packet_damage


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
