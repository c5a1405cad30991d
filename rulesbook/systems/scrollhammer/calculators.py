"""Scrollhammer calculators, declared once (inputs, outputs, rules) around pure functions.

Example:
    >>> from rulesbook.registry import registry
    >>> result = registry().calculator("scrollhammer.morale-check").run(ld=7, modifier=-1)
    >>> result["p_pass_exact"], result["modified_ld"]
    ('5/12', 6)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulesbook.calculators import BoolInput, InterpretationInput, IntInput, Output, calculator
from rulesbook.dice import Outcome, RollTest
from rulesbook.results import CalcResult, Table, fraction_str, probability_values
from rulesbook.systems.scrollhammer.rules import morale_check

LD_INPUT = IntInput(
    key="ld",
    label="Leadership (Ld)",
    help="The unit's Leadership characteristic, before modifiers.",
    minimum=0,
    maximum=12,
)
MODIFIER_INPUT = IntInput(
    key="modifier",
    label="Ld modifier",
    help="Sum of every Leadership modifier that applies; it is added to Ld (−1 makes the check harder).",
    minimum=-12,
    maximum=12,
    default=0,
)
INSANE_HEROISM_INPUT = BoolInput(
    key="insane_heroism",
    label="Insane Heroism",
    help="A double 1 always passes (the rule). Switch off to see what the rule is worth.",
    default=True,
)
FALLING_BACK_INPUT = BoolInput(
    key="falling_back",
    label="Already falling back",
    help="A unit that is falling back fails every Morale check.",
    default=False,
)
LD_BOUNDS_INPUT = InterpretationInput(
    key="ld_bounds",
    label="Modified Ld bounds",
    help="Interpretation scrollhammer.interpretations.ld-bounds: is the modified Ld capped?",
    interpretation="scrollhammer.interpretations.ld-bounds",
)
HEROISM_LOW_LD_INPUT = InterpretationInput(
    key="heroism_low_ld",
    label="Double 1 below Ld 2",
    help="Interpretation scrollhammer.interpretations.heroism-low-ld.",
    interpretation="scrollhammer.interpretations.heroism-low-ld",
)
HEROISM_FALLING_BACK_INPUT = InterpretationInput(
    key="heroism_when_falling_back",
    label="Double 1 while falling back",
    help="Interpretation scrollhammer.interpretations.heroism-when-falling-back.",
    interpretation="scrollhammer.interpretations.heroism-when-falling-back",
)


def outcome_grid_table(test: RollTest) -> Table:
    """The 36 equally likely 2D6 rolls as a 6×6 pass/fail grid (first die × second die).

    >>> from rulesbook.systems.scrollhammer.rules import morale_check
    >>> outcome_grid_table(morale_check(ld=3)).rows[0]
    ('1', 'pass', 'pass', 'fail', 'fail', 'fail', 'fail')
    """
    grid = dict(test.outcome_grid())
    sides = range(1, test.dice.sides + 1)
    rows = tuple(
        (str(a), *("pass" if grid[(a, b)] >= Outcome.PASS else "fail" for b in sides)) for a in sides
    )
    return Table(
        name="outcomes",
        title="Every 2D6 roll: first die (rows) × second die (columns)",
        columns=("first die", *(str(b) for b in sides)),
        rows=rows,
    )


def pass_table(lds: range = range(2, 13), modifiers: range = range(-3, 2), **options: Any) -> Table:
    """P(pass) of a Morale check for each Ld (rows) and modifier (columns), exact.

    >>> t = pass_table(range(7, 8), range(-1, 1))
    >>> t.columns, t.rows
    (('ld', '-1', '+0'), ((7, '5/12', '7/12'),))
    """
    cols = tuple(f"{m:+d}" for m in modifiers)
    rows = tuple(
        (ld, *(fraction_str(morale_check(ld, m, **options).p_pass()) for m in modifiers)) for ld in lds
    )
    return Table(
        name="p_pass_by_ld",
        title="P(pass) of a Morale check by Leadership (rows) and modifier (columns)",
        columns=("ld", *cols),
        rows=rows,
        note="Exact fractions; Insane Heroism on.",
    )


def _reference_tables() -> list[Table]:
    return [pass_table()]


@calculator(
    "scrollhammer.morale-check",
    title="Morale check",
    summary="""Chance that a unit passes a Morale check: 2D6 against its modified Leadership,
    with Insane Heroism and the automatic failure of falling-back units.""",
    inputs=[
        LD_INPUT,
        MODIFIER_INPUT,
        INSANE_HEROISM_INPUT,
        FALLING_BACK_INPUT,
        LD_BOUNDS_INPUT,
        HEROISM_LOW_LD_INPUT,
        HEROISM_FALLING_BACK_INPUT,
    ],
    outputs=[
        Output("p_pass", "P(pass)", "probability", "Chance the check passes."),
        Output("p_fail", "P(fail)", "probability", "Chance the check fails."),
        Output("modified_ld", "Modified Ld", "number", "Ld after modifiers (and any cap)."),
        Output("outcomes", "2D6 outcome grid", "table", "Every roll of the two dice, pass or fail."),
    ],
    rules=[
        "scrollhammer.morale.check",
        "scrollhammer.morale.modifiers",
        "scrollhammer.morale.insane-heroism",
        "scrollhammer.morale.falling-back-fails",
    ],
    examples=[
        {"ld": "7", "modifier": "-1"},
        {"ld": "3", "modifier": "-2"},
        {"ld": "9", "falling_back": "true"},
    ],
    reference_tables=_reference_tables,
)
def morale_check_calculator(
    *,
    ld: int,
    modifier: int,
    insane_heroism: bool,
    falling_back: bool,
    ld_bounds: Any,
    heroism_low_ld: Any,
    heroism_when_falling_back: Any,
) -> CalcResult:
    """Exact P(pass) of a Scrollhammer Morale check with the outcome grid behind it."""
    test = morale_check(
        ld,
        modifier,
        insane_heroism=insane_heroism,
        falling_back=falling_back,
        ld_bounds=ld_bounds,
        heroism_low_ld=heroism_low_ld,
        heroism_when_falling_back=heroism_when_falling_back,
    )
    p = test.p_pass()
    grid = outcome_grid_table(test)
    passing = sum(row[1:].count("pass") for row in grid.rows)
    capped = " (capped)" if test.target != ld + modifier else ""
    lines = [f"Modified Ld = {ld} {modifier:+d} = {test.target}{capped}."]
    if falling_back:
        lines.append("The unit is falling back, so the check fails automatically.")
    else:
        lines.append(f"A 2D6 total of {test.target} or less passes.")
    if test.auto_pass:
        lines.append("A double 1 passes whatever the modifiers (Insane Heroism).")
    lines.append(
        f"{passing} of the 36 equally likely rolls pass: P(pass) = {fraction_str(p)} ≈ {float(p):.1%}."
    )
    values: dict[str, Any] = {
        **probability_values("p_pass", p),
        **probability_values("p_fail", Fraction(1) - p),
        "modified_ld": test.target,
    }
    return CalcResult(values=values, tables=(grid,), explanation=tuple(lines))
