"""Imported once by the compute pool's forkserver (:mod:`widgets.workers`) before it forks workers.

Importing this module loads the registry and the result renderers, so every worker process is
forked warm: a worker that replaces a killed one answers within milliseconds, and the loaded rules
are shared copy-on-write between the workers instead of loaded once per process.
"""

from __future__ import annotations

import widgets.compare  # noqa: F401  (the result renderers every job uses)
from rulesbook.registry import registry

registry()
