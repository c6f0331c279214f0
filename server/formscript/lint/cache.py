"""A content-addressed cache of lint results, so an unchanged second run skips the work.

Nothing in the working tree can speak for formscript through it:

- it lives outside the repository by default (``$FORMSCRIPT_CACHE_DIR``, else
  ``$XDG_CACHE_HOME/formscript``, else ``~/.cache/formscript``; ``--cache-dir`` chooses
  another), one file per project folder, so a ``.formscript_cache/`` committed to a
  repository is never read;
- its salt is formscript's version and a hash of the content of its own code, and the key
  covers the file's path and text, its kind, the paired form, the settings and whether fixes
  were built; an entry from another version or another build of the code is never used;
- every entry is checked against the shape ``dump_report`` writes before it is used: a
  malformed one is a miss, never a crash;
- no link is followed: a cache folder that is a symbolic link is not used, the cache file is
  opened without following a link, and it is written as a new file inside the folder and
  renamed over the old one, so nothing is ever written outside the cache folder;
- fixes read back from the cache are shown but never applied: ``--fix`` builds its own.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

import formscript
from formscript.core.verdict import SEVERITIES, Verdict
from formscript.document import Edit, Pos, Span, TextDocument
from formscript.lint.diagnostics import Diagnostic, Fix
from formscript.lint.report import Embedding, Expected, FileReport

CACHE_VERSION = "lint-v3"

#: A cache file larger than this is not read (a run writes only the entries it used).
MAX_CACHE_BYTES = 256 * 1024 * 1024

_VERDICTS = {v.value for v in Verdict}


def default_cache_dir() -> Path:
    """Where the cache lives unless ``--cache-dir`` says: outside any repository."""
    chosen = os.environ.get("FORMSCRIPT_CACHE_DIR")
    if chosen:
        return Path(chosen)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "formscript"


def code_fingerprint() -> str:
    """formscript's version and a hash of the content of every file of its package."""
    package = Path(formscript.__file__).resolve().parent
    digest = hashlib.sha256(f"{formscript.__version__}\0{CACHE_VERSION}\0".encode())
    for path in sorted(package.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        digest.update(str(path.relative_to(package)).encode("utf-8", "surrogatepass") + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return f"{formscript.__version__}-{digest.hexdigest()[:32]}"


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
        "expected": None
        if report.expected is None
        else [report.expected.by, report.expected.outcome, _flat(report.expected.span), report.expected.raises],
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
            built_fix = Fix(fix[0], tuple(Edit(_span(s), t) for s, t in fix[2]), safe=fix[1])
        diagnostics.append(Diagnostic(code, severity, message, _span(span), built_fix))
    verdict = Verdict(data["verdict"]) if data["verdict"] is not None else None
    embedded = data.get("embedded")
    expected = data.get("expected")
    return FileReport(
        path,
        data["kind"],
        verdict,
        diagnostics,
        note=data["note"],
        document=document,
        embedded=Embedding(embedded[0], _span(embedded[1]), _span(embedded[2])) if embedded else None,
        expected=Expected(expected[0], expected[1], _span(expected[2]), expected[3]) if expected else None,
    )


def _is_span(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 4
        and all(type(n) is int and 0 <= n < 1 << 40 for n in value)
        and (value[0], value[1]) <= (value[2], value[3])
    )


def _is_fix(value: Any) -> bool:
    if value is None:
        return True
    return (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[0], str)
        and type(value[1]) is bool
        and isinstance(value[2], list)
        and all(isinstance(e, list) and len(e) == 2 and _is_span(e[0]) and isinstance(e[1], str) for e in value[2])
    )


def _is_diagnostic(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 5
        and isinstance(value[0], str)
        and isinstance(value[1], str)
        and value[1] in SEVERITIES
        and isinstance(value[2], str)
        and _is_span(value[3])
        and _is_fix(value[4])
    )


def _is_part(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    embedded = value.get("embedded")
    expected = value.get("expected")
    return (
        (
            expected is None
            or (
                isinstance(expected, list)
                and len(expected) == 4
                and isinstance(expected[0], str)
                and isinstance(expected[1], str)
                and _is_span(expected[2])
                and (expected[3] is None or isinstance(expected[3], str))
            )
        )
        and (value.get("kind") is None or isinstance(value.get("kind"), str))
        and (value.get("verdict") is None or (isinstance(value.get("verdict"), str) and value["verdict"] in _VERDICTS))
        and isinstance(value.get("note"), str)
        and isinstance(value.get("diagnostics"), list)
        and all(_is_diagnostic(d) for d in value["diagnostics"])
        and (
            embedded is None
            or (
                isinstance(embedded, list)
                and len(embedded) == 3
                and isinstance(embedded[0], str)
                and _is_span(embedded[1])
                and _is_span(embedded[2])
            )
        )
    )


def valid_entry(value: Any) -> bool:
    """Whether *value* has exactly the shape ``dump_report`` writes."""
    if not _is_part(value):
        return False
    parts = value.get("parts")
    return parts is None or (isinstance(parts, list) and all(_is_part(p) for p in parts))


class LintCache:
    """Results by key, loaded once and written back once (see the module)."""

    def __init__(self, directory: Path, salt: str, *, project: str | None = None) -> None:
        self.directory = directory
        self.salt = salt
        name = hashlib.sha256((project or os.getcwd()).encode("utf-8", "surrogatepass")).hexdigest()[:16]
        self.file = f"{CACHE_VERSION}-{name}.json"
        self.entries: dict[str, Any] = {}
        self.fresh: dict[str, Any] = {}
        with contextlib.suppress(Exception):  # an unreadable or malformed cache is an empty one
            stored = self._read()
            if isinstance(stored, dict) and stored.get("salt") == salt and isinstance(stored.get("entries"), dict):
                self.entries = stored["entries"]

    def _open_directory(self, create: bool) -> int | None:
        """A descriptor of the cache folder, never through a link; None when it is a link,
        not a folder, or (unless *create*) missing."""
        try:
            info = os.lstat(self.directory)
        except FileNotFoundError:
            if not create:
                return None
            os.makedirs(self.directory, mode=0o700, exist_ok=True)
            info = os.lstat(self.directory)
        if not stat.S_ISDIR(info.st_mode):
            return None  # a link (to anything) or a file: not used
        return os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)

    def _read(self) -> Any:
        folder = self._open_directory(create=False)
        if folder is None:
            return None
        try:
            fd = os.open(self.file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
        finally:
            os.close(folder)
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CACHE_BYTES:
                return None
            return json.loads(handle.read().decode("utf-8"))

    def key(self, path: str, text: str, kind: str | None, paired: str | None, settings: str = "") -> str:
        """The cache key of one lint job (*settings*: the ``repr`` of the file's settings)."""
        digest = hashlib.sha256()
        for part in (path, kind or "", paired or "", settings, text):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\x00")
        return digest.hexdigest()

    def get(self, key: str, path: str, text: str) -> FileReport | None:
        """The cached report for *key*, or None (also for an entry of the wrong shape)."""
        data = self.entries.get(key)
        if data is None or not valid_entry(data):
            return None
        try:
            report = load_report(path, text, data)
        except Exception:  # a shape valid_entry missed: a miss, not a crash
            return None
        self.fresh[key] = data
        return report

    def put(self, key: str, report: FileReport) -> None:
        """Remember *report* under *key*."""
        self.fresh[key] = dump_report(report)

    def save(self, *, gitignore: bool = False) -> None:
        """Write the entries used or produced by this run (older ones are dropped), as a new
        file in the cache folder renamed over the old one; *gitignore* also puts a
        ``.gitignore`` there (for a folder chosen with ``--cache-dir``, which may sit in a
        repository)."""
        try:
            folder = self._open_directory(create=True)
        except OSError:
            return  # a cache that cannot be written only costs time
        if folder is None:
            return
        temporary = f".{self.file}.{os.getpid()}.tmp"
        try:
            payload = json.dumps({"salt": self.salt, "entries": self.fresh}, separators=(",", ":"))
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary, dir_fd=folder)
            fd = os.open(temporary, flags, 0o600, dir_fd=folder)
            with os.fdopen(fd, "w", encoding="utf-8", errors="surrogatepass") as handle:
                handle.write(payload)
            os.replace(temporary, self.file, src_dir_fd=folder, dst_dir_fd=folder)
            if gitignore:
                with contextlib.suppress(FileExistsError):
                    ignore = os.open(".gitignore", flags, 0o644, dir_fd=folder)
                    with os.fdopen(ignore, "w", encoding="utf-8") as handle:
                        handle.write("*\n")
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=folder)
        finally:
            os.close(folder)
