"""The index: everything about one rule ID, answered in one place.

A rule's text and citations come from its system's ``rules.yaml``; its code from the functions
marked with :func:`~rulesbook.registry.implements`; its calculators and interpretations from
the registry; its tests from the ``@pytest.mark.covers(ID)`` markers in ``tests/`` and the
``covers`` lists of the ``cases.yaml`` files; its page from :func:`page_of`. ``rulesbook rule
ID`` (:mod:`rulesbook.cli`) and the rule pages of the site (:mod:`rulesbook.site.pages`) both read
:func:`rule_info`, so the two can never disagree.

Example:
    >>> info = rule_info("scrollhammer.morale.insane-heroism")
    >>> info.title, info.page
    ('Insane Heroism', 'scrollhammer/rules/scrollhammer.morale.insane-heroism/')
    >>> "scrollhammer.morale-check" in info.calculators, bool(info.tests)
    (True, True)
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from rulesbook.cases import load_cases
from rulesbook.data import DataFileError
from rulesbook.records import Citation, Implementation, Source, load_source
from rulesbook.registry import registry

__all__ = [
    "ROOT",
    "PageKind",
    "RuleInfo",
    "anchor",
    "covering_tests",
    "page_of",
    "rule_info",
    "source",
    "system_file",
]

ROOT = Path(__file__).resolve().parent.parent
"""The project root (``tests/`` and ``rulesbook/`` live here in a source checkout)."""


def anchor(some_id: str) -> str:
    """An HTML anchor for an ID (dots become dashes).

    >>> anchor("scrollhammer.morale.check")
    'scrollhammer-morale-check'
    """
    return some_id.replace(".", "-")


type PageKind = Literal["system", "register", "calculator", "rule", "interpretation"]
"""What a page is of: a system (its index), a system's interpretations register, a calculator, a
rule, an entry of the register."""


def page_of(some_id: str, kind: PageKind) -> str:
    """The Markdown path (inside docs) of the page of ``some_id`` as a ``kind`` — the one place
    that decides where a page lives. The kind is always named: a rule and a calculator may share
    an ID (a system's one test and the calculator of it), and each keeps its own page.

    >>> page_of("scrollhammer.morale-check", "calculator"), page_of("scrollhammer", "system")
    ('scrollhammer/calculators/scrollhammer.morale-check.md', 'scrollhammer/index.md')
    >>> page_of("scrollhammer", "register"), page_of("scrollhammer.morale.insane-heroism", "rule")
    ('scrollhammer/interpretations.md', 'scrollhammer/rules/scrollhammer.morale.insane-heroism.md')
    """
    reg = registry()
    if kind in ("system", "register") and some_id in reg.systems:
        return f"{some_id}/interpretations.md" if kind == "register" else f"{some_id}/index.md"
    if kind == "calculator" and some_id in reg.calculators:
        return f"{reg.calculators[some_id].system}/calculators/{some_id}.md"
    if kind == "rule" and some_id in reg.rules:
        return f"{reg.rules[some_id].system}/rules/{some_id}.md"
    if kind == "interpretation" and some_id in reg.interpretations:  # each entry has its own page
        return f"{reg.interpretations[some_id].system}/interpretations/{some_id}.md"
    raise KeyError(f"no {kind} {some_id}")


def shown_path(path: Path) -> str:
    """A file's path relative to the project root (its name when it lies elsewhere).

    >>> shown_path(ROOT / "rulesbook" / "index.py")
    'rulesbook/index.py'
    """
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


# -- tests that cover an ID -------------------------------------------------------------------------


def _covers_markers(path: Path) -> list[tuple[str, str]]:
    """(ID, test name) for every ``@…covers("ID", …)`` decorator of a test module."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except SyntaxError:  # pragma: no cover - a broken test file fails the suite anyway
        return []
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.ClassDef):
            continue
        for deco in node.decorator_list:
            if (
                isinstance(deco, ast.Call)
                and isinstance(deco.func, ast.Attribute)
                and deco.func.attr == "covers"
            ):
                found += [
                    (arg.value, node.name)
                    for arg in deco.args
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                ]
    return found


@cache
def covering_tests(tests_dir: Path = ROOT / "tests") -> dict[str, tuple[str, ...]]:
    """Rule/calculator ID -> tests that declare ``@pytest.mark.covers(ID)``, plus ``cases.yaml`` cases.

    Tests are named ``tests/path.py::test_name``; cases ``rulesbook/systems/…/cases.yaml: name``.
    Without a ``tests/`` folder (an installed package) only the cases are found.

    >>> tests = covering_tests()["scrollhammer.morale.check"]
    >>> any(t.startswith("tests/scrollhammer/test_morale_check.py::") for t in tests)
    True
    >>> any(t.startswith("rulesbook/systems/scrollhammer/cases.yaml: ") for t in tests)
    True
    """
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(tests_dir.rglob("test_*.py")) if tests_dir.is_dir() else []:
        rel = path.relative_to(tests_dir.parent).as_posix()
        for some_id, name in _covers_markers(path):
            found[some_id].append(f"{rel}::{name}")
    for cases_file in (folder / "cases.yaml" for folder in registry().folders.values()):
        if not cases_file.is_file():
            continue
        for case in load_cases(cases_file):
            for some_id in (*case.covers, case.calculator):
                found[some_id].append(f"{shown_path(cases_file)}: {case.name}")
    return {k: tuple(dict.fromkeys(v)) for k, v in found.items()}


# -- everything about a rule ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """Everything one hop from a rule ID.

    Attributes:
        id, system, title, summary, text: the rule as its ``rules.yaml`` gives it.
        citations: the source sections it paraphrases.
        code: the functions marked as implementing it.
        calculators: IDs of the calculators that execute it.
        interpretations: IDs of the interpretations register entries about it.
        tests: tests and cases that cover it (see :func:`covering_tests`).
        page: the URL path of its page on the site; ``page_file`` the Markdown file behind it.
    """

    id: str
    system: str
    title: str
    summary: str
    text: str
    citations: tuple[Citation, ...]
    code: tuple[Implementation, ...]
    calculators: tuple[str, ...]
    interpretations: tuple[str, ...]
    tests: tuple[str, ...]
    page: str
    page_file: str

    def to_json(self) -> dict[str, Any]:
        """The ``rulesbook rule ID --json`` answer.

        >>> sorted(rule_info("scrollhammer.morale.check").to_json())  # doctest: +NORMALIZE_WHITESPACE
        ['calculators', 'citations', 'code', 'id', 'interpretations', 'page', 'summary', 'system',
         'tests', 'text', 'title']
        """
        return {
            "id": self.id,
            "system": self.system,
            "title": self.title,
            "summary": self.summary,
            "text": self.text,
            "citations": [str(c) for c in self.citations],
            "code": [f"{i.module}.{i.qualname}" for i in self.code],
            "calculators": list(self.calculators),
            "interpretations": list(self.interpretations),
            "tests": list(self.tests),
            "page": self.page,
        }


def rule_info(rule_id: str) -> RuleInfo:
    """Everything about rule ``rule_id``; :class:`~rulesbook.errors.InputError` if there is no such rule.

    >>> rule_info("scrollhammer.morale.chek")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: rule: unknown rule ID 'scrollhammer.morale.chek'; did you mean scrollhammer.morale.check, ...?
    """
    reg = registry()
    rule = reg.rule(rule_id)
    return RuleInfo(
        id=rule.id,
        system=rule.system,
        title=rule.title,
        summary=rule.summary,
        text=rule.text,
        citations=rule.citations,
        code=tuple(reg.implementations_for_rule(rule.id)),
        calculators=tuple(c.id for c in reg.calculators_for_rule(rule.id)),
        interpretations=tuple(i.id for i in reg.interpretations_for_rule(rule.id)),
        tests=covering_tests().get(rule.id, ()),
        page=page_of(rule.id, "rule").removesuffix(".md") + "/",
        page_file=page_of(rule.id, "rule"),
    )


def system_file(system_id: str, name: str) -> Path:
    """A data file in a system's folder (``wh40k``, ``source.yaml`` -> ``systems/wh40k/source.yaml``;
    a system written in data keeps its files in its own folder)."""
    return registry().folder(system_id) / name


@cache
def source(system_id: str) -> Source:
    """The source document of a system (from its ``source.yaml``)."""
    path = system_file(system_id, "source.yaml")
    if not path.is_file():
        raise DataFileError(f"{system_id}: source.yaml is missing (title, short, file, kind, covers, gaps)")
    return load_source(path, system_id)
