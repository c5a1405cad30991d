"""Wahapedia CSV import: the fixture files (made-up content in the export's real format: its file
and column names, pipe-separated, trailing '|', HTML in texts, a field over two lines) import
losslessly — every kept value is compared with the file read by a naive splitter of our own —
every datasheet shape of issue 28 imports (models that differ, Torrent's N/A, every core weapon
keyword, detachments, enhancements, leader pairings, effects recognised from text), and malformed
files are refused in one line naming the file, the row and the column."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from rulesbook.data import DataFileError
from rulesbook.dice import parse_dice
from rulesbook.systems.wh40k.attack.weapons import ABILITY_WORDS
from rulesbook.systems.wh40k.faction.file import faction_yaml
from rulesbook.systems.wh40k.faction.reader import load_faction
from rulesbook.systems.wh40k.faction.types import NO_SKILL
from rulesbook.systems.wh40k.wahapedia.__main__ import main
from rulesbook.systems.wh40k.wahapedia.files import MAX_FIELD, read_table
from rulesbook.systems.wh40k.wahapedia.importer import import_wahapedia
from rulesbook.systems.wh40k.wahapedia.sheets import TEXT_ONLY

FIXTURES = Path(__file__).with_name("wahapedia")
ROOT = Path(__file__).resolve().parents[2]


def naive(name: str) -> list[dict[str, str]]:
    """Split the file by hand: BOM off, '|' fields, trailing '|' dropped, a record running over
    lines until it has the header's number of fields."""
    text = (FIXTURES / name).read_bytes().decode("utf-8").lstrip("\ufeff").replace("\r\n", "\n")
    lines = [line for line in text.split("\n") if line]
    header = lines[0].split("|")[:-1]
    rows, pending = [], ""
    for line in lines[1:]:
        pending = f"{pending}\n{line}" if pending else line
        if pending.count("|") == len(header):
            rows.append(dict(zip(header, pending.split("|")[:-1], strict=True)))
            pending = ""
    assert not pending
    return rows


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
    assert {d.name for d in FACTION.detachments.values()} == {
        r["name"] for r in naive("Detachments.csv") if r["faction_id"] == "ZZ"
    }


def test_a_field_over_two_lines_is_one_field() -> None:
    rows = read_table(FIXTURES / "Datasheets.csv")
    assert [r.values["name"] for r in rows] == [r["name"] for r in naive("Datasheets.csv")]
    assert "\n" in rows[1].values["legend"] and rows[2].number == 3
    strat = FACTION.stratagems["swamp-shroud"]
    assert strat.when.startswith("Your opponent's Shooting phase, once an enemy unit")


def test_every_kind_of_model_keeps_its_characteristics() -> None:
    """One profile per kind of model (composition line), its characteristics from the model
    line of its name (singular or plural), its counts from '1 …' or '4-9 …'."""
    lines = {(r["datasheet_id"], r["name"]): r for r in naive("Datasheets_models.csv")}
    for row in naive("Datasheets_unit_composition.csv"):
        d = sheet(row["datasheet_id"])
        count, name = words(row["description"]).split(" – ")[0].split(" ", 1)
        low, _, high = count.partition("-")
        profile = next(p for p in d.profiles if p.name == name)
        assert (profile.count, profile.most) == (int(low), int(high or low))
        line = lines.get((row["datasheet_id"], name)) or lines[(row["datasheet_id"], name.removesuffix("s"))]
        ch = profile.characteristics
        assert f'{ch.move}"' == line["M"] and str(ch.toughness) == line["T"] and f"{ch.save}+" == line["Sv"]
        assert str(ch.wounds) == line["W"] and f"{ch.leadership}+" == line["Ld"]
        assert str(ch.objective_control) == line["OC"]
        assert (str(profile.invulnerable) if profile.invulnerable else "-") == line["inv_sv"]
    wardens = FACTION.datasheets["mire-wardens"]
    assert [(p.characteristics.wounds, p.characteristics.save) for p in wardens.profiles] == [(3, 3), (2, 4)]
    assert (wardens.models, wardens.most_models) == (5, 10)
    # the unit's main line is the kind with most models
    assert wardens.characteristics.wounds == 2


def test_the_loadout_says_which_models_carry_which_weapons() -> None:
    wardens = FACTION.datasheets["mire-wardens"]
    champion, rest = wardens.profiles
    assert champion.weapons == ("rust-pistol", "corroded-blade")
    assert rest.weapons == ("sludge-thrower", "corroded-blade")
    crawler = FACTION.datasheets["sludge-crawler"].profiles[0]
    assert set(crawler.weapons) == set(FACTION.datasheets["sludge-crawler"].weapons)  # both mortar profiles


def _kept_words(row: dict[str, str]) -> set[str]:
    known = re.compile("|".join(f"(?:{p})" for p, _ in ABILITY_WORDS))
    out = set()
    for raw in words(row["description"]).split(","):
        w = "-".join(re.sub(r"([0-9])\+$", r"\1", raw.strip().strip("[]").lower()).split())
        if w and known.fullmatch(w):
            out.add(w)
    return out


def test_weapons_are_kept() -> None:
    for row in naive("Datasheets_wargear.csv"):
        if row["datasheet_id"] not in SHEETS:
            continue
        d = sheet(row["datasheet_id"])
        key, w = next((k, w) for k, w in d.weapons.items() if w.name == row["name"])
        assert w.attacks == parse_dice(row["A"]) and w.damage == parse_dice(row["D"])
        if row["BS_WS"] == "N/A":
            assert w.skill == NO_SKILL and w.abilities.torrent
        else:
            assert f"{w.skill}+" == row["BS_WS"]
        assert str(w.strength) == row["S"] and str(w.ap) == row["AP"]
        assert w.ranged == (row["type"] == "Ranged")
        assert d.weapon_ranges[key] == (int(row["range"].rstrip('"')) if w.ranged else None)
        assert set(w.abilities.words()) == _kept_words(row)


def test_every_weapon_keyword_of_the_core_rules_imports() -> None:
    """Assault, Rapid Fire, Ignores Cover, Twin-linked, Pistol, Torrent, Lethal Hits, Lance,
    Indirect Fire, Precision, Blast, Melta, Heavy, Hazardous, Devastating Wounds, Sustained
    Hits, Extra Attacks, Anti, One Shot, Psychic: all on the fixture weapons, all kept."""
    kept = {w for d in FACTION.datasheets.values() for wp in d.weapons.values() for w in wp.abilities.words()}
    stems = {re.sub(r"-([0-9]|d3|d6)$", "", w) for w in kept}
    stems = {"anti" if s.startswith("anti-") else s for s in stems}
    assert stems >= {
        "assault", "rapid-fire", "ignores-cover", "twin-linked", "pistol", "torrent", "lethal-hits",
        "lance", "indirect-fire", "precision", "blast", "melta", "heavy", "hazardous",
        "devastating-wounds", "sustained-hits", "extra-attacks", "anti", "one-shot", "psychic",
    }  # fmt: skip


def test_unknown_weapon_keywords_are_one_warning_not_a_refusal() -> None:
    lines = [w for w in FACTION.warnings if w.startswith("weapon keywords the core rules do not have")]
    assert len(lines) == 1
    assert "'festering' (Sludge Crawler: Spore projector, Sludge Crawler: Rust lance)" in lines[0]
    assert "'mire-bound' (Sludge Crawler: Rust lance)" in lines[0]
    lance = FACTION.datasheets["sludge-crawler"].weapons["rust-lance"]
    assert lance.abilities.lance and lance.abilities.other == ()


def test_torrent_n_a_is_no_skill_and_elsewhere_refused(tmp_path: Path) -> None:
    spray = FACTION.datasheets["mire-wardens"].weapons["sludge-thrower"]
    assert spray.skill == NO_SKILL and spray.abilities.torrent
    folder = broken(
        tmp_path,
        "Datasheets_wargear.csv",
        '|Rust pistol|pistol|12"|Ranged|1|3+|',
        '|Rust pistol|pistol|12"|Ranged|1|N/A|',
    )
    with pytest.raises(
        DataFileError, match=r"^Datasheets_wargear\.csv, row 3, column BS_WS: N/A only for a Torrent weapon"
    ):
        import_wahapedia(folder, "ZZ")


def test_abilities_are_kept() -> None:
    shared = {r["id"]: r for r in naive("Abilities.csv")}
    for row in naive("Datasheets_abilities.csv"):
        d = sheet(row["datasheet_id"])
        if row["type"] == "Core":
            name = shared[row["ability_id"]]["name"].lower().replace(" ", "-")
            expected = f"{name}-{row['parameter'].rstrip('+').lower()}" if row["parameter"] else name
            assert expected in d.core_abilities
            continue
        name = row["name"] or shared[row["ability_id"]]["name"]
        text = row["description"] or shared[row["ability_id"]]["description"]
        ability = next(a for a in FACTION.abilities.values() if a.name == name)
        assert ability.key in d.abilities and ability.text == words(text)
        assert ability.aura == ("(Aura)" in name)
    assert sheet("000000901").feel_no_pain == 6


def test_effects_are_recognised_from_the_text_and_the_rest_kept_as_text() -> None:
    def kinds(effects):  # type: ignore[no-untyped-def]
        return [(e.kind, e.value, e.attack, e.phases, e.condition) for e in effects]

    assert kinds(FACTION.stratagems["foul-vigour"].effects) == [
        ("wound-modifier", 1, "melee", ("fight",), None)
    ]
    assert kinds(FACTION.stratagems["swamp-shroud"].effects) == [
        ("cover", None, "ranged", ("opponent-shooting",), None)
    ]
    assert kinds(FACTION.abilities["mire-resilience"].effects) == [
        ("damage-reduction", 1, "any", ("any",), None)
    ]
    assert kinds(FACTION.abilities["fume-vents"].effects) == [
        ("reroll-wounds", "ones", "ranged", ("any",), None)
    ]
    assert kinds(FACTION.abilities["mire-host-doctrine"].effects) == [
        ("reroll-hits", "ones", "any", ("any",), None)
    ]
    assert kinds(FACTION.abilities["rot-beast-damaged"].effects) == [
        ("hit-modifier", -1, "ranged", ("any",), "damaged")
    ]
    assert kinds(FACTION.enhancements["rusted-crown"].effects) == [
        ("weapon-ability", "lethal-hits", "any", ("any",), None)
    ]
    text_only = ["rusted-ground"]
    for key in text_only:
        (e,) = FACTION.stratagems[key].effects
        assert (e.kind, e.register) == ("none", TEXT_ONLY)
    for key in ("choking-fumes", "stubborn-mire", "lord-of-the-mire", "court-of-bogs"):
        (e,) = FACTION.abilities[key].effects
        assert (e.kind, e.register) == ("none", TEXT_ONLY)
    (line,) = [w for w in FACTION.warnings if "kept as text only" in w]
    assert line.startswith("6 rules kept as text only") and "Rusted Ground" in line and "Bog Lantern" in line


def test_detachments_enhancements_and_leaders() -> None:
    host = FACTION.detachments["mire-host"]
    assert host.choices == ("mire-host-doctrine",) and host.stratagems == ("foul-vigour", "rusted-ground")
    assert host.enhancements == ("rusted-crown",)
    assert "Mire Host Doctrine:" in host.text
    crown = FACTION.enhancements["rusted-crown"]
    assert (crown.cost, crown.detachment, crown.id) == (20, "mire-host", "wh40k.zz.enhancement.rusted-crown")
    assert FACTION.datasheets["bog-lord"].leads == ("mire-wardens",)
    assert {s.source for s in FACTION.stratagems.values()} == {"mire-host", "bog-court"}


def test_keywords_composition_points_are_kept() -> None:
    for row in naive("Datasheets_keywords.csv"):
        d = sheet(row["datasheet_id"])
        assert row["keyword"] in (d.faction_keywords if row["is_faction_keyword"] == "true" else d.keywords)
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
    assert FACTION.stratagems["swamp-shroud"].phases == ("opponent-shooting",)


def test_imported_weapons_run_in_the_engine() -> None:
    """An imported datasheet is ordinary typed data: its weapons resolve like any other."""
    from rulesbook.systems.wh40k.attack.engine import resolve
    from rulesbook.systems.wh40k.attack.weapons import Target

    jaws = FACTION.datasheets["rot-beast"].weapons["grinding-jaws"]
    assert resolve([jaws], Target(4, 3, 1, models=5, keywords=("infantry",))).mean_models_destroyed > 0


# -- the faction file: written, read back, given to the calculator --------------------------------


def test_the_import_as_a_faction_file_reads_back_the_same(tmp_path: Path) -> None:
    path = tmp_path / "zz.yaml"
    path.write_text(faction_yaml(FACTION), encoding="utf-8")
    assert replace(load_faction(path), file="") == replace(FACTION, file="")


def test_the_shipped_example_is_the_fixture_import() -> None:
    shipped = load_faction(ROOT / "rulesbook/systems/wh40k/examples/mire-host.yaml")
    again = import_wahapedia(FIXTURES, "ZZ", key="mire-host", name="Mire Host (made-up example)")
    assert replace(shipped, file="") == replace(again, file="")


def test_the_command_writes_the_file_and_fails_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "zz.yaml"
    assert main([str(FIXTURES), "ZZ", "-o", str(out)]) == 0
    assert load_faction(out).datasheets == FACTION.datasheets
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("warning: ") for line in err)
    assert main([str(FIXTURES), "QQ"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == "error: Datasheets.csv: no row has faction_id 'QQ'"
    done = subprocess.run(
        [sys.executable, "-m", "rulesbook.systems.wh40k.wahapedia", str(tmp_path / "nowhere"), "ZZ"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


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
            '|12"|Ranged|1|',
            "|twelve|Ranged|1|",
            "Datasheets_wargear.csv, row 3, column range: expected inches",
        ),
        (
            "Datasheets_unit_composition.csv",
            "4-9 Mire Wardens|",
            "4-9 Mire Wardens|\n000000902|3|0-1 Mire Hound|",
            "Datasheets_unit_composition.csv, row 4, column description: 'Mire Hound' matches no single line",
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
            "Datasheets_models.csv",
            '000000901|1|Rot Beast|8"|9|',
            '000000901|1|Rot Beast|8"|9|9|',
            "Datasheets_models.csv, row 1: expected 13 fields separated by '|', got 14",
        ),
        (
            "Datasheets.csv",
            "id|name|faction_id",
            "id|title|faction_id",
            "Datasheets.csv, header: missing column 'name'",
        ),
        (
            "Datasheets_leader.csv",
            "000000903|000000902|",
            "000000903|000000999|",
            "Datasheets_leader.csv, row 1, column attached_id: no datasheet with id '000000999'",
        ),
        (
            "Enhancements.csv",
            "|Rusted Crown|20|",
            "|Rusted Crown|many|",
            "Enhancements.csv, row 1, column cost: expected an integer from 0 to 500, got 'many'",
        ),
        # numbers are ASCII digits: an Arabic-Indic nine and a full-width eight are refused
        (
            "Datasheets_models.csv",
            '000000901|1|Rot Beast|8"|9|',
            '000000901|1|Rot Beast|8"|\u0669|',
            "Datasheets_models.csv, row 1, column T: expected an integer from 1 to 30, got '٩'",
        ),
        (
            "Datasheets_wargear.csv",
            "|D6+1|3+|6|-1|2|",
            "|D6+1|3+|\uff18|-1|2|",
            "Datasheets_wargear.csv, row 1, column S: expected ASCII digits, got '８'",
        ),
        (
            "Datasheets_models.csv",
            '000000901|1|Rot Beast|8"|9|3+|5||12|6+|',
            '000000901|1|Rot Beast|8"|9|3+|5||12|\u0666+|',
            "Datasheets_models.csv, row 1, column Ld: expected 2+ to 12+, got '٦+'",
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


def test_a_field_over_the_limit_is_one_line(tmp_path: Path) -> None:
    """The csv module refuses a field over 131,072 characters with its own exception; the
    loader names the file, the row and the column instead."""
    huge = "x" * (MAX_FIELD + 1)
    folder = broken(tmp_path, "Datasheets.csv", "A made-up swamp monster for the import tests.", huge)
    with pytest.raises(DataFileError) as err:
        import_wahapedia(folder, "ZZ")
    assert (
        str(err.value)
        == f"Datasheets.csv, row 1, column legend: {MAX_FIELD + 1:,} characters, at most {MAX_FIELD:,}"
    )
    ok = broken(
        tmp_path / "ok", "Datasheets.csv", "A made-up swamp monster for the import tests.", "x" * MAX_FIELD
    )
    assert import_wahapedia(ok, "ZZ").datasheets.keys() == FACTION.datasheets.keys()


@pytest.mark.parametrize(
    "text",
    ['a "quoted | field', "nul \x00 byte", "a lone \r carriage return", 'unbalanced " quote'],
)
def test_no_text_escapes_as_a_csv_error(tmp_path: Path, text: str) -> None:
    """Quotes, NUL bytes and stray carriage returns are data (nothing is quoted in the export);
    a stray '|' is a field count error in one line, never a traceback."""
    folder = broken(tmp_path, "Datasheets.csv", "A made-up swamp monster", text)
    try:
        import_wahapedia(folder, "ZZ")
    except DataFileError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("Datasheets.csv, row ")


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
    text = path.read_text(encoding="utf-8-sig")
    path.write_text(text.replace("|\n", "\n").replace("\n", "\r\n"), encoding="utf-8")
    again = import_wahapedia(folder, "ZZ")
    assert dict(again.datasheets) == dict(FACTION.datasheets)
