"""The glossary: every game term and abbreviation, defined once, linked from every page.

Each rule system ships ``glossary.yaml`` beside its ``rules.yaml``: a list of terms, each with
an optional abbreviation (``Ld``, ``BS``, ``FNP``), other spellings (``also``), a definition in
our own words and the IDs of the rules that use it. The site's Glossary page is generated from
these files, and :func:`link_terms` (run on every rendered page by a mkdocs hook) turns the first
use of each term on a page into a link to its entry.

A term belongs to a system: *Leadership* is a 2D6 roll-under in Scrollhammer and a 2D6 roll-over
in Warhammer 40,000. A page about one system links that system's entries; a page about none
links only the terms that exactly one system defines.

Example:
    >>> term = glossary_terms()["scrollhammer"][0]
    >>> term.term, term.abbreviation, term.anchor
    ('Leadership', 'Ld', 'scrollhammer-leadership')
    >>> html = "<p>Roll 2D6 against Ld; see <code>Ld</code>.</p>"
    >>> print(link_terms(html, "../glossary.html", system="scrollhammer"))  # doctest: +ELLIPSIS
    <p>Roll <a class="rb-term" href="../glossary.html#scrollhammer-2d6" title="...">2D6</a> against <a class="rb-term" href="../glossary.html#scrollhammer-leadership" title="...">Ld</a>; see <code>Ld</code>.</p>
"""

from __future__ import annotations

import html
import posixpath
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rulesbook.data import DataFileError, load_data_file
from rulesbook.data.lines import located_in
from rulesbook.errors import quote
from rulesbook.index import page_of, system_file
from rulesbook.registry import registry
from rulesbook.site.sources import slug

__all__ = ["GLOSSARY_PAGE", "Term", "glossary_page", "glossary_terms", "link_terms", "load_glossary"]

GLOSSARY_PAGE = "glossary.md"
"""The Glossary page, inside the docs."""

SKIP_TAGS = frozenset(
    {"a", "code", "pre", "kbd", "h1", "h2", "h3", "h4", "h5", "h6", "select", "option", "label",
     "button", "textarea", "svg", "title", "script", "style", "nav", "header", "footer"}
)  # fmt: skip
"""Text inside these elements is never linked (links, code, headings, forms, page chrome)."""
SKIP_CLASSES = ("rb-static-calc", "rb-no-glossary", "md-nav", "md-header", "md-footer", "md-search")


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary entry of a system."""

    system: str
    term: str
    definition: str
    rules: tuple[str, ...]
    abbreviation: str = ""
    also: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        """The entry's anchor on the Glossary page (``<system>-<term>``)."""
        return f"{self.system}-{slug(self.term)}"

    @property
    def heading(self) -> str:
        """The entry's heading: the term and its abbreviation."""
        return f"{self.term} ({self.abbreviation})" if self.abbreviation else self.term

    def spellings(self) -> Iterator[tuple[str, bool]]:
        """(text, case-sensitive) for every way the term is written on a page.

        Abbreviations match case-sensitively, and one-letter abbreviations (``S``, ``T``, ``D``)
        are not linked automatically: they are too often ordinary letters.
        """
        yield self.term, False
        for other in self.also:
            yield other, False
        if len(self.abbreviation) > 1:
            yield self.abbreviation, True


def load_glossary(path: Path, system: str) -> tuple[Term, ...]:
    """Read one ``glossary.yaml`` (the one data loader); DataFileError naming the file, the line
    and the field otherwise."""
    try:
        return _glossary(path, system)
    except DataFileError as exc:
        raise located_in(exc, path) from None


def _glossary(path: Path, system: str) -> tuple[Term, ...]:
    where = path.name
    data = load_data_file(path)
    if not isinstance(data, dict) or not isinstance(data.get("terms"), list):
        raise DataFileError(f"{where}: expected a mapping with a list of terms")
    reg = registry()
    out = []
    for n, item in enumerate(data["terms"]):
        w = f"{where}.terms[{n}]"
        if not isinstance(item, dict):
            raise DataFileError(f"{w}: expected a mapping (term, definition, rules)")
        term, definition = item.get("term"), item.get("definition")
        if not isinstance(term, str) or not term.strip():
            raise DataFileError(f"{w}.term: expected a non-empty text")
        if not isinstance(definition, str) or not definition.strip():
            raise DataFileError(f"{w}.definition: expected a non-empty text")
        rules = item.get("rules", [])
        if not isinstance(rules, list) or not rules:
            raise DataFileError(f"{w}.rules: expected the list of rule IDs that use {quote(term)}")
        for rule_id in rules:
            if rule_id not in reg.rules:
                raise DataFileError(f"{w}.rules: unknown rule ID {quote(rule_id)}")
        also = item.get("also", [])
        if not isinstance(also, list) or not all(isinstance(a, str) for a in also):
            raise DataFileError(f"{w}.also: expected a list of texts")
        out.append(
            Term(
                system=system,
                term=term.strip(),
                definition=" ".join(definition.split()),
                rules=tuple(rules),
                abbreviation=str(item.get("abbreviation", "")).strip(),
                also=tuple(also),
            )
        )
    return tuple(out)


@cache
def glossary_terms() -> dict[str, tuple[Term, ...]]:
    """System ID -> its glossary terms (systems without a ``glossary.yaml`` have none)."""
    out: dict[str, tuple[Term, ...]] = {}
    for system_id in registry().systems:
        path = system_file(system_id, "glossary.yaml")
        out[system_id] = load_glossary(path, system_id) if path.is_file() else ()
    return out


def glossary_page() -> str:
    """The Glossary page: an abbreviations table, then each system's terms with their rules."""
    reg = registry()
    terms = glossary_terms()
    out = [
        "---",
        "search:",
        "  boost: 10",
        "---",
        "",
        "# Glossary",
        "",
        "Every game term used on this site, defined in our own words, with the rules that use it. "
        "The same word can mean different things in different systems (a Leadership test is rolled "
        "under the value in Scrollhammer and over it in Warhammer 40,000), so each system has its own "
        "entries. Wherever a term appears on a page, its first use links here.",
        "",
        "## Abbreviations",
        "",
        "| abbreviation | means | system |",
        "|---|---|---|",
    ]
    abbreviations = sorted(
        (t for ts in terms.values() for t in ts if t.abbreviation), key=lambda t: t.abbreviation.lower()
    )
    for t in abbreviations:
        out.append(f"| **{t.abbreviation}** | [{t.term}](#{t.anchor}) | {reg.system(t.system).title} |")
    out.append("")
    for system_id, system_terms in terms.items():
        if not system_terms:
            continue
        out += [f"## {reg.system(system_id).title}", ""]
        for t in sorted(system_terms, key=lambda t: t.term.lower()):
            out += [f"### {t.heading} {{#{t.anchor}}}", "", t.definition, ""]
            if t.also:
                out += ["Also written: " + ", ".join(f"*{a}*" for a in t.also) + ".", ""]
            links = ", ".join(f"[{reg.rule(r).title}]({page_of(r, 'rule')})" for r in t.rules)
            out += [f"Rules: {links}.", ""]
    return "\n".join(out)


# -- linking every page's terms --------------------------------------------------------------------


@cache
def _matchers(system: str | None) -> tuple[re.Pattern[str], dict[str, Term]]:
    """One regex for every spelling linkable on a page of ``system``, and spelling -> term."""
    terms = glossary_terms()
    owners: dict[str, set[str]] = defaultdict(set)
    for ts in terms.values():
        for t in ts:
            for text, _ in t.spellings():
                owners[text.lower()].add(t.system)
    chosen: dict[str, Term] = {}
    sensitive: dict[str, bool] = {}
    # A system's own name ("Army Morale") names the system, not the term: never linked.
    titles = {s.title.lower() for s in registry().systems.values()}
    ordered = [system] if system in terms else []
    ordered += [s for s in terms if s != system]
    for system_id in ordered:
        for t in terms[system_id]:
            for text, case in t.spellings():
                key = text if case else text.lower()
                unique = len(owners[text.lower()]) == 1
                if key not in chosen and key.lower() not in titles and (system_id == system or unique):
                    chosen[key] = t
                    sensitive[key] = case
    alternatives = []
    for key in sorted(chosen, key=len, reverse=True):
        body = re.escape(key).replace(r"\ ", r"\s+")
        alternatives.append(body if sensitive[key] else f"(?i:{body})")
    if not alternatives:
        return re.compile(r"(?!x)x"), {}
    pattern = re.compile(r"(?<![\w.-])(" + "|".join(alternatives) + r")(?:s|es)?(?![\w-])")
    return pattern, chosen


_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>")
_RAW = re.compile(r"<(script|style)\b.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "source", "col", "area", "base"})


def _skips(tag: str, attrs: str) -> bool:
    if tag in SKIP_TAGS:
        return True
    match = re.search(r'class="([^"]*)"', attrs)
    return bool(match and any(c in match.group(1).split() for c in SKIP_CLASSES))


def link_terms(page_html: str, glossary_url: str, *, system: str | None = None) -> str:
    """Link the first use of each glossary term in ``page_html`` to its entry.

    ``glossary_url`` is the Glossary page relative to this page. Text inside links, code,
    headings, forms and the page chrome is left alone, and so is each term after its first use.
    """
    pattern, chosen = _matchers(system)
    if not chosen:
        return page_html
    raws: list[str] = []

    def stash(match: re.Match[str]) -> str:
        raws.append(match.group(0))
        return f"\x00{len(raws) - 1}\x00"

    text = _RAW.sub(stash, page_html)
    done: set[str] = set()
    skip_root, depth = "", 0  # the element that switched linking off, and its nesting depth
    out: list[str] = []
    pos = 0

    def link(match: re.Match[str]) -> str:
        word = match.group(1)
        key = word if word in chosen else " ".join(word.lower().split())
        term = chosen.get(key)
        if term is None or term.anchor in done:
            return match.group(0)
        done.add(term.anchor)
        title = html.escape(term.definition, quote=True)
        return f'<a class="rb-term" href="{glossary_url}#{term.anchor}" title="{title}">{match.group(0)}</a>'

    for tag in _TAG.finditer(text):
        chunk = text[pos : tag.start()]
        out.append(chunk if depth else pattern.sub(link, chunk))
        closing, name, attrs = tag.group(1), tag.group(2).lower(), tag.group(3)
        if name not in _VOID and not attrs.rstrip().endswith("/"):
            if depth and name == skip_root:
                depth += -1 if closing else 1
            elif not depth and not closing and _skips(name, attrs):
                skip_root, depth = name, 1
        out.append(tag.group(0))
        pos = tag.end()
    tail = text[pos:]
    out.append(tail if depth else pattern.sub(link, tail))
    result = "".join(out)
    return re.sub(r"\x00(\d+)\x00", lambda m: raws[int(m.group(1))], result)


def page_system(src_uri: str) -> str | None:
    """The system a docs page belongs to, from its path (``wh40k/...``, ``notebooks/wh40k-...``).

    >>> page_system("notebooks/scrollhammer-morale.ipynb")
    'scrollhammer'
    >>> page_system("index.md") is None
    True
    """
    systems = registry().systems
    first = src_uri.partition("/")[0]
    if first in systems:
        return first
    name = posixpath.basename(src_uri)
    for system_id in sorted(systems, key=len, reverse=True):
        if name.startswith(system_id + "-"):
            return system_id
    return None


def terms_by_anchor() -> Mapping[str, Term]:
    """Anchor -> term, over every system."""
    return {t.anchor: t for ts in glossary_terms().values() for t in ts}
