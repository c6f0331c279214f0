"""Python-tree benchmark (issue 16): ``formscript lint`` on a Python test suite against a plain
``ast.parse`` loop over the files that mention lionagi, whole processes, alternating.

    python bench/python_tree.py              # 600 files, 7 rounds
    python bench/python_tree.py --files 2000 --rounds 5

The tree is seeded and shaped like a library's own test suite: most files import lionagi,
some of them build scripts and forms (the hand-written suite in tests/fixtures/python, copied
under other names), the rest test other things; a share of files do not mention lionagi at
all. Both commands walk the same tree and read every ``.py`` file; the baseline parses the
files whose bytes contain ``lionagi`` and nothing else. Only the ratio is reported.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SUITE = ROOT / "tests" / "fixtures" / "python" / "suite"

AST_LOOP = r"""
import ast, os, sys
for folder, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
    for name in sorted(files):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as handle:
                data = handle.read()
            if b"lionagi" in data:
                ast.parse(data)
"""

_PLAIN = '''"""Tests for {topic}."""

import json

import pytest

{imports}


class Test{name}:
    def setup_method(self):
        self.items = [{{"id": i, "value": i * 2}} for i in range(10)]

    def test_count(self):
        assert len(self.items) == 10

    def test_values(self):
        assert [item["value"] for item in self.items][:3] == [0, 2, 4]

    @pytest.mark.parametrize("index", range(5))
    def test_each(self, index):
        item = self.items[index]
        assert item["id"] == index and json.loads(json.dumps(item)) == item

    async def test_async(self):
        result = await {call}
        assert result is not None


def helper_{name_lower}(data, *, depth=0):
    if depth > 3:
        return data
    return {{key: helper_{name_lower}(value, depth=depth + 1) if isinstance(value, dict) else value
            for key, value in data.items()}}


def test_helper():
    nested = {{"a": {{"b": {{"c": 1}}}}, "d": [1, 2, 3]}}
    assert helper_{name_lower}(nested)["a"]["b"]["c"] == 1
'''


#: The share of files that build scripts or forms: lionagi 0.36.0's own suite hands about 300
#: literal documents to the API across some hundreds of files; each copy of the hand-written
#: suite's files holds about ten, so a tenth of the files gives more documents than that.
SCRIPTED_SHARE = 0.10


def write_tree(root: Path, files: int, seed: int = 16, share: float = SCRIPTED_SHARE) -> dict[str, int]:
    """A seeded test tree of *files* Python files, *share* of them building scripts or forms;
    how many of each sort."""
    rng = random.Random(seed)
    templates = sorted(SUITE.rglob("test_*.py"))
    counts = {"with_scripts_or_forms": 0, "mention_lionagi": 0, "no_lionagi": 0}
    for index in range(files):
        folder = root / "tests" / f"area_{index % 12:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        roll = rng.random()
        if roll < share:
            template = templates[index % len(templates)]
            text = template.read_text(encoding="utf-8")
            counts["with_scripts_or_forms"] += 1
        elif roll < max(share, 0.85):
            name = f"Feature{index}"
            text = _PLAIN.format(
                topic=f"lionagi feature {index}",
                imports="from lionagi.ln import to_list\nfrom lionagi.session.branch import Branch",
                name=name,
                name_lower=name.lower(),
                call="Branch().chat_model is not None if False else to_list([1])",
            )
            text += "".join(f"\n\ndef test_extra_{n}():\n    assert to_list([{n}]) == [{n}]\n" for n in range(40))
            counts["mention_lionagi"] += 1
        else:
            name = f"Other{index}"
            text = _PLAIN.format(
                topic=f"utility {index}", imports="import math", name=name, name_lower=name.lower(), call="None or 1"
            )
            counts["no_lionagi"] += 1
        (folder / f"test_{index:05d}.py").write_text(text, encoding="utf-8")
    return counts


def _time(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def measure(tree: Path, rounds: int) -> dict[str, float]:
    """Median seconds of each command over *rounds*, the commands alternating."""
    py = sys.executable
    commands = {
        "formscript": [py, "-m", "formscript", "lint", "--no-cache", "--format", "json", "--exit-zero", str(tree)],
        "ast_parse_loop": [py, "-c", AST_LOOP, str(tree)],
    }
    for command in commands.values():  # warm the file cache and the interpreter's
        _time(command)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            times[name].append(_time(command))
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    for label, share in (("a test suite", SCRIPTED_SHARE), ("worst case: every file builds them", 0.85)):
        with tempfile.TemporaryDirectory(prefix="formscript-pytree-") as scratch:
            tree = Path(scratch)
            counts = write_tree(tree, args.files, share=share)
            medians = measure(tree, args.rounds)
        ratio = medians["formscript"] / medians["ast_parse_loop"]
        print(
            f"{label}: {args.files} Python files ({counts['with_scripts_or_forms']} build scripts or forms, "
            f"{counts['mention_lionagi']} mention lionagi otherwise, {counts['no_lionagi']} do not), "
            f"medians of {args.rounds} rounds"
        )
        print(f"  formscript lint / ast.parse loop over the files that mention lionagi: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
