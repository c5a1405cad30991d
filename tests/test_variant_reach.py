"""A rule parameter changed by a variant reaches every calculator that names its rule.

For every (parameter, calculator whose rules include the parameter's rule) pair, the calculator
is run under the published rules and under a variant changing only that parameter, at its worked
examples and at inputs near them (each declared input moved a step or flipped, in turn). Some
input must give a different answer — or the calculator declares why the parameter cannot change
its answer (``insensitive={"key": "why"}`` in its declaration). Composite calculators (Break
test, Panic, Regroup, the Army Morale replay and Rally odds, WarStrike's phase, attack-and-Battle-
shock, datasheet-attack, charge) are in the walk like every other: a calculator that rebuilt the
default choices instead of using the ones it is given fails here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesbook.calculators import Calculator
from rulesbook.choices import ParameterSpec
from rulesbook.data import load_data_file
from rulesbook.errors import InputError
from rulesbook.inputs import BoolInput, ChoiceInput, IntInput
from rulesbook.registry import registry
from rulesbook.variants import Variant, run_with_variant


def alternatives(spec: ParameterSpec, value: Any) -> list[Any]:
    """Other valid values of a parameter, next to its published one."""
    if spec.kind == "bool":
        return [not value]
    if spec.kind == "int":
        assert spec.minimum is not None and spec.maximum is not None
        return [
            v
            for v in (value + 1, value - 1, spec.maximum, spec.minimum)
            if v != value and spec.minimum <= v <= spec.maximum
        ]
    if spec.kind == "fraction":
        assert spec.minimum is not None and spec.maximum is not None
        steps = (value + Fraction(1, 6), value - Fraction(1, 6), Fraction(1, 3), Fraction(2, 3))
        return [v for v in steps if v != value and spec.minimum <= v <= spec.maximum]
    out = []
    for text in (f"{value}+1", f"{value}-1", "3D6", "D6"):
        try:
            checked = spec.check(text)
        except InputError:
            continue
        if checked != value:
            out.append(checked)
    return out


def nearby(calc: Calculator, example: Mapping[str, str]) -> Iterator[dict[str, Any]]:
    """The example, then the example with one input moved a step, flipped or switched."""
    base = dict(example)
    yield base
    checked = calc.validate(base)
    for inp in calc.inputs:
        value = checked[inp.key]
        if isinstance(inp, BoolInput):
            yield {**base, inp.key: "false" if value else "true"}
        elif isinstance(inp, IntInput) and isinstance(value, int):
            for other in (value + 1, value - 1, inp.minimum, inp.maximum):
                if other is not None and other != value:
                    yield {**base, inp.key: str(other)}
        elif isinstance(inp, ChoiceInput):
            for option in inp.choices:
                if option != value:
                    yield {**base, inp.key: option}


def pairs() -> list[tuple[str, str, str]]:
    reg = registry()
    out = []
    for system, choices in reg.choices.items():
        for spec in type(choices.parameters).specs():
            for calc in reg.calculators_for_system(system):
                if spec.rule in calc.rules:
                    out.append((system, spec.key, calc.id))
    return out


PROBES = load_data_file(Path(__file__).with_name("variant_reach_probes.yaml"))
"""Inputs beyond the worked examples where a parameter shows (tests as data: calculator ID ->
a list of inputs), e.g. a Heavy weapon that stood still, a game log played by the band."""


def reaches(calc: Calculator, system: str, key: str, *, thorough: bool = True) -> bool:
    """Some input near a worked example (or a probe) answers differently with ``key`` changed —
    under the published readings, or (``thorough``) under another reading of the system: a
    parameter may matter under one reading only (the published band under ``formula: source-only``)."""
    base = registry().choices[system]
    spec = type(base.parameters).spec(key)
    alts = alternatives(spec, getattr(base.parameters, key))
    assert alts, f"{key}: no other value to try"
    settings: list[dict[str, str]] = [{}]
    if thorough:
        settings += [
            {r.key: option}
            for r in type(base.readings).specs()
            for option in r.options
            if option != r.default and not r.inert
        ]
    starts = [*PROBES.get(calc.id, []), *calc.examples]  # ("together" is no calculator ID)
    candidates = [dict(start) for start in starts]  # every start as given first, then the steps
    if thorough:
        candidates += [inputs for start in starts for inputs in list(nearby(calc, start))[1:]]
    together = dict(PROBES.get("together", {}).get(f"{system}.{key}", {}))
    for readings in settings:
        before = Variant.define(
            "before", system=system, title="before", parameters=together, readings=readings
        )
        after = [
            Variant.define(
                "after", system=system, title="after", parameters={**together, key: alt}, readings=readings
            )
            for alt in alts
        ]
        for inputs in candidates:
            published = answer(calc, before, inputs)
            if any(answer(calc, variant, inputs) != published for variant in after):
                return True
    return False


def answer(calc: Calculator, variant: Variant, inputs: Mapping[str, Any]) -> Any:
    """The result values, or "refused" (an answer too: a variant's dice can make a recorded roll
    impossible, its band can leave a detachment without a value)."""
    try:
        return run_with_variant(calc, variant, **inputs).values
    except InputError:
        return "refused"


@pytest.mark.parametrize(("system", "key", "calc_id"), pairs(), ids=lambda v: str(v))
def test_a_parameter_reaches_every_calculator_of_its_rule(system: str, key: str, calc_id: str) -> None:
    calc = registry().calculator(calc_id)
    why = dict(calc.insensitive).get(key)
    if why is not None:
        assert len(why) > 20, f"{calc_id}: say why {key} cannot change its answer"
        assert not reaches(calc, system, key, thorough=False), (
            f"{calc_id} declares {key} cannot change it, yet it does"
        )
        return
    assert reaches(calc, system, key), (
        f"{calc_id} names rule {type(registry().choices[system].parameters).spec(key).rule} but a variant "
        f"changing {key} changes none of its answers: pass the choice set it is given, or declare why not"
    )


def test_the_walk_covers_the_composite_calculators() -> None:
    names = {calc_id for _, _, calc_id in pairs()}
    assert {
        "scrollhammer.break-test",
        "scrollhammer.panic-test",
        "scrollhammer.regroup-test",
        "army-morale.replay",
        "army-morale.rally",
        "warstrike.starting-phase",
        "wh40k.attack-and-battle-shock",
        "wh40k.datasheet-attack",
        "wh40k.charge",
    } <= names


def undeclared() -> list[tuple[str, str, str]]:
    """(system, parameter, calculator) for calculators that do not name the parameter's rule."""
    reg = registry()
    return [
        (system, spec.key, calc.id)
        for system, choices in reg.choices.items()
        for spec in type(choices.parameters).specs()
        for calc in reg.calculators_for_system(system)
        if spec.rule not in calc.rules
    ]


def test_a_calculator_a_parameter_changes_names_the_parameter_s_rule() -> None:
    """The other way round: a calculator whose worked examples a parameter changes executes that
    parameter's rule, so it names it (its rule page lists the calculator, and the walk above
    checks it). Checked on the worked examples as given, each parameter moved once."""
    found = []
    for system, key, calc_id in undeclared():
        calc = registry().calculator(calc_id)
        base = registry().choices[system]
        alts = alternatives(type(base.parameters).spec(key), getattr(base.parameters, key))[:1]
        variants = [
            Variant.define("moved", system=system, title="moved", parameters={key: alt}) for alt in alts
        ]
        if any(
            answer(calc, variant, example)
            != answer(calc, Variant.define("same", system=system, title="same"), example)
            for variant in variants
            for example in calc.examples
        ):
            found.append(f"{calc_id} is changed by {key} but does not name its rule")
    assert found == []
