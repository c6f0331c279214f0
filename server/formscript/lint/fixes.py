"""Apply fixes as text edits at exact positions, and check the fixed text before it is kept.

Positions map to offsets through ``document.positions.LineIndex`` — the mapping the parser's
positions came from (YAML's line breaks and leading BOM, or Python's). A fixed text is kept
only when ``verify`` finds that it parses as well as before, loads to the values the fixes
promise (each fix says what it changes; nothing else may change, compared without expanding
aliases), keeps every comment and uses no line break the text did not use.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from formscript.document.model import Edit, Pos
from formscript.document.positions import Breaks, LineIndex, line_breaks
from formscript.lint.diagnostics import Change, Diagnostic, Fix
from formscript.lint.report import FileReport, documents


def apply_edits(text: str, edits: Iterable[Edit], breaks: Breaks = "yaml") -> str:
    """*text* with *edits* applied; overlapping edits after the first are dropped."""
    index = LineIndex(text, breaks)
    spans = sorted(
        ((index.offset(e.span.start), index.offset(e.span.end), e.new_text) for e in edits),
        key=lambda item: (item[0], item[1]),
    )
    out: list[str] = []
    cursor = 0
    for start, end, new_text in spans:
        if start < cursor:
            continue  # overlaps an edit already taken; a second pass picks it up
        out.append(text[cursor:start])
        out.append(new_text)
        cursor = max(end, start)
    out.append(text[cursor:])
    return "".join(out)


def applicable(diagnostics: Iterable[Diagnostic], *, unsafe: bool) -> list[Fix]:
    """The fixes ``--fix`` (``--unsafe-fixes``) applies, those whose edits overlap an earlier
    one's left for a later pass; each whole or not at all."""
    chosen: list[Fix] = []
    taken: list[tuple[Pos, Pos]] = []  # sorted, disjoint
    seen: set[tuple[Edit, ...]] = set()
    for diagnostic in sorted(diagnostics, key=lambda d: d.sort_key()):
        fix = diagnostic.fix
        if fix is None or not (fix.safe or unsafe) or fix.edits in seen:
            continue
        spans = [(e.span.start, e.span.end) for e in fix.edits]
        if any(_overlaps(taken, span) for span in spans):
            continue
        seen.add(fix.edits)
        for span in spans:
            bisect.insort(taken, span)
        chosen.append(fix)
    return chosen


def _overlaps(taken: list[tuple[Pos, Pos]], span: tuple[Pos, Pos]) -> bool:
    """Whether *span* overlaps (or starts where starts) a span of the sorted *taken*."""
    at = bisect.bisect_left(taken, span)
    neighbours = taken[max(at - 1, 0) : at + 1]
    return any(start == span[0] or (span[0] < end and start < span[1]) for start, end in neighbours)


def fix_edits(diagnostics: Iterable[Diagnostic], *, unsafe: bool) -> list[Edit]:
    """The edits of every applicable fix."""
    return [edit for fix in applicable(diagnostics, unsafe=unsafe) for edit in fix.edits]


def unified_diff(before: str, after: str, path: str) -> str:
    """A unified diff of a fix."""
    import difflib  # only for --diff

    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=f"a/{path}", tofile=f"b/{path}"
        )
    )


# ------------------------------------------------------------------------------ checking


class Unverifiable(Exception):
    """A fix's change cannot be applied to the value it was made for."""


def expected_value(value: Any, changes: Sequence[Change]) -> Any:
    """*value* after *changes*, copying only the containers on their paths (aliased parts
    stay shared, so nothing is expanded); deeper paths first, so a rename of a key does not
    hide a change below it."""
    for change in sorted(changes, key=lambda c: -len(c.path)):
        value = _changed(value, tuple(change.path), change)
    return value


def _changed(node: Any, path: tuple[Any, ...], change: Change) -> Any:
    if not path:
        if change.op != "set":
            raise Unverifiable("a change of the whole document")
        return change.value
    part, rest = path[0], path[1:]
    if isinstance(node, dict):
        copy: Any = dict(node)
    elif isinstance(node, list) and isinstance(part, int):
        copy = list(node)
    else:
        raise Unverifiable(f"no container at {part!r}")
    try:
        current = node[part]
    except (KeyError, IndexError, TypeError) as exc:
        raise Unverifiable(f"nothing at {part!r}") from exc
    if rest:
        copy[part] = _changed(current, rest, change)
    elif change.op == "set":
        copy[part] = change.value
    elif not isinstance(copy, dict):
        raise Unverifiable("a key change inside a list")
    elif change.op == "remove":
        del copy[part]
    else:
        if change.value in copy:
            raise Unverifiable(f"{change.value!r} is already a key")
        copy = {change.value if key == part else key: item for key, item in copy.items()}
    return copy


def same_value(a: Any, b: Any) -> bool:
    """Whether *a* and *b* are the same loaded value: same types (``1``, ``1.0`` and ``True``
    differ), NaN equal to NaN, shared and recursive parts compared once per pair (an alias
    bomb costs its size as written, not as expanded)."""
    done: set[tuple[int, int]] = set()
    stack = [(a, b)]
    while stack:
        left, right = stack.pop()
        if left is right:
            continue
        if type(left) is not type(right):
            return False
        if isinstance(left, dict | list | tuple):
            pair = (id(left), id(right))
            if pair in done:
                continue
            done.add(pair)
            if len(left) != len(right):
                return False
            if isinstance(left, dict):
                for key, item in left.items():
                    if key not in right:
                        return False
                    stack.append((item, right[key]))
            else:
                stack.extend(zip(left, right, strict=True))
        elif isinstance(left, float):
            if not (left == right or (math.isnan(left) and math.isnan(right))):
                return False
        elif left != right:
            return False
    return True


def verify(before: FileReport, after: FileReport, changes: dict[int, list[Change]], breaks: Breaks) -> str | None:
    """Why *after* (the fixed text, linted) is not *before* with exactly the *changes* (by
    document: the index in ``documents``), or None when it is."""
    old_docs, new_docs = documents(before), documents(after)
    if len(old_docs) != len(new_docs):
        return f"the fixed text holds {len(new_docs)} documents instead of {len(old_docs)}"
    for number, (old, new) in enumerate(zip(old_docs, new_docs, strict=True)):
        if old.document is None or new.document is None:
            return "the fixed text was not read"
        if new.document.ok is not old.document.ok or new.kind != old.kind:
            return "the fixed text does not load as the original did"
        problems = sorted(p.code for p in new.document.problems)
        if problems != sorted(p.code for p in old.document.problems) and problems:
            return "the fixed text has parse problems the original did not"
        try:
            wanted = expected_value(old.document.value, changes.get(number, []))
        except Unverifiable as exc:
            return f"a fix does not apply to the value it was made for ({exc})"
        if not same_value(wanted, new.document.value):
            return "the fixed text does not load to the expected values"
    old_text, new_text = before.document.text if before.document else "", after.document.text if after.document else ""
    old_comments = [c.text for r in old_docs if r.document is not None for c in r.document.comments()]
    new_comments = [c.text for r in new_docs if r.document is not None for c in r.document.comments()]
    if before.parts is not None:
        from formscript.document.pyliteral import SourceLines
        from formscript.document.python import python_comments

        old_comments += [c.text for c in python_comments(SourceLines(old_text))]
        new_comments += [c.text for c in python_comments(SourceLines(new_text))]
    if sorted(old_comments) != sorted(new_comments):
        return "the fixed text would lose or change a comment"
    if not set(line_breaks(new_text, breaks)) <= set(line_breaks(old_text, breaks)):
        return "the fixed text would mix line-break styles"
    return None


def changes_by_document(report: FileReport, fixes: Sequence[Fix]) -> dict[int, list[Change]] | None:
    """The *fixes*' changes by document of *report* (see ``documents``); None when a fix says
    nothing of what it changes or belongs to none of its documents."""
    wanted = {id(f): f for f in fixes}
    found: dict[int, list[Change]] = {}
    for number, part in enumerate(documents(report)):
        for diagnostic in part.diagnostics:
            fix = diagnostic.fix
            if fix is not None and id(fix) in wanted:
                if fix.change is None:
                    return None
                found.setdefault(number, []).append(fix.change)
                del wanted[id(fix)]
    return found if not wanted else None


def checked(
    report: FileReport,
    text: str,
    fixes: Sequence[Fix],
    relint: Callable[[str], FileReport],
    breaks: Breaks,
    changes: dict[int, list[Change]] | None = None,
) -> tuple[str, FileReport] | str:
    """*text* (linted as *report*) with *fixes* applied, and its report from *relint*, when
    the result passes ``verify``; else why not. *changes* (by document) default to the
    fixes' own, found among *report*'s diagnostics."""
    if changes is None:
        changes = changes_by_document(report, fixes)
    if changes is None:
        return "the fix does not say what it changes"
    candidate = apply_edits(text, [e for f in fixes for e in f.edits], breaks)
    if candidate == text:
        return "the fix changes nothing"
    after = relint(candidate)
    reason = verify(report, after, changes, breaks)
    return reason if reason is not None else (candidate, after)
