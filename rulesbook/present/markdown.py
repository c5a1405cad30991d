"""Our Markdown, rendered: inline Markdown as safe HTML, and a result as Markdown lines (the site).

Raw HTML in a text is never passed through (explanation lines quote names from game logs and
forms), and images are off (an explanation never loads anything).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from rulesbook.present.shown import OutputLike, shown_values
from rulesbook.results import CalcResult

__all__ = [
    "inline_markdown",
    "md_inline",
    "result_markdown",
]


@cache
def inline_markdown() -> Any:
    """The one inline Markdown parser (markdown-it, CommonMark; raw HTML and images off)."""
    from markdown_it import MarkdownIt

    # Raw HTML is never passed through: explanation lines quote user text (army and unit names
    # from game logs, weapon names from forms), which must read as text, never run as markup.
    # Images are off too: an explanation never loads anything from anywhere.
    return MarkdownIt("commonmark", {"html": False}).disable("image")


@lru_cache(maxsize=4096)
def md_inline(text: str) -> str:
    """One explanation line as inline HTML: Markdown emphasis and code render, raw HTML is escaped.

    Kept for the line's text: most of an answer's lines read the same as the answer before
    (a form's keystrokes change a few numbers), and markdown-it is slow in the browser's Python.

    >>> md_inline("**Boyz** <img src=x onerror=alert(1)> lost `2`")
    '<strong>Boyz</strong> &lt;img src=x onerror=alert(1)&gt; lost <code>2</code>'
    """
    rendered: str = inline_markdown().renderInline(text)
    return rendered


def result_markdown(outputs: Iterable[OutputLike], result: CalcResult) -> list[str]:
    """Markdown lines: a table of the headline values, then warnings and explanation lines.

    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> result_markdown(calc.outputs, calc.run(ld=7))[2]
    '| P(pass) | 58.3% | `7/12` |'
    """
    rows = [shown.to_markdown() for shown in shown_values(outputs, result.values) if not shown.long]
    out = ["| result | value | exact |", "|---|---:|---|", *rows, ""] if rows else []
    for warning in result.warnings:
        out += [f"**Warning:** {warning}", ""]
    if result.explanation:
        out += [f"- {line}" for line in result.explanation] + [""]
    return out
