"""Parameter sweeps: one calculator over a grid of inputs × rule parameters × variants, as a tidy table.

A sweep evaluates a calculator at every point of a grid and returns a pandas DataFrame with
one row per point: a ``variant`` column (``baseline`` or the variant's name), one column per
input (every input, the fixed ones too, in their text form), one per swept rule parameter
(``parameter.KEY``), one per scalar result (probabilities as a float plus ``KEY_exact``), and
``error`` (the one-line message of a point whose inputs do not go together, else empty).
List and table results are left out (run the calculator at a point to see them).

* :mod:`~rulesbook.sweeps.plan` — the grid (``ld=5..10``, ``fall_back_dice=2D6,3D6``,
  ``parameter.KEY=...``) and one row per point, or a list of points that vary together
  (:func:`plan_points`: ``rulesbook matchup`` sweeps one army list against another);
* :mod:`~rulesbook.sweeps.budget` — the budget in points and in estimated work (a system's cost
  model where it has one), checked before any work;
* :mod:`~rulesbook.sweeps.run` — serially, on local cores or on Dask
  (:mod:`~rulesbook.sweeps.cluster`: an unreachable scheduler refused in seconds, lost workers
  waited for or stopped on), checkpoints and resuming, progress;
* :mod:`~rulesbook.sweeps.output` — CSV and Parquet with their provenance (the command and every
  variant's definition), read back by :func:`read_table`;
* :mod:`~rulesbook.sweeps.plot` — designer-readable figures; :mod:`~rulesbook.sweeps.matrix` —
  balance tables (two inputs against each other, annotated, and the difference a variant makes);
  :mod:`~rulesbook.sweeps.solve` — goal seek (the smallest value of one key that meets a target).

Example:
    >>> table = sweep("scrollhammer.panic-test", {"ld": "6..8", "modifier": "0,-1"}, executor="serial")
    >>> table[["ld", "modifier", "p_pass_exact"]].head(3).to_dict("records")
    [{'ld': 6, 'modifier': 0, 'p_pass_exact': '5/12'}, {'ld': 6, 'modifier': -1, 'p_pass_exact': '5/18'}, {'ld': 7, 'modifier': 0, 'p_pass_exact': '7/12'}]
"""

from rulesbook.sweeps.budget import Budget, Estimate, SweepTooLarge, estimate
from rulesbook.sweeps.cluster import WorkersLost
from rulesbook.sweeps.matrix import BalanceTable, balance_table
from rulesbook.sweeps.output import export, read_table
from rulesbook.sweeps.plan import PARAMETER_PREFIX, Axis, SweepPlan, parse_axes, plan_points, plan_sweep
from rulesbook.sweeps.plot import plot_sweep
from rulesbook.sweeps.run import Executor, SweepInterrupted, run_plan, sweep
from rulesbook.sweeps.solve import Solution, solve

__all__ = [
    "PARAMETER_PREFIX",
    "Axis",
    "BalanceTable",
    "Budget",
    "Estimate",
    "Executor",
    "Solution",
    "SweepInterrupted",
    "SweepPlan",
    "SweepTooLarge",
    "WorkersLost",
    "balance_table",
    "estimate",
    "export",
    "parse_axes",
    "plan_points",
    "plan_sweep",
    "plot_sweep",
    "read_table",
    "run_plan",
    "solve",
    "sweep",
]
