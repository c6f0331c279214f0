"""Rule cases as data: loading ``tests/rules/<CODE>/{fail,pass}_*.yaml`` and linting them.

A case file is YAML (see README.md here): ``name`` (the file name the text is linted as),
``text`` or ``text_base64``, optional ``form`` (a paired form: rulesets are then checked as
with ``--form``), ``expect`` (every diagnostic as ``CODE severity L:C-L:C``, 1-based as the
CLI prints, in output order) and an optional ``verdict``.

The text is written to a file and read back through the CLI's own reading function, so the
encoding rules of ``formscript lint`` (UTF-8 only, BOM, NUL, CR line ends ...) apply to cases
exactly as they apply to files on disk.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from formscript.lint.config import Settings
from formscript.lint.engine import PairedForm, lint_text
from formscript.lint.python_lint import lint_python
from formscript.lint.reading import read_report_or_text
from formscript.lint.report import FileReport

HERE = Path(__file__).parent
REPO = HERE.parent.parent

#: ``CODE severity startLine:startCol-endLine:endCol``
EXPECT_LINE = re.compile(r"^(?P<code>[A-Z]+[0-9]+) (?P<severity>error|warning|info|hint) \d+:\d+-\d+:\d+$")
CODE_DIR = re.compile(r"^[A-Z]+[0-9]+$")
CASE_FILE = re.compile(r"^(?P<kind>fail|pass)_[a-z0-9_]+\.yaml$")
VERDICTS = ("accepted", "rejected", "insufficient_evidence", "validator_error", "skipped")
KEYS = {"name", "text", "text_base64", "form", "expect", "verdict"}

#: The file name a case is linted as when it gives no ``name``, by the kind of its rule.
DEFAULT_NAMES = {
    "form": "example.form.yaml",
    "script": "example.script.yaml",
    "rules": "example.rules.yaml",
    "calls": "example.calls.yaml",
}

#: The file name a paired ``form:`` is linted as.
PAIRED_FORM_NAME = "paired.form.yaml"


@dataclass(frozen=True)
class RegisteredRule:
    """What the tests need to know of one registered rule."""

    code: str
    kind: str  # form | script | rules | calls | any
    severity: str
    #: The file name its documented examples are linted as.
    example_name: str
    failing_example: str
    passing_example: str
    #: The form its documented examples are paired with (rulesets), or None.
    example_form: str | None


def registered_rules() -> tuple[RegisteredRule, ...]:
    """Every rule in the ``formscript.rules`` registry (the one place that knows it)."""
    from formscript import rules
    from formscript.rules.base import EXAMPLE_FORM

    return tuple(
        RegisteredRule(
            rule.code,
            rule.kind,
            rule.severity,
            rule.example_path(),
            rule.fails or "",
            rule.passes or "",
            EXAMPLE_FORM if rule.kind == "rules" else None,
        )
        for rule in rules.all_rules()
    )


@dataclass(frozen=True)
class Case:
    """One case file, parsed and checked for shape."""

    path: Path
    code: str
    kind: str  # fail | pass
    summary: str
    name: str
    data: bytes
    form: str | None
    expect: tuple[str, ...]
    verdict: str | None

    @property
    def id(self) -> str:
        return f"{self.code}/{self.path.name}"


class CaseError(ValueError):
    """A case file that does not follow the format."""


def case_paths() -> list[Path]:
    """Every case file, sorted (directories by code, files by name)."""
    return sorted(HERE.glob("*/*.yaml"))


def case_dirs() -> list[Path]:
    """Every directory of cases."""
    return sorted(p for p in HERE.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def load_case(path: Path, default_kind: str | None = None) -> Case:
    """Parse *path*; raise CaseError when it does not follow the format."""
    where = f"{path.parent.name}/{path.name}"
    named = CASE_FILE.match(path.name)
    if named is None:
        raise CaseError(f"{where}: a case file is named fail_<what>.yaml or pass_<what>.yaml")
    if not CODE_DIR.match(path.parent.name):
        raise CaseError(f"{where}: a case directory is named by its code")
    raw = path.read_text(encoding="utf-8")
    first = raw.splitlines()[0] if raw else ""
    if not first.startswith("# ") or len(first) < 6:
        raise CaseError(f"{where}: the first line is a comment saying what the case shows")
    data: Any = yaml.safe_load(raw)
    if not isinstance(data, dict):
        raise CaseError(f"{where}: a case is a mapping")
    unknown = sorted(set(map(str, data)) - KEYS)
    if unknown:
        raise CaseError(f"{where}: unknown keys {unknown}; allowed: {sorted(KEYS)}")
    if ("text" in data) == ("text_base64" in data):
        raise CaseError(f"{where}: give exactly one of text and text_base64")
    if "text" in data:
        if not isinstance(data["text"], str):
            raise CaseError(f"{where}: text is a string (a block scalar)")
        body = data["text"].encode("utf-8")
    else:
        try:
            body = base64.b64decode(str(data["text_base64"]).encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError) as exc:
            raise CaseError(f"{where}: text_base64 is not base64 ({exc})") from exc
    name = data.get("name")
    if name is None:
        name = DEFAULT_NAMES.get(default_kind or "", "example.form.yaml")
    if not isinstance(name, str) or not name or "/" in name or "\\" in name:
        raise CaseError(f"{where}: name is a plain file name")
    form = data.get("form")
    if form is not None and not isinstance(form, str):
        raise CaseError(f"{where}: form is a string (a block scalar)")
    expect = data.get("expect")
    if not isinstance(expect, list) or not all(isinstance(e, str) and EXPECT_LINE.match(e) for e in expect):
        raise CaseError(f"{where}: expect is a list of 'CODE severity L:C-L:C' lines ([] for none)")
    if named["kind"] == "pass" and expect:
        raise CaseError(f"{where}: a pass case expects no diagnostics at all")
    verdict = data.get("verdict")
    if verdict is not None and verdict not in VERDICTS:
        raise CaseError(f"{where}: verdict is one of {VERDICTS}")
    return Case(
        path,
        path.parent.name,
        named["kind"],
        first[2:].strip(),
        name,
        body,
        form,
        tuple(expect),
        verdict,
    )


@functools.cache
def _scratch() -> Path:
    """One scratch directory per process (removed at exit) for the files cases are read from."""
    holder = tempfile.TemporaryDirectory(prefix="formscript-cases-")
    _SCRATCH.append(holder)
    return Path(holder.name)


_SCRATCH: list[tempfile.TemporaryDirectory[str]] = []


def lint_bytes(data: bytes, name: str, form: str | None = None) -> FileReport:
    """Lint *data* as the file *name*, reading it as ``formscript lint`` reads files."""
    settings = Settings()
    path = _scratch() / name
    path.write_bytes(data)
    try:
        text, failed = read_report_or_text(str(path), None, settings)
    finally:
        path.unlink()
    if failed is not None:
        failed.path = name
        return failed
    if name.endswith(".py"):
        return _only_document(lint_python(text or "", name, settings=settings), name)
    paired = PairedForm(form, PAIRED_FORM_NAME) if form is not None else None
    return lint_text(text or "", name, settings=settings, paired_form=paired)


#: The verdict a Python case with several documents is given: the first of these any has.
_VERDICT_ORDER = ("validator_error", "rejected", "insufficient_evidence", "accepted")


def _only_document(bundle: FileReport, name: str) -> FileReport:
    """The documents a Python case hands to lionagi as one report: their diagnostics in
    order, and the strongest of their verdicts (a case without any is an error)."""
    parts = bundle.parts or []
    if not parts:
        raise CaseError(f"{name}: a Python case hands at least one script or form to lionagi")
    if len(parts) == 1:
        return parts[0]
    verdicts = {p.verdict for p in parts}
    ranked = sorted((v for v in verdicts if v is not None), key=lambda v: _VERDICT_ORDER.index(v.value))
    verdict = ranked[0] if ranked else None
    diagnostics = sorted((d for p in parts for d in p.diagnostics), key=lambda d: (d.sort_key(), d.span.end))
    return FileReport(name, parts[0].kind, verdict, diagnostics, document=parts[0].document)


def lint_case(case: Case) -> FileReport:
    """The report for *case*."""
    return lint_bytes(case.data, case.name, case.form)


@functools.cache
def _kinds() -> dict[str, str]:
    return {rule.code: rule.kind for rule in registered_rules()}


def load(path: Path) -> Case:
    """*path* as a case, its default name taken from its rule's kind."""
    return load_case(path, _kinds().get(path.parent.name))


@functools.cache
def report(path: Path) -> FileReport:
    """The report for the case at *path* (computed once per run: the tests only read it)."""
    return lint_case(load(path))


def diagnostic_lines(report: FileReport) -> list[str]:
    """The report's diagnostics as case lines, in output order."""
    lines = []
    for d in report.diagnostics:
        start, end = d.span.start, d.span.end
        lines.append(f"{d.code} {d.severity} {start.line + 1}:{start.column + 1}-{end.line + 1}:{end.column + 1}")
    return lines


def verdict_of(report: FileReport) -> str:
    """The report's verdict as a case spells it."""
    return report.verdict.value if report.verdict is not None else "skipped"
