"""Army Morale calculators, declared once around the pure rules and the ledger.

* ``army-morale.detachment-value``: ``points`` → ``morale``.
* ``army-morale.rally``: both sides' values and Rally-phase effects → the exact joint
  distribution after step R4 and ``p_a_wins``, ``p_b_wins``, ``p_draw``, ``p_continue``.
* ``army-morale.replay``: ``log=PATH`` → the audited ledger and the result.

Example:
    >>> from rulesbook.registry import registry
    >>> registry().calculator("army-morale.detachment-value").run(points=230)["morale"]
    5
    >>> r = registry().calculator("army-morale.rally").run(a_morale=2, a_blast_markers=3, a_take_and_hold=1,
    ...                                                    b_morale=5)
    >>> r["p_b_wins_exact"], r["p_continue_exact"]
    ('1/3', '2/3')
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rulesbook.calculators import Output, calculator
from rulesbook.errors import InputError
from rulesbook.inputs import IntInput, PathInput, WordListInput
from rulesbook.present.numbers import fixed
from rulesbook.results import DISTRIBUTION_COLUMNS, CalcResult, Column, Distribution, Table, fraction_str
from rulesbook.systems.army_morale.choices import CHOICES, ArmyMoraleChoices, ArmyMoraleReadings
from rulesbook.systems.army_morale.entries import LEDGER_COLUMNS, LEDGER_LABELS
from rulesbook.systems.army_morale.logfile import load_log
from rulesbook.systems.army_morale.replay import replay
from rulesbook.systems.army_morale.rules import (
    RallyCounts,
    added_effect,
    added_effects,
    check_rally_cost,
    detachment_value,
    game_end,
    joint_outcomes,
    published_bands,
    rally_terms,
    value_distribution,
)

__all__ = ["band_table", "rally_odds", "rally_odds_table"]

# -- army-morale.detachment-value -------------------------------------------------------------------

FORMULA_INPUT = ArmyMoraleReadings.input(
    "formula",
    label="Detachment value formula",
    help="How points become a Morale value (army-morale.interpretations.detachment-value-formula).",
)


def _band(points: int, morale: int, choices: ArmyMoraleChoices) -> str:
    if choices.readings.formula == "source-only":
        band = next(b for b in published_bands(choices).bands if b.low <= points <= b.high)
        return f"{band.low}-{band.high} pts"
    if morale == 0:
        return "0 pts"
    block = choices.parameters.points_per_morale
    return f"{block * (morale - 1) + 1}-{block * morale} pts"


def band_table(choices: ArmyMoraleChoices = CHOICES, up_to: int = 1000) -> Table:
    """Detachment Morale values by points band (the reference table of the calculator's page).

    >>> band_table(up_to=150).rows
    (('1-50', 1), ('51-100', 2), ('101-150', 3))
    """
    p = choices.parameters
    block = p.points_per_morale
    rows = tuple(
        (f"{low}-{low + block - 1}", detachment_value(low, choices)) for low in range(1, up_to + 1, block)
    )
    return Table(
        name="morale_by_points",
        title=f"Detachment Morale value by points (ceil(points / {block}))",
        columns=("points", "morale"),
        rows=rows,
        column_info=(Column("points", "Points"), Column("morale", "Morale value")),
        note=f"Only the {p.band_low}-{p.band_high} band (value {p.band_value}) is stated by the source; "
        "the rest follows the default formula.",
    )


def _check_points(values: Mapping[str, Any], choices: Any) -> None:
    if values["formula"] == "source-only":
        points = values["points"]
        (band,) = published_bands(CHOICES).bands
        if not band.low <= points <= band.high:
            raise InputError(
                "points",
                f"with formula=source-only only {band.low} to {band.high} points have a known value, got {points}",
            )


ADDED_EFFECTS_ONLY = {
    "rules.army-morale.effects.added": "the published rules add no morale effects: this rule's code "
    "runs only for effects a variant adds under add: morale_effects and the inputs or log name "
    "(tests/army_morale/test_added_effects.py checks those answers)",
}
"""Why overriding ``army-morale.effects.added`` alone changes nothing here."""


@calculator(
    "army-morale.detachment-value",
    title="Detachment Morale value",
    summary="""The Morale value of a detachment from its points cost: one per started 50 points by
    default, which gives the source's 201-250 pts → 5.""",
    inputs=[
        IntInput(
            key="points",
            label="Points",
            help="The detachment's total points cost.",
            minimum=0,
            maximum=10_000,
        ),
        FORMULA_INPUT,
    ],
    outputs=[
        Output(
            "morale", "Detachment Morale value", "number", "What the detachment adds to its army's value."
        ),
        Output("band", "Points band", "text", "The band of points costs that share this value."),
    ],
    rules=["army-morale.detachment.value"],
    check=_check_points,
    examples=[{"points": "225"}, {"points": "480"}, {"points": "230", "formula": "source-only"}],
    reference_tables=lambda: [band_table()],
    choices=CHOICES,
)
def detachment_value_calculator(*, points: int, choices: ArmyMoraleChoices) -> CalcResult:
    """The Detachment Morale value and the band it belongs to."""
    morale = detachment_value(points, choices)
    bonus = choices.parameters.detachment_value_bonus
    base = detachment_value(points, choices.replace(parameters={"detachment_value_bonus": 0}))
    band = _band(points, base, choices)
    block = choices.parameters.points_per_morale
    if choices.readings.formula == "source-only":
        line = f"{points} pts lies in the band the source states ({band}): Morale value {base}."
    else:
        line = f"ceil({points} / {block}) = {base}: every started {block} points is worth 1 ({band})."
    lines = [line]
    if bonus:
        lines.append(f"Every detachment's value {bonus:+d} (detachment_value_bonus): {morale}.")
    return CalcResult(values={"morale": morale, "band": band}, explanation=tuple(lines))


# -- army-morale.rally ------------------------------------------------------------------------------


SIDE_FIELDS: tuple[tuple[str, str, str, int, int, int], ...] = (
    # key suffix, label, help ({s} = "side a"), minimum, maximum, default
    (
        "morale",
        "Army Morale value",
        "{S}'s Army Morale value before the end of the Rally phase.",
        -100,
        200,
        10,
    ),
    ("blast_markers", "Blast markers", "Blast markers left on {s}'s detachments (−1 each).", 0, 60, 0),
    ("take_and_hold", "Take & Hold objectives", "Take & Hold objectives {s} controls (+D3 each).", 0, 10, 0),
    (
        "rescue_escorts",
        "escort units",
        "{S}'s escort units (Rescue): +1 to {s}, −1 to the opponent each.",
        0,
        20,
        0,
    ),
    ("cleanse", "Cleanse objectives", "Cleanse objectives {s} controls (+1 each).", 0, 20, 0),
    (
        "capture_own",
        "Capture objectives (capture)",
        "Capture objectives {s} controls and uses to add D6 to its own value.",
        0,
        6,
        0,
    ),
    (
        "capture_destroy",
        "Capture objectives (destroy)",
        "Capture objectives {s} controls and uses to take D6 off the opponent's value.",
        0,
        6,
        0,
    ),
)
"""The per-side inputs of ``army-morale.rally``, declared once for both sides."""


def _side_inputs(side: str) -> list[IntInput]:
    name = f"side {side}"
    return [
        IntInput(
            key=f"{side}_{suffix}",
            label=f"{side.upper()}: {label}",
            help=text.format(s=name, S=name.capitalize()),
            minimum=low,
            maximum=high,
            default=default,
        )
        for suffix, label, text, low, high, default in SIDE_FIELDS
    ]


EQUAL_INPUT = ArmyMoraleReadings.input(
    "equal_values",
    label="Both at 0 or less and equal",
    help="Interpretation army-morale.interpretations.equal-values (counted under p_draw either way).",
)


def _effect_inputs(side: str) -> WordListInput:
    return WordListInput(
        key=f"{side}_effects",
        label=f"{side.upper()}: added morale effects",
        help=f"Morale effects a variant adds (add: morale_effects) that apply to side {side} at this "
        "step R4, as KEY=COUNT entries separated by commas (e.g. supply-lines=2; KEY alone is 1).",
        default=(),
        words=((r"[a-z0-9]+(?:-[a-z0-9]+)*(?:=[0-9]{1,2})?", "KEY=COUNT"),),
    )


def effect_counts(
    words: tuple[str, ...], field: str, choices: ArmyMoraleChoices = CHOICES
) -> tuple[tuple[str, int], ...]:
    """``KEY=COUNT`` words of added morale effects checked at step R4 (InputError naming ``field``).

    >>> effect_counts((), "a_effects")
    ()
    >>> effect_counts(("general-slain=1",), "a_effects")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: a_effects: unknown morale effect 'general-slain'; these rules add none (a variant adds them under add: morale_effects)
    """
    out: dict[str, int] = {}
    for part in words:
        key, _, count_text = part.partition("=")
        count_text = count_text or "1"
        if int(count_text) > MAX_EFFECT_COUNT:
            raise InputError(field, f"expected KEY=COUNT with COUNT from 0 to {MAX_EFFECT_COUNT}, got {part}")
        effect = added_effect(key, choices, field)
        if not effect.at_rally:
            raise InputError(
                field,
                f"{key} applies the moment it happens, not at step R4; add its value ({effect.value:+d}) "
                "to the Army Morale value instead",
            )
        if effect.once_only and int(count_text) > 1:
            raise InputError(field, f"{key} is a one-time effect: it applies once, got {count_text}")
        out[key] = out.get(key, 0) + int(count_text)
    return tuple(out.items())


MAX_EFFECT_COUNT = 20


def _counts(values: Mapping[str, Any], side: str, choices: ArmyMoraleChoices = CHOICES) -> RallyCounts:
    return RallyCounts(
        **{suffix: values[f"{side}_{suffix}"] for suffix, *_ in SIDE_FIELDS[1:]},
        effects=effect_counts(tuple(values.get(f"{side}_effects", ())), f"{side}_effects", choices),
    )


def _check_rally(values: Mapping[str, Any], choices: ArmyMoraleChoices) -> None:
    """Before any work: the added effects named must be the variant's, and a variant's dice may
    make the Rally odds too large to list."""
    check_rally_cost(_counts(values, "a", choices), _counts(values, "b", choices), choices)


def rally_odds(
    a_morale: int,
    b_morale: int,
    a: RallyCounts,
    b: RallyCounts,
    choices: ArmyMoraleChoices = CHOICES,
) -> tuple[Distribution[int], Distribution[int], dict[str, Fraction]]:
    """Exact distributions of both values after step R4 and P(a wins, b wins, draw, continue).

    The two values are independent (each depends on its own dice), so the joint
    distribution is their product.

    >>> _, _, p = rally_odds(1, 1, RallyCounts(blast_markers=1), RallyCounts(capture_destroy=1))
    >>> p["b"], p["continue"]
    (Fraction(1, 1), Fraction(0, 1))
    """
    terms = rally_terms(a, b, choices)
    da = value_distribution(a_morale, terms, "a")
    db = value_distribution(b_morale, terms, "b")
    outcomes = joint_outcomes(da, db, choices)
    return da, db, {str(k): v for k, v in outcomes.items()}


def rally_odds_table() -> Table:
    """P(a side is at 0 or less after the Rally phase) by its value (rows) and Blast markers
    (columns), with one Take & Hold objective held.

    >>> rally_odds_table().rows[0][:4]
    (1, '0', '0', '1/3')
    """
    markers = range(0, 6)
    rows = []
    for start in range(1, 9):
        row: list[Any] = [start]
        for bm in markers:
            dist = value_distribution(start, rally_terms(RallyCounts(bm, 1), RallyCounts()), "a")
            row.append(fraction_str(dist.p_at_most(0)))
        rows.append(tuple(row))
    return Table(
        name="p_broken_by_markers",
        title="P(value at 0 or less after the Rally phase), one Take & Hold objective held",
        columns=("value", *(f"{m} markers" for m in markers)),
        rows=tuple(rows),
        column_info=(Column("value", "Value before"), Column("1 markers", "1 marker")),
        note="Rows: the side's value before the Rally phase; columns: Blast markers left on its detachments.",
    )


def _term_lines(a: RallyCounts, b: RallyCounts, choices: ArmyMoraleChoices) -> list[str]:
    lines = []
    for side in ("a", "b"):
        parts = [t.signed_text for t in rally_terms(a, b, choices) if t.side == side]
        lines.append(f"Side {side}: " + (" ".join(parts) if parts else "no change") + ".")
    return lines


@calculator(
    "army-morale.rally",
    title="Rally phase odds (step R4)",
    summary="""Exact distribution of both Army Morale values after the end of the Rally phase —
    Blast markers, Take & Hold, Rescue, Cleanse and Capture — and the chance that the game ends
    with a win for either side, a draw, or goes on.""",
    inputs=[*_side_inputs("a"), *_side_inputs("b"), EQUAL_INPUT, _effect_inputs("a"), _effect_inputs("b")],
    outputs=[
        Output("p_a_wins", "P(side a wins)", "probability", "The game ends at step R4 and side a wins."),
        Output("p_b_wins", "P(side b wins)", "probability", "The game ends at step R4 and side b wins."),
        Output("p_draw", "P(draw)", "probability", "Both at 0 or less with equal values."),
        Output("p_continue", "P(game goes on)", "probability", "Both values stay above 0."),
        Output(
            "a_mean",
            "Mean value of a",
            "number",
            "Expected value of side a after the phase (exact in a_mean_exact).",
        ),
        Output(
            "b_mean",
            "Mean value of b",
            "number",
            "Expected value of side b after the phase (exact in b_mean_exact).",
        ),
        *(
            Output(
                f"{s}_values",
                f"Side {s}'s value",
                "table",
                f"Exact distribution of side {s}'s value after the Rally phase.",
                columns=(Column(s, f"Side {s}'s value"), *DISTRIBUTION_COLUMNS),
                chart=(s, "p"),
            )
            for s in ("a", "b")
        ),
        Output(
            "joint",
            "Joint distribution",
            "table",
            "Both values with their probability and verdict.",
            columns=(
                Column("a", "Side a's value"),
                Column("b", "Side b's value"),
                Column("p", "Probability", "probability"),
                Column("verdict", "Verdict"),
            ),
        ),
    ],
    rules=[
        "army-morale.ongoing.blast-markers",
        "army-morale.ongoing.take-and-hold",
        "army-morale.ongoing.rescue",
        "army-morale.ongoing.cleanse",
        "army-morale.one-time.capture",
        "army-morale.effects.added",
        "army-morale.game-end",
    ],
    insensitive=ADDED_EFFECTS_ONLY,
    examples=[
        {"a_morale": "2", "a_blast_markers": "3", "a_take_and_hold": "1", "b_morale": "5"},
        {
            "a_morale": "4",
            "a_take_and_hold": "2",
            "b_morale": "3",
            "b_blast_markers": "2",
            "a_capture_destroy": "1",
        },
    ],
    reference_tables=lambda: [rally_odds_table()],
    choices=CHOICES,
    check=_check_rally,
)
def rally_calculator(*, choices: ArmyMoraleChoices, **values: Any) -> CalcResult:
    """Both values' exact distributions after step R4 and the game-end odds."""
    a, b = _counts(values, "a", choices), _counts(values, "b", choices)
    da, db, p = rally_odds(values["a_morale"], values["b_morale"], a, b, choices)
    joint_rows = tuple(
        (va, vb, fraction_str(pa * pb), float(pa * pb), game_end(va, vb, choices))
        for va, pa in da
        for vb, pb in db
    )
    joint = Table(
        name="joint",
        title="Both values after the Rally phase",
        columns=("a", "b", "p_exact", "p", "verdict"),
        rows=joint_rows,
    )
    a_tab = da.table("a")
    b_tab = db.table("b")
    tables = (
        Table("a_values", "Side a's value after the Rally phase", a_tab.columns, a_tab.rows),
        Table("b_values", "Side b's value after the Rally phase", b_tab.columns, b_tab.rows),
        joint,
    )
    lines = [
        *_term_lines(a, b, choices),
        f"Side a: mean {fixed(float(da.mean()))}, P(≤ 0) = {fraction_str(da.p_at_most(0))}; "
        f"side b: mean {fixed(float(db.mean()))}, P(≤ 0) = {fraction_str(db.p_at_most(0))}.",
        *(
            f"Added morale effect {key}: {effect.describe()}."
            for key, effect in added_effects(choices)
            if effect.at_rally
        ),
        "The two values depend on different dice, so each pair's chance is the product of the two.",
        f"Game ends: a wins {fraction_str(p['a'])}, b wins {fraction_str(p['b'])}, "
        f"draw {fraction_str(p['draw'])}; "
        f"goes on {fraction_str(p['continue'])}.",
    ]
    out: dict[str, Any] = {
        "p_a_wins": p["a"],
        "p_b_wins": p["b"],
        "p_draw": p["draw"],
        "p_continue": p["continue"],
        "a_mean": da.mean(),
        "b_mean": db.mean(),
    }
    return CalcResult(values=out, tables=tables, explanation=tuple(lines))


# -- army-morale.replay -----------------------------------------------------------------------------


@calculator(
    "army-morale.replay",
    title="Replay a game log",
    summary="""Replays a game log (YAML or JSON, schema in the system guide) into both Army Morale
    values after every event and every Rally phase, with the rule behind each change, warnings and
    the result. Impossible logs are rejected with the line and the reason.""",
    inputs=[
        PathInput(
            key="log",
            label="Game log",
            help="Path of a game log (.yaml, .yml or .json); see the Army Morale guide for the schema.",
        )
    ],
    outputs=[
        Output("a_name", "Side a", "text"),
        Output("b_name", "Side b", "text"),
        Output("a_start", "Side a's starting value", "number"),
        Output("b_start", "Side b's starting value", "number"),
        Output("a_value", "Side a's value now", "number"),
        Output("b_value", "Side b's value now", "number"),
        Output("winner", "Verdict", "text", "a, b, draw, both-lose, or continue while the game goes on."),
        Output("ended_turn", "Turn the game ended", "number", "None while the game goes on."),
        Output("result", "Result", "text"),
        Output(
            "ledger",
            "Ledger",
            "table",
            "Every change with both values after it and the rule behind it.",
            columns=LEDGER_LABELS,
        ),
        Output(
            "rally",
            "After each Rally phase",
            "table",
            "Both values at each step R4 and the verdict.",
            columns=(
                Column("turn", "Turn"),
                Column("a", "Side a"),
                Column("b", "Side b"),
                Column("verdict", "Verdict"),
            ),
        ),
    ],
    rules=[
        "army-morale.army.value",
        "army-morale.detachment.value",
        "army-morale.detachment.strength",
        "army-morale.effects.kinds",
        "army-morale.effects.added",
        "army-morale.ongoing.blast-markers",
        "army-morale.ongoing.take-and-hold",
        "army-morale.ongoing.rescue",
        "army-morale.ongoing.cleanse",
        "army-morale.one-time.half-strength",
        "army-morale.one-time.war-engine-destroyed",
        "army-morale.one-time.destroyed-detachment-blast-markers",
        "army-morale.one-time.bunker",
        "army-morale.one-time.capture",
        "army-morale.game-end",
    ],
    insensitive=ADDED_EFFECTS_ONLY,
    examples=[{"log": "rulesbook/systems/army_morale/data/example-game.yaml"}],
    cacheable=False,
    choices=CHOICES,
)
def replay_calculator(*, log: str, choices: ArmyMoraleChoices) -> CalcResult:
    """Load and replay the log at ``log`` (its own readings on top of ``choices``)."""
    ledger = replay(load_log(log), choices)
    (a_name, b_name) = (ledger.log.army("a").name, ledger.log.army("b").name)
    entries = Table("ledger", "Ledger", LEDGER_COLUMNS, tuple(e.row() for e in ledger.entries))
    rally = Table(
        "rally",
        "Values after each Rally phase (step R4)",
        ("turn", "a", "b", "verdict"),
        ledger.rally_values,
    )
    a_value, b_value = ledger.values
    lines = [
        f"{a_name} (a) starts at {ledger.start[0]}, {b_name} (b) at {ledger.start[1]}.",
        *(f"Turn {t}, step R4: a {va}, b {vb} ({v})." for t, va, vb, v in ledger.rally_values),
        f"Result: {ledger.winner_text}.",
    ]
    values: dict[str, Any] = {
        "a_name": a_name,
        "b_name": b_name,
        "a_start": ledger.start[0],
        "b_start": ledger.start[1],
        "a_value": a_value,
        "b_value": b_value,
        "winner": ledger.verdict,
        "ended_turn": ledger.ended_turn,
        "result": ledger.winner_text,
    }
    return CalcResult(
        values=values, tables=(entries, rally), explanation=tuple(lines), warnings=ledger.warnings
    )
