"""What a variant can change: a rule's parameters (``rulesbook rule ID``) and every parameter and
reading of a system (``rulesbook parameters``), as data and as the CLI's lines.

Example:
    >>> items = parameter_catalogue("scrollhammer")
    >>> first = items[0]
    >>> first["kind"], first["key"], first["type"], first["default"], first["rule"]
    ('parameter', 'leadership_dice', 'dice', '2D6', 'scrollhammer.morale.check')
    >>> reading = next(i for i in items if i["key"] == "ld_bounds")
    >>> reading["default"], reading["options"]
    ('none', ['none', 'max-10'])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulesbook.registry import registry

__all__ = ["parameter_catalogue", "parameter_lines", "rule_parameters"]


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


def parameter_catalogue(system: str | None = None) -> list[dict[str, Any]]:
    """Every rule parameter and reading a variant can change, of one system or of all.

    A parameter: ``kind`` (``parameter``), ``system``, ``key``, ``label``, ``type`` (``int``,
    ``bool`` or ``dice``), ``minimum``, ``maximum``, ``default`` (as a variant file writes it),
    ``allowed`` (in words), ``rule``, ``section`` (of the source document) and ``help``. A reading:
    ``kind`` (``reading``), ``system``, ``key``, ``interpretation``, ``question``, ``default``,
    ``options``, ``rules`` (of its register entry) and ``inert`` (why no number changes, if so).
    """
    reg = registry()
    out: list[dict[str, Any]] = []
    for name, choices in reg.choices.items():
        if system is not None and name != system:
            continue
        for s in type(choices.parameters).specs():
            out.append(
                {
                    "kind": "parameter",
                    "system": name,
                    "key": s.key,
                    "label": s.label,
                    "type": s.kind,
                    "minimum": s.minimum,
                    "maximum": s.maximum,
                    "default": s.format(s.default),
                    "allowed": s.allowed(),
                    "rule": s.rule,
                    "section": s.section,
                    "help": s.help,
                }
            )
        for r in type(choices.readings).specs():
            entry = reg.interpretations.get(r.interpretation)
            out.append(
                {
                    "kind": "reading",
                    "system": name,
                    "key": r.key,
                    "interpretation": r.interpretation,
                    "question": entry.question if entry else "",
                    "default": r.default,
                    "options": list(r.options),
                    "rules": list(entry.rules) if entry else [],
                    "inert": r.inert,
                }
            )
    return out
