"""Two army lists against each other: every unit of list A against every unit of list B, with
each of its weapon choices, shooting and in melee.

A **weapon choice** is what a unit can attack with at once (as ``wh40k.datasheet-attack``'s
``weapons``, each word ``key*N`` for the N models using it):

* **shooting** — every model fires its ranged weapons, but a model carrying Pistols and other
  ranged weapons fires one or the other (rule ``wh40k.attack.pistol``; a MONSTER or VEHICLE fires
  them all): one choice with the other guns, one with the Pistols; a weapon with several profiles
  (one at a time, :attr:`~rulesbook.systems.wh40k.faction.types.Datasheet.exclusive`) gives one choice per profile;
* **melee** — each model fights with one melee weapon: for each melee weapon of the unit, the
  models carrying it fight with it and the others with their first one; a weapon with Extra
  Attacks is used besides (rule ``wh40k.attack.extra-attacks``).

:func:`matchup_points` lists the calculator inputs of every (unit of A, choice, unit of B);
``rulesbook matchup A B`` runs them on the sweep machinery (serially, on local worker processes
or on Dask, with a progress bar) and :func:`matchup_summary` / :func:`matchup_figure` give the
table and the heatmap: for each unit of A and phase, its best choice against each unit of B, the
exact expected models destroyed and P(unit destroyed).

Example:
    >>> from rulesbook.systems.wh40k.lists.army import army_at
    >>> legion = army_at("tests/rosters/data/rust-legion.rosz", "a")
    >>> [(c.phase, c.weapons) for c in weapon_choices(legion.datasheets["rustguard-squad"])]
    [('shooting', ('plasma-burner-standard*1', 'rust-rifle*4')), ('shooting', ('plasma-burner-supercharge*1', 'rust-rifle*4')), ('shooting', ('bolt-pistol*1', 'rust-rifle*4')), ('melee', ('power-claw*1', 'close-combat-weapon*4'))]
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from rulesbook.present.plots import Grid, heatmap_figure
from rulesbook.systems.wh40k.faction.types import Datasheet, Faction

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = [
    "MAX_CHOICES",
    "Choice",
    "best_choices",
    "describe",
    "matchup_figure",
    "matchup_points",
    "matchup_summary",
    "weapon_choices",
]

MAX_CHOICES = 8
"""The most shooting choices one unit gets (one profile of each one-at-a-time weapon each); past
that, every weapon's first profile only."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One way a unit attacks: the phase and the weapons (``key*N``) its models use together."""

    phase: Literal["shooting", "melee"]
    weapons: tuple[str, ...]

    @property
    def label(self) -> str:
        """``rust-rifle ×4, plasma-burner-standard ×1``."""
        return ", ".join(w.replace("*", " ×") for w in self.weapons)


def _words(used: Counter[str]) -> tuple[str, ...]:
    return tuple(f"{k}*{n}" for k, n in used.items() if n)


def _shooting(sheet: Datasheet, pistols: bool = False) -> list[Choice]:
    """The shooting choices: each model's other guns (its Pistols when it has nothing else), or
    with ``pistols`` each model's Pistols (the other guns of a model without any)."""
    fires_all = sheet.has("MONSTER") or sheet.has("VEHICLE")
    used: Counter[str] = Counter()
    for p in sheet.model_profiles():
        ranged = [k for k in p.weapons if sheet.weapons[k].ranged]
        guns = [k for k in ranged if "pistol" not in sheet.weapons[k].abilities.other]
        side = [k for k in ranged if k not in guns] if pistols else guns
        for key in ranged if fires_all or not side else side:
            used[key] += p.count
    if not used:
        return []
    groups = [g for g in sheet.exclusive if any(k in used for k in g)]
    combos = list(itertools.product(*groups))
    if len(combos) > MAX_CHOICES:
        combos = [tuple(g[0] for g in groups)]
    out = []
    for picked in combos:
        chosen: Counter[str] = Counter()
        for key, n in used.items():
            group = next((g for g in groups if key in g), None)
            if group is None:
                chosen[key] += n
            elif key == group[0]:  # every profile of a group is carried by the same models
                chosen[picked[groups.index(group)]] += n
        out.append(Choice("shooting", _words(chosen)))
    return out


def _melee(sheet: Datasheet) -> list[Choice]:
    profiles = sheet.model_profiles()
    extra = [k for k, w in sheet.weapons.items() if not w.ranged and "extra-attacks" in w.abilities.other]
    keys = [k for k, w in sheet.weapons.items() if not w.ranged and k not in extra]
    out: list[Choice] = []
    for wanted in keys:
        used: Counter[str] = Counter()
        for p in profiles:
            own = [k for k in p.weapons if k in keys]
            if own:
                used[wanted if wanted in own else own[0]] += p.count
            for k in p.weapons:
                if k in extra:
                    used[k] += p.count
        choice = Choice("melee", _words(used))
        if choice.weapons and choice not in out:
            out.append(choice)
    return out


def weapon_choices(sheet: Datasheet) -> tuple[Choice, ...]:
    """The unit's weapon choices, shooting then melee (see the module)."""
    shooting = _shooting(sheet)
    shooting += [c for c in _shooting(sheet, pistols=True) if c not in shooting]
    return (*shooting, *_melee(sheet))


def matchup_points(
    a: Faction, a_file: str, b: Faction, b_file: str, fixed: Mapping[str, str] | None = None
) -> list[dict[str, str]]:
    """``wh40k.datasheet-attack``'s inputs for every unit of ``a`` with each of its weapon
    choices against every unit of ``b`` (the files as the calculator reads them; ``fixed``: other
    inputs, the same for every point)."""
    points = []
    for key, sheet in a.datasheets.items():
        for choice in weapon_choices(sheet):
            for target in b.datasheets:
                point = {
                    "faction": a_file,
                    "attacker": key,
                    "weapons": ",".join(choice.weapons),
                    "target_faction": b_file,
                    "target": target,
                }
                points.append({**point, **(fixed or {})})
    return points


def _phase(weapons: str, sheet: Datasheet) -> str:
    key = weapons.split(",")[0].partition("*")[0]
    return "shooting" if sheet.weapons[key].ranged else "melee"


def matchup_summary(table: pd.DataFrame, a: Faction, b: Faction) -> pd.DataFrame:
    """The matchup's table: one row per (unit of A, weapon choice, unit of B) with the phase, the
    exact expected models destroyed and P(unit destroyed) (as a float and exact), and the error
    of a point the calculator refused (its one line)."""
    import pandas as pd

    rows = []
    for row in table.to_dict("records"):
        sheet = a.datasheets[str(row["attacker"])]
        rows.append(
            {
                "attacker": row["attacker"],
                "phase": _phase(str(row["weapons"]), sheet),
                "weapons": row["weapons"],
                "target": row["target"],
                "target_models": b.datasheets[str(row["target"])].models,
                "mean_models_destroyed": row.get("mean_models_destroyed"),
                "mean_models_destroyed_exact": row.get("mean_models_destroyed_exact"),
                "p_unit_destroyed": row.get("p_unit_destroyed"),
                "p_unit_destroyed_exact": row.get("p_unit_destroyed_exact"),
                "error": row.get("error", ""),
            }
        )
    return pd.DataFrame.from_records(rows)


def best_choices(summary: pd.DataFrame) -> pd.DataFrame:
    """For each unit of A, phase and unit of B, the row of the choice destroying the most models
    on average (rows the calculator refused are left out)."""
    ok = summary[summary["error"].fillna("") == ""]
    if ok.empty:
        return ok
    best = ok.sort_values("mean_models_destroyed", ascending=False, kind="stable")
    return best.drop_duplicates(["attacker", "phase", "target"]).sort_index()


def matchup_figure(summary: pd.DataFrame, a: Faction, b: Faction) -> Figure:
    """The heatmap: a row per unit of A and phase, a column per unit of B; each cell coloured by
    the share of the target's models its best choice destroys on average and labelled with the
    expected models destroyed and P(unit destroyed)."""
    best = best_choices(summary)
    rows = [
        (attacker, phase)
        for attacker in a.datasheets
        for phase in ("shooting", "melee")
        if ((best["attacker"] == attacker) & (best["phase"] == phase)).any()
    ]
    cols = list(b.datasheets)
    values: list[tuple[float | None, ...]] = []
    texts: list[tuple[str, ...]] = []
    for attacker, phase in rows:
        vals: list[float | None] = []
        words: list[str] = []
        for target in cols:
            found = best[
                (best["attacker"] == attacker) & (best["phase"] == phase) & (best["target"] == target)
            ]
            if found.empty:
                vals.append(None)
                words.append("—")
                continue
            r = found.iloc[0]
            mean, p = float(r["mean_models_destroyed"]), float(r["p_unit_destroyed"])
            vals.append(mean / max(int(r["target_models"]), 1))
            words.append(f"{_mean(mean)}\n{_chance(p)}")
        values.append(tuple(vals))
        texts.append(tuple(words))
    grid = Grid(
        title=f"{a.name} (rows) against {b.name} (columns): expected models destroyed, then P(unit destroyed)",
        rows=tuple(f"{_name(a, k)} — {phase}" for k, phase in rows),
        cols=tuple(_name(b, k) for k in cols),
        values=tuple(values),
        texts=tuple(texts),
    )
    return heatmap_figure(
        [grid],
        row_label="attacking unit — phase (its best weapon choice)",
        col_label="target unit",
        value_label="share of the target's models destroyed, on average",
        title="Expected models destroyed and P(unit destroyed) of each unit's best weapon choice",
        percent_scale=True,
        warnings=_refused(summary),
        table=True,
    )


def _name(faction: Faction, key: str) -> str:
    """A unit's name, with its key when another unit has the same name."""
    name = faction.datasheets[key].name
    twins = sum(1 for d in faction.datasheets.values() if d.name == name)
    return name if twins == 1 else f"{name} ({key})"


def _mean(m: float) -> str:
    """An average in a cell: one decimal, never 0.0 for one that is not zero.

    >>> [_mean(x) for x in (0.0, 0.0004, 0.049, 2.345)]
    ['0', '<0.1', '<0.1', '2.3']
    """
    if m <= 0:
        return "0"
    return "<0.1" if m < 0.05 else f"{m:.1f}"


def _chance(p: float) -> str:
    """A chance in a cell: a whole percentage, never 0 % or 100 % for one that is not.

    >>> [_chance(x) for x in (0.0, 0.0004, 0.4951, 0.9996, 1.0)]
    ['0', '<1%', '50%', '>99%', '100%']
    """
    if p <= 0:
        return "0"
    if p >= 1:
        return "100%"
    if p < 0.005:
        return "<1%"
    if p > 0.995:
        return ">99%"
    return f"{round(100 * p)}%"


def _refused(summary: pd.DataFrame) -> Sequence[str]:
    bad = summary[summary["error"].fillna("") != ""]
    return (
        [f"{len(bad)} attacks refused by the calculator (see the table's error column)"] if len(bad) else []
    )


def describe(summary: pd.DataFrame) -> list[dict[str, Any]]:
    """The best choices as plain rows (the command line's table and ``--json``)."""
    return [
        {
            k: r[k]
            for k in (
                "attacker",
                "phase",
                "weapons",
                "target",
                "mean_models_destroyed",
                "mean_models_destroyed_exact",
                "p_unit_destroyed",
                "p_unit_destroyed_exact",
            )
        }
        for r in best_choices(summary).to_dict("records")
    ]
