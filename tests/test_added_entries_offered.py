"""A variant's added entries (``add:``) are offered wherever the printed ones are, and compared.

Issue 24, part 7: an added stratagem, detachment or enhancement is offered by the forms (the
Panel pick lists and name boxes, the notebook forms), by ``rulesbook calc ID --help variant=…``,
and can be used in "Compare with": each column whose rules lack the entry (the published rules,
another variant) answers without it and says so. The oracles are runs that name no added entry:
the baseline column equals the call without the stratagem, the variant's column equals the call
with ``wound_modifier=1`` (what Monster Hunters is against a MONSTER)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.variants import added_entries, compare, offerable_inputs, resolve_variant, run_with_variant
from widgets.forms.compare import answer, offered_names

ROOT = Path(__file__).resolve().parents[1]
REG = registry()
ATTACK = REG.calculator("wh40k.datasheet-attack")
RALLY = REG.calculator("army-morale.rally")
LANTERN = {"weapons": "the-lantern", "toughness": 10, "save": 3, "wounds": 12, "models": 1}


def _exact(result: Any) -> dict[str, Any]:
    return {k: v for k, v in result.values.items() if k.endswith("_exact")}


def _write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A 40k variant adding a detachment rule and an enhancement (no stratagem)."""
    return _write(
        tmp_path_factory.mktemp("variants") / "house.yaml",
        "system: wh40k\ntitle: House rules\nadd:\n  detachments:\n    sharp-eyes:\n      name: Sharp eyes\n"
        "      effects:\n        - {kind: hit-modifier, value: 1}\n  enhancements:\n    keen-blade:\n"
        "      name: Keen blade\n      effects:\n        - {kind: wound-modifier, value: 1}\n",
    )


@pytest.mark.covers("wh40k.core.declared-effects", "wh40k.datasheet-attack")
@pytest.mark.parametrize("keyword", ["monster", "vehicle"])
def test_compare_with_an_added_stratagem(keyword: str) -> None:
    inputs = {**LANTERN, "target_keywords": keyword, "stratagems": "monster-hunters"}
    found = compare(ATTACK, inputs, ["monster-hunters"])
    base, hunted = (r for _, r in found.results)
    plain = {k: v for k, v in inputs.items() if k != "stratagems"}
    assert _exact(base) == _exact(ATTACK.run(**plain))
    if keyword == "monster":
        assert _exact(hunted) == _exact(ATTACK.run(**plain, wound_modifier=1))
        assert _exact(hunted) != _exact(base)
    else:
        assert _exact(hunted) == _exact(base)
    assert any("the published rules answer without monster-hunters" in n for n in found.notes)
    assert found.inputs["stratagems"] == ("monster-hunters",)  # what was asked, as given
    # a printed stratagem beside it stays in both columns; a typo is still refused, by name
    both = compare(ATTACK, {**inputs, "stratagems": "monster-hunters,gifts-of-decay"}, ["monster-hunters"])
    assert _exact(both.results[0][1]) == _exact(ATTACK.run(**plain, stratagems="gifts-of-decay"))
    with pytest.raises(InputError, match="no stratagem 'monster-hunterz'"):
        compare(ATTACK, {**inputs, "stratagems": "monster-hunterz"}, ["monster-hunters"])


def test_a_replaced_printed_entry_stays_in_the_published_column(tmp_path: Path) -> None:
    """A variant whose added key replaces a printed stratagem: the published rules' column keeps
    the printed one, and leaves out only what they lack."""
    mine = _write(
        tmp_path / "mine.yaml",
        "system: wh40k\ntitle: Mine\nadd:\n  stratagems:\n    ferric-blight:\n      name: Ferric blight\n"
        "      cp: 1\n      phases: [shooting]\n      effects:\n        - {kind: wound-modifier, value: 1}\n"
        "    monster-hunters:\n      name: Monster Hunters\n      cp: 1\n      phases: [shooting]\n"
        "      effects:\n        - {kind: wound-modifier, value: 1, target_keywords: [MONSTER]}\n",
    )
    inputs = {**LANTERN, "target_keywords": "monster", "stratagems": "ferric-blight,monster-hunters"}
    found = compare(ATTACK, inputs, [mine])
    printed = ATTACK.run(**{**inputs, "stratagems": "ferric-blight"})
    assert _exact(found.results[0][1]) == _exact(printed)
    assert _exact(printed) != _exact(ATTACK.run(**{**inputs, "stratagems": ""}))  # so this could fail
    (note,) = [n for n in found.notes if "answer without" in n]
    assert note == "stratagems: the published rules answer without monster-hunters (added by mine only)"


def test_an_effect_one_variant_adds_and_another_refuses(tmp_path: Path) -> None:
    """The same key added by two variants, counted at step R4 in one and not in the other: the
    second refuses it in one line (it knows the effect), it does not silently leave it out."""
    effect = "system: army-morale\ntitle: {t}\nadd:\n  morale_effects:\n    supply-lines:\n      name: S\n"
    ongoing = _write(tmp_path / "on.yaml", effect.format(t="On") + "      value: 1\n      kind: ongoing\n")
    once = _write(tmp_path / "once.yaml", effect.format(t="Once") + "      value: 1\n      kind: one-time\n")
    with pytest.raises(InputError, match="a_effects: supply-lines applies the moment it happens"):
        compare(RALLY, {"a_effects": "supply-lines=2"}, [ongoing, once])


def test_another_compared_variant_answers_without_it() -> None:
    inputs = {**LANTERN, "target_keywords": "monster", "stratagems": "monster-hunters"}
    found = compare(ATTACK, inputs, ["monster-hunters", "deadly-demise-on-5"])
    assert found.names == ["baseline", "monster-hunters", "deadly-demise-on-5"]
    other = found.results[2][1]
    plain = {k: v for k, v in inputs.items() if k != "stratagems"}
    assert _exact(other) == _exact(run_with_variant(ATTACK, "deadly-demise-on-5", **plain))
    assert any(n.startswith("stratagems: deadly-demise-on-5 answers without") for n in found.notes)


def test_added_detachment_and_enhancement_in_a_comparison(house: str) -> None:
    inputs = {**LANTERN, "detachment": "sharp-eyes", "enhancement": "keen-blade"}
    found = compare(ATTACK, inputs, [house])
    base, varied = (r for _, r in found.results)
    assert _exact(base) == _exact(ATTACK.run(**LANTERN))  # both left out: the defaults, none
    assert _exact(varied) == _exact(run_with_variant(ATTACK, house, **inputs))
    assert _exact(varied) != _exact(base)
    assert sum("the published rules answer without" in n for n in found.notes) == 2
    # the form's answer (a notebook's form opened with the file) is the same comparison, not an error
    form = answer(
        ATTACK.id, {**ATTACK.initial_values(), **inputs, "sickness": "none"}, resolve_variant(house)
    )
    assert form.error == "" and len(form.results) == 2


@pytest.mark.covers("army-morale.effects.added", "army-morale.rally")
def test_rally_compares_an_added_ongoing_effect(tmp_path: Path) -> None:
    supply = _write(
        tmp_path / "supply.yaml",
        "system: army-morale\ntitle: Supply\nadd:\n  morale_effects:\n    supply-lines:\n      name: Supply\n"
        "      value: 2\n      kind: ongoing\n      when: end-of-rally\n    general-slain:\n"
        "      name: General slain\n      value: 3\n      kind: one-time\n      when: immediately\n",
    )
    # only the effects counted at step R4 are offered to the Rally odds
    assert added_entries(RALLY, supply) == {"a_effects": ("supply-lines",), "b_effects": ("supply-lines",)}
    found = compare(RALLY, {"a_effects": "supply-lines=2"}, [supply])
    base, varied = (r for _, r in found.results)
    assert base.values == RALLY.run().values
    assert varied.values == run_with_variant(RALLY, supply, a_effects="supply-lines=2").values
    assert varied.values["a_mean"] == base.values["a_mean"] + 4  # two instances worth 2 each


def test_what_the_forms_offer(house: str) -> None:
    stratagems = ATTACK.input("stratagems")
    assert "monster-hunters" not in offered_names(ATTACK, stratagems)
    assert offered_names(ATTACK, stratagems, "monster-hunters")[-1] == "monster-hunters"
    mine = resolve_variant(house)  # a notebook's own file (a page names only listed variants)
    assert offered_names(ATTACK, ATTACK.input("detachment"), mine)[-1] == "sharp-eyes"
    assert offered_names(ATTACK, ATTACK.input("target_enhancement"), mine)[-1] == "keen-blade"
    assert offered_names(ATTACK, ATTACK.input("detachment"), house) == offered_names(
        ATTACK, ATTACK.input("detachment")
    )
    assert offered_names(ATTACK, ATTACK.input("weapons"), mine) == offered_names(
        ATTACK, ATTACK.input("weapons")
    )
    assert set(offerable_inputs(ATTACK)) == {
        f"{side}{what}" for side in ("", "target_") for what in ("stratagems", "detachment", "enhancement")
    }
    assert offerable_inputs(REG.calculator("wh40k.battle-shock")) == ("stratagems",)  # on the test
    assert offerable_inputs(REG.calculator("wh40k.charge")) == ()


def test_panel_pick_lists_follow_the_compared_variant(house: str) -> None:
    from widgets.forms.panel_app import CalculatorApp

    app = CalculatorApp(ATTACK)
    picker = app.pickers["stratagems"]
    assert "monster-hunters" not in picker.options
    app.compare.value = "monster-hunters"
    assert picker.options[-1] == "monster-hunters"
    picker.value = ["monster-hunters"]
    assert app.widgets["stratagems"].value == "monster-hunters"
    app.compare.value = "none"  # no longer offered, but what was typed stays
    assert "monster-hunters" not in picker.options
    assert app.widgets["stratagems"].value == "monster-hunters"
    # opened comparing with it (a shared link), the list offers it at once
    assert CalculatorApp(ATTACK, "monster-hunters").pickers["stratagems"].options[-1] == "monster-hunters"
    # a name box suggests an added enhancement (the published rules print none)
    housed = CalculatorApp(ATTACK, house)
    assert housed.widgets["enhancement"].options[-1] == "keen-blade"
    assert housed.widgets["target_detachment"].options[-1] == "sharp-eyes"
    # an input only a variant fills has a list, hidden while there is nothing to offer
    rally = CalculatorApp(RALLY)
    assert rally.pickers["a_effects"].visible is False
    rally.compare.value = "general-slain"  # its one effect is one-time: nothing for step R4
    assert rally.pickers["a_effects"].visible is False


def test_a_pick_list_keeps_a_counted_word(tmp_path: Path) -> None:
    from widgets.forms.panel_app import CalculatorApp

    supply = _write(
        tmp_path / "supply.yaml",
        "system: army-morale\ntitle: Supply\nadd:\n  morale_effects:\n    supply-lines:\n      name: S\n"
        "      value: 1\n      kind: ongoing\n",
    )
    app = CalculatorApp(RALLY, supply)
    box, picker = app.widgets["a_effects"], app.pickers["a_effects"]
    assert picker.visible and picker.options == ["supply-lines"]
    box.value = "supply-lines=2"
    assert picker.value == ["supply-lines"]  # the count's word is the listed name, picked
    app.compare.value = "none"  # no longer offered: the list hides, the typed count stays
    assert not picker.visible and box.value == "supply-lines=2"
    app.compare.value = supply
    assert picker.value == ["supply-lines"] and box.value == "supply-lines=2"
    picker.value = []  # unpicked: the word goes, with its count
    assert box.value == ""
    picker.value = ["supply-lines"]
    assert box.value == "supply-lines"


def test_notebook_form_offers_them(house: str) -> None:
    from widgets.forms.ipy import CalculatorForm

    form = CalculatorForm(ATTACK, house)
    assert form.controls["detachment"].options[-1] == "sharp-eyes"
    form.compare.value = "none"
    assert "sharp-eyes" not in form.controls["detachment"].options
    form.compare.value = "monster-hunters"
    assert form.controls["stratagems"].placeholder.endswith("monster-hunters adds monster-hunters")


def test_a_refusal_names_the_variant_that_adds_the_entry() -> None:
    """Without the variant, the published rules refuse the name, and say which variant has it."""
    from rulesbook.variants import run_inputs

    with pytest.raises(
        InputError, match=r"added by the variant monster-hunters \(variant=monster-hunters\)$"
    ):
        run_inputs(ATTACK, {**LANTERN, "stratagems": "gifts-of-decay,monster-hunters"})
    form = answer(ATTACK.id, {**ATTACK.initial_values(), "stratagems": "monster-hunters"})
    assert form.error.endswith(
        "monster-hunters is added by the variant monster-hunters (pick it in Compare with)"
    )
    assert form.error_key == "stratagems" and "\n" not in form.error
    with pytest.raises(InputError) as typo:  # a name no variant adds: the plain refusal
        run_inputs(ATTACK, {**LANTERN, "stratagems": "monster-huntres"})
    assert "added by" not in str(typo.value)


def test_cli_help_lists_the_added_names() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "rulesbook.cli", "calc", ATTACK.id, "--help", *args],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )

    plain, varied = run().stdout, run("variant=monster-hunters").stdout
    assert "names: battlefield-command," in plain and "the variant adds" not in plain
    assert "the variant adds: monster-hunters" in varied
    assert varied.startswith("Under variant monster-hunters (Monster hunters)")  # what it changes
    assert "add stratagems.monster-hunters: Monster Hunters (1 CP" in varied.split("\n\n")[0]
    other = run("variant=fall-back-3d6")  # another system's variant
    assert other.returncode == 2 and "wh40k.datasheet-attack is a wh40k calculator" in other.stderr
    bad = run("variant=monster-huntres")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "variant: unknown variant" in bad.stderr


@pytest.mark.parametrize("executor", ["serial", "processes"])
def test_a_sweep_answers_the_baseline_without_it(executor: str, tmp_path: Path) -> None:
    from rulesbook.sweeps import sweep
    from rulesbook.sweeps.plot import sweep_warnings

    grid = {**LANTERN, "toughness": "8..10", "target_keywords": "monster", "stratagems": "monster-hunters"}
    table = sweep(ATTACK, grid, ["monster-hunters"], executor=executor, workers=2)
    assert (table["error"] == "").all() and "_notes" not in table
    base = table[table["variant"] == "baseline"]
    plain = sweep(ATTACK, {k: v for k, v in grid.items() if k != "stratagems"}, executor="serial")
    assert base["mean_wounds_lost"].tolist() == plain["mean_wounds_lost"].tolist()
    hunted = table[table["variant"] == "monster-hunters"]["mean_wounds_lost"].tolist()
    assert all(h > b for h, b in zip(hunted, base["mean_wounds_lost"], strict=True))
    assert any("the published rules answer without monster-hunters" in w for w in sweep_warnings(table))
    if executor == "serial":  # written and read back, the table still says so
        from rulesbook.sweeps import export, read_table

        back = read_table(export(table, tmp_path / "hunters.csv"))
        assert sweep_warnings(back) == sweep_warnings(table)


def test_the_static_form_offers_them_while_compared() -> None:
    """The published site's form lists a shipped variant's added names, disabled until "Compare
    with" names that variant (live-calculators.js enables them; the browser test picks one)."""
    from rulesbook.site.live_form import live_form_html

    form = live_form_html(ATTACK)
    offered = re.findall(
        r'<option value="monster-hunters" data-variant="monster-hunters" disabled hidden>', form
    )
    assert len(offered) == 2  # the attacker's and the target's stratagems
    fields = form.split('data-key="variant"')[0]  # the inputs, before "Compare with"
    assert 'value="monster-hunters">' not in fields  # never offered as a printed one
