"""Wahapedia CSV import: the fixture files (made-up content in Wahapedia's format) import
losslessly — every kept value is compared with the file read by a naive splitter of our own —
and malformed files are refused naming the file, the row and the column."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

from rulesbook.data import DataFileError
from rulesbook.dice import parse_dice
from rulesbook.systems.wh40k.wahapedia import import_wahapedia

FIXTURES = Path(__file__).with_name("wahapedia")


def naive(name: str) -> list[dict[str, str]]:
    """Split the file by hand: BOM off, lines, '|' fields, trailing '|' dropped."""
    text = (FIXTURES / name).read_bytes().decode("utf-8").lstrip("\ufeff")
    lines = [line for line in text.replace("\r\n", "\n").split("\n") if line]
    header = lines[0].split("|")[:-1]
    return [dict(zip(header, line.split("|")[:-1], strict=True)) for line in lines[1:]]


def words(cell: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", cell)).split())


FACTION = import_wahapedia(FIXTURES, "ZZ")
SHEETS = {r["id"]: r for r in naive("Datasheets.csv") if r["faction_id"] == "ZZ"}


def sheet(datasheet_id: str):  # type: ignore[no-untyped-def]
    name = SHEETS[datasheet_id]["name"]
    return next(d for d in FACTION.datasheets.values() if d.name == name)


def test_only_the_faction_is_imported() -> None:
    assert {d.name for d in FACTION.datasheets.values()} == {r["name"] for r in SHEETS.values()}
    assert {s.name for s in FACTION.stratagems.values()} == {
        r["name"] for r in naive("Stratagems.csv") if r["faction_id"] == "ZZ"
    }


def test_characteristics_are_kept() -> None:
    for row in naive("Datasheets_models.csv"):
        if row["datasheet_id"] not in SHEETS:
            continue
        d = sheet(row["datasheet_id"])
        ch = d.characteristics
        assert f'{ch.move}"' == row["M"] and str(ch.toughness) == row["T"] and f"{ch.save}+" == row["Sv"]
        assert str(ch.wounds) == row["W"] and f"{ch.leadership}+" == row["Ld"]
        assert str(ch.objective_control) == row["OC"]
        assert (str(d.invulnerable) if d.invulnerable else "-") == row["inv_sv"]


def test_weapons_are_kept() -> None:
    for row in naive("Datasheets_wargear.csv"):
        if row["datasheet_id"] not in SHEETS:
            continue
        d = sheet(row["datasheet_id"])
        key, w = next((k, w) for k, w in d.weapons.items() if w.name == row["name"])
        assert w.attacks == parse_dice(row["A"]) and w.damage == parse_dice(row["D"])
        assert f"{w.skill}+" == row["BS_WS"] and str(w.strength) == row["S"] and str(w.ap) == row["AP"]
        assert w.ranged == (row["type"] == "Ranged")
        assert d.weapon_ranges[key] == (int(row["range"].rstrip('"')) if w.ranged else None)
        given = {x.strip() for x in row["description"].split(",") if x.strip()}
        ab = w.abilities
        kept = {"lethal hits"} if ab.lethal_hits else set()
        kept |= {"blast"} if ab.blast else set()
        kept |= {f"sustained hits {ab.sustained}".lower()} if ab.sustained else set()
        kept |= {f"anti-{k} {n}+" for k, n in ab.anti} | set(ab.other)
        assert kept == given


def test_abilities_are_kept() -> None:
    shared = {r["id"]: r for r in naive("Abilities.csv")}
    for row in naive("Datasheets_abilities.csv"):
        d = sheet(row["datasheet_id"])
        if row["type"] == "Core":
            name = shared[row["ability_id"]]["name"].lower().replace(" ", "-")
            expected = f"{name}-{row['parameter'].rstrip('+').lower()}" if row["parameter"] else name
            assert expected in d.core_abilities
            continue
        ability = next(a for a in FACTION.abilities.values() if a.name == row["name"])
        assert ability.key in d.abilities and ability.text == words(row["description"])
        assert ability.kind == row["type"].lower() and ability.aura == ("(Aura)" in row["name"])
    assert sheet("000000901").feel_no_pain == 6


def test_keywords_composition_points_are_kept() -> None:
    for row in naive("Datasheets_keywords.csv"):
        d = sheet(row["datasheet_id"])
        assert row["keyword"] in (d.faction_keywords if row["is_faction_keyword"] == "true" else d.keywords)
    for row in naive("Datasheets_unit_composition.csv"):
        count, name = row["description"].split(" ", 1)
        assert (int(count), name) in sheet(row["datasheet_id"]).composition
    for row in naive("Datasheets_models_cost.csv"):
        assert (int(row["description"].split()[0]), int(row["cost"])) in sheet(row["datasheet_id"]).points


def test_stratagems_are_kept() -> None:
    for row in naive("Stratagems.csv"):
        if row["faction_id"] != "ZZ":
            continue
        s = next(s for s in FACTION.stratagems.values() if s.name == row["name"])
        assert str(s.cp) == row["cp_cost"] and s.category in row["type"]
        text = words(row["description"])
        for label, value in (("WHEN", s.when), ("TARGET", s.target), ("EFFECT", s.text)):
            assert f"{label}: {value}" in text
        assert (f"RESTRICTIONS: {s.restrictions}" in text) == bool(s.restrictions)
        assert s.source == row["detachment"].lower().replace(" ", "-")
    assert FACTION.stratagems["foul-vigour"].phases == ("fight",)
    assert FACTION.stratagems["rusted-ground"].phases == ("your-movement",)


def test_imported_weapons_run_in_the_engine() -> None:
    """An imported datasheet is ordinary typed data: its weapons resolve like any other."""
    from rulesbook.systems.wh40k.engine import resolve
    from rulesbook.systems.wh40k.weapons import Target

    jaws = FACTION.datasheets["rot-beast"].weapons["grinding-jaws"]
    assert resolve([jaws], Target(4, 3, 1, models=5, keywords=("infantry",))).mean_models_destroyed > 0


# -- malformed files --------------------------------------------------------------------------


def broken(tmp_path: Path, name: str, old: str, new: str) -> Path:
    folder = tmp_path / "export"
    shutil.copytree(FIXTURES, folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        (
            "Datasheets_models.csv",
            "|9|3+|5|",
            "|9|8+|5|",
            "Datasheets_models.csv, row 1, column Sv: expected 2+ to 7+, got '8+'",
        ),
        (
            "Datasheets_wargear.csv",
            "|D6+1|3+|",
            "|D6+1|7+|",
            "Datasheets_wargear.csv, row 1, column BS_WS: expected 2+ to 6+, got '7+'",
        ),
        (
            "Datasheets_wargear.csv",
            "|D6+1|3+|",
            "|D6+|3+|",
            "Datasheets_wargear.csv, row 1, column A: expected a dice expression",
        ),
        (
            "Datasheets_wargear.csv",
            "blast, lethal hits",
            "blast, lethal hitz",
            "Datasheets_wargear.csv, row 1, column description: unknown word 'lethal-hitz'",
        ),
        (
            "Datasheets_wargear.csv",
            '|12"|Ranged|1|',
            "|twelve|Ranged|1|",
            "Datasheets_wargear.csv, row 3, column range: expected inches",
        ),
        (
            "Datasheets_models.csv",
            '000000902|1|Mire Warden|5"|5|',
            '000000902|1|Mire Warden|5"|6|',
            "Datasheets_models.csv, row 3, column line: a second model line",
        ),
        (
            "Stratagems.csv",
            "Stratagem|1|The swamp",
            "Stratagem|x|The swamp",
            "Stratagems.csv, row 1, column cp_cost: expected an integer from 0 to 5, got 'x'",
        ),
        (
            "Stratagems.csv",
            "<b>TARGET:</b> That ZZ unit.",
            "That ZZ unit.",
            "Stratagems.csv, row 1, column description: no TARGET: part",
        ),
        (
            "Stratagems.csv",
            "Mire Host – Battle Tactic",
            "Mire Host – Secret Plan",
            "Stratagems.csv, row 1, column type: expected a type naming one of",
        ),
        (
            "Datasheets_abilities.csv",
            "000000901|2|",
            "000000999|2|",
            "Datasheets_abilities.csv, row 2, column datasheet_id: no datasheet with id '000000999'",
        ),
        (
            "Abilities.csv",
            "000008003|Deep Strike|",
            "000008003|Deep Dive|",
            "Datasheets_abilities.csv, row 4, column name: unknown core ability 'Deep Dive'",
        ),
        (
            "Datasheets_models_cost.csv",
            "|150|",
            "|lots|",
            "Datasheets_models_cost.csv, row 1, column cost: expected an integer",
        ),
        (
            "Datasheets_models.csv",
            '000000901|1|Rot Beast|8"|9|',
            '000000901|1|Rot Beast|8"|',
            "Datasheets_models.csv, row 1: expected 13 fields separated by '|', got 12",
        ),
        (
            "Datasheets.csv",
            "id|name|faction_id",
            "id|title|faction_id",
            "Datasheets.csv, header: missing column 'name'",
        ),
    ],
)
def test_malformed_rows_name_file_row_and_column(
    tmp_path: Path, name: str, old: str, new: str, message: str
) -> None:
    folder = broken(tmp_path, name, old, new)
    with pytest.raises(DataFileError) as err:
        import_wahapedia(folder, "ZZ")
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


def test_missing_file_and_unknown_faction(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    shutil.copytree(FIXTURES, folder)
    with pytest.raises(DataFileError, match=r"^Datasheets\.csv: no row has faction_id 'QQ'"):
        import_wahapedia(folder, "QQ")
    (folder / "Stratagems.csv").unlink()
    with pytest.raises(DataFileError, match=r"^Stratagems\.csv: missing from"):
        import_wahapedia(folder, "ZZ")


def test_without_bom_or_trailing_bar(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    shutil.copytree(FIXTURES, folder)
    path = folder / "Datasheets.csv"
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    path.write_text("\n".join(line.removesuffix("|") for line in lines) + "\n", encoding="utf-8")
    again = import_wahapedia(folder, "ZZ")
    assert dict(again.datasheets) == dict(FACTION.datasheets)
    assert again.datasheets["rot-beast"] == FACTION.datasheets["rot-beast"]
