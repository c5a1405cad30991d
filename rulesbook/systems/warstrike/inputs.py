"""What both WarStrike calculators ask for, declared once, and the checks they share.

The situation inputs (units, officers, Hive Mind, Fanatical, the rules draft), the readings of
the interpretations register that change a Strike Force Morale check (generated from
:class:`~rulesbook.systems.warstrike.choices.WarStrikeReadings`), and the cross-field check of
a Strike Force that ``warstrike.strike-force-morale`` and ``warstrike.starting-phase`` both run.

Example:
    >>> OFFICER_LD.parse("none") is None, OFFICER_LD.parse("") is NOT_GIVEN, OFFICER_LD.parse("8")
    (True, True, 8)
    >>> [i.key for i in MORALE_READINGS][:3]
    ['ld_test', 'morale_threshold', 'hive_mind_tie']
    >>> choices_of({"hive_mind_tie": "withdraw", "rules_version": "0.52"}).readings.hive_mind_tie
    'withdraw'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesbook.errors import InputError
from rulesbook.inputs import (
    NOT_GIVEN,
    BoolInput,
    ChoiceInput,
    IntInput,
    IntListInput,
    OptionalInput,
)
from rulesbook.systems.warstrike.choices import CHOICES, WarStrikeChoices, WarStrikeReadings
from rulesbook.systems.warstrike.rules import MAX_LD, check_required
from rulesbook.systems.warstrike.versions import draft_choices, rulesets

__all__ = [
    "CHECKED_BEFORE",
    "FANATICAL",
    "HIVE_MIND",
    "MAX_UNITS",
    "MORALE_READINGS",
    "NOT_GIVEN_TEXT",
    "OFFICER_LD",
    "RULES_VERSION",
    "STARTING_UNITS",
    "UNITS_IN_RESERVE",
    "UNIT_LDS",
    "check_force",
    "choices_of",
    "hive_officer_warning",
]

MAX_UNITS = 60

STARTING_UNITS = IntInput(
    key="starting_units",
    label="Starting units",
    help="How many units the Strike Force started the game with.",
    minimum=1,
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
"""An officer's Ld, ``none``, or left out (empty text; the check allows that only for Hive Mind)."""

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
MORALE_READINGS = (
    WarStrikeReadings.input("ld_test", label="Ld test"),
    WarStrikeReadings.input("morale_threshold", label="Less than half"),
    WarStrikeReadings.input("hive_mind_tie", label="Hive Mind tie"),
    WarStrikeReadings.input("hive_mind_who_tests", label="Hive Mind: who tests"),
    WarStrikeReadings.input("no_units_left", label="No units left"),
    WarStrikeReadings.input("fanatical_hive_mind", label="Fanatical Hive Mind"),
    WarStrikeReadings.input("fanatical_without_officer", label="Fanatical without officer"),
    WarStrikeReadings.input("hive_mind_officers", label="Hive Mind officers"),
    WarStrikeReadings.input("check_every_phase", label="Check every phase"),
)
"""The reading inputs of a Strike Force Morale check (both calculators offer them)."""


def choices_of(values: Mapping[str, Any], base: WarStrikeChoices = CHOICES) -> WarStrikeChoices:
    """The choice set that validated inputs pick: their readings, under their rules draft."""
    readings = {s.key: values[s.key] for s in WarStrikeReadings.specs() if s.key in values}
    return draft_choices(values["rules_version"], base.replace(readings=readings))


def check_force(
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
    _check_unit_lds(values, remaining=remaining, reserve=reserve, officer=bool(officer))


def _check_unit_lds(values: Mapping[str, Any], *, remaining: int, reserve: int, officer: bool) -> None:
    """``unit_lds`` gives one Ld per voting unit when a Hive Mind vote is due, none otherwise."""
    choices = choices_of(values)
    readings = choices.readings
    lds = values["unit_lds"]
    hive_mind = values["hive_mind"]
    if hive_mind and (not officer or readings.hive_mind_officers == "no-officers"):
        on_table_only = readings.hive_mind_who_tests == "on-table-only"
        testers = remaining - (reserve if on_table_only else 0)
        once = readings.check_every_phase == "once" and values["checked_before"]
        if not lds and (once or not check_required(values["starting_units"], remaining, choices)):
            return  # no check is due: the vote is not needed
        if len(lds) != testers:
            what = "units on the table" if on_table_only else "all remaining units"
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


def hive_officer_warning(
    hive_mind: bool, officer: bool, key: str, choices: WarStrikeChoices
) -> tuple[str, ...]:
    """The warning that an officer given for a voting Hive Mind force is ignored (or nothing)."""
    if hive_mind and officer and choices.readings.hive_mind_officers == "no-officers":
        return (f"{key} is ignored: a Hive Mind force has no officer, its units vote instead.",)
    return ()
