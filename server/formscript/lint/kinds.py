"""Which kind a file is: --kind, configured globs, default names, then content sniffing."""

from __future__ import annotations

import fnmatch
from pathlib import PurePath
from typing import Any

from formscript.lint.config import KINDS, Settings

_SUFFIXES = (".yaml", ".yml", ".json")


def kind_from_name(path: str, settings: Settings) -> str | None:
    """The kind named by configured globs or the default ``*.<kind>.<ext>`` names."""
    if settings.kinds:
        # a glob matches the path relative to the configuration's folder (as per-file-ignores
        # do; the server sees absolute paths), the path as given, or the file name
        forms = {settings.relative(path), PurePath(path).as_posix(), PurePath(path).name}
        for known in KINDS:
            for pattern in settings.kinds.get(known, ()):
                if any(fnmatch.fnmatch(form, pattern) for form in forms):
                    return known
    stem, dot, suffix = path.rpartition(".")
    if not dot or f".{suffix}" not in _SUFFIXES:
        return None
    _, separator, kind = stem.rpartition(".")
    return kind if separator and kind in KINDS else None


def is_candidate(path: str, settings: Settings) -> bool:
    """Whether a file found in a directory walk is worth opening (a Python file is, to look
    for the scripts and forms it hands to lionagi: reading it says whether it mentions it)."""
    suffix = PurePath(path).suffix
    return kind_from_name(path, settings) is not None or suffix in _SUFFIXES or suffix == ".py"


def sniff(value: Any) -> str | None:
    """Guess the kind from loaded content."""
    if isinstance(value, dict):
        keys = set(value)
        if "responses" in keys or (keys & {"mode"} and not keys & {"fields", "values"}):
            return "script"
        if "rules" in keys:
            return "rules"
        if keys & {"fields", "values"}:
            return "form"
        return None
    if (
        isinstance(value, list)
        and value
        and all(
            isinstance(item, str) or (isinstance(item, dict) and set(item) & {"prompt", "payload"}) for item in value
        )
    ):
        return "calls"
    return None
