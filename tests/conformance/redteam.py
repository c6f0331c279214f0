"""A seeded red-team generator (issue 12): realistic files built around the runtime's edges.

The first corpus (``corpus.py``) varies what people usually get wrong. This one aims at the
places where lionagi 0.36.0's own machinery gives way: its loaders and constructors, the
pure-Python YAML loader where libyaml reads otherwise, Python's recursion limit, text
encodings, values that contain themselves, numeric limits, the prompt cap, the suffix that
picks a script's loader, rulesets a program cannot build or whose rules raise, paths that
are not files, odd request payloads, and the calls a test makes through a Branch's ``chat``.

Every case belongs to one *class*: the one boundary it probes, placed in an otherwise
ordinary file (several fields or entries, comments, the usual mistakes from the first
corpus's pools). Case *i* of a seed is the same whatever the number of cases asked for, so
the long mode is a superset of the CI run. Texts are written by hand-rolled renderers, as
bytes, so tabs, line ends, BOMs and broken encodings reach the loaders exactly as written.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .corpus import (
    DECL_TYPOS,
    GOOD_KINDS,
    GOOD_NAMES,
    JSON_SCALARS,
    PROMPT_WORDS,
    REGEX_OK,
    TYPE_WORDS_BAD,
    YAML_SCALARS,
    render_flow,
    render_json_pretty,
)

DEFAULT_SEED = 20260712
DEFAULT_CASES = 2500

#: ``lionagi._spec_limits.MAX_SPEC_PROMPT_CHARS`` (written out: the generator runs without lionagi).
PROMPT_CAP = 256 * 1024

Node = tuple[str, Any]
Payload = dict[str, Any]
T = TypeVar("T")


@dataclass(frozen=True)
class RedCase:
    """One red-team input: the file (or directory) and what the comparison needs besides."""

    name: str
    klass: str
    #: "form" | "script"; a form with ``rules_data`` is dry-run with that ruleset, with
    #: ``prompt`` against the prompt cap.
    kind: str
    filename: str
    data: bytes
    #: What the probe is, for reports.
    probe: str = ""
    transcript: tuple[Payload, ...] = ()
    rules_filename: str | None = None
    rules_data: bytes | None = None
    prompt: str | None = None
    #: "file" | "directory" | "directory-with-file" | "dangling-symlink" | "symlink-to-directory".
    node: str = "file"
    #: kind "python": the API call whose verdict is compared (written once in the module), and
    #: how the runtime's outcome is judged: "raises" (any exception) or "status" (a form's
    #: status "error"). kind "pytest": the test's qualified name ("Class::test" or "test"),
    #: judged "pytest" (its pytest outcome against an error within its lines).
    target_call: str | None = None
    judge: str | None = None
    #: kind "script": how long formscript's ``simulate`` lets a prompt_regex search run before
    #: it measures the growth (``--regex-timeout``; the default when None).
    regex_timeout: float | None = None

    def text(self) -> str | None:
        """The file's text when it is UTF-8 (what formscript's text-level functions take)."""
        if self.node != "file":
            return None
        try:
            return self.data.decode("utf-8")
        except UnicodeDecodeError:
            return None


# ----------------------------------------------------------------------------- randomness


class _R:
    """A case's random source, with its noise level (how many ordinary mistakes it makes)."""

    def __init__(self, rng: random.Random, syntax: str = "yaml") -> None:
        self.rng = rng
        self.syntax = syntax
        self.noise = rng.choice([0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 1.0])

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def bad(self, p: float) -> bool:
        return self.rng.random() < p * self.noise

    def pick(self, items: Sequence[T]) -> T:
        return items[self.rng.randrange(len(items))]

    def int(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def s(self, yaml_text: str, json_text: str | None = None) -> Node:
        """A scalar spelled for this case's syntax (*json_text* defaults to the JSON string of
        the YAML text's characters)."""
        if self.syntax == "yaml":
            return ("s", yaml_text)
        return ("s", json_text if json_text is not None else json.dumps(yaml_text))

    def key(self, name: str) -> str:
        return name if self.syntax == "yaml" else json.dumps(name.strip("'\""))


def _j(value: Any) -> str:
    return json.dumps(value)


# ----------------------------------------------------------------------------- rendering


def _comment(r: _R) -> str:
    return r.pick(["# note", "# TODO: check", "#", "# value from the ticket", "# ünïcode comment", "## x: 1"])


def render_yaml(doc: Node, r: _R, *, step: int = 2, seq_indent: bool = True, comments: float = 0.15) -> list[str]:
    """Block YAML lines for *doc*, with comment lines and trailing comments here and there.

    ``("raw", lines)`` nodes are written below their key, indented one step, as given.
    """
    lines: list[str] = []

    def scalar_line(prefix: str, text: str) -> str:
        line = f"{prefix} {text}" if text else prefix
        if text and "\n" not in text and r.chance(comments / 2) and not text.endswith(("|", ">")):
            line += "  " + _comment(r)
        return line

    def walk(node: Node, indent: int) -> None:
        pad = " " * indent
        kind, body = node
        if kind == "m":
            for key, value in body:
                if r.chance(comments / 3):
                    lines.append(pad + _comment(r))
                vkind = value[0]
                if vkind in ("m", "l") and value[1] and (_has_raw(value) or not r.chance(0.15)):
                    lines.append(f"{pad}{key}:")
                    walk(value, indent + (step if vkind == "m" or seq_indent else 0))
                elif vkind == "raw":
                    lines.append(f"{pad}{key}:")
                    lines.extend(" " * (indent + step) + line for line in value[1])
                else:
                    lines.append(scalar_line(f"{pad}{key}:", render_flow(value) if vkind != "raw" else ""))
        elif kind == "l":
            for item in body:
                ikind = item[0]
                if ikind == "m" and item[1] and (_has_raw(item) or not r.chance(0.15)):
                    start = len(lines)
                    walk(item, indent + 2)
                    first = lines[start]
                    lines[start] = f"{pad}- {first[indent + 2 :]}"
                elif ikind == "raw":
                    lines.append(f"{pad}-")
                    lines.extend(" " * (indent + step) + line for line in item[1])
                else:
                    lines.append(scalar_line(f"{pad}-", render_flow(item)))
        else:
            lines.append(pad + render_flow(node))

    walk(doc, 0)
    return lines


def _has_raw(node: Node) -> bool:
    kind, body = node
    if kind == "raw":
        return True
    if kind == "m":
        return any(_has_raw(value) for _, value in body)
    if kind == "l":
        return any(_has_raw(item) for item in body)
    return False


def render(doc: Node, r: _R, *, newline: str = "\n", **style: Any) -> str:
    """The whole document in this case's syntax, as text."""
    if r.syntax == "json":
        text = render_json_pretty(doc) if r.chance(0.6) else render_flow(doc)
        return text + ("\n" if r.chance(0.8) else "")
    head: list[str] = []
    if r.chance(0.2):
        head.append("# " + r.pick(["intake form", "generated by hand", "fixture for the weather test", "see README"]))
    if r.chance(0.1):
        head.append("---")
    body = render_yaml(doc, r, **style)
    tail = ["..."] if r.chance(0.03) else []
    return newline.join(head + body + tail) + newline


# ----------------------------------------------------------------------------- forms

FIELD_TYPES = ["str", "int", "float", "bool", "list", "dict"]
#: Value kinds with no red-team edge in them (the first corpus's, minus its odd pool).
PLAIN_KINDS = ["int", "float", "bool", "null", "strnum", "strbool", "str", "date", "list", "dict"]


@dataclass
class FormDoc:
    """A form spec under construction: declarations, values and title as nodes."""

    r: _R
    title: Node | None = None
    fields: list[tuple[str, list[tuple[str, Node]]]] = field(default_factory=list)
    values: list[tuple[str, Node]] = field(default_factory=list)
    types: dict[str, str] = field(default_factory=dict)
    title_last: bool = False

    def node(self) -> Node:
        k = self.r.key
        top: list[tuple[str, Node]] = []
        if self.title is not None and not self.title_last:
            top.append((k("title"), self.title))
        if self.fields:
            top.append((k("fields"), ("m", [(k(n), ("m", [(k(a), b) for a, b in d])) for n, d in self.fields])))
        if self.values:
            top.append((k("values"), ("m", [(k(n), v) for n, v in self.values])))
        if self.title is not None and self.title_last:
            top.append((k("title"), self.title))
        return ("m", top)

    def set_value(self, name: str, node: Node) -> None:
        self.values = [(n, node if n == name else v) for n, v in self.values]
        if name not in [n for n, _ in self.values]:
            self.values.append((name, node))

    def declaration(self, name: str) -> list[tuple[str, Node]]:
        return next(d for n, d in self.fields if n == name)

    def set_decl(self, name: str, key: str, node: Node) -> None:
        decl = self.declaration(name)
        decl[:] = [(a, b) for a, b in decl if a != key] + [(key, node)]


def _ordinary(pool: dict[str, list[str]]) -> dict[str, list[str]]:
    """The first corpus's spellings minus surrogate escapes (the surrogates class has those)."""
    return {kind: [text for text in texts if "\\ud" not in text] for kind, texts in pool.items()}


ORDINARY = {"yaml": _ordinary(YAML_SCALARS), "json": _ordinary(JSON_SCALARS)}


def _value(r: _R, declared: str) -> Node:
    """A value for a field of type *declared*: usually fitting, sometimes an ordinary mistake."""
    kind = r.pick(GOOD_KINDS[declared]) if not r.bad(0.3) else r.pick(PLAIN_KINDS)
    return ("s", r.pick(ORDINARY[r.syntax][kind]))


def form_doc(r: _R, *, target: str | None = None, target_type: str | None = None, fields: int = 0) -> FormDoc:
    """A realistic form: 2-6 fields (one named *target*, typed *target_type*), most with
    values, a title now and then, and the ordinary mistakes a noisy case makes."""
    doc = FormDoc(r)
    count = fields or r.int(2, 6)
    names = r.rng.sample(GOOD_NAMES, count)
    if target is not None and target not in names:
        names[r.rng.randrange(count)] = target
    for name in names:
        declared = target_type if (name == target and target_type) else r.pick(FIELD_TYPES)
        decl: list[tuple[str, Node]] = []
        if not r.bad(0.1):
            decl.append(("type", r.s(declared)))
        else:
            decl.append(("type", r.s(r.pick(TYPE_WORDS_BAD).strip("'"))))
        if r.chance(0.4):
            decl.append(("required", r.s("false", "false") if r.chance(0.7) else r.s("true", "true")))
        if r.chance(0.25):
            decl.append(("description", r.s(r.pick(["Customer age", "'Free text'", "the ticket id", "Ü"]))))
        if r.bad(0.05):
            decl.append((r.pick(DECL_TYPOS), r.s("x")))
        doc.fields.append((name, decl))
        doc.types[name] = declared
        if name == target or r.chance(0.8):
            doc.values.append((name, _value(r, declared)))
    if r.bad(0.05):
        doc.values.append(("extra_value", r.s("x")))
    if r.chance(0.5):
        doc.title = r.s(r.pick(["Intake form", "'Review: step 2'", "Σίσυφος", "Weekly report"]))
    return doc


# ----------------------------------------------------------------------------- scripts

ENTRY_TYPES = ["text"] * 4 + ["tool_call"] * 2 + ["structured", "stream", "error"]


@dataclass
class ScriptDoc:
    """A response script under construction."""

    r: _R
    header: list[tuple[str, Node]] = field(default_factory=list)
    entries: list[Node] = field(default_factory=list)

    def node(self) -> Node:
        k = self.r.key
        return ("m", [(k(a), b) for a, b in self.header] + [(k("responses"), ("l", self.entries))])


def entry(r: _R, etype: str | None = None, **fixed: Node) -> Node:
    """One ordinary entry of *etype* (drawn when None); *fixed* items replace drawn ones."""
    etype = etype or r.pick(ENTRY_TYPES)
    items: list[tuple[str, Node]] = [("type", r.s(etype))]
    word = r.pick(PROMPT_WORDS)
    if etype == "text":
        items.append(("content", r.s(r.pick([word, "'Sunny, 21 degrees'", "done", "Привет"]))))
    elif etype == "tool_call":
        items.append(("name", r.s(r.pick(["search", "calc", "weather_api"]))))
        if r.chance(0.7):
            items.append(("arguments", ("m", [(r.key("q"), r.s(word)), (r.key("n"), r.s("3", "3"))])))
        if r.chance(0.3):
            items.append(("id", r.s("call_1")))
    elif etype == "structured":
        items.append(("data", ("m", [(r.key("answer"), r.s(word)), (r.key("score"), r.s("0.5", "0.5"))])))
    elif etype == "stream":
        chunks = [("m", [(r.key("type"), r.s("text")), (r.key("content"), r.s(w))]) for w in ("Hel", "lo")]
        chunks.append(("m", [(r.key("type"), r.s("result"))]))
        items.append(("chunks", ("l", chunks)))
    else:
        items.append(("kind", r.s(r.pick(["rate_limit", "timeout", "server_error", "bad_request", "value_error"]))))
        if r.chance(0.6):
            items.append(("message", r.s(r.pick(["try later", "boom", "quota"]))))
    if r.chance(0.3):
        items.append(("when", _when(r)))
    if r.bad(0.1):
        items.append((r.pick(["contents", "delay", "tool"]), r.s("x")))
    for key, node in fixed.items():
        items = [(a, b) for a, b in items if a != key] + [(key, node)]
    return ("m", [(r.key(a), b) for a, b in items])


def _when(r: _R) -> Node:
    pred = r.pick(["prompt_contains", "prompt_regex", "has_tool", "call_index", "after_calls"])
    if pred == "prompt_contains":
        value = r.s(r.pick(PROMPT_WORDS))
    elif pred == "prompt_regex":
        value = r.s("'" + r.pick(REGEX_OK).replace("'", "''") + "'", _j(r.pick(REGEX_OK)))
    elif pred == "has_tool":
        value = r.s(r.pick(["search", "calc"]))
    else:
        value = r.s(str(r.int(0, 3)), str(r.int(0, 3)))
    return ("m", [(r.key(pred), value)])


def script_doc(r: _R, *, entries: int = 0) -> ScriptDoc:
    """A realistic script: a header now and then, 1-6 ordinary entries."""
    doc = ScriptDoc(r)
    if r.chance(0.3):
        doc.header.append(("version", r.s("1", "1")))
    if r.chance(0.5):
        doc.header.append(("mode", r.s(r.pick(["auto", "auto", "positional", "when_only"]))))
    doc.entries = [entry(r) for _ in range(entries or r.int(1, 6))]
    return doc


def calls(r: _R, count: int = 0, words: list[str] | None = None) -> tuple[Payload, ...]:
    """Ordinary request payloads: a last user message from *words*, tools now and then."""
    out: list[Payload] = []
    for _ in range(count or r.int(1, 5)):
        text = " ".join(r.pick(words or PROMPT_WORDS) for _ in range(r.int(1, 3)))
        payload: Payload = {"messages": [{"role": "user", "content": text}]}
        if r.chance(0.3):
            payload["messages"].insert(0, {"role": "system", "content": "You are a test."})
        if r.chance(0.3):
            payload["tools"] = [{"type": "function", "function": {"name": r.pick(["search", "calc"])}}]
        out.append(payload)
    return tuple(out)


# ----------------------------------------------------------------------------- the classes

Built = tuple[str, str, bytes, str]  # kind, suffix, data, probe


@dataclass(frozen=True)
class ClassSpec:
    """One boundary: how many cases of every hundred it gets, and how to build one."""

    weight: int
    build: Callable[[_R], dict[str, Any]]
    about: str


def _form_case(r: _R, doc: FormDoc, probe: str, suffix: str = ".form.yaml", **extra: Any) -> dict[str, Any]:
    return {"kind": "form", "suffix": suffix, "data": render(doc.node(), r).encode("utf-8"), "probe": probe, **extra}


def _script_case(
    r: _R, doc: ScriptDoc, probe: str, transcript: tuple[Payload, ...], suffix: str = ".script.yaml"
) -> dict[str, Any]:
    data = render(doc.node(), r).encode("utf-8")
    return {"kind": "script", "suffix": suffix, "data": data, "probe": probe, "transcript": transcript}


# -- loader and constructor boundaries (issue 12 item 2)

#: Explicit tags whose construction raises (KeyError, IndexError, AttributeError, ValueError,
#: or the constructor's own error).
FAILING_TAGS = [
    "!!bool maybe",
    "!!bool ''",
    "!!bool 2",
    '!!int ""',
    "!!int ''",
    "!!int x",
    "!!int 0x",
    "!!int 0b",
    "!!int ':'",
    '!!float ""',
    "!!float x",
    "!!float .",
    '!!timestamp "soon"',
    "!!timestamp ''",
    "!!timestamp 2024-13-45",
    "!!timestamp 2024-02-30",
    "!!binary '%%%'",
    "!!int [1]",
    "!!bool {a: 1}",
    "!!str [a]",
    "!!map [a]",
    "!!seq {a: 1}",
    "!!set [a]",
    "!!omap {a: 1}",
    "!!omap [1, 2]",
    "!!pairs {a: 1}",
    "!!null [1]",
    "!!value x",
    '!!str "\\U00110000"',  # the pure scanner's chr() raises ValueError, not a YAML error
    '"\\UFFFFFFFF"',
]


def _tag_failing(r: _R) -> dict[str, Any]:
    tag = r.pick(FAILING_TAGS)
    if r.chance(0.55):
        doc = form_doc(r, target="count", target_type=r.pick(FIELD_TYPES))
        where = r.pick(["value", "value", "default", "title", "description", "key"])
        if where == "value":
            doc.set_value("count", ("s", tag))
        elif where == "default":
            doc.set_decl("count", "default", ("s", tag))
        elif where == "title":
            doc.title = ("s", tag)
        elif where == "description":
            doc.set_decl("count", "description", ("s", tag))
        else:
            doc.values.append((tag, ("s", "1")))
        return _form_case(r, doc, f"{tag} as the {where}")
    sdoc = script_doc(r)
    slot = r.rng.randrange(len(sdoc.entries))
    where = r.pick(["content", "name", "argument", "version", "call_index", "chunk", "data"])
    node: Node = ("s", tag)
    if where == "content":
        sdoc.entries[slot] = entry(r, "text", content=node)
    elif where == "name":
        sdoc.entries[slot] = entry(r, "tool_call", name=node)
    elif where == "argument":
        sdoc.entries[slot] = entry(r, "tool_call", arguments=("m", [("q", node)]))
    elif where == "data":
        sdoc.entries[slot] = entry(r, "structured", data=("m", [("answer", node)]))
    elif where == "chunk":
        sdoc.entries[slot] = entry(r, "stream", chunks=("l", [("m", [("type", ("s", "text")), ("content", node)])]))
    elif where == "version":
        sdoc.header = [("version", node)]
    else:
        sdoc.entries[slot] = entry(r, when=("m", [("call_index", node)]))
    suffix = ".script.yaml" if r.chance(0.8) else r.pick([".script.json", ".script.yml", ".json"])
    return _script_case(r, sdoc, f"{tag} as the {where} ({suffix})", calls(r), suffix)


#: Tags that construct fine, tags that are refused as unknown or unsafe, and a bare ``!``.
OTHER_TAGS = [
    "!!set {a, b}",
    "!!set {}",
    "!!omap [a: 1, b: 2]",
    "!!omap []",
    "!!pairs [a: 1, a: 2]",
    "!!binary aGVsbG8=",
    "!!binary ''",
    "!foo x",
    "!!foo x",
    "!<tag:example.com,2000:x> y",
    "! 5",
    "!",
    "!!str 5",
    "!!str",
    "!!null ''",
    "!!float 1",
    "!!int 1_0",
    "!!timestamp 2001-12-14",
    "!!timestamp 2001-12-14 21:59:43.10 -5",
    "!!bool yes",
    "!!python/tuple [1, 2]",
    "!!python/name:os.system",
    "!!map {a: 1}",
    "!!seq [1]",
    "!!str !!int",
]


def _tag_other(r: _R) -> dict[str, Any]:
    tag = r.pick(OTHER_TAGS)
    if r.chance(0.55):
        declared = r.pick(FIELD_TYPES)
        doc = form_doc(r, target="meta", target_type=declared)
        where = r.pick(["value", "value", "default", "title"])
        if where == "value":
            doc.set_value("meta", ("s", tag))
        elif where == "default":
            doc.set_decl("meta", "default", ("s", tag))
            doc.values = [(n, v) for n, v in doc.values if n != "meta"]
        else:
            doc.title = ("s", tag)
        return _form_case(r, doc, f"{tag} as the {where} of a {declared} field")
    sdoc = script_doc(r)
    slot = r.rng.randrange(len(sdoc.entries))
    node: Node = ("s", tag)
    where = r.pick(["arguments", "data", "tool_output", "metadata", "responses", "content"])
    if where == "arguments":
        sdoc.entries[slot] = entry(r, "tool_call", arguments=node)
    elif where == "data":
        sdoc.entries[slot] = entry(r, "structured", data=node)
    elif where in ("tool_output", "metadata"):
        chunk = ("m", [("type", ("s", "tool_result")), (where, node)])
        sdoc.entries[slot] = entry(r, "stream", chunks=("l", [chunk]))
    elif where == "content":
        sdoc.entries[slot] = entry(r, "text", content=node)
    else:
        data = render(("m", [*sdoc.header, ("responses", node)]), r).encode("utf-8")
        return {"kind": "script", "suffix": ".script.yaml", "data": data, "probe": f"responses: {tag}"} | {
            "transcript": calls(r)
        }
    return _script_case(r, sdoc, f"{tag} as the {where}", calls(r))


# -- recursion (item 3)

#: Depths clear of the thresholds (the pure-Python loader gives way near 450 levels, json
#: near 950, both less the caller's stack): shallow, deep for YAML only, deep for both.
#: The pure-Python scanner takes time quadratic in the depth of flow nesting (0.4 s at 700
#: levels), so JSON texts past its limit mostly carry a tab it stops at early.
SHALLOW, YAML_DEEP, JSON_OK, TOO_DEEP = (2, 250), (520, 620), (560, 700), (1100, 1400)


def _nested(depth: int, shape: str, leaf: str = "1") -> str:
    if shape == "list":
        return "[" * depth + leaf + "]" * depth
    return '{"k": ' * depth + leaf + "}" * depth


def _nesting(r: _R) -> dict[str, Any]:
    band = r.pick(["shallow", "yaml_deep", "yaml_deep", "json_ok", "too_deep"])
    low, high = {"shallow": SHALLOW, "yaml_deep": YAML_DEEP, "json_ok": JSON_OK, "too_deep": TOO_DEEP}[band]
    depth = r.int(low, high)
    # Deep YAML lists are written as compact block sequences ("- - - 1"), which the pure
    # scanner reads in linear time; deep flow collections cost it quadratic time.
    shape = r.pick(["list", "list", "list", "dict"] if band == "yaml_deep" else ["list", "dict"])
    as_json = band in ("json_ok", "too_deep") or (band == "shallow" and r.chance(0.4))
    r.syntax = "json" if as_json else "yaml"
    early_tab = as_json and (band == "too_deep" or r.chance(0.85))
    style = "flow"
    nested: Node = ("s", _nested(depth, shape))
    if not as_json and shape == "list" and (band == "yaml_deep" or r.chance(0.3)):
        nested, style = ("raw", ["- " * depth + "1"]), "compact block"
    elif not as_json and band == "shallow" and r.chance(0.5):
        levels = min(depth - 1, r.int(5, 60))
        block = ["  " * i + "k:" for i in range(levels)]
        block[-1] += " " + _nested(depth - levels, shape)
        nested, style, shape = ("raw", block), "block, then flow", "dict"
    label = f"{band}: {shape} nested {depth} deep, {style} ({r.syntax})"
    if r.chance(0.6):
        doc = form_doc(r, target="values", target_type="list" if shape == "list" else "dict")
        doc.set_value("values", nested)
        suffix = ".form.json" if as_json and r.chance(0.5) else ".form.yaml"
        built = _form_case(r, doc, label, suffix)
    else:
        sdoc = script_doc(r)
        slot = r.rng.randrange(len(sdoc.entries))
        if band == "json_ok":
            depth = r.int(400, 520)  # json.load and json.dumps both take it
            nested = ("s", _nested(depth, shape))
            label = f"{band}: {shape} nested {depth} deep ({r.syntax})"
        if shape == "dict":
            sdoc.entries[slot] = entry(r, "structured", data=("m", [(r.key("deep"), nested)]))
        else:
            sdoc.entries[slot] = entry(r, "tool_call", arguments=("m", [(r.key("deep"), nested)]))
        suffix = ".script.json" if as_json else ".script.yaml"
        built = _script_case(r, sdoc, label, calls(r), suffix)
    if early_tab:  # YAML stops at the tab at once (sparing its quadratic scan); json takes it
        built["data"] = built["data"].replace(b": ", b":\t", 1)
        built["probe"] += ", a tab after the first colon"
    return built


# -- encodings (item 4 for surrogates)

SURROGATES = ["\\ud83d", "\\udc80", "\\ud83d\\ude00", "x\\udfffy", "\\ud800", "\\udbff\\udc00", "\\udcff tail"]


def _surrogates(r: _R) -> dict[str, Any]:
    r.syntax = "json" if r.chance(0.25) else "yaml"
    text = '"' + r.pick(SURROGATES) + '"'
    node: Node = ("s", text)
    if r.chance(0.55):
        doc = form_doc(r, target="name_1", target_type="str")
        where = r.pick(["value", "value", "title", "description", "default", "list", "key", "int value"])
        if where == "value":
            doc.set_value("name_1", node)
        elif where == "title":
            doc.title = node
        elif where == "description":
            doc.set_decl("name_1", "description", node)
        elif where == "default":
            doc.set_decl("name_1", "default", node)
            doc.values = [(n, v) for n, v in doc.values if n != "name_1"]
        elif where == "list":
            doc.set_decl("name_1", "type", r.s("list"))
            doc.set_value("name_1", ("l", [r.s("ok"), node]))
        elif where == "int value":
            doc.set_decl("name_1", "type", r.s("int"))
            doc.set_value("name_1", node)
        else:
            doc.values.append((text, r.s("v")))
            doc.fields.append((text, [("type", r.s("str"))]))
        suffix = ".form.json" if r.syntax == "json" and r.chance(0.5) else ".form.yaml"
        return _form_case(r, doc, f"{text} as the {where} ({r.syntax})", suffix)
    sdoc = script_doc(r)
    slot = r.rng.randrange(len(sdoc.entries))
    where = r.pick(["content", "content", "name", "argument", "data", "message", "chunk", "prompt_contains", "payload"])
    transcript = calls(r)
    if where == "content":
        sdoc.entries[slot] = entry(r, "text", content=node)
    elif where == "name":
        sdoc.entries[slot] = entry(r, "tool_call", name=node)
    elif where == "argument":
        sdoc.entries[slot] = entry(r, "tool_call", arguments=("m", [(r.key("q"), node)]))
    elif where == "data":
        sdoc.entries[slot] = entry(r, "structured", data=("m", [(r.key("answer"), node)]))
    elif where == "message":
        sdoc.entries[slot] = entry(r, "error", message=node)
    elif where == "chunk":
        chunk = ("m", [(r.key("type"), r.s("text")), (r.key("content"), node)])
        sdoc.entries[slot] = entry(r, "stream", chunks=("l", [chunk]))
    elif where == "prompt_contains":
        sdoc.entries.insert(0, entry(r, "text", when=("m", [(r.key("prompt_contains"), node)])))
        value = json.loads(text)
        transcript = ({"messages": [{"role": "user", "content": f"say {value}"}]}, *transcript)
    else:
        value = json.loads(text)
        transcript = ({"messages": [{"role": "user", "content": value}]}, *transcript)
    suffix = ".script.json" if r.syntax == "json" else ".script.yaml"
    return _script_case(r, sdoc, f"{text} as the {where} ({suffix})", transcript, suffix)


#: Where an encoding probe goes: a double-quoted scalar, the same spelling in YAML and JSON.
MARK = "Cafe-MARK"


#: Byte-level probes: what a file that is not UTF-8 looks like, and what UTF-8 text may carry.
NOT_UTF8 = ["latin-1", "utf-16", "utf-16-le", "utf-32", "cesu", "truncated", "overlong"]
IN_UTF8 = ["bom", "bom-late", "nul-raw", "nul-escaped", "control", "c1", "noncharacter", "del"]


def _not_utf8(r: _R) -> dict[str, Any]:
    return _encoded(r, r.pick(NOT_UTF8))


def _encodings(r: _R) -> dict[str, Any]:
    return _encoded(r, r.pick(IN_UTF8))


def _encoded(r: _R, how: str) -> dict[str, Any]:
    is_form = r.chance(0.55)
    r.syntax = "json" if r.chance(0.2) else "yaml"
    marker: Node = ("s", f'"{MARK}"')
    if is_form:
        doc = form_doc(r, target="name_1", target_type="str")
        if r.chance(0.5):
            doc.title = marker
        else:
            doc.set_value("name_1", marker)
        suffix = ".form.json" if r.syntax == "json" and r.chance(0.5) else ".form.yaml"
        built = _form_case(r, doc, "", suffix)
    else:
        sdoc = script_doc(r)
        sdoc.entries.insert(0, entry(r, "text", content=marker))
        suffix = ".script.json" if r.syntax == "json" else ".script.yaml"
        built = _script_case(r, sdoc, "", calls(r), suffix)
    text = built["data"].decode("utf-8")
    before, after = text.split(MARK, 1)
    raw = {
        "bom-late": "Ca\ufefffe",
        "nul-raw": "Ca\x00fe",
        "control": "Ca" + r.pick(["\x01", "\x1b", "\x08", "\x0c"]) + "fe",
        "c1": "Ca" + r.pick(["\x80", "\x9f", "\x85"]) + "fe",
        "noncharacter": "Ca" + r.pick(["\ufffe", "\uffff", "\U0001fffe"]) + "fe",
        "del": "Ca\x7ffe",
    }
    data: bytes
    if how in ("latin-1", "utf-16", "utf-16-le", "utf-32"):
        data = (before + "Café" + after).encode(how, "replace")
    elif how == "bom":
        data = b"\xef\xbb\xbf" + (before + "Cafe" + after).encode()
    elif how == "nul-escaped":
        escape = r.pick(["Ca\\0fe", "Ca\\x00fe", "Ca\\u0000fe"]) if r.syntax == "yaml" else "Ca\\u0000fe"
        data = (before + escape + after).encode()
    elif how in raw:
        data = (before + raw[how] + after).encode()
    elif how == "cesu":
        data = before.encode() + b"\xed\xa0\xbd\xed\xb8\x80" + after.encode()
    elif how == "overlong":
        data = before.encode() + b"\xc0\xaf" + after.encode()
    else:
        data = (before + "Cafe" + after).encode().rstrip(b"\n") + b"\xe2\x82"
    return built | {"data": data, "probe": f"{how} ({'form' if is_form else 'script'}, {r.syntax})"}


# -- values that contain themselves (item 5)

SELF_REFERENCES = ["&x [1, *x]", "&x [*x]", "&x {k: *x}", "&x {a: 1, self: [*x]}", "&x [a, {b: *x}]"]


def _self_reference(r: _R) -> dict[str, Any]:
    ref = r.pick(SELF_REFERENCES)
    node: Node = ("s", ref)
    if r.chance(0.55):
        declared = "list" if ref.startswith("&x [") else "dict"
        doc = form_doc(r, target="tags", target_type=r.pick([declared, declared, "str"]))
        where = r.pick(["value", "value", "value", "default", "title", "nested"])
        if where == "value":
            doc.set_value("tags", node)
        elif where == "default":
            doc.set_decl("tags", "default", node)
            doc.values = [(n, v) for n, v in doc.values if n != "tags"]
        elif where == "title":
            doc.title = node
        else:
            doc.set_decl("tags", "type", r.s("list"))
            doc.set_value("tags", ("l", [r.s("first"), node]))
        return _form_case(r, doc, f"{ref} as the {where}")
    sdoc = script_doc(r)
    slot = r.rng.randrange(len(sdoc.entries))
    if r.chance(0.3):  # the chunk, the chunk list or the entry itself held inside it
        holder = r.pick(
            [
                "&c {type: tool_result, tool_output: *c}",
                "&c {type: tool_result, tool_output: [*c]}",
                "&c {type: tool_use, tool_name: t, tool_input: *c}",
                "&c {type: text, content: hi, metadata: {self: *c}}",
                "&c {type: error, content: boom, tool_output: *c}",
            ]
        )
        shape = r.pick(["chunk", "chunk", "chunks", "entry"])
        if shape == "chunk":
            chunks = ("l", [("s", holder), ("m", [("type", ("s", "result"))])])
            sdoc.entries[slot] = entry(r, "stream", chunks=chunks)
        elif shape == "chunks":
            holder = "&l [{type: tool_result, tool_output: *l}, {type: result}]"
            sdoc.entries[slot] = entry(r, "stream", chunks=("s", holder))
        else:
            holder = r.pick(
                [
                    "&e {type: tool_call, name: t, arguments: {e: *e}}",
                    "&e {type: structured, data: {e: *e}}",
                    "&e {type: stream, chunks: [{type: tool_result, tool_output: *e}, {type: result}]}",
                    "&e {type: stream, chunks: [{type: tool_use, tool_name: t, tool_input: {e: *e}}]}",
                ]
            )
            sdoc.entries[slot] = ("s", holder)
        return _script_case(r, sdoc, f"{holder} as the {shape}", calls(r))
    where = r.pick(["data", "arguments", "tool_input", "metadata", "tool_output", "content"])
    mapping_ref = ("s", ref if ref.startswith("&x {") else "&x {k: *x}")
    if where == "data":
        sdoc.entries[slot] = entry(r, "structured", data=mapping_ref)
    elif where == "arguments":
        sdoc.entries[slot] = entry(r, "tool_call", arguments=mapping_ref)
    elif where == "content":
        sdoc.entries[slot] = entry(r, "text", content=node)
    else:
        value = mapping_ref if where != "tool_output" else node
        chunk = ("m", [("type", ("s", "tool_use")), (where, value)])
        sdoc.entries[slot] = entry(r, "stream", chunks=("l", [chunk, ("m", [("type", ("s", "result"))])]))
    return _script_case(r, sdoc, f"{ref} as the {where}", calls(r))


# -- values that expand through aliases past a million (issue 36)


def _ladder(r: _R) -> tuple[str, int]:
    """A flow sequence of rungs, each aliasing the one before *branch* times, then the last rung
    again: it expands to just past a million leaves (which lionagi renders and encodes in about
    a second), returned with that count."""
    branch = r.pick([10, 12, 16, 20, 32])
    leaf = r.pick(["x", "1", "'ab'", "null", "true", "{k: v}"])
    steps, sizes = [f"&a0 [{', '.join([leaf] * branch)}]"], [branch]
    while 2 * sizes[-1] * branch < 1_000_000:
        steps.append(f"&a{len(steps)} [{', '.join([f'*a{len(steps) - 1}'] * branch)}]")
        sizes.append(sizes[-1] * branch)
    # the last rung, written twice (itself, then its alias): just past the million
    need = -(-(1_000_000 - sum(sizes)) // (2 * sizes[-1])) + r.int(0, 1)
    steps.append(f"&a{len(steps)} [{', '.join([f'*a{len(steps) - 1}'] * need)}]")
    total = sum(sizes) + 2 * need * sizes[-1]
    return "[" + ", ".join([*steps, f"*a{len(steps) - 1}"]) + "]", total


def _alias_expansion(r: _R) -> dict[str, Any]:
    flow, total = _ladder(r)
    if r.chance(0.5):
        doc = form_doc(r, target="items", target_type=r.pick(["list", "list", "str"]))
        doc.set_value("items", ("s", flow))
        return _form_case(r, doc, f"values expand to about {total:,} items")
    sdoc = script_doc(r)
    slot = r.rng.randrange(len(sdoc.entries))
    where = r.pick(["data", "arguments"])
    value = ("s", f"{{items: {flow}}}")
    if where == "data":
        sdoc.entries[slot] = entry(r, "structured", data=value)
    else:
        sdoc.entries[slot] = entry(r, "tool_call", arguments=value)
    return _script_case(r, sdoc, f"{where} expand to about {total:,} values", calls(r, r.int(1, 2)))


# -- which loader a script's name picks (item 6)

ODD_SUFFIXES = [
    ".script.YAML",
    ".script.YML",
    ".script.Yaml",
    ".script.txt",
    ".script",
    "",
    ".script.yaml.bak",
    ".script.yml~",
    ".script.JSON",
    ".script.json",
    ".script.yaml",
    ".script.yml",
    ".yaml.json",
    ".json.yaml",
]


def _suffix(r: _R) -> dict[str, Any]:
    suffix = r.pick(ODD_SUFFIXES)
    spelling = r.pick(["yaml", "json", "json-tab"])
    r.syntax = "yaml" if spelling == "yaml" else "json"
    if r.chance(0.2):
        doc = form_doc(r)
        built = _form_case(r, doc, "", suffix.replace("script", "form"))
    else:
        built = _script_case(r, script_doc(r), "", calls(r), suffix)
    data = built["data"]
    if spelling == "json-tab":
        data = data.replace(b'": ', b'":\t')
    return built | {"data": data, "probe": f"{spelling} text named *{built['suffix']}"}


# -- the script's version (item 7)

VERSIONS_YAML = [
    "'2'",
    "2.0",
    "false",
    "true",
    "1.0e+3",
    '"3"',
    "0x10",
    "1_000",
    "2.5",
    "'x'",
    "~",
    "-1",
    "99999999999999999999",
    "' 4 '",
    "1e3",
    "!!float 2",
    "0",
    "'1.0'",
    "1:30",
    "017",
    "+2",
    "'+2'",
    "'0x10'",
    "3.0e+0",
    "[1]",
    "''",
    "'٣'",
    "yes",
    "1",
]
VERSIONS_JSON = ["2.0", "true", "false", '"2"', "1E2", "1e3", "-0.0", '"0"', "null", "1.5", '" 3"', "1", "3"]


def _version(r: _R) -> dict[str, Any]:
    r.syntax = "json" if r.chance(0.3) else "yaml"
    sdoc = script_doc(r)
    version = r.pick(VERSIONS_YAML if r.syntax == "yaml" else VERSIONS_JSON)
    sdoc.header = [("version", ("s", version)), *[(k, v) for k, v in sdoc.header if k != "version"]]
    r.rng.shuffle(sdoc.header)
    suffix = ".script.json" if r.syntax == "json" else r.pick([".script.yaml", ".script.yml"])
    return _script_case(r, sdoc, f"version: {version}", calls(r), suffix)


# -- regexes that fail to compile without re.error (item 8)


def _regex_compile(r: _R) -> dict[str, Any]:
    pattern = r.pick(
        [
            "a{4294967296}",
            "a{1,4294967296}",
            "x{99999999999999}",
            "(?a)(?u)x",
            "(?u)(?a)x",
            "(" * 1200 + "x" + ")" * 1200,
            "(" * 1500 + "x" + ")" * 1500,
            "(?L)x",
            "\\N{NOPE}",
            "(" * 60 + "h" + ")" * 60,
        ]
    )
    sdoc = script_doc(r)
    reached = r.chance(0.75)
    when: list[tuple[str, Node]] = [(r.key("prompt_regex"), r.s("'" + pattern + "'", _j(pattern)))]
    if not reached:
        when.append((r.key("call_index"), r.s("9", "9")))
    sdoc.entries.insert(r.int(0, 1) if reached else r.int(0, len(sdoc.entries)), entry(r, "text", when=("m", when)))
    sdoc.header = [(k, v) for k, v in sdoc.header if k != "mode"]
    label = pattern if len(pattern) < 30 else f"{pattern.count('(')} nested groups"
    return _script_case(r, sdoc, f"prompt_regex {label} ({'reached' if reached else 'never reached'})", calls(r))


# -- a prompt_regex the runtime answers slowly (issue 36)

#: (pattern, the prompt's repeated unit, its tail, the prompt's length for about 0.5 s of
#: search): each scans the rest of the prompt from every start, so the search grows with the
#: square of the prompt, and lionagi, given the time, answers.
SLOW_REGEXES = [
    ("a*b", "a", "", 22_000),
    ("a*cd|c$", "a", "c", 22_000),
    ("[ab]*c", "ab", "", 22_000),
    (".*foo$", "z", "", 34_000),
    ("\\s*x$", " ", "xy", 18_000),
    ("\\d+\\.", "7", "", 12_000),
    ("(?i)A*B", "a", "", 10_000),
    ("\\w+@", "x", "", 16_000),
    ("[ab]*c|d$", "ab", "d", 23_000),
    ("\\w+@|!$", "x", "!", 15_000),
]


def _slow_regex(r: _R) -> dict[str, Any]:
    """A script whose prompt_regex takes lionagi a noticeable time on a long prompt; formscript's
    ``simulate`` is given a tenth of a second before it measures the growth, so it goes the way
    a search longer than ``--regex-timeout`` goes, and must still name the entry served."""
    pattern, unit, tail, length = r.pick(SLOW_REGEXES)
    prompt = unit * max(1, int(length * r.pick([0.6, 0.8, 1.0, 1.2]) / len(unit))) + tail
    if r.chance(0.2):  # the match the tail allows is taken away
        prompt = prompt.removesuffix(tail) if tail else prompt
    sdoc = script_doc(r)
    if r.chance(0.8):  # positional mode never searches: mostly auto (or when_only)
        sdoc.header = [(k, v) for k, v in sdoc.header if k != "mode" or r.chance(0.3)]
    when: list[tuple[str, Node]] = [(r.key("prompt_regex"), r.s("'" + pattern.replace("'", "''") + "'", _j(pattern)))]
    sdoc.entries.insert(0 if r.chance(0.8) else 1, entry(r, "text", when=("m", when)))
    long_call: Payload = {"messages": [{"role": "user", "content": prompt}]}
    transcript = (long_call, *calls(r, r.int(1, 2)))
    if r.chance(0.2):
        transcript = (*transcript[1:], long_call)
    case = _script_case(r, sdoc, f"prompt_regex {pattern} on {len(prompt):,} characters", transcript)
    return {**case, "regex_timeout": 0.1}


# -- rulesets (items 9, 10, 11)


def _rule(r: _R, rule_id: str, field_name: str, check: str | None = None, **items: str) -> list[tuple[str, str]]:
    check = check or r.pick(["required", "type", "range", "pattern"])
    rule = [("rule_id", rule_id), ("field", field_name), ("check", check)]
    if check == "type":
        rule.append(("params", "{type: " + r.pick(["int", "str", "float"]) + "}"))
    elif check == "range":
        rule.append(("params", r.pick(["{min: 0}", "{min: 1, max: 100}", "{max: 10}"])))
    elif check == "pattern":
        rule.append(("params", r.pick(["{pattern: '^[a-z]+$'}", "{pattern: '\\d'}", "{pattern: x, flags: 2}"])))
    if r.chance(0.3):
        rule.append(("message", r.pick(["'must be set'", "'out of range'", "Bad value"])))
    if r.chance(0.15):
        rule.append(("enabled", r.pick(["true", "false"])))
    for key, value in items.items():
        rule = [(a, b) for a, b in rule if a != key] + [(key, value)]
    return rule


def _rules_text(r: _R, rules: list[list[tuple[str, str]] | str], top: str = "rules:") -> str:
    lines = ["# rules for the intake form"] if r.chance(0.3) else []
    lines.append(top)
    for rule in rules:
        if isinstance(rule, str):
            lines.append(f"  - {rule}")
            continue
        if r.chance(0.2):
            lines.append("  - {" + ", ".join(f"{k}: {v}" for k, v in rule) + "}")
            continue
        for index, (key, value) in enumerate(rule):
            lines.append(f"  {'-' if index == 0 else ' '} {key}: {value}")
    return "\n".join(lines) + "\n"


def _ruled_form(r: _R) -> FormDoc:
    doc = form_doc(r, target="age", target_type="int")
    if "email" not in [n for n, _ in doc.fields]:
        doc.fields.append(("email", [("type", ("s", "str"))]))
        doc.types["email"] = "str"
        doc.values.append(("email", ("s", r.pick(["a@b.c", "'x'", "hello", "'AB'"]))))
    doc.set_value("age", ("s", r.pick(["42", "7", "'12'", "0", "150", "-1"])))
    return doc


def _rules_case(r: _R, doc: FormDoc, rules_text: str, probe: str) -> dict[str, Any]:
    return _form_case(r, doc, probe, rules=rules_text.encode("utf-8"))


def _ruleset_build(r: _R) -> dict[str, Any]:
    doc = _ruled_form(r)
    fields = ["age", "email"]
    rules: list[list[tuple[str, str]] | str] = [_rule(r, f"r{i}", r.pick(fields)) for i in range(1, r.int(2, 5))]
    fault = r.pick(
        [
            "duplicate",
            "check",
            "enabled",
            "rule_id",
            "field",
            "params",
            "message",
            "missing",
            "non-string key",
            "not a mapping",
            "rules mapping",
            "rules scalar",
            "no rules",
            "syntax",
            "top-level list",
            "extra top-level key",
            "unknown rule key",
            "none",
        ]
    )
    slot = r.rng.randrange(len(rules))
    target = rules[slot]
    assert not isinstance(target, str)
    top = "rules:"
    text = None
    if fault == "duplicate":
        rules.append(_rule(r, dict(target)["rule_id"], r.pick(fields)))
    elif fault == "check":
        rules[slot] = [(k, v) for k, v in target if k not in ("check", "params")] + [
            ("check", r.pick(["regex", "Required", "min", "custom_check", "''", "~", "5"]))
        ]
    elif fault in ("enabled", "rule_id", "field", "params", "message"):
        wrong = {
            "enabled": ["maybe", "[]", "2", "0.5", "''", "~", "'yes'", "'on'", "1", "0", "{}"],
            "rule_id": ["5", "true", "~", "[a]", "1.5", "''", "{a: 1}"],
            "field": ["[age]", "5", "~", "{a: 1}", "true"],
            "params": ["[1]", "x", "5", "~", "''"],
            "message": ["5", "[m]", "true", "~", "{a: b}"],
        }[fault]
        value = r.pick(wrong)
        rules[slot] = [(k, v) for k, v in target if k != fault] + [(fault, value)]
        fault = f"{fault}: {value}"
    elif fault == "missing":
        gone = r.pick(["rule_id", "field", "check"])
        rules[slot] = [(k, v) for k, v in target if k != gone]
        fault = f"missing {gone}"
    elif fault == "non-string key":
        key = r.pick(["5", "true", "~", "1.5"])
        rules[slot] = [*target, (key, "x")]
        fault = f"key {key}"
    elif fault == "not a mapping":
        rules[slot] = r.pick(["just text", "[a, b]", "5", "~", "'r1'"])
    elif fault == "rules mapping":
        lines = ["rules:"]
        for index, rule in enumerate(rules):
            assert not isinstance(rule, str)
            lines.append(f"  r{index}: {{" + ", ".join(f"{k}: {v}" for k, v in rule) + "}")
        text = "\n".join(lines) + "\n"
    elif fault == "rules scalar":
        text = "rules: " + r.pick(["~", "x", "5", "{}", "''"]) + "\n"
    elif fault == "no rules":
        text = r.pick(["", "# nothing yet\n", "rule:\n  - {rule_id: a, field: age, check: required}\n", "{}\n"])
    elif fault == "syntax":
        text = _rules_text(r, rules)
        breakage = r.pick(["unterminated", "indent", "tab", "flow"])
        if breakage == "unterminated":
            text = text.replace("rule_id: ", "rule_id: 'open ", 1)
        elif breakage == "indent":
            text = text.replace("\n    field:", "\n      field:", 1)
        elif breakage == "tab":
            text = text.replace("\n    ", "\n\t", 1)
        else:
            text += "  - {rule_id: zz, field: age\n"
        fault = f"syntax ({breakage})"
    elif fault == "top-level list":
        text = "".join(
            "- {" + ", ".join(f"{k}: {v}" for k, v in rule) + "}\n" for rule in rules if isinstance(rule, list)
        )
    elif fault == "extra top-level key":
        top = r.pick(["version: 1\nrules:", "name: intake\nrules:"])
    elif fault == "unknown rule key":
        rules[slot] = [*target, (r.pick(["severity", "params_", "note"]), "x")]
    if text is None:
        text = _rules_text(r, rules, top)
    return _rules_case(r, doc, text, fault)


def _ruleset_custom(r: _R) -> dict[str, Any]:
    doc = _ruled_form(r)
    fields = ["age", "email", "missing_field"]
    rules: list[list[tuple[str, str]] | str] = [_rule(r, f"r{i}", r.pick(fields[:2])) for i in range(1, r.int(1, 3))]
    params = r.pick(["{}", "{callable: is_adult}", "{callable: 5}", "{error: 'not allowed'}", "{callable: ~}", None])
    custom = [("rule_id", "c1"), ("field", r.pick(fields)), ("check", "custom")]
    if params is not None:
        custom.append(("params", params))
    if r.chance(0.3):
        custom.append(("enabled", r.pick(["false", "true"])))
    if r.chance(0.3):
        custom.append(("message", "'custom failed'"))
    rules.insert(r.int(0, len(rules)), custom)
    return _rules_case(r, doc, _rules_text(r, rules), f"custom check, params {params}")


def _raw_rule(field_name: str, check: str, params: str) -> list[tuple[str, str]]:
    return [("rule_id", "x1"), ("field", field_name), ("check", check), ("params", params)]


def _rule_apply(r: _R) -> dict[str, Any]:
    doc = _ruled_form(r)
    rules: list[list[tuple[str, str]] | str] = [_rule(r, f"r{i}", r.pick(["age", "email"])) for i in range(r.int(0, 2))]
    fault = r.pick(["range", "range", "flags", "flags", "debug", "pattern", "type", "regex"])
    if fault == "range":
        params = r.pick(["{min: '3'}", "{max: [1]}", "{min: {a: 1}}", "{min: '0', max: 10}", "{max: x}", "{min: true}"])
        rule = _raw_rule(r.pick(["age", "age", "email"]), "range", params)
    elif fault == "flags":
        flags = r.pick(["x", "[2]", "'2'", "2.7", "-1", "1024", "~", "{}"])
        rule = _raw_rule("email", "pattern", f"{{pattern: a, flags: {flags}}}")
        params = f"flags {flags}"
    elif fault == "debug":
        rule = _raw_rule("email", "pattern", "{pattern: '^[a-z]', flags: 128}")
        params = "flags 128 (re.DEBUG)"
    elif fault == "pattern":
        pattern = r.pick(["5", "[a]", "~", "{a: 1}", "true"])
        rule = _raw_rule("email", "pattern", f"{{pattern: {pattern}}}")
        params = f"pattern {pattern}"
    elif fault == "regex":
        pattern = r.pick(["'a{4294967296}'", "'(?a)(?u)x'", "'" + "(" * 1200 + "x" + ")" * 1200 + "'", "'(x'"])
        rule = _raw_rule("email", "pattern", f"{{pattern: {pattern}}}")
        params = f"pattern {pattern[:20]}"
    else:
        kind = r.pick(["[int]", "{a: 1}", "~", "5", "decimal"])
        rule = _raw_rule(r.pick(["age", "email"]), "type", f"{{type: {kind}}}")
        params = f"type {kind}"
    if r.chance(0.15):
        rule.append(("enabled", "false"))
    rules.insert(r.int(0, len(rules)), rule)
    if r.chance(0.2):
        doc.set_value(dict(rule)["field"], ("s", "~"))
    return _rules_case(r, doc, _rules_text(r, rules), f"{fault}: {params}")


# -- the prompt cap (item 1)


def _prompt_cap(r: _R) -> dict[str, Any]:
    doc = FormDoc(r)
    doc.title = ("s", "'Cap test'")
    names = r.rng.sample(["name_1", "email", "title", "meta", "score"], r.int(1, 3))
    for name in names:
        doc.fields.append((name, [("type", ("s", "str"))]))
        doc.values.append((name, ("s", r.pick(["ok", "'short text'", "hello"]))))
    shape = r.pick(["aliases", "aliases", "title alias", "near cap", "near cap", "small"])
    prompt = r.pick(["Summarise the form.", "go", "Check the values above and answer yes or no."])
    size = r.int(20_000, 40_000)
    word = "A" * size
    if shape in ("aliases", "title alias"):
        repeats = PROMPT_CAP // size + r.int(1, 3)
        doc.fields.append(("tags", [("type", ("s", "list"))]))
        doc.values.append(("big", ("s", f"&big {word}")))
        doc.fields.append(("big", [("type", ("s", "str"))]))
        doc.values.append(("tags", ("s", "[" + ", ".join(["*big"] * repeats) + "]")))
        if shape == "title alias":
            doc.title, doc.title_last = ("s", "*big"), True
            doc.values = [(n, v) for n, v in doc.values if n != "tags"]
            doc.fields = [(n, d) for n, d in doc.fields if n != "tags"]
            prompt = "x" * (PROMPT_CAP - 2 * size + r.int(-5, 5))
            probe = f"{shape}: {size}-character title, prompt {len(prompt)}"
        else:
            probe = f"{shape}: {size}-character value, prefix ~{repeats * (size + 4) // 1000}k"
    elif shape == "near cap":
        doc.values.append(("big", ("s", word)))
        doc.fields.append(("big", [("type", ("s", "str"))]))
        title = "Cap test"
        lines = [f"[Work Form: {title}]"] + [f"  {n}: {_plain_repr(v)}" for n, v in doc.values]
        prefix = len("\n".join(lines)) + 2
        delta = r.pick([-1, 0, 1, 2, -100])
        prompt = "p" * (PROMPT_CAP - prefix + delta)
        probe = f"prefix {prefix} + prompt {len(prompt)} = cap {delta:+d}"
    else:
        probe = "small prefix, short prompt"
    return _form_case(r, doc, probe, prompt=prompt)


def _plain_repr(node: Node) -> str:
    text = str(node[1])
    if text.startswith("'") and text.endswith("'"):
        text = text[1:-1]
    return repr(text)


# -- paths that are not files (item 13)


def _not_a_file(r: _R) -> dict[str, Any]:
    kind = r.pick(["form", "script"])
    suffix = r.pick([f".{kind}.yaml", f".{kind}.yml", f".{kind}.json", ".yaml"])
    node = r.pick(["directory", "directory-with-file", "dangling-symlink", "symlink-to-directory"])
    inner = b""
    if node == "directory-with-file":
        inner = render(form_doc(r).node() if kind == "form" else script_doc(r).node(), r).encode()
    transcript = calls(r) if kind == "script" else ()
    return {"kind": kind, "suffix": suffix, "data": inner, "probe": f"a {node} named *{suffix}", "node": node} | (
        {"transcript": transcript} if transcript else {}
    )


# -- file names: the title defaults to the path, and every output names the file

ODD_NAMES = [
    " with space",
    "-é",
    "-😀",
    "[1]",
    "'quote",
    '"double',
    "\\backslash",
    "\nnewline",
    "\ttab",
    "#hash",
    "%percent",
    "~tilde",
]


#: Names that are not UTF-8 (a Latin-1 name's bytes, as Python names them: surrogateescape).
NON_UTF8_NAMES = ["-\udce9", "-caf\udce9", "-\udcff\udcfe", "-\udc80"]


def _non_utf8_name(r: _R) -> dict[str, Any]:
    return _named(r, r.pick(NON_UTF8_NAMES))


def _odd_path(r: _R) -> dict[str, Any]:
    return _named(r, r.pick(ODD_NAMES))


def _named(r: _R, odd: str) -> dict[str, Any]:
    if r.chance(0.6):
        doc = form_doc(r)
        doc.title = None  # the path is the title
        built = _form_case(r, doc, "", r.pick([".form.yaml", ".form.yml", ".form.json"]))
    else:
        built = _script_case(r, script_doc(r), "", calls(r), r.pick([".script.yaml", ".script.yml"]))
    return built | {"name_suffix": odd, "probe": f"a {built['kind']} named {odd!r}"}


# -- numeric limits

#: Ints past Python's 4,300-digit limit for decimal text: written in decimal they fail to
#: load; in hex, octal or binary they load, and then every repr of them raises.
HUGE_INTS = ["1" + "0" * 5000, "0x" + "f" * 3600, "-0x" + "a" * 4000, "0b" + "1" * 14400, "0" + "7" * 5000]
NUMBERS_YAML = [
    "99999999999999999999999",
    "-99999999999999999999",
    "1e999",
    "1.0e+999",
    "-1.0e+999",
    ".nan",
    ".NaN",
    ".inf",
    "1:30",
    "-1:30",
    "1:30.5",
    "190:20:30",
    "017",
    "08",
    "0x",
    "0x_1F",
    "1_000",
    "_1",
    "1__0",
    "0.1_5",
    "1_0.5",
    "5.",
    "+.inf",
    "0b_1",
    "-0b1",
    "1.5e3",
    "1.5e+3",
    "1.7976931348623157e+308",
    "1.8e+308",
    "4.9e-324",
    "2.0e-400",
    '"1e999"',
    '"' + "9" * 5000 + '"',
    '" 1_000 "',
    '"١٢٣"',
    '"٣.٥"',
    '"1_0.5"',
    '"1e-400"',
    '"-inf"',
    '"+1"',
    '"0x1F"',
]
NUMBERS_JSON = ["1e999", "-1e999", "1E400", "-0", "1.7976931348623157e+308", "99999999999999999999"]


def _numeric(r: _R) -> dict[str, Any]:
    r.syntax = "json" if r.chance(0.25) else "yaml"
    return _number_case(r, r.pick(NUMBERS_YAML if r.syntax == "yaml" else NUMBERS_JSON))


def _huge_ints(r: _R) -> dict[str, Any]:
    if r.chance(0.25):  # json.loads refuses 4,300 digits and more with a ValueError
        r.syntax = "json"
        return _number_case(r, r.pick(["1" + "0" * 5000, "-" + "9" * 4301, "1" + "0" * 4300 + ".5"]))
    r.syntax = "yaml"
    return _number_case(r, r.pick(HUGE_INTS))


def _number_case(r: _R, number: str) -> dict[str, Any]:
    node: Node = ("s", number)
    label = number if len(number) < 24 else f"{number[:6]}…({len(number)} chars)"
    if r.chance(0.6):
        declared = r.pick(["int", "int", "float", "float", "str", "bool"])
        doc = form_doc(r, target="score", target_type=declared)
        if r.chance(0.8):
            doc.set_value("score", node)
            where = "value"
        else:
            doc.set_decl("score", "default", node)
            doc.values = [(n, v) for n, v in doc.values if n != "score"]
            where = "default"
        suffix = ".form.json" if r.syntax == "json" and r.chance(0.5) else ".form.yaml"
        return _form_case(r, doc, f"{label} as the {where} of a {declared} field", suffix)
    sdoc = script_doc(r)
    slot = r.rng.randrange(len(sdoc.entries))
    where = r.pick(["call_index", "after_calls", "argument", "tool_output", "data"])
    if where in ("call_index", "after_calls"):
        sdoc.entries.insert(0, entry(r, "text", when=("m", [(r.key(where), node)])))
    elif where == "argument":
        sdoc.entries[slot] = entry(r, "tool_call", arguments=("m", [(r.key("n"), node)]))
    elif where == "data":
        sdoc.entries[slot] = entry(r, "structured", data=("m", [(r.key("n"), node)]))
    else:
        chunk = ("m", [(r.key("type"), r.s("tool_result")), (r.key("tool_output"), node)])
        sdoc.entries[slot] = entry(r, "stream", chunks=("l", [chunk]))
    suffix = ".script.json" if r.syntax == "json" else ".script.yaml"
    return _script_case(r, sdoc, f"{label} as the {where} ({suffix})", calls(r), suffix)


# -- libyaml versus the pure-Python loader


FLOW_QUESTIONS = ["{? a: 1}", "{a: ?x}", "[? a : b]", "[a?b, c]", "{a?: 1}", "[?]", "{? a}", "[? a]", "{a: [? b]}"]
DIRECTIVES = ["%YAML 1.1", "%YAML 1.2", "%YAML 1.3", "%YAML 2.0", "%TAG ! tag:example.com,2000:", "%FOO bar"]


def _dialect(r: _R) -> dict[str, Any]:
    is_form = r.chance(0.55)
    how = r.pick(
        [
            "tab",
            "tab",
            "flow ?",
            "bom",
            "line ends",
            "line ends",
            "indentation",
            "directive",
            "documents",
            "long key",
            "escapes",
            "nbsp",
            "separator in scalar",
            "block header",
        ]
    )
    style: dict[str, Any] = {}
    if how == "indentation":
        style = {"step": r.pick([1, 3, 4, 5]), "seq_indent": r.chance(0.5)}
    if is_form:
        doc = form_doc(r, target="name_1", target_type=r.pick(["str", "list", "dict"]))
        base = render(doc.node(), r, **style)
        key = "name_1:"
        transcript: tuple[Payload, ...] = ()
    else:
        sdoc = script_doc(r)
        sdoc.entries.insert(r.int(0, 1), entry(r, "text", content=r.s(r.pick(PROMPT_WORDS))))
        base = render(sdoc.node(), r, **style)
        key = "content:"
        transcript = calls(r)
    at = base.rfind(key) if is_form else base.find(key)
    at = at + len(key) if at >= 0 else 0
    line_end = base.find("\n", at)
    text = base
    detail = how
    if how == "tab":
        spot = r.pick(["after colon", "before comment", "in flow", "in plain", "indent", "after dash", "trailing"])
        if spot == "after colon":
            text = base[:at] + "\t" + base[at:].lstrip(" ")
        elif spot == "before comment":
            text = base[:line_end] + "\t# c" + base[line_end:]
        elif spot == "in flow":
            text = base[:at] + " [a,\tb]" + base[line_end:]
        elif spot == "in plain":
            text = base[:at] + " a\tb" + base[line_end:]
        elif spot == "indent":
            start = base.rfind("\n", 0, at) + 1
            text = base[:start] + "\t" + base[start:]
        elif spot == "after dash":
            text = base[:at] + "\n  -\tx\n  - y" + base[line_end:]
        else:
            text = base[:line_end] + "\t" + base[line_end:]
        detail = f"tab {spot}"
    elif how == "flow ?":
        flow = r.pick(FLOW_QUESTIONS)
        text = base[:at] + " " + flow + base[line_end:]
        detail = f"flow {flow}"
    elif how == "bom":
        spot = r.pick(["start", "start, then ---", "in a quoted value"])
        if spot == "start":
            text = "\ufeff" + base
        elif spot == "start, then ---":
            text = "\ufeff---\n" + base
        else:
            text = base[:at] + ' "a\ufeffb"' + base[line_end:]
        detail = f"BOM {spot}"
    elif how == "line ends":
        ending = r.pick(["\r", "\r\n", "\x85", "\u2028", "\u2029", "mixed"])
        if r.chance(0.3):
            base = base[:at] + ' "multi' + r.pick(["\x85", "\u2028", "\r", "\n  "]) + 'line"' + base[line_end:]
        if ending == "mixed":
            parts = base.split("\n")
            text = "".join(p + r.pick(["\n", "\r\n", "\r", "\x85", "\u2028"]) for p in parts[:-1]) + parts[-1]
        else:
            text = base.replace("\n", ending)
        detail = f"line ends {ending!r}"
    elif how == "indentation":
        detail = f"indentation step {style['step']}, sequences {'indented' if style['seq_indent'] else 'flush'}"
        if r.chance(0.3):
            lines = base.split("\n")
            index = r.int(1, max(1, len(lines) - 2))
            lines[index] = " " + lines[index]
            text = "\n".join(lines)
            detail += ", one line off by one"
    elif how == "directive":
        directive = r.pick(DIRECTIVES)
        text = directive + "\n---\n" + base.replace("---\n", "", 1)
        detail = directive
    elif how == "documents":
        form = r.pick(["--- twice", "... then content", "--- |", "--- then ---"])
        if form == "--- twice":
            text = "---\n" + base + "---\n" + base
        elif form == "... then content":
            text = base + "...\n# trailing\n"
        elif form == "--- |":
            text = "--- |\n  " + base.replace("\n", "\n  ")
        else:
            text = base + "---\n"
        detail = f"documents: {form}"
    elif how == "long key":
        size = r.pick([1000, 1024, 1025, 1100])
        text = base[: at - len(key)] + "k" * size + ": 1\n" + base[at - len(key) :]
        detail = f"a {size}-character key"
    elif how == "escapes":
        escape = r.pick(['"\\/"', '"\\N\\_\\L\\P"', '"\\e\\a"', '"\\x41"', '"\\U0001F600"', '"\\q"'])
        text = base[:at] + " " + escape + base[line_end:]
        detail = f"escape {escape}"
    elif how == "block header":
        header = r.pick(["|#c", ">#c", "|-#c", ">+#c", "|2#c", "| #c", "|x", "|-", "> # c"])
        text = base[:at] + f" {header}\n    words\n    more" + base[line_end:]
        detail = f"block scalar header {header!r}"
    elif how == "nbsp":
        text = base[:at] + "\xa0" + base[at:].lstrip(" ")
        detail = "no-break space after the colon"
    else:
        sep = r.pick(["\u2028", "\u2029", "\x85"])
        text = base[:at] + f" first{sep}second" + base[line_end:]
        detail = f"{sep!r} inside a plain scalar"
    built = {"data": text.encode("utf-8"), "probe": detail}
    if is_form:
        return {"kind": "form", "suffix": ".form.yaml", **built}
    return {"kind": "script", "suffix": ".script.yaml", "transcript": transcript, **built}


# -- a BOM that is not the first character


def _bom_inside(r: _R) -> dict[str, Any]:
    is_form = r.chance(0.55)
    if is_form:
        doc = form_doc(r, target="name_1", target_type="str")
        base = render(doc.node(), r)
        transcript: tuple[Payload, ...] = ()
    else:
        base = render(script_doc(r).node(), r)
        transcript = calls(r)
    lines = base.split("\n")
    spot = r.pick(
        ["after ---", "line start", "last line", "before a comment", "after the last line", "in a plain value"]
    )
    index = r.int(1, max(1, len(lines) - 2))
    if spot == "after ---":
        text = "---\n\ufeff" + base
    elif spot == "line start":
        lines[index] = "\ufeff" + lines[index]
        text = "\n".join(lines)
    elif spot == "last line":
        text = base + "\ufeff\n"
    elif spot == "before a comment":
        lines.insert(index, "\ufeff# pasted from another file")
        text = "\n".join(lines)
    elif spot == "after the last line":
        text = base + "\ufeff"
    else:
        key = "name_1:" if is_form else "content:"
        at = base.rfind(key) if is_form else base.find(key)
        at = at + len(key) if at >= 0 else 0
        line_end = base.find("\n", at)
        text = base[:at] + " a\ufeffb" + base[line_end:]
    built = {"data": text.encode("utf-8"), "probe": f"BOM {spot} ({'form' if is_form else 'script'})"}
    if is_form:
        return {"kind": "form", "suffix": ".form.yaml", **built}
    return {"kind": "script", "suffix": ".script.yaml", "transcript": transcript, **built}


# -- payload shapes


def _payload_shapes(r: _R) -> dict[str, Any]:
    sdoc = script_doc(r)
    word = r.pick(["hello", "weather", "report"])
    matchers = [
        entry(r, "text", when=("m", [("prompt_contains", ("s", word))])),
        entry(r, "text", when=("m", [("prompt_regex", ("s", f"'^{word}'"))])),
        entry(r, "text", when=("m", [("has_tool", ("s", "search"))])),
    ]
    for m in r.rng.sample(matchers, r.int(1, 3)):
        sdoc.entries.insert(r.int(0, len(sdoc.entries)), m)
    shapes: list[tuple[str, Any]] = [
        ("messages null", {"messages": None}),
        ("messages a string", {"messages": word}),
        ("messages a mapping", {"messages": {"role": "user", "content": word}}),
        ("a message not a mapping", {"messages": [word, {"role": "user", "content": word}]}),
        ("role USER", {"messages": [{"role": "USER", "content": word}]}),
        ("no role", {"messages": [{"content": word}]}),
        (
            "content null, user before",
            {"messages": [{"role": "user", "content": word}, {"role": "user", "content": None}]},
        ),
        ("content a mapping", {"messages": [{"role": "user", "content": {"text": word}}]}),
        ("content parts", {"messages": [{"role": "user", "content": [{"type": "text", "text": word}, "stray"]}]}),
        ("content part without text", {"messages": [{"role": "user", "content": [{"type": "image_url"}]}]}),
        ("content part text an int", {"messages": [{"role": "user", "content": [{"type": "text", "text": 5}]}]}),
        ("content empty list", {"messages": [{"role": "user", "content": []}]}),
        ("input a string", {"input": word}),
        ("input a list", {"input": [{"role": "user", "content": word}]}),
        ("input and messages", {"input": word, "messages": [{"role": "user", "content": "other"}]}),
        ("empty payload", {}),
        ("tools a mapping", {"messages": [{"role": "user", "content": word}], "tools": {"search": {}}}),
        ("tools null", {"messages": [{"role": "user", "content": word}], "tools": None}),
        ("tools strings", {"messages": [{"role": "user", "content": word}], "tools": ["search"]}),
        ("tool function null", {"tools": [{"type": "function", "function": None, "name": "search"}]}),
        ("tool function a string", {"tools": [{"type": "function", "function": "search"}]}),
        ("tool name at top", {"tools": [{"type": "function", "name": "search"}]}),
        ("tool function without name", {"tools": [{"type": "function", "function": {}, "name": "search"}]}),
        ("assistant last", {"messages": [{"role": "user", "content": word}, {"role": "assistant", "content": "ok"}]}),
        ("model empty", {"messages": [{"role": "user", "content": word}], "model": ""}),
        ("model set", {"messages": [{"role": "user", "content": word}], "model": "gpt-test"}),
    ]
    label, payload = r.pick(shapes)
    transcript = list(calls(r, words=[word, "other"]))
    transcript.insert(r.int(0, len(transcript)), payload)
    return _script_case(r, sdoc, f"payload: {label}", tuple(transcript))


# -- what a Branch sends (issue 12 item 14)

#: What tests pass to ``branch.chat``: text YAML prints plainly, quoted, escaped or as a block.
CHAT_TEXTS: list[Any] = [
    "hello",
    "hello there",
    "Hello, what is the weather?",
    "it's: raining",
    "yes",
    "a: b",
    "line one\nline two",
    "line one\nline two\n",
    "  padded  ",
    "#hashtag",
    "Привет, мир",
    "emoji 😀",
    "42",
    "",
    "tab\there",
    "- item",
    "'quoted'",
    "search the web",
    7,
    {"q": "hello"},
    ["hello", "world"],
]
#: Guidance and context values: text, mappings, lists, and values the Branch drops.
CHAT_VALUES: list[Any] = [
    "be brief",
    "Answer in one word.",
    {"city": "Oslo", "days": 3},
    ["hello", "weather"],
    {"note": "multi\nline"},
    [1, {"x": ""}, None],
    "",
    "   ",
    0,
    False,
    None,
    "Context matters",
]
_SEARCH = {"type": "function", "function": {"name": "search", "parameters": {"type": "object"}}}
_CALC = {"type": "function", "function": {"name": "calc"}}
#: Matchers written for the text a test passes, and for what the Branch adds around it.
CHAT_MATCHERS: list[tuple[str, str]] = [
    ("prompt_regex", "^hello"),
    ("prompt_regex", "hello$"),
    ("prompt_regex", "^Instruction: hello"),
    ("prompt_regex", "(?m)^line two"),
    ("prompt_regex", "^line one\nline two"),
    ("prompt_regex", "it's"),
    ("prompt_regex", "^- item"),
    ("prompt_contains", "hello"),
    ("prompt_contains", "it's: raining"),
    ("prompt_contains", "line one\nline two"),
    ("prompt_contains", "'quoted'"),
    ("prompt_contains", "tab\there"),
    ("prompt_contains", "context"),
    ("prompt_contains", "guidance:"),
    ("prompt_contains", "weather"),
    ("prompt_contains", "Oslo"),
    ("has_tool", "search"),
    ("has_tool", "calc"),
]


def _chat_item(r: _R) -> Payload:
    item: Payload = {"chat": r.pick(CHAT_TEXTS)}
    if r.chance(0.35):
        item["guidance"] = r.pick(CHAT_VALUES)
    if r.chance(0.35):
        item["context"] = r.pick(CHAT_VALUES)
    if r.chance(0.1):
        item["plain_content"] = r.pick(["hello", "raw text", "", "line one\nline two"])
    if r.chance(0.3):
        item["tool_schemas"] = r.pick([[_SEARCH], [_SEARCH, _CALC], {"tools": [_CALC]}, _SEARCH, []])
    if r.chance(0.25):
        item["tools"] = r.pick([[_SEARCH], [_CALC], []])
    return item


def _branch_chat(r: _R) -> dict[str, Any]:
    sdoc = script_doc(r, entries=r.int(1, 3))
    kinds = []
    for _ in range(r.int(1, 3)):
        kind, value = r.pick(CHAT_MATCHERS)
        kinds.append(kind)
        when = ("m", [(kind, ("s", json.dumps(value, ensure_ascii=False)))])
        sdoc.entries.insert(r.int(0, len(sdoc.entries)), entry(r, "text", when=when))
    transcript: list[Payload] = [_chat_item(r) for _ in range(r.int(1, 4))]
    if r.chance(0.2):  # a raw payload among the chats, as a test that also calls the endpoint
        transcript.insert(r.int(0, len(transcript)), calls(r, count=1)[0])
    options = sorted({k for item in transcript for k in item if k != "chat"})
    probe = f"chat with {', '.join(options) or 'no options'}; {', '.join(sorted(set(kinds)))}"
    return _script_case(r, sdoc, probe, tuple(transcript))


# -- keys and values that are bytes (!!binary): pydantic's str reads them as UTF-8


def _b64(text: str) -> str:
    import base64

    return "!!binary " + base64.b64encode(text.encode("latin-1")).decode("ascii")


#: Texts a ``!!binary`` node spells: names, words the runtime knows, bytes that are not UTF-8.
BINARY_TEXTS = [
    "hi",
    "age",
    "_",
    "1x",
    "",
    "a b",
    "x\n",
    "\xff",
    "\xc3\xa9",
    "type",
    "auto",
    "text",
    "rate_limit",
    "1",
    "true",
]


def _binary(r: _R) -> dict[str, Any]:
    text = r.pick(BINARY_TEXTS)
    node: Node = ("s", _b64(text))
    shown = f"!!binary of {text!r}"
    if r.chance(0.6):
        doc = form_doc(r, target="name_1", target_type=r.pick(["str", "str", "int", "list"]))
        where = r.pick(
            [
                "field key",
                "field key",
                "both keys",
                "both keys",
                "value key",
                "value",
                "title",
                "type",
                "description",
                "default",
                "required",
            ]
        )
        if where in ("field key", "both keys"):
            decl = [("type", r.s(r.pick(["str", "int"])))]
            if r.chance(0.5):
                decl.append(("required", r.s("false")))
            if r.chance(0.3):
                decl.append(("default", r.s(r.pick(["3", "x", "'3'"]))))
            key = node[1]  # a tagged plain scalar is a key like any other
            doc.fields.append((key, decl))
            if where == "both keys":
                doc.values.append((key, r.s(r.pick(["x", "5", "[a]"]))))
            if r.chance(0.3):  # the same name written as text too
                doc.fields.append(
                    (text if text.isidentifier() else "plain", [("type", r.s("str")), ("required", r.s("false"))])
                )
        elif where == "value key":
            doc.values.append((node[1], r.s("x")))
        elif where == "value":
            doc.set_value("name_1", node)
        elif where == "title":
            doc.title = node
        elif where == "required":
            doc.set_decl("name_1", "required", node)
        else:
            doc.set_decl("name_1", where, node)
        return _form_case(r, doc, f"{shown} as the {where}")
    sdoc = script_doc(r)
    slot = r.rng.randrange(len(sdoc.entries))
    where = r.pick(
        [
            "content",
            "entry key",
            "type",
            "name",
            "argument key",
            "data key",
            "when key",
            "prompt_contains",
            "version",
            "mode",
            "kind",
            "chunk",
        ]
    )
    key = node[1]
    if where == "content":
        sdoc.entries[slot] = entry(r, "text", content=node)
    elif where == "entry key":
        base = entry(r, r.pick(["text", "tool_call"]))
        sdoc.entries[slot] = ("m", [*base[1], (key, r.s("x"))])
    elif where == "type":
        sdoc.entries[slot] = entry(r, "text", type=node)
    elif where == "name":
        sdoc.entries[slot] = entry(r, "tool_call", name=node)
    elif where == "argument key":
        sdoc.entries[slot] = entry(r, "tool_call", arguments=("m", [(key, r.s("1"))]))
    elif where == "data key":
        sdoc.entries[slot] = entry(r, "structured", data=("m", [(key, r.s("1"))]))
    elif where == "when key":
        sdoc.entries.insert(0, entry(r, "text", when=("m", [(key, r.s(r.pick(["hello", "0", "1"])))])))
    elif where == "prompt_contains":
        sdoc.entries.insert(0, entry(r, "text", when=("m", [("prompt_contains", node)])))
    elif where in ("version", "mode"):
        sdoc.header = [(where, node)]
    elif where == "kind":
        sdoc.entries[slot] = entry(r, "error", kind=node)
    else:
        chunk = ("m", [("type", ("s", "text")), ("content", node), ("is_delta", node)])
        sdoc.entries[slot] = entry(r, "stream", chunks=("l", [chunk]))
    return _script_case(r, sdoc, f"{shown} as the {where}", calls(r, words=["hi", "hello", "type"]))


# -- merge keys and duplicate keys: what the constructor keeps

#: Values of a ``<<`` key: mappings (one, a list, an alias, nested), and what is not one.
MERGES = [
    "{type: str}",
    "{type: int, required: false}",
    "[{type: str}, {type: int}]",
    "[{required: false}, {type: bool}]",
    "*base",
    "[*base, {required: false}]",
    "{}",
    "[]",
    "5",
    "~",
    "x",
    "[5]",
    "[{type: str}, x]",
    "{<<: {type: float}}",
    "!!map {type: list}",
]


def _merge_dupes(r: _R) -> dict[str, Any]:
    how = r.pick(["merge", "merge", "merge", "duplicate", "duplicate", "both"])
    anchor = ("base", ("s", "&base {type: " + r.pick(["str", "int", "list"]) + ", required: false}"))
    if r.chance(0.55):
        doc = form_doc(r, target="name_1", target_type=r.pick(FIELD_TYPES))
        where = r.pick(["declaration", "declaration", "fields", "values", "top"])
        merge = r.pick(MERGES)
        head: list[tuple[str, Node]] = []
        if "*base" in merge:
            head.append(anchor)  # an extra top-level key: the closed schema refuses it
        probe = ""
        if how in ("merge", "both"):
            if where == "declaration":
                decl = doc.declaration("name_1")
                decl.insert(r.int(0, len(decl)), ("<<", ("s", merge)))
            elif where == "fields":
                doc.fields.insert(0, ("<<", [("type", ("s", "str"))]) if merge.startswith("{t") else ("<<", []))
                doc.fields[0] = ("<<", doc.fields[0][1])
            elif where == "values":
                doc.values.insert(
                    r.int(0, len(doc.values)),
                    ("<<", ("s", r.pick(["{name_1: merged}", "{}", "[{name_1: a}, {name_1: b}]", "5", "{extra: 1}"]))),
                )
            probe = f"<< {merge} in the {where}"
        if how in ("duplicate", "both"):
            place = r.pick(["value", "declaration key", "field", "top"])
            if place == "value" and doc.values:
                name, _ = r.pick(doc.values)
                doc.values.insert(
                    r.int(0, len(doc.values)), (name, ("s", r.pick(ORDINARY["yaml"][r.pick(PLAIN_KINDS)])))
                )
            elif place == "declaration key":
                decl = doc.declaration("name_1")
                decl.append(("type", r.s(r.pick(FIELD_TYPES))))
            elif place == "field":
                doc.fields.append(("name_1", [("type", r.s(r.pick(FIELD_TYPES)))]))
            else:
                head.append(("title", r.s(r.pick(["First", "Second"]))))
            probe += f"; duplicate {place}"
        node = doc.node()
        if how in ("merge", "both") and where == "top":
            head.append(("<<", ("s", r.pick(["{title: merged}", "{fields: {}}", "[{title: a}, {title: b}]", "5"]))))
        node = ("m", [*head, *node[1]])
        data = render(node, r).encode("utf-8")
        return {"kind": "form", "suffix": ".form.yaml", "data": data, "probe": probe.strip("; ")}
    sdoc = script_doc(r)
    slot = r.rng.randrange(len(sdoc.entries))
    probe = ""
    header = list(sdoc.header)
    if how in ("merge", "both"):
        merge = r.pick(
            [
                "{type: text, content: merged}",
                "[{type: text}, {content: two}]",
                "*entry",
                "{when: {call_index: 0}}",
                "5",
                "{}",
                "[{type: tool_call, name: f}, {content: x}]",
            ]
        )
        if merge == "*entry":
            header.append(("defaults", ("s", "&entry {type: text, content: shared}")))
        base = sdoc.entries[slot]
        sdoc.entries[slot] = ("m", [("<<", ("s", merge)), *[(k, v) for k, v in base[1] if r.chance(0.6)]])
        probe = f"<< {merge} in an entry"
    if how in ("duplicate", "both"):
        place = r.pick(["entry type", "entry content", "when key", "mode", "responses"])
        base = sdoc.entries[slot]
        if place == "entry type":
            sdoc.entries[slot] = ("m", [*base[1], ("type", ("s", r.pick(["text", "tool_call", "error"])))])
        elif place == "entry content":
            sdoc.entries[slot] = ("m", [*base[1], ("content", ("s", "again"))])
        elif place == "when key":
            sdoc.entries[slot] = ("m", [*base[1], ("when", ("s", "{call_index: 0, call_index: 1}"))])
        elif place == "mode":
            header += [("mode", ("s", "positional")), ("mode", ("s", r.pick(["auto", "when_only", "bogus"])))]
        else:
            header.append(("responses", ("s", "[]")))
        probe += f"; duplicate {place}"
    node = ("m", [*header[:1], ("responses", ("l", sdoc.entries)), *header[1:]])
    data = render(node, r).encode("utf-8")
    return {
        "kind": "script",
        "suffix": ".script.yaml",
        "data": data,
        "probe": probe.strip("; "),
        "transcript": calls(r),
    }


# -- YAML 1.1 scalars as keys, and text pydantic or FieldSpec.coerce converts

#: Keys YAML 1.1 reads as something other than text.
YAML11_KEYS = [
    "yes",
    "no",
    "on",
    "off",
    "y",
    "n",
    "Y",
    "true",
    "~",
    "null",
    "1",
    "0x1F",
    "017",
    "0o17",
    "1_0",
    "1:30",
    "1.5",
    ".inf",
    ".nan",
    "2024-01-01",
    "2001-12-14 21:59:43.10 -5",
    "=",
    "<<",
    "'yes'",
    '"1"',
]


def _yaml11_keys(r: _R) -> dict[str, Any]:
    key = r.pick(YAML11_KEYS)
    if r.chance(0.55):
        doc = form_doc(r)
        where = r.pick(["field", "field", "value", "both", "declaration", "top"])
        if where in ("field", "both"):
            doc.fields.append(
                (key, [("type", r.s(r.pick(FIELD_TYPES)))] + ([("required", r.s("false"))] if r.chance(0.5) else []))
            )
        if where in ("value", "both"):
            doc.values.append((key, r.s(r.pick(["x", "5", "yes"]))))
        if where == "declaration":
            doc.fields[0][1].append((key, r.s("x")))
        node = doc.node()
        if where == "top":
            node = ("m", [*node[1], (key, r.s("x"))])
        return {
            "kind": "form",
            "suffix": ".form.yaml",
            "data": render(node, r).encode("utf-8"),
            "probe": f"key {key} in the {where}",
        }
    sdoc = script_doc(r)
    slot = r.rng.randrange(len(sdoc.entries))
    where = r.pick(["arguments", "data", "metadata", "when", "entry", "top", "tool_input"])
    pair = ("m", [(key, r.s("1"))])
    if where == "arguments":
        sdoc.entries[slot] = entry(r, "tool_call", arguments=pair)
    elif where == "data":
        sdoc.entries[slot] = entry(r, "structured", data=pair)
    elif where in ("metadata", "tool_input"):
        chunk = ("m", [("type", ("s", "tool_use")), (where, pair)])
        sdoc.entries[slot] = entry(r, "stream", chunks=("l", [chunk, ("m", [("type", ("s", "result"))])]))
    elif where == "when":
        sdoc.entries.insert(0, entry(r, "text", when=pair))
    elif where == "entry":
        sdoc.entries[slot] = ("m", [*sdoc.entries[slot][1], (key, r.s("x"))])
    else:
        sdoc.header.append((key, r.s("1")))
    return _script_case(r, sdoc, f"key {key} in the {where}", calls(r))


#: Text spellings of numbers and booleans: what ``int()`` / ``float()`` (FieldSpec.coerce) and
#: pydantic's lax int, bool and float take, and what they refuse.
TEXT_NUMBERS = [
    "' 1 '",
    "'1e3'",
    "'1_000'",
    "'1__0'",
    "'_1'",
    "'1.0'",
    "'1.5'",
    "'+5'",
    "'-0'",
    "'0x1F'",
    "'0b1'",
    "'\\u0661\\u0662'",
    "'\\uff11'",
    "'1 000'",
    "'1,5'",
    "'inf'",
    "'-Infinity'",
    "'nan'",
    "'1e400'",
    "'1e-400'",
    "' \\t7\\n'",
    "'7\\x00'",
    "'٣.٥'",
    "'.5'",
    "'5.'",
    "'1.0e+3'",
    "'true'",
    "'True'",
    "'yes'",
    "'on'",
    "'t'",
    "'y'",
    "'1'",
    "'0'",
    "'0.0'",
    "'2'",
    "'off'",
    "'no'",
    "'f'",
    "'FALSE'",
    "' true'",
    "'99999999999999999999'",
    "1.0",
    "1.5",
    "-0.0",
    "true",
    "2",
]


def _coerced_text(r: _R) -> dict[str, Any]:
    text = r.pick(TEXT_NUMBERS)
    node: Node = ("s", text)
    if r.chance(0.55):
        declared = r.pick(["int", "int", "float", "float", "bool", "bool", "str"])
        doc = form_doc(r, target="score", target_type=declared)
        where = r.pick(["value", "value", "value", "default", "required"])
        if where == "value":
            doc.set_value("score", node)
        elif where == "default":
            doc.set_decl("score", "default", node)
            doc.values = [(n, v) for n, v in doc.values if n != "score"]
        else:
            doc.set_decl("score", "required", node)
        return _form_case(r, doc, f"{text} as the {where} of a {declared} field")
    sdoc = script_doc(r)
    slot = r.rng.randrange(len(sdoc.entries))
    where = r.pick(["call_index", "after_calls", "delay_ms", "version", "is_delta", "is_error"])
    if where in ("call_index", "after_calls"):
        sdoc.entries.insert(0, entry(r, "text", when=("m", [(where, node)])))
    elif where == "delay_ms":
        sdoc.entries[slot] = entry(r, "error", delay_ms=node)
    elif where == "version":
        sdoc.header = [("version", node)]
    else:
        chunk = ("m", [("type", ("s", "text")), ("content", ("s", "hi")), (where, node)])
        sdoc.entries[slot] = entry(r, "stream", chunks=("l", [chunk]))
    return _script_case(r, sdoc, f"{text} as the {where}", calls(r))


# -- documents that are empty, null, falsy or several

EMPTY_DOCUMENTS = [
    "",
    "\n",
    "---\n",
    "--- ~\n",
    "~\n",
    "null\n",
    "0\n",
    "false\n",
    "''\n",
    "[]\n",
    "{}\n",
    "# nothing\n",
    "...\n",
    "--- \n...\n",
    "--- []\n",
    "--- 0\n--- 1\n",
]


def _empty_documents(r: _R) -> dict[str, Any]:
    text = r.pick(EMPTY_DOCUMENTS)
    if r.chance(0.85):  # a comment says what the fixture is (it keeps the document empty)
        text = f"# {r.pick(PROMPT_WORDS)} fixture {r.int(1, 999)}\n" + text
    is_form = r.chance(0.5)
    tail = ""
    if r.chance(0.3):  # a real document after an empty one
        body = render(form_doc(r).node() if is_form else script_doc(r).node(), r)
        tail = "---\n" + body
    json_text = r.chance(0.2)
    data = (text + tail).encode("utf-8")
    if json_text:
        blank = " " * r.int(0, 3) + "\n" * r.int(0, 40)
        data = (blank + r.pick(["", "null", "0", "false", '""', "[]", "{}", " ", "{}\n{}"]) + blank).encode()
    if is_form:
        suffix = ".form.json" if json_text else r.pick([".form.yaml", ".form.yml"])
        probe = f"{data[:30]!r}{' then a document' if tail else ''} ({suffix})"
        return {"kind": "form", "suffix": suffix, "data": data, "probe": probe}
    suffix = ".script.json" if json_text else r.pick([".script.yaml", ".script.yml"])
    probe = f"{data[:30]!r}{' then a document' if tail else ''} ({suffix})"
    return {"kind": "script", "suffix": suffix, "data": data, "probe": probe, "transcript": calls(r, count=r.int(1, 2))}


# -- Python documents: literal values in every slot, and calls Python cannot bind

#: Python literals a test may write where lionagi expects text, numbers, mappings or lists.
PY_VALUES = [
    "(1, 2)",
    "()",
    "('a',)",
    "{1, 2}",
    "{'a'}",
    "b'hi'",
    "b''",
    "b'\\xff'",
    "b'text'",
    "b'age'",
    "-1",
    "-0.0",
    "+3",
    "1e309",
    "-1e309",
    "1j",
    "True",
    "False",
    "None",
    "0",
    "1",
    "2",
    "1.0",
    "1.5",
    "' 1 '",
    "'1e3'",
    "'1_000'",
    "'\\u0661\\u0662'",
    "''",
    "'yes'",
    "'auto'",
    "'text'",
    "'x' 'y'",
    "r'\\d+'",
    "'\\ud83d'",
    "[]",
    "[1, (2, 3)]",
    "{}",
    "{'a': (1, 2)}",
    "{1: 'x'}",
    "{True: 1}",
    "{None: 1}",
    "{b'k': 1}",
    "{'': 1}",
    "{'a': {'b': b'c'}}",
    "[b'x']",
    "99999999999999999999999",
    "0x1F",
    "0o17",
    "1_000",
    "'hello'",
    "'age'",
]

#: A script's slots: (path to the value, entry type). "*" is the whole entry / matcher.
PY_SCRIPT_SLOTS = [
    ("content", "text"),
    ("name", "tool_call"),
    ("id", "tool_call"),
    ("arguments", "tool_call"),
    ("arguments.q", "tool_call"),
    ("data", "structured"),
    ("data.answer", "structured"),
    ("when", "text"),
    ("when.prompt_contains", "text"),
    ("when.prompt_regex", "text"),
    ("when.has_tool", "text"),
    ("when.call_index", "text"),
    ("when.after_calls", "text"),
    ("kind", "error"),
    ("message", "error"),
    ("delay_ms", "error"),
    ("chunks", "stream"),
    ("chunk.type", "stream"),
    ("chunk.content", "stream"),
    ("chunk.is_delta", "stream"),
    ("chunk.tool_input", "stream"),
    ("chunk.metadata", "stream"),
    ("chunk.tool_output", "stream"),
    ("type", "text"),
    ("*", "text"),
    ("version", ""),
    ("mode", ""),
    ("responses", ""),
    ("key", "text"),
]


def _py_entry(r: _R, etype: str) -> dict[str, str]:
    """An ordinary entry of *etype* as Python source, item by item."""
    word = r.pick(PROMPT_WORDS)
    if etype == "text":
        return {"type": "'text'", "content": repr(r.pick(["Hello!", "done", "Привет", word]))}
    if etype == "tool_call":
        name = r.pick(["search", "calc", "weather_api"])
        return {"type": "'tool_call'", "name": repr(name), "arguments": f"{{'q': {word!r}, 'n': {r.int(0, 9)}}}"}
    if etype == "structured":
        return {"type": "'structured'", "data": f"{{'answer': {r.int(0, 99)}, 'word': {word!r}}}"}
    if etype == "stream":
        return {"type": "'stream'", "chunks": "[{'type': 'text', 'content': 'Hel'}, {'type': 'result'}]"}
    return {"type": "'error'", "kind": "'rate_limit'", "message": "'slow down'"}


def _py_dict(items: dict[str, str] | list[tuple[str, str]]) -> str:
    pairs = items.items() if isinstance(items, dict) else items
    return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"


def _py_script(r: _R, value: str) -> tuple[str, str, str, str]:
    """A script with *value* in one slot: (API call, the call's source, imports, probe)."""
    path, etype = r.pick(PY_SCRIPT_SLOTS)
    header: list[tuple[str, str]] = []
    entries = [_py_entry(r, r.pick(["text", "text", "tool_call", "structured"])) for _ in range(r.int(0, 2))]
    if path in ("version", "mode", "responses"):
        target = _py_entry(r, "text")
        if path == "responses":
            listed = value
        else:
            header.append((repr(path), value))
    else:
        target = _py_entry(r, etype)
        if path == "*":
            target = {}
        elif path == "key":
            target[value] = "'x'"
        elif path.startswith("chunk."):
            target["chunks"] = "[" + _py_dict({"'type'": "'text'", repr(path[6:]): value}) + "]"
        elif "." in path:
            outer, inner = path.split(".")
            target[outer] = _py_dict({repr(inner): value})
        else:
            target[path] = value
    rendered = [(repr(k) if not k.startswith(("'", '"')) and k not in (value,) else k, v) for k, v in target.items()]
    rendered = [(k if k != repr(value) else value, v) for k, v in rendered]
    entry_source = value if path == "*" else _py_dict(rendered)
    all_entries = [_py_dict([(repr(k), v) for k, v in e.items()]) for e in entries]
    all_entries.insert(r.int(0, len(all_entries)), entry_source)
    if path != "responses":
        listed = "[" + ", ".join(all_entries) + "]"
    api = r.pick(["model_validate", "model_validate", "from_responses", "branch", "constructor", "coerce", "from_text"])
    if path in ("version", "mode") and api in ("branch", "from_text"):
        api = "from_responses"
    if api == "from_text":
        if path not in ("content", "responses"):
            api = "model_validate"
        else:
            return "TestBranch.from_text", f"TestBranch.from_text({value})", "TestBranch", f"from_text({value})"
    extra = ", ".join(f"{k[1:-1]}={v}" for k, v in header)
    if api == "model_validate":
        call = "ScriptModel.model_validate"
        source = f"{call}({_py_dict([*header, (repr('responses'), listed)])})"
    elif api == "coerce":
        call = "ScriptModel.coerce"
        source = f"{call}({_py_dict([*header, (repr('responses'), listed)])})"
    elif api == "constructor":
        call = "ScriptModel"
        source = f"ScriptModel(responses={listed}{', ' + extra if extra else ''})"
    elif api == "from_responses":
        call = "ScriptModel.from_responses"
        source = f"{call}({listed}{', ' + extra if extra else ''})"
    else:
        call = "TestBranch.from_responses"
        source = f"{call}({listed})"
    imports = "TestBranch" if call.startswith("TestBranch") else "ScriptModel"
    return call, source, imports, f"{value} as the {path} ({call})"


#: A form's slots.
PY_FORM_SLOTS = [
    "name",
    "type",
    "required",
    "default",
    "description",
    "title",
    "fields key",
    "value",
    "value",
    "value key",
    "rule_id",
    "rule field",
    "check",
    "params",
    "params.min",
    "params.pattern",
    "message",
    "enabled",
]


def _py_form(r: _R, value: str) -> tuple[str, str, str, str]:
    slot = r.pick(PY_FORM_SLOTS)
    declared = r.pick(FIELD_TYPES)
    spec = {"name": "'age'", "type": repr(declared)}
    if r.chance(0.3):
        spec["required"] = "False"
    good = {"str": "'seven'", "int": "7", "float": "1.5", "bool": "True", "list": "[1]", "dict": "{'a': 1}"}[declared]
    values: list[tuple[str, str]] = [("'age'", good)]
    title = None
    fields_key = "'age'"
    rule = {"rule_id": "'r1'", "field": "'age'", "check": "'required'"}
    if slot in ("name", "type", "required", "default", "description"):
        spec[slot] = value
    elif slot == "title":
        title = value
    elif slot == "fields key":
        fields_key = value
    elif slot == "value":
        values = [("'age'", value)]
    elif slot == "value key":
        values.append((value, "'x'"))
    elif slot in ("rule_id", "message", "enabled", "check"):
        rule[slot] = value
    elif slot == "rule field":
        rule["field"] = value
    elif slot == "params":
        rule["check"], rule["params"] = "'range'", value
    elif slot == "params.min":
        rule["check"], rule["params"] = "'range'", _py_dict({"'min'": value})
    else:
        rule["check"], rule["params"] = "'pattern'", _py_dict({"'pattern'": value})
    fieldspec = "FieldSpec(" + ", ".join(f"{k}={v}" for k, v in spec.items()) + ")"
    form_args = f"fields={{{fields_key}: {fieldspec}}}" + (f", title={title}" if title is not None else "")
    uses_rule = slot in (
        "rule_id",
        "rule field",
        "check",
        "params",
        "params.min",
        "params.pattern",
        "message",
        "enabled",
    )
    shape = r.pick(["fill", "fill", "validate", "workform", "fieldspec"])
    if uses_rule:
        shape = "fill"
    if slot in ("value", "value key") and shape in ("workform", "fieldspec"):
        shape = "fill"
    if slot in ("title", "fields key") and shape == "fieldspec":
        shape = "workform"
    ruleset = ""
    if uses_rule or r.chance(0.2):
        ruleset = ", ruleset=RuleSet().add(Rule(" + ", ".join(f"{k}={v}" for k, v in rule.items()) + "))"
    if shape == "fieldspec":
        return "FieldSpec", fieldspec, "FieldSpec", f"{value} as the {slot} (FieldSpec)"
    if shape == "workform":
        return "WorkForm", f"WorkForm({form_args})", "WorkForm", f"{value} as the {slot} (WorkForm)"
    if shape == "validate":
        source = f"validate_form(WorkForm({form_args}, values={_py_dict(values)}){ruleset})"
        return "validate_form", source, "validate_form", f"{value} as the {slot} (validate_form)"
    source = f"fill_form(WorkForm({form_args}), {_py_dict(values)}{ruleset})"
    return "fill_form", source, "fill_form", f"{value} as the {slot} (fill_form)"


#: Calls Python refuses to bind (TypeError before lionagi reads anything), and ones it binds.
PY_BINDINGS = [
    "ScriptModel.from_responses(ENTRIES, responses=[])",
    "ScriptModel.from_responses(ENTRIES, [])",
    "ScriptModel.from_responses(ENTRIES, mode='when_only')",
    "ScriptModel.from_responses(responses=ENTRIES)",
    "ScriptModel.coerce(ENTRIES, True)",
    "ScriptModel.coerce(source=ENTRIES)",
    "ScriptModel.model_validate({'responses': ENTRIES}, {})",
    "ScriptModel.model_validate({'responses': ENTRIES}, context={})",
    "ScriptModel.model_validate(obj={'responses': ENTRIES})",
    "ScriptModel.model_validate({'responses': ENTRIES}, obj={})",
    "TestBranch.from_responses(ENTRIES, 'x')",
    "TestBranch.from_responses(ENTRIES, name='x')",
    "TestBranch.from_responses(ENTRIES, bogus=1)",
    "TestBranch.from_responses(ENTRIES, script=[])",
    "TestBranch.from_responses(ENTRIES, chat_model=None)",
    "TestBranch.from_responses(ENTRIES, model='m')",
    "TestBranch.from_responses(responses=ENTRIES, user='u')",
    "TestBranch.from_text('hi', 'there')",
    "TestBranch.from_text('hi', responses=[])",
    "TestBranch.from_text(text='hi', name='b')",
    "TestBranch.from_script({'responses': ENTRIES}, 'x')",
    "TestBranch.from_script({'responses': ENTRIES}, parse_model=None)",
    "TestBranch.from_script({'responses': ENTRIES}, system='be brief')",
    "TestBranch.from_script(script={'responses': ENTRIES}, metadata={})",
    "fill_form(WorkForm(fields={'age': FieldSpec(name='age', type='int')}), {'age': 7}, None)",
    "fill_form(WorkForm(fields={'age': FieldSpec(name='age', type='int')}), values={'age': 7})",
    "fill_form(WorkForm(fields={'age': FieldSpec(name='age', type='int')}), {'age': 7}, rules=None)",
    "fill_form(form=WorkForm(fields={'age': FieldSpec(name='age', type='int')}), values={'age': 'x'})",
    "validate_form(WorkForm(fields={'age': FieldSpec(name='age', type='int')}), None)",
    "validate_form(WorkForm(fields={'age': FieldSpec(name='age', type='int')}, values={'age': 7}), ruleset=None)",
    "validate_form(form=WorkForm(fields={'age': FieldSpec(name='age', type='int')}), values={})",
    "scripted_imodel(ENTRIES, 'm')",
    "scripted_imodel(ENTRIES, model='m')",
    "scripted_imodel(script=ENTRIES)",
    "scripted_imodel(ENTRIES, endpoint='chat')",
    "TestBranch.attach_script(TestBranch.from_text('before'), ENTRIES, True)",
    "TestBranch.attach_script(TestBranch.from_text('before'), script=ENTRIES)",
]


def _py_module(call_source: str, imports: set[str], r: _R) -> str:
    lines = ["# generated by tests/conformance/redteam.py"]
    testing = sorted(n for n in imports if n in ("ScriptModel", "TestBranch", "scripted_imodel"))
    work = sorted(n for n in imports if n not in ("ScriptModel", "TestBranch", "scripted_imodel"))
    if testing:
        lines.append("from lionagi.testing import " + ", ".join(testing))
    if work:
        lines.append("from lionagi.work import " + ", ".join(work))
    lines.append("")
    if r.chance(0.5):
        lines += [
            "",
            "class TestGenerated:",
            "    def test_target(self):",
            f"        result = {call_source}",
            "        return result",
        ]
    else:
        lines += ["", "def test_target():", f"    result = {call_source}", "    return result"]
    return "\n".join(lines) + "\n"


def _py_imports(call_source: str) -> set[str]:
    names = {
        "ScriptModel",
        "TestBranch",
        "scripted_imodel",
        "FieldSpec",
        "WorkForm",
        "fill_form",
        "validate_form",
        "RuleSet",
        "Rule",
    }
    return {n for n in names if n + "(" in call_source or n + "." in call_source}


def _python_values(r: _R) -> dict[str, Any]:
    value = r.pick(PY_VALUES)
    if r.chance(0.5):
        call, source, _, probe = _py_script(r, value)
        judge = "raises"
    else:
        call, source, _, probe = _py_form(r, value)
        judge = "status" if call in ("fill_form", "validate_form") else "raises"
    data = _py_module(source, _py_imports(source), r).encode("utf-8")
    return {"kind": "python", "suffix": "_test.py", "data": data, "probe": probe, "target_call": call, "judge": judge}


def _python_binding(r: _R) -> dict[str, Any]:
    template = r.pick(PY_BINDINGS)
    entries = (
        "["
        + ", ".join(
            _py_dict([(repr(k), v) for k, v in _py_entry(r, r.pick(["text", "tool_call"])).items()])
            for _ in range(r.int(1, 2))
        )
        + "]"
    )
    source = template.replace("ENTRIES", entries)
    call = source.split("(", 1)[0]
    judge = "status" if call in ("fill_form", "validate_form") else "raises"
    data = _py_module(source, _py_imports(source), r).encode("utf-8")
    return {
        "kind": "python",
        "suffix": "_test.py",
        "data": data,
        "probe": template,
        "target_call": call,
        "judge": judge,
    }


def _negative_test(r: _R) -> dict[str, Any]:
    """One test function that states the outcome it expects (``negative_tests.py``'s shapes:
    every API x expectation form x document x exception class), alone in its module. It is
    judged by the contract of ``test_negative_tests.py``: pytest with lionagi fails the test
    exactly when ``lint`` reports an error within its lines."""
    from . import negative_tests as nt

    api = r.pick(nt.APIS)
    expectation = r.pick(nt._expectations(api))
    document = r.pick(nt._documents(api))
    case = nt._Builder(r.rng, r.int(0, 9999)).case(api, expectation, document, r.pick(nt.CATCHES))
    module = nt.build_modules([case])[0]
    probe = f"{case.shape} ({case.position}, {case.binding})"
    return {
        "kind": "pytest",
        "suffix": "_test.py",
        "data": module.source.encode("utf-8"),
        "probe": probe,
        "target_call": case.qualname,
        "judge": "pytest",
    }


# ----------------------------------------------------------------------------- the registry

CLASSES: dict[str, ClassSpec] = {
    "prompt_cap": ClassSpec(4, _prompt_cap, "form prefix (+ prompt) against the 262,144-character cap"),
    "tag_construct_fail": ClassSpec(8, _tag_failing, "explicit tags whose construction raises"),
    "tag_other": ClassSpec(5, _tag_other, "tags that construct, unknown and unsafe tags, a bare !"),
    "nesting": ClassSpec(6, _nesting, "nesting around and past the recursion limit, JSON fallback"),
    "surrogates": ClassSpec(7, _surrogates, "lone surrogates and surrogate pairs in every slot"),
    "self_reference": ClassSpec(6, _self_reference, "values that contain themselves through an anchor"),
    "alias_expansion": ClassSpec(3, _alias_expansion, "values expanding through aliases past a million"),
    "suffix": ClassSpec(6, _suffix, "a script's loader picked by its suffix"),
    "script_version": ClassSpec(5, _version, "script versions the runtime coerces or refuses"),
    "regex_compile": ClassSpec(5, _regex_compile, "prompt_regex that fails without re.error"),
    "slow_regex": ClassSpec(3, _slow_regex, "prompt_regex searches lionagi answers slowly (quadratic growth)"),
    "ruleset_build": ClassSpec(8, _ruleset_build, "rulesets a program cannot build"),
    "ruleset_custom": ClassSpec(4, _ruleset_custom, "custom checks in a YAML ruleset"),
    "rule_apply": ClassSpec(6, _rule_apply, "rules that raise (or print) inside fill_form"),
    "not_a_file": ClassSpec(3, _not_a_file, "directories and symlinks named like a form or script"),
    "encodings": ClassSpec(4, _encodings, "BOMs, NUL, control characters, noncharacters in UTF-8 text"),
    "not_utf8": ClassSpec(4, _not_utf8, "files that are not UTF-8: Latin-1, UTF-16/32, CESU-8, overlong, cut"),
    "numeric_limits": ClassSpec(6, _numeric, "big ints, non-finite floats, sexagesimal, octal, underscores"),
    "huge_ints": ClassSpec(3, _huge_ints, "ints past Python's 4,300-digit limit for decimal text"),
    "odd_paths": ClassSpec(3, _odd_path, "file names with spaces, quotes, newlines, brackets"),
    "non_utf8_names": ClassSpec(3, _non_utf8_name, "file names that are not UTF-8 (the title is the path)"),
    "bom_inside": ClassSpec(3, _bom_inside, "a BOM that is not the file's first character"),
    "yaml_dialects": ClassSpec(8, _dialect, "where libyaml and the pure-Python loader could differ"),
    "payload_shapes": ClassSpec(4, _payload_shapes, "request payloads of unusual shapes"),
    "branch_chat": ClassSpec(4, _branch_chat, "calls made through branch.chat, against a real TestBranch"),
    "merge_dupes": ClassSpec(4, _merge_dupes, "merge keys (<<) of mappings, lists and non-mappings; duplicate keys"),
    "yaml11_keys": ClassSpec(3, _yaml11_keys, "YAML 1.1 scalars (yes, 1:30, 0o17, dates, ~) as keys everywhere"),
    "coerced_text": ClassSpec(4, _coerced_text, "text int()/float()/pydantic coerce or refuse, in every number slot"),
    "empty_documents": ClassSpec(3, _empty_documents, "empty, null, falsy and multi-document files"),
    "binary_keys": ClassSpec(3, _binary, "!!binary keys and values: bytes that pydantic's str reads as UTF-8"),
    "python_values": ClassSpec(5, _python_values, "Python literals (tuples, sets, bytes, complex, ...) in every slot"),
    "python_binding": ClassSpec(3, _python_binding, "Python calls whose arguments do not bind to the API's signature"),
    "negative_tests": ClassSpec(
        4, _negative_test, "tests that state the outcome they expect (pytest.raises, assertRaises, xfail, asserts)"
    ),
}


def schedule() -> list[str]:
    """One round of class names, each as often as its weight, spread evenly (smooth round robin)."""
    total = sum(spec.weight for spec in CLASSES.values())
    current = dict.fromkeys(CLASSES, 0)
    order = []
    for _ in range(total):
        for name, spec in CLASSES.items():
            current[name] += spec.weight
        chosen = max(current, key=lambda name: current[name])
        current[chosen] -= total
        order.append(chosen)
    return order


def case_at(seed: int, index: int) -> RedCase:
    """Case *index* of *seed* (it depends on nothing else)."""
    order = schedule()
    klass = order[index % len(order)]
    r = _R(random.Random(f"redteam:{seed}:{index}"))
    built = CLASSES[klass].build(r)
    name = f"rt-{index:06d}"
    rules = built.get("rules")
    stem = name + built.get("name_suffix", "")
    return RedCase(
        name=name,
        klass=klass,
        kind=built["kind"],
        filename=f"{klass}/{stem}{built['suffix']}",
        data=built["data"],
        probe=built["probe"],
        transcript=tuple(built.get("transcript", ())),
        rules_filename=f"{klass}/{name}.rules.yaml" if rules is not None else None,
        rules_data=rules,
        prompt=built.get("prompt"),
        node=built.get("node", "file"),
        target_call=built.get("target_call"),
        judge=built.get("judge"),
        regex_timeout=built.get("regex_timeout"),
    )


def generate(seed: int = DEFAULT_SEED, count: int = DEFAULT_CASES) -> list[RedCase]:
    """The first *count* cases of *seed*."""
    return [case_at(seed, index) for index in range(count)]


def class_indexes(klass: str, count: int) -> list[int]:
    """The indexes of *klass*'s cases among the first *count* (no case is built)."""
    order = schedule()
    slots = [i for i, name in enumerate(order) if name == klass]
    return [base + slot for base in range(0, count, len(order)) for slot in slots if base + slot < count]


def class_cases(seed: int, klass: str, count: int) -> Iterator[RedCase]:
    """*klass*'s cases among the first *count*, built one at a time (the long mode's
    100,000 cases do not fit in memory at once)."""
    return (case_at(seed, index) for index in class_indexes(klass, count))


def remove(root: Path, case: RedCase) -> None:
    """Take *case*'s files (and what the comparison put beside them) off the disk again."""
    import glob
    import shutil

    target = root / case.filename
    for extra in target.parent.glob(glob.escape(target.name) + "*"):
        if extra.is_symlink() or extra.is_file():
            extra.unlink()
        elif extra.is_dir():
            shutil.rmtree(extra)
    if case.rules_filename is not None:
        (root / case.rules_filename).unlink(missing_ok=True)


def write(root: Path, case: RedCase) -> str:
    """Put *case* on disk under *root*; returns the path of its main file (or directory)."""
    target = root / case.filename
    target.parent.mkdir(parents=True, exist_ok=True)
    if case.node == "file":
        target.write_bytes(case.data)
    elif case.node in ("directory", "directory-with-file"):
        target.mkdir(exist_ok=True)
        if case.node == "directory-with-file":
            inner = "inner" + (".form.yaml" if case.kind == "form" else ".script.yaml")
            (target / inner).write_bytes(case.data)
    elif case.node == "dangling-symlink":
        if not target.is_symlink():
            target.symlink_to(target.with_name(target.name + ".missing"))
    else:
        elsewhere = target.with_name(target.name + ".dir")
        elsewhere.mkdir(exist_ok=True)
        if not target.is_symlink():
            target.symlink_to(elsewhere, target_is_directory=True)
    if case.rules_filename is not None and case.rules_data is not None:
        (root / case.rules_filename).write_bytes(case.rules_data)
    return str(target)
