"""``rulesbook serve`` builds its site into a per-user cache folder, never the working directory.

The build itself (mkdocs, a minute) is replaced by a stand-in that writes what a build writes;
the browser tests build a real site with ``--site-dir``. A build empties its folder (mkdocs
cleans it), so a folder holding anything but an earlier build is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulesbook import cli
from rulesbook.errors import InputError
from rulesbook.site import output


@pytest.fixture()
def fake_build(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    built: list[Path] = []

    def build(site: Path, project: Path = output.PROJECT) -> None:
        site.mkdir(parents=True, exist_ok=True)
        for name in ("index.html", "404.html"):
            (site / name).write_text("<p>site</p>", encoding="utf-8")
        built.append(site)

    monkeypatch.setattr(output, "build_site", build)
    return built


def test_the_default_is_a_per_user_cache_not_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_build: list[Path]
) -> None:
    cache, work = tmp_path / "cache", tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.chdir(work)
    site = output.prepare_site(None)
    assert fake_build == [site]
    assert site.is_relative_to(cache / "rulesbook") and (site / "index.html").is_file()
    assert list(work.iterdir()) == []  # nothing written where the user stands
    assert not site.is_relative_to(output.PROJECT)
    assert (site / output.SITE_MARK).is_file()
    # the next start with nothing changed reuses it; a change builds again into the same folder
    assert output.prepare_site(None) == site and len(fake_build) == 1
    monkeypatch.setattr(output, "build_inputs", lambda project=output.PROJECT: "0" * 64)
    assert output.prepare_site(None) == site and len(fake_build) == 2
    assert output.built_from(site) == "0" * 64
    # --no-build serves it as it is
    assert output.prepare_site(None, build=False) == site and len(fake_build) == 2


def test_the_fingerprint_follows_every_file_the_build_reads(tmp_path: Path) -> None:
    """Issue 37: a restart reuses the last build only when nothing the build reads changed."""
    (tmp_path / "docs" / "stylesheets").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    page = tmp_path / "docs" / "index.md"
    page.write_text("# x\n", encoding="utf-8")
    first = output.build_inputs(tmp_path)
    assert output.build_inputs(tmp_path) == first
    (tmp_path / "docs" / "__pycache__").mkdir()
    (tmp_path / "docs" / "__pycache__" / "x.pyc").write_bytes(b"byte code")
    assert output.build_inputs(tmp_path) == first  # byte code is not read by a build
    page.write_text("# y\n", encoding="utf-8")
    changed = output.build_inputs(tmp_path)
    assert changed != first
    (tmp_path / "docs" / "stylesheets" / "new.css").write_text("", encoding="utf-8")
    assert output.build_inputs(tmp_path) not in (first, changed)  # a new (even empty) file
    page.write_text("# x\n", encoding="utf-8")
    (tmp_path / "docs" / "stylesheets" / "new.css").unlink()
    assert output.build_inputs(tmp_path) == first  # the same content: the same fingerprint


def test_a_build_that_fails_leaves_nothing_to_reuse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"

    def broken(site: Path, project: Path = output.PROJECT) -> None:
        raise RuntimeError("mkdocs failed")

    site.mkdir()
    for name in ("index.html", "404.html"):
        (site / name).write_text("<p>old</p>", encoding="utf-8")
    (site / output.SITE_MARK).write_text("built by rulesbook serve\ninputs: old\n", encoding="utf-8")
    monkeypatch.setattr(output, "build_site", broken)
    with pytest.raises(RuntimeError):
        output.prepare_site(site)
    assert output.built_from(site) == ""  # the next start builds again


def test_the_default_folder_depends_on_the_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    first = output.default_site_dir()
    monkeypatch.setattr(output, "PROJECT", Path("/elsewhere/rulesbook"))
    assert output.default_site_dir() != first and output.default_site_dir().parent == first.parent


def test_an_explicit_folder_is_taken_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_build: list[Path]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert output.prepare_site("built") == tmp_path / "built"
    assert (tmp_path / "built" / "index.html").is_file()


def test_a_folder_with_other_files_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_build: list[Path]
) -> None:
    (tmp_path / "thesis.tex").write_text("precious", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as info:
        output.prepare_site(".")
    assert str(info.value).startswith("site-dir: ") and "delete" in str(info.value)
    assert fake_build == [] and (tmp_path / "thesis.tex").read_text(encoding="utf-8") == "precious"
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="is a file"):
        output.prepare_site(tmp_path / "file")


def test_the_command_line_passes_no_folder_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    import widgets.server.routes  # what the command line starts, through its entry point

    monkeypatch.setattr(widgets.server.routes, "serve", lambda **kwargs: calls.append(kwargs))
    assert CliRunner().invoke(cli.cli, ["serve"]).exit_code == 0
    assert calls[-1]["site_dir"] is None and calls[-1]["build"] is True
    assert CliRunner().invoke(cli.cli, ["serve", "--site-dir", "x", "--no-build"]).exit_code == 0
    assert calls[-1]["site_dir"] == "x" and calls[-1]["build"] is False


def test_a_refused_folder_is_one_line_and_exit_code_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fake_build: list[Path],
) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        cli.main(["serve", "--site-dir", str(tmp_path)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("rulesbook: error: site-dir: ") and err.count("\n") == 1
    assert (tmp_path / "notes.txt").is_file() and fake_build == []


def test_the_build_switches_off_the_generators_banners(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`rulesbook serve` from a plain shell printed Material's end-of-life banner (the test
    suite's own environment hid it): the build's environment must switch both banners off,
    whatever the caller's environment holds."""
    for name in ("NO_MKDOCS_2_WARNING", "DISABLE_MKDOCS_2_WARNING"):
        monkeypatch.delenv(name, raising=False)
    seen: list[dict[str, str]] = []

    def fake_run(args: list[str], **kwargs: Any) -> None:
        seen.append(kwargs["env"])

    monkeypatch.setattr(output.subprocess, "run", fake_run)
    output.build_site(tmp_path / "site")
    assert seen and seen[0]["NO_MKDOCS_2_WARNING"] == "1"
    assert seen[0]["DISABLE_MKDOCS_2_WARNING"] == "true"
    assert seen[0]["RULESBOOK_STATIC"] == "false"
