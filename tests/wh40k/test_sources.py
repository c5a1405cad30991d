"""One weapon constructor for every source (form, data file, typed profile), one error style,
and Mortarion's exclusive weapons as data."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack.weapons import WEAPON_INPUTS, make_weapon
from rulesbook.systems.wh40k.calculators.profiles import parse_weapons
from rulesbook.systems.wh40k.faction import mortarion as data
from rulesbook.systems.wh40k.faction.mortarion import (
    Exclusive,
    UnitWeapons,
    damaged_hit_modifier,
    mortarion,
    mortarion_weapons,
)
from rulesbook.systems.wh40k.faction.reader import death_guard

ATTACK = registry().calculator("wh40k.attack")
MORTARION = registry().calculator("wh40k.mortarion")

ROTWIND_FORM = {
    "attacks": "D6+3",
    "skill": "2",
    "strength": "7",
    "ap": "-2",
    "damage": "1",
    "abilities": "blast,devastating-wounds,lethal-hits,psychic",
}


def test_the_three_sources_build_the_same_weapon() -> None:
    """Rotwind typed in the form, read from death-guard.yaml and typed as a profile is one weapon."""
    checked = ATTACK.validate({**ROTWIND_FORM, "toughness": "4", "save": "3", "wounds": "1"})
    from_form = make_weapon({inp.key: checked[inp.key] for inp in WEAPON_INPUTS}, name="Rotwind")
    from_data = mortarion_weapons()["rotwind"]
    (from_text,) = parse_weapons(
        "Rotwind: A=D6+3 BS=2 S=7 AP=-2 D=1 blast,devastating-wounds,lethal-hits,psychic"
    )
    assert from_form == from_data == from_text


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: make_weapon({**ROTWIND_FORM, "skill": "7"}),
            "skill: expected an integer from 2 to 6, got 7",
        ),
        (
            lambda: parse_weapons("A=D6+3 BS=7 S=7 D=1"),
            "weapons: weapon 1: BS: expected an integer from 2 to 6, got 7",
        ),
    ],
)
def test_one_validation_path_and_one_error_style(build: object, message: str) -> None:
    with pytest.raises(InputError) as info:
        build()  # type: ignore[operator]
    assert str(info.value) == message


GUN = make_weapon({**ROTWIND_FORM, "abilities": ""}, name="Gun")


def test_exclusive_groups_are_enforced_with_their_reason() -> None:
    unit = UnitWeapons(
        MappingProxyType({"gun": GUN, "other": GUN, "third": GUN}),
        (Exclusive(("gun", "other"), "One gun at a time"),),
    )
    unit.check_exclusive(["gun", "third"], "weapons")
    with pytest.raises(InputError, match=r"^weapons: One gun at a time: gun or other$"):
        unit.check_exclusive(["third", "other", "gun"], "weapons")
    assert [g.weapons for g in mortarion().exclusive] == [("silence-strike", "silence-sweep")]


@pytest.mark.covers("wh40k.mortarion.weapons", "wh40k.mortarion.damaged")
def test_mortarion_calculator_reads_the_faction_datasheet() -> None:
    """One source: wh40k.mortarion's weapons are the Mortarion datasheet's own values, its Damaged
    modifier is the one the Damaged ability declares, and the old data file is gone."""
    sheet = death_guard().datasheets["mortarion"]
    assert mortarion().weapons is sheet.weapons
    assert tuple(g.weapons for g in mortarion().exclusive) == sheet.exclusive
    (effect,) = death_guard().abilities["damaged"].effects
    assert damaged_hit_modifier(True) == effect.value == -1
    assert not Path(data.__file__).with_name("mortarion.yaml").exists()
    # with no aura reaching the target (24" away), the datasheet calculator and wh40k.mortarion
    # resolve the same weapons against the same target
    target = {"toughness": 4, "save": 3, "wounds": 2, "models": 10}
    old = MORTARION.run(weapons="rotwind,the-lantern", **target)
    new = (
        registry()
        .calculator("wh40k.datasheet-attack")
        .run(weapons="rotwind,the-lantern", distance=24, **target)
    )
    assert old["models_destroyed"] == new["models_destroyed"]


def test_mortarion_refuses_what_the_data_excludes() -> None:
    with pytest.raises(
        InputError, match=r"^weapons: one profile at a time: silence-strike or silence-sweep$"
    ):
        MORTARION.run(weapons="silence-sweep,silence-strike", toughness=4, save=3, wounds=1)
