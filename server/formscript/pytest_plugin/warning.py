"""The warning category of the plugin's findings (importable without loading anything else)."""

from __future__ import annotations

__all__ = ["FormscriptWarning"]


class FormscriptWarning(UserWarning):
    """A finding of formscript on a script a test handed to lionagi, which lionagi accepted
    (an unreachable entry, a conflicting matcher, ...)."""
