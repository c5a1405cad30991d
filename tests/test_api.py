"""The Python front door (``import rulesbook as rb``) answers as the command line does — the same
values for the same inputs, the same one-line errors — shows itself as HTML in Jupyter and as
the command line's text in a terminal, and costs nothing at ``import rulesbook``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesbook as rb
from rulesbook.cli import cli
from rulesbook.errors import InputError
from rulesbook.registry import registry
from tests.golden.record import GOLDEN
from tests.test_golden_examples import contains

RECORDED: dict[str, dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))


def _keywords(words: list[str]) -> dict[str, Any]:
    """CLI ``key=value`` words as keyword arguments (repeated ``variant=`` words as a list)."""
    out: dict[str, Any] = {}
    for word in words:
        key, _, value = word.partition("=")
        if key == "variant" and key in out:
            out[key] = [*([out[key]] if isinstance(out[key], str) else out[key]), value]
        else:
            out[key] = value
    return out


def _cli(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_calc_answers_every_golden_example_as_the_cli_recorded_it(name: str) -> None:
    case = RECORDED[name]
    _, calc_id, *words = case["args"]
    assert contains(rb.calc(calc_id, **_keywords(words)).to_json(), case["json"])


@pytest.mark.parametrize(
    "args",
    [
        ["scrollhammer.break-test", "ld=8", "lost_by=2", "variant=break-2-ld-per-point"],
        ["warstrike.strike-force-morale", "starting_units=10", "remaining_units=4", "hive_mind=true",
         "unit_lds=7,7,7,7", "officer_ld=none", "variant=hive-mind-ties-withdraw"],
        ["scrollhammer.morale-check", "ld=7", "modifier=-1"],
        ["wh40k.attack", "attacks=D6+3", "skill=3", "strength=5", "ap=-1", "damage=1",
         "abilities=sustained-hits-1,devastating-wounds", "toughness=4", "save=3", "wounds=2", "models=5"],
    ],
)  # fmt: skip
def test_calc_json_and_text_are_the_clis(args: list[str]) -> None:
    answer = rb.calc(args[0], **_keywords(args[1:]))
    out = _cli("calc", *args, "--json")
    assert out.exit_code == 0, out.output
    assert answer.to_json() == json.loads(out.output)
    text = _cli("calc", *args)
    assert str(answer) == repr(answer) == text.output.rstrip("\n")


@pytest.mark.parametrize(
    "args",
    [
        ["scrollhammer.nope"],
        ["scrollhammer.morale-check", "ld=x"],
        ["scrollhammer.morale-check", "ld=13"],
        ["scrollhammer.morale-check", "ld=7", "wibble=1"],
        ["scrollhammer.morale-check"],
        ["scrollhammer.morale-check", "ld=7", "falling_back=yes"],
        ["scrollhammer.fall-back", "ld=7", "distance=5", "fall_back_dice=2D6+"],
        ["scrollhammer.morale-check", "ld=7", "variant=no-such-variant"],
        ["scrollhammer.morale-check", "ld=7", "variant=hive-mind-ties-withdraw"],
        ["wh40k.attack", "attacks=1", "skill=3", "strength=4", "ap=0", "damage=1", "toughness=4",
         "save=3", "wounds=1", "ranged=false", "overwatch=true"],
    ],
)  # fmt: skip
def test_bad_input_is_the_clis_one_line_error(args: list[str]) -> None:
    out = _cli("calc", *args)
    assert out.exit_code == 2
    with pytest.raises(InputError) as err:
        rb.calc(args[0], **_keywords(args[1:]))
    assert out.output == f"rulesbook: error: {err.value}\n"


@settings(max_examples=40, deadline=None)
@given(ld=st.integers(0, 12), modifier=st.integers(-6, 6), heroism=st.booleans())
def test_python_values_and_cli_texts_give_the_same_answer(ld: int, modifier: int, heroism: bool) -> None:
    python = rb.calc("scrollhammer.morale-check", ld=ld, modifier=modifier, insane_heroism=heroism)
    texts = rb.calc(
        "scrollhammer.morale-check", ld=str(ld), modifier=str(modifier), insane_heroism=str(heroism).lower()
    )
    assert python.to_json() == texts.to_json()
    assert python.inputs == texts.inputs


def test_answer_reads_like_the_result() -> None:
    answer = rb.calc("scrollhammer.morale-check", ld=7, modifier=-1)
    result = registry().calculator("scrollhammer.morale-check").run(ld=7, modifier=-1)
    assert answer["p_pass_exact"] == "5/12" and answer.values == result.values
    assert answer.tables == result.tables and answer.explanation == result.explanation
    assert answer.table("outcomes") == result.table("outcomes")
    assert answer.variant is None and answer.inputs["modifier"] == -1


def test_rule_text_is_the_clis() -> None:
    rule_id = "scrollhammer.morale.insane-heroism"
    rule = rb.rule(rule_id)
    assert str(rule) == repr(rule) == _cli("rule", rule_id).output.rstrip("\n")
    assert rule.to_json() == json.loads(_cli("rule", rule_id, "--json").output)
    with pytest.raises(InputError, match=r"^rule: unknown rule ID 'scrollhammer\.nope'"):
        rb.rule("scrollhammer.nope")


def test_variant_by_name_or_path(tmp_path: Path) -> None:
    assert rb.variant("break-2-ld-per-point").name == "break-2-ld-per-point"
    file = tmp_path / "three-dice.yaml"
    file.write_text("system: scrollhammer\ntitle: Fall Back 3D6\nparameters: {fall_back_dice: 3D6}\n")
    variant = rb.variant(str(file))
    assert variant.name == "three-dice" and variant.system == "scrollhammer"
    two = rb.calc("scrollhammer.fall-back-move", distance=7)
    three = rb.calc("scrollhammer.fall-back-move", distance=7, variant=variant)
    assert three.variant == variant and three["p_flees_exact"] != two["p_flees_exact"]
    with pytest.raises(InputError, match=r"^variant: unknown variant 'nope'"):
        rb.variant("nope")


def test_calculator_ids_lists_ids() -> None:
    assert rb.calculator_ids() == tuple(registry().calculators)
    assert rb.calculator_ids("army-morale") == (
        "army-morale.detachment-value",
        "army-morale.rally",
        "army-morale.replay",
    )
    with pytest.raises(InputError, match=r"^system:"):
        rb.calculator_ids("nope")


def test_unknown_names_are_attribute_errors() -> None:
    assert {"calc", "rule", "variant", "widget", "calculator_ids"} <= set(dir(rb))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        rb.nope  # noqa: B018


def _python(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return out.stdout


def test_import_rulesbook_loads_nothing_until_a_name_is_used() -> None:
    code = """
import sys
import rulesbook as rb
print(sorted(m for m in sys.modules if m.startswith(("rulesbook.", "widgets", "icepool", "yaml"))))
rb.calc("scrollhammer.morale-check", ld=7)
print(sorted(m for m in sys.modules if m.startswith(("widgets", "ipywidgets", "panel", "IPython", "bokeh"))))
print(sorted(m for m in sys.modules if m.startswith("rulesbook.systems.") and m.count(".") == 2))
rb.widget("scrollhammer.morale-check", ld=7)
print("widgets.forms.ipy" in sys.modules)
"""
    bare, after_calc, systems, widget = _python(code).splitlines()
    assert bare == "[]"  # not even the registry: the front door is loaded on first use
    assert after_calc == "[]"  # no front-end for an answer
    assert systems == "['rulesbook.systems.scrollhammer']"  # only the calculator's own system, as the CLI
    assert widget == "True"


def test_widget_is_the_generated_form() -> None:
    form = rb.widget("scrollhammer.morale-check", ld=8, modifier=-1)
    assert form.calc.id == "scrollhammer.morale-check" and form.values()["ld"] == 8
    assert 'data-key="p_pass_exact">7/12<' in form.output.value
    with pytest.raises(InputError, match=r"^calculator:"):
        rb.widget("scrollhammer.nope")


# -- how the objects show themselves -----------------------------------------------------------------


def _headers(html: str) -> list[str]:
    return re.findall(r"<th[^>]*>([^<]*)</th>", html)


@pytest.mark.parametrize("calc_id", sorted(registry().calculators))
def test_an_answer_in_a_notebook_is_html_with_labels_percentages_and_a_chart(calc_id: str) -> None:
    calc = registry().calculator(calc_id)
    answer = rb.calc(calc_id, **dict(calc.examples[0]))
    page = answer._repr_html_()
    assert "<style>" in page and f'data-calculator="{calc_id}"' in page
    assert f">{calc.title}</h3>" in page.replace("&#x27;", "'")
    for out in calc.outputs:
        if out.key in answer.values and out.kind not in ("table", "list"):
            assert f">{out.label}<".replace("'", "&#x27;") in page, out.key
    probabilities = [o for o in calc.outputs if o.kind == "probability" and o.key in answer.values]
    for out in probabilities:
        assert f'data-key="{out.key}">' in page and "%<" in page
    if probabilities or any(o.chart for o in calc.outputs):
        assert "<svg" in page, "no chart"
    assert not [h for h in _headers(page) if re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)+", h)], (
        "a raw key as a header"
    )
    if answer.explanation:
        assert "<li>" in page
    markdown = answer._repr_markdown_()
    assert markdown.startswith(f"### {calc.title}\n") and f"`{calc_id}`" in markdown


def test_ipython_shows_an_answer_as_html_markdown_and_the_clis_text() -> None:
    from IPython.core.formatters import DisplayFormatter

    answer = rb.calc("scrollhammer.morale-check", ld=7, modifier=-1)
    data, _ = DisplayFormatter().format(answer)
    assert data["text/plain"] == str(answer)
    page = data["text/html"]
    assert "<b>Leadership (Ld)</b> 7 · <b>Ld modifier</b> -1" in page  # the inputs given
    assert 'data-key="p_pass">41.7%</span>' in page and ">5/12</span>" in page
    assert '<figure class="rb-chart"' in page and "P(pass): 41.7%" in page  # the chances drawn
    assert "<li>" in page and 'data-table="outcomes"' in page  # the explanation and a labelled table
    assert "| P(pass) | 41.7% | `5/12` |" in data["text/markdown"]


def test_a_variant_answer_names_its_variant() -> None:
    answer = rb.calc("scrollhammer.break-test", ld=8, lost_by=2, variant="break-2-ld-per-point")
    assert str(answer).startswith("Variant break-2-ld-per-point: ")
    assert "variant <b>break-2-ld-per-point</b>" in answer._repr_html_()


def test_a_rule_in_a_notebook_shows_its_text_source_and_links() -> None:
    from IPython.core.formatters import DisplayFormatter

    rule = rb.rule("scrollhammer.morale.insane-heroism")
    data, _ = DisplayFormatter().format(rule)
    page = data["text/html"]
    assert "<h3>Insane Heroism <small><code>scrollhammer.morale.insane-heroism</code></small></h3>" in page
    assert "<p>Now and then warriors hold on" in page  # the text, its Markdown rendered
    assert "Source: " in page and "<code>scrollhammer.morale-check</code>" in page
    assert "<li>insane_heroism: true — Insane Heroism" in page  # the parameters a variant can change
    assert data["text/markdown"].startswith("### Insane Heroism `scrollhammer.morale.insane-heroism`\n")
    assert data["text/plain"] == str(rule)
