"""The shape of the code base: no import cycle anywhere in ``rulesbook/`` and ``widgets/``, and
every import goes down the layers (values -> present -> core -> systems -> variants, sweeps,
site, cli, the front door -> widgets): nothing under ``rulesbook/`` imports ``widgets``; and the
independent oracles of the tests import neither.

It also checks that no module imports another module's private (``_underscore``) names: what
two modules share is public API with a docstring, not a helper reached across a boundary; and
that every name has one import path: a module imports a name from the module that defines it (or
from a package's ``__init__``, its documented face), and no module hands on names it only
imports (no re-export shims).

The graph is built from the source with :mod:`ast` (every ``import`` and ``from … import``,
at module level, inside functions and under ``if TYPE_CHECKING:``), mapped onto the
``rulesbook.*`` and ``widgets.*`` modules. A cycle cannot hide behind an import made inside a
function or one made only for the type checker: both still tie the two concepts together. Only
those in a package's ``__getattr__`` (the front door of ``import rulesbook as rb``) are left
out: they run only when a name is first used, once the package is fully imported. A cycle makes
the import order matter and hides which module is the lower layer, so the test reports the first
one it finds.
"""

from __future__ import annotations

import ast
import doctest
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rulesbook", "widgets")


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> source file, for every module of the two packages."""
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def _imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[str]:
    """Every dotted name a module imports (``from a import b`` yields ``a`` and ``a.b``)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if is_package and isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            continue  # a package's lazy attributes (PEP 562) load once the package is imported
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = module.split(".") if is_package else module.split(".")[:-1]
                anchor = here[: len(here) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of the two packages it imports (itself excluded)."""
    files = module_files(root)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = set()
        for imported in _imports(tree, name, path.name == "__init__.py"):
            # `import a.b.c` runs a, a.b and a.b.c; `from a import f` names a module only if it is one
            parts = imported.split(".")
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                if prefix in files and prefix != name and not name.startswith(prefix + "."):
                    targets.add(prefix)
        graph[name] = targets
    return graph


def find_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path ``[a, b, …, a]``, or None when there is none.

    >>> find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}})
    ['a', 'b', 'c', 'a']
    >>> find_cycle({"a": {"b"}, "b": set()}) is None
    True
    """
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_the_graph_sees_the_modules_and_their_imports() -> None:
    graph = import_graph()
    assert {
        "rulesbook.registry",
        "rulesbook.cli.commands",
        "rulesbook.site.pages",
        "rulesbook.present.html",
    } <= set(graph)
    assert "rulesbook.errors" in graph["rulesbook.registry"]
    assert "rulesbook.results" in graph["rulesbook.calculators"]
    assert "rulesbook.records" in graph["rulesbook.registry"]
    # a function-level import counts: the loader imports the calculators only inside a function
    assert "rulesbook.calculators" in graph["rulesbook.registry"]


def test_find_cycle_reports_a_cycle_through_function_level_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "rulesbook"
    pkg.mkdir()
    (tmp_path / "widgets").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from rulesbook.b import f\n")
    (pkg / "b.py").write_text("def f():\n    from rulesbook import a\n")
    graph = import_graph(tmp_path)
    assert find_cycle(graph) == ["rulesbook.a", "rulesbook.b", "rulesbook.a"]


def test_an_in_function_or_type_checking_import_cannot_dodge_a_cycle(tmp_path: Path) -> None:
    """The two ways a cycle used to be held open: the lower module imports the higher one only
    for its types, the higher one imports the lower one only inside a function."""
    pkg = tmp_path / "rulesbook"
    pkg.mkdir()
    (tmp_path / "widgets").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rulesbook.high import H\n"
    )
    (pkg / "high.py").write_text("def make():\n    from rulesbook.low import L\n    return L\n")
    graph = import_graph(tmp_path)
    assert graph["rulesbook.low"] == {"rulesbook.high"} and graph["rulesbook.high"] == {"rulesbook.low"}
    assert find_cycle(graph) == ["rulesbook.high", "rulesbook.low", "rulesbook.high"]


def test_no_import_cycle_in_rulesbook_and_widgets() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def private_imports(root: Path = ROOT) -> list[str]:
    """``module: from other import _name`` for every private name imported across modules."""
    files = module_files(root)
    found = []
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            if node.module.split(".")[0] not in PACKAGES or node.module == name:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{name}: from {node.module} import {alias.name}")
    return found


def test_private_imports_are_found(tmp_path: Path) -> None:
    pkg = tmp_path / "rulesbook"
    pkg.mkdir()
    (tmp_path / "widgets").mkdir()
    (pkg / "a.py").write_text("def _helper():\n    pass\n")
    (pkg / "b.py").write_text(
        "from rulesbook.a import (\n    _helper,\n)\nfrom rulesbook import __version__\n"
    )
    assert private_imports(tmp_path) == ["rulesbook.b: from rulesbook.a import _helper"]


def test_no_private_name_is_imported_across_modules() -> None:
    assert private_imports() == []


def defined_names(path: Path) -> set[str]:
    """The names a module defines at its top level (functions, classes, assignments, type
    aliases; those under an ``if``/``try`` at the top level too), not the ones it imports."""
    found: set[str] = set()

    def scan(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(node.name)
            elif isinstance(node, ast.Assign):
                found.update(n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name))
            elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
                found.add(node.target.id)
            elif isinstance(node, ast.TypeAlias):
                found.add(node.name.id)
            elif isinstance(node, ast.If | ast.Try):
                scan(node.body)
                scan(node.orelse)
                for handler in getattr(node, "handlers", []):
                    scan(handler.body)

    scan(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def second_paths(root: Path = ROOT) -> list[str]:
    """``module: from other import name`` for every name imported from a module that does not
    define it (it only imports it), and ``module: __all__ hands on name`` for every name a
    module lists in ``__all__`` without defining it. A package's ``__init__`` is its documented
    face and may hand names on; any other module is one concept, and its names have one path."""
    files = module_files(root)
    defined = {name: defined_names(path) for name, path in files.items()}
    found = []
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level or node.module not in files:
                continue
            if files[node.module].name == "__init__.py":
                continue
            for alias in node.names:
                if alias.name not in defined[node.module] and f"{node.module}.{alias.name}" not in files:
                    found.append(f"{name}: from {node.module} import {alias.name}")
        if path.name == "__init__.py":
            continue
        for node in tree.body:
            target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
            if isinstance(target, ast.Name) and target.id == "__all__":
                value = getattr(node, "value", None)
                for elt in getattr(value, "elts", []):
                    if isinstance(elt, ast.Constant) and elt.value not in defined[name]:
                        found.append(f"{name}: __all__ hands on {elt.value}")
    return found


def test_second_paths_are_found(tmp_path: Path) -> None:
    pkg = tmp_path / "rulesbook"
    pkg.mkdir()
    (tmp_path / "widgets").mkdir()
    (pkg / "__init__.py").write_text("from rulesbook.a import f\n__all__ = ['f']\n")
    (pkg / "a.py").write_text("def f():\n    pass\n")
    (pkg / "b.py").write_text("from rulesbook.a import f\n__all__ = ['f', 'g']\n\ndef g():\n    pass\n")
    (pkg / "c.py").write_text("from rulesbook.b import f, g\nfrom rulesbook import f as h\n")
    assert second_paths(tmp_path) == [
        "rulesbook.b: __all__ hands on f",
        "rulesbook.c: from rulesbook.b import f",
    ]


def test_every_name_has_one_import_path() -> None:
    """No re-export shims: a split module leaves no forwarding names behind."""
    assert second_paths() == []


LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "values",
        (
            "rulesbook.errors",
            "rulesbook.data",
            "rulesbook.results",
            "rulesbook.dice",
            "rulesbook.records",
            "rulesbook.rosters",
        ),
    ),
    ("present", ("rulesbook.present",)),
    (
        "core",
        (
            "rulesbook.inputs",
            "rulesbook.relations",
            "rulesbook.language",
            "rulesbook.python_files",
            "rulesbook.additions",
            "rulesbook.choices",
            "rulesbook.calculators",
            "rulesbook.registry",
            "rulesbook.cases",
            "rulesbook.index",
            "rulesbook.caches",
        ),
    ),
    ("systems", ("rulesbook.systems",)),
    ("designer", ("rulesbook.variants", "rulesbook.sweeps")),
    ("publish", ("rulesbook.site", "rulesbook.cli", "rulesbook.api")),
    ("front-ends", ("widgets",)),
)
"""The layers, lowest first: a module imports only its own layer and the ones below it."""


SYSTEM_COMMANDS = re.compile(r"rulesbook\.systems\.\w+\.commands")
"""A system's commands of the ``rulesbook`` command line (``SystemPackage(commands=...)``): they
sit in its folder but in the command line's layer, and nothing imports them (loaded by name)."""


def layer_of(module: str) -> int:
    """The index of the layer a module belongs to (the package ``rulesbook`` itself: 0)."""
    if SYSTEM_COMMANDS.fullmatch(module):
        return next(i for i, (name, _) in enumerate(LAYERS) if name == "publish")
    for i, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    assert module == "rulesbook", f"{module} is in no layer: add it to LAYERS"
    return 0


def upward_imports(graph: Mapping[str, set[str]]) -> list[str]:
    """``a -> b`` for every import from a lower layer to a higher one."""
    return sorted(
        f"{a} ({LAYERS[layer_of(a)][0]}) -> {b} ({LAYERS[layer_of(b)][0]})"
        for a, targets in graph.items()
        for b in targets
        if layer_of(b) > layer_of(a) and (a, b) not in ALLOWED_UPWARD
    )


ALLOWED_UPWARD = {
    ("rulesbook", "rulesbook.present"),  # registers notebook display when IPython is loaded
    ("rulesbook", "rulesbook.present.jupyter"),
    ("rulesbook", "rulesbook.api"),  # the front door's names, for the type checker (loaded on first use)
    ("rulesbook.registry", "rulesbook.systems"),  # lists the system packages (loaded by name)
}
"""The imports that go up a layer on purpose, each with its reason."""


def test_upward_imports_are_found(tmp_path: Path) -> None:
    pkg = tmp_path / "rulesbook"
    (pkg / "present").mkdir(parents=True)
    (tmp_path / "widgets").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "present" / "__init__.py").write_text("")
    (pkg / "results.py").write_text("")
    (pkg / "present" / "html.py").write_text("from rulesbook.results import x\n")
    (pkg / "registry.py").write_text("def f():\n    import widgets.server\n")
    (tmp_path / "widgets" / "server.py").write_text("from rulesbook.present.html import y\n")
    assert upward_imports(import_graph(tmp_path)) == [
        "rulesbook.registry (core) -> widgets.server (front-ends)"
    ]


def test_every_import_goes_down_the_layers() -> None:
    """Values never format, the core never imports a system, nothing in rulesbook imports widgets
    (the CLI starts the server through the ``rulesbook.front_ends`` entry point)."""
    assert upward_imports(import_graph()) == []


def test_no_rulesbook_module_imports_widgets() -> None:
    graph = import_graph()
    assert [
        a
        for a, targets in graph.items()
        if a.startswith("rulesbook") and any(t.startswith("widgets") for t in targets)
    ] == []


def test_the_command_line_imports_no_system() -> None:
    """A system is a plugin: the core command line names none (Warhammer 40,000's ``matchup`` is
    the system's own command, loaded by name), and nothing imports a system's commands."""
    graph = import_graph()
    assert {
        f"{a} -> {t}"
        for a, targets in graph.items()
        if a.startswith("rulesbook.cli")
        for t in targets
        if t.startswith("rulesbook.systems")
    } == set()
    assert [a for a, targets in graph.items() if any(SYSTEM_COMMANDS.fullmatch(t) for t in targets)] == []


def test_rulesbook_has_at_most_14_top_level_modules() -> None:
    """Concerns live in packages (present, site, cli, variants, systems), not side by side."""
    top = sorted(p.name for p in (ROOT / "rulesbook").glob("*.py"))
    assert len(top) <= 14, top


def test_wh40k_holds_at_most_10_modules_at_its_top_level() -> None:
    """A system as large as 40k keeps its concepts in sub-packages (attack, effects, faction,
    wahapedia, lists, calculators), not side by side (issue 35)."""
    top = sorted(p.name for p in (ROOT / "rulesbook" / "systems" / "wh40k").glob("*.py"))
    assert len(top) <= 10, top


def _system_names() -> set[str]:
    return {p.parent.name for p in (ROOT / "rulesbook" / "systems").glob("*/__init__.py")}


def test_no_core_doctest_lists_the_systems() -> None:
    """A system is a plugin: adding or removing one changes no expected output of a core doctest
    (an example's answer may name one system, never several of them)."""
    systems = _system_names()
    parser = doctest.DocTestParser()
    listing = []
    for name, path in module_files().items():
        if name.startswith("rulesbook.systems") or not name.startswith("rulesbook"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        documented = (n for n in ast.walk(tree) if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef))
        for node in documented:
            for example in parser.get_examples(ast.get_docstring(node) or ""):
                shown = {s for s in systems if re.search(rf"\b{s}\b", example.want)}
                if len(shown) > 1:
                    listing.append((name, example.source.strip(), sorted(shown)))
    assert listing == []


def function_lengths(root: Path = ROOT) -> dict[str, int]:
    """``path:Qualified.name`` -> the lines of every function's body (its docstring and its
    signature left out: a worked example or a declared option is not logic), nested ones too."""
    out: dict[str, int] = {}
    for path in module_files(root).values():

        def visit(node: ast.AST, prefix: str, where: str = path.relative_to(root).as_posix()) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    body = child.body
                    if len(body) > 1 and ast.get_docstring(child, clean=False) is not None:
                        body = body[1:]
                    out[f"{where}:{prefix}{child.name}"] = (child.end_lineno or 0) - body[0].lineno + 1
                    visit(child, f"{prefix}{child.name}.", where)
                elif isinstance(child, ast.ClassDef):
                    visit(child, f"{prefix}{child.name}.", where)
                else:
                    visit(child, prefix, where)

        visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return out


LONG_FUNCTION = 60
"""A function whose body runs over this many lines usually does several things: split it where
its concept splits (a step, a case, a part of what it builds), never where a number falls."""

LONG_FUNCTIONS_AT_MOST = 10
"""How many long functions the code base may hold at most (the rule of issue 35)."""

LONG_FUNCTIONS = frozenset(
    {
        "rulesbook/systems/wh40k/faction/reader.py:faction_from_data",
        "rulesbook/systems/wh40k/faction/reader.py:_datasheet",
        "widgets/army_morale/tracker.py:TrackerView.__init__",
        "widgets/forms/panel_app.py:CalculatorApp.__init__",
        "widgets/army_morale/setup_form.py:SetupForm.__init__",
        "rulesbook/systems/wh40k/calculators/datasheet.py:setting_of",
        "rulesbook/systems/wh40k/faction/pages.py:faction_rules",
        "rulesbook/systems/wh40k/faction/additions.py:_entry",
        "rulesbook/systems/wh40k/calculators/morale.py:attack_and_battle_shock_calculator",
        "rulesbook/systems/wh40k/calculators/datasheet_inputs.py:_side_inputs",
    }
)
"""The functions over :data:`LONG_FUNCTION` lines today (at most :data:`LONG_FUNCTIONS_AT_MOST`):
no other may join them, and one that is split leaves the list (the test says so)."""


def test_function_lengths_measure_the_body(tmp_path: Path) -> None:
    pkg = tmp_path / "rulesbook"
    pkg.mkdir()
    (tmp_path / "widgets").mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(61))
    (pkg / "a.py").write_text(
        f'def long(\n    a: int,\n    b: int,\n) -> None:\n    """Doc.\n\n    More.\n    """\n{body}'
        f"class C:\n    def short(self) -> None:\n        def inner() -> None:\n            pass\n"
    )
    assert function_lengths(tmp_path) == {
        "rulesbook/a.py:long": 61,
        "rulesbook/a.py:C.short": 2,
        "rulesbook/a.py:C.short.inner": 1,
    }


def test_no_new_long_function_and_the_list_only_shrinks() -> None:
    """A module is one concept named for it, and a function one step of it. The module-size wall
    (650 lines) this replaces made cuts where a number fell; what is checked now is the concept's
    own size: the function."""
    long = {name for name, n in function_lengths().items() if n > LONG_FUNCTION}
    assert long - LONG_FUNCTIONS == set(), "split these where their concept splits"
    assert LONG_FUNCTIONS - long == set(), "no longer long: take them off LONG_FUNCTIONS"
    assert len(LONG_FUNCTIONS) <= LONG_FUNCTIONS_AT_MOST


GENERIC_NAMES = frozenset(
    {"util", "utils", "helpers", "helper", "misc", "common", "shared", "stuff", "tools"}
)
"""Module names that name no concept: what is in them belongs with the concept it serves."""

CUT_TO_FIT = ("_more", "_extra", "_rest", "_part", "_continued", "_2", "2")
"""Endings of a module cut off another where a number fell (``inputs_more``, ``engine2``)."""


def unnamed_modules(root: Path = ROOT) -> list[str]:
    """The modules whose name names no concept, or that have no docstring saying which."""
    found = []
    for name, path in module_files(root).items():
        stem = path.stem
        if stem in GENERIC_NAMES or (stem != "__init__" and stem.endswith(CUT_TO_FIT)):
            found.append(f"{name}: named for no concept")
        if path.name != "__init__.py" and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))):
            found.append(f"{name}: no docstring saying what it is")
    return found


def test_unnamed_modules_are_found(tmp_path: Path) -> None:
    pkg = tmp_path / "rulesbook"
    pkg.mkdir()
    (tmp_path / "widgets").mkdir()
    (pkg / "utils.py").write_text('"""Things."""\n')
    (pkg / "engine_more.py").write_text('"""The rest of the engine."""\n')
    (pkg / "dice.py").write_text("X = 1\n")
    (pkg / "rolls.py").write_text('"""Rolls."""\n')
    assert sorted(unnamed_modules(tmp_path)) == [
        "rulesbook.dice: no docstring saying what it is",
        "rulesbook.engine_more: named for no concept",
        "rulesbook.utils: named for no concept",
    ]


def test_every_module_is_named_for_its_concept() -> None:
    assert unnamed_modules() == []


def hint_writers(root: Path = ROOT, phrase: str = "did you mean") -> list[str]:
    """``module:function`` for every function whose code (not its docstring) writes ``phrase``."""
    found = []
    for name, path in module_files(root).items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and id(node) not in docstrings
                    and phrase in node.value.lower()
                ):
                    found.append(f"{name}:{function.name}")
    return sorted(set(found))


def test_did_you_mean_is_written_once() -> None:
    """One function words the hint for a misspelt name; every error that offers one calls it."""
    assert hint_writers() == ["rulesbook.errors:did_you_mean"]


def test_a_variant_that_cannot_change_a_calculator_is_said_once() -> None:
    """One function words the warning; the commands, sweeps, matrices and solves call it."""
    assert hint_writers(phrase=" does not affect ") == ["rulesbook.variants.labels:unaffected"]


ORACLES = (
    "tests/wh40k/reference_outcome.py",
    "tests/wh40k/mixed_units_mc.py",
    "tests/army_morale/simulate.py",
)
"""Independent oracles: written from the rules' text, they must share no code with what they check."""


def test_oracles_import_nothing_from_rulesbook() -> None:
    for path in ORACLES:
        name = path.removesuffix(".py").replace("/", ".")
        imported = set(_imports(ast.parse((ROOT / path).read_text()), name, False))
        assert not {m for m in imported if m.split(".")[0] in PACKAGES}, path
