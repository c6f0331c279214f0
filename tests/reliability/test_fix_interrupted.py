"""``--fix`` killed at random moments: every file is either as it was or fully fixed, never
half written, and the next run that writes leaves no temporary file behind.

A real ``formscript lint --fix`` process over 200 generated files (``generate.py``) is sent
SIGKILL, SIGTERM or SIGINT after a random delay (seeded: ``FORMSCRIPT_RELIABILITY_SEED``);
SIGTERM and SIGINT end it with exit 143 / 130 and ``formscript: interrupted``. Then
``--fix`` runs to the end and the tree holds the fully fixed files and nothing else.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .generate import cases

SEED = int(os.environ.get("FORMSCRIPT_RELIABILITY_SEED", "20261201"))
FILES = 200
#: Kills per signal (the long mode: FORMSCRIPT_RELIABILITY_KILLS=25).
KILLS = int(os.environ.get("FORMSCRIPT_RELIABILITY_KILLS", "6"))
SIGNALS = {"SIGKILL": signal.SIGKILL, "SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT}


def _fix_command(folder: Path) -> list[str]:
    command = [sys.executable, "-m", "formscript", "lint", "--fix", "--no-cache", "--exit-zero"]
    return [*command, "--format", "concise", str(folder)]


def _run_fix(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_fix_command(folder), capture_output=True, text=True, timeout=600)


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".formscript-fix"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The generated files before, and after an uninterrupted --fix."""
    folder = tmp_path_factory.mktemp("whole")
    before = {}
    for case in cases(FILES, SEED):
        data = case.text.encode("utf-8")
        (folder / case.name).write_bytes(data)
        before[case.name] = data
    done = _run_fix(folder)
    assert done.returncode == 0, done.stderr
    after = {name: (folder / name).read_bytes() for name in before}
    assert sum(after[n] != before[n] for n in before) >= FILES // 4, "too few files have fixes to interrupt"
    return before, after


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SIGNALS))
def test_an_interrupted_fix_leaves_every_file_whole_and_no_debris(
    name: str, corpus: tuple[dict[str, bytes], dict[str, bytes]], tmp_path: Path
) -> None:
    before, after = corpus
    rng = random.Random(f"{SEED}-{name}")
    # how long an uninterrupted run takes here: the kills fall anywhere inside it
    folder = tmp_path / "timing"
    folder.mkdir()
    for file, data in before.items():
        (folder / file).write_bytes(data)
    started = time.monotonic()
    _run_fix(folder)
    whole = time.monotonic() - started
    shutil.rmtree(folder)
    changed_any = 0
    for attempt in range(KILLS):
        folder = tmp_path / f"run{attempt}"
        folder.mkdir()
        for file, data in before.items():
            (folder / file).write_bytes(data)
        process = subprocess.Popen(_fix_command(folder), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0.25, 1.0) * whole)
        process.send_signal(SIGNALS[name])
        _, err = process.communicate(timeout=120)
        for file in before:
            now = (folder / file).read_bytes()
            assert now in (before[file], after[file]), f"{file} half written after {name} (attempt {attempt})"
            changed_any += now != before[file]
        if process.returncode in (130, 143):  # the handler ran: it says so, in one line
            assert err.strip().splitlines()[-1] == "formscript: interrupted", err[-2000:]
            assert "Traceback" not in err
        done = _run_fix(folder)  # the next run finishes the job and removes what a kill left
        assert done.returncode == 0, done.stderr
        assert _temporaries(folder) == []
        assert {file: (folder / file).read_bytes() for file in before} == after
        shutil.rmtree(folder)
    assert changed_any, f"no {name} arrived after a file was written: the delays miss the run"


def test_the_next_run_removes_only_its_own_temporaries(tmp_path: Path) -> None:
    from formscript.cli import main

    (tmp_path / "a.form.yaml").write_text("title: T\nfields:\n  a: {type: str}\nvalues:\n  a: no\n", encoding="utf-8")
    stale = tmp_path / ".a.form.yaml.k2x9_q0z.formscript-fix"
    stale.write_text("half", encoding="utf-8")
    kept = [
        tmp_path / ".b.form.yaml.k2x9_q0z.formscript-fix",  # no b.form.yaml beside it
        tmp_path / ".a.form.yaml.TOOLONG99.formscript-fix",  # not the pattern
        tmp_path / "a.form.yaml.k2x9_q0z.formscript-fix",  # not hidden
        tmp_path / "notes.formscript-fix",
    ]
    for path in kept:
        path.write_text("keep", encoding="utf-8")
    link = tmp_path / ".a.form.yaml.zzzzzzzz.formscript-fix"
    link.symlink_to(tmp_path / "notes.formscript-fix")
    assert main(["lint", "--fix", "--no-cache", "--exit-zero", str(tmp_path / "a.form.yaml")]) == 0
    assert not stale.exists()
    assert all(path.read_text(encoding="utf-8") == "keep" for path in kept)
    assert link.is_symlink()
    # a run that does not write removes nothing
    stale.write_text("half", encoding="utf-8")
    assert main(["lint", "--no-cache", "--exit-zero", str(tmp_path / "a.form.yaml")]) == 0
    assert stale.exists()
