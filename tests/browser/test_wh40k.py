"""The wh40k attack calculator served live, in a real browser (Debian's chromium)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import read_value, set_number

pytestmark = pytest.mark.browser


@pytest.mark.covers("wh40k.attack.sustained-hits", "wh40k.attack.devastating-wounds")
def test_wh40k_attack_live_calculator(served: str, page: Any) -> None:
    page.goto(f"{served}/calc/wh40k.attack")
    read_value(page, "mean_wounds_lost")  # the form starts from the first example's profile
    set_number(page, "ap", -1)
    set_number(page, "models", 20)
    set_number(page, "fnp", 5)
    set_number(page, "abilities", "sustained-hits-1,devastating-wounds")
    # 40 x (2/3 + 1/6 x 2) hits = 100/3; x (1/6 devastating + 1/2 x 1/2 unsaved) = 125/9 damage;
    # x 2/3 through Feel No Pain 5+ = 250/27 = 9.2593 (the 40-wound cap is reached with p < 1e-16)
    page.locator('[data-key="mean_wounds_lost"]', has_text="9.2593").first.wait_for()
    set_number(page, "abilities", "lethal-hit")
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    assert error.inner_text().startswith("abilities: unknown word 'lethal-hit'; allowed: lethal-hits")
    assert page.locator(".rb-input-abilities input").first.input_value() == "lethal-hit"
    assert page.external_requests == []


@pytest.mark.covers("wh40k.mortarion.weapons")
def test_wh40k_rule_page_links_its_live_calculator(served: str, page: Any) -> None:
    page.goto(f"{served}/site/wh40k/rules/wh40k.attack.devastating-wounds/")
    assert "Warhammer 40,000 Mortarion page and core rules, §" in page.content()
    page.locator('a[href="/calc/wh40k.attack"]').first.click()
    page.wait_for_url("**/calc/wh40k.attack")
    read_value(page, "mean_wounds_lost")
    assert page.external_requests == []


@pytest.mark.covers("wh40k.attack.sequence")
def test_wh40k_sequence_live_calculator(served: str, page: Any) -> None:
    page.goto(f"{served}/calc/wh40k.sequence")
    read_value(page, "mean_wounds_lost")  # the first example: bolters then plasma, 5 two-wound models
    set_number(page, "wounds", 1)
    set_number(page, "models", 30)
    # one-wound models, 22 shots cannot reach 30: bolters 20 x 2/3 x 1/2 x 1/3 = 20/9 plus
    # plasma 2 x 2/3 x 5/6 x 5/6 = 25/27 unsaved; 85/27 = 3.1481
    page.locator('[data-key="mean_wounds_lost"]', has_text="3.1481").first.wait_for()
    set_number(page, "weapons", "bolters: A=20 BS=3 S=4 D=1; plasma: A=2 BS=3 S=40 D=2")
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    assert error.inner_text().startswith("weapons: weapon 2 (plasma): S: expected an integer from 1 to 30")
    assert page.locator(".rb-input-weapons input").first.input_value().endswith("S=40 D=2")
    assert page.external_requests == []
