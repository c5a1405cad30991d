"""The game-log ledger: the example replays to its documented values, impossible logs are
rejected with their line, and logs round-trip through YAML and JSON without loss."""

from __future__ import annotations

import json
import tempfile
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.army_morale.log import (
    EXAMPLE_LOG,
    Adjustment,
    Army,
    BunkerDestroyed,
    CaptureRoll,
    Detachment,
    DetachmentDestroyed,
    GameLog,
    HalfStrength,
    Losses,
    RallySide,
    Turn,
    WarEngine,
    WarEngineDestroyed,
)
from rulesbook.systems.army_morale.logfile import dump_log, load_log, log_from_text, log_to_text
from rulesbook.systems.army_morale.replay import replay

ARMIES = """\
format: army-morale-log/1
armies:
  a:
    name: Red
    detachments:
      - {id: foot, points: 225, initial_strength: 20}
      - id: titans
        points: 400
        strength: damage-capacity
        initial_strength: 12
        war_engines:
          - {id: titan-1, points: 200, damage_capacity: 6}
          - {id: titan-2, points: 200, damage_capacity: 6}
  b:
    name: Blue
    detachments:
      - {id: riders, points: 150, initial_strength: 6}
"""
# Red: 5 + 8 = 13; Blue: 3. ARMIES has 17 lines; play() adds "turns:" (18) and a blank line (19),
# so the first turn of a test is on line 20 (one more with an extra header line).


def play(turns: str, extra_header: str = "") -> GameLog:
    return log_from_text(extra_header + ARMIES + "turns:\n" + textwrap.indent(textwrap.dedent(turns), "  "))


def rejection(turns: str, extra_header: str = "") -> str:
    with pytest.raises(InputError) as info:
        replay(play(turns, extra_header))
    message = str(info.value)
    assert "\n" not in message and message.startswith("log: ")
    return message


@pytest.mark.covers(
    "army-morale.army.value",
    "army-morale.one-time.half-strength",
    "army-morale.one-time.war-engine-destroyed",
    "army-morale.one-time.destroyed-detachment-blast-markers",
    "army-morale.one-time.bunker",
    "army-morale.ongoing.blast-markers",
    "army-morale.ongoing.take-and-hold",
    "army-morale.ongoing.rescue",
    "army-morale.ongoing.cleanse",
    "army-morale.one-time.capture",
    "army-morale.game-end",
)
def test_example_log_replays_to_the_documented_values() -> None:
    ledger = replay(load_log(EXAMPLE_LOG))
    # the header comment of example-game.yaml, worked by hand
    assert ledger.start == (14, 10)
    assert [(t, a, b) for t, a, b, _ in ledger.rally_values] == [(1, 14, 4), (2, 7, 3), (3, 3, -6)]
    assert (ledger.verdict, ledger.ended_turn) == ("a", 3)
    # every change names a rule of this system, and the running values add up
    a, b = 0, 0
    for e in ledger.entries:
        assert registry().rule(e.rule)
        if e.side == "a":
            a += e.change
        elif e.side == "b":
            b += e.change
        assert (e.a, e.b) == (a, b)
    rules = {e.rule for e in ledger.entries}
    assert "army-morale.one-time.capture" in rules and "army-morale.ongoing.rescue" in rules


@pytest.mark.covers("army-morale.one-time.half-strength", "army-morale.detachment.strength")
def test_losses_trigger_half_strength_once() -> None:
    ledger = replay(
        play("""
        - turn: 1
          events:
            - {type: losses, detachment: foot, lost: 9}
            - {type: losses, detachment: foot, lost: 1}
            - {type: losses, detachment: foot, lost: 5}
        """)
    )
    halves = [e for e in ledger.entries if e.rule == "army-morale.one-time.half-strength"]
    assert len(halves) == 1 and halves[0].change == -5 and halves[0].line == 23  # the second losses line
    assert ledger.values == (13 - 5, 3)
    assert any("Foot" in w or "foot" in w for w in ledger.warnings)
    assert "turn 1's Rally phase is not recorded yet" in ledger.warnings


@pytest.mark.covers("army-morale.one-time.half-strength", "army-morale.effects.kinds")
def test_second_half_strength_is_rejected_with_its_line() -> None:
    message = rejection("""
    - turn: 1
      events:
        - {type: half-strength, detachment: foot}
        - {type: half-strength, detachment: foot}
    """)
    assert "line 23" in message and "already took its half-strength effect (line 22)" in message


def test_unknown_detachment_is_rejected() -> None:
    message = rejection("""
    - turn: 1
      events:
        - {type: losses, detachment: ghosts, lost: 1}
    """)
    assert "line 22" in message and "unknown detachment 'ghosts'; known: foot, titans, riders" in message


@pytest.mark.covers("army-morale.one-time.war-engine-destroyed")
def test_war_engine_destroyed_twice_is_rejected() -> None:
    message = rejection("""
    - turn: 1
      events:
        - {type: war-engine-destroyed, war_engine: titan-1, result: wrecked}
        - {type: war-engine-destroyed, war_engine: titan-1}
    """)
    assert "line 23" in message and "War Engine 'titan-1' was already wrecked (line 22)" in message


@pytest.mark.covers("army-morale.one-time.war-engine-destroyed")
def test_war_engine_gain_follows_the_interpretations() -> None:
    turns = """
    - turn: 1
      events:
        - {type: war-engine-destroyed, war_engine: titan-1}
    """
    # titan-1 costs 200 pts -> own Morale value 4 -> Blue gains 2; its 6 Damage Capacity leave
    # Red's titans (6 of 12: half strength), so Red loses the titans' Morale value 8
    assert replay(play(turns)).values == (13 - 8, 3 + 2)
    # detachment share: 8 / 2 titans = 4 -> also 2; with a stated odd value rounding matters
    shared = "interpretations: {war-engine-value: detachment-share}\n"
    assert replay(play(turns, shared)).values == (13 - 8, 3 + 2)
    odd = play(turns).armies
    titans = odd[0].detachments[1]
    odd_titans = titans.__class__(**{**_fields(titans), "war_engines": (WarEngine("titan-1", morale=5),)})
    # titan-1 is now the only engine, Damage Capacity 1 (capacity-plus-units: 11 other units)
    mixed = (("mixed-detachment-strength", "capacity-plus-units"),)
    log = GameLog(
        armies=(Army("Red", (odd[0].detachments[0], odd_titans)), odd[1]),
        turns=play(turns).turns,
        interpretations=mixed,
    )
    assert replay(log).values == (13, 3 + 3)
    down = GameLog(log.armies, log.turns, interpretations=(*mixed, ("war-engine-rounding", "round-down")))
    assert replay(down).values == (13, 3 + 2)


def _fields(obj: object) -> dict[str, object]:
    return {name: getattr(obj, name) for name in obj.__dataclass_fields__}  # type: ignore[attr-defined]


@pytest.mark.covers("army-morale.effects.kinds", "army-morale.ongoing.take-and-hold")
def test_ongoing_effect_outside_the_rally_phase_is_rejected() -> None:
    message = rejection("""
    - turn: 1
      events:
        - {type: take-and-hold, side: a, roll: 2}
    """)
    assert "line 22" in message and "checked at the end of the Rally phase" in message


@pytest.mark.covers(
    "army-morale.one-time.destroyed-detachment-blast-markers", "army-morale.one-time.half-strength"
)
def test_destroyed_detachment_and_its_alternative() -> None:
    turns = """
    - turn: 1
      events:
        - {type: detachment-destroyed, detachment: riders, blast_markers: 2}
    """
    assert replay(play(turns)).values == (13, 3 - 3 - 2)
    only = "interpretations: {half-strength-when-destroyed: destroyed-only}\n"
    assert replay(play(turns, only)).values == (13, 3 - 2)
    message = rejection(turns.rstrip(" ") + "        - {type: losses, detachment: riders, lost: 1}\n")
    assert "was already destroyed (line 22)" in message


@pytest.mark.covers("army-morale.one-time.capture", "army-morale.game-end")
def test_rally_phase_and_game_end() -> None:
    turns = """
    - turn: 1
      rally:
        a: {blast_markers: 1, take_and_hold: [3], capture: [{choice: destroy, roll: 3}]}
        b: {rescue_escorts: 1, cleanse: 1}
    """
    ledger = replay(play(turns))
    # Red 13 - 1 + 3 - 1 (Blue's escort) = 14; Blue 3 - 3 + 1 + 1 = 2
    assert ledger.values == (14, 2) and ledger.verdict == "continue"
    message = rejection(turns.rstrip(" ") + "    - turn: 1\n")
    assert "turn 1 out of order; expected turn 2" in message


def test_nothing_may_follow_the_end_of_the_game() -> None:
    message = rejection("""
    - turn: 1
      events:
        - {type: bunker-destroyed, side: a, roll: 6}
      rally: {a: {}, b: {}}
    - turn: 2
    """)
    assert "line 24" in message and "the game already ended at the end of turn 1" in message


@pytest.mark.covers("army-morale.one-time.bunker")
def test_a_named_bunker_is_destroyed_once() -> None:
    turns = """
    - turn: 1
      events:
        - {type: bunker-destroyed, side: b, roll: 5, bunker: ridge}
        - {type: bunker-destroyed, side: b, roll: 2}
    """
    assert replay(play(turns)).values == (13 - 5 - 2, 3)  # a bunker of b's: a loses the rolls
    message = rejection(
        turns.rstrip(" ") + "        - {type: bunker-destroyed, side: b, roll: 1, bunker: ridge}\n"
    )
    assert "line 24" in message and "bunker 'ridge' of side b was already destroyed (line 22)" in message


@pytest.mark.covers("army-morale.one-time.capture")
def test_capture_once_per_objective_alternative() -> None:
    header = "interpretations: {capture-repeats: once-per-objective}\n"
    turns = """
    - turn: 1
      rally: {a: {capture: [{choice: own, roll: 2, objective: hill}]}}
    - turn: 2
      rally: {a: {capture: [{choice: own, roll: 5, objective: hill}]}}
    """
    message = rejection(turns, header)
    assert "line 24" in message and "Capture objective 'hill' already paid out (line 22)" in message
    assert replay(play(turns)).values == (13 + 2 + 5, 3)  # the default pays out every Rally phase


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("armies: [1, 2\n", "not valid YAML"),
        ("", "the log is empty"),
        (
            ARMIES.replace("initial_strength: 20", "initial_strenght: 20"),
            "line 6 (armies.a.detachments[0]): unknown key",
        ),
        (
            ARMIES.replace("points: 150", "points: lots"),
            "line 17 (armies.b.detachments[0].points): points must be",
        ),
        (
            ARMIES + "turns:\n  - turn: 1\n    rally: {a: {take_and_hold: [4]}}\n",
            "line 20 (turns[0].rally.a.take_and_hold[0])",
        ),
        (ARMIES.replace("army-morale-log/1", "army-morale-log/9"), "line 1 (format): format must be"),
        (ARMIES + "turns:\n  - turn: 1\n    events:\n      - {type: meteor}\n", "type must be one of losses"),
        (
            ARMIES + "interpretations: {war-engine-rounding: nearest}\n",
            "war-engine-rounding must be one of round-up",
        ),
        (
            ARMIES.replace("  b:\n    name: Blue", "  b: &blue\n    name: Blue") + "  c: *blue\n",
            "line 18: YAML aliases (*blue) are not allowed",
        ),
    ],
)
def test_malformed_logs_name_the_line(text: str, expected: str) -> None:
    with pytest.raises(InputError) as info:
        replay(log_from_text(text, "game.yaml"))
    assert expected in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.covers("army-morale.detachment.strength")
def test_war_engine_detachment_strength_is_their_damage_capacity() -> None:
    log = load_log(EXAMPLE_LOG)
    stompas = log.army("b").detachments[1]
    assert stompas.initial_strength == 6 + 6  # derived: the log gives no initial_strength
    assert log.army("a").detachments[2].initial_strength == 3 * 4  # stated, and consistent
    with pytest.raises(InputError, match=r"line 10 .*initial_strength 11 differs from .* Damage Capacity 12"):
        log_from_text(ARMIES.replace("initial_strength: 12", "initial_strength: 11"))


def test_duplicate_ids_and_unknown_bands_are_rejected() -> None:
    with pytest.raises(InputError, match=r"line 17 .*detachment ID 'foot' is used twice"):
        replay(log_from_text(ARMIES.replace("id: riders", "id: foot")))
    header = "interpretations: {detachment-value-formula: source-only}\n"
    with pytest.raises(InputError, match=r"line 8 .*no Morale value is known for 400 points"):
        replay(log_from_text(header + ARMIES))


def test_json_logs_and_the_replay_calculator(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    dump_log(load_log(EXAMPLE_LOG), path)
    assert json.loads(path.read_text())["format"] == "army-morale-log/1"
    result = registry().calculator("army-morale.replay").run_json(log=str(path))["result"]
    assert (result["a_value"], result["b_value"], result["winner"]) == (3, -6, "a")
    tabbed = tmp_path / "tabbed.json"
    tabbed.write_text(path.read_text().replace("  ", "\t"))
    assert load_log(tabbed) == load_log(EXAMPLE_LOG)
    broken = tmp_path / "broken.json"
    broken.write_text('{"armies": {\n  "a": 1\n  "b": 2\n}}\n')  # missing comma, seen on line 3
    with pytest.raises(InputError, match=r"broken.json line 3: not valid JSON"):
        registry().calculator("army-morale.replay").run(log=str(broken))


# -- round trip --------------------------------------------------------------------------------------

ids = st.text("abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=8).filter(lambda s: s[0] != "-")
# any Unicode text a file can hold, with the characters YAML folds, refuses or reads as values
HOSTILE_TEXTS = (
    "\x85",
    "a\x85b",
    "\u2028",
    "\u2029",
    "\ufffe",
    "\u202eevil",
    "\x1b]0;x\x07",
    "\x00",
    "\x9b",
    "\ufeff",
    "😀",
    "a\tb ",
    " lead",
    "\r\n",
    "1e5",
    "TRUE",
    "~",
    "<<",
    "- a",
    "#x",
    "0x10",
    "1:30",
    "*a",
)
names = st.text(st.characters(codec="utf-8"), min_size=1, max_size=12) | st.lists(
    st.sampled_from(HOSTILE_TEXTS), min_size=1, max_size=4
).map("".join)
sides = st.sampled_from(("a", "b"))
war_engines = st.builds(
    WarEngine,
    ids,
    st.none() | st.integers(0, 500),
    st.integers(1, 12),
    st.none() | st.integers(0, 20),
    names | st.just(""),
)
detachments = st.builds(
    Detachment,
    ids,
    st.integers(0, 1000),
    st.integers(1, 40),
    st.sampled_from(("units", "damage-capacity")),
    st.none() | st.integers(0, 20),
    names | st.just(""),
    st.lists(war_engines, max_size=2).map(tuple),
).map(
    # a War Engine detachment's strength is its engines' total Damage Capacity (checked on load)
    lambda d: (
        replace(d, initial_strength=sum(w.damage_capacity for w in d.war_engines))
        if d.strength == "damage-capacity" and d.war_engines
        else d
    )
)
armies = st.builds(Army, names, st.lists(detachments, max_size=3).map(tuple))
events = st.one_of(
    st.builds(Losses, ids, st.integers(1, 20), ids | st.just("")),
    st.builds(HalfStrength, ids),
    st.builds(DetachmentDestroyed, ids, st.integers(0, 9)),
    st.builds(WarEngineDestroyed, ids, st.sampled_from(("destroyed", "wrecked"))),
    st.builds(BunkerDestroyed, sides, st.integers(1, 6), ids | st.just("")),
    st.builds(Adjustment, sides, st.integers(-9, 9), names),
)
rally_sides = st.builds(
    RallySide,
    st.integers(0, 9),
    st.lists(st.integers(1, 3), max_size=3).map(tuple),
    st.integers(0, 3),
    st.integers(0, 3),
    st.lists(
        st.builds(CaptureRoll, st.sampled_from(("own", "destroy")), st.integers(1, 6), ids | st.just("")),
        max_size=2,
    ).map(tuple),
)


@st.composite
def game_logs(draw: st.DrawFn) -> GameLog:
    n = draw(st.integers(0, 3))
    turns = tuple(
        Turn(
            i + 1,
            tuple(draw(st.lists(events, max_size=3))),
            draw(st.none() | st.tuples(rally_sides, rally_sides)),
        )
        for i in range(n)
    )
    interps = draw(
        st.sampled_from(((), (("war-engine-rounding", "round-down"),), (("equal-values", "both-lose"),)))
    )
    return GameLog((draw(armies), draw(armies)), turns, draw(names | st.just("")), interps)


@settings(max_examples=60, deadline=None)
@given(game_logs())
def test_logs_round_trip_through_yaml_and_json(log: GameLog) -> None:
    """Any text in any field (NEL, C1 controls, U+FFFE, bidi marks, emoji, U+2028) survives
    load -> save -> load, in YAML and in JSON, in text and through files."""
    assert log_from_text(log_to_text(log)) == log
    assert log_from_text(log_to_text(log, as_json=True), is_json=True) == log
    with tempfile.TemporaryDirectory() as folder:
        for suffix in (".yaml", ".json"):
            path = Path(folder) / f"game{suffix}"
            dump_log(log, path)
            again = load_log(path)
            assert replace(again, source="") == replace(log, source="")
            dump_log(again, path)
            assert replace(load_log(path), source="") == replace(log, source="")


# -- how errors spell values, and both YAML loaders ------------------------------------------------


@pytest.mark.parametrize("loader", ["libyaml", "python"])
@pytest.mark.parametrize(
    ("change", "expected"),
    [
        # the log's own spelling, not Python's (True, None, 1.5 as a float repr)
        (
            ("points: 150", "points: true"),
            "line 17 (armies.b.detachments[0].points): points must be an integer from 0 to 100000, got true",
        ),
        (("points: 150", "points: yes"), "got 'yes'"),  # strict schema: yes is a word
        (("points: 150", "points: 1.5"), "got 1.5"),
        (("points: 150", "points: ~"), "got ~"),
        (
            ("points: 400", "points:"),
            "line 8 (armies.a.detachments[1].points): points must be an integer from 0 to 100000, got nothing",
        ),
        (("points: 150", "points: '150'"), "got '150'"),
        (("name: Blue", "name: false"), "line 15 (armies.b.name): expected text, got false"),
        (
            ("{id: foot,", "{true: 1, id: foot,"),
            "line 6 (armies.a.detachments[0]): unknown key true; allowed",
        ),
        (
            ("strength: damage-capacity", "strength: null"),
            "strength must be one of units, damage-capacity, got null",
        ),
    ],
)
def test_errors_spell_values_as_the_log_does(
    loader: str, change: tuple[str, str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import yaml

    from rulesbook import data

    if loader == "libyaml":
        if not yaml.__with_libyaml__:
            pytest.skip("PyYAML without libyaml")
        assert data._PARSER is yaml.CSafeLoader  # the fast parser is the one in use
    else:
        monkeypatch.setattr(data, "_PARSER", yaml.SafeLoader)
    with pytest.raises(InputError) as info:
        replay(log_from_text(ARMIES.replace(*change), "game.yaml"))
    assert expected in str(info.value)
    assert "True" not in str(info.value) and "None" not in str(info.value)


@pytest.mark.parametrize("loader", ["libyaml", "python"])
def test_both_loaders_name_the_line_of_broken_yaml(loader: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import yaml

    from rulesbook import data

    if loader == "python":
        monkeypatch.setattr(data, "_PARSER", yaml.SafeLoader)
    with pytest.raises(InputError, match=r"^log: game.yaml line 3: not valid YAML \(.*expected ',' or '\]'"):
        log_from_text("armies:\n  a: [1, 2\n", "game.yaml")
    # a character YAML refuses (BEL on line 3) is placed on its line too
    with pytest.raises(
        InputError, match=r"^log: game.yaml line 3: not valid YAML \(.*characters are not allowed\)$"
    ):
        log_from_text("format: army-morale-log/1\ntitle: x\nname: a\x07b\n", "game.yaml")
    with pytest.raises(InputError, match=r"line 18: YAML aliases \(\*blue\) are not allowed"):
        log_from_text(ARMIES.replace("  b:\n    name: Blue", "  b: &blue\n    name: Blue") + "  c: *blue\n")
    # the example replays identically with either loader
    assert replay(load_log(EXAMPLE_LOG)).values == (3, -6)
