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
import importlib
import os
import sys
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from types import FrameType
from typing import Any

from formscript.core.verdict import Verdict
from formscript.lint.config import Settings
from formscript.pytest_plugin.checks import (
    CallSite,
    Checked,
    check_file,
    check_spec_value,
    check_value,
    read_python,
    written_at,
)
from formscript.pytest_plugin.constructs import Repro
from formscript.pytest_plugin.coverage import Coverage, call_item
from formscript.pytest_plugin.warning import FormscriptDriftWarning, FormscriptWarning

__all__ = ["Observer"]


#: ScriptModel's loaders: name -> where the runtime takes the script from.
LOADERS = ("coerce", "from_yaml", "from_json", "from_responses", "model_validate")

#: A default that no argument can be (None is a spec a test may pass).
_ABSENT: Any = object()

_DEPTH: contextvars.ContextVar[int] = contextvars.ContextVar("formscript_load_depth", default=0)
_FILLING: contextvars.ContextVar[int] = contextvars.ContextVar("formscript_fill_depth", default=0)
#: Inside a call of lionagi's the plugin watches: the FieldSpec, WorkForm, Rule and RuleSet calls
#: lionagi makes there are its own, not the test's.
_INSIDE: contextvars.ContextVar[int] = contextvars.ContextVar("formscript_inside_depth", default=0)


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


class Observer:
    """Installs the wrappers on lionagi's ScriptModel and keeps what they see."""

    def __init__(self, rootdir: Path, settings: Settings, coverage: Coverage) -> None:
        self.rootdir = rootdir.resolve()
        self.settings = settings
        self.coverage = coverage
        self.current_test = ""
        self._seq: dict[str, int] = {}
        self._tracked: dict[int, _Tracked] = {}
        self._checked: dict[tuple[Any, ...], Checked] = {}
        self._warned: set[tuple[Any, ...]] = set()
        self._rejections: dict[int, tuple[BaseException, str]] = {}
        #: formscript's reports of what lionagi refused during the current test, in order.
        self._pending: list[str] = []
        self._restore: list[tuple[Any, str, Any]] = []
        self._skip: tuple[str, ...] = ()
        self._model: Any = None
        self._exhausted: type[BaseException] = RuntimeError
        #: formscript's reading of each source (its entries and mode), by coverage key.
        self._scripts: dict[str, tuple[list[Any], str]] = {}
        #: Where each drift's repro bundle is written (``--formscript-drift-dir``), or None.
        self.drift_dir: Path | None = None
        #: Forms ``li agent --form`` built from a spec, until it renders their context block.
        self._built: dict[int, tuple[Any, Checked, Any]] = {}

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
        lionagi_dir = str(Path(importlib.import_module("lionagi").__file__ or "").parent)
        pydantic_dir = str(Path(importlib.import_module("pydantic").__file__ or "").parent)
        skip = [lionagi_dir + os.sep, pydantic_dir + os.sep, str(Path(__file__).parent) + os.sep]
        try:
            core_dir = str(Path(importlib.import_module("pydantic_core").__file__ or "").parent)
            skip.append(core_dir + os.sep)
        except ImportError:  # pragma: no cover - pydantic always brings it
            pass
        self._skip = tuple(skip)
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
        try:
            work_form = importlib.import_module("lionagi.work.form")
            work = importlib.import_module("lionagi.work")
        except ImportError:  # pragma: no cover - part of lionagi 0.36.0
            pass
        self._watch_constructs()
        for fill, name in ((True, "fill_form"), (False, "validate_form")):
            original = getattr(work_form, name, None) if work_form is not None else None
            if original is not None:
                wrapped = self._fill_wrapper(original, fill)
                for module in (work_form, work):
                    if getattr(module, name, None) is original:
                        self._patch_module(module, name, wrapped)
        if agent is not None and hasattr(agent, "_load_form_spec") and hasattr(agent, "_build_work_form"):
            self._patch_module(agent, "_load_form_spec", self._form_wrapper(agent._load_form_spec, "load"))
            self._patch_module(agent, "_build_work_form", self._form_wrapper(agent._build_work_form, "build"))
            if callable(getattr(agent, "_form_to_context_block", None)):
                self._patch_module(agent, "_form_to_context_block", self._block_wrapper(agent._form_to_context_block))
        return True

    def uninstall(self) -> None:
        """Put lionagi back as it was."""
        for owner, name, before in reversed(self._restore):
            if before is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, before)
        self._restore.clear()

    def _patch(self, owner: Any, name: str, value: Any) -> None:
        self._restore.append((owner, name, owner.__dict__.get(name, _ABSENT)))
        setattr(owner, name, value)

    def _patch_module(self, module: Any, name: str, value: Any) -> None:
        self._patch(module, name, value)

    def _form_wrapper(self, original: Any, step: str) -> Any:
        """``li agent --form``'s loading (``_load_form_spec(path)``) and building
        (``_build_work_form(spec, path)``): when either refuses the spec, the test's failure
        (the command returns 1) carries formscript's located report of the spec file."""

        def form_step(*args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            path = args[-1] if args else kwargs.get("path", kwargs.get("spec_path"))
            token = _INSIDE.set(_INSIDE.get() + 1)  # the FieldSpec, WorkForm it builds are its own
            try:
                result = original(*args, **kwargs)
            except BaseException as exc:
                if isinstance(exc, Exception):
                    self._guarded(self._form_after, path, exc, None)
                raise
            finally:
                _INSIDE.reset(token)
            if step == "build":
                spec = args[0] if len(args) > 1 else kwargs.get("spec")
                self._guarded(self._form_after, path, None, result, spec)
            return result

        form_step.__wrapped__ = original  # type: ignore[attr-defined]
        form_step.__name__ = getattr(original, "__name__", "form_step")
        return form_step

    def _block_wrapper(self, original: Any) -> Any:
        """``li agent --form``'s context block (the text put before the prompt) for a form it
        built from a spec: set against the block formscript renders for the same spec."""

        def block(form: Any, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            text = original(form, *args, **kwargs)
            self._guarded(self._block_drift, form, text)
            return text

        block.__wrapped__ = original  # type: ignore[attr-defined]
        block.__name__ = getattr(original, "__name__", "block")
        return block

    def _block_drift(self, form: Any, text: Any) -> None:
        found = self._built.pop(id(form), None)
        if found is None or found[0] is not form:
            return
        checked, spec = found[1], found[2]
        gate = checked.report.gate if checked.report is not None else None
        if gate is None or gate.context_block is None:
            return  # not rendered here (values past the alias limit)
        self.coverage.predicted_blocks += 1
        if text != gate.context_block:
            site = CallSite(checked.path, checked.path, checked.line or 1, 0)
            ours, theirs = gate.context_block, text if isinstance(text, str) else repr(text)
            at = next((i for i, pair in enumerate(zip(ours, theirs, strict=False)) if pair[0] != pair[1]), None)
            at = min(len(ours), len(theirs)) if at is None else at
            self._drift(
                "li agent --form context block",
                site,
                f"writes {theirs[max(0, at - 20) : at + 40]!r} at character {at}",
                f"{ours[max(0, at - 20) : at + 40]!r} ({len(ours)} characters; lionagi's {len(theirs)})",
                _spec_files(spec),
            )

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
        source = self.coverage.sources.get(tracked.key, {})
        rows = source.get("entries", [])
        line = rows[index]["line"] if index < len(rows) else source.get("line")
        record = {
            "test": self.current_test,
            "source": tracked.key,
            "path": source.get("path", tracked.key),
            "line": line,
            "call": call,
            "payload": call_item(payload),
            "lionagi": f"builds {_short(theirs)}",
            "formscript": f"predicts {_short(predicted)}",
        }
        self.coverage.drift.append(record)
        text = f"drift in the response to call {call} of {tracked.key}: lionagi {record['lionagi']}"
        warnings.warn_explicit(FormscriptDriftWarning(text), FormscriptDriftWarning, record["path"], line or 1)

    def _fill_wrapper(self, original: Any, fill: bool) -> Any:
        """``fill_form`` / ``validate_form``: the call runs as it would, then formscript's
        prediction from the same form, values and rule set is set against what it returned."""

        def filling(*args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            outermost = _FILLING.get() == 0  # fill_form calls validate_form: one call, one check
            token = _FILLING.set(_FILLING.get() + 1)
            inside = _INSIDE.set(_INSIDE.get() + 1)
            try:
                result = original(*args, **kwargs)
            except BaseException as exc:
                if isinstance(exc, Exception) and outermost:
                    self._guarded(self._form_drift, fill, args, kwargs, None, exc)
                raise
            finally:
                _INSIDE.reset(inside)
                _FILLING.reset(token)
            if outermost:
                self._guarded(self._form_drift, fill, args, kwargs, result, None)
            return result

        filling.__wrapped__ = original  # type: ignore[attr-defined]
        filling.__name__ = getattr(original, "__name__", "filling")
        return filling

    def _form_drift(
        self, fill: bool, args: tuple[Any, ...], kwargs: dict[str, Any], result: Any, exc: BaseException | None
    ) -> None:
        """Predict the call with formscript's core (status, errors in order by field, values
        after coercion, or the exception) and record any difference as drift."""
        from formscript.core.constructors import build_rules
        from formscript.core.fields import FillCrash, check_values, merge_values

        form = args[0] if args else kwargs.get("form")
        values = (args[1] if len(args) > 1 else kwargs.get("values")) if fill else getattr(form, "values", None)
        fields = getattr(form, "fields", None)
        if not isinstance(fields, dict) or not isinstance(values, dict):
            return  # lionagi's own errors for what is not a form or mapping: not modelled here
        ruleset = None
        given = kwargs.get("ruleset")
        if given is not None:
            listed = [
                {k: getattr(rule, k) for k in ("rule_id", "field", "check", "params", "message", "enabled")}
                for rule in given.rules()
            ]
            if any(item["check"] == "custom" for item in listed):
                return  # a callable of the test's decides
            problems: list[Any] = []
            ruleset, undecidable = build_rules(listed, problems)
            if ruleset is None or undecidable or problems:
                return
        self.coverage.predicted_forms += 1
        merged = merge_values(fields, values) if fill else dict(values)
        site = self._call_site()
        shown_site = f"{self._shown(Path(site.path))}:{site.line}" if site is not None else "<unknown>"
        try:
            coerced, failures = check_values(fields, merged, ruleset)
            predicted = (
                "returns",
                "error" if failures else "validated",
                tuple(f.field for f in failures),
                _shown_values(coerced),
            )
        except FillCrash as crash:
            predicted = ("raises", type(crash.error).__name__, (crash.field,), "")
        else:
            failed = {f.rule_id for f in failures if f.source == "rule"}
            enabled = [rule.rule_id for rule in ruleset.rules()] if ruleset is not None else []
            title = getattr(form, "title", None) or "(untitled)"
            key = f"{title} [{', '.join(str(name) for name in fields)}]"
            filled = {str(name): merged.get(name) is not None for name in fields}
            self.coverage.fill(key, shown_site, filled, {rule_id: rule_id in failed for rule_id in enabled})
        if exc is not None:
            observed = ("raises", type(exc).__name__, predicted[2] if predicted[0] == "raises" else (), "")
        else:
            errors = tuple(_error_field(str(e)) for e in getattr(result, "validation_errors", []) or [])
            observed = ("returns", str(getattr(result, "status", "")), errors, _shown_values(result.values))
        if observed != predicted:
            from formscript.pytest_plugin.constructs import spec_repro

            held = given.rules() if given is not None else None
            repro = spec_repro(getattr(form, "title", None), fields, values, held)
            self._drift(
                "fill_form" if fill else "validate_form", site, _said_form(observed), _said_form(predicted), repro
            )

    def _drift(
        self, api: str, site: CallSite | None, lionagi: str, formscript: str, repro: Repro | None = None
    ) -> None:
        """Record that lionagi's *api* did *lionagi* where formscript predicts *formscript*: a
        drift record, a FormscriptDriftWarning at the test's call and, with
        ``--formscript-drift-dir``, the bundle *repro* (its files and the command replaying it)."""
        path, line = (site.path, site.line) if site is not None else ("<unknown>", 1)
        record = {
            "test": self.current_test,
            "source": f"{self._shown(Path(path))}:{line}" if site is not None else api,
            "path": self._shown(Path(path)) if site is not None else path,
            "line": line,
            "call": 0,
            "payload": {"api": api},
            "lionagi": lionagi,
            "formscript": formscript,
        }
        if self.drift_dir is not None and repro is not None:
            record["bundle"] = self._write_bundle(record, *repro)
        self.coverage.drift.append(record)
        text = f"drift at {api}: lionagi {lionagi}, formscript predicts {formscript}"
        warnings.warn_explicit(FormscriptDriftWarning(text), FormscriptDriftWarning, path, line)

    # -- the work-form building blocks a test calls (constructs.py predicts them)

    def _watch_constructs(self) -> None:
        """Wrap ``FieldSpec``, ``WorkForm`` and ``Rule``'s construction, ``RuleSet.add`` and
        ``RuleSet.apply_all``; those lionagi calls itself (inside fill_form, li agent) are its own."""
        try:
            form_module = importlib.import_module("lionagi.work.form")
            rules_module = importlib.import_module("lionagi.work.rules")
            ruleset, rule = rules_module.RuleSet, rules_module.Rule
            models = {"FieldSpec": form_module.FieldSpec, "WorkForm": form_module.WorkForm, "Rule": rule}
        except (ImportError, AttributeError):  # pragma: no cover - part of lionagi 0.36.0
            return
        for api, model in models.items():
            self._patch(model, "__init__", self._construct_wrapper(model, api, _lookup(model, "__init__")))
        for name in ("add", "apply_all"):
            self._patch(ruleset, name, self._ruleset_wrapper(name, _lookup(ruleset, name), rule))

    def _construct_wrapper(self, model: type, api: str, original: Any) -> Any:
        def init(instance: Any, /, *args: Any, **kwargs: Any) -> None:
            __tracebackhide__ = True
            if _INSIDE.get() or type(instance) is not model or args:  # lionagi's own, a subclass
                original(instance, *args, **kwargs)
                return
            token = _INSIDE.set(1)
            try:
                original(instance, **kwargs)
            except Exception as exc:
                self._guarded(self._construct_drift, api, kwargs, model, None, exc)
                raise
            finally:
                _INSIDE.reset(token)
            self._guarded(self._construct_drift, api, kwargs, model, instance, None)

        init.__wrapped__ = original  # type: ignore[attr-defined]
        return init

    def _construct_drift(
        self, api: str, kwargs: dict[str, Any], model: type, built: Any, exc: BaseException | None
    ) -> None:
        from formscript.pytest_plugin.constructs import observed, predict_model, said

        fields = getattr(model, "model_fields", None)
        predicted = predict_model(api, kwargs, fields)
        if predicted is None:
            return
        self.coverage.predicted_constructs += 1
        seen = observed(built, exc, fields)
        if seen != predicted:
            from formscript.pytest_plugin.constructs import call_repro

            repro = call_repro(api, kwargs)
            self._drift(api, self._call_site(), said(seen, predicted), said(predicted, seen), repro)

    def _ruleset_wrapper(self, name: str, original: Any, rule_class: type) -> Any:
        from formscript.pytest_plugin.constructs import (
            observed,
            observed_failures,
            predict_add,
            predict_apply_all,
            rules_repro,
            said,
            spec_repro,
        )

        def method(ruleset: Any, argument: Any, *rest: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            if _INSIDE.get() or rest or kwargs:
                return original(ruleset, argument, *rest, **kwargs)
            held = list(getattr(ruleset, "_rules", []))  # before the call changes it
            token = _INSIDE.set(1)
            try:
                result = original(ruleset, argument)
            except Exception as exc:
                self._guarded(check, held, argument, None, exc)
                raise
            finally:
                _INSIDE.reset(token)
            self._guarded(check, held, argument, result, None)
            return result

        def check(held: list[Any], argument: Any, result: Any, exc: BaseException | None) -> None:
            if name == "add":
                predicted = predict_add(held, argument, rule_class)
                seen = ("returns", "the rule added") if exc is None else observed(None, exc)
            else:
                predicted = predict_apply_all(held, argument)
                seen = observed_failures(result, exc)
            if predicted is None:
                return
            self.coverage.predicted_constructs += 1
            if seen != predicted:
                if name == "add":
                    repro = rules_repro([*held, argument])
                else:
                    fields, values = getattr(argument, "fields", None), getattr(argument, "values", None)
                    repro = spec_repro(getattr(argument, "title", None), fields, values, held)
                site = self._call_site()
                self._drift(f"RuleSet.{name}", site, said(seen, predicted), said(predicted, seen), repro)

        method.__wrapped__ = original  # type: ignore[attr-defined]
        method.__name__ = name
        return method

    def _form_after(self, path: Any, exc: BaseException | None, form: Any, spec: Any = _ABSENT) -> None:
        """After li agent --form loaded (*exc* only) or built (*spec*, the loaded dict it was
        given, and the *form* built) a spec: the spec file's report, or, where the builder was
        handed a dict that is not the file's (a test calls it directly), the dict's at the call."""
        if not isinstance(path, str | os.PathLike):
            return
        resolved = Path(path).resolve()
        try:
            info = resolved.stat()
            stamp: tuple[Any, ...] = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamp = ()
        key = ("form", str(resolved), *stamp)
        if key not in self._checked:
            shown = self._shown(resolved)
            self._checked[key] = check_file(os.fspath(path), shown, as_yaml=None, settings=self.settings, kind="form")
        checked = self._checked[key]
        if spec is not _ABSENT and not _loaded_as(checked, spec):
            site = self._call_site()
            if site is None:
                return
            checked = check_spec_value(spec, os.fspath(path), site)
        elif not self._inside(checked.path):
            checked = self._written(checked, "form") or checked
        refused = exc is not None or getattr(form, "status", None) == "error"
        if spec is _ABSENT:  # the file's own, as loaded
            document = checked.report.document if checked.report is not None else None
            spec = document.value if document is not None else None
        self._spec_drift(checked, refused, exc, form, spec)
        if form is not None and not refused:
            if len(self._built) >= 8:  # a form built and never rendered (no values): let it go
                self._built.pop(next(iter(self._built)))
            self._built[id(form)] = (form, checked, spec)
        if not refused:
            self._warn_findings(checked)
            return
        if checked.verdict is not Verdict.REJECTED:
            return
        if exc is not None:
            why = f"{type(exc).__module__}.{type(exc).__qualname__}: {(str(exc).splitlines() or [''])[0]}"
        else:
            why = "; ".join(str(e) for e in getattr(form, "validation_errors", []) or []) or "status error"
        text = (
            f"formscript: li agent --form refuses the form spec {checked.path}:\n"
            f"{checked.render()}\nlionagi said: {why}\n"
        )
        if exc is not None:
            self._rejections[id(exc)] = (exc, text)
        self._pending.append(text)

    def _spec_drift(self, checked: Checked, refused: bool, exc: BaseException | None, form: Any, spec: Any) -> None:
        """``li agent --form`` loading and building the spec as formscript predicts: refused or
        not (the prompt cap, checked later by the command, aside)."""
        from formscript import rules as registry

        if checked.verdict not in (Verdict.ACCEPTED, Verdict.REJECTED) or checked.report is None:
            return
        rejecting = [
            d
            for d in checked.report.diagnostics
            if (rule := registry.get(d.code)) is not None and rule.rejects and d.code != registry.FS024.code
        ]
        predicted = bool(rejecting)
        self.coverage.predicted_specs += 1
        if predicted == refused:
            return
        if exc is not None:
            theirs = f"refuses the spec ({type(exc).__name__}: {(str(exc).splitlines() or [''])[0]})"
        elif refused:
            theirs = "builds the form with status 'error'"
        else:
            theirs = f"builds the form (status {getattr(form, 'status', None)!r})"
        line = rejecting[0].span.start.line + 1 if rejecting else checked.line or 1
        mine = f"it refuses it ({rejecting[0].code}: {rejecting[0].message})" if rejecting else "it builds the form"
        site = CallSite(checked.path, checked.path, line, 0)
        self._drift("li agent --form", site, theirs, mine, _spec_files(spec))

    def _wrap_loader(self, model: type, name: str) -> None:
        func = _lookup(model, name).__func__

        def loader(cls: type, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True  # pytest shows the test's and lionagi's frames, not ours
            if _DEPTH.get():
                return func(cls, *args, **kwargs)
            token = _DEPTH.set(1)
            try:
                result = func(cls, *args, **kwargs)
            except BaseException as exc:
                _DEPTH.reset(token)
                if isinstance(exc, Exception):  # not for KeyboardInterrupt and its kind
                    self._guarded(self._after, name, args, kwargs, None, exc)
                raise
            _DEPTH.reset(token)
            self._guarded(self._after, name, args, kwargs, result, None)
            return result

        loader.__name__ = func.__name__
        loader.__qualname__ = func.__qualname__
        loader.__doc__ = func.__doc__
        loader.__wrapped__ = func  # type: ignore[attr-defined]
        self._patch(model, name, classmethod(loader))

    def _init_wrapper(self, init: Any) -> Any:
        def __init__(instance: Any, /, **data: Any) -> None:
            __tracebackhide__ = True
            if _DEPTH.get():
                init(instance, **data)
                return
            token = _DEPTH.set(1)
            try:
                init(instance, **data)
            except BaseException as exc:
                _DEPTH.reset(token)
                if isinstance(exc, Exception):
                    self._guarded(self._after, "__init__", (data,), {}, None, exc)
                raise
            _DEPTH.reset(token)
            self._guarded(self._after, "__init__", (data,), {}, instance, None)

        __init__.__wrapped__ = init  # type: ignore[attr-defined]
        return __init__

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

    def _guarded(self, action: Callable[..., None], *args: Any) -> None:
        """Run *action*; a failure of formscript's own is a warning, never the test's problem."""
        try:
            action(*args)
        except FormscriptWarning:  # -W error::FormscriptWarning: the user wants it raised
            raise
        except Exception as exc:  # a bug of ours: the test goes on as lionagi decides
            warnings.warn(
                FormscriptWarning(f"formscript failed while observing lionagi: {type(exc).__name__}: {exc}"),
                stacklevel=2,
            )

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
            checked = self._check_value(source, site)
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

    def _check_file(self, path: str, as_yaml: bool | None) -> Checked:
        resolved = Path(path).resolve()
        try:
            info = resolved.stat()
            stamp: tuple[Any, ...] = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamp = ()
        key = ("file", str(resolved), as_yaml, *stamp)
        if key not in self._checked:
            self._checked[key] = check_file(path, self._shown(resolved), as_yaml=as_yaml, settings=self.settings)
        return self._checked[key]

    def _written(self, checked: Checked, kind: str) -> Checked | None:
        """The literal the test wrote to a file outside the project (``tmp_path``), if the
        caller's file writes exactly this text."""
        document = checked.report.document if checked.report is not None else None
        site = self._call_site()
        if document is None or site is None:
            return None
        text = read_python(site.path)
        if text is None:
            return None
        found = written_at(document.text, site, text, kind=kind, settings=self.settings)
        if found is None:
            return None
        return self._checked.setdefault(("written", found.key, document.text), found)

    def _check_value(self, data: Any, site: CallSite) -> Checked:
        text = read_python(site.path)
        checked = check_value(data, site, text, settings=self.settings)
        return self._checked.setdefault(("value", checked.key), checked)

    def _shown(self, path: Path) -> str:
        try:
            return path.relative_to(self.rootdir).as_posix()
        except ValueError:
            return str(path)

    def _inside(self, shown: str) -> bool:
        return not Path(shown).is_absolute()

    def _call_site(self) -> CallSite | None:
        """The first frame outside lionagi, pydantic and this plugin: where the test called."""
        frame: FrameType | None = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename.startswith(self._skip):
            frame = frame.f_back
        if frame is None:
            return None
        filename = frame.f_code.co_filename
        line, column = frame.f_lineno, 0
        positions = list(frame.f_code.co_positions())
        at = frame.f_lasti // 2
        if 0 <= at < len(positions):
            start, _, col, _ = positions[at]
            if start is not None and col is not None:
                line, column = start, col
        path = Path(filename)
        shown = self._shown(path.resolve()) if path.is_absolute() else filename
        return CallSite(shown, filename, line, column)

    def _failure_text(self, checked: Checked, exc: BaseException) -> str:
        errors = sum(1 for d in checked.diagnostics if d.severity == "error")
        if checked.kind == "file":
            what = checked.path
        else:
            what = f"{checked.call or 'the script'}(...) at {checked.path}:{checked.line}"
        first = (str(exc).splitlines() or [""])[0]
        name = type(exc).__module__ + "." + type(exc).__qualname__
        return (
            f"formscript: lionagi rejects the script {what} ({errors} error(s)):\n"
            f"{checked.render()}"
            f"\nlionagi raised {name}: {first}\n"
            "(lionagi's traceback is left out; --formscript-traceback shows it after this report)"
        )

    def rejection(self, exc: BaseException | None) -> str | None:
        """formscript's report for *exc* or an exception it was raised from, if any."""
        seen: set[int] = set()
        while exc is not None and id(exc) not in seen:
            seen.add(id(exc))
            found = self._rejections.get(id(exc))
            if found is not None and found[0] is exc:
                return found[1]
            exc = exc.__cause__ or exc.__context__
        return None

    def pending(self) -> list[str]:
        """formscript's reports of everything lionagi refused since the last ``forget_rejections``."""
        return list(self._pending)

    def forget_rejections(self) -> None:
        """Drop what was kept for the test (or collection) that just finished."""
        self._rejections.clear()
        self._pending.clear()

    def _warn_findings(self, checked: Checked) -> None:
        for d in checked.diagnostics:
            if d.severity not in ("error", "warning"):
                continue
            line, column = d.span.start.line + 1, d.span.start.column + 1
            self._warn(checked, (d.code, line, column, d.message), line, f"{d.severity}[{d.code}] {d.message}", column)

    def _warn(
        self, checked: Checked, what: tuple[Any, ...], line: int, message: str, column: int | None = None
    ) -> None:
        key = (checked.key, *what)
        if key in self._warned:
            return
        self._warned.add(key)
        # pytest shows the file and line before the message: the column goes after it
        text = message + (f" (column {column})" if column is not None else "")
        warnings.warn_explicit(FormscriptWarning(text), FormscriptWarning, checked.path, line)

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
        source = self.coverage.sources.get(key, {})
        entries = source.get("entries", [])
        at = index if index is not None else predicted[1]
        line = entries[at]["line"] if at is not None and at < len(entries) else source.get("line")
        record = {
            "test": self.current_test,
            "source": key,
            "path": source.get("path", key),
            "line": line,
            "call": call_index,
            "payload": call_item(payload),
            "lionagi": _said(observed),
            "formscript": _said(predicted),
        }
        if self.drift_dir is not None:
            record["bundle"] = self._bundle(instance, tracked.items, record)
        self.coverage.drift.append(record)
        text = (
            f"drift at call {call_index} of {key}: lionagi {record['lionagi']}, "
            f"formscript predicts {record['formscript']}"
        )
        path = source.get("path", key)
        warnings.warn_explicit(FormscriptDriftWarning(text), FormscriptDriftWarning, path, line or 1)

    def _bundle(self, instance: Any, calls: list[Any], record: dict[str, Any]) -> str:
        """Write a served call's repro bundle: the script as lionagi holds it (data) and the
        session's calls up to this one as a calls transcript. Its folder's name."""
        script = instance.model_dump(mode="json", exclude_none=True)
        files = {"script.yaml": _yaml(script), "calls.yaml": _yaml(calls)}
        return self._write_bundle(record, files, "formscript simulate script.yaml --calls calls.yaml", len(calls) - 1)

    def _write_bundle(self, record: dict[str, Any], files: dict[str, str], replay: str, call: int = 0) -> str:
        """Write a drift's bundle under ``--formscript-drift-dir``: *files*, and ``drift.json``
        with both answers, both versions and the command (*replay*) that replays formscript's."""
        import json

        from formscript import __version__

        assert self.drift_dir is not None
        worker = os.environ.get("PYTEST_XDIST_WORKER")  # each xdist worker numbers its own
        name = f"drift-{len(self.coverage.drift) + 1:03d}" + (f"-{worker}" if worker else "")
        folder = self.drift_dir / name
        folder.mkdir(parents=True, exist_ok=True)
        for file_name, text in files.items():
            (folder / file_name).write_text(text, "utf-8")
        facts = {
            "replay": replay,
            "lionagi_version": self.coverage.lionagi_version,
            "formscript_version": __version__,
            "test": record["test"],
            "source": record["source"],
            "call": call,
            "lionagi": record["lionagi"],
            "formscript": record["formscript"],
        }
        (folder / "drift.json").write_text(json.dumps(facts, indent=2, ensure_ascii=True) + "\n", "utf-8")
        return name


def _spec_files(spec: Any) -> Repro | None:
    """The spec li agent --form was given, as the file ``formscript dry-run`` replays."""
    from formscript.pytest_plugin.checks import is_plain

    return ({"form.yaml": _yaml(spec)}, "formscript dry-run form.yaml") if is_plain(spec) else None


def _yaml(data: Any) -> str:
    import yaml

    return str(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


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


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (1 is not True, 1.0 is not 1)."""
    try:
        return bool(a == b) and repr(a) == repr(b)
    except RecursionError:  # a value that holds itself: repr gives up; equality stands alone
        return bool(a == b)


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _error_field(message: str) -> str:
    """The field a lionagi validation error names (``Field 'age' expects ...``), else the text."""
    import re

    found = re.match(r"Field '([^']*)'", message)
    return found.group(1) if found else message


def _shown_values(values: Any) -> str:
    return repr(sorted(((repr(k), repr(v)) for k, v in values.items()))) if isinstance(values, dict) else repr(values)


def _said_form(outcome: tuple[str, str, tuple[str, ...], str]) -> str:
    what, status, fields, shown = outcome
    if what == "raises":
        return f"raises {status}"
    errors = f" with errors on {', '.join(fields)}" if fields else ""
    return f"returns status {status!r}{errors} and values {shown}"


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


def _loaded_as(checked: Checked, spec: Any) -> bool:
    """Whether the spec file *checked* loads to *spec* (the dict li agent's builder was given)."""
    document = checked.report.document if checked.report is not None else None
    try:
        return document is not None and _same(document.value, spec)
    except Exception:  # a value whose comparison raises: not the same
        return False


def _lookup(owner: type, name: str) -> Any:
    """The attribute as defined on *owner* or the first base that defines it (a classmethod
    stays a classmethod object)."""
    for klass in owner.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    raise AttributeError(name)


def _is_fresh(instance: Any) -> bool:
    """Whether the script has served nothing yet (its cursor and its when-served list are at
    their start)."""
    try:
        return bool(instance.cursor == 0 and not instance._served_by_when)
    except AttributeError:
        return True


def next_index(responses: Any, entry: Any) -> int | None:
    """The position of the served *entry* in the script's responses (by identity)."""
    for i, candidate in enumerate(responses):
        if candidate is entry:
            return i
    return None


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
