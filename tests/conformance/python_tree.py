"""Check formscript's verdicts on a tree of Python test files against lionagi 0.36.0 itself.

``python -m tests.conformance.python_tree DIR`` lints every ``.py`` file under *DIR* with
``formscript.lint.python_lint`` and, for each embedded document found, evaluates the same
call with lionagi: the call's own source, in a namespace holding the file's lionagi imports
and the names the call reads, each taken from its one assignment in the enclosing function
(or the module) and evaluated the same way. A call that reads a name bound by anything else
(a parameter, a helper's result, a loop) cannot be evaluated: formscript must then say
``insufficient_evidence``. A raised exception is lionagi's ``rejected``; ``fill_form`` and
``validate_form`` are ``rejected`` when the form they return has the status ``error``.

It also lists the calls of the API that formscript did not report (a *miss*): every call
whose name, resolved through the file's imports, is one of the API's. Only the oracle runs
code, and only the calls' own expressions — never a test, a fixture or a helper of the tree.

The report: files, documents, agreeing verdicts, and one line per disagreement or miss.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from formscript.lint.python_lint import lint_python

#: The calls whose literal arguments lionagi checks, by their last name.
API = {
    "from_responses",
    "from_text",
    "from_script",
    "attach_script",
    "coerce",
    "model_validate",
    "ScriptModel",
    "scripted_imodel",
    "TextResponse",
    "ToolCallResponse",
    "StructuredResponse",
    "StreamResponse",
    "ErrorResponse",
    "WhenMatcher",
    "FieldSpec",
    "Rule",
    "WorkForm",
    "fill_form",
    "validate_form",
}
OWNERS = {"TestBranch", "ScriptModel", "ScriptedEndpoint", "RuleSet"}


@dataclass
class Finding:
    path: str
    line: int
    call: str
    formscript: str
    lionagi: str


def _is_parameter(name: str, scope: ast.AST) -> bool:
    return isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        a.arg == name for a in [*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs]
    )


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of *scope* outside its nested functions, classes and lambdas (their headers
    included: a nested function's name is bound here)."""
    found: list[ast.AST] = []
    stack = [scope]
    while stack:
        node = stack.pop()
        found.append(node)
        if node is not scope and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _scope_of(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.AST:
    current = parents.get(node)
    while current is not None and not isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        current = parents.get(current)
    return current if current is not None else node


class _Unresolvable(Exception):
    pass


_UNSET: Any = object()
#: What a name bound at run time may turn out to be, one evaluation each.
STAND_INS: tuple[Any, ...] = (None, {}, [], "text", 7, {"type": "text", "content": "x"}, {"type": "bogus"})


class Oracle:
    """Evaluates one file's calls with lionagi, reading names from their assignments."""

    def __init__(self, source: str, tree: ast.Module) -> None:
        self.stand_in: Any = _UNSET
        self.fixtures: dict[str, Any] = {}
        self.source = source
        self.tree = tree
        self.parents = _parents(tree)
        self.imports: dict[str, Any] = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                module = node.module if isinstance(node, ast.ImportFrom) else None
                names = [a.name for a in node.names]
                if not ((module or "").startswith("lionagi") or any(n.startswith("lionagi") for n in names)):
                    continue
                for alias in node.names:  # one by one: a name lionagi 0.36.0 lacks fails alone
                    one = ast.ImportFrom(module, [alias], node.level) if module else ast.Import([alias])
                    namespace: dict[str, Any] = {}
                    try:
                        exec(compile(ast.fix_missing_locations(ast.Module([one], [])), "<imports>", "exec"), namespace)
                    except Exception:
                        continue
                    self.imports.update({k: v for k, v in namespace.items() if k != "__builtins__"})
        import json
        import textwrap

        # the factories lionagi's pytest plugin hands to a test as fixtures, as the plugin builds them
        from lionagi.testing import pytest_plugin

        for fixture in ("scripted_branch_factory", "scripted_endpoint_for"):
            definition = getattr(pytest_plugin, fixture, None)
            body = getattr(definition, "__wrapped__", None)
            if body is not None:
                self.fixtures[fixture] = body

        self.imports.setdefault("json", json)
        self.imports.setdefault("textwrap", textwrap)

    def _assignment(self, name: str, scope: ast.AST, before: int) -> ast.expr:
        bound: list[ast.expr] = []
        others = 0
        for node in _own_nodes(scope):
            if node is not scope and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if node.name == name:
                    others += 1
                continue
            if isinstance(node, ast.comprehension) and any(
                isinstance(t, ast.Name) and t.id == name for t in ast.walk(node.target)
            ):
                others += 1
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                if node.targets[0].id == name:
                    bound.append(node.value)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.With, ast.NamedExpr, ast.arguments)):
                targets = [n for n in ast.walk(node) if isinstance(n, (ast.Name, ast.arg))]
                if any(getattr(t, "id", getattr(t, "arg", None)) == name for t in targets):
                    if isinstance(node, ast.AnnAssign) and node.value is not None:
                        bound.append(node.value)
                    else:
                        others += 1
        if len(bound) == 1 and others == 0:
            return bound[0]
        if not bound and others == 0 and not isinstance(scope, ast.Module):
            return self._assignment(name, self.tree, before)
        raise _Unresolvable(name)

    def _mutations(self, name: str, scope: ast.AST, bound: ast.expr, before: int) -> list[ast.Call]:
        """The method calls made on *name* as statements between its assignment and *before*."""
        found = []
        for node in _own_nodes(scope):
            if (
                isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute)
                and isinstance(node.value.func.value, ast.Name)
                and node.value.func.value.id == name
                and bound.lineno < node.lineno < before
            ):
                found.append(node.value)
        return sorted(found, key=lambda n: n.lineno)

    def _whatever(self, call: ast.Call, scope: ast.AST) -> str:
        """The verdict when the names the call reads at run time may be anything: decided when
        every stand-in value gives the same one."""
        outcomes = set()
        for stand_in in STAND_INS:
            self.stand_in = stand_in
            try:
                outcome = self.verdict(call)
                outcomes.add(outcome if outcome == "not evaluable" else outcome.split(" ")[0])
            finally:
                self.stand_in = _UNSET
        # decided for every stand-in, but a stand-in is not the run-time value: formscript may
        # still say insufficient_evidence (never the opposite verdict)
        outcome = outcomes.pop() if len(outcomes) == 1 else "not evaluable"
        return outcome if outcome == "not evaluable" else f"{outcome} (whatever the run-time names)"

    def namespace(self, expr: ast.expr, scope: ast.AST, depth: int = 0) -> dict[str, Any]:
        if depth > 8:
            raise _Unresolvable("depth")
        namespace = dict(self.imports)
        local: set[str] = set()
        for node in ast.walk(expr):
            if isinstance(node, ast.Lambda):
                local.update(a.arg for a in node.args.args)
            if isinstance(node, ast.comprehension):
                local.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
        splatted = {
            n.value.id
            for n in ast.walk(expr)
            if isinstance(n, ast.keyword) and n.arg is None and isinstance(n.value, ast.Name)
        }
        called = {n.func.id for n in ast.walk(expr) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        for node in ast.walk(expr):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                name = node.id
                if name in namespace or name in local or hasattr(__builtins__, name) or name in dir(__builtins__):
                    continue
                if name in self.fixtures and _is_parameter(name, scope):
                    factory = self.fixtures[name]
                    namespace[name] = (
                        factory(self.fixtures["scripted_branch_factory"]())
                        if name == "scripted_endpoint_for"
                        else factory()
                    )
                    continue
                try:
                    value_expr = self._assignment(name, scope, node.lineno)
                except _Unresolvable:
                    if self.stand_in is _UNSET or name in called:  # a helper's result is not a value
                        raise
                    namespace[name] = {} if name in splatted else self.stand_in
                    continue
                namespace[name] = self.evaluate(value_expr, scope, depth + 1)
                for later in self._mutations(name, scope, value_expr, node.lineno):
                    mutation_ns = dict(namespace)
                    mutation_ns.update(self.namespace(later, scope, depth + 1))
                    mutation_ns[name] = namespace[name]
                    eval(compile(ast.Expression(later), "<mutation>", "eval"), mutation_ns)
        return namespace

    def evaluate(self, expr: ast.expr, scope: ast.AST, depth: int = 0) -> Any:
        namespace = self.namespace(expr, scope, depth)
        code = compile(ast.Expression(expr), "<call>", "eval")
        return eval(code, namespace)

    def text_verdict(self, call: ast.Call, kind: str | None) -> str:
        """A script text written to a file: what lionagi's loader makes of it."""
        import tempfile

        if kind != "script":
            return "form text"
        scope = _scope_of(call, self.parents)
        try:
            text = self.evaluate(call.args[0], scope)
        except _Unresolvable:
            return "not evaluable"
        script_model = self.imports.get("ScriptModel")
        if script_model is None:
            from lionagi.testing import ScriptModel as script_model
        target = ast.get_source_segment(self.source, call) or ""
        suffix = ".json" if ".json" in target or str(text).lstrip().startswith("{") else ".yaml"
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"script{suffix}"
            path.write_text(text, encoding="utf-8")
            try:
                (script_model.from_json if suffix == ".json" else script_model.from_yaml)(path)
            except Exception as exc:
                return f"rejected ({type(exc).__name__})"
        return "accepted"

    def verdict(self, call: ast.Call) -> str:
        scope = _scope_of(call, self.parents)
        try:
            namespace = self.namespace(call, scope)
        except _Unresolvable:
            return self._whatever(call, scope) if self.stand_in is _UNSET else "not evaluable"
        except Exception as exc:
            return f"rejected ({type(exc).__name__})"
        try:  # the arguments first: what raises there is not lionagi's refusal
            func = eval(compile(ast.Expression(call.func), "<call>", "eval"), namespace)
            args: list[Any] = []
            for arg in call.args:
                value = eval(
                    compile(ast.Expression(arg.value if isinstance(arg, ast.Starred) else arg), "<arg>", "eval"),
                    namespace,
                )
                args.extend(value) if isinstance(arg, ast.Starred) else args.append(value)
            kwargs: dict[str, Any] = {}
            for keyword in call.keywords:
                value = eval(compile(ast.Expression(keyword.value), "<arg>", "eval"), namespace)
                kwargs.update(value) if keyword.arg is None else kwargs.__setitem__(keyword.arg, value)
        except Exception:
            return "not evaluable"
        try:
            result = func(*args, **kwargs)
        except Exception as exc:
            return f"rejected ({type(exc).__name__})"
        if getattr(result, "status", None) == "error" and _last_name(call.func) in {"fill_form", "validate_form"}:
            return "rejected (status error)"
        return "accepted"


def _last_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _calls_of_the_api(tree: ast.Module, imported: set[str]) -> list[ast.Call]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _last_name(node.func)
        owner = node.func.value if isinstance(node.func, ast.Attribute) else None
        owner_name = _last_name(owner) if isinstance(owner, (ast.Name, ast.Attribute)) else ""
        if (isinstance(node.func, ast.Name) and name in API and name in imported) or (
            owner_name in OWNERS and owner_name in imported and name in API
        ):
            found.append(node)
    return found


def _imported_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lionagi"):
            names.update(a.asname or a.name for a in node.names)
    return names


def check_tree(root: Path) -> tuple[int, int, int, list[Finding], list[str]]:
    """Files with a document, documents, agreeing verdicts, disagreements, misses."""
    files = documents = agreeing = 0
    disagreements: list[Finding] = []
    misses: list[str] = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        report = lint_python(source, str(path))
        parts = [p for p in report.parts or [] if p.embedded is not None]
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        oracle = Oracle(source, tree)
        reported_calls: set[tuple[int, int]] = set()
        if parts:
            files += 1
        for part in parts:
            embedded = part.embedded
            assert embedded is not None
            documents += 1
            ours = part.verdict.value if part.verdict is not None else "none"
            line = (embedded.call_span or embedded.span).start.line + 1
            node = _node_at(tree, line, embedded.call)
            if node is None:  # a text written to a file: judged as a file, by the file conformance
                agreeing += 1
                continue
            reported_calls.add((node.lineno, node.col_offset))
            theirs = (
                oracle.text_verdict(node, part.kind)
                if embedded.call.endswith(("write_text", "write"))
                else oracle.verdict(node)
            )
            if theirs == "form text":  # a form spec for li agent --form: judged as a file by the file conformance
                agreeing += 1
                continue
            if theirs == "not evaluable":
                agree = ours == "insufficient_evidence"
            elif theirs.endswith("(whatever the run-time names)"):
                agree = ours in ("insufficient_evidence", theirs.split(" ")[0])
            else:
                agree = ours == theirs.split(" ")[0]
            if agree:
                agreeing += 1
            else:
                disagreements.append(Finding(str(path), line, embedded.call, ours, theirs))
        for call in _calls_of_the_api(tree, _imported_names(tree)):
            if (call.lineno, call.col_offset) in reported_calls:
                continue
            if _nested_in_reported(call, reported_calls, oracle.parents) or _passes_objects(call, oracle):
                continue
            verdict = oracle.verdict(call)
            if verdict != "not evaluable":
                misses.append(f"{path}:{call.lineno} {ast.get_source_segment(source, call.func)}: lionagi {verdict}")
    return files, documents, agreeing, disagreements, misses


def _passes_objects(call: ast.Call, oracle: Oracle) -> bool:
    """Whether the call only passes on objects built by other calls of the API (``coerce(script)``
    of a ``script = ScriptModel.from_responses([...])``): those calls are the documents."""
    args = [*call.args, *(k.value for k in call.keywords)]
    if not args:
        return False
    scope = _scope_of(call, oracle.parents)
    for arg in args:
        if isinstance(arg, ast.Call) and _last_name(arg.func) in API:
            continue
        if not isinstance(arg, ast.Name):
            return False
        try:
            bound = oracle._assignment(arg.id, scope, call.lineno)
        except _Unresolvable:
            return False
        if not (isinstance(bound, ast.Call) and _last_name(bound.func) in API):
            return False
    return True


def _nested_in_reported(call: ast.AST, reported: set[tuple[int, int]], parents: dict[ast.AST, ast.AST]) -> bool:
    current = parents.get(call)
    while current is not None:
        if isinstance(current, ast.Call) and (current.lineno, current.col_offset) in reported:
            return True
        current = parents.get(current)
    return False


def _node_at(tree: ast.Module, line: int, call: str) -> ast.Call | None:
    wanted = call.split(".")[-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.lineno == line and _last_name(node.func) == wanted:
            return node
    return None


def main(argv: list[str]) -> int:
    root = Path(argv[0] if argv else ".")
    files, documents, agreeing, disagreements, misses = check_tree(root)
    print(f"{files} file(s) with documents, {documents} document(s), {agreeing} agreeing with lionagi 0.36.0")
    for finding in disagreements:
        print(
            f"DISAGREE {finding.path}:{finding.line} {finding.call}: "
            f"formscript {finding.formscript}, lionagi {finding.lionagi}"
        )
    for miss in misses:
        print(f"MISS {miss}")
    return 1 if disagreements or misses else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
