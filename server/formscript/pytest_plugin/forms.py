"""Watching lionagi 0.36.0's work forms in a test run: the building blocks a test calls
(``FieldSpec``, ``WorkForm``, ``Rule``, ``RuleSet.add`` / ``apply_all``), ``fill_form`` and
``validate_form``, and ``li agent --form`` run in-process (its spec loading and building, and
the context block it renders). Each call runs as it would; formscript's prediction from the same
arguments is then set against what lionagi did, and a difference is drift.
"""

from __future__ import annotations

import contextvars
import functools
import os
from pathlib import Path
from typing import Any

from formscript.core.verdict import Verdict
from formscript.lint.config import Settings
from formscript.pytest_plugin.checks import (
    CallSite,
    Checked,
    check_spec_value,
)
from formscript.pytest_plugin.constructs import (
    call_repro,
    decidable_rules,
    observed,
    observed_failures,
    predict_add,
    predict_apply_all,
    predict_model,
    rules_repro,
    said,
    spec_file_repro,
    spec_repro,
)
from formscript.pytest_plugin.coverage import Coverage
from formscript.pytest_plugin.watching import _ABSENT, Watcher, _lookup, _same

__all__ = ["FormWatcher"]

_FILLING: contextvars.ContextVar[int] = contextvars.ContextVar("formscript_fill_depth", default=0)
#: Inside a call of lionagi's the plugin watches: the FieldSpec, WorkForm, Rule and RuleSet calls
#: lionagi makes there are its own, not the test's.
_INSIDE: contextvars.ContextVar[int] = contextvars.ContextVar("formscript_inside_depth", default=0)


class FormWatcher(Watcher):
    """The wrappers on lionagi's work-form API."""

    def __init__(self, rootdir: Path, settings: Settings, coverage: Coverage) -> None:
        super().__init__(rootdir, settings, coverage)
        #: Forms ``li agent --form`` built from a spec, until it renders their context block.
        self._built: dict[int, tuple[Any, Checked, Any]] = {}

    def _install_forms(self, work_form: Any, work: Any, rules_module: Any, agent: Any) -> None:
        """Wrap lionagi's work-form API (the modules ``Observer.install`` imported; None where
        one is missing): the building blocks, fill_form / validate_form, li agent --form."""
        if work_form is not None and rules_module is not None:
            self._watch_constructs(work_form, rules_module)
        for fill, name in ((True, "fill_form"), (False, "validate_form")):
            original = getattr(work_form, name, None) if work_form is not None else None
            if original is not None:
                wrapped = self._fill_wrapper(original, fill)
                for module in (work_form, work):
                    if getattr(module, name, None) is original:
                        self._patch(module, name, wrapped)
        if agent is not None and hasattr(agent, "_load_form_spec") and hasattr(agent, "_build_work_form"):
            self._patch(agent, "_load_form_spec", self._form_wrapper(agent._load_form_spec, "load"))
            self._patch(agent, "_build_work_form", self._form_wrapper(agent._build_work_form, "build"))
            if callable(getattr(agent, "_form_to_context_block", None)):
                self._patch(agent, "_form_to_context_block", self._block_wrapper(agent._form_to_context_block))

    def _form_wrapper(self, original: Any, step: str) -> Any:
        """``li agent --form``'s loading (``_load_form_spec(path)``) and building
        (``_build_work_form(spec, path)``): when either refuses the spec, the test's failure
        (the command returns 1) carries formscript's located report of the spec file."""

        @functools.wraps(original)
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

        return form_step

    def _block_wrapper(self, original: Any) -> Any:
        """``li agent --form``'s context block (the text put before the prompt) for a form it
        built from a spec: set against the block formscript renders for the same spec."""

        @functools.wraps(original)
        def block(form: Any, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            text = original(form, *args, **kwargs)
            self._guarded(self._block_drift, form, text)
            return text

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
                spec_file_repro(spec),
            )

    def _fill_wrapper(self, original: Any, fill: bool) -> Any:
        """``fill_form`` / ``validate_form``: the call runs as it would, then formscript's
        prediction from the same form, values and rule set is set against what it returned."""

        @functools.wraps(original)
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

        return filling

    def _form_drift(
        self, fill: bool, args: tuple[Any, ...], kwargs: dict[str, Any], result: Any, exc: BaseException | None
    ) -> None:
        """Predict the call with formscript's core (status, errors in order by field, values
        after coercion, or the exception) and record any difference as drift."""
        from formscript.core.fields import FillCrash, check_values, merge_values

        form = args[0] if args else kwargs.get("form")
        values = (args[1] if len(args) > 1 else kwargs.get("values")) if fill else getattr(form, "values", None)
        fields = getattr(form, "fields", None)
        if not isinstance(fields, dict) or not isinstance(values, dict):
            return  # lionagi's own errors for what is not a form or mapping: not modelled here
        given = kwargs.get("ruleset")
        ruleset = decidable_rules(given.rules()) if given is not None else None
        if given is not None and ruleset is None:
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
            seen = ("raises", type(exc).__name__, predicted[2] if predicted[0] == "raises" else (), "")
        else:
            errors = tuple(_error_field(str(e)) for e in getattr(result, "validation_errors", []) or [])
            seen = ("returns", str(getattr(result, "status", "")), errors, _shown_values(result.values))
        if seen != predicted:
            held = given.rules() if given is not None else None
            repro = spec_repro(getattr(form, "title", None), fields, values, held)
            self._drift("fill_form" if fill else "validate_form", site, _said_form(seen), _said_form(predicted), repro)

    def _watch_constructs(self, form_module: Any, rules_module: Any) -> None:
        """Wrap ``FieldSpec``, ``WorkForm`` and ``Rule``'s construction, ``RuleSet.add`` and
        ``RuleSet.apply_all``; those lionagi calls itself (inside fill_form, li agent) are its own."""
        try:
            ruleset, rule = rules_module.RuleSet, rules_module.Rule
            models = {"FieldSpec": form_module.FieldSpec, "WorkForm": form_module.WorkForm, "Rule": rule}
        except AttributeError:  # pragma: no cover - part of lionagi 0.36.0
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
        fields = getattr(model, "model_fields", None)
        predicted = predict_model(api, kwargs, fields)
        if predicted is None:
            return
        self.coverage.predicted_constructs += 1
        seen = observed(built, exc, fields)
        if seen != predicted:
            repro = call_repro(api, kwargs)
            self._drift(api, self._call_site(), said(seen, predicted), said(predicted, seen), repro)

    def _ruleset_wrapper(self, name: str, original: Any, rule_class: type) -> Any:
        @functools.wraps(original)
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

        return method

    def _form_after(self, path: Any, exc: BaseException | None, form: Any, spec: Any = _ABSENT) -> None:
        """After li agent --form loaded (*exc* only) or built (*spec*, the loaded dict it was
        given, and the *form* built) a spec: the spec file's report, or, where the builder was
        handed a dict that is not the file's (a test calls it directly), the dict's at the call."""
        if not isinstance(path, str | os.PathLike):
            return
        checked = self._check_file(os.fspath(path), None, kind="form")
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
        self._drift("li agent --form", site, theirs, mine, spec_file_repro(spec))


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


def _loaded_as(checked: Checked, spec: Any) -> bool:
    """Whether the spec file *checked* loads to *spec* (the dict li agent's builder was given)."""
    document = checked.report.document if checked.report is not None else None
    try:
        return document is not None and _same(document.value, spec)
    except Exception:  # a value whose comparison raises: not the same
        return False
