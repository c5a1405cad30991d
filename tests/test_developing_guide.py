"""The developer guide's worked example ("How to add a rule system") runs as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "developing.md"
BLOCK = re.compile(r"```(?:python|yaml)\n# file: (?P<path>[\w/.]+)\n(?P<body>.*?)```", re.S)

CHECK = """
from rulesbook.registry import Registry, load_system_package
import nerve

reg = Registry()
load_system_package(nerve.SYSTEM, into=reg)
calc = reg.calculator("nerve.test")
assert calc.run(nerve=7)["p_pass_exact"] == "7/12"
assert calc.run(nerve=7, ties="fails")["p_pass_exact"] == "5/12"
three = nerve.CHOICES.replace(parameters={"dice": "3D6"})
assert calc.run_validated(calc.validate({"nerve": 7}), three)["p_pass_exact"] == "35/216"
assert calc.output_problems(calc.run(nerve=7)) == []
print("ok")
"""


def test_worked_example_loads_and_answers(tmp_path: Path) -> None:
    files = {m["path"]: m["body"] for m in BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))}
    assert set(files) == {
        "nerve/rules.yaml",
        "nerve/choices.py",
        "nerve/rules.py",
        "nerve/calculators.py",
        "nerve/__init__.py",
    }
    for path, body in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(body, encoding="utf-8")
    root = Path(__file__).resolve().parent.parent
    env_path = f"{tmp_path}:{root}"
    out = subprocess.run(
        [sys.executable, "-c", CHECK],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_a_register_entry_without_a_typed_reading_fails_at_load(tmp_path: Path) -> None:
    files = {m["path"]: m["body"] for m in BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))}
    for path, body in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        if path.endswith("rules.yaml"):
            body = body.replace("default: passes", "default: fails")
        (tmp_path / path).write_text(body, encoding="utf-8")
    root = Path(__file__).resolve().parent.parent
    code = "from rulesbook.registry import Registry, load_system_package\nimport nerve\n"
    code += "load_system_package(nerve.SYSTEM, into=Registry())\n"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": f"{tmp_path}:{root}", "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode != 0
    assert "rules.yaml: interpretation nerve.interpretations.ties: default 'fails'" in out.stderr
