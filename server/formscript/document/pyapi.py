"""lionagi 0.36.0's scripted-testing and work-form API as ``document.pyextract`` looks for it:
the words a file must hold to be read, the modules that export each name, the calls that read a
script's or a form spec's file, how each API binds its arguments, and what a found call becomes
(:class:`Embedded`)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from formscript.core.verdict import KeyPath, Problem
from formscript.document.model import Span
from formscript.document.pyliteral import PyNode
from formscript.document.pystrings import TextPositions

#: The byte string a file must contain to be read at all.
MENTION = "lionagi"

#: Words one of which a file must contain for any call to be found (cheap to test): every
#: call names its API (an alias is imported under the real name), and a text written to a file
#: is written by one of the writers.
API_WORDS = (
    "TestBranch",
    "ScriptModel",
    "scripted_imodel",
    "ScriptedEndpoint",
    "attach_script",
    "TextResponse",
    "ToolCallResponse",
    "StructuredResponse",
    "StreamResponse",
    "ErrorResponse",
    "WhenMatcher",
    "StreamChunkSpec",
    "FieldSpec",
    "WorkForm",
    "fill_form",
    "validate_form",
    "Rule",
    "scripted_branch_factory",
    "scripted_endpoint_for",
    "write_text",
    ".write(",
    "json.dump(",
    "import dump",
)
#: Words that name an API only when the file also says ``scripted`` (the provider).
SCRIPTED_WORDS = ("iModel", "match_endpoint")

ENTRY_MODELS: dict[str, str] = {
    "TextResponse": "text",
    "ToolCallResponse": "tool_call",
    "StructuredResponse": "structured",
    "StreamResponse": "stream",
    "ErrorResponse": "error",
}
#: The models of a script's parts, each a document of its own only when no other document
#: reads it.
STANDALONE = (*ENTRY_MODELS, "WhenMatcher", "StreamChunkSpec")

#: lionagi's public names, by the modules that export or define them.
EXPORTS: dict[str, tuple[str, ...]] = {
    "lionagi.testing": (
        "TestBranch",
        "scripted_imodel",
        "ScriptModel",
        "ScriptedEndpoint",
        *STANDALONE,
    ),
    "lionagi.testing._branch": ("TestBranch", "scripted_imodel"),
    "lionagi.testing._script": ("ScriptModel",),
    "lionagi.testing._endpoint": ("ScriptedEndpoint",),
    "lionagi.testing._types": STANDALONE,
    "lionagi.work": ("FieldSpec", "WorkForm", "fill_form", "validate_form", "Rule", "RuleSet"),
    "lionagi.work.form": ("FieldSpec", "WorkForm", "fill_form", "validate_form"),
    "lionagi.work.rules": ("Rule", "RuleSet"),
    "lionagi": ("iModel",),
    "lionagi.service": ("iModel",),
    "lionagi.service.imodel": ("iModel",),
    "lionagi.service.connections": ("match_endpoint",),
    "lionagi.service.connections.match_endpoint": ("match_endpoint",),
    "textwrap": ("dedent",),
    "json": ("dumps", "dump"),
}
#: qualified name -> the API object it is.
TARGETS: dict[str, str] = {f"{module}.{name}": name for module, names in EXPORTS.items() for name in names}
#: The lionagi test plugin's fixtures that take a list of response dicts.
FIXTURES = ("scripted_branch_factory", "scripted_endpoint_for")
#: Methods that change a list or dict in place: a name they are called on is not a literal.
MUTATORS = frozenset(
    {"append", "extend", "insert", "update", "setdefault", "pop", "popitem", "clear", "remove", "sort", "reverse"}
    | {"add", "discard", "__setitem__", "__delitem__"}
)
#: Entry models and the other models whose keyword calls are read as mappings inside a literal.
MODELS = (*STANDALONE, "FieldSpec", "Rule")


#: The environment variable the scripted endpoint reads a script's path from
#: (``lionagi.testing.ENV_SCRIPT_PATH``): the file is then read as ``ScriptModel.coerce`` reads a path.
SCRIPT_PATH_VARIABLE = "LIONAGI_TEST_SCRIPT"
SCRIPT_PATH_VARIABLES = frozenset(f"lionagi.testing{module}.ENV_SCRIPT_PATH" for module in ("", "._endpoint", "._env"))
#: ``scripted_env(path)`` and ``subprocess_env(path)`` put the path in that variable.
ENV_HELPERS = frozenset(
    f"lionagi.testing{module}.{name}" for module in ("", "._env") for name in ("scripted_env", "subprocess_env")
)
AGENT_CLI = "lionagi.cli.agent"
#: How a call hands a written file to lionagi: (kind, syntax or None, whether the call reads
#: it: a consumer; False where it only sets the environment the script is read from later).
ReadBy = tuple[str, str | None, bool]
#: ``li``'s entry points that hand ``agent ... --form SPEC`` to run_agent.
MAIN_ENTRIES = ("lionagi.cli.main.main", "lionagi.cli.main")
#: API -> (position, keyword, syntax) of the argument read as a script file's path; syntax
#: None where the file's suffix decides (``ScriptModel.coerce``).
SCRIPT_READERS: dict[tuple[str, str | None], tuple[int | None, str, str | None]] = {
    ("ScriptModel", "from_yaml"): (0, "path", "yaml"),
    ("ScriptModel", "from_json"): (0, "path", "json"),
    ("TestBranch", "from_yaml"): (0, "path", "yaml"),
    ("TestBranch", "from_json"): (0, "path", "json"),
    ("ScriptModel", "coerce"): (0, "source", None),
    ("TestBranch", "from_script"): (0, "script", None),
    ("TestBranch", "attach_script"): (1, "script", None),
    ("scripted_imodel", None): (0, "script", None),
    ("ScriptedEndpoint", None): (None, "script", None),
    ("iModel", None): (None, "script", None),
    ("match_endpoint", None): (None, "script", None),
}


def mentions_api(text: str) -> bool:
    """Whether *text* can hold a call of the API at all (every call names one of its words)."""
    if MENTION not in text:
        return False
    if any(word in text for word in API_WORDS):
        return True
    return "scripted" in text and any(word in text for word in SCRIPTED_WORDS)


@dataclass(eq=False)
class Embedded:
    """One script or form a Python file hands to lionagi.

    ``semantic`` says how the runtime reads it: ``script`` (a script mapping), ``entry`` (one
    model of a script, checked at ``scope``), ``fieldspec``, ``workform``, ``fill_form``,
    ``validate_form``, ``rule``, ``ruleset``, or ``text`` (a YAML/JSON text written to a file,
    in ``text`` with ``target`` its file name when known). ``root`` is the document for the
    others; ``problems`` what the call itself gets wrong (located); ``decisive`` the parts
    not literal that decide the outcome whatever else holds (a ruleset built at run time).
    ``children`` are the documents of calls written inside this one, by their path here.
    """

    api: str
    call: str
    semantic: str
    kind: str | None
    range: Span
    call_span: Span
    node: ast.Call
    root: PyNode | None = None
    scope: KeyPath = ()
    problems: list[Problem] = field(default_factory=list)
    decisive: list[PyNode] = field(default_factory=list)
    children: list[tuple[KeyPath, Embedded]] = field(default_factory=list)
    text: TextPositions | None = None
    target: str | None = None
    #: The document this one is filled from (fill_form / validate_form: the WorkForm's).
    source: Embedded | None = None
    #: ``json.dumps``'s keyword arguments, for a value written as JSON text.
    options: dict[Any, Any] = field(default_factory=dict)
    #: For a text written to a file: the calls where lionagi reads that file, found by
    #: following the path it is written to (``ScriptModel.from_yaml(p)``, ``run_agent(args)``,
    #: ``main([...])``, ``_load_form_spec(str(p))``, or the call of one of the module's own
    #: helpers that does one of these with its parameter). Empty where the path only reaches
    #: lionagi through the environment (``LIONAGI_TEST_SCRIPT``): the reading call is not
    #: known then, though ``kind`` is.
    consumers: list[ast.Call] = field(default_factory=list)
    #: The syntax the consumer reads the written file as (``yaml`` for ``from_yaml``, ``json``
    #: for ``from_json``); None when the file's suffix decides (``coerce``, the environment,
    #: a form spec, which is read as YAML); ``mapping`` for a form spec only loaded
    #: (``_load_form_spec``: YAML, else JSON, and a mapping; the form is not built).
    reads_as: str | None = None


@dataclass(frozen=True)
class Written:
    """A value written as a container where lionagi wants text (a field name), standing as
    its source: hashable, and shown as written."""

    source: str

    def __repr__(self) -> str:
        return self.source


@dataclass(frozen=True)
class Signature:
    """How an API of lionagi 0.36.0 binds its arguments (``inspect.signature``, as written)."""

    positional: tuple[str, ...]
    required: int
    keyword_only: tuple[str, ...] = ()
    #: Whether it takes ``**kwargs`` (then *taken* are the names the kwargs may not repeat:
    #: keywords it passes on itself, and *accepted* those the receiver takes).
    var_keyword: bool = False
    #: For ``**kwargs`` passed on to a receiver that takes only some names (a ``Branch``).
    accepted: tuple[str, ...] | None = None
    taken: tuple[str, ...] = ()

    def refuses(self, positional: int, keywords: list[str]) -> str | None:
        """Why binding *positional* arguments and *keywords* raises TypeError, or None."""
        if positional > len(self.positional):
            return f"it takes {len(self.positional)} positional argument(s), {positional} are given"
        bound = set(self.positional[:positional])
        for keyword in keywords:
            if keyword in bound:
                return f"{keyword!r} is given twice (by position and by name)"
            bound.add(keyword)
            if keyword in self.positional or keyword in self.keyword_only:
                continue
            if not self.var_keyword:
                return f"it takes no argument {keyword!r}"
            if keyword in self.taken:
                return f"it passes {keyword!r} on itself, so giving it too raises"
            if self.accepted is not None and keyword not in self.accepted:
                return f"{keyword!r} is not one of its arguments, nor one of Branch(...), which gets the others"
        missing = [p for p in self.positional[: self.required] if p not in bound]
        if missing:
            return f"its required argument {missing[0]!r} is not given"
        return None


#: What ``Branch(...)`` takes (its own arguments and its model's fields): what
#: ``TestBranch.from_script``'s ``**branch_kwargs`` may name; it sets ``chat_model`` and
#: ``parse_model`` itself.
_BRANCH_ARGUMENTS = (
    "user",
    "name",
    "messages",
    "system",
    "system_sender",
    "tools",
    "log_config",
    "system_datetime",
    "system_template",
    "system_template_context",
    "logs",
    "use_lion_system_message",
    "memory",
    "id",
    "created_at",
    "metadata",
)
_FROM_SCRIPT = ("model", "name", "user", "tools", "system")
#: What ``from_responses`` / ``from_text``'s ``**kwargs`` may name: they pass them on to
#: ``from_script``.
_PASSED_ON = (*_FROM_SCRIPT, *_BRANCH_ARGUMENTS)
_BRANCH_MODELS = ("chat_model", "parse_model")
#: The signatures whose binding is checked (the others take keywords a model validates).
SIGNATURES: dict[tuple[str, str | None], Signature] = {
    ("TestBranch", "from_script"): Signature(("script",), 1, _FROM_SCRIPT, True, _BRANCH_ARGUMENTS, _BRANCH_MODELS),
    ("TestBranch", "from_responses"): Signature(("responses",), 1, (), True, _PASSED_ON, ("script", *_BRANCH_MODELS)),
    ("TestBranch", "from_text"): Signature(
        ("text",), 1, (), True, _PASSED_ON, ("responses", "script", *_BRANCH_MODELS)
    ),
    ("TestBranch", "attach_script"): Signature(("branch", "script"), 2),
    ("scripted_imodel", None): Signature(("script",), 1, ("model",), True, None, ("provider", "endpoint", "script")),
    ("ScriptModel", "from_responses"): Signature(("responses",), 1, (), True, None, ()),
    ("ScriptModel", "coerce"): Signature(("source",), 1),
    ("ScriptModel", "model_validate"): Signature(
        ("obj",), 1, ("strict", "extra", "from_attributes", "context", "by_alias", "by_name")
    ),
    ("fill_form", None): Signature(("form", "values"), 2, ("ruleset",)),
    ("validate_form", None): Signature(("form",), 1, ("ruleset",)),
}
