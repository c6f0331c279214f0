"""What every key of every file kind means to the runtime: type, default, effect and quirks.

Hover and completion read these; where the place of a key in a file decides which table
applies, ``owner_of`` says so. The key names come from the core models, so a key the
runtime accepts cannot be missing here without a test noticing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from formscript import rules
from formscript.lint.checks import CALL_KEYS
from formscript.lsp.facade import (
    CHECK_KINDS,
    CHUNK_TYPES,
    DECLARATION_KEYS,
    ELEMENT_KEYS,
    ERROR_KINDS,
    FIELD_TYPES,
    MODES,
    RESPONSE_TYPES,
    SCRIPT_KEYS,
    TOP_LEVEL_KEYS,
    KeyPath,
    StreamChunkSpec,
    WhenMatcher,
    entry_keys,
)


@dataclass(frozen=True)
class KeyDoc:
    """One key: its type and default as the runtime declares them, and what it does."""

    name: str
    type: str
    default: str
    effect: str
    quirks: tuple[str, ...] = ()
    #: Values the key takes, for completion (an enum or the booleans).
    choices: tuple[str, ...] = ()
    required: bool = False

    def markdown(self, owner: str = "") -> str:
        """The hover text."""
        where = f" ({OWNER_TITLES.get(owner, owner)})" if owner else ""
        default = "required, no default" if self.required else f"default `{self.default}`"
        lines = [f"**`{self.name}`**{where}: `{self.type}`, {default}", "", self.effect]
        if self.quirks:
            lines.append("")
            lines.extend(f"- ⚠ {quirk}" for quirk in self.quirks)
        return "\n".join(lines)


_BOOLS = ("true", "false")
_YAML_BOOL = "YAML 1.1 reads unquoted `yes`/`no`/`on`/`off` (any case) as booleans; `no` is False."

FORM: dict[str, KeyDoc] = {
    "title": KeyDoc(
        "title",
        "str",
        "the spec file's path",
        "First line of the block sent to the model: `[Work Form: <title>]`.",
        (
            "Must load as a string: an unquoted number, date or `yes`/`no` is not one, and the form is "
            f"refused ({rules.FS019.code}).",
        ),
    ),
    "fields": KeyDoc(
        "fields",
        "mapping: field name → declaration",
        "{}",
        "Each key is a field name (letters, digits, `_`, not starting with a digit); each "
        "declaration is built as `FieldSpec(name=<key>, **declaration)`.",
        ("An empty or missing `fields` makes any `values` unvalidated, so the gate refuses them.",),
    ),
    "values": KeyDoc(
        "values",
        "mapping: field name → value",
        "{}",
        "The filled-in form. Every key must be declared in `fields` (the `--form` gate is "
        "closed); each value is coerced to its field's type, and the coerced values are sent "
        "in this order as `  key: repr(value)` lines.",
        (
            "`null` counts as missing for a required field.",
            "A declared field left out takes its default, if it has one.",
        ),
    ),
}

FIELD: dict[str, KeyDoc] = {
    "type": KeyDoc(
        "type",
        " | ".join(FIELD_TYPES),
        "str",
        "How values are coerced: instances of the type pass through; an int widens to "
        "float; numeric strings become int or float; `true`/`1`/`yes` and `false`/`0`/`no` "
        "strings (any case) become booleans. Any other mismatch fails the form.",
        ("A YAML boolean given to an int field passes unchanged (bool is an int in Python).",),
        choices=FIELD_TYPES,
    ),
    "required": KeyDoc(
        "required",
        "bool",
        "true",
        "A required field with no value (or `null`) and no default fails the form.",
        (_YAML_BOOL,),
        choices=_BOOLS,
    ),
    "default": KeyDoc(
        "default",
        "Any",
        "null",
        "Used when `values` leaves the field out. `null` means no default.",
        (
            "Checked as written, never coerced: it must already be of the field's type (an int "
            "is accepted for a float).",
        ),
    ),
    "description": KeyDoc(
        "description",
        "str",
        '""',
        "Documentation only; it is not sent to the model.",
    ),
    "id": KeyDoc(
        "id",
        "UUID",
        "a fresh uuid4",
        "Element identity, accepted because FieldSpec is an Element; must parse as a UUID.",
    ),
    "created_at": KeyDoc(
        "created_at",
        "float (timestamp)",
        "0.0",
        "Element creation time; a number or an ISO date-time.",
    ),
    "metadata": KeyDoc(
        "metadata",
        "dict",
        "{}",
        "Element metadata; a `lion_class` entry must name lionagi.work.form.FieldSpec.",
    ),
}

SCRIPT: dict[str, KeyDoc] = {
    "version": KeyDoc("version", "int", "1", "Validated as an integer; nothing else reads it."),
    "mode": KeyDoc(
        "mode",
        " | ".join(MODES),
        "auto",
        "How calls find entries. `auto`: unserved conditional entries are tried in source "
        "order, then the next positional entry. `positional`: matchers are ignored and "
        "conditional entries skipped. `when_only`: only conditional entries; no match raises "
        "ScriptExhaustedError.",
        choices=MODES,
    ),
    "responses": KeyDoc(
        "responses",
        "list of entries",
        "[]",
        "The canned responses. Each entry's `type` picks its shape: "
        + ", ".join(f"`{t}`" for t in RESPONSE_TYPES)
        + ".",
        ("No entries: the first call raises ScriptExhaustedError.",),
    ),
}

_WHEN = KeyDoc(
    "when",
    "WhenMatcher | null",
    "null",
    "A non-empty matcher makes the entry conditional: it is served at most once, to the "
    "first call it matches. Without one the entry is positional.",
    ("`when: {}` is empty, so the entry stays positional.",),
)
_TYPE = KeyDoc(
    "type",
    " | ".join(RESPONSE_TYPES),
    "",
    "Which kind of response this entry is; it decides the other keys.",
    ("An unknown type refuses the whole script (ValueError).",),
    choices=RESPONSE_TYPES,
    required=True,
)

ENTRY: dict[str, dict[str, KeyDoc]] = {
    "text": {
        "content": KeyDoc(
            "content",
            "str",
            "",
            "The assistant message text (finish_reason `stop`, zero "
            "token usage). Streamed, it is one text delta and a done result.",
            required=True,
        ),
    },
    "tool_call": {
        "name": KeyDoc("name", "str", "", "The function name of the single tool call.", required=True),
        "arguments": KeyDoc(
            "arguments",
            "dict",
            "{}",
            "The call's arguments, JSON-encoded into the tool call.",
            ("Values must be JSON-encodable, or serving the entry raises.",),
        ),
        "id": KeyDoc("id", "str | null", "null", "The tool call id; when missing a `call_...` id is generated."),
    },
    "structured": {
        "data": KeyDoc(
            "data",
            "dict",
            "",
            "JSON-encoded into the assistant content, so ordinary parsing handles it.",
            required=True,
        ),
    },
    "stream": {
        "chunks": KeyDoc(
            "chunks",
            "list of stream chunks",
            "",
            "Streamed in order. Served without streaming, only the text chunks are joined into the message.",
            ("A stream should end with a `result` or `error` chunk.",),
            required=True,
        ),
    },
    "error": {
        "kind": KeyDoc(
            "kind",
            " | ".join(ERROR_KINDS),
            "value_error",
            "The exception raised: `rate_limit` 429, `server_error` 500 and `bad_request` 400 "
            "ClientResponseError; `timeout` asyncio.TimeoutError; `value_error` ValueError.",
            ("Streaming first yields an error chunk, then raises.",),
            choices=ERROR_KINDS,
        ),
        "message": KeyDoc("message", "str", "scripted error", "The exception's message."),
        "delay_ms": KeyDoc(
            "delay_ms",
            "int",
            "0",
            "Sleeps `delay_ms / 1000` seconds, records the call, then raises.",
            ("A negative delay does not wait at all.",),
        ),
    },
}

WHEN: dict[str, KeyDoc] = {
    "prompt_contains": KeyDoc(
        "prompt_contains",
        "str | null",
        "null",
        "Matches when the last user message contains this text.",
        (
            "Containment is case-insensitive.",
            "Consulted first: when set, `prompt_regex` and `has_tool` are never evaluated "
            "(predicates are not combined, whatever the docstring says).",
        ),
    ),
    "prompt_regex": KeyDoc(
        "prompt_regex",
        "str | null",
        "null",
        "Matches when `re.search` finds the pattern in the last user message.",
        (
            "Ignored when `prompt_contains` is set; when set, `has_tool` is never evaluated.",
            "An invalid pattern raises re.error at the call that evaluates it.",
        ),
    ),
    "has_tool": KeyDoc(
        "has_tool",
        "str | null",
        "null",
        "Matches when the request offers a tool of exactly this name.",
        ("Only consulted when neither `prompt_contains` nor `prompt_regex` is set.",),
    ),
    "after_calls": KeyDoc(
        "after_calls",
        "int | null",
        "null",
        "Gate: only calls with index ≥ this value may match.",
        ("With no content predicate the gate alone matches.",),
    ),
    "call_index": KeyDoc(
        "call_index",
        "int | null",
        "null",
        "Gate: only the call with this 0-based index may match.",
        ("With no content predicate the gate alone matches.",),
    ),
}

CHUNK: dict[str, KeyDoc] = {
    "type": KeyDoc(
        "type",
        " | ".join(CHUNK_TYPES),
        "",
        "The stream chunk's kind; `result` or `error` ends a stream.",
        choices=CHUNK_TYPES,
        required=True,
    ),
    "content": KeyDoc("content", "str | null", "null", "The chunk's text."),
    "tool_name": KeyDoc("tool_name", "str | null", "null", "The tool of a `tool_use` or `tool_result` chunk."),
    "tool_id": KeyDoc("tool_id", "str | null", "null", "The tool call id."),
    "tool_input": KeyDoc("tool_input", "dict | null", "null", "The tool's input."),
    "tool_output": KeyDoc("tool_output", "Any", "null", "The tool's output."),
    "is_error": KeyDoc("is_error", "bool", "false", "Marks an error result.", (_YAML_BOOL,), choices=_BOOLS),
    "is_delta": KeyDoc("is_delta", "bool", "false", "Marks an incremental text delta.", (_YAML_BOOL,), choices=_BOOLS),
    "metadata": KeyDoc("metadata", "dict", "{}", "Extra data carried with the chunk."),
}

RULESET: dict[str, KeyDoc] = {
    "rules": KeyDoc(
        "rules",
        "list of rules",
        "",
        "Rules run in order on the coerced values; every failure is collected.",
        required=True,
    ),
}

RULE: dict[str, KeyDoc] = {
    "rule_id": KeyDoc(
        "rule_id",
        "str",
        "",
        "Identifies the rule.",
        ("RuleSet.add raises ValueError on a duplicate id.",),
        required=True,
    ),
    "field": KeyDoc("field", "str", "", "The field whose (coerced) value is checked.", required=True),
    "check": KeyDoc(
        "check",
        " | ".join(CHECK_KINDS),
        "",
        "`required` fails on null; `type` checks isinstance (int accepted for float); `range` "
        "checks inclusive min/max; `pattern` uses `re.search`; `custom` calls "
        "`params.callable`. All but `required` skip null values.",
        choices=CHECK_KINDS,
        required=True,
    ),
    "params": KeyDoc("params", "dict", "{}", "The check's parameters (see each key)."),
    "message": KeyDoc("message", "str | null", "null", "Replaces the generated error message when the rule fails."),
    "enabled": KeyDoc("enabled", "bool", "true", "A disabled rule never fails.", (_YAML_BOOL,), choices=_BOOLS),
}

PARAMS: dict[str, KeyDoc] = {
    "min": KeyDoc("min", "number", "null", "`range`: inclusive lower bound."),
    "max": KeyDoc("max", "number", "null", "`range`: inclusive upper bound."),
    "pattern": KeyDoc(
        "pattern",
        "str",
        '""',
        "`pattern`: the regular expression, applied with `re.search` (not a full match).",
        ("Values over 4096 characters fail before the pattern runs.",),
    ),
    "flags": KeyDoc("flags", "int", "0", "`pattern`: integer `re` flags."),
    "type": KeyDoc("type", " | ".join(FIELD_TYPES), "str", "`type`: the expected type name.", choices=FIELD_TYPES),
    "callable": KeyDoc(
        "callable",
        "Python callable",
        "",
        "`custom`: the check; it cannot be written in YAML, so files can only name it.",
    ),
    "error": KeyDoc("error", "str", "", "`custom`: the message when the check returns false (after `message`)."),
}
PARAMS_BY_CHECK: dict[str, tuple[str, ...]] = {
    "range": ("min", "max"),
    "pattern": ("pattern", "flags"),
    "type": ("type",),
    "custom": ("callable", "error"),
    "required": (),
}

CALL: dict[str, KeyDoc] = {
    "prompt": KeyDoc("prompt", "str", "", "The last user message of the call; matchers read it."),
    "tools": KeyDoc("tools", "list of tool names", "[]", "Tools offered with the call; `has_tool` reads them."),
    "payload": KeyDoc("payload", "mapping", "", "A raw request payload, instead of prompt/tools."),
}

#: Documentation of enum values, by the key that takes them.
VALUE_DOCS: dict[str, dict[str, str]] = {
    "mode": {
        "auto": "conditional entries first (source order, each at most once), then the next positional entry",
        "positional": "matchers ignored; conditional entries skipped",
        "when_only": "only conditional entries; no match raises ScriptExhaustedError",
    },
    "kind": {
        "rate_limit": "raises ClientResponseError 429",
        "timeout": "raises asyncio.TimeoutError",
        "server_error": "raises ClientResponseError 500",
        "bad_request": "raises ClientResponseError 400",
        "value_error": "raises ValueError",
    },
}

OWNER_TITLES = {
    "form": "form spec",
    "fields": "field declarations",
    "field": "field declaration",
    "values": "form values",
    "script": "script",
    "responses": "responses",
    "entry": "response",
    "when": "when matcher",
    "chunks": "stream chunks",
    "chunk": "stream chunk",
    "ruleset": "ruleset",
    "rules": "rules",
    "rule": "rule",
    "params": "rule params",
    "calls": "calls transcript",
    "call": "call",
}


def owner_of(kind: str | None, path: KeyPath) -> str | None:
    """What the node at *path* is (the owner of the keys inside it), or None."""
    n = len(path)
    if kind == "form":
        if n == 0:
            return "form"
        if path == ("fields",):
            return "fields"
        if path == ("values",):
            return "values"
        if n == 2 and path[0] == "fields":
            return "field"
    elif kind == "script":
        if n == 0:
            return "script"
        if path[0] != "responses":
            return None
        if n == 1:
            return "responses"
        if n == 2:
            return "entry"
        if n == 3 and path[2] == "when":
            return "when"
        if n == 3 and path[2] == "chunks":
            return "chunks"
        if n == 4 and path[2] == "chunks":
            return "chunk"
    elif kind == "rules":
        if n == 0:
            return "ruleset"
        if path[0] != "rules":
            return None
        if n == 1:
            return "rules"
        if n == 2:
            return "rule"
        if n == 3 and path[2] == "params":
            return "params"
    elif kind == "calls":
        if n == 0:
            return "calls"
        if n == 1:
            return "call"
    return None


def keys_of(owner: str, siblings: dict[str, Any]) -> dict[str, KeyDoc]:
    """The keys valid inside *owner*, given the keys already there (an entry's ``type``,
    a rule's ``check``)."""
    if owner == "form":
        return FORM
    if owner == "field":
        return FIELD
    if owner == "script":
        return SCRIPT
    if owner == "entry":
        response_type = siblings.get("type")
        specific = ENTRY.get(response_type, {}) if isinstance(response_type, str) else {}
        return {"type": _TYPE, **specific, "when": _WHEN}
    if owner == "when":
        return WHEN
    if owner == "chunk":
        return CHUNK
    if owner == "ruleset":
        return RULESET
    if owner == "rule":
        return RULE
    if owner == "params":
        check = siblings.get("check")
        names = PARAMS_BY_CHECK.get(check, tuple(PARAMS)) if isinstance(check, str) else tuple(PARAMS)
        return {name: PARAMS[name] for name in names}
    if owner == "call":
        return CALL
    return {}


def doc_for(owner: str, key: str, siblings: dict[str, Any]) -> KeyDoc | None:
    """The documentation of *key* inside *owner*."""
    found = keys_of(owner, siblings).get(key)
    if found is None and owner == "entry":
        for table in ENTRY.values():  # a key of another response type: still explain it
            if key in table:
                return table[key]
    if found is None and owner == "params":
        return PARAMS.get(key)
    return found


def model_keys() -> dict[str, tuple[str, ...]]:
    """The keys the core models accept, by owner (checked against these tables in tests)."""
    entry: set[str] = set()
    for response_type in RESPONSE_TYPES:
        entry.update(entry_keys(response_type))
    return {
        "form": TOP_LEVEL_KEYS,
        "field": DECLARATION_KEYS + ELEMENT_KEYS,
        "script": SCRIPT_KEYS,
        "entry": tuple(sorted(entry)),
        "when": tuple(WhenMatcher.model_fields),
        "chunk": tuple(StreamChunkSpec.model_fields),
        "rule": ("rule_id", "field", "check", "params", "message", "enabled"),
        "call": CALL_KEYS,
    }
