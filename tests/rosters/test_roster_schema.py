"""The test rosters are built by the public schema: every ``.ros`` of ``tests/rosters/data``
validates against the BSData ``Catalogue.xsd`` in the roster namespace (``xmlschema``), and a
roster that breaks the schema is caught by the same check (so the check can fail)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import xmlschema

HERE = Path(__file__).parent
ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"


@cache
def roster_schema() -> xmlschema.XMLSchema:
    """The schema as its own comments say to use it for rosters: the catalogue namespace replaced."""
    text = (HERE / "schema" / "Catalogue.xsd").read_text(encoding="utf-8")
    return xmlschema.XMLSchema(text.replace("http://www.battlescribe.net/schema/catalogueSchema", ROSTER_NS))


ROSTERS = sorted((HERE / "data").glob("*.ros"))


def test_there_are_rosters_to_check() -> None:
    assert {p.stem for p in ROSTERS} >= {"rust-legion", "bog-horde", "steel-company", "ork-patrol"}


@pytest.mark.parametrize("path", ROSTERS, ids=lambda p: p.name)
def test_every_test_roster_is_valid_by_the_public_schema(path: Path) -> None:
    errors = [str(e).splitlines()[0] for e in roster_schema().iter_errors(str(path))]
    assert errors == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (('gameSystemId="sys-352e-adc2-7639-d6a9" ', ""), "gameSystemId"),
        (('type="unit"', 'type="squad"'), "squad"),
        (('number="1"', 'number="-1"'), "-1"),
    ],
)
def test_the_schema_check_catches_a_roster_that_breaks_it(change: tuple[str, str], expected: str) -> None:
    text = (HERE / "data" / "rust-legion.ros").read_text(encoding="utf-8").replace(*change, 1)
    errors = [str(e) for e in roster_schema().iter_errors(text)]
    assert errors and expected in errors[0]
