"""A variant's ``add:`` reaches every calculator that rolls a test (issue 34, part 2): each
calculator's declared ``tests`` are the tests of the rules language it really rolls.

A calculator that rolled a declared test without listing it would not offer the inputs a variant
adds to that test, so an entry under ``when: has_standard`` would silently never apply there. The
check records every test a calculator rolls (through :meth:`Mechanics.roll`, the one door to a
declared test) over its worked examples and the probes of ``variant_reach_probes.yaml``, and
compares with what it declares.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesbook.caches import clear_caches
from rulesbook.data import load_data_file
from rulesbook.errors import InputError
from rulesbook.language.mechanics import Mechanics
from rulesbook.registry import registry

REG = registry()
PROBES: dict[str, Any] = load_data_file(Path(__file__).with_name("variant_reach_probes.yaml"))
ROLLERS = sorted(c.id for c in REG.calculators.values() if REG.mechanics.get(c.system) is not None)


def _extended(system: str, key: str) -> Iterator[str]:
    """``key`` and every test it extends."""
    tests = REG.mechanics[system].tests()
    while key:
        yield key
        key = tests[key].extends if key in tests else ""


@pytest.mark.parametrize("calc_id", ROLLERS)
def test_a_calculator_declares_every_test_it_rolls(calc_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calc = REG.calculator(calc_id)
    rolled: set[str] = set()
    roll = Mechanics.roll

    def recording(self: Mechanics, key: str, choices: Any, /, **given: Any) -> Any:
        rolled.add(key)
        return roll(self, key, choices, **given)

    monkeypatch.setattr(Mechanics, "roll", recording)
    clear_caches()  # a cached answer rolls nothing
    for inputs in [*(dict(e) for e in calc.examples), *PROBES.get(calc_id, [])]:
        try:
            calc.run(**inputs)
        except InputError:
            continue  # a probe the published rules refuse
    declared = {k for key in calc.tests for k in _extended(calc.system, key)}
    assert rolled <= declared, f"{calc_id} rolls {sorted(rolled - declared)} without declaring it"
    assert set(calc.tests) <= rolled, (
        f"{calc_id} declares {sorted(set(calc.tests) - rolled)} but never rolls it"
    )
