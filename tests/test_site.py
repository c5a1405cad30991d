"""The generated site: one page per rule and calculator, mkdocs build --strict, offline."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesbook.index import page_of
from rulesbook.registry import registry
from rulesbook.site.pages import generate_pages
from rulesbook.site.static import LIVE_PREFIX

ROOT = Path(__file__).resolve().parents[1]


def test_a_page_per_rule_calculator_and_system() -> None:
    pages = generate_pages()
    reg = registry()
    for ids, kind in ((reg.rules, "rule"), (reg.calculators, "calculator"), (reg.systems, "system")):
        for some_id in ids:
            assert page_of(some_id, kind) in pages  # type: ignore[arg-type]
    for calc in reg.calculators.values():
        assert f"{LIVE_PREFIX}{calc.id}" in pages[page_of(calc.id, "calculator")]
        for inp in calc.inputs:
            assert f"`{inp.key}`" in pages[page_of(calc.id, "calculator")]
    for rule in reg.rules.values():
        page = pages[page_of(rule.id, "rule")]
        assert rule.text.splitlines()[0] in page
        assert str(rule.citations[0]) in page


def test_morale_rule_page_has_the_computed_table() -> None:
    page = generate_pages()[page_of("scrollhammer.morale.check", "rule")]
    assert "| 7 | 1/6 | 5/18 | 5/12 | 7/12 | 13/18 |" in page


@pytest.fixture(scope="session")
def built_site(served_site: Path) -> Path:
    """The served flavour (what ``rulesbook serve`` builds); the static one is ``static_site``."""
    return served_site


def test_the_designer_notebooks_show_their_charts(built_site: Path) -> None:
    from tests.test_designer_notebooks import CHARTS

    for name, charts in CHARTS.items():
        page = (built_site / "notebooks" / name / "index.html").read_text()
        images = re.findall(r'<img[^>]+src="data:image/png;base64,([A-Za-z0-9+/=]{2000,})"', page)
        assert len(images) == charts, name


def test_navigation_source_is_not_published(built_site: Path) -> None:
    assert not (built_site / "SUMMARY").exists()
    assert "SUMMARY" not in (built_site / "sitemap.xml").read_text()


def test_home_page_lists_every_system(built_site: Path) -> None:
    home = (built_site / "index.html").read_text()
    for system in registry().systems.values():
        assert f'href="{system.id}/"' in home and system.version in home


def test_mkdocs_build_strict(built_site: Path) -> None:
    rule = built_site / "scrollhammer" / "rules" / "scrollhammer.morale.insane-heroism" / "index.html"
    html = rule.read_text()
    assert "Scrollhammer Morale section, § Insane Heroism" in html and "003_2d0ecba8f37ef4b8.txt" not in html
    assert f'href="{LIVE_PREFIX}scrollhammer.morale-check"' in html
    notebook = built_site / "notebooks" / "scrollhammer-morale" / "index.html"
    assert notebook.is_file()
    assert "P(pass)" in notebook.read_text()


RESOURCE_TAG = re.compile(
    r"<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*>", re.IGNORECASE
)
SCRIPT_BODY = re.compile(r"<script\b[^>]*>(.*?)</script>", re.IGNORECASE | re.DOTALL)
ABSOLUTE = re.compile(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", re.IGNORECASE)


def test_site_loads_nothing_from_the_network(built_site: Path) -> None:
    """No tag that fetches, no attribute and no inline script names a remote host."""
    offenders: dict[str, list[str]] = {}
    for page in built_site.rglob("*.html"):
        text = page.read_text(errors="ignore")
        found = [m for tag in RESOURCE_TAG.findall(text) for m in ABSOLUTE.findall(tag)]
        found += [m for body in SCRIPT_BODY.findall(text) for m in ABSOLUTE.findall(body)]
        if found:
            offenders[str(page.relative_to(built_site))] = sorted(set(found))
    assert not offenders, offenders


def test_no_served_page_names_a_source_file_but_the_sources_page_once(built_site: Path) -> None:
    from tests.test_site_static import source_file_names_shown

    assert source_file_names_shown(built_site) == {}
