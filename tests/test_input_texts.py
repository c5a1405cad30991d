"""Validation reads the common spellings of a value from a table built once per declared input
(:meth:`rulesbook.inputs.Input.texts`, issue 14). The table must say exactly what parsing says,
and a calculator's validation with the tables must give exactly what checking each input in
declaration order gives: the same values in the same order, the same first error."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook.calculators import Calculator
from rulesbook.dice import COMMON_DICE, parse_dice
from rulesbook.errors import InputError
from rulesbook.inputs import (
    NOT_GIVEN,
    REQUIRED,
    TEXT_TABLE_LIMIT,
    BoolInput,
    ChoiceInput,
    DiceInput,
    Input,
    IntInput,
    OptionalInput,
)
from rulesbook.registry import registry

CALCULATORS = sorted(registry().calculators)


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same type (True is not 1; a word's value is that very object)."""
    if a is None or a is NOT_GIVEN or b is None or b is NOT_GIVEN:
        return a is b
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_every_table_entry_is_what_parsing_gives(calc_id: str) -> None:
    for inp in registry().calculator(calc_id).inputs:
        for text, value in inp.texts().items():
            assert _same(inp.parse(text), value), (calc_id, inp.key, text)


def test_the_tables_hold_the_common_spellings() -> None:
    """Not empty where it matters: the spellings a form or the CLI sends."""
    ints = IntInput(key="n", help="", minimum=-3, maximum=12)
    assert list(ints.texts()) == [str(i) for i in range(-3, 13)]
    assert IntInput(key="n", help="", minimum=0, maximum=TEXT_TABLE_LIMIT).texts() == {}  # too wide
    assert BoolInput(key="b", help="").texts() == {"true": True, "false": False}
    assert ChoiceInput(key="c", help="", choices=("ones", "failed")).texts() == {
        "ones": "ones",
        "failed": "failed",
    }
    optional = OptionalInput(inner=IntInput(key="fnp", help="", minimum=2, maximum=6), words={"none": None})
    assert optional.texts() == {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "": NOT_GIVEN, "none": None}
    dice = DiceInput(key="d", help="", min_value=1)
    assert {"1", "D6", "d6", "2D6", "D6+1", "D3+3", "6D6-5"} <= dice.texts().keys()
    assert (
        "0" not in dice.texts() and "D3-1" not in dice.texts() and "6D6-6" not in dice.texts()
    )  # can roll below 1
    for text in ("0", "100", "D6", "d3", "2D6+1", "6D3-6", "D6+12"):
        assert COMMON_DICE[text] == parse_dice(text)
    # every entry spelt the way the expression prints (or with a lower-case d), so one per value
    assert all(str(expr) in (text, text.replace("d", "D")) for text, expr in COMMON_DICE.items())


def declared_way(calc: Calculator, values: dict[str, Any]) -> dict[str, Any]:
    """What validation must give, written out independently: unknown keys refused first, then
    every input in declaration order, given (validated), required (refused) or defaulted."""
    for key in values:
        calc.input(key)
    out: dict[str, Any] = {}
    for inp in calc.inputs:
        if inp.key in values:
            out[inp.key] = inp.validate(values[inp.key])
        elif inp.required:
            raise InputError(inp.key, f"required; expected {inp.allowed()}")
        else:
            out[inp.key] = inp.validate(inp.default) if isinstance(inp.default, str) else inp.default
    return out


def _outcome(fn: Any, *args: Any) -> Any:
    try:
        return list(fn(*args).items())
    except InputError as exc:
        return str(exc)


_ODD_TEXTS = [" 3", "+3", "3 ", "x", "", "99999", "-1", "1D6", " d6 ", "2d6 + 1", "True", "NONE", "none", ","]


def _value(inp: Input) -> st.SearchStrategy[Any]:
    table = sorted(inp.texts())
    common = st.sampled_from(table) if table else st.just("1")
    return st.one_of(common, common, st.sampled_from(_ODD_TEXTS), st.integers(-2, 12), st.booleans())


@settings(max_examples=400, deadline=None)
@given(data=st.data(), calc_id=st.sampled_from(CALCULATORS))
def test_validation_with_tables_is_the_declared_way(data: st.DataObject, calc_id: str) -> None:
    calc = registry().calculator(calc_id)
    values: dict[str, Any] = {}
    for inp in calc.inputs:
        # required inputs mostly given, others sometimes; in a drawn order
        if data.draw(st.booleans()) or (inp.required and data.draw(st.integers(0, 9)) > 0):
            values[inp.key] = data.draw(_value(inp))
    if data.draw(st.integers(0, 19)) == 0:
        values["no_such_input"] = "1"
    keys = data.draw(st.permutations(list(values)))
    given_values = {k: values[k] for k in keys}
    assert _outcome(calc.validate, given_values) == _outcome(
        lambda v: _checked(calc, declared_way(calc, v)), given_values
    )


def _checked(calc: Calculator, out: dict[str, Any]) -> dict[str, Any]:
    if calc.check is not None:
        calc.check(MappingProxyType(out), calc.choices_for(out))
    return out


def test_a_required_input_left_out_is_refused_by_name() -> None:
    calc = registry().calculator("wh40k.attack")
    inputs = {"attacks": "1", "skill": "3", "strength": "4", "damage": "1", "toughness": "4", "save": "3"}
    with pytest.raises(InputError, match=r"^wounds: required"):
        calc.validate(inputs)
    assert calc.validate({**inputs, "wounds": "2"})["wounds"] == 2
    assert REQUIRED not in calc.validate({**inputs, "wounds": "2"}).values()
