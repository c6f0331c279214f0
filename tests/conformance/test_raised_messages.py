"""The messages formscript predicts for lionagi's refusals equal ``str()`` of what lionagi raises.

A ``match=`` pattern (``pytest.raises(E, match=...)``, ``assertRaisesRegex``) is judged
against the message ``formscript.lint.raised`` predicts; it must be lionagi 0.36.0's text to
the character wherever formscript gives one (it may say it does not know). The documents:
every refused document of the negative-test generator's APIs, and more written here where
the text depends on details (several errors, the order keywords are written in, long
inputs pydantic shortens, a header refused after its entries, Unicode).
"""

from __future__ import annotations

import ast
from typing import Any

import pytest

from formscript.core.verdict import Verdict
from formscript.document.pyextract import extract
from formscript.lint.config import Settings
from formscript.lint.python_lint import _FileLinter
from formscript.lint.raised import message

from . import negative_tests as nt
from .conftest import Tally
from .engines import lionagi_missing_reason

#: Refused documents whose message depends on details the generator does not vary.
EXTRA = (
    "ScriptModel.from_responses([{'type': 'text', 'content': 1}, {'type': 'bogus'}])",
    "ScriptModel.from_responses([{'type': 'bogus'}, {'type': 'text', 'content': 1}])",
    "ScriptModel.from_responses([{'type': 'text', 'content': 'a' * 1}], mode='sometimes', version='x')",
    "ScriptModel.model_validate({'version': 'one', 'mode': 'x', 'responses': [], 'extra': 1})",
    "ScriptModel.model_validate({'responses': [{'type': 'text', 'content': 'é' * 80, 'when': {'call_index': -1.5}}]})",
    "ScriptModel.model_validate({'responses': [{'type': 5}]})",
    "ScriptModel.model_validate({'responses': [{'type': None, 'content': 'x'}]})",
    "ScriptModel.model_validate({'responses': [{'type': 'tool_call', 'name': 'n', 'arguments': [1], 'id': 3}]})",
    "ScriptModel.model_validate({'responses': [{'type': 'stream', 'chunks': [{'type': 'text', 'is_delta': 'no!'}]}]})",
    "ScriptModel.model_validate({'responses': [{'type': 'error', 'kind': 'timeout', 'delay_ms': 1.5, 'extra': []}]})",
    "TestBranch.from_responses([{'type': 'structured', 'data': 'x' * 200}])",
    "scripted_imodel(3.5)",
    "ScriptModel.coerce(True)",
    "TestBranch.from_script(None)",
    "TextResponse(typo=1, content=2)",
    "ToolCallResponse(id=1, name=None)",
    "WhenMatcher(after_calls='many', call_index=[1], prompt_regex=5)",
    "ErrorResponse(kind='timeout', message=None, delay_ms='x')",
    "FieldSpec(type='int', name='9lives')",
    "FieldSpec(default='x' * 90, name='count', type='int', required=False)",
    "FieldSpec(name='ok', type='float', default='1.5', required=False)",
    "FieldSpec(name='n', type='bool', required='perhaps', description=3)",
    "FieldSpec(name='n', bogus=True)",
    "WorkForm(title=5, fields={'a': 'text'})",
    "Rule(rule_id=1, field=None, check='range', enabled='x')",
    "Rule(check='nope', field='f', rule_id='r', params=[1])",
    "RuleSet().add(Rule(rule_id='a', field='x', check='required')).add(Rule(rule_id='b', field='x', check='required'))"
    ".add(Rule(rule_id='a', field='y', check='type'))",
)

_IMPORTS = {**nt.IMPORTS}


def _calls() -> list[str]:
    calls: list[str] = []
    for api in nt.APIS:
        if api.family in ("apply", "apply_all"):
            continue  # a rule's apply returns its failure: nothing is raised
        for args in (*api.bad, *api.bad_raises):
            calls.append(nt._call_source(api.callee, args))
    return [*dict.fromkeys([*calls, *EXTRA])]


def _module(calls: list[str]) -> str:
    names = sorted({n for n in _IMPORTS if any(n + "(" in c or n + "." in c for c in calls)})
    by_module: dict[str, list[str]] = {}
    for name in names:
        by_module.setdefault(_IMPORTS[name], []).append(name)
    lines = [f"from {module} import {', '.join(sorted(found))}" for module, found in sorted(by_module.items())]
    lines.append("")
    lines += [f"def test_{i}():\n    {call}\n" for i, call in enumerate(calls)]
    return "\n".join(lines)


def _lionagi(call: str, namespace: dict[str, Any]) -> str | None:
    try:
        eval(call, namespace)  # the oracle: lionagi builds what the call builds
    except Exception as exc:
        return str(exc)
    return None


def _predicted(source: str) -> dict[int, str | None]:
    """formscript's message for the outermost rejected document of each line (1-based)."""
    tree = ast.parse(source)
    found = extract(source, tree)
    linter = _FileLinter(source, "test_messages.py", Settings(), False)
    for embedded in found:
        linter.report(embedded)
    outermost: dict[int, Any] = {}
    for embedded in found:
        report = linter.done.get(id(embedded))
        if report is None or report.verdict is not Verdict.REJECTED:
            continue
        line = embedded.call_span.start.line + 1
        held = outermost.get(line)
        if held is None or (embedded.call_span.start, held.call_span.end) <= (
            held.call_span.start,
            embedded.call_span.end,
        ):
            outermost[line] = embedded
    return {line: message(e, linter.done[id(e)], linter.done) for line, e in outermost.items()}  # type: ignore[arg-type]


def test_predicted_messages_are_lionagis(tally: Tally) -> None:
    reason = lionagi_missing_reason()
    if reason is not None:
        tally.skipped_reason = reason
        pytest.skip(reason)
    calls = _calls()
    source = _module(calls)
    namespace: dict[str, Any] = {}
    exec("\n".join(line for line in source.splitlines() if line.startswith("from ")), namespace)
    predicted = _predicted(source)
    wrong: list[str] = []
    known = 0
    for i, call in enumerate(calls):
        line = source.splitlines().index(f"def test_{i}():") + 2
        said = predicted.get(line)
        actual = _lionagi(call, namespace)
        if said is None:
            continue
        known += 1
        if said != actual:
            wrong.append(f"{call}\n  formscript: {said!r}\n  lionagi:    {actual!r}")
    tally.add("raised_messages", known, len(wrong))
    print(f"\n{known} of {len(calls)} refusals' messages predicted; {len(wrong)} differ")
    assert not wrong, "\n".join(wrong)
    # every refusal by a pydantic model is known; Python's own messages are not claimed
    assert known >= 100, f"only {known} of {len(calls)} messages predicted"
