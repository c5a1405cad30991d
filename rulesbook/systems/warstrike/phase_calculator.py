"""The WarStrike Starting Phase calculator: morale, victory and reserves against a mission.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("warstrike.starting-phase")
    >>> r = calc.run(mission="seize-the-crossing", turn=3, starting_units=10, units_on_table=3,
    ...              units_in_reserve=1, officer_lds=(8, 7), objectives_held=1)
    >>> r["p_retreat_exact"], r["p_continue_exact"], r["expected_arrivals_exact"]
    ('5/18', '13/18', '1/2')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesbook.calculators import Output, calculator
from rulesbook.errors import InputError
from rulesbook.inputs import NOT_GIVEN, REQUIRED, ChoiceInput, IntInput, IntListInput, OptionalInput
from rulesbook.results import CalcResult, Column, Table
from rulesbook.systems.warstrike import inputs as shared
from rulesbook.systems.warstrike.choices import CHOICES, WarStrikeChoices, WarStrikeReadings
from rulesbook.systems.warstrike.missions import SIDES, Side, mission, missions
from rulesbook.systems.warstrike.rules import (
    MAX_LD,
    Officer,
    StrikeForce,
    reserve_arrivals,
    reserve_roll,
    starting_phase,
)
from rulesbook.systems.warstrike.versions import draft_choices

__all__ = ["reserves_table", "starting_phase_calculator"]

MISSION = ChoiceInput(
    key="mission",
    label="Mission",
    help="A mission file of rulesbook/systems/warstrike/missions (examples written for rulesbook).",
    choices=tuple(missions()),
    default=next(iter(missions())),
)
SIDE = ChoiceInput(
    key="side",
    label="Active side",
    help="The side whose Starting Phase this is.",
    choices=SIDES,
    default="attacker",
)
TURN = IntInput(
    key="turn",
    label="Turn",
    help="The number of the turn that is starting; at most the mission's number of turns.",
    minimum=1,
    maximum=20,
    default=1,
)
UNITS_ON_TABLE = IntInput(
    key="units_on_table",
    label="Units alive on the table",
    help="Units of the active Strike Force alive on the table (reserves not counted).",
    minimum=0,
    maximum=shared.MAX_UNITS,
)
OFFICER_LDS = OptionalInput(
    inner=IntListInput(
        key="officer_lds",
        label="Ld of officers on the table",
        help="Comma-separated Ld of each officer alive and on the table (e.g. 8,7); give it empty "
        "(officer_lds=) when there is none. Required unless hive_mind=true: a Hive Mind force may "
        "leave it out; its officers are ignored with a warning (or lead it under the officer-leads reading).",
        minimum=0,
        maximum=MAX_LD,
        max_length=12,
    ),
    empty=REQUIRED,  # empty text is the empty list: no officer on the table
    default=NOT_GIVEN,
    form_start=(8, 7),
    left_out=shared.NOT_GIVEN_TEXT,
)


def _counter(key: str, label: str, help: str) -> IntInput:
    return IntInput(key=key, label=label, help=help, minimum=0, maximum=shared.MAX_UNITS, default=0)


COUNTER_INPUTS = (
    _counter("objectives_held", "Objectives held", "Objective markers the active side holds."),
    _counter("enemy_units_remaining", "Enemy units remaining", "Enemy units alive or in reserve."),
    _counter(
        "units_escorted",
        "Units escorted off",
        "Units (a hostage) the active side has escorted off the table.",
    ),
    _counter("opponent_objectives_held", "Opponent's objectives", "Objective markers the other side holds."),
    _counter(
        "opponent_units_escorted", "Opponent's escorted units", "Units the other side has escorted off."
    ),
)


def _check_phase(values: Mapping[str, Any], choices: Any) -> None:
    officers = values["officer_lds"]
    shared.check_force(
        values,
        remaining=values["units_on_table"] + values["units_in_reserve"],
        remaining_key="units_on_table",
        officer=NOT_GIVEN if officers is NOT_GIVEN else bool(officers),
        officer_key="officer_lds",
        more_officer_text="give the Ld of each officer alive on the table, or leave it empty "
        "(officer_lds=) when there is none",
        no_officer_hint="leave it empty (officer_lds=)",
    )
    m = mission(values["mission"])
    if values["turn"] > m.turns:
        raise InputError("turn", f"the mission {m.id} lasts {m.turns} turns, got {values['turn']}")
    held = values["objectives_held"] + values["opponent_objectives_held"]
    total = m.objectives
    if held > total:
        raise InputError(
            "objectives_held", f"the mission has {total} objective markers; both sides hold {held}"
        )


def reserves_table() -> Table:
    """Arrivals of 1 to 5 units in reserve under the default mission's (placeholder) roll.

    >>> reserves_table().rows[1]
    (2, Fraction(1, 1), Fraction(1, 4), Fraction(1, 4))
    """
    m = mission(MISSION.default)
    roll = reserve_roll(m)
    return Table(
        name="reserve_arrivals",
        title=f"Reserve arrivals under the placeholder roll ({roll.describe()})",
        columns=("units in reserve", "expected arrivals", "P(none arrive)", "P(all arrive)"),
        column_info=(
            Column("units in reserve", "Units in reserve"),
            Column("expected arrivals", "Expected arrivals"),
            Column("P(none arrive)", "P(none arrive)", "probability"),
            Column("P(all arrive)", "P(all arrive)", "probability"),
        ),
        rows=tuple(
            (n, d.mean(), d.p(0), d.p(n))
            for n in range(1, 6)
            for d in [reserve_arrivals(m, n, turn=roll.from_turn)]
        ),
        note="PLACEHOLDER: the Missions chapter that defines the reserve roll is missing from the draft.",
    )


@calculator(
    "warstrike.starting-phase",
    title="Starting Phase",
    summary="""The whole WarStrike Starting Phase for the active side, step by step: Strike Force
    Morale, the mission's victory conditions, then the reserve roll. Gives the exact chance that the
    force retreats, wins by the mission or plays on, and how many reserves arrive, with a log.""",
    inputs=[
        MISSION,
        SIDE,
        TURN,
        shared.STARTING_UNITS,
        UNITS_ON_TABLE,
        shared.UNITS_IN_RESERVE,
        OFFICER_LDS,
        shared.HIVE_MIND,
        shared.UNIT_LDS,
        shared.FANATICAL,
        shared.CHECKED_BEFORE,
        *COUNTER_INPUTS,
        shared.RULES_VERSION,
        WarStrikeReadings.input("several_officers", label="Several officers"),
        WarStrikeReadings.input("victory_whose_conditions", label="Whose conditions"),
        WarStrikeReadings.input("retreat_and_victory", label="Retreat vs victory"),
        WarStrikeReadings.input("reserves_roll", label="Reserve roll"),
        WarStrikeReadings.input("officer_attempts", label="Officers who may test"),
        *shared.MORALE_READINGS,
    ],
    choices=CHOICES,
    tests=("ld-test",),
    outputs=[
        Output("check_required", "Morale check required", "bool"),
        Output("p_retreat", "P(retreat)", "probability", "The force leaves the table; the opponent wins."),
        Output("p_victory", "P(victory)", "probability", "The active side wins by the mission this phase."),
        Output(
            "p_defeat", "P(defeat)", "probability", "The other side's conditions hold (both-sides reading)."
        ),
        Output("p_continue", "P(game goes on)", "probability"),
        Output("conditions_met", "Conditions met", "list", "The active side's conditions that hold."),
        Output("expected_arrivals", "Expected reserve arrivals", "number", "Given that the game goes on."),
        Output(
            "arrivals",
            "Reserve arrivals",
            "table",
            "Distribution of arriving reserve units.",
            columns=(Column("units arriving", "Units arriving"), Column("p", "Probability", "probability")),
            chart=("units arriving", "p"),
        ),
    ],
    rules=[
        "warstrike.starting-phase.sequence",
        "warstrike.morale.trigger",
        "warstrike.morale.officer-test",
        "warstrike.morale.no-officer",
        "warstrike.morale.hive-mind",
        "warstrike.morale.fanatical",
        "warstrike.victory.check",
        "warstrike.reserves.roll",
    ],
    check=_check_phase,
    examples=[
        {
            "mission": "seize-the-crossing",
            "turn": "3",
            "starting_units": "10",
            "units_on_table": "3",
            "units_in_reserve": "1",
            "officer_lds": "8,7",
            "objectives_held": "1",
        },
        {
            "mission": "hostage-extraction",
            "side": "defender",
            "turn": "4",
            "starting_units": "9",
            "units_on_table": "4",
            "hive_mind": "true",
            "unit_lds": "6,6,7,7",
            "fanatical": "true",
            "objectives_held": "1",
            "enemy_units_remaining": "2",
        },
    ],
    reference_tables=lambda: [reserves_table()],
)
def starting_phase_calculator(
    *,
    mission: str,
    side: Side,
    turn: int,
    starting_units: int,
    units_on_table: int,
    units_in_reserve: int,
    officer_lds: Any,
    hive_mind: bool,
    unit_lds: tuple[int, ...],
    fanatical: bool,
    checked_before: bool,
    objectives_held: int,
    enemy_units_remaining: int,
    units_escorted: int,
    opponent_objectives_held: int,
    opponent_units_escorted: int,
    rules_version: str,
    choices: WarStrikeChoices,
) -> CalcResult:
    """The Starting Phase of one side, exactly, with its step-by-step log."""
    choices = draft_choices(rules_version, choices)
    officer_lds = () if officer_lds is NOT_GIVEN else officer_lds
    force = StrikeForce(
        starting_units=starting_units,
        units_on_table=units_on_table,
        units_in_reserve=units_in_reserve,
        officers=tuple(Officer(ld, f"officer {i + 1}") for i, ld in enumerate(officer_lds)),
        unit_lds=unit_lds,
        hive_mind=hive_mind,
        fanatical=fanatical,
        name=f"{side.capitalize()} Strike Force",
        checked_before=checked_before,
    )
    r = starting_phase(
        force,
        missions()[mission],
        side=side,
        turn=turn,
        counters={
            "objectives_held": objectives_held,
            "enemy_units_remaining": enemy_units_remaining,
            "units_escorted": units_escorted,
        },
        opponent_counters={
            "objectives_held": opponent_objectives_held,
            "units_escorted": opponent_units_escorted,
        },
        choices=choices,
    )
    values: dict[str, Any] = {
        "check_required": r.morale.check_required,
        **{f"p_{key}": r.outcome[key] for key in ("retreat", "victory", "defeat", "continue")},
        "conditions_met": list(r.conditions_met),
        "expected_arrivals": r.arrivals.mean(),
    }
    arrivals = Table(
        name="arrivals",
        title="Reserve units arriving, if the game goes on",
        columns=("units arriving", "p_exact", "p"),
        rows=tuple((k, p, float(p)) for k, p in r.arrivals),
    )
    warnings = shared.hive_officer_warning(hive_mind, bool(officer_lds), "officer_lds", choices)
    return CalcResult(values=values, tables=(arrivals,), explanation=r.log, warnings=warnings)
