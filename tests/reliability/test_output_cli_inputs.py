"""The command line never hangs or prints a traceback on inputs that are not files or outputs
that cannot be written: a FIFO or ``/dev/zero`` as a linted file, ``--form``, a dry run's or
simulation's argument, ``--rules``, ``--calls`` or ``--prompt-file``; ``-o`` into a folder or
a missing folder; stdin that is not UTF-8 or has no end. Each gets a clear message and an
exit code: a rejection (1) for what the runtime would be handed, misuse (2) for what
formscript itself cannot use.

Each command runs in its own process; the timeout guards against a hang (nothing is timed).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

FORM = "title: t\nfields:\n  a: {type: str}\nvalues:\n  a: x\n"
SCRIPT = "responses:\n  - type: text\n    content: hi\n"


def formscript(
    root: Path, *args: str, stdin: bytes | None = None, stdin_path: str | None = None
) -> subprocess.CompletedProcess[bytes]:
    source = open(stdin_path, "rb") if stdin_path else None  # noqa: SIM115 - closed below
    try:
        return subprocess.run(
            [sys.executable, "-m", "formscript", *args],
            cwd=root,
            input=stdin,
            stdin=source if source is not None else (None if stdin is not None else subprocess.DEVNULL),
            capture_output=True,
            timeout=120,
            check=False,
        )
    finally:
        if source is not None:
            source.close()


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    os.mkfifo(tmp_path / "pipe.form.yaml")
    os.mkfifo(tmp_path / "pipe.script.yaml")
    (tmp_path / "ok.form.yaml").write_text(FORM, encoding="utf-8")
    (tmp_path / "ok.script.yaml").write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "zero.form.yaml").symlink_to("/dev/zero")
    return tmp_path


def _one_line(done: subprocess.CompletedProcess[bytes], says: str) -> None:
    err = done.stderr.decode("utf-8")
    assert "Traceback" not in err and len(err.splitlines()) == 1, err[:2000]
    assert says in err, err


MISUSE = [
    (["lint", "--form", "pipe.form.yaml", "ok.form.yaml"], "not a regular file"),
    (["lint", "--form", "/dev/zero", "ok.form.yaml"], "not a regular file"),
    (["dry-run", "--rules", "pipe.form.yaml", "ok.form.yaml"], "not a regular file"),
    (["dry-run", "--prompt-file", "pipe.form.yaml", "ok.form.yaml"], "not a regular file"),
    (["simulate", "ok.script.yaml", "--calls", "pipe.script.yaml"], "not a regular file"),
    (["simulate", "ok.script.yaml", "--calls", "/dev/zero"], "not a regular file"),
    (["lint", "-o", ".", "ok.form.yaml"], "cannot write (Is a directory)"),
    (["lint", "-o", "missing/folder/report.txt", "ok.form.yaml"], "cannot write (No such file or directory)"),
    (["lint", "--format", "json", "-o", "/dev/full", "ok.form.yaml"], "cannot write"),
]


@pytest.mark.parametrize(("argv", "says"), MISUSE, ids=[" ".join(a) for a, _ in MISUSE])
def test_what_formscript_cannot_use_is_misuse(root: Path, argv: list[str], says: str) -> None:
    done = formscript(root, *argv)
    assert done.returncode == 2, done
    _one_line(done, says)


REJECTED = [
    ["lint", "pipe.form.yaml"],
    ["lint", "zero.form.yaml"],
    ["lint", "."],  # the walk lists the FIFO and the link like any file, and reads neither
    ["dry-run", "pipe.form.yaml"],
    ["dry-run", "/dev/zero"],
    ["simulate", "pipe.script.yaml"],
    ["simulate", "/dev/zero"],
]


@pytest.mark.parametrize("argv", REJECTED, ids=[" ".join(a) for a in REJECTED])
def test_what_the_runtime_would_refuse_is_rejected(root: Path, argv: list[str]) -> None:
    done = formscript(root, *argv)
    assert done.returncode == 1, done
    out = done.stdout.decode("utf-8")
    assert "[YM001] not a regular file" in out or "error[YM001] not a regular file" in out, out
    assert b"Traceback" not in done.stderr


def test_stdin_that_is_not_utf8_is_a_located_rejection(root: Path) -> None:
    done = formscript(root, "lint", "--stdin-filename", "in.form.yaml", "-", stdin=b"title: caf\xe9\n")
    assert done.returncode == 1, done
    out = done.stdout.decode("utf-8")
    assert "in.form.yaml:1:11: error[YM001] the file is not valid UTF-8 (byte 10)" in out, out
    assert "validator_error" not in out


def test_stdin_without_an_end_is_refused_at_the_limit(root: Path) -> None:
    done = formscript(root, "lint", "--format", "concise", "-", stdin_path="/dev/zero")
    assert done.returncode == 1, done
    assert b"stdin holds more than 67108864 bytes" in done.stdout, done.stdout[:500]


def test_a_prompt_file_on_stdin_that_is_not_utf8(root: Path) -> None:
    done = formscript(root, "dry-run", "--prompt-file", "-", "ok.form.yaml", stdin=b"\xff\xfe prompt")
    assert done.returncode == 2, done
    _one_line(done, "stdin is not valid UTF-8")
