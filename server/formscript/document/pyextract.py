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
import contextlib
from typing import Any

from formscript import rules
from formscript.core.verdict import KeyPath, Problem
from formscript.document.pyapi import ENTRY_MODELS, MENTION, SIGNATURES, STANDALONE, Embedded, mentions_api
from formscript.document.pyfiles import FileCalls
from formscript.document.pyforms import FormCalls
from formscript.document.pyliteral import PyNode
from formscript.document.pytolerant import parse
from formscript.document.pywalker import argument_of, placed_at, synthetic, synthetic_mapping

__all__ = ["MENTION", "Embedded", "extract", "mentions_api"]


class _Extractor(FormCalls, FileCalls):
    """The walk: each call dispatched to its reader (scripts here, forms and files in their
    modules), then the documents linked."""

    # -- the walk

    def run(self) -> list[Embedded]:
        # Documents that read other calls first, so a model call read inside one of them is
        # not a document of its own; then the model calls, outermost first.
        later = []
        for call, scope in self.calls:
            self._scope = scope
            found = self.target(call.func)
            if found is not None and found[1] is None and found[0] in STANDALONE:
                later.append((call, scope))
                continue
            with contextlib.suppress(RecursionError):  # nested too deeply for Python itself: not read
                self._call(call)
        for call, scope in later:
            self._scope = scope
            if id(call) not in self._read_models:
                with contextlib.suppress(RecursionError):
                    self._call(call)
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
                    self._coerce(call, "attach_script", argument_of(call, 0, "source"))
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
        refused = placed_at(rules.PY002.binding(call=self.written(call.func), reason=reason), self.lines.span(call))
        self._add(call, self.written(call.func), semantic, kind, call, self._raises(call), problems=[refused])
        return True

    def _script(
        self, call: ast.Call, api: str, literal: ast.AST, build: Any, semantic: str = "script", scope: KeyPath = ()
    ) -> None:
        """A script document whose root *build* makes (with the problems found reading it);
        *semantic* ``entry``: one entry of it, checked at *scope*."""
        self._problems = []
        try:
            root = build()
        finally:
            problems, self._problems = self._problems, None
        if root is None:
            return
        self._add(call, api, semantic, "script", literal, root, scope=scope, problems=problems)

    # -- scripts

    def _responses_call(self, call: ast.Call, api: str, extra: bool = False) -> None:
        argument = argument_of(call, 0, "responses")
        if argument is None or self._is_script_call(argument):
            return

        def build() -> PyNode | None:
            listed = self.read(argument)
            if listed.kind == "opaque":
                return listed if listed.raises else None
            pairs = [(synthetic("responses", listed.span), listed)]
            if extra:
                rest = [k for k in call.keywords if k.arg != "responses"]
                if rest:
                    more = self.reader().keywords(call, rest)
                    if more.kind != "dict":
                        return more if more.raises else None
                    pairs.extend(more.pairs)
            return PyNode.mapping(listed.span, pairs)

        self._script(call, api, self.peel(argument), build)

    def _from_text(self, call: ast.Call) -> None:
        argument = argument_of(call, 0, "text")
        if argument is None:
            return

        def build() -> PyNode | None:
            given = self.read(argument)
            if given.kind == "opaque" and not given.str_typed:
                return given if given.raises else None
            if given.kind == "scalar" and not isinstance(given.value, str):
                return self._refused(rules.PY002.not_text(call=self.written(call.func), found=given.value), given)
            if given.kind == "seq":
                items = given.items
            elif given.kind == "dict":
                items = [key for key, _ in given.pairs]  # iterating a dict gives its keys
            else:
                items = [given]
            entries = [synthetic_mapping(item.span, type="text", content=item) for item in items]
            listed = PyNode.sequence(given.span, entries, synthetic=given.kind != "seq")
            return synthetic_mapping(given.span, responses=listed)

        self._script(call, "TestBranch.from_text", self.peel(argument), build)

    def _refused(self, problem: Problem, node: PyNode) -> PyNode:
        """The call raises for *node* (*problem*, placed on it): lionagi is given nothing."""
        if self._problems is not None:
            self._problems.append(placed_at(problem, node.span))
        return PyNode.opaque(node.span, "a call that raises")

    def _is_script_call(self, argument: ast.expr) -> bool:
        """Whether *argument* is (or names) a call that builds a ScriptModel (a document of its own)."""
        expr = self.peel(argument)
        if not isinstance(expr, ast.Call):
            return False
        found = self.target(expr.func)
        return found is not None and found[0] == "ScriptModel"

    def _coerce(self, call: ast.Call, api: str, argument: ast.expr | None, *, truthy: bool = False) -> None:
        """``ScriptModel.coerce(argument)`` (after a truthiness test when *truthy*), when the
        argument is given."""
        if argument is None or self._is_script_call(argument):
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
                return synthetic_mapping(given.span, responses=given)
            if given.kind == "scalar" and isinstance(given.value, str):
                return None  # a path: the file is read at run time
            return self._refused(rules.PY002.cannot_coerce(call=api, found=given.materialize()), given)

        self._script(call, api, self.peel(argument), build)

    def _model_validate(self, call: ast.Call) -> None:
        argument = argument_of(call, 0, "obj")
        if argument is None:
            return
        strict = argument_of(call, None, "strict")
        if strict is not None and not (isinstance(strict, ast.Constant) and strict.value in (None, False)):
            return  # strict validation refuses the lax coercions the core predicts: not checked

        def build() -> PyNode | None:
            given = self.read(argument)
            if given.kind == "opaque":
                return given if given.raises else None
            if given.kind != "dict":
                return self._refused(rules.SC001.not_a_mapping(found=given.materialize()), given)
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

    def _endpoint(self, call: ast.Call, provider: bool) -> None:
        """``iModel`` / ``match_endpoint`` with provider "scripted" (*provider*: the call
        names one), ``ScriptedEndpoint``."""
        if provider and not self._scripted(call):
            return
        self._coerce(call, self.written(call.func), argument_of(call, None, "script"), truthy=True)

    def _entry_model(self, call: ast.Call, name: str) -> None:
        def build() -> PyNode | None:
            node = self._model_call(call, self.reader())
            if node is None or node.kind != "dict":
                return node if node is not None and call.args else None
            span = self.lines.span(call)
            if name in ENTRY_MODELS:
                entry = node
            elif name == "WhenMatcher":
                entry = synthetic_mapping(span, type="text", content="", when=node)
            else:
                entry = synthetic_mapping(span, type="stream", chunks=PyNode.sequence(span, [node], synthetic=True))
            entry.synthetic = entry is not node
            return synthetic_mapping(span, responses=PyNode.sequence(span, [entry], synthetic=True))

        scope: KeyPath = ("responses", 0)
        if name == "WhenMatcher":
            scope = ("responses", 0, "when")
        elif name == "StreamChunkSpec":
            scope = ("responses", 0, "chunks", 0)
        self._script(call, name, call, build, "entry", scope)

    # -- after the walk

    def _link(self) -> None:
        """Record, for each document, the documents of calls written inside it."""
        for embedded in self.found:
            if embedded.root is None:
                continue
            for path, _, node in embedded.root.walk():
                child = self.by_call.get(id(node.origin)) if node.origin is not None else None
                if child is not None and child is not embedded:
                    embedded.children.append((path, child))
        for embedded, form_call in self._sources:
            embedded.source = self.by_call.get(id(form_call))


_HANDLERS: dict[tuple[str, str | None], Any] = {
    ("TestBranch", "from_responses"): lambda x, c: x._responses_call(c, "TestBranch.from_responses"),
    ("TestBranch", "from_text"): lambda x, c: x._from_text(c),
    ("TestBranch", "from_script"): lambda x, c: x._coerce(c, "TestBranch.from_script", argument_of(c, 0, "script")),
    ("TestBranch", "attach_script"): lambda x, c: x._coerce(c, "TestBranch.attach_script", argument_of(c, 1, "script")),
    ("scripted_imodel", None): lambda x, c: x._coerce(c, "scripted_imodel", argument_of(c, 0, "script")),
    ("ScriptModel", "from_responses"): lambda x, c: x._responses_call(c, "ScriptModel.from_responses", extra=True),
    ("ScriptModel", "coerce"): lambda x, c: x._coerce(c, "ScriptModel.coerce", argument_of(c, 0, "source")),
    ("ScriptModel", "model_validate"): lambda x, c: x._model_validate(c),
    ("ScriptModel", None): lambda x, c: x._script_model(c),
    ("iModel", None): lambda x, c: x._endpoint(c, True),
    ("match_endpoint", None): lambda x, c: x._endpoint(c, True),
    ("ScriptedEndpoint", None): lambda x, c: x._endpoint(c, False),
    ("scripted_branch_factory", None): lambda x, c: x._responses_call(c, "scripted_branch_factory"),
    ("scripted_endpoint_for", None): lambda x, c: x._responses_call(c, "scripted_endpoint_for"),
    ("FieldSpec", None): lambda x, c: x._fieldspec(c),
    ("Rule", None): lambda x, c: x._keyword_model(c, "Rule", "rule", "rules"),
    ("WorkForm", None): lambda x, c: x._keyword_model(c, "WorkForm", "workform", "form"),
    ("fill_form", None): lambda x, c: x._fill(c, True),
    ("validate_form", None): lambda x, c: x._fill(c, False),
    **{(name, None): (lambda n: lambda x, c: x._entry_model(c, n))(name) for name in STANDALONE},
}


def extract(text: str, tree: ast.Module | None = None) -> list[Embedded]:
    """Every script and form *text* (a Python file) hands to lionagi, in source order.

    Raises SyntaxError (and ValueError for a NUL byte) when *text* is not Python."""
    if tree is None:
        tree = parse(text)
    return _Extractor(text, tree).run()
