"""Percentages read sensibly at both ends: no ``e`` notation, never rounded to 0 or 100.

:func:`rulesbook.results.percent` is the one formatter of a probability as a percentage (the
site, the widgets, Markdown, chart labels); :func:`rulesbook.present.probability_text` is its
four-decimal twin for the terminal. The numbers these tests compare with come from the
probability itself (``p * 100``), never from the formatter's output.
"""

from __future__ import annotations

import re
from fractions import Fraction

from hypothesis import example, given
from hypothesis import strategies as st

from rulesbook.calculators import Output
from rulesbook.present import (
    PERCENT_FLOOR,
    decimal,
    fixed,
    percent,
    power_of_ten,
    probability_text,
    shown_values,
    table_cells,
    table_html,
    table_markdown,
)

_POWER = re.compile(r"^(\d+(?:\.\d+)?) × 10([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)%$")
_DIGITS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def percent_number(text: str) -> Fraction:
    """The number a reader takes from ``percent``'s text (``> 99.9999%`` as 99.9999), exactly
    (float arithmetic loses the digits of subnormal values such as 1e-323)."""
    power = _POWER.match(text)
    if power:
        return Fraction(power[1]) * Fraction(10) ** int(power[2].translate(_DIGITS))
    assert text.endswith("%"), text
    return Fraction(text.removeprefix("> ")[:-1])


probabilities = st.floats(min_value=0, max_value=1) | st.fractions(0, 1).map(float)
tiny = st.floats(min_value=5e-324, max_value=1e-5) | st.integers(1, 10**300).map(lambda n: 1 / n)
near_one = st.floats(min_value=1 - 1e-5, max_value=1)
every = probabilities | tiny | near_one


def test_zero_and_one_are_exact() -> None:
    assert percent(0.0) == "0%" and percent(1.0) == "100%"
    assert probability_text(0.0) == "0.0000" and probability_text(1.0) == "1.0000"


@given(every)
def test_never_e_notation_never_certainty_or_impossibility(p: float) -> None:
    text = percent(p)
    assert "e" not in text.lower() and "inf" not in text.lower() and "nan" not in text.lower()
    if 0 < p < 1:
        assert text not in ("0%", "100%")
        assert 0 < percent_number(text) < 100
        assert probability_text(p) not in ("0.0000", "1.0000")
    assert "e" not in probability_text(p)


@given(every, every)
def test_monotone(p: float, q: float) -> None:
    low, high = sorted((p, q))
    assert percent_number(percent(low)) <= percent_number(percent(high))


@given(every)
@example(1e-323)  # subnormal: found by the full suite when the check used floats
@example(5e-324)
def test_close_to_the_probability(p: float) -> None:
    number, exact = percent_number(percent(p)), Fraction(p) * 100
    if 1 - p < PERCENT_FLOOR and p < 1:  # "> 99.9999%": a bound, and a true one
        assert number < exact
        assert exact - number <= Fraction(1, 10**4)
    elif p > 0:  # three significant digits (or more), relative error at most half a unit
        assert abs(number - exact) <= Fraction(6, 1000) * exact, (p, percent(p))
    else:
        assert number == exact == 0


def test_tiny_values_read_as_powers_of_ten() -> None:
    assert percent(2.3e-17) == "2.3 × 10⁻¹⁵%"
    assert percent(1 / 6**20) == "2.74 × 10⁻¹⁴%"  # twenty sixes in a row: 1/3656158440062976
    assert percent(5e-324).endswith(" × 10⁻³²²%")


def test_a_tiny_probability_keeps_its_exact_fraction_beside_it() -> None:
    p = Fraction(1, 6**20)
    (shown,) = shown_values([Output("p", "P(twenty sixes)")], {"p": p})
    assert shown.percent == "2.74 × 10⁻¹⁴%"
    assert shown.exact == "1/3656158440062976" and shown.text == "< 0.0001"
    assert "1/3656158440062976" in shown.to_html() and "1/3656158440062976" in shown.to_text()
    assert "2.74 × 10⁻¹⁴%" in shown.to_markdown()


def test_an_explanation_line_never_rounds_a_possible_outcome_to_zero() -> None:
    """wh40k.attack's first example can destroy the unit, at odds far below 0.01 %."""
    from rulesbook.registry import registry

    calc = registry().calculator("wh40k.attack")
    result = calc.run(**dict(calc.examples[0]))
    p = result.values["p_unit_destroyed"]
    assert 0 < p < Fraction(1, 10**6)
    (line,) = [line for line in result.explanation if "P(unit destroyed)" in line]
    assert line.endswith(f"P(unit destroyed) = {percent(float(p))}.") and " × 10⁻" in line


# -- decimal(): the same power of ten below 0.00005 ---------------------------------------------

_DECIMAL_POWER = re.compile(r"^(-?\d+(?:\.\d+)?) × 10([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)$")
numbers = (
    st.floats(min_value=-1e6, max_value=1e6)
    | tiny
    | tiny.map(lambda x: -x)
    | st.floats(min_value=4e-5, max_value=6e-5)
    | st.fractions(-10, 10).map(float)
)


def read_power(text: str) -> Fraction:
    """``"-1.23 × 10⁻⁵"`` as the exact number a reader takes from it (floats underflow)."""
    mantissa, times, power = text.partition(" × 10")
    assert times, text
    return Fraction(mantissa) * Fraction(10) ** int(power.translate(_DIGITS))


def decimal_number(text: str) -> Fraction:
    """The number a reader takes from ``decimal``'s text, exactly."""
    if _DECIMAL_POWER.match(text):
        return read_power(text)
    assert re.fullmatch(r"-?\d+(\.\d{1,4})?", text), text
    return Fraction(text)


@given(numbers)
def test_decimal_never_e_notation_and_never_rounds_a_value_to_zero(x: float) -> None:
    text = decimal(x)
    assert "e" not in text and text != "-0"
    number, exact = decimal_number(text), Fraction(x)
    if x == 0:
        assert number == 0
    elif abs(x) < 0.00005:  # three significant digits, as percent writes tiny ones
        assert " × 10⁻" in text and abs(number - exact) <= Fraction(5, 1000) * abs(exact)
    else:  # four decimals, rounded to nearest
        assert number != 0 and abs(number - exact) <= Fraction(1, 20000)
    assert (number > 0) == (x > 0) and (number < 0) == (x < 0)


@given(numbers, numbers)
def test_decimal_is_monotone(x: float, y: float) -> None:
    low, high = sorted((x, y))
    assert decimal_number(decimal(low)) <= decimal_number(decimal(high))


@given(st.floats(min_value=-1e300, max_value=1e300, allow_subnormal=True), st.integers(1, 6))
def test_power_of_ten_reads_back_as_the_number(x: float, digits: int) -> None:
    text = power_of_ten(x, digits)
    mantissa = text.partition(" × 10")[0]
    assert "e" not in text
    assert mantissa == "0" or 1 <= abs(Fraction(mantissa)) < 10
    assert len(mantissa.lstrip("-").replace(".", "")) <= digits
    exact = Fraction(x)  # within half a unit of the last digit kept
    assert abs(read_power(text) - exact) <= Fraction(1, 2) * Fraction(10) ** (1 - digits) * abs(exact)


def test_powers_of_ten_by_hand() -> None:
    assert power_of_ten(0.000012345) == "1.23 × 10⁻⁵"
    assert power_of_ten(1 / 3_656_158_440_062_976) == "2.74 × 10⁻¹⁶"  # twenty sixes: 1/6**20
    assert power_of_ten(-0.00002) == "-2 × 10⁻⁵" and decimal(-0.00002) == "-2 × 10⁻⁵"
    assert power_of_ten(9.9996e-7, 4) == "1 × 10⁻⁶"  # rounding carries into the exponent
    assert decimal(0.00004999) == "5 × 10⁻⁵" and decimal(0.00005) == "0.0001"


@given(numbers, st.integers(0, 4))
def test_fixed_keeps_its_decimals_and_never_shows_a_nonzero_value_as_zero(x: float, places: int) -> None:
    text = fixed(x, places)
    assert "e" not in text
    if " × 10" in text:  # only what the decimals would round to zero, to three digits
        assert x != 0 and abs(Fraction(x)) < Fraction(1, 2 * 10**places) * (1 + Fraction(1, 10**6))
        assert abs(read_power(text) - Fraction(x)) <= Fraction(5, 1000) * abs(Fraction(x))
    else:  # ``places`` decimals, rounded to nearest
        whole, _, decimals = text.lstrip("-").partition(".")
        assert whole.isdigit() and len(decimals) == places and (decimals.isdigit() or not places)
        assert abs(Fraction(text) - Fraction(x)) <= Fraction(1, 2 * 10**places)
        assert Fraction(text) != 0 or x == 0
        assert not text.startswith("-") or Fraction(text) < 0  # no "-0.00"


def test_fixed_by_hand() -> None:
    assert fixed(2 / 3) == "0.67" and fixed(2.5) == "2.50" and fixed(7, 0) == "7"
    assert fixed(0.000123) == "1.23 × 10⁻⁴" and fixed(-0.004) == "-4 × 10⁻³" and fixed(0.005001) == "0.01"


def test_a_table_never_shows_a_tiny_number_as_zero() -> None:
    from rulesbook.results import Table

    table = Table("t", "T", ("k", "mean"), ((1, 2.5), (2, 0.0000123), (3, 0.0)))
    assert [cell for row in table.rows for cell, _ in table_cells(table, row)][1::2] == [
        "2.5000",
        "1.23 × 10⁻⁵",
        "0.0000",
    ]
    assert "1.23 × 10⁻⁵" in table_markdown(table) and "1.23 × 10⁻⁵" in table_html(table)
