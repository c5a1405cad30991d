"""Battle-shock effects (issue 34, part 3): Leadership worsened or improved, modifiers to the
roll and a re-roll of a failed test, as effect kinds of the effects language and as inputs of
the calculators that roll the test; register entry battle-shock-modifiers.

The oracle counts every roll of two D6 (and of the two D6 of a re-roll) from the source's text
(2. Battle-shock: 2D6 at or above Leadership passes; Re-rolls: every die of the roll again, once).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.wh40k.effects.kinds import KINDS, recognise
from rulesbook.variants import run_with_variant

REG = registry()
SHOCK = REG.calculator("wh40k.battle-shock")
TWO_D6 = list(itertools.product(range(1, 7), repeat=2))


def p_pass(ld: int, modifier: int = 0, reroll: bool = False, cap: bool = False) -> Fraction:
    """P(pass) counted over every roll: 2D6 + modifier >= Ld, a failed roll rolled again."""
    mod = max(-1, min(1, modifier)) if cap else modifier

    def passes(roll: tuple[int, int]) -> bool:
        return sum(roll) + mod >= ld

    hits = 0
    for first, second in itertools.product(TWO_D6, TWO_D6):
        hits += passes(first) or (reroll and passes(second))
    return Fraction(hits, 36 * 36)


@pytest.mark.covers("wh40k.core.battle-shock", "wh40k.core.rerolls")
def test_the_inputs_answer_as_every_roll_counted() -> None:
    for ld, modifier, reroll, cap in itertools.product(
        range(2, 13), range(-3, 4), (False, True), ("summed", "capped")
    ):
        got = SHOCK.run(leadership=ld, modifier=modifier, reroll=reroll, battle_shock_modifiers=cap)
        want = p_pass(ld, modifier, reroll, cap == "capped")
        assert Fraction(got["p_pass_exact"]) == want, (ld, modifier, reroll, cap)


def _variant(folder: Path, effects: str, phases: str = "[command]") -> str:
    path = folder / "drill.yaml"
    path.write_text(
        "system: wh40k\ntitle: Drilled\nadd:\n  stratagems:\n    drill:\n      name: Drill\n"
        f"      cp: 1\n      phases: {phases}\n      effects:\n{effects}",
        encoding="utf-8",
    )
    return str(path)


@pytest.mark.covers("wh40k.core.declared-effects", "wh40k.core.battle-shock")
@pytest.mark.parametrize(
    ("effects", "ld_change", "modifier", "reroll"),
    [
        ("        - {kind: battle-shock-modifier, value: 1}\n", 0, 1, False),
        ("        - {kind: battle-shock-modifier, value: -2}\n", 0, -2, False),
        ("        - {kind: reroll-battle-shock}\n", 0, 0, True),
        ("        - {kind: improve-leadership, value: 1}\n", -1, 0, False),
        ("        - {kind: worsen, characteristic: leadership, value: 2}\n", 2, 0, False),
        (
            "        - {kind: battle-shock-modifier, value: 1}\n        - {kind: reroll-battle-shock}\n"
            "        - {kind: improve-leadership, value: 1}\n",
            -1,
            1,
            True,
        ),
    ],
)
def test_a_stratagem_s_effects_are_the_inputs(
    tmp_path: Path, effects: str, ld_change: int, modifier: int, reroll: bool
) -> None:
    variant = _variant(tmp_path, effects)
    for ld in (5, 7, 9):
        got = run_with_variant(SHOCK, variant, leadership=ld, modifier=-1, stratagems="drill")
        assert Fraction(got["p_pass_exact"]) == p_pass(ld + ld_change, modifier - 1, reroll), ld
        by_input = SHOCK.run(leadership=ld + ld_change, modifier=modifier - 1, reroll=reroll)
        assert got["p_pass_exact"] == by_input["p_pass_exact"]  # one mechanism
        assert all("applied" in line for line in got.explanation if line.startswith("Drill:"))


@pytest.mark.covers("wh40k.core.declared-effects")
@pytest.mark.parametrize(
    ("effects", "phases", "why"),
    [
        ("        - {kind: battle-shock-modifier, value: 1}\n", "[shooting]", "taken in the Command phase"),
        (
            "        - {kind: battle-shock-modifier, value: -1, affects: enemy}\n",
            "[command]",
            "not the unit tested",
        ),
        ("        - {kind: reroll-battle-shock, keywords: [INFANTRY]}\n", "[command]", "the unit's keywords"),
        ("        - {kind: battle-shock-modifier, value: 1, within: 6}\n", "[command]", "the distance"),
        ("        - {kind: hit-modifier, value: 1}\n", "[command]", "changes no Battle-shock test"),
    ],
)
def test_an_effect_out_of_scope_changes_nothing_and_says_why(
    tmp_path: Path, effects: str, phases: str, why: str
) -> None:
    got = run_with_variant(SHOCK, _variant(tmp_path, effects, phases), leadership=8, stratagems="drill")
    assert Fraction(got["p_pass_exact"]) == p_pass(8)
    (line,) = [x for x in got.explanation if x.startswith("Drill:")]
    assert why in line


@pytest.mark.covers(
    "wh40k.death-guard.stratagem.insane-bravery", "wh40k.death-guard.ability.scabrous-soulrot"
)
def test_the_printed_rules_still_answer() -> None:
    assert SHOCK.run(leadership=9, stratagems="insane-bravery")["p_pass_exact"] == "1"
    both = SHOCK.run(leadership=6, enemy_sickness="scabrous-soulrot", reroll=True)
    assert Fraction(both["p_pass_exact"]) == p_pass(7, reroll=True)
    with pytest.raises(InputError, match="stratagems: Death Guard has no stratagem 'drill'"):
        SHOCK.run(leadership=7, stratagems="drill")


@pytest.mark.covers("wh40k.morale.attack-aftermath", "wh40k.core.battle-shock")
@pytest.mark.parametrize(("modifier", "reroll"), [(0, True), (1, True), (-2, False)])
def test_after_an_attack_the_test_is_the_same(modifier: int, reroll: bool) -> None:
    """With one Leadership for the whole unit, P(Battle-shocked) = P(Below Half-strength) × P(fail)."""
    got = REG.calculator("wh40k.attack-and-battle-shock").run(
        weapons="A=10 BS=3 S=4 AP=0 D=1", toughness=4, save=4, wounds=1, models=10, leadership=7,
        battle_shock_modifier=modifier, battle_shock_reroll=reroll,
    )  # fmt: skip
    below = Fraction(got["p_below_half_exact"])
    assert below > 0
    assert Fraction(got["p_battle_shocked_exact"]) == below * (1 - p_pass(7, modifier, reroll))


@pytest.mark.covers("wh40k.core.declared-effects")
@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "Each time this unit takes a Battle-shock test, add 1 to that test.",
            [("battle-shock-modifier", 1)],
        ),
        ("Subtract 1 from Battle-shock tests taken for that unit.", [("battle-shock-modifier", -1)]),
        (
            "Each time a Battle-shock test is taken for <i>your unit</i>, you can re-roll that test.",
            [("reroll-battle-shock", None)],
        ),
        ("You can re-roll Battle-shock tests taken for this unit.", [("reroll-battle-shock", None)]),
        ("Improve the Leadership characteristic of models in this unit by 1.", [("improve-leadership", 1)]),
        (
            'Each time this unit takes a Battle-shock test, if it is within 6" of a CHARACTER, add 1 to that test.',
            None,
        ),
    ],
)
def test_rule_texts_that_say_them(text: str, want: list[tuple[str, object]] | None) -> None:
    found = recognise(text, phases=("your-command",))
    assert (None if found is None else [(e.kind, e.value) for e in found]) == want


def test_each_battle_shock_kind_acts_on_the_test_only() -> None:
    shock_kinds = {name for name, kind in KINDS.items() if kind.shock is not None}
    assert {
        "battle-shock-modifier",
        "reroll-battle-shock",
        "improve-leadership",
        "worsen",
        "auto-pass",
    } <= shock_kinds


@pytest.mark.covers("wh40k.core.battle-shock")
@pytest.mark.parametrize(("reading", "total"), [("summed", 2), ("capped", 1)])
def test_the_reading_caps_a_variant_s_added_modifier_with_the_others(reading: str, total: int) -> None:
    near = str(Path(__file__).parents[2] / "examples" / "designer" / "character-near.yaml")
    got = run_with_variant(
        SHOCK, near, leadership=8, modifier=1, character_within_6=True, battle_shock_modifiers=reading
    )
    assert Fraction(got["p_pass_exact"]) == p_pass(8, total)


def test_the_shipped_steady_drill_is_plus_one_and_a_reroll() -> None:
    drill = str(Path(__file__).parents[2] / "examples" / "designer" / "steady-drill.yaml")
    for ld in range(2, 13):
        got = run_with_variant(SHOCK, drill, leadership=ld, stratagems="steady-drill")
        assert Fraction(got["p_pass_exact"]) == p_pass(ld, 1, reroll=True), ld


@pytest.mark.covers("wh40k.core.declared-effects", "wh40k.core.battle-shock")
def test_under_the_reading_any_phase_a_phase_scope_leaves_no_effect_out(tmp_path: Path) -> None:
    variant = _variant(tmp_path, "        - {kind: battle-shock-modifier, value: 1}\n", "[shooting]")
    for reading, modifier in (("command-phase", 0), ("any-phase", 1)):
        got = run_with_variant(SHOCK, variant, leadership=8, stratagems="drill", battle_shock_phase=reading)
        assert Fraction(got["p_pass_exact"]) == p_pass(8, modifier), reading


# -- the attack and its Battle-shock test: the same stratagems, through the same test ------------

CHAIN = REG.calculator("wh40k.attack-and-battle-shock")
SEQUENCE = REG.calculator("wh40k.sequence")
STEADY_DRILL = str(Path(__file__).parents[2] / "examples" / "designer" / "steady-drill.yaml")


@pytest.mark.covers("wh40k.core.declared-effects", "wh40k.core.battle-shock", "wh40k.morale.attack-aftermath")
@settings(max_examples=20, deadline=None)
@given(
    leadership=st.integers(4, 10),
    modifier=st.integers(-2, 2),
    reroll=st.booleans(),
    sickness=st.sampled_from(["none", "scabrous-soulrot"]),
    stratagems=st.lists(st.sampled_from(["insane-bravery", "steady-drill", "ferric-blight"]), unique=True),
    insane_bravery=st.booleans(),
    attacks=st.integers(2, 8),
    models=st.integers(2, 6),
)
def test_the_chain_takes_stratagems_as_the_attack_and_the_battle_shock_test_composed(
    leadership: int,
    modifier: int,
    reroll: bool,
    sickness: str,
    stratagems: list[str],
    insane_bravery: bool,
    attacks: int,
    models: int,
) -> None:
    """wh40k.attack-and-battle-shock with ``stratagems`` (a variant's added one among them) is
    wh40k.sequence's casualties, then wh40k.battle-shock with the same stratagems: Below
    Half-strength (fewer than half the models left, some left) times the test failed; and the
    test is the one counted over every roll (Steady Drill: +1 and a re-roll; Insane Bravery: passed;
    Ferric Blight changes no test)."""
    target = {"toughness": "4", "save": "4", "wounds": "1", "models": str(models)}
    weapons = f"A={attacks} BS=3 S=4 AP=0 D=1"
    listed = ",".join(stratagems)
    chain = run_with_variant(
        CHAIN, STEADY_DRILL, weapons=weapons, leadership=leadership, battle_shock_modifier=modifier,
        battle_shock_reroll=reroll, enemy_sickness=sickness, stratagems=listed,
        insane_bravery=insane_bravery, **target,
    )  # fmt: skip
    shock = run_with_variant(
        SHOCK, STEADY_DRILL, leadership=leadership, modifier=modifier, reroll=reroll,
        enemy_sickness=sickness, stratagems=",".join({*stratagems, *["insane-bravery"] * insane_bravery}),
    )  # fmt: skip
    destroyed = [Fraction(p) for p in SEQUENCE.run(**SEQUENCE.validate({"weapons": weapons, **target}))[
        "models_destroyed_exact"
    ]]  # fmt: skip
    below = sum(p for k, p in enumerate(destroyed) if 0 < models - k < Fraction(models, 2))
    assert Fraction(chain["p_below_half_exact"]) == below
    assert Fraction(chain["p_battle_shocked_exact"]) == below * Fraction(shock["p_battle_shocked_exact"])
    steady = "steady-drill" in stratagems
    passed = insane_bravery or "insane-bravery" in stratagems
    ld = leadership + (sickness == "scabrous-soulrot")
    want = Fraction(1) if passed else p_pass(ld, modifier + steady, reroll or steady)
    assert Fraction(shock["p_pass_exact"]) == want
    assert any(line.startswith("Steady Drill: ") for line in chain.explanation) == steady


def test_the_chain_refuses_an_unknown_stratagem_in_one_line_before_the_attack() -> None:
    with pytest.raises(InputError) as caught:
        CHAIN.validate({"weapons": "A=2 BS=3 S=4 AP=0 D=1", "toughness": "4", "save": "4", "wounds": "1",
                        "models": "5", "leadership": "7", "stratagems": "insane-bravry"})  # fmt: skip
    assert str(caught.value).startswith(
        "stratagems: Death Guard has no stratagem 'insane-bravry'; did you mean"
    )
