"""Writing designer tables (sweeps, balance tables, sensitivity) with their provenance.

A table shared without its rules is a puzzle: which variant was that, which command? So every
file rulesbook writes carries its **provenance** — the command that made it, the calculator,
the full definition of every variant (each one a variant document that loads back as it is, see
:meth:`rulesbook.variants.Variant.to_mapping`) and the rulesbook version:

* a **Parquet** file holds it in its schema metadata under the key ``rulesbook`` (JSON);
* a **CSV** file stays a plain table any spreadsheet opens; its provenance is the sidecar file
  ``NAME.csv.provenance.yaml`` written beside it.

A Python variant file's code travels with the table: its definition holds, under ``python``, each
file's name, the SHA-256 and the text that ran (``rules``: rule ID → function), so
:func:`rulesbook.variants.python.variant_from_provenance` rebuilds it (never silently: a variant
document with ``python`` is refused by :meth:`~rulesbook.variants.Variant.from_mapping`). Code
that came from no file (a function defined in a notebook, ``Variant.define(functions=...)``)
cannot be carried, so such a table is not written (one line saying so).

:func:`read_table` reads either back with its provenance in ``table.attrs["provenance"]``.

Writing is safe: a regular file is written to a temporary name and renamed, so there is a
finished file or none; a device or pipe (``/dev/stdout``) is written directly; a missing folder
or a full disk is one line (:class:`~rulesbook.errors.InputError`), never a traceback.

Example:
    >>> import tempfile
    >>> from rulesbook.sweeps.run import sweep
    >>> table = sweep("wh40k.battle-shock", {"leadership": "6..7"}, ["battle-shock-3d6"], executor="serial")
    >>> path = export(table, Path(tempfile.mkdtemp()) / "bs.csv", command="rulesbook sweep ...")
    >>> back = read_table(path)
    >>> back["p_pass_exact"].tolist()[:2], back.attrs["provenance"]["variants"]["battle-shock-3d6"]["parameters"]
    (['13/18', '7/12'], {'battle_shock_dice': '3D6'})
"""

from __future__ import annotations

import errno
import importlib
import json
import os
import stat
from collections.abc import Callable, Mapping
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesbook.data import DataFileError, dump_yaml, load_data_file
from rulesbook.errors import InputError, quote

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "PARQUET_KEY",
    "SIDECAR",
    "check_output",
    "export",
    "is_special",
    "named",
    "provenance",
    "read_table",
    "sidecar_of",
    "write_file",
]

PARQUET_KEY = b"rulesbook"
"""The Parquet schema-metadata key holding the provenance (JSON)."""
SIDECAR = ".provenance.yaml"
"""Appended to a CSV file's name for its provenance file."""


def sidecar_of(path: str | Path) -> Path:
    """The provenance file of a CSV file: ``break.csv`` → ``break.csv.provenance.yaml``."""
    target = Path(path)
    return target.with_name(target.name + SIDECAR)


def _version() -> str:
    try:
        return version("rulesbook")
    except PackageNotFoundError:  # pragma: no cover - a checkout that is not installed
        return "unknown"


def provenance(table: pd.DataFrame, command: str = "", **extra: Any) -> dict[str, Any]:
    """What made ``table``: the command, the calculator, every variant's definition, the axes
    or other facts the table's ``attrs`` hold, and the rulesbook version."""
    attrs = table.attrs
    out: dict[str, Any] = {"rulesbook": _version(), "command": command or attrs.get("command", "")}
    if "calculator" in attrs:
        out["calculator"] = attrs["calculator"]
    for key in ("kind", "axes", "inputs", "output"):
        if key in attrs:
            out[key] = attrs[key]
    if attrs.get("notes"):  # entries some rows were computed without (see SweepPlan.lacking)
        out["notes"] = list(attrs["notes"])
    out["variants"] = {
        v["name"]: _reproducible(v["name"], v["definition"]) for v in attrs.get("variants", [])
    }
    return out | extra


def _reproducible(name: str, definition: Mapping[str, Any]) -> Mapping[str, Any]:
    """A variant's definition for a provenance, refused in one line when it names code it does
    not carry (a compute function, or a rule's new code defined outside a variant file): the
    provenance could not reproduce the table, and would read back as other rules."""
    unsourced = [
        f"{', '.join(section.get('rules', {}))} ({section.get('file', '?')})"
        for section in definition.get("python", [])
        if not section.get("source")
    ]
    unsourced += [f"{calc} ({function})" for calc, function in definition.get("functions", {}).items()]
    if unsourced:
        raise InputError(
            "variant",
            f"{name} runs Python defined outside a variant file ({'; '.join(unsourced)}), which no "
            "provenance can carry; put it in a .py variant file (@rule) to write this table",
        )
    return definition


def named(path: str | Path) -> str:
    """A path as the user gave it, quoted for a message; a long one keeps its end (the file name).

    >>> named("out/break.csv"), named("/tables" * 12 + "/break.csv")
    ("'out/break.csv'", "'…/tables/tables/tables/tables/tables/tables/tables/break.csv'")
    """
    text = str(path)
    return quote(text if len(text) <= 60 else "…" + text[-59:])


def check_output(path: str | Path, suffixes: tuple[str, ...], field: str = "output") -> Path:
    """Check an output path before any work: the suffix, an existing folder, not a folder itself.

    Named in errors as it was given. A device (``/dev/null``) is accepted whatever its name.
    """
    target = Path(path)
    given = named(path)
    try:
        mode = target.stat().st_mode
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise InputError(field, f"{given}: the file name is too long") from None
        mode = 0
    if stat.S_ISDIR(mode):
        raise InputError(field, f"{given} is a folder; give a file name ending in {' or '.join(suffixes)}")
    if mode and not stat.S_ISREG(mode):
        return target
    if target.suffix.lower() not in suffixes:
        raise InputError(field, f"{given}: expected a {' or '.join(suffixes)} file name")
    folder = target.parent
    if not folder.is_dir():
        raise InputError(field, f"{given}: the folder {named(folder)} does not exist; create it first")
    if not os.access(folder, os.W_OK):
        raise InputError(field, f"{given}: the folder {named(folder)} is not writable")
    return target


def is_special(path: str | Path) -> bool:
    """Whether ``path`` is a device, a pipe or a socket (written to directly, never replaced).

    >>> is_special("/dev/null"), is_special("no/such/file.csv")
    (True, False)
    """
    try:
        mode = Path(path).stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def write_file(path: str | Path, write: Callable[[Path], None], field: str = "output") -> Path:
    """Write a file through ``write(target)``: to a temporary name then renamed for a regular
    file (a finished file or none), directly for a device or pipe. Any failure is one line."""
    target = Path(path)
    special = is_special(target)
    tmp = target if special else target.with_name(f".{target.name}.tmp")
    try:
        write(tmp)
        if not special:
            tmp.replace(target)
    except OSError as exc:
        if not special:
            tmp.unlink(missing_ok=True)
        reason = exc.strerror or type(exc).__name__
        raise InputError(field, f"cannot write {named(path)} ({reason.lower()})") from None
    return target


def export(table: pd.DataFrame, path: str | Path, *, command: str = "", **extra: Any) -> Path:
    """Write a table to ``.csv`` (plus its provenance sidecar) or ``.parquet`` (provenance in
    its metadata); see the module help."""
    target = check_output(path, (".csv", ".parquet"))
    meta = provenance(table, command, **extra)
    if target.suffix.lower() == ".parquet":
        return write_file(path, lambda tmp: _parquet(table, tmp, meta))
    write_file(path, lambda tmp: table.to_csv(tmp, index=False))
    if not is_special(target):  # a device gets no sidecar
        write_file(sidecar_of(path), lambda tmp: _text(tmp, dump_yaml(meta)))
    return target


def _text(tmp: Path, text: str) -> None:
    tmp.write_text(text, encoding="utf-8")


def _pyarrow() -> tuple[Any, Any]:
    """pyarrow and pyarrow.parquet, imported when a Parquet file is written or read."""
    try:
        pa = importlib.import_module("pyarrow")
        pq = importlib.import_module("pyarrow.parquet")
    except ImportError as exc:  # pragma: no cover - only without pyarrow
        raise InputError(
            "parquet", f"Parquet needs pyarrow ({exc}); pip install 'rulesbook[sweeps]'"
        ) from None
    return pa, pq


def _parquet(table: pd.DataFrame, tmp: Path, meta: Mapping[str, Any]) -> None:
    pa, pq = _pyarrow()
    plain = table.copy()
    plain.attrs = {}
    arrow = pa.Table.from_pandas(plain, preserve_index=False)
    metadata = dict(arrow.schema.metadata or {})
    metadata[PARQUET_KEY] = json.dumps(meta, ensure_ascii=False).encode("utf-8")
    pq.write_table(arrow.replace_schema_metadata(metadata), tmp)


def read_table(path: str | Path) -> pd.DataFrame:
    """A ``.csv`` or ``.parquet`` table rulesbook wrote, with ``attrs["provenance"]`` (empty
    when the file has none). Exact columns (``*_exact``) stay text."""
    import pandas as pd

    source = Path(path)
    if not source.is_file():
        raise InputError("table", f"{named(path)}: no such file")
    meta: Any = {}
    if source.suffix.lower() == ".parquet":
        _, pq = _pyarrow()
        table = pd.read_parquet(source)
        raw = (pq.read_schema(source).metadata or {}).get(PARQUET_KEY)
        meta = json.loads(raw) if raw else {}
    elif source.suffix.lower() == ".csv":
        columns = pd.read_csv(source, nrows=0).columns
        texts = {c: str for c in columns if str(c).endswith("_exact") or c in ("error", "variant")}
        table = pd.read_csv(source, keep_default_na=False, na_values=[""], dtype=texts)
        for column in texts:
            table[column] = table[column].astype(object).where(table[column].notna(), None)
        if "error" in table:
            table["error"] = table["error"].fillna("")
        sidecar = sidecar_of(source)
        if sidecar.is_file():
            try:
                meta = load_data_file(sidecar)
            except DataFileError as exc:
                raise InputError("table", str(exc)) from None
    else:
        raise InputError("table", f"{named(path)}: expected a .csv or .parquet file")
    meta = meta if isinstance(meta, dict) else {}
    table.attrs["provenance"] = meta
    _restore(table, meta)
    return table


def _restore(table: pd.DataFrame, meta: Mapping[str, Any]) -> None:
    """A sweep's own ``attrs`` again (calculator, axes, outputs, variants), so a table read back
    from a file plots as it did (:func:`rulesbook.sweeps.plot_sweep`)."""
    from rulesbook.registry import registry
    from rulesbook.variants import Variant
    from rulesbook.variants.labels import reaches

    calc_id = meta.get("calculator")
    if meta.get("kind") or not isinstance(calc_id, str) or calc_id not in registry().calculators:
        return
    calc = registry().calculator(calc_id)
    table.attrs["calculator"] = calc_id
    table.attrs["axes"] = [a for a in meta.get("axes", []) if a in table]
    table.attrs["outputs"] = [o.key for o in calc.outputs if o.kind not in ("table", "list")]
    variants = []
    for name, definition in (meta.get("variants") or {}).items():
        entry = {"name": name, "title": str(definition.get("title", name)), "definition": definition}
        try:
            document = {k: v for k, v in definition.items() if k not in ("functions", "python")}
            code = {r for section in definition.get("python", []) for r in section.get("rules", {})}
            entry["reaches"] = (
                reaches(calc, Variant.from_mapping(document, name="shared"))
                or bool(code & set(calc.rules))
                or calc_id in definition.get("functions", {})
            )
        except (InputError, AttributeError):
            entry["reaches"] = True  # not checkable here: say nothing rather than something wrong
        variants.append(entry)
    table.attrs["variants"] = variants
    notes = meta.get("notes")  # what rows were computed without (see SweepPlan.lacking)
    table.attrs["notes"] = [str(n) for n in notes] if isinstance(notes, list) else []
