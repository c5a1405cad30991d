"""Dice expressions: the one grammar every rule system, variant and input speaks.

:func:`parse_dice` reads a dice expression into an immutable :class:`DiceExpr` with a small
hand-written scanner (never ``eval``). The grammar, in words:

* an expression is one or more *terms* joined by ``+`` or ``-``; the first has no sign;
* a term is a whole number (``3``) or dice: ``[N]D<sides>`` (``D6``, ``2D6``; ``d`` or ``D``),
  optionally followed by, in any order and each at most once,

  - ``r<k>``: every die showing ``k`` or less is re-rolled once (the second roll stands);
  - ``!``: every die showing its highest face adds another die to its value, which may explode
    again, up to :data:`EXPLODE_DEPTH` extra dice per die;
  - ``kh<k>`` / ``kl<k>``: keep the ``k`` highest / lowest dice of the term;
    ``dh<k>`` / ``dl<k>``: drop the ``k`` highest / lowest;

* spaces are allowed between the parts; case does not matter.

Each die of a term is rolled (re-rolled once if low), then exploded, then the term keeps or
drops among its dice. The dice are those of :data:`ALLOWED_SIDES`; one expression rolls at most
:data:`MAX_DICE` dice (extra dice from explosions not counted). :meth:`DiceExpr.cost` predicts the
work of its exact distribution, and :meth:`DiceExpr.check_cost` refuses, in one line with the
estimate, an expression beyond :data:`DICE_WORK_LIMIT` before any work starts.

Example:
    >>> expr = parse_dice("3d6 kl2")
    >>> str(expr), expr.minimum, expr.maximum
    ('3D6kl2', 2, 12)
    >>> expr.distribution().p(2)          # both kept dice show 1: at least two 1s of three
    Fraction(2, 27)
    >>> str(parse_dice("2D6 + D3 - 1")), parse_dice("2D6+D3-1").mean()
    ('2D6+D3-1', Fraction(8, 1))
    >>> parse_dice("2D7")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: dice: the dice are D3, D4, D6, D8, D10, D12 and D20, got '2D7'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType

import icepool

from rulesbook.dice.terms import ALLOWED_SIDES, MAX_DICE, DiceTerm, Reads
from rulesbook.errors import CostError, InputError, quote
from rulesbook.results import Distribution

__all__ = [
    "COMMON_DICE",
    "D3",
    "D6",
    "DICE_HELP",
    "DICE_WORK_LIMIT",
    "TWO_D6",
    "DiceExpr",
    "constant",
    "parse_dice",
    "sum_work",
    "too_much_dice_work",
]

DICE_WORK_LIMIT = 3e6
"""Most predicted work (:meth:`DiceExpr.cost`, in steps of the dice engines: at most about 0.26 µs
each near the bound on the shared 2-core machine over a sampled spread of expressions,
``bench/dice_cost.py``) an expression may need: its distribution and its dice read face by face
for a roll test, together about a second at most (up to 1.6 s seen on a very busy machine).
Beyond it the expression is refused before any work starts."""

DICE_HELP = (
    "a dice expression such as 3, D6+3, 2D6+D3-1, 3D6kh2, 4D6dl1, 2D6r1 or D6! "
    "(dice D3, D4, D6, D8, D10, D12, D20)"
)
"""The grammar in one line: what every refused dice expression is told."""

_SIDES_WORDS = "D3, D4, D6, D8, D10, D12 and D20"


@dataclass(frozen=True, slots=True, repr=False)
class DiceExpr:
    """An immutable dice expression: a sum of dice terms and a constant ``modifier``.

    The everyday form ``count``D``sides`` + ``modifier`` (``2D6``, ``D6+3``, a constant ``3``
    with ``count == 0``) has no ``terms``; any other (keep/drop, re-roll, explosion, several
    dice terms, a subtracted term) lists its :class:`DiceTerm` s in ``terms``, and then
    ``count`` is the number of dice rolled and ``sides`` the largest die. Build one with
    :func:`parse_dice` or :meth:`of` (which picks the everyday form whenever it fits, so equal
    expressions are equal values); ``str()`` gives the canonical spelling, which parses back to
    an equal value.

    Example:
        >>> expr = parse_dice("D6+3")
        >>> expr.count, expr.sides, expr.modifier, str(expr)
        (1, 6, 3, 'D6+3')
        >>> expr.die().mean()
        Fraction(13, 2)
        >>> parse_dice("3D6dl1"), str(parse_dice("1 + d6 - D3"))
        (parse_dice('3D6dl1'), 'D6-D3+1')
    """

    count: int
    sides: int
    modifier: int = 0
    terms: tuple[DiceTerm, ...] = ()

    def __post_init__(self) -> None:
        if not self.terms:
            if self.count < 0 or self.count > MAX_DICE:
                raise ValueError(f"dice count must be 0..{MAX_DICE}")
            if self.count and self.sides not in ALLOWED_SIDES:
                raise ValueError(f"dice sides must be one of {ALLOWED_SIDES}")
            return
        if len(self.terms) == 1 and self.terms[0].is_plain and not self.terms[0].negative:
            raise ValueError("one plain term is written DiceExpr(count, sides, modifier)")
        if self.count != sum(t.count for t in self.terms) or self.sides != max(t.sides for t in self.terms):
            raise ValueError("count is the number of dice rolled and sides the largest die")
        if self.count > MAX_DICE:
            raise ValueError(f"an expression rolls at most {MAX_DICE} dice")

    @classmethod
    def of(cls, terms: Sequence[DiceTerm], modifier: int = 0) -> DiceExpr:
        """The expression ``terms + modifier`` in its canonical form.

        >>> DiceExpr.of([DiceTerm(2, 6)], 1) == DiceExpr(2, 6, 1)
        True
        >>> DiceExpr.of([]) == constant(0)
        True
        """
        terms = tuple(terms)
        if not terms:
            return constant(modifier)
        if len(terms) == 1 and terms[0].is_plain and not terms[0].negative:
            return cls(terms[0].count, terms[0].sides, modifier)
        return cls(sum(t.count for t in terms), max(t.sides for t in terms), modifier, terms)

    def __repr__(self) -> str:
        if self.terms:
            return f"parse_dice({str(self)!r})"
        return f"DiceExpr(count={self.count}, sides={self.sides}, modifier={self.modifier})"

    def __str__(self) -> str:
        if not self.terms:
            if self.count == 0:
                return str(self.modifier)
            head = f"{'' if self.count == 1 else self.count}D{self.sides}"
            return head + (f"{self.modifier:+d}" if self.modifier else "")
        text = "".join(("-" if t.negative else "+") + str(t) for t in self.terms)
        if self.terms[0].negative:  # no sign before the first term: the constant leads (0 too)
            return (str(self.modifier) if self.modifier >= 0 else f"0{self.modifier}") + text
        return text[1:] + (f"{self.modifier:+d}" if self.modifier else "")

    # -- what it is ---------------------------------------------------------------------------

    @property
    def is_constant(self) -> bool:
        """True for a fixed number such as ``3``."""
        return self.count == 0

    @property
    def is_simple(self) -> bool:
        """The everyday form ``NdS+k`` (or a constant): the fast integer paths apply."""
        return not self.terms

    @property
    def dice_terms(self) -> tuple[DiceTerm, ...]:
        """Every dice term, the everyday form included (a constant has none).

        >>> parse_dice("2D6+1").dice_terms
        (DiceTerm(count=2, sides=6, keep='', keep_n=0, reroll=0, explode=False, negative=False),)
        """
        if self.terms:
            return self.terms
        return _plain_terms(self.count, self.sides)

    @property
    def is_plain(self) -> bool:
        """No re-roll and no explosion: the dice rolled decide the total (keep/drop allowed), so
        every roll can be listed face by face (:meth:`total_of`)."""
        return not any(t.reroll or t.explode for t in self.dice_terms)

    @property
    def minimum(self) -> int:
        """The smallest total the expression can produce."""
        if not self.terms:  # the everyday form, in the engines' inner loops
            return self.count + self.modifier
        return self.modifier + sum(t.span[0] for t in self.terms)

    @property
    def maximum(self) -> int:
        """The largest total the expression can produce."""
        if not self.terms:
            return self.count * self.sides + self.modifier
        return self.modifier + sum(t.span[1] for t in self.terms)

    def read_sides(self, reads: Reads = "kept") -> tuple[int, ...]:
        """The sides of every die a natural-face rule reads (see :data:`Reads`), sorted.

        >>> parse_dice("3D6kl2+D3").read_sides(), parse_dice("3D6kl2+D3").read_sides("rolled")
        ((3, 6, 6), (3, 6, 6, 6))
        """
        if not self.terms:
            return (self.sides,) * self.count
        return tuple(
            sorted(s for t in self.terms for s in [t.sides] * (t.kept if reads == "kept" else t.count))
        )

    def read_count(self, reads: Reads = "kept") -> int:
        """How many dice a natural-face rule reads (``double(1, n)`` needs this ``n``).

        >>> parse_dice("3D6kl2").read_count(), parse_dice("3D6kl2").read_count("rolled")
        (2, 3)
        """
        return self.count if not self.terms else len(self.read_sides(reads))

    def every_die(self, face: int, reads: Reads = "kept") -> frozenset[tuple[int, ...]]:
        """The natural roll on which every read die shows ``face`` (a double 1 for 2D6).

        >>> sorted(parse_dice("3D6kl2").every_die(1)), sorted(parse_dice("3D6kl2").every_die(1, "rolled"))
        ([(1, 1)], [(1, 1, 1)])
        """
        return frozenset({(face,) * self.read_count(reads)})

    def every_die_highest(self, reads: Reads = "kept") -> frozenset[tuple[int, ...]]:
        """The natural roll on which every read die shows its highest face (a double 6).

        >>> sorted(parse_dice("D3+D6").every_die_highest())
        [(3, 6)]
        """
        return frozenset({self.read_sides(reads)})

    def kept_dice(self) -> DiceExpr:
        """The expression with each term rolling only as many dice as it keeps, and keeping them
        all (their re-roll and explosion stay): what rolling the kept dice again rolls.

        >>> str(parse_dice("3D6kh2+D3").kept_dice()), str(parse_dice("4D6r1dl1").kept_dice())
        ('2D6+D3', '3D6r1')
        """
        return DiceExpr.of(
            [
                DiceTerm(t.kept, t.sides, reroll=t.reroll, explode=t.explode, negative=t.negative)
                for t in self.dice_terms
            ],
            self.modifier,
        )

    # -- its distribution -----------------------------------------------------------------------

    def die(self) -> icepool.Die[int]:
        """The total as an icepool die (cached; dice are immutable)."""
        if not self.terms:
            return _die_for(self.count, self.sides, self.modifier)
        return _general_die(self)

    def single(self) -> icepool.Die[int]:
        """One of the dice that make up the expression (every die must be alike).

        >>> parse_dice("2D6r1").single().probability(1)
        Fraction(1, 36)
        """
        kinds = {(t.sides, t.reroll, t.explode) for t in self.dice_terms}
        if len(kinds) != 1:
            raise ValueError("a constant has no dice" if not kinds else "the dice are not all alike")
        return self.dice_terms[0].one_die()

    def distribution(self) -> Distribution[int]:
        """The exact distribution of the total (the everyday form counted directly in integers:
        the same as the icepool die's, without building one).

        >>> parse_dice("2D3+1").distribution().pmf() == Distribution.from_die(parse_dice("2D3+1").die()).pmf()
        True
        """
        if not self.terms:
            return _distribution_for(self.count, self.sides, self.modifier)
        return _general_distribution(self)

    def weights(self) -> tuple[tuple[int, ...], int]:
        """Integer weights of the totals ``minimum .. maximum`` over one denominator (a total
        that cannot happen, such as 6 on ``D6!``, weighs 0).

        >>> parse_dice("2D3").weights()
        ((1, 2, 3, 2, 1), 9)
        >>> parse_dice("D3!").weights()      # 1 and 2: 1/3 each; 3 then 1 or 2: 1/9 each; ...
        ((27, 27, 0, 9, 9, 0, 3, 3, 0, 1, 1, 1), 81)
        """
        if not self.terms:
            return _weights_for(self.count, self.sides)
        return _general_weights(self)

    def mean(self) -> Fraction:
        """The expected total.

        >>> parse_dice("4D6dl1").mean()
        Fraction(15869, 1296)
        """
        return Fraction(self.die().mean())

    def can_total(self, value: int) -> bool:
        """Whether the expression can produce the total ``value``.

        >>> parse_dice("D6!").can_total(6), parse_dice("D6!").can_total(7)
        (False, True)
        """
        if not self.minimum <= value <= self.maximum:
            return False
        return self.is_simple or self.die().quantity(value) > 0

    # -- face by face ---------------------------------------------------------------------------

    def rolled_sides(self) -> tuple[int, ...]:
        """The sides of every die rolled, term by term (the shape of a face-by-face roll)."""
        if not self.terms:
            return (self.sides,) * self.count
        return tuple(s for t in self.terms for s in [t.sides] * t.count)

    def total_of(self, faces: Sequence[int]) -> int:
        """The total of one roll given the face of every die rolled, term by term (only for
        :attr:`is_plain` expressions: a re-roll or an explosion is not decided by the faces).

        >>> parse_dice("3D6kl2+1").total_of((6, 2, 3))
        6
        """
        total, at = self.modifier, 0
        for term in self._plain_terms():
            start, stop = term.kept_positions
            part = sum(sorted(faces[at : at + term.count])[start:stop])
            total += -part if term.negative else part
            at += term.count
        return total

    def read_faces(self, faces: Sequence[int], reads: Reads = "kept") -> tuple[int, ...]:
        """The faces a natural-face rule reads in one roll given the face of every die rolled
        (sorted: a natural roll is a multiset).

        >>> parse_dice("3D6kl2").read_faces((6, 1, 1)), parse_dice("3D6kl2").read_faces((6, 1, 1), "rolled")
        ((1, 1), (1, 1, 6))
        """
        read: list[int] = []
        at = 0
        for term in self._plain_terms():
            start, stop = term.kept_positions if reads == "kept" else (0, term.count)
            read.extend(sorted(faces[at : at + term.count])[start:stop])
            at += term.count
        return tuple(sorted(read))

    def _plain_terms(self) -> tuple[DiceTerm, ...]:
        if not self.is_plain:
            raise ValueError(f"{self}: re-rolled or exploding dice are not decided by their first faces")
        return self.dice_terms

    # -- the work bound -------------------------------------------------------------------------

    def cost(self, *, faces: bool = True) -> float:
        """Predicted work of this expression's exact distribution and (unless ``faces`` is
        false) of reading its dice face by face in a roll test, in steps of the dice engines
        (see :data:`DICE_WORK_LIMIT`).

        >>> parse_dice("2D6").cost() < parse_dice("10D6").cost() < parse_dice("20D20!kh10").cost()
        True
        >>> parse_dice("20D6!").cost() > DICE_WORK_LIMIT > parse_dice("20D6!").cost(faces=False)
        True
        """
        distribution, read = _cost(self)
        return distribution + read if faces else distribution

    def check_cost(self, field: str = "dice") -> DiceExpr:
        """Return the expression, or refuse it in one line with the estimate when its predicted
        work exceeds :data:`DICE_WORK_LIMIT`.

        >>> parse_dice("20D6").check_cost("charge_dice")
        DiceExpr(count=20, sides=6, modifier=0)
        >>> parse_dice("20D20!kh10").check_cost("charge_dice")
        Traceback (most recent call last):
        ...
        rulesbook.errors.CostError: charge_dice: 20D20!kh10 would need about 61.7 times the work the calculators allow (about 1 s); use fewer dice, smaller dice, or no explosion or keep/drop
        """
        work = self.cost()
        if work > DICE_WORK_LIMIT:
            raise CostError(
                field, too_much_dice_work(str(self), work / DICE_WORK_LIMIT), times=work / DICE_WORK_LIMIT
            )
        return self


def too_much_dice_work(what: str, times: float) -> str:
    """The one message of a dice expression or roll beyond the work bound.

    >>> too_much_dice_work("20D20!", 2.0)
    '20D20! would need about 2.0 times the work the calculators allow (about 1 s); use fewer dice, smaller dice, or no explosion or keep/drop'
    """
    return (
        f"{what} would need about {times:.1f} times the work the calculators allow (about 1 s); "
        "use fewer dice, smaller dice, or no explosion or keep/drop"
    )


def sum_work(exprs: Sequence[DiceExpr]) -> tuple[float, int]:
    """Predicted work of adding the totals of independent expressions one after the other (each
    addition: the running totals × the next one's, as :data:`DICE_WORK_LIMIT` counts), with each
    expression's own :meth:`~DiceExpr.cost`, and how many totals the sum spans.

    >>> sum_work([parse_dice("D3")] * 10)[1], sum_work([parse_dice("20D20")] * 10)[1]
    (21, 3801)
    """
    work, reach = 0.0, 1
    for expr in exprs:
        size = expr.maximum - expr.minimum + 1
        work += expr.cost(faces=False) + (reach * size if reach > 1 else 0)
        reach += size - 1
    return work, reach


KEEP_WORK = 8.0
"""A kept or dropped die costs this many times a summed one (icepool sorts the pool)."""

FACE_STATES = 3.0
"""Reading faces keeps about this many states per total (no natural roll yet, a few partial
ones), so adding two terms' tables costs its square."""


@lru_cache(maxsize=1024)
def _cost(expr: DiceExpr) -> tuple[float, float]:
    """Two computations, both predicted: the distribution, and the joint one with the faces
    read (:mod:`rulesbook.dice.joint`).

    Distribution, per term: dice × values a die shows × the totals the term reaches (×
    :data:`KEEP_WORK` when it keeps or drops), then each term added to the running total (its
    totals × the running totals'). Faces: the same per term (× :data:`FACE_STATES`, × the kinds
    of dice, whose highest faces are read too; an exploding die's partial natural rolls spread
    over many totals, × a quarter of its dice more), and each addition × the states per total
    of both sides."""
    distribution, read, reach, states = 0.0, 0.0, 1, 1.0
    kinds = len({t.sides for t in expr.dice_terms})  # each die's highest face is read too
    for term in expr.dice_terms:
        low, high = term.span
        size = high - low + 1
        base = term.count * term.die_outcomes * size * (KEEP_WORK if term.keep else 1.0)
        spread = FACE_STATES * kinds * (1 + term.count / 4 if term.explode else 1)
        distribution += base
        read += base * spread
        if reach > 1:
            distribution += reach * size
            read += reach * size * states * spread
        reach += size - 1
        states = max(states, spread)
    return distribution, read


@lru_cache(maxsize=256)
def _plain_terms(count: int, sides: int) -> tuple[DiceTerm, ...]:
    return (DiceTerm(count, sides),) if count else ()


@lru_cache(maxsize=1024)
def _weights_for(count: int, sides: int) -> tuple[tuple[int, ...], int]:
    weights = [1]
    for _ in range(count):
        nxt = [0] * (len(weights) + sides - 1)
        for i, w in enumerate(weights):
            for j in range(i, i + sides):
                nxt[j] += w
        weights = nxt
    return tuple(weights), sides**count


@lru_cache(maxsize=1024)
def _distribution_for(count: int, sides: int, modifier: int) -> Distribution[int]:
    weights, den = _weights_for(count, sides)
    low = count + modifier
    return Distribution.from_weights(((low + i, w) for i, w in enumerate(weights)), den)


@lru_cache(maxsize=1024)
def _die_for(count: int, sides: int, modifier: int) -> icepool.Die[int]:
    if count == 0:
        return icepool.Die([modifier])
    return (count @ icepool.d(sides)) + modifier


@lru_cache(maxsize=512)
def _general_die(expr: DiceExpr) -> icepool.Die[int]:
    total: icepool.Die[int] = icepool.Die([expr.modifier])
    for term in expr.dice_terms:
        total = total + term.die()
    return total


@lru_cache(maxsize=512)
def _general_distribution(expr: DiceExpr) -> Distribution[int]:
    return Distribution.from_die(expr.die())


@lru_cache(maxsize=512)
def _general_weights(expr: DiceExpr) -> tuple[tuple[int, ...], int]:
    die = expr.die()
    return tuple(die.quantity(v) for v in range(expr.minimum, expr.maximum + 1)), die.denominator()


# -- the parser ---------------------------------------------------------------------------------

_MAX_TEXT = 100
"""The longest dice expression read (longer text is refused before scanning)."""

_TERM = re.compile(
    r"""\s*(?:(?P<sign>[+-])\s*)?(?:
        (?P<count>[0-9]{1,3})?\s*[dD]\s*(?P<sides>[0-9]{1,3})
        (?P<options>(?:\s*(?:[rR]\s*[0-9]{1,3}|!|[kKdD]\s*[hHlL]\s*[0-9]{1,3}))*)
        |(?P<const>[0-9]{1,3})
    )""",
    re.VERBOSE,
)
_OPTION = re.compile(
    r"\s*(?:(?P<reroll>[rR])\s*(?P<r>[0-9]{1,3})|(?P<explode>!)|(?P<keep>[kKdD]\s*[hHlL])\s*(?P<k>[0-9]{1,3}))"
)


def parse_dice(text: str, *, field_name: str = "dice") -> DiceExpr:
    """Parse a dice expression; bad input raises :class:`InputError` naming ``field_name``.

    The grammar is this module's (see its docstring): terms such as ``3``, ``D6``, ``2D6``
    joined by ``+`` or ``-``; a dice term may re-roll low dice once (``r1``), explode (``!``),
    keep or drop (``kh2``, ``kl2``, ``dh1``, ``dl1``). Case and spaces do not matter.

    Example:
        >>> parse_dice("2d6 + 1")
        DiceExpr(count=2, sides=6, modifier=1)
        >>> parse_dice("4d6 dl1"), parse_dice("2D6r2"), parse_dice("D6!")
        (parse_dice('4D6dl1'), parse_dice('2D6r2'), parse_dice('D6!'))
        >>> parse_dice("2D", field_name="fall_back_dice")
        Traceback (most recent call last):
        ...
        rulesbook.errors.InputError: fall_back_dice: expected a dice expression such as 3, D6+3, 2D6+D3-1, 3D6kh2, 4D6dl1, 2D6r1 or D6! (dice D3, D4, D6, D8, D10, D12, D20), got '2D'
        >>> parse_dice("3D6kh3")
        Traceback (most recent call last):
        ...
        rulesbook.errors.InputError: dice: keep or drop 1 to 2 of 3 dice, got '3D6kh3'
    """
    if type(text) is str and len(text) <= 3 and text.isascii() and text.isdigit():
        return constant(int(text))  # a plain constant: the commonest text, read at once
    if not isinstance(text, str) or len(text) > _MAX_TEXT:
        raise InputError(field_name, f"expected {DICE_HELP}, got {quote(text)}")
    terms: list[DiceTerm] = []
    modifier, at = 0, 0
    end = len(text.rstrip())
    while at < end:
        match = _TERM.match(text, at)
        first = at == 0
        if match is None or match.end() == at or (match["sign"] is None) != first:
            raise InputError(field_name, f"expected {DICE_HELP}, got {quote(text)}")
        at = match.end()
        negative = match["sign"] == "-"
        if match["const"] is not None:
            modifier += -int(match["const"]) if negative else int(match["const"])
            continue
        terms.append(_term(match, negative, text, field_name))
    if not terms and at == 0:
        raise InputError(field_name, f"expected {DICE_HELP}, got {quote(text)}")
    if sum(t.count for t in terms) > MAX_DICE:
        raise InputError(field_name, f"at most {MAX_DICE} dice in all, got {quote(text)}")
    return DiceExpr.of(terms, modifier)


def _term(match: re.Match[str], negative: bool, text: str, field_name: str) -> DiceTerm:
    count = int(match["count"]) if match["count"] else 1
    sides = int(match["sides"])
    if not 1 <= count <= MAX_DICE:
        raise InputError(field_name, f"the number of dice must be 1..{MAX_DICE}, got {quote(text)}")
    if sides not in ALLOWED_SIDES:
        raise InputError(field_name, f"the dice are {_SIDES_WORDS}, got {quote(text)}")
    keep, keep_n, reroll, explode, seen = "", 0, 0, False, set()
    for option in _OPTION.finditer(match["options"]):
        kind = "reroll" if option["reroll"] else "explode" if option["explode"] else "keep"
        if kind in seen:
            raise InputError(
                field_name, f"each of r, ! and keep/drop at most once per term, got {quote(text)}"
            )
        seen.add(kind)
        if option["reroll"]:
            reroll = int(option["r"])
            if not 1 <= reroll < sides:
                raise InputError(
                    field_name, f"re-roll 1 to {sides - 1} or less on a D{sides}, got {quote(text)}"
                )
        elif option["explode"]:
            explode = True
        else:
            keep, keep_n = "".join(option["keep"].split()).lower(), int(option["k"])
            if not 1 <= keep_n < count:
                raise InputError(
                    field_name,
                    f"keep or drop 1 to {count - 1} of {count} dice, got {quote(text)}"
                    if count > 1
                    else f"keep or drop needs two dice or more, got {quote(text)}",
                )
    return DiceTerm(count, sides, keep, keep_n, reroll, explode, negative)  # type: ignore[arg-type]


def constant(value: int) -> DiceExpr:
    """A fixed number as a dice expression (no dice rolled), equal to ``parse_dice(str(value))``.

    >>> str(constant(3)), constant(3).is_constant, constant(3) == parse_dice("3")
    ('3', True, True)
    >>> constant(2).distribution().pmf()
    {2: Fraction(1, 1)}
    """
    return DiceExpr(0, 6, value)


def _common_dice() -> Mapping[str, DiceExpr]:
    table: dict[str, DiceExpr] = {str(value): constant(value) for value in range(101)}
    for count in range(1, 7):
        for sides in (3, 6):
            for modifier in range(-6, 13):
                expr = DiceExpr(count, sides, modifier)
                text = str(expr)
                table[text] = table[text.replace("D", "d")] = expr
    return MappingProxyType(table)


COMMON_DICE = _common_dice()
"""The usual dice expressions parsed ahead, ``{text: parse_dice(text)}``: the constants 0 to 100
and up to six D3 or D6 with a modifier from -6 to +12, spelt as ``str(expr)`` writes them (with
``D`` or ``d``). A declared dice input looks a text up here before parsing it
(:meth:`rulesbook.inputs.Input.texts`); every entry equals what :func:`parse_dice` gives.

>>> COMMON_DICE["2D6+1"] == parse_dice("2D6+1"), COMMON_DICE["d3"] == parse_dice("d3")
(True, True)
"""

D3 = DiceExpr(1, 3)
D6 = DiceExpr(1, 6)
TWO_D6 = DiceExpr(2, 6)
