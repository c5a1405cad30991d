"""Morale effects a variant adds (issue 24, part 5): +1 per detachment and a one-time effect worth
3, from the command line with a variant file, checked against a small independent replay written
here from the rules' text; ongoing effects in the Rally odds against brute force; the one-line
errors of a bad ``add:`` section.
"""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.systems.army_morale.choices import CHOICES
from rulesbook.systems.army_morale.logfile import log_from_text
from rulesbook.systems.army_morale.replay import replay
from rulesbook.variants import compose, load_variant, resolve_variant

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "rulesbook/systems/army_morale/variants/general-slain.yaml"

LOG = """\
format: army-morale-log/1
armies:
  a:
    name: Red
    detachments:
      - {id: red-foot, points: 225, strength: units, initial_strength: 10}
      - {id: red-guns, points: 120, strength: units, initial_strength: 4}
  b:
    name: Blue
    detachments:
      - {id: blue-foot, points: 180, strength: units, initial_strength: 8}
      - {id: blue-tanks, points: 260, strength: units, initial_strength: 6}
turns:
  - turn: 1
    events:
      - {type: effect, effect: general-slain, side: a}
      - {type: losses, detachment: blue-foot, lost: 4}
    rally:
      a: {blast_markers: 2}
      b: {take_and_hold: [3], blast_markers: 1}
  - turn: 2
    events:
      - {type: effect, effect: general-slain, side: b}
      - {type: losses, detachment: red-guns, lost: 2}
    rally:
      a: {blast_markers: 1}
      b: {}
"""


def oracle(log: dict[str, Any], bonus: int, effects: dict[str, int]) -> dict[str, Any]:
    """The game replayed from the rules' text alone: a detachment is worth one point per started
    50 points plus ``bonus``; at half strength (or less) its value comes off once; an added effect
    event adds its value to its side; at step R4 each Blast marker costs 1 and each Take & Hold
    adds its D3 result; a side at 0 or less loses."""
    worth = {
        d["id"]: (side, math.ceil(d["points"] / 50) + bonus, d["initial_strength"])
        for side in ("a", "b")
        for d in log["armies"][side]["detachments"]
    }
    value = {s: sum(w for side, w, _ in worth.values() if side == s) for s in ("a", "b")}
    start = dict(value)
    left = {k: n for k, (_, _, n) in worth.items()}
    paid: set[str] = set()
    notes = []
    for turn in log["turns"]:
        for e in turn["events"]:
            if e["type"] == "effect":
                value[e["side"]] += effects[e["effect"]]
                notes.append(e["effect"])
            elif e["type"] == "losses":
                left[e["detachment"]] -= e["lost"]
                side, w, n = worth[e["detachment"]]
                if 2 * left[e["detachment"]] <= n and e["detachment"] not in paid:
                    paid.add(e["detachment"])
                    value[side] -= w
        for s in ("a", "b"):
            report = turn["rally"][s]
            value[s] -= report.get("blast_markers", 0)
            value[s] += sum(report.get("take_and_hold", []))
    return {"start": start, "value": value, "notes": notes}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesbook.cli", *args], capture_output=True, text=True, timeout=120, cwd=ROOT
    )


@pytest.mark.covers("army-morale.effects.added", "army-morale.replay", "army-morale.detachment.value")
def test_plus_one_per_detachment_and_a_one_time_effect_worth_3_from_the_cli(tmp_path: Path) -> None:
    log_path = tmp_path / "game.yaml"
    log_path.write_text(LOG, encoding="utf-8")
    out = cli("calc", "army-morale.replay", f"log={log_path}", f"variant={SHIPPED}", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)["result"]
    spec = yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))
    assert spec["parameters"] == {"detachment_value_bonus": 1}
    assert spec["add"]["morale_effects"]["general-slain"]["value"] == 3
    want = oracle(yaml.safe_load(LOG), 1, {"general-slain": 3})
    assert (got["a_start"], got["b_start"]) == (want["start"]["a"], want["start"]["b"]) == (10, 12)
    assert (got["a_value"], got["b_value"]) == (want["value"]["a"], want["value"]["b"])
    named = [row for row in got["ledger"] if row["rule"] == "army-morale.effects.added"]
    assert [(r["side"], r["change"]) for r in named] == [("a", "+3"), ("b", "+3")]
    assert all("Enemy general slain (general-slain" in r["note"] for r in named)
    # without the variant the log names an effect these rules do not have: one line, exit 2
    bare = cli("calc", "army-morale.replay", f"log={log_path}")
    assert bare.returncode == 2 and bare.stderr.count("\n") == 1
    assert "unknown morale effect 'general-slain'" in bare.stderr and "line 16" in bare.stderr


@pytest.mark.covers("army-morale.effects.added")
def test_a_one_time_effect_applies_once_per_side_or_once_per_game() -> None:
    choices = resolve_variant(str(SHIPPED)).apply(CHOICES)
    twice = LOG.replace(
        "{type: effect, effect: general-slain, side: b}", "{type: effect, effect: general-slain, side: a}"
    )
    with pytest.raises(InputError, match=r"line 23 .*already applied for side a \(line 16\)"):
        replay(log_from_text(twice), choices)
    per_game = choices.replace(readings={"added_one_time_context": "per-game"})
    with pytest.raises(InputError, match=r"already applied for this game"):
        replay(log_from_text(LOG), per_game)
    repeatable = load_variant_text(
        "add: {morale_effects: {general-slain: {name: Slain, value: 3, kind: one-time, once: false}}}"
    ).apply(CHOICES)
    assert (
        replay(log_from_text(twice), repeatable).values[0]
        == replay(log_from_text(LOG), repeatable).values[0] + 3
    )


def load_variant_text(body: str, tmp: Path | None = None) -> Any:
    folder = tmp or Path(__import__("tempfile").mkdtemp())
    path = folder / "house.yaml"
    path.write_text("system: army-morale\ntitle: House\n" + textwrap.dedent(body) + "\n", encoding="utf-8")
    return load_variant(path)


ONGOING = """\
add:
  morale_effects:
    supply-lines: {name: Supply lines held, value: 2, kind: ongoing}
    sabotage: {name: Sabotage, value: -1, kind: one-time, when: end-of-rally, target: opponent}
"""


@pytest.mark.covers("army-morale.effects.added", "army-morale.rally")
def test_rally_odds_with_an_ongoing_effect_match_brute_force(tmp_path: Path) -> None:
    variant = load_variant_text(ONGOING, tmp_path)
    path = str(tmp_path / "house.yaml")
    out = cli(
        "calc", "army-morale.rally", "a_morale=1", "a_blast_markers=3", "a_take_and_hold=1",
        "a_effects=supply-lines=1", "b_morale=2", "b_blast_markers=2", "b_effects=supply-lines=2,sabotage",
        f"variant={path}", "--json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)["result"]
    # brute force: a = 1 - 3 + D3 + 2 - 1 (b's sabotage hits a); b = 2 - 2 + 2*2
    wins = {"a": Fraction(0), "b": Fraction(0), "draw": Fraction(0), "continue": Fraction(0)}
    for (d3,) in itertools.product(range(1, 4)):
        a, b = 1 - 3 + d3 + 2 - 1, 2 - 2 + 4
        verdict = "continue" if a > 0 and b > 0 else ("a" if b <= 0 < a else "b" if a <= 0 < b else "draw")
        wins[verdict] += Fraction(1, 3)
    assert Fraction(got["p_b_wins_exact"]) == wins["b"] == Fraction(1, 3)
    assert Fraction(got["p_continue_exact"]) == wins["continue"]
    assert variant.additions  # and the published rules refuse the effect in one line naming the input
    bare = cli("calc", "army-morale.rally", "a_effects=supply-lines=1")
    assert bare.returncode == 2 and bare.stderr.startswith(
        "rulesbook: error: a_effects: unknown morale effect"
    )
    # an ongoing effect counted once per Rally phase (the other reading) no longer stacks
    once = variant.apply(CHOICES).replace(readings={"added_ongoing_count": "once-per-rally"})
    calc = registry().calculator("army-morale.rally")
    inputs = calc.validate({"b_morale": 1, "b_effects": "supply-lines=3"}, choices=once)
    assert calc.run_validated(inputs, choices=once)["b_mean"] == 3


@pytest.mark.covers("army-morale.effects.added")
def test_a_rally_report_names_its_effects_and_the_replay_checks_where_they_belong(tmp_path: Path) -> None:
    choices = load_variant_text(ONGOING, tmp_path).apply(CHOICES)
    game = LOG.replace(
        "{type: effect, effect: general-slain, side: a}",
        "{type: adjustment, side: a, amount: 0, reason: none}",
    )
    game = game.replace(
        "{type: effect, effect: general-slain, side: b}",
        "{type: adjustment, side: b, amount: 0, reason: none}",
    )
    game = game.replace(
        "a: {blast_markers: 2}", "a: {blast_markers: 2, effects: {supply-lines: 2, sabotage: 1}}"
    )
    ledger = replay(log_from_text(game), choices)
    plain = replay(log_from_text(game.replace(", effects: {supply-lines: 2, sabotage: 1}", "")), choices)
    assert ledger.values == (plain.values[0] + 4, plain.values[1] - 1)
    bad = game.replace(
        "{type: adjustment, side: a, amount: 0, reason: none}",
        "{type: effect, effect: supply-lines, side: a}",
    )
    with pytest.raises(InputError, match=r"line 16 .*checked at the end of the Rally phase"):
        replay(log_from_text(bad), choices)


BAD = [
    ("add: {morale_effect: {x: {name: X, value: 3, kind: one-time}}}", "add.morale_effect: unknown section; did you mean morale_effects?"),
    ("add: {morale_effects: {x: {name: X, value: 0, kind: one-time}}}", "add.morale_effects.x.value: expected a whole number"),
    ("add: {morale_effects: {x: {name: X, value: 3, kind: sometimes}}}", "add.morale_effects.x.kind: expected one of one-time, ongoing"),
    ("add: {morale_effects: {x: {name: X, value: 3, kind: ongoing, when: immediately}}}", "add.morale_effects.x.when: an ongoing effect"),
    ("add: {morale_effects: {x: {value: 3, kind: one-time}}}", "add.morale_effects.x.name: required"),
    ("add: {morale_effects: {x: {name: X, value: 3, kind: one-time, colour: red}}}", "add.morale_effects.x.colour: unknown key"),
    ("add: {morale_effects: {Big_One: {name: X, value: 3, kind: one-time}}}", "add.morale_effects.Big_One: key 'Big_One'"),
]  # fmt: skip


@pytest.mark.parametrize(("body", "message"), BAD)
def test_a_bad_add_section_is_one_line_naming_file_and_field(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        load_variant_text(body, tmp_path)
    text = str(caught.value)
    assert "house.yaml, line " in text and message in text and "\n" not in text


def test_the_cli_refuses_a_bad_add_section_with_exit_code_2(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(
        "system: army-morale\ntitle: Bad\nadd: {morale_effects: {x: {name: X, value: 3, kind: sometimes}}}\n"
    )
    out = cli("calc", "army-morale.detachment-value", "points=225", f"variant={tmp_path / 'bad.yaml'}")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "bad.yaml, line 3: add.morale_effects.x.kind: expected one of one-time, ongoing" in out.stderr


def test_variants_list_the_added_effect_and_round_trip_and_compose(tmp_path: Path) -> None:
    out = cli("variants")
    assert out.returncode == 0, out.stderr
    assert "add morale_effects.general-slain: Enemy general slain: one-time, +3" in out.stdout
    shipped = resolve_variant("general-slain")
    (tmp_path / "again.yaml").write_text(shipped.to_yaml(), encoding="utf-8")
    again = load_variant(tmp_path / "again.yaml")
    assert again.additions == shipped.additions and again.parameters == shipped.parameters
    other = load_variant_text(
        "add: {morale_effects: {general-slain: {name: X, value: 1, kind: one-time}}}", tmp_path
    )
    with pytest.raises(InputError, match=r"both add morale_effects\.general-slain differently"):
        compose([shipped, other])
    assert dict(
        compose([shipped, load_variant_text(ONGOING, tmp_path)]).additions.section("morale_effects")
    ).keys() == {
        "general-slain",
        "supply-lines",
        "sabotage",
    }
