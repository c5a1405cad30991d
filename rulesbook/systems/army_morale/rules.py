"""Army Morale rules as typed, pure code (source ``000_64815101829fb6f5.txt``).

Every morale change is a :class:`Term`: which side it hits, the rule behind it, a sign and a
dice expression (a constant such as ``3`` for Blast markers, ``D3`` per Take & Hold objective,
``D6`` for Bunker and Capture). The same terms serve both uses:

* the Rally calculator sums them as exact icepool dice (:func:`value_distribution`);
* the game-log ledger replays them with the dice results a player rolled
  (:meth:`Term.amount`).

Example:
    A Rally phase where side ``a`` (value 6) holds two Take & Hold objectives and carries 3
    Blast markers, and side ``b`` has one escort unit:

    >>> terms = rally_terms(RallyCounts(blast_markers=3, take_and_hold=2), RallyCounts(rescue_escorts=1))
    >>> [f"{t.side} {t.signed_text}" for t in terms]
    ['a -3', 'a +D3', 'a +D3', 'b +1', 'a -1']
    >>> dist = value_distribution(6, terms, "a")
    >>> dist.outcomes(), dist.p(6)
    ((4, 5, 6, 7, 8), Fraction(1, 3))
    >>> game_end(0, 3)
    'b'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import icepool

from rulesbook.dice import DICE_WORK_LIMIT, DiceExpr, constant, sum_work
from rulesbook.errors import CostError, InputError, quote
from rulesbook.registry import implements
from rulesbook.results import Distribution, fold_both_lose
from rulesbook.systems.army_morale.choices import CHOICES, ArmyMoraleChoices
from rulesbook.systems.army_morale.effects import EFFECT_RULE, EFFECTS_SECTION, MoraleEffect

__all__ = [
    "CAPTURE_CHOICES",
    "MAX_RALLY_PAIRS",
    "SIDES",
    "Band",
    "BandTable",
    "CaptureChoice",
    "RallyCounts",
    "Side",
    "Term",
    "Verdict",
    "added_effect",
    "added_effects",
    "army_value",
    "at_half_strength",
    "blast_marker_term",
    "bunker_term",
    "capture_term",
    "check_rally_cost",
    "destroyed_detachment_term",
    "detachment_strength",
    "detachment_value",
    "effect_term",
    "game_end",
    "half_strength_term",
    "joint_outcomes",
    "other",
    "rally_terms",
    "value_distribution",
    "war_engine_gain",
]

type Side = Literal["a", "b"]
SIDES: tuple[Side, Side] = ("a", "b")
type CaptureChoice = Literal["own", "destroy"]
CAPTURE_CHOICES: tuple[CaptureChoice, ...] = ("own", "destroy")
type Verdict = Literal["a", "b", "draw", "both-lose", "continue"]


def other(side: Side) -> Side:
    """The opposing side.

    >>> other("a"), other("b")
    ('b', 'a')
    """
    return "b" if side == "a" else "a"


# -- Detachment Morale values ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Band:
    """Detachments costing ``low``..``high`` points (inclusive) have Morale value ``value``."""

    low: int
    high: int
    value: int


@dataclass(frozen=True, slots=True)
class BandTable:
    """A rule set's own table of Detachment Morale values by points band.

    Example:
        >>> published_bands().value(230)
        5
        >>> published_bands().value(300)
        Traceback (most recent call last):
        ...
        rulesbook.errors.InputError: points: no Morale value is known for 300 points; known bands: 201-250
    """

    bands: tuple[Band, ...]

    def value(self, points: int) -> int:
        """The Morale value of a detachment costing ``points`` (InputError outside every band)."""
        for band in self.bands:
            if band.low <= points <= band.high:
                return band.value
        known = ", ".join(f"{b.low}-{b.high}" for b in self.bands)
        raise InputError("points", f"no Morale value is known for {points} points; known bands: {known}")


def published_bands(choices: ArmyMoraleChoices = CHOICES) -> BandTable:
    """The one band the source states (201–250 points → Morale value 5, rule parameters)."""
    p = choices.parameters
    return BandTable((Band(p.band_low, p.band_high, p.band_value),))


@implements("army-morale.detachment.value")
def detachment_value(
    points: int, choices: ArmyMoraleChoices = CHOICES, table: BandTable | None = None
) -> int:
    """The Detachment Morale value of a detachment costing ``points``.

    The reading ``formula`` picks one per started ``points_per_morale`` points or only the
    published band; a rule set's own ``table`` takes precedence over both.

    >>> detachment_value(201), detachment_value(250), detachment_value(251), detachment_value(49)
    (5, 5, 6, 1)
    >>> detachment_value(225, CHOICES.replace(readings={"formula": "source-only"}))
    5
    >>> detachment_value(120, table=BandTable((Band(1, 150, 2),)))
    2
    >>> detachment_value(225, CHOICES.replace(parameters={"detachment_value_bonus": 1}))
    6
    """
    if points < 0:
        raise InputError("points", f"expected a points cost of 0 or more, got {points}")
    if table is not None:
        value = table.value(points)
    elif choices.readings.formula == "source-only":
        value = published_bands(choices).value(points)
    else:
        value = math.ceil(Fraction(points, choices.parameters.points_per_morale))
    return max(0, value + choices.parameters.detachment_value_bonus)


# -- Strength and Army Morale value -------------------------------------------------------------


@implements("army-morale.detachment.strength")
def detachment_strength(units: int = 0, damage_capacities: Sequence[int] = ()) -> int:
    """Detachment strength, the one measure of a detachment's size used everywhere.

    The number of units; for a detachment of War Engines, the total of their (current)
    Damage Capacity.

    >>> detachment_strength(units=20), detachment_strength(damage_capacities=[4, 4, 4])
    (20, 12)
    """
    return sum(damage_capacities) if damage_capacities else units


@implements("army-morale.detachment.strength", "army-morale.one-time.half-strength")
def at_half_strength(current: int, initial: int, choices: ArmyMoraleChoices = CHOICES) -> bool:
    """Whether a detachment with ``current`` of ``initial`` strength counts as reduced to half.

    Strength is the number of units, or the total current Damage Capacity of a War Engine
    detachment; "half" is 1/``half_strength_divisor`` and the reading
    ``half_strength_threshold`` says how an odd strength is compared.

    >>> at_half_strength(10, 20), at_half_strength(11, 20), at_half_strength(6, 12)
    (True, False, True)
    >>> up, below = (CHOICES.replace(readings={"half_strength_threshold": t}) for t in ("round-up", "below-half"))
    >>> at_half_strength(8, 15), at_half_strength(8, 15, up), at_half_strength(10, 20, below)
    (False, True, False)
    """
    d = choices.parameters.half_strength_divisor
    match choices.readings.half_strength_threshold:
        case "round-up":
            return current <= -(-initial // d)
        case "below-half":
            return d * current < initial
        case _:
            return d * current <= initial


@implements("army-morale.army.value")
def army_value(detachment_values: Iterable[int]) -> int:
    """An army's starting Army Morale value: the sum of its Detachment Morale values.

    >>> army_value([5, 4, 3])
    12
    """
    return sum(detachment_values)


@implements("army-morale.one-time.war-engine-destroyed")
def war_engine_gain(war_engine_value: Fraction | int, choices: ArmyMoraleChoices = CHOICES) -> int:
    """What destroying (not wrecking) an enemy War Engine adds: half its own Morale value
    (1/``war_engine_divisor``), rounded as the reading ``war_engine_rounding`` says.

    >>> down = CHOICES.replace(readings={"war_engine_rounding": "round-down"})
    >>> war_engine_gain(5), war_engine_gain(5, down), war_engine_gain(4)
    (3, 2, 2)
    >>> war_engine_gain(Fraction(5, 2))
    2
    """
    half = Fraction(war_engine_value) / choices.parameters.war_engine_divisor
    return math.ceil(half) if choices.readings.war_engine_rounding == "round-up" else math.floor(half)


# -- Terms: one morale change each ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    """One change to one side's Army Morale value: ``sign`` × ``dice``, by ``rule``.

    Example:
        >>> from rulesbook.dice import D6
        >>> t = Term("b", "army-morale.one-time.bunker", -1, D6, "bunker")
        >>> t.signed_text, t.amount(4), t.rolls_dice
        ('-D6', -4, True)
    """

    side: Side
    rule: str
    sign: int
    dice: DiceExpr
    note: str = ""

    @property
    def rolls_dice(self) -> bool:
        """True when a player must roll for this term."""
        return not self.dice.is_constant

    @property
    def signed_text(self) -> str:
        """The change as text, e.g. ``+D3`` or ``-3``."""
        return ("+" if self.sign > 0 else "-") + str(self.dice)

    def amount(self, roll: int | None = None) -> int:
        """The change once rolled: ``roll`` is the dice total (``None`` for a constant)."""
        if self.dice.is_constant:
            return self.sign * self.dice.modifier
        if roll is None or not self.dice.can_total(roll):
            raise InputError("roll", f"{self.note or self.rule} needs a {self.dice} result, got {roll}")
        return self.sign * roll

    def die(self) -> icepool.Die[int]:
        """The change as an exact icepool die."""
        die = self.dice.die()
        return die if self.sign > 0 else -die


@dataclass(frozen=True, slots=True)
class RallyCounts:
    """What one side has at the end of a Rally phase (step R4).

    Attributes:
        blast_markers: Blast markers left on the side's detachments.
        take_and_hold: Take & Hold objectives the side controls (D3 each).
        rescue_escorts: the side's escort units (Rescue objective).
        cleanse: Cleanse objectives the side controls.
        capture_own: Capture objectives controlled for which the side picks "capture" (+D6).
        capture_destroy: Capture objectives controlled for which it picks "destroy" (−D6
            to the opponent).
        effects: ``(key, count)`` of the morale effects a variant adds that the side reports
            at step R4 (:func:`added_effects`).
    """

    blast_markers: int = 0
    take_and_hold: int = 0
    rescue_escorts: int = 0
    cleanse: int = 0
    capture_own: int = 0
    capture_destroy: int = 0
    effects: tuple[tuple[str, int], ...] = ()


@implements(
    "army-morale.ongoing.blast-markers",
    "army-morale.ongoing.take-and-hold",
    "army-morale.ongoing.rescue",
    "army-morale.ongoing.cleanse",
    "army-morale.one-time.capture",
)
def rally_terms(a: RallyCounts, b: RallyCounts, choices: ArmyMoraleChoices = CHOICES) -> tuple[Term, ...]:
    """Every change the end of a Rally phase brings, in the ledger's order.

    Per side: Blast markers (−1 each), Take & Hold (+D3 per objective, one term each),
    Rescue (+1 own and −1 to the opponent per escort unit), Cleanse (+1 each), then Capture
    (+D6 own or −D6 to the opponent per objective, one term each), then the morale effects a
    variant adds, in the order reported. Empty effects are left out; the numbers and dice are the
    rule parameters of ``choices``.

    >>> [t.signed_text for t in rally_terms(RallyCounts(cleanse=2, capture_destroy=1), RallyCounts())]
    ['+2', '-D6']
    """
    p = choices.parameters
    out: list[Term] = []
    for s, counts in zip(SIDES, (a, b), strict=True):
        opp = other(s)
        if counts.blast_markers:
            out.append(blast_marker_term(s, counts.blast_markers, "Blast markers", choices))
        out += [
            Term(
                s,
                "army-morale.ongoing.take-and-hold",
                +1,
                p.take_and_hold_dice,
                f"Take & Hold objective {i + 1}",
            )
            for i in range(counts.take_and_hold)
        ]
        if counts.rescue_escorts:
            n = counts.rescue_escorts
            out.append(
                Term(s, "army-morale.ongoing.rescue", +1, constant(p.rescue_gain * n), "own escort units")
            )
            out.append(
                Term(
                    opp,
                    "army-morale.ongoing.rescue",
                    -1,
                    constant(p.rescue_loss * n),
                    "opponent's escort units",
                )
            )
        if counts.cleanse:
            gain = constant(p.cleanse_gain * counts.cleanse)
            out.append(Term(s, "army-morale.ongoing.cleanse", +1, gain, "Cleanse objectives"))
        out += [
            capture_term(s, "own", f"Capture objective {i + 1}", choices) for i in range(counts.capture_own)
        ]
        out += [
            capture_term(s, "destroy", f"Capture objective {counts.capture_own + i + 1}", choices)
            for i in range(counts.capture_destroy)
        ]
        for key, count in counts.effects:
            if count:
                out.append(effect_term(s, key, added_effect(key, choices, f"{s}_effects"), count, choices))
    return tuple(out)


MAX_RALLY_PAIRS = 20_000
"""The most pairs of values the Rally phase odds may list (both sides' values after step R4, one
row of the joint table each): the printed dice reach at most 81 × 81; a variant's bigger dice
beyond this are refused before any work."""


def check_rally_cost(a: RallyCounts, b: RallyCounts, choices: ArmyMoraleChoices = CHOICES) -> None:
    """Refuse, in one line naming the input that adds most, Rally phase odds whose dice would
    give more than :data:`MAX_RALLY_PAIRS` pairs of values or more work than the calculators
    allow (see :data:`rulesbook.dice.DICE_WORK_LIMIT`).

    >>> check_rally_cost(RallyCounts(take_and_hold=10, capture_own=6), RallyCounts(capture_destroy=6))
    >>> big = CHOICES.replace(parameters={"take_and_hold_dice": "20D20"})
    >>> check_rally_cost(RallyCounts(take_and_hold=10), RallyCounts(take_and_hold=10), big)
    Traceback (most recent call last):
    ...
    rulesbook.errors.CostError: a_take_and_hold: the Rally phase odds would list about 14,447,601 pairs of values (at most 20,000), with 20D20 per Take & Hold objective and D6 per Capture objective; use fewer objectives or smaller dice
    """
    terms = rally_terms(a, b, choices)
    work, pairs = 0.0, 1
    for side in SIDES:
        side_work, size = sum_work([t.dice for t in terms if t.side == side and t.rolls_dice])
        work, pairs = work + side_work, pairs * size
    work += pairs * PAIR_WORK
    if pairs <= MAX_RALLY_PAIRS and work <= DICE_WORK_LIMIT:
        return
    p = choices.parameters
    spans = {
        f"{s}_{key}": count * (dice.maximum - dice.minimum)
        for s, counts in zip(SIDES, (a, b), strict=True)
        for key, count, dice in (
            ("take_and_hold", counts.take_and_hold, p.take_and_hold_dice),
            ("capture_own", counts.capture_own, p.capture_dice),
            ("capture_destroy", counts.capture_destroy, p.capture_dice),
        )
    }
    field = max(spans, key=lambda k: spans[k])
    what = (
        f"would list about {pairs:,} pairs of values (at most {MAX_RALLY_PAIRS:,})"
        if pairs > MAX_RALLY_PAIRS
        else f"would need about {work / DICE_WORK_LIMIT:.1f} times the work the calculators allow (about 1 s)"
    )
    raise CostError(
        field,
        f"the Rally phase odds {what}, with {p.take_and_hold_dice} per Take & Hold objective and "
        f"{p.capture_dice} per Capture objective; use fewer objectives or smaller dice",
        times=None if pairs > MAX_RALLY_PAIRS else work / DICE_WORK_LIMIT,
    )


PAIR_WORK = 40.0
"""Work of one pair of values in the joint table (an exact product, its text and its verdict)."""


def added_effects(choices: ArmyMoraleChoices = CHOICES) -> tuple[tuple[str, MoraleEffect], ...]:
    """The morale effects ``choices`` adds (a variant's ``add: morale_effects:``), ``(key, effect)``.

    >>> added_effects()
    ()
    """
    return tuple(choices.additions.section(EFFECTS_SECTION))


def added_effect(key: str, choices: ArmyMoraleChoices = CHOICES, field: str = "effect") -> MoraleEffect:
    """The added morale effect ``key`` (InputError naming ``field`` and the known keys otherwise).

    >>> added_effect("general-slain")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: effect: unknown morale effect 'general-slain'; these rules add none (a variant adds them under add: morale_effects)
    """
    effect = dict(added_effects(choices)).get(key)
    if effect is None:
        known = ", ".join(k for k, _ in added_effects(choices))
        have = (
            f"these rules add: {known}"
            if known
            else "these rules add none (a variant adds them under add: morale_effects)"
        )
        raise InputError(field, f"unknown morale effect {quote(key)}; {have}")
    return effect


@implements(EFFECT_RULE)
def effect_term(
    side: Side, key: str, effect: MoraleEffect, count: int = 1, choices: ArmyMoraleChoices = CHOICES
) -> Term:
    """An added morale effect applying ``count`` times for ``side``: its value (× count) to
    ``side`` (or to the opponent, ``target: opponent``). An ongoing effect reported several
    times counts once per instance unless the reading ``added_ongoing_count`` says once per
    Rally phase.

    >>> gain = MoraleEffect("Supply lines", 2, "ongoing", "end-of-rally")
    >>> effect_term("a", "supply-lines", gain, 3).amount()
    6
    >>> once = CHOICES.replace(readings={"added_ongoing_count": "once-per-rally"})
    >>> effect_term("a", "supply-lines", gain, 3, once).amount()
    2
    >>> effect_term("a", "raid", MoraleEffect("Raid", -2, target="opponent")).side
    'b'
    """
    if effect.kind == "ongoing" and choices.readings.added_ongoing_count == "once-per-rally":
        count = min(count, 1)
    target = side if effect.target == "own" else other(side)
    times = f" x{count}" if count != 1 else ""
    note = f"{effect.name} ({key}, {effect.kind}){times}"
    return Term(target, EFFECT_RULE, 1 if effect.value > 0 else -1, constant(abs(effect.value) * count), note)


@implements("army-morale.ongoing.blast-markers")
def blast_marker_term(side: Side, markers: int, note: str, choices: ArmyMoraleChoices = CHOICES) -> Term:
    """``markers`` Blast markers on ``side``'s detachments at step R4: −1 each.

    >>> blast_marker_term("a", 3, "Blast markers").amount()
    -3
    """
    loss = constant(choices.parameters.blast_marker_loss * markers)
    return Term(side, "army-morale.ongoing.blast-markers", -1, loss, note)


@implements("army-morale.one-time.capture")
def capture_term(
    side: Side, choice: CaptureChoice, note: str = "Capture objective", choices: ArmyMoraleChoices = CHOICES
) -> Term:
    """One Capture objective held by ``side``: +D6 to itself, or −D6 to the opponent.

    >>> capture_term("a", "destroy").side
    'b'
    """
    dice = choices.parameters.capture_dice
    if choice == "own":
        return Term(side, "army-morale.one-time.capture", +1, dice, f"{note} (capture)")
    return Term(other(side), "army-morale.one-time.capture", -1, dice, f"{note} (destroy)")


@implements("army-morale.one-time.bunker")
def bunker_term(by: Side, choices: ArmyMoraleChoices = CHOICES) -> Term:
    """``by`` destroys one of its Bunker objectives (one set for it to destroy): the opponent loses D6.

    >>> bunker_term("a").signed_text, bunker_term("a").side
    ('-D6', 'b')
    """
    dice = choices.parameters.bunker_dice
    return Term(other(by), "army-morale.one-time.bunker", -1, dice, "bunker objective destroyed")


@implements("army-morale.one-time.half-strength")
def half_strength_term(side: Side, detachment_morale: int, detachment: str = "") -> Term:
    """The half-strength effect: the detachment's own Morale value comes off its army.

    >>> half_strength_term("a", 5).amount()
    -5
    """
    return Term(side, "army-morale.one-time.half-strength", -1, constant(detachment_morale), detachment)


@implements("army-morale.one-time.destroyed-detachment-blast-markers")
def destroyed_detachment_term(
    side: Side, blast_markers: int, detachment: str = "", choices: ArmyMoraleChoices = CHOICES
) -> Term:
    """A wiped-out detachment costs its army 1 per Blast marker it carried.

    >>> destroyed_detachment_term("b", 2).amount()
    -2
    """
    loss = constant(choices.parameters.destroyed_marker_loss * blast_markers)
    return Term(side, "army-morale.one-time.destroyed-detachment-blast-markers", -1, loss, detachment)


# -- Exact distributions and the game end ---------------------------------------------------------


def value_distribution(start: int, terms: Sequence[Term], side: Side) -> Distribution[int]:
    """Exact distribution of ``side``'s value after applying every term aimed at it.

    >>> value_distribution(5, [bunker_term("a")], "b").outcomes()
    (-1, 0, 1, 2, 3, 4)
    """
    die: icepool.Die[int] = icepool.Die([start])
    for term in terms:
        if term.side == side:
            die = die + term.die()
    return Distribution.from_die(die)


@implements("army-morale.game-end")
def game_end(a: int, b: int, choices: ArmyMoraleChoices = CHOICES) -> Verdict:
    """The game-end check of step R4 once every modifier is applied.

    Returns the winning side, ``draw`` (or ``both-lose``, the reading ``equal_values``) or
    ``continue``.

    >>> game_end(3, 0), game_end(-1, -4), game_end(-2, -2), game_end(1, 1)
    ('a', 'a', 'draw', 'continue')
    """
    if a > 0 and b > 0:
        return "continue"
    if a > 0:
        return "a"
    if b > 0:
        return "b"
    if a == b:
        return choices.readings.equal_values
    return "a" if a > b else "b"


def joint_outcomes(
    a: Distribution[int], b: Distribution[int], choices: ArmyMoraleChoices = CHOICES
) -> dict[Verdict, Fraction]:
    """P(each verdict) when the two values are independent with these distributions.

    >>> joint_outcomes(Distribution.certain(0), Distribution.certain(2))["b"]
    Fraction(1, 1)
    """
    out: dict[Verdict, Fraction] = {
        "a": Fraction(0),
        "b": Fraction(0),
        "draw": Fraction(0),
        "continue": Fraction(0),
    }
    for va, pa in a:
        for vb, pb in b:
            out[fold_both_lose(game_end(va, vb, choices))] += pa * pb
    return out
