"""A notebook opened in JupyterLab (what ``scripts/lab`` starts): the calculator cell runs and
answers a changed input. The notebooks are copied to a temporary folder so JupyterLab's
autosave never touches the repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import _free_port, running

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a JupyterLab server on a free port, without a token, over a copy of notebooks/."""
    folder = tmp_path_factory.mktemp("lab")
    shutil.copy(ROOT / "notebooks" / "scrollhammer-morale.ipynb", folder)
    port = _free_port()
    log = (tmp_path_factory.mktemp("lab-log") / "lab.log").open("w")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JUPYTER_PLATFORM_DIRS": "1"}
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
        f"--notebook-dir={folder}", "--IdentityProvider.token=", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True", "--LabApp.news_url=", "--LabApp.collaborative=False",
    ]  # fmt: skip
    if os.geteuid() == 0:
        command.append("--allow-root")
    proc = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    with running(proc, log, f"{base}/api", "jupyter lab", timeout=120):
        yield base


@pytest.mark.covers("scrollhammer.morale-check")
def test_notebook_calculator_runs_in_jupyterlab(lab: str, page: Any) -> None:
    page.set_default_timeout(60_000)
    page.goto(f"{lab}/lab/tree/scrollhammer-morale.ipynb")
    imports = page.locator(".jp-CodeCell", has_text="import rulesbook as rb").first
    cell = page.locator(".jp-CodeCell", has_text="rb.widget(").first
    cell.wait_for()
    # the kernel has started and is idle (the status bar names it), then run the imports and the cell
    page.locator(".jp-StatusBar-Widget", has_text="Idle").first.wait_for(timeout=120_000)
    for code in (imports, cell):
        code.locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
    output = cell.locator(".jp-OutputArea")
    answer = output.locator('[data-key="p_pass_exact"]').first
    answer.wait_for(timeout=180_000)  # the kernel's first import of rulesbook and ipywidgets
    assert answer.inner_text() == "5/12"  # Ld 7, modifier -1, as in the cell
    ld = output.locator(".widget-inline-hbox", has=page.locator("label", has_text="Leadership (Ld)"))
    box = ld.locator("input").first
    box.fill("9")
    box.press("Enter")
    output.locator('[data-key="p_pass_exact"]', has_text="13/18").first.wait_for()
    assert output.locator('[data-key="p_pass_exact"]').first.inner_text() == "13/18"
    ROOT.joinpath("test-artifacts").mkdir(exist_ok=True)
    page.screenshot(path=str(ROOT / "test-artifacts" / "jupyterlab.png"))
    assert page.external_requests == []
