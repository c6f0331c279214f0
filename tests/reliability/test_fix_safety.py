"""What ``--fix`` promises beyond the generated corpus: names written so they load back,
fixed text checked before it is written, atomic writes with per-file errors, links that
lead out of the tree, and the cost of empty matchers."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from formscript.cli import main
from formscript.document import parse_document
from formscript.lint.engine import lint_text
from formscript.lint.fixes import apply_edits

NAMES = [
    "no", "true", "null", "~", "[x]", "a #", "a: b", "{x}", "'q'", '"q"', "x\ny", "-", "?", "012",
    "1e3", "0x1F", ".inf", "<<", "=", "*a", "&a", "!t", "%x", "@x", "`x", "|", ">", "", " lead",
    "trail ", "tab\there", "\ufeffbom", "nel\x85x", "ls\u2028x", "émoji 😀", "back\\slash", "#x", "12:30",
    "2024-01-01", "yes", "Off", "ok",
]  # fmt: skip


def _resolver_keywords() -> list[str]:
    """Every spelling of a word PyYAML's resolver reads as a bool or null (in any case the
    letters allow, the resolver deciding which): fixes and renames must quote each one."""
    import itertools

    import yaml

    words = ("yes", "no", "true", "false", "on", "off", "null", "y", "n", "nan", "inf")
    found = set()
    for word in words:
        for letters in itertools.product(*((c.lower(), c.upper()) for c in word)):
            spelled = "".join(letters)
            for text in (spelled, f".{spelled}", f"-.{spelled}", f"+.{spelled}"):
                if yaml.resolver.Resolver().resolve(yaml.ScalarNode, text, (True, False)) != "tag:yaml.org,2002:str":
                    found.add(text)
    return sorted(found | {"~", ""})


KEYWORDS = _resolver_keywords()


def test_the_resolver_keywords_are_the_known_spellings() -> None:
    assert {"Null", "NULL", "No", "TRUE", "Off", "~", ".NaN", "-.Inf", "ON"} <= set(KEYWORDS)
    assert "nULL" not in KEYWORDS and "y" not in KEYWORDS  # strings to PyYAML


@pytest.mark.parametrize("layout", ["block", "flow", "json"])
@pytest.mark.parametrize("name", sorted(set(NAMES) | set(KEYWORDS)))
def test_a_written_name_loads_back_as_that_name(name: str, layout: str) -> None:
    text = {
        "block": "top:\n  key: value  # c\n  other: 1\n",
        "flow": "top: {key: value, other: 1}  # c\n",
        "json": '{"top": {"key": "value", "other": 1}}\n',
    }[layout]
    doc = parse_document(text, "json" if layout == "json" else "yaml")
    for on_key in (False, True):
        edit = doc.replacement(("top", "key"), name, on_key=on_key)
        assert edit is not None
        fixed = apply_edits(text, [edit])  # type: ignore[list-item]
        again = parse_document(fixed, "json" if layout == "json" else "yaml")
        assert again.ok, fixed
        wanted = {name: "value", "other": 1} if on_key else {"key": name, "other": 1}
        assert again.value == {"top": wanted}, fixed
        assert [c.text for c in again.comments()] == [c.text for c in doc.comments()]


def test_unsafe_rename_of_a_key_is_checked_and_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "a.form.yaml"
    spec.write_text("title: T\nfields:\n  a: {typ: str}  # keep\nvalues:\n  a: x\n", encoding="utf-8")
    main(["lint", "--no-cache", "--unsafe-fixes", str(spec)])
    capsys.readouterr()
    assert spec.read_text(encoding="utf-8") == "title: T\nfields:\n  a: {type: str}  # keep\nvalues:\n  a: x\n"


@pytest.mark.parametrize("brk", ["\n", "\r\n", "\r", "\x85", "\u2028", "\u2029"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_an_anchored_value_keeps_its_anchor(tmp_path: Path, brk: str, bom: str) -> None:
    text = bom + brk.join(["title: T", "fields:", "  a: {type: str}", "values:", "  a: &x no  # c", ""])
    spec = tmp_path / "a.form.yaml"
    spec.write_bytes(text.encode("utf-8"))
    main(["lint", "--no-cache", "--fix", str(spec)])
    assert spec.read_bytes().decode("utf-8") == text.replace("&x no", "&x 'no'")


def test_an_alias_fix_never_rewrites_the_anchored_node(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "title: T\nfields:\n  a: {type: str}\n  b: {type: str}\nvalues:\n  a: &x no\n  b: *x\n"
    spec = tmp_path / "a.form.yaml"
    spec.write_text(text, encoding="utf-8")
    main(["lint", "--no-cache", "--fix", str(spec)])
    assert spec.read_text(encoding="utf-8") == text  # both read the one node: no exact fix
    script = tmp_path / "s.script.yaml"
    text = "responses:\n  - &e {type: text, content: hi, when: {}}\n  - *e\n"
    script.write_text(text, encoding="utf-8")
    main(["lint", "--no-cache", "--fix", str(script)])
    assert script.read_text(encoding="utf-8") == text


def test_a_fix_that_fails_the_check_is_declined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from formscript.document.located import YamlDocument
    from formscript.document.model import Edit, Pos, Span

    def too_much(self: YamlDocument, path: tuple[object, ...]) -> tuple[Edit, ...]:
        return (Edit(Span(Pos(1, 0), Pos(3, 0)), ""),)  # also deletes a comment and content

    monkeypatch.setattr(YamlDocument, "removal", too_much)
    script = tmp_path / "s.script.yaml"
    text = "responses:\n  - type: text  # c\n    content: hi\n    when: {}\n"
    script.write_text(text, encoding="utf-8")
    main(["lint", "--no-cache", "--fix", str(script)])
    assert script.read_text(encoding="utf-8") == text
    assert "fix declined (remove the empty matcher)" in capsys.readouterr().err


def _two_scripts(tmp_path: Path) -> tuple[Path, Path, str]:
    text = "responses:\n  - type: text\n    content: hi\n    when: {}\n"
    first, second = tmp_path / "a.script.yaml", tmp_path / "b.script.yaml"
    for path in (first, second):
        path.write_text(text, encoding="utf-8")
    return first, second, text


FIXED = "responses:\n  - type: text\n    content: hi\n"


def test_a_read_only_file_is_reported_and_the_others_fixed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second, text = _two_scripts(tmp_path)
    first.chmod(0o444)
    code = main(["lint", "--no-cache", "--fix", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and f"{first}: fixes not written: the file is read-only" in err
    assert first.read_text(encoding="utf-8") == text and second.read_text(encoding="utf-8") == FIXED


def test_a_failed_write_leaves_the_file_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, text = _two_scripts(tmp_path)
    second.chmod(0o640)
    real_fsync = os.fsync
    calls = []

    def disk_full(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", disk_full)
    code = main(["lint", "--no-cache", "--fix", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and "No space left on device" in err and "Traceback" not in err
    assert first.read_text(encoding="utf-8") == text  # untouched, not truncated
    assert second.read_text(encoding="utf-8") == FIXED
    assert stat.S_IMODE(second.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.script.yaml", "b.script.yaml"]  # no temp left


def test_a_link_out_of_the_tree_is_not_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    text = "responses:\n  - type: text\n    content: hi\n    when: {}\n"
    target = outside / "victim.script.yaml"
    target.write_text(text, encoding="utf-8")
    (tree / "link.script.yaml").symlink_to(target)
    inside = tree / "real.script.yaml"
    inside.write_text(text, encoding="utf-8")
    (tree / "inner.script.yaml").symlink_to(inside)
    code = main(["lint", "--no-cache", "--fix", str(tree)])
    err = capsys.readouterr().err
    assert code == 1 and "link.script.yaml: fixes not written: it is a link to" in err
    assert target.read_text(encoding="utf-8") == text
    assert inside.read_text(encoding="utf-8") == FIXED  # a link inside the tree: its target is fixed
    assert (tree / "inner.script.yaml").is_symlink()
    code = main(["lint", "--no-cache", "--fix", str(tree / "link.script.yaml")])
    assert code == 1 and target.read_text(encoding="utf-8") == text  # named itself: still not followed out


def test_empty_matchers_cost_no_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    """400 empty matchers: the comments are scanned once for all their fixes (not once per
    fix); with SC012 ignored, or fixes not wanted, no removal is even worked out."""
    import formscript.document.located as located
    from formscript.lint.config import Settings

    entries = "".join(f"  - when: {{}}  # r{i}\n    type: text\n    content: r{i}\n" for i in range(400))
    text = "responses:\n" + entries
    scans: list[int] = []
    removals: list[int] = []
    real_comments, real_removal = located.comments_of, located.YamlDocument.removal

    def comments(text: str) -> object:
        scans.append(1)
        return real_comments(text)

    def removal(self: located.YamlDocument, path: tuple[object, ...]) -> object:
        removals.append(1)
        return real_removal(self, path)

    monkeypatch.setattr(located, "comments_of", comments)
    monkeypatch.setattr(located.YamlDocument, "removal", removal)
    report = lint_text(text, "s.script.yaml")
    assert sum(1 for d in report.diagnostics if d.fix is not None) == 400
    assert len(removals) == 400 and len(scans) == 1
    removals.clear()
    ignored = lint_text(text, "s.script.yaml", settings=Settings().merged({"ignore": ["SC012"]}))
    assert ignored.diagnostics == [] and removals == []
    unfixed = lint_text(text, "s.script.yaml", fixes=False)
    assert len(unfixed.diagnostics) == 400 and removals == []
    assert all(d.fix is None and d.pending is None for d in unfixed.diagnostics)


def test_the_server_builds_a_fix_only_for_a_code_action() -> None:
    from formscript.lint.config import Settings
    from formscript.lsp.analysis import analyse

    text = "responses:\n" + "".join(f"  - type: text\n    content: r{i}\n    when: {{}}\n" for i in range(50))
    found = analyse("file:///w/s.script.yaml", text, 1, Settings(), "utf-16", 0)
    assert all(d.fix is None and d.pending is not None for d in found.report.diagnostics)
    fix = found.fix_of(found.report.diagnostics[0])
    assert fix is not None and fix.change is not None and fix.change.op == "remove"
    assert sum(1 for d in found.report.diagnostics if d.fix is not None) == 0  # the others stay pending
