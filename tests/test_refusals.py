"""Reading texts libyaml refuses, and libyaml's resolver, cheaply and still exactly (issue 14).

* A script libyaml refuses is split into its entries before the pure-Python loader (the
  runtime's, which has the last word) reads the whole text: the split is kept only where that
  loader refuses some entry alone, and then it must refuse the whole text too. Checked on
  scripts broken by random edits (``FORMSCRIPT_REFUSALS_CASES``, default 3,000), and on the
  texts where the two loaders disagree (a colon before a comma in a flow mapping).
* libyaml asks a Python resolver for the tag of every scalar; formscript's loader memoises
  the answer, which must be what PyYAML's own resolver gives.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import yaml

from formscript.document import parse_document
from formscript.document.located import _CLoader, _safe_loader_class
from formscript.document.segments import split_entries, tolerate
from formscript.lint.config import Settings
from formscript.lint.engine import lint_text

ROOT = Path(__file__).resolve().parent.parent
CASES = int(os.environ.get("FORMSCRIPT_REFUSALS_CASES", "3000"))

#: Insertions that break a script (or, in flow mappings, split the two loaders).
BREAKERS = [":,", ":}", ": ,", *"\"'{}[]:,-#&*!|>%@` \n?.\\", "\n  - ", "\n    ", ": ", "- ", "  ", '"\n']


def _seeds(tmp: Path) -> list[str]:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from corpus import write_corpus, write_problem_corpus
    finally:
        sys.path.remove(str(ROOT / "bench"))
    texts = []
    for path in write_corpus(tmp / "clean", 60) + write_problem_corpus(tmp / "problems", 120):
        if ".script." in path.name and path.suffix != ".json":
            try:
                texts.append(path.read_text(encoding="utf-8"))
            except UnicodeDecodeError:
                continue
    return texts


def _mutated(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        roll = rng.random()
        if roll < 0.6:
            text = text[:at] + rng.choice(BREAKERS) + text[at:]
        elif roll < 0.8:
            text = text[:at] + text[at + rng.randint(1, 4) :]
        else:
            source = rng.randrange(len(text) + 1)
            text = text[:at] + text[source : source + rng.randint(1, 20)] + text[at:]
    return text


def _libyaml_refuses(text: str) -> bool:
    try:
        yaml.compose(text, Loader=yaml.CSafeLoader)
    except Exception:
        return True
    return False


def test_a_tolerated_script_is_one_the_runtime_refuses(tmp_path: Path) -> None:
    rng = random.Random(20261201)
    seeds = _seeds(tmp_path)
    tolerated = divergent = 0
    for _ in range(CASES):
        text = _mutated(rng, rng.choice(seeds))
        if split_entries(text) is None or not _libyaml_refuses(text):
            continue
        if tolerate(text) is not None:
            tolerated += 1
            assert not parse_document(text).ok, text
        elif parse_document(text).ok:
            divergent += 1  # libyaml refuses, the runtime loads it: read as the runtime does
            report = lint_text(text, "x.script.yaml", settings=Settings())
            assert not any(d.code == "YM001" for d in report.diagnostics), text
    assert tolerated > CASES // 5
    assert divergent > 0


def test_where_libyaml_alone_refuses_the_script_the_runtimes_reading_decides() -> None:
    text = "responses:\n  - type: text\n    content: a\n  - type: structured\n    data: {status:, index: 1}\n"
    assert _libyaml_refuses(text)
    loaded = parse_document(text)
    assert loaded.ok and loaded.value["responses"][1]["data"] == {"status": None, "index": 1}
    report = lint_text(text, "x.script.yaml", settings=Settings())
    assert report.verdict is not None and report.verdict.value == "accepted"
    assert tolerate(text) is None


def test_a_broken_entry_is_still_found_at_its_cause() -> None:
    text = 'responses:\n  - type: text\n    content: "open\n  - type: text\n    content: fine\n  - type: txt\n'
    report = lint_text(text, "x.script.yaml", settings=Settings())
    assert report.verdict is not None and report.verdict.value == "rejected"
    codes = [(d.code, d.span.start.line) for d in report.diagnostics]
    assert codes[0] == ("YM001", 2)
    assert any(code != "YM001" and line == 5 for code, line in codes)  # the third entry keeps its finding


def test_the_memoised_resolver_answers_as_pyyamls() -> None:
    assert _CLoader is not None and _safe_loader_class() is _CLoader
    reference, memoised = yaml.CSafeLoader(""), _CLoader("")
    rng = random.Random(7)
    alphabet = "0123456789.+-_:eExXoObB~nNyYtTfF<=abc !&*"
    values = ["", "yes", "No", "~", "null", "0x1F", "0o17", "1_000", "1:20:30", ".inf", "-.NaN", "2020-01-01", "<<"]
    values += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9))) for _ in range(20000)]
    for value in values:  # more values than the memo holds: it is cleared on the way
        for implicit in ((True, False), (False, True), (True, True), (False, False)):
            expected = yaml.resolver.BaseResolver.resolve(reference, yaml.ScalarNode, value, implicit)
            assert memoised.resolve(yaml.ScalarNode, value, implicit) == expected, (value, implicit)
    for kind in (yaml.SequenceNode, yaml.MappingNode):
        assert memoised.resolve(kind, None, (True, False)) == yaml.resolver.BaseResolver.resolve(
            reference, kind, None, (True, False)
        )
