"""Where a dry run or a simulation asked for by a code action is shown: the text is written
to a file outside every workspace folder (the user's cache, else the temporary directory),
which the client opens (``window/showDocument``) when it can; otherwise the server sends its
first line as a message (``window/showMessage``, naming the file) and the whole text to the
log (``window/logMessage``). The lenses' commands are untouched: they answer the text."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from formscript.lsp.analysis import inside

#: The folder under the cache directory that holds the result files.
FOLDER = ("formscript", "results")


def candidates() -> list[Path]:
    """Where result files may go, in order: ``$XDG_CACHE_HOME`` (else ``~/.cache``)
    ``/formscript/results``, then a folder of this user's in the temporary directory."""
    found = []
    cache = os.environ.get("XDG_CACHE_HOME") or ""
    if cache and os.path.isabs(cache):
        found.append(Path(cache).joinpath(*FOLDER))
    else:
        with contextlib.suppress(RuntimeError, KeyError):
            found.append(Path.home().joinpath(".cache", *FOLDER))
    uid = os.getuid() if hasattr(os, "getuid") else 0
    found.append(Path(tempfile.gettempdir()) / f"formscript-results-{uid}")
    return found


def _usable(folder: Path) -> bool:
    """Whether *folder* is (now) a directory of ours that is not a link."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = os.lstat(folder)
    except OSError:
        return False
    owner_ok = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISDIR(info.st_mode) and owner_ok


def file_name(source: str, label: str, line: int | None) -> str:
    """``<name>[-<line>]-<digest>.<label>.txt``: one file per source document (and line),
    replaced by the next run; the digest keeps two ``a.form.yaml`` in different folders apart."""
    name = Path(source).name
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:80] or "document"
    where = f"{source}:{line}" if line is not None else source
    digest = hashlib.sha256(where.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{stem}{f'-{line}' if line is not None else ''}-{digest}.{label}.txt"


def write(source: str, label: str, line: int | None, text: str, roots: Sequence[str]) -> Path | None:
    """Write *text* to the result file of *source*, in the first candidate folder that lies
    outside the workspace folders *roots* and can be written; None when none can."""
    name = file_name(source, label, line)
    for folder in candidates():
        if inside(folder, roots) or not _usable(folder):
            continue
        target = folder / name
        try:
            handle, temporary = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=folder)
            with os.fdopen(handle, "w", encoding="utf-8", errors="backslashreplace", newline="") as out:
                out.write(text)
            os.replace(temporary, target)
        except OSError:
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(temporary)
            continue
        return target
    return None


def summary(what: str, text: str, written: Path | None) -> str:
    """The message for clients that cannot open the file: the first line of the result, and
    where the whole of it is."""
    first = next((line for line in text.splitlines() if line.strip()), "(no output)")
    where = f"{written} and the server log" if written else "the server log"
    return f"formscript {what}: {first}; the whole result is in {where}"
