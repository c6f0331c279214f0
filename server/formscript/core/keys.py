"""Key knowledge: every key of every file kind and what lionagi 0.36.0 does with it, written once.

Hover, completion (keys, values and snippets) and the JSON Schemas read this module, and
nothing else holds prose about keys. What is written here is the prose; which keys exist,
their types, defaults, requiredness and enum values come from the core models
(``model_fields``, ``typing.get_args``) the first time an owner is asked for, so importing
this module costs no pydantic and a key the models gain or lose cannot go unnoticed
(tests/test_keys.py compares both ways, and against lionagi itself).

An *owner* is what holds a key: ``form`` (a spec's top level), ``field`` (one declaration),
``script``, ``entry`` (what every response entry takes) and ``entry.<type>`` (what one
response type adds), ``when``, ``chunk``, ``ruleset``, ``rule``, ``params.<check>``, ``call``
(an item of a calls transcript), ``payload`` and ``message``. :func:`owner_of` says which
owner a path inside a file of a kind points into, :func:`keys_of` which keys are valid
there.
"""

from __future__ import annotations

import re
import types
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin

from formscript.core.fields import RUNTIME_FIELDSPEC_CLASS
from formscript.core.verdict import KeyPath


@dataclass(frozen=True)
class Prose:
    """What is written about one key. ``type``, ``default`` and ``required`` are given only
    for keys no model declares, or where the model's value is not what the runtime shows."""

    text: str
    notes: tuple[str, ...] = ()
    type: str | None = None
    default: str | None = None
    required: bool | None = None
    #: The :data:`VALUES` table that explains the key's enum values.
    values: str | None = None


@dataclass(frozen=True)
class Key:
    """One key, as the models declare it and the prose explains it."""

    owner: str
    name: str
    #: The type as a reader sees it, e.g. ``str | null`` or ``text | tool_call``.
    type: str
    #: The default as written in a file (``null``, ``{}``, ``auto``); None when there is none.
    default: str | None
    required: bool
    #: The values the key takes (an enum, or the booleans), for completion.
    choices: tuple[str, ...]
    #: The :data:`VALUES` table explaining *choices*, if any.
    values: str | None
    text: str
    notes: tuple[str, ...]

    @property
    def markdown(self) -> str:
        """The key's documentation: what it does, then its quirks."""
        if not self.notes:
            return self.text
        return self.text + "\n\n" + "\n".join(f"- ⚠ {note}" for note in self.notes)

    def value_doc(self, value: str) -> str | None:
        """What *value* of this key means, when its values are documented."""
        return value_docs(self.values).get(value) if self.values else None


# ----------------------------------------------------------------------------- shared prose

YAML11 = (
    "YAML 1.1 (what the runtime's `yaml.safe_load` speaks) reads unquoted `yes`/`no`/`on`/`off`"
    " (in lower, Capitalized or UPPER case) as booleans, `017` as octal 15, `12:30` as 750 and"
    " `2024-01-01` as a date: quote such text."
)
_YAML_BOOL = (
    "YAML 1.1 reads unquoted `yes`/`no`/`on`/`off` (in lower, Capitalized or UPPER case) as booleans: `no` is False."
)
_RECORDED = (
    "The index counts recorded calls: a scripted error counts, a call whose negative `delay_ms` raised first does not."
)
_GATE = "Checked before the content predicate; with no content predicate set, the gate alone matches."
_ENCODABLE = "Values must be JSON-encodable, or serving the entry raises (TypeError) and the call is not recorded."

#: The longest value a pattern rule searches (lionagi's REGEX_MAX_INPUT_LENGTH; checked in tests).
PATTERN_INPUT_CAP_TEXT = "4096"

# ----------------------------------------------------------------------------- key prose

PROSE: dict[str, dict[str, Prose]] = {
    "form": {
        "title": Prose(
            "The heading of the block sent before the prompt: `[Work Form: <title>]`.",
            ("Must load as a string: an unquoted number, date or `yes`/`no` is not one, and the form is refused.",),
            default="the spec file's path",
        ),
        "fields": Prose(
            "Field declarations keyed by field name (letters, digits and `_`, not starting with a"
            " digit). Each becomes `FieldSpec(name=<key>, **declaration)`; declared required"
            " fields are checked even when `values` is empty.",
            (
                "Omitted, `null` or empty: no fields, and then `values` must be empty too (the"
                " runtime refuses values it cannot validate).",
            ),
        ),
        "values": Prose(
            "The values to fill, keyed by declared field name: a value no field declares is"
            " refused. Each value is coerced to its field's `type`, and one that does not coerce"
            " fails the form. The accepted form is sent before the prompt as one"
            " `  <name>: <repr(value)>` line per value, in the order the fields are declared,"
            " defaults included.",
            (
                "`null` counts as missing for a required field, even one with a default.",
                "A declared field left out takes its default; without one it is not sent, and a"
                " required one fails the form.",
            ),
        ),
    },
    "field": {
        "type": Prose(
            "The value's Python type. Values are coerced to it: a value of the type passes"
            " through; an int widens to float; a string `int()` or `float()` accepts becomes a"
            " number; the strings `true`/`1`/`yes` and `false`/`0`/`no` (any case) become"
            " booleans. Any other mismatch fails the form.",
            (
                "A YAML boolean given to an `int` field passes unchanged (Python's bool is an"
                " int); given to a `float` field it becomes `1.0` or `0.0`.",
            ),
            values="field-type",
        ),
        "required": Prose(
            "Whether the field needs a value: a required field whose value is missing or `null`"
            " after the defaults are applied fails the form.",
            (_YAML_BOOL,),
        ),
        "default": Prose(
            "Used when `values` leaves the field out; `null` means no default.",
            (
                "Checked as written, never coerced: it must already have the declared type (an"
                " int is accepted for `float`, and `true`/`false` for `int` and `float`, because"
                " Python's bool is an int).",
                YAML11,
            ),
        ),
        "description": Prose("Free text for people: the runtime keeps it but does not send it to the model."),
        "id": Prose(
            "Rarely wanted. The identity every lionagi Element carries: a UUID (text that parses"
            " as one is accepted), generated when absent. Accepted because the runtime's"
            " FieldSpec is an Element; it is not sent to the model.",
            default="a fresh uuid4",
        ),
        "created_at": Prose(
            "Rarely wanted. The Element's creation time: Unix seconds, or an ISO 8601 date-time"
            " (a space may stand for the `T`; without a zone it is UTC). Filled in with the"
            " current time when absent or `null`.",
            ("An unquoted date such as `2024-01-01` loads as a date, which is refused: quote it or add a time.",),
            type="float | date-time text",
            default="the current time",
        ),
        "metadata": Prose(
            "Rarely wanted. The Element's metadata mapping. A `lion_class` entry must name"
            f" `{RUNTIME_FIELDSPEC_CLASS}`.",
        ),
    },
    "script": {
        "version": Prose("The format version. The runtime accepts any integer and does not act on it."),
        "mode": Prose("How calls pick entries from `responses`.", values="mode"),
        "responses": Prose(
            "The entries, in file order. Each is a mapping whose `type` selects its kind and the keys it takes.",
            (
                "An unknown `type`, or a key its type does not take, refuses the whole script.",
                "A call no entry can serve raises `ScriptExhaustedError`; with no entries, that is the first call.",
            ),
            type="list of response entries",
        ),
    },
    "entry": {
        "type": Prose(
            "Which kind of response the entry is; it decides the other keys the entry takes.",
            (
                "The runtime picks the entry's model by `type` itself: a missing or unknown"
                " `type` refuses the whole script (ValueError).",
            ),
            required=True,
            values="response-type",
        ),
        "when": Prose(
            "Makes the entry conditional: an entry with a non-empty matcher is served at most"
            " once, to a call it matches, and the positional cursor skips it. Gates"
            " (`call_index`, `after_calls`) are checked first, then **only the first set** of"
            " `prompt_contains`, `prompt_regex`, `has_tool`.",
            (
                "Omitted, `null` or `{}`: the entry is positional.",
                "In `positional` mode a conditional entry is never served.",
            ),
        ),
    },
    "entry.text": {
        "content": Prose(
            "The reply text (`finish_reason: stop`, zero token usage). Streamed, it is one text"
            " delta followed by a `result` chunk.",
        ),
    },
    "entry.tool_call": {
        "name": Prose("The function name of the single tool call (`finish_reason: tool_calls`, no text)."),
        "arguments": Prose("The call's arguments, JSON-encoded into `function.arguments`.", (_ENCODABLE,)),
        "id": Prose("The tool call's id.", ("Missing or empty: a `call_…` id is generated.",)),
    },
    "entry.structured": {
        "data": Prose(
            "A mapping, JSON-encoded as the assistant's text (`finish_reason: stop`), so the"
            " ordinary parsing of the reply reads it.",
            (_ENCODABLE,),
        ),
    },
    "entry.stream": {
        "chunks": Prose(
            "The chunks, yielded in order when the call streams; the call is recorded after the"
            " last one. A call that does not stream gets the `content` of the `text` chunks"
            " joined into one reply.",
            ("Consumers stop at the terminal event: end the stream with one `result` or `error` chunk.",),
        ),
    },
    "entry.error": {
        "kind": Prose(
            "Which exception the call raises.",
            ("Streamed, the call first yields an `error` chunk carrying `message`, then raises.",),
            values="error-kind",
        ),
        "message": Prose("The exception's message (and, streamed, the error chunk's content)."),
        "delay_ms": Prose(
            "Milliseconds to wait before raising (e.g. to trip a timeout): the runtime sleeps"
            " `delay_ms / 1000` seconds, records the call, then raises.",
            (
                "A negative delay makes the sleep itself raise `ValueError` before the call is"
                " recorded: the scripted exception is never raised, nothing is streamed, and the"
                " next call gets the same call index, though the entry is used up.",
            ),
        ),
    },
    "when": {
        "prompt_contains": Prose(
            "Matches when the last user message contains this text, case-insensitively.",
            (
                "Consulted first: when it is set, `prompt_regex` and `has_tool` are not evaluated"
                " at all (only the first set content predicate counts; they are not combined).",
            ),
        ),
        "prompt_regex": Prose(
            "A Python regular expression searched (`re.search`, not a full match) in the last"
            " user message; case-sensitive unless the pattern starts with `(?i)`.",
            (
                "Ignored when `prompt_contains` is set; when it is evaluated, `has_tool` is not.",
                "An invalid pattern raises `re.error` at the first call that evaluates it.",
            ),
        ),
        "has_tool": Prose(
            "Matches when the request offers a tool of exactly this name (`tools[].function.name`,"
            " else `tools[].name`).",
            ("Ignored when `prompt_contains` or `prompt_regex` is set.",),
        ),
        "after_calls": Prose(
            "Gate: only a call whose 0-based index is at least this may match (that many calls"
            " were recorded before it).",
            (_GATE, _RECORDED),
        ),
        "call_index": Prose("Gate: only the call with this 0-based index may match.", (_GATE, _RECORDED)),
    },
    "chunk": {
        "type": Prose("The chunk's kind, as the lionagi `StreamChunk` yielded for it carries it.", values="chunk-type"),
        "content": Prose("The chunk's text."),
        "tool_name": Prose("For `tool_use` and `tool_result` chunks: the tool's name."),
        "tool_id": Prose("For tool chunks: the tool call's id."),
        "tool_input": Prose("For `tool_use` chunks: the tool's input mapping."),
        "tool_output": Prose("For `tool_result` chunks: the tool's output, any value."),
        "is_error": Prose("Marks the chunk as an error.", (_YAML_BOOL,)),
        "is_delta": Prose("Marks the chunk as an incremental delta.", (_YAML_BOOL,)),
        "metadata": Prose("Extra data carried on the chunk (copied)."),
    },
    "ruleset": {
        "rules": Prose(
            "The rules, applied in this order to the form's coerced values. Every enabled rule"
            " runs (none short-circuits), and their messages follow the field errors.",
            type="list of rules",
            required=True,
        ),
    },
    "rule": {
        "rule_id": Prose(
            "The rule's name, unique in the ruleset.", ("`RuleSet.add` raises ValueError on a duplicate.",)
        ),
        "field": Prose("The field whose coerced value the rule checks. It need not be declared."),
        "check": Prose("What the rule checks; `params` configures it.", values="check"),
        "params": Prose("The check's settings; which keys it reads depends on `check`."),
        "message": Prose(
            "Replaces the generated message when the value fails the check.",
            (
                "Configuration errors (an unknown type, an invalid pattern, a missing or raising"
                " callable) keep their own message.",
            ),
        ),
        "enabled": Prose("A disabled rule never fails.", (_YAML_BOOL,)),
    },
    "params.type": {
        "type": Prose(
            "The type the value must have (`isinstance`, no coercion).",
            type="str | int | float | bool | list | dict",
            default="str",
            values="type-check",
        ),
    },
    "params.range": {
        "min": Prose("Inclusive lower bound; absent or `null` for none.", type="number", default="null"),
        "max": Prose("Inclusive upper bound; absent or `null` for none.", type="number", default="null"),
    },
    "params.pattern": {
        "pattern": Prose(
            "A Python regular expression, searched anywhere in the value (`re.search`, not a"
            " full match: anchor it with `^…$`).",
            (
                "An invalid pattern is a rule error, with its own message.",
                f"A value over {PATTERN_INPUT_CAP_TEXT} characters fails before the pattern runs.",
            ),
            type="str",
            default='""',
        ),
        "flags": Prose("Integer `re` flags, e.g. `2` for `re.IGNORECASE`.", type="int", default="0"),
    },
    "params.custom": {
        "callable": Prose(
            "The check: called with the value, and a false result fails the rule.",
            (
                "A YAML or JSON file cannot hold a callable, so from a file this rule always fails"
                " with a configuration error.",
            ),
            type="Python callable",
            required=True,
        ),
        "error": Prose("The message when the check returns false, unless `message` is set.", type="str"),
    },
    "call": {
        "prompt": Prose(
            "The last user message of the call: what `prompt_contains` and `prompt_regex` see.",
            type="str",
        ),
        "tools": Prose(
            "With `prompt`: names of the tools the request offers, what `has_tool` compares against."
            " With `chat`: the `tools=` keyword of `branch.chat`, which the Branch passes to the"
            " request as it is (a list of tool definitions).",
            type="list",
            default="[]",
        ),
        "payload": Prose(
            "A raw request payload as the scripted endpoint receives it, instead of `prompt` and `tools`.",
            ("Other keys (`model`, …) are allowed and ignored by the matchers.",),
            type="mapping",
        ),
        "chat": Prose(
            "A call made through a lionagi Branch: what the test passes to"
            " `branch.chat(...)` on `TestBranch.from_script(...)`. The endpoint does not see this"
            " text: the Branch sends one user message, the instruction rendered as YAML,"
            " `Instruction: <text>` (quoted, escaped or as an indented block where YAML needs it)"
            " after a `Guidance:` section and before `Context:` and `Tools:` sections when those"
            " options are given. `simulate` builds that message and warns when a matcher matches"
            " the text as written but not the message sent.",
            (
                "An anchored `prompt_regex: '^hello'` never matches `Instruction: hello`.",
                'An empty instruction (`""`, `0`, `false`) sends no `Instruction:` section; with no'
                " other section the message is `{}`.",
            ),
            type="Any",
        ),
        "guidance": Prose(
            "`branch.chat(guidance=...)`: rendered first, as `Guidance: <value>` (a mapping or list as nested YAML).",
            ('Empty values (`""`, `0`, `false`, `null`) are left out.',),
            type="Any",
        ),
        "context": Prose(
            "`branch.chat(context=...)`: rendered after the instruction as a `Context:` list, one"
            " item per list element (any other value is one item).",
            ("Empty strings, `null` and empty lists or mappings inside it are left out.",),
            type="Any",
        ),
        "plain_content": Prose(
            "`branch.chat(plain_content=...)`: sent as the whole message instead of the YAML"
            " rendering, exactly as written.",
            ("An empty string is ignored.",),
            type="str",
        ),
        "tool_schemas": Prose(
            "`branch.chat(tool_schemas=...)`: tool definitions the Branch writes into the message"
            " text, as a `Tools:` section (a mapping with `tools` gives its list).",
            ("They do not reach the request's `tools`, so `has_tool` does not see them: pass `tools` for that.",),
            type="Any",
        ),
    },
    "payload": {
        "messages": Prose(
            "Chat messages. Matchers read the last message whose `role` is `user`.",
            type="list of messages",
            default="[]",
        ),
        "tools": Prose("Tool definitions; `has_tool` reads `function.name`, else `name`.", type="list", default="[]"),
        "input": Prose("Used as the prompt when no user message is found.", type="str"),
    },
    "message": {
        "role": Prose("`user`, `assistant`, `system`, …", type="str"),
        "content": Prose("A string, or a list of parts whose `text` values are joined.", type="str | list"),
    },
}

# ----------------------------------------------------------------------------- value prose

VALUES: dict[str, dict[str, str]] = {
    "field-type": {
        "str": "Text. A value must already be a string: a number is **not** converted. " + YAML11,
        "int": (
            'A whole number. A string `int()` accepts (`"42"`) is converted; `true`/`false`'
            " pass unchanged (Python's bool is an int)."
        ),
        "float": "A number. An int widens to float; a string `float()` accepts is converted.",
        "bool": (
            "`true` or `false`. The strings `true`/`1`/`yes` and `false`/`0`/`no` (any case) are"
            " converted; numbers are not."
        ),
        "list": "A sequence. Nothing is converted: a string is refused.",
        "dict": "A mapping. Nothing is converted.",
    },
    "type-check": {
        "str": "The value must be a string.",
        "int": "The value must be an int (`true`/`false` pass: Python's bool is an int).",
        "float": "The value must be a float or an int.",
        "bool": "The value must be `true` or `false`.",
        "list": "The value must be a sequence.",
        "dict": "The value must be a mapping.",
    },
    "mode": {
        "auto": (
            "Each call first tries the unserved conditional entries (non-empty `when`) in file"
            " order; the first that matches is served, once. Otherwise the next unconditional"
            " entry is served."
        ),
        "positional": "`when` is ignored: conditional entries are skipped and the others are served in order.",
        "when_only": (
            "Only conditional entries are served. A call no matcher accepts raises"
            " `ScriptExhaustedError`; there is no positional fallback."
        ),
    },
    "response-type": {
        "text": "An assistant text reply.",
        "tool_call": "One function tool call.",
        "structured": "Structured data, sent as JSON text.",
        "stream": "A sequence of stream chunks.",
        "error": "The call raises instead of answering.",
    },
    "error-kind": {
        # "{status}" is filled in from the core's table (core.endpoint.ERROR_STATUS).
        "rate_limit": "Raises lionagi's `APIClientError` with `status_code` {status}.",
        "timeout": "Raises `asyncio.TimeoutError` (the built-in `TimeoutError`).",
        "server_error": "Raises lionagi's `APIClientError` with `status_code` {status}.",
        "bad_request": "Raises lionagi's `APIClientError` with `status_code` {status}.",
        "value_error": "Raises `ValueError`.",
    },
    "chunk-type": {
        "system": "A system or session chunk.",
        "thinking": "Model reasoning text.",
        "text": "Assistant text; a call that does not stream joins the `content` of only these.",
        "tool_use": "The model asks for a tool (`tool_name`, `tool_id`, `tool_input`).",
        "tool_result": "A tool's result (`tool_id`, `tool_output`).",
        "result": "The final result of the stream.",
        "error": "An error chunk (usually with `is_error: true`).",
    },
    "check": {
        "required": "Fails only when the value is missing or `null`. Reads no `params`.",
        "type": (
            "Skips `null`. Fails unless the value has `params.type`; an int passes for `float`."
            " An unknown type name is a rule error."
        ),
        "range": (
            "Skips `null`; fails on a non-number; then applies the inclusive `params.min` and"
            " `params.max` that are set."
        ),
        "pattern": (
            f"Skips `null`; fails on a non-string or one over {PATTERN_INPUT_CAP_TEXT} characters;"
            " then `re.search(params.pattern, value, params.flags)`, which is **not** a full"
            " match: anchor with `^…$`."
        ),
        "custom": (
            "Calls the Python callable in `params.callable`. A YAML or JSON file cannot hold one,"
            " so from a file this rule always fails with a configuration error."
        ),
    },
}

# ----------------------------------------------------------------------------- owners and kinds


@dataclass(frozen=True)
class Owner:
    """What holds keys: its name as a reader says it, and what it is."""

    title: str
    text: str = ""


OWNERS: dict[str, Owner] = {
    "form": Owner("form spec"),
    "fields": Owner("field declarations"),
    "field": Owner(
        "field declaration",
        "The declaration of one field; its name is the mapping key (a `name:` key here makes"
        " the runtime refuse the declaration). Takes `type`, `required`, `default` and"
        " `description`; `id`, `created_at` and `metadata` are accepted because lionagi's"
        " FieldSpec is an Element, but are rarely wanted.",
    ),
    "values": Owner("form values"),
    "script": Owner("script"),
    "responses": Owner("responses"),
    "entry": Owner(
        "response",
        "One scripted response. `type` selects the kind: `text`, `tool_call`, `structured`,"
        " `stream` or `error`; each kind takes only its own keys plus `when`.",
    ),
    "when": Owner("when matcher"),
    "chunks": Owner("stream chunks"),
    "chunk": Owner(
        "stream chunk",
        "One chunk of a streamed response, yielded as a lionagi `StreamChunk`. Only `type` is required.",
    ),
    "ruleset": Owner("ruleset"),
    "rules": Owner("rules"),
    "rule": Owner(
        "rule",
        "One declarative rule on one field. Unknown keys are flagged here: lionagi's `Rule`"
        " model silently drops them, so a misspelt `mesage` would never take effect.",
    ),
    "params": Owner("rule params"),
    "calls": Owner("calls transcript"),
    "call": Owner(
        "call",
        "One call to the scripted endpoint. A plain string is the last user message; a mapping"
        " has `prompt` (and optional `tools`), a raw `payload`, or `chat` (a call through"
        " `branch.chat`, with its options).",
    ),
    "payload": Owner("request payload"),
    "message": Owner("payload message"),
}

#: Each file kind: the title of its schema, and what it is.
KINDS: dict[str, Owner] = {
    "form": Owner(
        "lionagi work-form spec (li agent --form)",
        "A work-form spec for `li agent --form` (lionagi 0.36.0). The runtime reads it with"
        " `yaml.safe_load` (YAML 1.1; JSON also works), refuses any top-level key other than"
        " `title`, `fields` and `values`, checks every value against its declaration, and only"
        " then calls the model. Add `# yaml-language-server: $schema=<this schema>` as a comment"
        " to bind it: a top-level `$schema` key would be refused as an unknown key.",
    ),
    "script": Owner(
        "lionagi scripted-response fixture (ScriptModel)",
        "A scripted-response fixture for `lionagi.testing` (ScriptModel, lionagi 0.36.0)."
        " Top-level keys other than `version`, `mode` and `responses` are refused. `.yaml` and"
        " `.yml` files are read with `yaml.safe_load` (YAML 1.1), other files as JSON.",
    ),
    "rules": Owner(
        "formscript ruleset (lionagi.work Rule list)",
        "Declarative rules (lionagi.work `Rule`) that formscript applies in dry runs of a form"
        " spec. `li agent --form` itself takes no ruleset.",
    ),
    "calls": Owner(
        "formscript calls transcript",
        "The calls a dry run replays against a script, in order: the first item is call index"
        " 0. Each item is a string (the last user message), `{prompt, tools}`, `{payload}` or"
        " `{chat, ...}` (a call through a lionagi Branch's `chat`).",
    ),
}

#: Which check's params each ``params.<check>`` table documents (``required`` reads none).
PARAM_OWNERS: dict[str, str] = {
    "required": "",
    "type": "params.type",
    "range": "params.range",
    "pattern": "params.pattern",
    "custom": "params.custom",
}


# ----------------------------------------------------------------------------- where a key sits


def owner_of(kind: str | None, path: KeyPath) -> str | None:
    """What the node at *path* in a file of *kind* is (the owner of the keys inside it)."""
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
        if n == 2 and path[1] == "payload":
            return "payload"
        if n == 4 and path[1:3] == ("payload", "messages"):
            return "message"
    return None


def keys_of(owner: str, siblings: Mapping[str, Any]) -> dict[str, Key]:
    """The keys valid inside *owner*, given the keys already there (an entry's ``type``
    decides its keys, a rule's ``check`` its params)."""
    if owner == "entry":
        shared = table("entry")
        response_type = siblings.get("type")
        specific = table(f"entry.{response_type}") if response_type in _response_types() else {}
        return {"type": shared["type"], **specific, "when": shared["when"]}
    if owner == "params":
        check = siblings.get("check")
        if isinstance(check, str) and check in PARAM_OWNERS:
            return table(PARAM_OWNERS[check]) if PARAM_OWNERS[check] else {}
        return {
            name: key for table_name in PARAM_OWNERS.values() if table_name for name, key in table(table_name).items()
        }
    if owner in PROSE and "." not in owner and owner != "entry":
        return table(owner)
    return {}


def doc_for(owner: str, name: str, siblings: Mapping[str, Any]) -> Key | None:
    """The key *name* inside *owner*; a key that belongs to another response type or check
    is still explained."""
    found = keys_of(owner, siblings).get(name)
    if found is None and owner in ("entry", "params"):
        prefix = owner + "."
        for table_name in PROSE:
            if table_name.startswith(prefix) and name in PROSE[table_name]:
                return table(table_name)[name]
    return found


# ----------------------------------------------------------------------------- from the models


def _models() -> dict[str, Any]:
    """The model behind each owner the models declare (imported when first needed)."""
    from formscript.core.forms import FieldSpec, WorkForm
    from formscript.core.rules import Rule
    from formscript.core.script_models import ENTRY_MODELS, ScriptHeader, StreamChunkSpec, WhenMatcher

    found: dict[str, Any] = {
        "form": WorkForm,
        "field": FieldSpec,
        "script": ScriptHeader,
        "when": WhenMatcher,
        "chunk": StreamChunkSpec,
        "rule": Rule,
    }
    for response_type, model in ENTRY_MODELS.items():
        found[f"entry.{response_type}"] = model
    return found


@cache
def _response_types() -> tuple[str, ...]:
    from formscript.core.script_models import ENTRY_MODELS

    return tuple(ENTRY_MODELS)


_MODEL_TITLES = {"FieldSpec": "field declaration", "WhenMatcher": "when matcher", "StreamChunkSpec": "stream chunk"}


def render_type(annotation: Any) -> str:
    """An annotation as a reader of a YAML file sees it."""
    if annotation is type(None):
        return "null"
    if annotation is Any:
        return "Any"
    origin = get_origin(annotation)
    if origin is Literal:
        return " | ".join(str(a) for a in get_args(annotation))
    if origin in (Union, types.UnionType):
        return " | ".join(render_type(a) for a in get_args(annotation))
    if annotation is dict or origin is dict:
        args = get_args(annotation)
        if len(args) == 2 and getattr(args[1], "__name__", "") in _MODEL_TITLES:
            return f"mapping of {_MODEL_TITLES[args[1].__name__]}s"
        return "mapping"
    if annotation is list or origin is list:
        args = get_args(annotation)
        if args and args[0] is not Any:
            return f"list of {render_type(args[0])}s"
        return "list"
    name = getattr(annotation, "__name__", str(annotation))
    return _MODEL_TITLES.get(name, name)


def render_value(value: Any) -> str:
    """A default as a file writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value == "":
        return '""'
    return str(value)


def _choices(info: Any) -> tuple[str, ...]:
    annotation = info.annotation
    options = [a for a in get_args(annotation)] if get_origin(annotation) in (Union, types.UnionType) else [annotation]
    for option in options:
        if get_origin(option) is Literal:
            return tuple(str(a) for a in get_args(option))
        if option is bool:
            return ("true", "false")
    for meta in info.metadata:  # a str constrained to alternatives, as ScriptHeader.mode
        pattern = getattr(meta, "pattern", None)
        if isinstance(pattern, str):
            found = re.fullmatch(r"\^\(([\w|]+)\)\$", pattern)
            if found:
                return tuple(found.group(1).split("|"))
    return ()


def _default(info: Any) -> str:
    factory = info.default_factory
    if factory is not None:
        if factory in (dict, list):
            return render_value(factory())
        return f"{factory.__name__}()"
    return render_value(info.default)


def _key(owner: str, name: str, prose: Prose, info: Any) -> Key:
    if info is None:  # a key no model declares: the prose says it all
        type_ = prose.type or "Any"
        required = bool(prose.required)
        choices: tuple[str, ...] = tuple(value_docs(prose.values)) if prose.values else ()
        default = None if required else prose.default
    else:
        required = info.is_required() if prose.required is None else prose.required
        choices = _choices(info)
        type_ = prose.type or render_type(info.annotation)
        if info.annotation is str and choices:  # a str constrained to alternatives
            type_ = " | ".join(choices)
        default = None if required else (prose.default or _default(info))
    return Key(owner, name, type_, default, required, choices, prose.values, prose.text, prose.notes)


def _entry_type() -> tuple[str, ...]:
    from formscript.core.script_models import ENTRY_MODELS

    return tuple(str(get_args(m.model_fields["type"].annotation)[0]) for m in ENTRY_MODELS.values())


@cache
def table(owner: str) -> dict[str, Key]:
    """Every key of *owner*, in the order the prose lists them."""
    written = PROSE[owner]
    models = _models()
    if owner == "entry":
        from formscript.core.script_models import TextResponse

        keys = {"when": _key(owner, "when", written["when"], TextResponse.model_fields["when"])}
        kind = written["type"]
        keys["type"] = Key(
            owner, "type", " | ".join(_entry_type()), None, True, _entry_type(), kind.values, kind.text, kind.notes
        )
        return {name: keys[name] for name in written}
    model = models.get(owner)
    fields = model.model_fields if model is not None else {}
    return {name: _key(owner, name, prose, fields.get(name)) for name, prose in written.items()}


@cache
def value_docs(name: str) -> dict[str, str]:
    """What each value of the enum *name* means (error kinds filled in from the core)."""
    docs = VALUES[name]
    if name == "error-kind":
        from formscript.core.endpoint import ERROR_STATUS

        return {kind: text.format(status=ERROR_STATUS.get(kind, "")) for kind, text in docs.items()}
    if name == "response-type":
        return {kind: f"{text} {_takes(kind)}" for kind, text in docs.items()}
    return dict(docs)


def _takes(response_type: str) -> str:
    """Which keys an entry of *response_type* takes, from its model."""
    names = [f"`{k.name}`" + (" (required)" if k.required else "") for k in table(f"entry.{response_type}").values()]
    return "Takes " + ", ".join(names) + " and `when`."


def all_keys() -> list[Key]:
    """Every key of every owner."""
    return [key for owner in PROSE for key in table(owner).values()]


# ----------------------------------------------------------------------------- snippets


@dataclass(frozen=True)
class Snippet:
    """A whole object to insert: its label, what it is, and its body.

    The body is JSON-shaped; strings may hold tab stops (``${1:default}``, ``${2|a,b|}``),
    and a string starting with ``^`` stands for a value that is not a string once its tab
    stops are filled in (VS Code's convention for JSON Schema ``defaultSnippets``).
    """

    label: str
    text: str
    body: Any


def choice(tab: int, options: tuple[str, ...]) -> str:
    """A tab stop offering *options*."""
    return "${" + f"{tab}|{','.join(options)}|" + "}"


@cache
def snippets(owner: str) -> tuple[Snippet, ...]:
    """The snippets that insert a whole *owner* (``entry``: one per response type)."""
    field_types = table("field")["type"].choices
    error = table("entry.error")
    bools = "^" + choice(2, ("true", "false"))
    found: dict[str, tuple[Snippet, ...]] = {
        "form": (
            Snippet(
                "work form",
                "A titled form with one declared field and its value.",
                {
                    "title": "${1:My form}",
                    "fields": {"${2:name}": {"type": "${3:str}", "description": "${4}"}},
                    "values": {"${2:name}": "${5}"},
                },
            ),
        ),
        "field": (
            Snippet(
                "field declaration",
                "A typed field with its requiredness, default and description.",
                {"type": choice(1, field_types), "required": bools, "description": "${3}"},
            ),
            Snippet(
                "optional field with a default",
                "An optional field that falls back to its default when `values` omits it.",
                {"type": "${1:str}", "required": False, "default": "${2}"},
            ),
        ),
        "script": (
            Snippet(
                "script",
                "A script with one text response.",
                {"version": 1, "mode": "auto", "responses": [{"type": "text", "content": "${1:Hello}"}]},
            ),
        ),
        "entry": (
            Snippet("text response", "An assistant text reply.", {"type": "text", "content": "${1:Hello}"}),
            Snippet(
                "tool_call response",
                "A function tool call.",
                {"type": "tool_call", "name": "${1:tool_name}", "arguments": {"${2:arg}": "${3}"}},
            ),
            Snippet(
                "structured response",
                "Structured data, sent as JSON text.",
                {"type": "structured", "data": {"${1:key}": "${2:value}"}},
            ),
            Snippet(
                "stream response",
                "A streamed reply in chunks.",
                {
                    "type": "stream",
                    "chunks": [{"type": "text", "content": "${1:Hello}", "is_delta": True}, {"type": "result"}],
                },
            ),
            Snippet(
                "error response",
                "A call that raises.",
                {
                    "type": "error",
                    "kind": choice(1, error["kind"].choices),
                    "message": f"${{2:{error['message'].default}}}",
                },
            ),
        ),
        "when": (
            Snippet(
                "prompt_contains",
                "Serve when the last user message contains this text (case-insensitive).",
                {"prompt_contains": "${1:text}"},
            ),
            Snippet(
                "prompt_regex",
                "Serve when this regular expression is found in the last user message.",
                {"prompt_regex": "${1:pattern}"},
            ),
            Snippet("has_tool", "Serve when the request offers this tool.", {"has_tool": "${1:tool_name}"}),
            Snippet("call_index", "Serve on the call with this 0-based index.", {"call_index": "^${1:0}"}),
        ),
        "chunk": (
            Snippet(
                "stream chunk",
                "One chunk of a stream.",
                {"type": choice(1, table("chunk")["type"].choices), "content": "${2}"},
            ),
        ),
        "rule": (
            Snippet(
                "required rule",
                "The field must have a non-null value.",
                {"rule_id": "${1:id}", "field": "${2:field}", "check": "required"},
            ),
            Snippet(
                "type rule",
                "The value must have a type.",
                {
                    "rule_id": "${1:id}",
                    "field": "${2:field}",
                    "check": "type",
                    "params": {"type": choice(3, table("params.type")["type"].choices)},
                },
            ),
            Snippet(
                "range rule",
                "The number must lie within inclusive bounds.",
                {
                    "rule_id": "${1:id}",
                    "field": "${2:field}",
                    "check": "range",
                    "params": {"min": "^${3:0}", "max": "^${4:100}"},
                },
            ),
            Snippet(
                "pattern rule",
                "The string must contain a match of a regular expression.",
                {
                    "rule_id": "${1:id}",
                    "field": "${2:field}",
                    "check": "pattern",
                    "params": {"pattern": "${3:regex}"},
                    "message": "${4}",
                },
            ),
        ),
        "call": (
            Snippet("prompt", "A call whose last user message is this text.", {"prompt": "${1:Hello}"}),
            Snippet(
                "prompt with tools",
                "A call that also offers tools.",
                {"prompt": "${1:Hello}", "tools": ["${2:tool_name}"]},
            ),
            Snippet(
                "payload",
                "A raw request payload.",
                {"payload": {"messages": [{"role": "user", "content": "${1:Hello}"}]}},
            ),
            Snippet(
                "chat",
                "A call made through branch.chat: the Branch sends `Instruction: <text>`.",
                {"chat": "${1:Hello}"},
            ),
        ),
    }
    return found[owner]
