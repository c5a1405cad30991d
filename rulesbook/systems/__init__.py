"""Rule systems. Each subpackage registers its rules, interpretations and calculators on import.

A system package has the same shape: ``rules.yaml`` (system record, rule texts in our own words
with citations, interpretations register), ``rules.py`` (typed code marked with
:func:`rulesbook.registry.implements`) and ``calculators.py`` (declared calculators). Adding a
folder here is all it takes for the CLI, the widgets and the site to pick a system up.
"""
