"""Reading texts libyaml refuses, and libyaml's resolver, cheaply and still exactly (issue 14).

* A script libyaml refuses is split into its entries before the pure-Python loader (the
  runtime's, which has the last word) reads the whole text: the split is kept only where that
  loader refuses some entry alone, and then it must refuse the whole text too. Checked on
  scripts broken by random edits (``FORMSCRIPT_REFUSALS_CASES``, default 3,000), and on the
  texts where the two loaders disagree (a colon before a comma in a flow mapping).
* Where libyaml refuses a text in a way the pure loader is known to refuse it alike (a
  mapping value where none may start, a quote never closed, a line indented off its block...),
  the runtime's refusal is read from libyaml's and the pure loader is not run; where the first
  tab stands in a line's indentation and libyaml shows the scanner stops there, the same.
  Both are compared with the pure loader on texts broken by random edits (scripts, forms and
  other tools' YAML; CRLF, a BOM, characters past ASCII, other line breaks), and whole lint
  reports with and without them.
* libyaml asks a Python resolver for the tag of every scalar; formscript's loader memoises
  the answer, which must be what PyYAML's own resolver gives.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
import yaml

from formscript.document import parse_document, yamlread
from formscript.document.segments import split_entries
from formscript.document.tolerate import tolerate
from formscript.document.yamlread import CLoader, safe_loader_class
from formscript.lint.config import Settings
from formscript.lint.engine import lint_text
from formscript.lint.formats import render_json

ROOT = Path(__file__).resolve().parent.parent
CASES = int(os.environ.get("FORMSCRIPT_REFUSALS_CASES", "3000"))

#: Insertions that break a script (or, in flow mappings, split the two loaders).
BREAKERS = [":,", ":}", ": ,", *"\"'{}[]:,-#&*!|>%@` \n?.\\", "\n  - ", "\n    ", ": ", "- ", "  ", '"\n']


#: Other tools' YAML, beside the scripts and forms of the corpora.
OTHER_YAML = [
    'name: CI\non:\n  push:\n    branches: [ main, "release/**" ]\nenv:\n  PY: "3.11"   # pinned\n'
    "jobs:\n  test:\n    runs-on: ${{ matrix.os }}\n    steps:\n      - uses: actions/checkout@v4\n"
    "      - name: Set up \u2014 Python\n        with:\n          python-version: '3.11'\n"
    "      - run: |\n          pip install -e '.[test]'\n          pytest -q\n      - run: >\n          echo one\n",
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: &labels\n    app: web\n"
    "spec:\n  selector:\n    matchLabels: *labels\n  template:\n    metadata:\n      labels:\n        <<: *labels\n"
    '    spec:\n      containers:\n        - name: web\n          image: "nginx:1.25"\n'
    '          args: ["--port", "80", \'--name=\u00fc\']\n          resources:\n            limits: {cpu: 500m}\n'
    "---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports: [{port: 80, targetPort: 80}]\n...\n",
    "- hosts: all\n  become: yes\n  vars:\n    message: 'It''s \"quoted\"'\n    multi: \"line one\n      line two\"\n"
    '  tasks:\n    - name: install\n      apt: name={{ item }} state=present\n      loop: "{{ packages }}"\n'
    '      when: ansible_os_family == "Debian"\n  handlers:\n    - {name: restart, service: {name: nginx}}\n',
    "openapi: 3.0.0\ninfo:\n  description: |-\n    Multi-line.\n      Indented.\n\n    \u65e5\u672c\u8a9e\n"
    "paths:\n  /users/{id}:\n    get:\n      parameters:\n        - name: id\n"
    "          schema: {type: integer, minimum: 1}\n"
    "      responses:\n        '200':\n          content:\n            application/json:\n"
    "              schema:\n                $ref: '#/components/schemas/User'\n        default: {description: \"x\"}\n",
]

#: Ways a file differs from the corpora's: line breaks, a BOM, characters past ASCII.
ODDITIES = ["\u00e9", "\u65e5\u672c", "\u2028", "\x85", "\U0001f600", "\r"]


def _seeds(tmp: Path, kind: str = ".script.") -> list[str]:
    """The corpora's YAML files of *kind* (scripts or forms), clean and with problems."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from corpus import write_corpus, write_problem_corpus
    finally:
        sys.path.remove(str(ROOT / "bench"))
    texts = []
    for path in write_corpus(tmp / "clean", 60) + write_problem_corpus(tmp / "problems", 120):
        if kind in path.name and path.suffix != ".json":
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
    assert CLoader is not None and safe_loader_class() is CLoader
    reference, memoised = yaml.CSafeLoader(""), CLoader("")
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


def _varied(rng: random.Random, text: str) -> str:
    roll = rng.random()
    if roll < 0.15:
        return text.replace("\n", "\r\n")
    if roll < 0.2:
        return "\ufeff" + text
    if roll < 0.3:
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(ODDITIES) + text[at:]
    return text


def _pure_refusal(text: str) -> object:
    """The pure loader's problem for *text* (None where it loads)."""
    try:
        yamlread.compose_pure(text)
    except yamlread.Refused as refused:
        return refused.problem
    return None


def test_a_refusal_libyaml_makes_alike_is_the_runtimes_refusal(tmp_path: Path) -> None:
    rng = random.Random(20261202)
    seeds = _seeds(tmp_path / "scripts") + _seeds(tmp_path / "forms", ".form.")
    read: dict[object, int] = {}
    for _ in range(CASES):
        text = _varied(rng, _mutated(rng, rng.choice(OTHER_YAML) if rng.random() < 0.3 else rng.choice(seeds)))
        if yamlread.loader_for(text) is not CLoader:
            continue
        try:
            yaml.compose(text, Loader=CLoader)
            continue
        except Exception as exc:  # libyaml's refusal
            refusal = exc
        same = yamlread.same_refusal(refusal, text)
        if same is None:
            continue
        assert same == _pure_refusal(text), text
        key = (getattr(refusal, "context", None), getattr(refusal, "problem", None))
        read[key] = read.get(key, 0) + 1
    assert len(read) == len(yamlread.SAME_REFUSALS)  # every kind was met
    assert sum(read.values()) > CASES // 3


def test_a_tab_libyaml_shows_refused_is_the_runtimes_refusal(tmp_path: Path) -> None:
    rng = random.Random(20261203)
    seeds = _seeds(tmp_path / "scripts") + _seeds(tmp_path / "forms", ".form.") + OTHER_YAML
    read = 0
    for _ in range(CASES):
        text = rng.choice(seeds)
        if rng.random() < 0.5:
            text = _mutated(rng, text)
        lines = _varied(rng, text).split("\n")
        for _ in range(rng.randint(1, 3)):
            row = rng.randrange(len(lines))
            line, roll = lines[row], rng.random()
            indent = len(line) - len(line.lstrip(" "))
            at = rng.randint(0, indent) if roll < 0.7 else rng.randint(0, len(line))
            lines[row] = line[:at] + "\t" * rng.randint(1, 2) + line[at:]
        text = "\n".join(lines)
        tab = yamlread.tab_refusal(text)
        if tab is None:
            continue
        assert tab == _pure_refusal(text), text
        read += 1
    assert read > CASES // 3


def test_lint_reads_the_same_with_and_without_libyamls_word(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(20261204)
    seeds = _seeds(tmp_path / "scripts") + _seeds(tmp_path / "forms", ".form.")
    cases = []
    for _ in range(max(CASES // 10, 50)):
        text = _varied(rng, _mutated(rng, rng.choice(seeds)))
        if rng.random() < 0.2:
            text = "\t" + text
        cases.append(("x.script.yaml" if text.lstrip("\ufeff").startswith("version") else "x.form.yaml", text))
    settings = Settings()
    quick = [render_json([lint_text(text, path, settings=settings)]) for path, text in cases]
    monkeypatch.setattr(yamlread, "same_refusal", lambda exc, text: None)
    monkeypatch.setattr(yamlread, "tab_refusal", lambda text: None)
    slow = [render_json([lint_text(text, path, settings=settings)]) for path, text in cases]
    assert quick == slow


def test_libyamls_word_spares_the_pure_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(text: str) -> None:
        raise AssertionError("the pure loader read the text")

    monkeypatch.setattr(yamlread, "compose_pure", never)
    unclosed = 'title: T\nfields:\n  a: {type: str}\nvalues:\n  a: "open\n'
    tabbed = "fields:\n  a:\n\ttype: str\n"
    for text, line, words in ((unclosed, 4, "never closed"), (tabbed, 2, "a tab cannot start a token")):
        report = lint_text(text, "x.form.yaml", settings=Settings())
        assert report.verdict is not None and report.verdict.value == "rejected"
        assert report.diagnostics[0].code == "YM001" and report.diagnostics[0].span.start.line == line
        assert words in report.diagnostics[0].message


#: Pieces of YAML put together at random: indicators, quotes, anchors, tags, block headers,
#: comments, directives, line breaks; texts no generator of documents writes.
SOUP = [
    *("a", "b: ", "c:", "- ", "-", "? ", ": ", ":", "#", "# c", '"x"', "'y'", '"', "'", "[", "]", "{", "}"),
    *(",", " ", "  ", "\n", "\n  ", "\n    ", "\n- ", "|", ">", "|-", ">+", "|2", "&a ", "*a", "&a", "*a "),
    *("---", "...", "---\n", "%YAML 1.1\n", "\\", '"\\n"', '"\\x"', "@", "`", "%", "!", "!!str ", "1", "0x1"),
    *("~", "null", "\u00e9", "\r\n", "\r", "=", "<<: ", "*", " #x"),
]


def test_token_soup_reads_alike_in_both_loaders() -> None:
    """Where formscript reads a text with libyaml (``yamlread.loader_for``), the pure loader composes
    the same graph, or refuses it as ``same_refusal`` says, on texts made of random pieces."""
    rng = random.Random(20261205)
    read = refused = 0
    for _ in range(CASES * 3):
        text = "".join(rng.choice(SOUP) for _ in range(rng.randint(1, 25)))
        if yamlread.loader_for(text) is not CLoader:
            continue
        try:
            graph = yaml.serialize(yaml.compose(text, Loader=CLoader))
        except Exception as exc:
            same = yamlread.same_refusal(exc, text)
            if same is not None:
                assert same == _pure_refusal(text), text
                refused += 1
            continue
        assert yaml.serialize(yaml.compose(text, Loader=yaml.SafeLoader)) == graph, text
        read += 1
    assert read > CASES // 3 and refused > CASES // 3


@pytest.mark.parametrize(
    "text",
    [
        "a: |#c\n  x\n",  # a comment to libyaml, a refused header to the pure scanner
        "a: >-#c\n  x\n",
        'a: "3.11"   >#c\nb: 1\n',
        "<<: 'y'!:!!str b: 1|2",  # a tag straight after a quoted scalar
        "- 'y'!&a!!str @null\n- c:&a",
    ],
)
def test_where_the_loaders_part_the_runtimes_reading_decides(text: str) -> None:
    assert yamlread.loader_for(text) is yaml.SafeLoader
    doc = parse_document(text)
    assert doc.problems == [_pure_refusal(text)]
