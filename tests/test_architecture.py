"""The import contract between formscript's layers, read from the source with ``ast``.

Every import counts: at module level, inside functions, under ``TYPE_CHECKING``, relative or
absolute. Imports made with ``importlib`` are not seen (formscript makes none).

- ``core`` (the runtime's semantics) imports neither the lint, the server, the CLI nor the dry
  runs, nor pygls or lsprotocol; ``document`` (located parsing) and ``rules`` (one module per
  rule) neither;
- ``lint`` and ``runs`` import neither the server, the CLI nor pygls/lsprotocol (``formscript
  lint`` never loads the language server's stack);
- ``lsp`` reaches ``core`` only through ``formscript.lsp.facade``, a module of re-exports;
- the CLI is the top: only ``formscript.__main__`` imports it, and of its modules only
  ``formscript.cli.serve`` imports the server;
- ``pytest_plugin`` (loaded by pytest, through the ``pytest11`` entry point) sits beside the
  CLI: it imports neither the server, the CLI nor pygls/lsprotocol, no other module imports
  it, and it is the only one that imports pytest;
- every import runs down the layers (``LAYERS``): the foundation (the finding types, how a
  message shows a value, the Document protocol), the rules, the core and the document
  readers, lint, the dry runs and schemas, the server and the pytest plugin, the CLI;
- no module imports lionagi: only ``formscript.pytest_plugin.observe`` loads it, with
  ``importlib`` when the plugin is active (checked from the string it names).

A package that does not exist yet (``rules`` while it is being written) has no modules, so
its rules hold trivially until it does.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "server"

LSP_STACK = ("pygls", "lsprotocol")
#: package -> what no module of it may import.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "formscript.core": ("formscript.lint", "formscript.lsp", "formscript.cli", "formscript.runs", *LSP_STACK),
    "formscript.document": ("formscript.lint", "formscript.lsp", "formscript.cli", "formscript.runs", *LSP_STACK),
    "formscript.rules": ("formscript.lint", "formscript.lsp", "formscript.cli", "formscript.runs", *LSP_STACK),
    "formscript.lint": ("formscript.lsp", "formscript.cli", *LSP_STACK),
    "formscript.runs": ("formscript.lsp", "formscript.cli", *LSP_STACK),
    "formscript.pytest_plugin": ("formscript.lsp", "formscript.cli", *LSP_STACK),
}
PLUGIN = "formscript.pytest_plugin"
#: The one module that may load lionagi (with importlib, at run time).
OBSERVER = "formscript.pytest_plugin.observe"
FACADE = "formscript.lsp.facade"
SERVE = "formscript.cli.serve"
MAIN = "formscript.__main__"


def within(name: str, package: str) -> bool:
    """Whether the module or name *name* is *package* or inside it."""
    return name == package or name.startswith(package + ".")


def modules(source: Path) -> Iterator[tuple[str, Path]]:
    """(dotted name, path) of every Python module under *source*."""
    for path in sorted(source.rglob("*.py")):
        parts = list(path.relative_to(source).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(parts), path


def imported(name: str, path: Path) -> set[str]:
    """Everything module *name* (at *path*) imports: modules, and ``module.name`` for each
    name imported from a module (it may be a submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base_parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*base_parts, node.module] if node.module else base_parts)
            else:
                base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def reasons(importer: str, target: str) -> list[str]:
    """Why *importer* may not import *target* (nothing when it may)."""
    found = [
        f"{package} imports none of {', '.join(forbidden)}"
        for package, forbidden in FORBIDDEN.items()
        if within(importer, package) and any(within(target, f) for f in forbidden)
    ]
    if within(importer, "formscript.lsp") and importer != FACADE and within(target, "formscript.core"):
        found.append(f"lsp reaches core through {FACADE}")
    if within(target, "formscript.cli") and not within(importer, "formscript.cli") and importer != MAIN:
        found.append("the CLI is the top")
    if within(target, PLUGIN) and not within(importer, PLUGIN):
        found.append("only pytest loads the pytest plugin")
    if within(target, "pytest") and not within(importer, PLUGIN):
        found.append("only the pytest plugin imports pytest")
    if within(target, "lionagi"):
        found.append("formscript never imports lionagi")
    server = ("formscript.lsp", *LSP_STACK)
    if within(importer, "formscript.cli") and importer != SERVE and any(within(target, p) for p in server):
        found.append(f"only {SERVE} starts the server")
    return found


def violations(source: Path) -> list[tuple[str, str, str]]:
    """Every import that breaks the contract: (importer, imported, why)."""
    return [
        (name, target, why)
        for name, path in modules(source)
        for target in sorted(imported(name, path))
        for why in reasons(name, target)
    ]


def test_the_layers_keep_their_imports() -> None:
    assert violations(SOURCE) == []


def loaded_by_name(path: Path) -> set[str]:
    """The modules *path* names to ``importlib.import_module`` (string constants only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module") and node.args:
            first = node.args[0]
            found.add(first.value if isinstance(first, ast.Constant) else ast.unparse(first))
    return found


def test_only_the_observer_loads_lionagi_and_only_by_name() -> None:
    loaders = {name: loaded_by_name(path) for name, path in modules(SOURCE)}
    users = {name for name, targets in loaders.items() if any("lionagi" in t for t in targets)}
    assert users == {OBSERVER}
    assert loaders[OBSERVER] == {
        "lionagi",
        "lionagi.testing._script",
        "lionagi.testing._endpoint",
        "lionagi.work",
        "lionagi.work.form",
        "lionagi.work.rules",
        "lionagi.cli.agent",
        "pydantic",
        "pydantic_core",
    }


def test_the_facade_only_re_exports_core_names() -> None:
    path = SOURCE / "formscript" / "lsp" / "facade.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exported: list[str] = []
    imported_names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            assert node.module == "__future__" or within(node.module or "", "formscript.core"), ast.dump(node)
            if node.module != "__future__":
                imported_names.extend(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"]:
            exported = list(ast.literal_eval(node.value))
        else:  # the docstring only
            assert isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant), ast.dump(node)
    assert sorted(exported) == sorted(imported_names), "__all__ lists what the facade imports, once each"


def test_the_facade_holds_only_what_lsp_uses() -> None:
    """Every name the facade re-exports has a user in lsp: it stays small."""
    used: set[str] = set()
    for name, path in modules(SOURCE):
        if within(name, "formscript.lsp") and name != FACADE:
            used.update(t.removeprefix(FACADE + ".") for t in imported(name, path) if within(t, FACADE))
    path = SOURCE / "formscript" / "lsp" / "facade.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    offered = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    assert offered - {"annotations"} - used == set()


def write(root: Path, name: str, text: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_every_form_of_import_is_seen(tmp_path: Path) -> None:
    """The checker on a planted tree: each kind of import that breaks the contract is found."""
    write(tmp_path, "formscript/__init__.py", "")
    write(tmp_path, "formscript/__main__.py", "from formscript.cli import main\n")
    write(tmp_path, "formscript/core/__init__.py", "")
    write(tmp_path, "formscript/core/a.py", "from ..lint import engine\n")
    write(tmp_path, "formscript/core/b.py", "def f():\n    import pygls.server\n")
    write(
        tmp_path,
        "formscript/core/c.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from formscript.lsp.analysis import Analysis\n",
    )
    write(tmp_path, "formscript/document/__init__.py", "from formscript import runs\n")
    write(tmp_path, "formscript/rules/__init__.py", "")
    write(tmp_path, "formscript/rules/fs001.py", "from . import base\nfrom formscript.lint.config import Settings\n")
    write(tmp_path, "formscript/lint/__init__.py", "")
    write(tmp_path, "formscript/lint/x.py", "import lsprotocol.types as t\nfrom formscript.core import forms\n")
    write(tmp_path, "formscript/lsp/__init__.py", "")
    write(tmp_path, "formscript/lsp/facade.py", "from formscript.core.verdict import KeyPath\n")
    write(tmp_path, "formscript/lsp/hover.py", "from formscript.lsp.facade import KeyPath\nfrom formscript import core")
    write(tmp_path, "formscript/lsp/other.py", "from .. import cli\n")
    write(tmp_path, "formscript/cli/__init__.py", "")
    write(tmp_path, "formscript/cli/lint.py", "from formscript.lsp import server\n")
    write(tmp_path, "formscript/cli/serve.py", "from formscript.lsp.serve import run\n")
    write(tmp_path, "formscript/pytest_plugin/__init__.py", "import pytest\nfrom formscript.lsp import server\n")
    write(tmp_path, "formscript/lint/y.py", "import pytest\nimport lionagi.testing\nfrom .. import pytest_plugin\n")
    assert {(importer, target) for importer, target, _ in violations(tmp_path)} == {
        ("formscript.pytest_plugin", "formscript.lsp"),
        ("formscript.pytest_plugin", "formscript.lsp.server"),
        ("formscript.lint.y", "pytest"),
        ("formscript.lint.y", "lionagi.testing"),
        ("formscript.lint.y", "formscript.pytest_plugin"),
        ("formscript.cli.lint", "formscript.lsp"),
        ("formscript.cli.lint", "formscript.lsp.server"),
        ("formscript.core.a", "formscript.lint"),
        ("formscript.core.a", "formscript.lint.engine"),
        ("formscript.core.b", "pygls.server"),
        ("formscript.core.c", "formscript.lsp.analysis"),
        ("formscript.core.c", "formscript.lsp.analysis.Analysis"),
        ("formscript.document", "formscript.runs"),
        ("formscript.lsp.hover", "formscript.core"),
        ("formscript.lsp.other", "formscript.cli"),
        ("formscript.rules.fs001", "formscript.lint.config"),
        ("formscript.rules.fs001", "formscript.lint.config.Settings"),
        ("formscript.lint.x", "lsprotocol.types"),
    }


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_each_layer_is_checked_where_it_exists(package: str) -> None:
    """The layers the contract names are where the checker looks (a renamed package would
    silently escape it); only ``rules`` may not exist yet."""
    folder = SOURCE.joinpath(*package.split("."))
    if package == "formscript.rules" and not folder.exists():
        return
    assert (folder / "__init__.py").is_file() or folder.with_suffix(".py").is_file()
    assert any(within(name, package) for name, _ in modules(SOURCE))


# ----------------------------------------------------------------------------- circles


def _type_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def module_imports(name: str, path: Path, names: set[str], *, typed: bool = True) -> set[str]:
    """The modules of *names* that module *name* imports: at module level, inside a function (a
    deferred import closes a circle too) and, unless *typed* is False, under ``TYPE_CHECKING``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if not typed and _type_only(node):
            assert isinstance(node, ast.If)
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - (node.level - 1)], *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return {target for target in found if target in names and target != name}


def circles(source: Path, *, typed: bool = True) -> list[list[str]]:
    """The groups of modules under *source* that import each other, directly or through others
    (Tarjan's strongly connected components of more than one module); with *typed* False, only
    the imports made when the modules run count."""
    paths = dict(modules(source))
    graph = {name: sorted(module_imports(name, path, set(paths), typed=typed)) for name, path in paths.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(start: str) -> None:  # iterative, so a long chain does not hit the recursion limit
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(graph[target])))
                elif target in stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for name in graph:
        if name not in index:
            visit(name)
    return sorted(found)


def test_no_module_imports_itself_through_others() -> None:
    """No circle of imports among formscript's modules, those for the type checker included:
    the finding types sit at the bottom (``core.verdict``) and every layer imports downwards."""
    assert circles(SOURCE) == []


def test_circles_are_found(tmp_path: Path) -> None:
    """The checker on a planted tree: a circle through a deferred import and a relative one is
    found, and one closed only under ``TYPE_CHECKING`` too (which the run-time graph leaves out)."""
    write(tmp_path, "formscript/__init__.py", "")
    write(tmp_path, "formscript/a.py", "from formscript import b\n")
    write(tmp_path, "formscript/b.py", "def f():\n    from .c import g\n")
    write(tmp_path, "formscript/c.py", "import formscript.a\n")
    write(tmp_path, "formscript/d.py", "from formscript.e import x\n")
    write(
        tmp_path,
        "formscript/e.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from formscript.d import y\n",
    )
    assert circles(tmp_path, typed=False) == [["formscript.a", "formscript.b", "formscript.c"]]
    assert circles(tmp_path) == [["formscript.a", "formscript.b", "formscript.c"], ["formscript.d", "formscript.e"]]


# ----------------------------------------------------------------------------- layers

#: The foundation every layer stands on: the finding types (``core.verdict``), how a value is
#: named, printed and sized in a message (``core.printable``, ``core.expansion``) and the
#: Document protocol (``document.model``); with the package itself, which holds the version.
FOUNDATION = (
    "formscript.core.verdict",
    "formscript.core.printable",
    "formscript.core.expansion",
    "formscript.document.model",
)
#: The layers from the bottom up: a module imports only from its own layer and those below
#: (docs/architecture.md draws them; inside a layer, the circles test keeps the order).
LAYERS: tuple[tuple[str, ...], ...] = (
    FOUNDATION,
    ("formscript.rules",),
    ("formscript.core", "formscript.document"),
    ("formscript.lint",),
    ("formscript.runs", "formscript.schemas"),
    ("formscript.lsp", "formscript.pytest_plugin"),
    ("formscript.cli",),
    ("formscript.__main__",),
)


def layer_of(name: str) -> int:
    """The layer module *name* is in: the one naming its longest enclosing package."""
    if name == "formscript":
        return 0
    best, depth = -1, -1
    for number, members in enumerate(LAYERS):
        for member in members:
            if within(name, member) and member.count(".") > depth:
                best, depth = number, member.count(".")
    assert best >= 0, f"{name} is in no layer"
    return best


def upward(source: Path) -> list[tuple[str, str]]:
    """(importer, imported) for every import, those for the type checker included, that runs
    up the layers."""
    paths = dict(modules(source))
    return sorted(
        (name, target)
        for name, path in paths.items()
        for target in module_imports(name, path, set(paths))
        if layer_of(target) > layer_of(name)
    )


def test_every_import_runs_down_the_layers() -> None:
    assert upward(SOURCE) == []


def test_an_import_up_the_layers_is_found(tmp_path: Path) -> None:
    """The checker on a planted tree: a rule importing the core's semantics (above it) and the
    foundation importing a rule are found; the core importing a rule and the foundation is not."""
    write(tmp_path, "formscript/__init__.py", "")
    for package in ("core", "rules", "document"):
        write(tmp_path, f"formscript/{package}/__init__.py", "")
    write(tmp_path, "formscript/core/verdict.py", "from formscript.rules import fs001\n")
    write(tmp_path, "formscript/rules/fs001.py", "def f():\n    from formscript.core.gate import g\n")
    gate = "from formscript.rules import fs001\nfrom formscript.core import verdict\n"
    write(tmp_path, "formscript/core/gate.py", gate)
    assert upward(tmp_path) == [
        ("formscript.core.verdict", "formscript.rules"),
        ("formscript.core.verdict", "formscript.rules.fs001"),
        ("formscript.rules.fs001", "formscript.core.gate"),
    ]
