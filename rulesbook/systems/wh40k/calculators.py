"""Warhammer 40,000 calculators, declared once around the pure functions of ``rules.py``.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("wh40k.attack")
    >>> r = calc.run(attacks="10", skill=3, strength=4, ap=-1, damage="1",
    ...              toughness=4, save=3, wounds=1, models=10)
    >>> r["mean_wounds_lost_exact"], r["models_destroyed"][0] > 0.1
    ('5/3', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rulesbook.calculators import (
    BoolInput,
    ChoiceInput,
    DiceInput,
    Input,
    InterpretationInput,
    IntInput,
    OptionalIntInput,
    Output,
    WordListInput,
    calculator,
)
from rulesbook.dice import REROLLS, DiceExpr
from rulesbook.errors import InputError
from rulesbook.registry import raw_registry
from rulesbook.results import CalcResult, Distribution, Table, fraction_str, probability_values
from rulesbook.systems.wh40k.data import damaged_hit_modifier, mortarion_weapons
from rulesbook.systems.wh40k.profiles import WeaponProfilesInput, parse_weapons
from rulesbook.systems.wh40k.rules import (
    ABILITY_WORDS,
    DIGITS_LIMIT,
    INERT_ABILITIES,
    JOINT_LIMIT,
    MAX_ATTACKS,
    MAX_DAMAGE,
    MAX_TOTAL_WOUNDS,
    WORK_LIMIT,
    Options,
    SequenceResult,
    Target,
    Weapon,
    battle_shock_test,
    blast_bonus,
    deadly_demise_test,
    desperate_escape_test,
    failures,
    hazardous_test,
    hit_test,
    joint_packets_bound,
    parse_abilities,
    predicted_cost,
    resolve,
    save_test,
    torrent_auto_hits,
    wound_target,
    wound_test,
)

REROLL_CHOICES = tuple(r for r in REROLLS if r != "all")

# -- inputs shared by the attack calculators ------------------------------------------------------

ATTACKER_SITUATION: tuple[Input, ...] = (
    IntInput(
        key="hit_modifier",
        label="Hit roll modifier",
        help="Sum of other Hit roll modifiers (Heavy and Stealth are added for you); total capped at ±1.",
        minimum=-3,
        maximum=3,
        default=0,
    ),
    IntInput(
        key="wound_modifier",
        label="Wound roll modifier",
        help="Sum of Wound roll modifiers; the total is capped at ±1.",
        minimum=-3,
        maximum=3,
        default=0,
    ),
    ChoiceInput(
        key="reroll_hits",
        label="Re-roll Hit rolls",
        help="none, ones (re-roll a 1) or failed (re-roll every miss).",
        choices=REROLL_CHOICES,
        default="none",
    ),
    ChoiceInput(
        key="reroll_wounds",
        label="Re-roll Wound rolls",
        help="none, ones or failed (Twin-linked re-rolls failures anyway).",
        choices=REROLL_CHOICES,
        default="none",
    ),
    IntInput(
        key="critical_hit",
        label="Critical Hit on",
        help="Unmodified Hit roll that is a Critical Hit (6 unless a rule lowers it).",
        minimum=2,
        maximum=6,
        default=6,
    ),
    IntInput(
        key="critical_wound",
        label="Critical Wound on",
        help="Unmodified Wound roll that is a Critical Wound (6; Anti-X lowers it for you).",
        minimum=2,
        maximum=6,
        default=6,
    ),
    BoolInput(
        key="remained_stationary",
        label="Remained Stationary",
        help=(
            "The attacking unit did not move this turn (Heavy weapons get +1 to hit); true unless "
            "told otherwise (interpretation wh40k.interpretations.remained-stationary)."
        ),
        default=True,
    ),
    BoolInput(
        key="overwatch",
        label="Fire Overwatch",
        help="Shooting with the Fire Overwatch Stratagem: only unmodified 6s hit.",
        default=False,
    ),
)

TARGET_INPUTS: tuple[Input, ...] = (
    IntInput(key="toughness", label="Toughness (T)", help="The target's Toughness.", minimum=1, maximum=20),
    IntInput(
        key="save",
        label="Save (Sv)",
        help="The X of the target's Save X+ (7 = no armour save).",
        minimum=2,
        maximum=7,
    ),
    OptionalIntInput(
        key="invuln",
        label="Invulnerable save",
        help="The X of an invulnerable save X+, or none.",
        minimum=2,
        maximum=6,
        default=None,
    ),
    IntInput(key="wounds", label="Wounds per model (W)", help="Wounds of each model.", minimum=1, maximum=40),
    IntInput(
        key="models", label="Models", help="Models in the target unit.", minimum=1, maximum=40, default=1
    ),
    OptionalIntInput(
        key="fnp",
        label="Feel No Pain",
        help="The X of Feel No Pain X+, or none.",
        minimum=2,
        maximum=6,
        default=None,
    ),
    BoolInput(
        key="cover",
        label="Benefit of Cover",
        help="The target has the Benefit of Cover (ranged attacks only; +1 armour save).",
        default=False,
    ),
    BoolInput(
        key="stealth",
        label="Stealth",
        help="Every model in the target has Stealth (−1 to hit with ranged attacks).",
        default=False,
    ),
    IntInput(
        key="damage_reduction",
        label="Damage reduction",
        help="Subtract this from the Damage of each attack (minimum 1), e.g. 1 for Disgustingly Resilient.",
        minimum=0,
        maximum=5,
        default=0,
    ),
    IntInput(
        key="save_modifier",
        label="Other save modifier",
        help=(
            "Other saving throw modifiers besides AP and cover (improvements capped at +1); they "
            "apply to an invulnerable save too unless invuln_modifiers=armour-only."
        ),
        minimum=-3,
        maximum=3,
        default=0,
    ),
    WordListInput(
        key="target_keywords",
        label="Target keywords",
        help="Keywords of the target for Anti-X (e.g. infantry,monster); empty: every Anti-X given applies.",
        words=(("[a-z]+(?:-[a-z]+)*", "lower-case keywords"),),
        default=(),
    ),
)

INTERPRETATION_INPUTS: tuple[Input, ...] = tuple(
    InterpretationInput(
        key=key,
        help=f"{raw_registry().interpretations[f'wh40k.interpretations.{slug}'].question} "
        f"(interpretation wh40k.interpretations.{slug})",
        interpretation=f"wh40k.interpretations.{slug}",
    )
    for key, slug in (
        ("wound_table", "wound-table"),
        ("devastating_excess", "devastating-excess"),
        ("devastating_modifiers", "devastating-modifiers"),
        ("save_cap", "save-cap"),
        ("lethal_devastating", "lethal-devastating"),
        ("sustained_roll", "sustained-roll"),
        ("twin_linked", "twin-linked"),
        ("overwatch_criticals", "overwatch-criticals"),
        ("allocation", "allocation"),
        ("damage_minimum", "damage-minimum"),
        ("published_abilities", "published-abilities"),
        ("torrent_overwatch", "torrent-overwatch"),
        ("invuln_modifiers", "invulnerable-modifiers"),
    )
)

OPTION_KEYS = (
    "hit_modifier",
    "wound_modifier",
    "save_modifier",
    "reroll_hits",
    "reroll_wounds",
    "remained_stationary",
    "overwatch",
    "critical_hit",
    "critical_wound",
    *(i.key for i in INTERPRETATION_INPUTS),
)

OUTPUTS: tuple[Output, ...] = (
    Output(
        "mean_wounds_lost",
        "Mean wounds lost",
        "number",
        "Wounds the target really loses (excess damage not counted).",
    ),
    Output(
        "mean_models_destroyed", "Mean models destroyed", "number", "Expected number of models destroyed."
    ),
    Output("p_unit_destroyed", "P(unit destroyed)", "probability", "Chance that every model is destroyed."),
    Output(
        "models_destroyed",
        "P(exactly k models destroyed)",
        "list",
        "Index k holds P(exactly k models destroyed).",
    ),
    Output("wounds_lost", "P(exactly k wounds lost)", "list", "Index k holds P(exactly k wounds lost)."),
    Output("breakdown", "Step by step", "table", "Mean attacks, hits, wounds, unsaved, damage per weapon."),
)


def _target(values: Mapping[str, Any]) -> Target:
    keywords = tuple(values["target_keywords"]) or None
    return Target(
        toughness=values["toughness"],
        save=values["save"],
        wounds=values["wounds"],
        models=values["models"],
        invuln=values["invuln"],
        fnp=values["fnp"],
        cover=values["cover"],
        stealth=values["stealth"],
        damage_reduction=values["damage_reduction"],
        keywords=keywords,
    )


def _options(values: Mapping[str, Any]) -> Options:
    return Options(**{k: values[k] for k in OPTION_KEYS})


def _check_target(values: Mapping[str, Any]) -> None:
    total = values["wounds"] * values["models"]
    if total > MAX_TOTAL_WOUNDS:
        raise InputError("models", f"models × wounds must be at most {MAX_TOTAL_WOUNDS}, got {total}")


def _check_weapon(
    values: Mapping[str, Any], weapon: Weapon, field: str | None = None, label: str = ""
) -> None:
    """Per-weapon limits. ``field=None``: errors name ``abilities``, ``attacks`` and ``damage``
    (wh40k.attack); otherwise they name ``field`` and start with ``label`` (the weapon)."""
    ab = weapon.abilities
    where = f"{label}: " if label else ""
    if not weapon.ranged:
        fix = "use BS for a ranged weapon" if field else "set ranged=true"
        for word, flag in (("blast", ab.blast), ("torrent", ab.torrent), ("heavy", ab.heavy)):
            if flag:
                raise InputError(
                    field or "abilities", f"{where}{word} is a ranged weapon ability; {fix} or remove it"
                )
        for key in ("cover", "stealth", "overwatch"):
            if values[key]:
                why = f"{label} is a melee weapon; set it to false" if label else f"{fix} or set it to false"
                raise InputError(key, f"only applies to ranged attacks; {why}")
    bonus = blast_bonus(values["models"]) if ab.blast else 0
    if weapon.attacks.maximum + bonus > MAX_ATTACKS:
        raise InputError(
            field or "attacks",
            f"{where}at most {MAX_ATTACKS} attacks per weapon, got up to {weapon.attacks.maximum + bonus}",
        )
    if weapon.damage.maximum > MAX_DAMAGE:
        raise InputError(
            field or "damage",
            f"{where}at most {MAX_DAMAGE} damage per attack, got up to {weapon.damage.maximum}",
        )


def _most_attacks_that_fit(weapons: Sequence[Weapon], index: int, target: Target, options: Options) -> int:
    """The most attacks (Blast included) weapon ``index`` may make with the rest unchanged, 0 if
    none fits."""
    weapon = weapons[index]
    low, high = 0, MAX_ATTACKS
    while low < high:
        k = (low + high + 1) // 2
        fixed = replace(weapon, attacks=DiceExpr(0, 6, k), abilities=replace(weapon.abilities, blast=False))
        trial = [*weapons[:index], fixed, *weapons[index + 1 :]]
        if predicted_cost(trial, target, options).fits:
            low = k
        else:
            high = k - 1
    return low


def _check_budget(
    values: Mapping[str, Any], weapons: Sequence[Weapon], field: str, labels: Sequence[str]
) -> None:
    """Refuse at once what would take more than about 2 s (or give an answer of thousands of
    digits), naming the weapon to cut and how far."""
    target, options = _target(values), _options(values)
    cost = predicted_cost(weapons, target, options)
    if cost.fits:
        return
    index = max(range(len(weapons)), key=lambda i: cost.per_weapon[i])
    most = _most_attacks_that_fit(weapons, index, target, options)
    why = (
        f"about {cost.work / WORK_LIMIT:.1f} times the work the calculators allow (about 2 s)"
        if cost.work > WORK_LIMIT
        else f"an exact answer of about {cost.digits:,.0f} digits (at most {DIGITS_LIMIT:,})"
    )
    label = labels[index]
    cut = (
        f"with everything else unchanged, use at most {most} attacks"
        f"{' for ' + label if label else ''} (Blast included)"
        if most
        else "reduce models × wounds, Sustained Hits or random Damage"
    )
    raise InputError(field, f"{label + ': ' if label else ''}this would need {why}; {cut}")


def _breakdown(result: SequenceResult) -> Table:
    rows: list[tuple[Any, ...]] = []
    for s in result.steps:
        rows.append(
            (
                s.name,
                float(s.attacks),
                float(s.hits),
                float(s.wounds),
                float(s.devastating),
                float(s.unsaved),
                float(s.damage),
            )
        )
    rows.append(
        (
            "target loses",
            None,
            None,
            None,
            None,
            None,
            float(result.mean_wounds_lost),
        )
    )
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


def _dense(dist: Distribution[int], size: int) -> list[Fraction]:
    """P(X = k) for k = 0 .. size-1."""
    out = [Fraction(0)] * size
    for k, p in dist:
        out[k] = p
    return out


def _at_least(probs: Sequence[Fraction]) -> list[Fraction]:
    """P(X >= k) for every k, by a running sum from the top."""
    out: list[Fraction] = []
    acc = Fraction(0)
    for p in reversed(probs):
        acc += p
        out.append(acc)
    return out[::-1]


def _distribution_table(result: SequenceResult) -> Table:
    probs = _dense(result.models_destroyed, result.target.models + 1)
    at_least = _at_least(probs)
    rows = tuple((k, fraction_str(p), float(p), float(at_least[k])) for k, p in enumerate(probs))
    return Table(
        name="models_destroyed_table",
        title="Models destroyed",
        columns=("models", "p_exact", "p", "p_at_least"),
        rows=rows,
    )


def sequence_result(
    result: SequenceResult, extra_lines: Sequence[str] = (), warnings: Sequence[str] = ()
) -> CalcResult:
    """The common result of the attack calculators (values, tables, explanation)."""
    models = _dense(result.models_destroyed, result.target.models + 1)
    wounds = _dense(result.wounds_lost, result.target.total_wounds + 1)
    n_models = result.target.models
    p_some = Fraction(1) - models[0]
    values: dict[str, Any] = {
        "mean_wounds_lost": float(result.mean_wounds_lost),
        "mean_wounds_lost_exact": fraction_str(result.mean_wounds_lost),
        "mean_models_destroyed": float(result.mean_models_destroyed),
        "mean_models_destroyed_exact": fraction_str(result.mean_models_destroyed),
        **probability_values("p_unit_destroyed", result.p_unit_destroyed),
        "models_destroyed": [float(p) for p in models],
        "models_destroyed_exact": [fraction_str(p) for p in models],
        "wounds_lost": [float(p) for p in wounds],
        "wounds_lost_exact": [fraction_str(p) for p in wounds],
        **probability_values("p_at_least_one_model", p_some),
    }
    lines = list(extra_lines)
    for s in result.steps:
        lines.append(
            f"**{s.name}**: {float(s.attacks):.2f} attacks → {float(s.hits):.2f} hits → "
            f"{float(s.wounds):.2f} wounds ({float(s.devastating):.2f} devastating) → "
            f"{float(s.unsaved):.2f} unsaved → {float(s.damage):.2f} damage on average."
        )
    lines.append(
        f"The target loses {float(result.mean_wounds_lost):.2f} wounds and "
        f"{float(result.mean_models_destroyed):.2f} of {n_models} models on average; "
        f"P(unit destroyed) = {float(result.p_unit_destroyed):.2%}."
    )
    return CalcResult(
        values=values,
        tables=(_breakdown(result), _distribution_table(result)),
        explanation=tuple(lines),
        warnings=tuple(warnings),
    )


# -- wh40k.attack --------------------------------------------------------------------------------


def _weapon(values: Mapping[str, Any]) -> Weapon:
    return Weapon(
        name="weapon",
        attacks=values["attacks"],
        skill=values["skill"],
        strength=values["strength"],
        ap=values["ap"],
        damage=values["damage"],
        abilities=parse_abilities(values["abilities"]),
        ranged=values["ranged"],
    )


def _check_joint(values: Mapping[str, Any], weapons: Sequence[Weapon], field: str) -> None:
    bound = joint_packets_bound(weapons, _target(values), _options(values))
    if bound > JOINT_LIMIT:
        raise InputError(
            field,
            f"when Devastating Wounds are tracked apart from normal damage (an earlier weapon of a "
            f"sequence, or a devastating/allocation alternative) a weapon may produce at most "
            f"{JOINT_LIMIT} hits that wound, got up to {bound}; use fewer attacks",
        )


def _check_attack(values: Mapping[str, Any]) -> None:
    _check_target(values)
    weapon = _weapon(values)
    _check_weapon(values, weapon)
    _check_joint(values, [weapon], "attacks")
    _check_budget(values, [weapon], "attacks", [""])


def _ability_warnings(weapon: Weapon, target: Target, label: str = "") -> list[str]:
    """Words that were accepted but change no number, and Anti-X words that overlap."""
    where = f"{label}: " if label else ""
    out = [
        f"{where}{word} changes no number of this calculator (accepted so a profile can be typed as printed)"
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


def _roll_lines(weapon: Weapon, target: Target, options: Options) -> list[str]:
    lines = []
    if torrent_auto_hits(weapon, options) and options.published_abilities == "published":
        lines.append("Torrent: every attack hits automatically (no Hit roll, no Critical Hit).")
    else:
        hit = hit_test(weapon, target, options)
        lines.append(
            f"Hit roll: {hit.target}+ with modifier {hit.effective_modifier:+d} → P(hit) = "
            f"{fraction_str(hit.p_pass())}, P(Critical Hit) = {fraction_str(hit.p_critical())}."
        )
    wound = wound_test(weapon, target, options)
    lines.append(
        f"Wound roll: S{weapon.strength} vs T{target.toughness} needs {wound.target}+ "
        f"(modifier {wound.effective_modifier:+d}) → P(wound) = {fraction_str(wound.p_pass())}, "
        f"P(Critical Wound) = {fraction_str(wound.p_critical())}."
    )
    save = save_test(weapon, target, options)
    if save is None:
        lines.append("Saving throw: none possible.")
    else:
        lines.append(
            f"Saving throw: {save.target}+ with modifier {save.effective_modifier:+d} → "
            f"P(save) = {fraction_str(save.p_pass())}."
        )
    return lines


def _attack_reference_tables() -> list[Table]:
    strengths = range(1, 17)
    toughness = range(1, 13)
    wound = Table(
        name="wound_roll_table",
        title="Wound roll needed: Strength (rows) against Toughness (columns)",
        columns=("S", *(f"T{t}" for t in toughness)),
        rows=tuple((s, *(f"{wound_target(s, t)}+" for t in toughness)) for s in strengths),
        note="Published 10th-edition table (interpretation wh40k.interpretations.wound-table).",
    )
    modifiers = (-1, 0, 1)
    rows = []
    for bs in range(2, 7):
        for reroll in REROLL_CHOICES:
            cells = []
            for mod in modifiers:
                w = Weapon("w", DiceExpr(0, 6, 1), bs, 4, 0, DiceExpr(0, 6, 1))
                cells.append(
                    fraction_str(
                        hit_test(w, Target(4, 7, 1), Options(hit_modifier=mod, reroll_hits=reroll)).p_pass()
                    )
                )
            rows.append((f"{bs}+", reroll, *cells))
    hits = Table(
        name="hit_probability",
        title="P(hit) by BS/WS, re-roll and total modifier",
        columns=("BS/WS", "re-roll", *(f"{m:+d}" for m in modifiers)),
        rows=tuple(rows),
        note="Exact; an unmodified 6 always hits and an unmodified 1 always misses.",
    )
    aps = range(0, -5, -1)
    save_rows = []
    for sv in range(2, 7):
        cells = []
        for ap in aps:
            w = Weapon("w", DiceExpr(0, 6, 1), 3, 4, ap, DiceExpr(0, 6, 1))
            st = save_test(w, Target(4, sv, 1))
            cells.append(fraction_str(st.p_pass()) if st else "0")
        save_rows.append((f"{sv}+", *cells))
    saves = Table(
        name="save_probability",
        title="P(armour save) by Save (rows) and AP (columns), no cover",
        columns=("Sv", *(f"AP{ap}" if ap else "AP0" for ap in aps)),
        rows=tuple(save_rows),
    )
    return [wound, hits, saves]


ATTACK_RULES = [
    "wh40k.attack.sequence",
    "wh40k.attack.attacks",
    "wh40k.attack.blast",
    "wh40k.attack.hit-roll",
    "wh40k.attack.heavy",
    "wh40k.attack.stealth",
    "wh40k.attack.fire-overwatch",
    "wh40k.attack.torrent",
    "wh40k.attack.sustained-hits",
    "wh40k.attack.lethal-hits",
    "wh40k.attack.wound-roll",
    "wh40k.attack.anti",
    "wh40k.attack.twin-linked",
    "wh40k.attack.devastating-wounds",
    "wh40k.attack.saving-throw",
    "wh40k.attack.invulnerable-save",
    "wh40k.attack.benefit-of-cover",
    "wh40k.attack.ignores-cover",
    "wh40k.attack.damage",
    "wh40k.attack.feel-no-pain",
    "wh40k.attack.allocation",
    "wh40k.attack.mortal-wounds",
    "wh40k.core.rerolls",
]
"""Every rule one weapon's attack executes (used by wh40k.attack and wh40k.sequence)."""


@calculator(
    "wh40k.attack",
    title="Attack sequence (one weapon)",
    summary="""Exact distribution of wounds lost and models destroyed when one weapon attacks a
    unit: Attacks (dice, Blast), Hit roll (Heavy, Stealth, Torrent, Fire Overwatch, Critical
    Hits, Sustained and Lethal Hits), Wound roll (S vs T, Anti-X, Twin-linked, Devastating
    Wounds), saving throw (AP, invulnerable, cover), Damage, Feel No Pain and allocation.""",
    inputs=[
        DiceInput(
            key="attacks", label="Attacks (A)", help="The weapon's Attacks: 3, D6, D6+3, 2D6 …", min_value=1
        ),
        IntInput(key="skill", label="BS/WS", help="The X of the weapon's BS or WS X+.", minimum=2, maximum=6),
        IntInput(key="strength", label="Strength (S)", help="The weapon's Strength.", minimum=1, maximum=30),
        IntInput(
            key="ap",
            label="AP",
            help="Armour Penetration as printed: 0 or negative.",
            minimum=-6,
            maximum=0,
            default=0,
        ),
        DiceInput(key="damage", label="Damage (D)", help="The weapon's Damage: 1, D3, D6+1 …", min_value=1),
        WordListInput(
            key="abilities",
            label="Weapon abilities",
            help=(
                "Comma list, e.g. lethal-hits,sustained-hits-1,devastating-wounds,blast,anti-infantry-4. "
                "Pistol, psychic, precision and hazardous are accepted but change no number here "
                "(a warning says so); with several anti-KEYWORD-N that apply, the lowest N counts."
            ),
            words=ABILITY_WORDS,
            default=(),
        ),
        BoolInput(
            key="ranged",
            label="Ranged attack",
            help="true for a ranged weapon, false for melee.",
            default=True,
        ),
        *ATTACKER_SITUATION,
        *TARGET_INPUTS,
        *INTERPRETATION_INPUTS,
    ],
    outputs=OUTPUTS,
    rules=ATTACK_RULES,
    check=_check_attack,
    examples=[
        {
            "attacks": "40",
            "skill": "3",
            "strength": "5",
            "ap": "-1",
            "damage": "1",
            "abilities": "sustained-hits-1,devastating-wounds",
            "toughness": "4",
            "save": "3",
            "wounds": "2",
            "models": "20",
            "fnp": "5",
        },
        {
            "attacks": "D6+3",
            "skill": "2",
            "strength": "7",
            "ap": "-2",
            "damage": "1",
            "abilities": "blast,devastating-wounds,lethal-hits",
            "toughness": "4",
            "save": "3",
            "wounds": "2",
            "models": "10",
            "cover": "true",
        },
        {
            "attacks": "5",
            "skill": "2",
            "strength": "14",
            "ap": "-3",
            "damage": "4",
            "abilities": "lethal-hits",
            "ranged": "false",
            "toughness": "11",
            "save": "2",
            "invuln": "4",
            "wounds": "14",
            "models": "1",
        },
    ],
    reference_tables=_attack_reference_tables,
)
def attack_calculator(**values: Any) -> CalcResult:
    """Exact attack sequence of one weapon against one unit."""
    weapon = _weapon(values)
    target = _target(values)
    options = _options(values)
    result = resolve([weapon], target, options)
    return sequence_result(result, _roll_lines(weapon, target, options), _ability_warnings(weapon, target))


# -- wh40k.mortarion ---------------------------------------------------------------------------------

MORTARION_WEAPONS = ("rotwind", "the-lantern", "silence-strike", "silence-sweep")


def _chosen(values: Mapping[str, Any]) -> list[Weapon]:
    table = mortarion_weapons()
    return [table[k] for k in values["weapons"]]


def _check_mortarion(values: Mapping[str, Any]) -> None:
    _check_target(values)
    chosen = values["weapons"]
    if not chosen:
        raise InputError("weapons", "name at least one of " + ", ".join(MORTARION_WEAPONS))
    weapons = _chosen(values)
    if len({w.ranged for w in weapons}) > 1:
        raise InputError(
            "weapons", "shoot (rotwind, the-lantern) or fight (silence-strike or silence-sweep), not both"
        )
    if "silence-strike" in chosen and "silence-sweep" in chosen:
        raise InputError(
            "weapons", "Silence attacks with one profile at a time: silence-strike or silence-sweep"
        )
    for w in weapons:
        _check_weapon(values, w, "weapons", w.name)
    _check_joint(values, weapons, "weapons")
    _check_budget(values, weapons, "weapons", [w.name for w in weapons])


@calculator(
    "wh40k.mortarion",
    title="Mortarion's weapons in sequence",
    summary="""Mortarion attacks one unit with several weapons in turn (e.g. Rotwind then The
    Lantern); damage carries from weapon to weapon and Devastating Wounds come last. Exact
    distribution of wounds lost and models destroyed.""",
    inputs=[
        WordListInput(
            key="weapons",
            label="Weapons, in order",
            help="Comma list from rotwind, the-lantern (shooting) or silence-strike / silence-sweep (melee).",
            words=tuple((k, k) for k in MORTARION_WEAPONS),
            default=("rotwind", "the-lantern"),
        ),
        BoolInput(
            key="damaged",
            label="Damaged (1–6 wounds left)",
            help="Mortarion has 1–6 wounds remaining: −1 to his Hit rolls.",
            default=False,
        ),
        *ATTACKER_SITUATION,
        *TARGET_INPUTS,
        *INTERPRETATION_INPUTS,
    ],
    outputs=OUTPUTS,
    rules=[
        "wh40k.mortarion.weapons",
        "wh40k.mortarion.damaged",
        "wh40k.attack.sequence",
        "wh40k.attack.devastating-wounds",
        "wh40k.attack.allocation",
    ],
    check=_check_mortarion,
    examples=[
        {"weapons": "rotwind,the-lantern", "toughness": "4", "save": "3", "wounds": "2", "models": "10"},
        {
            "weapons": "silence-strike",
            "toughness": "12",
            "save": "2",
            "invuln": "4",
            "wounds": "22",
            "models": "1",
        },
    ],
)
def mortarion_calculator(*, weapons: tuple[str, ...], damaged: bool, **values: Any) -> CalcResult:
    """Mortarion's chosen weapons, resolved in order against one target."""
    chosen = _chosen({"weapons": weapons})
    target = _target(values)
    opts = dict(values)
    opts["hit_modifier"] = values["hit_modifier"] + damaged_hit_modifier(damaged)
    options = _options(opts)
    result = resolve(chosen, target, options)
    lines = [f"Weapons in order: {', '.join(w.name for w in chosen)}."]
    if damaged:
        lines.append("Damaged: −1 to every Hit roll (the total modifier is still capped at ±1).")
    return sequence_result(result, lines)


# -- wh40k.sequence ----------------------------------------------------------------------------------


def _check_sequence(values: Mapping[str, Any]) -> None:
    _check_target(values)
    weapons = parse_weapons(values["weapons"])
    labels = [
        f"weapon {i} ({w.name})" if w.name != f"weapon {i}" else w.name for i, w in enumerate(weapons, 1)
    ]
    if len({w.ranged for w in weapons}) > 1:
        first_melee = next(i for i, w in enumerate(weapons) if not w.ranged)
        raise InputError(
            "weapons",
            f"{labels[first_melee]}: a sequence is one shooting or one fight, so give every weapon BS "
            "(ranged) or every weapon WS (melee), not a mix",
        )
    for weapon, label in zip(weapons, labels, strict=True):
        _check_weapon(values, weapon, "weapons", label)
    _check_joint(values, weapons, "weapons")
    _check_budget(values, weapons, "weapons", labels)


@calculator(
    "wh40k.sequence",
    title="Several weapons in sequence",
    summary="""Your own weapon profiles attack one unit in the order given (e.g. bolters, then a
    plasma gun); damage left on a model carries from weapon to weapon and the mortal wounds of
    Devastating Wounds come after every normal attack. Exact distribution of wounds lost and
    models destroyed, with a breakdown per weapon.""",
    inputs=[
        WeaponProfilesInput(
            key="weapons",
            label="Weapons, in order",
            help=(
                "One profile per weapon, separated by ';': an optional name and ':', then A (attacks, "
                "dice allowed), BS for a ranged weapon or WS for a melee one, S, AP (0 or negative; "
                "0 if left out), D (dice allowed), then the ability words of wh40k.attack "
                "(e.g. lethal-hits,sustained-hits-1). Every weapon shoots, or every weapon fights. "
                "Pistol, psychic, precision and hazardous are accepted but change no number."
            ),
            default="bolters: A=20 BS=3 S=4 AP=0 D=1; plasma: A=2 BS=3 S=8 AP=-3 D=2",
        ),
        *ATTACKER_SITUATION,
        *TARGET_INPUTS,
        *INTERPRETATION_INPUTS,
    ],
    outputs=OUTPUTS,
    rules=ATTACK_RULES,  # every weapon of a sequence runs the whole attack sequence
    check=_check_sequence,
    examples=[
        {
            "weapons": "bolters: A=20 BS=3 S=4 AP=0 D=1; plasma: A=2 BS=3 S=8 AP=-3 D=2",
            "toughness": "4",
            "save": "3",
            "wounds": "2",
            "models": "5",
        },
        {
            "weapons": "heavy bolter: A=3 BS=4 S=5 AP=-1 D=2 sustained-hits-1,heavy; "
            "melta: A=1 BS=4 S=9 AP=-4 D=D6 devastating-wounds",
            "toughness": "6",
            "save": "3",
            "wounds": "3",
            "models": "3",
            "invuln": "4",
        },
    ],
)
def sequence_calculator(*, weapons: str, **values: Any) -> CalcResult:
    """The user's weapon profiles, resolved in order against one target."""
    chosen = parse_weapons(weapons)
    target = _target(values)
    options = _options(values)
    result = resolve(chosen, target, options)
    lines = [f"Weapons in order: {', '.join(w.name for w in chosen)}."]
    warnings: list[str] = []
    for weapon in chosen:
        lines += [f"{weapon.name} — {line}" for line in _roll_lines(weapon, target, options)]
        warnings += _ability_warnings(weapon, target, weapon.name)
    return sequence_result(result, lines, warnings)


# -- wh40k.battle-shock ------------------------------------------------------------------------------


@calculator(
    "wh40k.battle-shock",
    title="Battle-shock test",
    summary="Chance that a unit passes a Battle-shock test: 2D6 at or above its Leadership.",
    inputs=[
        IntInput(
            key="leadership",
            label="Leadership (Ld)",
            help="The X of the unit's best Leadership X+.",
            minimum=2,
            maximum=12,
        ),
        IntInput(
            key="modifier",
            label="Modifier",
            help="Added to the 2D6 roll (negative is worse).",
            minimum=-6,
            maximum=6,
            default=0,
        ),
    ],
    outputs=[
        Output("p_pass", "P(pass)", "probability", "Chance the test passes."),
        Output("p_battle_shocked", "P(Battle-shocked)", "probability", "Chance the test fails."),
    ],
    rules=["wh40k.core.battle-shock"],
    examples=[{"leadership": "7"}, {"leadership": "6", "modifier": "-1"}],
    reference_tables=lambda: [
        Table(
            name="battle_shock_by_ld",
            title="P(pass) of a Battle-shock test by Leadership",
            columns=("Ld", "p_exact", "p"),
            rows=tuple(
                (
                    f"{ld}+",
                    fraction_str(battle_shock_test(ld).p_pass()),
                    float(battle_shock_test(ld).p_pass()),
                )
                for ld in range(2, 13)
            ),
        )
    ],
)
def battle_shock_calculator(*, leadership: int, modifier: int) -> CalcResult:
    """Exact P(pass) of a Battle-shock test."""
    p = battle_shock_test(leadership, modifier).p_pass()
    lines = (
        f"Roll 2D6{modifier:+d}; {leadership} or more passes: P(pass) = {fraction_str(p)} ≈ {float(p):.1%}.",
        "A failed test leaves the unit Battle-shocked (OC 0, no Stratagems) until your next Command phase.",
    )
    return CalcResult(
        values={**probability_values("p_pass", p), **probability_values("p_battle_shocked", Fraction(1) - p)},
        explanation=lines,
    )


# -- single-D6 tests of the source: Desperate Escape, Hazardous, Deadly Demise --------------------


def _count_values(name: str, dist: Distribution[int], size: int) -> dict[str, Any]:
    probs = _dense(dist, size)
    return {
        name: [float(p) for p in probs],
        f"{name}_exact": [fraction_str(p) for p in probs],
        f"mean_{name}": float(dist.mean()),
        f"mean_{name}_exact": fraction_str(dist.mean()),
    }


def _check_escape(values: Mapping[str, Any]) -> None:
    if values["tests"] > values["models"]:
        raise InputError(
            "tests", f"at most one test per model: at most {values['models']}, got {values['tests']}"
        )


@calculator(
    "wh40k.desperate-escape",
    title="Desperate Escape tests",
    summary="""Models lost when a unit Falls Back over enemy models (or Falls Back while
    Battle-shocked): one D6 per test, each 1–2 destroys a model.""",
    inputs=[
        IntInput(
            key="tests",
            label="Tests",
            help="Models that take a Desperate Escape test.",
            minimum=1,
            maximum=40,
        ),
        IntInput(
            key="models",
            label="Models in the unit",
            help="Models in the unit falling back.",
            minimum=1,
            maximum=40,
        ),
    ],
    outputs=[
        Output(
            "models_destroyed",
            "P(exactly k models destroyed)",
            "list",
            "Index k holds P(k models destroyed).",
        ),
        Output("mean_models_destroyed", "Mean models destroyed", "number", "Expected models destroyed."),
        Output("p_unit_destroyed", "P(unit destroyed)", "probability", "Chance that no model is left."),
    ],
    rules=["wh40k.core.desperate-escape", "wh40k.core.battle-shock"],
    check=_check_escape,
    examples=[{"tests": "5", "models": "5"}, {"tests": "2", "models": "10"}],
)
def desperate_escape_calculator(*, tests: int, models: int) -> CalcResult:
    """Exact distribution of models destroyed by Desperate Escape tests."""
    dist = failures(desperate_escape_test(), tests)
    p_all = dist.p(models) if tests == models else Fraction(0)
    values = {
        **_count_values("models_destroyed", dist, tests + 1),
        **probability_values("p_unit_destroyed", p_all),
    }
    lines = (
        f"{tests} D6, each 1–2 (chance 1/3) destroys a model: {float(dist.mean()):.2f} models on average.",
        "A Battle-shocked unit that Falls Back tests for every model.",
    )
    return CalcResult(values=values, explanation=lines)


@calculator(
    "wh40k.hazardous",
    title="Hazardous tests",
    summary="""After a unit shoots or fights: one D6 per Hazardous weapon used; each 1 makes a
    bearer suffer 3 mortal wounds.""",
    inputs=[
        IntInput(
            key="weapons",
            label="Hazardous weapons used",
            help="Hazardous weapons that targets were selected for.",
            minimum=1,
            maximum=20,
        ),
    ],
    outputs=[
        Output("failed_tests", "P(exactly k failed tests)", "list", "Index k holds P(k tests fail)."),
        Output("mean_failed_tests", "Mean failed tests", "number", "Expected failed tests."),
        Output(
            "mean_mortal_wounds", "Mean mortal wounds", "number", "3 per failed test, before Feel No Pain."
        ),
        Output("p_any_failure", "P(at least one failure)", "probability", "Chance that some bearer is hurt."),
    ],
    rules=["wh40k.attack.hazardous"],
    examples=[{"weapons": "3"}],
)
def hazardous_calculator(*, weapons: int) -> CalcResult:
    """Exact distribution of failed Hazardous tests."""
    dist = failures(hazardous_test(), weapons)
    values = {
        **_count_values("failed_tests", dist, weapons + 1),
        "mean_mortal_wounds": float(3 * dist.mean()),
        "mean_mortal_wounds_exact": fraction_str(3 * dist.mean()),
        **probability_values("p_any_failure", 1 - dist.p(0)),
    }
    lines = (f"{weapons} D6, each 1 (chance 1/6) fails and costs a bearer 3 mortal wounds.",)
    return CalcResult(values=values, explanation=lines)


@calculator(
    "wh40k.deadly-demise",
    title="Deadly Demise",
    summary="""When a model with Deadly Demise x is destroyed: chance it explodes (a 6) and the
    mortal wounds each unit within 6" suffers.""",
    inputs=[
        DiceInput(key="x", label="Deadly Demise x", help="Mortal wounds on a 6: 1, D3, D6 …", min_value=1)
    ],
    outputs=[
        Output("p_explodes", "P(explodes)", "probability", "Chance of the 6."),
        Output("mortal_wounds", "P(exactly k mortal wounds)", "list", "Per unit within 6 inches; index k."),
        Output("mean_mortal_wounds", "Mean mortal wounds", "number", "Per unit within 6 inches."),
    ],
    rules=["wh40k.core.deadly-demise"],
    examples=[{"x": "D6"}, {"x": "D3"}],
)
def deadly_demise_calculator(*, x: DiceExpr) -> CalcResult:
    """Exact mortal wounds suffered by each unit within 6" of the destroyed model."""
    boom = deadly_demise_test().p_pass()
    pairs = [(0, 1 - boom)] + [(k, boom * p) for k, p in x.distribution()]
    dist = Distribution.from_pairs(pairs)
    values = {
        **probability_values("p_explodes", boom),
        **_count_values("mortal_wounds", dist, x.maximum + 1),
    }
    lines = (
        f"On a 6 (chance 1/6) each unit within 6 inches suffers {x} mortal wounds, rolled separately per unit.",
    )
    return CalcResult(values=values, explanation=lines)
