"""A calculator form's values in its page's address (``?ld=7&variant=NAME``): each value as the
query string writes it, and back as its widget takes it.

>>> to_query(True), to_query(None), to_query(7)
('true', '', '7')
"""

from __future__ import annotations

from typing import Any

import panel as pn

from widgets.forms.compare import NO_VARIANT, UPLOADED

__all__ = ["from_query", "query_text", "to_query"]


def query_text(value: Any) -> str:
    """A query value as text (a session argument arrives as bytes)."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def to_query(value: Any) -> str:
    """A widget's value as the query string writes it."""
    if isinstance(value, str) and value.endswith(UPLOADED):
        return NO_VARIANT  # a file the player sent is not in the address (a reload compares with none)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def from_query(widget: pn.widgets.Widget, text: str) -> Any:
    """A query value as ``widget`` takes it (raises ValueError on a number that is not one)."""
    if isinstance(widget, pn.widgets.Checkbox):
        return text.lower() in ("true", "1", "yes")
    if isinstance(widget, pn.widgets.IntInput):
        return int(text) if text.strip() else None
    return text
