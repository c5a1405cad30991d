"""The published (static) site: calculators without a server, sources, glossary, register pages,
notebooks, the dead-link check — and the static build itself (``static_site``, built once)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesbook.index import page_of, source
from rulesbook.registry import registry
from rulesbook.site import runtime
from rulesbook.site.glossary import glossary_terms, link_terms
from rulesbook.site.link_check import dead_links
from rulesbook.site.publish import published_pages, switches
from rulesbook.site.runtime import PYODIDE
from rulesbook.site.static import LIVE_PREFIX, state_grid
from tests.test_site import test_site_loads_nothing_from_the_network as loads_nothing_from_the_network

ROOT = Path(__file__).resolve().parents[1]
ISSUE_TERMS = (
    "Leadership test", "Morale check", "Fall Back", "Regroup", "Insane Heroism", "Strike Force Morale check",
    "Hive Mind", "Detachment Morale", "Blast marker", "War Engine", "Critical Hit", "Battle-shock",
    "Below Half-strength", "Feel No Pain",
)  # fmt: skip
ISSUE_ABBREVIATIONS = ("Ld", "BS", "WS", "AP", "FNP", "S", "T", "D", "A", "Sv")


# -- generated Markdown (no build needed) -----------------------------------------------------------


@pytest.fixture(scope="module")
def static_pages() -> Iterator[dict[str, str]]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULESBOOK_STATIC", "true")
        yield published_pages()


def test_static_pages_link_no_server_route_and_embed_no_frame(static_pages: dict[str, str]) -> None:
    for path, text in static_pages.items():
        assert f"]({LIVE_PREFIX}" not in text, path
        assert "<iframe" not in text, path
    for calc in registry().calculators.values():
        page = static_pages[page_of(calc.id, "calculator")]
        assert f'class="rb-static-calc" id="try-it-form" data-calc="{calc.id}"' in page
        assert f"`{LIVE_PREFIX}{calc.id}`" in page  # says where the live version is, as text


def test_served_pages_keep_the_live_links_and_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULESBOOK_STATIC", "false")
    pages = published_pages()
    page = pages[page_of("scrollhammer.morale-check", "calculator")]
    assert f'<iframe class="rb-live" src="{LIVE_PREFIX}scrollhammer.morale-check?embed=1"' in page
    rule = pages[page_of("scrollhammer.morale.insane-heroism", "rule")]
    # the rule page opens with its calculator, live, in an open panel above the rule text
    panel = rule.index('<details class="rb-calc-panel" open')
    assert rule.index(f'<iframe class="rb-live" src="{LIVE_PREFIX}scrollhammer.morale-check?embed=1"') > panel
    assert panel < rule.index("**Source:**")
    assert f"]({LIVE_PREFIX}scrollhammer.morale-check)" in rule


@pytest.mark.covers("scrollhammer.morale-check")
def test_static_calculator_states_are_the_calculators_own_answers() -> None:
    calc = registry().calculator("scrollhammer.morale-check")
    grid = state_grid(calc)
    assert [k for k, _ in grid.variable] == ["ld", "modifier"]
    for ld, modifier, exact in [(7, -1, "5/12"), (9, -1, "13/18"), (4, 0, "1/6")]:
        shown = grid.html[grid.index[grid.position({"ld": ld, "modifier": modifier})]]
        assert f'data-key="p_pass_exact">{exact}<' in shown
        assert calc.run(ld=ld, modifier=modifier)["p_pass_exact"] == exact


def test_every_citation_shows_the_document_title_and_links_to_its_section(
    static_pages: dict[str, str],
) -> None:
    sources_page = static_pages["sources.md"]
    for rule in registry().rules.values():
        page = static_pages[page_of(rule.id, "rule")]
        short = source(rule.system).short
        for citation in rule.citations:
            # the system's document by its short title; another document (the 40k core rules) by its name
            same = citation.document == registry().systems[rule.system].source
            title = citation.title or (short if same else citation.document)
            match = re.search(
                rf"\[{re.escape(title)}, § {re.escape(citation.section)}[^\]]*\]\(([^)\s]+)", page
            )
            assert match, (rule.id, citation.section)
            anchor = match.group(1).split("#", 1)[1]
            assert f"{{#{anchor} " in sources_page, anchor


def test_sources_page_names_each_document_with_what_it_covers_and_its_gaps(
    static_pages: dict[str, str],
) -> None:
    page = static_pages["sources.md"]
    for system in registry().systems.values():
        src = source(system.id)
        assert f"## {src.title} {{#{system.id}}}" in page
        assert src.file in page and src.covers[0] in page and src.gaps[0] in page
    assert "WarStrike — The Starting Phase, Ver. 0.52" in page


def test_glossary_defines_the_issue_terms_and_abbreviations() -> None:
    terms = [t for ts in glossary_terms().values() for t in ts]
    names = {t.term for t in terms} | {a for t in terms for a in t.also}
    for wanted in ISSUE_TERMS:
        assert wanted in names, wanted
    assert set(ISSUE_ABBREVIATIONS) <= {t.abbreviation for t in terms}
    for t in terms:
        assert t.rules and all(r in registry().rules for r in t.rules), t.term


def test_glossary_links_the_first_use_of_a_term_and_leaves_code_and_headings_alone() -> None:
    page = (
        "<h2>Insane Heroism</h2><p>A Morale check uses <code>Ld</code>; Insane Heroism saves it."
        " Another Morale check.</p><script>var x = 'Insane Heroism';</script>"
    )
    linked = link_terms(page, "../glossary.html", system="scrollhammer")
    assert linked.count('href="../glossary.html#scrollhammer-morale-check"') == 1
    assert linked.count('href="../glossary.html#scrollhammer-insane-heroism"') == 1
    assert "<h2>Insane Heroism</h2>" in linked and "<code>Ld</code>" in linked
    assert "var x = 'Insane Heroism';" in linked
    # A page about one system links that system's meaning of a shared term.
    wh40k = link_terms("<p>Leadership</p>", "g.html", system="wh40k")
    assert 'href="g.html#wh40k-leadership"' in wh40k


def test_each_interpretation_has_a_page_with_its_switch() -> None:
    pages = published_pages()
    for interp in registry().interpretations.values():
        page = pages[page_of(interp.id, "interpretation")]
        assert f"# {interp.question}" in page and f"`{interp.id}`" in page
        assert f"*Why:* {interp.why}" in page
        for calc_id, key in switches(interp.id):
            assert f"input `{key}`" in page and calc_id in page
    assert switches("wh40k.interpretations.wound-table")


# -- the dead-link check ----------------------------------------------------------------------------


def _mini_project(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "index.md").write_text(f"# Mini\n\n{body}\n")
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## Part\n")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: mini\nuse_directory_urls: false\ntheme:\n  name: material\n  font: false\n"
        "nav:\n  - index.md\n  - other.md\n"
        f"hooks:\n  - {ROOT / 'docs' / 'hooks' / 'static_site.py'}\n"
    )
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
    env["PYTHONPATH"] = str(ROOT)
    env["RULESBOOK_STATIC"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "out")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_strict_build_fails_on_a_link_that_does_not_resolve(tmp_path: Path) -> None:
    good = _mini_project(tmp_path, '<a href="other.html#part">fine</a>')
    assert good.returncode == 0, good.stderr[-2000:]
    dead = _mini_project(
        tmp_path, '<a href="/calc/scrollhammer.morale-check">live</a> <a href="gone.html">x</a>'
    )
    assert dead.returncode != 0
    assert "dead link: index.html: /calc/scrollhammer.morale-check is an absolute path" in dead.stderr
    assert "dead link: index.html: gone.html does not exist" in dead.stderr


# -- the static build ---------------------------------------------------------------------------------


def test_static_build_has_no_dead_link_and_fetches_nothing(static_site: Path) -> None:
    assert dead_links(static_site) == []
    loads_nothing_from_the_network(static_site)
    for page in static_site.rglob("*.html"):
        assert 'href="/calc/' not in page.read_text(errors="ignore"), page


def test_static_build_opens_from_disk(static_site: Path) -> None:
    assert (static_site / "search" / "search_index.js").is_file()  # search without fetch()
    home = (static_site / "index.html").read_text()
    assert 'href="scrollhammer/index.html"' in home  # file URLs, no directory listings
    assert "iframe-worker-shim.js" in home and "unpkg" not in home


def test_a_calculator_page_names_its_python_after_the_build(static_site: Path) -> None:
    """A shared worker outlives its pages: a page of a rebuilt site must not find the Python a
    page of the build before started, so the worker's name carries what the Python is made of."""
    page = (static_site / "scrollhammer" / "calculators" / "scrollhammer.morale-check.html").read_text()
    config = re.search(
        r"<script>\(function \(c\) \{ window\.rulesbookBuild = c\.build;.*?\}\)\((\{.*?\})\);", page
    )
    assert config, "the early start script is at the page's top"
    assert re.fullmatch(rf"{re.escape(PYODIDE.version)}-[0-9a-f]{{12}}", json.loads(config.group(1))["build"])
    script = (static_site / "javascripts" / "live-calculators.js").read_text()
    assert '"rulesbook-live" + (window.rulesbookBuild ? "-" + window.rulesbookBuild : "")' in script


def test_the_build_id_changes_with_the_app_the_browser_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    files = [("rulesbook/x.py", b"A = 1\n")]
    monkeypatch.setattr(runtime, "app_files", lambda: iter(files))
    first = runtime.build_id()
    assert runtime.build_id() == first  # (the same files: the same Python, one shared worker)
    files[0] = ("rulesbook/x.py", b"A = 2\n")
    assert runtime.build_id() != first


def test_static_build_pages_for_sources_glossary_register_and_api(static_site: Path) -> None:
    glossary = (static_site / "glossary.html").read_text()
    assert 'id="wh40k-feel-no-pain"' in glossary and 'id="scrollhammer-insane-heroism"' in glossary
    rule = (static_site / "scrollhammer" / "rules" / "scrollhammer.morale.insane-heroism.html").read_text()
    assert 'href="../../sources.html#scrollhammer-insane-heroism"' in rule
    assert 'class="rb-term" href="../../glossary.html#scrollhammer-' in rule
    entry = static_site / "wh40k" / "interpretations" / "wh40k.interpretations.wound-table.html"
    assert entry.is_file()
    api = (static_site / "api" / "calculators.html").read_text()
    assert "initial_values" in api
    assert "IntInput" in (static_site / "api" / "inputs.html").read_text()


def test_notebook_pages_show_a_picture_of_the_form_and_link_the_notebook(static_site: Path) -> None:
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert notebooks
    for nb in notebooks:
        html = (static_site / "notebooks" / f"{nb.stem}.html").read_text()
        assert "VBox(children=" not in html and "HBox(children=" not in html, nb.name
        assert f'href="{nb.name}" download' in html
        assert (static_site / "notebooks" / nb.name).is_file()
        assert 'class="rb-notebook-widget' in html, nb.name


SOURCE_FILE = re.compile(r"\b[0-9]{3}_[0-9a-f]{16}\.txt\b")
"""A source document's file name in the shared seeds (what a reader should never have to read)."""


def source_file_names_shown(site: Path) -> dict[str, list[str]]:
    """Every built page (but the Sources page) that names a source file, with the names; the
    Sources page may name each file once, beside its title."""
    found = {}
    for page in site.rglob("*.html"):
        names = SOURCE_FILE.findall(page.read_text(encoding="utf-8"))
        if page.parent.name == "sources" or page.name == "sources.html":
            files = {source(s).file for s in registry().systems}
            names = [n for n in names if not (n in files and names.count(n) == 1)]
        if names:
            found[str(page.relative_to(site))] = names
    return found


def test_no_reader_page_names_a_source_file_but_the_sources_page_once(static_site: Path) -> None:
    """Citations, notebooks, live forms and the Sources page show the document's title and section;
    the file name (``003_2d0ecba8f37ef4b8.txt``) is on the Sources page once per document."""
    assert source_file_names_shown(static_site) == {}
    sources = next(
        p for p in static_site.rglob("*.html") if p.parent.name == "sources" or p.name == "sources.html"
    )
    text = sources.read_text(encoding="utf-8")
    assert all(text.count(source(s).file) == 1 for s in registry().systems)


def test_live_citations_show_the_document_title() -> None:
    from rulesbook.present import rules_html
    from rulesbook.systems.wh40k.faction.pages import SOURCE_TITLE

    rule = registry().rule("scrollhammer.morale.insane-heroism")
    shown = rules_html((rule,))
    assert "Scrollhammer Morale section, § Insane Heroism" in shown and not SOURCE_FILE.search(shown)
    assert source("wh40k").short == SOURCE_TITLE  # the faction pages' citations use the same title
    stratagem = registry().rule("wh40k.death-guard.stratagem.gifts-of-decay")
    assert str(stratagem.citations[0]).startswith(SOURCE_TITLE + ", § ")
