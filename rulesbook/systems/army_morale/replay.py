"""The replay: a game log turned into both Army Morale values, with an audit trail.

:func:`replay` applies every event and every Rally phase of a :class:`~.log.GameLog` in order and
returns a :class:`Ledger` — both values after every change, each change tagged with the rule ID
behind it, the values at each step R4, the result and warnings. An impossible log raises
:class:`~rulesbook.errors.InputError` naming its line.

Example:
    >>> from rulesbook.systems.army_morale.log import EXAMPLE_LOG
    >>> from rulesbook.systems.army_morale.logfile import load_log
    >>> ledger = replay(load_log(EXAMPLE_LOG))
    >>> ledger.start, ledger.values, ledger.verdict, ledger.ended_turn
    ((14, 10), (3, -6), 'a', 3)
    >>> ledger.entries[-1].rule
    'army-morale.game-end'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import assert_never

from rulesbook.errors import InputError, quote
from rulesbook.registry import implements
from rulesbook.systems.army_morale.choices import ArmyMoraleChoices
from rulesbook.systems.army_morale.effects import MoraleEffect
from rulesbook.systems.army_morale.entries import Ledger, LedgerEntry, Phase
from rulesbook.systems.army_morale.log import (
    AddedEffect,
    Adjustment,
    BunkerDestroyed,
    Detachment,
    DetachmentDestroyed,
    Event,
    GameLog,
    HalfStrength,
    Loc,
    Losses,
    RallySide,
    Turn,
    WarEngine,
    WarEngineDestroyed,
    event_kind,
)
from rulesbook.systems.army_morale.names import Naming
from rulesbook.systems.army_morale.rules import (
    SIDES,
    RallyCounts,
    Side,
    Term,
    Verdict,
    added_effect,
    at_half_strength,
    blast_marker_term,
    bunker_term,
    destroyed_detachment_term,
    detachment_value,
    effect_term,
    game_end,
    half_strength_term,
    other,
    rally_terms,
    war_engine_gain,
)

__all__ = ["replay"]


@dataclass
class _DetState:
    det: Detachment
    side: Side
    morale: int
    strength: int
    name: str
    """The name a player reads (numbered when a side has two of that name)."""

    @property
    def ref(self) -> str:
        """The detachment in a message: its name, or the quoted ID a log gave it without one."""
        return self.name if self.det.name else quote(self.det.id)

    half_line: Loc | None = None
    destroyed_line: Loc | None = None
    destroyed_turn: int = 0
    destroyed_markers: int = 0
    zero_line: Loc | None = None
    """Where the strength first reached 0 (losses or War Engines lost)."""
    engine_left: dict[str, int] = field(default_factory=dict)
    """Strength each War Engine still holds: its Damage Capacity less the losses named for it
    (one unit in a detachment counted in units); an engine leaves when destroyed or wrecked."""
    unnamed: int = 0
    """Losses logged for the detachment without naming a War Engine, not yet placed on one."""

    @property
    def measure(self) -> str:
        return "Damage Capacity" if self.det.strength == "damage-capacity" else "units"

    def weight(self, we: WarEngine) -> int:
        """A War Engine's share of the strength: its Damage Capacity, or one unit."""
        return we.damage_capacity if self.det.strength == "damage-capacity" else 1


class _Replay:
    def __init__(self, log: GameLog, choices: ArmyMoraleChoices | None, in_words: bool = False) -> None:
        self.log = log
        self.naming = Naming(log, in_words)
        self.where, self.engine, self.engine_name = (
            self.naming.where,
            self.naming.engine,
            self.naming.engine_name,
        )
        self.choices = log.choices(choices)
        self.read = self.choices.readings
        self.values: dict[Side, int] = {"a": 0, "b": 0}
        self.entries: list[LedgerEntry] = []
        self.dets: dict[str, _DetState] = {}
        self.wes: dict[str, tuple[WarEngine, _DetState]] = {}
        self.we_done: dict[str, tuple[str, Loc]] = {}
        self.captured: dict[tuple[Side, str], Loc] = {}
        self.bunkers: dict[tuple[Side, str], Loc] = {}
        self.effects_used: dict[tuple[Side | None, str], Loc] = {}
        self.turn = 0
        self.notes: list[str] = []

    def fail(self, at: Loc, message: str) -> InputError:
        return InputError("log", f"{self.naming.prefix(at, self.log.source)}: {message}")

    def add(
        self,
        side: Side | None,
        change: int,
        rule: str,
        note: str,
        at: Loc,
        phase: Phase,
        roll: int | None = None,
    ) -> None:
        if side is not None:
            self.values[side] += change
        self.entries.append(
            LedgerEntry(
                self.turn, phase, at.line, side, change, self.values["a"], self.values["b"], rule, note, roll
            )
        )

    def apply(self, term: Term, at: Loc, phase: Phase, roll: int | None = None) -> None:
        try:
            amount = term.amount(roll)
        except InputError as exc:
            raise self.fail(at, exc.message) from None
        rolled = f" (rolled {roll})" if term.rolls_dice else ""
        self.add(term.side, amount, term.rule, f"{term.note}{rolled}", at, phase, roll)

    # -- setup ---------------------------------------------------------------------------
    def setup(self) -> None:
        names = self.naming.detachments
        for side, army in zip(SIDES, self.log.armies, strict=True):
            for d in army.detachments:
                if d.id in self.dets or d.id in self.wes:
                    raise self.fail(d.at, f"detachment ID {quote(d.id)} is used twice")
                if d.morale is not None:
                    morale, how = d.morale, "stated"
                else:
                    try:
                        morale = detachment_value(d.points, self.choices)
                    except InputError as exc:
                        raise self.fail(
                            d.at, f"detachment {names[d.id] if d.name else quote(d.id)}: {exc.message}"
                        ) from None
                    how = f"{d.points} pts"
                st = _DetState(d, side, morale, d.initial_strength, names[d.id])
                self.dets[d.id] = st
                for w in d.war_engines:
                    if w.id in self.wes or w.id in self.dets:
                        raise self.fail(w.at, f"War Engine ID {quote(w.id)} is used twice")
                    self.wes[w.id] = (w, st)
                    st.engine_left[w.id] = st.weight(w)
                held = sum(st.engine_left.values())
                if d.initial_strength < held:
                    raise self.fail(
                        d.at,
                        f"detachment {st.ref}: initial_strength {d.initial_strength} is less than "
                        f"its War Engines alone ({held} {st.measure})",
                    )
                self.add(
                    side,
                    morale,
                    "army-morale.army.value",
                    f"{st.name}: Morale value {morale} ({how})",
                    d.at,
                    "setup",
                )

    # -- events --------------------------------------------------------------------------
    def detachment(self, det_id: str, at: Loc) -> _DetState:
        st = self.dets.get(det_id)
        if st is None:
            known = ", ".join(self.dets) or "none"
            raise self.fail(at, f"unknown detachment {quote(det_id)}; known: {known}")
        if st.destroyed_line is not None:
            raise self.fail(
                at, f"detachment {st.ref} was already destroyed ({self.where(st.destroyed_line)})"
            )
        return st

    def half_strength(self, st: _DetState, at: Loc, why: str) -> None:
        self.apply(half_strength_term(st.side, st.morale, f"{st.name} {why}"), at, "battle")
        st.half_line = at

    def event(self, e: Event) -> None:
        """Apply one logged event (one method per kind of event)."""
        match e:
            case Losses():
                self.losses(e)
            case HalfStrength():
                self.declared_half_strength(e)
            case DetachmentDestroyed():
                self.detachment_destroyed(e)
            case WarEngineDestroyed():
                self.war_engine_destroyed(e)
            case BunkerDestroyed():
                self.bunker_destroyed(e)
            case Adjustment():
                self.add(e.side, e.amount, event_kind(e.type).rule, f"adjustment: {e.reason}", e.at, "battle")
            case AddedEffect():
                self.added_effect_event(e)
            case _:
                assert_never(e)

    def losses(self, e: Losses) -> None:
        """Models, wounds or Damage lost: the strength falls (a named War Engine's own first)."""
        st = self.detachment(e.detachment, e.at)
        if e.lost > st.strength:
            raise self.fail(
                e.at,
                f"detachment {st.ref} has {st.strength} {st.measure} left, cannot lose {e.lost}",
            )
        if e.war_engine:
            self.named_losses(st, e)
        else:
            st.unnamed += e.lost
        st.strength -= e.lost
        by = f" ({self.engine_name(self.wes[e.war_engine][0])})" if e.war_engine else ""
        self.add(
            None,
            0,
            event_kind(e.type).rule,
            f"{st.name}{by} loses {e.lost}: {st.strength} of {st.det.initial_strength} {st.measure}",
            e.at,
            "battle",
        )
        self.strength_changed(st, e.at)

    def declared_half_strength(self, e: HalfStrength) -> None:
        """A detachment declared at half strength: its effect once, a note when the logged losses
        disagree."""
        st = self.detachment(e.detachment, e.at)
        if st.half_line is not None:
            raise self.fail(
                e.at,
                f"detachment {st.ref} already took its half-strength effect "
                f"({self.where(st.half_line)}); it applies once per detachment",
            )
        self.half_strength(st, e.at, "declared at half strength")
        if st.strength < st.det.initial_strength and not at_half_strength(
            st.strength, st.det.initial_strength, self.choices
        ):
            self.notes.append(
                f"detachment {st.name} was declared at half strength ({self.where(e.at)}) "
                f"although its logged losses leave {st.strength} of {st.det.initial_strength}"
            )

    def detachment_destroyed(self, e: DetachmentDestroyed) -> None:
        """A detachment destroyed, with its Blast markers (and, by the reading, its half-strength
        effect too)."""
        st = self.detachment(e.detachment, e.at)
        st.strength = 0
        st.destroyed_turn, st.destroyed_markers = self.turn, e.blast_markers
        if st.half_line is None and self.read.half_strength_when_destroyed == "both":
            self.half_strength(st, e.at, "destroyed, so also at half strength")
        self.apply(
            destroyed_detachment_term(
                st.side,
                e.blast_markers,
                f"{st.name} destroyed with {e.blast_markers} Blast markers",
                self.choices,
            ),
            e.at,
            "battle",
        )
        st.destroyed_line = e.at

    def war_engine_destroyed(self, e: WarEngineDestroyed) -> None:
        """A War Engine destroyed (the enemy gains half its Morale value) or wrecked (no gain);
        each counts once."""
        found = self.wes.get(e.war_engine)
        if found is None:
            known = ", ".join(self.wes) or "none"
            raise self.fail(e.at, f"unknown War Engine {quote(e.war_engine)}; known: {known}")
        we, st = found
        if e.war_engine in self.we_done:
            self.war_engine_again(we, e)
        self.we_done[e.war_engine] = (e.result, e.at)
        gainer = other(st.side)
        label = self.engine_name(we)
        rule = event_kind(e.type).rule
        removes = e.result == "destroyed" or self.read.wrecked_war_engine_strength == "removed"
        if removes and st.destroyed_line is None and we.id in st.engine_left:
            self.remove_engine(st, we, e.result, e.at)
        if e.result == "wrecked":
            self.add(gainer, 0, rule, f"{label} wrecked, not destroyed: no gain", e.at, "battle")
            return
        value = self.war_engine_value(we, st, e.at)
        gain = war_engine_gain(value, self.choices)
        self.add(
            gainer, gain, rule, f"enemy {label} destroyed: half of its Morale value {value}", e.at, "battle"
        )

    def war_engine_again(self, we: WarEngine, e: WarEngineDestroyed) -> None:
        """Refuse a War Engine counted a second time, unless a wreck is destroyed later and the
        reading ``wrecked-then-destroyed`` lets that count."""
        result, line = self.we_done[e.war_engine]
        if (
            result == "wrecked"
            and e.result == "destroyed"
            and self.read.wrecked_then_destroyed == "destroyed-counts"
        ):
            return
        hint = (
            " (to let a wreck be destroyed later, choose the interpretation "
            "wrecked-then-destroyed: destroyed-counts)"
            if result == "wrecked" and e.result == "destroyed"
            else ""
        )
        raise self.fail(
            e.at,
            f"War Engine {self.engine(we)} was already {result} ({self.where(line)}); it counts once{hint}",
        )

    def bunker_destroyed(self, e: BunkerDestroyed) -> None:
        """A bunker destroyed (a named one only once)."""
        if e.bunker:
            earlier = self.bunkers.get((e.side, e.bunker))
            if earlier is not None:
                raise self.fail(
                    e.at,
                    f"bunker {quote(e.bunker)} of side {e.side} was already destroyed ({self.where(earlier)})",
                )
            self.bunkers[(e.side, e.bunker)] = e.at
        self.apply(bunker_term(e.side, self.choices), e.at, "battle", e.roll)

    def added_effect_event(self, e: AddedEffect) -> None:
        """A morale effect the game's variant adds, used during the battle (not one checked at the
        end of the Rally phase)."""
        effect = self.added(e.effect, e.at)
        if effect.at_rally:
            raise self.fail(
                e.at,
                f"morale effect {quote(e.effect)} is checked at the end of the Rally phase; "
                f"report it under the turn's rally ({e.side}: effects: {{{e.effect}: 1}}), not as an event",
            )
        self.once(e.side, e.effect, effect, e.at)
        self.apply(effect_term(e.side, e.effect, effect, 1, self.choices), e.at, "battle")

    def added(self, key: str, at: Loc) -> MoraleEffect:
        """The morale effect ``key`` the game's variant adds (the log's line named otherwise)."""
        try:
            return added_effect(key, self.choices)
        except InputError as exc:
            raise self.fail(at, exc.message) from None

    def once(self, side: Side, key: str, effect: MoraleEffect, at: Loc) -> None:
        """Record a one-time effect's use; a second use in its context is refused (the reading
        ``added_one_time_context``: once per side, or once per game)."""
        if not effect.once_only:
            return
        per_side = self.read.added_one_time_context == "per-side"
        context = (side if per_side else None, key)
        earlier = self.effects_used.get(context)
        if earlier is not None:
            whom = f"side {side}" if per_side else "this game"
            raise self.fail(
                at,
                f"one-time morale effect {effect.name} was already applied for {whom} ({self.where(earlier)}); "
                "it applies once (added-one-time-context), unless the variant says once: false",
            )
        self.effects_used[context] = at

    def named_losses(self, st: _DetState, e: Losses) -> None:
        """Damage Capacity lost by one named War Engine of ``st``."""
        found = self.wes.get(e.war_engine)
        if found is None or found[1] is not st:
            mine = ", ".join(w.id for w in st.det.war_engines) or "none"
            raise self.fail(
                e.at,
                f"detachment {quote(e.detachment)} has no War Engine {quote(e.war_engine)}; its War Engines: {mine}",
            )
        if st.det.strength != "damage-capacity":
            raise self.fail(
                e.at,
                f"detachment {st.ref} counts its strength in units; name a War Engine in "
                "losses only for a detachment counted in Damage Capacity",
            )
        we = found[0]
        if e.war_engine not in st.engine_left:
            result, line = self.we_done[e.war_engine]
            raise self.fail(e.at, f"War Engine {self.engine(we)} was already {result} ({self.where(line)})")
        left = st.engine_left[e.war_engine]
        if e.lost > left:
            raise self.fail(
                e.at,
                f"War Engine {self.engine(we)} has {left} Damage Capacity left, cannot lose {e.lost}",
            )
        st.engine_left[e.war_engine] = left - e.lost

    def remove_engine(self, st: _DetState, we: WarEngine, result: str, at: Loc) -> None:
        """A destroyed (or wrecked) War Engine takes the strength it still held out of its detachment.

        Losses logged without naming a War Engine may or may not have been this one's; the
        interpretation ``war-engine-lost-strength`` says which (see rules.yaml).
        """
        left = st.engine_left.pop(we.id, 0)
        if self.read.war_engine_lost_strength == "unnamed-losses-first":
            drop = max(0, left - st.unnamed)  # the unnamed losses were this engine's first
        else:
            drop = min(left, st.strength)  # the unnamed losses were the other units'
        st.unnamed -= left - drop  # unnamed losses now placed on this engine
        st.strength -= drop
        lost = f"{drop} {st.measure}".replace("1 units", "1 unit")
        held = "it still held" if drop == left else f"more ({left - drop} already logged as losses)"
        self.add(
            None,
            0,
            "army-morale.detachment.strength",
            f"{self.engine_name(we)} {result}: {st.name} loses {lost} {held}, "
            f"{st.strength} of {st.det.initial_strength} left",
            at,
            "battle",
        )
        self.strength_changed(st, at)

    def strength_changed(self, st: _DetState, at: Loc) -> None:
        """The half-strength effect once the strength is low enough; note where it reached 0."""
        if st.half_line is None and at_half_strength(st.strength, st.det.initial_strength, self.choices):
            self.half_strength(st, at, f"reduced to {st.strength} of {st.det.initial_strength}")
        if st.strength == 0 and st.zero_line is None:
            st.zero_line = at

    def war_engine_value(self, we: WarEngine, st: _DetState, at: Loc) -> Fraction:
        if we.morale is not None:
            return Fraction(we.morale)
        if self.read.war_engine_value == "detachment-share":
            return Fraction(st.morale, len(st.det.war_engines))
        if we.points is None:
            raise self.fail(
                at,
                f"War Engine {self.engine(we)} has neither points nor morale in its army list ({self.where(we.at)})",
            )
        try:
            return Fraction(detachment_value(we.points, self.choices))
        except InputError as exc:
            raise self.fail(at, f"War Engine {self.engine(we)}: {exc.message}") from None

    # -- Rally -----------------------------------------------------------------------------
    def rally(self, turn: Turn, rally: tuple[RallySide, RallySide]) -> Verdict:
        """The Rally phase: each side's report (its effects, captures and rolls), the Blast
        markers of this turn's destroyed detachments by the reading, and step R4's verdict."""
        if self.read.strength_zero_without_event == "reject-at-r4":
            for st in self.dets.values():
                if st.strength == 0 and st.destroyed_line is None and st.zero_line is not None:
                    raise self.fail(
                        rally[0].at,
                        f"detachment {st.name} has had no strength left since {self.where(st.zero_line)} "
                        "but is not recorded as destroyed; log detachment-destroyed with its Blast "
                        "markers before step R4 (strength-zero-without-event: reject-at-r4)",
                    )
        for side, report in zip(SIDES, rally, strict=True):
            self.rally_report(side, report)
        if self.read.destroyed_markers_at_r4 == "counted-again":
            for st in self.dets.values():
                if st.destroyed_turn == self.turn and st.destroyed_markers and st.destroyed_line:
                    note = f"Blast markers of {st.name}, destroyed this turn, counted again"
                    term = blast_marker_term(st.side, st.destroyed_markers, note, self.choices)
                    self.apply(term, st.destroyed_line, "rally")
        verdict = game_end(self.values["a"], self.values["b"], self.choices)
        text = {
            "continue": "no side at 0 or less: the game goes on",
            "draw": "both at 0 or less and equal: draw",
            "both-lose": "both at 0 or less and equal: both lose",
        }.get(verdict, f"side {verdict} wins")
        self.add(None, 0, "army-morale.game-end", f"step R4: {text}", turn.at, "end")
        return verdict

    def rally_report(self, side: Side, report: RallySide) -> None:
        """One side's Rally report: its morale effects (each checked at the Rally), its captures
        (once per objective, by the reading) and the terms it gains, with their rolls."""
        for key, count in report.effects:
            effect = self.added(key, report.at)
            if not effect.at_rally:
                raise self.fail(
                    report.at,
                    f"morale effect {quote(key)} applies the moment it happens; log it as an event "
                    f"{{type: effect, effect: {key}, side: {side}}}, not in the Rally report",
                )
            if effect.once_only and count > 1:
                raise self.fail(report.at, f"one-time morale effect {quote(key)} applies once, got {count}")
            if count:
                self.once(side, key, effect, report.at)
        if self.read.capture_repeats == "once-per-objective":
            for c in report.capture:
                if not c.objective:
                    raise self.fail(
                        c.at, "with capture-repeats: once-per-objective every capture names its objective"
                    )
                if (side, c.objective) in self.captured:
                    raise self.fail(
                        c.at,
                        f"Capture objective {quote(c.objective)} already paid out "
                        f"({self.where(self.captured[(side, c.objective)])})",
                    )
                self.captured[(side, c.objective)] = c.at
        block = (
            rally_terms(report.counts(), RallyCounts(), self.choices)
            if side == "a"
            else rally_terms(RallyCounts(), report.counts(), self.choices)
        )
        rolls: Iterator[tuple[int, Loc]] = iter(report.rolls())
        for term in block:
            if term.rolls_dice:
                roll, at = next(rolls)
                self.apply(term, at, "rally", roll)
            else:
                self.apply(term, report.at, "rally")

    def run(self) -> Ledger:
        self.setup()
        start = (self.values["a"], self.values["b"])
        rally_values: list[tuple[int, int, int, Verdict]] = []
        verdict: Verdict = "continue"
        ended: int | None = None
        for i, turn in enumerate(self.log.turns):
            if ended is not None:
                raise self.fail(turn.at, f"the game already ended at the end of turn {ended}'s Rally phase")
            if turn.number != i + 1:
                raise self.fail(turn.at, f"turn {turn.number} out of order; expected turn {i + 1}")
            if i and self.log.turns[i - 1].rally is None:
                raise self.fail(
                    turn.at, f"turn {i} has no Rally phase recorded, so turn {turn.number} cannot start"
                )
            self.turn = turn.number
            for e in turn.events:
                self.event(e)
            if turn.rally is not None:
                verdict = self.rally(turn, turn.rally)
                rally_values.append((turn.number, self.values["a"], self.values["b"], verdict))
                if verdict != "continue":
                    ended = turn.number
        return Ledger(
            log=self.log,
            entries=tuple(self.entries),
            start=start,
            rally_values=tuple(rally_values),
            verdict=verdict,
            ended_turn=ended,
            warnings=tuple(self.warnings()),
            detachment_morale=tuple((k, s.morale) for k, s in self.dets.items()),
        )

    def warnings(self) -> Iterator[str]:
        yield from self.notes
        for st in self.dets.values():
            if st.destroyed_line is not None:
                yield f"detachment {st.name} is destroyed"
            elif st.strength == 0:
                since = f" since {self.where(st.zero_line)}" if st.zero_line is not None else ""
                yield (
                    f"detachment {st.name} has no strength left{since} but is not recorded as destroyed: "
                    "log detachment-destroyed with the Blast markers it carried, or their -1 each "
                    "(army-morale.one-time.destroyed-detachment-blast-markers) is missing"
                )
            elif st.half_line is not None:
                yield f"detachment {st.name} is at half strength (its Morale value {st.morale} is spent)"
        if self.log.turns and self.log.turns[-1].rally is None:
            yield f"turn {self.log.turns[-1].number}'s Rally phase is not recorded yet"


@implements("army-morale.effects.kinds", "army-morale.army.value")
def replay(log: GameLog, choices: ArmyMoraleChoices | None = None, *, in_words: bool = False) -> Ledger:
    """Replay a game log into a :class:`Ledger`; an impossible log raises InputError with its line.

    ``choices`` (a designer's variant; the published rules by default) gives the rule
    parameters and the readings the log does not choose itself (see :meth:`GameLog.choices`).
    ``in_words``: messages name places in a player's words (``turn 1, second event``), never a
    line of the file the log was read from — the table-side tracker's replay, where the log is
    the server's copy of the game, not the player's file. Detachments and War Engines are named
    as a player reads them, numbered when a side has two of one name (``Stompa (2)``).

    >>> from rulesbook.systems.army_morale.log import EXAMPLE_LOG
    >>> from rulesbook.systems.army_morale.logfile import load_log
    >>> log = load_log(EXAMPLE_LOG)
    >>> bad = log.with_event(2, HalfStrength("infantry", at=Loc(99, "turns[1].events[3]")))
    >>> try:
    ...     replay(bad)
    ... except InputError as exc:
    ...     print(exc.message)
    example-game.yaml line 99 (turns[1].events[3]): detachment Infantry company already took its half-strength effect \
(line 60); it applies once per detachment
    >>> try:
    ...     replay(bad, in_words=True)
    ... except InputError as exc:
    ...     print(exc.message)
    turn 2, fourth event: detachment Infantry company already took its half-strength effect (turn 2, first event); \
it applies once per detachment
    """
    return _Replay(log, choices, in_words).run()
