"""The published site's browser runtime, built without a browser: pins, the data snapshot, the
wheels we write, the live form and the build's behaviour without the registries
(:mod:`rulesbook.site.runtime`, :mod:`rulesbook.site.live_form`, :mod:`widgets.forms.browser`)."""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesbook import data as data_module
from rulesbook.data import load_data_file, use_snapshot
from rulesbook.registry import registry
from rulesbook.site import runtime as rt
from rulesbook.site.live_form import NO_VARIANT, live_form_html
from rulesbook.site.memory import sparse
from rulesbook.variants import variants_for_system

ROOT = Path(__file__).resolve().parents[1]


def _typed(value: Any) -> Any:
    """``value`` with every scalar's type beside it, so ``1``, ``1.0`` and ``True`` differ."""
    if isinstance(value, dict):
        return {"dict": [(k, _typed(v)) for k, v in value.items()]}
    if isinstance(value, list):
        return {"list": [_typed(v) for v in value]}
    return (type(value).__name__, value)


@pytest.fixture(autouse=True)
def _no_snapshot_left() -> Any:
    yield
    use_snapshot(None)


# -- the data snapshot -------------------------------------------------------------------------------


def test_snapshot_holds_every_shipped_data_file_exactly_as_the_yaml_loader_reads_it() -> None:
    files = rt.data_files()
    assert {p.name for p in files} >= {"rules.yaml", "death-guard.yaml", "versions.yaml", "example-game.yaml"}
    snapshot = rt.data_snapshot(files)
    for path in files:
        digest = hashlib.sha256(path.read_text(encoding="utf-8").encode()).hexdigest()
        assert digest in snapshot, f"{path} is not in the snapshot (JSON cannot carry its data exactly)"
        assert _typed(json.loads(snapshot[digest])) == _typed(load_data_file(path)), path


def test_the_app_wheel_carries_that_snapshot() -> None:
    files = dict(rt.app_files())
    carried = json.loads(files["rulesbook/data-snapshot.json"])
    assert carried == {"format": 1, "files": rt.data_snapshot(rt.data_files())}


def test_a_snapshot_answers_with_fresh_copies_and_only_for_the_same_text(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("turns: 6\nunits: [a, b]\n", encoding="utf-8")
    use_snapshot({k: '{"turns": 7, "units": ["x"]}' for k in rt.data_snapshot([path])})  # a doctored entry
    first = load_data_file(path)
    assert first == {"turns": 7, "units": ["x"]}  # the snapshot answered, not the parser
    first["units"].append("changed")
    assert load_data_file(path) == {"turns": 7, "units": ["x"]}  # a fresh copy every time
    other = data_module.Limits(max_nodes=1000)  # a reader with its own limits: always parsed
    assert load_data_file(path, limits=other) == {"turns": 6, "units": ["a", "b"]}
    path.write_text("turns: 5\n", encoding="utf-8")  # another text: parsed, whatever is stored
    assert load_data_file(path) == {"turns": 5}


def test_the_registry_loaded_from_the_snapshot_equals_the_one_parsed_from_yaml() -> None:
    parsed = registry()
    use_snapshot(rt.data_snapshot(rt.data_files()))
    for path in rt.data_files():
        assert _typed(load_data_file(path)) == _typed(
            data_module.load_data_text(path.read_text(encoding="utf-8"), path.name)
        )
    assert list(parsed.calculators) == list(registry().calculators)


# -- pins and wheels ---------------------------------------------------------------------------------


def _constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        name, sep, version = line.partition("==")
        if sep:
            pins[re.sub(r"[-_.]+", "-", name.strip().lower())] = version.strip()
    return pins


def test_browser_wheels_are_the_versions_the_project_pins() -> None:
    pins = _constraints()
    for pin in (*rt.WHEELS, rt.PYYAML):
        assert pins[re.sub(r"[-_.]+", "-", pin.project.lower())] == pin.version, pin
        assert pin.version in pin.file and re.fullmatch(r"[0-9a-f]{64}", pin.sha256)
    assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", rt.PYODIDE.integrity)


def _sdist(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def test_pure_yaml_wheel_takes_only_the_pure_python_package() -> None:
    sdist = _sdist(
        {
            "pyyaml-6.0.4/lib/yaml/__init__.py": b"from .loader import *\n",
            "pyyaml-6.0.4/lib/yaml/loader.py": b"X = 1\n",
            "pyyaml-6.0.4/lib/_yaml/__init__.py": b"import _yaml\n",  # the C part: left out
            "pyyaml-6.0.4/yaml/_yaml.pyx": b"cdef x\n",
            "pyyaml-6.0.4/setup.py": b"",
        }
    )
    wheel = rt.pure_yaml_wheel(sdist)
    names = zipfile.ZipFile(io.BytesIO(wheel)).namelist()
    assert [n for n in names if not n.startswith("PyYAML-")] == ["yaml/__init__.py", "yaml/loader.py"]
    assert "PyYAML-6.0.4.dist-info/RECORD" in names
    assert rt.pure_yaml_wheel(sdist) == wheel  # the same bytes every time
    with pytest.raises(rt.RuntimeUnavailable, match="no lib/yaml"):
        rt.pure_yaml_wheel(_sdist({"pyyaml-6.0.4/setup.py": b""}))


def test_app_wheel_is_reproducible_and_carries_what_the_browser_imports() -> None:
    files = dict(rt.app_files())
    assert {"widgets/forms/browser.py", "widgets/forms/compare.py", "widgets/forms/uploads.py"} <= set(files)
    assert not {"widgets/forms/panel_app.py", "widgets/server/routes.py", "widgets/forms/ipy.py"} & set(
        files
    )  # never imported there
    assert "rulesbook/systems/wh40k/death-guard.yaml" in files
    assert not any("__pycache__" in name for name in files)
    first = rt._wheel("rulesbook", "0.1.0", rt.app_files())
    assert rt._wheel("rulesbook", "0.1.0", rt.app_files()) == first
    record = zipfile.ZipFile(io.BytesIO(first)).read("rulesbook-0.1.0.dist-info/RECORD").decode()
    assert "widgets/forms/browser.py,sha256=" in record


# -- downloads and the build without the registries --------------------------------------------------


def test_a_cached_download_that_does_not_match_its_pin_is_fetched_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin = rt.Pin("demo", "1.0", "demo-1.0-py3-none-any.whl", hashlib.sha256(b"good").hexdigest())
    (tmp_path / "pypi").mkdir()
    (tmp_path / "pypi" / pin.file).write_bytes(b"tampered")
    calls: list[list[str]] = []

    def fake_pip(command: list[str], what: str, cwd: Path | None = None) -> None:
        calls.append(command)
        out = Path(command[command.index("-d") + 1])
        out.mkdir(parents=True)
        (out / pin.file).write_bytes(b"good")

    monkeypatch.setattr(rt, "_run", fake_pip)
    assert rt.pypi_file(pin, tmp_path) == b"good"
    assert "--require-hashes" in calls[0] and "--only-binary" in calls[0]
    assert rt.pypi_file(pin, tmp_path) == b"good" and len(calls) == 1  # now from the cache


def test_a_download_that_does_not_match_its_pin_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fake_npm(command: list[str], what: str, cwd: Path | None = None) -> None:
        dest = Path(command[command.index("--pack-destination") + 1])
        (dest / rt.PYODIDE.archive).write_bytes(b"not the package")

    monkeypatch.setattr(rt, "_run", fake_npm)
    monkeypatch.setattr(rt.shutil, "which", lambda name: "/usr/bin/npm")
    with pytest.raises(rt.RuntimeUnavailable, match="does not match its pinned integrity"):
        rt.pyodide_archive(tmp_path)
    assert not (tmp_path / rt.PYODIDE.archive).exists()


def test_without_the_registries_the_build_keeps_its_precomputed_calculators(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def unreachable(cache: Path) -> bytes:
        raise rt.RuntimeUnavailable(
            "npm pack pyodide@314.0.8 failed: getaddrinfo ENOTFOUND registry.npmjs.org"
        )

    monkeypatch.setattr(rt, "pyodide_archive", unreachable)
    (tmp_path / "index.html").write_text("<p>site</p>", encoding="utf-8")
    assert rt.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "live calculators left out" in out and "ENOTFOUND" in out
    assert not (tmp_path / rt.RUNTIME_DIR).exists()
    assert rt.main([]) == 2


def _unsparse(packed: bytes) -> bytes:
    """The memory of a sparse snapshot, read as its docstring says (an oracle for rulesbook.site.memory.sparse)."""
    assert packed[:8] == b"RBSNAP1\0"
    size, page, pages = (int.from_bytes(packed[at : at + 4], "little") for at in (8, 12, 16))
    bitmap, body = packed[20 : 20 + -(-pages // 8)], packed[20 + -(-pages // 8) :]
    out, taken = bytearray(size), 0
    for i in range(pages):
        if bitmap[i // 8] >> (i % 8) & 1:
            chunk = body[taken * page : (taken + 1) * page][: size - i * page]
            out[i * page : i * page + len(chunk)] = chunk
            taken += 1
    assert len(body) == taken * page
    return bytes(out)


@given(
    st.lists(st.sampled_from([b"", b"\0" * 4096, b"x" * 4096, b"\0" * 4095 + b"y", b"z" * 100]), max_size=8)
)
@settings(max_examples=40, deadline=None)
def test_a_sparse_snapshot_keeps_every_byte(parts: list[bytes]) -> None:
    memory = b"".join(parts)
    packed = sparse(memory)
    assert _unsparse(packed) == memory
    pages = [memory[i : i + 4096] for i in range(0, len(memory), 4096)]
    kept = sum(page.strip(b"\0") != b"" for page in pages)
    assert len(packed) == 20 + -(-len(pages) // 8) + kept * 4096  # no page of zeros is stored


def test_without_node_the_build_takes_no_start_up_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(rt.shutil, "which", lambda name: None)
    assert rt.start_snapshot(tmp_path, {"runtime": [], "wheels": []}, tmp_path) is None
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "no start-up snapshot (Node.js not found)" in out
    assert list(tmp_path.iterdir()) == []


def test_a_start_up_snapshot_is_taken_once_for_the_same_runtime_and_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The snapshot is kept under a key of everything it depends on: a rebuild takes none."""
    import gzip
    import subprocess

    taken: list[list[str]] = []

    def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        if command[1:2] == ["--version"]:
            return subprocess.CompletedProcess(command, 0, "v20.0.0\n", "")
        taken.append(command)
        Path(command[-1]).write_bytes(b"python memory" * 1000)
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(rt.shutil, "which", lambda name: "/usr/bin/node")
    monkeypatch.setattr(rt.subprocess, "run", run)
    manifest: dict[str, Any] = {"runtime": [{"path": "p", "integrity": "sha256-a"}], "wheels": []}
    cache, first, second = tmp_path / "cache", tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    entry = rt.start_snapshot(first, manifest, cache)
    assert entry is not None and len(taken) == 1
    data = (first / entry["path"]).read_bytes()
    assert _unsparse(gzip.decompress(data)) == b"python memory" * 1000 and entry["raw_bytes"] == 13_000
    assert entry["integrity"].startswith("sha256-") and entry["bytes"] == len(data)
    assert rt.start_snapshot(second, manifest, cache) == entry and len(taken) == 1  # from the cache
    changed = {**manifest, "wheels": [{"path": "w", "integrity": "sha256-b"}]}
    assert rt.start_snapshot(second, changed, cache) != entry and len(taken) == 2  # a new wheel: taken again


def test_npm_missing_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rt.shutil, "which", lambda name: None)
    with pytest.raises(rt.RuntimeUnavailable, match="npm is not installed"):
        rt.pyodide_archive(tmp_path)


def test_cache_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if rt.sys.platform not in ("win32", "darwin"):
        assert rt.cache_dir() == tmp_path / "rulesbook" / "browser-runtime"


# -- the live form -----------------------------------------------------------------------------------


@pytest.mark.parametrize("calc_id", sorted(registry().calculators))
def test_live_form_has_one_control_per_input_with_the_served_label(calc_id: str) -> None:
    from rulesbook.site.static import static_calculator_html

    calc = registry().calculator(calc_id)
    form = live_form_html(calc)
    assert form in static_calculator_html(calc)  # every calculator page carries it
    assert form.startswith('<template class="rb-live-template">') and "\n\n" not in form
    for inp in calc.inputs:
        assert form.count(f'data-key="{inp.key}"') == 1, inp.key
        shown = html.escape(inp.title)
        assert f">{shown}</label>" in form or f"> {shown}</label>" in form, inp.key
    choices = [i for i in calc.inputs if i.kind == "interpretation"]
    if choices:
        section = form[form.index('<details class="rb-choices">') :]
        assert f"Rule choices ({len(choices)})" in section
        assert all(f'data-key="{i.key}"' in section for i in choices)
    shipped = [v.name for v in variants_for_system(calc.system)] if calc.choices is not None else []
    if shipped:
        compare = form[form.index('data-key="variant"') :]
        assert re.findall(r'<option value="([^"]+)"', compare) == [NO_VARIANT, *shipped]
    else:
        assert 'data-key="variant"' not in form


# -- what stays on a server --------------------------------------------------------------------------


def test_server_only_tools_say_so_and_link_rulesbook_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulesbook.site.live import live_index_page
    from rulesbook.site.static import live_note

    monkeypatch.setenv("RULESBOOK_STATIC", "true")
    page = live_index_page()
    tracker = next(
        line for line in page.splitlines() if "Army Morale tracker" in line and line.startswith("*")
    )
    assert "needs [`rulesbook serve`](cli.md#rulesbook-serve)" in tracker
    assert "[sweeps](sweeps.md)" in page and "Dask" in page
    assert "[`rulesbook serve`](cli.md#rulesbook-serve)" in (ROOT / "docs" / "sweeps.md").read_text(
        encoding="utf-8"
    )
    assert "python3 -m http.server -d site" in live_note("scrollhammer.morale-check")
