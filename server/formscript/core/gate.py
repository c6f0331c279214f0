"""The ``li agent --form`` gate (ADR-0052 D3) as a pure function of the loaded spec and its path.

The runtime stops at its first complaint; this gate keeps going and reports every problem,
in the order the runtime would meet them, while its verdict stays the runtime's.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from formscript import rules
from formscript.core.declarations import DeclarationMemo, build_declarations, raw_key
from formscript.core.expansion import EXPANSION_LIMIT, measure
from formscript.core.fields import DECLARATION_KEYS, Declared, FillCrash, FormStatus, check_values, merge_values
from formscript.core.lax_common import Unsure
from formscript.core.lax_fields import Invalid, lax_str
from formscript.core.suggest import closest
from formscript.core.verdict import Failure, KeyPath, Problem, Verdict, verdict_from

if TYPE_CHECKING:
    from formscript.core.forms import WorkForm
    from formscript.core.rules import RuleSet

TOP_LEVEL_KEYS: tuple[str, ...] = ("title", "fields", "values")
#: Types of values that hold no other value (what ``measure`` counts as one, and no set).
_SCALARS = frozenset({str, int, float, bool, type(None)})

#: ``li agent`` refuses a prompt (the form's prefix, then the prompt text) longer than this
#: many characters: lionagi's ``MAX_SPEC_PROMPT_CHARS`` (tests/conformance checks the value).
PROMPT_CAP = 256 * 1024


@dataclass
class GateResult:
    """The runtime's verdict on a form spec, with every problem found and the rendered block."""

    verdict: Verdict
    problems: list[Problem]
    #: What ``li agent --form`` renders (None when the form is refused or has no values).
    context_block: str | None = None
    #: Declarations that built, by key; they exist even when the form as a whole is refused.
    declarations: dict[Any, Declared] = dataclasses.field(default_factory=dict)
    title: str = ""
    #: The form's values after filling and coercion, and its status (None: never built).
    values: dict[Any, Any] = dataclasses.field(default_factory=dict)
    status: FormStatus | None = None
    failures: list[Failure] = dataclasses.field(default_factory=list)
    #: Whether the runtime gets as far as ``fill_form`` (its gate passed and the form has
    #: fields or values): only then does a ruleset run.
    filled: bool = False

    @property
    def prompt_prefix(self) -> str:
        """The exact text put in front of the user's prompt ('' when nothing is sent)."""
        return "" if self.context_block is None else self.context_block + "\n\n"

    @property
    def prompt_room(self) -> int | None:
        """How many characters of prompt text ``li agent`` takes after this form's prefix
        (None when the form is refused whatever the prompt, or its block was never rendered
        because its values expand past the alias limit)."""
        if self.verdict is not Verdict.ACCEPTED or (self.values and self.context_block is None):
            return None
        return PROMPT_CAP - len(self.prompt_prefix)

    @cached_property
    def form(self) -> WorkForm | None:
        """The runtime's WorkForm for this spec (built on demand; None when never built)."""
        if self.status is None:
            return None
        from formscript.core.forms import FieldSpec, WorkForm

        fields = {
            key: spec
            if isinstance(spec, FieldSpec)
            else FieldSpec.model_validate({"name": spec.name, **{k: getattr(spec, k) for k in DECLARATION_KEYS}})
            for key, spec in self.declarations.items()
        }
        return WorkForm.model_construct(
            title=self.title,
            fields=fields,
            values=self.values,
            status=self.status,
            validation_errors=[f.message for f in self.failures],
            failures=self.failures,
        )


class SpecLoadError(ValueError):
    """The spec text is neither YAML nor JSON; carries the YAML error."""

    def __init__(self, yaml_error: Exception) -> None:
        self.yaml_error = yaml_error
        super().__init__(str(yaml_error))


def load_spec_text(text: str) -> Any:
    """Load spec text as the runtime does: YAML (1.1, safe) first, JSON only if YAML fails."""
    import yaml

    try:
        return yaml.safe_load(text)
    except Exception as yaml_error:
        try:
            return json.loads(text)
        except Exception:
            raise SpecLoadError(yaml_error) from yaml_error


def render_context_block(title: str, values: dict[Any, Any]) -> str:
    """``[Work Form: <title>]`` then one ``  key: repr(value)`` line per value, in order."""
    lines = [f"[Work Form: {title}]"]
    lines.extend(f"  {key}: {value!r}" for key, value in values.items())
    return "\n".join(lines)


def final_prompt(prefix: str, prompt: str) -> str:
    """The prompt ``li agent --form`` hands to the run: the form's prefix (the context block and
    a blank line, or nothing), then the prompt text as given."""
    return prefix + prompt


def prompt_problem(result: GateResult, prompt: str) -> Problem | None:
    """The prompt-over-cap problem when the form's prefix and *prompt* together are over the cap (for an accepted
    *result*; a refused form never gets as far as the cap)."""
    if result.verdict is not Verdict.ACCEPTED:
        return None
    prefix = len(result.prompt_prefix)
    if prefix + len(prompt) <= PROMPT_CAP:
        return None
    return rules.FS024.prompt_over(path=(), prefix=prefix, prompt=len(prompt), cap=PROMPT_CAP)


def check_form_spec(
    spec: Any, spec_path: str, *, ruleset: RuleSet | None = None, memo: DeclarationMemo | None = None
) -> GateResult:
    """Predict what ``li agent --form <spec_path>`` does with the loaded *spec*.

    *ruleset* is formscript's extension for dry runs; the runtime's gate takes none. *memo*
    keeps the declarations built across versions of a text (``lint.incremental``).
    """
    if not isinstance(spec, dict):
        return GateResult(Verdict.REJECTED, [rules.FS002.problem(found=spec)])

    problems: list[Problem] = []
    for key in spec:
        if key not in TOP_LEVEL_KEYS:
            problems.append(rules.FS001.problem(path=(key,), key=key, suggestion=closest(key, TOP_LEVEL_KEYS, spec)))

    raw_fields = spec.get("fields")
    raw_values = spec.get("values")
    for name, raw in (("fields", raw_fields), ("values", raw_values)):
        if raw is not None and not isinstance(raw, dict):
            problems.append(rules.FS003.problem(path=(name,), section=name, found=raw))
    fields_map: dict[Any, Any] = raw_fields if isinstance(raw_fields, dict) else {}
    values_map: dict[Any, Any] = raw_values if isinstance(raw_values, dict) else {}
    # The runtime tests truthiness, so a wrongly typed but truthy 'fields' still counts.
    fields_given, values_given = bool(raw_fields), bool(raw_values)

    if values_given and not fields_given:
        problems.append(rules.FS004.problem(path=("values",)))
    if fields_map:
        declared = [k for k in fields_map if isinstance(k, str)]
        for key in values_map:
            if key not in fields_map:
                problems.append(rules.FS005.problem(path=("values", key), key=key, suggestion=closest(key, declared)))

    declarations = build_declarations(fields_map, problems, memo)

    title_raw = spec.get("title", spec_path)
    title = _title(title_raw)
    if title is None:
        title = ""
        problems.append(rules.FS019.problem(path=("title",), title=title_raw))

    gate_failed = any(p.rejects for p in problems)
    values: dict[Any, Any] = {}
    status: FormStatus | None = "draft"
    failures: list[Failure] = []
    to_fill: dict[Any, Any] | None = None
    if gate_failed:
        # Keep collecting: validate what did build, so one mistake does not hide others.
        if declarations:
            to_fill = {k: v for k, v in values_map.items() if k in declarations}
    elif values_given or declarations:
        to_fill = values_map
    if to_fill is not None:
        try:
            values, failures = check_values(declarations, merge_values(declarations, to_fill), ruleset)
        except FillCrash as crash:
            at = value_path(fields_map, values_map, crash.field)
            problems.append(rules.FS025.filling(path=at, field=crash.field, error=crash.error))
            return GateResult(verdict_from(problems), problems, declarations=declarations, title=title)
        status = "error" if failures else "validated"

    problems.extend(failure_problems(failures, fields_map, values_map, ()))

    verdict = verdict_from(problems)
    block = None
    if verdict is Verdict.ACCEPTED and values:
        # keys and values all scalars (the usual form): nothing expands, nothing holds a set
        flat = all(type(k) in _SCALARS for k in values) and all(type(v) in _SCALARS for v in values.values())
        size = 1 + 2 * len(values) if flat else measure(values).size
        if size > EXPANSION_LIMIT:
            # every value visited renders as one character at least: the block is longer than
            # the cap, so li agent, once it has rendered it, refuses every prompt
            problems.append(rules.FS024.prefix_at_least(path=("values",), length=size, cap=PROMPT_CAP))
            problems.append(rules.FS022.problem(path=("values",), limit=EXPANSION_LIMIT))
            verdict = verdict_from(problems)
        else:
            try:
                block = render_context_block(title, values)
            except Exception as exc:  # a value whose repr raises: li agent dies rendering it
                key = _unrenderable_key(values)
                problems.append(rules.FS025.rendering(path=value_path(fields_map, values_map, key), key=key, error=exc))
                verdict = verdict_from(problems)
            else:
                for key, value in () if flat else values.items():
                    if holds_unordered_set(value):
                        problems.append(rules.FS026.problem(path=value_path(fields_map, values_map, key), key=key))
                if len(block) + 2 > PROMPT_CAP:  # every prompt is refused, even an empty one
                    longest = _longest_line(spec, title, values)
                    problems.append(rules.FS024.prefix_over(path=longest, length=len(block) + 2, cap=PROMPT_CAP))
                    verdict = verdict_from(problems)
                    block = None
    return GateResult(
        verdict,
        problems,
        context_block=block,
        declarations=declarations,
        title=title,
        values=values,
        status=status,
        failures=failures,
        filled=not gate_failed and to_fill is not None,
    )


def value_path(fields: dict[Any, Any], values: dict[Any, Any], key: Any) -> KeyPath:
    """Where a filled value is written: under *values*, else as its field's default in *fields*."""
    return ("values", key) if key in values else ("fields", raw_key(fields, key), "default")


def failure_problems(
    failures: list[Failure], fields: dict[Any, Any], values: dict[Any, Any], unplaced: KeyPath
) -> list[Problem]:
    """The problems of validate_form's *failures* on a form written with *fields* and *values*
    (*unplaced*: where a rule's failure on a field without a written value is reported)."""
    found: list[Problem] = []
    for failure in failures:
        if failure.source == "rule":
            where = ("values", failure.field) if failure.field in values else unplaced
            found.append(rules.RS100.problem(path=where, failure=failure))
        elif failure.kind == "required":
            if failure.field in values:
                found.append(rules.FS013.problem(path=("values", failure.field), field=failure.field))
            else:
                at = ("fields", raw_key(fields, failure.field))
                found.append(rules.FS012.problem(path=at, field=failure.field))
        else:
            found.append(rules.FS014.problem(path=("values", failure.field), failure=failure))
    return found


def holds_unordered_set(value: Any) -> bool:
    """Whether *value* holds a set of two or more members at least one of which Python hashes
    with its per-process seed (text, bytes, dates and times, None, or a tuple of one), so that
    ``repr`` lists the members in an order that changes from run to run."""
    seen: set[int] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind not in (list, tuple, dict, set, frozenset) or id(item) in seen:
            continue
        seen.add(id(item))
        if kind in (set, frozenset) and len(item) > 1 and any(_seeded_hash(m) for m in item):
            return True
        todo.extend(item.keys() if kind is dict else ())
        todo.extend(item.values() if kind is dict else item)
    return False


def _seeded_hash(member: Any) -> bool:
    import datetime as dt

    if member is None or isinstance(member, str | bytes | dt.date | dt.time):
        return True
    if type(member) in (tuple, frozenset):
        return any(_seeded_hash(m) for m in member)
    return False


def _longest_line(spec: dict[Any, Any], title: str, values: dict[Any, Any]) -> KeyPath:
    """Where a prefix over the cap is reported: at the value with the longest line of the
    block, or at the title when its line is longer."""
    longest: KeyPath = ("title",) if "title" in spec else ("values",)
    size = len(title) if "title" in spec else -1
    raw_values = spec.get("values")
    given = raw_values if isinstance(raw_values, dict) else {}
    for key, value in values.items():
        length = len(repr(value))
        if length > size:
            size = length
            longest = ("values", key) if key in given else ("values",)
    return longest


def _unrenderable_key(values: dict[Any, Any]) -> Any:
    """The first key whose line of the context block cannot be written."""
    for key, value in values.items():
        try:
            f"  {key}: {value!r}"
        except Exception:
            return key
    return None


def _title(raw: Any) -> str | None:
    """The title as WorkForm stores it, or None when it is not a string (pydantic's lax str)."""
    if type(raw) is str:
        return raw
    try:
        return lax_str(raw)
    except Invalid:
        return None
    except Unsure:
        pass
    from pydantic import TypeAdapter, ValidationError

    try:
        return str(TypeAdapter(str).validate_python(raw))
    except ValidationError:
        return None
