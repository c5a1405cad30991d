"""What a variant can change in a rule: its parameters, as data and as the CLI's lines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulesbook.registry import registry

__all__ = ["parameter_lines", "rule_parameters"]


def rule_parameters(rule_id: str) -> list[dict[str, Any]]:
    """The parameters of a rule a variant can change: key, label, value, allowed, section, help.

    >>> rule_parameters("scrollhammer.no-such-rule")
    []
    """
    system = rule_id.split(".", 1)[0]
    choices = registry().choices.get(system)
    if choices is None:
        return []
    return [
        {
            "key": s.key,
            "label": s.label,
            "value": s.format(getattr(choices.parameters, s.key)),
            "allowed": s.allowed(),
            "section": s.section,
            "help": s.help,
        }
        for s in type(choices.parameters).specs()
        if s.rule == rule_id
    ]


def parameter_lines(rule_id: str) -> Iterable[str]:
    """``rulesbook rule ID``'s lines about the parameters a variant can change."""
    params = rule_parameters(rule_id)
    if params:
        yield "Parameters a variant can change (parameters: KEY: VALUE in a variant file):"
        for p in params:
            yield f"  {p['key']}: {p['value']} — {p['label']}; {p['allowed']} (source: {p['section']})"
