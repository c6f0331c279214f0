"""``--fix`` on generated files (``generate.py``): none broken.

A file is broken when, after ``formscript lint --fix``, it does not parse, does not load to
its old values with the fixed sites changed and nothing else, lost or changed a comment,
uses a line break (or BOM) it did not use, left a site unfixed that a fix can make exactly,
or changes again on a second run. CI runs ``FORMSCRIPT_RELIABILITY_FILES`` files (1,000 by
default); the long mode is ``FORMSCRIPT_RELIABILITY_FILES=10000 pytest tests/reliability``.
``FORMSCRIPT_RELIABILITY_SEED`` picks another corpus.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from formscript.cli import main
from formscript.document import parse_document
from formscript.document.positions import line_breaks

from .generate import Case, cases, settle, unfixed

FILES = int(os.environ.get("FORMSCRIPT_RELIABILITY_FILES", "1000"))
SEED = int(os.environ.get("FORMSCRIPT_RELIABILITY_SEED", "20261201"))


def _fix(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    main(["lint", "--fix", "--no-cache", "--exit-zero", "--format", "concise", str(folder)])
    return capsys.readouterr().err


def _broken(case: Case, after: str) -> str | None:
    syntax = "json" if case.name.endswith(".json") else "yaml"
    before_doc = parse_document(case.text, syntax)
    assert before_doc.ok, f"the generator wrote a file that does not load: {case.name}"
    doc = parse_document(after, syntax)
    if not doc.ok:
        return "does not parse"
    if settle(doc.value, case) != settle(before_doc.value, case):
        return "loads to other values"
    if syntax == "yaml" and [c.text for c in doc.comments()] != case.comments:
        return "lost or changed a comment"
    if set(line_breaks(after)) - {case.breaks}:
        return "mixes line breaks"
    if after.startswith("\ufeff") != case.text.startswith("\ufeff"):
        return "lost or gained a BOM"
    left = unfixed(doc.value, case)
    if left:
        return f"left exact sites unfixed: {left}"
    return None


@pytest.mark.slow
def test_fix_breaks_no_generated_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = list(cases(FILES, SEED))
    for case in corpus:
        (tmp_path / case.name).write_bytes(case.text.encode("utf-8"))
    _fix(tmp_path, capsys)
    first = {case.name: (tmp_path / case.name).read_bytes() for case in corpus}
    broken = {}
    for case in corpus:
        reason = _broken(case, first[case.name].decode("utf-8"))
        if reason is not None:
            broken[case.name] = reason
    _fix(tmp_path, capsys)
    for case in corpus:
        if (tmp_path / case.name).read_bytes() != first[case.name]:
            broken.setdefault(case.name, "changed again on a second run")
    sites = sum(len(c.sites) for c in corpus)
    exact = sum(len(c.exact) for c in corpus)
    changed = sum(1 for c in corpus if first[c.name] != c.text.encode("utf-8"))
    summary = f"{len(corpus)} files, {sites} sites ({exact} exact), {changed} files fixed, {len(broken)} broken"
    print(f"\nreliability: {summary}")
    assert not broken, dict(list(broken.items())[:20])
    # the corpus covers what it claims: every break with and without a BOM, anchors, comments
    assert {c.breaks for c in corpus} >= {"\n", "\r\n", "\r", "\x85", "\u2028", "\u2029"}
    assert any(c.text.startswith("\ufeff") for c in corpus)
    assert any("&" in c.text and "*" in c.text for c in corpus)
    assert any(c.comments for c in corpus)
    assert exact < sites  # some sites are shared through aliases: their fixes are declined
