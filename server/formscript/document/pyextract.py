"""Where a Python file hands a script or a form to lionagi: calls found with ``ast``, never run.

The calls looked for are lionagi 0.36.0's scripted-testing and work-form API, wherever the
file imports it from (``lionagi.testing`` or the private modules that define it, ``lionagi.work``
and its ``form`` / ``rules`` modules, ``lionagi``, ``lionagi.service``), under any alias
(``from lionagi.testing import TestBranch as TB``, ``import lionagi.testing as lt``). Names are
resolved with Python's scoping: a name bound once to an expression in its scope (and never
mutated in place) stands for that expression; anything else is not a literal.

Each found call becomes an :class:`Embedded`: what the runtime receives, shaped as the
document formscript's core checks (a script mapping, a form's declarations and values, a
ruleset), as a :class:`~formscript.document.pyliteral.PyNode` tree whose parts sit on their
source, or — for a YAML or JSON text a test writes to a file — the text with the position of
each character. What each API does with its argument is lionagi's (``_branch.py``,
``_script.py``, ``_endpoint.py``, ``work/form.py``, ``work/rules.py``):

- ``TestBranch.from_responses(L)``, the plugin's ``scripted_branch_factory(L)`` and
  ``scripted_endpoint_for(L)``: ``ScriptModel.from_responses(L)``, the script ``{responses: L}``;
- ``TestBranch.from_text(T)``: one text entry per string (``T`` or each item of ``T``);
- ``TestBranch.from_script(S)``, ``TestBranch.attach_script(branch, S)``, ``scripted_imodel(S)``,
  an endpoint's ``attach_script(S)``: ``ScriptModel.coerce(S)`` — a dict is the script, a
  list its responses, a string or path a file (not embedded), anything else raises;
- ``iModel(provider="scripted", script=S)``, ``ScriptedEndpoint(script=S)``,
  ``match_endpoint("scripted", ..., script=S)``: ``coerce(S)`` when ``S`` is truthy, else an
  empty script;
- ``ScriptModel.from_responses(L, **kw)``: ``{responses: L, **kw}``; ``ScriptModel.model_validate(D)``
  and ``ScriptModel(**kw)``: the mapping itself;
- ``TextResponse(...)`` … ``ErrorResponse(...)``, ``WhenMatcher(...)``, ``StreamChunkSpec(...)``
  on their own: one entry (matcher, chunk) of a script;
- ``FieldSpec(...)``, ``Rule(...)`` (each one, also inside another call), ``WorkForm(...)``,
  ``RuleSet().add(...)...``, ``fill_form(form, values)`` and ``validate_form(form)`` where the
  form is a ``WorkForm(...)`` call or a name bound to one;
- ``<path>.write_text(T)``, ``open(<path>, "w").write(T)`` and ``f.write(T)`` inside
  ``with open(<path>, "w") as f`` where ``T`` is a string literal (``textwrap.dedent`` and
  ``strip`` included): the text, with the file name when the path names one.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import re
from typing import Any

from formscript import rules
from formscript.core.verdict import KeyPath, Problem
from formscript.document.model import Span
from formscript.document.pyapi import (
    AGENT_CLI,
    ENTRY_MODELS,
    ENV_HELPERS,
    FIXTURES,
    MAIN_ENTRIES,
    MENTION,
    MODELS,
    MUTATORS,
    SCRIPT_PATH_VARIABLE,
    SCRIPT_PATH_VARIABLES,
    SCRIPT_READERS,
    SIGNATURES,
    STANDALONE,
    TARGETS,
    Embedded,
    ReadBy,
    Written,
    mentions_api,
)
from formscript.document.pyinline import bind_arguments, free_names, returned, substituted
from formscript.document.pyliteral import LiteralReader, PyNode, SourceLines, text_positions
from formscript.document.pyscopes import Binding, Collector, Scope, candidate_lines, meaning_of

__all__ = ["MENTION", "Embedded", "extract", "mentions_api"]

#: How deep helpers returning an expression are followed into each other.
_INLINED_DEPTH = 3


def _yaml_named(name: str) -> bool:
    return name.endswith((".yaml", ".yml"))


def _dumpable(root: PyNode) -> bool:
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


class _Extractor:
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
            if isinstance(expr, ast.Name):
                bound = self.resolve(expr)
                if bound is None:
                    return expr
                expr = bound
                continue
            break
        return expr

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
            _force_type(node, ENTRY_MODELS[name], self.lines.span(call.func), self._problems)
        return node

    def _inlined(self, call: ast.Call, reader: LiteralReader) -> PyNode | None:
        """A call of a function of this module whose body returns one expression (a helper
        building an entry: ``_when("marker", payload)``), read as that expression with the
        call's arguments in place of its parameters (such helpers calling each other are
        followed to :data:`_INLINED_DEPTH`), only where the function's other names mean here
        what they mean at the module's level."""
        if not isinstance(call.func, ast.Name) or self._inlining >= _INLINED_DEPTH:
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
        return _at(problem, self.lines.span(call))

    def _positional(self, call: ast.Call) -> Problem:
        return _at(rules.PY002.positional(call=self.written(call.func)), self.lines.span(call.args[0]))

    # -- the walk

    def run(self) -> list[Embedded]:
        # Documents that read other calls first, so a model call read inside one of them is
        # not a document of its own; then the model calls, outermost first.
        later = []
        for call, scope in self.calls:
            found = self.target(call.func) if not isinstance(call.func, ast.Attribute) else None
            self._scope = scope
            if found is None and isinstance(call.func, ast.Attribute):
                found = self.target(call.func)
            if found is not None and found[1] is None and found[0] in STANDALONE:
                later.append((call, scope))
                continue
            try:
                self._call(call)
            except RecursionError:
                continue
        for call, scope in later:
            self._scope = scope
            if id(call) in self._read_models:
                continue
            try:
                self._call(call)
            except RecursionError:
                continue
        self._follow_paths()
        self._link()
        self.found.sort(key=lambda e: (e.range.start, e.call_span.start, e.api))
        return self.found

    def _call(self, call: ast.Call) -> None:
        func = call.func
        if isinstance(func, ast.Attribute):
            if func.attr == "add" and self._ruleset_chain(call):
                return
            if func.attr in ("write_text", "write"):
                self._write(call)
                return
            if func.attr == "attach_script":
                found = self.target(func)
                if found is None or found[0] != "TestBranch":
                    argument = _argument(call, 0, "source")
                    if argument is not None:
                        self._coerce(call, "attach_script", argument, truthy=False)
                    return
        if self.qualify(func) == "json.dump":
            self._json_dump(call)
            return
        found = self.target(func)
        if found is None:
            return
        name, method = found
        handler = _HANDLERS.get((name, method))
        if handler is not None:
            if self._binding_fails(call, name, method):
                return
            handler(self, call)

    def _binding_fails(self, call: ast.Call, name: str, method: str | None) -> bool:
        """Whether Python refuses to bind *call*'s arguments to the API's signature (too many
        positional arguments, one given twice, a required one missing, an unknown keyword), so
        the call raises TypeError before lionagi reads anything; the call is then a document
        of its own, rejected (call-raises)."""
        signature = SIGNATURES.get((name, method))
        if signature is None or any(isinstance(a, ast.Starred) for a in call.args):
            return False
        if any(k.arg is None for k in call.keywords):
            return False  # a ** of a mapping: its keys are known only when it is read
        reason = signature.refuses(len(call.args), [k.arg for k in call.keywords if k.arg is not None])
        if reason is None:
            return False
        kind = "form" if name in ("fill_form", "validate_form") else "script"
        semantic = "workform" if kind == "form" else "script"
        embedded = self._new(call, self.written(call.func), semantic, kind, call, self._raises(call))
        embedded.problems.append(
            _at(rules.PY002.binding(call=self.written(call.func), reason=reason), self.lines.span(call))
        )
        self._add(embedded)
        return True

    def _add(self, embedded: Embedded) -> Embedded:
        """Record *embedded*, unless nothing of it is written as a literal and some of it is
        only known at run time (``WorkForm(title=title, fields=fields)``: all of its arguments
        are built at run time, and the call itself raises nothing)."""
        root = embedded.root
        if (
            root is not None
            and not embedded.problems
            and not _written_in(root, self.lines.span(embedded.node))
            and (root.kind == "opaque" or any(node.kind == "opaque" for _, _, node in root.walk()))
        ):
            return embedded  # all of it only known at run time: not a document
        self.found.append(embedded)
        self.by_call[id(embedded.node)] = embedded
        return embedded

    def _new(
        self, call: ast.Call, api: str, semantic: str, kind: str | None, literal: ast.AST, root: PyNode | None
    ) -> Embedded:
        return Embedded(
            api=api,
            call=self.written(call.func) if not api.startswith("RuleSet") else api,
            semantic=semantic,
            kind=kind,
            range=self.lines.span(literal),
            call_span=self.lines.span(call),
            node=call,
            root=root,
        )

    def _script(self, call: ast.Call, api: str, literal: ast.AST, build: Any) -> None:
        """A script document whose root *build* makes (with the problems found reading it)."""
        self._problems = []
        try:
            root = build()
        finally:
            problems, self._problems = self._problems, None
        if root is None:
            return
        embedded = self._new(call, api, "script", "script", literal, root)
        embedded.problems.extend(problems)
        self._add(embedded)

    # -- scripts

    def _responses_call(self, call: ast.Call, api: str, keyword: str = "responses", extra: bool = False) -> None:
        argument = _argument(call, 0, keyword)
        if argument is None:
            return
        peeled = self.peel(argument)
        if self._is_script_call(peeled):
            return

        def build() -> PyNode | None:
            listed = self.read(argument)
            if listed.kind == "opaque":
                return listed if listed.raises else None
            pairs = [(_synthetic("responses", listed.span), listed)]
            if extra:
                rest = [k for k in call.keywords if k.arg != keyword]
                if rest:
                    more = self.reader().keywords(call, rest)
                    if more.kind != "dict":
                        return more if more.raises else None
                    pairs.extend(more.pairs)
            return PyNode.mapping(listed.span, pairs)

        self._script(call, api, self.peel(argument), build)

    def _from_text(self, call: ast.Call) -> None:
        argument = _argument(call, 0, "text")
        if argument is None:
            return

        def build() -> PyNode | None:
            given = self.read(argument)
            if given.kind == "opaque" and not given.str_typed:
                return given if given.raises else None
            if given.kind == "scalar" and not isinstance(given.value, str):
                self._problems_append(rules.PY002.not_text(call=self.written(call.func), found=given.value), given)
                return PyNode.opaque(given.span, "a call that raises")
            if given.kind == "seq":
                items = given.items
            elif given.kind == "dict":
                items = [key for key, _ in given.pairs]  # iterating a dict gives its keys
            else:
                items = [given]
            entries = []
            for item in items:
                entry = PyNode.mapping(
                    item.span,
                    [
                        (_synthetic("type", item.span), _synthetic("text", item.span)),
                        (_synthetic("content", item.span), item),
                    ],
                )
                entries.append(entry)
            listed = PyNode.sequence(given.span, entries)
            listed.synthetic = given.kind != "seq"
            return PyNode.mapping(given.span, [(_synthetic("responses", given.span), listed)])

        self._script(call, "TestBranch.from_text", self.peel(argument), build)

    def _problems_append(self, problem: Problem, node: PyNode) -> None:
        if self._problems is not None:
            self._problems.append(_at(problem, node.span))

    def _is_script_call(self, expr: ast.expr) -> bool:
        """Whether *expr* is a call that builds a ScriptModel (a document of its own)."""
        if not isinstance(expr, ast.Call):
            return False
        found = self.target(expr.func)
        return found is not None and found[0] == "ScriptModel"

    def _coerce(self, call: ast.Call, api: str, argument: ast.expr, *, truthy: bool) -> None:
        """``ScriptModel.coerce(argument)`` (after a truthiness test when *truthy*)."""
        peeled = self.peel(argument)
        if self._is_script_call(peeled):
            return

        def build() -> PyNode | None:
            given = self.read(argument)
            if given.kind == "opaque":
                return given if given.raises else None
            if truthy and not given.materialize():
                return PyNode.mapping(given.span, [])
            if given.kind == "dict":
                return given
            if given.kind == "seq" and given.seq_type is list:
                return PyNode.mapping(given.span, [(_synthetic("responses", given.span), given)])
            if given.kind == "scalar" and isinstance(given.value, str):
                return None  # a path: the file is read at run time
            self._problems_append(rules.PY002.cannot_coerce(call=api, found=given.materialize()), given)
            return PyNode.opaque(given.span, "a call that raises")

        self._script(call, api, peeled, build)

    def _model_validate(self, call: ast.Call) -> None:
        argument = _argument(call, 0, "obj")
        if argument is None:
            return

        strict = next((k.value for k in call.keywords if k.arg == "strict"), None)
        if strict is not None and not (isinstance(strict, ast.Constant) and strict.value in (None, False)):
            return  # strict validation refuses the lax coercions the core predicts: not checked

        def build() -> PyNode | None:
            given = self.read(argument)
            if given.kind == "opaque":
                return given if given.raises else None
            if given.kind != "dict":
                self._problems_append(rules.SC001.not_a_mapping(found=given.materialize()), given)
                return PyNode.opaque(given.span, "a call that raises")
            return given

        self._script(call, "ScriptModel.model_validate", self.peel(argument), build)

    def _script_model(self, call: ast.Call) -> None:
        def build() -> PyNode | None:
            if call.args:
                if self._problems is not None:
                    self._problems.append(self._positional(call))
                return self._raises(call)
            node = self.reader().keywords(call, call.keywords)
            if node.repeated and self._problems is not None:
                self._problems.append(self._repeated(call, node))
            return node if node.kind == "dict" else None

        self._script(call, "ScriptModel", call, build)

    def _endpoint(self, call: ast.Call, provider_index: int | None) -> None:
        """``iModel`` / ``match_endpoint`` with provider "scripted", ``ScriptedEndpoint``."""
        if provider_index is not None:
            provider = _argument(call, provider_index, "provider")
            if provider is None:
                return
            read = self.read(provider)
            if read.kind != "scalar" or read.value != "scripted":
                return
        script = _argument(call, None, "script")
        if script is None:
            return
        self._coerce(call, self.written(call.func), script, truthy=True)

    def _entry_model(self, call: ast.Call, name: str) -> None:
        def build() -> PyNode | None:
            node = self._model_call(call, self.reader())
            if node is None or node.kind != "dict":
                return node if node is not None and call.args else None
            span = self.lines.span(call)
            if name in ENTRY_MODELS:
                entry = node
            elif name == "WhenMatcher":
                entry = PyNode.mapping(
                    span,
                    [
                        (_synthetic("type", span), _synthetic("text", span)),
                        (_synthetic("content", span), _synthetic("", span)),
                        (_synthetic("when", span), node),
                    ],
                )
            else:
                chunks = PyNode.sequence(span, [node])
                chunks.synthetic = True
                entry = PyNode.mapping(
                    span, [(_synthetic("type", span), _synthetic("stream", span)), (_synthetic("chunks", span), chunks)]
                )
            entry.synthetic = entry is not node
            responses = PyNode.sequence(span, [entry])
            responses.synthetic = True
            return PyNode.mapping(span, [(_synthetic("responses", span), responses)])

        scope: KeyPath = ("responses", 0)
        if name == "WhenMatcher":
            scope = ("responses", 0, "when")
        elif name == "StreamChunkSpec":
            scope = ("responses", 0, "chunks", 0)
        self._problems = []
        try:
            root = build()
        finally:
            problems, self._problems = self._problems, None
        if root is None:
            return
        embedded = self._new(call, name, "entry", "script", call, root)
        embedded.scope = scope
        embedded.problems.extend(problems)
        self._add(embedded)

    # -- forms

    def _fieldspec(self, call: ast.Call) -> None:
        self._problems = []
        try:
            node = self.reader().keywords(call, call.keywords)
        finally:
            problems, self._problems = self._problems, None
        if call.args:
            root = self._raises(call)
            problems = [self._positional(call)]
        elif node.repeated:
            root = self._raises(call)
            problems = [self._repeated(call, node)]
        elif node.kind != "dict":
            root = node
        else:
            name = node.child("name")
            if name is None:
                root = PyNode.mapping(node.span, [])
                problems.append(_at(rules.PY002.missing(call=self.written(call.func), argument="name"), node.span))
            else:
                _key, value = name
                rest = PyNode.mapping(node.span, [p for p in node.pairs if p[1] is not value])
                declaration_key = value
                if value.kind not in ("scalar", "opaque"):  # a container: never a str, so refused
                    declaration_key = PyNode.scalar(Written(self.lines.source(value.span)), value.span)
                fields = PyNode.mapping(node.span, [(declaration_key, rest)])
                root = PyNode.mapping(node.span, [(_synthetic("fields", node.span), fields)])
        embedded = self._new(call, "FieldSpec", "fieldspec", "form", call, root)
        embedded.problems.extend(problems)
        self._add(embedded)

    def _rule(self, call: ast.Call) -> None:
        if call.args:
            embedded = self._new(call, "Rule", "rule", "rules", call, self._raises(call))
            embedded.problems.append(self._positional(call))
            self._add(embedded)
            return
        node = self.reader().keywords(call, call.keywords)
        listed = PyNode.sequence(node.span, [node])
        listed.synthetic = True
        root = PyNode.mapping(node.span, [(_synthetic("rules", node.span), listed)]) if node.kind == "dict" else node
        embedded = self._add(self._new(call, "Rule", "rule", "rules", call, root))
        if node.repeated:
            embedded.root = self._raises(call)
            embedded.problems.append(self._repeated(call, node))

    def _ruleset_chain(self, call: ast.Call) -> bool:
        """``RuleSet().add(r1).add(r2)``: one ruleset document for the outermost ``add``."""
        chain: list[ast.Call] = []
        current: ast.expr = call
        while isinstance(current, ast.Call) and isinstance(current.func, ast.Attribute) and current.func.attr == "add":
            chain.append(current)
            current = current.func.value
        if not isinstance(current, ast.Call) or current.args or current.keywords:
            return False
        found = self.target(current.func)
        if found != ("RuleSet", None):
            return False
        if id(call) in self._chained:
            return True
        for link in chain:
            self._chained.add(id(link))
        reader = self.reader()
        items = []
        for link in reversed(chain):
            argument = _argument(link, 0, "rule")
            if argument is None:
                items.append(PyNode.opaque(self.lines.span(link), "an add() without a rule"))
                continue
            read = reader.read(argument)
            if read.kind == "dict" and read.model != "Rule":
                read = PyNode.opaque(read.span, f"{self.written(argument)}, not a Rule")
            items.append(read)
        span = self.lines.span(call)
        listed = PyNode.sequence(span, items)
        listed.synthetic = True
        root = PyNode.mapping(span, [(_synthetic("rules", span), listed)])
        self._add(self._new(call, "RuleSet().add", "ruleset", "rules", call, root))
        return True

    def _workform(self, call: ast.Call) -> None:
        if call.args:
            embedded = self._new(call, "WorkForm", "workform", "form", call, self._raises(call))
            embedded.problems.append(self._positional(call))
            self._add(embedded)
            return
        node = self.reader().keywords(call, call.keywords)
        embedded = self._add(self._new(call, "WorkForm", "workform", "form", call, node))
        if node.repeated:
            embedded.root = self._raises(call)
            embedded.problems.append(self._repeated(call, node))

    def _fill(self, call: ast.Call, fill: bool) -> None:
        form_arg = _argument(call, 0, "form")
        if form_arg is None:
            return
        form_call = self.peel(form_arg)
        if not isinstance(form_call, ast.Call) or self.target(form_call.func) != ("WorkForm", None):
            return
        saved = self._scope
        self._scope = self.scope_of.get(id(form_call), saved)
        try:
            form = self.reader().keywords(form_call, form_call.keywords)
        finally:
            self._scope = saved
        if form.kind != "dict":
            return
        fields = form.child("fields")
        fields_node = fields[1] if fields is not None else PyNode.mapping(form.span, [])
        if fill:
            values_arg = _argument(call, 1, "values")
            if values_arg is None:
                return
            values_node = self.read(values_arg)
            literal: ast.AST = self.peel(values_arg)
        else:
            given = form.child("values")
            values_node = given[1] if given is not None else PyNode.mapping(form.span, [])
            literal = form_call
        if values_node.kind == "opaque" and fields_node.kind == "opaque":
            return
        pairs = [
            (_synthetic("fields", fields_node.span), fields_node),
            (_synthetic("values", values_node.span), values_node),
        ]
        decisive = []
        ruleset = _argument(call, None, "ruleset")
        if ruleset is not None:
            rules_node = self._ruleset_value(ruleset)
            if rules_node is not None:
                pairs.append((_synthetic("ruleset", rules_node.span), rules_node))
                if rules_node.kind == "opaque":
                    decisive.append(rules_node)
        root = PyNode.mapping(self.lines.span(call), pairs)
        api = "fill_form" if fill else "validate_form"
        embedded = self._new(call, api, api, "form", literal, root)
        embedded.decisive.extend(decisive)
        embedded.source = None
        self._add(embedded)
        self._sources.append((embedded, form_call))

    def _ruleset_value(self, expr: ast.expr) -> PyNode | None:
        """The rules of a ``ruleset=`` argument: a list of rule mappings, None for ``None``,
        or an opaque node."""
        peeled = self.peel(expr)
        if isinstance(peeled, ast.Constant) and peeled.value is None:
            return None
        if isinstance(peeled, ast.Name):
            added = self._added_rules(peeled)
            if added is not None:
                return added
        if isinstance(peeled, ast.Call) and isinstance(peeled.func, ast.Attribute) and peeled.func.attr == "add":
            self._ruleset_chain(peeled)
            chained = self.by_call.get(id(peeled))
            if chained is not None and chained.root is not None:
                found = chained.root.child("rules")
                if found is not None:
                    found[1].origin = peeled  # the chain is a document of its own: a child of the form's
                    return found[1]
        return PyNode.opaque(self.lines.span(expr), f"the ruleset {self.written(expr)}")

    def _added_rules(self, name: ast.Name) -> PyNode | None:
        """A rule set built as ``rs = RuleSet()`` then ``rs.add(Rule(...))`` statements before
        *name* is used: its rules, in order (None for anything else)."""
        bindings = self._scope.lookup(name.id) or []
        made = [value for kind, value in bindings if kind == "assign"]
        adds = [value for kind, value in bindings if kind == "add"]
        if len(made) != 1 or len(made) + len(adds) != len(bindings):
            return None
        created = made[0]
        if not isinstance(created, ast.Call) or created.args or created.keywords:
            return None
        if self.target(created.func) != ("RuleSet", None):
            return None
        before = [a for a in adds if (a.lineno, a.col_offset) < (name.lineno, name.col_offset)]
        if any(a.lineno < created.lineno for a in before) or any(
            isinstance(a, ast.Call) and len(a.args) != 1 for a in before
        ):
            return None
        reader = self.reader()
        items = []
        for add in sorted(before, key=lambda a: (a.lineno, a.col_offset)):
            read = reader.read(add.args[0])
            if read.kind == "dict" and read.model != "Rule":
                read = PyNode.opaque(read.span, f"{self.written(add.args[0])}, not a Rule")
            items.append(read)
        listed = PyNode.sequence(self.lines.span(name), items)
        listed.synthetic = True
        return listed

    # -- texts written to files

    def _write(self, call: ast.Call) -> None:
        func = call.func
        assert isinstance(func, ast.Attribute)
        argument = _argument(call, 0, "data" if func.attr == "write_text" else "s")
        if argument is None:
            return
        target: str | None
        if func.attr == "write_text":
            target = self._file_name(func.value)
            path: ast.expr | None = func.value
        else:
            opened = self._opened(func.value)
            if opened is None:
                return
            target = opened
            path = self._opened_path(func.value)
        located = text_positions(self.lines, argument, self.resolve)
        if located is None:
            dumped = self.peel(argument)
            dumper = self.qualify(dumped.func) if isinstance(dumped, ast.Call) else None
            if dumper == "json.dumps":
                assert isinstance(dumped, ast.Call)
                self._written(self._dumped(call, self.written(func), dumped, target), path)
            elif dumper in ("yaml.safe_dump", "yaml.dump") and target is not None and _yaml_named(target):
                assert isinstance(dumped, ast.Call)
                for embedded in self._yaml_dumped(call, self.written(func), dumped, target):
                    self._written(embedded, path)
            return
        embedded = self._new(call, self.written(func), "text", None, self.peel(argument), None)
        embedded.text = located
        embedded.target = target or None
        self._written(self._add(embedded), path)

    def _written(self, embedded: Embedded | None, path: ast.expr | None) -> None:
        """Remember the path *embedded* is written to, when it is a name (to follow it)."""
        if embedded is not None and isinstance(path, ast.Name):
            self._written_to.append((embedded, path, self._scope))

    def _dumped(self, call: ast.Call, api: str, dumps: ast.Call, target: str | None) -> Embedded | None:
        """A value written as JSON text (``json.dumps(value)`` written, ``json.dump(value, f)``):
        the value with the keyword arguments ``json.dumps`` is given, when they are literals."""
        value = _argument(dumps, 0, "obj")
        if value is None:
            return None
        options = self.reader().keywords(dumps, dumps.keywords)
        if options.kind != "dict" or any(v.kind != "scalar" and v.kind != "seq" for _, v in options.pairs):
            return None
        root = self.read(value)
        if root.kind == "opaque":
            return None
        embedded = self._new(call, api, "dumped", None, self.peel(value), root)
        embedded.target = target or None
        embedded.options = options.materialize()
        return self._add(embedded)

    def _yaml_dumped(self, call: ast.Call, api: str, dumps: ast.Call, target: str) -> list[Embedded]:
        """A value written as YAML text (``yaml.safe_dump(value)``) to a ``.yaml`` file: the file
        loads back as the value itself. Inside a function of the module that writes its own
        parameter (``_write_script(tmp_path, monkeypatch, entries)``), one document per call of
        that function, with the arguments the call gives (one level deep)."""
        value = _argument(dumps, 0, "data")
        if value is None:
            return []
        helper = self._scope.function
        parameters = [n for n in free_names(value, []) if (meaning_of(self._scope.lookup(n)) or ("",))[0] == "param"]
        if not parameters:
            root = self.read(value)
            return [self._yaml_document(call, api, value, root, target)] if _dumpable(root) else []
        if helper is None:
            return []
        found = []
        for site, site_scope in self.calls:
            if not (isinstance(site.func, ast.Name) and site.func.id == helper.name):
                continue
            meaning = meaning_of(site_scope.lookup(helper.name))
            if meaning is None or meaning[1] is not helper:
                continue
            bound = bind_arguments(helper, site)
            if bound is None:
                continue
            made = substituted(value, bound)
            if any(site_scope.lookup(n) is not self._scope.lookup(n) for n in free_names(made, list(bound.values()))):
                continue  # a name of the function's own would mean something else at the call
            saved = self._scope
            self._scope = site_scope
            try:
                root = self.read(made)
            finally:
                self._scope = saved
            if _dumpable(root):
                found.append(self._yaml_document(site, self.written(site.func), bound[parameters[0]], root, target))
        return found

    def _yaml_document(self, call: ast.Call, api: str, literal: ast.AST, root: PyNode, target: str) -> Embedded:
        embedded = self._new(
            call, api, "yaml_dumped", None, self.peel(literal) if isinstance(literal, ast.expr) else literal, root
        )
        embedded.target = target
        return self._add(embedded)

    def _json_dump(self, call: ast.Call) -> None:
        """``json.dump(value, handle)`` into a file opened for writing."""
        handle = _argument(call, 1, "fp")
        if handle is None:
            return
        opened = self._opened(handle)
        if opened is None:
            return
        rest = [k for k in call.keywords if k.arg not in ("obj", "fp")]
        dumps = ast.Call(func=call.func, args=call.args[:1], keywords=rest)
        ast.copy_location(dumps, call)
        dumps.end_lineno, dumps.end_col_offset = call.end_lineno, call.end_col_offset
        self._written(self._dumped(call, self.written(call.func), dumps, opened), self._opened_path(handle))

    def _opened(self, expr: ast.expr) -> str | None:
        """The file name an ``open(path, "w")`` (or a name bound by ``with`` to one) writes;
        '' when it writes a file whose name is not known; None when it is not such a call."""
        if isinstance(expr, ast.Name):
            meaning = meaning_of(self._scope.lookup(expr.id))
            if meaning is None or meaning[0] != "with":
                return None
            expr = meaning[1]
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        opener = (isinstance(func, ast.Name) and func.id == "open") or (
            isinstance(func, ast.Attribute) and func.attr == "open"
        )
        if not opener:
            return None
        mode_node = _argument(expr, 1, "mode")
        if isinstance(func, ast.Attribute) and func.attr == "open":
            mode_node = _argument(expr, 0, "mode")
        mode = self.read(mode_node) if mode_node is not None else None
        if mode is None or mode.kind != "scalar" or not isinstance(mode.value, str) or "w" not in mode.value:
            return None
        if "b" in mode.value:
            return None
        path = func.value if isinstance(func, ast.Attribute) else _argument(expr, 0, "file")
        if path is None:
            return ""
        return self._file_name(path) or ""

    def _opened_path(self, expr: ast.expr) -> ast.expr | None:
        """The path expression of the ``open(path, "w")`` *expr* is (or a name bound by ``with``)."""
        if isinstance(expr, ast.Name):
            meaning = meaning_of(self._scope.lookup(expr.id))
            if meaning is None or meaning[0] != "with":
                return None
            expr = meaning[1]
        if not isinstance(expr, ast.Call):
            return None
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "open":
            return expr.func.value
        return _argument(expr, 0, "file")

    def _file_name(self, expr: ast.expr) -> str | None:
        """The file name a path expression ends with, when written as a literal."""
        expr = self.peel(expr)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div):
            return self._file_name(expr.right)
        if isinstance(expr, ast.Call) and expr.args and not expr.keywords:
            func = expr.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in ("Path", "PurePath", "PosixPath", "join"):
                return self._file_name(expr.args[-1])
            if name == "joinpath" and isinstance(func, ast.Attribute):
                return self._file_name(expr.args[-1])
        read = self.read(expr)
        if read.kind == "scalar" and isinstance(read.value, str) and read.value:
            return read.value.replace("\\", "/").rpartition("/")[2]
        return None

    # -- where a written file goes

    def _follow_paths(self) -> None:
        """For each text written to a path held by a name: the calls that hand that path to
        lionagi, in the writer's scope, after the write and before the name's file is written
        again; the first decides how the text is read (kind, and YAML or JSON)."""
        writes: dict[int, list[tuple[int, int]]] = {}
        for _embedded, name, scope in self._written_to:
            bindings = scope.lookup(name.id)
            if bindings is not None:
                writes.setdefault(id(bindings), []).append((name.lineno, name.col_offset))
        for embedded, name, scope in self._written_to:
            bindings = scope.lookup(name.id)
            if bindings is None or len(bindings) != 1 or bindings[0][0] not in ("assign", "param"):
                continue
            at = (name.lineno, name.col_offset)
            later = [w for w in writes[id(bindings)] if w > at]
            until = min(later) if later else (1 << 60, 0)
            reads: list[tuple[ast.stmt | ast.expr, str, str | None, ast.Call | None]] = []
            for call, call_scope in self.calls:
                if call_scope.lookup(name.id) is not bindings or not at < (call.lineno, call.col_offset) < until:
                    continue
                self._scope = call_scope
                found = self._reads(call, bindings, depth=0)
                if found is not None:
                    kind, syntax, reads_file = found
                    reads.append((call, kind, syntax, call if reads_file else None))
            for store, store_scope in self.stores:
                if store_scope.lookup(name.id) is not bindings or not at < (store.lineno, store.col_offset) < until:
                    continue
                self._scope = store_scope
                if self._env_store(store, bindings):
                    reads.append((store, "script", None, None))
            if not reads:
                continue
            reads.sort(key=lambda r: (r[0].lineno, r[0].col_offset))
            _node, kind, syntax, _call = reads[0]
            if kind == "form":  # only loaded, unless some read also builds and validates it
                syntax = "mapping" if all(r[2] == "mapping" for r in reads if r[1] == "form") else None
            embedded.kind = kind
            embedded.reads_as = syntax
            embedded.consumers = [r[3] for r in reads if r[3] is not None and r[1] == kind]

    def _is_path(self, expr: ast.expr, bindings: list[Binding]) -> bool:
        """Whether *expr* is the path held by the name of *bindings* (``p``, ``str(p)``,
        ``os.fspath(p)``, ``p.as_posix()``, ``f"{p}"``)."""
        if isinstance(expr, ast.Name):
            return self._scope.lookup(expr.id) is bindings
        if isinstance(expr, ast.JoinedStr) and len(expr.values) == 1:
            value = expr.values[0]
            return (
                isinstance(value, ast.FormattedValue)
                and value.format_spec is None
                and self._is_path(value.value, bindings)
            )
        if not isinstance(expr, ast.Call) or expr.keywords:
            return False
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr == "as_posix" and not expr.args:
            return self._is_path(func.value, bindings)
        if len(expr.args) != 1:
            return False
        if (isinstance(func, ast.Name) and func.id == "str") or self.qualify(func) in ("os.fspath", "os.path.abspath"):
            return self._is_path(expr.args[0], bindings)
        return False

    def _env_key(self, expr: ast.expr) -> bool:
        """Whether *expr* names the variable the scripted endpoint reads its script path from."""
        if self.qualify(expr) in SCRIPT_PATH_VARIABLES:
            return True
        read = self.read(expr)
        return read.kind == "scalar" and read.value == SCRIPT_PATH_VARIABLE

    def _env_store(self, store: ast.Assign, bindings: list[Binding]) -> bool:
        """``env["LIONAGI_TEST_SCRIPT"] = str(p)`` (an environment a subprocess is given)."""
        if not self._is_path(store.value, bindings):
            return False
        return any(isinstance(t, ast.Subscript) and self._env_key(t.slice) for t in store.targets)

    def _reads(self, call: ast.Call, bindings: list[Binding], depth: int) -> ReadBy | None:
        """How *call* has lionagi read the file at the path of *bindings*."""
        arguments = [*call.args, *(k.value for k in call.keywords)]
        if not any(self._mentions(a, bindings) or self._mentions(self.peel(a), bindings) for a in arguments):
            return None
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "setenv" and len(call.args) >= 2:
            if self._env_key(call.args[0]) and self._is_path(call.args[1], bindings):
                return "script", None, False
            return None
        qualified = self.qualify(func)
        if qualified is not None and qualified.partition(".")[0] == "lionagi":
            found = self._lionagi_reads(call, qualified, bindings)
            if found is not None:
                return found
        if depth == 0 and isinstance(func, ast.Name):
            meaning = meaning_of(self._scope.lookup(func.id))
            if meaning is not None and meaning[0] == "def":
                return self._helper_reads(call, meaning[1], bindings)
        return None

    def _mentions(self, expr: ast.expr, bindings: list[Binding]) -> bool:
        return any(isinstance(n, ast.Name) and self._scope.lookup(n.id) is bindings for n in ast.walk(expr))

    def _lionagi_reads(self, call: ast.Call, qualified: str, bindings: list[Binding]) -> ReadBy | None:
        found = self.target(call.func)
        if found is not None:
            read = SCRIPT_READERS.get(found)
            if read is not None:
                index, keyword, syntax = read
                argument = _argument(call, index, keyword)
                if argument is not None and self._is_path(argument, bindings):
                    if found in (("iModel", None), ("match_endpoint", None)) and not self._scripted(call):
                        return None
                    return "script", syntax, True
            return None
        name = qualified.rpartition(".")[2]
        if qualified in ENV_HELPERS:
            argument = _argument(call, 0, "script_path")
            return ("script", None, False) if argument is not None and self._is_path(argument, bindings) else None
        if qualified == f"{AGENT_CLI}._load_form_spec":
            argument = _argument(call, 0, "path")
            return ("form", "mapping", True) if argument is not None and self._is_path(argument, bindings) else None
        if qualified in (f"{AGENT_CLI}.run_agent", *MAIN_ENTRIES) and name in ("run_agent", "main"):
            argument = _argument(call, 0, "args" if name == "run_agent" else "argv")
            if argument is not None and self._form_argument(self.peel(argument), bindings, name == "main"):
                return "form", None, True
        return None

    def _scripted(self, call: ast.Call) -> bool:
        """Whether an ``iModel`` / ``match_endpoint`` call names the scripted provider."""
        provider = _argument(call, 0, "provider")
        read = self.read(provider) if provider is not None else None
        return read is not None and read.kind == "scalar" and read.value == "scripted"

    def _form_argument(self, expr: ast.expr, bindings: list[Binding], argv: bool) -> bool:
        """Whether *expr* (what run_agent / main is given) carries the path as ``--form``: an
        argument list holding ``"--form", str(p)``; for run_agent, a namespace built with
        ``form=str(p)`` (``SimpleNamespace``, ``argparse.Namespace``, a helper of the module) or
        parsed from such a list."""
        if isinstance(expr, ast.List | ast.Tuple):
            items = expr.elts
            for flag, value in itertools.pairwise(items):
                if isinstance(flag, ast.Constant) and flag.value == "--form" and self._is_path(value, bindings):
                    return True
            return False
        if argv or not isinstance(expr, ast.Call):
            return False
        for keyword in expr.keywords:
            if keyword.arg == "form" and self._is_path(keyword.value, bindings):
                return True
        return any(
            self._form_argument(self.peel(a), bindings, True) for a in expr.args if not isinstance(a, ast.Starred)
        )

    def _helper_reads(
        self, call: ast.Call, helper: ast.FunctionDef | ast.AsyncFunctionDef, bindings: list[Binding]
    ) -> ReadBy | None:
        """One level into a function of this module: the parameter the path is given as, read
        by lionagi in the function's body (the call of the helper is the consumer)."""
        parameters = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)]
        given: str | None = None
        for index, argument in enumerate(call.args):
            if isinstance(argument, ast.Starred):
                return None
            if self._is_path(argument, bindings) and index < len(parameters):
                given = parameters[index]
        for keyword in call.keywords:
            if keyword.arg is not None and self._is_path(keyword.value, bindings):
                given = keyword.arg
        if given is None:
            return None
        collector = Collector()
        inner = Scope(self.module_scope)
        collector._params(helper.args, inner)
        collector._body(helper.body, inner)
        parameter = inner.bindings.get(given)
        if parameter is None or len(parameter) != 1 or parameter[0][0] != "param":
            return None
        saved = self._scope
        try:
            for inner_call, inner_scope in collector.calls:
                self._scope = inner_scope
                found = self._reads(inner_call, parameter, depth=1)
                if found is not None:
                    return found
        finally:
            self._scope = saved
        return None

    # -- after the walk

    def _link(self) -> None:
        """Record, for each document, the documents of calls written inside it."""
        for embedded in self.found:
            if embedded.root is None:
                continue
            for path, _, node in embedded.root.walk():
                if node.origin is None:
                    continue
                child = self.by_call.get(id(node.origin))
                if child is not None and child is not embedded:
                    embedded.children.append((path, child))
        for embedded, form_call in self._sources:
            embedded.source = self.by_call.get(id(form_call))


def _written_in(node: PyNode, call: Span) -> bool:
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
            _written_in(value, call) or (not key.identifier and _written_in(key, call)) for key, value in node.pairs
        )
    return any(_written_in(item, call) for item in node.items)


def _force_type(node: PyNode, response_type: str, span: Span, problems: list[Problem] | None) -> None:
    """The ``type`` an entry model sets: added when not written; a different one refused."""
    written = node.child("type")
    if written is None:
        node.pairs.insert(0, (_synthetic("type", span), _synthetic(response_type, span)))
        return
    _key, value = written
    if value.kind == "scalar" and value.value == response_type:
        return
    if problems is not None:
        problems.append(
            _at(
                rules.SC005.problem(
                    path=(),
                    index=0,
                    response_type=response_type,
                    where="type",
                    value=value.materialize(),
                    reason=f"input should be {response_type!r}",
                ),
                value.span,
            )
        )
    node.pairs = [
        (_synthetic("type", span), _synthetic(response_type, span)) if v is value else (k, v) for k, v in node.pairs
    ]


def _synthetic(value: Any, span: Span) -> PyNode:
    node = PyNode.scalar(value, span)
    node.synthetic = True
    return node


def _at(problem: Problem, span: Span) -> Problem:

    return dataclasses.replace(problem, span=span)


def _argument(call: ast.Call, index: int | None, keyword: str) -> ast.expr | None:
    """The argument at position *index* or named *keyword* (None when absent or splatted)."""
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    if index is not None and index < len(call.args):
        if any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
            return None
        return call.args[index]
    return None


_HANDLERS: dict[tuple[str, str | None], Any] = {
    ("TestBranch", "from_responses"): lambda x, c: x._responses_call(c, "TestBranch.from_responses"),
    ("TestBranch", "from_text"): lambda x, c: x._from_text(c),
    ("TestBranch", "from_script"): lambda x, c: _with(
        _argument(c, 0, "script"), x._coerce, c, "TestBranch.from_script"
    ),
    ("TestBranch", "attach_script"): lambda x, c: _with(
        _argument(c, 1, "script"), x._coerce, c, "TestBranch.attach_script"
    ),
    ("scripted_imodel", None): lambda x, c: _with(_argument(c, 0, "script"), x._coerce, c, "scripted_imodel"),
    ("ScriptModel", "from_responses"): lambda x, c: x._responses_call(c, "ScriptModel.from_responses", extra=True),
    ("ScriptModel", "coerce"): lambda x, c: _with(_argument(c, 0, "source"), x._coerce, c, "ScriptModel.coerce"),
    ("ScriptModel", "model_validate"): lambda x, c: x._model_validate(c),
    ("ScriptModel", None): lambda x, c: x._script_model(c),
    ("iModel", None): lambda x, c: x._endpoint(c, 0),
    ("match_endpoint", None): lambda x, c: x._endpoint(c, 0),
    ("ScriptedEndpoint", None): lambda x, c: x._endpoint(c, None),
    ("scripted_branch_factory", None): lambda x, c: x._responses_call(c, "scripted_branch_factory"),
    ("scripted_endpoint_for", None): lambda x, c: x._responses_call(c, "scripted_endpoint_for"),
    ("FieldSpec", None): lambda x, c: x._fieldspec(c),
    ("Rule", None): lambda x, c: x._rule(c),
    ("WorkForm", None): lambda x, c: x._workform(c),
    ("fill_form", None): lambda x, c: x._fill(c, True),
    ("validate_form", None): lambda x, c: x._fill(c, False),
    **{
        (name, None): (lambda n: lambda x, c: x._entry_model(c, n))(name)
        for name in (*ENTRY_MODELS, "WhenMatcher", "StreamChunkSpec")
    },
}


def _with(argument: ast.expr | None, coerce: Any, call: ast.Call, api: str) -> None:
    if argument is not None:
        coerce(call, api, argument, truthy=False)


def extract(text: str, tree: ast.Module | None = None) -> list[Embedded]:
    """Every script and form *text* (a Python file) hands to lionagi, in source order.

    Raises SyntaxError (and ValueError for a NUL byte) when *text* is not Python."""
    if tree is None:
        tree = ast.parse(text)
    return _Extractor(text, tree).run()
