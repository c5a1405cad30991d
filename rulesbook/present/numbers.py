"""Numbers as readers write them: percentages, decimals, powers of ten and exact fractions.

Every number rulesbook shows passes through here: a probability as a percentage never rounded to
0 or 100 %, a tiny one as a power of ten (``2.3 × 10⁻¹⁵%``, never ``2.3e-15%``), a huge exact
fraction summarised by its size (the whole fraction stays in the JSON and on hover).

Example:
    >>> percent(7 / 12), decimal(1 / 3), short_fraction("7/12"), fixed(0.004)
    ('58.3%', '0.3333', '7/12', '4 × 10⁻³')
"""

from __future__ import annotations

import math

__all__ = [
    "PERCENT_FLOOR",
    "decimal",
    "exact_note",
    "fixed",
    "percent",
    "power_of_ten",
    "probability_text",
    "short_fraction",
]

PERCENT_FLOOR = 1e-6
"""Below this probability (0.0001 %) :func:`percent` writes a power of ten; this close to 1 it
writes ``> 99.9999%``."""


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_ten(value: float, digits: int = 3) -> str:
    """A number written as a power of ten with ``digits`` significant digits, as readers write
    it (``1.23 × 10⁻⁵``), never Python's e-notation (``1.23e-05``); trailing zeros dropped.

    The one way rulesbook writes a number too small (or large) for plain decimals:
    :func:`percent` below :data:`PERCENT_FLOOR`, :func:`rulesbook.present.decimal` below
    0.00005, :func:`short_fraction` for a long fraction's size.

    >>> power_of_ten(0.000012345), power_of_ten(-2e-17), power_of_ten(6.02e23, digits=4)
    ('1.23 × 10⁻⁵', '-2 × 10⁻¹⁷', '6.02 × 10²³')
    """
    mantissa, _, exponent = f"{value or 0.0:.{max(digits, 1) - 1}e}".partition("e")  # no "-0"
    return _times_ten(mantissa, int(exponent))


def _times_ten(mantissa: str, exponent: int) -> str:
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa} × 10{str(exponent).translate(_SUPERSCRIPT)}"


def fixed(value: float, places: int = 2) -> str:
    """A number with ``places`` decimals, as explanation lines write means (``2.50``), except
    that a nonzero value those decimals would show as zero keeps three significant digits as a
    :func:`power_of_ten` (an average of 0.004 models lost is not ``0.00``).

    >>> fixed(2.5), fixed(1 / 3, 3), fixed(0.004), fixed(-0.0001), fixed(0.0), fixed(-0.0)
    ('2.50', '0.333', '4 × 10⁻³', '-1 × 10⁻⁴', '0.00', '0.00')
    """
    text = f"{value or 0.0:.{places}f}"
    return power_of_ten(value) if value and float(text) == 0 else text


def percent(value: float) -> str:
    """A probability as a percentage with three significant digits (never rounded to 0 or 100).

    0 and 1 read exactly ``0%`` and ``100%``. A tiny probability keeps its size as a power of
    ten rather than Python's e-notation (``2.3 × 10⁻¹⁵%``, not ``2.3e-15%``); one within
    :data:`PERCENT_FLOOR` of certainty reads ``> 99.9999%`` (its exact fraction, shown beside
    the percentage everywhere, says how close). Never scientific ``e`` notation, and monotone:
    a larger probability never reads smaller.

    >>> percent(7 / 12), percent(17 / 632), percent(0.000598), percent(0.99996), percent(1.0)
    ('58.3%', '2.69%', '0.0598%', '99.996%', '100%')
    >>> percent(2.3e-17), percent(1e-6), percent(9.9996e-7), percent(1 - 1e-9), percent(0.0)
    ('2.3 × 10⁻¹⁵%', '0.0001%', '1 × 10⁻⁴%', '> 99.9999%', '0%')
    """
    if value <= 0 or value >= 1:
        return "0%" if value <= 0 else "100%"
    if value < PERCENT_FLOOR:
        return f"{power_of_ten(value * 100)}%"
    if 1 - value < PERCENT_FLOOR:
        return "> 99.9999%"
    if value >= 0.1:
        decimals = 1
        while f"{value:.{decimals}%}" == f"{1:.{decimals}%}":
            decimals += 1
        return f"{value:.{decimals}%}"
    if value >= 0.01:
        return f"{value:.2%}"
    return f"{value * 100:.3g}%"


def decimal(value: float) -> str:
    """A float with at most four decimals and no trailing zeros; a nonzero value that four
    decimals would round to 0 keeps three significant digits as a power of ten, as
    :func:`~rulesbook.results.percent` writes tiny percentages (never ``1.23e-05``).

    >>> decimal(9.259259), decimal(1.0), decimal(-2.5), decimal(0.000012345), decimal(-1e-20)
    ('9.2593', '1', '-2.5', '1.23 × 10⁻⁵', '-1 × 10⁻²⁰')
    """
    text = fixed(value, 4)
    return text if "×" in text else text.rstrip("0").rstrip(".")


def probability_text(value: float) -> str:
    """A probability with four decimals for the terminal, never rounded to 0 or 1.

    A probability that four decimals would show as ``0.0000`` or ``1.0000`` reads
    ``< 0.0001`` or ``> 0.9999`` (the exact fraction is printed beside it).

    >>> probability_text(7 / 12), probability_text(2.3e-17), probability_text(1 - 1e-9), probability_text(0.0)
    ('0.5833', '< 0.0001', '> 0.9999', '0.0000')
    """
    if 0 < value < 0.00005:
        return "< 0.0001"
    if 0.99995 <= value < 1:
        return "> 0.9999"
    return f"{value:.4f}"


def exact_note(exact: str, limit: int = 24) -> str:
    """An exact fraction as a reader wants it beside its percentage: whole when short, else
    its size (the percentage already says its value).

    >>> exact_note("17/632"), exact_note("7" * 17 + "/" + "2" * 19)
    ('17/632', 'exact: 17/19 digits')
    """
    num, sep, den = exact.partition("/")
    if not sep or len(exact) <= limit or not (num.isdigit() and den.isdigit()):
        return exact
    return f"exact: {len(num)}/{len(den)} digits"


def short_fraction(text: str, limit: int = 24) -> str:
    """A long exact fraction as its float and digit counts; anything else unchanged.

    >>> short_fraction("7/12"), short_fraction("1" * 30 + "/" + "3" * 31)
    ('7/12', '≈ 0.03333 (exact: 30-digit / 31-digit fraction)')
    >>> short_fraction("1" * 30 + "/" + "3" * 40)
    '≈ 3.333 × 10⁻¹¹ (exact: 30-digit / 40-digit fraction)'
    """
    num, sep, den = text.partition("/")
    if not sep or len(text) <= limit or not (num.isdigit() and den.isdigit()):
        return text
    # the ratio from the leading digits: int() of 4300+ digits is refused, and floats overflow
    head_n, head_d = min(len(num), 17), min(len(den), 17)
    exponent = (len(num) - head_n) - (len(den) - head_d)
    mantissa = float(num[:head_n]) / float(den[:head_d])
    if mantissa > 0:
        shift = math.floor(math.log10(mantissa))
        mantissa, exponent = mantissa / 10.0**shift, exponent + shift
    if -4 <= exponent < 3:  # plain decimals; .4g itself switches to e-notation outside these
        approx = f"{mantissa * 10.0**exponent:.4g}"
    else:  # the mantissa and exponent apart: 10.0**exponent over- or underflows for huge ones
        digits = f"{mantissa:.3e}"  # "9.9996" rounds to "1.000e+01": carry into the exponent
        approx = _times_ten(digits.partition("e")[0], exponent + int(digits.partition("e")[2]))
    return f"≈ {approx} (exact: {len(num)}-digit / {len(den)}-digit fraction)"
