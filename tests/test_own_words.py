"""No sentence of a source document is copied into the project (runs of 9 words)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The seeds sit beside the checkout (../shared/seeds); a worktree deeper down finds them too.
SEEDS = next(
    (folder / "shared" / "seeds" for folder in ROOT.parents if (folder / "shared" / "seeds").is_dir()),
    ROOT.parent / "shared" / "seeds",
)
N = 9
WORD = re.compile(r"[a-z0-9']+")
GUIDE = "docs/adding-rules.md"  # shows its example source document (sources/nerve-rules.txt) whole


def shingles(text: str) -> set[str]:
    words = WORD.findall(text.lower())
    return {" ".join(words[i : i + N]) for i in range(len(words) - N + 1)}


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source documents are not beside this checkout")
def test_no_nine_word_run_from_a_source() -> None:
    """Against the shared seeds and the repository's own ``sources/`` documents (which are the
    sources, so not checked themselves; the developer guide shows its example document whole)."""
    ref: set[str] = set()
    for seed in SEEDS.glob("*.txt"):
        ref |= shingles(seed.read_text(errors="ignore"))
    own: set[str] = set()
    for document in (ROOT / "sources").glob("*.txt"):
        own |= shingles(document.read_text(errors="ignore"))
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    suffixes = {".md", ".py", ".yaml", ".yml", ".ipynb", ".txt", ".json", ".toml", ".html", ".csv"}
    hits = {}
    for name in files:
        path = ROOT / name
        if path.suffix in suffixes and path.is_file() and not name.startswith("sources/"):
            against = ref if name == GUIDE else ref | own
            common = shingles(path.read_text(errors="ignore")) & against
            if common:
                hits[name] = sorted(common)[:3]
    assert not hits, f"copied runs of {N} words: {hits}"
