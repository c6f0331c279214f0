"""Watching lionagi 0.36.0 load and serve scripts, without changing what it does.

Every way a test hands a script to lionagi ends in one of ``ScriptModel``'s loaders —
``coerce``, ``from_yaml``, ``from_json``, ``from_responses``, ``model_validate`` or the
constructor — whether it is called directly, through ``TestBranch.*``, ``scripted_imodel``,
``ScriptedEndpoint(script=...)`` / ``attach_script`` or the ``LIONAGI_TEST_SCRIPT`` path the
endpoint reads. The outermost of those calls is wrapped: it runs as it would, then formscript
checks what it was given; an exception it raises is re-raised unchanged (the plugin only
remembers formscript's report for it). ``ScriptModel.next`` is wrapped to see which entry the
runtime's own matching served; copies (``model_copy``, ``copy.deepcopy``, as ``coerce`` of a
``ScriptModel`` and ``iModel.copy`` make) keep their source.

lionagi is imported with ``importlib`` here and nowhere else in formscript, only when the
plugin is active.
"""

from __future__ import annotations

import contextvars
import functools
import importlib
import os
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any

from formscript.core.verdict import Verdict
from formscript.lint.config import Settings
from formscript.pytest_plugin.checks import (
    Checked,
    check_value,
    read_python,
)
from formscript.pytest_plugin.constructs import yaml_text
from formscript.pytest_plugin.coverage import Coverage, call_item
from formscript.pytest_plugin.forms import FormWatcher
from formscript.pytest_plugin.watching import _lookup, _same, _short

__all__ = ["Observer"]


#: ScriptModel's loaders: name -> where the runtime takes the script from.
LOADERS = ("coerce", "from_yaml", "from_json", "from_responses", "model_validate")

_DEPTH: contextvars.ContextVar[int] = contextvars.ContextVar("formscript_load_depth", default=0)


@dataclass
class _Tracked:
    """A live ScriptModel: its source and its current session (None until its next call)."""

    ref: weakref.ref[Any]
    key: str
    session: dict[str, Any] | None = None
    #: formscript's replay of the current session: None until its first call (then None
    #: again when the session began on a copy already served from: no prediction for it).
    replay: Any = None
    started: bool = False
    #: The session's calls as transcript items (a drift's repro bundle replays them).
    items: list[Any] = dataclass_field(default_factory=list)


class Observer(FormWatcher):
    """Installs the wrappers on lionagi's ScriptModel (and, through FormWatcher, its work-form
    API) and keeps what they see."""

    def __init__(self, rootdir: Path, settings: Settings, coverage: Coverage) -> None:
        super().__init__(rootdir, settings, coverage)
        self._seq: dict[str, int] = {}
        self._tracked: dict[int, _Tracked] = {}
        self._model: Any = None
        self._exhausted: type[BaseException] = RuntimeError
        #: formscript's reading of each source (its entries and mode), by coverage key.
        self._scripts: dict[str, tuple[list[Any], str]] = {}

    # -- installing

    def install(self) -> bool:
        """Wrap lionagi's ScriptModel; False (and nothing changed) when lionagi is not importable."""
        try:
            script_module = importlib.import_module("lionagi.testing._script")
        except ImportError:
            return False
        model = script_module.ScriptModel
        self._model = model
        self._exhausted = script_module.ScriptExhaustedError
        packages = (
            importlib.import_module("lionagi"),
            importlib.import_module("pydantic"),
            importlib.import_module("pydantic_core"),
        )
        folders = [Path(package.__file__ or "").parent for package in packages]
        self._skip = tuple(str(folder) + os.sep for folder in (*folders, Path(__file__).parent))
        for name in LOADERS:
            self._wrap_loader(model, name)
        self._patch(model, "__init__", self._init_wrapper(_lookup(model, "__init__")))
        self._patch(model, "next", self._next_wrapper(_lookup(model, "next")))
        self._patch(model, "reset", self._reset_wrapper(_lookup(model, "reset")))
        self._patch(model, "__copy__", self._copy_wrapper(_lookup(model, "__copy__")))
        self._patch(model, "__deepcopy__", self._copy_wrapper(_lookup(model, "__deepcopy__")))
        try:
            agent = importlib.import_module("lionagi.cli.agent")
        except ImportError:  # pragma: no cover - part of lionagi 0.36.0
            agent = None
        try:
            endpoint = importlib.import_module("lionagi.testing._endpoint").ScriptedEndpoint
        except (ImportError, AttributeError):  # pragma: no cover - part of lionagi 0.36.0
            endpoint = None
        if endpoint is not None and callable(getattr(endpoint, "_record", None)):
            self._patch(endpoint, "_record", self._record_wrapper(_lookup(endpoint, "_record")))
        work_form: Any = None
        work: Any = None
        rules_module: Any = None
        try:
            work_form = importlib.import_module("lionagi.work.form")
            work = importlib.import_module("lionagi.work")
            rules_module = importlib.import_module("lionagi.work.rules")
        except ImportError:  # pragma: no cover - part of lionagi 0.36.0
            pass
        self._install_forms(work_form, work, rules_module, agent)
        return True

    def _record_wrapper(self, original: Any) -> Any:
        """``ScriptedEndpoint._record``: the endpoint has built its response for a served entry
        (or streamed its chunks); formscript builds its own from the same entry and payload."""

        def record(endpoint: Any, payload: Any, headers: Any, entry: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            result = original(endpoint, payload, headers, entry, **kwargs)
            self._guarded(self._response_drift, endpoint, payload, entry, kwargs.get("response"), kwargs)
            return result

        record.__wrapped__ = original  # type: ignore[attr-defined]
        return record

    def _response_drift(self, endpoint: Any, payload: Any, entry: Any, response: Any, options: dict[str, Any]) -> None:
        """The response lionagi's endpoint built against formscript's (ids it draws aside)."""
        import dataclasses

        from formscript.core.endpoint import completion_for, stream_for

        script: Any = getattr(endpoint, "_script", None)
        tracked = self._tracked.get(id(script))
        if script is None or tracked is None or tracked.ref() is not script or tracked.key not in self._scripts:
            return
        if getattr(entry, "type", None) == "error" or response is None or not isinstance(payload, dict):
            return
        index = next_index(getattr(script, "responses", []), entry)
        entries = self._scripts[tracked.key][0]
        if index is None or index >= len(entries):
            return
        mine = entries[index]
        call = len(getattr(endpoint, "calls", [])) - 1  # the index the endpoint gave next()
        generated = mine.type == "tool_call" and not mine.id
        if options.get("streamed"):
            if mine.type not in ("stream", "text"):
                return  # a completion wrapped in a chunk: its ids are inside a JSON text
            theirs: Any = [
                {f.name: getattr(c, f.name) for f in dataclasses.fields(c)} if dataclasses.is_dataclass(c) else c
                for c in response
            ]
            predicted: Any = stream_for(mine, payload, call)
        else:
            theirs = _without_ids(response, generated)
            predicted = _without_ids(completion_for(mine, payload, call), generated)
        self.coverage.predicted_responses += 1
        if _same(theirs, predicted):
            return
        lionagi, formscript = f"builds {_short(theirs)}", f"predicts {_short(predicted)}"
        record = self._entry_drift(tracked.key, index, call, payload, lionagi, formscript)
        self._add_drift(record, f"drift in the response to call {call} of {tracked.key}: lionagi {lionagi}")

    def _entry_drift(
        self, key: str, at: int | None, call: int, payload: Any, lionagi: str, formscript: str
    ) -> dict[str, Any]:
        """A drift record at entry *at* of the script *key* (at the script when *at* is None)."""
        source = self.coverage.sources.get(key, {})
        entries = source.get("entries", [])
        return {
            "test": self.current_test,
            "source": key,
            "path": source.get("path", key),
            "line": entries[at]["line"] if at is not None and at < len(entries) else source.get("line"),
            "call": call,
            "payload": call_item(payload),
            "lionagi": lionagi,
            "formscript": formscript,
        }

    # -- the work-form building blocks a test calls (constructs.py predicts them)

    def _wrap_loader(self, model: type, name: str) -> None:
        func = _lookup(model, name).__func__

        @functools.wraps(func)
        def loader(cls: type, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True  # pytest shows the test's and lionagi's frames, not ours
            return self._load(name, functools.partial(func, cls, *args, **kwargs), args, kwargs)

        self._patch(model, name, classmethod(loader))

    def _init_wrapper(self, init: Any) -> Any:
        def __init__(instance: Any, /, **data: Any) -> None:
            __tracebackhide__ = True
            self._load("__init__", functools.partial(init, instance, **data), (data,), {}, instance)

        __init__.__wrapped__ = init  # type: ignore[attr-defined]
        return __init__

    def _load(
        self, api: str, load: Callable[[], Any], args: tuple[Any, ...], kwargs: dict[str, Any], made: Any = None
    ) -> Any:
        """Run the loader call *load*; when it is the outermost (lionagi's loaders call one
        another), check what it was handed (*args*, *kwargs*) and what it made (its result, or
        the instance *made* that the constructor initialised)."""
        __tracebackhide__ = True
        if _DEPTH.get():
            return load()
        token = _DEPTH.set(1)
        try:
            result = load()
        except BaseException as exc:
            _DEPTH.reset(token)
            if isinstance(exc, Exception):  # not for KeyboardInterrupt and its kind
                self._guarded(self._after, api, args, kwargs, None, exc)
            raise
        _DEPTH.reset(token)
        self._guarded(self._after, api, args, kwargs, result if made is None else made, None)
        return result

    def _next_wrapper(self, original: Any) -> Any:
        def next(instance: Any, payload: dict[str, Any], call_index: int) -> Any:
            __tracebackhide__ = True
            fresh = _is_fresh(instance)
            try:
                entry, matched_by = original(instance, payload, call_index)
            except BaseException as exc:
                outcome = "exhausted" if isinstance(exc, self._exhausted) else "raised"
                self._guarded(self._served, instance, payload, call_index, None, outcome, fresh)
                raise
            index = next_index(instance.responses, entry)
            self._guarded(self._served, instance, payload, call_index, index, matched_by, fresh)
            return entry, matched_by

        next.__wrapped__ = original  # type: ignore[attr-defined]
        return next

    def _reset_wrapper(self, original: Any) -> Any:
        def reset(instance: Any) -> None:
            __tracebackhide__ = True
            original(instance)
            tracked = self._tracked.get(id(instance))
            if tracked is not None and tracked.ref() is instance:
                tracked.session = None
                tracked.started = False

        reset.__wrapped__ = original  # type: ignore[attr-defined]
        return reset

    def _copy_wrapper(self, original: Any) -> Any:
        def copy(instance: Any, *args: Any) -> Any:
            __tracebackhide__ = True
            result = original(instance, *args)
            tracked = self._tracked.get(id(instance))
            if tracked is not None and tracked.ref() is instance:
                self._guarded(self._tag, result, tracked.key)
            return result

        copy.__wrapped__ = original  # type: ignore[attr-defined]
        return copy

    # -- loading

    def _after(self, api: str, args: tuple[Any, ...], kwargs: dict[str, Any], result: Any, exc: Any) -> None:
        given = _given(api, args, kwargs)
        if given is None:
            return
        source, as_yaml, paths = given
        if isinstance(source, self._model):
            return  # a copy: it keeps its source (see _copy_wrapper)
        if paths and isinstance(source, str | os.PathLike):
            checked = self._check_file(os.fspath(source), as_yaml)
            if not self._inside(checked.path):
                checked = self._written(checked, "script") or checked
        else:
            site = self._call_site()
            if site is None:
                return
            checked = check_value(source, site, read_python(site.path), settings=self.settings)
            checked = self._checked.setdefault(("value", checked.key), checked)
        if exc is not None:
            if checked.verdict is Verdict.REJECTED and any(d.severity == "error" for d in checked.diagnostics):
                text = self._failure_text(checked, exc)
                self._rejections[id(exc)] = (exc, text)
                self._pending.append(text)
            return
        self._warn_findings(checked)
        if checked.verdict is Verdict.REJECTED:
            self._warn(
                checked,
                ("verdict",),
                checked.entry_line(0) or 1,
                "formscript predicted that lionagi rejects this script, but lionagi accepted it",
            )
        self._tag(result, checked.key)
        self._register(checked, result)

    def _failure_text(self, checked: Checked, exc: BaseException) -> str:
        errors = sum(1 for d in checked.diagnostics if d.severity == "error")
        if checked.kind == "file":
            what = checked.path
        elif checked.call is None:  # the test file's source could not be read for the call
            what = f"at {checked.path}:{checked.line}"
        else:
            what = f"{checked.call}(...) at {checked.path}:{checked.line}"
        first = (str(exc).splitlines() or [""])[0]
        name = type(exc).__module__ + "." + type(exc).__qualname__
        return (
            f"formscript: lionagi rejects the script {what} ({errors} error(s)):\n"
            f"{checked.render()}"
            f"\nlionagi raised {name}: {first}\n"
            "(lionagi's traceback is left out; --formscript-traceback shows it after this report)"
        )

    # -- coverage

    def _tag(self, instance: Any, key: str) -> None:
        if not isinstance(instance, self._model):
            return
        ident = id(instance)

        def gone(_: Any, ident: int = ident) -> None:
            self._tracked.pop(ident, None)

        self._tracked[ident] = _Tracked(weakref.ref(instance, gone), key)

    def _register(self, checked: Checked, instance: Any) -> None:
        responses = list(getattr(instance, "responses", []) or [])
        script = checked.report.script if checked.report is not None else None
        if script is not None and responses and len(script.entries) == len(responses) and all(script.entries):
            self._scripts.setdefault(checked.key, (list(script.entries), script.mode))  # predicted wherever it is
        if not responses or not self._inside(checked.path):
            return  # an empty script serves nothing; one outside the rootdir (tmp_path) is the test's own
        entries = [
            {"index": i, "type": str(getattr(e, "type", "?")), "line": checked.entry_line(i)}
            for i, e in enumerate(responses)
        ]

        self.coverage.add_source(
            {
                "key": checked.key,
                "kind": checked.kind,
                "path": checked.path,
                "line": checked.line,
                "call": checked.call,
                "entries": entries,
            }
        )

    def _served(self, instance: Any, payload: Any, call_index: int, index: int | None, how: str, fresh: bool) -> None:
        tracked = self._tracked.get(id(instance))
        if tracked is None or tracked.ref() is not instance:
            return
        self._predict(instance, tracked, payload, call_index, index, how, fresh)
        if tracked.key not in self.coverage.sources:
            return  # checked, not counted (a script outside the rootdir, or with no entries)
        outcome = "served" if index is not None else how
        if tracked.session is None:
            seq = self._seq.get(self.current_test, 0)
            self._seq[self.current_test] = seq + 1
            tracked.session = {
                "source": tracked.key,
                "test": self.current_test,
                "seq": seq,
                "fresh": fresh,
                "calls": [],
                "more": 0,
                "stopped": False,
            }
            self.coverage.sessions.append(tracked.session)
        session = tracked.session
        if index is not None:
            self.coverage.serve(tracked.key, index)
        if session["stopped"]:
            session["more"] += 1
            return
        replay_index = sum(1 for c in session["calls"] if c["outcome"] == "served")
        session["calls"].append(
            {
                "item": call_item(payload),
                "call_index": call_index,
                "replay_index": replay_index,
                "entry": index,
                "outcome": outcome,
                "matched_by": how if index is not None else None,
            }
        )
        if outcome != "served":
            session["stopped"] = True

    # -- drift: lionagi's answer against formscript's prediction

    def _predict(
        self,
        instance: Any,
        tracked: _Tracked,
        payload: Any,
        call_index: int,
        index: int | None,
        how: str,
        fresh: bool,
    ) -> None:
        """Replay the call with formscript's core from the same state and payload; a different
        entry, way of matching or outcome is drift (a warning at the entry, a summary line)."""
        from formscript.core.script import Replayer, ScriptExhausted

        key = tracked.key
        if not tracked.started:
            tracked.started, tracked.items = True, []
            script = self._scripts.get(key)
            tracked.replay = Replayer(script[0], script[1]) if fresh and script is not None else None
        replayer = tracked.replay
        if replayer is None or not isinstance(payload, dict):
            return
        tracked.items.append(call_item(payload))
        try:
            match = replayer.next(payload, call_index)
            predicted = ("served", match.entry, match.kind)
        except ScriptExhausted:
            predicted = ("exhausted", None, None)
        except Exception as exc:  # what the runtime raises on this payload (RegexFailure, ...)
            predicted = ("raised", None, type(exc).__name__)
        self.coverage.predicted += 1
        observed = ("served", index, _kind(how)) if index is not None else (how, None, None)
        if predicted[:2] == observed[:2] and (predicted[0] != "served" or predicted[2] == observed[2]):
            return
        if predicted[0] == "raised" and observed[0] == "raised":
            return  # both raise: which exception is the runtime's own business here
        tracked.replay = None  # the states part: later calls would differ for that reason alone
        at = index if index is not None else predicted[1]
        lionagi, formscript = _said(observed), _said(predicted)
        record = self._entry_drift(key, at, call_index, payload, lionagi, formscript)
        if self.drift_dir is not None:
            record["bundle"] = self._bundle(instance, tracked.items, record)
        self._add_drift(
            record, f"drift at call {call_index} of {key}: lionagi {lionagi}, formscript predicts {formscript}"
        )

    def _bundle(self, instance: Any, calls: list[Any], record: dict[str, Any]) -> str:
        """Write a served call's repro bundle: the script as lionagi holds it (data) and the
        session's calls up to this one as a calls transcript. Its folder's name."""
        script = instance.model_dump(mode="json", exclude_none=True)
        files = {"script.yaml": yaml_text(script), "calls.yaml": yaml_text(calls)}
        return self._write_bundle(record, files, "formscript simulate script.yaml --calls calls.yaml", len(calls) - 1)


_COMPLETION_ID = r"^chatcmpl-scripted-[0-9a-f]{12}$"
_TOOL_CALL_ID = r"^call_[0-9a-f]{10}$"


def _without_ids(response: Any, generated_tool_id: bool) -> Any:
    """*response* (a chat completion) with the ids lionagi draws at random (and formscript
    derives from the call index) made equal; a tool call's id only where the script gave none."""
    import re

    if not isinstance(response, dict):
        return response
    out = dict(response)
    if isinstance(out.get("id"), str) and re.match(_COMPLETION_ID, out["id"]):
        out["id"] = "<id>"
    choices = []
    for choice in out.get("choices", []) if isinstance(out.get("choices"), list) else []:
        message = dict(choice.get("message", {})) if isinstance(choice, dict) else {}
        calls = message.get("tool_calls")
        if isinstance(calls, list):
            message["tool_calls"] = [
                {**c, "id": "<id>"}
                if generated_tool_id and isinstance(c, dict) and re.match(_TOOL_CALL_ID, str(c.get("id")))
                else c
                for c in calls
            ]
        choices.append({**choice, "message": message} if isinstance(choice, dict) else choice)
    if "choices" in out:
        out["choices"] = choices
    return out


def _kind(how: str) -> str:
    """The kind of lionagi's ``matched_by`` (``positional``, ``when:<kind>:<value>``)."""
    parts = how.split(":", 2)
    return parts[1] if len(parts) >= 2 and parts[0] == "when" else how


def _said(outcome: tuple[str, int | None, str | None]) -> str:
    what, entry, kind = outcome
    if what == "served":
        return f"serves entry #{entry} ({kind})"
    if what == "exhausted":
        return "raises ScriptExhaustedError (no entry left)"
    return "raises" + (f" {kind}" if kind else "")


def _is_fresh(instance: Any) -> bool:
    """Whether the script has served nothing yet (its cursor and its when-served list are at
    their start)."""
    try:
        return bool(instance.cursor == 0 and not instance._served_by_when)
    except AttributeError:
        return True


def next_index(responses: Any, entry: Any) -> int | None:
    """The position of the served *entry* in the script's responses (by identity)."""
    return next((i for i, candidate in enumerate(responses) if candidate is entry), None)


def _given(api: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, bool | None, bool] | None:
    """What the loader *api* was handed: (the source, the loader a path is read with, whether
    a string is a path)."""
    if api == "coerce":
        source = args[0] if args else kwargs.get("source")
        if isinstance(source, list):
            return {"responses": source}, None, False
        return source, None, True
    if api in ("from_yaml", "from_json"):
        path = args[0] if args else kwargs.get("path")
        return (path, api == "from_yaml", True) if isinstance(path, str | os.PathLike) else None
    if api == "from_responses":
        responses = args[0] if args else kwargs.get("responses")
        rest = {k: v for k, v in kwargs.items() if k != "responses"}
        return {"responses": responses, **rest}, None, False
    if api == "model_validate":
        return (args[0] if args else kwargs.get("obj")), None, False
    return (args[0] if args else {}), None, False  # __init__: the keyword arguments
