"""Form checks beyond the runtime's verdict: YAML 1.1 surprises, implicit coercions and
booleans given to numbers. Light on purpose: linting a form imports no model machinery."""

from __future__ import annotations

import re
from typing import Any

from formscript import rules
from formscript.core.fields import CoercionError, Declared, coerce_value, type_label
from formscript.core.gate import GateResult
from formscript.core.printable import printable
from formscript.core.verdict import Problem
from formscript.document import Document

_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_OCTAL = re.compile(r"^[-+]?0[0-7_]+$")


def form_checks(doc: Document, result: GateResult) -> list[Problem]:
    """YAML 1.1 surprises, implicit coercions and bools given to numbers."""
    spec = doc.value if isinstance(doc.value, dict) else {}
    values = spec.get("values")
    if not isinstance(values, dict):
        return []
    found: list[Problem] = []
    rejected_paths = {p.path for p in result.problems if p.rejects}
    for key, raw in values.items():
        declaration = result.declarations.get(key)
        if declaration is None:
            continue
        path = ("values", key)
        entry = doc.entry(path)
        scalar = entry.scalar if entry is not None else None
        surprise = None
        if scalar is not None and scalar.style == "":
            surprise = _yaml11_surprise(declaration, scalar.text, scalar.tag, raw)
        if surprise is not None:
            rule = rules.FS015 if path in rejected_paths else rules.FS023
            text = scalar.text if scalar is not None else ""
            found.append(
                rule.problem(path=path, field=str(key), reading=surprise, text=text, safe=declaration.type == "str")
            )
            continue
        if isinstance(raw, bool) and declaration.type in ("int", "float"):
            stored = 1.0 if raw and declaration.type == "float" else raw
            if declaration.type == "float":
                stored = float(raw)
            found.append(
                rules.FS017.problem(path=path, field=str(key), declared=declaration.type, given=raw, stored=stored)
            )
        elif isinstance(raw, str) and declaration.type in ("int", "float", "bool"):
            try:
                coerced = coerce_value(str(key), declaration.type, raw)
            except CoercionError:
                continue
            found.append(
                rules.FS016.problem(path=path, field=str(key), given=raw, declared=declaration.type, coerced=coerced)
            )
    return found


def string_surprise(text: str, tag: str, value: Any) -> str | None:
    """How YAML 1.1 misreads the plain scalar *text* where a string is wanted, or None."""
    value = printable(value)  # an int too long for decimal is shown in hex
    if tag == _BOOL:
        return f"YAML 1.1 reads unquoted {text!r} as the boolean {value!r}, not a string"
    if tag in (_INT, _FLOAT):
        return f"YAML 1.1 reads unquoted {text!r} as the number {value!r}, not a string"
    if tag == _TIMESTAMP:
        return f"YAML 1.1 reads unquoted {text!r} as a {type_label(value)}, not a string"
    if tag == _NULL and text == "~":
        return "YAML reads unquoted '~' as null, not a string"
    return None


def _yaml11_surprise(declaration: Declared, text: str, tag: str, value: Any) -> str | None:
    wanted = declaration.type
    if wanted == "str":
        return string_surprise(text, tag, value)
    value = printable(value)  # an int too long for decimal is shown in hex
    if wanted in ("int", "float"):
        if tag == _INT and (_OCTAL.match(text) or ":" in text):
            kind = "octal" if _OCTAL.match(text) else "base-60"
            return f"YAML 1.1 reads unquoted {text!r} as the {kind} number {value!r}"
        if tag == _FLOAT and ":" in text:
            return f"YAML 1.1 reads unquoted {text!r} as the base-60 number {value!r}"
        if tag == _TIMESTAMP:
            return f"YAML 1.1 reads unquoted {text!r} as a {type_label(value)}, not a number"
    return None
