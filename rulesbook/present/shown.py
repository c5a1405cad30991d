"""One shown value per declared output: the model every medium (terminal, HTML, Markdown) renders.

A calculator declares its outputs once (key, label, kind); :func:`shown_values` turns a result's
values into :class:`ShownValue` records — a probability as its float, its percentage and its exact
fraction; a list joined by commas (or left to a table when long); anything else as plain text.

Example:
    >>> from rulesbook.registry import registry
    >>> calc = registry().calculator("scrollhammer.morale-check")
    >>> shown = shown_values(calc.outputs, calc.run(ld=7, modifier=-1).values)
    >>> shown[0].label, shown[0].text, shown[0].percent, shown[0].exact
    ('P(pass)', '0.4167', '41.7%', '5/12')
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from rulesbook.present.numbers import decimal, exact_note, percent, probability_text, short_fraction
from rulesbook.results import fraction_str, plain_outcome

__all__ = [
    "EXACT_LIMIT",
    "LONG_LIST",
    "OutputLike",
    "ShownValue",
    "md_cell",
    "scalar_text",
    "shown_values",
    "whole_on_tap",
]


def whole_on_tap(shown: str, whole: str, attributes: str = "") -> str:
    """A huge exact fraction shown by its size, the whole fraction one tap (or click) away — a
    native ``<details>``, so it opens on a phone, with no script, and wraps to the screen —
    and on hover (``title``); ``attributes`` go on the visible part (``data-key`` for scripts).

    >>> print(whole_on_tap("exact: 2/2 digits", "12/34"))
    <details class="rb-whole"><summary><span title="12/34">exact: 2/2 digits</span></summary><span class="rb-fraction">12/34</span></details>
    """
    whole = html.escape(whole)
    return (
        f'<details class="rb-whole"><summary><span{attributes} title="{whole}">{html.escape(shown)}</span>'
        f'</summary><span class="rb-fraction">{whole}</span></details>'
    )


LONG_LIST = 12
"""Lists with more items than this are shown as tables (HTML, Markdown), not as one line."""


EXACT_LIMIT = 40
"""Exact fractions longer than this many characters are summarised on screen."""


class OutputLike(Protocol):
    """What the formatter needs of a declared output (:class:`rulesbook.calculators.Output`)."""

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def chart(self) -> tuple[str, ...]: ...


def scalar_text(value: Any) -> str:
    """One value as text: booleans as yes/no, floats by :func:`decimal`, Fractions exact."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return decimal(value)
    if isinstance(value, Fraction):
        return short_fraction(fraction_str(value), limit=EXACT_LIMIT)
    if value is None:
        return "—"
    return str(plain_outcome(value))  # enums by name, as in tables


@dataclass(frozen=True, slots=True)
class ShownValue:
    """One result value ready to show.

    Attributes:
        key, label, kind: from the declared output.
        text: the value as plain text (a probability as its float with four decimals).
        percent: a probability as a percentage (``"58.3%"``); ``None`` for other kinds.
        exact: a probability's exact fraction, whole (``"7/12"``); ``None`` for other kinds.
        long: a list too long for one line (shown as a table instead in HTML and Markdown).
    """

    key: str
    label: str
    kind: str
    text: str
    percent: str | None = None
    exact: str | None = None
    long: bool = False

    @property
    def exact_short(self) -> str | None:
        """The exact fraction, summarised when it is huge.

        >>> ShownValue("p", "P", "probability", "0.0333", "3.3%", "1" * 30 + "/" + "3" * 31).exact_short
        '≈ 0.03333 (exact: 30-digit / 31-digit fraction)'
        """
        return None if self.exact is None else short_fraction(self.exact, limit=EXACT_LIMIT)

    def to_text(self, width: int = 28) -> str:
        """One line for the terminal: label, value and (for a probability) the exact fraction.

        >>> ShownValue("p", "P(pass)", "probability", "0.5833", "58.3%", "7/12").to_text(10)
        'P(pass)    0.5833  (7/12)'
        """
        tail = f"  ({self.exact_short})" if self.exact is not None else ""
        return f"{self.label:<{width}} {self.text}{tail}"

    def to_html(self) -> str:
        """The value as an HTML block whose number carries ``data-key`` (read by browser tests).

        >>> ShownValue("n", "Count", "count", "2").to_html()
        '<div class="rb-value"><span class="rb-label">Count</span><span class="rb-number" data-key="n">2</span></div>'
        """
        key = html.escape(self.key)
        if self.exact is None:
            exact_html = ""
        elif self.exact_short == self.exact:
            exact_html = f'<span class="rb-exact">exact <span data-key="{key}_exact">{html.escape(self.exact)}</span></span>'
        else:  # a huge fraction: its size on screen, whole on a tap, on hover and in data-exact
            attributes = f' data-key="{key}_exact" data-exact="{html.escape(self.exact)}"'
            note = exact_note(self.exact, EXACT_LIMIT)
            exact_html = f'<span class="rb-exact">{whole_on_tap(note, self.exact, attributes)}</span>'
        shown = self.percent if self.percent is not None else self.text
        return (
            f'<div class="rb-value"><span class="rb-label">{html.escape(self.label)}</span>'
            f'<span class="rb-number" data-key="{key}">{html.escape(shown)}</span>{exact_html}</div>'
        )

    def to_markdown(self) -> str:
        """One row of a Markdown table ``| result | value | exact |``.

        >>> ShownValue("p", "P(pass)", "probability", "0.5833", "58.3%", "7/12").to_markdown()
        '| P(pass) | 58.3% | `7/12` |'
        """
        shown = self.percent if self.percent is not None else self.text
        exact = f"`{self.exact_short}`" if self.exact is not None else ""
        return f"| {md_cell(self.label)} | {md_cell(shown)} | {exact} |"


def md_cell(text: str) -> str:
    """Text safe inside a Markdown table cell (bars escaped, one line).

    >>> md_cell("a|b")
    'a\\\\|b'
    """
    return text.replace("|", "\\|").replace("\n", " ")


def _shown(out: OutputLike, value: Any, exact_text: Any) -> ShownValue:
    if out.kind == "probability":
        exact = fraction_str(value) if isinstance(value, Fraction) else exact_text
        number = float(value)
        return ShownValue(
            out.key,
            out.label,
            out.kind,
            probability_text(number),
            percent(number),
            None if exact is None else str(exact),
        )
    if isinstance(value, Sequence) and not isinstance(value, str):
        return ShownValue(
            out.key,
            out.label,
            out.kind,
            ", ".join(scalar_text(v) for v in value),
            long=len(value) > LONG_LIST,
        )
    return ShownValue(out.key, out.label, out.kind, scalar_text(value))


def shown_values(outputs: Iterable[OutputLike], values: Mapping[str, Any]) -> list[ShownValue]:
    """The declared outputs present in ``values``, formatted (table outputs left out).

    A probability may be given as a Fraction, or as a float with its exact string under
    ``KEY_exact`` (the JSON form).

    >>> from fractions import Fraction
    >>> from rulesbook.calculators import Output
    >>> outs = [Output("p", "P(hit)"), Output("ok", "Hits", "bool"), Output("k", "Rolls", "list")]
    >>> [s.text for s in shown_values(outs, {"p": Fraction(1, 3), "ok": True, "k": [1, 2.5]})]
    ['0.3333', 'yes', '1, 2.5']
    """
    return [
        _shown(out, values[out.key], values.get(f"{out.key}_exact"))
        for out in outputs
        if out.key in values and out.kind != "table"
    ]
