"""Warhammer 40,000 attack sequence: exact values against an independent seeded Monte Carlo,
named tests for the known failure modes of other tools, and properties."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.dice import DiceExpr, parse_dice
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack.engine import resolve
from rulesbook.systems.wh40k.attack.rolls import (
    Situation,
    battle_shock_test,
    deadly_demise_test,
    desperate_escape_test,
    failures,
    hazardous_test,
    hit_test,
    save_test,
    wound_target,
)
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities
from rulesbook.systems.wh40k.choices import CHOICES
from rulesbook.systems.wh40k.faction.mortarion import mortarion_weapons
from tests.wh40k.options import Setup, choose
from tests.wh40k.simulate import simulate

ATTACK = registry().calculator("wh40k.attack")


def weapon(
    attacks: str, skill: int, s: int, ap: int, d: str, abilities: str = "", ranged: bool = True
) -> Weapon:
    return Weapon("w", parse_dice(attacks), skill, s, ap, parse_dice(d), parse_abilities(abilities), ranged)


DEFAULT = choose()


def assert_matches_monte_carlo(
    weapons: list[Weapon], target: Target, options: Setup = DEFAULT, trials: int = 6000, seed: int = 40
) -> None:
    """Every P(wounds lost = k) and the mean within 4.5 standard errors of the seeded estimate."""
    exact = resolve(weapons, target, *options).wounds_lost
    sampled = simulate(weapons, target, options, trials, seed)
    for k in set(exact.outcomes()) | set(sampled):
        p = float(exact.p(k))
        tol = 4.5 * math.sqrt(max(p * (1 - p), 1 / trials) / trials)
        assert abs(float(sampled.get(k, 0)) - p) <= tol, (k, p, float(sampled.get(k, 0)))
    mc_mean = float(sum(k * p for k, p in sampled.items()))
    sd = math.sqrt(float(sum((k - exact.mean()) ** 2 * p for k, p in exact)))
    assert abs(mc_mean - float(exact.mean())) <= 4.5 * sd / math.sqrt(trials) + 1e-9


# -- exact against Monte Carlo -----------------------------------------------------------------


@pytest.mark.covers(
    "wh40k.attack.sequence",
    "wh40k.attack.sustained-hits",
    "wh40k.attack.devastating-wounds",
    "wh40k.attack.feel-no-pain",
    "wh40k.attack.allocation",
)
def test_forty_attack_case_matches_monte_carlo() -> None:
    w = weapon("40", 3, 5, -1, "1", "sustained-hits-1,devastating-wounds")
    assert_matches_monte_carlo([w], Target(toughness=4, save=3, wounds=2, models=20, fnp=5), trials=3000)


@pytest.mark.covers("wh40k.attack.sequence", "wh40k.mortarion.weapons", "wh40k.attack.blast")
def test_rotwind_then_lantern_matches_monte_carlo() -> None:
    ws = mortarion_weapons()
    target = Target(toughness=4, save=3, wounds=3, models=6, cover=True)
    assert_matches_monte_carlo([ws["rotwind"], ws["the-lantern"]], target)


@pytest.mark.covers("wh40k.attack.lethal-hits", "wh40k.attack.sustained-hits", "wh40k.attack.damage")
def test_sustained_d3_lethal_random_damage_matches_monte_carlo() -> None:
    w = weapon("D6", 4, 6, -2, "D3", "sustained-hits-d3,lethal-hits")
    target = Target(toughness=5, save=4, wounds=3, models=4, invuln=5, damage_reduction=1)
    assert_matches_monte_carlo([w], target)


@pytest.mark.covers("wh40k.attack.anti", "wh40k.attack.twin-linked", "wh40k.attack.invulnerable-save")
def test_anti_twin_linked_devastating_matches_monte_carlo() -> None:
    w = weapon("6", 3, 4, -1, "2", "anti-vehicle-4,twin-linked,devastating-wounds")
    target = Target(toughness=10, save=3, wounds=4, models=3, invuln=5, keywords=("vehicle",))
    assert_matches_monte_carlo([w], target)


@pytest.mark.covers(
    "wh40k.attack.heavy", "wh40k.attack.stealth", "wh40k.core.rerolls", "wh40k.attack.ignores-cover"
)
def test_modifiers_and_rerolls_match_monte_carlo() -> None:
    w = weapon("8", 4, 8, 0, "D6", "heavy,ignores-cover")
    target = Target(toughness=5, save=4, wounds=3, models=3, stealth=True, cover=True, fnp=6)
    options = choose(hit_modifier=1, reroll_hits="ones", reroll_wounds="failed")
    assert_matches_monte_carlo([w], target, options)


@pytest.mark.covers("wh40k.attack.fire-overwatch", "wh40k.attack.torrent", "wh40k.attack.benefit-of-cover")
def test_overwatch_with_torrent_matches_monte_carlo() -> None:
    target = Target(toughness=4, save=4, wounds=1, models=10, cover=True)
    opts = choose(overwatch=True)
    assert_matches_monte_carlo(
        [weapon("10", 3, 4, 0, "1"), weapon("D6", 3, 5, 0, "1", "torrent")], target, opts
    )


# -- named tests for the known failure modes of other tools ------------------------------------


@pytest.mark.covers("wh40k.attack.sustained-hits", "wh40k.attack.lethal-hits")
def test_sustained_and_lethal_hits_together() -> None:
    """A Critical Hit auto-wounds; its Sustained extra hit must roll to wound (not auto-wound)."""
    w = weapon("1", 6, 1, 0, "1", "sustained-hits-1,lethal-hits")  # only 6s hit; S1 vs T8 wounds on 6
    r = resolve([w], Target(toughness=8, save=7, wounds=1, models=2))
    # P(hit) = 1/6: 1 auto wound, the extra hit wounds on 6 (1/6).
    assert r.wounds_lost.pmf() == {0: Fraction(5, 6), 1: Fraction(1, 6) * Fraction(5, 6), 2: Fraction(1, 36)}
    # the classic bug (both hits auto-wound) would give 2 wounds with probability 1/6
    assert r.wounds_lost.p(2) != Fraction(1, 6)


@pytest.mark.covers("wh40k.attack.devastating-wounds", "wh40k.attack.mortal-wounds")
def test_devastating_wounds_do_not_spill() -> None:
    """D6 mortal wounds from one Critical Wound can destroy at most one 1-wound model."""
    w = weapon("3", 3, 4, 0, "D6", "torrent,devastating-wounds")
    r = resolve([w], Target(toughness=4, save=2, wounds=1, models=10), *choose(critical_wound=2))
    assert max(r.models_destroyed.outcomes()) == 3  # three attacks, one model each at most
    spilled = resolve([w], Target(4, 2, 1, 10), *choose(critical_wound=2, devastating_excess="spills"))
    assert spilled.mean_models_destroyed > r.mean_models_destroyed


@pytest.mark.covers("wh40k.attack.devastating-wounds", "wh40k.attack.sequence")
def test_devastating_wounds_wait_for_the_other_weapons() -> None:
    """Weapon 1's mortal wound comes after weapon 2's normal damage. On 2-wound models a
    3-damage attack destroys the first model (excess lost), then the mortal wound hits the
    second: 3 wounds lost. Resolved in weapon order, the mortal wound would go first and the
    3 damage would only finish the first model: 2 wounds lost."""
    dev = weapon("1", 2, 4, 0, "1", "torrent,devastating-wounds")
    big = weapon("1", 2, 4, 0, "3", "torrent")
    target = Target(toughness=4, save=7, wounds=2, models=2)
    opts = choose(critical_wound=2)  # every successful Wound roll (5/6) is a Critical Wound
    r = resolve([dev, big], target, *opts)
    both, only_big, only_dev = Fraction(25, 36), Fraction(5, 36), Fraction(5, 36)
    assert r.wounds_lost.pmf() == {0: Fraction(1, 36), 1: only_dev, 2: only_big, 3: both}
    assert_matches_monte_carlo([dev, big], target, opts)


@pytest.mark.covers("wh40k.attack.hit-roll", "wh40k.attack.wound-roll")
@given(st.integers(2, 6), st.integers(-3, 3), st.integers(-3, 3))
def test_modifier_caps(skill: int, m1: int, m2: int) -> None:
    """Any modifier total beyond ±1 acts as ±1."""
    w = weapon("1", skill, 4, 0, "1")
    t = Target(4, 7, 1)
    capped = max(-1, min(1, m1 + m2))
    assert (
        hit_test(w, t, *choose(hit_modifier=m1 + m2)).p_pass()
        == hit_test(w, t, *choose(hit_modifier=capped)).p_pass()
    )
    faces = sum(1 for f in range(1, 7) if f == 6 or (f != 1 and f + capped >= skill))
    assert hit_test(w, t, *choose(hit_modifier=m1 + m2)).p_pass() == Fraction(faces, 6)


@pytest.mark.covers("wh40k.attack.benefit-of-cover", "wh40k.attack.saving-throw")
@given(st.integers(2, 6), st.integers(-4, 0))
def test_cover_on_3_plus_against_ap0(save: int, ap: int) -> None:
    w = weapon("1", 3, 4, ap, "1")
    with_cover = save_test(w, Target(4, save, 1, cover=True))
    without = save_test(w, Target(4, save, 1))
    p_with = with_cover.p_pass() if with_cover else Fraction(0)
    p_without = without.p_pass() if without else Fraction(0)
    if save <= 3 and ap == 0:
        assert p_with == p_without
    else:
        # +1 to the roll: one more face saves, unless 2..6 already all save
        need = save - ap
        assert p_with == Fraction(max(0, min(5, 7 - (need - 1))), 6)
        assert p_with >= p_without


@pytest.mark.covers("wh40k.attack.saving-throw", "wh40k.attack.benefit-of-cover")
@pytest.mark.parametrize("save_cap", ["net", "improvements"])
def test_a_save_penalty_counts_once_beside_cover(save_cap: str) -> None:
    """Sv 4+, AP -1, cover (+1) and a -1 modifier: the +1 and the -1 cancel and AP leaves a
    5+ to save (1/3) under either reading of the +1 cap (the improvements reading once took
    the penalty off twice: 6+, 1/6)."""
    choices = CHOICES.replace(readings={"save_cap": save_cap})
    test = save_test(
        weapon("1", 3, 4, -1, "1"), Target(4, 4, 1, cover=True), Situation(save_modifier=-1), choices
    )
    assert test is not None and test.p_pass() == Fraction(1, 3)


@pytest.mark.covers("wh40k.attack.blast", "wh40k.attack.attacks")
def test_blast_with_a_random_attack_count() -> None:
    """The source's example: 2D6 against 11 models; a roll of 9 makes 11 attacks."""
    w = weapon("2D6", 3, 8, 0, "1", "blast,torrent")
    r = resolve([w], Target(toughness=4, save=7, wounds=1, models=30))
    assert r.steps[0].attacks == 7 + 6  # 2D6 + 6 against 30 models
    r11 = ATTACK.run(
        attacks="2D6",
        skill=3,
        strength=8,
        damage="1",
        abilities="blast,torrent",
        toughness=4,
        save=7,
        wounds=1,
        models=40,
    )
    # 2D6+8 attacks, each wounding on 2+: mean (7 + 8) x 5/6; never more than 20 attacks
    assert Fraction(r11["mean_wounds_lost_exact"]) == Fraction(15 * 5, 6)
    assert all(p == 0 for p in r11["wounds_lost"][21:])
    assert r11["wounds_lost"][20] > 0
    # not "average attacks then round": every count from 10 to 20 is possible
    assert resolve([w], Target(4, 7, 1, models=11)).steps[0].attacks == 9


@pytest.mark.covers("wh40k.attack.lethal-hits", "wh40k.attack.devastating-wounds")
def test_lethal_hit_is_not_a_critical_wound() -> None:
    w = weapon("6", 3, 4, -1, "1", "lethal-hits,devastating-wounds")
    t = Target(toughness=4, save=3, wounds=1, models=10)
    default = resolve([w], t).steps[0]
    bugged = resolve([w], t, *choose(lethal_devastating="critical-wound")).steps[0]
    # devastating wounds come only from Wound rolls of 6: (3/6 non-critical hits) x 1/6 per attack
    assert default.devastating == 6 * Fraction(3, 6) * Fraction(1, 6)
    assert bugged.devastating == default.devastating + 6 * Fraction(1, 6)


@pytest.mark.covers("wh40k.attack.sustained-hits")
def test_sustained_d3_once_per_weapon_keeps_the_mean_widens_the_spread() -> None:
    w = weapon("10", 4, 8, 0, "1", "sustained-hits-d3")
    t = Target(toughness=4, save=7, wounds=1, models=40)
    a = resolve([w], t).wounds_lost
    b = resolve([w], t, *choose(sustained_roll="once-per-weapon")).wounds_lost

    def var(d: object) -> Fraction:
        m = d.mean()  # type: ignore[attr-defined]
        return sum(((k - m) ** 2 * p for k, p in d), Fraction(0))  # type: ignore[attr-defined]

    assert a.mean() == b.mean() == 10 * (Fraction(2, 6) + Fraction(1, 6) * 3) * Fraction(5, 6)
    assert var(b) > var(a)


@pytest.mark.covers("wh40k.attack.twin-linked")
def test_twin_linked_fishing_trades_wounds_for_mortal_wounds() -> None:
    w = weapon("6", 3, 4, 0, "1", "torrent,twin-linked,devastating-wounds")
    t = Target(toughness=4, save=2, wounds=1, models=20)
    failed = resolve([w], t).steps[0]
    fish = resolve([w], t, *choose(twin_linked="non-critical")).steps[0]
    assert failed.wounds == 6 * Fraction(3, 4)
    assert fish.devastating == 6 * (Fraction(1, 6) + Fraction(5, 6) * Fraction(1, 6))
    assert fish.devastating > failed.devastating and fish.wounds < failed.wounds


@pytest.mark.covers("wh40k.attack.torrent", "wh40k.attack.twin-linked", "wh40k.attack.anti")
def test_source_only_drops_the_published_abilities() -> None:
    w = weapon("1", 4, 4, 0, "1", "torrent,twin-linked,anti-infantry-2")
    t = Target(toughness=4, save=7, wounds=1)
    # auto hit; Critical Wound on 2+, failures re-rolled: 5/6 + 1/6 x 5/6
    assert resolve([w], t).mean_wounds_lost == Fraction(35, 36)
    assert resolve([w], t, *choose(published_abilities="source-only")).mean_wounds_lost == Fraction(1, 4)


@pytest.mark.covers("wh40k.attack.wound-roll")
@given(st.integers(1, 30), st.integers(1, 20))
def test_wound_table_against_its_definition(s: int, t: int) -> None:
    need = wound_target(s, t)
    assert 2 <= need <= 6
    assert (need == 2) == (s >= 2 * t)
    assert (need == 4) == (s == t)
    assert (need == 6) == (2 * s <= t)
    assert wound_target(s, t, CHOICES.replace(readings={"wound_table": "flat-4"}).readings) == 4


@pytest.mark.covers("wh40k.mortarion.damaged", "wh40k.mortarion.weapons")
def test_damaged_mortarion_and_data_file() -> None:
    ws = mortarion_weapons()
    assert set(ws) == {"rotwind", "the-lantern", "silence-strike", "silence-sweep"}
    lantern = ws["the-lantern"]
    assert (str(lantern.attacks), lantern.strength, lantern.ap, str(lantern.damage)) == ("1", 9, -3, "3")
    assert str(lantern.abilities.sustained) == "D3"
    calc = registry().calculator("wh40k.mortarion")
    fresh = calc.run(weapons="silence-sweep", toughness=4, save=3, wounds=1, models=20)
    hurt = calc.run(weapons="silence-sweep", damaged=True, toughness=4, save=3, wounds=1, models=20)
    # his own Lord of the Death Guard disregards Damaged's −1 (lord-own-modifiers, default) ...
    assert hurt["mean_wounds_lost_exact"] == fresh["mean_wounds_lost_exact"]
    # ... and when the aura does not reach him, the −1 costs him wounds dealt
    apart = {"lord_of_the_death_guard": "applies"}
    hurt = calc.run(weapons="silence-sweep", damaged=True, toughness=4, save=3, wounds=1, models=20, **apart)
    assert hurt["mean_wounds_lost"] < fresh["mean_wounds_lost"]


# -- properties ---------------------------------------------------------------------------------

profiles = st.fixed_dictionaries(
    {
        "attacks": st.sampled_from(["1", "3", "D3", "D6", "D6+1", "2D6"]),
        "skill": st.integers(2, 6),
        "strength": st.integers(1, 12),
        "ap": st.integers(-4, 0),
        "damage": st.sampled_from(["1", "2", "D3", "D6"]),
        "abilities": st.sampled_from(
            [
                "",
                "lethal-hits",
                "sustained-hits-1",
                "sustained-hits-d3,lethal-hits",
                "devastating-wounds",
                "lethal-hits,sustained-hits-2,devastating-wounds",
                "torrent",
                "blast",
                "twin-linked",
            ]
        ),
        "toughness": st.integers(1, 12),
        "save": st.integers(2, 7),
        "wounds": st.integers(1, 4),
        "models": st.integers(1, 6),
        "fnp": st.sampled_from(["none", "5", "6"]),
        "cover": st.booleans(),
    }
)


@pytest.mark.covers("wh40k.attack.sequence", "wh40k.attack.allocation")
@given(profiles)
def test_distributions_sum_to_one_and_agree(values: dict[str, object]) -> None:
    r = ATTACK.run(**{k: str(v) for k, v in values.items()})
    assert sum(Fraction(p) for p in r["wounds_lost_exact"]) == 1
    assert sum(Fraction(p) for p in r["models_destroyed_exact"]) == 1
    wounds, models = int(str(values["wounds"])), int(str(values["models"]))
    assert len(r["models_destroyed"]) == models + 1 and len(r["wounds_lost"]) == wounds * models + 1
    assert Fraction(r["p_unit_destroyed_exact"]) == Fraction(r["models_destroyed_exact"][-1])
    mean = sum(k * Fraction(p) for k, p in enumerate(r["wounds_lost_exact"]))
    assert Fraction(r["mean_wounds_lost_exact"]) == mean
    # the target never loses more than the damage the attacks inflict
    assert r["mean_wounds_lost"] <= r.table("breakdown").rows[0][-1] + 1e-12


@pytest.mark.covers("wh40k.attack.sequence")
@given(profiles, st.integers(1, 3))
def test_more_attacks_never_hurt(values: dict[str, object], extra: int) -> None:
    base = {k: str(v) for k, v in values.items()}
    expr = parse_dice(base["attacks"])
    more = {**base, "attacks": str(DiceExpr(expr.count, expr.sides, expr.modifier + extra))}
    assert ATTACK.run(**more)["mean_wounds_lost"] >= ATTACK.run(**base)["mean_wounds_lost"] - 1e-12


@pytest.mark.covers("wh40k.attack.saving-throw")
@given(profiles)
def test_better_save_never_hurts_the_defender(values: dict[str, object]) -> None:
    base = {k: str(v) for k, v in values.items()}
    if int(base["save"]) <= 2:
        return
    better = {**base, "save": str(int(base["save"]) - 1)}
    assert ATTACK.run(**better)["mean_wounds_lost"] <= ATTACK.run(**base)["mean_wounds_lost"] + 1e-12


@pytest.mark.covers("wh40k.attack.sequence")
@given(profiles, st.integers(0, 10_000))
def test_exact_equals_seeded_monte_carlo(values: dict[str, object], seed: int) -> None:
    v = {k: str(x) for k, x in values.items()}
    checked = ATTACK.validate(v)
    w = Weapon(
        "w",
        checked["attacks"],
        checked["skill"],
        checked["strength"],
        checked["ap"],
        checked["damage"],
        parse_abilities(checked["abilities"]),
    )
    t = Target(
        checked["toughness"],
        checked["save"],
        checked["wounds"],
        checked["models"],
        fnp=checked["fnp"],
        cover=checked["cover"],
    )
    assert_matches_monte_carlo([w], t, trials=1500, seed=seed)


@pytest.mark.covers("wh40k.core.battle-shock")
@given(st.integers(2, 11), st.integers(-3, 3))
def test_battle_shock_monotone_and_counted(ld: int, modifier: int) -> None:
    assert battle_shock_test(ld, modifier).p_pass() >= battle_shock_test(ld + 1, modifier).p_pass()
    count = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + modifier >= ld)
    assert battle_shock_test(ld, modifier).p_pass() == Fraction(count, 36)


# -- input errors and the CLI -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pairs", "needle"),
    [
        (
            ["attacks=2D", "skill=3", "strength=4", "damage=1", "toughness=4", "save=3", "wounds=1"],
            "attacks:",
        ),
        (
            [
                "attacks=3",
                "skill=3",
                "strength=4",
                "damage=1",
                "toughness=4",
                "save=3",
                "wounds=1",
                "abilities=blast,blast",
            ],
            "abilities: 'blast' given twice",
        ),
        (
            [
                "attacks=3",
                "skill=3",
                "strength=4",
                "damage=1",
                "toughness=4",
                "save=3",
                "wounds=1",
                "abilities=sustained-hits-7",
            ],
            "abilities: unknown word 'sustained-hits-7'",
        ),
        (["attacks=3", "skill=3", "strength=4", "damage=0", "toughness=4", "save=3", "wounds=1"], "damage:"),
        (
            ["attacks=3", "skill=3", "strength=4", "damage=1", "toughness=4", "save=3", "wounds=1", "fnp=1"],
            "fnp:",
        ),
        (
            [
                "attacks=3",
                "skill=3",
                "strength=4",
                "damage=1",
                "toughness=4",
                "save=3",
                "wounds=1",
                "ranged=false",
                "stealth=true",
            ],
            "stealth: only applies to ranged attacks",
        ),
    ],
)
def test_bad_input_names_the_field(pairs: list[str], needle: str) -> None:
    with pytest.raises(InputError) as info:
        ATTACK.parse_assignments(pairs)
    assert needle in str(info.value) and "\n" not in str(info.value)


@pytest.mark.covers("wh40k.attack.sequence")
def test_cli_json_contract_and_one_line_error() -> None:
    args = [
        "attacks=40",
        "skill=3",
        "strength=5",
        "ap=-1",
        "damage=1",
        "abilities=sustained-hits-1,devastating-wounds",
        "toughness=4",
        "save=3",
        "wounds=2",
        "models=20",
        "fnp=5",
    ]
    out = subprocess.run(
        [sys.executable, "-m", "rulesbook.cli", "calc", "wh40k.attack", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    res = data["result"]
    for key in (
        "mean_wounds_lost",
        "mean_models_destroyed",
        "p_unit_destroyed",
        "models_destroyed",
        "wounds_lost",
    ):
        assert key in res
    assert len(res["models_destroyed"]) == 21 and abs(sum(res["models_destroyed"]) - 1) < 1e-12
    bad_args = [a if not a.startswith("abilities=") else "abilities=lethal" for a in args]
    bad = subprocess.run(
        [sys.executable, "-m", "rulesbook.cli", "calc", "wh40k.attack", *bad_args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1 and "abilities: unknown word 'lethal'" in bad.stderr


@pytest.mark.covers("wh40k.core.desperate-escape", "wh40k.attack.hazardous", "wh40k.core.deadly-demise")
@given(st.integers(0, 20), st.sampled_from(["escape", "hazardous", "demise"]))
def test_single_d6_tests_are_binomial(n: int, which: str) -> None:
    test = {"escape": desperate_escape_test, "hazardous": hazardous_test, "demise": deadly_demise_test}[
        which
    ]()
    fail_faces = {"escape": 2, "hazardous": 1, "demise": 5}[which]  # faces that fail the test
    q = Fraction(fail_faces, 6)
    dist = failures(test, n)
    for k in range(n + 1):
        assert dist.p(k) == math.comb(n, k) * q**k * (1 - q) ** (n - k)


# -- accepted words that change nothing, overlapping Anti-X, the newer register entries ----------


@pytest.mark.covers("wh40k.attack.anti")
def test_inert_words_and_overlapping_anti_are_warned_about() -> None:
    base = {"attacks": "6", "skill": "3", "strength": "4", "damage": "1", "toughness": "4", "save": "7"}
    plain = ATTACK.run(**base, wounds=1, models=10)
    marked = ATTACK.run(**base, wounds=1, models=10, abilities="pistol,precision,hazardous,psychic")
    assert marked["mean_wounds_lost_exact"] == plain["mean_wounds_lost_exact"] == "2"  # 6 x 2/3 x 1/2
    assert len(marked.warnings) == 4 and all("changes no number" in w for w in marked.warnings)
    assert not plain.warnings
    anti = ATTACK.run(**base, wounds=1, models=10, abilities="anti-infantry-4,anti-infantry-2")
    # the better one counts: Critical Wound (so a wound) on 2+: 6 x 2/3 x 5/6
    assert anti["mean_wounds_lost_exact"] == "10/3"
    assert anti.warnings == (
        "anti-infantry-4, anti-infantry-2 all apply to this target; only the best, Critical Wound on 2+, counts",
    )
    vehicle = ATTACK.run(
        **base, wounds=1, models=10, abilities="anti-infantry-4,anti-infantry-2", target_keywords="vehicle"
    )
    assert vehicle["mean_wounds_lost_exact"] == "2" and not vehicle.warnings
    seq = (
        registry()
        .calculator("wh40k.sequence")
        .run(weapons="pistol: A=1 BS=3 S=4 D=1 pistol", toughness=4, save=7, wounds=1)
    )
    assert seq.warnings == (
        "pistol: pistol changes no number of this calculator (accepted so a profile can be typed as printed)",
    )


@pytest.mark.covers("wh40k.attack.torrent", "wh40k.attack.fire-overwatch", "wh40k.attack.invulnerable-save")
def test_register_switches_match_the_simulation() -> None:
    """The torrent-overwatch and invulnerable-modifiers alternatives, exact against Monte Carlo."""
    flamer = weapon("D6", 3, 5, -1, "1", "torrent")
    target = Target(toughness=4, save=4, wounds=1, models=10, invuln=5)
    for opts in (
        choose(overwatch=True, torrent_overwatch="sixes-only"),
        choose(save_modifier=-1),
        choose(save_modifier=-1, invuln_modifiers="armour-only"),
    ):
        assert_matches_monte_carlo([flamer, weapon("4", 3, 4, -3, "1")], target, opts, trials=3000)
