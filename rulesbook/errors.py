"""The one error type users see: a bad value for a named field.

Every user-facing entry point (CLI, widgets, data files, game logs, dice expressions) raises
or reports :class:`InputError`; its text is a single line ``field: what is allowed``.

Example:
    >>> str(InputError("ld", "must be an integer from 0 to 12, got 'x'"))
    "ld: must be an integer from 0 to 12, got 'x'"
"""

from __future__ import annotations

__all__ = ["InputError", "RulesbookError"]


class RulesbookError(Exception):
    """Base class of rulesbook's own errors."""


class InputError(RulesbookError, ValueError):
    """A value given for ``field`` is not allowed; ``message`` says what is."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = " ".join(message.split())
        super().__init__(f"{field}: {self.message}")
