"""Python's scoping, read with ``ast`` for ``document.pyextract``: the scopes of a module and
the bindings of each name in them (what a name stands for where a call uses it), and which lines
may hold a call of lionagi's API at all (the bodies that may not are not entered)."""

from __future__ import annotations

import ast
import bisect
from collections.abc import Callable, Iterator
from typing import Any

from formscript.document.pyapi import API_WORDS, EXPORTS, MUTATORS, SCRIPTED_WORDS

# ------------------------------------------------------------------------------ scopes

Binding = tuple[str, Any]


class Scope:
    __slots__ = ("bindings", "function", "is_class", "parent")

    def __init__(self, parent: Scope | None, is_class: bool = False) -> None:
        self.parent = parent
        self.is_class = is_class
        self.bindings: dict[str, list[Binding]] = {}
        #: The function whose body this scope is (None for a module, class or lambda).
        self.function: ast.FunctionDef | ast.AsyncFunctionDef | None = None

    def bind(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)

    def lookup(self, name: str) -> list[Binding] | None:
        scope: Scope | None = self
        first = True
        while scope is not None:
            if (first or not scope.is_class) and name in scope.bindings:
                return scope.bindings[name]
            first = False
            scope = scope.parent
        return None


class Collector:
    """One pass over the tree: scopes and their bindings, and every call with its scope.

    *wanted* (first line, last line) says whether a function or class written on those lines
    may hold a call looked for; the body of one that may not is not entered (only its name is
    bound): its own bindings concern nothing looked for."""

    def __init__(self, wanted: Callable[[int, int], bool] | None = None) -> None:
        self.module = Scope(None)
        self.calls: list[tuple[ast.Call, Scope]] = []
        #: Item assignments (``env[KEY] = value``) with their scope.
        self.stores: list[tuple[ast.Assign, Scope]] = []
        self.wanted = wanted

    def run(self, tree: ast.Module) -> None:
        self._body(tree.body, self.module)

    def _body(self, statements: list[ast.stmt], scope: Scope) -> None:
        for statement in statements:
            self._node(statement, scope)

    def _skipped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
        if self.wanted is None:
            return False
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        return not self.wanted(first, node.end_lineno or node.lineno)

    def _node(self, node: ast.AST, scope: Scope) -> None:
        kind = type(node)
        if kind is ast.Name:
            if type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
                scope.bind(node.id, ("other", None))  # type: ignore[attr-defined]
            return
        if kind is ast.Constant:
            return
        if kind is ast.Attribute:
            self._node(node.value, scope)  # type: ignore[attr-defined]
            return
        if kind is ast.Call:
            assert isinstance(node, ast.Call)
            self.calls.append((node, scope))
            func = node.func
            if type(func) is ast.Attribute and type(func.value) is ast.Name and func.attr in MUTATORS:
                # ``rs.add(Rule(...))`` as a statement of its own is how rule sets get built
                binding = ("add", node) if func.attr == "add" else ("mutate", None)
                scope.bind(func.value.id, binding)
            self._node(func, scope)
            for argument in node.args:
                self._node(argument, scope)
            for keyword in node.keywords:
                self._node(keyword.value, scope)
            return
        handler = _SPECIAL.get(kind)
        if handler is not None:
            handler(self, node, scope)
            return
        if kind is ast.Subscript and type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
            base = node.value  # type: ignore[attr-defined]
            if type(base) is ast.Name:
                scope.bind(base.id, ("mutate", None))
        for child in ast.iter_child_nodes(node):
            self._node(child, scope)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        scope.bind(node.name, ("def", node))
        if self._skipped(node):
            return
        for item in (*node.decorator_list, *node.args.defaults, *node.args.kw_defaults):
            if item is not None:
                self._node(item, scope)
        inner = Scope(scope)
        inner.function = node
        self._params(node.args, inner)
        self._body(node.body, inner)

    def _lambda(self, node: ast.Lambda, scope: Scope) -> None:
        for item in (*node.args.defaults, *node.args.kw_defaults):
            if item is not None:
                self._node(item, scope)
        inner = Scope(scope)
        self._params(node.args, inner)
        self._node(node.body, inner)

    def _class(self, node: ast.ClassDef, scope: Scope) -> None:
        scope.bind(node.name, ("other", None))
        if self._skipped(node):
            return
        for item in (*node.decorator_list, *node.bases, *(k.value for k in node.keywords)):
            self._node(item, scope)
        self._body(node.body, Scope(scope, is_class=True))

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, scope: Scope) -> None:
        inner = Scope(scope)
        for index, generator in enumerate(node.generators):
            self._node(generator.iter, scope if index == 0 else inner)
            self._store(generator.target, inner)
            for condition in generator.ifs:
                self._node(condition, inner)
        if isinstance(node, ast.DictComp):
            self._node(node.key, inner)
            self._node(node.value, inner)
        else:
            self._node(node.elt, inner)

    def _import(self, node: ast.Import | ast.ImportFrom, scope: Scope) -> None:
        kind = "module" if isinstance(node, ast.Import) else "import"
        for name, qualified in imported(node):
            if qualified is None:
                scope.bind(name, ("other", None))
            elif name == "*":
                module = qualified.removesuffix(".*")
                for exported in EXPORTS.get(module, ()):
                    scope.bind(exported, ("import", f"{module}.{exported}"))
            else:
                scope.bind(name, (kind, qualified))

    def _assign(self, node: ast.Assign, scope: Scope) -> None:
        self._node(node.value, scope)
        for target in node.targets:
            if isinstance(target, ast.Name):
                scope.bind(target.id, ("assign", node.value))
            else:
                if isinstance(target, ast.Subscript):
                    self.stores.append((node, scope))
                self._store(target, scope)

    def _ann_assign(self, node: ast.AnnAssign, scope: Scope) -> None:
        if node.value is not None:
            self._node(node.value, scope)
            if isinstance(node.target, ast.Name):
                scope.bind(node.target.id, ("assign", node.value))
                return
        self._store(node.target, scope)

    def _aug_assign(self, node: ast.AugAssign, scope: Scope) -> None:
        self._node(node.value, scope)
        self._store(node.target, scope)

    def _with(self, node: ast.With | ast.AsyncWith, scope: Scope) -> None:
        for held in node.items:
            self._node(held.context_expr, scope)
            if isinstance(held.optional_vars, ast.Name):
                scope.bind(held.optional_vars.id, ("with", held.context_expr))
            elif held.optional_vars is not None:
                self._store(held.optional_vars, scope)
        self._body(node.body, scope)

    def _global(self, node: ast.Global | ast.Nonlocal, scope: Scope) -> None:
        for name in node.names:
            scope.bind(name, ("other", None))
            if isinstance(node, ast.Global):
                self.module.bind(name, ("other", None))

    def _store(self, target: ast.AST, scope: Scope) -> None:
        """A target bound by something other than a plain assignment (loops, unpacking)."""
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                scope.bind(node.id, ("other", None))
            elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
                scope.bind(node.value.id, ("mutate", None))
        for node in ast.walk(target):
            if isinstance(node, ast.Subscript | ast.Attribute):
                for child in ast.iter_child_nodes(node):
                    if not isinstance(child, ast.expr_context):
                        self._node(child, scope)

    def _params(self, args: ast.arguments, scope: Scope) -> None:
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
            scope.bind(arg.arg, ("param", arg.arg))
        for rest in (args.vararg, args.kwarg):
            if rest is not None:
                scope.bind(rest.arg, ("other", None))


_SPECIAL: dict[type, Callable[[Collector, Any, Scope], None]] = {
    ast.FunctionDef: Collector._function,
    ast.AsyncFunctionDef: Collector._function,
    ast.Lambda: Collector._lambda,
    ast.ClassDef: Collector._class,
    ast.ListComp: Collector._comprehension,
    ast.SetComp: Collector._comprehension,
    ast.GeneratorExp: Collector._comprehension,
    ast.DictComp: Collector._comprehension,
    ast.Import: Collector._import,
    ast.ImportFrom: Collector._import,
    ast.Assign: Collector._assign,
    ast.AnnAssign: Collector._ann_assign,
    ast.AugAssign: Collector._aug_assign,
    ast.With: Collector._with,
    ast.AsyncWith: Collector._with,
    ast.Global: Collector._global,
    ast.Nonlocal: Collector._global,
}


def imported(node: ast.Import | ast.ImportFrom) -> Iterator[tuple[str, str | None]]:
    """Each name an import binds and the qualified name it stands for (``import a.b`` binds
    ``a``; None for a relative import's)."""
    for alias in node.names:
        if isinstance(node, ast.ImportFrom):
            yield alias.asname or alias.name, None if node.level else f"{node.module}.{alias.name}"
        elif alias.asname:
            yield alias.asname, alias.name
        else:
            head = alias.name.partition(".")[0]
            yield head, head


def meaning_of(bindings: list[Binding] | None) -> Binding | None:
    """What a name stands for when its bindings agree on one thing."""
    if not bindings:
        return None
    if any(kind in ("mutate", "add") for kind, _ in bindings):
        return None
    if len(bindings) == 1:
        return bindings[0]
    kinds = {(kind, value if kind in ("import", "module") else id(value)) for kind, value in bindings}
    if len(kinds) == 1 and bindings[0][0] in ("import", "module"):
        return bindings[0]
    return None


def _module_imports(tree: ast.Module) -> set[str]:
    """The names module-level imports of lionagi (and ``json``, ``textwrap``) bind: the names a
    call may reach the API through (an alias does not spell the API's own name)."""
    names: set[str] = set()
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        statement = pending.pop()
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.name.partition(".")[0] in ("lionagi", "json", "textwrap"):
                    names.add(alias.asname or alias.name.partition(".")[0])
        elif isinstance(statement, ast.ImportFrom):
            if (statement.module or "").partition(".")[0] in ("lionagi", "json", "textwrap"):
                names.update(alias.asname or alias.name for alias in statement.names)
        elif isinstance(statement, ast.If):
            pending.extend([*statement.body, *statement.orelse])
        elif isinstance(statement, ast.Try):
            pending.extend([*statement.body, *statement.orelse, *statement.finalbody])
            pending.extend(inner for handler in statement.handlers for inner in handler.body)
    return names


def candidate_lines(text: str, tree: ast.Module) -> Callable[[int, int], bool] | None:
    """Whether a block of lines (1-based, inclusive) mentions the API (one of its words, or a
    name a module-level import binds to it); None when the text has ``global`` or
    ``nonlocal`` (a skipped body could rebind an outer name)."""
    if "global " in text or "nonlocal " in text:
        return None
    words = {*API_WORDS, *SCRIPTED_WORDS, *_module_imports(tree)} - {"*"}
    wanted = _lines_with(text, words)
    # one level of the module's own functions: a block that calls one that may hold a call
    helpers = {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and wanted(node.lineno, node.end_lineno or node.lineno)
    }
    return _lines_with(text, words | {f"{name}(" for name in helpers}) if helpers else wanted


def _lines_with(text: str, words: set[str]) -> Callable[[int, int], bool]:
    """Whether a block of lines (1-based, inclusive) holds one of *words*."""
    offsets: list[int] = []
    for word in words:
        at = text.find(word)
        while at >= 0:
            offsets.append(at)
            at = text.find(word, at + 1)
    if not offsets:
        return lambda first, last: False
    offsets.sort()
    lines: list[int] = []
    line, position = 1, 0
    for offset in offsets:
        line += text.count("\n", position, offset)
        position = offset
        lines.append(line)

    def wanted(first: int, last: int) -> bool:
        index = bisect.bisect_left(lines, first)
        return index < len(lines) and lines[index] <= last

    return wanted
