"""Where a served site is built, and how: ``mkdocs build --strict`` into a folder that may be emptied.

``rulesbook serve`` builds the *served* flavour of the site (directory URLs, calculator pages
that embed the live calculators) into a per-user cache folder unless told otherwise, never into
the working directory; a folder holding anything else is refused, since a build empties it.

A build takes from half a minute to over a minute; a restart with nothing changed reuses the
last one. Each build records a fingerprint of everything it reads (:func:`build_inputs`: the
content of ``mkdocs.yml``, ``docs/``, ``rulesbook/``, ``widgets/``, ``notebooks/``, the project
files, the source documents, the user's variants folder, the Python and every installed
package's version); the next start builds again only when the fingerprint differs, so a change
anywhere the build looks is never served stale.
"""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

from rulesbook.errors import InputError, quote

__all__ = [
    "PROJECT",
    "SITE_MARK",
    "build_inputs",
    "build_site",
    "default_site_dir",
    "prepare_site",
    "user_cache",
]

PROJECT = Path(__file__).resolve().parents[2]
"""The project checkout (``mkdocs.yml`` and ``docs/`` are here)."""


SITE_MARK = ".rulesbook-site"
"""The file a build leaves in its site folder: a later build may empty that folder again; it
holds the fingerprint of what the build read (:func:`build_inputs`)."""

BUILD_READS = (
    "mkdocs.yml",
    "pyproject.toml",
    "constraints.txt",
    "README.md",
    "docs",
    "rulesbook",
    "widgets",
    "notebooks",
    "tests",
)
"""What a build reads in the project (files and folders, every file in them; the tests, because
a rule page lists the tests that cover it)."""

_SKIPPED = {"__pycache__", ".ipynb_checkpoints", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis"}


def _files(root: Path) -> Iterator[Path]:
    """Every file under ``root`` (or ``root`` itself), byte code and tool caches left out; a folder
    that is a link (``docs/notebooks``) is followed once as the folder it names."""
    if root.is_file():
        yield root
        return
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED and not (Path(folder) / d).is_symlink())
        for name in sorted(names):
            if not name.endswith((".pyc", ".pyo")):
                yield Path(folder) / name


def build_inputs(project: Path = PROJECT) -> str:
    """A fingerprint (SHA-256, hex) of everything a build of the site reads: the content and path
    of every file of :data:`BUILD_READS`, of the source documents
    (:data:`rulesbook.site.sources.SOURCE_FOLDERS`) and of the folders of
    ``$RULESBOOK_VARIANTS_DIR``, the Python version and the name and version of every installed
    package (mkdocs, its theme and plugins, icepool…). About 0.1 s.

    >>> len(build_inputs()) == 64 and build_inputs() == build_inputs()
    True
    """
    from rulesbook.site.sources import SOURCE_FOLDERS
    from rulesbook.variants.model import VARIANTS_DIR_ENV

    digest = hashlib.sha256()
    roots = [project / name for name in BUILD_READS]
    roots += [
        *SOURCE_FOLDERS,
        *(Path(f) for f in os.environ.get(VARIANTS_DIR_ENV, "").split(os.pathsep) if f.strip()),
    ]
    for root in roots:
        digest.update(f"\0root {root}\0".encode())
        if not root.exists():
            continue
        for path in _files(root):
            digest.update(f"{path.relative_to(root)}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    digest.update(f"python {platform.python_version()} {sys.executable}\0".encode())
    packages = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    digest.update("\n".join(packages).encode())
    return digest.hexdigest()


def built_from(site: Path) -> str:
    """The fingerprint recorded by the build in ``site`` ("" if none: an older or failed build)."""
    try:
        lines = (site / SITE_MARK).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ""
    return next((line.removeprefix("inputs: ") for line in lines if line.startswith("inputs: ")), "")


def user_cache(name: str) -> Path:
    """The folder ``name`` in rulesbook's per-user cache: ``$XDG_CACHE_HOME`` (else ``~/.cache``;
    ``%LOCALAPPDATA%`` on Windows, ``~/Library/Caches`` on macOS) ``/rulesbook/<name>``. Built
    sites and the browser runtime's downloads are kept there, never in the project.

    >>> user_cache("browser-runtime").parts[-2:]
    ('rulesbook', 'browser-runtime')
    """
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "rulesbook" / name


def default_site_dir() -> Path:
    """Where ``rulesbook serve`` builds the site unless told: ``site-<checkout>`` in the per-user
    cache (:func:`user_cache`), one folder per project checkout (a short hash of its path), so
    serving never writes into the working directory nor into the project.

    >>> default_site_dir().parent.name, default_site_dir().name.startswith("site-")
    ('rulesbook', True)
    """
    checkout = hashlib.sha256(str(PROJECT).encode()).hexdigest()[:10]
    return user_cache(f"site-{checkout}")


def prepare_site(site_dir: str | Path | None, build: bool = True) -> Path:
    """The folder to serve, built first when asked (or when it holds no site yet) — unless it holds
    a build of exactly what the project holds now (:func:`build_inputs`), which is reused.

    ``None`` means :func:`default_site_dir`; a relative ``site_dir`` is taken from the working
    directory. A build empties the folder first (mkdocs), so it refuses a folder that is neither
    empty nor an earlier build (marked by :data:`SITE_MARK`, or holding ``index.html`` and
    ``404.html``): ``--site-dir .`` must never wipe the user's files.
    """
    site = default_site_dir() if site_dir is None else Path(site_dir).expanduser().absolute()
    if not build and (site / "index.html").is_file():
        return site
    inputs = build_inputs()
    if (site / "index.html").is_file() and built_from(site) == inputs:
        print(
            f"rulesbook: serving the site built earlier in {site} (nothing it is built from changed)",
            flush=True,
        )
        return site
    if site.exists() and not site.is_dir():
        raise InputError("site-dir", f"{quote(str(site))} is a file, not a folder")
    earlier = (site / SITE_MARK).is_file() or all((site / n).is_file() for n in ("index.html", "404.html"))
    if site.is_dir() and not earlier and any(site.iterdir()):
        raise InputError(
            "site-dir",
            f"{quote(str(site))} holds other files and a build would delete them; "
            "name an empty or new folder (or leave --site-dir out: a per-user cache folder)",
        )
    print(f"rulesbook: building the site into {site} ...", flush=True)
    if (site / SITE_MARK).is_file():  # (a build that fails leaves no fingerprint to reuse)
        (site / SITE_MARK).write_text(
            "built by rulesbook serve; the next build empties this folder\n", encoding="utf-8"
        )
    build_site(site)
    (site / SITE_MARK).write_text(  # what the build read as it started: a later edit builds again
        f"built by rulesbook serve; the next build empties this folder\ninputs: {inputs}\n", encoding="utf-8"
    )
    return site


def build_site(site_dir: Path, project: Path = PROJECT) -> None:
    """Run ``mkdocs build --strict`` into ``site_dir`` (raises on failure).

    This is the *served* flavour of the site (``RULESBOOK_STATIC=false``): directory URLs, and
    calculator pages that link and embed the live calculators this server provides. The
    theme's and mkdocs' end-of-life banners are switched off: a player starting the server
    should see where it serves, not a notice about the site generator's future.
    """
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "DISABLE_MKDOCS_2_WARNING": "true",
        "RULESBOOK_STATIC": "false",
    }
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "-f",
            str(project / "mkdocs.yml"),
            "-d",
            str(site_dir),
        ],
        cwd=project,
        check=True,
        env=env,
    )
