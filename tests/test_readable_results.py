"""Results people can read: every output and column has a human label, declared with the output.

The JSON keeps the keys (``p_regroup_now``); what a reader sees in a form, a static calculator or
a site page is the declared label, probabilities as percentages beside their exact fraction,
and distributions as bar charts.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesbook.calculators import Calculator
from rulesbook.present import percent, result_html, result_markdown, table_html, table_markdown
from rulesbook.registry import registry
from rulesbook.results import CalcResult, Table
from rulesbook.site.pages import generate_pages
from tests.test_percent import percent_number

RAW_KEY = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)+$|^p$")
"""What a raw result key looks like as a header: ``p``, ``p_regroup_now``, ``units_fleeing``."""

IDENTIFIER = re.compile(r"^[a-z][a-z0-9_-]*$")
"""A column key that is a program word (``p``, ``lost_by``, ``morale-check``), not yet a label."""

CALCS = sorted(registry().calculators)


def _results(calc: Calculator) -> list[CalcResult]:
    """The result of every declared example (an example that fails is a failure here too: the
    examples are shown in the CLI help and on the site; the replay's log ships with the package)."""
    return [calc.run(**dict(e)) for e in calc.examples or [{}]]


def _headers(html: str) -> list[str]:
    return re.findall(r"<th[^>]*>([^<]*)</th>", html)


@pytest.mark.parametrize("calc_id", CALCS)
def test_every_output_and_every_column_has_a_declared_label(calc_id: str) -> None:
    calc = registry().calculator(calc_id)
    for out in calc.outputs:
        assert out.label.strip() and out.label != out.key, f"{calc_id}: output {out.key} has no label"
    for result in _results(calc):
        for table in result.tables:
            for i, _ in table.shown_columns():
                key = table.columns[i]
                if not IDENTIFIER.match(key):
                    continue  # a header that is already words or a number ("lost by 1", "-3", "T4")
                assert table.column(key) is not None, (
                    f"{calc_id}: column {key!r} of {table.name} has no label"
                )


@pytest.mark.parametrize("calc_id", CALCS)
def test_no_raw_key_is_a_header_of_a_form_result(calc_id: str) -> None:
    calc = registry().calculator(calc_id)
    for result in _results(calc):
        headers = _headers(result_html(calc.outputs, result))
        assert not [h for h in headers if RAW_KEY.match(h)], headers
    for table in calc.reference_tables() if calc.reference_tables else ():
        headers = _headers(table_html(table))
        assert not [h for h in headers if RAW_KEY.match(h) or "_" in h], (table.name, headers)


def test_no_raw_key_is_a_table_header_on_the_site() -> None:
    for path, page in generate_pages().items():
        for line in page.splitlines():
            if line.startswith("| ") and not line.startswith("| `"):
                cells = [c.strip() for c in line.strip("|").split("|")]
                raw = [c for c in cells if RAW_KEY.match(c) and c not in ("key", "kind")]
                assert not raw or not line.endswith("|") or any(ch.isdigit() for ch in cells[0]), (path, line)


def test_the_phase_table_reads_in_words_and_percentages() -> None:
    calc = registry().calculator("scrollhammer.fall-back")
    result = calc.run(ld=7, distance=2, phases=1)
    html = result_html(calc.outputs, result)
    headers = _headers(html)
    assert "Regroups in this phase" in headers and "p_regroup_now" not in headers
    assert "p_removed_exact" not in headers  # shown beside the percentage, not as a column
    # one phase, 2" to the edge: a failed Regroup test (5/12 at Ld 7) means it flees
    assert "41.7% <small" in html and "(5/12)" in html
    assert result.to_json()["phases"][0]["p_removed_exact"] == "5/12"  # the JSON keeps its keys


@given(st.fractions(min_value=0, max_value=1))
def test_a_percentage_never_rounds_to_certainty_or_impossibility(p: Fraction) -> None:
    text = percent(float(p))
    assert text.endswith("%")
    number = percent_number(text)  # tiny ones read "2.3 × 10⁻¹⁵%", near-certain "> 99.9999%"
    if 0 < p < 1:
        assert 0 < number < 100
        assert abs(number - float(p) * 100) <= max(0.051, float(p) * 100 * 0.006)
    else:
        assert number == float(p) * 100


def test_a_huge_exact_fraction_is_summarised_beside_its_percentage_and_whole_on_hover() -> None:
    exact = "7" * 17 + "/" + "2" * 19
    table = Table("t", "T", ("k", "p_exact", "p"), ((0, exact, 0.0351),))
    html = table_html(table)
    assert "3.51%" in html and "exact: 17/19 digits" in html and f'title="{exact}"' in html
    assert "| 3.51% (exact: 17/19 digits) |" in table_markdown(table)


def _charts(html: str) -> list[str]:
    return re.findall(r'<figure class="rb-chart"[^>]*data-chart="([^"]+)"', html)


@pytest.mark.parametrize(
    ("calc_id", "inputs", "charts"),
    [
        ("wh40k.attack", {}, ["models_destroyed", "wounds_lost"]),
        ("scrollhammer.fall-back", {"ld": 7, "distance": 6, "phases": 3}, ["phases"]),
        ("army-morale.rally", {"a_morale": 2, "a_blast_markers": 3}, ["a_values", "b_values"]),
        ("scrollhammer.panic-cascade", {"lds": "7,7,7"}, ["distribution"]),
    ],
)
def test_distributions_are_drawn_as_bar_charts(
    calc_id: str, inputs: dict[str, Any], charts: list[str]
) -> None:
    calc = registry().calculator(calc_id)
    values = {**{k: str(v) for k, v in (calc.examples[0] if calc.examples else {}).items()}, **inputs}
    result = calc.run(**calc.validate({k: calc.input(k).parse(str(v)) for k, v in values.items()}))
    html = result_html(calc.outputs, result)
    assert _charts(html) == charts
    assert "<script" not in html and "http" not in html.split("<svg", 1)[1]  # inline, offline


def test_chart_bars_are_as_tall_as_their_probability() -> None:
    calc = registry().calculator("wh40k.desperate-escape")
    result = calc.run(**dict(calc.examples[0]))
    html = result_html(calc.outputs, result)
    figure = html.split('data-chart="models_destroyed"', 1)[1].split("</figure>", 1)[0]
    heights = [float(h) for h in re.findall(r'<rect class="rb-bar[^"]*"[^>]*height="([0-9.]+)"', figure)]
    probs = result["models_destroyed"]
    assert len(heights) == len(probs)
    top = max(probs)
    for h, p in zip(heights, probs, strict=True):
        assert h == pytest.approx(max(heights) * p / top, abs=0.11)


def test_markdown_results_of_the_site_keep_labels() -> None:
    calc = registry().calculator("scrollhammer.morale-check")
    lines = result_markdown(calc.outputs, calc.run(ld=7))
    assert lines[2] == "| P(pass) | 58.3% | `7/12` |"
