"""The calculator of a lost combat: the Break test (the loser tests Ld at minus what it lost by).

Example:
    >>> from rulesbook.registry import registry
    >>> registry().calculator("scrollhammer.break-test").run(ld=8, lost_by=3)["p_pass_exact"]
    '5/18'
"""

from __future__ import annotations

from rulesbook.calculators import Output, calculator
from rulesbook.inputs import IntInput
from rulesbook.present.numbers import percent
from rulesbook.results import CalcResult, Column, Table, fraction_str
from rulesbook.systems.scrollhammer.calculators import LD_INPUT, probability_rows
from rulesbook.systems.scrollhammer.choices import CHOICES, ScrollhammerChoices
from rulesbook.systems.scrollhammer.rules import break_test
from rulesbook.systems.scrollhammer.strength import (
    STRENGTH_INPUTS,
    check_strength,
    strength_lines,
    strength_of,
)

__all__ = ["break_table", "break_test_calculator"]


def break_table(
    lds: range = range(5, 11), margins: range = range(1, 7), choices: ScrollhammerChoices = CHOICES
) -> Table:
    """P(pass) of a Break test by Ld (rows) and margin of defeat (columns), exact.

    >>> break_table(range(8, 9), range(3, 4)).rows
    ((8, '5/18'),)
    """
    rows = tuple((ld, *(fraction_str(break_test(ld, m, 0, choices).p_pass()) for m in margins)) for ld in lds)
    return Table(
        "break_by_ld",
        "P(pass) of a Break test by Ld (rows) and points lost by (columns)",
        ("ld", *(f"lost by {m}" for m in margins)),
        rows,
        column_info=(Column("ld", "Ld"),),
    )


@calculator(
    "scrollhammer.break-test",
    title="Break test",
    summary="""Chance that a unit that lost a close combat holds its ground: a Morale check at −1 Ld
    for each point it lost by (a double 1 still passes).""",
    inputs=[
        LD_INPUT,
        IntInput(
            key="lost_by",
            label="Lost by",
            help="The winner's combat score minus the loser's (at least 1).",
            minimum=1,
            maximum=30,
            default=1,
        ),
        IntInput(
            key="modifier",
            label="Other Ld modifiers",
            help="Any other Leadership modifiers, summed.",
            minimum=-12,
            maximum=12,
            default=0,
        ),
        *STRENGTH_INPUTS,
    ],
    outputs=[
        Output("p_pass", "P(hold)", "probability", "Chance the unit passes and holds."),
        Output("p_fall_back", "P(Fall Back)", "probability", "Chance it fails and Falls Back."),
        Output("modified_ld", "Modified Ld", "number"),
        Output(
            "by_margin",
            "By margin of defeat",
            "table",
            "P(hold) for every margin from 1 to 8.",
            columns=(Column("lost_by", "Lost by"), Column("p", "P(hold)", "probability")),
            chart=("lost_by", "p"),
        ),
    ],
    rules=[
        "scrollhammer.morale.break-test",
        "scrollhammer.morale.modifiers",
        "scrollhammer.morale.insane-heroism",
        "scrollhammer.morale.check",
    ],
    examples=[{"ld": "8", "lost_by": "3"}, {"ld": "8", "lost_by": "9"}],
    reference_tables=lambda: [break_table()],
    choices=CHOICES,
    tests=("break-test",),
    check=check_strength,
)
def break_test_calculator(
    *,
    ld: int,
    lost_by: int,
    modifier: int,
    models_left: int | None = None,
    starting_models: int | None = None,
    choices: ScrollhammerChoices,
) -> CalcResult:
    """Exact P(pass) of a Break test."""
    strength = strength_of(models_left, starting_models)
    test = break_test(ld, lost_by, modifier, choices, strength)
    p = test.p_pass()
    per_point = choices.parameters.break_ld_per_point
    lost = f"{lost_by}" if per_point == 1 else f"{per_point} × {lost_by}"
    lines = [
        *strength_lines(strength, choices),
        f"Ld {ld} − {lost} (lost by){'' if not modifier else f' {modifier:+d}'} = {test.target}.",
        f"P(hold) = {fraction_str(p)} ≈ {percent(float(p))}.",
    ]
    margins = probability_rows(
        (m, break_test(ld, m, modifier, choices, strength).p_pass()) for m in range(1, 9)
    )
    table = Table(
        "by_margin", f"P(hold) at Ld {ld} by margin of defeat", ("lost_by", "p_exact", "p"), margins
    )
    values = {"p_pass": p, "p_fall_back": 1 - p, "modified_ld": test.target}
    return CalcResult(values, (table,), tuple(lines))
