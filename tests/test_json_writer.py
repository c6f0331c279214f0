"""The JSON report's writer gives exactly the bytes ``json.dumps(indent=2)`` gives (it only
exists because the standard library's indented encoder is pure Python)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from formscript.lint.formats import dumps_indented

PIECES = ["a", "é", "\n", '"', "\\", "\u2028", "\x00", "\x7f", "\ud800", "😀", " ", "\t", "/", "</script>"]


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 4 or roll < 0.4:
        return rng.choice(
            [
                None,
                True,
                False,
                0,
                -(10**30),
                rng.randrange(-(10**6), 10**6),
                1.5,
                -0.0,
                float("inf"),
                "".join(rng.choice(PIECES) for _ in range(rng.randrange(6))),
            ]
        )
    if roll < 0.7:
        keys = ["".join(rng.choice(PIECES) for _ in range(rng.randrange(4))), 3, None, True, 2.5]
        return {rng.choice(keys): _value(rng, depth + 1) for _ in range(rng.randrange(4))}
    return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]


def test_same_bytes_as_the_standard_library_on_random_values() -> None:
    rng = random.Random(20261201)
    for _ in range(5000):
        value = _value(rng)
        assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_same_bytes_on_positions_in_any_order_and_type() -> None:
    for position in (
        {"line": 1, "column": 2},
        {"column": 2, "line": 1},
        {"line": True, "column": 2},
        {"line": 1, "column": "2"},
        {"line": -(10**40), "column": 0},
        {"line": 1, "col": 2},
    ):
        value = {"range": {"start": position, "end": [position]}}
        assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_same_bytes_on_a_report_shaped_value() -> None:
    report = {
        "version": 1,
        "files": [
            {"path": "a.yaml", "kind": None, "verdict": None, "diagnostics": [], "note": "skipped"},
            {
                "path": "b\u2028.yaml",
                "kind": "script",
                "verdict": "rejected",
                "diagnostics": [
                    {
                        "code": "SC005",
                        "severity": "error",
                        "message": "content True is invalid",
                        "range": {"start": {"line": 1, "column": 2}, "end": {"line": 1, "column": 5}},
                        "fix": {"description": "quote", "safe": True, "edits": [{"new_text": "'yes'"}]},
                    }
                ],
            },
        ],
        "summary": {"files": 2, "by_severity": {}},
    }
    assert dumps_indented(report) == json.dumps(report, indent=2, ensure_ascii=False)


def test_character_classes_match_their_definitions_on_every_code_point() -> None:
    """The classes are written as small positive ranges (a negated class of wide ranges costs
    milliseconds to compile at every start); they must mean what their definitions say."""
    from formscript.document.writing import _NOT_SINGLE
    from formscript.lint.formats import _NOT_XML

    def xml_char(cp: int) -> bool:  # XML 1.0, production [2] Char
        return cp in (0x9, 0xA, 0xD) or 0x20 <= cp <= 0xD7FF or 0xE000 <= cp <= 0xFFFD or cp >= 0x10000

    def single_ok(cp: int) -> bool:  # printable, no line break, no BOM: held as-is in '...'
        return (
            cp == 0x9
            or 0x20 <= cp <= 0x7E
            or 0xA0 <= cp <= 0x2027
            or 0x202A <= cp <= 0xD7FF
            or 0xE000 <= cp <= 0xFEFE
            or 0xFF00 <= cp <= 0xFFFD
            or cp >= 0x10000
        )

    for cp in range(0x110000):
        char = chr(cp)
        assert (re.match(_NOT_XML, char) is None) == xml_char(cp), hex(cp)
        assert (re.match(_NOT_SINGLE, char) is None) == single_ok(cp), hex(cp)


def _reference_payload(reports: list[Any]) -> dict[str, Any]:
    """The JSON contract's payload, built as plain values (what ``render_json`` writes)."""
    from formscript.lint.formats import JSON_VERSION, summary

    def rng(span: Any) -> dict[str, Any]:
        return {
            "start": {"line": span.start.line + 1, "column": span.start.column + 1},
            "end": {"line": span.end.line + 1, "column": span.end.column + 1},
        }

    files = []
    for report in reports:
        diagnostics = []
        for d in report.diagnostics:
            item: dict[str, Any] = {"code": d.code, "severity": d.severity, "message": d.message, "range": rng(d.span)}
            if d.fix is not None:
                item["fix"] = {
                    "description": d.fix.description,
                    "safe": d.fix.safe,
                    "edits": [{"range": rng(e.span), "new_text": e.new_text} for e in d.fix.edits],
                }
            diagnostics.append(item)
        entry: dict[str, Any] = {
            "path": report.path,
            "kind": report.kind,
            "verdict": report.verdict.value if report.verdict is not None else None,
            "diagnostics": diagnostics,
        }
        if report.embedded is not None:
            entry["embedded"] = {"call": report.embedded.call, "range": rng(report.embedded.span)}
            if report.embedded.call_span is not None:
                entry["embedded"]["call_range"] = rng(report.embedded.call_span)
        if report.note:
            entry["note"] = report.note
        files.append(entry)
    return {"version": JSON_VERSION, "files": files, "summary": summary(reports)}


def _random_reports(rng: random.Random) -> list[Any]:
    from formscript.core.verdict import Verdict
    from formscript.document import Edit, Pos, Span
    from formscript.lint.diagnostics import Diagnostic, Fix
    from formscript.lint.report import Embedding, FileReport

    def text() -> str:
        return "".join(rng.choice(PIECES) for _ in range(rng.randrange(5)))

    def span() -> Span:
        return Span(Pos(rng.randrange(10**6), rng.randrange(99)), Pos(rng.randrange(10**6), rng.randrange(99)))

    reports = []
    for _ in range(rng.randrange(4)):
        diagnostics = []
        for _ in range(rng.randrange(4)):
            fix = None
            if rng.random() < 0.6:
                edits = tuple(Edit(span(), text()) for _ in range(rng.randrange(3)))
                fix = Fix(text(), edits, safe=rng.random() < 0.5)
            severity = rng.choice(["error", "warning", "info", "hint"])
            diagnostics.append(Diagnostic(text() or "FS001", severity, text(), span(), fix))  # type: ignore[arg-type]
        verdict = rng.choice([None, *Verdict])
        kind = rng.choice([None, "form", "script", text()])
        embedded = Embedding(text(), span(), rng.choice([None, span()])) if rng.random() < 0.3 else None
        reports.append(FileReport(text(), kind, verdict, diagnostics, note=rng.choice(["", text()]), embedded=embedded))
    return reports


def test_the_report_writer_gives_the_payloads_bytes_on_random_reports() -> None:
    from formscript.lint.formats import render_json

    rng = random.Random(14)
    for _ in range(3000):
        reports = _random_reports(rng)
        expected = json.dumps(_reference_payload(reports), indent=2, ensure_ascii=False) + "\n"
        assert render_json(reports) == expected


def test_the_report_writer_gives_the_payloads_bytes_on_real_reports(tmp_path: Any) -> None:
    """Every example and a corpus heavy with problems and fixes (bench/corpus.py)."""
    import sys
    from pathlib import Path

    from formscript.lint.config import Settings
    from formscript.lint.engine import lint_text
    from formscript.lint.formats import render_json

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "bench"))
    try:
        from corpus import write_problem_corpus
    finally:
        sys.path.remove(str(root / "bench"))
    paths = sorted((root / "examples").rglob("*.*")) + write_problem_corpus(tmp_path, 200)
    reports = []
    for path in paths:
        if path.suffix in {".yaml", ".yml", ".json"}:
            text = path.read_bytes().decode("utf-8", "replace")
            reports.append(lint_text(text, str(path), settings=Settings()))
    assert sum(len(r.diagnostics) for r in reports) > 500
    assert sum(1 for r in reports for d in r.diagnostics if d.fix is not None) > 200
    assert render_json(reports) == json.dumps(_reference_payload(reports), indent=2, ensure_ascii=False) + "\n"
