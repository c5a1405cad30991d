"""What a variant adds appears in the forms (issue 34): the inputs it adds (``add: inputs``) in
every form of a calculator it reaches while that form compares with it — the served Panel form
and the published site's in-browser form — and each calculator it adds (``add: calculators``)
gets a form of its own, computing under it: a served page for the operator's variant, a form on
the static variants page for a pasted one.

Oracles: the Break test and the Terror test counted over the 36 rolls of two dice here, as the
example files' comments state the rules; which calculators an example reaches, from the
declarations (each calculator's declared tests and what they extend).
"""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from rulesbook.data import load_data_file
from rulesbook.registry import registry
from rulesbook.variants import load_variant, variant_calculators
from tests.test_designer_variants_everywhere import _reached
from widgets.forms import browser
from widgets.forms.compare import added_inputs, answer
from widgets.forms.panel_app import CalculatorApp, served_calculator_app
from widgets.server.page import page_title
from widgets.server.routes import app_factories

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "designer"
ROLLS = list(itertools.product(range(1, 7), repeat=2))


def leadership(target: int) -> Fraction:
    """2D6 at most ``target`` passes, and so does a double 1."""
    return Fraction(sum(a + b <= target or a == b == 1 for a, b in ROLLS), 36)


def rerolled(once: Fraction) -> Fraction:
    return once + (1 - once) * once


def shown(html: str, key: str = "p_pass", variant: str | None = None) -> list[Fraction]:
    """The exact values of ``key`` in a result pane (of one side, ``variant``, if given)."""
    if variant is not None:
        html = html.split(f'data-variant="{variant}"', 1)[1].split("data-variant=", 1)[0]
    return [Fraction(v) for v in re.findall(rf'data-key="{key}_exact"[^>]*>([^<]+)<', html)]


@pytest.fixture
def designer_variants(monkeypatch: pytest.MonkeyPatch) -> None:
    """The operator put the shipped designer examples in ``$RULESBOOK_VARIANTS_DIR``."""
    monkeypatch.setenv("RULESBOOK_VARIANTS_DIR", str(EXAMPLES))


@pytest.mark.parametrize("name", ["standard-reroll", "character-near"])
def test_the_inputs_a_variant_adds_are_offered_where_it_reaches_with_their_declaration(name: str) -> None:
    raw = load_data_file(EXAMPLES / f"{name}.yaml")
    variant = load_variant(EXAMPLES / f"{name}.yaml")
    declared = raw["add"]["inputs"]
    reached = _reached(raw["system"], set(raw["add"]["tests"]))
    assert reached  # (the example reaches something: standard-reroll the Break test, …)
    for calc in registry().calculators_for_system(raw["system"]):
        inputs = added_inputs(calc, variant)
        if calc.id not in reached:
            assert inputs == (), calc.id
            continue
        assert [i.key for i in inputs] == list(declared), calc.id
        for inp in inputs:
            assert (inp.title, inp.help, inp.default) == (
                declared[inp.key]["label"],
                declared[inp.key]["help"],
                declared[inp.key]["default"],
            )
    assert "wh40k.attack-and-battle-shock" in reached or name != "character-near"


def test_the_served_form_shows_an_added_input_while_its_variant_is_compared(designer_variants: None) -> None:
    app = CalculatorApp(registry().calculator("scrollhammer.break-test"), ld=8, lost_by=2)
    assert app.added == {} and "has_standard" not in app.values()
    app.compare.value = "standard-reroll"
    box = app.added["has_standard"]
    assert (box.name, box.value, box.css_classes) == ("Carries a standard", False, ["rb-input-has_standard"])
    assert list(app.added_box.objects) == [box]
    once = leadership(6)
    assert shown(app.result.object, variant="standard-reroll") == [once]
    box.value = True  # answered at once, both sides: the published rules have no standard
    assert shown(app.result.object, variant="baseline") == [once]
    assert shown(app.result.object, variant="standard-reroll") == [rerolled(once)]
    app.compare.value = "any-double"  # another variant: the input goes, and nothing fails
    assert app.added == {} and 'data-key="error"' not in app.result.object
    app.compare.value = "standard-reroll"  # back: from its declared default again
    assert app.added["has_standard"].value is False


def test_the_served_site_gives_an_operator_s_added_calculator_a_page(designer_variants: None) -> None:
    assert variant_calculators() == {"scrollhammer.terror-test": "terror-test"}
    assert "calc/scrollhammer.terror-test" in app_factories(None)
    assert page_title("calc/scrollhammer.terror-test") == "Terror test · rulesbook"
    view = served_calculator_app("scrollhammer.terror-test", None, "terror-test")
    assert view is not None
    from widgets.forms.compare import form_calculator

    app = CalculatorApp(form_calculator("scrollhammer.terror-test", "terror-test")[0], "terror-test")
    assert not app.compare.visible and app.variant_file is None  # nothing to compare with
    assert [w.name for w in app.widgets.values()] == ["Leadership (Ld)", "Ld modifier"]
    app.widgets["ld"].value, app.widgets["modifier"].value = 8, -2
    assert shown(app.result.object) == [leadership(5)]
    assert "rb-added-note" in app.result.object and "Terror tests" in app.result.object
    assert "Terror test: roll 2D6; a total of 5 or less passes" in app.result.object  # its explanation


def test_a_request_names_a_variant_never_a_file(designer_variants: None) -> None:
    path = str(EXAMPLES / "terror-test.yaml")
    refused = answer("scrollhammer.terror-test", {"ld": "7"}, path)
    assert refused.error.startswith("variant: unknown variant") and "never a file" in refused.error
    unnamed = answer("scrollhammer.terror-test", {"ld": "7"})  # only its variant has it
    assert unnamed.error.startswith(
        "calculator: unknown calculator ID 'scrollhammer.terror-test'; did you mean"
    )
    assert added_inputs(registry().calculator("scrollhammer.break-test"), path) == ()


def test_the_browser_form_takes_the_inputs_of_a_pasted_house_rule() -> None:
    browser.start("scrollhammer")
    text = (EXAMPLES / "standard-reroll.yaml").read_text(encoding="utf-8")
    assert json.loads(browser.house_rule(text))["calculators"] == ""
    fields = browser.added_fields("scrollhammer.break-test", browser.HOUSE)
    assert (
        'type="checkbox"' in fields and 'data-key="has_standard"' in fields and "Carries a standard" in fields
    )
    assert browser.added_fields("scrollhammer.panic-test", browser.HOUSE) == ""
    assert browser.added_fields("scrollhammer.break-test") == ""
    values = {"ld": "9", "lost_by": "3", "has_standard": "true"}
    html = browser.answer("scrollhammer.break-test", values, browser.HOUSE, changed="has_standard")
    (house,) = set(re.findall(r'data-variant="([^"]+)"', html)) - {"baseline"}
    assert shown(html, variant=house) == [rerolled(leadership(6))]
    assert shown(html, variant="baseline") == [leadership(6)]


def test_a_pasted_house_rule_s_calculator_gets_a_form_that_computes_it() -> None:
    browser.start("scrollhammer")
    reply = json.loads(browser.house_rule((EXAMPLES / "terror-test.yaml").read_text(encoding="utf-8")))
    boxes = reply["calculators"]
    assert (
        boxes.count('class="rb-static-calc rb-house-calc"') == 1
        and 'data-calc="scrollhammer.terror-test"' in boxes
    )
    assert f'<input type="hidden" data-key="variant" name="variant" value="{browser.HOUSE}">' in boxes
    assert 'data-key="ld"' in boxes and 'data-key="modifier"' in boxes and "Compare with" not in boxes
    for ld, modifier in [(7, 0), (8, -2), (2, 0), (12, 3)]:
        html = browser.answer(
            "scrollhammer.terror-test", {"ld": str(ld), "modifier": str(modifier)}, browser.HOUSE
        )
        assert shown(html) == [leadership(ld - 1 + modifier)], (ld, modifier)
    assert 'data-key="error"' in browser.answer("scrollhammer.terror-test", {"ld": "7"})
    browser.house_rule("")


def test_the_notebook_form_shows_an_added_input_while_its_variant_is_compared(
    designer_variants: None,
) -> None:
    from widgets.forms.ipy import calculator_widget

    form = calculator_widget("scrollhammer.break-test", "standard-reroll", ld=9, lost_by=3, has_standard=True)
    box = form.added["has_standard"]
    assert (box.description, box.value) == ("Carries a standard", True)
    assert list(form.added_box.children) == [box]
    once = leadership(6)
    assert shown(form.output.value, variant="standard-reroll") == [rerolled(once)]
    form.compare.value = "none"
    assert form.added == {} and shown(form.output.value) == [once]
    form.compare.value = "standard-reroll"  # back: from its declared default
    assert form.added["has_standard"].value is False
    assert shown(form.output.value, variant="standard-reroll") == [once]


def test_the_served_variants_page_links_the_calculators_the_operator_s_variants_add(
    designer_variants: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulesbook.site.variants_page import house_rule_section

    monkeypatch.setenv("RULESBOOK_STATIC", "false")
    served = "\n".join(house_rule_section())
    assert (
        '<a href="/calc/scrollhammer.terror-test">`scrollhammer.terror-test`</a> — variant `terror-test`'
        in served
    )
    monkeypatch.setenv("RULESBOOK_STATIC", "true")  # the published site: the box takes them instead
    assert "/calc/" not in "\n".join(house_rule_section())
