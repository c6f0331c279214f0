"""Output formats for ``formscript lint``: text, concise, json, sarif, github, junit.

Positions are 1-based lines and columns counted in code points at this edge.

Every format is valid UTF-8 whatever a file holds or is named (``printable``): a Python
string can carry lone surrogates — YAML reads ``"\\ud83d"`` that way, and a file name that is
not UTF-8 comes as ``caf\\udce9`` (surrogateescape) — which no UTF-8 text can hold.

Nothing a file controls reaches a terminal or a log viewer raw: in text, concise and GitHub
output every control character (C0, DEL, C1), bidirectional override or isolate and line
separator in a name, a message or a source excerpt is written as its ``\\xNN``/``\\uXXXX``
escape (``terminal_safe``), so no escape sequence runs (OSC 52, clear screen, OSC 8 links)
and no name or message forges or splits a line; JUnit XML escapes what XML cannot hold and
keeps line breaks in attributes as character references; SARIF URIs are percent-encoded.
A source excerpt is at most ``EXCERPT`` characters around its column, so a long one-line
file costs each diagnostic a line, not the file.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from formscript import __version__
from formscript.core.verdict import SEVERITIES, Verdict
from formscript.document import Span
from formscript.lint.diagnostics import Diagnostic
from formscript.lint.report import NOT_A_KIND, FileReport

JSON_VERSION = 1


def printable(text: str) -> str:
    """*text* with each character UTF-8 cannot encode (a lone surrogate) written as its
    ``\\uXXXX`` escape; text that encodes is returned as it is.

    One rule for every output: in JSON the escape is JSON's own, so a reader gets the exact
    string back (``json.loads`` returns the lone surrogate; a file name goes back to its bytes
    with ``os.fsencode``) — except that the two halves of a pair held as two characters read
    back as the one character they encode, as every JSON reader and the model's API read
    them; in text the escape is shown as written.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


#: What a terminal or a log viewer would act on: C0 controls but tab, DEL, C1 controls, the
#: bidirectional marks, embeddings, overrides and isolates, and Unicode's line separators.
_UNSAFE = "[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]"
#: The same, keeping line feeds and tabs (multi-line reports: dry runs, simulations).
_UNSAFE_LINES = _UNSAFE.replace("\x0a-", "\x0b-")
#: The widest source excerpt shown under a diagnostic, in characters.
EXCERPT = 160


def terminal_safe(text: str, *, lines: bool = False) -> str:
    """*text* with every character a terminal would act on (``_UNSAFE``) written as its
    escape; with *lines*, line feeds stay (the text is a multi-line report)."""
    if text.isascii() and text.isprintable():  # none of them (and no pattern compiled)
        return text
    return _compiled(_UNSAFE_LINES if lines else _UNSAFE).sub(lambda m: _escape_char(m.group()), text)


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """*pattern* compiled the first time it is used (a class of wide ranges takes milliseconds
    to compile: a run that never meets the character pays nothing)."""
    return re.compile(pattern)


def excerpt(source: str, col: int, width: int) -> tuple[str, int, int]:
    """The part of the line *source* shown under a diagnostic at 1-based *col*, *width*
    characters wide: (text, caret column, caret width), terminal-safe, at most about
    ``EXCERPT`` characters with ``…`` where it is cut."""
    start = max(0, col - 1 - EXCERPT // 2)
    end = min(len(source), max(col - 1 + width, start + EXCERPT))
    end = min(end, start + EXCERPT)
    head = "…" if start > 0 else ""
    tail = "…" if end < len(source) else ""
    before = terminal_safe(source[start : col - 1])
    marked = terminal_safe(source[col - 1 : min(col - 1 + width, end)])
    after = terminal_safe(source[min(col - 1 + width, end) : end])
    return head + before + marked + after + tail, len(head) + len(before) + 1, max(1, len(marked))


#: What XML 1.0 cannot hold at all, not even as a character reference.
#: (Written as the complement of XML 1.0's Char production: a negated class of its wide
#: ranges takes 7 ms to compile, at every start.)
_NOT_XML = "[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]"


def xml_text(text: str, *, quote: bool = True) -> str:
    """*text* for XML character data or an attribute value: markup escaped, and characters
    XML cannot hold (controls, lone surrogates, U+FFFE/U+FFFF) written as ``\\xNN`` /
    ``\\uXXXX``."""
    from html import escape  # JUnit only

    cleaned = _compiled(_NOT_XML).sub(lambda m: _escape_char(m.group()), text)
    return escape(cleaned, quote=quote)


def _escape_char(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _uri(path: str) -> str:
    """A path as a URI reference (SARIF's ``artifactLocation.uri``): ``/`` separators and
    everything else a URI cannot hold percent-encoded, the bytes of a name that is not UTF-8
    (surrogateescape) as those bytes."""
    posix = path.replace("\\", "/") if os.sep == "\\" else path  # a backslash is a name's own on POSIX
    try:
        data = posix.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name decodes to
        data = posix.encode("utf-8", "backslashreplace")
    from urllib.parse import quote  # SARIF only

    return quote(data, safe="/")


def _pos(d: Diagnostic) -> tuple[int, int, int, int]:
    return (d.span.start.line + 1, d.span.start.column + 1, d.span.end.line + 1, d.span.end.column + 1)


def _range(span: Span) -> dict[str, Any]:
    return {
        "start": {"line": span.start.line + 1, "column": span.start.column + 1},
        "end": {"line": span.end.line + 1, "column": span.end.column + 1},
    }


def _name(report: FileReport) -> str:
    """How a report is named: its path, and for an embedded document the line and the call."""
    if report.embedded is None:
        return report.path
    return f"{report.path}:{report.embedded.span.start.line + 1} {report.embedded.call}"


def summary(reports: Sequence[FileReport]) -> dict[str, Any]:
    """Counts by severity and verdict."""
    severities = Counter(d.severity for r in reports for d in r.diagnostics)
    verdicts = Counter(r.verdict for r in reports if r.verdict is not None)
    return {
        "files": len(reports),
        "checked": sum(1 for r in reports if not r.skipped),
        "skipped": sum(1 for r in reports if r.skipped),
        "diagnostics": sum(severities.values()),
        "by_severity": {k: severities.get(k, 0) for k in SEVERITIES},
        "by_verdict": {k.value: verdicts.get(k, 0) for k in Verdict},
        "fixable": sum(1 for r in reports for d in r.diagnostics if d.fix is not None),
    }


def render_json(reports: Sequence[FileReport]) -> str:
    """The versioned JSON contract, written exactly as ``json.dumps(payload, indent=2,
    ensure_ascii=False)`` writes its payload (tests/test_json_writer.py holds the payload as
    the reference), one formatted step per diagnostic: bench's problems corpus's 1.8 MB
    report in 17 ms, where ``json.dumps`` takes 136 ms (a third of that whole lint)."""
    return "".join(json_chunks(reports))


def json_chunks(reports: Sequence[FileReport]) -> Iterator[str]:
    """``render_json``'s text in pieces, one per file (and the head and the summary), for
    writing as it is made: the report is never held whole in memory, nor its bytes."""
    yield f'{{\n  "version": {_scalar(JSON_VERSION)},\n  "files": '
    for i, report in enumerate(reports):
        out = ["[\n    {" if i == 0 else ",\n    {"]
        out.append(
            f'\n      "path": {_scalar(report.path)},\n      "kind": {_scalar(report.kind)},'
            f'\n      "verdict": {_scalar(report.verdict.value if report.verdict is not None else None)},'
            '\n      "diagnostics": '
        )
        if report.diagnostics:
            out.append("[")
            out.append(",".join(map(_diagnostic_json, report.diagnostics)))
            out.append("\n      ]")
        else:
            out.append("[]")
        if report.embedded is not None:
            out.append(',\n      "embedded": ')
            where = {"call": report.embedded.call, "range": _range(report.embedded.span)}
            if report.embedded.call_span is not None:
                where["call_range"] = _range(report.embedded.call_span)
            _emit(where, "\n      ", out)
        if report.note:
            out.append(f',\n      "note": {_scalar(report.note)}')
        if report.expected is not None:
            expected = report.expected
            out.append(',\n      "expected": ')
            stated = {"by": expected.by, "outcome": expected.outcome, "range": _range(expected.span)}
            if expected.raises is not None:
                stated["raises"] = expected.raises
            _emit(stated, "\n      ", out)
        out.append("\n    }")
        yield "".join(out)
    out = ["\n  ]" if reports else "[]", ',\n  "summary": ']
    _emit(summary(reports), "\n  ", out)
    out.append("\n}\n")
    yield "".join(out)


def _scalar(value: Any) -> str:
    """A string, None, a boolean or an int as json writes it."""
    out: list[str] = []
    _emit(value, "", out)
    return out[0]


#: The newlines and indents of a diagnostic in the report (it sits at depth 4).
_D, _D1, _D2, _D3 = ("\n" + " " * n for n in (8, 10, 12, 14))


def _range_template(newline: str) -> str:
    """A range as json writes it (``{"start": {"line": …, "column": …}, "end": …}``, indented
    from *newline*), with ``%d`` for the four 1-based numbers."""
    inner, innermost = newline + "  ", newline + "    "
    position = f'{{{innermost}"line": %d,{innermost}"column": %d{inner}}}'
    return f'{{{inner}"start": {position},{inner}"end": {position}{newline}}}'


#: A diagnostic's code, severity, message and range, in one formatting step (``%s`` for
#: the three JSON strings, ``%d`` for the 1-based line and column of its start and end).
_DIAGNOSTIC = f'{_D}{{{_D1}"code": %s,{_D1}"severity": %s,{_D1}"message": %s,{_D1}"range": {_range_template(_D1)}'


#: One edit of a fix (``%d`` for its range's 1-based numbers, ``%s`` for the JSON string of
#: its new text), and a diagnostic with its fix (``%s`` for the diagnostic so far, the
#: description's JSON string, the safety and the edits).
_EDIT = f'{_D3}{{{_D3}  "range": {_range_template(_D3 + "  ")},{_D3}  "new_text": %s{_D3}}}'
_FIX = f'%s,{_D1}"fix": {{{_D2}"description": %s,{_D2}"safe": %s,{_D2}"edits": %s{_D1}}}{_D}}}'


def _diagnostic_json(d: Diagnostic) -> str:
    """One item of a file's ``diagnostics``, preceded by its newline and indent."""
    (start_line, start_column), (end_line, end_column) = d.span
    text = _DIAGNOSTIC % (
        _ENCODE(d.code),
        _ENCODE(d.severity),
        _ENCODE(d.message),
        start_line + 1,
        start_column + 1,
        end_line + 1,
        end_column + 1,
    )
    fix = d.fix
    if fix is None:
        return text + _D + "}"
    if fix.edits:
        edits = []
        for edit in fix.edits:
            (start_line, start_column), (end_line, end_column) = edit.span
            edits.append(
                _EDIT % (start_line + 1, start_column + 1, end_line + 1, end_column + 1, _ENCODE(edit.new_text))
            )
        written = "[" + ",".join(edits) + _D2 + "]"
    else:
        written = "[]"
    return _FIX % (text, _ENCODE(fix.description), "true" if fix.safe else "false", written)


def dumps_indented(value: Any) -> str:
    """Exactly ``json.dumps(value, indent=2, ensure_ascii=False)``, several times faster:
    with an indent the standard library falls back to its pure-Python encoder, one
    generator step per token. Strings go through the C string encoder."""
    out: list[str] = []
    _emit(value, "\n", out)
    return "".join(out)


_ENCODE = json.encoder.encode_basestring
_SCALARS = {True: "true", False: "false", None: "null"}


def _emit(value: Any, newline: str, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(_ENCODE(value))
    elif value is None or value is True or value is False:
        out.append(_SCALARS[value])
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        if (
            len(value) == 2
            and next(iter(value)) == "line"
            and type(value.get("line")) is int
            and type(value.get("column")) is int
        ):
            # a position, the most frequent object of a report: written in one step
            out.append(f'{{{inner}"line": {value["line"]},{inner}"column": {value["column"]}{newline}}}')
            return
        first = True
        for key, item in value.items():
            if not isinstance(key, str):  # json writes other keys as strings
                key = json.loads(json.dumps({key: 0}))
                key = next(iter(key))
            out.append(("{" if first else ",") + inner + _ENCODE(key) + ": ")
            first = False
            _emit(item, inner, out)
        out.append(newline + "}")
    elif isinstance(value, list | tuple):
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        first = True
        for item in value:
            out.append(("[" if first else ",") + inner)
            first = False
            _emit(item, inner, out)
        out.append(newline + "]")
    else:  # a float, say: what json writes for it
        out.append(json.dumps(value, ensure_ascii=False))


def render_concise(reports: Sequence[FileReport]) -> str:
    """One line per diagnostic."""
    lines = []
    for report in reports:
        for d in report.diagnostics:
            line, col, _, _ = _pos(d)
            lines.append(
                f"{terminal_safe(report.path)}:{line}:{col}: {d.severity}[{d.code}] {terminal_safe(d.message)}"
            )
    return "".join(f"{line}\n" for line in lines)


def render_text(reports: Sequence[FileReport], *, color: bool = False, show_verdicts: bool = True) -> str:
    """Each diagnostic with its source line and a caret underline, then a summary."""
    out: list[str] = []
    colours = {"error": "\x1b[31m", "warning": "\x1b[33m", "info": "\x1b[36m", "hint": "\x1b[2m"}
    bold, reset = ("\x1b[1m", "\x1b[0m") if color else ("", "")
    for report in reports:
        if report.skipped:
            continue
        lines = report.document.lines if report.document is not None else []
        for d in report.diagnostics:
            line, col, end_line, end_col = _pos(d)
            tint = colours.get(d.severity, "") if color else ""
            name, message = terminal_safe(report.path), terminal_safe(d.message)
            out.append(f"{bold}{name}:{line}:{col}:{reset} {tint}{d.severity}[{d.code}]{reset} {message}")
            if 0 <= d.span.start.line < len(lines):
                source = lines[d.span.start.line].rstrip("\r\n").replace("\t", " ")
                width = (end_col - col) if end_line == line else len(source) - col + 1
                shown, caret, width = excerpt(source, col, max(1, width))
                gutter = f"{line:>4} | "
                out.append(f"{gutter}{shown}")
                out.append(" " * (len(gutter) + caret - 1) + tint + "^" * width + reset)
            if d.fix is not None:
                kind = "fix" if d.fix.safe else "unsafe fix"
                out.append(f"     = {kind}: {terminal_safe(d.fix.description)}")
    if show_verdicts:
        for report in reports:
            if report.verdict is not None:
                out.append(f"{terminal_safe(_name(report))}: {report.verdict.value}")
            elif report.skipped and report.note and report.note != NOT_A_KIND:
                out.append(f"{terminal_safe(_name(report))}: {terminal_safe(report.note)}")
    s = summary(reports)
    sev = s["by_severity"]
    expected = sum(1 for r in reports if r.expected is not None)
    counted = f"; {expected} expected rejection(s), as their tests state" if expected else ""
    unsafe = sum(1 for r in reports for d in r.diagnostics if d.fix is not None and not d.fix.safe)
    fixable = f"{s['fixable']} fixable" + (f" ({unsafe} with --unsafe-fixes)" if unsafe else "")
    other = sum(1 for r in reports if r.skipped and r.note == NOT_A_KIND)
    skipped = f"{s['skipped']} skipped" + (f" ({other} of no kind formscript reads)" if other else "")
    out.append(
        f"{s['checked']} file(s) checked, {skipped}: {sev['error']} error(s), "
        f"{sev['warning']} warning(s), {sev['info']} info, {fixable}{counted}"
    )
    return "".join(f"{line}\n" for line in out)


def render_github(reports: Sequence[FileReport]) -> str:
    """GitHub Actions workflow commands."""
    level = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}
    lines = []
    for report in reports:
        for d in report.diagnostics:
            line, col, end_line, end_col = _pos(d)
            message = _github_data(terminal_safe(d.message))
            path = _github_data(terminal_safe(report.path)).replace(",", "%2C").replace(":", "%3A")
            lines.append(
                f"::{level[d.severity]} file={path},line={line},col={col},"
                f"endLine={end_line},endColumn={end_col},title={d.code}::{message}"
            )
    return "".join(f"{line}\n" for line in lines)


def _github_data(text: str) -> str:
    """*text* as a workflow command's data: ``%``, CR and LF percent-encoded."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def render_sarif(reports: Sequence[FileReport]) -> str:
    """SARIF 2.1.0 for code scanning."""
    from formscript import rules as registry

    used = sorted({d.code for r in reports for d in r.diagnostics})
    rules = []
    for code in used:
        doc = registry.get(code)
        rule: dict[str, Any] = {"id": code}
        if doc is not None:
            rule.update(
                {
                    "name": doc.name,
                    "shortDescription": {"text": doc.summary},
                    "fullDescription": {"text": doc.why},
                    "help": {"text": doc.why, "markdown": doc.page()},
                    "defaultConfiguration": {"level": _sarif_level(doc.severity)},
                }
            )
        rules.append(rule)
    index = {code: i for i, code in enumerate(used)}
    results = []
    for report in reports:
        for d in report.diagnostics:
            line, col, end_line, end_col = _pos(d)
            region = {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": max(end_col, col)}
            level = _sarif_level(d.severity)
            results.append(sarif_result(d.code, index[d.code], level, d.message, _uri(report.path), region))
    sarif = sarif_log("formscript", rules, results, columnKind="unicodeCodePoints")
    return json.dumps(sarif, indent=2, ensure_ascii=False) + "\n"


def _sarif_level(severity: str) -> str:
    return {"error": "error", "warning": "warning"}.get(severity, "note")


def sarif_log(tool: str, rules: list[dict[str, Any]], results: list[dict[str, Any]], **run: Any) -> dict[str, Any]:
    """A SARIF 2.1.0 log of one run of *tool* (formscript's lint, its pytest plugin's coverage):
    its *rules*, its *results* and the run's other properties *run*."""
    driver = {"name": tool, "version": __version__, "informationUri": "https://formscript.dev", "rules": rules}
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, **run, "results": results}],
    }


def sarif_result(code: str, index: int, level: str, text: str, uri: str, region: dict[str, int]) -> dict[str, Any]:
    """One SARIF result of the rule *code* (number *index* of the run's rules) at *region* of *uri*."""
    where = {"artifactLocation": {"uri": uri}, "region": region}
    return {
        "ruleId": code,
        "ruleIndex": index,
        "level": level,
        "message": {"text": text},
        "locations": [{"physicalLocation": where}],
    }


def quoteattr(text: str) -> str:
    """An XML attribute value in double quotes (see ``xml_text``); tabs and line breaks as
    character references, which attribute-value normalisation keeps (raw, they read as spaces)."""
    value = xml_text(text).replace("\t", "&#9;").replace("\n", "&#10;").replace("\r", "&#13;")
    return '"' + value + '"'


def render_junit(reports: Sequence[FileReport]) -> str:
    """JUnit XML: one test case per file, failing when it has error diagnostics."""
    cases = []
    failures = 0
    for report in reports:
        if report.skipped:
            continue
        errors = [d for d in report.diagnostics if d.severity == "error"]
        name = quoteattr(_name(report))
        if errors:
            failures += 1
            path = terminal_safe(report.path)
            body = "\n".join(f"{path}:{_pos(d)[0]}:{_pos(d)[1]}: [{d.code}] {terminal_safe(d.message)}" for d in errors)
            cases.append(
                f'  <testcase classname="formscript" name={name}>\n'
                f"    <failure message={quoteattr(f'{len(errors)} error(s)')}>"
                f"{xml_text(body, quote=False)}</failure>\n  </testcase>"
            )
        else:
            cases.append(f'  <testcase classname="formscript" name={name}/>')
    head = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="formscript" '
        f'tests="{len(cases)}" failures="{failures}" errors="0">'
    )
    return head + "\n" + "\n".join(cases) + ("\n" if cases else "") + "</testsuite>\n"


def render_chunks(fmt: str, reports: Sequence[FileReport], *, color: bool = False) -> Iterator[str]:
    """``render``'s text in pieces to write one after the other (JSON file by file), each
    left for the writer to make valid UTF-8 (``printable``: a lone surrogate is one character,
    so the pieces make the same text however it is cut)."""
    if fmt == "json":
        yield from json_chunks(reports)
    else:
        yield render(fmt, reports, color=color)


def render(fmt: str, reports: Sequence[FileReport], *, color: bool = False) -> str:
    """Render *reports* in format *fmt* (valid UTF-8 text: see ``printable``)."""
    others = {
        "json": render_json,
        "concise": render_concise,
        "sarif": render_sarif,
        "github": render_github,
        "junit": render_junit,
    }
    return printable(others[fmt](reports) if fmt in others else render_text(reports, color=color))
