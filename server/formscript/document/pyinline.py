"""A call of one of the module's own small functions, read as what it returns.

Test suites build entries with helpers (``_when("marker", payload)`` returning a dict) and
write scripts with helpers (``_write_script(tmp_path, monkeypatch, entries)``). Read with
``ast`` alone, such a call is only known at run time; one level into the function, it often
is not: the function returns one expression of its parameters, or writes one. These helpers
bind a call's arguments to a function's parameters as Python would, and give the function's
returned expression with each parameter replaced by the argument given (the argument's own
nodes, so what is found in them is located where the call writes it).
"""

from __future__ import annotations

import ast
import copy

__all__ = ["bind_arguments", "returned", "substituted"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


def bind_arguments(function: Function, call: ast.Call) -> dict[str, ast.expr] | None:
    """Each parameter of *function* and the expression *call* gives it (its default when the
    call gives none); None when Python would refuse the call, or the binding is not plain
    (``*args``, ``**kwargs``, a ``*`` or ``**`` in the call)."""
    args = function.args
    if args.vararg is not None or args.kwarg is not None:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    positional = [*args.posonlyargs, *args.args]
    if len(call.args) > len(positional):
        return None
    bound = {parameter.arg: given for parameter, given in zip(positional, call.args, strict=False)}
    by_keyword = {a.arg for a in args.args} | {a.arg for a in args.kwonlyargs}
    for keyword in call.keywords:
        name = keyword.arg
        if name is None or name not in by_keyword or name in bound:
            return None
        bound[name] = keyword.value
    defaults = dict(
        zip([a.arg for a in positional][len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None})
    for parameter in (*positional, *args.kwonlyargs):
        if parameter.arg not in bound:
            if parameter.arg not in defaults:
                return None
            bound[parameter.arg] = defaults[parameter.arg]
    return bound


def returned(function: Function) -> ast.expr | None:
    """The expression *function* returns when its body is only that ``return`` (after a
    docstring); None for any other body."""
    body = list(function.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    if isinstance(function, ast.AsyncFunctionDef):
        return None  # a call of it makes a coroutine, not the value
    return body[0].value


class _Substitute(ast.NodeTransformer):
    def __init__(self, bound: dict[str, ast.expr]) -> None:
        self.bound = bound

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.bound:
            return self.bound[node.id]
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.expr:
        return node  # its own parameters: left alone (read as a run-time value anyway)


def substituted(expression: ast.expr, bound: dict[str, ast.expr]) -> ast.expr:
    """A copy of *expression* with each name of *bound* replaced by its expression (those
    nodes themselves, not copies)."""
    copied = copy.deepcopy(expression)
    result = _Substitute(bound).visit(copied)
    assert isinstance(result, ast.expr)
    return result


def free_names(expression: ast.expr, given: list[ast.expr]) -> set[str]:
    """The names *expression* reads, outside the subtrees of *given* (the arguments put in)."""
    inside = {id(n) for g in given for n in ast.walk(g)}
    return {
        n.id
        for n in ast.walk(expression)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in inside
    }
