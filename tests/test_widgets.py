"""Forms generated from declarations: ipywidgets and Panel, good and bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulesbook.calculators import Calculator, Output
from rulesbook.inputs import BoolInput, ChoiceInput, DiceInput, IntInput, IntListInput
from rulesbook.registry import registry
from rulesbook.results import CalcResult, probability_values
from widgets.forms.ipy import CalculatorForm
from widgets.forms.panel_app import CalculatorApp


def _demo_compute(*, dice: Any, n: int, flag: bool, mode: str, values: tuple[int, ...]) -> CalcResult:
    from fractions import Fraction

    p = dice.distribution().p_at_least(n)
    return CalcResult(
        {**probability_values("p_hit", p), "count": len(values), "flag": flag, "mode": mode},
        explanation=(f"P = {Fraction(p)}",),
    )


DEMO = Calculator(
    id="demo.every-kind",
    title="Demo",
    system="demo",
    summary="One input of each kind.",
    inputs=(
        DiceInput(key="dice", help="dice", default="2D6"),
        IntInput(key="n", help="target", minimum=1, maximum=20, default=7),
        BoolInput(key="flag", help="a flag", default=False),
        ChoiceInput(key="mode", help="mode", choices=("a", "b"), default="a"),
        IntListInput(key="values", help="values", minimum=2, maximum=12, default=(7, 8)),
    ),
    outputs=(Output("p_hit", "P(hit)"), Output("count", "count", "count")),
    compute=_demo_compute,
    rules=(),
)


def test_ipywidgets_form_is_generated_from_the_declaration() -> None:
    form = CalculatorForm(DEMO)
    assert list(form.controls) == [i.key for i in DEMO.inputs]
    assert type(form.controls["n"]).__name__ == "IntText"
    assert type(form.controls["flag"]).__name__ == "Checkbox"
    assert type(form.controls["mode"]).__name__ == "Dropdown"
    assert type(form.controls["dice"]).__name__ == "Text"
    assert 'data-key="p_hit_exact">7/12<' in form.output.value
    form.controls["n"].value = 12
    assert 'data-key="p_hit_exact">1/36<' in form.output.value


def test_ipywidgets_bad_text_shows_error_and_keeps_input() -> None:
    form = CalculatorForm(DEMO)
    form.controls["dice"].value = "2D"
    assert 'class="rb-error"' in form.output.value and "dice: expected a dice expression" in form.output.value
    assert form.controls["dice"].value == "2D"
    form.controls["values"].value = "7,x"
    form.controls["dice"].value = "D6"
    assert "values: expected a comma-separated list" in form.output.value
    form.controls["values"].value = "7, 9"
    assert 'data-key="count">2<' in form.output.value
    form.controls["n"].value = 21
    assert "n: expected an integer from 1 to 20, got 21" in form.output.value
    assert form.controls["n"].value == 21


def test_panel_app_is_generated_and_recomputes() -> None:
    app = CalculatorApp(DEMO)
    assert list(app.widgets) == [i.key for i in DEMO.inputs]
    assert "rb-input-n" in app.widgets["n"].css_classes
    app.widgets["n"].value = 12
    assert 'data-key="p_hit_exact">1/36<' in app.result.object
    app.widgets["dice"].value = "D6+"
    assert "dice: expected" in app.result.object
    assert app.widgets["dice"].value == "D6+"


@pytest.mark.covers("scrollhammer.morale-check")
def test_every_registered_calculator_builds_both_forms() -> None:
    for calc in registry().calculators.values():
        form = CalculatorForm(calc)
        assert 'class="rb-error"' not in form.output.value, f"{calc.id}: {form.output.value[:300]}"
        app = CalculatorApp(calc)
        assert 'class="rb-error"' not in app.result.object
        assert "data-key=" in app.result.object


# -- notebook forms start where rb.calc starts (issue 34, part 7) ----------------------------------


def test_a_list_given_as_text_stays_one_word_in_the_notebook_form() -> None:
    """``weapons="rotwind"`` is the weapon Rotwind, never the letters r, o, t, w, i, n, d."""
    import rulesbook as rb
    from rulesbook.calculators import form_text
    from widgets.forms.panel_app import widget_for

    form = rb.widget("wh40k.datasheet-attack", weapons="rotwind")
    assert form.controls["weapons"].value == "rotwind"
    assert 'class="rb-error"' not in form.output.value
    want = rb.calc("wh40k.datasheet-attack", weapons="rotwind")
    assert f'data-key="p_unit_destroyed_exact">{want["p_unit_destroyed_exact"]}<' in form.output.value
    inp = registry().calculator("wh40k.datasheet-attack").input("weapons")
    assert widget_for(inp, "rotwind").value == "rotwind"  # the served form's box alike
    assert form_text(inp, ("rotwind", "the-lantern")) == "rotwind,the-lantern"


def test_a_notebook_form_starts_from_the_defaults() -> None:
    """Given Ld 8 only, the Morale check form takes no modifier (the default 0), as ``rb.calc``:
    2D6 at most 8 is 26 of the 36 rolls (all but the 4 + 3 + 2 + 1 ways of 9 to 12)."""
    import rulesbook as rb

    form = rb.widget("scrollhammer.morale-check", ld=8)
    assert form.controls["modifier"].value == 0
    assert 'data-key="p_pass_exact">13/18<' in form.output.value
    assert rb.calc("scrollhammer.morale-check", ld=8)["p_pass_exact"] == "13/18"
    assert "rb-form-start" not in form.widget.children[0].value  # nothing taken from the example


@pytest.mark.covers("scrollhammer.morale-check")
def test_every_notebook_form_starts_from_defaults_and_names_what_the_worked_example_gives() -> None:
    """Left without values, a form holds each input's default (or the start its declaration
    gives, Warstrike's officer Ld 8); an input with no default holds the first worked example's
    value, and the form says which; every one answers."""
    for calc in registry().calculators.values():
        form = CalculatorForm(calc)
        required = [i.key for i in calc.inputs if i.required]
        example = calc.examples[0]
        start = {i.key: i.initial for i in calc.inputs if not i.required}  # a default or declared start
        want = calc.run(**start, **{k: example[k] for k in required})
        assert calc.run(**form.values()).values == want.values, calc.id
        assert 'class="rb-error"' not in form.output.value, calc.id
        note = form.widget.children[0].value
        if required:
            assert "rb-form-start" in note and all(f"{k}={example[k]}" in note for k in required), calc.id
        else:
            assert "rb-form-start" not in note, calc.id


def test_a_form_s_starting_values_are_checked_in_one_line() -> None:
    from rulesbook.errors import InputError

    calc = registry().calculator("scrollhammer.morale-check")
    with pytest.raises(InputError, match=r"^ldd: unknown input for scrollhammer.morale-check; allowed: ld, "):
        CalculatorForm(calc, ldd=7)
    with pytest.raises(InputError, match=r"^ld: expected an integer"):
        CalculatorForm(calc, ld="seven")
    assert CalculatorForm(calc, ld="9", insane_heroism="false").controls["insane_heroism"].value is False


def test_an_uploaded_file_is_deleted_when_its_session_ends() -> None:
    """The served form keeps an upload in a private temporary folder while its page is open;
    closing the session (what the server calls when the page's session is destroyed) deletes it."""
    from rulesbook.systems.army_morale.log import EXAMPLE_LOG

    app = CalculatorApp(registry().calculator("army-morale.replay"))
    box = app.widgets["log"]
    box.filename, box.text = "my game.yaml", EXAMPLE_LOG.read_text()
    box.sent += 1  # (what the browser does once the file passed its checks)
    kept = Path(app.uploads["log"].path())
    assert kept.name == "my game.yaml" and kept.read_text() == EXAMPLE_LOG.read_text()
    app.close()
    assert not kept.exists() and not kept.parent.exists()
