"""The Python front door: ``import rulesbook as rb``.

A handful of functions reach what a notebook or a script needs. Each answers as the command
line does — the same validation, the same one-line errors, the same numbers — and shows itself
where it is shown: in Jupyter as HTML (the headline values as percentages beside their exact
fractions, labelled tables, a small chart, the explanation), in a terminal as the command
line's text.

* :func:`calc` runs a calculator (``rulesbook calc``), optionally under a designer variant;
* :func:`rule` is everything about a rule ID (``rulesbook rule``);
* :func:`variant` is a shipped variant by name, or one from a YAML file;
* :func:`widget` is the interactive ipywidgets form (the front-end is imported only then);
* :func:`calculator_ids` lists the calculators (``rulesbook list``);
* :func:`roster` reads an army list (``rulesbook roster show``).

``import rulesbook`` loads none of this until a name is first used (the package's
``__getattr__``), so it costs what the command line's start-up costs.

Example:
    >>> import rulesbook as rb
    >>> answer = rb.calc("scrollhammer.morale-check", ld=7, modifier=-1)
    >>> answer["p_pass_exact"], round(answer["p_pass"], 4)
    ('5/12', 0.4167)
    >>> print(answer)  # doctest: +ELLIPSIS
    Morale check
      P(pass)                      0.4167  (5/12)
      P(fail)                      0.5833  (7/12)
    ...
    >>> rb.calc("scrollhammer.morale-check", ld=13)
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: ld: expected an integer from 0 to 12, got 13
    >>> rb.rule("scrollhammer.morale.insane-heroism").calculators[:2]
    ('scrollhammer.morale-check', 'scrollhammer.leadership-test')
    >>> rb.calc("scrollhammer.break-test", ld=8, lost_by=2, variant="break-2-ld-per-point")["p_pass_exact"]
    '1/6'
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rulesbook.api.objects import Answer, Rule, rule_view
from rulesbook.api.rosters import ArmyList, roster
from rulesbook.errors import InputError, RulesbookError
from rulesbook.index import rule_info
from rulesbook.registry import registry
from rulesbook.variants import (
    Variant,
    VariantLike,
    find_calculator,
    resolve_variant,
    validate_with,
    variant_calculator,
)

__all__ = [
    "FRONT_ENDS",
    "Answer",
    "ArmyList",
    "Rule",
    "calc",
    "calculator_ids",
    "front_end",
    "roster",
    "rule",
    "rule_view",
    "variant",
    "widget",
]


def calc(calc_id: str, /, *, variant: VariantLike | None = None, **inputs: Any) -> Answer:
    """Run calculator ``calc_id`` with keyword inputs, as ``rulesbook calc ID key=value ...`` does.

    A value may be given as Python (``ld=7``, ``hive_mind=True``, ``unit_lds=[7, 7, 6]``) or as
    the text the command line takes (``ld="7"``, ``unit_lds="7,7,6"``, ``attacks="D6+3"``); both
    are checked by the calculator's declared inputs, and anything wrong raises
    :class:`~rulesbook.errors.InputError` with the command line's one-line message. ``variant``
    is a shipped variant's name, the path of a YAML file, a :class:`~rulesbook.variants.Variant`
    or a list of them (composed), as ``variant=`` on the command line.

    >>> calc("wh40k.battle-shock", leadership="7").to_json() == calc("wh40k.battle-shock", leadership=7).to_json()
    True
    >>> calc("scrollhammer.morale-check", ldd=7)
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: ldd: unknown input for scrollhammer.morale-check; allowed: ld, modifier, ...
    """
    if not isinstance(calc_id, str):
        raise InputError(
            "calculator", f"expected a calculator ID such as scrollhammer.morale-check, got {calc_id!r}"
        )
    resolved = None if variant is None else resolve_variant(variant)
    calculator = find_calculator(calc_id, resolved)  # (its own system loaded first, as the CLI does)
    checked, choices = validate_with(calculator, resolved, inputs)
    runner = calculator if resolved is None else variant_calculator(calculator, resolved)
    return Answer(runner, checked, runner.run_validated(checked, choices=choices), resolved)


def rule(rule_id: str) -> Rule:
    """Everything about rule ``rule_id``: text in our words, citations, the code that executes it,
    its calculators, interpretations, tests and page (:class:`~rulesbook.errors.InputError` with a
    "did you mean" for an unknown ID)."""
    info = rule_info(rule_id)
    return Rule(**{f.name: getattr(info, f.name) for f in dataclasses.fields(info)})


def variant(spec: VariantLike) -> Variant:
    """A designer variant: a shipped one by name (``rulesbook variants`` lists them), one from a
    YAML file by its path, or several composed (a list).

    >>> v = variant("break-2-ld-per-point")
    >>> v.system, v.summary()[0]
    ('scrollhammer', 'Ld lost per point of defeat (break_ld_per_point): 1 → 2')
    """
    return resolve_variant(spec)


FRONT_ENDS = "rulesbook.front_ends"
"""The entry-point group naming the front-ends (``pyproject.toml``): rulesbook never imports
them, so neither ``import rulesbook`` nor ``rulesbook calc`` loads a widget or web framework."""


def front_end(name: str) -> Any:
    """The front-end function registered as ``name`` in :data:`FRONT_ENDS`, loaded only now
    (``serve``: the server; ``widget``: the ipywidgets form).

    >>> front_end("nope")
    Traceback (most recent call last):
    ...
    rulesbook.errors.RulesbookError: nope: no front-end is installed for it; run scripts/setup (or pip install -e '.[app]')
    """
    from importlib.metadata import entry_points

    found = entry_points(group=FRONT_ENDS, name=name)
    if not found:
        raise RulesbookError(
            f"{name}: no front-end is installed for it; run scripts/setup (or pip install -e '.[app]')"
        )
    try:
        return next(iter(found)).load()
    except ImportError as exc:  # pragma: no cover - only without the app extra
        raise RulesbookError(
            f"{name}: the app extra is not installed ({exc.name}); run scripts/setup app"
        ) from exc


def widget(calc_id: str, /, *, compare_with: str | None = None, **initial: Any) -> Any:
    """The calculator's interactive form (ipywidgets), starting from the defaults with
    ``initial`` values over them (as :func:`calc` answers for them; an input with no default
    left out starts at the first worked example's value, and the form says so); a list may be
    given as its text (``weapons="rotwind"``). ``compare_with`` names a shipped variant to show
    beside the published rules.

    The form comes from the ``widget`` front-end (:func:`front_end`), loaded when first asked
    for, never by ``import rulesbook``; it displays itself in Jupyter.
    """
    registry().calculator(calc_id)  # an unknown ID: the one-line error, before any widget is built
    make = front_end("widget")
    return make(calc_id, compare_with, **initial) if compare_with else make(calc_id, **initial)


def calculator_ids(system: str | None = None) -> tuple[str, ...]:
    """The calculator IDs, of one system or of all (``rulesbook list``).

    >>> calculator_ids("warstrike")
    ('warstrike.strike-force-morale', 'warstrike.starting-phase')
    """
    reg = registry()
    if system is None:
        return tuple(reg.calculators)
    reg.system(system)  # an unknown system: the one-line error
    return tuple(c.id for c in reg.calculators_for_system(system))
