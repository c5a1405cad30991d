"""Effects recognised from imported rule texts (:func:`rulesbook.systems.wh40k.effects.kinds.recognise`):
each phrasing the effects language can say, and the texts it must keep as text only. (Tags such
as <i>…</i> sit inside some phrasings, as in the export's HTML; they are read as spaces.)"""

from __future__ import annotations

import pytest

from rulesbook.systems.wh40k.effects.kinds import recognise


def said(text: str, phases: tuple[str, ...] = ("any",)) -> list[tuple[object, ...]] | None:
    found = recognise(text, phases=phases)
    return None if found is None else [(e.kind, e.value, e.attack, e.phases) for e in found]


@pytest.mark.covers("wh40k.attack.hit-roll", "wh40k.attack.wound-roll", "wh40k.core.rerolls")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Each time a model in this unit makes an attack, add 1 to the Hit roll.",
            [("hit-modifier", 1, "any")],
        ),
        (
            "Each time a model in that unit makes a ranged attack, subtract 1 from that attack's Wound roll.",
            [("wound-modifier", -1, "ranged")],
        ),
        (
            "Until the end of the turn, each time this model makes a melee attack, you can re-roll the Hit roll.",
            [("reroll-hits", "failed", "melee")],
        ),
        (
            "Each time a model from your unit makes an attack, re-roll a <i>Wound</i> roll of 1.",
            [("reroll-wounds", "ones", "any")],
        ),
        (
            "Each time a model in your <i>unit</i> makes an attack, improve the Armour <i>Penetration</i> characteristic of <i>that</i> attack by 1.",
            [("ap", 1, "any")],
        ),
        (
            "Ranged weapons equipped by models in this unit have the [SUSTAINED HITS 1] and [IGNORES COVER] abilities.",
            [("weapon-ability", "sustained-hits-1", "ranged"), ("weapon-ability", "ignores-cover", "ranged")],
        ),
        (
            "Weapons equipped by <i>models</i> in your unit have the [ANTI-INFANTRY 4+] ability.",
            [("weapon-ability", "anti-infantry-4", "any")],
        ),
        ("Models in this unit have the Benefit of Cover.", [("cover", None, "ranged")]),
        ("This unit has the Stealth ability.", [("stealth", None, "ranged")]),
        (
            "Each time a ranged attack targets your unit, subtract 1 from <i>that</i> attack's Hit roll.",
            [("stealth", None, "ranged")],
        ),
        (
            "Each time an <i>attack</i> is allocated to a model in <i>your</i> unit, subtract 1 from the Damage characteristic of <i>that</i> attack.",
            [("damage-reduction", 1, "any")],
        ),
        (
            "Each time an attack is allocated to one of the models in this unit, subtract 1 from that attack's Damage.",
            [("damage-reduction", 1, "any")],
        ),
        (
            "Each time a model in this unit makes an attack, add 1 to the Hit roll. Models in this unit have the Benefit of Cover.",
            [("hit-modifier", 1, "any"), ("cover", None, "ranged")],
        ),
        ("Models in this unit have the Feel No Pain 5+ ability.", [("feel-no-pain", 5, "any")]),
        (
            "Until the end of the phase, models in <i>your unit</i> have the Feel No Pain 4+ ability against mortal wounds.",
            [("feel-no-pain-mortal", 4, "any")],
        ),
    ],
)
def test_what_the_effects_language_can_say(text: str, expected: list[tuple[object, ...]]) -> None:
    found = said(text, ("your-shooting",))
    assert found is not None
    assert [f[:3] for f in found] == expected
    assert all(f[3] == ("your-shooting",) for f in found)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Each time a model in this unit makes an attack, if the target is below half-strength, add 1 to the Hit roll.",
        "While this unit is within range of an objective marker, add 1 to the Hit roll.",
        "Models in this unit have a 5+ invulnerable save.",
        "Models in this unit have the Feel No Pain 1+ ability.",
        "Weapons equipped by models in this unit have the [PLAGUE WEAPON] ability.",
        "Each time a model in this unit makes an attack, add 2 to the Hit roll.",
        # one sentence beyond the language keeps the whole text as text (nothing half-applied)
        'Each time a model in this unit makes an attack, add 1 to the Hit roll. Enemy units within 6" are Battle-shocked.',
    ],
)
def test_what_stays_text_only(text: str) -> None:
    assert recognise(text) is None
