"""The source documents, by title: what each covers, its gaps, and links for citations.

Each rule system ships ``source.yaml`` beside its ``rules.yaml``: the document's title (as a
reader knows it), a short title for citations, the file name of the document, what kind of
document it is, what it covers and where it is incomplete — all written in our own words. The
document itself is one of the shared seeds (``../shared/seeds``, beside the checkout) or lives
in the repository's ``sources/`` folder (:data:`SOURCE_FOLDERS`, :func:`document_path`).
The site's Sources page is generated from these files and from the rules' citations, so every
citation on a rule page shows the document's title and section and links to that section's
entry, which in turn lists every rule citing it.

Example:
    >>> src = source("warstrike")
    >>> src.short, src.file
    ('WarStrike Starting Phase Ver. 0.52', '002_debc3bc03be072a4.txt')
    >>> from rulesbook.registry import registry
    >>> cite = registry().rule("warstrike.morale.hive-mind").citations[0]
    >>> citation_md("warstrike/rules/warstrike.morale.hive-mind.md", "warstrike", cite)
    '[WarStrike Starting Phase Ver. 0.52, § Special Rule: Hive Mind](../../sources.md#warstrike-special-rule-hive-mind "WarStrike — The Starting Phase, Ver. 0.52")'
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from pathlib import Path

from rulesbook.index import page_of, source
from rulesbook.records import Citation, System
from rulesbook.registry import registry

__all__ = [
    "SOURCES_PAGE",
    "SOURCE_FOLDERS",
    "citation_md",
    "document_path",
    "slug",
    "source_link",
    "sources_page",
]

SOURCES_PAGE = "sources.md"
"""The Sources page, inside the docs."""

_CHECKOUT = Path(__file__).resolve().parents[2]

SOURCE_FOLDERS = (_CHECKOUT / "sources", _CHECKOUT.parent / "shared" / "seeds")
"""Where source documents are found: the repository's own ``sources/`` (a new system's document
can live there), then the shared seeds beside the checkout."""


def document_path(file: str, system_id: str = "") -> Path | None:
    """The source document named ``file`` (a ``source.yaml``'s ``file``), or ``None`` when it is in
    none of :data:`SOURCE_FOLDERS` (the seeds are not beside every checkout) nor in the folder of
    ``system_id`` (where a system written in data may keep its document).

    >>> document_path("no-such-document.txt") is None
    True
    """
    folders = (*SOURCE_FOLDERS, registry().folder(system_id)) if system_id else SOURCE_FOLDERS
    for folder in folders:
        path = folder / file
        if "/" not in file and path.is_file():
            return path
    return None


def slug(text: str) -> str:
    """A lower-case anchor for a text.

    >>> slug("1. Check Strike Force Morale")
    '1-check-strike-force-morale'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _rel(here: str, frag: str) -> str:
    return f"{posixpath.relpath(SOURCES_PAGE, posixpath.dirname(here) or '.')}#{frag}"


def citation_md(here: str, system_id: str, citation: Citation) -> str:
    """A Markdown citation: document title and section, linking to that section's entry."""
    src = source(system_id)
    note = f" ({citation.note})" if citation.note else ""
    target = _rel(here, f"{system_id}-{slug(citation.section)}")
    # a citation of another document (the 40k core rules beside the Mortarion page) keeps its name
    same = citation.document == registry().systems[system_id].source
    label = citation.title or (src.short if same else citation.document)
    return f'[{label}, § {citation.section}{note}]({target} "{src.title}")'


def source_link(here: str, system: System) -> str:
    """A Markdown link to a system's document on the Sources page, by its title."""
    src = source(system.id)
    return f'[{src.title}]({_rel(here, system.id)} "{src.short}")'


def sources_page() -> str:
    """The Sources page: each document, what it covers, its gaps, and the sections cited."""
    reg = registry()
    out = [
        "# Sources",
        "",
        "Every rule in this rulebook is written in our own words from one of the documents below "
        "and cites the section it comes from. Where a document is silent or unclear, the gap is an "
        "entry in the [interpretations register](interpretations.md) with the default we chose.",
        "",
    ]
    for system in reg.systems.values():
        src = source(system.id)
        out += [f"## {src.title} {{#{system.id}}}", ""]
        out += [
            f"{src.kind} Rule system: [{system.title}]({page_of(system.id, 'system')}), version {system.version}.",
            "",
        ]
        out += [f"File in the shared sources: `{src.file}` (the one place a reader sees it).", ""]
        out += ["**What it covers**", "", *[f"- {c}" for c in src.covers], ""]
        out += ["**Its gaps**", "", *[f"- {g}" for g in src.gaps], ""]
        cited: dict[str, list[str]] = defaultdict(list)
        for rule in reg.rules_for_system(system.id):
            for c in rule.citations:
                cited[c.section].append(f"[{rule.title}]({page_of(rule.id, 'rule')})")
        out += ["**Sections cited**", ""]
        for section, rules in cited.items():
            anchor = f"{system.id}-{slug(section)}"
            out += [f"### § {section} {{#{anchor} data-toc-label='{section}'}}", ""]
            out += ["Cited by: " + ", ".join(dict.fromkeys(rules)) + ".", ""]
    return "\n".join(out)
