"""mkdocs-gen-files script: write every generated page of the rulebook site.

All rule, calculator, system, register, source and glossary pages, the CLI reference and the
navigation come from :mod:`rulesbook.site_publish` / :mod:`rulesbook.site`; notebooks in
``notebooks/`` are rendered by mkdocs-jupyter through the ``docs/notebooks`` link.
"""

from pathlib import Path

import mkdocs_gen_files

from rulesbook.site import summary_nav, systems_table
from rulesbook.site_live import LIVE_INDEX_PAGE, live_index_page
from rulesbook.site_publish import published_pages, search_hits_script, summary_extra
from rulesbook.site_static import static_build
from rulesbook.variants import variants_markdown

for path, text in published_pages().items():
    with mkdocs_gen_files.open(path, "w") as f:
        f.write(text)

with mkdocs_gen_files.open("index.md", "a") as f:  # the hand-written home page, plus the systems
    f.write(systems_table())

notebooks = sorted(f"notebooks/{p.name}" for p in Path("notebooks").glob("*.ipynb"))
with mkdocs_gen_files.open("variants.md", "w") as f:  # from the variant files and the choices
    f.write(variants_markdown())

with mkdocs_gen_files.open("SUMMARY.md", "w") as f:
    f.write(summary_extra(summary_nav(notebooks)))
    f.write("* [Designer what-ifs: variants](variants.md)\n* [Sweeps](sweeps.md)\n")

with mkdocs_gen_files.open("javascripts/search-hits-data.js", "w") as f:  # IDs and terms -> pages
    f.write(search_hits_script(static_build()))


with mkdocs_gen_files.open(LIVE_INDEX_PAGE, "w") as f:  # every live calculator and app
    f.write(live_index_page())
