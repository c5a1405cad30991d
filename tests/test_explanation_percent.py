"""Explanation lines give a probability's percentage through :func:`rulesbook.results.percent`,
so a possible outcome never reads ``0.0%`` and an uncertain one never ``100.0%``.

The probabilities compared with come from the calculators' exact values or are worked out by
hand in each test; the percentages from ``percent`` itself (tested in tests/test_percent.py).
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from rulesbook.present import fixed, percent
from rulesbook.registry import registry

_PAIR = re.compile(r"(\d+/\d+|\b[01]\b) ≈ ((?:> )?\d+(?:\.\d+)?(?: × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?%)")
_ROUNDED_AWAY = re.compile(r"(?<![\d.])(0\.0+|100\.0+)%")


def _examples() -> list[tuple[str, int]]:
    return [(c.id, n) for c in registry().calculators.values() for n in range(len(c.examples))]


@pytest.mark.parametrize(("calc_id", "n"), _examples())
def test_every_fraction_and_its_percentage_agree(calc_id: str, n: int) -> None:
    calc = registry().calculator(calc_id)
    lines = calc.run(**dict(calc.examples[n])).explanation
    for line in lines:
        for exact, shown in _PAIR.findall(line):
            assert shown == percent(float(Fraction(exact))), line
        assert not _ROUNDED_AWAY.search(line), line
        assert not re.search(r"\de[-+]\d", line), line


def run_lines(calc_id: str, **values: str) -> tuple[dict[str, object], tuple[str, ...]]:
    result = registry().calculator(calc_id).run(**values)
    return dict(result.values), tuple(result.explanation)


def test_a_rare_flight_keeps_its_size() -> None:
    """Ld 10 fails a Regroup test on 11 or 12 (3/36); the 3D6 move then needs 18 (1/216)."""
    values, lines = run_lines(
        "scrollhammer.fall-back", ld="10", distance="18", phases="1", fall_back_dice="3D6"
    )
    fled = Fraction(3, 36) * Fraction(1, 216)
    assert values["p_removed_exact"] == str(fled)
    (line,) = [x for x in lines if x.startswith("After 1 phase(s)")]
    assert f"fled {percent(float(fled))}," in line and "fled 0.0386%" in line  # 100/2592 = 0.03858…


def test_near_certain_and_tiny_chances_after_an_attack() -> None:
    """Six bolter shots (hit 3+, wound 4+, save 3+: 2/3 · 1/2 · 1/3 = 1/9 each) put ten
    one-wound models below half strength only by killing six: (1/9)**6."""
    values, lines = run_lines(
        "wh40k.attack-and-battle-shock",
        weapons="bolters: A=6 BS=3 S=4 AP=0 D=1",
        toughness="4",
        save="3",
        wounds="1",
        models="10",
        leadership="6",
    )
    below = Fraction(1, 9) ** 6
    assert values["p_below_half_exact"] == str(below)
    (line,) = [x for x in lines if x.startswith("Below Half-strength")]
    assert line.startswith(f"Below Half-strength afterwards: {percent(float(below))};")
    assert "0.000188%" in line and " × 10⁻" in line.split("Battle-shocked:")[1]
    # the losses of a Desperate Escape that almost never happens: an average, not "0.00"
    mean = values["mean_escape_losses"]
    assert isinstance(mean, float) and 0 < mean < 0.005
    (line,) = [x for x in lines if x.startswith("If the Battle-shocked unit Falls Back")]
    assert f"tests; {fixed(mean)} models are lost on average." in line and "0.00" not in line


def test_a_nearly_certain_regroup_is_not_rounded_to_certainty() -> None:
    """Ld 11 fails a Regroup test only on a double 6 (1/36); 30" is out of reach of the first
    two moves, so the unit regroups unless it fails all three tests: 1 − 1/36**3."""
    values, lines = run_lines("scrollhammer.fall-back", ld="11", distance="30", phases="3")
    p = 1 - Fraction(1, 36) ** 3
    assert values["p_regrouped_exact"] == str(p)
    (line,) = [x for x in lines if x.startswith("After 3 phase(s)")]
    assert f"regrouped {percent(float(p))}," in line and "regrouped 99.998%," in line  # 99.99786…
