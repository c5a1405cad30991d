"""Scrollhammer calculators for one fleeing move: off the table, trapped, through friends, panic.

Example:
    >>> from rulesbook.registry import registry
    >>> r = registry().calculator("scrollhammer.fall-back-move").run(distance=8)
    >>> r["p_flees_exact"], r["p_trapped_exact"]
    ('5/12', '0')
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rulesbook.calculators import Output, calculator, distribution_output
from rulesbook.dice import DiceExpr
from rulesbook.errors import InputError
from rulesbook.inputs import NOT_GIVEN, DiceInput, IntInput, IntListInput, optional
from rulesbook.present.numbers import fixed
from rulesbook.results import CalcResult, Column, fraction_str
from rulesbook.systems.scrollhammer.calculators import LD_INPUT, MODIFIER_INPUT
from rulesbook.systems.scrollhammer.choices import CHOICES, ScrollhammerChoices, ScrollhammerReadings
from rulesbook.systems.scrollhammer.fall_back import (
    fall_back_roll,
    move_outcome,
    panic_cascade,
    passes_through_friends,
)
from rulesbook.systems.scrollhammer.fall_back_calculators import FALL_BACK_DICE_INPUT, MAX_DISTANCE
from rulesbook.systems.scrollhammer.rules import panic_test
from rulesbook.systems.scrollhammer.strength import (
    STRENGTH_INPUTS,
    check_strength,
    strength_lines,
    strength_of,
)

__all__ = ["panic_test_calculator"]


# -- Panic test and Panic cascade ----------------------------------------------------------------


@calculator(
    "scrollhammer.panic-test",
    title="Panic test",
    summary="""Chance that a unit holds its ground when a friendly unit falls back through it.""",
    inputs=[LD_INPUT, MODIFIER_INPUT, *STRENGTH_INPUTS],
    outputs=[
        Output("p_pass", "P(hold)", "probability"),
        Output("p_fall_back", "P(Fall Back)", "probability"),
    ],
    rules=[
        "scrollhammer.morale.panic-test",
        "scrollhammer.morale.check",
        "scrollhammer.morale.modifiers",
        "scrollhammer.morale.insane-heroism",
    ],
    examples=[{"ld": "7"}],
    choices=CHOICES,
    tests=("panic-test",),
    check=check_strength,
)
def panic_test_calculator(
    *,
    ld: int,
    modifier: int,
    models_left: int | None = None,
    starting_models: int | None = None,
    choices: ScrollhammerChoices,
) -> CalcResult:
    """Exact P(pass) of a Panic test."""
    strength = strength_of(models_left, starting_models)
    test = panic_test(ld, modifier, choices, strength)
    p = test.p_pass()
    lines = [
        *strength_lines(strength, choices),
        f"A Morale check at Ld {test.target}: P(hold) = {fraction_str(p)}; failing, the unit Falls Back too.",
    ]
    return CalcResult({"p_pass": p, "p_fall_back": 1 - p}, (), tuple(lines))


@calculator(
    "scrollhammer.panic-cascade",
    title="Panic cascade",
    summary="""A unit falls back through a line of friendly units and each of them takes a Panic
    test. The exact distribution of how many units of the line end up falling back; a switch turns
    the line into a chain in which only a unit that panicked carries the rout on.""",
    inputs=[
        IntListInput(
            key="lds",
            label="Leadership of each unit in the line",
            help="Ld of the friendly units, in the order the fleeing units reach them (comma-separated).",
            minimum=0,
            maximum=12,
            min_length=1,
            max_length=10,
            default=(7, 7, 7),
        ),
        MODIFIER_INPUT,
        ScrollhammerReadings.input(
            "panic_cascade",
            label="Cascade model",
        ),
    ],
    outputs=[
        Output("p_none", "P(no unit of the line flees)", "probability"),
        Output("p_at_least_one", "P(at least one flees)", "probability"),
        Output("p_all", "P(the whole line flees)", "probability"),
        Output("expected", "Expected units fleeing", "number"),
        distribution_output(
            "distribution",
            "How many flee",
            Column("units_fleeing", "Units fleeing"),
            "How many units of the line flee, with its chance.",
        ),
    ],
    rules=[
        "scrollhammer.morale.panic-test",
        "scrollhammer.fall-back.through-friends",
        "scrollhammer.morale.check",
        "scrollhammer.morale.insane-heroism",
    ],
    examples=[
        {"lds": "7,7,7"},
        {"lds": "7,7,7", "panic_cascade": "next-unit"},
        {"lds": "8,6,9", "panic_cascade": "whole-line-each-time"},
    ],
    choices=CHOICES,
    tests=("panic-test",),
)
def panic_cascade_calculator(
    *, lds: tuple[int, ...], modifier: int, choices: ScrollhammerChoices
) -> CalcResult:
    """The distribution of the number of panicking units."""
    fails = [1 - panic_test(ld, modifier, choices).p_pass() for ld in lds]
    dist = panic_cascade(fails, choices)
    mean = dist.mean()
    lines = [
        "Panic test failure chances along the line: " + ", ".join(fraction_str(f) for f in fails) + ".",
        f"Expected number of units of the line that flee: {fixed(float(mean), 3)}.",
    ]
    values = {
        "p_none": dist.p(0),
        "p_at_least_one": 1 - dist.p(0),
        "p_all": dist.p(len(lds)),
        "expected": mean,
    }
    return CalcResult(values, (dist.table("units_fleeing"),), tuple(lines))


# -- one Fall Back move ---------------------------------------------------------------------------


def _check_move(values: Mapping[str, Any], choices: Any) -> None:
    if values["distance"] is None and values["blocked_after"] is None:
        raise InputError("distance", "give the distance to the table edge, blocked_after, or both")


@calculator(
    "scrollhammer.fall-back-move",
    title="One Fall Back move",
    summary="""One Fall Back roll: the chance that the unit runs off the table, that it is trapped
    (destroyed) because it cannot make its full move, or that it simply moves. Units with
    models of different speeds flee at the pace of the slowest.""",
    inputs=[
        FALL_BACK_DICE_INPUT,
        optional(
            DiceInput(
                key="slowest_model_dice",
                label="Slowest model's dice",
                help="Fall Back dice of the unit's slowest kind of model; 'same' (the default) when "
                "every model rolls fall_back_dice.",
                min_value=1,
            ),
            "same",
            form_start=NOT_GIVEN,
            word_in_json=True,
        ),
        ScrollhammerReadings.input(
            "slowest_model",
            label="Mixed speeds",
        ),
        optional(
            IntInput(
                key="distance",
                label='Distance to table edge (")',
                help="Inches to the table edge, or none if it is out of reach.",
                minimum=1,
                maximum=MAX_DISTANCE,
            ),
            default=8,
        ),
        optional(
            IntInput(
                key="blocked_after",
                label='Free path (")',
                help="Inches the unit can move before it is hemmed in on every side, or none in open ground.",
                minimum=0,
                maximum=MAX_DISTANCE,
            )
        ),
        ScrollhammerReadings.input(
            "trapped_fit",
            label="Exact fit",
        ),
    ],
    outputs=[
        Output("p_flees", "P(off the table)", "probability"),
        Output("p_trapped", "P(trapped, destroyed)", "probability"),
        Output("p_moves", "P(just moves)", "probability"),
        Output("mean_move", "Mean roll", "number"),
        distribution_output(
            "distribution",
            "Fall Back roll",
            Column("inches", 'Roll (")'),
            "Every Fall Back roll in inches, with its chance.",
        ),
    ],
    rules=[
        "scrollhammer.fall-back.distance",
        "scrollhammer.fall-back.table-edge",
        "scrollhammer.fall-back.trapped",
    ],
    check=_check_move,
    examples=[
        {"distance": "8"},
        {"distance": "none", "blocked_after": "5"},
        {"fall_back_dice": "2D6", "slowest_model_dice": "D6", "distance": "6"},
    ],
    choices=CHOICES,
)
def fall_back_move_calculator(
    *,
    fall_back_dice: DiceExpr,
    slowest_model_dice: DiceExpr | None,
    distance: int | None,
    blocked_after: int | None,
    choices: ScrollhammerChoices,
) -> CalcResult:
    """Outcome of one Fall Back move."""
    kinds = [fall_back_dice]
    if isinstance(slowest_model_dice, DiceExpr) and slowest_model_dice != fall_back_dice:
        kinds.append(slowest_model_dice)  # 'same' (None) means every model rolls fall_back_dice
    roll = fall_back_roll(kinds, choices)
    p: dict[str, Fraction] = {"flees": Fraction(0), "trapped": Fraction(0), "moves": Fraction(0)}
    for r, q in roll:
        p[move_outcome(r, distance, blocked_after, choices)] += q
    lines = [f"The unit's Fall Back roll has mean {fixed(float(roll.mean()))}\"."]
    if distance is not None:
        lines.append(f'A roll of {distance}" or more reaches the table edge: {fraction_str(p["flees"])}.')
    if blocked_after is not None:
        lines.append(f'The way is blocked after {blocked_after}": trapped with {fraction_str(p["trapped"])}.')
    values = {
        "p_flees": p["flees"],
        "p_trapped": p["trapped"],
        "p_moves": p["moves"],
        "mean_move": float(roll.mean()),
    }
    return CalcResult(values, (roll.table("inches"),), tuple(lines))


@calculator(
    "scrollhammer.fall-back-through-friends",
    title="Falling back through friends",
    summary="""A fleeing unit heads for a friendly unit. The chance that its roll carries it
    completely past them (they take a Panic test), that they panic too, or that they are an
    obstacle it must go round.""",
    inputs=[
        IntInput(
            key="clear_distance",
            label='Distance to clear the friends (")',
            help="Inches from the fleeing unit to the far side of the friendly unit; a roll must exceed it.",
            minimum=0,
            maximum=MAX_DISTANCE,
            default=6,
        ),
        FALL_BACK_DICE_INPUT,
        IntInput(
            key="friend_ld",
            label="Friendly unit's Ld",
            help="Leadership of the unit passed through.",
            minimum=0,
            maximum=12,
            default=7,
        ),
        MODIFIER_INPUT,
    ],
    outputs=[
        Output("p_passes_through", "P(passes through)", "probability", "The friends take a Panic test."),
        Output("p_friend_falls_back", "P(friends flee too)", "probability"),
        Output("p_obstacle", "P(friends block the way)", "probability"),
    ],
    rules=[
        "scrollhammer.fall-back.through-friends",
        "scrollhammer.morale.panic-test",
        "scrollhammer.morale.check",
        "scrollhammer.morale.insane-heroism",
        "scrollhammer.fall-back.distance",
    ],
    examples=[{"clear_distance": "6", "friend_ld": "7"}],
    choices=CHOICES,
    tests=("panic-test",),
)
def through_friends_calculator(
    *,
    clear_distance: int,
    fall_back_dice: DiceExpr,
    friend_ld: int,
    modifier: int,
    choices: ScrollhammerChoices,
) -> CalcResult:
    """One Fall Back roll against a friendly unit in the way."""
    roll = fall_back_roll([fall_back_dice], choices)
    through = sum((q for r, q in roll if passes_through_friends(r, clear_distance)), Fraction(0))
    panic = 1 - panic_test(friend_ld, modifier, choices).p_pass()
    lines = [
        f'A roll above {clear_distance}" clears the friends: {fraction_str(through)}.',
        f"They then fail their Panic test with {fraction_str(panic)}.",
    ]
    values = {"p_passes_through": through, "p_friend_falls_back": through * panic, "p_obstacle": 1 - through}
    return CalcResult(values, (), tuple(lines))
