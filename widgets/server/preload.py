"""Imported once by the compute pool's forkserver (:mod:`widgets.server.workers`) before it forks workers.

Importing this module loads the registry and the result renderers and answers every calculator's
starting form once, so every worker process is forked warm: the first answer of a calculator is
as quick as the next ones (no imports, no cold caches), a worker that replaces a killed one
answers within milliseconds, and the loaded rules are shared copy-on-write between the workers.
"""

from __future__ import annotations

import contextlib

from rulesbook.registry import registry
from widgets.forms.compare import answer, answer_html

for _calc in registry().calculators.values():
    with contextlib.suppress(Exception):  # a start value the server chose (a file) may be missing
        answer_html(answer(_calc.id, _calc.initial_values()))
