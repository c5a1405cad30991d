"""The guide "Adding rules" (docs/adding-rules.md), followed literally, gives a green suite.

A copy of the repository (its tracked files) gets every file the guide shows, where the guide
says; then, in the copy, the steps the guide names run: the golden file's new answers recorded,
ruff, ``mypy --strict``, the system's doctests, cases and tests, the registry's completeness
checks (rule, calculator and interpretation pages, citations, covering tests) and the golden-file
check, and the site's pages are generated. The copy goes with the test's temporary folder, so the
checkout itself never holds the example system (tests running beside this one never see it).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "adding-rules.md"
BLOCK = re.compile(r"```(?:python|yaml|text)\n# file: (?P<path>[\w/.-]+)\n(?P<body>.*?)```", re.S)

SITE = """
import contextlib
import io

from rulesbook.site import build


def test_the_site_has_the_new_system_s_pages() -> None:
    pages: dict[str, io.StringIO] = {}

    @contextlib.contextmanager
    def fake_open(path, mode):
        yield pages.setdefault(path, io.StringIO())

    build(fake_open, notebooks=[])
    text = {path: page.getvalue() for path, page in pages.items()}
    assert "nerve/index.md" in text
    assert any(p.startswith("nerve/") and "Nerve test" in t for p, t in text.items())
    assert "Nerve rules" in text["sources.md"]
    assert "nerve/index.md" in text["SUMMARY.md"]
"""
"""The site's page generation (``rulesbook.site.build``, what ``docs/gen_pages.py`` runs), as a
test in the copy: it shares the pages the registry checks generate in the same process."""

ANSWERS = """
from rulesbook.api.json_api import calc_answer
from rulesbook.registry import registry
from rulesbook.variants import Variant, run_with_variant
calc = registry().calculator("nerve.test")
assert calc.run(nerve=7)["p_pass_exact"] == "7/12"
assert calc.run(nerve=7, ties="fails")["p_pass_exact"] == "5/12"
three = Variant.from_mapping({"system": "nerve", "title": "Three dice", "parameters": {"dice": "3D6"}}, name="x")
assert run_with_variant(calc, three, nerve=7)["p_pass_exact"] == "35/216"
assert calc_answer("nerve.test", {"nerve": "7"})[1]["result"]["p_pass_exact"] == "7/12"
print("answers ok")
"""


PYTHON_ROUTE = "\n# The Python route\n"


def guide_files(route: str = "python") -> dict[str, str]:
    """Every file the guide shows for a route, by its path in the repository: the data route's
    (the page up to "The Python route"), or the Python route's (the shared ones, its own)."""
    text = GUIDE.read_text(encoding="utf-8")
    data_part, _, python_part = text.partition(PYTHON_ROUTE)
    data = {m["path"]: m["body"] for m in BLOCK.finditer(data_part)}
    if route == "data":
        return data
    shared = {p: body for p, body in data.items() if not p.endswith("mechanics.yaml")}
    return shared | {m["path"]: m["body"] for m in BLOCK.finditer(python_part)}


def test_the_guide_shows_every_file_of_a_system() -> None:
    files = guide_files()
    system = {
        p.removeprefix("rulesbook/systems/nerve/") for p in files if p.startswith("rulesbook/systems/nerve/")
    }
    assert system == {
        "source.yaml",
        "rules.yaml",
        "choices.py",
        "rules.py",
        "calculators.py",
        "__init__.py",
        "cases.yaml",
    }
    assert {"sources/nerve-rules.txt", "tests/nerve/__init__.py", "tests/nerve/test_nerve.py"} <= set(files)
    data = guide_files("data")
    assert set(data) == {
        "sources/nerve-rules.txt",
        *(
            f"rulesbook/systems/nerve/{f}"
            for f in ("source.yaml", "rules.yaml", "mechanics.yaml", "cases.yaml")
        ),
    }, "the data route writes no Python"
    assert not (ROOT / "rulesbook" / "systems" / "nerve").exists(), "the example system is in the checkout"


def _copy_of_the_repository(to: Path, *, whole: bool = False) -> Path:
    """The repository's files in ``to``: the package, the tests, the sources (and, ``whole``, the
    docs, the notebooks and the front-ends the site's build needs)."""
    parts = ["rulesbook", "tests", "sources", "pyproject.toml"]
    if whole:
        parts += ["docs", "mkdocs.yml", "notebooks", "widgets", "scripts"]
    tracked = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", *parts],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for name in tracked:
        source = ROOT / name
        if source.is_symlink():  # (docs/notebooks -> ../notebooks: kept a link)
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            (to / name).symlink_to(source.readlink())
        elif source.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)  # (times kept: mypy's cache stays valid for the core)
    return to


def _loader_error(repo: Path, env: dict[str, str]) -> str:
    """What loading the copy's registry says on standard error (it must fail)."""
    out = subprocess.run(
        [sys.executable, "-c", "from rulesbook.registry import registry; registry()"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0
    return out.stderr


def _runner(repo: Path, env: dict[str, str]) -> Callable[..., str]:
    def run(*args: str, timeout: float = 600) -> str:
        out = subprocess.run(
            [sys.executable, *args], cwd=repo, env=env, capture_output=True, text=True, timeout=timeout
        )
        assert out.returncode == 0, f"{' '.join(args)}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
        return out.stdout

    return run


def what_a_new_system_can_change(collected: list[str], system: str) -> list[str]:
    """Of the tests ``pytest --collect-only -q`` lists, those whose answer a new system can change.

    A test function with a case per entry (a rule, calculator, register entry, case or recorded
    answer: ``test_rule_is_complete[nerve.test]``) keeps the new system's cases only: another
    system's case runs the same code on the same files in the copy as in the checkout, where the
    suite itself runs it. Every other test runs whole: the functions with no case of the new
    system and the plain ones (the site's build, the home page, every system shipping cases,
    every example recorded), which read the registry as a whole.

    >>> what_a_new_system_can_change(
    ...     ["t.py::test_rule[a.x]", "t.py::test_rule[nerve.y]", "t.py::test_case[nerve: z]",
    ...      "t.py::test_order[first0]", "t.py::test_site", "", "3 tests collected in 1.0s"], "nerve")
    ['t.py::test_rule[nerve.y]', 't.py::test_case[nerve: z]', 't.py::test_order[first0]', 't.py::test_site']
    """
    tests = [line for line in collected if "::" in line]
    mine = (f"[{system}.", f"[{system}:")  # (an entry's ID, or a case's "system: name")
    per_entry = {t.split("[", 1)[0] for t in tests if any(m in t for m in mine)}
    return [t for t in tests if t.split("[", 1)[0] not in per_entry or any(m in t for m in mine)]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to list the repository's files")
def test_following_the_data_route_gives_a_green_suite(tmp_path: Path) -> None:
    """The data route, literally: the files written, the answers recorded, the registry's and the
    site's tests run unfiltered in the copy (its own site built), and every check of the cases'
    and the golden file's whose answer the new system can change
    (:func:`what_a_new_system_can_change`)."""
    repo = _copy_of_the_repository(tmp_path / "repo", whole=True)
    for path, body in guide_files("data").items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(body, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(repo), "RULESBOOK_VARIANTS_DIR": str(tmp_path / "none")}
    for name in ("PYTEST_XDIST_WORKER", "RULESBOOK_SYSTEMS_DIR", "RULESBOOK_TEST_SHARED", "RULESBOOK_SERVED"):
        env.pop(name, None)  # (the copy builds its own site, with the new system's pages)
    run = _runner(repo, env)
    assert "(2 answers recorded)" in run("tests/golden/record.py", "--new")
    (repo / "tests" / "test_the_site_pages.py").write_text(SITE, encoding="utf-8")
    files = [
        "tests/test_registry.py",
        "tests/test_site.py",
        "tests/test_cases.py",
        "tests/test_golden_examples.py",
        "tests/test_the_site_pages.py",
    ]
    # the registry's and the site's tests run unfiltered (issue 34); of the cases and golden
    # files, one check per recorded answer, those the new system can change
    whole, per_answer = files[:2] + files[4:], files[2:4]
    collected = run("-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider", *per_answer)
    chosen = [*whole, *what_a_new_system_can_change(collected.splitlines(), "nerve")]
    assert "tests/test_cases.py::test_every_system_ships_cases" in chosen
    expected = run("-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider", *chosen)
    count = sum("::" in line for line in expected.splitlines())
    assert count > len(chosen) > 3  # (the whole files expand to their every test)
    out = run("-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", *chosen, timeout=3000)
    assert f"{count} passed" in out, out[-2000:]
    assert "answers ok" in run("-c", ANSWERS)
    # a misspelt name in the mechanics is refused at load: file, line, field
    mechanics = repo / "rulesbook" / "systems" / "nerve" / "mechanics.yaml"
    mechanics.write_text(mechanics.read_text(encoding="utf-8").replace("else nerve - 1", "else nerv - 1"))
    assert "nerve/mechanics.yaml, line 17: tests.nerve.target: unknown name 'nerv'" in _loader_error(
        repo, env
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to list the repository's files")
def test_following_the_guide_gives_a_green_suite(tmp_path: Path) -> None:
    repo = _copy_of_the_repository(tmp_path / "repo")
    for path, body in guide_files().items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(body, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(repo), "RULESBOOK_VARIANTS_DIR": str(tmp_path / "none")}
    env.pop("PYTEST_XDIST_WORKER", None)

    def run(*args: str, timeout: float = 300) -> str:
        out = subprocess.run(
            [sys.executable, *args], cwd=repo, env=env, capture_output=True, text=True, timeout=timeout
        )
        assert out.returncode == 0, f"{' '.join(args)}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
        return out.stdout

    # 10. record the worked examples' answers: the new ones only
    assert "(2 answers recorded)" in run("tests/golden/record.py", "--new")
    # 11. check it
    new = ["rulesbook/systems/nerve", "tests/nerve"]
    run("-m", "ruff", "format", "--check", *new)
    run("-m", "ruff", "check", *new)
    cache = ROOT / ".mypy_cache"  # the checkout's, when there is one: the core is checked once
    run("-m", "mypy", "--strict", "--cache-dir", str(cache), "rulesbook/systems/nerve")
    tests = ["tests/test_cases.py", "tests/test_registry.py", "tests/test_golden_examples.py", "tests/nerve"]
    (repo / "tests" / "test_the_site_pages.py").write_text(SITE, encoding="utf-8")
    tests.append("tests/test_the_site_pages.py")
    run(
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--doctest-modules",
        "rulesbook/systems/nerve",
        *tests,
        "-k",
        "nerve or every or site",
    )
    assert "answers ok" in run("-c", ANSWERS)

    # and the loader refuses a register entry whose typed reading disagrees, naming both
    rules = repo / "rulesbook" / "systems" / "nerve" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("default: passes", "default: fails"))
    assert "rules.yaml: interpretation nerve.interpretations.ties: default 'fails'" in _loader_error(
        repo, env
    )
