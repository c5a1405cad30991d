"""Run every system's hand-worked cases (``rulesbook/systems/*/cases.yaml``)."""

from __future__ import annotations

import pytest

from rulesbook.cases import Case, load_cases
from rulesbook.errors import InputError
from rulesbook.registry import registry

CASE_FILES = {system: folder / "cases.yaml" for system, folder in registry().folders.items()}
CASES = [(s, c) for s, f in CASE_FILES.items() if f.is_file() for c in load_cases(f)]


def test_every_system_ships_cases() -> None:
    assert all(f.is_file() for f in CASE_FILES.values()), [
        s for s, f in CASE_FILES.items() if not f.is_file()
    ]
    assert set(CASE_FILES) == set(registry().systems)


@pytest.mark.parametrize(("system", "case"), CASES, ids=[f"{s}: {c.name}" for s, c in CASES])
def test_case(system: str, case: Case) -> None:
    calc = registry().calculator(case.calculator)
    for rule_id in case.covers:
        assert registry().rule(rule_id)
    if case.error is not None:
        with pytest.raises(InputError) as info:
            calc.parse_assignments([f"{k}={v}" for k, v in case.inputs.items()])
        assert case.error in str(info.value)
        assert "\n" not in str(info.value)
        return
    checked = calc.parse_assignments([f"{k}={v}" for k, v in case.inputs.items()])
    result = calc.run_validated(checked).to_json()
    for key, expected in case.expect.items():
        assert key in result, f"result has no key {key}"
        got = result[key]
        if isinstance(expected, float):
            assert got == pytest.approx(expected, abs=1e-9)
        else:
            assert got == expected, f"{key}: {got!r} != {expected!r}"
