"""The schemas' words: descriptions, enum descriptions and snippets, all from
:mod:`formscript.core.keys` (nothing about a key is written here), in the shapes JSON Schema
editors read (``description`` next to ``markdownDescription``, ``enumDescriptions``,
``defaultSnippets``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from formscript.core import keys
from formscript.schemas.names import Schema


def plain(markdown: str) -> str:
    """The plain-text twin of a markdown description."""
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", markdown)
    return text.replace("**", "").replace("`", "")


def doc(markdown: str) -> Schema:
    """``description`` and ``markdownDescription`` for *markdown*."""
    return {"description": plain(markdown), "markdownDescription": markdown}


def documented(schema: Schema, markdown: str) -> Schema:
    """*schema* with *markdown* as its description."""
    return {**schema, **doc(markdown)}


def key_doc(owner: str, name: str) -> str:
    """The markdown of key *name* of *owner*."""
    return keys.table(owner)[name].markdown


def owner_doc(owner: str) -> str:
    """What an object of *owner* is."""
    return keys.OWNERS[owner].text


def enum(name: str, values: Sequence[str], schema: Schema | None = None) -> Schema:
    """An enum of *values* described by the value table *name* (which must match them)."""
    docs = keys.value_docs(name)
    if set(docs) != set(values):
        raise RuntimeError(f"value docs for {name!r} do not match the core: {sorted(values)}")
    out = dict(schema or {})
    out["type"] = "string"
    out["enum"] = list(values)
    out["markdownEnumDescriptions"] = [docs[v] for v in values]
    out["enumDescriptions"] = [plain(docs[v]) for v in values]
    return out


def snippets(owner: str) -> list[Schema]:
    """*owner*'s snippets as ``defaultSnippets``."""
    return [
        {"label": s.label, "description": plain(s.text), "markdownDescription": s.text, "body": s.body}
        for s in keys.snippets(owner)
    ]
