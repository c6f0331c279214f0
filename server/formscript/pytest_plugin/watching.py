"""What every watcher of lionagi in a test run shares: patching and putting back, the test's
call site, drift records and their repro bundles, and formscript's warnings.

``observe.Observer`` (scripts) builds on ``forms.FormWatcher`` (work forms), which builds on
this; none of them changes what lionagi does or what a test sees.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, TypeVarTuple

from formscript.lint.config import Settings
from formscript.pytest_plugin.checks import (
    CallSite,
    Checked,
    check_file,
    read_python,
    written_at,
)
from formscript.pytest_plugin.constructs import Repro
from formscript.pytest_plugin.coverage import Coverage
from formscript.pytest_plugin.warning import FormscriptDriftWarning, FormscriptWarning

Args = TypeVarTuple("Args")

__all__ = ["Watcher"]

#: A default that no argument can be (None is a value a test may pass).
_ABSENT: Any = object()


class Watcher:
    """The state and the helpers the observers share."""

    def __init__(self, rootdir: Path, settings: Settings, coverage: Coverage) -> None:
        self.rootdir = rootdir.resolve()
        self.settings = settings
        self.coverage = coverage
        self.current_test = ""
        self._checked: dict[tuple[Any, ...], Checked] = {}
        self._warned: set[tuple[Any, ...]] = set()
        self._rejections: dict[int, tuple[BaseException, str]] = {}
        #: formscript's reports of what lionagi refused during the current test, in order.
        self._pending: list[str] = []
        self._restore: list[tuple[Any, str, Any]] = []
        #: Where the frames of lionagi, pydantic and this plugin are (``install`` fills it).
        self._skip: tuple[str, ...] = ()
        #: Where each drift's repro bundle is written (``--formscript-drift-dir``), or None.
        self.drift_dir: Path | None = None

    def uninstall(self) -> None:
        """Put lionagi back as it was."""
        for owner, name, before in reversed(self._restore):
            if before is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, before)
        self._restore.clear()

    def _patch(self, owner: Any, name: str, value: Any) -> None:
        self._restore.append((owner, name, owner.__dict__.get(name, _ABSENT)))
        setattr(owner, name, value)

    def _guarded(self, action: Callable[[*Args], None], *args: *Args) -> None:
        """Run *action*; a failure of formscript's own is a warning, never the test's problem."""
        try:
            action(*args)
        except FormscriptWarning:  # -W error::FormscriptWarning: the user wants it raised
            raise
        except Exception as exc:  # a bug of ours: the test goes on as lionagi decides
            warnings.warn(
                FormscriptWarning(f"formscript failed while observing lionagi: {type(exc).__name__}: {exc}"),
                stacklevel=2,
            )

    def _shown(self, path: Path) -> str:
        try:
            return path.relative_to(self.rootdir).as_posix()
        except ValueError:
            return str(path)

    def _inside(self, shown: str) -> bool:
        return not Path(shown).is_absolute()

    def _call_site(self) -> CallSite | None:
        """The first frame outside lionagi, pydantic and this plugin: where the test called."""
        frame: FrameType | None = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename.startswith(self._skip):
            frame = frame.f_back
        if frame is None:
            return None
        filename = frame.f_code.co_filename
        line, column = frame.f_lineno, 0
        positions = list(frame.f_code.co_positions())
        at = frame.f_lasti // 2
        if 0 <= at < len(positions):
            start, _, col, _ = positions[at]
            if start is not None and col is not None:
                line, column = start, col
        path = Path(filename)
        shown = self._shown(path.resolve()) if path.is_absolute() else filename
        return CallSite(shown, filename, line, column)

    def _drift(
        self, api: str, site: CallSite | None, lionagi: str, formscript: str, repro: Repro | None = None
    ) -> None:
        """Record that lionagi's *api* did *lionagi* where formscript predicts *formscript*: a
        drift record, a FormscriptDriftWarning at the test's call and, with
        ``--formscript-drift-dir``, the bundle *repro* (its files and the command replaying it)."""
        path, line = (site.path, site.line) if site is not None else ("<unknown>", 1)
        record = {
            "test": self.current_test,
            "source": f"{self._shown(Path(path))}:{line}" if site is not None else api,
            "path": self._shown(Path(path)) if site is not None else path,
            "line": line,
            "call": 0,
            "payload": {"api": api},
            "lionagi": lionagi,
            "formscript": formscript,
        }
        if self.drift_dir is not None and repro is not None:
            record["bundle"] = self._write_bundle(record, *repro)
        self._add_drift(record, f"drift at {api}: lionagi {lionagi}, formscript predicts {formscript}", path)

    def _add_drift(self, record: dict[str, Any], text: str, path: str | None = None) -> None:
        """Keep *record* and warn with *text* at its line of *path* (else of its own path)."""
        self.coverage.drift.append(record)
        line = record["line"] or 1
        warnings.warn_explicit(FormscriptDriftWarning(text), FormscriptDriftWarning, path or record["path"], line)

    def _write_bundle(self, record: dict[str, Any], files: dict[str, str], replay: str, call: int = 0) -> str:
        """Write a drift's bundle under ``--formscript-drift-dir``: *files*, and ``drift.json``
        with both answers, both versions and the command (*replay*) that replays formscript's."""
        import json

        from formscript import __version__

        assert self.drift_dir is not None
        worker = os.environ.get("PYTEST_XDIST_WORKER")  # each xdist worker numbers its own
        name = f"drift-{len(self.coverage.drift) + 1:03d}" + (f"-{worker}" if worker else "")
        folder = self.drift_dir / name
        folder.mkdir(parents=True, exist_ok=True)
        for file_name, text in files.items():
            (folder / file_name).write_text(text, "utf-8")
        facts = {
            "replay": replay,
            "lionagi_version": self.coverage.lionagi_version,
            "formscript_version": __version__,
            "test": record["test"],
            "source": record["source"],
            "call": call,
            "lionagi": record["lionagi"],
            "formscript": record["formscript"],
        }
        (folder / "drift.json").write_text(json.dumps(facts, indent=2, ensure_ascii=True) + "\n", "utf-8")
        return name

    def _warn_findings(self, checked: Checked) -> None:
        for d in checked.diagnostics:
            if d.severity not in ("error", "warning"):
                continue
            line, column = d.span.start.line + 1, d.span.start.column + 1
            self._warn(checked, (d.code, line, column, d.message), line, f"{d.severity}[{d.code}] {d.message}", column)

    def _warn(
        self, checked: Checked, what: tuple[Any, ...], line: int, message: str, column: int | None = None
    ) -> None:
        key = (checked.key, *what)
        if key in self._warned:
            return
        self._warned.add(key)
        # pytest shows the file and line before the message: the column goes after it
        text = message + (f" (column {column})" if column is not None else "")
        warnings.warn_explicit(FormscriptWarning(text), FormscriptWarning, checked.path, line)

    def _check_file(self, path: str, as_yaml: bool | None, kind: str = "script") -> Checked:
        """formscript's report of the script (or form spec) file *path*, once per content."""
        resolved = Path(path).resolve()
        try:
            info = resolved.stat()
            stamp: tuple[Any, ...] = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamp = ()
        key = (kind, str(resolved), as_yaml, *stamp)
        if key not in self._checked:
            shown = self._shown(resolved)
            self._checked[key] = check_file(path, shown, as_yaml=as_yaml, settings=self.settings, kind=kind)
        return self._checked[key]

    def _written(self, checked: Checked, kind: str) -> Checked | None:
        """The literal the test wrote to a file outside the project (``tmp_path``), if the
        caller's file writes exactly this text."""
        document = checked.report.document if checked.report is not None else None
        site = self._call_site()
        if document is None or site is None:
            return None
        text = read_python(site.path)
        if text is None:
            return None
        found = written_at(document.text, site, text, kind=kind, settings=self.settings)
        if found is None:
            return None
        return self._checked.setdefault(("written", found.key, document.text), found)

    def rejection(self, exc: BaseException | None) -> str | None:
        """formscript's report for *exc* or an exception it was raised from, if any."""
        seen: set[int] = set()
        while exc is not None and id(exc) not in seen:
            seen.add(id(exc))
            found = self._rejections.get(id(exc))
            if found is not None and found[0] is exc:
                return found[1]
            exc = exc.__cause__ or exc.__context__
        return None

    def pending(self) -> list[str]:
        """formscript's reports of everything lionagi refused since the last ``forget_rejections``."""
        return list(self._pending)

    def forget_rejections(self) -> None:
        """Drop what was kept for the test (or collection) that just finished."""
        self._rejections.clear()
        self._pending.clear()


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (1 is not True, 1.0 is not 1)."""
    try:
        return bool(a == b) and repr(a) == repr(b)
    except RecursionError:  # a value that holds itself: repr gives up; equality stands alone
        return bool(a == b)


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _lookup(owner: type, name: str) -> Any:
    """The attribute as defined on *owner* or the first base that defines it (a classmethod
    stays a classmethod object)."""
    for klass in owner.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    raise AttributeError(name)
