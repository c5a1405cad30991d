"""Warhammer 40,000 single-roll calculators: the Battle-shock test, Desperate Escape and
Hazardous tests and the Deadly Demise roll (the attack calculators are in :mod:`~rulesbook.systems.wh40k.calculators.attack`).

Example:
    >>> from rulesbook.registry import registry
    >>> registry().calculator("wh40k.battle-shock").run(leadership=7)["p_pass_exact"]
    '7/12'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rulesbook.calculators import Output, calculator
from rulesbook.dice import DiceExpr
from rulesbook.errors import InputError, choose_from, quote
from rulesbook.inputs import BoolInput, ChoiceInput, DiceInput, IntInput, WordListInput
from rulesbook.present.numbers import fixed, percent
from rulesbook.results import CalcResult, Column, Distribution, Table, fraction_str
from rulesbook.systems.wh40k.attack.rolls import (
    battle_shock_test,
    deadly_demise_test,
    desperate_escape_test,
    failures,
    hazardous_test,
)
from rulesbook.systems.wh40k.calculators.datasheet_inputs import DG, KEY
from rulesbook.systems.wh40k.calculators.report import dense
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices, Wh40kReadings
from rulesbook.systems.wh40k.effects.kind import ShockTest
from rulesbook.systems.wh40k.effects.kinds import KINDS
from rulesbook.systems.wh40k.faction.additions import with_additions
from rulesbook.systems.wh40k.faction.reader import death_guard
from rulesbook.systems.wh40k.faction.shock import SICKNESS_KEYS, leadership_worsened, p_pass, shock_test

__all__ = [
    "ENEMY_SICKNESS_INPUT",
    "STRATAGEMS_INPUT",
    "battle_shock_calculator",
    "deadly_demise_calculator",
    "desperate_escape_calculator",
    "effect_lines",
    "hazardous_calculator",
    "sickness_line",
    "stratagems_shock",
]


def _up_to(n: int) -> str:
    """1, or 1–n."""
    return "1" if n == 1 else f"1–{n}"


# -- wh40k.battle-shock ------------------------------------------------------------------------------

STRATAGEMS_INPUT = WordListInput(
    key="stratagems",
    label="Stratagems",
    help=(
        "Comma list of stratagems the unit's player uses on the test (keys of the Death Guard page, "
        "or added by a variant): their Battle-shock effects apply (Insane Bravery passes it)."
    ),
    words=((KEY, "stratagem keys"),),
    suggestions=tuple(k for k, st in DG.stratagems.items() if any(KINDS[e.kind].shock for e in st.effects)),
    default=(),
)
"""The stratagems of the Battle-shock calculator (their effects through the kinds' ``shock`` hooks)."""

ENEMY_SICKNESS_INPUT = ChoiceInput(
    key="enemy_sickness",
    label="Enemy Sickness in range",
    help=(
        "The Sickness of an enemy Death Guard army (Spread the Sickness) whose Contagion Range the unit "
        "is in, or none: Scabrous Soulrot worsens its Leadership by 1 (6+ becomes 7+); the other two "
        "change no Battle-shock test."
    ),
    choices=("none", *SICKNESS_KEYS),
    default="none",
)
"""The enemy Sickness of the Battle-shock calculators (Scabrous Soulrot's Leadership effect)."""


def stratagems_shock(keys: Sequence[str], test: ShockTest, choices: Wh40kChoices = CHOICES) -> ShockTest:
    """``test`` as the Battle-shock effects of the stratagems ``keys`` change it (the tested unit's
    player uses them: the Death Guard page's, or added by the variant of ``choices``), each through
    :func:`~rulesbook.systems.wh40k.faction.shock.shock_test` — for every Battle-shock calculator,
    which take them as ``stratagems``; an unknown key is one line naming that input.

    >>> stratagems_shock(["insane-bravery"], ShockTest(modifier=-1)).passed
    True
    >>> stratagems_shock(["insane-bravry"], ShockTest())
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: stratagems: Death Guard has no stratagem 'insane-bravry'; did you mean insane-bravery? ...
    """
    faction = with_additions(death_guard(), choices.additions)
    for key in keys:
        if key not in faction.stratagems:
            raise InputError(
                "stratagems",
                f"{faction.name} has no stratagem {quote(key)}; {choose_from(key, faction.stratagems)}",
            )
    for key in keys:
        st = faction.stratagems[key]
        test = shock_test(st.effects, "own", test, st.name, choices)
    return test


def effect_lines(test: ShockTest) -> tuple[str, ...]:
    """The explanation's line for each effect on the test: applied, or why not."""
    return tuple(f"{shown}: {why or 'applied'}." for shown, _, why in test.record)


def sickness_line(enemy_sickness: str, leadership: int, choices: Wh40kChoices = CHOICES) -> str:
    """The explanation line of an enemy Sickness on a Battle-shock test ("" for none)."""
    if enemy_sickness == "none":
        return ""
    steps = leadership_worsened(enemy_sickness, choices)
    name = enemy_sickness.replace("-", " ").title()
    if not steps:
        return f"{name} changes no Battle-shock test (only Scabrous Soulrot worsens Leadership)."
    return f"{name}: Leadership {leadership}+ is worsened to {leadership + steps}+ (a characteristic, not a modifier)."


@calculator(
    "wh40k.battle-shock",
    title="Battle-shock test",
    summary="Chance that a unit passes a Battle-shock test: 2D6 at or above its Leadership.",
    inputs=[
        IntInput(
            key="leadership",
            label="Leadership (Ld)",
            help="The X of the unit's best Leadership X+.",
            minimum=2,
            maximum=12,
        ),
        IntInput(
            key="modifier",
            label="Modifier",
            help="Added to the 2D6 roll (negative is worse).",
            minimum=-6,
            maximum=6,
            default=0,
        ),
        BoolInput(
            key="reroll",
            label="Re-roll a failed test",
            help=(
                "A rule lets the unit re-roll a failed Battle-shock test (an effect "
                "reroll-battle-shock): both dice are rolled again, once."
            ),
            default=False,
        ),
        ENEMY_SICKNESS_INPUT,
        STRATAGEMS_INPUT,
        Wh40kReadings.input("battle_shock_modifiers"),
        Wh40kReadings.input("battle_shock_phase"),
    ],
    outputs=[
        Output("p_pass", "P(pass)", "probability", "Chance the test passes."),
        Output("p_battle_shocked", "P(Battle-shocked)", "probability", "Chance the test fails."),
    ],
    rules=[
        "wh40k.core.battle-shock",
        "wh40k.death-guard.ability.scabrous-soulrot",
        "wh40k.core.declared-effects",
        "wh40k.death-guard.stratagem.insane-bravery",
        "wh40k.death-guard.stratagem.insane-bravery-boarding-actions",
    ],
    choices=CHOICES,
    tests=("battle-shock",),
    examples=[
        {"leadership": "7"},
        {"leadership": "6", "modifier": "-1"},
        {"leadership": "6", "enemy_sickness": "scabrous-soulrot"},
        {"leadership": "7", "reroll": "true"},
    ],
    reference_tables=lambda: [
        Table(
            name="battle_shock_by_ld",
            title="P(pass) of a Battle-shock test by Leadership",
            columns=("Ld", "p_exact", "p"),
            column_info=(Column("Ld", "Ld"), Column("p", "P(pass)", "probability")),
            rows=tuple(
                (
                    f"{ld}+",
                    fraction_str(battle_shock_test(ld).p_pass()),
                    float(battle_shock_test(ld).p_pass()),
                )
                for ld in range(2, 13)
            ),
        )
    ],
)
def battle_shock_calculator(
    *,
    leadership: int,
    modifier: int,
    reroll: bool,
    enemy_sickness: str,
    stratagems: tuple[str, ...],
    choices: Wh40kChoices,
) -> CalcResult:
    """Exact P(pass) of a Battle-shock test (Leadership worsened by an enemy Scabrous Soulrot),
    with the Battle-shock effects of the stratagems the unit's player uses.

    >>> from rulesbook.registry import registry
    >>> registry().calculator("wh40k.battle-shock").run(leadership=6, enemy_sickness="scabrous-soulrot")["p_pass_exact"]
    '7/12'
    >>> registry().calculator("wh40k.battle-shock").run(leadership=7, reroll=True)["p_pass_exact"]
    '119/144'
    """
    ld = leadership + leadership_worsened(enemy_sickness, choices)
    test = stratagems_shock(stratagems, ShockTest(modifier=modifier, reroll=reroll), choices)
    p = p_pass(test, ld, choices)
    sick = sickness_line(enemy_sickness, leadership, choices)
    effects = effect_lines(test)
    if test.passed:
        roll = f"The test is passed without a roll: P(pass) = {fraction_str(p)}."
    else:
        rolled = battle_shock_test(ld + test.worse, test.modifier, choices, reroll=test.reroll)  # as p_pass
        again = ", a failed test rolled again" if test.reroll else ""
        roll = (
            f"Roll {choices.parameters.battle_shock_dice}{rolled.effective_modifier:+d}; "
            f"{rolled.target} or more passes{again}: "
            f"P(pass) = {fraction_str(p)} ≈ {percent(float(p))}."
        )
    lines = (
        *((sick,) if sick else ()),
        *effects,
        *((f"Leadership {ld}+ becomes {ld + test.worse}+ through the effects.",) if test.worse else ()),
        roll,
        "A failed test leaves the unit Battle-shocked (OC 0, no Stratagems) until your next Command phase.",
    )
    return CalcResult(
        values={"p_pass": p, "p_battle_shocked": 1 - p},
        explanation=lines,
    )


# -- single-D6 tests of the source: Desperate Escape, Hazardous, Deadly Demise --------------------


def _count_values(name: str, dist: Distribution[int], size: int) -> dict[str, Any]:
    """P(exactly k) for k < size under ``name`` and the mean under ``mean_<name>`` (exact)."""
    return {name: dense(dist, size), f"mean_{name}": dist.mean()}


def _check_escape(values: Mapping[str, Any], choices: Any) -> None:
    if values["tests"] > values["models"]:
        raise InputError(
            "tests", f"at most one test per model: at most {values['models']}, got {values['tests']}"
        )


@calculator(
    "wh40k.desperate-escape",
    title="Desperate Escape tests",
    summary="""Models lost when a unit Falls Back over enemy models (or Falls Back while
    Battle-shocked): one D6 per test, each 1–2 destroys a model.""",
    inputs=[
        IntInput(
            key="tests",
            label="Tests",
            help="Models that take a Desperate Escape test.",
            minimum=1,
            maximum=40,
        ),
        IntInput(
            key="models",
            label="Models in the unit",
            help="Models in the unit falling back.",
            minimum=1,
            maximum=40,
        ),
    ],
    outputs=[
        Output(
            "models_destroyed",
            "P(exactly k models destroyed)",
            "list",
            "Index k holds P(k models destroyed).",
            chart=("Models destroyed",),
        ),
        Output("mean_models_destroyed", "Mean models destroyed", "number", "Expected models destroyed."),
        Output("p_unit_destroyed", "P(unit destroyed)", "probability", "Chance that no model is left."),
    ],
    rules=["wh40k.core.desperate-escape", "wh40k.core.battle-shock"],
    choices=CHOICES,
    check=_check_escape,
    insensitive={
        "battle_shock_dice": "whether the unit is Battle-shocked is given as an input here, not rolled",
        "battle_shock_margin": "whether the unit is Battle-shocked is given as an input here, not rolled",
        "rules.wh40k.core.battle-shock": "whether the unit is Battle-shocked is given as an input here, "
        "not tested (the rule says who takes Desperate Escape tests)",
    },
    examples=[{"tests": "5", "models": "5"}, {"tests": "2", "models": "10"}],
)
def desperate_escape_calculator(*, tests: int, models: int, choices: Wh40kChoices) -> CalcResult:
    """Exact distribution of models destroyed by Desperate Escape tests."""
    test = desperate_escape_test(choices)
    dist = failures(test, tests)
    p_all = dist.p(models) if tests == models else Fraction(0)
    values = {
        **_count_values("models_destroyed", dist, tests + 1),
        "p_unit_destroyed": p_all,
    }
    lines = (
        f"{tests} D6, each {_up_to(choices.parameters.desperate_escape_fails_up_to)} (chance {fraction_str(1 - test.p_pass())}) "
        f"destroys a model: {fixed(float(dist.mean()))} models on average.",
        "A Battle-shocked unit that Falls Back tests for every model.",
    )
    return CalcResult(values=values, explanation=lines)


@calculator(
    "wh40k.hazardous",
    title="Hazardous tests",
    summary="""After a unit shoots or fights: one D6 per Hazardous weapon used; each 1 makes a
    bearer suffer 3 mortal wounds.""",
    inputs=[
        IntInput(
            key="weapons",
            label="Hazardous weapons used",
            help="Hazardous weapons that targets were selected for.",
            minimum=1,
            maximum=20,
        ),
    ],
    outputs=[
        Output(
            "failed_tests",
            "P(exactly k failed tests)",
            "list",
            "Index k holds P(k tests fail).",
            chart=("Failed tests",),
        ),
        Output("mean_failed_tests", "Mean failed tests", "number", "Expected failed tests."),
        Output(
            "mean_mortal_wounds", "Mean mortal wounds", "number", "3 per failed test, before Feel No Pain."
        ),
        Output("p_any_failure", "P(at least one failure)", "probability", "Chance that some bearer is hurt."),
    ],
    rules=["wh40k.attack.hazardous"],
    choices=CHOICES,
    examples=[{"weapons": "3"}],
)
def hazardous_calculator(*, weapons: int, choices: Wh40kChoices) -> CalcResult:
    """Exact distribution of failed Hazardous tests."""
    test = hazardous_test(choices)
    mortal = choices.parameters.hazardous_mortal_wounds
    dist = failures(test, weapons)
    values = {
        **_count_values("failed_tests", dist, weapons + 1),
        "mean_mortal_wounds": mortal * dist.mean(),
        "p_any_failure": 1 - dist.p(0),
    }
    lines = (
        f"{weapons} D6, each {_up_to(choices.parameters.hazardous_fails_up_to)} (chance {fraction_str(1 - test.p_pass())}) "
        f"fails and costs a bearer {mortal} mortal wounds.",
    )
    return CalcResult(values=values, explanation=lines)


@calculator(
    "wh40k.deadly-demise",
    title="Deadly Demise",
    summary="""When a model with Deadly Demise x is destroyed: chance it explodes (a 6) and the
    mortal wounds each unit within 6" suffers.""",
    inputs=[
        DiceInput(key="x", label="Deadly Demise x", help="Mortal wounds on a 6: 1, D3, D6 …", min_value=1)
    ],
    outputs=[
        Output("p_explodes", "P(explodes)", "probability", "Chance of the 6."),
        Output(
            "mortal_wounds",
            "P(exactly k mortal wounds)",
            "list",
            "Per unit within 6 inches; index k.",
            chart=("Mortal wounds",),
        ),
        Output("mean_mortal_wounds", "Mean mortal wounds", "number", "Per unit within 6 inches."),
    ],
    rules=["wh40k.core.deadly-demise"],
    choices=CHOICES,
    examples=[{"x": "D6"}, {"x": "D3"}],
)
def deadly_demise_calculator(*, x: DiceExpr, choices: Wh40kChoices) -> CalcResult:
    """Exact mortal wounds suffered by each unit within 6" of the destroyed model."""
    boom = deadly_demise_test(choices).p_pass()
    pairs = [(0, 1 - boom)] + [(k, boom * p) for k, p in x.distribution()]
    dist = Distribution.from_pairs(pairs)
    values = {
        "p_explodes": boom,
        **_count_values("mortal_wounds", dist, x.maximum + 1),
    }
    lines = (
        f"On a {choices.parameters.deadly_demise_roll} (chance {fraction_str(boom)}) each unit within 6 inches suffers "
        f"{x} mortal wounds, rolled separately per unit.",
    )
    return CalcResult(values=values, explanation=lines)
