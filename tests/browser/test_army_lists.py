"""Army lists in the browser (issue 36): a roster chosen in the served datasheet calculator (a
zipped .rosz and a New Recruit .json) answers as the command line does and its units join the
pick lists; the Army Morale tracker's set-up fills a side from an Epic-scale roster. The file is
sent as data, never named as a path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from playwright.sync_api import expect

from rulesbook.cli import cli
from tests.browser.conftest import read_value, set_number

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "rosters" / "data"
ARTIFACTS = ROOT / "test-artifacts"


def _cli(*args: str) -> dict[str, Any]:
    out = CliRunner().invoke(cli, ["calc", "wh40k.datasheet-attack", *args, "--json"])
    assert out.exit_code == 0, out.stderr
    return dict(json.loads(out.stdout)["result"])


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_a_roster_in_the_served_calculator_answers_and_offers_its_units(served: str, page: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{served}/calc/wh40k.datasheet-attack")
    read_value(page, "mean_models_destroyed")
    page.locator(".rb-input-faction input[type=file]").first.set_input_files(str(DATA / "rust-legion.rosz"))
    # the page opens on its worked example (Mortarion, his aura, stratagems and detachment), which
    # the list does not hold: each follows the list, said above the answer (issue 37)
    page.locator('[data-key="mended"]', has_text="Attacker datasheet set to rust-lord").first.wait_for()
    assert page.locator('[data-key="error"]').count() == 0
    page.locator(".rb-input-target_faction input[type=file]").first.set_input_files(
        str(DATA / "bog-horde.json")
    )
    expect(page.locator(".rb-input-stratagems input").first).to_have_value("")
    set_number(page, "battle_round", "1")
    set_number(page, "attacker", "rustguard-squad-2")
    set_number(page, "weapons", "rust-rifle,plasma-burner-standard")
    set_number(page, "target", "bog-wardens")
    page.locator(".rb-more .card-header").first.click()  # the rest of the inputs, folded
    expect(page.locator(".rb-input-aura select").first).to_have_value("none")
    expect(page.locator(".rb-input-detachment input").first).to_have_value("none")
    set_number(page, "target_leader", "bog-shaman")
    expected = _cli(
        f"faction={DATA / 'rust-legion.rosz'}",
        "attacker=rustguard-squad-2",
        "weapons=rust-rifle,plasma-burner-standard",
        f"target_faction={DATA / 'bog-horde.json'}",
        "target=bog-wardens",
        "target_leader=bog-shaman",
    )
    mean = f"{expected['mean_models_destroyed']:.4f}"  # as the page shows a number
    page.locator('[data-key="mean_models_destroyed"]', has_text=mean).first.wait_for()
    # the roster's weapons are offered in the weapons pick list
    picker = page.locator(".rb-pick-weapons input").first
    picker.click()
    picker.fill("plasma")
    page.locator(".rb-pick-weapons .choices__item", has_text="plasma-burner-supercharge").first.wait_for()
    picker.press("Escape")
    _shot(page, "army-list-served-calculator")
    assert page.external_requests == []


def test_the_tracker_set_up_fills_a_side_from_an_epic_roster(served: str, page: Any, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{served}/app/army-morale-tracker")
    page.locator(".am-roster-a input[type=file]").first.set_input_files(str(DATA / "steel-company.rosz"))
    page.locator(
        ".am-setup-error", has_text="5 detachments filled in from the roster Steel company"
    ).first.wait_for()
    assert page.locator(".am-det-a-0-name input").first.input_value() == "Infantry Company"
    assert page.locator(".am-det-a-2-war-engines input").first.input_value().startswith("Baneblade 3 200 pts")
    wrong = tmp_path / "army.rosz"
    wrong.write_bytes((DATA / "rust-legion.rosz").read_bytes())
    page.locator(".am-roster-b input[type=file]").first.set_input_files(str(wrong))
    page.locator(".am-setup-error", has_text="a roster of 'Warhammer 40,000 10th Edition'").first.wait_for()
    _shot(page, "army-list-tracker-set-up")
    assert page.external_requests == []


# -- the published site: the file never leaves the browser ---------------------------------------

from tests.browser.test_live_static_site import _live, _page, live_host, visits  # noqa: E402,F401

STATIC_PAGE = "wh40k/calculators/wh40k.datasheet-attack.html"


def test_a_roster_on_the_published_site_stays_in_the_browser(live_host: str, visits: Any) -> None:  # noqa: F811
    page = _page(visits, 1280)
    sent: list[str] = []
    page.on("request", lambda req: sent.append(req.url) if req.method != "GET" else None)
    try:
        page.goto(f"{live_host}/{STATIC_PAGE}")
        box = _live(page)
        form = box.locator("form.rb-live-form")
        form.locator('[data-key="faction"]').set_input_files(str(DATA / "rust-legion.rosz"))
        listed = form.locator('datalist option[value="rustguard-squad-2"]')
        listed.first.wait_for(state="attached")
        form.locator('select.rb-pick[data-pick-for="weapons"] option[value="rust-rifle"]').first.wait_for(
            state="attached"
        )
        # Mortarion's worked example follows the list: his aura, stratagems and detachment are not in it
        box.locator('[data-key="mended"]', has_text="Attacker datasheet set to rust-lord").first.wait_for()
        expect(form.locator('[data-key="aura"]')).to_have_value("none")
        expect(form.locator('[data-key="sickness"]')).to_have_value("none")
        expect(form.locator('input[data-key="stratagems"]')).to_have_value("")
        expect(form.locator('input[data-key="detachment"]')).to_have_value("none")
        for key, text in (("attacker", "rustguard-squad-2"), ("weapons", "rust-rifle")):
            form.locator(f'input[data-key="{key}"]').fill(text)
        expected = _cli(
            f"faction={DATA / 'rust-legion.rosz'}",
            "attacker=rustguard-squad-2",
            "weapons=rust-rifle",
            "battle_round=3",
            "models=10",
            "distance=6",
        )
        page.locator(
            '.rb-static-result [data-key="mean_models_destroyed"]',
            has_text=f"{expected['mean_models_destroyed']:.4f}",
        ).first.wait_for(timeout=60_000)
        assert sent == [] and page.blocked == []  # nothing sent anywhere: the file stayed in the browser
    finally:
        page.close()
