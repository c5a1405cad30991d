"""Declared cross-field relations (issue 37): one declaration gives the command line its error and
a form its mend, so an answer never turns into an error because of another pick."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulesbook.calculators import Calculator
from rulesbook.errors import InputError
from rulesbook.inputs import picks
from rulesbook.registry import registry
from rulesbook.relations import PICKED_KINDS, Needs, mend
from rulesbook.systems.wh40k.lists.army import army_at

RELATED = [c for c in registry().calculators.values() if c.relations]


def _breaking(calc: Calculator, relation: Needs) -> dict[str, Any]:
    """The first worked example's values with ``relation`` broken: ``key`` set, ``other`` not allowed."""
    values: dict[str, Any] = dict(calc.initial_values())
    for key, wanted in (
        (relation.key, lambda v: v != relation.free),
        (relation.other, lambda v: v not in relation.allowed),
    ):
        inp = calc.input(key)
        offered = (True, False) if inp.kind == "bool" else (*getattr(inp, "choices", ()), *picks(inp))
        values[key] = next(v for v in offered if wanted(v))
    return values


def test_some_calculators_declare_relations() -> None:
    ids = {c.id for c in RELATED}
    assert {"wh40k.datasheet-attack", "wh40k.attack"} <= ids


@pytest.mark.parametrize("calc", RELATED, ids=lambda c: c.id)
def test_a_broken_relation_is_the_one_line_the_command_line_gives(calc: Calculator) -> None:
    for relation in calc.relations:
        values = _breaking(calc, relation)
        with pytest.raises(InputError) as info:
            calc.validate(values)
        assert str(info.value) == str(relation.error()), relation
        assert info.value.field == relation.key


@pytest.mark.covers("wh40k.death-guard.detachment.spread-the-sickness")
@pytest.mark.parametrize("calc", RELATED, ids=lambda c: c.id)
def test_a_pick_that_breaks_a_relation_sets_the_other_input_and_says_so(calc: Calculator) -> None:
    for relation in calc.relations:
        broken = _breaking(calc, relation)
        mended = mend(calc, broken, relation.other)  # the player picked the other input
        assert mended.changes == ((relation.key, relation.free),)
        (note,) = mended.notes
        assert calc.input(relation.key).title in note and relation.why in note
        calc.validate({**broken, **dict(mended.changes)})  # the answer is no error
        if len(relation.allowed) == 1:  # the player picked the input itself: the other follows
            again = mend(calc, broken, relation.key)
            assert again.changes == ((relation.other, relation.allowed[0]),)
            calc.validate({**broken, **dict(again.changes)})


def test_a_relation_kept_or_a_change_not_picked_mends_nothing() -> None:
    calc = registry().calculator("wh40k.datasheet-attack")
    start = calc.initial_values()
    assert mend(calc, start, "detachment").changes == ()  # nothing broken
    sick = {**start, "sickness": "rattlejoint-ague"}
    # a detachment typed letter by letter: 'verm' is no pick, and no answer; nothing is reset
    assert mend(calc, {**sick, "detachment": "verm"}, "detachment").changes == ()
    # a number typed is never a pick, whatever it breaks
    assert mend(calc, {**sick, "detachment": "verminous-haze", "toughness": "5"}, "toughness").changes == ()
    # a mend that would leave another error is not made: the answer shows that error
    bad = {**sick, "detachment": "verminous-haze", "aura_distance": "3"}  # Mortarion needs no distance
    assert mend(calc, bad, "detachment").changes == ()
    with pytest.raises(InputError, match="aura_distance"):
        calc.validate({**bad, "sickness": "none"})


def test_only_picked_kinds_are_taken_as_picks() -> None:
    kinds = {i.kind for c in registry().calculators.values() for i in c.inputs}
    assert kinds >= PICKED_KINDS and "int" not in PICKED_KINDS and "text" not in PICKED_KINDS


def test_a_notebook_form_mends_and_says_so() -> None:
    from widgets.forms.panel_app import CalculatorApp

    calc = registry().calculator("wh40k.datasheet-attack")
    app = CalculatorApp(calc, detachment="spread-the-sickness", sickness="rattlejoint-ague")
    assert 'data-key="error"' not in str(app.result.object)
    app.widgets["detachment"].value = "verminous-haze"
    assert app.widgets["sickness"].value == "none"
    page = str(app.result.object)
    assert 'data-key="mended"' in page and "Sickness set to none" in page and 'data-key="error"' not in page
    app.widgets["toughness"].value = 5  # the next change: the note is gone
    assert 'data-key="mended"' not in str(app.result.object)


ROSTERS = Path(__file__).parent / "rosters" / "data"
FORTY_K_FILES = [
    *(ROSTERS / f"{name}.{suffix}" for name in ("rust-legion", "bog-horde") for suffix in ("rosz", "json")),
    Path("rulesbook/systems/wh40k/examples/mire-host.yaml"),
]


@pytest.mark.parametrize("path", FORTY_K_FILES, ids=lambda p: p.name)
def test_a_new_list_carries_the_form_to_values_it_holds_and_says_so(path: Path) -> None:
    """After the attacker's and the target's files change, the worked example (Mortarion, his aura,
    stratagems and detachment) follows them: every value the form then holds is in the files, as
    read by the faction reader itself, and the answer is no error."""
    calc = registry().calculator("wh40k.datasheet-attack")
    start = {**calc.initial_values(), "faction": str(path), "target_faction": str(path)}
    mended = mend(calc, start, "faction")
    values = {**start, **dict(mended.changes)}
    army = army_at(str(path), "faction")
    auras = {k for a in army.abilities.values() for k in a.choice_of}
    assert values["attacker"] in army.datasheets
    weapons = [w.strip().partition("*")[0] for w in str(values["weapons"]).split(",")]
    assert weapons and set(weapons) <= set(army.datasheets[values["attacker"]].weapons)
    assert values["aura"] in {"none", *auras}
    assert {w.strip() for w in str(values["stratagems"]).split(",") if w.strip()} <= set(army.stratagems)
    assert values["detachment"] in {"none", *army.detachments}
    assert values["enhancement"] in {"none", *army.enhancements}
    calc.validate(values)  # an answer, never an error
    assert len(mended.notes) == len(mended.changes)
    assert "mortarion" not in army.datasheets or values["attacker"] == "mortarion"  # kept when still offered
    for (key, value), note in zip(mended.changes, mended.notes, strict=True):
        assert note.startswith(calc.input(key).title) and (str(value) in note or "emptied" in note)


def test_the_shipped_file_again_or_a_file_that_does_not_read_changes_nothing() -> None:
    calc = registry().calculator("wh40k.datasheet-attack")
    assert mend(calc, calc.initial_values(), "faction").changes == ()
    other_game = {**calc.initial_values(), "faction": str(ROSTERS / "ork-patrol.rosz")}
    assert mend(calc, other_game, "faction").changes == ()  # the answer is the file's one-line error


def test_a_notebook_form_follows_an_uploaded_list() -> None:
    from widgets.forms.panel_app import CalculatorApp

    calc = registry().calculator("wh40k.datasheet-attack")
    app = CalculatorApp(calc)
    box = app.widgets["faction"]
    box.filename = "rust-legion.rosz"
    box.value = (ROSTERS / "rust-legion.rosz").read_bytes()
    assert app.widgets["attacker"].value == "rust-lord" and app.widgets["aura"].value == "none"
    assert app.widgets["stratagems"].value == "" and app.widgets["sickness"].value == "none"
    page = str(app.result.object)
    assert 'data-key="error"' not in page and "Attacker datasheet set to rust-lord" in page
