"""The datasheet calculator (wh40k.datasheet-attack) served live, in a real browser."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import read_value, set_number

pytestmark = pytest.mark.browser


@pytest.mark.covers(
    "wh40k.death-guard.stratagem.ferric-blight", "wh40k.death-guard.ability.diseased-influence"
)
def test_wh40k_datasheet_attack_live_calculator(served: str, page: Any) -> None:
    page.goto(f"{served}/calc/wh40k.datasheet-attack")
    read_value(page, "mean_models_destroyed")  # the first example: Rotwind and The Lantern, round 3
    set_number(page, "weapons", "the-lantern")
    set_number(page, "battle_round", 1)  # 3" of Contagion Range: the target 6" away is out of it
    # The Lantern: 7/6 hits; wounds T4 on 2+ re-rolling 1s (Diseased Influence): 35/36; Ferric
    # Blight makes AP-4, so Sv 3+ has no save; each D3 hit kills a W2 model: 245/216 = 1.1343
    page.locator('[data-key="mean_models_destroyed"]', has_text="1.1343").first.wait_for()
    set_number(page, "stratagems", "ferric-blight,disgustingly-resilient")
    warning = page.locator(".rb-warning", has_text="Disgustingly Resilient: a fight phase effect").first
    warning.wait_for()
    page.locator('[data-key="mean_models_destroyed"]', has_text="1.1343").first.wait_for()
    set_number(page, "weapons", "silence-strike,silence-sweep")
    error = page.locator('[data-key="error"]').first
    error.wait_for()
    assert error.inner_text().startswith("weapons: one profile at a time")
    assert page.external_requests == []
