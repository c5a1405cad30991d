"""WarStrike calculators, declared once (inputs, outputs, rules) around pure functions.

``warstrike.strike-force-morale`` is the public contract of the issue (input and result keys
are fixed); ``warstrike.starting-phase`` runs all three steps of the phase against a mission.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("warstrike.strike-force-morale")
    >>> r = calc.run(starting_units=10, remaining_units=4, officer_ld=8)
    >>> r["check_required"], r["p_retreat_exact"], r["p_fight_on_exact"]
    (True, '5/18', '13/18')
    >>> try:
    ...     calc.parse_assignments(["starting_units=6", "remaining_units=2", "officer_ld=none", "hive_mind=true"])
    ... except InputError as err:
    ...     print(err.field, "|", err.message)
    unit_lds | a Hive Mind force needs the Ld of each of the 2 units that test (comma-separated), got 0 values
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesbook.calculators import (
    NOT_GIVEN,
    REQUIRED,
    BoolInput,
    ChoiceInput,
    InterpretationInput,
    IntInput,
    IntListInput,
    OptionalInput,
    Output,
    calculator,
)
from rulesbook.errors import InputError
from rulesbook.results import CalcResult, Table, fraction_str, probability_values
from rulesbook.systems.warstrike.missions import SIDES, mission, missions
from rulesbook.systems.warstrike.rules import (
    MAX_LD,
    MoraleOptions,
    Officer,
    PhaseOptions,
    StrikeForce,
    Threshold,
    check_required,
    officer_ld_test,
    starting_phase,
    strike_force_morale,
)
from rulesbook.systems.warstrike.versions import rulesets

MAX_UNITS = 60


def _interp(key: str, label: str) -> InterpretationInput:
    slug = key.replace("_", "-")
    return InterpretationInput(
        key=key,
        label=label,
        help=f"Interpretation warstrike.interpretations.{slug}.",
        interpretation=f"warstrike.interpretations.{slug}",
    )


STARTING_UNITS = IntInput(
    key="starting_units",
    label="Starting units",
    help="How many units the Strike Force started the game with.",
    minimum=1,
    maximum=MAX_UNITS,
)
REMAINING_UNITS = IntInput(
    key="remaining_units",
    label="Units alive or in reserve",
    help="Units of the Strike Force still alive (on the table) or still in reserve.",
    minimum=0,
    maximum=MAX_UNITS,
)


NOT_GIVEN_TEXT = "required unless hive_mind=true"
"""How a left-out ``officer_ld`` / ``officer_lds`` reads in help (only a Hive Mind force may)."""

OFFICER_LD = OptionalInput(
    inner=IntInput(
        key="officer_ld",
        label="Officer Ld",
        help="Ld of the officer who tests — with several officers alive on the table, the best Ld; "
        "'none' when no officer is alive on the table (an empty value is not 'none'). Required unless "
        "hive_mind=true: a Hive Mind force has no officer and may leave it out (a number is ignored "
        "with a warning, or leads the force under the officer-leads reading).",
        minimum=0,
        maximum=MAX_LD,
    ),
    words={"none": None},
    default=NOT_GIVEN,
    form_start=8,
    left_out=NOT_GIVEN_TEXT,
)
"""An officer's Ld, ``none``, or left out (empty text; the check allows that only for Hive Mind).

>>> OFFICER_LD.parse("none") is None, OFFICER_LD.parse("") is NOT_GIVEN, OFFICER_LD.parse("8")
(True, True, 8)
"""
HIVE_MIND = BoolInput(
    key="hive_mind",
    label="Hive Mind",
    help="Every unit that tests takes its own Ld test; more failures than passes withdraws.",
    default=False,
)
UNIT_LDS = IntListInput(
    key="unit_lds",
    label="Ld of each testing unit",
    help="Hive Mind only: comma-separated Ld of every unit that tests (e.g. 7,7,6), one per unit.",
    minimum=0,
    maximum=MAX_LD,
    max_length=MAX_UNITS,
    default=(),
)
FANATICAL = BoolInput(
    key="fanatical",
    label="Fanatical",
    help="A check that would make the force flee may be rolled again once.",
    default=False,
)
UNITS_IN_RESERVE = IntInput(
    key="units_in_reserve",
    label="Units in reserve",
    help="How many of the remaining units are in reserve (Hive Mind on-table-only reading; reserves step).",
    minimum=0,
    maximum=MAX_UNITS,
    default=0,
)
CHECKED_BEFORE = BoolInput(
    key="checked_before",
    label="Already checked this game",
    help="The force took a Strike Force Morale check in an earlier Starting Phase; it matters only "
    "under the once reading of warstrike.interpretations.check-every-phase.",
    default=False,
)
RULES_VERSION = ChoiceInput(
    key="rules_version",
    label="Rules draft",
    help="Which draft of the WarStrike Starting Phase to apply (versions.yaml).",
    choices=tuple(r.version for r in rulesets()),
    default=rulesets()[-1].version,
)
MORALE_INTERPRETATIONS = (
    _interp("ld_test", "Ld test"),
    _interp("morale_threshold", "Less than half"),
    _interp("hive_mind_tie", "Hive Mind tie"),
    _interp("hive_mind_who_tests", "Hive Mind: who tests"),
    _interp("no_units_left", "No units left"),
    _interp("fanatical_hive_mind", "Fanatical Hive Mind"),
    _interp("fanatical_without_officer", "Fanatical without officer"),
    _interp("hive_mind_officers", "Hive Mind officers"),
    _interp("check_every_phase", "Check every phase"),
)


def _morale_options(values: Mapping[str, Any]) -> MoraleOptions:
    options: MoraleOptions = MoraleOptions(
        ld_test=values["ld_test"],
        morale_threshold=values["morale_threshold"],
        hive_mind_tie=values["hive_mind_tie"],
        hive_mind_who_tests=values["hive_mind_who_tests"],
        no_units_left=values["no_units_left"],
        fanatical_hive_mind=values["fanatical_hive_mind"],
        fanatical_without_officer=values["fanatical_without_officer"],
        hive_mind_officers=values["hive_mind_officers"],
        check_every_phase=values["check_every_phase"],
        rules_version=values["rules_version"],
    )
    return options


def _check_force(
    values: Mapping[str, Any],
    *,
    remaining: int,
    remaining_key: str,
    officer: Any,
    officer_key: str,
    more_officer_text: str,
    no_officer_hint: str,
) -> None:
    """Cross-field checks shared by both calculators.

    ``officer`` is NOT_GIVEN when ``officer_key`` (``officer_ld`` or ``officer_lds``) was left
    out, otherwise whether an officer is alive on the table.
    """
    starting = values["starting_units"]
    if remaining > starting:
        raise InputError(
            remaining_key,
            f"units alive or in reserve ({remaining}) cannot exceed starting_units ({starting})",
        )
    reserve = values["units_in_reserve"]
    if reserve > remaining:
        raise InputError(
            "units_in_reserve", f"at most the {remaining} remaining units can be in reserve, got {reserve}"
        )
    hive_mind = values["hive_mind"]
    if officer is NOT_GIVEN:
        if not hive_mind:
            raise InputError(officer_key, f"{more_officer_text} (only a Hive Mind force may leave it out)")
        officer = False
    if officer and remaining == 0:
        raise InputError(
            officer_key, f"no unit remains, so no officer can be alive on the table; {no_officer_hint}"
        )
    if officer and remaining == reserve:
        raise InputError(
            officer_key,
            f"an officer alive on the table needs a unit on the table, but all {remaining} remaining "
            f"units are in reserve; {no_officer_hint}",
        )
    lds = values["unit_lds"]
    votes = hive_mind and (not officer or values["hive_mind_officers"] == "no-officers")
    if votes:
        testers = remaining - (reserve if values["hive_mind_who_tests"] == "on-table-only" else 0)
        options = MoraleOptions(
            morale_threshold=values["morale_threshold"], rules_version=values["rules_version"]
        )
        once = values["check_every_phase"] == "once" and values["checked_before"]
        if not lds and (once or not check_required(starting, remaining, options)):
            return  # no check is due: the vote is not needed
        if len(lds) != testers:
            what = (
                "all remaining units"
                if values["hive_mind_who_tests"] == "alive-or-in-reserve"
                else "units on the table"
            )
            raise InputError(
                "unit_lds",
                f"a Hive Mind force needs the Ld of each of the {testers} units that test "
                f"(comma-separated), got {len(lds)} values" + ("" if len(lds) == 0 else f"; {what} test"),
            )
    elif lds and not hive_mind:
        raise InputError(
            "unit_lds", "only a Hive Mind force tests unit by unit; leave it empty or set hive_mind=true"
        )
    elif lds:
        raise InputError("unit_lds", "under the officer-leads reading the officer tests: leave it empty")


def _check_morale(values: Mapping[str, Any]) -> None:
    _check_force(
        values,
        remaining=values["remaining_units"],
        remaining_key="remaining_units",
        officer=NOT_GIVEN if values["officer_ld"] is NOT_GIVEN else values["officer_ld"] is not None,
        officer_key="officer_ld",
        more_officer_text="give an integer from 0 to 12, or 'none' when no officer is alive on the table",
        no_officer_hint="give none",
    )


def _hive_officer_warning(
    hive_mind: bool, officer: bool, key: str, options: MoraleOptions
) -> tuple[str, ...]:
    if hive_mind and officer and options.hive_mind_officers == "no-officers":
        return (f"{key} is ignored: a Hive Mind force has no officer, its units vote instead.",)
    return ()


def _vote_table(passes: Any, testers: int) -> Table:
    rows = tuple((k, testers - k, fraction_str(p), float(p)) for k, p in passes)
    return Table(
        name="vote",
        title="Hive Mind vote: chance of each number of passing units (before any Fanatical re-roll)",
        columns=("passes", "failures", "p_exact", "p"),
        rows=rows,
    )


def retreat_by_ld_table() -> Table:
    """P(retreat) of an officer-led force that must check, by officer Ld and Ld-test reading.

    >>> retreat_by_ld_table().rows[6]
    (8, '5/18', '25/324', '5/12', '5/18')
    """
    rows = tuple(
        (
            ld,
            fraction_str(1 - officer_ld_test(ld).p_pass()),
            fraction_str(1 - officer_ld_test(ld, fanatical=True).p_pass()),
            fraction_str(1 - officer_ld_test(ld, "2d6-below").p_pass()),
            fraction_str(1 - officer_ld_test(ld, "2d6-natural-extremes").p_pass()),
        )
        for ld in range(2, MAX_LD + 1)
    )
    return Table(
        name="retreat_by_officer_ld",
        title="P(retreat) when a check is due, by the officer's Ld",
        columns=("officer Ld", "2D6 ≤ Ld", "2D6 ≤ Ld, Fanatical", "2D6 < Ld", "2D6 ≤ Ld, double 1/6"),
        rows=rows,
        note="Exact fractions. Without an officer on the table the check fails: P(retreat) = 1.",
    )


def hive_mind_table(lds: range = range(5, 10), sizes: range = range(1, 9)) -> Table:
    """P(withdraw) of a Hive Mind force whose testing units all share one Ld.

    >>> hive_mind_table(range(7, 8), range(1, 3)).rows
    ((1, '5/12'), (2, '25/144'))
    """
    rows = tuple(
        (
            n,
            *(
                fraction_str(
                    strike_force_morale(
                        starting_units=2 * n + 1, remaining_units=n, hive_mind=True, unit_lds=(ld,) * n
                    ).p_retreat
                )
                for ld in lds
            ),
        )
        for n in sizes
    )
    return Table(
        name="hive_mind_withdraw",
        title="Hive Mind: P(withdraw) by number of testing units (rows) and their Ld (columns)",
        columns=("units", *(f"Ld {ld}" for ld in lds)),
        rows=rows,
        note="Exact fractions; a tie fights on, so an even number of units is safer than one more.",
    )


def trigger_table() -> Table:
    """The largest number of units alive or in reserve that still forces a check.

    >>> trigger_table().rows[3]
    (7, 3, 2, 3)
    """
    readings: tuple[Threshold, ...] = ("exact-half", "half-rounded-down", "at-most-half")
    rows = tuple(
        (
            s,
            *(
                max(
                    (r for r in range(s + 1) if check_required(s, r, MoraleOptions(morale_threshold=t))),
                    default="—",
                )
                for t in readings
            ),
        )
        for s in range(4, 21)
    )
    return Table(
        name="check_threshold",
        title="Largest count of units alive or in reserve that forces a Strike Force Morale check",
        columns=("starting units", *readings),
        rows=rows,
    )


def _morale_reference_tables() -> list[Table]:
    return [trigger_table(), retreat_by_ld_table(), hive_mind_table()]


@calculator(
    "warstrike.strike-force-morale",
    title="Strike Force Morale",
    summary="""Whether a WarStrike Strike Force must take a Strike Force Morale check, and the exact
    chance it retreats or fights on: an officer's Ld test, automatic failure without an officer,
    a Hive Mind vote of every testing unit, and Fanatical's re-roll.""",
    inputs=[
        STARTING_UNITS,
        REMAINING_UNITS,
        OFFICER_LD,
        HIVE_MIND,
        UNIT_LDS,
        FANATICAL,
        UNITS_IN_RESERVE,
        CHECKED_BEFORE,
        RULES_VERSION,
        *MORALE_INTERPRETATIONS,
    ],
    outputs=[
        Output("check_required", "Check required", "bool", "Fewer than half the starting units remain."),
        Output("p_retreat", "P(retreat)", "probability", "Chance the force leaves the table this phase."),
        Output("p_fight_on", "P(fight on)", "probability", "Chance the force fights on."),
        Output(
            "p_retreat_if_checked",
            "P(retreat) if it checks",
            "probability",
            "Chance of retreat were a check taken (equals p_retreat when one is required); left out "
            "for a Hive Mind force that needs no check and gave no unit_lds.",
        ),
        Output("mode", "Who tests", "text", "officer, hive-mind, no-officer or no-units."),
        Output("vote", "Hive Mind vote", "table", "Distribution of the number of passing units."),
    ],
    rules=[
        "warstrike.morale.trigger",
        "warstrike.morale.officer-test",
        "warstrike.morale.no-officer",
        "warstrike.morale.hive-mind",
        "warstrike.morale.fanatical",
    ],
    check=_check_morale,
    examples=[
        {"starting_units": "10", "remaining_units": "4", "officer_ld": "8"},
        {"starting_units": "10", "remaining_units": "4", "officer_ld": "8", "fanatical": "true"},
        {
            "starting_units": "12",
            "remaining_units": "5",
            "officer_ld": "none",
            "hive_mind": "true",
            "unit_lds": "7,7,6,6,8",
        },
        {"starting_units": "8", "remaining_units": "3", "officer_ld": "none"},
        {"starting_units": "12", "remaining_units": "5", "hive_mind": "true", "unit_lds": "7,7,6,6,8"},
    ],
    reference_tables=_morale_reference_tables,
)
def strike_force_morale_calculator(
    *,
    starting_units: int,
    remaining_units: int,
    officer_ld: Any,
    hive_mind: bool,
    unit_lds: tuple[int, ...],
    fanatical: bool,
    units_in_reserve: int,
    checked_before: bool,
    **interpretations: Any,
) -> CalcResult:
    """Exact Strike Force Morale result with the log that explains it."""
    options = _morale_options(interpretations)
    officer_ld = None if officer_ld is NOT_GIVEN else officer_ld
    r = strike_force_morale(
        starting_units=starting_units,
        remaining_units=remaining_units,
        officer_ld=officer_ld,
        hive_mind=hive_mind,
        unit_lds=unit_lds,
        fanatical=fanatical,
        units_in_reserve=units_in_reserve,
        options=options,
        checked_before=checked_before,
    )
    values: dict[str, Any] = {
        "check_required": r.check_required,
        **probability_values("p_retreat", r.p_retreat),
        **probability_values("p_fight_on", r.p_fight_on),
        "mode": r.mode,
    }
    if r.p_retreat_if_checked is not None:  # unknown: Hive Mind, no check due, no unit_lds
        values |= probability_values("p_retreat_if_checked", r.p_retreat_if_checked)
    tables = (_vote_table(r.passes, r.testers),) if r.passes is not None else ()
    return CalcResult(
        values=values,
        tables=tables,
        explanation=r.log,
        warnings=_hive_officer_warning(hive_mind, officer_ld is not None, "officer_ld", options),
    )


# -- the whole phase ---------------------------------------------------------------------------

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
    maximum=MAX_UNITS,
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
    left_out=NOT_GIVEN_TEXT,
)


def _counter(key: str, label: str, help: str) -> IntInput:
    return IntInput(key=key, label=label, help=help, minimum=0, maximum=MAX_UNITS, default=0)


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


def _check_phase(values: Mapping[str, Any]) -> None:
    officers = values["officer_lds"]
    _check_force(
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


def _reserves_table() -> Table:
    m = mission(MISSION.default)
    return Table(
        name="reserve_arrivals",
        title=f"Reserve arrivals under the placeholder roll ({m.reserves.describe()})",
        columns=("units in reserve", "expected arrivals", "P(none arrive)", "P(all arrive)"),
        rows=tuple(
            (n, fraction_str(d.mean()), fraction_str(d.p(0)), fraction_str(d.p(n)))
            for n in range(1, 6)
            for d in [_arrivals(n)]
        ),
        note="PLACEHOLDER: the Missions chapter that defines the reserve roll is missing from the draft.",
    )


def _arrivals(n: int) -> Any:
    from rulesbook.systems.warstrike.rules import reserve_arrivals

    m = mission(MISSION.default)
    return reserve_arrivals(m, n, turn=m.reserves.from_turn)


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
        STARTING_UNITS,
        UNITS_ON_TABLE,
        UNITS_IN_RESERVE,
        OFFICER_LDS,
        HIVE_MIND,
        UNIT_LDS,
        FANATICAL,
        CHECKED_BEFORE,
        *COUNTER_INPUTS,
        RULES_VERSION,
        _interp("several_officers", "Several officers"),
        _interp("victory_whose_conditions", "Whose conditions"),
        _interp("retreat_and_victory", "Retreat vs victory"),
        _interp("reserves_roll", "Reserve roll"),
        _interp("officer_attempts", "Officers who may test"),
        *MORALE_INTERPRETATIONS,
    ],
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
        Output("arrivals", "Reserve arrivals", "table", "Distribution of arriving reserve units."),
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
    reference_tables=lambda: [_reserves_table()],
)
def starting_phase_calculator(
    *,
    mission: str,
    side: Any,
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
    several_officers: Any,
    victory_whose_conditions: Any,
    retreat_and_victory: Any,
    reserves_roll: Any,
    officer_attempts: Any,
    **interpretations: Any,
) -> CalcResult:
    """The Starting Phase of one side, exactly, with its step-by-step log."""
    officer_lds = () if officer_lds is NOT_GIVEN else officer_lds
    from rulesbook.systems.warstrike.missions import mission as get_mission

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
    options = PhaseOptions(
        morale=_morale_options(interpretations),
        several_officers=several_officers,
        victory_whose_conditions=victory_whose_conditions,
        retreat_and_victory=retreat_and_victory,
        reserves_roll=reserves_roll,
        officer_attempts=officer_attempts,
    )
    r = starting_phase(
        force,
        get_mission(mission),
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
        options=options,
    )
    values: dict[str, Any] = {"check_required": r.morale.check_required}
    for key in ("retreat", "victory", "defeat", "continue"):
        values.update(probability_values(f"p_{key}", r.outcome[key]))
    values["conditions_met"] = list(r.conditions_met)
    values["expected_arrivals"] = float(r.arrivals.mean())
    values["expected_arrivals_exact"] = fraction_str(r.arrivals.mean())
    arrivals = Table(
        name="arrivals",
        title="Reserve units arriving, if the game goes on",
        columns=("units arriving", "p_exact", "p"),
        rows=tuple((k, fraction_str(p), float(p)) for k, p in r.arrivals),
    )
    warnings = _hive_officer_warning(hive_mind, bool(officer_lds), "officer_lds", options.morale)
    return CalcResult(values=values, tables=(arrivals,), explanation=r.log, warnings=warnings)
