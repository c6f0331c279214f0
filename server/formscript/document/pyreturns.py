"""Assertions on what a call returns (``pyexpect``): ``fill_form(...)`` / ``validate_form(...)``
asserted to have ``status == "error"``, a rule's ``apply(form)`` asserted not None, a rule set's
``apply_all(form)`` asserted non-empty, lionagi's command line asserted to return 1."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from formscript.document.pyexceptions import Expectation, Names, written
from formscript.document.pyliteral import SourceLines


def functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of *function*'s body, not those of functions or classes inside it."""
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _assigned(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[ast.expr]]:
    """Each name of *function* and the values assigned to it."""
    values: dict[str, list[ast.expr]] = {}
    for node in own_nodes(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values.setdefault(target.id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            values.setdefault(node.target.id, []).append(node.value)
    return values


def _asserted(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr]:
    """The expressions *function* asserts (``assert a and b`` gives both)."""
    tests: list[ast.expr] = []
    for node in own_nodes(function):
        if isinstance(node, ast.Assert):
            stack = [node.test]
            while stack:
                test = stack.pop()
                if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
                    stack.extend(test.values)
                else:
                    tests.append(test)
    return tests


def _same(expr: ast.expr, value: ast.expr, assigned: dict[str, list[ast.expr]]) -> bool:
    """Whether *expr* is *value*, or a name assigned only *value*."""
    if expr is value:
        return True
    if isinstance(expr, ast.Name):
        bound = assigned.get(expr.id, [])
        return len(bound) == 1 and bound[0] is value
    return False


def _says_error_status(test: ast.expr, call: ast.Call, assigned: dict[str, list[ast.expr]]) -> bool:
    """``X.status == "error"``, ``X.status != "validated"`` or ``X.validation_errors`` (truthy,
    ``len(...) > 0``) with X the call's result."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(right, ast.Attribute) and isinstance(left, ast.Constant):
            left, right = right, left
        if not isinstance(right, ast.Constant):
            return False
        if isinstance(left, ast.Attribute) and left.attr == "status" and _same(left.value, call, assigned):
            if isinstance(op, ast.Eq):
                return bool(right.value == "error")
            return isinstance(op, ast.NotEq) and right.value == "validated"
        inner = _len_of(left)
        if isinstance(inner, ast.Attribute) and inner.attr == "validation_errors":
            return _same(inner.value, call, assigned) and _positive(op, right.value)
    if isinstance(test, ast.Attribute) and test.attr == "validation_errors":
        return _same(test.value, call, assigned)
    return False


def _len_of(expr: ast.expr) -> ast.expr | None:
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" and len(expr.args) == 1:
        return expr.args[0]
    return None


def _positive(op: ast.cmpop, value: object) -> bool:
    """Whether ``n <op> value`` says n > 0."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    if isinstance(op, ast.NotEq):
        return value == 0
    if isinstance(op, ast.Gt):
        return value >= 0
    return isinstance(op, ast.GtE | ast.Eq) and value >= 1


def _says_failure(test: ast.expr, result: ast.Call, assigned: dict[str, list[ast.expr]]) -> bool:
    """``R is not None``, ``R``, ``"..." in R``, ``len(R) > 0`` with R the result given (for
    ``apply_all``, whose result is a list and never None, not ``is not None``)."""
    if _same(test, result, assigned):
        return True
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, ast.IsNot | ast.NotEq) and isinstance(right, ast.Constant) and right.value is None:
            listed = isinstance(result.func, ast.Attribute) and result.func.attr == "apply_all"
            return not listed and _same(left, result, assigned)
        if isinstance(op, ast.NotEq) and isinstance(right, ast.List) and not right.elts:
            return _same(left, result, assigned)
        if isinstance(op, ast.In) and isinstance(left, ast.Constant) and isinstance(left.value, str):
            return _same(right, result, assigned)
        inner = _len_of(left)
        if inner is not None and isinstance(right, ast.Constant):
            return _same(inner, result, assigned) and _positive(op, right.value)
    return False


def _says_pass(test: ast.expr, result: ast.expr, assigned: dict[str, list[ast.expr]]) -> bool:
    """``R is None``, ``not R``, ``R == []`` with R the result given."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _same(test.operand, result, assigned)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, ast.Is) and isinstance(right, ast.Constant) and right.value is None:
            return _same(left, result, assigned)
        if isinstance(op, ast.Eq) and isinstance(right, ast.List) and not right.elts:
            return _same(left, result, assigned)
    return False


def _form_of(applied: ast.Call, assigned: dict[str, list[ast.expr]]) -> ast.Call | None:
    """The ``WorkForm(...)`` call *applied* (``rule.apply(form)``) is given, written there or
    bound once to a name."""
    if len(applied.args) != 1 or applied.keywords:
        return None
    given = applied.args[0]
    if isinstance(given, ast.Name):
        bound = assigned.get(given.id, [])
        given = bound[0] if len(bound) == 1 else given
    return given if isinstance(given, ast.Call) else None


def method_results(
    function: ast.FunctionDef | ast.AsyncFunctionDef, made: ast.Call, methods: tuple[str, ...]
) -> list[ast.Call]:
    """The calls ``x.<method>(...)`` in *function* with x the object *made* builds (the call
    itself, or a name assigned only it)."""
    assigned = _assigned(function)
    found = []
    for node in own_nodes(function):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr in methods and _same(node.func.value, made, assigned):
            found.append(node)
    return found


def returns_expectations(
    tree: ast.Module, names: Names, lines: SourceLines, semantic: dict[int, str], found: dict[int, Expectation]
) -> None:
    for function in functions(tree):
        own = {id(n): n for n in own_nodes(function) if isinstance(n, ast.Call)}
        mine = [(own[key], kind) for key, kind in semantic.items() if key in own]
        if not mine:
            continue
        assigned = _assigned(function)
        tests = _asserted(function)
        for call, kind in mine:
            if id(call) in found:
                continue
            if kind in ("fill_form", "validate_form"):
                hit = next((t for t in tests if _says_error_status(t, call, assigned)), None)
                if hit is not None:
                    by, span = written(lines, hit)
                    found[id(call)] = Expectation("error_status", f"assert {by}", span)
                elif any(isinstance(n, ast.Expr) and n.value is call for n in own_nodes(function)):
                    by, span = written(lines, call)
                    found[id(call)] = Expectation("discarded", by, span)
            elif kind in ("rule", "ruleset"):
                for applied in method_results(function, call, ("apply", "apply_all")):
                    subject = _form_of(applied, assigned)
                    hit = next((t for t in tests if _says_failure(t, applied, assigned)), None)
                    outcome = "rule_fails"
                    if hit is None:
                        hit = next((t for t in tests if _says_pass(t, applied, assigned)), None)
                        outcome = "rule_passes"
                    if hit is not None:
                        by, span = written(lines, hit)
                        found[id(call)] = Expectation(outcome, f"assert {by}", span, subject=subject)
                        break
            elif kind == "written_form":
                hit = next((t for t in tests if _says_exit_1(t, names, assigned)), None)
                if hit is not None:
                    by, span = written(lines, hit)
                    found[id(call)] = Expectation("exit_1", f"assert {by}", span)


def _says_exit_1(test: ast.expr, names: Names, assigned: dict[str, list[ast.expr]]) -> bool:
    """``<lionagi.cli function>(...) == 1`` (also through a name assigned only that call)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
    if not (isinstance(right, ast.Constant) and right.value == 1 and not isinstance(right.value, bool)):
        return False
    if isinstance(left, ast.Name):
        bound = assigned.get(left.id, [])
        if len(bound) != 1:
            return False
        left = bound[0]
    if isinstance(left, ast.Await):
        left = left.value
    if not isinstance(left, ast.Call):
        return False
    qualified = names.qualify(left.func)
    return qualified is not None and qualified.startswith("lionagi.cli.")
