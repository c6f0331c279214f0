"""The warning category of the plugin's findings (importable without loading anything else)."""

from __future__ import annotations

__all__ = ["FormscriptDriftWarning", "FormscriptWarning"]


class FormscriptWarning(UserWarning):
    """A finding of formscript on a script a test handed to lionagi, which lionagi accepted
    (an unreachable entry, a conflicting matcher, ...)."""


class FormscriptDriftWarning(FormscriptWarning):
    """lionagi served a call otherwise than formscript predicts from the same script and
    payload: formscript's model of the runtime has drifted from the lionagi installed."""
