"""A seeded corpus of realistic form specs and response scripts for the benchmarks."""

from __future__ import annotations

import random
from pathlib import Path

TYPES = ["str", "int", "float", "bool", "list", "dict"]
SAMPLES = {"str": "'hello world'", "int": "42", "float": "3.5", "bool": "true", "list": "[a, b]", "dict": "{k: v}"}


def form_text(rng: random.Random, n_fields: int) -> str:
    lines = [f"title: Form {rng.randrange(10**6)}", "fields:"]
    names = [f"field_{i}" for i in range(n_fields)]
    for name in names:
        kind = rng.choice(TYPES)
        lines.append(f"  {name}:")
        lines.append(f"    type: {kind}")
        lines.append(f"    required: {rng.choice(['true', 'false'])}")
        lines.append(f"    description: The {name.replace('_', ' ')} of the request")
    lines.append("values:")
    for name in names:
        kind = lines[lines.index(f"  {name}:") + 1].split(": ")[1]
        lines.append(f"  {name}: {SAMPLES[kind]}")
    return "\n".join(lines) + "\n"


def script_text(rng: random.Random, n_entries: int) -> str:
    lines = ["version: 1", "mode: auto", "responses:"]
    for i in range(n_entries):
        kind = rng.choice(["text", "text", "tool_call", "structured", "stream", "error"])
        lines.append(f"  - type: {kind}")
        if kind == "text":
            lines.append(f"    content: Answer number {i} with some words in it")
        elif kind == "tool_call":
            lines.append(f"    name: tool_{i % 7}")
            lines.append(f"    arguments: {{query: item {i}, limit: {i % 10}}}")
        elif kind == "structured":
            lines.append(f"    data: {{status: ok, index: {i}, tags: [a, b]}}")
        elif kind == "stream":
            lines.append("    chunks:")
            lines.append(f"      - {{type: text, content: part {i}, is_delta: true}}")
            lines.append("      - {type: result}")
        else:
            lines.append("    kind: rate_limit")
            lines.append("    message: slow down")
        if rng.random() < 0.3:
            lines.append(f"    when: {{prompt_contains: topic {i}}}")
    return "\n".join(lines) + "\n"


def write_corpus(root: Path, n_files: int, seed: int = 52, large: bool = False) -> list[Path]:
    """Write *n_files* small mixed files (half forms, half scripts) and optional large ones."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n_files):
        if i % 2:
            path = root / f"case_{i:05d}.form.yaml"
            path.write_text(form_text(rng, rng.randint(2, 12)), encoding="utf-8")
        else:
            path = root / f"case_{i:05d}.script.yaml"
            path.write_text(script_text(rng, rng.randint(2, 20)), encoding="utf-8")
        paths.append(path)
    if large:
        big = root / "large_2000.script.yaml"
        big.write_text(script_text(rng, 2000), encoding="utf-8")
        form = root / "large_800.form.yaml"
        form.write_text(form_text(rng, 800), encoding="utf-8")
        paths += [big, form]
    return paths


# --- A corpus heavy with problems: what people run a linter on. ---------------------------

#: Values YAML 1.1 reads as something other than the text written (booleans, octal, floats,
#: sexagesimal numbers, dates, null).
SURPRISES = ["yes", "no", "on", "off", "Y", "0755", "1e3", "1:30", "2024-01-05", "~", "null", ".inf", "0x1F"]
#: Misspellings people make of the keys, with the key meant.
TYPOS_OF = {"content": ["conten", "contnet", "Content"], "type": ["tpye", "typ"], "when": ["whne", "wen"]}
BROKEN = [
    '  - type: text\n    content: "an unterminated quote\n',
    "  - type: text\n     content: bad indentation\n",
    "  - type: text\n\tcontent: a tab\n",
    "  - {type: text, content: unclosed\n",
    "  - type: text\n    content: [a, b\n",
]


def _problem_entry(rng: random.Random, i: int) -> list[str]:
    kind = rng.choice(["text", "text", "tool_call", "structured", "stream", "error", "texte", "tool"])
    lines = [f"  - type: {kind}"]
    roll = rng.random()
    key = "content"
    if roll < 0.15:
        key = rng.choice(TYPOS_OF["content"])
    if kind in ("text", "texte"):
        value = rng.choice(SURPRISES) if rng.random() < 0.35 else f"Answer {i} with words"
        lines.append(f"    {key}: {value}")
    elif kind in ("tool_call", "tool"):
        lines.append(f"    name: {rng.choice(['search', 'lookup', 'yes', ''])}")
        if rng.random() < 0.7:
            lines.append(f"    arguments: {rng.choice(['{q: 1}', '[1, 2]', 'text', '{}'])}")
    elif kind == "structured":
        lines.append(f"    data: {rng.choice(['{a: 1}', 'no', '[x]', '{status: on}'])}")
    elif kind == "stream":
        lines.append("    chunks:")
        lines.append(f"      - {{type: text, content: {rng.choice(['part', 'yes', '1e3'])}}}")
        if rng.random() < 0.6:
            lines.append(f"      - {{type: {rng.choice(['result', 'done', 'text'])}}}")
    else:
        lines.append(f"    kind: {rng.choice(['timeout', 'rate_limit', 'oops', 'TIMEOUT'])}")
    when = rng.random()
    if when < 0.15:
        lines.append("    when: {}")
    elif when < 0.3:
        lines.append(f"    when: {{prompt_contains: {rng.choice(['x', 'yes', 'topic'])}}}")
    elif when < 0.4:
        lines.append(f"    {rng.choice(TYPOS_OF['when'])}: {{call_index: {rng.randrange(5)}}}")
    elif when < 0.45:
        lines.append("    when: {prompt_regex: '(a+)+$'}")
    if rng.random() < 0.05:
        lines.append(f"    {key}: duplicated")
    return lines


def problem_script_text(rng: random.Random, n_entries: int) -> str:
    header = rng.choice(
        [
            ["version: 1", "mode: auto"],
            ["version: 2", "mode: auto"],
            ["version: 1", "mode: sequential"],
            ["version: '1'", "mode: automatic"],
            ["mode: cycle"],
            [],
        ]
    )
    lines = [*header, "responses:"]
    for i in range(n_entries):
        lines += _problem_entry(rng, i)
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.12:
        text += rng.choice(BROKEN)
    return text


def problem_form_text(rng: random.Random, n_fields: int) -> str:
    lines = [rng.choice(["title: A form", "title: yes", "titel: A form", "name: form"]), "fields:"]
    names = [f"field_{i}" for i in range(n_fields)]
    types = {}
    for name in names:
        kind = rng.choice([*TYPES, "string", "integer", "list[str]", "enum"])
        types[name] = kind
        lines.append(f"  {name}:")
        lines.append(f"    {rng.choice(['type', 'type', 'type', 'tpye'])}: {kind}")
        if rng.random() < 0.6:
            lines.append(f"    required: {rng.choice(['true', 'yes', 'no', 'maybe', 'false'])}")
        if kind == "enum" or rng.random() < 0.1:
            lines.append(f"    choices: {rng.choice(['[a, b]', '[]', 'a', '[yes, no]'])}")
    lines.append(rng.choice(["values:", "value:"]))
    for name in names:
        if rng.random() < 0.2:
            continue  # a required value missing
        sample = rng.choice([SAMPLES.get(types[name], "x"), rng.choice(SURPRISES), "[1, 2]", "'text'", ""])
        target = name if rng.random() > 0.1 else name.replace("field", "feild")
        lines.append(f"  {target}: {sample}")
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.1:
        text = text.replace("  field_0:", '  field_0: "open', 1)
    return text


def write_problem_corpus(root: Path, n_files: int, seed: int = 14) -> list[Path]:
    """Write *n_files* small files heavy with problems: half forms, half scripts (some JSON,
    some CRLF, some with a BOM), and a few files of other tools that must be skipped."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n_files):
        roll = rng.random()
        light = rng.random() < 0.4  # mostly right, with one slip
        if roll < 0.46:
            path = root / f"case_{i:05d}.form.yaml"
            if light:
                text = form_text(rng, rng.randint(1, 12)).replace("'hello world'", rng.choice(SURPRISES), 1)
            else:
                text = problem_form_text(rng, rng.randint(1, 12))
        elif roll < 0.92:
            path = root / f"case_{i:05d}.script.yaml"
            if light:
                slip = rng.choice(["conten:", "content: yes\n    when: {}\n    x:", "type: texte\n    content:"])
                text = script_text(rng, rng.randint(1, 20)).replace("content:", slip, 1)
            else:
                text = problem_script_text(rng, rng.randint(1, 20))
        else:
            path = root / f"other_{i:05d}.yaml"  # another tool's file: skipped by content
            text = rng.choice(OTHER_TOOLS)
        if rng.random() < 0.05:
            text = text.replace("\n", "\r\n")
        data = text.encode("utf-8")
        if rng.random() < 0.03:
            data = b"\xef\xbb\xbf" + data
        if rng.random() < 0.01:
            data = data.replace(b"Answer", b"Antwort \xe4", 1)  # Latin-1 bytes: not UTF-8
        path.write_bytes(data)
        paths.append(path)
    return paths


OTHER_TOOLS = [
    "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: reader}\n"
    "rules:\n  - apiGroups: ['']\n    resources: [pods]\n    verbs: [get, list]\n",
    "openapi: 3.0.0\ninfo: {title: API, version: '1'}\npaths:\n  /x:\n    get:\n"
    "      responses:\n        '200': {description: ok}\n",
    "extends: default\nrules:\n  line-length: {max: 120}\n  truthy: disable\n",
    "replicaCount: 1\nmode: auto\nimage: {repository: nginx, tag: stable}\n",
    "fields:\n  - name: id\n    type: integer\n  - name: title\n    type: string\n",
    "- one\n- two\n- three\n",
    "on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n",
]
