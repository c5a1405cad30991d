"""Helpers the Dask tests send to their workers (importable there: the workers import by name)."""

from __future__ import annotations

import time
from typing import Any

from rulesbook.registry import registry
from rulesbook.results import CalcResult

SLOW_SECONDS = 0.25


def slow_battle_shock(**inputs: Any) -> CalcResult:
    """The Battle-shock test's own compute function, a quarter of a second slower (so a sweep
    is still running when the test takes its workers away)."""
    time.sleep(SLOW_SECONDS)
    result: CalcResult = registry().calculator("wh40k.battle-shock").compute(**inputs)
    return result
