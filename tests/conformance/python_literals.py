"""Python test files that hand scripts and forms to lionagi, generated from the seeded corpus,
and the two ways of judging them (issue 16).

Each :class:`PyCase` is a small test module written the way a test suite writes one — pytest
classes, async tests, plain functions, module constants, local names, helpers that build an
entry, aliases of the imports, YAML written to ``tmp_path`` — around one *target* call: the
document whose verdict is compared. Values come from the corpus's form specs, scripts and
rule sets (loaded with ``yaml.safe_load``, so YAML 1.1's surprises reach Python as the values
they load to) and are rendered as Python literals in varying styles.

- ``formscript_verdict`` lints the module text with ``formscript.lint.python_lint`` (nothing
  is executed) and reads the verdict of the document on the target's line.
- ``lionagi_verdict`` is the oracle: it executes the generated module with lionagi 0.36.0 and
  calls the test, once for each value the run-time parts (a helper's result, a test
  parameter) may take; a verdict is decided when every run agrees.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import keyword
import math
import random
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .corpus import FormCase, ScriptCase

#: What a run-time part may turn out to be, per run of the oracle.
RUNTIME_VALUES: tuple[Any, ...] = (
    {"type": "text", "content": "from a helper"},
    {"type": "bogus"},
    None,
    "text",
    7,
)

#: How the target is named in the module, by API (the call as written is checked too).
SCRIPT_SHAPES = (
    "model_validate",
    "coerce",
    "constructor",
    "from_responses",
    "branch_from_responses",
    "from_script",
    "scripted_imodel",
    "imodel",
    "endpoint",
    "match_endpoint",
    "attach_script",
    "endpoint_attach",
    "fixture",
)


@dataclass(frozen=True)
class PyCase:
    """One generated test module and where its target call is."""

    name: str
    source: str
    #: 1-based line of the target call, and the call as written.
    line: int
    call: str
    #: What the runtime does with the target's result: "raises" (any exception), or "status".
    judge: str
    #: The run-time parts of the literal (their values vary per oracle run).
    runtime_parts: int = 0
    #: A file the oracle writes (texts written to a file): its name, its text, its kind.
    written: tuple[str, str, str] | None = None
    tags: frozenset[str] = field(default_factory=frozenset)


# ------------------------------------------------------------------------------- rendering


class _Writer:
    """Renders Python values as source that evaluates to exactly them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.needs_datetime = False

    def literal(self, value: Any, indent: int = 0) -> str:
        rng = self.rng
        if isinstance(value, bool) or value is None:
            return repr(value)
        if isinstance(value, int):
            return repr(value) if rng.random() < 0.9 or value < 0 else f"{value:_}"
        if isinstance(value, float):
            if math.isnan(value):
                return "(1e999 - 1e999)"
            if math.isinf(value):
                return "1e999" if value > 0 else "-1e999"
            return repr(value)
        if isinstance(value, str):
            return self.string(value)
        if isinstance(value, bytes):
            return repr(value)
        if isinstance(value, dt.date):
            self.needs_datetime = True
            return repr(value)  # datetime.date(...) / datetime.datetime(...): calls, not literals
        if isinstance(value, dict):
            return self._mapping(value, indent)
        if isinstance(value, list | tuple):
            return self._sequence(value, indent)
        if isinstance(value, set | frozenset):
            if not value:
                return "set()"
            items = sorted(self.literal(v) for v in value)
            return "{" + ", ".join(items) + "}"
        raise TypeError(f"cannot render {type(value).__name__}")

    def string(self, value: str) -> str:
        text = repr(value)
        if self.rng.random() < 0.3 and "'" not in value and "\\" not in value and "\n" not in value:
            text = '"' + text[1:-1].replace('"', '\\"') + '"' if text.startswith("'") else text
        return text

    def _mapping(self, value: dict[Any, Any], indent: int) -> str:
        if not value:
            return "{}"
        pad = " " * (indent + 4)
        items = [f"{self.literal(k)}: {self.literal(v, indent + 4)}" for k, v in value.items()]
        if self.rng.random() < 0.5 or sum(len(i) for i in items) < 60:
            return "{" + ", ".join(items) + "}"
        return "{\n" + "".join(f"{pad}{i},\n" for i in items) + " " * indent + "}"

    def _sequence(self, value: list[Any] | tuple[Any, ...], indent: int) -> str:
        opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
        if not value:
            return opening + closing
        items = [self.literal(v, indent + 4) for v in value]
        if isinstance(value, tuple) and len(items) == 1:
            items[0] += ","
        pad = " " * (indent + 4)
        if self.rng.random() < 0.5 or sum(len(i) for i in items) < 60:
            return opening + ", ".join(items) + closing
        return opening + "\n" + "".join(f"{pad}{i},\n" for i in items) + " " * indent + closing

    def keywords(self, value: dict[Any, Any], indent: int) -> str:
        """*value* as keyword arguments (a ``**`` of a literal for keys that are not names)."""
        plain = [(k, v) for k, v in value.items() if _identifier(k)]
        rest = {k: v for k, v in value.items() if not _identifier(k)}
        parts = [f"{k}={self.literal(v, indent)}" for k, v in plain]
        if rest:
            parts.append("**" + self.literal(rest, indent))
        return ", ".join(parts)


def _identifier(key: Any) -> bool:
    return isinstance(key, str) and key.isidentifier() and not keyword.iskeyword(key)


def _renderable(value: Any, depth: int = 0) -> bool:
    """Whether a loaded value can be written as Python source that gives it back exactly."""
    if depth > 40:
        return False
    if value is None or isinstance(value, bool | int | float | str | bytes | dt.date):
        return True
    if isinstance(value, dict):
        return all(_renderable(k, depth + 1) and _renderable(v, depth + 1) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(_renderable(v, depth + 1) for v in value)
    if isinstance(value, set | frozenset):
        return all(isinstance(v, str | int | float | bool) or v is None for v in value)
    return False


def _shared(value: Any, seen: set[int] | None = None) -> bool:
    """Whether containers are shared (YAML aliases): Python source would copy them."""
    seen = set() if seen is None else seen
    if isinstance(value, dict | list):
        if id(value) in seen:
            return True
        seen.add(id(value))
        items = value.values() if isinstance(value, dict) else value
        return any(_shared(v, seen) for v in items)
    return False


def _load(text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except Exception:
        return _UNLOADABLE


_UNLOADABLE = object()


# ------------------------------------------------------------------------------- modules

_ALIASES = {
    "TestBranch": ["TestBranch", "TB"],
    "ScriptModel": ["ScriptModel", "SM", "Script"],
    "scripted_imodel": ["scripted_imodel"],
    "ScriptedEndpoint": ["ScriptedEndpoint"],
}
_MODULES = {
    "TestBranch": ["lionagi.testing", "lionagi.testing._branch"],
    "ScriptModel": ["lionagi.testing", "lionagi.testing._script"],
    "scripted_imodel": ["lionagi.testing", "lionagi.testing._branch"],
    "ScriptedEndpoint": ["lionagi.testing", "lionagi.testing._endpoint"],
    "TextResponse": ["lionagi.testing", "lionagi.testing._types"],
    "FieldSpec": ["lionagi.work", "lionagi.work.form"],
    "WorkForm": ["lionagi.work", "lionagi.work.form"],
    "fill_form": ["lionagi.work", "lionagi.work.form"],
    "validate_form": ["lionagi.work", "lionagi.work.form"],
    "Rule": ["lionagi.work", "lionagi.work.rules"],
    "RuleSet": ["lionagi.work", "lionagi.work.rules"],
}
_ENTRY_MODELS = {
    "text": "TextResponse",
    "tool_call": "ToolCallResponse",
    "structured": "StructuredResponse",
    "stream": "StreamResponse",
    "error": "ErrorResponse",
}


class _Module:
    """A test module being written: imports, helpers, module constants, the test."""

    def __init__(self, rng: random.Random, writer: _Writer) -> None:
        self.rng = rng
        self.writer = writer
        self.imports: list[str] = []
        self.names: dict[str, str] = {}
        self.constants: list[str] = []
        self.helpers: list[str] = []
        self.runtime = 0
        self.module_alias: dict[str, str] = {}

    def name(self, api: str) -> str:
        """How the module refers to *api* (imported once, in a random style)."""
        if api in self.names:
            return self.names[api]
        rng = self.rng
        module = rng.choice(_MODULES.get(api, ["lionagi.testing"]))
        style = rng.random()
        if style < 0.2 and module not in self.module_alias:
            alias = "lt" if module.startswith("lionagi.testing") else "lw"
            alias += str(len(self.module_alias))
            self.module_alias[module] = alias
            self.imports.append(f"import {module} as {alias}")
        if module in self.module_alias:
            written = f"{self.module_alias[module]}.{api}"
        elif style < 0.5 and api in _ALIASES:
            alias = rng.choice(_ALIASES[api])
            if alias in self.names.values():
                alias = api
            renamed = f" as {alias}" if alias != api else ""
            self.imports.append(f"from {module} import {api}{renamed}")
            written = alias
        else:
            self.imports.append(f"from {module} import {api}")
            written = api
        self.names[api] = written
        return written

    def runtime_part(self) -> str:
        """An expression whose value exists only at run time (a helper's result)."""
        self.runtime += 1
        if not self.helpers:
            self.helpers.append("def make_part(*args, **kwargs):\n    return _RUNTIME(*args, **kwargs)\n")
        return f"make_part({self.runtime})"

    def constant(self, value_source: str) -> str:
        name = f"DATA_{len(self.constants)}"
        self.constants.append(f"{name} = {value_source}")
        return name

    def text(
        self, body: list[str], asynchronous: bool, in_class: bool, params: str = "", target: int = -1
    ) -> tuple[str, int]:
        """The module's source, and the line (1-based) the body's statement *target* starts on."""
        head = [
            "# generated by tests/conformance/python_literals.py",
            "import datetime",
            "import textwrap",
            "",
            "import pytest",
            *sorted(set(self.imports)),
            "",
        ]
        for helper in self.helpers:
            head.extend(["", helper])
        head.extend(self.constants)
        head.append("")
        prefix = "async def" if asynchronous else "def"
        indent = "    "
        lines = "\n".join(head).split("\n")
        if in_class:
            lines.append("class TestGenerated:")
            lines.append(f"    {prefix} test_target(self{', ' if params else ''}{params}):")
            indent = "        "
        else:
            lines.append(f"{prefix} test_target({params}):")
        target_line = 0
        chosen = target % len(body)
        for position, statement in enumerate(body):
            for number, piece in enumerate(statement.split("\n")):
                lines.append(indent + piece if piece else "")
                if number == 0 and position == chosen:
                    target_line = len(lines)
        lines.append(indent + "return result")
        return "\n".join(lines) + "\n", target_line


def _maybe_runtime(module: _Module, entries: list[Any]) -> list[str | None]:
    """For each entry: None (written as a literal) or a run-time expression replacing it."""
    out: list[str | None] = []
    for _ in entries:
        out.append(module.runtime_part() if module.rng.random() < 0.08 else None)
    return out


def _entry_source(module: _Module, entry: Any, indent: int) -> str:
    """An entry as a literal, or as its response model's keyword call."""
    writer = module.writer
    if (
        isinstance(entry, dict)
        and isinstance(entry.get("type"), str)
        and entry["type"] in _ENTRY_MODELS
        and all(_identifier(k) for k in entry)
        and module.rng.random() < 0.2
    ):
        model = module.name(_ENTRY_MODELS[entry["type"]])
        rest = {k: v for k, v in entry.items() if k != "type" or module.rng.random() < 0.2}
        return f"{model}({writer.keywords(rest, indent)})"
    return writer.literal(entry, indent)


def _list_source(module: _Module, entries: list[Any], indent: int) -> str:
    swaps = _maybe_runtime(module, entries)
    items = [
        _entry_source(module, entry, indent + 4) if swap is None else swap
        for entry, swap in zip(entries, swaps, strict=True)
    ]
    if not items:
        return "[]"
    if module.rng.random() < 0.5:
        return "[" + ", ".join(items) + "]"
    pad = " " * (indent + 4)
    return "[\n" + "".join(f"{pad}{i},\n" for i in items) + " " * indent + "]"


def script_case(index: int, case: ScriptCase, rng: random.Random) -> PyCase | None:
    """A test module handing the corpus script *case* to one of lionagi's script APIs."""
    value = _load(case.text)
    if value is _UNLOADABLE or not _renderable(value) or _shared(value):
        return None
    writer = _Writer(rng)
    module = _Module(rng, writer)
    shape = rng.choice(SCRIPT_SHAPES)
    is_dict = isinstance(value, dict)
    responses = value.get("responses") if is_dict else None
    only_responses = is_dict and set(value) == {"responses"} and isinstance(responses, list)
    if shape in ("from_responses", "branch_from_responses", "fixture") and not (
        is_dict and isinstance(responses, list) and (shape == "from_responses" or only_responses)
    ):
        shape = "model_validate"
    if shape in ("coerce", "from_script", "scripted_imodel", "attach_script", "endpoint_attach") and isinstance(
        value, str
    ):
        shape = "model_validate"
    if shape in ("imodel", "endpoint", "match_endpoint") and isinstance(value, str) and value:
        shape = "model_validate"
    if shape == "constructor" and not is_dict:
        shape = "model_validate"

    def script_source(indent: int) -> str:
        if is_dict and isinstance(responses, list):
            rest = {k: v for k, v in value.items() if k != "responses"}
            listed = _list_source(module, responses, indent + 4)
            pairs = [f'"responses": {listed}'] + [
                f"{writer.literal(k)}: {writer.literal(v, indent + 4)}" for k, v in rest.items()
            ]
            rng.shuffle(pairs)
            return "{" + ", ".join(pairs) + "}"
        return writer.literal(value, indent)

    through = rng.random()
    body: list[str] = []
    params = ""

    def placed(source: str) -> str:
        """The literal at the call, through a local name, or through a module constant."""
        if through < 0.25:
            return module.constant(source)
        if through < 0.5:
            body.append(f"given = {source}")
            return "given"
        return source

    judge = "raises"
    if shape == "model_validate":
        call = f"{module.name('ScriptModel')}.model_validate"
        target = f"{call}({placed(script_source(4))})"
    elif shape == "coerce":
        call = f"{module.name('ScriptModel')}.coerce"
        target = f"{call}({placed(script_source(4))})"
    elif shape == "constructor":
        call = module.name("ScriptModel")
        rest = {k: v for k, v in value.items() if k != "responses"}
        arguments = writer.keywords(rest, 4)
        if "responses" in value:
            listed = (
                _list_source(module, value["responses"], 4)
                if isinstance(value["responses"], list)
                else writer.literal(value["responses"])
            )
            arguments = (arguments + ", " if arguments else "") + f"responses={listed}"
        target = f"{call}({arguments})"
    elif shape in ("from_responses", "branch_from_responses", "fixture"):
        assert is_dict and isinstance(responses, list)
        listed = placed(_list_source(module, responses, 4))
        if shape == "from_responses":
            call = f"{module.name('ScriptModel')}.from_responses"
            rest = {k: v for k, v in value.items() if k != "responses"}
            extra = writer.keywords(rest, 4)
            target = f"{call}({listed}{', ' + extra if extra else ''})"
        elif shape == "branch_from_responses":
            call = f"{module.name('TestBranch')}.from_responses"
            target = f"{call}({listed}, name='generated')"
        else:
            module.name("TestBranch")
            call = "scripted_branch_factory"
            params = "scripted_branch_factory"
            target = f"{call}({listed})"
    elif shape in ("from_script", "scripted_imodel"):
        call = f"{module.name('TestBranch')}.from_script" if shape == "from_script" else module.name("scripted_imodel")
        target = f"{call}({placed(script_source(4))})"
    elif shape == "imodel":
        module.imports.append("from lionagi import iModel")
        call = "iModel"
        target = f'iModel(provider="scripted", model="scripted-test", script={placed(script_source(4))})'
    elif shape == "endpoint":
        call = module.name("ScriptedEndpoint")
        target = f"{call}(script={placed(script_source(4))})"
    elif shape == "match_endpoint":
        module.imports.append("from lionagi.service.connections import match_endpoint")
        call = "match_endpoint"
        target = f'match_endpoint("scripted", "chat", script={placed(script_source(4))})'
    elif shape == "attach_script":
        branch = module.name("TestBranch")
        body.append(f'branch = {branch}.from_text("before")')
        call = f"{branch}.attach_script"
        target = f"{call}(branch, {placed(script_source(4))})"
    else:
        branch = module.name("TestBranch")
        body.append(f'branch = {branch}.from_text("before")')
        call = f"{branch}.scripted(branch).attach_script"
        target = f"{call}({placed(script_source(4))})"
    body.append(f"result = {target}")
    source, line = module.text(body, asynchronous=rng.random() < 0.4, in_class=rng.random() < 0.5, params=params)
    return PyCase(f"script-{index:05d}", source, line, call, judge, module.runtime, tags=frozenset({shape}))


def text_case(index: int, rng: random.Random) -> PyCase:
    """A ``TestBranch.from_text`` call: a string, strings, an f-string, or something else."""
    writer = _Writer(rng)
    module = _Module(rng, writer)
    branch = module.name("TestBranch")
    choice = rng.random()
    params = ""
    if choice < 0.35:
        given = writer.string(rng.choice(["hello back", "ünïcode ✓", "", "```lndl\n<lvar a>hi</lvar>\n```"]))
    elif choice < 0.65:
        items = [rng.choice(["one", "two", 3, None, "δ", ["x"]]) for _ in range(rng.randint(0, 4))]
        given = writer.literal(items)
    elif choice < 0.8:
        params = "answer"
        given = 'f"the answer is {answer}"'
    else:
        given = writer.literal(rng.choice([5, None, 2.5, ("a", "b"), {"k": 1}, b"bytes"]))
    body = [f"result = {branch}.from_text({given})"]
    source, line = module.text(body, asynchronous=rng.random() < 0.5, in_class=rng.random() < 0.5, params=params)
    return PyCase(f"text-{index:05d}", source, line, f"{branch}.from_text", "raises", 1 if params else 0)


def form_case(index: int, case: FormCase, rng: random.Random) -> PyCase | None:
    """A test module building a form from the corpus spec *case* with lionagi.work's API."""
    spec = _load(case.text)
    if not isinstance(spec, dict) or not _renderable(spec) or _shared(spec):
        return None
    fields = spec.get("fields")
    if not isinstance(fields, dict) or not fields:
        return None
    declarations = [(k, d) for k, d in fields.items() if isinstance(d, dict) and all(isinstance(s, str) for s in d)]
    if not declarations:
        return None
    writer = _Writer(rng)
    module = _Module(rng, writer)
    values = spec.get("values")
    shape = rng.choice(["fieldspec", "fill", "fill", "validate", "workform"])
    body: list[str] = []
    field_spec = module.name("FieldSpec")
    if shape == "fieldspec":
        key, declaration = rng.choice(declarations)
        call = field_spec
        rest = {k: v for k, v in declaration.items() if k != "name"}
        arguments = writer.keywords({"name": key, **rest}, 4)
        if "name" in declaration:  # given twice: through a ** it is valid Python that raises
            arguments += f", **{{'name': {writer.literal(declaration['name'])}}}"
        body.append(f"result = {call}({arguments})")
        judge = "raises"
    else:
        work_form = module.name("WorkForm")
        members = []
        for key, declaration in declarations:
            if "name" in declaration or rng.random() < 0.3:
                member = writer.literal({"name": key, **{k: v for k, v in declaration.items() if k != "name"}}, 8)
            else:
                member = f"{field_spec}({writer.keywords({'name': key, **declaration}, 8)})"
            members.append(f"{writer.literal(key)}: {member}")
        fields_source = "{" + ", ".join(members) + "}"
        title = spec.get("title", "generated")
        form_arguments = f"title={writer.literal(title)}, fields={fields_source}"
        given_values = values if isinstance(values, dict) else {}
        if shape in ("validate", "workform"):
            form_arguments += f", values={writer.literal(given_values, 4)}"
        body.append(f"form = {work_form}({form_arguments})")
        if shape == "workform":
            call = work_form
            body[-1] = body[-1].replace("form = ", "result = ", 1)
            judge = "raises"
        elif shape == "fill":
            call = module.name("fill_form")
            literal = writer.literal(given_values, 4)
            if rng.random() < 0.1 and given_values:
                members = [f"{writer.literal(k)}: {writer.literal(v)}" for k, v in given_values.items()]
                literal = "{" + ", ".join([*members, "**" + module.runtime_part()]) + "}"
            body.append(f"result = {call}(form, {literal})")
            judge = "status"
        else:
            call = module.name("validate_form")
            body.append(f"result = {call}(form)")
            judge = "status"
    source, line = module.text(body, asynchronous=rng.random() < 0.3, in_class=rng.random() < 0.5)
    return PyCase(f"form-{index:05d}", source, line, call, judge, module.runtime, tags=frozenset({shape}))


def rule_case(index: int, rules: tuple[dict[str, Any], ...], rng: random.Random) -> PyCase:
    """``Rule(...)`` for one seeded rule, or a ``RuleSet().add(...)`` chain of them."""
    writer = _Writer(rng)
    module = _Module(rng, writer)
    rule = module.name("Rule")

    def call_source(raw: dict[str, Any]) -> str:
        params = dict(raw["params"])
        callable_name = params.pop("callable", None)
        source = {**raw, "params": params}
        text = writer.keywords({k: v for k, v in source.items() if k != "params"}, 4)
        members = [f"{writer.literal(k)}: {writer.literal(v)}" for k, v in params.items()]
        if callable_name is not None:
            members.append(f'"callable": check_{callable_name}')
            if f"def check_{callable_name}(" not in "".join(module.helpers):
                module.helpers.append(f"def check_{callable_name}(value):\n    return bool(value)\n")
        params_source = "{" + ", ".join(members) + "}"
        return f"{rule}({text}, params={params_source})"

    if rng.random() < 0.6:
        body = [f"result = {call_source(rules[0])}"]
        call = rule
    else:
        chain = f"{module.name('RuleSet')}()" + "".join(f".add({call_source(r)})" for r in rules)
        body = [f"result = {chain}"]
        call = "RuleSet().add"
    source, line = module.text(body, asynchronous=False, in_class=rng.random() < 0.5)
    return PyCase(f"rule-{index:05d}", source, line, call, "raises")


def written_case(index: int, case: FormCase | ScriptCase, rng: random.Random) -> PyCase | None:
    """The corpus file *case*'s text written to ``tmp_path`` by a test (a literal in the file)."""
    text = case.text
    if "\x00" in text or "\r" in text or any(ord(c) < 32 and c not in "\n\t" for c in text):
        return None
    writer = _Writer(rng)
    module = _Module(rng, writer)
    module.name("ScriptModel" if isinstance(case, ScriptCase) else "WorkForm")
    name = Path(case.filename).name
    style = rng.random()
    if style < 0.4 and '"""' not in text and "\\" not in text and not text.endswith('"'):
        indented = textwrap.indent(text, "    ")
        literal = 'textwrap.dedent("""\\\n' + indented + '""")' if text.strip() else repr(text)
        if textwrap.dedent(indented) != text:
            literal = repr(text)
    elif style < 0.7 and '"""' not in text and "\\" not in text and not text.endswith('"'):
        literal = module.constant('"""' + text + '"""')  # at the module's top: not indented
    else:
        literal = repr(text)
    body = [f'path = tmp_path / "{name}"', f"path.write_text({literal})", "result = path"]
    source, line = module.text(body, asynchronous=False, in_class=rng.random() < 0.5, params="tmp_path", target=1)
    return PyCase(
        f"written-{index:05d}",
        source,
        line,
        "path.write_text",
        "file",
        written=(name, text, "script" if isinstance(case, ScriptCase) else "form"),
    )


def dumped_case(index: int, case: ScriptCase, rng: random.Random) -> PyCase | None:
    """A corpus script's value written by the test as JSON text (``json.dumps`` or ``json.dump``)."""
    import json as json_module

    value = _load(case.text)
    if value is _UNLOADABLE or not _renderable(value) or _shared(value):
        return None
    try:
        json_module.dumps(value)
    except (TypeError, ValueError):
        return None
    writer = _Writer(rng)
    module = _Module(rng, writer)
    module.name("ScriptModel")
    module.imports.append("import json")
    name = f"script-{index:05d}.{rng.choice(['json', 'json', 'yaml'])}"
    literal = writer.literal(value, 4)
    if rng.random() < 0.5:
        body = [f'path = tmp_path / "{name}"', f"path.write_text(json.dumps({literal}))", "result = path"]
        target = 1
    else:
        body = [
            f'path = tmp_path / "{name}"',
            'with open(path, "w") as handle:\n'
            f"    json.dump({literal}, handle{', indent=2' if rng.random() < 0.5 else ''})",
            "result = path",
        ]
        target = 1
    source, line = module.text(body, asynchronous=False, in_class=rng.random() < 0.5, params="tmp_path", target=target)
    if "json.dump(" in source:
        line += 1
    return PyCase(f"dumped-{index:05d}", source, line, "path.write_text", "file", written=(name, "", "script"))


def generate(
    scripts: list[ScriptCase], forms: list[FormCase], rules: list[tuple[dict[str, Any], ...]], seed: int, share: int
) -> list[PyCase]:
    """Every generated case (every *share*-th corpus case of each kind, plus from_text cases)."""
    rng = random.Random(f"python-literals:{seed}")
    cases: list[PyCase] = []
    for index, script in enumerate(scripts[::share]):
        built = script_case(index, script, rng)
        if built is not None:
            cases.append(built)
    for index, form in enumerate(forms[::share]):
        built = form_case(index, form, rng)
        if built is not None:
            cases.append(built)
    for index, rule_set in enumerate(rules[:: share * 2]):
        cases.append(rule_case(index, rule_set, rng))
    for index in range(max(20, len(scripts[::share]) // 8)):
        cases.append(text_case(index, rng))
    written = [*scripts[1 :: share * 4], *forms[1 :: share * 4]]
    for index, file_case in enumerate(written):
        built = written_case(index, file_case, rng)
        if built is not None:
            cases.append(built)
    for index, script in enumerate(scripts[2 :: share * 2]):
        dumped = dumped_case(index, script, rng)
        if dumped is not None:
            cases.append(dumped)
    return cases


# -------------------------------------------------------------------------------- judging


def formscript_verdict(case: PyCase, path: str) -> str | None:
    """formscript's verdict on the target (None: no document reported on its line)."""
    from formscript.lint.python_lint import lint_python

    bundle = lint_python(case.source, path)
    for part in bundle.parts or []:
        if part.embedded is None or part.verdict is None:
            continue
        if case.judge == "file":
            assert case.written is not None
            on_line = part.embedded.span.start.line + 1 <= case.line <= part.embedded.span.end.line + 1
            if (on_line or _call_line(part) == case.line) and part.kind == case.written[2]:
                return part.verdict.value  # (content read as another kind: not this document)
            continue
        if part.embedded.call == case.call and _call_line(part) == case.line:
            return part.verdict.value
    return None


def _call_line(part: Any) -> int:
    """The 1-based line the part's call starts on."""
    return int(part.embedded.call_span.start.line) + 1


def lionagi_verdict(case: PyCase, workdir: Path, engine: Any) -> set[str]:
    """lionagi's verdicts on the target over the run-time values (one value: decided)."""
    if case.judge == "file":
        assert case.written is not None
        name, text, kind = case.written
        target = workdir / name
        if text:
            target.write_text(text, encoding="utf-8")
        else:  # the test itself writes it (json.dumps of a literal)
            _run_once(case, None, workdir)
        if kind == "form":
            return {engine.form_outcome(str(target)).verdict}
        return {engine.script_outcome(str(target), ()).verdict}
    runs = RUNTIME_VALUES if case.runtime_parts else RUNTIME_VALUES[:1]
    verdicts: set[str] = set()
    for runtime in runs:
        verdicts.add(_run_once(case, runtime, workdir))
    return verdicts


def _run_once(case: PyCase, runtime: Any, workdir: Path) -> str:
    from lionagi.testing import TestBranch

    def make(*args: Any, **kwargs: Any) -> Any:
        return runtime

    namespace: dict[str, Any] = {"__name__": f"generated_{case.name.replace('-', '_')}", "_RUNTIME": make}
    code = compile(case.source, f"<{case.name}>", "exec")
    try:
        exec(code, namespace)  # a module constant may already hold the target's literal
    except Exception:
        return "rejected"
    holder = namespace.get("TestGenerated")
    test: Callable[..., Any] = holder().test_target if holder is not None else namespace["test_target"]
    arguments: dict[str, Any] = {}
    import inspect

    for parameter in inspect.signature(test).parameters:
        if parameter == "tmp_path":
            arguments[parameter] = workdir
        elif parameter == "scripted_branch_factory":
            arguments[parameter] = lambda responses, **kw: TestBranch.from_responses(responses, **kw)
        else:
            arguments[parameter] = runtime
    try:
        result = test(**arguments)
        if inspect.iscoroutine(result):
            result = asyncio.run(result)
    except Exception:
        return "rejected"
    if case.judge == "status":
        return "rejected" if getattr(result, "status", None) == "error" else "accepted"
    return "accepted"
