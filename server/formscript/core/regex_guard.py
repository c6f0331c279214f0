"""Evaluate user regexes under a time bound: a catastrophic pattern is reported, not waited out.

Python's re cannot be interrupted from another thread, so the search runs in a worker
process that is killed and replaced when it overruns.
"""

from __future__ import annotations

import multiprocessing
import re
from multiprocessing.connection import Connection
from typing import Any

from formscript.core.regex_risk import COMPILE_ERRORS, compile_user_regex

DEFAULT_TIMEOUT = 2.0


class RegexTimeout(RuntimeError):
    """The search did not finish within the bound."""


def _serve(conn: Connection) -> None:
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        pattern, text, flags = request
        try:
            conn.send(("ok", compile_user_regex(pattern, flags).search(text) is not None))
        except re.error as exc:
            conn.send(("re.error", str(exc)))
        except Exception as exc:  # e.g. TypeError for a non-str pattern
            conn.send((type(exc).__name__, str(exc)))


#: Exceptions the worker's search may raise, re-raised under their own type in the caller.
_RERAISED: dict[str, type[Exception]] = {
    error.__name__: error for error in (*COMPILE_ERRORS, MemoryError) if error is not re.error
}


class BoundedSearch:
    """``search(pattern, text)`` with a timeout: raises what ``re.search`` raises for the
    pattern (re.error, and OverflowError, ValueError or RecursionError from compiling it),
    or RegexTimeout. re.DEBUG is masked, so a pattern never prints."""

    #: Compiles the pattern in the caller first (a failure needs no worker).
    _check = staticmethod(compile_user_regex)

    def __init__(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.timeout = timeout
        self._process: Any = None
        self._conn: Connection | None = None
        self._cache: dict[tuple[str, str, int], bool] = {}

    def _start(self) -> Connection:
        if self._conn is None:
            context = multiprocessing.get_context("fork")
            parent, child = context.Pipe()
            process = context.Process(target=_serve, args=(child,), daemon=True)
            process.start()
            child.close()
            self._process, self._conn = process, parent
        return self._conn

    def __call__(self, pattern: str, text: str, flags: int = 0) -> bool:
        key = (pattern, text, flags)
        if key in self._cache:
            return self._cache[key]
        self._check(pattern, flags)  # a pattern that does not compile raises here, cheaply
        conn = self._start()
        conn.send((pattern, text, flags))
        if not conn.poll(self.timeout):
            self.close()
            raise RegexTimeout(f"the regex {pattern!r} ran longer than {self.timeout:g}s")
        status, value = conn.recv()
        if status == "re.error":
            raise re.error(value)
        if status != "ok":
            raise _RERAISED.get(status, RuntimeError)(value)
        self._cache[key] = bool(value)
        return bool(value)

    def close(self) -> None:
        """Stop the worker (a new one starts on the next search)."""
        if self._process is not None:
            self._process.kill()
            self._process.join(timeout=1)
        if self._conn is not None:
            self._conn.close()
        self._process, self._conn = None, None

    def __enter__(self) -> BoundedSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
