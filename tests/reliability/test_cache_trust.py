"""The lint cache cannot be forged from the working tree: it lives outside it, is keyed on
formscript's own version and code, checks every entry, follows no link, writes nowhere else,
and its fixes are never applied."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from formscript.cli import main
from formscript.lint.cache import CACHE_VERSION, LintCache, code_fingerprint, dump_report
from formscript.lint.engine import lint_text

REJECTED = "title: T\nfields:\n  a: {type: str}\nvalues:\n  a: no\n"


def _cache_dir() -> Path:
    return Path(os.environ["FORMSCRIPT_CACHE_DIR"])


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["lint", "--format", "json", *args])
    return code, capsys.readouterr().out


def _forged_clean(path: str, text: str) -> dict[str, object]:
    clean = lint_text("title: T\nfields:\n  a: {type: str}\nvalues:\n  a: 'no'\n", path)
    return dump_report(clean)


def _salt_of_this_run(args: list[str]) -> str:
    from formscript.cli.lint import wants_fixes
    from formscript.cli.parser import build_parser

    parsed = build_parser().parse_args(["lint", *args])
    return f"{code_fingerprint()}\0fixes={wants_fixes(parsed)}"


def _key(cache: LintCache, path: str, text: str, args: list[str]) -> str:
    """The key this run's cache gives *path* (its settings are the file's folder's)."""
    from formscript.cli.lint import settings_from_args
    from formscript.cli.parser import build_parser

    settings = settings_from_args(build_parser().parse_args(["lint", *args]))(path)
    return cache.key(path, text, None, None, repr(settings))


def test_a_cache_planted_in_the_tree_has_no_effect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.form.yaml").write_text(REJECTED, encoding="utf-8")
    planted = tmp_path / ".formscript_cache"
    planted.mkdir()
    salt = _salt_of_this_run(["--format", "json", "a.form.yaml"])
    key = _key(LintCache(planted, salt), "a.form.yaml", REJECTED, ["--format", "json", "a.form.yaml"])
    forged = {"salt": salt, "entries": {key: _forged_clean("a.form.yaml", REJECTED)}}
    for name in ("lint-v1.json", f"{CACHE_VERSION}-x.json"):
        (planted / name).write_text(json.dumps(forged), encoding="utf-8")
    code, out = _run(capsys, "a.form.yaml")
    assert code == 1 and json.loads(out)["files"][0]["verdict"] == "rejected"
    # the control: the same entry in the user's own cache folder is used (it is well formed;
    # only where it lies keeps it out)
    own = LintCache(_cache_dir(), salt, project=os.path.realpath(tmp_path))
    (_cache_dir() / own.file).write_text(json.dumps(forged), encoding="utf-8")
    code, out = _run(capsys, "a.form.yaml")
    assert code == 0 and json.loads(out)["files"][0]["verdict"] == "accepted"


def test_an_entry_from_other_code_is_not_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "a.form.yaml"
    spec.write_text(REJECTED, encoding="utf-8")
    _run(capsys, str(spec))  # writes the cache
    (stored,) = _cache_dir().glob(f"{CACHE_VERSION}-*.json")
    data = json.loads(stored.read_text(encoding="utf-8"))
    data["salt"] = data["salt"].replace(code_fingerprint(), "0.1.0-" + "0" * 32)
    data["entries"] = {k: _forged_clean(str(spec), REJECTED) for k in data["entries"]}
    stored.write_text(json.dumps(data), encoding="utf-8")
    code, out = _run(capsys, str(spec))
    assert code == 1 and json.loads(out)["files"][0]["verdict"] == "rejected"


MALFORMED = [
    [],
    {"kind": "form"},
    {"kind": "form", "verdict": "accepted", "note": "", "diagnostics": "x"},
    {"kind": "form", "verdict": "nope", "note": "", "diagnostics": []},
    {"kind": "form", "verdict": "accepted", "note": "", "diagnostics": [["FS015", "fatal", "m", [0, 0, 0, 1], None]]},
    {"kind": "form", "verdict": "accepted", "note": "", "diagnostics": [["FS015", "error", "m", ["a", 0, 0, 1], None]]},
    {"kind": "form", "verdict": "accepted", "note": "", "diagnostics": [["FS015", "error", "m", [5, 0, 0, 1], None]]},
    {"kind": "form", "verdict": "accepted", "note": "", "diagnostics": [["FS015", "error", "m", [0, 0, 0, 1], [1]]]},
    {"kind": 3, "verdict": "accepted", "note": "", "diagnostics": []},
    {"kind": "form", "verdict": ["accepted"], "note": "", "diagnostics": []},
    {"kind": "form", "verdict": "accepted", "note": "", "diagnostics": [["FS015", ["error"], "m", [0, 0, 0, 1], None]]},
    {"kind": "form", "verdict": "accepted", "note": "", "diagnostics": [], "parts": [{"x": 1}]},
    {"kind": "form", "verdict": "accepted", "note": "", "diagnostics": [], "embedded": ["x", [0], [0]]},
]


@pytest.mark.parametrize("entry", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_entry_is_ignored(
    entry: object, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.form.yaml").write_text(REJECTED, encoding="utf-8")
    _, expected = _run(capsys, "--no-cache", "a.form.yaml")
    _run(capsys, "a.form.yaml")
    (stored,) = _cache_dir().glob(f"{CACHE_VERSION}-*.json")
    data = json.loads(stored.read_text(encoding="utf-8"))
    data["entries"] = {k: entry for k in data["entries"]}
    stored.write_text(json.dumps(data), encoding="utf-8")
    code, out = _run(capsys, "a.form.yaml")
    assert code == 1 and out == expected


@pytest.mark.parametrize("garbage", [b"", b"\xff\xfe", b"[" * 100_000, b'{"salt": 1}', b"null"])
def test_a_malformed_cache_file_is_ignored(
    garbage: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.form.yaml").write_text(REJECTED, encoding="utf-8")
    _, expected = _run(capsys, "--no-cache", "a.form.yaml")
    _run(capsys, "a.form.yaml")
    (stored,) = _cache_dir().glob(f"{CACHE_VERSION}-*.json")
    stored.write_bytes(garbage)
    code, out = _run(capsys, "a.form.yaml")
    assert code == 1 and out == expected


def test_a_linked_cache_folder_is_not_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "cache"
    link.symlink_to(elsewhere)
    monkeypatch.setenv("FORMSCRIPT_CACHE_DIR", str(link))
    spec = tmp_path / "a.form.yaml"
    spec.write_text(REJECTED, encoding="utf-8")
    code, _ = _run(capsys, str(spec))
    assert code == 1 and list(elsewhere.iterdir()) == []


def test_links_planted_in_the_cache_folder_are_not_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.form.yaml").write_text(REJECTED, encoding="utf-8")
    cache = tmp_path / "chosen"
    cache.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    probe = LintCache(cache, "s", project=os.path.realpath(tmp_path))
    (cache / probe.file).symlink_to(victim)
    (cache / f".{probe.file}.{os.getpid()}.tmp").symlink_to(victim)
    (cache / ".gitignore").symlink_to(victim)
    code, _ = _run(capsys, "--cache-dir", str(cache), "a.form.yaml")
    assert code == 1 and victim.read_text(encoding="utf-8") == "precious\n"
    assert not (cache / probe.file).is_symlink()  # the link was replaced by the cache file itself
    code, _ = _run(capsys, "--cache-dir", str(cache), "a.form.yaml")
    assert code == 1 and victim.read_text(encoding="utf-8") == "precious\n"


def test_a_cached_fix_is_never_applied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even an entry the cache accepts (right salt, right key) cannot make --fix write."""
    monkeypatch.chdir(tmp_path)
    text = "title: T\nfields:\n  a: {type: str}\nvalues:\n  a: x\n"
    Path("a.form.yaml").write_text(text, encoding="utf-8")
    args = ["--fix", "--format", "json", "a.form.yaml"]
    salt = _salt_of_this_run(args)
    cache = LintCache(_cache_dir(), salt, project=os.path.realpath(tmp_path))
    report = lint_text(text, "a.form.yaml")
    entry = dump_report(report)
    entry["diagnostics"] = [["FS015", "error", "forged", [0, 0, 5, 0], ["evil", True, [[[0, 0, 5, 0], "pwned: 1\n"]]]]]
    cache.fresh[_key(cache, "a.form.yaml", text, args)] = entry
    cache.save()
    main(["lint", *args])
    capsys.readouterr()
    assert Path("a.form.yaml").read_text(encoding="utf-8") == text


def test_the_key_follows_the_code_content_not_its_file_times(tmp_path: Path) -> None:
    """A copy of formscript with the same content gets the same key whatever its files'
    times; one byte changed gets another (the old key used sizes and times)."""
    import formscript

    package = Path(formscript.__file__).resolve().parent
    copy = tmp_path / "formscript"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    script = "from formscript.lint.cache import code_fingerprint; print(code_fingerprint())"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def fingerprint() -> str:
        run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        return run.stdout.strip()

    first = fingerprint()
    assert first == code_fingerprint()
    target = copy / "lint" / "engine.py"
    os.utime(target, (1, 1))
    assert fingerprint() == first
    source = target.read_text(encoding="utf-8")
    target.write_text(source.replace("Never raises", "never raises"), encoding="utf-8")  # same size
    os.utime(target, (1, 1))
    assert fingerprint() != first
