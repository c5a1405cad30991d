"""Writes the hostile corpus of this folder (run it again after changing a case; the files are
committed so the suite reads them as data).

    python tests/hostile/make_corpus.py

File names say what is expected: ``ok-*`` must be accepted (and read back exactly),
``bad-*`` must be refused with one short line naming the file. Cases too large to keep in
git (a sparse 1 GB file, 100,000-deep nesting, a 2 MB log) are made by the test itself.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
LONG = "x" * 10_000

ARMIES = """format: army-morale-log/1
armies:
  a:
    name: Blue
    detachments:
      - {id: foot, points: 150, strength: units, initial_strength: 10}
  b:
    name: Red
    detachments:
      - {id: riders, points: 150, strength: units, initial_strength: 10}
"""


def losses(lost: str) -> str:
    return (
        ARMIES
        + f"turns:\n  - turn: 1\n    events:\n      - {{type: losses, detachment: foot, lost: {lost}}}\n"
    )


def json_log(name: str) -> dict[str, object]:
    return {
        "format": "army-morale-log/1",
        "armies": {
            "a": {"name": name, "detachments": [{"id": "foot", "points": 150, "initial_strength": 10}]},
            "b": {"name": "Red", "detachments": [{"id": "riders", "points": 150, "initial_strength": 10}]},
        },
        "turns": [],
    }


LOGS: dict[str, str | bytes] = {
    # refused: YAML features outside the strict schema
    "bad-merge-key.yaml": "armies:\n  a: &a {name: A, detachments: []}\n  b:\n    <<: *a\n",
    "bad-merge-key-inline.yaml": ARMIES.replace("    name: Red\n", "    <<: {name: Red}\n"),
    "bad-python-name-tag.yaml": "armies: !!python/name:os.system\n",
    "bad-python-object-tag.yaml": "!!python/object/apply:os.system ['echo pwned']\n",
    "bad-custom-tag.yaml": ARMIES.replace("name: Blue", "name: !custom Blue"),
    "bad-binary-tag.yaml": ARMIES.replace("name: Blue", 'name: !!binary "not base64!"'),
    "bad-int-tag.yaml": ARMIES.replace("points: 150", "points: !!int abc", 1),
    "bad-float-tag.yaml": ARMIES.replace("points: 150", "points: !!float 1e999999", 1),
    "bad-timestamp-tag.yaml": ARMIES.replace("name: Blue", "name: !!timestamp 2024-13-45"),
    "bad-str-tag.yaml": ARMIES.replace("name: Blue", "name: !!str Blue"),
    "bad-alias.yaml": ARMIES.replace("name: Blue", "name: &n Blue").replace("name: Red", "name: *n"),
    "bad-billion-laughs.yaml": "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)),
    "bad-two-documents.yaml": ARMIES + "---\n" + ARMIES,
    "bad-duplicate-key.yaml": ARMIES.replace("    name: Red\n", "    name: Red\n    name: Green\n"),
    "bad-complex-key.yaml": "? [a, b]\n: c\n",
    "bad-null-key.yaml": "~: 1\n",
    # refused: numbers YAML 1.1 would coerce, and numbers too large
    "bad-hex.yaml": losses("0x10"),
    "bad-octal.yaml": losses("0o17"),
    "bad-binary-int.yaml": losses("0b11"),
    "bad-underscore.yaml": losses("1_0"),
    "bad-sexagesimal.yaml": losses("1:30"),
    "bad-huge-sexagesimal-float.yaml": losses("1:" + ":".join(["59"] * 2000) + ".5"),
    "bad-float.yaml": losses("2.5"),
    "bad-inf.yaml": losses(".inf"),
    "bad-huge-int.yaml": losses("9" * 5001),
    "bad-huge-negative-int.yaml": losses("-" + "9" * 4400),
    "bad-bool-word.yaml": losses("yes"),
    # refused: not text, not YAML, not a log
    "bad-not-utf8.yaml": b"format: army-morale-log/1\ntitle: caf\xe9\n",
    "bad-utf16.yaml": "title: x\n".encode("utf-16"),
    "bad-nul.yaml": ARMIES.replace("name: Blue", "name: Bl\x00ue"),
    "bad-bell.yaml": ARMIES.replace("name: Blue", "name: Bl\x07ue"),
    "bad-escape-in-plain.yaml": ARMIES.replace("name: Blue", "name: Bl\x1b]0;pwned\x07ue"),
    "bad-lone-surrogate-escape.yaml": ARMIES.replace("name: Blue", 'name: "\\ud800"'),
    "bad-empty.yaml": "",
    "bad-only-comment.yaml": "# nothing here\n",
    "bad-scalar-root.yaml": "hello\n",
    "bad-list-root.yaml": "- 1\n- 2\n",
    "bad-unclosed.yaml": "armies: [1, 2\n",
    "bad-tab-indent.yaml": "armies:\n\ta: 1\n",
    "bad-long-unknown-key.yaml": ARMIES.replace("format:", f"{LONG}: 1\nformat:"),
    "bad-long-event-type.yaml": ARMIES + f"turns:\n  - turn: 1\n    events:\n      - {{type: {LONG}}}\n",
    "bad-long-detachment.yaml": ARMIES
    + f"turns:\n  - turn: 1\n    events:\n      - {{type: half-strength, detachment: {LONG}}}\n",
    "bad-long-format.yaml": ARMIES.replace("army-morale-log/1", LONG),
    "bad-long-points.yaml": ARMIES.replace("points: 150", f"points: '{LONG}'", 1),
    "bad-long-interpretation.yaml": ARMIES + f"interpretations: {{war-engine-rounding: {LONG}}}\n",
    "bad-terminal-escape-id.yaml": ARMIES
    + 'turns:\n  - turn: 1\n    events:\n      - {type: half-strength, detachment: "\\e]0;pwned\\a\\e[2J"}\n',
    "bad-negative-turn.yaml": ARMIES + "turns:\n  - turn: -1\n",
    "bad-turns-mapping.yaml": ARMIES + "turns: {1: x}\n",
    # accepted: any Unicode text a file can hold is a name
    "ok-nel-name.yaml": ARMIES.replace("name: Blue", 'name: "Blue\\NArmy"'),
    "ok-c1-and-bidi-name.yaml": ARMIES.replace(
        "name: Blue", 'name: "\\x85\\x9b\\u202eeulB\\u2028\\ufffe\\uffff"'
    ),
    "ok-emoji-name.yaml": ARMIES.replace("name: Blue", "name: Blue 😀 army"),
    "ok-terminal-escape-name.yaml": ARMIES.replace(
        "name: Blue", 'name: "\\e]0;pwned\\a<img src=x onerror=alert(1)>"'
    ),
    "ok-bom.yaml": "\ufeff" + ARMIES,
    "ok-crlf.yaml": ARMIES.replace("\n", "\r\n"),
    "ok-long-name.yaml": ARMIES.replace("name: Blue", f"name: {LONG}"),
    "ok-leading-zero.yaml": ARMIES.replace("points: 150", "points: 0150", 1),
    # JSON: every valid JSON file is accepted (escapes, raw C1 controls, tabs); the rest refused
    "ok-escaped-emoji.json": json.dumps(json_log("Blue \U0001f600 \u0085 \u2028 \u202e \ufffe")),
    "ok-raw-controls.json": json.dumps(json_log("Blue\u0085\u009b\u2028\u202e\ufffe"), ensure_ascii=False),
    "ok-tabs.json": json.dumps(json_log("Blue"), indent="\t"),
    "ok-escaped-slash.json": json.dumps(json_log("Blue")).replace('"Blue"', '"Bl\\/ue\\u0000"'),
    "bad-lone-surrogate.json": json.dumps(json_log("x")).replace('"x"', '"\\ud800"'),
    "bad-nan.json": json.dumps(json_log("x")).replace("150", "NaN", 1),
    "bad-infinity.json": json.dumps(json_log("x")).replace("150", "-Infinity", 1),
    "bad-trailing-comma.json": '{"armies": {"a": 1,}}',
    "bad-single-quotes.json": "{'armies': {}}",
    "bad-comment.json": '// a comment\n{"armies": {}}',
    "bad-raw-newline-in-string.json": '{"title": "a\nb"}',
    "bad-huge-int.json": json.dumps(json_log("x")).replace("150", "9" * 5001, 1),
    "bad-duplicate-key.json": '{"armies": {}, "armies": {}}',
    "bad-two-values.json": "{} {}",
    "bad-not-utf8.json": b'{"title": "caf\xe9"}',
    "bad-yaml-in-json.json": "armies: {}\n",
    "bad-empty.json": "",
}

MISSION = """id: {id}
title: Seize the Crossing
example: true
turns: 6
objectives: 3
reserves:
  placeholder: true
  dice: D6
  target: 4
  direction: over
  from_turn: 2
victory:
  attacker:
    - {{text: Hold two., counter: objectives_held, at_least: 2}}
  defender:
    - {{text: Reach turn 6., counter: turn, at_least: 6}}
"""

MISSIONS: dict[str, tuple[str, str] | bytes] = {
    "ok-mission": ("", ""),
    "bad-objectives-word": ("objectives: 3", "objectives: abc"),
    "bad-objectives-negative": ("objectives: 3", "objectives: -5"),
    "bad-target-out-of-reach": ("target: 4", "target: 99"),
    "bad-turns-sexagesimal": ("turns: 6", "turns: 1:0:0:0"),
    "bad-turns-huge": ("turns: 6", "turns: " + "9" * 5001),
    "bad-turns-zero": ("turns: 6", "turns: 0"),
    "bad-from-turn-late": ("from_turn: 2", "from_turn: 60"),
    "bad-placeholder-word": ("placeholder: true", "placeholder: perhaps"),
    "bad-tag": ("title: Seize the Crossing", "title: !!python/name:os.system"),
    "bad-alias": ("title: Seize the Crossing", "title: &t Seize\nsummary: *t"),
    "bad-counter-long": ("counter: turn", f"counter: {LONG}"),
    "bad-at-least-huge": ("at_least: 6", "at_least: " + "9" * 40),
    "bad-dice-long": ("dice: D6", f"dice: {LONG}"),
    "bad-victory-list": ("victory:\n", "victory: [1, 2]\nunused:\n"),
    "bad-not-utf8": b"id: bad-not-utf8\ntitle: caf\xe9\n",
}

VARIANTS: dict[str, str] = {
    "bad-tag.yaml": "system: !!python/name:os.system wh40k\ntitle: x\n",
    "bad-unknown-system.yaml": f"system: {LONG}\ntitle: x\n",
    "bad-unknown-parameter.yaml": f"system: wh40k\ntitle: x\nparameters:\n  {LONG}: 1\n",
    "bad-parameter-value.yaml": f"system: wh40k\ntitle: x\nparameters:\n  battle_shock_dice: {LONG}\n",
    "bad-reading-value.yaml": "system: army-morale\ntitle: x\nreadings:\n  war_engine_rounding: "
    + LONG
    + "\n",
    "bad-hex-parameter.yaml": "system: army-morale\ntitle: x\nparameters:\n  blast_marker_loss: 0x2\n",
    "bad-alias.yaml": "system: &s wh40k\ntitle: *s\n",
    "bad-merge-key.yaml": "base: &b {system: wh40k}\n<<: *b\ntitle: x\n",
    "bad-not-a-mapping.yaml": "- system\n- wh40k\n",
    "bad-deep.yaml": "system: wh40k\ntitle: x\nparameters: " + "[" * 200 + "]" * 200 + "\n",
    "ok-long-title.yaml": "system: wh40k\ntitle: {}\n".format("t" * 10_000),
    # digits of other scripts are no integer (int() would take all but the superscript, which crashed)
    "bad-superscript-digit.yaml": "system: scrollhammer\ntitle: x\nparameters:\n  break_ld_per_point: \u00b2\n",
    "bad-arabic-indic-digit.yaml": "system: scrollhammer\ntitle: x\nparameters:\n  break_ld_per_point: \u0662\n",
    "bad-fullwidth-digit.yaml": "system: scrollhammer\ntitle: x\nparameters:\n  break_ld_per_point: \uff12\n",
    "bad-math-digit.yaml": "system: scrollhammer\ntitle: x\nparameters:\n  break_ld_per_point: \U0001d7d0\n",
    # the rules language under add: (rulesbook.language): expressions are parsed, never run
    "bad-expression-eval.yaml": "system: scrollhammer\ntitle: x\nadd:\n  tests:\n    break-test:\n"
    "      modifiers:\n        x: {value: \"__import__('os').system('id')\"}\n",
    "bad-expression-long.yaml": "system: scrollhammer\ntitle: x\nadd:\n  tests:\n    break-test:\n"
    f"      modifiers:\n        x: {{value: {'1+' * 5000}1}}\n",
    "ok-expression-deep.yaml": "system: scrollhammer\ntitle: x\nadd:\n  tests:\n    break-test:\n"
    "      modifiers:\n        x: {value: '" + "(" * 199 + "1" + ")" * 199 + "'}\n",
    "bad-language-unknown-key.yaml": "system: wh40k\ntitle: x\nadd:\n  tests:\n    battle-shock:\n"
    f"      {'k' * 500}: 1\n",
    "bad-language-dice-cost.yaml": "system: scrollhammer\ntitle: x\nadd:\n  tests:\n    t:\n"
    "      dice: 20D20!kh10\n      pass: at-most\n      target: 7\n",
}

DATA: dict[str, str] = {
    # a system's rules.yaml, read by rulesbook.records.load_system_data
    "bad-rules-tag.yaml": "system: !!python/object:builtins.dict {}\n",
    "bad-rules-deep.yaml": "system: " + "{a: " * 100 + "1" + "}" * 100 + "\n",
    "bad-rules-scalar.yaml": "just text\n",
    "bad-rules-duplicate-key.yaml": "system: {id: a}\nsystem: {id: b}\n",
    "bad-rules-merge-key.yaml": "base: &b {id: a}\nsystem:\n  <<: *b\n",
    "bad-rules-not-utf8.yaml": "system:\n  title: caf\udce9\n",
    "bad-rules-many-items.yaml": "rules: [" + ", ".join(["1"] * 10_001) + "]\n",
}

CLI: list[list[str]] = [
    ["calc", LONG],
    ["calc", "scrollhammer." + LONG],
    ["calc", "wh40k.attack", f"{LONG}=1"],
    ["calc", "wh40k.attack", f"--{LONG}"],
    ["calc", "wh40k.attack", LONG],
    ["calc", "wh40k.attack", f"target_keywords={LONG}"],
    ["calc", "wh40k.attack", "target_keywords=" + ",".join(["a"] * 5000)],
    ["calc", "wh40k.battle-shock", f"leadership={LONG}"],
    ["calc", "wh40k.battle-shock", "leadership=" + "9" * 5000],
    ["calc", "wh40k.battle-shock", "leadership=0x7"],
    ["calc", "wh40k.battle-shock", "leadership=1_0"],
    ["calc", "wh40k.battle-shock", "leadership=\x1b]0;pwned\x07"],
    ["calc", "wh40k.battle-shock", "leadership=7", "leadership=8"],
    ["calc", "wh40k.battle-shock", f"variant={LONG}"],
    ["calc", "wh40k.battle-shock", "variant=/etc/passwd"],
    ["calc", "wh40k.battle-shock", "variant=tests/hostile/variants/bad-tag.yaml"],
    ["calc", "scrollhammer.break-test", "variant=tests/hostile/variants/bad-superscript-digit.yaml"],
    ["calc", "army-morale.replay", f"log={LONG}"],
    ["calc", "army-morale.replay", "log=/etc/passwd"],
    ["calc", "army-morale.replay", "log=/dev/zero.yaml"],
    ["calc", "army-morale.replay", "log=tests/hostile/logs/bad-merge-key.yaml"],
    ["calc", "army-morale.replay", "log=tests/hostile/logs/bad-huge-int.yaml"],
    ["calc", "army-morale.replay", "log=tests/hostile/logs/bad-long-event-type.yaml"],
    ["calc", "army-morale.replay", "log=tests/hostile/logs/bad-not-utf8.yaml"],
    ["calc", "army-morale.replay", "log=tests/hostile/logs/bad-lone-surrogate.json"],
    ["rule", LONG],
    ["rule", "wh40k." + "\x1b[2J" * 100],
    ["interpretations", LONG],
    ["variants", LONG],
    ["compare", "wh40k.battle-shock", f"--variant={LONG}"],
    ["compare", LONG],
    ["sweep", "wh40k.battle-shock", f"leadership={LONG}"],
    ["sweep", "wh40k.battle-shock", "leadership=1..9" + "9" * 5000],
    ["sweep", "army-morale.detachment-value", "points=1..999999999"],
    ["sweep", "wh40k.battle-shock", "leadership=7", f"--csv={LONG}.csv"],
    ["sweep", "wh40k.battle-shock", "leadership=7", "--csv=/nonexistent-folder/x.csv"],
    ["sweep", "wh40k.battle-shock", "leadership=7", "--scheduler", LONG],
    ["solve", "wh40k.battle-shock", f"p_pass>={LONG}", "over", "leadership=2..12"],
    ["solve", "wh40k.battle-shock", "p_pass>=0.5", "over", f"leadership={LONG}"],
    ["solve", "wh40k.battle-shock", "p_pass>=" + "9" * 5000, "over", "leadership=2..12"],
    ["solve", "army-morale.detachment-value", "morale>=5", "over", "points=1..999999999"],
    ["solve", LONG, "p_pass>=0.5", "over", "leadership=2..12"],
    ["sensitivity", "wh40k.battle-shock", f"leadership={LONG}"],
    ["sensitivity", "wh40k.battle-shock", "leadership=7", f"--output={LONG}"],
    ["sensitivity", "wh40k.battle-shock", "leadership=7", f"--variant={LONG}"],
    ["matrix", "wh40k.battle-shock", f"rows=leadership:{LONG}", "cols=modifier:0"],
    ["matrix", "wh40k.battle-shock", "rows=leadership:2..12", "cols=modifier:" + ",".join(["0"] * 5000)],
    ["matrix", "army-morale.detachment-value", "rows=points:1..999999999", "cols=points:1..2"],
    ["parameters", LONG],
    ["variants", "show", LONG],
    ["variants", "show", "/etc/passwd"],
    ["variants", "show", "tests/hostile/variants/bad-tag.yaml"],
]

SERVER_PATHS = [
    "/site/%00",
    "/site/a%00b.html",
    "/site/%ff",
    "/site/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
    "/site/../../etc/passwd",
    "/site/..%2f..%2fetc%2fpasswd",
    "/site/%2e%2e/%2e%2e/etc/passwd",
    "/site/" + "a" * 5000,
    "/site/%ED%A0%80",
    "/calc/" + "x" * 2000,
    "/calc/wh40k.%00",
    "/app/%00",
    "/app/../../etc/passwd",
    "/nothing-here",
    "/%ff%fe",
    "/site/..%2f..%2f..%2fetc/passwd",
    "/site/a/../../../etc/passwd",
    "/site/%2E%2E/x",
    "/site/.%2e/x",
]


def write(folder: str, name: str, content: str | bytes) -> None:
    path = HERE / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        with path.open("w", encoding="utf-8", newline="", errors="surrogatepass") as f:
            f.write(content)


def main() -> None:
    for folder in ("logs", "missions", "variants", "data"):  # start afresh: no stale case stays
        for old in (HERE / folder).glob("*"):
            old.unlink()
    for name, content in LOGS.items():
        write("logs", name, content)
    for mid, change in MISSIONS.items():
        if isinstance(change, bytes):
            write("missions", f"{mid}.yaml", change)
        else:
            write(
                "missions",
                f"{mid}.yaml",
                MISSION.format(id=mid).replace(*change) if change[0] else MISSION.format(id=mid),
            )
    for name, content in VARIANTS.items():
        write("variants", name, content)
    for name, content in DATA.items():
        write("data", name, content)
    write("", "cli.jsonl", "".join(json.dumps(args) + "\n" for args in CLI))
    write("", "server-paths.txt", "".join(p + "\n" for p in SERVER_PATHS))


if __name__ == "__main__":
    main()
