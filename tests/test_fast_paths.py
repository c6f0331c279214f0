"""Each plain-data fast path equals the pydantic model it stands in for.

A form declaration or a script entry written with exactly the declared types is built as plain
data (``fields.plain_field``, ``entries.plain_entry``, the script header's and the title's
exact-type checks); anything else goes through the pydantic models. Hypothesis generates
inputs on both sides of that line — declared types, values pydantic coerces laxly, values it
refuses — and checks that (1) whatever the fast path builds is what the model builds, value
for value and type for type, and (2) the gate and the script check give the same observable
result with the fast paths switched off.

Runs derandomized with no example database, so every run sees the same examples.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import random
import subprocess
import sys
import typing
import uuid
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from formscript.core import declarations, entries, gate, lax_fields, script
from formscript.core.entries import from_model, plain_entry
from formscript.core.fields import FIELD_TYPES, RUNTIME_FIELDSPEC_CLASS, plain_field
from formscript.core.forms import FieldSpec
from formscript.core.gate import check_form_spec
from formscript.core.lax_common import Unsure
from formscript.core.script import check_script
from formscript.core.script_models import ENTRY_MODELS, ScriptHeader

DIFFERENTIAL = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def same(a: Any, b: Any) -> bool:
    """Equal value for value, with the same types all the way down (so 1, 1.0 and True differ)
    and the same key order; NaN equals NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return bool(a == b)


# ------------------------------------------------------------------------- strategies

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0.0, 1.0, 2.5, -0.5, math.inf, math.nan]),
    st.sampled_from(["", "x", "3", "2.0", "true", "yes", "no", "1", "0", "none", "null"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3),
        st.dictionaries(st.sampled_from([1, True, None, 2.5]), inner, min_size=1, max_size=2),
        st.frozensets(st.sampled_from([1, "a"]), max_size=2),
    ),
    max_leaves=6,
)
NAMES = st.one_of(
    st.sampled_from(["age", "_x", "Name2", "a_b"]),
    st.sampled_from(["1a", "a-b", "", "a b", "é", "age\n"]),
    st.sampled_from([1, True, None, 2.5]),
)


def _mapping(fields: dict[str, st.SearchStrategy[Any]], extra: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mappings with any subset of *fields* (in any order) and sometimes one extra key."""
    optional = st.fixed_dictionaries({}, optional=fields)
    return st.tuples(optional, st.one_of(st.none(), extra), st.randoms(use_true_random=False)).map(_shuffled)


def _shuffled(parts: tuple[dict[str, Any], Any, Any]) -> dict[Any, Any]:
    given, extra, rng = parts
    items = list(given.items())
    if extra is not None:
        items.append(extra)
    rng.shuffle(items)
    return dict(items)


TYPE_VALUES = st.one_of(st.sampled_from(FIELD_TYPES), st.sampled_from(["string", "integer", "", "Int"]), SCALARS)
DECLARATIONS = _mapping(
    {
        "type": TYPE_VALUES,
        "required": st.one_of(st.booleans(), st.sampled_from([0, 1, 2, "yes", "true", "off", "", 1.0, None])),
        "default": VALUES,
        "description": st.one_of(st.sampled_from(["", "d"]), SCALARS),
    },
    st.tuples(
        st.sampled_from(["name", "id", "created_at", "metadata", "typo", 3]),
        st.one_of(SCALARS, st.just("6f1c2d3e-0000-4000-8000-000000000000"), st.just({"lion_class": "x"})),
    ),
)
FORM_VALUES = st.dictionaries(st.one_of(NAMES, st.sampled_from(["age", "other"])), VALUES, max_size=4)
FORMS = st.fixed_dictionaries(
    {},
    optional={
        "title": st.one_of(st.sampled_from(["T", ""]), SCALARS),
        "fields": st.one_of(st.dictionaries(NAMES, DECLARATIONS, max_size=4), SCALARS),
        "values": st.one_of(FORM_VALUES, SCALARS),
    },
)

OPT_STR = st.one_of(st.none(), st.sampled_from(["a", "", "b.*"]), SCALARS)
OPT_INT = st.one_of(st.none(), st.integers(-2, 3), st.booleans(), st.sampled_from(["2", 1.0, 1.5, "x"]))
MATCHERS = st.one_of(
    st.none(),
    SCALARS,
    _mapping(
        {
            "prompt_contains": OPT_STR,
            "prompt_regex": OPT_STR,
            "has_tool": OPT_STR,
            "after_calls": OPT_INT,
            "call_index": OPT_INT,
        },
        st.tuples(st.sampled_from(["prompt", "tool"]), SCALARS),
    ),
)
STR_KEYED = st.one_of(st.dictionaries(st.sampled_from(["a", "b"]), VALUES, max_size=3), VALUES)
CHUNKS = _mapping(
    {
        "type": st.one_of(st.sampled_from(list(entries.CHUNK_TYPES)), st.sampled_from(["txt", ""]), SCALARS),
        "content": OPT_STR,
        "tool_name": OPT_STR,
        "tool_id": OPT_STR,
        "tool_input": st.one_of(st.none(), STR_KEYED),
        "tool_output": VALUES,
        "is_error": st.one_of(st.booleans(), st.sampled_from([0, 1, "true", "no", None])),
        "is_delta": st.one_of(st.booleans(), st.sampled_from([0, 1, "false", None])),
        "metadata": STR_KEYED,
    },
    st.tuples(st.sampled_from(["delta", "name"]), SCALARS),
)
COMMON: dict[str, st.SearchStrategy[Any]] = {"when": MATCHERS}
BODIES: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "text": {"content": st.one_of(st.sampled_from(["hi", ""]), SCALARS, VALUES)},
    "tool_call": {"name": st.one_of(st.just("search"), SCALARS), "arguments": STR_KEYED, "id": OPT_STR},
    "structured": {"data": STR_KEYED},
    "stream": {"chunks": st.one_of(st.lists(CHUNKS, max_size=3), SCALARS, st.tuples(CHUNKS))},
    "error": {
        "kind": st.one_of(st.sampled_from(list(entries.ERROR_KINDS)), st.sampled_from(["oops", ""]), SCALARS),
        "message": st.one_of(st.just("m"), SCALARS),
        "delay_ms": OPT_INT,
    },
}


def _entry_of(kind: str) -> st.SearchStrategy[Any]:
    body = _mapping({**COMMON, **BODIES[kind]}, st.tuples(st.sampled_from(["typo", "value"]), SCALARS))
    return body.map(lambda raw: {"type": kind, **raw})


ENTRIES = st.one_of(
    *(_entry_of(kind) for kind in BODIES),
    _mapping({**COMMON, "content": SCALARS}, st.tuples(st.just("type"), st.one_of(SCALARS, st.just("txt")))),
)
SCRIPTS = st.fixed_dictionaries(
    {},
    optional={
        "version": st.one_of(st.integers(0, 3), st.booleans(), st.sampled_from(["2", 2.0, 2.5, None, "x"])),
        "mode": st.one_of(st.sampled_from(list(entries.MODES)), st.sampled_from(["when", "AUTO", ""]), SCALARS),
        "responses": st.one_of(st.lists(st.one_of(ENTRIES, SCALARS), max_size=4), SCALARS),
    },
)


# ------------------------------------------------------------------ form declarations


def _declared(spec: Any) -> tuple[Any, ...]:
    return (spec.name, spec.type, spec.required, spec.default, spec.description)


@DIFFERENTIAL
@given(name=NAMES, declaration=DECLARATIONS)
def test_a_plain_field_is_the_field_spec_the_model_builds(name: Any, declaration: dict[Any, Any]) -> None:
    fast = plain_field(name, declaration)
    if fast is None:
        return  # the gate asks the model; the differential below covers that side
    built = FieldSpec.model_validate({**declaration, "name": name})
    assert same(_declared(fast), _declared(built))
    for value in ("3", 3, 3.0, True, "yes", None, [1], {"a": 1}):
        try:
            expected: Any = built.coerce(value)
        except TypeError as exc:
            expected = ("raises", str(exc))
        try:
            got: Any = fast.coerce(value)
        except TypeError as exc:
            got = ("raises", str(exc))
        assert same(got, expected)


def _gate_view(result: gate.GateResult) -> tuple[Any, ...]:
    return (
        result.verdict,
        result.problems,
        result.context_block,
        {key: _declared(spec) for key, spec in result.declarations.items()},
        result.title,
        result.values,
        result.status,
        result.failures,
    )


@DIFFERENTIAL
@given(spec=FORMS)
def test_the_gate_is_the_same_without_the_fast_path(spec: dict[str, Any]) -> None:
    fast = _gate_view(check_form_spec(spec, "f.form.yaml"))
    with (
        mock.patch.object(declarations, "plain_field", lambda name, declaration: None),
        mock.patch.object(declarations, "validate_fieldspec", lax_fields.model_fieldspec),
    ):
        slow = _gate_view(check_form_spec(spec, "f.form.yaml"))
    assert same(fast, slow)


@DIFFERENTIAL
@given(raw=SCALARS | VALUES)
def test_the_title_fast_path_is_pydantics_str(raw: Any) -> None:
    try:
        expected: str | None = TypeAdapter(str).validate_python(raw)
    except ValidationError:
        expected = None
    assert same(gate._title(raw), expected)


# --------------------------------------------------------------------- script entries


@DIFFERENTIAL
@given(raw=ENTRIES)
def test_a_plain_entry_is_the_entry_the_model_builds(raw: dict[Any, Any]) -> None:
    fast = plain_entry(raw)
    if fast is None:
        return
    built = from_model(ENTRY_MODELS[raw["type"]].model_validate(raw))
    assert type(fast) is type(built)
    assert same(fast, built)
    assert fast.conditional == built.conditional


def test_each_record_names_the_fields_of_its_shape() -> None:
    """The shapes in core/entries.py are the one definition; a record's annotations name its
    fields for the type checker, in the shape's order, so a key added to a shape and not to its
    record (or the other way round) fails here."""
    from formscript.core import entries

    records = [entries.Matcher, entries.Chunk, *typing.get_args(entries.Entry)]
    assert {record._shape.name for record in records} == {entries.MATCHER.name, entries.CHUNK.name} | {
        shape.name for shape in entries.ENTRIES.values()
    }
    for record in records:
        assert tuple(field.name for field in dataclasses.fields(record)) == record._shape.keys(), record


def _script_view(result: script.ScriptResult) -> tuple[Any, ...]:
    return (result.verdict, result.problems, result.mode, result.version, result.entries)


@DIFFERENTIAL
@given(data=SCRIPTS)
def test_the_script_check_is_the_same_without_the_fast_path(data: dict[str, Any]) -> None:
    fast = _script_view(check_script(data))
    with mock.patch.object(script, "plain_entry", lambda raw: None):
        slow = _script_view(check_script(data))
    assert same(fast, slow)


@DIFFERENTIAL
@given(data=SCRIPTS)
def test_the_script_header_is_what_the_model_reads(data: dict[str, Any]) -> None:
    result = check_script(data)
    try:
        header = ScriptHeader.model_validate({k: v for k, v in data.items() if k in ("version", "mode")})
    except ValidationError:
        assert any(p.code in ("SC006", "SC007") for p in result.problems)
        return
    assert not any(p.code in ("SC006", "SC007") for p in result.problems)
    assert same((result.mode, result.version), (header.mode, header.version))


# ------------------------------------------------------- declarations without pydantic

LAX_SCALARS: list[Any] = [
    None, True, False, 0, 1, 2, -1, 2**63 - 1, 2**63, -(2**63) - 1, 10**30,
    0.0, 1.0, -0.0, 0.5, 2.0, math.inf, math.nan, 1e300,
    "", "x", "yes", "No", "ON", "oN", "T", "maybe", "0", "1", "00", " yes", "1 ", "ｙes", "é", "null",
    *FIELD_TYPES, "Int", "string", "integer", "list[str]", "enum",
    "6f1c2d3e-0000-4000-8000-000000000000", "{6f1c2d3e-0000-4000-8000-000000000000}", "urn:uuid:6f1c2d3e",
    "2024-01-02T03:04:05", "2024-01-02 03:04:05+02:00", "1.5", "1e400", "{}", "[1]", '{"a": 1}',
    f'{{"lion_class": "{RUNTIME_FIELDSPEC_CLASS}"}}', '{"lion_class": "x"}',
    b"", b"yes", b"ON", b"int", b"\xff", b"ok", b" yes", bytearray(b"yes"),
    dt.date(2024, 1, 2), dt.datetime(2024, 1, 2, 3, 4, 5), dt.datetime(2024, 1, 2, tzinfo=dt.UTC),
]  # fmt: skip
HASHABLE = [value for value in LAX_SCALARS if type(value) is not bytearray]
LAX_KEYS = ["type", "required", "default", "description", "id", "created_at", "metadata"]
LAX_EXTRA_KEYS: list[Any] = ["tpye", "choices", "name", "Type", "lion_class", 3, None, b"x", True]
LAX_NAMES: list[Any] = ["age", "_x", "Name2", "1a", "a-b", "", "é", "age\n", b"age", b"\xff", 1, None, 2.5]


def _lax_value(rng: random.Random, depth: int = 0) -> Any:
    """Any value a loader gives: a scalar, or (shallowly) a list, tuple, dict or set of them."""
    roll = rng.random()
    if depth >= 2 or roll < 0.7:
        return rng.choice(LAX_SCALARS)
    size = rng.randint(0, 3)
    if roll < 0.78:
        return [_lax_value(rng, depth + 1) for _ in range(size)]
    if roll < 0.82:
        return tuple(_lax_value(rng, depth + 1) for _ in range(size))
    if roll < 0.94:
        keys = ["a", "lion_class", 1, True, None, "b"]
        return {rng.choice(keys): _lax_value(rng, depth + 1) for _ in range(size)}
    members = {rng.choice(HASHABLE) for _ in range(size)}
    return members if rng.random() < 0.5 else frozenset(members)


def lax_declarations(seed: int, count: int) -> list[tuple[Any, dict[Any, Any]]]:
    """*count* (key, declaration) pairs: any subset of the keys in any order, sometimes unknown
    keys, each value a random loaded value or one of its key's own (valid and near-valid)."""
    rng = random.Random(seed)
    own: dict[str, list[Any]] = {
        "type": [*FIELD_TYPES, "string", "integer", "Int", "enum"],
        "required": [True, False, "yes", "no", "maybe", 0, 1, 1.0, "true", "off"],
        "description": ["", "d", b"d", 3],
        "id": [uuid.UUID("6f1c2d3e-0000-4000-8000-000000000000"), "6f1c2d3e-0000-4000-8000-000000000000", "x", 5],
        "created_at": [1.5, 3, "2024-01-02", "bad", None, dt.datetime(2024, 1, 2), [1]],
        "metadata": [{}, {"a": 1}, {"lion_class": RUNTIME_FIELDSPEC_CLASS}, {"lion_class": "x"}, "[1]", {"lion_class"}],
    }
    pairs = []
    for _ in range(count):
        keys = rng.sample(LAX_KEYS, rng.randint(0, len(LAX_KEYS)))
        if rng.random() < 0.3:
            keys.insert(rng.randint(0, len(keys)), rng.choice(LAX_EXTRA_KEYS))
        declaration = {
            key: rng.choice(own[key]) if key in own and rng.random() < 0.5 else _lax_value(rng) for key in keys
        }
        name = rng.choice(LAX_NAMES) if rng.random() < 0.2 else f"field_{rng.randint(0, 9)}"
        pairs.append((name, declaration))
    return pairs


def _problems(key: Any, declaration: dict[Any, Any]) -> tuple[Any, ...]:
    found: list[Any] = []
    spec = declarations._build_declaration(key, declaration, found)
    return (None if spec is None else _declared(spec), found, [problem.fix for problem in found])


def test_lax_declarations_are_what_the_model_gives() -> None:
    """On 6,000 random declarations, the validation without pydantic gives the model's errors
    (kinds, messages, order) and the model's field, and the lint its problems and fixes; it
    decides nearly all of them (the rest it leaves to the model)."""
    decided = 0
    pairs = lax_declarations(seed=14, count=6000)
    for key, declaration in pairs:
        payload = {k: v for k, v in declaration.items() if isinstance(k, str) and k != "name"}
        payload["name"] = "placeholder"
        expected_spec, expected_errors = lax_fields.model_fieldspec(payload)
        expected = (None if expected_spec is None else _declared(expected_spec), expected_errors)
        try:
            spec, errors = lax_fields.lax_fieldspec(payload)
        except Unsure:
            pass
        else:
            decided += 1
            assert same((None if spec is None else _declared(spec), errors), expected), (key, declaration)
        lax = _problems(key, declaration)
        with mock.patch.object(declarations, "validate_fieldspec", lax_fields.model_fieldspec):
            model = _problems(key, declaration)
        assert same(lax, model), (key, declaration)
    assert decided > 0.8 * len(pairs)


PROBLEM_FORM = """\
title: yes
fields:
  age:
    type: integer
    required: maybe
    choices: [a, b]
  name:
    tpye: str
    description: 3
  when:
    type: int
    default: soon
    created_at: not a date
    metadata: {lion_class: Other}
values:
  age: 3
"""


def test_a_form_with_problems_is_linted_without_pydantic() -> None:
    """Wrong types, unknown keys, a default that does not fit and bad Element keys are all
    reported without importing pydantic (its import and model building cost a one-file lint
    more than the rest of it)."""
    script = (
        "import sys\n"
        "from formscript.lint.engine import lint_text\n"
        f"result = lint_text({PROBLEM_FORM!r}, 'a.form.yaml')\n"
        "print(sorted({d.code for d in result.diagnostics}))\n"
        "print('pydantic' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out == "['FS008', 'FS010', 'FS011', 'FS019', 'FS020']\nFalse\n"


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


def test_a_replacement_is_the_same_without_the_unlinked_fast_path() -> None:
    """``yamledits.replacement`` takes the located nodes where the text holds no alias,
    merge key or tag; walking the written hops (``_written``) gives the same edit for every
    path, key and value, in documents of every shape the benchmarks use and in linked ones."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from corpus import form_text, problem_form_text, problem_script_text, script_text

    from formscript.document import yamledits
    from formscript.document.located import parse_document

    rng = random.Random(52)
    texts = [make(rng, rng.randint(1, 12)) for make in (form_text, script_text, problem_form_text) for _ in range(15)]
    texts += [problem_script_text(rng, rng.randint(1, 12)) for _ in range(15)]
    texts += [
        "a: &x 1\nb: *x\nc: [1, 2]\n",
        "base: &b {k: v}\nuse:\n  <<: *b\n  k: w\n",
        "t: !!str 3\nu: [true, 1.5]\n",
        "- 1\n- 2\n- x: y\n",
    ]
    compared = 0
    for text in texts:
        paths = _paths(parse_document(text).value)
        paths += [(*p, part) for p in paths[:5] for part in (True, 1.0, -1, 99)]
        for on_key in (False, True):
            fast, walked = parse_document(text), parse_document(text)
            with mock.patch.object(yamledits, "_unlinked_entry", return_value=None):
                slow = [walked.replacement(p, "new", on_key=on_key) for p in paths]
            assert [fast.replacement(p, "new", on_key=on_key) for p in paths] == slow, text
            compared += len(paths)
    assert compared > 2000


def test_an_entry_is_found_as_the_children_maps_find_it() -> None:
    """``_locate_entry`` indexes sequences and scans mappings for a string key without
    making a node's children map: on every path (and on odd parts: bools, floats, negative
    and missing indexes, keys written quoted, tagged or twice) it finds the nodes the maps
    find."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from corpus import problem_form_text, problem_script_text, script_text

    from formscript.document.located import parse_document
    from formscript.document.yamlread import node_span

    rng = random.Random(14)
    texts = [
        make(rng, rng.randint(1, 10))
        for make in (script_text, problem_form_text, problem_script_text)
        for _ in range(15)
    ]
    texts += [
        "a: 1\na: 2\n'a': 3\n",
        "1: x\n'1': y\ntrue: z\n",
        "!!str k: v\nk2: !!str 5\n? [x]\n: y\n",
        "- a\n- [b, c]\n- {d: e}\n",
        "x: &v [1, 2]\ny: *v\n",
        "".join(f"k{i}: {i}\n" for i in range(30)) + "k3: again\n'k4': quoted\n",  # past the scan: the map
    ]
    found = 0
    for text in texts:
        doc = parse_document(text)
        paths = _paths(doc.value)
        paths += [(*p, part) for p in paths[:8] for part in (True, False, 1.0, -1, 99, "1", "a", 1)]
        for path in paths:
            node, key_node = doc.root, None
            for part in path:
                children = doc._children_of(node) if node is not None else None
                hit = children.get(part) if children is not None else None
                if hit is None:
                    node = None
                    break
                key_node, node = hit
            fresh = parse_document(text).entry(path)
            if node is None:
                assert fresh is None, (text, path)
                continue
            assert fresh is not None, (text, path)
            assert fresh.value == node_span(node), (text, path)
            assert fresh.key == (node_span(key_node) if key_node is not None else None), (text, path)
            found += 1
    assert found > 1000
