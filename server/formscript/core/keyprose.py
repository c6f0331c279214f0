"""What formscript says about each key and value, in words: the prose hover, completion and the
JSON Schemas show (``core.keys`` joins it with what the models declare). Adding a key to a
response type is a line in its model and its prose here."""

from __future__ import annotations

from dataclasses import dataclass

from formscript.core.fields import RUNTIME_FIELDSPEC_CLASS


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
