"""What a Python test itself says about the outcome of a call: read with ``ast``, never run.

A test that proves lionagi refuses bad input builds a broken script or form on purpose and
states the outcome it expects. formscript's prediction is then compared with that statement
instead of being reported as a problem of the test. The statements understood:

- the call inside ``with pytest.raises(E)`` (``match=``, a tuple of classes, several items,
  nested blocks) and ``with self.assertRaises(E)`` / ``assertRaisesRegex``;
- the call forms ``pytest.raises(E, func, *args, **kwargs)`` and
  ``self.assertRaises(E, func, *args, **kwargs)``: :func:`call_forms` rewrites them, in the
  tree, as ``pytest.raises(E, func(*args, **kwargs))`` so the call is found like any other;
- a test marked ``@pytest.mark.xfail(raises=E, strict=...)`` (no ``raises``: any exception);
- assertions on what a call returns: ``fill_form(...)`` / ``validate_form(...)`` asserted to
  have ``status == "error"`` (or validation errors), a ``Rule``'s ``apply(form)`` asserted
  not None, a ``RuleSet``'s ``apply_all(form)`` asserted non-empty, and lionagi's command line
  (any function of ``lionagi.cli``) asserted to return 1, for the forms the test writes.

For a block that expects an exception, :class:`Expectation` says whether the call is the
first thing in the block that can raise (``first``: a refusal there surely reaches the
block) and the last (``last``: when lionagi accepts, nothing else in the block raises).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from formscript.document.pyexceptions import Expectation, Names, call_forms, catches, shown, written
from formscript.document.pyliteral import SourceLines
from formscript.document.pyreturns import functions, method_results, own_nodes, returns_expectations

__all__ = ["Expectation", "applications", "call_forms", "catches", "expectations", "shown"]


# ---------------------------------------------------------------------------- the walk

#: Statements that cannot raise when their values are literals.
_QUIET_STATEMENTS = (ast.Pass, ast.Import, ast.ImportFrom)


def _quiet(expr: ast.expr | None) -> bool:
    """Whether evaluating *expr* cannot raise (constants, names, literal containers)."""
    if expr is None:
        return True
    if isinstance(expr, ast.Constant | ast.Name):
        return True
    if isinstance(expr, ast.List | ast.Tuple | ast.Set):
        return all(_quiet(e) for e in expr.elts)
    if isinstance(expr, ast.Dict):
        return all(isinstance(k, ast.Constant) for k in expr.keys) and all(_quiet(v) for v in expr.values)
    return False


def _quiet_statement(statement: ast.stmt, calls: frozenset[int]) -> bool:
    """Whether running *statement* cannot raise: literals assigned to names, or a call of
    *calls* (documents lionagi accepts) assigned or made on its own."""
    value = getattr(statement, "value", None)
    if isinstance(value, ast.Call) and id(value) in calls:
        if isinstance(statement, ast.Expr):
            return True
        if isinstance(statement, ast.Assign) and all(isinstance(t, ast.Name) for t in statement.targets):
            return True
    if isinstance(statement, _QUIET_STATEMENTS):
        return True
    if isinstance(statement, ast.Expr):
        return isinstance(statement.value, ast.Constant)
    if isinstance(statement, ast.Assign):
        return all(isinstance(t, ast.Name) for t in statement.targets) and _quiet(statement.value)
    if isinstance(statement, ast.AnnAssign):
        return isinstance(statement.target, ast.Name) and _quiet(statement.value)
    return False


def _unconditional(statement: ast.stmt, call: ast.Call) -> bool:
    """Whether running *statement* surely evaluates *call* (not under a lambda, a
    comprehension, a conditional branch, or the right side of ``and`` / ``or``)."""
    if not isinstance(statement, ast.Expr | ast.Assign | ast.AnnAssign | ast.AugAssign | ast.Return):
        return False
    for parent, child in _path(statement, call):
        if isinstance(parent, ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            return False
        if isinstance(parent, ast.IfExp) and child is not parent.test:
            return False
        if isinstance(parent, ast.BoolOp) and child is not parent.values[0]:
            return False
    return True


def _path(root: ast.AST, target: ast.AST) -> list[tuple[ast.AST, ast.AST]]:
    """The (parent, child) pairs from *root* down to *target* (empty when not below it)."""
    for child in ast.iter_child_nodes(root):
        if child is target:
            return [(root, child)]
        below = _path(child, target)
        if below:
            return [(root, child), *below]
    return []


def _result_name(statement: ast.stmt) -> str | None:
    """The one name *statement* assigns its value to."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id
    return None


def _assertion_on(statement: ast.stmt, name: str | None) -> str | None:
    """``holds`` for ``assert name is not None`` (a call that returns gives an object),
    ``fails`` for ``assert name is None``; None for anything else."""
    if name is None or not isinstance(statement, ast.Assert):
        return None
    test = statement.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)):
        return None
    right = test.comparators[0]
    if test.left.id != name or not (isinstance(right, ast.Constant) and right.value is None):
        return None
    if isinstance(test.ops[0], ast.IsNot):
        return "holds"
    if isinstance(test.ops[0], ast.Is):
        return "fails"
    return None


def _outermost(statement: ast.stmt, call: ast.Call) -> bool:
    """Whether *call* is what *statement* does last: its whole value, assigned to names."""
    if isinstance(statement, ast.Expr | ast.Return):
        return statement.value is call
    if isinstance(statement, ast.Assign):
        return statement.value is call and all(isinstance(t, ast.Name) for t in statement.targets)
    if isinstance(statement, ast.AnnAssign):
        return statement.value is call and isinstance(statement.target, ast.Name)
    return False


@dataclass
class _Block:
    """A block that expects an exception: its statements and what it states."""

    body: list[ast.stmt]
    expectation: Expectation
    #: For the body of a quiet ``with`` inside the block: whether the block's statements
    #: before it, and after it, can raise.
    before_quiet: bool = True
    after_quiet: bool = True


class _Walker:
    def __init__(self, tree: ast.Module, lines: SourceLines, wanted: set[int], quiet: frozenset[int]) -> None:
        self.quiet = quiet
        self.names = Names(tree)
        self.lines = lines
        self.wanted = wanted
        self.found: dict[int, Expectation] = {}
        self.tree = tree

    def run(self) -> dict[int, Expectation]:
        self._statements(self.tree.body, [])
        return self.found

    def _statements(self, body: list[ast.stmt], blocks: list[_Block]) -> None:
        for statement in body:
            self._statement(statement, body, blocks)

    def _statement(self, statement: ast.stmt, body: list[ast.stmt], blocks: list[_Block]) -> None:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            inner: list[_Block] = []
            for decorator in statement.decorator_list:
                marked = self.names.is_xfail(decorator)
                if marked is not None:
                    inner = [_Block(statement.body, self._xfail(marked))]
            self._statements(statement.body, inner)
            return
        if isinstance(statement, ast.ClassDef):
            self._statements(statement.body, [])
            return
        if isinstance(statement, ast.With | ast.AsyncWith):
            raising = [item.context_expr for item in statement.items if self.names.is_raises(item.context_expr)]
            for item in statement.items:
                self._expression(item.context_expr, statement, body, blocks)
            if not raising and blocks and self._quiet_with(statement):
                block = blocks[-1]
                inside = body is block.body  # else within a compound statement of the block
                index = body.index(statement) if inside else 0
                before = inside and block.before_quiet and self._all_quiet(body[:index])
                after = inside and block.after_quiet and self._all_quiet(body[index + 1 :])
                quiet = _Block(statement.body, block.expectation, before, after)
                self._statements(statement.body, [*blocks[:-1], quiet])
                return
            if raising:
                call = raising[-1]
                assert isinstance(call, ast.Call)
                by, span = written(self.lines, call)
                named = next((k.value for k in call.keywords if k.arg in ("expected_exception", "exception")), None)
                argument = call.args[0] if call.args else named
                outer = blocks[-1].expectation if blocks else None
                expectation = Expectation(
                    "raises", by, span, self.names.exceptions(argument), outer=outer, match=_pattern(call)
                )
                blocks = [*blocks, _Block(statement.body, expectation)]
            self._statements(statement.body, blocks)
            return
        # Any other statement: its expressions, then the statements it holds.
        for _, value in ast.iter_fields(statement):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                self._statements(value, blocks)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.expr):
                        self._expression(item, statement, body, blocks)
                    elif isinstance(item, ast.ExceptHandler | ast.match_case):
                        self._statements(item.body, blocks)
            elif isinstance(value, ast.expr):
                self._expression(value, statement, body, blocks)

    def _expression(self, expr: ast.expr, statement: ast.stmt, body: list[ast.stmt], blocks: list[_Block]) -> None:
        for node in ast.walk(expr):
            if isinstance(node, ast.Call) and id(node) in self.wanted:
                found = self._in_blocks(node, statement, body, blocks)
                if found is not None:
                    self.found[id(node)] = found
            elif isinstance(node, ast.Call) and self.names.is_raises(node) and len(node.args) == 2:
                made = node.args[1]
                if isinstance(made, ast.Call) and id(made) in self.wanted and _unconditional(statement, node):
                    by, span = written(self.lines, node)
                    outer = blocks[-1].expectation if blocks else None
                    self.found[id(made)] = Expectation(
                        "raises", by, span, self.names.exceptions(node.args[0]), first=True, last=True, outer=outer
                    )

    def _in_blocks(
        self, call: ast.Call, statement: ast.stmt, body: list[ast.stmt], blocks: list[_Block]
    ) -> Expectation | None:
        if not blocks:
            return None
        block = blocks[-1]
        expectation = block.expectation
        if body is not block.body:  # inside a compound statement of the block
            return replace(expectation, first=False, last=False)
        index = body.index(statement)
        first = block.before_quiet and _unconditional(statement, call) and self._all_quiet(body[:index])
        last = first and _outermost(statement, call)
        result = _result_name(statement)
        after: str | None = None
        for later in body[index + 1 :]:
            if _quiet_statement(later, self.quiet):
                continue
            verdict = _assertion_on(later, result)
            if verdict == "holds":
                continue
            if verdict == "fails":
                after = "builtins.AssertionError"
            else:
                last = False
            break
        last = last and (after is not None or block.after_quiet)
        return replace(expectation, first=first, last=last, after=after if last else None)

    def _all_quiet(self, statements: list[ast.stmt]) -> bool:
        return all(_quiet_statement(s, self.quiet) for s in statements)

    def _quiet_with(self, statement: ast.With | ast.AsyncWith) -> bool:
        """Whether entering and leaving *statement*'s context managers neither raises nor
        swallows an exception (``warnings.catch_warnings()``, ``caplog.at_level(...)``)."""
        for item in statement.items:
            made = item.context_expr
            if not isinstance(made, ast.Call):
                return False
            if not all(_quiet(argument) for argument in [*made.args, *(k.value for k in made.keywords)]):
                return False
            known = self.names.qualify(made.func) == "warnings.catch_warnings"
            at_level = isinstance(made.func, ast.Attribute) and made.func.attr == "at_level"
            if not (known or at_level):
                return False
        return True

    def _xfail(self, marked: ast.Call) -> Expectation:
        by, span = written(self.lines, marked)
        given = {k.arg: k.value for k in marked.keywords}
        classes: tuple[str, ...] | None = ("builtins.BaseException",)  # no raises=: any exception
        if marked.args or "condition" in given:  # xfail(condition, ...): whether it applies is known at run time
            classes = None
        elif "raises" in given:
            classes = self.names.exceptions(given["raises"])
        strict = given.get("strict")
        return Expectation(
            "raises", by, span, classes, strict=isinstance(strict, ast.Constant) and strict.value is True, xfail=True
        )


def _pattern(call: ast.Call) -> str | None:
    """The message pattern of ``pytest.raises(E, match=...)`` / ``self.assertRaisesRegex(E,
    regex)`` when it is written as a string."""
    regex = isinstance(call.func, ast.Attribute) and call.func.attr == "assertRaisesRegex"
    pattern = next((k.value for k in call.keywords if k.arg == ("expected_regex" if regex else "match")), None)
    if regex and pattern is None and len(call.args) > 1:
        pattern = call.args[1]
    if isinstance(pattern, ast.Constant) and isinstance(pattern.value, str):
        return pattern.value
    return None


def expectations(
    tree: ast.Module, lines: SourceLines, calls: dict[int, str], quiet: frozenset[int]
) -> dict[int, Expectation]:
    """What a test file (*tree*, its *lines*) states about each call in *calls* (``id`` of the
    ``ast.Call`` -> how lionagi reads it: an ``Embedded.semantic``, or ``written_form`` for a
    form written to a file), by the call's id; calls about which it states nothing are left out.
    *quiet*: the calls known not to raise (documents lionagi accepts)."""
    found = _Walker(tree, lines, set(calls), quiet).run()
    returns_expectations(tree, Names(tree), lines, calls, found)
    return found


def applications(
    tree: ast.Module, lines: SourceLines, calls: dict[int, str], quiet: frozenset[int]
) -> dict[int, list[tuple[ast.Call, Expectation]]]:
    """For each ``Rule(...)`` / rule set call of *calls*, the ``apply(form)`` /
    ``apply_all(form)`` calls made on what it builds in a block that expects an exception,
    with that expectation (by the rule call's id)."""
    made: dict[int, int] = {}
    for function in functions(tree):
        own = {id(n): n for n in own_nodes(function) if isinstance(n, ast.Call)}
        for key, kind in calls.items():
            if kind in ("rule", "ruleset") and key in own:
                for applied in method_results(function, own[key], ("apply", "apply_all")):
                    made[id(applied)] = key
    if not made:
        return {}
    found = _Walker(tree, lines, set(made), quiet).run()
    nodes = {id(n): n for n in ast.walk(tree) if isinstance(n, ast.Call) and id(n) in found}
    result: dict[int, list[tuple[ast.Call, Expectation]]] = {}
    for key, expectation in found.items():
        result.setdefault(made[key], []).append((nodes[key], expectation))
    return result
