"""The joint distribution of a roll's total and the natural faces a rule reads, built with icepool.

A roll test reads natural faces (a double 1 passes, an unmodified 6 is critical) beside the
total. For any :class:`~rulesbook.dice.expr.DiceExpr` — keep/drop, re-rolls, explosions,
several terms — :func:`joint_weights` gives, exactly and in integers, how often each total
comes with each of a few *special* face multisets (``(1, 1)``, ``(6,)``…) among the dice the
rule reads (:data:`~rulesbook.dice.expr.Reads`: the kept dice, or every die rolled).

How: each die is an icepool die (re-roll and explosion included); a term's dice are summed
die by die (no keep/drop) or evaluated as an icepool pool in sorted order with an evaluator
that knows which positions are kept (keep/drop); the terms are then added. Beside the total,
the state carries how many read dice show each special face so far, and collapses to "no
match" as soon as a read die shows another face or a count exceeds every special multiset's, so
the state space stays about the size of the totals. No grid of ``sides ** count`` rolls is
ever built.

Example:
    Three D6, keep the two lowest; how often the kept dice are a double 1 (and the total 2):

    >>> from rulesbook.dice.expr import parse_dice
    >>> weights, den = joint_weights(parse_dice("3D6kl2"), "kept", frozenset({(1, 1)}))
    >>> weights[(2, (1, 1))], den          # two or three 1s among three dice: 15 + 1 of 216
    (16, 216)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import icepool
from icepool import Order

from rulesbook.dice.expr import DiceExpr
from rulesbook.dice.terms import DiceTerm, Reads

__all__ = ["Match", "joint_weights"]

type Faces = tuple[int, ...]
type Match = Faces | None
"""The special multiset the read faces equal (sorted), or ``None`` for any other roll."""
type Counts = tuple[int, ...]
"""How many read dice show each special face so far; :data:`_NO` once no special multiset fits."""

_NO: Counts = (-1,)
"""The counts of a roll that can no longer match (a tuple, so icepool can sort outcomes)."""


class _Shape:
    """The special multisets as count vectors over the special faces, and the pruning rule."""

    def __init__(self, specials: frozenset[Faces]) -> None:
        self.faces: tuple[int, ...] = tuple(sorted({f for s in specials for f in s}))
        self.index = {f: i for i, f in enumerate(self.faces)}
        self.targets: dict[tuple[int, ...], Faces] = {}
        for s in specials:
            vector = [0] * len(self.faces)
            for f in s:
                vector[self.index[f]] += 1
            self.targets[tuple(vector)] = tuple(sorted(s))
        self.zero: tuple[int, ...] = (0,) * len(self.faces)

    def add(self, counts: Counts, face: int, times: int) -> Counts:
        """``counts`` after ``times`` more read dice showing ``face``."""
        if counts == _NO or not times:
            return counts
        i = self.index.get(face)
        if i is None:
            return _NO
        grown = (*counts[:i], counts[i] + times, *counts[i + 1 :])
        return grown if self.fits(grown) else _NO

    def merge(self, a: Counts, b: Counts) -> Counts:
        """Two independent groups of read dice together."""
        if a == _NO or b == _NO:
            return _NO
        merged = tuple(x + y for x, y in zip(a, b, strict=True))
        return merged if self.fits(merged) else _NO

    def fits(self, counts: tuple[int, ...]) -> bool:
        """Some special multiset still contains these counts."""
        return any(all(c <= t for c, t in zip(counts, target, strict=True)) for target in self.targets)

    def match(self, counts: Counts) -> Match:
        """The special multiset the final counts equal, if any."""
        return None if counts == _NO else self.targets.get(counts)


type Table = dict[tuple[int, Counts], int]
"""(total, counts) -> integer weight, over a denominator kept beside it."""


def joint_weights(
    expr: DiceExpr, reads: Reads, specials: frozenset[Faces]
) -> tuple[Mapping[tuple[int, Match], int], int]:
    """``{(total, match): weight}`` (read-only) over one denominator, where ``match`` is the special multiset
    (sorted) the read dice show, or ``None``.

    Args:
        expr: the dice rolled (any expression with at least one die).
        reads: which dice the natural faces are read from (``kept`` or ``rolled``).
        specials: the natural rolls that matter, each a tuple of faces (order is ignored).

    Example:
        >>> from rulesbook.dice.expr import parse_dice
        >>> table, den = joint_weights(parse_dice("2D6"), "kept", frozenset({(1, 1), (6, 6)}))
        >>> table[(2, (1, 1))], table[(12, (6, 6))], table[(7, None)], den
        (1, 1, 6, 36)
    """
    return _joint(expr, reads, frozenset(tuple(sorted(s)) for s in specials))


@lru_cache(maxsize=512)
def _joint(
    expr: DiceExpr, reads: Reads, specials: frozenset[Faces]
) -> tuple[Mapping[tuple[int, Match], int], int]:
    shape = _Shape(specials)
    table: Table = {(expr.modifier, shape.zero): 1}
    den = 1
    for term in expr.dice_terms:
        part, part_den = _term_table(term, reads, shape)
        table = _add(table, part, shape)
        den *= part_den
    out: dict[tuple[int, Match], int] = {}
    for (total, counts), w in table.items():
        key = (total, shape.match(counts))
        out[key] = out.get(key, 0) + w
    return MappingProxyType(out), den  # cached: nobody may change it


def _add(a: Table, b: Table, shape: _Shape) -> Table:
    out: Table = {}
    for (ta, ca), wa in a.items():
        for (tb, cb), wb in b.items():
            key = (ta + tb, shape.merge(ca, cb))
            out[key] = out.get(key, 0) + wa * wb
    return out


def _term_table(term: DiceTerm, reads: Reads, shape: _Shape) -> tuple[Table, int]:
    """One term's (signed total, counts) weights over its denominator."""
    one = term.one_die()
    if not term.keep:
        per_die: Table = {}
        for value, w in one.items():
            key = (value, shape.add(shape.zero, term.face(value), 1))
            per_die[key] = per_die.get(key, 0) + w
        table: Table = {(0, shape.zero): 1}
        for _ in range(term.count):
            table = _add(table, per_die, shape)
        den = one.denominator() ** term.count
    else:
        evaluator = _KeptAndRead(term, reads == "rolled", shape)
        die = evaluator.evaluate(one.pool(term.count))
        table = dict(die.items())
        den = die.denominator()
    if term.negative:
        table = {(-t, c): w for (t, c), w in table.items()}
    return table, den


class _KeptAndRead(icepool.MultisetEvaluator):  # type: ignore[misc]  # icepool ships no type hints here
    """Over a pool of one term's dice in ascending order: the sum of the kept positions, and
    the counts of special faces among the read dice (the kept ones, or all with ``read_all``)."""

    def __init__(self, term: DiceTerm, read_all: bool, shape: _Shape) -> None:
        self.term, self.read_all, self.shape = term, read_all, shape
        self.start, self.stop = term.kept_positions

    def initial_state(self, order: Order, outcomes: Sequence[int], size: int) -> Hashable:
        if order != Order.Ascending:
            raise icepool.UnsupportedOrder()
        return (0, 0, self.shape.zero)

    def next_state(self, state: tuple[int, int, Counts], order: Order, outcome: int, count: int) -> Hashable:
        if not count:
            return state
        seen, total, counts = state
        kept = max(0, min(seen + count, self.stop) - max(seen, self.start))
        read = count if self.read_all else kept
        grown: Hashable = (
            seen + count,
            total + outcome * kept,
            self.shape.add(counts, self.term.face(outcome), read),
        )
        return grown

    def final_outcome(self, final_state: Any, order: Order, outcomes: Any, size: int) -> Any:
        return (final_state[1], final_state[2])

    @property
    def next_state_key(self) -> Hashable:
        return (_KeptAndRead, self.term, self.read_all, self.shape.faces, tuple(self.shape.targets))
