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
from collections.abc import Iterator
from dataclasses import dataclass, replace

from formscript.document.model import Span
from formscript.document.pyliteral import SourceLines

__all__ = ["Expectation", "call_forms", "catches", "expectations", "qualified_exception"]

#: Exception classes by qualified name, each with its base (None: the root).
_BASES: dict[str, str | None] = {
    "builtins.BaseException": None,
    "builtins.Exception": "builtins.BaseException",
    "builtins.ValueError": "builtins.Exception",
    "builtins.TypeError": "builtins.Exception",
    "builtins.RuntimeError": "builtins.Exception",
    "builtins.LookupError": "builtins.Exception",
    "builtins.KeyError": "builtins.LookupError",
    "builtins.IndexError": "builtins.LookupError",
    "builtins.AttributeError": "builtins.Exception",
    "builtins.AssertionError": "builtins.Exception",
    "builtins.NotImplementedError": "builtins.RuntimeError",
    "builtins.RecursionError": "builtins.RuntimeError",
    "builtins.OSError": "builtins.Exception",
    "builtins.FileNotFoundError": "builtins.OSError",
    "builtins.UnicodeError": "builtins.ValueError",
    "builtins.UnicodeDecodeError": "builtins.UnicodeError",
    "builtins.OverflowError": "builtins.ArithmeticError",
    "builtins.ArithmeticError": "builtins.Exception",
    "builtins.ZeroDivisionError": "builtins.ArithmeticError",
    "pydantic_core.ValidationError": "builtins.ValueError",
    "json.JSONDecodeError": "builtins.ValueError",
    "yaml.YAMLError": "builtins.Exception",
    "lionagi.testing.ScriptExhaustedError": "builtins.RuntimeError",
}
#: Other names of the same classes.
_ALIASES: dict[str, str] = {
    "pydantic.ValidationError": "pydantic_core.ValidationError",
    "pydantic_core._pydantic_core.ValidationError": "pydantic_core.ValidationError",
    "pydantic.v1.ValidationError": "",  # another class: pydantic v1's, which lionagi never raises
    "json.decoder.JSONDecodeError": "json.JSONDecodeError",
    "yaml.error.YAMLError": "yaml.YAMLError",
    "lionagi.testing._script.ScriptExhaustedError": "lionagi.testing.ScriptExhaustedError",
    "builtins.IOError": "builtins.OSError",
    "builtins.EnvironmentError": "builtins.OSError",
}
#: How a class is shown: its usual name.
_SHOWN: dict[str, str] = {
    "pydantic_core.ValidationError": "ValidationError",
    "json.JSONDecodeError": "JSONDecodeError",
    "yaml.YAMLError": "yaml.YAMLError",
    "lionagi.testing.ScriptExhaustedError": "ScriptExhaustedError",
}
_BUILTIN_NAMES = frozenset(name.rpartition(".")[2] for name in _BASES if name.startswith("builtins."))


def qualified_exception(name: str) -> str | None:
    """The class *name* (qualified: ``pydantic.ValidationError``) is, as :data:`_BASES` knows it."""
    name = _ALIASES.get(name, name)
    return name if name in _BASES else None


def shown(name: str) -> str:
    """A class as a user writes it (``ValidationError``, ``TypeError``)."""
    return _SHOWN.get(name, name.rpartition(".")[2])


def catches(classes: tuple[str, ...], raised: str) -> bool:
    """Whether an ``except`` of *classes* (qualified, known) catches *raised*."""
    current: str | None = raised
    while current is not None:
        if current in classes:
            return True
        current = _BASES.get(current)
    return False


@dataclass(frozen=True)
class Expectation:
    """What a test states about the outcome of one call.

    ``outcome`` is ``raises`` (the call raises one of ``classes``; None when a class is not
    known), ``error_status`` (the form it returns has status ``error``), ``rule_fails`` (the
    rule or rule set it builds reports a failure), ``exit_1`` (lionagi's command line
    returns 1 for the form written) or ``discarded`` (a ``fill_form`` / ``validate_form``
    made on its own: the form it returns is not looked at). ``by`` is the statement as written, at ``span``. For
    ``raises``: ``first`` — nothing that can raise runs in the block before the call;
    ``last`` — nothing that can raise runs after it; ``strict`` — an ``xfail`` that fails
    when the test passes (True for a block).
    """

    outcome: str
    by: str
    span: Span
    classes: tuple[str, ...] | None = None
    first: bool = False
    last: bool = False
    strict: bool = True
    xfail: bool = False
    #: An outer block that expects an exception too (nested ``with``).
    outer: Expectation | None = None
    #: For ``rule_fails`` / ``rule_passes``: the WorkForm call the rule is applied to.
    subject: ast.Call | None = None
    #: What the block raises after the call when the call returns: an assertion on its
    #: result that fails (``assert result is None``), else None.
    after: str | None = None
    #: The pattern the exception's message must contain (``match=``, ``assertRaisesRegex``)
    #: when it is written as a string (None: no pattern, or one known only at run time).
    match: str | None = None


# ---------------------------------------------------------------------------- names


class _Names:
    """What the names of a file stand for: its imports, and whether it rebinds a builtin."""

    def __init__(self, tree: ast.Module) -> None:
        self.imports: dict[str, str] = {}
        self.bound: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.imports[alias.asname] = alias.name
                    else:
                        top = alias.name.partition(".")[0]
                        self.imports[top] = top
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                self.bound.add(node.name)
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                self.bound.add(node.id)

    def qualify(self, expr: ast.expr) -> str | None:
        if isinstance(expr, ast.Name):
            if expr.id in self.imports:
                return self.imports[expr.id]
            if expr.id in self.bound:
                return None
            return f"builtins.{expr.id}" if expr.id in _BUILTIN_NAMES else None
        if isinstance(expr, ast.Attribute):
            base = self.qualify(expr.value)
            return f"{base}.{expr.attr}" if base is not None else None
        return None

    def exceptions(self, expr: ast.expr | None) -> tuple[str, ...] | None:
        """The classes an ``except``-like argument names (None: one is not known)."""
        if expr is None:
            return None
        items = expr.elts if isinstance(expr, ast.Tuple) else [expr]
        found = []
        for item in items:
            name = self.qualify(item)
            known = qualified_exception(name) if name is not None else None
            if known is None:
                return None
            found.append(known)
        return tuple(found)

    def is_raises(self, call: ast.expr) -> bool:
        """``pytest.raises(...)`` or ``self.assertRaises(...)`` (and ``...Regex``)."""
        if not isinstance(call, ast.Call):
            return False
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("assertRaises", "assertRaisesRegex"):
            return isinstance(func.value, ast.Name) and func.value.id == "self"
        return self.qualify(func) in ("pytest.raises", "_pytest.python_api.raises", "_pytest.raises.raises")

    def is_xfail(self, decorator: ast.expr) -> ast.Call | None:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if self.qualify(target) != "pytest.mark.xfail":
            return None
        return decorator if isinstance(decorator, ast.Call) else ast.Call(func=target, args=[], keywords=[])


def call_forms(tree: ast.Module) -> set[int]:
    """Rewrite ``pytest.raises(E, func, *args, **kw)`` (and ``self.assertRaises(E, func,
    ...)``) as ``pytest.raises(E, func(*args, **kw))`` in *tree*, so the call ``func`` makes is
    found where its arguments are written; the ids of the calls made are returned."""
    names = _Names(tree)
    made: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or len(node.args) < 2 or not names.is_raises(node):
            continue
        if any(isinstance(a, ast.Starred) for a in node.args[:2]):
            continue
        func = node.args[1]
        if not isinstance(func, ast.Name | ast.Attribute):
            continue
        regex = isinstance(node.func, ast.Attribute) and node.func.attr == "assertRaisesRegex"
        rest = node.args[3:] if regex else node.args[2:]
        keywords = [k for k in node.keywords if not (regex and k.arg == "expected_regex")]
        last: ast.expr = keywords[-1].value if keywords else rest[-1] if rest else func
        call = ast.Call(func=func, args=list(rest), keywords=keywords)
        call.lineno, call.col_offset = func.lineno, func.col_offset
        call.end_lineno, call.end_col_offset = last.end_lineno, last.end_col_offset
        node.args = [node.args[0], call]
        node.keywords = []
        made.add(id(call))
    return made


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
        return all(k is not None and _quiet(k) and isinstance(k, ast.Constant) for k in expr.keys) and all(
            _quiet(v) for v in expr.values
        )
    return False


def _quiet_statement(statement: ast.stmt, calls: frozenset[int] = frozenset()) -> bool:
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
    def __init__(
        self, tree: ast.Module, lines: SourceLines, wanted: set[int], quiet: frozenset[int] = frozenset()
    ) -> None:
        self.quiet = quiet
        self.names = _Names(tree)
        self.lines = lines
        self.wanted = wanted
        self.found: dict[int, Expectation] = {}
        self.tree = tree

    def written(self, node: ast.AST) -> tuple[str, Span]:
        """*node* as written (its first line, when it runs over several), and its span."""
        span = self.lines.span(node)
        source = self.lines.source(span)
        return source.split("\n", 1)[0].rstrip() + (" ..." if "\n" in source else ""), span

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
                quiet = _Block(statement.body, block.expectation, block.before_quiet, block.after_quiet)
                if body is block.body:
                    index = next(i for i, s in enumerate(body) if s is statement)
                    quiet.before_quiet = block.before_quiet and all(
                        _quiet_statement(s, self.quiet) for s in body[:index]
                    )
                    quiet.after_quiet = block.after_quiet and all(
                        _quiet_statement(s, self.quiet) for s in body[index + 1 :]
                    )
                else:
                    quiet.before_quiet = quiet.after_quiet = False
                self._statements(statement.body, [*blocks[:-1], quiet])
                return
            if raising:
                call = raising[-1]
                assert isinstance(call, ast.Call)
                by, span = self.written(call)
                argument = (
                    call.args[0]
                    if call.args
                    else next((k.value for k in call.keywords if k.arg in ("expected_exception", "exception")), None)
                )
                outer = blocks[-1].expectation if blocks else None
                expectation = Expectation(
                    "raises", by, span, self.names.exceptions(argument), outer=outer, match=_pattern(call)
                )
                self._statements(statement.body, [*blocks, _Block(statement.body, expectation)])
            else:
                self._statements(statement.body, blocks)
            return
        # Any other statement: its expressions, then the statements it holds.
        for field_name, value in ast.iter_fields(statement):
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
            del field_name

    def _expression(self, expr: ast.expr, statement: ast.stmt, body: list[ast.stmt], blocks: list[_Block]) -> None:
        for node in ast.walk(expr):
            if isinstance(node, ast.Call) and id(node) in self.wanted:
                found = self._in_blocks(node, statement, body, blocks)
                if found is not None:
                    self.found[id(node)] = found
            elif isinstance(node, ast.Call) and self.names.is_raises(node) and len(node.args) == 2:
                made = node.args[1]
                if isinstance(made, ast.Call) and id(made) in self.wanted and _unconditional(statement, node):
                    by, span = self.written(node)
                    outer = blocks[-1].expectation if blocks else None
                    self.found[id(made)] = Expectation(
                        "raises",
                        by,
                        span,
                        self.names.exceptions(node.args[0]),
                        first=True,
                        last=True,
                        outer=outer,
                    )

    def _in_blocks(
        self, call: ast.Call, statement: ast.stmt, body: list[ast.stmt], blocks: list[_Block]
    ) -> Expectation | None:
        if not blocks:
            return None
        block = blocks[-1]
        expectation = block.expectation
        if body is not block.body:  # inside a compound statement of the block
            return _with_position(expectation, first=False, last=False)
        index = next(i for i, s in enumerate(body) if s is statement)
        first = block.before_quiet and _unconditional(statement, call)
        first = first and all(_quiet_statement(s, self.quiet) for s in body[:index])
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

    def _quiet_with(self, statement: ast.With | ast.AsyncWith) -> bool:
        """Whether entering and leaving *statement*'s context managers neither raises nor
        swallows an exception (``warnings.catch_warnings()``, ``caplog.at_level(...)``)."""
        for item in statement.items:
            made = item.context_expr
            if not isinstance(made, ast.Call) or not all(_quiet(a) for a in made.args):
                return False
            if not all(_quiet(k.value) for k in made.keywords):
                return False
            known = self.names.qualify(made.func) == "warnings.catch_warnings"
            at_level = isinstance(made.func, ast.Attribute) and made.func.attr == "at_level"
            if not (known or at_level):
                return False
        return True

    def _xfail(self, marked: ast.Call) -> Expectation:
        by, span = self.written(marked)
        raises = next((k.value for k in marked.keywords if k.arg == "raises"), None)
        classes: tuple[str, ...] | None = ("builtins.BaseException",)
        if raises is not None:
            classes = self.names.exceptions(raises)
        strict_node = next((k.value for k in marked.keywords if k.arg == "strict"), None)
        strict = isinstance(strict_node, ast.Constant) and strict_node.value is True
        conditional = bool(marked.args) or any(k.arg == "condition" for k in marked.keywords)
        if conditional:  # xfail(condition, ...): whether it applies is known at run time
            classes = None
        return Expectation("raises", by, span, classes, strict=strict, xfail=True)


def _pattern(call: ast.Call) -> str | None:
    """The message pattern of ``pytest.raises(E, match=...)`` / ``self.assertRaisesRegex(E,
    regex)`` when it is written as a string."""
    regex = isinstance(call.func, ast.Attribute) and call.func.attr == "assertRaisesRegex"
    written = next((k.value for k in call.keywords if k.arg == ("expected_regex" if regex else "match")), None)
    if regex and written is None and len(call.args) > 1:
        written = call.args[1]
    if isinstance(written, ast.Constant) and isinstance(written.value, str):
        return written.value
    return None


def _with_position(expectation: Expectation, *, first: bool, last: bool) -> Expectation:
    return replace(expectation, first=first, last=last)


# ---------------------------------------------------------------------------- assertions on returns


def _functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
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
    for node in _own_nodes(function):
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
    for node in _own_nodes(function):
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
        status = isinstance(left, ast.Attribute) and left.attr == "status" and isinstance(right, ast.Constant)
        if (
            status
            and isinstance(left, ast.Attribute)
            and isinstance(right, ast.Constant)
            and _same(left.value, call, assigned)
        ):
            return (isinstance(op, ast.Eq) and right.value == "error") or (
                isinstance(op, ast.NotEq) and right.value == "validated"
            )
        if isinstance(left, ast.Call) and _len_of(left) is not None and isinstance(right, ast.Constant):
            inner = _len_of(left)
            if (
                isinstance(inner, ast.Attribute)
                and inner.attr == "validation_errors"
                and _same(inner.value, call, assigned)
            ):
                return _positive(op, right.value)
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
    if isinstance(op, ast.Gt | ast.NotEq):
        return value == 0 if isinstance(op, ast.NotEq) else value >= 0
    if isinstance(op, ast.GtE | ast.Eq):
        return value >= 1
    return False


def _says_failure(test: ast.expr, result: ast.Call, assigned: dict[str, list[ast.expr]]) -> bool:
    """``R is not None``, ``R``, ``"..." in R``, ``len(R) > 0`` with R the result given (for
    ``apply_all``, whose result is a list and never None, not ``is not None``)."""
    if _same(test, result, assigned):
        return True
    listed = isinstance(result.func, ast.Attribute) and result.func.attr == "apply_all"
    if listed and isinstance(test, ast.Compare) and isinstance(test.ops[0], ast.IsNot | ast.NotEq):
        right = test.comparators[0]
        if isinstance(right, ast.Constant) and right.value is None:
            return False
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, ast.IsNot) and isinstance(right, ast.Constant) and right.value is None:
            return _same(left, result, assigned)
        if isinstance(op, ast.NotEq) and isinstance(right, ast.Constant) and right.value is None:
            return _same(left, result, assigned)
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


def _method_results(
    function: ast.FunctionDef | ast.AsyncFunctionDef, made: ast.Call, methods: tuple[str, ...]
) -> list[ast.Call]:
    """The calls ``x.<method>(...)`` in *function* with x the object *made* builds (the call
    itself, or a name assigned only it)."""
    assigned = _assigned(function)
    found = []
    for node in _own_nodes(function):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr in methods and _same(node.func.value, made, assigned):
            found.append(node)
    return found


def _returns_expectations(
    tree: ast.Module, names: _Names, lines: SourceLines, semantic: dict[int, str], found: dict[int, Expectation]
) -> None:
    walker = _Walker(tree, lines, set())
    for function in _functions(tree):
        own = {id(n): n for n in _own_nodes(function) if isinstance(n, ast.Call)}
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
                    by, span = walker.written(hit)
                    found[id(call)] = Expectation("error_status", f"assert {by}", span)
                elif any(isinstance(n, ast.Expr) and n.value is call for n in _own_nodes(function)):
                    by, span = walker.written(call)
                    found[id(call)] = Expectation("discarded", by, span)
            elif kind in ("rule", "ruleset"):
                for applied in _method_results(function, call, ("apply", "apply_all")):
                    subject = _form_of(applied, assigned)
                    hit = next((t for t in tests if _says_failure(t, applied, assigned)), None)
                    outcome = "rule_fails"
                    if hit is None:
                        hit = next((t for t in tests if _says_pass(t, applied, assigned)), None)
                        outcome = "rule_passes"
                    if hit is not None:
                        by, span = walker.written(hit)
                        found[id(call)] = Expectation(outcome, f"assert {by}", span, subject=subject)
                        break
            elif kind == "written_form":
                hit = next((t for t in tests if _says_exit_1(t, names, assigned)), None)
                if hit is not None:
                    by, span = walker.written(hit)
                    found[id(call)] = Expectation("exit_1", f"assert {by}", span)


def _says_exit_1(test: ast.expr, names: _Names, assigned: dict[str, list[ast.expr]]) -> bool:
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


def expectations(
    tree: ast.Module, lines: SourceLines, calls: dict[int, str], quiet: frozenset[int] = frozenset()
) -> dict[int, Expectation]:
    """What a test file (*tree*, its *lines*) states about each call in *calls* (``id`` of the
    ``ast.Call`` -> how lionagi reads it: an ``Embedded.semantic``, or ``written_form`` for a
    form written to a file), by the call's id; calls about which it states nothing are left out.
    *quiet*: the calls known not to raise (documents lionagi accepts)."""
    found = _Walker(tree, lines, set(calls), quiet).run()
    _returns_expectations(tree, _Names(tree), lines, calls, found)
    return found


def applications(
    tree: ast.Module, lines: SourceLines, calls: dict[int, str], quiet: frozenset[int] = frozenset()
) -> dict[int, list[tuple[ast.Call, Expectation]]]:
    """For each ``Rule(...)`` / rule set call of *calls*, the ``apply(form)`` /
    ``apply_all(form)`` calls made on what it builds in a block that expects an exception,
    with that expectation (by the rule call's id)."""
    made: dict[int, int] = {}
    for function in _functions(tree):
        own = {id(n): n for n in _own_nodes(function) if isinstance(n, ast.Call)}
        for key, kind in calls.items():
            if kind in ("rule", "ruleset") and key in own:
                for applied in _method_results(function, own[key], ("apply", "apply_all")):
                    made[id(applied)] = key
    if not made:
        return {}
    walker = _Walker(tree, lines, set(made), quiet)
    found = walker.run()
    nodes = {id(n): n for n in ast.walk(tree) if isinstance(n, ast.Call) and id(n) in found}
    result: dict[int, list[tuple[ast.Call, Expectation]]] = {}
    for key, expectation in found.items():
        result.setdefault(made[key], []).append((nodes[key], expectation))
    return result
