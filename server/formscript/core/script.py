"""Loading, checking and replaying response scripts with the runtime's semantics (ADR D4)."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from formscript import rules
from formscript.core.ends import common_ends, identical
from formscript.core.entries import (
    CHUNK_KEYS,
    ENTRY_KEYS,
    MATCHER_KEYS,
    MODES,
    RESPONSE_TYPES,
    Entry,
    from_model,
    plain_entry,
)
from formscript.core.suggest import closest
from formscript.core.verdict import Problem, Verdict, reason_of, verdict_from

SCRIPT_KEYS: tuple[str, ...] = ("version", "mode", "responses")


def loads_as_yaml(path: str) -> bool:
    """Whether the runtime reads *path* through YAML (by suffix) rather than json.load."""
    from formscript.core.names import suffix

    return suffix(path) in (".yaml", ".yml")


def load_script_text(text: str, path: str) -> Any:
    """Load script text as the runtime does for *path*; raises on a parse error."""
    if loads_as_yaml(path):
        import yaml

        return yaml.safe_load(text)
    return json.loads(text)


@dataclass
class ScriptResult:
    """The runtime's verdict on a script, with every problem and the entries that built."""

    verdict: Verdict
    problems: list[Problem]
    mode: str = "auto"
    version: int = 1
    #: One slot per raw entry: the built entry, or None where the entry is invalid.
    entries: list[Entry | None] = dataclasses.field(default_factory=list)


@dataclass
class EntryMemo:
    """What building a script's entries found, kept by an incremental caller across versions
    of one text.

    ``built``: the entries that built without a problem (they do not depend on their place),
    by the identity of their raw mapping (kept beside it, so the identity cannot be reused).
    ``raws``, ``entries`` and ``problems``: the previous call's raw entries, what each built
    to and each index's problems (only the indices with some); the raw entries the next call
    shares with them at its start and its end (the same objects: ``core.ends.identical``)
    keep their entries without a look-up each, and their problems where they keep their index."""

    built: dict[int, tuple[Any, Entry]] = dataclasses.field(default_factory=dict)
    raws: list[Any] = dataclasses.field(default_factory=list)
    entries: list[Entry | None] = dataclasses.field(default_factory=list)
    problems: dict[int, list[Problem]] = dataclasses.field(default_factory=dict)


def check_script(data: Any, memo: EntryMemo | None = None) -> ScriptResult:
    """Predict whether the runtime's ScriptModel accepts loaded *data*, reporting all faults.

    *memo* holds entries built before (an entry that built without a problem does not
    depend on its place, so the same raw mapping builds the same entry)."""
    if not data:
        data = {}
    problems: list[Problem] = []
    if not isinstance(data, dict):
        problems.append(rules.SC001.not_a_mapping(found=data))
        return ScriptResult(Verdict.REJECTED, problems)

    for key in data:
        if key not in SCRIPT_KEYS:
            problems.append(rules.SC001.unknown_key(path=(key,), key=key, suggestion=closest(key, SCRIPT_KEYS, data)))
    mode, version = "auto", 1
    given_version, given_mode = data.get("version", 1), data.get("mode", "auto")
    if type(given_version) is int and type(given_mode) is str and given_mode in MODES:
        mode, version = given_mode, given_version
    else:
        header = _check_header(data, problems)
        if header is not None:  # pydantic's lax int: the runtime stores version "2" as 2
            mode, version = header
        else:
            mode = given_mode if isinstance(given_mode, str) and given_mode in MODES else "auto"
            if type(given_version) is int:
                version = given_version

    entries: list[Entry | None] = []
    raw_entries = data.get("responses", [])
    if isinstance(raw_entries, set | frozenset | tuple):
        # The runtime's list field is lax: a set or tuple (YAML !!set) is taken as a list.
        raw_entries = list(raw_entries)
    if not isinstance(raw_entries, list):
        problems.append(rules.SC019.problem(path=("responses",), found=raw_entries))
    elif memo is None:
        entries = [_build_entry(index, raw, problems) for index, raw in enumerate(raw_entries)]
    else:
        entries = _spliced_entries(raw_entries, memo, problems)
    return ScriptResult(verdict_from(problems), problems, mode=str(mode), version=version, entries=entries)


def _spliced_entries(raws: list[Any], memo: EntryMemo, problems: list[Problem]) -> list[Entry | None]:
    """The entries of *raws* (their problems added to *problems*, in index order), as
    ``_build_entry`` gives them: the raw entries shared with the previous call's at the start
    and the end keep what they built to (an entry's problems name its index: those of a
    shifted one are made again), the others are found in ``memo.built`` or built."""
    prefix, suffix = common_ends(memo.raws, raws, identical)
    stop_old, stop_new = len(memo.raws) - suffix, len(raws) - suffix
    shift = stop_new - stop_old
    placed = {index: found for index, found in memo.problems.items() if index < prefix}
    entries = memo.entries[:prefix]
    built = memo.built
    for index in range(prefix, stop_new):
        raw = raws[index]
        known = built.get(id(raw))
        if known is not None and known[0] is raw:
            entries.append(known[1])
            continue
        own: list[Problem] = []
        entry = _build_entry(index, raw, own)
        if own:
            placed[index] = own
        elif entry is not None:
            built[id(raw)] = (raw, entry)
        entries.append(entry)
    entries += memo.entries[stop_old:]
    for index, found in memo.problems.items():
        if index >= stop_old:
            moved = index + shift
            if shift:
                found = []
                entries[moved] = _build_entry(moved, raws[moved], found)
            placed[moved] = found
    for index in sorted(placed):
        problems.extend(placed[index])
    memo.raws, memo.entries, memo.problems = list(raws), list(entries), placed
    return entries


def _check_header(data: dict[Any, Any], problems: list[Problem]) -> tuple[str, int] | None:
    """version and mode as the pydantic model reads them (lax coercions; core/lax.py where
    its answer is certain): the mode and version the runtime reads, or None after reporting
    what fails."""
    from formscript.core.lax import header_errors

    header_input = {k: v for k, v in data.items() if k in ("version", "mode")}
    errors: list[Any] | None = header_errors(header_input)
    if errors == []:
        return str(header_input.get("mode", "auto")), int(header_input.get("version", 1))
    if errors is None:
        from pydantic import ValidationError

        from formscript.core.script_models import ScriptHeader

        try:
            header = ScriptHeader.model_validate(header_input).model_dump()
            return header["mode"], header["version"]
        except ValidationError as exc:
            errors = exc.errors()
    for error in errors:
        key = error["loc"][0]
        value = data.get(key)
        if key == "mode":
            problems.append(rules.SC006.problem(path=("mode",), given=value, suggestion=closest(value, MODES)))
        else:
            problems.append(rules.SC007.problem(path=("version",), given=value))
    return None


def _build_entry(index: int, raw: Any, problems: list[Problem]) -> Entry | None:
    where = ("responses", index)
    if not isinstance(raw, dict):
        problems.append(rules.SC018.problem(path=where, index=index, found=raw))
        return None
    fast = plain_entry(raw)
    if fast is not None:
        return fast
    response_type = raw.get("type")
    try:
        known = response_type in ENTRY_KEYS
    except TypeError:
        known = False
    if not known:
        if "type" not in raw:
            problems.append(rules.SC002.missing(path=where, index=index, types=RESPONSE_TYPES))
        else:
            problems.append(
                rules.SC002.unknown(
                    path=(*where, "type"),
                    index=index,
                    given=response_type,
                    types=RESPONSE_TYPES,
                    suggestion=closest(response_type, RESPONSE_TYPES),
                )
            )
        return None
    from formscript.core.lax import entry_errors

    errors: list[Any] | None = entry_errors(raw, str(response_type))
    if errors is None:
        from pydantic import ValidationError

        from formscript.core.script_models import ENTRY_MODELS

        try:
            return from_model(ENTRY_MODELS[str(response_type)].model_validate(raw))
        except ValidationError as exc:
            errors = exc.errors()
    for error in errors:
        problems.append(_entry_error(index, str(response_type), raw, error))
    return None


def _keys_at(raw: Any, loc: tuple[Any, ...]) -> dict[Any, Any] | tuple[()]:
    """The mapping at *loc* in *raw* (its keys are the ones taken), or nothing."""
    for part in loc:
        if isinstance(raw, dict):
            raw = raw.get(part)
        elif isinstance(raw, list) and isinstance(part, int) and 0 <= part < len(raw):
            raw = raw[part]
        else:
            return ()
    return raw if isinstance(raw, dict) else ()


def _entry_error(index: int, response_type: str, raw: dict[Any, Any], error: Any) -> Problem:
    loc = tuple(error["loc"])
    path = ("responses", index, *loc)
    leaf = loc[-1] if loc else None
    owner = _owner_keys(response_type, loc)
    if error["type"] == "extra_forbidden":
        return rules.SC003.problem(
            path=path,
            index=index,
            response_type=response_type,
            key=leaf,
            owner=owner[0],
            allowed=owner[1],
            suggestion=closest(leaf, owner[1], _keys_at(raw, loc[:-1])),
        )
    if error["type"] == "missing":
        within = ".".join(map(str, loc[:-1]))
        return rules.SC004.problem(path=path[:-1], index=index, response_type=response_type, key=leaf, within=within)
    return rules.SC005.problem(
        path=path,
        index=index,
        response_type=response_type,
        where=".".join(map(str, loc)),
        value=value_at(raw, loc),
        reason=reason_of(str(error.get("msg", "invalid"))),
    )


def _owner_keys(response_type: str, loc: tuple[Any, ...]) -> tuple[str, tuple[str, ...]]:
    if len(loc) >= 2 and loc[0] == "when":
        return "when", MATCHER_KEYS
    if len(loc) >= 3 and loc[0] == "chunks":
        return "a stream chunk", CHUNK_KEYS
    return "the entry", ENTRY_KEYS[response_type]


def value_at(value: Any, path: tuple[Any, ...]) -> Any:
    """The value at *path* in the loaded *value*, or None where there is none."""
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


# ---------------------------------------------------------------- replay


class ScriptExhausted(RuntimeError):
    """No entry can serve the call; the runtime raises its ScriptExhaustedError."""


class RegexFailure(RuntimeError):
    """A prompt_regex of entry *entry* could not be evaluated (it does not compile)."""

    def __init__(self, entry: int, reason: str) -> None:
        self.entry = entry
        super().__init__(reason)


@dataclass(frozen=True, slots=True)
class Match:
    """Which entry serves a call and why."""

    entry: int
    #: positional | prompt_contains | prompt_regex | has_tool | call_index | after_calls
    kind: str
    value: Any = None


Searcher = Callable[[str, str], bool]


def _plain_search(pattern: str, text: str) -> bool:
    """``re.search(pattern, text)`` as the runtime calls it (raising what it raises), silently."""
    from formscript.core.regex_risk import compile_user_regex

    return compile_user_regex(pattern).search(text) is not None


def last_user_message(payload: dict[str, Any]) -> str | None:
    """The text the matchers see: the last user message, else the payload's ``input``."""
    for message in reversed(payload.get("messages") or []):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                joined = "".join(p.get("text", "") for p in content if isinstance(p, dict))
                return joined or None
    given = payload.get("input")
    return given if isinstance(given, str) else None


def tool_names(payload: dict[str, Any]) -> list[Any]:
    """Tool names offered in *payload* (``function.name``, else ``name``)."""
    return [
        (tool.get("function") or {}).get("name") or tool.get("name")
        for tool in payload.get("tools") or []
        if isinstance(tool, dict)
    ]


class Replayer:
    """Serves calls from a script's entries exactly as the runtime's ScriptModel.next does."""

    def __init__(
        self,
        entries: list[Entry],
        mode: str = "auto",
        *,
        search: Searcher = _plain_search,
    ) -> None:
        self.entries = entries
        self.mode = mode
        self.search = search
        self.cursor = 0
        self.served_conditional: list[int] = []

    def reset(self) -> None:
        """Back to the first call: cursor and served conditional entries cleared."""
        self.cursor = 0
        self.served_conditional = []

    def next(self, payload: dict[str, Any], call_index: int) -> Match:
        """The entry serving this call; ScriptExhausted or RegexFailure as the runtime raises."""
        for index in self.candidates():
            found = self.matches(index, payload, call_index)
            if found is not None:
                self.served_conditional.append(index)
                return found
        if self.mode == "when_only":
            raise ScriptExhausted(
                f"no when: matcher matches call {call_index} (last user message {last_user_message(payload)!r})"
            )
        while self.cursor < len(self.entries):
            index = self.cursor
            self.cursor += 1
            if self.entries[index].conditional:
                continue
            return Match(index, "positional")
        available = sum(1 for e in self.entries if not e.conditional)
        raise ScriptExhausted(
            f"script exhausted at call {call_index}: {available} positional entries "
            f"(last user message {last_user_message(payload)!r})"
        )

    def candidates(self) -> list[int]:
        """The conditional entries the next call may still match, in the order they are tried."""
        if self.mode == "positional":
            return []
        return [
            index
            for index, entry in enumerate(self.entries)
            if entry.when is not None and not entry.when.is_empty() and index not in self.served_conditional
        ]

    def matches(self, index: int, payload: dict[str, Any], call_index: int) -> Match | None:
        """How entry *index*'s matcher matches *payload* at *call_index*, or None (the state is
        left as it is; RegexFailure as ``next`` raises it)."""
        when = self.entries[index].when
        if when is None:
            return None
        if when.call_index is not None and call_index != when.call_index:
            return None
        if when.after_calls is not None and call_index < when.after_calls:
            return None
        text = last_user_message(payload) or ""
        if when.prompt_contains is not None:
            if when.prompt_contains.lower() in text.lower():
                return Match(index, "prompt_contains", when.prompt_contains)
            return None
        if when.prompt_regex is not None:
            # re.error is the runtime's invalid-regex failure; anything else compiling the
            # pattern raises (OverflowError, ValueError, RecursionError) propagates as the
            # runtime's own exception would.
            try:
                hit = self.search(when.prompt_regex, text)
            except re.error as exc:
                raise RegexFailure(index, f"invalid prompt_regex: {exc}") from exc
            return Match(index, "prompt_regex", when.prompt_regex) if hit else None
        if when.has_tool is not None:
            if when.has_tool in tool_names(payload):
                return Match(index, "has_tool", when.has_tool)
            return None
        if when.call_index is not None:
            return Match(index, "call_index", _written(when.call_index))
        if when.after_calls is not None:
            return Match(index, "after_calls", _written(when.after_calls))
        return None


def _written(value: int) -> int:
    """*value*, once written in decimal as the runtime writes its match reason
    (``when:after_calls:<n>``): for an int too long for decimal that raises ValueError."""
    str(value)
    return value


__all__ = [
    "Match",
    "RegexFailure",
    "Replayer",
    "ScriptExhausted",
    "ScriptResult",
    "check_script",
    "last_user_message",
    "load_script_text",
    "tool_names",
]
