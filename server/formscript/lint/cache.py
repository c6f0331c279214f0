"""A content-addressed cache of lint results, so an unchanged second run skips the work.

The key covers the file's path and text, its kind, the paired form, the settings and a
fingerprint of formscript's own code, so any change to one of them misses the cache.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from formscript.core.verdict import Verdict
from formscript.document import Pos, Span, TextDocument
from formscript.lint.diagnostics import Diagnostic, Fix, TextEdit
from formscript.lint.report import Embedding, FileReport

CACHE_FILE = "lint-v1.json"


def code_fingerprint() -> str:
    """Changes whenever a module of formscript changes (size and mtime of every source file)."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        info = path.stat()
        digest.update(f"{path.relative_to(package)}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def _span(data: list[int]) -> Span:
    return Span(Pos(data[0], data[1]), Pos(data[2], data[3]))


def _flat(span: Span) -> list[int]:
    return [span.start.line, span.start.column, span.end.line, span.end.column]


def dump_report(report: FileReport) -> dict[str, Any]:
    """A JSON-ready form of *report* (without the parsed document)."""
    dumped = _dump(report)
    if report.parts is not None:
        dumped["parts"] = [_dump(part) for part in report.parts]
    return dumped


def _dump(report: FileReport) -> dict[str, Any]:
    embedded = report.embedded
    return {
        "embedded": None
        if embedded is None
        else [embedded.call, _flat(embedded.span), _flat(embedded.call_span or embedded.span)],
        "kind": report.kind,
        "verdict": report.verdict.value if report.verdict is not None else None,
        "note": report.note,
        "diagnostics": [
            [
                d.code,
                d.severity,
                d.message,
                _flat(d.span),
                None
                if d.fix is None
                else [d.fix.description, d.fix.safe, [[_flat(e.span), e.new_text] for e in d.fix.edits]],
            ]
            for d in report.diagnostics
        ],
    }


def load_report(path: str, text: str, data: dict[str, Any]) -> FileReport:
    """The report stored by dump_report, with a light document for source lines."""
    if "parts" not in data:
        return _load(path, TextDocument(text), data)
    from formscript.lint.python_lint import PythonText

    document = PythonText(text)
    report = _load(path, document, data)
    report.parts = [_load(path, document, part) for part in data["parts"]]
    return report


def _load(path: str, document: TextDocument, data: dict[str, Any]) -> FileReport:
    diagnostics = []
    for code, severity, message, span, fix in data["diagnostics"]:
        built_fix = None
        if fix is not None:
            built_fix = Fix(fix[0], tuple(TextEdit(_span(s), t) for s, t in fix[2]), safe=fix[1])
        diagnostics.append(Diagnostic(code, severity, message, _span(span), built_fix))
    verdict = Verdict(data["verdict"]) if data["verdict"] is not None else None
    embedded = data.get("embedded")
    return FileReport(
        path,
        data["kind"],
        verdict,
        diagnostics,
        note=data["note"],
        document=document,
        embedded=Embedding(embedded[0], _span(embedded[1]), _span(embedded[2])) if embedded else None,
    )


class LintCache:
    """Results by key, loaded once and written back once."""

    def __init__(self, directory: Path, salt: str) -> None:
        self.directory = directory
        self.salt = salt
        self.entries: dict[str, Any] = {}
        self.fresh: dict[str, Any] = {}
        try:
            stored = json.loads((directory / CACHE_FILE).read_text(encoding="utf-8"))
            if isinstance(stored, dict) and stored.get("salt") == salt:
                self.entries = stored.get("entries", {})
        except (OSError, ValueError):
            pass

    def key(self, path: str, text: str, kind: str | None, paired: str | None) -> str:
        """The cache key of one lint job."""
        digest = hashlib.sha256()
        for part in (path, kind or "", paired or "", text):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\x00")
        return digest.hexdigest()

    def get(self, key: str, path: str, text: str) -> FileReport | None:
        """The cached report for *key*, or None."""
        data = self.entries.get(key)
        if data is None:
            return None
        self.fresh[key] = data
        return load_report(path, text, data)

    def put(self, key: str, report: FileReport) -> None:
        """Remember *report* under *key*."""
        self.fresh[key] = dump_report(report)

    def save(self) -> None:
        """Write the entries used or produced by this run (older ones are dropped)."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            target = self.directory / CACHE_FILE
            temporary = target.with_suffix(f".{os.getpid()}.tmp")
            payload = {"salt": self.salt, "entries": self.fresh}
            temporary.write_text(json.dumps(payload, separators=(",", ":")), encoding="utf-8")
            os.replace(temporary, target)
            gitignore = self.directory / ".gitignore"
            if not gitignore.exists():
                gitignore.write_text("*\n", encoding="utf-8")
        except OSError:
            pass  # a cache that cannot be written only costs time
