"""An imported faction in ``wh40k.datasheet-attack`` (issue 28): a squad whose models differ — a
Champion with other weapons and a better profile — attacks and is attacked, exactly; a Leader
attached through the export's pairings; the imported stratagems, detachment rule and enhancement
applied from the effects recognised in their text; bad choices refused in one line.

The exact answers are derived here without the engine: sums of dice and binomials, and a small
attack-by-attack oracle of allocation (:func:`oracle`) written from the rules."""

from __future__ import annotations

import shutil
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest

from rulesbook.errors import InputError
from rulesbook.registry import registry

CALC = registry().calculator("wh40k.datasheet-attack")
ATTACK = registry().calculator("wh40k.attack")
HOST = "rulesbook/systems/wh40k/examples/mire-host.yaml"


def d6_sum(n: int) -> dict[int, Fraction]:
    dist = {0: Fraction(1)}
    for _ in range(n):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / 6
        dist = nxt
    return dist


def oracle(
    attacks: int, p_wound: Fraction, models: list[tuple[int, Fraction]], damage: int
) -> dict[tuple[int, ...], Fraction]:
    """Attack by attack: each wounds with ``p_wound``; a wound goes to the first model with
    wounds left (the allocation order), which fails its save with its own chance and loses
    ``damage`` wounds (excess lost). State: wounds left of each model."""
    start = tuple(w for w, _ in models)
    dist = {start: Fraction(1)}
    for _ in range(attacks):
        nxt: dict[tuple[int, ...], Fraction] = {}
        for state, p in dist.items():
            alive = next((i for i, w in enumerate(state) if w > 0), None)
            if alive is None:
                nxt[state] = nxt.get(state, Fraction(0)) + p
                continue
            hurt = p_wound * models[alive][1]
            left = list(state)
            left[alive] = max(0, left[alive] - damage)
            for s, q in ((tuple(left), hurt), (state, 1 - hurt)):
                nxt[s] = nxt.get(s, Fraction(0)) + p * q
        dist = nxt
    return dist


def models_destroyed(dist: dict[tuple[int, ...], Fraction], size: int) -> list[str]:
    out = [Fraction(0)] * (size + 1)
    for state, p in dist.items():
        out[sum(1 for w in state if w == 0)] += p
    return [str(p) for p in out]


@pytest.mark.covers("wh40k.attack.sequence", "wh40k.attack.torrent")
def test_a_squad_with_a_champions_other_weapons_attacks_exactly() -> None:
    """Ten Mire Wardens: the nine Wardens fire their sludge throwers (D6 attacks, Torrent, BS
    N/A), the Champion his rust pistol (1 attack, BS 3+), at ten T4 Sv 3+ W1 models. A thrower
    attack kills with 1/2 (wound) x 1/3 (unsaved); the pistol with 2/3 x 1/2 x 1/3 = 1/9."""
    r = CALC.run(
        faction=HOST,
        attacker="mire-wardens",
        attacker_models=10,
        weapons="sludge-thrower,rust-pistol",
        toughness=4,
        save=3,
        wounds=1,
        models=10,
    )
    kills: dict[int, Fraction] = {}
    for n, pn in d6_sum(9).items():
        for k in range(n + 1):
            pk = pn * comb(n, k) * Fraction(1, 6) ** k * Fraction(5, 6) ** (n - k)
            for extra, pe in ((1, Fraction(1, 9)), (0, Fraction(8, 9))):
                lost = min(10, k + extra)
                kills[lost] = kills.get(lost, Fraction(0)) + pk * pe
    assert list(r["wounds_lost_exact"]) == [str(kills.get(k, Fraction(0))) for k in range(11)]
    assert [row[0] for row in r.table("breakdown").rows[:2]] == ["Sludge thrower ×9", "Rust pistol"]
    # the smallest unit: four Wardens and the Champion
    small = CALC.run(
        faction=HOST,
        attacker="mire-wardens",
        weapons="sludge-thrower",
        toughness=4,
        save=3,
        wounds=1,
        models=30,
    )
    assert small["mean_wounds_lost_exact"] == str(Fraction(4 * 7, 2) * Fraction(1, 6))
    # N models of a weapon by hand: *N
    three = CALC.run(
        faction=HOST,
        attacker="mire-wardens",
        weapons="sludge-thrower*3",
        toughness=4,
        save=3,
        wounds=1,
        models=20,
    )
    assert three["mean_wounds_lost_exact"] == str(Fraction(3 * 7, 2) * Fraction(1, 6))


@pytest.mark.covers("wh40k.attack.allocation", "wh40k.interpretations.mixed-allocation")
def test_a_squad_whose_models_differ_is_attacked_exactly() -> None:
    """The Bog Lord's cleaver (5 attacks, WS 2+, S6 AP-2 D2) at five Mire Wardens: four Wardens
    (W2, Sv 4+: 6+ at AP-2, fails 5/6) and the Champion (W3, Sv 3+: 5+, fails 2/3), Wardens
    first. Their Mire Resilience takes 1 off each Damage (D2 -> 1). Each attack wounds with
    5/6 (hit) x 2/3 (S6 v T5: 3+) = 5/9."""
    r = CALC.run(
        faction=HOST, attacker="bog-lord", weapons="lords-cleaver", target="mire-wardens", target_faction=HOST
    )
    wardens = [(2, Fraction(5, 6))] * 4 + [(3, Fraction(2, 3))]
    expected = models_destroyed(oracle(5, Fraction(5, 9), wardens, 1), 5)
    assert list(r["models_destroyed_exact"]) == expected
    listed = CALC.run(
        faction=HOST,
        attacker="bog-lord",
        weapons="lords-cleaver",
        target="mire-wardens",
        target_faction=HOST,
        mixed_allocation="listed-order",
    )
    champion_first = [(3, Fraction(2, 3))] + [(2, Fraction(5, 6))] * 4
    assert list(listed["models_destroyed_exact"]) == models_destroyed(
        oracle(5, Fraction(5, 9), champion_first, 1), 5
    )
    assert listed["models_destroyed_exact"] != r["models_destroyed_exact"]
    assert any(
        "4 × Mire Wardens (W2, Sv 4+); 1 × Mire Warden Champion (W3, Sv 3+)" in x for x in r.explanation
    )


@pytest.mark.covers("wh40k.core.attached-units")
def test_a_leader_attached_through_the_exports_pairings() -> None:
    """Silence (sweep), 15 attacks WS 2+ S7 AP-1 D1 Lethal Hits, at five Mire Wardens led by the
    Bog Lord (W5, Sv 2+: 3+ at AP-1, fails 1/3): a wound is 4/6 x 2/3 + 1/6 (Lethal Hits) =
    11/18; Wardens fail 5+ saves 2/3, the Champion's 4+ 1/2; the Lord is reached last."""
    r = CALC.run(
        weapons="silence-sweep", target="mire-wardens", target_faction=HOST, target_leader="bog-lord"
    )
    unit = [(2, Fraction(2, 3))] * 4 + [(3, Fraction(1, 2))] + [(5, Fraction(1, 3))]
    assert list(r["models_destroyed_exact"]) == models_destroyed(oracle(15, Fraction(11, 18), unit, 1), 6)
    with pytest.raises(
        InputError, match=r"^target_leader: Rot Beast cannot lead Mire Wardens; it leads: none$"
    ):
        CALC.validate(
            {
                "weapons": "silence-sweep",
                "target": "mire-wardens",
                "target_faction": HOST,
                "target_leader": "rot-beast",
            }
        )
    with pytest.raises(InputError, match=r"^target_leader: a Leader is attached to a datasheet target"):
        CALC.validate({"weapons": "silence-sweep", "target_leader": "bog-lord"})


def melee(**values: Any) -> Any:
    return CALC.run(faction=HOST, attacker="mire-wardens", weapons="corroded-blade", **values)


BLADES = {
    "attacks": "15",
    "skill": "3",
    "strength": "5",
    "ap": "-1",
    "damage": "1",
    "abilities": "lethal-hits",
    "ranged": "false",
}
PROFILE = {"toughness": 4, "save": 3, "wounds": 2, "models": 5}


@pytest.mark.covers("wh40k.attack.wound-roll", "wh40k.core.rerolls")
def test_imported_stratagem_detachment_and_enhancement_apply_their_recognised_effects() -> None:
    """Five Wardens fight with corroded blades (15 attacks): Foul Vigour is +1 to wound in
    melee, the Mire Host Doctrine re-rolls Hit rolls of 1, the Rusted Crown gives Lethal Hits
    (the blades have it already; a pistol would gain it)."""
    same = lambda a, b: a["wounds_lost_exact"] == b["wounds_lost_exact"]  # noqa: E731
    assert same(melee(**PROFILE), ATTACK.run(**BLADES, **PROFILE))
    assert same(melee(stratagems="foul-vigour", **PROFILE), ATTACK.run(**BLADES, **PROFILE, wound_modifier=1))
    assert same(melee(detachment="mire-host", **PROFILE), ATTACK.run(**BLADES, **PROFILE, reroll_hits="ones"))
    pistols = CALC.run(
        faction=HOST, attacker="mire-wardens", weapons="rust-pistol*5", enhancement="rusted-crown", **PROFILE
    )
    crowned = {
        "attacks": "5",
        "skill": "3",
        "strength": "4",
        "ap": "0",
        "damage": "1",
        "abilities": "pistol,lethal-hits",
    }
    assert same(pistols, ATTACK.run(**crowned, **PROFILE))
    text_only = melee(stratagems="rusted-ground", **PROFILE)
    assert same(text_only, ATTACK.run(**BLADES, **PROFILE))
    row = next(r for r in text_only.table("effects_applied").rows if r[2] == "Rusted Ground")
    assert row[4] == "no" and "imported-text-only" in row[5]
    with pytest.raises(InputError, match=r"^stratagems: Rusted Ground is kept as text only"):
        melee(stratagems="rusted-ground", imported_text_only="refused", **PROFILE)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            {"faction": HOST, "attacker": "mortarion"},
            "attacker: Mire Host (made-up example) has no datasheet 'mortarion'",
        ),
        ({"attacker": "rot-beast"}, "attacker: Death Guard has no datasheet 'rot-beast'"),
        (
            {"faction": HOST, "attacker": "mire-wardens", "weapons": "sludge-thrower", "attacker_models": 12},
            "attacker_models: Mire Wardens has 5 to 10 models, got 12",
        ),
        (
            {"faction": HOST, "attacker": "mire-wardens", "weapons": "bolter"},
            "weapons: Mire Wardens has no weapon 'bolter'",
        ),
        (
            {
                "faction": HOST,
                "attacker": "sludge-crawler",
                "weapons": "sludge-mortar-burst,sludge-mortar-focused",
            },
            "weapons: one profile at a time",
        ),
        (
            {
                "faction": HOST,
                "attacker": "mire-wardens",
                "weapons": "corroded-blade",
                "stratagems": "ferric-blight",
            },
            "stratagems: Mire Host (made-up example) has no stratagem 'ferric-blight'",
        ),
        (
            {
                "faction": HOST,
                "attacker": "mire-wardens",
                "weapons": "corroded-blade",
                "detachment": "bog-court-x",
            },
            "detachment: Mire Host (made-up example) has no detachment 'bog-court-x'",
        ),
        ({"target": "mire-wardens"}, "target: Death Guard has no datasheet 'mire-wardens'"),
        (
            {"target": "mire-wardens", "target_faction": HOST, "target_models": 3},
            "target_models: Mire Wardens has 5 to 10 models, got 3",
        ),
    ],
)
def test_bad_choices_are_one_line(values: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError) as err:
        CALC.validate({"weapons": "rotwind", **values} if "weapons" not in values else values)
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


def test_who_fires_a_weapon_the_loadout_does_not_give() -> None:
    """A weapon no model carries by default, or a squad whose loadout says nothing, needs KEY*N."""
    from dataclasses import replace

    from rulesbook.systems.wh40k.faction.file import faction_at
    from rulesbook.systems.wh40k.faction.units import attack_weapons

    wardens = faction_at(HOST, "faction").datasheets["mire-wardens"]
    unarmed = replace(wardens, profiles=tuple(replace(p, weapons=()) for p in wardens.profiles))
    with pytest.raises(
        InputError,
        match=r"^weapons: the Mire Wardens datasheet does not say which models carry rust-pistol; give rust-pistol\*N",
    ):
        attack_weapons(unarmed, ("rust-pistol",), None, "weapons")
    assert [w.name for w in attack_weapons(unarmed, ("rust-pistol*2",), None, "weapons")] == [
        "Rust pistol ×2"
    ]
    champion_only = replace(
        wardens, profiles=(wardens.profiles[0], replace(wardens.profiles[1], weapons=("corroded-blade",)))
    )
    with pytest.raises(
        InputError, match=r"^weapons: sludge-thrower is not in the default loadout of Mire Wardens"
    ):
        attack_weapons(champion_only, ("sludge-thrower",), None, "weapons")


def test_a_bad_faction_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("faction: {key: Bad Key}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        CALC.validate({"faction": str(bad)})
    assert str(err.value).startswith("faction: bad.yaml") and "\n" not in str(err.value)
    with pytest.raises(InputError, match=r"^target_faction: expected the path of an existing"):
        CALC.validate({"target_faction": str(tmp_path / "none.yaml")})
    # an edited copy is read again (its time and size change)
    copy = tmp_path / "host.yaml"
    shutil.copy(Path(__file__).resolve().parents[2] / HOST, copy)
    first = CALC.run(faction=str(copy), attacker="rot-beast", weapons="bile-spray", **PROFILE)
    copy.write_text(copy.read_text(encoding="utf-8").replace("A: D6+1", "A: D6+2"), encoding="utf-8")
    again = CALC.run(faction=str(copy), attacker="rot-beast", weapons="bile-spray", **PROFILE)
    assert Fraction(again["mean_wounds_lost_exact"]) > Fraction(first["mean_wounds_lost_exact"])
