"""What a test's statements about exceptions are made of (``pyexpect``): exception classes by
qualified name and which catch which, the names a test file imports, the ``Expectation`` a
statement gives, and the call forms of ``pytest.raises`` rewritten as calls."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from formscript.document.model import Span
from formscript.document.pyliteral import SourceLines
from formscript.document.pyscopes import imported

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


class Names:
    """What the names of a file stand for: its imports, and whether it rebinds a builtin."""

    def __init__(self, tree: ast.Module) -> None:
        self.imports: dict[str, str] = {}
        self.bound: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                self.imports.update((name, qualified) for name, qualified in imported(node) if qualified is not None)
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
        found = []
        for item in expr.elts if isinstance(expr, ast.Tuple) else [expr]:
            name = self.qualify(item)  # qualified (``pydantic.ValidationError``), as _BASES knows it
            known = _ALIASES.get(name, name) if name is not None else None
            if known is None or known not in _BASES:
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
    names = Names(tree)
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


def written(lines: SourceLines, node: ast.AST) -> tuple[str, Span]:
    """*node* as written (its first line, when it runs over several), and its span."""
    span = lines.span(node)
    source = lines.source(span)
    return source.split("\n", 1)[0].rstrip() + (" ..." if "\n" in source else ""), span
