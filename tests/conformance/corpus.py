"""A seeded, edge-heavy corpus of work-form specs and response scripts (seed 004).

Every case is text written by hand-rolled renderers, not by a YAML dumper, so the raw
YAML 1.1 scalars (``yes``, ``0x1F``, ``12:30`` ...), duplicate keys, tags, anchors and
JSON-only syntax reach the loaders exactly as a person might type them. The same seed
always yields the same texts, transcripts and file names.

Nodes are small tuples so the generator stays cheap:

* ``("s", text)``   a scalar, already spelled for the target syntax
* ``("m", items)``  a mapping; *items* is a list of ``(key_text, node)`` (duplicates allowed)
* ``("l", items)``  a sequence of nodes
* ``("b", lines)``  a YAML literal block scalar (``|``), block style only
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engines import RESET

DEFAULT_SEED = 20260709
FORM_CASES = 5200
SCRIPT_CASES = 5200

Node = tuple[str, Any]


@dataclass(frozen=True)
class FormCase:
    """One form spec: the file name it is written under and its text."""

    name: str
    filename: str
    text: str
    tags: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class ScriptCase:
    """One script file plus the payloads of the calls made against it, in order."""

    name: str
    filename: str
    text: str
    transcript: tuple[dict[str, Any] | str, ...]
    tags: frozenset[str] = field(default_factory=frozenset)


# ----------------------------------------------------------------------------- scalar pools

#: YAML scalar spellings by kind. Several resolve to a type other than the one they look like.
YAML_SCALARS: dict[str, list[str]] = {
    "int": [
        "7",
        "-3",
        "0",
        "42",
        "0x1F",
        "-0x1F",
        "0x_1F",
        "017",
        "0o17",
        "0b101",
        "1_000",
        "12:30",
        "190:20:30",
        "+5",
        "-0",
        "99999999999999999999",
        "!!int '7'",
        "!!int 0x1F",
    ],
    "float": [
        "1.5",
        "1e3",
        "1.0e+3",
        "1.0e3",
        "1.0E+3",
        "-.5",
        ".5",
        "3.",
        ".inf",
        "-.Inf",
        ".NaN",
        "685.230_15e+03",
        "1_000.5",
        "1:30.5",
        "!!float 3",
        "!!float '1_0'",
        "2.0",
        "-0.0",
    ],
    "bool": [
        "true",
        "false",
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "Y",
        "N",
        "True",
        "NO",
        "On",
        "OFF",
        "!!bool 'yes'",
        "!!bool 'off'",
    ],
    "null": ["~", "null", "Null", "NULL", "", "!!null ''"],
    "strnum": [
        '" 7 "',
        '"7"',
        '"1_000"',
        '"nan"',
        '"inf"',
        '"-inf"',
        '"1e3"',
        '"0x1F"',
        '"\\u0661\\u0662"',
        '"3.14"',
        '"  -2.5\\t"',
        '"+4"',
        '"Infinity"',
        "'12'",
        '"1__0"',
        '"_1"',
        '"7.0"',
        '"1 000"',
        '"NaN"',
        '"-0"',
        '"12:30"',
        "!!str 5",
        "'  8'",
        '"1.5e-3"',
        '"0b101"',
        '""',
    ],
    "strbool": [
        '"yes"',
        '"TRUE"',
        '"No"',
        '"1"',
        '"0"',
        '"on"',
        '"y"',
        '"\\u0130"',
        '"\\u00df"',
        '"True "',
        "'FALSE'",
        '"yEs"',
        "!!str yes",
        "!!str off",
        '"t"',
        '"nO"',
    ],
    "str": [
        "hello",
        "'single quoted'",
        '"double\\n"',
        "İstanbul",
        "straße",
        "naïve",
        "ǅungla",
        "'#not a comment'",
        "multi word text",
        '"tab\\there"',
        "Σίσυφος",
        "'it''s'",
        '"trailing "',
        "a:b",
        "'x: y'",
        '"\\u0130I"',
        "'-'",
        "'[not, a, list]'",
        "K-Kelvin",
        "ﬁle",
        '"emoji \\U0001F600"',
        "'@at'",
        "'%pct'",
    ],
    "date": [
        "2024-01-01",
        "2001-12-14t21:59:43.10-05:00",
        "2001-12-14 21:59:43.10 -5",
        "1999-12-31T23:59:59Z",
        "2024-1-1",
        "'2024-01-01'",
        "2024-02-29",
        "!!timestamp 2024-01-01",
        "2024-13-01",
    ],
    "list": ["[1, 2]", "[]", "[a, yes, 0x1F]", "[[1], {a: b}]", "!!omap [x: 1, y: 2]", "!!pairs [a: 1]", "[~]"],
    "dict": ["{a: 1}", "{}", "{1: x}", "{yes: no}", "{a: {b: [1]}}", "!!set {x, y}", "{<<: {a: 1}, b: 2}", "{'': v}"],
    "odd": [
        "!!binary aGVsbG8=",
        "!!python/name:os.system",
        "*undefined_alias",
        "!!str",
        "&anchor 5",
        "'unterminated",
        "- inline dash",
        "@reserved",
        "`tick",
        "{a: 1",
        "[1, 2",
        ": lone colon",
    ],
}

#: JSON scalar spellings by kind (json.loads accepts NaN and Infinity).
JSON_SCALARS: dict[str, list[str]] = {
    "int": ["7", "-3", "0", "42", "99999999999999999999", "1E2", "-0"],
    "float": ["1.5", "1e3", "1.0e3", "1.0E+3", "-0.0", "NaN", "Infinity", "-Infinity", "2.0", "1e400"],
    "bool": ["true", "false"],
    "null": ["null"],
    "strnum": [
        '" 7 "',
        '"7"',
        '"1_000"',
        '"nan"',
        '"inf"',
        '"-inf"',
        '"1e3"',
        '"0x1F"',
        '"\\u0661\\u0662"',
        '"  -2.5\\t"',
        '"+4"',
        '"Infinity"',
        '"7.0"',
        '"NaN"',
        '""',
    ],
    "strbool": ['"yes"', '"TRUE"', '"No"', '"1"', '"0"', '"on"', '"\\u0130"', '"\\u00df"', '"True "', '"yEs"'],
    "str": [
        '"hello"',
        '"\\u0130stanbul"',
        '"stra\\u00dfe"',
        '"x\\/y"',
        '"\\ud83d\\ude00"',
        '"tab\\tin"',
        '"line\\nbreak"',
        '"del\u007fchar"',
        '"yes"',
        '"2024-01-01"',
        '"12:30"',
        '"0x1F"',
    ],
    "date": ['"2024-01-01"', '"1999-12-31T23:59:59Z"'],
    "list": ["[1, 2]", "[]", '["a", true, null]', '[[1], {"a": 2}]'],
    "dict": ['{"a": 1}', "{}", '{"a": {"b": [1]}}', '{"a": 1, "a": 2}'],
    "odd": ["01", "+1", "'single'", "undefined", "[1,]", '{"a" 1}', ".5", "0x10"],
}

KINDS = list(YAML_SCALARS)

# Field names: identifiers, near-identifiers and non-strings (as YAML key text).
GOOD_NAMES = [
    "age",
    "name_1",
    "_x",
    "A9",
    "title",
    "count",
    "ratio",
    "flag",
    "tags",
    "meta",
    "email",
    "score",
    "enabled",
    "limit",
    "x",
    "values",
    "fields",
    "type",
    "id",
]
BAD_NAMES = [
    "1abc",
    "has-dash",
    "'with space'",
    "é",
    "ß",
    "İ",
    "''",
    "'a.b'",
    "'tab\\t'",
    '"trail\\n"',
    "'$dollar'",
    "'ǅ'",
    "'x y'",
]
NONSTR_NAMES = ["1", "true", "null", "1.5", "2024-01-01", "0x1F", "~", "yes", "[a]"]
TYPE_WORDS_OK = ["str", "int", "float", "bool", "list", "dict"]
TYPE_WORDS_BAD = [
    "string",
    "integer",
    "Int",
    "' int'",
    "number",
    "boolean",
    "'list[str]'",
    "~",
    "5",
    "[int]",
    "{}",
    "STR",
    "'str '",
    "Float",
    "array",
    "object",
    "yes",
]
REQUIRED_OK = [
    "true",
    "false",
    "yes",
    "no",
    "on",
    "off",
    "y",
    "n",
    '"yes"',
    "1",
    "0",
    '"true"',
    "1.0",
    '"off"',
    '"T"',
    "True",
    "NO",
]
REQUIRED_BAD = ["2", "~", '"maybe"', "0.5", "[]", '" true"', "'1.0'"]
DESCRIPTION_OK = ["A field", "''", "'multi\\nline'", '"Ü"', "!!str 5", "plain words here"]
DESCRIPTION_BAD = ["5", "~", "true", "[a]", "{a: 1}", "1.5", "2024-01-01"]
DECL_TYPOS = [
    "requried",
    "defualt",
    "desc",
    "Type",
    "optional",
    "value",
    "help",
    "enum",
    "lion_class",
    "required ",
    "model_config",
    "__class__",
]
TOP_TYPOS = ["Title", "field", "value", "description", "rules", "1", "'fields '", "name", "form", "status"]
UUIDS = [
    "123e4567-e89b-12d3-a456-426614174000",
    "123e4567e89b12d3a456426614174000",
    "{123e4567-e89b-12d3-a456-426614174000}",
    "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
    "not-a-uuid",
    "5",
    "~",
    "''",
    "123E4567-E89B-12D3-A456-426614174000",
]
CREATED_AT = [
    "1.5",
    "0",
    "'2024-01-01'",
    "'2024-01-01 10:00:00'",
    "2024-01-01",
    "2024-01-01T10:00:00Z",
    "'abc'",
    "true",
    "~",
    "'1e3'",
    "' 7 '",
    "[1]",
    "'2024-01-01T10:00:00+02:00'",
    "1_000",
    ".nan",
    "'nan'",
]
METADATA = [
    "{}",
    "{a: 1}",
    "[1, 2]",
    "'plain'",
    "'{\"a\": 1}'",
    "5",
    "true",
    "~",
    "{lion_class: lionagi.work.form.FieldSpec}",
    "{lion_class: other.Class}",
    '\'{"lion_class": "x"}\'',
    "!!set {lion_class}",
    "!!set {a}",
    '\'"{\\\\"lion_class\\\\": \\\\"x\\\\"}"\'',
    "['{\"lion_class\": 1}']",
    "[lion_class]",
    "'[1, 2]'",
    "!!binary aGk=",
    "2024-01-01",
    "''",
    "0",
    "[]",
    '\'{"lion_class": "lionagi.work.form.FieldSpec"}\'',
    "{lion_class: 5}",
    "'\"plain string\"'",
    '\'{"a": "[1, {\\\\"lion_class\\\\": 2}]"}\'',
]
TITLES = [
    "Intake form",
    "''",
    "5",
    "~",
    "yes",
    "2024-01-01",
    "'[x]'",
    "!!binary aGk=",
    "{}",
    "[a]",
    "Ünïcödé",
    "'multi\\nline'",
    "1.5",
    '"quoted"',
    "'  spaced  '",
    "!!str 7",
]

PROMPT_WORDS = [
    "hello",
    "Hello",
    "HELLO",
    "weather",
    "İstanbul",
    "istanbul",
    "i̇stanbul",
    "straße",
    "STRASSE",
    "ß",
    "Σίσυφος",
    "ΣΊΣΥΦΟΣ",
    "ǅ",
    "ﬁle",
    "FILE",
    "K",
    "k",
    "résumé",
    "x",
    "42",
    "call",
    "tool",
    "report",
    "deploy",
    "yes",
    "İ",
    "i",
]
TOOL_NAMES = ["search", "calc", "Search", "weather_api", "db.query", "ütil", "", "calc "]
REGEX_OK = [
    "hel+o",
    "^hello",
    "(?i)weather",
    "\\d+",
    "^$",
    "stra(ss|ß)e",
    "[a-z]+$",
    ".*",
    "İ",
    "(?i)İ",
    "\\bcall\\b",
    "^(?!x)",
    "o$",
    "(?i)^h",
    "K",
    "\\w+\\s\\w+",
]
REGEX_BAD = ["(", "[a-", "*x", "a{2,1}", "(?P<n>a)(?P<n>b)", "\\", "(?<=a+)b", "+", "(?i", "[]", "x**"]
CHUNK_TYPES = ["system", "thinking", "text", "tool_use", "tool_result", "result", "error"]
ERROR_KINDS = ["rate_limit", "timeout", "server_error", "bad_request", "value_error"]


# ----------------------------------------------------------------------------- rendering


def _is_container(node: Node) -> bool:
    return node[0] in ("m", "l") and bool(node[1])


def render_flow(node: Node) -> str:
    """One-line flow text (JSON, or YAML flow style when the scalars are YAML)."""
    kind, body = node
    if kind == "s":
        return str(body)
    if kind == "m":
        return "{" + ", ".join(f"{k}: {render_flow(v)}" for k, v in body) + "}"
    if kind == "l":
        return "[" + ", ".join(render_flow(v) for v in body) + "]"
    return json.dumps("\n".join(body))


def render_json_pretty(node: Node, indent: int = 0, sep: str = " ") -> str:
    """Multi-line JSON; *sep* is what follows each colon (a tab breaks YAML, not JSON)."""
    kind, body = node
    pad = "  " * (indent + 1)
    if kind == "m" and body:
        inner = [f"{pad}{k}:{sep}{render_json_pretty(v, indent + 1, sep)}" for k, v in body]
        return "{\n" + ",\n".join(inner) + "\n" + "  " * indent + "}"
    if kind == "l" and body:
        inner = [pad + render_json_pretty(v, indent + 1, sep) for v in body]
        return "[\n" + ",\n".join(inner) + "\n" + "  " * indent + "]"
    return render_flow(node)


def render_block(node: Node, indent: int = 0) -> list[str]:
    """Block-style YAML lines for a mapping or sequence node."""
    pad = " " * indent
    kind, body = node
    lines: list[str] = []
    if kind == "m":
        for key, value in body:
            if _is_container(value):
                lines.append(f"{pad}{key}:")
                lines.extend(render_block(value, indent + 2))
            elif value[0] == "b":
                lines.append(f"{pad}{key}: |")
                lines.extend(f"{pad}  {line}" for line in value[1])
            else:
                text = render_flow(value)
                lines.append(f"{pad}{key}: {text}".rstrip(" ") if text == "" else f"{pad}{key}: {text}")
        return lines
    if kind == "l":
        for item in body:
            if _is_container(item):
                sub = render_block(item, indent + 2)
                lines.append(f"{pad}- {sub[0].lstrip()}")
                lines.extend(sub[1:])
            elif item[0] == "b":
                lines.append(f"{pad}- |")
                lines.extend(f"{pad}  {line}" for line in item[1])
            else:
                lines.append(f"{pad}- {render_flow(item)}")
        return lines
    return [pad + render_flow(node)]


# ----------------------------------------------------------------------------- helpers


class _Gen:
    """A random source that also records which edge features a case used."""

    def __init__(self, rng: random.Random, syntax: str) -> None:
        self.rng = rng
        self.syntax = syntax  # "yaml" | "json"
        self.tags: set[str] = set()
        #: How often this case makes mistakes: 0 for a clean file (edges that are valid
        #: still appear), up to 1.5 for a file full of faults.
        self.noise = rng.choice([0.0, 0.0, 0.1, 0.25, 0.5, 1.0, 1.5])

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def bad(self, p: float) -> bool:
        """Whether to make a mistake that is *p* likely in a noisy file."""
        return self.rng.random() < p * self.noise

    def pick(self, items: list[Any]) -> Any:
        return items[self.rng.randrange(len(items))]

    def scalar(self, kind: str) -> Node:
        pool = YAML_SCALARS if self.syntax == "yaml" else JSON_SCALARS
        self.tags.add(f"{self.syntax}:{kind}")
        text = self.pick(pool[kind])
        if self.syntax == "yaml" and text.startswith("!!"):
            self.tags.add("yaml:tag")
        return ("s", text)

    def text(self, yaml_text: str) -> Node:
        """A YAML spelling, or a JSON string with the same characters for JSON docs."""
        if self.syntax == "yaml":
            return ("s", yaml_text)
        return ("s", json.dumps(yaml_text))

    def key(self, name: str) -> str:
        if self.syntax == "yaml":
            return name
        if name.startswith('"'):
            return name
        if name.startswith("'"):
            return json.dumps(name[1:-1])
        return json.dumps(name)


def _render_doc(gen: _Gen, doc: Node) -> str:
    """Render a whole document in the style this case drew."""
    rng = gen.rng
    if gen.syntax == "json":
        style = rng.random()
        if style < 0.45:
            text = render_json_pretty(doc)
        elif style < 0.6:
            gen.tags.add("json:tab-after-colon")  # YAML refuses the tab, JSON takes it
            text = render_json_pretty(doc, sep="\t")
        else:
            text = render_flow(doc)
        return text + ("\n" if gen.chance(0.7) else "")
    if doc[0] == "m" and not doc[1]:
        return "{}\n"
    if rng.random() < 0.12:
        gen.tags.add("yaml:flow-doc")
        return render_flow(doc) + "\n"
    lines = render_block(doc)
    prefix = ""
    if gen.chance(0.08):
        prefix = "---\n"
    if gen.chance(0.05):
        prefix = "# a comment\n" + prefix
    if gen.chance(0.02):
        gen.tags.add("bom")
        prefix = "\ufeff" + prefix
    newline = "\r\n" if gen.chance(0.03) else "\n"
    if newline == "\r\n":
        gen.tags.add("crlf")
    return prefix + newline.join(lines) + newline


def _degenerate(gen: _Gen) -> str:
    """Texts that are not a usable mapping, or only parse as JSON."""
    gen.tags.add("degenerate")
    options = [
        "",
        "   \n",
        "# only a comment\n",
        "---\n",
        "--- \n...\n",
        "null\n",
        "[]\n",
        "- a\n- b\n",
        "42\n",
        "'text'\n",
        "{\n",
        "a: [\n",
        "\t- x\n",
        "key: value: other\n",
        '{"a": 1,}\n',
        "%YAML 1.1\n---\n{}\n",
        "--- a\n--- b\n",
        "\ufeff{}\n",
        "x\x7f: 1\n",
        "~\n",
        "true\n",
        "? [a, b]\n: 1\n",
        "{[1]: 2}\n",
        "!!map {}\n",
        "!!python/object:os.system {}\n",
        '{"title": "t",\t"fields": {}}\n',
        "{}\n",
        "{}{}\n",
        "...\n",
        "- {}\n",
    ]
    return gen.pick(options)


# ----------------------------------------------------------------------------- form specs

#: Value kinds that a declared type takes as they are or after coercion (and some that fail).
GOOD_KINDS = {
    "int": ["int", "int", "strnum", "bool"],
    "float": ["float", "int", "strnum", "float"],
    "bool": ["bool", "bool", "strbool"],
    "str": ["str", "str", "strnum", "strbool"],
    "list": ["list"],
    "dict": ["dict"],
}


#: Value kinds a default of each declared type may take as it is (defaults are not coerced).
DEFAULT_KINDS = {
    "int": ["int", "int", "bool"],
    "float": ["float", "int"],
    "bool": ["bool"],
    "str": ["str", "strnum", "strbool"],
    "list": ["list"],
    "dict": ["dict"],
}


def _value_node(gen: _Gen, declared_type: str | None) -> Node:
    """A value for a field: its own type or a string spelling of it, or a mistake."""
    if declared_type in GOOD_KINDS and not gen.bad(0.35):
        kind = gen.pick(GOOD_KINDS[declared_type])
    else:
        kind = gen.pick(KINDS[:-1]) if not gen.bad(0.05) else "odd"
    if gen.syntax == "yaml" and kind == "str" and gen.chance(0.05):
        gen.tags.add("yaml:block-scalar")
        return ("b", ["first line", "second: line"])
    return gen.scalar(kind)


def _word(gen: _Gen, word: str) -> Node:
    """A pool word as a YAML scalar, or its JSON spelling."""
    return ("s", word) if gen.syntax == "yaml" else _json_literal(word)


def _declaration(gen: _Gen, anchors: list[str]) -> tuple[Node, str | None]:
    """One field declaration and the type it (probably) declares."""
    rng = gen.rng
    if gen.bad(0.04):
        gen.tags.add("decl:not-mapping")
        return gen.scalar(gen.pick(["str", "null", "list", "int", "bool"])), None
    if gen.chance(0.03):
        gen.tags.add("decl:empty")
        return ("m", []), "str"
    if gen.syntax == "yaml" and anchors and gen.chance(0.05):
        gen.tags.add("yaml:alias")
        return ("s", "*" + gen.pick(anchors)), None
    items: list[tuple[str, Node]] = []
    declared: str | None = "str"
    if gen.chance(0.88):
        if not gen.bad(0.12):
            declared = gen.pick(TYPE_WORDS_OK)
            items.append(("type", gen.text(declared)))
        else:
            gen.tags.add("decl:bad-type")
            declared = None
            word = gen.pick(TYPE_WORDS_BAD)
            items.append(("type", ("s", word) if gen.syntax == "yaml" else gen.text(word.strip("'"))))
    if gen.chance(0.5):
        gen.tags.add("decl:required")
        items.append(("required", _word(gen, gen.pick(REQUIRED_BAD if gen.bad(0.2) else REQUIRED_OK))))
    if gen.chance(0.38):
        gen.tags.add("decl:default")
        if declared in DEFAULT_KINDS and not gen.bad(0.4):
            items.append(("default", gen.scalar(gen.pick(DEFAULT_KINDS[declared]))))
        else:
            items.append(("default", _value_node(gen, declared)))
    if gen.chance(0.3):
        pool = DESCRIPTION_BAD if gen.bad(0.3) else DESCRIPTION_OK
        items.append(("description", _word(gen, gen.pick(pool))))
    if gen.bad(0.06):
        gen.tags.add("decl:typo")
        items.append((gen.key(gen.pick(DECL_TYPOS)), gen.scalar("str")))
    if gen.bad(0.04):
        gen.tags.add("decl:name")
        items.append(("name", gen.scalar("str")))
    if gen.chance(0.05):
        gen.tags.add("decl:element-key")
        which = gen.pick(["id", "created_at", "metadata", "metadata"])
        pool = {"id": UUIDS, "created_at": CREATED_AT, "metadata": METADATA}[which]
        items.append((which, _word(gen, gen.pick(pool))))
    if gen.syntax == "yaml" and gen.bad(0.02):
        gen.tags.add("decl:nonstr-key")
        items.append((gen.pick(["1", "true", "~", "2.5"]), gen.scalar("str")))
    if gen.chance(0.03) and items:
        gen.tags.add("dup-key")
        dup_key, _ = gen.pick(items)
        items.append((dup_key, gen.scalar(gen.pick(KINDS[:6]))))
    if gen.chance(0.2):
        rng.shuffle(items)
    return ("m", [(gen.key(k) if gen.syntax == "json" and not k.startswith('"') else k, v) for k, v in items]), declared


def _json_literal(word: str) -> Node:
    """The JSON spelling of a YAML pool word: JSON literals stay, anything else is a string."""
    try:
        json.loads(word)
        return ("s", word)
    except ValueError:
        return ("s", json.dumps(word.strip("'\"")))


def form_text(rng: random.Random) -> tuple[str, str, frozenset[str]]:
    """(suffix, text, tags) for one form spec."""
    syntax = "json" if rng.random() < 0.14 else "yaml"
    gen = _Gen(rng, syntax)
    if rng.random() < 0.035:
        return ".yaml", _degenerate(gen), frozenset(gen.tags)

    top: list[tuple[str, Node]] = []
    if gen.chance(0.6):
        good_titles = [TITLES[i] for i in (0, 1, 6, 7, 10, 11, 13, 14, 15)]
        title = gen.pick(good_titles) if not gen.bad(0.3) else gen.pick(TITLES)
        top.append(("title", _word(gen, title)))

    declared: dict[str, str | None] = {}
    anchors: list[str] = []
    field_items: list[tuple[str, Node]] = []
    if not gen.bad(0.1):
        count = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5])
        for _ in range(count):
            if not gen.bad(0.12):
                name = gen.pick(GOOD_NAMES)
            elif syntax == "yaml" and gen.chance(0.3):
                gen.tags.add("name:nonstr")
                name = gen.pick(NONSTR_NAMES)
            else:
                gen.tags.add("name:bad")
                name = gen.pick(BAD_NAMES)
            decl, dtype = _declaration(gen, anchors)
            key = gen.key(name)
            if syntax == "yaml" and decl[0] == "m" and decl[1] and gen.chance(0.08):
                anchor = f"a{len(anchors)}"
                anchors.append(anchor)
                gen.tags.add("yaml:anchor")
                decl = ("s", f"&{anchor} " + render_flow(decl))
            if syntax == "yaml" and anchors and decl[0] == "m" and gen.chance(0.15):
                gen.tags.add("yaml:merge")
                decl = ("m", [("<<", ("s", "*" + gen.pick(anchors))), *decl[1]])
            field_items.append((key, decl))
            declared[name] = dtype
        top.append(("fields", ("m", field_items)))
    elif gen.chance(0.5):
        gen.tags.add("fields:not-mapping")
        top.append(("fields", gen.scalar(gen.pick(["list", "str", "null", "int"]))))

    value_items: list[tuple[str, Node]] = []
    if gen.chance(0.8):
        for name, dtype in declared.items():
            if gen.chance(0.8):
                value_items.append((gen.key(name), _value_node(gen, dtype)))
        if gen.bad(0.1):
            gen.tags.add("values:undeclared")
            value_items.append((gen.key(gen.pick([*GOOD_NAMES, "agee", "Age", "nmae"])), gen.scalar("str")))
        if syntax == "yaml" and gen.bad(0.03):
            gen.tags.add("values:nonstr-key")
            value_items.append((gen.pick(NONSTR_NAMES[:6]), gen.scalar("int")))
        if gen.chance(0.03) and value_items:
            gen.tags.add("dup-key")
            value_items.append((value_items[0][0], _value_node(gen, None)))
        if gen.bad(0.05):
            gen.tags.add("values:not-mapping")
            top.append(("values", gen.scalar(gen.pick(["list", "str", "int", "null"]))))
        else:
            top.append(("values", ("m", value_items)))
    if gen.bad(0.06):
        gen.tags.add("top:unknown")
        top.append((gen.key(gen.pick(TOP_TYPOS)) if syntax == "json" else gen.pick(TOP_TYPOS), gen.scalar("str")))
    if gen.chance(0.03) and top:
        gen.tags.add("dup-key")
        key, _ = gen.pick(top)
        top.append((key, ("m", []) if key != "title" else gen.scalar("str")))
    if gen.chance(0.15):
        rng.shuffle(top)
    top = [(gen.key(k) if syntax == "json" and not k.startswith('"') else k, v) for k, v in top]
    suffix = (
        ".json"
        if syntax == "json" and gen.chance(0.7)
        else gen.pick([".yaml", ".yaml", ".yml", ".form.yaml", ".txt", ""])
    )
    return suffix, _render_doc(gen, ("m", top)), frozenset(gen.tags)


# ----------------------------------------------------------------------------- scripts


def _when(gen: _Gen) -> Node:
    rng = gen.rng
    if gen.chance(0.04):
        gen.tags.add("when:null")
        return gen.scalar("null")
    if gen.chance(0.05):
        gen.tags.add("when:empty")
        return ("m", [])
    items: list[tuple[str, Node]] = []
    preds = ["prompt_contains", "prompt_regex", "has_tool", "call_index", "after_calls"]
    count = rng.choice([1, 1, 1, 2, 2, 3])
    chosen = rng.sample(preds, count)
    if count > 1:
        gen.tags.add("when:several")
    for pred in chosen:
        if pred == "prompt_contains":
            value = (
                gen.text(gen.pick([*PROMPT_WORDS, ""]))
                if not gen.bad(0.08)
                else gen.scalar(gen.pick(["int", "bool", "null"]))
            )
        elif pred == "prompt_regex":
            if gen.chance(0.1):
                gen.tags.add("regex:invalid")
                value = gen.text(gen.pick(REGEX_BAD))
            else:
                value = gen.text(gen.pick(REGEX_OK))
        elif pred == "has_tool":
            value = gen.text(gen.pick(TOOL_NAMES))
        else:
            gen.tags.add(f"when:{pred}")
            if not gen.bad(0.15):
                value = ("s", str(rng.choice([0, 0, 1, 1, 2, 3, 4])))
            else:
                value = _word(gen, gen.pick(["'1'", "-1", "1.5", "true", "~", "2.0", "'x'"]))
        items.append((pred, value))
    if gen.bad(0.03):
        gen.tags.add("when:typo")
        items.append((gen.pick(["prompt_contain", "contains", "tool", "callIndex"]), gen.text("x")))
    return ("m", [(gen.key(k), v) for k, v in items])


def _arguments(gen: _Gen) -> Node:
    if not gen.bad(0.25):
        if gen.chance(0.8):
            return (
                "m",
                [
                    (
                        gen.key(gen.pick(["q", "city", "n", "when"])),
                        gen.scalar(gen.pick(["str", "int", "float", "list", "bool", "null", "str", "date"])),
                    )
                    for _ in range(gen.rng.randint(0, 3))
                ],
            )
        return gen.scalar("dict")
    return gen.scalar(gen.pick(["list", "str", "null", "int"]))


def _chunk(gen: _Gen) -> Node:
    items: list[tuple[str, Node]] = []
    ctype = gen.pick(CHUNK_TYPES) if not gen.bad(0.05) else gen.pick(["bogus", "Text", "delta"])
    if not gen.bad(0.03):
        items.append(("type", gen.text(ctype)))
    if gen.chance(0.7):
        items.append(
            (
                "content",
                gen.text(gen.pick(PROMPT_WORDS)) if not gen.bad(0.1) else gen.scalar(gen.pick(["int", "null", "bool"])),
            )
        )
    if gen.chance(0.2):
        items.append(("tool_name", gen.text(gen.pick(TOOL_NAMES))))
    if gen.chance(0.1):
        items.append(("tool_id", gen.text("tu_1")))
    if gen.chance(0.15):
        items.append(("tool_input", gen.scalar(gen.pick(["dict", "null"]) if not gen.bad(0.3) else "list")))
    if gen.chance(0.1):
        items.append(("tool_output", gen.scalar(gen.pick(KINDS[:9]))))
    for flag in ("is_error", "is_delta"):
        if gen.chance(0.15):
            items.append((flag, gen.scalar(gen.pick(["bool", "bool", "strbool", "int"]))))
    if gen.chance(0.08):
        items.append(("metadata", gen.scalar("dict" if not gen.bad(0.3) else "list")))
    if gen.bad(0.02):
        items.append(("extra", gen.text("x")))
    return ("m", [(gen.key(k), v) for k, v in items])


def _entry(gen: _Gen) -> Node:
    rng = gen.rng
    items: list[tuple[str, Node]] = []
    etype = gen.pick(["text"] * 35 + ["tool_call"] * 18 + ["structured"] * 9 + ["stream"] * 10 + ["error"] * 16)
    if gen.bad(0.1):
        etype = "weird"
    gen.tags.add(f"entry:{etype}")
    if etype == "weird":
        choice = gen.pick(["missing", "Text", "image", "null", "int", "list"])
        if choice == "null":
            items.append(("type", gen.scalar("null")))
        elif choice == "int":
            items.append(("type", ("s", "5")))
        elif choice == "list":
            items.append(("type", ("l", [gen.text("text")])))
        elif choice != "missing":
            items.append(("type", gen.text(choice)))
        items.append(("content", gen.text("orphan")))
    else:
        items.append(("type", gen.text(etype)))
    if etype == "text" and not gen.bad(0.04):
        items.append(
            ("content", gen.text(gen.pick(PROMPT_WORDS)) if not gen.bad(0.12) else gen.scalar(gen.pick(KINDS[:9])))
        )
    if etype == "tool_call":
        if not gen.bad(0.05):
            items.append(
                ("name", gen.text(gen.pick(TOOL_NAMES)) if not gen.bad(0.08) else gen.scalar(gen.pick(["int", "null"])))
            )
        if gen.chance(0.6):
            items.append(("arguments", _arguments(gen)))
        if gen.chance(0.5):
            gen.tags.add("tool_call:id")
            word = gen.pick(["call_1", "''", "~", "tc-ü", "call_abc"]) if not gen.bad(0.2) else "5"
            items.append(("id", _word(gen, word)))
    if etype == "structured" and not gen.bad(0.05):
        items.append(("data", _arguments(gen)))
    if etype == "stream" and not gen.bad(0.05):
        if not gen.bad(0.1):
            items.append(("chunks", ("l", [_chunk(gen) for _ in range(rng.randint(0, 4))])))
        else:
            items.append(("chunks", gen.scalar(gen.pick(["null", "str", "dict"]))))
    if etype == "error":
        if gen.chance(0.7):
            kind = gen.pick(ERROR_KINDS) if not gen.bad(0.1) else gen.pick(["ratelimit", "500"])
            items.append(("kind", gen.text(kind)))
        if gen.chance(0.5):
            items.append(
                (
                    "message",
                    gen.text(gen.pick(PROMPT_WORDS)) if not gen.bad(0.1) else gen.scalar(gen.pick(["int", "null"])),
                )
            )
        if gen.chance(0.25):
            gen.tags.add("error:delay")
            word = (
                gen.pick(["0", "'0'", "1", "-1", "true", "0.0"]) if not gen.bad(0.3) else gen.pick(["1.5", "'x'", "~"])
            )
            items.append(("delay_ms", _word(gen, word)))
    if gen.chance(0.45):
        items.append(("when", _when(gen)))
    if gen.bad(0.025):
        gen.tags.add("entry:extra-key")
        items.append((gen.pick(["contents", "delay", "tool", "extra"]), gen.text("x")))
    if gen.chance(0.1):
        rng.shuffle(items)
    return ("m", [(gen.key(k), v) for k, v in items])


def _share_by_alias(gen: _Gen, entries: list[Node]) -> list[Node]:
    """Reuse an earlier matcher or entry through a YAML anchor, alias or merge key."""
    first, later = 0, gen.rng.randrange(1, len(entries))
    items = list(entries[first][1])
    whens = [i for i, (key, node) in enumerate(items) if key == "when" and node[0] == "m"]
    if whens and gen.chance(0.6):
        gen.tags.add("yaml:alias")
        slot = whens[0]
        items[slot] = ("when", ("s", "&w " + render_flow(items[slot][1])))
        reuse = [(k, v) for k, v in entries[later][1] if k != "when"] + [("when", ("s", "*w"))]
    else:
        gen.tags.add("yaml:merge")
        items = [(k, v) for k, v in items if k != "when"]
        entries[first] = ("s", "&e " + render_flow(("m", items)))
        reuse = [("<<", ("s", "*e"))]
        if gen.chance(0.5):
            reuse.append(("when", ("m", [("call_index", ("s", str(later)))])))
        return [*entries[:later], ("m", reuse), *entries[later + 1 :]]
    return [("m", items), *entries[1:later], ("m", reuse), *entries[later + 1 :]]


def _payload(gen: _Gen) -> dict[str, Any]:
    rng = gen.rng
    payload: dict[str, Any] = {}
    r = rng.random()
    words = " ".join(gen.pick(PROMPT_WORDS) for _ in range(rng.randint(0, 3)))
    if r < 0.8:
        messages: list[Any] = []
        if gen.chance(0.3):
            messages.append({"role": "system", "content": "You are a test."})
        for _ in range(rng.randint(0, 2)):
            messages.append({"role": "user", "content": gen.pick(PROMPT_WORDS)})
            messages.append({"role": "assistant", "content": "ok"})
        if gen.chance(0.2):
            gen.tags.add("payload:list-content")
            content: Any = [{"type": "text", "text": w} for w in words.split(" ") if w]
            if gen.chance(0.4):
                content.append("stray")
                content.append({"type": "image_url", "image_url": {"url": "x"}})
        elif gen.chance(0.05):
            content = gen.pick([None, 5, {"text": words}])
        else:
            content = words
        if gen.chance(0.92):
            messages.append({"role": "user", "content": content})
        if gen.chance(0.1):
            messages.append({"role": "assistant", "content": "trailing"})
        if gen.chance(0.03):
            messages.append("not a dict")
        if gen.chance(0.01):
            gen.tags.add("payload:malformed")
            messages.append({"role": "user", "content": [{"type": "text", "text": None}]})
        payload["messages"] = messages
        if gen.chance(0.05):
            payload["input"] = gen.pick(PROMPT_WORDS)
    elif r < 0.92:
        gen.tags.add("payload:input")
        payload["input"] = words if gen.chance(0.9) else [{"role": "user", "content": words}]
    if gen.chance(0.5):
        tools: list[Any] = []
        for _ in range(rng.randint(0, 3)):
            name = gen.pick(TOOL_NAMES)
            shape = rng.random()
            if shape < 0.6:
                tools.append({"type": "function", "function": {"name": name}})
            elif shape < 0.75:
                tools.append({"type": "function", "name": name})
            elif shape < 0.85:
                tools.append({"type": "function", "function": {}, "name": name})
            elif shape < 0.92:
                tools.append({"type": "function", "function": None, "name": name})
            elif shape < 0.99:
                tools.append(name)
            else:
                gen.tags.add("payload:malformed")
                tools.append({"type": "function", "function": name})
        payload["tools"] = tools
    if gen.chance(0.1):
        payload["model"] = gen.pick(["gpt-test", "", "scripted-test"])
    return payload


def script_text(
    rng: random.Random,
) -> tuple[str, str, tuple[dict[str, Any] | str, ...], frozenset[str]]:
    """(suffix, text, transcript, tags) for one script."""
    roll = rng.random()
    syntax = "json" if roll < 0.3 else "yaml"
    gen = _Gen(rng, syntax)
    if syntax == "json":
        suffix = ".json" if gen.chance(0.85) else gen.pick([".txt", "", ".json5", ".YAML"])
    else:
        suffix = (
            gen.pick([".yaml", ".yaml", ".yaml", ".yml"]) if gen.chance(0.93) else gen.pick([".json", ".YML", ".txt"])
        )
    if suffix not in (".yaml", ".yml", ".json"):
        gen.tags.add("suffix:odd")
    calls: list[dict[str, Any] | str] = [_payload(gen) for _ in range(rng.randint(1, 7))]
    if len(calls) > 2 and gen.chance(0.06):
        gen.tags.add("transcript:reset")
        calls.insert(rng.randint(1, len(calls) - 1), RESET)
    transcript = tuple(calls)
    if rng.random() < 0.03:
        text = _degenerate(gen)
        return suffix, text, transcript, frozenset(gen.tags)
    top: list[tuple[str, Node]] = []
    if gen.chance(0.3):
        word = gen.pick(["1", "'1'", "1.0", "2", "true", "0"]) if not gen.bad(0.3) else gen.pick(["'x'", "1.5", "~"])
        top.append(("version", _word(gen, word)))
    if gen.chance(0.65):
        mode = (
            gen.pick(["auto", "positional", "when_only"])
            if not gen.bad(0.1)
            else gen.pick(["Auto", "'positional '", "when-only", "~", "5", "'auto\\n'"])
        )
        gen.tags.add(f"mode:{mode}")
        top.append(("mode", ("s", mode) if syntax == "yaml" else _json_literal(mode)))
    if not gen.bad(0.07):
        entries = [_entry(gen) for _ in range(rng.choice([0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7]))]
        if syntax == "yaml" and len(entries) > 1 and gen.chance(0.12):
            entries = _share_by_alias(gen, entries)
        top.append(("responses", ("l", entries)))
    elif gen.chance(0.6):
        gen.tags.add("responses:odd")
        if syntax == "yaml":
            top.append(
                (
                    "responses",
                    ("s", gen.pick(["~", "{}", "x", "!!set {}", "!!omap []", "!!pairs []", "5", "!!set {a}"])),
                )
            )
        else:
            top.append(("responses", ("s", gen.pick(["null", "{}", '"x"', "5"]))))
    if gen.bad(0.04):
        gen.tags.add("top:unknown")
        top.append((gen.pick(["response", "entries", "Mode", "name"]), gen.text("x")))
    if gen.chance(0.03) and top:
        gen.tags.add("dup-key")
        top.append(gen.pick(top))
    top = [(gen.key(k), v) for k, v in top]
    doc: Node = ("m", top)
    if gen.chance(0.03) and syntax == "yaml" and top and top[-1][0] == "responses":
        gen.tags.add("top:bare-list")
        doc = top[-1][1]
    text = _render_doc(gen, doc)
    return suffix, text, transcript, frozenset(gen.tags)


# ----------------------------------------------------------------------------- corpus


def generate_form_cases(seed: int = DEFAULT_SEED, count: int = FORM_CASES) -> list[FormCase]:
    """*count* form specs, the same for the same seed."""
    rng = random.Random(f"forms:{seed}")
    cases = []
    for index in range(count):
        suffix, text, tags = form_text(rng)
        name = f"form-{index:05d}"
        cases.append(FormCase(name, f"forms/{name}{suffix}", text, tags))
    return cases


def generate_script_cases(seed: int = DEFAULT_SEED, count: int = SCRIPT_CASES) -> list[ScriptCase]:
    """*count* scripts with their call transcripts, the same for the same seed."""
    rng = random.Random(f"scripts:{seed}")
    cases = []
    for index in range(count):
        suffix, text, transcript, tags = script_text(rng)
        name = f"script-{index:05d}"
        cases.append(ScriptCase(name, f"scripts/{name}{suffix}", text, transcript, tags))
    return cases


def write_cases(root: Path, cases: list[FormCase] | list[ScriptCase]) -> None:
    """Write each case's text under *root* at its file name (UTF-8, newlines kept as given)."""
    for case in cases:
        target = root / case.filename
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(case.text)
