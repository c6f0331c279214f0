"""Lint a Python file: each script or form it hands to lionagi is a report of its own.

``document.pyextract`` finds the calls; here each found document gets the runtime's verdict
from the core (``check_script``, declarations, ``load_ruleset``, ``core.constructors``) and the
lint checks, located in the ``.py`` file. A YAML or JSON text written to a file goes through
the same engine as a file on disk would.

Parts that are not literals stand in the value as something no typed slot accepts. A problem
that touches one — found at it, inside it, around it, or depending on it (a required value
missing from a ``values`` that has a ``**`` splat) — is not reported: it may not happen. The
verdict is ``rejected`` when a problem that stands anyway rejects, ``insufficient_evidence``
when one that was set aside would have (each such part gets a not-a-literal note), else ``accepted``:
an opaque part that raised nothing sits where the runtime takes any value.

Suppression comments are applied across the file's documents (a comment may sit between two
of them; an unused one is reported once, on the document it belongs to).
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from formscript import rules
from formscript.core.verdict import KeyPath, Problem, Verdict
from formscript.document import TextDocument, parse_document
from formscript.document.model import ORIGIN
from formscript.document.pyextract import Embedded, extract, mentions_api
from formscript.document.pyliteral import PyNode, SourceLines, python_lines
from formscript.document.pystrings import TextPositions
from formscript.document.python import EmbeddedDocument, PyDocument, python_comments
from formscript.document.pytolerant import Blanked, parse_tolerantly
from formscript.lint.config import Settings
from formscript.lint.diagnostics import Diagnostic
from formscript.lint.engine import finish, in_order, lint_document, suppression_findings, to_diagnostics
from formscript.lint.report import Embedding, FileReport

if TYPE_CHECKING:
    from formscript.document import Comment, Document, Syntax
    from formscript.lint.suppress import Suppression

__all__ = ["PythonText", "lint_python"]


class PythonText(TextDocument):
    """A Python file's text kept for showing its lines (as Python numbers them)."""

    @functools.cached_property
    def lines(self) -> list[str]:
        """The lines as ``ast`` counts them."""
        return python_lines(self.text)


def lint_python(text: str, path: str, *, settings: Settings | None = None, fixes: bool | None = True) -> FileReport:
    """The report of the Python file *path*: one part per script or form it hands to lionagi
    (``parts``, in source order; none when it hands none), their diagnostics together."""
    settings = settings or Settings()
    bundle = FileReport(path, None, None, parts=[], document=PythonText(text))
    if not mentions_api(text):
        return bundle
    source = text.removeprefix("\ufeff")
    try:  # a file being typed: what parses is checked, the statement that does not is left out
        tree, source, blanked = parse_tolerantly(source)
    except (SyntaxError, ValueError) as exc:
        where = f" at line {exc.lineno}" if isinstance(exc, SyntaxError) and exc.lineno else ""
        note = f"skipped: not Python that parses ({getattr(exc, 'msg', exc)}{where})"
        bundle.parts = [FileReport(path, None, None, note=note)]
        return bundle
    from formscript.document.pyexpect import call_forms

    call_forms(tree)  # pytest.raises(E, func, *args): the call func(*args) found where written
    try:
        found = extract(source, tree)
    except Exception as exc:  # a bug of ours: reported for this file, never a crash
        bundle.parts = [_failed(path, exc)]
        bundle.diagnostics = list(bundle.parts[0].diagnostics)
        return bundle
    linter = _FileLinter(source, path, settings, fixes)
    parts = [part for part in (linter.report(embedded) for embedded in found) if part is not None]
    if settings.expected_outcomes:
        from formscript.lint.expected import judge

        judge(tree, linter.lines, found, linter.done, settings, path)
    for part in parts:
        _placeholder(part)
    linter.suppress(parts)
    bundle.parts = parts + [_left_out(path, region) for region in blanked]
    bundle.diagnostics = [d for part in parts for d in part.diagnostics]
    return bundle


def _left_out(path: str, region: Blanked) -> FileReport:
    lines = f"line {region.first}" if region.first == region.last else f"lines {region.first}-{region.last}"
    return FileReport(
        path, None, None, note=f"{lines} skipped: not Python that parses ({region.message} at line {region.line})"
    )


def _placeholder(part: FileReport) -> None:
    """A test's script written with nothing in it (``ScriptModel()``, ``"{}"`` written to a
    file) is a placeholder the test never serves from, as lionagi itself treats an explicit
    empty script: its empty-script warning is not reported (a script file that is empty, or
    a ``responses`` list written empty, still is)."""
    if part.kind != "script" or part.document is None or not part.diagnostics:
        return
    value = part.document.value
    if value == {} or value is None:
        part.diagnostics = [d for d in part.diagnostics if d.code != rules.SC016.code]


def _failed(path: str, exc: Exception) -> FileReport:
    diagnostic = Diagnostic(rules.FSX000.code, rules.FSX000.severity, rules.FSX000.message(error=exc), ORIGIN)
    return FileReport(path, None, Verdict.VALIDATOR_ERROR, [diagnostic])


class _FileLinter:
    def __init__(self, text: str, path: str, settings: Settings, fixes: bool | None) -> None:
        self.text = text
        self.path = path
        self.settings = settings
        self.fixes = fixes
        self.lines = SourceLines(text)
        self.comments: list[Comment] | None = python_comments(self.lines) if "formscript:" in text else None
        self.done: dict[int, FileReport | None] = {}
        self.extents: dict[int, tuple[int, int]] = {}

    # -- one document

    def report(self, embedded: Embedded) -> FileReport | None:
        key = id(embedded)
        if key in self.done:
            return self.done[key]
        self.done[key] = None  # a cycle reads as "not decided"
        try:
            if embedded.semantic == "yaml_dumped" and embedded.kind != "script":
                report = None  # read as a form spec, or by nothing known: not checked
            elif embedded.semantic == "text":
                report = self._text(embedded)
            elif embedded.semantic == "dumped":
                report = self._dumped(embedded)
            else:
                report = self._literal(embedded)
        except Exception as exc:  # a bug of ours: reported for this document, never a crash
            report = _failed(self.path, exc)
            report.embedded = _embedding(embedded)
            report.kind = embedded.kind
        if report is not None:
            self.extents[id(report)] = _extent(embedded)
        self.done[key] = report
        return report

    def _literal(self, embedded: Embedded) -> FileReport:
        assert embedded.root is not None
        doc = self._python_document(embedded, embedded.root)
        found, undecidable, model = self._core(embedded, doc)
        notes: list[str] = []
        rejected = False
        open_parts: list[str] = []
        built = [
            (child, f"{child.call}(...) at line {child.call_span.start.line + 1}") for _, child in embedded.children
        ]
        if embedded.source is not None:
            line = embedded.source.call_span.start.line + 1
            built.append((embedded.source, f"the form it is given (line {line})"))
        for part, described in built:
            part_report = self.report(part)
            if part_report is not None and part_report.verdict is Verdict.REJECTED:
                rejected = True
                notes.append(f"{described} is rejected")
            elif part_report is None or part_report.verdict is not Verdict.ACCEPTED:
                open_parts.append(f"{described} is not decided")
        children = [path for path, _ in embedded.children]
        chains = [path for path, child in embedded.children if child.semantic == "ruleset"]
        if embedded.semantic in ("fill_form", "validate_form") and chains:
            # a RuleSet().add(...) chain reports its own repeated rule_id
            found = [p for p in found if p.rule is not rules.RS009 or not any(_under(p.path, c) for c in chains)]
        if embedded.semantic == "ruleset" and children:
            found = [
                p
                for p in found
                if p.rule is rules.RS009 or not any(_under(p.path, c) for c in children) or p.span is not None
            ]
        raising = [(path, node) for path, node in doc.opaque if node.raises]
        if raising:  # evaluating the literal raises: lionagi is never called
            found = [p for p in found if not any(_related(path, d) for path, _ in raising for d in _dependencies(p))]
            found += [rules.PY002.unhashable(path=path, why=node.raises) for path, node in raising]
            doc.opaque = [(path, node) for path, node in doc.opaque if not node.raises]
        certain, unsure = _sort_out(found, doc.opaque)
        decisive = [path for path, node in doc.opaque if any(node is d for d in embedded.decisive)]
        if embedded.root.kind == "opaque":
            decisive.append(())
        shown = certain
        if any(p.rejects for p in certain) or rejected:
            verdict = Verdict.REJECTED
        elif any(p.rejects for p, _ in unsure) or decisive or undecidable or open_parts:
            verdict = Verdict.INSUFFICIENT_EVIDENCE
            opaque_paths = {path for p, paths in unsure if p.rejects for path in paths} | set(decisive)
            unknown = [(path, _what(node)) for path, node in doc.opaque if path in opaque_paths]
            shown = certain + [rules.PY001.problem(path=path, what=what) for path, what in unknown]
            notes.extend(f"{what} is only known at run time" for _, what in unknown)
            if undecidable:
                notes.append("a custom rule's callable decides it")
            notes.extend(open_parts)
        else:
            verdict = Verdict.ACCEPTED
        diagnostics = finish(to_diagnostics(doc, shown, self.fixes), doc, self.settings, self.path, suppress=False)
        report = FileReport(
            self.path,
            embedded.kind,
            verdict,
            diagnostics,
            note="; ".join(dict.fromkeys(notes)),
            document=doc,
            embedded=_embedding(embedded),
        )
        if model is not None and embedded.kind == "script":
            report.script = model
        elif model is not None:
            model.verdict = verdict
            report.gate = model
        return report

    def _core(self, embedded: Embedded, doc: PyDocument) -> tuple[list[Problem], bool, Any]:
        """The runtime's problems with the document, whether a custom rule leaves it open, and
        what the runtime builds (a ScriptResult for a script, a GateResult for a filled form)."""
        value = doc.value
        found: list[Problem] = list(embedded.problems)
        semantic = embedded.semantic
        if semantic in ("script", "entry", "yaml_dumped"):
            from formscript.core.script import check_script
            from formscript.lint.script_checks import script_checks

            result = check_script(value)
            problems = result.problems + script_checks(doc, result)
            if semantic == "entry":
                scope = tuple(embedded.scope)
                problems = [p for p in problems if tuple(p.path)[: len(scope)] == scope]
            found.extend(problems)
            return found, False, result
        elif semantic == "fieldspec":
            from formscript.core.declarations import build_declarations

            fields = value.get("fields") if isinstance(value, dict) else None
            if isinstance(fields, dict):
                build_declarations(fields, found)
        elif semantic in ("rule", "ruleset"):
            from formscript.core.rulesets import load_ruleset
            from formscript.lint.checks import ruleset_checks

            loaded = load_ruleset(value)
            found.extend(loaded.problems)
            found.extend(p for p in ruleset_checks(loaded.built) if p.rule is not rules.RS010)
        elif semantic == "workform":
            from formscript.core.constructors import check_work_form

            instances = {path[1] for path, _ in embedded.children if len(path) == 2 and path[0] == "fields"}
            found.extend(check_work_form(value if isinstance(value, dict) else {}, instances))
        else:
            from formscript.core.constructors import check_filled
            from formscript.core.gate import GateResult
            from formscript.lint.form_checks import form_checks

            filled = check_filled(value, fill=semantic == "fill_form")
            found.extend(filled.problems)
            gate = GateResult(
                Verdict.ACCEPTED,
                filled.problems,
                declarations=filled.declarations,
                title=self._title(embedded),
                values=filled.values,
                status="error" if filled.failures else "validated",
                failures=filled.failures,
            )
            found.extend(form_checks(doc, gate))
            return found, filled.undecidable, gate
        return found, False, None

    def _title(self, embedded: Embedded) -> str:
        """The title of the form a fill_form / validate_form is given (its WorkForm's)."""
        source = embedded.source
        if source is None or source.root is None or source.root.kind != "dict":
            return ""
        found = source.root.child("title")
        if found is None or found[1].kind != "scalar" or not isinstance(found[1].value, str):
            return ""
        return found[1].value

    def _text(self, embedded: Embedded) -> FileReport | None:
        from formscript.lint.kinds import sniff

        where = embedded.text
        assert where is not None
        name = embedded.target
        kind = self._named_kind(embedded)
        loaded = None
        if kind is None:
            loaded = parse_document(where.text)
            kind = sniff(loaded.value) if loaded.ok else None
            if kind is None and name is not None and name.endswith(".json"):
                as_json = parse_document(where.text, "json")
                kind = sniff(as_json.value) if as_json.ok else None
            if kind is None:
                return None
        loader_name = _loader_name(embedded, "written.yaml")
        syntax = _syntax(kind, loader_name)
        inner = loaded if loaded is not None and syntax == "yaml" else parse_document(where.text, syntax)
        doc = EmbeddedDocument(inner, where, source=self.lines, file_comments=self.comments, extent=_extent(embedded))
        return self._written(embedded, doc, inner, kind, loader_name, "written.yaml")

    def _dumped(self, embedded: Embedded) -> FileReport | None:
        """A value a test writes as JSON text: the file's text is ``json.dumps`` of it, read
        back as lionagi reads the file; located on the literal when reading it back gives the
        value JSON keeps (keys as strings, tuples as lists), else on the whole literal."""
        from formscript.lint.kinds import sniff

        root = embedded.root
        assert root is not None
        try:
            text = json.dumps(root.materialize(), **embedded.options)
        except (TypeError, ValueError):
            return self._undecided_dump(embedded)
        converted = _as_json(root)
        if converted is None or any(n.kind == "opaque" for _, _, n in root.walk()):
            return self._undecided_dump(embedded)
        kind = self._named_kind(embedded) or sniff(json.loads(text))
        if kind is None:
            return None
        loader_name = _loader_name(embedded, "written.json")
        inner = parse_document(text, _syntax(kind, loader_name))
        doc: Document
        if inner.ok and _canonical(inner.value) == _canonical(converted.materialize()):
            doc = self._python_document(embedded, converted)
        else:
            whole = TextPositions(text, tuple(root.span.start for _ in text), root.span.end)
            doc = EmbeddedDocument(
                inner, whole, source=self.lines, file_comments=self.comments, extent=_extent(embedded)
            )
        return self._written(embedded, doc, inner, kind, loader_name, "written.json")

    def _written(
        self, embedded: Embedded, doc: Document, inner: Document, kind: str, loader_name: str, unnamed: str
    ) -> FileReport:
        """The report of a text written to a file (*inner*: the text as lionagi loads it; *doc*:
        it located in the Python file), read as the file *loader_name* (*unnamed* when the
        file's name is not known)."""
        report = lint_document(doc, loader_name, kind=kind, settings=Settings(), fixes=self.fixes, suppress=False)
        report.diagnostics = finish(report.diagnostics, doc, self.settings, self.path, suppress=False)
        if kind == "form" and embedded.reads_as == "mapping":
            _loaded_only(report, inner)
        undecided = kind == "script" and loader_name == unnamed and report.verdict is not Verdict.REJECTED
        if undecided and not _same_as_json(inner.text, doc.value):
            report.verdict = Verdict.INSUFFICIENT_EVIDENCE
            report.note = "the written file's name decides whether lionagi reads it as YAML or JSON"
        report.path = self.path
        report.embedded = _embedding(embedded)
        report.document = doc
        return report

    def _undecided_dump(self, embedded: Embedded) -> FileReport | None:
        """JSON text of a value with run-time parts: which file it makes is not known."""
        kind = self._named_kind(embedded)
        if kind is None:
            return None
        assert embedded.root is not None
        doc = self._python_document(embedded, embedded.root)
        shown = [rules.PY001.problem(path=path, what=_what(node)) for path, node in doc.opaque]
        diagnostics = finish(to_diagnostics(doc, shown, False), doc, self.settings, self.path, suppress=False)
        return FileReport(
            self.path,
            kind,
            Verdict.INSUFFICIENT_EVIDENCE,
            diagnostics,
            note="the JSON text holds parts only known at run time",
            document=doc,
            embedded=_embedding(embedded),
        )

    def _named_kind(self, embedded: Embedded) -> str | None:
        """The kind the call reading a written file gives it, else the one its name gives."""
        from formscript.lint.kinds import kind_from_name

        return embedded.kind or (kind_from_name(embedded.target, self.settings) if embedded.target else None)

    def _python_document(self, embedded: Embedded, root: PyNode) -> PyDocument:
        return PyDocument(self.text, root, source=self.lines, file_comments=self.comments, extent=_extent(embedded))

    # -- the file's suppressions

    def suppress(self, parts: list[FileReport]) -> None:
        """Apply the file's suppression comments across its documents."""
        if "formscript:" not in self.text or not parts:
            return
        from formscript.lint.suppress import find_suppressions

        comments: list[Comment] = list(self.comments or [])
        for part in parts:
            doc = part.document
            if isinstance(doc, EmbeddedDocument):
                comments.extend(type(c)(doc.map_span(c.span), c.text) for c in doc.inner.comments())
        suppressions = find_suppressions(sorted(comments, key=lambda c: c.span.start))
        if not suppressions:
            return
        for part in parts:
            kept = []
            for diagnostic in part.diagnostics:
                hit = next((s for s in suppressions if s.covers(diagnostic.code, diagnostic.span.start.line)), None)
                if hit is None:
                    kept.append(diagnostic)
                else:
                    hit.used.add(diagnostic.code)
            part.diagnostics = kept
        for suppression in suppressions:
            owner = self._owner(parts, suppression)
            owner.diagnostics = in_order(
                [*owner.diagnostics, *suppression_findings([suppression], self.settings, self.path)]
            )

    def _owner(self, parts: list[FileReport], suppression: Suppression) -> FileReport:
        """The document a suppression comment belongs to: the one on its lines, else the next."""
        line = suppression.line
        for part in parts:
            first, last = self.extents.get(id(part), (0, 0))
            if first <= line <= last:
                return part
        after = [p for p in parts if self.extents.get(id(p), (0, 0))[0] > line]
        return after[0] if after else parts[-1]


def _syntax(kind: str, loader_name: str) -> Syntax:
    """The syntax lionagi loads a written file of *kind* in, by the name it reads it under."""
    if kind == "script":
        from formscript.core.script import loads_as_yaml

        return "yaml" if loads_as_yaml(loader_name) else "json"
    return "json" if loader_name.endswith(".json") and kind != "form" else "yaml"


def _loader_name(embedded: Embedded, unnamed: str) -> str:
    """The name a written file is read under: its own, unless the call that reads it decides
    the syntax (``from_yaml`` / ``from_json``) and the name's suffix says otherwise."""
    name = embedded.target
    syntax = embedded.reads_as
    if syntax not in ("yaml", "json"):
        return name or unnamed
    from formscript.core.script import loads_as_yaml

    if name is not None and loads_as_yaml(name) == (syntax == "yaml"):
        return name
    return f"{name or 'written'}.{syntax}"


def _loaded_only(report: FileReport, loaded: Document) -> None:
    """A form spec lionagi only loads (``_load_form_spec``): it is refused only when it does
    not load as a mapping; what building the form would refuse is not reported."""
    report.diagnostics = [d for d in report.diagnostics if _kind_of(d.code) != "form" or d.code == rules.FS002.code]
    report.verdict = Verdict.ACCEPTED if loaded.ok and isinstance(loaded.value, dict) else Verdict.REJECTED
    report.gate = None


def _kind_of(code: str) -> str | None:
    """The kind of file the rule of *code* checks (None: no such rule)."""
    rule = rules.get(code)
    return rule.kind if rule is not None else None


def _embedding(embedded: Embedded) -> Embedding:
    return Embedding(embedded.call, embedded.range, embedded.call_span)


def _extent(embedded: Embedded) -> tuple[int, int]:
    """The lines whose comments concern *embedded*: its call's, and the line above."""
    start = min(embedded.call_span.start.line, embedded.range.start.line)
    end = max(embedded.call_span.end.line, embedded.range.end.line)
    return max(start - 1, 0), end


def _under(path: KeyPath, prefix: KeyPath) -> bool:
    return tuple(path)[: len(prefix)] == tuple(prefix)


def _related(a: KeyPath, b: KeyPath) -> bool:
    """Whether one path is inside (or is) the other."""
    return _under(a, b) or _under(b, a)


def _dependencies(problem: Problem) -> list[KeyPath]:
    """The parts a problem's truth depends on besides its own place."""
    path = tuple(problem.path)
    rule = problem.rule
    if rule is rules.FS012 and len(path) == 2:
        return [path, ("values", path[1])]
    if rule in (rules.FS013, rules.FS014, rules.FS016, rules.FS017) and len(path) == 2:
        return [path, ("fields", path[1])]
    if rule is rules.RS100:
        return [path, ("fields",), ("values",), ("ruleset",)]
    if rule in (rules.SC011, rules.SC015, rules.SC016):
        return [path, ("responses",), ("mode",)]
    return [path]


def _sort_out(
    problems: list[Problem], opaque: list[tuple[KeyPath, PyNode]]
) -> tuple[list[Problem], list[tuple[Problem, list[KeyPath]]]]:
    """The problems that hold whatever the opaque parts are, and the others with the opaque
    parts they touch."""
    if not opaque:
        return problems, []
    certain: list[Problem] = []
    unsure: list[tuple[Problem, list[KeyPath]]] = []
    for problem in problems:
        touched = [path for path, _ in opaque if any(_related(path, needed) for needed in _dependencies(problem))]
        if touched and problem.span is None:  # one found on the call itself stands where it is written
            unsure.append((problem, touched))
        else:
            certain.append(problem)
    return certain, unsure


def _what(node: PyNode) -> str:
    return node.note or "this part"


def _as_json(node: PyNode) -> PyNode | None:
    """*node* as ``json.loads(json.dumps(...))`` gives it back (keys as strings, tuples as
    lists), on the same source; None for what JSON cannot hold."""
    if node.kind == "scalar":
        value = node.value
        return node if value is None or isinstance(value, bool | int | float | str) else None
    if node.kind == "seq":
        if node.seq_type not in (list, tuple):
            return None
        items = [_as_json(item) for item in node.items]
        if any(item is None for item in items):
            return None
        return PyNode.sequence(node.span, [i for i in items if i is not None])
    if node.kind != "dict":
        return None
    pairs = []
    for key, value in node.pairs:
        converted = _as_json(value)
        if converted is None or key.kind != "scalar":
            return None
        raw = key.value
        if isinstance(raw, str):
            written = key
        elif raw is None or isinstance(raw, bool | int | float):
            written = PyNode.scalar(json.dumps(raw), key.span)  # how json writes a key that is not a string
        else:
            return None
        pairs.append((written, converted))
    return PyNode.mapping(node.span, pairs)


def _same_as_json(text: str, value: Any) -> bool:
    """Whether *text* reads as JSON to the same value YAML read (the loader then does not matter)."""
    try:
        loaded = json.loads(text)
    except ValueError:
        return False
    return bool(_canonical(loaded) == _canonical(value))


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return ("dict", tuple((repr(k), _canonical(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ("list", tuple(_canonical(v) for v in value))
    return (type(value).__name__, repr(value))
