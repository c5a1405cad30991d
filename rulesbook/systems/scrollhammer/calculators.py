"""Scrollhammer calculators, declared once (inputs, outputs, rules) around pure functions.

Example:
    >>> from rulesbook.registry import registry
    >>> result = registry().calculator("scrollhammer.morale-check").run(ld=7, modifier=-1)
    >>> result["p_pass_exact"], result["modified_ld"]
    ('5/12', 6)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from rulesbook.calculators import Output, calculator
from rulesbook.dice import GRID_LIMIT, Outcome, RollTest
from rulesbook.errors import InputError
from rulesbook.inputs import BoolInput, ChoiceInput, IntInput
from rulesbook.present.numbers import percent
from rulesbook.present.rolls import rolls_text
from rulesbook.results import CalcResult, Column, Table, fraction_str
from rulesbook.systems.scrollhammer.choices import CHOICES, ScrollhammerChoices, ScrollhammerReadings
from rulesbook.systems.scrollhammer.rules import (
    SPECIAL_RULES,
    Requirement,
    SpecialRule,
    TestKind,
    casualties_test_needed,
    casualties_threshold,
    leadership_requirement,
    morale_check,
    p_pinned,
    strength_modifier,
)
from rulesbook.systems.scrollhammer.strength import (
    STRENGTH_INPUTS,
    check_strength,
    strength_lines,
    strength_of,
)

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
LD_BOUNDS_INPUT = ScrollhammerReadings.input(
    "ld_bounds",
    label="Modified Ld bounds",
    help="Interpretation scrollhammer.interpretations.ld-bounds: is the modified Ld capped?",
)
POSITIVE_MODIFIERS_INPUT = ScrollhammerReadings.input(
    "positive_modifiers",
    label="Positive modifiers",
    help="Interpretation scrollhammer.interpretations.positive-modifiers: does a positive total raise Ld?",
)
HEROISM_LOW_LD_INPUT = ScrollhammerReadings.input(
    "heroism_low_ld",
    label="Double 1 below Ld 2",
)
HEROISM_FALLING_BACK_INPUT = ScrollhammerReadings.input(
    "heroism_when_falling_back",
    label="Double 1 while falling back",
)


def probability_rows(items: Iterable[tuple[Any, Fraction]]) -> tuple[tuple[Any, str, float], ...]:
    """Table rows ``(key, exact, float)`` of probabilities by some key.

    >>> probability_rows([(1, Fraction(1, 4))])
    ((1, '1/4', 0.25),)
    """
    return tuple((key, fraction_str(p), float(p)) for key, p in items)


def _word(outcome: Outcome) -> str:
    return "pass" if outcome >= Outcome.PASS else "fail"


def outcome_grid_table(test: RollTest) -> Table:
    """The equally likely rolls: for 2D6 a 6×6 pass/fail grid (first die × second die).

    Other Leadership dice (a variant) list every natural roll with its outcome, as long as the
    dice decide it face by face and there are at most :data:`~rulesbook.dice.GRID_LIMIT` rolls;
    otherwise (re-rolled or exploding dice, or more rolls) the table gives P(pass) by total.

    >>> from rulesbook.systems.scrollhammer.rules import morale_check
    >>> outcome_grid_table(morale_check(ld=3)).rows[0]
    ('1', 'pass', 'pass', 'fail', 'fail', 'fail', 'fail')
    >>> from rulesbook.systems.scrollhammer.choices import CHOICES
    >>> big = CHOICES.replace(parameters={"leadership_dice": "5D6"})
    >>> outcome_grid_table(morale_check(ld=8, choices=big)).rows[0]
    (5, 'pass')
    """
    size = test.grid_size()
    if not 0 < size <= GRID_LIMIT:
        dist = test.dice.distribution()
        totals = tuple((total, _word(test.judge_total(total, None))) for total, _ in dist)
        return Table(
            "outcomes",
            f"Every {test.dice} total (natural rolls such as Insane Heroism aside)",
            ("total", "outcome"),
            totals,
            column_info=(Column("total", "Total"), Column("outcome", "Outcome")),
        )
    grid = dict(test.outcome_grid())
    if not (test.dice.is_simple and test.dice.count == 2):
        rolls = tuple(("-".join(map(str, faces)), _word(outcome)) for faces, outcome in grid.items())
        return Table(
            "outcomes",
            f"Every {test.dice} roll",
            ("roll", "outcome"),
            rolls,
            column_info=(Column("roll", "Roll"), Column("outcome", "Outcome")),
        )
    sides = range(1, test.dice.sides + 1)
    rows = tuple((str(a), *(_word(grid[(a, b)]) for b in sides)) for a in sides)
    return Table(
        name="outcomes",
        title="Every 2D6 roll: first die (rows) × second die (columns)",
        columns=("first die", *(str(b) for b in sides)),
        rows=rows,
        column_info=(Column("first die", "First die"),),
    )


SPECIAL_RULE_COLUMNS = (
    Column("special_rule", "Special rule"),
    Column("morale-check", "Morale check", "probability"),
    Column("leadership-test", "Other Leadership test", "probability"),
)
"""Labels of the "Special rules compared" table."""


def pass_table(
    lds: range = range(2, 13), modifiers: range = range(-3, 2), choices: ScrollhammerChoices = CHOICES
) -> Table:
    """P(pass) of a Morale check for each Ld (rows) and modifier (columns), exact.

    >>> t = pass_table(range(7, 8), range(-1, 1))
    >>> t.columns, t.rows
    (('ld', '-1', '+0'), ((7, '5/12', '7/12'),))
    """
    cols = tuple(f"{m:+d}" for m in modifiers)
    rows = tuple(
        (ld, *(fraction_str(morale_check(ld, m, choices).p_pass()) for m in modifiers)) for ld in lds
    )
    return Table(
        name="p_pass_by_ld",
        title="P(pass) of a Morale check by Leadership (rows) and modifier (columns)",
        columns=("ld", *cols),
        rows=rows,
        column_info=(Column("ld", "Ld"),),
        note=f"Exact fractions; Insane Heroism {'on' if choices.parameters.insane_heroism else 'off'}.",
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
        POSITIVE_MODIFIERS_INPUT,
        *STRENGTH_INPUTS,
    ],
    outputs=[
        Output("p_pass", "P(pass)", "probability", "Chance the check passes."),
        Output("p_fail", "P(fail)", "probability", "Chance the check fails."),
        Output("modified_ld", "Modified Ld", "number", "Ld after modifiers (and any cap)."),
        Output(
            "outcomes",
            "2D6 outcome grid",
            "table",
            "Every roll of the two dice, pass or fail.",
            columns=(Column("first die", "First die"), Column("roll", "Roll"), Column("outcome", "Outcome")),
        ),
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
    choices=CHOICES,
    tests=("morale-check",),
    check=check_strength,
)
def morale_check_calculator(
    *,
    ld: int,
    modifier: int,
    insane_heroism: bool,
    falling_back: bool,
    models_left: int | None = None,
    starting_models: int | None = None,
    choices: ScrollhammerChoices,
) -> CalcResult:
    """Exact P(pass) of a Scrollhammer Morale check with the outcome grid behind it.

    Switching ``insane_heroism`` off switches off the rule's parameter for this check.
    """
    if not insane_heroism:
        choices = choices.replace(parameters={"insane_heroism": False})
    strength = strength_of(models_left, starting_models)
    test = morale_check(ld, modifier, choices, falling_back=falling_back, strength=strength)
    p = test.p_pass()
    grid = outcome_grid_table(test)
    capped = ""
    weak = strength_modifier(strength, choices)
    if modifier + weak > 0 and choices.readings.positive_modifiers == "ignored":
        capped = " (a positive total counts as 0)"
    elif test.target != ld + modifier + weak:
        capped = " (capped)"
    lines = strength_lines(strength, choices)
    lines.append(f"Modified Ld = {ld} {modifier:+d}{f' {weak:+d}' if weak else ''} = {test.target}{capped}.")
    if test.always_fail:
        lines.append("The unit is falling back, so the check fails automatically.")
    else:
        lines.append(f"A {test.dice} total of {test.target} or less passes.")
    if test.auto_pass:
        lines.append(_heroism_line(test))
    if test.reroll == "none" and 0 < test.grid_size() <= GRID_LIMIT:
        natural = test.outcome_grid()
        passing = sum(outcome >= Outcome.PASS for _, outcome in natural)
        lines.append(
            f"{passing} of the {len(natural)} equally likely rolls pass: "
            f"P(pass) = {fraction_str(p)} ≈ {percent(float(p))}."
        )
    else:
        lines.append(f"P(pass) = {fraction_str(p)} ≈ {percent(float(p))}.")
    values = {"p_pass": p, "p_fail": 1 - p, "modified_ld": test.target}
    return CalcResult(values=values, tables=(grid,), explanation=tuple(lines))


def _heroism_line(test: RollTest) -> str:
    """The Insane Heroism line of an explanation, naming the natural rolls that pass whatever
    the total (a double 1 in the published rules; a variant may name any set of them).

    >>> from rulesbook.dice import parse_dice
    >>> _heroism_line(RollTest(dice=parse_dice("3D6kl2"), target=7, auto_pass=frozenset({(1, 1)})))
    'A roll whose 2 kept dice all show 1 passes whatever the modifiers (Insane Heroism).'
    >>> _heroism_line(RollTest(dice=parse_dice("2D6"), target=7, auto_pass=frozenset({(1, 1), (2, 2)})))
    'A double 1 or 2 passes whatever the modifiers (Insane Heroism).'
    """
    rolls = rolls_text(test.auto_pass, test.dice, test.reads)
    return f"{rolls[0].upper()}{rolls[1:]} passes whatever the modifiers (Insane Heroism)."


# -- special units and the four triggers --------------------------------------------------------

SPECIAL_RULE_INPUT = ChoiceInput(
    key="special_rule",
    label="Army Book special rule",
    help="An exemption from morale the unit has, if any.",
    choices=SPECIAL_RULES,
    default="none",
)
TEST_KIND_INPUT = ChoiceInput(
    key="test_kind",
    label="Kind of test",
    help="A Morale check, or another Leadership test (a Shout, a Regroup test).",
    choices=("morale-check", "leadership-test"),
    default="morale-check",
)
IMMUNE_UNITS_INPUT = ScrollhammerReadings.input(
    "immune_units",
    label="Immune to morale means",
)


def _p_with_requirement(requirement: Requirement, test: RollTest) -> Fraction:
    return test.p_pass() if requirement == "roll" else Fraction(1)


def special_rules_table(ld: int, modifier: int = 0, choices: ScrollhammerChoices = CHOICES) -> Table:
    """P(pass) of each kind of test for each special rule, at one Ld (exact).

    >>> special_rules_table(7).rows[2]
    ('always-passes-morale', '1', '7/12')
    """
    test = morale_check(ld, modifier, choices)
    rows = tuple(
        (
            rule,
            *(
                fraction_str(_p_with_requirement(leadership_requirement(kind, rule, choices), test))
                for kind in ("morale-check", "leadership-test")
            ),
        )
        for rule in SPECIAL_RULES
    )
    return Table(
        name="by_special_rule",
        title=f"P(pass) at Ld {ld}{modifier:+d}: Morale check vs. other Leadership test",
        columns=("special_rule", "morale-check", "leadership-test"),
        rows=rows,
        column_info=SPECIAL_RULE_COLUMNS,
        note="A test that is not taken counts as passed: the unit suffers no ill effect.",
    )


@calculator(
    "scrollhammer.leadership-test",
    title="Leadership test and special units",
    summary="""Chance that a unit passes a Morale check or another Leadership test (a Shout, a
    Regroup test), for ordinary units and for units immune to morale, units that always pass
    Morale checks and units that always pass every Leadership test.""",
    inputs=[
        LD_INPUT,
        MODIFIER_INPUT,
        TEST_KIND_INPUT,
        SPECIAL_RULE_INPUT,
        IMMUNE_UNITS_INPUT,
        *STRENGTH_INPUTS,
    ],
    outputs=[
        Output("p_pass", "P(pass)", "probability", "Chance the test is passed (or not needed)."),
        Output("p_fail", "P(fail)", "probability", "Chance the test is failed."),
        Output("requirement", "What happens", "text", "roll, automatic-pass or not-taken."),
        Output(
            "by_special_rule",
            "Special rules compared",
            "table",
            "Every special rule at this Ld.",
            columns=SPECIAL_RULE_COLUMNS,
        ),
    ],
    rules=[
        "scrollhammer.morale.special-units",
        "scrollhammer.morale.check",
        "scrollhammer.morale.modifiers",
        "scrollhammer.morale.insane-heroism",
    ],
    examples=[
        {"ld": "7", "test_kind": "leadership-test", "special_rule": "always-passes-morale"},
        {"ld": "7", "special_rule": "immune-to-morale"},
    ],
    reference_tables=lambda: [special_rules_table(7)],
    choices=CHOICES,
    tests=("morale-check", "leadership-test"),
    check=check_strength,
)
def leadership_test_calculator(
    *,
    ld: int,
    modifier: int,
    test_kind: TestKind,
    special_rule: SpecialRule,
    models_left: int | None = None,
    starting_models: int | None = None,
    choices: ScrollhammerChoices,
) -> CalcResult:
    """P(pass) of a Leadership test for a unit with an Army Book exemption."""
    requirement = leadership_requirement(test_kind, special_rule, choices)
    strength = strength_of(models_left, starting_models)
    test = morale_check(ld, modifier, choices, strength=strength, test=test_kind)
    p = _p_with_requirement(requirement, test)
    words = {
        "roll": f"The unit rolls 2D6 against Ld {test.target}.",
        "automatic-pass": "The unit passes without rolling.",
        "not-taken": "The unit does not take Morale checks at all: morale has no effect on it.",
    }
    lines = [
        *strength_lines(strength, choices),
        words[requirement],
        f"P(pass) = {fraction_str(p)} ≈ {percent(float(p))}.",
    ]
    if special_rule == "always-passes-morale" and test_kind == "leadership-test":
        lines.append("Always passing Morale checks does not cover other Leadership tests such as Shouts.")
    values = {"p_pass": p, "p_fail": 1 - p, "requirement": requirement}
    return CalcResult(values, (special_rules_table(ld, modifier, choices),), tuple(lines))


PINNING_TESTS_INPUT = ScrollhammerReadings.input(
    "pinning_tests",
    label="Tests per phase",
)


@calculator(
    "scrollhammer.pinning-test",
    title="Pinning test",
    summary="""Chance that a unit ends up Pinned Down after unsaved wounds from one or more
    Pinning attacks in a Shooting phase.""",
    inputs=[
        LD_INPUT,
        MODIFIER_INPUT,
        IntInput(
            key="pinning_attacks",
            label="Pinning attacks",
            help="How many separate Pinning attacks caused the unit unsaved wounds this phase.",
            minimum=1,
            maximum=20,
            default=1,
        ),
        PINNING_TESTS_INPUT,
        *STRENGTH_INPUTS,
    ],
    outputs=[
        Output("p_pinned", "P(Pinned Down)", "probability", "Chance at least one Pinning test fails."),
        Output("p_pass", "P(pass one test)", "probability", "Chance a single Pinning test passes."),
        Output(
            "by_attacks",
            "By number of attacks",
            "table",
            columns=(Column("attacks", "Pinning attacks"), Column("p", "P(Pinned Down)", "probability")),
            chart=("attacks", "p"),
        ),
    ],
    rules=[
        "scrollhammer.morale.pinning-test",
        "scrollhammer.morale.check",
        "scrollhammer.morale.modifiers",
        "scrollhammer.morale.insane-heroism",
    ],
    examples=[
        {"ld": "8", "pinning_attacks": "2"},
        {"ld": "8", "pinning_attacks": "2", "pinning_tests": "per-phase"},
    ],
    choices=CHOICES,
    tests=("pinning-test",),
    check=check_strength,
)
def pinning_test_calculator(
    *,
    ld: int,
    modifier: int,
    pinning_attacks: int,
    models_left: int | None = None,
    starting_models: int | None = None,
    choices: ScrollhammerChoices,
) -> CalcResult:
    """P(Pinned Down) after Pinning attacks."""
    strength = strength_of(models_left, starting_models)
    test = morale_check(ld, modifier, choices, strength=strength, test="pinning-test")
    p = p_pinned(test, pinning_attacks, choices)
    rows = probability_rows((n, p_pinned(test, n, choices)) for n in range(1, 7))
    tests = pinning_attacks if choices.readings.pinning_tests == "per-attack" else 1
    lines = [
        *strength_lines(strength, choices),
        f"One Pinning test passes with {fraction_str(test.p_pass())}.",
        f"The unit takes {tests} test(s) and is pinned if any fails: "
        f"1 − ({fraction_str(test.p_pass())})^{tests} = {fraction_str(p)}.",
    ]
    values = {"p_pinned": p, "p_pass": test.p_pass()}
    table = Table(
        "by_attacks", "P(Pinned Down) by number of Pinning attacks", ("attacks", "p_exact", "p"), rows
    )
    return CalcResult(values, (table,), tuple(lines))


CASUALTIES_ROUNDING_INPUT = ScrollhammerReadings.input(
    "casualties_rounding",
    label="25 % threshold",
)


def _check_casualties(values: Mapping[str, Any], choices: Any) -> None:
    if values["models_lost"] > values["models_at_start"]:
        raise InputError(
            "models_lost",
            f"a unit cannot lose more models than it had ({values['models_at_start']}), "
            f"got {values['models_lost']}",
        )


def casualties_table(choices: ScrollhammerChoices = CHOICES) -> Table:
    """Losses that force the 25 % test, for units of 1 to 20 models.

    >>> casualties_table().rows[9]
    (10, 3)
    """
    rows = tuple((n, casualties_threshold(n, choices)) for n in range(1, 21))
    return Table(
        "losses_needed",
        "Losses in one Shooting phase that force the 25 % test",
        ("models", "losses_needed"),
        rows,
        column_info=(Column("models", "Models at the start"), Column("losses_needed", "Losses needed")),
    )


@calculator(
    "scrollhammer.casualties-test",
    title="25 % casualties test",
    summary="""Whether a unit's losses in one Shooting phase force a Morale check, and the chance
    that it then Falls Back.""",
    inputs=[
        LD_INPUT,
        MODIFIER_INPUT,
        IntInput(
            key="models_at_start",
            label="Models at the start of the phase",
            help="Models in the unit when the Shooting phase began.",
            minimum=1,
            maximum=200,
            default=10,
        ),
        IntInput(
            key="models_lost",
            label="Models lost this phase",
            help="Models the unit lost during this Shooting phase.",
            minimum=0,
            maximum=200,
            default=3,
        ),
        CASUALTIES_ROUNDING_INPUT,
    ],
    outputs=[
        Output("must_test", "Must test", "bool", "The losses reach 25 % and a model is left."),
        Output("losses_needed", "Losses needed", "count", "The fewest losses that force the test."),
        Output(
            "p_fall_back",
            "P(Fall Back)",
            "probability",
            "Chance the unit Falls Back at the end of the phase.",
        ),
        Output("p_holds", "P(holds)", "probability", "Chance the unit does not Fall Back."),
    ],
    rules=[
        "scrollhammer.morale.casualties-test",
        "scrollhammer.morale.check",
        "scrollhammer.morale.modifiers",
        "scrollhammer.morale.insane-heroism",
    ],
    check=_check_casualties,
    examples=[
        {"ld": "7", "models_at_start": "10", "models_lost": "3"},
        {"ld": "7", "models_at_start": "10", "models_lost": "2", "casualties_rounding": "round-down"},
    ],
    reference_tables=lambda: [casualties_table()],
    choices=CHOICES,
    tests=("casualties-test",),
)
def casualties_test_calculator(
    *, ld: int, modifier: int, models_at_start: int, models_lost: int, choices: ScrollhammerChoices
) -> CalcResult:
    """The 25 % test: is it taken, and P(Fall Back)."""
    need = casualties_threshold(models_at_start, choices)
    must = casualties_test_needed(models_at_start, models_lost, choices)
    strength = (max(models_at_start - models_lost, 0), models_at_start)
    test = morale_check(ld, modifier, choices, strength=strength, test="casualties-test")
    p = (1 - test.p_pass()) if must else Fraction(0)
    if models_lost >= models_at_start:
        lines = ["The unit has no models left: there is nobody to test."]
    elif must:
        lines = [
            f"{models_lost} of {models_at_start} lost ≥ the {need} needed: "
            "the unit tests at the end of the phase.",
            *strength_lines(strength, choices),
            f"It fails, and Falls Back, with {fraction_str(p)}.",
        ]
    else:
        lines = [f"{models_lost} of {models_at_start} lost < the {need} needed: no test."]
    values = {"must_test": must, "losses_needed": need, "p_fall_back": p, "p_holds": 1 - p}
    return CalcResult(values, (), tuple(lines))
