"""The server's collector policy (lsp/collector.py): what an analysis keeps holds no reference
cycle, so freezing it after each lint loses nothing (reference counting frees it when the next
version replaces it), and cycles that escape anyway are reclaimed by a full collection."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from formscript.lint.config import Settings
from formscript.lint.incremental import Incremental
from formscript.lsp import collector
from formscript.lsp.analysis import analyse
from formscript.lsp.collector import Collector


def _script(entries: int) -> str:
    out = ["version: 1", "mode: auto", "responses:"]
    for i in range(entries):
        out += [
            ["  - type: text", f"    text: answer {i}", "    when: {contains: 'q" + str(i % 7) + "'}"],
            ["  - type: structured", f"    data: {{id: {i}, tags: [a, b], ok: yes, at: 2001-01-0{i % 9 + 1}}}"],
            ["  - type: tool_call", f"    id: call_{i % 5}", "    name: lookup", f"    arguments: {{q: '{i}'}}"],
            ["  - type: stream", "    chunks: [a, b]", "    when: {regex: '(a+)+$'}"],
            ["  - type: error", "    message: boom", "    delay_ms: -1"],
            ['  - {type: text, text: "unterminated'],
        ][i % 6]
    return "\n".join(out) + "\n"


def _form(fields: int) -> str:
    out = ["title: intake", "fields:"]
    for i in range(fields):
        out += [f"  f{i}:", f"    type: {('str', 'int', 'bool', 'nope')[i % 4]}", f"    description: field {i}"]
    out.append("values:")
    out += [f"  f{i}: " + ("v", "12", "no", "x")[i % 4] for i in range(fields)]
    out.append("  stray: 1")
    return "\n".join(out) + "\n"


def _versions(text: str) -> Iterator[str]:
    """The text, then edits of it: inside a value, a key, an entry removed, one broken."""
    yield text
    yield text.replace("answer 3", "answer 33").replace("field 3", "field 33")
    yield text.replace("type:", "typ:", 1)
    lines = text.splitlines(keepends=True)
    yield "".join(lines[:5] + lines[8:])
    yield text.replace("version: 1", "version: '1", 1).replace("title: intake", "title: 'intake")
    yield text


def _ours() -> int:
    """The objects of formscript's and PyYAML's own classes alive or awaiting collection
    (the nodes, marks, entries, locations an analysis keeps), frozen ones included."""
    gc.unfreeze()
    try:
        modules = (vars(type(o)).get("__module__") for o in gc.get_objects())
        return sum(isinstance(m, str) and m.startswith(("formscript.", "yaml.")) for m in modules)
    finally:
        gc.freeze()


def _lint_versions(name: str, text: str, settle: Collector | None) -> int:
    """Lint the versions of *text* as one open document; the objects of ours the last
    analysis keeps."""
    incremental, found = Incremental(), None
    for version, current in enumerate(_versions(text), 1):
        previous = found
        found = analyse(
            f"file:///w/{name}",
            current,
            version,
            Settings(),
            "utf-16",
            0,
            incremental,
            previous.positions if previous else None,
            previous.handed_on() if previous else None,
        )
        assert found.report.diagnostics, "the versions have problems to report"
        incremental.warm()
        if settle is not None:
            settle.settle()
    return _ours()


@pytest.mark.parametrize(("name", "text"), [("s.script.yaml", _script(120)), ("f.form.yaml", _form(120))])
def test_what_analyses_keep_is_freed_when_frozen(name: str, text: str) -> None:
    _lint_versions(name, _script(5) if "script" in name else _form(5), None)  # imports, caches
    gc.collect()
    gc.freeze()
    try:
        before = _ours()
        # each version's analysis frozen, then replaced by the next; all dropped at the end
        kept = _lint_versions(name, text, Collector())
        assert kept - before > 2_000, "the last analysis is alive"
        # reference counting alone freed every version (no collection ran since): nothing of
        # theirs is left, frozen or awaiting the collector
        assert _ours() - before < 50
    finally:
        gc.unfreeze()


def test_settle_freezes_what_survives_and_collects_young_cycles() -> None:
    gc.collect()
    gc.freeze()
    try:
        base = gc.get_freeze_count()
        kept = [[n] for n in range(1000)]
        for _ in range(1000):  # young cycles: garbage the collector must find, not freeze
            loop: list[object] = []
            loop.append(loop)
        del loop
        Collector().settle()
        frozen = gc.get_freeze_count() - base
        assert 1000 <= frozen < 1500
        assert kept[-1] == [999]
    finally:
        gc.unfreeze()


def test_cycles_that_escape_are_reclaimed_by_a_full_collection_now_and_then(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(collector, "RECLAIM_EVERY", 3)
    gc.collect()
    gc.freeze()
    try:
        policy = Collector()
        escaping: list[list[object]] = []
        for _ in range(10_000):
            loop: list[object] = []
            loop.append(loop)
            escaping.append(loop)
        policy.settle()  # cycles frozen while alive, then dropped: reference counting cannot free them
        del escaping, loop
        escaped = gc.get_freeze_count()
        policy.settle()
        assert (policy.reclaimed, gc.get_freeze_count() >= escaped) == (0, True)
        policy.settle()  # the third: everything is collected, the escaped cycles too
        assert policy.reclaimed == 1
        assert gc.get_freeze_count() < escaped - 9_000
    finally:
        gc.unfreeze()


def test_the_server_process_settles_after_each_lint(monkeypatch: pytest.MonkeyPatch) -> None:
    from formscript.lsp import serve
    from formscript.lsp.server import FormscriptServer

    settles: list[object] = []

    class Started(Exception):
        pass

    def start_io(self: FormscriptServer) -> None:
        settles.append(self.documents.settle)
        raise Started

    monkeypatch.setattr(serve, "tune_garbage_collector", lambda: None)
    monkeypatch.setattr(FormscriptServer, "start_io", start_io)
    with pytest.raises(Started):
        serve.run()
    (settle,) = settles
    assert isinstance(getattr(settle, "__self__", None), Collector)
