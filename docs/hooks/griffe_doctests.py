"""A griffe extension for the API reference: doctest examples render as code, Sphinx roles as code.

rulesbook's docstrings carry worked examples as doctests (``>>> ...`` lines followed by their
output), often under a Google-style ``Example:`` heading, which griffe reads as an admonition of
Markdown text — where ``>>>`` would become nested block quotes. This extension wraps every run
of doctest lines in a fenced ``pycon`` block before the docstring is parsed, and shows Sphinx
cross-reference roles (``:class:`Calculator```) as plain code (``Calculator``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):(?=`)")


def fence_doctests(text: str) -> str:
    r"""Wrap each run of doctest lines (a ``>>>`` line up to the next blank line) in a fence.

    >>> fence_doctests("Intro.\n\n  >>> 1 + 1\n  2\n\nEnd.").splitlines()
    ['Intro.', '', '  ```pycon', '  >>> 1 + 1', '  2', '  ```', '', 'End.']
    """
    out: list[str] = []
    indent: str | None = None
    for line in text.splitlines():
        stripped = line.lstrip()
        if indent is None and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
        elif indent is not None and not stripped:
            out.append(f"{indent}```")
            indent = None
        out.append(line)
    if indent is not None:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence the doctests of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(ROLE.sub("", obj.docstring.value))
