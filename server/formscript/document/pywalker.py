"""The walk every search of a Python file shares (``pyextract``): the file's scopes, names
resolved to what they stand for, the calls a name or attribute qualifies to, literals read as
``PyNode`` trees, helpers returning an expression followed, and the documents found so far;
with the helpers the searches share (arguments, placing a finding at a call)."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import re
from collections.abc import Iterator
from typing import Any

from formscript import rules
from formscript.core.verdict import Problem
from formscript.document.model import Span
from formscript.document.pyapi import ENTRY_MODELS, FIXTURES, MODELS, MUTATORS, TARGETS, Embedded
from formscript.document.pyinline import bind_arguments, free_names, returned, substituted
from formscript.document.pyliteral import LiteralReader, PyNode, SourceLines
from formscript.document.pyscopes import Collector, Scope, candidate_lines, meaning_of

#: How deep helpers returning an expression are followed into each other.
INLINED_DEPTH = 3


def yaml_named(name: str) -> bool:
    return name.endswith((".yaml", ".yml"))


def dumpable(root: PyNode) -> bool:
    """Whether ``yaml.safe_dump`` writes *root* (a mapping of plain data: no tuples or sets,
    scalar keys) so that loading the file gives it back."""
    if root.kind != "dict":
        return False
    for _path, key, node in root.walk():
        if node.kind == "seq" and node.seq_type is not list:
            return False
        if key is not None and key.kind != "scalar":
            return False
    return True


def written_in(node: PyNode, call: Span) -> bool:
    """Whether anything of *node* is written as a literal in the source (or raises): a
    scalar, a list or dict display, an f-string; not the mapping of a call's own keywords
    (spanning *call*, or a model call's), nor a container formscript adds, nor a part only
    known at run time."""
    if node.kind == "opaque":
        return bool(node.raises) or node.str_typed
    if node.kind == "scalar":
        return not node.synthetic
    if not node.synthetic and node.origin is None and node.span != call:
        return True  # a display written in the source
    if node.kind == "dict":
        return any(
            written_in(value, call) or (not key.identifier and written_in(key, call)) for key, value in node.pairs
        )
    return any(written_in(item, call) for item in node.items)


def force_type(node: PyNode, response_type: str, span: Span, problems: list[Problem] | None) -> None:
    """The ``type`` an entry model sets: added when not written; a different one refused."""
    written = node.child("type")
    if written is None:
        node.pairs.insert(0, (synthetic("type", span), synthetic(response_type, span)))
        return
    _key, value = written
    if value.kind == "scalar" and value.value == response_type:
        return
    if problems is not None:
        reason = f"input should be {response_type!r}"
        refused = rules.SC005.problem(
            path=(), index=0, response_type=response_type, where="type", reason=reason, value=value.materialize()
        )
        problems.append(placed_at(refused, value.span))
    node.pairs = [
        (synthetic("type", span), synthetic(response_type, span)) if v is value else (k, v) for k, v in node.pairs
    ]


def synthetic(value: Any, span: Span) -> PyNode:
    """A scalar the API adds (not in the source), placed at *span*."""
    return PyNode("scalar", span, value=value, synthetic=True)


def synthetic_mapping(span: Span, **members: Any) -> PyNode:
    """A mapping the API makes, placed at *span*: its keys, and its values that are no
    ``PyNode``, are not in the source."""
    pairs = [(synthetic(key, span), v if isinstance(v, PyNode) else synthetic(v, span)) for key, v in members.items()]
    return PyNode.mapping(span, pairs)


def placed_at(problem: Problem, span: Span) -> Problem:
    return dataclasses.replace(problem, span=span)


def argument_of(call: ast.Call, index: int | None, keyword: str) -> ast.expr | None:
    """The argument at position *index* or named *keyword* (None when absent or splatted)."""
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    if index is not None and index < len(call.args):
        if any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
            return None
        return call.args[index]
    return None


class Walker:
    """One Python file's walk: what every search of it reads and where it keeps what it finds."""

    def __init__(self, text: str, tree: ast.Module) -> None:
        self.text = text
        self.lines = SourceLines(text)
        self.pruned = candidate_lines(text, tree)
        collector = Collector(self.pruned)
        collector.run(tree)
        self.module_scope = collector.module
        self.calls = collector.calls
        self.stores = collector.stores
        #: Texts written to a file whose path is a name: the name, as written at the writer.
        self._written_to: list[tuple[Embedded, ast.Name, Scope]] = []
        self.scope_of: dict[int, Scope] = {id(call): scope for call, scope in self.calls}
        self.found: list[Embedded] = []
        self.by_call: dict[int, Embedded] = {}
        self._scope: Scope = collector.module
        self._problems: list[Problem] | None = None
        #: Model calls read as part of another document (not documents of their own).
        self._read_models: set[int] = set()
        #: ``add`` calls already taken into a ruleset chain.
        self._chained: set[int] = set()
        #: fill_form / validate_form documents and the WorkForm call they fill.
        self._sources: list[tuple[Embedded, ast.Call]] = []
        self._mutations: dict[str, bool] = {}
        #: How many helpers' returned expressions are being read, one inside the other.
        self._inlining = 0

    # -- names

    def resolve(self, name: ast.Name) -> ast.expr | None:
        meaning = meaning_of(self._scope.lookup(name.id))
        if meaning is not None and meaning[0] == "assign":
            outer = name.id not in self._scope.bindings
            if outer and self.pruned is not None and self._mutated_somewhere(name.id):
                return None  # perhaps in a body the collector did not enter
            value: ast.expr = meaning[1]
            return value
        return None

    def _mutated_somewhere(self, name: str) -> bool:
        """Whether the text changes *name* in place anywhere (a method that mutates, an item
        or augmented assignment): a conservative test over the source."""
        cached = self._mutations.get(name)
        if cached is None:
            pattern = re.compile(
                rf"(?<![\w.]){re.escape(name)}\s*(?:\.\s*(?:{'|'.join(sorted(MUTATORS - {'add'}))})\s*\("
                rf"|\[[^\]\n]*\]\s*(?:[-+*/|&]?=)(?!=)|[-+*/|&]=|\.__setitem__)"
            )
            cached = self._mutations[name] = pattern.search(self.text) is not None
        return cached

    def qualify(self, expr: ast.expr) -> str | None:
        if isinstance(expr, ast.Name):
            meaning = meaning_of(self._scope.lookup(expr.id))
            if meaning is None:
                return None
            kind, value = meaning
            if kind in ("import", "module"):
                return str(value)
            if kind == "param":
                return f"param:{value}"
            return None
        if isinstance(expr, ast.Attribute):
            base = self.qualify(expr.value)
            return f"{base}.{expr.attr}" if base is not None else None
        return None

    def target(self, func: ast.expr) -> tuple[str, str | None] | None:
        """The API object a callee is (name, method), or None."""
        qualified = self.qualify(func)
        if qualified is None:
            return None
        if qualified in TARGETS:
            return TARGETS[qualified], None
        if qualified.startswith("param:") and qualified[6:] in FIXTURES:
            return qualified[6:], None
        head, _, method = qualified.rpartition(".")
        if head in TARGETS:
            return TARGETS[head], method
        return None

    def peel(self, expr: ast.expr) -> ast.expr:
        """*expr* with names bound once followed to what they are bound to."""
        for _ in range(50):
            bound = self.resolve(expr) if isinstance(expr, ast.Name) else None
            if bound is None:
                break
            expr = bound
        return expr

    @contextlib.contextmanager
    def _in_scope(self, scope: Scope) -> Iterator[None]:
        """Names read in *scope* for the time of the block."""
        saved, self._scope = self._scope, scope
        try:
            yield
        finally:
            self._scope = saved

    # -- reading

    def reader(self) -> LiteralReader:
        return LiteralReader(self.lines, self.resolve, self._model_call)

    def read(self, expr: ast.expr) -> PyNode:
        return self.reader().read(expr)

    def written(self, node: ast.AST) -> str:
        return self.lines.source(self.lines.span(node))

    def _model_call(self, call: ast.Call, reader: LiteralReader) -> PyNode | None:
        """A model's keyword call inside a literal, read as the mapping the model validates."""
        found = self.target(call.func)
        if found is None or found[1] is not None or found[0] not in MODELS:
            return self._inlined(call, reader)
        name = found[0]
        self._read_models.add(id(call))
        if call.args:
            raised = self._raises(call)
            if name not in ("FieldSpec", "Rule") and self._problems is not None:
                self._problems.append(self._positional(call))
            raised.origin = call
            return raised
        node = reader.keywords(call, call.keywords)
        if node.kind != "dict":
            return node
        if node.repeated and name not in ("FieldSpec", "Rule") and self._problems is not None:
            self._problems.append(self._repeated(call, node))
        node.model = name
        node.origin = call
        if name in ENTRY_MODELS:
            force_type(node, ENTRY_MODELS[name], self.lines.span(call.func), self._problems)
        return node

    def _inlined(self, call: ast.Call, reader: LiteralReader) -> PyNode | None:
        """A call of a function of this module whose body returns one expression (a helper
        building an entry: ``_when("marker", payload)``), read as that expression with the
        call's arguments in place of its parameters (such helpers calling each other are
        followed to :data:`INLINED_DEPTH`), only where the function's other names mean here
        what they mean at the module's level."""
        if not isinstance(call.func, ast.Name) or self._inlining >= INLINED_DEPTH:
            return None
        bindings = self._scope.lookup(call.func.id)
        meaning = meaning_of(bindings)
        if meaning is None or meaning[0] != "def" or bindings is not self.module_scope.lookup(call.func.id):
            return None
        expression = returned(meaning[1])
        bound = bind_arguments(meaning[1], call) if expression is not None else None
        if expression is None or bound is None:
            return None
        given = list(bound.values())
        made = substituted(expression, bound)
        if any(self._scope.lookup(n) is not self.module_scope.lookup(n) for n in free_names(made, given)):
            return None
        self._inlining += 1
        try:
            node = reader.read(made)
        finally:
            self._inlining -= 1
        if any(n.kind == "opaque" and not n.str_typed for _, _, n in node.walk()):
            return None  # a part known only at run time: the call is, as a whole (located there)
        return node

    def _raises(self, call: ast.Call) -> PyNode:
        """A model call given positional arguments: it raises before reading anything."""
        return PyNode.opaque(self.lines.span(call), f"{self.written(call.func)}(...), which raises")

    def _repeated(self, call: ast.Call, node: PyNode) -> Problem:
        problem = rules.PY002.repeated(call=self.written(call.func), arguments=node.repeated)
        return placed_at(problem, self.lines.span(call))

    def _positional(self, call: ast.Call) -> Problem:
        return placed_at(rules.PY002.positional(call=self.written(call.func)), self.lines.span(call.args[0]))

    def _add(
        self,
        call: ast.Call,
        api: str,
        semantic: str,
        kind: str | None,
        literal: ast.AST,
        root: PyNode | None,
        **more: Any,
    ) -> Embedded:
        """The document of *call*, read from *literal* (*more*: its other attributes), recorded
        unless nothing of it is written as a literal and some of it is only known at run time
        (``WorkForm(title=title, fields=fields)``: all of its arguments are built at run time,
        and the call itself raises nothing)."""
        embedded = Embedded(
            api=api,
            call=self.written(call.func) if not api.startswith("RuleSet") else api,
            semantic=semantic,
            kind=kind,
            range=self.lines.span(literal),
            call_span=self.lines.span(call),
            node=call,
            root=root,
            **more,
        )
        if (
            root is not None
            and not embedded.problems
            and not written_in(root, self.lines.span(embedded.node))
            and (root.kind == "opaque" or any(node.kind == "opaque" for _, _, node in root.walk()))
        ):
            return embedded  # all of it only known at run time: not a document
        self.found.append(embedded)
        self.by_call[id(embedded.node)] = embedded
        return embedded
