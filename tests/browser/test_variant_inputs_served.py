"""The served rulebook with the operator's variants (``RULESBOOK_VARIANTS_DIR=examples/designer``),
in a real browser at 390 px and 1280 px (issue 34): a form compared with a variant that adds an
input shows it (its declared label and default), the address keeps it and a reload answers with
it; picking another variant takes it away; a calculator a variant adds has its own page,
computing under that variant; and an address naming a file is refused. Oracles: the Break test
(once, and re-rolled once) and the Terror test, counted over the 36 rolls here.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ROOT, _free_port, running

pytestmark = pytest.mark.browser

ROLLS = list(itertools.product(range(1, 7), repeat=2))


def leadership(target: int) -> Fraction:
    return Fraction(sum(a + b <= target or a == b == 1 for a, b in ROLLS), 36)


@pytest.fixture(scope="module")
def with_designer_variants(served_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``rulesbook serve`` with the designer examples as the operator's variants."""
    port = _free_port()
    log = (tmp_path_factory.mktemp("served-variants-log") / "server.log").open("w")
    env = {**os.environ, "RULESBOOK_VARIANTS_DIR": str(ROOT / "examples" / "designer")}
    command = [sys.executable, "-m", "rulesbook.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--site-dir", str(served_site), "--no-build", "--workers", "1", "--time-limit", "600"]  # fmt: skip
    proc = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    with running(proc, log, f"{base}/site/", "rulesbook serve", timeout=240):
        yield base


def _side(page: Any, variant: str, text: str) -> None:
    page.locator(f'[data-variant="{variant}"] [data-key="p_pass_exact"]', has_text=text).wait_for(
        timeout=60_000
    )


@pytest.mark.covers("scrollhammer.break-test")
@pytest.mark.parametrize("width", [390, 1280])
def test_served_forms_show_what_the_operator_s_variants_add(
    with_designer_variants: str, browser: Any, width: int
) -> None:
    base = with_designer_variants
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        once = leadership(6)
        page.goto(f"{base}/calc/scrollhammer.break-test?ld=9&lost_by=3")
        page.locator('[data-key="p_pass_exact"]', has_text=str(once)).first.wait_for(timeout=60_000)
        assert page.locator(".rb-input-has_standard").count() == 0  # no variant compared: none
        page.locator(".rb-input-variant select").select_option("standard-reroll")
        box = page.locator(".rb-input-has_standard input[type=checkbox]").first
        box.wait_for(timeout=60_000)
        assert (
            page.locator(".rb-input-has_standard .bk-label").first.inner_text().strip()
            == "Carries a standard"
        )
        assert not box.is_checked()  # its declared default
        box.check()
        _side(page, "standard-reroll", str(once + (1 - once) * once))  # 95/144
        _side(page, "baseline", str(once))
        page.wait_for_function("() => location.search.includes('has_standard=true')", timeout=30_000)
        page.reload()  # the address brings it back, ticked
        _side(page, "standard-reroll", str(once + (1 - once) * once))
        assert page.locator(".rb-input-has_standard input[type=checkbox]").first.is_checked()
        page.locator(".rb-input-variant select").select_option("any-double")
        page.wait_for_function("() => !location.search.includes('has_standard')", timeout=30_000)
        assert page.locator(".rb-input-has_standard").count() == 0
        assert page.locator('[data-key="error"]').count() == 0
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width

        page.goto(f"{base}/calc/scrollhammer.terror-test?ld=8&modifier=-2")
        page.locator('[data-key="p_pass_exact"]', has_text=str(leadership(5))).wait_for(timeout=60_000)
        assert page.title() == "Terror test · rulesbook"
        assert "Added by the variant Terror tests" in page.locator(".rb-added-note").inner_text()
        assert page.locator(".rb-input-variant select").is_hidden()  # nothing to compare with

        page.goto(
            f"{base}/calc/scrollhammer.terror-test?ld=7&variant={ROOT}/examples/designer/terror-test.yaml"
        )
        page.locator('[data-key="error"]', has_text="never a file").wait_for(timeout=60_000)
        page.locator('[data-key="p_pass_exact"]', has_text=str(leadership(6))).wait_for(timeout=60_000)
    finally:
        context.close()
