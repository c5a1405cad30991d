"""What a request may name: a variant the server was started with, by its name — never a file.

The served calculator pages compute their answers through :func:`widgets.compare.answer` (in a
worker process or on the event loop), whatever sets the compared variant: the page's address
(``?variant=``), a static page's ``#live?variant=``, a websocket message setting the drop-down's
value, the JSON API's ``variant``. Each hostile value here is a file that would write a marker if
the server imported it; the marker must never appear, and the refusal is one line naming no path
of the server's. The browser half (real pages, a cross-site frame) is
``tests/browser/test_request_trust.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulesbook.errors import InputError
from rulesbook.registry import registry
from rulesbook.variants import named_variant, resolve_variant
from widgets.compare import answer, compared, offered_names


def marker_variant(folder: Path, name: str = "evil") -> tuple[Path, Path]:
    """A Python variant file that writes ``MARKER`` beside it when imported, and that marker."""
    marker = folder / f"{name}-MARKER"
    file = folder / f"{name}.py"
    file.write_text(
        "from pathlib import Path\n"
        f"Path({str(marker)!r}).write_text('imported')\n"
        "SYSTEM = 'scrollhammer'\nTITLE = 'evil'\nPARAMETERS = {'break_ld_per_point': 2}\n",
        encoding="utf-8",
    )
    yaml = folder / f"{name}.yaml"
    yaml.write_text(
        "system: scrollhammer\ntitle: a secret\nparameters:\n  break_ld_per_point: 2\n", encoding="utf-8"
    )
    return file, marker


def hostile_names(file: Path) -> list[str]:
    """Ways a request could spell the file (absolute, ``~/``, relative, composed, its YAML twin)."""
    home = os.path.relpath(file, Path.home())
    here = os.path.relpath(file, Path.cwd())
    return [
        str(file),
        f"~/{home}",
        here,
        f"break-2-ld-per-point+{file}",
        str(file.with_suffix(".yaml")),
        f"file://{file}",
        f" {file} ",
    ]


def test_a_form_s_answer_takes_a_name_never_a_file(tmp_path: Path) -> None:
    file, marker = marker_variant(tmp_path)
    calc = registry().calculator("scrollhammer.break-test")
    for name in hostile_names(file):
        found = answer(calc.id, {"ld": 8, "lost_by": 1}, name)
        assert found.error.startswith("variant: unknown variant "), (name, found.error)
        assert "\n" not in found.error and found.error_key == "variant"
        assert str(tmp_path) not in found.error.partition(";")[2], found.error  # only the name it was given
        assert offered_names(calc, calc.input("ld"), name) == ()  # the pick lists too
        with pytest.raises(InputError, match="never a file"):
            compared(name)
    assert not marker.exists()
    # the same names are what the operator's own tools take: the CLI and the Python API
    assert resolve_variant(str(file)).name == "evil" and marker.exists()


def test_a_listed_name_still_compares() -> None:
    found = answer("scrollhammer.break-test", {"ld": 8, "lost_by": 2}, "break-2-ld-per-point")
    assert [(n, r["p_pass_exact"]) for n, r in found.results] == [  # 2D6 ≤ 6 and 2D6 ≤ 4
        ("baseline", "5/12"),
        ("break-2-ld-per-point", "1/6"),
    ]
    assert (
        named_variant("break-2-ld-per-point+no-insane-heroism").name
        == "break-2-ld-per-point+no-insane-heroism"
    )


def test_the_python_front_door_keeps_files(tmp_path: Path) -> None:
    """``rb.calc(variant="file.py")`` and ``rulesbook calc ... variant=file.py`` are the operator's."""
    import rulesbook as rb

    file, marker = marker_variant(tmp_path, "mine")
    assert rb.calc("scrollhammer.break-test", variant=str(file), ld=8, lost_by=2)["p_pass_exact"] == "1/6"
    assert marker.exists()
