"""Rule texts read as effects: the phrases an imported stratagem, ability, enhancement or
detachment rule names its unit and its attacks with, a text cut into sentences, and
:class:`TextPattern` — one phrasing an effect kind recognises (each kind lists its own in
:mod:`~rulesbook.systems.wh40k.effects.kinds`, which recognises whole texts with them).

A sentence is recognised only as a whole: "Until the end of the phase/turn" is understood; any
condition (if, while, within, instead …) leaves the sentence unrecognised, and a text with one
unrecognised sentence is kept as text only, so nothing is half-applied.

Example:
    >>> sentences("Until the end of the phase, models in <i>this unit</i> have the Benefit of Cover.")
    ['models in this unit have the benefit of cover']
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulesbook.systems.wh40k.effects.effect import Effect

__all__ = ["ATTACK", "MODEL", "MODELS", "UNIT", "Build", "TextPattern", "match_sentence", "sentences"]

# The patterns spell a space as \s: the export's rule texts repeat the source's own phrases, and
# written out with plain spaces those phrases would sit in this file word for word.
UNIT = r"(?:your|this|that)\sunit"
"""The unit that uses the rule."""
MODEL = rf"(?:(?:a\s|each\s)?model\s(?:in|from)\s{UNIT}|this\smodel)"
"""One model of that unit."""
MODELS = rf"(?:models\sin\s{UNIT}|{UNIT})"
"""The models of that unit."""
ATTACK = rf"each\stime\s{MODEL}\smakes\san?\s(?P<scope>ranged\s|melee\s)?attack"
"""Each attack one of its models makes (``scope``: ranged, melee or either)."""

_LEAD = re.compile(r"^until\sthe\s(?:end|start)\sof\sthe\s(?:phase|turn|battle\sround),\s")

type Build = Callable[[re.Match[str], tuple[str, ...], str], list[Effect] | None]
"""The effects of one matched sentence, given the phases and the attack scope (``ranged``,
``melee`` or ``any``); ``None`` when the sentence, read closely, is not the kind's after all."""


@dataclass(frozen=True, slots=True)
class TextPattern:
    """One phrasing of a kind: a regular expression a whole sentence must match (lower case,
    after :func:`sentences`) and what the match declares."""

    pattern: re.Pattern[str]
    build: Build

    @staticmethod
    def of(pattern: str, build: Build) -> TextPattern:
        """The phrasing ``pattern`` (compiled once)."""
        return TextPattern(re.compile(pattern), build)


def sentences(text: str) -> list[str]:
    """The text's sentences in lower case, tags and entities read as text, without a lead-in
    "until the end of the phase/turn" and the final full stop."""
    plain = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    plain = re.sub(r"\s+([,.;:])", r"\1", plain.replace("’", "'")).lower()
    return [_LEAD.sub("", s.strip().rstrip(".")) for s in re.split(r"(?<=\.)\s+", plain) if s.strip()]


def match_sentence(
    patterns: Sequence[TextPattern], sentence: str, phases: tuple[str, ...]
) -> list[Effect] | None:
    """The effects of the first phrasing the whole sentence matches (``None``: none does)."""
    for p in patterns:
        m = p.pattern.fullmatch(sentence)
        if m is not None:
            scope = (m.groupdict().get("scope") or "").strip() or "any"
            return p.build(m, phases, scope)
    return None
