"""A page's address never makes the server import a file (issue 33, part 1), in Chromium.

Each address names a Python variant that writes a marker file when imported — by its absolute
path, as ``~/…``, through a static page's ``#live?variant=…``, and from a hidden frame on another
website. The page answers the one-line refusal (no server path in it) and the marker never
appears. ``tests/test_request_trust.py`` checks the same refusal without a browser.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.browser.conftest import until
from tests.test_request_trust import marker_variant

CALC = "/calc/scrollhammer.break-test"
RULE_PAGE = "/site/scrollhammer/rules/scrollhammer.morale.break-test/"


def _refused(frame: Any) -> str:
    """The refusal line a page shows for the variant its address named."""
    error = frame.locator('[data-key="error"]', has_text="unknown variant").first
    error.wait_for()
    return str(error.inner_text())


def _home_spelling(file: Path) -> str:
    return "~/" + os.path.relpath(file, Path.home())


@pytest.mark.covers("scrollhammer.morale.break-test")
def test_an_address_naming_a_python_file_runs_nothing(served: str, page: Any, tmp_path: Path) -> None:
    file, marker = marker_variant(tmp_path)
    for spelling in (str(file), _home_spelling(file)):
        page.goto(f"{served}{CALC}?ld=8&lost_by=2&variant={quote(spelling)}")
        line = _refused(page)
        assert line.startswith("variant: unknown variant ") and "never a file" in line
        assert page.locator('[data-key="p_pass_exact"]', has_text="5/12").first.is_visible()  # the baseline
        # picking a listed variant clears the refusal and compares
        page.locator(".rb-input-variant select").first.select_option("break-2-ld-per-point")
        page.locator(
            '[data-variant="break-2-ld-per-point"] [data-key="p_pass_exact"]', has_text="1/6"
        ).first.wait_for()
        assert page.locator('[data-key="error"]', has_text="unknown variant").count() == 0
    assert not marker.exists()


def test_a_static_page_s_live_address_runs_nothing(served: str, page: Any, tmp_path: Path) -> None:
    file, marker = marker_variant(tmp_path)
    page.goto(f"{served}{RULE_PAGE}#live?ld=8&variant={quote(str(file))}")
    frame = page.frame_locator("iframe.rb-live")
    assert "never a file" in _refused(frame)
    assert not marker.exists()


def test_a_hidden_frame_on_another_site_runs_nothing(served: str, page: Any, tmp_path: Path) -> None:
    file, marker = marker_variant(tmp_path)
    target = f"{served}{CALC}?ld=8&variant={quote(str(file))}"
    page.route(
        "http://attacker.test/**",
        lambda route: route.fulfill(
            content_type="text/html",
            body=f'<!doctype html><p>cute cats</p><iframe width="1" height="1" src="{target}"></iframe>',
        ),
    )
    page.goto("http://attacker.test/")
    # the server has built the frame's session once a later page of the same address answers
    # (sessions are built one at a time, in the order they are asked for)
    second = page.context.new_page()
    second.goto(target)
    _refused(second)
    second.close()
    assert not marker.exists()
    # and the browser shows nothing of it: only this server's own pages may frame its pages
    # (Content-Security-Policy frame-ancestors 'self'; Chromium puts its error page in the frame)
    frame = next(f for f in page.frames if f is not page.main_frame)
    until(page, lambda: frame.url.startswith("chrome-error:"))
    assert frame.url.startswith("chrome-error:") and frame.locator(".rb-input-ld").count() == 0, frame.url


def test_a_variant_file_the_player_uploads_is_read_as_data(served: str, page: Any, tmp_path: Path) -> None:
    """A page takes a variant as the text of a file the player sends (read by the safe loader,
    never run): compared at once, kept out of the address; Python in it is text, refused."""
    file, marker = marker_variant(tmp_path)
    harsh = tmp_path / "Harsh Breaks.yaml"
    harsh.write_text(
        "system: scrollhammer\ntitle: Harsh\nparameters:\n  break_ld_per_point: 2\n", encoding="utf-8"
    )
    other = tmp_path / "bleak.yaml"
    other.write_text("system: wh40k\ntitle: Bleak\nparameters:\n  battle_shock_dice: 3D6\n", encoding="utf-8")
    disguised = tmp_path / "disguised.yaml"
    disguised.write_text(file.read_text(encoding="utf-8"), encoding="utf-8")
    page.goto(f"{served}{CALC}?ld=8&lost_by=2")
    page.locator('[data-key="p_pass_exact"]', has_text="5/12").first.wait_for()
    upload = page.locator(".rb-variant-file input[type=file]").first
    upload.set_input_files(str(harsh))
    page.locator('[data-variant="harsh-breaks"] [data-key="p_pass_exact"]', has_text="1/6").first.wait_for()
    assert page.locator(".rb-input-variant select").first.input_value() == "harsh-breaks (your file)"
    page.wait_for_function("location.search.includes('variant=none')")  # not in the address
    for sent, line in [
        (other, "bleak changes wh40k rules"),
        (disguised, "disguised.yaml"),
        (file, "evil.yaml"),
    ]:
        upload.set_input_files(str(sent))
        page.locator('[data-key="error"]', has_text=line).first.wait_for()
    assert not marker.exists()
