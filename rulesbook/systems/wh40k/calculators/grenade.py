"""``wh40k.grenade``: the Grenade Stratagem's mortal wounds on a unit, exactly.

Grenade is not an attack: six D6 are rolled and each 4+ is one mortal wound on the enemy unit.
Mortal wounds go one at a time, each may be ignored by Feel No Pain, and — as they come from
neither Hazardous nor Devastating Wounds — the excess on a destroyed model is not lost. So the
wounds the unit loses are ``min(W × models, X)`` with ``X`` binomial over six dice, each one
wounding with P(4+) × P(Feel No Pain fails).

Example:
    >>> grenade_wounds(wounds=1, models=10).mean()   # 6 x 1/2
    Fraction(3, 1)
    >>> grenade_wounds(wounds=2, models=1).pmf()[2]   # 1 - P(0 or 1 of 6 dice at 4+) = 57/64
    Fraction(57, 64)
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from rulesbook.calculators import Output, calculator
from rulesbook.dice import D6, RollTest, constant
from rulesbook.inputs import IntInput, optional
from rulesbook.present.numbers import fixed
from rulesbook.registry import implements
from rulesbook.results import CalcResult, Distribution
from rulesbook.systems.wh40k.attack.rolls import packet_weights
from rulesbook.systems.wh40k.attack.weapons import mortal_fnp
from rulesbook.systems.wh40k.calculators.report import dense
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices, Wh40kReadings

__all__ = ["GRENADE_DICE", "GRENADE_ROLL", "grenade_calculator", "grenade_wounds"]

GRENADE_DICE = 6
"""Dice rolled by the Grenade Stratagem (source section GRENADE)."""
GRENADE_ROLL = 4
"""Each die of this or more is one mortal wound."""


@implements("wh40k.death-guard.stratagem.grenade", "wh40k.attack.mortal-wounds", "wh40k.attack.feel-no-pain")
def grenade_wounds(
    wounds: int,
    models: int,
    fnp: int | None = None,
    choices: Wh40kChoices = CHOICES,
    fnp_mortal: int | None = None,
) -> Distribution[int]:
    """Wounds the unit loses to one Grenade (mortal wounds spill from model to model), each
    mortal wound against the Feel No Pain a model has against it (``fnp`` against every wound,
    ``fnp_mortal`` against mortal wounds: :func:`~rulesbook.systems.wh40k.attack.weapons.mortal_fnp`);
    a variant's code for the Grenade or mortal-wound rules reaches it through ``choices``.

    >>> grenade_wounds(1, 10, fnp=6, fnp_mortal=4).mean()   # 6 x 1/2 x 1/2 (the better one)
    Fraction(3, 2)
    """
    rolls = mortal_fnp(fnp, fnp_mortal, choices.readings.fnp_combined)
    weights, den = packet_weights(constant(1), 0, rolls, 1)  # one mortal wound after Feel No Pain
    p = RollTest(dice=D6, target=GRENADE_ROLL, direction="over").p_pass() * Fraction(
        dict(weights).get(1, 0), den
    )
    total = wounds * models
    out: dict[int, Fraction] = {}
    for k in range(GRENADE_DICE + 1):
        lost = min(total, k)
        out[lost] = out.get(lost, Fraction(0)) + comb(GRENADE_DICE, k) * p**k * (1 - p) ** (GRENADE_DICE - k)
    return Distribution.from_pairs(sorted(out.items()))


@calculator(
    "wh40k.grenade",
    title="Grenade Stratagem",
    summary="""Mortal wounds of the Grenade Stratagem on one unit: six D6, each 4+ one mortal
    wound, Feel No Pain per wound, excess carried to the next model. Exact distribution of wounds
    lost and models destroyed.""",
    inputs=[
        IntInput(
            key="wounds",
            label="Wounds per model (W)",
            help="Wounds of each model.",
            minimum=1,
            maximum=40,
            default=2,
        ),
        IntInput(
            key="models", label="Models", help="Models in the target unit.", minimum=1, maximum=40, default=5
        ),
        optional(
            IntInput(
                key="fnp",
                label="Feel No Pain",
                help="The X of Feel No Pain X+, or none.",
                minimum=2,
                maximum=6,
            )
        ),
        optional(
            IntInput(
                key="fnp_mortal",
                label="Feel No Pain (mortal wounds)",
                help="The X of a Feel No Pain X+ against mortal wounds only, or none (with fnp too: reading fnp_combined).",
                minimum=2,
                maximum=6,
            )
        ),
        Wh40kReadings.input("fnp_combined", label="Two Feel No Pain against a mortal wound"),
    ],
    outputs=[
        Output("mean_wounds_lost", "Mean wounds lost", "number", "Wounds the unit loses on average."),
        Output(
            "p_at_least_one_model",
            "P(at least one model destroyed)",
            "probability",
            "Chance a model is destroyed.",
        ),
        Output(
            "models_destroyed",
            "P(exactly k models destroyed)",
            "list",
            "Index k holds P(exactly k models destroyed).",
        ),
    ],
    rules=["wh40k.death-guard.stratagem.grenade", "wh40k.attack.mortal-wounds", "wh40k.attack.feel-no-pain"],
    examples=[{"wounds": "2", "models": "5"}, {"wounds": "1", "models": "10", "fnp": "5"}],
    choices=CHOICES,
)
def grenade_calculator(
    *,
    wounds: int,
    models: int,
    fnp: int | None,
    fnp_mortal: int | None,
    choices: Wh40kChoices,
    **readings: str,
) -> CalcResult:
    """The Grenade's wounds and models destroyed (the reading input is in ``choices``)."""
    lost = grenade_wounds(wounds, models, fnp, choices, fnp_mortal)
    rolls = mortal_fnp(fnp, fnp_mortal, choices.readings.fnp_combined)
    shown = (
        ""
        if rolls is None
        else f", each ignored on a {rolls}+"
        if isinstance(rolls, int)
        else (", each ignored if either " + " or ".join(f"{x}+" for x in rolls) + " succeeds")
    )
    by_model: dict[int, Fraction] = {}
    for k, p in lost:
        by_model[k // wounds] = by_model.get(k // wounds, Fraction(0)) + p
    models_dist = dense(Distribution.from_pairs(sorted(by_model.items())), models + 1)
    values: dict[str, Any] = {
        "mean_wounds_lost": lost.mean(),
        "p_at_least_one_model": 1 - models_dist[0],
        "models_destroyed": models_dist,
    }
    return CalcResult(
        values,
        explanation=(
            f"Six D6, each 4+ a mortal wound{shown}: {fixed(float(lost.mean()))} wounds lost on average.",
        ),
    )
