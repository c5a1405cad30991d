"""Scrollhammer calculators for the Fall Back / Regroup chain and Regroup tests.

Example:
    >>> from rulesbook.registry import registry
    >>> r = registry().calculator("scrollhammer.fall-back").run(ld=7, distance=2, phases=1)
    >>> r["p_removed_exact"], r["p_regrouped_exact"]
    ('5/12', '7/12')

    Starting at the Break test of a combat lost by 2 (Ld 7 - 2: 2D6 <= 5 holds, 5/18), 2" from
    the edge measured in the combat: the unit holds, or its first Fall Back move (any 2D6
    reaches 2") takes it off the table.

    >>> r = registry().calculator("scrollhammer.fall-back").run(
    ...     ld=7, distance=2, phases=1, after="break-test", lost_by=2)
    >>> r["p_held_exact"], r["p_removed_exact"]
    ('5/18', '13/18')
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rulesbook.calculators import Output, calculator
from rulesbook.dice import DiceExpr, RollTest
from rulesbook.errors import InputError
from rulesbook.inputs import BoolInput, ChoiceInput, DiceInput, IntInput
from rulesbook.present.numbers import percent
from rulesbook.present.rolls import rolls_text
from rulesbook.results import CalcResult, Column, Table, fraction_str
from rulesbook.systems.scrollhammer.calculators import LD_INPUT
from rulesbook.systems.scrollhammer.choices import CHOICES, ScrollhammerChoices, ScrollhammerReadings
from rulesbook.systems.scrollhammer.fall_back import FallBackChain, fall_back_chain, fall_back_roll
from rulesbook.systems.scrollhammer.rules import at_least_half, break_test, regroup_test, regroup_when_charged
from rulesbook.systems.scrollhammer.strength import STRENGTH_INPUTS, check_strength, strength_of

__all__ = ["FALL_BACK_DICE_INPUT", "MAX_DISTANCE", "chain_table", "flee_table"]

MAX_DISTANCE = 120
"""Longest distance to a table edge the calculators accept (inches)."""

FALL_BACK_DICE_INPUT = DiceInput(
    key="fall_back_dice",
    label="Fall Back dice",
    help="The unit's Fall Back roll in inches (2D6 for most units); it must move at least 1\".",
    default=CHOICES.parameters.fall_back_dice,
    min_value=1,
)


DISTANCE_INPUT = IntInput(
    key="distance",
    label='Distance to table edge (")',
    help="Inches left to the unit's own table edge, measured from the model farthest from it "
    "(interpretation scrollhammer.interpretations.edge-distance).",
    minimum=1,
    maximum=MAX_DISTANCE,
    default=12,
)
MOVEMENT_PHASES_INPUT = ScrollhammerReadings.input(
    "movement_phases",
    label="Fall Back in which Movement phases",
    help="Interpretation scrollhammer.interpretations.movement-phases: does the unit also flee "
    "in the opponent's Movement phases?",
)
HEROISM_IN_REGROUP_INPUT = ScrollhammerReadings.input(
    "heroism_in_regroup",
    label="Double 1 in Regroup tests",
    help="Interpretation scrollhammer.interpretations.heroism-in-regroup (matters only at Ld 0 or 1).",
)


# -- the Fall Back / Regroup chain ------------------------------------------------------------

PHASE_COLUMNS = (
    Column("phase", "Movement phase"),
    Column("p_regroup_now", "Regroups in this phase", "probability"),
    Column("p_removed_now", "Flees off the table in this phase", "probability"),
    Column("p_regrouped", "Regrouped so far", "probability"),
    Column("p_removed", "Fled so far", "probability"),
    Column("p_falling_back", "Still falling back", "probability"),
)
"""Labels of the phase-by-phase table (phase 0 is the first Fall Back move)."""


def chain_table(chain: FallBackChain) -> Table:
    """The per-phase table of a chain (phase 0 is the immediate Fall Back move, if rolled)."""
    rows = tuple(
        (
            r.phase,
            float(r.p_regroup_now),
            float(r.p_removed_now),
            float(r.p_regrouped),
            float(r.p_removed),
            float(r.p_falling_back),
            fraction_str(r.p_removed),
        )
        for r in chain.phases
    )
    return Table(
        name="phases",
        title="Phase by phase (probabilities from the start of the chain)",
        columns=(
            "phase",
            "p_regroup_now",
            "p_removed_now",
            "p_regrouped",
            "p_removed",
            "p_falling_back",
            "p_removed_exact",
        ),
        rows=rows,
    )


def flee_table(
    distances: range = range(2, 25, 2),
    lds: range = range(5, 11),
    *,
    phases: int = 3,
    at_least_half: bool = True,
    choices: ScrollhammerChoices = CHOICES,
) -> Table:
    """P(removed at the table edge) by distance (rows) and Ld (columns) over ``phases`` phases.

    The unit rolls the rules' Fall Back dice.

    >>> flee_table(range(2, 3), range(7, 8), phases=1).rows   # removed whenever the test fails
    ((2, 0.4167),)
    """
    roll = fall_back_roll((), choices)
    dice = choices.parameters.fall_back_dice
    rows = tuple(
        (
            d,
            *(
                round(
                    float(
                        fall_back_chain(
                            d, regroup_test(ld, at_least_half, choices), roll, phases, choices=choices
                        ).p_removed
                    ),
                    4,
                )
                for ld in lds
            ),
        )
        for d in distances
    )
    half = "at least half alive" if at_least_half else "under half alive"
    return Table(
        name="p_removed_by_distance_ld",
        title=f"P(fled off the table) within {phases} Movement phases, {half}, {dice} Fall Back",
        columns=('distance (")', *(f"Ld {ld}" for ld in lds)),
        rows=rows,
        column_info=(
            Column('distance (")', 'Distance (")'),
            *(Column(f"Ld {ld}", f"Ld {ld}", "probability") for ld in lds),
        ),
        note="Distance measured after the first Fall Back move.",
    )


@calculator(
    "scrollhammer.fall-back",
    title="Fall Back and Regroup chain",
    summary="""A unit has just failed a Morale check and made its first Fall Back move. In each of
    the next Movement phases it takes a Regroup test and, failing it, falls back again. The exact
    chances that it has fled off the table, has regrouped, or is still falling back. Or start
    one step earlier, at the Break test of a lost combat: passing it the unit holds, failing it
    the unit flees from the combat and the chain runs as above.""",
    inputs=[
        LD_INPUT,
        DISTANCE_INPUT,
        ChoiceInput(
            key="after",
            label="The chain starts after",
            help="failed-check: a failed Morale check, its first Fall Back move already made. "
            "break-test: the Break test of a lost combat (lost_by), rolled first; the unit holds "
            "or falls back from the combat.",
            choices=("failed-check", "break-test"),
            default="failed-check",
        ),
        IntInput(
            key="lost_by",
            label="Lost the combat by",
            help="Only with after=break-test (ignored otherwise): the winner's combat score minus "
            "the loser's, as in scrollhammer.break-test (1 to 30).",
            minimum=1,
            maximum=30,
            default=1,
        ),
        BoolInput(
            key="at_least_half",
            label="At least half the models alive",
            help="At least 50 % alive: a normal Leadership test; otherwise only a double 1 regroups.",
            default=True,
        ),
        IntInput(
            key="phases",
            label="Movement phases",
            help="How many of the unit's own Movement phases to follow (0 to 12).",
            minimum=0,
            maximum=12,
            default=3,
        ),
        FALL_BACK_DICE_INPUT,
        BoolInput(
            key="first_move",
            label="Distance is before the first move",
            help="Switch on to measure the distance before the immediate Fall Back move and roll it too. "
            "Ignored with after=break-test: the reading break_test_distance decides.",
            default=False,
        ),
        HEROISM_IN_REGROUP_INPUT,
        MOVEMENT_PHASES_INPUT,
        ScrollhammerReadings.input(
            "break_test_distance",
            label="After a Break test, distance measured",
            help="Interpretation scrollhammer.interpretations.break-test-distance (only with "
            "after=break-test): before the first Fall Back move from the combat, or after it?",
        ),
    ],
    outputs=[
        Output(
            "p_held",
            "P(held)",
            "probability",
            "The unit passed its Break test and held (0 when the chain starts after a failed check).",
        ),
        Output("p_removed", "P(fled off the table)", "probability", "The unit reached its table edge."),
        Output("p_regrouped", "P(regrouped)", "probability", "The unit passed a Regroup test."),
        Output("p_falling_back", "P(still falling back)", "probability", "After the last phase."),
        Output("p_regroup_test", "P(pass one Regroup test)", "probability"),
        Output(
            "phases",
            "Phase by phase",
            "table",
            "Each Movement phase: the chance the unit regroups or flees in it, and the totals so far.",
            columns=PHASE_COLUMNS,
            chart=("phase", "p_regroup_now", "p_removed_now"),
        ),
    ],
    rules=[
        "scrollhammer.fall-back.move",
        "scrollhammer.fall-back.distance",
        "scrollhammer.fall-back.table-edge",
        "scrollhammer.regroup.test",
        "scrollhammer.morale.check",
        "scrollhammer.morale.insane-heroism",
        "scrollhammer.morale.break-test",
        "scrollhammer.fall-back.from-combat",
    ],
    examples=[
        {"ld": "7", "distance": "12", "phases": "3"},
        {"ld": "8", "distance": "6", "at_least_half": "false", "phases": "2"},
        {"ld": "7", "distance": "18", "phases": "3", "fall_back_dice": "3D6"},
        {"ld": "7", "distance": "12", "phases": "3", "movement_phases": "every-movement-phase"},
    ],
    reference_tables=lambda: [flee_table(), flee_table(at_least_half=False)],
    choices=CHOICES,
    tests=("regroup-test", "break-test"),
    insensitive={
        "combat_clearance": 'the stretch that takes fleeing models 1" clear of the enemy depends on '
        "where those enemies stand, which the chain does not model (interpretation "
        "scrollhammer.interpretations.break-test-distance)",
        "rules.scrollhammer.fall-back.from-combat": 'its one number is the 1" stretch left out of the '
        "chain (interpretation scrollhammer.interpretations.break-test-distance); the rule is named for "
        "the first move out of the combat",
        "regroup_percent": "the unit's strength comes as at_least_half (yes or no), so the share that "
        "decides it is not applied here (scrollhammer.regroup-test applies it)",
    },
)
def fall_back_calculator(
    *,
    ld: int,
    distance: int,
    at_least_half: bool,
    phases: int,
    fall_back_dice: DiceExpr,
    first_move: bool,
    after: str = "failed-check",
    lost_by: int = 1,
    choices: ScrollhammerChoices,
) -> CalcResult:
    """The exact Fall Back / Regroup Markov chain, optionally started by a Break test.

    With ``after="break-test"`` the Break test is the one of ``scrollhammer.break-test``
    (:func:`~rulesbook.systems.scrollhammer.rules.break_test`, so a variant's change to it
    counts here too); the chain runs only when it fails.
    """
    test = regroup_test(ld, at_least_half, choices)
    roll = fall_back_roll([fall_back_dice], choices)
    lines: list[str] = []
    p_held = Fraction(0)
    if after == "break-test":
        first_move = choices.readings.break_test_distance == "before-first-move"
        broken = break_test(ld, lost_by, 0, choices)
        p_held = broken.p_pass()
        where = "measured in the combat, first move rolled" if first_move else "measured after the first move"
        lines.append(
            f"Break test at Ld {ld}, lost by {lost_by} (modified Ld {broken.target}): held "
            f'{fraction_str(p_held)}; otherwise the unit falls back from the combat ({distance}" to '
            f"the edge, {where})."
        )
    chain = fall_back_chain(distance, test, roll, phases, first_move=first_move, choices=choices)
    chain = chain.started_with(1 - p_held) if p_held else chain
    p_test = test.p_pass()
    rule = f"2D6 ≤ {ld}" if at_least_half else _only(test, "{} only") + " (under half strength)"
    lines += [
        f"Each Regroup test passes with {fraction_str(p_test)} ({rule}).",
        f'A failed test means another {fall_back_dice}" Fall Back move; a roll of at least the '
        f'distance left ({distance}" at the start) takes the unit off the table.',
        f"After {phases} phase(s): fled {percent(float(chain.p_removed))}, "
        f"regrouped {percent(float(chain.p_regrouped))}, "
        f"still falling back {percent(float(chain.p_falling_back))}.",
    ]
    values = {
        "p_held": p_held,
        "p_removed": chain.p_removed,
        "p_regrouped": chain.p_regrouped,
        "p_falling_back": chain.p_falling_back,
        "p_regroup_test": p_test,
    }
    return CalcResult(values, (chain_table(chain),), tuple(lines))


def _only(test: RollTest, sentence: str) -> str:
    """What passes a test that otherwise fails (a unit under half strength), written into
    ``sentence`` (``{}`` for the rolls): the natural rolls that pass whatever the total (a
    double 1 in the published rules, the rolls a variant names), or ``nothing passes``.

    >>> from rulesbook.dice import TWO_D6, double
    >>> _only(RollTest(dice=TWO_D6, target=7, always_fail=True, auto_pass=double(1)), "Only {} passes")
    'Only a double 1 passes'
    >>> _only(RollTest(dice=TWO_D6, target=7, always_fail=True), "Only {} passes")
    'Nothing passes'
    """
    if not test.auto_pass:
        return "Nothing passes" if sentence[0].isupper() else "nothing passes"
    return sentence.format(rolls_text(test.auto_pass, test.dice, test.reads))


# -- Regroup tests ------------------------------------------------------------------------------


def _check_models(values: Mapping[str, Any], choices: Any) -> None:
    if values["models_alive"] > values["models_total"]:
        raise InputError(
            "models_alive",
            f"at most the starting strength ({values['models_total']}), got {values['models_alive']}",
        )


@calculator(
    "scrollhammer.regroup-test",
    title="Regroup test",
    summary="""Chance that a falling-back unit regroups in its Movement phase: a normal
    Leadership test with at least half its models alive, otherwise only a double 1.""",
    inputs=[
        LD_INPUT,
        IntInput(
            key="models_alive",
            label="Models alive",
            help="Models the unit has left.",
            minimum=1,
            maximum=200,
            default=5,
        ),
        IntInput(
            key="models_total",
            label="Starting strength",
            help="Models the unit began the battle with.",
            minimum=1,
            maximum=200,
            default=10,
        ),
        ScrollhammerReadings.input(
            "regroup_half",
            label="Exactly half alive",
        ),
        HEROISM_IN_REGROUP_INPUT,
    ],
    outputs=[
        Output("p_regroup", "P(regroup)", "probability"),
        Output("p_stay", "P(goes on falling back)", "probability"),
        Output("at_least_half", "At least half alive", "bool"),
    ],
    rules=[
        "scrollhammer.regroup.test",
        "scrollhammer.morale.insane-heroism",
        "scrollhammer.morale.modifiers",
        "scrollhammer.morale.check",
    ],
    check=_check_models,
    examples=[
        {"ld": "8", "models_alive": "5", "models_total": "10"},
        {"ld": "8", "models_alive": "4", "models_total": "10"},
    ],
    choices=CHOICES,
    tests=("regroup-test",),
)
def regroup_test_calculator(
    *, ld: int, models_alive: int, models_total: int, choices: ScrollhammerChoices
) -> CalcResult:
    """P(regroup) of one Regroup test."""
    half = at_least_half(models_alive, models_total, choices)
    test = regroup_test(ld, half, choices, (models_alive, models_total))
    p = test.p_pass()
    lines = [
        f"{models_alive} of {models_total} alive is {'at least' if half else 'under'} half.",
        f"{'A normal Leadership test, 2D6 ≤ ' + str(ld) if half else _only(test, 'Only {} passes')}: "
        f"P(regroup) = {fraction_str(p)}.",
    ]
    values = {"p_regroup": p, "p_stay": 1 - p, "at_least_half": half}
    return CalcResult(values, (), tuple(lines))


@calculator(
    "scrollhammer.regroup-when-charged",
    title="Regrouping when charged",
    summary="""A falling-back unit is charged: it tests on its plain Leadership whatever its losses.
    Passing, it regroups where it stands; failing, it is destroyed at the end of the Charge
    sub-phase.""",
    inputs=[LD_INPUT, HEROISM_IN_REGROUP_INPUT, *STRENGTH_INPUTS],
    outputs=[
        Output("p_regroup", "P(regroup)", "probability"),
        Output("p_destroyed", "P(destroyed)", "probability"),
    ],
    rules=[
        "scrollhammer.regroup.when-charged",
        "scrollhammer.regroup.multiple-charges",
        "scrollhammer.morale.modifiers",
        "scrollhammer.morale.check",
        "scrollhammer.morale.insane-heroism",
    ],
    examples=[{"ld": "7"}, {"ld": "1", "heroism_in_regroup": "total-only"}],
    choices=CHOICES,
    tests=("regroup-test",),
    check=check_strength,
)
def regroup_when_charged_calculator(
    *,
    ld: int,
    models_left: int | None = None,
    starting_models: int | None = None,
    choices: ScrollhammerChoices,
) -> CalcResult:
    """P(regroup) of a charged fleeing unit."""
    strength = strength_of(models_left, starting_models)
    p = regroup_when_charged(ld, choices, strength).p_pass()
    lines = [
        f"2D6 ≤ {ld} regardless of losses: P(regroup) = {fraction_str(p)}.",
        f"Otherwise the unit is removed at the end of the Charge sub-phase: {fraction_str(1 - p)}.",
    ]
    return CalcResult({"p_regroup": p, "p_destroyed": 1 - p}, (), tuple(lines))
