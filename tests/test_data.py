"""The one data loader (rulesbook.data): safe YAML, JSON, one-line errors naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import rulesbook.registry
from rulesbook.data import DataFileError, load_data_file, need, yaml_loader
from rulesbook.errors import RulesbookError


def test_yaml_and_json_read_to_the_same_data(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("unit: {name: Mortarion, wounds: 16}\n", encoding="utf-8")
    (tmp_path / "a.json").write_text('{"unit": {"name": "Mortarion", "wounds": 16}}', encoding="utf-8")
    assert load_data_file(tmp_path / "a.yaml") == load_data_file(tmp_path / "a.json")
    (tmp_path / "empty.yaml").write_text("", encoding="utf-8")
    assert load_data_file(tmp_path / "empty.yaml") is None


def test_the_c_safe_loader_is_used_when_built() -> None:
    assert yaml_loader() is getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.yaml", "a: [1, 2\nb: 3\n", r"^bad.yaml: not valid YAML \(line \d+: .+\)$"),
        ("tab.yaml", "a:\n\tb: 1\n", r"^tab.yaml: not valid YAML \(line 2: .+\)$"),
        ("ctl.yaml", "a: b\x07\n", r"^ctl.yaml: not valid YAML \(line 1: .+\)$"),
        (
            "obj.yaml",
            "!!python/object/apply:os.system ['true']\n",
            r"^obj.yaml: not valid YAML \(line 1: tags \(!!python/object/apply:os.sys",
        ),
        ("bad.json", '{"a": 1,\n "b": }', r"^bad.json: not valid JSON \(line 2: Expecting value\)$"),
    ],
)
def test_malformed_files_give_one_line_naming_file_and_line(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match=message) as info:
        load_data_file(path)
    assert "\n" not in str(info.value)


def test_unreadable_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match=r"^missing.yaml: cannot be read \(No such file or directory\)$"):
        load_data_file(tmp_path / "missing.yaml")
    (tmp_path / "latin.yaml").write_bytes(b"name: \xe9\n")
    with pytest.raises(DataFileError, match=r"^shown-name: cannot be read"):
        load_data_file(tmp_path / "latin.yaml", name="shown-name")


def test_need_checks_presence_and_type() -> None:
    assert need({"a": 1}, "a", "f.yaml", int) == 1
    assert need({"a": [1]}, "a", "f.yaml", object) == [1]
    with pytest.raises(DataFileError, match=r"^f.yaml.x: expected int or float, got str$"):
        need({"x": "1"}, "x", "f.yaml", (int, float))
    with pytest.raises(DataFileError, match=r"^f.yaml: missing field 'b'$"):
        need({"a": 1}, "b", "f.yaml")


def test_one_error_type_importable_from_the_registry_as_before() -> None:
    assert rulesbook.registry.DataFileError is DataFileError
    assert issubclass(DataFileError, RulesbookError)
