"""mkdocs-gen-files script: write every generated page of the rulebook site.

All rule, calculator, system, register, source and glossary pages, the CLI reference and the
navigation come from :func:`rulesbook.site.build`; notebooks in ``notebooks/`` are rendered by
mkdocs-jupyter through the ``docs/notebooks`` link.
"""

from pathlib import Path

import mkdocs_gen_files

from rulesbook.site import build

build(
    mkdocs_gen_files.open, notebooks=sorted(f"notebooks/{p.name}" for p in Path("notebooks").glob("*.ipynb"))
)
