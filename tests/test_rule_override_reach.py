"""Other code for a rule (a Python variant's override) reaches every calculator that names the rule.

For every rule whose code can be replaced (its function takes the choice set) and every
calculator naming that rule, the calculator runs its worked examples (and the probes of
``tests/variant_reach_probes.yaml``) under a variant whose override of the rule only counts its
calls and hands over to the published code: the override must be called — the calculator's
path to the rule goes through the choice set it is given — or the calculator declares why the
rule's code is not on its path (``insensitive={"rules.RULE-ID": "why"}``). The answers must
not change (the override hands over), which also checks that dispatch itself is exact.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulesbook.choices import RuleOverride
from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.variants import Variant, overridable_rules, run_with_variant
from tests.test_variant_reach import PROBES


def pairs() -> list[tuple[str, str]]:
    reg = registry()
    return [
        (rule_id, calc.id)
        for rule_id in sorted(overridable_rules())
        for calc in reg.calculators_for_rule(rule_id)
        if calc.choices is not None
    ]


@pytest.mark.parametrize(("rule_id", "calc_id"), pairs(), ids=lambda v: str(v))
def test_an_override_of_a_rule_reaches_every_calculator_naming_it(rule_id: str, calc_id: str) -> None:
    calc = registry().calculator(calc_id)
    calls: list[int] = []

    def counting(*args: Any, published: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return published(*args, **kwargs)

    variant = Variant.define("count", system=calc.system, title="counts calls").with_rules(
        (RuleOverride(rule_id, counting),)
    )
    for inputs in [*PROBES.get(calc_id, []), *calc.examples]:
        try:
            published = calc.run(**dict(inputs)).values
        except InputError:
            continue
        assert run_with_variant(calc, variant, **dict(inputs)).values == published
    why = dict(calc.insensitive).get(f"rules.{rule_id}")
    if why is not None:
        assert not calls, f"{calc_id} declares rule {rule_id}'s code is not on its path, yet it ran"
        return
    assert calls, (
        f"{calc_id} names rule {rule_id}, but other code for the rule never ran: call the rule's "
        "function with the choice set the calculator is given, or declare why it is not on its path"
    )


def test_some_rules_of_every_system_can_be_replaced() -> None:
    systems = {rule_id.split(".")[0] for rule_id in overridable_rules()}
    assert systems == set(registry().choices)
