"""The WarStrike Starting Phase (Ver. 0.52) as typed, pure code.

Every function takes the system's choice set (:data:`~rulesbook.systems.warstrike.choices.CHOICES`
by default, or a changed copy): the rule parameters (the Ld test dice, the morale threshold, the
placeholder reserve roll) and the readings of the interpretations register. Every Leadership test
is a :class:`rulesbook.dice.RollTest` (2D6 against Ld by default; the alternatives of
``warstrike.interpretations.ld-test`` only change its target and natural results). A Hive Mind vote is the exact distribution of the number of passes over units with
different Ld, built with icepool (a sum of independent pass/fail dice). Fanatical is a re-roll:
``reroll="failed"`` for an officer's test, a second vote for a Hive Mind force.

Example:
    An officer with Ld 8 (2D6 <= 8 passes 26 of 36 rolls) and a Fanatical force that may re-roll
    a failure once:

    >>> officer_ld_test(8).p_pass(), officer_ld_test(8, fanatical=True).p_pass()
    (Fraction(13, 18), Fraction(299, 324))
    >>> m = strike_force_morale(starting_units=10, remaining_units=4, officer_ld=8)
    >>> m.check_required, m.p_retreat
    (True, Fraction(5, 18))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import floor
from pathlib import Path
from typing import Literal

import icepool

from rulesbook.dice import RollTest
from rulesbook.errors import InputError
from rulesbook.language.explain import rule_phrase
from rulesbook.language.files import load_mechanics
from rulesbook.present.numbers import fixed, percent
from rulesbook.registry import implements
from rulesbook.results import Distribution, fraction_str
from rulesbook.systems.warstrike.choices import CHOICES, WarStrikeChoices
from rulesbook.systems.warstrike.missions import COUNTERS, Mission, ReserveRoll, Side

__all__ = [
    "MAX_LD",
    "MECHANICS",
    "MoraleResult",
    "Officer",
    "StartingPhaseResult",
    "StrikeForce",
    "check_required",
    "hive_mind_passes",
    "officer_ld_test",
    "reserve_arrivals",
    "reserve_roll",
    "starting_phase",
    "strike_force_morale",
]

MAX_LD = 12

MECHANICS = load_mechanics(Path(__file__).with_name("mechanics.yaml"), "warstrike", CHOICES, schema=False)
"""The Ld test as ``mechanics.yaml`` declares it (its schema is checked by the tests)."""


@implements("warstrike.morale.trigger")
def check_required(starting_units: int, remaining_units: int, choices: WarStrikeChoices = CHOICES) -> bool:
    """Whether the units alive or in reserve are few enough to force a Strike Force Morale check.

    >>> [check_required(7, r) for r in (3, 4)]
    [True, False]
    >>> check_required(7, 3, CHOICES.replace(readings={"morale_threshold": "half-rounded-down"}))
    False
    >>> check_required(10, 5), check_required(10, 5, CHOICES.replace(readings={"morale_threshold": "at-most-half"}))
    (False, True)
    >>> check_required(10, 4), check_required(10, 4, CHOICES.replace(parameters={"morale_threshold_denominator": 3}))
    (True, False)
    """
    limit = choices.parameters.morale_threshold * starting_units
    match choices.readings.morale_threshold:
        case "exact-half":
            return remaining_units < limit
        case "half-rounded-down":
            return remaining_units < floor(limit)
        case "at-most-half":
            return remaining_units <= limit
    raise InputError(
        "morale_threshold", f"unknown option {choices.readings.morale_threshold!r}"
    )  # pragma: no cover


@implements("warstrike.morale.officer-test", "warstrike.morale.fanatical")
def officer_ld_test(ld: int, choices: WarStrikeChoices = CHOICES, *, fanatical: bool = False) -> RollTest:
    """The Ld test as a roll test (Fanatical: one re-roll of a failure), as ``mechanics.yaml``
    declares it: the dice are the ``ld_test_dice`` parameter; the ``ld_test`` reading sets the
    target and the natural results.

    >>> below = CHOICES.replace(readings={"ld_test": "2d6-below"})
    >>> officer_ld_test(7).p_pass(), officer_ld_test(7, below).p_pass()
    (Fraction(7, 12), Fraction(5, 12))
    >>> officer_ld_test(12, CHOICES.replace(readings={"ld_test": "2d6-natural-extremes"})).p_pass()
    Fraction(35, 36)
    >>> officer_ld_test(7, CHOICES.replace(parameters={"ld_test_dice": "3D6"})).p_pass()
    Fraction(35, 216)

    With dice that keep or drop, the natural extremes read the dice of the reading
    ``extremes_dice`` (the kept ones by default): on 3D6kl2 at Ld 2, the two lowest dice
    showing 1 pass (16 of the 216 rolls have at least two 1s):

    >>> extremes = CHOICES.replace(parameters={"ld_test_dice": "3D6kl2"},
    ...                            readings={"ld_test": "2d6-natural-extremes"})
    >>> officer_ld_test(2, extremes).p_pass()
    Fraction(2, 27)
    """
    return MECHANICS.roll("ld-test", choices, ld=ld, fanatical=fanatical)


@lru_cache(maxsize=4096)
def _passes(tests: tuple[tuple[RollTest, int], ...]) -> Distribution[int]:
    total: icepool.Die[int] = icepool.Die([0])
    for test, count in tests:
        total = total + count @ test.pass_die()
    return Distribution.from_die(total)


@implements("warstrike.morale.hive-mind")
def hive_mind_passes(
    unit_lds: Sequence[int], choices: WarStrikeChoices = CHOICES, *, reroll_failed: bool = False
) -> Distribution[int]:
    """Exact distribution of the number of units that pass, one Ld test per unit.

    Units with equal Ld form a binomial; groups are summed (icepool convolution).

    >>> d = hive_mind_passes([7, 7])        # each passes with 7/12
    >>> d.p(0), d.p(1), d.p(2)
    (Fraction(25, 144), Fraction(35, 72), Fraction(49, 144))
    """
    groups = sorted(Counter(unit_lds).items())
    return _passes(tuple((officer_ld_test(ld, choices, fanatical=reroll_failed), n) for ld, n in groups))


def _withdraws(passes: int, testers: int, tie: str) -> bool:
    fails = testers - passes
    return fails > passes or (tie == "withdraw" and fails == passes)


@dataclass(frozen=True, slots=True)
class MoraleResult:
    """The exact result of a Strike Force Morale step, with a readable log.

    ``p_retreat`` is the chance the force leaves the table this phase (0 when no check is
    needed); ``p_retreat_if_checked`` is the chance it would retreat if it had to check
    (``None`` for a Hive Mind force that needs no check and whose units' Ld were not given).
    """

    check_required: bool
    p_retreat: Fraction
    p_retreat_if_checked: Fraction | None
    mode: Literal["officer", "hive-mind", "no-officer", "no-units"]
    log: tuple[str, ...]
    passes: Distribution[int] | None = None
    testers: int = 0

    @property
    def p_fight_on(self) -> Fraction:
        """The chance the force fights on."""
        return 1 - self.p_retreat


@implements("warstrike.morale.officer-test", "warstrike.morale.no-officer", "warstrike.morale.fanatical")
def strike_force_morale(
    *,
    starting_units: int,
    remaining_units: int,
    officer_ld: int | None = None,
    hive_mind: bool = False,
    unit_lds: Sequence[int] = (),
    fanatical: bool = False,
    units_in_reserve: int = 0,
    choices: WarStrikeChoices = CHOICES,
    more_officer_lds: Sequence[int] = (),
    checked_before: bool = False,
) -> MoraleResult:
    """Step 1 of the Starting Phase: is a check needed, and the exact chance the force retreats.

    Args:
        starting_units: units the Strike Force started the game with.
        remaining_units: units still alive or in reserve.
        officer_ld: the best Ld among officers alive and on the table; ``None`` if there is none.
        hive_mind: the force has the Hive Mind rule (every testing unit takes its own test).
        unit_lds: for Hive Mind, the Ld of each unit that tests.
        fanatical: the force has the Fanatical rule.
        units_in_reserve: how many of the remaining units are in reserve (matters only for the
            ``on-table-only`` option of ``hive-mind-who-tests``).
        choices: the rule parameters and readings.
        more_officer_lds: Ld of further officers on the table who each test in turn if the
            officers before them failed (the ``every-officer`` option of
            ``warstrike.interpretations.officer-attempts``); empty for one officer's test.
        checked_before: the force already took a Strike Force Morale check earlier in the game
            (matters only for the ``once`` option of ``check-every-phase``).

    Example:
        A Hive Mind force of three Ld 7 units: it withdraws when two or three fail.

        >>> r = strike_force_morale(starting_units=8, remaining_units=3, hive_mind=True, unit_lds=[7, 7, 7])
        >>> r.p_retreat == 3 * (Fraction(5, 12) ** 2) * Fraction(7, 12) + Fraction(5, 12) ** 3
        True
    """
    readings = choices.readings
    required = check_required(starting_units, remaining_units, choices)
    log = [_check_due_line(starting_units, remaining_units, required, choices)]
    if required and checked_before and readings.check_every_phase == "once":
        required = False
        log.append("The force has taken its check already; under the once reading it is not tested again.")
    if not required:
        log.append("Were a check taken all the same:")
    testers = remaining_units - (units_in_reserve if readings.hive_mind_who_tests == "on-table-only" else 0)
    votes = hive_mind and (officer_ld is None or readings.hive_mind_officers == "no-officers")
    mode: Literal["officer", "hive-mind", "no-officer", "no-units"]
    p_if: Fraction | None
    if hive_mind and not votes:
        log.append("Hive Mind with an officer on the table (officer-leads reading): the officer tests.")
    if votes and not required and not unit_lds and testers:
        mode, passes, p_if = "hive-mind", None, None
        log.append(
            "The units' Ld were not given (unit_lds), so the cost of a Hive Mind vote is not computed."
        )
    elif votes:
        mode = "hive-mind"
        p_if, passes = _hive_mind_retreat(unit_lds, testers, fanatical, choices, log)
    elif remaining_units == 0:
        mode, passes = "no-units", None
        p_if = Fraction(1)
        log.append("No unit is left, so the force cannot fight on: it retreats.")
    elif officer_ld is None:
        mode, passes = "no-officer", None
        hold = fanatical and readings.fanatical_without_officer == "fanatics-hold"
        p_if = Fraction(0) if hold else Fraction(1)
        log.append(
            "No officer is alive on the table, so the check fails automatically"
            + (" — but under the fanatics-hold house rule a Fanatical force stays." if hold else ": retreat.")
        )
    else:
        mode, passes = "officer", None
        p_if = _officer_retreat(officer_ld, more_officer_lds, fanatical, choices, log)
    p = p_if if required and p_if is not None else Fraction(0)
    log.append(_retreat_line(required, p, p_if))
    return MoraleResult(required, p, p_if, mode, tuple(log), passes, testers if votes else 0)


def _retreat_line(required: bool, p: Fraction, p_if: Fraction | None) -> str:
    """The explanation's last line: P(retreat), or why the force fights on for certain."""
    if required:
        return f"P(retreat) = {fraction_str(p)} ≈ {percent(float(p))}; P(fight on) = {fraction_str(1 - p)}."
    if p_if is None:
        return "The force fights on for certain."
    return f"The force fights on for certain (were it to check, it would retreat with {fraction_str(p_if)})."


def _check_due_line(
    starting_units: int, remaining_units: int, required: bool, choices: WarStrikeChoices
) -> str:
    """The explanation's first line: the units left, the threshold by its reading, and whether a
    check is due."""
    reading = choices.readings.morale_threshold
    limit = choices.parameters.morale_threshold * starting_units
    bound = {
        "exact-half": f"below {fraction_str(limit)}",
        "half-rounded-down": f"below {floor(limit)}",
        "at-most-half": f"at or below {fraction_str(limit)}",
    }[reading]
    return (
        f"Units alive or in reserve: {remaining_units} of {starting_units} "
        f"(the check is due {bound}, reading {reading}): "
        + ("a Strike Force Morale check is needed." if required else "no check is needed.")
    )


def _officer_retreat(
    officer_ld: int,
    more_officer_lds: Sequence[int],
    fanatical: bool,
    choices: WarStrikeChoices,
    log: list[str],
) -> Fraction:
    """P(retreat) when the officer tests (Fanatical: a failure re-rolled once; the every-officer
    reading: the further officers try in turn), its steps added to ``log``."""
    test = officer_ld_test(officer_ld, choices, fanatical=fanatical)
    p_if = 1 - test.p_pass()
    first = officer_ld_test(officer_ld, choices).p_pass()
    words = rule_phrase(MECHANICS, "ld-test", choices, {"ld": officer_ld})
    log.append(
        f"The officer (Ld {officer_ld}) takes a Ld test ({words}): passes with "
        f"{fraction_str(first)} ≈ {percent(float(first))}."
    )
    if fanatical:
        log.append(
            f"Fanatical: a failed test is rolled again once; the force now fights on with "
            f"1 − (1 − {fraction_str(first)})² = {fraction_str(1 - p_if)}."
        )
    for ld in more_officer_lds:
        p_if *= 1 - officer_ld_test(ld, choices, fanatical=fanatical).p_pass()
    if more_officer_lds:
        log.append(
            f"Every-officer reading: if it fails, the officers with Ld {', '.join(map(str, more_officer_lds))} "
            f"try in turn; the force retreats only if all fail: {fraction_str(p_if)}."
        )
    return p_if


def _hive_mind_retreat(
    unit_lds: Sequence[int], testers: int, fanatical: bool, choices: WarStrikeChoices, log: list[str]
) -> tuple[Fraction, Distribution[int] | None]:
    readings = choices.readings
    if len(unit_lds) != testers:
        raise InputError(
            "unit_lds", f"expected the Ld of each of the {testers} units that test, got {len(unit_lds)}"
        )
    if testers == 0:
        if readings.no_units_left == "retreat":
            log.append("Hive Mind: no unit is left to vote, so the force withdraws.")
            return Fraction(1), None
        log.append("Hive Mind: an empty vote (0 fail, 0 pass) is not a majority of failures: fight on.")
        return Fraction(0), Distribution.certain(0)
    reroll_units = fanatical and readings.fanatical_hive_mind == "reroll-failed-units"
    passes = hive_mind_passes(unit_lds, choices, reroll_failed=reroll_units)
    p_withdraw = sum((p for k, p in passes if _withdraws(k, testers, readings.hive_mind_tie)), Fraction(0))
    tie = "a tie withdraws" if readings.hive_mind_tie == "withdraw" else "a tie fights on"
    log.append(
        f"Hive Mind: each of the {testers} units tests on its own Ld "
        f"({', '.join(map(str, sorted(unit_lds)))}); "
        f"more failures than passes withdraws, {tie}."
    )
    if reroll_units:
        log.append(
            "Fanatical (reroll-failed-units): each failed unit tests once more before the vote is counted."
        )
    log.append(f"P(the vote withdraws) = {fraction_str(p_withdraw)} ≈ {percent(float(p_withdraw))}.")
    if fanatical and readings.fanatical_hive_mind == "reroll-whole-check":
        log.append(
            "Fanatical (reroll-whole-check): a withdrawing vote is taken once more, so the force withdraws "
            f"only if both votes do: ({fraction_str(p_withdraw)})² = {fraction_str(p_withdraw**2)}."
        )
        p_withdraw = p_withdraw**2
    elif fanatical and readings.fanatical_hive_mind == "no-effect":
        log.append("Fanatical (no-effect reading): a Hive Mind vote is not re-rolled.")
    return p_withdraw, passes


# -- the whole phase --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Officer:
    """An officer of a Strike Force."""

    ld: int
    name: str = "officer"
    alive: bool = True
    in_reserve: bool = False

    @property
    def can_test(self) -> bool:
        """Alive and on the table."""
        return self.alive and not self.in_reserve


@dataclass(frozen=True, slots=True)
class StrikeForce:
    """The state of one side's Strike Force at the start of its turn.

    Example:
        >>> force = StrikeForce(starting_units=10, units_on_table=3, units_in_reserve=1,
        ...                     officers=(Officer(7, "Captain"), Officer(9, "Major", alive=False)))
        >>> force.remaining_units, force.testing_officer_ld()
        (4, 7)
    """

    starting_units: int
    units_on_table: int
    units_in_reserve: int = 0
    officers: tuple[Officer, ...] = ()
    unit_lds: tuple[int, ...] = ()
    hive_mind: bool = False
    fanatical: bool = False
    name: str = "Strike Force"
    checked_before: bool = False
    """The force took a Strike Force Morale check in an earlier Starting Phase."""

    def __post_init__(self) -> None:
        for key in ("starting_units", "units_on_table", "units_in_reserve"):
            if getattr(self, key) < 0:
                raise InputError(key, "expected a whole number >= 0")
        if self.remaining_units > self.starting_units:
            raise InputError(
                "units_on_table",
                f"units on the table plus in reserve ({self.remaining_units}) exceed the starting units "
                f"({self.starting_units})",
            )

    @property
    def remaining_units(self) -> int:
        """Units alive on the table or in reserve."""
        return self.units_on_table + self.units_in_reserve

    def testing_officer_ld(self, choices: WarStrikeChoices = CHOICES) -> int | None:
        """The Ld used for the check: best officer alive on the table, or the first listed one.

        Which of the two is the ``several_officers`` reading.
        """
        able = [o for o in self.officers if o.can_test]
        if not able:
            return None
        return max(o.ld for o in able) if choices.readings.several_officers == "best-ld" else able[0].ld

    def with_(self, **changes: object) -> StrikeForce:
        """A changed copy."""
        return replace(self, **changes)  # type: ignore[arg-type]


def reserve_roll(mission: Mission, choices: WarStrikeChoices = CHOICES) -> ReserveRoll:
    """The roll a unit in reserve makes: the mission's own, or for a placeholder the rule parameters.

    >>> from rulesbook.systems.warstrike.missions import mission
    >>> reserve_roll(mission("seize-the-crossing")).describe()
    'PLACEHOLDER D6 per unit, 4 or more, from turn 2'
    >>> later = CHOICES.replace(parameters={"reserve_target": 3, "reserve_from_turn": 3})
    >>> reserve_roll(mission("seize-the-crossing"), later).describe()
    'PLACEHOLDER D6 per unit, 3 or more, from turn 3'
    """
    if not mission.reserves.placeholder:
        return mission.reserves
    p = choices.parameters
    return replace(
        mission.reserves, dice=p.reserve_dice, target=p.reserve_target, from_turn=p.reserve_from_turn
    )


@implements("warstrike.reserves.roll")
def reserve_arrivals(
    mission: Mission, units_in_reserve: int, turn: int, choices: WarStrikeChoices = CHOICES
) -> Distribution[int]:
    """Exact distribution of the number of reserve units that arrive this turn.

    >>> from rulesbook.systems.warstrike.missions import mission
    >>> reserve_arrivals(mission("seize-the-crossing"), 2, turn=2).pmf()   # placeholder D6 4+ each
    {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    >>> reserve_arrivals(mission("seize-the-crossing"), 2, turn=1).pmf()   # too early
    {0: Fraction(1, 1)}
    """
    roll = reserve_roll(mission, choices)
    option = choices.readings.reserves_roll
    if units_in_reserve == 0 or turn < roll.from_turn or option == "none-arrive":
        return Distribution.certain(0)
    if option == "all-arrive":
        return Distribution.certain(units_in_reserve)
    return Distribution.from_die(units_in_reserve @ roll.test().pass_die())


@dataclass(frozen=True, slots=True)
class StartingPhaseResult:
    """The exact outcome of one Starting Phase and the log a player reads.

    ``outcome`` maps ``retreat`` (the force leaves, the opponent wins), ``victory`` (the active
    side wins by the mission), ``defeat`` (the opponent's conditions hold, ``both-sides`` option
    only) and ``continue`` to exact probabilities. ``arrivals`` is the distribution of arriving
    reserve units given that the game continues.
    """

    morale: MoraleResult
    conditions_met: tuple[str, ...]
    opponent_conditions_met: tuple[str, ...]
    outcome: dict[str, Fraction]
    arrivals: Distribution[int]
    log: tuple[str, ...]


@implements("warstrike.starting-phase.sequence", "warstrike.victory.check")
def starting_phase(
    force: StrikeForce,
    mission: Mission,
    *,
    side: Side,
    turn: int,
    counters: dict[str, int],
    opponent_counters: dict[str, int] | None = None,
    choices: WarStrikeChoices = CHOICES,
) -> StartingPhaseResult:
    """The three steps of the Starting Phase for the active side, in order, exactly.

    ``counters`` are the mission counters seen from the active side (``turn`` is filled in);
    ``opponent_counters`` those of the other side (needed for the ``both-sides`` option).

    Example:
        >>> from rulesbook.systems.warstrike.missions import mission
        >>> force = StrikeForce(starting_units=10, units_on_table=3, units_in_reserve=1,
        ...                     officers=(Officer(8),))
        >>> counters = {"objectives_held": 2, "enemy_units_remaining": 6, "units_escorted": 0}
        >>> r = starting_phase(force, mission("seize-the-crossing"), side="attacker", turn=3,
        ...                    counters=counters)
        >>> r.outcome["retreat"], r.outcome["victory"], r.outcome["continue"]
        (Fraction(5, 18), Fraction(13, 18), Fraction(0, 1))
    """
    log: list[str] = [f"Starting Phase of turn {turn}: {force.name} ({side}), mission {mission.title}."]
    readings = choices.readings
    log.append("Step 1 — Check Strike Force Morale.")
    morale = _force_morale(force, choices)
    log.extend("  " + line for line in morale.log)
    p_retreat = morale.p_retreat
    log.append(
        "Step 2 — Check Victory Conditions"
        + (" (reached only if the force fights on)." if p_retreat else ".")
    )
    met, opp_met = _victory_conditions(force, mission, side, turn, counters, opponent_counters, choices, log)
    if met and readings.retreat_and_victory == "victory-first":
        p_retreat = Fraction(0)
        log.append("  Under the victory-first house rule the met conditions win despite any retreat.")
    fight_on = 1 - p_retreat
    outcome = {
        "retreat": p_retreat,
        "victory": fight_on if met else Fraction(0),
        "defeat": fight_on if (opp_met and not met) else Fraction(0),
        "continue": fight_on if not (met or opp_met) else Fraction(0),
    }
    roll = reserve_roll(mission, choices)
    arrivals = reserve_arrivals(mission, force.units_in_reserve, turn, choices)
    log.extend(_reserves_lines(force, roll, turn, outcome["continue"], arrivals, choices))
    log.append("Outcome: " + ", ".join(f"{k} {fraction_str(v)}" for k, v in outcome.items() if v) + ".")
    return StartingPhaseResult(morale, met, opp_met, outcome, arrivals, tuple(log))


def _force_morale(force: StrikeForce, choices: WarStrikeChoices) -> MoraleResult:
    """Step 1 for a force: its testing officer (and, by the reading ``every-officer``, the others
    in turn, best Ld first) or its units' vote."""
    readings = choices.readings
    led = not force.hive_mind or readings.hive_mind_officers == "officer-leads"
    officer_ld = force.testing_officer_ld(choices) if led else None
    more: tuple[int, ...] = ()
    if officer_ld is not None and readings.officer_attempts == "every-officer":
        others = [o.ld for o in force.officers if o.can_test]
        others.remove(officer_ld)
        more = tuple(sorted(others, reverse=True))
    return strike_force_morale(
        starting_units=force.starting_units,
        remaining_units=force.remaining_units,
        officer_ld=officer_ld,
        hive_mind=force.hive_mind,
        unit_lds=force.unit_lds,
        fanatical=force.fanatical,
        units_in_reserve=force.units_in_reserve,
        choices=choices,
        more_officer_lds=more,
        checked_before=force.checked_before,
    )


def _victory_conditions(
    force: StrikeForce,
    mission: Mission,
    side: Side,
    turn: int,
    counters: dict[str, int],
    opponent_counters: dict[str, int] | None,
    choices: WarStrikeChoices,
    log: list[str],
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Step 2: the active side's met conditions and (by the reading ``both-sides``) the other
    side's, their lines added to ``log``."""
    both = choices.readings.victory_whose_conditions == "both-sides"
    own = {**{c: 0 for c in COUNTERS}, **counters, "turn": turn}
    met = tuple(c.text for c in mission.met_conditions(side, own))
    other: Side = "defender" if side == "attacker" else "attacker"
    opp_met: tuple[str, ...] = ()
    if both:
        theirs = {**{c: 0 for c in COUNTERS}, **(opponent_counters or {}), "turn": turn}
        theirs["enemy_units_remaining"] = force.remaining_units
        opp_met = tuple(c.text for c in mission.met_conditions(other, theirs))
    if met:
        log.append(f"  The {side}'s conditions are met: {'; '.join(met)}")
    else:
        log.append(f"  None of the {side}'s conditions is met.")
    if both:
        log.append(
            f"  The {other}'s conditions: " + ("met: " + "; ".join(opp_met) if opp_met else "none met") + "."
        )
    return met, opp_met


def _reserves_lines(
    force: StrikeForce,
    roll: ReserveRoll,
    turn: int,
    p_continue: Fraction,
    arrivals: Distribution[int],
    choices: WarStrikeChoices,
) -> list[str]:
    """Step 3 in words: not reached when the game is over, else who may arrive and how."""
    if p_continue == 0:
        return ["Step 3 — Roll For Reserves: not reached, the game is over."]
    goes_on = " (reached only if the game goes on)" if p_continue != 1 else ""
    lines = [f"Step 3 — Roll For Reserves{goes_on}."]
    if force.units_in_reserve == 0:
        lines.append("  No unit is in reserve.")
    elif turn < roll.from_turn:
        lines.append(f"  Reserves may not arrive before turn {roll.from_turn}.")
    else:
        lines.append(
            f"  {force.units_in_reserve} unit(s) in reserve roll {roll.describe()} "
            f"(reading {choices.readings.reserves_roll}); expected arrivals {fixed(float(arrivals.mean()))}."
        )
    return lines
