"""The calculator contract: declare inputs once, derive everything else.

A :class:`Calculator` is a pure function plus declarations: its inputs (type, bounds, default,
help), its outputs, and the rule IDs it executes. From the input declarations come validation
(:meth:`Calculator.validate`), the CLI's ``key=value`` parsing and help, the ipywidgets and Panel
forms (:mod:`widgets`) and the inputs table on the calculator's page (:mod:`rulesbook.site.pages`).

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> calc.run(ld=7, modifier=-1)["p_pass_exact"]
    '5/12'
    >>> calc.parse_assignments(["ld=7", "falling_back=true"])["falling_back"]
    True
    >>> calc.parse_assignments(["ld=seven"])
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: ld: expected an integer from 0 to 12, got 'seven'
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Literal, Protocol

from rulesbook.errors import InputError, quote
from rulesbook.inputs import (
    NOT_GIVEN,
    REQUIRED,
    Input,
    InterpretationInput,
    picks,
)
from rulesbook.relations import Relation, broken
from rulesbook.results import DISTRIBUTION_COLUMNS, CalcResult, Column, Table, is_exact_list, publish_values

__all__ = [
    "Calculator",
    "CostFn",
    "FastFn",
    "NamesFn",
    "Output",
    "calculator",
    "distribution_output",
    "form_text",
]


@dataclass(frozen=True, slots=True)
class Output:
    """One declared result key.

    A compute function returns exact values; the calculator derives the published forms once
    (:func:`publish_values`): a ``Fraction`` becomes a float under ``key`` and an exact string
    under ``key_exact``, a list of Fractions two lists. ``table`` outputs name a table of the
    result. ``when`` (non-empty) says when an output is present; others are always present.

    What a reader sees is declared here too: ``label`` heads the value, ``columns`` label the
    columns of a ``table`` output (:class:`~rulesbook.results.Column`; the shared columns of a
    distribution, :data:`~rulesbook.results.DISTRIBUTION_COLUMNS`, come with it), and ``chart``
    asks for a bar chart: for a ``list`` of probabilities, ``(x-axis label,)`` (index k is the
    outcome); for a ``table``, ``(x column, y column, ...)``.

    >>> Output("phases", "Phase by phase", "table", columns=(Column("phase", "Phase"),)).columns[0].label
    'Phase'
    """

    key: str
    label: str
    kind: Literal["probability", "number", "count", "bool", "list", "text", "table"] = "probability"
    help: str = ""
    when: str = ""
    columns: tuple[Column, ...] = ()
    chart: tuple[str, ...] = ()


def distribution_output(
    key: str, label: str, outcome: Column, help: str = "", *, chart: bool = True, when: str = ""
) -> Output:
    """A ``table`` output holding a distribution (:meth:`~rulesbook.results.Distribution.table`):
    the ``outcome`` column, then P(exactly), its exact fraction, P(at least) and P(at most), drawn
    as a bar chart of P(exactly) unless ``chart`` is False.

    >>> out = distribution_output("models", "Models destroyed", Column("models", "Models"))
    >>> [c.label for c in out.columns][:3], out.chart
    (['Models', 'P(exactly)', 'P(exactly), exact'], ('models', 'p'))
    """
    return Output(
        key,
        label,
        "table",
        help,
        when=when,
        columns=(outcome, *DISTRIBUTION_COLUMNS),
        chart=(outcome.key, "p") if chart else (),
    )


class ChoiceSet(Protocol):
    """What a calculator needs of a system's :class:`rulesbook.choices.RuleChoices`."""

    @property
    def readings(self) -> Any: ...

    @property
    def additions(self) -> Any:
        """What a variant's ``add:`` section adds (:class:`rulesbook.additions.Additions`)."""
        ...

    def replace(
        self,
        *,
        parameters: Mapping[str, Any] | None = ...,
        readings: Mapping[str, Any] | None = ...,
        situation: Mapping[str, Any] | None = ...,
    ) -> Any: ...


type ComputeFn = Callable[..., CalcResult]
type CheckFn = Callable[[Mapping[str, Any], Any], None]
"""A cross-field check: ``check(values, choices)`` with the validated inputs and the choice set
the calculator will compute with (a variant's, when one is given; ``None`` for a calculator that
declares no choices), raising :class:`~rulesbook.errors.InputError`."""
type FastFn = Callable[["Calculator", dict[str, Any]], CalcResult | None]
"""A shortcut for the commonest small inputs: given the calculator and inputs whose fields are
validated (the cross-field check not yet run), the result :meth:`Calculator.run` would give, or
``None`` when the inputs are outside its domain (then the general path runs)."""
type CostFn = Callable[[Mapping[str, Any], Any], float | None]
"""A calculator's cost model: the predicted seconds of one answer, from its validated inputs and
the choice set it runs with (the system's own or a variant's), without computing it (``None``:
no prediction for these inputs). Sweeps budget their work with it before starting
(:mod:`rulesbook.sweeps.budget`)."""

type NamesFn = Callable[[Mapping[str, str]], Mapping[str, tuple[str, ...]]]
"""What a form offers to pick for some inputs, read from the files its file inputs name (the units
of a faction file or an army list): given each ``path`` input's current file, the names by input
key. Forms call it when a file is chosen (an upload), so a roster's units join the pick lists."""


_UNCHECKED: Any = object()


def _checked_default(inp: Input) -> Any:
    """An input's default as :meth:`Calculator.validate` fills it in, checked once at declaration
    (text defaults are parsed); :data:`REQUIRED` for a required input, ``_UNCHECKED`` when the
    default does not validate (then it is validated, and fails, at every use as before)."""
    if inp.required:
        return REQUIRED
    if not isinstance(inp.default, str):
        return inp.default
    if "path" in (inp.kind, getattr(inp, "inner_kind", "")):
        return _UNCHECKED  # a file's existence can change: checked at every use
    try:
        return inp.validate(inp.default)
    except InputError:
        return _UNCHECKED


@dataclass(frozen=True)
class Calculator:
    """A pure calculator: declared inputs and outputs, the rules it executes, the function.

    Call it like a function with keyword arguments (validated, defaults filled, cached):

    >>> from rulesbook.registry import registry
    >>> registry().calculator("scrollhammer.morale-check")(ld=8)["p_pass"]
    0.7222222222222222
    """

    id: str
    title: str
    system: str
    summary: str
    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    compute: ComputeFn = field(repr=False)
    rules: tuple[str, ...]
    check: CheckFn | None = field(default=None, repr=False)
    examples: tuple[Mapping[str, str], ...] = ()
    reference_tables: Callable[[], Sequence[Table]] | None = field(default=None, repr=False)
    cacheable: bool = True
    choices: ChoiceSet | None = field(default=None, repr=False)
    fast: tuple[ComputeFn, FastFn] | None = field(default=None, repr=False)
    """(the compute function it stands in for, the shortcut): used by :meth:`run` only while
    :attr:`compute` is that function (a variant that replaces it runs the general path)."""
    insensitive: tuple[tuple[str, str], ...] = ()
    """(parameter key, why): parameters of the rules it names that cannot change its answer
    (``tests/test_variant_reach.py`` checks both ways)."""
    cost: CostFn | None = field(default=None, repr=False)
    """The cost model, if the calculator has one (see :data:`CostFn`)."""
    main_inputs: tuple[str, ...] = ()
    """The inputs a player changes most: a long form shows them right under the answer and folds
    the others under "More inputs" (none: every input is shown)."""
    relations: tuple[Relation, ...] = ()
    """How its inputs must agree (:mod:`rulesbook.relations`): checked before :attr:`check`, and
    mended by a form after a pick."""
    tests: tuple[str, ...] = ()
    """The keys of the tests of the rules language it rolls (its system's declared tests,
    :mod:`rulesbook.language`): an entry a variant adds to one of them, or to a test they extend,
    reaches it, and so do the inputs such an entry reads."""
    situation_keys: tuple[str, ...] = ()
    """Inputs whose values the choice set the calculator computes with carries
    (:attr:`rulesbook.choices.RuleChoices.situation`): the inputs a variant adds that the tests it
    rolls read (:func:`rulesbook.variants.variant_calculator`)."""
    added_inputs: tuple[str, ...] = ()
    """The inputs a variant appended (their values reach the function only through the choice
    set; an added input the calculator declares already is passed to it as before)."""
    names: NamesFn | None = field(default=None, repr=False)
    """Names to pick from read from its files, if it has file inputs that hold some (:data:`NamesFn`)."""

    def __post_init__(self) -> None:
        keys = [i.key for i in self.inputs]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.id}: duplicate input keys")
        if not {k for r in self.relations for k in r.keys} | set(self.main_inputs) <= set(keys):
            raise ValueError(f"{self.id}: main_inputs or relations name an input it does not declare")
        object.__setattr__(self, "_cached", lru_cache(maxsize=4096)(self._compute_tuple))
        object.__setattr__(self, "_by_key", {i.key: i for i in self.inputs})
        readings = () if self.choices is None else {s.key for s in type(self.choices.readings).specs()}
        object.__setattr__(
            self,
            "reading_keys",
            tuple(i.key for i in self.inputs if isinstance(i, InterpretationInput) and i.key in readings),
        )
        object.__setattr__(self, "_reading_set", frozenset(self.reading_keys))
        object.__setattr__(self, "_folded", frozenset((*self.reading_keys, *self.added_inputs)))
        defaults = tuple((i.key, i, _checked_default(i), i.parse) for i in self.inputs)
        object.__setattr__(self, "_defaults", defaults)
        # one pass over the given texts (see _fields): every default checked ahead, a table of
        # each input's common spellings (Input.texts); none when a default is checked per use
        plain = all(default is not _UNCHECKED for _, _, default, _ in defaults)
        object.__setattr__(self, "_default_out", {key: default for key, _, default, _ in defaults})
        object.__setattr__(self, "_required", frozenset(key for key, _, d, _ in defaults if d is REQUIRED))
        object.__setattr__(self, "_tables", {i.key: i.texts() for i in self.inputs} if plain else None)
        object.__setattr__(self, "_parsers", {i.key: i.parse for i in self.inputs})

    reading_keys: tuple[str, ...] = field(default=(), init=False, repr=False)
    """Inputs that switch a reading of :attr:`choices` (folded into ``choices``, not passed loose)."""

    # -- inputs ---------------------------------------------------------------------------
    def input(self, key: str) -> Input:
        """The declared input called ``key`` (InputError naming the allowed keys otherwise)."""
        inp: Input | None = self._by_key.get(key) if isinstance(key, str) else None  # type: ignore[attr-defined]
        if inp is not None:
            return inp
        raise InputError(
            key, f"unknown input for {self.id}; allowed: {', '.join(i.key for i in self.inputs)}"
        )

    def initial_values(self) -> dict[str, Any]:
        """Starting values for forms: the first worked example, defaults for the rest.

        >>> from rulesbook.registry import registry
        >>> registry().calculator("scrollhammer.morale-check").initial_values()["ld"]
        7
        """
        example = self.examples[0] if self.examples else {}
        return {
            inp.key: inp.parse(example[inp.key]) if inp.key in example else inp.initial for inp in self.inputs
        }

    def form_start(self, given: Mapping[str, Any] | None = None) -> tuple[dict[str, Any], tuple[str, ...]]:
        """Where a notebook form starts: each input's default with ``given`` over it (the values
        ``rb.calc(ID, **given)`` answers for) and, for a required input left out (it has no
        default), the first worked example's value. Returns the values and the keys taken from
        the worked example, which the form names. A value given as text stays as typed for a
        text box (``weapons="rotwind"``) and is read for a number, a check box or a drop-down;
        an unknown key is one line.

        >>> from rulesbook.registry import registry
        >>> calc = registry().calculator("scrollhammer.morale-check")
        >>> values, borrowed = calc.form_start({"ld": "8"})
        >>> values["ld"], values["modifier"], borrowed
        (8, 0, ())
        >>> calc.form_start()[0]["ld"], calc.form_start()[1]
        (7, ('ld',))
        """
        given = dict(given or {})
        for key in given:
            self.input(key)  # an unknown key: the one line naming the allowed ones
        example = self.examples[0] if self.examples else {}
        borrowed = tuple(i.key for i in self.inputs if i.required and i.key not in given and i.key in example)
        values = {}
        for inp in self.inputs:
            if inp.key in given:
                value = given[inp.key]
                typed = isinstance(value, str) and inp.kind in ("int", "bool", "choice", "interpretation")
                values[inp.key] = inp.parse(value) if typed else value
            else:
                values[inp.key] = inp.parse(example[inp.key]) if inp.key in borrowed else inp.initial
        return values, borrowed

    def folded_inputs(self) -> tuple[str, ...]:
        """The inputs a form folds under "More inputs": all but :attr:`main_inputs` and the rule
        choices (folded on their own), in declaration order; none when no main inputs are declared.

        >>> from rulesbook.registry import registry
        >>> calc = registry().calculator("wh40k.datasheet-attack")
        >>> "weapons" in calc.main_inputs and "distance" in calc.folded_inputs()
        True
        """
        if not self.main_inputs:
            return ()
        return tuple(
            i.key for i in self.inputs if i.key not in self.main_inputs and i.kind != "interpretation"
        )

    def defaults(self) -> dict[str, Any]:
        """Defaults of the inputs that have one."""
        return {i.key: i.default for i in self.inputs if not i.required}

    def validate(self, values: Mapping[str, Any], choices: ChoiceSet | None = None) -> dict[str, Any]:
        """Check every value, fill defaults, run the cross-field check; InputError on failure.

        A reading input left out takes its value from ``choices`` when given (a variant's
        reading), else the register's default.
        """
        out = self._fields(values, choices)
        self._cross_check(out, choices)
        return out

    def _cross_check(self, checked: dict[str, Any], choices: ChoiceSet | None = None) -> None:
        """The declared relations, then the cross-field check (InputError on the first problem)."""
        broken(self.relations, checked)
        if self.check is not None:
            self.check(MappingProxyType(checked), self.choices_for(checked, choices))

    def choices_for(self, checked: Mapping[str, Any], choices: ChoiceSet | None = None) -> Any:
        """The choice set to compute ``checked`` with: ``choices`` (a variant's) or the system's,
        with the readings the reading inputs picked (``None`` without declared choices).

        >>> from rulesbook.registry import registry
        >>> calc = registry().calculator("scrollhammer.morale-check")
        >>> calc.choices_for(calc.validate({"ld": 7, "ld_bounds": "max-10"})).readings.ld_bounds
        'max-10'
        """
        if self.choices is None:
            return None
        base = choices if choices is not None else self.choices
        situation = {k: checked[k] for k in self.situation_keys}
        return base.replace(readings={k: checked[k] for k in self.reading_keys}, situation=situation)

    def _fields(self, values: Mapping[str, Any], choices: ChoiceSet | None = None) -> dict[str, Any]:
        """:meth:`validate` without the cross-field check."""
        tables = self._tables  # type: ignore[attr-defined]
        if tables is not None and choices is None and values.keys() >= self._required:  # type: ignore[attr-defined]
            # the common case, in one pass over the given values: every value a text found in
            # its input's table (or parsed); anything else (an unknown key, a value that is no
            # text, an error) goes the declared way below, which finds the first problem
            out: dict[str, Any] = self._default_out.copy()  # type: ignore[attr-defined]
            try:
                for key, value in values.items():
                    parsed = tables[key].get(value, _UNCHECKED)  # KeyError: an unknown key
                    if parsed is _UNCHECKED:
                        if type(value) is not str:
                            break
                        parsed = self._parsers[key](value)  # type: ignore[attr-defined]
                    out[key] = parsed
                else:
                    return out
            except (KeyError, TypeError, InputError):  # TypeError: a value that cannot be hashed
                pass
        out = {}
        by_key = self._by_key  # type: ignore[attr-defined]
        if not by_key.keys() >= values.keys():
            for key in values:
                if key not in by_key:
                    self.input(key)  # unknown keys fail first, with the list of allowed keys
        readings = self._reading_set  # type: ignore[attr-defined]
        get = values.get
        for key, inp, default, parse in self._defaults:  # type: ignore[attr-defined]
            value = get(key, _UNCHECKED)
            if value is not _UNCHECKED:
                # text is parsed (what Input.validate does with it), anything else validated
                out[key] = parse(value) if type(value) is str else inp.validate(value)
            elif key in values:  # a value that is the marker itself: validated (and refused)
                out[key] = inp.validate(value)
            elif default is REQUIRED:
                raise InputError(key, f"required; expected {inp.allowed()}")
            elif choices is not None and key in readings:
                out[key] = getattr(choices.readings, key)
            elif default is _UNCHECKED:
                out[key] = inp.validate(inp.default)
            else:
                out[key] = default
        return out

    def parse_assignments(self, pairs: Sequence[str], *, cross_check: bool = True) -> dict[str, Any]:
        """Parse CLI ``key=value`` words into validated inputs (``cross_check=False``: each value
        checked, the cross-field check left to a later :meth:`validate` under a variant's choices)."""
        raw = self.assignments(pairs)
        return self.validate(raw) if cross_check else self.check_values(raw)

    def check_values(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Each value checked and the defaults filled, without the cross-field check (which a
        variant's choices make later, :func:`rulesbook.variants.validate_with`)."""
        return self._fields(values)

    def assignments(self, pairs: Sequence[str]) -> dict[str, str]:
        """CLI ``key=value`` words as ``{key: text}``, not yet validated; a word without ``=``,
        a key given twice or an unknown key is an :class:`~rulesbook.errors.InputError`."""
        raw: dict[str, str] = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            key = key.strip()
            if not sep or not key:
                allowed = ", ".join(i.key for i in self.inputs)
                raise InputError("arguments", f"expected key=value, got {quote(pair)}; keys: {allowed}")
            if key in raw:
                raise InputError(key, "given twice")
            self.input(key)
            raw[key] = value
        return raw

    # -- running --------------------------------------------------------------------------
    def _compute_tuple(self, items: tuple[tuple[str, Any], ...]) -> CalcResult:
        return self._finish(self.compute(**dict(items)))

    def _finish(self, result: CalcResult) -> CalcResult:
        """Derive the published forms of exact values once (see :func:`publish_values`) and
        give each result table the column labels its output declares."""
        declared = {o.key: o.columns for o in self.outputs if o.columns}
        if any(t.name in declared for t in result.tables):
            tables = tuple(t.labelled(declared[t.name]) if t.name in declared else t for t in result.tables)
            result = result.with_tables(tables)
        if not any(isinstance(v, Fraction) or is_exact_list(v) for v in result.values.values()):
            return result
        return result.with_values(publish_values(result.values))

    def cache_clear(self) -> None:
        """Forget cached results (benchmarks time cold runs with it)."""
        self._cached.cache_clear()  # type: ignore[attr-defined]

    def run(self, **values: Any) -> CalcResult:
        """Validate ``values`` and compute (cached when :attr:`cacheable`; a calculator's
        :attr:`fast` shortcut answers its small inputs directly, uncached)."""
        fast = self.fast
        if fast is None or fast[0] is not self.compute:
            return self.run_validated(self.validate(values))
        checked = self._fields(values)
        result = fast[1](self, checked)
        if result is not None:
            return result
        self._cross_check(checked)
        return self.run_validated(checked)

    __call__ = run

    def compute_arguments(
        self, checked: Mapping[str, Any], choices: ChoiceSet | None = None
    ) -> dict[str, Any]:
        """The keyword arguments of :attr:`compute`: situation inputs, plus the choice set.

        Reading inputs are folded into ``choices`` (the system's, or the one given, e.g. a
        variant's), so compute functions never receive loose option strings.
        """
        if self.choices is None:
            return dict(checked)
        folded = self._folded  # type: ignore[attr-defined]
        args = {k: v for k, v in checked.items() if k not in folded}
        args["choices"] = self.choices_for(checked, choices)
        return args

    def run_validated(self, checked: Mapping[str, Any], choices: ChoiceSet | None = None) -> CalcResult:
        """Compute from values that :meth:`validate` returned (with another choice set if given)."""
        args = self.compute_arguments(checked, choices)
        if self.cacheable:
            return self._cached(tuple(args.items()))  # type: ignore[attr-defined, no-any-return]
        return self._finish(self.compute(**args))

    def output_problems(self, result: CalcResult) -> list[str]:
        """Keys the result has but does not declare, and declared keys it lacks (empty if none).

        >>> from rulesbook.registry import registry
        >>> calc = registry().calculator("scrollhammer.morale-check")
        >>> calc.output_problems(calc.run(ld=7))
        []
        """
        declared = {o.key for o in self.outputs}
        derived = {f"{o.key}_exact" for o in self.outputs}
        present = set(result.values) | {t.name for t in result.tables}  # warnings are not result keys
        problems = [
            f"{self.id}: result key {quote(k)} is not declared" for k in sorted(present - declared - derived)
        ]
        problems += [
            f"{self.id}: declared output {quote(o.key)} is missing"
            for o in self.outputs
            if not o.when and o.key not in present
        ]
        return problems

    def inputs_json(self, checked: Mapping[str, Any]) -> dict[str, Any]:
        """Every input with defaults filled, in JSON form."""
        return {i.key: i.jsonable(checked[i.key]) for i in self.inputs}

    def run_json(self, **values: Any) -> dict[str, Any]:
        """``{"calculator": id, "inputs": {...}, "result": {...}}`` — the CLI's ``--json`` answer."""
        checked = self.validate(values)
        return self.answer_json(checked, self.run_validated(checked))

    def answer_json(
        self, checked: Mapping[str, Any], result: CalcResult, variant: str | None = None
    ) -> dict[str, Any]:
        """The one JSON form of an answer — ``rulesbook calc ... --json``, the HTTP API's
        ``/api/v1/calc/ID``, the front door's ``Answer.to_json()``: calculator, the variant's name
        (when one), every input with defaults filled, the result."""
        named = {"variant": variant} if variant else {}
        return {
            "calculator": self.id,
            **named,
            "inputs": self.inputs_json(checked),
            "result": result.to_json(),
        }

    def cli_example(self, example: Mapping[str, str] | None = None) -> str:
        """A CLI command line for an example (the first declared one by default)."""
        ex = example if example is not None else (self.examples[0] if self.examples else {})
        args = " ".join(f"{k}={v}" for k, v in ex.items())
        return f"rulesbook calc {self.id} {args} --json".replace("  ", " ")

    def declaration(self) -> dict[str, Any]:
        """The declaration as JSON: inputs (key, kind, allowed, default, help) and outputs."""
        return {
            "id": self.id,
            "title": self.title,
            "system": self.system,
            "summary": self.summary,
            "rules": list(self.rules),
            "inputs": [
                {
                    "key": i.key,
                    "kind": i.kind,
                    "allowed": i.allowed(),
                    "default": None if i.required else i.jsonable(i.default),
                    "required": i.required,
                    "help": i.help,
                }
                for i in self.inputs
            ],
            "outputs": [{"key": o.key, "kind": o.kind, "label": o.label} for o in self.outputs],
        }

    def help_text(self, added: Mapping[str, Sequence[str]] | None = None) -> str:
        """Plain-text help generated from the declarations (CLI): each input, the names it
        offers (its printed ones, then those ``added`` by a variant: input key -> keys)."""
        lines = [f"{self.id} — {self.title}", "", self.summary, "", "Inputs (key=value):"]
        for inp in self.inputs:
            default = "required" if inp.required else f"default {inp.format(inp.default)}"
            lines.append(f"  {inp.key:<18} {inp.allowed()}; {default}")
            lines.append(f"  {'':<18} {inp.help}")
            names = picks(inp) if inp.kind in ("text", "word-list") else ()
            more = [k for k in (added or {}).get(inp.key, ()) if k not in names]
            for head, listed in (("names: ", names if len(names) > 1 else ()), ("the variant adds: ", more)):
                if listed:
                    pad = " " * 21
                    text = head + ", ".join(listed)
                    lines += textwrap.wrap(
                        text, 100, initial_indent=pad, subsequent_indent=pad, break_on_hyphens=False
                    )
        lines += ["", "Result keys:"]
        for out in self.outputs:
            extra = f" (and {out.key}_exact)" if out.kind == "probability" else ""
            lines.append(f"  {out.key}{extra}: {out.label}")
        lines += ["", "Rules: " + ", ".join(self.rules), "", "Example: " + self.cli_example()]
        return "\n".join(lines)


def calculator(
    id: str,
    *,
    title: str,
    summary: str,
    inputs: Sequence[Input],
    outputs: Sequence[Output],
    rules: Sequence[str],
    check: CheckFn | None = None,
    examples: Sequence[Mapping[str, str]] = (),
    reference_tables: Callable[[], Sequence[Table]] | None = None,
    cacheable: bool = True,
    choices: ChoiceSet | None = None,
    fast: FastFn | None = None,
    insensitive: Mapping[str, str] | None = None,
    cost: CostFn | None = None,
    main_inputs: Sequence[str] = (),
    relations: Sequence[Relation] = (),
    tests: Sequence[str] = (),
    names: NamesFn | None = None,
) -> Callable[[ComputeFn], Calculator]:
    """Declare a calculator around a pure compute function.

    The decorated function receives every situation input as a keyword argument (validated,
    defaults filled) and, when the calculator declares its system's ``choices``, one keyword
    ``choices`` with the readings its inputs picked; it returns a
    :class:`~rulesbook.results.CalcResult` of exact values. The decorator only builds the
    :class:`Calculator` (``fast``: an optional shortcut for small inputs, see :data:`FastFn`
    and docs/developing.md; ``insensitive``: parameter key -> why that parameter of a rule it
    names cannot change its answer; ``cost``: an optional cost model, :data:`CostFn`; ``tests``:
    the declared tests of the rules language it rolls, which a variant's entries reach; and
    :attr:`Calculator.main_inputs`, :attr:`Calculator.relations`); the system
    loader registers the calculators a system's modules define
    (:class:`rulesbook.registry.SystemPackage`). See
    ``rulesbook/systems/scrollhammer/calculators.py`` for a complete worked example.
    """
    system = id.split(".", 1)[0]

    def wrap(func: ComputeFn) -> Calculator:
        calc = Calculator(
            id=id,
            title=title,
            system=system,
            summary=" ".join(summary.split()),
            inputs=tuple(inputs),
            outputs=tuple(outputs),
            compute=func,
            rules=tuple(rules),
            check=check,
            examples=tuple(examples),
            reference_tables=reference_tables,
            cacheable=cacheable,
            choices=choices,
            fast=None if fast is None else (func, fast),
            insensitive=tuple((insensitive or {}).items()),
            cost=cost,
            main_inputs=tuple(main_inputs),
            relations=tuple(relations),
            tests=tuple(tests),
            names=names,
        )
        return calc

    return wrap


def form_text(inp: Input, value: Any) -> str:
    """The text a form's box shows for ``value`` of ``inp``: nothing for no value, a text as it
    was given (a list given as ``"rotwind"`` stays ``rotwind``, never its letters), any other
    value in its text form (:meth:`Input.format`).

    >>> from rulesbook.inputs import WordListInput
    >>> form_text(WordListInput(key="weapons", help="", words=(("[a-z-]+", "NAME"),)), "rotwind")
    'rotwind'
    """
    if value is NOT_GIVEN or (value is None and inp.kind != "optional"):
        return ""
    return value if isinstance(value, str) else inp.format(value)
