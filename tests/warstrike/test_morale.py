"""Strike Force Morale: exact results against independent derivations and a seeded simulation."""

from __future__ import annotations

import itertools
import math
import random
import time
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.results import fraction_str
from rulesbook.systems.warstrike import rules as ws_rules
from rulesbook.systems.warstrike.choices import CHOICES, WarStrikeChoices
from rulesbook.systems.warstrike.rules import (
    check_required,
    hive_mind_passes,
    officer_ld_test,
    strike_force_morale,
)

from .sim import estimate, ld_test_passes

READINGS = ("2d6-at-most", "2d6-below", "2d6-natural-extremes")


def read(**readings: str) -> WarStrikeChoices:
    """The system's choices with these readings."""
    return CHOICES.replace(readings=readings)


CALC = "warstrike.strike-force-morale"


def p_pass_by_counting(ld: int, reading: str) -> Fraction:
    """P(pass) by listing the 36 rolls — independent of RollTest."""
    good = 0
    for a, b in itertools.product(range(1, 7), repeat=2):
        if reading == "2d6-natural-extremes" and (a, b) in ((1, 1), (6, 6)):
            good += (a, b) == (1, 1)
        elif reading == "2d6-below":
            good += a + b < ld
        else:
            good += a + b <= ld
    return Fraction(good, 36)


@pytest.mark.covers("warstrike.morale.officer-test")
@pytest.mark.parametrize("reading", READINGS)
def test_officer_test_matches_counting(reading: str) -> None:
    for ld in range(0, 13):
        assert officer_ld_test(ld, read(ld_test=reading)).p_pass() == p_pass_by_counting(ld, reading)


@pytest.mark.covers("warstrike.morale.fanatical")
@given(ld=st.integers(0, 12), reading=st.sampled_from(READINGS))
def test_fanatical_officer_is_one_minus_fail_squared(ld: int, reading: str) -> None:
    q = 1 - p_pass_by_counting(ld, reading)
    r = strike_force_morale(
        starting_units=10,
        remaining_units=3,
        officer_ld=ld,
        fanatical=True,
        choices=read(ld_test=reading),
    )
    assert r.p_retreat == q * q


@pytest.mark.covers("warstrike.morale.trigger")
@given(starting=st.integers(1, 60), data=st.data())
def test_trigger_is_fewer_than_half(starting: int, data: st.DataObject) -> None:
    remaining = data.draw(st.integers(0, starting))
    assert check_required(starting, remaining) == (2 * remaining < starting)
    assert check_required(starting, remaining, read(morale_threshold="at-most-half")) == (
        2 * remaining <= starting
    )
    assert check_required(starting, remaining, read(morale_threshold="half-rounded-down")) == (
        remaining < starting // 2
    )
    # fewer units left never makes a check less likely
    if remaining and check_required(starting, remaining):
        assert check_required(starting, remaining - 1)


@pytest.mark.covers("warstrike.morale.hive-mind")
@given(lds=st.lists(st.integers(2, 12), min_size=1, max_size=6), reading=st.sampled_from(READINGS))
def test_hive_mind_vote_matches_enumeration(lds: list[int], reading: str) -> None:
    """The vote distribution equals a brute-force sum over every pass/fail pattern."""
    probs = [p_pass_by_counting(ld, reading) for ld in lds]
    brute: dict[int, Fraction] = {}
    for pattern in itertools.product((0, 1), repeat=len(lds)):
        p = math.prod(
            (pi if ok else 1 - pi for pi, ok in zip(probs, pattern, strict=True)), start=Fraction(1)
        )
        brute[sum(pattern)] = brute.get(sum(pattern), Fraction(0)) + p
    dist = hive_mind_passes(lds, read(ld_test=reading))
    assert {k: v for k, v in brute.items() if v} == dist.pmf()
    assert sum(dist.pmf().values()) == 1


@pytest.mark.covers("warstrike.morale.hive-mind")
@given(
    lds=st.lists(st.integers(2, 11), min_size=1, max_size=8), which=st.integers(0, 7), fanatical=st.booleans()
)
def test_hive_mind_monotone_in_ld(lds: list[int], which: int, fanatical: bool) -> None:
    """Raising one unit's Ld never makes withdrawal more likely."""
    i = which % len(lds)
    better = [*lds]
    better[i] += 1
    n = len(lds)

    def p(values: list[int]) -> Fraction:
        return strike_force_morale(
            starting_units=3 * n, remaining_units=n, hive_mind=True, unit_lds=values, fanatical=fanatical
        ).p_retreat

    assert p(better) <= p(lds)


@pytest.mark.covers("warstrike.morale.officer-test", "warstrike.morale.fanatical")
@given(ld=st.integers(0, 11), fanatical=st.booleans(), reading=st.sampled_from(READINGS))
def test_officer_monotone_and_fanatical_helps(ld: int, fanatical: bool, reading: str) -> None:
    def p(x: int, fan: bool) -> Fraction:
        return strike_force_morale(
            starting_units=10,
            remaining_units=2,
            officer_ld=x,
            fanatical=fan,
            choices=read(ld_test=reading),
        ).p_retreat

    assert p(ld + 1, fanatical) <= p(ld, fanatical)
    assert p(ld, True) <= p(ld, False)


@pytest.mark.covers("warstrike.morale.hive-mind", "warstrike.morale.fanatical")
@given(lds=st.lists(st.integers(2, 12), min_size=1, max_size=7))
def test_fanatical_hive_mind_readings_are_ordered(lds: list[int]) -> None:
    """Both re-roll readings help; none makes withdrawal likelier than no re-roll."""
    n = len(lds)

    def p(fan: bool, how: str) -> Fraction:
        return strike_force_morale(
            starting_units=3 * n,
            remaining_units=n,
            hive_mind=True,
            unit_lds=lds,
            fanatical=fan,
            choices=read(fanatical_hive_mind=how),
        ).p_retreat

    plain = p(False, "reroll-whole-check")
    assert p(True, "no-effect") == plain
    assert p(True, "reroll-whole-check") == plain**2
    assert p(True, "reroll-failed-units") <= plain


@pytest.mark.covers("warstrike.morale.hive-mind")
@given(lds=st.lists(st.integers(2, 12), min_size=2, max_size=8).filter(lambda v: len(v) % 2 == 0))
def test_tie_reading_only_matters_through_ties(lds: list[int]) -> None:
    n = len(lds)
    vote = hive_mind_passes(lds)

    def p(tie: str) -> Fraction:
        return strike_force_morale(
            starting_units=3 * n,
            remaining_units=n,
            hive_mind=True,
            unit_lds=lds,
            choices=read(hive_mind_tie=tie),
        ).p_retreat

    assert p("withdraw") - p("fight-on") == vote.p(n // 2)


MC_CASES = [
    pytest.param({"officer_ld": 8}, id="officer-ld8"),
    pytest.param({"officer_ld": 6, "fanatical": True}, id="officer-ld6-fanatical"),
    pytest.param({"officer_ld": 9, "reading": "2d6-below"}, id="officer-below"),
    pytest.param({"officer_ld": 11, "reading": "2d6-natural-extremes"}, id="officer-extremes"),
    pytest.param({"hive_lds": [6, 7, 7, 8, 5]}, id="hive-5"),
    pytest.param({"hive_lds": [7, 7, 6, 6]}, id="hive-4-tie-fights"),
    pytest.param({"hive_lds": [7, 7, 6, 6], "tie": "withdraw"}, id="hive-4-tie-withdraws"),
    pytest.param({"hive_lds": [6, 7, 7, 8, 5], "fanatical": True}, id="hive-fanatical-whole"),
    pytest.param(
        {"hive_lds": [6, 7, 7, 8, 5], "fanatical": True, "fanatical_hive_mind": "reroll-failed-units"},
        id="hive-fanatical-units",
    ),
]


@pytest.mark.covers(
    "warstrike.morale.officer-test", "warstrike.morale.hive-mind", "warstrike.morale.fanatical"
)
@pytest.mark.parametrize("kwargs", MC_CASES)
def test_exact_agrees_with_seeded_simulation(kwargs: dict[str, object]) -> None:
    """The calculator against 20 000 simulated checks (seeded); tolerance 4.5 standard errors."""
    hive = kwargs.get("hive_lds")
    inputs: dict[str, object] = {
        "fanatical": kwargs.get("fanatical", False),
        "ld_test": kwargs.get("reading", "2d6-at-most"),
        "hive_mind_tie": kwargs.get("tie", "fight-on"),
        "fanatical_hive_mind": kwargs.get("fanatical_hive_mind", "reroll-whole-check"),
    }
    if hive is not None:
        assert isinstance(hive, list)
        inputs |= {
            "officer_ld": None,
            "starting_units": 3 * len(hive),
            "remaining_units": len(hive),
            "hive_mind": True,
            "unit_lds": tuple(hive),
        }
    else:
        inputs |= {"starting_units": 10, "remaining_units": 4, "officer_ld": kwargs["officer_ld"]}
    exact = registry().calculator(CALC).run(**inputs)["p_retreat"]
    trials = 20_000
    est = estimate(trials, seed=20261129, **kwargs)
    se = math.sqrt(max(exact * (1 - exact), 1e-9) / trials)
    assert abs(est - exact) <= 4.5 * se + 1e-9


@pytest.mark.covers("warstrike.morale.hive-mind")
def test_interactive_speed() -> None:
    """A large Hive Mind force with mixed Ld answers well under 100 ms of CPU (uncached; CPU time,
    so other work on the machine does not count)."""
    calc = registry().calculator(CALC)
    lds = tuple([5, 6, 7, 8, 9, 10] * 5)
    ws_rules._passes.cache_clear()
    start = time.process_time()
    checked = calc.validate(
        {
            "starting_units": 60,
            "remaining_units": 30,
            "officer_ld": None,
            "hive_mind": True,
            "unit_lds": lds,
            "fanatical": True,
        }
    )
    calc.compute(**calc.compute_arguments(checked))
    assert time.process_time() - start < 0.1


@pytest.mark.covers("warstrike.morale.trigger", "warstrike.morale.no-officer")
@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["starting_units=0", "remaining_units=0"], "starting_units"),
        (["starting_units=5", "remaining_units=-1"], "remaining_units"),
        (["starting_units=5", "remaining_units=2", "officer_ld=13"], "officer_ld"),
        (["starting_units=5", "remaining_units=2", "officer_ld=none", "hive_mind=yes"], "hive_mind"),
        (
            ["starting_units=5", "remaining_units=2", "officer_ld=none", "hive_mind=true", "unit_lds=7,x"],
            "unit_lds",
        ),
        (
            ["starting_units=5", "remaining_units=2", "officer_ld=none", "hive_mind=true", "unit_lds=7,13"],
            "unit_lds",
        ),
        (["starting_units=5", "remaining_units=0", "officer_ld=8"], "officer_ld"),
        (["starting_units=5", "remaining_units=2", "officer_ld=none", "ld_test=3d6"], "ld_test"),
        (["starting_units=5", "remaining_units=2", "officer_ld=none", "rules_version=0.51"], "rules_version"),
        (["starting_units=5", "remaining_units=2", "colour=red"], "colour"),
        (["starting_units=5"], "remaining_units"),
        (["starting_units=5", "remaining_units=2"], "officer_ld"),
    ],
)
def test_bad_input_is_one_line_naming_the_field(args: list[str], field: str) -> None:
    with pytest.raises(InputError) as info:
        registry().calculator(CALC).parse_assignments(args)
    assert info.value.field == field
    assert "\n" not in str(info.value)


@pytest.mark.covers("warstrike.morale.officer-test", "warstrike.morale.hive-mind")
def test_log_explains_the_check() -> None:
    r = (
        registry()
        .calculator(CALC)
        .run(
            starting_units=12,
            remaining_units=5,
            officer_ld=None,
            hive_mind=True,
            unit_lds=(7, 7, 6, 6, 8),
            fanatical=True,
        )
    )
    text = "\n".join(r.explanation)
    assert "5 of 12" in text and "tie fights on" in text and "Fanatical" in text
    vote = r.table("vote")
    assert [row[0] for row in vote.rows] == [0, 1, 2, 3, 4, 5]
    assert sum(Fraction(row[2]) for row in vote.rows) == 1


# -- review fixes: the calculator's own keys, impossible officers, empty officer_ld, Hive Mind
# -- without officer_ld or unit_lds, several officers' attempts, Hive Mind officers, repeat checks

PHASE = "warstrike.starting-phase"


@pytest.mark.covers("warstrike.morale.no-officer")
@pytest.mark.parametrize(
    "args",
    [
        ["units_on_table=0", "units_in_reserve=0", "officer_lds=8"],
        ["units_on_table=0", "units_in_reserve=3", "officer_lds=8"],
        ["units_on_table=0", "units_in_reserve=3", "officer_lds=8", "hive_mind=true", "unit_lds=7,7,7"],
        ["units_on_table=3"],
    ],
)
def test_starting_phase_errors_name_its_own_keys(args: list[str]) -> None:
    calc = registry().calculator(PHASE)
    with pytest.raises(InputError) as info:
        calc.parse_assignments(["starting_units=10", *args])
    assert info.value.field == "officer_lds"
    assert {i.key for i in calc.inputs} >= {info.value.field}
    assert "\n" not in str(info.value)


@pytest.mark.covers("warstrike.morale.officer-test", "warstrike.morale.no-officer")
@given(starting=st.integers(1, 30), data=st.data())
def test_an_officer_needs_a_unit_on_the_table(starting: int, data: st.DataObject) -> None:
    remaining = data.draw(st.integers(0, starting))
    reserve = data.draw(st.integers(0, remaining))
    calc = registry().calculator(CALC)
    args = [f"starting_units={starting}", f"remaining_units={remaining}", f"units_in_reserve={reserve}"]
    if remaining == reserve:  # nobody on the table
        with pytest.raises(InputError) as info:
            calc.parse_assignments([*args, "officer_ld=8"])
        assert info.value.field == "officer_ld"
        assert calc.parse_assignments([*args, "officer_ld=none"])["officer_ld"] is None
    else:
        assert calc.parse_assignments([*args, "officer_ld=8"])["officer_ld"] == 8
    phase = registry().calculator(PHASE)
    on_table = remaining - reserve
    pargs = [f"starting_units={starting}", f"units_on_table={on_table}", f"units_in_reserve={reserve}"]
    if on_table == 0:
        with pytest.raises(InputError) as info:
            phase.parse_assignments([*pargs, "officer_lds=8,7"])
        assert info.value.field == "officer_lds"
    else:
        assert phase.parse_assignments([*pargs, "officer_lds=8,7"])["officer_lds"] == (8, 7)


@pytest.mark.covers("warstrike.morale.no-officer")
@pytest.mark.parametrize("empty", ["", " ", "   "])
def test_empty_officer_ld_is_not_none(empty: str) -> None:
    calc = registry().calculator(CALC)
    with pytest.raises(InputError) as info:
        calc.parse_assignments(["starting_units=10", "remaining_units=4", f"officer_ld={empty}"])
    assert info.value.field == "officer_ld" and "'none'" in info.value.message
    none = calc.run(starting_units=10, remaining_units=4, officer_ld="none")
    assert none["p_retreat_exact"] == "1"  # only the word none means no officer


@pytest.mark.covers("warstrike.morale.hive-mind")
def test_hive_mind_needs_no_officer_ld_and_gets_no_warning() -> None:
    calc = registry().calculator(CALC)
    left_out = calc.run(starting_units=6, remaining_units=2, hive_mind=True, unit_lds=(7, 7))
    assert left_out["p_retreat_exact"] == "25/144" and left_out.warnings == ()
    assert (
        calc.run_json(starting_units=6, remaining_units=2, hive_mind=True, unit_lds=(7, 7))["inputs"][
            "officer_ld"
        ]
        is None
    )
    given = calc.run(starting_units=6, remaining_units=2, hive_mind=True, unit_lds=(7, 7), officer_ld=8)
    assert given["p_retreat_exact"] == "25/144" and given.warnings  # ignored, with a warning


@pytest.mark.covers("warstrike.morale.trigger", "warstrike.morale.hive-mind")
@given(starting=st.integers(1, 40), data=st.data())
def test_hive_mind_without_a_due_check_needs_no_unit_lds(starting: int, data: st.DataObject) -> None:
    remaining = data.draw(st.integers(0, starting))
    calc = registry().calculator(CALC)
    if 2 * remaining >= starting:  # no check due
        r = calc.run(starting_units=starting, remaining_units=remaining, hive_mind=True)
        assert r["check_required"] is False and r["p_retreat_exact"] == "0"
        assert "p_retreat_if_checked" not in r.values
    elif remaining == 0:  # nobody left to vote: the force withdraws (no-units-left default)
        assert calc.run(starting_units=starting, remaining_units=0, hive_mind=True)["p_retreat_exact"] == "1"
    else:
        with pytest.raises(InputError) as info:
            calc.run(starting_units=starting, remaining_units=remaining, hive_mind=True)
        assert info.value.field == "unit_lds"


@pytest.mark.covers("warstrike.morale.officer-test", "warstrike.morale.fanatical")
@given(
    lds=st.lists(st.integers(0, 12), min_size=1, max_size=4),
    fanatical=st.booleans(),
    reading=st.sampled_from(READINGS),
)
def test_every_officer_reading_fails_only_if_all_fail(lds: list[int], fanatical: bool, reading: str) -> None:
    fail = math.prod((1 - p_pass_by_counting(ld, reading) for ld in lds), start=Fraction(1))
    calc = registry().calculator(PHASE)
    common = {
        "mission": "seize-the-crossing",
        "turn": 2,
        "starting_units": 10,
        "units_on_table": 4,
        "officer_lds": tuple(lds),
        "fanatical": fanatical,
        "ld_test": reading,
    }
    every = calc.run(**common, officer_attempts="every-officer")
    assert Fraction(every["p_retreat_exact"]) == (fail**2 if fanatical else fail)
    one = calc.run(**common)  # the default: the best officer alone
    best = 1 - p_pass_by_counting(max(lds), reading)
    assert Fraction(one["p_retreat_exact"]) == (best**2 if fanatical else best)


@pytest.mark.covers("warstrike.morale.officer-test")
def test_every_officer_reading_matches_simulation() -> None:
    lds = (7, 6, 8)
    exact = (
        registry()
        .calculator(PHASE)
        .run(
            mission="seize-the-crossing",
            turn=2,
            starting_units=10,
            units_on_table=4,
            officer_lds=lds,
            officer_attempts="every-officer",
        )["p_retreat"]
    )
    rng = random.Random(5150)
    trials = 20_000
    hits = sum(all(not ld_test_passes(rng, ld, "2d6-at-most") for ld in lds) for _ in range(trials))
    se = math.sqrt(exact * (1 - exact) / trials)
    assert abs(hits / trials - exact) <= 4.5 * se + 0.002


@pytest.mark.covers("warstrike.morale.hive-mind", "warstrike.morale.officer-test")
def test_officer_leads_reading_of_a_hive_mind_force() -> None:
    calc = registry().calculator(CALC)
    led = calc.run(
        starting_units=10, remaining_units=4, hive_mind=True, officer_ld=8, hive_mind_officers="officer-leads"
    )
    assert (led["p_retreat_exact"], led["mode"], led.warnings) == ("5/18", "officer", ())
    with pytest.raises(InputError) as info:
        calc.run(
            starting_units=10,
            remaining_units=4,
            hive_mind=True,
            officer_ld=8,
            unit_lds=(7, 7, 7, 7),
            hive_mind_officers="officer-leads",
        )
    assert info.value.field == "unit_lds"


@pytest.mark.covers("warstrike.morale.trigger")
@given(ld=st.integers(0, 12), checked_before=st.booleans())
def test_check_every_phase_readings(ld: int, checked_before: bool) -> None:
    calc = registry().calculator(CALC)
    base = {"starting_units": 10, "remaining_units": 3, "officer_ld": ld, "checked_before": checked_before}
    fail = fraction_str(1 - p_pass_by_counting(ld, "2d6-at-most"))
    assert calc.run(**base)["p_retreat_exact"] == fail  # the default ignores the history
    once = calc.run(**base, check_every_phase="once")
    assert once["p_retreat_exact"] == ("0" if checked_before else fail)
    assert once["check_required"] is (not checked_before)


@pytest.mark.covers("warstrike.victory.check")
@pytest.mark.parametrize("mission_id", ["seize-the-crossing", "hostage-extraction"])
def test_turn_cannot_pass_the_missions_length(mission_id: str) -> None:
    from rulesbook.systems.warstrike.missions import mission

    calc = registry().calculator(PHASE)
    last = mission(mission_id).turns
    args = [f"mission={mission_id}", "starting_units=10", "units_on_table=6", "officer_lds=8"]
    assert calc.parse_assignments([*args, f"turn={last}"])["turn"] == last
    with pytest.raises(InputError) as info:
        calc.parse_assignments([*args, f"turn={last + 1}"])
    assert info.value.field == "turn" and f"lasts {last} turns" in info.value.message
