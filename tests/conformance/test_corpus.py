"""The corpus itself: big enough, deterministic, and reaching every stage and edge it claims.

An agreement test over cases that all stop at the loader would prove little, so this checks
where the cases end up (with formscript's outcomes, which the agreement tests tie to lionagi).
"""

from __future__ import annotations

import collections

import pytest

from .conftest import SEED, Corpus
from .corpus import generate_form_cases, generate_script_cases
from .engines import FORM_CATEGORIES, FormscriptEngine

pytestmark = pytest.mark.slow  # builds the 10,400-case corpus


def test_corpus_is_large_enough(corpus: Corpus) -> None:
    assert len(corpus.forms) >= 5000
    assert len(corpus.scripts) >= 5000
    assert all(case.transcript for case in corpus.scripts)


def test_corpus_is_deterministic(corpus: Corpus) -> None:
    assert generate_form_cases(SEED, 60) == corpus.forms[:60]
    assert generate_script_cases(SEED, 60) == corpus.scripts[:60]
    assert generate_form_cases(SEED + 1, 60) != corpus.forms[:60]
    assert len({case.filename for case in corpus.forms + corpus.scripts}) == (len(corpus.forms) + len(corpus.scripts))


FORM_TAGS = [
    "yaml:int",
    "yaml:float",
    "yaml:bool",
    "yaml:null",
    "yaml:strnum",
    "yaml:strbool",
    "yaml:date",
    "yaml:tag",
    "yaml:anchor",
    "yaml:merge",
    "yaml:alias",
    "yaml:flow-doc",
    "json:float",
    "json:tab-after-colon",
    "dup-key",
    "degenerate",
    "bom",
    "crlf",
    "name:bad",
    "name:nonstr",
    "decl:name",
    "decl:element-key",
    "decl:typo",
    "decl:bad-type",
    "decl:not-mapping",
    "decl:default",
    "decl:required",
    "decl:nonstr-key",
    "values:undeclared",
    "values:nonstr-key",
    "values:not-mapping",
    "fields:not-mapping",
    "top:unknown",
]
SCRIPT_TAGS = [
    "entry:text",
    "entry:tool_call",
    "entry:structured",
    "entry:stream",
    "entry:error",
    "entry:weird",
    "entry:extra-key",
    "tool_call:id",
    "error:delay",
    "when:several",
    "when:call_index",
    "when:after_calls",
    "when:empty",
    "when:null",
    "when:typo",
    "regex:invalid",
    "payload:list-content",
    "payload:input",
    "payload:malformed",
    "mode:auto",
    "mode:positional",
    "mode:when_only",
    "suffix:odd",
    "responses:odd",
    "top:bare-list",
    "transcript:reset",
    "json:float",
    "json:tab-after-colon",
    "yaml:alias",
    "yaml:merge",
    "dup-key",
    "degenerate",
]


def test_corpus_covers_its_edges(corpus: Corpus) -> None:
    form_tags = collections.Counter(tag for case in corpus.forms for tag in case.tags)
    script_tags = collections.Counter(tag for case in corpus.scripts for tag in case.tags)
    assert [t for t in FORM_TAGS if form_tags[t] < 20] == []
    assert [t for t in SCRIPT_TAGS if script_tags[t] < 20] == []
    texts = "\n".join(case.text for case in corpus.forms + corpus.scripts)
    spellings = [
        "yes",
        "off",
        "0x1F",
        "017",
        "0b101",
        "1_000",
        "12:30",
        "1e3",
        "1.0e+3",
        "~",
        "2024-01-01",
        "1999-12-31T23:59:59Z",
        "NaN",
        "Infinity",
        '" 7 "',
        '"nan"',
        '"inf"',
        "İ",
        "ß",
        "!!set",
        "!!binary",
        "<<:",
        "name:",
        "created_at:",
        "metadata:",
        "prompt_regex:",
        "has_tool:",
        "call_index:",
        "after_calls:",
    ]
    assert [s for s in spellings if s not in texts] == []


def test_form_cases_reach_every_stage(corpus: Corpus, formscript_engine: FormscriptEngine) -> None:
    outcomes = [formscript_engine.form_outcome(corpus.path(case)) for case in corpus.forms]
    stages = collections.Counter(o.category or "accepted" for o in outcomes)
    total = len(outcomes)
    assert stages["accepted"] > 0.2 * total, stages
    for category in FORM_CATEGORIES:
        assert stages[category] > 0.01 * total, stages
    with_block = sum(1 for o in outcomes if o.context_block is not None)
    assert with_block > 0.15 * total


def test_script_cases_reach_every_outcome(corpus: Corpus, formscript_engine: FormscriptEngine) -> None:
    outcomes = [formscript_engine.script_outcome(corpus.path(case), case.transcript) for case in corpus.scripts]
    verdicts = collections.Counter((o.verdict, o.load_error) for o in outcomes)
    assert verdicts[("accepted", None)] > 0.3 * len(outcomes), verdicts
    assert verdicts[("rejected", "parse")] > 50 and verdicts[("rejected", "schema")] > 50
    terminals = collections.Counter(o.terminal for o in outcomes if o.verdict == "accepted")
    for terminal in (None, "exhausted", "invalid_regex", "crash:TypeError"):
        assert terminals[terminal] >= 10, terminals
    kinds = collections.Counter(s.matched_by for o in outcomes for s in o.served)
    for kind in ("positional", "prompt_contains", "prompt_regex", "has_tool", "call_index", "after_calls"):
        assert kinds[kind] >= 20, kinds
    types = collections.Counter(s.response_type for o in outcomes for s in o.served)
    assert all(types[t] >= 20 for t in ("text", "tool_call", "structured", "stream", "error"))
    modes = collections.Counter(o.mode for o in outcomes if o.verdict == "accepted")
    assert all(modes[m] >= 100 for m in ("auto", "positional", "when_only")), modes
