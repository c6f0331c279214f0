"""The names of the core (``formscript.core``) the language server uses: the one lsp module
that imports the core, so what the editor depends on is listed in one place
(tests/test_architecture.py keeps it that way). Everything else the server knows of a file
it learns from the lint (``formscript.lint``) and the located document."""

from __future__ import annotations

from formscript.core.declarations import DECLARATION_KEYS, ELEMENT_KEYS
from formscript.core.fields import Declared, type_label
from formscript.core.forms import FIELD_NAME_RE, FIELD_TYPES
from formscript.core.gate import TOP_LEVEL_KEYS
from formscript.core.rules import CHECK_KINDS
from formscript.core.script import SCRIPT_KEYS
from formscript.core.script_models import (
    CHUNK_TYPES,
    ERROR_KINDS,
    MODES,
    RESPONSE_TYPES,
    StreamChunkSpec,
    WhenMatcher,
    entry_keys,
)
from formscript.core.verdict import KeyPath

__all__ = [
    "CHECK_KINDS",
    "CHUNK_TYPES",
    "DECLARATION_KEYS",
    "ELEMENT_KEYS",
    "ERROR_KINDS",
    "FIELD_NAME_RE",
    "FIELD_TYPES",
    "MODES",
    "RESPONSE_TYPES",
    "SCRIPT_KEYS",
    "TOP_LEVEL_KEYS",
    "Declared",
    "KeyPath",
    "StreamChunkSpec",
    "WhenMatcher",
    "entry_keys",
    "type_label",
]
