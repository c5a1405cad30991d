"""rulesbook: tabletop wargame rules as executable, exact, explained references.

Start from the registry::

    >>> from rulesbook.registry import registry
    >>> registry().calculator("scrollhammer.morale-check").run(ld=7)["p_pass_exact"]
    '7/12'
"""

__version__ = "0.1.0"
