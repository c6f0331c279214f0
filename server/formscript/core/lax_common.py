"""What the modules that give pydantic's answers without pydantic share: ``lax`` (the script
models) and ``lax_fields`` (FieldSpec). It imports nothing, so neither module's fast path
loads pydantic or dataclasses (tests/test_lax.py lints the problem corpus to check it)."""

from __future__ import annotations

__all__ = ["Unsure", "literal_message"]


class Unsure(Exception):
    """A value the fast path does not decide (lax mode might accept or coerce it): only the
    pydantic model can say."""


def literal_message(choices: tuple[str, ...]) -> str:
    """pydantic's message for a value that is none of a Literal's *choices* (two or more):
    ``Input should be 'a', 'b' or 'c'``."""
    quoted = [repr(choice) for choice in choices]
    return f"Input should be {', '.join(quoted[:-1])} or {quoted[-1]}"
