"""The work-form calls a Python file makes (``pyextract``): ``FieldSpec(...)``, ``Rule(...)``,
``WorkForm(...)``, ``RuleSet().add(...)`` chains and ``fill_form`` / ``validate_form``."""

from __future__ import annotations

import ast

from formscript import rules
from formscript.document.model import Span
from formscript.document.pyapi import Written
from formscript.document.pyliteral import LiteralReader, PyNode
from formscript.document.pywalker import Walker, argument_of, placed_at, synthetic, synthetic_mapping


class FormCalls(Walker):
    """The work-form calls of the walk."""

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
                missing = rules.PY002.missing(call=self.written(call.func), argument="name")
                problems.append(placed_at(missing, node.span))
            else:
                _key, value = name
                rest = PyNode.mapping(node.span, [p for p in node.pairs if p[1] is not value])
                declaration_key = value
                if value.kind not in ("scalar", "opaque"):  # a container: never a str, so refused
                    declaration_key = PyNode.scalar(Written(self.lines.source(value.span)), value.span)
                fields = PyNode.mapping(node.span, [(declaration_key, rest)])
                root = synthetic_mapping(node.span, fields=fields)
        self._add(call, "FieldSpec", "fieldspec", "form", call, root, problems=problems)

    def _keyword_model(self, call: ast.Call, api: str, semantic: str, kind: str) -> None:
        """``Rule(...)`` or ``WorkForm(...)``, built of keywords (positional arguments raise
        TypeError): a rule is the rule set of it alone."""
        if call.args:
            self._add(call, api, semantic, kind, call, self._raises(call), problems=[self._positional(call)])
            return
        node = self.reader().keywords(call, call.keywords)
        root = _rule_set(node.span, [node]) if semantic == "rule" and node.kind == "dict" else node
        embedded = self._add(call, api, semantic, kind, call, root)
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
        if not self._new_ruleset(current):
            return False
        if id(call) in self._chained:
            return True
        self._chained.update(id(link) for link in chain)
        reader = self.reader()
        items = []
        for link in reversed(chain):
            argument = argument_of(link, 0, "rule")
            if argument is None:
                items.append(PyNode.opaque(self.lines.span(link), "an add() without a rule"))
            else:
                items.append(self._added_rule(reader, argument))
        root = _rule_set(self.lines.span(call), items)
        self._add(call, "RuleSet().add", "ruleset", "rules", call, root)
        return True

    def _new_ruleset(self, expr: ast.expr) -> bool:
        """Whether *expr* is ``RuleSet()``."""
        if not isinstance(expr, ast.Call) or expr.args or expr.keywords:
            return False
        return self.target(expr.func) == ("RuleSet", None)

    def _added_rule(self, reader: LiteralReader, argument: ast.expr) -> PyNode:
        """What ``add(argument)`` adds: a mapping that is no ``Rule(...)`` is not a rule."""
        read = reader.read(argument)
        if read.kind == "dict" and read.model != "Rule":
            return PyNode.opaque(read.span, f"{self.written(argument)}, not a Rule")
        return read

    def _fill(self, call: ast.Call, fill: bool) -> None:
        form_arg = argument_of(call, 0, "form")
        if form_arg is None:
            return
        form_call = self.peel(form_arg)
        if not isinstance(form_call, ast.Call) or self.target(form_call.func) != ("WorkForm", None):
            return
        with self._in_scope(self.scope_of.get(id(form_call), self._scope)):
            form = self.reader().keywords(form_call, form_call.keywords)
        if form.kind != "dict":
            return
        fields = form.child("fields")
        fields_node = fields[1] if fields is not None else PyNode.mapping(form.span, [])
        if fill:
            values_arg = argument_of(call, 1, "values")
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
            (synthetic("fields", fields_node.span), fields_node),
            (synthetic("values", values_node.span), values_node),
        ]
        ruleset = argument_of(call, None, "ruleset")
        rules_node = self._ruleset_value(ruleset) if ruleset is not None else None
        if rules_node is not None:
            pairs.append((synthetic("ruleset", rules_node.span), rules_node))
        root = PyNode.mapping(self.lines.span(call), pairs)
        api = "fill_form" if fill else "validate_form"
        # a rule set built at run time decides the outcome
        decisive = [rules_node] if rules_node is not None and rules_node.kind == "opaque" else []
        embedded = self._add(call, api, api, "form", literal, root, decisive=decisive)
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
        if not self._new_ruleset(created):
            return None
        before = [a for a in adds if (a.lineno, a.col_offset) < (name.lineno, name.col_offset)]
        if any(a.lineno < created.lineno or len(a.args) != 1 for a in before):
            return None
        reader = self.reader()
        items = [
            self._added_rule(reader, add.args[0]) for add in sorted(before, key=lambda a: (a.lineno, a.col_offset))
        ]
        return PyNode.sequence(self.lines.span(name), items, synthetic=True)


def _rule_set(span: Span, items: list[PyNode]) -> PyNode:
    """The rule set document ``{rules: [...]}`` of *items*, as the API adds it."""
    return synthetic_mapping(span, rules=PyNode.sequence(span, items, synthetic=True))
