"""What the README and the quick start say a command prints is what it prints.

Every ```` ```console ```` block of ``README.md``, the quick start, the home page and the designer pages
is run, as the golden CLI examples are: each ``$ rulesbook …`` line (or ``$ .venv/bin/rulesbook
…``) runs the installed command, and the lines under it, up to the next ``$``, are what it must
print — compared as a doctest compares (``...`` stands for any text, a line of ``...`` for any
lines). A command with no line under it must succeed. ``rulesbook serve`` is not run (it would
not return); the set-up scripts in ```` ```bash ```` blocks are not run here (``scripts/test`` is
how every test runs). Every ```` ```pycon ```` block runs as a doctest.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = (
    "README.md",
    "docs/quickstart.md",
    "docs/index.md",
    "docs/api/index.md",
    "docs/designer/guide.md",
    "docs/designing.md",
    "docs/army-lists.md",
)
RULESBOOK = Path(sys.executable).with_name("rulesbook")
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.M | re.S)


@dataclass(frozen=True)
class Example:
    """One ``$`` command of a page and the output the page shows for it."""

    page: str
    line: int
    command: str
    expected: str


def blocks(text: str, kind: str) -> list[tuple[int, str]]:
    """(line number of its first line, text) of every fenced block of ``kind``."""
    return [
        (text[: m.start()].count("\n") + 2, m.group(2)) for m in FENCE.finditer(text) if m.group(1) == kind
    ]


def examples(text: str, page: str) -> list[Example]:
    """The ``$`` commands of the console blocks of ``text``, each with the lines shown under it
    (a command continued by a trailing backslash takes the next line too)."""
    out: list[Example] = []
    for start, block in blocks(text, "console"):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            first, command = i, lines[i][2:]
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            i += 1
            shown = []
            while i < len(lines) and not lines[i].startswith("$ "):
                shown.append(lines[i])
                i += 1
            out.append(Example(page, start + first, command, "\n".join(shown).strip("\n")))
    return out


def _read(page: str) -> str:
    return (ROOT / page).read_text(encoding="utf-8")


ALL = [e for page in PAGES for e in examples(_read(page), page)]


def _argv(command: str) -> list[str] | None:
    """The command's arguments to run (comments dropped), or None when it is not to be run."""
    words = shlex.split(command, comments=True)
    if not words or words[0] not in ("rulesbook", ".venv/bin/rulesbook"):
        return None
    if words[1:2] == ["serve"]:
        return None
    return [str(RULESBOOK), *words[1:]]


def test_the_pages_have_commands_to_run() -> None:
    assert [e for e in ALL if e.page == "README.md" and _argv(e.command)], "README.md shows no command"
    assert [e for e in ALL if e.page == "docs/quickstart.md" and _argv(e.command)]


def files(text: str) -> dict[str, str]:
    """The files a page shows (a fenced block whose first line is ``# file: NAME``): name -> text."""
    out = {}
    for kind in ("yaml", "python"):
        for _, block in blocks(text, kind):
            first, _, rest = block.partition("\n")
            if first.startswith("# file: "):
                out[first.removeprefix("# file: ").strip()] = rest
    return out


@pytest.mark.parametrize("example", [e for e in ALL if _argv(e.command)], ids=lambda e: f"{e.page}:{e.line}")
def test_a_command_prints_what_the_page_says(example: Example, tmp_path: Path) -> None:
    argv = _argv(example.command)
    assert argv is not None
    for name, text in files(_read(example.page)).items():  # the variant files the page shows
        (tmp_path / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{example.page}:{example.line}: {example.command}\n{done.stderr}"
    if example.expected:
        checker = doctest.OutputChecker()
        want, got = example.expected + "\n", done.stdout.rstrip("\n") + "\n"
        assert checker.check_output(want, got, doctest.ELLIPSIS), (
            f"{example.page}:{example.line}: {example.command}\n"
            + checker.output_difference(doctest.Example("", want), got, doctest.ELLIPSIS)
        )


PYCON = [(page, line, text) for page in PAGES for line, text in blocks(_read(page), "pycon")]


@pytest.mark.parametrize(("page", "line", "text"), PYCON, ids=[f"{p}:{n}" for p, n, _ in PYCON])
def test_a_python_example_runs_as_the_page_says(page: str, line: int, text: str) -> None:
    test = doctest.DocTestParser().get_doctest(text, {}, f"{page}:{line}", page, line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{page}:{line}: a Python example printed something else (see above)"


def test_the_examples_are_found() -> None:
    """The parser itself, on a page written here."""
    text = (
        "Run this:\n\n```console\n$ rulesbook calc x \\\n    ld=7   # a comment\nline 1\n...\n"
        "$ rulesbook list\n```\n\n```bash\n$ rulesbook nope\n```\n"
    )
    found = examples(text, "p")
    assert found == [
        Example("p", 4, "rulesbook calc x  ld=7   # a comment", "line 1\n..."),
        Example("p", 8, "rulesbook list", ""),
    ]
    assert _argv(found[0].command) == [str(RULESBOOK), "calc", "x", "ld=7"]
    assert _argv("rulesbook serve --port 9000") is None and _argv("scripts/serve") is None


def paragraphs(text: str) -> list[str]:
    """The prose paragraphs of a Markdown page: fenced blocks, tables, headings and list items
    left out (a list item counts on its own)."""
    text = FENCE.sub("", text)
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        lines = [
            line for line in block.splitlines() if line.strip() and not line.lstrip().startswith(("|", "#"))
        ]
        items: list[list[str]] = []
        for line in lines:
            if line.lstrip().startswith(("- ", "* ")) or not items:
                items.append([line])
            else:
                items[-1].append(line)
        out += [" ".join(item) for item in items]
    return out


@pytest.mark.parametrize("page", ["README.md", "docs/quickstart.md", "docs/index.md", "docs/serving.md"])
def test_no_paragraph_is_over_100_words(page: str) -> None:
    long = [p[:80] for p in paragraphs(_read(page)) if len(p.split()) > 100]
    assert long == [], f"{page}: paragraphs over 100 words"


def test_the_readme_says_what_it_is_answers_and_sets_up_in_its_first_40_lines() -> None:
    head = "\n".join(_read("README.md").splitlines()[:40])
    assert head.startswith("# rulesbook\n\n") and "exact" in head.splitlines()[2]
    assert "$ rulesbook calc " in head and "(5/12)" in head  # a question and its exact answer
    assert "scripts/serve" in head and "scripts/test" in head and "Requirements:" in head
    assert "Four rule systems" in head and "Three uses" in head


def test_no_page_links_outside_the_repository() -> None:
    for page in ("README.md", "docs/quickstart.md", "docs/index.md"):
        assert "../shared" not in _read(page) and "](../" not in _read(page), page


def test_the_files_a_page_shows_are_found() -> None:
    page = "```yaml\n# file: a.yaml\nsystem: x\n```\n\n```python\nprint(1)\n```\n"
    assert files(page) == {"a.yaml": "system: x\n"}
