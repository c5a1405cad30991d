"""WarStrike in a real browser: the live Strike Force Morale calculator and the rule pages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import read_value, set_number

pytestmark = pytest.mark.browser
CALC = "warstrike.strike-force-morale"


def wait_for(page: Any, key: str, text: str) -> None:
    page.locator(f'[data-key="{key}"]', has_text=text).first.wait_for()
    assert read_value(page, key) == text


@pytest.mark.covers(
    CALC, "warstrike.morale.trigger", "warstrike.morale.officer-test", "warstrike.morale.fanatical"
)
def test_live_morale_calculator_follows_losses_and_fanatical(served: str, page: Any) -> None:
    page.goto(f"{served}/calc/{CALC}")
    wait_for(page, "p_retreat_exact", "5/18")  # the first example: 4 of 10 left, officer Ld 8
    set_number(page, "remaining_units", 5)
    wait_for(page, "p_retreat_exact", "0")  # exactly half left: no check
    set_number(page, "remaining_units", 4)
    wait_for(page, "p_retreat_exact", "5/18")
    page.locator(".rb-input-fanatical input").first.check()
    wait_for(page, "p_retreat_exact", "25/324")
    assert page.external_requests == []


@pytest.mark.covers(CALC, "warstrike.morale.hive-mind")
def test_hive_mind_asks_for_unit_lds_then_answers(served: str, page: Any) -> None:
    page.goto(f"{served}/calc/{CALC}")
    wait_for(page, "p_retreat_exact", "5/18")
    set_number(page, "officer_ld", "none")
    page.locator(".rb-input-hive_mind input").first.check()
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    assert error.inner_text().startswith("unit_lds: a Hive Mind force needs the Ld of each of the 4 units")
    set_number(page, "unit_lds", "7,7,7")
    page.locator('[data-key="error"]', has_text="got 3 values").first.wait_for()
    assert page.locator(".rb-input-unit_lds input").first.input_value() == "7,7,7"
    set_number(page, "unit_lds", "7,7")
    set_number(page, "remaining_units", 2)
    wait_for(page, "p_retreat_exact", "25/144")  # both Ld 7 units fail: (5/12)^2


@pytest.mark.covers("warstrike.morale.hive-mind")
def test_rule_page_shows_version_and_reaches_the_calculator(served: str, page: Any) -> None:
    page.goto(f"{served}/site/warstrike/rules/warstrike.morale.hive-mind/")
    content = page.content()
    assert (
        "version 0.52" in content
        and "WarStrike Starting Phase Ver. 0.52, § Special Rule: Hive Mind" in content
    )
    page.locator(f'a[href="/calc/{CALC}"]').first.click()
    page.wait_for_url(f"**/calc/{CALC}")
    wait_for(page, "p_retreat_exact", "5/18")
    assert page.external_requests == []


@pytest.mark.covers(CALC, "warstrike.morale.hive-mind", "warstrike.morale.no-officer")
def test_empty_officer_ld_is_an_error_unless_hive_mind(served: str, page: Any) -> None:
    page.goto(f"{served}/calc/{CALC}")
    wait_for(page, "p_retreat_exact", "5/18")
    set_number(page, "officer_ld", "")
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    assert error.inner_text().startswith("officer_ld: give an integer from 0 to 12, or 'none'")
    page.locator(".rb-input-hive_mind input").first.check()
    set_number(page, "unit_lds", "7,7")
    set_number(page, "remaining_units", 2)
    wait_for(page, "p_retreat_exact", "25/144")  # no officer_ld needed: both Ld 7 units fail
    assert page.external_requests == []
