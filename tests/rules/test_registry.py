"""The registry and the rule cases agree: every registered rule has cases of both kinds,
every case names a registered rule, every code formscript emits is registered (in the source
and in what it reports over the cases, the golden fixtures, the examples and the conformance
corpus), each code keeps its registered severity, and every documented example behaves as
documented."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from .cases import (
    REPO,
    RegisteredRule,
    case_dirs,
    case_paths,
    diagnostic_lines,
    lint_bytes,
    load,
    registered_rules,
    report,
)

RULES = registered_rules()
BY_CODE = {rule.code: rule for rule in RULES}
CODE = re.compile(r"^(?:YM|FS|SC|RS|CL|PY|FSX)[0-9]{3}$")

#: Codes no file can trigger, with the reason. Such a code needs pass cases but no fail case
#: (a fail case for it contradicts the marker). Anything else without cases fails.
NO_FILE_TRIGGERS: dict[str, str] = {
    "FSX000": "reported only when formscript itself fails on a file (a bug of ours, caught per file); "
    "a file that triggers it is a bug to fix, not a case to keep",
}

#: Codes the source emits that are not registered yet: code -> the bug (strict xfail).
UNREGISTERED: dict[str, str] = {}

#: Rules whose documented passing example reports something: code -> what (strict xfail).
PASSING_EXAMPLE_BUGS: dict[str, str] = {}

#: Codes emitted at more than one severity (overloaded codes the rules part splits): strict xfail.
SEVERITY_BUGS: dict[str, str] = {}
#: The same over the whole conformance corpus (the slow test), where SC011 also shows as an
#: info for after_calls below 0 (the fast sample happens to hold none).
SEVERITY_BUGS_FULL_CORPUS: dict[str, str] = {**SEVERITY_BUGS}

#: Every how-manyth conformance case the fast registry test lints (the slow test lints all).
CORPUS_STRIDE = 16


def _xfail(table: dict[str, str], key: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.xfail(reason=table[key], strict=True, raises=AssertionError)] if key in table else []


@functools.cache
def _example(rule: RegisteredRule, text: str) -> list[str]:
    return diagnostic_lines(lint_bytes(text.encode("utf-8"), rule.example_name, rule.example_form))


def _cases_of(code: str, kind: str) -> list[Path]:
    return sorted((Path(__file__).parent / code).glob(f"{kind}_*.yaml"))


# ------------------------------------------------------------------ cases and registry


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_rule_has_fail_and_pass_cases(rule: RegisteredRule) -> None:
    fails, passes = _cases_of(rule.code, "fail"), _cases_of(rule.code, "pass")
    assert passes, f"{rule.code} has no pass_*.yaml case in tests/rules/{rule.code}/"
    if rule.code in NO_FILE_TRIGGERS:
        assert not fails, f"{rule.code} is marked as triggered by no file, yet has fail cases"
    else:
        assert fails, f"{rule.code} has no fail_*.yaml case in tests/rules/{rule.code}/"


@pytest.mark.parametrize("code", [pytest.param(c, marks=_xfail(UNREGISTERED, c)) for c in sorted(NO_FILE_TRIGGERS)])
def test_no_file_trigger_markers_name_registered_codes(code: str) -> None:
    registered = code in BY_CODE
    assert registered, f"{code} is marked as triggered by no file but is not registered"


@pytest.mark.parametrize(
    "directory", [pytest.param(d, marks=_xfail(UNREGISTERED, d.name), id=d.name) for d in case_dirs()]
)
def test_case_directory_names_a_registered_code(directory: Path) -> None:
    registered = directory.name in BY_CODE
    assert registered, f"tests/rules/{directory.name}/ names no registered rule"
    assert any(directory.glob("*.yaml")), f"tests/rules/{directory.name}/ holds no cases"
    strays = [p.name for p in directory.iterdir() if p.suffix != ".yaml"]
    assert not strays, f"tests/rules/{directory.name}/ holds files that are not cases: {strays}"


@pytest.mark.parametrize("path", case_paths(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case_is_well_formed_and_fail_cases_expect_their_code(path: Path) -> None:
    case = load(path)  # raises on any format fault
    if case.kind == "fail":
        codes = [line.split()[0] for line in case.expect]
        assert case.code in codes, f"{case.id} expects {codes}, not its own code {case.code}"


# ------------------------------------------------------------------ emitted codes


def _source_codes() -> dict[str, list[str]]:
    """Every code-shaped string literal in the source of the package under test: code -> files."""
    import formscript

    found: dict[str, list[str]] = {}
    package = Path(formscript.__file__).parent
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
                found.setdefault(node.value, []).append(path.relative_to(package).as_posix())
    return found


SOURCE_CODES = _source_codes()


@pytest.mark.parametrize("code", [pytest.param(c, marks=_xfail(UNREGISTERED, c)) for c in sorted(SOURCE_CODES)])
def test_code_in_the_source_is_registered(code: str) -> None:
    registered = code in BY_CODE
    assert registered, f"{code} appears in {sorted(set(SOURCE_CODES[code]))} but is not registered"


def test_source_scan_finds_every_registered_code() -> None:
    # The scan above proves something only if it sees the codes where they are written.
    assert sorted(set(BY_CODE) - set(SOURCE_CODES)) == []


Seen = list[tuple[str, str, str]]  # (code, severity, where)


def _seen(reports: Iterable[tuple[str, list[str]]]) -> Seen:
    return [(line.split()[0], line.split()[1], where) for where, lines in reports for line in lines]


@functools.cache
def _over_cases() -> Seen:
    return _seen((f"tests/rules/{p.parent.name}/{p.name}", diagnostic_lines(report(p))) for p in case_paths())


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml", ".json"))


@functools.cache
def _over_fixtures() -> Seen:
    fixtures = REPO / "tests" / "fixtures"
    return _seen(
        (p.relative_to(REPO).as_posix(), diagnostic_lines(lint_bytes(p.read_bytes(), p.name))) for p in _files(fixtures)
    )


@functools.cache
def _over_examples() -> Seen:
    return _seen(
        (p.relative_to(REPO).as_posix(), diagnostic_lines(lint_bytes(p.read_bytes(), p.name)))
        for p in _files(REPO / "examples")
    )


@functools.cache
def _over_corpus(stride: int) -> Seen:
    from conformance.corpus import DEFAULT_SEED, generate_form_cases, generate_script_cases

    # Each case is linted under a default name of its kind, keeping its suffix (the loader).
    named = [(case, "form") for case in generate_form_cases(DEFAULT_SEED)]
    named += [(case, "script") for case in generate_script_cases(DEFAULT_SEED)]
    return _seen(
        (
            f"corpus:{case.filename}",
            diagnostic_lines(lint_bytes(case.text.encode("utf-8"), f"{case.name}.{kind}{Path(case.filename).suffix}")),
        )
        for case, kind in named[::stride]
    )


@functools.cache
def _over_documented_examples() -> Seen:
    return _seen(
        (f"{rule.code}'s {which} example", _example(rule, text))
        for rule in RULES
        for which, text in (("failing", rule.failing_example), ("passing", rule.passing_example))
    )


SOURCES = {
    "cases": _over_cases,
    "documented examples": _over_documented_examples,
    "fixtures": _over_fixtures,
    "examples": _over_examples,
    "corpus": lambda: _over_corpus(CORPUS_STRIDE),
}


def _unregistered(seen: Seen) -> list[str]:
    return sorted({f"{code} (first in {where})" for code, _, where in seen if code not in BY_CODE})


@pytest.mark.parametrize(
    "source",
    # the corpus sample generates the whole conformance corpus first: not in the fast loop
    [pytest.param(s, marks=pytest.mark.slow) if s == "corpus" else s for s in sorted(SOURCES)],
)
def test_every_code_reported_is_registered(source: str) -> None:
    seen = SOURCES[source]()
    assert seen, f"nothing was reported over the {source}; the check would prove nothing"
    assert _unregistered(seen) == []


def _severity_faults(seen: Seen, code: str) -> list[str]:
    registered = BY_CODE[code].severity
    faults = {f"{severity} in {where}" for c, severity, where in seen if c == code and severity != registered}
    return sorted(faults)[:5]


@pytest.mark.parametrize("code", [pytest.param(r.code, marks=_xfail(SEVERITY_BUGS, r.code)) for r in RULES])
def test_code_is_reported_at_its_registered_severity(code: str) -> None:
    seen = [item for source in SOURCES.values() for item in source()]
    assert _severity_faults(seen, code) == [], f"{code} is registered as {BY_CODE[code].severity}"


@pytest.mark.slow
def test_whole_corpus_reports_only_registered_codes() -> None:
    assert _unregistered(_over_corpus(1)) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "code",
    [pytest.param(r.code, marks=_xfail(SEVERITY_BUGS_FULL_CORPUS, r.code)) for r in RULES],
)
def test_whole_corpus_reports_the_code_at_its_registered_severity(code: str) -> None:
    assert _severity_faults(_over_corpus(1), code) == [], f"{code} is registered as {BY_CODE[code].severity}"


# ------------------------------------------------------------------ documented examples


@pytest.mark.parametrize("rule", [r for r in RULES if r.code not in NO_FILE_TRIGGERS], ids=lambda r: r.code)
def test_documented_failing_example_reports_the_code(rule: RegisteredRule) -> None:
    lines = _example(rule, rule.failing_example)
    assert rule.code in [line.split()[0] for line in lines], f"{rule.code}'s failing example reports {lines}"


@pytest.mark.parametrize(
    "rule", [pytest.param(r, marks=_xfail(PASSING_EXAMPLE_BUGS, r.code), id=r.code) for r in RULES]
)
def test_documented_passing_example_reports_nothing(rule: RegisteredRule) -> None:
    if rule.code in NO_FILE_TRIGGERS:
        # No file triggers it, so its page documents no examples at all.
        assert (rule.failing_example, rule.passing_example) == ("", ""), f"{rule.code} documents an example"
        return
    assert _example(rule, rule.passing_example) == [], f"{rule.code}'s passing example is not clean"


def test_marker_tables_name_registered_or_emitted_codes() -> None:
    known = set(BY_CODE) | set(SOURCE_CODES)
    for table in (NO_FILE_TRIGGERS, UNREGISTERED, PASSING_EXAMPLE_BUGS, SEVERITY_BUGS_FULL_CORPUS):
        assert sorted(set(table) - known) == []
    assert set(SEVERITY_BUGS) <= set(SEVERITY_BUGS_FULL_CORPUS)
