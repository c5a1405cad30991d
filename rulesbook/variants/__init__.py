"""Designer variants: named, validated changes of a rule system's parameters and readings.

:mod:`rulesbook.variants.model` defines a :class:`Variant` (from YAML or Python), loads the shipped
ones (and the user's, from ``$RULESBOOK_VARIANTS_DIR``) and runs calculators under them;
a :class:`Variant` writes itself back as the file that loads to it (``to_yaml``);
:mod:`rulesbook.variants.comparison` answers a calculator under the baseline and variants side by
side; :mod:`rulesbook.variants.sensitivity` moves every parameter and reading one step and sorts
them by the change; :mod:`rulesbook.variants.parameters` lists what a variant can change (in a
rule: ``rulesbook rule ID``; in a system: ``rulesbook parameters``);
:mod:`rulesbook.variants.labels` names keys, outputs and variants for tables and plots. The
site's variants page is :mod:`rulesbook.site.variants_page`.
"""

from rulesbook.variants.comparison import Comparison, added_entries, compare, offerable_inputs
from rulesbook.variants.model import (
    adding_variant,
    choice_keys,
    failed_variant,
    find_calculator,
    given_inputs,
    load_variant,
    load_variant_text,
    named_variant,
    resolve_variant,
    run_assignments,
    run_inputs,
    run_with_variant,
    shipped_variants,
    user_variant_problems,
    user_variants,
    validate_with,
    variant_calculator,
    variant_calculators,
    variants_for_system,
)
from rulesbook.variants.parameters import parameter_catalogue, parameter_lines, rule_parameters
from rulesbook.variants.python import (
    load_python_variant,
    overridable_rules,
    rule,
    signature_text,
    variant_from_provenance,
)
from rulesbook.variants.sensitivity import Sensitivity, sensitivity
from rulesbook.variants.variant import BASELINE, VARIANT_KEYS, Variant, VariantLike, compose

__all__ = [
    "BASELINE",
    "VARIANT_KEYS",
    "Comparison",
    "Sensitivity",
    "Variant",
    "VariantLike",
    "added_entries",
    "adding_variant",
    "choice_keys",
    "compare",
    "compose",
    "failed_variant",
    "find_calculator",
    "given_inputs",
    "load_python_variant",
    "load_variant",
    "load_variant_text",
    "named_variant",
    "offerable_inputs",
    "overridable_rules",
    "parameter_catalogue",
    "parameter_lines",
    "resolve_variant",
    "rule",
    "rule_parameters",
    "run_assignments",
    "run_inputs",
    "run_with_variant",
    "sensitivity",
    "shipped_variants",
    "signature_text",
    "user_variant_problems",
    "user_variants",
    "validate_with",
    "variant_calculator",
    "variant_calculators",
    "variant_from_provenance",
    "variants_for_system",
]
