"""Which kind a file is: --kind, configured globs, default names, then content sniffing."""

from __future__ import annotations

import fnmatch
from pathlib import PurePath
from typing import Any

from formscript.core.names import suffix
from formscript.lint.config import KINDS, Settings

#: The endings of the files a kind is named by (``<name>.<kind><ending>``).
SUFFIXES = (".yaml", ".yml", ".json")


def without_ending(name: str) -> str:
    """*name* without the ending of a kind's file (``.yaml``, ``.yml`` or ``.json``)."""
    return next((name.removesuffix(s) for s in SUFFIXES if name.endswith(s)), name)


def kind_from_name(path: str, settings: Settings) -> str | None:
    """The kind named by configured globs or the default ``*.<kind>.<ext>`` names."""
    if settings.kinds:
        # a glob matches the path relative to the configuration's folder (as per-file-ignores
        # do; the server sees absolute paths), the path as given, or the file name
        forms = {settings.relative(path), PurePath(path).as_posix(), PurePath(path).name}
        for known in KINDS:
            for pattern in settings.kinds.get(known, ()):
                if any(fnmatch.fnmatch(form, pattern) for form in forms):
                    return known
    stem, dot, suffix = path.rpartition(".")
    if not dot or f".{suffix}" not in SUFFIXES:
        return None
    _, separator, kind = stem.rpartition(".")
    return kind if separator and kind in KINDS else None


def is_candidate(path: str, settings: Settings) -> bool:
    """Whether a file found in a directory walk is worth opening (a Python file is, to look
    for the scripts and forms it hands to lionagi: reading it says whether it mentions it)."""
    found = suffix(path)
    return kind_from_name(path, settings) is not None or found in SUFFIXES or found == ".py"


# What each kind's documents hold (core/keys.py is the source; tests/test_detection.py checks
# these against it, so detecting a kind never loads the models).
_SCRIPT_KEYS = frozenset({"version", "mode", "responses"})
_MODES = frozenset({"auto", "positional", "when_only"})
_ENTRY_TYPES = frozenset({"text", "tool_call", "structured", "stream", "error"})
_ENTRY_KEYS = frozenset(
    {"type", "when", "content", "name", "arguments", "id", "data", "chunks", "kind", "message", "delay_ms"}
)
_FORM_KEYS = frozenset({"title", "fields", "values"})
_FIELD_KEYS = frozenset({"type", "required", "default", "description", "id", "created_at", "metadata"})
_FIELD_TYPES = frozenset({"str", "int", "float", "bool", "list", "dict"})
_RULE_KEYS = frozenset({"rule_id", "field", "check", "params", "message", "enabled"})
_CHECKS = frozenset({"required", "type", "range", "pattern", "custom"})
_CALL_KEYS = frozenset({"prompt", "tools", "payload", "chat", "context", "guidance", "plain_content", "tool_schemas"})


def sniff(value: Any) -> str | None:
    """The kind a document of no known name is, judged by its shape, not by one key name.

    Other ecosystems' YAML is full of ``rules:``, ``responses:``, ``mode:`` and ``fields:``
    (Kubernetes Roles, ESLint, OpenAPI, Rasa, Helm values, Frictionless schemas); a document
    is claimed only when its shape is unmistakably a lionagi script, work form, ruleset or
    calls transcript, and skipped silently otherwise:

    - script: ``responses`` is a list, and either one of its items is a mapping whose ``type``
      names a response type (or nearly: ``txt``) and at most one top-level key is not a
      script's, or every key (top-level and of each entry) is a script's own; or, with no
      responses, only a script's keys and a valid ``mode``;
    - form: ``fields`` is a mapping of declarations, and either one declares a field type
      and at most one top-level key is not a form's, or all are made of a declaration's keys
      (or there are none) and every top-level key is a form's;
    - ruleset: ``rules`` is a list whose mappings each have a ``rule_id``, ``field`` or
      ``check``, one of them a ``check`` the runtime knows or both ``rule_id`` and ``field``;
    - calls transcript: a list with at least one mapping, each mapping a call (with a
      ``prompt``, ``payload`` or ``chat``) and one made of a call's keys alone (an evaluation
      harness's prompt list has its own keys on every item); a list of strings alone is any
      list of strings: name such a file ``*.calls.yaml``.
    """
    if isinstance(value, dict):
        if _is_script(value):
            return "script"
        if _is_rules(value):
            return "rules"
        if _is_form(value):
            return "form"
        return None
    if isinstance(value, list) and _is_calls(value):
        return "calls"
    return None


def _own_keys(value: dict[Any, Any], known: frozenset[str]) -> bool:
    return all(isinstance(k, str) and k in known for k in value)


def _is_script(value: dict[Any, Any]) -> bool:
    responses = value.get("responses")
    if not isinstance(responses, list):
        mode = value.get("mode")
        # a script with no responses yet: nothing but a script's keys and one of its modes
        return "responses" not in value and _own_keys(value, _SCRIPT_KEYS) and isinstance(mode, str) and mode in _MODES
    entries = [item for item in responses if isinstance(item, dict)]
    strangers = sum(1 for k in value if not (isinstance(k, str) and k in _SCRIPT_KEYS))
    if strangers <= 1 and any(_names_entry_type(e.get("type")) for e in entries):
        return True  # one stranger is a misspelt key; more, another program's document
    return (
        _own_keys(value, _SCRIPT_KEYS)
        and len(entries) == len(responses)
        and all(_own_keys(e, _ENTRY_KEYS) for e in entries)
    )


def _names_entry_type(value: Any) -> bool:
    """A response type, or a near miss of one (``txt``, ``Tool-Call``): a typo is still ours."""
    if not isinstance(value, str):
        return False
    if value in _ENTRY_TYPES:
        return True
    import difflib

    spelt = value.strip().lower().replace("-", "_").replace(" ", "_")
    return bool(difflib.get_close_matches(spelt, _ENTRY_TYPES, n=1, cutoff=0.75))


def _is_form(value: dict[Any, Any]) -> bool:
    fields = value.get("fields")
    strangers = sum(1 for k in value if not (isinstance(k, str) and k in _FORM_KEYS))
    if isinstance(fields, dict):
        specs = [spec for spec in fields.values() if isinstance(spec, dict)]
        typed = any(isinstance(s.get("type"), str) and s["type"] in _FIELD_TYPES for s in specs)
        declared = bool(specs) and all(s and _own_keys(s, _FIELD_KEYS) for s in specs)
        if typed:
            return strangers <= 1
        return (declared or not fields) and strangers == 0
    return False


def _is_rules(value: dict[Any, Any]) -> bool:
    rules = value.get("rules")
    if not isinstance(rules, list):
        return False
    items = [r for r in rules if isinstance(r, dict)]
    if not items or not all(set(r) & {"rule_id", "field", "check"} for r in items):
        return False
    return any(
        (isinstance(r.get("check"), str) and r["check"] in _CHECKS) or {"rule_id", "field"} <= set(r) for r in items
    )


def _is_calls(value: list[Any]) -> bool:
    calls = [item for item in value if isinstance(item, dict)]
    if not calls or not all(set(c) & {"prompt", "payload", "chat"} for c in calls):
        return False
    # another harness's prompt list carries its own keys (id, category, ...) on every item
    return any(_own_keys(c, _CALL_KEYS) for c in calls)
