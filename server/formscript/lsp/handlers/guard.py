"""``guarded``: a failing handler is logged and answered with an empty result; the server
keeps serving. Protocol errors (invalid params, cancellation) go to the client as they are."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pygls.exceptions import JsonRpcException

from formscript.lsp.documents import Absent

if TYPE_CHECKING:
    from formscript.lsp.server import FormscriptServer

T = TypeVar("T")

#: A handler as registered: a function or a coroutine function of (server, params...).
Handler = Callable[..., Any] | Callable[..., Awaitable[Any]]


def guarded(empty: Callable[[], Any] = lambda: None) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Answer with ``empty()`` (and log) when the handler fails (``list`` for requests that answer
    lists); protocol errors pass."""

    def decorate(handler: Callable[..., T]) -> Callable[..., T]:
        if asyncio.iscoroutinefunction(handler):

            @functools.wraps(handler)
            async def run_async(ls: FormscriptServer, *args: Any) -> Any:
                try:
                    return await handler(ls, *args)
                except JsonRpcException:  # a cancellation is no Exception: it passes too
                    raise
                except Absent:
                    return empty()
                except Exception:
                    ls.log_failure(handler.__name__)
                    return empty()

            return run_async  # type: ignore[return-value]

        @functools.wraps(handler)
        def run(ls: FormscriptServer, *args: Any) -> Any:
            try:
                return handler(ls, *args)
            except JsonRpcException:
                raise
            except Exception:
                ls.log_failure(handler.__name__)
                return empty()

        return run

    return decorate
