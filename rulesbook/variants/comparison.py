"""Comparisons: a calculator answered under the baseline rules and under variants, side by side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesbook.additions import entry_key
from rulesbook.calculators import Calculator
from rulesbook.errors import InputError
from rulesbook.inputs import picks
from rulesbook.present import ShownValue, decimal, short_fraction, shown_values
from rulesbook.registry import registry
from rulesbook.results import CalcResult, fraction_str
from rulesbook.variants.labels import reaches
from rulesbook.variants.model import resolve_variant, validate_with, variant_calculator
from rulesbook.variants.variant import BASELINE, Variant, VariantLike

__all__ = [
    "Comparison",
    "Lacking",
    "added_entries",
    "compare",
    "lacking_entries",
    "offerable_inputs",
    "run_lacking",
]


# -- comparison -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """One calculator at one set of inputs: the baseline and each variant, and the differences.

    ``results`` holds (variant name, result) pairs, the baseline first; ``rows`` one entry per
    scalar output: key, label, each result's value and, for numbers, each variant's
    difference from the baseline (exact when both are exact).
    """

    calc: Calculator
    inputs: Mapping[str, Any]
    variants: tuple[Variant, ...]
    results: tuple[tuple[str, CalcResult], ...]
    notes: tuple[str, ...] = ()

    @property
    def names(self) -> list[str]:
        """``baseline`` and each variant's name."""
        return [name for name, _ in self.results]

    def rows(self) -> list[dict[str, Any]]:
        """Per scalar output: ``key``, ``label``, ``kind``, ``values`` and ``exact`` (by name),
        ``text`` (each value as :mod:`rulesbook.present` prints it), ``shown`` (as a page shows it:
        a probability as its percentage), ``differences`` and
        ``difference_text`` (by variant: ``{"value": …, "exact": …}`` and ``"+0.3241 (+35/108)"``)."""
        out = []
        base = self.results[0][1]
        scalar = [o for o in self.calc.outputs if o.kind not in ("table", "list") and o.key in base.values]
        shown = {name: {s.key: s for s in shown_values(scalar, r.values)} for name, r in self.results}
        for o in scalar:
            values = {name: r.values.get(o.key) for name, r in self.results}
            exact = {name: r.values.get(f"{o.key}_exact") for name, r in self.results}
            diffs = {
                name: _difference(values[BASELINE], exact[BASELINE], values[name], exact[name])
                for name in self.names[1:]
            }
            out.append(
                {
                    "key": o.key,
                    "label": o.label,
                    "kind": o.kind,
                    "values": values,
                    "exact": exact,
                    "text": {name: s[o.key].text if o.key in s else "—" for name, s in shown.items()},
                    "shown": {name: _on_page(s.get(o.key)) for name, s in shown.items()},
                    "differences": diffs,
                    "difference_text": {name: _difference_text(d) for name, d in diffs.items()},
                }
            )
        return out

    def distributions(self) -> list[tuple[str, str, dict[str, list[float]]]]:
        """List outputs (distributions over 0, 1, 2, …): key, label, each result's list."""
        out = []
        for o in self.calc.outputs:
            if o.kind != "list":
                continue
            series = {
                n: list(r.values[o.key])
                for n, r in self.results
                if isinstance(r.values.get(o.key), tuple | list)
            }
            if series and all(all(isinstance(x, float) for x in s) for s in series.values()):
                out.append((o.key, o.label, series))
        return out

    def to_json(self) -> dict[str, Any]:
        """Baseline, variants and differences in one JSON-ready mapping."""
        rows = self.rows()
        base_json = self.results[0][1].to_json()
        return {
            "calculator": self.calc.id,
            "inputs": {  # with an input only a compared variant adds, as given
                **self.calc.inputs_json(self.inputs),
                **{k: v for k, v in self.inputs.items() if k not in {i.key for i in self.calc.inputs}},
            },
            "baseline": base_json,
            "variants": [
                {
                    "variant": v.name,
                    "title": v.title,
                    "changes": v.changes(),
                    "result": result.to_json(),
                    "difference": {
                        row["key"]: row["differences"][v.name]
                        for row in rows
                        if row["differences"][v.name] is not None
                    },
                }
                for v, (_, result) in zip(self.variants, self.results[1:], strict=True)
            ],
            "notes": list(self.notes),
        }

    def to_text(self) -> str:
        """A table: one line per output, a column per result, then the differences."""
        names = self.names
        width = max(12, *(len(n) for n in names))
        head = f"  {'':<30}" + "".join(f"{n:>{width + 2}}" for n in names)
        head += "".join(f"  Δ {n}" for n in names[1:])
        lines = [f"{self.calc.title} [{self.calc.id}]"]
        lines += [
            f"  {v.name}: {v.title}" + "".join(f"\n    {s}" for s in v.summary()) for v in self.variants
        ]
        lines += ["", head]
        for row in self.rows():
            cells = "".join(f"{row['text'][n]:>{width + 2}}" for n in names)
            cells += "".join(f"  {row['difference_text'][n]}" for n in names[1:])
            lines.append(f"  {row['label'][:30]:<30}{cells}")
        exact_rows = [r for r in self.rows() if r["kind"] == "probability"]
        if exact_rows:
            lines += ["", "  exact:"]
            for row in exact_rows:
                shown = ", ".join(f"{n} {row['exact'][n]}" for n in names)
                lines.append(f"    {row['key']}: {shown}")
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


def _signed(number: float | int) -> str:
    return ("+" if number > 0 else "") + (decimal(number) if isinstance(number, float) else str(number))


def _on_page(shown: ShownValue | None) -> str:
    """A value as a page shows it: a probability as its percentage (``72.2%``, not ``0.7222``)."""
    if shown is None:
        return "—"
    return shown.percent if shown.percent is not None else shown.text


def _difference_text(diff: Mapping[str, Any] | None) -> str:
    """``+0.3241 (+35/108)``, ``+2``, ``yes → no``, or ``—`` for no difference to show."""
    if diff is None:
        return "—"
    value = diff["value"]
    if not isinstance(value, int | float):
        return str(value)
    exact = diff.get("exact")
    signed = None if exact is None else (exact if exact.startswith("-") or exact == "0" else "+" + exact)
    tail = "" if signed is None else f" ({short_fraction(signed, limit=40)})"
    return _signed(value) + tail


def _difference(base: Any, base_exact: Any, value: Any, exact: Any) -> dict[str, Any] | None:
    """``{"value": variant − baseline}`` (plus ``"exact"`` when both are exact); words for other kinds."""
    if isinstance(base, bool) or isinstance(value, bool) or not isinstance(base, int | float):
        words = {True: "yes", False: "no"}
        shown = [words[v] if isinstance(v, bool) else str(v) for v in (base, value)]
        return None if base == value else {"value": " → ".join(shown)}
    if not isinstance(value, int | float):
        return {"value": f"{base} → {value}"}
    if isinstance(base_exact, str) and isinstance(exact, str):
        diff = Fraction(exact) - Fraction(base_exact)
        return {"value": float(diff), "exact": fraction_str(diff)}
    return {"value": value - base}


def compare(calc: Calculator, inputs: Mapping[str, Any], variants: Sequence[VariantLike]) -> Comparison:
    """Run ``calc`` at ``inputs`` under the baseline and each variant.

    An entry a variant adds (``add:``, such as a new stratagem) that the inputs name is left out
    of each column whose rules lack it (the published rules, another variant), with a note: that
    column answers as if it had not been picked.

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.panic-test")
    >>> compare(calc, {"ld": 7}, []).rows()[0]["values"]
    {'baseline': 0.5833333333333334}
    """
    resolved = tuple(resolve_variant(v) for v in variants)
    names = [v.name for v in resolved]
    if BASELINE in names or len(set(names)) != len(names):
        raise InputError("variant", f"each variant once, and none called {BASELINE}; got {', '.join(names)}")
    notes: list[str] = []
    base, checked = run_lacking(calc, None, inputs, lacking_entries(calc, resolved, None), notes)
    results = [(BASELINE, base)]
    for variant in resolved:
        result, _ = run_lacking(calc, variant, inputs, lacking_entries(calc, resolved, variant), notes)
        results.append((variant.name, result))
        overridden = [k for k in inputs if k in dict(variant.parameters) or k in dict(variant.readings)]
        if overridden:
            notes.append(f"{', '.join(overridden)} given as an input: {variant.name}'s value does not apply")
        if not _touches(calc, variant):
            notes.append(f"{variant.name} changes no parameter or reading that {calc.id} declares")
        elif result.values == results[0][1].values:
            notes.append(f"{variant.name} gives the same result as the baseline at these inputs")
    return Comparison(calc, checked, resolved, tuple(results), tuple(notes))


def added_entries(calc: Calculator, variant: VariantLike) -> dict[str, tuple[str, ...]]:
    """The entries ``variant`` adds (``add:``) that inputs of ``calc`` can name: input key -> keys.

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.datasheet-attack")
    >>> added_entries(calc, "monster-hunters")
    {'stratagems': ('monster-hunters',), 'target_stratagems': ('monster-hunters',)}
    >>> added_entries(registry().calculator("wh40k.charge"), "monster-hunters")
    {}
    """
    found = resolve_variant(variant)
    if found.system != calc.system:
        return {}
    offered = {inp.key: found.additions.offered(inp.key) for inp in calc.inputs}
    return {key: keys for key, keys in offered.items() if keys}


def offerable_inputs(calc: Calculator) -> tuple[str, ...]:
    """The inputs of ``calc`` that can name an entry a variant adds (its system's ``add:``
    sections name them), whichever variant is picked.

    >>> from rulesbook.registry import registry
    >>> offerable_inputs(registry().calculator("army-morale.rally"))
    ('a_effects', 'b_effects')
    """
    if calc.choices is None:
        return ()
    sections = registry().additions_class(calc.system).accepted()
    named = {key for section in sections.values() for key in section.inputs}
    return tuple(inp.key for inp in calc.inputs if inp.key in named)


Lacking = Mapping[str, Mapping[str, tuple[str, ...]]]
"""What a column's rules lack: input key -> {entry key: the variants that add it}."""


def lacking_entries(
    calc: Calculator, variants: Sequence[Variant], own: Variant | None
) -> dict[str, dict[str, tuple[str, ...]]]:
    """The entries the compared ``variants`` add for inputs of ``calc`` that the rules of column
    ``own`` (None: the published rules) do not name — neither printed (the input's list) nor
    added by ``own`` — each with the variants that add it; an input a variant adds (``add:
    inputs``) that ``own`` lacks is listed under its own key (``{KEY: {KEY: variants}}``).

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.datasheet-attack")
    >>> hunters = resolve_variant("monster-hunters")
    >>> lacking_entries(calc, [hunters], None)["stratagems"]
    {'monster-hunters': ('monster-hunters',)}
    >>> lacking_entries(calc, [hunters], hunters)
    {}
    """
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    own_inputs = _input_keys(calc, own)
    for variant in variants:  # an input a variant adds (add: inputs) that this column lacks
        if variant is not own and variant.system == calc.system:
            for key in sorted(_input_keys(calc, variant) - own_inputs):
                out.setdefault(key, {})[key] = (*out.get(key, {}).get(key, ()), variant.name)
    for key in offerable_inputs(calc):
        known = set(picks(calc.input(key)))
        if own is not None and own.system == calc.system:
            known |= set(own.additions.named(key))
        for variant in variants:
            if variant is own or variant.system != calc.system:
                continue
            for entry in variant.additions.offered(key):
                if entry not in known:
                    found = out.setdefault(key, {})
                    found[entry] = (*found.get(entry, ()), variant.name)
    return out


def _input_keys(calc: Calculator, variant: Variant | None) -> set[str]:
    """The inputs ``calc`` takes under ``variant`` (its added inputs with the others)."""
    runner = calc if variant is None or variant.system != calc.system else variant_calculator(calc, variant)
    return {inp.key for inp in runner.inputs}


def run_lacking(
    calc: Calculator,
    variant: Variant | None,
    inputs: Mapping[str, Any],
    lacking: Lacking,
    notes: list[str],
    parameters: Mapping[str, Any] | None = None,
) -> tuple[CalcResult, dict[str, Any]]:
    """One column: ``calc`` at ``inputs`` under ``variant`` (None: the published rules) and the
    inputs checked. If these rules refuse an input naming entries they lack (``lacking``, see
    :func:`lacking_entries`), the column runs without those entries and says so in ``notes``
    (``parameters``: rule parameters changed on top, as a sweep's ``parameter.KEY`` axes)."""
    try:
        checked, choices = validate_with(calc, variant, inputs, parameters)
        runner = calc if variant is None else variant_calculator(calc, variant)
        return runner.run_validated(checked, choices=choices), checked
    except InputError as exc:
        key = exc.field
        if key not in lacking or key not in inputs:
            raise
        error = exc
    who = "the published rules answer" if variant is None else f"{variant.name} answers"
    if key not in _input_keys(calc, variant):  # an input only the other variants add
        notes.append(f"{key}: {who} without it (an input added by {', '.join(lacking[key][key])} only)")
        rest_inputs = {k: v for k, v in inputs.items() if k != key}
        rest = {k: v for k, v in lacking.items() if k != key}
        result, checked = run_lacking(calc, variant, rest_inputs, rest, notes, parameters)
        return result, {**checked, key: inputs[key]}
    inp, missing = calc.input(key), lacking[key]
    value = inp.validate(inputs[key])
    if inp.kind == "word-list":
        left_out = [w for w in value if entry_key(w) in missing]
        rest_inputs = {**inputs, key: tuple(w for w in value if entry_key(w) not in missing)}
    elif isinstance(value, str) and entry_key(value) in missing and not inp.required:
        left_out = [value]
        rest_inputs = {k: v for k, v in inputs.items() if k != key}  # its default (none)
    else:
        left_out = []
    if not left_out:
        raise error
    adders = ", ".join(dict.fromkeys(name for w in left_out for name in missing[entry_key(w)]))
    notes.append(f"{key}: {who} without {', '.join(left_out)} (added by {adders} only)")
    rest = {k: v for k, v in lacking.items() if k != key}
    result, checked = run_lacking(calc, variant, rest_inputs, rest, notes, parameters)
    return result, {**checked, key: value}


def _touches(calc: Calculator, variant: Variant) -> bool:
    return reaches(calc, variant)
