"""Structural edits of YAML text through ruamel.yaml's round-trip, so comments and layout survive.

ruamel.yaml re-emits the document after the change; only the lines that differ become edits,
and a fix is offered only when those lines lie inside the part being changed and the new text
loads (with PyYAML, as the runtime loads it) to exactly the old value minus the change.
"""

from __future__ import annotations

import difflib
from io import StringIO
from typing import Any

from formscript.core.verdict import KeyPath
from formscript.document.model import Edit, Pos, Span


def remove_key_edits(text: str, path: KeyPath, value: Any, lines: tuple[int, int]) -> tuple[Edit, ...] | None:
    """Edits that delete the mapping entry at *path*, or None when that cannot be done safely.

    *value* is the document's loaded value; *lines* the first and last line (0-based) the
    entry occupies, outside which nothing may change.
    """
    if not path:
        return None
    try:
        new_text = _round_trip_without(text, path)
        if new_text is None:
            return None
        import yaml

        expected = _without(value, path)
        if yaml.safe_load(new_text) != expected:
            return None
    except Exception:  # any surprise from either YAML library means: offer no fix
        return None
    old_lines = text.splitlines(keepends=True)
    new_lines = new_text.splitlines(keepends=True)
    edits = []
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        last = max(i1, i2 - 1)
        if i1 < lines[0] or last > lines[1]:
            return None
        edits.append(Edit(Span(Pos(i1, 0), Pos(i2, 0)), "".join(new_lines[j1:j2])))
    return tuple(edits) or None


def _round_trip_without(text: str, path: KeyPath) -> str | None:
    from ruamel.yaml import YAML
    from ruamel.yaml.util import load_yaml_guess_indent

    _, indent, sequence_offset = load_yaml_guess_indent(text)
    handler = YAML(typ="rt")
    handler.preserve_quotes = True
    handler.width = 1 << 16
    handler.indent(mapping=indent, sequence=indent, offset=sequence_offset or 0)
    data = handler.load(text)
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    if path[-1] not in parent:
        return None
    del parent[path[-1]]
    out = StringIO()
    handler.dump(data, out)
    return out.getvalue()


def _without(value: Any, path: KeyPath) -> Any:
    import copy

    clone = copy.deepcopy(value)
    parent = clone
    for part in path[:-1]:
        parent = parent[part]
    del parent[path[-1]]
    return clone
