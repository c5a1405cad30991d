"""A comparison travels in the address: a served calculator opened with inputs and a variant in
the query string shows the baseline and the variant side by side, and the form keeps the URL in step."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import set_number, until

pytestmark = pytest.mark.browser

CALC = "scrollhammer.break-test"
VARIANT = "break-2-ld-per-point"


def _side(page: Any, side: str, key: str, text: str) -> str:
    loc = page.locator(f'[data-variant="{side}"] [data-key="{key}"]', has_text=text).first
    loc.wait_for()
    return str(loc.inner_text())


@pytest.mark.covers(CALC, "scrollhammer.morale.break-test")
def test_a_variant_in_the_url_shows_both_numbers_and_the_url_follows_the_form(served: str, page: Any) -> None:
    page.goto(f"{served}/calc/{CALC}?ld=8&lost_by=2&variant={VARIANT}")
    # Ld 8 lost by 2: the published rule tests on Ld 6 (15 of 36), the variant on Ld 4 (6 of 36)
    assert _side(page, "baseline", "p_pass_exact", "5/12") == "5/12"
    assert _side(page, VARIANT, "p_pass_exact", "1/6") == "1/6"
    difference = page.locator('[data-key="difference-p_pass"]').first
    assert difference.inner_text() == "25.0 points fewer"
    assert page.locator(".rb-input-ld input").first.input_value() == "8"

    set_number(page, "lost_by", 1)  # Ld 7 against Ld 6
    assert _side(page, VARIANT, "p_pass_exact", "5/12") == "5/12"
    assert _side(page, "baseline", "p_pass_exact", "7/12") == "7/12"
    assert until(page, lambda: "lost_by=1" in page.url), page.url
    assert f"variant={VARIANT}" in page.url and "ld=8" in page.url
    assert page.external_requests == []
