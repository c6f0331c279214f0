"""Reading a file formscript was pointed at: regular files only, checked on the open file itself
(``fstat``), opened without blocking, so a FIFO, ``/dev/stdin`` or a terminal is refused at once
instead of waited on, and never more than a size limit (so ``/dev/zero`` cannot be read until
memory runs out: it is not a regular file anyway). ``lint.reading`` turns a refusal into a
report; the configuration reader uses these directly.
"""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Callable

from formscript import rules

#: Files above this size are refused rather than parsed (documented limit).
MAX_BYTES = 64 * 1024 * 1024


class Unreadable(Exception):
    """A path ``read_bytes`` refuses: ``reason`` is ``"os"`` (the system refused: ``detail``
    says why), ``"not_regular"`` or ``"too_big"`` (``size`` bytes at least)."""

    def __init__(self, reason: str, detail: str = "", size: int = 0) -> None:
        self.reason, self.detail, self.size = reason, detail, size
        super().__init__(detail or reason)

    def message(self, limit: int) -> str:
        """The message of the rule of files that do not load for this refusal."""
        if self.reason == "not_regular":
            return rules.YM001.not_regular()
        if self.reason == "too_big":
            return rules.YM001.too_big(size=self.size, limit=limit)
        return rules.YM001.cannot_read(detail=self.detail)


def read_bytes(path: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file at *path*, at most *limit* of them; ``Unreadable``
    otherwise. Never blocks on a FIFO or a device: the file is opened non-blocking and
    checked with ``fstat`` before a byte is read."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise Unreadable("os", str(exc.strerror or exc)) from None
    except ValueError as exc:  # a NUL in the name
        raise Unreadable("os", str(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("not_regular")
        if info.st_size > limit:
            raise Unreadable("too_big", size=info.st_size)
        data = read_at_most(functools.partial(os.read, fd), limit)
        if len(data) > limit:  # a file growing while it is read stops at the limit too
            raise Unreadable("too_big", size=len(data))
        return data
    except OSError as exc:
        raise Unreadable("os", str(exc.strerror or exc)) from None
    finally:
        os.close(fd)


def read_at_most(read: Callable[[int], bytes], limit: int) -> bytes:
    """What *read* (a stream's read of at most so many bytes) gives up to the end, or its
    first *limit* + 1 bytes when there are more than *limit*."""
    chunks: list[bytes] = []
    total = 0
    while total <= limit:
        chunk = read(min(1 << 20, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def read_text(path: str, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of the regular file at *path* (``read_bytes``); ``Unreadable`` too when
    it is not UTF-8 (reason ``"os"``, the decoding error as the detail)."""
    data = read_bytes(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable("os", f"not valid UTF-8 at byte {exc.start}") from None
