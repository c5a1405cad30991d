"""What an attack calculator says about its answer: result values, tables, the explanation's roll
lines and the warnings (words accepted that change no number, Pistol's limits).

:func:`present` turns the engine's answer (exact, or labelled approximate) into a
:class:`~rulesbook.results.CalcResult`; :mod:`~rulesbook.systems.wh40k.calculators.path` computes it.

Example:
    >>> from rulesbook.systems.wh40k.calculators.profiles import parse_weapons
    >>> from rulesbook.systems.wh40k.attack.weapons import Target
    >>> [bolter] = parse_weapons("A=2 BS=3 S=4 D=1 precision")
    >>> ability_warnings(bolter, Target(4, 3, 1))[0].split(" (")[0]
    'precision changes no number of this calculator'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Any

from rulesbook.present.numbers import fixed, percent
from rulesbook.registry import implements
from rulesbook.results import CalcResult, Distribution, Table, fraction_str
from rulesbook.systems.wh40k.attack.engine import (
    ApproximateResult,
    SequenceResult,
    WeaponStep,
)
from rulesbook.systems.wh40k.attack.outcome import AttackOutcome
from rulesbook.systems.wh40k.attack.rolls import (
    Situation,
    hit_test,
    save_test,
    torrent_auto_hits,
    wound_test,
)
from rulesbook.systems.wh40k.attack.situational import in_situation
from rulesbook.systems.wh40k.attack.weapons import INERT_ABILITIES, Target, Weapon
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices

__all__ = [
    "APPROXIMATE_NOTE",
    "UnitOutcome",
    "ability_warnings",
    "dense",
    "outcome_lines",
    "pistol_warnings",
    "present",
    "roll_lines",
]


@implements("wh40k.attack.assault", "wh40k.attack.extra-attacks", "wh40k.attack.one-shot")
def ability_warnings(weapon: Weapon, target: Target, label: str = "") -> list[str]:
    """Words that were accepted but change no number, and Anti-X words that overlap."""
    where = f"{label}: " if label else ""
    out = [
        f"{where}{word} changes no number of this calculator (accepted so a profile can be typed as printed)"
        + (
            "; against an Attached unit, wh40k.attack-and-battle-shock applies it"
            if word == "precision"
            else ""
        )
        for word in weapon.abilities.other
        if word in INERT_ABILITIES
    ]
    applying = [(k, n) for k, n in weapon.abilities.anti if target.keywords is None or k in target.keywords]
    if len(applying) > 1:
        best = min(n for _, n in applying)
        words = ", ".join(f"anti-{k}-{n}" for k, n in applying)
        out.append(
            f"{where}{words} all apply to this target; only the best, Critical Wound on {best}+, counts"
        )
    return out


def outcome_lines(outcome: AttackOutcome, weapon: Weapon, target: Target) -> list[str]:
    """:func:`roll_lines` from the engine's per-attack outcome (its roll tests, already counted)."""
    lines = []
    hit = outcome.hit_roll
    if hit is None:
        lines.append("Torrent: every attack hits automatically (no Hit roll, no Critical Hit).")
    else:
        _, hp, hc, hd = outcome.hit_counts
        lines.append(
            f"Hit roll: {hit.target}+ with modifier {hit.effective_modifier:+d} → P(hit) = "
            f"{fraction_str(Fraction(hp + hc, hd))}, P(Critical Hit) = {fraction_str(Fraction(hc, hd))}."
        )
    wound = outcome.wound_roll
    _, wp, wc, wd = outcome.wound_counts
    lines.append(
        f"Wound roll: S{weapon.strength} vs T{target.toughness} needs {wound.target}+ "
        f"(modifier {wound.effective_modifier:+d}) → P(wound) = {fraction_str(Fraction(wp + wc, wd))}, "
        f"P(Critical Wound) = {fraction_str(Fraction(wc, wd))}."
    )
    save = outcome.save
    if save is None:
        lines.append("Saving throw: none possible.")
    else:
        lines.append(
            f"Saving throw: {save.target}+ with modifier {save.effective_modifier:+d} → "
            f"P(save) = {fraction_str(1 - outcome.p_save_fails)}."
        )
    return lines


@implements("wh40k.attack.pistol")
def pistol_warnings(weapons: Sequence[Weapon], choices: Wh40kChoices = CHOICES) -> list[str]:
    """Pistol changes no roll; it says who may fire what. When one shooting mixes Pistols with
    other ranged weapons, a warning reminds that a model fires either its Pistols or its other
    ranged weapons (MONSTER and VEHICLE models excepted), and that a unit within Engagement Range
    fires only Pistols (interpretation ``pistol``; ``no-warning`` keeps quiet).

    >>> from rulesbook.dice import parse_dice
    >>> from rulesbook.systems.wh40k.attack.weapons import parse_abilities
    >>> pistol = Weapon("pistol", parse_dice("1"), 3, 4, 0, parse_dice("1"), parse_abilities("pistol"))
    >>> rifle = Weapon("rifle", parse_dice("2"), 3, 4, 0, parse_dice("1"))
    >>> pistol_warnings([pistol]), len(pistol_warnings([pistol, rifle]))
    ([], 1)
    """
    if choices.readings.pistol == "no-warning":
        return []
    ranged = [w for w in weapons if w.ranged]
    pistols = [w.name for w in ranged if "pistol" in w.abilities.other]
    if not pistols or len(pistols) == len(ranged):
        return []
    return [
        f"{', '.join(pistols)}: a model fires its Pistols or its other ranged weapons, not both (unless it is "
        "a MONSTER or VEHICLE), and a unit within Engagement Range fires only Pistols; list only the "
        "weapons that really fire"
    ]


def roll_lines(weapon: Weapon, target: Target, situation: Situation, choices: Wh40kChoices) -> list[str]:
    """The Hit roll, Wound roll and saving throw of one weapon, in words."""
    weapon, target, situation = in_situation(weapon, target, situation, choices)
    lines = []
    if torrent_auto_hits(weapon, situation, choices) and choices.readings.published_abilities == "published":
        lines.append("Torrent: every attack hits automatically (no Hit roll, no Critical Hit).")
    else:
        hit = hit_test(weapon, target, situation, choices)
        lines.append(
            f"Hit roll: {hit.target}+ with modifier {hit.effective_modifier:+d} → P(hit) = "
            f"{fraction_str(hit.p_pass())}, P(Critical Hit) = {fraction_str(hit.p_critical())}."
        )
    wound = wound_test(weapon, target, situation, choices)
    lines.append(
        f"Wound roll: S{weapon.strength} vs T{target.toughness} needs {wound.target}+ "
        f"(modifier {wound.effective_modifier:+d}) → P(wound) = {fraction_str(wound.p_pass())}, "
        f"P(Critical Wound) = {fraction_str(wound.p_critical())}."
    )
    save = save_test(weapon, target, situation, choices)
    if save is None:
        lines.append("Saving throw: none possible.")
    else:
        lines.append(
            f"Saving throw: {save.target}+ with modifier {save.effective_modifier:+d} → "
            f"P(save) = {fraction_str(save.p_pass())}."
        )
    return lines


def _breakdown(result: SequenceResult | ApproximateResult | UnitOutcome) -> Table:
    rows: list[tuple[Any, ...]] = [
        (s.name, *(float(x) for x in (s.attacks, s.hits, s.wounds, s.devastating, s.unsaved, s.damage)))
        for s in result.steps
    ]
    rows.append(("target loses", None, None, None, None, None, float(result.mean_wounds_lost)))
    return Table(
        name="breakdown",
        title="Mean numbers at each step (attacks → hits → wounds → unsaved → damage)",
        columns=("weapon", "attacks", "hits", "wounds", "devastating", "unsaved", "damage"),
        rows=tuple(rows),
        note=(
            "hits include Sustained Hits; wounds include Lethal Hits auto-wounds; 'devastating' are "
            "Critical Wounds turned into mortal wounds; damage is before Feel No Pain and before "
            "excess damage is lost. The last row is what the target really loses."
        ),
    )


def dense(dist: Distribution[int], size: int) -> list[Fraction]:
    """P(X = k) for k = 0 .. size-1.

    >>> dense(Distribution.from_pairs([(1, Fraction(1, 2)), (3, Fraction(1, 2))]), 4)
    [Fraction(0, 1), Fraction(1, 2), Fraction(0, 1), Fraction(1, 2)]
    """
    out = [Fraction(0)] * size
    for k, p in dist:
        out[k] = p
    return out


def _distribution_table(probs: Sequence[Fraction | float]) -> Table:
    at_least = list(accumulate(reversed(probs)))[::-1]
    rows = tuple(
        (k, fraction_str(p) if isinstance(p, Fraction) else None, float(p), float(at_least[k]))
        for k, p in enumerate(probs)
    )
    return Table(
        name="models_destroyed_table",
        title="Models destroyed",
        columns=("models", "p_exact", "p", "p_at_least"),
        rows=rows,
    )


APPROXIMATE_NOTE = (
    "approximate: the exact answer would run to thousands of digits, so this one was computed "
    "by the same method in floating point (each probability within about 1e-12)"
)


@dataclass(frozen=True, slots=True)
class UnitOutcome:
    """An exact answer against a unit whose models differ (several model groups), in the terms
    :func:`present` shows: the unit's models and wounds, the two distributions, the means and
    the weapons' steps."""

    models: int
    total_wounds: int
    wounds_lost: Distribution[int]
    models_destroyed: Distribution[int]
    steps: tuple[WeaponStep, ...]

    @property
    def mean_wounds_lost(self) -> Fraction:
        return self.wounds_lost.mean()

    @property
    def mean_models_destroyed(self) -> Fraction:
        return self.models_destroyed.mean()

    @property
    def p_unit_destroyed(self) -> Fraction:
        return self.models_destroyed.p(self.models)


def present(
    result: SequenceResult | ApproximateResult | UnitOutcome,
    lines: Sequence[str] = (),
    warnings: Sequence[str] = (),
) -> CalcResult:
    """The common result of the attack calculators (values, tables, explanation); a floating-point
    answer carries ``approximate: True``, a warning and an explanation line saying so."""
    approximate = isinstance(result, ApproximateResult)
    models: Sequence[Fraction | float]
    wounds: Sequence[Fraction | float]
    if isinstance(result, UnitOutcome):
        size = result.models
        models = dense(result.models_destroyed, result.models + 1)
        wounds = dense(result.wounds_lost, result.total_wounds + 1)
    elif isinstance(result, ApproximateResult):
        size = result.target.models
        models, wounds = list(result.models_destroyed), list(result.wounds_lost)
    else:
        size = result.target.models
        models = dense(result.models_destroyed, result.target.models + 1)
        wounds = dense(result.wounds_lost, result.target.total_wounds + 1)
    values: dict[str, Any] = {
        "mean_wounds_lost": result.mean_wounds_lost,
        "mean_models_destroyed": result.mean_models_destroyed,
        "p_unit_destroyed": result.p_unit_destroyed,
        "p_at_least_one_model": 1 - models[0],
        "models_destroyed": models,
        "wounds_lost": wounds,
    }
    out = list(lines)
    if approximate:
        values["approximate"] = True
        out.insert(0, f"**Approximate**: {APPROXIMATE_NOTE.removeprefix('approximate: ')}.")
        warnings = [APPROXIMATE_NOTE, *warnings]
    for s in result.steps:
        out.append(
            f"**{s.name}**: {fixed(float(s.attacks))} attacks → {fixed(float(s.hits))} hits → "
            f"{fixed(float(s.wounds))} wounds ({fixed(float(s.devastating))} devastating) → "
            f"{fixed(float(s.unsaved))} unsaved → {fixed(float(s.damage))} damage on average."
        )
    out.append(
        f"The target loses {fixed(float(result.mean_wounds_lost))} wounds and "
        f"{fixed(float(result.mean_models_destroyed))} of {size} models on average; "
        f"P(unit destroyed) = {percent(float(result.p_unit_destroyed))}."
    )
    return CalcResult(
        values=values,
        tables=(_breakdown(result), _distribution_table(models)),
        explanation=tuple(out),
        warnings=tuple(warnings),
    )
