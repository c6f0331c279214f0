"""Key documentation as the editor shows it: hover and completion render the entries of
:mod:`formscript.core.keys` (the one place it is written) with the same function, so a key
reads the same in both, and the same as in the JSON Schemas."""

from __future__ import annotations

from formscript.lsp.facade import OWNERS, Key


def owner_title(owner: str) -> str:
    """*owner* as a reader says it (``entry.error`` is a response, ``params.range`` rule params)."""
    base = owner.split(".", 1)[0]
    return OWNERS[base].title if base in OWNERS else base


def markdown(key: Key) -> str:
    """The hover text of *key* (also the completion item's documentation)."""
    if key.required:
        default = "required, no default"
    elif key.default is None:
        default = "no default"
    else:
        default = f"default `{key.default}`"
    lines = [f"**`{key.name}`** ({owner_title(key.owner)}): `{key.type}`, {default}", "", key.markdown]
    values = [(value, key.value_doc(value)) for value in key.choices]
    documented = [f"- `{value}`: {meaning}" for value, meaning in values if meaning]
    if documented:
        lines += ["", *documented]
    return "\n".join(lines)


def value_markdown(key: Key, value: str) -> str | None:
    """What *value* of *key* means, when its values are documented."""
    meaning = key.value_doc(value)
    return f"`{value}`: {meaning}" if meaning else None
