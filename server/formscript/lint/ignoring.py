"""What a folder walk leaves out: the ``exclude`` setting and the repository's .gitignore files.

Both are written as .gitignore lines (``pathspec``'s reading of them, as git does):

- ``exclude`` patterns are relative to the folder of the configuration that sets them (the
  current folder for settings that come from no file), and apply to the files that
  configuration governs;
- with ``respect-gitignore`` (the default), inside a git repository (a ``.git`` at or above
  the path), the ``.gitignore`` of every folder from the repository's top down to the path's
  own, and ``.git/info/exclude``, decide as git does: the deepest file that has a matching
  line wins, and within a file the last matching line (``!`` re-includes).

A walk asks about folders before entering them, so a file below an ignored folder is never
listed (git cannot re-include it either).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from formscript.lint.config import Settings

if TYPE_CHECKING:
    from collections.abc import Callable

    from pathspec import GitIgnoreSpec

__all__ = ["Ignored"]


class Ignored:
    """Whether a path found in a walk is left out, for the settings that apply to it."""

    def __init__(self, settings_for: Callable[[str], Settings]) -> None:
        self._settings_for = settings_for
        self._excludes: dict[tuple[str, ...], GitIgnoreSpec] = {}
        self._gitignores: dict[str, GitIgnoreSpec | None] = {}
        self._tops: dict[str, str | None] = {}

    def __call__(self, path: str, is_dir: bool) -> bool:
        settings = self._settings_for(path)
        if not settings.exclude and not settings.respect_gitignore:
            return False
        full = os.path.abspath(path)
        if settings.exclude and self._excluded(full, is_dir, settings):
            return True
        return settings.respect_gitignore and self._gitignored(full, is_dir)

    def _excluded(self, full: str, is_dir: bool, settings: Settings) -> bool:
        root = os.path.abspath(settings.root or os.getcwd())
        relative = os.path.relpath(full, root)
        if relative == os.curdir or relative.startswith(os.pardir):
            return False
        spec = self._excludes.get(settings.exclude)
        if spec is None:
            spec = self._excludes[settings.exclude] = _spec(settings.exclude)
        return bool(spec.match_file(_posix(relative, is_dir)))

    def _gitignored(self, full: str, is_dir: bool) -> bool:
        folder = os.path.dirname(full)
        top = self._top(folder)
        if top is None:
            return False
        chain = [folder]
        while chain[-1] != top:
            chain.append(os.path.dirname(chain[-1]))
        decided: bool | None = None
        info = self._ignore_file(os.path.join(top, ".git", "info", "exclude"))
        if info is not None:
            decided = info.check_file(_posix(os.path.relpath(full, top), is_dir)).include
        for base in reversed(chain):
            spec = self._ignore_file(os.path.join(base, ".gitignore"))
            if spec is None:
                continue
            found = spec.check_file(_posix(os.path.relpath(full, base), is_dir)).include
            if found is not None:
                decided = found
        return bool(decided)

    def _top(self, folder: str) -> str | None:
        """The top of the git repository holding *folder*, or None."""
        if folder in self._tops:
            return self._tops[folder]
        if os.path.exists(os.path.join(folder, ".git")):
            top: str | None = folder
        else:
            parent = os.path.dirname(folder)
            top = None if parent == folder else self._top(parent)
        self._tops[folder] = top
        return top

    def _ignore_file(self, path: str) -> GitIgnoreSpec | None:
        if path in self._gitignores:
            return self._gitignores[path]
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines = handle.read(1 << 20).splitlines()
        except OSError:  # absent (the usual case), a folder, unreadable: no lines
            lines = []
        spec = _spec(lines) if lines else None
        self._gitignores[path] = spec
        return spec


def _spec(lines: tuple[str, ...] | list[str]) -> GitIgnoreSpec:
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(lines)


def _posix(relative: str, is_dir: bool) -> str:
    text = relative.replace(os.sep, "/")
    return text + "/" if is_dir else text
