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
