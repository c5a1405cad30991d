"""The one error type users see: a bad value for a named field.

Every user-facing entry point (CLI, widgets, data files, game logs, dice expressions) raises
or reports :class:`InputError`; its text is a single line ``field: what is allowed``. A message
quotes what the user gave through :func:`quote`, which keeps at most :data:`QUOTE_LIMIT`
characters of it, so a 100 kB argument still gives a short line.

Example:
    >>> str(InputError("ld", "must be an integer from 0 to 12, got 'x'"))
    "ld: must be an integer from 0 to 12, got 'x'"
    >>> quote("x" * 10_000)  # doctest: +ELLIPSIS
    "'xxxxxxxx...xxx'… (10,000 characters)"
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

__all__ = [
    "QUOTE_LIMIT",
    "CostError",
    "InputError",
    "RulesbookError",
    "choose_from",
    "did_you_mean",
    "quote",
    "shorten",
]

QUOTE_LIMIT = 60
"""The most characters of a user's value an error message repeats."""


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, ending with ``…`` when it was cut.

    >>> shorten("short"), shorten("abcdefghij", 5)
    ('short', 'abcd…')
    """
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for an error message, keeping at most ``limit`` characters of a text.

    Text is quoted with its control characters escaped (``repr``), so nothing in it reaches a
    terminal as a control sequence; a longer text keeps its first ``limit`` characters and says
    how long it was. Other values are shown by their ``repr``, cut the same way.

    >>> quote("blastt"), quote("a\\x1b]0;x\\x07b")
    ("'blastt'", "'a\\\\x1b]0;x\\\\x07b'")
    >>> quote("y" * 100, 5)
    "'yyyyy'… (100 characters)"
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    return shorten(repr(value), limit + 2)


def did_you_mean(
    word: str, options: Iterable[str], *, most: int = 2, cutoff: float = 0.75, starting: bool = False
) -> str:
    """``; did you mean X or Y?`` naming the options closest to a misspelt ``word`` (else empty):
    at most ``most`` of them, each at least ``cutoff`` alike (:func:`difflib.get_close_matches`),
    and with ``starting`` those that start as ``word`` does first. The one place the hint is
    worded: the command line, the forms and every data file's errors read it alike.

    >>> did_you_mean("battle_shock_dicee", ["battle_shock_dice", "deadly_demise_roll"])
    '; did you mean battle_shock_dice?'
    >>> did_you_mean("zzz", ["title"])
    ''
    >>> did_you_mean("f", ["ferric-blight", "grenade", "fire-overwatch", "flamer"], most=3, starting=True)
    '; did you mean ferric-blight, fire-overwatch or flamer?'
    """
    names = list(options)
    typed = str(word)
    close = [n for n in names if starting and typed and n.startswith(typed)]
    close += [n for n in difflib.get_close_matches(typed, names, n=most, cutoff=cutoff) if n not in close]
    close = close[:most]
    if not close:
        return ""
    listed = f"{', '.join(close[:-1])} or {close[-1]}" if len(close) > 1 else close[0]
    return f"; did you mean {listed}?"


def choose_from(word: str, options: Iterable[str], *, none: bool = False, limit: int = 4) -> str:
    """What to choose instead of an unknown ``word``, short enough for one line on a phone:
    every option when there are at most ``limit``; else the few that start like ``word`` or
    resemble it, and how many there are (a form lists them all in its picker).

    >>> choose_from("x", ["rotwind", "the-lantern"])
    'choose from rotwind, the-lantern'
    >>> names = ["gifts-of-decay", "ferric-blight", "fire-overwatch", "grenade", "boilblight", "cloud-of-flies"]
    >>> choose_from("f", names)
    'did you mean ferric-blight or fire-overwatch? (6 in all)'
    >>> choose_from("zzz", names)
    '6 to choose from, such as gifts-of-decay, ferric-blight, fire-overwatch'
    >>> choose_from("q", ["spread-the-sickness"], none=True)
    'choose none or one of spread-the-sickness'
    """
    names = list(options)
    if len(names) <= limit:
        return ("choose none or one of " if none else "choose from ") + (", ".join(names) or "none")
    hint = did_you_mean(str(word).strip().lower(), names, most=3, cutoff=0.6, starting=True)
    if hint:
        return f"{hint.removeprefix('; ')} ({len(names)} in all)"
    return f"{len(names)} to choose from, such as {', '.join(names[:3])}"


class RulesbookError(Exception):
    """Base class of rulesbook's own errors."""


class InputError(RulesbookError, ValueError):
    """A value given for ``field`` is not allowed; ``message`` says what is.

    A ``field`` longer than :data:`QUOTE_LIMIT` characters (a key the user typed) is cut.
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = shorten(" ".join(str(field).split()))
        self.message = " ".join(message.split())
        super().__init__(f"{self.field}: {self.message}")


class CostError(InputError):
    """An input whose predicted work is beyond what the calculators allow (about one second):
    refused before the work starts, with the estimate. ``times`` is the predicted work as a
    multiple of the limit (``None`` when only a count of values was predicted); the text is the
    same one line as any :class:`InputError`, so every front-end shows it unchanged, and the HTTP
    API answers it with status 422 and the estimate.

    >>> err = CostError("dice", "20D20!kh10 would need about 61.7 times the work ...", times=61.7)
    >>> isinstance(err, InputError), err.field, err.times
    (True, 'dice', 61.7)
    """

    def __init__(self, field: str, message: str, *, times: float | None = None) -> None:
        super().__init__(field, message)
        self.times = times
