"""The one result formatter (rulesbook.present) and the three presenters that use it."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner

from rulesbook.calculators import Output
from rulesbook.cli import cli
from rulesbook.present import (
    ShownValue,
    decimal,
    result_html,
    result_markdown,
    result_text,
    shown_values,
    tables_markdown,
)
from rulesbook.registry import registry
from rulesbook.results import CalcResult, Table, fraction_str
from rulesbook.site.pages import calculator_page

OUTPUTS = (
    Output("p", "P(hit)"),
    Output("n", "Hits", "count"),
    Output("m", "Mean", "number"),
    Output("ok", "Must test", "bool"),
    Output("word", "Verdict", "text"),
    Output("ks", "P(k)", "list"),
    Output("rows", "Rows", "table"),
    Output("none", "Turn ended", "number"),
)


def test_each_kind_in_plain_text() -> None:
    values = {"p": Fraction(7, 12), "n": 2, "m": 2.5, "ok": False, "word": "draw", "ks": (0.25, 0.75)}
    shown = {s.key: s for s in shown_values(OUTPUTS, {**values, "rows": [], "none": None})}
    assert list(shown) == ["p", "n", "m", "ok", "word", "ks", "none"]  # declared order, no table
    assert (shown["p"].text, shown["p"].percent, shown["p"].exact) == ("0.5833", "58.3%", "7/12")
    assert [shown[k].text for k in ("n", "m", "ok", "word", "ks", "none")] == [
        "2", "2.5", "no", "draw", "0.25, 0.75", "—",
    ]  # fmt: skip
    assert all(shown[k].exact is None and shown[k].percent is None for k in ("n", "m", "ok"))


def test_a_probability_as_json_form_or_fraction_reads_the_same() -> None:
    p = Fraction(5, 12)
    as_fraction = shown_values(OUTPUTS[:1], {"p": p})
    as_json = shown_values(OUTPUTS[:1], {"p": float(p), "p_exact": fraction_str(p)})
    assert as_fraction == as_json


def test_huge_fractions_are_summarised_on_screen_and_whole_in_html() -> None:
    exact = "1" * 50 + "/" + "3" * 51
    shown = shown_values(OUTPUTS[:1], {"p": 1 / 30, "p_exact": exact})[0]
    assert shown.exact == exact and shown.exact_short is not None and shown.exact_short.startswith("≈ 0.0333")
    assert exact not in shown.to_text() and shown.exact_short in shown.to_text()
    assert f'data-exact="{exact}"' in shown.to_html()
    assert exact not in shown.to_markdown()
    # on a phone the whole fraction is one tap away: inside a native <details>, wrapping
    html = shown.to_html()
    tap = html.index('<details class="rb-whole">')
    assert html.index("exact: 50/51 digits", tap) < html.index(
        f'<span class="rb-fraction">{exact}</span>', tap
    )


def test_a_comparison_table_shows_the_pages_percentages() -> None:
    from rulesbook.registry import registry
    from widgets.forms.compare import form_result_html

    calc = registry().calculator("scrollhammer.morale-check")
    page = form_result_html(calc, {**calc.initial_values(), "ld": 8, "modifier": 0}, "break-2-ld-per-point")
    table = page.split('<table class="rulesbook-table rb-difference">')[1].split("</table>")[0]
    assert "<td>72.2%</td>" in table and "0.7222" not in table  # P(pass) 13/18, as the result shows it


def test_long_lists_are_left_to_the_tables_in_html_and_markdown() -> None:
    result = CalcResult(values={"ks": tuple(range(20)), "n": 3})
    assert "ks" not in result_html(OUTPUTS, result).split("rb-headline")[1]
    assert not any("P(k)" in line for line in result_markdown(OUTPUTS, result))
    assert "P(k)" in result_text(OUTPUTS, result)


@pytest.mark.parametrize(
    ("value", "text"), [(0.0, "0"), (-0.00001, "-1 × 10⁻⁵"), (123.456789, "123.4568"), (3.0, "3")]
)
def test_decimal(value: float, text: str) -> None:
    assert decimal(value) == text


def test_markdown_rows_escape_pipes_and_tables_keep_notes() -> None:
    row = ShownValue("w", "a | b", "text", "x|y").to_markdown()
    assert row == "| a \\| b | x\\|y |  |"
    lines = tables_markdown([Table("t", "T", ("a",), ((1,),), note="n")])
    assert lines[0] == "**T**" and "*n*" in lines


def test_the_three_presenters_use_the_one_formatter() -> None:
    calc = registry().calculator("scrollhammer.morale-check")
    result = calc.run(ld=7, modifier=-1)
    shown = shown_values(calc.outputs, result.values)
    cli_out = CliRunner().invoke(cli, ["calc", calc.id, "ld=7", "modifier=-1"]).output
    assert all("  " + s.to_text() in cli_out.splitlines() for s in shown)
    html = result_html(calc.outputs, result, styled=True)
    assert all(s.to_html() in html for s in shown)
    page = calculator_page(calc)
    example = calc.run(**dict(calc.examples[0]))
    assert all(s.to_markdown() in page.splitlines() for s in shown_values(calc.outputs, example.values))
