"""One adapter per engine, one interface (seed 004): what a file does, as plain data.

``form_outcome(path)`` answers what ``li agent --form <path>`` does with a work-form spec;
``script_outcome(path, transcript)`` answers what the scripted endpoint serves for each call
of *transcript*, through the non-stream path and, separately, through the stream path.

Outcomes are frozen dataclasses with canonical, hashable contents, so two engines agree
exactly when their outcomes compare equal. Random ids drawn by lionagi (completion ids,
tool-call ids it generates) are replaced by ``<id>`` in both engines before comparison;
an id the script spells out is kept.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import copy
import dataclasses
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

# ----------------------------------------------------------------------------- outcomes

#: Where the runtime's ``--form`` gate refuses a spec, in the order it checks.
FORM_CATEGORIES = ("load", "shape", "field", "title", "validation")
#: Refusals past the gate, reached by the red team (``redteam.py``): a ruleset that cannot be
#: built or a rule that raises while the form is filled (``rules``), a value the runtime
#: cannot convert or write out, so that filling the form or rendering the context block
#: raises (``render``: an int too large for a float, or too long for decimal text), and the
#: prompt cap (``prompt``).
EXTRA_CATEGORIES = ("rules", "render", "prompt")


@dataclass(frozen=True)
class FormOutcome:
    """What the ``--form`` gate does with one spec file."""

    verdict: str  # "accepted" | "rejected"
    #: The stage of the first refusal (one of FORM_CATEGORIES), None when accepted.
    category: str | None = None
    #: The built form (only when the gate got as far as filling it).
    status: str | None = None
    title: str | None = None
    #: ``(repr(key), repr(value))`` in order; repr keeps 1, 1.0 and True apart.
    values: tuple[tuple[str, str], ...] | None = None
    #: Fields with a validation failure, as a set and in reporting order.
    failing_fields: frozenset[str] = frozenset()
    error_fields: tuple[str, ...] = ()
    context_block: str | None = None
    #: The prompt ``li agent`` hands to the run (the form's prefix, then the prompt text), when
    #: a prompt was given and the form accepted with it.
    prompt: str | None = None
    #: How many rules of a ruleset failed (dry runs with rules only).
    rule_failures: int = 0
    #: An exception other than the documented ones escaped (not compared; reported).
    crashed: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Served:
    """One call the endpoint answered (possibly by raising the scripted error)."""

    call_index: int
    entry: int
    matched_by: str  # positional | prompt_contains | prompt_regex | has_tool | call_index | after_calls
    matched_value: str | None
    response_type: str
    #: Canonical response: a completion, stream chunks, or ``("raises", name, status, message)``.
    response: Any
    #: A readable digest: the assistant text, ``tool <name>``, chunk types, ``raises <name>``.
    summary: str | None = None
    #: lionagi's side: the structured data or tool arguments the endpoint JSON-encoded (to
    #: check the length formscript gives where it elides a response too long to show).
    encoded: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ScriptOutcome:
    """What a script does: accepted or not, and the calls served along a transcript."""

    verdict: str
    load_error: str | None = None  # "parse" | "schema" | None
    mode: str | None = None
    version: int | None = None
    entry_types: tuple[str, ...] = ()
    served: tuple[Served, ...] = ()
    #: Why serving stopped early: exhausted | invalid_regex | crash:<Exception>; None = all served.
    terminal: str | None = None
    stream_served: tuple[Served, ...] = ()
    stream_terminal: str | None = None
    #: For each chat item (``{"chat": ...}``: a call a test makes through ``branch.chat``) the
    #: endpoint was asked to serve, its index and the request payload the endpoint received.
    chat_payloads: tuple[tuple[int, Any], ...] = ()


class Engine(Protocol):
    """The contract every engine adapter meets."""

    name: str

    def form_outcome(self, path: str, *, prompt: str | None = None) -> FormOutcome: ...

    def script_outcome(self, path: str, transcript: tuple[dict[str, Any] | str, ...]) -> ScriptOutcome: ...


# ----------------------------------------------------------------------------- canonical forms

#: A transcript item that resets the script's matching state (cursor and served entries)
#: between calls; the endpoint's call count, which feeds call_index, carries on.
RESET = "<reset>"

#: What ``branch.chat`` takes besides the instruction, as a chat item spells it.
CHAT_ARGUMENTS = ("guidance", "context", "plain_content", "tool_schemas", "tools")


def is_chat(item: Any) -> bool:
    """Whether a transcript item is a chat item: a call made through ``branch.chat``."""
    return isinstance(item, dict) and "chat" in item


def calls_item(item: dict[str, Any]) -> dict[str, Any]:
    """A transcript item as a calls file writes it: a chat item as it is, a payload wrapped."""
    return item if is_chat(item) else {"payload": item}


def chat_payloads(transcript: tuple[Any, ...], payloads: list[dict[str, Any]]) -> tuple[tuple[int, Any], ...]:
    """``ScriptOutcome.chat_payloads``: the chat items' indexes with the payloads the endpoint
    was asked to serve, *payloads* being one per call in order (up to where serving stopped)."""
    items = [t for t in transcript if t != RESET]
    return tuple((i, canon(p)) for i, (item, p) in enumerate(zip(items, payloads, strict=False)) if is_chat(item))


_COMPLETION_ID = re.compile(r"^chatcmpl-scripted-[0-9a-f]{12}$")
_TOOL_CALL_ID = re.compile(r"^call_[0-9a-f]{10}$")


def safe_repr(value: Any) -> str:
    """``repr(value)``, or where repr itself raises (an int past Python's 4,300-digit limit
    for decimal text) the int's exact hex literal."""
    try:
        return repr(value)
    except ValueError:
        if isinstance(value, int):
            return hex(value)
        raise


#: What ``canon`` puts where a value contains itself (a YAML anchor aliased inside itself).
CYCLE = ("<cycle>",)


def canon(value: Any) -> Any:
    """A hashable, order-stable image of *value* that keeps types apart (nan equals nan).

    Iterative, so documents nested deeper than the recursion limit still compare, and
    cycle-safe: a container met again inside itself becomes ``CYCLE``.
    """
    done: list[Any] = []
    todo: list[tuple[bool, Any]] = [(False, value)]
    open_ids: set[int] = set()
    while todo:
        finished, item = todo.pop()
        if finished:
            open_ids.discard(id(item))
            size = len(item)
            children = done[len(done) - size :] if size else []
            del done[len(done) - size :]
            if isinstance(item, dict):
                pairs = zip((safe_repr(k) for k in item), children, strict=True)
                done.append(("dict", tuple(sorted(pairs, key=lambda kv: kv[0]))))
            else:
                done.append((type(item).__name__, tuple(children)))
        elif isinstance(item, dict | list | tuple):
            if id(item) in open_ids:
                done.append(CYCLE)
                continue
            open_ids.add(id(item))
            todo.append((True, item))
            todo.extend((False, child) for child in reversed(list(item.values() if isinstance(item, dict) else item)))
        elif isinstance(item, set | frozenset):
            # A set's repr follows its hash table, which two equal sets need not share.
            done.append((type(item).__name__, tuple(sorted(safe_repr(x) for x in item))))
        else:
            done.append((type(item).__name__, safe_repr(item)))
    return done[0]


def strip_ids(response: dict[str, Any], generated_tool_id: bool) -> dict[str, Any]:
    """*response* with lionagi's random ids (and formscript's derived ones) made equal."""
    out = dict(response)
    if isinstance(out.get("id"), str) and _COMPLETION_ID.match(out["id"]):
        out["id"] = "<id>"
    choices = []
    for choice in out.get("choices", []):
        message = dict(choice["message"])
        if message.get("tool_calls"):
            calls = []
            for call in message["tool_calls"]:
                call = dict(call)
                if generated_tool_id and _TOOL_CALL_ID.match(call["id"]):
                    call["id"] = "<id>"
                calls.append(call)
            message["tool_calls"] = calls
        choices.append({**choice, "message": message})
    out["choices"] = choices
    return out


def canon_chunk(chunk: dict[str, Any], generated_tool_id: bool) -> Any:
    """A stream chunk with any embedded completion's ids stripped."""
    import json

    chunk = dict(chunk)
    raw = chunk.get("metadata", {}).get("raw") if isinstance(chunk.get("metadata"), dict) else None
    if isinstance(raw, dict) and "choices" in raw:
        chunk["metadata"] = {**chunk["metadata"], "raw": strip_ids(raw, generated_tool_id)}
        if isinstance(chunk.get("content"), str):
            chunk["content"] = strip_ids(json.loads(chunk["content"]), generated_tool_id)
    return canon(chunk)


def summarize(
    completion: dict[str, Any] | None, chunks: list[dict[str, Any]] | None, raises: tuple[Any, ...] | None
) -> str | None:
    """The readable digest of one served call (see Served.summary)."""
    parts = []
    if chunks is not None:
        parts.append("chunks " + ",".join(str(c.get("type")) for c in chunks))
    if completion is not None:
        message = completion["choices"][0]["message"]
        if message.get("tool_calls"):
            parts.append("tool " + str(message["tool_calls"][0]["function"]["name"]))
        else:
            parts.append(str(message.get("content")))
    if raises is not None:
        parts.append(f"raises {raises[1]}" + (f" {raises[2]}" if raises[2] else ""))
    return "; ".join(parts) if parts else None


def parse_matched_by(text: str) -> tuple[str, str | None]:
    """lionagi's ``when:<kind>:<value>`` / ``positional`` as (kind, value text)."""
    if text == "positional":
        return "positional", None
    prefix, kind, value = text.split(":", 2)
    if prefix != "when":
        raise ValueError(f"unexpected matched_by {text!r}")
    return kind, value


def _has_generated_id(entry: Any) -> bool:
    return getattr(entry, "type", None) == "tool_call" and not entry.id


# ----------------------------------------------------------------------------- formscript


class FormscriptEngine:
    """formscript's core: gate.check_form_spec, script.check_script and Replayer."""

    name = "formscript"

    # Codes of the core's rejecting problems by the runtime stage that would raise them.
    CODE_CATEGORY: ClassVar[dict[str, str]] = {
        "FS002": "load",
        "FS001": "shape",
        "FS003": "shape",
        "FS004": "shape",
        "FS005": "shape",
        "FS006": "field",
        "FS007": "field",
        "FS008": "field",
        "FS009": "field",
        "FS010": "field",
        "FS011": "field",
        "FS020": "field",
        "FS021": "field",
        "FS019": "title",
        "FS012": "validation",
        "FS013": "validation",
        "FS014": "validation",
        "RS100": "validation",
        "FS024": "prompt",
        "FS025": "render",
    }

    def form_outcome(self, path: str, *, rules: str | None = None, prompt: str | None = None) -> FormOutcome:
        """The gate on *path*; with *rules*, the ruleset file built and applied by the core
        (``core.rulesets``) as the README's loading does; with *prompt*, also the cap on the
        form's prefix and the prompt."""
        from formscript.core.gate import SpecLoadError, check_form_spec, final_prompt, load_spec_text, prompt_problem
        from formscript.core.rulesets import apply_ruleset, load_ruleset

        loaded = None
        if rules is not None:
            import yaml

            try:
                loaded = load_ruleset(yaml.safe_load(read_text(rules)))
            except yaml.YAMLError:
                return FormOutcome("rejected", "rules")
            if loaded.refused:
                return FormOutcome("rejected", "rules")
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        try:
            spec = load_spec_text(text)
        except SpecLoadError:
            return FormOutcome("rejected", "load")
        if loaded is not None:
            ruled = apply_ruleset(spec, path, loaded)
            if ruled.raised is not None:
                return FormOutcome("rejected", "rules")
            result = ruled.gate
        else:
            result = check_form_spec(spec, path)
        rejecting = [p for p in result.problems if p.rejects]
        category = None
        if rejecting:
            category = self.CODE_CATEGORY.get(rejecting[0].code, f"unknown:{rejecting[0].code}")
        verdict = str(result.verdict.value)  # anything but accepted/rejected shows as a diff
        if category not in (None, "validation") or result.form is None:
            return FormOutcome(verdict, category)
        form = result.form
        sent = None
        if prompt is not None and category is None:
            if prompt_problem(result, prompt) is not None:
                return FormOutcome("rejected", "prompt")
            sent = final_prompt(result.prompt_prefix, prompt)
        failing = [f.field for f in form.failures if f.source == "field"]
        return FormOutcome(
            verdict,
            category,
            status=form.status,
            title=form.title,
            values=tuple((safe_repr(k), safe_repr(v)) for k, v in form.values.items()),
            failing_fields=frozenset(failing),
            error_fields=tuple(failing),
            context_block=result.context_block,
            rule_failures=sum(1 for f in form.failures if f.source == "rule"),
            prompt=sent,
        )

    def script_outcome(self, path: str, transcript: tuple[dict[str, Any] | str, ...]) -> ScriptOutcome:
        from formscript.core.script import check_script, load_script_text
        from formscript.core.verdict import Verdict

        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        try:
            data = load_script_text(text, path)
        except Exception:
            return ScriptOutcome("rejected", "parse")
        result = check_script(data)
        if result.verdict is not Verdict.ACCEPTED:
            return ScriptOutcome(str(result.verdict.value), "schema")
        entries = [e for e in result.entries if e is not None]
        payloads = tuple(self._payload(item) for item in transcript)
        served, terminal = self._serve(entries, result.mode, payloads, stream=False)
        s_served, s_terminal = self._serve(entries, result.mode, payloads, stream=True)
        asked = [p for p in payloads if p != RESET][: len(served) + (terminal is not None)]
        return ScriptOutcome(
            "accepted",
            mode=result.mode,
            version=result.version,
            entry_types=tuple(e.type for e in entries),
            served=served,
            terminal=terminal,
            stream_served=s_served,
            stream_terminal=s_terminal,
            chat_payloads=chat_payloads(transcript, asked),  # type: ignore[arg-type]
        )

    @staticmethod
    def _payload(item: Any) -> Any:
        """The payload a transcript item sends: a chat item's is the one core.calls builds."""
        if not is_chat(item):
            return item
        from formscript.core.calls import read_calls

        return read_calls([item]).calls[0].payload

    @staticmethod
    def _serve(
        entries: list[Any], mode: str, transcript: tuple[dict[str, Any] | str, ...], *, stream: bool
    ) -> tuple[tuple[Served, ...], str | None]:
        from formscript.core.endpoint import completion_for, raised_for, stream_for
        from formscript.core.script import RegexFailure, Replayer, ScriptExhausted

        replayer = Replayer(entries, mode)
        served: list[Served] = []
        recorded = 0
        for payload in transcript:
            if payload == RESET:
                replayer.reset()
                continue
            try:
                match = replayer.next(payload, recorded)
            except ScriptExhausted:
                return tuple(served), "exhausted"
            except RegexFailure:
                return tuple(served), "invalid_regex"
            except Exception as exc:  # a malformed payload crashes the runtime's matcher too
                return tuple(served), f"crash:{type(exc).__name__}"
            entry = entries[match.entry]
            value = None
            if match.kind != "positional":
                value = repr(match.value) if isinstance(match.value, str) else str(match.value)
            generated = _has_generated_id(entry)
            call_index = recorded
            if entry.type == "error":
                raised = raised_for(entry)
                message = raised["message"] if raised["recorded"] else "<runtime>"
                raises = ("raises", raised["exception"], raised["status_code"], message)
                chunks = stream_for(entry, payload, call_index) if stream else None
                response: Any = raises
                if chunks is not None:
                    response = (tuple(canon_chunk(c, False) for c in chunks), raises)
                summary = summarize(None, chunks, raises)
                recorded += 1 if raised["recorded"] else 0
            else:
                try:
                    if stream:
                        chunks = stream_for(entry, payload, call_index)
                        response = (tuple(canon_chunk(c, generated) for c in chunks), None)
                        summary = summarize(None, chunks, None)
                    else:
                        completion = completion_for(entry, payload, call_index)
                        response = canon(strip_ids(completion, generated))
                        summary = summarize(completion, None, None)
                except Exception as exc:
                    return tuple(served), f"crash:{type(exc).__name__}"
                recorded += 1
            served.append(Served(call_index, match.entry, match.kind, value, entry.type, response, summary))
        return tuple(served), None


# ----------------------------------------------------------------------------- runs.py


def before_reset(transcript: tuple[dict[str, Any] | str, ...]) -> tuple[dict[str, Any] | str, ...]:
    """*transcript* up to its first RESET (the calls a simulation can replay)."""
    return transcript[: transcript.index(RESET)] if RESET in transcript else transcript


def up_to_reset(outcome: ScriptOutcome, transcript: tuple[dict[str, Any] | str, ...]) -> ScriptOutcome:
    """*outcome* as if *transcript* had stopped at its first RESET (unchanged without one).

    ``runs.simulate_text`` has no reset item (lionagi resets a script when an iModel is
    copied), so a transcript with a reset is compared up to the reset.
    """
    if RESET not in transcript:
        return outcome
    calls = transcript.index(RESET)
    served, terminal = outcome.served, outcome.terminal
    s_served, s_terminal = outcome.stream_served, outcome.stream_terminal
    if len(served) >= calls:
        served, terminal = served[:calls], None
    if len(s_served) >= calls:
        s_served, s_terminal = s_served[:calls], None
    return dataclasses.replace(
        outcome, served=served, terminal=terminal, stream_served=s_served, stream_terminal=s_terminal
    )


def _datetime_calls() -> dict[str, Any]:
    import datetime

    return {
        "datetime.date": datetime.date,
        "datetime.datetime": datetime.datetime,
        "datetime.timedelta": datetime.timedelta,
        "datetime.timezone": datetime.timezone,
        "set": set,
        "frozenset": frozenset,
    }


def _evaluate(node: ast.AST, open_: list[Any] | None = None) -> Any:
    """A literal, a non-finite float or a date, time or set constructor call, evaluated.

    ``[...]`` and ``{...}`` (repr's text for a list or dict met again inside itself) become
    the enclosing list or dict under construction, so the value contains itself again.
    """
    open_ = [] if open_ is None else open_
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in ("inf", "nan"):
        return float(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _evaluate(node.operand, open_)
        return -operand if isinstance(node.op, ast.USub) else operand
    back = _back_reference(node)
    if back is not None:
        return next(c for c in reversed(open_) if type(c) is back)
    if isinstance(node, ast.List):
        built: list[Any] = []
        open_.append(built)
        built.extend(_evaluate(item, open_) for item in node.elts)
        open_.pop()
        return built
    if isinstance(node, ast.Tuple):
        return tuple(_evaluate(item, open_) for item in node.elts)
    if isinstance(node, ast.Set):
        return {_evaluate(item, open_) for item in node.elts}
    if isinstance(node, ast.Dict):
        mapping: dict[Any, Any] = {}
        open_.append(mapping)
        for k, v in zip(node.keys, node.values, strict=True):
            if k is not None:
                key = _evaluate(k, open_)
                mapping[key] = _evaluate(v, open_)
        open_.pop()
        return mapping
    if isinstance(node, ast.Attribute) and ast.unparse(node) == "datetime.timezone.utc":
        import datetime

        return datetime.UTC
    if isinstance(node, ast.Call) and ast.unparse(node.func) in _datetime_calls():
        args = [_evaluate(a, open_) for a in node.args]
        kwargs = {k.arg: _evaluate(k.value, open_) for k in node.keywords if k.arg is not None}
        return _datetime_calls()[ast.unparse(node.func)](*args, **kwargs)
    raise ValueError(f"not a literal: {ast.unparse(node)[:80]}")


def _back_reference(node: ast.AST) -> type | None:
    """list for ``[...]``, dict for ``{...}`` (which Python parses as a set of Ellipsis)."""
    if isinstance(node, ast.List | ast.Set) and len(node.elts) == 1:
        only = node.elts[0]
        if isinstance(only, ast.Constant) and only.value is Ellipsis:
            return list if isinstance(node, ast.List) else dict
    return None


def literal_from_repr(text: str) -> Any:
    """The value whose ``repr`` is *text* (literals, non-finite floats, dates and times, values
    that contain themselves)."""
    return _evaluate(ast.parse(text, mode="eval").body)


def exact_response(call: dict[str, Any]) -> Any:
    """A simulated call's response: ``response``, or ``response_repr`` where JSON lost a type."""
    if "response_repr" in call:
        return literal_from_repr(call["response_repr"])
    return call["response"]


class RunsEngine:
    """formscript's user-facing layer: ``runs.dry_run_text`` and ``runs.simulate_text``.

    What ``formscript dry-run`` and ``formscript simulate --format json`` print, mapped onto
    the contract. Transcripts are passed as a JSON calls file of ``{"payload": ...}`` items;
    one with a RESET is replayed (and compared, see ``up_to_reset``) up to the reset.
    """

    name = "runs"

    #: Problem codes by the runtime stage that raises them (the core's, plus parse errors, and
    #: a ruleset that cannot be built: its problems come before the form's).
    CODE_CATEGORY: ClassVar[dict[str, str]] = {
        **FormscriptEngine.CODE_CATEGORY,
        "FS015": "validation",  # dry-run shows lint's YAML 1.1 finding in the place of FS014/FS013
        "YM001": "load",
        "YM003": "load",
        "RS001": "rules",
        "RS009": "rules",
        "RS011": "rules",
        "RS101": "rules",
    }
    #: Codes of a script the runtime cannot load (YAML or JSON syntax), not its schema.
    PARSE_CODES = frozenset({"YM001", "YM003", "SC017"})
    #: The ``field`` of an error that is a field's validation failure (not a rule's).
    FIELD_FAILURE_CODES = frozenset({"FS012", "FS013", "FS014", "FS015"})

    def form_outcome(self, path: str, *, rules: str | None = None, prompt: str | None = None) -> FormOutcome:
        """The dry run of *path*, with the ruleset file *rules* and the prompt text *prompt*
        (passed as ``prompt=`` when ``dry_run_text`` takes one)."""
        from formscript.runs import dry_run_text

        extra: dict[str, Any] = {}
        if prompt is not None and dry_run_takes_prompt():
            extra["prompt"] = prompt
        rules_text = read_text(rules) if rules is not None else None
        return self.form_outcome_of(dry_run_text(read_text(path), path, rules_text, rules, **extra), rules=rules)

    def form_outcome_of(self, dry: dict[str, Any], *, rules: str | None = None) -> FormOutcome:
        """The outcome a dry run's result (``dry_run_text``, or one of ``dry-run --format json``'s
        results) stands for."""
        verdict = str(dry["verdict"])
        codes = [e["code"] for e in dry["errors"]]
        category = None
        if verdict != "accepted":
            category = self.CODE_CATEGORY.get(codes[0], f"unknown:{codes[0]}") if codes else ("unknown:no-error")
            if rules is not None and dry["errors"] and dry["errors"][0]["path"] == rules:
                # Located in the ruleset file: building the RuleSet or applying a rule raised.
                category = "rules"
        if category not in (None, "validation") or dry["status"] is None:
            return FormOutcome(verdict, category)
        failing = [e["field"] for e in dry["errors"] if e["code"] in self.FIELD_FAILURE_CODES]
        block = dry["context_block"]
        if block is not None:
            # dry_run's block is what li agent prepends: the rendered block and a blank line.
            block = block[:-2] if block.endswith("\n\n") else f"<no blank line after>{block}"
        return FormOutcome(
            verdict,
            category,
            status=dry["status"],
            title=dry["title"],
            values=tuple((info.get("key_repr", repr(k)), info["repr"]) for k, info in dry["values"].items()),
            failing_fields=frozenset(failing),
            error_fields=tuple(failing),
            context_block=block,
            prompt=dry.get("prompt"),
            rule_failures=sum(1 for e in dry["errors"] if e["code"] == "RS100") if rules is not None else 0,
        )

    def script_outcome(self, path: str, transcript: tuple[dict[str, Any] | str, ...]) -> ScriptOutcome:
        plain = self.simulation(path, transcript)
        if plain["verdict"] != "accepted":
            return self.script_outcome_of(plain, plain)
        return self.script_outcome_of(plain, self.simulation(path, transcript, stream=True))

    @staticmethod
    def simulation(
        path: str,
        transcript: tuple[dict[str, Any] | str, ...],
        *,
        stream: bool = False,
        regex_timeout: float | None = None,
    ) -> dict[str, Any]:
        """``simulate_text`` of the script at *path* with *transcript* as a JSON calls file; with
        *regex_timeout*, a slower search is awaited as ``simulate`` awaits it (``--regex-wait``)."""
        import json

        from formscript.runs import simulate_text

        calls = before_reset(transcript)
        calls_text = json.dumps([calls_item(p) for p in calls], ensure_ascii=False)
        waits: dict[str, float] = {}
        if regex_timeout is not None:
            waits = {"regex_timeout": regex_timeout, "regex_answer_bound": 30.0}
        return simulate_text(read_text(path), path, calls_text, f"{path}.calls.json", stream=stream, **waits)

    def script_outcome_of(self, plain: dict[str, Any], stream: dict[str, Any]) -> ScriptOutcome:
        """The outcome two simulations stand for (``simulate_text``, or ``simulate --format
        json``), without and with ``--stream``."""
        verdict = str(plain["verdict"])
        if verdict != "accepted":
            parse = any(e["code"] in self.PARSE_CODES for e in plain["errors"])
            return ScriptOutcome(verdict, "parse" if parse else "schema")
        served, terminal = self._served(plain["calls"], stream=False)
        s_served, s_terminal = self._served(stream["calls"], stream=True)
        return ScriptOutcome(
            "accepted",
            mode=plain["mode"],
            version=plain["script_version"],
            entry_types=tuple(e["type"] for e in plain["entries"]),
            served=served,
            terminal=terminal,
            stream_served=s_served,
            stream_terminal=s_terminal,
            chat_payloads=tuple((c["index"], canon(c["payload"])) for c in plain["calls"] if "payload" in c),
        )

    @staticmethod
    def _served(calls: list[dict[str, Any]], *, stream: bool) -> tuple[tuple[Served, ...], str | None]:
        served: list[Served] = []
        recorded = 0  # the endpoint's call index: calls recorded before this one
        for call in calls:
            outcome = call["outcome"]
            if outcome in ("exhausted", "invalid_regex", "regex_timeout"):
                return tuple(served), outcome
            if outcome in ("raised", "serve_error"):
                return tuple(served), "crash:" + str(call.get("error", "")).split(":", 1)[0]
            if outcome != "served":
                return tuple(served), f"unknown:{outcome}"
            how = call["matched_by"]
            value = how["value"]
            if how["kind"] != "positional":
                value = repr(value) if isinstance(value, str) else str(value)
            # formscript derives a tool call's id when the script gives none; lionagi draws one.
            # The output does not say which it was: an id of the generated shape counts as
            # generated (strip_ids only touches that shape; no id spelled in the corpus has it).
            generated = call["response_type"] == "tool_call"
            raised = call.get("raises")
            response: Any
            elided = call.get("response_elided")
            if elided is not None:  # too long to show: its JSON's length stands for it
                response, summary, step = ("elided", elided["json_characters"]), None, 1
            elif raised is not None:
                message = raised["message"] if raised["recorded"] else "<runtime>"
                raises = ("raises", raised["exception"], raised["status_code"], message)
                chunks = call["response"] if stream else None
                response = raises
                if chunks is not None:
                    response = (tuple(canon_chunk(c, False) for c in chunks), raises)
                summary = summarize(None, chunks, raises)
                step = 1 if raised["recorded"] else 0
            elif stream:
                chunks = exact_response(call)
                response = (tuple(canon_chunk(c, generated) for c in chunks), None)
                summary = summarize(None, chunks, None)
                step = 1
            else:
                completion = exact_response(call)
                response = canon(strip_ids(completion, generated))
                summary = summarize(completion, None, None)
                step = 1
            served.append(Served(recorded, call["entry"], how["kind"], value, call["response_type"], response, summary))
            recorded += step
        return tuple(served), None


# ----------------------------------------------------------------------------- the CLI


def as_json_reads(value: Any) -> Any:
    """*value* (an outcome, or anything inside one) as a JSON reader gets it back: each
    string through ``json.dumps`` and ``json.loads``. That changes one thing: a string that
    holds the two halves of a surrogate pair as two characters (YAML reads a JSON
    ``"\\ud83d\\ude00"`` so) comes back as the one character they encode, since
    ``\\ud83d\\ude00`` is that character in every JSON text. An outcome read from a command's
    JSON is compared with another after both went through this. A canonical leaf (``canon``)
    holds a string's repr, which gets the same change."""
    import json

    if isinstance(value, str):
        if not value.isascii():
            return json.loads(json.dumps(value))
        if "\\ud" in value and value[:1] in ("'", '"'):
            try:
                inner = ast.literal_eval(value)
            except (ValueError, SyntaxError):
                return value
            return repr(as_json_reads(inner)) if isinstance(inner, str) else value
        return value
    if isinstance(value, tuple | list):
        return type(value)(as_json_reads(v) for v in value)
    if isinstance(value, frozenset):
        return frozenset(as_json_reads(v) for v in value)
    if isinstance(value, dict):
        return {as_json_reads(k): as_json_reads(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: as_json_reads(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **changes)
    return value


@dataclass(frozen=True)
class CliOutcome:
    """What one ``formscript`` command printed for one input file, as far as the contract goes."""

    command: str
    #: The verdict printed for the file; None when none was (no entry for it, or skipped).
    verdict: str | None
    #: The kind lint reported for the file, and whether lint listed the file at all (lint only).
    kind: str | None = None
    listed: bool = True
    exit_code: int | None = None
    #: What went wrong with the output itself: a traceback, bytes that are not UTF-8, text
    #: that is not JSON, an exit code outside 0-2. None when the output is well formed.
    problem: str | None = None
    #: The JSON printed for the file (a dry run's result, a simulation, a lint file entry).
    data: Any = field(default=None, compare=False, repr=False)


class CliEngine:
    """formscript's command line, run in this process the way a shell runs it.

    stdout is a UTF-8 stream with the ``surrogateescape`` error handler, as Python gives a
    process under a UTF-8 locale: text it cannot encode raises, and lone low surrogates
    come out as bytes that are not UTF-8. Both count as broken output, as does anything a
    command prints that is not its JSON.
    """

    name = "cli"

    def form_outcome(self, path: str, *, rules: str | None = None, prompt: str | None = None) -> FormOutcome:
        """The outcome ``dry-run --format json`` prints for *path* (with ``--rules`` and
        ``--prompt``; ``RunsEngine``'s mapping), as JSON reads it (``as_json_reads``); broken
        output or an exit code that does not go with the verdict shows as a verdict of its own."""
        dry = self.dry_run(path, rules=rules, prompt=prompt)
        if dry.problem is not None or dry.data is None:
            return FormOutcome(f"<cli: {dry.problem or f'no verdict, exit {dry.exit_code}'}>")
        if dry.exit_code != (0 if dry.verdict == "accepted" else 1):
            return FormOutcome(f"<cli: {dry.verdict}, exit {dry.exit_code}>")
        return as_json_reads(RunsEngine().form_outcome_of(dry.data, rules=rules))  # type: ignore[no-any-return]

    def script_outcome(self, path: str, transcript: tuple[dict[str, Any] | str, ...]) -> ScriptOutcome:
        """The outcome ``simulate --format json`` prints for *path* with *transcript* as a
        calls file, without and with ``--stream`` (see ``form_outcome``)."""
        import json

        calls = f"{path}.calls.json"
        with open(calls, "w", encoding="utf-8") as handle:
            json.dump([calls_item(p) for p in before_reset(transcript)], handle)
        runs = [self.simulate(path, calls), self.simulate(path, calls, stream=True)]
        for run in runs:
            if run.problem is not None or not isinstance(run.data, dict):
                return ScriptOutcome(f"<cli: {run.problem or f'no verdict, exit {run.exit_code}'}>")
            served = run.verdict in ("accepted", "insufficient_evidence") and all(
                c.get("outcome") == "served" for c in run.data.get("calls", [])
            )
            if run.exit_code != (0 if served else 1):
                return ScriptOutcome(f"<cli: {run.verdict}, exit {run.exit_code}>")
        return as_json_reads(RunsEngine().script_outcome_of(runs[0].data, runs[1].data))  # type: ignore[no-any-return]

    def dry_run(
        self, path: str, *, rules: str | None = None, prompt: str | None = None, prompt_file: str | None = None
    ) -> CliOutcome:
        argv = ["dry-run", "--format", "json", path]
        if rules is not None:
            argv += ["--rules", rules]
        if prompt is not None:
            argv += [f"--prompt={prompt}"]
        if prompt_file is not None:
            argv += ["--prompt-file", prompt_file]
        return self._dry_runs(argv, [path])[0]

    def dry_runs(self, paths: list[str]) -> list[CliOutcome]:
        """One ``dry-run`` of several forms; each outcome carries the exit code of the whole run."""
        return self._dry_runs(["dry-run", "--format", "json", *paths], paths)

    def _dry_runs(self, argv: list[str], paths: list[str]) -> list[CliOutcome]:
        code, data, problem = self._run(argv)
        if problem is None and data is not None:
            results = data.get("results") if isinstance(data, dict) else None
            if not isinstance(results, list) or len(results) != len(paths):
                problem = "the JSON has no result per form"
            else:
                return [CliOutcome("dry-run", r.get("verdict"), exit_code=code, data=r) for r in results]
        return [CliOutcome("dry-run", None, exit_code=code, problem=problem) for _ in paths]

    def simulate(
        self, path: str, calls: str, *, stream: bool = False, regex_timeout: float | None = None
    ) -> CliOutcome:
        argv = ["simulate", path, "--calls", calls, "--format", "json"] + (["--stream"] if stream else [])
        if regex_timeout is not None:
            argv += ["--regex-timeout", str(regex_timeout)]
        code, data, problem = self._run(argv)
        verdict = None
        if problem is None and data is not None:
            verdict = data.get("verdict") if isinstance(data, dict) else None
            if verdict is None:
                problem = "the JSON has no verdict"
        command = "simulate --stream" if stream else "simulate"
        return CliOutcome(command, verdict, exit_code=code, problem=problem, data=data)

    def lint(self, path: str) -> CliOutcome:
        return self.lints([path])[0]

    def lints(self, paths: list[str]) -> list[CliOutcome]:
        """One ``lint`` of several paths, as one outcome per path."""
        code, data, problem = self._run(["lint", "--no-cache", "--format", "json", *paths])
        if problem is not None or data is None:
            return [CliOutcome("lint", None, listed=False, exit_code=code, problem=problem) for _ in paths]
        entries = {f.get("path"): f for f in data.get("files", []) if isinstance(f, dict)}
        outcomes = []
        for path in paths:
            entry = entries.get(path)
            if entry is None:
                outcomes.append(CliOutcome("lint", None, listed=False, exit_code=code))
            else:
                verdict, kind = entry.get("verdict"), entry.get("kind")
                outcomes.append(CliOutcome("lint", verdict, kind=kind, exit_code=code, data=entry))
        return outcomes

    @staticmethod
    def _run(argv: list[str]) -> tuple[int | None, Any, str | None]:
        import contextlib
        import io
        import json

        from formscript.cli import main

        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape", write_through=True)
        code: int | None = None
        problem = None
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                try:
                    code = main(argv)
                finally:
                    out.flush()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except Exception as exc:
            problem = f"traceback: {type(exc).__name__}: {exc}"[:300]
        data = None
        if problem is None:
            try:
                text = raw.getvalue().decode("utf-8")
            except UnicodeDecodeError as exc:
                problem = f"stdout is not UTF-8 (byte {exc.start})"
            else:
                if text or code != 2:
                    try:
                        data = json.loads(text)
                    except ValueError:
                        problem = f"stdout is not JSON: {text[:120]!r}"
        if problem is None and code not in (0, 1, 2):
            problem = f"exit code {code!r}"
        return code, data, problem


# ----------------------------------------------------------------------------- lionagi


#: Set to run the suite as if lionagi were not installed (formscript's own checks only).
WITHOUT_LIONAGI_ENV = "FORMSCRIPT_CONFORMANCE_WITHOUT_LIONAGI"


def lionagi_missing_reason() -> str | None:
    """Why the lionagi engine cannot run here, or None when it can."""
    import os

    if os.environ.get(WITHOUT_LIONAGI_ENV):
        return f"lionagi (the test oracle) is switched off by {WITHOUT_LIONAGI_ENV}"
    try:
        import lionagi  # noqa: F401
        from lionagi.cli.agent import _build_work_form  # noqa: F401
        from lionagi.testing._endpoint import ScriptedEndpoint  # noqa: F401
    except Exception as exc:  # ImportError, or a broken install
        return f"lionagi (the test oracle, extra 'conformance') is not importable: {exc!r}"
    return None


_FIELD_MESSAGE = re.compile(r"^Field ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


def _error_field(message: str) -> str:
    match = _FIELD_MESSAGE.match(message)
    return ast.literal_eval(match.group(1)) if match else f"<unparsed:{message[:40]}>"


def _from_module(exc: BaseException, *fragments: str) -> bool:
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename.replace("\\", "/")
        if any(fragment in name for fragment in fragments):
            return True
        tb = tb.tb_next
    return False


@contextlib.contextmanager
def _without_delays() -> Iterator[None]:
    """lionagi's scripted endpoint with its ``delay_ms`` waits cut to nothing: an entry may ask
    for days (``delay_ms: 1e9`` coerced), and waiting changes nothing else. What the wait does
    otherwise stays lionagi's (a negative one raises, NaN is passed on)."""
    from lionagi.testing import _endpoint

    original = _endpoint.sleep

    async def no_wait(seconds: float) -> None:
        await original(0 if seconds > 0 else seconds)

    _endpoint.sleep = no_wait
    try:
        yield
    finally:
        _endpoint.sleep = original


class LionagiEngine:
    """lionagi 0.36.0 itself, driven through its own functions on files on disk."""

    name = "lionagi"

    def __init__(self) -> None:
        from lionagi.testing import _script

        self._script_module = _script
        self._loop = asyncio.new_event_loop()
        self._log: list[tuple[Any, Any, str, int]] = []
        self._agent_parser: Any = None

    def close(self) -> None:
        self._loop.close()

    # -- forms

    def form_outcome(self, path: str, *, rules: str | None = None, prompt: str | None = None) -> FormOutcome:
        """What ``li agent --form <path>`` does; with *rules*, the gate's ``fill_form`` also gets
        the ruleset built from that file; with *prompt*, the cap on prefix + prompt applies.

        A ruleset file is built as the README says, ``Rule(**m)`` for each item of ``rules:``
        added to a ``RuleSet``, before the form is read; whatever that raises refuses the run
        (category ``rules``), and so does a rule that raises while the form is filled.
        """
        from lionagi._spec_limits import MAX_SPEC_PROMPT_CHARS
        from lionagi.cli.agent import _build_work_form, _form_to_context_block, _load_form_spec

        ruleset = None
        if rules is not None:
            try:
                ruleset = self._ruleset(rules)
            except Exception as exc:
                return FormOutcome("rejected", "rules", crashed=f"{type(exc).__name__}: {exc}")
        try:
            spec = _load_form_spec(path)
        except (FileNotFoundError, ValueError):
            return FormOutcome("rejected", "load")
        try:
            form = _build_work_form(spec, path)
        except ValueError as exc:
            return FormOutcome("rejected", self._build_category(exc))
        except Exception as exc:
            # Not a ValueError: the CLI does not catch it, so the run dies before any model
            # call. Raised while the values are filled (float() of an int too large for a
            # float), it is a value the runtime cannot convert, as in rendering; otherwise the
            # only stage with code of its own (not delegated) is the shape check.
            category = "render" if _from_module(exc, "/lionagi/work/form.py") else "shape"
            return FormOutcome("rejected", category, crashed=f"{type(exc).__name__}: {exc}")
        fields = [_error_field(m) for m in form.validation_errors]
        rule_failures = 0
        if ruleset is not None:
            try:
                with self._filling_with(ruleset):
                    ruled = _build_work_form(spec, path)
            except Exception as exc:
                return FormOutcome("rejected", "rules", crashed=f"{type(exc).__name__}: {exc}")
            rule_failures = len(ruled.validation_errors) - len(form.validation_errors)
            form = ruled
        values = tuple((safe_repr(k), safe_repr(v)) for k, v in form.values.items())
        if form.status == "error":
            return FormOutcome(
                "rejected",
                "validation",
                status=form.status,
                title=form.title,
                values=values,
                failing_fields=frozenset(fields),
                error_fields=tuple(fields),
                rule_failures=rule_failures,
            )
        try:
            block = _form_to_context_block(form) if form.values else None
        except Exception as exc:  # li agent renders outside any handler: the run dies
            return FormOutcome("rejected", "render", crashed=f"{type(exc).__name__}: {exc}")
        # No prompt: the shortest one li agent takes (``--prompt ''``) decides the cap.
        with self._filling_with(ruleset) if ruleset is not None else contextlib.nullcontext():
            sent, refusal = self.agent_prompt(path, "" if prompt is None else prompt)
        if refusal is not None:
            if refusal == f"agent prompt exceeds maximum length of {MAX_SPEC_PROMPT_CHARS} characters":
                return FormOutcome("rejected", "prompt")
            return FormOutcome("rejected", "unknown:agent", crashed=refusal)
        return FormOutcome(
            "accepted",
            None,
            status=form.status,
            title=form.title,
            values=values,
            context_block=block,
            prompt=sent if prompt is not None else None,
        )

    def agent_prompt(self, path: str, prompt: str, *, prompt_file: str | None = None) -> tuple[str | None, str | None]:
        """What ``li agent claude --form <path> --prompt <prompt>`` (or ``--prompt-file``) does,
        through lionagi's own parser and ``run_agent``, stopped where the run would start:
        ``(the prompt it hands to the run, None)`` or ``(None, the error it logged)``."""
        import lionagi.cli.agent as agent

        if self._agent_parser is None:
            import argparse

            parser = argparse.ArgumentParser(prog="li")
            agent.add_agent_subparser(parser.add_subparsers(dest="command"))
            self._agent_parser = parser
        given = ["--prompt-file", prompt_file] if prompt_file is not None else [f"--prompt={prompt}"]
        args = self._agent_parser.parse_args(["agent", "claude", "--form", path, *given])
        logged: list[str] = []

        def starting(model: Any, sent: str, **options: Any) -> Any:
            raise _RunStarts(sent)

        original = agent._run_agent, agent.log_error
        agent._run_agent, agent.log_error = starting, logged.append
        try:
            agent.run_agent(args)
        except _RunStarts as started:
            return started.prompt, None
        finally:
            agent._run_agent, agent.log_error = original
        return None, logged[0] if logged else "<no error logged>"

    @staticmethod
    def _ruleset(path: str) -> Any:
        import yaml
        from lionagi.work import Rule, RuleSet

        with open(path, encoding="utf-8") as handle:
            data = yaml.safe_load(handle.read())
        ruleset = RuleSet()
        for raw in data["rules"]:
            ruleset.add(Rule(**raw))
        return ruleset

    @staticmethod
    @contextmanager
    def _filling_with(ruleset: Any) -> Iterator[None]:
        """The gate's ``fill_form`` (looked up in ``lionagi.work`` at each call) with *ruleset*."""
        import functools

        import lionagi.work as work

        original = work.fill_form
        work.fill_form = functools.partial(original, ruleset=ruleset)
        try:
            yield
        finally:
            work.fill_form = original

    @staticmethod
    def _build_category(exc: ValueError) -> str:
        import pydantic

        if isinstance(exc, pydantic.ValidationError) and exc.title == "WorkForm":
            return "title"
        text = str(exc)
        if ": invalid field " in text or re.search(r": field .* must be a mapping, got ", text):
            return "field"
        if _from_module(exc, "/lionagi/work/form.py"):
            # fill_form itself raised (a value's repr fails inside a coercion message).
            return "render"
        return "shape"

    # -- scripts

    @contextmanager
    def _spy(self, asked: list[dict[str, Any]] | None = None) -> Iterator[list[tuple[Any, Any, str, int]]]:
        """Observe ScriptModel.next (which entry, why, at which call index) without changing it;
        the payloads it is asked to serve go to *asked*."""
        model_cls = self._script_module.ScriptModel
        original: Callable[..., Any] = model_cls.next
        log: list[tuple[Any, Any, str, int]] = []

        def spying(model: Any, payload: dict[str, Any], call_index: int) -> Any:
            if asked is not None:
                asked.append(copy.deepcopy(payload))
            entry, why = original(model, payload, call_index)
            log.append((model, entry, why, call_index))
            return entry, why

        model_cls.next = spying
        try:
            yield log
        finally:
            model_cls.next = original

    def script_outcome(self, path: str, transcript: tuple[dict[str, Any] | str, ...]) -> ScriptOutcome:
        from lionagi.testing._endpoint import ScriptedEndpoint

        try:
            endpoint = ScriptedEndpoint(script=path)
        except Exception as exc:
            kind = "parse" if _from_module(exc, "/yaml/", "/json/") else "schema"
            if isinstance(exc, UnicodeDecodeError | OSError):  # not read at all: before any schema
                kind = "parse"
            return ScriptOutcome("rejected", kind)
        # A second endpoint for the stream path, loaded from the file again (not a deep copy
        # of the first script: copying a value nested past the recursion limit raises).
        stream_endpoint = ScriptedEndpoint(script=path)
        script = endpoint.script
        branch = None
        asked: list[dict[str, Any]] = []
        if any(is_chat(item) for item in transcript):
            # The calls a test makes through a real TestBranch: chat items through
            # branch.chat, payloads straight to its endpoint; the stream path replays the
            # payloads the Branch sent.
            from lionagi.protocols.generic.log import DataLoggerConfig
            from lionagi.testing import TestBranch

            branch = TestBranch.from_script(path, log_config=DataLoggerConfig(auto_save_on_exit=False))
            endpoint, script = TestBranch.scripted(branch), TestBranch.scripted(branch).script
        run = self._loop.run_until_complete
        spied = asked if branch is not None else None
        with _without_delays():
            try:
                served, terminal = run(self._serve(endpoint, transcript, stream=False, branch=branch, asked=spied))
            finally:
                if branch is not None:
                    run(branch.chat_model.close())  # its rate limiter's task, on this loop
            replayed = tuple(asked) if branch is not None else transcript
            s_served, s_terminal = run(self._serve(stream_endpoint, replayed, stream=True))
        return ScriptOutcome(
            "accepted",
            mode=script.mode,
            version=script.version,
            entry_types=tuple(e.type for e in script.responses),
            served=served,
            terminal=terminal,
            stream_served=s_served,
            stream_terminal=s_terminal,
            chat_payloads=chat_payloads(transcript, asked),
        )

    async def _serve(
        self,
        endpoint: Any,
        transcript: tuple[dict[str, Any] | str, ...],
        *,
        stream: bool,
        branch: Any = None,
        asked: list[dict[str, Any]] | None = None,
    ) -> tuple[tuple[Served, ...], str | None]:
        from lionagi._errors import ExecutionError
        from lionagi.testing._script import ScriptExhaustedError

        served: list[Served] = []
        with self._spy(asked) as log:
            for payload in transcript:
                if payload == RESET:
                    endpoint.script.reset()
                    continue
                before = len(endpoint.calls)
                chunks: list[Any] = []
                failure: BaseException | None = None
                result: Any = None
                try:
                    if stream:
                        async for chunk in endpoint.stream(dict(payload)):
                            chunks.append(_chunk_dict(chunk))
                    elif branch is not None and is_chat(payload):
                        options = {k: payload[k] for k in CHAT_ARGUMENTS if k in payload}
                        await branch.chat(payload["chat"], **options)
                        result = endpoint.calls[-1].response
                    else:
                        result = await endpoint._call(dict(payload), {})
                except Exception as exc:
                    failure = exc
                    if branch is not None and isinstance(exc, ExecutionError) and exc.__cause__ is not None:
                        failure = exc.__cause__  # the Branch wraps what the endpoint raised
                if len(log) != len(served) + 1:
                    # next() itself raised: nothing was served for this call.
                    if isinstance(failure, ScriptExhaustedError):
                        return tuple(served), "exhausted"
                    if isinstance(failure, re.error):
                        return tuple(served), "invalid_regex"
                    return tuple(served), f"crash:{type(failure).__name__}"
                model, entry, why, call_index = log[-1]
                index = next(i for i, e in enumerate(model.responses) if e is entry)
                kind, value = parse_matched_by(why)
                generated = _has_generated_id(entry)
                recorded = len(endpoint.calls) > before
                if entry.type == "error":
                    if failure is None:
                        return tuple(served), "crash:no-raise"
                    message = getattr(failure, "message", None) or (failure.args[0] if failure.args else "")
                    raises = (
                        "raises",
                        type(failure).__name__,
                        getattr(failure, "status_code", None),
                        message if recorded else "<runtime>",
                    )
                    response: Any = raises
                    if stream:
                        response = (tuple(canon_chunk(c, False) for c in chunks), raises)
                    summary = summarize(None, chunks if stream else None, raises)
                elif failure is not None:
                    return tuple(served), f"crash:{type(failure).__name__}"
                elif stream:
                    response = (tuple(canon_chunk(c, generated) for c in chunks), None)
                    summary = summarize(None, chunks, None)
                else:
                    response = canon(strip_ids(result, generated))
                    summary = summarize(result, None, None)
                encoded = getattr(entry, "data", None) if entry.type == "structured" else None
                if entry.type == "tool_call":
                    encoded = getattr(entry, "arguments", None)
                served.append(Served(call_index, index, kind, value, entry.type, response, summary, encoded))
        return tuple(served), None


class _RunStarts(Exception):
    """Raised in place of ``li agent``'s run: the gate let the prompt through."""

    def __init__(self, prompt: str) -> None:
        super().__init__("the run starts")
        self.prompt = prompt


def _chunk_dict(chunk: Any) -> dict[str, Any]:
    """``dataclasses.asdict(chunk)`` that survives a value containing itself."""
    import copy

    return {f.name: copy.deepcopy(getattr(chunk, f.name)) for f in dataclasses.fields(chunk)}


def dry_run_takes_prompt() -> bool:
    """Whether ``runs.dry_run_text`` takes the prompt (``prompt=``), as issue 12 asks."""
    import inspect

    from formscript.runs import dry_run_text

    return "prompt" in inspect.signature(dry_run_text).parameters


def engines_available() -> list[str]:
    """Names of the engines this environment can run."""
    names = ["formscript", "runs"]
    if lionagi_missing_reason() is None:
        names.append("lionagi")
    return names


def read_text(path: str | Path) -> str:
    """A case file's text as both engines read it (UTF-8, universal newlines)."""
    with open(path, encoding="utf-8") as handle:
        return handle.read()


# ----------------------------------------------------------------------------- Python literals


class PythonLiteralEngine:
    """formscript on the corpus written inside Python test files (issue 16).

    A script's loaded value is written as a literal in ``ScriptModel.model_validate(...)``
    (what ``ScriptModel.from_yaml`` / ``from_json`` do with a file's ``data or {}``), so the
    runtime receives exactly what it receives from the file; a form spec's text is written to
    a file by the test (``write_text`` of a string literal) for ``li agent --form``. The module
    is linted with ``formscript.lint.python_lint`` — nothing is executed — and the document's
    verdict, entries (replayed by the core's Replayer) and gate result make the outcome.

    A value that Python cannot write as a literal (YAML aliases that share a container, types
    without a literal) has no Python file: ``None``. A value written with a run-time part (a
    date is ``datetime.date(...)``) may come back ``insufficient_evidence``.
    """

    name = "python"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def script_source(self, path: str) -> str | None:
        """The Python test module handing the script at *path* to lionagi, or None."""
        import random

        from formscript.core.script import load_script_text

        from .python_literals import _renderable, _shared, _Writer

        try:
            data = load_script_text(read_text(path), path)
        except Exception:
            return None
        value = data or {}
        if not _renderable(value) or _shared(value):
            return None
        writer = _Writer(random.Random(f"{self.seed}:{path}"))
        literal = writer.literal(value, 4)
        lines = ["import datetime", "", "from lionagi.testing import ScriptModel", "", "", "def test_script():"]
        lines.append(f"    script = ScriptModel.model_validate({literal})")
        return "\n".join(lines) + "\n"

    def script_outcome(self, path: str, transcript: tuple[dict[str, Any] | str, ...]) -> ScriptOutcome | None:
        from formscript.lint.python_lint import lint_python

        source = self.script_source(path)
        if source is None:
            return None
        bundle = lint_python(source, path + ".py")
        parts = [p for p in bundle.parts or [] if p.embedded is not None and p.embedded.call.endswith("model_validate")]
        if len(parts) != 1:
            return ScriptOutcome(f"found {len(parts)} documents")
        part = parts[0]
        verdict = part.verdict.value if part.verdict is not None else "none"
        if verdict != "accepted" or part.script is None:
            return ScriptOutcome(verdict, "schema" if verdict == "rejected" else None)
        result = part.script
        entries = [e for e in result.entries if e is not None]
        served, terminal = FormscriptEngine._serve(entries, result.mode, transcript, stream=False)
        s_served, s_terminal = FormscriptEngine._serve(entries, result.mode, transcript, stream=True)
        return ScriptOutcome(
            "accepted",
            mode=result.mode,
            version=result.version,
            entry_types=tuple(e.type for e in entries),
            served=served,
            terminal=terminal,
            stream_served=s_served,
            stream_terminal=s_terminal,
        )

    @staticmethod
    def form_name(path: str) -> str:
        """The name the test writes the spec under: one that says it is a form spec."""
        name = Path(path).name
        stem, dot, suffix = name.rpartition(".")
        if dot and suffix in ("yaml", "yml", "json"):
            return name if stem.endswith(".form") else f"{stem}.form.{suffix}"
        return f"{name}.form.yaml"

    def form_source(self, path: str) -> str | None:
        """The Python test module writing the form spec at *path* to a file, or None."""
        import random

        text = read_text(path)
        if "\r" in text or "\x00" in text:
            return None
        rng = random.Random(f"{self.seed}:{path}")
        name = self.form_name(path)
        if rng.random() < 0.5 or '"""' in text or "\\" in text or text.endswith('"'):
            literal = repr(text)
        else:
            literal = '"""' + text + '"""'
        lines = ["def test_form(tmp_path):", f'    spec = tmp_path / "{name}"', f"    spec.write_text({literal})"]
        return "from lionagi.work import WorkForm\n\n\n" + "\n".join(lines) + "\n"

    def form_outcome(self, path: str) -> FormOutcome | None:
        from formscript.lint.python_lint import lint_python

        source = self.form_source(path)
        if source is None:
            return None
        bundle = lint_python(source, path + ".py")
        parts = [p for p in bundle.parts or [] if p.embedded is not None]
        if len(parts) != 1:
            return FormOutcome(f"found {len(parts)} documents")
        part = parts[0]
        verdict = part.verdict.value if part.verdict is not None else "none"
        result = part.gate
        if result is None:
            return FormOutcome(verdict, "load")
        rejecting = [p for p in result.problems if p.rejects]
        category = None
        if rejecting:
            category = FormscriptEngine.CODE_CATEGORY.get(rejecting[0].code, f"unknown:{rejecting[0].code}")
        if category not in (None, "validation") or result.form is None:
            return FormOutcome(verdict, category)
        form = result.form
        failing = [f.field for f in form.failures if f.source == "field"]
        return FormOutcome(
            verdict,
            category,
            status=form.status,
            title=form.title,
            values=tuple((repr(k), repr(v)) for k, v in form.values.items()),
            failing_fields=frozenset(failing),
            error_fields=tuple(failing),
            context_block=result.context_block,
        )
