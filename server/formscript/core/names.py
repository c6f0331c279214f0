"""File names as the runtime reads them."""

from __future__ import annotations

import os


def suffix(path: str) -> str:
    """``PurePath(path).suffix``: the last dot and what follows it in the path's last
    component (none for a dot file or a name ending in a dot). Made from the string for a
    plain POSIX path (the one a lint of thousands of files asks about each); a path
    ``PurePath`` would normalize first (an empty one, a trailing ``/`` or ``/.``) and any
    path on Windows are left to it."""
    name = path.rpartition("/")[2]
    if os.sep != "/" or name in ("", "."):
        from pathlib import PurePath

        return PurePath(path).suffix
    at = name.rfind(".")
    return name[at:] if 0 < at < len(name) - 1 else ""
