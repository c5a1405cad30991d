"""The browser runtime of the published site: Python (Pyodide) and rulesbook, vendored at build time.

``scripts/build-site DIR`` builds the pages with mkdocs, then calls :func:`vendor` (``python -m
rulesbook.site.runtime DIR``), which writes everything a calculator page needs to compute in the
reader's browser into ``DIR/live-runtime/``, one set of files (and URLs) for the whole site:

* ``pyodide-<version>/`` — the Pyodide runtime (CPython compiled to WebAssembly) from the npm
  registry's ``pyodide`` package, pinned to :data:`PYODIDE` and checked against the registry's
  ``sha512`` integrity before anything is unpacked; only the five files that start it
  (no console pages, no source maps, no type declarations);
* ``wheels/`` — the pure-Python wheels rulesbook needs, pinned in :data:`WHEELS` (the versions of
  ``constraints.txt``, each file's SHA-256 checked): defusedxml (army rosters), icepool, lark
  (it parses the rules language's expressions), markdown-it-py and mdurl as published on PyPI,
  and PyYAML's pure-Python part repackaged from its pinned source archive (Pyodide's npm package
  has no PyYAML, and its C part cannot run there);
* ``app-<hash>/rulesbook-<version>-py3-none-any.whl`` — this checkout's ``rulesbook`` package,
  the ``widgets`` modules the browser front-end imports (:mod:`widgets.forms.browser` and what it
  imports), and ``rulesbook/data-snapshot.json``: every shipped data file loaded once by the
  YAML loader and stored as JSON (:func:`data_snapshot`), because the
  pure-Python YAML parser needs about 3 s there and JSON 8 ms;
* ``snapshot-<hash>.bin.gz`` — the start-up snapshot: Python's memory after starting from these
  files and loading every system, taken under Node.js with the page worker's own start-up
  (:func:`start_snapshot`, ``rulesbook/site/snapshot.mjs``), so a page starts Python in a second
  or two, the first visit too, instead of ten or more; left out (pages then start Python afresh)
  when Node.js is missing or the snapshot cannot be taken;
* ``manifest.json`` — which of those files to load, with their sizes and integrity hashes.

Nothing is fetched from another host when a page runs: ``loadPackage`` and micropip are never
called (Pyodide would look on its CDN for a package it lacks); the page's worker unpacks the
wheels itself. Downloads are kept in a per-user cache (:func:`cache_dir`), verified at every use,
so a rebuild downloads nothing. When the registries cannot be reached (and nothing is cached) the
build still succeeds: :func:`vendor` returns ``None`` after one line saying so, and every page keeps
its precomputed calculator.

Example:
    >>> PYODIDE.version.split(".")[0] >= "314"
    True
    >>> sorted(w.project for w in WHEELS)
    ['defusedxml', 'icepool', 'lark', 'markdown-it-py', 'mdurl']
"""

from __future__ import annotations

import ast
import base64
import gzip
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesbook.site.memory import sparse
from rulesbook.site.output import user_cache

__all__ = [
    "APP_MODULE",
    "PYODIDE",
    "PYODIDE_FILES",
    "PYODIDE_LOCK",
    "PYYAML",
    "RUNTIME_DIR",
    "WHEELS",
    "NpmPin",
    "Pin",
    "RuntimeUnavailable",
    "app_files",
    "app_wheel",
    "build_id",
    "cache_dir",
    "data_files",
    "data_snapshot",
    "main",
    "pure_yaml_wheel",
    "pyodide_archive",
    "pypi_file",
    "start_snapshot",
    "vendor",
]

ROOT = Path(__file__).resolve().parents[2]
"""The checkout (or installed tree) holding the ``rulesbook`` and ``widgets`` packages."""

RUNTIME_DIR = "live-runtime"
"""The folder of the built site holding the runtime (one set of URLs for every page)."""

APP_MODULE = "widgets.forms.browser"
"""The module the browser's worker imports: it answers a page's inputs (see its docstring)."""


@dataclass(frozen=True, slots=True)
class NpmPin:
    """A package of the npm registry, pinned by version and the registry's ``sha512`` integrity."""

    name: str
    version: str
    integrity: str

    @property
    def archive(self) -> str:
        """The file name ``npm pack`` gives the package."""
        return f"{self.name}-{self.version}.tgz"


@dataclass(frozen=True, slots=True)
class Pin:
    """A file of PyPI, pinned by project, version, file name and SHA-256."""

    project: str
    version: str
    file: str
    sha256: str


PYODIDE = NpmPin(
    "pyodide",
    "314.0.8",
    "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ==",
)
"""The Pyodide release (Python 3.14) the site ships; its npm package is 13.9 MB unpacked."""

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
"""The files of the npm package a page loads. Its package index (``pyodide-lock.json``, 119 kB) is
not shipped: the worker gives the loader an empty one with the same ``info``, so no package can
ever be looked up (:data:`PYODIDE_LOCK`)."""

PYODIDE_LOCK = "pyodide-lock.json"
"""The npm package's package index, read at build time for its ``info`` (Python version, ABI)."""

WHEELS = (
    Pin(
        "defusedxml",
        "0.7.1",
        "defusedxml-0.7.1-py2.py3-none-any.whl",
        "a352e7e428770286cc899e2542b6cdaedb2b4953ff269a210103ec58f6198a61",
    ),
    Pin(
        "icepool",
        "2.2.2",
        "icepool-2.2.2-py3-none-any.whl",
        "0b6e789b6c16b24ad6ea8c9c124c6a5e077b2a5420e61958041def02cb076304",
    ),
    Pin(
        "lark",
        "1.3.1",
        "lark-1.3.1-py3-none-any.whl",
        "c629b661023a014c37da873b4ff58a817398d12635d3bbb2c5a03be7fe5d1e12",
    ),
    Pin(
        "markdown-it-py",
        "4.3.0",
        "markdown_it_py-4.3.0-py3-none-any.whl",
        "7aa1511a46c39138de78d9eba92ce47e63124d8003fc98b3a351909e04239efa",
    ),
    Pin(
        "mdurl",
        "0.1.2",
        "mdurl-0.1.2-py3-none-any.whl",
        "84008a41e51615a49fc9966191ff91509e3c40b939176e643fd50a5c2196b8f8",
    ),
)
"""Pure-Python wheels from PyPI (the versions ``constraints.txt`` pins; a test keeps them equal)."""

PYYAML = Pin(
    "PyYAML",
    "6.0.4",
    "pyyaml-6.0.4.tar.gz",
    "e24bf71af8a432d7808fabff134d38dfe16d3cbb41f2873bb4b1e42422de0a1a",
)
"""PyYAML's source archive: its pure-Python part becomes a wheel (:func:`pure_yaml_wheel`)."""

_EPOCH = (1980, 1, 1, 0, 0, 0)
"""Every file in a wheel we write gets this date, so the same sources give the same bytes."""


class RuntimeUnavailable(Exception):
    """A download failed or did not match its pin (the message is one line)."""


def cache_dir() -> Path:
    """Where downloads are kept between builds: ``browser-runtime`` in the per-user cache
    (:func:`rulesbook.site.output.user_cache`).

    >>> cache_dir().parts[-2:]
    ('rulesbook', 'browser-runtime')
    """
    return user_cache("browser-runtime")


# -- downloads -------------------------------------------------------------------------------------


def _sri(data: bytes, algorithm: str) -> str:
    """A Subresource Integrity string (``sha512-<base64>``), as npm and browsers write them."""
    digest = hashlib.new(algorithm, data).digest()
    return f"{algorithm}-{base64.b64encode(digest).decode('ascii')}"


def _cached(path: Path, check: Any) -> bytes | None:
    """The bytes of ``path`` if it is there and passes ``check`` (a stale or broken file is removed)."""
    if not path.is_file():
        return None
    data = path.read_bytes()
    if check(data):
        return data
    path.unlink()
    return None


def _store(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(data)
    tmp.replace(path)


def _run(command: list[str], what: str, cwd: Path | None = None) -> None:
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=cwd)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RuntimeUnavailable(f"{what}: {exc}") from None
    if proc.returncode != 0:
        raise RuntimeUnavailable(f"{what} failed: {_reason(proc.stderr or proc.stdout, proc.returncode)}")


def _reason(output: str, code: int) -> str:
    """The line of a failed npm or pip run that says why (their errors run to many lines).

    >>> _reason("npm error code ECONNREFUSED\\nnpm error FetchError: request to http://x failed\\n", 1)
    'FetchError: request to http://x failed'
    >>> _reason("WARNING: slow\\nERROR: No matching distribution found for icepool==2.2.2\\n", 1)
    'ERROR: No matching distribution found for icepool==2.2.2'
    """
    lines = [line.removeprefix("npm error").strip() for line in output.splitlines() if line.strip()]
    for marker in ("Error:", "ERROR:", "error", "code"):
        found = [line for line in lines if marker in line and "complete log" not in line]
        if found:
            return found[0] if marker != "ERROR:" else found[-1]
    return lines[-1] if lines else f"exit code {code}"


def pyodide_archive(cache: Path) -> bytes:
    """The npm package of :data:`PYODIDE` (``npm pack``), its integrity checked; from the cache
    when it is there."""
    pin = PYODIDE
    path = cache / pin.archive
    data = _cached(path, lambda b: _sri(b, "sha512") == pin.integrity)
    if data is not None:
        return data
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeUnavailable("npm is not installed (it fetches Pyodide from the npm registry)")
    with tempfile.TemporaryDirectory() as tmp:
        _run(
            [
                npm,
                "pack",
                f"{pin.name}@{pin.version}",
                "--pack-destination",
                tmp,
                "--loglevel=error",
                "--fetch-retries=1",  # an unreachable registry fails in seconds, not minutes
                "--fetch-retry-mintimeout=2000",
                "--fetch-retry-maxtimeout=5000",
            ],
            f"npm pack {pin.name}@{pin.version}",
        )
        data = (Path(tmp) / pin.archive).read_bytes()
    if _sri(data, "sha512") != pin.integrity:
        raise RuntimeUnavailable(f"{pin.archive} does not match its pinned integrity")
    _store(path, data)
    return data


def pypi_file(pin: Pin, cache: Path) -> bytes:
    """One pinned file of PyPI (``pip download`` with its hash required); from the cache when there."""
    path = cache / "pypi" / pin.file
    data = _cached(path, lambda b: hashlib.sha256(b).hexdigest() == pin.sha256)
    if data is not None:
        return data
    with tempfile.TemporaryDirectory() as tmp:
        requirement = Path(tmp) / "requirements.txt"
        requirement.write_text(f"{pin.project}=={pin.version} --hash=sha256:{pin.sha256}\n", encoding="utf-8")
        sdist = pin.file.endswith(".tar.gz")
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--disable-pip-version-check",
                "--quiet",
                "--no-deps",
                "--retries=1",
                "--timeout=20",
                # (``--no-binary`` for this project only: with ``:all:`` pip would also build the
                # source archive's build requirements from source — Cython, minutes of compiling)
                *(["--no-binary", pin.project] if sdist else ["--only-binary", ":all:"]),
                "--require-hashes",
                "-r",
                str(requirement),
                "-d",
                str(Path(tmp) / "out"),
            ],
            f"pip download {pin.project}=={pin.version}",
        )
        found = Path(tmp) / "out" / pin.file
        if not found.is_file():
            raise RuntimeUnavailable(f"pip download {pin.project}=={pin.version} gave no {pin.file}")
        data = found.read_bytes()
    if hashlib.sha256(data).hexdigest() != pin.sha256:  # pip checked it too
        raise RuntimeUnavailable(f"{pin.file} does not match its pinned SHA-256")
    _store(path, data)
    return data


# -- wheels we write ---------------------------------------------------------------------------------


def _wheel(name: str, version: str, files: Iterable[tuple[str, bytes]]) -> bytes:
    """A pure-Python wheel holding ``files`` (path in site-packages, bytes), byte for byte the
    same for the same files (sorted, fixed dates, RECORD with each file's hash)."""
    dist = f"{name.replace('-', '_')}-{version}.dist-info"
    entries = dict(sorted(files))
    entries[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    entries[f"{dist}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: rulesbook.site.runtime\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = [
        f"{path},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}"
        for path, data in entries.items()
    ]
    entries[f"{dist}/RECORD"] = ("\n".join([*record, f"{dist}/RECORD,,"]) + "\n").encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path, data in entries.items():
            info = zipfile.ZipInfo(path, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return out.getvalue()


def pure_yaml_wheel(sdist: bytes) -> bytes:
    """PyYAML's pure-Python package (``lib/yaml/*.py`` of its source archive) as a wheel.

    Without its C extension PyYAML falls back to its pure-Python parser, which is all the
    browser needs (rulesbook's data comes as a JSON snapshot; a reader's uploaded game log is
    still parsed as YAML).
    """
    files = []
    with tarfile.open(fileobj=io.BytesIO(sdist), mode="r:gz") as archive:
        for member in archive.getmembers():
            parts = member.name.split("/")
            if (
                member.isfile()
                and parts[1:3] == ["lib", "yaml"]
                and len(parts) == 4
                and parts[3].endswith(".py")
            ):
                extracted = archive.extractfile(member)
                assert extracted is not None
                files.append((f"yaml/{parts[3]}", extracted.read()))
    if not any(path == "yaml/__init__.py" for path, _ in files):
        raise RuntimeUnavailable(f"{PYYAML.file} holds no lib/yaml package")
    return _wheel(PYYAML.project, PYYAML.version, files)


def _imports(module: str) -> set[str]:
    """The ``widgets.*`` modules ``module`` imports (anywhere in it), from its source."""
    path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        found |= {
            n
            for n in names
            if n.startswith("widgets.") and ROOT.joinpath(*n.split(".")).with_suffix(".py").is_file()
        }
    return found


def _widgets_modules() -> list[str]:
    """:data:`APP_MODULE` and every ``widgets`` module it imports, directly or not."""
    seen: set[str] = set()
    todo = [APP_MODULE]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo += sorted(_imports(module) - seen)
    return sorted(seen)


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (``1 == True == 1.0`` does not count)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def data_snapshot(paths: Iterable[Path]) -> dict[str, str]:
    """The data of ``paths`` as :func:`rulesbook.data.load_data_file` gives it, for
    :func:`rulesbook.data.use_snapshot`: each file's text digest -> its data as JSON text.

    A file whose data JSON cannot carry exactly (a key that is not text, say) is left out, so it
    is parsed as usual; a file the loader refuses raises its :class:`~rulesbook.data.DataFileError`.

    Example:
        >>> folder = Path(tempfile.mkdtemp())
        >>> _ = (folder / "a.yaml").write_text("lost: 3\\nflag: yes\\n", encoding="utf-8")
        >>> _ = (folder / "b.yaml").write_text("1: one\\n", encoding="utf-8")  # an integer key
        >>> list(data_snapshot(sorted(folder.glob("*.yaml"))).values())
        ['{"lost":3,"flag":"yes"}']
    """
    from rulesbook.data import load_data_text, read_text, text_digest

    out: dict[str, str] = {}
    for path in paths:
        text = read_text(path)
        data = load_data_text(text, Path(path).name, is_json=Path(path).suffix.lower() == ".json")
        encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        if _same(json.loads(encoded), data):
            out[text_digest(text)] = encoded
    return out


def data_files() -> list[Path]:
    """Every data file shipped in the ``rulesbook`` package, and those of the systems written in
    data that ``$RULESBOOK_SYSTEMS_DIR`` names (what the snapshot holds)."""
    package = ROOT / "rulesbook"
    found = [p for p in package.rglob("*") if p.suffix in (".yaml", ".yml", ".json") and p.is_file()]
    found += [p for _, p in _external_system_files() if p.suffix in (".yaml", ".yml", ".json")]
    return sorted(found)


def _external_system_files() -> list[tuple[str, Path]]:
    """(path in the app wheel, file) of every file of the systems written in data outside the
    package (``$RULESBOOK_SYSTEMS_DIR``): the wheel carries them under ``rulesbook/data-systems/``,
    where the registry finds them in the browser."""
    from rulesbook.language.systems import data_system_folders

    out = []
    for folder in data_system_folders():
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in (".yaml", ".yml", ".json", ".md", ".txt"):
                out.append(
                    (f"rulesbook/data-systems/{folder.name}/{path.relative_to(folder).as_posix()}", path)
                )
    return out


def app_wheel() -> bytes:
    """The browser's app wheel (:func:`app_files`), byte for byte the same for the same files."""
    from rulesbook import __version__

    return _wheel("rulesbook", __version__, app_files())


def build_id() -> str:
    """What the site's Python in the browser is made of, in a few characters: the Pyodide pin
    and the app wheel's hash. A page names its shared worker with it, so a page of a rebuilt
    site never talks to a Python a page of the build before started (a shared worker outlives
    its pages), while every page of one build shares one.

    >>> len(build_id().split("-")[-1])
    12
    """
    return f"{PYODIDE.version}-{hashlib.sha256(app_wheel()).hexdigest()[:12]}"


def app_files() -> Iterator[tuple[str, bytes]]:
    """The files of the browser's app wheel: the ``rulesbook`` package (modules and data files),
    the ``widgets`` modules the browser imports, and the data snapshot."""
    package = ROOT / "rulesbook"
    for path in sorted(package.rglob("*")):
        if (
            path.is_file()
            and "__pycache__" not in path.parts
            and path.suffix in (".py", ".yaml", ".yml", ".json")
        ):
            yield path.relative_to(ROOT).as_posix(), path.read_bytes()
    for name, path in _external_system_files():
        yield name, path.read_bytes()
    modules = _widgets_modules()
    packages = sorted({".".join(m.split(".")[:i]) for m in modules for i in range(1, m.count(".") + 1)})
    for package_name in packages:
        path = ROOT.joinpath(*package_name.split("."), "__init__.py")
        yield path.relative_to(ROOT).as_posix(), path.read_bytes()
    for module in modules:
        path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
        yield path.relative_to(ROOT).as_posix(), path.read_bytes()
    snapshot = {"format": 1, "files": data_snapshot(data_files())}
    yield "rulesbook/data-snapshot.json", json.dumps(snapshot, ensure_ascii=False, sort_keys=True).encode()


# -- the site's runtime folder -----------------------------------------------------------------------


def _pyodide_files(archive: bytes) -> dict[str, bytes]:
    out = {}
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        for name in (*PYODIDE_FILES, PYODIDE_LOCK):
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise RuntimeUnavailable(f"{PYODIDE.archive} has no {name}")
            out[name] = member.read()
    return out


def _entry(path: str, data: bytes) -> dict[str, Any]:
    return {"path": path, "bytes": len(data), "integrity": _sri(data, "sha256")}


def vendor(site: Path, cache: Path | None = None) -> dict[str, Any]:
    """Write ``site/live-runtime/`` (see the module's docstring) and return its manifest.

    Raises :class:`RuntimeUnavailable` (one line) when a download fails or does not match its
    pin; nothing is written then.
    """
    from rulesbook import __version__

    cache = cache or cache_dir()
    runtime = _pyodide_files(pyodide_archive(cache))
    lock = json.loads(runtime.pop(PYODIDE_LOCK))
    wheels = {pin.file: pypi_file(pin, cache) for pin in WHEELS}
    wheels[f"PyYAML-{PYYAML.version}-py3-none-any.whl"] = pure_yaml_wheel(pypi_file(PYYAML, cache))
    app = app_wheel()
    app_dir = f"app-{hashlib.sha256(app).hexdigest()[:12]}"
    files: dict[str, bytes] = {f"pyodide-{PYODIDE.version}/{name}": data for name, data in runtime.items()}
    files |= {f"wheels/{name}": data for name, data in sorted(wheels.items())}
    files[f"{app_dir}/rulesbook-{__version__}-py3-none-any.whl"] = app
    manifest = {
        "format": 1,
        "pyodide": {
            "version": PYODIDE.version,
            "python": lock["info"]["python"],
            "path": f"pyodide-{PYODIDE.version}/",
            "lock_info": lock["info"],
        },
        "runtime": [_entry(path, data) for path, data in files.items() if path.startswith("pyodide-")],
        "wheels": [_entry(path, data) for path, data in files.items() if path.endswith(".whl")],
        "module": APP_MODULE,
    }
    out = site / RUNTIME_DIR
    if out.exists():
        shutil.rmtree(out)
    for path, data in files.items():
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    snapshot = start_snapshot(out, manifest, cache)  # (taken from the folder as written so far)
    if snapshot is not None:
        manifest["snapshot"] = snapshot
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


SNAPSHOT_SCRIPT = Path(__file__).with_name("snapshot.mjs")
"""The Node.js script that takes the start-up snapshot (:func:`start_snapshot`)."""

CORE_SCRIPT = ROOT / "docs" / "javascripts" / "rulesbook-live-core.mjs"
"""The start-up a page's worker runs; the snapshot is taken by the same code."""


def start_snapshot(out: Path, manifest: dict[str, Any], cache: Path | None = None) -> dict[str, Any] | None:
    """Take the start-up snapshot of the runtime folder ``out`` (written, with its ``manifest``)
    and write it there gzip-compressed; its manifest entry (``raw_bytes``: its size unpacked), or
    ``None`` after one line saying why when it cannot be taken (no Node.js, a failed start).

    The snapshot depends on nothing but the runtime's and wheels' files, the start-up code and
    the Node.js version, so it is kept in the download cache under a key of all of them: a
    rebuild with nothing changed takes none.
    """
    node = shutil.which("node")
    if node is None or not CORE_SCRIPT.is_file():
        print("build-site: no start-up snapshot (Node.js not found): pages start Python afresh")
        return None
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=False).stdout.strip()
    key = hashlib.sha256(
        json.dumps([manifest["runtime"], manifest["wheels"], version], sort_keys=True).encode()
        + CORE_SCRIPT.read_bytes()
        + SNAPSHOT_SCRIPT.read_bytes()
    ).hexdigest()
    kept = (cache or cache_dir()) / "snapshots" / f"{key}.bin.gz"
    data = _cached(kept, lambda b: b[:2] == b"\x1f\x8b")
    if data is None:
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "snapshot.bin"
            done = subprocess.run(
                [node, str(SNAPSHOT_SCRIPT), str(CORE_SCRIPT), str(out), str(raw)],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0 or not raw.is_file():
                why = (done.stderr.strip().splitlines() or ["no output"])[-1][:200]
                print(f"build-site: no start-up snapshot ({why}): pages start Python afresh")
                return None
            data = gzip.compress(sparse(raw.read_bytes()), compresslevel=6, mtime=0)
        _store(kept, data)
    name = f"snapshot-{key[:12]}.bin.gz"
    (out / name).write_bytes(data)
    with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
        raw_bytes = int.from_bytes(unpacked.read(12)[8:12], "little")
    return {**_entry(name, data), "raw_bytes": raw_bytes}


def main(argv: list[str] | None = None) -> int:
    """``python -m rulesbook.site.runtime SITE_DIR``: vendor the runtime, print one line; exit 0
    even when the registries cannot be reached (the site then keeps its precomputed calculators)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m rulesbook.site.runtime SITE_DIR", file=sys.stderr)
        return 2
    site = Path(args[0])
    try:
        manifest = vendor(site)
    except RuntimeUnavailable as exc:
        print(
            f"build-site: live calculators left out ({exc}); every page keeps its precomputed "
            "calculator — rebuild with access to the npm registry and PyPI to add them"
        )
        return 0
    size = sum(e["bytes"] for e in manifest["runtime"] + manifest["wheels"])
    print(
        f"build-site: live calculators added (Pyodide {manifest['pyodide']['version']}, Python "
        f"{manifest['pyodide']['python']}, {size / 1e6:.1f} MB in {site / RUNTIME_DIR}/)"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
