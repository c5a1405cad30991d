"""Nothing depends on the working directory: the CLI's worked examples and every served app
answer the same from the project folder and from an unrelated folder.

The replay calculator's example names ``rulesbook/systems/army_morale/data/example-game.yaml``;
started elsewhere it used to fail to build (a logged traceback in the served replay app).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

APPS_SCRIPT = """
import json
from widgets.server.routes import app_factories

pages = {}
for path, factory in sorted(app_factories().items()):
    shown = []
    for part in factory().select():
        value = getattr(part, "object", None)
        if value is None:
            value = getattr(part, "value", None)
        plain = isinstance(value, (str, int, float, bool, type(None)))
        shown.append(f"{type(part).__name__}:{value}" if plain else type(part).__name__)
    pages[path] = shown
print(json.dumps(pages))
"""


def run_in(folder: Path, args: list[str], games: Path) -> str:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "RULESBOOK_GAMES_DIR": str(games),
    }
    done = subprocess.run(
        [sys.executable, *args], cwd=folder, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return done.stdout


def test_the_cli_examples_answer_the_same_from_any_directory(tmp_path: Path) -> None:
    args = [
        "-m",
        "rulesbook.cli",
        "calc",
        "army-morale.replay",
        "log=rulesbook/systems/army_morale/data/example-game.yaml",
        "--json",
    ]
    here = json.loads(run_in(ROOT, args, tmp_path / "games"))
    elsewhere = json.loads(run_in(tmp_path, args, tmp_path / "games"))
    assert elsewhere["result"] == here["result"]
    assert (here["result"]["a_value"], here["result"]["winner"]) == (3, "a")


def test_every_served_app_builds_the_same_from_any_directory(tmp_path: Path) -> None:
    here = json.loads(run_in(ROOT, ["-c", APPS_SCRIPT], tmp_path / "games-1"))
    elsewhere = json.loads(run_in(tmp_path, ["-c", APPS_SCRIPT], tmp_path / "games-2"))
    assert "calc/army-morale.replay" in here and "app/army-morale-tracker" in here
    game_id = re.compile(r"game <code>[A-Za-z0-9_-]+</code>")  # each new tracker game gets a fresh id
    for pages in (here, elsewhere):
        for path, parts in pages.items():
            pages[path] = [game_id.sub("game <code>ID</code>", p) for p in parts]
    assert elsewhere == here
