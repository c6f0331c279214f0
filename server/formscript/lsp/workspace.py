"""The workspace: its folders, the files in them, and the configuration files to watch.

Files are found by ``formscript.lint.discovery`` (the walk ``formscript lint DIR`` does too),
selecting those whose name or a ``kinds`` glob gives their kind, and the Python files that
mention lionagi's API.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import chain
from pathlib import Path

from lsprotocol import types

from formscript.lint import discovery
from formscript.lsp.analysis import path_to_uri, uri_to_path
from formscript.lsp.settings import CONFIG_FILES, SettingsStore

#: Workspace diagnostics cover this many files at most.
MAX_WORKSPACE_FILES = 5000
#: Clients pulling workspace diagnostics ask continually: the listing is kept this long.
LISTING_SECONDS = 10.0


class WorkspaceFiles:
    """The files of the workspace folders, and which changes re-read the configuration."""

    def __init__(self, roots: Callable[[], list[str]], settings: SettingsStore) -> None:
        self._roots = roots
        self._settings = settings
        self._listing: tuple[float, int, list[str]] | None = None

    def files(self) -> list[str]:
        """Every file of a known kind, and every Python file that mentions lionagi's API, under
        the workspace folders, each document once (a link to a listed file has the same URI);
        listed again at most every ``LISTING_SECONDS`` or when settings change."""
        now = time.monotonic()
        listing = self._listing
        if listing is not None and listing[1] == self._settings.generation and now - listing[0] < LISTING_SECONDS:
            return listing[2]
        files: list[str] = []
        seen: set[str] = set()
        for path in chain.from_iterable(discovery.listed(root, self._settings.for_path) for root in self._roots()):
            uri = path_to_uri(path)
            if uri in seen:
                continue
            seen.add(uri)
            if len(seen) > MAX_WORKSPACE_FILES:
                break
            files.append(path)
        self._listing = (now, self._settings.generation, files)
        return files

    @staticmethod
    def is_configuration(uri: str) -> bool:
        """Whether *uri* is a configuration file (a change to it re-reads the settings)."""
        return Path(uri_to_path(uri)).name in CONFIG_FILES

    @staticmethod
    def watchers() -> list[types.FileSystemWatcher]:
        """File watchers for the configuration files, to register with the client."""
        return [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_FILES]
