"""User text (names from logs and forms) never renders as markup, nor reaches a terminal raw."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulesbook.present import md_inline, plain, result_html, result_text, table_html
from rulesbook.results import CalcResult, Table

HOSTILE = (
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    '"><svg onload=alert(1)>',
    "[x](javascript:alert(1))",
)


def test_explanation_lines_escape_raw_html() -> None:
    for name in HOSTILE:
        html = result_html((), CalcResult({}, explanation=(f"**{name}** lost 3 models.",)))
        assert "<img" not in html and "<script" not in html and "<svg" not in html
        assert 'href="javascript:' not in html


def test_table_cells_escape_raw_html() -> None:
    table = Table("t", "T", ("army",), tuple((name,) for name in HOSTILE))
    html = table_html(table)
    assert "<img" not in html and "<script" not in html and "<svg" not in html


def test_text_output_drops_terminal_control_sequences() -> None:
    text = result_text((), CalcResult({}, explanation=("Boyz\x1b]0;owned\x07 mob\x9b31m",)))
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    assert "Boyz" in text and "mob" in text


@given(st.text())
def test_md_inline_never_emits_a_tag_from_user_angle_brackets(text: str) -> None:
    rendered = md_inline(text.replace("`", ""))
    # every '<' in the output opens one of the tags Markdown itself makes
    for piece in rendered.split("<")[1:]:
        assert piece.startswith(("strong>", "/strong>", "em>", "/em>", "code>", "/code>", "br", "a href")), (
            piece
        )


@given(st.text())
def test_plain_keeps_printable_text(text: str) -> None:
    out = plain(text)
    assert all(ch in text for ch in out)
    assert not any(0 <= ord(ch) < 32 and ch not in "\t\n" for ch in out)


def test_markdown_images_are_not_rendered() -> None:
    assert "<img" not in md_inline("![x](http://example.invalid/a.png)")
