"""Script checks beyond the runtime's verdict: matcher conflicts, regex faults, unreachable
entries, stream shape and serving faults. Light on purpose: no model machinery is imported."""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, TypeAlias

from formscript import rules
from formscript.core.ends import common_ends, identical
from formscript.core.entries import CONTENT_PREDICATES, Entry, Matcher, StreamEntry
from formscript.core.expansion import EXPANSION_LIMIT, SERVABLE_CHARACTERS, Exhausts, encoded_length, json_error
from formscript.core.regex_risk import COMPILE_ERRORS, backtracking_risk, compile_user_regex
from formscript.core.script import EntryMemo, ScriptResult, value_at
from formscript.core.verdict import Problem
from formscript.document import Document


def misread_strings(doc: Document, problems: list[Problem]) -> list[Problem]:
    """*problems* with each invalid-entry-value finding that refuses a plain scalar YAML 1.1
    reads as a boolean, number, timestamp or null where a string is wanted said as such, with
    a fix that quotes it."""
    from formscript.lint.form_checks import string_surprise

    shown = []
    for problem in problems:
        reading, scalar = None, None
        if problem.rule is rules.SC005 and "valid string" in problem.message and len(problem.path) >= 3:
            entry = doc.entry(problem.path)
            scalar = entry.scalar if entry is not None else None
            if scalar is not None and scalar.style == "":
                reading = string_surprise(scalar.text, scalar.tag, value_at(doc.value, problem.path))
        if reading is None or scalar is None:
            shown.append(problem)
            continue
        index = problem.path[1]
        raw = value_at(doc.value, problem.path[:2])
        shown.append(
            rules.SC005.misread(
                path=problem.path,
                index=index if isinstance(index, int) else 0,
                response_type=str(raw.get("type")) if isinstance(raw, dict) else "?",
                where=".".join(map(str, problem.path[2:])),
                reading=reading,
                text=scalar.text,
            )
        )
    return shown


#: What encoding each entry's payload raises, by the entry's identity (kept beside it).
PayloadMemo = dict[int, tuple[object, Exception | None]]


@dataclass
class ScriptMemo:
    """What checking a script's entries found, kept across versions of its text."""

    entries: EntryMemo = dataclasses.field(default_factory=EntryMemo)
    payloads: PayloadMemo = dataclasses.field(default_factory=dict)
    #: Each entry's own findings, by its identity: (entry, index, mode, items); the index is
    #: -1 where the items are only markers, which hold for the entry at any place.
    checks: dict[int, tuple[object, int, str, Items]] = dataclasses.field(default_factory=dict)
    #: The previous call's entries and mode, and the items of those of its entries that have
    #: any, in order: (index, items). The entries the next call shares with them at its start
    #: and its end (the same objects) keep their items without a look-up each.
    last_entries: list[object] = dataclasses.field(default_factory=list)
    last_mode: str = ""
    last_items: list[tuple[int, Items]] = dataclasses.field(default_factory=list)

    def keep_only(self, raws: Sequence[object], built: Sequence[object]) -> None:
        """Forget what the entries no longer in the text left (*raws* and their *built*)."""
        entries, payloads = self.entries.built, self.payloads
        self.entries.built = {id(r): entries[id(r)] for r in raws if id(r) in entries}
        self.payloads = {id(b): payloads[id(b)] for b in built if id(b) in payloads}
        checks = self.checks
        self.checks = {id(b): checks[id(b)] for b in built if id(b) in checks}


def script_checks(doc: Document, result: ScriptResult, memo: ScriptMemo | None = None) -> list[Problem]:
    """Matcher conflicts, regex faults, unreachable entries, stream shape and serving faults
    (*memo*: what each entry's own checks found before, for an incremental caller)."""
    data = doc.value if isinstance(doc.value, dict) else {}
    raw_entries = data.get("responses")
    found: list[Problem] = []
    if result.verdict.value == "accepted" and not result.entries:
        found.append(rules.SC016.problem(path=("responses",) if "responses" in data else ()))
    tool_ids: dict[str, int] = {}
    gate_only_calls: dict[int, int] = {}
    unshared = getattr(doc, "unshared", False) is True  # loaded without aliases
    for index, items in _spliced_items(result, raw_entries, memo or ScriptMemo(), unshared):
        for item in items:
            if not isinstance(item, tuple):
                found.append(item)
                continue
            what, value = item  # what this entry's findings depend on in the entries before it
            if what == "taken":
                if value in gate_only_calls:
                    where = ("responses", index, "when", "call_index")
                    taken = gate_only_calls[value]
                    found.append(rules.SC011.call_taken(path=where, index=index, taken_by=taken, call=value))
            elif what == "gate":
                gate_only_calls.setdefault(value, index)
            elif value in tool_ids:
                first = tool_ids[value]
                found.append(
                    rules.SC015.problem(path=("responses", index, "id"), index=index, call_id=value, first=first)
                )
            else:
                tool_ids[value] = index
    return found


def _spliced_items(
    result: ScriptResult, raw_entries: object, memo: ScriptMemo, unshared: bool
) -> list[tuple[int, Items]]:
    """(index, items) of each entry with any items, in order: the entries shared with the
    previous call's at the start and the end (the same objects, in the same mode) keep their
    items (a shifted entry's findings name its index: those are made again); the others' are
    found in ``memo.checks`` or made."""
    entries, mode = result.entries, result.mode
    raws = raw_entries if isinstance(raw_entries, list) else None
    old = memo.last_entries if memo.last_mode == mode else []
    prefix, suffix = common_ends(old, entries, identical)
    stop_old, stop_new = len(old) - suffix, len(entries) - suffix
    shift = stop_new - stop_old
    kept = memo.last_items if old else []
    listed = kept[: bisect.bisect_left(kept, prefix, key=itemgetter(0))]
    for index in range(prefix, stop_new):
        entry = entries[index]
        if entry is not None:
            items = _items_of(index, entry, raws, mode, memo, unshared)
            if items:
                listed.append((index, items))
    for index, items in kept[bisect.bisect_left(kept, stop_old, key=itemgetter(0)) :]:
        moved = index + shift
        if shift:  # the same items unless they name the index (``_items_of`` knows)
            entry = entries[moved]
            assert entry is not None
            items = _items_of(moved, entry, raws, mode, memo, unshared)
        listed.append((moved, items))
    memo.last_entries, memo.last_mode, memo.last_items = list(entries), mode, listed
    return listed


def _items_of(index: int, entry: Entry, raws: list[Any] | None, mode: str, memo: ScriptMemo, unshared: bool) -> Items:
    """*entry*'s items at *index*: kept in ``memo.checks`` while they hold (the same entry, in
    the same mode, at the same index unless they are only markers), else made and kept."""
    known = memo.checks.get(id(entry))
    # an entry's markers hold no index: only its own findings tie it to its place
    if known is not None and known[0] is entry and known[2] == mode and (known[1] == index or known[1] < 0):
        return known[3]
    items = _entry_items(index, entry, raws[index] if raws else {}, mode, memo.payloads, unshared)
    placed = any(not isinstance(item, tuple) for item in items)
    memo.checks[id(entry)] = (entry, index if placed else -1, mode, items)
    return items


#: One entry's own findings, and markers ("taken", call), ("gate", call), ("id", call id)
#: where the findings depend on the entries before it (replayed in order by script_checks).
Items: TypeAlias = "list[Problem | tuple[str, Any]]"


def _entry_items(index: int, entry: Entry, raw: object, mode: str, memo: PayloadMemo, unshared: bool) -> Items:
    """One entry's findings and markers (*unshared*: its document's values share nothing)."""
    where = ("responses", index)
    found: Items = []
    if isinstance(raw, dict) and raw.get("when") == {}:
        found.append(rules.SC012.problem(path=(*where, "when"), index=index))
    when = entry.when
    if when is not None and not when.is_empty():
        found.extend(_matcher_checks(index, when, mode))
    elif mode == "when_only":
        found.append(rules.SC011.unconditional_in_when_only(path=where, index=index))
    if entry.type == "stream":
        found.extend(_stream_checks(index, entry))
    if entry.type == "tool_call" and entry.id is not None:
        found.append(("id", entry.id))
    payload = None
    if entry.type == "structured":
        payload = ("data", entry.data)
    elif entry.type == "tool_call":
        payload = ("arguments", entry.arguments)
    error = None
    if payload is not None:
        known = memo.get(id(entry))
        if known is not None and known[0] is entry:
            error = known[1]
        else:
            error = json_error(payload[1], unshared=unshared)
            memo[id(entry)] = (entry, error)
    if payload is not None and isinstance(error, Exhausts):
        length = encoded_length(payload[1])
        at = (*where, payload[0])
        if length is not None and length <= SERVABLE_CHARACTERS:
            found.append(rules.SC021.served(path=at, index=index, what=payload[0], length=length))
        else:
            found.append(rules.SC021.problem(path=at, index=index, what=payload[0], limit=EXPANSION_LIMIT))
    elif payload is not None and error is not None:
        found.append(rules.SC020.problem(path=(*where, payload[0]), index=index, what=payload[0], error=error))
    if entry.type == "error" and entry.delay_ms < 0:
        found.append(rules.SC022.problem(path=(*where, "delay_ms"), index=index, delay=entry.delay_ms))
    return found


@lru_cache(maxsize=4096)
def _regex_findings(pattern: str) -> tuple[Exception | None, str | None]:
    """Why *pattern* does not compile, or how it may backtrack (None, None: neither), once
    per pattern (a script repeats its patterns; an edit re-checks them all)."""
    try:
        compile_user_regex(pattern)
    except COMPILE_ERRORS as exc:
        return exc.with_traceback(None), None  # cached: no frames kept alive with it
    return None, backtracking_risk(pattern)


def _matcher_checks(index: int, when: Matcher, mode: str) -> Items:
    where = ("responses", index, "when")
    found: Items = []
    if mode == "positional":
        found.append(rules.SC011.conditional_in_positional(path=where, index=index))
        return found
    configured = [name for name in CONTENT_PREDICATES if getattr(when, name) is not None]
    if len(configured) > 1:
        found.append(rules.SC008.problem(path=(*where, configured[1]), index=index, configured=configured))
    if configured and configured[0] == "prompt_regex" and when.prompt_regex is not None:
        error, risk = _regex_findings(when.prompt_regex)
        if error is not None:
            found.append(rules.SC009.problem(path=(*where, "prompt_regex"), pattern=when.prompt_regex, error=error))
        elif risk:
            found.append(rules.SC010.problem(path=(*where, "prompt_regex"), pattern=when.prompt_regex, risk=risk))
    call, after = when.call_index, when.after_calls
    if call is not None and call < 0:
        found.append(rules.SC011.negative_call_index(path=(*where, "call_index"), index=index, call=call))
    elif call is not None and after is not None and call < after:
        found.append(rules.SC011.call_before_after(path=(*where, "call_index"), index=index, call=call, after=after))
    elif call is not None:
        found.append(("taken", call))  # SC011 when an entry before serves that call by its gate alone
    if after is not None and after < 0:
        found.append(rules.SC023.problem(path=(*where, "after_calls"), index=index, after=after))
    if call is not None and not configured and (after is None or after <= call) and call >= 0:
        found.append(("gate", call))
    return found


def _stream_checks(index: int, entry: StreamEntry) -> list[Problem]:
    where = ("responses", index, "chunks")
    found: list[Problem] = []
    terminal = [i for i, c in enumerate(entry.chunks) if c.type in ("result", "error")]
    last = len(entry.chunks) - 1
    if not terminal or terminal[-1] != last:
        found.append(rules.SC013.no_terminal_last(path=where, index=index))
    for position in terminal:
        if position != last:
            found.append(
                rules.SC013.early_terminal(
                    path=(*where, position), index=index, chunk_type=entry.chunks[position].type, position=position
                )
            )
    for position, chunk in enumerate(entry.chunks):
        if chunk.type == "tool_use" and not chunk.tool_name:
            found.append(rules.SC014.problem(path=(*where, position), index=index, position=position))
    return found
