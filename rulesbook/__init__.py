"""rulesbook: tabletop wargame rules as executable, exact, explained references.

The front door (:mod:`rulesbook.api`), loaded when a name is first used, so ``import rulesbook``
stays as cheap as the command line's start-up::

    >>> import rulesbook as rb
    >>> rb.calc("scrollhammer.morale-check", ld=7)["p_pass_exact"]
    '7/12'
    >>> rb.rule("scrollhammer.morale.insane-heroism").title
    'Insane Heroism'

``rb.calc``, ``rb.rule``, ``rb.variant``, ``rb.widget``, ``rb.roster`` and ``rb.calculator_ids``; below them the
registry (:func:`rulesbook.registry.registry`) and the modules of each concept.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "ArmyList",
    "Rule",
    "__version__",
    "calc",
    "calculator_ids",
    "roster",
    "rule",
    "variant",
    "widget",
]

_FRONT_DOOR = frozenset(__all__) - {"__version__"}

if TYPE_CHECKING:
    from rulesbook.api import Answer, ArmyList, Rule, calc, calculator_ids, roster, rule, variant, widget

if "IPython" in sys.modules:  # a notebook kernel: tables and distributions display as HTML
    from rulesbook.present.jupyter import register as _register_display

    _register_display()


def __getattr__(name: str) -> Any:
    """The front door's names, imported on first use (PEP 562)."""
    if name in _FRONT_DOOR:
        from rulesbook import api

        return getattr(api, name)
    raise AttributeError(f"module 'rulesbook' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
