"""Explanations generated from the declarations: a test in words, with the dice it rolled, its
target worked out and each entry that applied — and, under a variant, what the variant added.

The words come from the declaration and the values from the roll test actually rolled, so an
explanation never says "2D6" when a variant rolls 3D6dh1, and an entry a variant adds to a test
says where it applies and whether it did here.

Example:
    >>> from rulesbook.registry import registry
    >>> from rulesbook.systems.scrollhammer.choices import CHOICES
    >>> mech = registry().mechanics["scrollhammer"]
    >>> for line in describe_test(mech, "break-test", CHOICES, {"target": 5, "lost_by": 3}):
    ...     print(line)
    Break test: roll 2D6; a total of 5 or less passes (target = 5).
    A double 1 passes whatever the total (Insane Heroism).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from rulesbook.dice import RollTest
from rulesbook.language.declarations import TestDecl
from rulesbook.language.expressions import Expression, Value
from rulesbook.language.mechanics import EMPTY, Mechanics, declared_additions
from rulesbook.language.words import entry_text, shown, value_or_none

__all__ = ["added_lines", "describe_test", "rule_phrase"]


def _condition(when: Expression | None, env: Mapping[str, Value]) -> str:
    """`` while C (so here)`` / `` while C (not here)``, or `` while C`` when it cannot be told."""
    if when is None:
        return ""
    value = value_or_none(when, env)
    if value is None:
        return f", while {when.text}"
    names = ", ".join(f"{n} {shown(env[n])}" for n in sorted(when.names))
    return f", while {when.text} ({'it applies here' if value else 'not here'}: {names})"


def describe_test(mechanics: Mechanics, key: str, choices: Any, given: Mapping[str, Value]) -> list[str]:
    """A test in words as rolled under ``choices`` with its arguments ``given``: the dice, the
    target worked out, every entry that applied (one line each)."""
    decl, test, env = _rolled(mechanics, key, choices, given)
    return _lines(decl, test, env)


def rule_phrase(mechanics: Mechanics, key: str, choices: Any, given: Mapping[str, Value]) -> str:
    """The same in one phrase, for a sentence of its own: the dice, what passes, the entries that
    applied (a variant's included).

    >>> from rulesbook.registry import registry
    >>> from rulesbook.systems.warstrike.choices import CHOICES
    >>> rule_phrase(registry().mechanics["warstrike"], "ld-test", CHOICES.replace(parameters={"ld_test_dice": "3D6dh1"}), {"ld": 8})
    '3D6dh1, a total of 8 or less passes'
    """
    decl, test, env = _rolled(mechanics, key, choices, given)
    lines = _lines(decl, test, env)
    head = lines[0].split(": roll ", 1)[1].split(" (", 1)[0].rstrip(".").replace("; ", ", ", 1)
    return "; ".join([head, *(line.rstrip(".")[0].lower() + line.rstrip(".")[1:] for line in lines[1:])])


def _rolled(
    mechanics: Mechanics, key: str, choices: Any, given: Mapping[str, Value]
) -> tuple[TestDecl, RollTest, dict[str, Value]]:
    extra = EMPTY if choices is None else declared_additions(choices.additions)
    decl = mechanics.resolve(key, extra).decl
    test = mechanics.roll(key, choices, **given)
    env = {
        **mechanics.environment(choices, extra),
        **{g.key: g.default for g in decl.given if g.default is not None},
    }
    env |= given
    return decl, test, env


_COMPARED = {
    "at-most": "a total of {} or less",
    "below": "a total below {}",
    "at-least": "a total of {} or more",
    "above": "a total above {}",
}


def _lines(decl: TestDecl, test: RollTest, env: Mapping[str, Value]) -> list[str]:
    title = decl.title or decl.key
    assert decl.target is not None and decl.comparison is not None
    target = value_or_none(decl.target, env)
    shown = target if target is not None else test.target
    modifier = test.effective_modifier
    notes = [] if decl.target.constant is not None else [f"{decl.target.text} = {shown}"]
    if modifier and test.direction == "under":
        notes.append(f"then {modifier:+d}")
        shown = _plus(shown, modifier)
    elif modifier:
        notes.append(f"{modifier:+d} added to the roll")
    worked = f" ({', '.join(notes)})" if notes else ""
    lines = [f"{title}: roll {test.dice}; {_COMPARED[decl.comparison].format(shown)} passes{worked}."]
    if test.always_fail:
        lines.append(
            "It fails without a roll" + (", but for the natural rolls that pass." if test.auto_pass else ".")
        )
    for entry in decl.entries:
        if entry.when is None or value_or_none(entry.when, env):
            text = entry_text(entry, env)
            lines.append(text[0].upper() + text[1:] + ".")
    return lines


def _plus(value: Value, modifier: int) -> Value:
    return value + modifier if isinstance(value, int | Fraction) and not isinstance(value, bool) else value


def added_lines(
    mechanics: Mechanics, tests: Iterable[str], choices: Any, values: Mapping[str, Value]
) -> list[str]:
    """One line per entry a variant adds to the tests a calculator rolls (and the tests they
    extend): what it does, to which test, and whether it applies with these input ``values``.

    >>> from rulesbook.registry import registry
    >>> from rulesbook.systems.scrollhammer.choices import CHOICES
    >>> from rulesbook.variants import Variant
    >>> mech = registry().mechanics["scrollhammer"]
    >>> v = Variant.from_mapping({"system": "scrollhammer", "title": "x", "add": {
    ...     "inputs": {"has_standard": {"kind": "boolean", "default": False}},
    ...     "tests": {"break-test": {"rerolls": {"standard": {"failed": True, "when": "has_standard"}}}}}}, name="x")
    >>> added_lines(mech, ["break-test"], v.apply(CHOICES), {"has_standard": True})
    ['Added by the variant to the Break test: a failed test is re-rolled once, while has_standard (it applies here: has_standard yes).']
    """
    extra = EMPTY if choices is None else declared_additions(choices.additions)
    if not extra:
        return []
    env = {**mechanics.environment(choices, extra), **values}
    reached: dict[str, None] = {}
    for key in tests:
        for level in mechanics.lineage(key, extra):
            reached[level] = None
    lines = []
    own = {t.key: t for t in mechanics.own.tests}
    for change in extra.tests:
        if change.key not in reached or change.key not in own:
            continue
        title = own[change.key].title or change.key
        for entry in change.entries:
            lines.append(
                f"Added by the variant to the {title}: {entry_text(entry, env)}{_condition(entry.when, env)}."
            )
    return lines
