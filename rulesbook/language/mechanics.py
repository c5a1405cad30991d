"""A system's mechanics: its declared roll tests, inputs and calculators, checked against its
rule choices, combined with what a variant adds, and rolled as :class:`~rulesbook.dice.RollTest`.

:class:`Mechanics` holds what a system declares in the rules language (its ``mechanics.yaml``,
or nothing) and the names its choice set offers expressions (every rule parameter and reading).
:meth:`Mechanics.check` checks a document against them — every name known, every expression of
the type its field needs, every test a calculator runs declared, every ``extends`` resolvable —
so a problem is found when the file is read, not when a number is asked for.

A test is *resolved* with the declarations a variant adds (:meth:`Mechanics.resolve`): the tests
it extends first (root to leaf: a later level's fields and same-keyed entries replace the
earlier ones), then each entry a variant adds to any of them, in order. So an entry a variant
adds to a test reaches every test that extends it, and every calculator that rolls one of them.
:meth:`Mechanics.roll` evaluates the resolved test under a choice set (its parameters, readings,
the variant's additions and the values of added inputs) and the values its caller gives, and
returns the one roll-test primitive, checked against the dice work bound.

Example:
    >>> from rulesbook.language.document import build_document
    >>> doc = build_document({"tests": {"nerve": {"dice": "2D6", "pass": "at-most",
    ...     "target": "nerve", "given": {"nerve": {"kind": "integer", "minimum": 2, "maximum": 12}},
    ...     "faces": {"boxcars": {"double": 6, "result": "fail"}}}}})
    >>> mech = Mechanics("demo", doc)
    >>> mech.check(doc)
    >>> mech.roll("nerve", None, nerve=12).p_pass()   # everything but a double 6
    Fraction(35, 36)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import prod
from typing import Any, Protocol

from rulesbook.additions import Additions
from rulesbook.dice import DiceExpr, Faces, Reads, RollTest
from rulesbook.errors import InputError, did_you_mean, quote
from rulesbook.language.declarations import (
    Comparison,
    FaceEntry,
    FacesDecl,
    InputDecl,
    LanguageError,
    ModifierEntry,
    Path,
    RerollEntry,
    TestDecl,
    dotted,
)
from rulesbook.language.document import Added, CalculatorDecl, Declarations
from rulesbook.language.expressions import BOOLEAN, DICE, NUMBER, Expression, NameType, Value, text_type

__all__ = [
    "EMPTY",
    "MAX_TOTAL_ROLLS",
    "READS",
    "Mechanics",
    "ResolvedTest",
    "choice_names",
    "declared_additions",
    "face_rolls",
    "names_read",
]

EMPTY = Declarations()
"""Nothing declared (a system without ``mechanics.yaml``; a variant that adds nothing)."""

READS: tuple[Reads, ...] = ("kept", "rolled")
"""What a test's ``reads`` may give: natural rolls read on the kept dice, or on every die rolled."""

MAX_TOTAL_ROLLS = 10_000
"""The most rolls of the read dice a ``total:`` entry lists to find the natural rolls of a total."""


def choice_names(choices: Any) -> tuple[tuple[str, NameType], ...]:
    """Every rule parameter and reading of a choice set, with its type in expressions.

    >>> from rulesbook.systems.scrollhammer.choices import CHOICES
    >>> dict(choice_names(CHOICES))["leadership_dice"], dict(choice_names(CHOICES))["ld_bounds"].options
    (NameType(kind='dice', options=()), ('none', 'max-10'))
    """
    if choices is None:
        return ()
    kinds = {"int": NUMBER, "bool": BOOLEAN, "dice": DICE, "fraction": NUMBER}
    out = [(s.key, kinds[s.kind]) for s in type(choices.parameters).specs()]
    out += [(s.key, text_type(s.options)) for s in type(choices.readings).specs()]
    return tuple(out)


@lru_cache(maxsize=256)
def declared_additions(additions: Additions) -> Declarations:
    """What a variant's ``add:`` declares in the rules language (inputs, tests, calculators)."""

    def decls(section: str) -> tuple[Any, ...]:
        return tuple(entry.decl for _, entry in additions.section(section) if isinstance(entry, Added))

    return Declarations(inputs=decls("inputs"), tests=decls("tests"), calculators=decls("calculators"))


def names_read(decl: TestDecl) -> set[str]:
    """Every name a (resolved) test's expressions read."""
    exprs: list[Any] = [decl.dice, decl.target, decl.reads, decl.fails]
    for entry in decl.entries:
        exprs.append(entry.when)
        exprs.append(getattr(entry, "value", None))
        faces = getattr(entry, "faces", None)
        exprs.append(getattr(faces, "value", None))
    return {name for e in exprs if isinstance(e, Expression) for name in e.names}


@dataclass(frozen=True, slots=True)
class ResolvedTest:
    """A test with everything it extends and everything a variant adds to it, in one declaration
    (``lineage``: the keys of the tests it is built from, the root first, itself last)."""

    decl: TestDecl
    lineage: tuple[str, ...]

    @property
    def key(self) -> str:
        """The test's key."""
        return self.decl.key


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...


def _merge_entries[E: _Keyed](before: tuple[E, ...], after: tuple[E, ...]) -> tuple[E, ...]:
    """Entries of an extended test, then the extending test's (same key: replaced in place)."""
    later = {e.key: e for e in after}
    kept = tuple(later.pop(e.key) if e.key in later else e for e in before)
    return (*kept, *(e for e in after if e.key in later))


def _extend(base: TestDecl, child: TestDecl) -> TestDecl:
    """``child`` declared on top of ``base``: its fields where it gives them, entries merged."""
    given = {g.key: g for g in base.given} | {g.key: g for g in child.given}
    return TestDecl(
        key=child.key,
        title=child.title or base.title,
        summary=child.summary or base.summary,
        rule=child.rule or base.rule,
        extends=child.extends,
        given=tuple(given.values()),
        dice=child.dice if child.dice is not None else base.dice,
        comparison=child.comparison or base.comparison,
        target=child.target or base.target,
        reads=child.reads or base.reads,
        fails=child.fails or base.fails,
        cap=child.cap if child.cap is not None else base.cap,
        modifiers=_merge_entries(base.modifiers, child.modifiers),
        faces=_merge_entries(base.faces, child.faces),
        rerolls=_merge_entries(base.rerolls, child.rerolls),
        added=child.added,
    )


@dataclass(frozen=True, slots=True, eq=False)
class Mechanics:
    """What a system declares in the rules language, and the names its rule choices offer.

    ``own`` is the system's document (empty for a system that declares none: a variant may still
    add inputs, tests and calculators to it); ``names`` are its parameters and readings with
    their types (:func:`choice_names`); ``file`` names the document in messages. A system has one
    (it keys the caches of resolved and rolled tests by identity: hashing its declarations at
    every roll cost more than the roll).
    """

    system: str
    own: Declarations = EMPTY
    names: tuple[tuple[str, NameType], ...] = ()
    file: str = ""
    path: str = ""
    """The document's path (``""`` when it was not read from a file)."""

    # -- look-ups ---------------------------------------------------------------------------------

    def tests(self, extra: Declarations = EMPTY) -> dict[str, TestDecl]:
        """The system's tests and the ones ``extra`` declares anew (not the entries it adds)."""
        own = {t.key: t for t in self.own.tests}
        return own | {t.key: t for t in extra.tests if t.key not in own}

    def inputs(self, extra: Declarations = EMPTY) -> dict[str, InputDecl]:
        """The system's inputs, then the ones ``extra`` adds."""
        return {i.key: i for i in (*self.own.inputs, *extra.inputs)}

    def calculators(self, extra: Declarations = EMPTY) -> dict[str, CalculatorDecl]:
        """The system's calculators, then the ones ``extra`` adds."""
        return {c.key: c for c in (*self.own.calculators, *extra.calculators)}

    def lineage(self, key: str, extra: Declarations = EMPTY) -> tuple[str, ...]:
        """The tests ``key`` is built from, the root first, itself last (InputError for an
        unknown test).

        >>> from rulesbook.registry import registry
        >>> registry().mechanics["scrollhammer"].lineage("break-test")
        ('leadership-test', 'morale-check', 'break-test')
        """
        tests = self.tests(extra)
        out: list[str] = []
        while key:
            if key in out:
                raise InputError("extends", f"test {key} extends itself (through {', '.join(out)})")
            test = tests.get(key)
            if test is None:
                hint = did_you_mean(key, tests) or f"; tests: {', '.join(tests) or 'none'}"
                raise InputError("test", f"unknown test {quote(key)} of {self.system}{hint}")
            out.append(key)
            key = test.extends
        return tuple(reversed(out))

    def resolve(self, key: str, extra: Declarations = EMPTY) -> ResolvedTest:
        """Test ``key`` with what it extends and every entry ``extra`` adds to its lineage."""
        return _resolve(self, key, extra)

    def scope(self, extra: Declarations = EMPTY, given: Iterable[InputDecl] = ()) -> dict[str, NameType]:
        """The names an expression may read: parameters and readings, inputs (the system's and
        the added ones), and a test's ``given`` arguments."""
        out = dict(self.names)
        out |= {i.key: i.name_type for i in self.inputs(extra).values()}
        out |= {g.key: g.name_type for g in given}
        return out

    def rule_paths(self) -> list[tuple[str, Path]]:
        """(rule ID, path in the document) of every declaration that executes a rule: each test
        with a ``rule``, and each entry that names one (the code of a rule written in data).

        >>> from rulesbook.registry import registry
        >>> registry().mechanics["scrollhammer"].rule_paths()[:2]
        [('scrollhammer.morale.check', ('tests', 'leadership-test')), ('scrollhammer.morale.insane-heroism', ('tests', 'leadership-test', 'faces', 'insane-heroism'))]
        """
        out: list[tuple[str, Path]] = []
        for test in self.own.tests:
            if test.rule:
                out.append((test.rule, ("tests", test.key)))
            for section, entries in (
                ("modifiers", test.modifiers),
                ("faces", test.faces),
                ("rerolls", test.rerolls),
            ):
                out += [(e.rule, ("tests", test.key, section, e.key)) for e in entries if e.rule]
        return out

    # -- checking ---------------------------------------------------------------------------------

    def check(self, document: Declarations, where: str = "") -> None:
        """Check ``document`` (the system's own, or a variant's additions) against the system:
        one :class:`LanguageError` naming the path of the first problem."""
        own = document is self.own
        extra = EMPTY if own else document
        prefix: Path = () if own else ("add",)
        choice = dict(self.names)
        own_inputs = {i.key for i in self.own.inputs}
        for added in document.inputs:
            path = (*prefix, "inputs", added.key)
            if added.key in choice:
                raise LanguageError(
                    path,
                    f"{added.key} is a rule parameter or reading of {self.system}; name the input otherwise",
                )
            if not own and added.key in own_inputs:
                raise LanguageError(path, f"{self.system} addedares an input {added.key} already")
        own_tests = {t.key: t for t in self.own.tests}
        for decl in document.tests:
            path = (*prefix, "tests", decl.key)
            if not own and decl.key in own_tests:
                self._check_change(decl, path, extra)
            else:
                self._check_test(decl, path, extra)
        for calc in document.calculators:
            self._check_calculator(calc, (*prefix, "calculators", calc.key), extra)

    def _lineage(self, key: str, path: Path, extra: Declarations) -> tuple[str, ...]:
        try:
            return self.lineage(key, extra)
        except InputError as exc:
            raise LanguageError(path, exc.message) from None

    def _check_change(self, decl: TestDecl, path: Path, extra: Declarations) -> None:
        """Entries a variant adds to a test of the system: new keys, names and types in scope."""
        if not decl.entries_only:
            raise LanguageError(
                path,
                f"{decl.key} is a test of {self.system}: a variant adds modifiers, faces and rerolls "
                "to it (or declares a test under a new key)",
            )
        resolved = self.resolve(decl.key)
        whole = resolved.decl
        taken = (
            {e.key for e in whole.modifiers} | {e.key for e in whole.faces} | {e.key for e in whole.rerolls}
        )
        named: tuple[tuple[str, tuple[ModifierEntry | FaceEntry | RerollEntry, ...]], ...] = (
            ("modifiers", decl.modifiers),
            ("faces", decl.faces),
            ("rerolls", decl.rerolls),
        )
        for section, entries in named:
            for entry in entries:
                if entry.key in taken:
                    raise LanguageError(
                        (*path, section, entry.key),
                        f"the test {decl.key} has an entry {entry.key} already; give the added one another key",
                    )
        scope = self.scope(extra, resolved.decl.given)
        self._check_entries(decl, path, scope)

    def _check_test(self, decl: TestDecl, path: Path, extra: Declarations) -> None:
        """A whole test: what it extends, its fields complete, every expression typed."""
        for name in (g.key for g in decl.given):
            if name in dict(self.names):
                raise LanguageError(
                    (*path, "given", name), f"{name} is a rule parameter or reading of {self.system}"
                )
        if decl.extends:
            self._lineage(decl.extends, (*path, "extends"), extra)
        resolved = self.resolve(decl.key, extra).decl
        missing = [
            f
            for f, v in (("dice", resolved.dice), ("pass", resolved.comparison), ("target", resolved.target))
            if v is None
        ]
        if missing:
            raise LanguageError(path, f"a test needs {', '.join(missing)} (or extends a test that has them)")
        scope = self.scope(extra, resolved.given)
        if isinstance(resolved.dice, Expression):
            _checked(resolved.dice, scope, "dice", (*path, "dice"))
        assert resolved.target is not None
        _checked(resolved.target, scope, "number", (*path, "target"))
        if resolved.reads is not None:
            _checked(resolved.reads, scope, "text", (*path, "reads"))
            if resolved.reads.constant is not None and resolved.reads.constant not in READS:
                raise LanguageError(
                    (*path, "reads"), f"expected kept or rolled, got {quote(resolved.reads.constant)}"
                )
        if resolved.fails is not None:
            _checked(resolved.fails, scope, "boolean", (*path, "fails"))
        self._check_entries(resolved, path, scope)

    def _check_entries(self, decl: TestDecl, path: Path, scope: Mapping[str, NameType]) -> None:
        for mod in decl.modifiers:
            where = (*path, "modifiers", mod.key)
            _checked(mod.value, scope, "number", (*where, "value"))
            _when(mod.when, scope, where)
        for face in decl.faces:
            where = (*path, "faces", face.key)
            _faces(face.faces, scope, where)
            _when(face.when, scope, where)
        for reroll in decl.rerolls:
            where = (*path, "rerolls", reroll.key)
            if reroll.faces is not None:
                _faces(reroll.faces, scope, where)
            _when(reroll.when, scope, where)

    def _check_calculator(self, calc: CalculatorDecl, path: Path, extra: Declarations) -> None:
        """Its tests declared, ``with`` naming their arguments, outcomes and outputs that fit."""
        inputs = self.inputs(extra)
        readings = {k for k, t in self.names if t.kind == "text" and t.options}
        for i, name in enumerate(calc.inputs):
            if name not in inputs and name not in readings:
                hint = did_you_mean(name, [*inputs, *readings]) or f"; inputs: {', '.join(inputs) or 'none'}"
                raise LanguageError((*path, "inputs", i), f"unknown input {quote(name)}{hint}")
        outcomes: set[str] = set()
        for i, step in enumerate(calc.steps):
            where: Path = (*path, "chain", i) if calc.chained else path
            lineage = self._lineage(step.test, (*where, "test"), extra)
            given = self.resolve(lineage[-1], extra).decl.given
            by_key = {g.key: g for g in given}
            scope = self.scope(extra)
            for name, expr in step.with_:
                arg = by_key.get(name)
                if arg is None:
                    hint = did_you_mean(name, by_key) or f"; it takes: {', '.join(by_key) or 'nothing'}"
                    raise LanguageError(
                        (*where, "with", name), f"the test {step.test} takes no {quote(name)}{hint}"
                    )
                _checked(expr, scope, arg.name_type.kind, (*where, "with", name))
            bound = {name for name, _ in step.with_}
            read = names_read(self.resolve(lineage[-1], extra).decl)
            for arg in given:
                if arg.default is None and arg.key in read and arg.key not in bound and arg.key not in inputs:
                    raise LanguageError(
                        (*where, "with"),
                        f"the test {step.test} needs {arg.key}: give it under with: (or declare an input {arg.key})",
                    )
            outcomes |= {o for o in (step.on_pass, step.on_fail) if o != "next"}
        if calc.units is not None:
            _checked(calc.units, self.scope(extra), "number", (*path, "units"))
        for out in calc.outputs:
            where = (*path, "outputs", out.key)
            if out.kind in ("p", "mean", "distribution") and out.outcome not in outcomes:
                hint = did_you_mean(out.outcome, outcomes) or ""
                raise LanguageError(
                    (*where, out.kind),
                    f"unknown outcome {quote(out.outcome)}{hint}; outcomes: {', '.join(sorted(outcomes))}",
                )
            counts = out.kind in ("mean", "distribution") or out.bound
            if counts and calc.units is None:
                raise LanguageError(where, "counting units needs units: (how many units take the test)")
            if out.expression is not None:
                _checked(out.expression, self.scope(extra), "number", (*where, out.bound or "value"))

    # -- rolling ----------------------------------------------------------------------------------

    def roll(self, key: str, choices: Any, /, **given: Any) -> RollTest:
        """Test ``key`` as a roll test under ``choices`` (its parameters, readings, additions and
        added inputs' values; ``None``: no choice set), the caller giving ``given`` values.

        >>> from rulesbook.registry import registry
        >>> from rulesbook.systems.scrollhammer.choices import CHOICES
        >>> registry().mechanics["scrollhammer"].roll("leadership-test", CHOICES, target=7).p_pass()
        Fraction(7, 12)
        """
        return _roll(self, key, choices, tuple(sorted(given.items())))

    def environment(self, choices: Any, extra: Declarations = EMPTY) -> dict[str, Value]:
        """The value of every name but a test's arguments: parameters, readings, and inputs (an
        added input's value from the choice set's situation, else its default)."""
        env: dict[str, Value] = {}
        if choices is not None:
            env |= {s.key: getattr(choices.parameters, s.key) for s in type(choices.parameters).specs()}
            env |= {s.key: getattr(choices.readings, s.key) for s in type(choices.readings).specs()}
        situation = dict(getattr(choices, "situation", ()) or ())
        for decl in self.inputs(extra).values():
            value = situation.get(decl.key, decl.default)
            if value is not None:
                env[decl.key] = value
        return env


def _checked(expr: Expression, scope: Mapping[str, NameType], kind: Any, path: Path) -> None:
    try:
        expr.check(scope, kind, dotted(path))
    except LanguageError:
        raise
    except InputError as exc:
        raise LanguageError(path, exc.message) from None


def _when(when: Expression | None, scope: Mapping[str, NameType], where: Path) -> None:
    if when is not None:
        _checked(when, scope, "boolean", (*where, "when"))


def _faces(faces: FacesDecl, scope: Mapping[str, NameType], where: Path) -> None:
    if faces.value is not None:
        _checked(faces.value, scope, "number", (*where, faces.form))


@lru_cache(maxsize=1024)
def _resolve(mech: Mechanics, key: str, extra: Declarations) -> ResolvedTest:
    lineage = mech.lineage(key, extra)
    tests = mech.tests(extra)
    decl = tests[lineage[0]]
    for level in lineage[1:]:
        decl = _extend(decl, tests[level])
    own = {t.key for t in mech.own.tests}
    for level in lineage:
        for change in extra.tests:
            if change.key == level and level in own:
                decl = replace(
                    decl,
                    modifiers=(*decl.modifiers, *change.modifiers),
                    faces=(*decl.faces, *change.faces),
                    rerolls=(*decl.rerolls, *change.rerolls),
                )
    return ResolvedTest(replace(decl, key=key), lineage)


# -- evaluating ------------------------------------------------------------------------------------


def _value(expr: Expression, env: Mapping[str, Value], field: str) -> Value:
    try:
        return expr.evaluate(env)
    except KeyError as exc:  # a name with no value here: a test argument nobody gave
        raise InputError(field, f"{exc.args[0]} has no value here (give it to the test)") from None


def _number(expr: Expression, env: Mapping[str, Value], field: str) -> int | Fraction:
    value = _value(expr, env, field)
    assert isinstance(value, int | Fraction) and not isinstance(value, bool), value
    return value


def _whole(expr: Expression, env: Mapping[str, Value], field: str) -> int:
    value = _number(expr, env, field)
    if isinstance(value, Fraction):
        raise InputError(field, f"{quote(expr.text)} gives {value}, not a whole number")
    return value


def _active(when: Expression | None, env: Mapping[str, Value], field: str) -> bool:
    return when is None or bool(_value(when, env, field))


def face_rolls(
    faces: FacesDecl, dice: DiceExpr, reads: Reads, env: Mapping[str, Value], field: str
) -> frozenset[Faces]:
    """The natural rolls (sorted faces of the dice read) an entry names, for these dice (none when
    the dice cannot show them: a double 7 of D6, three faces of two dice read).

    >>> from rulesbook.dice import parse_dice
    >>> from rulesbook.language.expressions import parse_expression
    >>> sorted(face_rolls(FacesDecl("double"), parse_dice("3D6kh2"), "kept", {}, "x"))[:2]
    [(1, 1), (2, 2)]
    >>> sorted(face_rolls(FacesDecl("total", parse_expression("11", "x")), parse_dice("2D6"), "kept", {}, "x"))
    [(5, 6)]
    """
    sides = dice.read_sides(reads)
    if faces.form == "highest":
        return dice.every_die_highest(reads)
    if faces.form == "double":
        if faces.value is None:
            return frozenset((f,) * len(sides) for f in range(1, min(sides) + 1))
        face = _whole(faces.value, env, field)
        return dice.every_die(face, reads) if 1 <= face <= min(sides) else frozenset()
    if faces.form == "faces":  # (a roll of other dice than these never matches)
        return frozenset({faces.faces}) if len(faces.faces) == len(sides) else frozenset()
    assert faces.value is not None
    total = _whole(faces.value, env, field)
    if prod(sides) > MAX_TOTAL_ROLLS:
        raise InputError(
            field,
            f"a natural total reads at most {MAX_TOTAL_ROLLS:,} rolls of the dice; {dice} has {prod(sides):,}",
        )
    return frozenset(
        tuple(sorted(roll))
        for roll in itertools.product(*(range(1, s + 1) for s in sides))
        if sum(roll) == total
    )


_DIRECTION: dict[Comparison, tuple[str, Any]] = {
    "at-most": ("under", math.floor),
    "below": ("under", lambda t: math.ceil(t) - 1),
    "at-least": ("over", math.ceil),
    "above": ("over", lambda t: math.floor(t) + 1),
}


@lru_cache(maxsize=8192)
def _roll(mech: Mechanics, key: str, choices: Any, given: tuple[tuple[str, Any], ...]) -> RollTest:
    extra = EMPTY if choices is None else declared_additions(choices.additions)
    resolved = _resolve(mech, key, extra).decl
    env = _environment(mech, choices, extra) | dict(given)
    for arg in resolved.given:
        if arg.key not in env and arg.default is not None:
            env[arg.key] = arg.default
    return roll_test(resolved, env, f"{mech.system}.{key}")


@lru_cache(maxsize=1024)
def _environment(mech: Mechanics, choices: Any, extra: Declarations) -> dict[str, Value]:
    return mech.environment(choices, extra)


def roll_test(decl: TestDecl, env: Mapping[str, Value], field: str) -> RollTest:
    """A resolved test evaluated where every name has a value: the roll test (checked against
    the dice work bound, one line naming ``field`` otherwise)."""
    assert decl.comparison is not None and decl.target is not None and decl.dice is not None
    dice = decl.dice if isinstance(decl.dice, DiceExpr) else _value(decl.dice, env, field)
    assert isinstance(dice, DiceExpr)
    if dice.is_constant:
        raise InputError(field, f"a test rolls dice, got {dice}")
    reads: Any = "kept" if decl.reads is None else _value(decl.reads, env, field)
    if reads not in READS:
        raise InputError(field, f"reads gives {quote(reads)}; expected kept or rolled")
    direction, rounding = _DIRECTION[decl.comparison]
    target = int(rounding(_number(decl.target, env, field)))
    modifier = sum(_whole(m.value, env, field) for m in decl.modifiers if _active(m.when, env, field))
    results: dict[Faces, str] = {}
    for face in decl.faces:
        if _active(face.when, env, field):
            for roll in face_rolls(face.faces, dice, reads, env, field):
                results[roll] = face.result  # a later entry decides
    failed, reroll_faces = False, set[Faces]()
    for reroll in decl.rerolls:
        if _active(reroll.when, env, field):
            if reroll.faces is None:
                failed = True
            else:
                reroll_faces |= face_rolls(reroll.faces, dice, reads, env, field)
    fails = decl.fails is not None and bool(_value(decl.fails, env, field))
    test = RollTest(
        dice=dice,
        target=target,
        direction=direction,  # type: ignore[arg-type]
        modifier=modifier,
        modifier_cap=decl.cap,
        auto_pass=frozenset(r for r, v in results.items() if v == "pass"),
        auto_fail=frozenset(r for r, v in results.items() if v == "fail"),
        critical=frozenset(r for r, v in results.items() if v == "critical"),
        always_fail=fails,
        reroll="failed" if failed else "none",
        reads=reads,
        reroll_faces=frozenset(reroll_faces),
    )
    return test.check_cost(field)
