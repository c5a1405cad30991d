"""Where a served site is built, and how: ``mkdocs build --strict`` into a folder that may be emptied.

``rulesbook serve`` builds the *served* flavour of the site (directory URLs, calculator pages
that embed the live calculators) into a per-user cache folder unless told otherwise, never into
the working directory; a folder holding anything else is refused, since a build empties it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from rulesbook.errors import InputError, quote

__all__ = ["PROJECT", "SITE_MARK", "build_site", "default_site_dir", "prepare_site", "user_cache"]

PROJECT = Path(__file__).resolve().parents[2]
"""The project checkout (``mkdocs.yml`` and ``docs/`` are here)."""


SITE_MARK = ".rulesbook-site"
"""The file a build leaves in its site folder: a later build may empty that folder again."""


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
    """The folder to serve, built first when asked (or when it holds no site yet).

    ``None`` means :func:`default_site_dir`; a relative ``site_dir`` is taken from the working
    directory. A build empties the folder first (mkdocs), so it refuses a folder that is neither
    empty nor an earlier build (marked by :data:`SITE_MARK`, or holding ``index.html`` and
    ``404.html``): ``--site-dir .`` must never wipe the user's files.
    """
    site = default_site_dir() if site_dir is None else Path(site_dir).expanduser().absolute()
    if not build and (site / "index.html").is_file():
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
    build_site(site)
    (site / SITE_MARK).write_text(
        "built by rulesbook serve; the next build empties this folder\n", encoding="utf-8"
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
