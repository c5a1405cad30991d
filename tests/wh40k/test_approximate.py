"""The floating-point path of the allocation engine (rulesbook.systems.wh40k.attack.approximate):
the same algorithm as the exact engine, so on inputs both can do every probability agrees to
1e-12; its answers are labelled approximate in the result and in every display; and the hard
work limit stops a computation inside the engine's loops with the cost check's message."""

from __future__ import annotations

import random

import pytest

from rulesbook.dice import parse_dice
from rulesbook.errors import InputError
from rulesbook.present import result_html, result_markdown, result_text
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack.approximate import resolve_float
from rulesbook.systems.wh40k.attack.cost import predicted_cost
from rulesbook.systems.wh40k.attack.engine import resolve
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities
from rulesbook.systems.wh40k.attack.work import WorkLimitExceeded
from rulesbook.systems.wh40k.calculators import path as attack_path
from tests.wh40k.options import Setup, choose

ATTACK = registry().calculator("wh40k.attack")
HEAVY = {
    "attacks": "200",
    "skill": "3",
    "strength": "4",
    "damage": "2D6+3",
    "abilities": "sustained-hits-d6,lethal-hits,devastating-wounds",
    "toughness": "4",
    "save": "7",
    "wounds": "24",
    "models": "40",
    "fnp": "5",
}


def _cases(count: int, seed: int) -> list[tuple[list[Weapon], Target, Setup]]:
    """Seeded sample of inputs the exact engine does quickly: random profiles, abilities,
    sequences, targets and readings (the joint devastating tracking included)."""
    rng = random.Random(seed)
    abilities = (
        "",
        "sustained-hits-1",
        "sustained-hits-d3,lethal-hits",
        "devastating-wounds",
        "lethal-hits,devastating-wounds",
        "sustained-hits-2,devastating-wounds,twin-linked",
        "blast,anti-infantry-4",
    )
    readings = (
        {},
        {"devastating_excess": "spills"},
        {"sustained_roll": "once-per-weapon"},
        {"allocation": "excess-spills"},
        {"devastating_modifiers": "ignore"},
        {"lethal_devastating": "critical-wound"},
    )
    out: list[tuple[list[Weapon], Target, Setup]] = []
    while len(out) < count:
        weapons = [
            Weapon(
                "w",
                parse_dice(rng.choice(("1", "3", "10", "D6", "2D6", "20"))),
                rng.randint(2, 5),
                rng.randint(3, 9),
                -rng.randint(0, 3),
                parse_dice(rng.choice(("1", "2", "D3", "D6", "D6+1", "2D6"))),
                parse_abilities(rng.choice(abilities)),
            )
            for _ in range(rng.choice((1, 1, 2)))
        ]
        target = Target(
            rng.randint(3, 8),
            rng.randint(2, 7),
            rng.choice((1, 2, 3, 5)),
            models=rng.choice((1, 3, 5, 10)),
            fnp=rng.choice((None, 5, 6)),
            damage_reduction=rng.choice((0, 0, 1)),
        )
        options = choose(**rng.choice(readings))
        if predicted_cost(weapons, target, *options).work < 3e8:
            out.append((weapons, target, options))
    return out


@pytest.mark.parametrize(("weapons", "target", "options"), _cases(30, seed=14))
def test_float_path_agrees_with_the_exact_engine(
    weapons: list[Weapon], target: Target, options: Setup
) -> None:
    exact = resolve(weapons, target, *options)
    approx = resolve_float(weapons, target, *options)
    for k, p in enumerate(approx.wounds_lost):
        assert abs(p - float(exact.wounds_lost.p(k))) <= 1e-12
    for k, p in enumerate(approx.models_destroyed):
        assert abs(p - float(exact.models_destroyed.p(k))) <= 1e-12
    assert abs(approx.p_unit_destroyed - float(exact.p_unit_destroyed)) <= 1e-12
    scale = max(1.0, float(exact.mean_wounds_lost))
    assert abs(approx.mean_wounds_lost - float(exact.mean_wounds_lost)) <= 1e-12 * scale
    assert approx.steps == exact.steps  # the explanation view stays exact


@pytest.mark.parametrize(("weapons", "target", "options"), _cases(30, seed=15))
def test_float_cost_prediction_is_never_far_under_the_work_done(
    weapons: list[Weapon], target: Target, options: Setup
) -> None:
    """The floating-point path's prediction is at most 1.5x under its own tally (issue 15)."""
    predicted = predicted_cost(weapons, target, *options).float_work
    done = resolve_float(weapons, target, *options).work
    assert done <= 1.5 * predicted


def test_approximate_answers_are_labelled_everywhere() -> None:
    r = ATTACK.run(**HEAVY)
    assert r["approximate"] is True
    assert not any(key.endswith("_exact") for key in r.values)
    assert ATTACK.output_problems(r) == []
    text = result_text(ATTACK.outputs, r)
    assert "approximate: " in text and "Approximate (floating point)" in text
    assert "Approximate" in result_html(ATTACK.outputs, r)
    assert any("approximate" in line.lower() for line in result_markdown(ATTACK.outputs, r))
    payload = ATTACK.run_json(**HEAVY)["result"]
    assert payload["approximate"] is True and "approximate:" in payload["warnings"][0]


def test_exact_answers_carry_no_approximate_key() -> None:
    r = ATTACK.run(**ATTACK.examples[0])
    assert "approximate" not in r.values
    assert "mean_models_destroyed_exact" in r.values


def test_the_hard_limit_stops_the_loops() -> None:
    weapon = Weapon("w", parse_dice("40"), 3, 5, -1, parse_dice("1"), parse_abilities("sustained-hits-1"))
    target = Target(4, 3, 2, models=20, fnp=5)
    with pytest.raises(WorkLimitExceeded):
        resolve([weapon], target, limit=1000.0)
    with pytest.raises(WorkLimitExceeded):
        resolve_float([weapon], target, limit=1000.0)
    with pytest.raises(WorkLimitExceeded):
        resolve([weapon], target, seconds=-1.0)  # a deadline already past


def test_a_computation_escaping_the_model_ends_with_the_same_clear_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pretend the cost model under-predicted by 10,000x: the engine stops inside its loops and
    the user gets the one-line message of the cost check, naming the input."""
    monkeypatch.setattr(attack_path, "HARD_FACTOR", 1e-4)
    ATTACK.cache_clear()  # other tests may have computed these answers already
    for values in (ATTACK.examples[0], HEAVY):
        with pytest.raises(InputError) as info:
            ATTACK.run(**{**values, "skill": "4"})  # not a cached answer
        text = str(info.value)
        assert info.value.field == "attacks" and "\n" not in text
        assert "times the work the calculators allow (about 1 s)" in text
