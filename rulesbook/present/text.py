"""Text for the terminal and JSON that is safe to print: the command line's one way to write.

Every text the CLI prints passes :func:`plain` (no control character reaches the terminal);
explanation Markdown reads as text (:func:`terminal_text`), optionally in the terminal's bold
and italic; JSON keeps non-ASCII text readable yet escapes what :func:`plain` would drop.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from rulesbook.present.markdown import inline_markdown
from rulesbook.present.shown import OutputLike, shown_values
from rulesbook.results import CalcResult

__all__ = [
    "json_text",
    "plain",
    "result_text",
    "terminal_text",
]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What :func:`plain` drops: C0 controls but tab and newline, DEL, C1 controls (CSI ``\\x9b``,
NEL ...), the line and paragraph separators and the bidi embeddings, overrides and isolates
(U+202A-U+202E, U+2066-U+2069), which would reorder the rest of a terminal line."""


_JSON_RAW = re.compile(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def plain(text: str) -> str:
    """Text safe for a terminal: control characters (escape sequences among them) are dropped.

    Every text the command line prints goes through here (values, explanations, tables, help
    and error lines), so a name from a game log or a data file cannot move the cursor, retitle
    the window or reverse the line.

    >>> plain("Boyz\x1b]0;pwned\x07 mob"), plain("\u202eeulB \x9b31mArmy")
    ('Boyz]0;pwned mob', 'eulB 31mArmy')
    """
    return _CONTROL.sub("", text)


_MARKUP = re.compile(r"[*_`\\&\[<]")


_STYLE = {"strong_open": "\x1b[1m", "strong_close": "\x1b[22m", "em_open": "\x1b[3m", "em_close": "\x1b[23m"}


def terminal_text(text: str, style: bool = False) -> str:
    """Our Markdown as terminal text: emphasis and code rendered, never shown as asterisks.

    Each line is made safe by :func:`plain`, then read as inline Markdown (the way
    :func:`md_inline` reads it for HTML): ``**bold**`` and ``*italic*`` lose their asterisks,
    `` `code` `` its backticks, ``\\*`` and ``&amp;`` read as ``*`` and ``&``, a link shows its
    text and address. With ``style`` (the command line sets it when standard output is a
    terminal and ``NO_COLOR`` is not set) bold and italic are shown with the terminal's
    bold and italic (SGR 1 and 3); the rest of the text never carries a control character.
    Block structure (list dashes, table bars) is kept as it is.

    >>> terminal_text("**Boyz**: 3 hits on `wh40k.attack`, 2 \\\\* 3 &amp; *more*")
    'Boyz: 3 hits on wh40k.attack, 2 * 3 & more'
    >>> terminal_text("**Boyz\x1b[2J** lost", style=True)
    '\\x1b[1mBoyz[2J\\x1b[22m lost'
    """
    return "\n".join(_terminal_line(plain(line), style) for line in text.split("\n"))


def _terminal_line(line: str, style: bool) -> str:
    if not _MARKUP.search(line):  # nothing to render: no Markdown parser needed
        return line
    out: list[str] = []
    tokens = inline_markdown().parseInline(line)[0].children or []
    href = ""
    for token in tokens:
        if token.type in ("text", "code_inline", "html_inline"):
            out.append(token.content)
        elif token.type in _STYLE:
            out.append(_STYLE[token.type] if style else "")
        elif token.type == "softbreak":
            out.append(" ")
        elif token.type == "link_open":
            href, start = str(token.attrs.get("href", "")), len(out)
        elif token.type == "link_close":
            if href and href != "".join(out[start:]):
                out.append(f" ({href})")
        else:
            out.append(token.content)
    return "".join(out)


def json_text(data: Any, indent: int | None = 2) -> str:
    """``data`` as JSON that is safe to print: still valid JSON that reads back to the same value.

    Non-ASCII text stays readable (``ensure_ascii=False``), but every character :func:`plain`
    would drop is written as a ``\\uXXXX`` escape (``json`` escapes C0 controls itself; DEL,
    the C1 controls, U+2028/U+2029 and the bidi controls are escaped here), so nothing raw
    reaches the terminal and ``json.loads`` gives back the identical string.

    >>> name = "\u202eeulB\x9b31m é"
    >>> print(json_text({"name": name}, indent=None))
    {"name": "\\u202eeulB\\u009b31m é"}
    >>> json.loads(json_text(name)) == name
    True
    """
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    # Outside strings JSON is plain ASCII, so every such character sits inside a string.
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def result_text(outputs: Iterable[OutputLike], result: CalcResult, style: bool = False) -> str:
    """The terminal view: one line per value, then the explanation and any warnings.

    Everything is safe for a terminal (:func:`plain`); the explanation's Markdown is rendered
    by :func:`terminal_text` (plain text, or bold and italic with ``style``).

    >>> print(result_text((), CalcResult({}, explanation=("**Boyz** lost 3.",), warnings=("`ld` capped",))))
    <BLANKLINE>
      Boyz lost 3.
      warning: ld capped
    """
    lines = [plain("  " + shown.to_text()) for shown in shown_values(outputs, result.values)]
    if result.explanation:
        lines.append("")
        lines.extend("  " + terminal_text(line, style) for line in result.explanation)
    lines.extend(f"  warning: {terminal_text(warning, style)}" for warning in result.warnings)
    return "\n".join(lines)
