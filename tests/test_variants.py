"""Designer variants: files validated to one line, composed, applied, compared, on the CLI."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest
from click.testing import CliRunner, Result
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulesbook.choices import Parameters, Readings, RuleChoices, parameter, reading
from rulesbook.cli import cli
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.variants import (
    Variant,
    compare,
    compose,
    load_variant,
    resolve_variant,
    rule_parameters,
    run_with_variant,
    shipped_variants,
)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


BAD_VARIANTS = [
    pytest.param(
        "system: wh40k\ntitle: x\nparameters:\n  battle_shock_dicee: 3D6\n",
        "bad.yaml, line 4: parameters.battle_shock_dicee: unknown rule parameter; did you mean battle_shock_dice or "
        "battle_shock_margin? allowed: blast_models_per_attack,",
        id="unknown-parameter",
    ),
    pytest.param(
        "system: wh40k\ntitle: x\nreadings:\n  wound_tabel: flat-4\n",
        "bad.yaml, line 4: readings.wound_tabel: unknown reading; did you mean wound_table? allowed: wound_table,",
        id="unknown-reading",
    ),
    pytest.param(
        "system: wh40k\ntitle: x\nsummary: y\n",
        "bad.yaml, line 3: summary: unknown key; allowed: system, title, description, parameters, readings",
        id="unknown-key",
    ),
    pytest.param(
        "system: wh40k\ntitle: x\nparameters:\n  deadly_demise_roll: five\n",
        "bad.yaml, line 4: parameters.deadly_demise_roll: expected an integer from 2 to 6, got 'five'",
        id="wrong-type",
    ),
    pytest.param(
        "system: wh40k\ntitle: x\nparameters:\n  battle_shock_dice: 2.5\n",
        "bad.yaml, line 4: parameters.battle_shock_dice:",
        id="wrong-type-dice",
    ),
    pytest.param(
        "system: wh40k\ntitle: x\nparameters:\n  deadly_demise_roll: 9\n",
        "bad.yaml, line 4: parameters.deadly_demise_roll: expected an integer from 2 to 6, got 9",
        id="out-of-bounds",
    ),
    pytest.param(
        "system: wh40k\ntitle: x\nreadings:\n  wound_table: flat-5\n",
        "bad.yaml, line 4: readings.wound_table: expected one of published, flat-4, got 'flat-5'",
        id="unknown-option",
    ),
    pytest.param(
        "system: wh40k\ntitle: x\nparameters:\n  points_per_morale: 40\n",
        "bad.yaml, line 4: parameters.points_per_morale: is a army-morale parameter, not wh40k's; unknown rule parameter",
        id="wrong-system",
    ),
    pytest.param(
        "system: wh40k\ntitle: x\nparameters: [battle_shock_dice\n",
        "bad.yaml: not valid YAML (line",
        id="malformed-yaml",
    ),
    pytest.param(
        "system: wh40k\nparameters:\n  deadly_demise_roll: 5\n",
        "bad.yaml: title: required; expected text",
        id="no-title",
    ),
    pytest.param(
        "system: chess\ntitle: x\n",
        "bad.yaml, line 1: system: unknown system 'chess'; systems with rule choices:",
        id="unknown-system",
    ),
    pytest.param("- just\n- a list\n", "bad.yaml: expected a mapping with keys system,", id="not-a-mapping"),
]


@pytest.mark.parametrize(("text", "start"), BAD_VARIANTS)
def test_a_bad_variant_file_is_one_line_naming_file_key_and_what_is_allowed(
    tmp_path: Path, text: str, start: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, "bad.yaml", text).relative_to(tmp_path)  # named as given: bad.yaml
    with pytest.raises(InputError) as caught:
        load_variant(path)
    assert str(caught.value).startswith(start), str(caught.value)
    assert "\n" not in str(caught.value)
    out = invoke("calc", "wh40k.battle-shock", "leadership=7", f"variant={path}")
    assert out.exit_code == 2
    assert out.stderr.strip() == f"rulesbook: error: {caught.value}"
    assert out.stdout == ""


@dataclass(frozen=True)
class DemoParameters(Parameters):
    ld_loss: int = parameter(1, label="Ld lost", rule="demo.break", section="Break", minimum=0, maximum=6)


@dataclass(frozen=True)
class DemoReadings(Readings):
    heroism: Literal["on", "off"] = reading("demo.interpretations.heroism", "on")


DEMO = RuleChoices("demo", DemoParameters(), DemoReadings())


def test_an_unquoted_yaml_boolean_for_a_reading_says_to_quote_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, "brave.yaml", "system: demo\ntitle: x\nreadings:\n  heroism: false\n").name
    with pytest.raises(InputError) as caught:
        load_variant(path, choices=DEMO)
    assert (
        str(caught.value)
        == "brave.yaml, line 4: readings.heroism: expected one of on, off; quote it in YAML, e.g. 'off'"
    )
    quoted = write(tmp_path, "brave2.yaml", "system: demo\ntitle: x\nreadings:\n  heroism: 'off'\n")
    assert load_variant(quoted, choices=DEMO).apply(DEMO).readings.heroism == "off"
    # the loader's strict schema reads a plain off (YAML 1.1's boolean) as the word it is
    plain = write(tmp_path, "brave3.yaml", "system: demo\ntitle: x\nreadings:\n  heroism: off\n")
    assert load_variant(plain, choices=DEMO).apply(DEMO).readings.heroism == "off"


@pytest.mark.covers("wh40k.battle-shock", "wh40k.core.battle-shock")
def test_a_variant_changes_the_number_and_leaves_the_baseline_alone() -> None:
    calc = registry().calculator("wh40k.battle-shock")
    variant = resolve_variant("battle-shock-3d6")
    assert run_with_variant(calc, variant, leadership=7)["p_pass_exact"] == "49/54"
    assert calc.run(leadership=7)["p_pass_exact"] == "7/12"
    assert str(registry().choices["wh40k"].parameters.battle_shock_dice) == "2D6"


def test_every_shipped_variant_loads_and_changes_something() -> None:
    shipped = shipped_variants()
    systems = {v.system for v in shipped.values()}
    assert {"wh40k", "army-morale"} <= systems
    for variant in shipped.values():
        assert variant.title and variant.description, variant.name
        assert variant.changes(), variant.name
        base = registry().choices[variant.system]
        assert variant.apply(base).changed(), variant.name
        assert Path(variant.path).is_file() or (Path(__file__).parents[1] / variant.path).is_file()


def test_composition_merges_and_a_conflict_is_one_line(tmp_path: Path) -> None:
    both = resolve_variant(["battle-shock-3d6", "deadly-demise-on-5"])
    assert both.name == "battle-shock-3d6+deadly-demise-on-5"
    assert dict(both.parameters).keys() == {"battle_shock_dice", "deadly_demise_roll"}
    other = write(tmp_path, "bs-4d6.yaml", "system: wh40k\ntitle: x\nparameters:\n  battle_shock_dice: 4D6\n")
    with pytest.raises(InputError) as caught:
        resolve_variant(["battle-shock-3d6", str(other)])
    assert str(caught.value) == (
        "variant: conflict: battle-shock-3d6 and bs-4d6 both set parameters.battle_shock_dice (3D6 vs 4D6); "
        "drop one, or write one variant that sets it"
    )
    with pytest.raises(InputError, match="changes wh40k rules and morale-per-40-points army-morale rules"):
        compose([resolve_variant("battle-shock-3d6"), resolve_variant("morale-per-40-points")])
    out = invoke("calc", "wh40k.battle-shock", "leadership=7", "variant=battle-shock-3d6", f"variant={other}")
    assert out.exit_code == 2 and "conflict:" in out.stderr


@pytest.mark.covers("wh40k.deadly-demise")
def test_calc_with_repeated_variants_composes_and_names_it_in_json() -> None:
    out = invoke(
        "calc",
        "wh40k.deadly-demise",
        "x=D6",
        "variant=battle-shock-3d6",
        "variant=deadly-demise-on-5",
        "--json",
    )
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert list(data) == ["calculator", "variant", "inputs", "result"]
    assert data["variant"] == "battle-shock-3d6+deadly-demise-on-5"
    assert data["result"]["p_explodes_exact"] == "1/3"
    plain = json.loads(invoke("calc", "wh40k.deadly-demise", "x=D6", "--json").stdout)
    assert "variant" not in plain and plain["result"]["p_explodes_exact"] == "1/6"


def test_calc_with_a_variant_of_another_system_says_so() -> None:
    out = invoke("calc", "wh40k.battle-shock", "leadership=7", "variant=morale-per-40-points")
    assert out.exit_code == 2
    assert out.stderr.strip() == (
        "rulesbook: error: variant: morale-per-40-points changes army-morale rules; "
        "wh40k.battle-shock is a wh40k calculator"
    )
    unknown = invoke("calc", "wh40k.battle-shock", "leadership=7", "variant=nope")
    assert unknown.exit_code == 2 and "unknown variant 'nope'; shipped: " in unknown.stderr


def test_variants_command_lists_name_system_title_path() -> None:
    out = invoke("variants", "--json")
    assert out.exit_code == 0, out.stderr
    items = json.loads(out.stdout)
    assert all(set(item) == {"name", "system", "title", "path"} for item in items)
    by_name = {item["name"]: item for item in items}
    assert by_name["morale-per-40-points"]["system"] == "army-morale"
    assert (
        by_name["morale-per-40-points"]["path"]
        == "rulesbook/systems/army_morale/variants/morale-per-40-points.yaml"
    )
    text = invoke("variants", "wh40k")
    assert "Battle-shock dice (battle_shock_dice): 2D6 → 3D6" in text.stdout
    assert "army-morale" not in text.stdout


@pytest.mark.covers("army-morale.detachment-value")
def test_compare_json_and_text() -> None:
    out = invoke(
        "compare", "army-morale.detachment-value", "points=230", "--variant", "morale-per-40-points", "--json"
    )
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["baseline"]["morale"] == 5
    [variant] = data["variants"]
    assert variant["variant"] == "morale-per-40-points"
    assert variant["result"]["morale"] == 6
    assert variant["difference"]["morale"] == {"value": 1}
    text = invoke("compare", "wh40k.battle-shock", "leadership=7", "--variant", "battle-shock-3d6")
    assert "+0.3241 (+35/108)" in text.stdout
    assert "p_pass: baseline 7/12, battle-shock-3d6 49/54" in text.stdout


def test_compare_says_when_a_variant_touches_nothing_the_calculator_declares() -> None:
    calc = registry().calculator("wh40k.hazardous")
    result = compare(calc, {"weapons": 2}, ["battle-shock-3d6"])
    assert result.notes == ("battle-shock-3d6 changes no parameter or reading that wh40k.hazardous declares",)
    assert all(
        row["differences"]["battle-shock-3d6"] == {"value": 0.0, "exact": "0"} for row in result.rows()
    )


def test_an_input_given_beside_a_variant_wins_and_compare_says_so() -> None:
    calc = registry().calculator("scrollhammer.fall-back-move")
    result = compare(calc, {"fall_back_dice": "2D6", "distance": 12}, ["fall-back-3d6"])
    assert result.notes[0] == "fall_back_dice given as an input: fall-back-3d6's value does not apply"
    left_out = compare(calc, {"distance": 12}, ["fall-back-3d6"])
    assert [r["exact"]["fall-back-3d6"] for r in left_out.rows() if r["key"] == "p_flees"] == ["3/8"]


def test_compare_needs_a_variant_and_rejects_bad_inputs() -> None:
    out = invoke("compare", "wh40k.battle-shock", "leadership=70", "--variant", "battle-shock-3d6")
    assert out.exit_code == 2 and out.stderr.startswith("rulesbook: error: leadership: expected an integer")
    assert invoke("compare", "wh40k.battle-shock", "leadership=7").exit_code == 2


def test_a_python_variant_replaces_a_calculators_function() -> None:
    calc = registry().calculator("wh40k.battle-shock")

    def coin_flip(**inputs: object) -> object:
        return calc.compute(**{**inputs, "leadership": 7, "modifier": 0})

    variant = Variant.define(
        "steady", system="wh40k", title="Always Ld 7", functions={"wh40k.battle-shock": coin_flip}
    )
    assert run_with_variant(calc, variant, leadership=12)["p_pass_exact"] == "7/12"
    assert calc.run(leadership=12)["p_pass_exact"] == "1/36"
    with pytest.raises(InputError, match=r"army-morale\.detachment-value is not a wh40k calculator"):
        Variant.define("x", system="wh40k", title="x", functions={"army-morale.detachment-value": coin_flip})


def test_rule_command_lists_the_parameters_a_variant_can_change() -> None:
    out = invoke("rule", "wh40k.core.battle-shock")
    assert out.exit_code == 0, out.stderr
    assert "Parameters a variant can change" in out.stdout
    assert "battle_shock_dice: 2D6 — Battle-shock dice" in out.stdout
    assert "battle_shock_margin: 0 — Battle-shock margin over Leadership" in out.stdout
    keys = [p["key"] for p in rule_parameters("wh40k.core.battle-shock")]
    assert keys == ["battle_shock_dice", "battle_shock_margin"]
    assert "Parameters a variant can change: none" in invoke("rule", "wh40k.attack.sequence").stdout


def test_the_widgets_compare_with_a_variant_side_by_side() -> None:
    from widgets.forms.ipy import calculator_widget

    form = calculator_widget("wh40k.deadly-demise", compare_with="deadly-demise-on-5", x="D6")
    html = form.output.value
    assert 'data-variant="baseline"' in html and 'data-variant="deadly-demise-on-5"' in html
    assert 'data-exact="1/6">16.7 points more<' in html  # P(explodes) 1/6 -> 1/3
    assert "<svg" in html  # the mortal-wound distributions, plotted side by side
    assert form.compare.options == (
        "none",
        "battle-shock-3d6",
        "battle-shock-above-ld",
        "deadly-demise-on-5",
        "monster-hunters",
    )
    form.compare.value = "none"
    assert "data-variant" not in form.output.value and 'data-key="p_explodes_exact">1/6<' in form.output.value


def test_the_panel_app_compares_too() -> None:
    from widgets.forms.panel_app import CalculatorApp

    app = CalculatorApp(registry().calculator("scrollhammer.break-test"), compare_with="break-2-ld-per-point")
    app.widgets["ld"].value, app.widgets["lost_by"].value = 8, 2
    html = app.result.object
    assert '<div class="rb-compare-side" data-variant="break-2-ld-per-point">' in html
    assert 'data-key="difference-p_pass" data-exact="-1/4">25.0 points fewer<' in html
    assert app.compare.visible and app.compare.options[0] == "none"


def test_battle_shock_passing_only_above_leadership_is_a_shipped_variant() -> None:
    """The issue's example "Battle-shock passes on 2D6 > Ld": Ld 7 passes on 8+ (5/12, not 7/12)."""
    from rulesbook.registry import registry as _registry

    calc = _registry().calculator("wh40k.battle-shock")
    assert run_with_variant(calc, "battle-shock-above-ld", leadership=7)["p_pass_exact"] == "5/12"
    assert calc.run(leadership=7)["p_pass_exact"] == "7/12"


# -- sharing: YAML that loads back, did you mean, paths as given, A+B, your own folder ------------------


def test_every_shipped_variant_round_trips_through_its_yaml(tmp_path: Path) -> None:
    for name, variant in shipped_variants().items():
        file = write(tmp_path, f"{name}.yaml", variant.to_yaml())
        again = load_variant(file)
        assert (again.system, again.title, again.description) == (
            variant.system,
            variant.title,
            variant.description,
        )
        assert (again.parameters, again.readings) == (variant.parameters, variant.readings), name
        assert (
            Variant.from_mapping(variant.to_json()["definition"], name=name).parameters == variant.parameters
        )


SPEC_VALUES = {
    "int": lambda spec: st.integers(spec.minimum, spec.maximum),
    "bool": lambda spec: st.booleans(),
    "dice": lambda spec: st.sampled_from(["1", "D3", "D6", "2D6", "3D6", "D6+1", "3D6kh2", "D6r1"]),
    "fraction": lambda spec: st.fractions(spec.minimum, spec.maximum, max_denominator=12),
}


@st.composite
def variants_of_a_system(draw: st.DrawFn) -> Variant:
    system = draw(st.sampled_from(sorted(registry().choices)))
    base = registry().choices[system]
    specs = draw(
        st.lists(st.sampled_from(type(base.parameters).specs()), max_size=3, unique_by=lambda s: s.key)
    )
    readings = draw(
        st.lists(st.sampled_from(type(base.readings).specs()), max_size=3, unique_by=lambda s: s.key)
    )
    params = {s.key: draw(SPEC_VALUES[s.kind](s)) for s in specs}
    chosen = {r.key: draw(st.sampled_from(r.options)) for r in readings}
    title = draw(st.text(min_size=1, max_size=30).filter(lambda t: t.strip()))
    try:
        return Variant.define("drawn", system=system, title=title, parameters=params, readings=chosen)
    except InputError:
        assume(False)  # a value the parameter refuses (e.g. dice that can roll below its floor)
        raise


@settings(max_examples=60, deadline=None)
@given(variant=variants_of_a_system())
def test_any_variant_of_parameters_and_readings_round_trips(variant: Variant) -> None:
    from rulesbook.data import load_data_text

    again = Variant.from_mapping(load_data_text(variant.to_yaml(), "drawn.yaml"), name="drawn")
    assert again == dataclasses.replace(variant, path="")


def test_a_python_variant_that_replaces_a_function_is_not_written_as_yaml() -> None:
    calc = registry().calculator("wh40k.battle-shock")
    fearless = Variant.define(
        "fearless", system="wh40k", title="x", functions={calc.id: lambda **kw: calc.compute(**kw)}
    )
    with pytest.raises(InputError, match=r"replaces the function of wh40k\.battle-shock in Python"):
        fearless.to_yaml()


def test_variants_show_prints_yaml_that_loads_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = invoke("variants", "show", "break-2-ld-per-point")
    assert out.exit_code == 0, out.stderr
    assert out.stdout.startswith("# break-2-ld-per-point: −2 Ld per point lost in a Break test (from ")
    saved = write(tmp_path, "mine.yaml", out.stdout)
    shipped = resolve_variant("break-2-ld-per-point")
    assert load_variant(saved).parameters == shipped.parameters
    write(tmp_path, "a.yaml", "system: wh40k\ntitle: A\nparameters:\n  battle_shock_dice: 3D6\n")
    write(tmp_path, "b.yaml", "system: wh40k\ntitle: B\nreadings:\n  wound_table: flat-4\n")
    both = invoke("variants", "show", "a.yaml+b.yaml")
    assert both.exit_code == 0, both.stderr
    composed = load_variant(write(tmp_path, "both.yaml", both.stdout))
    assert {k: str(v) for k, v in composed.parameters} == {"battle_shock_dice": "3D6"}
    assert dict(composed.readings) == {"wound_table": "flat-4"}
    assert composed.title == "A + B"
    as_json = json.loads(invoke("variants", "show", "a.yaml", "--json").stdout)
    assert as_json["definition"] == {
        "system": "wh40k",
        "title": "A",
        "parameters": {"battle_shock_dice": "3D6"},
    }
    bad = invoke("variants", "show", "battle-shock-3d")
    assert bad.exit_code == 2 and "did you mean battle-shock-3d6" in bad.stderr


def test_composition_with_file_paths_and_paths_named_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    write(
        tmp_path / "mine", "dice.yaml", "system: wh40k\ntitle: Dice\nparameters:\n  battle_shock_dice: 3D6\n"
    )
    out = invoke("calc", "wh40k.deadly-demise", "x=D6", "variant=mine/dice.yaml+deadly-demise-on-5", "--json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["variant"] == "dice+deadly-demise-on-5" and data["result"]["p_explodes_exact"] == "1/3"
    compared = invoke(
        "compare", "wh40k.battle-shock", "leadership=7", "--variant", "mine/dice.yaml+deadly-demise-on-5"
    )
    assert compared.exit_code == 0 and "49/54" in compared.stdout
    write(tmp_path / "mine", "typo.yaml", "system: wh40k\ntitel: Dice\n")
    wrong = invoke("calc", "wh40k.battle-shock", "leadership=7", "variant=mine/typo.yaml")
    assert wrong.exit_code == 2
    assert wrong.stderr == (
        "rulesbook: error: mine/typo.yaml, line 2: titel: unknown key; did you mean title? "
        "allowed: system, title, description, parameters, readings, add\n"
    )
    missing = invoke("calc", "wh40k.battle-shock", "leadership=7", "variant=mine/nope.yaml")
    assert missing.exit_code == 2 and missing.stderr.startswith("rulesbook: error: mine/nope.yaml: ")


def test_your_own_variants_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets.forms.compare import NO_VARIANT, answer, variant_options

    folder = tmp_path / "variants"
    folder.mkdir()
    write(folder, "bleak.yaml", "system: wh40k\ntitle: Bleak\nparameters:\n  battle_shock_dice: 3D6\n")
    write(folder, "broken.yaml", "system: wh40k\ntitle: x\nparameters:\n  battle_shock_dicee: 3D6\n")
    write(folder, "battle-shock-3d6.yaml", "system: wh40k\ntitle: Clash\n")
    monkeypatch.setenv("RULESBOOK_VARIANTS_DIR", str(folder))
    assert resolve_variant("bleak").title == "Bleak"
    listed = invoke("variants", "wh40k")
    assert listed.exit_code == 0
    assert any(
        line.startswith("bleak") and line.endswith("Bleak  (yours)") for line in listed.stdout.splitlines()
    )
    assert (
        "parameters.battle_shock_dicee: unknown rule parameter; did you mean battle_shock_dice"
        in listed.stderr
    )
    assert "battle-shock-3d6.yaml: a variant called battle-shock-3d6 exists already" in listed.stderr
    calc = registry().calculator("wh40k.battle-shock")
    options = variant_options(calc)
    assert options[0] == NO_VARIANT and "bleak" in options and "battle-shock-3d6" in options
    assert "bleak" not in variant_options(registry().calculator("scrollhammer.morale-check"))
    found = answer(calc.id, {"leadership": 7}, "bleak")
    assert [(n, r["p_pass_exact"]) for n, r in found.results] == [("baseline", "7/12"), ("bleak", "49/54")]
    # a notebook may open a form comparing with a file; a served page can only pick a listed name
    path = str(folder / "bleak.yaml")
    assert variant_options(calc, path)[-1] == path
    with pytest.raises(InputError, match="changes wh40k rules"):
        variant_options(registry().calculator("scrollhammer.morale-check"), path)


def test_your_variant_that_fails_to_load_says_why_when_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from rulesbook.variants import named_variant

    folder = tmp_path / "variants"
    folder.mkdir()
    write(folder, "broken.yaml", "system: wh40k\ntitle: x\nparameters:\n  battle_shock_dicee: 3D6\n")
    write(folder, "odd_one.py", "raise ValueError('no')\n")
    monkeypatch.setenv("RULESBOOK_VARIANTS_DIR", str(folder))
    why = "broken.yaml, line 4: parameters.battle_shock_dicee: unknown rule parameter; did you mean"
    out = invoke("calc", "wh40k.battle-shock", "leadership=7", "variant=broken")
    assert out.exit_code == 2 and out.stdout == "" and out.stderr.count("\n") == 1
    assert out.stderr.startswith("rulesbook: error: variant: your variant 'broken' failed to load: ")
    assert why in out.stderr
    out = invoke("calc", "wh40k.battle-shock", "leadership=7", "variant=odd-one")  # a Python file's name
    assert out.exit_code == 2 and "failed to load: variant: odd_one.py (line 1): ValueError: no" in out.stderr
    # a request gets the name and "failed to load"; the reason (and the server's paths) go to its log
    with caplog.at_level("WARNING", logger="rulesbook.variants"), pytest.raises(InputError) as caught:
        named_variant("broken")
    assert str(caught.value) == "variant: your variant 'broken' failed to load (the server's log says why)"
    assert any(why in r.getMessage() and "request named" in r.getMessage() for r in caplog.records)


def test_parameters_lists_every_parameter_and_reading() -> None:
    out = invoke("parameters", "--json")
    assert out.exit_code == 0, out.stderr
    items = json.loads(out.stdout)
    for system, choices in registry().choices.items():
        keys = {i["key"] for i in items if i["system"] == system and i["kind"] == "parameter"}
        assert keys == {s.key for s in type(choices.parameters).specs()}
        readings = {i["key"] for i in items if i["system"] == system and i["kind"] == "reading"}
        assert readings == {s.key for s in type(choices.readings).specs()}
    one = next(i for i in items if i["key"] == "break_ld_per_point")
    assert one == {
        "kind": "parameter",
        "system": "scrollhammer",
        "key": "break_ld_per_point",
        "label": "Ld lost per point of defeat",
        "type": "int",
        "minimum": 0,
        "maximum": 6,
        "default": "1",
        "allowed": "an integer from 0 to 6",
        "rule": "scrollhammer.morale.break-test",
        "section": "Morale Checks",
        "help": one["help"],
    }
    text = invoke("parameters", "scrollhammer")
    assert text.exit_code == 0
    assert "  parameter break_ld_per_point = 1  (an integer from 0 to 6)" in text.stdout
    assert "warstrike" not in text.stdout
    bad = invoke("parameters", "scrolhammer")
    assert bad.exit_code == 2 and "did you mean scrollhammer?" in bad.stderr
