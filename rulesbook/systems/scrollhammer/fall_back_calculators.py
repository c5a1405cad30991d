"""Scrollhammer calculators for Fall Back, Regrouping and Panic cascades.

Example:
    >>> from rulesbook.registry import registry
    >>> r = registry().calculator("scrollhammer.fall-back").run(ld=7, distance=2, phases=1)
    >>> r["p_removed_exact"], r["p_regrouped_exact"]
    ('5/12', '7/12')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from rulesbook.calculators import (
    BoolInput,
    DiceInput,
    InterpretationInput,
    IntInput,
    IntListInput,
    OptionalIntInput,
    Output,
    calculator,
)
from rulesbook.dice import DICE_HELP, TWO_D6, DiceExpr
from rulesbook.errors import InputError
from rulesbook.results import CalcResult, Table, fraction_str, probability_values
from rulesbook.systems.scrollhammer.calculators import LD_INPUT, MODIFIER_INPUT
from rulesbook.systems.scrollhammer.fall_back import (
    FallBackChain,
    MovementPhases,
    PanicCascade,
    SlowestModel,
    TrappedFit,
    fall_back_chain,
    fall_back_roll,
    move_outcome,
    passes_through_friends,
)
from rulesbook.systems.scrollhammer.fall_back import (
    panic_cascade as panic_cascade_distribution,
)
from rulesbook.systems.scrollhammer.rules import (
    HeroismInRegroup,
    RegroupHalf,
    at_least_half,
    panic_test,
    regroup_test,
    regroup_when_charged,
)

__all__ = ["SameOrDiceInput", "chain_table", "flee_table"]

MAX_DISTANCE = 120
"""Longest distance to a table edge the calculators accept (inches)."""

FALL_BACK_DICE_INPUT = DiceInput(
    key="fall_back_dice",
    label="Fall Back dice",
    help="The unit's Fall Back roll in inches (2D6 for most units); it must move at least 1\".",
    default=TWO_D6,
    min_value=1,
)


@dataclass(frozen=True, kw_only=True)
class SameOrDiceInput(DiceInput):
    """A dice expression, or the word ``same`` (or nothing): the dice of another input.

    Its value is ``None`` for ``same``; the calculator substitutes the other input's dice.

    >>> inp = SameOrDiceInput(key="slowest_model_dice", help="h", default=None, min_value=1)
    >>> inp.parse("same") is None, inp.parse("") is None, str(inp.parse("D6")), inp.format(None)
    (True, True, 'D6', 'same')
    """

    same_word: str = "same"
    kind: ClassVar[str] = "dice"

    def allowed(self) -> str:
        return f"'{self.same_word}' (or nothing) for the same dice, or {DICE_HELP}"

    def parse(self, text: str) -> Any:
        if text.strip().lower() in (self.same_word, ""):
            return None
        return super().parse(text)

    def _check(self, value: Any) -> Any:
        return None if value is None else super()._check(value)

    def format(self, value: Any) -> str:
        return self.same_word if value is None else str(value)

    def jsonable(self, value: Any) -> Any:
        return self.format(value)


DISTANCE_INPUT = IntInput(
    key="distance",
    label='Distance to table edge (")',
    help="Inches left to the unit's own table edge, measured from the model farthest from it "
    "(interpretation scrollhammer.interpretations.edge-distance).",
    minimum=1,
    maximum=MAX_DISTANCE,
    default=12,
)
MOVEMENT_PHASES_INPUT = InterpretationInput(
    key="movement_phases",
    label="Fall Back in which Movement phases",
    help="Interpretation scrollhammer.interpretations.movement-phases: does the unit also flee "
    "in the opponent's Movement phases?",
    interpretation="scrollhammer.interpretations.movement-phases",
)
HEROISM_IN_REGROUP_INPUT = InterpretationInput(
    key="heroism_in_regroup",
    label="Double 1 in Regroup tests",
    help="Interpretation scrollhammer.interpretations.heroism-in-regroup (matters only at Ld 0 or 1).",
    interpretation="scrollhammer.interpretations.heroism-in-regroup",
)


# -- the Fall Back / Regroup chain ------------------------------------------------------------


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
    dice: DiceExpr = TWO_D6,
    movement_phases: MovementPhases = "own-phases-only",
) -> Table:
    """P(removed at the table edge) by distance (rows) and Ld (columns) over ``phases`` phases.

    >>> flee_table(range(2, 3), range(7, 8), phases=1).rows   # removed whenever the test fails
    ((2, 0.4167),)
    """
    roll = fall_back_roll([dice])
    rows = tuple(
        (
            d,
            *(
                round(
                    float(
                        fall_back_chain(
                            d, regroup_test(ld, at_least_half), roll, phases, movement_phases=movement_phases
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
        note="Distance measured after the first Fall Back move.",
    )


@calculator(
    "scrollhammer.fall-back",
    title="Fall Back and Regroup chain",
    summary="""A unit has just failed a Morale check and made its first Fall Back move. In each of
    the next Movement phases it takes a Regroup test and, failing it, falls back again. The exact
    chances that it has fled off the table, has regrouped, or is still falling back.""",
    inputs=[
        LD_INPUT,
        DISTANCE_INPUT,
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
            help="Switch on to measure the distance before the immediate Fall Back move and roll it too.",
            default=False,
        ),
        HEROISM_IN_REGROUP_INPUT,
        MOVEMENT_PHASES_INPUT,
    ],
    outputs=[
        Output("p_removed", "P(fled off the table)", "probability", "The unit reached its table edge."),
        Output("p_regrouped", "P(regrouped)", "probability", "The unit passed a Regroup test."),
        Output("p_falling_back", "P(still falling back)", "probability", "After the last phase."),
        Output("p_regroup_test", "P(pass one Regroup test)", "probability"),
        Output("phases", "Phase by phase", "table"),
    ],
    rules=[
        "scrollhammer.fall-back.move",
        "scrollhammer.fall-back.distance",
        "scrollhammer.fall-back.table-edge",
        "scrollhammer.regroup.test",
    ],
    examples=[
        {"ld": "7", "distance": "12", "phases": "3"},
        {"ld": "8", "distance": "6", "at_least_half": "false", "phases": "2"},
        {"ld": "7", "distance": "18", "phases": "3", "fall_back_dice": "3D6"},
        {"ld": "7", "distance": "12", "phases": "3", "movement_phases": "every-movement-phase"},
    ],
    reference_tables=lambda: [flee_table(), flee_table(at_least_half=False)],
)
def fall_back_calculator(
    *,
    ld: int,
    distance: int,
    at_least_half: bool,
    phases: int,
    fall_back_dice: DiceExpr,
    first_move: bool,
    heroism_in_regroup: HeroismInRegroup,
    movement_phases: MovementPhases,
) -> CalcResult:
    """The exact Fall Back / Regroup Markov chain."""
    test = regroup_test(ld, at_least_half, heroism_in_regroup)
    chain = fall_back_chain(
        distance,
        test,
        fall_back_roll([fall_back_dice]),
        phases,
        first_move=first_move,
        movement_phases=movement_phases,
    )
    p_test = test.p_pass()
    rule = f"2D6 ≤ {ld}" if at_least_half else "a double 1 only (under half strength)"
    lines = [
        f"Each Regroup test passes with {fraction_str(p_test)} ({rule}).",
        f'A failed test means another {fall_back_dice}" Fall Back move; a roll of at least the '
        f'distance left ({distance}" at the start) takes the unit off the table.',
        f"After {phases} phase(s): fled {float(chain.p_removed):.1%}, "
        f"regrouped {float(chain.p_regrouped):.1%}, "
        f"still falling back {float(chain.p_falling_back):.1%}.",
    ]
    values: dict[str, Any] = {
        **probability_values("p_removed", chain.p_removed),
        **probability_values("p_regrouped", chain.p_regrouped),
        **probability_values("p_falling_back", chain.p_falling_back),
        **probability_values("p_regroup_test", p_test),
    }
    return CalcResult(values, (chain_table(chain),), tuple(lines))


# -- Regroup tests ------------------------------------------------------------------------------


def _check_models(values: Mapping[str, Any]) -> None:
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
        InterpretationInput(
            key="regroup_half",
            label="Exactly half alive",
            help="Interpretation scrollhammer.interpretations.regroup-half.",
            interpretation="scrollhammer.interpretations.regroup-half",
        ),
        HEROISM_IN_REGROUP_INPUT,
    ],
    outputs=[
        Output("p_regroup", "P(regroup)", "probability"),
        Output("at_least_half", "At least half alive", "bool"),
    ],
    rules=["scrollhammer.regroup.test", "scrollhammer.morale.insane-heroism"],
    check=_check_models,
    examples=[
        {"ld": "8", "models_alive": "5", "models_total": "10"},
        {"ld": "8", "models_alive": "4", "models_total": "10"},
    ],
)
def regroup_test_calculator(
    *,
    ld: int,
    models_alive: int,
    models_total: int,
    regroup_half: RegroupHalf,
    heroism_in_regroup: HeroismInRegroup,
) -> CalcResult:
    """P(regroup) of one Regroup test."""
    half = at_least_half(models_alive, models_total, regroup_half)
    p = regroup_test(ld, half, heroism_in_regroup).p_pass()
    lines = [
        f"{models_alive} of {models_total} alive is {'at least' if half else 'under'} half.",
        f"{'A normal Leadership test, 2D6 ≤ ' + str(ld) if half else 'Only a double 1 passes'}: "
        f"P(regroup) = {fraction_str(p)}.",
    ]
    values = {
        **probability_values("p_regroup", p),
        **probability_values("p_stay", 1 - p),
        "at_least_half": half,
    }
    return CalcResult(values, (), tuple(lines))


@calculator(
    "scrollhammer.regroup-when-charged",
    title="Regrouping when charged",
    summary="""A falling-back unit is charged: it tests on its plain Leadership whatever its losses.
    Passing, it regroups where it stands; failing, it is destroyed at the end of the Charge
    sub-phase.""",
    inputs=[LD_INPUT, HEROISM_IN_REGROUP_INPUT],
    outputs=[
        Output("p_regroup", "P(regroup)", "probability"),
        Output("p_destroyed", "P(destroyed)", "probability"),
    ],
    rules=["scrollhammer.regroup.when-charged", "scrollhammer.regroup.multiple-charges"],
    examples=[{"ld": "7"}, {"ld": "1", "heroism_in_regroup": "total-only"}],
)
def regroup_when_charged_calculator(*, ld: int, heroism_in_regroup: HeroismInRegroup) -> CalcResult:
    """P(regroup) of a charged fleeing unit."""
    p = regroup_when_charged(ld, heroism_in_regroup).p_pass()
    lines = [
        f"2D6 ≤ {ld} regardless of losses: P(regroup) = {fraction_str(p)}.",
        f"Otherwise the unit is removed at the end of the Charge sub-phase: {fraction_str(1 - p)}.",
    ]
    values = {**probability_values("p_regroup", p), **probability_values("p_destroyed", 1 - p)}
    return CalcResult(values, (), tuple(lines))


# -- Panic cascade ------------------------------------------------------------------------------


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
        InterpretationInput(
            key="panic_cascade",
            label="Cascade model",
            help="Interpretation scrollhammer.interpretations.panic-cascade.",
            interpretation="scrollhammer.interpretations.panic-cascade",
        ),
    ],
    outputs=[
        Output("p_none", "P(no unit of the line flees)", "probability"),
        Output("p_at_least_one", "P(at least one flees)", "probability"),
        Output("p_all", "P(the whole line flees)", "probability"),
        Output("expected", "Expected units fleeing", "number"),
        Output("distribution", "How many flee", "table"),
    ],
    rules=["scrollhammer.morale.panic-test", "scrollhammer.fall-back.through-friends"],
    examples=[
        {"lds": "7,7,7"},
        {"lds": "7,7,7", "panic_cascade": "next-unit"},
        {"lds": "8,6,9", "panic_cascade": "whole-line-each-time"},
    ],
)
def panic_cascade_calculator(
    *, lds: tuple[int, ...], modifier: int, panic_cascade: PanicCascade
) -> CalcResult:
    """The distribution of the number of panicking units."""
    fails = [1 - panic_test(ld, modifier).p_pass() for ld in lds]
    dist = panic_cascade_distribution(fails, panic_cascade)
    mean = dist.mean()
    lines = [
        "Panic test failure chances along the line: " + ", ".join(fraction_str(f) for f in fails) + ".",
        f"Expected number of units of the line that flee: {float(mean):.3f}.",
    ]
    values: dict[str, Any] = {
        **probability_values("p_none", dist.p(0)),
        **probability_values("p_at_least_one", 1 - dist.p(0)),
        **probability_values("p_all", dist.p(len(lds))),
        "expected": float(mean),
        "expected_exact": fraction_str(mean),
    }
    return CalcResult(values, (dist.table("units_fleeing"),), tuple(lines))


# -- one Fall Back move ---------------------------------------------------------------------------


def _check_move(values: Mapping[str, Any]) -> None:
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
        SameOrDiceInput(
            key="slowest_model_dice",
            label="Slowest model's dice",
            help="Fall Back dice of the unit's slowest kind of model; 'same' (the default) when every "
            "model rolls fall_back_dice.",
            default=None,
            min_value=1,
        ),
        InterpretationInput(
            key="slowest_model",
            label="Mixed speeds",
            help="Interpretation scrollhammer.interpretations.slowest-model.",
            interpretation="scrollhammer.interpretations.slowest-model",
        ),
        OptionalIntInput(
            key="distance",
            label='Distance to table edge (")',
            help="Inches to the table edge, or none if it is out of reach.",
            minimum=1,
            maximum=MAX_DISTANCE,
            default=8,
        ),
        OptionalIntInput(
            key="blocked_after",
            label='Free path (")',
            help="Inches the unit can move before it is hemmed in on every side, or none in open ground.",
            minimum=0,
            maximum=MAX_DISTANCE,
            default=None,
        ),
        InterpretationInput(
            key="trapped_fit",
            label="Exact fit",
            help="Interpretation scrollhammer.interpretations.trapped-fit.",
            interpretation="scrollhammer.interpretations.trapped-fit",
        ),
    ],
    outputs=[
        Output("p_flees", "P(off the table)", "probability"),
        Output("p_trapped", "P(trapped, destroyed)", "probability"),
        Output("p_moves", "P(just moves)", "probability"),
        Output("mean_move", "Mean roll", "number"),
        Output("distribution", "Fall Back roll", "table"),
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
)
def fall_back_move_calculator(
    *,
    fall_back_dice: DiceExpr,
    slowest_model_dice: DiceExpr | None,
    slowest_model: SlowestModel,
    distance: int | None,
    blocked_after: int | None,
    trapped_fit: TrappedFit,
) -> CalcResult:
    """Outcome of one Fall Back move."""
    kinds = [fall_back_dice]
    if slowest_model_dice is not None and slowest_model_dice != fall_back_dice:
        kinds.append(slowest_model_dice)  # 'same' (None) means every model rolls fall_back_dice
    roll = fall_back_roll(kinds, slowest_model)
    p: dict[str, Fraction] = {"flees": Fraction(0), "trapped": Fraction(0), "moves": Fraction(0)}
    for r, q in roll:
        p[move_outcome(r, distance, blocked_after, trapped_fit)] += q
    lines = [f"The unit's Fall Back roll has mean {float(roll.mean()):.2f}\"."]
    if distance is not None:
        lines.append(f'A roll of {distance}" or more reaches the table edge: {fraction_str(p["flees"])}.')
    if blocked_after is not None:
        lines.append(f'The way is blocked after {blocked_after}": trapped with {fraction_str(p["trapped"])}.')
    values: dict[str, Any] = {
        **probability_values("p_flees", p["flees"]),
        **probability_values("p_trapped", p["trapped"]),
        **probability_values("p_moves", p["moves"]),
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
    rules=["scrollhammer.fall-back.through-friends", "scrollhammer.morale.panic-test"],
    examples=[{"clear_distance": "6", "friend_ld": "7"}],
)
def through_friends_calculator(
    *, clear_distance: int, fall_back_dice: DiceExpr, friend_ld: int, modifier: int
) -> CalcResult:
    """One Fall Back roll against a friendly unit in the way."""
    roll = fall_back_roll([fall_back_dice])
    through = sum((q for r, q in roll if passes_through_friends(r, clear_distance)), Fraction(0))
    panic = 1 - panic_test(friend_ld, modifier).p_pass()
    lines = [
        f'A roll above {clear_distance}" clears the friends: {fraction_str(through)}.',
        f"They then fail their Panic test with {fraction_str(panic)}.",
    ]
    values = {
        **probability_values("p_passes_through", through),
        **probability_values("p_friend_falls_back", through * panic),
        **probability_values("p_obstacle", 1 - through),
    }
    return CalcResult(values, (), tuple(lines))
