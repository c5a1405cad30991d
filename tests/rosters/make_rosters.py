"""Writes the rosters of ``tests/rosters/data`` (run it again after changing a list; the files are
committed so the suite reads them as data).

    python tests/rosters/make_rosters.py

Each list is described once below by what it *means* (units, models, their characteristics and
weapons, all made up), and written four ways:

* ``NAME.ros`` — BattleScribe XML, shaped by the public roster schema (``tests/rosters/schema``;
  ``test_roster_schema.py`` validates every ``.ros`` against it);
* ``NAME.rosz`` — the same, zipped, as BattleScribe saves it;
* ``NAME.json`` — New Recruit's JSON export of the same roster;
* ``NAME.typed.yaml`` (40k lists) — the same units typed as a faction file, by hand-written
  meaning rather than through any roster reader: the oracle the rosters' answers must equal.

The writers here know the formats, not rulesbook's readers: an invulnerable save is an ability
profile as the army builders give it ("4+"), a weapon with two profiles is one upgrade holding
both, a Feel No Pain is a rule named with its value.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from rulesbook.data import dump_yaml

HERE = Path(__file__).parent / "data"
NS = "http://www.battlescribe.net/schema/rosterSchema"
WH40K = ("sys-352e-adc2-7639-d6a9", "Warhammer 40,000 10th Edition")
EPIC = ("8f10-ee06-8dc1-beb6", "Epic Armageddon")
UNIT_TYPE, RANGED_TYPE, MELEE_TYPE, ABILITY_TYPE = (
    "c547-1836-d8a-ff4f",
    "f77d-b953-8fa4-b762",
    "8a40-4aaa-c780-9046",
    "9cc3-6d83-4dd3-9b64",
)

_ids = iter(range(1, 10**6))


def new_id() -> str:
    n = next(_ids)
    return f"{n:04x}-r0s-{n * 7 % 65536:04x}"


def key(name: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", name.lower().replace("'", ""), re.ASCII))


# -- what the 40k lists mean ---------------------------------------------------------------------


def stats(m: int, t: int, sv: int, w: int, ld: int, oc: int) -> dict[str, int]:
    return {"M": m, "T": t, "Sv": sv, "W": w, "Ld": ld, "OC": oc}


def gun(name: str, rng: int, a: str, bs: str, s: int, ap: int, d: str, words: str = "") -> dict[str, Any]:
    return {"name": name, "range": rng, "A": a, "skill": bs, "S": s, "AP": ap, "D": d, "words": words}


def blade(name: str, a: str, ws: str, s: int, ap: int, d: str, words: str = "") -> dict[str, Any]:
    return {"name": name, "range": None, "A": a, "skill": ws, "S": s, "AP": ap, "D": d, "words": words}


def weapon(*profiles: dict[str, Any], each: int = 1) -> dict[str, Any]:
    """One weapon a model carries ``each`` of (two profiles: one at a time)."""
    return {"profiles": profiles, "each": each}


def kind(
    name: str, number: int, st: dict[str, int], weapons: list[dict[str, Any]], invuln: int | None = None
) -> dict[str, Any]:
    return {"name": name, "number": number, "stats": st, "weapons": weapons, "invuln": invuln}


CCW = blade("Close combat weapon", "3", "3+", 4, 0, "1")
PLASMA = weapon(
    gun("➤ Plasma burner - standard", 24, "1", "3+", 7, -2, "1"),
    gun("➤ Plasma burner - supercharge", 24, "1", "3+", 8, -3, "2", "Hazardous"),
)
RUST_RIFLE = gun("Rust rifle", 24, "2", "3+", 4, -1, "1", "Rapid Fire 1")


def rustguard(n: int, points: int) -> dict[str, Any]:
    return {
        "name": "Rustguard Squad",
        "points": points,
        "keywords": ["Infantry", "Battleline", "Grenades"],
        "models": [
            kind(
                "Rustguard Sergeant",
                1,
                stats(6, 4, 3, 3, 6, 2),
                [
                    PLASMA,
                    weapon(blade("Power claw", "3", "3+", 8, -2, "2")),
                    weapon(gun("Bolt pistol", 12, "1", "3+", 4, 0, "1", "Pistol")),
                ],
            ),
            kind("Rustguard", n - 1, stats(6, 4, 3, 2, 6, 2), [weapon(RUST_RIFLE), weapon(CCW)]),
        ],
    }


RUST_LEGION: dict[str, Any] = {
    "file": "rust-legion",
    "name": "Rust Legion strike force",
    "catalogue": "Rust Legion (made-up)",
    "faction": "Rust Legion",
    "units": [
        {
            "name": "Rust Lord",
            "single": True,
            "points": 80,
            "keywords": ["Character", "Infantry"],
            "leads": ["Rustguard Squad"],
            "fnp": 5,
            "models": [
                kind(
                    "Rust Lord",
                    1,
                    stats(6, 5, 3, 5, 6, 1),
                    [
                        weapon(gun("Corrosion pistol", 12, "1", "2+", 5, -1, "2", "Pistol")),
                        weapon(blade("Rust claw", "5", "2+", 6, -2, "2", "Lethal Hits")),
                    ],
                    invuln=4,
                )
            ],
        },
        rustguard(5, 95),
        rustguard(10, 190),
        {
            "name": "Scrap Walker",
            "single": True,
            "points": 140,
            "keywords": ["Vehicle", "Walker"],
            "core": ["Deadly Demise D3"],
            "models": [
                kind(
                    "Scrap Walker",
                    1,
                    stats(8, 9, 3, 10, 7, 3),
                    [
                        weapon(gun("Twin scrap cannon", 36, "D6", "3+", 9, -2, "3", "Blast, Twin-linked")),
                        weapon(blade("Walker fists", "4", "3+", 10, -2, "3")),
                    ],
                    invuln=5,
                )
            ],
        },
        {
            "name": "Grinder Bikes",
            "points": 120,
            "keywords": ["Mounted"],
            "models": [
                kind(
                    "Grinder Biker",
                    3,
                    stats(12, 5, 3, 3, 6, 2),
                    [
                        weapon(gun("Melta lance", 12, "1", "3+", 9, -4, "D6", "Melta 2, Assault")),
                        weapon(blade("Grinder chains", "3", "3+", 5, -1, "1", "Lance")),
                    ],
                )
            ],
        },
        {
            "name": "Gun Team",
            "points": 75,
            "keywords": ["Infantry"],
            "models": [
                kind(
                    "Gunner",
                    3,
                    stats(5, 4, 4, 2, 7, 1),
                    [
                        weapon(gun("Siege las", 48, "1", "4+", 12, -3, "D6+1", "Heavy, Ignores Cover")),
                        weapon(CCW),
                    ],
                )
            ],
        },
        {
            "name": "Blight Mortar",
            "single": True,
            "points": 90,
            "keywords": ["Vehicle"],
            "models": [
                kind(
                    "Blight Mortar",
                    1,
                    stats(5, 8, 3, 8, 7, 2),
                    [
                        weapon(gun("Blight shell", 48, "D6+3", "4+", 5, 0, "1", "Blast, Indirect Fire")),
                        weapon(blade("Armoured hull", "3", "4+", 6, 0, "1")),
                    ],
                )
            ],
        },
        {
            "name": "Flame Tenders",
            "points": 50,
            "keywords": ["Infantry"],
            "models": [
                kind(
                    "Flame Tender",
                    5,
                    stats(6, 3, 5, 1, 7, 1),
                    [
                        weapon(gun("Scorch hose", 12, "D6", "N/A", 4, 0, "1", "Torrent, Ignores Cover")),
                        weapon(CCW),
                    ],
                )
            ],
        },
        {
            "name": "Hunter Drones",
            "points": 70,
            "keywords": ["Fly"],
            "core": ["Stealth"],
            "models": [
                kind(
                    "Hunter Drone",
                    4,
                    stats(10, 4, 4, 2, 7, 1),
                    [
                        weapon(
                            gun(
                                "Seeker needle",
                                18,
                                "2",
                                "3+",
                                5,
                                -1,
                                "2",
                                "Precision, Sustained Hits D3, Anti-Vehicle 4+, Devastating Wounds",
                            )
                        ),
                        weapon(blade("Drone ram", "1", "4+", 4, 0, "1")),
                    ],
                )
            ],
        },
        {
            "name": "Rust Champion",
            "single": True,
            "points": 65,
            "keywords": ["Character", "Infantry"],
            "models": [
                kind(
                    "Rust Champion",
                    1,
                    stats(6, 5, 3, 5, 6, 1),
                    [
                        weapon(blade("Rust glaive", "5", "2+", 6, -2, "2", "Corroding, Twin-linked")),
                        weapon(blade("Spiked gauntlet", "2", "3+", 5, -1, "1", "Extra Attacks")),
                        weapon(gun("Bolt pistol", 12, "1", "2+", 4, 0, "1", "Pistol")),
                    ],
                    invuln=4,
                )
            ],
        },
    ],
}


def bog_wardens(n: int, points: int) -> dict[str, Any]:
    slug_gun = gun("Slug thrower", 18, "1", "4+", 4, 0, "1", "Assault")
    return {
        "name": "Bog Wardens",
        "points": points,
        "keywords": ["Infantry", "Battleline"],
        "fnp": 6,
        "models": [
            kind(
                "Warden Champion",
                1,
                stats(5, 5, 4, 2, 7, 2),
                [weapon(slug_gun), weapon(blade("Hooked blade", "4", "3+", 5, -1, "1"))],
            ),
            kind(
                "Bog Warden",
                n - 1,
                stats(5, 5, 4, 1, 7, 2),
                [weapon(slug_gun), weapon(blade("Rusty knife", "2", "4+", 4, 0, "1"))],
            ),
        ],
    }


BOG_HORDE: dict[str, Any] = {
    "file": "bog-horde",
    "name": "Bog Horde warband",
    "catalogue": "Bog Horde (made-up)",
    "faction": "Bog Horde",
    "units": [
        {
            "name": "Bog Shaman",
            "single": True,
            "points": 60,
            "keywords": ["Character", "Psyker", "Infantry"],
            "leads": ["Bog Wardens"],
            "models": [
                kind(
                    "Bog Shaman",
                    1,
                    stats(6, 4, 5, 4, 6, 1),
                    [
                        weapon(gun("Swamp bolt", 18, "D3", "3+", 6, -1, "2", "Psychic, Blast")),
                        weapon(blade("Gnarled staff", "3", "3+", 5, -1, "D3")),
                    ],
                    invuln=5,
                )
            ],
        },
        bog_wardens(10, 100),
        bog_wardens(20, 200),
        {
            "name": "Mire Beast",
            "single": True,
            "points": 180,
            "keywords": ["Monster"],
            "models": [
                kind(
                    "Mire Beast",
                    1,
                    stats(8, 10, 4, 14, 7, 4),
                    [
                        weapon(gun("Bile jet", 12, "D6", "N/A", 6, -1, "1", "Torrent")),
                        weapon(
                            blade(
                                "Crushing maw", "6", "3+", 10, -2, "3", "Anti-Infantry 4+, Sustained Hits 1"
                            )
                        ),
                    ],
                    invuln=5,
                )
            ],
        },
        {
            "name": "Swamp Skimmers",
            "points": 105,
            "keywords": ["Vehicle", "Fly"],
            "models": [
                kind(
                    "Swamp Skimmer",
                    3,
                    stats(12, 6, 4, 5, 7, 2),
                    [
                        weapon(gun("Harpoon gun", 24, "2", "4+", 7, -1, "2", "Heavy"), each=2),
                        weapon(blade("Hull blades", "2", "4+", 5, 0, "1")),
                    ],
                )
            ],
        },
        {
            "name": "Leech Swarms",
            "points": 40,
            "keywords": ["Swarm"],
            "models": [
                kind(
                    "Leech Swarm",
                    6,
                    stats(5, 2, 6, 3, 8, 0),
                    [weapon(blade("Leech bites", "4", "5+", 2, 0, "1", "Sustained Hits 1, Lethal Hits"))],
                ),
            ],
        },
        {
            "name": "Toad Riders",
            "points": 90,
            "keywords": ["Mounted"],
            "models": [
                kind(
                    "Toad Rider",
                    5,
                    stats(10, 5, 4, 3, 7, 2),
                    [
                        weapon(gun("Spit pistol", 12, "1", "4+", 4, 0, "1", "Pistol")),
                        weapon(blade("Toad lance", "3", "3+", 6, -1, "2", "Lance")),
                    ],
                )
            ],
        },
        {
            "name": "Fume Cannon",
            "single": True,
            "points": 70,
            "keywords": ["Vehicle"],
            "models": [
                kind(
                    "Fume Cannon",
                    1,
                    stats(4, 7, 4, 7, 8, 1),
                    [
                        weapon(
                            gun(
                                "Fume shell",
                                36,
                                "2D6",
                                "4+",
                                4,
                                0,
                                "1",
                                "Blast, Indirect Fire, Ignores Cover",
                            )
                        ),
                        weapon(blade("Crew tools", "2", "5+", 3, 0, "1")),
                    ],
                )
            ],
        },
        {
            "name": "Bog Hunters",
            "points": 80,
            "keywords": ["Infantry"],
            "models": [
                kind(
                    "Bog Hunter",
                    5,
                    stats(6, 4, 5, 1, 7, 1),
                    [weapon(gun("Long rifle", 36, "1", "3+", 5, -2, "2", "Heavy, Precision")), weapon(CCW)],
                )
            ],
        },
        {
            "name": "Marsh Witch",
            "single": True,
            "points": 70,
            "keywords": ["Character", "Psyker", "Infantry"],
            "models": [
                kind(
                    "Marsh Witch",
                    1,
                    stats(6, 3, 6, 4, 6, 1),
                    [
                        weapon(gun("Hex", 18, "1", "2+", 10, -3, "D3+3", "Psychic, Devastating Wounds")),
                        weapon(blade("Witch knife", "2", "3+", 3, 0, "1")),
                    ],
                    invuln=4,
                )
            ],
        },
    ],
}

# -- writing a roster tree ------------------------------------------------------------------------


def node(tag: str, attrs: dict[str, Any], **children: list[dict[str, Any]]) -> dict[str, Any]:
    """An element of the roster tree: its tag, attributes and child groups, in schema order."""
    return {"tag": tag, "attrs": attrs, "children": children}


def characteristic_list(pairs: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    return [node("characteristic", {"name": n, "typeId": new_id(), "$text": v}) for n, v in pairs]


def profile(name: str, type_name: str, type_id: str, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    return node(
        "profile",
        {"id": new_id(), "name": name, "hidden": False, "typeId": type_id, "typeName": type_name},
        characteristics=characteristic_list(pairs),
    )


def ability(name: str, text: str) -> dict[str, Any]:
    return profile(name, "Abilities", ABILITY_TYPE, [("Description", text)])


def rule(name: str, text: str) -> dict[str, Any]:
    return node("rule", {"id": new_id(), "name": name, "hidden": False, "description": text})


def category(name: str, primary: bool = False) -> dict[str, Any]:
    return node("category", {"id": new_id(), "name": name, "entryId": new_id(), "primary": primary})


def cost(value: float | int) -> dict[str, Any]:
    return node("cost", {"name": "pts", "typeId": "51b2-306e-1021-d207", "value": value})


def selection(name: str, kind_: str, number: int, **children: list[dict[str, Any]]) -> dict[str, Any]:
    ordered = {
        k: children[k] for k in ("rules", "profiles", "selections", "costs", "categories") if children.get(k)
    }
    return node(
        "selection",
        {"id": new_id(), "name": name, "entryId": new_id(), "number": number, "type": kind_},
        **ordered,
    )


def stat_text(v: int, plus: bool = False, inches: bool = False) -> str | int:
    return f"{v}+" if plus else (f'{v}"' if inches else v)


def unit_profile(name: str, st: dict[str, int]) -> dict[str, Any]:
    pairs = [
        ("M", stat_text(st["M"], inches=True)),
        ("T", st["T"]),
        ("SV", stat_text(st["Sv"], plus=True)),
        ("W", st["W"]),
        ("LD", stat_text(st["Ld"], plus=True)),
        ("OC", st["OC"]),
    ]
    return profile(name, "Unit", UNIT_TYPE, pairs)


def weapon_profile(p: dict[str, Any]) -> dict[str, Any]:
    ranged = p["range"] is not None
    pairs = [
        ("Range", f'{p["range"]}"' if ranged else "Melee"),
        ("A", int(p["A"]) if p["A"].isdigit() else p["A"]),
        ("BS" if ranged else "WS", p["skill"]),
        ("S", p["S"]),
        ("AP", p["AP"]),
        ("D", int(p["D"]) if p["D"].isdigit() else p["D"]),
        ("Keywords", p["words"] or "-"),
    ]
    return profile(
        p["name"],
        "Ranged Weapons" if ranged else "Melee Weapons",
        RANGED_TYPE if ranged else MELEE_TYPE,
        pairs,
    )


def weapon_name(w: dict[str, Any]) -> str:
    first = w["profiles"][0]["name"]
    return re.sub(r"^➤\s*", "", first).split(" - ")[0]


def unit_tree(u: dict[str, Any], faction: str) -> dict[str, Any]:
    """A 40k unit as the army builders write it: the unit (or, for a single model, the model) with
    its categories, abilities and points; inside, each kind of model with its Unit profile and its
    weapons as upgrades holding the weapon profiles."""
    abilities = []
    rules = []
    if u.get("leads"):
        listed = " ".join(f"■ {name}" for name in u["leads"])
        abilities.append(ability("Leader", f"This model can be attached to the following unit: {listed}"))
        rules.append(rule("Leader", "Core ability (its text is in the core rules)."))
    if u.get("fnp"):
        rules.append(rule(f"Feel No Pain {u['fnp']}+", "Core ability (its text is in the core rules)."))
    for word in u.get("core", ()):
        rules.append(rule(word, "Core ability (its text is in the core rules)."))
    cats = [category(k, primary=(i == 0)) for i, k in enumerate(u["keywords"])] + [
        category(f"Faction: {faction}")
    ]

    def model_tree(m: dict[str, Any], own_profile: bool) -> dict[str, Any]:
        gear = [
            selection(
                weapon_name(w),
                "upgrade",
                w["each"] * m["number"],
                profiles=[weapon_profile(p) for p in w["profiles"]],
            )
            for w in m["weapons"]
        ]
        profiles = [unit_profile(m["name"], m["stats"])] if own_profile else []
        if m["invuln"]:
            profiles.append(ability("Invulnerable Save", f"{m['invuln']}+"))
        return selection(m["name"], "model", m["number"], profiles=profiles, selections=gear)

    if u.get("single"):
        (m,) = u["models"]
        tree = model_tree(m, True)
        tree["children"] = {
            k: v
            for k, v in {
                "rules": rules,
                "profiles": [*tree["children"].get("profiles", []), *abilities],
                "selections": tree["children"].get("selections", []),
                "costs": [cost(u["points"])],
                "categories": cats,
            }.items()
            if v
        }
        return tree
    models = [model_tree(m, True) for m in u["models"]]
    return selection(
        u["name"],
        "unit",
        1,
        rules=rules,
        profiles=abilities,
        selections=models,
        costs=[cost(u["points"])],
        categories=cats,
    )


def roster_tree(
    name: str, game: tuple[str, str], catalogue: str, units: list[dict[str, Any]], points: int
) -> dict[str, Any]:
    force = node(
        "force",
        {
            "id": new_id(),
            "name": "Army Roster",
            "entryId": new_id(),
            "catalogueId": new_id(),
            "catalogueRevision": 1,
            "catalogueName": catalogue,
        },
        selections=units,
    )
    return node(
        "roster",
        {
            "id": new_id(),
            "name": name,
            "battleScribeVersion": "2.03",
            "gameSystemId": game[0],
            "gameSystemName": game[1],
            "gameSystemRevision": 1,
        },
        costs=[cost(points)],
        forces=[force],
    )


# -- the three formats ----------------------------------------------------------------------------

_TEXT_CHILDREN = {"description"}  # attributes of the JSON written as child elements in XML


def to_xml(tree: dict[str, Any], root: bool = True) -> ET.Element:
    attrs = {
        k: ("true" if v is True else "false" if v is False else str(v))
        for k, v in tree["attrs"].items()
        if k != "$text" and k not in _TEXT_CHILDREN
    }
    elem = ET.Element(f"{{{NS}}}{tree['tag']}", attrs)
    if "$text" in tree["attrs"]:
        elem.text = str(tree["attrs"]["$text"])
    for k in _TEXT_CHILDREN:
        if k in tree["attrs"]:
            ET.SubElement(elem, f"{{{NS}}}{k}").text = tree["attrs"][k]
    for group, items in tree["children"].items():
        holder = ET.SubElement(elem, f"{{{NS}}}{group}")
        for item in items:
            holder.append(to_xml(item, False))
    return elem


def to_json(tree: dict[str, Any]) -> dict[str, Any]:
    out = dict(tree["attrs"])
    for group, items in tree["children"].items():
        out[group] = [to_json(i) for i in items]
    return out


def write(name: str, tree: dict[str, Any]) -> None:
    ET.register_namespace("", NS)
    xml = ET.tostring(to_xml(tree), encoding="utf-8", xml_declaration=True)
    (HERE / f"{name}.ros").write_bytes(xml)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo(f"{name}.ros", date_time=(2024, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, xml)
    (HERE / f"{name}.rosz").write_bytes(buffer.getvalue())
    export = {"roster": {**to_json(tree), "generatedBy": "https://newrecruit.eu", "xmlns": NS}}
    (HERE / f"{name}.json").write_text(
        json.dumps(export, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


# -- the typed profiles (the oracle) --------------------------------------------------------------


def typed_faction(army: dict[str, Any], fkey: str) -> dict[str, Any]:
    """The same units as a faction file, from what they mean: keys as faction files give them
    (the second unit of a name gets ``-2``), one ``models`` entry per kind of model."""
    sheets: dict[str, Any] = {}
    words: set[str] = set()
    keys: list[str] = []
    for u in army["units"]:
        k, n = key(u["name"]), 1
        while k in keys:
            n += 1
            k = f"{key(u['name'])}-{n}"
        keys.append(k)
    for k, u in zip(keys, army["units"], strict=True):
        weapons: dict[str, Any] = {}
        exclusive = []
        kinds = []
        for m in u["models"]:
            carried = []
            for w in m["weapons"]:
                group = []
                for p in w["profiles"]:
                    wk = key(re.sub(r"^➤\s*", "", p["name"]))
                    entry: dict[str, Any] = {"name": re.sub(r"^➤\s*", "", p["name"]), "A": p["A"]}
                    if p["range"] is not None:
                        entry.update(range=p["range"], BS=p["skill"])
                    else:
                        entry["WS"] = p["skill"]
                    entry.update(S=p["S"], AP=p["AP"], D=p["D"])
                    known = [
                        x.strip() for x in p["words"].split(",") if x.strip() and x.strip() != "Corroding"
                    ]
                    if known:
                        entry["abilities"] = [
                            "-".join(re.sub(r"([0-9])\+$", r"\1", x.lower()).split()) for x in known
                        ]
                    weapons[wk] = entry
                    group.append(wk)
                    carried += [wk] * w["each"]
                if len(group) > 1 and group not in exclusive:
                    exclusive.append(group)
            kinds.append(
                {
                    "key": key(m["name"]),
                    "name": m["name"],
                    "count": m["number"],
                    "most": m["number"],
                    "characteristics": m["stats"]
                    | {"Sv": f"{m['stats']['Sv']}+", "Ld": f"{m['stats']['Ld']}+"},
                    **({"invulnerable": f"{m['invuln']}+"} if m["invuln"] else {}),
                    "weapons": carried,
                }
            )
        main = max(kinds, key=lambda x: x["count"])
        core = [f"feel-no-pain-{u['fnp']}"] if u.get("fnp") else []
        core += [key(w) for w in u.get("core", ())]
        if u.get("leads"):
            core.append("leader")
        kws = [w.upper() for w in u["keywords"]]
        words |= set(kws) | {army["faction"].upper()}
        sheet: dict[str, Any] = {
            "name": u["name"],
            "section": u["name"],
            "characteristics": main["characteristics"],
            "characteristics_source": "typed by hand from the list's meaning (tests/rosters/make_rosters.py)",
            **({"invulnerable": main["invulnerable"]} if "invulnerable" in main else {}),
            "weapons": weapons,
            **({"exclusive": exclusive} if exclusive else {}),
            "core_abilities": core,
            "abilities": [],
            "keywords": kws,
            "faction_keywords": [army["faction"].upper()],
            "composition": [{"models": k_["count"], "name": k_["name"]} for k_ in kinds],
            "points": [{"models": sum(k_["count"] for k_ in kinds), "points": u["points"]}],
            "models": kinds,
        }
        if u.get("leads"):  # every unit of the list with a name it may lead
            sheet["leads"] = [
                kk for kk, uu in zip(keys, army["units"], strict=True) if uu["name"] in u["leads"]
            ]
        sheets[k] = sheet
    return {
        "faction": {
            "key": fkey,
            "name": army["name"],
            "keyword": army["faction"].upper(),
            "contagion_range": [0],
            "contagion_source": "not in a roster",
        },
        "keywords": sorted(words),
        "datasheets": sheets,
        "abilities": {},
        "stratagems": {},
    }


# -- the lists ------------------------------------------------------------------------------------


def wh40k_list(army: dict[str, Any]) -> dict[str, Any]:
    units = [unit_tree(u, army["faction"]) for u in army["units"]]
    total = sum(u["points"] for u in army["units"])
    return roster_tree(army["name"], WH40K, army["catalogue"], units, total)


def ork_patrol() -> dict[str, Any]:
    """A small list of a game system no rule system here reads (for the core's tests)."""
    boyz = selection(
        "Boyz Mob",
        "unit",
        1,
        selections=[selection("Boy", "model", 9), selection("Boss Nob", "model", 1)],
        costs=[cost(85)],
        categories=[category("Infantry", True), category("Faction: Orks")],
    )
    boss = selection(
        "Warboss",
        "model",
        1,
        profiles=[ability("Waaagh!", "Shouts a lot.")],
        costs=[cost(65.0)],
        categories=[category("Character", True)],
    )
    battle_size = selection("Battle Size", "upgrade", 1)
    return roster_tree(
        "Ork patrol", ("demo-skirmish", "Demo Skirmish"), "Orks (made-up)", [battle_size, boyz, boss], 150
    )


def epic_company() -> dict[str, Any]:
    """An Epic-scale list (formations of units and War Engines), for the Army Morale tracker."""

    def unit(name: str, n: int, kind_: str = "Infantry") -> dict[str, Any]:
        pairs = [("Type", kind_), ("Speed", "15cm"), ("Armour", "4+"), ("CC", "4+"), ("FF", "4+")]
        return selection(name, "model", n, profiles=[profile(name, "Unit", "f68a073b", pairs)])

    def engine(name: str, n: int, dc: int, points: int | None = None) -> dict[str, Any]:
        pairs = [
            ("Type", "War Engine"),
            ("Speed", "15cm"),
            ("Armour", "4+"),
            ("CC", "6+"),
            ("FF", "5+"),
            ("DC", dc),
        ]
        own = {"costs": [cost(points)]} if points is not None else {}
        return selection(name, "model", n, profiles=[profile(name, "War Engine", "87ab-2658", pairs)], **own)

    def formation(name: str, points: int, *inside: dict[str, Any]) -> dict[str, Any]:
        return selection(
            name,
            "unit",
            1,
            selections=list(inside),
            costs=[cost(points)],
            categories=[category("Formations", True)],
        )

    units = [
        formation("Infantry Company", 225, unit("Command", 1), unit("Infantry", 12), unit("Fire Support", 4)),
        formation("Tank Squadron", 250, unit("Battle Tank", 10, "Armoured Vehicle")),
        formation("Super-heavy Tank Company", 600, engine("Baneblade", 3, 3)),
        formation("Scout Titan", 275, engine("Warhound Titan", 1, 3)),
        formation(
            "Recon Platoon", 150, unit("Sentinel", 6, "Light Vehicle"), engine("Stormblade", 1, 3, 200)
        ),
    ]
    return roster_tree("Steel company", EPIC, "Imperial Guard (made-up)", units, 1700)


SHIPPED = Path(__file__).parents[2] / "rulesbook" / "systems"
"""The examples shipped with rulesbook (the docs' lists): copies of three of the files here."""


def main() -> None:
    HERE.mkdir(exist_ok=True)
    write("rust-legion", wh40k_list(RUST_LEGION))
    write("bog-horde", wh40k_list(BOG_HORDE))
    write("ork-patrol", ork_patrol())
    write("steel-company", epic_company())
    for army, fkey, name in (
        (RUST_LEGION, "rust-legion", "rust-legion"),
        (BOG_HORDE, "bog-horde", "bog-horde"),
    ):
        text = (
            "# The units of tests/rosters/data/NAME.ros typed as a faction file (by tests/rosters/make_rosters.py,\n"
            "# from what each unit means, not through a roster reader): the oracle of the roster tests.\n"
        ).replace("NAME", name)
        data = dump_yaml(typed_faction(army, fkey))
        (HERE / f"{name}.typed.yaml").write_text(text + data, encoding="utf-8")
    for name, folder in (
        ("rust-legion.rosz", "wh40k/examples"),
        ("bog-horde.json", "wh40k/examples"),
        ("steel-company.rosz", "army_morale/data"),
    ):
        (SHIPPED / folder / name).write_bytes((HERE / name).read_bytes())


# -- the hostile rosters (tests/hostile/rosters) --------------------------------------------------

HOSTILE = Path(__file__).parents[1] / "hostile" / "rosters"
HEAD = f'<roster xmlns="{NS}" id="r" name="List" gameSystemId="gs">'


def xml_roster(selection_xml: str = "", head: str = HEAD) -> bytes:
    force = (
        '<forces><force id="f" name="F" entryId="e" catalogueId="c"><selections>'
        f"{selection_xml}</selections></force></forces>"
    )
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{head}{force}</roster>\n'.encode()


def zipped(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as z:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = method
            z.writestr(info, data)
    return buffer.getvalue()


def encrypted_flag(data: bytes) -> bytes:
    """The archive with its member marked encrypted (general purpose flag bit 0), in the local
    header and the central directory."""
    out = bytearray(data)
    for sig, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = out.find(sig)
        out[at + offset] |= 0x1
    return bytes(out)


def lying_size(data: bytes) -> bytes:
    """The archive with its member's uncompressed size written as 100 bytes (it unpacks to far more)."""
    out = bytearray(data)
    for sig, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = out.find(sig)
        out[at + offset : at + offset + 4] = (100).to_bytes(4, "little")
    return bytes(out)


def hostile() -> None:
    HOSTILE.mkdir(parents=True, exist_ok=True)
    for old in HOSTILE.iterdir():
        old.unlink()
    one = '<selection id="s" name="Squad" entryId="e" number="1" type="unit"/>'
    laughs = (
        '<!DOCTYPE lolz [<!ENTITY lol "lol">'
        + "".join(
            f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10)
        )
        + "]>"
    )
    bomb = zipped({"army.ros": xml_roster(one) + b" " * 60_000_000})
    files: dict[str, bytes] = {
        "ok-minimal.ros": xml_roster(one),
        "ok-minimal.rosz": zipped({"army.ros": xml_roster(one)}),
        "ok-stored.rosz": zipped({"army.ros": xml_roster(one)}, zipfile.ZIP_STORED),
        "ok-minimal.json": json.dumps(
            {
                "roster": {
                    "name": "List",
                    "gameSystemId": "gs",
                    "forces": [{"name": "F", "selections": [{"name": "Squad", "type": "unit", "number": 1}]}],
                }
            }
        ).encode(),
        "ok-odd-names.ros": xml_roster(
            '<selection id="s" name="Squad &#x202e;evil&#x202c; \u0085 \U0001f600" entryId="e" number="1" type="unit"/>'
        ),
        "bad-billion-laughs.ros": (
            '<?xml version="1.0"?>'
            + laughs
            + f'<roster xmlns="{NS}" id="r" name="&lol9;" gameSystemId="gs"/>'
        ).encode(),
        "bad-external-entity.ros": (
            f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><roster xmlns="{NS}" id="r" name="&x;" gameSystemId="gs"/>'
        ).encode(),
        "bad-parameter-entity.ros": (
            b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]><roster/>'
        ),
        "bad-doctype.ros": f'<!DOCTYPE roster><roster xmlns="{NS}" id="r" name="L" gameSystemId="gs"/>'.encode(),
        "bad-not-xml.ros": b"this is not XML at all\n",
        "bad-unclosed.ros": xml_roster(one)[:-30],
        "bad-catalogue.ros": b'<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="c" name="C"/>',
        "bad-other-root.ros": b"<html><body>hello</body></html>",
        "bad-namespace.ros": b'<roster xmlns="http://example.com/other" id="r" name="L" gameSystemId="gs"/>',
        "bad-no-game-system.ros": f'<roster xmlns="{NS}" id="r" name="L"/>'.encode(),
        "bad-number.ros": xml_roster(one.replace('number="1"', 'number="-1"')),
        "bad-number-arabic-digits.ros": xml_roster(one.replace('number="1"', 'number="\u0663"')),
        "bad-number-huge.ros": xml_roster(one.replace('number="1"', 'number="' + "9" * 200 + '"')),
        "bad-type.ros": xml_roster(one.replace('type="unit"', 'type="squad"')),
        "bad-no-name.ros": xml_roster(one.replace('name="Squad" ', "")),
        "bad-cost.ros": xml_roster(
            one.replace("/>", '><costs><cost name="pts" typeId="p" value="1e999"/></costs></selection>')
        ),
        "bad-cost-nan.ros": xml_roster(
            one.replace("/>", '><costs><cost name="pts" typeId="p" value="NaN"/></costs></selection>')
        ),
        "bad-long-name.ros": xml_roster(one.replace('number="1"', 'number="' + "x" * 5000 + '"')),
        "bad-not-zip.rosz": b"PK\x03\x04 this is not a zip archive",
        "bad-zip-bomb.rosz": bomb,
        "bad-zip-lying-size.rosz": lying_size(bomb),
        "bad-zip-no-ros.rosz": zipped({"readme.txt": b"nothing here"}),
        "bad-zip-two-ros.rosz": zipped({"a.ros": xml_roster(one), "b.ros": xml_roster(one)}),
        "bad-zip-many-members.rosz": zipped({f"part{i}.txt": b"x" for i in range(200)}),
        "bad-zip-encrypted.rosz": encrypted_flag(zipped({"army.ros": xml_roster(one)})),
        "bad-zip-bzip2.rosz": zipped({"army.ros": xml_roster(one)}, zipfile.ZIP_BZIP2),
        "bad-zip-inside-zip.rosz": zipped({"army.ros": zipped({"inner.ros": xml_roster(one)})}),
        "bad-not-utf8.json": b'{"roster": {"name": "\xff\xfe"}}',
        "bad-no-roster.json": b'{"faction": {"key": "x"}}',
        "bad-roster-list.json": b'{"roster": [1, 2, 3]}',
        "bad-selections-object.json": json.dumps(
            {"roster": {"name": "L", "gameSystemId": "gs", "forces": [{"name": "F", "selections": "Squad"}]}}
        ).encode(),
        "bad-number-float.json": json.dumps(
            {
                "roster": {
                    "name": "L",
                    "gameSystemId": "gs",
                    "forces": [
                        {"name": "F", "selections": [{"name": "Squad", "type": "unit", "number": 1.5}]}
                    ],
                }
            }
        ).encode(),
        "bad-name-object.json": json.dumps({"roster": {"name": {"evil": 1}, "gameSystemId": "gs"}}).encode(),
        "bad-nan.json": b'{"roster": {"name": "L", "gameSystemId": "gs", "costs": [{"name": "pts", "value": NaN}]}}',
        "bad-deep.json": b'{"roster": ' + b'{"a": ' * 400 + b"1" + b"}" * 400 + b"}",
        "bad-text.txt": b"hello",
    }
    for name, data in files.items():
        (HOSTILE / name).write_bytes(data)


if __name__ == "__main__":
    main()
    hostile()
