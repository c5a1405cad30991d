"""The WarStrike Strike Force Morale calculator and its reference tables.

``warstrike.strike-force-morale`` is the public contract of the issue (input and result keys
are fixed); ``warstrike.starting-phase`` (:mod:`rulesbook.systems.warstrike.phase_calculator`)
runs all three steps of the phase against a mission. The inputs both share are declared in
:mod:`rulesbook.systems.warstrike.inputs`; the compute functions receive the system's choice set
(:mod:`rulesbook.systems.warstrike.choices`) with the readings the inputs picked.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("warstrike.strike-force-morale")
    >>> r = calc.run(starting_units=10, remaining_units=4, officer_ld=8)
    >>> r["check_required"], r["p_retreat_exact"], r["p_fight_on_exact"]
    (True, '5/18', '13/18')
    >>> from rulesbook.errors import InputError
    >>> try:
    ...     calc.parse_assignments(["starting_units=6", "remaining_units=2", "officer_ld=none", "hive_mind=true"])
    ... except InputError as err:
    ...     print(err.field, "|", err.message)
    unit_lds | a Hive Mind force needs the Ld of each of the 2 units that test (comma-separated), got 0 values
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rulesbook.calculators import Output, calculator
from rulesbook.inputs import NOT_GIVEN, IntInput
from rulesbook.results import CalcResult, Column, Distribution, Table
from rulesbook.systems.warstrike import inputs as shared
from rulesbook.systems.warstrike.choices import CHOICES, WarStrikeChoices, WarStrikeReadings
from rulesbook.systems.warstrike.rules import MAX_LD, check_required, officer_ld_test, strike_force_morale
from rulesbook.systems.warstrike.versions import draft_choices

__all__ = [
    "hive_mind_table",
    "retreat_by_ld_table",
    "strike_force_morale_calculator",
    "trigger_table",
]

REMAINING_UNITS = IntInput(
    key="remaining_units",
    label="Units alive or in reserve",
    help="Units of the Strike Force still alive (on the table) or still in reserve.",
    minimum=0,
    maximum=shared.MAX_UNITS,
)


def _check_morale(values: Mapping[str, Any], choices: Any) -> None:
    shared.check_force(
        values,
        remaining=values["remaining_units"],
        remaining_key="remaining_units",
        officer=NOT_GIVEN if values["officer_ld"] is NOT_GIVEN else values["officer_ld"] is not None,
        officer_key="officer_ld",
        more_officer_text="give an integer from 0 to 12, or 'none' when no officer is alive on the table",
        no_officer_hint="give none",
    )


VOTE_COLUMNS = (
    Column("passes", "Units passing"),
    Column("failures", "Units failing"),
    Column("p", "Probability", "probability"),
)
"""Labels of the Hive Mind vote table."""


def _vote_table(passes: Distribution[int], testers: int) -> Table:
    return Table(
        name="vote",
        title="Hive Mind vote: chance of each number of passing units (before any Fanatical re-roll)",
        columns=("passes", "failures", "p_exact", "p"),
        column_info=VOTE_COLUMNS,
        rows=tuple((k, testers - k, p, float(p)) for k, p in passes),
    )


def _p_retreat_when_due(ld: int, choices: WarStrikeChoices, fanatical: bool = False) -> Fraction:
    return 1 - officer_ld_test(ld, choices, fanatical=fanatical).p_pass()


def retreat_by_ld_table() -> Table:
    """P(retreat) of an officer-led force that must check, by officer Ld and Ld-test reading.

    >>> retreat_by_ld_table().rows[6]
    (8, Fraction(5, 18), Fraction(25, 324), Fraction(5, 12), Fraction(5, 18))
    """
    below, extremes = (
        CHOICES.replace(readings={"ld_test": k}) for k in ("2d6-below", "2d6-natural-extremes")
    )
    rows = tuple(
        (
            ld,
            _p_retreat_when_due(ld, CHOICES),
            _p_retreat_when_due(ld, CHOICES, fanatical=True),
            _p_retreat_when_due(ld, below),
            _p_retreat_when_due(ld, extremes),
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
    ((1, Fraction(5, 12)), (2, Fraction(25, 144)))
    """
    rows = tuple(
        (
            n,
            *(
                strike_force_morale(
                    starting_units=2 * n + 1, remaining_units=n, hive_mind=True, unit_lds=(ld,) * n
                ).p_retreat
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
    readings = WarStrikeReadings.spec("morale_threshold").options
    rows = tuple(
        (
            s,
            *(
                max(
                    (
                        r
                        for r in range(s + 1)
                        if check_required(s, r, CHOICES.replace(readings={"morale_threshold": t}))
                    ),
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
        shared.STARTING_UNITS,
        REMAINING_UNITS,
        shared.OFFICER_LD,
        shared.HIVE_MIND,
        shared.UNIT_LDS,
        shared.FANATICAL,
        shared.UNITS_IN_RESERVE,
        shared.CHECKED_BEFORE,
        shared.RULES_VERSION,
        *shared.MORALE_READINGS,
    ],
    choices=CHOICES,
    tests=("ld-test",),
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
            when="unless a Hive Mind force needs no check and gave no unit_lds",
        ),
        Output("mode", "Who tests", "text", "officer, hive-mind, no-officer or no-units."),
        Output(
            "vote",
            "Hive Mind vote",
            "table",
            "Distribution of the number of passing units.",
            columns=VOTE_COLUMNS,
            chart=("passes", "p"),
            when="a Hive Mind force's units vote (unit_lds given)",
        ),
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
    rules_version: str,
    choices: WarStrikeChoices,
) -> CalcResult:
    """Exact Strike Force Morale result with the log that explains it."""
    choices = draft_choices(rules_version, choices)
    officer_ld = None if officer_ld is NOT_GIVEN else officer_ld
    r = strike_force_morale(
        starting_units=starting_units,
        remaining_units=remaining_units,
        officer_ld=officer_ld,
        hive_mind=hive_mind,
        unit_lds=unit_lds,
        fanatical=fanatical,
        units_in_reserve=units_in_reserve,
        choices=choices,
        checked_before=checked_before,
    )
    values: dict[str, Any] = {
        "check_required": r.check_required,
        "p_retreat": r.p_retreat,
        "p_fight_on": r.p_fight_on,
        "mode": r.mode,
    }
    if r.p_retreat_if_checked is not None:  # unknown: Hive Mind, no check due, no unit_lds
        values["p_retreat_if_checked"] = r.p_retreat_if_checked
    tables = (_vote_table(r.passes, r.testers),) if r.passes is not None else ()
    return CalcResult(
        values=values,
        tables=tables,
        explanation=r.log,
        warnings=shared.hive_officer_warning(hive_mind, officer_ld is not None, "officer_ld", choices),
    )
