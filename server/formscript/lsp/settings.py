"""The language server's settings: the CLI's configuration model, layered.

The workspace's own configuration (``[tool.formscript]`` in pyproject.toml, or
formscript.toml, found upward from each file) is the base; the editor's settings
(initializationOptions, ``workspace/configuration`` section "formscript",
``workspace/didChangeConfiguration``) go on top, with the same keys as the TOML table: the
settings of :class:`formscript.lint.config.Settings`, spelt as there, as in TOML or in camel
case (VS Code's ``formscript.extendSelect``).

Editors send every setting they know, set or not, so an empty list or table from the
editor means "not set here" and leaves the file's value alone. ``select`` is the one
exception: when present it replaces the selection, as in the TOML table.

A client that cannot watch files for the server (no dynamic registration of
``workspace/didChangeWatchedFiles``: Neovim 0.7 and others) would never tell it that a
configuration file changed; the store keeps a stamp (path, modification time, size) of the
configuration files each folder's settings were read from, and ``files_changed`` compares it
when a document of that folder is opened, changed or saved: a few ``stat`` calls, no thread.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from formscript.lint.config import ConfigError, Settings, discover, setting_names, settings_from_mapping

log = logging.getLogger(__name__)

CONFIG_FILES = ("pyproject.toml", "formscript.toml")
#: Editor settings below "formscript." that the server does not read: the client uses them to
#: start the server (``path``, ``interpreter``, ``importStrategy``) and to trace it (``trace.server``).
CLIENT_ONLY = ("path", "interpreter", "importStrategy", "trace.server")


def editor_table(raw: Any) -> dict[str, Any]:
    """The settings table inside whatever an editor sent (``{"formscript": {...}}`` or the
    table itself); empty lists and tables dropped, unknown keys dropped."""
    if isinstance(raw, dict) and isinstance(raw.get("formscript"), dict):
        raw = raw["formscript"]
    if not isinstance(raw, dict):
        return {}
    names = setting_names()
    table: dict[str, Any] = {}
    for key, value in raw.items():
        name = names.get(str(key))
        if name is None or value is None:
            continue
        if name == "kinds" and isinstance(value, dict):
            value = {k: v for k, v in value.items() if v not in ([], "", None)}
        if name != "select" and value in ([], {}, ""):
            continue
        table[name] = value
    return table


class SettingsStore:
    """Per-file settings: discovered configuration with the editor's settings on top."""

    def __init__(self) -> None:
        self.editor: dict[str, Any] = {}
        #: Bumped whenever any setting changes, so cached results are recomputed.
        self.generation = 0
        self._discovered: dict[str, Settings] = {}
        self._merged: dict[str, Settings] = {}
        #: The configuration files each discovered folder's settings could come from, stamped.
        self._stamps: dict[str, Stamp] = {}
        self.errors: list[str] = []

    def set_editor(self, raw: Any) -> str | None:
        """Take the editor's settings; an error message (and no change) when they are invalid."""
        table = editor_table(raw)
        try:
            settings_from_mapping(table, "editor settings")
        except ConfigError as exc:
            return str(exc)
        if table != self.editor:
            self.editor = table
            self._changed()
        return None

    def invalidate_files(self) -> None:
        """A configuration file changed: discover again."""
        self._discovered.clear()
        self._stamps.clear()
        self._changed()

    def files_changed(self, path: str) -> bool:
        """Whether a configuration file that applies to *path* changed on disk since the
        settings of its folder were read (False when they have not been read)."""
        folder = str(Path(path).parent) if path else ""
        before = self._stamps.get(folder)
        return before is not None and stamp(folder) != before

    def _changed(self) -> None:
        self._merged.clear()
        self.generation += 1

    def for_path(self, path: str) -> Settings:
        """The settings that apply to the file at *path*."""
        folder = str(Path(path).parent) if path else ""
        merged = self._merged.get(folder)
        if merged is not None:
            return merged
        base = self._discovered.get(folder)
        if base is None:
            if folder:
                self._stamps[folder] = stamp(folder)  # before reading: a change after it shows
            try:
                base = discover(Path(folder)) if folder else Settings()
            except ConfigError as exc:
                message = f"ignoring the workspace configuration: {exc}"
                if message not in self.errors:
                    self.errors.append(message)
                    log.warning(message)
                base = Settings()
            except OSError:
                base = Settings()
            self._discovered[folder] = base
        merged = base.merged(self.editor) if self.editor else base
        self._merged[folder] = merged
        return merged


Stamp = tuple[tuple[str, int, int], ...]


def stamp(folder: str) -> Stamp:
    """The configuration files at or above *folder*: each one's path, modification time and
    size (``discover`` reads the nearest)."""
    found = []
    try:
        current = Path(folder).resolve()
    except (OSError, RuntimeError):
        return ()
    for directory in (current, *current.parents):
        for name in CONFIG_FILES:
            candidate = os.path.join(directory, name)
            try:
                info = os.stat(candidate)
            except OSError:
                continue
            found.append((candidate, info.st_mtime_ns, info.st_size))
    return tuple(found)
