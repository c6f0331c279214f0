"""Static detection of regexes prone to catastrophic backtracking (nested quantifiers)."""

from __future__ import annotations

import re
import warnings
from re import _parser as sre_parse  # type: ignore[attr-defined]  # the 3.11+ regex parser
from typing import Any

_REPEATS = {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}


#: re.DEBUG as a plain int (``~re.DEBUG`` on the flag enum would also clear unknown bits).
_DEBUG = int(re.DEBUG)

#: What compiling a user's pattern can raise besides re.error: OverflowError for a repeat
#: count or flags past C's int, ValueError for incompatible flags, RecursionError for groups
#: nested past the recursion limit, TypeError for a pattern that is not a string.
COMPILE_ERRORS: tuple[type[Exception], ...] = (re.error, OverflowError, ValueError, RecursionError, TypeError)


def quiet_flags(flags: int) -> int:
    """*flags* without re.DEBUG, which makes re print the parsed pattern to stdout; nothing
    else about compiling or matching changes."""
    return flags & ~_DEBUG


def compile_user_regex(pattern: Any, flags: int = 0) -> re.Pattern[Any]:
    """re.compile for a pattern from a file, as the runtime compiles it, but silent: re's
    FutureWarnings about the user's syntax stay off the terminal (the pattern's faults are
    reported as diagnostics) and re.DEBUG's dump never reaches our output."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return re.compile(pattern, quiet_flags(flags))


def backtracking_risk(pattern: str, flags: int = 0) -> str | None:
    """A short reason when *pattern* nests an unbounded quantifier inside another one."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = sre_parse.parse(pattern, quiet_flags(flags))
    except COMPILE_ERRORS:
        return None
    return _scan(list(parsed), inside_repeat=False)


def _scan(items: list[tuple[Any, Any]], *, inside_repeat: bool) -> str | None:
    for op, arg in items:
        name = str(op)
        if name in _REPEATS:
            _low, high, body = arg
            unbounded = high == sre_parse.MAXREPEAT or high > 10
            if name != "POSSESSIVE_REPEAT" and unbounded and inside_repeat:
                return "a quantified group contains another unbounded quantifier"
            found = _scan(list(body), inside_repeat=inside_repeat or (unbounded and name != "POSSESSIVE_REPEAT"))
            if found:
                return found
            if unbounded and _overlapping_branches(list(body)):
                return "a repeated alternation has branches that can match the same text"
        elif name in ("SUBPATTERN", "BRANCH", "ASSERT", "ASSERT_NOT"):
            # a group's or a lookaround's pattern is its argument's last item; a branch has several
            for inner in arg[1] if name == "BRANCH" else (arg[-1],):
                found = _scan(list(inner), inside_repeat=inside_repeat)
                if found:
                    return found
    return None


def _overlapping_branches(body: list[tuple[Any, Any]]) -> bool:
    """(a|a)* and (a|ab)*: alternation branches starting with the same literal."""
    for op, arg in body:
        name = str(op)
        if name == "SUBPATTERN":
            return _overlapping_branches(list(arg[-1]))
        if name == "BRANCH":
            firsts = []
            for branch in arg[1]:
                items = list(branch)
                if items and str(items[0][0]) == "LITERAL":
                    firsts.append(items[0][1])
            return len(firsts) != len(set(firsts))
    return False
