"""Negative tests: test functions that state the outcome they expect, generated from a seed.

A test suite proves lionagi refuses bad input by building a broken script or form on purpose
and saying so: the call inside ``with pytest.raises(E)``, ``pytest.raises(E, func, *args)``,
``self.assertRaises(E)``, ``@pytest.mark.xfail(raises=E)``, or an assertion on what the call
returns (a form's ``status == "error"``, a rule's message, a rule set's errors). Each
:class:`NegCase` is one such test function (or a plain positive test without an
expectation), built from four choices:

- the *API* of the Python reach (``ScriptModel.from_responses`` ... ``fill_form``,
  ``Rule.apply``), with a document lionagi accepts (``good``) or one meant to be refused
  (``bad``; for ``fill_form`` / ``validate_form`` also ``bad_raises``: a form that cannot be
  built at all);
- the *expectation* (:data:`EXPECTATIONS`), written the way lionagi's own tests write it;
- the exception class the test names (:data:`CATCHES`: right, wrong, broader, tuples);
- where the call sits: alone in its block, followed by an assertion that holds or one that
  does not, preceded by a harmless statement; its document written at the call, in a local
  name or in a module constant.

The generator only writes tests: which of them fail is for pytest with lionagi 0.36.0 to
say (``test_negative_tests.py`` runs them), and formscript's prediction is read from
``formscript lint --format json`` (a test is predicted to fail when an error diagnostic lies
within its lines). The labels (``good``/``bad``, the catch) are the generator's intent, used
to group the report, never as an answer.
"""

from __future__ import annotations

import ast
import random
import re
from dataclasses import dataclass, field
from typing import Any

DEFAULT_SEED = 20260801

#: How many tests go into one generated module.
PER_MODULE = 12


# ----------------------------------------------------------------------------- documents

Arg = tuple[str | None, str]  # (keyword or None, value source)


@dataclass(frozen=True)
class Api:
    """One entry point of the Python reach, with documents for it."""

    name: str
    #: The callee as written (``ScriptModel.from_responses``); for ``apply`` families the
    #: method is called on a local object built by the document's setup.
    callee: str
    good: tuple[tuple[Arg, ...], ...]
    bad: tuple[tuple[Arg, ...], ...]
    #: "raise": refusal is an exception; "status": a returned form with status "error";
    #: "apply" / "apply_all": a returned message / list of messages.
    family: str = "raise"
    #: Documents that raise although the family's refusal is a status (forms that cannot be built).
    bad_raises: tuple[tuple[Arg, ...], ...] = ()


def _a(*values: str, **keywords: str) -> tuple[Arg, ...]:
    return tuple((None, v) for v in values) + tuple((k, v) for k, v in keywords.items())


GOOD_ENTRIES = (
    "[{'type': 'text', 'content': 'Hello!'}]",
    '[{"type": "text", "content": "first"}, {"type": "text", "content": "second"}]',
    "[{'type': 'tool_call', 'name': 'search', 'arguments': {'q': 'weather'}}, {'type': 'text', 'content': 'done'}]",
    "[{'type': 'structured', 'data': {'answer': 42}}]",
    "[{'type': 'error', 'kind': 'rate_limit', 'message': 'slow down'}]",
    "[{'type': 'text', 'content': 'sunny', 'when': {'prompt_contains': 'weather'}}]",
    "[{'type': 'stream', 'chunks': [{'type': 'text', 'content': 'Hel'}, {'type': 'text', 'content': 'lo'}]}]",
    "[]",
)
BAD_ENTRIES = (
    "[{'type': 'made_up'}]",
    "[{'type': 'text', 'content': 'x', 'typo': 'oops'}]",
    "[{'type': 'text'}]",
    '[{"type": "tool_call", "arguments": {}}]',
    "[{'type': 'error', 'kind': 'nope', 'message': 'm'}]",
    "[{'type': 'text', 'content': 5}]",
    "[{'type': 'text', 'content': 'x', 'when': {'call_index': 'first'}}]",
    "[{'type': 'stream', 'chunks': [{'type': 'bogus'}]}]",
    "'not a list'",
)


def _scripts(entries: tuple[str, ...], extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(f"{{'responses': {e}}}" for e in entries) + extra


APIS: tuple[Api, ...] = (
    Api(
        "from_responses",
        "ScriptModel.from_responses",
        (*tuple(_a(e) for e in GOOD_ENTRIES), _a(GOOD_ENTRIES[0], mode="'positional'")),
        (*tuple(_a(e) for e in BAD_ENTRIES), _a(GOOD_ENTRIES[0], mode="'bogus'")),
    ),
    Api(
        "model_validate",
        "ScriptModel.model_validate",
        tuple(_a(s) for s in _scripts(GOOD_ENTRIES, ("{'version': 1, 'mode': 'auto', 'responses': []}",))),
        (
            *tuple(_a(s) for s in _scripts(BAD_ENTRIES, ("{'mode': 'bogus', 'responses': []}",))),
            _a("{'responses': []}", "5"),
        ),
    ),
    Api(
        "constructor",
        "ScriptModel",
        tuple(_a(responses=e) for e in GOOD_ENTRIES),
        (*tuple(_a(responses=e) for e in BAD_ENTRIES), _a(responses="[]", bogus="1")),
    ),
    Api(
        "coerce",
        "ScriptModel.coerce",
        tuple(_a(s) for s in _scripts(GOOD_ENTRIES[:4])) + tuple(_a(e) for e in GOOD_ENTRIES[:3]),
        (*tuple(_a(s) for s in _scripts(BAD_ENTRIES[:5])), _a("5"), _a("None"), _a(BAD_ENTRIES[0])),
    ),
    Api(
        "branch_from_responses",
        "TestBranch.from_responses",
        tuple(_a(e) for e in GOOD_ENTRIES[:6]),
        tuple(_a(e) for e in BAD_ENTRIES[:6]),
    ),
    Api(
        "from_text",
        "TestBranch.from_text",
        (_a("'hi'"), _a("['first', 'second']"), _a("'Hello!'")),
        (_a("5"), _a("['a', 3]"), _a("[None]")),
    ),
    Api(
        "from_script",
        "TestBranch.from_script",
        (*tuple(_a(s) for s in _scripts(GOOD_ENTRIES[:4])), _a(GOOD_ENTRIES[1], system="'be brief'")),
        (*tuple(_a(s) for s in _scripts(BAD_ENTRIES[:5])), _a("5"), _a(BAD_ENTRIES[2])),
    ),
    Api(
        "scripted_imodel",
        "scripted_imodel",
        (*tuple(_a(e) for e in GOOD_ENTRIES[:5]), _a(GOOD_ENTRIES[0], model="'my-model'")),
        (*tuple(_a(e) for e in BAD_ENTRIES[:6]), _a("3")),
    ),
    Api(
        "imodel",
        "iModel",
        tuple(_a(provider="'scripted'", script=e) for e in GOOD_ENTRIES[:5]),
        tuple(_a(provider="'scripted'", script=e) for e in BAD_ENTRIES[:6]),
    ),
    Api(
        "text_response",
        "TextResponse",
        (_a(content="'Hello!'"), _a(content="''"), _a(content="'x'", when="{'prompt_contains': 'hi'}")),
        (_a(content="5"), _a(content="'x'", typo="1"), _a(), _a(content="None")),
    ),
    Api(
        "tool_call_response",
        "ToolCallResponse",
        (_a(name="'search'", arguments="{'q': 'weather'}"), _a(name="'calc'")),
        (_a(arguments="{}"), _a(name="5"), _a(name="'search'", arguments="'q=1'")),
    ),
    Api(
        "structured_response",
        "StructuredResponse",
        (_a(data="{'answer': 42}"), _a(data="{}")),
        (_a(data="5"), _a(data="[1, 2]"), _a()),
    ),
    Api(
        "error_response",
        "ErrorResponse",
        (_a(kind="'rate_limit'", message="'slow down'"), _a(kind="'timeout'")),
        (_a(kind="'nope'"), _a(kind="'rate_limit'", delay_ms="'soon'")),
    ),
    Api(
        "stream_response",
        "StreamResponse",
        (_a(chunks="[{'type': 'text', 'content': 'Hel'}]"), _a(chunks="[]")),
        (_a(chunks="5"), _a(chunks="[{'type': 'bogus'}]")),
    ),
    Api(
        "when_matcher",
        "WhenMatcher",
        (_a(prompt_contains="'weather'"), _a(call_index="0")),
        (_a(call_index="'first'"), _a(prompt_contains="3", unknown="1")),
    ),
    Api(
        "fieldspec",
        "FieldSpec",
        (
            _a(name="'age'", type="'int'"),
            _a(name="'n'", type="'int'", required="False", default="5"),
            _a(name="'x'"),
            _a(name="'ratio'", type="'float'", required="False", default="1"),
        ),
        (
            _a(name="'1bad'"),
            _a(name="'bad field'"),
            _a(name="'n'", type="'integer'"),
            _a(name="'n'", type="'int'", required="False", default="'not_an_int'"),
            _a(name="'x'", type="'str'", required="False", default="[1, 2, 3]"),
        ),
    ),
    Api(
        "workform",
        "WorkForm",
        (
            _a(fields="{'age': FieldSpec(name='age', type='int')}"),
            _a(fields="{'a': FieldSpec(name='b')}"),
            _a(values="{'age': 30}"),
            _a(title="'Intake'", fields="{'email': FieldSpec(name='email')}"),
        ),
        (
            _a(fields="{'a': 5}"),
            _a(fields="{'age': FieldSpec(name='age', type='integer')}"),
            _a(fields="{'age': FieldSpec(name='1age')}"),
            _a(fields="[]"),
        ),
    ),
    Api(
        "rule",
        "Rule",
        (
            _a(rule_id="'r1'", field="'age'", check="'range'", params="{'min': 0, 'max': 120}"),
            _a(rule_id="'r2'", field="'email'", check="'pattern'", params="{'pattern': r'.+@.+'}"),
            _a(rule_id="'r3'", field="'x'", check="'required'"),
        ),
        (
            _a(rule_id="'r1'", field="'x'", check="'bogus'"),
            _a(field="'x'", check="'required'"),
            _a(rule_id="'r1'", field="'x'", check="'required'", enabled="'maybe'"),
        ),
    ),
    Api(
        "ruleset_add",
        "RuleSet().add(Rule(rule_id='r1', field='x', check='required')).add",
        (_a("Rule(rule_id='r2', field='y', check='required')"), _a("Rule(rule_id='r3', field='x', check='type')")),
        (
            _a("Rule(rule_id='r1', field='y', check='required')"),
            _a("Rule(rule_id='r1', field='x', check='required')"),
            _a("'r2'"),
        ),
    ),
    Api(
        "fill_form",
        "fill_form",
        (
            _a("WorkForm(fields={'age': FieldSpec(name='age', type='int')})", "{'age': 7}"),
            _a("WorkForm(fields={'name': FieldSpec(name='name')})", "{'name': 'Ada'}"),
            _a(
                "WorkForm(fields={'age': FieldSpec(name='age', type='int')})",
                "{'age': 30}",
                ruleset="RuleSet().add(Rule(rule_id='r1', field='age', check='range', params={'min': 0, 'max': 120}))",
            ),
        ),
        (
            _a("WorkForm(fields={'age': FieldSpec(name='age', type='int')})", "{'age': 'x'}"),
            _a("WorkForm(fields={'age': FieldSpec(name='age', type='int')})", "{}"),
            _a("WorkForm(fields={'age': FieldSpec(name='age', type='int')})", "{'agee': 7}"),
            _a(
                "WorkForm(fields={'age': FieldSpec(name='age', type='int')})",
                "{'age': 300}",
                ruleset="RuleSet().add(Rule(rule_id='r1', field='age', check='range', params={'min': 0, 'max': 120}))",
            ),
        ),
        family="status",
        bad_raises=(
            _a("WorkForm(fields={'age': FieldSpec(name='age', type='integer')})", "{'age': 7}"),
            _a("WorkForm(fields={'age': FieldSpec(name='age', type='int')})", "None"),
            _a("WorkForm(fields={'age': FieldSpec(name='age', type='int')})", "[('age', 7)]"),
        ),
    ),
    Api(
        "validate_form",
        "validate_form",
        (
            _a("WorkForm(fields={'age': FieldSpec(name='age', type='int')}, values={'age': 3})"),
            _a("WorkForm(fields={'name': FieldSpec(name='name', required=False)})"),
        ),
        (
            _a("WorkForm(fields={'age': FieldSpec(name='age', type='int')}, values={})"),
            _a("WorkForm(fields={'age': FieldSpec(name='age', type='int')}, values={'age': 'three'})"),
            _a(
                "WorkForm(fields={'age': FieldSpec(name='age', type='int')}, values={'age': -5})",
                ruleset="RuleSet().add(Rule(rule_id='r1', field='age', check='range', params={'min': 0}))",
            ),
        ),
        family="status",
        bad_raises=(_a("WorkForm(fields={'age': FieldSpec(name='age', type='integer')}, values={'age': 3})"),),
    ),
    Api(
        "rule_apply",
        "rule.apply",
        (
            _a("Rule(rule_id='r1', field='age', check='range', params={'min': 0, 'max': 120})", "{'age': 30}"),
            _a("Rule(rule_id='r2', field='email', check='pattern', params={'pattern': r'.+@.+'})", "{'email': 'a@b'}"),
            _a("Rule(rule_id='r3', field='x', check='required')", "{'x': 1}"),
        ),
        (
            _a("Rule(rule_id='r1', field='age', check='range', params={'min': 0, 'max': 120})", "{'age': 300}"),
            _a("Rule(rule_id='r2', field='email', check='pattern', params={'pattern': r'.+@.+'})", "{'email': 'no'}"),
            _a("Rule(rule_id='r3', field='x', check='required')", "{}"),
        ),
        family="apply",
    ),
    Api(
        "ruleset_apply_all",
        "rs.apply_all",
        (
            _a("Rule(rule_id='r1', field='age', check='range', params={'min': 0, 'max': 120})", "{'age': 30}"),
            _a("Rule(rule_id='r3', field='x', check='required')", "{'x': 'y'}"),
        ),
        (
            _a("Rule(rule_id='r1', field='age', check='range', params={'min': 0, 'max': 120})", "{'age': 300}"),
            _a("Rule(rule_id='r3', field='x', check='required')", "{}"),
        ),
        family="apply_all",
    ),
)

API_BY_NAME = {api.name: api for api in APIS}

#: Where each name the documents use is imported from.
IMPORTS = {
    "ScriptModel": "lionagi.testing",
    "TestBranch": "lionagi.testing",
    "scripted_imodel": "lionagi.testing",
    "TextResponse": "lionagi.testing",
    "ToolCallResponse": "lionagi.testing",
    "StructuredResponse": "lionagi.testing",
    "ErrorResponse": "lionagi.testing",
    "StreamResponse": "lionagi.testing",
    "WhenMatcher": "lionagi.testing",
    "iModel": "lionagi",
    "FieldSpec": "lionagi.work",
    "WorkForm": "lionagi.work",
    "Rule": "lionagi.work",
    "RuleSet": "lionagi.work",
    "fill_form": "lionagi.work",
    "validate_form": "lionagi.work",
}


# ----------------------------------------------------------------------------- expectations

#: Expectations that name an exception class, and the ones on a returned outcome.
RAISE_EXPECTATIONS = (
    "with_raises",
    "with_raises_match",
    "with_raises_as",
    "with_nested_outer",
    "with_nested_inner",
    "with_multi_item",
    "raises_call_form",
    "assert_raises",
    "assert_raises_regex",
    "assert_raises_call_form",
    "xfail_strict",
    "xfail_lax",
    "xfail_any",
)
OUTCOME_EXPECTATIONS = {
    "status": ("status_error", "status_error_inline", "validation_errors", "status_ok", "unasserted"),
    "apply": ("apply_not_none", "apply_truthy", "apply_is_none"),
    "apply_all": ("apply_all_nonempty", "apply_all_len", "apply_all_empty"),
    "raise": ("plain",),
}
EXPECTATIONS = RAISE_EXPECTATIONS + tuple(e for group in OUTCOME_EXPECTATIONS.values() for e in group)

#: Exception classes a test names, as written (pydantic's under two spellings).
CATCHES = (
    "ValueError",
    "ValidationError",
    "pydantic.ValidationError",
    "TypeError",
    "KeyError",
    "Exception",
    "(ValueError, TypeError)",
    "(KeyError, TypeError)",
    "(TypeError, ValidationError)",
    "AttributeError",
)

#: Patterns for ``match=``: some found in lionagi's messages, some not.
MATCHES = ("validation error", "unknown response type", "not compatible", "rule_id", ".", "Input should be", "nope")

#: Where the call sits in its block.
POSITIONS = ("last", "last", "followed_holds", "followed_fails", "preceded")
#: How the document reaches the call.
BINDINGS = ("inline", "inline", "local", "module")


@dataclass(frozen=True)
class NegCase:
    """One generated test function and the choices it was built from."""

    name: str
    api: str
    expectation: str
    #: "good" | "bad" | "bad_raises" (the generator's intent).
    document: str
    catch: str
    position: str
    binding: str
    #: The test's qualified name in the module ("TestFoo::test_bar" or "test_bar").
    qualname: str = ""
    #: Module-level lines (constants) and the test's own lines (a class for unittest forms).
    prelude: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()
    names: frozenset[str] = field(default_factory=frozenset)

    @property
    def shape(self) -> str:
        """The group a disagreement is reported under."""
        return f"{self.api} / {self.expectation} / {self.document}" + (f" / {self.catch}" if self.catch else "")


@dataclass(frozen=True)
class NegModule:
    """A generated test module and where each of its tests is (1-based, inclusive lines)."""

    name: str
    source: str
    cases: tuple[NegCase, ...]
    spans: dict[str, tuple[int, int]]


def _call_source(callee: str, args: tuple[Arg, ...]) -> str:
    return f"{callee}(" + ", ".join(v if k is None else f"{k}={v}" for k, v in args) + ")"


def _bind(args: tuple[Arg, ...], name: str) -> tuple[tuple[Arg, ...], str | None]:
    """*args* with the first one's value replaced by *name*; the value (None: nothing to bind)."""
    if not args:
        return args, None
    keyword, value = args[0]
    try:
        ast.literal_eval(value)
    except ValueError:
        return args, None  # a call: bound elsewhere, it would run outside the expecting block
    return ((keyword, name), *args[1:]), value


def _names_in(text: str) -> set[str]:
    """The names of :data:`IMPORTS` *text* uses (called, read from, or passed: the call forms
    hand the callee to ``pytest.raises``)."""
    return {n for n in IMPORTS if re.search(rf"(?<![\w.]){n}\b", text)}


class _Builder:
    def __init__(self, rng: random.Random, index: int) -> None:
        self.rng = rng
        self.index = index

    def case(self, api: Api, expectation: str, document: str, catch: str) -> NegCase:
        rng = self.rng
        pool = {"good": api.good, "bad": api.bad, "bad_raises": api.bad_raises}[document]
        args = pool[rng.randrange(len(pool))]
        position = rng.choice(POSITIONS)
        if expectation == "plain" and position == "followed_fails":
            position = "followed_holds"  # the test would fail whatever lionagi does
        binding = rng.choice(BINDINGS)
        if expectation in ("raises_call_form", "assert_raises_call_form", "status_error_inline"):
            position = "last"
        if api.family in ("apply", "apply_all"):
            binding = "inline"
        unittest_form = expectation.startswith("assert_raises")
        base = f"{api.name}_{expectation}_{document}_{self.index:04d}"
        func = f"test_{base}"
        qualname = f"Test{''.join(p.title() for p in base.split('_'))}::{func}" if unittest_form else func
        prelude: list[str] = []
        setup: list[str] = []
        constant = f"DOC_{self.index:04d}"
        if binding != "inline":
            bound_name = constant if binding == "module" else rng.choice(("entries", "doc", "spec", "data"))
            new_args, value = _bind(args, bound_name)
            if value is not None:
                args = new_args
                (prelude if binding == "module" else setup).append(f"{bound_name} = {value}")
            else:
                binding = "inline"
        if api.family == "apply":
            setup += [f"rule = {args[0][1]}", f"form = WorkForm(values={args[1][1]})"]
            call = "rule.apply(form)"
        elif api.family == "apply_all":
            setup += [f"rs = RuleSet().add({args[0][1]})", f"form = WorkForm(values={args[1][1]})"]
            call = "rs.apply_all(form)"
        else:
            call = _call_source(api.callee, args)
        body = self._body(api, expectation, catch, call, args, position, unittest_form)
        indent = "        " if unittest_form else "    "
        lines: list[str] = []
        if expectation.startswith("xfail"):
            lines.append(self._xfail(expectation, catch))
        if unittest_form:
            lines = [f"class {qualname.split('::')[0]}(unittest.TestCase):", f"    def {func}(self):"]
        else:
            lines.append(f"def {func}():")
        lines += [indent + line for line in setup + body]
        text = "\n".join(prelude + lines)
        names = _names_in(text) | ({"WorkForm", "RuleSet"} if api.family in ("apply", "apply_all") else set())
        return NegCase(
            name=func,
            api=api.name,
            expectation=expectation,
            document=document,
            catch=catch if expectation in RAISE_EXPECTATIONS and expectation != "xfail_any" else "",
            position=position,
            binding=binding,
            qualname=qualname,
            prelude=tuple(prelude),
            lines=tuple(lines),
            names=frozenset(names),
        )

    def _xfail(self, expectation: str, catch: str) -> str:
        if expectation == "xfail_any":
            return "@pytest.mark.xfail(strict=True, reason='lionagi refuses this')"
        strict = "True" if expectation == "xfail_strict" else "False"
        if expectation == "xfail_lax" and self.rng.random() < 0.5:
            return f"@pytest.mark.xfail(raises={catch})"
        return f"@pytest.mark.xfail(raises={catch}, strict={strict})"

    def _block(self, call: str, position: str) -> list[str]:
        """The statements around the call inside an expecting block (or a test's body)."""
        if position == "last":
            return [call] if self.rng.random() < 0.6 else [f"result = {call}"]
        if position == "preceded":
            return ["payload = {'model': 'scripted-test', 'messages': []}", call]
        if position == "followed_holds":
            return [f"result = {call}", "assert result is not None"]
        return [f"result = {call}", "assert result is None"]

    @staticmethod
    def _call_form(api: Api, call: str, args: tuple[Arg, ...]) -> tuple[str, str]:
        """The callee and the arguments after it, for ``raises(E, func, *args, **kwargs)``."""
        if api.family in ("apply", "apply_all"):
            return call[: -len("(form)")], ", form"
        return api.callee, "".join(", " + (v if k is None else f"{k}={v}") for k, v in args)

    def _body(
        self,
        api: Api,
        expectation: str,
        catch: str,
        call: str,
        args: tuple[Arg, ...],
        position: str,
        unittest_form: bool,
    ) -> list[str]:
        rng = self.rng
        inner = self._block(call, position)

        def under(header: str, lines: list[str]) -> list[str]:
            return [header] + ["    " + line for line in lines]

        if expectation == "with_raises":
            return under(f"with pytest.raises({catch}):", inner)
        if expectation == "with_raises_match":
            return under(f"with pytest.raises({catch}, match={rng.choice(MATCHES)!r}):", inner)
        if expectation == "with_raises_as":
            return [*under(f"with pytest.raises({catch}) as excinfo:", inner), "assert excinfo.value is not None"]
        if expectation == "with_nested_outer":
            return under(f"with pytest.raises({catch}):", under("with warnings.catch_warnings():", inner))
        if expectation == "with_nested_inner":
            return under("with warnings.catch_warnings():", under(f"with pytest.raises({catch}):", inner))
        if expectation == "with_multi_item":
            return under(f"with warnings.catch_warnings(), pytest.raises({catch}):", inner)
        if expectation == "raises_call_form":
            callee, rest = self._call_form(api, call, args)
            return [f"pytest.raises({catch}, {callee}{rest})"]
        if expectation == "assert_raises":
            return under(f"with self.assertRaises({catch}):", inner)
        if expectation == "assert_raises_regex":
            return under(f"with self.assertRaisesRegex({catch}, {rng.choice(MATCHES)!r}):", inner)
        if expectation == "assert_raises_call_form":
            callee, rest = self._call_form(api, call, args)
            return [f"self.assertRaises({catch}, {callee}{rest})"]
        if expectation.startswith("xfail") or expectation == "plain":
            return inner
        if expectation == "status_error":
            return [f"result = {call}", 'assert result.status == "error"']
        if expectation == "status_error_inline":
            return [f'assert {call}.status == "error"']
        if expectation == "validation_errors":
            return [f"result = {call}", "assert result.validation_errors"]
        if expectation == "status_ok":
            return [f"result = {call}", 'assert result.status == "validated"']
        if expectation == "unasserted":
            return [call]
        if expectation == "apply_not_none":
            return [f"assert {call} is not None"]
        if expectation == "apply_truthy":
            return [f"message = {call}", "assert message"]
        if expectation == "apply_is_none":
            return [f"assert {call} is None"]
        if expectation == "apply_all_nonempty":
            return [f"errors = {call}", "assert errors"]
        if expectation == "apply_all_len":
            return [f"assert len({call}) > 0"]
        if expectation == "apply_all_empty":
            return [f"assert {call} == []"]
        raise ValueError(expectation)


def _expectations(api: Api) -> tuple[str, ...]:
    if api.family in ("apply", "apply_all"):
        return OUTCOME_EXPECTATIONS[api.family] + ("with_raises", "xfail_strict")
    return RAISE_EXPECTATIONS + OUTCOME_EXPECTATIONS[api.family]


def _documents(api: Api) -> tuple[str, ...]:
    return ("good", "bad", "bad_raises") if api.bad_raises else ("good", "bad")


def generate_cases(seed: int = DEFAULT_SEED, repeat: int = 1) -> list[NegCase]:
    """Every API x each expectation it takes x each document kind, *repeat* times, each with a
    catch from :data:`CATCHES` in turn (offset by the seed) and the rest drawn from the seed."""
    rng = random.Random(f"negative-tests:{seed}")
    cases: list[NegCase] = []
    turns = {document: rng.randrange(len(CATCHES)) for document in ("good", "bad", "bad_raises")}
    for _ in range(repeat):
        for api in APIS:
            for expectation in _expectations(api):
                for document in _documents(api):
                    catch = CATCHES[turns[document] % len(CATCHES)]
                    turns[document] += 1
                    builder = _Builder(random.Random(f"negative-tests:{seed}:{len(cases)}"), len(cases))
                    cases.append(builder.case(api, expectation, document, catch))
    return cases


def _import_lines(cases: list[NegCase]) -> list[str]:
    names: set[str] = set().union(*(c.names for c in cases))
    text = "\n".join(line for c in cases for line in (*c.prelude, *c.lines))
    lines = ["import unittest", "import warnings", "", "import pydantic", "import pytest"]
    if "ValidationError" in text.replace("pydantic.ValidationError", ""):
        lines.append("from pydantic import ValidationError")
    lines.append("")
    by_module: dict[str, list[str]] = {}
    for name in sorted(names):
        by_module.setdefault(IMPORTS[name], []).append(name)
    for module in sorted(by_module):
        lines.append(f"from {module} import {', '.join(by_module[module])}")
    return lines


def build_modules(cases: list[NegCase], per_module: int = PER_MODULE) -> list[NegModule]:
    """The cases, *per_module* to a module, with each test's span found by ``ast`` (decorators
    included)."""
    modules = []
    for start in range(0, len(cases), per_module):
        chunk = cases[start : start + per_module]
        name = f"test_negative_{start // per_module:03d}"
        parts = ['"""Generated by tests/conformance/negative_tests.py."""', "", *_import_lines(chunk)]
        for case in chunk:
            parts += ["", "", *case.prelude, *([""] * (2 if case.prelude else 0)), *case.lines]
        source = "\n".join(parts) + "\n"
        modules.append(NegModule(name, source, tuple(chunk), _spans(source)))
    return modules


def _spans(source: str) -> dict[str, tuple[int, int]]:
    spans: dict[str, tuple[int, int]] = {}
    tree = ast.parse(source)

    def first_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
        return min([node.lineno, *(d.lineno for d in node.decorator_list)])

    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            spans[node.name] = (first_line(node), node.end_lineno or node.lineno)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name.startswith("test"):
                    spans[f"{node.name}::{item.name}"] = (first_line(item), item.end_lineno or item.lineno)
    return spans


def generate(seed: int = DEFAULT_SEED, repeat: int = 1) -> list[NegModule]:
    return build_modules(generate_cases(seed, repeat))


def describe(case: NegCase) -> dict[str, Any]:
    return {
        "api": case.api,
        "expectation": case.expectation,
        "document": case.document,
        "catch": case.catch,
        "position": case.position,
        "binding": case.binding,
    }
