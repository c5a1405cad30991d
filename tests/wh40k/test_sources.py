"""One weapon constructor for every source (form, data file, typed profile), one error style,
and Mortarion's exclusive weapons as data."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesbook.errors import InputError
from rulesbook.registry import DataFileError, registry
from rulesbook.systems.wh40k.data import load_unit, mortarion, mortarion_weapons
from rulesbook.systems.wh40k.profiles import parse_weapons
from rulesbook.systems.wh40k.weapons import WEAPON_INPUTS, make_weapon

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
    """Rotwind typed in the form, read from mortarion.yaml and typed as a profile is one weapon."""
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


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "unit.yaml"
    path.write_text(text, encoding="utf-8")
    return path


GUN = "      name: Gun\n      ranged: true\n      attacks: '2'\n      skill: 3\n      strength: 4\n      ap: 0\n      damage: '1'\n"


def test_a_bad_weapon_in_a_data_file_names_the_file_and_the_entry(tmp_path: Path) -> None:
    path = _write(tmp_path, "squad:\n  weapons:\n    gun:\n" + GUN.replace("skill: 3", "skill: 9"))
    with pytest.raises(DataFileError, match=r"^unit\.yaml\.squad\.weapons\.gun: skill: expected an integer"):
        load_unit(path, "squad")


def test_exclusive_weapons_are_data(tmp_path: Path) -> None:
    """A new exclusive group needs no code: it is read from the file and enforced with its reason."""
    text = (
        "squad:\n  exclusive:\n    - weapons: [gun, other]\n      reason: One gun at a time\n"
        "  weapons:\n    gun:\n" + GUN + "    other:\n" + GUN + "    third:\n" + GUN
    )
    unit = load_unit(_write(tmp_path, text), "squad")
    unit.check_exclusive(["gun", "third"], "weapons")
    with pytest.raises(InputError, match=r"^weapons: One gun at a time: gun or other$"):
        unit.check_exclusive(["third", "other", "gun"], "weapons")
    assert [g.weapons for g in mortarion().exclusive] == [("silence-strike", "silence-sweep")]


def test_an_exclusive_group_must_name_known_weapons(tmp_path: Path) -> None:
    text = (
        "squad:\n  exclusive:\n    - weapons: [gun, nothing]\n      reason: r\n  weapons:\n    gun:\n" + GUN
    )
    with pytest.raises(
        DataFileError, match=r"exclusive\[0\]: expected 'weapons', a list of two or more of gun"
    ):
        load_unit(_write(tmp_path, text), "squad")


def test_mortarion_refuses_what_the_data_excludes() -> None:
    with pytest.raises(InputError, match=r"Silence attacks with one profile at a time"):
        MORTARION.run(weapons="silence-sweep,silence-strike", toughness=4, save=3, wounds=1)
