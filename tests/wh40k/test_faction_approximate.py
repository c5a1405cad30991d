"""``wh40k.datasheet-attack`` takes the floating-point path of the attack calculators when the
exact answer is too big: labelled approximate, and within 1e-12 of the exact engine where both
run; no input of Mortarion's datasheet within the form's limits is refused."""

from __future__ import annotations

from typing import Any

import pytest

from rulesbook.caches import clear_caches
from rulesbook.registry import registry
from rulesbook.systems.wh40k.attack import cost

CALC = registry().calculator("wh40k.datasheet-attack")
WITH_EFFECTS = {
    "weapons": "rotwind,the-lantern",
    "battle_round": "2",
    "distance": "5",
    "aura": "diseased-influence",
    "stratagems": "ferric-blight",
    "detachment": "spread-the-sickness",
    "sickness": "rattlejoint-ague",
    "toughness": "5",
    "save": "3",
    "wounds": "3",
    "models": "10",
    "fnp": "6",
}


def _run(inputs: dict[str, str]) -> dict[str, Any]:
    return CALC.run(**CALC.validate(inputs)).values


@pytest.mark.covers("wh40k.death-guard.datasheet.mortarion")
@pytest.mark.parametrize(
    "inputs",
    [
        WITH_EFFECTS,
        {"weapons": "silence-strike", "target": "mortarion", "target_stratagems": "disgustingly-resilient"},
        {
            "weapons": "silence-sweep",
            "damaged": "true",
            "toughness": "4",
            "save": "3",
            "wounds": "2",
            "models": "20",
        },
    ],
)
def test_float_path_is_labelled_and_agrees_with_exact(
    inputs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clear_caches()
    exact_result = CALC.run(**CALC.validate(inputs))
    exact = exact_result.values
    assert "approximate" not in exact
    monkeypatch.setattr(cost, "WORK_LIMIT", 0.0)  # the exact engine "does not fit": float path
    clear_caches()
    result = CALC.run(**CALC.validate(inputs))
    approx = result.values
    assert approx["approximate"] is True
    assert any(w.startswith("approximate:") for w in result.warnings)
    assert result.explanation[0].startswith("**Approximate**")
    for key in ("models_destroyed", "wounds_lost"):
        assert len(approx[key]) == len(exact[key])
        for a, e in zip(approx[key], exact[key], strict=True):
            assert abs(a - float(e)) <= 1e-12
    for key in ("mean_wounds_lost", "mean_models_destroyed", "p_unit_destroyed"):
        assert abs(float(approx[key]) - float(exact[key])) <= 1e-12

    # the effects are the same on both paths
    def effects(tables: Any) -> Any:
        return next(t.rows for t in tables if t.name == "effects_applied")

    assert effects(result.tables) == effects(exact_result.tables)
    clear_caches()


@pytest.mark.parametrize("weapons", ["rotwind,the-lantern", "silence-strike", "silence-sweep"])
def test_the_largest_targets_the_form_allows_are_answered(weapons: str) -> None:
    """The form's largest target (40 models × 25 wounds ≤ 1000 wounds, Feel No Pain) is answered,
    not refused, for every weapon choice of the datasheet."""
    values = _run({"weapons": weapons, "models": "40", "wounds": "25", "fnp": "5", "save": "2"})
    assert abs(sum(float(p) for p in values["models_destroyed"]) - 1) <= 1e-12
