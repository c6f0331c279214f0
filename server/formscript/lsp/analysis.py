"""One linted text and everything the features need from it, computed once per version."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from formscript.document import Document, Location, Pos
from formscript.document.positions import Breaks
from formscript.lint.config import Settings
from formscript.lint.diagnostics import Change, Diagnostic, Fix
from formscript.lint.engine import FileReport, fix_for, lint_text
from formscript.lint.incremental import Incremental
from formscript.lint.python_lint import lint_python
from formscript.lint.report import Embedding
from formscript.lsp import context
from formscript.lsp.facade import KeyPath
from formscript.lsp.positions import Positions


def uri_to_path(uri: str) -> str:
    """The file-system path of a ``file:`` URI (other schemes: the URI's path part)."""
    parsed = urlparse(uri)
    path = unquote(parsed.path)
    if parsed.scheme == "file" and len(path) > 2 and path[0] == "/" and path[2] == ":":
        path = path[1:]  # file:///C:/x on Windows
    return path or uri


def path_to_uri(path: str | Path) -> str:
    """A ``file:`` URI for *path* (links resolved; a link loop keeps its own name)."""
    try:
        return Path(path).resolve().as_uri()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python 3.11)
        return Path(path).absolute().as_uri()


def inside(path: str | Path, roots: Sequence[str]) -> bool:
    """Whether *path*, links resolved, lies inside one of the folders *roots*."""
    try:
        target = Path(path).resolve()
    except (OSError, RuntimeError):
        return False
    for root in roots:
        with contextlib.suppress(OSError, RuntimeError):
            if target.is_relative_to(Path(root).resolve()):
                return True
    return False


@dataclass
class Analysis:
    """A document's text and lint report, with its position converter."""

    uri: str
    path: str
    version: int | None
    text: str
    report: FileReport
    positions: Positions
    #: The settings generation the report was made with.
    generation: int
    #: The settings the report was made with.
    settings: Settings = field(default_factory=Settings)
    #: Fixes built for code actions, and whether each passed the check: by diagnostic.
    _fixes: dict[int, Fix | None] = field(default_factory=dict, repr=False, compare=False)
    _numbers: dict[int, int] = field(default_factory=dict, repr=False, compare=False)
    #: An earlier version's outline, for ``outline`` to start from (dropped once it has).
    basis: context.Outline | None = field(default=None, repr=False, compare=False)

    def fix_of(self, diagnostic: Diagnostic) -> Fix | None:
        """*diagnostic*'s fix, built now and offered only when the fixed text passes the
        check ``formscript lint --fix`` applies (``lint.fixes.verify``)."""
        key = id(diagnostic)
        if key not in self._fixes:
            number, document = self._document_of(diagnostic)
            fix = fix_for(diagnostic, document) if document is not None else None
            if fix is not None:
                self._numbers[id(fix)] = number
                if self.check([fix]) is not None:
                    fix = None
            self._fixes[key] = fix
        return self._fixes[key]

    def check(self, fixes: list[Fix]) -> str | None:
        """Why *fixes* (made by ``fix_of``) applied together fail the check, or None."""
        from formscript.lint.fixes import checked

        def relint(text: str) -> FileReport:
            lint = lint_python if self.path.endswith(".py") else lint_text
            return lint(text, self.path, settings=self.settings, fixes=False)

        changes: dict[int, list[Change]] = {}
        for fix in fixes:
            assert fix.change is not None  # fix_of builds each fix on its document, with its change
            changes.setdefault(self._numbers.get(id(fix), 0), []).append(fix.change)
        breaks: Breaks = "python" if self.path.endswith(".py") else "yaml"
        outcome = checked(self.report, self.text, fixes, relint, breaks, changes)
        return outcome if isinstance(outcome, str) else None

    def _document_of(self, diagnostic: Diagnostic) -> tuple[int, Document | None]:
        """The number (see ``lint.fixes.documents``) and document *diagnostic* was made on."""
        for number, part in enumerate(self.report.parts or ()):
            if any(d is diagnostic for d in part.diagnostics):
                return number, part.document
        return 0, self.report.document

    @cached_property
    def outline(self) -> context.Outline:
        """The text's lines as completion and hover read them, kept for this version: each
        line is read once however many requests ask (and measured only where it differs
        from the earlier version's outline ``basis``)."""
        made = context.Outline(self.positions.lines, self.basis)
        self.basis = None
        return made

    def handed_on(self) -> context.Outline | None:
        """The outline the next version's analysis starts from: this one's, once made."""
        made = self.__dict__.get("outline")
        return made if isinstance(made, context.Outline) else self.basis

    @property
    def kind(self) -> str | None:
        """The file kind: form, script, rules, calls, or None."""
        return self.report.kind

    @property
    def document(self) -> Document | None:
        """The located document, when the text parsed."""
        doc = self.report.document
        return doc if doc is not None and doc.ok else None

    def value_at(self, path: KeyPath) -> Any:
        """The loaded value at *path* (None when absent)."""
        doc = self.document
        current: Any = doc.value if doc is not None else None
        for part in path:
            if isinstance(current, dict):
                current = current.get(part)
            elif isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
                current = current[part]
            else:
                return None
        return current

    def entry(self, path: KeyPath) -> Location | None:
        """The located entry at *path*."""
        doc = self.document
        return doc.entry(tuple(path)) if doc is not None else None

    def runnable(self) -> list[tuple[FileReport, Embedding]]:
        """In a Python file, the forms and scripts it hands to lionagi, each with where it is
        (a ``FieldSpec(...)`` on its own declares: it is not a form to dry-run)."""
        return [
            (part, part.embedded)
            for part in self.report.parts or []
            if part.embedded is not None and (part.kind == "script" or (part.kind == "form" and part.gate is not None))
        ]

    def part_at(self, pos: Pos) -> Analysis | None:
        """For a Python file, the analysis of the document whose literal (or call) holds
        *pos* — the innermost one; None when no document does, or for another file."""
        best: tuple[tuple[int, int], FileReport] | None = None
        for part in self.report.parts or ():
            embedded = part.embedded
            if embedded is None or part.document is None:
                continue
            for span in (embedded.span, embedded.call_span):
                if span is not None and span.start <= pos <= span.end:
                    size = (span.end.line - span.start.line, span.end.column - span.start.column)
                    if best is None or size < best[0]:
                        best = (size, part)
        if best is None:
            return None
        return replace(self, report=best[1])


def analyse(
    uri: str,
    text: str,
    version: int | None,
    settings: Settings,
    encoding: str,
    generation: int,
    incremental: Incremental | None = None,
    previous: Positions | None = None,
    basis: context.Outline | None = None,
) -> Analysis:
    """Lint *text* as the document *uri* (a Python file: the scripts and forms it hands to
    lionagi, each a part of the report); *incremental* reuses what the document's earlier
    versions left (the report is the same), *previous* the lines of an earlier version's
    position converter and *basis* its outline (the lines and their shapes are the same)."""
    path = uri_to_path(uri)
    # fixes are built when a code action asks
    if path.endswith(".py"):
        report = lint_python(text, path, settings=settings, fixes=None)
    elif incremental is not None:
        report = incremental.lint(text, path, settings, fixes=None)
    else:
        report = lint_text(text, path, settings=settings, fixes=None)
    positions = Positions(text, encoding, previous)
    return Analysis(uri, path, version, text, report, positions, generation, settings, basis=basis)
