"""Warhammer 40,000 moves that roll dice: the Charge roll (2D6) and the Advance roll (M + D6),
with an optional Command Re-roll, and the conversion of a measured gap into the Charge roll it
needs (Engagement Range included).

Every roll is a :class:`rulesbook.dice.RollTest` over the dice of the rule parameters
(``charge_dice``, ``advance_dice``); a Command Re-roll is its ``failed`` re-roll policy, which
rolls every die of the total again, once (for a variant's dice that keep or drop, the reading
``rerolled_dice`` says whether the whole roll or only the kept dice are rolled again).

Example:
    A 9" charge: 10 of the 36 rolls of 2D6 reach 9; a Command Re-roll of a failure adds
    26/36 x 10/36:

    >>> charge_test(9).p_pass(), charge_test(9, reroll=True).p_pass()
    (Fraction(5, 18), Fraction(155, 324))
    >>> charge_distance(Fraction(15, 2))   # a 7.5" gap: end within 1", so a 7 is enough
    7
    >>> advance_test(move=6, distance=9).p_pass()   # D6 >= 3
    Fraction(2, 3)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from rulesbook.calculators import Output, calculator
from rulesbook.dice import TWO_D6, DiceExpr, RollTest
from rulesbook.errors import InputError
from rulesbook.inputs import BoolInput, IntInput, TextInput
from rulesbook.present.numbers import percent
from rulesbook.registry import implements
from rulesbook.results import CalcResult, Column, Distribution, Table, fraction_str
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices

__all__ = [
    "DEEP_STRIKE_INCHES",
    "DISEMBARK_INCHES",
    "MAX_GAP",
    "Disembarked",
    "Fighter",
    "InchesInput",
    "advance_calculator",
    "advance_distribution",
    "advance_test",
    "charge_calculator",
    "charge_distance",
    "charge_gap_calculator",
    "charge_test",
    "deep_strike_charge_distance",
    "disembark",
    "fight_order",
    "normal_move_covers",
    "rerolled_dice",
]

MAX_GAP = Fraction(24)
"""The largest gap (inches) the gap helper accepts (charges are declared within 12")."""

_INCHES = re.compile(r"^\s*(?P<whole>[0-9]{1,2})(?:\.(?P<frac>[0-9]{1,3}))?\s*(?:\"|in|inch|inches)?\s*$")


@dataclass(frozen=True, kw_only=True)
class InchesInput(TextInput):
    """A distance in inches with up to three decimals (``7``, ``7.5``, ``7.25"``), as an exact
    :class:`~fractions.Fraction` from 0 to :data:`MAX_GAP`.

    >>> InchesInput(key="gap", help="").parse('7.5"')
    Fraction(15, 2)
    >>> InchesInput(key="gap", help="").parse("seven")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: gap: expected a distance in inches from 0 to 24 such as 7 or 7.5, got 'seven'
    """

    kind: ClassVar[str] = "text"

    def allowed(self) -> str:
        return f"a distance in inches from 0 to {MAX_GAP} such as 7 or 7.5"

    def parse(self, text: str) -> Any:
        match = _INCHES.match(text) if isinstance(text, str) else None
        if match is None:
            raise self.error(text)
        frac = match["frac"] or ""
        value = Fraction(int(match["whole"])) + (Fraction(int(frac), 10 ** len(frac)) if frac else 0)
        if value > MAX_GAP:
            raise self.error(text)
        return value

    def _check(self, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
            raise self.error(value)
        exact = Fraction(value).limit_denominator(1000)
        if not 0 <= exact <= MAX_GAP:
            raise self.error(value)
        return exact

    def format(self, value: Any) -> str:
        return str(float(value)) if Fraction(value).denominator != 1 else str(int(value))

    def jsonable(self, value: Any) -> Any:
        return self.format(value)


# -- the rolls --------------------------------------------------------------------------------


@implements("wh40k.core.charge", "wh40k.core.rerolls")
def charge_test(distance: int, reroll: bool = False, choices: Wh40kChoices = CHOICES) -> RollTest:
    """The Charge roll as a roll test: ``charge_dice`` (2D6) at or above ``distance``; with a
    Command Re-roll both dice are rolled again once when the total falls short.

    >>> charge_test(7).p_pass()
    Fraction(7, 12)
    >>> charge_test(2).p_pass(), charge_test(13).p_pass()
    (Fraction(1, 1), Fraction(0, 1))
    """
    return RollTest(
        dice=choices.parameters.charge_dice,
        target=distance,
        direction="over",
        reroll="failed" if reroll else "none",
        reroll_dice=rerolled_dice(choices.parameters.charge_dice, choices),
    )


@implements("wh40k.core.charge", "wh40k.core.engagement-range")
def charge_distance(gap: Fraction, choices: Wh40kChoices = CHOICES) -> int:
    """The Charge roll a measured gap needs (never below 0).

    By default (interpretation ``charge-gap``) the charging model must end within Engagement
    Range (``engagement_range``, 1"), so the roll covers the gap less 1", rounded up to a whole
    inch; the ``base-contact`` reading needs the whole gap.

    >>> charge_distance(Fraction(9)), charge_distance(Fraction(9, 1), CHOICES.replace(
    ...     readings={"charge_gap": "base-contact"}))
    (8, 9)
    >>> charge_distance(Fraction(1, 2))   # already within Engagement Range
    0
    """
    reach = 0 if choices.readings.charge_gap == "base-contact" else choices.parameters.engagement_range
    return max(0, math.ceil(Fraction(gap) - reach))


@implements("wh40k.core.advance")
def advance_distribution(move: int, choices: Wh40kChoices = CHOICES) -> Distribution[int]:
    """How far a model may Advance: its Move plus the Advance roll (``advance_dice``, D6).

    >>> advance_distribution(6).pmf()[12]
    Fraction(1, 6)
    """
    return choices.parameters.advance_dice.distribution().map(lambda roll: move + roll)


@implements("wh40k.core.advance", "wh40k.core.rerolls")
def advance_test(move: int, distance: int, reroll: bool = False, choices: Wh40kChoices = CHOICES) -> RollTest:
    """Whether M + the Advance roll reaches ``distance``, as a roll test (Command Re-roll: roll
    again once when it falls short).

    >>> advance_test(6, 12).p_pass(), advance_test(6, 12, reroll=True).p_pass()
    (Fraction(1, 6), Fraction(11, 36))
    """
    return RollTest(
        dice=choices.parameters.advance_dice,
        target=distance - move,
        direction="over",
        reroll="failed" if reroll else "none",
        reroll_dice=rerolled_dice(choices.parameters.advance_dice, choices),
    )


@implements("wh40k.core.rerolls")
def rerolled_dice(dice: DiceExpr, choices: Wh40kChoices = CHOICES) -> DiceExpr | None:
    """What a Command Re-roll of a roll of ``dice`` rolls: ``None`` for the whole roll again
    (the default), or under the reading ``rerolled_dice`` ``kept-dice`` only as many dice as
    were kept, added up (:meth:`~rulesbook.dice.DiceExpr.kept_dice`).

    >>> from rulesbook.dice import parse_dice
    >>> kept = CHOICES.replace(readings={"rerolled_dice": "kept-dice"})
    >>> rerolled_dice(parse_dice("3D6kh2")), str(rerolled_dice(parse_dice("3D6kh2"), kept))
    (None, '2D6')
    """
    if choices.readings.rerolled_dice == "kept-dice" and not dice.is_simple:
        return dice.kept_dice()
    return None


DEEP_STRIKE_INCHES = 9
"""A unit arriving by Deep Strike is set up more than this many inches from every enemy model."""

DISEMBARK_INCHES = 3
"""A disembarking unit is set up wholly within this many inches of its TRANSPORT."""


@implements("wh40k.core.normal-move")
def normal_move_covers(move: int, distance: Fraction) -> bool:
    """Whether a Normal move reaches ``distance`` inches: no dice, up to the Move characteristic
    (further needs an Advance, :func:`advance_test`).

    >>> normal_move_covers(6, Fraction(6)), normal_move_covers(6, Fraction(13, 2))
    (True, False)
    """
    return Fraction(distance) <= move


@dataclass(frozen=True, slots=True)
class Disembarked:
    """What a unit that got out of a TRANSPORT this Movement phase may still do."""

    may_move: bool
    may_charge: bool
    remained_stationary: bool = False


@implements("wh40k.core.disembark")
def disembark(transport_moved: bool, transport_advanced_or_fell_back: bool = False) -> Disembarked | None:
    """The limits of a unit that disembarks (``None``: it may not, its TRANSPORT Advanced or
    Fell Back). It never counts as Remained Stationary, so Heavy gives it no +1; after its
    TRANSPORT made a Normal move it may neither move further nor charge.

    >>> disembark(transport_moved=False)
    Disembarked(may_move=True, may_charge=True, remained_stationary=False)
    >>> disembark(transport_moved=True)
    Disembarked(may_move=False, may_charge=False, remained_stationary=False)
    >>> disembark(transport_moved=True, transport_advanced_or_fell_back=True) is None
    True
    """
    if transport_advanced_or_fell_back:
        return None
    return Disembarked(may_move=not transport_moved, may_charge=not transport_moved)


@implements("wh40k.core.deep-strike", "wh40k.core.charge")
def deep_strike_charge_distance(choices: Wh40kChoices = CHOICES) -> int:
    """The Charge roll needed from the closest a Deep Strike allows (just over 9" from every
    enemy model; gaps are measured to 1/1000 inch).

    >>> deep_strike_charge_distance(), deep_strike_charge_distance(
    ...     CHOICES.replace(readings={"charge_gap": "base-contact"}))
    (9, 10)
    """
    return charge_distance(Fraction(DEEP_STRIKE_INCHES) + Fraction(1, 1000), choices)


# -- calculators ------------------------------------------------------------------------------

REROLL_INPUT = BoolInput(
    key="reroll",
    label="Command Re-roll",
    help="Re-roll the roll once if it falls short (Command Re-roll Stratagem, 1CP).",
    default=False,
)


def _charge_table(choices: Wh40kChoices) -> Table:
    rows = []
    for d in range(2, 13):
        plain, again = charge_test(d, False, choices).p_pass(), charge_test(d, True, choices).p_pass()
        rows.append((d, fraction_str(plain), float(plain), fraction_str(again), float(again)))
    return Table(
        name="charge_by_distance",
        title="P(charge succeeds) by the distance the roll must reach",
        columns=("distance", "p_exact", "p", "p_reroll_exact", "p_reroll"),
        rows=tuple(rows),
        column_info=(
            Column("distance", 'Distance (")'),
            Column("p", "P(charge succeeds)", "probability"),
            Column("p_reroll", "With a re-roll", "probability"),
        ),
        note="2D6 at or above the distance; the re-roll column rolls both dice again once after a failure.",
    )


def _charge_outputs() -> list[Output]:
    return [
        Output(
            "p_success", "P(charge succeeds)", "probability", "Chance the Charge roll reaches the distance."
        ),
        Output(
            "p_first_roll",
            "P(first roll succeeds)",
            "probability",
            "Chance without the re-roll (equal to p_success when reroll is false).",
        ),
    ]


def _charge_values(distance: int, reroll: bool, choices: Wh40kChoices) -> tuple[dict[str, Any], str]:
    first = charge_test(distance, False, choices).p_pass()
    p = charge_test(distance, reroll, choices).p_pass()
    dice = choices.parameters.charge_dice
    if reroll:
        again = rerolled_dice(dice, choices)
        which = "both dice" if dice == TWO_D6 else "every die" if again is None else f"the kept dice: {again}"
        formula = "p + (1 − p)·p" if again is None else "p + (1 − p)·q"
        line = (
            f"{dice} ≥ {distance}: {fraction_str(first)} on the first roll; a failed roll is re-rolled "
            f"({which}), so P = {formula} = {fraction_str(p)} ≈ {percent(float(p))}."
        )
    else:
        line = f"{dice} ≥ {distance}: P = {fraction_str(p)} ≈ {percent(float(p))}."
    return {"p_success": p, "p_first_roll": first}, line


@calculator(
    "wh40k.charge",
    title="Charge roll",
    summary="""Chance that a Charge roll (2D6) reaches the distance a charge needs, with or
    without a Command Re-roll of a failed roll.""",
    inputs=[
        IntInput(
            key="distance",
            label="Distance (inches)",
            help=(
                "The inches the Charge roll must reach: 2D6 at or above it succeeds. From a measured "
                "gap, take the gap less 1 inch of Engagement Range, rounded up (wh40k.charge-gap)."
            ),
            minimum=0,
            maximum=24,
        ),
        REROLL_INPUT,
    ],
    outputs=_charge_outputs(),
    rules=["wh40k.core.charge", "wh40k.core.rerolls"],
    choices=CHOICES,
    examples=[{"distance": "9"}, {"distance": "9", "reroll": "true"}, {"distance": "7"}],
    reference_tables=lambda: [_charge_table(CHOICES)],
)
def charge_calculator(*, distance: int, reroll: bool, choices: Wh40kChoices) -> CalcResult:
    """Exact P(the Charge roll reaches ``distance``).

    >>> from rulesbook.registry import registry
    >>> registry().calculator("wh40k.charge").run(distance=9, reroll=True)["p_success_exact"]
    '155/324'
    """
    values, line = _charge_values(distance, reroll, choices)
    return CalcResult(values=values, explanation=(line,))


@calculator(
    "wh40k.charge-gap",
    title="Charge across a measured gap",
    summary="""Turns the gap between the charging model and its target into the Charge roll it
    needs (ending within Engagement Range is enough), then gives the chance of making it.""",
    inputs=[
        InchesInput(
            key="gap",
            label="Gap (inches)",
            help=(
                "Horizontal distance from the charging model to the nearest model of the target, in "
                "inches (7 or 7.5); with several models, the one that must travel furthest."
            ),
        ),
        REROLL_INPUT,
    ],
    outputs=[
        Output("distance", "Charge roll needed", "count", "The inches the 2D6 must reach."),
        *_charge_outputs(),
    ],
    rules=["wh40k.core.charge", "wh40k.core.engagement-range", "wh40k.core.rerolls"],
    choices=CHOICES,
    examples=[{"gap": "7.5"}, {"gap": "10", "reroll": "true"}],
)
def charge_gap_calculator(*, gap: Fraction, reroll: bool, choices: Wh40kChoices) -> CalcResult:
    """Exact P(charge succeeds) across a gap.

    >>> from rulesbook.registry import registry
    >>> r = registry().calculator("wh40k.charge-gap").run(gap="7.5")
    >>> r["distance"], r["p_success_exact"]
    (7, '7/12')
    """
    distance = charge_distance(gap, choices)
    values, line = _charge_values(distance, reroll, choices)
    if choices.readings.charge_gap == "base-contact":
        how = f"the whole gap of {float(gap):g} inches, rounded up"
    else:
        how = (
            f"a gap of {float(gap):g} inches less {choices.parameters.engagement_range} inch of "
            "Engagement Range, rounded up"
        )
    return CalcResult(
        values={"distance": distance, **values}, explanation=(f"Needed: {distance} ({how}).", line)
    )


def _check_advance(values: Any, choices: Any) -> None:
    if values["distance"] < values["move"]:
        raise InputError(
            "distance",
            f"at least the Move {values['move']} (a shorter move needs no Advance), got {values['distance']}",
        )


@calculator(
    "wh40k.advance",
    title="Advance roll",
    summary="""Chance that a model reaches a distance by Advancing (Move + D6), with or without
    a Command Re-roll, and the distribution of how far it may move.""",
    inputs=[
        IntInput(
            key="move",
            label="Move (M)",
            help="The model's Move characteristic in inches.",
            minimum=1,
            maximum=30,
        ),
        IntInput(
            key="distance",
            label="Distance (inches)",
            help="The inches the model must be able to move (at least its Move).",
            minimum=1,
            maximum=40,
        ),
        REROLL_INPUT,
    ],
    outputs=[
        Output(
            "p_success",
            "P(reaches the distance)",
            "probability",
            "Chance that M + the Advance roll is enough.",
        ),
        Output(
            "advance_distance",
            "P(exactly k inches)",
            "list",
            "Index k holds P(the model may move exactly k inches), without the re-roll.",
        ),
        Output("mean_advance_distance", "Mean distance", "number", "Expected M + Advance roll (no re-roll)."),
    ],
    rules=["wh40k.core.advance", "wh40k.core.rerolls"],
    choices=CHOICES,
    check=_check_advance,
    examples=[{"move": "6", "distance": "9"}, {"move": "5", "distance": "10", "reroll": "true"}],
)
def advance_calculator(*, move: int, distance: int, reroll: bool, choices: Wh40kChoices) -> CalcResult:
    """Exact P(M + Advance roll >= ``distance``) and the distribution of M + Advance roll.

    >>> from rulesbook.registry import registry
    >>> registry().calculator("wh40k.advance").run(move=6, distance=9)["p_success_exact"]
    '2/3'
    """
    p = advance_test(move, distance, reroll, choices).p_pass()
    dist = advance_distribution(move, choices)
    dense = [dist.p(k) for k in range(dist.outcomes()[-1] + 1)]
    dice = choices.parameters.advance_dice
    line = f"{move} + {dice} ≥ {distance}: P = {fraction_str(p)} ≈ {percent(float(p))}" + (
        " (a roll that falls short is re-rolled once)." if reroll else "."
    )
    return CalcResult(
        values={"p_success": p, "advance_distance": dense, "mean_advance_distance": dist.mean()},
        explanation=(line, "A unit that Advanced cannot shoot or declare a charge this turn."),
    )


# -- the fight order: the Charge bonus ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fighter:
    """A unit eligible to fight: its name, whose it is (``active``: the player whose turn it is),
    whether it made a Charge move this turn (and so has the Charge bonus), whether it charged
    through Heroic Intervention (no Charge bonus) and whether it has Fights First otherwise."""

    name: str
    active: bool
    charged: bool = False
    heroic_intervention: bool = False
    fights_first: bool = False

    @property
    def has_fights_first(self) -> bool:
        """Fights First from its own ability, or from the Charge bonus of a charge that was not
        a Heroic Intervention."""
        return self.fights_first or (self.charged and not self.heroic_intervention)


@implements("wh40k.core.charge-bonus")
def fight_order(units: list[Fighter] | tuple[Fighter, ...], choices: Wh40kChoices = CHOICES) -> list[str]:
    """The order in which the units fight: the Fights First step, then the rest (register entry
    ``fight-order``). In each step the players alternate, the player whose turn it is not choosing
    first (``published``), or the active player first (``active-first``); a player with no unit
    left in the step passes. Each player's units keep the order given (their choice).

    >>> chargers = Fighter("Plague Marines", active=True, charged=True)
    >>> hi = Fighter("Intercessors", active=False, charged=True, heroic_intervention=True)
    >>> guard = Fighter("Cultists", active=False)
    >>> fight_order([guard, hi, chargers])   # only the charge bonus fights first
    ['Plague Marines', 'Cultists', 'Intercessors']
    >>> fight_order([Fighter("A", active=True, charged=True), Fighter("B", active=False, fights_first=True)])
    ['B', 'A']
    """
    first_player = choices.readings.fight_order == "published"  # True: the non-active player opens
    order: list[str] = []
    for step in (True, False):
        pools = {
            side: [u.name for u in units if u.active == side and u.has_fights_first == step]
            for side in (True, False)
        }
        turn = not first_player  # active == True opens under active-first
        while pools[True] or pools[False]:
            if not pools[turn]:
                turn = not turn
            order.append(pools[turn].pop(0))
            turn = not turn
    return order
