"""The qualitative rules of the Morale section, and the link from every rule to a test."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from rulesbook.registry import registry
from rulesbook.systems.scrollhammer.choices import CHOICES
from rulesbook.systems.scrollhammer.fall_back import (
    from_combat_extension,
    move_outcome,
    passes_through_friends,
    trapped,
)
from rulesbook.systems.scrollhammer.rules import (
    MoraleState,
    fall_back_edge,
    formation,
    leadership_requirement,
    may_charge,
    multiple_charge_targets,
    regroup_allowance,
    state_after_check,
)


@pytest.mark.covers("scrollhammer.morale.special-units")
def test_the_three_exemptions_differ() -> None:
    table = {
        rule: (leadership_requirement("morale-check", rule), leadership_requirement("leadership-test", rule))
        for rule in ("immune-to-morale", "always-passes-morale", "always-passes-leadership")
    }
    assert table == {
        "immune-to-morale": ("not-taken", "roll"),
        "always-passes-morale": ("automatic-pass", "roll"),
        "always-passes-leadership": ("automatic-pass", "automatic-pass"),
    }
    assert (
        leadership_requirement(
            "leadership-test",
            "immune-to-morale",
            CHOICES.replace(readings={"immune_units": "passes-everything"}),
        )
        == "automatic-pass"
    )


@pytest.mark.covers(
    "scrollhammer.morale.pinning-test",
    "scrollhammer.morale.casualties-test",
    "scrollhammer.morale.break-test",
    "scrollhammer.morale.panic-test",
    "scrollhammer.morale.check",
)
def test_failed_checks_pin_or_send_units_back() -> None:
    assert state_after_check("pinning", passed=False) is MoraleState.PINNED_DOWN
    for trigger in ("casualties", "break", "panic"):
        assert state_after_check(trigger, passed=False) is MoraleState.FALLING_BACK
        assert state_after_check(trigger, passed=True) is MoraleState.STEADY
    assert state_after_check("pinning", False, MoraleState.FALLING_BACK) is MoraleState.FALLING_BACK


@pytest.mark.covers("scrollhammer.fall-back.skirmish")
def test_fleeing_units_skirmish() -> None:
    assert formation(MoraleState.FALLING_BACK, "ranks") == "skirmish"
    assert formation(MoraleState.REGROUPED, "ranks") == "ranks"
    assert formation(MoraleState.REGROUPED, "ranks", regrouped_when_charged=True) == "skirmish"


@pytest.mark.covers("scrollhammer.fall-back.no-charge", "scrollhammer.regroup.after-regrouping")
def test_fleeing_and_freshly_regrouped_units_cannot_charge() -> None:
    assert not may_charge(MoraleState.FALLING_BACK)
    assert not may_charge(MoraleState.REGROUPED)
    assert may_charge(MoraleState.STEADY)


@pytest.mark.covers("scrollhammer.regroup.after-regrouping", "scrollhammer.regroup.when-charged")
def test_regroup_allowance() -> None:
    normal = regroup_allowance()
    assert (normal.move_inches, normal.may_shoot, normal.may_march, normal.may_charge) == (
        3,
        False,
        False,
        False,
    )
    assert not normal.difficult_terrain_slows and normal.dangerous_terrain_tests
    assert regroup_allowance(when_charged=True).move_inches == 0


@pytest.mark.covers("scrollhammer.fall-back.direction")
def test_direction() -> None:
    assert fall_back_edge(has_own_edge=True) == "own table edge"
    assert fall_back_edge(has_own_edge=False) == "nearest table edge"


@pytest.mark.covers("scrollhammer.fall-back.from-combat")
def test_fleeing_a_combat_ends_one_inch_clear() -> None:
    assert from_combat_extension(Fraction(1, 4)) == Fraction(3, 4)
    assert from_combat_extension(Fraction(1)) == 0
    assert from_combat_extension(Fraction(5)) == 0


@pytest.mark.covers(
    "scrollhammer.fall-back.through-friends",
    "scrollhammer.fall-back.trapped",
    "scrollhammer.fall-back.table-edge",
)
def test_move_edges_and_obstacles() -> None:
    assert passes_through_friends(7, 6) and not passes_through_friends(6, 6)
    exact_fit_trapped = CHOICES.replace(readings={"trapped_fit": "exact-fit-trapped"})
    assert trapped(7, 6) and not trapped(6, 6) and trapped(6, 6, exact_fit_trapped)
    assert move_outcome(6, 6) == "flees" and move_outcome(5, 6) == "moves"
    assert move_outcome(7, 10, blocked_after=6) == "trapped"
    assert move_outcome(6, 6, blocked_after=6, choices=exact_fit_trapped) == "flees"


@pytest.mark.covers("scrollhammer.regroup.multiple-charges")
def test_destroyed_targets_drop_out_of_a_multiple_charge() -> None:
    targets = ["spears", "archers", "knights"]
    falling = {"archers": True, "knights": True}
    assert multiple_charge_targets(targets, falling, {"archers": True, "knights": False}) == (
        "spears",
        "archers",
    )
    assert multiple_charge_targets(targets, {}, {}) == tuple(targets)


def test_every_rule_is_covered_by_a_test() -> None:
    """Every Scrollhammer rule ID appears in a covers marker here or in cases.yaml."""
    here = Path(__file__).parent
    text = "\n".join(p.read_text() for p in here.glob("test_*.py"))
    import rulesbook.systems.scrollhammer as pkg

    text += Path(pkg.__file__).with_name("cases.yaml").read_text()
    mentioned = set(re.findall(r"scrollhammer\.[a-z-]+\.[a-z-]+", text))
    missing = [r.id for r in registry().rules_for_system("scrollhammer") if r.id not in mentioned]
    assert not missing, missing


def test_every_interpretation_is_attached_to_a_rule() -> None:
    for interp in registry().interpretations_for_system("scrollhammer"):
        assert interp.rules, interp.id
        assert interp.default in interp.option_keys
