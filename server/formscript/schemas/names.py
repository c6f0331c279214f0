"""The schemas' kinds, file names and identifiers: what the builders and the package both name
(here, below both, so neither imports the other to learn them)."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

#: The file kinds (the lint's kind names), in the order ``formscript schema`` lists them.
SCHEMA_KINDS: tuple[str, ...] = ("form", "script", "rules", "calls")
#: The file each kind's schema is published as.
SCHEMA_FILES: dict[str, str] = {
    "form": "form-spec.schema.json",
    "script": "script.schema.json",
    "rules": "ruleset.schema.json",
    "calls": "calls.schema.json",
}
#: Other accepted spellings of a kind (the schema files' stems).
KIND_ALIASES: dict[str, str] = {"form-spec": "form", "ruleset": "rules"}
#: The dialect every schema declares.
DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: Where the schemas are published; ``$id`` is this plus the file name.
BASE_URL = "https://formscript.dev/schemas/"


def canonical_kind(kind: str) -> str:
    """*kind* as one of :data:`SCHEMA_KINDS` (``form-spec`` and ``ruleset`` are accepted too)."""
    canonical = KIND_ALIASES.get(kind, kind)
    if canonical not in SCHEMA_KINDS:
        raise ValueError(f"unknown schema kind {kind!r}; expected one of {', '.join(SCHEMA_KINDS)}")
    return canonical


def schema_filename(kind: str) -> str:
    """The file name of *kind*'s schema, e.g. ``form-spec.schema.json`` for ``form``."""
    return SCHEMA_FILES[canonical_kind(kind)]


def schema_id(kind: str) -> str:
    """The ``$id`` of *kind*'s schema."""
    return BASE_URL + schema_filename(kind)
