"""The faction data file: the shipped Death Guard page loads into typed values, and every kind of
malformed entry is refused with one line naming the file, the entry and the reason."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesbook.data import DataFileError
from rulesbook.records import load_system_data
from rulesbook.systems.wh40k.faction.reader import DEATH_GUARD_FILE, death_guard, load_faction
from rulesbook.systems.wh40k.faction.types import Faction

PAGE = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "004_7134931f915e24a0.txt"
REGISTER = frozenset(i.id for i in load_system_data(DEATH_GUARD_FILE.with_name("rules.yaml"))[2])


def _raw() -> dict[str, Any]:
    data = yaml.safe_load(DEATH_GUARD_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _load(tmp_path: Path, data: dict[str, Any]) -> Faction:
    path = tmp_path / "death-guard.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_faction(path)


def test_mortarion_datasheet_is_typed() -> None:
    m = death_guard().datasheets["mortarion"]
    c = m.characteristics
    assert (c.move, c.toughness, c.save, c.wounds, c.leadership, c.objective_control) == (10, 12, 2, 16, 5, 6)
    assert m.invulnerable == 4 and m.feel_no_pain == 5
    assert list(m.weapons) == ["rotwind", "the-lantern", "silence-strike", "silence-sweep"]
    rotwind = m.weapons["rotwind"]
    assert (str(rotwind.attacks), rotwind.skill, rotwind.strength, rotwind.ap, str(rotwind.damage)) == (
        "D6+3",
        2,
        7,
        -2,
        "1",
    )
    assert m.weapon_ranges["rotwind"] == 18 and m.weapon_ranges["silence-strike"] is None
    assert not m.weapons["silence-sweep"].ranged
    assert m.exclusive == (("silence-strike", "silence-sweep"),)
    assert m.has("DEATH GUARD") and m.has("MONSTER") and not m.has("INFANTRY")
    assert m.composition == ((1, "Mortarion (EPIC HERO)"),) and m.points == ((1, 300),)
    assert m.models == 1


def test_every_stratagem_of_the_page_is_shipped() -> None:
    """The page's stratagem index, read from the source: name, CP and 'Source – Category'."""
    dg = death_guard()
    if not PAGE.is_file():
        pytest.skip("the source documents are not beside this checkout")
    text = PAGE.read_text(encoding="utf-8")
    index = text[text.index("STRATAGEMS\n") : text.index("DETACHMENT ABILITY")]
    listed = re.findall(r"(?m)^([A-Z][A-Z' -]+)\n(\d)CP\n([A-Za-z ]+) – ([A-Za-z ]+)$", index)
    assert len(listed) == 19
    names = {"Core": "core", "Boarding Actions": "boarding-actions", "Plague Company": "plague-company"}
    shipped = {(s.name.split(" (")[0].upper(), s.cp, s.source, s.category) for s in dg.stratagems.values()}
    page = {(n.strip(), int(cp), names[src], cat.strip()) for n, cp, src, cat in listed}
    assert shipped == page
    assert len(dg.stratagems) == 19  # Command Re-roll, Insane Bravery, Counter-offensive twice each
    ids = [s.id for s in dg.stratagems.values()]
    assert len(set(ids)) == len(ids) and all(i.startswith("wh40k.death-guard.stratagem.") for i in ids)


def test_abilities_detachments_and_contagion() -> None:
    dg = death_guard()
    host = dg.abilities["host-of-plagues"]
    assert host.choice_of == ("miasma-of-pestilence", "diseased-influence", "toxic-presence")
    assert all(dg.abilities[k].aura for k in host.choice_of)
    assert dg.abilities["toxic-presence"].range == 12 and dg.abilities["miasma-of-pestilence"].range == 6
    spread = dg.detachments["spread-the-sickness"]
    assert spread.choices == ("skullsquirm-blight", "rattlejoint-ague", "scabrous-soulrot")
    assert dg.contagion_range == (3, 6, 9) and "Index: Death Guard" in dg.contagion_source
    assert [dg.contagion(r) for r in range(1, 6)] == [3, 6, 9, 9, 9]


def _entry(data: dict[str, Any], *path: str) -> Any:
    node: Any = data
    for p in path:
        node = node[p]
    return node


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: _entry(d, "datasheets", "mortarion", "weapons", "rotwind").__setitem__("BS", "7+"),
            "death-guard.yaml.datasheets.mortarion.weapons.rotwind.BS: expected 2+ to 6+, got '7+'",
        ),
        (
            lambda d: _entry(d, "datasheets", "mortarion", "weapons", "rotwind").pop("S"),
            "death-guard.yaml.datasheets.mortarion.weapons.rotwind: missing field 'S'",
        ),
        (
            lambda d: _entry(d, "datasheets", "mortarion", "characteristics").pop("T"),
            "death-guard.yaml.datasheets.mortarion.characteristics: missing field 'T'",
        ),
        (
            lambda d: _entry(d, "datasheets", "mortarion", "characteristics").__setitem__("Sv", "1+"),
            "death-guard.yaml.datasheets.mortarion.characteristics.Sv: expected 2+ to 7+, got '1+'",
        ),
        (
            lambda d: _entry(d, "datasheets", "mortarion", "abilities").append("plague-wind"),
            "death-guard.yaml.datasheets.mortarion.abilities: unknown ability 'plague-wind'; define it under abilities",
        ),
        (
            lambda d: _entry(d, "datasheets", "mortarion", "keywords").append("NURGEL"),
            "death-guard.yaml.datasheets.mortarion.keywords: unknown keyword 'NURGEL'; add it to the file's keywords",
        ),
        (
            lambda d: _entry(d, "datasheets", "mortarion", "core_abilities").append("feel-no-pain-7"),
            "death-guard.yaml.datasheets.mortarion.core_abilities: unknown core ability 'feel-no-pain-7'",
        ),
        (
            lambda d: _entry(d, "datasheets", "mortarion", "weapons", "the-lantern").__setitem__(
                "abilities", ["pistol", "sustained-hit-d3"]
            ),
            "death-guard.yaml.datasheets.mortarion.weapons.the-lantern: abilities: unknown word 'sustained-hit-d3'",
        ),
        (
            lambda d: _entry(d, "datasheets", "mortarion", "weapons", "silence-strike").__setitem__(
                "abilities", ["blast"]
            ),
            "death-guard.yaml.datasheets.mortarion.weapons.silence-strike: blast is a ranged weapon ability",
        ),
        (
            lambda d: _entry(d, "stratagems", "ferric-blight").pop("cp"),
            "death-guard.yaml.stratagems.ferric-blight: missing field 'cp'",
        ),
        (
            lambda d: _entry(d, "stratagems", "ferric-blight").__setitem__("category", "Battle Tactics"),
            "death-guard.yaml.stratagems.ferric-blight.category: expected one of Battle Tactic, Strategic Ploy, "
            "Epic Deed, Wargear, got 'Battle Tactics'",
        ),
        (
            lambda d: _entry(d, "stratagems", "ferric-blight", "phases").append("skirmish"),
            "death-guard.yaml.stratagems.ferric-blight.phases[2]: expected one of declare-battle-formations",
        ),
        (
            lambda d: _entry(d, "stratagems", "ferric-blight", "effects", 0).__setitem__("kind", "armour"),
            "death-guard.yaml.stratagems.ferric-blight.effects[0].kind: expected one of hit-modifier",
        ),
        (
            lambda d: _entry(d, "stratagems", "ferric-blight", "effects", 0).__setitem__("value", 0),
            "death-guard.yaml.stratagems.ferric-blight.effects[0].value: expected an integer from 1 to 12, got 0",
        ),
        (
            lambda d: _entry(d, "stratagems", "sanguous-flux", "effects", 0).__setitem__(
                "value", "sustained-hits-9"
            ),
            "death-guard.yaml.stratagems.sanguous-flux.effects[0].value: unknown word 'sustained-hits-9'",
        ),
        (
            lambda d: _entry(d, "stratagems", "grenade", "effects", 0).pop("register"),
            "death-guard.yaml.stratagems.grenade.effects[0]: an effect of kind none names the register entry",
        ),
        (
            lambda d: _entry(d, "abilities", "host-of-plagues", "choice_of").append("plague-wind"),
            "death-guard.yaml.abilities.host-of-plagues.choice_of: unknown ability 'plague-wind'",
        ),
        (
            lambda d: _entry(d, "detachments", "spread-the-sickness", "choices").append("the-pox"),
            "death-guard.yaml.detachments.spread-the-sickness.choices: unknown ability 'the-pox'",
        ),
        (
            lambda d: _entry(d, "abilities", "toxic-presence").__setitem__("range", "twelve"),
            "death-guard.yaml.abilities.toxic-presence.range: expected an integer from 1 to 48, got 'twelve'",
        ),
        (
            lambda d: _entry(d, "datasheets", "mortarion", "points").clear(),
            "death-guard.yaml.datasheets.mortarion: a datasheet needs its composition and points",
        ),
        (
            lambda d: _entry(d, "stratagems").__setitem__("Ferric Blight", {}),
            "death-guard.yaml.stratagems: keys are lower-case words joined by '-', got 'Ferric Blight'",
        ),
    ],
)
def test_malformed_entries_are_refused_naming_file_entry_and_reason(
    tmp_path: Path, change: Any, message: str
) -> None:
    data = _raw()
    change(data)
    with pytest.raises(DataFileError) as caught:
        _load(tmp_path, data)
    text = str(caught.value)
    assert text.startswith(message), text
    assert "\n" not in text


def test_unknown_interpretation_is_refused_when_the_register_is_known(tmp_path: Path) -> None:
    data = _raw()
    _entry(data, "stratagems", "grenade", "effects", 0)["register"] = "wh40k.interpretations.grenades"
    path = tmp_path / "death-guard.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"grenade.effects\[0\].register: unknown interpretation"):
        load_faction(path, REGISTER)


def test_not_yaml_and_unsafe_yaml_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("faction: [1, 2\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"^bad.yaml: not valid YAML"):
        load_faction(path)
    path.write_text("!!python/object/apply:os.system ['true']\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"^bad.yaml: not valid YAML"):
        load_faction(path)


def test_the_shipped_file_round_trips(tmp_path: Path) -> None:
    """Dumping the raw file and loading it again gives the same typed values; every register
    entry it names exists."""
    assert _load(tmp_path, _raw()) == load_faction(DEATH_GUARD_FILE, REGISTER)
