"""What the scripted endpoint returns for an entry (ADR-0052 D5).

The runtime draws random ids; formscript derives them from the call and entry indexes so the
same input always gives byte-identical output (seed 004). Conformance compares everything else.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from formscript.core.entries import CHUNK, CHUNK_KEYS, Entry, ErrorEntry

#: HTTP-like status per error kind; kinds absent here are not HTTP errors.
ERROR_STATUS: dict[str, int] = {"rate_limit": 429, "server_error": 500, "bad_request": 400}
_NO_USAGE = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}


def stable_id(*parts: object, length: int = 12) -> str:
    """A hex id that depends only on *parts*."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()
    return digest[:length]


def _completion(call: int, model: str, message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-scripted-{stable_id('completion', call)}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": dict(_NO_USAGE),
    }


def _model_name(payload: dict[str, Any]) -> Any:
    return payload.get("model") or "scripted"


def text_completion(text: str, payload: dict[str, Any], call: int) -> dict[str, Any]:
    """An assistant text completion."""
    return _completion(call, _model_name(payload), {"role": "assistant", "content": text}, "stop")


def completion_for(entry: Entry, payload: dict[str, Any], call: int) -> dict[str, Any]:
    """The non-stream response for a served, non-error entry (json errors propagate)."""
    if entry.type == "text":
        return text_completion(entry.content, payload, call)
    if entry.type == "structured":
        return text_completion(json.dumps(entry.data), payload, call)
    if entry.type == "stream":
        text = "".join(c.content or "" for c in entry.chunks if c.type == "text")
        return text_completion(text, payload, call)
    if entry.type == "tool_call":
        call_id = entry.id or f"call_{stable_id('tool_call', call, length=10)}"
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": entry.name, "arguments": json.dumps(entry.arguments)},
                }
            ],
        }
        return _completion(call, _model_name(payload), message, "tool_calls")
    raise TypeError(f"{type(entry).__name__} has no completion; it raises instead")


def _chunk(kind: str, **values: Any) -> dict[str, Any]:
    """A stream chunk of *kind*: *values*, and the defaults of ``entries.CHUNK`` for the rest."""
    chunk: dict[str, Any] = {slot.name: slot.default for slot in CHUNK.slots}
    chunk.update({"type": kind, "metadata": {}, **values})
    return chunk


def stream_for(entry: Entry, payload: dict[str, Any], call: int) -> list[dict[str, Any]]:
    """The chunks the streaming path yields for *entry* (an error entry yields one, then raises).

    A negative ``delay_ms`` makes the runtime's sleep raise before anything is yielded.
    """
    if entry.type == "error":
        if entry.delay_ms < 0:
            return []
        return [_chunk("error", content=entry.message, is_error=True)]
    if entry.type == "stream":
        return [
            {name: getattr(spec, name) for name in CHUNK_KEYS} | {"metadata": dict(spec.metadata)}
            for spec in entry.chunks
        ]
    if entry.type == "text":
        return [
            _chunk("text", content=entry.content, is_delta=True),
            _chunk("result", metadata={"done": True}),
        ]
    response = completion_for(entry, payload, call)
    return [_chunk("result", content=json.dumps(response), metadata={"raw": response})]


def raised_for(entry: ErrorEntry) -> dict[str, Any]:
    """The exception the runtime raises for a scripted error: its class, status and message.

    ``recorded`` says whether the runtime counts the call (it feeds later ``call_index``
    gates). A negative ``delay_ms`` fails in the runtime's sleep first: a ValueError of its
    own, the call unrecorded, though the entry is used up.
    """
    if entry.delay_ms < 0:
        return {
            "exception": "ValueError",
            "status_code": None,
            "recorded": False,
            "message": f"delay_ms {entry.delay_ms} is negative; the runtime cannot sleep "
            "for it and raises before serving the scripted error",
        }
    if entry.kind in ERROR_STATUS:
        exception = "APIClientError"
    else:
        exception = "TimeoutError" if entry.kind == "timeout" else "ValueError"
    return {
        "exception": exception,
        "status_code": ERROR_STATUS.get(entry.kind),
        "message": entry.message,
        "recorded": True,
    }
