"""The names of the core (``formscript.core``) the language server uses: the one lsp module
that imports the core, so what the editor depends on is listed in one place
(tests/test_architecture.py keeps it that way). Everything else the server knows of a file
it learns from the lint (``formscript.lint``) and the located document."""

from __future__ import annotations

from formscript.core.ends import common_ends
from formscript.core.fields import ELEMENT_KEYS, FIELD_NAME_RE, Declared
from formscript.core.keys import OWNERS, Key, Snippet, doc_for, keys_of, owner_of, snippets
from formscript.core.printable import type_label
from formscript.core.verdict import KeyPath

__all__ = [
    "ELEMENT_KEYS",
    "FIELD_NAME_RE",
    "OWNERS",
    "Declared",
    "Key",
    "KeyPath",
    "Snippet",
    "common_ends",
    "doc_for",
    "keys_of",
    "owner_of",
    "snippets",
    "type_label",
]
