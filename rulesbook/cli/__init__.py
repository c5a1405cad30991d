"""The ``rulesbook`` command line: :mod:`rulesbook.cli.commands` (list, rule, calc, interpretations,
serve) and :mod:`rulesbook.cli.whatif` (variants, compare, sweep), with the shared output helpers
of :mod:`rulesbook.cli.output`. ``python -m rulesbook.cli`` runs it too.
"""

from rulesbook.cli.commands import cli, main

__all__ = ["cli", "main"]
