"""Lint successive versions of one text, re-doing only what an edit touched.

A YAML script is split into its entries (``document.segments``): each entry is parsed on its
own and kept by its text, and each entry that builds is kept by its parsed value, so an edit
re-parses and re-builds one entry; the checks across entries (modes, matchers, duplicate ids,
the verdict) run again over the kept values, which are the values a whole parse gives. Where
the split cannot be trusted (see ``segments``) or the text does not load, the text is linted
whole, exactly as ``lint_text`` does. A form spec is split likewise into its top-level
members and the entries of ``fields`` and ``values`` (``document.form_segments``); the
declarations that built and each value's own findings are kept by the identity of what they
were parsed from, and the gate's checks across fields and values run again over them. Either
way the report is the one ``lint_text`` gives
(tests/test_incremental.py holds the two equal over random edit sequences).

Kept for a figure (bench/lsp_latency.py: keystroke to diagnostics p95 50 ms at 2,000 entries and
forms, 80 ms at 10,000): with the server's collector settings a typed value costs 1.2 ms here
against 116 ms for a whole lint of a 2,000-entry script, 4.3 ms against 700 ms at 10,000, and
6.5 ms against 55 ms for a 2,000-field form.
"""

from __future__ import annotations

from formscript.core.script import loads_as_yaml
from formscript.document.entrycache import EntryCache
from formscript.document.form_segments import FormCache, repeated_anchor
from formscript.document.located import YamlDocument, parse_document
from formscript.document.model import Document
from formscript.lint.config import Settings
from formscript.lint.engine import lint_document, lint_text
from formscript.lint.form_checks import FormMemo
from formscript.lint.kinds import kind_from_name, sniff
from formscript.lint.report import FileReport
from formscript.lint.script_checks import ScriptMemo

__all__ = ["Incremental"]


class Incremental:
    """What one document's earlier versions left to reuse."""

    def __init__(self) -> None:
        self._entries = EntryCache()
        self._memo = ScriptMemo()
        self._form = FormCache()
        self._form_memo = FormMemo()
        #: The kind the text to warm was linted as.
        self._warm_kind: str | None = None
        #: How the last text was linted: "spliced" or "whole" (for tests and the benchmark).
        self.last = ""
        #: The first version's text and (a script's) whole parse, to split ahead of the next
        #: edit (None before any, and once done).
        self._warm: tuple[str, Document | None] | None = None
        self._opened = False

    def warm(self) -> None:
        """Split the first version into its entries, and build the keys' table, so that the
        first edit and the first hover cost what every later one does. A script's
        entries are taken from the first version's whole parse where they can be
        (``EntryCache.adopt``), else parsed alone."""
        first, self._warm = self._warm, None
        if first is None:
            return
        text, whole = first
        if self._warm_kind == "form":
            self._form.document(text)
        elif not (isinstance(whole, YamlDocument) and self._entries.adopt(whole)):
            self._entries.document(text)
        # The keys' table (the models' fields: pydantic's import, ~65 ms) that hover and
        # completion read, so that the first request costs what every later one does.
        from formscript.core.keyprose import PROSE
        from formscript.core.keys import table

        for owner in PROSE:
            table(owner)

    def lint(self, text: str, path: str, settings: Settings, *, fixes: bool | None = None) -> FileReport:
        """The report ``lint_text(text, path, settings=settings, fixes=fixes)`` gives."""
        kind = kind_from_name(path, settings)
        if kind == "form" and not path.endswith(".json"):
            return self._lint_form(text, path, settings, fixes)
        if kind in ("script", None) and loads_as_yaml(path) and "responses:" in text:
            if not self._opened:
                # The first version is linted whole (the fastest first answer), its entries
                # built into the memo; ``warm`` splits it afterwards, off the path of that
                # answer, from the same parse.
                self._opened, self._warm_kind, self.last = True, kind, "whole"
                whole = parse_document(text, confirm=False)
                if whole.ok and (kind == "script" or sniff(whole.value) == "script"):
                    # what ``lint_text`` gives: it lints this very parse of a text that loads
                    self._warm = (text, whole)
                    return lint_document(whole, path, settings=settings, fixes=fixes, memo=self._memo)
                self._warm = (text, None)
                return self._whole(text, path, settings, fixes)
            # one anchor named in two entries: the whole parse refuses it, entries alone do not
            doc = self._entries.document(text) if not repeated_anchor(text) else None
            if doc is not None and (kind == "script" or sniff(doc.value) == "script"):
                report = lint_document(doc, path, settings=settings, fixes=fixes, memo=self._memo)
                raws = doc.value["responses"]
                if report.script is not None and len(self._memo.entries.built) > 2 * len(raws) + 64:
                    self._memo.keep_only(raws, report.script.entries)  # what the text still uses
                self.last = "spliced"
                return report
        return self._whole(text, path, settings, fixes)

    def _whole(self, text: str, path: str, settings: Settings, fixes: bool | None) -> FileReport:
        self.last = "whole"
        return lint_text(text, path, settings=settings, fixes=fixes)

    def _lint_form(self, text: str, path: str, settings: Settings, fixes: bool | None) -> FileReport:
        if not self._opened:  # as for a script: the first version whole, split afterwards
            self._opened, self._warm, self._warm_kind = True, (text, None), "form"
            return self._whole(text, path, settings, fixes)
        doc = self._form.document(text)
        if doc is None:
            return self._whole(text, path, settings, fixes)
        memo = self._form_memo
        report = lint_document(doc, path, settings=settings, kind="form", fixes=fixes, memo=memo)
        spec = doc.value
        fields, values = spec.get("fields"), spec.get("values")
        fields = fields if isinstance(fields, dict) else {}
        values = values if isinstance(values, dict) else {}
        if len(memo.declarations) + len(memo.values) > 2 * (len(fields) + len(values)) + 64:
            memo.keep_only(fields, values)  # what the text still uses
        self.last = "spliced"
        return report
