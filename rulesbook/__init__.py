"""rulesbook: tabletop wargame rules as executable, exact, explained references.

Start from the registry::

    >>> from rulesbook.registry import registry
    >>> registry().calculator("scrollhammer.morale-check").run(ld=7)["p_pass_exact"]
    '7/12'
"""

import sys

__version__ = "0.1.0"

if "IPython" in sys.modules:  # a notebook kernel: tables and distributions display as HTML
    from rulesbook.present.jupyter import register as _register_display

    _register_display()
