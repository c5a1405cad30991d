"""Every change the server makes to Panel's, Bokeh's or Tornado's internals still fits them.

Each patch (:func:`widgets.server.patches.framework_patch`) names the framework release it was written
against and a fingerprint of the internals it replaces or relies on. When a framework is
upgraded, or its code at a target changes, these tests fail: read the patch's docstring (why it
exists), check it against the new code, then update its ``version`` and ``fingerprint``.
"""

from __future__ import annotations

from importlib.metadata import version

import pytest

from widgets.server import sessions
from widgets.server.patches import declared_patches, fingerprint, framework_patch, original, replace

PATCHES = declared_patches()


def test_the_server_declares_its_patches() -> None:
    assert {p.name for p in PATCHES} >= {
        "answer_without_waiting",
        "without_nagle",
        "build_sessions_off_the_loop",
        "page_resources_once",
        "reuse_page_sessions",
        "several_processes",
    }
    assert sessions.prepare_server is not None
    for patch in PATCHES:
        assert len(patch.why) > 80, f"{patch.name}: say why in its docstring"


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.name)
def test_the_framework_release_is_the_one_the_patch_was_written_for(patch) -> None:  # type: ignore[no-untyped-def]
    assert version(patch.framework) == patch.version, (
        f"{patch.name} was written for {patch.framework} {patch.version}; "
        f"{version(patch.framework)} is installed: check the patch, then update its version"
    )


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.name)
def test_the_patched_internals_are_unchanged(patch) -> None:  # type: ignore[no-untyped-def]
    assert fingerprint(patch.targets) == patch.fingerprint, (
        f"{patch.name}: the framework's code at {', '.join(patch.targets)} changed; "
        "check the patch against it, then update its fingerprint"
    )


def test_a_changed_target_changes_the_fingerprint(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The check can fail: a different function at the target gives a different fingerprint."""
    module = tmp_path / "fake_framework.py"
    module.write_text("class Thing:\n    def go(self):\n        return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = fingerprint(("fake_framework:Thing.go",))
    module.write_text("class Thing:\n    def go(self):\n        return 2\n")
    import importlib
    import sys

    sys.modules.pop("fake_framework", None)
    importlib.invalidate_caches()
    assert fingerprint(("fake_framework:Thing.go",)) != before


def test_a_patch_applies_once_and_keeps_the_original(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "fake_framework2.py").write_text("DELAY = 50\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    calls = []

    @framework_patch(framework="pytest", version="0", targets=("fake_framework2:DELAY",), fingerprint="")
    def no_delay() -> None:
        """Sets the delay to 0."""
        calls.append(1)
        replace("fake_framework2:DELAY", 0)

    no_delay()
    no_delay()
    import fake_framework2

    assert fake_framework2.DELAY == 0 and calls == [1]
    assert original("fake_framework2:DELAY") == 50
