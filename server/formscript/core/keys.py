"""Key knowledge: every key of every file kind and what lionagi 0.36.0 does with it, written once.

Hover, completion (keys, values and snippets) and the JSON Schemas read this module, and
nothing else holds prose about keys (it is written in ``core.keyprose``); which keys exist,
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

from formscript.core.entries import RESPONSE_TYPES
from formscript.core.keyprose import PROSE, VALUES, Prose
from formscript.core.verdict import KeyPath


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


#: Per file kind, the owner of the node at each path (``*``: any key or index there).
_OWNER_PATHS: dict[str, dict[tuple[str, ...], str]] = {
    "form": {(): "form", ("fields",): "fields", ("values",): "values", ("fields", "*"): "field"},
    "script": {
        (): "script",
        ("responses",): "responses",
        ("responses", "*"): "entry",
        ("responses", "*", "when"): "when",
        ("responses", "*", "chunks"): "chunks",
        ("responses", "*", "chunks", "*"): "chunk",
    },
    "rules": {(): "ruleset", ("rules",): "rules", ("rules", "*"): "rule", ("rules", "*", "params"): "params"},
    "calls": {(): "calls", ("*",): "call", ("*", "payload"): "payload", ("*", "payload", "messages", "*"): "message"},
}


def owner_of(kind: str | None, path: KeyPath) -> str | None:
    """What the node at *path* in a file of *kind* is (the owner of the keys inside it)."""
    for pattern, owner in _OWNER_PATHS.get(kind or "", {}).items():
        if len(pattern) == len(path) and all(
            want == "*" or want == part for want, part in zip(pattern, path, strict=True)
        ):
            return owner
    return None


def keys_of(owner: str, siblings: Mapping[str, Any]) -> dict[str, Key]:
    """The keys valid inside *owner*, given the keys already there (an entry's ``type``
    decides its keys, a rule's ``check`` its params)."""
    if owner == "entry":
        shared = table("entry")
        response_type = siblings.get("type")
        specific = table(f"entry.{response_type}") if response_type in RESPONSE_TYPES else {}
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

    return {
        "form": WorkForm,
        "field": FieldSpec,
        "script": ScriptHeader,
        "when": WhenMatcher,
        "chunk": StreamChunkSpec,
        "rule": Rule,
        "entry": ENTRY_MODELS["text"],  # for ``when``, which every response type takes
        **{f"entry.{response_type}": model for response_type, model in ENTRY_MODELS.items()},
    }


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
    model = _models().get(owner)
    fields = model.model_fields if model is not None else {}
    found = {name: _key(owner, name, prose, fields.get(name)) for name, prose in written.items()}
    if owner == "entry":  # the tag of every response type, which the runtime dispatches on
        kind, types = written["type"], _entry_type()
        found["type"] = Key(owner, "type", " | ".join(types), None, True, types, kind.values, kind.text, kind.notes)
    return found


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
