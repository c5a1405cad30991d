"""A brute-force oracle for the dice grammar, written from its documentation alone.

It imports nothing from rulesbook: each expression is given as plain data (terms and a constant),
every die is enumerated face by face (a re-roll as a second face, an explosion as another die,
at most :data:`EXPLODE_DEPTH` extra dice per die, the last one's face counting as rolled), every
combination of dice is listed, sorted, kept or dropped, and summed. A roll test's natural rolls
are read from the kept dice or from every die rolled, as multisets of natural faces (a die's face
after its own re-roll; an exploding die's first face). Only small expressions are enumerable, which
is what the property tests draw.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

EXPLODE_DEPTH = 3
"""docs/designer/dice.md: an exploding die adds at most three extra dice."""


@dataclass(frozen=True)
class Term:
    """``count`` dice of ``sides``; keep is '', 'kh', 'kl', 'dh' or 'dl' with ``n``."""

    count: int
    sides: int
    keep: str = ""
    n: int = 0
    reroll: int = 0
    explode: bool = False
    negative: bool = False

    def kept_slice(self) -> slice:
        """The kept dice among the dice sorted lowest first."""
        return {
            "": slice(0, self.count),
            "kh": slice(self.count - self.n, self.count),
            "kl": slice(0, self.n),
            "dh": slice(0, self.count - self.n),
            "dl": slice(self.n, self.count),
        }[self.keep]


@cache
def _faces(sides: int, reroll: int) -> dict[int, Fraction]:
    """One die's face after its re-roll: a face of ``reroll`` or less is rolled again once."""
    out: dict[int, Fraction] = {}
    for first in range(1, sides + 1):
        if first <= reroll:
            for second in range(1, sides + 1):
                out[second] = out.get(second, Fraction(0)) + Fraction(1, sides * sides)
        else:
            out[first] = out.get(first, Fraction(0)) + Fraction(1, sides)
    return out


@cache
def _chain(sides: int, reroll: int, explode: bool, extra: int) -> dict[int, Fraction]:
    """The value of one die that may still add ``extra`` dice by exploding."""
    out: dict[int, Fraction] = {}
    for face, p in _faces(sides, reroll).items():
        if explode and face == sides and extra > 0:
            for more, q in _chain(sides, reroll, explode, extra - 1).items():
                out[face + more] = out.get(face + more, Fraction(0)) + p * q
        else:
            out[face] = out.get(face, Fraction(0)) + p
    return out


@cache
def one_die(sides: int, reroll: int, explode: bool) -> tuple[tuple[int, int, Fraction], ...]:
    """(value, natural face, probability) of one die of a term."""
    rows: list[tuple[int, int, Fraction]] = []
    for face, p in _faces(sides, reroll).items():
        if explode and face == sides:
            for more, q in _chain(sides, reroll, explode, EXPLODE_DEPTH - 1).items():
                rows.append((face + more, face, p * q))
        else:
            rows.append((face, face, p))
    return tuple(rows)


def rolls(
    terms: Iterable[Term], modifier: int
) -> dict[tuple[int, tuple[int, ...], tuple[int, ...]], Fraction]:
    """{(total, kept natural faces sorted, every natural face sorted): probability}."""
    per_term = []
    for term in terms:
        out: dict[tuple[int, tuple[int, ...], tuple[int, ...]], Fraction] = {}
        die = one_die(term.sides, term.reroll, term.explode)
        for combo in itertools.product(die, repeat=term.count):
            ordered = sorted(combo, key=lambda row: row[0])
            kept = ordered[term.kept_slice()]
            total = sum(v for v, _, _ in kept)
            p = Fraction(1)
            for _, _, q in combo:
                p *= q
            key = (
                -total if term.negative else total,
                tuple(sorted(f for _, f, _ in kept)),
                tuple(sorted(f for _, f, _ in combo)),
            )
            out[key] = out.get(key, Fraction(0)) + p
        per_term.append(out)
    joint: dict[tuple[int, tuple[int, ...], tuple[int, ...]], Fraction] = {(modifier, (), ()): Fraction(1)}
    for part in per_term:
        nxt: dict[tuple[int, tuple[int, ...], tuple[int, ...]], Fraction] = {}
        for (t1, k1, a1), p1 in joint.items():
            for (t2, k2, a2), p2 in part.items():
                key = (t1 + t2, tuple(sorted(k1 + k2)), tuple(sorted(a1 + a2)))
                nxt[key] = nxt.get(key, Fraction(0)) + p1 * p2
        joint = nxt
    return joint


def distribution(terms: Iterable[Term], modifier: int) -> dict[int, Fraction]:
    """The total's exact distribution."""
    out: dict[int, Fraction] = {}
    for (total, _, _), p in rolls(tuple(terms), modifier).items():
        out[total] = out.get(total, Fraction(0)) + p
    return {t: p for t, p in sorted(out.items()) if p}


def text(terms: Iterable[Term], modifier: int, *, lower: bool = False, spaced: bool = False) -> str:
    """The expression spelt by hand (options in a fixed order: keep/drop, then r, then !; the
    grammar wants no sign before the first term, so a subtracted first term follows the constant)."""
    terms = tuple(terms)
    gap = " " if spaced else ""
    parts = []
    for term in terms:
        body = f"{term.count}{'d' if lower else 'D'}{term.sides}"
        if term.keep:
            body += f"{term.keep}{term.n}"
        if term.reroll:
            body += f"r{term.reroll}"
        if term.explode:
            body += "!"
        parts.append(("-" if term.negative else "+") + gap + body)
    if not terms or terms[0].negative:
        return gap.join([str(modifier), *parts]) if modifier >= 0 else gap.join([f"0-{-modifier}", *parts])
    joined = gap.join(parts)[1:].lstrip()
    if modifier:
        joined += gap + (f"+{gap}{modifier}" if modifier > 0 else f"-{gap}{-modifier}")
    return joined


def roll_test(
    terms: Iterable[Term],
    modifier: int,
    *,
    target: int,
    direction: str,
    reads: str = "kept",
    auto_pass: frozenset[tuple[int, ...]] = frozenset(),
    auto_fail: frozenset[tuple[int, ...]] = frozenset(),
    critical: frozenset[tuple[int, ...]] = frozenset(),
    reroll: str = "none",
) -> tuple[Fraction, Fraction]:
    """(P(pass), P(critical)) of a roll test: natural rolls first (critical, pass, fail), then the
    total against the target; one re-roll (ones: every read die shows 1; failed; all but critical)
    makes the whole roll again."""
    table = rolls(tuple(terms), modifier)
    crit = {tuple(sorted(r)) for r in critical}
    passes = {tuple(sorted(r)) for r in auto_pass}
    fails = {tuple(sorted(r)) for r in auto_fail}

    def judge(total: int, read: tuple[int, ...]) -> int:
        if read in crit:
            return 2
        if read in passes:
            return 1
        if read in fails:
            return 0
        ok = total <= target if direction == "under" else total >= target
        return 1 if ok else 0

    first: dict[tuple[int, bool], Fraction] = {}
    for (total, kept, every), p in table.items():
        read = kept if reads == "kept" else every
        outcome = judge(total, read)
        again = {
            "none": False,
            "ones": all(f == 1 for f in read),
            "failed": outcome == 0,
            "all": outcome != 2,
        }[reroll]
        first[(outcome, again)] = first.get((outcome, again), Fraction(0)) + p
    plain = [sum((p for (o, _), p in first.items() if o == k), Fraction(0)) for k in range(3)]
    asked = sum((p for (_, a), p in first.items() if a), Fraction(0))
    final = [
        sum((p for (o, a), p in first.items() if o == k and not a), Fraction(0)) + asked * plain[k]
        for k in range(3)
    ]
    return final[1] + final[2], final[2]
