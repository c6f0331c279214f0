"""Which files a folder holds for formscript: one walk for the CLI and the language server.

Below a root (a directory given to ``formscript lint``, a workspace folder of the editor):

- folders whose name starts with ``.`` (``.git``, ``.venv``, ``.tox``, ``.formscript_cache`` …)
  and the folders in ``SKIPPED_DIRS`` are not entered; the root itself always is;
- links to folders are not followed (no loops, no file reached twice); links to files are
  listed like files (a link that cannot be read gets a diagnostic saying so);
- paths come in sorted order (a folder's files and subfolders interleaved, as the sorted
  full paths are), so every run lists the same files in the same order.

Two selections of one walk: ``candidates`` is what ``formscript lint DIR`` opens (files whose
name or a ``kinds`` glob gives the kind, and any other ``.yaml``/``.yml``/``.json``, whose
content then decides or which is skipped with a note, and ``.py`` files: one that does not
mention lionagi costs a read and reports nothing), ``listed`` what the server lists for
workspace diagnostics (the name or a ``kinds`` glob, and the Python files that mention
lionagi's API: the server does not parse every YAML file of a workspace to find out its kind;
a document opened in the editor is still judged by content).

Paths given by name (``formscript lint PATH...``: ``explicit``) are opened whatever they are
(a link, a FIFO, a dangling link: each gets a verdict when read, ``lint.reading``). A folder
is walked; one named like a file lint opens (``x.form.yaml``, ``x.json``, or a link to a
folder so named) is also listed itself, so it gets a verdict too: the runtime refuses a form
or script path that is not a regular file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import PurePath

from formscript.lint.config import Settings
from formscript.lint.ignoring import Ignored
from formscript.lint.kinds import is_candidate, kind_from_name

#: Folders never entered below a root (with every folder whose name starts with ``.``):
#: installed packages, caches and build output, which hold copies rather than sources.
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages", "build", "dist"})

SettingsFor = Callable[[str], Settings]


def walk(root: str, ignored: Callable[[str, bool], bool] | None = None) -> Iterator[str]:
    """Every entry below *root* that is not a folder, in sorted path order (see the module),
    without those *ignored* says to leave out (a folder it names is not entered)."""
    stack: list[Iterator[tuple[str, str, bool]]] = [_entries(root)]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
        elif ignored is not None and ignored(step[1], step[2]):
            continue
        elif step[2]:
            stack.append(_entries(step[1]))
        else:
            yield step[1]


def _entries(folder: str) -> Iterator[tuple[str, str, bool]]:
    """A folder's entries as (sort key, path, is a folder to enter), sorted."""
    try:
        with os.scandir(folder) as scan:
            found = list(scan)
    except OSError:
        return iter(())
    keyed = []
    for entry in found:
        try:
            is_dir = entry.is_dir()
        except OSError:  # a link loop, a permission problem: listed, and reported when read
            is_dir = False
        if not is_dir:
            keyed.append((entry.name, os.path.normpath(entry.path), False))
        elif not entry.is_symlink() and not entry.name.startswith(".") and entry.name not in SKIPPED_DIRS:
            # the separator in the key keeps "a.b" before "a/x", as in the sorted full paths
            keyed.append((entry.name + os.sep, entry.path, True))
    return iter(sorted(keyed))


def candidates(root: str, settings_for: SettingsFor) -> Iterator[str]:
    """The files ``formscript lint`` opens below *root* (not those left out: ``lint.ignoring``)."""
    for path in walk(root, Ignored(settings_for)):
        if is_candidate(path, settings_for(path)):
            yield path


def listed(root: str, settings_for: SettingsFor) -> Iterator[str]:
    """What the editor lists below *root* for workspace diagnostics (not what is left out:
    ``lint.ignoring``): the files whose name or a ``kinds`` glob gives their kind, and the
    Python files whose text can hand lionagi a script or form (``lint DIR`` reports no other
    Python file), so the editor's problems are the CLI's wherever a file's name says its kind."""
    for path in walk(root, Ignored(settings_for)):
        if kind_from_name(path, settings_for(path)) is not None or (path.endswith(".py") and _mentions_api(path)):
            yield path


#: Whether each Python file names the API, by path, with the modification time and size it
#: was read at: the editor lists the workspace again every few seconds while a client pulls
#: (reading lionagi's 1,582 Python files takes 0.3 s; their stat, 10 ms).
_MENTIONS: dict[str, tuple[int, int, bool]] = {}


def _mentions_api(path: str) -> bool:
    from formscript.document.pyapi import mentions_api

    try:
        stat = os.stat(path)
        known = _MENTIONS.get(path)
        if known is not None and known[:2] == (stat.st_mtime_ns, stat.st_size):
            return known[2]
        with open(path, "rb") as handle:
            found = mentions_api(handle.read().decode("utf-8", "replace"))
    except OSError:
        return True  # listed: reading it again gives the file its diagnostic
    _MENTIONS[path] = (stat.st_mtime_ns, stat.st_size, found)
    return found


def explicit(
    paths: Iterable[str], settings_for: SettingsFor, *, force_exclude: bool = False
) -> tuple[list[str], list[str]]:
    """The files ``formscript lint`` opens for paths given by name (see the module), and the
    paths at which nothing exists. With *force_exclude*, a path given by name is left out
    where a walk would leave it out (``--force-exclude``: pre-commit names every file)."""
    files: list[str] = []
    missing: list[str] = []
    ignored = Ignored(settings_for) if force_exclude else None
    for given in paths:
        if ignored is not None and os.path.lexists(given) and _left_out(given, ignored):
            continue
        if os.path.isdir(given):
            name = given.rstrip("/" + os.sep) or given  # "x.form.yaml/" is named like a form too
            if is_candidate(name, settings_for(name)):
                files.append(given)
            files.extend(candidates(given, settings_for))
        elif os.path.lexists(given):
            files.append(given)
        else:
            missing.append(given)
    return files, missing


def _left_out(given: str, ignored: Ignored) -> bool:
    """Whether *given*, or a folder it sits in, is left out."""
    full = os.path.abspath(given)
    folders = PurePath(full).parents[:-1]  # up to the root's child
    return ignored(full, os.path.isdir(full)) or any(ignored(str(folder), True) for folder in folders)
