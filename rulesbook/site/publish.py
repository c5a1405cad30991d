"""Everything the published site adds to the generated rule pages (used by ``docs/gen_pages.py``).

:func:`published_pages` is the whole generated part of the site: the rule, calculator and
system pages of :mod:`rulesbook.site.pages`, plus

* one page per entry of the interpretations register — the question, the default and why, the
  alternatives, the rules it touches and the calculator inputs that switch it;
* the Sources page (:mod:`rulesbook.site.sources`) and the Glossary (:mod:`rulesbook.site.glossary`);
* search weights: a page that *is* an ID (rule, calculator, interpretation) or the glossary
  ranks above pages that merely mention it (the command line reference, notebooks).

Example:
    >>> pages = published_pages()
    >>> entry = pages["scrollhammer/interpretations/scrollhammer.interpretations.heroism-low-ld.md"]
    >>> "`heroism_low_ld`" in entry and "boost: 3" in entry
    True
    >>> "glossary.md" in pages and "sources.md" in pages
    True
"""

from __future__ import annotations

from typing import Any

from rulesbook.index import PageKind, page_of
from rulesbook.inputs import InterpretationInput
from rulesbook.records import Interpretation
from rulesbook.registry import registry
from rulesbook.site.glossary import GLOSSARY_PAGE, glossary_page
from rulesbook.site.pages import generate_pages, interpretation_md, md_link
from rulesbook.site.sources import SOURCES_PAGE, sources_page

__all__ = ["SEARCH_BOOST", "interpretation_page", "published_pages", "reading_of", "switches"]

SEARCH_BOOST = {"id": 3.0, "reference": 0.5}
"""Search weights: pages of one ID rank high; long reference pages (the CLI help) rank low."""


def _front_matter(boost: float, some_id: str = "") -> str:
    """YAML front matter: a search weight, and the page's ID as a search tag.

    Material's search ranks a tag above any title or text, and this site does not display
    tags, so an ID's own page comes first when a reader searches that ID (or a part of it).
    """
    tags = f"tags:\n  - {some_id}\n" if some_id else ""
    return f"---\n{tags}search:\n  boost: {boost:g}\n---\n\n"


def switches(interp_id: str) -> list[tuple[str, str]]:
    """(calculator ID, input key) of every calculator input that switches an interpretation.

    >>> switches("scrollhammer.interpretations.heroism-low-ld")[0]
    ('scrollhammer.morale-check', 'heroism_low_ld')
    """
    return [
        (calc.id, inp.key)
        for calc in registry().calculators.values()
        for inp in calc.inputs
        if isinstance(inp, InterpretationInput) and inp.interpretation == interp_id
    ]


def reading_of(interp_id: str) -> Any:
    """The typed reading (:class:`rulesbook.choices.ReadingSpec`) that answers a register entry.

    >>> reading_of("scrollhammer.interpretations.heroism-low-ld").key
    'heroism_low_ld'
    """
    reg = registry()
    choices = reg.choices.get(reg.interpretation(interp_id).system)
    if choices is None:
        return None
    for spec in choices.readings.specs():
        if spec.interpretation == interp_id:
            return spec
    return None


def interpretation_page(interp: Interpretation) -> str:
    """The page of one entry of the interpretations register."""
    reg = registry()
    here = page_of(interp.id, "interpretation")
    system = reg.system(interp.system)
    body = interpretation_md(here, interp, "#")
    body[0] = f"# {interp.question}"  # the page title; the entry's anchor is the page itself
    register = md_link(here, system.id, "register", f"{system.title} interpretations register")
    out = [*body[:2], f"`{interp.id}` · an entry of the {register}", "", *body[4:]]
    out += ["## Switched by", ""]
    found = switches(interp.id)
    if found:
        out += ["Choose an alternative with the calculator input:", ""]
        for calc_id, key in found:
            calc = reg.calculator(calc_id)
            out.append(
                f"- {md_link(here, calc_id, 'calculator', calc.title)} — input `{key}` "
                f"(`rulesbook calc {calc_id} {key}={interp.alternatives[0].key if interp.alternatives else interp.default}`)"
            )
    spec = reading_of(interp.id)
    if spec is not None:
        alt = interp.alternatives[0].key if interp.alternatives else interp.default
        if not found:
            out += ["No calculator input offers it; switch it in Python or a variant:", ""]
        out += [
            f"- the reading `{spec.key}` of the {system.title} rule choices: "
            f'`registry().choices["{interp.system}"].replace(readings={{"{spec.key}": "{alt}"}})`',
        ]
        if spec.inert:
            out += ["", f"No number on this site changes with it: {spec.inert}"]
    elif not found:
        out.append("No calculator input switches this entry: the default is built into the rules code.")
    out.append("")
    return _front_matter(SEARCH_BOOST["id"], interp.id) + "\n".join(out)


def published_pages() -> dict[str, str]:
    """Every generated page of the site: path inside docs -> Markdown (with search weights)."""
    reg = registry()
    pages = generate_pages()
    ids: list[tuple[str, PageKind]] = [
        *((r, "rule") for r in reg.rules),
        *((c, "calculator") for c in reg.calculators),
    ]
    for some_id, kind in ids:
        path = page_of(some_id, kind)
        pages[path] = _front_matter(SEARCH_BOOST["id"], some_id) + pages[path]
    if "cli.md" in pages:
        pages["cli.md"] = _front_matter(SEARCH_BOOST["reference"]) + pages["cli.md"]
    for interp in reg.interpretations.values():
        pages[page_of(interp.id, "interpretation")] = interpretation_page(interp)
    pages[SOURCES_PAGE] = sources_page()
    pages[GLOSSARY_PAGE] = glossary_page()
    return pages


def summary_extra(summary: str) -> str:
    """Add the register entries, Sources, Glossary and API reference to the literate-nav summary.

    >>> nav = summary_extra("* [Home](index.md)\\n    * [Interpretations](wh40k/interpretations.md)\\n")
    >>> "        * [" in nav and "* [Glossary](glossary.md)" in nav and "* API reference" in nav
    True
    """
    reg = registry()
    out = []
    for line in summary.splitlines():
        out.append(line)
        for system_id in reg.systems:
            if line.strip() == f"* [Interpretations]({page_of(system_id, 'register')})":
                indent = line[: len(line) - len(line.lstrip())] + "    "
                out += [
                    f"{indent}* [{i.question}]({page_of(i.id, 'interpretation')})"
                    for i in reg.interpretations_for_system(system_id)
                ]
    out += [
        f"* [Sources]({SOURCES_PAGE})",
        f"* [Glossary]({GLOSSARY_PAGE})",
        "* API reference",
        *[f"    * [{title}](api/{name}.md)" for name, title in API_PAGES],
    ]
    return "\n".join(out) + "\n"


API_PAGES = (
    ("index", "Scripting rulesbook"),
    ("front-door", "import rulesbook as rb"),
    ("registry", "Registry"),
    ("calculators", "Calculators"),
    ("inputs", "Inputs"),
    ("results", "Results"),
    ("dice", "Dice"),
)
"""The hand-written API reference pages (``docs/api/``), rendered by mkdocstrings."""


def _url(doc_path: str, static: bool) -> str:
    """The built URL of a docs page, relative to the site root (``.html`` files or folders)."""
    path, _, frag = doc_path.partition("#")
    stem = path.removesuffix(".md")
    if static:
        url = f"{stem}.html"
    else:
        url = (
            "" if stem == "index" else (stem.removesuffix("index") if stem.endswith("/index") else f"{stem}/")
        )
    return url + (f"#{frag}" if frag else "")


def search_hits(static: bool = True) -> dict[str, list[list[str]]]:
    """Exact search words -> the entries a reader means by them: [url, title, what].

    Every rule, calculator, interpretation and system ID leads to its own page; every glossary
    term, other spelling and abbreviation to its glossary entries (one per system defining it).
    ``docs/javascripts/search-hits.js`` shows these first when the search box holds exactly one
    of these words; the full-text results follow as usual.

    >>> hits = search_hits()
    >>> hits["wh40k.attack"]
    [['wh40k/calculators/wh40k.attack.html', 'Attack sequence (one weapon)', 'calculator wh40k.attack']]
    >>> [h[0] for h in hits["fnp"]]
    ['glossary.html#wh40k-feel-no-pain']
    """
    from rulesbook.site.glossary import glossary_terms

    reg = registry()
    hits: dict[str, list[list[str]]] = {}
    named: list[tuple[str, str, PageKind]] = [
        *((s.id, s.title, "system") for s in reg.systems.values()),
        *((r.id, r.title, "rule") for r in reg.rules.values()),
        *((c.id, c.title, "calculator") for c in reg.calculators.values()),
        *((i.id, i.question, "interpretation") for i in reg.interpretations.values()),
    ]
    for some_id, title, kind in named:
        hits.setdefault(some_id, []).append(
            [_url(page_of(some_id, kind), static), title, f"{kind} {some_id}"]
        )
    for system_id, terms in glossary_terms().items():
        system = reg.system(system_id).title
        for t in terms:
            entry = [_url(f"{GLOSSARY_PAGE}#{t.anchor}", static), t.heading, f"glossary · {system}"]
            for text, _ in t.spellings():
                words = hits.setdefault(" ".join(text.lower().split()), [])
                if entry not in words:
                    words.append(entry)
    return hits


def search_hits_script(static: bool = True) -> str:
    """The ``javascripts/search-hits-data.js`` file: the :func:`search_hits` map as a script."""
    import json

    data = json.dumps(search_hits(static), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"window.rulesbookSearchHits = {data};\n"
