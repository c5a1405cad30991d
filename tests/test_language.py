"""The rules language (rulesbook.language): expressions, declared roll tests and their checks.

A declared test is rolled through the one roll-test primitive; here random declarations are
compared with a brute-force reading of the language's own documentation (docs/designer/
language.md): every roll of the dice listed face by face by ``tests/dice_oracle.py`` (which imports
nothing from rulesbook), the natural faces read, the entries applied in order (the last one that
names a roll decides), the comparison made with exact fractions, one re-roll when a failed test or
named faces ask for it.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.data import DataFileError, load_data_file
from rulesbook.errors import InputError
from rulesbook.language.declarations import LanguageError
from rulesbook.language.document import build_document
from rulesbook.language.expressions import BOOLEAN, NUMBER, parse_expression, text_type
from rulesbook.language.files import load_mechanics
from rulesbook.language.mechanics import Mechanics
from rulesbook.language.schema import schema_problem
from rulesbook.language.systems import load_data_system
from tests.dice_oracle import Term, rolls

ROOT = Path(__file__).resolve().parent.parent

# -- expressions -----------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(a=st.integers(-20, 20), b=st.integers(-20, 20), c=st.integers(1, 9), flag=st.booleans())
def test_an_expression_computes_as_written(a: int, b: int, c: int, flag: bool) -> None:
    env = {"a": a, "b": b, "c": c, "flag": flag}
    cases = {
        "a + b * c": a + b * c,
        "(a + b) * c": (a + b) * c,
        "a - b - c": a - b - c,
        "a / c": Fraction(a, c),
        "-a + +b": -a + b,
        "min(a, b, c) + max(a, b)": min(a, b, c) + max(a, b),
        "floor(a / c) + ceil(b / c) + abs(a)": (a // c) + -(-b // c) + abs(a),
        "if flag then a else b": a if flag else b,
        "a < b and not flag or c >= 5": (a < b and not flag) or c >= 5,
        "a == b or a != c": a == b or a != c,
    }
    for text, want in cases.items():
        got = parse_expression(text, "x").evaluate(env)
        assert got == want and type(got) is not float, (text, got, want)


@pytest.mark.parametrize(
    ("text", "scope", "want", "message"),
    [
        ("nerve +", {}, None, "x: 'nerve +' is not an expression (it ends too soon, after column 7)"),
        ("if a then 1", {"a": BOOLEAN}, None, "x: 'if a then 1' is not an expression (it ends too soon"),
        ("a + true", {"a": NUMBER}, "number", "x: '+' needs a number, got a condition in 'a + true'"),
        (
            "if a then 1 else b",
            {"a": BOOLEAN, "b": BOOLEAN},
            None,
            "'then' gives a number but 'else' a condition",
        ),
        ("r == 'max10'", {"r": text_type(("none", "max-10"))}, "boolean", "'max10' is not a value of r"),
        ("wounded", {"wounded": NUMBER}, "boolean", "expected a condition (true or false), got a number"),
        ("sqrt(4)", {}, "number", "unknown function 'sqrt'"),
        ("nerv", {"nerve": NUMBER}, "number", "unknown name 'nerv' in 'nerv'; did you mean nerve?"),
        ("min()", {}, "number", "x: min takes 1 or more argument(s), got 0 in 'min()'"),
        ("x" * 500, {}, None, "x: an expression is at most 400 characters, got 500"),
    ],
)
def test_a_bad_expression_is_one_line(text: str, scope: dict[str, Any], want: Any, message: str) -> None:
    with pytest.raises(InputError) as err:
        parse_expression(text, "x").check(scope, want)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_deep_nesting_is_refused_or_computed_never_a_crash() -> None:
    assert parse_expression("(" * 150 + "1" + ")" * 150, "x").evaluate({}) == 1
    assert parse_expression("not " * 99 + "true", "x").evaluate({}) is False
    with pytest.raises(InputError, match="divides by zero"):
        parse_expression("1 / (2 - 2)", "x").evaluate({})


# -- declared tests against enumeration ------------------------------------------------------------

DICE = {
    "2D6": ((Term(2, 6),), 0),
    "3D6kl2": ((Term(3, 6, "kl", 2),), 0),
    "3D6dh1": ((Term(3, 6, "dh", 1),), 0),
    "D6+D3": ((Term(1, 6), Term(1, 3)), 0),
    "2D6+1": ((Term(2, 6),), 1),
}


def _matches(form: tuple[str, Any], read: tuple[int, ...]) -> bool:
    kind, value = form
    if kind == "double":
        return len(set(read)) == 1 and (value == "any" or read[0] == value)
    if kind == "total":
        return sum(read) == value
    return read == tuple(sorted(value))


def oracle(dice: str, reads: str, comparison: str, target: Fraction, spec: dict[str, Any]) -> Fraction:
    """P(pass) of a declared test read straight from the language's documentation."""
    terms, modifier = DICE[dice]
    table = rolls(terms, modifier)
    mod = sum(v for v, on in spec["modifiers"] if on)

    def outcome(total: int, read: tuple[int, ...]) -> bool:
        result = None
        for form, res, on in spec["faces"]:
            if on and _matches(form, read):
                result = res
        if result is not None:
            return result != "fail"
        if spec["fails"]:
            return False
        return {
            "at-most": total <= target + mod,
            "below": total < target + mod,
            "at-least": total + mod >= target,
            "above": total + mod > target,
        }[comparison]

    first_pass, asked = Fraction(0), Fraction(0)
    plain = Fraction(0)
    for (total, kept, every), p in table.items():
        read = kept if reads == "kept" else every
        ok = outcome(total, read)
        plain += p if ok else 0
        again = (spec["reroll_failed"] and not ok) or any(
            on and _matches(form, read) for form, on in spec["reroll_faces"]
        )
        if again:
            asked += p
        elif ok:
            first_pass += p
    return first_pass + asked * plain


FORMS = st.one_of(
    st.tuples(st.just("double"), st.one_of(st.integers(1, 6), st.just("any"))),
    st.tuples(st.just("total"), st.integers(2, 12)),
    st.tuples(st.just("faces"), st.lists(st.integers(1, 6), min_size=2, max_size=2)),
)


def _form_yaml(form: tuple[str, Any]) -> dict[str, Any]:
    kind, value = form
    return {kind: value}


@settings(max_examples=40, deadline=None)
@given(
    dice=st.sampled_from(sorted(DICE)),
    reads=st.sampled_from(["kept", "rolled"]),
    comparison=st.sampled_from(["at-most", "at-least", "below", "above"]),
    target=st.fractions(min_value=0, max_value=14, max_denominator=2),
    modifiers=st.lists(st.tuples(st.integers(-2, 2), st.booleans()), max_size=2),
    faces=st.lists(
        st.tuples(FORMS, st.sampled_from(["pass", "fail", "critical"]), st.booleans()), max_size=3
    ),
    fails=st.booleans(),
    reroll_failed=st.booleans(),
    reroll_faces=st.lists(st.tuples(FORMS, st.booleans()), max_size=1),
)
def test_a_declared_test_answers_as_its_declaration_says(
    dice: str,
    reads: str,
    comparison: str,
    target: Fraction,
    modifiers: list[tuple[int, bool]],
    faces: list[tuple[tuple[str, Any], str, bool]],
    fails: bool,
    reroll_failed: bool,
    reroll_faces: list[tuple[tuple[str, Any], bool]],
) -> None:
    if dice == "D6+D3":  # faces of two dice: keep them on both dice
        faces = [(f, r, on) for f, r, on in faces if f[0] != "faces" or max(f[1]) <= 3]
        reroll_faces = [(f, on) for f, on in reroll_faces if f[0] != "faces" or max(f[1]) <= 3]
    flags = {f"f{i}": on for i, on in enumerate([m[1] for m in modifiers] + [f[2] for f in faces])}
    flags |= {f"r{i}": on for i, (_, on) in enumerate(reroll_faces)}
    test: dict[str, Any] = {
        "dice": dice,
        "pass": comparison,
        "target": f"{target.numerator} / {target.denominator}",
        "reads": reads,
        "fails": "always",
        "given": {name: {"kind": "boolean", "default": False} for name in [*flags, "always"]},
        "modifiers": {f"m{i}": {"value": v, "when": f"f{i}"} for i, (v, _) in enumerate(modifiers)},
        "faces": {
            f"x{i}": {**_form_yaml(form), "result": res, "when": f"f{len(modifiers) + i}"}
            for i, (form, res, _) in enumerate(faces)
        },
        "rerolls": {
            f"r{i}": {**_form_yaml(form), "when": f"r{i}"} for i, (form, _) in enumerate(reroll_faces)
        },
    }
    if reroll_failed:
        test["rerolls"]["again"] = {"failed": True}
    document = {"tests": {"t": test}}
    assert schema_problem(document) is None
    declared = build_document(document)
    mechanics = Mechanics("demo", declared)
    mechanics.check(declared)
    got = mechanics.roll("t", None, always=fails, **flags).p_pass()
    spec = {
        "modifiers": modifiers,
        "faces": [(form, res, on) for form, res, on in faces],
        "fails": fails,
        "reroll_failed": reroll_failed,
        "reroll_faces": reroll_faces,
    }
    assert got == oracle(dice, reads, comparison, target, spec)


# -- files -----------------------------------------------------------------------------------------


def shipped_documents() -> list[Path]:
    """Every document of the language in the checkout: the systems' mechanics and the examples."""
    found = sorted(ROOT.glob("rulesbook/systems/*/mechanics.yaml"))
    found += sorted(ROOT.glob("examples/systems/*/mechanics.yaml"))
    return found


@pytest.mark.parametrize("path", shipped_documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_document_passes_the_schema(path: Path) -> None:
    assert schema_problem(load_data_file(path)) is None


BAD = [
    (
        "tests:\n  nerve:\n    dice: 2D6\n    pass: at-most\n    target: nerv\n",
        "line 5: tests.nerve.target: unknown name 'nerv'",
    ),
    (
        "tests:\n  nerve:\n    dicee: 2D6\n",
        "line 3: tests.nerve.dicee: unknown key 'dicee'; did you mean dice?",
    ),
    (
        "tests:\n  nerve:\n    dice: 2D7\n    pass: at-most\n    target: 7\n",
        "line 3: tests.nerve.dice: the dice are D3",
    ),
    (
        "tests:\n  nerve:\n    dice: 2D6\n    pass: under\n    target: 7\n",
        "line 4: tests.nerve.pass: expected one of at-most, at-least, below, above, got 'under'",
    ),
    ("tests:\n  nerve:\n    dice: 2D6\n    pass: at-most\n", "line 2: tests.nerve: a test needs target"),
    (
        "inputs:\n  Has-Standard: {kind: boolean}\n",
        "line 2: inputs.Has-Standard: 'Has-Standard' is not a name",
    ),
    ("inputs:\n  if: {kind: boolean}\n", "line 2: inputs.if: 'if' is not a name"),
    (
        "tests:\n  t:\n    dice: 2D6\n    pass: at-most\n    target: 7\n    faces:\n      a: {double: 1, total: 2, result: pass}\n",
        "line 7: tests.t.faces.a: give one of double (a face, or any), total or faces",
    ),
    ("tests:\n  t:\n    extends: u\n", "line 3: tests.t.extends: unknown test 'u' of demo"),
    (
        "tests:\n  t:\n    dice: 20D20!kh10\n    pass: at-most\n    target: 7\n",
        "line 3: tests.t.dice: 20D20!kh10 would need about",
    ),
    (
        "calculators:\n  c:\n    title: C\n    test: t\n    outputs:\n      p_pass: {label: P, p: pass}\n",
        "line 4: calculators.c.test: unknown test 't' of demo",
    ),
    ("- 1\n", "mechanics.yaml, line 1: : expected a mapping"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[m.split(":")[1] for _, m in BAD])
def test_a_malformed_document_is_one_line_with_file_line_and_field(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "mechanics.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_mechanics(path, "demo", None)
    shown = str(err.value)
    assert "\n" not in shown and shown.startswith("mechanics.yaml"), shown
    assert message in shown, shown


def test_an_entry_under_a_key_the_extended_test_has_replaces_it() -> None:
    document = {
        "tests": {
            "base": {
                "dice": "2D6",
                "pass": "at-most",
                "target": 7,
                "faces": {"luck": {"double": 1, "result": "pass"}},
            },
            "harsh": {"extends": "base", "faces": {"luck": {"double": 6, "result": "fail"}}},
        }
    }
    declared = build_document(document)
    mechanics = Mechanics("demo", declared)
    mechanics.check(declared)
    assert mechanics.roll("base", None).p_pass() == Fraction(21, 36)
    assert mechanics.roll("harsh", None).p_pass() == Fraction(21, 36)  # (1,1) passes on a 2 anyway
    assert [f.faces.value.text for f in mechanics.resolve("harsh").decl.faces] == ["6"]  # type: ignore[union-attr]


def test_a_test_that_extends_itself_is_refused() -> None:
    document = {"tests": {"a": {"extends": "b"}, "b": {"extends": "a"}}}
    declared = build_document(document)
    with pytest.raises(LanguageError, match="extends itself"):
        Mechanics("demo", declared).check(declared)


DUEL_RULES = """\
system: {id: duel, title: Duel, version: "1", source: duel.txt, summary: A duel.}
rules:
  - {id: duel.shot, title: Shot, cite: [Shot], text: The chosen dice at least the target hit; cover adds one.}
"""
DUEL_MECHANICS = """\
inputs:
  dice: {kind: dice, default: 2D6, label: Dice, help: What is rolled.}
  stance: {kind: choice, choices: [open, cover], default: open, label: Stance}
  target: {kind: integer, minimum: 2, maximum: 18, default: 7, label: Target}
tests:
  shot:
    rule: duel.shot
    dice: dice
    pass: at-least
    target: target + (if stance == "cover" then 1 else 0)
calculators:
  shot:
    title: Shot
    test: shot
    inputs: [dice, stance, target]
    outputs: {p_hit: {label: P(hit), p: pass}}
"""
"""A system whose calculator takes a dice input and a choice input (and an integer one)."""


@pytest.mark.parametrize(
    ("dice", "count", "stance", "target"),
    [("2D6", 2, "open", 7), ("2D6", 2, "cover", 7), ("D6", 1, "cover", 4), ("3D6", 3, "open", 10)],
)
def test_dice_and_choice_inputs_reach_a_declared_test(
    tmp_path: Path, dice: str, count: int, stance: str, target: int
) -> None:
    (tmp_path / "rules.yaml").write_text(DUEL_RULES, encoding="utf-8")
    (tmp_path / "mechanics.yaml").write_text(DUEL_MECHANICS, encoding="utf-8")
    calc = load_data_system(tmp_path).calculators[0]
    assert [(i.key, i.kind) for i in calc.inputs] == [
        ("dice", "dice"),
        ("stance", "choice"),
        ("target", "int"),
    ]
    line = target + (stance == "cover")
    rolls_ = list(itertools.product(range(1, 7), repeat=count))
    want = Fraction(sum(sum(r) >= line for r in rolls_), len(rolls_))
    assert Fraction(calc.run(dice=dice, stance=stance, target=target)["p_hit_exact"]) == want
    with pytest.raises(InputError, match="stance: expected one of open, cover"):
        calc.run(stance="hill")
