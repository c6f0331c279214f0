"""Evaluate user regexes under a time bound: a catastrophic pattern is reported, not waited out.

Python's re cannot be interrupted from another thread, so the search runs in a worker
process that is killed and replaced when it overruns. Workers are fresh interpreters
(``_spawn``), never forks: a fork copies the locks other threads hold at that moment — the
language server's stdin reader holds one while it waits for input — and a child that needs
one hangs (every search in the server timed out). A worker costs about 0.1 s to start, once
per process and again after each timeout.

An overrun says only that the runtime, which runs the same ``re.search`` without a bound,
takes at least that long. How much longer is estimated (``estimate``): a fresh worker times
the search on shorter texts of the same shape (the text's head and tail: every length from
4 to 63 characters, then steps up to 80% of the full length) for about the bound again, in
CPU time (so a busy machine does not inflate it); a power law fitted to the longest probes
(down to a quarter of the longest) is extrapolated to the full length. A quadratic pattern
gives a time the runtime reaches after seconds or minutes, a pattern whose time explodes
(catastrophic backtracking) one it never reaches in practice. A timeout costs about twice
the bound (three times at most). The estimate is a measurement of this machine: it varies
from run to run and is rounded to two digits.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from formscript.core.regex_risk import COMPILE_ERRORS, compile_user_regex

DEFAULT_TIMEOUT = 2.0
#: Probes quicker than this (CPU seconds) are too quick to time reliably.
_NOISE_SECONDS = 0.0005
#: Past this growth exponent the time explodes: catastrophic backtracking (a polynomial
#: pattern is rarely worse than cubic, and timing noise on a busy machine adds about one).
_EXPLOSIVE = 5.0
#: Each probe's length is this fraction of the next one's (the last is this fraction of the text).
_STEP = 0.8


@dataclass(frozen=True)
class Estimate:
    """How long the unbounded search is expected to take, from shorter texts of one shape."""

    seconds: float
    #: The exponent k of time ~ length**k over the longest probes that finished.
    growth: float

    @property
    def explosive(self) -> bool:
        """Whether the time grows faster than any small power (catastrophic backtracking)."""
        return self.growth > _EXPLOSIVE


class RegexTimeout(RuntimeError):
    """The search did not finish within the bound; ``estimate`` (None when the growth could
    not be measured) says how long the runtime is expected to take."""

    def __init__(self, pattern: str, bound: float, estimate: Estimate | None = None) -> None:
        self.pattern, self.bound, self.estimate = pattern, bound, estimate
        super().__init__(self.describe())

    def __reduce__(self) -> tuple[Any, ...]:
        return (RegexTimeout, (self.pattern, self.bound, self.estimate))

    def describe(self) -> str:
        """What is known, in words."""
        head = f"the regex {self.pattern!r} ran longer than the {self.bound:g}s bound"
        found = self.estimate
        if found is None:
            return f"{head}; the runtime takes at least that long (its growth could not be measured)"
        shorter = "on shorter prompts of the same shape its time"
        if found.explosive:
            return (
                f"{head}; {shorter} explodes with the length (catastrophic backtracking): the "
                "runtime is not expected to answer in practice (a power law through the "
                f"measurements already gives {duration(found.seconds)})"
            )
        return (
            f"{head}; {shorter} grows like length^{found.growth:.1f}: the runtime is expected to "
            f"answer after about {duration(found.seconds)}"
        )

    def as_json(self) -> dict[str, Any]:
        """The facts for a JSON report: the bound, and the estimate when there is one."""
        found = self.estimate
        return {
            "pattern": self.pattern,
            "bound_seconds": self.bound,
            "estimated_seconds": None if found is None or not math.isfinite(found.seconds) else _round(found.seconds),
            "growth_exponent": None if found is None else round(found.growth, 1),
            "explosive": None if found is None else found.explosive,
        }


def _round(seconds: float) -> float:
    """*seconds* to two significant digits (a timing is not more exact than that)."""
    return float(f"{seconds:.2g}")


def duration(seconds: float) -> str:
    """*seconds* in words, to two significant digits: "14 s", "3.5 min", "1.2e+09 years"."""
    if not math.isfinite(seconds):
        return "forever"
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.2g} {unit}"
    return f"{seconds:.2g} s"


#: What a worker runs: isolated (``-I``: no PYTHON* variables, no user site, not the current
#: folder on its path, so no file of the linted project can be imported), formscript's own
#: path given explicitly.
_WORKER = (
    "import sys; sys.path[:0] = {path!r}; from formscript.core.regex_guard import _worker; _worker(int(sys.argv[1]))"
)


#: How long a worker may take to start (a busy machine) before it counts as dead.
_START_SECONDS = 60.0


def _spawn(task: str, *args: Any) -> tuple[subprocess.Popen[bytes], Connection]:
    """A worker interpreter running *task* (``serve`` or ``probe``) with *args*, and the
    connection to it."""
    here = str(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    parent, child = socket.socketpair()
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-c", _WORKER.format(path=[here]), str(child.fileno())],
            pass_fds=(child.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except BaseException:
        parent.close()
        raise
    finally:
        child.close()
    conn = Connection(parent.detach())
    try:
        conn.send((task, args))
        # the bound counts from here: an interpreter starting on a busy machine is not the regex
        if not conn.poll(_START_SECONDS) or conn.recv() != "ready":
            raise OSError("the regex worker did not start")
    except (EOFError, OSError):
        _stop(process)
        conn.close()
        raise OSError("the regex worker did not start") from None
    return process, conn


def _stop(process: subprocess.Popen[bytes] | None) -> None:
    if process is not None:
        process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=1)


def _worker(fd: int) -> None:
    """A worker's main: the task the parent sends first, on the connection *fd*."""
    conn = Connection(fd)
    try:
        task, args = conn.recv()
        conn.send("ready")
        if task == "serve":
            _serve(conn)
        elif task == "probe":
            _probe(conn, *args)
    except (EOFError, OSError):  # the parent went away
        pass


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

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, answer_bound: float = 0.0) -> None:
        self.timeout = timeout
        #: How long to wait, in all, for a search that overran *timeout* when the estimate says
        #: the runtime answers within it (0: never wait past *timeout*).
        self.answer_bound = answer_bound
        #: The searches that answered only after *timeout*: (pattern, the estimate), in order.
        self.slow: list[tuple[str, Estimate]] = []
        self._process: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        self._cache: dict[tuple[str, str, int], bool] = {}

    def _start(self) -> Connection:
        if self._conn is None:
            self._process, self._conn = _spawn("serve")
        return self._conn

    def __call__(self, pattern: str, text: str, flags: int = 0) -> bool:
        key = (pattern, text, flags)
        if key in self._cache:
            return self._cache[key]
        self._check(pattern, flags)  # a pattern that does not compile raises here, cheaply
        found: Estimate | None = None
        estimated = False
        try:
            conn = self._start()
            conn.send((pattern, text, flags))
            started = time.monotonic()
            answered = conn.poll(self.timeout)
            if not answered:
                # the search goes on in its worker while shorter texts are timed in another;
                # when they say the runtime answers within the answer bound, the answer is awaited
                found, estimated = estimate(pattern, text, flags, budget=self.timeout, at_least=self.timeout), True
                if found is not None and not found.explosive and found.seconds <= self.answer_bound:
                    answered = conn.poll(max(self.answer_bound - (time.monotonic() - started), 0.0))
            reply = conn.recv() if answered else None
        except (EOFError, OSError):  # the worker died (memory): as if it never answered
            answered, reply = False, None
        if not answered or reply is None:
            self.close()
            if not estimated:  # the worker died before the bound
                found = estimate(pattern, text, flags, budget=self.timeout, at_least=self.timeout)
            raise RegexTimeout(pattern, self.timeout, found)
        if found is not None:
            self.slow.append((pattern, found))
        status, value = reply
        if status == "re.error":
            raise re.error(value)
        if status != "ok":
            raise _RERAISED.get(status, RuntimeError)(value)
        self._cache[key] = bool(value)
        return bool(value)

    def close(self) -> None:
        """Stop the worker (a new one starts on the next search)."""
        _stop(self._process)
        if self._conn is not None:
            self._conn.close()
        self._process, self._conn = None, None

    def __enter__(self) -> BoundedSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ----------------------------------------------------------------------------- estimating


def shrunk(text: str, length: int) -> str:
    """*text* cut to *length* characters of the same shape: its head and its tail (where a
    catastrophic prompt usually differs: ``aaaa…ab``)."""
    if length >= len(text):
        return text
    tail = length // 2
    return text[: length - tail] + (text[-tail:] if tail else "")


def _probe(conn: Connection, pattern: str, text: str, flags: int, lengths: list[int], budget: float) -> None:
    """Time the search on each length, shortest first, sending (length, seconds) as each ends
    and None when done: when *budget* seconds are spent, or the next probe, extrapolated from
    the last two, would overrun it. The time is the worker's CPU time, which other processes
    on a busy machine do not inflate, so which probes run depends on the pattern, not on the
    load; a probe that is quick is timed twice and the faster kept (less noise)."""
    compiled = compile_user_regex(pattern, flags)  # re.DEBUG masked: a probe never prints
    spent = 0.0
    done: list[tuple[int, float]] = []
    for length in lengths:
        if len(done) >= 2 and done[-2][1] > 0 and done[-1][1] > done[-2][1]:
            (short, t_short), (long, t_long) = done[-2], done[-1]
            growth = math.log(t_long / t_short) / math.log(long / short)
            if t_long * (length / long) ** min(growth, 50.0) > budget - spent:
                break
        sample = shrunk(text, length)
        best = math.inf
        for _ in range(2):
            start = time.process_time()
            compiled.search(sample)
            took = time.process_time() - start
            spent += took
            best = min(best, took)
            if best > _NOISE_SECONDS * 10:
                break
        done.append((length, best))
        conn.send((length, best))
        if spent >= budget:
            break
    conn.send(None)


def estimate(
    pattern: str, text: str, flags: int = 0, *, budget: float = DEFAULT_TIMEOUT, at_least: float = 0.0
) -> Estimate | None:
    """How long ``re.search(pattern, text, flags)`` is expected to take, measured on shorter
    texts for about *budget* CPU seconds in a worker process (see the module; the wait is
    cut at three times that); never less than *at_least*, the time already seen. None when
    the probes that finished are too quick to time or do not grow enough to tell growth from
    noise."""
    # every short length (an exponential pattern doubles its time per character), then steps
    steps = {round(len(text) * _STEP**k) for k in range(1, 80) if len(text) * _STEP**k >= 4}
    lengths = sorted(steps | set(range(4, min(len(text), 64))))
    if len(lengths) < 2:
        return None
    try:
        process, parent = _spawn("probe", pattern, text, flags, lengths, budget)
    except OSError:
        return None
    timed: list[tuple[int, float]] = []
    deadline = time.monotonic() + 3 * budget  # a probe that overruns its forecast, a busy machine
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not parent.poll(left):
                break
            item = parent.recv()
            if item is None:
                break
            timed.append(item)
    except (EOFError, OSError):  # the worker died (memory): what it sent stands
        pass
    finally:
        _stop(process)
        parent.close()
    return fit(timed, len(text), at_least)


def fit(timed: list[tuple[int, float]], length: int, at_least: float = 0.0) -> Estimate | None:
    """The estimate for a text of *length* from probes *timed* as (length, seconds), in the
    order they ran (``estimate``'s measurements; a test gives its own)."""
    slow = [(size, seconds) for size, seconds in timed if seconds >= _NOISE_SECONDS]
    if not slow:
        return None
    longest, took = slow[-1]
    # the growth over the longest stretch measured (down to a quarter of the longest probe):
    # a least-squares line through log(time) against log(length), steadier than two points
    fitted = [(math.log(size), math.log(seconds)) for size, seconds in slow if size * 4 >= longest]
    if len(fitted) < 2 or max(y for _, y in fitted) - min(y for _, y in fitted) < math.log(4):
        return None  # too little growth to tell it from the noise
    mean_x = sum(x for x, _ in fitted) / len(fitted)
    mean_y = sum(y for _, y in fitted) / len(fitted)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in fitted) / sum((x - mean_x) ** 2 for x, _ in fitted)
    if slope <= 0:
        return None
    try:
        seconds = took * (length / longest) ** slope
    except OverflowError:
        seconds = math.inf
    return Estimate(max(seconds, at_least), slope)  # never less than the time already seen
