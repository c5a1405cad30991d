"""What an attack does to morale: casualties → Below Half-strength → Battle-shock → Desperate
Escape, as one exact chain (``wh40k.attack-and-battle-shock``).

Step 1 is the exact distribution of what the attack leaves: the main engine
(:func:`~rulesbook.systems.wh40k.attack.engine.resolve`) for an ordinary unit, :func:`~rulesbook.systems.wh40k.attack.groups.resolve_attached` for a Leader
with its Bodyguard (Precision included). Every other step is exact arithmetic over that
distribution, outcome by outcome:

2. the unit that remains — the Attached unit, or whichever part survived with its own
   Starting Strength — is Below Half-strength or not (:func:`below_half_strength`);
3. it then fails its Battle-shock test (:func:`~rulesbook.systems.wh40k.attack.rolls.battle_shock_test`, best Leadership of
   the models left) or not;
4. a Battle-shocked unit that Falls Back takes one Desperate Escape test per model
   (:func:`~rulesbook.systems.wh40k.attack.rolls.desperate_escape_test`), each 1–2 removing a model.

Example:
    Ten T4 Sv 3+ W1 models (Ld 6+) hit by 20 bolter shots, BS 3+, S4, AP0: each shot kills with
    chance 2/3 x 1/2 x 1/3 = 1/9, six kills leave them Below Half-strength (P(Binomial(20, 1/9)
    >= 6)), and 2D6 falls short of 6 with chance 10/36:

    >>> gun = Weapon("bolters", parse_dice("20"), 3, 4, 0, parse_dice("1"))
    >>> chain = attack_aftermath([gun], Target(4, 3, 1, models=10), leadership=6)
    >>> round(float(chain.p_below_half), 4), round(float(chain.p_battle_shocked), 4)
    (0.0184, 0.0051)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesbook.calculators import Output, calculator
from rulesbook.dice import parse_dice  # noqa: F401 (the examples use it)
from rulesbook.errors import InputError
from rulesbook.inputs import BoolInput, IntInput, optional
from rulesbook.present.numbers import fixed, percent
from rulesbook.registry import implements
from rulesbook.results import CalcResult, Column, Distribution, Table, fraction_str
from rulesbook.systems.wh40k.attack.engine import resolve
from rulesbook.systems.wh40k.attack.groups import (
    JOINT_WOUNDS_LIMIT,
    LeaderProfile,
    has_precision,
    joint_wounds_bound,
    resolve_attached,
)
from rulesbook.systems.wh40k.attack.rolls import (
    DEFAULT_SITUATION,
    Situation,
    desperate_escape_test,
    failures,
)
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon
from rulesbook.systems.wh40k.calculators.path import (
    READING_INPUTS,
    SITUATION_INPUTS,
    TARGET_INPUTS,
    Attackers,
    check_attackers,
    situation_of,
    target_of,
)
from rulesbook.systems.wh40k.calculators.profiles import WeaponProfilesInput, parse_weapons
from rulesbook.systems.wh40k.calculators.report import ability_warnings, dense, pistol_warnings
from rulesbook.systems.wh40k.calculators.roll_tests import (
    ENEMY_SICKNESS_INPUT,
    STRATAGEMS_INPUT,
    effect_lines,
    sickness_line,
    stratagems_shock,
)
from rulesbook.systems.wh40k.choices import CHOICES, Wh40kChoices, Wh40kReadings
from rulesbook.systems.wh40k.effects.kind import ShockTest
from rulesbook.systems.wh40k.faction.shock import leadership_worsened, p_pass

__all__ = [
    "MAX_ATTACHED_STATES",
    "Aftermath",
    "Remaining",
    "attack_aftermath",
    "attack_and_battle_shock_calculator",
    "below_half_strength",
    "remaining_unit",
]

_BARE = ShockTest()
"""The Battle-shock test no input or effect has changed."""

MAX_ATTACHED_STATES = 1500
"""Most (Bodyguard wounds + 1) × (Leader wounds + 1) states the Attached-unit engine accepts."""


@dataclass(frozen=True, slots=True)
class Remaining:
    """The unit that tests after the attack: models and wounds left, its Starting Strength and
    Wounds characteristic (for a unit that started as one model), and its best Leadership."""

    models: int
    starting_strength: int
    wounds_left: int
    wounds: int
    leadership: int


@implements("wh40k.core.starting-strength", "wh40k.core.attached-units")
def remaining_unit(
    lost: tuple[int, int], bodyguard: Target, leader: LeaderProfile, leadership: int, leader_leadership: int
) -> Remaining | None:
    """What is left of the target after it lost ``lost`` = (Bodyguard wounds, Leader wounds),
    or ``None`` when nothing is. Both parts alive: the Attached unit, Starting Strength the sum
    of both, the best (lowest) Leadership. One part wiped out: the other on its own, with its
    original Starting Strength.

    >>> bg, cap = Target(4, 3, 2, models=5), LeaderProfile(1, 5, 3)
    >>> remaining_unit((4, 0), bg, cap, 6, 5)       # three Intercessors and the Captain left
    Remaining(models=4, starting_strength=6, wounds_left=0, wounds=0, leadership=5)
    >>> remaining_unit((10, 2), bg, cap, 6, 5)      # the Captain alone, Starting Strength 1
    Remaining(models=1, starting_strength=1, wounds_left=3, wounds=5, leadership=5)
    """
    b, c = lost
    alive_b = bodyguard.models - b // bodyguard.wounds
    alive_c = leader.models - c // leader.wounds if leader.models else 0
    if alive_b and alive_c:
        return Remaining(
            alive_b + alive_c, bodyguard.models + leader.models, 0, 0, min(leadership, leader_leadership)
        )
    if alive_b:
        return Remaining(alive_b, bodyguard.models, bodyguard.total_wounds - b, bodyguard.wounds, leadership)
    if alive_c:
        return Remaining(
            alive_c, leader.models, leader.models * leader.wounds - c, leader.wounds, leader_leadership
        )
    return None


@implements("wh40k.core.starting-strength")
def below_half_strength(unit: Remaining, choices: Wh40kChoices = CHOICES) -> bool:
    """Below Half-strength (interpretation ``below-half-strength``): fewer models than half the
    Starting Strength; for a unit that started as one model, fewer wounds than half its W. The
    share is the parameter ``below_strength_fraction`` (1/2; a variant may make it 1/3).

    >>> below_half_strength(Remaining(5, 10, 0, 0, 6)), below_half_strength(Remaining(4, 10, 0, 0, 6))
    (False, True)
    >>> below_half_strength(Remaining(1, 1, 8, 16, 6)), below_half_strength(Remaining(1, 1, 7, 16, 6))
    (False, True)
    >>> below_half_strength(Remaining(5, 10, 0, 0, 6), CHOICES.replace(readings={"below_half_strength": "at-most-half"}))
    True
    >>> third = CHOICES.replace(parameters={"below_strength_fraction": "1/3"})
    >>> below_half_strength(Remaining(4, 10, 0, 0, 6), third), below_half_strength(Remaining(3, 10, 0, 0, 6), third)
    (False, True)
    """
    left, whole = (
        (unit.wounds_left, unit.wounds)
        if unit.starting_strength == 1
        else (unit.models, unit.starting_strength)
    )
    share = choices.parameters.below_strength_fraction  # 1/2 by the rule; a variant may say 1/3
    if choices.readings.below_half_strength == "at-most-half":
        return left <= share * whole
    return left < share * whole


@dataclass(frozen=True, slots=True)
class Aftermath:
    """The chain's exact results.

    ``models_destroyed``: by the attack; ``escape_losses``: by Desperate Escape (0 unless
    Battle-shocked and Falling Back); ``models_lost``: both together.
    """

    models: int
    models_destroyed: Distribution[int]
    p_unit_destroyed: Fraction
    p_below_half: Fraction
    p_battle_shocked: Fraction
    escape_losses: Distribution[int]
    models_lost: Distribution[int]
    p_leader_destroyed: Fraction | None


@implements("wh40k.morale.attack-aftermath", "wh40k.core.battle-shock", "wh40k.core.desperate-escape")
def attack_aftermath(
    weapons: Sequence[Weapon],
    target: Target,
    leadership: int,
    situation: Situation = DEFAULT_SITUATION,
    choices: Wh40kChoices = CHOICES,
    leader: LeaderProfile | None = None,
    leader_leadership: int | None = None,
    shock: ShockTest = _BARE,
) -> Aftermath:
    """The exact chain: the attack, then Below Half-strength, the Battle-shock test and
    Desperate Escape (if the Battle-shocked unit Falls Back, interpretation
    ``battle-shocked-falls-back``). ``shock``: the test as modifiers, a re-roll and the effects
    of the unit's rules and stratagems change it (Insane Bravery passes it, so no Desperate
    Escape follows), passed as :func:`~rulesbook.systems.wh40k.faction.shock.p_pass` says.

    >>> gun = Weapon("melta", parse_dice("1"), 2, 9, -4, parse_dice("D6"))
    >>> chain = attack_aftermath([gun], Target(5, 3, 3, models=3), leadership=7)
    >>> chain.p_below_half   # two of three models must go: one shot never does it
    Fraction(0, 1)
    """
    group = leader if leader is not None and leader.models else None
    if group is None:
        result = resolve(weapons, target, situation, choices)
        lost: Distribution[tuple[int, ...]] = result.wounds_lost.map(lambda w: (w, 0))
        profile = LeaderProfile(0, 1, 7)
    else:
        lost = resolve_attached(weapons, target, group, situation, choices).lost
        profile = group
    ld_leader = leader_leadership if leader_leadership is not None else leadership
    models = target.models + profile.models
    escape_test = desperate_escape_test(choices)
    falls_back = choices.readings.battle_shocked_falls_back == "falls-back"
    destroyed: dict[int, Fraction] = {}
    escapes: dict[int, Fraction] = {}
    total: dict[int, Fraction] = {}
    below = shocked = wiped = leader_dead = Fraction(0)
    for (b, c), p in lost:
        dead = b // target.wounds + (c // profile.wounds if profile.models else 0)
        destroyed[dead] = destroyed.get(dead, Fraction(0)) + p
        if profile.models and c // profile.wounds == profile.models:
            leader_dead += p
        unit = remaining_unit((b, c), target, profile, leadership, ld_leader)
        outcomes: list[tuple[int, Fraction]] = [(0, Fraction(1))]
        if unit is None:
            wiped += p
        elif below_half_strength(unit, choices):
            below += p
            fail = 1 - p_pass(shock, unit.leadership, choices)
            shocked += p * fail
            if falls_back and fail:
                outcomes = [(0, 1 - fail)] + [(k, fail * q) for k, q in failures(escape_test, unit.models)]
        for k, q in outcomes:
            escapes[k] = escapes.get(k, Fraction(0)) + p * q
            total[dead + k] = total.get(dead + k, Fraction(0)) + p * q
    return Aftermath(
        models=models,
        models_destroyed=Distribution.from_pairs(destroyed.items()),
        p_unit_destroyed=wiped,
        p_below_half=below,
        p_battle_shocked=shocked,
        escape_losses=Distribution.from_pairs(escapes.items()),
        models_lost=Distribution.from_pairs(total.items()),
        p_leader_destroyed=leader_dead if profile.models else None,
    )


# -- the calculator ---------------------------------------------------------------------------

MORALE_INPUTS = (
    IntInput(
        key="leadership",
        label="Leadership (Ld)",
        help="The X of the target's Leadership X+ (the Bodyguard's, in an Attached unit).",
        minimum=2,
        maximum=12,
    ),
    IntInput(
        key="battle_shock_modifier",
        label="Battle-shock modifier",
        help="Added to the Battle-shock roll (negative is worse).",
        minimum=-6,
        maximum=6,
        default=0,
    ),
    BoolInput(
        key="battle_shock_reroll",
        label="Re-roll a failed Battle-shock test",
        help=(
            "A rule lets the unit re-roll a failed Battle-shock test (an effect reroll-battle-shock): "
            "both dice are rolled again, once."
        ),
        default=False,
    ),
    ENEMY_SICKNESS_INPUT,
    BoolInput(
        key="insane_bravery",
        label="Insane Bravery",
        help=(
            "The target's player uses Insane Bravery (1CP, once per battle): its Battle-shock test is "
            "passed, so no Desperate Escape follows (as stratagems=insane-bravery)."
        ),
        default=False,
    ),
    STRATAGEMS_INPUT,
    IntInput(
        key="leader_models",
        label="Leader models",
        help="0 for an ordinary unit; else the models of the CHARACTER unit leading it (an Attached unit).",
        minimum=0,
        maximum=5,
        default=0,
    ),
    IntInput(
        key="leader_wounds",
        label="Leader W",
        help="Wounds of each Leader model.",
        minimum=1,
        maximum=30,
        default=4,
    ),
    IntInput(
        key="leader_save",
        label="Leader Sv",
        help="The X of the Leader's Save X+ (7 = none); it saves the wounds allocated to it.",
        minimum=2,
        maximum=7,
        default=3,
    ),
    optional(
        IntInput(
            key="leader_invuln",
            label="Leader invulnerable save",
            help="The X of the Leader's invulnerable save, or none.",
            minimum=2,
            maximum=6,
        )
    ),
    *(
        optional(
            IntInput(
                key=key, label=label, help=f"The X of the Leader's {what}, or none.", minimum=2, maximum=6
            )
        )
        for key, label, what in (
            ("leader_fnp", "Leader Feel No Pain", "Feel No Pain"),
            (
                "leader_fnp_mortal",
                "Leader Feel No Pain (mortal wounds)",
                "Feel No Pain against mortal wounds only",
            ),
        )
    ),
    optional(
        IntInput(
            key="leader_leadership",
            label="Leader Ld",
            help="The X of the Leader's Leadership X+, or same (as the Bodyguard's).",
            minimum=2,
            maximum=12,
        ),
        "same",
    ),
)

MORALE_READINGS = (
    "below_half_strength",
    "battle_shocked_falls_back",
    "battle_shock_modifiers",
    "battle_shock_phase",
    "precision",
)


def _leader(values: Mapping[str, Any]) -> LeaderProfile | None:
    if not values["leader_models"]:
        return None
    return LeaderProfile(
        values["leader_models"],
        values["leader_wounds"],
        values["leader_save"],
        values["leader_invuln"],
        values["leader_fnp"],
        values["leader_fnp_mortal"],
    )


def _attackers(values: Mapping[str, Any]) -> Attackers:
    weapons = parse_weapons(values["weapons"])
    labels = tuple(
        f"weapon {i} ({w.name})" if w.name != f"weapon {i}" else w.name for i, w in enumerate(weapons, 1)
    )
    mixed = (
        "a sequence is one shooting or one fight: give every weapon BS (ranged) or every weapon WS (melee)"
    )
    return Attackers(weapons=weapons, field="weapons", labels=labels, mixed=mixed)


def _shock(values: Mapping[str, Any], choices: Wh40kChoices) -> ShockTest:
    """The target's Battle-shock test as its inputs and its player's stratagems change it
    (``insane_bravery``: the stratagem Insane Bravery among them)."""
    keys = tuple(values["stratagems"])
    if values["insane_bravery"] and "insane-bravery" not in keys:
        keys += ("insane-bravery",)
    start = ShockTest(modifier=values["battle_shock_modifier"], reroll=values["battle_shock_reroll"])
    return stratagems_shock(keys, start, choices)


def _check(values: Mapping[str, Any], choices: Any) -> None:
    _shock(values, choices)  # (an unknown stratagem is refused before the attack is computed)
    leader = _leader(values)
    check_attackers(_attackers(values), values, choices)
    if leader is not None:
        bound = joint_wounds_bound(
            _attackers(values).weapons, target_of(values), leader, situation_of(values), choices
        )
        if bound > JOINT_WOUNDS_LIMIT:
            raise InputError(
                "weapons",
                f"against an Attached unit a weapon with Devastating Wounds may score at most "
                f"{JOINT_WOUNDS_LIMIT} wounds, got up to {bound}; use fewer attacks",
            )
        states = (values["wounds"] * values["models"] + 1) * (leader.models * leader.wounds + 1)
        if states > MAX_ATTACHED_STATES:
            raise InputError(
                "leader_models",
                f"(Bodyguard wounds + 1) × (Leader wounds + 1) must be at most {MAX_ATTACHED_STATES}, got {states}",
            )


def _steps(chain: Aftermath, has_leader: bool) -> Table:
    def row(step: str, p: Fraction | None, mean: Fraction | None, note: str) -> tuple[Any, ...]:
        return (
            step,
            None if p is None else fraction_str(p),
            None if p is None else float(p),
            None if mean is None else float(mean),
            note,
        )

    fail_given = chain.p_battle_shocked / chain.p_below_half if chain.p_below_half else Fraction(0)
    escape = chain.escape_losses
    rows = [
        row(
            "1. casualties",
            1 - chain.models_destroyed.p(0),
            chain.models_destroyed.mean(),
            "P(at least one model destroyed); mean models destroyed",
        ),
        row("   unit destroyed", chain.p_unit_destroyed, None, "nothing left to test"),
        row("2. Below Half-strength", chain.p_below_half, None, "the unit left must test"),
        row(
            "3. Battle-shocked",
            chain.p_battle_shocked,
            None,
            f"fails its test; P(fail | Below Half-strength) = {fraction_str(fail_given)}",
        ),
        row(
            "4. Desperate Escape",
            1 - escape.p(0),
            escape.mean(),
            "P(at least one model lost); mean models lost (if it Falls Back)",
        ),
        row(
            "total",
            1 - chain.models_lost.p(0),
            chain.models_lost.mean(),
            "models lost to the attack and Desperate Escape",
        ),
    ]
    if has_leader and chain.p_leader_destroyed is not None:
        rows.insert(2, row("   Leader destroyed", chain.p_leader_destroyed, None, "every Leader model"))
    return Table(
        name="steps",
        title="Step by step",
        columns=("step", "p_exact", "p", "mean_models", "note"),
        rows=tuple(rows),
        note="Each probability is over the whole chain (not conditional), except where the note says so.",
    )


@calculator(
    "wh40k.attack-and-battle-shock",
    title="Attack and Battle-shock",
    summary="""What an attack does to morale, exactly: the casualties of your weapons (in
    order, as wh40k.sequence), then whether the target is left Below Half-strength (an Attached
    unit counts Leader and Bodyguard), fails its Battle-shock test, and loses models to
    Desperate Escape tests when it Falls Back. Precision weapons go for the Leader.""",
    inputs=[
        WeaponProfilesInput(
            key="weapons",
            label="Weapons, in order",
            help=(
                "Profiles as in wh40k.sequence, separated by ';': optional name and ':', then A, BS or "
                "WS, S, AP, D and ability words (precision sends wounds to the Leader)."
            ),
            default="bolters: A=20 BS=3 S=4 AP=0 D=1",
        ),
        *MORALE_INPUTS,
        *SITUATION_INPUTS,
        *TARGET_INPUTS,
        *READING_INPUTS,
        *(Wh40kReadings.input(key) for key in MORALE_READINGS),
    ],
    outputs=[
        Output(
            "p_below_half",
            "P(Below Half-strength)",
            "probability",
            "Chance the unit left must take a Battle-shock test.",
        ),
        Output(
            "p_battle_shocked",
            "P(Battle-shocked)",
            "probability",
            "Chance it is left Below Half-strength and fails the test.",
        ),
        Output(
            "p_unit_destroyed",
            "P(destroyed by the attack)",
            "probability",
            "Chance no model is left to test.",
        ),
        Output(
            "p_leader_destroyed",
            "P(Leader destroyed)",
            "probability",
            "Chance every Leader model is destroyed.",
            when="leader_models is above 0",
        ),
        Output("mean_models_destroyed", "Mean models destroyed", "number", "By the attack."),
        Output(
            "mean_escape_losses",
            "Mean Desperate Escape losses",
            "number",
            "Models lost to Desperate Escape tests.",
        ),
        Output("mean_models_lost", "Mean models lost", "number", "Attack and Desperate Escape together."),
        Output(
            "models_destroyed",
            "P(exactly k models destroyed)",
            "list",
            "By the attack; index k.",
            chart=("Models destroyed",),
        ),
        Output(
            "models_lost",
            "P(exactly k models lost)",
            "list",
            "Attack and Desperate Escape together; index k.",
            chart=("Models lost",),
        ),
        Output(
            "steps",
            "Step by step",
            "table",
            "The probability of each step of the chain.",
            columns=(
                Column("step", "Step"),
                Column("p", "Probability", "probability"),
                Column("mean_models", "Mean models"),
                Column("note", "What it counts"),
            ),
        ),
    ],
    rules=[
        "wh40k.morale.attack-aftermath",
        "wh40k.core.starting-strength",
        "wh40k.core.attached-units",
        "wh40k.attack.precision",
        "wh40k.core.battle-shock",
        "wh40k.core.desperate-escape",
        "wh40k.attack.sequence",
        "wh40k.attack.allocation",
        "wh40k.death-guard.stratagem.insane-bravery",
        "wh40k.death-guard.stratagem.insane-bravery-boarding-actions",
        "wh40k.death-guard.ability.scabrous-soulrot",
        "wh40k.attack.hit-roll",
    ],
    check=_check,
    choices=CHOICES,
    tests=("battle-shock",),
    examples=[
        {
            "weapons": "bolters: A=20 BS=3 S=4 AP=0 D=1",
            "toughness": "4",
            "save": "3",
            "wounds": "1",
            "models": "10",
            "leadership": "6",
        },
        {
            "weapons": "Rotwind: A=D6+3 BS=2 S=7 AP=-2 D=1 blast,devastating-wounds,lethal-hits; "
            "marksman: A=2 BS=2 S=5 AP=-2 D=3 precision",
            "toughness": "4",
            "save": "3",
            "wounds": "2",
            "models": "5",
            "leadership": "6",
            "leader_models": "1",
            "leader_wounds": "5",
            "leader_save": "3",
            "leader_invuln": "4",
            "leader_leadership": "6",
        },
    ],
)
def attack_and_battle_shock_calculator(*, choices: Wh40kChoices, **values: Any) -> CalcResult:
    """The exact chain with its step breakdown.

    >>> from rulesbook.registry import registry
    >>> r = registry().calculator("wh40k.attack-and-battle-shock").run(
    ...     weapons="A=1 BS=2 S=9 AP=-4 D=D6", toughness=5, save=3, wounds=3, models=3, leadership=7)
    >>> r["p_below_half_exact"]   # one shot cannot kill two of three models
    '0'
    """
    attackers = _attackers(values)
    leader = _leader(values)
    target = target_of(values)
    situation = situation_of(values)
    worse = leadership_worsened(values["enemy_sickness"], choices)
    leader_ld = values["leader_leadership"]
    shock = _shock(values, choices)
    chain = attack_aftermath(
        attackers.weapons,
        target,
        values["leadership"] + worse,
        situation,
        choices,
        leader,
        None if leader_ld is None else leader_ld + worse,
        shock,
    )
    out: dict[str, Any] = {
        "p_below_half": chain.p_below_half,
        "p_battle_shocked": chain.p_battle_shocked,
        "p_unit_destroyed": chain.p_unit_destroyed,
        "mean_models_destroyed": chain.models_destroyed.mean(),
        "mean_escape_losses": chain.escape_losses.mean(),
        "mean_models_lost": chain.models_lost.mean(),
        "models_destroyed": dense(chain.models_destroyed, chain.models + 1),
        "models_lost": dense(chain.models_lost, chain.models + 1),
    }
    if chain.p_leader_destroyed is not None:
        out["p_leader_destroyed"] = chain.p_leader_destroyed
    warnings = []
    for weapon, label in zip(attackers.weapons, attackers.labels, strict=True):
        for w in ability_warnings(weapon, target, weapon.name if label else ""):
            if "precision changes no number" not in w:
                warnings.append(w.replace("changes no number of this calculator", "changes no number here"))
        if leader is None and "precision" in weapon.abilities.other:
            warnings.append(
                f"{weapon.name}: precision only acts against an Attached unit (set leader_models)"
            )
    warnings += pistol_warnings(attackers.weapons, choices)
    lines = [
        f"The attack destroys {fixed(float(chain.models_destroyed.mean()))} of {chain.models} models on average.",
        f"Below Half-strength afterwards: {percent(float(chain.p_below_half))}; Battle-shocked: {percent(float(chain.p_battle_shocked))}.",
    ]
    if leader is not None:
        precise = [w.name for w in attackers.weapons if has_precision(w, choices)]
        lines.insert(
            0,
            "Attached unit: wounds go to the Bodyguard first"
            + (f"; Precision weapons ({', '.join(precise)}) go for the Leader first." if precise else "."),
        )
    sick = sickness_line(values["enemy_sickness"], values["leadership"], choices)
    if sick:
        lines.append(sick + (" The Leader's Leadership likewise." if leader is not None and worse else ""))
    lines += effect_lines(shock)
    if shock.worse:
        way = "worsen" if shock.worse > 0 else "improve"
        lines.append(f"The effects {way} Leadership by {abs(shock.worse)}.")
    if shock.reroll and not shock.passed:
        lines.append("A failed Battle-shock test is re-rolled once (both dice).")
    if shock.passed:
        lines.append(
            "The Battle-shock test is passed without a roll, so no Desperate Escape follows (Insane "
            "Bravery: both versions on the page agree on this; interpretation insane-bravery-versions)."
        )
    elif choices.readings.battle_shocked_falls_back == "falls-back":
        lines.append(
            f"If the Battle-shocked unit Falls Back, each model tests; {fixed(float(chain.escape_losses.mean()))} models are lost on average."
        )
    else:
        lines.append("The unit is taken not to Fall Back: no Desperate Escape test.")
    return CalcResult(
        values=out,
        tables=(_steps(chain, leader is not None),),
        explanation=tuple(lines),
        warnings=tuple(warnings),
    )
