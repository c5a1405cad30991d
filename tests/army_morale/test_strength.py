"""Detachment strength in the ledger: lost War Engines take their Damage Capacity with them,
a detachment at 0 is flagged, and each registered alternative changes what it says it does.

Armies of ``ARMIES`` (tests/army_morale/test_ledger.py), worked by hand:
Red: foot (225 pts -> 5, 20 units) + titans (400 pts -> 8, titan-1 and titan-2: 200 pts ->
own value 4, Damage Capacity 6 each, initial strength 12) = 13. Blue: riders (150 pts -> 3,
6 units) = 3. The first event of a test is on line 22 (23 with one extra header line).
"""

from __future__ import annotations

import pytest

from rulesbook.errors import InputError
from rulesbook.systems.army_morale.entries import Ledger
from rulesbook.systems.army_morale.logfile import log_from_text
from rulesbook.systems.army_morale.replay import replay
from tests.army_morale.test_ledger import ARMIES, play, rejection


def notes(ledger: Ledger, rule: str) -> list[str]:
    return [e.note for e in ledger.entries if e.rule == rule]


@pytest.mark.covers(
    "army-morale.detachment.strength",
    "army-morale.one-time.half-strength",
    "army-morale.one-time.war-engine-destroyed",
)
def test_both_war_engines_destroyed_empty_their_detachment() -> None:
    ledger = replay(
        play("""
        - turn: 1
          events:
            - {type: war-engine-destroyed, war_engine: titan-1}
            - {type: war-engine-destroyed, war_engine: titan-2}
        """)
    )
    # titan-1: titans 12 -> 6 of 12, half strength: Red 13 - 8 = 5; Blue 3 + half of 4 = 5
    # titan-2: titans 6 -> 0; no second half-strength effect; Blue 5 + 2 = 7
    assert ledger.values == (5, 7)
    assert notes(ledger, "army-morale.detachment.strength") == [
        "titan-1 destroyed: titans loses 6 Damage Capacity it still held, 6 of 12 left",
        "titan-2 destroyed: titans loses 6 Damage Capacity it still held, 0 of 12 left",
    ]
    halves = [e for e in ledger.entries if e.rule == "army-morale.one-time.half-strength"]
    assert [(h.line, h.change) for h in halves] == [(22, -8)]
    warning = next(w for w in ledger.warnings if "titans" in w)
    assert warning.startswith("detachment titans has no strength left since line 23 but is not recorded")
    assert "army-morale.one-time.destroyed-detachment-blast-markers" in warning


@pytest.mark.covers("army-morale.one-time.destroyed-detachment-blast-markers")
def test_a_detachment_reduced_to_zero_is_flagged_not_just_at_half_strength() -> None:
    turns = """
    - turn: 1
      events:
        - {type: losses, detachment: riders, lost: 6}
    """
    ledger = replay(play(turns))
    assert ledger.values == (13, 3 - 3)  # half-strength effect only: riders' value 3
    riders = [w for w in ledger.warnings if "riders" in w]
    assert len(riders) == 1 and "has no strength left since line 22" in riders[0]
    assert "is at half strength" not in riders[0]
    # logging the destruction afterwards applies its Blast markers and clears the warning
    done = replay(
        play(
            turns.rstrip(" ")
            + "        - {type: detachment-destroyed, detachment: riders, blast_markers: 2}\n"
        )
    )
    assert done.values == (13, 0 - 2)
    assert "detachment riders is destroyed" in done.warnings


@pytest.mark.covers("army-morale.detachment.strength")
def test_strength_zero_may_be_refused_at_step_r4() -> None:
    header = "interpretations: {strength-zero-without-event: reject-at-r4}\n"
    turns = """
    - turn: 1
      events:
        - {type: losses, detachment: riders, lost: 6}
      rally: {a: {}, b: {}}
    """
    message = rejection(turns, header)
    assert "line 24 (turns[0].rally.a)" in message
    assert "detachment riders has had no strength left since line 23 but is not recorded" in message
    assert replay(play(turns)).verdict == "a"  # the default only warns: Blue 0, Red wins


@pytest.mark.covers("army-morale.detachment.strength", "army-morale.one-time.half-strength")
@pytest.mark.parametrize(
    ("option", "after"),
    [
        # the 6 unnamed points were titan-1's own: its destruction removes nothing more
        ("unnamed-losses-first", "6 of 12 left"),
        # the 6 unnamed points were titan-2's: titan-1 still had all 6
        ("unnamed-losses-elsewhere", "0 of 12 left"),
    ],
)
def test_unnamed_losses_before_a_war_engine_is_destroyed(option: str, after: str) -> None:
    ledger = replay(
        play(
            """
            - turn: 1
              events:
                - {type: losses, detachment: titans, lost: 6}
                - {type: war-engine-destroyed, war_engine: titan-1}
            """,
            f"interpretations: {{war-engine-lost-strength: {option}}}\n",
        )
    )
    assert notes(ledger, "army-morale.detachment.strength")[-1].endswith(after)
    if option == "unnamed-losses-first":
        assert (
            "titans loses 0 Damage Capacity more (6 already logged as losses)"
            in notes(ledger, "army-morale.detachment.strength")[-1]
        )
    assert ledger.values == (13 - 8, 3 + 2)  # half strength at the losses, once either way


@pytest.mark.covers("army-morale.detachment.strength")
def test_war_engine_destroyed_before_the_losses_are_logged() -> None:
    ledger = replay(
        play("""
        - turn: 1
          events:
            - {type: war-engine-destroyed, war_engine: titan-1}
            - {type: losses, detachment: titans, lost: 6}
        """)
    )
    # titan-1 takes 6 out (6 of 12), then titan-2 loses its 6: nothing left
    assert notes(ledger, "army-morale.detachment.strength")[-1] == "titans loses 6: 0 of 12 Damage Capacity"
    assert any("titans has no strength left since line 23" in w for w in ledger.warnings)


@pytest.mark.covers("army-morale.detachment.strength")
def test_losses_may_name_the_war_engine() -> None:
    turns = """
    - turn: 1
      events:
        - {type: losses, detachment: titans, war_engine: titan-1, lost: 4}
        - {type: war-engine-destroyed, war_engine: titan-2}
    """
    ledger = replay(play(turns))
    # titan-1 keeps 2 of 6; titan-2 takes its full 6 out: 8 -> 2 of 12, half strength
    assert notes(ledger, "army-morale.detachment.strength") == [
        "titans (titan-1) loses 4: 8 of 12 Damage Capacity",
        "titan-2 destroyed: titans loses 6 Damage Capacity it still held, 2 of 12 left",
    ]
    assert ledger.values == (13 - 8, 3 + 2)
    titan_1 = "    - {type: losses, detachment: titans, war_engine: titan-1, lost: LOST}\n"
    too_much = "- turn: 1\n  events:\n" + titan_1.replace("LOST", "4") + titan_1.replace("LOST", "3")
    # the detachment still has 8, but titan-1 only 2
    assert "line 22 (turns[0].events[1]): War Engine 'titan-1' has 2 Damage Capacity left, cannot lose 3" in (
        rejection(too_much)
    )
    gone = turns.rstrip(" ") + "        - {type: losses, detachment: titans, war_engine: titan-2, lost: 1}\n"
    assert "War Engine 'titan-2' was already destroyed (line 23)" in rejection(gone)
    stranger = "- turn: 1\n  events:\n    - {type: losses, detachment: foot, war_engine: titan-1, lost: 1}\n"
    assert "detachment 'foot' has no War Engine 'titan-1'; its War Engines: none" in rejection(stranger)


@pytest.mark.covers("army-morale.detachment.strength", "army-morale.one-time.war-engine-destroyed")
def test_a_wreck_leaves_the_strength_unless_kept() -> None:
    turns = """
    - turn: 1
      events:
        - {type: war-engine-destroyed, war_engine: titan-1, result: wrecked}
    """
    # wrecked: no gain for Blue, but titans 6 of 12: half strength, Red 13 - 8
    assert replay(play(turns)).values == (5, 3)
    kept = replay(play(turns, "interpretations: {wrecked-war-engine-strength: kept}\n"))
    assert kept.values == (13, 3) and notes(kept, "army-morale.detachment.strength") == []


@pytest.mark.covers("army-morale.one-time.war-engine-destroyed")
def test_wrecked_then_destroyed() -> None:
    turns = """
    - turn: 1
      events:
        - {type: war-engine-destroyed, war_engine: titan-1, result: wrecked}
        - {type: war-engine-destroyed, war_engine: titan-1, result: destroyed}
    """
    message = rejection(turns)
    assert "War Engine 'titan-1' was already wrecked (line 22); it counts once" in message
    assert "wrecked-then-destroyed: destroyed-counts" in message
    allowed = replay(play(turns, "interpretations: {wrecked-then-destroyed: destroyed-counts}\n"))
    # the wreck takes the 6 out (half strength, Red -8); the later Destroyed adds Blue's 2 only
    assert allowed.values == (13 - 8, 3 + 2)
    assert len(notes(allowed, "army-morale.detachment.strength")) == 1
    twice = turns.rstrip(" ") + "        - {type: war-engine-destroyed, war_engine: titan-1}\n"
    header = "interpretations: {wrecked-then-destroyed: destroyed-counts}\n"
    assert "was already destroyed (line 24); it counts once" in rejection(twice, header)


MIXED = ARMIES.replace(
    "      - {id: riders, points: 150, initial_strength: 6}\n",
    "      - {id: riders, points: 150, initial_strength: 6}\n"
    "      - id: mob\n"
    "        points: 300\n"
    "        strength: STRENGTH\n"
    "        initial_strength: 14\n"
    "        war_engines: [{id: gargant, points: 100, damage_capacity: 8}]\n",
)
# Blue: riders 3 + mob (300 pts -> 6) = 9; the gargant's own value is 2 (100 pts), half of it 1.
GARGANT = "turns:\n  - turn: 1\n    events:\n      - {type: war-engine-destroyed, war_engine: gargant}\n"


@pytest.mark.covers("army-morale.detachment.strength")
def test_mixed_detachments() -> None:
    # counted in units, the gargant is one of 14 units: 13 left, not at half strength
    units = replay(log_from_text(MIXED.replace("STRENGTH", "units") + GARGANT))
    assert units.values == (13 + 1, 9)
    assert notes(units, "army-morale.detachment.strength")[-1].endswith(
        "mob loses 1 unit it still held, 13 of 14 left"
    )
    # counted in Damage Capacity, 14 = 8 for the gargant + 6 ordinary units: only with the option
    capacity = MIXED.replace("STRENGTH", "damage-capacity")
    with pytest.raises(
        InputError, match=r"line 21 .*initial_strength 14 differs from .* Capacity 8 \(a detach"
    ):
        log_from_text(capacity)
    option = "interpretations: {mixed-detachment-strength: capacity-plus-units}\n"
    ledger = replay(log_from_text(option + capacity + GARGANT))
    # 14 - 8 = 6 of 14: half strength, Blue 9 - 6; Red gains 1
    assert ledger.values == (13 + 1, 9 - 6)
    with pytest.raises(
        InputError, match=r"initial_strength 7 is below the War Engines' total Damage Capacity 8$"
    ):
        log_from_text(option + capacity.replace("initial_strength: 14", "initial_strength: 7"))


@pytest.mark.covers(
    "army-morale.one-time.destroyed-detachment-blast-markers", "army-morale.ongoing.blast-markers"
)
def test_markers_of_a_destroyed_detachment_at_step_r4() -> None:
    turns = """
    - turn: 1
      events:
        - {type: detachment-destroyed, detachment: riders, blast_markers: 2}
      rally: {a: {}, b: {blast_markers: 1}}
    """
    # default: charged once (-2) plus the reported 1 at R4; riders' half-strength -3 as well
    assert replay(play(turns)).values == (13, 3 - 3 - 2 - 1)
    again = replay(play(turns, "interpretations: {destroyed-markers-at-r4: counted-again}\n"))
    assert again.values == (13, 3 - 3 - 2 - 1 - 2)
    extra = [e for e in again.entries if "counted again" in e.note]
    assert [(e.rule, e.line, e.change, e.phase) for e in extra] == [
        ("army-morale.ongoing.blast-markers", 23, -2, "rally")
    ]
