"""Exact result values: distributions, tables and the result of a calculator.

Every probability in rulesbook is a :class:`fractions.Fraction`; floats are derived from it
for display and JSON. Values here are immutable.

Example:
    >>> from fractions import Fraction
    >>> d = Distribution.from_pairs([(2, Fraction(1, 4)), (3, Fraction(3, 4))])
    >>> d.mean(), d.p_at_least(3), fraction_str(d.p_at_most(2))
    (Fraction(11, 4), Fraction(3, 4), '1/4')
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self, cast

if TYPE_CHECKING:  # pragma: no cover - typing only; pandas/matplotlib load lazily
    import icepool
    import pandas
    from matplotlib.axes import Axes

__all__ = [
    "DISTRIBUTION_COLUMNS",
    "CalcResult",
    "Column",
    "DeferredResult",
    "Distribution",
    "Table",
    "fold_both_lose",
    "fraction_str",
    "is_exact_list",
    "markov_step",
    "plain_outcome",
    "probability_values",
    "publish_values",
    "to_jsonable",
]


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


def fraction_str(value: Fraction | int) -> str:
    """An exact probability as text: ``"7/12"``, ``"0"`` or ``"1"``.

    >>> fraction_str(Fraction(14, 24)), fraction_str(Fraction(1))
    ('7/12', '1')
    """
    num, den = (
        (value.numerator, value.denominator)
        if type(value) is Fraction
        else Fraction(value).as_integer_ratio()
    )
    if den.bit_length() < 10_000 and num.bit_length() < 10_000:  # ~3,000 digits: str() is allowed
        return str(num) if den == 1 else f"{num}/{den}"
    return _int_str(num) if den == 1 else f"{_int_str(num)}/{_int_str(den)}"


def _int_str(n: int) -> str:
    """``str(n)`` for integers of any size (Python refuses over 4300 digits by default)."""
    if n.bit_length() < 10_000:
        return str(n)
    limit = sys.get_int_max_str_digits()
    if limit == 0 or n.bit_length() < 3.3 * limit:
        return str(n)
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(limit)


@dataclass(frozen=True, slots=True)
class Distribution[T: _Ordered]:
    """An exact, immutable probability distribution over ordered outcomes.

    Outcomes are kept sorted; probabilities are Fractions summing to exactly 1.

    Example:
        >>> from rulesbook.dice import parse_dice
        >>> two_d6 = parse_dice("2D6").distribution()
        >>> two_d6.p(7), two_d6.p_at_most(7), two_d6.mean()
        (Fraction(1, 6), Fraction(7, 12), Fraction(7, 1))
    """

    items: tuple[tuple[T, Fraction], ...]

    def __post_init__(self) -> None:
        total = sum((p for _, p in self.items), Fraction(0))
        if self.items and total != 1:
            raise ValueError(f"probabilities sum to {total}, not 1")
        if any(p < 0 for _, p in self.items):
            raise ValueError("negative probability")

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[T, Fraction]]) -> Self:
        """Merge (outcome, probability) pairs; zero probabilities are dropped."""
        acc: dict[T, Fraction] = {}
        for outcome, p in pairs:
            acc[outcome] = acc.get(outcome, Fraction(0)) + Fraction(p)
        return cls(tuple(sorted(((o, p) for o, p in acc.items() if p), key=lambda i: i[0])))

    @classmethod
    def from_weights(cls, weights: Iterable[tuple[T, int]], denominator: int) -> Self:
        """From integer weights over one common ``denominator`` (outcomes distinct and sorted,
        weights positive and summing to ``denominator``: the caller's promise, not re-checked —
        the fast constructor of the exact engines).

        >>> Distribution.from_weights([(0, 1), (1, 3)], 4).pmf()
        {0: Fraction(1, 4), 1: Fraction(3, 4)}
        """
        out = object.__new__(cls)
        object.__setattr__(out, "items", tuple((o, Fraction(w, denominator)) for o, w in weights))
        return out

    @classmethod
    def from_die(cls, die: icepool.Die[Any]) -> Self:
        """Convert an icepool die (integer weights) to exact probabilities."""
        denom = die.denominator()
        return cls.from_pairs((o, Fraction(q, denom)) for o, q in die.items())

    @classmethod
    def certain(cls, outcome: T) -> Self:
        """The distribution that always gives ``outcome``."""
        return cls(((outcome, Fraction(1)),))

    # -- queries -------------------------------------------------------------------------
    def outcomes(self) -> tuple[T, ...]:
        """The possible outcomes, sorted."""
        return tuple(o for o, _ in self.items)

    def pmf(self) -> dict[T, Fraction]:
        """Outcome -> probability."""
        return dict(self.items)

    def p(self, outcome: T) -> Fraction:
        """P(X == outcome)."""
        return self.pmf().get(outcome, Fraction(0))

    def p_at_least(self, k: T) -> Fraction:
        """P(X >= k)."""
        return sum((p for o, p in self.items if not o < k), Fraction(0))

    def p_at_most(self, k: T) -> Fraction:
        """P(X <= k)."""
        return sum((p for o, p in self.items if not k < o), Fraction(0))

    def mean(self) -> Fraction:
        """The exact expected value (numeric outcomes only)."""
        return sum((Fraction(o) * p for o, p in self.items), Fraction(0))  # type: ignore[call-overload]

    def map[U: _Ordered](self, func: Callable[[T], U]) -> Distribution[U]:
        """Apply ``func`` to every outcome, merging equal results."""
        return Distribution.from_pairs((func(o), p) for o, p in self.items)

    def markov_step[U: _Ordered](
        self, transition: Callable[[T], Iterable[tuple[U, Fraction]]]
    ) -> Distribution[U]:
        """One step of a Markov chain: from each outcome ``t``, move as ``transition(t)`` says.

        ``transition(t)`` gives (next state, probability) pairs summing to 1 — a
        :class:`Distribution` will do. See :func:`markov_step` for chains whose mass leaks away
        (absorbed states kept apart).

        >>> from rulesbook.dice import D3
        >>> start = Distribution.certain(0)
        >>> walk = start.markov_step(lambda x: D3.distribution().map(lambda d: x + d))
        >>> walk.markov_step(lambda x: D3.distribution().map(lambda d: x + d)).p(6)
        Fraction(1, 9)
        """
        return Distribution.from_pairs(markov_step(self.pmf(), transition).items())

    def __iter__(self) -> Iterator[tuple[T, Fraction]]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    # -- presentation ----------------------------------------------------------------------
    def table(self, outcome_label: str = "outcome") -> Table:
        """The distribution as a :class:`Table` with P(=k), P(>=k) and P(<=k) (the running sums
        in one pass each way: the same exact values as :meth:`p_at_least` and :meth:`p_at_most`).

        >>> Distribution.from_weights([(1, 1), (2, 2), (3, 1)], 4).table().rows[1]
        (2, '1/2', 0.5, 0.75, 0.75)
        """
        at_most, running = [], Fraction(0)
        for _, p in self.items:
            running += p
            at_most.append(running)
        at_least, running = [], Fraction(0)
        for _, p in reversed(self.items):
            running += p
            at_least.append(running)
        at_least.reverse()
        rows = [
            (plain_outcome(o), fraction_str(p), float(p), float(above), float(below))
            for (o, p), above, below in zip(self.items, at_least, at_most, strict=True)
        ]
        return Table(
            name="distribution",
            title="Distribution",
            columns=(outcome_label, "p_exact", "p", "p_at_least", "p_at_most"),
            rows=tuple(rows),
            column_info=DISTRIBUTION_COLUMNS,
        )

    def to_frame(self, outcome_label: str = "outcome") -> pandas.DataFrame:
        """A pandas DataFrame (one row per outcome)."""
        return self.table(outcome_label).to_frame()

    def plot(self, ax: Axes | None = None, *, label: str | None = None, title: str = "") -> Axes:
        """A bar chart of the probabilities (matplotlib)."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3))
        xs = [str(plain_outcome(o)) for o, _ in self.items]
        ax.bar(xs, [float(p) for _, p in self.items], label=label)
        ax.set_ylabel("probability")
        if title:
            ax.set_title(title)
        return ax

    def to_json(self) -> list[dict[str, Any]]:
        """JSON-ready rows."""
        return self.table().to_records()


def markov_step[S, U](
    masses: Mapping[S, Fraction], transition: Callable[[S], Iterable[tuple[U, Fraction]]]
) -> dict[U, Fraction]:
    """One step of a Markov chain over probability masses that need not sum to 1.

    ``masses`` maps each state to the chance of being in it (the still-running part of a chain
    may hold less than 1); ``transition(s)`` gives (next state, probability) pairs. The answer
    maps each next state to its mass, in first-reached order, zero masses left out. A chain with
    an absorbing outcome can send it to a marker state and pop it from the answer.

    >>> left = {3: Fraction(1, 2), 1: Fraction(1, 4)}          # inches left, 1/4 already gone
    >>> roll = [(1, Fraction(1, 2)), (2, Fraction(1, 2))]       # the unit moves 1 or 2
    >>> nxt = markov_step(left, lambda d: [(d - r if r < d else "edge", q) for r, q in roll])
    >>> nxt.pop("edge"), nxt
    (Fraction(1, 4), {2: Fraction(1, 4), 1: Fraction(1, 4)})
    """
    # Products are summed per denominator in integers and divided once per next state: the same
    # exact answer as adding Fractions one by one, without a gcd at every addition.
    terms: dict[U, dict[int, int]] = {}
    for state, p in masses.items():
        pn, pd = p.numerator, p.denominator
        for nxt, q in transition(state):
            den = pd * q.denominator
            bucket = terms.get(nxt)
            if bucket is None:
                terms[nxt] = bucket = {}
            bucket[den] = bucket.get(den, 0) + pn * q.numerator
    out: dict[U, Fraction] = {}
    for nxt, bucket in terms.items():
        if len(bucket) == 1:
            ((den, num),) = bucket.items()
            value = Fraction(num, den)
        else:
            common = math.lcm(*bucket)
            value = Fraction(sum(num * (common // den) for den, num in bucket.items()), common)
        if value:
            out[nxt] = value
    return out


def fold_both_lose[V: str](verdict: V, draw: str = "draw", both_lose: str = "both-lose") -> V:
    """Count a "both lose" verdict as a draw (the odds report one draw figure either way).

    >>> fold_both_lose("both-lose"), fold_both_lose("draw"), fold_both_lose("a")
    ('draw', 'draw', 'a')
    """
    return cast(V, draw) if verdict == both_lose else verdict


def plain_outcome(value: object) -> object:
    """An outcome as data: an enum by its lower-case name, everything else as itself.

    >>> import enum
    >>> plain_outcome(enum.Enum("Side", "ATTACKER").ATTACKER), plain_outcome(3)
    ('attacker', 3)
    """
    name = getattr(value, "name", None)
    return name.lower() if isinstance(name, str) and hasattr(value, "value") else value


@dataclass(frozen=True, slots=True)
class Column:
    """The human side of one table column: its label and whether its numbers are probabilities.

    A table keeps its column *keys* (the JSON contract: ``p_regroup_now``); what a reader sees
    in the header is the declared ``label`` (``Regroups in this phase``). A ``probability``
    column shows its numbers as percentages, with the exact fraction of the column
    ``KEY_exact`` beside each one when the table has that column.

    >>> Column("p_regroup_now", "Regroups in this phase", "probability").label
    'Regroups in this phase'
    """

    key: str
    label: str
    kind: Literal["value", "probability"] = "value"


DISTRIBUTION_COLUMNS = (
    Column("p", "P(exactly)", "probability"),
    Column("p_exact", "P(exactly), exact"),
    Column("p_at_least", "P(at least)", "probability"),
    Column("p_at_most", "P(at most)", "probability"),
)
"""Labels of the columns every distribution table shares (:meth:`Distribution.table`)."""


@dataclass(frozen=True, slots=True)
class Table:
    """A small immutable table: the common currency of explanations, docs and widgets.

    ``columns`` are the keys (the JSON form, :meth:`to_records`); ``column_info`` gives the
    label and kind readers see (:class:`Column`; a calculator attaches what its output declares).
    On screen a column ``KEY_exact`` is shown beside ``KEY``, not as a column of its own.

    How a table reads (Markdown, HTML, percentages) is :mod:`rulesbook.present.tables`.

    Example:
        >>> t = Table("odds", "Odds", ("ld", "p_exact", "p"), ((7, "7/12", 7 / 12),),
        ...           column_info=(Column("ld", "Leadership"), *DISTRIBUTION_COLUMNS))
        >>> t.label("ld"), t.shown_columns(), t.to_records()
        ('Leadership', [(0, None), (2, 1)], [{'ld': 7, 'p_exact': '7/12', 'p': 0.5833333333333334}])
    """

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str = ""
    column_info: tuple[Column, ...] = field(default=(), repr=False)

    def column(self, key: str) -> Column | None:
        """The declared label and kind of column ``key`` (None when undeclared)."""
        for info in self.column_info:
            if info.key == key:
                return info
        return None

    def label(self, key: str) -> str:
        """What the header of column ``key`` reads: its declared label, else the key itself."""
        info = self.column(key)
        return info.label if info is not None else key

    def labelled(self, columns: Sequence[Column]) -> Table:
        """This table with ``columns`` declared (they take precedence over its own)."""
        keys = {c.key for c in columns}
        info = (*columns, *(c for c in self.column_info if c.key not in keys))
        return Table(self.name, self.title, self.columns, self.rows, self.note, info)

    def shown_columns(self) -> list[tuple[int, int | None]]:
        """(column index, index of its exact column or None) for every column a reader sees."""
        index = {key: i for i, key in enumerate(self.columns)}
        paired = {f"{key}_exact" for key in self.columns if f"{key}_exact" in index}
        return [(i, index.get(f"{key}_exact")) for i, key in enumerate(self.columns) if key not in paired]

    def to_records(self) -> list[dict[str, Any]]:
        """Rows as dictionaries keyed by column (JSON-ready)."""
        return [dict(zip(self.columns, (to_jsonable(v) for v in row), strict=True)) for row in self.rows]

    def to_frame(self) -> pandas.DataFrame:
        """A pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(list(self.rows), columns=list(self.columns))


def to_jsonable(value: object) -> Any:
    """Convert result values to JSON types (Fractions become exact strings)."""
    if isinstance(value, Fraction):
        return fraction_str(value)
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, Table):
        return value.to_records()
    if isinstance(value, Distribution):
        return value.to_json()
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, Sequence):
        return [to_jsonable(v) for v in value]
    plain = plain_outcome(value)
    if plain is not value:
        return plain
    return str(value)


@dataclass(frozen=True, slots=True)
class CalcResult:
    """What a calculator returns: named values, explanation tables and explanation lines.

    ``values`` holds JSON-ready scalars and lists (probabilities as floats plus ``*_exact``
    strings); ``tables`` carry the explanation view; ``explanation`` is Markdown prose.
    """

    values: Mapping[str, Any]
    tables: tuple[Table, ...] = ()
    explanation: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        # Results are cached and shared (e.g. by every session of the server): freeze them.
        frozen = MappingProxyType({k: _freeze(v) for k, v in self.values.items()})
        object.__setattr__(self, "values", frozen)
        object.__setattr__(self, "tables", tuple(self.tables))
        object.__setattr__(self, "explanation", tuple(self.explanation))
        object.__setattr__(self, "warnings", tuple(self.warnings))

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles as a plain :class:`CalcResult` (a deferred one is built first), so a worker
        process can send a result to the process that shows it.

        >>> import pickle
        >>> r = CalcResult({"p": 0.5, "t": {"a": [1, 2]}}, explanation=("half",))
        >>> pickle.loads(pickle.dumps(r)) == r
        True
        """
        return (CalcResult, (_thaw(self.values), self.tables, self.explanation, self.warnings))

    def with_values(self, values: Mapping[str, Any]) -> CalcResult:
        """The same result with other values (tables, explanation and warnings shared, not
        frozen again)."""
        out = object.__new__(CalcResult)
        object.__setattr__(out, "values", MappingProxyType({k: _freeze(v) for k, v in values.items()}))
        object.__setattr__(out, "tables", self.tables)
        object.__setattr__(out, "explanation", self.explanation)
        object.__setattr__(out, "warnings", self.warnings)
        return out

    def with_tables(self, tables: tuple[Table, ...]) -> CalcResult:
        """The same result with other tables (values, explanation and warnings shared)."""
        out = object.__new__(CalcResult)
        object.__setattr__(out, "values", self.values)
        object.__setattr__(out, "tables", tuple(tables))
        object.__setattr__(out, "explanation", self.explanation)
        object.__setattr__(out, "warnings", self.warnings)
        return out

    def table(self, name: str) -> Table:
        """The explanation table called ``name``."""
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """Values and tables (as lists of rows) in one JSON-ready mapping."""
        out: dict[str, Any] = {k: to_jsonable(v) for k, v in self.values.items()}
        for t in self.tables:
            out.setdefault(t.name, t.to_records())
        if self.warnings:
            out.setdefault("warnings", list(self.warnings))
        return out


class DeferredResult(CalcResult):
    """A :class:`CalcResult` whose values are given and whose tables and explanation are built
    on first access (by ``build``, once; then kept): a fast path answers with the numbers and
    leaves the words to the general path until someone reads them. It equals the
    :class:`CalcResult` with the same four fields.

    >>> r = DeferredResult.of({"p": 0.5, "p_exact": "1/2"}, (), lambda: ((), ("half",)))
    >>> r["p_exact"], r.explanation, r == CalcResult({"p": 0.5, "p_exact": "1/2"}, (), ("half",))
    ('1/2', ('half',), True)
    """

    __slots__ = ("_build",)

    @classmethod
    def of(
        cls,
        values: Mapping[str, Any],
        warnings: tuple[str, ...],
        build: Callable[[], tuple[tuple[Table, ...], tuple[str, ...]]],
    ) -> DeferredResult:
        """The result with ``values`` (published forms, flat tuples for lists: not frozen again)
        and ``warnings``; ``build()`` gives (tables, explanation) when first asked."""
        out = object.__new__(cls)
        _SET_VALUES(out, values if type(values) is MappingProxyType else MappingProxyType(dict(values)))
        _SET_WARNINGS(out, warnings)
        object.__setattr__(out, "_build", build)
        return out

    def _built(self) -> None:
        build = getattr(self, "_build", None)
        if build is not None:
            tables, explanation = build()
            _SET_TABLES(self, tuple(tables))
            _SET_EXPLANATION(self, tuple(explanation))
            object.__setattr__(self, "_build", None)

    @property
    def tables(self) -> tuple[Table, ...]:
        self._built()
        return _GET_TABLES(self)  # type: ignore[no-any-return]

    @property
    def explanation(self) -> tuple[str, ...]:
        self._built()
        return _GET_EXPLANATION(self)  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CalcResult):
            return NotImplemented
        return (self.values, self.tables, self.explanation, self.warnings) == (
            other.values,
            other.tables,
            other.explanation,
            other.warnings,
        )

    __hash__ = None  # type: ignore[assignment]


_SLOT = cast(Any, CalcResult.__dict__)
_SET_VALUES, _SET_WARNINGS = _SLOT["values"].__set__, _SLOT["warnings"].__set__
_SET_TABLES, _SET_EXPLANATION = _SLOT["tables"].__set__, _SLOT["explanation"].__set__
_GET_TABLES, _GET_EXPLANATION = _SLOT["tables"].__get__, _SLOT["explanation"].__get__

_FLAT = (int, float, str, Fraction, bool, type(None))


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        if all(type(v) in _FLAT for v in value):  # a list of numbers or texts: one tuple
            return tuple(value)
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    return value


def _thaw(value: Any) -> Any:
    """The plain (picklable) form of a frozen value: mapping proxies become dicts."""
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple) and not all(type(v) in _FLAT for v in value):
        return tuple(_thaw(v) for v in value)
    return value


def is_exact_list(value: Any) -> bool:
    """True for a non-empty list or tuple of Fractions (published as floats and exact strings)."""
    return isinstance(value, list | tuple) and bool(value) and all(isinstance(v, Fraction) for v in value)


def publish_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """The published form of exact result values: Fractions give a float and an exact string.

    >>> publish_values({"p_pass": Fraction(5, 12), "modified_ld": 6, "pmf": [Fraction(1, 2)] * 2})
    {'p_pass': 0.4166666666666667, 'p_pass_exact': '5/12', 'modified_ld': 6, 'pmf': [0.5, 0.5], 'pmf_exact': ['1/2', '1/2']}
    """
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, Fraction):
            out[key], out[f"{key}_exact"] = float(value), fraction_str(value)
        elif is_exact_list(value):
            out[key] = [float(v) for v in value]
            out[f"{key}_exact"] = [fraction_str(v) for v in value]
        else:
            out[key] = value
    return out


def probability_values(name: str, value: Fraction) -> dict[str, Any]:
    """``{name: float, name_exact: "a/b"}`` — the two forms every probability is given in.

    >>> probability_values("p_pass", Fraction(7, 12))
    {'p_pass': 0.5833333333333334, 'p_pass_exact': '7/12'}
    """
    return publish_values({name: value})
